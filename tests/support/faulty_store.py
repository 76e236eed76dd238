"""A store that fails on demand, for the server's tests of a failing store.

``failing`` is a plain attribute so a test can flip it from any thread while the server
is saving (on its event loop: SQLite's store is ``inline``): a bool is read and written
whole, and the next ``write`` sees the new value. While it is set, every write fails
the way a full disk makes SQLite fail, and nothing of that batch reaches the file (as
with a real failure, which is rolled back wholly), so the server must retry the same
batch later.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable

from hundred_server.store import BUSY_TIMEOUT, Store, Write


class FaultyStore(Store):
    """``Store`` whose ``write`` raises ``sqlite3.OperationalError`` while ``failing``."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        exclusive: bool = False,
        busy_timeout: float = BUSY_TIMEOUT,
    ) -> None:
        super().__init__(path, exclusive=exclusive, busy_timeout=busy_timeout)
        #: Set to make every write fail (from any thread); clear to let them through.
        self.failing = False
        #: Calls of ``write``, and how many of them failed on purpose.
        self.attempts = 0
        self.failures = 0

    def write(self, writes: Iterable[Write]) -> None:
        self.attempts += 1
        if self.failing:
            self.failures += 1
            raise sqlite3.OperationalError("database or disk is full")
        super().write(writes)
