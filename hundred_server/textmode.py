"""Text mode for people on netcat or telnet (no I/O).

A connection whose first line is not JSON gets a ``TextCodec``: it renders each wire
message as readable lines (``5♥ J♠ 🃏``, whose turn it is, the legal moves) and turns
short commands (``create``, ``join 3``, ``bid 20``, ``pass``, ``trump hearts``,
``discard 2 5``, ``play 5H``, ``help``, ``quit``) into the very wire messages a JSON
client would send, so the server treats both alike. Telnet negotiation bytes are
stripped by ``strip_telnet`` before a line is read.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

from hundred_server.cards import Card, Suit
from hundred_server.protocol import Message, ProtocolError, quote

IAC: Final = 255
_SB, _SE = 250, 240
_WILL_WONT_DO_DONT: Final = frozenset({251, 252, 253, 254})

HELP: Final = """Commands:
  create            make a table of Hundred and Ten (then choose 1-6); create 5 SEATS BOTS NAME
  create whist      make a table of Whist (then choose an option)
  join, join ID     list open tables; sit at table ID
  name NAME         set your name
  bid N, pass, moon bid 15/20/25/30, pass (also early: a pre-pass), bid 60
  unpass            take back a pre-pass
  trump SUIT        hearts, diamonds, spades, clubs (or h, d, s, c)
  discard 2 5       discard by position in your hand (from 1) or by card (2C 3D); discard none
  play 5H, play 3   play by card or by position
  hand              your hand and what you are asked now
  token TOKEN       take your seat back after a lost connection (the token you were given)
  help              this list
  quit              leave"""

_SUIT_WORDS: Final = {
    **{s.name.lower(): s for s in Suit},
    **{s.name.lower()[:-1]: s for s in Suit},
    **{s.value.lower(): s for s in Suit},
    **{s.symbol: s for s in Suit},
}


def _number_word(word: str) -> bool:
    """0-9 only: ``"²".isdigit()`` is true, but ``int("²")`` fails."""
    return word.isascii() and word.isdigit()


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


def _pretty(codes: Sequence[str]) -> str:
    return " ".join(Card.parse(c).pretty for c in codes)


def _numbered(codes: Sequence[str]) -> str:
    return "  ".join(f"{i}:{Card.parse(c).pretty}" for i, c in enumerate(codes, 1))


class TextCodec:
    """One text-mode connection: what it has been told, to render and read in context."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.players: list[str] = []
        self.hand: list[str] = []
        self.prompt: Message | None = None
        self.options = 0  # create options shown since the last Game prompt

    # ------------------------------------------------------------------- output

    def name(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.players):
            return "you" if seat == self.seat else self.players[seat]
        return f"seat {seat}"

    def render(self, msg: Message) -> list[str]:
        kind = msg.get("Type")
        method = getattr(self, f"_render_{kind}", None)
        if method is None:
            return [json.dumps(msg, ensure_ascii=False)]
        lines: list[str] = method(msg)
        return lines

    def _render_Message(self, msg: Message) -> list[str]:
        text = str(msg.get("Message", ""))
        if text.startswith("Option "):
            self.options += 1
        return [text]

    def _render_Hello(self, msg: Message) -> list[str]:
        return ["> create, join, quit (or help)"]

    def _render_Game(self, msg: Message) -> list[str]:
        count, self.options = self.options or 6, 0
        if count == 6:  # Hundred and Ten: option 5 is a table of your choice
            return ["> choose an option: 1-6 (for 5: 5 SEATS BOTS NAME, e.g. 5 3 1 friday)"]
        return [f"> choose an option: 1-{count}"]

    def _render_Error(self, msg: Message) -> list[str]:
        return [f"! {msg.get('Message')} ({msg.get('Code')})"]

    def _render_Tables(self, msg: Message) -> list[str]:
        tables = msg.get("Tables") or []
        if not tables:
            return ["No open tables right now. Type create, or join again later."]
        lines = ["Open tables:"]
        for t in tables:
            players = ", ".join(p if p is not None else "(free)" for p in t["Players"])
            lines.append(f"  {t['Table']:>4}  {t['Name']}: {players}")
        return [*lines, "> join ID, or create"]

    def _render_Table(self, msg: Message) -> list[str]:
        players = ", ".join(p if p is not None else "(free)" for p in msg["Players"])
        line = f"Table {msg['Table']} ({msg['Name']}): {players}"
        if msg["Free"]:
            line += f". Waiting for {msg['Free']} more (others type: join {msg['Table']})"
        return [line]

    def _render_Seat(self, msg: Message) -> list[str]:
        self.seat = msg["Playerid"]
        return [
            f"You sit at table {msg['Table']}, seat {msg['Playerid']}. If your connection "
            f"drops, reconnect and type: token {msg['Token']}"
        ]

    def _render_Snapshot(self, msg: Message) -> list[str]:
        self.seat = msg["Playerid"]
        self.players = list(msg["Players"])
        self.hand = list(msg["Hand"])
        board = ", ".join(f"{self.name(i)} {v}" for i, v in enumerate(msg["Score"]))
        lines = [
            f"── Back at seat {self.seat}, round {msg['Round']} ({msg['Phase']}); "
            f"{self.name(msg['Dealer'])} dealt. Scores: {board}",
            f"Your hand: {_pretty(self.hand)}",
        ]
        if "Trump" in msg:
            suit = Suit.parse(msg["Trump"])
            bid = f", bid {msg['Bid']}" if "Bid" in msg else ""
            lines.append(f"Trump is {suit.symbol} {suit.name.lower()}{bid}")
        if msg["Trick"]:
            played = ", ".join(
                f"{self.name(p['Playerid'])} {Card.parse(p['PlayedCard']).pretty}"
                for p in msg["Trick"]
            )
            lines.append(f"This trick so far: {played}")
        return lines

    def _render_Deal(self, msg: Message) -> list[str]:
        self.seat = msg["Playerid"]
        self.players = list(msg["Players"])
        self.hand = list(msg["Hand"])
        return [
            f"── Round {msg['Round']}: {self.name(msg['Dealer'])} deal"
            f"{'' if msg['Dealer'] == self.seat else 's'}. "
            f"You are seat {self.seat} ({self.players[self.seat]}).",
            f"Your hand: {_pretty(self.hand)}",
        ]

    def _waiting(self, msg: Message, verb: str) -> list[str]:
        return [f"(waiting for {self.name(msg['Playerid'])} to {verb})"]

    def _render_Bid(self, msg: Message) -> list[str]:
        if "Bid" not in msg:
            self.prompt = msg
            if "Legal" not in msg:
                return self._waiting(msg, "bid")
            options = ", ".join("pass" if b == 0 else str(b) for b in msg["Legal"])
            return [f"> your bid ({options}): bid N, pass, or moon for 60"]
        who = self.name(msg["Playerid"])
        if msg.get("PrePass"):
            return ["You will pass when your turn comes (unpass to take it back)."]
        verb = "passes" if msg["Bid"] == 0 else f"bids {msg['Bid']}"
        if who == "you":
            verb = "pass" if msg["Bid"] == 0 else f"bid {msg['Bid']}"
        return [f"{who} {verb}{' (pre-pass)' if msg.get('Auto') else ''}"]

    def _render_Unpass(self, msg: Message) -> list[str]:
        return ["Your pre-pass is taken back."]

    def _render_Trump(self, msg: Message) -> list[str]:
        if "Trump" not in msg:
            self.prompt = msg
            if "Legal" not in msg:
                return self._waiting(msg, "name trump")
            return ["> name trump: trump hearts, diamonds, spades or clubs"]
        suit = Suit.parse(msg["Trump"])
        if "Card" in msg:  # Whist: the dealer's last card, turned up
            card = Card.parse(msg["Card"]).pretty
            return [f"Trump is {suit.symbol} {suit.name.lower()} ({card} turned up)"]
        return [
            f"Trump is {suit.symbol} {suit.name.lower()} (named by {self.name(msg['Playerid'])})"
        ]

    def _render_Discard(self, msg: Message) -> list[str]:
        if "Count" not in msg:
            self.prompt = msg
            if "Legal" not in msg:
                return self._waiting(msg, "discard")
            self.hand = list(msg["Legal"])
            return [
                f"Your hand: {_numbered(self.hand)}",
                "> discard by position or card (discard 2 5, discard 2C), or discard none",
            ]
        if "Hand" in msg:
            self.hand = list(msg["Hand"])
            gone = _pretty(msg["Cards"]) or "nothing"
            return [f"You discarded {gone}. Your hand: {_pretty(self.hand)}"]
        return [f"{self.name(msg['Playerid'])} exchanged {msg['Count']} card(s)"]

    def _render_Play(self, msg: Message) -> list[str]:
        if "PlayedCard" not in msg:
            self.prompt = msg
            if "Legal" not in msg:
                return self._waiting(msg, "play")
            trump = Suit.parse(msg["Trump"])
            state = f"trump {trump.symbol}"
            if "WinningCard" in msg:
                state += f", winning {Card.parse(msg['WinningCard']).pretty}"
            return [
                f"Your hand: {_numbered(self.hand)}   ({state})",
                f"> play one of: {_pretty(msg['Legal'])}   (play 5H or play 3)",
            ]
        card = msg["PlayedCard"]
        if msg["Playerid"] == self.seat and card in self.hand:
            self.hand.remove(card)
        return [f"{self.name(msg['Playerid'])} played {Card.parse(card).pretty}"]

    def _render_Trick(self, msg: Message) -> list[str]:
        return []  # the Message that follows says it for people

    def _side(self, side: object) -> str:
        """A Whist side ("NS" / "EW", or 0 / 1) for people."""
        index = {"NS": 0, "EW": 1}.get(side, side) if isinstance(side, str) else side
        names = ("North-South", "East-West")
        if not isinstance(index, int) or not 0 <= index < 2:
            return f"side {side}"
        mine = self.seat is not None and self.seat % 2 == index
        return f"{names[index]}{' (you)' if mine else ''}"

    def _render_Score(self, msg: Message) -> list[str]:
        if "Tricks" in msg or isinstance(msg.get("Winner"), str):  # Whist: by side
            return self._render_side_score(msg)
        totals = msg.get("Score") or []
        board = ", ".join(f"{self.name(i)} {v}" for i, v in enumerate(totals))
        if msg.get("GameOver"):
            self.prompt = None
            verdict = "You win!" if msg.get("Win") else f"{self.name(msg.get('Winner'))} wins."
            return [f"Game over. {verdict} Final scores: {board}"]
        if msg.get("PassedOut"):
            return [f"Round {msg.get('Round')} passed out. Scores: {board}"]
        points = ", ".join(f"{self.name(i)} {v:+d}" for i, v in enumerate(msg.get("Points") or []))
        return [f"Round {msg.get('Round')}: {points}. Scores: {board}"]

    def _render_side_score(self, msg: Message) -> list[str]:
        totals = msg.get("Score") or []
        board = ", ".join(f"{self._side(i)} {v}" for i, v in enumerate(totals))
        if msg.get("GameOver"):
            self.prompt = None
            verdict = "You win!" if msg.get("Win") else f"{self._side(msg.get('Winner'))} wins."
            return [f"Game over. {verdict} Final scores: {board}"]
        tricks = msg.get("Tricks") or []
        taken = ", ".join(f"{self._side(i)} {v}" for i, v in enumerate(tricks))
        return [f"Hand {msg.get('Round')}: tricks {taken}. Scores: {board}"]

    # -------------------------------------------------------------------- input

    def parse(self, text: str) -> list[Message] | list[str]:
        """Wire messages for a command, or lines to show at once (help, hand)."""
        words = text.strip().split()
        if not words:
            return []
        head, args = words[0].lower(), words[1:]
        if head in ("help", "?"):
            return HELP.splitlines()
        if head == "hand":
            lines = [f"Your hand: {_numbered(self.hand)}" if self.hand else "You hold no cards."]
            return lines + (self.render(self.prompt) if self.prompt else [])
        if head in ("create", "join", "quit", "exit"):
            return self._lobby(head, args)
        if head == "name":
            return [{"Type": "Hello", "Name": " ".join(args)}]
        if head == "token":
            return [{"Type": "Hello", "Token": " ".join(args)}]
        if _number_word(head):
            return [self._option(words)]
        if head in ("pass", "moon", "unpass"):
            if head == "unpass":
                return [{"Type": "Unpass"}]
            return [{"Type": "Bid", "Bid": 0 if head == "pass" else 60}]
        if head == "bid":
            return [{"Type": "Bid", "Bid": self._number(args, "bid 20")}]
        if head == "trump":
            suit = _SUIT_WORDS.get(args[0].lower()) if args else None
            if suit is None:
                raise ProtocolError(f"name a suit: trump hearts (not {quote(text)})", "bad_suit")
            return [{"Type": "Trump", "Trump": suit.value}]
        if head == "discard":
            picks = [] if args in ([], ["none"], ["-"]) else [self._card(a) for a in args]
            return [{"Type": "Discard", "Cards": picks}]
        if head == "play":
            if len(args) != 1:
                raise ProtocolError("play one card: play 5H or play 3", "bad_message")
            return [{"Type": "Play", "PlayedCard": self._card(args[0])}]
        raise ProtocolError(f"unknown command {quote(words[0])} (type help)", "unknown_type")

    def _lobby(self, head: str, args: list[str]) -> list[Message]:
        if head in ("quit", "exit"):
            return [{"Type": "Hello", "Message": "quit"}]
        out: list[Message] = [{"Type": "Hello", "Message": head}]
        if head == "create" and args and not _number_word(args[0]):
            out[0]["Game"] = args[0]  # create whist [option]
            args = args[1:]
        if head == "create" and args:
            out.append(self._option(args))
        elif head == "join" and args:
            out.append({"Type": "Join", "Table": self._number(args, "join 7")})
        return out

    def _option(self, words: list[str]) -> Message:
        option: Message = {"Type": "Game", "Option": self._number(words[:1], "1-6")}
        if option["Option"] == 5 and len(words) > 1:
            option["Seats"] = self._number(words[1:2], "5 SEATS BOTS NAME")
            if len(words) > 2:
                option["Bots"] = self._number(words[2:3], "5 SEATS BOTS NAME")
            if len(words) > 3:
                option["Name"] = " ".join(words[3:])
        return option

    @staticmethod
    def _number(args: list[str], example: str) -> int:
        if len(args) != 1 or not _number_word(args[0]) or len(args[0]) > 6:
            typed = " ".join(args) or "nothing"
            raise ProtocolError(
                f"expected a number, as in: {example} (not {quote(typed)})", "bad_message"
            )
        return int(args[0])

    def _card(self, word: str) -> str:
        if _number_word(word):
            index = int(word) - 1
            if not 0 <= index < len(self.hand):
                raise ProtocolError(
                    f"no card at position {word}: you hold {len(self.hand)}", "bad_card"
                )
            return self.hand[index]
        return word
