"""Offline tests of the independent classic-dialect client (tests/support/classic_client.py).

The calculator is checked against every meld line, visible trick line and hand score of
the seed transcript (seeds/pinochle-server-protocol.txt, embedded below so the tests do
not need the file) and against each clause of RULES.md pinochle item 5. The protocol
handling is checked against a small fake server on 127.0.0.1 (a thread), including that
the client catches a server that gets things wrong.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import threading
import time
from typing import Any

import pytest

from tests.support.classic_client import (
    BYE,
    FULL_DECK,
    LOBBY_QUESTION,
    OPTION_LINES,
    bidding_order,
    canonical,
    dealer_of_hand,
    game_winner,
    hand_scores,
    legal_plays,
    meld,
    play_games,
    resolve_bidding,
    scores_line,
    sort_cards,
    trick_line,
    trick_points,
    trick_winner,
    win_line,
)

# ---------------------------------------------------------------------------------------
# The transcript's data
# ---------------------------------------------------------------------------------------

DEALS = [  # seat 0's hand in hands 1, 2, 3
    ["AD", "KD", "KD", "JD", "9D", "JC", "TH", "KH", "TS", "TS", "JS", "9S"],
    ["9D", "AC", "TC", "KC", "QC", "QC", "JC", "KH", "JH", "9H", "9H", "JS"],
    ["TD", "9D", "AC", "9C", "9C", "AH", "KH", "QH", "9H", "QS", "9S", "9S"],
]
TRUMPS = ["H", "C", "C"]
MELD_LINES = [  # per hand, seats 0..3, verbatim
    [
        '{"Hand":[],"Playerid":0,"Type":"Meld"}',
        '{"Amount":1,"Hand":["9H"],"Playerid":1,"Type":"Meld"}',
        '{"Amount":11,"Hand":["JD","JC","JH","9H","KS","QS","JS"],"Playerid":2,"Type":"Meld"}',
        '{"Amount":4,"Hand":["KC","KC","QC","QC"],"Playerid":3,"Type":"Meld"}',
    ],
    [
        '{"Amount":15,"Hand":["AC","TC","KC","QC","JC"],"Playerid":0,"Type":"Meld"}',
        '{"Amount":1,"Hand":["9C"],"Playerid":1,"Type":"Meld"}',
        '{"Hand":[],"Playerid":2,"Type":"Meld"}',
        '{"Amount":11,"Hand":["AD","AC","9C","AH","AS"],"Playerid":3,"Type":"Meld"}',
    ],
    [
        '{"Amount":4,"Hand":["9C","9C","KH","QH"],"Playerid":0,"Type":"Meld"}',
        '{"Amount":25,"Hand":["AD","AC","TC","KC","QC","JC","AH","AS"],"Playerid":1,"Type":"Meld"}',
        '{"Amount":6,"Hand":["JD","KS","QS"],"Playerid":2,"Type":"Meld"}',
        '{"Amount":4,"Hand":["KD","KD","QD","QD"],"Playerid":3,"Type":"Meld"}',
    ],
]
# (trump, leader, cards in play order, the transcript's line)
TRICKS = [
    ("H", 2, ["AD", "TD", "KD", "QD"], "Player 2 wins trick #1 with AD for 3 points"),
    ("H", 0, ["KD", "TH", "KH", "JH"], "Player 1 wins trick #6 with TH for 3 points"),
    ("H", 1, ["TC", "JH", "KC", "TH"], "Player 0 wins trick #7 with TH for 3 points"),
    ("H", 1, ["9H", "JS", "9S", "TS"], "Player 1 wins trick #12 with 9H for 2 points"),
    ("C", 3, ["AD", "9D", "QD", "AD"], "Player 3 wins trick #1 with AD for 2 points"),
    ("C", 0, ["QC", "9S", "9S", "QS"], "Player 0 wins trick #12 with QC for 1 points"),
    ("C", 3, ["9D", "KH", "JS", "QS"], "Player 3 wins trick #12 with 9D for 2 points"),
]


def meld_message(seat: int, hand: list[str], trump: str) -> dict[str, Any]:
    amount, cards = meld(hand, trump)
    if amount == 0:
        return {"Hand": [], "Playerid": seat, "Type": "Meld"}
    return {"Amount": amount, "Hand": cards, "Playerid": seat, "Type": "Meld"}


# ---------------------------------------------------------------------------------------
# Calculator
# ---------------------------------------------------------------------------------------


def test_deals_are_sorted_as_the_transcript_sorts() -> None:
    for hand in DEALS:
        assert sort_cards(hand) == hand
    assert sort_cards(["9S", "AS", "TD", "QC", "JH", "AD"]) == ["AD", "TD", "QC", "JH", "AS", "9S"]


@pytest.mark.parametrize(("hand_index", "seat"), [(h, s) for h in range(3) for s in range(4)])
def test_every_meld_line_of_the_transcript(hand_index: int, seat: int) -> None:
    line = json.loads(MELD_LINES[hand_index][seat])
    trump = TRUMPS[hand_index]
    # Seat 0's whole hand is known: its meld comes from the hand. For the others the
    # cards shown must be worth the amount and be exactly their own counting cards.
    hand = DEALS[hand_index] if seat == 0 else line["Hand"]
    assert canonical(meld_message(seat, hand, trump)) == canonical(line)


@pytest.mark.parametrize(
    ("hand", "trump", "amount", "shown"),
    [
        # run 15; its K-Q is no royal marriage
        (["AH", "TH", "KH", "QH", "JH", "9S"], "H", 15, ["AH", "TH", "KH", "QH", "JH"]),
        # run + a second K-Q of trump: royal marriage 4
        (
            ["AH", "TH", "KH", "KH", "QH", "QH", "JH"],
            "H",
            19,
            ["AH", "TH", "KH", "KH", "QH", "QH", "JH"],
        ),
        # double run 150
        (
            sorted(["AS", "TS", "KS", "QS", "JS"] * 2),
            "S",
            150,
            sort_cards(["AS", "TS", "KS", "QS", "JS"] * 2),
        ),
        # royal marriage 4, plain marriage 2, two dix
        (["KD", "QD", "KC", "QC", "9D", "9D"], "D", 8, ["KD", "QD", "9D", "9D", "KC", "QC"]),
        # pinochle 4, double pinochle 30
        (["JD", "QS", "9C"], "H", 4, ["JD", "QS"]),
        (["JD", "JD", "QS", "QS"], "H", 30, ["JD", "JD", "QS", "QS"]),
        # aces around 10; a second AD alone adds nothing and is not shown
        (["AD", "AD", "AC", "AH", "AS"], "C", 10, ["AD", "AC", "AH", "AS"]),
        # double aces 100, double kings 80, double queens 60, double jacks 40
        (["AD", "AC", "AH", "AS"] * 2, "D", 100, sort_cards(["AD", "AC", "AH", "AS"] * 2)),
        (["KD", "KC", "KH", "KS"] * 2, "D", 80, sort_cards(["KD", "KC", "KH", "KS"] * 2)),
        (["QD", "QC", "QH", "QS"] * 2, "D", 60, sort_cards(["QD", "QC", "QH", "QS"] * 2)),
        (["JD", "JC", "JH", "JS"] * 2, "D", 40, sort_cards(["JD", "JC", "JH", "JS"] * 2)),
        # kings around 8 + queens around 6 + four marriages (one royal) 4+2+2+2 + pinochle 4
        (
            ["KD", "QD", "KC", "QC", "KH", "QH", "KS", "QS", "JD"],
            "D",
            8 + 6 + 4 + 2 + 2 + 2 + 4,
            ["KD", "QD", "JD", "KC", "QC", "KH", "QH", "KS", "QS"],
        ),
        # JD counts in jacks around and in a pinochle, shown once
        (["JD", "JC", "JH", "JS", "QS"], "C", 8, ["JD", "JC", "JH", "QS", "JS"]),
        # nothing
        (["AD", "TC", "9H", "JS"], "C", 0, []),
    ],
)
def test_meld_cases(hand: list[str], trump: str, amount: int, shown: list[str] | None) -> None:
    got_amount, got_shown = meld(hand, trump)
    assert got_amount == amount
    if shown is not None:
        assert got_shown == shown
    # The cards shown are worth the amount on their own (what the client checks of others).
    assert meld(got_shown, trump) == (got_amount, got_shown)


@pytest.mark.parametrize(("trump", "leader", "cards", "line"), TRICKS)
def test_transcript_trick_lines(trump: str, leader: int, cards: list[str], line: str) -> None:
    number = int(line.split("#")[1].split()[0])
    pos = trick_winner(cards, trump)
    points = trick_points(cards, last=number == 12)
    assert trick_line((leader + pos) % 4, number, cards[pos], points) == line


def test_identical_cards_first_played_wins() -> None:
    assert trick_winner(["AD", "9D", "QD", "AD"], "C") == 0
    assert trick_winner(["9D", "JH", "QD", "JH"], "H") == 1
    assert trick_winner(["9D", "QS", "KS", "AS"], "C") == 0  # off-suit never wins


def test_transcript_hand_scores() -> None:
    # Hand 1: dealer 0; seat 2 bids 25; Team0 meld 11 + 11 counters = 22 < 25: set.
    h1 = hand_scores([0, 1, 11, 4], [11, 14], bidder=2, bid=25)
    assert h1 == [-25, 19]
    # Hand 2: seat 3 bids 29; Team1 meld 12 + 12 counters = 24 < 29: set.
    h2 = hand_scores([15, 1, 0, 11], [13, 12], bidder=3, bid=29)
    assert h2 == [28, -29]
    # Hand 3: seat 1 bids 45; Team1 meld 29 + 14 counters = 43 < 45: set.
    h3 = hand_scores([4, 25, 6, 4], [11, 14], bidder=1, bid=45)
    assert h3 == [21, -45]
    running = [0, 0]
    lines = []
    for number, gained in enumerate([h1, h2, h3], start=1):
        running = [running[0] + gained[0], running[1] + gained[1]]
        lines.append(scores_line(running[0], running[1], number))
    assert lines == [
        "Scores are now Team0 = -25 to Team1 = 19, played 1 hands",
        "Scores are now Team0 = 3 to Team1 = -10, played 2 hands",
        "Scores are now Team0 = 24 to Team1 = -55, played 3 hands",
    ]
    assert game_winner([-25, 19], 0) is None
    assert game_winner([3, -10], 1) is None
    assert game_winner(running, 1) == 0
    assert win_line(0, running[0]) == "Team0 wins with a score of 24!"


def test_made_bid_scores_meld_plus_counters() -> None:
    assert hand_scores([10, 5, 10, 5], [15, 10], bidder=0, bid=35) == [35, 20]
    assert hand_scores([10, 5, 10, 5], [14, 11], bidder=0, bid=35) == [-35, 21]


def test_game_end() -> None:
    assert game_winner([99, 50], 0) is None
    assert game_winner([100, 50], 1) == 0
    assert game_winner([-50, 20], 0) is None  # -50 is not below -50
    assert game_winner([-51, -60], 0) == 0  # both below: the higher wins
    assert game_winner([104, 104], 1) == 1  # tie: the team that bid this hand
    assert game_winner([120, 80], 0, target=150) is None


def test_transcript_bidding() -> None:
    assert [dealer_of_hand(n) for n in (1, 2, 3, 4, 5)] == [0, 1, 2, 3, 0]
    # The order of the Bid lines in hands 1, 2, 3.
    assert bidding_order(0) == [1, 2, 3, 0]
    assert bidding_order(1) == [2, 3, 0, 1]
    assert bidding_order(2) == [3, 0, 1, 2]
    assert resolve_bidding({1: None, 2: 25, 3: None, 0: None}, 0) == (2, 25)
    assert resolve_bidding({2: None, 3: 29, 0: None, 1: None}, 1) == (3, 29)
    assert resolve_bidding({3: 22, 0: None, 1: 45, 2: None}, 2) == (1, 45)
    assert resolve_bidding({0: None, 1: None, 2: None, 3: None}, 3) == (3, 20)


# RULES.md pinochle item 5, clause by clause.
@pytest.mark.parametrize(
    ("hand", "trick", "trump", "legal"),
    [
        # leading: any card
        (["AD", "9C", "JH"], [], "H", ["AD", "9C", "JH"]),
        # follow suit, and beat the led-suit card that is winning if able
        (["AD", "9D", "TC"], ["KD"], "H", ["AD"]),
        (["AD", "TD", "9D", "TC"], ["KD", "QD"], "H", ["AD", "TD"]),
        # an identical card does not beat: the first played ranks higher
        (["KD", "9D", "TC"], ["KD"], "H", ["KD", "9D"]),
        # following but unable to beat: any card of the led suit
        (["QD", "9D", "AH"], ["AD", "KD"], "H", ["QD", "9D"]),
        # a trump is winning a non-trump lead: follow suit, no need to beat
        (["AD", "9D", "AH"], ["KD", "9H"], "H", ["AD", "9D"]),
        # void in the led suit: trump; a non-trump winning, any trump
        (["9H", "AH", "AS"], ["KD", "QD"], "H", ["AH", "9H"]),
        # void, a trump is winning: beat it if able (the transcript's trick #7:
        # JD is refused, TH beats JH)
        (["JD", "TH", "9H", "AS"], ["TC", "JH", "KC"], "H", ["TH"]),
        # void, a trump is winning, cannot beat: any trump
        (["JD", "9H", "AS"], ["TC", "JH", "KC"], "H", ["9H"]),
        # void in the led suit and in trump: any card
        (["JD", "AS", "AS"], ["TC", "JH"], "H", ["JD", "AS"]),
        # trump led: follow with trump and beat
        (["AH", "9H", "AS"], ["KH"], "H", ["AH"]),
        (["QH", "9H", "AS"], ["KH"], "H", ["QH", "9H"]),
    ],
)
def test_legal_plays(hand: list[str], trick: list[str], trump: str, legal: list[str]) -> None:
    assert legal_plays(hand, trick, trump) == sort_cards(legal)


def test_legal_plays_transcript_prompt() -> None:
    # Hand 1, trick #1: seat 0 holds its deal, AD led and winning. Its own AD does not
    # beat the first one, so any diamond (it played KD).
    assert legal_plays(DEALS[0], ["AD", "TD"], "H") == ["AD", "KD", "JD", "9D"]


# ---------------------------------------------------------------------------------------
# Protocol handling against a fake server
# ---------------------------------------------------------------------------------------


class _Gone(Exception):
    pass


class FakeServer(threading.Thread):
    """Plays option 1 games with seat 0 as the client, by the rules, optionally with one
    fault injected. Written for these tests only; it shares the calculator."""

    def __init__(
        self, seed: int = 1, fault: str | None = None, stall: bool = False, ai_bid: bool = True
    ):
        super().__init__(daemon=True)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(10)
        self.port = self.listener.getsockname()[1]
        self.rng = random.Random(seed)
        self.fault = fault
        self.stall = stall
        self.ai_bid = ai_bid
        self.bidders: list[tuple[int, int]] = []  # (bidder, bid) per hand
        self.reprompts = 0
        self.bad_lines = 0
        self.final_scores: list[list[int]] = []
        self.error: BaseException | None = None
        self.wrong: list[str] = []  # answers from the client that are malformed

    # -- I/O ---------------------------------------------------------------------------

    def run(self) -> None:
        try:
            conn, _ = self.listener.accept()
            with conn, conn.makefile("rb") as rfile:
                conn.settimeout(10)
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self.conn, self.rfile = conn, rfile
                with contextlib.suppress(_Gone, OSError):
                    self.session()
        except BaseException as exc:  # reported by the test, not by the thread
            self.error = exc
        finally:
            self.listener.close()

    def send(self, msg: dict[str, Any]) -> None:
        self.conn.sendall(json.dumps(msg, sort_keys=True, separators=(",", ":")).encode() + b"\n")

    def say(self, text: str) -> None:
        self.send({"Message": text, "Type": "Message"})

    def recv(self) -> dict[str, Any] | None:
        line = self.rfile.readline()
        if not line:
            raise _Gone
        try:
            msg = json.loads(line)
        except ValueError:
            self.bad_lines += 1
            return None
        return msg if isinstance(msg, dict) else None

    def ask(self, prompt: dict[str, Any], valid: Any) -> dict[str, Any]:
        """Send ``prompt`` until ``valid(answer)``; the same prompt after a bad one."""
        while True:
            self.send(prompt)
            answer = self.recv()
            if answer is not None and valid(answer):
                return answer
            if answer is not None and self.fault == "no_reprompt":
                self.say("That card is not legal")
            self.reprompts += 1

    # -- the game ------------------------------------------------------------------------

    def session(self) -> None:
        while True:
            self.say(LOBBY_QUESTION)
            self.send({"Type": "Hello"})
            if self.stall:
                time.sleep(1.5)
                return
            answer = self.recv()
            if answer == {"Message": "quit", "Type": "Hello"}:
                self.say(BYE)
                return
            if answer != {"Message": "create", "Type": "Hello"}:
                self.wrong.append(f"lobby answer {answer}")
                return
            for line in OPTION_LINES:
                self.say(line)
            self.send({"Type": "Game"})
            answer = self.recv()
            if answer != {"Option": 1, "Type": "Game"}:
                self.wrong.append(f"option answer {answer}")
                return
            self.game()

    def game(self) -> None:
        scores = [0, 0]
        number = 0
        while True:
            number += 1
            bidder = self.hand(number, scores)
            self.say(scores_line(scores[0], scores[1], number))
            team = game_winner(scores, bidder % 2)
            if team is None:
                self.send({"Score": list(scores), "Type": "Score"})
                continue
            self.say(win_line(team, scores[team]))
            final: dict[str, Any] = {"GameOver": True, "Score": list(scores), "Type": "Score"}
            if (team == 0) != (self.fault == "wrong_win"):
                final["Win"] = True
            self.send(final)
            self.final_scores.append(list(scores))
            return

    def hand(self, number: int, scores: list[int]) -> int:
        deck = list(FULL_DECK.elements())
        self.rng.shuffle(deck)
        hands = [sort_cards(deck[12 * s : 12 * s + 12]) for s in range(4)]
        dealer = dealer_of_hand(number)
        deal: dict[str, Any] = {"Hand": hands[0], "Playerid": 0, "Type": "Deal"}
        if self.fault == "seq":
            deal["Seq"] = 1
        self.send(deal)

        high = 0
        bids: dict[int, int | None] = {}
        order = bidding_order(dealer)
        if self.fault == "bid_order":
            order = order[1:] + order[:1]
        for seat in order:
            if seat == 0:

                def valid_bid(a: dict[str, Any], high: int = high) -> bool:
                    b = a.get("Bid")
                    return set(a) <= {"Bid", "Playerid", "Type"} and (
                        b is None or (isinstance(b, int) and b >= 20 and b > high)
                    )

                answer = self.ask({"Playerid": 0, "Type": "Bid"}, valid_bid)
                amount = answer.get("Bid")
            else:
                best = max(meld(hands[seat], s)[0] for s in "DCHS")
                need = max(20, high + 1)
                amount = need if self.ai_bid and need <= best + 12 else None
                msg: dict[str, Any] = {"Playerid": seat, "Type": "Bid"}
                if amount is not None:
                    msg["Bid"] = amount
                self.send(msg)
            bids[seat] = amount
            if amount is not None:
                high = amount
        bidder, bid = resolve_bidding(bids, dealer)
        self.bidders.append((bidder, bid))

        if bidder == 0:
            suits = {c[1] for c in hands[0]}
            answer = self.ask(
                {"Playerid": 0, "Type": "Trump"},
                lambda a: a.get("Trump") in suits and a.get("Playerid") == 0,
            )
            trump = answer["Trump"]
        else:
            trump = max("DCHS", key=lambda s: meld(hands[bidder], s)[0])
            self.send({"Playerid": bidder, "Trump": trump, "Type": "Trump"})

        melds = []
        for seat in range(4):
            msg = meld_message(seat, hands[seat], trump)
            melds.append(msg.get("Amount", 0))
            if seat == 1 and self.fault == "meld":
                msg["Amount"] = msg.get("Amount", 0) + 1
            self.send(msg)

        counters = [0, 0]
        leader = bidder
        for trick_number in range(1, 13):
            trick: list[str] = []
            seats = [(leader + i) % 4 for i in range(4)]
            for seat in seats:
                if seat == 0:
                    prompt: dict[str, Any] = {"Playerid": 0, "Trump": trump, "Type": "Play"}
                    if trick:
                        prompt["Lead"] = trick[0][1]
                        prompt["WinningCard"] = trick[trick_winner(trick, trump)]
                    legal = legal_plays(hands[0], trick, trump)
                    answer = self.ask(prompt, lambda a, legal=legal: a.get("PlayedCard") in legal)
                    card = answer["PlayedCard"]
                else:
                    legal = legal_plays(hands[seat], trick, trump)
                    card = legal[0]
                    if self.fault == "ai_illegal":  # the first card it may not play
                        card = next((c for c in hands[seat] if c not in legal), card)
                    self.send({"PlayedCard": card, "Playerid": seat, "Type": "Play"})
                hands[seat].remove(card)
                trick.append(card)
            pos = trick_winner(trick, trump)
            winner = seats[pos]
            points = trick_points(trick, last=trick_number == 12)
            counters[winner % 2] += points
            if self.fault == "points" and trick_number == 1:
                points += 1
            self.say(trick_line(winner, trick_number, trick[pos], points))
            leader = winner
        gained = hand_scores(melds, counters, bidder, bid)
        scores[0] += gained[0]
        scores[1] += gained[1]
        return bidder


def run_against(server: FakeServer, **kwargs: Any) -> Any:
    server.start()
    try:
        return play_games("127.0.0.1", server.port, **kwargs)
    finally:
        server.join(10)
        assert not server.is_alive()
        assert server.error is None, server.error


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_client_plays_whole_games_against_a_fake_server(seed: int) -> None:
    server = FakeServer(seed=seed)
    summary = run_against(server, games=2, seed=seed, close_wait=0.2)
    assert server.wrong == []
    assert summary.games == 2
    assert summary.hands >= 2
    assert summary.final_scores == server.final_scores
    assert summary.wins == sum(s[0] > s[1] for s in server.final_scores)
    assert summary.bad_json_tested == 1
    assert server.bad_lines == 1
    assert summary.illegal_plays_tested >= summary.games
    assert server.reprompts == summary.illegal_plays_tested + summary.bad_json_tested


def test_client_without_bad_inputs() -> None:
    server = FakeServer(seed=5)
    summary = run_against(server, games=1, make_illegal_play=False, bad_json=False, close_wait=0.2)
    assert (summary.games, summary.illegal_plays_tested, summary.bad_json_tested) == (1, 0, 0)
    assert server.reprompts == 0


def test_all_pass_makes_the_dealer_bid_20() -> None:
    # Nobody bids: hand 1's dealer (seat 0, the client) names trump at 20, and so on.
    server = FakeServer(seed=7, ai_bid=False)
    summary = run_against(server, games=1, bid_margin=-100, close_wait=0.2)
    assert summary.bids_made == 0
    assert server.bidders[:4] == [(0, 20), (1, 20), (2, 20), (3, 20)]
    assert summary.hands_bid_by_us == (summary.hands + 3) // 4


@pytest.mark.parametrize(
    ("fault", "complaint"),
    [
        ("meld", "seat 1's meld"),
        ("points", "the result of trick #1"),
        ("seq", "keys the seed never uses: ['Seq']"),
        ("bid_order", "bidding starts at its left"),
        ("no_reprompt", "the same prompt must come again"),
        ("wrong_win", "game-over Score"),
        ("ai_illegal", "illegal play: seat"),
    ],
)
def test_client_catches_a_wrong_server(fault: str, complaint: str) -> None:
    server = FakeServer(seed=2, fault=fault)
    with pytest.raises(AssertionError, match="last lines") as info:
        run_against(server, games=1, seed=2, close_wait=0.2)
    assert complaint in str(info.value)


def test_timeout_is_an_assertion_with_the_last_lines() -> None:
    server = FakeServer(stall=True)
    started = time.monotonic()
    with pytest.raises(AssertionError, match="timed out") as info:
        run_against(server, timeout=0.5)
    assert time.monotonic() - started < 5
    assert LOBBY_QUESTION in str(info.value)
    assert '<-- {"Message":"create","Type":"Hello"}' in str(info.value)
