"""Wire messages: one JSON object per line (see protocol.md).

``decode(line) -> dict`` turns a line into a message with a string ``Type`` or raises
``Malformed`` with the wire ``code``; ``encode(message) -> bytes`` is its inverse.
The ``field_*`` readers check one field each and quote the bad input in their errors.
Nothing here does I/O.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from json import encoder as json_encoder
from typing import Any, Final

from hundred_server.games.kit.cards import Card, Suit
from hundred_server.protocol.errors import CardCodeError, Malformed, for_code

#: The longest line a client may send, in bytes, without its line ending.
MAX_LINE: Final = 8192
LOBBY_QUESTION: Final = (
    "Do you want to join a game, create a new game, or quit? (join, create, quit)"
)
#: The lobby question as a main-port connection's first message: before its first line
#: says how it speaks, it tells a person at netcat or telnet how to get plain text.
GREETING: Final = (
    LOBBY_QUESTION + " At netcat or telnet? Type help: any word switches to plain text."
)
#: The ``Type``s a client sends in the lobby (and chat, anywhere); each game adds its answers
#: (``GameSpec.answer_types``; codecs/jsonlines.py ``client_types``).
LOBBY_TYPES: Final = frozenset(
    {"Hello", "Game", "Join", "Watch", "Leave", "Chat", "Mute", "Unmute"}
)

Message = dict[str, Any]


def quote(value: object, limit: int = 60) -> str:
    """A client's input as JSON (``"9Z"``, ``true``, ``null``), cut short so an error
    line stays small; ``repr`` for what JSON cannot show (bytes)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    except RecursionError:  # JSON nested almost as deep as the parser allows
        text = "(a value nested too deeply to show)"
    # A lone surrogate ("\ud800" in the client's JSON) cannot be UTF-8: show it escaped.
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _compact_encoder() -> Callable[[Any], str]:
    """``json.dumps(obj, ensure_ascii=False, separators=(",", ":"))``, the same text,
    without building an encoder a call: the standard library's C encoder, made once
    (it is most of the cost of a small message). Without the C accelerator (another
    Python), ``json.dumps`` itself. No circular check: messages are trees we build."""
    make = getattr(json_encoder, "c_make_encoder", None)  # not in typeshed
    if make is None:
        return functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))
    plain = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    c_encode = make(None, plain.default, json_encoder.encode_basestring,
                    None, ":", ",", False, False, True)  # fmt: skip

    def compact(obj: Any) -> str:
        if type(obj) is not dict:  # a top-level string or number: the general way
            return plain.encode(obj)
        return "".join(c_encode(obj, 0))

    return compact


#: Compact JSON text of a message or record line (see ``_compact_encoder``).
_std_compact: Final = _compact_encoder()

#: Where orjson's text may not be the standard library's: a float it writes another way
#: (``1e16`` for ``1e+16``, ``2.5e-7`` for ``2.5e-07``, ``0.00001`` for ``1e-05``), or
#: ``null`` for a NaN or an infinity. Such output (and any text merely like it) is made
#: again the standard way. Checked as a pattern and two substrings: one pattern of all
#: three costs as much as the standard library's whole encoding.
_EXPONENT: Final = re.compile(rb"e[-1-9]")


def _refuse(obj: Any) -> Any:
    raise TypeError


def _orjson_encoder() -> Callable[[Any], bytes | None]:
    """``fast(obj)``: orjson's UTF-8 of ``obj`` (the fast extra), when it is the
    standard library's text exactly; None when orjson is missing (the embedded default
    installs no compiled extras), refuses it (a number past 64 bits, a key that is not
    a string, a lone surrogate, a type of neither) or may differ (``_EXPONENT``). The
    types orjson writes and the standard library refuses (dataclasses, datetimes) go
    to ``default``, which refuses them too."""
    try:
        from orjson import OPT_PASSTHROUGH_DATACLASS, OPT_PASSTHROUGH_DATETIME, dumps
    except ImportError:
        return lambda obj: None
    options = OPT_PASSTHROUGH_DATACLASS | OPT_PASSTHROUGH_DATETIME
    exponent = _EXPONENT.search

    def fast(obj: Any) -> bytes | None:
        try:
            data: bytes = dumps(obj, _refuse, options)
        except TypeError:  # orjson.JSONEncodeError is one
            return None
        if b"null" in data or b"0.0000" in data or exponent(data):
            return None
        return data

    return fast


_fast_bytes: Final = _orjson_encoder()


def compact_json(obj: Any) -> str:
    """Compact JSON text of a message or record line: ``json.dumps(obj,
    ensure_ascii=False, separators=(",", ":"))`` exactly, made by orjson when it is
    installed and gives the same text (``_fast_bytes``), else the standard library."""
    data = _fast_bytes(obj)
    return _std_compact(obj) if data is None else data.decode("utf-8")


def encode(message: Mapping[str, Any]) -> bytes:
    """One line of compact JSON, UTF-8, ending in a newline."""
    data = _fast_bytes(message)
    if data is None:
        return _std_compact(message).encode("utf-8", "backslashreplace") + b"\n"
    return data + b"\n"


def strip_line(line: bytes) -> bytes:
    """The line without its ``\\n`` or ``\\r\\n``."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    return line


def decode(line: bytes) -> Message:
    """Parse one line (without its ending) into a message with a string ``Type``."""
    if len(line) > MAX_LINE:
        raise Malformed(f"a line is at most {MAX_LINE} bytes", "line_too_long")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise Malformed(f"not UTF-8: {quote(line)}", "bad_json") from None
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise Malformed(f"not JSON: {quote(text)}", "bad_json") from None
    if not isinstance(message, dict):
        raise Malformed(f"not a JSON object: {quote(text)}", "bad_json")
    kind = message.get("Type")
    if not isinstance(kind, str):
        raise Malformed(f"a message needs a string Type, got {quote(kind)}", "bad_message")
    return message


def check_client_type(message: Message, known: frozenset[str]) -> str:
    kind: str = message["Type"]
    if kind not in known:
        raise Malformed(
            f"unknown Type {quote(kind)} (clients send {', '.join(sorted(known))})",
            "unknown_type",
        )
    return kind


def error(code: str, text: str) -> Message:
    return {"Type": "Error", "Code": code, "Message": text}


def message(text: str) -> Message:
    return {"Type": "Message", "Message": text}


# ---------------------------------------------------------------------- field readers

_MISSING: Final = object()


def field_int(
    msg: Message, key: str, *, lo: int | None = None, hi: int | None = None, code: str = ""
) -> int | None:
    """``msg[key]`` as an int in [lo, hi], or None if absent. Booleans are not ints."""
    value = msg.get(key, _MISSING)
    if value is _MISSING or value is None:
        return None
    if type(value) is not int:
        raise Malformed(f"{key} must be a whole number, got {quote(value)}", "bad_message")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise for_code(
            f"{key} must be from {lo} to {hi}, got {quote(value)}", code or "bad_message"
        )
    return value


def require_int(
    msg: Message, key: str, *, lo: int | None = None, hi: int | None = None, code: str = ""
) -> int:
    value = field_int(msg, key, lo=lo, hi=hi, code=code)
    if value is None:
        raise Malformed(f"{msg['Type']} needs {key}", "bad_message")
    return value


def field_str(msg: Message, key: str) -> str | None:
    value = msg.get(key, _MISSING)
    if value is _MISSING or value is None:
        return None
    if not isinstance(value, str):
        raise Malformed(f"{key} must be a string, got {quote(value)}", "bad_message")
    return value


def require_str(msg: Message, key: str) -> str:
    value = field_str(msg, key)
    if value is None:
        raise Malformed(f"{msg['Type']} needs {key}", "bad_message")
    return value


def field_card(msg: Message, key: str) -> Card:
    return parse_card(require_str(msg, key))


def parse_card(code: object) -> Card:
    if not isinstance(code, str):
        raise Malformed(f'a card is a string such as "AS", got {quote(code)}', "bad_card")
    try:
        return Card.parse(code)
    except CardCodeError as exc:
        raise Malformed(exc.message, "bad_card") from None


def field_cards(msg: Message, key: str) -> list[Card]:
    value = msg.get(key, _MISSING)
    if value is _MISSING or value is None:
        raise Malformed(f"{msg['Type']} needs {key}", "bad_message")
    if not isinstance(value, list):
        raise Malformed(f"{key} must be a list of cards, got {quote(value)}", "bad_message")
    return [parse_card(c) for c in value]


def field_suit(msg: Message, key: str) -> Suit:
    value = require_str(msg, key)
    try:
        return Suit.parse(value)
    except CardCodeError as exc:
        raise Malformed(exc.message, "bad_suit") from None
