"""The asyncio server: its listeners, its writes, its saves, its timers, shut down in
order. Thin glue.

Everything the server decides is decided by ``Hub`` (hub.py) without I/O; the server
feeds it and writes what it returns. It is made of parts::

    Server        this module: starts and stops the parts, hands each event's
                  commands on (``dispatch``), the hub's timer, the bots' answers
    listeners.py  the listeners the settings ask for: main and classic (TCP lines,
                  ``LineReader``), web (the page and a WebSocket, websocket.py)
    admit.py      the admit path every listener takes: half-open caps, per-address
                  caps, the PROXY header; the refusal line
    outbox.py     each connection's bytes, one write a turn; news held; the outgoing
                  limit
    committer.py  saved before sent: the store's commits and the queue behind them

A TCP client is an ``asyncio.Protocol`` that cuts what arrives into lines and hands each
to the hub at once, with no task, stream or future per connection or line: under load
that machinery cost more than the hub itself. What the hub returns in one turn of the
event loop is joined per connection and handed to its transport, whose buffer is the
connection's outgoing queue. It is bounded: a client that stops reading until more than
``OUTGOING_LIMIT`` bytes wait for it is dropped (and treated as a disconnect), so it
never delays its table or anyone else.

A write is a system call, and over loopback the kernel's delivery to the reader too:
under load it was the biggest cost of an answer, four writes of it (one to each seat).
So news for a bystander (``Send.news``: a person at a table who neither spoke nor is to
act, or a watcher) waits, ``NEWS_WAIT`` at most, joined with whatever comes for that
connection next; a seat is to act or speaks every second move of four, and its news
then goes out in the same write. What a client's own line brings, and a prompt, never
wait; nor does anything for a connection in the lobby. Per connection the bytes keep
their order.

With a store, nothing is sent before what produced it is saved, and saving never
waits for the disk on the event loop. An inline store (SQLite, ``GameStore.inline``)
commits there, at the end of the turn of the event loop that made the writes: its
commit only appends to its log, and its checkpoints run on a thread of their own. When
that log has not started over for a while (steady load: a checkpoint beside the writer
never finds all of it copied), the store asks for a quiet moment
(``GameStore.quiet_wanted``): the turns' writes wait in the queue, ``QUIET_WAIT`` at
most, while the store's ``quiesce`` copies the rest on the writer thread.
Another (PostgreSQL, a network round trip) is written by one writer thread. A turn's
writes and what it says wait in a queue, in order, until they are committed (turns
that come meanwhile are committed together, in one transaction). What a turn says to
connections that have nothing waiting goes out at once when the turn saved nothing,
so the lobby and quiet tables never wait for the disk. When the store fails (a full
disk, a lock held by another process), the batch stays queued and is retried, with
backoff, until the store takes it: the tables whose moves wait are paused, new tables
are refused with ``store_unavailable``, and everything else goes on; when the store is
back, the paused tables go on by themselves. Nothing accepted is lost.

Plug-in bots (``AISettings.plugins``) never run here: the moves the hub asks of them go
to their workers (ai/runner.py) as soon as they are asked, and their answers come back
as events like a line from a client (``Hub.bot_answer``), so a plug-in that hangs,
loops, allocates without end or exits delays nobody but its own table, by its time
limit. The strong AI goes the same way when there is an AI pool (``AISettings.pool``:
``serve --ai-workers N``, N > 0): its moves are asked of a fixed set of worker processes
(ai/pool.py), so the event loop never searches; without one (the default here, and
``--ai-workers 0``) it plays in process, one move a step (table.py).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from hundred_server.ai.pool import AIPool
from hundred_server.ai.runner import PluginRunner
from hundred_server.config import Settings
from hundred_server.core.hub import Command, Hub
from hundred_server.games.base import Bot
from hundred_server.io import websocket
from hundred_server.io.admit import Admission
from hundred_server.io.api import Api
from hundred_server.io.committer import Batch, Committer
from hundred_server.io.listeners import INTERNAL_ERROR, Listener, listeners_for
from hundred_server.io.outbox import OUTGOING_LIMIT, Connection, Outbox
from hundred_server.io.ratings import RatingsWriter
from hundred_server.io.signins import SignIns
from hundred_server.protocol import codecs
from hundred_server.store import GameStore, restorable
from hundred_server.store.accounts import AccountStore, accounts_of

if TYPE_CHECKING:
    from hundred_server.io.bus import Bus

log = logging.getLogger("hundred_server")

#: How long shutdown waits for goodbyes to be written.
SHUTDOWN_GRACE: Final = 3.0
#: The cyclic collector's thresholds in a server (``tune_gc``). CPython's (700, 10, 10)
#: collect the young every 700 allocations, which promotes each game state that lives a
#: turn, and then runs full collections over every game in play, pauses that grow with
#: the tables (up to 120 ms at 250 tables under make load, each one felt by every
#: table). Young collections every 20,000, full ones seldom: the states die young, by
#: their reference counts, as they always did.
GC_THRESHOLDS: Final = (20_000, 20, 100)


def tune_gc() -> None:
    """The collector for a long-lived server: what start-up made (modules, classes,
    the games' tables) frozen, never scanned again, and ``GC_THRESHOLDS``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class Server:
    """``await start()``, then ``port`` is bound; ``await close()`` stops it (idempotent).

    ``settings``: what to listen on, the limits, the store's batching and the AI
    (config.py); ``hub``: the hub to serve (None: one made from the settings);
    ``store``: where games are saved (None: nowhere); ``bus``: the site (None: none);
    ``static``: the web page's files (None: the package's own)."""

    def __init__(
        self,
        hub: Hub | None = None,
        settings: Settings | None = None,
        *,
        store: GameStore | None = None,
        bus: Bus | None = None,
        static: dict[str, websocket.StaticFile] | None = None,
        outgoing_limit: int = OUTGOING_LIMIT,
        accounts: AccountStore | None = None,
    ) -> None:
        self.settings = settings = settings or Settings()
        #: The site (bus.py): relayed clients' messages go through it.
        self.bus = bus
        self.hub = hub or Hub(settings.limits, settings.ai, durable=store is not None)
        ai = settings.ai
        #: The plug-in bots that play AI seats, each move in a worker process
        #: (ai/runner.py), within ``ai.bot_limits``; the settings decide, whatever hub.
        self.plugins = {p.label: p for p in ai.plugins}
        if ai.plugins:
            self.hub.lobby.plugins = ai.plugin_labels
        if ai.pool is not None:
            self.hub.lobby.ai_pool = True
        self.runner: PluginRunner | None = None
        self.pool: AIPool | None = None  # the AI pool once started (``ai.pool``)
        self.store = store
        self.static = static
        #: The accounts and ratings (store/accounts.py; None: no store, no accounts),
        #: which the lobby asks (``Hello`` with a ``Key``) and the HTTP API serves.
        self.accounts = accounts
        #: What asks the accounts, on threads: the lobby's sign-ins (a ``Key``, a
        #: guest's name, text mode's login) and the API's (io/signins.py).
        self.signins = None if accounts is None else SignIns(accounts)
        self.api = Api(accounts, store, self.signins)
        self.ratings: RatingsWriter | None = None
        if accounts is not None:
            sign_in = self.hub.lobby.sign_in
            sign_in.book, sign_in.inline = accounts, False  # asked off the loop only
            self.ratings = RatingsWriter(accounts, store, self.hub.lobby.ladder.rated)
        self.outgoing_limit = outgoing_limit
        self.outbox = Outbox(outgoing_limit, self._dropped, bus)
        #: The open connections by number, and how they are written to (the outbox's).
        self._connections = self.outbox.connections
        self._send = self.outbox.send
        self._drop = self.outbox.drop
        self.committer = Committer(
            self.hub,
            store,
            settings.store,
            self._send,
            self._schedule,
            self.clock,
            self.read_waiting,
        )
        self.admission = Admission(self.hub, self._connections, self.dispatch)
        self.listeners = listeners_for(self, settings.listeners)
        #: Each client's handler: its task (a WebSocket) or its reader's end (TCP).
        self.handlers: set[asyncio.Future[None]] = set()
        self._started: list[Listener] = []  # the listeners that listen (``start``)
        self._closed = False
        self._sweeper: asyncio.TimerHandle | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._pending: list[Batch] = []  # sent (or queued) by the next _flush
        self._flush_soon = False
        #: The event loop it runs on, from ``start``: Python 3.11's
        #: ``asyncio.get_running_loop`` makes a getpid system call each time, and every
        #: line asks for the loop's clock.
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def port(self) -> int:
        """The main listener's port."""
        return self.listeners[0].port

    @property
    def classic_port(self) -> int | None:
        """The classic listener's port (None: there is none)."""
        return self._port_of(codecs.CLASSIC)

    @property
    def http_port(self) -> int | None:
        """The web listener's port (None: there is none)."""
        return self._port_of(codecs.WEBSOCKET)

    def _port_of(self, name: str) -> int | None:
        return next((p.port for p in self._started if p.name == name), None)

    @property
    def store_down(self) -> bool:
        """Whether the store is refusing saves right now (committer.py)."""
        return self.committer.store_down

    @property
    def store_grace(self) -> float:
        """How long shutdown waits for the store to take what is unsaved."""
        return self.committer.grace

    @store_grace.setter
    def store_grace(self, seconds: float) -> None:
        self.committer.grace = seconds

    async def start(self) -> None:
        """Listen on every listener, in order (one that cannot: those before it stop,
        and the OSError is raised); start the workers and the committer."""
        self._loop = asyncio.get_running_loop()
        for listener in self.listeners:
            try:
                await listener.start()
            except OSError:
                for started in self._started:
                    started.stop()
                raise
            self._started.append(listener)
        ai = self.settings.ai
        if self.plugins:
            self.runner = PluginRunner(self.plugins, ai.bot_limits, self._bot_answered)
        if ai.pool is not None:
            self.pool = AIPool(ai.pool, self._bot_answered)
            self.pool.start()
            self.hub.lobby.ai_busy = self.pool.full
        self.committer.start()
        if self.ratings is not None:
            self.ratings.start()
        self.dispatch([])  # what restoring produced is saved (queued like any turn's)
        self._sweep_later()

    async def close(self) -> None:
        if self._closed or not self._started:
            return
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for listener in self._started:
            listener.stop()
        self.admission.close()
        if self.runner is not None:
            self.runner.close()
        if self.pool is not None:
            self.pool.close()
        if self.signins is not None:  # what runs on its threads ends first (a look-up, a hash)
            await asyncio.to_thread(self.signins.close)
        transports = [c.transport for c in self._connections.values()]
        self.read_waiting()  # lines unread yet, and what the last turn produced, join the queue
        unsaved = await self.committer.last_saves()
        # Goodbyes (each table told honestly whether its game is saved), then every
        # transport closes; they save nothing, so they go straight out.
        self._send(self.hub.shutdown(unsaved=unsaved))
        self.outbox.write_held()  # news that waits goes now, before the closes
        self.committer.close()
        if self.handlers:  # each ends when its transport has flushed and closed
            await asyncio.wait(self.handlers, timeout=SHUTDOWN_GRACE)
        for task in list(self.handlers):
            task.cancel()
        for transport in transports:
            if not transport.is_closing():
                transport.abort()
        for listener in self._started:
            await listener.closed()
        if self.ratings is not None:
            await self.ratings.close()
        log.info("stopped")

    # ------------------------------------------------------------------ a client

    def part(self, connection: Connection) -> None:
        """A client's reading is over (its end, a limit, a bug or the hub closed it):
        disconnected, its last words out, then closed."""
        self.dispatch(self.hub.disconnect(connection.conn))
        self._flush()  # its last words go out before it closes
        self.outbox.close(connection)

    def _dropped(self, conn: int) -> None:
        """The outbox dropped a client that does not read: a lost connection."""
        self.dispatch(self.hub.disconnect(conn))

    def clock(self) -> float:
        """The rate limits' clock: the event loop's."""
        return (self._loop or asyncio.get_running_loop()).time()

    def read(self, conn: int, data: bytes, binary: bool = False) -> None:
        """A line (or a WebSocket frame) of ``conn`` into the hub, and what it did to
        the committer; one left unread for the commit (``Hub.waiting``) did nothing yet,
        and only tells the committer that it waits."""
        hub = self.hub
        waiting = len(hub.waiting)
        commands = hub.receive(conn, data, self.clock(), binary)
        if not commands and len(hub.waiting) > waiting:
            self.committer.line_waits()
        else:
            self.dispatch(commands)

    def dispatch(self, commands: list[Command]) -> None:
        """Queue what the hub returned, with what it asks to save (one event's worth:
        a line, a tick, a lost connection); ``_flush`` sends it at the end of this turn
        of the event loop, after whatever it must wait for."""
        writes = self.hub.lobby.journal.take() if self.store is not None else []
        if self.ratings is not None:
            self.ratings.add(self.hub.lobby.rating_events)
        if commands or writes:
            self._pending.append(Batch(writes, commands))
        self._run_bots()
        asks = self.hub.lobby.sign_in.take()
        if asks and self.signins is not None and not self._closed:
            self.signins.run(asks, self._signed_in)
        if not self._flush_soon:
            self._flush_soon = True
            (self._loop or asyncio.get_running_loop()).call_soon(self._flush)

    def _run_bots(self) -> None:
        """Hand the plug-in moves the hub asked for to their workers at once: an ask
        tells no client anything, so it waits for no save."""
        requests = self.hub.lobby.ai_seats.take()
        if not requests or self._closed:
            return
        if self.runner is not None:
            self.runner.handle(requests)
        if self.pool is not None:
            self.pool.handle(requests)

    def _bot_answered(
        self,
        table: int,
        seat: int,
        ask: int,
        choice: int | None,
        fault: str | None,
        action: Any = None,
    ) -> None:
        if not self._closed:
            self.dispatch(self.hub.bot_answer(table, seat, ask, choice, fault, action))

    def _signed_in(self, ask: int, answer: object) -> None:
        """The accounts' answer to a sign-in's ask (io/signins.py), on the loop; a bug
        in reading it ends that connection only (as a bug in reading a line does)."""
        if self._closed:
            return
        conn = self.hub.lobby.sign_in.conn_of(ask)
        try:
            self.dispatch(self.hub.account_answer(ask, answer))
        except Exception:
            log.exception("connection %s: internal error in its sign-in; closing it", conn)
            if conn is not None:
                self.dispatch(self.hub.notice(conn, "internal_error", INTERNAL_ERROR))

    def read_waiting(self) -> None:
        """The lines that waited unread for the commit (``Hub.waiting``), read now, in
        order, and what they did handed to the committer at once, to join the commit."""
        self.dispatch(self.hub.drain())
        self._flush()

    def _flush(self) -> None:
        """What this turn of the event loop produced, to the committer: sent now, or
        queued behind the saves (committer.py). Nothing is sent before it is saved."""
        self._flush_soon = False
        pending, self._pending = self._pending, []
        late = self.hub.lobby.journal.take() if self.store is not None else []
        if late:  # made outside a dispatch (restoring, say)
            pending.append(Batch(late, []))
        self.committer.take(pending)
        self._schedule()

    def _sweep_later(self) -> None:
        """Close silent connections, a few times per the shorter idle limit."""
        if self._closed:
            return
        limits = self.settings.limits
        every = min(5.0, max(0.05, min(limits.idle_timeout, limits.table_idle_timeout) / 4))
        self._sweeper = asyncio.get_running_loop().call_later(every, self._sweep)

    def _sweep(self) -> None:
        self.dispatch(self.hub.idle())
        self._sweep_later()

    def _schedule(self) -> None:
        """Have the hub's ``tick`` called when its next deadline comes (one timer)."""
        deadline = None if self._closed else self.hub.lobby.timers.next_deadline()
        if deadline == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = deadline
        if deadline is not None:
            delay = max(0.0, deadline - self.hub.lobby.clock())
            self._timer = asyncio.get_running_loop().call_later(delay, self._on_timer)

    def _on_timer(self) -> None:
        self._timer, self._timer_at = None, None
        self.dispatch(self.hub.tick())


#: Open files the server needs besides its connections (listeners, the store, the
#: event loop's own, plug-in workers' pipes).
SPARE_FILES: Final = 256


def make_room(connections: int) -> None:
    """Raise the soft limit on open files so that ``connections`` fit (and
    ``SPARE_FILES``), up to the hard limit; logged, and a warning if they cannot."""
    try:
        import resource
    except ImportError:  # not a POSIX system: nothing to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections + SPARE_FILES
    if soft == resource.RLIM_INFINITY or soft >= want:
        return
    new = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if new > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        except (ValueError, OSError) as exc:
            log.warning("could not raise the open-files limit from %d: %s", soft, exc)
            new = soft
        else:
            log.info("open-files limit raised from %d to %d for %d connections", soft, new,
                     connections)  # fmt: skip
    if new < want:
        log.warning(
            "the open-files limit (%d) leaves room for about %d connections, not %d "
            "(--max-connections); raise it (ulimit -n)",
            new, max(0, new - SPARE_FILES), connections,
        )  # fmt: skip


async def run(
    settings: Settings,
    store: GameStore | None = None,
    bus: Bus | None = None,
    bots: dict[str, Callable[[], Bot]] | None = None,
) -> None:
    """Serve until SIGINT or SIGTERM, then shut down in order.

    With a store, the unfinished games in it are restored first (a game that cannot be
    is marked failed, and the rest go on), and the ends of those that ended just before
    it stopped are kept for their tokens (``store.restorable``); on a site (``bus``),
    the games whose lease lapsed are taken over instead, as the bus finds them.
    ``bots``: in-process AIs by game, in place of the default (trusted code)."""
    limits = settings.limits
    make_room(limits.max_connections + limits.max_half_open)
    tune_gc()
    hub = Hub(limits, settings.ai, durable=store is not None, bots=bots)
    if bus is not None:
        await bus.connect()
    elif store is not None:
        for line in hub.lobby.restorer.restore(restorable(store), store.last_id()):
            log.info("%s", line)
    accounts = None if store is None else accounts_of(store)
    server = Server(hub, settings, store=store, bus=bus, accounts=accounts)
    # The handlers come first: start() listens before it has finished, so a signal may
    # come while it still works; it then stops the server as soon as it has started.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await server.start()
    if bus is not None:
        bus.run(hub, server.dispatch, server.committer.forget_games)
    host = settings.listeners.host
    classic = "" if server.classic_port is None else f", classic dialect on {server.classic_port}"
    web = "" if server.http_port is None else f", or a browser at http://{host}:{server.http_port}/"
    print(
        f"hundred_server listening on {host}:{server.port}{classic} "
        f"(try: nc {host} {server.port}{web}); Ctrl-C stops it",
        flush=True,
    )
    try:
        await stop.wait()
        log.info("shutting down")
    finally:
        await server.close()
        if bus is not None:
            await bus.close()
        if accounts is not None:
            accounts.close()
        if store is not None:
            store.close()
