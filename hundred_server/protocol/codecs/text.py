"""Text mode for people on netcat or telnet (no I/O).

A connection whose first line is not JSON gets a ``TextCodec``: it renders each wire
message as readable lines (``5♥ J♠ 🃏``, whose turn it is, the legal moves) and turns
short commands (``create``, ``join 3``, ``bid 20``, ``play 5H``, ``help``, ``quit``)
into the very wire messages a JSON client would send, so the server treats both alike.
Telnet negotiation bytes are stripped by ``strip_telnet`` before a line is read.

The codec knows the lobby only (greetings, the create options, tables, seats, errors;
``create``, ``join``, ``name``, ``token``, ``hand``, ``help``, ``quit``). Everything
else is the game's: each game's ``TextView`` (``GameSpec.text``, games/base.py)
renders its messages and reads its commands, and ``help`` shows the lobby's commands
and then the game's. The game at hand is the one of the table the connection was last
told of (``Table``, or a ``Snapshot`` or ``Deal`` that names it); in the lobby, the one
of its last ``create`` command; else the default game.
"""

from __future__ import annotations

import json
import re
from typing import Final

from hundred_server import games
from hundred_server.core.lobby import AI_LEVELS, options
from hundred_server.games.base import GameSpec, TextView
from hundred_server.games.kit.text import number, number_word, numbered
from hundred_server.protocol.errors import ClientError, Malformed
from hundred_server.protocol.wire import Message, quote

IAC: Final = 255
_SB, _SE = 250, 240
#: The name of an AI seat (people may not take it, nor a look-alike: names.reserved).
_AI_SEAT: Final = re.compile(r"^AI \d+$")
_WILL_WONT_DO_DONT: Final = frozenset({251, 252, 253, 254})


#: The word of a create command that makes a table nobody may watch.
NO_WATCHERS: Final = "nowatch"


def _watching(table: Message) -> str:
    """``2 watching`` (nothing when nobody watches)."""
    count = table.get("Watchers") or 0
    return f"{count} watching" if count else ""


def _game_lines() -> list[str]:
    """A line for each game that ``create GAME`` makes."""
    lines = []
    for name in games.names():
        spec = games.get(name)
        notes = ["the default"] if name == games.DEFAULT_GAME else []
        if spec.custom:
            custom = len(spec.presets) + 1
            notes.append(f"for a table of your choice: {custom} SEATS BOTS NAME")
        about = f" ({'; '.join(notes)})" if notes else ""
        lines.append(f"    {name:<15} {spec.title}{about}")
    return lines


#: The lobby's commands; ``help`` shows them, then the commands of the game at hand.
HELP: Final = "\n".join(
    [
        "Commands:",
        "  create [GAME] [N] make a table of GAME, with option N (else you are asked); GAME:",
        *_game_lines(),
        "  create ... naive  the same, the table's AI seats played by the naive AI (the",
        "                    strong AI is the default; the word may come after any option)",
        "  create ... nowatch  the same, a table nobody may watch (any option)",
        "  join, join ID     list open tables; sit at table ID",
        "  watch, watch ID   list the tables you may watch; watch table ID (no cards shown)",
        "  leave             stop watching, back to the lobby",
        "  say TEXT          chat: to the lobby, or to everyone at your table (also: chat TEXT)",
        "  mute NAME         see no more of NAME's chat (unmute NAME: see it again)",
        "  name NAME         set your name",
        "  hand              your hand and what you are asked now",
        "  token TOKEN       take your seat back after a lost connection"
        " (the token you were given)",
        "  help              this list, then the commands of your game",
        "  quit              leave",
    ]
)


def strip_telnet(line: bytes) -> bytes:
    """The line without telnet negotiation (IAC WILL/WONT/DO/DONT x, IAC SB ... IAC SE)."""
    if IAC not in line:
        return line
    out = bytearray()
    i, n = 0, len(line)
    while i < n:
        byte = line[i]
        if byte != IAC:
            out.append(byte)
            i += 1
            continue
        command = line[i + 1] if i + 1 < n else None
        if command == IAC:  # an escaped 255
            out.append(IAC)
            i += 2
        elif command in _WILL_WONT_DO_DONT:
            i += 3
        elif command == _SB:
            end = line.find(bytes([IAC, _SE]), i + 2)
            i = n if end < 0 else end + 2
        else:
            i += 2
    return bytes(out)


class TextCodec:
    """One text-mode connection: what it has been told, to render and read in context.

    It is the ``TextScreen`` (games/base.py) that the games' text views render on."""

    kind: Final = "text"
    shared: Final = False
    games: Final = None  # every game

    def decode(self, line: bytes) -> list[Message] | list[str]:
        """A line (without its ending) as wire messages, or lines to show at once."""
        # telnet ends a line "\r\0" when its input is not a terminal
        line = strip_telnet(line).replace(b"\x00", b"").rstrip(b"\r")
        if not line.strip():
            return []
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise Malformed(f"not UTF-8: {quote(line)}", "bad_json") from None
        return self.parse(text)

    def encode(self, message: Message) -> bytes:
        return "".join(f"{line}\r\n" for line in self.render(message)).encode()

    def __init__(self) -> None:
        self.seat: int | None = None
        self.players: list[str] = []
        self.hand: list[str] = []
        self.prompt: Message | None = None
        #: The game of the table last told of (None: none since the lobby).
        self.table_game: str | None = None
        #: The game of the last ``create`` command (None: none since the lobby).
        self.create_game: str | None = None
        #: The table of the last ``watch ID`` command, until its ``Table`` says so.
        self.watching: int | None = None

    # -------------------------------------------------------------------- games

    @property
    def game(self) -> str:
        """The registry name of the game at hand."""
        return self.table_game or self.create_game or games.DEFAULT_GAME

    def _view(self) -> TextView | None:
        return games.get(self.game).text

    def _create_spec(self) -> GameSpec:
        """The game whose create options are asked."""
        return games.get(self.create_game or games.DEFAULT_GAME)

    @staticmethod
    def _known(name: object) -> str | None:
        key = name.strip().lower() if isinstance(name, str) else None
        return key if key in games.names() else None

    # ------------------------------------------------------------------- output

    def name(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.players):
            return "you" if seat == self.seat else self.players[seat]
        return f"seat {seat}"

    def render(self, msg: Message) -> list[str]:
        kind = msg.get("Type")
        if kind in ("Table", "Snapshot", "Deal") and (game := self._known(msg.get("Game"))):
            self.table_game = game
        method = getattr(self, f"_render_{kind}", None)
        if method is not None:
            lines: list[str] = method(msg)
            return lines
        view = self._view()
        shown = view.render(msg, self) if view is not None else None
        return shown if shown is not None else [json.dumps(msg, ensure_ascii=False)]

    def _render_Message(self, msg: Message) -> list[str]:
        return [str(msg.get("Message", ""))]

    def _render_Hello(self, msg: Message) -> list[str]:
        self.table_game = self.create_game = None  # back in the lobby
        self.seat, self.prompt, self.watching = None, None, None
        return ["> create, join, quit (or help)"]

    def _render_Game(self, msg: Message) -> list[str]:
        spec = self._create_spec()
        count = len(options(spec))
        if not spec.custom:
            return [f"> choose an option: 1-{count}"]
        custom = len(spec.presets) + 1
        seats = spec.seat_counts[len(spec.seat_counts) // 2]
        flags = "".join(f" [{flag.lower()}]" for flag in (*spec.flags, NO_WATCHERS))
        return [
            f"> choose an option: 1-{count} "
            f"(for {custom}: {custom} SEATS BOTS NAME{flags}, e.g. {custom} {seats} 1 friday)"
        ]

    def _render_Chat(self, msg: Message) -> list[str]:
        return [f"<{msg.get('From')}> {msg.get('Text')}"]

    def _render_Error(self, msg: Message) -> list[str]:
        self.watching = None  # a watch refused, or anything else: say nothing of it
        return [f"! {msg.get('Message')} ({msg.get('Code')})"]

    def _render_Tables(self, msg: Message) -> list[str]:
        tables = msg.get("Tables") or []
        watch = msg.get("Watch") is True
        if not tables:
            if watch:
                return ["No tables to watch right now. Type create, or watch again later."]
            return ["No open tables right now. Type create, or join again later."]
        lines = ["Tables to watch:" if watch else "Open tables:"]
        for t in tables:
            players = ", ".join(p if p is not None else "(free)" for p in t["Players"])
            line = f"  {t['Table']:>4}  {t['Name']}: {players}"
            if watch:
                about = [games.get(t["Game"]).title, _watching(t)]
                line += f" ({', '.join(a for a in about if a)})"
            lines.append(line)
        return [*lines, "> watch ID, or create" if watch else "> join ID, or create"]

    def _render_Table(self, msg: Message) -> list[str]:
        players = ", ".join(p if p is not None else "(free)" for p in msg["Players"])
        line = f"Table {msg['Table']} ({msg['Name']}): {players}"
        if msg.get("Flags"):
            line += f" [{', '.join(msg['Flags'])}]"
        if msg.get("AI") and any(_AI_SEAT.match(p or "") for p in msg["Players"]):
            line += f" ({msg['AI']} AI)"
        if msg.get("Watchers"):
            line += f" ({_watching(msg)})"
        if msg["Free"]:
            line += f". Waiting for {msg['Free']} more (others type: join {msg['Table']})"
        if self.watching == msg["Table"] and self.seat is None:
            self.watching = None  # said once
            line += ". You are watching: leave stops (no cards are shown to you)"
        return [line]

    def _render_Seat(self, msg: Message) -> list[str]:
        self.seat = msg["Playerid"]
        return [
            f"You sit at table {msg['Table']}, seat {msg['Playerid']}. If your connection "
            f"drops, reconnect and type: token {msg['Token']}"
        ]

    def _render_Commit(self, msg: Message) -> list[str]:
        return [
            f"Deck commitment for table {msg['Table']}: {msg['Hash']} "
            "(the seed is revealed when the game ends)"
        ]

    def _render_Reveal(self, msg: Message) -> list[str]:
        seed, digest = msg["Seed"], msg["Hash"]
        return [
            f"Table {msg['Table']}'s seed: {seed} (check the deals: hundred-server verify "
            f"RECORD --seed {seed} --commit {digest})"
        ]

    # -------------------------------------------------------------------- input

    def parse(self, text: str) -> list[Message] | list[str]:
        """Wire messages for a command, or lines to show at once (help, hand)."""
        words = text.strip().split()
        if not words:
            return []
        head, args = words[0].lower(), words[1:]
        if head in ("help", "?"):
            return self._help()
        if head == "hand":
            view = self._view()
            shown = view.numbered_text(self.hand) if view is not None else numbered(self.hand)
            lines = [f"Your hand: {shown}" if self.hand else "You hold no cards."]
            return lines + (self.render(self.prompt) if self.prompt else [])
        if head in ("create", "join", "watch", "quit", "exit"):
            return self._lobby(head, args)
        if head == "leave":
            return [{"Type": "Leave"}]
        rest = text.strip()[len(words[0]) :].strip()  # as typed, spaces inside kept
        if head in ("say", "chat"):
            return [{"Type": "Chat", "Text": rest}]
        if head in ("mute", "unmute"):
            return [{"Type": head.capitalize(), "Name": rest}]
        if head == "name":
            return [{"Type": "Hello", "Name": " ".join(args)}]
        if head == "token":
            return [{"Type": "Hello", "Token": " ".join(args)}]
        if number_word(head):
            return [self._option(words, self._create_spec())]
        view = self._view()
        said = view.parse(head, args, self) if view is not None else None
        if said is not None:
            return said
        other = self._game_with_command(head, args)
        if other is not None:
            raise Malformed(
                f"{quote(words[0])} is a command of {other}, not of "
                f"{games.get(self.game).title} (type help)",
                "unknown_type",
            )
        raise Malformed(f"unknown command {quote(words[0])} (type help)", "unknown_type")

    def _help(self) -> list[str]:
        spec = games.get(self.game)
        lines = HELP.splitlines()
        if spec.text is not None:
            lines += [f"{spec.title} commands:", *spec.text.help.splitlines()]
        return lines

    def _game_with_command(self, head: str, args: list[str]) -> str | None:
        """The title of another game that has the command ``head``, if any."""
        for name in games.names():
            spec = games.get(name)
            if name == self.game or spec.text is None:
                continue
            try:
                said = spec.text.parse(head, args, self)
            except ClientError:
                return spec.title  # that game's command, malformed
            if said is not None:
                return spec.title
        return None

    def _lobby(self, head: str, args: list[str]) -> list[Message]:
        if head in ("quit", "exit"):
            return [{"Type": "Hello", "Message": "quit"}]
        if head == "watch" and args:  # watch ID: straight from wherever in the lobby
            self.watching = number(args, "watch 7")
            return [{"Type": "Watch", "Table": self.watching}]
        out: list[Message] = [{"Type": "Hello", "Message": head}]
        if head != "create":
            if args:
                out.append({"Type": "Join", "Table": number(args, "join 7")})
            return out
        game = games.DEFAULT_GAME
        if args and not number_word(args[0]):
            out[0]["Game"] = args[0]  # create GAME [option]
            game = self._known(args[0]) or self.create_game or games.DEFAULT_GAME
            args = args[1:]
        if args:
            out.append(self._option(args, games.get(game)))
        self.create_game = game  # only once the whole command is read
        return out

    @staticmethod
    def _option(words: list[str], spec: GameSpec) -> Message:
        """A create option, and for a table of your choice: SEATS BOTS NAME, where a
        word that names one of the game's table options (any case) switches it on."""
        count = len(options(spec))
        option: Message = {"Type": "Game", "Option": number(words[:1], f"1-{count}")}
        levels = [w for w in words[1:] if w.lower() in AI_LEVELS]
        if len(levels) > 1:
            raise Malformed(
                f"one AI a table, not {' and '.join(levels)} (naive or strong)", "bad_option"
            )
        if levels:
            option["AI"] = levels[0].lower()
            words = [w for w in words if w is not levels[0]]
        private = [w for w in words[1:] if w.lower() == NO_WATCHERS]
        if private:
            option["Watchers"] = False
            words = [w for w in words if w.lower() != NO_WATCHERS]
        custom = len(spec.presets) + 1
        flags = {flag.lower(): flag for flag in spec.flags}
        if spec.custom and option["Option"] == custom:
            for word in [w for w in words[1:] if w.lower() in flags]:
                option[flags[word.lower()]] = True
                words = [w for w in words if w is not word]
        if spec.custom and option["Option"] == custom and len(words) > 1:
            example = f"{custom} SEATS BOTS NAME"
            option["Seats"] = number(words[1:2], example)
            if len(words) > 2:
                option["Bots"] = number(words[2:3], example)
            if len(words) > 3:
                option["Name"] = " ".join(words[3:])
        return option
