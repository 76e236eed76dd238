"""Hundred and Ten records (JSON lines, version 1) and their replay (see records.py).

A record is one JSON object per line::

    {"Type":"Record","Game":"hundredandten","Version":1,"Players":["ann","bob","cy","dee"]}
    {"Type":"Deal","Round":1,"Dealer":0,"Deck":["5H","JS", ... 53 codes]}
    {"Type":"Bid","Playerid":1,"Bid":15}
    {"Type":"Unpass","Playerid":2}
    {"Type":"Trump","Playerid":1,"Trump":"H"}
    {"Type":"Discard","Playerid":2,"Cards":["2C","3D"]}
    {"Type":"Play","Playerid":3,"PlayedCard":"5H"}

Seat ``i`` is ``Players[i]`` and seat 0 deals the first round. The header may carry a
``"Seed"``; then every round's deck is the seeded one and ``Deal`` lines may leave out
``Deck`` (if they give it, it must match). Without a seed every ``Deal`` gives its
``Deck``: seat ``i`` is dealt ``Deck[5i:5i+5]`` and refills come in order from
``Deck[5n:]``. Each round starts with its ``Deal`` line (``Round`` is 1-based and counts
passed-out rounds; ``Round`` and ``Dealer`` must be what the rules say), then come the
actions in the order they happened. ``Bid`` 0 is a pass, 60 shoots the moon; a pass
from a seat that is not to act is a pre-pass. Keys other than these are ignored, so a
later version may add some. Blank lines are skipped (they still count as lines).

Replay yields, after every round (passed-out ones too)::

    {"Type":"Score","Round":1,"Score":[cumulative totals by seat]}

and when the game ends, also ``{"Type":"Score","GameOver":true,"Winner":1,"Score":[...]}``.
At the first line it cannot replay it yields ``{"Type":"Error","Line":n,"Code":...,
"Message":...}`` (``n`` counts physical lines from 1) and stops. A record that simply
stops, mid-round or between rounds, yields what it completed and is not an error.

Every line is read in full (JSON, fields, cards) before it is checked against the game,
so a line that is both unreadable and out of place reports the reading error.
``ERROR_CODES`` lists every ``Code`` replay can give.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from hundred_server.games.hundredandten.rules import (
    Action,
    Bid,
    DealRecord,
    Discard,
    Event,
    Game,
    GameWon,
    PassedOut,
    Play,
    RoundScored,
    SelectTrump,
    Unpass,
    check_deck,
)
from hundred_server.games.kit import replay as replaying
from hundred_server.games.kit.cards import format_cards
from hundred_server.games.kit.replay import (
    deal_object,
    engine,
    history_lines,
    read_card,
    read_cards,
    read_int,
    read_str,
    read_suit,
    record_header,
)
from hundred_server.games.kit.replay import error_object as error_object  # Error lines

GAME: Final = "hundredandten"
VERSION: Final = 1

#: Every ``Code`` an ``Error`` line can carry, and what it means.
ERROR_CODES: Final[dict[str, str]] = {
    **replaying.COMMON_CODES,
    "bad_suit": "a Trump that names no suit",
    "wrong_round": "a Deal whose Round is not the round the rules are at",
    "bad_players": "not 2 to 4 players",
    "bad_deck": "a Deck that is not the 53 cards each once",
    "wrong_phase": "an action that does not fit the phase (a Trump while bidding, ...)",
    "illegal_bid": "a Bid amount that does not exist or is too low",
    "already_passed": "a pass from a seat that has passed or pre-passed",
    "not_pre_passed": "an Unpass from a seat without a pre-pass",
    "duplicate_card": "a Discard naming a card twice",
    "must_bleed": "a non-trump on a trump lead from a seat holding a trump",
    "bad_action": "an action the engine does not know",
}

# ----------------------------------------------------------------------------- writing


def action_object(seat: int, action: Action) -> dict[str, Any]:
    """One action as its record line (a JSON-ready dict)."""
    if isinstance(action, Bid):
        return {"Type": "Bid", "Playerid": seat, "Bid": action.amount}
    if isinstance(action, Play):
        return {"Type": "Play", "Playerid": seat, "PlayedCard": action.card.code}
    if isinstance(action, Discard):
        return {"Type": "Discard", "Playerid": seat, "Cards": format_cards(action.cards)}
    if isinstance(action, SelectTrump):
        return {"Type": "Trump", "Playerid": seat, "Trump": action.suit.value}
    if isinstance(action, Unpass):
        return {"Type": "Unpass", "Playerid": seat}
    raise TypeError(f"not a Hundred and Ten action: {action!r}")


def header_object(game: Game) -> dict[str, Any]:
    """A record's first line."""
    return record_header(GAME, VERSION, game.players, game.seed)


def history_objects(game: Game, start: int = 0) -> list[dict[str, Any]]:
    """The record lines of ``game.history[start:]`` (a record's lines after the header)."""
    return history_lines(game.history[start:], _deal_object, action_object)


def _deal_object(deal: DealRecord) -> dict[str, Any]:
    return deal_object("Round", deal.round, deal.dealer, deal.deck)


# ----------------------------------------------------------------------------- reading


def _bid(obj: dict[str, Any]) -> Bid:
    return engine(Bid, read_int(obj, "Bid"))


_ACTIONS: Final[dict[str, Callable[[dict[str, Any]], Action]]] = {
    "Bid": _bid,
    "Unpass": lambda obj: Unpass(),
    "Trump": lambda obj: SelectTrump(read_suit(obj, "Trump")),
    "Discard": lambda obj: Discard(tuple(read_cards(obj, "Cards"))),
    "Play": lambda obj: Play(read_card(read_str(obj, "PlayedCard"), "PlayedCard")),
}
_KNOWN_TYPES: Final = ("Record", "Deal", *_ACTIONS)


class Replayer(replaying.Replayer[Game]):
    """Hundred and Ten's replay: replaying.Replayer with Bid, Unpass, Trump, Discard and
    Play lines, and a Score line after every round, passed-out ones too."""

    game_name = GAME
    version = VERSION
    known_types = _KNOWN_TYPES
    new_game = Game
    check_deck = staticmethod(check_deck)

    def _action(self, kind: str, obj: dict[str, Any]) -> Action:
        return _ACTIONS[kind](obj)

    def _winner(self, game: Game) -> str:
        return f"seat {game.winner}"

    def _scores(self, game: Game, events: list[Event]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for event in events:
            if isinstance(event, RoundScored | PassedOut):
                totals = game.round_results[event.round - 1]
                out.append({"Type": "Score", "Round": event.round, "Score": list(totals)})
            elif isinstance(event, GameWon):
                out.append(
                    {
                        "Type": "Score",
                        "GameOver": True,
                        "Winner": event.winner,
                        "Score": list(event.totals),
                    }
                )
        return out


#: Replay a record: its Score lines, and an Error line at the first bad line.
replay = Replayer.replay
#: The game a record describes, as far as it goes (``RecordError`` at the first bad line).
load_record = Replayer.load_record
