"""The lobby: sessions, their state, and the tables (no I/O, and no bytes).

``Lobby`` sees each connection as a stream of wire messages (the hub, hub.py, reads and
writes them with the connection's codec): ``connect(conn)``, ``handle(conn, message)``
and ``disconnect(conn)`` return what each connection must be told, as
``(conn, message)`` pairs.

The lobby is a coordinator: each of its jobs is a part of its own, which the hub and
the server reach directly --

- ``sessions`` (sessions.py): every session, and where it is; the moves between
  places are one table, ``TRANSITIONS``, checked in ``Sessions.move``;
- ``tables`` (tables.py): the live tables, their numbers and the lists shown;
- ``seating`` (seating.py): creating, joining, taking a seat back, leaving;
- ``watchers`` (watchers.py), ``talk`` (talk.py: chat and mutes), ``tokens``
  (tokens.py), ``timers`` (timers.py: ``next_deadline``), ``ai_seats`` (ai_seats.py:
  the plug-in requests, ``take``), ``journal`` (journal.py: what to save, ``take``),
  ``store_gate`` (store_gate.py: the store failing and back), ``restorer``
  (restore.py), ``ends`` (ends.py: a table's game over, broken or lost).

What the lobby keeps itself is what binds them: reading a message and deciding, by the
session's place, which part answers it (``handle``; ``Hello`` here), what follows a
step of a table (``after``), the clock's ``tick``, and the end of a connection.

Time is an input: the lobby reads its ``clock`` and the caller calls ``tick()`` at
``timers.next_deadline()`` (grace periods of lost connections, turn clocks).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hundred_server import games
from hundred_server.core.ai_seats import AI_LEVELS, AISeats
from hundred_server.core.ends import TableEnds
from hundred_server.core.guard import Guard, TableFailed
from hundred_server.core.journal import Journal
from hundred_server.core.ladder import Ladder
from hundred_server.core.limits import Limits
from hundred_server.core.names import NAME_RE, read_name, reserved
from hundred_server.core.ratings import RatingEvent
from hundred_server.core.remote import Forfeits
from hundred_server.core.restore import Restorer
from hundred_server.core.seat_views import hello_views
from hundred_server.core.seating import Seating, game_named, options
from hundred_server.core.sessions import (
    IN_LOBBY,
    UNDER_WAY,
    Session,
    Sessions,
    Where,
    check_plays,
)
from hundred_server.core.signin import Pending, SignIn
from hundred_server.core.store_gate import StoreGate
from hundred_server.core.table import Outgoing, Table, TableState
from hundred_server.core.tables import TableRegistry
from hundred_server.core.talk import TALK, Talk
from hundred_server.core.timers import Timers
from hundred_server.core.tokens import TOKEN_RE, Ended, Tokens, hash_token
from hundred_server.core.watchers import Elsewhere, Watchers
from hundred_server.games.base import Bot
from hundred_server.protocol.credentials import Credentials
from hundred_server.protocol.errors import ClientError, HundredError, Malformed, Refused
from hundred_server.protocol.wire import LOBBY_QUESTION, Message, error, field_str, message, quote

#: What other modules import from here (the parts' names, kept where they were).
__all__ = [
    "AI_LEVELS",
    "IN_LOBBY",
    "NAME_RE",
    "TOKEN_RE",
    "Elsewhere",
    "Ended",
    "Limits",
    "Lobby",
    "Session",
    "TableFailed",
    "Where",
    "hash_token",
    "options",
]

if TYPE_CHECKING:
    from hundred_server.config import AISettings

log = logging.getLogger("hundred_server")


class Lobby:
    """Every session and table; see the module docstring."""

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
        """``limits`` and ``ai``: the settings' groups (config.py; None: their
        defaults); ``bots``, ``seed_source``, ``clock`` and ``token_source`` replace
        the defaults for tests and embedders."""
        level = AI_LEVELS[0] if ai is None else ai.level
        if level not in AI_LEVELS:
            raise ValueError(f"no AI {level!r} (the AIs: {', '.join(AI_LEVELS)})")
        self.limits = limits or Limits()
        #: The AI of a new table that does not ask for one (one of ``AI_LEVELS``).
        self.ai = level
        #: Seconds a strong AI may think a decision at most (None: its own default).
        self.ai_budget = None if ai is None else ai.budget
        #: Whether the strong AI's seats are asked of the server's AI pool
        #: (ai/pool.py, ``serve --ai-workers``), not played in process: what embeds
        #: the lobby and the in-process tests keep the default, False.
        self.ai_pool = ai is not None and ai.pool is not None
        #: Whether the AI pool's queue is deeper than its bound (the server sets it):
        #: new tables of the strong AI are then refused (``ai_busy``).
        self.ai_busy: Callable[[], bool] = lambda: False
        #: Moves of the pool's AI seats that its naive AI played instead (a worker
        #: crashed or overran), by game.
        self.stand_ins: Counter[str] = Counter()
        self.clock = clock
        #: Game name -> the AI for its AI seats, where an in-process bot replaces the
        #: default (trusted code: it is called, like the default).
        self.bots = dict(bots or {})
        #: Game name -> the plug-in bot (its label, ``GAME=module:Class``) that plays
        #: its AI seats out of process: asked for, never called (core/remote.py).
        self.plugins = {} if ai is None else ai.plugin_labels
        #: Forfeits by plug-in label, for tournaments.
        self.forfeits: Forfeits = Forfeits()
        self.seed_source = seed_source or (lambda: secrets.token_hex(16))
        #: conn -> where the session's messages go now (set by ``handle``; the hub takes it).
        self.relays: dict[int, Elsewhere] = {}
        # The parts, one a job (see the module docstring).
        self.sessions = Sessions()
        self.tables = TableRegistry()
        self.tokens = Tokens(token_source)
        self.journal = Journal(durable)
        self.store_gate = StoreGate(self)
        self.timers = Timers(self.tables, self.store_gate.paused)
        self.ai_seats = AISeats(self)
        self.seating = Seating(self)
        self.watchers = Watchers(self)
        self.talk = Talk(self)
        self.restorer = Restorer(self)
        self.ends = TableEnds(self)
        #: Accounts: a ``Key`` in ``Hello``, account names kept from guests, text
        #: mode's login (signin.py: the store asked off the event loop).
        self.sign_in = SignIn(self)
        #: What the accounts' ratings are to hear (a rated table's start, a game's
        #: end: core/ratings.py), taken by the server (``take_rating_events``).
        self.rating_events: list[RatingEvent] = []
        #: The ladder (ladder.py): queues by game, and the duplicate sets under way.
        self.ladder = Ladder(self)
        self.timers.extra = self.ladder.deadline

    # ----------------------------------------------------------- session events

    def connect(
        self,
        conn: int,
        address: str | None = None,
        playable: frozenset[str] | None = None,
        greeting: str = LOBBY_QUESTION,
    ) -> Outgoing:
        """A new session for connection ``conn`` (from ``address``, for the per-address
        limits; None: unlimited) that can play the games ``playable`` (None: every
        game): the lobby question, in the words of ``greeting``."""
        return self.sessions.ask(self.sessions.open(conn, address, playable), greeting)

    def handle(self, conn: int, msg: Message | Credentials) -> tuple[Outgoing, bool]:
        """One message from ``conn``; returns what to tell whom, and whether the rest
        of the line's messages are moot (this one was refused, or it quit, or it waits
        for the accounts: ``sign_in.waits``)."""
        session = self.sessions.get(conn)
        if session is None or session.where is Where.CLOSED:
            return [], True
        before = session.table
        stop = False
        try:
            out = self._dispatch(session, msg)
        except Pending as wait:
            self.sign_in.wait(conn, msg, wait.query)
            return [], True
        except ClientError as exc:
            out, stop = self._refuse(session, exc), True
        except TableFailed as failed:
            out, stop = failed.out, True
        except Elsewhere as there:
            self.sessions.move(session, Where.RELAYED)
            self.relays[conn] = there
            out, stop = [], True
        if self.sign_in.pending:
            self.sign_in.settle(conn)
        after = session.table
        if before is not None:
            self.after(before)
        if after is not None and after is not before:
            self.after(after)
        return out, stop or self.closed(conn)

    def refuse(self, conn: int, exc: HundredError) -> Outgoing:
        """``exc`` told to ``conn``, and what it is being asked again."""
        session = self.sessions.get(conn)
        return [] if session is None else self._refuse(session, exc)

    def disconnect(self, conn: int) -> Outgoing:
        """The connection is gone (or is being closed): free its seat."""
        session = self.sessions.get(conn)
        if session is None:
            return []
        table, watching = session.table, session.where is Where.WATCHING
        self.sessions.close(conn)
        self.talk.fanout.forget(conn)
        self.ladder.forget(conn)
        self.sign_in.forget(conn)
        log.info("connection %d (%s) closed", conn, session.name)
        if watching:  # a watcher is simply gone: no seat, no token, no grace
            return self.watchers.unwatch(session, table)
        out = self.seating.leave(session, table, lost=True)
        if table is not None:
            self.after(table)
        return out

    # ------------------------------------------------------------ where sessions are

    def progress(self, conn: int) -> tuple[int, int, int, int, bool] | None:
        """Where the game at ``conn``'s table stands (table, Seq, turns people played,
        plug-in asks, over), to tell a line that moved a game on from one that did not
        (rate limits count only those); a move that a plug-in seat is asked to answer
        moved it on too, and so does a turn the paced AI answers at a later tick."""
        session = self.sessions.get(conn)
        table = None if session is None else session.table
        if table is None or session is None or session.where is Where.WATCHING:
            return None  # a watcher's lines never move a game on
        return table.id, table.seq, table.turns, table.asks, table.state is TableState.OVER

    def to_act(self, conn: int) -> bool:
        """Whether ``conn`` holds the seat whose move the game waits for."""
        session = self.sessions.get(conn)
        table = None if session is None else session.table
        if table is None or table.game is None or table.state is not TableState.PLAYING:
            return False
        seat = table.seat_of(conn)  # None: a watcher
        return seat is not None and seat == table.game.to_act

    def bystander(self, conn: int) -> bool:
        """Whether ``conn`` is at a game under way and not the one to act (a seat whose
        turn it is not, or a watcher): what it is told may wait (``hub.Send.news``)."""
        return self.sessions.where(conn) in UNDER_WAY and not self.to_act(conn)

    def closed(self, conn: int) -> bool:
        """Whether ``conn``'s session has ended (it quit): the hub closes it."""
        return self.sessions.where(conn) is Where.CLOSED

    # ------------------------------------------------------------------ the tables

    def after(self, table: Table) -> None:
        """After a step of ``table``: note what to save, what to ask of plug-ins and
        when it needs a tick."""
        self.journal.note(table)
        if table.id in self.tables:
            self.ai_seats.collect(table)
        self.timers.watch(table)

    def guard(self, table: Table, session: Session | None = None) -> Guard:
        """Run a step of ``table`` (``with``; see ``Guard``): a bug closes the table,
        its people (and ``session``) told why and sent back to the lobby."""
        return Guard(self.ends.broken, table, session)

    def bot_answer(
        self,
        table_id: int,
        seat: int,
        ask: int,
        choice: int | None,
        fault: str | None,
        action: Any = None,
    ) -> Outgoing:
        """A plug-in's answer to ``AskBot`` (see ``Table.bot_answer``); an answer for a
        table that is gone is dropped, one for a paused table is asked again when it
        goes on."""
        table = self.tables.get(table_id)
        if table is None:
            return []
        if table_id in self.store_gate.paused:
            if table.asking == (seat, ask):
                self.ai_seats.unanswered.add(table_id)
            return []
        try:
            with self.guard(table):
                out = table.bot_answer(seat, ask, choice, fault, action)
        except TableFailed as failed:
            return failed.out
        if table.state is TableState.OVER:
            out += self.ends.finish(table)
        self.after(table)
        return out

    def tick(self) -> Outgoing:
        """Let the tables whose deadline has come act (``TICK_BATCH`` of them at most;
        the rest are due at once): grace periods that ran out hand seats to the AI (or
        abandon a table nobody played in), turn clocks that ran out play the AI's move."""
        now = self.clock()
        out: Outgoing = []
        ladder_due = self.ladder.deadline()
        if ladder_due is not None and ladder_due <= now:
            out += self.ladder.tick()
        paused = self.store_gate.paused
        for table_id in self.timers.due(now):
            table = self.tables.get(table_id)
            if table is None or table_id in paused:
                continue
            deadline = table.deadline
            if deadline is not None and deadline <= now:
                try:
                    with self.guard(table):
                        out += table.tick()
                except TableFailed as failed:
                    out += failed.out
                    continue
                if table.state is TableState.OVER:
                    out += self.ends.finish(table)
                    continue
            self.after(table)
        return out

    def shutdown(
        self, reason: str, unsaved: frozenset[int] = frozenset()
    ) -> list[tuple[int, Outgoing]]:
        """What each session is told as the server stops; the lobby is empty afterwards.

        Durable, people in a game are told it is saved and how to come back, unless its
        table is in ``unsaved`` (moves the store never took): then they are told so."""
        out: list[tuple[int, Outgoing]] = []
        for conn, session in list(self.sessions.items()):
            said = [(conn, message(reason))]
            table = None if session.where is Where.WATCHING else session.table
            if self.journal.durable and table is not None and table.state is TableState.PLAYING:
                if table.id in unsaved:
                    text = (
                        f"Your game at table {table.id} could not be saved (the store is "
                        "unavailable): its last moves are lost"
                    )
                else:
                    text = (
                        f"Your game at table {table.id} is saved: when the server is back, "
                        "send your token to take your seat again"
                    )
                said.insert(0, (conn, message(text)))
            out.append((conn, said))
        self.sessions.clear()
        self.tables.clear()
        self.tokens.clear()
        self.timers.clear()
        return out

    # -------------------------------------------------------------------- reading

    def _dispatch(self, session: Session, msg: Message | Credentials) -> Outgoing:
        if isinstance(msg, Credentials):  # text mode's login or register
            return self.sign_in.credentials(session, msg)
        kind = msg["Type"]
        watched = session.table if session.where is Where.WATCHING else None
        if kind in TALK:
            return self.talk.handle(session, kind, msg)
        if watched is not None and kind not in ("Hello", "Leave"):
            if kind in ("Game", "Join", "Watch"):
                raise Refused(
                    f"you watch table {watched.id}; send Leave to stop watching first", "not_now"
                )
            raise Refused(
                f"you watch table {watched.id}: watchers do not play (not your seat)", "not_now"
            )
        if kind == "Hello":  # its Views too, kept only if the Hello is taken
            with hello_views(session, msg):
                return self._hello(session, msg)
        if kind == "Game":
            return self.seating.create(session, msg)
        if kind == "Join":
            return self.seating.join(session, msg)
        if kind == "Watch":
            return self.watchers.watch(session, msg)
        if kind == "Leave":
            if session.where in (Where.SEATED, Where.PLAYING):
                return self.seating.to_lobby(session)
            return self.watchers.leave(session)
        # A game answer.
        if session.where is not Where.PLAYING or session.table is None:
            raise Refused(f"{kind} answers a game prompt; you are not in a game", "not_now")
        table = session.table
        self.store_gate.check_paused(table)
        with self.guard(table, session):
            out = table.answer(session.conn, msg)
        if table.state is TableState.OVER:
            out += self.ends.finish(table)
        return out

    def _hello(self, session: Session, msg: Message) -> Outgoing:
        if session.where is Where.LADDER:
            choice = field_str(msg, "Message")
            if choice is None or choice.strip().lower() != "quit":
                raise Refused("you are on the ladder; only quit leaves it", "not_now")
            return self.ladder.leave(session)
        if "Token" in msg and session.where in IN_LOBBY:
            if "Key" in msg and session.account is None:  # a bot back after a drop
                signed = self.sign_in.key(session, msg["Key"])
                out = self.seating.reclaim(session, msg)  # bad_token: nobody signed in
                session.account, session.name = signed, signed.name
                return out
            return self.seating.reclaim(session, msg)
        if session.where in (Where.PLAYING, Where.SEATED, Where.WATCHING):
            choice = field_str(msg, "Message")
            if choice is None or choice.strip().lower() != "quit":
                if session.where is Where.WATCHING:
                    raise Refused(
                        "you are watching a table; Leave stops watching, quit leaves the server",
                        "not_now",
                    )
                raise Refused("you are at a table; leave (Leave) or quit leaves it", "not_now")
        name = read_name(msg, NAME_RE, "a name is 1-20 letters, digits, spaces, _ - . ")
        if name is not None and reserved(name):
            raise Malformed(
                f"the name {quote(name)} is or looks like a reserved name (you, me, AI N, "
                "server, playerN; read without case, spaces or _ - . and with l, I, 1 alike "
                "and O, 0 alike); pick another",
                "bad_name",
            )
        account, name = self.sign_in.hello(session, msg, name)
        choice = field_str(msg, "Message")
        if choice is not None:
            choice = choice.strip().lower()
            if choice not in ("create", "join", "watch", "quit", "ladder"):
                raise Malformed(
                    f"Message must be create, join, watch or quit, not {quote(msg.get('Message'))}",
                    "bad_choice",
                )
        game = game_named(msg) if choice in ("create", "ladder") else None  # bad_game
        if choice == "create":
            check_plays(session, game or games.DEFAULT_GAME)
        if name is not None:  # only once the whole Hello is known to be good
            session.name = name
        session.account = account
        if choice is None:  # a bare Hello (or one that only names you): the question again
            greeting = [(session.conn, message(f"Hello, {name}."))] if name is not None else []
            return [*greeting, *self.sessions.ask(session)]
        if choice == "quit":
            return [*self._quit(session), (session.conn, message("Ok, bye bye!"))]
        if choice == "ladder":
            return self.ladder.join(session, game)
        if choice == "create":
            session.game = game or games.DEFAULT_GAME
            self.sessions.move(session, Where.OPTIONS)
            return self.seating.show_options(session)
        self.sessions.move(session, Where.TABLES)  # join or watch: the list
        session.listing = choice
        return [(session.conn, self.tables.listing(session, self.limits.max_watchers))]

    def _quit(self, session: Session) -> Outgoing:
        """``Hello`` ``quit``: the session ends (the hub closes its connection)."""
        table = session.table
        if session.where is Where.WATCHING:
            self.sessions.move(session, Where.CLOSED)
            return self.watchers.unwatch(session, table)
        out = self.seating.leave(session, table)
        self.sessions.move(session, Where.CLOSED)
        return out

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
            out.append((session.conn, self.tables.listing(session, self.limits.max_watchers)))
        return out
