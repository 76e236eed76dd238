"""The demo: a game told for people, from the engine's events only."""

from __future__ import annotations

import io

from hundred_server.ai.selfplay import play_game
from hundred_server.games.hundredandten.demo import Narrator, pretty_hand, run_demo
from hundred_server.games.hundredandten.rules import (
    BiddingWon,
    BidMade,
    Dealt,
    Discarded,
    GameWon,
    PassedOut,
    Played,
    PrePassed,
    RoundScored,
    TrickWon,
    TrumpSelected,
    Unpassed,
)
from hundred_server.games.kit.cards import Card, Suit


def cards(*codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


def missing(text: str, *phrases: str) -> list[str]:
    """The ``phrases`` that ``text`` does not hold."""
    return [phrase for phrase in phrases if phrase not in text]


def test_demo_plays_the_same_game_as_selfplay() -> None:
    out = io.StringIO()
    game = run_demo("same", 3, out)
    assert game.round_results == play_game(3, "same").round_results
    text = out.getvalue()
    assert text.count("── Round ") == game.round
    assert text.count("  Trick ") == 5 * sum(1 for line in text.splitlines() if "Points:" in line)
    assert text.rstrip().splitlines()[-1].startswith("🏆 ")


def test_pretty_hand_sorts_by_suit_high_first() -> None:
    assert pretty_hand(cards("2C", "JK", "AS", "5S", "KH", "TD")) == "A♠  5♠  K♥  2♣  10♦ 🃏"


def test_narrator_tells_a_round() -> None:
    narrator = Narrator(["ann", "bob"])
    hands = (cards("5H", "JS", "JK", "2C", "3C"), cards("AH", "KH", "QH", "4D", "6D"))
    lines = narrator.lines(
        [
            Dealt(1, 0, hands),
            PrePassed(0),
            Unpassed(0),
            PrePassed(0),
            BidMade(1, 0),
            BidMade(0, 0, automatic=True),
            PassedOut(1, (0, 0, 0, 0)),
            Dealt(2, 0, hands),
            BidMade(1, 20),
            BidMade(0, 0),
            BiddingWon(1, 20),
            TrumpSelected(1, Suit.HEARTS),
            Discarded(1, cards("4D", "6D"), cards("7H", "8H"), cards("AH", "KH", "QH", "7H", "8H")),
            Discarded(0, (), (), hands[0]),
            Played(0, Card.parse("5H")),
            Played(1, Card.parse("AH")),
            TrickWon(0, Card.parse("5H"), 1),
            RoundScored(2, ((1, -20), (0, 10)), (10, -20), (10, -20)),
        ]
    )
    text = "\n".join(lines)
    assert "  ann  J♠  5♥  3♣  2♣  🃏" in lines
    assert not missing(
        text,
        "Round 1 · ann deals",
        "ann passes early, ann takes the pass back, ann passes early, bob pass, ",
        "ann pass (pre-passed)",
        "everybody passed: no score",
        "→ bob wins the bid at 20",
        "Trump:    ♥ hearts (every ♥ and 🃏)",
        "bob  exchanges 2",
        "ann  keeps the hand",
        "Trick 1:  ann 5♥   bob A♥   → ann",
        "(bob bid 20 and fell short: -20)",
        "Totals:   ann   10   bob  -20",
    )
    won = narrator.lines([GameWon(0, (110, -20))])
    assert won[-1] == "🏆 ann wins with 110 after 2 rounds (bob -20)."


def test_narrator_moon() -> None:
    narrator = Narrator(["ann", "bob"])
    lines = narrator.lines(
        [
            BiddingWon(0, 60),
            TrumpSelected(0, Suit.SPADES),
            RoundScored(3, ((0, 60),), (60, 0), (60, 0)),
            BiddingWon(1, 60),
            RoundScored(4, ((1, -60), (0, 5)), (5, -60), (65, -60)),
        ]
    )
    text = "\n".join(lines)
    assert not missing(
        text,
        "→ ann shoots the moon",
        "(every ♠, A♥ and 🃏)",
        "(ann took every trick: +60)",
        "(bob missed the moon: -60)",
    )
