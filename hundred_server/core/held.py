"""What a connection sends while its sign-in waits for the accounts (no I/O).

A message that needs the accounts' store (core/signin.py: a ``Key``, a guest's name, a
text-mode login) waits for its answer; whatever the connection sends meanwhile waits
behind it, unread, in the order it came (``HeldLines``): the rest of the same line's
messages, then its later lines (or a relayed client's messages). When the answer comes
(``Hub.account_answer``) the waiting message is read again, then what waited behind it
(``resume``), until all is read or a message waits again. A line is counted against
the rate limit as it comes (the hub, before it is kept), so no more of them wait than
the rate allows, ``MAX_HELD`` at most; one over that is not read (``rate_limited``),
as any line over the rate. A connection that goes drops what waited with it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from hundred_server.protocol.credentials import Credentials
from hundred_server.protocol.wire import Message

if TYPE_CHECKING:
    from hundred_server.core.hub import Hub, Link
    from hundred_server.core.render import Command

#: Lines (or messages) that may wait behind a sign-in, at most.
MAX_HELD: Final = 256
#: What a WebSocket's binary frame gets (it is never read).
UNREAD_BINARY: Final = "a binary frame was not read: send each message as a text frame"


@dataclass(eq=False)
class HeldLines:
    """A connection's input that waits: ``rest``, the rest of the line whose message
    waits (moot if that message is refused); ``later``, the lines that came after it,
    as (bytes, whether a WebSocket's binary frame), or a relayed client's messages."""

    rest: list[Message | Credentials] = field(default_factory=list)
    later: deque[tuple[bytes, bool] | Message] = field(default_factory=deque)


class SignInLines:
    """The hub's lines that wait behind a sign-in (see the module docstring)."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub

    def keep(
        self, link: Link, item: tuple[bytes, bool] | Message, now: float | None
    ) -> list[Command]:
        """Keep ``item``, received at ``now`` (None: not rate limited), behind
        ``link``'s waiting sign-in, counted against the rate; past ``MAX_HELD``, it is
        not read (``rate_limited``)."""
        held = link.held
        assert held is not None
        if len(held.later) >= MAX_HELD:
            text = (
                f"slow down: at most {MAX_HELD} lines wait for your sign-in; that line was not read"
            )
            return self._hub._notice(link.conn, "rate_limited", text, close=False)
        held.later.append(item)
        if now is not None:
            link.tokens -= 1
        return []

    def park(self, link: Link, rest: list[Message | Credentials]) -> None:
        """``link``'s message waits for the accounts: ``rest`` (the rest of its line)
        waits behind it, before whatever waits already."""
        if link.held is None:
            link.held = HeldLines()
        link.held.rest = rest

    def resume(self, link: Link, stop: bool) -> list[Command]:
        """The waiting message was read (``stop``: refused, or it quit, so the rest of
        its line is moot): read what waited behind it, in order, until all is read, a
        message waits again or the connection is gone."""
        hub = self._hub
        conn = link.conn
        out: list[Command] = []
        if stop and link.held is not None:
            link.held.rest = []
        while (held := link.held) is not None and hub.links.get(conn) is link:
            if hub.lobby.sign_in.waits(conn):
                break
            if held.rest:
                rest, held.rest = held.rest, []
                out += hub._handle(conn, rest)
            elif held.later:
                item = held.later.popleft()
                if isinstance(item, dict):
                    out += hub._handle(conn, [item])
                elif item[1]:
                    out += hub._notice(conn, "bad_json", UNREAD_BINARY, close=False)
                else:
                    out += hub._read_line(link, item[0])
            else:
                link.held = None
        return out
