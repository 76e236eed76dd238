"""A documented exchange (protocol.md's example session, its classic exchange) replayed
through a ``Hub``, as the lines the page shows: ``--> `` what the server sends, ``<-- ``
what the client sends, and ``CLOSED`` where the server closes the connection."""

from __future__ import annotations

import time

from hundred_server.core.hub import Command, Hub, Send

CLOSED = "(the server closes the connection)"


def replay_exchange(
    hub: Hub, conn: int, commands: list[Command], exchange: list[str], *, timers: bool
) -> list[str]:
    """The transcript the hub gives when each ``<-- `` line of ``exchange`` is sent where
    the exchange shows it, starting from ``commands`` (the greeting). With ``timers``, the
    timers that are due run after each line, as the server runs them (a strong AI's moves
    come one a tick)."""
    transcript: list[str] = []

    def collect(commands: list[Command]) -> None:
        for command in commands:
            assert command.conn == conn
            if isinstance(command, Send):
                transcript.extend("--> " + line for line in command.data.decode().splitlines())
            else:
                transcript.append(CLOSED)

    collect(commands)
    for line in exchange:
        if line.startswith("<-- "):
            transcript.append(line)
            collect(hub.receive(conn, line[4:].encode() + b"\n"))
            while timers and (due := hub.lobby.timers.next_deadline()) is not None:
                if due > time.monotonic():
                    break
                collect(hub.tick())
    return transcript
