"""A client that stops reading is dropped once its outgoing bytes pass the bound, and
never holds up its table or anyone else."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import socket

import pytest

from hundred_server.config import Listeners, Settings
from hundred_server.core.hub import Hub
from hundred_server.core.lobby import Limits
from hundred_server.io.server import Server
from tests.support.hub_harness import answer_from_legal, check_stream, is_prompt


async def flood_until_dropped(
    server: Server, writer: asyncio.StreamWriter, chatter: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """Send ``chatter`` (lines that each bring replies) on a connection that never
    reads, until the server drops it; assert it did, and said so."""
    with caplog.at_level(logging.WARNING, logger="hundred_server"):
        for _ in range(400):  # bounded: about 280 MB of replies at the very most
            try:
                writer.write(chatter)
                await asyncio.wait_for(writer.drain(), 2)
            except (ConnectionError, OSError, TimeoutError):
                break
            if not server.hub.lobby.sessions:
                break
    assert server.hub.lobby.sessions == {}, "the silent reader is still connected"
    assert "is not reading: dropped" in caplog.text


@pytest.mark.asyncio
async def test_a_client_that_stops_reading_is_dropped_and_the_server_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limits = Limits(rate=1e9, burst=10**9)  # this client is slow to read, not fast to send
    settings = Settings(limits, Listeners(port=0))
    server = Server(Hub(limits=limits), settings, outgoing_limit=64 * 1024)
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
        await flood_until_dropped(server, writer, chatter, caplog)
        writer.close()
        # Nobody else waited on it: a new client is greeted at once.
        reader, other = await asyncio.open_connection("127.0.0.1", server.port)
        assert json.loads(await asyncio.wait_for(reader.readline(), 5))["Type"] == "Message"
        other.close()
    finally:
        await server.close()


@pytest.mark.asyncio
async def test_a_table_finishes_while_one_of_its_people_never_reads() -> None:
    """bob sits down and then neither reads nor answers. His turns run out on the clock
    (or, once his unread bytes pass the bound, he is dropped and the AI takes over after
    the grace period); ann's game goes on to its end either way."""
    limits = Limits(turn_timeout=0.02, grace=0.05)
    server = Server(
        Hub(seed_source=lambda: "slow-table", limits=limits),
        Settings(limits, Listeners(port=0)),
        outgoing_limit=16 * 1024,
    )
    await server.start()
    try:
        async with asyncio.timeout(60):
            ann_r, ann_w = await asyncio.open_connection("127.0.0.1", server.port)
            bob = socket.socket()
            bob.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
            bob.connect(("127.0.0.1", server.port))
            ann_w.write(
                b'{"Type":"Hello","Message":"create","Name":"ann"}\n'
                b'{"Type":"Game","Option":5,"Seats":3,"Bots":1}\n'
            )
            bob.sendall(b'{"Type":"Join","Table":1,"Playerid":2}\n')  # and no more
            messages: list[dict[str, object]] = []
            rng = random.Random(3)
            while True:
                msg = json.loads(await ann_r.readline())
                messages.append(msg)
                if msg.get("GameOver"):
                    break
                if is_prompt(msg) and "Legal" in msg:
                    ann_w.write(json.dumps(answer_from_legal(msg, rng)).encode() + b"\n")
            said = [m["Message"] for m in messages if m["Type"] == "Message"]
            assert any(s.startswith("player2 ran out of time") for s in said)
            assert check_stream(messages, {1: "slow-table"}) == 1
            assert server.hub.lobby.tables == {}
            ann_w.close()
            bob.close()
    finally:
        await server.close()
