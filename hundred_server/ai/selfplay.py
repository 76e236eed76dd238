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
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Final, TextIO

from hundred_server import games as registry
from hundred_server.core import driver
from hundred_server.games.base import DEFAULT_NAMES, Bot, GameState, player_names, round_number
from hundred_server.games.records import write_record

__all__ = ["DEFAULT_NAMES", "play_game", "player_names", "selfplay"]


def play_game(
    num_players: int,
    seed: str,
    bots: Sequence[Bot] | None = None,
    game: str = registry.DEFAULT_GAME,
) -> GameState:
    """One seeded game of ``game`` played to its end; ``bots[seat]`` acts for each seat
    (the game's default bot by default). A set of bots that never ends a game (passing
    every round forever) never returns."""
    spec = registry.get(game)
    state = spec.new_game(player_names(num_players), seed)
    if bots is None:
        bots = [spec.bot()] * num_players
    if len(bots) != num_players:
        raise ValueError(f"{len(bots)} bots for {num_players} seats")
    driver.advance(state, spec, seed, bots)  # every seat a bot: to the end
    return state


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


def _play_games(
    num_players: int,
    run_seed: str,
    indices: range,
    record_dir: str | os.PathLike[str] | None,
    game_name: str = registry.DEFAULT_GAME,
) -> list[tuple[int, int]]:
    """Games ``indices`` of a run: (winner, rounds) for each, recorded if asked."""
    bots = [registry.get(game_name).bot()] * num_players
    results = []
    for index in indices:
        game = play_game(num_players, f"{run_seed}-{index}", bots, game_name)
        assert game.winner is not None
        results.append((game.winner, round_number(game)))
        if record_dir is not None:
            write_record(game, record_path(record_dir, index))
    return results


def selfplay(
    num_players: int = 4,
    games: int = 100,
    seed: str | None = None,
    record_dir: str | os.PathLike[str] | None = None,
    progress: bool = False,
    progress_stream: TextIO | None = None,
    jobs: int = 1,
    game: str = registry.DEFAULT_GAME,
) -> dict[str, Any]:
    """Play ``games`` games of naive bots; returns the summary (see the module docstring).

    ``jobs`` > 1 plays in that many processes; the games, and so the summary but for
    ``seconds``, are the same whatever ``jobs`` is. ``seconds`` is the wall time of the
    whole run, recording included.
    """
    run_seed = str(uuid.uuid4()) if seed is None else seed
    if record_dir is not None:
        os.makedirs(record_dir, exist_ok=True)
    spec = registry.get(game)
    if num_players not in spec.seat_counts:
        raise ValueError(f"{spec.title} is played by {spec.seat_counts} players, not {num_players}")
    bar = _Progress(games, (progress_stream or sys.stderr) if progress else None)
    wins = [0] * (num_players if spec.sides is None else len(set(spec.sides)))
    rounds = 0
    start = time.perf_counter()

    def tally(results: list[tuple[int, int]], done: int) -> None:
        nonlocal rounds
        for winner, game_rounds in results:
            wins[winner] += 1
            rounds += game_rounds
        bar.update(done)

    if jobs <= 1:
        for index in range(1, games + 1):
            one = range(index, index + 1)
            tally(_play_games(num_players, run_seed, one, record_dir, game), index)
    else:
        chunk = max(1, min(50, games // (jobs * 8)))
        chunks = [range(i, min(i + chunk, games + 1)) for i in range(1, games + 1, chunk)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {
                pool.submit(_play_games, num_players, run_seed, r, record_dir, game): len(r)
                for r in chunks
            }
            done = 0
            for future in as_completed(futures):
                done += futures[future]
                tally(future.result(), done)
    seconds = time.perf_counter() - start
    return {
        "game": game,
        "games": games,
        "players": num_players,
        "rounds": rounds,
        "wins": wins,
        "mean_rounds": rounds / games if games else 0.0,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
        "seed": run_seed,
        "jobs": max(1, jobs),
    }
