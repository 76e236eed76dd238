"""Timers: when each table next needs a tick (grace periods, turn clocks; no I/O).

The tables' deadlines are kept in a heap of (deadline, table id), with the deadline
each table's live entry has: an entry whose deadline is not its table's any more is
stale and skipped, and the heap is rebuilt when stale entries outnumber live ones, so
it stays at most about twice the number of tables however often deadlines move.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from typing import Final

from hundred_server.core.table import Table

#: Tables whose deadline has come that one ``tick`` lets act; the rest act in the next
#: (due at once), so a burst of deadlines never holds the event loop for long.
TICK_BATCH: Final = 32


class Timers:
    """The deadlines of the live tables of ``tables``, those in ``paused`` left out
    (their clocks wait for the store)."""

    def __init__(self, tables: Mapping[int, Table], paused: set[int]) -> None:
        self._tables = tables
        self._paused = paused
        self._heap: list[tuple[float, int]] = []
        self._deadline_of: dict[int, float] = {}
        #: Another deadline to keep (the ladder's: ladder.py), or None.
        self.extra: Callable[[], float | None] | None = None

    def watch(self, table: Table) -> None:
        """Note ``table``'s deadline, if it has one (after each of its steps)."""
        deadline = table.deadline
        if deadline is None or table.id not in self._tables:
            return
        if self._deadline_of.get(table.id) == deadline:
            return  # already in the heap
        self._deadline_of[table.id] = deadline
        heapq.heappush(self._heap, (deadline, table.id))
        if len(self._heap) > 2 * len(self._deadline_of) + 64:  # mostly stale: rebuild
            self._heap = [(d, t) for t, d in self._deadline_of.items()]
            heapq.heapify(self._heap)

    def forget(self, table_id: int) -> None:
        """The table is gone: its entry is stale."""
        self._deadline_of.pop(table_id, None)

    def clear(self) -> None:
        self._heap.clear()
        self._deadline_of.clear()

    @property
    def entries(self) -> int:
        """Entries in the heap (bounded; see the module docstring)."""
        return len(self._heap)

    def _live(self) -> tuple[float, int] | None:
        """The earliest heap entry that is its table's current one (stale ones dropped)."""
        heap = self._heap
        while heap:
            deadline, table_id = heap[0]
            if self._deadline_of.get(table_id) == deadline and table_id in self._tables:
                return heap[0]
            heapq.heappop(heap)
        return None

    def next_deadline(self) -> float | None:
        """When a tick is next due (on the tables' clock), or None."""
        tables = self._next_table()
        extra = None if self.extra is None else self.extra()
        if extra is None or (tables is not None and tables <= extra):
            return tables
        return extra

    def _next_table(self) -> float | None:
        while (entry := self._live()) is not None:
            deadline, table_id = entry
            table = self._tables[table_id]
            if table.deadline is not None and table_id not in self._paused:
                return min(deadline, table.deadline)
            heapq.heappop(self._heap)  # no deadline any more, or paused
            del self._deadline_of[table_id]
        return None

    def due(self, now: float) -> list[int]:
        """The tables whose deadline has come by ``now`` (``TICK_BATCH`` at most), in
        deadline order; their entries go (a table that still needs a tick is watched
        again after its step)."""
        due: list[int] = []
        while len(due) < TICK_BATCH and (entry := self._live()) is not None:
            if entry[0] > now:
                break
            heapq.heappop(self._heap)
            del self._deadline_of[entry[1]]
            due.append(entry[1])
        return due
