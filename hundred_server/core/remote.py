"""AI seats played by plug-in bots out of process: what the sans-I/O core keeps of them
and asks for (no I/O).

A table never calls plug-in code. When a seat played by a plug-in must act, the table
emits ``AskBot(table, seat, ask, plugin, view)``; the lobby keeps it for the server
(``AISeats.take``, ai_seats.py), which runs the move in the plug-in's worker
process within its limits (bots/runner.py) and brings back the answer,
``Hub.bot_answer(table, seat, ask, choice, fault)``: ``choice`` is an index into
``view.legal`` (the worker never sends an action, only which of the table's own it
picked), or ``fault`` says why there is none (it took too long, its worker crashed or
ran out of memory, it raised, it answered something that is no legal move). An answer
whose ``ask`` is not the table's current one is stale and dropped.

A fault is a **forfeit**: the game's default AI plays that turn, a warning is logged
with the table, seat and why, and the plug-in's count goes up (``Forfeits``, which a
tournament reads). A seat whose plug-in forfeits ``STRIKES`` moves in a row is
**benched**: the default AI plays it for the rest of the game without asking, each of
those moves a forfeit too, so a plug-in that hangs or crashes on every move costs its
table a few time limits, not one a move, and the server no endless restarts.

A built-in AI that searches (the ``strong`` level) is asked the same way when the server
has a pool of AI workers (``serve --ai-workers N``, bots/pool.py): its seat is a
``PoolSeat``, whose asks carry ``builtin``, the game, level and options of the bot the
worker makes (``BuiltinAI``), so the worker plays exactly the move the table's own bot
would have played in process (a strong bot's move is a function of its settings and
the view: its random generator is keyed from its seed and the view). A fault there is
no plug-in's: the naive AI plays that one move (a **stand-in**, logged and counted in
``stand_ins``), and the seat is never benched.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from hundred_server.games.base import Bot

log = logging.getLogger("hundred_server")

#: Forfeits in a row that bench a plug-in's seat for the rest of its game.
STRIKES: Final = 3

#: Forfeits by plug-in (its label, ``GAME=module:Class``), for tournaments.
Forfeits = Counter[str]


@dataclass(frozen=True)
class BuiltinAI:
    """A built-in AI as a worker makes it: ``game``'s bot ``level`` (``GameSpec.bots``)
    with the keyword ``options`` (its ``budget``, if the server sets one)."""

    game: str
    level: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        return f"{self.game} {self.level} AI"

    def make(self) -> Bot:
        from hundred_server import games  # here: the registry imports every game

        return games.get(self.game).bots[self.level](**dict(self.options))


@dataclass(frozen=True)
class AskBot:
    """Run ``plugin``'s move for ``seat`` at ``table`` on ``view``; answer with ``ask``.
    ``builtin``: the move is a built-in AI's (``PoolSeat``), for the AI pool."""

    table: int
    seat: int
    ask: int
    plugin: str
    view: Any
    builtin: BuiltinAI | None = None


@dataclass(frozen=True)
class ReleaseBots:
    """``table`` is gone: its plug-in workers may stop."""

    table: int


BotRequest = AskBot | ReleaseBots


@dataclass
class PluginSeat:
    """An AI seat played by the plug-in ``plugin`` (its label), with the default AI
    (``fallback``) standing in for forfeits. ``act`` is the stand-in's move, for a
    benched seat only: a seat that is not benched is asked (``AskBot``), not called."""

    plugin: str
    fallback: Bot
    forfeits: Forfeits = field(default_factory=Counter)
    #: Forfeits in a row (a move of its own sets it back to 0).
    strikes: int = 0

    @property
    def benched(self) -> bool:
        return self.strikes >= STRIKES

    def played(self) -> None:
        """The plug-in's own move was played."""
        self.strikes = 0

    def forfeit(self, where: str, why: str) -> None:
        """The plug-in's move at ``where`` is forfeit (``why``): counted and logged; the
        caller plays ``fallback``'s move."""
        self.strikes += 1
        self.forfeits[self.plugin] += 1
        log.warning(
            "%s: plug-in %s forfeits its move: %s; the default AI plays it",
            where, self.plugin, why,
        )  # fmt: skip
        if self.benched:
            log.warning(
                "%s: plug-in %s forfeited %d moves in a row; the default AI plays the seat "
                "for the rest of the game (every move a forfeit)",
                where, self.plugin, STRIKES,
            )  # fmt: skip

    def act(self, view: Any) -> Any:
        """A benched seat's move: the stand-in's, counted as a forfeit."""
        self.forfeits[self.plugin] += 1
        return self.fallback.act(view)

    def ask(self, table: int, seat: int, ask: int, view: Any) -> AskBot:
        """The request for this seat's move on ``view``."""
        return AskBot(table, seat, ask, self.plugin, view)


@dataclass
class PoolSeat(PluginSeat):
    """An AI seat played by the built-in AI ``builtin`` in the server's AI pool, asked
    like a plug-in's seat; ``fallback`` (the naive AI) plays a move the pool could not
    answer, counted in ``forfeits`` (the lobby's ``stand_ins``) by game. Never benched:
    a worker that failed is replaced, and the next move is asked of the pool again."""

    builtin: BuiltinAI = field(default_factory=lambda: BuiltinAI("", ""))

    @property
    def benched(self) -> bool:
        return False

    def forfeit(self, where: str, why: str) -> None:
        self.forfeits[self.builtin.game] += 1
        log.warning(
            "%s: the %s cannot play this move: %s; the naive AI plays it",
            where, self.builtin.label, why,
        )  # fmt: skip

    def ask(self, table: int, seat: int, ask: int, view: Any) -> AskBot:
        return AskBot(table, seat, ask, self.plugin, view, self.builtin)
