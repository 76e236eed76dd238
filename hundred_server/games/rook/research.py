"""Rook for the research environments (kit/research.py): 45 plays, the bids (pass, 80..200
in fives, the moon); the setup is taken in steps: the discard card by card, the trump
colour, then the partner cards called; hidden hands and the kitty or discard drawn by
the strong AI's sampler."""

from __future__ import annotations

from random import Random
from typing import Any, Final

from hundred_server.games.kit.research import Composite, Research
from hundred_server.games.rook.cards import COLOURS, ROOK_DECK
from hundred_server.games.rook.rules import BID_ACTIONS, PLAY_ACTIONS, Setup, View
from hundred_server.games.rook.strong import Sampler


def _setup(picked: tuple[Any, ...], option: Any, called: tuple[Any, ...]) -> Setup:
    return Setup(picked, option, called)


def _parts(action: Setup) -> tuple[tuple[Any, ...], Any, tuple[Any, ...]]:
    return action.discard, action.trump, action.partners


def _compose(legal: tuple[Any, ...]) -> Composite | None:
    if not legal or type(legal[0]) is not Setup:
        return None
    count = len(legal[0].discard)
    return Composite((count, count), COLOURS, len(legal[0].partners), _setup, _parts)


def _sample(view: View, rng: Random) -> tuple[list[list[Any]], list[Any] | None]:
    drawn = Sampler(view).sample(rng)
    n = view.num_players
    hands: list[list[Any]] = [[ROOK_DECK[c] for c in hand] for hand in drawn[:n]]
    hands[view.seat] = list(view.hand)
    return hands, [ROOK_DECK[c] for hand in drawn[n:] for c in hand]


RESEARCH: Final = Research(
    cards=ROOK_DECK,
    plays=PLAY_ACTIONS,
    choices=(*BID_ACTIONS.values(), *COLOURS),
    compose=_compose,
    sample=_sample,
    steps=True,
    scale=500.0,
)
