"""Pinochle records (JSON lines, version 1) and their replay (see records.py).

A record is one JSON object per line::

    {"Type":"Record","Game":"pinochle","Version":1,"Players":["ann","bob","cy","dee"]}
    {"Type":"Deal","Hand":1,"Dealer":0,"Deck":["AD","9S", ... 48 codes]}
    {"Type":"Bid","Playerid":1,"Bid":0}
    {"Type":"Bid","Playerid":2,"Bid":25}
    {"Type":"Trump","Playerid":2,"Trump":"H"}
    {"Type":"Play","Playerid":2,"PlayedCard":"AD"}

Seat ``i`` is ``Players[i]``; seats 0 and 2 play as Team0 against 1 and 3, and seat 0
deals the first hand. The dealer deals the deck one card at a time from their left:
``Deck[i]`` goes to seat ``(Dealer + 1 + i) % 4``. The header carries ``"Target"`` only
when the game is played to another target than 100 (the table option); it carries no
``Seed``: a Pinochle game never deals itself, so every ``Deal`` line gives its ``Deck``
(a header with a Seed is refused, ``unexpected_seed``). Each hand starts with its
``Deal`` line (``Hand`` counts from 1; ``Hand`` and ``Dealer`` must be what the rules
say), then its four bids (``Bid`` 0 passes), the bidder's ``Trump`` and 48 plays, in
the order they happened; meld is not recorded, since the rules work it out. Other keys
are ignored; blank lines are skipped (they still count as lines).

Replay yields ``{"Type":"Score","Hand":1,"Score":[Team0,Team1]}`` (the totals) after
every hand and, when the game ends, ``{"Type":"Score","GameOver":true,"Winner":0,
"Score":[24,-55]}`` (``Winner`` is the team, 0 or 1). Errors are as for every game
(replaying.py): an ``{"Type":"Error","Line":n,"Code":...,"Message":...}`` line at the
first line that cannot be replayed, and then nothing; a record that simply stops is not
an error. ``ERROR_CODES`` lists every ``Code`` replay can give.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from hundred_server.games.kit import replay as replaying
from hundred_server.games.kit.replay import (
    deal_object,
    engine,
    game_over_line,
    history_lines,
    read_card,
    read_int,
    read_str,
    read_suit,
    record_header,
    score_line,
)
from hundred_server.games.pinochle.rules import (
    DEFAULT_TARGET,
    TEAMS,
    Action,
    Bid,
    DealRecord,
    Event,
    Game,
    GameWon,
    HandScored,
    Play,
    Trump,
    check_deck,
)

GAME: Final = "pinochle"
VERSION: Final = 1

#: Every ``Code`` an ``Error`` line can carry, and what it means: the codes every game
#: shares (replaying.py) but ``deck_mismatch`` (no Pinochle record has a Seed), with
#: Pinochle's words where they differ, and Pinochle's own.
ERROR_CODES: Final[dict[str, str]] = {
    **{k: v for k, v in replaying.COMMON_CODES.items() if k != "deck_mismatch"},
    "missing_deck": "a Deal without Deck (Pinochle records give every hand's Deck)",
    "unexpected_seed": "a Seed in the Record line: Pinochle records give every Deck instead",
    "bad_target": "a Target that is not a whole number from 1",
    "wrong_round": "a Deal whose Hand is not the hand the rules are at",
    "bad_players": "a number of players other than 4",
    "bad_deck": "a Deck that is not the 48 cards (A T K Q J 9 of each suit, twice)",
    "bad_suit": "a Trump that names no suit",
    "wrong_phase": "an action that does not fit the phase (a Play while bidding, ...)",
    "illegal_bid": "a Bid that is not 0 or 20 to 250, or does not top the high bid",
    "must_follow_suit": "a card off the suit led from a seat that holds the suit led",
    "must_beat": "a card that does not beat the winning card of its suit when one held would",
    "must_trump": "a card that is not a trump, void in the suit led, from a seat holding trumps",
}


# ----------------------------------------------------------------------------- writing


def action_object(seat: int, action: Action) -> dict[str, Any]:
    """One action as its record line (a JSON-ready dict), as on the wire."""
    if isinstance(action, Bid):
        return {"Type": "Bid", "Playerid": seat, "Bid": action.amount}
    if isinstance(action, Trump):
        return {"Type": "Trump", "Playerid": seat, "Trump": action.suit.value}
    return {"Type": "Play", "Playerid": seat, "PlayedCard": action.card.code}


def header_object(game: Game) -> dict[str, Any]:
    """A record's first line (``Target`` only if it is not the default 100)."""
    header = record_header(GAME, VERSION, game.players, None)
    if game.target != DEFAULT_TARGET:
        header["Target"] = game.target
    return header


def history_objects(game: Game, start: int = 0) -> list[dict[str, Any]]:
    """The record lines of ``game.history[start:]`` (a record's lines after the header)."""
    return history_lines(game.history[start:], _deal_object, action_object)


def _deal_object(deal: DealRecord) -> dict[str, Any]:
    return deal_object("Hand", deal.hand, deal.dealer, deal.deck)


# ----------------------------------------------------------------------------- reading


_ACTIONS: Final[dict[str, Callable[[dict[str, Any]], Action]]] = {
    "Bid": lambda obj: engine(Bid, read_int(obj, "Bid")),
    "Trump": lambda obj: Trump(read_suit(obj, "Trump")),
    "Play": lambda obj: Play(read_card(read_str(obj, "PlayedCard"), "PlayedCard")),
}
_KNOWN_TYPES: Final = ("Record", "Deal", *_ACTIONS)


class Replayer(replaying.DeckReplayer[Game]):
    """Pinochle's replay: replaying.DeckReplayer with Bid, Trump and Play lines, "Hand"
    for "Round", the header's optional Target, and the winner by team."""

    game_name = GAME
    title = "Pinochle"
    version = VERSION
    known_types = _KNOWN_TYPES
    check_deck = staticmethod(check_deck)
    record_words = "a Pinochle record"
    round_key = "Hand"
    round_word = "hand"

    def start(self, players: list[str]) -> Game:
        header = self.header
        return Game(players, read_int(header, "Target") if "Target" in header else DEFAULT_TARGET)

    def _action(self, kind: str, obj: dict[str, Any]) -> Action:
        return _ACTIONS[kind](obj)

    def _winner(self, game: Game) -> str:
        assert game.winner is not None
        return TEAMS[game.winner]

    def _scores(self, game: Game, events: list[Event]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for event in events:
            if isinstance(event, HandScored):
                out.append(score_line("Hand", event.hand, event.totals))
            elif isinstance(event, GameWon):
                out.append(game_over_line(event.team, event.totals))
        return out


#: Replay a record: its Score lines, and an Error line at the first bad line.
replay = Replayer.replay
#: The game a record describes, as far as it goes (``RecordError`` at the first bad line).
load_record = Replayer.load_record
