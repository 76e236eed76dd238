"""Hundert records (JSON lines, version 1) and their replay (see games/replaying.py).

A record is one JSON object per line::

    {"Type":"Record","Game":"hundert","Version":1,"Players":["ann","bob","cy"]}
    {"Type":"Deal","Hand":1,"Dealer":0,"Deck":["7H","AS", ... 32 codes]}
    {"Type":"Play","Playerid":1,"PlayedCard":"AS"}

Seat ``i`` is ``Players[i]`` (2 to 6 players); seat 0 deals the first deal and the deal
passes left. The header carries ``"Flags":["Feder"]`` when the game is played with the
table option Feder (1 chip either way), and no ``Seed``: a Hundert game never deals
itself, so every ``Deal`` line gives its ``Deck`` (a header with a Seed is refused,
``unexpected_seed``). The dealer deals the deck one card at a time from their left:
``Deck[i]`` goes to seat ``(Dealer + 1 + i) % n`` for the first ``n * floor(32 / n)``
cards, and the last ``32 mod n`` cards are the pile, face up. Each deal starts with its
``Deal`` line (``Hand`` counts deals from 1; ``Hand`` and ``Dealer`` must be what the
rules say), then its plays in order, up to the one that takes the total to 100 or past
it. Other keys are ignored; blank lines are skipped (they still count as lines).

Replay yields ``{"Type":"Score","Hand":1,"Points":[chips by seat this deal],"Score":
[balances by seat]}`` after every deal and, when the game ends (after deal ``2n``),
``{"Type":"Score","GameOver":true,"Winner":seat,"Score":[balances]}``. Errors are as
for every game: an ``{"Type":"Error","Line":n,"Code":...,"Message":...}`` line at the
first line that cannot be replayed, and then nothing; a record that simply stops is not
an error. ``ERROR_CODES`` lists every ``Code`` replay can give.
"""

from __future__ import annotations

from typing import Any, Final

from hundred_server.games.hundert.rules import (
    Action,
    DealRecord,
    DealScored,
    Event,
    Game,
    GameWon,
    Play,
    check_deck,
)
from hundred_server.games.kit import replay as replaying
from hundred_server.games.kit.replay import (
    deal_object,
    field,
    game_over_line,
    history_lines,
    quote,
    read_card,
    read_str,
    record_header,
    score_line,
)
from hundred_server.protocol.errors import RecordError

GAME: Final = "hundert"
VERSION: Final = 1

#: Every ``Code`` an ``Error`` line can carry, and what it means: the codes every game
#: shares (replaying.py) but ``deck_mismatch`` (no Hundert record has a Seed), with
#: Hundert's words where they differ, and Hundert's own.
ERROR_CODES: Final[dict[str, str]] = {
    **{k: v for k, v in replaying.COMMON_CODES.items() if k != "deck_mismatch"},
    "missing_deck": "a Deal without Deck (Hundert records give every deal's Deck)",
    "unexpected_seed": "a Seed in the Record line: Hundert records give every Deck instead",
    "bad_flag": "a Flags entry that is no table option of Hundert (it has Feder)",
    "wrong_round": "a Deal whose Hand is not the deal the rules are at",
    "bad_players": "a number of players other than 2 to 6",
    "bad_deck": "a Deck that is not the 32 cards (7 8 9 T J Q K A of each suit)",
}


# ----------------------------------------------------------------------------- writing


def action_object(seat: int, action: Action) -> dict[str, Any]:
    """One action as its record line (a JSON-ready dict)."""
    return {"Type": "Play", "Playerid": seat, "PlayedCard": action.card.code}


def header_object(game: Game) -> dict[str, Any]:
    """A record's first line (``Flags`` only if the game has table options)."""
    header = record_header(GAME, VERSION, game.players, None)
    if game.flags:
        header["Flags"] = sorted(game.flags)
    return header


def history_objects(game: Game, start: int = 0) -> list[dict[str, Any]]:
    """The record lines of ``game.history[start:]`` (a record's lines after the header)."""
    return history_lines(game.history[start:], _deal_object, action_object)


def _deal_object(deal: DealRecord) -> dict[str, Any]:
    return deal_object("Hand", deal.hand, deal.dealer, deal.deck)


# ----------------------------------------------------------------------------- reading


def read_flags(obj: dict[str, Any]) -> frozenset[str]:
    """The header's ``Flags`` (none if absent): a list of names."""
    if "Flags" not in obj:
        return frozenset()
    value = field(obj, "Flags")
    if not isinstance(value, list) or not all(isinstance(f, str) for f in value):
        raise RecordError(f'"Flags" must be a list of names, got {quote(value)}', "bad_record")
    return frozenset(value)


class Replayer(replaying.DeckReplayer[Game]):
    """Hundert's replay: replaying.DeckReplayer with Play lines, "Hand" for "Round", the
    header's optional Flags, and a seat as the winner."""

    game_name = GAME
    title = "Hundert"
    version = VERSION
    known_types = ("Record", "Deal", "Play")
    check_deck = staticmethod(check_deck)
    record_words = "a Hundert record"
    round_key = "Hand"
    round_word = "deal"

    def start(self, players: list[str]) -> Game:
        return Game(players, read_flags(self.header))

    def _action(self, kind: str, obj: dict[str, Any]) -> Action:
        return Play(read_card(read_str(obj, "PlayedCard"), "PlayedCard"))

    def _winner(self, game: Game) -> str:
        assert game.winner is not None
        return f"seat {game.winner}"

    def _scores(self, game: Game, events: list[Event]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for event in events:
            if isinstance(event, DealScored):
                out.append(score_line("Hand", event.round, event.totals, event.points))
            elif isinstance(event, GameWon):
                out.append(game_over_line(event.winner, event.totals))
        return out


#: Replay a record: its Score lines, and an Error line at the first bad line.
replay = Replayer.replay
#: The game a record describes, as far as it goes (``RecordError`` at the first bad line).
load_record = Replayer.load_record
