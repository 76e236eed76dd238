"""What the hub asks the store to keep, and what the store gives back, as plain data.

The hub (lobby.py) stays free of I/O: its ``Journal`` says what to save as ``Write``
values (``Journal.take``), and the server hands them to the store (store.py), which
saves them before anything they produced is sent. After a restart the store gives back
each game as a ``StoredGame`` for ``Restorer.restore`` (restore.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hundred_server.games.records import dumps_line

if TYPE_CHECKING:
    from hundred_server.core.table import Table

# ------------------------------------------------------------------ what the hub writes


@dataclass(frozen=True)
class GameStarted:
    game_id: int
    game: str
    name: str
    seed: str
    clock: float | None
    seats: tuple[tuple[str, str | None], ...]  # (name, token hash or None for an AI)
    ai: str = "naive"  # the built-in AI the table asked for (lobby.AI_LEVELS)
    watchers: bool = True  # whether the table takes watchers (never who watches)


@dataclass(frozen=True)
class Moves:
    game_id: int
    first: int  # the line number (``n``) of lines[0]
    lines: tuple[str, ...]
    seq: int


@dataclass(frozen=True)
class GameEnded:
    game_id: int
    state: str  # 'over', 'abandoned', 'failed'
    result: dict[str, object] | None = None


@dataclass(frozen=True)
class GameDropped:
    """Forget the game: its moves, seats and row go. For a table abandoned before any
    person played in it, so a client that creates tables and hangs up leaves nothing
    behind in the store (a kept game is only worth its space if someone played)."""

    game_id: int


Write = GameStarted | Moves | GameEnded | GameDropped


# ------------------------------------------------------------------ what it reads back


@dataclass
class StoredGame:
    id: int
    game: str
    name: str
    seed: str
    clock: float | None
    seq: int
    state: str
    started: str
    finished: str | None
    result: dict[str, object] | None
    seats: list[tuple[str, str | None]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: The built-in AI the table asked for (None: stored before tables chose one).
    ai: str | None = None
    #: Whether the table takes watchers (a table stored before they could refuse: yes).
    watchers: bool = True

    @property
    def players(self) -> list[str]:
        return [name for name, _ in self.seats]


# ------------------------------------------------------------------ the journal


def header_of(table: Table) -> dict[str, Any]:
    """The record's first line of ``table``'s game: its game's header, and a table with
    a fair clock's settings (``FairClock``) and ladder set (``Ladder``) after it."""
    assert table.game is not None
    header = table.spec.header_object(table.game)
    if table.bot_clock is not None:
        header["FairClock"] = table.bot_clock.settings()
    return {**header, **table.header}


class Journal:
    """What to save, in order, before what it produced is sent (``durable`` only; a
    lobby that is not durable notes nothing of its games' moves)."""

    def __init__(self, durable: bool) -> None:
        self.durable = durable
        self._writes: list[Write] = []

    def add(self, write: Write) -> None:
        self._writes.append(write)

    def note(self, table: Table) -> None:
        """What ``table``'s game has done since it was last noted: its start (the
        first time), and the record lines of its moves."""
        game = table.game
        if not self.durable or game is None:
            return
        lines: list[str] = []
        if table.saved == 0:
            seats = tuple((s.name, s.token) for s in table.seats if s is not None)
            self._writes.append(
                GameStarted(
                    table.id,
                    table.game_name,
                    table.name,
                    table.seed,
                    table.turn_timeout,
                    seats,
                    table.ai.level,
                    table.watchable,
                )
            )
            lines.append(dumps_line(header_of(table)))
        first = table.saved
        clock = table.bot_clock
        if clock is None:
            start = max(0, table.saved - 1)
            lines += [dumps_line(o) for o in table.spec.history_objects(game, start)]
        else:  # its Clock lines among the moves (core/botclock.py)
            lines += [dumps_line(o) for o in clock.lines(game, table.spec.history_objects)]
        if lines:
            self._writes.append(Moves(table.id, first, tuple(lines), table.seq))
            table.note_saved(len(lines))

    def take(self) -> list[Write]:
        """What must be saved (in order, in one transaction) before the commands
        returned so far are sent."""
        writes, self._writes = self._writes, []
        return writes

    def drop(self, game_ids: Iterable[int]) -> None:
        """Forget what waits to be saved of ``game_ids`` (another instance has them)."""
        gone = set(game_ids)
        self._writes = [w for w in self._writes if w.game_id not in gone]
