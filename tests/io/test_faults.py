"""A bug inside a table is logged with the table's id and closes that table, with a
clear message to its people; the rest of the server goes on (protocol.md, Errors)."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from hundred_server.config import Listeners, Settings
from hundred_server.core.hub import Hub
from hundred_server.core.lobby import Lobby
from hundred_server.core.table import Table
from hundred_server.io.server import Server
from tests.core.test_table import person_vs_ai
from tests.support.hub_harness import (
    HELLO,
    QUESTION,
    Harness,
    answer_from_legal,
    check_stream,
    play_until_over,
)

BROKEN = {
    "Type": "Error",
    "Code": "internal_error",
    "Message": "table 1 stopped on an internal error (it is logged); its game is over",
}


def explode(*args: object, **kwargs: object) -> object:
    raise RuntimeError("boom")


def test_a_table_that_fails_on_an_answer_is_closed_and_its_people_told(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    h = Harness("fault")
    ann = person_vs_ai(h, 1)
    other = person_vs_ai(h, 3, "bob")  # another table, which must not notice
    prompt = ann.pending()
    assert prompt is not None
    with monkeypatch.context() as patch:
        patch.setattr(Table, "answer", explode)
        with caplog.at_level(logging.ERROR, logger="hundred_server"):
            told = ann.send(answer_from_legal(prompt, random.Random(0)))
    assert told == [BROKEN, QUESTION, HELLO]
    assert "table 1 failed; closing it" in caplog.text
    assert "RuntimeError: boom" in caplog.text
    assert list(h.hub.lobby.tables) == [2]
    assert all(t is h.hub.lobby.tables[2] for t in h.hub.lobby.tokens.values())
    # ann can play a new game; bob's game goes on to its end.
    ann.send({"Type": "Hello", "Message": "create"})
    ann.send({"Type": "Game", "Option": 3})
    play_until_over([other], random.Random(1))
    play_until_over([ann], random.Random(2))
    check_stream(other.messages, h.table_seeds())
    assert h.hub.lobby.tables == {}


def test_a_table_that_fails_on_a_timer_is_closed_too(monkeypatch: pytest.MonkeyPatch) -> None:
    h = Harness("fault-timer")
    ann = h.create("ann", Option=5, Seats=2, Bots=1, Clock=5)
    ann.take()
    monkeypatch.setattr(Table, "tick", explode)
    h.advance(5)
    assert ann.take() == [BROKEN, QUESTION, HELLO]
    assert h.hub.lobby.tables == {}
    assert h.hub.lobby.timers.next_deadline() is None


def test_a_table_that_fails_when_someone_leaves_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    h = Harness("fault-leave")
    ann = person_vs_ai(h, 4)  # option 4: waits for people
    bob = h.json_client("bob")
    bob.send({"Type": "Join", "Table": 1})
    ann.take()
    monkeypatch.setattr(Table, "drop", explode)
    bob.disconnect()
    assert ann.take() == [BROKEN, QUESTION, HELLO]
    assert h.hub.lobby.tables == {}


@pytest.mark.asyncio
async def test_a_bug_outside_any_table_closes_one_connection_not_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hub = Hub()
    server = Server(hub, Settings(listeners=Listeners("127.0.0.1", 0)))
    await server.start()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await reader.readline()
        await reader.readline()
        with monkeypatch.context() as patch:
            patch.setattr(Lobby, "_dispatch", explode)
            writer.write(b'{"Type":"Hello","Message":"create"}\n')
            line = await asyncio.wait_for(reader.readline(), 5)
            assert line == (
                b'{"Type":"Error","Code":"internal_error","Message":"the server hit an '
                b'internal error (it is logged); goodbye"}\n'
            )
            assert await asyncio.wait_for(reader.read(), 5) == b""
        writer.close()
        # A new connection is served as ever.
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        assert b"Do you want to join" in await asyncio.wait_for(reader.readline(), 5)
        writer.close()
    finally:
        await server.close()
