"""Bots playing whole games against each other, for tests, records and benchmarks.

``play_game(n, seed)`` plays one seeded game of naive bots to its end. ``selfplay``
plays many and sums them up. Run ``S`` gives game ``i`` (1-based) the seed ``f"{S}-{i}"``,
so any one game of a run can be played again alone, and its record (``--record DIR``)
is ``DIR/game-{i:05d}.jsonl``. Without a seed, ``S`` is a fresh ``uuid4`` string; it is
in the summary so the run can be repeated.
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from collections.abc import Sequence
from typing import Any, Final, Protocol, TextIO

from hundred_server.bots.naive import NaiveBot
from hundred_server.games.hundredandten import Action, Game, View
from hundred_server.records import write_record

#: Seat names for bot games, seat 0 first.
DEFAULT_NAMES: Final = ("ann", "bob", "cy", "dee")


class Bot(Protocol):
    def act(self, view: View) -> Action: ...


def player_names(num_players: int) -> list[str]:
    """``DEFAULT_NAMES`` for up to four seats (more are named, for the engine to refuse)."""
    return [DEFAULT_NAMES[i] if i < len(DEFAULT_NAMES) else f"p{i}" for i in range(num_players)]


def play_game(num_players: int, seed: str, bots: Sequence[Bot] | None = None) -> Game:
    """One seeded game played to its end; ``bots[seat]`` acts for each seat (naive bots
    by default). A set of bots that passes every round forever never returns."""
    game = Game(player_names(num_players), seed)
    if bots is None:
        bots = [NaiveBot()] * num_players
    if len(bots) != num_players:
        raise ValueError(f"{len(bots)} bots for {num_players} seats")
    acts = [bot.act for bot in bots]
    apply, view_for = game.apply, game.view_for
    # A seeded game deals itself, so only the end of the game leaves nobody to act.
    while (seat := game.to_act) is not None:
        apply(seat, acts[seat](view_for(seat)))
    return game


def record_path(directory: str | os.PathLike[str], index: int) -> str:
    """Where game ``index`` (1-based) of a run is recorded."""
    return os.path.join(directory, f"game-{index:05d}.jsonl")


class _Progress:
    """``\\r[#####     ] 50/100`` on a terminal; nothing anywhere else."""

    WIDTH: Final = 30

    def __init__(self, total: int, stream: TextIO | None) -> None:
        self.total = total
        self.stream = stream if stream is not None and stream.isatty() else None
        self.step = max(1, total // 200)  # redraw at most ~200 times

    def update(self, done: int) -> None:
        if self.stream is None or (done % self.step and done != self.total):
            return
        filled = self.WIDTH * done // self.total if self.total else self.WIDTH
        bar = "#" * filled + " " * (self.WIDTH - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total}")
        if done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def selfplay(
    num_players: int = 4,
    games: int = 100,
    seed: str | None = None,
    record_dir: str | os.PathLike[str] | None = None,
    progress: bool = False,
    progress_stream: TextIO | None = None,
) -> dict[str, Any]:
    """Play ``games`` games of naive bots; returns the summary (see the module docstring).

    ``seconds`` is the wall time of the whole run, recording included.
    """
    run_seed = str(uuid.uuid4()) if seed is None else seed
    if record_dir is not None:
        os.makedirs(record_dir, exist_ok=True)
    bar = _Progress(games, (progress_stream or sys.stderr) if progress else None)
    wins = [0] * num_players
    rounds = 0
    bots = [NaiveBot()] * num_players
    start = time.perf_counter()
    for index in range(1, games + 1):
        game = play_game(num_players, f"{run_seed}-{index}", bots)
        assert game.winner is not None
        wins[game.winner] += 1
        rounds += len(game.round_results)
        if record_dir is not None:
            write_record(game, record_path(record_dir, index))
        bar.update(index)
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "players": num_players,
        "rounds": rounds,
        "wins": wins,
        "mean_rounds": rounds / games if games else 0.0,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
        "seed": run_seed,
    }
