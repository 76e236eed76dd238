"""Spades records (JSON lines, version 1; protocol.md, "A game of Spades"), read and
replayed by kit/records.py: every Deal gives its Deck (no Seed), then four bids
(``"Bid":0`` is nil) and 52 plays; replay scores each hand and the game by side."""

from __future__ import annotations

from typing import Final

from hundred_server.games.kit import records as kit
from hundred_server.games.kit.tricks import GameWon
from hundred_server.games.spades import rules

OWN_CODES: Final[dict[str, str]] = {
    **kit.partners_codes("Spades"),
    "illegal_bid": "a Bid that is not a whole number of tricks from 0 (nil) to 13",
    "spades_not_broken": "a spade led before spades are broken, from a seat holding another suit",
}

ACTIONS: Final = kit.Notation(
    {
        "Bid": kit.bid_line(rules.Bid, rules.BID_ACTIONS, "0 for nil, or 1 to 13 tricks"),
        "Play": kit.play_line(rules.Play),
    }
)


FORMAT: Final = kit.RecordFormat[rules.Game](
    game="spades",
    title="Spades",
    actions=ACTIONS,
    start=lambda players, seed, header: rules.Game(players),
    deck=rules.DECK,
    round_ends=(rules.HandScored,),
    game_ends=GameWon,
    game_winner=kit.side_of_end,
    own_codes=OWN_CODES,
    points=True,
    winner=kit.side_won,
)
