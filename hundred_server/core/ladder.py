"""The ladder: accounts queue for a game and are paired by rating into duplicate sets
(no I/O).

``{"Type":"Hello","Message":"ladder","Game":G}`` from an account (a ``Key`` in the same
or an earlier ``Hello``) queues the connection for ``G`` (``Where.LADDER``). The ladder
makes a set as soon as it can: the connection that has waited longest and the others
nearest its rating (openskill's mu in ``G``; a new account's is openskill's default),
as many as the game's smallest table (``GameSpec.seat_counts``) has seats. One that
has waited ``ANCHOR_WAIT`` seconds without enough others gets the built-in anchors at
the empty seats (the naive AI, or the strong one if its rating is nearer the strong
anchor's: core/ratings.py), so a lone bot always has games. The ratings it pairs by are
kept here (``mus``), never asked of the store while queueing: the server fills them
from the store at start and as its rating writer rates games (io/ratings.py).

A **set** is its seats' count of rated games dealt from one seed, the seats turned one
place each game, so each entrant plays each seat's cards once and the luck of the deal
cancels. Its entrants are accounts (by account id, never by connection) or anchors.
Each game of the set is rated as it ends (a rated table: core/ratings.py). When a set
is over, its entrants queue again at once: a ladder connection plays until it leaves
(``Hello`` ``quit``, or it goes). An entrant whose connection is gone is played by the
naive AI for the rest of its set (its seat an AI seat, rated as the anchor's); if none
of a set's entrants is on the ladder when its next game is due, the set waits
``SET_WAIT`` seconds for them (an entrant that queues again meanwhile goes back to its
set), then goes on with those back, or ends.

Each ladder table has the fair clock (core/botclock.py): ``MOVE_TIME`` seconds a move
and a bank of ``BANK`` seconds for the slow ones; a move that empties the bank is a
strike (the naive AI plays it), and the ``STRIKES``-th hands the seat to the naive AI
for the rest of the set, which the struck entrant **loses**: the game of its last strike
is rated with it ranked last whatever the score, and so is each later game of its set
(its seat is the naive AI's, and the account, not the AI, is rated there: the table's
``rated_seats``). The result of such a game says which seats were struck (``Struck``,
core/ratings.py ranks them last). When no entrant is left to play a set's later games
(the struck one was alone with the anchors), each of them is rated at once as a
forfeit, a rated game of its own id with no record, lost by the struck accounts. The
clock is in the table's ``Table`` message and its record, and told to its people as each
game starts.

**In the store.** A set's state is in its tables' records: a ladder table's record
header has a ``Ladder`` field (its entrants by account name, the game's round in the
set, who is struck, the set's earlier tables), written with the game's start, saved
before anything of it is sent (core/journal.py). A server restarted (or, on a site,
another instance that takes a table over) restores the table as it restores any
(core/restore.py) and ``adopt`` knows it as its set's again: when its game ends the set
goes on, its entrants back on the ladder (a bot that took its seat back with its token,
or one that queues again for the game, finds its set). Between two games of a set
nothing is unsaved but the set's wait for entrants who are away (``SET_WAIT``): a server
stopped in that wait forgets the set's later games.

**One seed a set, kept until the set is over.** A set's games deal from one seed (the
same cards, the seats turned), so what a game of it shows once it is over (its seed,
``Reveal``; its record, every ``Deal``'s ``Deck``, ``GET /api/games/ID``) would show
every hand of the set's later games. A game that is not its set's last (``seed_kept``)
reveals nothing when it ends, and its record is served only once the set is over
(``set_over``): its last game has ended, or none of its games is under way and the newest
ended ``SET_OVER_AFTER`` seconds ago (a set's next game is under way within ``SET_WAIT``
of the last one's end, or never). The set's last game reveals the seed (the same
``Hash`` its every game committed to).

**On a site of several instances**, accounts, ratings and the sets' tables are in the
shared store (PostgreSQL), and a set's table goes on on whichever instance plays it. The
queue is per instance: a connection is paired with those queued on the same instance,
and anchors fill a lone one's set there.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from hundred_server import games
from hundred_server.core.names import fold
from hundred_server.core.ratings import (
    ANCHORS,
    START_MU,
    GameOver,
    RatedStart,
    pool_of,
    seat_entry,
)
from hundred_server.core.sessions import Session, Where, check_plays
from hundred_server.core.table import Outgoing, Table, TableOptions
from hundred_server.protocol.errors import Refused
from hundred_server.protocol.wire import message

if TYPE_CHECKING:
    from hundred_server.core.lobby import Lobby

log = logging.getLogger("hundred_server")

#: Seconds a lone entrant waits for others before the anchors fill its set.
ANCHOR_WAIT: Final = 2.0
#: Seconds a set whose next game is due waits for its entrants when none of them is on
#: the ladder (they are away: a restart, a lost connection).
SET_WAIT: Final = 30.0
#: Seconds after the newest game of a set ended, none under way, when the set is
#: over for certain (``set_over``): its wait for entrants, and the store's write of a
#: next game, are long over.
SET_OVER_AFTER: Final = 4 * SET_WAIT
#: The fair clock of a ladder table (botclock.py): seconds a move, the bank of seconds
#: a seat has for the game's slow moves, and the strikes.
MOVE_TIME: Final = 5.0
BANK: Final = 60.0
STRIKES: Final = 3


@dataclass(frozen=True)
class Entrant:
    """One entrant of a set: an account (its name as registered, whether a bot) or a
    built-in anchor (``anchor``: its level, the name is the anchor's)."""

    name: str
    bot: bool = True
    anchor: bool = False

    @property
    def account(self) -> str | None:
        """The account id (None: an anchor)."""
        return None if self.anchor else fold(self.name)

    def saved(self) -> dict[str, Any]:
        if self.anchor:
            return {"Anchor": self.name}
        return {"Account": self.name, "Bot": self.bot}

    @classmethod
    def read(cls, value: Any) -> Entrant:
        if isinstance(value.get("Anchor"), str) and value["Anchor"] in ANCHORS:
            return cls(value["Anchor"], anchor=True)
        name, bot = value["Account"], value.get("Bot", True)
        if not isinstance(name, str) or not isinstance(bot, bool):
            raise ValueError(f"not an entrant: {value!r}")
        return cls(name, bot)


@dataclass(eq=False)
class LadderSet:
    """One duplicate set: its game, seed, entrants in the first game's seat order, and
    the game it is at (0-based)."""

    game: str
    seed: str
    entrants: list[Entrant]
    round: int = 0
    tables: list[int] = field(default_factory=list)
    #: Accounts struck out (the fair clock's last strike): the AI's for the rest.
    struck: set[str] = field(default_factory=set)
    #: Each entrant account's connection as last known (it may be gone, or another
    #: account's by now: checked when used).
    conns: dict[str, int] = field(default_factory=dict)
    #: Since when the set waits for its entrants (None: it does not wait).
    waiting: float | None = None

    def entrant_at(self, seat: int) -> Entrant:
        """Who plays ``seat`` in the set's current game (the seats turn each game)."""
        n = len(self.entrants)
        return self.entrants[(seat - self.round) % n]

    def live(self) -> list[str]:
        """The entrant accounts not struck out."""
        return [a for e in self.entrants if (a := e.account) is not None and a not in self.struck]

    def header(self) -> dict[str, Any]:
        """The ``Ladder`` field of the set's current game's record header."""
        struck = [i for i, e in enumerate(self.entrants) if e.account in self.struck]
        return {
            "Ladder": {
                "Entrants": [e.saved() for e in self.entrants],
                "Round": self.round,
                "Struck": struck,
                "Tables": list(self.tables),
            }
        }

    @classmethod
    def read(cls, game: str, seed: str, value: Any, table_id: int) -> LadderSet:
        """The set a ladder table's header (``header``) says, at that table's game."""
        entrants = [Entrant.read(e) for e in value["Entrants"]]
        struck = {entrants[i].account for i in value["Struck"]}
        tables = [int(t) for t in value["Tables"]]
        round_ = value["Round"]
        if type(round_) is not int or not 0 <= round_ < len(entrants) or table_id in tables:
            raise ValueError(f"not a set's game: {value!r}")
        return cls(game, seed, entrants, round_, tables, {a for a in struck if a is not None})


@dataclass
class Waiting:
    conn: int
    mu: float
    since: float


class Ladder:
    """The lobby's ladder (see the module docstring)."""

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby
        #: (account id, game) -> mu, as the store has it (the server fills it; an
        #: account missing is rated nowhere yet, or not known here yet: ``START_MU``).
        self.mus: dict[tuple[str, str], float] = {}
        self.queues: dict[str, list[Waiting]] = {}
        #: The sets under way by table id, and those waiting for their entrants.
        self.by_table: dict[int, LadderSet] = {}
        self.waiting: list[LadderSet] = []

    def rating(self, account: str, game: str) -> float | None:
        """``account``'s mu in ``game`` (None: none known)."""
        return self.mus.get((account, game))

    def rated(self, ratings: Iterable[tuple[str, str, float]]) -> None:
        """Ratings the store has now: (account id, game, mu)."""
        for account, game, mu in ratings:
            self.mus[account, game] = mu

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
        account = fold(session.account.name)
        for ladder_set in self.waiting:  # its set waits for it: back to it
            if ladder_set.game == game and account in ladder_set.live():
                ladder_set.conns[account] = session.conn
                if all(self._here(ladder_set, a) is not None for a in ladder_set.live()):
                    return self._go_on(ladder_set)
                return []
        mu = self.rating(account, game)
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
        """When a lone entrant's wait for others runs out, or a set's for its entrants
        (``tick``)."""
        due = [q[0].since + ANCHOR_WAIT for q in self.queues.values() if q]
        due += [s.waiting + SET_WAIT for s in self.waiting if s.waiting is not None]
        return min(due, default=None)

    def tick(self) -> Outgoing:
        out: Outgoing = []
        now = self._lobby.clock()
        for ladder_set in list(self.waiting):
            if ladder_set.waiting is not None and ladder_set.waiting + SET_WAIT <= now:
                out += self._go_on(ladder_set)
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
            ladder_set = LadderSet(game, self._lobby.seed_source(), [])
            for w in chosen:
                account = self._lobby.sessions[w.conn].account
                assert account is not None
                ladder_set.entrants.append(Entrant(account.name, account.bot))
                ladder_set.conns[fold(account.name)] = w.conn
            ladder_set.entrants += [Entrant(level, anchor=True)] * (seats - len(chosen))
            out += self._start(ladder_set) or []
        return out

    def _here(self, ladder_set: LadderSet, account: str) -> Session | None:
        """The session of ``account`` if it is on the ladder for the set's game."""
        conn = ladder_set.conns.get(account)
        session = None if conn is None else self._lobby.sessions.get(conn)
        if session is None or session.where is not Where.LADDER or session.account is None:
            return None
        if fold(session.account.name) != account or session.ladder != ladder_set.game:
            return None
        return session

    def _start(self, ladder_set: LadderSet) -> Outgoing | None:
        """The set's next game: its entrants at their seats, turned ``round`` places
        (None: none of its people can play it)."""
        lobby = self._lobby
        spec = games.get(ladder_set.game)
        n = len(ladder_set.entrants)
        order = [ladder_set.entrant_at(seat) for seat in range(n)]
        people = {}
        stand_ins = {}
        for seat, who in enumerate(order):
            account = who.account
            if account is None:
                continue
            if account in ladder_set.struck:  # lost: the AI plays it, the account is rated
                stand_ins[seat] = seat_entry(account, who.name, pool_of(who.bot))
                continue
            session = self._here(ladder_set, account)
            if session is not None:
                people[seat] = session
        if not people:  # every person of the set is gone or struck out
            return None
        ai_seats = tuple(s for s in range(n) if s not in people)
        anchors = [w.name for w in order if w.anchor]
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
        for seat in stand_ins:  # a struck entrant's seat: the naive AI's
            occupant = table.seats[seat]
            assert occupant is not None
            occupant.bot = spec.bot()
        table.rated_seats = stand_ins
        table.header = ladder_set.header()
        lobby.tables.add(table, None)
        ladder_set.tables.append(table_id)
        self.by_table[table_id] = ladder_set
        log.info(
            "ladder: table %d, %s set game %d of %d, seats %s",
            table_id, ladder_set.game, ladder_set.round + 1, n, [w.name for w in order],
        )  # fmt: skip
        out: Outgoing = []
        assert table.bot_clock is not None
        clock = message(f"Ladder table {table_id}: the fair clock, {table.bot_clock.summary()}")
        for seat in sorted(people):  # people sit in the lowest free seat, in order
            session = people[seat]
            out.append((session.conn, clock))
            out += lobby.seating.sit(session, table)
        lobby.after(table)
        return out

    # ------------------------------------------------------------------ a game's end

    def is_ladder(self, table: Table) -> bool:
        return table.id in self.by_table

    def is_entrant(self, table: Table, session: Session) -> bool:
        """Whether ``session`` is an account entrant of ``table``'s set (one that took
        its seat back with its token after a restart is on the ladder again)."""
        ladder_set = self.by_table.get(table.id)
        account = session.account
        if ladder_set is None or account is None:
            return False
        return any(e.account == fold(account.name) for e in ladder_set.entrants)

    def struck_seats(self, table: Table) -> list[int]:
        """The seats of ``table`` (a ladder table whose game ends) whose entrants are
        struck out: before it (their seats the AI's) or in it (the clock's)."""
        ladder_set = self.by_table.get(table.id)
        if ladder_set is None:
            return []
        n = len(ladder_set.entrants)
        seats = {s for s in range(n) if ladder_set.entrant_at(s).account in ladder_set.struck}
        if table.bot_clock is not None:
            seats.update(table.bot_clock.out_seats())
        return sorted(seats)

    def adopt(self, table: Table) -> None:
        """``table``, restored from the store, is its set's game again (its record
        header's ``Ladder``: ``LadderSet.header``)."""
        value = table.header.get("Ladder")
        if value is None:
            return
        try:
            ladder_set = LadderSet.read(table.game_name, table.seed, value, table.id)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            log.warning(
                "table %d: its ladder set cannot be read (%s); a table alone", table.id, exc
            )
            return
        ladder_set.tables.append(table.id)
        self.by_table[table.id] = ladder_set

    def finished(self, table: Table, sessions: list[Session]) -> Outgoing:
        """A ladder table's game is over; ``sessions``: its people, back from it. The
        set's next game, or (the set over) its entrants queued again."""
        struck = self.struck_seats(table)
        ladder_set = self.by_table.pop(table.id, None)
        if ladder_set is None:
            return []
        for seat in struck:
            account = ladder_set.entrant_at(seat).account
            if account is not None:
                ladder_set.struck.add(account)
        ladder_set.round += 1
        for session in sessions:
            self._lobby.sessions.move(session, Where.LADDER)
            session.ladder = ladder_set.game
            assert session.account is not None
            ladder_set.conns[fold(session.account.name)] = session.conn
        return self._go_on(ladder_set)

    def _go_on(self, ladder_set: LadderSet) -> Outgoing:
        """The set's next game with those of its entrants on the ladder; if none is, it
        waits for them (``SET_WAIT``), then it is over."""
        if ladder_set in self.waiting:
            self.waiting.remove(ladder_set)
        if ladder_set.round < len(ladder_set.entrants):
            started = self._start(ladder_set)
            if started is not None:
                ladder_set.waiting = None
                return started
            if ladder_set.waiting is None and ladder_set.live():  # away: wait for them
                ladder_set.waiting = self._lobby.clock()
                self.waiting.append(ladder_set)
                return []
        self._forfeits(ladder_set)
        out: Outgoing = []
        for account in [e.account for e in ladder_set.entrants]:
            # The set is over: its people still on the ladder queue again.
            session = None if account is None else self._here(ladder_set, account)
            if session is not None:
                out.append((session.conn, message("The set is over; you are on the ladder again")))
                out += self._queue(session)
        return out

    def _forfeits(self, ladder_set: LadderSet) -> None:
        """The set's games nobody is left to play, each rated at once as lost by its
        struck entrants (the others' seats are the anchor's, whose rating is fixed)."""
        if not ladder_set.struck:
            return
        lobby = self._lobby
        spec = games.get(ladder_set.game)
        n = len(ladder_set.entrants)
        anchors = [e.name for e in ladder_set.entrants if e.anchor]
        level = anchors[0] if anchors else "naive"
        sides = spec.sides if spec.sides is not None and len(spec.sides) == n else None
        while ladder_set.round < n:
            seats: list[dict[str, Any] | None] = []
            struck = []
            for seat in range(n):
                who = ladder_set.entrant_at(seat)
                if who.account in ladder_set.struck:
                    struck.append(seat)
                    seats.append(seat_entry(who.account, who.name, pool_of(who.bot)))
                else:
                    seats.append(seat_entry(fold(level), level, "bots", anchor=True))
            try:
                game_id = lobby.tables.new_id()
            except Refused:
                log.warning("ladder: no id for a forfeit of the set of %s", ladder_set.tables)
                return
            teams = sides if sides is not None else list(range(n))
            winner = next(teams[s] for s in range(n) if s not in struck)
            result = {
                "Winner": winner,
                "Score": [0] * (max(teams) + 1),
                "Struck": struck,
                "Text": "forfeited: struck out of the set by the fair clock",
            }
            lobby.rating_events.append(
                RatedStart(
                    game_id, ladder_set.game, tuple(seats), None if sides is None else tuple(sides)
                )
            )
            lobby.rating_events.append(GameOver(game_id, result))
            log.info("ladder: game %d of the set of %s forfeited", game_id, ladder_set.tables)
            ladder_set.round += 1


# ---------------------------------------------------------------------- one seed a set


def seed_kept(header: Mapping[str, Any]) -> bool:
    """Whether the game whose record header is ``header`` is a ladder set's game but its
    last: the set's later games deal from its seed, so neither its seed nor its record
    is shown before the set is over (the module docstring)."""
    value = header.get("Ladder")
    if not isinstance(value, dict):
        return False
    entrants, round_ = value.get("Entrants"), value.get("Round")
    return isinstance(entrants, list) and type(round_) is int and round_ < len(entrants) - 1


def set_over(
    games_of_seed: Iterable[tuple[Mapping[str, Any], str, float | None]], now: float
) -> bool:
    """Whether a ladder set is over, from its games in the store (each: its record
    header, its state, and when it ended, in seconds of the epoch, None if it has not):
    none of them is under way, and its last game has ended or the newest ended
    ``SET_OVER_AFTER`` seconds before ``now``."""
    found = list(games_of_seed)
    if not found or any(state == "playing" for _, state, _ in found):
        return False
    if any("Ladder" in header and not seed_kept(header) for header, _, _ in found):
        return True  # the set's last game has ended
    ended = [when for _, _, when in found if when is not None]
    return bool(ended) and now - max(ended) >= SET_OVER_AFTER
