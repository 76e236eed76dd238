"""Hundred and Ten for the research environments (kit/research.py): 53 plays, the bids
(pass, 15, 20, 25, 30, the moon), the four trumps and the unpass; a discard is taken
card by card; hidden hands, stock and discards drawn by the strong AI's sampler."""

from __future__ import annotations

from operator import attrgetter
from random import Random
from typing import Any, Final

from hundred_server.games.hundredandten.rules import (
    BID_ACTIONS,
    BID_AMOUNTS,
    PLAY_ACTIONS,
    TRUMP_ACTIONS,
    UNPASS_ACTION,
    Discard,
    View,
)
from hundred_server.games.hundredandten.strong import Sampler
from hundred_server.games.kit.cards import ALL_CARDS, Card
from hundred_server.games.kit.research import Composite, Research


def _discard(picked: tuple[Any, ...], option: Any, called: tuple[Any, ...]) -> Discard:
    return Discard(picked)


_cards: Final = attrgetter("cards")


def _parts(action: Discard) -> tuple[tuple[Any, ...], Any, tuple[Any, ...]]:
    return action.cards, None, ()


def _compose(legal: tuple[Any, ...]) -> Composite | None:
    if not legal or type(legal[0]) is not Discard:
        return None
    return Composite((0, max(map(len, map(_cards, legal)))), (), 0, _discard, _parts)


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
    # The engine's own instances (equal to any other: the numbers are found faster).
    plays=PLAY_ACTIONS,
    choices=(*(BID_ACTIONS[a] for a in BID_AMOUNTS), *TRUMP_ACTIONS, UNPASS_ACTION),
    compose=_compose,
    sample=_sample,
    steps=True,
    scale=110.0,
)
