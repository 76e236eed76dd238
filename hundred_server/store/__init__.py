"""Durable storage: every game the server hosts, saved before anyone is told of a move,
so a server that is killed loses nothing and picks its games up again at start.

The hub decides what to keep and hands it over as plain data (``Write`` values,
journal.py); the server applies each batch in one transaction (SQLite's on its event
loop, PostgreSQL's from one writer thread: ``GameStore.inline``), and sends nothing a
batch produced before it is committed. The commands (``games``, ``export``) read.
They all see a store only as a ``GameStore`` (base.py), whatever its engine:

- SQLite (sqlite.py, ``Store``): the default, one file (``serve --db PATH``), the
  standard library's; nothing to install or run.
- PostgreSQL (postgres.py, ``PostgresStore``): ``serve --store postgresql://...``, for a
  site; psycopg 3 (``pip install 'hundred_server[postgres]'``).

Both keep the same data (a game's table, seats with tokens' hashes, its record line by
line, prompt counter and result) with the same guarantees: a batch is all or nothing,
one server per store (``StoreBusy`` for a second), a store of something else or of a
newer version is refused and left as it is (``StoreError``), readers read while a
server runs. ``open_store`` picks the engine from the location.
"""

from __future__ import annotations

import os
import re
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
    COMMIT_BATCH,
    COMMIT_WAIT,
    ENDED_WINDOW,
    FINISHED,
    GameStore,
    StoreBusy,
    StoreError,
    describe,
    redact,
)
from hundred_server.store.sqlite import (
    APPLICATION_ID,
    DEFAULT_PATH,
    PRIVATE,
    STORE_VERSION,
    Store,
)

__all__ = [
    "APPLICATION_ID",
    "BUSY_TIMEOUT",
    "COMMIT_BATCH",
    "COMMIT_WAIT",
    "DEFAULT_PATH",
    "ENDED_WINDOW",
    "FINISHED",
    "PRIVATE",
    "STORE_VERSION",
    "GameDropped",
    "GameEnded",
    "GameStarted",
    "GameStore",
    "Moves",
    "Store",
    "StoreBusy",
    "StoreError",
    "StoredGame",
    "Write",
    "check_url",
    "describe",
    "is_url",
    "open_store",
    "redact",
    "restorable",
]

#: The URL schemes of the engines that are not files.
URL_SCHEMES: Final = ("postgresql", "postgres")
_SCHEME: Final = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def is_url(location: str) -> bool:
    """Whether ``location`` is a URL (``scheme://...``) rather than a file's path."""
    return _SCHEME.match(location) is not None


def check_url(url: str) -> None:
    """Refuse (``StoreError``) what is no store URL this server knows, before anything
    is opened; the message shows the URL without its password."""
    match = _SCHEME.match(url)
    if match is None:
        raise StoreError(
            f"not a store URL: {redact(url)!r} (postgresql://user@host/database; an "
            "SQLite file is given with --db PATH)"
        )
    if match.group(1) not in URL_SCHEMES:
        raise StoreError(
            f"unknown kind of store {match.group(1)}:// in {redact(url)} (known: "
            f"{', '.join(s + '://' for s in URL_SCHEMES)}; an SQLite file is given with "
            "--db PATH)"
        )


def restorable(store: GameStore) -> list[StoredGame]:
    """What a server restarted on ``store`` hands ``Hub.restore``: the unfinished games,
    then those that ended in the ``ENDED_WINDOW`` before the last one to end did (the
    server may have died after saving their end and before sending it)."""
    return store.games("playing") + store.last_ended(ENDED_WINDOW)


def open_store(
    location: str,
    *,
    exclusive: bool = False,
    create: bool = True,
    busy_timeout: float = BUSY_TIMEOUT,
    site: str | None = None,
) -> GameStore:
    """The store at ``location``: a ``postgresql://`` (or ``postgres://``) URL, or the
    path of an SQLite file. ``exclusive``: for a server, which must be its only one.
    ``create``: make the store if there is none (False: ``StoreError`` instead, for
    the commands that only read). ``site``: a PostgreSQL store shared by the instances
    of a site, this one's id (postgres.py)."""
    if not is_url(location):
        if not create and not os.path.exists(location):
            raise StoreError(f"no store at {location!r}")
        return Store(location, exclusive=exclusive, busy_timeout=busy_timeout)
    check_url(location)
    try:
        from hundred_server.store.postgres import PostgresStore
    except ImportError as exc:
        raise StoreError(
            f"the store {redact(location)} is a PostgreSQL database, and PostgreSQL needs "
            f"psycopg ({exc}): pip install 'hundred_server[postgres]'"
        ) from None
    return PostgresStore(
        location, exclusive=exclusive, create=create, busy_timeout=busy_timeout, site=site
    )
