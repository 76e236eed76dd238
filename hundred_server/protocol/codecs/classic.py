"""The classic dialect: the pinochle seed's protocol exactly, for the clients written
for it (seeds/pinochle-server-protocol.txt; protocol.md, "The classic port").

The seed knows only the Types ``Message``, ``Hello``, ``Game``, ``Deal``, ``Bid``,
``Trump``, ``Meld``, ``Play`` and ``Score``, and only some keys of each; it writes
keys in sorted order and leaves out zero values (a pass is a ``Bid`` without ``Bid``,
an empty meld has no ``Amount``, a loser's ``Score`` has no ``Win``). A message that
names your ``Playerid`` is a prompt to you and nothing else, so:

- a prompt (a message with ``Seq``) goes only to the seat it asks;
- your own moves are not echoed back to you;
- an ``Error`` is not sent: the prompt that follows it is, so a bad answer gets the
  same prompt again and nothing more;
- everything else the rich protocol adds (``Seq``, ``Legal``, ``Table``, ``Seat``,
  ``Trick``, ``Snapshot``, ...) is left out.

What the dialect can play is the seed's game, and which games those are each game
declares (``GameSpec.classic``: a seed client knows its deck, phases and prompts), so
this module names none: the codec's ``games`` are theirs, and the lobby lists, joins and
creates tables of those only. Another game's prompts (a ``Setup``, a discard) have no
words in the dialect, and its table would stall waiting for an answer that cannot come.

``create`` makes a table of the game whose spec says ``classic`` (GameSpec.classic).
``join`` lists the open tables of those games as ``Message`` lines and asks ``Game``;
the answer's ``Option`` is the table's number (0 goes back). Of the errors only
``bad_game`` is said, as a ``Message`` line before the list again: a table of another
game, joined by its number (the seed has no ``Error``, and without a word a client
would not know why it is asked again).
"""

from __future__ import annotations

import json
from typing import Any, Final

from hundred_server import games
from hundred_server.protocol.errors import Malformed
from hundred_server.protocol.wire import Message, decode, quote

#: The keys each Type keeps in the seed's dialect.
KEYS: Final[dict[str, tuple[str, ...]]] = {
    "Message": ("Message",),
    "Hello": (),
    "Game": (),
    "Deal": ("Hand", "Playerid"),
    "Bid": ("Bid", "Playerid"),
    "Trump": ("Playerid", "Trump"),
    "Meld": ("Amount", "Hand", "Playerid"),
    "Play": ("Lead", "PlayedCard", "Playerid", "Trump", "WinningCard"),
    "Score": ("GameOver", "Score", "Win"),
}
#: Keys the seed leaves out when they are zero or false.
_ZERO_DROPPED: Final = frozenset({"Amount", "Bid", "GameOver", "Win"})
#: What a classic client may send.
CLIENT_TYPES: Final = frozenset({"Hello", "Game", "Bid", "Trump", "Play"})
#: The Types that are moves: a seat's own is not echoed to it.
_MOVES: Final = frozenset({"Bid", "Trump", "Play"})
#: The error codes a classic client is told, as a ``Message`` line: those only the
#: port's scope causes (see the module docstring).
_SAID: Final = frozenset({"bad_game"})


def classic_games() -> frozenset[str]:
    """The games the classic dialect can play (``GameSpec.classic``)."""
    return frozenset(name for name in games.names() if games.get(name).classic)


def classic_game() -> str:
    """The game the classic listener creates tables of."""
    found = sorted(classic_games())
    if len(found) != 1:
        raise RuntimeError(f"exactly one game must be classic, not {found}")
    return found[0]


def project(msg: Message) -> Message | None:
    """``msg`` with only the seed's keys (None: a Type the seed does not know)."""
    keys = KEYS.get(msg.get("Type", ""))
    if keys is None:
        return None
    out: Message = {"Type": msg["Type"]}
    for key in keys:
        if key not in msg:
            continue
        value = msg[key]
        if key in _ZERO_DROPPED and (value is False or (type(value) is int and value == 0)):
            continue
        out[key] = value
    return out


def dumps(msg: Message) -> bytes:
    """The seed's JSON: compact, keys sorted."""
    return (
        json.dumps(msg, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
            "utf-8", "backslashreplace"
        )
        + b"\n"
    )


class ClassicCodec:
    kind: Final = "classic"
    shared: Final = False

    def __init__(self) -> None:
        self.games: Final = classic_games()
        self.seat: int | None = None
        self.choosing_table = False  # shown the open tables: Game's Option is a table

    def decode(self, line: bytes) -> list[Message]:
        msg = decode(line)
        kind = msg["Type"]
        if kind not in CLIENT_TYPES:
            known = ", ".join(sorted(CLIENT_TYPES))
            raise Malformed(f"unknown Type {quote(kind)} (send {known})", "unknown_type")
        choice = msg.get("Message")
        said = choice.strip().lower() if isinstance(choice, str) else None
        if kind == "Hello" and said == "create":
            return [{**msg, "Game": classic_game()}]
        if kind == "Hello" and said == "watch":  # the seed's lobby has no watching
            raise Malformed("Message must be create, join or quit", "bad_choice")
        if kind == "Game" and self.choosing_table:
            option = msg.get("Option")
            if option == 0:
                return [{"Type": "Hello"}]
            return [{"Type": "Join", "Table": option}]
        return [msg]

    def encode(self, message: Message) -> bytes:
        kind = message.get("Type")
        if kind == "Seat" or kind == "Deal" or kind == "Snapshot":
            self.seat = message.get("Playerid")
        if kind == "Tables":
            return self._tables(message)
        if kind == "Error" and message.get("Code") in _SAID:
            return dumps({"Type": "Message", "Message": message.get("Message")})
        if kind in ("Hello", "Game"):
            self.choosing_table = False
        if kind in _MOVES:
            prompt = "Seq" in message
            mine = message.get("Playerid") == self.seat
            if prompt != mine:  # another seat's prompt, or an echo of my own move
                return b""
        out = project(message)
        return b"" if out is None else dumps(out)

    def _tables(self, message: Message) -> bytes:
        tables: list[dict[str, Any]] = message.get("Tables") or []
        lines = []
        for table in tables:
            players = ", ".join(p if p is not None else "(free)" for p in table["Players"])
            lines.append(f"Table {table['Table']} - {table['Name']}: {players}")
        if not lines:
            lines.append("No open tables right now")
        lines.append("Which table? Answer Game with its number as Option (0 goes back)")
        self.choosing_table = True
        out = [dumps({"Type": "Message", "Message": line}) for line in lines]
        return b"".join(out) + dumps({"Type": "Game"})
