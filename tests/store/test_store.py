"""The stores (store/): what the hub saves, restart recovery, the games and export
commands, refusing files it must not touch, and a crash-and-resume over a real server
process killed with SIGKILL. A test that takes ``engine`` runs on each engine, SQLite
and a real PostgreSQL (tests/support/engines.py); the others are about SQLite's file.
PostgreSQL's own (its version table, its lock, lost connections): test_store_postgres.py."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import random
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final

import pytest

from hundred_server import games
from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.hub import Command, Hub
from hundred_server.core.lobby import Limits, hash_token
from hundred_server.games.hundredandten import wire as wire
from hundred_server.games.kit.cards import format_cards
from hundred_server.games.records import load_record, record_lines
from hundred_server.io.server import Server
from hundred_server.store import (
    APPLICATION_ID,
    STORE_VERSION,
    GameDropped,
    GameEnded,
    GameStarted,
    GameStore,
    Moves,
    Store,
    StoreBusy,
    StoreError,
    Write,
    describe,
    restorable,
)
from hundred_server.store import sqlite as sqlite_store
from hundred_server.store.sqlite import PRUNE_CHUNK, SERVER_BUSY_TIMEOUT
from tests.core.test_fairness import solo_option
from tests.core.test_table import person_vs_ai
from tests.support.engines import Engine
from tests.support.faulty_store import FaultyStore
from tests.support.hub_harness import (
    Client,
    Message,
    answer_from_legal,
    check_stream,
    is_prompt,
    play_until_over,
)
from tests.support.live_server import ROOT, run_command, start_server
from tests.support.saving import SavingHarness, final_score, restarted

READ_TIMEOUT = 10.0


# ------------------------------------------------------------------ the file


def test_a_new_store_is_ours_in_wal_mode(tmp_path: Path) -> None:
    Store(tmp_path / "s.db").close()
    db = sqlite3.connect(tmp_path / "s.db")
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_schema WHERE type='table'")}
    assert names == {"games", "seats", "moves"}
    db.close()


def test_writes_round_trip_and_a_failing_batch_leaves_nothing(engine: Engine) -> None:
    store = engine.open()
    store.write(
        [
            GameStarted(
                3, "hundredandten", "friday", "seed-x", 30.0, (("ann", "ab" * 32), ("AI 1", None))
            ),
            Moves(3, 0, ("header", "deal"), 1),
        ]
    )
    with pytest.raises(engine.integrity_error):
        store.write([Moves(3, 2, ("bid",), 2), Moves(3, 1, ("again",), 3)])  # n=1 is taken
    store.write([Moves(3, 2, ("play",), 4), GameEnded(3, "over", {"Winner": 0, "Score": [110, 5]})])
    (game,) = store.games()
    assert (game.id, game.game, game.name, game.seed, game.clock, game.seq, game.state) == (
        3, "hundredandten", "friday", "seed-x", 30.0, 4, "over",
    )  # fmt: skip
    assert game.seats == [("ann", "ab" * 32), ("AI 1", None)]
    assert game.lines == ["header", "deal", "play"]
    assert game.result == {"Winner": 0, "Score": [110, 5]}
    assert game.finished is not None
    assert store.last_id() == 3
    assert store.games("playing") == []
    assert store.game(4) is None
    store.close()


def untouched(path: Path, make: Callable[[Path], object]) -> str:
    """``make(path)`` builds a file the store must refuse; it is refused and unchanged.
    Returns the refusal."""
    make(path)
    before = path.read_bytes()
    with pytest.raises(StoreError) as caught:
        Store(path)
    assert path.read_bytes() == before
    return caught.value.message


def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    message = untouched(path, lambda p: p.write_bytes(b"my shopping list\n" * 100))
    assert message == (
        f"{str(path)!r} is not an SQLite file (damaged, or something else); it was left as it "
        "is (use another --db)"
    )


def test_another_programs_sqlite_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    def make(path: Path) -> None:
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE accounts (id INTEGER, balance INTEGER)")
        db.commit()
        db.close()

    message = untouched(tmp_path / "bank.db", make)
    assert "is an SQLite file but not a hundred_server store" in message


def test_a_store_from_a_newer_version_is_refused_and_left_alone(tmp_path: Path) -> None:
    def make(path: Path) -> None:
        Store(path).close()
        db = sqlite3.connect(path)
        db.execute(f"PRAGMA user_version={STORE_VERSION + 1}")
        db.commit()
        db.close()

    message = untouched(tmp_path / "new.db", make)
    assert message == (
        f"the store {str(tmp_path / 'new.db')!r} was made by a newer hundred_server (store "
        f"version {STORE_VERSION + 1}; this one reads up to {STORE_VERSION}); it was left as it is"
    )


def test_a_damaged_store_is_refused_and_left_alone(tmp_path: Path) -> None:
    def make(path: Path) -> None:
        store = Store(path)
        for i in range(1, 40):
            seats = (("a", None), ("b", None))
            lines = tuple("x" * 200 for _ in range(30))
            store.write([GameStarted(i, "hundredandten", f"t{i}", "s", None, seats)])
            store.write([Moves(i, 0, lines, 0)])
        store.close()  # checkpoints the WAL into the file
        data = bytearray(path.read_bytes())
        page = 4096
        assert len(data) > 6 * page
        data[3 * page : 5 * page] = b"\xa5" * (2 * page)  # two pages of garbage
        path.write_bytes(bytes(data))

    message = untouched(tmp_path / "bad.db", make)
    assert "is damaged" in message
    assert "it was left as it is" in message


# ------------------------------------------------------------------ one server per store

BUSY = (
    "the store {!r} is in use by another hundred_server (another `serve` on the same "
    "--db); stop it first or use another --db"
)
TABLES = ("games", "seats", "moves")


def started(game_id: int, seats: int = 2) -> GameStarted:
    people = tuple((f"p{i}", None if i else "cd" * 32) for i in range(seats))
    return GameStarted(game_id, "hundredandten", f"t{game_id}", f"seed{game_id}", None, people)


def counts(path: Path) -> list[int]:
    """Rows in games, seats and moves of an SQLite store, read past the store."""
    raw = sqlite3.connect(path)
    try:
        return [raw.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES]
    finally:
        raw.close()


PG_BUSY = (
    "the store {} is in use by another hundred_server (another `serve` on the same "
    "--store); stop it first or use another database"
)


def busy(engine: Engine) -> str:
    """What a second exclusive open of ``engine``'s store is told."""
    return (BUSY if engine.name == "sqlite" else PG_BUSY).format(engine.shown)


def test_an_exclusive_store_refuses_a_second_one_and_readers_still_read(engine: Engine) -> None:
    held = engine.open(exclusive=True)
    held.write([started(1), Moves(1, 0, ("header",), 0)])
    with pytest.raises(StoreBusy) as caught:
        engine.open(exclusive=True)
    assert isinstance(caught.value, StoreError)
    assert caught.value.code == "store_busy"
    assert caught.value.message == busy(engine)
    # SQLite: flock and its own (fcntl) locks are independent; PostgreSQL: the lock is
    # advisory. A reader reads meanwhile.
    reader = engine.open()
    assert [(g.id, g.lines) for g in reader.games()] == [(1, ["header"])]
    held.write([Moves(1, 1, ("deal",), 1)])
    assert reader.games()[0].lines == ["header", "deal"]
    reader.close()
    held.close()
    again = engine.open(exclusive=True)  # close() let it go
    again.close()
    again.close()  # harmless


def test_an_exclusive_store_refuses_another_process(engine: Engine) -> None:
    script = (
        "import sys\n"
        "from hundred_server.store import StoreError, open_store\n"
        "try:\n"
        "    open_store(sys.argv[1], exclusive=True).close()\n"
        "    print('taken')\n"
        "except StoreError as exc:\n"
        "    print(exc.code, exc.message)\n"
        "reader = open_store(sys.argv[1])\n"
        "print([g.id for g in reader.games()])\n"
        "reader.close()\n"
    )

    def other() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", script, engine.location],
            capture_output=True,
            text=True,
            timeout=60,
            env={"PYTHONPATH": str(ROOT), "PATH": ""},
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    held = engine.open(exclusive=True)
    held.write([started(4)])
    assert other() == [f"store_busy {busy(engine)}", "[4]"]
    held.write([started(5)])  # the holder goes on after the other process read
    held.close()
    assert other() == ["taken", "[4, 5]"]


def test_a_store_refused_for_another_reason_does_not_keep_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    Store(path).close()
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version={STORE_VERSION + 1}")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError) as caught:
        Store(path, exclusive=True)
    assert not isinstance(caught.value, StoreBusy)
    with open(path, "rb") as probe:  # nobody holds it
        fcntl.flock(probe.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_a_servers_store_checkpoints_on_its_own_thread_never_in_a_commit(
    tmp_path: Path,
) -> None:
    """A server writes on its event loop: its commits only append to the -wal (the
    checkpoint, which syncs the file, would make one of them wait for the disk), and
    a thread of the store's copies the -wal into the file every ``checkpoint_every``."""
    path = tmp_path / "s.db"
    line = "x" * 4000  # a page of its own, so 300 lines are past the 256 pages of autocheckpoint

    def fill(store: Store, first: int) -> None:
        store.write([started(first)])
        for n in range(300):
            store.write([Moves(first, n, (line,), n)])

    reader = Store(tmp_path / "r.db")  # not a server's: SQLite checkpoints in a commit
    fill(reader, 1)
    assert os.path.getsize(tmp_path / "r.db-wal") < 1.1 * 1024 * 1024  # cut back after
    assert os.path.getsize(tmp_path / "r.db") > 1024 * 1024
    reader.close()
    store = Store(path, exclusive=True, checkpoint_every=3600)  # none comes in this test
    before = os.path.getsize(path)
    fill(store, 1)
    assert os.path.getsize(path) == before  # every commit stayed in the -wal
    assert os.path.getsize(f"{path}-wal") > 300 * 4000
    store.close()  # the last connection: checkpointed into the file, the -wal gone
    assert os.path.getsize(path) > 300 * 4000
    assert not os.path.exists(f"{path}-wal")
    store = Store(path, exclusive=True, checkpoint_every=0.05)
    size = os.path.getsize(path)
    fill(store, 2)
    deadline = time.monotonic() + 10
    while os.path.getsize(path) < size + 300 * 4000 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.path.getsize(path) >= size + 300 * 4000  # the thread copied it in
    assert [len(g.lines) for g in store.games()] == [300, 300]
    store.close()


def wal_frames(path: Path) -> int:
    """The frames in a store's -wal now (a passive checkpoint from outside says)."""
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        return int(raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])
    finally:
        raw.close()


def test_a_long_wal_asks_the_server_for_a_quiet_moment_and_then_starts_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint that finds ``QUIET_FRAMES`` or more asks for a quiet moment
    (``quiet_wanted``); ``quiesce`` copies the rest, and the next commit starts the -wal
    over from its beginning, over the blocks it has (cut to ``WAL_KEEP_SERVER``)."""
    monkeypatch.setattr(sqlite_store, "QUIET_FRAMES", 200)
    monkeypatch.setattr(sqlite_store, "WAL_KEEP_SERVER", 100 * 4096)
    path = tmp_path / "s.db"
    store = Store(path, exclusive=True, checkpoint_every=3600)  # checks by hand here
    checkpoints = store._checkpoints
    assert checkpoints is not None
    line = "x" * 4000  # a page each
    store.write([started(1)])
    for n in range(30):
        store.write([Moves(1, n, (line,), n)])
    assert wal_frames(path) < 200
    checkpoints.check()  # short: nothing asked
    assert not store.quiet_wanted
    for n in range(30, 230):
        store.write([Moves(1, n, (line,), n)])
    assert wal_frames(path) > 200
    size = os.path.getsize(f"{path}-wal")
    checkpoints.check()
    assert store.quiet_wanted
    store.quiesce()
    assert not store.quiet_wanted
    store.write([Moves(1, 230, (line,), 230)])
    assert wal_frames(path) < 10  # started over
    assert os.path.getsize(f"{path}-wal") == 100 * 4096 < size  # cut back to what is kept
    assert len(store.game(1).lines) == 231  # type: ignore[union-attr]
    store.close()


def test_a_readers_store_keeps_little_wal(tmp_path: Path) -> None:
    """Only a server's store keeps a long -wal; anyone else's is cut to ``WAL_KEEP``
    and never asks for a quiet moment."""
    store = Store(tmp_path / "r.db")
    assert not store.quiet_wanted
    store.quiesce()  # nothing to do
    assert store._db.execute("PRAGMA journal_size_limit").fetchone()[0] == sqlite_store.WAL_KEEP
    store.close()
    store = Store(tmp_path / "s.db", exclusive=True)
    limit = store._db.execute("PRAGMA journal_size_limit").fetchone()[0]
    assert limit == sqlite_store.WAL_KEEP_SERVER
    store.close()


def test_a_servers_store_waits_briefly_for_a_lock_held_elsewhere(tmp_path: Path) -> None:
    """The event loop waits with a server's write: ``SERVER_BUSY_TIMEOUT``, not the
    reader's ``busy_timeout``; the save is refused, and taken when tried again."""
    path = tmp_path / "s.db"
    store = Store(path, exclusive=True, busy_timeout=5.0)
    store.write([started(1)])
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    begun = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        store.write([Moves(1, 0, ("header",), 0)])
    waited = time.monotonic() - begun
    assert SERVER_BUSY_TIMEOUT * 0.5 < waited < 1.0
    other.execute("ROLLBACK")
    other.close()
    store.write([Moves(1, 0, ("header",), 0)])
    assert store.game(1).lines == ["header"]  # type: ignore[union-attr]
    store.close()


def test_prune_removes_many_games_a_chunk_a_transaction(tmp_path: Path) -> None:
    """More finished games than ``PRUNE_CHUNK``: every one goes, counted once."""
    store = Store(tmp_path / "s.db")
    count = 2 * PRUNE_CHUNK + 5
    ids = range(1, count + 2)
    store.write([started(i) for i in ids] + [Moves(i, 0, ("header",), 0) for i in ids])
    store.write([GameEnded(i, "over", {"Winner": 0}) for i in range(1, count + 1)])
    assert store.prune("2999-01-01T00:00:00+00:00") == count
    assert [g.id for g in store.games()] == [count + 1]  # the one still playing
    store.close()


# ------------------------------------------------------------------ the files' mode


def modes(path: Path) -> dict[str, int]:
    """The mode of the store and of its -wal and -shm, those that exist."""
    return {
        suffix: stat.S_IMODE(os.stat(f"{path}{suffix}").st_mode)
        for suffix in ("", "-wal", "-shm")
        if os.path.exists(f"{path}{suffix}")
    }


@pytest.mark.parametrize("umask", [0o022, 0o000, 0o277])
def test_a_new_store_is_private_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    path = tmp_path / "s.db"
    old = os.umask(umask)
    try:
        store = Store(path)
        store.write([started(1), Moves(1, 0, ("header",), 0)])
    finally:
        os.umask(old)
    assert not store.tightened
    # SQLite gives the -wal and -shm the file's mode.
    assert modes(path) == {"": 0o600, "-wal": 0o600, "-shm": 0o600}
    store.close()


def test_a_store_others_can_read_is_narrowed_on_open(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    store.write([started(1)])
    store.close()
    os.chmod(path, 0o644)
    raw = sqlite3.connect(path)  # another program has it open: its -wal and -shm stay
    assert raw.execute("SELECT count(*) FROM games").fetchone() == (1,)
    assert modes(path) == {"": 0o644, "-wal": 0o644, "-shm": 0o644}  # the file's mode
    store = Store(path)
    assert store.tightened
    assert modes(path) == {"": 0o600, "-wal": 0o600, "-shm": 0o600}
    assert [g.id for g in store.games()] == [1]
    store.close()
    raw.close()
    again = Store(path)
    assert not again.tightened
    again.close()


# ------------------------------------------------------------------ a writer thread, locks


def test_a_lock_held_elsewhere_fails_a_write_after_busy_timeout_and_it_can_be_retried(
    engine: Engine,
) -> None:
    store = engine.open(busy_timeout=0.2)  # opened here, used from the writer thread
    writer = ThreadPoolExecutor(max_workers=1)
    try:
        writer.submit(store.write, [started(1), Moves(1, 0, ("header",), 0)]).result()
        batch: list[Write] = [Moves(1, 1, ("deal", "bid"), 2), GameEnded(1, "abandoned")]
        error, message = engine.locked_error
        with engine.write_locked():  # another program takes the write lock
            begun = time.monotonic()
            with pytest.raises(error, match=message):
                writer.submit(store.write, batch).result()
            assert 0.15 < time.monotonic() - begun < 1.5
        writer.submit(store.write, batch).result()  # the same values, once the lock is gone
        (game,) = writer.submit(store.games).result()
        assert (game.lines, game.seq, game.state) == (["header", "deal", "bid"], 2, "abandoned")
        assert engine.counts() == [1, 2, 3]
    finally:
        writer.shutdown()
        store.close()


def test_a_commit_that_fails_is_rolled_back_and_the_store_goes_on(engine: Engine) -> None:
    """A COMMIT can fail (here a deferred foreign key; a full disk in life): what the
    batch did is rolled back, and the next write is not refused as "within a
    transaction"."""
    engine.open().close()
    engine.defer_foreign_keys()
    store = engine.open()
    with pytest.raises(engine.integrity_error):
        store.write([started(1), Moves(9, 0, ("no such game",), 0)])  # fails at COMMIT
    assert engine.counts() == [0, 0, 0]
    store.write([started(1), Moves(1, 0, ("header",), 0)])
    assert engine.counts() == [1, 2, 1]
    store.close()


# ------------------------------------------------------------------ forgetting, retention


def test_a_dropped_game_goes_with_its_seats_and_moves_in_batch_order(engine: Engine) -> None:
    store = engine.open()
    store.write(
        [
            started(1),
            Moves(1, 0, ("header", "deal"), 1),
            started(2, seats=4),
            GameEnded(1, "abandoned"),
            GameDropped(1),  # everything of game 1 above, gone
            Moves(2, 0, ("header",), 0),
        ]
    )
    assert [g.id for g in store.games()] == [2]
    assert engine.counts() == [1, 4, 1]
    store.write([GameDropped(77)])  # nothing to forget: nothing happens
    with pytest.raises(engine.integrity_error):  # a failing batch keeps its drop too
        store.write([GameDropped(2), Moves(3, 0, ("x",), 0)])
    assert engine.counts() == [1, 4, 1]
    store.write([Moves(2, 1, ("deal",), 1), GameDropped(2)])
    assert store.games() == []
    assert engine.counts() == [0, 0, 0]
    store.write([started(2), Moves(2, 0, ("again",), 0)])  # its id may be used again
    assert [g.lines for g in store.games()] == [["again"]]
    store.close()


def finished_at(engine: Engine, when: dict[int, str | None]) -> None:
    for game_id, finished in when.items():
        engine.rows("UPDATE games SET finished = ? WHERE id = ?", (finished, game_id))


def test_prune_removes_finished_games_older_than_a_time_and_never_one_playing(
    engine: Engine,
) -> None:
    store = engine.open()
    empty = store.size()
    store.write(
        [started(i) for i in range(1, 7)]
        + [Moves(i, 0, ("header", "deal"), 1) for i in range(1, 7)]
        + [GameEnded(1, "over", {"Winner": 0}), GameEnded(2, "abandoned")]
        + [GameEnded(4, "over", {"Winner": 1})]
    )
    store.mark_failed(3)
    assert store.game(3).state == "failed"  # type: ignore[union-attr]
    assert store.game(3).finished is not None  # type: ignore[union-attr]
    finished_at(
        engine,
        {
            1: "2024-01-01T10:00:00+00:00",
            2: "2024-01-02T10:00:00+00:00",
            3: "2024-02-01T00:00:00+00:00",
            4: "2024-09-01T00:00:00+00:00",
            5: "2020-01-01T00:00:00+00:00",  # playing (hand-edited), however old: kept
        },
    )
    assert store.size() > empty
    if engine.name == "sqlite":  # the file and its write-ahead log
        path = engine.location
        assert store.size() == os.path.getsize(path) + os.path.getsize(f"{path}-wal")
    assert store.prune("2024-02-01T00:00:00+00:00") == 2  # 3 finished at that very time
    assert [g.id for g in store.games()] == [3, 4, 5, 6]
    assert engine.counts() == [4, 8, 8]
    assert store.prune("2024-02-01T00:00:00+00:00") == 0
    # Read as a time, whatever way it is written.
    assert store.prune("2024-02-01T01:00:00+01:00") == 0
    assert store.prune("2024-02-01T00:00:01Z") == 1
    with pytest.raises(ValueError, match="needs a time with its UTC offset"):
        store.prune("2024-02-01T00:00:00")  # no offset: which time is it?
    assert store.prune("2999-01-01T00:00:00+00:00") == 1  # game 4; 5 and 6 are playing
    assert [(g.id, g.state) for g in store.games()] == [(5, "playing"), (6, "playing")]
    store.close()


# ------------------------------------------------------------------ damaged rows


def test_damaged_rows_never_stop_the_games_from_being_read(engine: Engine) -> None:
    store = engine.open()
    store.write([started(i, seats=4) for i in range(1, 8)])
    store.write([Moves(i, 0, ("header",), 0) for i in range(1, 8)])
    store.close()
    deep = "[" * 5000 + "]" * 5000  # JSON that Python's parser cannot nest so deep
    if engine.name == "sqlite":
        results = [(1, "{bad"), (2, "[1, 2]"), (3, '"text"'), (4, "[" * 100_000)]
    else:  # jsonb: only JSON goes in, but not only objects
        results = [(1, "null"), (2, "[1, 2]"), (3, '"text"'), (4, deep)]
    for game_id, result in results:
        engine.rows("UPDATE games SET result = ? WHERE id = ?", (result, game_id))
    engine.rows("INSERT INTO seats (game, seat, name, token) VALUES (5, 7, 'extra', NULL)")
    engine.rows("UPDATE games SET game = 'nosuchgame' WHERE id = 6")
    if engine.name == "sqlite":  # bytes that are not UTF-8, and blobs, in text columns
        engine.rows("UPDATE games SET name = CAST(x'ff41' AS TEXT), seed = x'6869' WHERE id = 7")
        engine.rows("UPDATE moves SET line = CAST(x'c328' AS TEXT) WHERE game = 7")
        engine.rows("UPDATE seats SET name = x'00', token = 5 WHERE game = 7 AND seat = 0")
        seventh = ("\ufffdA", "hi", ["\ufffd("], ("\x00", "5"))
    else:  # PostgreSQL keeps its types: text that is no record, and odd names
        engine.rows("UPDATE games SET name = '\u00ff', seed = '' WHERE id = 7")
        engine.rows("UPDATE moves SET line = '{\"Type\":' WHERE game = 7")
        engine.rows("UPDATE seats SET name = '', token = '5' WHERE game = 7 AND seat = 0")
        seventh = ("\u00ff", "", ['{"Type":'], ("", "5"))
    store = engine.open()
    games = store.games()
    assert [g.result for g in games[:4]] == [None] * 4
    assert games[4].players == ["p0", "p1", "p2", "p3", "extra"]
    assert games[5].game == "nosuchgame"
    assert (games[6].name, games[6].seed, games[6].lines, games[6].seats[0]) == seventh
    assert len(describe(games)) == 8
    hub = Hub(durable=True)  # none of them can be played on; each is marked failed
    said = hub.lobby.restorer.restore(store.games("playing"), store.last_id())
    assert len(said) == 7
    for game in games:
        store.mark_failed(game.id)
    assert {g.state for g in store.games()} == {"failed"}
    store.close()


def test_a_hand_rebuilt_table_with_any_type_in_any_column_is_read(tmp_path: Path) -> None:
    """Without the schema's types and NOT NULL (a store rebuilt by hand), a column may
    hold anything SQLite allows: each is read as the type StoredGame says."""
    path = tmp_path / "s.db"
    store = Store(path)
    store.write([started(1), started(2)])
    store.close()
    raw = sqlite3.connect(path, isolation_level=None)
    raw.executescript(
        "BEGIN;"
        "CREATE TABLE loose (id INTEGER PRIMARY KEY, game, name, seed, clock, seq, state,"
        " started, finished, result, ai, watchers);"
        "INSERT INTO loose SELECT * FROM games;"
        "DROP TABLE games;"
        "ALTER TABLE loose RENAME TO games;"
        "UPDATE games SET game = NULL, name = 42, seed = 1.5, clock = 'soon', seq = 'x',"
        " started = NULL, result = 7, ai = 3, watchers = 'no' WHERE id = 1;"
        "UPDATE games SET clock = 30, seq = 4.0, finished = 12, watchers = 0.0 WHERE id = 2;"
        "COMMIT;"
    )
    raw.close()
    store = Store(path)
    one, two = store.games()
    assert (one.game, one.name, one.seed, one.clock, one.seq, one.started, one.result) == (
        "None", "42", "1.5", None, 0, "None", None,
    )  # fmt: skip
    assert (two.clock, two.seq, two.finished) == (30.0, 4, "12")
    assert (one.ai, two.ai) == ("3", "naive")
    assert (one.watchers, two.watchers) == (True, False)  # only a 0 refuses watchers
    assert len(describe([one, two])) == 3
    store.close()


# ------------------------------------------------------------------ a store that fails


def test_a_faulty_store_fails_on_demand_and_leaves_nothing_behind(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = FaultyStore(path)
    batch: list[Write] = [started(1), Moves(1, 0, ("header", "deal"), 1)]
    store.failing = True
    with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
        store.write(batch)
    assert counts(path) == [0, 0, 0]
    flip = threading.Thread(target=setattr, args=(store, "failing", False))
    flip.start()  # from another thread, as a test beside a server's writer thread does
    flip.join()
    writer = ThreadPoolExecutor(max_workers=1)
    writer.submit(store.write, batch).result()
    writer.shutdown()
    (game,) = store.games()
    assert game.lines == ["header", "deal"]
    assert counts(path) == [1, 2, 2]
    assert (store.attempts, store.failures) == (2, 1)
    store.close()


# ------------------------------------------------------------------ what the hub saves


def test_a_game_is_saved_as_it_goes_and_exports_to_a_record_that_replays(engine: Engine) -> None:
    store = engine.open()
    h = SavingHarness("saved", store)
    ann = person_vs_ai(h, 1)
    table = h.hub.lobby.tables[1]
    (stored,) = store.games()
    assert stored.state == "playing"
    assert stored.seats == [
        ("ann", hash_token(h.tokens[0])),
        ("AI 1", None),
        ("AI 2", None),
        ("AI 3", None),
    ]
    assert table.game is not None
    assert stored.lines == record_lines(table.game)  # saved before ann was prompted
    assert stored.seq == table.seq == ann.pending()["Seq"]  # type: ignore[index]
    game = table.game
    play_until_over([ann], random.Random(2))
    (stored,) = store.games()
    assert stored.state == "over"
    assert stored.lines == record_lines(game)
    assert game.winner is not None
    assert stored.result == {
        "Winner": game.winner,
        "Score": list(game.scores),
        "Text": f"{game.players[game.winner]} wins with {game.scores[game.winner]}",
    }
    over = ann.game_over()
    assert over is not None
    assert final_score(stored.lines) == {
        "Type": "Score",
        "GameOver": True,
        "Winner": over["Winner"],
        "Score": over["Score"],
    }
    store.close()
    # The token is kept only as its hash.
    raw = engine.dump()
    assert h.tokens[0].encode() not in raw
    assert hash_token(h.tokens[0]).encode() in raw


def test_a_game_nobody_finishes_is_saved_as_abandoned(engine: Engine) -> None:
    store = engine.open()
    h = SavingHarness("abandoned", store)
    ann = person_vs_ai(h, 3)
    ann.send(answer_from_legal(pending_of(ann), random.Random(5)))  # ann played: kept
    ann.send({"Type": "Hello", "Message": "quit"})
    (stored,) = store.games()
    assert (stored.state, stored.result) == ("abandoned", None)
    assert describe(store.games())[1].split()[-2:] == ["abandoned", stored.started]


def test_a_game_nobody_played_in_is_forgotten_by_the_store(engine: Engine) -> None:
    store = engine.open()
    h = SavingHarness("forgotten", store)
    ann = person_vs_ai(h, 3)
    assert [g.state for g in store.games()] == ["playing"]  # saved as it started
    ann.send({"Type": "Hello", "Message": "quit"})
    h.apply([])  # the hub's GameDropped reaches the store
    assert store.games() == []
    assert engine.counts() == [0, 0, 0]
    store.close()


def pending_of(client: Client) -> Message:
    prompt = client.pending()
    assert prompt is not None
    return prompt


def test_a_restarted_hub_restores_the_game_and_the_owner_takes_it_back(engine: Engine) -> None:
    store = engine.open()
    h = SavingHarness("restart", store)
    rng = random.Random(9)
    ann, bob = person_vs_ai(h, 2), None
    for _ in range(14):
        ann.send(answer_from_legal(pending_of(ann), rng))
    prompt = pending_of(ann)
    game = h.hub.lobby.tables[1].game
    assert game is not None
    hand = format_cards(game.hands[0])
    # The process dies here: nothing but the store survives.
    store.close()
    store = engine.open()
    h2 = SavingHarness("restart", store)
    said = h2.hub.lobby.restorer.restore(store.games("playing"), store.last_id())
    h2.apply([])
    assert said == [
        f"game 1 (table 1) restored at round {game.round}; people have 60 s to take their "
        "seats back"
    ]
    assert h2.hub.lobby.timers.next_deadline() == h2.now + 60  # ann's seat waits for her
    again, told = h2.reclaim(h.tokens[0], "ann")
    assert [m["Type"] for m in told] == ["Seat", "Table", "Commit", "Snapshot", prompt["Type"]]
    assert told[2] == ann.last("Commit")  # the seed is the stored one
    assert told[3]["Hand"] == hand
    assert told[4] == prompt  # the same prompt, the same Seq
    # New tables get new ids.
    bob = person_vs_ai(h2, 3, "bob")
    assert bob.last("Table")["Table"] == 2
    play_until_over([again], rng)
    stored = store.game(1)
    assert stored is not None
    assert stored.state == "over"
    over = again.game_over()
    assert over is not None
    assert final_score(stored.lines)["Score"] == over["Score"]
    check_stream(again.messages, {1: "restart-1"})


def test_a_table_keeps_the_ai_it_asked_for_across_a_restart(engine: Engine) -> None:
    """On a server whose default is the strong AI, a table that asked for the naive one
    is stored with it and restored with it; one that asked for nothing keeps strong."""
    store = engine.open()
    h = SavingHarness("kept", store, ai="strong")
    for name, asked in (("ann", {"AI": "naive"}), ("bob", {})):
        h.create(name, Option=1, **asked)
    assert [h.hub.lobby.tables[t].info()["AI"] for t in (1, 2)] == ["naive", "strong"]
    assert [g.ai for g in store.games()] == ["naive", "strong"]
    store, h2 = restarted(store, engine.open, "kept", ai="strong")
    h2.apply([])
    spec = wire.SPEC
    for table_id, level in ((1, "naive"), (2, "strong")):
        table = h2.hub.lobby.tables[table_id]
        assert (table.ai.level, table.info()["AI"]) == (level, level)
        bots = [seat.bot for seat in table.seats[1:] if seat is not None]
        assert len(bots) == 3
        assert all(type(bot) is spec.bots[level] for bot in bots)
    store.close()


#: The moves table as versions 1 to 3 left it (no seq), its lines kept.
_MOVES_BEFORE_4: Final = (
    "CREATE TABLE old_moves (game INTEGER NOT NULL REFERENCES games(id), n INTEGER NOT NULL,"
    " line TEXT NOT NULL, PRIMARY KEY (game, n));"
    "INSERT INTO old_moves SELECT game, n, line FROM moves;"
    "DROP TABLE moves; ALTER TABLE old_moves RENAME TO moves;"
)


def test_a_version_1_store_is_upgraded_and_its_games_go_on_with_the_naive_ai(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    store = Store(path)
    h = SavingHarness("old", store, ai="strong")
    person_vs_ai(h, 1)
    store.close()
    raw = sqlite3.connect(path, isolation_level=None)  # as version 1 left it: no ai column
    raw.executescript(
        "BEGIN;"
        "CREATE TABLE v1 (id INTEGER PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL,"
        " seed TEXT NOT NULL, clock REAL, seq INTEGER NOT NULL, state TEXT NOT NULL,"
        " started TEXT NOT NULL, finished TEXT, result TEXT);"
        "INSERT INTO v1 SELECT id, game, name, seed, clock, seq, state, started, finished,"
        " result FROM games;"
        "DROP TABLE games; ALTER TABLE v1 RENAME TO games;"
        + _MOVES_BEFORE_4
        + "PRAGMA user_version=1; COMMIT;"
    )
    raw.close()
    store = Store(path)
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION == 4
    raw.close()
    (game,) = store.games("playing")
    assert game.ai is None
    assert game.watchers is True  # as every table did before they could refuse
    h2 = SavingHarness("old", store, ai="strong")
    h2.hub.lobby.restorer.restore([game], store.last_id())
    assert h2.hub.lobby.tables[1].info()["AI"] == "naive"
    assert h2.hub.lobby.tables[1].watchable
    store.close()


def test_a_version_2_store_is_upgraded_and_its_tables_take_watchers(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = Store(path)
    person_vs_ai(SavingHarness("old", store), 1)
    store.close()
    raw = sqlite3.connect(path, isolation_level=None)  # as version 2 left it
    raw.executescript(
        "BEGIN;"
        "CREATE TABLE v2 (id INTEGER PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL,"
        " seed TEXT NOT NULL, clock REAL, seq INTEGER NOT NULL, state TEXT NOT NULL,"
        " started TEXT NOT NULL, finished TEXT, result TEXT, ai TEXT);"
        "INSERT INTO v2 SELECT id, game, name, seed, clock, seq, state, started, finished,"
        " result, ai FROM games;"
        "DROP TABLE games; ALTER TABLE v2 RENAME TO games;"
        + _MOVES_BEFORE_4
        + "PRAGMA user_version=2; COMMIT;"
    )
    raw.close()
    store = Store(path)
    (game,) = store.games("playing")
    assert game.watchers is True
    store.close()


def test_a_save_inserts_its_lines_and_updates_no_game_row(engine: Engine) -> None:
    """The prompt number goes on a save's last line (version 4; PostgreSQL's 3): a save
    of moves writes no ``games`` row, and the game reads the number of its last save."""
    store = engine.open()
    store.write([started(1), Moves(1, 0, ("header",), 0)])
    store.write([Moves(1, 1, ("deal", "bid"), 2)])
    store.write([Moves(1, 3, ("pass",), 3), started(2), Moves(2, 0, ("header", "deal"), 1)])
    assert engine.rows("SELECT id, seq FROM games ORDER BY id") == [(1, 0), (2, 0)]
    assert engine.rows("SELECT game, n, seq FROM moves ORDER BY game, n") == [
        (1, 0, 0),
        (1, 1, None),
        (1, 2, 2),
        (1, 3, 3),
        (2, 0, None),
        (2, 1, 1),
    ]
    assert [(g.id, g.seq, g.lines) for g in store.games()] == [
        (1, 3, ["header", "deal", "bid", "pass"]),
        (2, 1, ["header", "deal"]),
    ]
    store.close()


def test_a_version_3_store_is_upgraded_and_its_games_keep_their_prompt_numbers(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    store = Store(path)
    store.write([started(1), Moves(1, 0, ("header", "deal"), 0), started(2)])
    store.write([Moves(2, 0, ("header",), 0)])
    store.close()
    raw = sqlite3.connect(path, isolation_level=None)  # as version 3 left it: games.seq
    raw.executescript(
        "BEGIN;"
        + _MOVES_BEFORE_4
        + "UPDATE games SET seq = 7 WHERE id = 1; UPDATE games SET seq = 4 WHERE id = 2;"
        "PRAGMA user_version=3; COMMIT;"
    )
    raw.close()
    store = Store(path)
    assert [(g.id, g.seq) for g in store.games()] == [(1, 7), (2, 4)]  # games.seq's
    store.write([Moves(1, 2, ("bid",), 8)])  # a save after: its line holds the number
    assert [(g.id, g.seq, len(g.lines)) for g in store.games()] == [(1, 8, 3), (2, 4, 1)]
    store.close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION
    assert raw.execute("SELECT seq FROM moves ORDER BY game, n").fetchall() == [
        (None,),
        (None,),
        (8,),
        (None,),
    ]
    raw.close()


def test_a_table_that_takes_no_watchers_still_takes_none_after_a_restart(
    engine: Engine,
) -> None:
    """The store keeps whether a table takes watchers (never who watches): restored,
    a ``"Watchers":false`` table refuses them, one that took them takes them again, and
    nobody watches either yet."""
    store = engine.open()
    h = SavingHarness("private", store)
    for watchers in (False, True):
        h.create("ann", Option=1, Watchers=watchers)
        onlooker = h.json_client("wat")
        told = onlooker.send({"Type": "Watch", "Table": len(h.hub.lobby.tables)})
        assert told[0]["Type"] == ("Table" if watchers else "Error")
    assert [len(t.watchers) for t in h.hub.lobby.tables.values()] == [0, 1]
    assert [g.watchers for g in store.games("playing")] == [False, True]
    store, h2 = restarted(store, engine.open, "private")
    assert [(t.watchable, t.watchers) for t in h2.hub.lobby.tables.values()] == [
        (False, []),
        (True, []),
    ]
    onlooker = h2.json_client("wat")
    assert onlooker.send({"Type": "Watch", "Table": 1})[0]["Code"] == "no_watchers"
    assert [m["Type"] for m in onlooker.send({"Type": "Watch", "Table": 2})][:3] == [
        "Table",
        "Commit",
        "Snapshot",
    ]
    store.close()


def test_after_a_restart_the_ai_plays_for_whoever_does_not_come_back(engine: Engine) -> None:
    store = engine.open()
    h = SavingHarness("gone", store)
    person_vs_ai(h, 1)
    store, h2 = restarted(store, engine.open, "gone")
    h2.apply([])
    h2.advance(60)  # nobody came back: the AI plays the game out
    (stored,) = store.games()
    assert stored.state == "over"
    assert final_score(stored.lines)["GameOver"] is True


class CrashingHarness(SavingHarness):
    """A ``SavingHarness`` whose server dies right after the save that ends a game is
    committed, before anything it produced is sent: what it would have sent is kept in
    ``unsent`` (by connection), and nothing is delivered from then on."""

    def __init__(self, prefix: str, store: GameStore) -> None:
        super().__init__(prefix, store)
        self.dead = False
        self.unsent: dict[int, list[Message]] = {}

    def apply(self, commands: Iterable[Command]) -> None:
        writes = self.hub.lobby.journal.take()
        self.store.write(writes)
        self.dead = self.dead or any(isinstance(w, GameEnded) for w in writes)
        if not self.dead:
            super().apply(commands)
            return
        for command in commands:
            data = getattr(command, "data", b"")
            self.unsent.setdefault(command.conn, []).extend(
                json.loads(line) for line in data.splitlines()
            )


def crash_at_the_end(store: GameStore, name: str) -> tuple[CrashingHarness, Client]:
    """ann against AI at a table of ``name``, played until the save that ends the game,
    after which the server dies (``CrashingHarness``)."""
    h = CrashingHarness("crash", store)
    ann = h.create("ann", name, Option=solo_option(games.get(name)))
    rng = random.Random(4)
    for _ in range(5000):
        if h.dead:
            break
        ann.send(answer_from_legal(pending_of(ann), rng))
    assert h.dead
    assert ann.game_over() is None  # ann was told nothing of the end
    assert [m["Type"] for m in h.unsent[ann.conn][-3:]] == ["Reveal", "Message", "Hello"]
    return h, ann


def test_a_crash_between_saving_the_last_move_and_sending_it_loses_no_end(
    engine: Engine,
) -> None:
    """Issue #27, finding 7: the final move is saved, the server dies before it sends
    it; after the restart the seat's token gets the game's end (the messages of its
    last move, Score and GameOver with Win among them, and the Reveal), then the lobby,
    for as long as ``Limits.result_hold`` says; then ``bad_token`` again."""
    store = engine.open()
    h, ann = crash_at_the_end(store, "hundredandten")
    unsent = h.unsent[ann.conn]
    (stored,) = store.games()
    assert stored.state == "over"
    assert stored.result is not None
    store.close()
    store = engine.open()
    h2 = SavingHarness("crash", store)
    said = h2.hub.lobby.restorer.restore(restorable(store), store.last_id())
    h2.apply([])
    assert said == ["game 1 (table 1) is over: its people's tokens get its end for 600 s"]
    assert h2.hub.lobby.tables == {}
    again, told = h2.reclaim(h.tokens[0], "ann")
    assert told[0] == {"Type": "Seat", "Table": 1, "Playerid": 0, "Token": h.tokens[0]}
    text = f"The game at table 1 is over: {stored.result['Text']}"
    assert told[1] == {"Type": "Message", "Message": text}
    end = told[2:]
    # Exactly what ann would have been sent for the game's last move, its Reveal and
    # the lobby question, in that order.
    assert end == unsent[-len(end) :]
    over = [m for m in end if m.get("GameOver")]
    assert over == [{**final_score(stored.lines), "Win": stored.result["Winner"] == 0}]
    assert end[-3]["Type"] == "Reveal"
    assert end[-3]["Seed"] == "crash-1"
    assert again.pending() is None  # in the lobby: a Hello may follow
    assert again.send({"Type": "Hello", "Message": "join"})[0]["Type"] == "Tables"
    # The token reads the end again (another connection, say) for result_hold seconds.
    eve = h2.json_client("eve")
    assert eve.send({"Type": "Hello", "Token": h.tokens[0]})[2:] == end
    h2.advance(600)
    late = h2.json_client("late")
    refused = late.send({"Type": "Hello", "Token": h.tokens[0]})
    assert refused[0]["Code"] == "bad_token"
    store.close()


@pytest.mark.parametrize("name", games.names())
def test_every_games_end_reaches_its_people_after_such_a_crash(tmp_path: Path, name: str) -> None:
    """The end is the game's own (its ``tell``, replayed), whatever the game."""
    store = Store(tmp_path / "s.db")
    h, ann = crash_at_the_end(store, name)
    h2 = SavingHarness("crash", store)
    h2.hub.lobby.restorer.restore(restorable(store), store.last_id())
    told = h2.json_client("ann").send({"Type": "Hello", "Token": h.tokens[0]})
    end = told[2:]
    assert end == h.unsent[ann.conn][-len(end) :]
    assert [m["Win"] for m in end if m.get("GameOver")] in ([True], [False])
    check_stream(ann.messages + end, {1: "crash-1"})
    store.close()


def test_only_the_games_that_ended_just_before_the_last_one_are_read_back(
    engine: Engine,
) -> None:
    store = engine.open()
    seats = (("a", "0" * 64), ("b", None))
    header = '{"Type":"Record","Game":"hundredandten","Version":1,"Players":["a","b"]}'
    writes: list[Write] = []
    for game_id in (1, 2, 3, 4):
        writes += [
            GameStarted(game_id, "hundredandten", "t", "s", None, seats),
            Moves(game_id, 0, (header,), 0),
        ]
    writes += [GameEnded(1, "over", {"Text": "a wins"}), GameEnded(2, "abandoned")]
    writes.append(GameEnded(3, "over", {"Text": "a wins"}))
    store.write(writes)
    finished_at(engine, {1: "2025-01-01T09:59:59+00:00", 3: "2025-01-01T10:01:00+00:00"})
    assert [(g.id, g.state) for g in restorable(store)] == [(4, "playing"), (3, "over")]
    finished_at(engine, {1: "2025-01-01T10:00:30+00:00"})
    assert [g.id for g in restorable(store)] == [4, 1, 3]
    # Their records end no game: they are logged, and their tokens take nothing.
    hub = Hub(durable=True)
    said = hub.lobby.restorer.restore(restorable(store)[1:], store.last_id())
    assert [line.split(" (")[0] for line in said] == [
        "game 1 is over and its end cannot be replayed",
        "game 3 is over and its end cannot be replayed",
    ]
    assert hub.lobby.tokens.ended == {}
    store.close()


def test_a_record_that_cannot_be_restored_is_marked_failed(engine: Engine) -> None:
    store = engine.open()
    store.write(
        [
            GameStarted(1, "hundredandten", "t", "s", None, (("a", "0" * 64), ("b", None))),
            Moves(1, 0, ('{"Type":"Record","Game":"hundredandten","Version":1}',), 0),
        ]
    )
    hub = Hub(durable=True)
    (said,) = hub.lobby.restorer.restore(store.games("playing"), store.last_id())
    assert said.startswith("game 1 cannot be restored (")
    store.write(hub.lobby.journal.take())
    assert store.games()[0].state == "failed"
    assert hub.lobby.tables == {}


# ------------------------------------------------------------------ many at once


@pytest.mark.asyncio
async def test_a_hundred_tables_writing_at_once_lose_nothing(engine: Engine) -> None:
    store = engine.open()
    # Every player comes from 127.0.0.1: lift the per-address limits for this test.
    limits = Limits(max_connections_per_address=1000, max_tables_per_address=1000)
    # The naive AI: this is about the store's writes, not the AI's thinking (a hundred
    # strong-AI tables, paced, would take turns at the event loop for minutes).
    hub = Hub(seed_source=lambda: "many", durable=True, limits=limits, ai=AISettings("naive"))
    server = Server(hub, Settings(limits, Listeners("127.0.0.1", 0)), store=store)
    await server.start()
    answers = 20

    async def player(i: int) -> tuple[int, Message]:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        try:
            writer.write(b'{"Type":"Hello","Message":"create"}\n{"Type":"Game","Option":1}\n')
            rng = random.Random(i)
            table, given = 0, 0
            while True:
                msg = json.loads(await asyncio.wait_for(reader.readline(), READ_TIMEOUT))
                if msg["Type"] == "Seat":
                    table = msg["Table"]
                if is_prompt(msg) and "Legal" in msg:
                    if given == answers:
                        return table, msg
                    writer.write(json.dumps(answer_from_legal(msg, rng)).encode() + b"\n")
                    given += 1
        finally:
            writer.close()

    try:
        results = await asyncio.gather(*(player(i) for i in range(100)))
    finally:
        await server.close()
    store.close()
    store = engine.open()
    games = {g.id: g for g in store.games()}
    assert sorted(games) == sorted(t for t, _ in results) == list(range(1, 101))
    for table, prompt in results:
        stored = games[table]
        assert stored.state == "playing"
        assert stored.seq == prompt["Seq"]
        game = load_record(stored.lines)
        moves = [item for item in game.history if isinstance(item, tuple) and item[0] == 0]
        assert len(moves) == answers  # every answer the person gave is in the record
        assert wire.prompt(game, 0, stored.seq) == prompt  # the state the person saw
    store.close()


# ------------------------------------------------------------------ the commands


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_command(*args, cwd=cwd)


def test_games_and_export_commands(engine: Engine, tmp_path: Path) -> None:
    store = engine.open()
    h = SavingHarness("cmd", store)
    ann = person_vs_ai(h, 3)
    play_until_over([ann], random.Random(4))
    bob = person_vs_ai(h, 1, "bob")
    assert bob.pending() is not None
    store.close()
    listed = cli("games", *engine.store_args, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0].split() == ["ID", "GAME", "PLAYERS", "STATE", "STARTED", "RESULT"]
    assert len(lines) == 3
    over = ann.game_over()
    assert over is not None
    winner = ["ann", "AI 1"][over["Winner"]]
    assert lines[1].split()[:5] == ["1", "hundredandten", "ann,", "AI", "1"]
    assert " over " in lines[1]
    assert lines[1].endswith(f"{winner} wins with {over['Score'][over['Winner']]}")
    assert " playing " in lines[2]
    exported = cli("export", "1", *engine.store_args, cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    (tmp_path / "game1.jsonl").write_text(exported.stdout)
    replayed = cli("replay", "game1.jsonl", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout.splitlines()[-1]) == {
        "Type": "Score",
        "GameOver": True,
        "Winner": over["Winner"],
        "Score": over["Score"],
    }
    refused = cli("export", "2", *engine.store_args, cwd=tmp_path)  # bob's game goes on
    assert (refused.returncode, refused.stdout) == (2, "")
    assert "game 2 is still playing" in refused.stderr
    assert "--under-way" in refused.stderr
    under_way = cli("export", "2", "--under-way", *engine.store_args, cwd=tmp_path)
    assert under_way.returncode == 0, under_way.stderr
    assert json.loads(under_way.stdout.splitlines()[0])["Type"] == "Record"
    missing = cli("export", "7", *engine.store_args, cwd=tmp_path)
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == f"hundred-server export: no game 7 in {engine.shown!r}\n"
    if engine.name == "sqlite":
        nothing = cli("games", "--db", "none.db", cwd=tmp_path)
        assert (nothing.returncode, nothing.stderr) == (
            2,
            "hundred-server games: no store at 'none.db'\n",
        )
        assert not (tmp_path / "none.db").exists()
    else:  # a database with no store in it is not given one by a reader
        engine.rows("DROP TABLE moves, seats, games, hundred_store")
        nothing = cli("games", *engine.store_args, cwd=tmp_path)
        assert (nothing.returncode, nothing.stderr) == (
            2,
            f"hundred-server games: no store in {engine.shown} (the first `serve --store` "
            "on it makes one)\n",
        )
        assert engine.rows("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == [(0,)]


def test_serve_refuses_a_damaged_store_and_leaves_it(tmp_path: Path) -> None:
    path = tmp_path / "hundred.db"
    path.write_bytes(b"\x00" * 5000)
    before = path.read_bytes()
    done = cli("serve", "--port", "0", cwd=tmp_path)
    assert done.returncode == 2
    assert "is not an SQLite file" in done.stderr
    assert path.read_bytes() == before


# ------------------------------------------------------------------ kill -9


def test_kill_9_mid_game_then_restart_and_finish_from_the_same_state(engine: Engine) -> None:
    asyncio.run(crash_and_resume(engine))


async def crash_and_resume(engine: Engine) -> None:
    process, port = start_server(store=engine.location)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b'{"Type":"Hello","Message":"create","Name":"ann"}\n')
        writer.write(b'{"Type":"Game","Option":2}\n')
        rng = random.Random(12)
        token, given, hand = "", 0, []
        while True:
            msg = json.loads(await asyncio.wait_for(reader.readline(), READ_TIMEOUT))
            if msg["Type"] == "Seat":
                token = msg["Token"]
            if msg["Type"] == "Deal":
                hand = msg["Hand"]
            if msg["Type"] == "Discard" and "Hand" in msg:
                hand = msg["Hand"]
            if msg["Type"] == "Play" and msg.get("Playerid") == 0 and "PlayedCard" in msg:
                hand.remove(msg["PlayedCard"])
            if is_prompt(msg) and "Legal" in msg:
                if given >= 25 and msg["Type"] == "Play":
                    prompt = msg
                    break
                writer.write(json.dumps(answer_from_legal(msg, rng)).encode() + b"\n")
                given += 1
        process.send_signal(signal.SIGKILL)
        assert process.wait(10) == -signal.SIGKILL
        writer.close()
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=5)

    process, port = start_server(store=engine.location)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(json.dumps({"Type": "Hello", "Token": token}).encode() + b"\n")
        messages: list[Message] = []
        while True:
            msg = json.loads(await asyncio.wait_for(reader.readline(), READ_TIMEOUT))
            messages.append(msg)
            if is_prompt(msg):
                break
        kinds = [m["Type"] for m in messages]
        assert kinds[-5:] == ["Seat", "Table", "Commit", "Snapshot", "Play"]
        snapshot = messages[-2]
        assert snapshot["Hand"] == hand  # the same hand
        assert messages[-1] == prompt  # the same prompt, the same Seq
        while True:
            if is_prompt(msg) and "Legal" in msg:
                writer.write(json.dumps(answer_from_legal(msg, rng)).encode() + b"\n")
            msg = json.loads(await asyncio.wait_for(reader.readline(), READ_TIMEOUT))
            messages.append(msg)
            if msg.get("GameOver"):
                break
        writer.close()
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=10)
    store = engine.open()
    (stored,) = store.games()
    store.close()
    assert stored.state == "over"
    assert stored.result is not None
    assert (stored.result["Winner"], stored.result["Score"]) == (msg["Winner"], msg["Score"])
    assert final_score(stored.lines) == {
        "Type": "Score",
        "GameOver": True,
        "Winner": msg["Winner"],
        "Score": msg["Score"],
    }


def test_shutting_down_tells_the_people_in_a_game_it_is_saved(engine: Engine) -> None:
    store = engine.open()
    h = SavingHarness("bye", store)
    ann = person_vs_ai(h, 1)
    bob = h.json_client("bob")  # in the lobby, not in a game
    h.apply(h.hub.shutdown())
    bye = {"Type": "Message", "Message": "The server is shutting down. Bye!"}
    assert ann.take() == [
        {
            "Type": "Message",
            "Message": "Your game at table 1 is saved: when the server is back, send your "
            "token to take your seat again",
        },
        bye,
    ]
    assert bob.take() == [bye]
    assert ann.closed
    assert bob.closed
    assert store.games()[0].state == "playing"  # to be restored


def test_one_game_is_read_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``game(id)`` reads that game's row, seats and record, not every game's."""
    store = Store(tmp_path / "s.db")
    for game_id in (1, 2, 3):
        store.write([started(game_id), Moves(game_id, 0, (f"header {game_id}", "a"), 1)])
    filled: list[int] = []
    fill = Store._fill
    monkeypatch.setattr(
        Store, "_fill", lambda self, game: filled.append(game.id) or fill(self, game)
    )
    two = store.game(2)
    assert two is not None
    assert (two.id, two.name, two.lines, two.seq) == (2, "t2", ["header 2", "a"], 1)
    assert filled == [2]
    assert store.game(9) is None
    assert [g.id for g in store.games("playing")] == [1, 2, 3]
    store.close()
