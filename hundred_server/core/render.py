"""What the hub says to connections, as commands for the server: ``Send`` (bytes),
``Close``, and, on a site of several instances (bus.py), ``Relay`` and ``Remote``;
``encode`` turns the lobby's ``(conn, message)`` pairs into them (no I/O)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hundred_server.core.sessions import Where
from hundred_server.core.table import Outgoing
from hundred_server.core.watchers import Elsewhere
from hundred_server.protocol.codecs import Codec
from hundred_server.protocol.codecs.jsonlines import JsonCodec
from hundred_server.protocol.wire import Message

if TYPE_CHECKING:
    from hundred_server.core.hub import Link
    from hundred_server.core.lobby import Lobby


# The commands are made for every message (a Send each): slotted, and not frozen,
# whose __init__ costs about twice as much. Nothing changes one after it is made.
@dataclass(slots=True)
class Send:
    """Bytes for a connection. ``news``: for a bystander (a person at a game under way
    who neither spoke nor is to act, or a watcher), or only others' lobby chat, so it
    may wait a moment to go out with what comes for that connection next (server.py);
    what the connection's own line brought, a prompt, and the rest of the lobby never
    wait."""

    conn: int
    data: bytes
    news: bool = False


@dataclass(slots=True)
class Close:
    """Close ``conn`` once what it was sent is written. ``error``: the code of the
    Error it was last sent, when the server closes it for that (a limit, a bug); a
    WebSocket's close frame then says so (server.py)."""

    conn: int
    error: str = ""


@dataclass(frozen=True)
class Relay:
    """A client's message for the instance of the site that holds its table (bus.py):
    ``to`` says where, with the first of them; None for ``message``: the client is gone."""

    conn: int
    message: Message | None
    to: Elsewhere | None = None


@dataclass(frozen=True)
class Remote:
    """A message for a virtual connection, a client of another instance of the site
    (bus.py). None: it is back in the lobby, which its own instance keeps (``close``:
    its session ended)."""

    conn: int
    message: Message | None
    close: bool = False


Command = Send | Close | Relay | Remote

#: What a connection is sent before its first line says how it speaks.
_FIRST_CODEC = JsonCodec()


def encode(
    out: Outgoing, links: Mapping[int, Link], lobby: Lobby, speaker: int | None
) -> tuple[list[Command], list[tuple[int, Where | None]]]:
    """What ``out`` says, as commands: one ``Send`` a connection with all its bytes in
    order (the server writes each connection once a turn anyway), a ``Remote`` a
    message to a virtual connection; and every connection told, with where its
    session is now. ``speaker``: the connection whose line this answers (its bytes are
    never news)."""
    commands: list[Command] = []
    # A message sent to many is encoded once a codec kind: by its id, which is
    # unique while ``out`` holds every message (a seat's private ones included).
    shared: dict[str, dict[int, bytes]] = {}
    # Every connection told, in order: its bytes, and its codec with that codec's
    # kind's encodings (None for both: a virtual connection), found once.
    said: dict[int, tuple[list[bytes], Codec | None, dict[int, bytes] | None]] = {}
    # How many lobby chat lines each connection is told: lobby chat alone is news for
    # all but its speaker (it may wait, behind what a table says). Counted, not the
    # rest marked, so that a message that is no chat costs one lookup.
    chat: dict[int, int] = {}
    for conn, msg in out:
        entry = said.get(conn)
        if entry is None:
            link = links.get(conn)
            if link is None:
                continue
            if link.virtual:
                entry = said[conn] = ([], None, None)
            else:
                mine = link.codec or _FIRST_CODEC
                cache = shared.setdefault(mine.kind, {}) if mine.shared else None
                entry = said[conn] = ([], mine, cache)
        chunks, codec, cache = entry
        if codec is None:
            commands.append(Remote(conn, msg))
            continue
        if cache is not None:
            data = cache.get(id(msg))
            if data is None:
                data = cache[id(msg)] = codec.encode(msg)
        else:
            data = codec.encode(msg)
        if data:
            chunks.append(data)
            if msg.get("Where") == "lobby":
                chat[conn] = chat.get(conn, 0) + 1
    told: list[tuple[int, Where | None]] = []
    for conn, (chunks, _, _) in said.items():
        where = lobby.sessions.where(conn)  # closed, or in the lobby: asked once
        told.append((conn, where))
        if chunks:
            news = conn != speaker and (chat.get(conn) == len(chunks) or lobby.bystander(conn))
            data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
            commands.append(Send(conn, data, news))
    return commands, told
