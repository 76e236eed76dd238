"""Text mode for people on netcat or telnet (no I/O).

A connection whose first line is not JSON gets a ``TextCodec``: it renders each wire
message as readable lines (``5♥ J♠ 🃏``, whose turn it is, the legal moves) and turns
short commands (``create``, ``join 3``, ``bid 20``, ``play 5♥``, ``help``, ``quit``)
into the very wire messages a JSON client would send, so the server treats both alike.
Telnet negotiation bytes are stripped by ``strip_telnet`` before a line is read.

One voice on a screen: a person is named by their name ("you" for the viewer, never a
seat number), cards are shown in the notation the person chose (``notation symbols``
or ``notation letters``) and can be typed back as shown, counts agree with their nouns,
and what another message says already is not said twice. The server's words for people
(``Message``) are said in that voice too: the codec rewrites those of the lobby and the
tables, the game's view those of its game (``TextView.said``, ``voice``).

The codec knows the lobby only (greetings, the create options, tables, seats, errors;
``create``, ``join``, ``watch``, ``leave``, ``name``, ``token``, ``hand``,
``notation``, ``help``, ``quit``; ``login``, ``register`` and their password prompts,
text_signin.py; ``ladder``). Everything else is the game's: each game's
``TextView`` (``GameSpec.text``, games/base.py) renders its messages and reads its
commands (``score``, ``partner`` among them), and ``help`` shows what can be typed
where the person is: the lobby's commands in the lobby, the game's and the table's at
a table. The game at hand is the one of the table the connection was last told of
(``Table``, or a ``Snapshot`` or ``Deal`` that names it); in the lobby, the one of its
last ``create`` command; else the default game.

``leave`` at a table sends ``Leave``: an AI plays the seat from then on, the game goes on,
and the person is back in the lobby; ``quit`` at a table does the same, then hangs up.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from hundred_server import games
from hundred_server.core.lobby import AI_LEVELS, options
from hundred_server.games.base import GameSpec, TextView
from hundred_server.games.kit.text import (
    LETTERS,
    NOTATIONS,
    SYMBOLS,
    fix_plurals,
    number,
    number_word,
    numbered,
)
from hundred_server.protocol.codecs.text_signin import PasswordPrompt
from hundred_server.protocol.credentials import Credentials
from hundred_server.protocol.errors import ClientError, Malformed
from hundred_server.protocol.wire import LOBBY_QUESTION, Message, quote

IAC: Final = 255
_SB, _SE = 250, 240
#: The name of an AI seat (people may not take it, nor a look-alike: names.reserved).
_AI_SEAT: Final = re.compile(r"^AI \d+$")
_WILL_WONT_DO_DONT: Final = frozenset({251, 252, 253, 254})


#: The word of a create command that makes a table nobody may watch.
NO_WATCHERS: Final = "nowatch"
# The server's words for people about a table and its seats (core/table.py), with
# the seat numbers that text mode never shows: said again, by name.
_STARTS: Final = re.compile(r"^Table (\d+) \((.*)\) starts: (.*)$")
_LEFT: Final = re.compile(r"^(.+) left; an AI plays seat (\d+) now$")
_LOST: Final = re.compile(
    r"^(.+) lost their connection; seat (\d+) waits (\S+) s for them to come back$"
)
_NOT_BACK: Final = re.compile(
    r"^(.+) did not come back in (\S+) s; an AI plays seat (\d+) until they do$"
)
_OUT_OF_TIME: Final = re.compile(r"^(.+) ran out of time; the server played for seat (\d+)$")
_BACK: Final = re.compile(r"^(.+) is back at seat (\d+)$")
_OPTION: Final = re.compile(r"^Option \d+ - ")


def _watching(table: Message) -> str:
    """``2 watching`` (nothing when nobody watches)."""
    count = table.get("Watchers") or 0
    return f"{count} watching" if count else ""


def table_label(table: object, name: object) -> str:
    """``Table 7 (friday)``, or ``Table 7`` for a table named after its number."""
    return f"Table {table}" if name == f"table {table}" else f"Table {table} ({name})"


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


#: What every screen may type, wherever it is.
_ANYWHERE: Final = [
    "  say TEXT          chat: to the lobby, or to everyone at your table (also: chat TEXT)",
    "  mute NAME         see no more of NAME's chat (unmute NAME: see it again)",
    "  notation          how cards are shown: notation symbols (5♥, Red 14) or notation",
    "                    letters (5H, R14); a card can be typed either way",
    "  help              what you can type now",
]
#: The lobby's commands (``help`` in the lobby).
HELP: Final = "\n".join(
    [
        "In the lobby you can type:",
        "  create [GAME] [N] make a table of GAME, with option N (else you are asked); GAME:",
        *_game_lines(),
        "  create ... naive  the same, the table's AI seats played by the naive AI (the",
        "                    strong AI is the default; the word may come after any option)",
        "  create ... nowatch  the same, a table nobody may watch (any option)",
        "  join, join ID     list open tables; sit at table ID",
        "  watch, watch ID   list the tables you may watch; watch table ID (no cards shown)",
        "  name NAME         set your name",
        "  login NAME        log in to your account (its password is asked for next)",
        "  register NAME     make an account (a password is asked for, twice); its API key",
        "                    is shown once",
        "  ladder [GAME]     queue for GAME's ladder of rated duplicate sets (an account's;",
        "                    quit leaves it)",
        "  token TOKEN       take your seat back (after a lost connection, or leave, while",
        "                    the game goes on) with the token you were given",
        *_ANYWHERE,
        "  quit              hang up",
    ]
)
#: What a person at a table may type besides the game's commands.
HELP_SEATED: Final = "\n".join(
    [
        "  hand              your hand and what you are asked now",
        *_ANYWHERE,
        "  leave             back to the lobby; an AI plays your seat from now on and the",
        "                    game goes on",
        "  quit              the same, then hang up",
    ]
)
#: What a watcher may type.
HELP_WATCHING: Final = "\n".join(
    [
        "You are watching a table. You can type:",
        *_ANYWHERE,
        "  leave             stop watching, back to the lobby",
        "  quit              hang up",
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

    def decode(self, line: bytes) -> list[Message] | list[str] | list[Credentials]:
        """A line (without its ending) as wire messages, or lines to show at once, or
        a password's sign-in (text_signin.py)."""
        # telnet ends a line "\r\0" when its input is not a terminal
        line = strip_telnet(line).replace(b"\x00", b"").rstrip(b"\r")
        if self.password.asking is not None:  # never quoted, shown, logged
            return self.password.line(line)
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
        self.notation: str = SYMBOLS
        self.scores: list[int] | None = None
        self.notes: dict[str, Any] = {}
        #: The table the connection sits at or watches (None: in the lobby).
        self.table: int | None = None
        #: The game of the table last told of (None: none since the lobby).
        self.table_game: str | None = None
        #: The game of the last ``create`` command (None: none since the lobby).
        self.create_game: str | None = None
        #: The table of the last ``watch ID`` command, until its ``Table`` says so.
        self.watching: int | None = None
        #: ``join ID`` was sent with the list it needs first: that list goes unsaid
        #: (the table joined, or the error and the list again, say what happened).
        self.joining = False
        #: ``quit`` at a table: the lobby it passes through on the way out goes unsaid.
        self.hanging_up = False
        #: A ``Table`` told before the ``Seat`` at it: said with that seat as "you".
        self.sitting: Message | None = None
        #: ``login NAME``, ``register NAME``: the password asked for.
        self.password = PasswordPrompt()

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
        if kind != "Tables":
            self.joining = False
        if self.sitting is not None and kind != "Seat":  # no Seat came: say the table
            table, self.sitting = self.sitting, None
            return [*self._table_line(table), *self.render(msg)]
        if kind in ("Score", "Snapshot") and not msg.get("GameOver") and "Score" in msg:
            self.scores = list(msg["Score"])
        method = getattr(self, f"_render_{kind}", None)
        if method is not None:
            lines: list[str] = method(msg)
            return lines
        view = self._view()
        shown = view.render(msg, self) if view is not None else None
        return shown if shown is not None else [json.dumps(msg, ensure_ascii=False)]

    def _render_Message(self, msg: Message) -> list[str]:
        text = str(msg.get("Message", ""))
        if text == LOBBY_QUESTION and self.hanging_up:
            return []
        if self.table is None:
            return [fix_plurals(text)]
        said = self._table_said(text)
        if said is not None:
            return said
        view = self._view()
        if view is None:
            return [fix_plurals(text)]
        lines = view.said(text, self)
        return lines if lines is not None else [view.voice(text, self)]

    def _table_said(self, text: str) -> list[str] | None:
        """The server's words about the table's seats, by name (core/table.py)."""
        if match := _STARTS.match(text):
            names = [name.removesuffix(" (AI)") for name in match[3].split(", ")]
            roster = ", ".join(
                "you" if self.seat is not None and name == self._own_name() else name
                for name in names
            )
            return [f"{table_label(match[1], match[2])} starts: {roster}"]
        if match := _LEFT.match(text):
            return [f"{self.name(int(match[2]))} left; an AI plays for them now"]
        if match := _LOST.match(text):
            return [
                f"{self.name(int(match[2]))} is gone; their seat waits {match[3]} s for them "
                "to come back, then an AI plays it"
            ]
        if match := _NOT_BACK.match(text):
            return [
                f"{self.name(int(match[3]))} did not come back in {match[2]} s; an AI plays "
                "for them until they do"
            ]
        if match := _OUT_OF_TIME.match(text):
            who = self.name(int(match[2]))
            them = "you" if who == "you" else "them"
            return [f"{who} ran out of time; the server played for {them}"]
        if match := _BACK.match(text):
            who = self.name(int(match[2]))
            return [f"{who} {'are' if who == 'you' else 'is'} back"]
        return None

    def _own_name(self) -> str | None:
        if self.seat is not None and 0 <= self.seat < len(self.players):
            return self.players[self.seat]
        return None

    def _render_Hello(self, msg: Message) -> list[str]:
        self.table_game = self.create_game = None  # back in the lobby
        self.seat, self.prompt, self.watching, self.table = None, None, None, None
        self.players, self.hand, self.scores, self.notes = [], [], None, {}
        if self.hanging_up:
            return []
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
        self.hanging_up = False
        return [f"! {msg.get('Message')} ({msg.get('Code')})"]

    def _render_Tables(self, msg: Message) -> list[str]:
        if self.joining:
            self.joining = False
            return []
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
        self.table = msg["Table"]
        self.players = [p or "" for p in msg["Players"]]
        if self.seat is None and self.watching != msg["Table"]:
            self.sitting = msg  # the Seat that follows says which of its seats is yours
            return []
        return self._table_line(msg)

    def _table_line(self, msg: Message) -> list[str]:
        """``Table 7 (friday): you, AI 1, (free). Waiting for 1 more (...)``."""
        players = ", ".join(
            "(free)" if p is None else self.name(i) for i, p in enumerate(msg["Players"])
        )
        line = f"{table_label(msg['Table'], msg['Name'])}: {players}"
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
        self.seat, self.table = msg["Playerid"], msg["Table"]
        table, self.sitting = self.sitting, None
        return [
            *(self._table_line(table) if table is not None else []),
            f"You sit at table {msg['Table']}. If your connection drops, or you leave, "
            f"come back and type: token {msg['Token']}",
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
            return self._hand()
        if head == "notation":
            return self._notation(args)
        if head in ("create", "join", "watch", "quit", "exit", "ladder"):
            return self._lobby(head, args)
        if head in ("login", "register"):
            return self.password.start(head == "register", args, self.table is None)
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
            return [_option(words, self._create_spec())]
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

    def _hand(self) -> list[str]:
        view = self._view()
        shown = view.numbered_text(self.hand, self) if view is not None else numbered(self.hand)
        asked = self.render(self.prompt) if self.prompt else []
        if any(line.startswith("Your hand: ") for line in asked):
            return asked  # the prompt shows the hand already
        return [f"Your hand: {shown}" if self.hand else "You hold no cards.", *asked]

    def _notation(self, args: list[str]) -> list[str]:
        """``notation``: how cards are shown; ``notation letters``: show them so."""
        if not args:
            other = LETTERS if self.notation == SYMBOLS else SYMBOLS
            return [f"Cards are shown as {self.notation}; type notation {other} to switch."]
        chosen = args[0].lower().rstrip("s") + "s"
        if len(args) != 1 or chosen not in NOTATIONS:
            raise Malformed(
                f"notation symbols or notation letters (not {quote(' '.join(args))})",
                "bad_message",
            )
        self.notation = chosen
        said = [f"Cards are shown as {chosen} now; type them as shown, or by position."]
        if self.hand:
            return said + self._hand()
        return said

    def _help(self) -> list[str]:
        """What can be typed now: the lobby's commands in the lobby; at a table, the
        game's and the table's; watching, a watcher's; then what is asked, if anything."""
        spec = games.get(self.game)
        if self.table is None:
            return HELP.splitlines()
        if self.seat is None:
            return HELP_WATCHING.splitlines()
        lines = [f"At table {self.table} ({spec.title}) you can type:"]
        if spec.text is not None:
            lines += spec.text.help.splitlines()
        lines += HELP_SEATED.splitlines()
        if self.prompt is not None and "Legal" in self.prompt:
            lines += ["Now:", *self.render(self.prompt)]
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
            if self.table is not None and self.seat is not None:
                self.hanging_up = True  # leave the seat to the AI, then go
                return [{"Type": "Leave"}, {"Type": "Hello", "Message": "quit"}]
            return [{"Type": "Hello", "Message": "quit"}]
        if head == "ladder":  # ladder [GAME]: queue for the ladder's rated sets
            return [{"Type": "Hello", "Message": "ladder", **({"Game": args[0]} if args else {})}]
        if head == "watch" and args:  # watch ID: straight from wherever in the lobby
            self.watching = number(args, "watch 7")
            return [{"Type": "Watch", "Table": self.watching}]
        out: list[Message] = [{"Type": "Hello", "Message": head}]
        if head != "create":
            if args:
                out.append({"Type": "Join", "Table": number(args, "join 7")})
                self.joining = True
            return out
        game = games.DEFAULT_GAME
        if args and not number_word(args[0]):
            out[0]["Game"] = args[0]  # create GAME [option]
            game = self._known(args[0]) or self.create_game or games.DEFAULT_GAME
            args = args[1:]
        if args:
            out.append(_option(args, games.get(game)))
        self.create_game = game  # only once the whole command is read
        return out


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
