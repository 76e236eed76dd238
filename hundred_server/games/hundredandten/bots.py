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
from itertools import filterfalse
from typing import Final, Protocol

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
from hundred_server.games.kit.cards import ALL_CARDS, Card, Suit
from hundred_server.protocol.errors import HundredError

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


# _PACKED[card]: its _WORTH and _FIVE for the four suits in one int, 8 bits a suit (the
# worth in the low 7, at most 60 for five trumps; 128 for a trump five, one a suit), so
# that one C-level sum values a whole hand; _FIELD turns a suit's 8 bits into its value.
_PACKED: Final = tuple(
    sum((w + (128 if f else 0)) << (8 * i) for i, (w, f) in enumerate(zip(ws, fs, strict=True)))
    for ws, fs in zip(_WORTH, _FIVE, strict=True)
)
_FIELD: Final = tuple((f & 127) - (0 if f & 128 else 10) for f in range(256))
#: (suit, where its 8 bits are in a packed sum), in SUIT_PREFERENCE order.
_SUIT_SHIFTS: Final = tuple((suit, 8 * i) for i, suit in enumerate(SUIT_PREFERENCE))
#: _BID_FOR[value + 10]: the bid ``max_bid`` gives a hand whose best suit is worth value.
_BID_FOR: Final = tuple(
    next((amount for floor, amount in _BID_STEPS if value > floor), PASS)
    for value in range(-10, 61)
)


def best_suit(hand: Sequence[Card]) -> tuple[Suit, int]:
    """The most valuable suit and its value; the first in SUIT_PREFERENCE on ties."""
    total = sum(map(_PACKED.__getitem__, hand))
    best, value = SUIT_PREFERENCE[0], _FIELD[total & 255]
    for suit, s in _SUIT_SHIFTS[1:]:
        if _FIELD[total >> s & 255] > value:
            best, value = suit, _FIELD[total >> s & 255]
    return best, value


def max_bid(hand: Sequence[Card]) -> int:
    total = sum(map(_PACKED.__getitem__, hand))
    field = _FIELD
    best = max(
        field[total & 255], field[total >> 8 & 255], field[total >> 16 & 255], field[total >> 24]
    )
    return _BID_FOR[best + 10]


def _play_keys(trump: Suit, lead: Card | None, is_bidder: bool) -> tuple[int, ...]:
    """A key for each card (by index) such that the reference's choice (its
    ``best_card``, ``worst_card`` and ``worst_card_beating``) is the hand's first card of
    least key: a table of keys for every case, since this runs for most of a game's
    decisions.

    - lead: the bidder its best trump (the first card if none), anyone else its worst;
    - a trump led: the cheapest trump that beats it, else the worst trump, else the worst
      card;
    - else: the cheapest higher card of the suit led (the card to beat is the one
      *led*), else the cheapest trump, else the worst card.
    """
    is_trump, trumps, plain = IS_TRUMP[trump], TRUMP_VALUE, OFF_VALUE
    if lead is None and is_bidder:  # the best trump, else the first card
        return tuple(-1 - trumps[c] if is_trump[c] else 0 for c in ALL_CARDS)
    if lead is None:  # the worst card: the least non-trump, else the least trump
        return tuple(100 + trumps[c] if is_trump[c] else plain[c] for c in ALL_CARDS)
    if is_trump[lead]:  # the least trump beating the lead, else the least trump, else worst
        floor = trumps[lead]
        return tuple(
            (trumps[c] if trumps[c] > floor else 100 + trumps[c]) if is_trump[c] else 200 + plain[c]
            for c in ALL_CARDS
        )
    # the least higher card of the suit led, else the least trump, else the worst card
    suit, floor = SUIT_INDEX[lead], plain[lead]
    return tuple(
        100 + trumps[c]
        if is_trump[c]
        else (plain[c] if SUIT_INDEX[c] == suit and plain[c] > floor else 200 + plain[c])
        for c in ALL_CARDS
    )


# _PLAY_KEYS[trump][lead] (lead a card index; 53: no lead, 54: no lead and the bidder).
_PLAY_KEYS: Final = {
    trump: tuple(
        [_play_keys(trump, card, False) for card in ALL_CARDS]
        + [_play_keys(trump, None, False), _play_keys(trump, None, True)]
    )
    for trump in SUIT_PREFERENCE
}
#: The same keys for other players of the naive player's cards (the strong AI's rollouts).
PLAY_KEYS: Final = _PLAY_KEYS


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
            lead = view.lead
            keys = _PLAY_KEYS[trump][(53 + view.is_bidder) if lead is None else lead]
            return PLAY_ACTIONS[min(view.hand, key=keys.__getitem__)]
        if phase is _BIDDING:  # the lowest bid open that the hand supports, else pass
            ceiling = max_bid(view.hand)
            for action in view.legal:
                if isinstance(action, Bid) and action.amount and action.amount <= ceiling:
                    return BID_ACTIONS[action.amount]
            return BID_ACTIONS[PASS]
        if phase is Phase.TRUMP:
            return _SELECT[best_suit(view.hand)[0]]
        if phase is Phase.DISCARD and trump is not None:
            return Discard(tuple(filterfalse(IS_TRUMP[trump].__getitem__, view.hand)))
        raise HundredError(f"the naive bot cannot act in phase {phase.value}")


_TRICKS: Final = Phase.TRICKS
_BIDDING: Final = Phase.BIDDING
_SELECT: Final = {suit: SelectTrump(suit) for suit in SUIT_PREFERENCE}
