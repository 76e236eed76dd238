"""Hundert for the research environments (kit/research.py): 32 plays to one pile; the
cards left over lie face up; hidden hands drawn by the strong AI's sampler."""

from __future__ import annotations

from random import Random
from typing import Any, Final

from hundred_server.games.hundert.rules import HUNDERT_DECK, PLAY_ACTIONS, View
from hundred_server.games.hundert.strong import Sampler
from hundred_server.games.kit.research import Research


def _sample(view: View, rng: Random) -> tuple[list[list[Any]], list[Any] | None]:
    hands: list[list[Any]] = [list(hand) for hand in Sampler(view).sample(rng)]
    hands[view.seat] = list(view.hand)
    return hands, []


def _faceup(view: View) -> tuple[Any, ...]:
    return view.pile


RESEARCH: Final = Research(
    cards=HUNDERT_DECK,
    plays=tuple(PLAY_ACTIONS[c] for c in HUNDERT_DECK),
    choices=(),
    compose=lambda legal: None,
    sample=_sample,
    faceup=_faceup,
    tricks=False,
    scale=30.0,
)
