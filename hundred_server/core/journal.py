"""What the hub asks the store to keep, and what the store gives back, as plain data.

The hub (lobby.py) stays free of I/O: it says what to save as ``Write`` values
(``Hub.take_writes``), and the server hands them to the store (store.py), which saves
them before anything they produced is sent. After a restart the store gives back each
game as a ``StoredGame`` for ``Hub.restore``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
