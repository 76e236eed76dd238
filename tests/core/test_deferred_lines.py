"""Lines that wait unread for the commit (``Hub.waiting``, ``Hub.drain``): read later,
they do exactly what they would have done at once, in the order they came, and
nothing the hub is told meanwhile overtakes them."""

from __future__ import annotations

import json
import random
from typing import Any

from hundred_server.ai.pool import PoolLimits
from hundred_server.config import AISettings
from hundred_server.core.hub import Command, Hub, Send
from hundred_server.core.lobby import Limits
from hundred_server.core.table import Table
from hundred_server.core.waiting import MAX_DEFERRED
from tests.support.hub_harness import answer_from_legal, is_prompt

Message = dict[str, Any]


def new_hub() -> Hub:
    tokens = iter(range(10**6))
    return Hub(
        limits=Limits(rate=1000.0, burst=10**4),
        durable=True,
        seed_source=lambda: "deferred",
        token_source=lambda: f"token-{next(tokens)}",
        clock=lambda: 0.0,
        ai=AISettings("naive"),
    )


def line(msg: Message) -> bytes:
    return json.dumps(msg).encode() + b"\n"


def said(commands: list[Command], conn: int) -> list[Message]:
    return [
        json.loads(part)
        for c in commands
        if isinstance(c, Send) and c.conn == conn
        for part in c.data.splitlines()
    ]


def seated(hub: Hub) -> tuple[int, Message]:
    """A person alone with three AI at table 1, and her first prompt."""
    conn, _ = hub.connect()
    hub.receive(conn, line({"Type": "Hello", "Message": "create", "Name": "ann"}), 0.0)
    told = said(hub.receive(conn, line({"Type": "Game", "Option": 1}), 0.0), conn)
    return conn, next(m for m in told if is_prompt(m))


def table(hub: Hub) -> Table:
    return hub.lobby.tables[1]


def test_a_line_left_unread_does_what_it_would_have_done_at_once() -> None:
    now, later = new_hub(), new_hub()
    ann, prompt = seated(now)
    ann_later, same = seated(later)
    assert prompt == same
    rng = random.Random(5)
    for _ in range(12):  # a dozen answers, each read at once by one hub, later by the other
        answer = line(answer_from_legal(prompt, rng))
        at_once = now.receive(ann, answer, 1.0)
        later.waiting.on = True
        seq = table(later).seq
        assert later.receive(ann_later, answer, 1.0) == []  # unread
        assert (len(later.waiting), later.waiting.tables, table(later).seq) == (1, {1}, seq)
        later.waiting.on = False
        assert later.drain() == at_once  # the same bytes, to the same connections
        assert len(later.waiting) == 0
        assert later.waiting.tables == set()
        prompt = next(m for m in said(at_once, ann) if is_prompt(m))
    assert later.lobby.journal.take() == now.lobby.journal.take()  # the same saves


def test_the_lobby_is_read_at_once_and_after_what_waits() -> None:
    hub = new_hub()
    ann, prompt = seated(hub)
    bob, _ = hub.connect()
    hub.waiting.on = True
    hub.receive(ann, line(answer_from_legal(prompt, random.Random(1))), 1.0)
    assert len(hub.waiting) == 1
    out = hub.receive(bob, line({"Type": "Hello"}), 1.0)  # bob is in the lobby: read now
    assert len(hub.waiting) == 0
    conns = [c.conn for c in out if isinstance(c, Send)]
    assert conns[0] == ann  # ann's answer first: it came first
    assert conns[-1] == bob
    assert [m["Type"] for m in said(out, bob)] == ["Message", "Hello"]  # the question again


def test_every_other_event_reads_the_waiting_lines_first() -> None:
    for event in ("disconnect", "tick", "idle", "notice"):
        hub = new_hub()
        ann, prompt = seated(hub)
        moves = len(table(hub).game.history)  # type: ignore[union-attr]
        hub.waiting.on = True
        hub.receive(ann, line(answer_from_legal(prompt, random.Random(2))), 1.0)
        assert len(table(hub).game.history) == moves  # type: ignore[union-attr]
        if event == "disconnect":
            out = hub.disconnect(ann)
        elif event == "tick":
            out = hub.tick()
        elif event == "idle":
            out = hub.idle()
        else:
            out = hub.notice(ann, "rate_limited", "slow down", close=False)
        assert len(hub.waiting) == 0, event
        assert len(table(hub).game.history) > moves, event  # the answer was played
        if event != "disconnect":  # ann is told her answer first, as it came first
            assert said(out, ann)[0]["Type"] == prompt["Type"], event
            assert said(out, ann)[0]["Playerid"] == 0, event


def test_lines_wait_up_to_a_bound_then_each_is_read_as_it_comes() -> None:
    hub = new_hub()
    ann, _ = seated(hub)
    hub.waiting.on = True
    for _ in range(MAX_DEFERRED):
        assert hub.receive(ann, b"\n", 1.0) == []
    assert len(hub.waiting) == MAX_DEFERRED
    hub.receive(ann, b"\n", 1.0)  # one more: those that wait are read, then it
    assert len(hub.waiting) == 0


def test_a_binary_frame_and_a_lobby_line_never_wait() -> None:
    hub = new_hub()
    ann, _ = seated(hub)
    hub.waiting.on = True
    out = hub.receive(ann, b"\x00", 1.0, binary=True)
    assert [m["Code"] for m in said(out, ann) if m["Type"] == "Error"] == ["bad_json"]
    assert len(hub.waiting) == 0
    assert hub.receive(ann, b"\n", None) == []  # no clock (a test, an embedding): read now
    assert len(hub.waiting) == 0


def test_shutdown_drops_the_lines_that_wait_unread_and_saves_nothing_of_them() -> None:
    hub = new_hub()
    ann, prompt = seated(hub)
    hub.lobby.journal.take()
    game = table(hub).game
    assert game is not None
    moves = len(game.history)
    hub.waiting.on = True
    hub.receive(ann, line(answer_from_legal(prompt, random.Random(3))), 1.0)
    out = hub.shutdown()
    assert (hub.waiting.on, len(hub.waiting)) == (False, 0)
    assert len(game.history) == moves
    assert hub.lobby.journal.take() == []
    assert not any(m.get("Playerid") == 0 and m["Type"] == prompt["Type"] for m in said(out, ann))


def test_a_line_at_a_table_whose_ai_plays_in_the_pool_is_read_at_once() -> None:
    """The AI pool's move is asked for as soon as a line brings it on (an ask waits for
    no save): such a table's lines never wait for the commit."""
    hub = Hub(ai=AISettings("strong", pool=PoolLimits(1)), durable=True, clock=lambda: 0.0)
    ann, _ = hub.connect()
    hub.receive(ann, line({"Type": "Hello", "Message": "create", "Name": "ann"}), 0.0)
    hub.receive(ann, line({"Type": "Game", "Option": 1}), 0.0)
    assert table(hub).asks_elsewhere
    hub.waiting.on = True
    hub.receive(ann, b"\n", 1.0)
    assert len(hub.waiting) == 0
    naive = new_hub()
    bob, _ = seated(naive)
    assert not table(naive).asks_elsewhere
    naive.waiting.on = True
    naive.receive(bob, b"\n", 1.0)
    assert len(naive.waiting) == 1
