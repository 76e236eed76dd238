"""A hash of every decision the AIs make in seeded games: proof a refactoring kept them.

For each game and each of its table sizes, every AI the game lists (``GameSpec.bots``:
naive, default, strong) plays ``--games`` seeded games at every seat (the strong AI
without its CPU-time cap, so only the code decides, each seat its own seed), up to
``--decisions`` decisions a game. Every ``act(view)`` answer is hashed (its ``repr``,
in order) into one SHA-256 a game, table size and AI. Prints the hashes as JSON;
with ``--check FILE`` (a saved run) exits 1 if any differs or is missing.

    .venv/bin/python bench/decisions.py [--games 3] [--decisions 1000] [--save FILE]
        [--check FILE] [--game G ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from hundred_server import games as registry


def play(name: str, seats: int, bot: str, games: int, decisions: int) -> tuple[str, int]:
    """The hash of ``bot``'s decisions at every seat of ``games`` seeded games, and how
    many there were."""
    spec = registry.get(name)
    make: Any = spec.bots[bot]
    digest = hashlib.sha256()
    count = 0
    for index in range(games):
        seed = f"decisions-{name}-{seats}-{index}"
        players = [make(seed=s, budget=None) if bot == "strong" else make() for s in range(seats)]
        game = spec.new_game([f"p{s}" for s in range(seats)], seed)
        made = 0
        while not game.is_over and made < decisions:
            if game.needs_deal:
                game.deal(spec.seeded_deck(seed, game.round_index))
                continue
            seat = game.to_act
            assert seat is not None
            action = players[seat].act(spec.view(game, seat))
            digest.update(repr(action).encode() + b"\n")
            game.apply(seat, action)
            made += 1
        count += made
    return digest.hexdigest()[:16], count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=registry.names())
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=1000)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--check", type=Path)
    args = parser.parse_args(argv)
    hashes: dict[str, str] = {}
    total = 0
    started = time.perf_counter()
    for name in args.game or registry.names():
        spec = registry.get(name)
        for seats in spec.seat_counts:
            for bot in spec.bots:
                digest, count = play(name, seats, bot, args.games, args.decisions)
                hashes[f"{name}/{seats}/{bot}"] = f"{digest} ({count})"
                total += count
    if args.save:
        args.save.write_text(json.dumps(hashes, indent=1) + "\n")
    print(json.dumps({"decisions": total, "seconds": round(time.perf_counter() - started, 1)}))
    if args.check is None:
        print(json.dumps(hashes, indent=1))
        return 0
    saved = json.loads(args.check.read_text())
    differ = sorted(k for k in hashes if saved.get(k) != hashes[k])
    missing = sorted(k for k in saved if k not in hashes and not args.game)
    for key in differ:
        print(f"DIFFERS {key}: {saved.get(key)} -> {hashes[key]}")
    for key in missing:
        print(f"MISSING {key}")
    print("same" if not differ and not missing else "NOT THE SAME", f"({len(hashes)} runs)")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
