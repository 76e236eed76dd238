"""What a table holds, apart from its game: its seats (people, with their tokens, and
AI), its watchers, its clocks, and the queries on them (no I/O).

``TableSeats`` is the base of ``Table`` (core/table.py, which plays the game and says
who is told what); the module docstring there says how a table behaves. The asks of
its plug-in seats are a part of their own (core/table_asks.py).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hundred_server.core.botclock import BotClock
from hundred_server.games.base import Bot, GameSpec, GameState
from hundred_server.protocol.errors import HundredError
from hundred_server.protocol.wire import Message

Outgoing = list[tuple[int, Message]]


class TableState(enum.Enum):
    WAITING = "waiting"
    PLAYING = "playing"
    OVER = "over"


@dataclass
class Seat:
    """A seat's occupant: a person (``conn``, ``token``) or an AI (``bot``).

    A person's seat whose connection is lost keeps its ``token``; it waits for them
    (``away_until``), then an AI plays it (``bot``) until they reclaim it.
    """

    name: str
    conn: int | None = None
    bot: Bot | None = None
    token: str | None = None  # the SHA-256 (hex) of the owner's token
    away_until: float | None = None
    #: Its prompts carry its view (``Views``: core/seat_views.py).
    views: bool = False

    @property
    def is_person(self) -> bool:
        return self.conn is not None

    @property
    def owned(self) -> bool:
        """A person's seat (held, waiting for its owner, or played for them by an AI)."""
        return self.token is not None


@dataclass(frozen=True)
class TableAI:
    """What plays a table's AI seats (the lobby decides): ``make`` a bot for a seat,
    ``name`` it in the ``Table`` messages' ``AI``, keep ``level`` (the built-in AI the
    table asked for) in the store, and ``pace`` its moves (one a step: it searches)."""

    make: Callable[[], Bot]
    name: str
    level: str
    pace: bool = False


@dataclass(frozen=True)
class TableOptions:
    """How a table is run, beyond its game and seats: the ``grace`` a lost connection's
    seat waits for its owner, the ``turn_timeout`` of a person's turn (None: no clock),
    the ``clock`` it reads, what plays its AI seats (``ai``; None: the game's default
    bot), its game's ``flags`` and whether it takes watchers (``watchable``)."""

    grace: float = 60.0
    turn_timeout: float | None = None
    clock: Callable[[], float] = time.monotonic
    ai: TableAI | None = None
    flags: frozenset[str] = frozenset()
    watchable: bool = True
    #: Whether the game is rated (``"Rated":true``): its seats are accounts'.
    rated: bool = False
    #: The ladder's fair clock (botclock.py): a bank of seconds a seat, over the turn
    #: clock's ``turn_timeout`` a move, and strikes (None: the plain turn clock).
    bank: float | None = None
    strikes: int = 3


#: The options of a table created with none given (tests, the demo).
DEFAULT_OPTIONS = TableOptions()


@dataclass(frozen=True)
class RestoredGame:
    """A game under way as the store keeps it: the ``game`` replayed from its record,
    each seat's name and owner's token hash (None: an AI's seat), the last prompt's
    ``seq``, and how many record lines are ``saved``."""

    game: GameState
    seats: Sequence[tuple[str, str | None]]
    seq: int
    saved: int = 0


class TableSeats:
    """A table's seats, watchers and clocks: a table of ``spec``'s game with ``seats``
    seats, AI at ``ai_seats``, played by ``options.ai`` (without it, the game's default
    bot, called naive)."""

    def __init__(
        self,
        table_id: int,
        name: str,
        spec: GameSpec,
        seats: int,
        ai_seats: Sequence[int],
        seed: str,
        options: TableOptions = DEFAULT_OPTIONS,
    ) -> None:
        if seats not in spec.seat_counts or len(set(ai_seats)) >= seats:
            raise HundredError(f"{spec.title} has no table of {seats} seats, AI at {ai_seats}")
        if any(not 0 <= s < seats for s in ai_seats):
            raise HundredError(f"no seat {max(ai_seats)} at a table of {seats}")
        self.spec = spec
        #: The table options its game is played with (``GameSpec.flags``).
        self.flags = options.flags
        self.ai = options.ai or TableAI(spec.bot, "naive", "naive")
        #: When the next AI move is due, at a table whose AI is paced (see the module
        #: docstring; None: none waits).
        self.ai_due: float | None = None
        self.grace = options.grace
        self.turn_timeout = options.turn_timeout
        self.clock = options.clock
        #: When the person to act runs out of time (None: no clock, or an AI's turn).
        self.turn_deadline: float | None = None
        self.id = table_id
        self.name = name
        self.game_name = spec.name
        self.seed = seed
        self.state = TableState.WAITING
        self.seats: list[Seat | None] = [None] * seats
        for i, seat in enumerate(sorted(ai_seats), 1):
            self.seats[seat] = Seat(f"AI {i}", bot=self.ai.make())
        self.game: GameState | None = None
        self.seq = 0
        #: Turns people have played here (a person's answer the rules took in turn). A
        #: table whose AI is paced does not prompt again at once after one, so ``seq``
        #: alone cannot tell the rate limit that an answer moved the game on.
        self.turns = 0
        #: Record lines of the game saved to the store so far (the journal keeps count:
        #: ``note_saved``).
        self.saved = 0
        #: Whether a person has made a move here: a table nobody played in is abandoned
        #: when its last person's grace runs out, not played out by the AI.
        self.touched = False
        #: Whether the table takes watchers (``"Watchers":false`` at its creation: no).
        self.watchable = options.watchable
        #: Whether the game is rated (its people are accounts; core/ratings.py).
        self.rated = options.rated
        #: The fair clock (botclock.py), at a ladder table (None: none).
        self.bot_clock = (
            None
            if options.bank is None or options.turn_timeout is None
            else BotClock(seats, options.turn_timeout, options.bank, options.strikes)
        )
        #: The watchers' connections, in the order they came.
        self.watchers: list[int] = []
        #: Fields its record's header carries beside the game's (a ladder table's set:
        #: core/ladder.py; its fair clock's are added by the journal).
        self.header: dict[str, Any] = {}
        #: Seats an AI plays that are rated as an account's all the same (a ladder
        #: entrant struck out of its set, who loses its later games): their
        #: ``ratings.seat_entry``.
        self.rated_seats: dict[int, dict[str, Any]] = {}

    @property
    def free(self) -> int:
        return sum(seat is None for seat in self.seats)

    def names(self) -> list[str | None]:
        return [None if s is None else s.name for s in self.seats]

    def info(self) -> Message:
        """The ``Table`` message: this table as the lobby shows it."""
        return {
            "Type": "Table",
            "Table": self.id,
            "Name": self.name,
            "Game": self.game_name,
            "Seats": len(self.seats),
            "Free": self.free,
            "Players": self.names(),
            "AI": self.ai.name,
            **({"Flags": sorted(self.flags)} if self.flags else {}),
            **({} if self.bot_clock is None else {"FairClock": self.bot_clock.settings()}),
            "Watchers": len(self.watchers),
        }

    def people(self) -> list[tuple[int, int]]:
        """(seat, conn) of every person at the table."""
        return [
            (i, s.conn) for i, s in enumerate(self.seats) if s is not None and s.conn is not None
        ]

    def audience(self) -> list[int]:
        """Every connection at the table: its people's, then its watchers'."""
        return [conn for _, conn in self.people()] + self.watchers

    def seat_of(self, conn: int) -> int | None:
        for seat, occupant in enumerate(self.seats):  # asked of every answer: no list
            if occupant is not None and occupant.conn == conn:
                return seat
        return None

    @property
    def deadline(self) -> float | None:
        """When the table next needs a ``tick`` (None: only when a connection acts)."""
        if self.state is not TableState.PLAYING:
            return None
        times = [s.away_until for s in self.seats if s is not None and s.away_until is not None]
        if self.turn_deadline is not None:
            times.append(self.turn_deadline)
        if self.ai_due is not None:
            times.append(self.ai_due)
        return min(times, default=None)

    def tokens(self) -> list[str]:
        """The token hashes of the table's person seats."""
        return [s.token for s in self.seats if s is not None and s.token is not None]

    def owner_of(self, token: str) -> int | None:
        """The seat whose token hash is ``token``, while its game goes on."""
        if self.state is not TableState.PLAYING:
            return None
        return next(
            (i for i, s in enumerate(self.seats) if s is not None and s.token == token), None
        )

    def _awaited(self) -> bool:
        """Whether a person holds a seat here or a seat waits for its owner."""
        return bool(self.people()) or any(
            s is not None and s.away_until is not None for s in self.seats
        )

    def restart_clocks(self) -> None:
        """The table was paused (the store failed): the turn clock and the grace periods
        start afresh, as its people see where the game stands only now."""
        now = self.clock()
        if self.turn_deadline is not None and self.turn_timeout is not None:
            self.turn_deadline = now + self.turn_timeout
        for occupant in self.seats:
            if occupant is not None and occupant.away_until is not None:
                occupant.away_until = max(occupant.away_until, now + self.grace)

    def dismiss_watchers(self) -> list[int]:
        """Every watcher goes (the table is gone): their connections, in order."""
        watchers, self.watchers = self.watchers, []
        return watchers

    def _strike(self, seat: int, at: int) -> str:
        """A strike for ``seat`` on the fair clock (the game's history ``at`` long
        before the move played for it; what to add to the message); the last hands
        the seat to the naive AI for the rest of the game."""
        clock, occupant = self.bot_clock, self.seats[seat]
        if clock is None or occupant is None:
            return ""
        count = clock.strike(seat, at)
        if not clock.out(seat):
            return f" (strike {count} of {clock.strikes_allowed}; its bank is empty)"
        occupant.bot = self.spec.bot()
        return f" (strike {count}: the naive AI plays seat {seat} for the rest)"

    def _struck_bot(self, seat: int) -> Bot | None:
        """What plays ``seat`` when its owner takes it back: the naive AI if the fair
        clock struck it out (a token does not undo the last strike), else its owner."""
        clock = self.bot_clock
        return self.spec.bot() if clock is not None and clock.out(seat) else None

    def _actor(self) -> int | None:
        return None if self.game is None else self.game.to_act

    def _to_people(self, msg: Message) -> Outgoing:
        """``msg`` to everyone at the table: its people and its watchers."""
        return [(conn, msg) for conn in self.audience()]
