"""The PostgreSQL store's own (store/postgres.py), against a real PostgreSQL
(tests/support/engines.py): its version table, a database that is not ours, one server per
store, connections lost and made again (a COMMIT whose answer was lost included), the
server paused while PostgreSQL is down, and passwords never shown. What it shares with
SQLite runs on both engines in test_store.py."""

from __future__ import annotations

import asyncio
import random
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from hundred_server.games.records import load_record
from hundred_server.store import (
    GameEnded,
    GameStarted,
    Moves,
    StoreBusy,
    StoreError,
    Write,
    open_store,
    redact,
)
from hundred_server.store.postgres import STORE_VERSION, PostgresStore
from tests.store.test_store_faults import against_ai, serving
from tests.support import engines
from tests.support.engines import PASSWORD, PASSWORD_ROLE, Cluster, Engine, fresh_database
from tests.support.hub_harness import answer_from_legal, is_prompt
from tests.support.live_server import free_port, run_command, start_server
from tests.support.peer import Peer, new_table_refusal


def started(game_id: int) -> GameStarted:
    return GameStarted(game_id, "hundredandten", f"t{game_id}", "s", None, (("a", None),))


def advisory_locks(engine: Engine) -> list[tuple[int]]:
    """The sessions that hold an advisory lock in the engine's database."""
    return engine.rows(
        "SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database"
        " WHERE l.locktype = 'advisory' AND l.granted AND d.datname = ?",
        (engine.database,),
    )


# ------------------------------------------------------------------ the layout


def test_a_new_store_has_its_version_table_and_room_for_leases(pg_engine: Engine) -> None:
    store = pg_engine.open()
    store.write([started(1), GameEnded(1, "over", {"Winner": 0, "Text": "a wins"})])
    tables = pg_engine.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    assert {t for (t,) in tables} == {"hundred_store", "games", "seats", "moves"}
    assert pg_engine.rows("SELECT application, version FROM hundred_store") == [
        ("hundred_server", STORE_VERSION)
    ]
    # Times are times, the result is jsonb; the lease columns wait for several servers.
    assert pg_engine.rows(
        "SELECT pg_typeof(started)::text, result->>'Text', owner, lease_until FROM games"
    ) == [("timestamp with time zone", "a wins", None, None)]
    (game,) = store.games()
    assert game.started.endswith("+00:00")
    assert game.started == game.finished
    store.close()
    store.close()  # harmless
    with pytest.raises(StoreError, match="is closed"):
        store.games()


def test_another_programs_database_is_refused_and_left_alone(pg_engine: Engine) -> None:
    pg_engine.rows("CREATE TABLE accounts (id integer, balance integer)")
    pg_engine.rows("INSERT INTO accounts VALUES (1, 100)")
    for create in (True, False):
        with pytest.raises(StoreError) as caught:
            open_store(pg_engine.location, exclusive=True, create=create)
        assert caught.value.message == (
            f"{pg_engine.shown} holds tables that are not a hundred_server store (in its "
            "schema 'public'); they were left as they are (use another database, or another "
            "schema: ?options=-csearch_path%3DNAME)"
        )
    tables = pg_engine.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    assert tables == [("accounts",)]
    assert pg_engine.rows("SELECT * FROM accounts") == [(1, 100)]
    assert advisory_locks(pg_engine) == []  # a refused store keeps no lock


def _upgraded(pg_engine: Engine, version: int, *statements: str) -> PostgresStore:
    """The store, closed, made as ``version`` left it (``statements``, then its version
    table), opened again: brought up to ``STORE_VERSION``."""
    for statement in statements:
        pg_engine.rows(statement)
    pg_engine.rows("UPDATE hundred_store SET version = ?", (version,))
    store = pg_engine.open()
    assert pg_engine.rows("SELECT version FROM hundred_store") == [(STORE_VERSION,)] == [(3,)]
    assert isinstance(store, PostgresStore)
    return store


def test_a_version_1_store_is_upgraded_and_its_tables_take_watchers(pg_engine: Engine) -> None:
    store = pg_engine.open()
    store.write([started(1)])
    store.close()
    store = _upgraded(
        pg_engine,
        1,  # as version 1 left it
        "ALTER TABLE games DROP COLUMN watchers",
        "ALTER TABLE moves DROP COLUMN seq",
    )
    (game,) = store.games()
    assert game.watchers is True
    store.write([GameStarted(2, "whist", "private", "s", None, (("a", None),), watchers=False)])
    assert [g.watchers for g in store.games()] == [True, False]
    store.close()


def test_a_version_2_store_is_upgraded_and_its_games_keep_their_prompt_numbers(
    pg_engine: Engine,
) -> None:
    store = pg_engine.open()
    store.write([started(1), Moves(1, 0, ("header", "deal"), 0), started(2)])
    store.close()
    store = _upgraded(
        pg_engine,
        2,  # as version 2 left it: the prompt number in games.seq
        "ALTER TABLE moves DROP COLUMN seq",
        "UPDATE games SET seq = 7 WHERE id = 1",
    )
    assert [(g.id, g.seq) for g in store.games()] == [(1, 7), (2, 0)]  # games.seq's
    store.write([Moves(1, 2, ("bid",), 8), Moves(2, 0, ("header",), 1)])
    assert [(g.id, g.seq, len(g.lines)) for g in store.games()] == [(1, 8, 3), (2, 1, 1)]
    assert pg_engine.rows("SELECT id, seq FROM games ORDER BY id") == [(1, 7), (2, 0)]
    store.close()


def test_a_store_from_a_newer_version_is_refused_and_keeps_no_lock(pg_engine: Engine) -> None:
    pg_engine.open().close()
    pg_engine.rows("UPDATE hundred_store SET version = version + 1")
    with pytest.raises(StoreError) as caught:
        pg_engine.open(exclusive=True)
    assert not isinstance(caught.value, StoreBusy)
    assert caught.value.message == (
        f"the store {pg_engine.shown} was made by a newer hundred_server (store version "
        f"{STORE_VERSION + 1}; this one reads up to {STORE_VERSION}); it was left as it is"
    )
    assert advisory_locks(pg_engine) == []
    pg_engine.rows("UPDATE hundred_store SET application = 'other'")
    with pytest.raises(StoreError, match="does not say it is ours"):
        pg_engine.open()


def test_stores_in_two_schemas_of_one_database_are_two_stores(pg_engine: Engine) -> None:
    pg_engine.rows("CREATE SCHEMA one")
    pg_engine.rows("CREATE SCHEMA two")
    first = open_store(pg_engine.location + "?options=-csearch_path%3Done", exclusive=True)
    second = open_store(pg_engine.location + "?options=-csearch_path%3Dtwo", exclusive=True)
    first.write([started(1)])
    second.write([started(2)])
    assert [g.id for g in first.games()] == [1]
    assert [g.id for g in second.games()] == [2]
    with pytest.raises(StoreBusy):  # each schema has its one server
        open_store(pg_engine.location + "?options=-csearch_path%3Done", exclusive=True)
    first.close()
    second.close()
    pg_engine.rows("DROP SCHEMA one CASCADE")
    with pytest.raises(StoreError, match="has no schema to be in"):
        open_store(pg_engine.location + "?options=-csearch_path%3Done")


# ------------------------------------------------------------------ lost connections


def backend_of(store: object) -> int:
    assert isinstance(store, PostgresStore)
    db = store._db
    assert db is not None
    return db.info.backend_pid


def test_a_lost_connection_is_made_again_with_its_lock(pg_engine: Engine) -> None:
    store = pg_engine.open(exclusive=True, busy_timeout=0.3)
    store.write([started(1), Moves(1, 0, ("header",), 0)])
    old = backend_of(store)
    assert advisory_locks(pg_engine) == [(old,)]
    pg_engine.rows("SELECT pg_terminate_backend(?, 5000)", (old,))  # an operator, a restart
    batch: list[Write] = [Moves(1, 1, ("deal",), 1)]
    with pytest.raises(psycopg.OperationalError):
        store.write(batch)
    store.write(batch)  # the same values: a new connection, the lock taken again
    assert advisory_locks(pg_engine) == [(backend_of(store),)] != [(old,)]
    assert store.games()[0].lines == ["header", "deal"]
    # Another server took the store while this one was cut off: this one stops saving.
    pg_engine.rows("SELECT pg_terminate_backend(?, 5000)", (backend_of(store),))
    other = pg_engine.open(exclusive=True)
    with pytest.raises(psycopg.OperationalError):
        store.write([Moves(1, 2, ("bid",), 2)])
    with pytest.raises(StoreBusy):
        store.write([Moves(1, 2, ("bid",), 2)])
    other.close()
    store.write([Moves(1, 2, ("bid",), 2)])  # let go: this one has it again
    assert store.games()[0].lines == ["header", "deal", "bid"]


class LostCommit(PostgresStore):
    """A store whose connection breaks as its next COMMIT is sent: after it reached
    PostgreSQL (``committed``) or before (not)."""

    def __init__(self, url: str, committed: bool) -> None:
        super().__init__(url)
        self.committed = committed
        self.armed = False

    def _commit(self, db: psycopg.Connection[tuple[object, ...]]) -> None:
        if self.armed:
            self.armed = False
            if self.committed:
                super()._commit(db)
            db.close()  # the answer never comes: PostgreSQL ends (or rolls back) alone
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        super()._commit(db)


@pytest.mark.parametrize("committed", [True, False])
def test_a_commit_whose_answer_was_lost_is_saved_once(pg_engine: Engine, committed: bool) -> None:
    store = LostCommit(pg_engine.location, committed)
    store.write([started(1), Moves(1, 0, ("header",), 0)])
    batch: list[Write] = [Moves(1, 1, ("deal", "bid"), 2), GameEnded(1, "abandoned")]
    store.armed = True
    with pytest.raises(psycopg.OperationalError):
        store.write(batch)
    assert pg_engine.counts() == ([1, 1, 3] if committed else [1, 1, 1])
    # The server tries the same batch again, with what was queued since after it.
    store.write([*batch, started(2), Moves(2, 0, ("header",), 0)])
    one, two = store.games()
    assert (one.lines, one.seq, one.state) == (["header", "deal", "bid"], 2, "abandoned")
    assert two.lines == ["header"]
    assert pg_engine.counts() == [2, 2, 4]
    store.close()


# ------------------------------------------------------------------ a server

READ_TIMEOUT = 10.0


@pytest.mark.asyncio
async def test_postgresql_stopped_mid_game_pauses_the_table_until_it_is_back(
    pg_engine: Engine,
) -> None:
    cluster = pg_engine.cluster
    assert cluster is not None
    store = pg_engine.open(exclusive=True)
    rng = random.Random(3)
    try:
        async with serving(store) as server, asyncio.timeout(60):
            ann, prompt = await against_ai(server.port)
            bob = await Peer.welcomed(server.port)
            await asyncio.to_thread(cluster.stop)
            try:
                await ann.send(answer_from_legal(prompt, rng))  # accepted, not saved
                await ann.nothing_for(0.5)  # nothing unsaved is sent
                assert server.store_down
                assert await new_table_refusal(bob) == "store_unavailable"  # the lobby goes on
            finally:
                await asyncio.to_thread(cluster.start)
            seq = prompt["Seq"]
            while not (is_prompt(msg := await ann.recv(READ_TIMEOUT)) and msg["Seq"] > seq):
                pass
            assert not server.store_down
            await bob.send({"Type": "Game", "Option": 1})  # new tables again
            while not is_prompt(msg := await bob.recv()):
                assert msg["Type"] != "Error", msg
            for peer in (ann, bob):
                await peer.close()
    finally:
        store.close()
    check = pg_engine.open()
    game = load_record(check.game(1).lines)  # type: ignore[union-attr]
    mine = [item for item in game.history if isinstance(item, tuple) and item[0] == 0]
    assert len(mine) == 1  # the answer given while PostgreSQL was down, kept once


# ------------------------------------------------------------------ passwords, URLs


@pytest.fixture
def ann_db(pg_cluster: Cluster) -> Iterator[Engine]:
    """A database owned by the role that logs in with a password."""
    with fresh_database(pg_cluster, owner=PASSWORD_ROLE) as engine:
        yield engine


def test_redact_hides_the_password_wherever_the_url_has_it() -> None:
    assert redact("postgresql://ann:pw@db.example:5432/games") == (
        "postgresql://ann:***@db.example:5432/games"
    )
    assert redact("postgres://ann@h/g?sslmode=require&password=pw") == (
        "postgres://ann@h/g?sslmode=require&password=***"
    )
    assert redact("postgresql://:p%40ss@h/g") == "postgresql://:***@h/g"
    for kept in ("postgresql://ann@h:5432/g", "postgresql://h:5432/g", "hundred.db"):
        assert redact(kept) == kept


def test_a_password_is_never_shown_in_an_error(ann_db: Engine, pg_cluster: Cluster) -> None:
    good = pg_cluster.url(ann_db.database, PASSWORD_ROLE, PASSWORD)
    wrong = pg_cluster.url(ann_db.database, PASSWORD_ROLE, "Wr0ng-Secret")
    refused = run_command("games", "--store", wrong)
    assert refused.returncode == 2
    assert refused.stderr.startswith(
        f"hundred-server games: cannot connect to the store {redact(wrong)}: "
    )
    assert f'password authentication failed for user "{PASSWORD_ROLE}"' in refused.stderr
    unreachable = f"postgresql://ann:{PASSWORD}@127.0.0.1:{free_port()}/x"
    nobody = run_command("export", "1", "--store", unreachable)
    assert nobody.returncode == 2
    assert "postgresql://ann:***@127.0.0.1:" in nobody.stderr
    assert "Connection refused" in nobody.stderr
    unknown = run_command("games", "--store", f"mysql://ann:{PASSWORD}@h/db")
    assert (unknown.returncode, unknown.stderr) == (
        2,
        "hundred-server games: unknown kind of store mysql:// in mysql://ann:***@h/db "
        "(known: postgresql://, postgres://; an SQLite file is given with --db PATH)\n",
    )
    garbled = run_command("games", "--store", f"postgresql://ann:{PASSWORD}%zz@127.0.0.1/x")
    assert garbled.returncode == 2
    assert "not a PostgreSQL URL" in garbled.stderr
    both = run_command("games", "--store", good, "--db", "x.db")
    assert both.returncode == 2
    assert "not allowed with argument" in both.stderr
    for done in (refused, nobody, unknown, garbled, both):
        assert PASSWORD not in done.stdout + done.stderr
        assert "Wr0ng-Secret" not in done.stdout + done.stderr


def test_a_server_on_postgresql_logs_no_password_and_a_second_one_is_refused(
    ann_db: Engine, pg_cluster: Cluster
) -> None:
    url = pg_cluster.url(ann_db.database, PASSWORD_ROLE, PASSWORD)
    first, port = start_server(store=url)
    try:
        second = run_command("serve", "--port", "0", "--store", url)
        assert second.returncode == 2
        assert second.stderr == (
            f"hundred-server serve: the store {redact(url)} is in use by another "
            "hundred_server (another `serve` on the same --store); stop it first or use "
            "another database\n"
        )
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            assert sock.makefile("rb").readline().startswith(b'{"Type":"Message"')
    finally:
        first.send_signal(signal.SIGTERM)
        out, err = first.communicate(timeout=15)
    assert first.returncode == 0
    logs = (out + err).decode()
    assert f"store: {redact(url)}" in logs
    assert PASSWORD not in logs
    listed = run_command("games", "--store", url)  # the commands read it with the password
    assert (listed.returncode, listed.stdout.split()) == (
        0,
        ["ID", "GAME", "PLAYERS", "STATE", "STARTED", "RESULT"],
    )


def test_without_psycopg_a_postgresql_url_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    monkeypatch.setitem(sys.modules, "hundred_server.store.postgres", None)
    with pytest.raises(StoreError) as caught:
        open_store(f"postgresql://ann:{PASSWORD}@127.0.0.1/x")
    assert caught.value.message.startswith(
        "the store postgresql://ann:***@127.0.0.1/x is a PostgreSQL database, and "
        "PostgreSQL needs psycopg ("
    )
    assert caught.value.message.endswith("pip install 'hundred_server[postgres]'")
    open_store(str(tmp_path / "s.db")).close()  # SQLite needs nothing


def test_without_postgresql_installed_the_tests_fail_saying_what_to_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The session's cluster (conftest.pg_cluster) turns this into a failure of every
    test that needs it: never a skip."""
    monkeypatch.setattr(engines, "pg_bin", lambda: None)
    with pytest.raises(RuntimeError) as caught:
        engines.start_cluster()
    assert str(caught.value) == engines.MISSING
    assert "scripts/ensure-postgres" in engines.MISSING
