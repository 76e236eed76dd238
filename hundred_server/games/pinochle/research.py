"""Pinochle for the research environments (kit/research.py): 24 distinct cards (the
deck holds each twice), the bids (pass, 20..250) and the four trumps; the melds are
shown to all; hidden hands drawn by the strong AI's sampler."""

from __future__ import annotations

from random import Random
from typing import Any, Final

from hundred_server.games.kit.cards import Card
from hundred_server.games.kit.research import Research
from hundred_server.games.pinochle.rules import (
    BID_ACTIONS,
    PINOCHLE_CARDS,
    PLAY_ACTIONS,
    TRUMP_CHOICES,
    View,
)
from hundred_server.games.pinochle.strong import Sampler, card_of


def _sample(view: View, rng: Random) -> tuple[list[list[Any]], list[Any] | None]:
    hands: list[list[Any]] = [[card_of(c) for c in hand] for hand in Sampler(view).sample(rng)]
    hands[view.seat] = list(view.hand)
    return hands, []


def _shown(view: View) -> tuple[tuple[Card, ...], ...]:
    return tuple(cards for _, cards in view.melds)


RESEARCH: Final = Research(
    cards=PINOCHLE_CARDS,
    plays=tuple(PLAY_ACTIONS[c] for c in PINOCHLE_CARDS),
    choices=(*BID_ACTIONS.values(), *TRUMP_CHOICES),
    compose=lambda legal: None,
    sample=_sample,
    shown=_shown,
    copies=2,
)
