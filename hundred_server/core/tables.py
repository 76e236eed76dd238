"""The table registry: the lobby's live tables, their numbers, the per-address limits
on creating them, and the lists a session is shown (no I/O).

On a site of several instances (``serve --bus``) the registry also holds the other
instances' open and watchable tables (bus.py sets them), lists them with its own, and
takes its new tables' numbers from ``table_ids`` (unique on the site).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from hundred_server.core.keyed import Keyed
from hundred_server.core.sessions import Session
from hundred_server.core.table import Table, TableState
from hundred_server.protocol.errors import Refused
from hundred_server.protocol.wire import Message


class TableRegistry(Keyed[int, Table]):
    """The live tables by id, read as a mapping; added and removed through its
    methods."""

    def __init__(self) -> None:
        super().__init__()
        #: Address -> the ids of the live tables created from it (``Limits``).
        self._by_address: dict[str, set[int]] = {}
        self._address_of: dict[int, str] = {}
        self.next_id = 1
        #: A site of several instances: whether this lobby is one (tokens it does not
        #: know are looked up on the site), the other instances' open tables (their
        #: ``Table`` info less its Type, by id), shown with ours and joined through the
        #: hub's relay, and those that may be watched; table ids come from ``table_ids``
        #: (None when none is to hand: ``store_unavailable``).
        self.site = False
        self.remote_tables: dict[int, Message] = {}
        self.remote_watchable: dict[int, Message] = {}
        self.table_ids: Callable[[], int | None] | None = None

    def add(self, table: Table, address: str | None = None) -> None:
        """A new table (created from ``address``, counted against its limits; None: a
        restored table, or a client without one)."""
        self._items[table.id] = table
        if address is not None:
            self._by_address.setdefault(address, set()).add(table.id)
            self._address_of[table.id] = address

    def remove(self, table_id: int) -> None:
        """The table is gone (over, closed, broken, or never restored)."""
        self._items.pop(table_id, None)
        address = self._address_of.pop(table_id, None)
        if address is not None:
            ids = self._by_address[address]
            ids.discard(table_id)
            if not ids:
                del self._by_address[address]

    def clear(self) -> None:
        self._items.clear()
        self._by_address.clear()
        self._address_of.clear()

    def new_id(self) -> int:
        """The number of a new table (``store_unavailable`` if the site has none)."""
        if self.table_ids is None:
            table_id = self.next_id
            self.next_id += 1
            return table_id
        given = self.table_ids()
        if given is None:
            raise Refused(
                "no table number is to hand (the game store is slow to answer); try again "
                "in a moment",
                "store_unavailable",
            )
        return given

    def check_address(self, address: str | None, most_waiting: int, most_live: int) -> None:
        """The per-address limits on tables (``Limits``), before ``address`` creates one."""
        if address is None:
            return
        live = [self._items[i] for i in self._by_address.get(address, ())]
        waiting = sum(t.state is TableState.WAITING for t in live)
        if waiting >= most_waiting:
            raise Refused(
                f"{waiting} tables from your address already wait for players (at most "
                f"{most_waiting}); join one, or wait for them to fill",
                "too_many_waiting",
            )
        if len(live) >= most_live:
            raise Refused(
                f"{len(live)} tables from your address are under way (at most "
                f"{most_live}); finish or leave one first",
                "too_many_tables",
            )

    # ------------------------------------------------------------------ the lists

    def open_here(self) -> list[Message]:
        """This lobby's tables that wait for players (``Table`` infos less their Type)."""
        return _listed(t for t in self._items.values() if t.state is TableState.WAITING and t.free)

    def watchable(self, most: int) -> list[Message]:
        """This lobby's tables that may be watched: every table that takes watchers and
        has room for one more (``most`` watchers), waiting or playing (``Table`` infos
        less their Type)."""
        return _listed(
            t
            for t in self._items.values()
            if t.state is not TableState.OVER and t.watchable and len(t.watchers) < most
        )

    def listing(self, session: Session, most_watchers: int) -> Message:
        """The list ``session`` was shown last (``Session.listing``), the site's tables
        too: those it may join, or those it may watch (``"Watch":true`` tells them
        apart)."""
        if session.listing == "watch":
            tables = _with_site(self.watchable(most_watchers), self.remote_watchable)
            return {"Type": "Tables", "Tables": _playable(tables, session), "Watch": True}
        tables = _with_site(self.open_here(), self.remote_tables)
        return {"Type": "Tables", "Tables": _playable(tables, session)}


def _playable(tables: list[Message], session: Session) -> list[Message]:
    """Of a lobby list, the tables of the games ``session`` can play (``Session.games``)."""
    playable = session.games
    return tables if playable is None else [t for t in tables if t.get("Game") in playable]


def _listed(tables: Iterable[Table]) -> list[Message]:
    """The tables' ``Table`` infos less their Type, as a lobby list shows them."""
    infos = [t.info() for t in tables]
    for info in infos:
        del info["Type"]
    return infos


def _with_site(here: list[Message], remote: dict[int, Message]) -> list[Message]:
    """A lobby list of this instance's tables and the other instances' (copies), by id."""
    if not remote:
        return here
    tables = here + [dict(info) for info in remote.values()]
    tables.sort(key=lambda info: int(info["Table"]))
    return tables
