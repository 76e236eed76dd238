"""Durable storage: every game the server hosts, in SQLite (the standard library's).

The hub decides what to keep and hands it over as plain data (``Write`` values,
journal.py); the server applies each batch here in one transaction and commits it
*before* it sends anything that batch produced, so no move is acknowledged unless it is
saved. The store holds, per game: its table (id, name, seed, turn clock), its seats
(names; person seats with their token's SHA-256, never the token), its record in the
record format (records.py), the table's prompt counter, and how it ended.

The file is in WAL mode with ``synchronous=NORMAL``: a commit is in the operating
system's hands when it returns, so a crashed or killed server loses nothing (a power
cut may lose the last moments). A file that is not a store of ours, is damaged, or
comes from a newer version is refused with ``StoreError``, never written to.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Final

from hundred_server.errors import HundredError
from hundred_server.journal import GameEnded, GameStarted, Moves, StoredGame, Write

__all__ = [
    "GameEnded",
    "GameStarted",
    "Moves",
    "Store",
    "StoreError",
    "StoredGame",
    "Write",
    "describe",
]

#: The store format this code writes (``PRAGMA user_version``).
STORE_VERSION: Final = 1
#: ``PRAGMA application_id``: "H110", so a store is recognised as ours.
APPLICATION_ID: Final = 0x48313130
DEFAULT_PATH: Final = "hundred.db"

_SCHEMA: Final = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY,       -- the table id, one game per table
    game     TEXT NOT NULL,             -- the registry name of the game
    name     TEXT NOT NULL,             -- the table's name
    seed     TEXT NOT NULL,             -- each round's deck comes from it
    clock    REAL,                      -- the turn clock in seconds, NULL: none
    seq      INTEGER NOT NULL,          -- the table's last prompt number
    state    TEXT NOT NULL,             -- 'playing', 'over', 'abandoned', 'failed'
    started  TEXT NOT NULL,             -- ISO 8601, UTC
    finished TEXT,
    result   TEXT                       -- JSON: {"Winner": seat, "Score": [...]}
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
    PRIMARY KEY (game, n)
);
"""


class StoreError(HundredError):
    """The store cannot be used (damaged, not ours, newer); the message says why."""

    code = "bad_store"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """One store file; ``Store(path)`` opens it (creating it if it does not exist)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        fresh = not os.path.exists(self.path) or os.path.getsize(self.path) == 0
        if not fresh:
            _check_header(self.path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store {self.path!r}: {exc}") from None
        try:
            self._open(fresh)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(
                f"the store {self.path!r} is damaged or not a store ({exc}); it was left as it is"
            ) from None
        except StoreError:
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
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        self._db.close()

    # ------------------------------------------------------------------ writing

    def write(self, writes: Iterable[Write]) -> None:
        """Apply a batch of writes in one transaction; committed when this returns."""
        started: list[GameStarted] = []
        lines: list[tuple[int, int, str]] = []
        seqs: dict[int, int] = {}
        ended: list[GameEnded] = []
        for item in writes:
            if isinstance(item, Moves):
                lines += [(item.game_id, item.first + i, x) for i, x in enumerate(item.lines)]
                seqs[item.game_id] = item.seq
            elif isinstance(item, GameStarted):
                started.append(item)
            else:
                ended.append(item)
        if not (started or lines or ended):
            return
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            now = _now()
            if started:
                db.executemany(
                    "INSERT INTO games (id, game, name, seed, clock, seq, state, started)"
                    " VALUES (?, ?, ?, ?, ?, 0, 'playing', ?)",
                    [(g.game_id, g.game, g.name, g.seed, g.clock, now) for g in started],
                )
                db.executemany(
                    "INSERT INTO seats (game, seat, name, token) VALUES (?, ?, ?, ?)",
                    [(g.game_id, i, n, t) for g in started for i, (n, t) in enumerate(g.seats)],
                )
            if lines:
                db.executemany("INSERT INTO moves (game, n, line) VALUES (?, ?, ?)", lines)
                db.executemany(
                    "UPDATE games SET seq = ? WHERE id = ?", [(q, g) for g, q in seqs.items()]
                )
            if ended:
                db.executemany(
                    "UPDATE games SET state = ?, finished = ?, result = ? WHERE id = ?",
                    [
                        (
                            e.state,
                            now,
                            None if e.result is None else json.dumps(e.result),
                            e.game_id,
                        )
                        for e in ended
                    ],
                )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # ------------------------------------------------------------------ reading

    def games(self, state: str | None = None) -> list[StoredGame]:
        """Every game (or those in ``state``), oldest first, with seats and record."""
        query = (
            "SELECT id, game, name, seed, clock, seq, state, started, finished, result FROM games"
        )
        rows = self._db.execute(
            query + (" WHERE state = ?" if state else "") + " ORDER BY id",
            (state,) if state else (),
        ).fetchall()
        out = [
            StoredGame(
                id=row[0],
                game=row[1],
                name=row[2],
                seed=row[3],
                clock=row[4],
                seq=row[5],
                state=row[6],
                started=row[7],
                finished=row[8],
                result=None if row[9] is None else json.loads(row[9]),
            )
            for row in rows
        ]
        for game in out:
            self._fill(game)
        return out

    def game(self, game_id: int) -> StoredGame | None:
        found = [g for g in self.games() if g.id == game_id]
        return found[0] if found else None

    def last_id(self) -> int:
        return int(self._db.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0])

    def _fill(self, game: StoredGame) -> None:
        game.seats = [
            (name, token)
            for name, token in self._db.execute(
                "SELECT name, token FROM seats WHERE game = ? ORDER BY seat", (game.id,)
            )
        ]
        game.lines = [
            line
            for (line,) in self._db.execute(
                "SELECT line FROM moves WHERE game = ? ORDER BY n", (game.id,)
            )
        ]


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


def describe(games: Sequence[StoredGame]) -> list[str]:
    """The ``games`` command's lines: one per game, in columns."""
    rows = [("ID", "GAME", "PLAYERS", "STATE", "STARTED", "RESULT")]
    for g in games:
        result = "" if g.result is None else str(g.result.get("Text", ""))
        rows.append((str(g.id), g.game, ", ".join(g.players), g.state, g.started, result))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
