"""Store faults and abuse over real sockets (127.0.0.1, port 0): a store that fails on
demand, a lock held by another process, a second server on the same store, silent
connections, shutdown while unsaved. Every wait is bounded."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import pytest

from hundred_server.config import AISettings, Listeners, Settings, StoreSettings
from hundred_server.core.hub import Hub
from hundred_server.core.lobby import Limits
from hundred_server.games.records import load_record
from hundred_server.io import committer
from hundred_server.io.server import Server
from hundred_server.store import Store, Write
from tests.support.faulty_store import FaultyStore
from tests.support.hub_harness import HELLO, QUESTION, answer_from_legal, is_prompt
from tests.support.live_server import ROOT, start_server, started, stop_server
from tests.support.peer import Peer, new_table_refusal

#: A server on a free port of 127.0.0.1, with the defaults.
LOCAL = Settings(listeners=Listeners("127.0.0.1", 0))

Message = dict[str, Any]


@contextlib.asynccontextmanager
async def serving(
    store: Store,
    limits: Limits | None = None,
    commit_wait: float = 0.01,
    commit_batch: int = 16,
) -> AsyncIterator[Server]:
    hub = Hub(seed_source=lambda: "faults", limits=limits, durable=True, ai=AISettings("naive"))
    saving = StoreSettings(commit_wait=commit_wait, commit_batch=commit_batch)
    settings = Settings(limits or Limits(), Listeners("127.0.0.1", 0), saving)
    server = Server(hub, settings, store=store)
    async with started(server):
        yield server


async def against_ai(port: int) -> tuple[Peer, Message]:
    peer = await Peer.welcomed(port)
    await peer.send({"Type": "Hello", "Message": "create", "Name": "ann"})
    await peer.send({"Type": "Game", "Option": 1})
    return peer, await peer.prompt()


class CountingStore(Store):
    """``Store`` that notes the games of each transaction (``write``)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.commits: list[set[int]] = []

    def write(self, writes: Iterable[Write]) -> None:
        writes = list(writes)
        super().write(writes)
        self.commits.append({w.game_id for w in writes})


@pytest.mark.asyncio
async def test_moves_that_come_one_by_one_share_a_commit_and_wait_for_it(
    tmp_path: Path,
) -> None:
    """At a person's pace every move came in a turn of its own and cost a transaction:
    within ``--commit-wait`` of the last commit, a move waits, unsent, and the moves of
    other tables that come meanwhile are committed with it."""
    store = CountingStore(tmp_path / "s.db")
    rng = random.Random(5)
    async with serving(store, commit_wait=2.0) as server, asyncio.timeout(60):
        ann, ann_prompt = await against_ai(server.port)  # game 1
        bob, bob_prompt = await against_ai(server.port)  # game 2
        await ann.send(answer_from_legal(ann_prompt, rng))
        await asyncio.sleep(0.1)  # another turn of the server's loop
        await bob.send(answer_from_legal(bob_prompt, rng))
        for peer, prompt in ((ann, ann_prompt), (bob, bob_prompt)):
            while not (is_prompt(msg := await peer.recv()) and msg["Seq"] > prompt["Seq"]):
                pass
            await peer.close()
    store.close()
    assert {1, 2} in store.commits  # both answers, one transaction
    check = Store(tmp_path / "s.db")
    for game_id in (1, 2):  # nothing of either was lost
        assert load_record(check.game(game_id).lines).history  # type: ignore[union-attr]
    check.close()


@pytest.mark.asyncio
async def test_a_full_batch_commits_without_waiting_out_the_commit_wait(tmp_path: Path) -> None:
    """``--commit-batch``: once that many turns' moves wait, they are committed at
    once, however long ``--commit-wait`` is; at shutdown what waits is committed."""
    store = CountingStore(tmp_path / "s.db")
    rng = random.Random(6)
    async with serving(store, commit_wait=600.0, commit_batch=2) as server:
        async with asyncio.timeout(30):  # not 600 s
            # the first table to start commits at once (nothing before it), the other
            # two wait, and are a batch
            peers = await asyncio.gather(*(against_ai(server.port) for _ in range(3)))
            before = len(store.commits)
            for peer, prompt in peers[:2]:
                await peer.send(answer_from_legal(prompt, rng))
                await asyncio.sleep(0.1)  # a turn of the loop each
            for peer, prompt in peers[:2]:
                while not (is_prompt(msg := await peer.recv()) and msg["Seq"] > prompt["Seq"]):
                    pass
            assert [len(games) for games in store.commits[before:]] == [2]  # one transaction
            third, prompt = peers[2]
            await third.send(answer_from_legal(prompt, rng))  # waits alone, unsent
            await third.nothing_for(0.3)
            waiting = len(store.commits)
        for peer, _ in peers:
            await peer.close()
    assert len(store.commits) == waiting + 1  # shutdown committed it, without the wait
    store.close()


async def next_prompt(peer: Peer, prompt: Message) -> Message:
    while not (is_prompt(msg := await peer.recv()) and msg["Seq"] > prompt["Seq"]):
        pass
    return msg


@pytest.mark.asyncio
async def test_when_every_table_of_the_last_commit_is_back_it_commits_at_once(
    tmp_path: Path,
) -> None:
    """A closed loop, every table of the last commit with its next move waiting (a bot
    answering at once, a busy server's last few tables), gathers nothing by waiting:
    it commits at once, however long ``--commit-wait`` is. A table that was not in the
    last commit waits, and goes with the next."""
    store = CountingStore(tmp_path / "s.db")
    rng = random.Random(7)
    async with serving(store, commit_wait=600.0) as server, asyncio.timeout(30):  # not 600 s
        ann, prompt = await against_ai(server.port)  # game 1 commits at once: the first
        for _ in range(3):  # each answer: the last commit's one table, back
            await ann.send(answer_from_legal(prompt, rng))
            prompt = await next_prompt(ann, prompt)
        commits = len(store.commits)
        bob = asyncio.create_task(against_ai(server.port))  # game 2 was not in it: waits
        await ann.nothing_for(0.3)
        assert not bob.done()
        assert len(store.commits) == commits
        await ann.send(answer_from_legal(prompt, rng))  # game 1 back: both go
        prompt = await next_prompt(ann, prompt)
        bob_peer, _ = await bob
        assert store.commits[commits:] == [{1, 2}]
        for peer in (ann, bob_peer):
            await peer.close()
    store.close()


@pytest.mark.asyncio
async def test_a_line_at_a_table_waits_unread_for_the_commit_and_joins_it(tmp_path: Path) -> None:
    """While a commit waits (``--commit-wait``), the lines of people at tables are kept
    unread (``Hub.waiting``) and read together just before it, in the order they came:
    what they say comes after the moves before them, and their moves join that commit."""
    store = CountingStore(tmp_path / "s.db")
    rng = random.Random(8)
    async with serving(store, commit_wait=600.0) as server, asyncio.timeout(30):  # not 600 s
        ann, ann_prompt = await against_ai(server.port)  # game 1 commits at once
        bob_start = asyncio.create_task(against_ai(server.port))  # game 2 waits...
        await ann.nothing_for(0.3)
        await ann.send(answer_from_legal(ann_prompt, rng))  # ...till game 1 is back
        bob, bob_prompt = await bob_start
        ann_prompt = await next_prompt(ann, ann_prompt)
        commits = len(store.commits)
        assert store.commits[-1] == {1, 2}
        await ann.send(answer_from_legal(ann_prompt, rng))  # game 1 alone: it waits
        await asyncio.sleep(0.1)
        await ann.send({"Type": "Join", "Table": 2})  # refused; read unread till the commit
        await ann.nothing_for(0.3)
        assert len(server.hub.waiting) == 1
        assert len(store.commits) == commits
        await bob.send(answer_from_legal(bob_prompt, rng))  # game 2 back too: both go
        after = await next_prompt(ann, ann_prompt)  # her move's news and prompt first,
        refused = await ann.recv()  # then the answer to the line that waited
        assert (refused["Type"], refused["Code"]) == ("Error", "not_now")
        assert after["Seq"] == ann_prompt["Seq"] + 1
        await next_prompt(bob, bob_prompt)
        assert store.commits[commits:] == [{1, 2}]  # one transaction, bob's move in it
        assert len(server.hub.waiting) == 0
        for peer in (ann, bob):
            await peer.close()
    store.close()


@pytest.mark.asyncio
async def test_a_failing_store_pauses_its_table_and_loses_nothing(tmp_path: Path) -> None:
    store = FaultyStore(tmp_path / "s.db")
    rng = random.Random(3)
    async with serving(store) as server, asyncio.timeout(60):
        ann, prompt = await against_ai(server.port)
        bob = await Peer.welcomed(server.port)
        store.failing = True
        await ann.send(answer_from_legal(prompt, rng))  # accepted, but cannot be saved
        await ann.nothing_for(0.5)  # nothing unsaved is sent
        assert store.failures >= 1
        assert server.store_down
        # The lobby goes on; a new table is refused, and says why.
        assert await new_table_refusal(bob) == "store_unavailable"
        # ann's table is paused: what she says now is refused, after what waits.
        await ann.send(b'{"Type":"Hello","Message":"join"}\n')
        store.failing = False  # the store is back: everything that waited goes out
        seq = prompt["Seq"]
        while not (is_prompt(msg := await ann.recv()) and msg["Seq"] > seq):
            pass
        assert not server.store_down
        rest = [await ann.recv()]
        assert rest[0]["Code"] == "not_now"  # the join, refused in order
        await bob.send({"Type": "Game", "Option": 1})  # new tables again
        while not is_prompt(msg := await bob.recv()):
            assert msg["Type"] != "Error", msg
        for peer in (ann, bob):
            await peer.close()
    store.close()
    check = Store(tmp_path / "s.db")
    game = load_record(check.game(1).lines)  # type: ignore[union-attr]
    mine = [item for item in game.history if isinstance(item, tuple) and item[0] == 0]
    assert len(mine) == 1  # the answer given while the store failed was kept, once
    check.close()


@pytest.mark.asyncio
async def test_a_lock_held_by_another_process_never_stalls_the_lobby(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db", busy_timeout=0.2)
    async with serving(store) as server, asyncio.timeout(60):
        ann, prompt = await against_ai(server.port)
        bob = await Peer.welcomed(server.port)
        other = sqlite3.connect(tmp_path / "s.db", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program takes the write lock
        try:
            await ann.send(answer_from_legal(prompt, random.Random(1)))
            for _ in range(5):  # the lobby answers while the store is locked
                await bob.send({"Type": "Hello"})
                assert [await bob.recv(), await bob.recv()] == [QUESTION, HELLO]
            await ann.nothing_for(0.3)
        finally:
            other.execute("ROLLBACK")
            other.close()
        await ann.prompt()  # saved once the lock is gone, then sent
        await ann.close()
        await bob.close()
    store.close()


class QuietStore(Store):
    """``Store`` that asks for a quiet moment while ``want`` (from any thread) and
    counts what ``quiesce`` saw: the writes under way beside it, how long it took."""

    def __init__(self, path: Path, pause: float) -> None:
        super().__init__(path, exclusive=True, checkpoint_every=3600)
        self.want = False
        self.pause = pause
        self.quiesced = 0
        self.writes = 0
        self.writes_beside = 0
        self.done = threading.Event()

    @property
    def quiet_wanted(self) -> bool:
        return self.want

    def quiesce(self) -> None:
        self.quiesced += 1
        before = self.writes
        time.sleep(self.pause)
        self.writes_beside += self.writes - before
        self.want = False
        self.done.set()

    def write(self, writes: Iterable[Write]) -> None:
        self.writes += 1
        super().write(writes)


async def three_answers_asking_quiet(server: Server, store: QuietStore, seed: int) -> Peer:
    """A person against the AI gives three answers while the store asks for a quiet
    moment (from the first on)."""
    ann, prompt = await against_ai(server.port)
    store.want = True
    rng = random.Random(seed)
    for _ in range(3):
        await ann.send(answer_from_legal(prompt, rng))
        prompt = await ann.prompt()
    return ann


@pytest.mark.asyncio
async def test_saves_wait_for_the_stores_quiet_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store that asks for a quiet moment gets it: the turn's save waits for
    ``quiesce`` (which sees no write beside it), then goes out, in order."""
    # The wait is longer than the quiet moment however busy the machine (at 20 ms, a
    # 20 ms moment on a loaded CI machine outlasted it and a write went beside it).
    monkeypatch.setattr(committer, "QUIET_WAIT", 10.0)
    store = QuietStore(tmp_path / "s.db", pause=0.02)
    async with serving(store) as server, asyncio.timeout(60):
        ann = await three_answers_asking_quiet(server, store, 5)
        try:
            assert (store.quiesced, store.writes_beside) == (1, 0)
            assert store.done.is_set()
        finally:
            await ann.close()
    store.close()
    check = Store(tmp_path / "s.db")
    game = load_record(check.game(1).lines)  # type: ignore[union-attr]
    assert len([item for item in game.history if isinstance(item, tuple) and item[0] == 0]) == 3
    check.close()


@pytest.mark.asyncio
async def test_saves_wait_for_a_slow_quiet_moment_only_briefly(tmp_path: Path) -> None:
    """A quiet moment that takes long holds the saves ``QUIET_WAIT`` at most: the game
    goes on beside it, and it is not asked for again while it runs."""
    store = QuietStore(tmp_path / "s.db", pause=3.0)
    async with serving(store) as server, asyncio.timeout(60):
        ann = await three_answers_asking_quiet(server, store, 6)
        assert not store.done.is_set()  # the game went on while it ran
        assert store.quiesced == 1
        await ann.close()
    assert store.done.wait(10)
    assert store.writes_beside >= 3
    store.close()


@pytest.mark.asyncio
async def test_shutdown_says_which_games_were_not_saved(tmp_path: Path) -> None:
    store = FaultyStore(tmp_path / "s.db")
    server = Server(Hub(seed_source=lambda: "bye", durable=True), LOCAL, store=store)
    server.store_grace = 0.5
    await server.start()
    async with asyncio.timeout(60):
        ann, prompt = await against_ai(server.port)
        bob, _ = await against_ai(server.port)
        store.failing = True
        await ann.send(answer_from_legal(prompt, random.Random(2)))
        await ann.nothing_for(0.3)
        await server.close()
        told = [m async for m in _rest(ann)]
        assert told[0]["Message"] == (
            "Your game at table 1 could not be saved (the store is unavailable): its last "
            "moves are lost"
        )
        bob_told = [m async for m in _rest(bob)]
        assert bob_told[-2]["Message"].startswith("Your game at table 2 is saved")
        for peer in (ann, bob):
            await peer.close()
    store.close()


async def _rest(peer: Peer) -> AsyncIterator[Message]:
    while True:
        try:
            yield await peer.recv()
        except (EOFError, ConnectionError):
            return


@pytest.mark.asyncio
async def test_a_seated_connection_that_goes_silent_is_closed(tmp_path: Path) -> None:
    limits = Limits(idle_timeout=60.0, table_idle_timeout=0.3)
    async with serving(Store(tmp_path / "s.db"), limits) as server, asyncio.timeout(30):
        ann = await Peer.welcomed(server.port)
        await ann.send({"Type": "Hello", "Message": "create"})
        await ann.send({"Type": "Game", "Option": 4})  # waits for people
        while (msg := await ann.recv())["Type"] != "Error":
            pass
        assert msg["Code"] == "idle_timeout"
        with pytest.raises(EOFError):
            await ann.recv()
        await ann.close()


@pytest.mark.asyncio
async def test_connections_from_one_address_are_limited(tmp_path: Path) -> None:
    limits = Limits(max_connections_per_address=2)
    async with serving(Store(tmp_path / "s.db"), limits) as server, asyncio.timeout(30):
        first, second = await Peer.welcomed(server.port), await Peer.welcomed(server.port)
        over = await Peer.open(server.port)
        assert (await over.recv())["Code"] == "too_many_connections"
        assert await over.at_eof() == b""
        await over.close()
        await first.close()
        await asyncio.sleep(0.1)
        third = await Peer.welcomed(server.port)  # room again
        for peer in (second, third):
            await peer.close()


def test_a_second_server_on_the_same_store_refuses_to_start(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    first, port = start_server(db=db)
    try:
        second = subprocess.run(
            [sys.executable, "-m", "hundred_server", "serve", "--port", "0", "--db", str(db)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        )
        assert second.returncode == 2
        assert "in use by another hundred_server" in second.stderr
        # The first goes on serving.
        with __import__("socket").create_connection(("127.0.0.1", port), timeout=5) as sock:
            assert sock.makefile("rb").readline().startswith(b'{"Type":"Message"')
    finally:
        assert stop_server(first) == 0


def test_the_store_file_is_private(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    process, _port = start_server(db=db)
    assert stop_server(process) == 0
    assert db.stat().st_mode & 0o777 == 0o600


@pytest.mark.asyncio
async def test_finished_games_past_their_retention_are_removed(tmp_path: Path) -> None:
    from hundred_server.core.journal import GameEnded, GameStarted

    store = Store(tmp_path / "s.db")
    store.write([GameStarted(1, "whist", "old", "s", None, (("ann", None), ("bob", None)))])
    store.write([GameEnded(1, "over", None)])
    store.write([GameStarted(2, "whist", "on", "s", None, (("cy", None), ("dee", None)))])
    raw = sqlite3.connect(tmp_path / "s.db", isolation_level=None)
    raw.execute("UPDATE games SET finished = '2020-01-01T00:00:00+00:00' WHERE id = 1")
    raw.execute("UPDATE games SET started = '2020-01-01T00:00:00+00:00' WHERE id = 2")
    raw.close()
    settings = Settings(listeners=Listeners("127.0.0.1", 0), store=StoreSettings(keep_days=30))
    server = Server(Hub(durable=True), settings, store=store)
    await server.start()
    try:
        for _ in range(500):  # 10 s at most: the pruner runs at start
            if len(store.games()) == 1:
                break
            await asyncio.sleep(0.02)
    finally:
        await server.close()
    assert [g.id for g in store.games()] == [2]  # a game under way is never removed
    store.close()


def test_a_client_that_does_not_read_may_leave_little_waiting() -> None:
    """What may wait for one client in the server's own buffer (beyond the kernel's):
    64 KiB, so a thousand clients that stop reading hold 64 MiB at most, not 1 GiB."""
    assert Server().outgoing_limit == 64 * 1024
