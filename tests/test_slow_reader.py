"""A client that stops reading is dropped once its outgoing bytes pass the bound."""

from __future__ import annotations

import asyncio
import json
import logging
import socket

import pytest

from hundred_server.lobby import Hub, Limits
from hundred_server.server import Server


@pytest.mark.asyncio
async def test_a_client_that_stops_reading_is_dropped_and_the_server_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limits = Limits(rate=1e9, burst=10**9)  # this client is slow to read, not fast to send
    server = Server(Hub(limits=limits), port=0, outgoing_limit=64 * 1024, limits=limits)
    await server.start()
    try:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # fill up soon
        sock.connect(("127.0.0.1", server.port))
        sock.setblocking(False)
        _, writer = await asyncio.open_connection(sock=sock)
        # Each pair of lines brings back the seven create options, the Game prompt, the
        # question and Hello: about 700 bytes that this client never reads.
        chatter = b'{"Type":"Hello","Message":"create"}\n{"Type":"Game","Option":6}\n' * 500
        with caplog.at_level(logging.WARNING, logger="hundred_server"):
            for _ in range(400):  # bounded: about 280 MB of replies at the very most
                try:
                    writer.write(chatter)
                    await asyncio.wait_for(writer.drain(), 2)
                except (ConnectionError, OSError, TimeoutError):
                    break
                if not server.hub.sessions:
                    break
        assert server.hub.sessions == {}, "the silent reader is still connected"
        assert "is not reading: dropped" in caplog.text
        writer.close()
        # Nobody else waited on it: a new client is greeted at once.
        reader, other = await asyncio.open_connection("127.0.0.1", server.port)
        assert json.loads(await asyncio.wait_for(reader.readline(), 5))["Type"] == "Message"
        other.close()
    finally:
        await server.close()
