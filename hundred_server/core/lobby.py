"""The lobby: sessions, their state, and the tables (no I/O, and no bytes).

``Lobby`` sees each connection as a stream of wire messages (the hub, hub.py, reads and
writes them with the connection's codec): ``connect(conn)``, ``handle(conn, message)``
and ``disconnect(conn)`` return what each connection must be told, as
``(conn, message)`` pairs.

A session walks: the lobby question (``Hello``) → options (``Game``) or the open
tables (``Join``) → seated, waiting → playing → back to the lobby question. A person
who sits gets a ``Seat`` message with a token; ``Hello`` with that token, on any
connection in the lobby, takes the seat back while its game goes on. From the lobby a
session may instead watch a table (``Watch``; ``Hello`` ``watch`` lists the tables
that take watchers): watching, it is told the table's public messages until it sends
``Leave`` (back to the lobby question), quits, or the game ends; it never sits while it
watches. Anywhere, a session may chat (``Chat``: to the lobby, or to everyone at its
table, watchers too; chat.py) and mute what others say (``Mute``, ``Unmute``). Who may
send what in each state is decided in ``handle``; the states are ``Where``.

Time is an input: the lobby reads its ``clock`` and the caller calls ``tick()`` at
``next_deadline()`` (grace periods of lost connections, turn clocks).
"""

from __future__ import annotations

import enum
import hashlib
import heapq
import logging
import math
import re
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final

from hundred_server import games
from hundred_server.core.chat import FanOut, Mutes, Place, chat_message, clean
from hundred_server.core.fairness import reveal_message
from hundred_server.core.journal import (
    GameDropped,
    GameEnded,
    GameStarted,
    Moves,
    StoredGame,
    Write,
)
from hundred_server.core.names import reserved
from hundred_server.core.remote import (
    BotRequest,
    BuiltinAI,
    Forfeits,
    PluginSeat,
    PoolSeat,
    ReleaseBots,
)
from hundred_server.core.table import Outgoing, Table, TableAI, TableState
from hundred_server.games.base import Bot, GameSpec, GameState
from hundred_server.games.records import dumps_line, load_record
from hundred_server.protocol.errors import HundredError
from hundred_server.protocol.wire import (
    LOBBY_QUESTION,
    Message,
    ProtocolError,
    error,
    field_int,
    field_str,
    message,
    quote,
    require_int,
    require_str,
)

if TYPE_CHECKING:
    from hundred_server.config import AISettings

log = logging.getLogger("hundred_server")

NAME_RE: Final = re.compile(r"^[A-Za-z0-9_.\- ]{1,20}$")
TABLE_NAME_RE: Final = re.compile(r"^[A-Za-z0-9_.\-' ]{1,30}$")
TOKEN_RE: Final = re.compile(r"^[0-9a-f]{32}$")
#: The AIs a person may ask for at a new table (``"AI"`` in ``Game``), the default
#: first: every game's built-in ``strong`` and ``naive`` (``GameSpec.bots``).
AI_LEVELS: Final = ("strong", "naive")
#: Tables whose deadline has come that one ``tick`` lets act; the rest act in the next
#: (due at once), so a burst of deadlines never holds the event loop for long.
TICK_BATCH: Final = 32
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


class Where(enum.Enum):
    QUESTION = "question"  # asked: join, create or quit
    OPTIONS = "options"  # asked: which option
    TABLES = "tables"  # shown the open tables
    SEATED = "seated"  # at a table that waits for players
    PLAYING = "playing"
    WATCHING = "watching"  # a table's watcher: told, never asked
    RELAYED = "relayed"  # its table is on another instance of the site (bus.py)
    CLOSED = "closed"

    # Members are singletons, so identity hashing is exact, and it runs in C: every
    # answer asks whether its connections are in the lobby (IN_LOBBY).
    __hash__ = object.__hash__


#: The places of a session in the lobby (not at a table).
IN_LOBBY: Final = frozenset({Where.QUESTION, Where.OPTIONS, Where.TABLES})
#: Where a session is at a game under way, a seat's or a watcher's.
_UNDER_WAY: Final = frozenset({Where.PLAYING, Where.WATCHING})
#: Where a session's chat goes to its table (else to the lobby).
_AT_TABLE: Final = frozenset({Where.SEATED, Where.PLAYING, Where.WATCHING})
#: What a session may send in every state: talk, never play.
_TALK: Final = frozenset({"Chat", "Mute", "Unmute"})


@dataclass(frozen=True)
class Limits:
    """What one client may do (protocol.md, Limits)."""

    #: Connections at once; one more is told ``server_full`` and closed (server.py). A
    #: site's instance counts its own sockets: a client relayed in from another takes none.
    max_connections: int = 2000
    #: Connections at once from one address; one more is told ``too_many_connections``.
    max_connections_per_address: int = 32
    #: Tables created from one address whose game is not over (waiting or playing); one
    #: more ``create`` is told ``too_many_tables``.
    max_tables_per_address: int = 8
    #: Of those, tables still waiting for players; one more is told ``too_many_waiting``.
    max_waiting_per_address: int = 2
    #: Lines that do not move a game on (errors, lobby talk, pre-pass and unpass, blank
    #: lines): a connection may send ``rate`` a second on average and ``burst`` at once.
    #: A line over that is not read and gets ``rate_limited``; an answer that plays a
    #: turn is never counted, so a fast bot is never slowed.
    rate: float = 20.0
    burst: int = 40
    #: Lines refused for the rate that a connection may send in all before it is closed.
    max_refused: int = 100
    #: Seconds a connection may stay silent in the lobby (hub.py), counted from its last
    #: line or from when it came (back) to the lobby, whichever is later.
    idle_timeout: float = 600.0
    #: Seconds a connection may stay silent at a table (waiting or playing); then it is
    #: closed as a lost connection (in a game its seat waits ``grace``, then an AI).
    table_idle_timeout: float = 3600.0
    #: Seconds a seat waits for its owner after their connection is lost mid-game,
    #: before an AI plays it (they may still take it back later with their token).
    grace: float = 60.0
    #: Seconds a person has for each answer (None: no clock). When it runs out the AI's
    #: move is played for them. A table made with option 5 may set its own (``Clock``).
    turn_timeout: float | None = None
    #: Watchers a table may have at once; one more ``Watch`` is told ``too_many_watchers``.
    max_watchers: int = 50
    #: Lobby chat lines delivered a second, to every listener summed (chat.FanOut),
    #: shared by those who speak; a line over a speaker's share gets ``chat_busy``. 15 s
    #: at 10,000 is 150,000 lines, well under the 1,000,000 that 32 chatters to 400
    #: listeners may cost (issue #27), and still 25 lines a second to 400 listeners,
    #: more than anyone reads. A table's chat is not counted (a few listeners).
    chat_fanout: int = 10_000
    #: Seconds a connection has for its handshake: the WebSocket's HTTP request and
    #: opening handshake, or the PROXY header with ``--proxy-protocol``; then it closes.
    handshake_timeout: float = 3.0
    #: Connections at once still in their handshake (half-open: not yet a client), from
    #: one address and in all; one more is closed at once, unanswered (server.py). They
    #: count against ``max_connections_per_address`` too. Behind a proxy
    #: (``--proxy-protocol``, ``--forwarded-for``) only the limit in all applies: every
    #: connection has the proxy's address until its handshake says the client's.
    max_half_open_per_address: int = 8
    max_half_open: int = 512
    #: Seconds after a restart that the tokens of a game whose end the server may have
    #: saved and not sent (it ended just before the server stopped: store.ENDED_WINDOW)
    #: give that end: the seat's messages of its last move (its Score and GameOver),
    #: the Reveal, then the lobby question. Then they are ``bad_token`` as any other.
    result_hold: float = 600.0


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


class TableFailed(Exception):
    """A table raised something unexpected (a bug): it is closed; ``out`` tells its
    people so."""

    def __init__(self, out: Outgoing) -> None:
        super().__init__("table failed")
        self.out = out


class _Guard:
    """``Lobby._guard``: a class, not a generator's context manager, which cost a few
    times as much on every answer."""

    __slots__ = ("lobby", "session", "table")

    def __init__(self, lobby: Lobby, table: Table, session: Session | None) -> None:
        self.lobby, self.table, self.session = lobby, table, session

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if kind is None or not issubclass(kind, Exception) or issubclass(kind, HundredError):
            return  # done, a client's mistake, or not an error (an interrupt): as it is
        table = self.table
        log.error("table %d failed; closing it", table.id, exc_info=exc)
        raise TableFailed(self.lobby._close_broken(table, self.session)) from None


@dataclass(frozen=True)
class Ended:
    """A finished game's end, for the token of one of its seats after a restart: its
    ``table``, the ``seat``, and what the seat is told after its ``Seat`` message."""

    table: int
    seat: int
    told: tuple[Message, ...]


@dataclass
class Session:
    conn: int
    name: str
    where: Where = Where.QUESTION
    table: Table | None = None
    game: str = games.DEFAULT_GAME  # the game whose options the session was shown
    #: Where the connection comes from (its IP address), for the per-address limits;
    #: None: not limited (in-process tests).
    address: str | None = None
    #: The list of tables the session was shown last (``Where.TABLES``): the open ones
    #: (``join``), or those it may watch (``watch``); an error shows it again.
    listing: str = "join"
    #: The people whose chat this connection does not want (for as long as it is open).
    mutes: Mutes = field(default_factory=Mutes)
    #: Who this is, for others' mutes (chat.py): the connection's number, or, once it
    #: takes a seat back with a token, the person's who sat with that token.
    person: int = 0
    #: The games the connection's codec can play (``Codec.games``; None: every game):
    #: it is shown, may create, join and watch tables of these only.
    games: frozenset[str] | None = None

    def __post_init__(self) -> None:
        self.person = self.person or self.conn


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
        self._token_source = token_source or (lambda: secrets.token_hex(16))  # 128 bits
        self.sessions: dict[int, Session] = {}
        self.tables: dict[int, Table] = {}
        self.tokens: dict[str, Table] = {}  # token hash -> its table, while it plays
        #: (deadline, table id), a heap, and the deadline each table's live entry has:
        #: an entry whose deadline is not its table's any more is stale and skipped, and
        #: the heap is rebuilt when stale entries outnumber live ones, so it stays at
        #: most about twice the number of tables however often deadlines move.
        self._timers: list[tuple[float, int]] = []
        self._timer_of: dict[int, float] = {}
        #: Address -> the ids of the live tables created from it (``Limits``).
        self._by_address: dict[str, set[int]] = {}
        self._address_of: dict[int, str] = {}
        #: The store is failing (durable only): new tables are refused with
        #: ``store_unavailable``; the tables whose moves wait to be saved are paused.
        self.store_ok = True
        self.paused: set[int] = set()
        #: Durable: what to save (``take_writes``), before what it produced is sent.
        self.durable = durable
        #: Game name -> the AI for its AI seats, where an in-process bot replaces the
        #: default (trusted code: it is called, like the default).
        self.bots = dict(bots or {})
        #: Game name -> the plug-in bot (its label, ``GAME=module:Class``) that plays
        #: its AI seats out of process: asked for, never called (core/remote.py).
        self.plugins = {} if ai is None else ai.plugin_labels
        #: Forfeits by plug-in label, for tournaments.
        self.forfeits: Forfeits = Forfeits()
        self._bot_requests: list[BotRequest] = []
        #: Tables whose plug-in answer came while they were paused: asked again when
        #: the store is back.
        self._unanswered: set[int] = set()
        self._writes: list[Write] = []
        self._next_table = 1
        #: A site of several instances (``serve --bus``): the open tables of the other
        #: instances (their ``Table`` info less its Type, by id), shown with ours and
        #: joined through the hub's relay; tokens this lobby does not know are looked
        #: up on the site; table ids come from ``table_ids`` (unique on the site; None
        #: when none is to hand: ``store_unavailable``).
        self.site = False
        self.remote_tables: dict[int, Message] = {}
        #: Likewise the tables of the other instances that may be watched (``watch``
        #: lists them with ours; ``Watch`` goes through the relay).
        self.remote_watchable: dict[int, Message] = {}
        self.table_ids: Callable[[], int | None] | None = None
        #: The lobby chat's budget (``Limits.chat_fanout``), by speaker.
        self._fanout = FanOut()
        #: Token hash -> the ``Session.person`` who sat with it, so that mutes follow a
        #: person who takes their seat back on a new connection (dropped with the token).
        self._person_of: dict[str, int] = {}
        #: Token hash -> the end of its game, which ended just before the server last
        #: stopped (``restore``), until ``ended_until`` (``Limits.result_hold``).
        self.ended: dict[str, Ended] = {}
        self.ended_until = 0.0
        #: conn -> where the session's messages go now (set by ``handle``; the hub takes it).
        self.relays: dict[int, Elsewhere] = {}
        self._seed_source = seed_source or (lambda: secrets.token_hex(16))

    # ----------------------------------------------------------- session events

    def connect(
        self, conn: int, address: str | None = None, playable: frozenset[str] | None = None
    ) -> Outgoing:
        """A new session for connection ``conn`` (from ``address``, for the per-address
        limits; None: unlimited) that can play the games ``playable`` (None: every
        game): the lobby question."""
        session = Session(conn, f"player{conn}", address=address, games=playable)
        self.sessions[conn] = session
        return self._ask(session)

    def handle(self, conn: int, msg: Message) -> tuple[Outgoing, bool]:
        """One message from ``conn``; returns what to tell whom, and whether the rest
        of the line's messages are moot (this one was refused, or it quit)."""
        session = self.sessions.get(conn)
        if session is None or session.where is Where.CLOSED:
            return [], True
        before = session.table
        stop = False
        try:
            out = self._dispatch(session, msg)
        except ProtocolError as exc:
            out, stop = self._refuse(session, exc), True
        except TableFailed as failed:
            out, stop = failed.out, True
        except Elsewhere as there:
            session.where = Where.RELAYED
            self.relays[conn] = there
            out, stop = [], True
        after = session.table
        if before is not None:
            self._after(before)
        if after is not None and after is not before:
            self._after(after)
        return out, stop or self.closed(conn)

    def refuse(self, conn: int, exc: HundredError) -> Outgoing:
        """``exc`` told to ``conn``, and what it is being asked again."""
        session = self.sessions.get(conn)
        return [] if session is None else self._refuse(session, exc)

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

    def where(self, conn: int) -> Where | None:
        """Where ``conn``'s session is (None: it has none): ``CLOSED`` once it quit (the
        hub closes it), one of ``IN_LOBBY`` in the lobby."""
        session = self.sessions.get(conn)
        return None if session is None else session.where

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
        return self.where(conn) in _UNDER_WAY and not self.to_act(conn)

    def closed(self, conn: int) -> bool:
        """Whether ``conn``'s session has ended (it quit): the hub closes it."""
        return self.where(conn) is Where.CLOSED

    def _after(self, table: Table) -> None:
        """After a step of ``table``: note what to save, what to ask of plug-ins and
        when it needs a tick."""
        self._journal(table)
        if table.id in self.tables:
            self._bot_requests += table.take_bot_requests()
        self._watch(table)

    def take_bot_requests(self) -> list[BotRequest]:
        """The plug-in moves to run (``AskBot``) and the tables whose plug-in workers may
        stop (``ReleaseBots``), in order, since the last call (core/remote.py)."""
        requests, self._bot_requests = self._bot_requests, []
        return requests

    def _ai_for(self, spec: GameSpec, level: str) -> TableAI:
        """What plays the AI seats of a ``spec`` table that asked for the AI ``level``:
        the game's plug-in (named by its label) if the server has one, else an
        in-process bot that replaces the built-in AIs, else the built-in AI ``level``
        (a strong one within ``ai_budget``, its moves paced: it searches)."""
        label = self.plugins.get(spec.name)
        if label is not None:
            forfeits = self.forfeits
            return TableAI(lambda: PluginSeat(label, spec.bot(), forfeits), label, level)
        replaced = self.bots.get(spec.name)
        if replaced is not None:
            return TableAI(replaced, level, level)
        make = spec.bots[level]
        budget = self.ai_budget
        options = () if budget is None or level != "strong" else (("budget", budget),)
        if level == "strong" and self.ai_pool:
            builtin = BuiltinAI(spec.name, level, options)
            naive, stand_ins = spec.bots["naive"], self.stand_ins
            return TableAI(
                lambda: PoolSeat(builtin.label, naive(), stand_ins, builtin=builtin), level, level
            )
        if options:
            make = partial(make, **dict(options))
        return TableAI(make, level, level, pace=level == "strong")

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
        if table_id in self.paused:
            if table.asking == (seat, ask):
                self._unanswered.add(table_id)
            return []
        try:
            with self._guard(table):
                out = table.bot_answer(seat, ask, choice, fault, action)
        except TableFailed as failed:
            return failed.out
        if table.state is TableState.OVER:
            out += self._finish(table)
        self._after(table)
        return out

    def take_writes(self) -> list[Write]:
        """What must be saved (in order, in one transaction) before the commands
        returned so far are sent."""
        writes, self._writes = self._writes, []
        return writes

    def _journal(self, table: Table) -> None:
        game = table.game
        if not self.durable or game is None:
            return
        lines: list[str] = []
        if table.saved == 0:
            seats = tuple((s.name, s.token) for s in table.seats if s is not None)
            self._writes.append(
                GameStarted(
                    table.id,
                    table.game_name,
                    table.name,
                    table.seed,
                    table.turn_timeout,
                    seats,
                    table.ai.level,
                    table.watchable,
                )
            )
            lines.append(dumps_line(table.spec.header_object(game)))
        first = table.saved
        start = max(0, table.saved - 1)
        lines += [dumps_line(o) for o in table.spec.history_objects(game, start)]
        if lines:
            self._writes.append(Moves(table.id, first, tuple(lines), table.seq))
            table.saved += len(lines)

    def restore(self, stored_games: list[StoredGame], last_id: int = 0) -> list[str]:
        """Tables for the unfinished games of a store, after a restart (call before
        any connection); a game over (``store.restorable``: it ended just before the
        server stopped) is kept for its people's tokens instead (``Limits.result_hold``).
        Returns a line to log per game."""
        self._next_table = max(self._next_table, last_id + 1)
        said: list[str] = []
        for stored in stored_games:
            if stored.state == "over":
                said.append(self._keep_end(stored))
                continue
            try:
                table, game = self._restored(stored)
                self.tables[table.id] = table
                for digest in table.tokens():
                    self.tokens[digest] = table
                table.resume()
            except Exception as exc:  # a bad row, a record that does not replay: that game
                reason = exc if isinstance(exc, HundredError) else f"{type(exc).__name__}: {exc}"
                said.append(f"game {stored.id} cannot be restored ({reason}); marked failed")
                self.tables.pop(stored.id, None)
                for digest in [d for d, t in self.tokens.items() if t.id == stored.id]:
                    del self.tokens[digest]
                if self.durable:
                    self._writes.append(GameEnded(stored.id, "failed"))
                continue
            if table.state is TableState.OVER:
                self._finish(table)
            else:
                self._after(table)
            said.append(
                f"game {stored.id} ({stored.name}) restored at round {game.round}; "
                f"people have {self.limits.grace:g} s to take their seats back"
            )
        return said

    def _keep_end(self, stored: StoredGame) -> str:
        """Keep a finished game's end for its seats' tokens (``ended``); a line to log."""
        try:
            told = _ends(stored)
        except Exception as exc:  # a record that does not replay: its tokens get nothing
            reason = exc if isinstance(exc, HundredError) else f"{type(exc).__name__}: {exc}"
            return f"game {stored.id} is over and its end cannot be replayed ({reason})"
        hold = self.limits.result_hold
        self.ended_until = self.clock() + hold
        for seat, (_, digest) in enumerate(stored.seats):
            if digest is not None:
                self.ended[digest] = Ended(stored.id, seat, told[seat])
        return (
            f"game {stored.id} ({stored.name}) is over: its people's tokens get its end "
            f"for {hold:g} s"
        )

    def _restored(self, stored: StoredGame) -> tuple[Table, GameState]:
        """The table of a stored game; raises whatever a bad row makes it raise."""
        game = load_record(stored.lines)
        spec = games.get(stored.game)
        if spec.name != game.game_name:
            raise HundredError(f"its record is a {game.game_name} game, its row says {spec.name}")
        # A game stored before tables chose their AI goes on with the naive one.
        level = stored.ai if stored.ai in AI_LEVELS else AI_LEVELS[-1]
        table = Table.restored(
            stored.id,
            stored.name,
            spec,
            stored.seed,
            game,
            stored.seats,
            stored.seq,
            grace=self.limits.grace,
            turn_timeout=stored.clock,
            clock=self.clock,
            ai=self._ai_for(spec, level),
            watchable=stored.watchers,
        )
        table.saved = len(stored.lines)
        table.touched = True  # it was stored, so it stays stored
        return table, game

    def _watch(self, table: Table) -> None:
        deadline = table.deadline
        if deadline is None or table.id not in self.tables:
            return
        if self._timer_of.get(table.id) == deadline:
            return  # already in the heap
        self._timer_of[table.id] = deadline
        heapq.heappush(self._timers, (deadline, table.id))
        if len(self._timers) > 2 * len(self._timer_of) + 64:  # mostly stale: rebuild
            self._timers = [(d, t) for t, d in self._timer_of.items()]
            heapq.heapify(self._timers)

    def _live_timer(self) -> tuple[float, int] | None:
        """The earliest heap entry that is its table's current one (stale ones dropped)."""
        timers = self._timers
        while timers:
            deadline, table_id = timers[0]
            if self._timer_of.get(table_id) == deadline and table_id in self.tables:
                return timers[0]
            heapq.heappop(timers)
        return None

    def next_deadline(self) -> float | None:
        """When ``tick`` is next due (on ``clock``), or None."""
        while (entry := self._live_timer()) is not None:
            deadline, table_id = entry
            table = self.tables[table_id]
            if table.deadline is not None and table_id not in self.paused:
                return min(deadline, table.deadline)
            heapq.heappop(self._timers)  # no deadline any more, or paused
            del self._timer_of[table_id]
        return None

    @property
    def timer_entries(self) -> int:
        """Entries in the deadline heap (bounded; see ``_watch``)."""
        return len(self._timers)

    def tick(self) -> Outgoing:
        """Let the tables whose deadline has come act (up to ``TICK_BATCH`` of them; the
        rest are due at once): grace periods that ran out hand seats to the AI (or
        abandon a table nobody played in), turn clocks that ran out play the AI's move."""
        now = self.clock()
        out: Outgoing = []
        due: list[int] = []
        while len(due) < TICK_BATCH and (entry := self._live_timer()) is not None:
            if entry[0] > now:
                break
            heapq.heappop(self._timers)
            del self._timer_of[entry[1]]
            due.append(entry[1])
        for table_id in due:
            table = self.tables.get(table_id)
            if table is None or table_id in self.paused:
                continue
            deadline = table.deadline
            if deadline is not None and deadline <= now:
                try:
                    with self._guard(table):
                        out += table.tick()
                except TableFailed as failed:
                    out += failed.out
                    continue
                if table.state is TableState.OVER:
                    out += self._finish(table)
                    continue
            self._after(table)
        return out

    def in_lobby(self, conn: int) -> bool:
        """Whether ``conn`` is in the lobby (not at a table); idling is limited by
        ``Limits.idle_timeout`` there and ``table_idle_timeout`` at a table."""
        return self.where(conn) in IN_LOBBY

    def disconnect(self, conn: int) -> Outgoing:
        """The connection is gone (or is being closed): free its seat."""
        session = self.sessions.pop(conn, None)
        if session is None:
            return []
        watching = session.where is Where.WATCHING
        session.where = Where.CLOSED
        self._fanout.forget(conn)
        log.info("connection %d (%s) closed", conn, session.name)
        table = session.table
        if watching:  # a watcher is simply gone: no seat, no token, no grace
            return self._stop_watching(session)
        out = self._leave_table(session, lost=True)
        if table is not None:
            self._after(table)
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
            if self.durable and table is not None and table.state is TableState.PLAYING:
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
        self._timers.clear()
        self._timer_of.clear()
        self._by_address.clear()
        self._address_of.clear()
        return out

    def tables_lost(self, table_ids: set[int]) -> Outgoing:
        """Another instance of the site owns these tables now (this one's lease on them
        lapsed: it was cut off): they go, unsaved writes and all, and their people are
        sent to the lobby, to take their seats back with their tokens there."""
        out: Outgoing = []
        for table_id in sorted(table_ids):
            table = self.tables.get(table_id)
            if table is None:
                continue
            log.warning("table %d is played by another instance of the site now; it goes", table_id)
            self._remove_table(table)
            self._forget_tokens(table, every=True)
            table.state = TableState.OVER
            text = (
                f"table {table_id} is played by another server of the site now: send your "
                "token to take your seat back there"
            )
            for _, conn in table.people():
                session = self.sessions.get(conn)
                if session is not None and session.where is not Where.CLOSED:
                    session.table = None
                    out += [(conn, message(text)), *self._ask(session)]
            out += self._send_watchers_away(table, None, message(text))
        self._writes = [w for w in self._writes if w.game_id not in table_ids]
        return out

    # ------------------------------------------------------------------ the store

    def store_failed(self, game_ids: set[int]) -> None:
        """The store refused a save: the tables of ``game_ids`` pause (no clock runs out,
        no answer is taken; what they said waits with their unsaved moves) and new tables
        are refused until ``store_back``."""
        if self.store_ok:
            log.warning("the store is unavailable: new tables are refused until it is back")
        self.store_ok = False
        self.paused |= {i for i in game_ids if i in self.tables}

    def store_back(self) -> None:
        """The store took every save that waited: paused tables go on, with their clocks
        started afresh (their people see their prompts only now)."""
        if not self.store_ok:
            log.warning("the store is back: %d paused tables go on", len(self.paused))
        self.store_ok = True
        paused, self.paused = self.paused, set()
        for table_id in sorted(paused):
            table = self.tables.get(table_id)
            if table is not None:
                table.restart_clocks()
                if table_id in self._unanswered:
                    table.ask_again()
                    self._bot_requests += table.take_bot_requests()
                self._watch(table)
        self._unanswered.clear()

    def _check_store(self, what: str) -> None:
        if not self.store_ok:
            raise ProtocolError(
                f"the game store is unavailable, so {what} cannot start now; games under "
                "way go on, and new ones can start when it is back (try again soon)",
                "store_unavailable",
            )

    def _check_paused(self, table: Table) -> None:
        if table.id in self.paused:
            raise ProtocolError(
                f"table {table.id} waits for the game store, which is unavailable; it goes "
                "on by itself when the store is back",
                "store_unavailable",
            )

    # -------------------------------------------------------------------- reading

    def _dispatch(self, session: Session, msg: Message) -> Outgoing:
        kind = msg["Type"]
        watched = session.table if session.where is Where.WATCHING else None
        if kind in _TALK:
            return self._talk(session, kind, msg)
        if watched is not None and kind not in ("Hello", "Leave"):
            if kind in ("Game", "Join", "Watch"):
                raise ProtocolError(
                    f"you watch table {watched.id}; send Leave to stop watching first", "not_now"
                )
            raise ProtocolError(
                f"you watch table {watched.id}: watchers do not play (not your seat)", "not_now"
            )
        if kind == "Hello":
            return self._hello(session, msg)
        if kind == "Game":
            return self._game(session, msg)
        if kind == "Join":
            return self._join(session, msg)
        if kind == "Watch":
            return self._watch_table(session, msg)
        if kind == "Leave":
            return self._leave_watching(session)
        # A game answer.
        if session.where is not Where.PLAYING or session.table is None:
            raise ProtocolError(f"{kind} answers a game prompt; you are not in a game", "not_now")
        table = session.table
        self._check_paused(table)
        with self._guard(table, session):
            out = table.answer(session.conn, msg)
        if table.state is TableState.OVER:
            out += self._finish(table)
        return out

    # -------------------------------------------------------------------- lobby

    def _ask(self, session: Session) -> Outgoing:
        session.where = Where.QUESTION
        return [(session.conn, message(LOBBY_QUESTION)), (session.conn, {"Type": "Hello"})]

    def _hello(self, session: Session, msg: Message) -> Outgoing:
        if "Token" in msg and session.where in IN_LOBBY:
            return self._reclaim(session, msg)
        if session.where in (Where.PLAYING, Where.SEATED, Where.WATCHING):
            choice = field_str(msg, "Message")
            if choice is None or choice.strip().lower() != "quit":
                if session.where is Where.WATCHING:
                    raise ProtocolError(
                        "you are watching a table; Leave stops watching, quit leaves the server",
                        "not_now",
                    )
                raise ProtocolError("you are at a table; only quit leaves it", "not_now")
        name = _read_name(msg, NAME_RE, "a name is 1-20 letters, digits, spaces, _ - . ")
        if name is not None and reserved(name):
            raise ProtocolError(
                f"the name {quote(name)} is or looks like a reserved name (you, me, AI N, "
                "server, playerN; read without case, spaces or _ - . and with l, I, 1 alike "
                "and O, 0 alike); pick another",
                "bad_name",
            )
        choice = field_str(msg, "Message")
        if choice is not None:
            choice = choice.strip().lower()
            if choice not in ("create", "join", "watch", "quit"):
                raise ProtocolError(
                    f"Message must be create, join, watch or quit, not {quote(msg.get('Message'))}",
                    "bad_choice",
                )
        game = self._game_named(msg) if choice == "create" else None  # bad_game: no change
        if choice == "create":
            _check_plays(session, game or games.DEFAULT_GAME)
        if name is not None:  # only once the whole Hello is known to be good
            session.name = name
        if choice is None:  # a bare Hello (or one that only names you): the question again
            greeting = [(session.conn, message(f"Hello, {name}."))] if name is not None else []
            return [*greeting, *self._ask(session)]
        if choice == "quit":
            if session.where is Where.WATCHING:
                out = self._stop_watching(session)
            else:
                out = self._leave_table(session)
            session.where = Where.CLOSED
            return [*out, (session.conn, message("Ok, bye bye!"))]
        if choice == "create":
            session.game = game or games.DEFAULT_GAME
            session.where = Where.OPTIONS
            return self._options(session)
        session.where = Where.TABLES  # join or watch: the list
        session.listing = choice
        return [(session.conn, self._listing(session))]

    def _reclaim(self, session: Session, msg: Message) -> Outgoing:
        """``Hello`` with a token: take the seat it owns back, on this connection."""
        token = field_str(msg, "Token")
        if token is not None:
            token = token.strip().lower()
        if token is None or not TOKEN_RE.match(token):
            raise ProtocolError(
                f"a token is the 32 hex digits of your Seat message, not {quote(token)}",
                "bad_token",
            )
        digest = hash_token(token)
        table = self.tokens.get(digest)
        if table is None and self.ended:
            if self.clock() >= self.ended_until:
                self.ended.clear()  # they were all kept at the same restart
            elif digest in self.ended:
                return self._send_end(session, token, self.ended[digest])
        if table is None and self.site:
            raise Elsewhere(digest=digest)
        if table is None or table.owner_of(digest) is None:
            raise ProtocolError(
                f"no game under way has a seat for token {quote(token)} (it may be over)",
                "bad_token",
            )
        _check_plays(session, table.game_name, table.id)
        self._check_paused(table)
        with self._guard(table, session):
            seat, previous, out = table.reclaim(session.conn, digest)
            rejoin = table.rejoin(seat)
        if previous is not None:  # the seat's old connection, still open, loses it
            old = self.sessions.get(previous)
            if old is not None:
                old.table = None
                text = f"your seat {seat} at table {table.id} was taken back with its token"
                out += [(previous, message(text)), *self._ask(old)]
        session.table = table
        session.where = Where.PLAYING
        session.name = table.names()[seat] or session.name
        session.person = self._person_of.get(digest, session.person)
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
        return [(session.conn, seat_msg), *told, *self._ask(session)]

    def open_here(self) -> list[Message]:
        """This lobby's tables that wait for players (``Table`` infos less their Type)."""
        return _listed(t for t in self.tables.values() if t.state is TableState.WAITING and t.free)

    def watchable(self) -> list[Message]:
        """This lobby's tables that may be watched: every table that takes watchers and
        has room for one more, waiting or playing (``Table`` infos less their Type)."""
        most = self.limits.max_watchers
        return _listed(
            t
            for t in self.tables.values()
            if t.state is not TableState.OVER and t.watchable and len(t.watchers) < most
        )

    def _tables(self, session: Session) -> Message:
        """The tables a session may join, the site's too."""
        tables = _with_site(self.open_here(), self.remote_tables)
        return {"Type": "Tables", "Tables": _playable(tables, session)}

    def _watchable(self, session: Session) -> Message:
        """The tables a session may watch, the site's too (``"Watch":true`` tells the
        lists apart)."""
        tables = _with_site(self.watchable(), self.remote_watchable)
        return {"Type": "Tables", "Tables": _playable(tables, session), "Watch": True}

    def _listing(self, session: Session) -> Message:
        return self._watchable(session) if session.listing == "watch" else self._tables(session)

    # ------------------------------------------------------------------ watching

    def _watch_table(self, session: Session, msg: Message) -> Outgoing:
        """``Watch``: from the lobby, watch a table (see ``Table.watch``)."""
        if session.where not in IN_LOBBY:
            raise ProtocolError(
                "you sit at a table; a person at a table cannot watch one (quit first)", "not_now"
            )
        table_id = require_int(msg, "Table")
        table = self.tables.get(table_id)
        if table is None and table_id in self.remote_watchable:
            _check_plays(session, self.remote_watchable[table_id].get("Game"), table_id, "watch")
            raise Elsewhere(table=table_id, watch=True)
        if table is None:
            raise ProtocolError(f"no table {table_id} to watch", "no_such_table")
        _check_plays(session, table.game_name, table_id, "watch")
        with self._guard(table, session):
            out = table.watch(session.conn, self.limits.max_watchers)
        session.table = table
        session.where = Where.WATCHING
        log.info("connection %d (%s) watches table %d", session.conn, session.name, table.id)
        return out

    def _leave_watching(self, session: Session) -> Outgoing:
        """``Leave``: a watcher stops watching and is back at the lobby question."""
        if session.where is not Where.WATCHING:
            raise ProtocolError(
                "Leave stops watching a table, and you watch none"
                + (
                    "; Hello quit leaves a seat"
                    if session.where in (Where.SEATED, Where.PLAYING)
                    else ""
                ),
                "not_now",
            )
        return [*self._stop_watching(session), *self._ask(session)]

    def _stop_watching(self, session: Session) -> Outgoing:
        table, session.table = session.table, None
        if table is None:
            return []
        log.info("connection %d (%s) stops watching table %d", session.conn, session.name, table.id)
        return table.unwatch(session.conn)

    # ------------------------------------------------------------------ chat

    def _talk(self, session: Session, kind: str, msg: Message) -> Outgoing:
        """``Chat``, ``Mute`` or ``Unmute``, anywhere: nothing at a table changes."""
        if kind == "Chat":
            return self._chat(session, msg)
        name = require_str(msg, "Name").strip()
        # Who goes by the name now: a mute is theirs, whatever they are called later.
        named = [
            s.person
            for s in self.sessions.values()
            if s is not session and name in (s.name, self._chat_name(s))
        ]
        if kind == "Unmute":
            was = session.mutes.unmute(name, named)
            text = f"You unmuted {name}: you see what they say again" if was else None
            return [(session.conn, message(text or f"{name} was not muted"))]
        if name in (session.name, self._chat_name(session)):
            raise ProtocolError("you cannot mute yourself", "bad_mute")
        if not named:
            raise ProtocolError(
                f"nobody here goes by {quote(name)} (mute a name as its chat shows it)",
                "bad_mute",
            )
        session.mutes.mute(name, named)
        text = f"You muted {name}: you will not see what they say (Unmute to undo)"
        return [(session.conn, message(text))]

    def _chat(self, session: Session, msg: Message) -> Outgoing:
        """A chat line to everyone where the speaker is, the speaker too, but those who
        muted the speaker: at its table (people and watchers), or in the lobby."""
        text = clean(msg.get("Text"))
        table = session.table if session.where in _AT_TABLE else None
        where: Place = "lobby" if table is None else "table"
        if table is None:
            audience = [c for c, s in self.sessions.items() if s.where in IN_LOBBY]
        else:
            audience = table.audience()
        speaker = self._chat_name(session)
        said = chat_message(speaker, text, where)
        out: Outgoing = []
        for conn in audience:
            listener = self.sessions.get(conn)
            if listener is not None and session.person not in listener.mutes:
                out.append((conn, said))
        if table is None:
            budget = self.limits.chat_fanout
            wait = self._fanout.spend(session.conn, len(out), budget, self.clock())
            if wait is not None:
                again = _tenths(wait)
                raise ProtocolError(
                    f"the lobby's chat is busy (at most {budget} lines delivered a second, "
                    f"shared by everyone talking): nothing was said; try again in {again} s",
                    "chat_busy",
                )
        return out

    def _chat_name(self, session: Session) -> str:
        """The name a session's chat shows: its seat's at a table (``ann (2)`` when
        another ann sits there), else its own (``player<N>`` until it picks one)."""
        table = session.table
        if table is not None and session.where in (Where.SEATED, Where.PLAYING):
            seat = table.seat_of(session.conn)
            name = None if seat is None else table.names()[seat]
            if name is not None:
                return name
        return session.name

    def _send_watchers_away(
        self, table: Table, reveal: Message | None, why: Message | None
    ) -> Outgoing:
        """The table is gone (its game is over, or nobody waits at it any more): its
        watchers are told (``reveal``, the seed of a game that ended; ``why``) and are
        back at the lobby question."""
        out: Outgoing = []
        for conn in table.watchers:
            session = self.sessions.get(conn)
            if session is None or session.where is not Where.WATCHING:
                continue
            session.table = None
            out += [(conn, m) for m in (reveal, why) if m is not None]
            out += self._ask(session)
        table.watchers.clear()
        return out

    def _options(self, session: Session) -> Outgoing:
        lines = options(games.get(session.game))
        return [(session.conn, message(o)) for o in lines] + [(session.conn, {"Type": "Game"})]

    def _game_named(self, msg: Message) -> str | None:
        """The ``Game`` a message names, if any (``bad_game`` if no such game)."""
        name = field_str(msg, "Game")
        if name is None:
            return None
        key = name.strip().lower()
        if key not in games.names():
            known = ", ".join(games.names())
            raise ProtocolError(f"no such game {quote(name)} (games: {known})", "bad_game")
        return key

    def _game(self, session: Session, msg: Message) -> Outgoing:
        if session.where is not Where.OPTIONS:
            raise ProtocolError(
                "Game answers the create options; say Hello create first", "not_now"
            )
        game_name = self._game_named(msg) or session.game
        _check_plays(session, game_name)
        spec = games.get(game_name)
        count = len(options(spec))
        option = require_int(msg, "Option", lo=1, hi=count, code="bad_option")
        if option == count:
            return self._ask(session)
        self._check_store("a new table")
        self._check_address(session)
        turn_timeout = self.limits.turn_timeout
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
            name = _read_name(msg, TABLE_NAME_RE, rule)
        level = _read_ai(msg) or self.ai
        watchable = _read_watchers(msg)
        if level == "strong" and ai_seats and self.ai_pool and self.ai_busy():
            log.warning("a new table of the strong AI refused: the AI pool is busy")
            raise ProtocolError(
                "the strong AI is busy (too many of its moves wait for it); ask for the "
                'naive AI instead ("AI":"naive" in your Game answer, or the word naive in '
                "text mode), or try again in a moment",
                "ai_busy",
            )
        table_id = self._new_table_id()
        table = Table(
            table_id,
            name or f"table {table_id}",
            spec,
            seats,
            ai_seats,
            self._seed_source(),
            grace=self.limits.grace,
            turn_timeout=turn_timeout,
            clock=self.clock,
            ai=self._ai_for(spec, level),
            flags=flags,
            watchable=watchable,
        )
        self.tables[table_id] = table
        if session.address is not None:
            self._by_address.setdefault(session.address, set()).add(table_id)
            self._address_of[table_id] = session.address
        log.info(
            "table %d (%s, %s) created by connection %d: %d seats, AI at %s (%s)",
            table_id, table.name, spec.name, session.conn, seats, list(ai_seats), table.ai.name,
        )  # fmt: skip
        return self._sit(session, table)

    def _join(self, session: Session, msg: Message) -> Outgoing:
        if session.where not in (Where.TABLES, Where.QUESTION):
            raise ProtocolError("Join answers the list of tables; say Hello join first", "not_now")
        table_id = require_int(msg, "Table")
        table = self.tables.get(table_id)
        if table is None and table_id in self.remote_tables:
            _check_plays(session, self.remote_tables[table_id].get("Game"), table_id)
            raise Elsewhere(table=table_id)
        if table is None or table.state is TableState.OVER:
            raise ProtocolError(f"no open table {table_id}", "no_such_table")
        _check_plays(session, table.game_name, table_id)
        if table.state is not TableState.WAITING:
            raise ProtocolError(f"table {table_id} is full: its game is under way", "table_full")
        if table.free == 1:  # this seat starts the game
            self._check_store(f"table {table_id}'s game")
        return self._sit(session, table)

    def _new_table_id(self) -> int:
        if self.table_ids is None:
            table_id = self._next_table
            self._next_table += 1
            return table_id
        given = self.table_ids()
        if given is None:
            raise ProtocolError(
                "no table number is to hand (the game store is slow to answer); try again "
                "in a moment",
                "store_unavailable",
            )
        return given

    def _check_address(self, session: Session) -> None:
        """The per-address limits on tables (``Limits``), before ``session`` creates one."""
        address = session.address
        if address is None:
            return
        live = [self.tables[i] for i in self._by_address.get(address, ())]
        waiting = sum(t.state is TableState.WAITING for t in live)
        limits = self.limits
        if waiting >= limits.max_waiting_per_address:
            raise ProtocolError(
                f"{waiting} tables from your address already wait for players (at most "
                f"{limits.max_waiting_per_address}); join one, or wait for them to fill",
                "too_many_waiting",
            )
        if len(live) >= limits.max_tables_per_address:
            raise ProtocolError(
                f"{len(live)} tables from your address are under way (at most "
                f"{limits.max_tables_per_address}); finish or leave one first",
                "too_many_tables",
            )

    def _remove_table(self, table: Table) -> None:
        """``table`` is gone from the lobby (over, closed, broken)."""
        if table.id in self.tables and (table.game_name in self.plugins or table.asks):
            table.take_bot_requests()  # nobody waits for those answers any more
            self._bot_requests = [r for r in self._bot_requests if r.table != table.id] + [
                ReleaseBots(table.id)
            ]
        self._unanswered.discard(table.id)
        self.tables.pop(table.id, None)
        self._timer_of.pop(table.id, None)
        self.paused.discard(table.id)
        address = self._address_of.pop(table.id, None)
        if address is not None:
            ids = self._by_address[address]
            ids.discard(table.id)
            if not ids:
                del self._by_address[address]

    def _sit(self, session: Session, table: Table) -> Outgoing:
        token = self._token_source()
        digest = hash_token(token)
        with self._guard(table, session):
            seat, out = table.sit(session.conn, session.name, digest)
        self.tokens[digest] = table
        self._person_of[digest] = session.person
        table.issued.add(digest)
        seat_msg = {"Type": "Seat", "Table": table.id, "Playerid": seat, "Token": token}
        # Right after the table (the first message to the sitter): where you sit in it.
        first = next((i for i, (c, _) in enumerate(out) if c == session.conn), len(out) - 1)
        out.insert(first + 1, (session.conn, seat_msg))
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

    def _leave_table(self, session: Session, lost: bool = False) -> Outgoing:
        """The session leaves its table: it quit, or (``lost``) its connection is gone."""
        table = session.table
        if table is None:
            return []
        session.table = None
        try:
            with self._guard(table):
                out = table.drop(session.conn) if lost else table.leave(session.conn)
        except TableFailed as failed:
            return failed.out
        log.info(
            "connection %d (%s) %s table %d",
            session.conn, session.name, "lost at" if lost else "leaves", table.id,
        )  # fmt: skip
        if table.state is TableState.OVER:
            out += self._finish(table)
        elif table.state is TableState.WAITING:
            self._forget_tokens(table)
            if not table.people():
                self._remove_table(table)
                log.info("table %d closed: nobody waiting", table.id)
                why = message(f"Table {table.id} closed: nobody waits at it any more")
                out = self._send_watchers_away(table, None, why)
        return out

    def _forget_tokens(self, table: Table, every: bool = False) -> None:
        """Drop the table's tokens that no longer own a seat (``every``: all of them);
        only the tokens given at this table are looked at."""
        owned = set() if every else set(table.tokens())
        for digest in table.issued - owned:
            if self.tokens.get(digest) is table:
                del self.tokens[digest]
                self._person_of.pop(digest, None)
        table.issued &= owned

    def _guard(self, table: Table, session: Session | None = None) -> _Guard:
        """Run a step of ``table`` (``with``). A client's mistake (``HundredError``)
        passes through; anything else is a bug: it is logged with the table's id and
        the table is closed, its people (and ``session``) told why and sent back to the
        lobby."""
        return _Guard(self, table, session)

    def _close_broken(self, table: Table, session: Session | None) -> Outgoing:
        if self.durable and table.saved:
            self._writes.append(GameEnded(table.id, "failed"))
        self._remove_table(table)
        self._forget_tokens(table, every=True)
        table.state = TableState.OVER
        conns = set(table.audience())
        if session is not None:
            conns.add(session.conn)
        text = f"table {table.id} stopped on an internal error (it is logged); its game is over"
        out: Outgoing = []
        for conn in sorted(conns):
            other = self.sessions.get(conn)
            if other is None or other.where is Where.CLOSED:
                continue
            other.table = None
            out += [(conn, error("internal_error", text)), *self._ask(other)]
        table.watchers.clear()
        return out

    def _finish(self, table: Table) -> Outgoing:
        """The game is over: everyone at the table goes back to the lobby question.

        A game nobody played a move in is forgotten, not kept as abandoned: a client
        that creates tables and hangs up leaves nothing behind."""
        self._remove_table(table)
        self._forget_tokens(table, every=True)
        game = table.game
        self._journal(table)
        result = None
        if game is not None and game.winner is not None:
            result = table.spec.result(game)
        if self.durable and table.saved:
            if result is None and not table.touched:
                self._writes.append(GameDropped(table.id))
            else:
                state = "over" if result is not None else "abandoned"
                self._writes.append(GameEnded(table.id, state, result))
        if result is not None:
            log.info("table %d finished: %s, scores %s", table.id, result["Text"], result["Score"])
        elif not table.touched:
            log.info("table %d abandoned before any person played in it: forgotten", table.id)
        else:
            log.info("table %d abandoned: no person left at it", table.id)
        # A game that ended with a result reveals its seed, so its deals can be checked
        # against the Commit its people got at the start (fairness.py).
        reveal = None if result is None else reveal_message(table.id, table.game_name, table.seed)
        out: Outgoing = []
        for _, conn in table.people():
            session = self.sessions.get(conn)
            if session is not None and session.where is not Where.CLOSED:
                session.table = None
                if reveal is not None:
                    out.append((conn, reveal))
                out += self._ask(session)
        why = None
        if result is None:
            why = message(f"The game at table {table.id} is over: nobody plays it any more")
        return out + self._send_watchers_away(table, reveal, why)

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
            out.append((session.conn, self._listing(session)))
        return out


def _tenths(seconds: float) -> str:
    """``seconds`` rounded up to a tenth (never 0.0: a wait to tell)."""
    return f"{max(1, math.ceil(seconds * 10 - 1e-9)) / 10:.1f}"


def _read_name(msg: Message, pattern: re.Pattern[str], rule: str) -> str | None:
    """``Name``, trimmed, if the message has one (``bad_name`` if it breaks ``rule``)."""
    name = field_str(msg, "Name")
    if name is None:
        return None
    name = name.strip()
    if not pattern.match(name):
        raise ProtocolError(f"{rule}: not {quote(name)}", "bad_name")
    return name


def _read_ai(msg: Message) -> str | None:
    """The AI a new table asks for (``"AI"``: one of ``AI_LEVELS``, any case), if any
    (``bad_option`` if it is something else)."""
    value = msg.get("AI")
    if value is None:
        return None
    level = value.strip().lower() if isinstance(value, str) else None
    if level not in AI_LEVELS:
        levels = " or ".join(f'"{a}"' for a in AI_LEVELS)
        raise ProtocolError(f"AI is {levels}, not {quote(value)}", "bad_option")
    return level


def _read_watchers(msg: Message) -> bool:
    """Whether a new table takes watchers (``"Watchers"``: true, the default, or
    false; any option); ``bad_option`` for anything else."""
    value = msg.get("Watchers", True)
    if value is not True and value is not False:
        raise ProtocolError(f"Watchers is true or false, not {quote(value)}", "bad_option")
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
            raise ProtocolError(f"{flag} is true or false, not {quote(value)}", "bad_option")
    return frozenset(on)


def _ends(stored: StoredGame) -> dict[int, tuple[Message, ...]]:
    """What each person's seat of a stored game that is over would have been told of
    its end: that the game is over, with its result, then the messages of its last move
    (the game's own, replayed: its Score and GameOver among them), and the Reveal."""
    spec = games.get(stored.game)
    game = load_record(stored.lines)
    last = game.history[-1] if game.history else None
    if not game.is_over or not isinstance(last, tuple) or len(last) != 2:
        raise HundredError("its record does not end with the move that ends the game")
    seat, action = last
    before = load_record(stored.lines[:-1])
    people = [i for i, (_, digest) in enumerate(stored.seats) if digest is not None]
    told = spec.tell(before.apply(seat, action), people, before.players)
    result = spec.result(game)
    over = message(f"The game at table {stored.id} is over: {result['Text']}")
    reveal = reveal_message(stored.id, spec.name, stored.seed)
    return {i: (over, *told[i], reveal) for i in people}


def hash_token(token: str) -> str:
    """What is kept of a seat token: its SHA-256, so a leaked table state or store
    holds no token that could take a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def _closed(session: Session) -> bool:
    return session.where is Where.CLOSED


def _check_plays(
    session: Session, game: object, table_id: int | None = None, doing: str = "play"
) -> None:
    """``bad_game`` unless ``session``'s connection can play ``game`` (``Session.games``):
    a new table of it, or the table ``table_id`` (to play or ``doing`` "watch")."""
    playable = session.games
    if playable is None or game in playable:
        return
    title = games.get(game).title if isinstance(game, str) and game in games.names() else None
    named = title or quote(game)
    plays = " and ".join(sorted(games.get(name).title for name in playable)) or "no game"
    what = f"{named} is a game" if table_id is None else f"table {table_id} plays {named}, which"
    raise ProtocolError(
        f"{what} this connection cannot {doing}: its protocol has no words for it (it plays "
        f"{plays})",
        "bad_game",
    )


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
