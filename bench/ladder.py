"""The ladder under load (issue #31): a real server (SQLite store, a temporary folder),
BOTS bot accounts made over HTTP, each a clients/bot.py process on the ladder of GAME
(``--game``, Hundred and Ten by default), half playing ``--strategy strong`` and half
``--strategy naive`` (``--weak``: the other half ``naive`` and ``weak`` in Hundred and
Ten, as before Views), each until it has played GAMES games (``--games-per-bot``). The
strong bots, and every bot of another game than Hundred and Ten, ask for Views and run
hundred_server's own AIs in their processes (clients/bot.py, docs/bots.md). Optionally
(``--kill-after S``) the server is killed (SIGKILL) S seconds in and started again on
the same store and ports; the bots come back by themselves (backoff, key, token).

It prints: rated games, wall seconds and rated games an hour; the server's CPU seconds
and the bots' (all their processes); the load average before and after; whether every
rated table's game that ended is rated (none lost, none twice); and the leaderboard,
with whether every better bot (strong) ranks above every other (naive) one (the
leaderboard's order: mu - 3 sigma), and since when: the leaderboard is read every
``--poll`` seconds, and the line says after how many games per bot (the mean) the order
first held and held at every later reading.

    python bench/ladder.py --game whist --bots 20 --games-per-bot 40
    python bench/ladder.py --bots 20 --games 60 --kill-after 20
    python bench/ladder.py --weak --bots 20 --games 300   # naive against weak, no Views
"""

from __future__ import annotations

import argparse
import http.client as http_client
import json
import os
import resource
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
    for attempt in range(3):  # a busy machine's server may drop a connection: ask again
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return dict(json.loads(answer.read()))
        except (ConnectionError, http_client.RemoteDisconnected):
            if attempt == 2:
                raise
            time.sleep(1.0)
    raise AssertionError("unreachable")


def get(http: int, path: str) -> object:
    with urllib.request.urlopen(f"http://127.0.0.1:{http}{path}", timeout=30) as answer:
        return json.loads(answer.read())


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ordered(board: object, kinds: dict[str, str], better: str) -> bool | None:
    """Whether every ``better`` bot is above every other on the leaderboard ``board``
    (None: not every bot is on it yet)."""
    assert isinstance(board, list)
    rows = [r["name"] for r in board if r["name"] in kinds]
    if {kinds[n] for n in rows} != {better, *kinds.values()}:
        return None
    worst_better = max(i for i, n in enumerate(rows) if kinds[n] == better)
    best_other = min(i for i, n in enumerate(rows) if kinds[n] != better)
    return worst_better < best_other


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="hundredandten")
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument(
        "--games", "--games-per-bot", type=int, default=300, help="games each bot plays"
    )
    parser.add_argument("--kill-after", type=float, help="SIGKILL the server after S seconds")
    parser.add_argument("--weak", action="store_true", help="naive against weak (Hundred and Ten)")
    parser.add_argument("--poll", type=float, default=10.0, help="seconds between readings")
    args = parser.parse_args()
    better, worse = ("naive", "weak") if args.weak else ("strong", "naive")
    board_path = f"/api/leaderboard?game={args.game}&pool=bots"
    load_before = os.getloadavg()
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
            kind = better if i % 2 else worse
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
                        f"--key={key['key']}",  # a key may start with "-"
                        "--games",
                        str(args.games),
                        "--strategy",
                        kind,
                        "--game",
                        args.game,
                        "--seed",
                        str(i),
                        "--name",
                        name,
                        "--timeout",
                        "120",
                    ],
                    stdout=subprocess.PIPE,
                    stderr=(folder / f"bot-{i}.log").open("wb"),
                )
            )
        if args.kill_after is not None:
            time.sleep(args.kill_after)
            cpu += cpu_seconds(server.pid)
            server.send_signal(signal.SIGKILL)
            server.wait()
            print(f"killed the server after {args.kill_after:g} s; starting it again")
            server = serve(db, port, http, log)
        readings: list[tuple[float, bool | None]] = []  # (games a bot, ordered)
        while any(b.poll() is None for b in bots):
            time.sleep(args.poll)
            try:
                now = get(http, board_path)
            except OSError:
                continue  # killed and not back yet
            assert isinstance(now, list)
            games_each = sum(r["games"] for r in now if r["name"] in kinds) / len(kinds)
            readings.append((games_each, ordered(now, kinds, better)))
        results = [json.loads(b.communicate(timeout=36000)[0] or b"{}") for b in bots]
        wall = time.monotonic() - started
        bots_cpu = children_cpu() - cpu  # less the killed server's, if one was
        time.sleep(1.0)  # the last ratings are written on the server's thread
        cpu += cpu_seconds(server.pid)
        board = get(http, board_path)
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
    for i, b in enumerate(bots):
        if b.returncode != 0:
            tail = (folder / f"bot-{i}.log").read_text(errors="replace").strip()[-300:]
            print(f"bot {i} exited {b.returncode}: {tail}")
    print(f"game: {args.game}, bots: {args.bots} ({args.bots // 2} {better}, "
          f"{args.bots - args.bots // 2} {worse}), games each: {args.games}, "
          f"bot games played (sum): {played}")  # fmt: skip
    print(f"rated games: {rated} ({over} rated tables' games over, {lost} of them unrated)")
    print(
        f"wall: {wall:.1f} s, {rated / wall * 3600:.0f} rated games an hour; server CPU {cpu:.1f} s"
        f" ({cpu / max(rated, 1) * 1000:.0f} ms a game), bots' CPU {bots_cpu:.1f} s"
        f" ({bots_cpu / max(rated, 1) * 1000:.0f} ms a game)"
    )
    for kind in (better, worse):
        spent = sum(float(r.get("cpu", 0)) for r in results if kinds.get(r.get("name")) == kind)
        print(f"  {kind} bots' CPU: {spent:.1f} s ({spent / max(rated, 1) * 1000:.0f} ms a game)")
    load_after = os.getloadavg()
    print(f"load average (1, 5, 15 min): before {load_before}, after {load_after}")
    assert isinstance(board, list)
    rows = [r for r in board if r["name"] in kinds]
    for r in rows:
        print(f"  {r['name']:<12} {kinds[r['name']]:<7} rating {r['rating']:6.2f} sigma "
              f"{r['sigma']:5.2f} games {r['games']:4d} wins {r['wins']:4d}")  # fmt: skip
    held = ordered(board, kinds, better)
    since = None
    for games_each, state in [*readings, (played / len(kinds), held)]:
        if state and since is None:
            since = games_each
        elif not state:
            since = None
    when = "" if since is None else f" (held from {since:.0f} games a bot on)"
    print(f"every {better} bot above every {worse} one: {held}{when}")
    print(f"(server log: {log})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
