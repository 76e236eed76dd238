"""The committer: nothing is sent before what produced it is saved, and saving never
waits for the disk on the event loop (server.py's docstring tells the whole story).

Each turn of the event loop hands ``Committer.take`` its batches: a batch is an event's
writes (possibly none) and what it says. An inline store (SQLite) commits a turn's
writes at once when nothing is queued and its last commit is ``commit_wait`` ago;
otherwise the writes and what they say wait in the queue, in order, for the committer
task, which commits all that is queued in one transaction: after ``commit_wait``, or
sooner once ``commit_batch`` turns' writes wait or every game of the last commit has
writes waiting again (``_all_back``). What speaks to connections with nothing waiting
and saves nothing goes out at once. A refused save stays queued and is retried, with
backoff, until the store takes it; its tables pause meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from hundred_server.config import StoreSettings
from hundred_server.core.hub import Command, Hub
from hundred_server.core.journal import Write
from hundred_server.store import GameStore

log = logging.getLogger("hundred_server")

#: How long shutdown waits for the store to take what is still unsaved.
STORE_GRACE: Final = 5.0
#: Seconds between tries of a save the store refused: doubling from the first to the
#: last.
RETRY_FIRST: Final = 0.25
RETRY_MAX: Final = 5.0
#: How long saves wait for the store's quiet moment (``_quiesce``) at most.
QUIET_WAIT: Final = 0.02
#: How often finished games past their retention are removed (seconds).
PRUNE_EVERY: Final = 3600.0


def _retrieved(done: asyncio.Future[None]) -> None:
    """Log what a background future raised (nobody awaits it any more)."""
    if not done.cancelled() and (exc := done.exception()) is not None:
        log.warning("the store's quiet moment failed: %s", exc)


@dataclass(slots=True)
class Batch:
    """A turn's writes (possibly none) and what it says, sent once they are saved."""

    writes: list[Write]
    commands: list[Command]
    conns: frozenset[int] = frozenset()  # filled in when it is queued


class Committer:
    """The save pipeline of one server: ``store`` (None: nothing is saved, and what
    each turn says goes out at once), the store's settings, the ``hub`` told when the
    store fails and is back, ``send`` for what may go out, ``schedule`` after it (the
    hub's next deadline may have moved), and the event loop's ``clock``."""

    def __init__(
        self,
        hub: Hub,
        store: GameStore | None,
        settings: StoreSettings,
        send: Callable[[list[Command]], None],
        schedule: Callable[[], None],
        clock: Callable[[], float],
        read: Callable[[], None] = lambda: None,
    ) -> None:
        self.hub = hub
        #: Reads the lines that waited for the commit (``Hub.waiting``) and hands on what
        #: they did (the server's ``read_waiting``): they join the commit.
        self._read = read
        self.store = store
        self._send = send
        self._schedule = schedule
        self._clock = clock
        #: Finished games older than this many days are removed (None: kept for good).
        self.keep_days = settings.keep_days
        #: Whether the store is refusing saves right now, and how many it refused.
        self.store_down = False
        self.store_failures = 0
        self._writer: ThreadPoolExecutor | None = None
        #: How long shutdown waits for the store to take what is unsaved.
        self.grace = STORE_GRACE
        self._queue: deque[Batch] = deque()  # saved, then sent, in order
        self._waiting: dict[int, int] = {}  # conn -> queued batches that speak to it
        self._committer: asyncio.Task[None] | None = None
        #: An inline store's commits are ``commit_wait`` apart at least; when its last was.
        self.commit_wait = settings.commit_wait
        self._committed_at = float("-inf")
        #: ... or sooner, once ``commit_batch`` turns' writes wait (the committer is
        #: woken: ``_commit_now``), or once every game of the last commit
        #: (``_last_games``) has writes waiting again (``_all_back``).
        self.commit_batch = settings.commit_batch
        self._last_games: frozenset[int] = frozenset()
        self._commit_now = asyncio.Event()
        self._quiet: asyncio.Future[None] | None = None  # the store's quiet moment
        self._pruner: asyncio.Task[None] | None = None

    def start(self) -> None:
        """The writer thread (and the pruner, with ``keep_days``)."""
        if self.store is not None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
            if self.keep_days is not None:
                self._pruner = asyncio.create_task(self._prune())

    def take(self, pending: list[Batch]) -> None:
        """What this turn of the event loop produced: sent now if it saved nothing and
        speaks to nobody who waits for a save; otherwise queued behind the saves.
        Nothing is sent before it is saved."""
        retry = False
        wait = 0.0
        if self._inline_turn():
            writes = [w for batch in pending for w in batch.writes]
            if writes:
                wait = self._committed_at + self.commit_wait - self._clock()
                if wait <= 0:
                    if self._save_turn(pending, writes):
                        return
                    retry = True  # refused: the queue takes it, the committer waits first
        now: list[Command] = []
        for batch in pending:
            if batch.writes:
                self._enqueue(batch)
            elif self._waiting:
                later = [c for c in batch.commands if c.conn in self._waiting]
                now += [c for c in batch.commands if c.conn not in self._waiting]
                if later:
                    self._enqueue(Batch([], later))
            else:
                now += batch.commands
        self._send(now)
        if self._committer is None and any(batch.writes for batch in self._queue):
            self._committer = asyncio.get_running_loop().create_task(self._commit(retry, wait))
        elif self._committer is not None and (self._batch_full() or self._all_back()):
            self._commit_now.set()

    def line_waits(self) -> None:
        """A line was left unread for the commit (``Hub.waiting``): the commit comes at
        once if that fills its batch or closes the loop (``_batch_full``, ``_all_back``)."""
        if self._committer is not None and (self._batch_full() or self._all_back()):
            self._commit_now.set()

    def _committed(self, writes: list[Write]) -> None:
        """An inline store took ``writes``: the commit wait starts over."""
        self._committed_at = self._clock()
        self._last_games = frozenset(w.game_id for w in writes)

    def _all_back(self) -> bool:
        """Whether every game of the last commit has writes (or a line, unread) waiting
        again: a closed loop (bots that answer at once, a busy server's last tables),
        where waiting out ``commit_wait`` would gather nothing more and only hold the
        answers."""
        last = self._last_games
        if not last:
            return False
        queued = {w.game_id for b in self._queue for w in b.writes}
        return last <= queued | self.hub.waiting.tables

    def _batch_full(self) -> bool:
        """Whether ``commit_batch`` turns' writes (or lines, unread) wait in the queue."""
        full = self.commit_batch - len(self.hub.waiting)
        if full <= 0:
            return True
        for batch in self._queue:
            if batch.writes:
                full -= 1
                if not full:
                    return True
        return False

    def _inline_turn(self) -> bool:
        """Whether this turn's writes go to the store at once: an inline store
        (``GameStore.inline``: SQLite) with nothing queued from before and no save
        being retried. Otherwise they wait in the queue for the committer."""
        store = self.store
        return (
            store is not None
            and store.inline
            and not self._queue
            and self._committer is None
            and not store.quiet_wanted
        )

    def _save_turn(self, pending: list[Batch], writes: list[Write]) -> bool:
        """Commit a turn's writes on the event loop, then send all it says, in order;
        False if the store refused them (reported: they go to the queue)."""
        assert self.store is not None
        try:
            self.store.write(writes)
        except Exception as exc:
            self._store_refused(writes, exc)
            return False
        self._committed(writes)
        self._store_up()
        self._send([c for batch in pending for c in batch.commands])
        return True

    def _store_up(self) -> None:
        """A save was taken: if the store was failing, the paused tables go on."""
        if self.store_down:
            self.store_down = False
            log.warning("the store takes saves again; paused tables go on")
            self.hub.lobby.store_gate.back()

    def _enqueue(self, batch: Batch) -> None:
        self._queue.append(batch)
        batch.conns = frozenset(c.conn for c in batch.commands)
        for conn in batch.conns:
            self._waiting[conn] = self._waiting.get(conn, 0) + 1

    def _dequeue(self) -> Batch:
        batch = self._queue.popleft()
        for conn in batch.conns:
            left = self._waiting[conn] - 1
            if left:
                self._waiting[conn] = left
            else:
                del self._waiting[conn]
        return batch

    async def _commit(self, retry: bool = False, wait: float = 0.0) -> None:
        """Save the queued writes, oldest first, all that are queued in one go; send
        what waited on them. A save the store refuses is tried again (backoff) until it
        takes: its tables pause meanwhile (``Hub.store_failed``). ``retry``: the turn's
        own try was refused (``_save_turn``), so this one waits first; ``wait``: the
        seconds left of ``commit_wait`` since the last commit (the turns meanwhile join,
        and when ``commit_batch`` of them wait, or every game of the last commit has
        one waiting, it commits at once)."""
        assert self.store is not None
        assert self._writer is not None
        loop = asyncio.get_running_loop()
        delay = RETRY_FIRST
        try:
            if retry:
                await asyncio.sleep(delay)
                delay = min(RETRY_MAX, delay * 2)
            elif wait > 0:
                self._commit_now.clear()
                if not (self._batch_full() or self._all_back()):
                    # Meanwhile the lines of people at tables wait unread (hub.py,
                    # ``Hub.waiting``), read together just before the commit.
                    self.hub.waiting.on = True
                    try:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self._commit_now.wait(), wait)
                    finally:
                        self.hub.waiting.on = False
                    self._read()
            if self.store.quiet_wanted:
                await self._quiesce()
            while any(batch.writes for batch in self._queue):
                count = len(self._queue)
                writes = [w for batch in list(self._queue)[:count] for w in batch.writes]
                try:
                    if self.store.inline:
                        self.store.write(writes)
                        self._committed(writes)
                    else:
                        await loop.run_in_executor(self._writer, self.store.write, writes)
                except Exception as exc:
                    self._store_refused(writes, exc)
                    await asyncio.sleep(delay)
                    delay = min(RETRY_MAX, delay * 2)
                    continue
                delay = RETRY_FIRST
                self._saved(count)
        finally:
            self._committer = None

    async def _quiesce(self) -> None:
        """Hold the writes while the store does what it asked a quiet moment for
        (``GameStore.quiesce``), ``QUIET_WAIT`` at most: past that the writes go on
        beside it (the store stays correct either way; it only asks again)."""
        assert self.store is not None
        quiet = self._quiet
        if quiet is None or quiet.done():  # one at a time: a late one is waited for again
            quiet = self._quiet = asyncio.get_running_loop().run_in_executor(
                self._writer, self.store.quiesce
            )
            quiet.add_done_callback(_retrieved)  # one that ends after the wait: logged
        try:
            await asyncio.wait_for(asyncio.shield(quiet), QUIET_WAIT)
        except TimeoutError:
            log.info("the store's quiet moment took over %g s; saves go on", QUIET_WAIT)
        except Exception:  # logged by _retrieved
            pass

    def _saved(self, count: int) -> None:
        """The oldest ``count`` batches are saved: what they (and the batches behind
        them that save nothing) say goes out together, one write a connection however
        many turns spoke to it."""
        self._store_up()
        saved: list[Command] = []
        for _ in range(count):
            saved += self._dequeue().commands
        while self._queue and not self._queue[0].writes:
            saved += self._dequeue().commands
        self._send(saved)
        self._schedule()

    def forget_games(self, game_ids: set[int]) -> None:
        """Another instance of the site owns these games now: their writes still queued
        are dropped (never acknowledged to anyone: they were not saved), so they cannot
        hold up the others'."""
        for batch in self._queue:
            batch.writes = [w for w in batch.writes if w.game_id not in game_ids]

    def _store_refused(self, writes: list[Write], exc: Exception) -> None:
        self.store_failures += 1
        games = {w.game_id for w in writes}
        if not self.store_down:
            log.error(
                "the store refused a save (%s: %s); %d tables pause and it is retried until "
                "it takes",
                type(exc).__name__, exc, len(games),
            )  # fmt: skip
        self.store_down = True
        self.hub.lobby.store_gate.failed(games)

    async def last_saves(self) -> frozenset[int]:
        """At shutdown: let the store take what is queued (``grace`` at most); the
        tables whose moves it never took. The pruner stops."""
        if self._pruner is not None:
            self._pruner.cancel()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.grace
        self._commit_now.set()  # a committer waiting out commit_wait commits now
        while (committer := self._committer) is not None:  # it may start again meanwhile
            left = deadline - loop.time()
            if left > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(committer), left)
            if left <= 0 or not committer.done():
                committer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await committer
                self._committer = None
                break
        unsaved = frozenset(w.game_id for batch in self._queue for w in batch.writes)
        if unsaved:
            log.error("the store never took the last moves of tables %s", sorted(unsaved))
        self._queue.clear()
        self._waiting.clear()
        return unsaved

    def close(self) -> None:
        """A save under way ends (busy_timeout at most); the writer thread stops."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)

    async def _prune(self) -> None:
        """Remove finished games older than ``keep_days``, now and every hour."""
        assert self.store is not None
        assert self.keep_days is not None
        loop = asyncio.get_running_loop()
        while True:
            cutoff = datetime.now(UTC) - timedelta(days=self.keep_days)
            before = cutoff.isoformat(timespec="seconds")
            try:
                removed = await loop.run_in_executor(self._writer, self.store.prune, before)
            except Exception as exc:  # the store is failing: the next hour tries again
                log.warning("could not remove old games: %s", exc)
            else:
                if removed:
                    log.info("removed %d games finished before %s", removed, before)
            await asyncio.sleep(PRUNE_EVERY)
