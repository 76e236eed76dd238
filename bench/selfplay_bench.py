"""Self-play speed: our engine and naive bots against the reference package's, one run.

Both sides play the same seeds (so the very same games: our naive bot makes the
reference's choices) with four naive players. Each side plays ``--games`` games per
repetition; repetitions alternate between the sides so that machine noise hits both
alike, and the figures are medians. The like-for-like figure is one process each;
``selfplay --jobs`` on every core is reported beside it. Not a test: timings flake on
shared machines.

    make bench                      # or: python bench/selfplay_bench.py --games 40 --reps 5
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Callable


def ours(seeds: list[str]) -> list[tuple[int, ...]]:
    """Our self-play: the very loop ``python -m hundred_server selfplay`` runs."""
    from hundred_server.ai.selfplay import play_game

    return [tuple(play_game(4, seed).scores) for seed in seeds]


def reference(seeds: list[str]) -> list[tuple[int, ...]]:
    from hundredandten import HundredAndTen
    from hundredandten.player import NaiveAutomatedPlayer

    results = []
    for seed in seeds:
        game = HundredAndTen([NaiveAutomatedPlayer(str(i)) for i in range(4)], seed=seed)
        results.append(tuple(game.scores[str(i)] for i in range(4)))
    return results


def timed(run: Callable[[list[str]], list[tuple[int, ...]]], seeds: list[str]) -> float:
    gc.collect()
    start = time.perf_counter()
    run(seeds)
    return len(seeds) / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per side per repetition")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (medians reported)")
    parser.add_argument("--seed", default="bench", help="game i of repetition r: SEED-r-i")
    args = parser.parse_args()

    # Same games on both sides, or the comparison means nothing.
    check = [f"{args.seed}-check-{i}" for i in range(5)]
    if ours(check) != reference(check):
        print("our naive games differ from the reference's: not comparable", file=sys.stderr)
        return 1

    ours_rates, ref_rates, ratios = [], [], []
    for rep in range(args.reps):
        seeds = [f"{args.seed}-{rep}-{i}" for i in range(args.games)]
        ref_rates.append(timed(reference, seeds))
        ours_rates.append(timed(ours, seeds))
        ratios.append(ours_rates[-1] / ref_rates[-1])
    ours_gps, ref_gps = statistics.median(ours_rates), statistics.median(ref_rates)

    from hundred_server.ai.selfplay import selfplay

    cores = os.cpu_count() or 1
    parallel = [
        selfplay(4, games=args.games * 10, seed=f"{args.seed}-jobs-{rep}", jobs=cores)
        for rep in range(args.reps)
    ]
    jobs_gps = statistics.median(p["games_per_second"] for p in parallel)
    summary = {
        "games_per_rep": args.games,
        "reps": args.reps,
        "ours_games_per_s": round(ours_gps, 1),
        "reference_games_per_s": round(ref_gps, 1),
        "ratio_of_medians": round(ours_gps / ref_gps, 1),
        "median_ratio": round(statistics.median(ratios), 1),
        "ratios_by_rep": [round(r, 1) for r in ratios],
        f"ours_selfplay_jobs_{cores}_games_per_s": round(jobs_gps, 1),
        f"ratio_jobs_{cores}_vs_reference": round(jobs_gps / ref_gps, 1),
        "python": sys.version.split()[0],
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
