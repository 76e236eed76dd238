"""protocol.md as it is: one JSON object a line, each way (no I/O)."""

from __future__ import annotations

import functools
from typing import Final

from hundred_server import games
from hundred_server.protocol.wire import LOBBY_TYPES, Message, check_client_type, decode, encode


class JsonCodec:
    kind: Final = "json"
    shared: Final = True
    games: Final = None  # every game

    def decode(self, line: bytes) -> list[Message]:
        msg = decode(line)
        check_client_type(msg, client_types())
        return [msg]

    #: protocol.encode itself: a message is encoded for every line a table says.
    encode: Final = staticmethod(encode)


@functools.cache
def client_types() -> frozenset[str]:
    """Every ``Type`` a client may send: the lobby's and every game's answers (worked
    out once: the registry does not change)."""
    answers = (games.get(name).answer_types for name in games.names())
    return LOBBY_TYPES.union(*answers)
