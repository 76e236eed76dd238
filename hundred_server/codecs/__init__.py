"""One codec per connection: lines in, messages out, and back (no I/O).

The hub (hub.py) gives each connection one codec, chosen by the listener it came in
on and its first line, and from then on sees only messages: the lobby and the tables
never know how a connection reads and writes. The codecs:

- ``JsonCodec`` (jsonlines.py): protocol.md, one JSON object a line. The main port,
  for a first line that starts with ``{``.
- ``TextCodec`` (text.py): people on netcat or telnet. The main port, for any other
  first line. Each game reads and renders its own commands and messages
  (``GameSpec.text``).
- ``ClassicCodec`` (classic.py): the pinochle seed's dialect, exactly, on the
  classic port (``serve --classic-port``).

A codec's ``decode(line)`` returns wire messages for the hub, or lines of text to show
the connection at once (text mode's ``help``), and raises ``ProtocolError`` for a line
it cannot read; ``encode(message)`` returns the bytes to send (``b""``: nothing).
"""

from __future__ import annotations

from typing import Final, Protocol

from hundred_server.protocol import Message


class Codec(Protocol):
    @property
    def kind(self) -> str:
        """ "json", "text" or "classic", for logs."""

    @property
    def shared(self) -> bool:
        """Whether ``encode`` depends on the message alone, so that one encoding of a
        message serves every connection of this kind."""

    def decode(self, line: bytes) -> list[Message] | list[str]: ...

    def encode(self, message: Message) -> bytes: ...


#: The listeners a connection may come in on.
MAIN: Final = "main"
CLASSIC: Final = "classic"


def choose(listener: str, first_line: bytes) -> Codec | None:
    """The codec for a connection on ``listener`` whose first line is ``first_line``
    (None: a blank first line says nothing yet; wait for the next). A telnet client's
    negotiation bytes do not count."""
    from hundred_server.codecs.classic import ClassicCodec
    from hundred_server.codecs.jsonlines import JsonCodec
    from hundred_server.codecs.text import TextCodec, strip_telnet

    if listener == CLASSIC:
        return ClassicCodec()
    line = strip_telnet(first_line)
    if not line.strip():
        return None
    if line.lstrip().startswith(b"{"):
        return JsonCodec()
    return TextCodec()
