"""The strong Spades AI: it bids as the naive bot and plays by the kit's PIMC search.

At a play it deals the unseen cards to the other seats many times (the kit's
``search.Sampler``: each seat as many as it has still to play, none of a suit it has
shown void in) and plays every legal
card out on each deal with a fast policy (the naive bot's, on card numbers), then takes
the card whose hand ends with the best score for its side over the other's.
"""

from __future__ import annotations

from random import Random
from typing import ClassVar, Final

from mypy_extensions import mypyc_attr

from hundred_server.games.kit import search
from hundred_server.games.spades.bots import NaiveBot
from hundred_server.games.spades.rules import PLAY_ACTIONS, Action, View, side_points

WORK: Final = 6000
MIN_SAMPLES: Final = 6
SPADE: Final = 2  # card // 13: hearts, diamonds, spades, clubs


def pick(hand: list[int], trick: list[int], broken: bool, nil: bool, partner_wins: bool) -> int:
    """The policy's card (``trick``: seat * 64 + card, in order)."""
    if not trick:
        side = [c for c in hand if c // 13 != SPADE] if not broken else hand
        pool = side or hand
        aces = [c for c in pool if c % 13 == 12 and c // 13 != SPADE]
        return aces[0] if aces and not nil else min(pool, key=lambda c: (c // 13 == SPADE, c % 13))
    led = trick[0] % 64 // 13
    follow = [c for c in hand if c // 13 == led] or hand
    best = trick[0] % 64
    for p in trick[1:]:
        c = p % 64
        if (c // 13 == best // 13 and c > best) or (c // 13 == SPADE and best // 13 != SPADE):
            best = c
    win = [
        c for c in follow if (c // 13 == best // 13 and c > best) or c // 13 == SPADE != best // 13
    ]
    if nil:
        lose = [c for c in follow if c not in win]
        return max(lose, key=lambda c: c % 13) if lose else min(follow, key=lambda c: c % 13)
    if partner_wins or not win:
        return min(follow, key=lambda c: (c // 13 == SPADE, c % 13))
    return min(win, key=lambda c: (c // 13 == SPADE, c % 13))


def winner_of(trick: list[int]) -> int:
    best = trick[0]
    for p in trick[1:]:
        c, b = p % 64, best % 64
        if (c // 13 == b // 13 and c > b) or (c // 13 == SPADE and b // 13 != SPADE):
            best = p
    return best // 64


class PlayOut(search.Decision[list[list[int]]]):
    """One play's search: ``candidates`` the legal cards, each played out to the end."""

    def __init__(self, view: View, cards: list[int], samples: int) -> None:
        super().__init__(len(cards), samples)
        self.seat, self.cards, self.hand = view.seat, cards, [int(c) for c in view.hand]
        self.bids = [0] * 4
        for seat, amount in view.bids:
            self.bids[seat] = amount
        self.taken = list(view.taken)
        self.trick = [s * 64 + int(c) for s, c in view.current_trick]
        self.broken = view.broken
        seen = set(view.hand).union(view.played)
        tricks = (*view.tricks, view.current_trick)
        self.sampler = search.Sampler(self.seat, seen, tricks, 13, [[], [], [], []])

    def deal(self, rng: Random) -> list[list[int]]:
        hands = self.sampler.sample(rng)
        hands[self.seat] = self.hand[:]
        return hands

    def value(self, deal: list[list[int]], i: int) -> float:
        hands = [h[:] for h in deal]
        trick, taken, broken = self.trick[:], self.taken[:], self.broken
        seat, card = self.seat, self.cards[i]
        while True:
            hands[seat].remove(card)
            trick.append(seat * 64 + card)
            broken = broken or card // 13 == SPADE
            if len(trick) == 4:
                seat = winner_of(trick)
                taken[seat] += 1
                trick = []
                if not hands[seat]:
                    break
            else:
                seat = (seat + 1) % 4
            partner_wins = len(trick) >= 2 and winner_of(trick) == (seat + 2) % 4
            card = pick(hands[seat], trick, broken, self.bids[seat] == 0, partner_wins)
        mine = side_points(self.bids[self.seat % 2 :: 2], taken[self.seat % 2 :: 2])[0]
        theirs = side_points(self.bids[1 - self.seat % 2 :: 2], taken[1 - self.seat % 2 :: 2])[0]
        return float(mine - theirs)


@mypyc_attr(allow_interpreted_subclasses=True)
class StrongBot(search.SearchBot):
    """``act(view)`` for Spades: the naive bid, a searched play."""

    default_work: ClassVar[int] = WORK
    default_min_samples: ClassVar[int] = MIN_SAMPLES

    def act(self, view: View) -> Action:
        self.last_rollouts = 0
        cards = sorted(int(a.card) for a in view.legal if hasattr(a, "card"))
        if len(cards) <= 1:
            return NaiveBot().act(view)
        start = search.clock()
        left = 52 - len(view.played)
        decision = PlayOut(view, cards, self.samples_for(self.work, len(cards), left))
        rng = self.keyed(
            view.seat,
            view.hand_index,
            view.scores,
            search.codes(view.hand),
            search.codes(view.played),
        )
        return PLAY_ACTIONS[cards[search.best(self.search(decision, rng, start))]]
