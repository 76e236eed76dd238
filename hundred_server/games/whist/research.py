"""Whist for the research environments (kit/research.py): 52 plays, no other action;
the turned trump card is face up; hidden hands drawn by the strong AI's sampler."""

from __future__ import annotations

from random import Random
from typing import Any, Final

from hundred_server.games.kit.cards import STANDARD_52, Card
from hundred_server.games.kit.research import Research
from hundred_server.games.whist.rules import PLAY_ACTIONS, View
from hundred_server.games.whist.strong import sampler


def _sample(view: View, rng: Random) -> tuple[list[list[Any]], list[Any] | None]:
    hands: list[list[Any]] = [[Card(c) for c in hand] for hand in sampler(view).sample(rng)]
    hands[view.seat] = list(view.hand)
    return hands, []


def _faceup(view: View) -> tuple[Card, ...]:
    return () if view.trump_card is None else (view.trump_card,)


RESEARCH: Final = Research(
    cards=STANDARD_52,
    plays=PLAY_ACTIONS,
    choices=(),
    compose=lambda legal: None,
    sample=_sample,
    faceup=_faceup,
    scale=5.0,
)
