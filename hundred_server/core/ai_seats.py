"""AI seats: what plays a table's AI seats, and the plug-in moves they ask for (no I/O).

A table's AI seats are played by the game's plug-in bot if the server has one (out of
process: asked for, never called; core/remote.py), else by an in-process bot that
replaces the built-in AIs, else by the built-in AI the table asked for (the strong one
within the server's budget, paced, or asked of the AI pool). The moves asked of
plug-ins and the pool wait here until the server takes them (``take``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Final

from hundred_server.core.remote import BotRequest, BuiltinAI, PluginSeat, PoolSeat, ReleaseBots
from hundred_server.core.table import Table, TableAI
from hundred_server.games.base import GameSpec

if TYPE_CHECKING:
    from hundred_server.core.lobby import Lobby

#: The AIs a person may ask for at a new table (``"AI"`` in ``Game``), the default
#: first: every game's built-in ``strong`` and ``naive`` (``GameSpec.bots``).
AI_LEVELS: Final = ("strong", "naive")


class AISeats:
    """The AI of each new table, and the plug-in requests of every table."""

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby
        self._requests: list[BotRequest] = []
        #: Tables whose plug-in answer came while they were paused: asked again when
        #: the store is back.
        self.unanswered: set[int] = set()

    def for_table(self, spec: GameSpec, level: str) -> TableAI:
        """What plays the AI seats of a ``spec`` table that asked for the AI ``level``
        (see the module docstring)."""
        lobby = self._lobby
        label = lobby.plugins.get(spec.name)
        if label is not None:
            forfeits = lobby.forfeits
            return TableAI(lambda: PluginSeat(label, spec.bot(), forfeits), label, level)
        replaced = lobby.bots.get(spec.name)
        if replaced is not None:
            return TableAI(replaced, level, level)
        make = spec.bots[level]
        budget = lobby.ai_budget
        options = () if budget is None or level != "strong" else (("budget", budget),)
        if level == "strong" and lobby.ai_pool:
            builtin = BuiltinAI(spec.name, level, options)
            naive, stand_ins = spec.bots["naive"], lobby.stand_ins
            return TableAI(
                lambda: PoolSeat(builtin.label, naive(), stand_ins, builtin=builtin), level, level
            )
        if options:
            make = partial(make, **dict(options))
        return TableAI(make, level, level, pace=level == "strong")

    def collect(self, table: Table) -> None:
        """What ``table`` asks of its plug-ins now (after a step of it)."""
        self._requests += table.take_bot_requests()

    def release(self, table: Table) -> None:
        """``table`` goes: nobody waits for its plug-ins' answers any more, and its
        workers may stop."""
        self.unanswered.discard(table.id)
        lobby = self._lobby
        if table.id in lobby.tables and (table.game_name in lobby.plugins or table.asks):
            table.take_bot_requests()
            self._requests = [r for r in self._requests if r.table != table.id] + [
                ReleaseBots(table.id)
            ]

    def take(self) -> list[BotRequest]:
        """The plug-in moves to run (``AskBot``) and the tables whose plug-in workers may
        stop (``ReleaseBots``), in order, since the last call (core/remote.py)."""
        requests, self._requests = self._requests, []
        return requests
