"""Whist records (JSON lines, version 1) and their replay (see records.py).

A record is one JSON object per line::

    {"Type":"Record","Game":"whist","Version":1,"Players":["ann","bob","cy","dee"]}
    {"Type":"Deal","Hand":1,"Dealer":0,"Deck":["5H","JS", ... 52 codes]}
    {"Type":"Play","Playerid":1,"PlayedCard":"5H"}

Seat ``i`` is ``Players[i]``; seats 0 and 2 play North-South against 1 and 3, and seat
0 deals the first hand. The dealer deals the deck one card at a time from their left:
``Deck[i]`` goes to seat ``(Dealer + 1 + i) % 4``, so ``Deck[51]`` is the dealer's last
card, turned up for trump. The header may carry a ``"Seed"``; then every hand's deck is
the seeded one and ``Deal`` lines may leave out ``Deck`` (if they give it, it must
match). Each hand starts with its ``Deal`` line (``Hand`` counts from 1; ``Hand`` and
``Dealer`` must be what the rules say), then its 52 plays in order. Other keys are
ignored; blank lines are skipped (they still count as lines).

Replay yields ``{"Type":"Score","Hand":1,"Score":[NS,EW]}`` (the totals) after every
hand and, when the game ends, ``{"Type":"Score","GameOver":true,"Winner":"NS",
"Score":[5,2]}``. Errors are as for every game (replaying.py): an
``{"Type":"Error","Line":n,"Code":...,"Message":...}`` line at the first line that
cannot be replayed, and then nothing; a record that simply stops is not an error. The
replay and its line readers are shared with Hundred and Ten (replaying.py), so both games
quote bad input alike.
"""

from __future__ import annotations

from typing import Any, Final

from hundred_server.games.kit import replay as replaying
from hundred_server.games.kit.replay import (
    deal_object,
    history_lines,
    read_card,
    read_str,
    record_header,
)
from hundred_server.games.whist.rules import (
    SIDES,
    DealRecord,
    Event,
    Game,
    GameWon,
    HandScored,
    Play,
    check_deck,
)

GAME: Final = "whist"
VERSION: Final = 1
_KNOWN_TYPES: Final = ("Record", "Deal", "Play")

#: Every ``Code`` an ``Error`` line can carry, and what it means: the codes every game
#: shares (replaying.py), with Whist's words where they differ; ``must_follow_suit`` is
#: Whist's own.
ERROR_CODES: Final[dict[str, str]] = {
    **replaying.COMMON_CODES,
    "wrong_round": "a Deal whose round number (Whist: Hand) is not the one the rules are at",
    "bad_players": "a number of players the game is not played by (Whist: exactly 4)",
    "bad_deck": "a Deck that is not the game's cards each once (Whist: 52, without the joker)",
    "must_follow_suit": "a card off the suit led from a seat that holds the suit led",
}


# ----------------------------------------------------------------------------- writing


def header_object(game: Game) -> dict[str, Any]:
    """A record's first line."""
    return record_header(GAME, VERSION, game.players, game.seed)


def history_objects(game: Game, start: int = 0) -> list[dict[str, Any]]:
    """The record lines of ``game.history[start:]`` (a record's lines after the header)."""
    return history_lines(game.history[start:], _deal_object, _play_object)


def _deal_object(deal: DealRecord) -> dict[str, Any]:
    return deal_object("Hand", deal.hand, deal.dealer, deal.deck)


def _play_object(seat: int, play: Play) -> dict[str, Any]:
    return {"Type": "Play", "Playerid": seat, "PlayedCard": play.card.code}


# ----------------------------------------------------------------------------- reading


class Replayer(replaying.Replayer[Game]):
    """Whist's replay: replaying.Replayer with Play lines, "Hand" for "Round", and the
    winner by side."""

    game_name = GAME
    version = VERSION
    known_types = _KNOWN_TYPES
    new_game = Game
    check_deck = staticmethod(check_deck)
    record_words = "a Whist record"
    round_key = "Hand"
    round_word = "hand"

    def _action(self, kind: str, obj: dict[str, Any]) -> Play:
        return Play(read_card(read_str(obj, "PlayedCard"), "PlayedCard"))

    def _winner(self, game: Game) -> str:
        assert game.winner is not None
        return SIDES[game.winner]

    def _scores(self, game: Game, events: list[Event]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for event in events:
            if isinstance(event, HandScored):
                out.append({"Type": "Score", "Hand": event.hand, "Score": list(event.totals)})
            elif isinstance(event, GameWon):
                winner, totals = SIDES[event.side], list(event.totals)
                out.append({"Type": "Score", "GameOver": True, "Winner": winner, "Score": totals})
        return out


#: Replay a record: its Score lines, and an Error line at the first bad line.
replay = Replayer.replay
#: The game a record describes, as far as it goes (``RecordError`` at the first bad line).
load_record = Replayer.load_record
