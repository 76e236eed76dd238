"""What the server writes: each connection's bytes, joined per turn, to its transport,
whose buffer is the connection's outgoing queue (server.py's docstring says why).

``Outbox.send`` takes what the hub returned (``Send``, ``Close``, and the relayed
commands that are another instance's business, bus.py): one write a connection, the
news for a bystander held ``NEWS_WAIT`` at most, and a connection that lets more than
the outgoing limit wait is dropped (``dropped``: the server tells the hub).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from websockets.asyncio.server import ServerConnection

from hundred_server.core.hub import Close, Command, Relay, Remote, Send
from hundred_server.io import websocket

if TYPE_CHECKING:
    from hundred_server.io.bus import Bus

log = logging.getLogger("hundred_server")

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
#: The longest news waits for a bystander (``Send.news``): joined with what comes for
#: it next, or written when this has passed, whichever is first.
NEWS_WAIT: Final = 0.02


@dataclass
class Connection:
    """One client as the server writes to it: a TCP stream, or a WebSocket (``ws``),
    whose transport's buffer is its outgoing queue either way; ``held``: news that
    waits (``NEWS_WAIT``)."""

    conn: int
    transport: asyncio.WriteTransport
    ws: ServerConnection | None = None
    closing: bool = False
    #: A WebSocket's close code and reason, when it closes (``Outbox.close``).
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


class Outbox:
    """The open connections by number, and what is written to them. ``limit``: the
    outgoing limit in bytes; ``dropped(conn)``: a connection was dropped for it (the
    hub is told); ``bus``: where relayed commands go (None: no site)."""

    def __init__(self, limit: int, dropped: Callable[[int], None], bus: Bus | None = None) -> None:
        self.limit = limit
        self.connections: dict[int, Connection] = {}
        self._dropped = dropped
        self._bus = bus
        #: The connections with news waiting, and the timer that writes it.
        self._held: dict[int, Connection] = {}
        self._release: asyncio.TimerHandle | None = None
        self._ws_closing: set[asyncio.Task[None]] = set()

    def send(self, commands: list[Command]) -> None:
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
        if relayed and self._bus is not None:
            self._bus.relays.take(relayed)
        for conn, chunks in batches.items():
            connection = self.connections.get(conn)
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
            connection = self.connections.get(close.conn)
            if connection is not None:
                if close.error and connection.ws is not None:  # it says why it closes
                    code = CLOSE_CODES.get(close.error, CLOSE_POLICY)
                    connection.close_code = (code, close.error)
                self.close(connection)

    def _write(self, connection: Connection, chunks: list[bytes]) -> None:
        connection.write(chunks)
        self.check_backlog(connection)

    def check_backlog(self, connection: Connection) -> None:
        """Drop the connection if more than ``limit`` bytes wait for it."""
        if connection.transport.get_write_buffer_size() > self.limit:
            log.warning("connection %d is not reading: dropped", connection.conn)
            self.drop(connection)

    def _hold(self, connection: Connection, chunks: list[bytes]) -> None:
        """News for a bystander: it waits for what comes next, ``NEWS_WAIT`` at most."""
        connection.held += chunks
        self._held[connection.conn] = connection
        if self._release is None:
            loop = asyncio.get_running_loop()
            self._release = loop.call_later(NEWS_WAIT, self.write_held)

    def write_held(self) -> None:
        """The news that waited, written (each connection's that has not gone since)."""
        if self._release is not None:
            self._release.cancel()
        self._release = None
        held, self._held = self._held, {}
        for connection in held.values():
            chunks = connection.after_held([])
            if chunks and not connection.closing and not connection.transport.is_closing():
                self._write(connection, chunks)

    def close(self, connection: Connection) -> None:
        """Close once what is buffered has been written (the transport flushes first)."""
        if connection.closing:
            return
        chunks = connection.after_held([])
        if chunks and not connection.transport.is_closing():
            connection.write(chunks)  # the news that waited goes before the close
        connection.closing = True
        self.connections.pop(connection.conn, None)
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

    def drop(self, connection: Connection) -> None:
        connection.closing = True
        self.connections.pop(connection.conn, None)
        connection.transport.abort()
        self._dropped(connection.conn)
