"""Hundert records (JSON lines, version 1) and their replay (see kit/records.py).

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
for every game (kit/records.py); ``FORMAT.codes`` lists Hundert's.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Final

from hundred_server.games.hundert.rules import (
    DECK,
    PLAY_ACTIONS,
    DealScored,
    Game,
    GameWon,
    Play,
)
from hundred_server.games.kit.records import (
    Notation,
    RecordFormat,
    play_line,
    quote,
    read_field,
)
from hundred_server.protocol.errors import RecordError

#: Hundert's own ``Code``s, and the shared ones in its words.
OWN_CODES: Final[dict[str, str]] = {
    "bad_flag": "a Flags entry that is no table option of Hundert (it has Feder)",
    "bad_players": "a number of players other than 2 to 6",
    "bad_deck": "a Deck that is not the 32 cards (7 8 9 T J Q K A of each suit)",
}


#: Hundert's one action, in records and answers alike.
ACTIONS: Final = Notation(
    {"Play": play_line(Play, PLAY_ACTIONS.__getitem__)}, answer_words="a Hundert answer"
)


def read_flags(obj: dict[str, Any]) -> frozenset[str]:
    """The header's ``Flags`` (none if absent): a list of names."""
    if "Flags" not in obj:
        return frozenset()
    value = read_field(obj, "Flags")
    if not isinstance(value, list) or not all(isinstance(f, str) for f in value):
        raise RecordError(f'"Flags" must be a list of names, got {quote(value)}', "bad_record")
    return frozenset(value)


def _flags(game: Game) -> dict[str, Any]:
    """``Flags`` only if the game has table options."""
    return {"Flags": sorted(game.flags)} if game.flags else {}


FORMAT: Final = RecordFormat[Game](
    game="hundert",
    title="Hundert",
    actions=ACTIONS,
    start=lambda players, seed, header: Game(players, read_flags(header)),
    deck=DECK,
    round_ends=(DealScored,),
    game_ends=GameWon,
    points=True,
    round_number=attrgetter("round"),
    own_codes=OWN_CODES,
    header_fields=_flags,
    round_word="deal",
)
