"""Accounts, their keys, and ratings, in the store beside the games (SQLite or
PostgreSQL: the same tables, the same SQL but for its placeholders).

``AccountStore`` has a connection of its own to the store the server's games are in
(``open_accounts``): its tables are made when it opens them (``CREATE TABLE IF NOT
EXISTS``, one transaction; on PostgreSQL under the store's creation lock, so that the
instances of a site do not race), after the games' store has checked that the place is
a store of ours. They are::

    accounts       id (the name's skeleton, names.fold: a look-alike is the same id),
                   the name as registered, its password's argon2 hash, whether it is a
                   bot, when it was made
    account_keys   the SHA-256 of each API key, its account, when made and revoked
    ratings        per account and game: its pool (bots or people), openskill's mu and
                   sigma, games played and won, rated
    rated_games    each game rated once: its id, its game, each seat's account and
                   result (JSON), its rating changes; a game's rating and this row are
                   one transaction, so a game is never rated twice nor half
    sign_in_failures  wrong passwords and keys: who (``address A`` or ``account ID``)
                   and when (seconds since the epoch), for ``Attempts``
                   (core/accounts.py) on every instance and across restarts; those
                   older than the window are deleted as new ones come

A site's instances share the one database, so an account made on one is known on all.
Nothing here hashes passwords: the caller hands over the argon2 hash it made (off the
event loop, io/api.py). Each method holds the store's lock and is one transaction.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from hundred_server.core.accounts import Account, account_id
from hundred_server.core.ratings import ANCHORS, Rating, rate_game
from hundred_server.store.base import GameStore, StoreError, iso, now, redact, scrub

#: The tables, in SQL both engines read (``?`` placeholders are PostgreSQL's ``%s``).
SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS accounts (
        id       TEXT PRIMARY KEY,
        name     TEXT NOT NULL,
        password TEXT NOT NULL,
        bot      INTEGER NOT NULL,
        created  TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS account_keys (
        hash    TEXT PRIMARY KEY,
        account TEXT NOT NULL REFERENCES accounts(id),
        created TEXT NOT NULL,
        revoked TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS ratings (
        account TEXT NOT NULL REFERENCES accounts(id),
        game    TEXT NOT NULL,
        pool    TEXT NOT NULL,
        mu      DOUBLE PRECISION NOT NULL,
        sigma   DOUBLE PRECISION NOT NULL,
        games   INTEGER NOT NULL,
        wins    INTEGER NOT NULL,
        PRIMARY KEY (account, game)
    )""",
    "CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, pool)",
    """CREATE TABLE IF NOT EXISTS rated_games (
        id      BIGINT PRIMARY KEY,
        game    TEXT NOT NULL,
        seats   TEXT NOT NULL,
        sides   TEXT,
        result  TEXT,
        rated   TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS rated_seats (
        account TEXT NOT NULL,
        id      BIGINT NOT NULL REFERENCES rated_games(id),
        PRIMARY KEY (account, id)
    )""",
    """CREATE TABLE IF NOT EXISTS sign_in_failures (
        who TEXT NOT NULL,
        at  DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS sign_in_failures_who ON sign_in_failures (who, at)",
    "CREATE INDEX IF NOT EXISTS sign_in_failures_at ON sign_in_failures (at)",
)
#: The pools a rating is in.
POOLS: Final = ("bots", "people")


@dataclass(frozen=True, slots=True)
class Login:
    """What ``login`` needs of an account: its name, its argon2 hash, whether a bot."""

    id: str
    name: str
    password: str
    bot: bool


#: A rating before a game, by account id (None: the account has none in that game yet).
Before = dict[str, Rating | None]


class AccountStore:
    """The accounts of one store; ``open_accounts`` makes one."""

    def __init__(self, connect: Callable[[], Any], placeholder: str, url: str) -> None:
        self._connect = connect
        self._url = url
        self._postgres = placeholder != "?"
        self._placeholder = placeholder
        self.location = redact(url)
        self._mutex = threading.Lock()
        self._db: Any = None
        with self._mutex, self._transaction() as db:
            if self._postgres:
                from hundred_server.store.postgres import CREATE_LOCK

                db.execute(
                    "SELECT pg_advisory_xact_lock(%s, hashtext(current_schema()))", (CREATE_LOCK,)
                )
            for statement in SCHEMA:
                db.execute(statement)

    # ------------------------------------------------------------------ plumbing

    def _sql(self, query: str) -> str:
        return query if self._placeholder == "?" else query.replace("?", self._placeholder)

    def _connection(self) -> Any:
        if self._db is None or (self._postgres and self._db.closed):
            self._db = self._connect()
        return self._db

    @contextlib.contextmanager
    def _transaction(self, begin: str = "BEGIN") -> Iterator[Any]:
        db = self._connection()
        if not self._postgres and begin == "BEGIN":
            begin = "BEGIN IMMEDIATE"
        try:
            db.execute(begin)
        except Exception as exc:
            self._lost(exc)
            raise StoreError(f"the accounts in {self.location}: {self._why(exc)}") from None
        try:
            yield _Sql(db, self._sql)
            db.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(Exception):
                db.execute("ROLLBACK")
            self._lost(exc)
            if isinstance(exc, sqlite3.Error) or type(exc).__module__.startswith("psycopg"):
                raise StoreError(f"the accounts in {self.location}: {self._why(exc)}") from None
            raise

    def _lost(self, exc: BaseException) -> None:
        if self._postgres and self._db is not None and self._db.closed:
            self._db = None

    def _why(self, exc: BaseException) -> str:
        return scrub(str(exc), self._url) or type(exc).__name__

    def close(self) -> None:
        with self._mutex:
            if self._db is not None:
                self._db.close()
                self._db = None

    # ------------------------------------------------------------------ accounts

    def create(self, account: str, name: str, password_hash: str, bot: bool, key_hash: str) -> bool:
        """A new account with its first key; False (nothing made) if ``account`` (a
        skeleton) is taken."""
        when = iso(now())
        with self._mutex, self._transaction() as db:
            if db.one("SELECT 1 FROM accounts WHERE id = ?", (account,)) is not None:
                return False
            db.execute(
                "INSERT INTO accounts (id, name, password, bot, created) VALUES (?, ?, ?, ?, ?)",
                (account, name, password_hash, int(bot), when),
            )
            db.execute(
                "INSERT INTO account_keys (hash, account, created) VALUES (?, ?, ?)",
                (key_hash, account, when),
            )
        return True

    def login(self, account: str) -> Login | None:
        with self._mutex, self._transaction() as db:
            row = db.one("SELECT id, name, password, bot FROM accounts WHERE id = ?", (account,))
        return None if row is None else Login(row[0], row[1], row[2], bool(row[3]))

    def set_password(self, account: str, password_hash: str) -> None:
        """A new hash for the same password (argon2's parameters changed)."""
        with self._mutex, self._transaction() as db:
            db.execute("UPDATE accounts SET password = ? WHERE id = ?", (password_hash, account))

    def add_key(self, account: str, key_hash: str) -> None:
        with self._mutex, self._transaction() as db:
            db.execute(
                "INSERT INTO account_keys (hash, account, created) VALUES (?, ?, ?)",
                (key_hash, account, iso(now())),
            )

    def revoke(self, account: str, key_hash: str) -> bool:
        """Revoke one of the account's keys; whether it had it (and not revoked)."""
        with self._mutex, self._transaction() as db:
            row = db.one(
                "SELECT 1 FROM account_keys WHERE hash = ? AND account = ? AND revoked IS NULL",
                (key_hash, account),
            )
            if row is not None:
                db.execute(
                    "UPDATE account_keys SET revoked = ? WHERE hash = ?", (iso(now()), key_hash)
                )
        return row is not None

    def keys(self, account: str) -> int:
        """How many keys of the account are live."""
        with self._mutex, self._transaction() as db:
            row = db.one(
                "SELECT count(*) FROM account_keys WHERE account = ? AND revoked IS NULL",
                (account,),
            )
        return 0 if row is None else int(row[0])

    def by_key(self, key_hash: str) -> Account | None:
        with self._mutex, self._transaction() as db:
            row = db.one(
                "SELECT a.name, a.bot FROM account_keys k JOIN accounts a ON a.id = k.account"
                " WHERE k.hash = ? AND k.revoked IS NULL",
                (key_hash,),
            )
        return None if row is None else Account(row[0], bool(row[1]))

    def taken(self, name: str) -> str | None:
        """The account's name that ``name`` is or looks like (``AccountBook``)."""
        return self.name_of(account_id(name))

    def name_of(self, account: str) -> str | None:
        with self._mutex, self._transaction() as db:
            row = db.one("SELECT name FROM accounts WHERE id = ?", (account,))
        return None if row is None else str(row[0])

    # ------------------------------------------------------------ wrong guesses

    def recent_failures(self, who: str, since: float, limit: int) -> list[float]:
        """The times of ``who``'s latest ``limit`` failures after ``since``, newest
        first (``FailureLog``)."""
        with self._mutex, self._transaction() as db:
            rows = db.all(
                "SELECT at FROM sign_in_failures WHERE who = ? AND at > ? ORDER BY at DESC LIMIT ?",
                (who, since, limit),
            )
        return [float(r[0]) for r in rows]

    def add_failures(self, who: Sequence[str], at: float, forget: float) -> None:
        """A failure at ``at`` for each of ``who``; every failure at or before
        ``forget`` is deleted (``FailureLog``)."""
        with self._mutex, self._transaction() as db:
            db.execute("DELETE FROM sign_in_failures WHERE at <= ?", (forget,))
            for one in who:
                db.execute("INSERT INTO sign_in_failures (who, at) VALUES (?, ?)", (one, at))

    # ------------------------------------------------------------------ ratings

    def ensure_anchors(self) -> None:
        """The built-in anchors' accounts (bots no one logs into: no password hash
        verifies against "!")."""
        for name in ANCHORS:
            with self._mutex, self._transaction() as db:
                if db.one("SELECT 1 FROM accounts WHERE id = ?", (account_id(name),)) is None:
                    db.execute(
                        "INSERT INTO accounts (id, name, password, bot, created)"
                        " VALUES (?, ?, '!', 1, ?)",
                        (account_id(name), name, iso(now())),
                    )

    def rated_table(
        self, game_id: int, game: str, seats: Sequence[object], sides: Sequence[int] | None
    ) -> None:
        """A rated table's game has started: its seats' accounts (a seat's entry or
        None), kept until it is rated (``rate``); once per game."""
        with self._mutex, self._transaction() as db:
            if db.one("SELECT 1 FROM rated_games WHERE id = ?", (game_id,)) is None:
                db.execute(
                    "INSERT INTO rated_games (id, game, seats, sides) VALUES (?, ?, ?, ?)",
                    (game_id, game, json.dumps(list(seats)),
                     None if sides is None else json.dumps(list(sides))),
                )  # fmt: skip

    def unrated(self) -> list[int]:
        """The rated tables' games not rated yet (under way, or ended just before a
        stop), by id."""
        with self._mutex, self._transaction() as db:
            rows = db.all("SELECT id FROM rated_games WHERE rated IS NULL ORDER BY id")
        return [int(r[0]) for r in rows]

    def rate(self, game_id: int, result: dict[str, Any]) -> bool:
        """Rate game ``game_id`` (a rated table's, ``rated_table``) by its ``result``
        once; False (nothing changed) if it is no rated table's or was rated already.
        The ratings and the game's row are one transaction."""
        return self.rate_game(game_id, result) is not None

    def mus(self) -> list[tuple[str, str, float]]:
        """Every rating's mu: (account id, game, mu), for the ladder's pairing."""
        with self._mutex, self._transaction() as db:
            rows = db.all("SELECT account, game, mu FROM ratings")
        return [(str(r[0]), str(r[1]), float(r[2])) for r in rows]

    def rate_game(self, game_id: int, result: dict[str, Any]) -> dict[str, Rating] | None:
        """``rate``, and the ratings after it by account id (None: nothing rated)."""
        with self._mutex, self._transaction() as db:
            row = db.one(
                "SELECT game, seats, sides FROM rated_games WHERE id = ? AND rated IS NULL",
                (game_id,),
            )
            if row is None:
                return None
            game, seats, sides = str(row[0]), json.loads(row[1]), row[2]
            sides = None if sides is None else json.loads(sides)
            accounts = sorted({str(s["account"]) for s in seats if isinstance(s, dict)})
            before: Before = dict.fromkeys(accounts)
            lock = " FOR UPDATE" if self._postgres else ""
            for account in accounts:
                found = db.one(
                    "SELECT a.name, r.pool, r.mu, r.sigma, r.games, r.wins FROM ratings r"
                    " JOIN accounts a ON a.id = r.account WHERE r.account = ? AND r.game = ?"
                    + lock,
                    (account, game),
                )
                if found is not None:
                    before[account] = Rating(found[0], game, *found[1:])
            after = rate_game(game, seats, sides, result, before)
            for account, rating in after.items():
                values = (rating.mu, rating.sigma, rating.games, rating.wins, account, game)
                if before.get(account) is None:
                    db.execute(
                        "INSERT INTO ratings (mu, sigma, games, wins, account, game, pool)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (*values, rating.pool),
                    )
                else:
                    db.execute(
                        "UPDATE ratings SET mu = ?, sigma = ?, games = ?, wins = ?"
                        " WHERE account = ? AND game = ?",
                        values,
                    )
                db.execute(
                    "INSERT INTO rated_seats (account, id) VALUES (?, ?)", (account, game_id)
                )
            db.execute(
                "UPDATE rated_games SET result = ?, rated = ? WHERE id = ?",
                (json.dumps(result), iso(now()), game_id),
            )
        return after

    def rated(self, game_id: int) -> bool:
        with self._mutex, self._transaction() as db:
            row = db.one("SELECT 1 FROM rated_games WHERE id = ? AND rated IS NOT NULL", (game_id,))
        return row is not None

    def leaderboard(self, game: str, pool: str, limit: int = 100) -> list[Rating]:
        """The pool's ratings in ``game``, best first (by mu - 3 sigma, openskill's
        ordinal: a rating not yet sure ranks low)."""
        with self._mutex, self._transaction() as db:
            rows = db.all(
                "SELECT a.name, r.pool, r.mu, r.sigma, r.games, r.wins FROM ratings r"
                " JOIN accounts a ON a.id = r.account WHERE r.game = ? AND r.pool = ?"
                " ORDER BY r.mu - 3 * r.sigma DESC, a.name LIMIT ?",
                (game, pool, limit),
            )
        return [Rating(r[0], game, r[1], r[2], r[3], r[4], r[5]) for r in rows]

    def profile(self, account: str, last: int = 50) -> tuple[str, bool, list[Rating], list[Any]]:
        """An account's name, whether a bot, its ratings, and its last rated games
        (id, game, seats) newest first; ``KeyError`` if there is no such account."""
        with self._mutex, self._transaction() as db:
            row = db.one("SELECT name, bot FROM accounts WHERE id = ?", (account,))
            if row is None:
                raise KeyError(account)
            ratings = db.all(
                "SELECT game, pool, mu, sigma, games, wins FROM ratings WHERE account = ?"
                " ORDER BY game",
                (account,),
            )
            games = db.all(
                "SELECT g.id, g.game, g.seats, g.result FROM rated_seats s"
                " JOIN rated_games g ON g.id = s.id WHERE s.account = ? ORDER BY g.id DESC LIMIT ?",
                (account, last),
            )
        name, bot = str(row[0]), bool(row[1])
        return (
            name,
            bot,
            [Rating(name, r[0], r[1], r[2], r[3], r[4], r[5]) for r in ratings],
            [(int(g[0]), g[1], json.loads(g[2]), json.loads(g[3])) for g in games],
        )


class _Sql:
    """A connection whose queries are written with ``?``."""

    __slots__ = ("db", "sql")

    def __init__(self, db: Any, sql: Callable[[str], str]) -> None:
        self.db = db
        self.sql = sql

    def execute(self, query: str, params: Sequence[object] = ()) -> Any:
        return self.db.execute(self.sql(query), tuple(params))

    def one(self, query: str, params: Sequence[object] = ()) -> Any:
        return self.execute(query, params).fetchone()

    def all(self, query: str, params: Sequence[object] = ()) -> list[Any]:
        return list(self.execute(query, params).fetchall())


def open_accounts(location: str) -> AccountStore:
    """The accounts of the store at ``location`` (a path or a PostgreSQL URL), whose
    games' store has been opened (and so checked) first."""
    from hundred_server.store import is_url

    if not is_url(location):

        def connect_sqlite() -> sqlite3.Connection:
            db = sqlite3.connect(
                location, timeout=2.0, isolation_level=None, check_same_thread=False
            )
            db.execute("PRAGMA foreign_keys=ON")
            return db

        return AccountStore(connect_sqlite, "?", location)
    import psycopg

    from hundred_server.store.postgres import CONNECTION

    params = psycopg.conninfo.conninfo_to_dict(location)
    for key, value in CONNECTION.items():
        params.setdefault(key, value)
    conninfo = psycopg.conninfo.make_conninfo("", **{k: str(v) for k, v in params.items()})

    def connect_postgres() -> Any:
        try:
            return psycopg.connect(conninfo, autocommit=True)
        except psycopg.Error as exc:
            raise StoreError(
                f"cannot connect to the store {redact(location)}: {scrub(str(exc), location)}"
            ) from None

    return AccountStore(connect_postgres, "%s", location)


def accounts_of(store: GameStore) -> AccountStore:
    """The accounts of the store ``store`` (open): in the same file or database."""
    url = getattr(store, "url", None)
    return open_accounts(url if isinstance(url, str) else str(getattr(store, "path", "")))
