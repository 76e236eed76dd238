"""Plug-in bots at a real server over sockets on 127.0.0.1 (port 0): a plug-in that
sleeps, loops forever, allocates without end, raises, calls ``sys.exit`` or
``os._exit`` never holds up another connection, and its table finishes with the
default AI playing the moves it forfeits. Every wait is bounded; every worker is
reaped when the server closes (the ``plugin_dir`` fixture checks)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from hundred_server.ai.plugins import BotLimits, Plugin, load_plugin
from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.hub import Hub
from hundred_server.core.remote import STRIKES
from hundred_server.io.server import Server
from tests.support.hub_harness import answer_from_legal
from tests.support.live_server import server_process, started
from tests.support.peer import Peer, play

GAME_TIMEOUT = 30.0
TIMEOUT = 0.25  # the plug-ins' time limit a move here
LIMITS = BotLimits(timeout=TIMEOUT, memory=128 << 20)
LOCAL = Listeners("127.0.0.1", 0)

Message = dict[str, Any]


@contextlib.asynccontextmanager
async def serving(plugin: Plugin) -> AsyncIterator[Server]:
    ai = AISettings(plugins=(plugin,), bot_limits=LIMITS)
    server = Server(Hub(seed_source=lambda: "plug-ins"), Settings(listeners=LOCAL, ai=ai))
    async with started(server):
        yield server


@pytest.mark.parametrize(
    ("name", "stuck"),
    [
        ("sleeper", True),
        ("looper", True),
        ("hog", False),
        ("raiser", False),
        ("exiter", False),
        ("killer", False),
    ],
)
@pytest.mark.asyncio
async def test_a_hostile_plugin_holds_up_nobody_and_its_table_finishes(
    name: str, stuck: bool, plugin_dir: Path
) -> None:
    plugin = load_plugin(f"whist={name}:Player", LIMITS)
    async with serving(plugin) as server:
        bob = await Peer.greeted(server.port, "bob")
        ann = await Peer.greeted(server.port, "ann")
        await ann.send({"Type": "Hello", "Message": "create", "Game": "whist"})
        await ann.send({"Type": "Game", "Option": 1})  # three AI seats; seat 1 leads
        loop = asyncio.get_running_loop()
        started = loop.time()
        # While seat 1's plug-in is on its first move, bob's lobby request is answered.
        await bob.send({"Type": "Hello", "Message": "join"})
        assert await bob.recv() == {"Type": "Tables", "Tables": []}
        answered = loop.time()
        over = await asyncio.wait_for(play(ann, random.Random(1)), GAME_TIMEOUT)
        assert over is not None
        assert over["Type"] == "Score"
        first_ai_play = next(
            when
            for when, m in zip(ann.times, ann.messages, strict=True)
            if m.get("Type") == "Play" and m.get("Playerid") == 1 and "PlayedCard" in m
        )
        assert answered < first_ai_play  # bob did not wait for the plug-in
        if stuck:  # ...which really was stuck for its whole time limit
            assert first_ai_play - started >= TIMEOUT
        assert server.hub.lobby.forfeits[plugin.label] >= 3 * STRIKES  # every AI seat forfeited
        assert server.hub.lobby.tables == {}
        await bob.close()
        await ann.close()


@pytest.mark.asyncio
async def test_a_good_plugin_plays_its_seats_at_a_server(plugin_dir: Path) -> None:
    plugin = load_plugin("whist=good_player:Player", LIMITS)
    async with serving(plugin) as server:
        ann = await Peer.greeted(server.port, "ann")
        await ann.send({"Type": "Hello", "Message": "create", "Game": "whist"})
        await ann.send({"Type": "Game", "Option": 1})
        await asyncio.wait_for(play(ann, random.Random(2)), GAME_TIMEOUT)
        assert server.hub.lobby.forfeits == {}
        runner = server.runner
        assert runner is not None
        for _ in range(250):  # the table is over: its workers are killed, then reaped
            if not runner.workers:
                break
            await asyncio.sleep(0.02)
        assert runner.workers == 0
        await ann.close()


@pytest.mark.asyncio
async def test_workers_of_a_table_under_way_are_stopped_when_the_server_closes(
    plugin_dir: Path,
) -> None:
    plugin = load_plugin("whist=looper:Player", BotLimits(timeout=30.0))
    ai = AISettings(plugins=(plugin,), bot_limits=BotLimits(timeout=30.0))
    server = Server(Hub(seed_source=lambda: "closing"), Settings(listeners=LOCAL, ai=ai))
    await server.start()
    try:
        ann = await Peer.greeted(server.port, "ann")
        await ann.send({"Type": "Hello", "Message": "create", "Game": "whist"})
        await ann.send({"Type": "Game", "Option": 1})
        assert server.runner is not None
        for _ in range(250):  # seat 1's worker starts and gets stuck
            if server.runner.workers:
                break
            await asyncio.sleep(0.02)
        assert server.runner.workers == 1
    finally:
        await server.close()
    assert server.runner.workers == 0  # killed and reaped (the fixture checks the pids)
    await ann.close()


def test_serve_with_the_example_bot_plays_a_game(tmp_path: Path) -> None:
    """The command line end to end: ``--bot`` with the project's example bot."""
    import socket

    args = ("--bot", "whist=clients.whist_bot:Player", "--bot-timeout", "2", "--bot-memory", "200")
    with server_process(*args) as port, socket.create_connection(("127.0.0.1", port), 10) as s:
        s.settimeout(10)
        file = s.makefile("rwb")
        rng = random.Random(3)
        file.write(b'{"Type":"Hello","Message":"create","Game":"whist"}\n')
        file.write(b'{"Type":"Game","Option":1}\n')
        file.flush()
        for _ in range(5000):
            msg = json.loads(file.readline())
            if msg.get("GameOver"):
                break
            if "Legal" in msg and "Seq" in msg:
                file.write(json.dumps(answer_from_legal(msg, rng)).encode() + b"\n")
                file.flush()
        assert msg.get("GameOver") is True
