"""What a game tells the research environments (``hundred_server.research``), its
``GameSpec.research``: the fixed catalogue of its actions, how a decision too large to
list is taken step by step, and how its strong AI samples the hidden cards.

Pure data and plain functions (no numpy): the environments build their numbered action
space, observation vectors and ``resample_from_infostate`` from it, and reach the game
through its ``GameSpec`` alone (docs/research.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any


def _nothing(view: Any) -> tuple[Any, ...]:
    return ()


@dataclass(frozen=True)
class Composite:
    """A decision taken in steps (a discard of any cards, Rook's setup): first
    ``picks`` (least, most) cards of the hand, then one of ``options`` (if any), then
    ``calls`` distinct cards of the deck; ``make(picked, option, called)`` is the
    engine's action, ``parts(action)`` the other way. The hand picks are the seat's
    secret, the rest is public."""

    picks: tuple[int, int]
    options: tuple[Any, ...]
    calls: int
    make: Callable[[tuple[Any, ...], Any, tuple[Any, ...]], Any]
    #: The engine's action -> (picked, option, called): ``make`` undone (an AI's
    #: answer, taken whole).
    parts: Callable[[Any], tuple[tuple[Any, ...], Any, tuple[Any, ...]]]


@dataclass(frozen=True)
class Research:
    """A game's catalogue for the research environments."""

    #: Every distinct card of the deck, in a fixed order (a card's index is its place).
    cards: tuple[Any, ...]
    #: ``plays[i]`` plays ``cards[i]``.
    plays: tuple[Any, ...]
    #: Every other action of one step, in a fixed order: bids (a pass first), trump
    #: choices, and the ``options`` of a ``Composite``.
    choices: tuple[Any, ...]
    #: The seat to act's legal actions -> the ``Composite`` they are (None: list them).
    compose: Callable[[tuple[Any, ...]], Composite | None]
    #: The other seats' hands in one deal that fits the view, by absolute seat (the
    #: viewer's own as it is), as the strong AI samples them, and the hidden cards held
    #: by nobody (kitty, stock, discards) or None to let them fall as they may. Raises
    #: ``SampleError`` where the sampler does not apply.
    sample: Callable[[Any, Random], tuple[list[list[Any]], list[Any] | None]]
    #: Cards every seat sees face up (Whist's turned card, Hundert's pile).
    faceup: Callable[[Any], Sequence[Any]] = _nothing
    #: Cards each seat has shown, by absolute seat (Pinochle's melds); () for none.
    shown: Callable[[Any], Sequence[Sequence[Any]]] = _nothing
    #: Whether cards are played to tricks of one card a seat (else to one pile).
    tricks: bool = True
    #: What a score is divided by in an observation (about a game's target).
    scale: float = 100.0
    #: How many copies of a card the deck holds at most.
    copies: int = 1
    #: Whether some decision is a ``Composite`` (the action space then has the steps').
    steps: bool = False
