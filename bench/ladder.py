"""The ladder under load (issue #31): a real server (SQLite store, a temporary folder),
BOTS bot accounts made over HTTP, each a clients/bot.py process on the ladder of Hundred
and Ten, half playing ``--strategy weak`` (bids as naive, plays any legal card: a table of
``random`` bots may never finish, nor one of bots that play at random and never bid)
and half ``--strategy naive`` (the client's heuristic: bid by the best suit's trumps,
take tricks cheaply), each until it has played
GAMES games. Optionally (``--kill-after S``) the server is killed (SIGKILL) S seconds in
and started again on the same store and ports; the bots come back by themselves
(backoff, key, token).

It prints: rated games, wall seconds and rated games an hour; the server's CPU seconds;
whether every rated table's game that ended is rated (none lost, none twice); and the
leaderboard, with whether every heuristic bot ranks above every weak one (by mu -
3 sigma, the leaderboard's order).

    python bench/ladder.py --bots 20 --games 300
    python bench/ladder.py --bots 20 --games 60 --kill-after 20
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(db: Path, port: int, http: int, log: Path) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "hundred_server", "serve", "--db", str(db), "--port", str(port),
        "--http-port", str(http), "--log-level", "WARNING", "--max-per-address", "1000",
    ]  # fmt: skip
    with log.open("ab") as out:
        server = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=out)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", http), timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}")


def post(http: int, path: str, body: object) -> dict[str, object]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{http}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.loads(answer.read()))


def get(http: int, path: str) -> object:
    with urllib.request.urlopen(f"http://127.0.0.1:{http}{path}", timeout=30) as answer:
        return json.loads(answer.read())


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--games", type=int, default=300, help="games each bot plays")
    parser.add_argument("--kill-after", type=float, help="SIGKILL the server after S seconds")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="hundred-ladder-"))
    db, log = folder / "ladder.db", folder / "server.log"
    port, http = free_port(), free_port()
    server = serve(db, port, http, log)
    cpu = 0.0
    kinds = {}
    bots = []
    started = time.monotonic()
    try:
        for i in range(args.bots):
            kind = "naive" if i % 2 else "weak"
            name = f"{kind} {i // 2 + 1}"
            key = post(http, "/api/accounts", {"name": name, "password": "ladder pw", "bot": True})
            kinds[name] = kind
            bots.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        str(ROOT / "clients" / "bot.py"),
                        "--ladder",
                        "--port",
                        str(port),
                        "--key",
                        str(key["key"]),
                        "--games",
                        str(args.games),
                        "--strategy",
                        kind,
                        "--seed",
                        str(i),
                        "--name",
                        name,
                        "--timeout",
                        "120",
                    ],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                )
            )
        if args.kill_after is not None:
            time.sleep(args.kill_after)
            cpu += cpu_seconds(server.pid)
            server.send_signal(signal.SIGKILL)
            server.wait()
            print(f"killed the server after {args.kill_after:g} s; starting it again")
            server = serve(db, port, http, log)
        results = [json.loads(b.communicate(timeout=36000)[0] or b"{}") for b in bots]
        wall = time.monotonic() - started
        time.sleep(1.0)  # the last ratings are written on the server's thread
        cpu += cpu_seconds(server.pid)
        board = get(http, "/api/leaderboard?game=hundredandten&pool=bots")
    finally:
        for b in bots:
            if b.poll() is None:
                b.kill()
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    with sqlite3.connect(db) as raw:
        rated = raw.execute("SELECT count(*) FROM rated_games WHERE rated IS NOT NULL").fetchone()[
            0
        ]
        lost = raw.execute(
            "SELECT count(*) FROM rated_games r JOIN games g ON g.id = r.id"
            " WHERE g.state = 'over' AND r.rated IS NULL"
        ).fetchone()[0]
        over = raw.execute(
            "SELECT count(*) FROM games g JOIN rated_games r ON r.id = g.id WHERE g.state = 'over'"
        ).fetchone()[0]
    played = sum(int(r.get("games", 0)) for r in results)
    print(f"bots: {args.bots}, games each: {args.games}, bot games played (sum): {played}")
    print(f"rated games: {rated} ({over} rated tables' games over, {lost} of them unrated)")
    print(
        f"wall: {wall:.1f} s, {rated / wall * 3600:.0f} rated games an hour; server CPU {cpu:.1f} s"
    )
    assert isinstance(board, list)
    rows = [r for r in board if r["name"] in kinds]
    for r in rows:
        print(f"  {r['name']:<12} {kinds[r['name']]:<7} rating {r['rating']:6.2f} sigma "
              f"{r['sigma']:5.2f} games {r['games']:4d} wins {r['wins']:4d}")  # fmt: skip
    worst_naive = max(i for i, r in enumerate(rows) if kinds[r["name"]] == "naive")
    best_random = min(i for i, r in enumerate(rows) if kinds[r["name"]] == "weak")
    print(f"every naive-heuristic bot above every weak one: {worst_naive < best_random}")
    print(f"(server log: {log})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
