"""What every game's strong AI (``games/<game>/strong.py``) shares.

Each is a search over deals sampled to fit its seat's view (PIMC): at a decision it
deals the cards it cannot see many times over, plays each candidate out on every deal
with a fast rollout policy, and takes the best on average. The work a decision does is
fixed (``work`` card plays of rollouts, at least ``min_samples`` deals), and its random
generator is keyed from ``seed`` and the view, so the same game replays the same on any
machine. ``budget`` (seconds) is a wall-clock cap on top, checked between samples: it
counts the CPU time of the thread that searches, from the start of the decision (its
``act``), not the time it waited for a core or, in the server's AI pool, in the queue;
so it only cuts a decision short on a machine slower than the one ``work`` was measured
on, and then the choice depends on the machine (``None``: no cap, as the tests run
it). ``SearchBot`` keeps those four and the count of rollouts of the last
decision; each game's ``StrongBot`` adds its own tuning and its sampler.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, Final

#: The default wall-clock cap a decision, in seconds (``serve --ai-budget``,
#: ``tournament --budget``).
BUDGET: Final = 0.05


class SearchBot:
    """The seed, work and budget of a strong AI (see the module docstring)."""

    name = "strong"

    def __init__(
        self, seed: int | str, *, budget: float | None, work: int, min_samples: int
    ) -> None:
        self.seed = seed
        self.budget = budget
        self.work = work
        self.min_samples = min_samples
        #: Rollouts made by the last decision (for measuring).
        self.last_rollouts = 0
        #: The thread's CPU time when the decision under way began (None: none is).
        self._cpu_start: float | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each game's ``act`` notes the CPU time its decision starts at."""
        super().__init_subclass__(**kwargs)
        act = cls.__dict__.get("act")
        if act is not None:
            cls.act = _timed(act)  # type: ignore[attr-defined]

    def out_of_time(self, start: float) -> bool:
        """Whether the decision under way has spent its budget of CPU time (this
        thread's, since its ``act`` began); called outside ``act``, of wall clock since
        ``start`` (``time.perf_counter()``)."""
        if self.budget is None:
            return False
        began = self._cpu_start
        if began is None:
            return time.perf_counter() - start > self.budget
        return time.thread_time() - began > self.budget


def _timed(act: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(act)
    def timed(self: SearchBot, view: Any) -> Any:
        outer = self._cpu_start
        if outer is None:  # an ``act`` that calls another's keeps the first start
            self._cpu_start = time.thread_time()
        try:
            return act(self, view)
        finally:
            self._cpu_start = outer

    return timed
