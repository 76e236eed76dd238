"""One table: seats, the game, prompts and re-prompts, AI seats (no I/O).

A table is fed with what connections say (``sit``, ``answer``, ``leave``) and returns
what each connection must be told, as ``(conn, message)`` pairs; the caller delivers
them. Chance is an input: each round's deck comes from the table's seed.

Who is told what is decided by the game's wire module (``messages_for``, ``prompt``),
so a seat's cards reach only that seat.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from hundred_server.bots.naive import NaiveBot
from hundred_server.errors import HundredError
from hundred_server.games import hundredandten_wire as wire
from hundred_server.games.hundredandten import Event, Game, Phase, seeded_deck
from hundred_server.protocol import Message, ProtocolError, error, field_int, message

Outgoing = list[tuple[int, Message]]
MIN_SEATS: Final = 2
MAX_SEATS: Final = 4


class TableState(enum.Enum):
    WAITING = "waiting"
    PLAYING = "playing"
    OVER = "over"


@dataclass
class Seat:
    """A seat's occupant: a person (``conn``) or an AI (``bot``)."""

    name: str
    conn: int | None = None
    bot: NaiveBot | None = None

    @property
    def is_person(self) -> bool:
        return self.conn is not None


class Table:
    """A table of ``seats`` seats, ``bots`` of them AI (seats 1 to ``bots``)."""

    def __init__(self, table_id: int, name: str, seats: int, bots: int, seed: str) -> None:
        if not MIN_SEATS <= seats <= MAX_SEATS or not 0 <= bots < seats:
            raise HundredError(f"a table has 2-4 seats and fewer bots, got {seats}/{bots}")
        self.id = table_id
        self.name = name
        self.game_name = wire.GAME
        self.seed = seed
        self.state = TableState.WAITING
        self.seats: list[Seat | None] = [None] * seats
        for i in range(bots):  # the creator sits at 0; the AI seats follow
            self.seats[1 + i] = Seat(f"AI {i + 1}", bot=NaiveBot())
        self.game: Game | None = None
        self.seq = 0

    # ------------------------------------------------------------------ queries

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
        }

    def people(self) -> list[tuple[int, int]]:
        """(seat, conn) of every person at the table."""
        return [
            (i, s.conn) for i, s in enumerate(self.seats) if s is not None and s.conn is not None
        ]

    def seat_of(self, conn: int) -> int | None:
        return next((seat for seat, c in self.people() if c == conn), None)

    def pending_prompt(self, conn: int) -> Message | None:
        seat = self.seat_of(conn)
        if seat is None or self.game is None or self.state is not TableState.PLAYING:
            return None
        return wire.prompt(self.game, seat, self.seq)

    # ------------------------------------------------------------------ seating

    def sit(self, conn: int, name: str) -> tuple[int, Outgoing]:
        """Seat a person in the lowest free seat; starts the game when the table is full."""
        if self.state is not TableState.WAITING or self.free == 0:
            raise ProtocolError(f"table {self.id} has no free seat", "table_full")
        taken = {s.name for s in self.seats if s is not None}
        unique, n = name, 2
        while unique in taken:
            unique, n = f"{name} ({n})", n + 1
        seat = self.seats.index(None)
        self.seats[seat] = Seat(unique, conn=conn)
        if self.free:
            return seat, self._to_people(self.info())
        return seat, self._start()

    def leave(self, conn: int) -> Outgoing:
        """A person leaves. Waiting: the seat is freed. Playing: an AI takes it over."""
        seat = self.seat_of(conn)
        if seat is None:
            return []
        occupant = self.seats[seat]
        assert occupant is not None
        if self.state is TableState.WAITING:
            self.seats[seat] = None
            return self._to_people(self.info())
        if self.state is TableState.OVER:
            occupant.conn = None
            return []
        occupant.conn, occupant.bot = None, NaiveBot()
        if not self.people():
            self.state = TableState.OVER  # nobody left to play for
            return []
        out = self._to_people(message(f"{occupant.name} left; an AI plays seat {seat} now"))
        if self.game is not None and self.game.to_act == seat:
            out += self._advance([])
        return out

    # ------------------------------------------------------------------ playing

    def answer(self, conn: int, msg: Message) -> Outgoing:
        """A person's answer to a prompt (or a pre-pass / unpass)."""
        seat = self.seat_of(conn)
        game = self.game
        if seat is None or game is None or self.state is not TableState.PLAYING:
            raise ProtocolError("no game is under way at your table", "not_now")
        try:
            playerid = field_int(msg, "Playerid")
            if playerid is not None and playerid != seat:
                raise ProtocolError(
                    f"you play seat {seat}, not Playerid {playerid}", "not_your_seat"
                )
            seq = field_int(msg, "Seq")
            if seq is not None and seq != self.seq:
                raise ProtocolError(
                    f"Seq {seq} is stale: the prompt is Seq {self.seq}", "stale_seq"
                )
            action = wire.parse_action(msg)
            to_act = game.to_act
            events = game.apply(seat, action)
        except HundredError as exc:
            return self._refuse(conn, seat, exc)
        if (
            game.to_act == to_act
            and not game.is_over
            and game.phase is Phase.BIDDING
            and seat != to_act
        ):
            return self._tell(events)  # a pre-pass or unpass: the same prompt stands
        return self._advance(events)

    def _refuse(self, conn: int, seat: int, exc: HundredError) -> Outgoing:
        out: Outgoing = [(conn, error(exc.code, exc.message))]
        assert self.game is not None
        again = wire.prompt(self.game, seat, self.seq)
        if again is not None:
            out.append((conn, again))
        return out

    def _start(self) -> Outgoing:
        self.state = TableState.PLAYING
        names = [s.name for s in self.seats if s is not None]
        self.game = Game(names)
        roster = ", ".join(
            f"{s.name}{'' if s.is_person else ' (AI)'}" for s in self.seats if s is not None
        )
        out = self._to_people(self.info())
        out += self._to_people(message(f"Table {self.id} ({self.name}) starts: {roster}"))
        return out + self._advance([])

    def _advance(self, events: list[Event]) -> Outgoing:
        """Deal when a round starts, let AI seats act, then prompt the person to act."""
        game = self.game
        assert game is not None
        while True:
            if game.phase is Phase.DEAL:
                events += game.deal(seeded_deck(self.seed, game.round_index))
                continue
            seat = game.to_act
            if seat is None:
                break
            occupant = self.seats[seat]
            assert occupant is not None
            if occupant.bot is None:
                break
            events += game.apply(seat, occupant.bot.act(game.view_for(seat)))
        out = self._tell(events)
        if game.is_over:
            self.state = TableState.OVER
            return out
        self.seq += 1
        public = wire.prompt(game, None, self.seq)  # one object for all but the actor
        for seat, conn in self.people():
            prompt = wire.prompt(game, seat, self.seq) if seat == game.to_act else public
            assert prompt is not None
            out.append((conn, prompt))
        return out

    def _tell(self, events: Sequence[Event]) -> Outgoing:
        out: Outgoing = []
        if not events:
            return out
        assert self.game is not None
        people = self.people()
        told = wire.tell(events, [seat for seat, _ in people], self.game.players)
        for seat, conn in people:
            out.extend((conn, m) for m in told[seat])
        return out

    def _to_people(self, msg: Message) -> Outgoing:
        return [(conn, msg) for _, conn in self.people()]
