"""The ladder end to end: clients/bot.py processes with API keys play rated sets on a
real server, which is killed (SIGKILL) mid-game (a set's first) and started again on
the same store and port; the bots come back by themselves (backoff, key, token), finish
their games, the set goes on with its second game, and no rated result is lost."""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.support.live_server import ROOT, free_port, start_server, stop_server

LIMIT = 120  # seconds the bots may take


def post(http: int, path: str, body: object) -> dict[str, object]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{http}{path}", data=json.dumps(body).encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status in (200, 201)
        return dict(json.loads(answer.read()))


def get(http: int, path: str) -> object:
    with urllib.request.urlopen(f"http://127.0.0.1:{http}{path}", timeout=10) as answer:
        return json.loads(answer.read())


def wait_for(done: object, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def rated_count(db: Path) -> int:
    with sqlite3.connect(db) as raw:
        try:
            row = raw.execute("SELECT count(*) FROM rated_games WHERE rated IS NOT NULL").fetchone()
        except sqlite3.OperationalError:  # not made yet
            return 0
    return int(row[0])


def http_up(http: int) -> None:
    """Wait for the server's web port (start_server waits for its line port only)."""

    def accepts() -> bool:
        try:
            socket.create_connection(("127.0.0.1", http), timeout=1).close()
        except OSError:
            return False
        return True

    wait_for(accepts)


def games_of(http: int, name: str) -> int:
    """The rated games of ``name`` on the bots' leaderboard (0: not on it)."""
    board = get(http, "/api/leaderboard?game=hundredandten&pool=bots")
    assert isinstance(board, list)
    return next((int(r["games"]) for r in board if r["name"] == name), 0)


def first_games(db: Path) -> list[int]:
    """The id of a ladder set's first game under way, in a list (none: empty)."""
    with sqlite3.connect(db) as raw:
        try:
            rows = raw.execute(
                "SELECT g.id, m.line FROM games g JOIN moves m ON m.game = g.id AND m.n = 0"
                " WHERE g.state = 'playing' ORDER BY g.id"
            ).fetchall()
        except sqlite3.OperationalError:  # not made yet
            return []
    return [i for i, line in rows if json.loads(line)["Ladder"]["Round"] == 0][:1]


def test_bots_on_the_ladder_survive_a_killed_server_and_no_rating_is_lost(tmp_path: Path) -> None:
    db = tmp_path / "ladder.db"
    port, http = free_port(), free_port()
    args = ("--http-port", str(http), "--log-level", "WARNING")
    server, _ = start_server(*args, db=db, port=port)
    http_up(http)
    bots: list[subprocess.Popen[str]] = []
    try:
        keys = [
            post(http, "/api/accounts", {"name": n, "password": "ladder pw", "bot": True})["key"]
            for n in ("lad one", "lad two")
        ]
        for i, key in enumerate(keys):
            bots.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        str(ROOT / "clients" / "bot.py"),
                        "--ladder",
                        f"--key={key}",  # a key may start with "-"
                        "--port",
                        str(port),
                        "--games",
                        "6",
                        "--seed",
                        str(i),
                        "--timeout",
                        "60",
                    ],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
        wait_for(lambda: rated_count(db) >= 1 and first_games(db) != [])
        server.send_signal(signal.SIGKILL)  # mid-ladder: a set's first game under way
        assert stop_server(server) == -signal.SIGKILL
        before = rated_count(db)
        cut = first_games(db)  # the sets whose first game the kill cut short
        server, _ = start_server(*args, db=db, port=port)
        http_up(http)
        summaries = []
        for bot in bots:
            out, err = bot.communicate(timeout=LIMIT)
            assert bot.returncode == 0, err
            summaries.append(json.loads(out.strip().splitlines()[-1]))
            assert "connecting again" in err  # it came back by itself
        assert [s["games"] for s in summaries] == [6, 6]
        # Each bot's last game is rated moments after the bot has quit: wait for it.
        wait_for(lambda: all(games_of(http, n) >= 6 for n in ("lad one", "lad two")))
        assert rated_count(db) >= before + 1
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
        assert stop_server(server) == 0
    with sqlite3.connect(db) as raw:
        unrated = raw.execute(
            "SELECT r.id FROM rated_games r JOIN games g ON g.id = r.id"
            " WHERE g.state = 'over' AND r.rated IS NULL"
        ).fetchall()
    assert unrated == []  # every rated game that ended, before the kill or after, is rated
    # The set cut short went on after the restart: its second game (the same seed, the
    # seats turned) was played and rated.
    with sqlite3.connect(db) as raw:
        rows = raw.execute(
            "SELECT g.id, g.seed, m.line, r.rated FROM games g JOIN moves m ON m.game = g.id"
            " AND m.n = 0 JOIN rated_games r ON r.id = g.id"
        ).fetchall()
    seeds = {i: seed for i, seed, _, _ in rows}
    went_on = [
        (i, rated)
        for i, seed, line, rated in rows
        if json.loads(line)["Ladder"]["Tables"] == cut and seed == seeds[cut[0]]
    ]
    assert len(went_on) == 1
    assert went_on[0][1] is not None
