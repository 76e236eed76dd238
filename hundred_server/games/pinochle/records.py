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
(kit/records.py); ``FORMAT.codes`` lists Pinochle's.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Final

from hundred_server.games.kit.records import (
    Notation,
    RecordFormat,
    bid_line,
    play_line,
    read_int,
    trump_line,
)
from hundred_server.games.pinochle.rules import (
    BID_ACTIONS,
    DECK,
    DEFAULT_TARGET,
    TEAMS,
    Bid,
    Game,
    GameWon,
    HandScored,
    Play,
    Trump,
)

#: Pinochle's own ``Code``s, and the shared ones in its words.
OWN_CODES: Final[dict[str, str]] = {
    "bad_target": "a Target that is not a whole number from 1",
    "bad_players": "a number of players other than 4",
    "bad_deck": "a Deck that is not the 48 cards (A T K Q J 9 of each suit, twice)",
    "bad_suit": "a Trump that names no suit",
    "wrong_phase": "an action that does not fit the phase (a Play while bidding, ...)",
    "illegal_bid": "a Bid that is not 0 or 20 to 250, or does not top the high bid",
    "must_follow_suit": "a card off the suit led from a seat that holds the suit led",
    "must_beat": "a card that does not beat the winning card of its suit when one held would",
    "must_trump": "a card that is not a trump, void in the suit led, from a seat holding trumps",
}


def _start(players: list[str], seed: str | None, header: dict[str, Any]) -> Game:
    """The header's optional ``Target`` is the game's (100 without it)."""
    return Game(players, read_int(header, "Target") if "Target" in header else DEFAULT_TARGET)


def _target(game: Game) -> dict[str, Any]:
    return {} if game.target == DEFAULT_TARGET else {"Target": game.target}


def _winner(game: Game) -> str:
    assert game.winner is not None
    return TEAMS[game.winner]


_BID_WORDS: Final = "0 or leave Bid out to pass; 20 to 250"


#: Pinochle's actions, in records and answers alike.
ACTIONS: Final = Notation(
    {
        "Bid": bid_line(Bid, BID_ACTIONS, _BID_WORDS),
        "Trump": trump_line(Trump),
        "Play": play_line(Play),
    },
    answer_words="a Pinochle answer",
)


FORMAT: Final = RecordFormat[Game](
    game="pinochle",
    title="Pinochle",
    actions=ACTIONS,
    start=_start,
    deck=DECK,
    round_ends=(HandScored,),
    game_ends=GameWon,
    game_winner=attrgetter("side"),
    own_codes=OWN_CODES,
    header_fields=_target,
    winner=_winner,
)
