"""The guard around a step of a table: a bug in one table closes that table, not the
server (no I/O)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING

from hundred_server.core.table import Outgoing, Table
from hundred_server.protocol.errors import Fault, HundredError

if TYPE_CHECKING:
    from hundred_server.core.sessions import Session

log = logging.getLogger("hundred_server")


class TableFailed(Fault):
    """A table raised something unexpected (a bug): it is closed; ``out`` tells its
    people so."""

    def __init__(self, out: Outgoing) -> None:
        super().__init__("table failed")  # internal_error
        self.out = out


class Guard:
    """Run a step of ``table`` (``with``). A client's mistake (``HundredError``) passes
    through; anything else is a bug: it is logged with the table's id and ``close``
    closes the table (telling its people, and ``session``, why), then ``TableFailed``
    carries what they are told. A class, not a generator's context manager, which cost
    a few times as much on every answer."""

    __slots__ = ("close", "session", "table")

    def __init__(
        self,
        close: Callable[[Table, Session | None], Outgoing],
        table: Table,
        session: Session | None,
    ) -> None:
        self.close, self.table, self.session = close, table, session

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if kind is None or not issubclass(kind, Exception) or issubclass(kind, HundredError):
            return  # done, a client's mistake, or not an error (an interrupt): as it is
        table = self.table
        log.error("table %d failed; closing it", table.id, exc_info=exc)
        raise TableFailed(self.close(table, self.session)) from None
