"""What every store engine is to the server and the commands: ``GameStore``, its errors,
and what the engines share (the retention cut-off, reading a stored result, the
``games`` command's columns)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Final, Protocol
from urllib.parse import unquote

from hundred_server.core.journal import Moves, StoredGame, Write
from hundred_server.protocol.errors import Fault

#: How long a write waits for a lock another program holds before it fails (seconds).
#: Short: the server retries a failed save itself, and a writer stuck in a long wait
#: would hold up every save behind it, and shutdown (a server's SQLite store waits
#: less still: sqlite.SERVER_BUSY_TIMEOUT).
BUSY_TIMEOUT: Final = 2.0
#: The states of a game that is finished, which ``prune`` may remove.
FINISHED: Final = ("over", "abandoned", "failed")
#: Seconds before the last game to end in which a game that ended is read back at a
#: restart (``last_ended``): the save that ends a game is committed before its end is
#: sent, so a server that died in between had ended it at most moments before it died,
#: and its people have not been told (Hub.restore keeps its end for their tokens).
ENDED_WINDOW: Final = 60.0
#: ``serve --commit-wait``: seconds an inline store's commit (``GameStore.inline``)
#: waits after the one before, so that moves arriving one by one (a person's pace)
#: share a transaction: the turns that come meanwhile are committed together when it
#: has passed, and a move after a quiet spell commits at once. Nothing is sent before
#: it is saved, so a crash loses no move anyone was told of (server.py). 0.05: at 100
#: tables of people at a person's pace it halves the server's CPU an answer (a commit
#: costs more than the rest of an answer; 0.01 gave nothing measurable), and a person
#: does not see 50 ms (docs/scaling.md).
COMMIT_WAIT: Final = 0.05
#: ``serve --commit-batch``: an inline store commits at once, wait or not, when this
#: many turns' writes wait for it: a busy server (bots answering at once) commits as
#: often as it fills a batch, and its answers do not wait out ``COMMIT_WAIT``. So it
#: does once every game of the last commit has writes waiting again (a closed loop:
#: waiting would gather nothing more; the last few tables of a busy server).
COMMIT_BATCH: Final = 16


class StoreError(Fault):
    """The store cannot be used (damaged, not ours, newer, out of reach); the message
    says why (and never holds a password)."""

    code = "bad_store"


class StoreBusy(StoreError):
    """Another server (or another exclusive store object) has the store."""

    code = "store_busy"


class GameStore(Protocol):
    """A store of games, whatever its engine (store/sqlite.py, store/postgres.py).

    The server writes from one thread (its event loop's, or a writer thread: see
    ``inline``) and reads at start; the commands read. Every
    method may be called from any one thread at a time per call (each engine holds a
    lock of its own), and raises what its engine raises when the engine refuses (the
    server logs it and retries a write with backoff)."""

    #: Where the games are, fit for a log line or an error: a path, or a URL whose
    #: password is replaced by ``***``.
    location: str
    #: Whether opening narrowed who else may read it (SQLite: the files' mode).
    tightened: bool
    #: Whether the server calls ``write`` on its event loop (a local commit that never
    #: waits for the disk: SQLite's) rather than from its writer thread (a network
    #: round trip: PostgreSQL's). ``prune`` always runs on the writer thread.
    inline: bool

    @property
    def quiet_wanted(self) -> bool:
        """Whether the store asks the server to hold its writes until ``quiesce`` has
        run (SQLite: its -wal must be all checkpointed once for it to start over)."""
        ...

    def quiesce(self) -> None:
        """Called on the server's writer thread while no write is under way, when
        ``quiet_wanted``; it may wait for the disk."""

    def write(self, writes: Iterable[Write]) -> None:
        """Apply a batch in one transaction, committed when this returns. On any error
        nothing of the batch is kept (the caller retries the same values, each line
        then saved once). ``GameDropped`` applies in batch order."""

    def mark_failed(self, game_id: int) -> None:
        """The game cannot be restored: kept, as failed, and not tried again."""

    def prune(self, before: str) -> int:
        """Remove the finished games (``FINISHED``) that finished before ``before``
        (ISO 8601 with its UTC offset), seats and moves too; how many. A game still
        playing is never removed."""
        ...

    def size(self) -> int:
        """Bytes the store takes on disk."""
        ...

    def games(self, state: str | None = None) -> list[StoredGame]:
        """Every game (or those in ``state``), by id, with seats and record; never
        raises over a damaged row."""
        ...

    def game(self, game_id: int) -> StoredGame | None: ...

    def games_with_seed(self, seed: str) -> list[StoredGame]:
        """The games dealt from ``seed`` (one, or a ladder set's: core/ladder.py), by
        id, with seats and record."""
        ...

    def last_ended(self, within: float) -> list[StoredGame]:
        """The games over with a result that ended at most ``within`` seconds before the
        last such game did (none: none), by id, with seats and record; never raises over
        a damaged row."""
        ...

    def last_id(self) -> int:
        """The highest game id ever stored that is still there (0: none)."""
        ...

    def close(self) -> None:
        """Let go of the store (another server may have it then); harmless twice."""


def now() -> datetime:
    """This second, in UTC: the precision both engines keep."""
    return datetime.now(UTC).replace(microsecond=0)


def iso(when: datetime) -> str:
    """A time the way ``StoredGame`` gives it: ISO 8601, UTC, to the second."""
    return when.astimezone(UTC).isoformat(timespec="seconds")


def since_last(last: object, within: float) -> str | None:
    """``within`` seconds before ``last`` (a time stored as text, as ``iso`` writes it),
    as ``iso`` writes it; None if ``last`` is none or not such a time."""
    if not isinstance(last, str):
        return None
    try:
        when = datetime.fromisoformat(last)
    except ValueError:
        return None
    if when.tzinfo is None:
        return None
    return iso(when - timedelta(seconds=within))


def cutoff(before: str) -> datetime:
    """``prune``'s argument read as a time, which must say its UTC offset."""
    when = datetime.fromisoformat(before)
    if when.tzinfo is None:
        raise ValueError(f"prune needs a time with its UTC offset, not {before!r}")
    return when.astimezone(UTC)


def move_rows(moves: Moves) -> list[tuple[int, int, str, int | None]]:
    """The ``moves`` rows of a save's lines: (game, n, line, seq), the table's prompt
    number on the last line only. A game's prompt number is then its last line's (a
    save always writes a line), so a save inserts its lines and updates no game row."""
    game, first, last = moves.game_id, moves.first, len(moves.lines) - 1
    return [
        (game, first + i, line, moves.seq if i == last else None)
        for i, line in enumerate(moves.lines)
    ]


def stored_result(value: object) -> dict[str, object] | None:
    """The stored result, if it is a JSON object (the only kind a store writes)."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, str | bytes):
        return None
    try:
        result = json.loads(value)
    except (ValueError, RecursionError):
        return None
    return result if isinstance(result, dict) else None


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


# ------------------------------------------------------------------ passwords in URLs

#: ``scheme://user:password@`` (libpq ends the user part at the first "/" or "@").
_URL_PASSWORD: Final = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^@/:]*):([^@/]*)@")
_QUERY_PASSWORD: Final = re.compile(r"([?&]password=)([^&#]*)", re.IGNORECASE)
HIDDEN: Final = "***"


def redact(url: str) -> str:
    """``url`` with its password (after the user, or ``password=`` in the query) as
    ``***``: what a log line or an error may show."""
    url = _URL_PASSWORD.sub(rf"\1:{HIDDEN}@", url, count=1)
    return _QUERY_PASSWORD.sub(rf"\1{HIDDEN}", url)


def secrets_in(url: str) -> list[str]:
    """The password ``url`` holds, as written and decoded (to scrub from messages that
    quote it, such as a parser's complaint about the URL)."""
    found = [m.group(2) for m in (_URL_PASSWORD.match(url),) if m is not None]
    found += [m.group(2) for m in _QUERY_PASSWORD.finditer(url)]
    words = {w for s in found for w in (s, unquote(s)) if w}
    return sorted(words, key=len, reverse=True)


def scrub(text: str, url: str) -> str:
    """``text`` (an engine's message) with ``url``'s password, if it quotes it, hidden;
    on one line."""
    for secret in secrets_in(url):
        text = text.replace(secret, HIDDEN)
    return " ".join(text.split())
