"""What every game's strong AI (``games/<game>/strong.py``) shares.

Each is a search over deals sampled to fit its seat's view (PIMC): at a decision it
deals the cards it cannot see many times over, plays each candidate out on every deal
with a fast rollout policy, and takes the best on average. The work a decision does is
fixed (``work`` card plays of rollouts, at least ``min_samples`` deals), and its random
generator is keyed from ``seed`` and the view, so the same game replays the same on any
machine. ``budget`` (seconds) is a cap on top, checked between samples: it
counts the CPU time of the thread that searches, from the start of the decision
(``clock()``), not the time it waited for a core or, in the server's AI pool, in the queue;
so it only cuts a decision short on a machine slower than the one ``work`` was measured
on, and then the choice depends on the machine (``None``: no cap, as the tests run
it). ``SearchBot`` keeps those four and the count of rollouts of the last
decision; each game's ``StrongBot`` names its defaults (``default_work``,
``default_min_samples``) and adds its own tuning and its sampler, which raises
``SampleError`` on a view no deal fits.

The loop is written once, here: a game sets a decision up as a ``Decision`` (how many
candidates, how many samples, ``deal``: one sample drawn to fit the view, ``value``:
one candidate played out on it) and ``SearchBot.search`` draws the samples, judges
every candidate on each, in order, and stops at the sample count (``Decision.more``)
or the budget (``SearchBot.spent``). The draws come from one generator keyed from the
seed and the view (``SearchBot.keyed``), in the order the samples are drawn, so the
same view gets the same samples. ``best`` is the choice: the first candidate of the
highest total, so ties go to the lowest (the games order their candidates for it).
Both are compiled classes whose methods the games override: mypyc calls them directly
(a call through a Python callable or a Protocol would cost a Python call a rollout).

``shuffle(cards, rng)`` is ``rng.shuffle(cards)``, the same draws and the same order,
in code mypyc compiles (the standard library's runs in Python: a quarter of a decision
in some games). It is checked against ``Random.shuffle`` once, at import, and is
``Random.shuffle`` itself wherever the two differ. ``least(cards, key)`` is
``min(cards, key=key.__getitem__)`` the same way (a call of Python a card, else).

``Sampler`` is the sampler of the games of four seats and 52 cards (Whist, Spades): it
deals the cards a seat has not seen to the three others, each holding as many as it has
still to play and none of a suit it has shown void in (``tricks_seen`` reads both off a
view; a game adds the voids its own rules show, ``voids_known``). The deals are drawn
card by card, the most constrained suits first, each card going to a seat that may hold
it with a chance proportional to the room left in that seat's hand. A plain draw can get
stuck (the room left only in seats void in the suit); after a few such tries the draw
places each card only where the rest can still be placed (Hall's condition over the
three other seats, checked exactly), which never gets stuck. The distribution is close
to, not exactly, uniform over the fitting deals.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from random import Random
from typing import ClassVar, Final, Generic, TypeVar

from mypy_extensions import mypyc_attr

from hundred_server.games.kit.cards import STANDARD_52, Card
from hundred_server.protocol.errors import HundredError

#: The default cap of CPU time a decision, in seconds (``serve --ai-budget``,
#: ``tournament --budget``).
BUDGET: Final = 0.05


class SampleError(HundredError):
    """A view no deal fits (it cannot come from a real game)."""

    code = "bad_view"


T = TypeVar("T")
#: What a game's ``Decision.deal`` draws: one sample, ready for its rollouts.
D = TypeVar("D")


def _shuffle(items: list[T], rng: Random) -> None:
    """``Random.shuffle`` as CPython writes it (with ``_randbelow_with_getrandbits``)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _same_as_random() -> bool:
    """Whether ``_shuffle`` orders as ``Random.shuffle`` does and leaves the generator
    where it does, on lists of every size a deal has and more."""
    for size in range(70):
        ours, theirs = Random(f"shuffle-{size}"), Random(f"shuffle-{size}")
        mine, stdlib = list(range(size)), list(range(size))
        _shuffle(mine, ours)
        theirs.shuffle(stdlib)
        if mine != stdlib or ours.random() != theirs.random():
            return False
    return True


#: ``_shuffle`` is exact on this Python (else ``shuffle`` is ``Random.shuffle``).
EXACT_SHUFFLE: Final = _same_as_random()


def least(cards: list[int], key: Sequence[int]) -> int:
    """``min(cards, key=key.__getitem__)``: the first card of the least key (``cards``
    not empty)."""
    best = cards[0]
    low = key[best]
    for card in cards:
        k = key[card]
        if k < low:
            best, low = card, k
    return best


def shuffle(items: list[T], rng: Random) -> None:
    """``rng.shuffle(items)``: the same order and draws, compiled (module docstring)."""
    if EXACT_SHUFFLE and type(rng) is Random:
        _shuffle(items, rng)
    else:
        rng.shuffle(items)


@mypyc_attr(allow_interpreted_subclasses=True)
class SearchBot:
    """The seed, work and budget of a strong AI (see the module docstring)."""

    name: ClassVar[str] = "strong"
    #: The game's defaults: card plays of rollouts a decision, and fewest samples.
    default_work: ClassVar[int] = 0
    default_min_samples: ClassVar[int] = 1

    def __init__(
        self,
        seed: int | str = 0,
        *,
        budget: float | None = BUDGET,
        work: int | None = None,
        min_samples: int | None = None,
    ) -> None:
        self.seed = seed
        self.budget = budget
        self.work = self.default_work if work is None else work
        self.min_samples = self.default_min_samples if min_samples is None else min_samples
        #: Rollouts made by the last decision (for measuring).
        self.last_rollouts = 0

    def out_of_time(self, start: float) -> bool:
        """Whether a decision begun at ``start`` (``clock()``, this thread's CPU time)
        has spent its budget."""
        return self.budget is not None and clock() - start > self.budget

    def spent(self, start: float, done: int) -> bool:
        """Whether a decision begun at ``start`` stops after its ``done`` samples for
        the budget (checked between samples; a game may look ahead instead)."""
        return self.out_of_time(start)

    def samples_for(self, work: int, candidates: int, plays: int) -> int:
        """How many deals a decision samples: ``work`` card plays shared over
        ``candidates`` rollouts of ``plays`` card plays each, ``min_samples`` at least."""
        return max(self.min_samples, work // max(1, candidates * plays))

    def key(self, *parts: object) -> str:
        """The key of a decision's generator: the seed and ``parts`` of the view."""
        return "|".join([f"{self.seed}", *[f"{part}" for part in parts]])

    def keyed(self, *parts: object) -> Random:
        """The generator of a decision, keyed from the seed and ``parts`` of the view."""
        return Random(self.key(*parts))

    def search(self, decision: Decision[D], rng: Random, start: float) -> list[float]:
        """Each candidate's total over the samples (``decision.done`` says how many):
        each sample drawn from ``rng``, then every candidate judged on it in order."""
        count = decision.candidates
        totals = [0.0] * count
        done = 0
        while decision.more(done):
            deal = decision.deal(rng)
            for i in range(count):
                totals[i] += decision.value(deal, i)
            self.last_rollouts += count
            done += 1
            if self.spent(start, done):
                break
        decision.done = done
        self.last_rollouts += decision.extra_rollouts
        return totals


class Decision(Generic[D]):
    """One decision's search as a game sets it up (see the module docstring): it
    subclasses this with the view's facts as fields, ``deal`` and ``value``."""

    def __init__(self, candidates: int, samples: int) -> None:
        self.candidates = candidates
        self.samples = samples
        #: The samples drawn (set by ``SearchBot.search``).
        self.done = 0
        #: Rollouts beyond one a candidate and sample (a candidate played out twice).
        self.extra_rollouts = 0

    def more(self, done: int) -> bool:
        """Whether to draw another sample after ``done`` of them."""
        return done < self.samples

    def deal(self, rng: Random) -> D:
        """One sample drawn from ``rng`` to fit the view, ready for ``value``."""
        raise NotImplementedError

    def value(self, deal: D, i: int) -> float:
        """What candidate ``i`` is worth on one sample (a rollout)."""
        raise NotImplementedError


def codes(cards: Iterable[Card]) -> str:
    """Cards as their codes, one string (a part of a generator's key)."""
    return "".join(card.code for card in cards)


def best(totals: list[float]) -> int:
    """The candidate of the highest total: the first of them on ties."""
    return totals.index(max(totals))


def clock() -> float:
    """The CPU time of this thread, in seconds: what a decision's budget counts (not
    the time it waits for a core, or in the AI pool's queue for a worker)."""
    return time.thread_time()


# ------------------------------------------------------------ four seats, 52 cards

_BITS: Final = tuple(bin(m).count("1") for m in range(8))
#: The proper subsets T of the other three seats (bit k: the k-th after the viewer), each
#: with the seat masks inside it: the cards only seats in T may hold.
_INSIDE: Final = tuple((t, tuple(m for m in range(1, 8) if m & ~t == 0)) for t in range(1, 7))
#: Plain draws tried before the draw that checks Hall's condition at every card.
_QUICK_TRIES: Final = 4


def tricks_seen(
    tricks: Sequence[Sequence[tuple[int, Card]]], hand_size: int
) -> tuple[list[set[int]], list[int]]:
    """What the tricks of a hand (the one under way last) show of four seats: the suits
    (``card // 13``) each has shown void in, and how many cards each holds now."""
    voids: list[set[int]] = [set() for _ in range(4)]
    sizes = [hand_size] * 4
    for plays in tricks:
        for seat, card in plays:
            sizes[seat] -= 1
            if int(card) // 13 != int(plays[0][1]) // 13:
                voids[seat].add(int(plays[0][1]) // 13)
    return voids, sizes


class Sampler:
    """Draws the other three seats' hands to fit what one seat has seen (module
    docstring): ``seen`` its own hand and the cards played, ``fixed`` cards known to be
    in a hidden hand (by seat), ``tricks`` the hand's tricks so far, ``voids_known`` the
    suits a seat is known to hold none of besides those the tricks show (by seat: what a
    game's own rules tell, such as Spades' lead of a spade before spades are broken)."""

    def __init__(
        self,
        seat: int,
        seen: set[Card],
        tricks: Sequence[Sequence[tuple[int, Card]]],
        hand_size: int,
        fixed: list[list[int]],
        voids_known: Sequence[Sequence[int]] = (),
    ) -> None:
        voids, sizes = tricks_seen(tricks, hand_size)
        for void, suits in zip(voids, voids_known, strict=False):
            void.update(suits)
        self.others = [(seat + k) % 4 for k in (1, 2, 3)]
        self.fixed = fixed
        known = {STANDARD_52[c] for hand in fixed for c in hand}
        self.unseen = [int(c) for c in STANDARD_52 if c not in seen and c not in known]
        self.room = [sizes[s] - len(fixed[s]) for s in self.others]
        # The mask of the other seats (bit k: self.others[k]) that may hold each suit.
        self.allowed = [
            sum(1 << k for k, s in enumerate(self.others) if suit not in voids[s])
            for suit in range(4)
        ]
        if sum(self.room) != len(self.unseen) or min(self.room) < 0:
            raise SampleError("the hand sizes do not add up to the cards not seen")
        if not self._feasible(self._mask_counts(self.unseen), self.room):
            raise SampleError("no deal fits the voids this view shows")

    def _mask_counts(self, cards: list[int]) -> list[int]:
        counts = [0] * 8
        for card in cards:
            counts[self.allowed[card // 13]] += 1
        return counts

    @staticmethod
    def _feasible(counts: list[int], room: list[int]) -> bool:
        """Hall's condition: for every set T of seats, the cards that only seats in T may
        hold fit in T's room (T = all three holds when the total does)."""
        for subset, inside in _INSIDE:
            need = 0
            for m in inside:
                need += counts[m]
            if need > (room[0] if subset & 1 else 0) + (room[1] if subset & 2 else 0) + (
                room[2] if subset & 4 else 0
            ):
                return False
        return counts[0] == 0

    def sample(self, rng: Random) -> list[list[int]]:
        """Every seat's hand in one fitting deal (the viewer's left empty)."""
        cards = self.unseen[:]
        shuffle(cards, rng)
        # The most constrained cards first: they have the fewest places to go.
        cards.sort(key=lambda c: _BITS[self.allowed[c // 13]])
        for _ in range(_QUICK_TRIES):
            hands = self._draw(cards, rng, False)
            if hands is not None:
                return hands
        hands = self._draw(cards, rng, True)
        if hands is None:  # cannot happen: every step keeps the rest placeable
            raise SampleError("the sampler got stuck")
        return hands

    def _draw(self, cards: list[int], rng: Random, check: bool) -> list[list[int]] | None:
        """Place ``cards`` one by one, each with a seat that may hold it, by the room
        left; with ``check`` only where the rest still fits, else None when stuck."""
        counts = self._mask_counts(cards) if check else []
        room = self.room[:]
        hands = [list(h) for h in self.fixed]
        others = self.others
        allowed = self.allowed
        for card in cards:
            mask = allowed[card // 13]
            if check:
                counts[mask] -= 1
            w0 = room[0] if mask & 1 else 0
            w1 = room[1] if mask & 2 else 0
            w2 = room[2] if mask & 4 else 0
            if check:
                for k, w in ((0, w0), (1, w1), (2, w2)):
                    if w:
                        room[k] -= 1
                        if not self._feasible(counts, room):
                            if k == 0:
                                w0 = 0
                            elif k == 1:
                                w1 = 0
                            else:
                                w2 = 0
                        room[k] += 1
            total = w0 + w1 + w2
            if not total:
                return None
            pick = rng.random() * total
            k = 0 if pick < w0 else 1 if pick < w0 + w1 else 2
            room[k] -= 1
            hands[others[k]].append(card)
        return hands
