"""The default store: every game the server hosts, in SQLite (the standard library's).

The hub decides what to keep and hands it over as plain data (``Write`` values,
journal.py); the server applies each batch here in one transaction and commits it
*before* it sends anything that batch produced, so no move is acknowledged unless it is
saved. The store holds, per game: its table (id, name, seed, turn clock), its seats
(names; person seats with their token's SHA-256, never the token), its record in the
record format (records.py), the table's prompt counter (on the last line a save wrote),
and how it ended.

The file is in WAL mode with ``synchronous=NORMAL``: a commit is in the operating
system's hands when it returns, so a crashed or killed server loses nothing (a power
cut may lose the last moments). A file that is not a store of ours, is damaged, or
comes from a newer version is refused with ``StoreError``, never written to; one from
an older version is brought up to date when it is opened (version 1 to 2: the ``ai``
column, NULL for the games it already holds; 2 to 3: the ``watchers`` column, NULL:
the table takes watchers, as every table did before; 3 to 4: ``moves.seq``, the prompt
counter on a save's last line, so that a save updates no ``games`` row; NULL on the
lines already there, whose game's ``games.seq`` holds it). Who watches, and chat, is never
stored.

The file holds tokens' hashes and every hand dealt, so it is private: created mode 600,
and narrowed to 600 if it was readable by others. A server opens it ``exclusive``: two
servers on one store would each think they own its tables (the same table ids handed
out twice, each restoring the other's games), so the second is refused with
``StoreBusy``. Readers (the ``games`` and ``export`` commands) need no such lock and can
read while a server runs.

A store may be opened on one thread and used from another; each method holds the
store's lock, so a read never sees another thread's transaction half done. The server
writes on its event loop (``inline``): a commit in WAL mode with ``synchronous=NORMAL``
only appends to the -wal file (no fsync), well under a millisecond, while a writer
thread paid for every statement with a hand-over of the interpreter lock, which under
load took up to the switch interval each (saves of tens of milliseconds, some of
hundreds). What does wait for the disk, the checkpoint that copies the -wal into the
file and syncs it, runs on a thread and connection of its own in a store opened
``exclusive`` (every ``CHECKPOINT_EVERY`` seconds, passive: it never holds up a
commit), so a slow disk still never stalls the event loop. Under steady load a passive
checkpoint never finds the -wal all copied, and the -wal would grow without end; when it
is long, the store asks the server for a quiet moment (``quiet_wanted``, ``quiesce``:
saves held ``server.QUIET_WAIT`` at most while the rest is copied), and the -wal then
starts over, over the blocks it has.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Final

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
    since_last,
    stored_result,
)

__all__ = ["APPLICATION_ID", "DEFAULT_PATH", "PRIVATE", "STORE_VERSION", "Store"]

#: The store format this code writes (``PRAGMA user_version``).
STORE_VERSION: Final = 4
#: ``PRAGMA application_id``: "H110", so a store is recognised as ours.
APPLICATION_ID: Final = 0x48313130
DEFAULT_PATH: Final = "hundred.db"
#: The files' mode: the owner reads and writes, nobody else anything.
PRIVATE: Final = 0o600
#: Seconds between the checkpoints of a store opened ``exclusive`` (a server's).
CHECKPOINT_EVERY: Final = 1.0
#: The -wal is cut back to this many bytes when it starts over (WAL_KEEP_SERVER for a
#: server's store: what a few seconds of commits under load fill, and then write over
#: rather than have allocated and zeroed anew).
WAL_KEEP: Final = 1 << 20
WAL_KEEP_SERVER: Final = 128 << 20
#: A checkpoint of a -wal this many frames long (pages: 64 MiB) or more asks the server
#: for a quiet moment (``_Checkpoints``): the -wal has not started over by itself. Each
#: quiet moment holds every table's save for a few milliseconds (a checkpoint's syncs),
#: so under steady load they come every few seconds, not every second.
QUIET_FRAMES: Final = 16384
#: The longest a server's write waits for a lock another program holds (the server's
#: event loop waits with it): past it the save is refused and retried with backoff.
SERVER_BUSY_TIMEOUT: Final = 0.1
#: Finished games removed per transaction by ``prune``: the lock is let go between
#: them, so a save waits for one such transaction at most.
PRUNE_CHUNK: Final = 64

log = logging.getLogger("hundred_server.store")

_SCHEMA: Final = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY,       -- the table id, one game per table
    game     TEXT NOT NULL,             -- the registry name of the game
    name     TEXT NOT NULL,             -- the table's name
    seed     TEXT NOT NULL,             -- each round's deck comes from it
    clock    REAL,                      -- the turn clock in seconds, NULL: none
    seq      INTEGER NOT NULL,          -- the last prompt number as of version 3 (below)
    state    TEXT NOT NULL,             -- 'playing', 'over', 'abandoned', 'failed'
    started  TEXT NOT NULL,             -- ISO 8601, UTC
    finished TEXT,
    result   TEXT,                      -- JSON: {"Winner": seat, "Score": [...]}
    ai       TEXT,                      -- the AI the table asked for (version 2), NULL: naive
    watchers INTEGER                    -- 0: the table takes no watchers (version 3), NULL: it does
);
CREATE TABLE seats (
    game  INTEGER NOT NULL REFERENCES games(id),
    seat  INTEGER NOT NULL,
    name  TEXT NOT NULL,
    token TEXT,                         -- SHA-256 of a person's token; NULL: an AI seat
    PRIMARY KEY (game, seat)
);
CREATE TABLE moves (                    -- the game's record, line by line
    game INTEGER NOT NULL REFERENCES games(id),
    n    INTEGER NOT NULL,              -- 0 is the Record header
    line TEXT NOT NULL,
    seq  INTEGER,                       -- the last line a save wrote: the table's prompt
                                        -- number then (version 4); NULL: games.seq holds it
    PRIMARY KEY (game, n)
);
"""


def _upgrade(db: sqlite3.Connection, version: int) -> None:
    """Bring a store of an older ``version`` up to ``STORE_VERSION``, in one transaction."""
    steps = {
        1: "ALTER TABLE games ADD COLUMN ai TEXT;",
        2: "ALTER TABLE games ADD COLUMN watchers INTEGER;",
        3: "ALTER TABLE moves ADD COLUMN seq INTEGER;",
    }
    if version not in steps:
        raise StoreError(f"store version {version} is none this hundred_server knows")
    script = "".join(steps[v] for v in range(version, STORE_VERSION))
    db.executescript(f"BEGIN;{script}PRAGMA user_version={STORE_VERSION};COMMIT;")


class _Clock:
    """``iso(now())``, worked out once a second: a save asks it (``started`` and
    ``finished``), and formatting a datetime each time cost more than the rest of a
    small save's Python."""

    __slots__ = ("second", "text")

    def __init__(self) -> None:
        self.second = -1
        self.text = ""

    def __call__(self) -> str:
        second = int(time.time())
        if second != self.second:
            self.text = iso(datetime.fromtimestamp(second, UTC))
            self.second = second
        return self.text


_now: Final = _Clock()


def _text(value: object) -> str:
    """A column that should hold text, as text whatever a hand-edited store put there
    (SQLite lets a BLOB into a TEXT column, and a rebuilt table anything at all)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _decode(data: bytes) -> str:
    """SQLite keeps whatever bytes it is given as TEXT; the default reader raises on
    bytes that are not UTF-8, which would stop a start-up over one bad row."""
    return data.decode("utf-8", "replace")


class _Transaction:
    """``with``: a write transaction, committed at the end or rolled back wholly (a
    class, not a generator's context manager: every save enters one).

    ``BEGIN IMMEDIATE`` takes the write lock up front, so waiting for another program's
    lock happens here (``busy_timeout`` at most) and never halfway. A COMMIT that fails
    (a full disk; a lock that did not come in time) is rolled back too: left open, it
    would make every later write fail with "cannot start a transaction within a
    transaction"."""

    __slots__ = ("db",)

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        db = self.db
        if kind is None:
            try:
                db.execute("COMMIT")
            except BaseException:
                self._roll_back()
                raise
        else:
            self._roll_back()

    def _roll_back(self) -> None:
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")


class _Checkpoints:
    """The WAL checkpoints of a server's store, on a thread and connection of their
    own: passive (frames a reader still needs wait for the next), so the writer never
    waits for them.

    A passive checkpoint copies the frames there were when it began; under steady
    load the writer commits meanwhile, so the -wal is never all copied, never starts
    over from its beginning, and grows without end (20 MB a second under make load),
    each new block of it costing the writer the file system's allocation and zeroing.
    So when a checkpoint finds ``QUIET_FRAMES`` or more (the -wal has not started over
    since the last), ``due`` is set, and the server holds its writes for a moment and
    has ``catch_up`` copy the rest (what came since the last checkpoint: little to
    sync); the writer's next commit then starts the -wal over, writing over blocks it
    already has (up to ``WAL_KEEP_SERVER`` of them are kept)."""

    def __init__(self, path: str, busy_timeout: float, every: float) -> None:
        self._every = every
        self._stop = threading.Event()
        self._lock = threading.Lock()  # the connection: the thread's or catch_up's
        self._db = sqlite3.connect(
            path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
        )
        #: A checkpoint found the -wal long: the writer should pause for ``catch_up``
        #: (read by the server's event loop; a bool is set atomically).
        self.due = False
        self._failing = False
        self._thread = threading.Thread(target=self._run, name="store-checkpoints", daemon=True)
        self._thread.start()

    def _checkpoint(self) -> int:
        """One passive checkpoint: the frames the -wal held when it began (0 when it
        failed: the next one tries again, and saves go on)."""
        with self._lock:
            try:
                row = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            except sqlite3.Error as exc:
                if not self._failing:
                    log.warning("a checkpoint of the store failed (%s); it is tried again", exc)
                self._failing = True
                return 0
        self._failing = False
        return int(row[1])  # (busy, frames in the -wal, frames copied)

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self.check()

    def check(self) -> None:
        """The thread's checkpoint (every ``every`` seconds): ``due`` if the -wal it
        found is long."""
        if self._checkpoint() >= QUIET_FRAMES:
            self.due = True

    def catch_up(self) -> None:
        """Copy what the last checkpoint left (called while the writer holds off)."""
        if not self._stop.is_set():  # closed: nothing to copy into
            self._checkpoint()
        self.due = False

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        with self._lock:  # a catch_up under way (another thread's) ends first
            self._db.close()


class Store:
    """One store file; ``Store(path)`` opens it (creating it if it does not exist).

    ``exclusive``: take the store for this object's life (a server), refusing with
    ``StoreBusy`` if another has it, and checkpoint it on a thread of its own.
    ``busy_timeout``: how long a write waits for a lock another program holds before
    it raises ``sqlite3.OperationalError`` (a server's, ``exclusive``, waits at most
    ``SERVER_BUSY_TIMEOUT``: it waits on the event loop). ``checkpoint_every``: the
    seconds between the checkpoints of an ``exclusive`` store."""

    #: The server writes on its event loop (see the module docstring).
    inline = True

    def __init__(
        self,
        path: str | os.PathLike[str],
        exclusive: bool = False,
        busy_timeout: float = BUSY_TIMEOUT,
        checkpoint_every: float = CHECKPOINT_EVERY,
    ) -> None:
        self.path = os.fspath(path)
        #: Where the games are (``GameStore.location``): the path as given.
        self.location = self.path
        #: Whether opening narrowed the files' mode (they were readable by others).
        self.tightened = False
        self._mutex = threading.Lock()
        self._lock_fd: int | None = None
        self._checkpoints: _Checkpoints | None = None
        _create(self.path)
        if exclusive:
            self._lock_fd = _lock(self.path)
            busy_timeout = min(busy_timeout, SERVER_BUSY_TIMEOUT)
        try:
            self._connect(busy_timeout)
        except BaseException:
            self._unlock()
            raise
        if exclusive:  # a server's: checkpoints on their own thread, not in commits
            try:
                self._db.execute("PRAGMA wal_autocheckpoint=0")
                self._db.execute(f"PRAGMA journal_size_limit={WAL_KEEP_SERVER}")
                self._checkpoints = _Checkpoints(self.path, busy_timeout, checkpoint_every)
            except BaseException:
                self._db.close()
                self._unlock()
                raise
        self.tightened = _tighten(self.path)

    def _connect(self, busy_timeout: float) -> None:
        try:
            fresh = os.path.getsize(self.path) == 0
        except OSError as exc:
            raise StoreError(
                f"cannot open the store {self.path!r}: {exc.strerror or exc}"
            ) from None
        if not fresh:
            _check_header(self.path)
        try:
            self._db = sqlite3.connect(
                self.path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store {self.path!r}: {exc}") from None
        self._db.text_factory = _decode
        try:
            self._open(fresh)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(
                f"the store {self.path!r} is damaged or not a store ({exc}); it was left as it is"
            ) from None
        except BaseException:
            self._db.close()
            raise

    def _open(self, fresh: bool) -> None:
        db = self._db
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
        if app == 0 and version == 0 and tables == 0:  # empty: make it ours
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(
                "BEGIN;"
                + _SCHEMA
                + f"PRAGMA application_id={APPLICATION_ID}; PRAGMA user_version={STORE_VERSION};"
                + "COMMIT;"
            )
        elif app != APPLICATION_ID:
            raise StoreError(
                f"{self.path!r} is an SQLite file but not a hundred_server store; "
                "it was left as it is (use another --db)"
            )
        elif version > STORE_VERSION:
            raise StoreError(
                f"the store {self.path!r} was made by a newer hundred_server (store "
                f"version {version}; this one reads up to {STORE_VERSION}); it was left "
                "as it is"
            )
        else:
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(
                    f"the store {self.path!r} is damaged ({check}); it was left as it is"
                )
            if version < STORE_VERSION:
                _upgrade(db, version)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        # The WAL is checkpointed every 256 pages (1 MiB; a server's store: every
        # CHECKPOINT_EVERY seconds instead) and cut back to 1 MiB after, so a burst of
        # games started and forgotten does not leave a big -wal behind.
        db.execute("PRAGMA wal_autocheckpoint=256")
        db.execute(f"PRAGMA journal_size_limit={WAL_KEEP}")
        db.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        """Close the file and let another server have it (calling it again is harmless)."""
        with self._mutex:
            if self._checkpoints is not None:
                self._checkpoints.close()
                self._checkpoints = None
            self._db.close()  # the last connection: SQLite checkpoints and removes the -wal
            self._unlock()

    @property
    def quiet_wanted(self) -> bool:
        """Whether the store asks the server to hold its writes for ``quiesce``: a
        checkpoint found the -wal long, not started over by itself (see
        ``_Checkpoints``)."""
        checkpoints = self._checkpoints
        return checkpoints is not None and checkpoints.due

    def quiesce(self) -> None:
        """With no write under way: checkpoint what is left, so the next commit starts
        the -wal over (on the server's writer thread; it syncs the file)."""
        checkpoints = self._checkpoints
        if checkpoints is not None:
            checkpoints.catch_up()

    def _unlock(self) -> None:
        # Only after SQLite has closed: closing any descriptor of the file drops every
        # POSIX lock this process holds on it, SQLite's own included.
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the flock
            self._lock_fd = None

    # ------------------------------------------------------------------ writing

    def write(self, writes: Iterable[Write]) -> None:
        """Apply a batch of writes in one transaction; committed when this returns.

        On any error nothing of the batch is kept, so the caller can retry the same
        values later and get each line once. ``GameDropped`` applies in batch order:
        what came before it for that game is gone with it."""
        batch = list(writes)
        if not batch:
            return
        with self._mutex, self._transaction():
            now = _now()
            run: list[GameStarted | Moves | GameEnded] = []
            for item in batch:
                if isinstance(item, GameDropped):
                    self._apply(run, now)
                    run = []
                    self._drop([item.game_id])
                else:
                    run.append(item)
            self._apply(run, now)

    def _apply(self, run: Sequence[GameStarted | Moves | GameEnded], now: str) -> None:
        """A run of writes with no drop among them: the games first, then their lines,
        then how they ended (so a batch may hold all three of one game)."""
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
        db = self._db
        if started:
            db.executemany(
                "INSERT INTO games (id, game, name, seed, clock, ai, watchers, seq, state, started)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 0, 'playing', ?)",
                [
                    (
                        g.game_id,
                        g.game,
                        g.name,
                        g.seed,
                        g.clock,
                        g.ai,
                        None if g.watchers else 0,
                        now,
                    )
                    for g in started
                ],
            )
            db.executemany(
                "INSERT INTO seats (game, seat, name, token) VALUES (?, ?, ?, ?)",
                [(g.game_id, i, n, t) for g in started for i, (n, t) in enumerate(g.seats)],
            )
        if lines:
            db.executemany("INSERT INTO moves (game, n, line, seq) VALUES (?, ?, ?, ?)", lines)
        if ended:
            db.executemany(
                "UPDATE games SET state = ?, finished = ?, result = ? WHERE id = ?",
                [
                    (e.state, now, None if e.result is None else json.dumps(e.result), e.game_id)
                    for e in ended
                ],
            )

    def _drop(self, game_ids: Sequence[int]) -> None:
        """Delete games with their seats and moves (inside a transaction)."""
        rows = [(g,) for g in game_ids]
        for query in (
            "DELETE FROM moves WHERE game = ?",
            "DELETE FROM seats WHERE game = ?",
            "DELETE FROM games WHERE id = ?",
        ):
            self._db.executemany(query, rows)

    def _transaction(self) -> _Transaction:
        """A write transaction, committed at the end or rolled back wholly (see
        ``_Transaction``)."""
        return _Transaction(self._db)

    def mark_failed(self, game_id: int) -> None:
        """The game cannot be restored: it is kept, as failed, and not tried again."""
        with self._mutex, self._transaction():
            self._db.execute(
                "UPDATE games SET state = 'failed', finished = ? WHERE id = ?",
                (_now(), game_id),
            )

    def prune(self, before: str) -> int:
        """Remove the finished games (over, abandoned, failed) that finished before
        ``before`` (ISO 8601 with its UTC offset), with their seats and moves; how many.

        A game still playing is never removed, however old. ``before`` is read as a
        time and written back the way the store writes times, because the comparison
        is of text: "2025-01-02 00:00" or a "Z" would compare wrong against the
        stored "2025-01-02T00:00:00+00:00"."""
        when = iso(cutoff(before))
        removed = 0
        while True:  # PRUNE_CHUNK games a transaction, the lock let go between
            with self._mutex, self._transaction():
                ids = [
                    game_id
                    for (game_id,) in self._db.execute(
                        "SELECT id FROM games WHERE state IN (?, ?, ?) AND finished < ?"
                        " ORDER BY id LIMIT ?",
                        (*FINISHED, when, PRUNE_CHUNK),
                    )
                ]
                self._drop(ids)
            removed += len(ids)
            if len(ids) < PRUNE_CHUNK:
                return removed

    def size(self) -> int:
        """Bytes on disk: the file and its write-ahead log (which holds the newest
        commits until a checkpoint copies them into the file)."""
        total = 0
        for path in (self.path, self.path + "-wal"):
            with contextlib.suppress(FileNotFoundError):
                total += os.path.getsize(path)
        return total

    # ------------------------------------------------------------------ reading

    def games(self, state: str | None = None) -> list[StoredGame]:
        """Every game (or those in ``state``), oldest first, with seats and record.

        Never raises over a damaged row: a server must start with the games it can
        restore (a game it cannot is then marked failed). Each value is read as the
        type ``StoredGame`` says, whatever a hand-edited store put there; a result
        that is not a JSON object reads as None."""
        if state:
            return self._read("WHERE state = ?", (state,))
        return self._read("", ())

    def game(self, game_id: int) -> StoredGame | None:
        """One game, by id (None: none), read alone."""
        found = self._read("WHERE id = ?", (game_id,))
        return found[0] if found else None

    def games_with_seed(self, seed: str) -> list[StoredGame]:
        return self._read("WHERE seed = ?", (seed,))

    def last_ended(self, within: float) -> list[StoredGame]:
        """The games over that ended at most ``within`` seconds before the last one did
        (``finished`` is text as ``iso`` writes it, so text compares as time)."""
        with self._mutex:
            row = self._db.execute(
                "SELECT max(finished) FROM games WHERE state = 'over'"
            ).fetchone()
        since = None if row is None else since_last(row[0], within)
        if since is None:
            return []
        return self._read("WHERE state = 'over' AND finished >= ?", (since,))

    def _read(self, where: str, params: tuple[object, ...]) -> list[StoredGame]:
        query = (
            "SELECT id, game, name, seed, clock, seq, state, started, finished, result, ai,"
            f" watchers FROM games {where} ORDER BY id"
        )
        with self._mutex:
            rows = self._db.execute(query, params).fetchall()
            out = [
                StoredGame(
                    id=int(row[0]),
                    game=_text(row[1]),
                    name=_text(row[2]),
                    seed=_text(row[3]),
                    clock=_number(row[4]),
                    seq=_integer(row[5]),
                    state=_text(row[6]),
                    started=_text(row[7]),
                    finished=None if row[8] is None else _text(row[8]),
                    result=stored_result(row[9]),
                    ai=None if row[10] is None else _text(row[10]),
                    watchers=row[11] != 0,
                )
                for row in rows
            ]
            for game in out:
                self._fill(game)
        return out

    def last_id(self) -> int:
        with self._mutex:
            row = self._db.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()
        return int(row[0])

    def _fill(self, game: StoredGame) -> None:
        game.seats = [
            (_text(name), None if token is None else _text(token))
            for name, token in self._db.execute(
                "SELECT name, token FROM seats WHERE game = ? ORDER BY seat", (game.id,)
            )
        ]
        game.lines = []
        for line, seq in self._db.execute(
            "SELECT line, seq FROM moves WHERE game = ? ORDER BY n", (game.id,)
        ):
            game.lines.append(_text(line))
            if seq is not None:  # saved by version 4, and the newest yet: games.seq is older
                game.seq = _integer(seq)


def _number(value: object) -> float | None:
    """The turn clock: a number, or None (none) for anything else."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _integer(value: object) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return 0


def _create(path: str) -> None:
    """A new store file, private from the first byte: created mode 600 before SQLite
    opens it (SQLite would use 644 under the usual umask), then set to 600 whatever
    the umask took away."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE)
    except FileExistsError:
        return
    except OSError as exc:
        raise StoreError(f"cannot open the store {path!r}: {exc.strerror or exc}") from None
    try:
        os.fchmod(fd, PRIVATE)
    finally:
        os.close(fd)


def _lock(path: str) -> int:
    """Take the store for this process: an exclusive flock on a descriptor of its own,
    kept open until ``close``. The kernel drops it when the process dies, however it
    dies, so a killed server never leaves the store locked. On Linux a flock and
    SQLite's POSIX (fcntl) locks do not see each other, so readers are not stopped."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise StoreError(f"cannot open the store {path!r}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreBusy(
            f"the store {path!r} is in use by another hundred_server (another `serve` on "
            "the same --db); stop it first or use another --db"
        ) from None
    except OSError as exc:
        os.close(fd)
        raise StoreError(f"cannot lock the store {path!r}: {exc.strerror or exc}") from None
    return fd


def _tighten(path: str) -> bool:
    """Narrow the store and its -wal and -shm files to mode 600 if others could read
    or write them (SQLite gives the -wal and -shm the file's mode, but a pair left by a
    crash keeps the mode it had); whether any was narrowed.

    A file this user may not change (another user's store, read through its group by
    the ``games`` command) is left as it is: reading it is not refused over that."""
    narrowed = False
    for name in (path, path + "-wal", path + "-shm"):
        try:
            if stat.S_IMODE(os.stat(name).st_mode) & 0o077:
                os.chmod(name, PRIVATE)
                narrowed = True
        except OSError:  # gone meanwhile, or not ours
            continue
    return narrowed


def _check_header(path: str) -> None:
    try:
        with open(path, "rb") as file:
            head = file.read(16)
    except OSError as exc:
        raise StoreError(f"cannot read the store {path!r}: {exc.strerror or exc}") from None
    if head != b"SQLite format 3\x00":
        raise StoreError(
            f"{path!r} is not an SQLite file (damaged, or something else); it was left as it "
            "is (use another --db)"
        )
