"""``hundred-server check-bot GAME=module:Class``: does a plug-in bot keep the rules of
its shape? (docs/plugins.md)

The checks are the ones an assignment's test script makes, in its order: the module
imports, it has the class, the class has the method of its shape, the method takes
the shape's parameters without defaults, the class can be made; then, over many random
positions of the game (``positions``, dealt from ``seed``), that the method answers
within the time limit without raising or crashing, and each of the shape's checks of
its answers (``PluginShape.checks``; for the general shape, that ``act`` returns one
of ``view.legal``). Each check is printed as ``PASS what`` or ``FAIL what: why``; the
result is True only if all pass.

The plug-in runs in its worker, as it would in the server, with the same limits: one
that hangs, loops, allocates without end or exits fails its checks and never stops the
checker. Once it has failed ``STRIKES`` moves in a row by time-outs, crashes or running
out of memory (each costly: a new worker, or a full address space), the
positions left are not asked (a plug-in that sleeps on every move costs the checker a
few time limits, not one a position).
"""

from __future__ import annotations

import random
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from hundred_server import games
from hundred_server.ai.plugins import BotLimits, Plugin, PluginBot, start_checked
from hundred_server.core import driver
from hundred_server.core.remote import STRIKES
from hundred_server.games.base import GameSpec, GameState, is_over, needs_deal, player_names

#: Fault kinds that are no answer at all (the rest are answers that are no move), as
#: the summary of a failed check counts them.
_KIND_TEXT = {
    "raised": "raised",
    "exit": "called sys.exit",
    "memory": "ran out of memory",
    "timeout": "took too long",
    "crash": "crashed or exited",
    "start": "could not start",
}
_NO_ANSWER = frozenset(_KIND_TEXT)


@dataclass
class _Tally:
    what: str
    failed: int = 0
    asked: int = 0
    first: str = ""
    not_checked: str = ""
    kinds: Counter[str] = field(default_factory=Counter)


@dataclass
class Position:
    """A game where some seat is to act, and how it was reached."""

    game: GameState
    seat: int
    seed: str
    moves: int

    def describe(self, index: int) -> str:
        return f"position {index} (seed {self.seed!r}, seat {self.seat}, after {self.moves} moves)"


def random_position(spec: GameSpec, seed: str, rng: random.Random) -> Position:
    """A position of ``spec``'s game dealt from ``seed``: random legal moves from the
    start, a random number of them (the game not over, someone to act)."""
    seats = spec.seat_counts[0]
    game = spec.new_game(player_names(seats), seed)
    wanted = rng.randrange(0, 60)
    moves = 0
    while True:
        if needs_deal(game):
            driver.step(game, spec, seed, [None] * seats)
            continue
        seat = game.to_act
        assert seat is not None  # a game that is not over has a seat to act
        if moves >= wanted:
            return Position(game, seat, seed, moves)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        moves += 1
        if is_over(game):  # start again, with fewer moves
            game, moves, wanted = spec.new_game(player_names(seats), seed), 0, wanted // 2


def check_bot(
    plugin: Plugin,
    positions: int = 200,
    seed: str | None = None,
    limits: BotLimits | None = None,
    say: Callable[[str], None] = print,
) -> bool:
    """Run the checks (see the module docstring), printing each with ``say``."""
    limits = limits or BotLimits()
    spec = games.get(plugin.game)
    seed = str(uuid.uuid4()) if seed is None else seed
    worker, checks, why = start_checked(plugin, limits)
    passed = True
    for what, ok, reason in checks:
        say(f"PASS {what}" if ok else f"FAIL {what}: {reason}")
        passed &= ok
    shape = spec.plugin
    method = "act" if shape is None else shape.method  # its own shape, if it has none
    if worker is not None and worker.hello is not None:
        method = str(worker.hello.get("Method"))
    answer_checks = (
        list(shape.checks)
        if shape is not None and method == shape.method
        else [("not_legal", f"{method} returns one of view.legal")]
    )
    answers = _Tally(f"{method} answers within {limits.timeout:g} s without raising or crashing")
    tallies = {code: _Tally(what) for code, what in answer_checks}
    if worker is None:
        for tally in [answers, *tallies.values()]:
            tally.not_checked = f"not checked: {why}"
    else:
        bot = PluginBot(plugin, limits, where="check-bot")
        bot._worker = worker  # the one that said Hello
        rng = random.Random(seed)
        in_a_row = 0
        try:
            for index in range(positions):
                position = random_position(spec, f"{seed}-{index}", rng)
                view = spec.view(position.game, position.seat)
                choice, fault, kind = bot.ask(view)
                answers.asked += 1
                where = position.describe(index)
                if fault is None and (choice is None or not 0 <= choice < len(view.legal)):
                    fault, kind = f"chose move {choice!r} of {len(view.legal)}", "not_legal"
                if fault is not None and kind in _NO_ANSWER:
                    _fail(answers, where, fault)
                    answers.kinds[_KIND_TEXT.get(kind, kind)] += 1
                    in_a_row += kind in ("timeout", "crash", "start", "memory")
                    if in_a_row >= STRIKES:
                        left = positions - index - 1
                        answers.first += (
                            f" (stopped: {STRIKES} in a row; {left} positions not asked)"
                        )
                        break
                    continue
                in_a_row = 0
                for code, tally in tallies.items():
                    tally.asked += 1
                    if fault is not None and kind == code:
                        _fail(tally, where, fault)
                        break
                    if fault is not None and code == answer_checks[-1][0]:
                        _fail(tally, where, fault)  # a kind the shape did not name
        finally:
            bot.close()
    for tally in [answers, *tallies.values()]:
        say(_line(tally))
        passed &= tally.asked > 0 and not tally.failed and not tally.not_checked
    return passed


def _fail(tally: _Tally, where: str, why: str) -> None:
    tally.failed += 1
    if not tally.first:
        tally.first = f"{where}: {why}"


def _line(tally: _Tally) -> str:
    if tally.not_checked:
        return f"FAIL {tally.what}: {tally.not_checked}"
    if not tally.asked:
        return f"FAIL {tally.what}: not checked: no position got an answer to check"
    if tally.failed:
        kinds = ", ".join(f"{n} {kind}" for kind, n in tally.kinds.most_common())
        counted = f" ({kinds})" if len(tally.kinds) > 1 else ""
        return (
            f"FAIL {tally.what}: {tally.failed} of {tally.asked} positions{counted}; "
            f"first at {tally.first}"
        )
    return f"PASS {tally.what} ({tally.asked} positions)"
