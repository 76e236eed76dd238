"""Lines that wait unread for the commit (no I/O): see hub.py, ``Hub.waiting``.

While an inline store's commit waits out ``--commit-wait`` (io/committer.py), the lines
of people at tables are kept here, in the order they came, and the hub reads them just
before the commit (``Hub.drain``), or before any other event it is given. A turn's
messages wait for that commit anyway; reading the lines together, one after another,
finds the processor's caches warm, where each read alone after a quiet spell finds
them cold (bench/hub_cost.py ``--cold``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from hundred_server.core.sessions import Where

if TYPE_CHECKING:
    from hundred_server.core.hub import Link
    from hundred_server.core.lobby import Lobby

#: Lines that wait at most: past it, each is read as it comes (after those that wait),
#: so a flood of lines is never held in memory.
MAX_DEFERRED: Final = 256


class WaitingLines:
    """The lines that wait (``on``: whether a line may wait now), and their tables."""

    def __init__(self, lobby: Lobby) -> None:
        self.on = False
        self._lobby = lobby
        self._lines: list[tuple[Link, bytes, float]] = []
        #: The tables (and so the games) of the connections whose lines wait.
        self.tables: set[int] = set()

    def __len__(self) -> int:
        return len(self._lines)

    def keep(self, link: Link, raw: bytes, now: float) -> bool:
        """Keep the line ``raw`` of ``link``, received at ``now``, if it may wait: it
        comes from a person or a watcher at a table here (not in the lobby, nor relayed
        to another instance, whose answers wait for no save of this one) whose seats no
        other process plays (a plug-in's or the AI pool's move, asked for at once,
        waits for no save either). False: read it now."""
        if len(self._lines) >= MAX_DEFERRED or link.in_lobby or link.virtual:
            return False
        session = self._lobby.sessions.get(link.conn)
        if session is None or session.where is Where.RELAYED:
            return False
        table = session.table
        if table is None or table.asks_elsewhere:
            return False
        self._lines.append((link, raw, now))
        self.tables.add(table.id)
        return True

    def take(self) -> list[tuple[Link, bytes, float]]:
        """The lines that waited, in order; none waits afterwards."""
        lines, self._lines, self.tables = self._lines, [], set()
        return lines
