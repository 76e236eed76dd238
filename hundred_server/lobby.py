"""The lobby: connections, their state, and the tables (no I/O).

``Hub`` is the server's whole behaviour without sockets, as h11 is HTTP without them:
``connect()``, ``receive(conn, line)`` and ``disconnect(conn)`` take what happened on a
connection and return what to do, as ``Send(conn, bytes)`` and ``Close(conn)``. The
asyncio layer (server.py) only moves bytes. Each connection renders its messages as
JSON lines or, in text mode, as text (see textmode.py).

A connection walks: the lobby question (``Hello``) → options (``Game``) or the open
tables (``Join``) → seated, waiting → playing → back to the lobby question.
"""

from __future__ import annotations

import enum
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from hundred_server.errors import HundredError
from hundred_server.protocol import (
    LOBBY_QUESTION,
    MAX_LINE,
    Message,
    ProtocolError,
    check_client_type,
    decode,
    encode,
    error,
    field_int,
    field_str,
    message,
    quote,
    require_int,
    strip_line,
)
from hundred_server.table import Outgoing, Table, TableState
from hundred_server.textmode import TextCodec, strip_telnet

log = logging.getLogger("hundred_server")

NAME_RE: Final = re.compile(r"^[A-Za-z0-9_.\- ]{1,20}$")
TABLE_NAME_RE: Final = re.compile(r"^[A-Za-z0-9_.\-' ]{1,30}$")
OPTIONS: Final = (
    "Option 1 - Play against three AI players and start immediately",
    "Option 2 - Play against two AI players and start immediately",
    "Option 3 - Play against one AI player and start immediately",
    "Option 4 - Open a 4-seat table for people only",
    "Option 5 - A table of your choice: Seats (2-4), Bots (AI seats), Name",
    "Option 6 - Go back",
)
#: Option -> (seats, bots) for the ready-made tables.
_PRESETS: Final = {1: (4, 3), 2: (3, 2), 3: (2, 1), 4: (4, 0)}


@dataclass(frozen=True)
class Send:
    conn: int
    data: bytes


@dataclass(frozen=True)
class Close:
    conn: int


Command = Send | Close


class Where(enum.Enum):
    QUESTION = "question"  # asked: join, create or quit
    OPTIONS = "options"  # asked: which option
    TABLES = "tables"  # shown the open tables
    SEATED = "seated"  # at a table that waits for players
    PLAYING = "playing"
    CLOSED = "closed"


_LOBBY: Final = frozenset({Where.QUESTION, Where.OPTIONS, Where.TABLES})


@dataclass(frozen=True)
class Limits:
    """What one client may do (protocol.md, Limits)."""

    #: Connections at once; one more is told ``server_full`` and closed (server.py).
    max_connections: int = 1000
    #: Lines that do not move a game on (errors, lobby talk, pre-pass and unpass): a
    #: connection may send ``rate`` a second on average and ``burst`` at once. A line
    #: over that is not read and gets ``rate_limited``; an answer that plays a turn is
    #: never counted, so a fast bot is never slowed.
    rate: float = 20.0
    burst: int = 40
    #: Lines refused for the rate that a connection may send in all before it is closed.
    max_refused: int = 100
    #: Seconds a connection may stay silent in the lobby, not at a table (server.py).
    idle_timeout: float = 600.0


@dataclass
class Session:
    conn: int
    name: str
    where: Where = Where.QUESTION
    text: TextCodec | None = None
    mode_known: bool = False
    table: Table | None = None
    peer: str = ""
    tokens: float = 0.0  # the rate limit's bucket (see Limits)
    last: float | None = None
    refused: int = 0


class Hub:
    """Every connection and table; see the module docstring."""

    def __init__(
        self, seed_source: Callable[[], str] | None = None, limits: Limits | None = None
    ) -> None:
        self.limits = limits or Limits()
        self.sessions: dict[int, Session] = {}
        self.tables: dict[int, Table] = {}
        self._next_conn = 1
        self._next_table = 1
        self._seed_source = seed_source or (lambda: secrets.token_hex(16))

    # ----------------------------------------------------------- connection events

    def connect(self, peer: str = "") -> tuple[int, list[Command]]:
        conn = self._next_conn
        self._next_conn += 1
        session = Session(conn, f"player{conn}", peer=peer, tokens=float(self.limits.burst))
        self.sessions[conn] = session
        log.info("connection %d opened from %s", conn, peer or "?")
        return conn, self._render(self._ask(session))

    def receive(self, conn: int, raw: bytes, now: float | None = None) -> list[Command]:
        """One line from ``conn`` (with or without its line ending), received at ``now``
        (seconds on any steady clock; None: no rate limit, as in most tests)."""
        session = self.sessions.get(conn)
        if session is None or session.where is Where.CLOSED:
            return []
        if now is None:
            return self._receive(session, raw)
        limits = self.limits
        if session.last is not None:
            elapsed = max(0.0, now - session.last)
            session.tokens = min(float(limits.burst), session.tokens + elapsed * limits.rate)
        session.last = now
        if session.tokens < 1 and strip_line(raw).strip():
            session.refused += 1
            if session.refused > limits.max_refused:
                text = f"over {limits.rate:g} lines a second for too long; goodbye"
                return self.notice(conn, "rate_limited", text)
            text = f"slow down: at most {limits.rate:g} lines a second; that line was not read"
            return self.notice(conn, "rate_limited", text, close=False)
        table = session.table
        seq = table.seq if table is not None else None
        out = self._receive(session, raw)
        moved_on = table is not None and (table.seq != seq or table.state is TableState.OVER)
        if not moved_on:
            session.tokens -= 1
        return out

    def _receive(self, session: Session, raw: bytes) -> list[Command]:
        conn = session.conn
        line = strip_line(raw)
        if len(line) > MAX_LINE:
            return self.line_too_long(conn)
        if not session.mode_known:
            line = strip_telnet(line)
            if not line.strip():
                return []
            session.mode_known = True
            if not line.lstrip().startswith(b"{"):
                session.text = TextCodec()
                log.info("connection %d speaks text", conn)
        elif session.text is not None:
            line = strip_telnet(line)
        if session.text is not None:
            # telnet ends a line "\r\0" when its input is not a terminal
            line = line.replace(b"\x00", b"").rstrip(b"\r")
        if not line.strip():
            return []
        try:
            messages = self._read(session, line)
        except ProtocolError as exc:
            return self._render(self._refuse(session, exc))
        if messages and isinstance(messages[0], str):  # text mode help: shown as is
            return [Send(conn, "".join(f"{m}\r\n" for m in messages).encode())]
        out: Outgoing = []
        for msg in messages:
            assert isinstance(msg, dict)
            try:
                out += self._dispatch(session, msg)
            except ProtocolError as exc:
                out += self._refuse(session, exc)
                break
            if _closed(session):  # quit: the rest of the line's commands are moot
                break
        return self._render(out)

    def line_too_long(self, conn: int) -> list[Command]:
        return self.notice(conn, "line_too_long", f"a line is at most {MAX_LINE} bytes; goodbye")

    def notice(self, conn: int, code: str, text: str, close: bool = True) -> list[Command]:
        """An Error that the server layer raises (a limit), in the connection's mode.

        Closing: the Error, then the connection closes. Not closing: the line that broke
        the limit was not read; what the connection was being asked comes again.
        """
        session = self.sessions.get(conn)
        if session is None:
            return []
        if not close:
            return self._render(self._refuse(session, ProtocolError(text, code)))
        out = self._render([(conn, error(code, text))])
        out += self.disconnect(conn)
        return [*out, Close(conn)]

    def in_lobby(self, conn: int) -> bool:
        """Whether ``conn`` is in the lobby (not at a table), where idling is limited."""
        session = self.sessions.get(conn)
        return session is not None and session.where in _LOBBY

    def disconnect(self, conn: int) -> list[Command]:
        """The connection is gone (or is being closed): free its seat."""
        session = self.sessions.pop(conn, None)
        if session is None:
            return []
        session.where = Where.CLOSED
        log.info("connection %d (%s) closed", conn, session.name)
        return self._render(self._leave_table(session))

    def shutdown(self, reason: str = "The server is shutting down. Bye!") -> list[Command]:
        """Tell everyone, then close every connection; the hub is empty afterwards."""
        out: list[Command] = []
        for conn in list(self.sessions):
            out += self._render([(conn, message(reason))])
            out.append(Close(conn))
        self.sessions.clear()
        self.tables.clear()
        return out

    # -------------------------------------------------------------------- reading

    def _read(self, session: Session, line: bytes) -> list[Message] | list[str]:
        if session.text is None:
            msg = decode(line)
            check_client_type(msg)
            return [msg]
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(f"not UTF-8: {quote(line)}", "bad_json") from None
        return session.text.parse(text)

    def _dispatch(self, session: Session, msg: Message) -> Outgoing:
        kind = msg["Type"]
        if kind == "Hello":
            return self._hello(session, msg)
        if kind == "Game":
            return self._game(session, msg)
        if kind == "Join":
            return self._join(session, msg)
        # A game answer.
        if session.where is not Where.PLAYING or session.table is None:
            raise ProtocolError(f"{kind} answers a game prompt; you are not in a game", "not_now")
        table = session.table
        out = table.answer(session.conn, msg)
        if table.state is TableState.OVER:
            out += self._finish(table)
        return out

    # -------------------------------------------------------------------- lobby

    def _ask(self, session: Session) -> Outgoing:
        session.where = Where.QUESTION
        return [(session.conn, message(LOBBY_QUESTION)), (session.conn, {"Type": "Hello"})]

    def _hello(self, session: Session, msg: Message) -> Outgoing:
        if session.where in (Where.PLAYING, Where.SEATED):
            choice = field_str(msg, "Message")
            if choice is None or choice.strip().lower() != "quit":
                raise ProtocolError("you are at a table; only quit leaves it", "not_now")
        name = field_str(msg, "Name")
        if name is not None:
            name = name.strip()
            if not NAME_RE.match(name):
                raise ProtocolError(
                    f"a name is 1-20 letters, digits, spaces, _ - . : not {quote(name)}",
                    "bad_name",
                )
        choice = field_str(msg, "Message")
        if choice is not None:
            choice = choice.strip().lower()
            if choice not in ("create", "join", "quit"):
                raise ProtocolError(
                    f"Message must be create, join or quit, not {quote(msg.get('Message'))}",
                    "bad_choice",
                )
        if name is not None:  # only once the whole Hello is known to be good
            session.name = name
        if choice is None:  # a bare Hello (or one that only names you): the question again
            greeting = [(session.conn, message(f"Hello, {name}."))] if name is not None else []
            return [*greeting, *self._ask(session)]
        if choice == "quit":
            out = self._leave_table(session)
            session.where = Where.CLOSED
            return [*out, (session.conn, message("Ok, bye bye!"))]
        if choice == "create":
            session.where = Where.OPTIONS
            return [(session.conn, message(o)) for o in OPTIONS] + [
                (session.conn, {"Type": "Game"})
            ]
        session.where = Where.TABLES  # join
        return [(session.conn, self._tables())]

    def _tables(self) -> Message:
        open_tables = [
            t.info() for t in self.tables.values() if t.state is TableState.WAITING and t.free
        ]
        for info in open_tables:
            del info["Type"]
        return {"Type": "Tables", "Tables": open_tables}

    def _game(self, session: Session, msg: Message) -> Outgoing:
        if session.where is not Where.OPTIONS:
            raise ProtocolError(
                "Game answers the create options; say Hello create first", "not_now"
            )
        option = require_int(msg, "Option", lo=1, hi=len(OPTIONS), code="bad_option")
        if option == len(OPTIONS):
            return self._ask(session)
        if option in _PRESETS:
            seats, bots = _PRESETS[option]
            name = None
        else:
            seats = field_int(msg, "Seats", lo=2, hi=4, code="bad_option") or 4
            bots = field_int(msg, "Bots", lo=0, hi=seats - 1, code="bad_option") or 0
            name = field_str(msg, "Name")
            if name is not None:
                name = name.strip()
                if not TABLE_NAME_RE.match(name):
                    raise ProtocolError(
                        f"a table name is 1-30 letters, digits, spaces, _ - . ': not {quote(name)}",
                        "bad_name",
                    )
        table_id = self._next_table
        self._next_table += 1
        table = Table(table_id, name or f"table {table_id}", seats, bots, self._seed_source())
        self.tables[table_id] = table
        log.info(
            "table %d (%s) created by connection %d: %d seats, %d AI",
            table_id, table.name, session.conn, seats, bots,
        )  # fmt: skip
        return self._sit(session, table)

    def _join(self, session: Session, msg: Message) -> Outgoing:
        if session.where not in (Where.TABLES, Where.QUESTION):
            raise ProtocolError("Join answers the list of tables; say Hello join first", "not_now")
        table_id = require_int(msg, "Table")
        table = self.tables.get(table_id)
        if table is None or table.state is TableState.OVER:
            raise ProtocolError(f"no open table {table_id}", "no_such_table")
        if table.state is not TableState.WAITING:
            raise ProtocolError(f"table {table_id} is full: its game is under way", "table_full")
        return self._sit(session, table)

    def _sit(self, session: Session, table: Table) -> Outgoing:
        seat, out = table.sit(session.conn, session.name)
        session.table = table
        log.info(
            "connection %d (%s) sits at table %d, seat %d",
            session.conn,
            session.name,
            table.id,
            seat,
        )
        if table.state is TableState.PLAYING:
            log.info("table %d starts: %s", table.id, ", ".join(str(n) for n in table.names()))
            for _, conn in table.people():
                self.sessions[conn].where = Where.PLAYING
        else:
            session.where = Where.SEATED
        return out

    def _leave_table(self, session: Session) -> Outgoing:
        table = session.table
        if table is None:
            return []
        session.table = None
        out = table.leave(session.conn)
        log.info("connection %d (%s) leaves table %d", session.conn, session.name, table.id)
        if table.state is TableState.OVER:
            out += self._finish(table)
        elif table.state is TableState.WAITING and not table.people():
            del self.tables[table.id]
            log.info("table %d closed: nobody waiting", table.id)
        return out

    def _finish(self, table: Table) -> Outgoing:
        """The game is over: everyone at the table goes back to the lobby question."""
        self.tables.pop(table.id, None)
        game = table.game
        if game is not None and game.winner is not None:
            log.info(
                "table %d finished: %s (seat %d) wins, scores %s",
                table.id, game.players[game.winner], game.winner, game.scores,
            )  # fmt: skip
        else:
            log.info("table %d abandoned: no person left at it", table.id)
        out: Outgoing = []
        for _, conn in table.people():
            session = self.sessions.get(conn)
            if session is not None and session.where is not Where.CLOSED:
                session.table = None
                out += self._ask(session)
        return out

    # ------------------------------------------------------------------ replies

    def _refuse(self, session: Session, exc: HundredError) -> Outgoing:
        out: Outgoing = [(session.conn, error(exc.code, exc.message))]
        table = session.table
        if table is not None and session.where is Where.PLAYING:
            again = table.pending_prompt(session.conn)
            if again is not None:
                out.append((session.conn, again))
        elif session.where is Where.QUESTION:
            out.append((session.conn, {"Type": "Hello"}))
        elif session.where is Where.OPTIONS:
            out.append((session.conn, {"Type": "Game"}))
        elif session.where is Where.TABLES:
            out.append((session.conn, self._tables()))
        return out

    def _render(self, out: Outgoing) -> list[Command]:
        commands: list[Command] = []
        encoded: dict[int, bytes] = {}  # a message sent to many is encoded once
        for conn, msg in out:
            session = self.sessions.get(conn)
            if session is None:
                continue
            if session.text is None:
                data = encoded.get(id(msg))
                if data is None:
                    data = encoded[id(msg)] = encode(msg)
                commands.append(Send(conn, data))
            else:
                lines = session.text.render(msg)
                if lines:
                    commands.append(Send(conn, "".join(f"{x}\r\n" for x in lines).encode()))
        for conn in {conn for conn, _ in out}:
            session = self.sessions.get(conn)
            if session is not None and session.where is Where.CLOSED:
                commands.append(Close(conn))
                self.disconnect(conn)
        return commands


def _closed(session: Session) -> bool:
    return session.where is Where.CLOSED
