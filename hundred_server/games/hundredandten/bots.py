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

from hundred_server.cards import ALL_CARDS, Card, Suit
from hundred_server.errors import HundredError
from hundred_server.games.hundredandten.rules import (
    BID_ACTIONS,
    IS_TRUMP,
    MOON,
    OFF_VALUE,
    PASS,
    PLAY_ACTIONS,
    SUIT_INDEX,
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


# Per card, for each suit of SUIT_PREFERENCE: its trump rank if it would be a trump
# (else 0), and whether it is a trump five. Summing columns values a hand in C loops.
_WORTH: Final = tuple(
    tuple(TRUMP_VALUE[c] if IS_TRUMP[s][c] else 0 for s in SUIT_PREFERENCE) for c in ALL_CARDS
)
_FIVE: Final = tuple(
    tuple(IS_TRUMP[s][c] and c in _FIVES for s in SUIT_PREFERENCE) for c in ALL_CARDS
)


def suit_values(hand: Sequence[Card]) -> list[tuple[Suit, int]]:
    """Each suit's worth as trump: its trumps' ranks summed, 10 less without a trump five."""
    if not hand:
        return [(suit, -10) for suit in SUIT_PREFERENCE]
    worth = map(sum, zip(*map(_WORTH.__getitem__, hand), strict=True))
    fives = map(any, zip(*map(_FIVE.__getitem__, hand), strict=True))
    return [
        (suit, value if five else value - 10)
        for suit, value, five in zip(SUIT_PREFERENCE, worth, fives, strict=True)
    ]


def best_suit(hand: Sequence[Card]) -> tuple[Suit, int]:
    return max(suit_values(hand), key=lambda item: item[1])


def max_bid(hand: Sequence[Card]) -> int:
    value = best_suit(hand)[1]
    return next((amount for floor, amount in _BID_STEPS if value > floor), PASS)


def _worst(cards: Sequence[Card], is_trump: Sequence[bool]) -> Card:
    """The lowest non-trump by off-suit rank, else the lowest trump (first on ties)."""
    plain = [c for c in cards if not is_trump[c]]
    if plain:
        return min(plain, key=OFF_VALUE.__getitem__)
    return min(cards, key=TRUMP_VALUE.__getitem__)


def naive_play(hand: Sequence[Card], lead: Card | None, trump: Suit, is_bidder: bool) -> Card:
    """The reference's card choice, with its helpers (``best_card``, ``worst_card``,
    ``worst_card_beating``) folded into one pass over the hand: this runs for most of a
    game's decisions. Note the card to beat is the one *led*."""
    is_trump = IS_TRUMP[trump]
    trumps = [c for c in hand if is_trump[c]]
    if lead is None:
        if is_bidder:  # lead the best trump (the first card if none)
            return max(trumps, key=TRUMP_VALUE.__getitem__) if trumps else hand[0]
        return _worst(hand, is_trump)
    if is_trump[lead]:  # bleeding: trumps only, if any; beat the lead cheaply if possible
        floor = TRUMP_VALUE[lead]
        beating = [c for c in trumps if TRUMP_VALUE[c] > floor]
        if beating:
            return min(beating, key=TRUMP_VALUE.__getitem__)
        return _worst(trumps or hand, is_trump)
    suit, floor = SUIT_INDEX[lead], OFF_VALUE[lead]
    higher = [c for c in hand if not is_trump[c] and SUIT_INDEX[c] == suit and OFF_VALUE[c] > floor]
    if higher:  # a higher card of the led suit is "worse" than any trump
        return min(higher, key=OFF_VALUE.__getitem__)
    if trumps:
        return min(trumps, key=TRUMP_VALUE.__getitem__)
    return _worst(hand, is_trump)


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
        phase, trump = view.phase, view.trump
        if phase is _TRICKS and trump is not None:  # most decisions: tested first
            return PLAY_ACTIONS[naive_play(view.hand, view.lead, trump, view.is_bidder)]
        if phase is _BIDDING:
            ceiling = max_bid(view.hand)
            amounts = [a.amount for a in view.legal if isinstance(a, Bid)]
            return BID_ACTIONS[next((a for a in amounts if a and a <= ceiling), PASS)]
        if phase is Phase.TRUMP:
            return SelectTrump(best_suit(view.hand)[0])
        if phase is Phase.DISCARD and trump is not None:
            is_trump = IS_TRUMP[trump]
            return Discard(tuple(c for c in view.hand if not is_trump[c]))
        raise HundredError(f"the naive bot cannot act in phase {phase.value}")


_TRICKS: Final = Phase.TRICKS
_BIDDING: Final = Phase.BIDDING
