"""The ladder: accounts queue for a game and are paired by rating into duplicate sets
(no I/O).

``{"Type":"Hello","Message":"ladder","Game":G}`` from an account (a ``Key`` in the same
or an earlier ``Hello``) queues the connection for ``G`` (``Where.LADDER``). The ladder
makes a set as soon as it can: the connection that has waited longest and the others
nearest its rating (openskill's mu in ``G``; a new account's is openskill's default),
as many as the game's smallest table (``GameSpec.seat_counts``) has seats. One that
has waited ``ANCHOR_WAIT`` seconds without enough others gets the built-in anchors at
the empty seats (the naive AI, or the strong one if its rating is nearer the strong
anchor's: core/ratings.py), so a lone bot always has games.

A **set** is its seats' count of rated games dealt from one seed, the seats turned one
place each game, so each entrant plays each seat's cards once and the luck of the deal
cancels. Each game of the set is rated as it ends (a rated table: core/ratings.py).
When a set is over, its entrants queue again at once: a ladder connection plays until
it leaves (``Hello`` ``quit``, or it goes). An entrant whose connection is gone is
played by the naive AI for the rest of its set (its seat an AI seat).

Each ladder table has the fair clock (core/botclock.py): ``MOVE_TIME`` seconds a move
and a bank of ``BANK`` seconds for the slow ones; a move that empties the bank is a
strike (the naive AI plays it), and the ``STRIKES``-th hands the seat to the naive AI
for the rest of the set, which the struck entrant loses (its seat is the AI's in the
set's later games, rated as the anchor's). The clock is told to the table's people
when each game starts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from hundred_server import games
from hundred_server.core.names import fold
from hundred_server.core.ratings import ANCHORS, START_MU
from hundred_server.core.sessions import Session, Where, check_plays
from hundred_server.core.table import Outgoing, Table, TableOptions
from hundred_server.protocol.errors import Refused
from hundred_server.protocol.wire import message

if TYPE_CHECKING:
    from hundred_server.core.lobby import Lobby

log = logging.getLogger("hundred_server")

#: Seconds a lone entrant waits for others before the anchors fill its set.
ANCHOR_WAIT: Final = 2.0
#: The fair clock of a ladder table (botclock.py): seconds a move, the bank of seconds
#: a seat has for the game's slow moves, and the strikes.
MOVE_TIME: Final = 5.0
BANK: Final = 60.0
STRIKES: Final = 3


@dataclass(eq=False)
class LadderSet:
    """One duplicate set: its game, seed, entrants (a connection, or an anchor's
    level) in the first game's seat order, and the game it is at (0-based)."""

    game: str
    seed: str
    entrants: list[int | str]
    round: int = 0
    tables: list[int] = field(default_factory=list)
    #: Entrants struck out (the fair clock's last strike): the AI's for the rest.
    struck: set[int] = field(default_factory=set)


@dataclass
class Waiting:
    conn: int
    mu: float
    since: float


class Ladder:
    """The lobby's ladder (see the module docstring)."""

    def __init__(self, lobby: Lobby, rating: Callable[[str, str], float | None]) -> None:
        self._lobby = lobby
        #: (account id, game) -> mu, or None for an account rated nowhere yet.
        self.rating = rating
        self.queues: dict[str, list[Waiting]] = {}
        #: The sets under way by connection, and by table id.
        self.sets: dict[int, LadderSet] = {}
        self.by_table: dict[int, LadderSet] = {}

    # ------------------------------------------------------------------ queueing

    def join(self, session: Session, game: str | None) -> Outgoing:
        """``Hello`` ``ladder``: queue ``session`` for ``game``."""
        if session.account is None:
            raise Refused("the ladder is for accounts: say Hello with your Key first", "not_rated")
        name = game or games.DEFAULT_GAME
        check_plays(session, name)
        lobby = self._lobby
        lobby.store_gate.check_open("the ladder")
        session.ladder = name
        lobby.sessions.move(session, Where.LADDER)
        said = message(f"You are on the ladder for {games.get(name).title}; waiting for a set")
        return [(session.conn, said), *self._queue(session)]

    def _queue(self, session: Session) -> Outgoing:
        game = session.ladder
        assert game is not None
        assert session.account is not None
        mu = self.rating(fold(session.account.name), game)
        entry = Waiting(session.conn, START_MU if mu is None else mu, self._lobby.clock())
        self.queues.setdefault(game, []).append(entry)
        return self.pair(game)

    def leave(self, session: Session) -> Outgoing:
        """``Hello`` ``quit`` on the ladder: off it, back to the lobby question."""
        self.forget(session.conn)
        session.ladder = None
        return [
            (session.conn, message("You left the ladder.")),
            *self._lobby.sessions.ask(session),
        ]

    def forget(self, conn: int) -> None:
        """``conn`` leaves the queue (it left, or it is gone); a set it is in goes on
        without it."""
        for queue in self.queues.values():
            queue[:] = [w for w in queue if w.conn != conn]

    def deadline(self) -> float | None:
        """When a lone entrant's wait for others runs out (``tick``)."""
        oldest = [q[0].since for q in self.queues.values() if q]
        return min(oldest) + ANCHOR_WAIT if oldest else None

    def tick(self) -> Outgoing:
        out: Outgoing = []
        for game in list(self.queues):
            out += self.pair(game)
        return out

    # ------------------------------------------------------------------ pairing

    def pair(self, game: str) -> Outgoing:
        """Sets of those queued for ``game``, while there are enough, or one has
        waited long enough for the anchors."""
        queue = self.queues.get(game, [])
        seats = min(games.get(game).seat_counts)
        now = self._lobby.clock()
        out: Outgoing = []
        while queue:
            oldest = queue[0]
            others = sorted(queue[1:], key=lambda w: abs(w.mu - oldest.mu))[: seats - 1]
            if len(others) < seats - 1 and now - oldest.since < ANCHOR_WAIT:
                break
            chosen = [oldest, *others]
            for w in chosen:
                queue.remove(w)
            level = min(ANCHORS, key=lambda a: abs(ANCHORS[a][0] - oldest.mu))
            entrants: list[int | str] = [w.conn for w in chosen]
            entrants += [level] * (seats - len(chosen))
            ladder_set = LadderSet(game, self._lobby.seed_source(), entrants)
            out += self._start(ladder_set) or []
        return out

    def _start(self, ladder_set: LadderSet) -> Outgoing | None:
        """The set's next game: its entrants at their seats, turned ``round`` places
        (None: none of its people can play it)."""
        lobby = self._lobby
        spec = games.get(ladder_set.game)
        n = len(ladder_set.entrants)
        order = [ladder_set.entrants[(i - ladder_set.round) % n] for i in range(n)]
        people = {}
        for seat, who in enumerate(order):
            session = lobby.sessions.get(who) if isinstance(who, int) else None
            if who in ladder_set.struck:
                session = None
            if session is not None and session.where is Where.LADDER:
                people[seat] = session
        if not people:  # every person of the set is gone or struck out: it ends
            return None
        ai_seats = tuple(s for s in range(n) if s not in people)
        anchors = [w for w in order if isinstance(w, str)]
        level = anchors[0] if anchors else "naive"
        table_id = lobby.tables.new_id()
        table = Table(
            table_id,
            f"ladder {table_id}",
            spec,
            n,
            ai_seats,
            ladder_set.seed,
            TableOptions(
                grace=lobby.limits.grace,
                turn_timeout=MOVE_TIME,
                clock=lobby.clock,
                ai=lobby.ai_seats.for_table(spec, level),
                rated=True,
                bank=BANK,
                strikes=STRIKES,
            ),
        )
        lobby.tables.add(table, None)
        ladder_set.tables.append(table_id)
        self.by_table[table_id] = ladder_set
        log.info(
            "ladder: table %d, %s set game %d of %d, seats %s",
            table_id, ladder_set.game, ladder_set.round + 1, n, order,
        )  # fmt: skip
        out: Outgoing = []
        assert table.bot_clock is not None
        clock = message(f"Ladder table {table_id}: the fair clock, {table.bot_clock.summary()}")
        for seat in sorted(people):  # people sit in the lowest free seat, in order
            session = people[seat]
            self.sets[session.conn] = ladder_set
            out.append((session.conn, clock))
            out += lobby.seating.sit(session, table)
        lobby.after(table)
        return out

    def is_ladder(self, table: Table) -> bool:
        return table.id in self.by_table

    def finished(self, table: Table, sessions: list[Session]) -> Outgoing:
        """A ladder table's game is over; ``sessions``: its people, back from it. The
        set's next game, or (the set over) its entrants queued again."""
        ladder_set = self.by_table.pop(table.id, None)
        if ladder_set is None:
            return []
        ladder_set.round += 1
        clock = table.bot_clock
        if clock is not None:
            for seat, conn in table.people():
                if clock.out(seat):
                    ladder_set.struck.add(conn)
        out: Outgoing = []
        for session in sessions:
            self._lobby.sessions.move(session, Where.LADDER)
        if ladder_set.round < len(ladder_set.entrants):
            started = self._start(ladder_set)
            if started is not None:
                return started
        sessions = [  # the set is over: its people still on the ladder queue again
            s
            for who in ladder_set.entrants
            if isinstance(who, int)
            and (s := self._lobby.sessions.get(who)) is not None
            and s.where is Where.LADDER
        ]
        for who in ladder_set.entrants:
            if isinstance(who, int):
                self.sets.pop(who, None)
        for session in sessions:
            out.append((session.conn, message("The set is over; you are on the ladder again")))
            out += self._queue(session)
        return out
