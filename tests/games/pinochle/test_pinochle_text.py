"""Pinochle in text mode (games/pinochle/text.py): each of its wire messages rendered
for people, and each of its commands read, on a ``TextCodec`` as the screen."""

from __future__ import annotations

from typing import Any

import pytest

from hundred_server.games.pinochle.text import HELP, TEXT, spans
from hundred_server.protocol.codecs.text import TextCodec
from hundred_server.protocol.errors import ClientError

PLAYERS = ["ann", "bob", "cy", "dee"]
HAND = ["AD", "TD", "KS", "QS", "JS", "JD", "JC", "JH", "9H", "AH", "9C", "TC"]
DEAL = {"Type": "Deal", "Playerid": 2, "Hand": HAND, "Dealer": 0, "Round": 1, "Players": PLAYERS}
SCORE = {
    "Type": "Score",
    "Round": 1,
    "Bidder": 2,
    "Bid": 25,
    "Made": False,
    "Meld": [11, 5],
    "Counters": [11, 14],
    "Points": [-25, 19],
    "Score": [-25, 19],
}
GAME_OVER = {
    **SCORE,
    "Round": 3,
    "Bidder": 1,
    "Bid": 45,
    "Meld": [20, 12],
    "Counters": [13, 12],
    "Points": [33, -45],
    "Score": [24, -55],
    "GameOver": True,
    "Winner": 0,
    "Win": True,
}


def dealt() -> TextCodec:
    """A connection dealt seat 2 (cy, team 0 with ann)."""
    screen = TextCodec()
    TEXT.render(DEAL, screen)
    return screen


def show(msg: dict[str, Any], screen: TextCodec | None = None) -> list[str]:
    """What a person at a Pinochle table reads: the game's view, else the lobby's."""
    screen = screen or dealt()
    lines = TEXT.render(msg, screen)
    return screen.render(msg) if lines is None else lines


# ------------------------------------------------------------------------ render


@pytest.mark.parametrize(
    ("msg", "lines"),
    [
        (
            DEAL,
            [
                "── Round 1: ann deals.",
                "Your hand: A♦ 10♦ K♠ Q♠ J♠ J♦ J♣ J♥ 9♥ A♥ 9♣ 10♣",
                "You play with ann (your partner, Team 0) against dee and bob.",
            ],
        ),
        ({"Type": "Bid", "Playerid": 3, "Seq": 1}, ["(waiting for dee to bid)"]),
        (
            {"Type": "Bid", "Playerid": 2, "Seq": 2, "Legal": [0, *range(20, 251)]},
            ["> your bid (pass, or 20-250): bid N or pass"],
        ),
        (
            {"Type": "Bid", "Playerid": 2, "Seq": 2, "Legal": [0, *range(26, 251)]},
            ["> your bid (pass, or 26-250): bid N or pass"],
        ),
        ({"Type": "Bid", "Playerid": 3, "Bid": 25}, ["dee bids 25"]),
        ({"Type": "Bid", "Playerid": 3, "Bid": 0}, ["dee passes"]),
        ({"Type": "Bid", "Playerid": 2, "Bid": 21}, ["you bid 21"]),
        ({"Type": "Bid", "Playerid": 2, "Bid": 0}, ["you pass"]),
        (
            {"Type": "Message", "Message": "Everyone passed: ann is stuck with 20"},
            ["Everyone passed: ann is stuck with 20"],
        ),
        ({"Type": "Trump", "Playerid": 0, "Seq": 5}, ["(waiting for ann to name trump)"]),
        (
            {"Type": "Trump", "Playerid": 2, "Seq": 5, "Legal": ["H", "D", "S", "C"]},
            ["> name trump: trump hearts, diamonds, spades or clubs"],
        ),
        ({"Type": "Trump", "Playerid": 0, "Trump": "H"}, ["Trump is ♥ hearts (named by ann)"]),
        (
            {
                "Type": "Meld",
                "Playerid": 2,
                "Hand": ["JD", "JC", "JH", "9H", "KS", "QS", "JS"],
                "Amount": 11,
            },
            ["you meld 11: J♦ J♣ J♥ 9♥ K♠ Q♠ J♠"],
        ),
        (
            {"Type": "Meld", "Playerid": 1, "Hand": ["KH", "QH"], "Amount": 4},
            ["bob melds 4: K♥ Q♥"],
        ),
        ({"Type": "Meld", "Playerid": 3, "Hand": [], "Amount": 0}, ["dee has no meld"]),
        ({"Type": "Meld", "Playerid": 2, "Hand": [], "Amount": 0}, ["you have no meld"]),
        ({"Type": "Play", "Playerid": 1, "Seq": 9, "Trump": "H"}, ["(waiting for bob to play)"]),
        (
            {"Type": "Play", "Playerid": 2, "Seq": 9, "Trump": "H", "Legal": HAND},
            [
                "Your hand: 1:A♦  2:10♦  3:K♠  4:Q♠  5:J♠  6:J♦  7:J♣  8:J♥  9:9♥  10:A♥"
                "  11:9♣  12:10♣   (trump ♥)",
                "> play one of: A♦ 10♦ K♠ Q♠ J♠ J♦ J♣ J♥ 9♥ A♥ 9♣ 10♣   (play A♦ or play 1)",
            ],
        ),
        (
            {
                "Type": "Play",
                "Playerid": 2,
                "Seq": 10,
                "Trump": "H",
                "Lead": "D",
                "WinningCard": "KD",
                "Legal": ["AD", "TD"],
            },
            [
                "Your hand: 1:A♦  2:10♦  3:K♠  4:Q♠  5:J♠  6:J♦  7:J♣  8:J♥  9:9♥  10:A♥"
                "  11:9♣  12:10♣   (trump ♥, winning K♦)",
                "> play one of: A♦ 10♦   (play A♦ or play 1)",
            ],
        ),
        ({"Type": "Play", "Playerid": 1, "PlayedCard": "AD"}, ["bob played A♦"]),
        (
            {"Type": "Trick", "Playerid": 2, "WinningCard": "AD", "Trick": 1, "Points": 3},
            ["you win trick 1 with A♦ (3 points)"],
        ),
        (
            {"Type": "Trick", "Playerid": 1, "WinningCard": "AD", "Trick": 2, "Points": 1},
            ["bob wins trick 2 with A♦ (1 point)"],
        ),
        (
            {"Type": "Message", "Message": "Player 2 wins trick #1 with AD for 3 points"},
            ["Player 2 wins trick #1 with AD for 3 points"],
        ),
        (
            SCORE,
            [
                "Hand 1: you bid 25 for your team and went set.",
                "  Team 0 (ann and you): meld 11, counters 11; -25 this hand",
                "  Team 1 (bob and dee): meld 5, counters 14; +19 this hand",
                "Scores: Team 0 (ann and you) -25, Team 1 (bob and dee) 19",
            ],
        ),
        (
            {**SCORE, "Bidder": 1, "Made": True, "Points": [16, 19]},
            [
                "Hand 1: bob bid 25 for Team 1 and made it.",
                "  Team 0 (ann and you): meld 11, counters 11; +16 this hand",
                "  Team 1 (bob and dee): meld 5, counters 14; +19 this hand",
                "Scores: Team 0 (ann and you) -25, Team 1 (bob and dee) 19",
            ],
        ),
        (
            GAME_OVER,
            [
                "Hand 3: bob bid 45 for Team 1 and went set.",
                "  Team 0 (ann and you): meld 20, counters 13; +33 this hand",
                "  Team 1 (bob and dee): meld 12, counters 12; -45 this hand",
                "Game over. Your team wins! Final scores: Team 0 (ann and you) 24, "
                "Team 1 (bob and dee) -55",
            ],
        ),
        (
            {**GAME_OVER, "Winner": 1, "Win": False, "Score": [-55, 24]},
            [
                "Hand 3: bob bid 45 for Team 1 and went set.",
                "  Team 0 (ann and you): meld 20, counters 13; +33 this hand",
                "  Team 1 (bob and dee): meld 12, counters 12; -45 this hand",
                "Game over. Team 1 (bob and dee) win. Final scores: Team 0 (ann and you) -55, "
                "Team 1 (bob and dee) 24",
            ],
        ),
    ],
)
def test_render(msg: dict[str, Any], lines: list[str]) -> None:
    assert show(msg) == lines


def test_render_keeps_the_hand_and_the_prompt() -> None:
    screen = dealt()
    assert (screen.seat, screen.players, screen.hand) == (2, PLAYERS, HAND)
    prompt = {"Type": "Bid", "Playerid": 2, "Seq": 2, "Legal": [0, 20, 21]}
    show(prompt, screen)
    assert screen.prompt == prompt
    assert show(screen.prompt, screen) == ["> your bid (pass, or 20-21): bid N or pass"]
    show({"Type": "Play", "Playerid": 2, "PlayedCard": "JD"}, screen)
    assert screen.hand == [c for c in HAND if c != "JD"]
    show(GAME_OVER, screen)
    assert screen.prompt is None


def test_a_watcher_without_names_reads_teams_by_number() -> None:
    screen = TextCodec()
    assert show(SCORE, screen)[-1] == "Scores: Team 0 -25, Team 1 19"


SNAPSHOT = {
    "Type": "Snapshot",
    "Table": 4,
    "Playerid": 1,
    "Players": PLAYERS,
    "Round": 2,
    "Dealer": 0,
    "Phase": "bidding",
    "Hand": ["AS", "AS", "9C"],
    "Score": [-25, 19],
    "Bids": [{"Playerid": 1, "Bid": 21}, {"Playerid": 2, "Bid": 0}],
    "Meld": [],
    "Tricks": 0,
    "Trick": [],
    "Counters": [0, 0],
}


@pytest.mark.parametrize(
    ("snapshot", "lines"),
    [
        (
            SNAPSHOT,
            [
                "── Back at your seat, round 2 (bidding); ann dealt. "
                "Scores: Team 0 (ann and cy) -25, Team 1 (you and dee) 19",
                "Your hand: A♠ A♠ 9♣",
                "You play with dee (your partner, Team 1) against cy and ann.",
                "Bids: you bid 21, cy passes",
            ],
        ),
        (
            {
                **SNAPSHOT,
                "Phase": "trump",
                "Bids": [
                    {"Playerid": 1, "Bid": 21},
                    {"Playerid": 2, "Bid": 0},
                    {"Playerid": 3, "Bid": 0},
                    {"Playerid": 0, "Bid": 0},
                ],
                "Bidder": 1,
                "Bid": 21,
            },
            [
                "── Back at your seat, round 2 (trump); ann dealt. "
                "Scores: Team 0 (ann and cy) -25, Team 1 (you and dee) 19",
                "Your hand: A♠ A♠ 9♣",
                "You play with dee (your partner, Team 1) against cy and ann.",
                "Bids: you bid 21, cy passes, dee passes, ann passes",
                "you won the bid at 21; trump is not named yet",
            ],
        ),
        (
            {
                **SNAPSHOT,
                "Phase": "tricks",
                "Bids": [{"Playerid": 1, "Bid": 21}],
                "Bidder": 1,
                "Bid": 21,
                "Trump": "S",
                "Meld": [
                    {"Playerid": 0, "Hand": [], "Amount": 0},
                    {"Playerid": 1, "Hand": ["AS", "TS", "KS", "QS", "JS"], "Amount": 15},
                ],
                "Tricks": 4,
                "Trick": [{"Playerid": 0, "PlayedCard": "9D"}],
                "Counters": [3, 5],
            },
            [
                "── Back at your seat, round 2 (tricks); ann dealt. "
                "Scores: Team 0 (ann and cy) -25, Team 1 (you and dee) 19",
                "Your hand: A♠ A♠ 9♣",
                "You play with dee (your partner, Team 1) against cy and ann.",
                "Bids: you bid 21",
                "Trump is ♠ spades (you bid 21)",
                "ann has no meld",
                "you meld 15: A♠ 10♠ K♠ Q♠ J♠",
                "Tricks played: 4; counters: Team 0 (ann and cy) 3, Team 1 (you and dee) 5",
                "This trick so far: ann 9♦",
            ],
        ),
    ],
)
def test_render_snapshot(snapshot: dict[str, Any], lines: list[str]) -> None:
    screen = TextCodec()
    assert show(snapshot, screen) == lines
    assert (screen.seat, screen.hand) == (1, snapshot["Hand"])


def test_messages_of_other_games_are_not_pinochles() -> None:
    screen = dealt()
    for msg in (
        {"Type": "Discard", "Playerid": 1, "Count": 2},
        {"Type": "Unpass", "Playerid": 2},
        {"Type": "Message", "Message": "hi"},
        {"Type": "Table"},
    ):
        assert TEXT.render(msg, screen) is None


def test_spans() -> None:
    assert spans([]) == ""
    assert spans([20]) == "20"
    assert spans([20, 21, 22, 25, 30, 31]) == "20-22, 25, 30-31"


# ------------------------------------------------------------------------- parse


def parse(command: str, screen: TextCodec | None = None) -> list[dict[str, Any]] | None:
    head, *args = command.split()
    return TEXT.parse(head.lower(), args, screen or dealt())


@pytest.mark.parametrize(
    ("command", "wire"),
    [
        ("bid 25", [{"Type": "Bid", "Bid": 25}]),
        ("BID 250", [{"Type": "Bid", "Bid": 250}]),
        ("pass", [{"Type": "Bid", "Bid": 0}]),
        ("trump hearts", [{"Type": "Trump", "Trump": "H"}]),
        ("trump h", [{"Type": "Trump", "Trump": "H"}]),
        ("trump ♥", [{"Type": "Trump", "Trump": "H"}]),
        ("trump Diamond", [{"Type": "Trump", "Trump": "D"}]),
        ("trump ♠", [{"Type": "Trump", "Trump": "S"}]),
        ("trump c", [{"Type": "Trump", "Trump": "C"}]),
        ("play AD", [{"Type": "Play", "PlayedCard": "AD"}]),
        ("play A♦", [{"Type": "Play", "PlayedCard": "AD"}]),
        ("play 10♣", [{"Type": "Play", "PlayedCard": "TC"}]),
        ("score", ["No hand has been scored yet."]),
        ("partner", ["You play with ann (your partner, Team 0) against dee and bob."]),
        ("play 3", [{"Type": "Play", "PlayedCard": "KS"}]),
        ("play 12", [{"Type": "Play", "PlayedCard": "TC"}]),
        ("moon", None),  # not a Pinochle command
        ("unpass", None),
        ("discard 1", None),
        ("dance", None),
    ],
)
def test_parse(command: str, wire: list[dict[str, Any]] | None) -> None:
    assert parse(command) == wire


@pytest.mark.parametrize(
    ("command", "code", "message"),
    [
        ("bid", "bad_message", 'expected a number, as in: bid 20 (not "nothing")'),
        ("bid x", "bad_message", 'expected a number, as in: bid 20 (not "x")'),
        ("bid 20 25", "bad_message", 'expected a number, as in: bid 20 (not "20 25")'),
        ("trump", "bad_suit", 'name a suit: trump hearts (not "trump")'),
        ("trump x", "bad_suit", 'name a suit: trump hearts (not "trump x")'),
        ("play", "bad_message", "play one card: play A♦ or play 1"),
        ("play 13", "bad_card", "no card at position 13: you hold 12 cards"),
        ("play AD AS", "bad_message", "play one card, not 2: play A♦ or play 1"),
        (
            "play 5X",
            "bad_card",
            'not a card: "5X" (a card as shown, as 5♥, 10♠ or 5H, or its '
            "position in your hand, as 3)",
        ),
    ],
)
def test_parse_refuses(command: str, code: str, message: str) -> None:
    with pytest.raises(ClientError) as caught:
        parse(command)
    assert (caught.value.code, caught.value.message) == (code, message)


def test_help_lists_the_commands() -> None:
    assert TEXT.help == HELP
    assert [line.split()[0] for line in HELP.splitlines()] == [
        "bid", "trump", "play", "play", "score", "partner"
    ]  # fmt: skip
    assert "pass" in HELP.splitlines()[0]
