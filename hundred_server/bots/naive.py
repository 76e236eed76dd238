"""The Naive Hundred and Ten player: the reference engine's ``NaiveAutomatedPlayer``.

It makes the same choice as the reference in every state (the tests play whole games
of both side by side), ties included, which is why the odd details below are kept:

- bid: value each suit as trump (sum of the trump ranks of the cards that would be
  trump, minus 10 without a 5), take the best suit (ties: hearts, clubs, spades,
  diamonds) and bid the lowest legal amount up to what that value supports;
- trump: that best suit; discard: every non-trump;
- lead: the bidder leads its best trump, anyone else its worst card;
- follow: the cheapest card that beats the card *led* (the reference compares with
  the lead, not with the card currently winning), else its worst card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from hundred_server.cards import Card, Suit
from hundred_server.errors import HundredError
from hundred_server.games.hundredandten import (
    BID_ACTIONS,
    IS_TRUMP,
    MOON,
    OFF_VALUE,
    PASS,
    PLAY_ACTIONS,
    TRUMP_VALUE,
    Action,
    Bid,
    Discard,
    Phase,
    SelectTrump,
)

#: The reference's ``SelectableSuit`` order; ``max`` keeps the first best, so it breaks ties.
SUIT_PREFERENCE: Final = (Suit.HEARTS, Suit.CLUBS, Suit.SPADES, Suit.DIAMONDS)
_FIVES: Final = frozenset(Card.parse(f"5{s.value}") for s in Suit)
#: (value above which, amount), highest first.
_BID_STEPS: Final = ((50, MOON), (40, 30), (30, 25), (25, 20), (20, 15))


def suit_values(hand: Sequence[Card]) -> list[tuple[Suit, int]]:
    values = []
    for suit in SUIT_PREFERENCE:
        is_trump = IS_TRUMP[suit]
        trumps = [c for c in hand if is_trump[c]]
        value = sum(TRUMP_VALUE[c] for c in trumps)
        if not any(c in _FIVES for c in trumps):
            value -= 10
        values.append((suit, value))
    return values


def best_suit(hand: Sequence[Card]) -> tuple[Suit, int]:
    return max(suit_values(hand), key=lambda item: item[1])


def max_bid(hand: Sequence[Card]) -> int:
    value = best_suit(hand)[1]
    return next((amount for floor, amount in _BID_STEPS if value > floor), PASS)


def trumps(cards: Sequence[Card], trump: Suit) -> list[Card]:
    is_trump = IS_TRUMP[trump]
    return [c for c in cards if is_trump[c]]


def worst_card(cards: Sequence[Card], trump: Suit) -> Card:
    """The lowest non-trump by off-suit rank, else the lowest trump (first on ties)."""
    is_trump = IS_TRUMP[trump]
    plain = [c for c in cards if not is_trump[c]]
    if plain:
        return min(plain, key=OFF_VALUE.__getitem__)
    return min(cards, key=TRUMP_VALUE.__getitem__)


def best_card(cards: Sequence[Card], trump: Suit) -> Card:
    return max(trumps(cards, trump), key=TRUMP_VALUE.__getitem__, default=cards[0])


def cheapest_beating(cards: Sequence[Card], target: Card, trump: Suit) -> Card | None:
    is_trump = IS_TRUMP[trump]
    if is_trump[target]:
        beating = [c for c in cards if is_trump[c] and TRUMP_VALUE[c] > TRUMP_VALUE[target]]
    else:
        suit = target.suit
        beating = trumps(cards, trump) + [
            c
            for c in cards
            if not is_trump[c] and c.suit is suit and OFF_VALUE[c] > OFF_VALUE[target]
        ]
    return worst_card(beating, trump) if beating else None


class NaiveInputs(Protocol):
    """The parts of a ``View`` the naive bot reads."""

    @property
    def phase(self) -> Phase: ...
    @property
    def hand(self) -> tuple[Card, ...]: ...
    @property
    def legal(self) -> tuple[Action, ...]: ...
    @property
    def trump(self) -> Suit | None: ...
    @property
    def lead(self) -> Card | None: ...
    @property
    def is_bidder(self) -> bool: ...


class NaiveBot:
    """``act(view) -> action`` for Hundred and Ten; see the module docstring."""

    name = "naive"

    def act(self, view: NaiveInputs) -> Action:
        if view.phase is Phase.BIDDING:
            ceiling = max_bid(view.hand)
            amounts = [a.amount for a in view.legal if isinstance(a, Bid)]
            return BID_ACTIONS[next((a for a in amounts if a and a <= ceiling), PASS)]
        if view.phase is Phase.TRUMP:
            return SelectTrump(best_suit(view.hand)[0])
        trump = view.trump
        if trump is None:
            raise HundredError(f"the naive bot cannot act in phase {view.phase.value}")
        if view.phase is Phase.DISCARD:
            is_trump = IS_TRUMP[trump]
            return Discard(tuple(c for c in view.hand if not is_trump[c]))
        if view.phase is not Phase.TRICKS:
            raise HundredError(f"the naive bot cannot act in phase {view.phase.value}")
        cards: Sequence[Card] = view.hand
        lead = view.lead
        if lead is not None:
            if IS_TRUMP[trump][lead]:
                cards = trumps(cards, trump) or cards
            beating = cheapest_beating(cards, lead, trump)  # a Card is an int: 2H is 0
            return PLAY_ACTIONS[worst_card(cards, trump) if beating is None else beating]
        if view.is_bidder:
            return PLAY_ACTIONS[best_card(cards, trump)]
        return PLAY_ACTIONS[worst_card(cards, trump)]
