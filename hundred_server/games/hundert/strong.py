"""A strong Hundert AI: Perfect Information Monte Carlo (PIMC) over sampled deals.

Only a card's points matter in Hundert (any card may be played; suits never count), so
the AI thinks in point classes: 0 (9 8 7), 2 (J), 3 (Q), 4 (K), 10 (T) and 11 (A), and
a hand is six counts. Cards of one class are alike: of them it plays the first legal.

``StrongBot.act(view)`` reads the seat's ``View`` and nothing else. With one class of
card in hand it plays it. Otherwise it samples deals of the cards it has not seen
(``View.unseen``: neither in its hand, nor in the pile, nor played this deal), each
consistent with everything the view shows: every other seat holds ``hand_sizes`` of
them. Hundert lets a seat play any card it holds, so no play reveals what a seat lacks,
and every split of the unseen cards into hands of those sizes can be the real one: the
draw (shuffle, then deal them out by size) is uniform over the consistent deals.

For every sample and every candidate class it plays the card, then plays the deal out
with a fast rollout policy, every seat alike. The sampled hands are the whole deal in a
rollout, but the policy judges risk only as a seat could at the table, from its own
hand and the cards still out (so no seat in a rollout sees the next hand, which keeps
the usual PIMC over-optimism about what the others know small): make exactly 100 if
it can; else of the cards that stay under 100, the highest that leaves a gap no card
still out in another hand closes exactly (if every one does, the one whose gap the
fewest such cards close), since low cards, above all the zeros, are what lets a seat
stay under 100 late in the deal; else, everything going over, the lowest. A candidate
that ends the deal at once (100 or over) is judged exactly, without samples. Each
candidate is judged on the same samples by the mean chips the deal moves to the
viewer; ties go to the lowest class (deterministic).

With two seats nothing is hidden (no pile is left: the other hand is every card not
seen), so one sample is the deal itself and the rest would repeat it.

Budget and reproducibility: the work per decision is fixed, ``work`` card plays of
rollouts (a rollout counts ``ROLLOUT_COST`` plays a seat more, for copying the hands;
at least ``min_samples`` samples), and the generator is seeded from ``seed`` and the
view, so the same game replays the same on any machine. The default (``default_work``) was
measured to decide within 50 ms at p99 at every table size on the development machine,
two cores shared with other work (``bench/strong.py --game hundert --seats N``).
``budget`` (seconds, default ``BUDGET``) is a cap of CPU time on top: checked between
samples, it only cuts a decision short when the machine is slower than that (or busy);
then the choice depends on the machine's speed and is no longer reproducible.
``budget=None`` turns the cap off (fully reproducible, as the tests run it).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import ClassVar, Final

from mypy_extensions import mypyc_attr

from hundred_server.games.hundert.rules import (
    EXACT_CHIPS,
    HUNDERT_DECK,
    POINTS,
    TARGET,
    Action,
    Phase,
    Play,
    View,
)
from hundred_server.games.kit import search
from hundred_server.games.kit.cards import ALL_CARDS, Card
from hundred_server.protocol.errors import HundredError

#: What a rollout costs on top of its card plays, in card plays a seat (copying the hands).
ROLLOUT_COST: Final = 1

#: The point classes, low to high, and each card's class (cards outside the deck: -1).
VALUES: Final[tuple[int, ...]] = (0, 2, 3, 4, 10, 11)
CLASS_OF: Final[tuple[int, ...]] = tuple(
    VALUES.index(POINTS[c]) if c in HUNDERT_DECK else -1 for c in ALL_CARDS
)
#: The class whose card closes a gap to 100 exactly (-1: none does), by gap.
_CLOSES: Final[tuple[int, ...]] = tuple(
    VALUES.index(g) if g in VALUES and g > 0 else -1 for g in range(TARGET + 1)
)
_HIGH_TO_LOW: Final[tuple[int, ...]] = (5, 4, 3, 2, 1, 0)


def chips_to(viewer: int, seat: int, total: int, num_players: int, feder: bool) -> int:
    """The chips the viewer gets when ``seat`` ends the deal at ``total`` (see
    ``rules.chips``)."""
    if total == TARGET:
        each = -(1 if feder else EXACT_CHIPS)
    else:
        each = 1 if feder else total - TARGET
    return -each * (num_players - 1) if viewer == seat else each


def counts_of(cards: Sequence[Card]) -> list[int]:
    """A hand as its six class counts."""
    counts = [0] * len(VALUES)
    for card in cards:
        counts[CLASS_OF[card]] += 1
    return counts


class Sampler:
    """Draws the other seats' hands consistently with one view (see the docstring)."""

    def __init__(self, view: View) -> None:
        if view.phase is not Phase.PLAY:
            raise search.SampleError("a Hundert view between deals has no hidden cards to sample")
        self.seat = view.seat
        self.sizes = view.hand_sizes
        if len(self.sizes) != view.num_players or self.sizes[view.seat] != len(view.hand):
            raise search.SampleError(f"seat {view.seat} holds {len(view.hand)} cards, not as shown")
        self.unseen = list(view.unseen)
        hidden = sum(self.sizes) - len(view.hand)
        if hidden != len(self.unseen) or min(self.sizes) < 0:
            raise search.SampleError(
                f"the other hands hold {hidden} cards, but {len(self.unseen)} are not seen"
            )

    def sample(self, rng: Random) -> list[list[Card]]:
        """Every seat's hand in one consistent deal (the viewer's left empty)."""
        cards = self.unseen[:]
        search.shuffle(cards, rng)
        hands: list[list[Card]] = []
        start = 0
        for seat, size in enumerate(self.sizes):
            if seat == self.seat:
                hands.append([])
                continue
            hands.append(cards[start : start + size])
            start += size
        return hands

    def sample_counts(self, rng: Random) -> list[list[int]]:
        """One consistent deal as class counts (the viewer's all zero)."""
        return [counts_of(hand) for hand in self.sample(rng)]


# ------------------------------------------------------------------------ the rollouts


def policy(hands: list[list[int]], total: int, seat: int, left: list[int]) -> int:
    """The class the rollout policy plays for ``seat`` (see the docstring); ``left``
    counts the cards still in all the hands, by class."""
    hand = hands[seat]
    gap = TARGET - total
    exact = _CLOSES[gap]
    if exact >= 0 and hand[exact]:
        return exact
    risky = -1
    least = 99
    for k in _HIGH_TO_LOW:
        if hand[k]:
            rest = gap - VALUES[k]
            if rest <= 0:
                continue
            closes = _CLOSES[rest]
            if closes >= 0:
                out = left[closes] - hand[closes]
                if out:
                    if out < least:
                        risky, least = k, out
                    continue
            return k
    if risky >= 0:
        return risky
    for k in range(len(VALUES)):
        if hand[k]:
            return k
    raise search.SampleError(f"seat {seat} has no card to play")  # cannot happen: 120 > 100


def rollout(hands: list[list[int]], total: int, seat: int) -> tuple[int, int, int]:
    """Play the deal out from ``seat`` to act (``hands`` is consumed): the seat that
    ends it, the total it ends at, and the card plays it took."""
    n = len(hands)
    left = [sum(h[k] for h in hands) for k in range(len(VALUES))]
    plays = 0
    while True:
        k = policy(hands, total, seat, left)
        hands[seat][k] -= 1
        left[k] -= 1
        total += VALUES[k]
        plays += 1
        if total >= TARGET:
            return seat, total, plays
        seat = (seat + 1) % n


# --------------------------------------------------------------------------------- bot


@mypyc_attr(allow_interpreted_subclasses=True)
class StrongBot(search.SearchBot):
    """``act(view) -> Play`` for Hundert by PIMC; see the module docstring."""

    # Its tuning, class-wide (a tuning run subclasses the bot to change it): card plays
    # of rollouts per decision (measured: see the docstring), and fewest samples per
    # decision, however long the rollouts.
    default_work: ClassVar[int] = 7500
    default_min_samples: ClassVar[int] = 8

    def _rng(self, view: View) -> Random:
        hand, played = search.codes(view.hand), search.codes(c for _, c in view.played)
        return self.keyed(view.seat, view.round_index, view.scores, view.dealer, hand, played)

    def act(self, view: View) -> Action:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if not plays:
            raise HundredError(f"the strong hundert bot has no play to make as seat {view.seat}")
        self.last_rollouts = 0
        first: dict[int, Play] = {}
        for play in plays:
            first.setdefault(CLASS_OF[play.card], play)
        if len(first) == 1:
            return plays[0]
        return first[self.choose(view, sorted(first))]

    def choose(self, view: View, classes: Sequence[int]) -> int:
        """The class of card with the best mean chips for the viewer this deal (the
        lowest class among the best)."""
        start = search.clock()
        me, n, feder = view.seat, view.num_players, view.feder
        total = view.total
        scores = [0.0] * len(classes)
        open_ = []  # candidates that leave the deal going: judged by rollouts
        for i, k in enumerate(classes):
            after = total + VALUES[k]
            if after >= TARGET:
                scores[i] = float(chips_to(me, me, after, n, feder))
            else:
                open_.append(k)
        if open_:
            # With two seats nothing is hidden (the other hand is every card not seen):
            # every sample is the same deal, and the rollouts are deterministic.
            decision = ClassSearch(view, open_, 1 if n == 2 else self.min_samples, self.work)
            sums = self.search(decision, self._rng(view), start)
            for i, k in enumerate(open_):
                scores[classes.index(k)] = sums[i] / decision.done
        return classes[search.best(scores)]


class ClassSearch(search.Decision[list[list[int]]]):
    """A card decision: a card of each candidate class played, then the deal played
    out, on every sample; worth the chips the deal moves to the viewer. It samples
    until ``work`` card plays are done (``least`` samples at least; with two seats,
    nothing hidden, ``least`` only)."""

    def __init__(self, view: View, classes: list[int], least: int, work: int) -> None:
        super().__init__(len(classes), least)
        self.sampler = Sampler(view)
        self.classes = classes
        self.seat, self.n, self.feder = view.seat, view.num_players, view.feder
        self.total = view.total
        self.mine = counts_of(view.hand)
        self.work = work
        self.worked = 0

    def more(self, done: int) -> bool:
        return done < self.samples or (self.n > 2 and self.worked < self.work)

    def deal(self, rng: Random) -> list[list[int]]:
        deal = self.sampler.sample_counts(rng)
        deal[self.seat] = self.mine
        return deal

    def value(self, deal: list[list[int]], i: int) -> float:
        me, n, k = self.seat, self.n, self.classes[i]
        hands = [h[:] for h in deal]
        hands[me][k] -= 1
        seat, end, used = rollout(hands, self.total + VALUES[k], (me + 1) % n)
        self.worked += used + ROLLOUT_COST * n
        return chips_to(me, seat, end, n, self.feder)
