"""What a hostile plug-in bot costs everyone else: lobby latency under stuck plug-ins.

A real server (``python -m hundred_server serve --memory --bot whist=NAME:Player``) in
its own process; ``--tables`` people each play Whist against three AI seats played by
the plug-in (a new table each time one ends), while a probe connection asks the lobby
for its open tables (``{"Type":"Hello","Message":"join"}``) every ``--every`` seconds
and times each answer. Run for each plug-in in turn (a good one as the baseline, then
one that sleeps 2 s a move, loops forever, allocates without end, raises, calls
``sys.exit``, calls ``os._exit``).

Target: no probe answer slower than 50 ms while plug-ins are stuck (the event loop
never waits on plug-in code). Prints a line per plug-in and a JSON summary; exits 1 if
a target is missed.

    .venv/bin/python bench/plugins.py [--seconds 6] [--tables 4] [--every 0.01]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 50.0
PLUGINS = {
    "good": """
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                same = [c for c in hand if trick and c.suit == trick[0].suit]
                return (same or list(hand))[0]
    """,
    "sleeps": """
        import time
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                time.sleep(2)
    """,
    "loops": """
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                while True:
                    pass
    """,
    "allocates": """
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                held = []
                while True:
                    held.append(bytearray(1 << 20))
    """,
    "raises": """
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                raise RuntimeError("bug")
    """,
    "sys_exit": """
        import sys
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                sys.exit(1)
    """,
    "os_exit": """
        import os
        class Player:
            def PlayCard(self, hand, trick, trump, position, tricks, score):
                os._exit(1)
    """,
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def start(name: str, folder: Path, timeout: float) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}
    argv = [sys.executable, "-m", "hundred_server", "serve", "--memory", "--port", str(port)]
    argv += ["--bot", f"whist={name}:Player", "--bot-timeout", str(timeout)]
    argv += ["--log-level", "ERROR", "--rate", "1000"]  # the probe asks 100 times a second
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise SystemExit(f"the server for {name} did not start") from None
            time.sleep(0.05)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


async def lines(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for _ in range(2):  # the greeting
        await asyncio.wait_for(reader.readline(), 10)
    return reader, writer


async def player(port: int, seed: int, until: float, games: list[int]) -> None:
    """Plays Whist against the plug-in's three seats, table after table."""
    rng = random.Random(seed)
    reader, writer = await lines(port)
    try:
        while time.monotonic() < until:
            writer.write(b'{"Type":"Hello","Message":"create","Game":"whist"}\n')
            writer.write(b'{"Type":"Game","Option":1}\n')
            while time.monotonic() < until:
                try:
                    line = await asyncio.wait_for(reader.readline(), until - time.monotonic())
                except TimeoutError:
                    return
                if not line:
                    return
                msg = json.loads(line)
                if msg.get("GameOver"):
                    games[0] += 1
                    break
                if "Legal" in msg and "Seq" in msg:
                    answer = {"Type": msg["Type"], "PlayedCard": rng.choice(msg["Legal"])}
                    writer.write(json.dumps(answer).encode() + b"\n")
    finally:
        writer.close()


async def probe(port: int, every: float, until: float) -> list[float]:
    """Lobby round trips (ms) until ``until``."""
    reader, writer = await lines(port)
    times: list[float] = []
    try:
        while time.monotonic() < until:
            started = time.perf_counter()
            writer.write(b'{"Type":"Hello","Message":"join"}\n')
            line = await asyncio.wait_for(reader.readline(), 10)
            times.append((time.perf_counter() - started) * 1000)
            assert json.loads(line)["Type"] == "Tables"
            await asyncio.sleep(every)
    finally:
        writer.close()
    return times


async def measure(port: int, seconds: float, tables: int, every: float) -> dict[str, float]:
    until = time.monotonic() + seconds
    games = [0]
    players = [asyncio.create_task(player(port, i, until, games)) for i in range(tables)]
    await asyncio.sleep(0.3)  # the tables start and their plug-ins are asked
    times = await probe(port, every, until)
    for task in players:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    ordered = sorted(times)
    return {
        "probes": len(times),
        "p50_ms": round(statistics.median(ordered), 2),
        "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))], 2),
        "max_ms": round(ordered[-1], 2),
        "games_finished": games[0],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per plug-in (default 6)")
    parser.add_argument("--tables", type=int, default=4, help="tables at once (default 4)")
    parser.add_argument("--every", type=float, default=0.01, help="seconds between probes")
    parser.add_argument("--bot-timeout", type=float, default=1.0, help="the plug-ins' limit")
    parser.add_argument("--only", nargs="*", choices=list(PLUGINS), help="these plug-ins only")
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {}
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, source in PLUGINS.items():
            if args.only and name not in args.only:
                continue
            (folder / f"{name}.py").write_text(textwrap.dedent(source))
            process, port = start(name, folder, args.bot_timeout)
            try:
                result = asyncio.run(measure(port, args.seconds, args.tables, args.every))
            finally:
                stop(process)
            results[name] = result
            met = result["max_ms"] <= TARGET_MS
            ok &= met
            print(
                f"{name:10} probes {result['probes']:5}  p50 {result['p50_ms']:6.2f} ms  "
                f"p99 {result['p99_ms']:6.2f} ms  max {result['max_ms']:6.2f} ms  "
                f"games {result['games_finished']:3}  {'ok' if met else 'MISSED'}",
                flush=True,
            )
    print(json.dumps({"target_max_ms": TARGET_MS, "results": results}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
