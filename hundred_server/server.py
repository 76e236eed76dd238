"""The asyncio TCP server: accept, read lines, write lines, shut down. Thin glue.

Everything the server decides is decided by ``Hub`` (lobby.py) without I/O; this
module reads lines into it and writes what it returns. Writes never wait: what the
hub returns in one turn of the event loop is saved to the store (one transaction, if
there is a store), then joined per connection and handed to its transport, whose buffer
is the connection's outgoing queue. It is bounded: a client that stops
reading until more than ``OUTGOING_LIMIT`` bytes wait for it is dropped (and treated
as a disconnect), so it never delays its table or anyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from hundred_server import codecs
from hundred_server.games.base import Bot
from hundred_server.hub import Command, Hub, Send
from hundred_server.lobby import Limits
from hundred_server.protocol import MAX_LINE, encode, error
from hundred_server.store import Store

log = logging.getLogger("hundred_server")

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 7110
#: Bytes waiting for one client before it counts as not reading, and is dropped.
OUTGOING_LIMIT: Final = 1 << 20
#: How long shutdown waits for goodbyes to be written.
SHUTDOWN_GRACE: Final = 3.0


@dataclass
class _Connection:
    conn: int
    writer: asyncio.StreamWriter
    closing: bool = False


class Server:
    """``await start()``, then ``port`` is bound; ``await close()`` stops it (idempotent)."""

    def __init__(
        self,
        hub: Hub | None = None,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        outgoing_limit: int = OUTGOING_LIMIT,
        limits: Limits | None = None,
        store: Store | None = None,
        classic_port: int | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.hub = hub or Hub(limits=self.limits, durable=store is not None)
        self.store = store
        #: Set when the store fails: the server stops rather than send what is unsaved.
        self.failed = asyncio.Event()
        self.store_failed = False
        self.host = host
        self.requested_port = port
        self.outgoing_limit = outgoing_limit
        self._server: asyncio.Server | None = None
        #: The classic listener (the seed's dialect), if asked for: its port.
        self.requested_classic_port = classic_port
        self._classic: asyncio.Server | None = None
        self._connections: dict[int, _Connection] = {}
        self._handlers: set[asyncio.Task[None]] = set()
        self._closed = False
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._pending: list[Command] = []  # sent by the next _flush
        self._flush_soon = False

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

    async def start(self) -> None:
        # The stream limit lets a line of MAX_LINE bytes plus "\r\n" through; the hub
        # measures the line itself, so one byte more is refused either way.
        self._server = await asyncio.start_server(
            self._handle, self.host, self.requested_port, limit=MAX_LINE + 2
        )
        log.info("listening on %s:%d", self.host, self.port)
        if self.requested_classic_port is not None:
            try:
                self._classic = await asyncio.start_server(
                    self._handle_classic,
                    self.host,
                    self.requested_classic_port,
                    limit=MAX_LINE + 2,
                )
            except OSError:
                self._server.close()
                raise
            log.info("classic dialect on %s:%d", self.host, self.classic_port)
        self._schedule()  # restored tables may have deadlines already

    async def close(self) -> None:
        if self._closed or self._server is None:
            return
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        self._server.close()
        if self._classic is not None:
            self._classic.close()
        transports = [c.writer.transport for c in self._connections.values()]
        self._dispatch(self.hub.shutdown())  # goodbyes, then every transport closes
        self._flush()
        if self._handlers:  # each ends when its transport has flushed and closed
            await asyncio.wait(self._handlers, timeout=SHUTDOWN_GRACE)
        for task in list(self._handlers):
            task.cancel()
        for transport in transports:
            if not transport.is_closing():
                transport.abort()
        log.info("stopped")

    # ------------------------------------------------------------------ a client

    async def _handle_classic(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        await self._handle(reader, writer, codecs.CLASSIC)

    async def _handle(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        listener: str = codecs.MAIN,
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        peer = writer.get_extra_info("peername")
        limits = self.limits
        if len(self._connections) >= limits.max_connections:
            log.warning("refused %s: %d connections already", peer, len(self._connections))
            full = f"the server is full ({limits.max_connections} connections); try later"
            writer.write(encode(error("server_full", full)))
            writer.close()
            self._handlers.discard(task)
            return
        conn, commands = self.hub.connect(f"{peer[0]}:{peer[1]}" if peer else "", listener)
        connection = _Connection(conn, writer)
        self._connections[conn] = connection
        self._dispatch(commands)
        clock = asyncio.get_running_loop().time
        try:
            while not connection.closing:
                idle = limits.idle_timeout if self.hub.in_lobby(conn) else None
                try:
                    async with asyncio.timeout(idle):
                        line = await reader.readuntil(b"\n")
                except TimeoutError:
                    text = f"silent for {idle:g} s in the lobby; goodbye"
                    self._dispatch(self.hub.notice(conn, "idle_timeout", text))
                    break
                except asyncio.IncompleteReadError as exc:  # end of stream
                    if exc.partial.strip():
                        self._dispatch(self.hub.receive(conn, exc.partial, clock()))
                    break
                except asyncio.LimitOverrunError:
                    self._dispatch(self.hub.line_too_long(conn))
                    break
                self._dispatch(self.hub.receive(conn, line, clock()))
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
            with contextlib.suppress(ConnectionError, OSError):
                await writer.wait_closed()

    def _dispatch(self, commands: list[Command]) -> None:
        """Queue what the hub returned; ``_flush`` sends it at the end of this turn of
        the event loop, with whatever else the turn produced (one save for all)."""
        self._pending.extend(commands)
        if not self._flush_soon:
            self._flush_soon = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Save what the hub says to save, in one transaction; then hand each
        connection its bytes in one write, and close whom the hub closes. Nothing is
        sent before it is saved."""
        self._flush_soon = False
        commands, self._pending = self._pending, []
        if self.store is not None and not self._save():
            return
        batches: dict[int, list[bytes]] = {}
        closes: list[int] = []
        for command in commands:
            if isinstance(command, Send):
                batches.setdefault(command.conn, []).append(command.data)
            else:
                closes.append(command.conn)
        for conn, chunks in batches.items():
            connection = self._connections.get(conn)
            if connection is None or connection.closing:
                continue
            transport = connection.writer.transport
            if transport.is_closing():
                continue
            transport.write(b"".join(chunks))
            if transport.get_write_buffer_size() > self.outgoing_limit:
                log.warning("connection %d is not reading: dropped", conn)
                self._drop(connection)
        for conn in closes:
            connection = self._connections.get(conn)
            if connection is not None:
                self._close(connection)
        self._schedule()

    def _save(self) -> bool:
        assert self.store is not None
        writes = self.hub.take_writes()
        if not writes:
            return True
        try:
            self.store.write(writes)
        except Exception:
            log.critical("the store failed; stopping, so nothing unsaved is sent", exc_info=True)
            self.store_failed = True
            self.failed.set()
            return False
        return True

    def _schedule(self) -> None:
        """Have the hub's ``tick`` called when its next deadline comes (one timer)."""
        deadline = None if self._closed else self.hub.next_deadline()
        if deadline == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = deadline
        if deadline is not None:
            delay = max(0.0, deadline - self.hub.clock())
            self._timer = asyncio.get_running_loop().call_later(delay, self._on_timer)

    def _on_timer(self) -> None:
        self._timer, self._timer_at = None, None
        self._dispatch(self.hub.tick())

    def _close(self, connection: _Connection) -> None:
        """Close once what is buffered has been written (the transport flushes first)."""
        if connection.closing:
            return
        connection.closing = True
        self._connections.pop(connection.conn, None)
        connection.writer.transport.close()

    def _drop(self, connection: _Connection) -> None:
        connection.closing = True
        self._connections.pop(connection.conn, None)
        connection.writer.transport.abort()
        self._dispatch(self.hub.disconnect(connection.conn))


async def run(
    host: str,
    port: int,
    limits: Limits | None = None,
    store: Store | None = None,
    bots: dict[str, Callable[[], Bot]] | None = None,
    classic_port: int | None = None,
) -> None:
    """Serve until SIGINT or SIGTERM (or a failing store), then shut down in order.

    With a store, the unfinished games in it are restored first."""
    limits = limits or Limits()
    hub = Hub(limits=limits, durable=store is not None, bots=bots)
    if store is not None:
        for line in hub.restore(store.games("playing"), store.last_id()):
            log.info("%s", line)
        store.write(hub.take_writes())
    server = Server(
        hub, host=host, port=port, limits=limits, store=store, classic_port=classic_port
    )
    await server.start()
    stop = server.failed
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    classic = "" if server.classic_port is None else f", classic dialect on {server.classic_port}"
    print(
        f"hundred_server listening on {host}:{server.port}{classic} "
        f"(try: nc {host} {server.port}); Ctrl-C stops it",
        flush=True,
    )
    try:
        await stop.wait()
        log.info("shutting down")
    finally:
        await server.close()
        if store is not None:
            if not server.store_failed:
                store.write(server.hub.take_writes())
            store.close()
