"""How long a game's strong AI thinks: decision time p50/p99/max against the budget.

The game's ``strong`` AI (``GameSpec.bots["strong"]``) plays seat 0, or side 0 in a
partnership game, against its ``naive`` AI, ``--games`` seeded games in this one
process. Every decision of a strong seat with more than one legal action is timed
(``time.perf_counter``, the view's making not counted), and its rollouts (playouts of
one sampled deal) are counted for the rollouts a second it makes while it thinks.
``--budget`` is the strong AI's
wall-clock cap a decision in seconds (its default if left out). Prints one JSON line;
exit status 1 if p99 is over the budget. ``compiled`` says whether the AI imported is
mypyc's extension (setup.py) or the pure-Python module (``module``: the file).

    .venv/bin/python bench/strong.py --game G [--games 10] [--seats N] [--seed S]
        [--budget SECONDS]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from hundred_server import games as registry
from hundred_server.games.base import Bot

#: The budget a decision when the game's strong AI does not say (seconds).
DEFAULT_BUDGET = 0.05


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=registry.names(), required=True)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seats", type=int, help="table size (default: the game's first)")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--budget", type=float, help="seconds a decision (default: the AI's)")
    args = parser.parse_args(argv)
    spec = registry.get(args.game)
    seats = args.seats or spec.seat_counts[0]
    strong_seats = [s for s in range(seats) if (spec.sides[s] if spec.sides else s) == 0]
    make = spec.bots["strong"]
    strong: dict[int, Bot] = {
        s: make(budget=args.budget) if args.budget is not None else make() for s in strong_seats
    }
    budget = (
        args.budget
        if args.budget is not None
        else getattr(strong[strong_seats[0]], "budget", DEFAULT_BUDGET)
    )
    module = sys.modules[type(strong[strong_seats[0]]).__module__].__file__ or ""
    naive = spec.bots["naive"]()
    times: list[float] = []
    rollouts = 0
    started = time.perf_counter()
    for index in range(args.games):
        seed = f"{args.seed}-{index}"
        game = spec.new_game([f"p{s}" for s in range(seats)], seed)
        while not game.is_over:
            if game.needs_deal:
                game.deal(spec.seeded_deck(seed, game.round_index))
                continue
            seat = game.to_act
            assert seat is not None
            view = spec.view(game, seat)
            bot = strong.get(seat)
            if bot is None:
                game.apply(seat, naive.act(view))
                continue
            timed = len(view.legal) > 1
            start = time.perf_counter()
            action = bot.act(view)
            if timed:
                times.append(time.perf_counter() - start)
                rollouts += getattr(bot, "last_rollouts", 0)
            game.apply(seat, action)
    times.sort()
    summary = {
        "game": spec.name,
        "seats": seats,
        "games": args.games,
        "decisions": len(times),
        "budget_s": budget,
        "p50_ms": round(times[len(times) // 2] * 1000, 2) if times else None,
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 2)
        if times
        else None,
        "max_ms": round(times[-1] * 1000, 2) if times else None,
        "rollouts_per_s": round(rollouts / sum(times)) if times else None,
        "seconds": round(time.perf_counter() - started, 1),
        "compiled": not module.endswith(".py"),
        "module": module,
    }
    print(json.dumps(summary))
    return 0 if not times or budget is None or summary["p99_ms"] <= budget * 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
