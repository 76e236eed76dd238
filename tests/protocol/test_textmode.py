"""Text mode: telnet stripping, rendering each message kind, reading each command of
protocol.md's text-mode table, and whole text-mode sessions through ``Hub``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hundred_server import games
from hundred_server.core.fairness import commitment
from hundred_server.protocol.codecs.text import HELP, HELP_SEATED, TextCodec, strip_telnet
from hundred_server.protocol.errors import ClientError
from hundred_server.protocol.wire import MAX_LINE
from tests.support.hub_harness import (
    GREETING,
    HELLO,
    PRETTY_TO_CODE,
    Harness,
    cards_in,
    check_stream,
    text_answer,
)
from tests.support.protocol_examples import FRIDAY_TABLE, OPTION_LINES

IAC, SB, SE, WILL, WONT, DO, DONT = 255, 250, 240, 251, 252, 253, 254
LOBBY_PROMPT = "> create, join, quit (or help)"
OPTIONS_PROMPT = "> choose an option: 1-6 (for 5: 5 SEATS BOTS NAME [nowatch], e.g. 5 3 1 friday)"


def help_for(game: str | None = None, table: int = 7) -> list[str]:
    """What ``help`` shows: in the lobby (no ``game``) the lobby's commands; at table
    ``table`` of ``game``, the game's commands and the table's."""
    if game is None:
        return HELP.splitlines()
    spec = games.get(game)
    assert spec.text is not None
    return [
        f"At table {table} ({spec.title}) you can type:",
        *spec.text.help.splitlines(),
        *HELP_SEATED.splitlines(),
    ]


# ------------------------------------------------------------------ strip_telnet


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        (b"create", b"create"),
        (b"", b""),
        (bytes([IAC, WILL, 31]) + b"create", b"create"),
        (bytes([IAC, DO, 3, IAC, WONT, 1, IAC, DONT, 34]) + b"join 7", b"join 7"),
        (b"pl" + bytes([IAC, DO, 1]) + b"ay 5H", b"play 5H"),
        (bytes([IAC, SB, 24, 0]) + b"xterm" + bytes([IAC, SE]) + b"hand", b"hand"),
        (bytes([IAC, SB, 31, 0, 80, 0, 24, IAC, SE, IAC, WILL, 24]) + b"help", b"help"),
        (b"a" + bytes([IAC, IAC]) + b"b", b"a\xffb"),  # an escaped 255 is a 255
        (b"quit" + bytes([IAC, SB, 24]) + b"never ends", b"quit"),  # SB to the end
        (bytes([IAC, 241]) + b"pass", b"pass"),  # NOP and other two-byte commands
        (b"pass" + bytes([IAC]), b"pass"),  # a lone IAC at the end
        (b"pass" + bytes([IAC, WILL]), b"pass"),  # cut short
    ],
)
def test_strip_telnet(raw: bytes, clean: bytes) -> None:
    assert strip_telnet(raw) == clean


def test_strip_telnet_leaves_utf8_alone() -> None:
    line = "trump ♥ 🃏".encode()
    assert strip_telnet(line) == line


# ------------------------------------------------------------------------ render

TABLE_7 = {k: v for k, v in FRIDAY_TABLE.items() if k not in ("AI", "Watchers")}
DEAL = {
    "Type": "Deal",
    "Playerid": 2,
    "Hand": ["5H", "JK", "AD", "9C", "TS"],
    "Dealer": 0,
    "Round": 1,
    "Players": ["ann", "bob", "cy", "dee"],
}


def dealt_codec() -> TextCodec:
    codec = TextCodec()
    codec.render(DEAL)
    return codec


@pytest.mark.parametrize(
    ("msg", "lines"),
    [
        ({"Type": "Message", "Message": "hi there"}, ["hi there"]),
        (HELLO, [LOBBY_PROMPT]),
        ({"Type": "Game"}, [OPTIONS_PROMPT]),
        (
            {"Type": "Error", "Code": "bad_json", "Message": 'not JSON: "x"'},
            ['! not JSON: "x" (bad_json)'],
        ),
        (
            {"Type": "Tables", "Tables": []},
            ["No open tables right now. Type create, or join again later."],
        ),
        (
            {"Type": "Tables", "Tables": [{k: v for k, v in TABLE_7.items() if k != "Type"}]},
            ["Open tables:", "     7  friday: ann, AI 1, (free)", "> join ID, or create"],
        ),
        (
            TABLE_7,
            ["Table 7 (friday): ann, AI 1, (free). Waiting for 1 more (others type: join 7)"],
        ),
        (
            {**TABLE_7, "Free": 0, "Players": ["ann", "AI 1", "bob"]},
            ["Table 7 (friday): ann, AI 1, you"],  # the codec sits at seat 2
        ),
        (
            DEAL,
            ["── Round 1: ann deals.", "Your hand: 5♥ 🃏 A♦ 9♣ 10♠"],
        ),
        (
            {**DEAL, "Playerid": 0},
            ["── Round 1: you deal.", "Your hand: 5♥ 🃏 A♦ 9♣ 10♠"],
        ),
        ({"Type": "Bid", "Playerid": 1, "Seq": 1}, ["(waiting for bob to bid)"]),
        (
            {"Type": "Bid", "Playerid": 2, "Seq": 2, "Legal": [0, 20, 25, 30, 60]},
            ["> your bid (pass, 20, 25, 30, 60): bid N, pass, or moon for 60"],
        ),
        ({"Type": "Bid", "Playerid": 1, "Bid": 20}, ["bob bids 20"]),
        ({"Type": "Bid", "Playerid": 1, "Bid": 0}, ["bob passes"]),
        ({"Type": "Bid", "Playerid": 2, "Bid": 25}, ["you bid 25"]),
        ({"Type": "Bid", "Playerid": 2, "Bid": 0}, ["you pass"]),
        ({"Type": "Bid", "Playerid": 3, "Bid": 0, "Auto": True}, ["dee passes (pre-pass)"]),
        (
            {"Type": "Bid", "Playerid": 2, "Bid": 0, "PrePass": True},
            ["You will pass when your turn comes (unpass to take it back)."],
        ),
        ({"Type": "Unpass", "Playerid": 2}, ["Your pre-pass is taken back."]),
        ({"Type": "Trump", "Playerid": 1, "Seq": 5}, ["(waiting for bob to name trump)"]),
        (
            {"Type": "Trump", "Playerid": 2, "Seq": 5, "Legal": ["H", "D", "S", "C"]},
            ["> name trump: trump hearts, diamonds, spades or clubs"],
        ),
        ({"Type": "Trump", "Playerid": 1, "Trump": "H"}, ["Trump is ♥ hearts (named by bob)"]),
        ({"Type": "Trump", "Playerid": 2, "Trump": "C"}, ["Trump is ♣ clubs (named by you)"]),
        ({"Type": "Discard", "Playerid": 1, "Seq": 6}, ["(waiting for bob to discard)"]),
        (
            {"Type": "Discard", "Playerid": 2, "Seq": 7, "Legal": DEAL["Hand"]},
            [
                "Your hand: 1:5♥  2:🃏  3:A♦  4:9♣  5:10♠",
                "> discard by position or card (discard 2 5, discard 🃏), or discard none",
            ],
        ),
        ({"Type": "Discard", "Playerid": 1, "Count": 2}, ["bob exchanged 2 cards"]),
        ({"Type": "Discard", "Playerid": 1, "Count": 1}, ["bob exchanged 1 card"]),
        (
            {
                "Type": "Discard",
                "Playerid": 2,
                "Count": 2,
                "Cards": ["9C", "TS"],
                "Hand": ["5H", "JK", "AD", "7S", "QH"],
            },
            ["You discarded 9♣ 10♠. Your hand: 5♥ 🃏 A♦ 7♠ Q♥"],
        ),
        (
            {"Type": "Discard", "Playerid": 2, "Count": 0, "Cards": [], "Hand": DEAL["Hand"]},
            ["You discarded nothing. Your hand: 5♥ 🃏 A♦ 9♣ 10♠"],
        ),
        ({"Type": "Play", "Playerid": 3, "Seq": 9, "Trump": "H"}, ["(waiting for dee to play)"]),
        (
            {"Type": "Play", "Playerid": 2, "Seq": 9, "Trump": "H", "Legal": DEAL["Hand"]},
            [
                "Your hand: 1:5♥  2:🃏  3:A♦  4:9♣  5:10♠   (trump ♥)",
                "> play one of: 5♥ 🃏 A♦ 9♣ 10♠   (play 5♥ or play 1)",
            ],
        ),
        (
            {
                "Type": "Play",
                "Playerid": 2,
                "Seq": 10,
                "Trump": "H",
                "Lead": "H",
                "WinningCard": "AH",
                "Legal": ["5H", "JK"],
            },
            [
                "Your hand: 1:5♥  2:🃏  3:A♦  4:9♣  5:10♠   (trump ♥, winning A♥)",
                "> play one of: 5♥ 🃏   (play 5♥ or play 1)",
            ],
        ),
        ({"Type": "Play", "Playerid": 3, "PlayedCard": "TD"}, ["dee played 10♦"]),
        (
            {"Type": "Trick", "Playerid": 3, "WinningCard": "TD", "Trick": 1},
            ["dee wins trick 1 with 10♦"],
        ),
        (
            {"Type": "Trick", "Playerid": 2, "WinningCard": "JK", "Trick": 2},
            ["you win trick 2 with 🃏"],
        ),
        (
            {"Type": "Score", "Round": 1, "Score": [20, -15, 5, 0], "Points": [20, -15, 5, 0]},
            ["Round 1: ann +20, bob -15, you +5, dee +0. Scores: ann 20, bob -15, you 5, dee 0"],
        ),
        (
            {
                "Type": "Score",
                "Round": 2,
                "Score": [20, -15, 5, 0],
                "Points": [0, 0, 0, 0],
                "PassedOut": True,
            },
            ["Round 2: everybody passed, no score. Scores: ann 20, bob -15, you 5, dee 0"],
        ),
        (
            {
                "Type": "Score",
                "GameOver": True,
                "Winner": 0,
                "Score": [115, 40, 5, 30],
                "Win": False,
            },
            ["Game over. ann wins. Final scores: ann 115, bob 40, you 5, dee 30"],
        ),
        (
            {
                "Type": "Score",
                "GameOver": True,
                "Winner": 2,
                "Score": [15, 40, 125, 30],
                "Win": True,
            },
            ["Game over. You win! Final scores: ann 15, bob 40, you 125, dee 30"],
        ),
        ({"Type": "Mystery", "X": "é"}, ['{"Type": "Mystery", "X": "é"}']),
    ],
)
def test_render(msg: dict[str, Any], lines: list[str]) -> None:
    assert dealt_codec().render(msg) == lines


def test_render_keeps_the_hand_and_prompt_up_to_date() -> None:
    codec = dealt_codec()
    assert (codec.seat, codec.players, codec.hand) == (2, DEAL["Players"], DEAL["Hand"])
    codec.render(
        {
            "Type": "Discard",
            "Playerid": 2,
            "Count": 1,
            "Cards": ["9C"],
            "Hand": ["5H", "JK", "AD", "TS", "2C"],
        }
    )
    assert codec.hand == ["5H", "JK", "AD", "TS", "2C"]
    prompt = {"Type": "Play", "Playerid": 2, "Seq": 9, "Trump": "S", "Legal": ["5H", "JK"]}
    codec.render(prompt)
    assert codec.prompt == prompt
    codec.render({"Type": "Play", "Playerid": 2, "PlayedCard": "JK"})
    assert codec.hand == ["5H", "AD", "TS", "2C"]
    codec.render({"Type": "Play", "Playerid": 1, "PlayedCard": "2S"})  # not ours: no change
    assert codec.hand == ["5H", "AD", "TS", "2C"]
    codec.render(
        {"Type": "Score", "GameOver": True, "Winner": 2, "Score": [0, 0, 110, 0], "Win": True}
    )
    assert codec.prompt is None


# ------------------------------------------------------------------------- parse


@pytest.mark.parametrize(
    ("command", "wire"),
    [
        ("create", [{"Type": "Hello", "Message": "create"}]),
        ("create 1", [{"Type": "Hello", "Message": "create"}, {"Type": "Game", "Option": 1}]),
        (
            "create 5 3 1 friday",
            [
                {"Type": "Hello", "Message": "create"},
                {"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1, "Name": "friday"},
            ],
        ),
        (
            "create 5 3 1 friday night",
            [
                {"Type": "Hello", "Message": "create"},
                {"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1, "Name": "friday night"},
            ],
        ),
        *((str(n), [{"Type": "Game", "Option": n}]) for n in range(1, 7)),
        ("5 2", [{"Type": "Game", "Option": 5, "Seats": 2}]),
        ("5 3 1", [{"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1}]),
        ("join", [{"Type": "Hello", "Message": "join"}]),
        ("join 7", [{"Type": "Hello", "Message": "join"}, {"Type": "Join", "Table": 7}]),
        ("name ann", [{"Type": "Hello", "Name": "ann"}]),
        ("name Ann Lee", [{"Type": "Hello", "Name": "Ann Lee"}]),
        ("bid 20", [{"Type": "Bid", "Bid": 20}]),
        ("Bid 15", [{"Type": "Bid", "Bid": 15}]),
        ("pass", [{"Type": "Bid", "Bid": 0}]),
        ("  pass  ", [{"Type": "Bid", "Bid": 0}]),
        ("moon", [{"Type": "Bid", "Bid": 60}]),
        ("unpass", [{"Type": "Unpass"}]),
        ("trump hearts", [{"Type": "Trump", "Trump": "H"}]),
        ("trump h", [{"Type": "Trump", "Trump": "H"}]),
        ("trump ♥", [{"Type": "Trump", "Trump": "H"}]),
        ("trump Heart", [{"Type": "Trump", "Trump": "H"}]),
        ("trump diamonds", [{"Type": "Trump", "Trump": "D"}]),
        ("trump ♠", [{"Type": "Trump", "Trump": "S"}]),
        ("trump C", [{"Type": "Trump", "Trump": "C"}]),
        ("discard 2 5", [{"Type": "Discard", "Cards": ["JK", "TS"]}]),
        ("discard 2C 3D", [{"Type": "Discard", "Cards": ["2C", "3D"]}]),
        ("discard 1 AD", [{"Type": "Discard", "Cards": ["5H", "AD"]}]),
        ("discard none", [{"Type": "Discard", "Cards": []}]),
        ("discard", [{"Type": "Discard", "Cards": []}]),
        ("play 5H", [{"Type": "Play", "PlayedCard": "5H"}]),
        ("play 3", [{"Type": "Play", "PlayedCard": "AD"}]),
        ("play 10s", [{"Type": "Play", "PlayedCard": "TS"}]),
        ("play 10♠", [{"Type": "Play", "PlayedCard": "TS"}]),
        ("play 🃏", [{"Type": "Play", "PlayedCard": "JK"}]),
        ("discard 🃏 10♠", [{"Type": "Discard", "Cards": ["JK", "TS"]}]),
        ("leave", [{"Type": "Leave"}]),
        ("quit", [{"Type": "Hello", "Message": "quit"}]),
        ("exit", [{"Type": "Hello", "Message": "quit"}]),
        ("QUIT", [{"Type": "Hello", "Message": "quit"}]),
        ("", []),
        ("   ", []),
    ],
)
def test_parse(command: str, wire: list[dict[str, Any]]) -> None:
    assert dealt_codec().parse(command) == wire


def test_parse_help_and_hand_are_lines_to_show() -> None:
    codec = TextCodec()
    assert codec.parse("help") == codec.parse("?") == help_for()
    assert codec.parse("hand") == ["You hold no cards."]
    codec = dealt_codec()
    assert codec.parse("hand") == ["Your hand: 1:5♥  2:🃏  3:A♦  4:9♣  5:10♠"]
    codec.render({"Type": "Bid", "Playerid": 2, "Seq": 1, "Legal": [0, 15]})
    assert codec.parse("hand") == [
        "Your hand: 1:5♥  2:🃏  3:A♦  4:9♣  5:10♠",
        "> your bid (pass, 15): bid N, pass, or moon for 60",
    ]


@pytest.mark.parametrize(
    ("command", "code", "message"),
    [
        ("dance", "unknown_type", 'unknown command "dance" (type help)'),
        ("bid", "bad_message", 'expected a number, as in: bid 20 (not "nothing")'),
        ("bid x", "bad_message", 'expected a number, as in: bid 20 (not "x")'),
        ("bid 20 30", "bad_message", 'expected a number, as in: bid 20 (not "20 30")'),
        ("bid 1234567", "bad_message", 'expected a number, as in: bid 20 (not "1234567")'),
        ("trump", "bad_suit", 'name a suit: trump hearts (not "trump")'),
        ("trump x", "bad_suit", 'name a suit: trump hearts (not "trump x")'),
        ("play", "bad_message", "play one card: play 5♥ or play 1"),
        ("play 5H 6H", "bad_message", "play one card, not 2: play 5♥ or play 1"),
        ("play 9", "bad_card", "no card at position 9: you hold 5 cards"),
        ("play 0", "bad_card", "no card at position 0: you hold 5 cards"),
        ("discard 1 7", "bad_card", "no card at position 7: you hold 5 cards"),
        (
            "play 11♥",
            "bad_card",
            'not a card: "11♥" (a card as shown, as 5♥, 10♠ or 5H, or '
            "its position in your hand, as 3)",
        ),
        ("notation colours", "bad_message", 'notation symbols or notation letters (not "colours")'),
        ("join x", "bad_message", 'expected a number, as in: join 7 (not "x")'),
        ("join 7 8", "bad_message", 'expected a number, as in: join 7 (not "7 8")'),
        ("1234567", "bad_message", 'expected a number, as in: 1-6 (not "1234567")'),
        ("create whist x", "bad_message", 'expected a number, as in: 1-5 (not "x")'),
        ("5 x", "bad_message", 'expected a number, as in: 5 SEATS BOTS NAME (not "x")'),
        ("5 3 x", "bad_message", 'expected a number, as in: 5 SEATS BOTS NAME (not "x")'),
    ],
)
def test_parse_refuses(command: str, code: str, message: str) -> None:
    with pytest.raises(ClientError) as caught:
        dealt_codec().parse(command)
    assert (caught.value.code, caught.value.message) == (code, message)


# ------------------------------------------------------------- the game at hand

WHIST_TABLE = {**TABLE_7, "Game": "whist", "Seats": 4, "Players": ["ann", "bob", "cy", "dee"]}


def whist_codec() -> TextCodec:
    """A codec at a table of Whist, dealt seat 2 (South)."""
    codec = TextCodec()
    codec.render(WHIST_TABLE)
    codec.render(DEAL)
    return codec


def test_the_lobby_help_offers_every_game() -> None:
    lines = HELP.splitlines()
    assert lines[0] == "In the lobby you can type:"
    for name in games.names():
        assert any(
            line.split()[:2] == [name, *games.get(name).title.split()[:1]] for line in lines
        ), name
    assert "discard" not in HELP  # no game's own command is the lobby's


def test_help_shows_what_can_be_typed_where_you_are() -> None:
    codec = TextCodec()
    assert codec.parse("help") == help_for()  # the lobby
    codec.parse("create whist")
    assert codec.parse("help") == help_for()  # still the lobby, asked for an option
    codec.render(TABLE_7)  # a table of Hundred and Ten ...
    codec.render({"Type": "Seat", "Table": 7, "Playerid": 2, "Token": "0" * 32})
    assert codec.parse("help") == help_for("hundredandten")  # ... at which you sit
    codec.render({"Type": "Hello"})  # back in the lobby
    assert codec.parse("help") == help_for()
    shown = whist_codec().parse("help")
    assert shown == help_for("whist")
    assert shown[1:6] == [
        "  play CARD         play a card as it is shown (play 5♥ or play 5H), or",
        "  play N            by its position in your hand (play 3: the third card)",
        "  score             the scores (points by side)",
        "  partner           who plays with you, and against you",
        "  hand              your hand and what you are asked now",
    ]
    assert not any(line.lstrip().startswith(("bid", "discard", "trump")) for line in shown)
    # What is asked now comes last.
    codec = whist_codec()
    codec.render({"Type": "Play", "Playerid": 2, "Seq": 3, "Trump": "S", "Legal": ["5H"]})
    assert codec.parse("help")[-3:] == [
        "Now:",
        "Your hand: 1:5♥  2:🃏  3:A♦  4:9♣  5:10♠   (trump ♠)",
        "> play one of: 5♥   (play 5♥ or play 1)",
    ]
    watching = TextCodec()
    watching.parse("watch 7")
    watching.render(TABLE_7)
    assert watching.parse("help")[0] == "You are watching a table. You can type:"


def test_the_options_of_a_game_without_a_table_of_your_choice() -> None:
    codec = TextCodec()
    assert codec.parse("create whist") == [{"Type": "Hello", "Message": "create", "Game": "whist"}]
    assert codec.render({"Type": "Game"}) == ["> choose an option: 1-5"]
    # Option 5 is "Go back" here: SEATS BOTS NAME are read for no option.
    assert codec.parse("5 3 1 friday") == [{"Type": "Game", "Option": 5}]
    with pytest.raises(ClientError, match=r"as in: 1-5 \(not"):
        codec.parse("1234567")
    codec.parse("create")  # the default game again: option 5 is a table of your choice
    assert codec.render({"Type": "Game"}) == [OPTIONS_PROMPT]
    assert codec.parse("5 3") == [{"Type": "Game", "Option": 5, "Seats": 3}]
    # An unknown game leaves the options asked as they were (the server refuses it).
    assert codec.parse("create chess") == [{"Type": "Hello", "Message": "create", "Game": "chess"}]
    assert codec.render({"Type": "Game"}) == [OPTIONS_PROMPT]


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("discard 2", '"discard" is a command of Hundred and Ten, not of Whist (type help)'),
        ("Bid 20", '"Bid" is a command of Hundred and Ten, not of Whist (type help)'),
        ("bid x", '"bid" is a command of Hundred and Ten, not of Whist (type help)'),
        ("trump h", '"trump" is a command of Hundred and Ten, not of Whist (type help)'),
        ("dance", 'unknown command "dance" (type help)'),
    ],
)
def test_a_command_of_another_game_is_refused(command: str, message: str) -> None:
    with pytest.raises(ClientError) as caught:
        whist_codec().parse(command)
    assert (caught.value.code, caught.value.message) == ("unknown_type", message)


def test_a_whist_table_reads_and_renders_its_own_messages() -> None:
    codec = whist_codec()
    assert codec.parse("play 3") == [{"Type": "Play", "PlayedCard": "AD"}]
    assert codec.render({"Type": "Trump", "Playerid": 0, "Trump": "S", "Card": "7S"}) == [
        "Trump is ♠ spades (ann turned up 7♠)"
    ]
    # Its words for people say the same: not said twice.
    assert codec.render({"Type": "Message", "Message": "Trump is spades: ann turned up 7S"}) == []
    hand = {"Type": "Score", "Round": 2, "Score": [3, 1], "Tricks": [8, 5], "Points": [2, 0]}
    assert codec.render(hand) == [
        "Hand 2: tricks North-South (ann and you) 8, East-West (bob and dee) 5. Scores: "
        "North-South (ann and you) 3, East-West (bob and dee) 1"
    ]
    assert codec.parse("score") == [
        "Scores: North-South (ann and you) 3, East-West (bob and dee) 1"
    ]
    assert codec.parse("partner") == [
        "You play with ann (your partner, North-South) against dee and bob."
    ]
    over = {"Type": "Score", "GameOver": True, "Winner": "EW", "Score": [3, 7], "Win": False}
    assert codec.render(over) == [
        "Game over. East-West (bob and dee) win. Final scores: North-South (ann and you) 3, "
        "East-West (bob and dee) 7"
    ]
    # A message no view of this game knows is shown as it is.
    assert codec.render({"Type": "Unpass", "Playerid": 2}) == ['{"Type": "Unpass", "Playerid": 2}']


def test_a_whist_snapshot_after_taking_a_seat_back() -> None:
    codec = TextCodec()
    codec.render(WHIST_TABLE)
    snapshot = {
        "Type": "Snapshot",
        "Table": 7,
        "Playerid": 1,
        "Players": ["ann", "bob", "cy", "dee"],
        "Round": 3,
        "Dealer": 2,
        "Phase": "tricks",
        "Hand": ["5H", "AD"],
        "Score": [2, 4],
        "Trump": "C",
        "TrumpCard": "9C",
        "Tricks": 11,
        "TricksWon": [5, 6],
        "Trick": [{"Playerid": 0, "PlayedCard": "TS"}],
    }
    assert codec.render(snapshot) == [
        # The Table told before it, with no Seat (the snapshot says the seat).
        "Table 7 (friday): ann, bob, cy, dee. Waiting for 1 more (others type: join 7)",
        "── Back at your seat, round 3 (tricks); cy dealt. Scores: North-South (ann and cy) 2, "
        "East-West (you and dee) 4",
        "Your hand: 5♥ A♦",
        "You play with dee (your partner, East-West) against cy and ann.",
        "Trump is ♣ clubs (9♣ turned up)",
        "Tricks this hand: North-South (ann and cy) 5, East-West (you and dee) 6",
        "This trick so far: ann 10♠",
    ]


def test_text_mode_refuses_another_games_command_at_a_whist_table() -> None:
    h = Harness("whist-text-refuses")
    nc = h.connect()
    nc.take_text()
    nc.say("create whist")
    ask = nc.say("1")[-2:]  # the hand, then what to play
    assert ask[1].startswith("> play one of: ")
    assert nc.say("help") == [*help_for("whist", table=1), "Now:", *ask]
    assert nc.say("discard 1") == [
        '! "discard" is a command of Hundred and Ten, not of Whist (type help) (unknown_type)',
        *ask,
    ]


# ------------------------------------------------------------- through the Hub


def text_client(h: Harness, first: bytes = b"create"):  # type: ignore[no-untyped-def]
    client = h.connect()
    assert client.take() == [GREETING, HELLO]  # the greeting: the mode is not known yet
    h.apply(h.hub.receive(client.conn, first + b"\r\n"))
    return client


def test_telnet_bytes_in_the_first_line_are_ignored_and_text_mode_starts() -> None:
    h = Harness()
    client = text_client(h, bytes([IAC, WILL, 31, IAC, DO, 3, IAC, SB, 24, 0, IAC, SE]) + b"create")
    assert client.take_text() == [
        *OPTION_LINES,
        OPTIONS_PROMPT,
    ]
    assert client.raw[-1].endswith(b"\r\n")


def test_a_first_line_of_telnet_bytes_only_leaves_the_mode_open() -> None:
    h = Harness()
    client = h.connect()
    client.take()
    assert h.hub.receive(client.conn, bytes([IAC, WILL, 31, IAC, DO, 1]) + b"\r\n") == []
    assert client.send({"Type": "Hello", "Message": "create"})[-1] == {"Type": "Game"}


def test_text_errors_then_the_prompt_again() -> None:
    h = Harness()
    client = text_client(h, b"name ann")
    assert client.take_text() == [
        "Hello, ann.",
        "Do you want to join a game, create a new game, or quit? (join, create, quit)",
        LOBBY_PROMPT,
    ]
    assert client.say("dance") == [
        '! unknown command "dance" (type help) (unknown_type)',
        LOBBY_PROMPT,
    ]
    assert client.say("pass") == [
        "! Bid answers a game prompt; you are not in a game (not_now)",
        LOBBY_PROMPT,
    ]
    assert client.say("name ann!") == [
        '! a name is 1-20 letters, digits, spaces, _ - . : not "ann!" (bad_name)',
        LOBBY_PROMPT,
    ]
    assert client.say("help") == help_for()
    assert client.say("join 4") == [  # the error, then the list: in that order, once
        "! no open table 4 (no_such_table)",
        "No open tables right now. Type create, or join again later.",
    ]
    assert client.say("create")[-1] == OPTIONS_PROMPT
    assert client.say("7") == ["! Option must be from 1 to 6, got 7 (bad_option)", OPTIONS_PROMPT]
    assert client.say("5 5") == ["! Seats must be from 2 to 4, got 5 (bad_option)", OPTIONS_PROMPT]
    assert client.say("6") == [
        "Do you want to join a game, create a new game, or quit? (join, create, quit)",
        LOBBY_PROMPT,
    ]
    assert all(chunk.endswith(b"\r\n") for chunk in client.raw[2:])


def test_text_line_too_long_closes() -> None:
    h = Harness()
    client = text_client(h, b"help")
    h.apply(h.hub.receive(client.conn, b"x" * (MAX_LINE + 1) + b"\r\n"))
    assert client.take_text()[-1] == "! a line is at most 8192 bytes; goodbye (line_too_long)"
    assert client.closed


def test_text_and_json_people_share_a_table() -> None:
    h = Harness("mixed")
    ann = text_client(h, b"create 5 2 0 friday")
    assert ann.take_text()[-2:] == [
        "Table 1 (friday): you, (free). Waiting for 1 more (others type: join 1)",
        "You sit at table 1. If your connection drops, or you leave, come back and type: "
        f"token {h.tokens[0]}",
    ]
    assert h.tokens == ["00000000000000000000000000000001"]
    bob = h.json_client("bob")
    replies = bob.send({"Type": "Join", "Table": 1})
    assert replies[0]["Players"] == ["player1", "bob"]
    assert replies[1] == {"Type": "Seat", "Table": 1, "Playerid": 1, "Token": f"{2:032x}"}
    shown = ann.take_text()
    digest = commitment("hundredandten", h.seeds[0])
    assert shown[:3] == [
        "Table 1 (friday): you, bob",
        "Table 1 (friday) starts: you, bob",
        f"Deck commitment for table 1: {digest} (the seed is revealed when the game ends)",
    ]
    assert shown[3] == "── Round 1: you deal."
    assert shown[-1] == "(waiting for bob to bid)"
    # A text pre-pass, then the JSON seat bids: the pass is automatic.
    assert ann.say("pass") == ["You will pass when your turn comes (unpass to take it back)."]
    assert ann.say("unpass") == ["Your pre-pass is taken back."]
    assert ann.say("pass") == ["You will pass when your turn comes (unpass to take it back)."]
    bob.send({"Type": "Bid", "Bid": 20})
    assert ann.take_text() == [
        "bob bids 20",
        "you pass (pre-pass)",
        "bob wins the bid at 20",
        "(waiting for bob to name trump)",
    ]


def test_hand_shows_the_hand_and_the_prompt_again() -> None:
    h = Harness("hand")
    client = text_client(h, b"create 1")
    shown = client.take_text()
    assert shown[-1].startswith("> your bid (")
    hand = next(line for line in shown if line.startswith("Your hand: "))
    cards = hand.removeprefix("Your hand: ").split(" ")
    assert client.say("hand") == [
        "Your hand: " + "  ".join(f"{i}:{c}" for i, c in enumerate(cards, 1)),
        shown[-1],
    ]


def test_a_whole_text_mode_game_through_the_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    # Record what the hub asks the codec to render: the stream the text is made from.
    rendered: list[dict[str, Any]] = []
    render = TextCodec.render

    def spy(self: TextCodec, msg: dict[str, Any]) -> list[str]:
        rendered.append(msg)
        return render(self, msg)

    monkeypatch.setattr(TextCodec, "render", spy)
    h = Harness("text-game")
    client = text_client(h, bytes([IAC, WILL, 24]) + b"create")
    assert client.take_text()[-1] == OPTIONS_PROMPT
    shown = client.say("1")
    assert shown[0] == "Table 1: you, AI 1, AI 2, AI 3 (naive AI)"
    codec = h.hub.codec_of(client.conn)
    assert codec is not None
    rng = random.Random(2)
    answers = 0
    while not any(line.startswith("Game over.") for line in shown):
        command = text_answer(shown, rng)
        assert command is not None, shown
        # What the text offers is what the codec (and the wire prompt) holds.
        assert codec.prompt is not None
        assert "Legal" in codec.prompt
        if command.startswith("play "):
            picked = codec.parse(command)[0]["PlayedCard"]
            assert picked.upper() in codec.prompt["Legal"]
        shown = client.say(command)
        assert not any(line.startswith("! ") for line in shown), (command, shown)
        answers += 1
        assert answers < 2000
    assert shown[-2:] == [
        "Do you want to join a game, create a new game, or quit? (join, create, quit)",
        LOBBY_PROMPT,
    ]
    assert client.say("quit") == ["Ok, bye bye!"]
    assert client.closed
    # Every chunk is text lines ending in \r\n, with no bare \n.
    for chunk in client.raw[2:]:
        assert chunk.endswith(b"\r\n")
        assert b"\n" not in chunk.replace(b"\r\n", b"")
    # The messages behind the text pass the oracle (schema, Seq, no leaks) ...
    assert check_stream(rendered, h.table_seeds()) == 1
    # ... and the text shows no card those messages did not carry.
    carried = {code for msg in rendered for code in cards_in(msg)}
    for line in client.text:
        for pretty, code in PRETTY_TO_CODE.items():
            if pretty in line.split(" ") or f":{pretty}" in line:
                assert code in carried, line


def test_text_errors_mid_game_repeat_the_prompt() -> None:
    h = Harness("text-errors")
    client = text_client(h, b"create 3")
    shown = client.take_text()
    ask = shown[-1]
    assert ask.startswith("> your bid (")
    for command, error in [
        ("bid 17", "! no such bid: 17 (0 to pass, 15, 20, 25, 30, 60) (illegal_bid)"),
        ("dance", '! unknown command "dance" (type help) (unknown_type)'),
        ("trump h", "! cannot name trump now: the game is in bidding (wrong_phase)"),
        ("1", "! Game answers the create options; say Hello create first (not_now)"),
        ("create", "! you are at a table; leave (Leave) or quit leaves it (not_now)"),
        ("unpass", "! seat 0 has no pre-pass to take back (not_pre_passed)"),
    ]:
        assert client.say(command) == [error, ask], command
