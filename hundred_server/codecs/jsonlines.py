"""protocol.md as it is: one JSON object a line, each way (no I/O)."""

from __future__ import annotations

import functools
from typing import Final

from hundred_server.protocol import Message, check_client_type, client_types, decode, encode


class JsonCodec:
    kind: Final = "json"
    shared: Final = True

    def __init__(self) -> None:
        self.known = _known()

    def decode(self, line: bytes) -> list[Message]:
        msg = decode(line)
        check_client_type(msg, self.known)
        return [msg]

    def encode(self, message: Message) -> bytes:
        return encode(message)


@functools.cache
def _known() -> frozenset[str]:
    """``client_types()``, worked out once (the registry does not change)."""
    return client_types()
