"""The hub's own cost of an answer, without sockets (not a test): CPU per answer.

    python bench/hub_cost.py --tables 100 --seats 4 --games 1
    PYTHONPATH=/tmp/base-perf python bench/hub_cost.py      # another checkout's hub

Drives ``Hub`` (hub.py) in-process with the clients of bench/load.py (people-only
tables, the naive strategy, every prompt answered), durable, its writes taken as the
server takes them, and counts the CPU time spent in the hub's calls only (the clients'
JSON parsing and choices are not counted). Deterministic: the same seeds every run,
so under ``valgrind --tool=callgrind`` it gives instruction counts free of noise.
Prints one JSON line: answers, messages, hub CPU microseconds per answer.

``--cold MIB``: before each answer, copy MIB mebibytes (not counted), which pushes the
hub's code and data out of the processor's caches, as the idle time between answers
at a person's pace does on a real server (bench/load.py ``--pace``). Measured on the
development machine: 65 µs an answer warm, 232 µs with ``--cold 16`` (10 tables); the
paced server's ``Hub.receive`` took 250-290 µs an answer. So at a person's pace the
cost of an answer is mostly cache misses: what cuts it is touching less memory (fewer
objects, dicts and functions an answer), more than running fewer instructions.

    python bench/hub_cost.py --tables 10 --cold 16
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import Player

from hundred_server.core.hub import Hub, Send
from hundred_server.core.lobby import Limits


class Client:
    """A load client's seat (bench/load.py's ``Player``) and what the run counts."""

    def __init__(self, rng: random.Random) -> None:
        self.player = Player(rng)
        self.done = False
        self.table: int | None = None

    def on(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        kind = msg.get("Type")
        if kind == "Table" and self.table is None:
            self.table = msg["Table"]
        elif kind == "Score" and msg.get("GameOver"):
            self.done = True
        return self.player.see(str(kind), msg)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", default="hub-cost")
    parser.add_argument(
        "--cold",
        type=int,
        default=0,
        metavar="MIB",
        help="copy MIB mebibytes before each answer (not counted): the caches cold",
    )
    args = parser.parse_args()
    junk, spill = bytes(args.cold << 20), bytearray(args.cold << 20)
    rng = random.Random(args.seed)
    counter = iter(range(10**9))
    hub = Hub(
        seed_source=lambda: f"{args.seed}-{next(counter)}",
        token_source=lambda: f"token-{next(counter)}",
        limits=Limits(max_connections=10**6, max_connections_per_address=10**6),
        durable=True,
    )
    clients: dict[int, Client] = {}
    inbox: deque[tuple[int, bytes]] = deque()
    spent = 0.0
    answers = messages = 0

    def run(call: Any, *a: Any) -> None:
        nonlocal spent
        t = time.process_time()
        commands = call(*a)
        hub.lobby.journal.take()
        spent += time.process_time() - t
        for c in commands:
            if isinstance(c, Send):
                for line in c.data.splitlines():
                    inbox.append((c.conn, line))

    def pump() -> None:
        nonlocal answers, messages
        while inbox:
            conn, line = inbox.popleft()
            messages += 1
            answer = clients[conn].on(json.loads(line))
            if answer is not None:
                answers += 1
                data = json.dumps(answer, separators=(",", ":")).encode()
                if junk:
                    spill[:] = junk  # the caches hold this now, not the hub
                run(hub.receive, conn, data, None)

    for t in range(args.tables):
        conn, _ = hub.connect("load", address=None)
        clients[conn] = Client(random.Random(rng.random()))
        game = {"Type": "Game", "Option": 5, "Seats": args.seats, "Bots": 0, "Name": f"t{t}"}
        hello = {"Type": "Hello", "Message": "create", "Name": f"c{t}"}
        run(hub.receive, conn, json.dumps(hello).encode(), None)
        pump()
        run(hub.receive, conn, json.dumps(game).encode(), None)
        pump()
        table = clients[conn].table
        for _ in range(1, args.seats):
            conn, _ = hub.connect("load", address=None)
            clients[conn] = Client(random.Random(rng.random()))
            run(hub.receive, conn, json.dumps({"Type": "Hello", "Message": "join"}).encode())
            pump()
            run(hub.receive, conn, json.dumps({"Type": "Join", "Table": table}).encode())
            pump()
    pump()
    done = sum(c.done for c in clients.values())
    result = {
        "tables": args.tables,
        "games_done": done // args.seats,
        "answers": answers,
        "messages": messages,
        "hub_cpu_s": round(spent, 3),
        "hub_cpu_us_per_answer": round(1e6 * spent / max(1, answers), 1),
        "cold_mib": args.cold,
    }
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
