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
the connection at once (text mode's ``help``), or text mode's sign-in with a password
(``Credentials``, never a wire message), and raises ``Malformed`` for a line
it cannot read; ``encode(message)`` returns the bytes to send (``b""``: nothing).
"""

from __future__ import annotations

from typing import Final, Protocol

from hundred_server.protocol.codecs.classic import ClassicCodec
from hundred_server.protocol.codecs.jsonlines import JsonCodec
from hundred_server.protocol.codecs.text import TextCodec, strip_telnet
from hundred_server.protocol.credentials import Credentials
from hundred_server.protocol.wire import Message


class Codec(Protocol):
    @property
    def kind(self) -> str:
        """ "json", "text" or "classic", for logs."""

    @property
    def shared(self) -> bool:
        """Whether ``encode`` depends on the message alone, so that one encoding of a
        message serves every connection of this kind."""

    @property
    def games(self) -> frozenset[str] | None:
        """The games a connection of this kind can play (registry names; None: every
        game): the lobby lists, creates, joins and watches tables of these only."""

    def decode(self, line: bytes) -> list[Message] | list[str] | list[Credentials]: ...

    def encode(self, message: Message) -> bytes: ...


#: The listeners a connection may come in on.
MAIN: Final = "main"
CLASSIC: Final = "classic"
#: The web listener's WebSocket (websocket.py): JSON from the first frame, no text mode.
WEBSOCKET: Final = "websocket"


def for_listener(listener: str) -> Codec | None:
    """The codec of every connection on ``listener`` (None: the first line decides)."""
    if listener == CLASSIC:
        return ClassicCodec()
    if listener == WEBSOCKET:
        return JsonCodec()
    return None


def from_first_line(line: bytes) -> tuple[Codec, bytes] | None:
    """The codec a main-port connection speaks, judged by its first line (a telnet
    client's negotiation bytes do not count), and that line as the codec is to read it;
    None for a line that says nothing yet (blank): the next one decides."""
    stripped = strip_telnet(line)
    if not stripped.strip():
        return None
    if stripped.lstrip().startswith(b"{"):
        return JsonCodec(), stripped
    return TextCodec(), line
