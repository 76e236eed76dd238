"""Test helpers for the lobby, table, text-mode and server tests.

- ``Harness`` wraps a ``Hub`` (no sockets): one ``Client`` per connection collects what
  the hub sends it (decoded JSON, or text lines in text mode) and notes ``Close``.
- ``answer_from_legal`` picks a random answer from a prompt's ``Legal``;
  ``text_answer`` picks a text-mode command from what the text shows.
- ``check_stream`` is the oracle run over every connection's complete stream of JSON
  messages: the schema, ``Legal`` only in the copy for the seat to act, ``Seq`` one up
  per prompt (the same only after an Error), rounds and score totals that add up,
  trick winners, ``Lead`` and ``WinningCard``, and THE LEAK CHECK: a card that is not
  the seat's own reaches it only once it is played. The truth comes from the table's
  seed (``seeded_deck``), not from the messages, so a server that put another seat's
  card in a ``Deal`` or a ``Hand`` would be caught as surely as one in a ``Message``.
  The same seed checks the table's ``Commit`` (its hash) and ``Reveal`` (the seed).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from hundred_server import games
from hundred_server.config import AISettings
from hundred_server.core.fairness import commitment
from hundred_server.core.hub import Close, Command, Hub, Send
from hundred_server.games.hundredandten.rules import (
    HAND_SIZE,
    WINNING_SCORE,
    seeded_deck,
    trick_winner,
)
from hundred_server.games.kit.cards import ALL_CARDS, Card, Suit
from hundred_server.protocol.schema import validate_server_message
from hundred_server.protocol.wire import GREETING as GREETING_TEXT
from hundred_server.protocol.wire import LOBBY_QUESTION
from tests.support.oracle import LeakError, WatcherOracle, card_fields

Message = dict[str, Any]
PROMPT_TYPES = frozenset({"Bid", "Trump", "Discard", "Setup", "Play"})
CARD_CODES = frozenset(c.code for c in ALL_CARDS)
PRETTY_TO_CODE = {c.pretty: c.code for c in ALL_CARDS}
# A card code as a word of a people's Message ("... wins trick #1 with 5H").
CARD_WORD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b")
HELLO = {"Type": "Hello"}
QUESTION = {"Type": "Message", "Message": LOBBY_QUESTION}
#: A main-port connection's first message: the question, and how to get plain text.
GREETING = {"Type": "Message", "Message": GREETING_TEXT}


def is_prompt(msg: Message) -> bool:
    return msg.get("Type") in PROMPT_TYPES and "Seq" in msg


@dataclass
class Client:
    """One connection as its owner sees it."""

    harness: Harness
    conn: int
    messages: list[Message] = field(default_factory=list)  # JSON mode
    text: list[str] = field(default_factory=list)  # text mode: lines without \r\n
    raw: list[bytes] = field(default_factory=list)
    closed: bool = False
    read: int = 0  # messages[:read] have been taken
    read_text: int = 0

    def send(self, msg: Message | bytes | str) -> list[Message]:
        """Send one line; returns the JSON messages that came back to this client."""
        if isinstance(msg, dict):
            line = json.dumps(msg).encode()
        elif isinstance(msg, str):
            line = msg.encode()
        else:
            line = msg
        self.take()
        self.harness.apply(self.harness.hub.receive(self.conn, line))
        return self.take()

    def say(self, line: str) -> list[str]:
        """Text mode: send one line; returns the text lines that came back."""
        self.take_text()
        self.harness.apply(self.harness.hub.receive(self.conn, line.encode() + b"\r\n"))
        return self.take_text()

    def answer(self, rng: random.Random) -> list[Message]:
        """Answer this client's prompt, which it must have, from its ``Legal``; what the
        answer brought back."""
        prompt = self.pending()
        assert prompt is not None, "no prompt to answer"
        return self.send(answer_from_legal(prompt, rng))

    def play_on(self, rng: random.Random, answers: int) -> Iterator[Message]:
        """This client's prompts one at a time until its game is over (``answers`` at
        most), each answered from its ``Legal`` once the caller has looked at it."""
        for _ in range(answers):
            if self.game_over() is not None:
                return
            prompt = self.pending()
            assert prompt is not None
            yield prompt
            self.send(answer_from_legal(prompt, rng))

    def refused(self, answer: Message) -> Message:
        """Send ``answer`` to this client's prompt, which must refuse it: one Error, then
        the same prompt again. The Error."""
        prompt = self.pending()
        told = self.send(answer)
        assert told[0]["Type"] == "Error", told
        assert told[1:] == [prompt]
        return told[0]

    def play_text(
        self,
        shown: list[str],
        answer: Callable[[list[str], random.Random], str | None],
        rng: random.Random,
        over: Callable[[str], bool],
        turns: int,
    ) -> list[str]:
        """Text mode: answer what is ``shown`` by ``answer`` until a line is ``over``
        (``turns`` answers at most); every line shown, from ``shown`` on. Every line is
        rendered (none is JSON) and no answer is refused."""
        seen = list(shown)
        for _ in range(turns):
            if any(over(line) for line in shown):
                break
            line = answer(shown, rng)
            assert line is not None, shown[-3:]
            shown = self.say(line)
            assert not any(line.startswith("{") for line in shown), shown  # all rendered
            assert not any(line.startswith("! ") for line in shown), shown  # no refusals
            seen += shown
        return seen

    def take(self) -> list[Message]:
        new = self.messages[self.read :]
        self.read = len(self.messages)
        return new

    def take_text(self) -> list[str]:
        new = self.text[self.read_text :]
        self.read_text = len(self.text)
        return new

    def disconnect(self) -> None:
        self.harness.apply(self.harness.hub.disconnect(self.conn))
        self.closed = True

    # ------------------------------------------------------------------ queries

    def last(self, kind: str) -> Message:
        return next(m for m in reversed(self.messages) if m.get("Type") == kind)

    def pending(self) -> Message | None:
        """The last prompt, if it is this client's to answer and the game goes on."""
        for msg in reversed(self.messages):
            if msg.get("Type") == "Score" and msg.get("GameOver"):
                return None
            if msg == HELLO:
                return None
            if is_prompt(msg):
                return msg if "Legal" in msg else None
        return None

    def game_over(self) -> Message | None:
        """The GameOver of the latest game, or None while it goes on."""
        for msg in reversed(self.messages):
            if msg.get("Type") == "Score" and msg.get("GameOver"):
                return msg
            if msg.get("Type") == "Deal":
                return None
        return None


class Harness:
    """A ``Hub`` and its clients; every table is seeded ``<prefix>-<n>``, n from 1.

    Its tables' AI is the naive one unless ``ai`` says otherwise: the tests here are of
    the server, and the naive AI plays whole games in a blink (the strong AI's own
    tests and test_lobby's check the server's default, strong)."""

    def __init__(self, prefix: str = "seed", *, durable: bool = False, ai: str = "naive") -> None:
        self.seeds: list[str] = []
        self.now = 1000.0  # the hub's clock: tests move it on with ``advance``
        self.hub = Hub(
            seed_source=self._seed,
            clock=lambda: self.now,
            token_source=self._token,
            durable=durable,
            ai=AISettings(ai),
        )
        self.tokens: list[str] = []  # every token handed out, in order
        self.prefix = prefix
        self.clients: dict[int, Client] = {}
        self.stray: list[Command] = []  # commands for connections we do not know

    def _seed(self) -> str:
        seed = f"{self.prefix}-{len(self.seeds) + 1}"
        self.seeds.append(seed)
        return seed

    def _token(self) -> str:
        token = f"{len(self.tokens) + 1:032x}"  # 000...01, 000...02, ...
        self.tokens.append(token)
        return token

    def advance(self, seconds: float) -> None:
        """Move the hub's clock on and run its timers, as the server would."""
        self.now += seconds
        deadline = self.hub.lobby.timers.next_deadline()
        if deadline is not None and deadline <= self.now:
            self.apply(self.hub.tick())

    def table_seeds(self) -> dict[int, str]:
        """Table id -> seed (tables are numbered from 1 in the order they are made)."""
        return dict(enumerate(self.seeds, 1))

    def connect(self) -> Client:
        conn, commands = self.hub.connect("test")
        client = Client(self, conn)
        self.clients[conn] = client
        self.apply(commands)
        return client

    def apply(self, commands: Iterable[Command]) -> None:
        for command in commands:
            client = self.clients.get(command.conn)
            if client is None:
                self.stray.append(command)
                continue
            assert not client.closed, f"{command} after Close"
            if isinstance(command, Close):
                client.closed = True
                continue
            assert isinstance(command, Send)
            client.raw.append(command.data)
            if command.data.endswith(b"\r\n"):  # text mode; JSON lines end in \n alone
                text = command.data.decode()
                client.text += text.removesuffix("\r\n").split("\r\n")
            else:
                for line in command.data.splitlines():
                    client.messages.append(json.loads(line))

    def json_client(self, name: str | None = None) -> Client:
        """A connection past the greeting; with a name, its first line (JSON) has set
        JSON mode, without one the mode is still open."""
        client = self.connect()
        client.take()
        if name is not None:
            client.send({"Type": "Hello", "Name": name})
            client.take()
        return client

    def create(self, name: str | None = "ann", game: str | None = None, **answer: Any) -> Client:
        """A person (JSON, as ``name``) who asked to create a table (of ``game``, or of
        the default game) and gave the ``Game`` answer's fields ``answer``."""
        client = self.json_client(name)
        client.send({"Type": "Hello", "Message": "create", **({"Game": game} if game else {})})
        client.send({"Type": "Game", **answer})
        return client

    def told_after(self, client: Client, seconds: float) -> list[Message]:
        """What ``client`` is told once ``seconds`` have passed: nothing a tenth of a
        second before."""
        self.advance(seconds - 0.1)
        assert client.take() == []
        self.advance(0.1)
        return client.take()

    def watcher(self, table: int, name: str = "wat") -> Client:
        """A new connection (JSON, as ``name``) that asked to watch ``table``."""
        client = self.json_client(name)
        client.send({"Type": "Watch", "Table": table})
        return client

    def reclaim(self, token: str, name: str = "again") -> tuple[Client, list[Message]]:
        """A new connection (JSON, as ``name``) that takes its seat back with ``token``;
        what it was told."""
        client = self.json_client(name)
        return client, client.send({"Type": "Hello", "Token": token})


# ---------------------------------------------------------------------- answering


def answer_from_legal(prompt: Message, rng: random.Random) -> Message:
    """A random legal answer to ``prompt`` (which carries ``Legal``), echoing ``Seq``."""
    kind, legal = prompt["Type"], prompt["Legal"]
    answer: Message = {"Type": kind, "Playerid": prompt["Playerid"], "Seq": prompt["Seq"]}
    if kind == "Bid":
        # Still from Legal, but mostly a pass or the lowest bid: random bids fail so
        # often (the moon most of all) that people-only games would hardly ever end.
        bids = [b for b in legal if b and isinstance(b, int)]  # Rook's Legal ends in "moon"
        roll = rng.random()
        answer["Bid"] = (
            0 if roll < 0.5 or not bids else min(bids) if roll < 0.9 else rng.choice(legal)
        )
    elif kind == "Trump":
        answer["Trump"] = rng.choice(legal)
    elif kind == "Discard":
        answer["Cards"] = rng.sample(legal, rng.randint(0, len(legal)))
    elif kind == "Setup":  # Rook: Legal is the hand; discard Count, name trump, call Calls
        answer["Discard"] = rng.sample(legal, prompt["Count"])
        answer["Trump"] = rng.choice("BGRY")
        colours, numbers = "BGRY", ("1", *map(str, range(5, 15)))
        deck = [c + n for c in colours for n in numbers] + ["ROOK"]
        answer["Partners"] = rng.sample(deck, prompt["Calls"])
    else:
        answer["PlayedCard"] = rng.choice(legal)
    return answer


def play_until_over(
    clients: list[Client], rng: random.Random, max_answers: int = 5000
) -> list[Client]:
    """Answer from ``Legal`` for every client until each has seen GameOver (or left)."""
    for _ in range(max_answers):
        live = [c for c in clients if not c.closed and c.game_over() is None]
        if not live:
            return clients
        to_answer = [(c, p) for c in live if (p := c.pending()) is not None]
        assert len(to_answer) == 1, f"expected one seat to answer, got {len(to_answer)}"
        client, prompt = to_answer[0]
        client.send(answer_from_legal(prompt, rng))
    raise AssertionError(f"no game over after {max_answers} answers")


# ------------------------------------------------------------------ the oracle


def cards_in(msg: Message) -> list[str]:
    """Every card code in a message: card fields, and card words of people's text."""
    if msg.get("Type") == "Message":
        return CARD_WORD.findall(str(msg.get("Message", "")))
    return card_fields(msg, CARD_CODES, ("Players", "Name", "Tables", "Message"))


@dataclass
class _Round:
    deck: tuple[Card, ...]
    own: set[str]  # dealt to or drawn by the seat this round
    hand: list[str]  # what the seat holds now (the truth)
    number: int
    played: set[str] = field(default_factory=set)
    trick: list[tuple[int, Card]] = field(default_factory=list)  # the trick being played
    tricks: int = 0
    trump: Suit | None = None
    drawn: int = 0  # cards of the deck dealt or drawn so far


class StreamError(LeakError):
    """A connection's stream broke a rule of the oracle (a leak, or any other)."""


_VALID: set[str] = set()


def validate_once(msg: Message, fail: Callable[[str], StreamError]) -> None:
    """Check ``msg`` against the schema; each distinct message is checked once (with
    ``Seq`` read as 1: ``check_stream`` checks the Seq values itself), which keeps
    thousands of messages per game affordable."""
    key = json.dumps({**msg, "Seq": 1} if "Seq" in msg else msg, sort_keys=True)
    if key in _VALID:
        return
    try:
        validate_server_message(msg)
    except Exception as exc:
        raise fail(f"not valid against the schema: {exc}") from None
    _VALID.add(key)


def checked(
    messages: list[Message], what: str, schema: bool
) -> Iterator[tuple[int, Message, Callable[[str], StreamError]]]:
    """Each message with its index and a ``fail(why)`` that names it (as ``what``),
    validated against the schema first where ``schema``."""
    for index, msg in enumerate(messages):

        def fail(why: str, index: int = index, msg: Message = msg) -> StreamError:
            return StreamError(f"{what} {index} {json.dumps(msg)}: {why}")

        if schema:
            validate_once(msg, fail)
        yield index, msg, fail


def valid(msg: Message) -> None:
    """``msg`` is valid against the schema (checked once a message): a StreamError that
    quotes it if not."""
    validate_once(msg, lambda why: StreamError(f"{json.dumps(msg)}: {why}"))


def check_stream(messages: list[Message], seeds: Mapping[int, str], *, schema: bool = True) -> int:
    """The oracle for one connection's whole JSON stream; returns the games it saw.

    Raises ``StreamError`` saying which message (by index) broke which rule.
    """
    table: int | None = None
    seat: int | None = None
    rnd: _Round | None = None
    last_seq = 0
    games = 0
    totals: list[int] = []
    previous: Message | None = None
    other_game = False
    for _, msg, fail in checked(messages, "message", schema):
        kind = msg.get("Type")
        if kind == "Table":
            other_game = msg["Game"] != "hundredandten"
        if other_game:  # this oracle knows Hundred and Ten; other games have their own
            if msg == HELLO:
                other_game = False
            continue
        if kind == "Table":
            if table != msg["Table"]:
                table, seat, rnd, last_seq = msg["Table"], None, None, 0
        elif kind == "Deal":
            if table is None:
                raise fail("a Deal before any Table")
            n = len(msg["Players"])
            if seat is None:  # a new game
                games += 1
                totals = [0] * n
                expected_round = 1
            else:
                assert rnd is not None
                expected_round = rnd.number + 1
            if msg["Round"] != expected_round:
                raise fail(f"Round {msg['Round']}, expected {expected_round}")
            if seat not in (None, msg["Playerid"]):
                raise fail(f"my seat was {seat}")
            seat = msg["Playerid"]
            deck = seeded_deck(seeds[table], msg["Round"] - 1)
            dealt = [c.code for c in deck[HAND_SIZE * seat : HAND_SIZE * (seat + 1)]]
            rnd = _Round(deck, set(dealt), list(dealt), msg["Round"], drawn=HAND_SIZE * n)
            if msg["Hand"] != dealt:
                raise fail(f"the hand dealt to seat {seat} is {dealt}")
        elif kind in ("Commit", "Reveal"):  # the table's seed: bound, then shown
            if table != msg["Table"]:
                raise fail(f"a {kind} of table {msg['Table']} at table {table}")
            seed = seeds[table]
            if msg["Hash"] != commitment(msg["Game"], seed) or msg.get("Seed", seed) != seed:
                raise fail(f"table {table} deals from seed {seed!r}")
        elif kind == "Snapshot":  # a seat taken back mid-game: pick the game up here
            if table != msg["Table"]:
                raise fail(f"a Snapshot of table {msg['Table']} at table {table}")
            if seat is None:
                games += 1
            seat, n = msg["Playerid"], len(msg["Players"])
            deck = seeded_deck(seeds[table], msg["Round"] - 1)
            dealt = [c.code for c in deck[HAND_SIZE * seat : HAND_SIZE * (seat + 1)]]
            pile = {c.code for c in deck[HAND_SIZE * n :]}
            mine = set(msg["Hand"]) | set(msg.get("Discarded", []))
            if mine - set(dealt) - pile:
                raise fail(f"seat {seat} was dealt {dealt} and drew from the pile")
            exchanged = sum(x for x in msg["Exchanged"] if x)
            rnd = _Round(deck, mine | set(dealt), list(msg["Hand"]), msg["Round"])
            rnd.drawn = HAND_SIZE * n + exchanged
            rnd.tricks = msg["Tricks"]
            rnd.trump = Suit.parse(msg["Trump"]) if "Trump" in msg else None
            rnd.trick = [(p["Playerid"], Card.parse(p["PlayedCard"])) for p in msg["Trick"]]
            rnd.played = {p["PlayedCard"] for p in msg["Trick"]}
            totals = list(msg["Score"])
            last_seq = -1  # the next prompt's Seq is whatever the table is at
        elif kind == "Trump" and "Trump" in msg and rnd is not None:
            rnd.trump = Suit.parse(msg["Trump"])
        elif kind == "Discard" and "Count" in msg and rnd is not None:
            count = msg["Count"]
            drawn = [c.code for c in rnd.deck[rnd.drawn : rnd.drawn + count]]
            rnd.drawn += count
            if "Cards" in msg or "Hand" in msg:
                if msg["Playerid"] != seat:
                    raise fail(f"seat {seat} is told what seat {msg['Playerid']} discarded")
                gone = msg["Cards"]
                if len(gone) != count or len(set(gone)) != count or set(gone) - set(rnd.hand):
                    raise fail(f"the discarded cards are not {count} of the hand {rnd.hand}")
                kept = [c for c in rnd.hand if c not in gone]
                rnd.hand = kept + drawn
                rnd.own.update(drawn)
                if msg["Hand"] != rnd.hand:
                    raise fail(f"the new hand is {rnd.hand}")
            elif msg["Playerid"] == seat:
                raise fail("the discarder is not told its own cards")
        elif kind == "Play" and "PlayedCard" in msg and rnd is not None:
            card = msg["PlayedCard"]
            if msg["Playerid"] == seat:
                if card not in rnd.hand:
                    raise fail(f"seat {seat} played a card it does not hold: {rnd.hand}")
                rnd.hand.remove(card)
            elif card in rnd.own:
                raise fail(f"another seat played seat {seat}'s card")
            rnd.played.add(card)
            rnd.trick.append((msg["Playerid"], Card.parse(card)))
        elif kind == "Trick" and rnd is not None:
            if rnd.trump is None or not rnd.trick:
                raise fail("a trick won before trump is named or a card played")
            winner, best = trick_winner(rnd.trick, rnd.trump)
            rnd.tricks += 1
            if (msg["Playerid"], msg["WinningCard"], msg["Trick"]) != (
                winner,
                best.code,
                rnd.tricks,
            ):
                raise fail(f"trick {rnd.tricks} is won by seat {winner} with {best}")
            rnd.trick = []
        elif kind == "Score" and rnd is not None:
            if msg.get("GameOver"):
                if msg["Score"] != totals or totals[msg["Winner"]] < WINNING_SCORE:
                    raise fail(f"the game ends with {totals}")
                if msg["Win"] is not (msg["Winner"] == seat):
                    raise fail(f"Win is whether seat {seat} won")
                seat, rnd = None, None
            else:
                if msg["Round"] != rnd.number:
                    raise fail(f"this is round {rnd.number}")
                if msg.get("PassedOut") and any(msg["Points"]):
                    raise fail("a passed-out round scores nothing")
                totals = [t + p for t, p in zip(totals, msg["Points"], strict=True)]
                if msg["Score"] != totals:
                    raise fail(f"the totals are {totals}")
        # The leak check proper.
        if rnd is not None and seat is not None:
            allowed = rnd.own | rnd.played
            leaked = [c for c in cards_in(msg) if c not in allowed]
            if leaked:
                raise fail(f"seat {seat} sees {leaked}: neither its own nor played")
        elif kind not in (
            *("Table", "Tables", "Message", "Hello", "Game", "Error", "Score", "Seat"),
            *("Commit", "Reveal"),
        ):
            raise fail("a game message outside a game")
        # Prompts: Legal for the seat to act only, Seq one up (the same after an Error).
        if is_prompt(msg):
            if seat is None or rnd is None:
                raise fail("a prompt outside a game")
            if ("Legal" in msg) != (msg["Playerid"] == seat):
                raise fail(f"Legal must be in seat {msg['Playerid']}'s copy only (I am {seat})")
            if last_seq == -1:
                pass
            elif msg["Seq"] == last_seq:
                if previous is None or previous.get("Type") != "Error":
                    raise fail(f"Seq {last_seq} again without an Error before it")
            elif msg["Seq"] != last_seq + 1:
                raise fail(f"Seq {msg['Seq']} after {last_seq}")
            last_seq = msg["Seq"]
            if kind == "Discard" and "Legal" in msg and msg["Legal"] != rnd.hand:
                raise fail(f"Legal for a discard is the hand {rnd.hand}")
            if kind == "Play":
                _check_play_prompt(msg, rnd, fail)
        previous = msg
    return games


def _check_play_prompt(msg: Message, rnd: _Round, fail: Callable[[str], StreamError]) -> None:
    assert rnd.trump is not None
    if msg["Trump"] != rnd.trump.value:
        raise fail(f"trump is {rnd.trump.value}")
    if "Legal" in msg and (not msg["Legal"] or set(msg["Legal"]) - set(rnd.hand)):
        raise fail(f"Legal must be cards of the hand {rnd.hand}")
    if not rnd.trick:
        if "Lead" in msg or "WinningCard" in msg:
            raise fail("no card is led yet")
        return
    first = rnd.trick[0][1]
    lead = (first.suit or rnd.trump).value
    best = trick_winner(rnd.trick, rnd.trump)[1].code
    if (msg.get("Lead"), msg.get("WinningCard")) != (lead, best):
        raise fail(f"Lead is {lead} and WinningCard {best}")


# ---------------------------------------------------------------------- text mode

_NUMBERED = re.compile(r"(\d+):(\S+)")
_TRUMP_WORDS = {
    "H": ("hearts", "h", "♥", "Heart"),
    "D": ("diamonds", "D", "♦", "diamond"),
    "S": ("spades", "s", "♠", "SPADES"),
    "C": ("clubs", "c", "♣", "club"),
}


def text_answer(lines: list[str], rng: random.Random) -> str | None:
    """A command answering the last ``> `` prompt in ``lines``, read from the text as a
    person would; None when the prompt is not a game prompt (the lobby, the options)."""
    at = max(i for i, line in enumerate(lines) if line.startswith("> "))
    ask = lines[at]
    if ask.startswith("> your bid ("):
        options = ask[len("> your bid (") : ask.index(")")].split(", ")
        bids = [int(o) for o in options if o != "pass"]
        roll = rng.random()
        if roll < 0.5 or not bids:
            return "pass"
        bid = min(bids) if roll < 0.9 else rng.choice(bids)
        return "moon" if bid == 60 else f"bid {bid}"
    if ask.startswith("> name trump"):
        return "trump " + rng.choice(_TRUMP_WORDS[rng.choice("HDSC")])
    if ask.startswith(("> discard", "> play")):
        shown = lines[at - 1]
        assert shown.startswith("Your hand: "), shown
        hand = [(int(n), PRETTY_TO_CODE[p]) for n, p in _NUMBERED.findall(shown)]
        if ask.startswith("> discard"):
            picks = rng.sample(hand, rng.randint(0, len(hand)))
            if not picks:
                return rng.choice(["discard none", "discard"])
            if rng.random() < 0.5:
                return "discard " + " ".join(str(n) for n, _ in picks)
            return "discard " + " ".join(code for _, code in picks)
        legal = ask[len("> play one of: ") : ask.index("   (")].split(" ")
        code = PRETTY_TO_CODE[rng.choice(legal)]
        return play_command(hand, code, rng, lambda: code.lower() if rng.random() < 0.5 else code)
    return None


def play_command(
    hand: list[tuple[int, str]],
    code: str,
    rng: random.Random,
    name: Callable[[], str] | None = None,
) -> str:
    """Text mode's ``play`` of ``code``: by its number in ``hand`` (numbers and codes)
    half the time, else by ``name()`` (the code itself unless given)."""
    if rng.random() < 0.5:
        return f"play {next(n for n, c in hand if c == code)}"
    return f"play {name() if name is not None else code}"


# ------------------------------------------------------------------ a watcher's stream

#: Keys that hold one seat's own cards, never in a watcher's stream.
PRIVATE_KEYS = WatcherOracle.PRIVATE_KEYS
#: What a watcher is told of the game exactly as the seats are (prompts without their
#: ``Legal`` and clock): the oracle compares these with a seat's stream.
PUBLIC_TYPES = frozenset(
    {"Bid", "Trump", "Play", "Trick", "Meld", "Pile", "Score", "Setup", "Kitty", "Discard"}
)


def public_part(messages: list[Message]) -> list[Message]:
    """The game messages of a stream as a watcher is told them: every announcement
    (a seat's own copy of its discard, kitty or setup without the cards only it may
    see; no pre-pass, no game over, which differ by seat), and every prompt without
    ``Legal`` and ``TimeLeft``. A watcher's ``public_part`` is a seat's, from the
    moment it came."""
    own_cards = ("Cards", "Hand", "Discard", "Legal", "TimeLeft")
    out = []
    for msg in messages:
        kind = msg.get("Type")
        if kind not in PUBLIC_TYPES or msg.get("PrePass") or msg.get("GameOver"):
            continue
        out.append({k: v for k, v in msg.items() if k not in own_cards or kind in ("Meld", "Pile")})
    return out


def check_watcher_stream(messages: list[Message], *, schema: bool = True) -> int:
    """The oracle for a watcher's whole JSON stream; returns the games it saw end.

    Each table's messages are read by the ``WatcherOracle`` of its game (from the
    registry, by the ``Table``'s ``Game``): no card that is not face up, no key that
    holds a seat's own cards, no ``Deal`` with a seat or a hand (tests/support/oracle.py).
    And here: a prompt never carries ``Legal`` (``PRIVATE_KEYS``), and every game it saw
    start (a ``Deal``, or a ``Snapshot``) ends in its end: the ``GameOver`` score, the
    ``Reveal``, the lobby question."""
    watching: WatcherOracle | None = None
    in_game = False
    ended = 0
    for index, msg, fail in checked(messages, "watcher message", schema):
        kind = msg.get("Type")
        if kind == "Table":
            watching = WatcherOracle(games.get(msg["Game"]))
        if kind in ("Deal", "Snapshot"):
            in_game = True
        if watching is not None:
            try:
                watching.see(msg)
            except LeakError as exc:
                raise fail(str(exc)) from None
        elif kind == "Seat":
            raise fail("a watcher holds no seat")
        if kind == "Score" and msg.get("GameOver"):
            rest = [m.get("Type") for m in messages[index + 1 : index + 4]]
            if rest != ["Reveal", "Message", "Hello"] or messages[index + 2] != QUESTION:
                raise fail(f"the game ends in Reveal and the lobby question, not {rest}")
            in_game = False
            ended += 1
    if in_game:
        raise StreamError("the watcher's last game has no end")
    return ended
