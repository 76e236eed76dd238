"""Chat: what people say to each other in the lobby and at a table (no I/O).

A chat line (``{"Type":"Chat","Text":"..."}``) is cleaned first: every control or format
character (Unicode category C: newlines, tabs, escape sequences' ESC, DEL, the bidi
overrides, zero-width characters, lone surrogates, unassigned code points) is removed,
then the spaces around the text. What is left must be 1 to ``MAX_CHAT`` characters:
an empty line or a longer one is refused with ``bad_chat`` (never cut short
silently), and nothing is said. The lobby (lobby.py) tells it to everyone where the
speaker is, the speaker too (``chat_message``), but not to those who muted the
speaker's name (``Mutes``).

Chat is talk, not play: it never moves a game on (so the rate limit counts every chat
line), never reaches a table's game or its record, and is never stored.
"""

from __future__ import annotations

import unicodedata
from typing import Final, Literal

from hundred_server.protocol import Message, ProtocolError, quote

#: The longest chat line, in characters, once cleaned.
MAX_CHAT: Final = 200
#: The most names one connection may mute at once.
MAX_MUTES: Final = 100

Place = Literal["lobby", "table"]


def _removed(c: str) -> bool:
    category = unicodedata.category(c)
    return category.startswith("C") or category in ("Zl", "Zp")


def clean(text: object) -> str:
    """``text`` without control or format characters (category C*), the line and
    paragraph separators (Zl, Zp: line breaks too) and the spaces around it;
    ``bad_chat`` if it is not a string, or is empty or over ``MAX_CHAT`` characters
    once cleaned."""
    if not isinstance(text, str):
        raise ProtocolError(f"Chat needs Text, a string, not {quote(text)}", "bad_chat")
    kept = "".join(c for c in text if not _removed(c)).strip()
    if not kept:
        raise ProtocolError("a chat line needs something to say (it was empty)", "bad_chat")
    if len(kept) > MAX_CHAT:
        raise ProtocolError(
            f"a chat line is at most {MAX_CHAT} characters, not {len(kept)}: nothing was said",
            "bad_chat",
        )
    return kept


def chat_message(speaker: str, text: str, where: Place) -> Message:
    """What everyone where the speaker is gets (one object, encoded once)."""
    return {"Type": "Chat", "From": speaker, "Text": text, "Where": where}


class Mutes:
    """The names one connection does not want to hear, for as long as it is open."""

    def __init__(self) -> None:
        self._names: set[str] = set()

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def mute(self, name: str) -> None:
        """Mute ``name`` (``bad_mute`` if ``MAX_MUTES`` others are muted already)."""
        if name not in self._names and len(self._names) >= MAX_MUTES:
            raise ProtocolError(
                f"you have muted {MAX_MUTES} names, the most you may; unmute one first",
                "bad_mute",
            )
        self._names.add(name)

    def unmute(self, name: str) -> bool:
        """Hear ``name`` again; whether it was muted."""
        if name not in self._names:
            return False
        self._names.discard(name)
        return True
