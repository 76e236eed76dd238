"""The PostgreSQL store: every game in a PostgreSQL database, for a site
(``serve --store postgresql://user@host/db``). psycopg 3 (the ``postgres`` extra).

The same data and guarantees as the SQLite store (sqlite.py): the server applies each
batch in one transaction and commits it before it sends anything that batch produced;
unfinished games are restored at start, a game that cannot be is marked failed, old
finished ones are pruned, and the ``games`` and ``export`` commands read it. PostgreSQL
13 or newer (``pg_xact_status``).

The layout (``STORE_VERSION`` 3) lives in the connection's current schema: the first
of its search path, ``public`` unless the URL says otherwise (for instance
``?options=-csearch_path%3Dhundred``)::

    hundred_store  one row: application 'hundred_server', the layout's version
    games          as in SQLite, times as timestamptz and the result as jsonb, and
                   owner (see below), and lease_until, no longer written
    seats, moves   as in SQLite, deleted with their game
    hundred_table_ids  a sequence, made by the first instance of a site (bus.py): the
                   site's table ids, unique across its instances
    hundred_instances  made likewise: each instance's lease (bus.py)

Opening a schema with no tables makes it ours (one transaction, under an advisory lock,
so two first opens do not race); one with our version table is checked (a newer layout
is refused; an older one is brought up to date step by step, in one transaction:
version 1 to 2 adds ``games.watchers``, NULL for the games it holds, which take
watchers as every table did; 2 to 3 adds ``moves.seq``, the prompt counter on a save's
last line, as in SQLite, so that a save updates no ``games`` row); one that holds
other tables and not ours is refused and left as it is, like another program's SQLite
file. A reader (``create=False``: the commands) never makes one.

One server per store, as with SQLite's lock: an ``exclusive`` store holds a session
advisory lock (``APPLICATION_ID``, the schema's name hashed) for its connection's life,
and a second is refused with ``StoreBusy`` (after ``busy_timeout``, for the session of
a server just killed to end). PostgreSQL drops the lock when the session ends, however
the server ends (``kill -9`` closes its socket; a machine that dies is noticed by
keepalives within about 20 s, ``SESSION``), so a restarted server gets it back. When
the connection is lost (PostgreSQL restarted, the network), the next
call connects again and takes the lock again: if another server took it meanwhile,
every write is refused with ``StoreBusy`` (its tables pause) rather than write over the
other's games.

``owner`` is for several servers sharing one database, a site (``serve --bus``,
bus.py): a store opened for one of them (``site``: its instance id) writes each new
game with that owner; each instance holds one lease (the bus's ``hundred_instances``),
and the bus of another instance takes over the games whose owner's lease lapsed (their
server died). ``lease_until``, a lease a game before the site's leases were its
instances', is left NULL. Such a store holds the advisory lock shared, so the site's instances
share the database while a server without ``--bus`` is refused (and refuses them).
Without ``site`` the owner stays NULL, and an instance of a site claims such games at
once.

A lost connection never loses or doubles a move. A write raises and the server tries
the same batch again (the batches queued since after it), and the store connects anew.
If the connection broke while the COMMIT was under way, whether it committed is not
known: the store keeps the transaction's id and asks PostgreSQL at the next write
(``pg_xact_status``); if it did commit, the writes it held are not applied again.

Waits are bounded, so the writer thread (and shutdown behind it) never hangs: a lock
another program holds is waited for ``busy_timeout`` at most (``lock_timeout``), a
statement ``STATEMENT_TIMEOUT``, a connection ``connect_timeout`` (``CONNECTION``, which
the URL may override), and a dead peer is noticed by TCP keepalives.

Passwords: the URL may hold one (better: ``PGPASSWORD`` or ``~/.pgpass``, which libpq
reads, since a command line is visible to every user of the machine). It never appears
in ``location``, a log line or an error: it is shown as ``***``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any, Final

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.types.json import Jsonb

from hundred_server.core.journal import (
    GameDropped,
    GameEnded,
    GameStarted,
    Moves,
    StoredGame,
    Write,
)
from hundred_server.store.base import (
    BUSY_TIMEOUT,
    FINISHED,
    StoreBusy,
    StoreError,
    cutoff,
    iso,
    move_rows,
    now,
    redact,
    scrub,
    stored_result,
)
from hundred_server.store.sqlite import APPLICATION_ID

__all__ = ["STORE_VERSION", "PostgresStore"]

#: The layout this code writes (``hundred_store.version``).
STORE_VERSION: Final = 3
#: How a layout of each older version is brought to the next (the statements in order).
_UPGRADES: Final[dict[int, tuple[str, ...]]] = {
    1: ("ALTER TABLE games ADD COLUMN watchers boolean",),
    2: ("ALTER TABLE moves ADD COLUMN seq integer",),
}
APPLICATION: Final = "hundred_server"
#: The oldest PostgreSQL this store runs on (``pg_current_xact_id``, ``pg_xact_status``).
OLDEST_SERVER: Final = 130000
#: Seconds a site's instance holds its games unless its bus renews its lease (bus.py,
#: every second).
LEASE: Final = 5.0
#: The longest one statement may run (seconds).
STATEMENT_TIMEOUT: Final = 30.0
#: Connection parameters the URL may override: a connection attempt gives up after 5 s;
#: a peer silent for 10 s is probed, and given up after two more 5 s; so is data sent
#: and not acknowledged for 20 s. The name shows in pg_stat_activity.
CONNECTION: Final = {
    "connect_timeout": "5",
    "keepalives": "1",
    "keepalives_idle": "10",
    "keepalives_interval": "5",
    "keepalives_count": "2",
    "tcp_user_timeout": "20000",
    "application_name": APPLICATION,
}
#: The session's settings: a statement may run 30 s at most, and PostgreSQL probes a
#: silent client after 10 s, so the session (and its lock) of a server whose machine
#: died ends within about 20 s, not the system's default two hours.
SESSION: Final = {
    "statement_timeout": f"{round(STATEMENT_TIMEOUT * 1000)}ms",
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "2",
}
#: The advisory lock keys' first half (the second is the schema's name, hashed): the
#: server's, held for the session, and the one that a first open takes to make the
#: layout.
SERVER_LOCK: Final = APPLICATION_ID
CREATE_LOCK: Final = APPLICATION_ID + 1

_SCHEMA: Final = (
    """
    CREATE TABLE hundred_store (         -- what this schema holds: one row
        application text NOT NULL,       -- 'hundred_server'
        version     integer NOT NULL     -- the layout below
    )""",
    """
    CREATE TABLE games (
        id          bigint PRIMARY KEY,  -- the table id, one game per table
        game        text NOT NULL,       -- the registry name of the game
        name        text NOT NULL,       -- the table's name
        seed        text NOT NULL,       -- each round's deck comes from it
        clock       double precision,    -- the turn clock in seconds, NULL: none
        seq         integer NOT NULL,    -- the last prompt number as of version 2
        state       text NOT NULL,       -- 'playing', 'over', 'abandoned', 'failed'
        started     timestamptz NOT NULL,
        finished    timestamptz,
        result      jsonb,               -- {"Winner": seat, "Score": [...], "Text": ...}
        ai          text,                -- the AI the table asked for
        watchers    boolean,             -- false: the table takes no watchers; NULL: it does
        owner       text,                -- the site's instance that plays it (bus.py)
        lease_until timestamptz          -- NULL (the site's leases are its instances')
    )""",
    "CREATE INDEX games_state ON games (state, finished)",
    """
    CREATE TABLE seats (
        game  bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat  integer NOT NULL,
        name  text NOT NULL,
        token text,                      -- SHA-256 of a person's token; NULL: an AI seat
        PRIMARY KEY (game, seat)
    )""",
    """
    CREATE TABLE moves (                 -- the game's record, line by line
        game bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n    integer NOT NULL,           -- 0 is the Record header
        line text NOT NULL,
        seq  integer,                    -- a save's last line: the prompt number then
        PRIMARY KEY (game, n)            -- (version 3); NULL: games.seq holds it
    )""",
)
TABLES: Final = ("hundred_store", "games", "seats", "moves")

Connection = psycopg.Connection[tuple[Any, ...]]


class PostgresStore:
    """The store in the database ``url`` names (``postgresql://`` or ``postgres://``).

    ``exclusive``: take the store for this object's life (a server), refusing with
    ``StoreBusy`` if another has it. ``create``: make the store if the schema is empty
    (a reader passes False: an empty schema is then "no store"). ``busy_timeout``: how
    long a write waits for a lock another program holds before it raises."""

    #: A save is a round trip to the database: the server writes from a thread.
    inline = False
    #: The server never needs to hold its writes for this engine.
    quiet_wanted = False

    def __init__(
        self,
        url: str,
        exclusive: bool = False,
        create: bool = True,
        busy_timeout: float = BUSY_TIMEOUT,
        site: str | None = None,
    ) -> None:
        self.url = url
        #: This instance's id on a site (see the module docstring).
        self.site = site
        self.location = redact(url)
        self.tightened = False  # who may read it is the database's business
        self.exclusive = exclusive
        self.busy_timeout = busy_timeout
        self._conninfo = psycopg.conninfo.make_conninfo("", **self._parameters())
        self._mutex = threading.Lock()
        self._closed = False
        #: A write whose COMMIT got no answer: its transaction id and its writes.
        self._unsure: tuple[str, list[Write]] | None = None
        self._db: Connection | None = self._connect(create)

    def _parameters(self) -> dict[str, str]:
        try:
            params = psycopg.conninfo.conninfo_to_dict(self.url)
        except psycopg.Error as exc:
            raise StoreError(f"not a PostgreSQL URL: {self.location} ({self._why(exc)})") from None
        for key, value in CONNECTION.items():
            params.setdefault(key, value)
        return {k: str(v) for k, v in params.items() if v is not None}

    def _why(self, exc: BaseException) -> str:
        return scrub(str(exc), self.url) or type(exc).__name__

    # ------------------------------------------------------------------ connecting

    def _connect(self, create: bool) -> Connection:
        try:
            db: Connection = psycopg.connect(self._conninfo, autocommit=True)
        except psycopg.Error as exc:
            raise StoreError(
                f"cannot connect to the store {self.location}: {self._why(exc)}"
            ) from None
        try:
            self._prepare(db, create)
        except psycopg.Error as exc:
            db.close()
            raise StoreError(f"cannot open the store {self.location}: {self._why(exc)}") from None
        except BaseException:
            db.close()
            raise
        return db

    def _prepare(self, db: Connection, create: bool) -> None:
        version = db.info.server_version
        if version < OLDEST_SERVER:
            raise StoreError(
                f"the store {self.location} is on PostgreSQL {version // 10000}; "
                f"this store needs {OLDEST_SERVER // 10000} or newer"
            )
        for name, value in (*SESSION.items(), ("lock_timeout", _ms(self.busy_timeout))):
            db.execute("SELECT set_config(%s, %s, false)", (name, value))
        schema = db.execute("SELECT current_schema()").fetchone()
        if schema is None or schema[0] is None:
            raise StoreError(
                f"the store {self.location} has no schema to be in (none of its search_path exists)"
            )
        if self.exclusive:  # waited for busy_timeout: a killed server's session may linger
            # A site's instances share it (and refuse a lone server); a lone one has it all.
            lock = "pg_advisory_lock_shared" if self.site else "pg_advisory_lock"
            try:
                db.execute(f"SELECT {lock}(%s, hashtext(current_schema()))", (SERVER_LOCK,))
            except psycopg.errors.LockNotAvailable:
                other = (
                    "a server without --bus"
                    if self.site
                    else "another hundred_server (another `serve` on the same --store)"
                )
                raise StoreBusy(
                    f"the store {self.location} is in use by {other}; stop it first or use "
                    "another database"
                ) from None
        names = _tables(db)
        if not names:
            if not create:
                raise StoreError(
                    f"no store in {self.location} (the first `serve --store` on it makes one)"
                )
            with _transaction(db):
                db.execute(
                    "SELECT pg_advisory_xact_lock(%s, hashtext(current_schema()))", (CREATE_LOCK,)
                )
                if not _tables(db):  # nobody made it meanwhile
                    for statement in _SCHEMA:
                        db.execute(statement)
                    db.execute(
                        "INSERT INTO hundred_store (application, version) VALUES (%s, %s)",
                        (APPLICATION, STORE_VERSION),
                    )
            names = _tables(db)
        self._check(db, names, str(schema[0]))

    def _check(self, db: Connection, names: set[str], schema: str) -> None:
        if "hundred_store" not in names:
            raise StoreError(
                f"{self.location} holds tables that are not a hundred_server store (in its "
                f"schema {schema!r}); they were left as they are (use another database, or "
                "another schema: ?options=-csearch_path%3DNAME)"
            )
        rows = db.execute("SELECT application, version FROM hundred_store").fetchall()
        if len(rows) != 1 or rows[0][0] != APPLICATION:
            raise StoreError(
                f"the store {self.location} is damaged or not a store (its hundred_store "
                "table does not say it is ours); it was left as it is"
            )
        version = rows[0][1]
        if version > STORE_VERSION:
            raise StoreError(
                f"the store {self.location} was made by a newer hundred_server (store "
                f"version {version}; this one reads up to {STORE_VERSION}); it was left as it is"
            )
        if version < STORE_VERSION:
            if version not in _UPGRADES:
                raise StoreError(f"store version {version} is none this hundred_server knows")
            with _transaction(db):
                db.execute(
                    "SELECT pg_advisory_xact_lock(%s, hashtext(current_schema()))", (CREATE_LOCK,)
                )
                (now,) = db.execute("SELECT version FROM hundred_store").fetchone() or (version,)
                for step in range(now, STORE_VERSION):  # unless another did it meanwhile
                    for statement in _UPGRADES[step]:
                        db.execute(statement)
                db.execute("UPDATE hundred_store SET version = %s", (STORE_VERSION,))
        if missing := sorted(set(TABLES) - names):
            raise StoreError(
                f"the store {self.location} is damaged (no table {', '.join(missing)}); it "
                "was left as it is"
            )

    def _connection(self) -> Connection:
        """The connection, made again if it was lost (and the lock taken again): a call
        that breaks it raises, and the next one connects anew."""
        if self._closed:
            raise StoreError(f"the store {self.location} is closed")
        if self._db is None or self._db.closed:
            self._db = None
            self._db = self._connect(create=False)
        return self._db

    def close(self) -> None:
        """Close the connection, and with it let go of the lock (harmless twice)."""
        with self._mutex:
            self._closed = True
            if self._db is not None:
                self._db.close()
                self._db = None

    # ------------------------------------------------------------------ writing

    def write(self, writes: Iterable[Write]) -> None:
        """Apply a batch of writes in one transaction; committed when this returns.

        On any error nothing of the batch is kept (or, when the connection broke during
        the COMMIT, the next write finds out whether it was, and does not apply it
        twice), so the caller can retry the same values and get each line once.
        ``GameDropped`` applies in batch order."""
        batch = list(writes)
        if not batch:
            return
        with self._mutex:
            db = self._connection()
            todo = self._settle(db, batch)
            if not todo:
                return
            xid: str | None = None
            try:
                db.execute("BEGIN")
                row = db.execute("SELECT pg_current_xact_id()::text").fetchone()
                xid = None if row is None else str(row[0])
                when = now()
                run: list[GameStarted | Moves | GameEnded] = []
                for item in todo:
                    if isinstance(item, GameDropped):
                        _apply(db, run, when, self.site)
                        run = []
                        db.execute("DELETE FROM games WHERE id = %s", (item.game_id,))
                    else:
                        run.append(item)
                _apply(db, run, when, self.site)
                self._commit(db)
            except BaseException:
                self._failed(db, xid, todo)
                raise

    def _commit(self, db: Connection) -> None:
        db.execute("COMMIT")

    def _failed(self, db: Connection, xid: str | None, batch: list[Write]) -> None:
        """After a write failed: a lost connection is made anew by the next call (and a
        COMMIT it may have carried looked up then); an open transaction is rolled back."""
        if db.closed:
            self._db = None
            if xid is not None:
                self._unsure = (xid, batch)
        elif db.info.transaction_status != TransactionStatus.IDLE:
            with contextlib.suppress(psycopg.Error):
                db.execute("ROLLBACK")

    def _settle(self, db: Connection, batch: list[Write]) -> list[Write]:
        """``batch`` less the head a write whose COMMIT got no answer did commit."""
        if self._unsure is None:
            return batch
        xid, earlier = self._unsure
        row = db.execute("SELECT pg_xact_status(%s::xid8)", (xid,)).fetchone()
        status = None if row is None else row[0]
        if status == "in progress":  # its session has not ended yet: ask again later
            raise StoreError(
                f"the store {self.location}: whether the last save was committed is not "
                "known yet (its transaction is still under way); retry"
            )
        self._unsure = None
        # None: too old to be known, after billions of transactions; never so soon.
        if status == "committed" and batch[: len(earlier)] == earlier:
            return batch[len(earlier) :]
        return batch

    def quiesce(self) -> None:
        """Nothing to do: PostgreSQL keeps its own log."""

    def mark_failed(self, game_id: int) -> None:
        """The game cannot be restored: it is kept, as failed, and not tried again."""
        with self._mutex:
            db = self._connection()
            with _transaction(db):
                db.execute(
                    "UPDATE games SET state = 'failed', finished = %s WHERE id = %s",
                    (now(), game_id),
                )

    def prune(self, before: str) -> int:
        """Remove the finished games (over, abandoned, failed) that finished before
        ``before`` (ISO 8601 with its UTC offset), with their seats and moves; how many.
        A game still playing is never removed, however old."""
        when = cutoff(before)
        with self._mutex:
            db = self._connection()
            with _transaction(db):
                gone = db.execute(
                    "DELETE FROM games WHERE state = ANY(%s) AND finished < %s RETURNING id",
                    (list(FINISHED), when),
                ).fetchall()
        return len(gone)

    def size(self) -> int:
        """Bytes on disk: the store's tables with their indexes."""
        with self._mutex:
            db = self._connection()
            row = db.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint"
                " FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace"
                " AND c.relname = ANY(%s) AND c.relkind = 'r'",
                (list(TABLES),),
            ).fetchone()
        return 0 if row is None else int(row[0])

    # ------------------------------------------------------------------ reading

    def games(self, state: str | None = None) -> list[StoredGame]:
        """Every game (or those in ``state``), oldest first, with seats and record, as
        one snapshot. A result that is not a JSON object reads as None."""
        if state is None:
            return self._read("", ())
        return self._read("WHERE g.state = %s", (state,))

    def game(self, game_id: int) -> StoredGame | None:
        found = self._read("WHERE g.id = %s", (game_id,))
        return found[0] if found else None

    def games_with_seed(self, seed: str) -> list[StoredGame]:
        return self._read("WHERE g.seed = %s", (seed,))

    def last_ended(self, within: float) -> list[StoredGame]:
        return self._read(
            "WHERE g.state = 'over' AND g.finished >= (SELECT max(finished) FROM games"
            " WHERE state = 'over') - %s * interval '1 second'",
            (within,),
        )

    def last_id(self) -> int:
        with self._mutex:
            db = self._connection()
            row = db.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()
        return 0 if row is None else int(row[0])

    def _read(self, where: str, params: tuple[object, ...]) -> list[StoredGame]:
        with self._mutex:
            db = self._connection()
            with _transaction(db, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"):
                rows = db.execute(
                    "SELECT g.id, g.game, g.name, g.seed, g.clock, g.seq, g.state, g.started,"
                    f" g.finished, g.result::text, g.ai, g.watchers FROM games g {where}"
                    " ORDER BY g.id",
                    params,
                ).fetchall()
                seats = db.execute(
                    "SELECT s.game, s.name, s.token FROM seats s JOIN games g ON g.id = s.game"
                    f" {where} ORDER BY s.game, s.seat",
                    params,
                ).fetchall()
                lines = db.execute(
                    "SELECT m.game, m.line, m.seq FROM moves m JOIN games g ON g.id = m.game"
                    f" {where} ORDER BY m.game, m.n",
                    params,
                ).fetchall()
        out = {
            row[0]: StoredGame(
                id=int(row[0]),
                game=row[1],
                name=row[2],
                seed=row[3],
                clock=None if row[4] is None else float(row[4]),
                seq=int(row[5]),
                state=row[6],
                started=iso(row[7]),
                finished=None if row[8] is None else iso(row[8]),
                # Read as text: JSON nested too deep for Python then reads as None.
                result=stored_result(row[9]),
                ai=row[10],
                watchers=row[11] is not False,
            )
            for row in rows
        }
        for game_id, name, token in seats:
            out[game_id].seats.append((name, token))
        for game_id, line, seq in lines:
            game = out[game_id]
            game.lines.append(line)
            if seq is not None:  # saved by version 3, and the newest yet: games.seq is older
                game.seq = int(seq)
        return list(out.values())


def _apply(
    db: Connection,
    run: Sequence[GameStarted | Moves | GameEnded],
    when: datetime,
    owner: str | None = None,
) -> None:
    """A run of writes with no drop among them: the games first, then their lines, then
    how they ended (so a batch may hold all three of one game). New games are
    ``owner``'s (a site's instance)."""
    started: list[GameStarted] = []
    lines: list[tuple[int, int, str, int | None]] = []
    ended: list[GameEnded] = []
    for item in run:
        if isinstance(item, Moves):
            lines += move_rows(item)
        elif isinstance(item, GameStarted):
            started.append(item)
        else:
            ended.append(item)
    cursor = db.cursor()
    if started:
        cursor.executemany(
            "INSERT INTO games (id, game, name, seed, clock, ai, watchers, seq, state, started,"
            " owner) VALUES (%s, %s, %s, %s, %s, %s, %s, 0, 'playing', %s, %s)",
            [
                (
                    g.game_id,
                    g.game,
                    g.name,
                    g.seed,
                    g.clock,
                    g.ai,
                    None if g.watchers else False,
                    when,
                    owner,
                )
                for g in started
            ],
        )
        cursor.executemany(
            "INSERT INTO seats (game, seat, name, token) VALUES (%s, %s, %s, %s)",
            [(g.game_id, i, n, t) for g in started for i, (n, t) in enumerate(g.seats)],
        )
    if lines:
        cursor.executemany("INSERT INTO moves (game, n, line, seq) VALUES (%s, %s, %s, %s)", lines)
    if ended:
        cursor.executemany(
            "UPDATE games SET state = %s, finished = %s, result = %s WHERE id = %s",
            [
                (e.state, when, None if e.result is None else Jsonb(e.result), e.game_id)
                for e in ended
            ],
        )


@contextlib.contextmanager
def _transaction(db: Connection, begin: str = "BEGIN") -> Iterator[None]:
    """A transaction on an autocommit connection: committed at the end, or rolled back
    (if the connection still stands) on any error."""
    db.execute(begin)
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if not db.closed and db.info.transaction_status != TransactionStatus.IDLE:
            with contextlib.suppress(psycopg.Error):
                db.execute("ROLLBACK")
        raise


def _tables(db: Connection) -> set[str]:
    """The names of the tables (and views) in the current schema."""
    rows = db.execute(
        "SELECT c.relname FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace"
        " AND c.relkind IN ('r', 'p', 'v', 'm', 'f')"
    ).fetchall()
    return {row[0] for row in rows}


def _ms(seconds: float) -> str:
    return f"{max(1, round(seconds * 1000))}ms"
