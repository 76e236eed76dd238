"""Hundred and Ten for the research environments (kit/research.py): 53 plays, the bids
(pass, 15, 20, 25, 30, the moon), the four trumps and the unpass; a discard is taken
card by card; hidden hands, stock and discards drawn by the strong AI's sampler."""

from __future__ import annotations

from random import Random
from typing import Any, Final

from hundred_server.games.hundredandten.rules import (
    BID_AMOUNTS,
    Bid,
    Discard,
    Play,
    SelectTrump,
    Unpass,
    View,
)
from hundred_server.games.hundredandten.strong import Sampler
from hundred_server.games.kit.cards import ALL_CARDS, DECK_SUITS, Card
from hundred_server.games.kit.research import Composite, Research


def _discard(picked: tuple[Any, ...], option: Any, called: tuple[Any, ...]) -> Discard:
    return Discard(picked)


def _parts(action: Discard) -> tuple[tuple[Any, ...], Any, tuple[Any, ...]]:
    return action.cards, None, ()


def _compose(legal: tuple[Any, ...]) -> Composite | None:
    if not legal or type(legal[0]) is not Discard:
        return None
    return Composite((0, max(len(d.cards) for d in legal)), (), 0, _discard, _parts)


def _sample(view: View, rng: Random) -> tuple[list[list[Any]], list[Any] | None]:
    relative, stock, discards = Sampler(view).sample(rng)
    n = len(relative)
    hands: list[list[Any]] = [[] for _ in range(n)]
    for r, hand in enumerate(relative):
        hands[(view.seat + r) % n] = [Card(c) for c in hand]
    hands[view.seat] = list(view.hand)
    return hands, [Card(c) for c in (*stock, *discards)]


RESEARCH: Final = Research(
    cards=ALL_CARDS,
    plays=tuple(Play(c) for c in ALL_CARDS),
    choices=(
        *(Bid(a) for a in BID_AMOUNTS),
        *(SelectTrump(s) for s in DECK_SUITS),
        Unpass(),
    ),
    compose=_compose,
    sample=_sample,
    steps=True,
    scale=110.0,
)
