"""Chat: what people say to each other in the lobby and at a table (no I/O).

A chat line (``{"Type":"Chat","Text":"..."}``) is cleaned first: every control or format
character (Unicode category C: newlines, tabs, escape sequences' ESC, DEL, the bidi
overrides, zero-width characters, lone surrogates, unassigned code points) is removed,
then the spaces around the text. What is left must be 1 to ``MAX_CHAT`` characters:
an empty line or a longer one is refused with ``bad_chat`` (never cut short
silently), and nothing is said. The lobby (talk.py) tells it to everyone where the
speaker is, the speaker too (``chat_message``), but not to those who muted the
speaker (``Mutes``: a mute follows the person, not the name).

The lobby's chat has a budget for its fan-out (``FanOut``): the lines it delivers a
second, to every listener and speaker summed, shared fairly by those who speak there.
A line the speaker's share cannot pay for is refused with ``chat_busy`` and nothing is
said. A table's chat is not counted: a table has at most a few listeners (its seats
and watchers), and its chat is rate limited like any line.

Chat is talk, not play: it never moves a game on (so the rate limit counts every chat
line), never reaches a table's game or its record, and is never stored.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Final, Literal

from hundred_server.protocol.errors import Malformed, Refused
from hundred_server.protocol.wire import Message, quote

#: The longest chat line, in characters, once cleaned.
MAX_CHAT: Final = 200
#: The most names one connection may mute at once.
MAX_MUTES: Final = 100
#: Seconds a lobby speaker counts as one of those who share its chat budget
#: (``FanOut``) after its last line (said or refused).
RECENT: Final = 10.0

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
        raise Malformed(f"Chat needs Text, a string, not {quote(text)}", "bad_chat")
    kept = "".join(c for c in text if not _removed(c)).strip()
    if not kept:
        raise Malformed("a chat line needs something to say (it was empty)", "bad_chat")
    if len(kept) > MAX_CHAT:
        raise Malformed(
            f"a chat line is at most {MAX_CHAT} characters, not {len(kept)}: nothing was said",
            "bad_chat",
        )
    return kept


def chat_message(speaker: str, text: str, where: Place) -> Message:
    """What everyone where the speaker is gets (one object, encoded once)."""
    return {"Type": "Chat", "From": speaker, "Text": text, "Where": where}


class Mutes:
    """The people one connection does not want to hear, for as long as it is open: the
    names muted (``MAX_MUTES`` at most), each with the people (``Session.person``, which
    a rename keeps and a seat taken back with its token carries over) who went by it."""

    def __init__(self) -> None:
        self._names: dict[str, set[int]] = {}
        self._people: set[int] = set()

    def __contains__(self, person: object) -> bool:
        return person in self._people

    def mute(self, name: str, people: Iterable[int]) -> None:
        """Mute the ``people`` who go by ``name`` (``bad_mute`` if ``MAX_MUTES`` other
        names are muted already)."""
        if name not in self._names and len(self._names) >= MAX_MUTES:
            raise Refused(
                f"you have muted {MAX_MUTES} names, the most you may; unmute one first",
                "bad_mute",
            )
        self._names.setdefault(name, set()).update(people)
        self._people.update(people)

    def unmute(self, name: str, people: Iterable[int] = ()) -> bool:
        """Hear again those muted as ``name`` and the ``people`` (who go by ``name``
        now, whatever name they were muted under); whether any of them was muted."""
        now = set(people)
        was = False
        for muted, who in list(self._names.items()):
            if muted == name or who & now:
                who -= now
                was = True
                if muted == name or not who:
                    del self._names[muted]
        if was:
            self._people = set().union(*self._names.values())
        return was


class FanOut:
    """The lobby chat's budget (``Limits.chat_fanout``): ``per_second`` deliveries (a
    line to each listener, the speaker's own echo too), shared by the speakers of the
    last ``RECENT`` seconds. Each speaker has its share of the budget (``per_second``
    over their number) a second, and may save up one second of it: a line to ``n``
    costs ``n``, and is said once the share saved pays for it (or, when one line costs
    more than a second's share, once a whole second is saved). One who floods spends
    only their own share, so the others are still heard; the lines delivered in all
    stay within about ``per_second`` a second. Time is an input (``now``)."""

    def __init__(self) -> None:
        #: conn -> [saved deliveries, when it was last counted, when it last spoke]
        self._speakers: dict[int, list[float]] = {}

    def spend(self, conn: int, cost: int, per_second: float, now: float) -> float | None:
        """``conn`` says a line delivered ``cost`` times, with a budget of ``per_second``:
        None if its share pays for it (then spent), else the seconds until it will."""
        speakers = self._speakers
        for other in [c for c, (_, _, spoke) in speakers.items() if now - spoke > RECENT]:
            del speakers[other]
        share = per_second / (len(speakers) + (conn not in speakers))
        mine = speakers.get(conn)
        if mine is None:
            mine = speakers[conn] = [share, now, now]
        saved = min(share, mine[0] + max(0.0, now - mine[1]) * share)
        mine[0], mine[1], mine[2] = saved, now, now
        needed = min(float(cost), share)
        if saved < needed:
            return (needed - saved) / share
        mine[0] = saved - cost
        return None

    def forget(self, conn: int) -> None:
        """``conn`` is gone."""
        self._speakers.pop(conn, None)
