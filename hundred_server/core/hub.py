"""Connections: codecs, line limits and rate limits, in front of the lobby (no I/O).

``Hub`` is the server's whole behaviour without sockets, as h11 is HTTP without them:
``connect()``, ``receive(conn, line)`` and ``disconnect(conn)`` take what happened on a
connection and return what to do, as ``Send(conn, bytes)`` (one a connection for what
one event says to it, its lines in order) and ``Close(conn)``. The asyncio layer
(server.py) only moves bytes.

Each connection has one codec (codecs/), chosen by the listener it came in on and its
first line; the hub turns lines into messages with it and messages into bytes, and
hands the messages to the ``Lobby`` (lobby.py), which never sees a byte. Rate limits
are kept here too, per connection.

Lines that wait (``waiting``, core/waiting.py): while the server waits to commit a
save (an inline store's commit wait, io/committer.py), the lines of people at tables
are kept unread, and ``drain()`` reads them, in the order they came, just before the
commit; any other event the hub is given reads them first, so nothing is reordered.
A turn's messages wait for its save anyway, so an answer is told no later; what it
saves is the cost of reading each line on its own: at a person's pace the server
sleeps between answers, and each answer read alone finds the processor's caches cold
(bench/hub_cost.py ``--cold``), while those read one after another share them.

What the lobby does without a connection's line is reached on its parts, not through
the hub (lobby.py): what to save (``lobby.journal.take()``), the plug-in moves to run
(``lobby.ai_seats.take()``), when ``tick()`` is due (``lobby.timers.next_deadline()``),
the store failing and back (``lobby.store_gate``), a restart (``lobby.restorer``). The
hub keeps the events that say something to connections: ``tick()``, ``bot_answer()``
(a plug-in's answer; core/remote.py) and ``tables_lost()``, which it renders.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hundred_server.core.addresses import Addresses
from hundred_server.core.held import UNREAD_BINARY, HeldLines, SignInLines
from hundred_server.core.limits import Limits
from hundred_server.core.lobby import Lobby
from hundred_server.core.names import NAME_RE, reserved
from hundred_server.core.render import Close, Command, Relay, Remote, Send, encode
from hundred_server.core.sessions import IN_LOBBY, Where
from hundred_server.core.table import Outgoing
from hundred_server.core.waiting import WaitingLines
from hundred_server.games.base import Bot
from hundred_server.protocol import codecs
from hundred_server.protocol.codecs import Codec
from hundred_server.protocol.credentials import Credentials
from hundred_server.protocol.errors import ClientError, for_code
from hundred_server.protocol.wire import (
    GREETING,
    LOBBY_QUESTION,
    MAX_LINE,
    Message,
    error,
    message,
    strip_line,
)

#: The commands (render.py) are imported from here by the server and the tests.
__all__ = ["Close", "Command", "Hub", "Link", "Relay", "Remote", "Send"]

if TYPE_CHECKING:
    from hundred_server.config import AISettings

log = logging.getLogger("hundred_server")


@dataclass
class Link:
    """One connection as the hub keeps it: its codec and its rate-limit bucket."""

    conn: int
    listener: str
    peer: str = ""
    codec: Codec | None = None  # None until the first line says which
    tokens: float = 0.0  # the rate limit's bucket (see Limits)
    last: float | None = None
    refused: int = 0
    address: str | None = None  # for the per-address limits (None: not limited)
    #: The idle clock (on the hub's clock): silence counts from the later of the last
    #: line and the moment the connection came to (or left) the lobby.
    heard: float = 0.0
    in_lobby: bool = True
    #: A client of another instance of the site, whose messages come and go through
    #: the bus (bus.py): ``Remote`` commands instead of bytes.
    virtual: bool = False
    #: What it sent while its sign-in waits for the accounts (held.py; None: nothing waits).
    held: HeldLines | None = None

    def refill(self, now: float, limits: Limits) -> None:
        """The rate limit's bucket as it is at ``now`` (``Limits.rate``)."""
        if self.last is not None:
            elapsed = max(0.0, now - self.last)
            self.tokens = min(float(limits.burst), self.tokens + elapsed * limits.rate)
        self.last = now


#: The messages that are not game answers, whatever the table (a relayed client's count
#: against the rate where its socket is).
_LOBBY_TALK = frozenset({"Hello", "Game", "Join", "Watch", "Leave", "Chat", "Mute", "Unmute"})


def _answer(msg: Message | None) -> bool:
    """Whether ``msg`` answers a game prompt (rather than talks to the lobby)."""
    return msg is not None and msg.get("Type") not in _LOBBY_TALK


def _name_ok(name: str) -> bool:
    return NAME_RE.match(name) is not None and not reserved(name)


class Hub:
    """Every connection, in front of the lobby; see the module docstring."""

    def __init__(
        self,
        limits: Limits | None = None,
        ai: AISettings | None = None,
        *,
        durable: bool = False,
        bots: dict[str, Callable[[], Bot]] | None = None,
        seed_source: Callable[[], str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        token_source: Callable[[], str] | None = None,
    ) -> None:
        """The settings' groups the lobby needs (``Lobby``), handed on whole."""
        self.lobby = Lobby(
            limits or Limits(),
            ai,
            durable=durable,
            bots=bots,
            seed_source=seed_source,
            clock=clock,
            token_source=token_source,
        )
        self.links: dict[int, Link] = {}
        self._next_conn = 1
        #: The connections of each address, open and half-open (``arrive``, ``settle``,
        #: ``half_open``), for the per-address limits.
        self.addresses = Addresses(self.lobby.limits)
        #: Links that are virtual connections (clients of other instances): they hold
        #: no socket here, so they take none of ``max_connections``.
        self._virtual = 0
        #: The lines of people at tables that wait unread for ``drain``, in order, while
        #: it is ``on`` (the server switches it on while it waits to commit).
        self.waiting = WaitingLines(self.lobby)
        #: The lines that wait behind a sign-in (held.py).
        self.held = SignInLines(self)

    # ------------------------------------------------------- the lobby's events, rendered

    def bot_answer(
        self,
        table: int,
        seat: int,
        ask: int,
        choice: int | None,
        fault: str | None = None,
        action: Any = None,
    ) -> list[Command]:
        """A plug-in's answer to an ``AskBot``: ``choice`` (an index into the view's
        ``legal``) or the ``fault`` that stopped it (or, from the AI pool, the
        ``action`` itself); stale answers are dropped."""
        return self._first() + self._render(
            self.lobby.bot_answer(table, seat, ask, choice, fault, action)
        )

    def tick(self) -> list[Command]:
        """Let the tables whose deadline has come act (see ``Lobby.tick``); it is due at
        ``lobby.timers.next_deadline()``."""
        return self._first() + self._render(self.lobby.tick())

    def account_answer(self, ask: int, answer: object) -> list[Command]:
        """The accounts' answer to an ``AccountAsk`` (core/signin.py): the message that
        waited for it is read again, then what waited behind it; one for a connection
        that has gone is dropped."""
        conn, said, stop = self.lobby.sign_in.answered(ask, answer)
        out = self._first() + self._render(said, conn)
        link = self.links.get(conn)
        return out if link is None or link.held is None else out + self.held.resume(link, stop)

    def tables_lost(self, table_ids: set[int]) -> list[Command]:
        """Another instance of the site took these tables over (see ``TableEnds.lost``)."""
        return self._first() + self._render(self.lobby.ends.lost(table_ids))

    def codec_of(self, conn: int) -> Codec | None:
        link = self.links.get(conn)
        return None if link is None else link.codec

    # ----------------------------------------------------------- connection events

    def admit(self, address: str | None) -> tuple[str, str] | None:
        """Why one more connection (from ``address``) is refused, as (code, text), if it
        is (``Addresses.refusal``: a virtual connection holds no socket here)."""
        return self.addresses.refusal(address, len(self.links) - self._virtual)

    def connect(
        self, peer: str = "", listener: str = codecs.MAIN, address: str | None = None
    ) -> tuple[int, list[Command]]:
        """A new connection on ``listener`` (``codecs.MAIN``, ``CLASSIC`` or
        ``WEBSOCKET``), from ``address`` (its IP address, for the per-address limits;
        None: not limited)."""
        conn = self._next_conn
        self._next_conn += 1
        codec = codecs.for_listener(listener)
        link = Link(conn, listener, peer, codec, float(self.lobby.limits.burst))
        link.address, link.heard = address, self.lobby.clock()
        self.links[conn] = link
        self.addresses.opened(address)
        log.info("connection %d opened from %s (%s)", conn, peer or "?", listener)
        # A listener whose first line picks the codec speaks JSON or text: every game.
        playable = None if codec is None else codec.games
        # The main port's first line decides JSON or text: its greeting says so to people.
        greeting = GREETING if codec is None else LOBBY_QUESTION
        said = self.lobby.connect(conn, address, playable, greeting)
        return conn, self._first() + self._render(said)

    def receive(
        self, conn: int, raw: bytes, now: float | None = None, binary: bool = False
    ) -> list[Command]:
        """One line from ``conn`` (with or without its line ending), received at ``now``
        (seconds on any steady clock; None: no rate limit, as in most tests). A
        WebSocket's binary frame (``binary``) is not read: it gets ``bad_json``, and
        counts against the rate like any line that moves no game on."""
        link = self.links.get(conn)
        if link is None:
            return []
        if self.waiting.on and now is not None and not binary and self.waiting.keep(link, raw, now):
            return []
        if self.waiting:
            return self.drain() + self._receive(link, raw, now, binary)
        return self._receive(link, raw, now, binary)

    def drain(self) -> list[Command]:
        """Read the lines that waited (``waiting``), in the order they came; a line of
        a connection that has gone since is dropped with it."""
        out: list[Command] = []
        while self.waiting:
            for link, raw, now in self.waiting.take():
                if self.links.get(link.conn) is link:
                    out += self._receive(link, raw, now, False)
        return out

    def _first(self) -> list[Command]:
        """What the lines that wait say, read before the event at hand (in order)."""
        return self.drain() if self.waiting else []

    def _receive(self, link: Link, raw: bytes, now: float | None, binary: bool) -> list[Command]:
        conn = link.conn
        link.heard = self.lobby.clock()
        if now is not None:
            limits = self.lobby.limits
            if link.last is not None:  # Link.refill, inline: a call a line is measurable
                elapsed = max(0.0, now - link.last)
                link.tokens = min(float(limits.burst), link.tokens + elapsed * limits.rate)
            link.last = now
            if link.tokens < 1:  # every line counts, a blank one too
                link.refused += 1
                if link.refused > limits.max_refused:
                    text = f"over {limits.rate:g} lines a second for too long; goodbye"
                    return self._notice(conn, "rate_limited", text)
                text = f"slow down: at most {limits.rate:g} lines a second; that line was not read"
                return self._notice(conn, "rate_limited", text, close=False)
        if link.held is not None:  # a sign-in waits for the accounts: behind it, in order
            return self.held.keep(link, (raw, binary), now)
        if binary:
            link.tokens -= 1
            return self._notice(conn, "bad_json", UNREAD_BINARY, close=False)
        if now is None:
            return self._read_line(link, raw)
        if self._relayed(conn):  # its table is elsewhere: a game answer is not counted
            out = self._read_line(link, raw)
            if not any(isinstance(c, Relay) and _answer(c.message) for c in out):
                link.tokens -= 1
            return out
        before = self.lobby.progress(conn)
        out = self._read_line(link, raw)
        if before is None or self.lobby.progress(conn) == before:
            link.tokens -= 1  # a line that moved no game on counts against the rate
        return out

    def controls(self, conn: int, count: int, now: float) -> list[Command]:
        """``count`` WebSocket control frames (pings, pongs) from ``conn`` at ``now``,
        which the WebSocket library has answered by itself: each counts against the rate
        as a line that moves no game on does, and each over it as a refused line; more
        than ``max_refused`` of those close the connection (``rate_limited``)."""
        out = self._first()
        link = self.links.get(conn)
        if link is None:
            return out
        link.refill(now, self.lobby.limits)
        spent = min(count, max(0, int(link.tokens)))
        link.tokens -= spent
        if spent < count:
            limits = self.lobby.limits
            link.refused += count - spent
            if link.refused > limits.max_refused:
                text = f"over {limits.rate:g} pings a second for too long; goodbye"
                return out + self._notice(conn, "rate_limited", text)
        return out

    def _read_line(self, link: Link, raw: bytes) -> list[Command]:
        conn = link.conn
        line = strip_line(raw)
        if len(line) > MAX_LINE:
            return self.line_too_long(conn)
        if link.codec is None:
            chosen = codecs.from_first_line(line)
            if chosen is None:
                return []
            link.codec, line = chosen
            log.info("connection %d speaks %s", conn, link.codec.kind)
        if not line or line.isspace():  # blank (isspace: the same test as strip, no copy)
            return []
        try:
            messages = link.codec.decode(line)
        except ClientError as exc:
            return self._render(self.lobby.refuse(conn, exc), conn)
        if messages and isinstance(messages[0], str):  # text mode help: shown as is
            return [Send(conn, "".join(f"{m}\r\n" for m in messages).encode())]
        return self._handle(conn, [m for m in messages if not isinstance(m, str)])

    def _handle(self, conn: int, messages: list[Message | Credentials]) -> list[Command]:
        out: Outgoing = []
        relayed: list[Command] = []
        for i, msg in enumerate(messages):
            if self._relayed(conn) and isinstance(msg, dict):
                relayed.append(Relay(conn, msg))
                continue
            said, stop = self.lobby.handle(conn, msg)
            out += said
            there = self.lobby.relays.pop(conn, None)
            if there is not None and isinstance(msg, dict):  # it and the rest go there
                relayed.append(Relay(conn, msg, there))
                continue
            if stop:  # refused, quit, or waits for the accounts: the rest waits with it
                if self.lobby.sign_in.waits(conn):
                    self.held.park(self.links[conn], messages[i + 1 :])
                break
        commands = self._render(out, conn)
        return commands + relayed if relayed else commands

    # ------------------------------------------------- the site's relay (bus.py)

    def _relayed(self, conn: int) -> bool:
        session = self.lobby.sessions.get(conn)
        return session is not None and session.where is Where.RELAYED

    def connect_virtual(
        self, name: str, address: str | None = None, playable: frozenset[str] | None = None
    ) -> int:
        """A connection for a client of another instance, whose messages come through
        the bus (``receive_message``) and whose answers go back as ``Remote``; it can
        play what its codec there can (``playable``, ``Codec.games``)."""
        conn = self._next_conn
        self._next_conn += 1
        self.links[conn] = Link(conn, "relay", virtual=True, heard=self.lobby.clock())
        self._virtual += 1
        self.lobby.connect(conn, address, playable)  # the lobby question: its own instance asked it
        if _name_ok(name):
            self.lobby.sessions[conn].name = name
        return conn

    def receive_message(self, conn: int, msg: Message) -> list[Command]:
        """A message of a relayed client (virtual here), or one its owner sent back."""
        out = self._first()
        link = self.links.get(conn)
        if link is None:
            return out
        link.heard = self.lobby.clock()
        if link.held is not None:  # a sign-in waits for the accounts: behind it, in order
            return out + self.held.keep(link, msg, None)
        return out + self._handle(conn, [msg])

    def deliver(self, conn: int, msg: Message) -> list[Command]:
        """What the instance that holds ``conn``'s table says to it: written here."""
        out = self._first()
        if self._relayed(conn):
            out += self._render([(conn, msg)])
        return out

    def unrelay(self, conn: int, text: str | None = None, code: str | None = None) -> list[Command]:
        """``conn``'s messages stop going elsewhere: it is back in the lobby (told ``text``
        first, as an Error with ``code`` if given; None: silently, as its table's
        instance already asked it the lobby question)."""
        out = self._first()
        session = self.lobby.sessions.get(conn)
        if session is None or session.where is not Where.RELAYED:
            return out
        self.lobby.sessions.move(session, Where.QUESTION)
        link = self.links.get(conn)
        if link is not None:
            link.in_lobby, link.heard = True, self.lobby.clock()
        if text is None:
            return out
        said: Message = message(text) if code is None else error(code, text)
        return out + self._render([(conn, said), (conn, {"Type": "Hello"})])

    def line_too_long(self, conn: int) -> list[Command]:
        return self.notice(conn, "line_too_long", f"a line is at most {MAX_LINE} bytes; goodbye")

    def notice(self, conn: int, code: str, text: str, close: bool = True) -> list[Command]:
        """An Error that the server layer raises (a limit), in the connection's mode.

        Closing: the Error, then the connection closes. Not closing: the line that broke
        the limit was not read; what the connection was being asked comes again.
        """
        return self._first() + self._notice(conn, code, text, close)

    def _notice(self, conn: int, code: str, text: str, close: bool = True) -> list[Command]:
        if conn not in self.links:
            return []
        if not close:
            return self._render(self.lobby.refuse(conn, for_code(text, code)), conn)
        out = self._render([(conn, error(code, text))], conn)
        out += self._disconnect(conn)
        return [*out, Close(conn, code)]

    def idle(self) -> list[Command]:
        """Close the connections silent for longer than their place allows: the lobby's
        ``idle_timeout`` or a table's ``table_idle_timeout`` (call it now and then; the
        server does, a few times per the shorter of the two)."""
        out = self._first()
        now = self.lobby.clock()
        limits = self.lobby.limits
        for conn, link in list(self.links.items()):
            if link.virtual:  # its own instance keeps its clock
                continue
            limit = limits.idle_timeout if link.in_lobby else limits.table_idle_timeout
            if now - link.heard > limit:
                place = "in the lobby" if link.in_lobby else "at a table"
                out += self._notice(
                    conn, "idle_timeout", f"silent for {limit:g} s {place}; goodbye"
                )
        return out

    def disconnect(self, conn: int) -> list[Command]:
        """The connection is gone (or is being closed): free its seat."""
        return self._first() + self._disconnect(conn)

    def _disconnect(self, conn: int) -> list[Command]:
        link = self.links.get(conn)
        if link is None:
            return []
        gone: list[Command] = [Relay(conn, None)] if self._relayed(conn) else []
        out = self._render(self.lobby.disconnect(conn)) + gone
        del self.links[conn]
        if link.virtual:
            self._virtual -= 1
        self.addresses.closed(link.address)
        return out

    def shutdown(
        self,
        reason: str = "The server is shutting down. Bye!",
        unsaved: frozenset[int] = frozenset(),
    ) -> list[Command]:
        """Tell everyone, then close every connection; the hub is empty afterwards.

        Durable, the people in a game are told it is saved and how to come back (or,
        at the tables in ``unsaved``, that it could not be saved). Lines still waiting
        unread (they came after the server's last read, ``Server.close``)
        are dropped: nothing was answered to them, nor saved."""
        self.waiting.on = False
        self.waiting.take()
        out: list[Command] = []
        for conn, said in self.lobby.shutdown(reason, unsaved):
            out += self._render(said)
            link = self.links.get(conn)
            out.append(Remote(conn, None) if link is not None and link.virtual else Close(conn))
        self.links.clear()
        self.addresses.clear()
        self._virtual = 0
        return out

    # ------------------------------------------------------------------- writing

    def _render(self, out: Outgoing, speaker: int | None = None) -> list[Command]:
        """What ``out`` says, as commands (``render.encode``), then the closes: of the
        sessions that ended, and of the virtual connections back in the lobby; the idle
        clock of a connection that came to or left the lobby starts again. ``speaker``:
        the connection whose line this answers (its bytes are never news)."""
        links = self.links
        commands, told = encode(out, links, self.lobby, speaker)
        now: float | None = None
        for conn, where in told:
            link = links.get(conn)
            if link is None:
                continue
            if where is Where.CLOSED:
                commands.append(Remote(conn, None, close=True) if link.virtual else Close(conn))
                self._disconnect(conn)
                continue
            in_lobby = where in IN_LOBBY
            if link.virtual and in_lobby:  # back in the lobby: its own instance has it
                commands.append(Remote(conn, None))
                self._disconnect(conn)
                continue
            if in_lobby != link.in_lobby:  # it moved: its idle clock starts again
                link.in_lobby = in_lobby
                now = self.lobby.clock() if now is None else now
                link.heard = max(link.heard, now)
        return commands
