"""protocol.md's example session is what the server really says, line for line."""

from __future__ import annotations

import re
from pathlib import Path

from hundred_server.core.hub import Hub
from tests.support.transcript import CLOSED, replay_exchange

DOC = Path(__file__).resolve().parents[2] / "protocol.md"
SECTION = DOC.read_text(encoding="utf-8").split("## Example session", 1)[1]
SESSION = re.findall(r"```\n(.*?)```", SECTION, re.S)[0].splitlines()


def test_the_session_is_long_enough_to_mean_something() -> None:
    assert len(SESSION) > 100
    assert SESSION[-1] == CLOSED
    assert sum(line.startswith("<-- ") for line in SESSION) >= 10


def test_the_example_session_replays_exactly() -> None:
    """Each client line is sent when the transcript shows it; the whole transcript,
    client lines in place, must come out the same."""
    hub = Hub(
        seed_source=lambda: "protocol-example",
        token_source=lambda: "9b3e4d2a7c1f0e8d6b5a493827160f5e",
    )
    conn, commands = hub.connect("example")
    transcript = replay_exchange(hub, conn, commands, SESSION, timers=False)
    assert transcript == SESSION
    assert hub.lobby.sessions == {}
