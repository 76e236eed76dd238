"""The store's state as the lobby sees it: up, or failing (durable only; no I/O).

While the store refuses saves, new tables are refused (``store_unavailable``) and the
tables whose moves wait to be saved are paused: no clock runs out, no answer is taken,
and what they said waits with their unsaved moves. When the store is back they go on.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from hundred_server.core.table import Table
from hundred_server.protocol.errors import Refused

if TYPE_CHECKING:
    from hundred_server.core.lobby import Lobby

log = logging.getLogger("hundred_server")


class StoreGate:
    """Whether the store takes saves, and the tables paused until it does."""

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby
        self.ok = True
        #: The tables whose saves the store refused (by id): paused.
        self.paused: set[int] = set()

    def failed(self, game_ids: set[int]) -> None:
        """The store refused a save: the tables of ``game_ids`` pause and new tables
        are refused until ``back``."""
        if self.ok:
            log.warning("the store is unavailable: new tables are refused until it is back")
        self.ok = False
        self.paused |= {i for i in game_ids if i in self._lobby.tables}

    def back(self) -> None:
        """The store took every save that waited: paused tables go on, with their clocks
        started afresh (their people see their prompts only now)."""
        lobby = self._lobby
        if not self.ok:
            log.warning("the store is back: %d paused tables go on", len(self.paused))
        self.ok = True
        unanswered = lobby.ai_seats.unanswered
        for table_id in sorted(self.paused):
            table = lobby.tables.get(table_id)
            if table is not None:
                table.restart_clocks()
                if table_id in unanswered:
                    table.ask_again()
                    lobby.ai_seats.collect(table)
                lobby.timers.watch(table)
        self.paused.clear()
        unanswered.clear()

    def check_open(self, what: str) -> None:
        """``store_unavailable`` if ``what`` (a new game) may not start now."""
        if not self.ok:
            raise Refused(
                f"the game store is unavailable, so {what} cannot start now; games under "
                "way go on, and new ones can start when it is back (try again soon)",
                "store_unavailable",
            )

    def check_paused(self, table: Table) -> None:
        """``store_unavailable`` if ``table`` is paused."""
        if table.id in self.paused:
            raise Refused(
                f"table {table.id} waits for the game store, which is unavailable; it goes "
                "on by itself when the store is back",
                "store_unavailable",
            )
