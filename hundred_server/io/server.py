"""The asyncio TCP server: accept, read lines, write lines, shut down. Thin glue.

Everything the server decides is decided by ``Hub`` (hub.py) without I/O; this module
reads lines into it and writes what it returns. A TCP client is an ``asyncio.Protocol``
(``_LineReader``) that cuts what arrives into lines and hands each to the hub at once,
with no task, stream or future per connection or line: under load that machinery cost
more than the hub itself. What the hub returns in one turn of the event loop is joined
per connection and handed to its transport, whose buffer is the connection's outgoing
queue. It is bounded: a client that stops reading until more than ``OUTGOING_LIMIT``
bytes wait for it is dropped (and treated as a disconnect), so it never delays its
table or anyone else.

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

Plug-in bots (``plugins``) never run here: the moves the hub asks of them go to their
workers (bots/runner.py) as soon as they are asked, and their answers come back as
events like a line from a client (``Hub.bot_answer``), so a plug-in that hangs, loops,
allocates without end or exits delays nobody but its own table, by its time limit.
The strong AI goes the same way when there is an AI pool (``ai_pool``: ``serve
--ai-workers N``, N > 0): its moves are asked of a fixed set of worker processes
(bots/pool.py), so the event loop never searches; without one (the default here, and
``--ai-workers 0``) it plays in process, one move a step (table.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
import gc
import logging
import signal
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final, cast

from websockets.asyncio.server import ServerConnection

from hundred_server.ai.plugins import BotLimits, Plugin
from hundred_server.ai.pool import AIPool, PoolLimits
from hundred_server.ai.runner import PluginRunner
from hundred_server.core.hub import Close, Command, Hub, Relay, Remote, Send
from hundred_server.core.journal import Write
from hundred_server.core.lobby import AI_LEVELS, Limits
from hundred_server.games.base import Bot
from hundred_server.io import websocket
from hundred_server.protocol import codecs
from hundred_server.protocol.wire import MAX_LINE, encode, error
from hundred_server.store import COMMIT_BATCH, COMMIT_WAIT, GameStore, restorable

if TYPE_CHECKING:
    from hundred_server.io.bus import Bus

log = logging.getLogger("hundred_server")

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 7110
#: Bytes waiting for one client before it counts as not reading, and is dropped (the
#: kernel's socket buffer holds more before anything waits here).
OUTGOING_LIMIT: Final = 64 << 10
#: The WebSocket close code of a connection that the server closes after an Error, by
#: the Error's code (which is the close frame's reason): a line too long (message too
#: big, as the library's own for a frame over MAX_FRAME), a bug (internal error), and
#: any other limit (policy violation).
CLOSE_CODES: Final = {"line_too_long": 1009, "internal_error": 1011}
CLOSE_POLICY: Final = 1008
CLOSE_NORMAL: Final = 1000
#: Seconds a WebSocket closed for a limit has to take its close frame (the server does
#: not wait for the client's, nor read anything more); then it is aborted.
FAIL_GRACE: Final = 1.0
#: How long shutdown waits for goodbyes to be written.
SHUTDOWN_GRACE: Final = 3.0
#: How long shutdown waits for the store to take what is still unsaved.
STORE_GRACE: Final = 5.0
#: Seconds between tries of a save the store refused: doubling from the first to the
#: last.
RETRY_FIRST: Final = 0.25
RETRY_MAX: Final = 5.0
#: How long saves wait for the store's quiet moment (``_quiesce``) at most.
QUIET_WAIT: Final = 0.02
#: The longest news waits for a bystander (``Send.news``): joined with what comes for
#: it next, or written when this has passed, whichever is first.
NEWS_WAIT: Final = 0.02
#: How often finished games past their retention are removed (seconds).
PRUNE_EVERY: Final = 3600.0
#: The cyclic collector's thresholds in a server (``tune_gc``). CPython's (700, 10, 10)
#: collect the young every 700 allocations, which promotes each game state that lives a
#: turn, and then runs full collections over every game in play, pauses that grow with
#: the tables (up to 120 ms at 250 tables under make load, each one felt by every
#: table). Young collections every 20,000, full ones seldom: the states die young, by
#: their reference counts, as they always did.
GC_THRESHOLDS: Final = (20_000, 20, 100)


def _retrieved(done: asyncio.Future[None]) -> None:
    """Log what a background future raised (nobody awaits it any more)."""
    if not done.cancelled() and (exc := done.exception()) is not None:
        log.warning("the store's quiet moment failed: %s", exc)


def tune_gc() -> None:
    """The collector for a long-lived server: what start-up made (modules, classes,
    the games' tables) frozen, never scanned again, and ``GC_THRESHOLDS``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@dataclass
class _Connection:
    """One client as the server writes to it: a TCP stream, or a WebSocket (``ws``),
    whose transport's buffer is its outgoing queue either way; ``held``: news that
    waits (``NEWS_WAIT``)."""

    conn: int
    transport: asyncio.WriteTransport
    ws: ServerConnection | None = None
    closing: bool = False
    #: A WebSocket's close code and reason, when it closes (``_close``).
    close_code: tuple[int, str] = (CLOSE_NORMAL, "")
    held: list[bytes] = field(default_factory=list)

    def after_held(self, chunks: list[bytes]) -> list[bytes]:
        """The news that waited, then ``chunks``: what to write now (nothing waits
        after it)."""
        if not self.held:
            return chunks
        out, self.held = self.held + chunks, []
        return out

    def write(self, chunks: list[bytes]) -> None:
        if self.ws is None:
            self.transport.write(b"".join(chunks))
        else:
            for chunk in chunks:
                websocket.send_lines(self.ws, chunk)


class _Read(enum.Enum):
    """What a transport read that is not a line."""

    TOO_LONG = "a line over the limit"  # the connection is closed
    BINARY = "a WebSocket binary frame"  # answered, and reading goes on


_TOO_LONG, _BINARY = _Read.TOO_LONG, _Read.BINARY


#: The longest line a TCP client's reader takes, with its line ending: one byte more
#: is refused either way (the hub measures the line itself too).
_LINE_LIMIT: Final = MAX_LINE + 2


#: How long a PROXY header may be (a v2 header with its TLVs; v1 is 107 bytes at most);
#: a connection has ``Limits.handshake_timeout`` to send it.
PROXY_MAX: Final = 4096


@dataclass(eq=False)
class _HalfOpen:
    """A connection in its handshake (a PROXY header, a WebSocket's HTTP request): one
    of the hub's half-open ones (``Hub.arrive``) until ``Server._settle``."""

    address: str | None
    transport: asyncio.Transport


class _ProxyHeader:
    """The PROXY protocol header (v1 or v2) that a load balancer sends first, read from
    what arrives (the proxy-protocol library parses it): ``feed`` returns the client's
    address (None for a balancer's own connection, a health check) and the bytes after
    the header, or None until the header is whole; it raises ``ValueError`` for
    anything else, whatever the parser raised over it."""

    def __init__(self) -> None:
        from proxyprotocol import ProxyProtocolIncompleteError
        from proxyprotocol.detect import ProxyProtocolDetect

        self._incomplete = ProxyProtocolIncompleteError
        self._detect = ProxyProtocolDetect()
        self._buffer = b""
        self._need = 8  # the signature first

    def feed(self, data: bytes) -> tuple[str | None, bytes] | None:
        from proxyprotocol.result import is_ipv4, is_ipv6

        buffer = self._buffer = self._buffer + data
        while len(buffer) >= self._need:
            try:
                result = self._detect.unpack(buffer[: self._need])
            except self._incomplete as exc:
                want = exc.want_read
                if want.want_bytes is not None:
                    self._need += want.want_bytes
                else:  # v1: up to the line's end
                    end = buffer.find(b"\n", self._need - 1)
                    if end == -1:
                        self._need = len(buffer) + 1
                    else:
                        self._need = end + 1
                if self._need > PROXY_MAX:
                    raise ValueError(f"no PROXY header in its first {PROXY_MAX} bytes") from None
                continue
            except Exception as exc:  # a bad header (or the parser's own slip over one)
                raise ValueError(f"a bad PROXY header ({type(exc).__name__}: {exc})") from None
            rest = buffer[self._need :]
            if is_ipv4(result) or is_ipv6(result):
                return str(result.source[0]), rest
            return None, rest  # LOCAL or UNKNOWN: the balancer's own connection
        return None


class _LineReader(asyncio.Protocol):
    """A TCP client (the main or the classic listener): its bytes cut into lines and
    each handed to the server as it comes (``Server._client_line``); the end of its
    stream (an unfinished last line too) or a line over ``_LINE_LIMIT`` ends it."""

    def __init__(self, server: Server, listener: str) -> None:
        self.server = server
        self.listener = listener
        self.connection: _Connection | None = None  # None: refused, or not yet open
        self.buffer = b""
        self.done = False  # the server is through with it (it reads no more)
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        #: Behind a load balancer (``Server.proxy_protocol``): the PROXY header that
        #: comes first, until it has (None: none is read, or it has come).
        self.proxy = _ProxyHeader() if server.proxy_protocol else None
        self._transport: asyncio.Transport | None = None
        self._proxy_timer: asyncio.TimerHandle | None = None
        self._half_open: _HalfOpen | None = None  # while the PROXY header is awaited

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A TCP transport reads and writes (another event loop's, say uvloop's, is
        # not an asyncio.Transport subclass, so this is not checked).
        tcp = cast(asyncio.Transport, transport)
        if self.proxy is None:
            self.server._open_tcp(self, tcp)
            return
        self._transport = tcp
        self._half_open = self.server._arrive(tcp, self.listener, proxied=True)
        if self._half_open is None:  # over a half-open limit: closed already
            self.proxy = None
            self.done = True
            return
        loop = asyncio.get_running_loop()
        wait = self.server.limits.handshake_timeout
        self._proxy_timer = loop.call_later(wait, self._proxy_failed, "none in time")

    def _proxy_failed(self, why: str) -> None:
        """No PROXY header, or a bad one: the connection closes unanswered (it is no
        client's: the balancer always sends one first)."""
        assert self._transport is not None
        peer = self._transport.get_extra_info("peername")
        log.warning(
            "connection from %s (%s): no PROXY header (%s); closed", peer, self.listener, why
        )
        self._proxy_done()
        self.done = True
        self._transport.abort()

    def _proxy_done(self) -> None:
        """The PROXY header is read (or will never be): its wait ends, and the
        connection is half-open no more."""
        self.proxy = None
        if self._proxy_timer is not None:
            self._proxy_timer.cancel()
        if self._half_open is not None:
            self.server._settle(self._half_open)
            self._half_open = None

    def _proxy_header(self, data: bytes) -> bytes | None:
        """Read the PROXY header; once it is whole, the connection opens with the
        client's address it gives, and the bytes after it are returned."""
        assert self.proxy is not None
        assert self._transport is not None
        try:
            got = self.proxy.feed(data)
        except ValueError as exc:
            self._proxy_failed(str(exc))
            return None
        if got is None:
            return None
        address, rest = got
        self._proxy_done()
        self.server._open_tcp(self, self._transport, address)
        return rest

    def data_received(self, data: bytes) -> None:
        if self.proxy is not None and not self.done:
            rest = self._proxy_header(data)
            if not rest:
                return
            data = rest
        if self.done or self.connection is None:
            return
        buffer = self.buffer + data if self.buffer else data
        start = 0
        while not self.done:
            end = buffer.find(b"\n", start)
            if end == -1:
                if len(buffer) - start > _LINE_LIMIT:
                    self.server._client_too_long(self)
                break
            if end - start > _LINE_LIMIT:
                self.server._client_too_long(self)
                break
            self.server._client_line(self, buffer[start : end + 1])
            start = end + 1
        self.buffer = b"" if self.done else buffer[start:]

    def eof_received(self) -> bool:
        if not self.done and self.connection is not None:
            if self.buffer.strip():
                self.server._client_line(self, self.buffer)
            self.buffer = b""
            self.server._client_gone(self)
        return False  # the transport closes (once what is buffered is written)

    def connection_lost(self, exc: Exception | None) -> None:
        self._proxy_done()
        if exc is not None and self.connection is not None:
            log.info("connection %d: %s", self.connection.conn, exc)
        if not self.done and self.connection is not None:
            self.server._client_gone(self)
        self.done = True
        if not self.lost.done():
            self.lost.set_result(None)


@dataclass(slots=True)
class _Batch:
    """A turn's writes (possibly none) and what it says, sent once they are saved."""

    writes: list[Write]
    commands: list[Command]
    conns: frozenset[int] = frozenset()  # filled in when it is queued


class Server:
    """``await start()``, then ``port`` is bound; ``await close()`` stops it (idempotent)."""

    def __init__(
        self,
        hub: Hub | None = None,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        outgoing_limit: int = OUTGOING_LIMIT,
        limits: Limits | None = None,
        store: GameStore | None = None,
        commit_wait: float = COMMIT_WAIT,
        commit_batch: int = COMMIT_BATCH,
        classic_port: int | None = None,
        keep_days: float | None = None,
        plugins: Sequence[Plugin] = (),
        bot_limits: BotLimits | None = None,
        http_port: int | None = None,
        static: dict[str, websocket.StaticFile] | None = None,
        bus: Bus | None = None,
        proxy_protocol: bool = False,
        forwarded_for: bool = False,
        ai_pool: PoolLimits | None = None,
    ) -> None:
        self.limits = limits or Limits()
        #: Whether each TCP connection starts with a load balancer's PROXY header
        #: (v1 or v2), whose client address the per-address limits then count.
        self.proxy_protocol = proxy_protocol
        #: Whether the web listener is behind an HTTP load balancer, whose
        #: X-Forwarded-For gives the client's address (websocket.py).
        self.forwarded_for = forwarded_for
        #: The site (bus.py): relayed clients' messages go through it.
        self.bus = bus
        self.hub = hub or Hub(limits=self.limits, durable=store is not None)
        #: The plug-in bots that play AI seats, each move in a worker process
        #: (bots/runner.py), within ``bot_limits``.
        self.plugins = {p.label: p for p in plugins}
        if plugins:
            self.hub.lobby.plugins = {p.game: p.label for p in plugins}
        self.bot_limits = bot_limits or BotLimits()
        self.runner: PluginRunner | None = None
        #: The AI pool's limits (None: the strong AI plays in process), and the pool
        #: once started.
        self.ai_pool = ai_pool
        if ai_pool is not None:
            self.hub.lobby.ai_pool = True
        self.pool: AIPool | None = None
        self.store = store
        #: Finished games older than this many days are removed (None: kept for good).
        self.keep_days = keep_days
        #: Whether the store is refusing saves right now, and how many it refused.
        self.store_down = False
        self.store_failures = 0
        self._writer: ThreadPoolExecutor | None = None
        #: How long shutdown waits for the store to take what is unsaved.
        self.store_grace = STORE_GRACE
        self._queue: deque[_Batch] = deque()  # saved, then sent, in order
        self._waiting: dict[int, int] = {}  # conn -> queued batches that speak to it
        self._committer: asyncio.Task[None] | None = None
        #: An inline store's commits are ``commit_wait`` apart at least; when its last was.
        self.commit_wait = commit_wait
        self._committed_at = float("-inf")
        #: ... or sooner, once ``commit_batch`` turns' writes wait (the committer is
        #: woken: ``_commit_now``), or once every game of the last commit
        #: (``_last_games``) has writes waiting again (``_all_back``).
        self.commit_batch = commit_batch
        self._last_games: frozenset[int] = frozenset()
        self._commit_now = asyncio.Event()
        self._quiet: asyncio.Future[None] | None = None  # the store's quiet moment
        self._pruner: asyncio.Task[None] | None = None
        self._sweeper: asyncio.TimerHandle | None = None
        self.host = host
        self.requested_port = port
        self.outgoing_limit = outgoing_limit
        self._server: asyncio.Server | None = None
        #: The classic listener (the seed's dialect), if asked for: its port.
        self.requested_classic_port = classic_port
        self._classic: asyncio.Server | None = None
        #: The web listener (the page and its WebSocket), if asked for, and the page's
        #: files (None: the package's own).
        self.requested_http_port = http_port
        self._static = static
        self._web: websocket.WebListener | None = None
        self._ws_closing: set[asyncio.Task[None]] = set()
        self._connections: dict[int, _Connection] = {}
        #: The connections in their handshake (``_arrive``), closed at shutdown.
        self._half_open: set[_HalfOpen] = set()
        #: Each client's handler: its task (a WebSocket) or its reader's end (TCP).
        self._handlers: set[asyncio.Future[None]] = set()
        self._closed = False
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._pending: list[_Batch] = []  # sent (or queued) by the next _flush
        #: The connections with news waiting, and the timer that writes it.
        self._held: dict[int, _Connection] = {}
        self._release: asyncio.TimerHandle | None = None
        self._flush_soon = False
        #: The event loop it runs on, from ``start``: Python 3.11's
        #: ``asyncio.get_running_loop`` makes a getpid system call each time, and every
        #: line asks for the loop's clock.
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def port(self) -> int:
        assert self._server is not None, "start() first"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def classic_port(self) -> int | None:
        """The classic listener's port (None: there is none)."""
        if self._classic is None:
            return None
        port: int = self._classic.sockets[0].getsockname()[1]
        return port

    @property
    def http_port(self) -> int | None:
        """The web listener's port (None: there is none)."""
        return None if self._web is None else self._web.port

    async def start(self) -> None:
        # The stream limit lets a line of MAX_LINE bytes plus "\r\n" through; the hub
        # measures the line itself, so one byte more is refused either way.
        loop = self._loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: _LineReader(self, codecs.MAIN), self.host, self.requested_port
        )
        log.info("listening on %s:%d", self.host, self.port)
        if self.requested_classic_port is not None:
            try:
                self._classic = await loop.create_server(
                    lambda: _LineReader(self, codecs.CLASSIC),
                    self.host,
                    self.requested_classic_port,
                )
            except OSError:
                self._server.close()
                raise
            log.info("classic dialect on %s:%d", self.host, self.classic_port)
        if self.requested_http_port is not None:
            static = websocket.load_static() if self._static is None else self._static
            self._web = websocket.WebListener(
                self._handle_ws,
                self.host,
                self.requested_http_port,
                static,
                self.forwarded_for,
                arrived=self._ws_arrived,
                open_timeout=self.limits.handshake_timeout,
            )
            try:
                await self._web.start()
            except OSError:
                self._server.close()
                if self._classic is not None:
                    self._classic.close()
                raise
            log.info("web page and WebSocket on http://%s:%d/", self.host, self.http_port)
        if self.plugins:
            self.runner = PluginRunner(self.plugins, self.bot_limits, self._bot_answered)
        if self.ai_pool is not None:
            self.pool = AIPool(self.ai_pool, self._bot_answered)
            self.pool.start()
            self.hub.lobby.ai_busy = self.pool.full
        if self.store is not None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
            if self.keep_days is not None:
                self._pruner = asyncio.create_task(self._prune())
        self._dispatch([])  # what restoring produced is saved (queued like any turn's)
        self._sweep_later()

    async def close(self) -> None:
        if self._closed or self._server is None:
            return
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._pruner is not None:
            self._pruner.cancel()
        self._server.close()
        if self._classic is not None:
            self._classic.close()
        if self._web is not None:
            self._web.stop()
        for half_open in list(self._half_open):  # no handshake is finished now
            self._settle(half_open)
            half_open.transport.abort()
        if self.runner is not None:
            self.runner.close()
        if self.pool is not None:
            self.pool.close()
        transports = [c.transport for c in self._connections.values()]
        self._flush()  # what the last turn produced joins the queue
        unsaved = await self._last_saves()
        # Goodbyes (each table told honestly whether its game is saved), then every
        # transport closes; they save nothing, so they go straight out.
        self._send(self.hub.shutdown(unsaved=unsaved))
        if self._release is not None:  # news that waits goes now, before the closes
            self._release.cancel()
            self._write_held()
        if self._writer is not None:  # a save under way ends (busy_timeout at most)
            self._writer.shutdown(wait=True)
        if self._handlers:  # each ends when its transport has flushed and closed
            await asyncio.wait(self._handlers, timeout=SHUTDOWN_GRACE)
        for task in list(self._handlers):
            task.cancel()
        for transport in transports:
            if not transport.is_closing():
                transport.abort()
        if self._web is not None:
            try:
                async with asyncio.timeout(SHUTDOWN_GRACE):
                    await self._web.closed()
            except TimeoutError:
                log.warning("web listener: connections still open at shutdown")
        log.info("stopped")

    # ------------------------------------------------------------------ a client

    def _arrive(
        self, transport: asyncio.Transport, listener: str, proxied: bool
    ) -> _HalfOpen | None:
        """A connection whose handshake is to come (its first moment, before a byte of
        it is read): half-open (``Hub.arrive``), or over a half-open limit and closed at
        once, unanswered (None). Every listener's half-open connections come here.
        ``proxied``: the listener is behind a proxy (``--proxy-protocol``,
        ``--forwarded-for``), whose own address every connection has until its handshake
        gives the client's, so only the limit in all applies."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer and not proxied else None
        refusal = self.hub.arrive(address)
        if refusal is not None:
            where = peer[0] if peer else "?"
            log.warning("closed a connection from %s (%s) at once: %s", where, listener, refusal[1])
            transport.abort()
            return None
        half_open = _HalfOpen(address, transport)
        self._half_open.add(half_open)
        return half_open

    def _settle(self, half_open: _HalfOpen) -> None:
        """Its handshake is over (done, failed, timed out, or the connection is gone):
        half-open no more, once whatever path comes here first."""
        if half_open in self._half_open:
            self._half_open.discard(half_open)
            self.hub.settle(half_open.address)

    def _open_tcp(
        self, reader: _LineReader, transport: asyncio.Transport, proxied: str | None = None
    ) -> None:
        """A TCP client connected: admitted (its lines go to ``_client_line``), or
        refused with the reason and closed. ``proxied``: its address as the load
        balancer's PROXY header gave it (the per-address limits count it)."""
        peer = transport.get_extra_info("peername")
        address = proxied or (str(peer[0]) if peer else None)
        refusal = self.hub.admit(address)
        if refusal is not None:
            code, text = refusal
            log.warning("refused a connection from %s (%s): %s", address, reader.listener, code)
            reader.done = True
            transport.write(encode(error(code, text)))
            transport.close()
            return
        self._handlers.add(reader.lost)
        reader.lost.add_done_callback(self._handlers.discard)
        label = f"{peer[0]}:{peer[1]}" if peer else ""
        if proxied is not None:
            label = f"{proxied} via {label}"
        conn, commands = self.hub.connect(label, reader.listener, address)
        reader.connection = connection = _Connection(conn, transport)
        self._connections[conn] = connection
        self._dispatch(commands)

    def _client_line(self, reader: _LineReader, line: bytes) -> None:
        """One line of a TCP client, into the hub (a bug ends only this client)."""
        connection = reader.connection
        assert connection is not None
        conn = connection.conn
        try:
            self._dispatch(self.hub.receive(conn, line, self._clock()))
        except Exception:  # a bug: this connection ends, the server goes on
            log.exception("connection %d: internal error; closing it", conn)
            text = "the server hit an internal error (it is logged); goodbye"
            with contextlib.suppress(Exception):
                self._dispatch(self.hub.notice(conn, "internal_error", text))
            self._client_gone(reader)
            return
        if connection.closing:
            self._client_gone(reader)

    def _client_too_long(self, reader: _LineReader) -> None:
        assert reader.connection is not None
        self._dispatch(self.hub.line_too_long(reader.connection.conn))
        self._client_gone(reader)

    def _client_gone(self, reader: _LineReader) -> None:
        """A TCP client's reading is over (its end, a limit, a bug or the hub closed
        it): disconnected, its last words out, then closed."""
        if reader.done:
            return
        reader.done = True
        connection = reader.connection
        assert connection is not None
        self._dispatch(self.hub.disconnect(connection.conn))
        self._flush()  # its last words go out before it closes
        self._close(connection)

    def _ws_arrived(self, ws: websocket.Connection) -> bool:
        """A TCP connection to the web listener, before its HTTP request: half-open
        until its handler starts (``_handle_ws``) or it is lost; False: closed."""
        half_open = self._arrive(ws.transport, codecs.WEBSOCKET, self.forwarded_for)
        if half_open is None:
            return False
        ws.handshake_over = functools.partial(self._settle, half_open)
        return True

    async def _handle_ws(self, ws: ServerConnection, frames: AsyncIterator[bytes | None]) -> None:
        """A WebSocket connection (websocket.py): as a TCP one, a text frame a line."""
        if isinstance(ws, websocket.Connection) and ws.handshake_over is not None:
            ws.handshake_over()  # half-open no more
        # A TCP transport (uvloop's is not an asyncio.WriteTransport subclass either).
        transport = cast(asyncio.WriteTransport, ws.transport)

        async def refuse(data: bytes) -> None:
            websocket.send_lines(ws, data)
            await ws.close()

        items = (_BINARY if frame is None else frame async for frame in frames)
        connection = _Connection(0, transport, ws)
        peer = ws.remote_address
        if self.forwarded_for and ws.request is not None:
            forwarded = websocket.forwarded_address(ws.request.headers)
            if forwarded is not None:  # always: the handshake refused the rest
                peer = (forwarded, peer[1] if peer else 0)
        await self._serve_client(peer, codecs.WEBSOCKET, connection, refuse, items)

    async def _serve_client(
        self,
        peer: tuple[str, int] | None,
        listener: str,
        connection: _Connection,
        refuse: Callable[[bytes], Awaitable[None]],
        lines: AsyncIterator[bytes | _Read],
    ) -> None:
        """One WebSocket client from connect to close: admitted (or refused with the
        reason), its ``lines`` read into the hub until they end or the hub closes it,
        then disconnected, whatever happens (a bug ends only this one). A TCP client
        goes the same way through ``_LineReader``."""
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        address = str(peer[0]) if peer else None
        refusal = self.hub.admit(address)
        if refusal is not None:
            code, text = refusal
            log.warning("refused a connection from %s (%s): %s", address, listener, code)
            self._handlers.discard(task)
            await refuse(encode(error(code, text)))
            return
        label = f"{peer[0]}:{peer[1]}" if peer else ""
        conn, commands = self.hub.connect(label, listener, address)
        connection.conn = conn
        self._connections[conn] = connection
        if isinstance(connection.ws, websocket.Connection):
            connection.ws.on_controls = functools.partial(self._controls, connection)
        self._dispatch(commands)
        clock = self._clock
        try:
            async for line in lines:
                if line is _TOO_LONG:
                    self._dispatch(self.hub.line_too_long(conn))
                    break
                binary = line is _BINARY
                data = b"" if isinstance(line, _Read) else line
                self._dispatch(self.hub.receive(conn, data, clock(), binary=binary))
                if connection.closing:
                    break
        except (ConnectionError, OSError) as exc:
            log.info("connection %d: %s", conn, exc)
        except Exception:  # a bug: this connection ends, the server goes on
            log.exception("connection %d: internal error; closing it", conn)
            text = "the server hit an internal error (it is logged); goodbye"
            with contextlib.suppress(Exception):
                self._dispatch(self.hub.notice(conn, "internal_error", text))
        finally:
            self._dispatch(self.hub.disconnect(conn))
            self._flush()  # its last words go out before it closes
            self._close(connection)
            self._handlers.discard(task)

    def _controls(self, connection: _Connection, count: int) -> None:
        """A WebSocket read brought ``count`` pings or pongs, which the library has
        answered: they count against the rate (``Hub.controls``), and the pongs
        against the outgoing limit like any bytes written: while it closes too (the
        library answers pings until the client's close frame comes, or its timeout),
        when it is aborted."""
        if not connection.closing:
            self._dispatch(self.hub.controls(connection.conn, count, self._clock()))
        if not connection.closing:
            self._check_backlog(connection)
        elif connection.transport.get_write_buffer_size() > self.outgoing_limit:
            log.warning("connection %d is not reading its close: aborted", connection.conn)
            connection.transport.abort()

    def _clock(self) -> float:
        """The rate limits' clock: the event loop's."""
        return (self._loop or asyncio.get_running_loop()).time()

    def _dispatch(self, commands: list[Command]) -> None:
        """Queue what the hub returned, with what it asks to save (one event's worth:
        a line, a tick, a lost connection); ``_flush`` sends it at the end of this turn
        of the event loop, after whatever it must wait for."""
        writes = self.hub.lobby.journal.take() if self.store is not None else []
        if commands or writes:
            self._pending.append(_Batch(writes, commands))
        self._run_bots()
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
            self._dispatch(self.hub.bot_answer(table, seat, ask, choice, fault, action))

    def _flush(self) -> None:
        """What this turn of the event loop produced: sent now if it saved nothing and
        speaks to nobody who waits for a save; otherwise queued behind the saves (see
        the module docstring). Nothing is sent before it is saved."""
        self._flush_soon = False
        pending, self._pending = self._pending, []
        late = self.hub.lobby.journal.take() if self.store is not None else []
        if late:  # made outside a dispatch (restoring, say)
            pending.append(_Batch(late, []))
        retry = False
        wait = 0.0
        if self._inline_turn():
            writes = [w for batch in pending for w in batch.writes]
            if writes:
                wait = self._committed_at + self.commit_wait - self._clock()
                if wait <= 0:
                    if self._save_turn(pending, writes):
                        self._schedule()
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
                    self._enqueue(_Batch([], later))
            else:
                now += batch.commands
        self._send(now)
        if self._committer is None and any(batch.writes for batch in self._queue):
            self._committer = asyncio.get_running_loop().create_task(self._commit(retry, wait))
        elif self._committer is not None and (self._batch_full() or self._all_back()):
            self._commit_now.set()
        self._schedule()

    def _committed(self, writes: list[Write]) -> None:
        """An inline store took ``writes``: the commit wait starts over."""
        self._committed_at = self._clock()
        self._last_games = frozenset(w.game_id for w in writes)

    def _all_back(self) -> bool:
        """Whether every game of the last commit has writes waiting again: a closed
        loop (bots that answer at once, a busy server's last tables), where waiting out
        ``commit_wait`` would gather nothing more and only hold the answers."""
        last = self._last_games
        return bool(last) and last <= {w.game_id for b in self._queue for w in b.writes}

    def _batch_full(self) -> bool:
        """Whether ``commit_batch`` turns' writes wait in the queue."""
        full = self.commit_batch
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

    def _save_turn(self, pending: list[_Batch], writes: list[Write]) -> bool:
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

    def _enqueue(self, batch: _Batch) -> None:
        self._queue.append(batch)
        batch.conns = frozenset(c.conn for c in batch.commands)
        for conn in batch.conns:
            self._waiting[conn] = self._waiting.get(conn, 0) + 1

    def _dequeue(self) -> _Batch:
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
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._commit_now.wait(), wait)
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

    async def _last_saves(self) -> frozenset[int]:
        """At shutdown: let the store take what is queued (``store_grace`` at most);
        the tables whose moves it never took."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.store_grace
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

    def _sweep_later(self) -> None:
        """Close silent connections, a few times per the shorter idle limit."""
        if self._closed:
            return
        limits = self.limits
        every = min(5.0, max(0.05, min(limits.idle_timeout, limits.table_idle_timeout) / 4))
        self._sweeper = asyncio.get_running_loop().call_later(every, self._sweep)

    def _sweep(self) -> None:
        self._dispatch(self.hub.idle())
        self._sweep_later()

    def _send(self, commands: list[Command]) -> None:
        """Hand each connection its bytes in one write; close whom the hub closes."""
        batches: dict[int, list[bytes]] = {}
        urgent: set[int] = set()
        closes: list[Close] = []
        relayed: list[Relay | Remote] = []  # another instance's business (bus.py)
        for command in commands:
            if isinstance(command, Send):
                batches.setdefault(command.conn, []).append(command.data)
                if not command.news:
                    urgent.add(command.conn)
            elif isinstance(command, Close):
                closes.append(command)
            else:
                relayed.append(command)
        if relayed and self.bus is not None:
            self.bus.take(relayed)
        for conn, chunks in batches.items():
            connection = self._connections.get(conn)
            if connection is None or connection.closing:
                continue
            transport = connection.transport
            if transport.is_closing():
                continue
            if conn in urgent:
                self._write(connection, connection.after_held(chunks))
            else:
                self._hold(connection, chunks)
        for close in closes:
            connection = self._connections.get(close.conn)
            if connection is not None:
                if close.error and connection.ws is not None:  # it says why it closes
                    code = CLOSE_CODES.get(close.error, CLOSE_POLICY)
                    connection.close_code = (code, close.error)
                self._close(connection)

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
        self._dispatch(self.hub.tick())

    def _write(self, connection: _Connection, chunks: list[bytes]) -> None:
        connection.write(chunks)
        self._check_backlog(connection)

    def _check_backlog(self, connection: _Connection) -> None:
        """Drop the connection if more than ``outgoing_limit`` bytes wait for it."""
        if connection.transport.get_write_buffer_size() > self.outgoing_limit:
            log.warning("connection %d is not reading: dropped", connection.conn)
            self._drop(connection)

    def _hold(self, connection: _Connection, chunks: list[bytes]) -> None:
        """News for a bystander: it waits for what comes next, ``NEWS_WAIT`` at most."""
        connection.held += chunks
        self._held[connection.conn] = connection
        if self._release is None:
            loop = asyncio.get_running_loop()
            self._release = loop.call_later(NEWS_WAIT, self._write_held)

    def _write_held(self) -> None:
        """The news that waited, written (each connection's that has not gone since)."""
        self._release = None
        held, self._held = self._held, {}
        for connection in held.values():
            chunks = connection.after_held([])
            if chunks and not connection.closing and not connection.transport.is_closing():
                self._write(connection, chunks)

    def _close(self, connection: _Connection) -> None:
        """Close once what is buffered has been written (the transport flushes first)."""
        if connection.closing:
            return
        chunks = connection.after_held([])
        if chunks and not connection.transport.is_closing():
            connection.write(chunks)  # the news that waited goes before the close
        connection.closing = True
        self._connections.pop(connection.conn, None)
        if connection.ws is None:
            connection.transport.close()
        elif connection.close_code[0] != CLOSE_NORMAL and isinstance(
            connection.ws, websocket.Connection
        ):  # for a limit or a bug: at once, after what is buffered
            connection.ws.fail(*connection.close_code, grace=FAIL_GRACE)
        else:  # the closing handshake, after what is buffered; its handler then ends
            code, reason = connection.close_code
            task = asyncio.get_running_loop().create_task(connection.ws.close(code, reason))
            self._ws_closing.add(task)
            task.add_done_callback(self._ws_closing.discard)

    def _drop(self, connection: _Connection) -> None:
        connection.closing = True
        self._connections.pop(connection.conn, None)
        connection.transport.abort()
        self._dispatch(self.hub.disconnect(connection.conn))


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
    host: str,
    port: int,
    limits: Limits | None = None,
    store: GameStore | None = None,
    bots: dict[str, Callable[[], Bot]] | None = None,
    classic_port: int | None = None,
    keep_days: float | None = None,
    plugins: Sequence[Plugin] = (),
    bot_limits: BotLimits | None = None,
    commit_wait: float = COMMIT_WAIT,
    commit_batch: int = COMMIT_BATCH,
    ai: str = AI_LEVELS[0],
    ai_budget: float | None = None,
    http_port: int | None = None,
    bus: Bus | None = None,
    proxy_protocol: bool = False,
    forwarded_for: bool = False,
    ai_pool: PoolLimits | None = None,
) -> None:
    """Serve until SIGINT or SIGTERM, then shut down in order.

    With a store, the unfinished games in it are restored first (a game that cannot be
    is marked failed, and the rest go on), and the ends of those that ended just before
    it stopped are kept for their tokens (``store.restorable``); on a site (``bus``),
    the games whose lease lapsed are taken over instead, as the bus finds them. ``ai`` is
    the AI of a table that does not ask for one, ``ai_budget`` the strong AI's seconds a
    decision (None: its own), ``ai_pool`` the strong AI's worker pool (None: it plays
    in process)."""
    limits = limits or Limits()
    make_room(limits.max_connections + limits.max_half_open)
    tune_gc()
    hub = Hub(
        limits=limits,
        durable=store is not None,
        bots=bots,
        plugins={p.game: p.label for p in plugins},
        ai=ai,
        ai_budget=ai_budget,
        ai_pool=ai_pool is not None,
    )
    if bus is not None:
        await bus.connect()
    elif store is not None:
        for line in hub.lobby.restorer.restore(restorable(store), store.last_id()):
            log.info("%s", line)
    server = Server(
        hub,
        host=host,
        port=port,
        limits=limits,
        store=store,
        commit_wait=commit_wait,
        commit_batch=commit_batch,
        classic_port=classic_port,
        keep_days=keep_days,
        plugins=plugins,
        bot_limits=bot_limits,
        http_port=http_port,
        bus=bus,
        proxy_protocol=proxy_protocol,
        forwarded_for=forwarded_for,
        ai_pool=ai_pool,
    )
    # The handlers come first: start() listens before it has finished, so a signal may
    # come while it still works; it then stops the server as soon as it has started.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await server.start()
    if bus is not None:
        bus.run(hub, server._dispatch, server.forget_games)
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
        if store is not None:
            store.close()
