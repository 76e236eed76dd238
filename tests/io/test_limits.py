"""Limits: connections at once, the rate of lines that play no turn, lobby silence."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys

import pytest

from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.hub import Close, Hub, Send
from hundred_server.core.lobby import Limits
from hundred_server.io.server import Server
from tests.support.hub_harness import answer_from_legal

HELLO = b'{"Type":"Hello"}\n'


def messages(commands: list[Send | Close]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for command in commands:
        if isinstance(command, Send):
            out += [json.loads(line) for line in command.data.splitlines()]
    return out


def test_lines_that_play_no_turn_are_limited_and_then_refused_unread() -> None:
    hub = Hub(limits=Limits(rate=2.0, burst=3, max_refused=2), ai=AISettings("naive"))
    conn, _ = hub.connect()
    for _ in range(3):  # the burst: read, each answered with the question again
        assert messages(hub.receive(conn, HELLO, now=0.0))[-1] == {"Type": "Hello"}
    refused = messages(hub.receive(conn, b'{"Type":"Hello","Message":"quit"}\n', now=0.0))
    assert refused[0] == {
        "Type": "Error",
        "Code": "rate_limited",
        "Message": "slow down: at most 2 lines a second; that line was not read",
    }
    assert refused[1:] == [{"Type": "Hello"}]  # what it was asked, again; quit was not read
    assert conn in hub.lobby.sessions
    # Half a second later one token has come back: a line is read again.
    assert messages(hub.receive(conn, HELLO, now=0.5))[-1] == {"Type": "Hello"}
    assert messages(hub.receive(conn, HELLO, now=0.5))[0]["Code"] == "rate_limited"
    last = hub.receive(conn, HELLO, now=0.5)  # the third refused line: goodbye
    assert messages(last) == [
        {
            "Type": "Error",
            "Code": "rate_limited",
            "Message": "over 2 lines a second for too long; goodbye",
        }
    ]
    assert isinstance(last[-1], Close)
    assert conn not in hub.lobby.sessions


def test_answers_that_play_a_turn_are_never_counted() -> None:
    """A person against three AI seats answers as fast as it likes (all at one instant)."""
    limits = Limits(rate=1.0, burst=3, max_refused=0)
    hub = Hub(
        seed_source=lambda: "fast", limits=limits, ai=AISettings("naive")
    )  # its moves at once
    conn, _ = hub.connect()
    hub.receive(conn, b'{"Type":"Hello","Message":"create"}\n', now=0.0)
    out = messages(hub.receive(conn, b'{"Type":"Game","Option":1}\n', now=0.0))
    answered = 0
    while not any(m.get("GameOver") for m in out):
        prompt = next(m for m in reversed(out) if "Legal" in m)
        legal = prompt["Legal"]
        assert isinstance(legal, list)
        kind = prompt["Type"]
        answer: dict[str, object] = {"Type": kind, "Seq": prompt["Seq"]}
        if kind == "Bid":
            answer["Bid"] = 0 if 0 in legal else legal[0]
        elif kind == "Trump":
            answer["Trump"] = legal[0]
        elif kind == "Discard":
            answer["Cards"] = []
        else:
            answer["PlayedCard"] = legal[0]
        out = messages(hub.receive(conn, json.dumps(answer).encode(), now=0.0))
        assert all(m.get("Code") != "rate_limited" for m in out)
        answered += 1
    assert answered > 50


def test_answers_at_a_table_whose_ai_is_paced_are_never_counted() -> None:
    """The strong AI plays one move a tick, so an answer is not followed by a prompt at
    once (``Seq`` stays where it was until the AI has played): still a turn played."""
    limits = Limits(rate=1.0, burst=3, max_refused=0)
    hub = Hub(seed_source=lambda: "paced", limits=limits, ai=AISettings("strong", 10.0))
    conn, _ = hub.connect()
    hub.receive(conn, b'{"Type":"Hello","Message":"create","Game":"hundert"}\n', now=0.0)
    line = b'{"Type":"Game","Option":7,"Seats":2,"Bots":1}\n'
    out = messages(hub.receive(conn, line, now=0.0))
    rng = random.Random(5)
    answered = 0
    while not any(m.get("GameOver") for m in out):
        ticks = 0
        while not any("Legal" in m for m in out):  # the AI's moves, one a tick
            out += messages(hub.tick())
            ticks += 1
            assert ticks < 100, out
        prompt = next(m for m in reversed(out) if "Legal" in m)
        answer = json.dumps(answer_from_legal(prompt, rng)).encode()
        out = messages(hub.receive(conn, answer, now=0.0))
        assert all(m.get("Code") != "rate_limited" for m in out), out
        answered += 1
    assert answered > 10


@pytest.mark.asyncio
async def test_one_connection_over_the_maximum_is_told_server_full() -> None:
    server = Server(None, Settings(Limits(max_connections=2), Listeners(port=0)))
    await server.start()
    try:
        first = await asyncio.open_connection("127.0.0.1", server.port)
        second = await asyncio.open_connection("127.0.0.1", server.port)
        for reader, _ in (first, second):
            assert json.loads(await reader.readline())["Type"] == "Message"
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        line = await asyncio.wait_for(reader.readline(), 5)
        assert json.loads(line) == {
            "Type": "Error",
            "Code": "server_full",
            "Message": "the server is full (2 connections); try later",
        }
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed
        writer.close()
        first[1].close()  # a place comes free
        await asyncio.sleep(0.1)
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        assert json.loads(await asyncio.wait_for(reader.readline(), 5))["Type"] == "Message"
        writer.close()
        second[1].close()
    finally:
        await server.close()


@pytest.mark.asyncio
async def test_silence_in_the_lobby_ends_the_connection_but_not_at_a_table() -> None:
    server = Server(None, Settings(Limits(idle_timeout=0.3), Listeners(port=0)))
    await server.start()
    try:
        idle_reader, idle_writer = await asyncio.open_connection("127.0.0.1", server.port)
        seated_reader, seated_writer = await asyncio.open_connection("127.0.0.1", server.port)
        seated_writer.write(b'{"Type":"Hello","Message":"create"}\n{"Type":"Game","Option":4}\n')
        lines = (await asyncio.wait_for(idle_reader.read(), 5)).splitlines()
        assert json.loads(lines[-1]) == {
            "Type": "Error",
            "Code": "idle_timeout",
            "Message": "silent for 0.3 s in the lobby; goodbye",
        }
        idle_writer.close()
        # The person waiting at a table is still there, and still heard.
        await asyncio.sleep(0.5)
        seated_writer.write(b'{"Type":"Hello","Message":"quit"}\n')
        rest = (await asyncio.wait_for(seated_reader.read(), 5)).splitlines()
        assert json.loads(rest[-1]) == {"Type": "Message", "Message": "Ok, bye bye!"}
        seated_writer.close()
    finally:
        await server.close()


def test_the_default_fits_two_thousand_connections() -> None:
    assert Limits().max_connections == 2000


def test_make_room_raises_the_open_files_limit_to_fit(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import logging
    import resource

    from hundred_server.io.server import SPARE_FILES, make_room

    limits = {"soft": 1024, "hard": 4096}

    def get(which: int) -> tuple[int, int]:
        assert which == resource.RLIMIT_NOFILE
        return limits["soft"], limits["hard"]

    def set_(which: int, value: tuple[int, int]) -> None:
        assert which == resource.RLIMIT_NOFILE
        limits["soft"], limits["hard"] = value

    monkeypatch.setattr(resource, "getrlimit", get)
    monkeypatch.setattr(resource, "setrlimit", set_)
    with caplog.at_level(logging.INFO, logger="hundred_server"):
        make_room(2000)
    assert limits == {"soft": 2000 + SPARE_FILES, "hard": 4096}
    assert "raised from 1024" in caplog.text
    caplog.clear()
    make_room(10)  # room enough already: left alone
    assert limits["soft"] == 2000 + SPARE_FILES
    with caplog.at_level(logging.INFO, logger="hundred_server"):
        make_room(5000)  # more than the hard limit allows: as far as it goes, and said
    assert limits == {"soft": 4096, "hard": 4096}
    assert "room for about" in caplog.text


def test_a_server_process_tunes_the_collector() -> None:
    """``tune_gc`` (run at the start of ``serve``): start-up's objects frozen, young
    collections every ``GC_THRESHOLDS[0]`` allocations. In a process of its own: the
    collector's settings are the whole process's."""
    code = (
        "import gc\n"
        "from hundred_server.io.server import GC_THRESHOLDS, tune_gc\n"
        "assert gc.get_threshold() == (700, 10, 10), gc.get_threshold()\n"
        "assert gc.get_freeze_count() == 0\n"
        "tune_gc()\n"
        "assert gc.get_threshold() == GC_THRESHOLDS == (20_000, 20, 100)\n"
        "assert gc.get_freeze_count() > 1000, gc.get_freeze_count()\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok\n", "")
