"""Talk: ``Chat``, ``Mute`` and ``Unmute``, which a session may send anywhere (no I/O).

A chat line goes to everyone where its speaker is, the speaker too, but those who
muted the speaker: to its table (people and watchers), or to the lobby, whose chat has
a budget (chat.py). Nothing at a table changes.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from hundred_server.core.chat import FanOut, Place, chat_message, clean
from hundred_server.core.sessions import AT_TABLE, Session, Where
from hundred_server.core.table import Outgoing
from hundred_server.protocol.errors import Refused
from hundred_server.protocol.wire import Message, message, quote, require_str

if TYPE_CHECKING:
    from hundred_server.core.lobby import Lobby

#: What a session may send in every state: talk, never play.
TALK: Final = frozenset({"Chat", "Mute", "Unmute"})


class Talk:
    """What people say to each other, and whom they mute."""

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby
        #: The lobby chat's budget (``Limits.chat_fanout``), by speaker.
        self.fanout = FanOut()

    def handle(self, session: Session, kind: str, msg: Message) -> Outgoing:
        """``Chat``, ``Mute`` or ``Unmute``, from ``session`` wherever it is."""
        if kind == "Chat":
            return self._chat(session, msg)
        name = require_str(msg, "Name").strip()
        # Who goes by the name now: a mute is theirs, whatever they are called later.
        named = [
            s.person
            for s in self._lobby.sessions.values()
            if s is not session and name in (s.name, chat_name(s))
        ]
        if kind == "Unmute":
            was = session.mutes.unmute(name, named)
            text = f"You unmuted {name}: you see what they say again" if was else None
            return [(session.conn, message(text or f"{name} was not muted"))]
        if name in (session.name, chat_name(session)):
            raise Refused("you cannot mute yourself", "bad_mute")
        if not named:
            raise Refused(
                f"nobody here goes by {quote(name)} (mute a name as its chat shows it)",
                "bad_mute",
            )
        session.mutes.mute(name, named)
        text = f"You muted {name}: you will not see what they say (Unmute to undo)"
        return [(session.conn, message(text))]

    def _chat(self, session: Session, msg: Message) -> Outgoing:
        """A chat line to everyone where the speaker is, the speaker too, but those who
        muted the speaker: at its table (people and watchers), or in the lobby."""
        lobby = self._lobby
        text = clean(msg.get("Text"))
        table = session.table if session.where in AT_TABLE else None
        where: Place = "lobby" if table is None else "table"
        sessions = lobby.sessions
        audience = sessions.lobby_conns() if table is None else table.audience()
        said = chat_message(chat_name(session), text, where)
        out: Outgoing = []
        for conn in audience:
            listener = sessions.get(conn)
            if listener is not None and session.person not in listener.mutes:
                out.append((conn, said))
        if table is None:
            budget = lobby.limits.chat_fanout
            wait = self.fanout.spend(session.conn, len(out), budget, lobby.clock())
            if wait is not None:
                again = _tenths(wait)
                raise Refused(
                    f"the lobby's chat is busy (at most {budget} lines delivered a second, "
                    f"shared by everyone talking): nothing was said; try again in {again} s",
                    "chat_busy",
                )
        return out


def chat_name(session: Session) -> str:
    """The name a session's chat shows: its seat's at a table (``ann (2)`` when
    another ann sits there), else its own (``player<N>`` until it picks one)."""
    table = session.table
    if table is not None and session.where in (Where.SEATED, Where.PLAYING):
        seat = table.seat_of(session.conn)
        name = None if seat is None else table.names()[seat]
        if name is not None:
            return name
    return session.name


def _tenths(seconds: float) -> str:
    """``seconds`` rounded up to a tenth (never 0.0: a wait to tell)."""
    return f"{max(1, math.ceil(seconds * 10 - 1e-9)) / 10:.1f}"
