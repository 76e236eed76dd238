"""The AI pool: the built-in AI's searching moves, run for the asyncio server in a fixed
set of long-lived worker processes, so the event loop never searches.

With ``serve --ai-workers N`` (N > 0), a seat of the strong AI is a ``PoolSeat``
(core/remote.py): its table asks for its moves (``AskBot`` with ``builtin``) as it asks
a plug-in's, and ``AIPool.handle`` takes those asks into one queue that every table
shares. The queue is in the order the tables' waits began, not the asks': an ask that
an AI's answer brings on at once (the next AI seat's move at the same table, or the
same seat's next bid) keeps the place of the ask that began the chain, so a person
waiting through three AI moves (or an AI bidding war) waits for one place in the queue,
not one for each move. A chain keeps its place for ``CHAIN_HOLD`` at most (its place is
never older than that), so no table is starved, not even by a table of AI seats alone
whose chain runs to the game's end: an ask waits only behind asks placed before it.
Each of the ``limits.workers`` workers (bots/worker.py, the same process and frames as
a plug-in's, without a plug-in) plays one ask at a time with the bot the ask names. It is
sent up to ``limits.depth`` asks at once (the idle workers are served first), the next
waiting in its pipe, so that it goes on as soon as it has written an answer instead of
idling until the loop has read it and sent another; an ask of a chain then waits behind
at most the one sent before it. Its answer (an index into ``view.legal``, or the move
itself when ``legal`` holds only a sample of the moves, as a Rook setup) comes back
through ``answer(table, seat, ask, choice, fault, action)``, read from its pipe with
``add_reader``: the loop never waits for it. The worker's move is the one the table's
own bot would play in process (its random generator is keyed from its seed and the
view), so a game's record is the same whatever the pool's size, depth or load.

- ``ReleaseBots`` (the table ended or was abandoned) drops its asks from the queue;
  the answer of one a worker is on is dropped when it comes.
- A worker that crashes, garbles its frames or takes longer than ``limits.timeout``
  on an ask (a hard limit far above the strong AI's budget; its search counts its own
  CPU time, games/search.py; timed from when it began that ask) is killed and replaced,
  and the ask it was on is answered with a fault: its table's naive AI plays that one
  move (logged, counted in ``counts["stand_ins"]``). The asks it had not begun go back
  to the queue in their places.
  A worker that cannot start is tried again after ``RESTART_DELAY``; while no worker
  is ready after such a failure, the queued asks are answered with the fault at once.
- ``full()`` says whether more than ``limits.queue`` asks wait: the lobby then refuses
  new tables of the strong AI (``ai_busy``); asks of tables already playing are always
  queued.

Each server process has a pool of its own (nothing goes through a site's bus).
"""

from __future__ import annotations

import asyncio
import base64
import heapq
import logging
import os
import pickle
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from hundred_server.ai.plugins import (
    STARTUP_TIMEOUT,
    BotLimits,
    Worker,
    WorkerBroken,
    read_answer,
)
from hundred_server.ai.runner import EXIT_WAIT, Reaper
from hundred_server.core.remote import AskBot, BotRequest, ReleaseBots

log = logging.getLogger("hundred_server")

#: (table, seat, ask, choice, fault, action): the runner's answer (bots/runner.py), and
#: the move itself when it is none of the view's ``legal``.
PoolAnswer = Callable[[int, int, int, int | None, str | None, Any], None]

#: Wall-clock seconds a worker may take on one decision before it is replaced
#: (``serve --ai-timeout``): the strong AI's budget is 0.05 s of CPU.
TIMEOUT: Final = 3.0
#: Asks that may wait for a worker, per worker, before new tables of the strong AI
#: are refused (``serve --ai-queue``'s default is this times the workers).
QUEUE_PER_WORKER: Final = 64
#: Asks sent to a worker at once (``serve --ai-depth``): with two, a worker goes on to
#: its next ask as soon as it has written an answer, not after the server has read it
#: and sent another (under ``make load-ai``'s Rook, p99 of the answer to the next
#: prompt 235-258 ms against 634-1,046 ms with one; docs/scaling.md).
DEPTH: Final = 2
#: Seconds an AI chain keeps the place in the queue of its first ask, at most: a
#: person's wait through a few AI moves (milliseconds each) keeps it throughout.
CHAIN_HOLD: Final = 1.0
#: Seconds before a worker that could not start is started again.
RESTART_DELAY: Final = 1.0


def default_workers() -> int:
    """One worker per core beyond the first (the event loop's), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


@dataclass(frozen=True)
class PoolLimits:
    """``workers`` processes; more than ``queue`` asks waiting refuse new tables of the
    strong AI (None: ``QUEUE_PER_WORKER`` a worker); ``timeout`` wall-clock seconds a
    decision at most; ``startup`` seconds for a worker to say it is ready; ``depth``
    asks sent to a worker at once."""

    workers: int
    queue: int | None = None
    timeout: float = TIMEOUT
    startup: float = STARTUP_TIMEOUT
    depth: int = DEPTH

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"an AI worker is sent at least one ask at a time, not {self.depth}")

    @property
    def bound(self) -> int:
        return QUEUE_PER_WORKER * self.workers if self.queue is None else self.queue


@dataclass(eq=False)
class _InFlight:
    """An ask sent to a worker and not answered yet."""

    job: AskBot
    #: When the wait of the job's table began (its place in the queue).
    began: float
    #: The job's table was released: its answer is dropped when it comes.
    dropped: bool = False


@dataclass(eq=False)
class _Slot:
    """One worker of the pool and the asks it has been sent, in order: the first is the
    one it is on, the others wait in its pipe."""

    index: int
    worker: Worker | None = None
    ready: bool = False
    sent: deque[_InFlight] = field(default_factory=deque)
    #: The overrun timer of the first ask sent (or the startup timer).
    timer: asyncio.TimerHandle | None = None

    @property
    def job(self) -> AskBot | None:
        """The ask the worker is on."""
        return self.sent[0].job if self.sent else None


def _read_answer(message: dict[str, Any]) -> tuple[int, int | None, str | None, Any]:
    """(ask, choice, fault, action) of a pool worker's answer: ``action`` is the move
    itself when it is none of the view's ``legal`` (bots/worker.py); ``WorkerBroken``
    if it is no answer."""
    data, ask = message.get("Action"), message.get("Ask")
    if isinstance(data, str) and type(ask) is int:
        try:
            return ask, None, None, pickle.loads(base64.b64decode(data))
        except (ValueError, pickle.UnpicklingError, EOFError, AttributeError) as exc:
            raise WorkerBroken(f"its worker sent a move that does not load ({exc})") from None
    ask, choice, fault, _kind = read_answer(message)
    return ask, choice, fault, None


class AIPool:
    """See the module docstring; ``start`` starts the workers, ``close`` stops them."""

    def __init__(
        self,
        limits: PoolLimits,
        answer: PoolAnswer,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        if limits.workers < 1:
            raise ValueError(f"an AI pool has at least one worker, not {limits.workers}")
        self.limits = limits
        self.answer = answer
        self.loop = loop or asyncio.get_running_loop()
        #: (when its table's wait began, arrival number, ask): a heap.
        self._queue: list[tuple[float, int, AskBot]] = []
        self._arrivals = 0
        #: (table, when its wait began) while an answer of that table is being taken:
        #: the asks it brings on keep that place.
        self._chain: tuple[int, float] | None = None
        self._slots = [_Slot(i) for i in range(limits.workers)]
        self._reaper = Reaper(self.loop)
        self._closed = False
        #: ``decisions`` answered by a worker, ``stand_ins`` (asks answered with a fault:
        #: the naive AI plays them), ``replaced`` workers, ``dropped`` asks of released
        #: tables.
        self.counts: Counter[str] = Counter()

    def start(self) -> None:
        for slot in self._slots:
            self._start(slot)
        log.info(
            "AI pool: %d workers, up to %d asks queued before new strong-AI tables are "
            "refused, %g s a decision at most",
            self.limits.workers, self.limits.bound, self.limits.timeout,
        )  # fmt: skip

    @property
    def queued(self) -> int:
        """Asks waiting for a worker."""
        return len(self._queue)

    def full(self) -> bool:
        """Whether more asks wait than the bound (new strong-AI tables are refused)."""
        return len(self._queue) > self.limits.bound

    def pids(self) -> list[int]:
        """The process ids of the workers running now (for tests)."""
        return [s.worker.pid for s in self._slots if s.worker is not None]

    def busy_pids(self) -> list[int]:
        """The process ids of the workers on an ask now (for tests)."""
        return [s.worker.pid for s in self._slots if s.worker is not None and s.job]

    def handle(self, requests: Iterable[BotRequest]) -> None:
        """Take the asks of built-in AIs (others are the plug-in runner's) and releases."""
        for request in requests:
            if isinstance(request, ReleaseBots):
                self.release(request.table)
            elif request.builtin is not None:
                self.ask(request)

    def ask(self, request: AskBot) -> None:
        if self._closed:
            return
        chain, now = self._chain, self.loop.time()
        began = now
        if chain is not None and chain[0] == request.table:
            began = max(chain[1], now - CHAIN_HOLD)
        self._arrivals += 1
        heapq.heappush(self._queue, (began, self._arrivals, request))
        self._dispatch()

    def release(self, table: int) -> None:
        """``table`` is gone: its queued asks are dropped, and the answer to the one a
        worker is on, if any, when it comes."""
        before = len(self._queue)
        if any(r.table == table for _, _, r in self._queue):
            self._queue = [entry for entry in self._queue if entry[2].table != table]
            heapq.heapify(self._queue)
        self.counts["dropped"] += before - len(self._queue)
        for slot in self._slots:
            for sent in slot.sent:
                if sent.job.table == table and not sent.dropped:
                    sent.dropped = True
                    self.counts["dropped"] += 1

    def close(self) -> None:
        """Kill every worker and reap them (shutdown: a short blocking wait)."""
        if self._closed:
            return
        self._closed = True
        self._queue.clear()
        for slot in self._slots:
            self._cancel_timer(slot)
            slot.sent.clear()
            self._stop(slot)
        self._reaper.close()
        counts = self.counts
        log.info(
            "AI pool stopped: %d decisions, %d played by the naive AI instead, %d workers "
            "replaced",
            counts["decisions"], counts["stand_ins"], counts["replaced"],
        )  # fmt: skip

    # ------------------------------------------------------------------ workers

    def _start(self, slot: _Slot) -> None:
        if self._closed:
            return
        try:
            worker = Worker(None, BotLimits(startup=self.limits.startup))
        except OSError as exc:  # out of processes or file descriptors
            self._cannot_start(slot, f"an AI worker cannot start ({exc})")
            return
        slot.worker, slot.ready = worker, False
        self.loop.add_reader(worker.fileno(), self._readable, slot, worker)
        slot.timer = self.loop.call_later(self.limits.startup, self._startup_over, slot, worker)

    def _stop(self, slot: _Slot) -> None:
        worker, slot.worker, slot.ready = slot.worker, None, False
        if worker is not None:
            self._reaper.kill(worker)

    def _cancel_timer(self, slot: _Slot) -> None:
        if slot.timer is not None:
            slot.timer.cancel()
            slot.timer = None

    def _dispatch(self) -> None:
        """Hand waiting asks to the workers, the longest wait first: first to the idle
        ones, then up to ``limits.depth`` asks a worker."""
        for place in range(self.limits.depth):
            for slot in self._slots:
                if not self._queue:
                    return
                if slot.ready and len(slot.sent) == place:
                    began, _, job = heapq.heappop(self._queue)
                    self._send(slot, job, began)

    def _send(self, slot: _Slot, job: AskBot, began: float) -> None:
        worker = slot.worker
        assert worker is not None
        slot.sent.append(_InFlight(job, began))
        try:
            worker.send(job.ask, job.view, job.builtin)
        except WorkerBroken as exc:
            self._replace(slot, str(exc))
            return
        if len(slot.sent) == 1:
            self._time(slot, worker)

    def _time(self, slot: _Slot, worker: Worker) -> None:
        """The worker has begun its first ask sent: it must answer within the timeout."""
        slot.timer = self.loop.call_later(self.limits.timeout, self._overran, slot, worker)

    # ------------------------------------------------------------------ events

    def _readable(self, slot: _Slot, worker: Worker) -> None:
        if slot.worker is not worker:
            return
        try:
            messages = worker.read()
        except WorkerBroken as exc:
            self._replace(slot, str(exc))
            return
        if messages is None:  # it exited: say how, once it is reaped (or soon)
            self.loop.remove_reader(worker.fileno())
            self.loop.call_later(EXIT_WAIT / 5, self._exited, slot, worker, EXIT_WAIT)
            return
        for message in messages:
            if message.get("Type") == "Hello":
                self._cancel_timer(slot)
                slot.ready = True
                continue
            try:
                ask, choice, fault, action = _read_answer(message)
            except WorkerBroken as exc:
                self._replace(slot, str(exc))
                return
            if not slot.sent or ask != slot.sent[0].job.ask:
                continue  # an answer nobody waits for any more
            self._cancel_timer(slot)
            done = slot.sent.popleft()
            if slot.sent:  # it goes on with the next ask at once
                self._time(slot, worker)
            if not done.dropped:
                self.counts["decisions" if fault is None else "stand_ins"] += 1
                self._answer(done.job, done.began, choice, fault, action)
        self._dispatch()

    def _answer(
        self, job: AskBot, began: float, choice: int | None, fault: str | None, action: Any
    ) -> None:
        """Give ``job``'s table its answer; what asks that brings on keep its place."""
        self._chain = (job.table, began)
        try:
            self.answer(job.table, job.seat, job.ask, choice, fault, action)
        finally:
            self._chain = None

    def _exited(self, slot: _Slot, worker: Worker, left: float) -> None:
        if slot.worker is not worker:
            return
        if not worker.reaped() and left > 0:
            self.loop.call_later(EXIT_WAIT / 5, self._exited, slot, worker, left - EXIT_WAIT / 5)
            return
        self._replace(slot, worker.exit_text())

    def _overran(self, slot: _Slot, worker: Worker) -> None:
        slot.timer = None
        if slot.worker is worker:
            self._replace(slot, f"its worker took longer than {self.limits.timeout:g} s")

    def _startup_over(self, slot: _Slot, worker: Worker) -> None:
        slot.timer = None
        if slot.worker is worker and not slot.ready:
            self._replace(slot, f"an AI worker did not start in {self.limits.startup:g} s")

    def _replace(self, slot: _Slot, why: str) -> None:
        """The slot's worker failed (``why``): it is killed and another started; the
        ask it was on is answered with the fault (its table's naive AI plays it), and
        those it had not begun go back to the queue in their places."""
        self._cancel_timer(slot)
        worker, was_ready = slot.worker, slot.ready
        pid = None if worker is None else worker.pid
        self._stop(slot)
        sent, slot.sent = slot.sent, deque()
        on = sent.popleft() if sent else None
        for waiting in sent:
            if not waiting.dropped:
                self._arrivals += 1
                heapq.heappush(self._queue, (waiting.began, self._arrivals, waiting.job))
        self.counts["replaced"] += 1
        where = "" if on is None else f" on table {on.job.table}, seat {on.job.seat}"
        log.warning("AI pool: worker %s replaced%s: %s", pid, where, why)
        if on is not None and not on.dropped:
            self.counts["stand_ins"] += 1
            self._answer(on.job, on.began, None, why, None)
        if was_ready:
            self._start(slot)
        else:
            self._cannot_start(slot, why)
        self._dispatch()

    def _cannot_start(self, slot: _Slot, why: str) -> None:
        """No worker could start in ``slot``: it is tried again later; while no worker
        is ready, the asks waiting are answered with the fault (never left stuck)."""
        if not self._closed:
            self.loop.call_later(RESTART_DELAY, self._start, slot)
        if any(s.ready for s in self._slots):
            return
        waiting, self._queue = sorted(self._queue), []
        for began, _, job in waiting:
            self.counts["stand_ins"] += 1
            self._answer(job, began, None, why, None)
