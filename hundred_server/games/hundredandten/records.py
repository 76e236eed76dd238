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
``FORMAT.codes`` lists every ``Code`` replay can give.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Final

from hundred_server.games.hundredandten.rules import (
    BID_AMOUNTS,
    DECK,
    Bid,
    Discard,
    Game,
    GameWon,
    PassedOut,
    Play,
    RoundScored,
    SelectTrump,
    Unpass,
)
from hundred_server.games.kit.cards import format_cards
from hundred_server.games.kit.records import (
    Line,
    Notation,
    RecordFormat,
    bid_line,
    play_line,
    trump_line,
)

#: Hundred and Ten's own ``Code``s (the shared ones are kit/records.py's).
OWN_CODES: Final[dict[str, str]] = {
    "bad_suit": "a Trump that names no suit",
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


#: The bids an answer may give, as its refusal says them.
_BID_WORDS: Final = "0 to pass, 15, 20, 25, 30, 60"


#: Hundred and Ten's actions, in records and answers alike.
ACTIONS: Final = Notation(
    {
        "Bid": bid_line(Bid, {amount: Bid(amount) for amount in BID_AMOUNTS}, _BID_WORDS),
        "Unpass": Line(Unpass, lambda action: {}, lambda obj, fields: Unpass()),
        "Trump": trump_line(SelectTrump),
        "Discard": Line(
            Discard,
            lambda action: {"Cards": format_cards(action.cards)},
            lambda obj, fields: Discard(tuple(fields.cards(obj, "Cards"))),
        ),
        "Play": play_line(Play),
    }
)


FORMAT: Final = RecordFormat[Game](
    game="hundredandten",
    title="Hundred and Ten",
    actions=ACTIONS,
    start=lambda players, seed, header: Game(players, seed),
    deck=DECK,
    round_ends=(RoundScored, PassedOut),
    game_ends=GameWon,
    round_number=attrgetter("round"),
    own_codes=OWN_CODES,
    seeded=True,
    round_key="Round",
    round_word="round",
    deal_number=attrgetter("round"),
    record_words="a record",
)
