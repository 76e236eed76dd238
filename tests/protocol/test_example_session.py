"""protocol.md's example session is what the server really says, line for line."""

from __future__ import annotations

import re
from pathlib import Path

from hundred_server.core.hub import Close, Hub, Send

DOC = Path(__file__).resolve().parents[2] / "protocol.md"
SECTION = DOC.read_text(encoding="utf-8").split("## Example session", 1)[1]
SESSION = re.findall(r"```\n(.*?)```", SECTION, re.S)[0].splitlines()
CLOSED = "(the server closes the connection)"


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
    transcript: list[str] = []

    def collect(commands: list[Send | Close]) -> None:
        for command in commands:
            assert command.conn == conn
            if isinstance(command, Send):
                transcript.extend("--> " + line for line in command.data.decode().splitlines())
            else:
                transcript.append(CLOSED)

    collect(commands)
    for line in SESSION:
        if line.startswith("<-- "):
            transcript.append(line)
            collect(hub.receive(conn, line[4:].encode() + b"\n"))
    assert transcript == SESSION
    assert hub.lobby.sessions == {}
