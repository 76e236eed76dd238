"""News that may wait: the hub marks what a bystander is told (``Send.news``), and the
server holds it, ``NEWS_WAIT`` at most, to go out in one write with what comes for that
connection next. A prompt, a client's own answer and anything in the lobby but others'
chat never wait, and each connection's bytes keep their order (lobby chat as news:
test_chat_budget.py)."""

from __future__ import annotations

import asyncio
import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from hundred_server.config import Listeners, Settings
from hundred_server.core.hub import Close, Hub, Send
from hundred_server.io.outbox import NEWS_WAIT
from hundred_server.io.outbox import Connection as _Connection
from hundred_server.io.server import Server
from tests.support.hub_harness import Client, Harness, answer_from_legal

Message = dict[str, Any]


def people_at_table_1(h: Harness) -> list[Client]:
    """Four people at a people-only table (its game under way), seats 0 to 3."""
    ann = h.create("ann", Option=5, Seats=4, Bots=0, Name="news")
    people = [ann]
    for name in ("bob", "cat", "dan"):
        person = h.json_client(name)
        person.send({"Type": "Hello", "Message": "join"})
        person.send({"Type": "Join", "Table": 1})
        people.append(person)
    return people


def answer(h: Harness, client: Client, msg: Message) -> dict[int, Send]:
    """``client`` sends ``msg``: the Sends it brings, by connection (one each)."""
    commands = h.hub.receive(client.conn, json.dumps(msg).encode())
    h.apply(commands)
    sends = [c for c in commands if isinstance(c, Send)]
    assert len({s.conn for s in sends}) == len(sends)
    return {s.conn: s for s in sends}


def test_only_a_bystanders_news_may_wait_never_a_prompt_or_an_answers_reply() -> None:
    h = Harness("news")
    people = people_at_table_1(h)
    watcher = h.watcher(1)
    lobby = h.json_client("lou")  # in the lobby all game long: told nothing
    rng = random.Random(7)
    answers = 0
    while (actor := next((p for p in people if p.pending()), None)) is not None:
        prompt = actor.pending()
        assert prompt is not None
        sends = answer(h, actor, answer_from_legal(prompt, rng))
        answers += 1
        to_act = [p.conn for p in people if p.pending()]
        assert len(to_act) <= 1
        assert lobby.conn not in sends
        if people[0].game_over() is not None:  # everyone is back in the lobby
            assert not any(s.news for s in sends.values())
            break
        assert set(sends) == {p.conn for p in people} | {watcher.conn}
        assert sends[actor.conn].news is False  # the reply to its own line
        assert sends[to_act[0]].news is False  # the prompt
        for conn, send in sends.items():
            assert send.news is (conn not in (actor.conn, to_act[0]))
            if send.news:  # no prompt for an answer ever waits
                assert b'"Legal"' not in send.data
    assert answers > 40
    assert people[0].game_over() is not None


def test_a_refused_line_is_answered_at_once_even_out_of_turn() -> None:
    h = Harness("news-refused")
    people = people_at_table_1(h)
    bystander = next(p for p in people if not p.pending())
    sends = answer(h, bystander, {"Type": "Play", "Playerid": 0, "Seq": 999, "Card": "5H"})
    assert list(sends) == [bystander.conn]
    assert sends[bystander.conn].news is False
    assert json.loads(sends[bystander.conn].data.splitlines()[0])["Type"] == "Error"


class Transport:
    """What ``_Connection`` writes to: a record of the writes and the close."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = self.aborted = False
        self.buffered = 0  # what get_write_buffer_size says

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closed or self.aborted

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True


def server_with(*conns: int) -> tuple[Server, dict[int, Transport]]:
    server = Server(Hub(), Settings(listeners=Listeners(port=0)))
    transports = {conn: Transport() for conn in conns}
    for conn, transport in transports.items():
        server._connections[conn] = _Connection(conn, transport)  # type: ignore[arg-type]
    return server, transports


@pytest.mark.asyncio
async def test_news_waits_for_the_next_bytes_and_goes_out_with_them_in_order() -> None:
    server, t = server_with(1, 2)
    server._send([Send(1, b"a\n", news=True), Send(2, b"b\n")])
    assert t[1].writes == []
    assert t[2].writes == [b"b\n"]
    server._send([Send(1, b"c\n", news=True)])
    server._send([Send(1, b"d\n")])  # a prompt, say: it goes at once, the news before it
    assert t[1].writes == [b"a\nc\nd\n"]
    await asyncio.sleep(3 * NEWS_WAIT)
    assert t[1].writes == [b"a\nc\nd\n"]  # nothing was left to write
    assert t[2].writes == [b"b\n"]


@pytest.mark.asyncio
async def test_news_that_nothing_follows_goes_out_after_the_wait() -> None:
    server, t = server_with(1, 2)
    server._send([Send(1, b"a\n", news=True), Send(2, b"b\n", news=True)])
    server._send([Send(1, b"c\n", news=True)])
    assert t[1].writes == t[2].writes == []
    await asyncio.sleep(3 * NEWS_WAIT)
    assert t[1].writes == [b"a\nc\n"]
    assert t[2].writes == [b"b\n"]


@pytest.mark.asyncio
async def test_a_closing_connection_gets_its_news_first_and_a_dropped_one_none() -> None:
    server, t = server_with(1, 2)
    server._send([Send(1, b"a\n", news=True), Send(2, b"b\n", news=True)])
    server._send([Close(1)])
    assert t[1].writes == [b"a\n"]
    assert t[1].closed
    server._drop(server._connections[2])
    await asyncio.sleep(3 * NEWS_WAIT)
    assert t[1].writes == [b"a\n"]
    assert t[2].writes == []


@pytest.mark.asyncio
async def test_news_for_a_client_that_stopped_reading_drops_it_when_written() -> None:
    server, t = server_with(1)
    server._send([Send(1, b"a\n", news=True)])
    t[1].buffered = server.outgoing_limit + 1
    await asyncio.sleep(3 * NEWS_WAIT)
    assert t[1].writes == [b"a\n"]
    assert t[1].aborted
    assert 1 not in server._connections


def test_to_act_is_the_seat_the_game_waits_for_and_the_rest_are_bystanders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = Harness("news-to-act")
    people = people_at_table_1(h)
    watcher = h.watcher(1)
    lobby = h.json_client("lou")
    acting = [p.conn for p in people if h.hub.lobby.to_act(p.conn)]
    assert acting == [p.conn for p in people if p.pending()]
    assert len(acting) == 1
    assert not h.hub.lobby.to_act(watcher.conn)
    assert not h.hub.lobby.to_act(lobby.conn)
    assert not h.hub.lobby.to_act(10**6)  # no such connection
    bystanders = [c for c in (*(p.conn for p in people), watcher.conn) if h.hub.lobby.bystander(c)]
    assert bystanders == [*(p.conn for p in people if p.conn not in acting), watcher.conn]
    assert not h.hub.lobby.bystander(lobby.conn)
    table = h.hub.lobby.tables[1]
    monkeypatch.setattr(table, "game", SimpleNamespace(to_act=None))  # nobody's turn
    assert not any(h.hub.lobby.to_act(c) for c in [*(p.conn for p in people), watcher.conn])
