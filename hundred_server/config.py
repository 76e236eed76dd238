"""The server's settings: one frozen object, built once by the command line (cli.py, from
its options and the environment) and handed down whole: ``run`` and ``Server`` take the
``Settings``, the hub and the lobby the groups they need (``limits``, ``ai``). Every
default of ``serve`` is here or in the group's own type (``Limits``, ``PoolLimits``,
``BotLimits``), so the command line's help and the server that embeds without it agree.

The groups::

    Settings
      limits      Limits (core/lobby.py): what one client may do
      listeners   Listeners: where to listen, and how the clients' addresses are read
      store       StoreSettings: where the games are kept, and how saves are batched
      ai          AISettings: the AI of a table, its budget and pool, plug-in bots
      bus         the site's bus URL (None: one server alone)
      log_level, loop

The core reads ``AISettings`` by its attributes only (it never imports this module,
which reaches the I/O layers' types): a lobby made without one has ``AISettings()``'s
values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from hundred_server.ai.plugins import BotLimits, Plugin
from hundred_server.ai.pool import PoolLimits
from hundred_server.core.lobby import AI_LEVELS, Limits
from hundred_server.store import COMMIT_BATCH, COMMIT_WAIT

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 7110
#: ``serve --loop``: asyncio's loop, uvloop's, or uvloop when it is installed.
LOOPS: Final = ("auto", "asyncio", "uvloop")
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR")


@dataclass(frozen=True)
class Listeners:
    """The main port (newline-delimited JSON and text mode), and the classic and web
    ports if asked for (None: off). ``proxy_protocol``: every TCP connection starts with
    a load balancer's PROXY header; ``forwarded_for``: the web port is behind an HTTP
    load balancer, whose ``X-Forwarded-For`` gives the client's address."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    classic_port: int | None = None
    http_port: int | None = None
    proxy_protocol: bool = False
    forwarded_for: bool = False

    @property
    def ports(self) -> tuple[int, ...]:
        """The ports asked for, the main one first (for a message that cannot bind)."""
        return (self.port, *(p for p in (self.classic_port, self.http_port) if p is not None))


@dataclass(frozen=True)
class StoreSettings:
    """``location``: an SQLite path or a PostgreSQL URL (None: ``--memory``, nothing
    kept). Finished games older than ``keep_days`` are removed (None: kept for good). An
    inline store's commits are ``commit_wait`` seconds apart at least, or sooner once
    ``commit_batch`` turns' writes wait (io/committer.py)."""

    location: str | None = None
    keep_days: float | None = None
    commit_wait: float = COMMIT_WAIT
    commit_batch: int = COMMIT_BATCH


@dataclass(frozen=True)
class AISettings:
    """``level``: the AI of a table that does not ask for one (one of ``AI_LEVELS``);
    ``budget``: seconds a strong AI decision may take (None: its own,
    ``games.kit.search.BUDGET``); ``pool``: the worker pool that plays the strong AI's
    moves (None: in process); ``plugins``: plug-in bots for their games' AI seats, each
    move in a worker process within ``bot_limits``."""

    level: str = AI_LEVELS[0]
    budget: float | None = None
    pool: PoolLimits | None = None
    plugins: tuple[Plugin, ...] = ()
    bot_limits: BotLimits = field(default_factory=BotLimits)

    def __post_init__(self) -> None:
        if self.level not in AI_LEVELS:
            raise ValueError(f"no AI {self.level!r} (the AIs: {', '.join(AI_LEVELS)})")

    @property
    def plugin_labels(self) -> dict[str, str]:
        """Game name -> the label of its plug-in bot (the last one for a game counts)."""
        return {p.game: p.label for p in self.plugins}


@dataclass(frozen=True)
class Settings:
    """Everything ``serve`` was told; see the module docstring."""

    limits: Limits = field(default_factory=Limits)
    listeners: Listeners = field(default_factory=Listeners)
    store: StoreSettings = field(default_factory=StoreSettings)
    ai: AISettings = field(default_factory=AISettings)
    bus: str | None = None
    log_level: str = "INFO"
    loop: str = "auto"
