"""Watchers: sessions that follow a table's public messages from the lobby (no I/O).

From the lobby a session may watch a table (``Watch``; ``Hello`` ``watch`` lists the
tables that take watchers): watching, it is told the table's public messages until it
sends ``Leave`` (back to the lobby question), quits, or the game ends; it never sits
while it watches. What a watcher is told is the table's to decide (``Table.watch``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from hundred_server.core.sessions import IN_LOBBY, Session, Where, check_plays
from hundred_server.core.table import Outgoing, Table
from hundred_server.protocol.errors import Refused
from hundred_server.protocol.wire import Message, require_int

if TYPE_CHECKING:
    from hundred_server.core.lobby import Lobby

log = logging.getLogger("hundred_server")


class Elsewhere(Exception):
    """What a session asked for is on another instance of the site: the table
    ``table`` it joins (or watches: ``watch``), or the seat of the token whose hash is
    ``digest``. The hub relays the session's messages there from now on (bus.py)."""

    def __init__(
        self, table: int | None = None, digest: str | None = None, watch: bool = False
    ) -> None:
        super().__init__("elsewhere on the site")
        self.table = table
        self.digest = digest
        self.watch = watch


class Watchers:
    """Watching and leaving the lobby's tables."""

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby

    def watch(self, session: Session, msg: Message) -> Outgoing:
        """``Watch``: from the lobby, watch a table (see ``Table.watch``)."""
        if session.where not in IN_LOBBY:
            raise Refused(
                "you sit at a table; a person at a table cannot watch one (quit first)", "not_now"
            )
        lobby = self._lobby
        table_id = require_int(msg, "Table")
        table = lobby.tables.get(table_id)
        remote = lobby.tables.remote_watchable
        if table is None and table_id in remote:
            check_plays(session, remote[table_id].get("Game"), table_id, "watch")
            raise Elsewhere(table=table_id, watch=True)
        if table is None:
            raise Refused(f"no table {table_id} to watch", "no_such_table")
        check_plays(session, table.game_name, table_id, "watch")
        with lobby.guard(table, session):
            out = table.watch(session.conn, lobby.limits.max_watchers)
        lobby.sessions.move(session, Where.WATCHING, table)
        log.info("connection %d (%s) watches table %d", session.conn, session.name, table.id)
        return out

    def leave(self, session: Session) -> Outgoing:
        """``Leave``: a watcher stops watching and is back at the lobby question (a
        seat's ``Leave`` is ``Seating.to_lobby``)."""
        if session.where is not Where.WATCHING:
            raise Refused("Leave stops watching a table, and you watch none", "not_now")
        table = session.table
        asked = self._lobby.sessions.ask(session)
        return self.unwatch(session, table) + asked

    @staticmethod
    def unwatch(session: Session, table: Table | None) -> Outgoing:
        """``session``, which has just left its place as a watcher of ``table`` (it
        left, quit, or its connection is gone), stops watching it."""
        if table is None:
            return []
        log.info("connection %d (%s) stops watching table %d", session.conn, session.name, table.id)
        return table.unwatch(session.conn)

    def send_away(self, table: Table, reveal: Message | None, why: Message | None) -> Outgoing:
        """The table is gone (its game is over, or nobody waits at it any more): its
        watchers are told (``reveal``, the seed of a game that ended; ``why``) and are
        back at the lobby question."""
        sessions = self._lobby.sessions
        out: Outgoing = []
        for conn in table.dismiss_watchers():
            session = sessions.get(conn)
            if session is None or session.where is not Where.WATCHING:
                continue
            out += [(conn, m) for m in (reveal, why) if m is not None]
            out += sessions.ask(session)
        return out
