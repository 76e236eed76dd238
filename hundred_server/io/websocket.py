"""The web listener (``serve --http-port``): the browser page and a WebSocket at ``/ws``
that speaks the main port's JSON protocol, one message a text frame. Thin glue.

It is the ``websockets`` package's asyncio server, for both jobs on one port:
``process_request`` answers plain HTTP ``GET``s with the page's static files (read
once, at start, from ``static/`` in the package: nothing is read from disk while
serving, and no path from a request ever reaches the file system), and a request for
``/ws`` goes on to the WebSocket handshake. Each WebSocket connection is handed to the
server (server.py) as a connection like a TCP one on the listener
``codecs.WEBSOCKET``: the hub gives it the JSON codec from the start (no text mode),
and from there the lobby and tables cannot tell it from a TCP connection: the same
limits, rate limits, tokens and reconnection.

Behind an HTTP load balancer (``forwarded_for``), every connection comes from the
balancer's address: the client's is the last address of the ``X-Forwarded-For`` header
the balancer adds (``forwarded_address``), which the per-address limits then count, and
a WebSocket request without one is refused with HTTP 400 (the port must be reachable
only through the balancer, or anyone could name any address).

Frames in: a text frame is one line (its bytes, with or without a line ending); a
binary frame gets ``bad_json`` and changes nothing; a frame over the line limit gets
``line_too_long`` and the connection is closed, as on TCP. Frames out: each line the
hub sends becomes one text frame, without its ``\\n``. Writes never wait: they go to
the connection's transport (``websockets.broadcast``, which never awaits), whose
buffer the server bounds as for TCP.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import Event

from hundred_server.io.api import is_api
from hundred_server.protocol.wire import MAX_LINE

log = logging.getLogger("hundred_server")

#: The WebSocket's path; every other path is a static file or 404.
WS_PATH: Final = "/ws"
#: Frames larger than this are refused by the library (close code 1009) before they are
#: read; frames up to it that are over the line limit get ``line_too_long``.
MAX_FRAME: Final = 4 * MAX_LINE
#: The static files' types (anything else in the folder is not served).
TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
}
#: The page may load only its own files and talk only to its own server.
SECURITY_HEADERS: Final = (
    (
        "Content-Security-Policy",
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
        "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-cache"),
)


@dataclass(frozen=True)
class StaticFile:
    content_type: str
    body: bytes


def load_static(folder: Path | None = None) -> dict[str, StaticFile]:
    """The page's files by URL path (``/`` is ``index.html``), read once; a missing
    folder serves nothing (every path 404s)."""
    if folder is None:
        root = resources.files("hundred_server") / "static"
        folder = Path(str(root))
    files: dict[str, StaticFile] = {}
    if not folder.is_dir():
        log.warning("no static folder at %s: the web page is not served", folder)
        return files
    for path in sorted(folder.iterdir()):
        kind = TYPES.get(path.suffix.lower())
        if kind is None or not path.is_file() or path.name.startswith("."):
            continue
        files["/" + path.name] = StaticFile(kind, path.read_bytes())
    if "/index.html" in files:
        files["/"] = files["/index.html"]
    return files


#: The control frames a client may send at will, which the library answers (a ping
#: with a pong) or takes (a pong) by itself: counted (``Connection``).
CONTROL: Final = frozenset({Opcode.PING, Opcode.PONG})


#: Bytes of a read the library parses at a time (``Connection.data_received``): the
#: work a connection can make before its control frames are counted is this much.
READ_SLICE: Final = 16 * 1024


class Connection(ServerConnection):
    """The library's connection, which tells the server what it does not see: that a
    TCP connection came (``arrived``, before its HTTP request is read: False closes it at
    once), that its handshake is over (``handshake_over``, called by the server's handler
    or when the connection is lost, whichever is first), and how many control frames
    (pings and pongs) each ``READ_SLICE`` of a read brought (``on_controls``, once the
    server has admitted it; frames before that are told with the next slice's). Once
    the server closes it for a limit (``fail``) it is ``deaf``: what it sends is no
    longer read."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.handshake_over: Callable[[], None] | None = None
        self.on_controls: Callable[[int], None] | None = None
        self._controls = 0
        self.deaf = False
        #: The first bytes, until they say whether the request is for the API
        #: (io/api.py): None once known.
        self._head: bytes | None = b"" if self.serves_api else None
        self._api: Any = None

    #: Whether a request for ``/api/`` is taken from the library and read by the API
    #: (io/api.py): a listener's subclass says (``WebListener.start``).
    serves_api = False

    def api(self) -> Any:
        """The API's exchange for this connection (``serves_api``)."""
        raise NotImplementedError

    def arrived(self) -> bool:
        """Whether the connection may go on to its handshake (a listener's subclass
        asks the server: ``WebListener.start``)."""
        return True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if not self.arrived():  # the handshake then ends at once, with the connection
            self.transport.abort()

    def process_event(self, event: Event) -> None:
        super().process_event(event)
        if isinstance(event, Frame) and event.opcode in CONTROL:
            self._controls += 1

    def data_received(self, data: bytes) -> None:
        if self._api is not None:
            self._api.feed(data)
            return
        if self._head is not None:
            head = self._head + data
            verdict = is_api(head[:64])
            if verdict is None and len(head) < 64:
                self._head = head
                return
            self._head = None
            if verdict:
                self._api = self.api()
                self._api.feed(head)
                return
            data = head
        for start in range(0, len(data), READ_SLICE):
            if self.deaf:
                return
            super().data_received(data[start : start + READ_SLICE])
            if self._controls and self.on_controls is not None:
                count, self._controls = self._controls, 0
                self.on_controls(count)

    def fail(self, code: int, reason: str, grace: float) -> None:
        """Close at once, for a limit (RFC 6455's *Fail the WebSocket Connection*): the
        close frame after what is written already, then the end of the TCP stream,
        without waiting for the client's close frame; what the client sends is no longer
        read, and the connection is aborted if it is not over within ``grace`` seconds
        (a client that does not read holds its socket no longer)."""
        self.deaf = True
        self.protocol.fail(code, reason)
        self.send_data()
        self.loop.call_later(grace, self.transport.abort)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self.handshake_over is not None:
            self.handshake_over()


#: What the server does with each WebSocket connection: it reads the connection's
#: frames (``frames``) and returns when the connection is over.
Handler = Callable[[ServerConnection, AsyncIterator[bytes | None]], Awaitable[None]]


def forwarded_address(headers: Headers) -> str | None:
    """The client's address that the nearest proxy gave: the last entry of the request's
    ``X-Forwarded-For`` headers (an IPv4 or IPv6 address, with or without a port), in
    its standard form; None when there is none or it is no address."""
    values = headers.get_all("X-Forwarded-For")
    if not values:
        return None
    last = values[-1].rsplit(",", 1)[-1].strip()
    if last.startswith("["):  # [IPv6]:port
        last = last[1 : last.find("]")] if "]" in last else ""
    elif last.count(":") == 1:  # IPv4:port
        last = last.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        return None


class WebListener:
    """``await start()`` listens; ``port`` is bound; ``stop()`` stops accepting,
    ``await closed()`` waits for the last connection's handler to end.
    ``forwarded_for``: behind an HTTP load balancer (see the module docstring)."""

    def __init__(
        self,
        handler: Handler,
        host: str,
        port: int,
        static: dict[str, StaticFile],
        forwarded_for: bool = False,
        arrived: Callable[[Connection], bool] | None = None,
        open_timeout: float = 10.0,
        api_for: Callable[[Connection], Any] | None = None,
    ) -> None:
        self._handler = handler
        self._api_for = api_for
        self._arrived = arrived
        self.open_timeout = open_timeout
        self.host, self.requested_port = host, port
        self.static = static
        self.forwarded_for = forwarded_for
        self._server: WsServer | None = None
        self._port: int | None = None

    @property
    def port(self) -> int:
        """The bound port (still known after ``stop``)."""
        assert self._port is not None, "start() first"
        return self._port

    async def start(self) -> None:
        arrived = self._arrived

        api_for = self._api_for

        class ListenedConnection(Connection):
            serves_api = api_for is not None

            def arrived(self) -> bool:
                return arrived is None or arrived(self)

            def api(self) -> Any:
                assert api_for is not None
                return api_for(self)

        self._server = await serve(
            self._connection,
            self.host,
            self.requested_port,
            process_request=self._http,
            max_size=MAX_FRAME,
            create_connection=ListenedConnection,
            # From the TCP connection to the end of the opening handshake (the HTTP
            # request included).
            open_timeout=self.open_timeout,
            # The server sends its own greeting at once; compression would cost CPU
            # for messages of a few hundred bytes.
            compression=None,
            server_header=None,
        )
        self._port = next(iter(self._server.sockets)).getsockname()[1]

    def stop(self) -> None:
        """Accept no more connections (open ones are closed by the server's
        shutdown, after their goodbyes)."""
        if self._server is not None:
            self._server.close(close_connections=False)

    async def closed(self) -> None:
        """Wait for the last connection's handler to end (the caller bounds the wait)."""
        if self._server is not None:
            await self._server.wait_closed()

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """A static file, the WebSocket (None: go on with the handshake), or 404."""
        path = request.path.split("?", 1)[0]
        if path == WS_PATH:
            if self.forwarded_for and forwarded_address(request.headers) is None:
                log.warning("refused a WebSocket from %s: no X-Forwarded-For", _peer(connection))
                return connection.respond(400, "no client address in X-Forwarded-For\n")
            return None
        found = self.static.get(path)
        if found is None:
            return connection.respond(404, "not found\n")
        headers = Headers(SECURITY_HEADERS)
        headers["Content-Type"] = found.content_type
        headers["Content-Length"] = str(len(found.body))
        return Response(200, "OK", headers, found.body)

    async def _connection(self, ws: ServerConnection) -> None:
        await self._handler(ws, frames(ws))


def _peer(connection: ServerConnection) -> str:
    address = connection.remote_address
    return str(address[0]) if address else "?"


async def frames(ws: ServerConnection) -> AsyncIterator[bytes | None]:
    """The connection's text frames as UTF-8 bytes, until it closes; None for a binary
    frame (the caller answers it and reads on)."""
    while True:
        try:
            data = await ws.recv()
        except ConnectionClosed:
            return
        yield None if isinstance(data, bytes) else data.encode()


def send_lines(ws: ServerConnection, data: bytes) -> None:
    """The hub's bytes for ``ws`` (whole lines), one text frame a line, without
    waiting."""
    for line in data.splitlines():
        if line:
            broadcast([ws], line, text=True)
