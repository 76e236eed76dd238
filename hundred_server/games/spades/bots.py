"""The naive Spades bot: ``act(view) -> Bid | Play``, only among ``view.legal``.

It bids its sure-looking tricks (aces, guarded kings, top spades, spades past three),
nil with no card above a ten and at most two spades. In play a nil bidder ducks (the
highest card that loses, else the lowest); anyone else leaves a trick its partner is
winning, takes one it can with its lowest winning card, and otherwise throws its
cheapest card (a non-spade, low). It leads an ace of a side suit, else its lowest side
card, and spades only when it must. The strong AI (strong.py) bids as it does.
"""

from __future__ import annotations

from collections.abc import Sequence

from hundred_server.games.kit.bots import no_action
from hundred_server.games.kit.cards import Card, Rank, Suit
from hundred_server.games.spades.rules import (
    BID_ACTIONS,
    PLAY_ACTIONS,
    TRUMP,
    Action,
    Bid,
    View,
    beats,
    trick_winner,
)


def bid_for(hand: Sequence[Card]) -> int:
    """Tricks a hand should take (see the module docstring); 0 is nil."""
    tricks = 0
    spades = [c for c in hand if c.suit is TRUMP]
    for suit in Suit:
        held = [c.rank for c in hand if c.suit is suit]
        tricks += Rank.ACE in held
        tricks += Rank.KING in held and len(held) >= 2
        if suit is TRUMP:
            tricks += (Rank.QUEEN in held and len(held) >= 3) + max(0, len(held) - 3)
    if tricks == 0 and len(spades) <= 2 and all(c.rank <= Rank.TEN for c in hand):
        return 0
    return max(1, tricks)


def cheapest(cards: Sequence[Card]) -> Card:
    return min(cards, key=lambda c: (c.suit is TRUMP, c.rank))


def choose_play(view: View, cards: Sequence[Card]) -> Card:
    bids = dict(view.bids)
    trick = view.current_trick
    if not trick:
        aces = [c for c in cards if c.rank == Rank.ACE and c.suit is not TRUMP]
        return cheapest(cards) if bids.get(view.seat) == 0 or not aces else aces[0]
    winner, best = trick_winner(trick)
    winning = [c for c in cards if beats(c, best, TRUMP)]
    if bids.get(view.seat) == 0:
        losing = [c for c in cards if c not in winning]
        return max(losing, key=lambda c: c.rank) if losing else cheapest(cards)
    if (winner == view.partner and bids.get(winner) != 0) or not winning:
        return cheapest(cards)
    return min(winning, key=lambda c: (c.suit is TRUMP, c.rank))


class NaiveBot:
    """``act(view)`` for Spades; see the module docstring."""

    name = "naive"

    def act(self, view: View) -> Action:
        if not view.legal:
            raise no_action(self.name, view.seat)
        if isinstance(view.legal[0], Bid):
            return BID_ACTIONS[bid_for(view.hand)]
        cards = [a.card for a in view.legal if not isinstance(a, Bid)]
        return PLAY_ACTIONS[choose_play(view, cards)]
