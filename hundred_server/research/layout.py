"""The numbered actions and the observation vector of one game at one table size.

Every game has one discrete action space (docs/research.md, "Action mapping"), laid out
from its catalogue (``GameSpec.research``, games/kit/research.py) as consecutive ranges:

=========  ==========================================================================
range      meaning
=========  ==========================================================================
play       ``C`` actions: play card ``i`` (``Layout.cards[i]``)
choice     ``K`` actions: every other one-step action (bids, a pass first; trumps;
           an unpass) and the options of a decision taken in steps (Rook's colour)
pick       ``C`` actions (games with steps only): put card ``i`` of the hand into
           the discard under way
call       ``C`` actions (games with steps only): call card ``i`` (Rook's partners)
done       1 action (games with steps only): the discard under way is complete
=========  ==========================================================================

The observation is a float32 vector of fixed size: first what concerns the observer
(``OWN``), then one block a seat (``SEAT``), seats relative to the observer (relative
seat ``r`` is the seat ``r`` places to the observer's left; 0 is the observer):
see docs/research.md.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from hundred_server.games.base import GameSpec

#: The observer's own fields, in order: (name, size, what it holds); C is the number of
#: distinct cards, N of seats, K of choices.
OWN: Final = (
    ("hand", "C", "how many of each card the observer holds"),
    ("discarded", "C", "the observer's own discard this hand (secret to the others)"),
    ("picking", "C", "the cards picked so far in the observer's discard under way"),
    ("faceup", "C", "cards every seat sees face up (a turned trump card, a pile), at the deal"),
    ("called", "C", "the cards called this hand (public)"),
    ("seat", "N", "the observer's absolute seat, one-hot"),
    ("leader", "N", "the relative seat that acted first this hand, one-hot"),
    ("stage", "4", "the observer's decision under way: one step, picking, an option, calling"),
)
#: Then for each relative seat 0..N-1 in turn, these fields.
SEAT: Final = (
    ("trick", "C", "the card the seat played to the trick under way"),
    (
        "played",
        "C",
        "the cards the seat played earlier this hand (or to the pile, in a game of no tricks)",
    ),
    ("shown", "C", "the cards the seat has shown (melds)"),
    ("choices", "K", "every choice (bid, pass, trump...) the seat made this hand"),
    ("score", "1", "the seat's score (its side's in a partnership) / the game's scale"),
)

#: Stages of a decision (the ``stage`` field).
PLAIN, PICKING, OPTION, CALLING = range(4)


class Layout:
    """Offsets of the action ranges and observation fields for ``spec`` at ``players``
    seats."""

    def __init__(self, spec: GameSpec, players: int) -> None:
        research = spec.research
        if research is None:
            raise ValueError(f"{spec.title} has no research catalogue")
        self.spec, self.players, self.research = spec, players, research
        c, k, n = len(research.cards), len(research.choices), players
        self.num_cards, self.num_choices = c, k
        self.card_index: dict[Any, int] = {card: i for i, card in enumerate(research.cards)}
        self.choice_index: dict[Any, int] = {a: i for i, a in enumerate(research.choices)}
        self.action_id: dict[Any, int] = {a: i for i, a in enumerate(research.plays)}
        self.action_id.update({a: c + i for i, a in enumerate(research.choices)})
        self.actions: tuple[Any, ...] = (*research.plays, *research.choices)
        #: The same numbers by the catalogue's instances themselves (``id``): an engine
        #: that shares its action instances with its catalogue is read without hashing
        #: them. The layout keeps them alive, so no other object has their ids.
        self.number_of_id: dict[int, int] = {id(a): self.action_id[a] for a in self.actions}
        self.pick0, self.call0, self.done = c + k, 2 * c + k, 3 * c + k
        self.num_actions = c + k + (2 * c + 1 if research.steps else 0)
        sizes = {"C": c, "N": n, "K": k, "4": 4, "1": 1}
        #: The observer's fields: name -> (start, end) in the vector.
        self.own: dict[str, tuple[int, int]] = {}
        at = 0
        for name, size, _ in OWN:
            self.own[name] = (at, at + sizes[size])
            at += sizes[size]
        self.own_size = at
        #: A seat's fields: name -> (start, end) within the seat's block.
        self.seat: dict[str, tuple[int, int]] = {}
        at = 0
        for name, size, _ in SEAT:
            self.seat[name] = (at, at + sizes[size])
            at += sizes[size]
        self.seat_size = at
        self.size = self.own_size + n * self.seat_size
        #: ``rot[o]``: the absolute seats in relative order for observer ``o``.
        self.rot = np.array([[(o + j) % n for j in range(n)] for o in range(n)], dtype=np.intp)

    def describe(self, action: int) -> str:
        """An action number as people read it: ``play AS``, ``choice Bid(amount=20)``,
        ``pick 5H``, ``call R14``, ``done``."""
        c, k = self.num_cards, self.num_choices
        cards = self.research.cards
        if 0 <= action < c:
            return f"play {cards[action].code}"
        if c <= action < c + k:
            return f"choice {self.research.choices[action - c]!r}"
        if self.pick0 <= action < self.call0:
            return f"pick {cards[action - self.pick0].code}"
        if self.call0 <= action < self.done:
            return f"call {cards[action - self.call0].code}"
        if action == self.done and action < self.num_actions:
            return "done"
        raise ValueError(f"no action {action} (there are {self.num_actions})")
