"""Plug-in moves run for the asyncio server, in workers, without ever waiting on them.

``PluginRunner.handle(requests)`` takes what the hub asked for (core/remote.py):
``AskBot`` runs a move in the worker of that table's seat (one worker a seat: each
seat is its own ``Class()``, as it would be in-process, and one seat's hang or crash
never holds up another seat or table); ``ReleaseBots`` stops a finished table's
workers. Every ask is answered exactly once through ``answer(table, seat, ask,
choice, fault)`` unless its table is released first:

- with the worker's choice, as soon as it comes (the event loop reads the worker's
  pipe when it is readable, with ``add_reader``: it never blocks on it);
- with a fault when the move takes longer than ``limits.timeout`` (the worker is killed;
  the next ask starts a new one), when the worker exits or crashes (out of memory
  included), sends something that is not the protocol, or cannot start
  (``limits.startup``, not counted in the move's time).

Workers are started when first asked (a quick vfork; importing the plug-in happens in
the child, while the loop goes on), killed with SIGKILL and reaped without blocking
(polled on a timer until they are gone).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from hundred_server.ai.plugins import (
    BotLimits,
    Plugin,
    Worker,
    WorkerBroken,
    hello_checks,
    read_answer,
)
from hundred_server.core.remote import AskBot, BotRequest, ReleaseBots

log = logging.getLogger("hundred_server")

#: (table, seat, ask, choice, fault)
Answer = Callable[[int, int, int, int | None, str | None], None]
#: How often a killed worker is polled until it is reaped, and for how long at most.
REAP_EVERY: Final = 0.02
REAP_FOR: Final = 10.0
#: How long after its pipe closes a worker is waited for, to say how it ended.
EXIT_WAIT: Final = 0.1


class Reaper:
    """Kills workers and reaps them without blocking (polled on a timer until they are
    gone); ``close`` waits for the rest (shutdown: a short blocking wait)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.dying: set[Worker] = set()

    def kill(self, worker: Worker) -> None:
        self.loop.remove_reader(worker.fileno())
        worker.kill()
        if not worker.reaped():
            self.dying.add(worker)
            self.loop.call_later(REAP_EVERY, self._reap, worker, self.loop.time() + REAP_FOR)

    def _reap(self, worker: Worker, until: float) -> None:
        if worker.reaped():
            self.dying.discard(worker)
        elif self.loop.time() < until:
            self.loop.call_later(REAP_EVERY, self._reap, worker, until)
        else:
            log.error("worker %d does not die after SIGKILL", worker.pid)
            self.dying.discard(worker)

    def close(self) -> None:
        for worker in list(self.dying):
            worker.wait(1.0)
        self.dying.clear()


@dataclass
class _Slot:
    """The worker of one table's seat, and the ask it is on."""

    key: tuple[int, int]
    plugin: Plugin
    worker: Worker | None = None
    ready: bool = False
    asked: AskBot | None = None  # sent, or waiting for the worker to be ready
    sent: bool = False
    timer: asyncio.TimerHandle | None = None


class PluginRunner:
    """See the module docstring. ``plugins`` maps a plug-in's label to it."""

    def __init__(
        self,
        plugins: Mapping[str, Plugin],
        limits: BotLimits,
        answer: Answer,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.plugins = dict(plugins)
        self.limits = limits
        self.answer = answer
        self.loop = loop or asyncio.get_running_loop()
        self._slots: dict[tuple[int, int], _Slot] = {}
        self._reaper = Reaper(self.loop)
        self._dying = self._reaper.dying
        self._closed = False

    @property
    def workers(self) -> int:
        """Workers running now (ready, starting or not yet reaped)."""
        return sum(s.worker is not None for s in self._slots.values()) + len(self._dying)

    def pids(self) -> list[int]:
        """The process ids of every worker not yet reaped (for tests)."""
        live = [s.worker for s in self._slots.values() if s.worker is not None]
        return sorted(w.pid for w in [*live, *self._dying])

    def handle(self, requests: Iterable[BotRequest]) -> None:
        for request in requests:
            if isinstance(request, ReleaseBots):
                self.release(request.table)
            elif request.builtin is None:  # a built-in AI's ask is the AI pool's
                self.ask(request)

    def ask(self, request: AskBot) -> None:
        if self._closed:
            return
        key = (request.table, request.seat)
        slot = self._slots.get(key)
        if slot is None:
            plugin = self.plugins.get(request.plugin)
            if plugin is None:  # a label nobody configured: a bug, but never a hang
                self._answer(request, None, f"no plug-in {request.plugin!r} is loaded")
                return
            slot = self._slots[key] = _Slot(key, plugin)
        if slot.asked is not None:  # asked again (a pause, a pre-pass): the old is stale
            self._cancel_timer(slot)
            if slot.sent:  # its answer is dropped when it comes; start afresh
                self._restart(slot)
        slot.asked, slot.sent = request, False
        if slot.worker is None:
            self._start(slot)
        elif slot.ready:
            self._send(slot)

    def release(self, table: int) -> None:
        for key in [k for k in self._slots if k[0] == table]:
            slot = self._slots.pop(key)
            self._cancel_timer(slot)
            self._stop(slot)

    def close(self) -> None:
        """Kill every worker and reap them (shutdown: a short blocking wait)."""
        self._closed = True
        for table in {k[0] for k in self._slots}:
            self.release(table)
        self._reaper.close()

    # ------------------------------------------------------------------ workers

    def _start(self, slot: _Slot) -> None:
        try:
            worker = Worker(slot.plugin, self.limits)
        except OSError as exc:  # out of processes or file descriptors
            self._fail(slot, f"its worker cannot start ({exc})")
            return
        slot.worker, slot.ready = worker, False
        self.loop.add_reader(worker.fileno(), self._readable, slot, worker)
        slot.timer = self.loop.call_later(self.limits.startup, self._startup_over, slot, worker)

    def _stop(self, slot: _Slot) -> None:
        worker, slot.worker, slot.ready = slot.worker, None, False
        if worker is not None:
            self._kill(worker)

    def _restart(self, slot: _Slot) -> None:
        self._stop(slot)
        slot.sent = False

    def _kill(self, worker: Worker) -> None:
        self._reaper.kill(worker)

    def _send(self, slot: _Slot) -> None:
        request, worker = slot.asked, slot.worker
        assert request is not None
        assert worker is not None
        try:
            worker.send(request.ask, request.view)
        except WorkerBroken as exc:
            self._fail(slot, str(exc))
            return
        slot.sent = True
        slot.timer = self.loop.call_later(self.limits.timeout, self._timed_out, slot, worker)

    def _cancel_timer(self, slot: _Slot) -> None:
        if slot.timer is not None:
            slot.timer.cancel()
            slot.timer = None

    # ------------------------------------------------------------------ events

    def _readable(self, slot: _Slot, worker: Worker) -> None:
        if slot.worker is not worker:
            return
        try:
            messages = worker.read()
        except WorkerBroken as exc:
            self._fail(slot, str(exc))
            return
        if messages is None:  # it exited: say how, once it is reaped (or soon)
            self.loop.remove_reader(worker.fileno())
            self.loop.call_later(EXIT_WAIT / 5, self._exited, slot, worker, EXIT_WAIT)
            return
        for message in messages:
            if message.get("Type") == "Hello":
                self._hello(slot, worker)
                continue
            try:
                ask, choice, fault, _kind = read_answer(message)
            except WorkerBroken as exc:
                self._fail(slot, str(exc))
                return
            request = slot.asked
            if request is None or not slot.sent or ask != request.ask:
                continue  # an answer nobody waits for any more
            self._cancel_timer(slot)
            slot.asked, slot.sent = None, False
            self._answer(request, choice, fault)

    def _hello(self, slot: _Slot, worker: Worker) -> None:
        self._cancel_timer(slot)
        if worker.hello is not None and worker.hello.get("Ready") is True:
            slot.ready = True
            if slot.asked is not None and not slot.sent:
                self._send(slot)
            return
        failed = [why for _, ok, why in hello_checks(worker.hello) if not ok]
        self._fail(slot, f"it cannot start: {failed[0] if failed else 'its worker cannot play'}")

    def _exited(self, slot: _Slot, worker: Worker, left: float) -> None:
        if slot.worker is not worker:
            return
        if not worker.reaped() and left > 0:
            self.loop.call_later(EXIT_WAIT / 5, self._exited, slot, worker, left - EXIT_WAIT / 5)
            return
        self._fail(slot, worker.exit_text())

    def _timed_out(self, slot: _Slot, worker: Worker) -> None:
        slot.timer = None
        if slot.worker is worker:
            self._fail(slot, f"it took longer than {self.limits.timeout:g} s")

    def _startup_over(self, slot: _Slot, worker: Worker) -> None:
        slot.timer = None
        if slot.worker is worker and not slot.ready:
            self._fail(slot, f"its worker did not start in {self.limits.startup:g} s")

    def _fail(self, slot: _Slot, why: str) -> None:
        """The worker cannot answer: it is stopped (the next ask starts another) and
        the ask it was on, if any, is answered with ``why``."""
        self._cancel_timer(slot)
        self._stop(slot)
        request, slot.asked, slot.sent = slot.asked, None, False
        if request is not None:
            self._answer(request, None, why)

    def _answer(self, request: AskBot, choice: int | None, fault: str | None) -> None:
        self.answer(request.table, request.seat, request.ask, choice, fault)
