"""Seating: creating a table, joining one, taking a seat back, leaving (no I/O).

A person who sits gets a ``Seat`` message with a token; ``Hello`` with that token, on
any connection in the lobby, takes the seat back while its game goes on (the seat's
old connection, if it is still open, loses it).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Final

from hundred_server import games
from hundred_server.core.ai_seats import AI_LEVELS
from hundred_server.core.guard import TableFailed
from hundred_server.core.names import fold, read_name
from hundred_server.core.ratings import rated_header, rated_start
from hundred_server.core.sessions import Session, Where, check_plays
from hundred_server.core.table import Outgoing, Table, TableOptions, TableState
from hundred_server.core.tokens import Ended, hash_token, read_token
from hundred_server.core.watchers import Elsewhere
from hundred_server.games.base import GameSpec
from hundred_server.protocol.errors import Malformed, Refused
from hundred_server.protocol.wire import (
    Message,
    field_int,
    field_str,
    message,
    quote,
    require_int,
)

if TYPE_CHECKING:
    from hundred_server.core.lobby import Lobby

log = logging.getLogger("hundred_server")

TABLE_NAME_RE: Final = re.compile(r"^[A-Za-z0-9_.\-' ]{1,30}$")
#: The longest turn clock a table may ask for, in seconds.
MAX_CLOCK: Final = 3600


def options(spec: GameSpec) -> list[str]:
    """The create options of a game: its presets, a table of your choice (if the game
    has one), and going back."""
    texts = [preset.text for preset in spec.presets]
    if spec.custom:
        counts = f"{min(spec.seat_counts)}-{max(spec.seat_counts)}"
        flags = "".join(f", {flag} (true or false)" for flag in spec.flags)
        texts.append(
            f"A table of your choice: Seats ({counts}), Bots (AI seats), Name, Clock{flags}"
        )
    texts.append("Go back")
    return [f"Option {i} - {text}" for i, text in enumerate(texts, 1)]


class Seating:
    """Who sits where: the seats of the lobby's tables, taken, given back and left."""

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby

    def show_options(self, session: Session) -> Outgoing:
        lines = options(games.get(session.game))
        return [(session.conn, message(o)) for o in lines] + [(session.conn, {"Type": "Game"})]

    def create(self, session: Session, msg: Message) -> Outgoing:
        """``Game``: an answer to the create options, a new table (or back)."""
        lobby = self._lobby
        if session.where is not Where.OPTIONS:
            raise Refused("Game answers the create options; say Hello create first", "not_now")
        game_name = game_named(msg) or session.game
        check_plays(session, game_name)
        spec = games.get(game_name)
        count = len(options(spec))
        option = require_int(msg, "Option", lo=1, hi=count, code="bad_option")
        if option == count:
            return lobby.sessions.ask(session)
        lobby.store_gate.check_open("a new table")
        limits = lobby.limits
        lobby.tables.check_address(
            session.address, limits.max_waiting_per_address, limits.max_tables_per_address
        )
        turn_timeout = limits.turn_timeout
        if option <= len(spec.presets):
            preset = spec.presets[option - 1]
            seats, ai_seats, flags = preset.seats, preset.ai_seats, preset.flags
            name = None
        else:
            flags = _read_flags(msg, spec)
            lo, hi = min(spec.seat_counts), max(spec.seat_counts)
            seats = field_int(msg, "Seats", lo=lo, hi=hi, code="bad_option") or hi
            bots = field_int(msg, "Bots", lo=0, hi=seats - 1, code="bad_option") or 0
            ai_seats = tuple(range(1, bots + 1))  # the creator sits at 0; the AI follow
            clock = field_int(msg, "Clock", lo=0, hi=MAX_CLOCK, code="bad_option")
            if clock is not None:
                turn_timeout = float(clock) if clock else None
            rule = "a table name is 1-30 letters, digits, spaces, _ - . '"
            name = read_name(msg, TABLE_NAME_RE, rule)
        level = _read_ai(msg) or lobby.ai
        watchable = _read_watchers(msg)
        rated = _read_rated(msg, session)
        if level == "strong" and ai_seats and lobby.ai_pool and lobby.ai_busy():
            log.warning("a new table of the strong AI refused: the AI pool is busy")
            raise Refused(
                "the strong AI is busy (too many of its moves wait for it); ask for the "
                'naive AI instead ("AI":"naive" in your Game answer, or the word naive in '
                "text mode), or try again in a moment",
                "ai_busy",
            )
        table_id = lobby.tables.new_id()
        table = Table(
            table_id,
            name or f"table {table_id}",
            spec,
            seats,
            ai_seats,
            lobby.seed_source(),
            TableOptions(
                grace=limits.grace,
                turn_timeout=turn_timeout,
                clock=lobby.clock,
                ai=lobby.ai_seats.for_table(spec, level),
                flags=flags,
                watchable=watchable,
                rated=rated,
            ),
        )
        lobby.tables.add(table, session.address)
        log.info(
            "table %d (%s, %s) created by connection %d: %d seats, AI at %s (%s)",
            table_id, table.name, spec.name, session.conn, seats, list(ai_seats), table.ai.name,
        )  # fmt: skip
        return self._sit(session, table)

    def join(self, session: Session, msg: Message) -> Outgoing:
        """``Join``: a seat at a table that waits for players."""
        lobby = self._lobby
        if session.where not in (Where.TABLES, Where.QUESTION):
            raise Refused("Join answers the list of tables; say Hello join first", "not_now")
        table_id = require_int(msg, "Table")
        table = lobby.tables.get(table_id)
        remote = lobby.tables.remote_tables
        if table is None and table_id in remote:
            check_plays(session, remote[table_id].get("Game"), table_id)
            raise Elsewhere(table=table_id)
        if table is None or table.state is TableState.OVER:
            raise Refused(f"no open table {table_id}", "no_such_table")
        check_plays(session, table.game_name, table_id)
        if table.rated:
            _check_rated(session, table)
        if table.state is not TableState.WAITING:
            raise Refused(f"table {table_id} is full: its game is under way", "table_full")
        if table.free == 1:  # this seat starts the game
            lobby.store_gate.check_open(f"table {table_id}'s game")
        return self._sit(session, table)

    def sit(self, session: Session, table: Table) -> Outgoing:
        """``session`` at the lowest free seat of ``table`` (the ladder seats its sets)."""
        return self._sit(session, table)

    def _sit(self, session: Session, table: Table) -> Outgoing:
        lobby = self._lobby
        tokens = lobby.tokens
        token, digest = tokens.new()
        with lobby.guard(table, session):
            seat, out = table.sit(session.conn, session.name, digest, session.views)
        tokens.give(digest, table, session.person)
        seat_msg = {"Type": "Seat", "Table": table.id, "Playerid": seat, "Token": token}
        # Right after the table (the first message to the sitter): where you sit in it.
        first = next((i for i, (c, _) in enumerate(out) if c == session.conn), len(out) - 1)
        out.insert(first + 1, (session.conn, seat_msg))
        log.info(
            "connection %d (%s) sits at table %d, seat %d",
            session.conn,
            session.name,
            table.id,
            seat,
        )
        if table.state is TableState.PLAYING:
            log.info("table %d starts: %s", table.id, ", ".join(str(n) for n in table.names()))
            if table.rated:  # kept in its record too: a restored table is rated
                start = rated_start(table, lobby.sessions)
                table.header.update(rated_header(start))
                lobby.rating_events.append(start)
            for _, conn in table.people():
                lobby.sessions.move(lobby.sessions[conn], Where.PLAYING, table)
        else:
            lobby.sessions.move(session, Where.SEATED, table)
        return out

    def reclaim(self, session: Session, msg: Message) -> Outgoing:
        """``Hello`` with a token: take the seat it owns back, on this connection."""
        lobby = self._lobby
        token = read_token(msg)
        tokens = lobby.tokens
        digest = hash_token(token)
        table = tokens.get(digest)
        if table is None:
            end = tokens.end_of(digest, lobby.clock)
            if end is not None:
                return self._send_end(session, token, end)
        if table is None and lobby.tables.site:
            raise Elsewhere(digest=digest)
        if table is None or table.owner_of(digest) is None:
            raise Refused(
                f"no game under way has a seat for token {quote(token)} (it may be over)",
                "bad_token",
            )
        check_plays(session, table.game_name, table.id)
        lobby.store_gate.check_paused(table)
        with lobby.guard(table, session):
            seat, previous, out = table.reclaim(session.conn, digest, session.views)
            rejoin = table.rejoin(seat)
        if previous is not None:  # the seat's old connection, still open, loses it
            old = lobby.sessions.get(previous)
            if old is not None:
                text = f"your seat {seat} at table {table.id} was taken back with its token"
                out += [(previous, message(text)), *lobby.sessions.ask(old)]
        lobby.sessions.move(session, Where.PLAYING, table)
        session.name = table.names()[seat] or session.name
        session.person = tokens.person(digest, session.person)
        log.info(
            "connection %d (%s) takes back table %d, seat %d",
            session.conn, session.name, table.id, seat,
        )  # fmt: skip
        seat_msg = {"Type": "Seat", "Table": table.id, "Playerid": seat, "Token": token}
        return [*out, (session.conn, seat_msg)] + [(session.conn, m) for m in rejoin]

    def _send_end(self, session: Session, token: str, end: Ended) -> Outgoing:
        """A token of a game that ended just before a restart: its end, then the lobby."""
        log.info(
            "connection %d (%s) is sent the end of table %d, seat %d",
            session.conn, session.name, end.table, end.seat,
        )  # fmt: skip
        seat_msg = {"Type": "Seat", "Table": end.table, "Playerid": end.seat, "Token": token}
        told = [(session.conn, m) for m in end.told]
        return [(session.conn, seat_msg), *told, *self._lobby.sessions.ask(session)]

    def to_lobby(self, session: Session) -> Outgoing:
        """``Leave`` from a seat: at a game under way an AI plays it from now on, and
        the game goes on even with no person left (the token still takes the seat
        back); at a table that waits, the seat is free. The session is back at the
        lobby question."""
        lobby, table = self._lobby, session.table
        if session.ladder is not None:  # a ladder's set goes on without it
            lobby.ladder.forget(session.conn)
            session.ladder = None
        asked = lobby.sessions.ask(session)
        return self.leave(session, table, keep=True) + asked

    def leave(
        self, session: Session, table: Table | None, lost: bool = False, keep: bool = False
    ) -> Outgoing:
        """The session, which has just left its place at ``table`` (it quit, or,
        ``lost``, its connection is gone, or, ``keep``, it went back to the lobby and
        the AI plays its seat on), gives its seat up."""
        lobby = self._lobby
        if table is None:
            return []
        try:
            with lobby.guard(table):
                out = table.drop(session.conn) if lost else table.leave(session.conn, keep)
        except TableFailed as failed:
            return failed.out
        log.info(
            "connection %d (%s) %s table %d",
            session.conn, session.name, "lost at" if lost else "leaves", table.id,
        )  # fmt: skip
        if table.state is TableState.OVER:
            out += lobby.ends.finish(table)
        elif table.state is TableState.WAITING:
            lobby.tokens.forget(table)
            if not table.people():
                lobby.ends.remove(table)
                log.info("table %d closed: nobody waiting", table.id)
                why = message(f"Table {table.id} closed: nobody waits at it any more")
                out = lobby.watchers.send_away(table, None, why)
        return out


def game_named(msg: Message) -> str | None:
    """The ``Game`` a message names, if any (``bad_game`` if no such game)."""
    name = field_str(msg, "Game")
    if name is None:
        return None
    key = name.strip().lower()
    if key not in games.names():
        known = ", ".join(games.names())
        raise Refused(f"no such game {quote(name)} (games: {known})", "bad_game")
    return key


def _read_ai(msg: Message) -> str | None:
    """The AI a new table asks for (``"AI"``: one of ``AI_LEVELS``, any case), if any
    (``bad_option`` if it is something else)."""
    value = msg.get("AI")
    if value is None:
        return None
    level = value.strip().lower() if isinstance(value, str) else None
    if level not in AI_LEVELS:
        levels = " or ".join(f'"{a}"' for a in AI_LEVELS)
        raise Malformed(f"AI is {levels}, not {quote(value)}", "bad_option")
    return level


def _read_rated(msg: Message, session: Session) -> bool:
    """Whether a new table is rated (``"Rated":true``; any option), which only an
    account may ask for (``not_rated``)."""
    value = msg.get("Rated", False)
    if value is not True and value is not False:
        raise Malformed(f"Rated is true or false, not {quote(value)}", "bad_option")
    if value:
        _check_rated(session, None)
    return value


def _check_rated(session: Session, table: Table | None) -> None:
    """``not_rated`` unless ``session`` is an account that does not sit at ``table``."""
    account = session.account
    if account is None:
        raise Refused(
            "a rated table is for accounts: say Hello with your Key first (guests play "
            "unrated tables)",
            "not_rated",
        )
    if table is not None and any(
        fold(n) == fold(account.name) for n in table.names() if n is not None
    ):
        raise Refused(
            f"the account {quote(account.name)} sits at table {table.id} already", "not_rated"
        )


def _read_watchers(msg: Message) -> bool:
    """Whether a new table takes watchers (``"Watchers"``: true, the default, or
    false; any option); ``bad_option`` for anything else."""
    value = msg.get("Watchers", True)
    if value is not True and value is not False:
        raise Malformed(f"Watchers is true or false, not {quote(value)}", "bad_option")
    return value


def _read_flags(msg: Message, spec: GameSpec) -> frozenset[str]:
    """The table options a table of your choice is asked for: each of the game's flags
    that the message sets to true (``bad_option`` if one is set to anything else)."""
    on = set()
    for flag in spec.flags:
        value = msg.get(flag)
        if value is True:
            on.add(flag)
        elif value is not None and value is not False:
            raise Malformed(f"{flag} is true or false, not {quote(value)}", "bad_option")
    return frozenset(on)
