"""The fair clock of a ladder table: a time a move, a timebank, three strikes (no I/O).

Each seat has ``move`` seconds a move and a bank of ``bank`` seconds for the whole game.
A move that takes longer than ``move`` is paid for from the seat's bank; one that
empties the bank (no answer by ``move`` plus what is left in the bank) is a strike: the
bank is empty from then on and the naive AI plays that move. The ``strikes``-th strike
(the third) hands the seat to the naive AI for the rest of the game (the ladder plays it
for the rest of the set too, which the struck entrant loses: core/ladder.py).

The clock's settings are the table's (``settings``: the ``FairClock`` of its ``Table``
message and of its record's header), and what it does is in the record, a ``Clock``
line before the move it is about (``lines``; games/kit/records.py replays past them):

    {"Type":"Clock","Playerid":1,"Used":12.5,"Bank":47.5}   the move took 12.5 s over
    {"Type":"Clock","Playerid":1,"Strike":1}                 the naive AI played it
    {"Type":"Clock","Playerid":1,"Strike":3,"Out":true}      ... and the seat from now on

A table restored from the store gets its clock back from those lines (``replay``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: A game's record lines from a point of its history (``GameSpec.history_objects``).
HistoryLines = Callable[[Any, int], list[dict[str, Any]]]


@dataclass
class BotClock:
    """The clocks of a table's seats (see the module docstring)."""

    seats: int
    move: float
    bank: float
    strikes_allowed: int = 3
    banks: list[float] = field(default_factory=list)
    strikes: list[int] = field(default_factory=list)
    prompted: float = 0.0
    #: Clock lines not yet in the record: (the game's history length when it happened,
    #: so the line goes before the move that follows it, the line).
    pending: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    #: How much of the game's history is in the record (``lines``).
    noted: int = 0

    def __post_init__(self) -> None:
        self.banks = [self.bank] * self.seats
        self.strikes = [0] * self.seats

    def settings(self) -> dict[str, Any]:
        """The clock as the ``Table`` message and the record's header say it."""
        return {"Move": self.move, "Bank": self.bank, "Strikes": self.strikes_allowed}

    def deadline(self, seat: int, now: float) -> float:
        """``seat`` is prompted at ``now``: when its move is a strike."""
        self.prompted = now
        return now + self.move + self.banks[seat]

    def answered(self, seat: int, now: float, at: int = 0) -> None:
        """``seat`` moved at ``now`` (the game's history ``at`` long before the move):
        what it took over ``move`` comes off its bank."""
        over = now - self.prompted - self.move
        if over > 0:
            self.banks[seat] = max(0.0, self.banks[seat] - over)
            line = {"Type": "Clock", "Playerid": seat, "Used": round(over, 3)}
            self.pending.append((at, {**line, "Bank": round(self.banks[seat], 3)}))

    def strike(self, seat: int, at: int = 0) -> int:
        """``seat`` ran out of time (the game's history ``at`` long before the move
        played for it): its bank is gone and it has one more strike (how many now)."""
        self.banks[seat] = 0.0
        self.strikes[seat] += 1
        line: dict[str, Any] = {"Type": "Clock", "Playerid": seat, "Strike": self.strikes[seat]}
        if self.out(seat):
            line["Out"] = True
        self.pending.append((at, line))
        return self.strikes[seat]

    def out(self, seat: int) -> bool:
        """Whether ``seat`` has had its last strike."""
        return self.strikes[seat] >= self.strikes_allowed

    def out_seats(self) -> list[int]:
        return [seat for seat in range(self.seats) if self.out(seat)]

    def summary(self) -> str:
        return f"{self.move:g} s a move, a bank of {self.bank:g} s, {self.strikes_allowed} strikes"

    def lines(self, game: Any, history: HistoryLines) -> list[dict[str, Any]]:
        """The record lines of ``game``'s history since the last call, the clock's own
        lines each before the move it is about."""
        start, end = self.noted, len(game.history)
        due = sorted((e for e in self.pending if e[0] < end), key=lambda e: e[0])
        self.pending = [e for e in self.pending if e[0] >= end]
        out: list[dict[str, Any]] = []
        for at, obj in enumerate(history(game, start), start):
            while due and due[0][0] <= at:
                out.append(due.pop(0)[1])
            out.append(obj)
        out += [line for _, line in due]
        self.noted = end
        return out

    def replay(self, lines: Iterable[Mapping[str, Any]], history: int) -> None:
        """The clock as a restored game's record left it (its ``Clock`` lines), the
        game's ``history`` long and all of it in the record."""
        for line in lines:
            seat = line["Playerid"]
            if "Strike" in line:
                self.strikes[seat], self.banks[seat] = int(line["Strike"]), 0.0
            elif "Bank" in line:
                self.banks[seat] = float(line["Bank"])
        self.noted = history


def clock_from(settings: object, seats: int) -> BotClock | None:
    """The clock a record header's ``FairClock`` says (None: none, or not one)."""
    if not isinstance(settings, dict):
        return None
    move, bank, strikes = settings.get("Move"), settings.get("Bank"), settings.get("Strikes")
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (move, bank))
    if not numbers or type(strikes) is not int:
        return None
    return BotClock(seats, float(move), float(bank), strikes)  # type: ignore[arg-type]
