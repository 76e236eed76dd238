"""How a table leaves the lobby: its game is over, it broke, or another instance of the
site plays it now (no I/O). Its people and watchers go back to the lobby question,
told why; what is noted for the store says how it ended."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from hundred_server.core.fairness import reveal_message
from hundred_server.core.journal import GameDropped, GameEnded
from hundred_server.core.ladder import seed_kept
from hundred_server.core.ratings import GameOver
from hundred_server.core.sessions import Session, Where
from hundred_server.core.table import Outgoing, Table
from hundred_server.protocol.wire import error, message

if TYPE_CHECKING:
    from hundred_server.core.lobby import Lobby

log = logging.getLogger("hundred_server")


class TableEnds:
    """The ends of the lobby's tables."""

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby

    def remove(self, table: Table) -> None:
        """``table`` is gone from the lobby (over, closed, broken)."""
        lobby = self._lobby
        lobby.ai_seats.release(table)
        lobby.tables.remove(table.id)
        lobby.timers.forget(table.id)
        lobby.store_gate.paused.discard(table.id)

    def finish(self, table: Table) -> Outgoing:
        """The game is over: everyone at the table goes back to the lobby question.

        A game nobody played a move in is forgotten, not kept as abandoned: a client
        that creates tables and hangs up leaves nothing behind."""
        lobby = self._lobby
        self.remove(table)
        lobby.tokens.forget(table, every=True)
        game = table.game
        journal = lobby.journal
        journal.note(table)
        result = None
        if game is not None and game.winner is not None:
            result = table.spec.result(game)
            struck = lobby.ladder.struck_seats(table)
            if struck:  # a ladder's struck entrants: lost whatever the score (ladder.py)
                result["Struck"] = struck
        if journal.durable and table.saved:
            if result is None and not table.touched:
                journal.add(GameDropped(table.id))
            else:
                state = "over" if result is not None else "abandoned"
                journal.add(GameEnded(table.id, state, result))
        if result is not None and lobby.sign_in.book is not None:
            lobby.rating_events.append(GameOver(table.id, result))
        if result is not None:
            log.info("table %d finished: %s, scores %s", table.id, result["Text"], result["Score"])
        elif not table.touched:
            log.info("table %d abandoned before any person played in it: forgotten", table.id)
        else:
            log.info("table %d abandoned: no person left at it", table.id)
        # A game that ended with a result reveals its seed, so its deals can be checked
        # against the Commit its people got at the start (fairness.py); but a ladder
        # set's game before its last does not: the later ones deal from it (ladder.py).
        reveal = None
        if result is not None and not seed_kept(table.header):
            reveal = reveal_message(table.id, table.game_name, table.seed)
        out: Outgoing = []
        sessions = lobby.sessions
        ladder = lobby.ladder.is_ladder(table)
        climbers: list[Session] = []
        for _, conn in table.people():
            session = sessions.get(conn)
            if session is not None and session.where is not Where.CLOSED:
                if reveal is not None:
                    out.append((conn, reveal))
                if ladder and (
                    session.ladder is not None or lobby.ladder.is_entrant(table, session)
                ):
                    climbers.append(session)
                else:
                    out += sessions.ask(session)
        if ladder:
            out += lobby.ladder.finished(table, climbers)
        why = None
        if result is None:
            why = message(f"The game at table {table.id} is over: nobody plays it any more")
        return out + lobby.watchers.send_away(table, reveal, why)

    def broken(self, table: Table, session: Session | None) -> Outgoing:
        """``table`` raised something unexpected (``Guard``): it is closed, and its
        people, watchers and ``session`` are told so."""
        lobby = self._lobby
        if lobby.journal.durable and table.saved:
            lobby.journal.add(GameEnded(table.id, "failed"))
        self.remove(table)
        lobby.tokens.forget(table, every=True)
        table.stop()
        conns = set(table.audience())
        if session is not None:
            conns.add(session.conn)
        text = f"table {table.id} stopped on an internal error (it is logged); its game is over"
        sessions = lobby.sessions
        out: Outgoing = []
        for conn in sorted(conns):
            other = sessions.get(conn)
            if other is None or other.where is Where.CLOSED:
                continue
            out += [(conn, error("internal_error", text)), *sessions.ask(other)]
        table.dismiss_watchers()
        return out

    def lost(self, table_ids: set[int]) -> Outgoing:
        """Another instance of the site owns these tables now (this one's lease on them
        lapsed: it was cut off): they go, unsaved writes and all, and their people are
        sent to the lobby, to take their seats back with their tokens there."""
        lobby = self._lobby
        sessions = lobby.sessions
        out: Outgoing = []
        for table_id in sorted(table_ids):
            table = lobby.tables.get(table_id)
            if table is None:
                continue
            log.warning("table %d is played by another instance of the site now; it goes", table_id)
            self.remove(table)
            lobby.tokens.forget(table, every=True)
            table.stop()
            text = (
                f"table {table_id} is played by another server of the site now: send your "
                "token to take your seat back there"
            )
            for _, conn in table.people():
                session = sessions.get(conn)
                if session is not None and session.where is not Where.CLOSED:
                    out += [(conn, message(text)), *sessions.ask(session)]
            out += lobby.watchers.send_away(table, None, message(text))
        lobby.journal.drop(table_ids)
        return out
