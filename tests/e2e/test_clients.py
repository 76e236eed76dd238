"""The bots in clients/ finish real games against a real server, alone and together.

The server runs in its own process on a free port of 127.0.0.1; every client has a
time limit. Node.js is part of the machine image this project runs on (CI included).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.live_server import ROOT, server_process

NODE = shutil.which("node")
LIMIT = 120  # seconds any one client may take


@pytest.fixture
def server() -> Iterator[int]:
    with server_process() as port:
        yield port


def bot(language: str, port: int, *args: str) -> subprocess.Popen[str]:
    if language == "python":
        command = [sys.executable, str(ROOT / "clients" / "bot.py")]
    else:
        assert NODE is not None, "node is not installed"
        command = [NODE, str(ROOT / "clients" / "bot.js")]
    command += ["--port", str(port), "--timeout", "30", *args]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen[str]) -> dict[str, object]:
    out, err = process.communicate(timeout=LIMIT)
    assert process.returncode == 0, err
    summary: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return summary


@pytest.mark.parametrize("language", ["python", "node"])
def test_a_bot_against_three_ai_seats_finishes_two_games(server: int, language: str) -> None:
    summary = finish(bot(language, server, "--create", "1", "--games", "2", "--name", "solo"))
    assert summary["name"] == "solo"
    assert summary["games"] == 2
    scores = summary["scores"]
    assert isinstance(scores, list)
    assert len(scores) == 2


def test_python_and_node_bots_at_one_table_finish_a_game(server: int) -> None:
    creator = bot("python", server, "--create", "4", "--name", "py0")
    time.sleep(0.3)  # the table exists before the others look for it
    joiners = [
        bot("node", server, "--join", "any", "--name", "js1"),
        bot("python", server, "--join", "any", "--name", "py2"),
        bot("node", server, "--join", "any", "--name", "js3"),
    ]
    summaries = [finish(p) for p in [creator, *joiners]]
    assert [s["games"] for s in summaries] == [1, 1, 1, 1]
    assert sum(int(str(s["wins"])) for s in summaries) == 1  # exactly one winner


@pytest.mark.parametrize(
    ("game", "strategy"),
    [("whist", "strong"), ("rook", "naive"), ("hundert", "random"), ("hundredandten", "strong")],
)
def test_the_python_bot_plays_other_games_by_views(server: int, game: str, strategy: str) -> None:
    # Its prompts carry the seat's View; it answers with Choice (hundred_server's own AI
    # on the view read back, or a random index), to the end of the game.
    args = ["--create", "1", "--game", game, "--strategy", strategy, "--seed", "3"]
    process = bot("python", server, *args, "--verbose")
    out, err = process.communicate(timeout=LIMIT)
    assert process.returncode == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert '"Views":true' in err
    assert '"View":{"Type":"View"' in err
    assert ',"Choice":' in err
    assert summary["games"] == 1
    assert isinstance(summary["scores"], list)
    assert len(summary["scores"]) == 1


def test_the_python_bot_refuses_weak_for_another_game_than_hundred_and_ten(server: int) -> None:
    process = bot("python", server, "--create", "1", "--game", "whist", "--strategy", "weak")
    _, err = process.communicate(timeout=LIMIT)
    assert process.returncode == 2
    assert "--strategy weak is Hundred and Ten's" in err


def load_bot_module() -> Any:
    """clients/bot.py as a module (it is a script, not a package's)."""
    spec = importlib.util.spec_from_file_location("bot_client", ROOT / "clients" / "bot.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_client"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class SentLines:
    """A stand-in for the bot's connection: it keeps what the bot sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


def test_a_ladder_bot_whose_seat_is_gone_after_a_restart_says_its_key_again() -> None:
    # Back after a drop, it says its Key with the seat's Token; the game ended meanwhile
    # (bad_token: the server took neither), so the next Hello says the Key again and
    # queues, instead of queueing without it (not_rated) until it gives up.
    module = load_bot_module()
    conn = SentLines()
    bot = module.Bot(
        conn=conn, strategy=None, player=None, name=None, create=None, join=None,
        games=5, wait=1.0, timeout=None, key="k3y", token="ab" * 16, game="rook",
    )  # fmt: skip
    bot.handle({"Type": "Hello"})
    assert conn.sent[-1] == {"Type": "Hello", "Key": "k3y", "Token": "ab" * 16}
    bot.handle({"Type": "Error", "Code": "bad_token", "Message": "no game under way"})
    bot.handle({"Type": "Hello"})
    assert conn.sent[-1] == {"Type": "Hello", "Key": "k3y", "Message": "ladder", "Game": "rook"}


def test_a_bot_with_no_game_limit_plays_until_told_to_stop_and_ends_its_game_first(
    server: int,
) -> None:
    """``--games 0``: no limit; SIGTERM mid-game lets that game end, then it quits."""
    process = bot(
        "python", server, "--create", "1", "--games", "0", "--name", "for ever", "--verbose"
    )
    assert process.stderr is not None
    deadline = time.monotonic() + LIMIT
    while time.monotonic() < deadline:  # its first prompt: a game is under way
        line = process.stderr.readline()
        assert line, "the bot ended before its first prompt"
        if "] --> " in line and '"Legal"' in line:
            break
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=LIMIT)
    assert process.returncode == 0, err
    assert "bot: stopping after the game under way (again: at once)" in err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["games"] == 1  # the game under way was played out, no other begun
