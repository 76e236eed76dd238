"""Cards, decks and their notation.

A card's code is its rank (``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``) and suit
(``S``, ``H``, ``D``, ``C``), as in ``AS``, ``TD`` or ``5H``; the joker is ``JK``.
``Card.parse`` and ``Card.code`` are a symmetric pair, and ``Card.pretty`` is the form
for people (``5♥``, ``🃏``).

A ``Card`` is an ``int``: its index in the reference deck order (hearts 2..A, diamonds,
spades, clubs, then the joker; 0..52). Every card is one of 53 interned instances, so a
card cannot exist unless it is valid, and hashing, equality and table lookups run at C
speed in the rules engines.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final, Self

from hundred_server.protocol.errors import CardCodeError


class Suit(enum.Enum):
    """The four suits; ``value`` is the one-letter code."""

    HEARTS = "H"
    DIAMONDS = "D"
    SPADES = "S"
    CLUBS = "C"

    # Members are singletons, so identity hashing is exact, and it runs in C: suits key
    # the rules' lookup tables on every move.
    __hash__ = object.__hash__

    @classmethod
    def parse(cls, text: str) -> Suit:
        """``"H"`` or ``"hearts"`` (any case) to a suit; raises ``CardCodeError``."""
        if isinstance(text, str):
            key = text.strip().upper()
            for suit in cls:
                if key in (suit.value, suit.name, suit.name[:-1]):
                    return suit
        raise CardCodeError(f"no such suit: {text!r} (use H, D, S or C)", "bad_suit")

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    def __str__(self) -> str:
        return self.value


_SUIT_SYMBOLS: Final = {Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.SPADES: "♠", Suit.CLUBS: "♣"}


class Rank(enum.IntEnum):
    """Card ranks, numbered as the reference engine numbers them (joker 1, ace 14)."""

    JOKER = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        return _RANK_CODES[self]


_RANK_CODES: Final = {
    **{Rank(v): str(v) for v in range(2, 10)},
    Rank.JOKER: "JK",
    Rank.TEN: "T",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}

#: Suits in the reference deck order.
DECK_SUITS: Final = (Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS)
JOKER_INDEX: Final = 52


class InternedCard(int):
    """A card that is an ``int``, its index in its deck, and one of that deck's interned
    instances (``Card``, rook/cards.py ``RookCard``): it prints as its ``code``, and a
    copy or a pickle of it is the same instance."""

    __slots__ = ()

    @classmethod
    def _make(cls, index: int) -> Self:
        return int.__new__(cls, index)

    @property
    def code(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r})"

    def __reduce__(self) -> tuple[type[Self], tuple[int]]:
        return (type(self), (int(self),))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: object) -> Self:
        return self


class Card(InternedCard):
    """One playing card; see the module docstring."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if (type(index) is not int and not isinstance(index, Card)) or not 0 <= index < 53:
            raise CardCodeError(f"no card has index {index!r}")
        return _CARDS[index]

    @classmethod
    def parse(cls, code: str) -> Card:
        """``"AS"`` to the ace of spades; the message of the error quotes the input."""
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            if isinstance(code, str):
                card = _BY_CODE.get(code.strip().upper().replace("10", "T"))
            if card is None:
                raise CardCodeError(
                    f"not a card: {code!r} (rank 2-9 T J Q K A + suit S H D C, or JK)"
                )
        return card

    @property
    def suit(self) -> Suit | None:
        """The suit; ``None`` for the joker."""
        return None if self == JOKER_INDEX else DECK_SUITS[self // 13]

    @property
    def rank(self) -> Rank:
        return Rank.JOKER if self == JOKER_INDEX else Rank(self % 13 + 2)

    #: The reference engine's name for ``rank``.
    number = rank

    @property
    def is_joker(self) -> bool:
        return self == JOKER_INDEX

    @property
    def code(self) -> str:
        return _CODES[self]

    @property
    def pretty(self) -> str:
        """The form for people: ``5♥``, ``10♠``, ``🃏``."""
        if self == JOKER_INDEX:
            return "🃏"
        rank = "10" if self.rank is Rank.TEN else self.rank.code
        suit = self.suit
        assert suit is not None
        return rank + suit.symbol


_CODES: Final[tuple[str, ...]] = tuple(
    [_RANK_CODES[Rank(r)] + s.value for s in DECK_SUITS for r in range(2, 15)] + ["JK"]
)
_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(53))
_BY_CODE: Final[dict[str, Card]] = {code: _CARDS[i] for i, code in enumerate(_CODES)}

#: All 53 cards in the reference deck order.
ALL_CARDS: Final = _CARDS
#: Each card's ``suit`` by index (None for the joker): a lookup, not a call, for the
#: engines' loops.
SUIT_OF: Final[tuple[Suit | None, ...]] = tuple(c.suit for c in _CARDS)
#: The 52 cards without the joker.
STANDARD_52: Final = _CARDS[:52]
JOKER: Final = _CARDS[JOKER_INDEX]


def card(rank: Rank, suit: Suit | None) -> Card:
    """The card of this rank and suit (``card(Rank.JOKER, None)`` is the joker)."""
    if rank is Rank.JOKER:
        if suit is not None:
            raise CardCodeError(f"the joker has no suit, got {suit!r}")
        return JOKER
    if suit is None:
        raise CardCodeError(f"{rank.name} needs a suit")
    return _CARDS[DECK_SUITS.index(suit) * 13 + rank - 2]


def parse_cards(codes: Iterable[str]) -> list[Card]:
    """Parse every code; the first bad one raises ``CardCodeError`` quoting it."""
    return [Card.parse(c) for c in codes]


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [_CODES[c] for c in cards]
