"""The asyncio TCP server: accept, read lines, write lines, shut down. Thin glue.

Everything the server decides is decided by ``Hub`` (lobby.py) without I/O; this
module reads lines into it and writes what it returns. Each connection has its own
bounded outgoing queue and writer task, so a client that stops reading only ever waits
on itself; when its queue is full it is dropped (and treated as a disconnect).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from dataclasses import dataclass, field
from typing import Final

from hundred_server.lobby import Close, Command, Hub, Send
from hundred_server.protocol import MAX_LINE

log = logging.getLogger("hundred_server")

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 7110
#: Messages waiting for one client before it counts as not reading, and is dropped.
OUTGOING_QUEUE: Final = 1024
#: How long shutdown waits for goodbyes to be written.
SHUTDOWN_GRACE: Final = 3.0


@dataclass
class _Connection:
    conn: int
    writer: asyncio.StreamWriter
    queue: asyncio.Queue[bytes | None]
    closing: bool = False
    writer_task: asyncio.Task[None] | None = field(default=None, repr=False)


class Server:
    """``await start()``, then ``port`` is bound; ``await close()`` stops it (idempotent)."""

    def __init__(
        self,
        hub: Hub | None = None,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        queue_size: int = OUTGOING_QUEUE,
    ) -> None:
        self.hub = hub or Hub()
        self.host = host
        self.requested_port = port
        self.queue_size = queue_size
        self._server: asyncio.Server | None = None
        self._connections: dict[int, _Connection] = {}
        self._handlers: set[asyncio.Task[None]] = set()
        self._closed = False

    @property
    def port(self) -> int:
        assert self._server is not None, "start() first"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def start(self) -> None:
        # The stream limit lets a line of MAX_LINE bytes plus "\r\n" through; the hub
        # measures the line itself, so one byte more is refused either way.
        self._server = await asyncio.start_server(
            self._handle, self.host, self.requested_port, limit=MAX_LINE + 2
        )
        log.info("listening on %s:%d", self.host, self.port)

    async def close(self) -> None:
        if self._closed or self._server is None:
            return
        self._closed = True
        self._server.close()
        self._dispatch(self.hub.shutdown())
        writers = [c.writer_task for c in self._connections.values() if c.writer_task]
        if writers:
            await asyncio.wait(writers, timeout=SHUTDOWN_GRACE)
        for task in list(self._handlers):
            task.cancel()
        if self._handlers:
            await asyncio.wait(self._handlers, timeout=SHUTDOWN_GRACE)
        for connection in list(self._connections.values()):
            connection.writer.transport.abort()
        log.info("stopped")

    # ------------------------------------------------------------------ a client

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        peer = writer.get_extra_info("peername")
        conn, commands = self.hub.connect(f"{peer[0]}:{peer[1]}" if peer else "")
        connection = _Connection(conn, writer, asyncio.Queue(self.queue_size))
        connection.writer_task = asyncio.create_task(self._write_loop(connection))
        self._connections[conn] = connection
        self._dispatch(commands)
        try:
            while not connection.closing:
                try:
                    line = await reader.readuntil(b"\n")
                except asyncio.IncompleteReadError as exc:  # end of stream
                    if exc.partial.strip():
                        self._dispatch(self.hub.receive(conn, exc.partial))
                    break
                except asyncio.LimitOverrunError:
                    self._dispatch(self.hub.line_too_long(conn))
                    break
                self._dispatch(self.hub.receive(conn, line))
        except (ConnectionError, OSError) as exc:
            log.info("connection %d: %s", conn, exc)
        finally:
            self._dispatch(self.hub.disconnect(conn))
            self._close(connection)
            self._handlers.discard(task)

    async def _write_loop(self, connection: _Connection) -> None:
        writer, queue = connection.writer, connection.queue
        try:
            while True:
                data = await queue.get()
                if data is None:
                    break
                chunks = [data]
                while not queue.empty():  # send what is waiting in one write
                    more = queue.get_nowait()
                    if more is None:
                        connection.closing = True
                        break
                    chunks.append(more)
                writer.write(b"".join(chunks))
                await writer.drain()
                if connection.closing and queue.empty():
                    break
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await writer.wait_closed()
            self._connections.pop(connection.conn, None)

    def _dispatch(self, commands: list[Command]) -> None:
        for command in commands:
            connection = self._connections.get(command.conn)
            if connection is None:
                continue
            if isinstance(command, Close):
                self._close(connection)
            elif isinstance(command, Send) and not connection.closing:
                try:
                    connection.queue.put_nowait(command.data)
                except asyncio.QueueFull:
                    log.warning("connection %d is not reading: dropped", command.conn)
                    self._drop(connection)

    def _close(self, connection: _Connection) -> None:
        """Close after what is queued has been written."""
        if connection.closing:
            return
        connection.closing = True
        try:
            connection.queue.put_nowait(None)
        except asyncio.QueueFull:
            self._drop(connection)

    def _drop(self, connection: _Connection) -> None:
        connection.closing = True
        connection.writer.transport.abort()
        if connection.writer_task is not None:
            connection.writer_task.cancel()
        self._connections.pop(connection.conn, None)
        self._dispatch(self.hub.disconnect(connection.conn))


def _env_port(default: int) -> int:
    value = os.environ.get("HUNDRED_PORT")
    return int(value) if value else default


async def run(host: str, port: int) -> None:
    """Serve until SIGINT or SIGTERM, then shut down in order."""
    server = Server(host=host, port=port)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    print(
        f"hundred_server listening on {host}:{server.port} "
        f"(try: nc {host} {server.port}); Ctrl-C stops it",
        flush=True,
    )
    try:
        await stop.wait()
        log.info("signal received: shutting down")
    finally:
        await server.close()
