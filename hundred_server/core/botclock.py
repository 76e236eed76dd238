"""The fair clock of a ladder table: a time a move, a timebank, three strikes (no I/O).

Each seat has ``move`` seconds a move and a bank of ``bank`` seconds for the whole game.
A move that takes longer than ``move`` is paid for from the seat's bank; one that
empties the bank (no answer by ``move`` plus what is left in the bank) is a strike: the
bank is empty from then on and the naive AI plays that move. The ``strikes``-th strike
(the third) hands the seat to the naive AI for the rest of the game (the ladder plays it
for the rest of the set too, which the struck entrant loses).
"""

from __future__ import annotations

from dataclasses import dataclass, field


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

    def __post_init__(self) -> None:
        self.banks = [self.bank] * self.seats
        self.strikes = [0] * self.seats

    def deadline(self, seat: int, now: float) -> float:
        """``seat`` is prompted at ``now``: when its move is a strike."""
        self.prompted = now
        return now + self.move + self.banks[seat]

    def answered(self, seat: int, now: float) -> None:
        """``seat`` moved at ``now``: what it took over ``move`` comes off its bank."""
        over = now - self.prompted - self.move
        if over > 0:
            self.banks[seat] = max(0.0, self.banks[seat] - over)

    def strike(self, seat: int) -> int:
        """``seat`` ran out of time: its bank is gone and it has one more strike (how
        many now)."""
        self.banks[seat] = 0.0
        self.strikes[seat] += 1
        return self.strikes[seat]

    def out(self, seat: int) -> bool:
        """Whether ``seat`` has had its last strike."""
        return self.strikes[seat] >= self.strikes_allowed

    def summary(self) -> str:
        return f"{self.move:g} s a move, a bank of {self.bank:g} s, {self.strikes_allowed} strikes"
