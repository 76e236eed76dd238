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
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from random import Random
from typing import ClassVar, Final, Generic, TypeVar

from mypy_extensions import mypyc_attr

from hundred_server.games.kit.cards import Card
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
