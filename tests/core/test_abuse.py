"""Abuse and faults, without sockets (the hub and lobby): churn, floods, per-address
limits, silent connections, reserved names, bad store rows (protocol.md, Limits).

Each test here failed on the server before it was hardened (issue: hold up under
abuse and faults); the socket-level ones are in test_store_faults.py."""

from __future__ import annotations

import json
import random

import pytest

from hundred_server.core.hub import Close, Hub, Send
from hundred_server.core.journal import GameDropped, GameEnded, GameStarted, Moves, StoredGame
from hundred_server.core.lobby import Limits
from hundred_server.core.timers import TICK_BATCH
from hundred_server.games.records import record_lines
from tests.support.hub_harness import Client, Harness, answer_from_legal

CREATE = {"Type": "Hello", "Message": "create", "Name": "churn"}


def connect(h: Harness, address: str | None) -> Client:
    conn, commands = h.hub.connect("test", address=address)
    client = Client(h, conn)
    h.clients[conn] = client
    h.apply(commands)
    client.take()
    return client


def create(client: Client, option: int = 1, **fields: object) -> list[dict[str, object]]:
    client.send(CREATE)
    return client.send({"Type": "Game", "Option": option, **fields})


def codes(messages: list[dict[str, object]]) -> list[object]:
    return [m["Code"] for m in messages if m.get("Type") == "Error"]


# ---------------------------------------------------------------------- 1. churn


def test_a_table_nobody_played_in_is_forgotten_when_the_grace_ends() -> None:
    """Connect, create against the AI, hang up: when the grace ends the table is gone,
    the AI played nothing, and the store is told to forget it (not keep it)."""
    h = Harness("churn", durable=True)
    client = connect(h, "10.0.0.1")
    create(client)
    started = h.hub.lobby.journal.take()
    assert [type(w) for w in started] == [GameStarted, Moves]
    client.disconnect()
    assert h.hub.lobby.journal.take() == []
    h.advance(h.hub.lobby.limits.grace + 1)
    assert h.hub.lobby.tables == {}
    assert h.hub.lobby.tokens == {}
    assert h.hub.lobby.journal.take() == [GameDropped(1)]
    assert h.hub.lobby.timers.next_deadline() is None


def test_a_table_a_person_played_in_is_kept_when_they_leave() -> None:
    h = Harness("kept", durable=True)
    client = connect(h, "10.0.0.1")
    create(client)
    prompt = client.pending()  # the AI seats act at once, up to the person's turn
    assert prompt is not None
    assert "Legal" in prompt
    client.send(answer_from_legal(prompt, random.Random(1)))
    h.hub.lobby.journal.take()
    client.send({"Type": "Hello", "Message": "quit"})
    writes = h.hub.lobby.journal.take()
    assert not any(isinstance(w, GameDropped) for w in writes)
    assert any(isinstance(w, GameEnded) and w.state == "abandoned" for w in writes)


def test_tables_per_address_are_limited() -> None:
    h = Harness("limit")
    h.hub.lobby.limits = Limits(max_tables_per_address=3, max_waiting_per_address=1)
    for _ in range(3):  # three games against the AI, each creator gone
        client = connect(h, "10.0.0.1")
        assert codes(create(client)) == []
        client.disconnect()
    refused = create(connect(h, "10.0.0.1"))
    assert codes(refused) == ["too_many_tables"]
    assert refused[-1] == {"Type": "Game"}  # asked again, nothing created
    assert len(h.hub.lobby.tables) == 3
    assert codes(create(connect(h, "10.0.0.2"))) == []  # another address is not affected
    assert codes(create(connect(h, None))) == []  # nor a connection with no address
    h.advance(h.hub.lobby.limits.grace + 1)  # the abandoned tables go: room again
    assert codes(create(connect(h, "10.0.0.1"))) == []


def test_tables_waiting_for_players_per_address_are_limited() -> None:
    h = Harness("waiting")
    h.hub.lobby.limits = Limits(max_waiting_per_address=1)
    first = connect(h, "10.0.0.1")
    assert codes(create(first, option=4)) == []  # a people-only table: it waits
    second = connect(h, "10.0.0.1")
    refused = create(second, option=4)
    assert codes(refused) == ["too_many_waiting"]
    assert "1 tables from your address already wait" in str(refused[0]["Message"])
    assert codes(create(second, option=1)) == ["too_many_waiting"]
    first.send({"Type": "Hello", "Message": "quit"})  # its table closes
    assert codes(create(second, option=4)) == []


def test_connections_per_address_are_limited() -> None:
    hub = Hub(limits=Limits(max_connections_per_address=2, max_connections=5))
    first, _ = hub.connect("a", address="10.0.0.1")
    hub.connect("b", address="10.0.0.1")
    refusal = hub.admit("10.0.0.1")
    assert refusal is not None
    assert refusal[0] == "too_many_connections"
    assert hub.admit("10.0.0.2") is None
    hub.disconnect(first)
    assert hub.admit("10.0.0.1") is None
    for n in range(4):  # five in all now
        hub.connect(str(n), address=f"10.0.1.{n}")
    full = hub.admit("10.0.0.9")
    assert full is not None
    assert full[0] == "server_full"


def test_tokens_of_ended_tables_are_forgotten_table_by_table() -> None:
    h = Harness("tokens")
    clients = []
    for _ in range(20):
        client = connect(h, None)
        create(client)
        clients.append(client)
    assert len(h.hub.lobby.tokens) == 20
    for client in clients:
        client.send({"Type": "Hello", "Message": "quit"})
    assert h.hub.lobby.tokens == {}
    assert all(not h.hub.lobby.tokens.issued_at(t) for t in h.hub.lobby.tables)


def test_a_burst_of_deadlines_is_ticked_in_batches() -> None:
    """Many tables whose grace ends at once are let act a batch per tick, the rest due
    at once, so one timer callback never plays them all."""
    h = Harness("burst")
    count = 2 * TICK_BATCH + 5
    for _ in range(count):
        client = connect(h, None)
        create(client)
        client.disconnect()
    h.now += h.hub.lobby.limits.grace + 1
    ticks = 0
    while (deadline := h.hub.lobby.timers.next_deadline()) is not None and deadline <= h.now:
        before = len(h.hub.lobby.tables)
        h.apply(h.hub.tick())
        assert before - len(h.hub.lobby.tables) <= TICK_BATCH
        ticks += 1
    assert h.hub.lobby.tables == {}
    assert ticks == 3


# ---------------------------------------------------------------------- 2. floods


def test_blank_lines_count_against_the_rate() -> None:
    hub = Hub(limits=Limits(rate=2.0, burst=3, max_refused=2))
    conn, _ = hub.connect()
    for _ in range(3):
        assert hub.receive(conn, b"\n", now=0.0) == []
    refused = hub.receive(conn, b"\n", now=0.0)
    body = [
        json.loads(line) for c in refused if isinstance(c, Send) for line in c.data.splitlines()
    ]
    assert body[0]["Code"] == "rate_limited"
    hub.receive(conn, b"\n", now=0.0)
    last = hub.receive(conn, b"\n", now=0.0)
    assert isinstance(last[-1], Close)
    assert conn not in hub.links


def test_timers_cannot_pile_up() -> None:
    """At a table with a turn clock, thousands of lines (refused ones, blank ones) leave
    the deadline heap as small as the tables."""
    h = Harness("clock")
    client = connect(h, None)
    create(client, option=5, Seats=4, Bots=3, Clock=3600)
    assert h.hub.lobby.timers.next_deadline() is not None
    for n in range(3000):
        client.send({"Type": "Bid", "Bid": 7} if n % 2 else b"\n")
    assert h.hub.lobby.timers.entries <= 2 * len(h.hub.lobby.tables) + 64


# ------------------------------------------------------------ 5, 8. silent connections


def test_a_connection_sent_back_to_the_lobby_gets_the_lobby_idle_limit() -> None:
    h = Harness("idle")
    h.hub.lobby.limits = Limits(idle_timeout=100.0, table_idle_timeout=1000.0)
    ann = connect(h, None)
    create(ann)
    token = next(m for m in ann.messages if m.get("Type") == "Seat")["Token"]
    h.advance(99)
    h.apply(h.hub.idle())
    assert not ann.closed  # at a table: the table's limit
    other = connect(h, None)
    other.send({"Type": "Hello", "Token": token})  # takes the seat: ann is back in the lobby
    assert ann.messages[-1] == {"Type": "Hello"}
    h.advance(99)
    h.apply(h.hub.idle())
    assert not ann.closed  # its lobby clock started when it came back
    h.advance(2)
    h.apply(h.hub.idle())
    assert ann.closed
    assert ann.messages[-1] == {
        "Type": "Error",
        "Code": "idle_timeout",
        "Message": "silent for 100 s in the lobby; goodbye",
    }


def test_a_silent_seated_connection_times_out() -> None:
    h = Harness("seated")
    h.hub.lobby.limits = Limits(idle_timeout=10.0, table_idle_timeout=50.0)
    ann = connect(h, None)
    create(ann, option=4)  # waits for three more people
    h.advance(49)
    h.apply(h.hub.idle())
    assert not ann.closed
    h.advance(2)
    h.apply(h.hub.idle())
    assert ann.closed
    assert ann.messages[-1]["Message"] == "silent for 50 s at a table; goodbye"
    assert h.hub.lobby.tables == {}  # its waiting table closed with it


def test_any_line_resets_the_idle_clock() -> None:
    h = Harness("alive")
    h.hub.lobby.limits = Limits(idle_timeout=10.0)
    ann = connect(h, None)
    for _ in range(5):
        h.advance(9)
        ann.send(b"\n")
        h.apply(h.hub.idle())
    assert not ann.closed


# ---------------------------------------------------------------------- 9. names


@pytest.mark.parametrize("name", ["you", "You", "AI", "AI 1", "ai 12", "player3", "me", "server"])
def test_reserved_names_are_refused(name: str) -> None:
    h = Harness("names")
    client = connect(h, None)
    said = client.send({"Type": "Hello", "Name": name})
    assert said[0]["Code"] == "bad_name"
    assert "reserved" in said[0]["Message"]
    assert h.hub.lobby.sessions[client.conn].name == f"player{client.conn}"


@pytest.mark.parametrize("name", ["youth", "aida", "AI-1x", "players", "Yours"])
def test_names_that_only_look_reserved_are_fine(name: str) -> None:
    h = Harness("names")
    client = connect(h, None)
    assert client.send({"Type": "Hello", "Name": name})[0]["Message"] == f"Hello, {name}."


# ---------------------------------------------------------------------- 7. bad rows


def _stored(game_id: int, h: Harness) -> StoredGame:
    """A real game under way, as the store would give it back."""
    client = connect(h, None)
    create(client)
    table = h.hub.lobby.tables[max(h.hub.lobby.tables)]
    assert table.game is not None
    return StoredGame(
        id=game_id,
        game=table.game_name,
        name=table.name,
        seed=table.seed,
        clock=None,
        seq=table.seq,
        state="playing",
        started="2026-12-01T00:00:00+00:00",
        finished=None,
        result=None,
        seats=[
            (n or "", f"{game_id:064x}" if i == 0 else None) for i, n in enumerate(table.names())
        ],
        lines=record_lines(table.game),
    )


def test_bad_store_rows_mark_their_game_failed_and_the_rest_is_restored() -> None:
    source = Harness("rows")
    good = _stored(1, source)
    unknown_game = _stored(2, source)
    unknown_game.game = "chess"
    few_seats = _stored(3, source)
    few_seats.seats = few_seats.seats[:1]
    bad_lines = _stored(4, source)
    bad_lines.lines = ["{not json"]
    other_game = _stored(5, source)
    other_game.game = "whist"  # the row says whist; its record is Hundred and Ten
    h = Harness("restored", durable=True)
    said = h.hub.lobby.restorer.restore([good, unknown_game, few_seats, bad_lines, other_game], 5)
    assert sorted(h.hub.lobby.tables) == [1]
    assert [line.split(" (")[0] for line in said[1:]] == [
        "game 2 cannot be restored",
        "game 3 cannot be restored",
        "game 4 cannot be restored",
        "game 5 cannot be restored",
    ]
    failed = [w.game_id for w in h.hub.lobby.journal.take() if isinstance(w, GameEnded)]
    assert failed == [2, 3, 4, 5]
    assert len(h.hub.lobby.tokens) == 1
