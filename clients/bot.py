#!/usr/bin/env python3
"""A bot for hundred_server's games, in one file: Hundred and Ten by the standard library
alone, every game with the server's own AIs.

It speaks the line protocol of ``protocol.md`` (one JSON object per line over TCP), so
it also shows how little a client in any language needs.

Usage::

    python clients/bot.py --create 4                 # open a 4-seat table for people
    python clients/bot.py --create 1                 # play against three AI seats
    python clients/bot.py --create 5 --seats 3 --bots 1 --table-name friday
    python clients/bot.py --join 7                   # join table 7
    python clients/bot.py --join any --wait 30       # join the first open table
    python clients/bot.py --create 1 --games 5 --strategy random --seed 42 --verbose
    python clients/bot.py --ladder --key="$HUNDRED_KEY" --games 100   # a rated bot
    python clients/bot.py --game rook --create 1 --strategy strong    # any game
    python clients/bot.py --game whist --ladder --key="$HUNDRED_KEY" --strategy naive

Options: ``--host`` (127.0.0.1), ``--port`` (7110), ``--name``, ``--games N`` (play N
games back to back, answering the lobby question again with the same choice after each;
``--games 0``: no limit, until it is told to stop),
``--wait S`` (how long ``--join`` looks for a table, default 30), ``--seed``,
``--game G`` (the game it creates, joins or queues for: hundredandten, the default,
whist, pinochle, rook, hundert, spades), ``--strategy naive|strong|random|weak`` (see
below), ``--timeout S`` (give up when the server says
nothing for S seconds; default: wait for ever), ``--verbose`` (every line received
``-->`` and sent ``<--`` on stderr).

Strategies. In Hundred and Ten, with the standard library alone, from each prompt's
``Legal``: ``naive`` (the default) bids by the trumps of the best suit, names it,
discards the rest, plays the cheapest card that takes the trick, else the lowest;
``random`` gives any legal answer (random moon bids sink every score: a table of four
random bots may never finish); ``weak`` bids, names trumps and discards as naive but
plays any legal card. Every other game, and ``strong`` in every game, plays by the
seat's view (protocol.md, Views for bots): it says ``"Views":true`` in ``Hello``, reads
each prompt's ``View`` back into the game's ``View`` and runs hundred_server's own AI
of that name on it (``naive``, or ``strong``: search over sampled deals, at most 50 ms
of CPU a decision), answering with ``Choice``; ``random`` there picks any index of the
view's ``legal``, with the standard library alone. Those AIs need the package
installed (``pip install -e .``): without it the bot says so and exits 1.

The ladder (``--ladder``, docs/bots.md): with an account's API key (``--key``, or the
environment's ``HUNDRED_KEY``) it queues on ``--game``'s ladder and plays the rated
games the server pairs it into, set after set, until it has played ``--games`` (then it
quits), or, with ``--games 0``, until it is told to stop.

Stopping: SIGTERM or a first Ctrl-C (SIGINT) lets the game under way end (a ladder bot's
seat is not handed to the AI halfway), then the bot quits and prints its summary; one
not in a game quits at once. A second signal stops it at once (exit 1).

If its connection drops it connects again, waiting 0.5 s, then twice as long
each time up to 30 s (``--backoff``), says its key again and takes its seat back by the
seat's token if a game was under way (then queues again once that game is over).

How it plays: its seat is ``Playerid`` in ``Deal``; it answers only prompts (messages
with ``Seq``) addressed to its seat that carry ``Legal``, always echoing ``Seq``, and
each ``Seq`` once. After an ``Error`` it waits for the prompt the server sends again;
after three errors for the same ``Seq`` it falls back to the first legal answer (by
views: ``Choice`` 0), and
after six it gives up. A lobby error while joining (the table filled up meanwhile) is
followed, if the server says nothing more within a second, by a fresh look at the list.

At the end it prints one JSON line on stdout, ``{"name":..,"games":..,"wins":..,
"scores":[..],"cpu":..}`` (``scores``: its final total in each game, its side's in a
game of partners; ``cpu``: the CPU seconds the bot used), and exits 0. It exits 1
with a message on stderr when it cannot connect, the server closes the connection
unexpectedly, or the server says something it cannot follow.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sys
import time
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]

MAX_LINE = 8192
FALLBACK_AFTER = 3  # errors for one Seq before falling back to the first legal answer
GIVE_UP_AFTER = 6  # errors for one Seq before giving up
MAX_LOBBY_ERRORS = 10  # lobby errors in a row before giving up
RETRY_DELAY = 0.5  # seconds between looks for an open table
BACKOFF_FIRST = 0.5  # seconds before the first reconnection (ladder), doubled each time
BACKOFF_MOST = 30.0  # the longest wait between reconnections
RECONNECTS = 20  # reconnections in a row (no game played between) before giving up
QUIT_WAIT = 5.0  # seconds to wait for the server to close after quit
NUDGE_AFTER = 1.0  # seconds after a lobby error with no new prompt before asking again


class Surprise(Exception):
    """The server did something this bot cannot follow; the message says what."""


class Silence(Surprise):
    """The server said nothing for the time allowed."""


# --- cards and the naive strategy --------------------------------------------------

SUITS = ("H", "D", "S", "C")
RED_TRUMP_LOW = "T9876432"  # trump ranks below the queen, high to low
BLACK_TRUMP_LOW = "2346789T"
RED_PLAIN = "AKQJT98765432"  # off-trump ranks, high to low
BLACK_PLAIN = "AKQJ23456789T"


def is_trump(card: str, trump: str) -> bool:
    return card in ("JK", "AH") or card[1] == trump


def trump_order(trump: str) -> list[str]:
    """Trump cards from high to low: 5, J, joker, AH, A, K, Q, then the rest."""
    top = [f"5{trump}", f"J{trump}", "JK", "AH"] + ([f"A{trump}"] if trump != "H" else [])
    low = RED_TRUMP_LOW if trump in "HD" else BLACK_TRUMP_LOW
    return top + [f"K{trump}", f"Q{trump}"] + [rank + trump for rank in low]


def power(card: str, trump: str, lead: str) -> int:
    """How strong ``card`` is in a trick led in ``lead``; 0 when it cannot win it."""
    if is_trump(card, trump):
        order = trump_order(trump)
        return 100 + len(order) - order.index(card)
    if card[1] == lead:
        plain = RED_PLAIN if lead in "HD" else BLACK_PLAIN
        return 1 + len(plain) - plain.index(card[0])
    return 0


def best_suit(hand: list[str]) -> tuple[str, int]:
    """The suit that would make the most (then the strongest) trumps, and how many."""

    def merit(suit: str) -> tuple[int, int]:
        trumps = [card for card in hand if is_trump(card, suit)]
        return len(trumps), sum(power(card, suit, suit) for card in trumps)

    suit = max(SUITS, key=merit)
    return suit, merit(suit)[0]


class Strategy:
    """Chooses answers from ``Legal``; ``random`` picks at random, ``naive`` thinks a bit,
    ``weak`` bids, names trumps and discards as ``naive`` does but plays any legal card
    (so that a table of weak bots, unlike one of random bots, finishes its games)."""

    def __init__(self, kind: str, rng: random.Random) -> None:
        self.kind = kind
        self.rng = rng

    def bid(self, legal: list[int], hand: list[str]) -> int:
        if self.kind == "random":
            return self.rng.choice(legal)
        wanted = {3: 15, 4: 20, 5: 25}.get(best_suit(hand)[1], 0)  # by trumps held
        bids = [amount for amount in legal if 0 < amount <= wanted]
        if bids:
            return min(bids)
        return 0 if 0 in legal else min(legal)

    def trump(self, legal: list[str], hand: list[str]) -> str:
        if self.kind == "random":
            return self.rng.choice(legal)
        suit = best_suit(hand)[0]
        return suit if suit in legal else legal[0]

    def discard(self, legal: list[str], trump: str | None) -> list[str]:
        if self.kind == "random":
            return self.rng.sample(legal, self.rng.randint(0, len(legal)))
        return [card for card in legal if trump and not is_trump(card, trump)]

    def play(self, legal: list[str], prompt: Json) -> str:
        if self.kind in ("random", "weak"):
            return self.rng.choice(legal)
        trump = str(prompt.get("Trump", ""))
        lead = prompt.get("Lead")
        winning = prompt.get("WinningCard")
        if not isinstance(lead, str) or not isinstance(winning, str) or len(winning) != 2:
            lead = winning = None

        def key(card: str) -> tuple[int, int]:
            return power(card, trump, lead or card[1]), power(card, trump, card[1])

        if lead and winning:
            beats = [card for card in legal if key(card)[0] > power(winning, trump, lead)]
            if beats:
                return min(beats, key=key)
        return min(legal, key=key)


# --- playing by the seat's View (every game) ----------------------------------------

NEEDS_PACKAGE = (
    "runs hundred_server's own AIs in this process: install the package first "
    "(pip install -e . in the repository, or make run)"
)


class ViewPlayer:
    """Plays any game by its seat's ``View`` (it says ``"Views":true`` in ``Hello``, and
    each prompt to its seat carries the view): ``naive`` and ``strong`` run
    hundred_server's own AI of that name on the view, decoded into the game's ``View``
    (imported only here: the package must be installed); ``random`` picks any index of
    the view's ``legal`` (standard library only). It answers with ``Choice``, the index
    of its action in the view's ``legal``, or with the action's own keys when it is none
    of them (a Rook setup of the AI's own making)."""

    def __init__(self, game: str, kind: str, seed: str | None) -> None:
        self.kind = kind
        self.seed = seed
        self.rng = random.Random(seed)
        self.ai: Any = None  # the AI of the game under way (a new one each game)
        self.spec: Any = None
        self.views: Any = None
        if kind == "random":
            return
        try:
            from hundred_server import games
            from hundred_server.games import views
        except ImportError:
            raise Surprise(f"--strategy {kind} for {game} {NEEDS_PACKAGE}") from None
        if game not in games.names():
            raise Surprise(f"no game {game!r} in hundred_server (its games: {games.names()})")
        self.spec, self.views = games.get(game), views

    def new_game(self) -> None:
        self.ai = None

    def answer(self, prompt: Json, seat: int, fallback: bool) -> Json:
        view = prompt.get("View")
        legal = view.get("legal") if isinstance(view, dict) else None
        if not isinstance(legal, list) or not legal:
            raise Surprise(f"a prompt without a View with legal actions: {prompt}")
        answer: Json = {"Type": prompt["Type"], "Playerid": seat, "Seq": prompt["Seq"]}
        if fallback or self.kind == "random":
            answer["Choice"] = 0 if fallback else self.rng.randrange(len(legal))
            return answer
        try:
            decoded = self.views.decode(self.spec, view)
        except ValueError as exc:
            raise Surprise(f"a View this bot cannot read: {exc}") from None
        if self.ai is None:
            make = self.spec.bots[self.kind]
            self.ai = make(self.seed or 0) if self.kind == "strong" else make()
        action = self.ai.act(decoded)
        if action in decoded.legal:
            answer["Choice"] = decoded.legal.index(action)
            return answer
        line = self.spec.records.actions.write(seat, action)
        return {**line, "Seq": prompt["Seq"]}


# --- the connection ----------------------------------------------------------------


class Connection:
    """Newline-delimited JSON over TCP; ``\\r\\n`` and partial lines handled."""

    def __init__(self, host: str, port: int, label: str, verbose: bool) -> None:
        try:
            self.sock = socket.create_connection((host, port), timeout=10)
        except OSError as exc:
            raise Surprise(f"cannot connect to {host}:{port}: {exc}") from None
        self.buffer = b""
        self.label = label
        self.verbose = verbose

    def log(self, arrow: str, line: str) -> None:
        if self.verbose:
            print(f"[{self.label}] {arrow} {line}", file=sys.stderr, flush=True)

    def receive(self, timeout: float | None) -> Json | None:
        """The next message; ``None`` when the server has closed the connection."""
        self.sock.settimeout(timeout)
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                raw, self.buffer = self.buffer[:newline], self.buffer[newline + 1 :]
                line = raw.rstrip(b"\r").decode("utf-8", errors="replace")
                if not line.strip():
                    continue
                self.log("-->", line)
                try:
                    message = json.loads(line)
                except json.JSONDecodeError:
                    raise Surprise(f"the server sent a line that is not JSON: {line!r}") from None
                if not isinstance(message, dict):
                    raise Surprise(f"the server sent JSON that is not an object: {line!r}")
                return message
            if len(self.buffer) > 1 << 20:
                raise Surprise("the server sent a line longer than 1 MiB")
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                raise Silence(f"the server said nothing for {timeout:g} s") from None
            except ConnectionResetError:
                return None
            except OSError as exc:
                raise Surprise(f"connection lost: {exc}") from None
            if not chunk:
                return None
            self.buffer += chunk

    def send(self, message: Json) -> None:
        line = json.dumps(message, separators=(",", ":"))
        self.log("<--", line)
        data = line.encode() + b"\n"
        if len(data) > MAX_LINE:
            raise Surprise(f"refusing to send a line over {MAX_LINE} bytes")
        try:
            self.sock.sendall(data)
        except OSError as exc:
            raise Surprise(f"connection lost while sending: {exc}") from None

    def close(self) -> None:
        self.sock.close()


# --- the bot -----------------------------------------------------------------------


@dataclass
class Bot:
    """The client's state machine: lobby, waiting at a table, playing, quitting."""

    conn: Connection
    strategy: Strategy
    #: Plays by the seat's View (every strategy but Hundred and Ten's naive, random and
    #: weak); None: by ``strategy``, from the prompts' ``Legal``.
    player: ViewPlayer | None
    name: str | None
    create: int | None
    join: str | None
    games: int
    wait: float
    timeout: float | None
    seats: int | None = None
    bots: int | None = None
    table_name: str | None = None
    game: str = "hundredandten"
    #: The ladder (``--ladder``): the account's key, and how to connect again.
    key: str | None = None
    reconnect: Any = None
    signed_in: bool = False
    token: str | None = None  # the seat's token of the game under way
    drops: int = 0
    backoff: float = BACKOFF_FIRST
    played: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    seat: int | None = None
    hand: list[str] = field(default_factory=list)
    trump: str | None = None
    quitting: bool = False
    #: Told to stop (``stop``): no game after the one under way.
    stop_asked: bool = False
    went_back: bool = False  # answered option 6: quit at the next lobby question
    join_deadline: float | None = None
    lobby_errors: int = 0
    errors_by_seq: dict[int, int] = field(default_factory=dict)
    nudge_at: float | None = None  # when to ask for the tables again after a lobby error
    last_seq: int | None = None  # the Seq of our last answer
    may_repeat: bool = False  # an Error came after that answer: its prompt comes again

    def run(self) -> None:
        while True:
            # After quit the server says goodbye and closes; don't wait for ever.
            timeout = QUIT_WAIT if self.quitting else self.timeout
            if self.nudge_at is not None:
                left = max(0.01, self.nudge_at - time.monotonic())  # 0 would not block
                timeout = left if timeout is None else min(timeout, left)
            try:
                message = self.conn.receive(timeout)
            except Silence:
                if self.quitting:
                    return
                if self.nudge_at is not None and time.monotonic() >= self.nudge_at:
                    self.nudge_at = None
                    self.hello("join")  # nothing came after a lobby error: ask again
                    continue
                raise
            if message is None and self.key is not None and not self.quitting:
                self.resume()
                continue
            if message is None:
                if self.quitting:
                    return
                where = "in a game" if self.seat is not None else "in the lobby"
                raise Surprise(f"the server closed the connection unexpectedly ({where})")
            self.handle(message)

    def resume(self) -> None:
        """The ladder's connection dropped: connect again (with backoff), say the key,
        and take the seat of the game under way back by its token."""
        while True:
            self.drops += 1
            if self.drops > RECONNECTS:
                raise Surprise(f"the connection dropped {RECONNECTS} times in a row")
            wait, self.backoff = self.backoff, min(BACKOFF_MOST, self.backoff * 2)
            print(f"bot: connection lost; connecting again in {wait:g} s", file=sys.stderr)
            time.sleep(wait)
            try:
                self.conn.close()
                self.conn = self.reconnect()
            except Surprise as exc:
                print(f"bot: {exc}", file=sys.stderr)
                continue
            self.signed_in = False
            self.last_seq = None
            self.may_repeat = False
            return

    def handle(self, msg: Json) -> None:
        kind = msg.get("Type")
        if kind == "Seat" and isinstance(msg.get("Token"), str):
            self.token = msg["Token"]
            self.seat = self.int_field(msg, "Playerid")
            if self.player is not None:
                self.player.new_game()
        if kind in ("Hello", "Game", "Tables", "Table", "Deal"):
            self.nudge_at = None
        if kind == "Hello":
            self.on_lobby_question()
        elif kind == "Game":
            self.on_game_options()
        elif kind == "Tables":
            self.on_tables(msg.get("Tables"))
        elif kind == "Error":
            self.on_error(msg)
        elif kind == "Deal":
            self.seat = self.int_field(msg, "Playerid")
            self.hand = [str(card) for card in msg.get("Hand", [])]
            self.trump = None
        elif kind == "Score" and msg.get("GameOver"):
            self.on_game_over(msg)
        elif kind == "Trump" and "Seq" not in msg:
            self.trump = msg.get("Trump")
        elif kind == "Discard" and "Hand" in msg and msg.get("Playerid") == self.seat:
            self.hand = [str(card) for card in msg["Hand"]]
        elif "Seq" in msg and "Legal" in msg:
            self.on_prompt(msg)
        # Anything else (Message, Table, announcements, other seats' prompts) is news.

    def int_field(self, msg: Json, key: str) -> int:
        value = msg.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise Surprise(f"{msg.get('Type')} without an integer {key}: {msg}")
        return value

    # lobby

    def hello(self, choice: str) -> None:
        answer: Json = {"Type": "Hello", "Message": choice}
        if self.name:
            answer["Name"] = self.name
        if choice == "create":
            answer["Game"] = self.game
        if self.player is not None:
            answer["Views"] = True
        self.conn.send(answer)

    def on_lobby_question(self) -> None:
        if self.key is not None and not self.quitting and not self.done():
            answer: Json = {"Type": "Hello"}
            if self.player is not None:
                answer["Views"] = True
            if not self.signed_in:
                answer["Key"] = self.key
                self.signed_in = True
            if self.token is not None:  # a game was under way when the connection dropped
                answer["Token"], self.token = self.token, None
            else:
                answer.update({"Message": "ladder", "Game": self.game})
                self.seat = None
            self.conn.send(answer)
            return
        self.seat = None
        if self.done() or self.went_back:
            self.quitting = True
            self.conn.send({"Type": "Hello", "Message": "quit"})
        elif self.create is not None:
            self.hello("create")
        else:
            self.hello("join")

    def on_game_options(self) -> None:
        if self.create is None:
            raise Surprise("the server offered table options to a bot that joins")
        answer: Json = {"Type": "Game", "Option": self.create}
        if self.create == 5:
            for key, value in (("Seats", self.seats), ("Bots", self.bots)):
                if value is not None:
                    answer[key] = value
            if self.table_name:
                answer["Name"] = self.table_name
        self.went_back = self.create == 6
        self.conn.send(answer)

    def on_tables(self, tables: object) -> None:
        if not isinstance(tables, list):
            raise Surprise(f"Tables is not a list: {tables!r}")
        for table in tables:
            if not isinstance(table, dict) or table.get("Free", 1) < 1:
                continue
            if table.get("Game", "hundredandten") != self.game:
                continue
            if self.join in ("any", str(table.get("Table"))):
                self.join_deadline = None
                self.conn.send({"Type": "Join", "Table": table["Table"]})
                return
        if self.join_deadline is None:
            self.join_deadline = time.monotonic() + self.wait
        if time.monotonic() >= self.join_deadline:
            wanted = "no table" if self.join == "any" else f"table {self.join} not"
            raise Surprise(f"{wanted} open within {self.wait:g} s (--wait)")
        time.sleep(RETRY_DELAY)
        self.hello("join")  # back to the lobby, and ask for the list again

    # the game

    def on_prompt(self, msg: Json) -> None:
        if msg.get("Playerid") != self.seat:
            return
        if self.seat is None:
            raise Surprise(f"a prompt with Legal before any Deal: {msg}")
        seq = self.int_field(msg, "Seq")
        if seq == self.last_seq and not self.may_repeat:
            return  # answered already; a prompt comes again only after an Error
        self.may_repeat = False
        errors = self.errors_by_seq.get(seq, 0)
        if errors >= GIVE_UP_AFTER:
            raise Surprise(f"the server refused {errors} answers to prompt Seq {seq}")
        fallback = errors >= FALLBACK_AFTER
        if self.player is not None:
            self.last_seq = seq
            self.conn.send(self.player.answer(msg, self.seat, fallback))
            return
        legal = msg["Legal"]
        kind = msg["Type"]
        if not isinstance(legal, list) or (not legal and kind != "Discard"):
            raise Surprise(f"a prompt with no legal answer: {msg}")
        wanted_type = int if kind == "Bid" else str
        if not all(type(item) is wanted_type for item in legal):
            raise Surprise(f"Legal is not a list of {wanted_type.__name__}: {msg}")
        answer: Json = {"Type": kind, "Playerid": self.seat, "Seq": seq}
        if kind == "Bid":
            answer["Bid"] = legal[0] if fallback else self.strategy.bid(legal, self.hand)
        elif kind == "Trump":
            answer["Trump"] = legal[0] if fallback else self.strategy.trump(legal, self.hand)
        elif kind == "Discard":
            answer["Cards"] = [] if fallback else self.strategy.discard(legal, self.trump)
        elif kind == "Play":
            self.trump = msg.get("Trump", self.trump)
            answer["PlayedCard"] = legal[0] if fallback else self.strategy.play(legal, msg)
        else:
            raise Surprise(f"a prompt of unknown Type: {msg}")
        self.last_seq = seq
        self.conn.send(answer)

    def on_error(self, msg: Json) -> None:
        code = msg.get("Code")
        text = f"{code}: {msg.get('Message')}"
        if self.seat is not None and self.last_seq is not None:
            count = self.errors_by_seq.get(self.last_seq, 0) + 1
            self.errors_by_seq[self.last_seq] = count
            self.may_repeat = True
            print(f"bot: error for Seq {self.last_seq} ({count}): {text}", file=sys.stderr)
            return  # the server sends the prompt again
        if code in ("bad_name", "bad_option", "line_too_long"):
            raise Surprise(f"the server refused us: {text}")
        self.lobby_errors += 1
        if self.lobby_errors >= MAX_LOBBY_ERRORS:
            raise Surprise(f"{self.lobby_errors} lobby errors in a row, the last {text}")
        print(f"bot: lobby error: {text}", file=sys.stderr)
        if self.key is not None and code in ("bad_token", "not_rated"):
            # The seat's game ended while we were away (bad_token: the Key with it was
            # not taken either), or the server no longer knows us: say the Key again and
            # queue afresh.
            self.token, self.signed_in = None, False
        if self.join is not None:  # e.g. the table filled up: look at the list again
            self.nudge_at = time.monotonic() + NUDGE_AFTER

    def done(self) -> bool:
        """Whether to play no more: told to stop, or ``games`` played (0: no limit)."""
        return self.stop_asked or 0 < self.games <= self.played

    def stop(self) -> None:
        """Told to stop (SIGTERM, or a first Ctrl-C): the game under way is played to its
        end, then the bot quits; one not in a game quits now."""
        self.stop_asked = True
        if self.seat is None and not self.quitting:
            self.quitting = True
            self.conn.send({"Type": "Hello", "Message": "quit"})

    def on_game_over(self, msg: Json) -> None:
        score = msg.get("Score")
        if self.seat is None or not isinstance(score, list) or not score:
            raise Surprise(f"GameOver that does not fit our seat {self.seat}: {msg}")
        self.played += 1
        self.token = None
        self.drops, self.backoff = 0, BACKOFF_FIRST
        self.wins += bool(msg.get("Win"))
        self.scores.append(score[self.seat % len(score)])  # by side in a partnership game
        self.seat = None
        self.last_seq = None
        self.lobby_errors = 0
        self.errors_by_seq.clear()
        if self.key is not None and self.done() and not self.quitting:
            self.quitting = True  # off the ladder (and off a set's next game, if it began)
            self.conn.send({"Type": "Hello", "Message": "quit"})


# --- command line ------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="A bot for hundred_server's games.",
        epilog="Prints a JSON summary line at the end; exit status 1 on a failure, "
        "2 on a bad command line.",
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--create", type=int, choices=range(1, 7), metavar="1..6")
    mode.add_argument("--join", metavar="ID|any", help="a table id, or any open table")
    mode.add_argument("--ladder", action="store_true", help="rated games on the ladder")
    parser.add_argument(
        "--key",
        help="the account's API key (--ladder; or HUNDRED_KEY); --key=KEY if it starts with -",
    )
    parser.add_argument("--seats", type=int, help="option 5: seats, 2-4")
    parser.add_argument("--bots", type=int, help="option 5: AI seats")
    parser.add_argument("--table-name", help="option 5: the table's name")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7110)
    parser.add_argument("--name", help="player name, 1-20 of letters, digits, space _ - .")
    parser.add_argument(
        "--games", type=int, default=1, help="games to play (default 1; 0: until stopped)"
    )
    parser.add_argument("--wait", type=float, default=30.0, help="seconds to find a table (30)")
    parser.add_argument("--timeout", type=float, help="give up after S silent seconds")
    parser.add_argument("--seed", help="seed for the bot's random choices")
    parser.add_argument("--game", default="hundredandten", help="the game (hundredandten)")
    parser.add_argument(
        "--strategy", choices=("naive", "strong", "random", "weak"), default="naive"
    )
    parser.add_argument("--verbose", action="store_true", help="log every line to stderr")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 0:
        parser.error(f"--games takes a count, or 0 for no limit, not {args.games}")  # exits 2
    if args.join is not None and args.join != "any" and not args.join.isdigit():
        parser.error(f"--join takes a table id or 'any', not {args.join!r}")  # exits 2
    key = args.key or os.environ.get("HUNDRED_KEY")
    if args.ladder and not key:
        parser.error("--ladder needs an account's API key: --key KEY or HUNDRED_KEY")
    by_legal = args.game == "hundredandten" and args.strategy != "strong"
    if args.strategy == "weak" and not by_legal:
        parser.error("--strategy weak is Hundred and Ten's (naive, strong or random for others)")
    label = args.name or (f"create {args.create}" if args.create else f"join {args.join}")
    if args.ladder:
        label = args.name or "ladder"
    conn: Connection | None = None
    bot: Bot | None = None

    def connect() -> Connection:
        return Connection(args.host, args.port, label, args.verbose)

    try:
        conn = connect()
        player = None if by_legal else ViewPlayer(args.game, args.strategy, args.seed)
        bot = Bot(
            conn=conn,
            strategy=Strategy(args.strategy, random.Random(args.seed)),
            player=player,
            game=args.game,
            name=args.name,
            create=args.create,
            join=args.join,
            games=args.games,
            wait=args.wait,
            timeout=args.timeout,
            seats=args.seats,
            bots=args.bots,
            table_name=args.table_name,
            key=key if args.ladder else None,
            reconnect=connect,
        )
        stopping = bot

        def on_signal(signum: int, frame: object) -> None:
            if stopping.stop_asked:  # told twice: now
                raise KeyboardInterrupt
            print("bot: stopping after the game under way (again: at once)", file=sys.stderr)
            stopping.stop()

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
        bot.run()
    except Surprise as exc:
        print(f"bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 1
    finally:
        if conn is not None:
            conn.close()
        if bot is not None:
            bot.conn.close()
    summary = {
        "name": args.name,
        "games": bot.played,
        "wins": bot.wins,
        "scores": bot.scores,
        "cpu": round(time.process_time(), 2),
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
