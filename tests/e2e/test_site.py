"""Several servers as one site (``serve --store postgresql://... --bus redis://...``,
bus.py), each a real process against a real PostgreSQL and a real Redis that the tests
start themselves: a table made on one instance joined from another and played to its
end by people on both; an instance killed with SIGKILL mid-game, its game taken over
by another and finished by its people, reconnected there with their tokens; Redis
restarted mid-game. Plus the bus's pure parts. Every wait is bounded."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

import pytest

from hundred_server.core.hub import Hub, Relay, Remote
from hundred_server.core.lobby import Elsewhere, Limits, Where
from hundred_server.games.kit.tricks import SIDES
from hundred_server.games.records import load_record
from hundred_server.io.bus import WATCH_PUBLISHED, listed_tables, merge_listed
from hundred_server.protocol.wire import Message
from tests.support.engines import Engine, RedisServer
from tests.support.hub_harness import answer_from_legal, is_prompt
from tests.support.live_server import ROOT, free_port, start_server, stop_server

READ = 15.0
#: A failover: the game owned elsewhere and its people back at their prompt.
FAILOVER = 10.0


# ------------------------------------------------------------------ the pure parts


def test_merge_listed_gives_the_other_instances_tables_and_their_owners() -> None:
    values = {
        "a": json.dumps([{"Table": 3, "Name": "x"}]),  # a bare list: open tables alone
        "b": json.dumps(
            {
                "open": [{"Table": 7, "Name": "y"}, {"Name": "no id"}],
                "watch": [{"Table": 7, "Name": "y"}, {"Table": 8, "Name": "z"}],
            }
        ),
        "me": json.dumps({"open": [{"Table": 1}], "watch": [{"Table": 2}]}),
        "gone": None,
        "bad": "{not json",
        "odd": json.dumps({"open": "not a list", "watch": [5, {"Table": "9"}]}),
    }
    merged = merge_listed(values, "me")
    assert merged.open == {3: {"Table": 3, "Name": "x"}, 7: {"Table": 7, "Name": "y"}}
    assert merged.watch == {7: {"Table": 7, "Name": "y"}, 8: {"Table": 8, "Name": "z"}}
    assert merged.owners == {3: "a", 7: "b", 8: "b"}


def test_an_instance_publishes_its_open_and_its_watchable_tables() -> None:
    hub = Hub(seed_source=lambda: "s")
    host, _ = hub.connect()
    hub.receive(host, b'{"Type":"Hello","Message":"create"}')
    hub.receive(host, b'{"Type":"Game","Option":5,"Seats":3,"Bots":1,"Name":"open"}')
    other, _ = hub.connect()
    hub.receive(other, b'{"Type":"Hello","Message":"create"}')
    hub.receive(other, b'{"Type":"Game","Option":1}')  # under way at once
    listed = listed_tables(hub)
    assert [t["Name"] for t in listed["open"]] == ["open"]
    assert [t["Name"] for t in listed["watch"]] == ["open", "table 2"]
    assert all("Type" not in t for t in listed["open"] + listed["watch"])
    for _ in range(WATCH_PUBLISHED):  # the others see its newest tables to watch
        more, _ = hub.connect()
        hub.receive(more, b'{"Type":"Hello","Message":"create"}')
        hub.receive(more, b'{"Type":"Game","Option":1}')
    watch = listed_tables(hub)["watch"]
    assert len(watch) == WATCH_PUBLISHED
    assert [t["Table"] for t in watch] == sorted(hub.lobby.tables)[-WATCH_PUBLISHED:]


def a_sites_lobby(
    remote_tables: dict[int, Message] | None = None,
    remote_watchable: dict[int, Message] | None = None,
) -> tuple[Hub, int]:
    """An instance's hub that knows these tables of the others, and a connection."""
    hub = Hub()
    hub.lobby.tables.site = True
    hub.lobby.tables.remote_tables = remote_tables or {}
    hub.lobby.tables.remote_watchable = remote_watchable or {}
    conn, _ = hub.connect()
    return hub, conn


def test_a_remote_table_is_listed_to_watch_and_watching_it_relays_the_session() -> None:
    hub, conn = a_sites_lobby(remote_watchable={9: {"Table": 9, "Name": "far", "Watchers": 0}})
    said = hub.receive(conn, b'{"Type":"Hello","Message":"watch"}')
    listing = json.loads(said[0].data.splitlines()[0])  # type: ignore[union-attr]
    assert listing == {
        "Type": "Tables",
        "Tables": [hub.lobby.tables.remote_watchable[9]],
        "Watch": True,
    }
    out = hub.receive(conn, b'{"Type":"Watch","Table":9}')
    assert len(out) == 1
    relay = out[0]
    assert isinstance(relay, Relay)
    assert isinstance(relay.to, Elsewhere)
    assert (relay.to.table, relay.to.watch, relay.message) == (
        9,
        True,
        {"Type": "Watch", "Table": 9},
    )
    assert hub.lobby.sessions[conn].where is Where.RELAYED
    hub.unrelay(conn)
    refused = hub.receive(conn, b'{"Type":"Watch","Table":10}')  # listed nowhere
    assert b"no_such_table" in refused[0].data  # type: ignore[union-attr]


def test_a_remote_table_is_listed_and_joining_it_relays_the_session() -> None:
    hub, conn = a_sites_lobby(remote_tables={9: {"Table": 9, "Name": "far", "Free": 1}})
    said = hub.receive(conn, b'{"Type":"Hello","Message":"join"}')
    assert b'"Table":9' in said[0].data  # type: ignore[union-attr]
    out = hub.receive(conn, b'{"Type":"Join","Table":9}')
    out += hub.receive(conn, b'{"Type":"Hello"}')  # goes the same way
    assert [type(c) for c in out] == [Relay, Relay]
    first = out[0]
    assert isinstance(first, Relay)
    assert isinstance(first.to, Elsewhere)
    assert first.to.table == 9
    assert hub.lobby.sessions[conn].where is Where.RELAYED
    # What the owner says is written here; its "back in the lobby" ends the relay.
    assert hub.deliver(conn, {"Type": "Hello"})
    assert hub.unrelay(conn) == []
    assert hub.lobby.sessions[conn].where is Where.QUESTION
    # A token this instance does not know is looked for on the site.
    out = hub.receive(conn, json.dumps({"Type": "Hello", "Token": "ab" * 16}).encode())
    assert isinstance(out[0], Relay)
    assert out[0].to is not None
    assert out[0].to.digest
    # Relayed lobby talk counts against the rate; relayed game answers do not.
    hub.unrelay(conn)
    hub.receive(conn, b'{"Type":"Join","Table":9}', now=0.0)
    tokens = hub.links[conn].tokens
    hub.receive(conn, b'{"Type":"Hello"}', now=0.0)
    assert hub.links[conn].tokens == tokens - 1
    hub.receive(conn, b'{"Type":"Play","Playerid":0,"PlayedCard":"5H","Seq":3}', now=0.0)
    assert hub.links[conn].tokens == tokens - 1
    assert hub.disconnect(conn)[-1] == Relay(conn, None)


def test_a_virtual_connection_answers_with_remote_commands_until_back_in_the_lobby() -> None:
    hub = Hub(seed_source=lambda: "s")
    host, _ = hub.connect()
    hub.receive(host, b'{"Type":"Hello","Message":"create"}')
    hub.receive(host, b'{"Type":"Game","Option":4}')  # a table for people only
    (table,) = hub.lobby.tables
    vconn = hub.connect_virtual("bob", None)
    out = hub.receive_message(vconn, {"Type": "Join", "Table": table})
    mine = [c for c in out if getattr(c, "conn", None) == vconn]
    assert mine
    assert all(isinstance(c, Remote) and c.message is not None for c in mine)
    assert hub.lobby.sessions[vconn].name == "bob"
    out = hub.receive_message(vconn, {"Type": "Hello", "Message": "quit"})
    assert Remote(vconn, None, close=True) in out
    assert vconn not in hub.links


def test_virtual_connections_take_no_connection_slot() -> None:
    # A relayed client holds its socket on its own instance, which counts it there.
    hub = Hub(limits=Limits(max_connections=2))
    virtual = [hub.connect_virtual(f"v{n}", None) for n in range(3)]
    assert hub.admit(None) is None
    first, _ = hub.connect()
    assert hub.admit(None) is None
    hub.connect()
    full = hub.admit(None)
    assert full is not None
    assert full == ("server_full", "the server is full (2 connections); try later")
    hub.disconnect(virtual[0])  # a virtual one gone frees no slot
    assert hub.admit(None) == full
    hub.disconnect(first)
    assert hub.admit(None) is None
    hub.shutdown()
    assert hub.admit(None) is None


# ------------------------------------------------------------------ real processes


def test_bus_needs_a_postgresql_store(tmp_path: Path) -> None:
    for store in (["--db", str(tmp_path / "x.db")], ["--memory"]):
        done = subprocess.run(
            [sys.executable, "-m", "hundred_server", "serve", *store, "--bus", "redis://x"],
            capture_output=True, text=True, timeout=30, cwd=ROOT,
        )  # fmt: skip
        assert done.returncode == 2
        assert "--bus needs --store postgresql://" in done.stderr
    assert not (tmp_path / "x.db").exists()


def test_a_site_shares_its_store_and_a_lone_server_is_refused(site: Site) -> None:
    a, _ = site.start()
    b, _ = site.start()  # a second instance of the site: welcome
    with pytest.raises(AssertionError, match="in use by"):
        start_server(store=site.engine.location)  # without --bus: refused
    assert a.poll() is None
    assert b.poll() is None


class Person:
    """A JSON client over TCP that answers its prompts from ``Legal``."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.seen: list[Message] = []
        self.token = ""
        self.table = 0
        self.seat = 0
        self.answered = 0

    async def connect(self, port: int) -> None:
        self.close()
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)

    def send(self, msg: Message) -> None:
        assert self.writer is not None
        self.writer.write(json.dumps(msg).encode() + b"\n")

    async def read(self) -> Message:
        assert self.reader is not None
        line = await asyncio.wait_for(self.reader.readline(), READ)
        if not line:
            raise ConnectionError(f"{self.name}: the server closed the connection")
        msg: Message = json.loads(line)
        self.seen.append(msg)
        if msg["Type"] == "Seat":
            self.token, self.table, self.seat = msg["Token"], msg["Table"], msg["Playerid"]
        return msg

    async def until(self, done: Callable[[Message], bool], play: bool = True) -> Message:
        """Read (answering prompts if ``play``) until a message ``done`` is true of."""
        while True:
            msg = await self.read()
            if done(msg):
                return msg
            if play and is_prompt(msg) and "Legal" in msg:
                self.send(answer_from_legal(msg, self.rng))
                self.answered += 1

    async def play(self, moves: int) -> None:
        """Answer ``moves`` prompts more."""
        goal = self.answered + moves
        while self.answered < goal:
            msg = await self.read()
            if is_prompt(msg) and "Legal" in msg:
                self.send(answer_from_legal(msg, self.rng))
                self.answered += 1

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


def game_over(msg: Message) -> bool:
    return bool(msg.get("GameOver"))


class Site:
    """Server processes sharing one PostgreSQL database and one Redis."""

    def __init__(self, engine: Engine, redis: RedisServer) -> None:
        self.engine = engine
        self.redis = redis
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self) -> tuple[subprocess.Popen[bytes], int]:
        process, port = start_server("--bus", self.redis.url, store=self.engine.location)
        self.processes.append(process)
        return process, port

    def stop(self) -> list[int]:
        return [stop_server(p) for p in self.processes]

    def owner(self, table: int) -> str | None:
        rows = self.engine.rows("SELECT owner FROM games WHERE id = ?", (table,))
        return rows[0][0] if rows else None


@pytest.fixture
def site(pg_engine: Engine, redis_server: RedisServer) -> Iterator[Site]:
    made = Site(pg_engine, redis_server)
    try:
        yield made
    finally:
        made.stop()


async def listed(person: Person, table: int) -> Message:
    """Ask for the tables until ``table`` is among them (10 s at most)."""
    deadline = time.monotonic() + 10.0
    while True:
        person.send({"Type": "Hello", "Message": "join"})
        msg = await person.until(lambda m: m["Type"] == "Tables", play=False)
        if any(t["Table"] == table for t in msg["Tables"]):
            return msg
        assert time.monotonic() < deadline, f"table {table} never listed: {msg}"
        await asyncio.sleep(0.3)


#: Each game's table for two people and AI on the other seats: (Hello, Game).
TWO_PEOPLE: Final[dict[str, tuple[Message, Message]]] = {
    "hundredandten": ({}, {"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1}),
    # AI at 1 and 3: the creator at 0 and a person as their partner at 2
    "spades": ({"Game": "spades"}, {"Type": "Game", "Option": 2}),
}


async def open_table(person: Person, port: int, game: str = "hundredandten") -> None:
    """``person`` makes a table of ``game`` on ``port``: them, AI seats, one seat free
    (Hundred and Ten: 3 seats, one AI)."""
    hello, create = TWO_PEOPLE[game]
    await person.connect(port)
    person.send({"Type": "Hello", "Message": "create", "Name": person.name, **hello})
    person.send(create)
    await person.until(lambda m: m["Type"] == "Seat", play=False)


@pytest.mark.parametrize("game", sorted(TWO_PEOPLE))
def test_a_table_made_on_one_instance_is_joined_from_another_and_played_out(
    site: Site, game: str
) -> None:
    asyncio.run(asyncio.wait_for(cross_join(site, game), 90))


async def table_on_a_guest_on_b(
    site: Site, ann: Person, guest: Person, game: str = "hundredandten"
) -> int:
    """Two instances: ``ann`` makes a table of ``game`` on the first, ``guest`` connects
    to the second; the first's port."""
    _a, port_a = site.start()
    _b, port_b = site.start()
    await open_table(ann, port_a, game)
    await guest.connect(port_b)
    return port_a


async def cross_join(site: Site, game: str) -> None:
    ann, bob = Person("ann", 1), Person("bob", 2)
    await table_on_a_guest_on_b(site, ann, bob, game)
    listing = await listed(bob, ann.table)
    assert [t["Game"] for t in listing["Tables"] if t["Table"] == ann.table] == [game]
    bob.send({"Type": "Join", "Table": ann.table})
    ends = await asyncio.gather(ann.until(game_over), bob.until(game_over))
    assert but_win(ends[0]) == but_win(ends[1])  # each is told whether they won
    assert bob.table == ann.table
    assert bob.seat == 2  # the free seat (Spades: the creator's partner)
    assert bob.answered > 0
    for person in (ann, bob):  # both back in their own instance's lobby, which answers
        await person.until(lambda m: m["Type"] == "Hello", play=False)
        person.send({"Type": "Hello", "Message": "join"})
        await person.until(lambda m: m["Type"] == "Tables", play=False)
        person.send({"Type": "Hello", "Message": "quit"})
        await person.until(lambda m: m.get("Message") == "Ok, bye bye!", play=False)
        assert person.reader is not None
        assert await asyncio.wait_for(person.reader.read(), READ) == b""  # closed
        person.close()
    stored = site.engine.rows("SELECT state, result FROM games WHERE id = ?", (ann.table,))
    assert stored[0][0] == "over"
    winner = stored[0][1]["Winner"]  # a seat, or a side (0 NS, 1 EW) where it says "EW"
    said = SIDES.index(ends[0]["Winner"]) if game == "spades" else ends[0]["Winner"]
    assert (winner, stored[0][1]["Score"]) == (said, ends[0]["Score"])
    assert site.stop() == [0, 0]


def test_a_table_of_one_instance_is_watched_from_another(site: Site) -> None:
    asyncio.run(asyncio.wait_for(cross_watch(site), 60))


async def cross_watch(site: Site) -> None:
    ann, eve = Person("ann", 5), Person("eve", 6)
    port_a = await table_on_a_guest_on_b(site, ann, eve)
    deadline = time.monotonic() + 10.0
    while True:  # B lists A's table to watch within a second or so
        eve.send({"Type": "Hello", "Message": "watch", "Name": "eve"})
        listing = await eve.until(lambda m: m["Type"] == "Tables", play=False)
        assert listing["Watch"] is True
        if any(t["Table"] == ann.table for t in listing["Tables"]):
            break
        assert time.monotonic() < deadline, f"table {ann.table} never listed to watch"
        await asyncio.sleep(0.3)
    eve.send({"Type": "Watch", "Table": ann.table})
    watched = await eve.until(lambda m: m["Type"] == "Table", play=False)
    assert watched["Table"] == ann.table
    assert watched["Watchers"] == 1
    eve.send({"Type": "Chat", "Text": "nice"})  # table chat from the other instance
    said = await ann.until(lambda m: m["Type"] == "Chat", play=False)
    assert (said["From"], said["Text"], said["Where"]) == ("eve", "nice", "table")
    # The table fills (a second person, on A) and plays; eve, on B, sees it and no hand.
    bob = Person("bob", 7)
    await bob.connect(port_a)
    bob.send({"Type": "Hello", "Message": "join", "Name": "bob"})
    bob.send({"Type": "Join", "Table": ann.table})
    players = [asyncio.create_task(p.until(game_over)) for p in (ann, bob)]
    deal = await eve.until(lambda m: m["Type"] == "Deal", play=False)
    assert "Hand" not in deal
    assert "Playerid" not in deal
    plays = 0
    while plays < 6:
        msg = await eve.read()
        assert "Legal" not in msg, msg
        assert "Hand" not in msg, msg
        plays += msg["Type"] == "Play" and "PlayedCard" in msg
    eve.send({"Type": "Leave"})  # back in B's lobby, which answers
    await eve.until(lambda m: m["Type"] == "Hello", play=False)
    eve.send({"Type": "Hello", "Message": "join"})
    await eve.until(lambda m: m["Type"] == "Tables", play=False)
    await asyncio.gather(*players)
    for person in (ann, bob, eve):
        person.close()
    assert site.stop() == [0, 0]


def test_a_game_goes_on_after_its_instance_is_killed(site: Site) -> None:
    asyncio.run(asyncio.wait_for(failover(site), 90))


async def failover(site: Site) -> None:
    a, port_a = site.start()
    _b, port_b = site.start()
    ann, bob = Person("ann", 3), Person("bob", 4)
    await open_table(ann, port_a)
    await bob.connect(port_b)  # bob plays on B, relayed to A
    await listed(bob, ann.table)
    bob.send({"Type": "Join", "Table": ann.table})
    table = ann.table
    a_owner = await _owner_soon(site, table, lambda owner: owner is not None)

    def anns_play(msg: Message) -> bool:
        return is_prompt(msg) and "Legal" in msg and msg["Type"] == "Play" and ann.answered >= 12

    bobs = asyncio.create_task(bob.until(game_over))
    prompt = await ann.until(anns_play)
    hand = held(ann.seen, ann.seat)
    plays = [m for m in ann.seen if m["Type"] == "Play" and "PlayedCard" in m]
    a.send_signal(signal.SIGKILL)
    killed = time.monotonic()
    assert a.wait(10) == -signal.SIGKILL
    ann.close()

    new_owner = await _owner_soon(site, table, lambda owner: owner not in (None, a_owner))
    assert time.monotonic() - killed < FAILOVER, "nobody took the game over in time"
    await ann.connect(port_b)
    ann.send({"Type": "Hello", "Token": ann.token})
    back = await ann.until(lambda m: is_prompt(m) and "Legal" in m, play=False)
    assert time.monotonic() - killed < FAILOVER + 2
    assert back == prompt  # the same prompt, the same Seq
    snapshot = next(m for m in reversed(ann.seen) if m["Type"] == "Snapshot")
    assert snapshot["Hand"] == hand  # the same hand
    ann.send(answer_from_legal(back, ann.rng))
    end = await ann.until(game_over)
    bobs_end = await asyncio.wait_for(bobs, READ)  # bob, relayed again, finished it too
    # The same end, but for Win: each is told whether they won (a seat of 110 wins alone).
    assert but_win(bobs_end) == but_win(end)
    assert (end["Win"], bobs_end["Win"]) == (end["Winner"] == ann.seat, end["Winner"] == bob.seat)
    ann.close()
    bob.close()
    (row,) = site.engine.rows("SELECT state, owner FROM games WHERE id = ?", (table,))
    assert row[0] == "over"
    assert row[1] == new_owner
    rows = site.engine.rows("SELECT line FROM moves WHERE game = ? ORDER BY n", (table,))
    lines = [r[0] for r in rows]
    game = load_record(lines)  # the whole record replays
    assert game.winner == end["Winner"]
    record = "\n".join(lines)
    for play in plays:  # every move accepted before the kill is in the record
        assert play["PlayedCard"] in record


def but_win(end: Message) -> Message:
    """A game's end as every seat is told it alike: ``Win`` says whether the seat told
    won, so two people told the same end may differ there."""
    return {key: value for key, value in end.items() if key != "Win"}


def held(seen: list[Message], seat: int) -> list[str]:
    """The hand of ``seat`` after the messages ``seen``."""
    hand: list[str] = []
    for msg in seen:
        if msg["Type"] in ("Deal", "Snapshot") or (msg["Type"] == "Discard" and "Hand" in msg):
            hand = list(msg["Hand"])
        elif msg["Type"] == "Play" and msg.get("Playerid") == seat and "PlayedCard" in msg:
            hand.remove(msg["PlayedCard"])
    return hand


async def _owner_soon(site: Site, table: int, ok: Callable[[str | None], bool]) -> str | None:
    deadline = time.monotonic() + FAILOVER + 5
    while True:
        owner = site.owner(table)
        if ok(owner):
            return owner
        assert time.monotonic() < deadline, f"table {table}'s owner stays {owner}"
        await asyncio.sleep(0.1)


def test_redis_restarted_mid_game_the_game_goes_on_and_the_lobby_comes_back(site: Site) -> None:
    asyncio.run(asyncio.wait_for(redis_restart(site), 60))


async def redis_restart(site: Site) -> None:
    _a, port_a = site.start()
    _b, port_b = site.start()
    names = ("ann", "cy", "dee", "fay", "gus")
    people = [Person(name, seed) for seed, name in enumerate(names)]
    try:
        await _redis_restart(site, port_a, port_b, *people)
    finally:  # a failure must not leave their sockets to the next test's warnings
        for person in people:
            person.close()


async def _redis_restart(
    site: Site,
    port_a: int,
    port_b: int,
    ann: Person,
    cy: Person,
    dee: Person,
    fay: Person,
    gus: Person,
) -> None:
    await ann.connect(port_a)  # ann plays on A against two AIs
    ann.send({"Type": "Hello", "Message": "create", "Name": "ann"})
    ann.send({"Type": "Game", "Option": 2})
    await ann.play(3)
    await open_table(cy, port_a)  # cy on A and dee on B, relayed, play together
    await dee.connect(port_b)
    await listed(dee, cy.table)
    dee.send({"Type": "Join", "Table": cy.table})
    together = asyncio.gather(cy.until(game_over), dee.until(game_over))
    await ann.play(3)
    site.redis.stop()
    await ann.play(5)  # the game goes on without Redis
    site.redis.start()
    await open_table(fay, port_a)
    await gus.connect(port_b)
    await listed(gus, fay.table)  # the lobby list is back
    await ann.until(game_over)
    ends = await asyncio.wait_for(together, 40)  # the relayed game too
    assert but_win(ends[0]) == but_win(ends[1])  # each is told whether they won


def test_an_instance_cut_off_past_its_lease_lets_go_of_the_game(site: Site) -> None:
    asyncio.run(asyncio.wait_for(cut_off(site), 60))


async def cut_off(site: Site) -> None:
    _a, port_a = site.start()
    ann = Person("ann", 8)
    await ann.connect(port_a)
    ann.send({"Type": "Hello", "Message": "create", "Name": "ann"})
    ann.send({"Type": "Game", "Option": 2})
    await ann.play(2)
    await ann.until(lambda m: is_prompt(m) and "Legal" in m)  # left unanswered
    owner = await _owner_soon(site, ann.table, lambda owner: owner is not None)
    # One lease a live instance, renewed in its own row: the game's row is not touched.
    (game_row,) = site.engine.rows("SELECT xmin::text FROM games WHERE id = ?", (ann.table,))
    (lease,) = site.engine.rows(
        "SELECT lease_until > now() FROM hundred_instances WHERE id = ?", (owner,)
    )
    assert lease == (True,)
    await asyncio.sleep(2.5)  # two renewals and sweeps at least
    assert site.engine.rows("SELECT xmin::text FROM games WHERE id = ?", (ann.table,)) == [game_row]
    # As if another instance, alive, had taken it over while this one could not renew.
    site.engine.rows(
        "INSERT INTO hundred_instances (id, lease_until) VALUES ('elsewhere', now() +"
        " interval '1 hour')"
    )
    site.engine.rows("UPDATE games SET owner = 'elsewhere' WHERE id = ?", (ann.table,))
    told = await ann.until(lambda m: "another server" in str(m.get("Message")), play=False)
    assert str(ann.table) in told["Message"]
    await ann.until(lambda m: m["Type"] == "Hello", play=False)  # in the lobby
    (row,) = site.engine.rows("SELECT owner, state FROM games WHERE id = ?", (ann.table,))
    assert row == ("elsewhere", "playing")  # left to its owner
    ann.close()


def test_a_bus_that_cannot_be_reached_stops_the_server_saying_why(pg_engine: Engine) -> None:
    bus = f"redis://127.0.0.1:{free_port()}/0"  # nobody listens there
    done = subprocess.run(
        [sys.executable, "-m", "hundred_server", "serve", "--port", str(free_port()),
         "--store", pg_engine.location, "--bus", bus],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2
    assert f"cannot reach the bus {bus}" in done.stderr
