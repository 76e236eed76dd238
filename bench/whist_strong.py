"""How long the strong Whist AI thinks: decision time p50/p99/max and rollouts a second.

A strong partnership (seats 0 and 2, ``StrongBot``) plays ``--games`` seeded games of
Whist against two ``WhistBot``s in this one process; every decision of a strong seat
with more than one card worth judging is timed (``time.perf_counter``). ``--work`` and
``--budget`` are ``StrongBot``'s (card plays of rollouts per decision; the wall-clock
cap in seconds, ``0`` for none). Target: p99 within the budget (default 50 ms).

    .venv/bin/python bench/whist_strong.py [--games 20] [--seed S] [--work N] [--budget 0.05]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from hundred_server.games.search import BUDGET
from hundred_server.games.whist.bots import WhistBot
from hundred_server.games.whist.rules import Game
from hundred_server.games.whist.strong import WORK, StrongBot, candidates_of
from hundred_server.games.whist.wire import SPEC


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--work", type=int, default=WORK)
    parser.add_argument("--budget", type=float, default=BUDGET, help="seconds; 0: no cap")
    args = parser.parse_args(argv)
    budget = args.budget or None
    times: list[float] = []
    rollouts = 0
    for index in range(args.games):
        game = Game(["n", "e", "s", "w"], seed=f"{args.seed}-{index}")
        strong = [StrongBot(seed=seat, work=args.work, budget=budget) for seat in (0, 2)]
        weak = WhistBot()
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            view = SPEC.view(game, seat)
            if seat % 2:
                game.apply(seat, weak.act(view))
                continue
            bot = strong[seat // 2]
            judged = len(candidates_of(view, sorted(p.card for p in view.legal))) > 1
            start = time.perf_counter()
            action = bot.act(view)
            elapsed = time.perf_counter() - start
            if judged:
                times.append(elapsed)
                rollouts += bot.last_rollouts
            game.apply(seat, action)
    times.sort()
    summary = {
        "games": args.games,
        "decisions": len(times),
        "work": args.work,
        "budget_s": budget,
        "p50_ms": round(times[len(times) // 2] * 1000, 2),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 2),
        "max_ms": round(times[-1] * 1000, 2),
        "rollouts_per_s": round(rollouts / sum(times)),
    }
    print(json.dumps(summary))
    limit = budget if budget is not None else BUDGET
    return 0 if summary["p99_ms"] <= limit * 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
