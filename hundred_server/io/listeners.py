"""The listeners, plug-in parts of the server (server.py): each one a port that turns
its connections into clients of the hub. ``listeners_for`` makes those the settings ask
for: the main port (newline-delimited JSON and text mode), the classic port (the seed
server's dialect), and the web port (the page and a WebSocket at ``/ws``,
websocket.py). Every listener admits its connections the same way (admit.py) and
writes through the server's outbox (outbox.py).

A TCP client is an ``asyncio.Protocol`` (``LineReader``) that cuts what arrives into
lines and hands each to the hub at once, with no task, stream or future per connection
or line: under load that machinery cost more than the hub itself. A WebSocket client is
a task of the websockets library, a text frame a line.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Final, Protocol, cast

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers

from hundred_server.io import websocket
from hundred_server.io.admit import HalfOpen, ProxyHeader
from hundred_server.io.api import Exchange
from hundred_server.io.outbox import Connection
from hundred_server.protocol import codecs
from hundred_server.protocol.wire import MAX_LINE

if TYPE_CHECKING:
    from hundred_server.config import Listeners
    from hundred_server.io.server import Server

log = logging.getLogger("hundred_server")

#: The longest line a TCP client's reader takes, with its line ending: one byte more
#: is refused either way (the hub measures the line itself too).
LINE_LIMIT: Final = MAX_LINE + 2
#: How long shutdown waits for the web listener's last connections to end.
SHUTDOWN_GRACE: Final = 3.0
#: What a client is told before it is closed for a bug of ours.
INTERNAL_ERROR: Final = "the server hit an internal error (it is logged); goodbye"


class Listener(Protocol):
    """A port of the server: ``await start()`` binds it (OSError: it cannot), ``port``
    is then bound; ``stop()`` accepts no more connections; ``await closed()`` waits for
    its last connections' ends, if it has to (bounded)."""

    name: str

    @property
    def port(self) -> int: ...

    async def start(self) -> None: ...

    def stop(self) -> None: ...

    async def closed(self) -> None: ...


def listeners_for(server: Server, settings: Listeners) -> list[Listener]:
    """The listeners ``settings`` ask for, the main one first."""
    found: list[Listener] = [TcpListener(server, codecs.MAIN, settings.port)]
    if settings.classic_port is not None:
        found.append(TcpListener(server, codecs.CLASSIC, settings.classic_port))
    if settings.http_port is not None:
        found.append(WebSocketListener(server, settings.http_port))
    return found


class TcpListener:
    """The main or the classic port (``name``: ``codecs.MAIN`` or ``codecs.CLASSIC``):
    a ``LineReader`` per connection, whose lines it hands to the hub."""

    #: What it says in the log once it listens.
    SAYS: Final = {codecs.MAIN: "listening on %s:%d", codecs.CLASSIC: "classic dialect on %s:%d"}

    def __init__(self, server: Server, name: str, port: int) -> None:
        self.server = server
        self.name = name
        self.requested_port = port
        self._server: asyncio.Server | None = None

    @property
    def port(self) -> int:
        assert self._server is not None, "start() first"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        host = self.server.settings.listeners.host
        self._server = await loop.create_server(lambda: LineReader(self), host, self.requested_port)
        log.info(self.SAYS[self.name], host, self.port)

    def stop(self) -> None:
        if self._server is not None:
            self._server.close()

    async def closed(self) -> None:
        """Nothing to wait for: each client's reader ends with its transport."""

    def open(
        self, reader: LineReader, transport: asyncio.Transport, proxied: str | None = None
    ) -> None:
        """A TCP client connected: admitted (its lines go to ``line``), or refused with
        the reason and closed. ``proxied``: its address as the load balancer's PROXY
        header gave it (the per-address limits count it)."""
        server = self.server
        connection = Connection(0, transport)
        peer = transport.get_extra_info("peername")
        refusal = server.admission.admit(connection, self.name, peer, proxied)
        if refusal is not None:
            reader.done = True
            transport.write(refusal)
            transport.close()
            return
        server.handlers.add(reader.lost)
        reader.lost.add_done_callback(server.handlers.discard)
        reader.connection = connection

    def line(self, reader: LineReader, line: bytes) -> None:
        """One line of a TCP client, into the hub (a bug ends only this client)."""
        connection = reader.connection
        assert connection is not None
        conn = connection.conn
        server = self.server
        try:
            server.read(conn, line)
        except Exception:  # a bug: this connection ends, the server goes on
            log.exception("connection %d: internal error; closing it", conn)
            with contextlib.suppress(Exception):
                server.dispatch(server.hub.notice(conn, "internal_error", INTERNAL_ERROR))
            self.gone(reader)
            return
        if connection.closing:
            self.gone(reader)

    def too_long(self, reader: LineReader) -> None:
        assert reader.connection is not None
        self.server.dispatch(self.server.hub.line_too_long(reader.connection.conn))
        self.gone(reader)

    def gone(self, reader: LineReader) -> None:
        """A TCP client's reading is over (its end, a limit, a bug or the hub closed
        it): disconnected, its last words out, then closed."""
        if reader.done:
            return
        reader.done = True
        connection = reader.connection
        assert connection is not None
        self.server.part(connection)


class LineReader(asyncio.Protocol):
    """A TCP client of ``listener``: its bytes cut into lines and each handed to the
    listener as it comes (``TcpListener.line``); the end of its stream (an unfinished
    last line too) or a line over ``LINE_LIMIT`` ends it."""

    def __init__(self, listener: TcpListener) -> None:
        self.listener = listener
        self.connection: Connection | None = None  # None: refused, or not yet open
        self.buffer = b""
        self.done = False  # the server is through with it (it reads no more)
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        #: Behind a load balancer (``Listeners.proxy_protocol``): the PROXY header that
        #: comes first, until it has (None: none is read, or it has come).
        proxied = listener.server.settings.listeners.proxy_protocol
        self.proxy = ProxyHeader() if proxied else None
        self._transport: asyncio.Transport | None = None
        self._proxy_timer: asyncio.TimerHandle | None = None
        self._half_open: HalfOpen | None = None  # while the PROXY header is awaited

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A TCP transport reads and writes (another event loop's, say uvloop's, is
        # not an asyncio.Transport subclass, so this is not checked).
        tcp = cast(asyncio.Transport, transport)
        if self.proxy is None:
            self.listener.open(self, tcp)
            return
        self._transport = tcp
        server = self.listener.server
        self._half_open = server.admission.arrive(tcp, self.listener.name, proxied=True)
        if self._half_open is None:  # over a half-open limit: closed already
            self.proxy = None
            self.done = True
            return
        loop = asyncio.get_running_loop()
        wait = server.settings.limits.handshake_timeout
        self._proxy_timer = loop.call_later(wait, self._proxy_failed, "none in time")

    def _proxy_failed(self, why: str) -> None:
        """No PROXY header, or a bad one: the connection closes unanswered (it is no
        client's: the balancer always sends one first)."""
        assert self._transport is not None
        peer = self._transport.get_extra_info("peername")
        log.warning(
            "connection from %s (%s): no PROXY header (%s); closed", peer, self.listener.name, why
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
            self.listener.server.admission.settle(self._half_open)
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
        self.listener.open(self, self._transport, address)
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
        listener = self.listener
        while not self.done:
            end = buffer.find(b"\n", start)
            if end == -1:
                if len(buffer) - start > LINE_LIMIT:
                    listener.too_long(self)
                break
            if end - start > LINE_LIMIT:
                listener.too_long(self)
                break
            listener.line(self, buffer[start : end + 1])
            start = end + 1
        self.buffer = b"" if self.done else buffer[start:]

    def eof_received(self) -> bool:
        if not self.done and self.connection is not None:
            if self.buffer.strip():
                self.listener.line(self, self.buffer)
            self.buffer = b""
            self.listener.gone(self)
        return False  # the transport closes (once what is buffered is written)

    def connection_lost(self, exc: Exception | None) -> None:
        self._proxy_done()
        if exc is not None and self.connection is not None:
            log.info("connection %d: %s", self.connection.conn, exc)
        if not self.done and self.connection is not None:
            self.listener.gone(self)
        self.done = True
        if not self.lost.done():
            self.lost.set_result(None)


def _forwarded(headers: list[tuple[str, str]]) -> str | None:
    return websocket.forwarded_address(Headers(headers))


class WebSocketListener:
    """The web port (websocket.py's ``WebListener``): the page's files, and a
    WebSocket client per connection to ``/ws``, a text frame a line."""

    name = codecs.WEBSOCKET

    def __init__(self, server: Server, port: int) -> None:
        self.server = server
        self.requested_port = port
        self._web: websocket.WebListener | None = None

    @property
    def port(self) -> int:
        assert self._web is not None, "start() first"
        return self._web.port

    async def start(self) -> None:
        server = self.server
        settings = server.settings
        static = websocket.load_static() if server.static is None else server.static
        self._web = websocket.WebListener(
            self._handle,
            settings.listeners.host,
            self.requested_port,
            static,
            settings.listeners.forwarded_for,
            arrived=self._arrived,
            open_timeout=settings.limits.handshake_timeout,
            api_for=self._api,
        )
        await self._web.start()
        log.info("web page and WebSocket on http://%s:%d/", settings.listeners.host, self.port)

    def stop(self) -> None:
        if self._web is not None:
            self._web.stop()

    async def closed(self) -> None:
        if self._web is not None:
            try:
                async with asyncio.timeout(SHUTDOWN_GRACE):
                    await self._web.closed()
            except TimeoutError:
                log.warning("web listener: connections still open at shutdown")

    def _api(self, ws: websocket.Connection) -> Exchange:
        """A request for ``/api/`` on this connection (io/api.py): answered there."""
        peer = ws.transport.get_extra_info("peername")
        address = str(peer[0]) if peer else None
        forwarded = None
        if self.server.settings.listeners.forwarded_for:
            forwarded = _forwarded
        return Exchange(self.server.api, ws.transport, address, forwarded)

    def _arrived(self, ws: websocket.Connection) -> bool:
        """A TCP connection to the web listener, before its HTTP request: half-open
        until its handler starts (``_handle``) or it is lost; False: closed."""
        proxied = self.server.settings.listeners.forwarded_for
        half_open = self.server.admission.arrive(ws.transport, self.name, proxied)
        if half_open is None:
            return False
        ws.handshake_over = functools.partial(self.server.admission.settle, half_open)
        return True

    async def _handle(self, ws: ServerConnection, frames: AsyncIterator[bytes | None]) -> None:
        """One WebSocket client from connect to close: admitted (or refused with the
        reason), its frames read into the hub until they end or the hub closes it,
        then disconnected, whatever happens (a bug ends only this one)."""
        if isinstance(ws, websocket.Connection) and ws.handshake_over is not None:
            ws.handshake_over()  # half-open no more
        server = self.server
        task = asyncio.current_task()
        assert task is not None
        server.handlers.add(task)
        # A TCP transport (uvloop's is not an asyncio.WriteTransport subclass either).
        connection = Connection(0, cast(asyncio.WriteTransport, ws.transport), ws)
        peer = ws.remote_address
        if server.settings.listeners.forwarded_for and ws.request is not None:
            forwarded = websocket.forwarded_address(ws.request.headers)
            if forwarded is not None:  # always: the handshake refused the rest
                peer = (forwarded, peer[1] if peer else 0)
        refusal = server.admission.admit(connection, self.name, peer)
        if refusal is not None:
            server.handlers.discard(task)
            websocket.send_lines(ws, refusal)
            await ws.close()
            return
        conn = connection.conn
        if isinstance(ws, websocket.Connection):
            ws.on_controls = functools.partial(self._controls, connection)
        hub = server.hub
        try:
            async for frame in frames:
                binary = frame is None  # answered, and reading goes on
                data = b"" if frame is None else frame
                server.read(conn, data, binary)
                if connection.closing:
                    break
        except (ConnectionError, OSError) as exc:
            log.info("connection %d: %s", conn, exc)
        except Exception:  # a bug: this connection ends, the server goes on
            log.exception("connection %d: internal error; closing it", conn)
            with contextlib.suppress(Exception):
                server.dispatch(hub.notice(conn, "internal_error", INTERNAL_ERROR))
        finally:
            server.part(connection)
            server.handlers.discard(task)

    def _controls(self, connection: Connection, count: int) -> None:
        """A WebSocket read brought ``count`` pings or pongs, which the library has
        answered: they count against the rate (``Hub.controls``), and the pongs
        against the outgoing limit like any bytes written: while it closes too (the
        library answers pings until the client's close frame comes, or its timeout),
        when it is aborted."""
        server = self.server
        if not connection.closing:
            server.dispatch(server.hub.controls(connection.conn, count, server.clock()))
        if not connection.closing:
            server.outbox.check_backlog(connection)
        elif connection.transport.get_write_buffer_size() > server.outbox.limit:
            log.warning("connection %d is not reading its close: aborted", connection.conn)
            connection.transport.abort()
