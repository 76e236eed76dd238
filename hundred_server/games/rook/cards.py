"""Rook's cards and their notation: four colours of 1 and 5-14, and the Rook bird.

A card's code is its colour letter and number (``B1``, ``R14``, ``Y5``); the bird is
``ROOK``. ``RookCard.parse`` and ``RookCard.code`` are a symmetric pair, and
``RookCard.name`` is the form for people (``Red 14``, ``Rook``).

A ``RookCard`` is an ``int``: its index in the deck order of RULES.md (B1, B5..B14, G1,
G5..G14, R..., Y..., ROOK; 0..44). Every card is one of 45 interned instances, so a card
cannot exist unless it is valid, and the rules engine looks cards up in tuples. It is
not a ``hundred_server.games.kit.cards.Card``: Rook has no suits and ranks of the French deck.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final

from hundred_server.games.kit.cards import InternedCard
from hundred_server.protocol.errors import CardCodeError


class Colour(enum.Enum):
    """The four colours; ``value`` is the one-letter code."""

    BLACK = "B"
    GREEN = "G"
    RED = "R"
    YELLOW = "Y"

    __hash__ = object.__hash__  # members are singletons: identity hashing, in C

    @classmethod
    def parse(cls, text: object) -> Colour:
        """``"R"`` or ``"red"`` (any case) to a colour; ``CardCodeError`` (code
        ``bad_suit``: trump is Rook's suit) quoting the input if it is none."""
        if isinstance(text, str):
            key = text.strip().upper()
            for colour in cls:
                if key in (colour.value, colour.name):
                    return colour
        raise CardCodeError(f"no such colour: {text!r} (use B, G, R or Y)", "bad_suit")

    @property
    def title(self) -> str:
        """``Red``."""
        return self.name.capitalize()

    def __str__(self) -> str:
        return self.value


#: Colours in deck (and display) order.
COLOURS: Final = (Colour.BLACK, Colour.GREEN, Colour.RED, Colour.YELLOW)
#: The numbers of a colour in deck order (the 2s, 3s and 4s are out).
NUMBERS: Final = (1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
BIRD_INDEX: Final = len(COLOURS) * len(NUMBERS)  # 44
BIRD_CODE: Final = "ROOK"


class RookCard(InternedCard):
    """One Rook card; see the module docstring."""

    __slots__ = ()

    def __new__(cls, index: int) -> RookCard:
        if type(index) is not int and not isinstance(index, RookCard):
            raise CardCodeError(f"no Rook card has index {index!r}")
        if not 0 <= index <= BIRD_INDEX:
            raise CardCodeError(f"no Rook card has index {index!r}")
        return _CARDS[index]

    @classmethod
    def parse(cls, code: object) -> RookCard:
        """``"R14"`` (any case, spaces around allowed) or ``"ROOK"`` to the card; the
        message of the error quotes the input."""
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None and isinstance(code, str):
            card = _BY_CODE.get(code.strip().upper())
        if card is None:
            raise CardCodeError(
                f"not a Rook card: {code!r} (a colour B G R Y and a number 1 or 5-14, "
                "as R14, or ROOK)"
            )
        return card

    @property
    def is_bird(self) -> bool:
        return self == BIRD_INDEX

    @property
    def colour(self) -> Colour | None:
        """The printed colour; None for the bird (it plays as trump: ``rules.suit_of``)."""
        return None if self == BIRD_INDEX else COLOURS[self // len(NUMBERS)]

    @property
    def number(self) -> int:
        """1 or 5-14; 0 for the bird."""
        return 0 if self == BIRD_INDEX else NUMBERS[self % len(NUMBERS)]

    @property
    def code(self) -> str:
        return _CODES[self]

    @property
    def name(self) -> str:
        """The form for people: ``Red 14``, ``Rook``."""
        return _NAMES[self]


_CODES: Final[tuple[str, ...]] = (
    *(f"{c.value}{n}" for c in COLOURS for n in NUMBERS),
    BIRD_CODE,
)
_NAMES: Final[tuple[str, ...]] = (
    *(f"{c.title} {n}" for c in COLOURS for n in NUMBERS),
    "Rook",
)
_CARDS: Final[tuple[RookCard, ...]] = tuple(RookCard._make(i) for i in range(BIRD_INDEX + 1))
_BY_CODE: Final[dict[str, RookCard]] = {code: _CARDS[i] for i, code in enumerate(_CODES)}

#: The 45 cards in the deck order of RULES.md (the order ``seeded_deck`` shuffles).
ROOK_DECK: Final = _CARDS
BIRD: Final = _CARDS[BIRD_INDEX]


def card_of(colour: Colour, number: int) -> RookCard:
    """The card of this colour and number (1 or 5-14)."""
    if number not in NUMBERS:
        raise CardCodeError(f"no Rook card numbered {number!r} (1 or 5-14)")
    return _CARDS[COLOURS.index(colour) * len(NUMBERS) + NUMBERS.index(number)]


def parse_cards(codes: Iterable[str]) -> list[RookCard]:
    """Parse every code; the first bad one raises ``CardCodeError`` quoting it."""
    return [RookCard.parse(c) for c in codes]


def codes(cards: Iterable[RookCard]) -> list[str]:
    """The codes of some cards, in order (``format_cards`` for Rook)."""
    return [_CODES[c] for c in cards]


def names(cards: Iterable[RookCard]) -> str:
    """``Red 14, Green 1, Rook``."""
    return ", ".join(_NAMES[c] for c in cards)
