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
"Score":[5,2]}``. Errors are as for every game (kit/records.py).
"""

from __future__ import annotations

from typing import Final

from hundred_server.games.kit.records import (
    Notation,
    RecordFormat,
    partners_codes,
    play_line,
    side_of_end,
    side_won,
)
from hundred_server.games.whist.rules import (
    DECK,
    Game,
    GameWon,
    HandScored,
    Play,
)

#: Whist's own ``Code``s, and the shared ones in its words.
OWN_CODES: Final = partners_codes("Whist")


#: Whist's one action, in records and answers alike.
ACTIONS: Final = Notation({"Play": play_line(Play)})


FORMAT: Final = RecordFormat[Game](
    game="whist",
    title="Whist",
    actions=ACTIONS,
    start=lambda players, seed, header: Game(players, seed),
    deck=DECK,
    round_ends=(HandScored,),
    game_ends=GameWon,
    game_winner=side_of_end,
    own_codes=OWN_CODES,
    seeded=True,
    winner=side_won,
)
