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
decision; each game's ``StrongBot`` adds its own tuning and its sampler.
"""

from __future__ import annotations

import time
from typing import Final

#: The default cap of CPU time a decision, in seconds (``serve --ai-budget``,
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

    def out_of_time(self, start: float) -> bool:
        """Whether a decision begun at ``start`` (``clock()``, this thread's CPU time)
        has spent its budget."""
        return self.budget is not None and clock() - start > self.budget


def clock() -> float:
    """The CPU time of this thread, in seconds: what a decision's budget counts (not
    the time it waits for a core, or in the AI pool's queue for a worker)."""
    return time.thread_time()
