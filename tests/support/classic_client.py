"""An independent test client for the classic (seed) pinochle dialect.

Written only from ``/work/shared/seeds/pinochle-server-protocol.txt`` (the seed's
transcript) and the "Single-deck pinochle" section of ``/work/shared/RULES.md``; it
imports nothing from ``hundred_server``, so it checks the server instead of sharing its
bugs.

Two parts:

- a pinochle calculator (``meld``, ``legal_plays``, ``trick_winner``, ``trick_points``,
  ``hand_scores``, ``game_winner``, ...), and
- ``play_games``: a synchronous socket client (newline-delimited JSON, a timeout on every
  read) that plays whole games against the server's AI seats and raises
  ``AssertionError`` (with the last lines seen) on anything that disagrees with the
  transcript or the rules.
"""

from __future__ import annotations

import json
import random
import re
import socket
import time
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn

# ---------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------

SUITS = "DCHS"  # display order of suits (the transcript's)
RANKS = "ATKQJ9"  # high to low, also the display order in a suit
COUNTERS = frozenset("ATK")
DISTINCT_CARDS = tuple(r + s for s in SUITS for r in RANKS)  # 24 codes, each twice
FULL_DECK = Counter(dict.fromkeys(DISTINCT_CARDS, 2))  # 48 cards
HAND_SIZE = 12
TRICKS_PER_HAND = 12
MIN_BID = 20
DEFAULT_TARGET = 100
LOSING_FLOOR = -50  # a team below this ends the game


def is_card(code: object) -> bool:
    return isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def suit_of(card: str) -> str:
    return card[1]


def rank_index(card: str) -> int:
    """0 for an ace ... 5 for a nine (smaller is higher)."""
    return RANKS.index(card[0])


def card_sort_key(card: str) -> tuple[int, int]:
    return (SUITS.index(card[1]), RANKS.index(card[0]))


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Sorted as the transcript shows hands: suits D, C, H, S; A T K Q J 9 in a suit."""
    return sorted(cards, key=card_sort_key)


# ---------------------------------------------------------------------------------------
# Meld (RULES.md pinochle item 4)
# ---------------------------------------------------------------------------------------

AROUNDS = {"A": (10, 100), "K": (8, 80), "Q": (6, 60), "J": (4, 40)}


def meld(hand: Sequence[str], trump: str) -> tuple[int, list[str]]:
    """The meld of ``hand`` with ``trump``: (amount, counting cards sorted for display).

    Melds come in three classes: sequences and marriages (run, royal marriage,
    marriage, dix), arounds, and pinochles. A card counts at most once inside a class
    but may count in several classes (the JD in jacks around and in a pinochle), so the
    cards shown are, for each code, the largest number of copies any one class uses.
    """
    if trump not in SUITS:
        raise ValueError(f"bad trump {trump!r}")
    counts = Counter(hand)
    marriages: Counter[str] = Counter()  # run, royal marriage, marriage, dix
    arounds: Counter[str] = Counter()
    pinochles: Counter[str] = Counter()
    amount = 0

    run = [r + trump for r in "ATKQJ"]
    runs = min(counts[c] for c in run)
    if runs:
        amount += 150 if runs == 2 else 15
        for c in run:
            marriages[c] += runs
    royal = min(counts["K" + trump], counts["Q" + trump]) - runs  # K-Q outside a run
    amount += 4 * royal
    marriages["K" + trump] += royal
    marriages["Q" + trump] += royal
    for s in SUITS:
        if s == trump:
            continue
        n = min(counts["K" + s], counts["Q" + s])
        amount += 2 * n
        marriages["K" + s] += n
        marriages["Q" + s] += n
    dix = counts["9" + trump]
    amount += dix
    marriages["9" + trump] += dix

    for rank, (single, double) in AROUNDS.items():
        n = min(counts[rank + s] for s in SUITS)
        if n:
            amount += double if n == 2 else single
            for s in SUITS:
                arounds[rank + s] += n

    n = min(counts["QS"], counts["JD"])
    if n:
        amount += 30 if n == 2 else 4
        pinochles["QS"] += n
        pinochles["JD"] += n

    shown: list[str] = []
    for code in DISTINCT_CARDS:
        shown += [code] * max(marriages[code], arounds[code], pinochles[code])
    return amount, sort_cards(shown)


# ---------------------------------------------------------------------------------------
# Play (RULES.md pinochle items 1, 5, 6)
# ---------------------------------------------------------------------------------------


def beats(card: str, best: str, trump: str) -> bool:
    """Does ``card``, played after ``best``, take the lead from it?

    Of two identical cards the one played first ranks higher, so equal never beats.
    """
    if suit_of(card) == suit_of(best):
        return rank_index(card) < rank_index(best)
    return suit_of(card) == trump


def trick_winner(cards: Sequence[str], trump: str) -> int:
    """Index (0 = the lead) of the card that wins (or is winning) the trick so far."""
    if not cards:
        raise ValueError("empty trick")
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def trick_points(cards: Iterable[str], last: bool = False) -> int:
    """A, T, K count 1 each; the last trick of a hand 1 more."""
    return sum(1 for c in cards if c[0] in COUNTERS) + (1 if last else 0)


def legal_plays(hand: Sequence[str], trick: Sequence[str], trump: str) -> list[str]:
    """The distinct cards of ``hand`` that may be played to ``trick`` (sorted).

    Follow suit if able, and if the card winning the trick is of the led suit, beat it
    if able. Void in the led suit: play a trump if able, and if a trump is winning the
    trick, beat it if able. Otherwise any card.
    """
    distinct = sort_cards(set(hand))
    if not trick:
        return distinct
    lead = suit_of(trick[0])
    winning = trick[trick_winner(trick, trump)]
    for suit in (lead, trump):  # follow suit, else trump; and beat the winner if it can
        held = [c for c in distinct if suit_of(c) == suit]
        if held:
            beaten = suit_of(winning) == suit
            return [c for c in held if beaten and beats(c, winning, trump)] or held
    return distinct


# ---------------------------------------------------------------------------------------
# Bidding and scoring (RULES.md pinochle items 2, 3, 7, 8)
# ---------------------------------------------------------------------------------------


def dealer_of_hand(hand_number: int) -> int:
    """Seat 0 deals hand 1 of a game, then the deal passes left."""
    return (hand_number - 1) % 4


def bidding_order(dealer: int) -> list[int]:
    """One round, starting left of the dealer, the dealer last."""
    return [(dealer + i) % 4 for i in range(1, 5)]


def resolve_bidding(bids: dict[int, int | None], dealer: int) -> tuple[int, int]:
    """(bidder, bid): the highest bidder, or the dealer at 20 when all pass."""
    best: tuple[int, int] | None = None
    for seat in bidding_order(dealer):
        amount = bids.get(seat)
        if amount is not None and (best is None or amount > best[1]):
            best = (seat, amount)
    return best if best is not None else (dealer, MIN_BID)


def hand_scores(
    meld_by_seat: Sequence[int], counters_by_team: Sequence[int], bidder: int, bid: int
) -> list[int]:
    """Per team: its two seats' meld + its counters; the bidding team below its bid
    scores minus the bid instead."""
    result = []
    for team in (0, 1):
        points = meld_by_seat[team] + meld_by_seat[team + 2] + counters_by_team[team]
        if team == bidder % 2 and points < bid:
            points = -bid
        result.append(points)
    return result


def game_winner(
    scores: Sequence[int], bidder_team: int, target: int = DEFAULT_TARGET
) -> int | None:
    """The winning team when the game is over after a hand, else None."""
    if not any(s >= target or s < LOSING_FLOOR for s in scores):
        return None
    if scores[0] == scores[1]:
        return bidder_team
    return 0 if scores[0] > scores[1] else 1


# ---------------------------------------------------------------------------------------
# The seed's fixed texts
# ---------------------------------------------------------------------------------------

LOBBY_QUESTION = "Do you want to join a game, create a new game, or quit? (join, create, quit)"
OPTION_LINES = (
    "Option 1 - Play against three AI players and start immediately",
    "Option 2 - Play with a human partner against two AI players",
    "Option 3 - Play with a human partner against one AI players and 1 Human",
    "Option 4 - Play with a human partner against two humans",
    "Option 5 - Play against a human with AI partners",
    "Option 6 - Go back",
)
BYE = "Ok, bye bye!"


def trick_line(player: int, number: int, card: str, points: int) -> str:
    return f"Player {player} wins trick #{number} with {card} for {points} points"


def scores_line(team0: int, team1: int, hands: int) -> str:
    return f"Scores are now Team0 = {team0} to Team1 = {team1}, played {hands} hands"


def win_line(team: int, score: int) -> str:
    return f"Team{team} wins with a score of {score}!"


# Every key a server message of each Type may carry (from the transcript's protocol
# explanation). Nothing else: no Seq, no Legal, no Error type.
SERVER_KEYS: dict[str, frozenset[str]] = {
    "Message": frozenset({"Type", "Message"}),
    "Hello": frozenset({"Type", "Message"}),
    "Game": frozenset({"Type"}),
    "Deal": frozenset({"Type", "Hand", "Playerid"}),
    "Bid": frozenset({"Type", "Bid", "Playerid"}),
    "Trump": frozenset({"Type", "Trump", "Playerid"}),
    "Meld": frozenset({"Type", "Hand", "Playerid", "Amount"}),
    "Play": frozenset({"Type", "Playerid", "PlayedCard", "Lead", "Trump", "WinningCard"}),
    "Score": frozenset({"Type", "Score", "GameOver", "Win"}),
}


def canonical(msg: object) -> str:
    """A form in which 1 != true != 1.0 and key order does not matter."""
    return json.dumps(msg, sort_keys=True, separators=(",", ":"))


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------------------------------
# The connection
# ---------------------------------------------------------------------------------------

Message = dict[str, Any]
#: Message lines that only tell people something, which a seed client shows and goes on.
NOTICES: Final = (
    re.compile(r"Table \d+ \(.*\) starts: "),
    re.compile(r"Everyone passed: "),
)


class Connection:
    """Newline-delimited JSON over a plain socket; every read has a deadline, and every
    failure is an AssertionError that quotes the last lines seen."""

    def __init__(self, host: str, port: int, timeout: float = 10.0, history: int = 40):
        self.timeout = timeout
        self.seen: deque[str] = deque(maxlen=history)
        self.lines_received = 0
        self.notices: list[str] = []
        self._buf = b""
        self.last_raw = ""
        try:
            self.sock = socket.create_connection((host, port), timeout=timeout)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError as exc:
            raise AssertionError(f"cannot connect to {host}:{port}: {exc}") from exc

    def close(self) -> None:
        self.sock.close()

    def fail(self, why: str) -> NoReturn:
        lines = "\n".join(f"  {line}" for line in self.seen) or "  (nothing)"
        raise AssertionError(f"{why}\nlast lines (--> from server, <-- ours):\n{lines}")

    def check(self, condition: bool, why: str) -> None:
        if not condition:
            self.fail(why)

    def read_line(self, timeout: float | None = None, quiet: bool = False) -> str | None:
        """The next line without its newline; None at end of stream. ``quiet``: also
        None (instead of failing) when the deadline passes."""
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        while b"\n" not in self._buf:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if quiet:
                    return None
                self.fail(f"timed out after {wait:g} s waiting for a line from the server")
            self.sock.settimeout(remaining)
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError as exc:
                self.fail(f"connection error while reading: {exc!r}")
            if not data:
                if self._buf:
                    self.fail(f"connection closed in the middle of a line: {self._buf!r}")
                return None
            self._buf += data
        raw, _, self._buf = self._buf.partition(b"\n")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.fail(f"line is not UTF-8: {raw!r}")
        text = text.removesuffix("\r")
        self.seen.append(f"--> {text}")
        self.lines_received += 1
        return text

    def read(self) -> Message:
        """The next message, checked against the seed's Types and keys. A ``Message``
        that is a notice for people (``NOTICES``: the table starting, an all-pass) is
        kept in ``notices`` and skipped: the seed defines Message as text to show."""
        while True:
            msg = self._read_one()
            text = msg.get("Message")
            if msg["Type"] == "Message" and any(p.match(str(text)) for p in NOTICES):
                self.notices.append(str(text))
                continue
            return msg

    def read_turn(self, kind: str, seat: int, me: int, why: str) -> Message:
        """The next message, ``kind``'s of ``seat`` (else fail with ``why``); when it is
        our own prompt (seat ``me``), just Playerid and Type."""
        msg = self.read()
        self.check(msg["Type"] == kind and msg.get("Playerid") == seat, why)
        if seat == me:
            self.check(
                canonical(msg) == canonical({"Playerid": me, "Type": kind}),
                f"our {kind} prompt is just Playerid and Type",
            )
        return msg

    def _read_one(self) -> Message:
        text = self.read_line()
        if text is None:
            self.fail("the server closed the connection")
        self.last_raw = text
        try:
            msg: Any = json.loads(text)
        except ValueError:
            self.fail(f"line is not JSON: {text!r}")
        if not isinstance(msg, dict):
            self.fail(f"line is not a JSON object: {text!r}")
        kind = msg.get("Type")
        if not (isinstance(kind, str) and kind in SERVER_KEYS):
            self.fail(f"Type {kind!r} is not one of the seed's ({', '.join(SERVER_KEYS)})")
        extra = set(msg) - SERVER_KEYS[kind]
        self.check(not extra, f"{kind} message has keys the seed never uses: {sorted(extra)}")
        if "Playerid" in msg:
            pid = msg["Playerid"]
            self.check(is_int(pid) and 0 <= pid < 4, f"bad Playerid {pid!r}")
        return msg

    def send_line(self, text: str) -> None:
        self.seen.append(f"<-- {text}")
        try:
            self.sock.sendall(text.encode("utf-8") + b"\n")
        except OSError as exc:
            self.fail(f"connection error while sending: {exc!r}")

    def send(self, msg: Message) -> None:
        self.send_line(json.dumps(msg, separators=(",", ":")))

    def expect(self, expected: Message, what: str) -> Message:
        msg = self.read()
        self.check(
            canonical(msg) == canonical(expected),
            f"expected {what}: {canonical(expected)}; got {canonical(msg)}",
        )
        return msg

    def expect_message(self, text: str, what: str) -> None:
        self.expect({"Message": text, "Type": "Message"}, what)


# ---------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------


@dataclass
class GameRecord:
    hands: int
    scores: list[int]
    winner_team: int
    won: bool
    playerid: int


@dataclass
class Summary:
    games: int = 0
    hands: int = 0
    final_scores: list[list[int]] = field(default_factory=list)
    wins: int = 0
    illegal_plays_tested: int = 0
    bad_json_tested: int = 0
    bids_made: int = 0
    hands_bid_by_us: int = 0
    records: list[GameRecord] = field(default_factory=list)
    lines_received: int = 0


@dataclass
class SeatKnowledge:
    """What the client can prove about another seat's hand during one hand."""

    known: Counter[str] = field(default_factory=Counter)  # melded cards not yet played
    void: set[str] = field(default_factory=set)
    ceiling: dict[str, int] = field(default_factory=dict)  # suit -> no card above rank


class ClassicClient:
    def __init__(
        self,
        conn: Connection,
        *,
        make_illegal_play: bool = True,
        bad_json: bool = True,
        seed: int | None = 0,
        target: int = DEFAULT_TARGET,
        bid_margin: int = 10,
    ):
        self.conn = conn
        self.make_illegal_play = make_illegal_play
        self.bad_json_pending = bad_json
        self.rng = random.Random(seed)
        self.target = target
        self.bid_margin = bid_margin
        self.summary = Summary()

    # -- lobby ---------------------------------------------------------------------------

    def lobby(self) -> None:
        self.conn.expect_message(LOBBY_QUESTION, "the lobby question")
        self.conn.expect({"Type": "Hello"}, "the Hello prompt")

    def create(self, option: int) -> None:
        self.conn.send({"Message": "create", "Type": "Hello"})
        for line in OPTION_LINES:
            self.conn.expect_message(line, "the option lines, word for word")
        self.conn.expect({"Type": "Game"}, "the Game prompt")
        self.conn.send({"Option": option, "Type": "Game"})

    def quit(self, close_wait: float) -> None:
        self.conn.send({"Message": "quit", "Type": "Hello"})
        self.conn.expect_message(BYE, "the goodbye")
        if close_wait > 0:
            line = self.conn.read_line(timeout=close_wait, quiet=True)
            self.conn.check(line is None, f"a line after the goodbye: {line!r}")

    # -- one game ------------------------------------------------------------------------

    def play_game(self) -> GameRecord:
        scores = [0, 0]
        hand_number = 0
        while True:
            hand_number += 1
            self.summary.hands += 1
            bidder, me = self.play_hand(hand_number, scores)
            team = game_winner(scores, bidder % 2, self.target)
            if team is None:
                self.conn.expect({"Score": list(scores), "Type": "Score"}, "the hand's Score")
                continue
            self.conn.expect_message(win_line(team, scores[team]), "the game's winner line")
            final: Message = {"GameOver": True, "Score": list(scores), "Type": "Score"}
            if team == me % 2:
                final["Win"] = True
            self.conn.expect(final, "the game-over Score (Win only for the winners)")
            return GameRecord(hand_number, list(scores), team, team == me % 2, me)

    def play_hand(self, hand_number: int, scores: list[int]) -> tuple[int, int]:
        """Play one hand; update ``scores``; return (bidder, own seat)."""
        conn = self.conn
        dealer = dealer_of_hand(hand_number)
        deal = conn.read()
        conn.check(deal["Type"] == "Deal", f"expected a Deal for hand {hand_number}")
        conn.check(set(deal) == {"Hand", "Playerid", "Type"}, "a Deal has Hand and Playerid")
        me: int = deal["Playerid"]
        hand = deal["Hand"]
        conn.check(
            isinstance(hand, list) and all(is_card(c) for c in hand), f"bad Deal hand {hand!r}"
        )
        conn.check(len(hand) == HAND_SIZE, f"a Deal has {HAND_SIZE} cards, got {len(hand)}")
        conn.check(hand == sort_cards(hand), "Deal hand not sorted (D, C, H, S; A T K Q J 9)")
        conn.check(max(Counter(hand).values()) <= 2, "more than two copies of a card")
        my_hand: list[str] = list(hand)
        dealt: Counter[str] = Counter(hand)

        # Bidding: one round, left of the dealer first.
        high = 0
        bids: dict[int, int | None] = {}
        for seat in bidding_order(dealer):
            why = f"expected seat {seat}'s Bid (dealer {dealer}, bidding starts at its left)"
            msg = conn.read_turn("Bid", seat, me, why)
            if seat == me:
                amount = self.choose_bid(my_hand, high)
                if amount is None:
                    conn.send({"Playerid": me, "Type": "Bid"})
                else:
                    conn.send({"Bid": amount, "Playerid": me, "Type": "Bid"})
                    self.summary.bids_made += 1
            else:
                bid_value: Any = msg.get("Bid")
                amount = bid_value
                if "Bid" in msg:  # a pass has no Bid key (not null, not 0)
                    conn.check(
                        is_int(bid_value) and bid_value >= MIN_BID and bid_value > high,
                        f"seat {seat} bid {amount!r}: a bid is at least {MIN_BID} and tops "
                        f"the high bid ({high})",
                    )
            bids[seat] = amount
            if amount is not None:
                high = amount
        bidder, bid = resolve_bidding(bids, dealer)
        if bidder == me:
            self.summary.hands_bid_by_us += 1

        # Trump.
        why = f"expected the Trump of seat {bidder} (bidder at {bid})"
        msg = conn.read_turn("Trump", bidder, me, why)
        if bidder == me:
            trump = self.choose_trump(my_hand)
            conn.send({"Playerid": me, "Trump": trump, "Type": "Trump"})
        else:
            named: Any = msg.get("Trump")
            trump = named
            conn.check(
                set(msg) == {"Playerid", "Trump", "Type"} and named in SUITS,
                f"a Trump announcement names a suit: {msg!r}",
            )

        # Meld, seats 0..3.
        melds = [0, 0, 0, 0]
        knowledge = [SeatKnowledge() for _ in range(4)]
        for seat in range(4):
            msg = conn.read()
            conn.check(
                msg["Type"] == "Meld" and msg.get("Playerid") == seat,
                f"expected seat {seat}'s Meld (shown in seat order 0..3)",
            )
            shown: Any = msg.get("Hand")
            conn.check(
                isinstance(shown, list) and all(is_card(c) for c in shown),
                f"bad Meld Hand {shown!r}",
            )
            amount, cards = meld(shown, trump)
            if seat == me:
                amount, cards = meld(my_hand, trump)
            if amount == 0:
                expected: Message = {"Hand": [], "Playerid": seat, "Type": "Meld"}
            else:
                expected = {"Amount": amount, "Hand": cards, "Playerid": seat, "Type": "Meld"}
            conn.check(
                canonical(msg) == canonical(expected),
                f"seat {seat}'s meld with trump {trump} should be {canonical(expected)}"
                + (" (from our own hand)" if seat == me else " (the value of the cards shown)"),
            )
            melds[seat] = amount
            if seat != me:
                knowledge[seat].known = Counter(shown)
                over = [c for c, n in (Counter(shown) + dealt).items() if n > 2]
                conn.check(not over, f"seat {seat} melds {over}, of which we hold the rest")

        # Tricks.
        counters = [0, 0]
        leader = bidder
        played: Counter[str] = Counter()
        illegal_done = False
        for number in range(1, TRICKS_PER_HAND + 1):
            trick: list[str] = []
            seats = [(leader + i) % 4 for i in range(4)]
            for seat in seats:
                msg = conn.read()
                conn.check(
                    msg["Type"] == "Play" and msg.get("Playerid") == seat,
                    f"expected seat {seat}'s Play (trick #{number}, led by seat {leader})",
                )
                if seat == me:
                    card, tried = self.answer_play(msg, my_hand, trick, trump, illegal_done)
                    illegal_done = illegal_done or tried
                    my_hand.remove(card)
                else:
                    other_card: Any = msg.get("PlayedCard")
                    card = other_card
                    conn.check(
                        set(msg) == {"PlayedCard", "Playerid", "Type"} and is_card(card),
                        f"another seat's Play is PlayedCard, Playerid, Type: {msg!r}",
                    )
                    self.check_other_play(seat, card, trick, trump, knowledge[seat])
                trick.append(card)
                played[card] += 1
                conn.check(
                    played[card] + my_hand.count(card) <= 2,
                    f"seat {seat} played a third {card} (counting the ones we hold)",
                )
            pos = trick_winner(trick, trump)
            winner = seats[pos]
            points = trick_points(trick, last=number == TRICKS_PER_HAND)
            conn.expect_message(
                trick_line(winner, number, trick[pos], points),
                f"the result of trick #{number} {trick} (trump {trump}, led by seat {leader})",
            )
            counters[winner % 2] += points
            leader = winner

        conn.check(not my_hand, f"cards left in our hand after 12 tricks: {my_hand}")
        conn.check(
            played == FULL_DECK,
            f"the 48 cards played are not the deck: extra {dict(played - FULL_DECK)}, "
            f"missing {dict(FULL_DECK - played)}",
        )
        for seat in range(4):
            left = +knowledge[seat].known
            conn.check(not left, f"seat {seat} melded {dict(left)} but never played them")
        conn.check(sum(counters) == 25, f"counters add up to {sum(counters)}, not 25")

        gained = hand_scores(melds, counters, bidder, bid)
        scores[0] += gained[0]
        scores[1] += gained[1]
        conn.expect_message(
            scores_line(scores[0], scores[1], hand_number),
            f"the score after hand {hand_number}: meld {melds}, counters {counters}, "
            f"seat {bidder} bid {bid}, hand scores {gained}",
        )
        return bidder, me

    # -- checks on other seats -------------------------------------------------------------

    def check_other_play(
        self, seat: int, card: str, trick: list[str], trump: str, know: SeatKnowledge
    ) -> None:
        """Prove, from what this seat has shown so far, that ``card`` may be legal."""
        conn = self.conn
        s = suit_of(card)
        conn.check(
            s not in know.void, f"illegal play: seat {seat} played {card} after showing void in {s}"
        )
        ceiling = know.ceiling.get(s)
        conn.check(
            ceiling is None or rank_index(card) >= ceiling,
            f"illegal play: seat {seat} played {card} after failing to beat a "
            f"{RANKS[ceiling or 0]}{s} when it had to",
        )
        # A subset of its hand (melded cards still held, plus this card) must allow it.
        proof = Counter(know.known)
        if not proof[card]:
            proof[card] += 1
        conn.check(
            card in legal_plays(list(proof.elements()), trick, trump),
            f"illegal play: seat {seat} played {card} to {trick} (trump {trump}) while "
            f"holding {sort_cards(know.known.elements())} from its meld",
        )
        if know.known[card]:
            know.known[card] -= 1
        if not trick:
            return
        lead = suit_of(trick[0])
        winning = trick[trick_winner(trick, trump)]
        if s != lead:
            know.void.add(lead)
            if s != trump:
                know.void.add(trump)
            elif suit_of(winning) == trump and not beats(card, winning, trump):
                self._lower(know, trump, rank_index(winning))
        elif suit_of(winning) == lead and not beats(card, winning, trump):
            self._lower(know, lead, rank_index(winning))

    @staticmethod
    def _lower(know: SeatKnowledge, suit: str, rank: int) -> None:
        # It holds no card of ``suit`` ranking above ``rank`` (a larger index is lower).
        know.ceiling[suit] = max(know.ceiling.get(suit, 0), rank)

    # -- our own moves -----------------------------------------------------------------------

    def choose_bid(self, hand: list[str], high: int) -> int | None:
        best = max(meld(hand, s)[0] for s in {suit_of(c) for c in hand})
        need = max(MIN_BID, high + 1)
        return need if need <= best + self.bid_margin else None

    def choose_trump(self, hand: list[str]) -> str:
        def value(s: str) -> tuple[int, int, int]:
            return (meld(hand, s)[0], sum(suit_of(c) == s for c in hand), -SUITS.index(s))

        return max({suit_of(c) for c in hand}, key=value)

    def answer_play(
        self, prompt: Message, hand: list[str], trick: list[str], trump: str, illegal_done: bool
    ) -> tuple[str, bool]:
        """Answer our Play prompt (after the planned bad inputs); return (card, whether
        an illegal card was tried)."""
        conn = self.conn
        me = prompt["Playerid"]
        raw = conn.last_raw
        conn.check("PlayedCard" not in prompt, f"our Play prompt carries a PlayedCard: {prompt}")
        if trick:
            expected = {
                "Lead": suit_of(trick[0]),
                "Playerid": me,
                "Trump": trump,
                "Type": "Play",
                "WinningCard": trick[trick_winner(trick, trump)],
            }
            conn.check(
                canonical(prompt) == canonical(expected),
                f"our Play prompt on {trick} should be {canonical(expected)}",
            )
        else:
            conn.check(
                set(prompt) <= {"Playerid", "Trump", "Type"}
                and prompt.get("Trump", trump) == trump,
                f"our Play prompt to lead has no Lead/WinningCard (Trump {trump} at most)",
            )

        def again(what: str) -> None:
            conn.read()
            conn.check(
                conn.last_raw == raw,
                f"after {what} the same prompt must come again, exactly: {raw}",
            )

        if self.bad_json_pending:
            self.bad_json_pending = False
            conn.send_line('{"PlayedCard": "AS", "Playerid": ' + str(me) + ", ")
            again("a line of bad JSON")
            self.summary.bad_json_tested += 1

        legal = legal_plays(hand, trick, trump)
        tried = False
        if self.make_illegal_play and not illegal_done:
            illegal = [c for c in sort_cards(set(hand)) if c not in legal]
            if illegal:
                bad = self.rng.choice(illegal)
                conn.send({"PlayedCard": bad, "Playerid": me, "Type": "Play"})
                again(f"the illegal play {bad} (legal: {legal})")
                self.summary.illegal_plays_tested += 1
                tried = True
        card = self.rng.choice(legal)
        conn.send({"PlayedCard": card, "Playerid": me, "Type": "Play"})
        return card, tried


def play_games(
    host: str,
    port: int,
    games: int = 1,
    option: int = 1,
    make_illegal_play: bool = True,
    *,
    bad_json: bool = True,
    timeout: float = 10.0,
    seed: int | None = 0,
    target: int = DEFAULT_TARGET,
    bid_margin: int = 10,
    close_wait: float = 1.0,
) -> Summary:
    """Connect to a classic-dialect server, play ``games`` whole games, then quit.

    Raises AssertionError (quoting the last lines seen) on anything that disagrees with
    the seed transcript or RULES.md. ``make_illegal_play``: once a hand, the first time
    we hold an illegal card, answer it first and require the same prompt again.
    ``bad_json``: once a session, at our first Play prompt, send a broken line first and
    require the same prompt again. ``close_wait``: after the goodbye, wait this long to
    make sure no further line comes (the connection may close or stay open).
    """
    conn = Connection(host, port, timeout=timeout)
    client = ClassicClient(
        conn,
        make_illegal_play=make_illegal_play,
        bad_json=bad_json,
        seed=seed,
        target=target,
        bid_margin=bid_margin,
    )
    summary = client.summary
    try:
        for _ in range(games):
            client.lobby()
            client.create(option)
            record = client.play_game()
            summary.games += 1
            summary.records.append(record)
            summary.final_scores.append(record.scores)
            summary.wins += record.won
        client.lobby()
        client.quit(close_wait)
    finally:
        summary.lines_received = conn.lines_received
        conn.close()
    return summary
