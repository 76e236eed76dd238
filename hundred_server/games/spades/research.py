"""Spades for the research environments (kit/research.py): 52 plays and the bids 0-13;
hidden hands drawn by the strong AI's sampler (strong.sampler)."""

from __future__ import annotations

from random import Random
from typing import Any, Final

from hundred_server.games.kit.cards import STANDARD_52, Card
from hundred_server.games.kit.research import Research
from hundred_server.games.spades.rules import ALL_BIDS, PLAY_ACTIONS, View
from hundred_server.games.spades.strong import sampler


def _sample(view: View, rng: Random) -> tuple[list[list[Any]], list[Any] | None]:
    drawn = sampler(view).sample(rng)
    hands: list[list[Any]] = [[Card(c) for c in hand] for hand in drawn]
    hands[view.seat] = list(view.hand)
    return hands, []


RESEARCH: Final = Research(
    cards=STANDARD_52,
    plays=PLAY_ACTIONS,
    choices=ALL_BIDS,
    compose=lambda legal: None,
    sample=_sample,
    scale=500.0,
)
