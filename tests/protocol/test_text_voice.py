"""Text mode as one voice, in every game: golden transcripts of whole sessions, every
card shown typed back as shown, and ``leave`` / ``quit`` at a table.

The golden transcripts (tests/protocol/golden/GAME.txt) are whole sessions as a person
at netcat sees them (tests/support/text_session.py: fixed seeds, fixed choices), so
any change of wording shows in review. After a deliberate change, write them again
and read the diff:

    HUNDRED_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/protocol/test_text_voice.py

(``make golden`` does the same).
"""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hundred_server import games
from hundred_server.core.sessions import Where
from hundred_server.core.table_seats import TableState
from hundred_server.games.base import is_over
from hundred_server.games.kit.text import LETTERS, NOTATIONS, SYMBOLS
from hundred_server.protocol.codecs.text import TextCodec
from tests.support.hub_harness import Harness
from tests.support.text_session import Person, Session, connect, whole_session

GOLDEN = Path(__file__).parent / "golden"
GAMES = games.names()
#: Cards in the wrong notation: letters on a screen of symbols, and the other way.
_LETTER_CARD = re.compile(r"(?<!\w)(?:[2-9TJQKA][SHDC]|JK)\b|\b[BGRY](?:1[0-4]?|[5-9])\b|ROOK")
_SYMBOL_CARD = re.compile(r"[♥♦♠♣🃏]|\b(?:Black|Green|Red|Yellow) (?:1[0-4]?|[5-9])\b")
_BAD_PLURAL = re.compile(
    r"\b(?:1|one) (?:points|hands|tricks|cards|chips|players|AI players|seconds|games)\b|\(s\)"
)
#: Commands whose answer shows both notations on purpose (they are about them).
_ABOUT_NOTATION = ("<-- help", "<-- notation")


@pytest.fixture(scope="module")
def sessions() -> dict[tuple[str, str], list[str]]:
    """Every game's whole session in either notation, played once for the module."""
    return {(g, n): whole_session(g, None if n == SYMBOLS else n) for g in GAMES for n in NOTATIONS}


def server_lines(transcript: list[str]) -> list[str]:
    """What the server said, less the answers that show both notations on purpose."""
    said, skip = [], False
    for line in transcript:
        if line.startswith("<-- "):
            skip = line.startswith(_ABOUT_NOTATION)
        elif not skip:
            said.append(line.removeprefix("--> "))
    return said


# ----------------------------------------------------------------- golden transcripts


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_session_reads_as_its_golden_transcript(
    game: str, sessions: dict[tuple[str, str], list[str]]
) -> None:
    text = "\n".join(sessions[game, SYMBOLS]) + "\n"
    path = GOLDEN / f"{game}.txt"
    if os.environ.get("HUNDRED_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{path} differs (see the module docstring)"


def test_every_registered_game_has_a_golden_transcript() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == sorted(GAMES)


# ------------------------------------------------------------------------- one voice


@pytest.mark.parametrize("notation", NOTATIONS)
@pytest.mark.parametrize("game", GAMES)
def test_a_session_speaks_one_voice(
    game: str, notation: str, sessions: dict[tuple[str, str], list[str]]
) -> None:
    transcript = sessions[game, notation]
    said = server_lines(transcript)
    greeting, rest = said[:2], said[2:]
    # The JSON greeting says how to get plain text; after one word, plain text only.
    assert greeting[0].startswith('{"Type":"Message"')
    assert "Type help" in greeting[0]
    assert not [line for line in rest if line.startswith("{")]
    # One name per person: "you" for ann (her name only in the greeting of `name`),
    # names for the others, never a seat number or "Player N (...)".
    assert [line for line in rest if re.search(r"\bann\b", line)] == ["Hello, ann."]
    assert not [line for line in rest if re.search(r"\b(?:[Ss]eat|Player) \d", line)]
    assert not [line for line in rest if re.search(r"Table \d+ \(table \d+\)", line)]
    # One notation: the one chosen, on every line.
    wrong = _LETTER_CARD if notation == SYMBOLS else _SYMBOL_CARD
    assert not [line for line in rest if wrong.search(line) and "Deck commitment" not in line]
    # Counts agree with their nouns.
    assert not [line for line in rest if _BAD_PLURAL.search(line)]
    # Nothing said twice in a row, trump told once a hand, a hand's scores once.
    assert not [a for a, b in itertools.pairwise(rest) if a == b and a.strip()]
    hands = "\n".join(rest).split("── ")[1:]
    for hand in hands:
        assert sum(line.startswith("Trump is") for line in hand.splitlines()) <= 1, hand
    # The whole game was played: it ended, and every command was taken (no "! ").
    assert any(line.startswith("Game over.") for line in rest)
    assert not [line for line in rest if line.startswith("! ")]
    assert transcript[-2:] == ["<-- quit", "--> Ok, bye bye!"]


def test_whist_says_who_your_partner_is_and_the_scores(
    sessions: dict[tuple[str, str], list[str]],
) -> None:
    said = server_lines(sessions["whist", SYMBOLS])
    partner = "You play with AI 2 (your partner, North-South) against AI 1 and AI 3."
    assert partner in said
    transcript = sessions["whist", SYMBOLS]
    asked = transcript.index("<-- partner")
    assert transcript[asked + 1] == f"--> {partner}"
    later = transcript[transcript.index("<-- score", asked + 1) + 1]
    assert re.fullmatch(
        r"--> Scores: North-South \(you and AI 2\) \d+, East-West \(AI 1 and AI 3\) \d+", later
    )


def test_rooks_partner_says_the_bidder_the_partners_revealed_and_the_cards_called() -> None:
    screen = _screen("rook", SYMBOLS, [])
    deal = {"Type": "Deal", "Playerid": 0, "Hand": ["B10", "R5"], "Dealer": 1, "Round": 1,
            "Players": ["ann", "bob", "cy", "dee"]}  # fmt: skip
    screen.render(deal)
    assert screen.parse("partner") == [
        "No partner yet: the bidder calls partner cards when naming trump."
    ]
    named = "Player 1 (bob) names Red trump and calls Green 1, Rook; the discard holds no points"
    assert screen.render({"Type": "Message", "Message": named}) == [
        "bob names Red trump and calls Green 1, Rook; the discard holds no points"
    ]
    assert screen.parse("partner") == [
        "The bidder is bob; partners revealed: none; called and not played yet: Green 1, Rook"
    ]
    screen.render({"Type": "Play", "Playerid": 3, "PlayedCard": "ROOK", "Partner": True})
    screen.notation = LETTERS
    assert screen.render({"Type": "Message", "Message": named}) == [
        "bob names Red trump and calls G1, ROOK; the discard holds no points"
    ]
    screen.notes["called"] = ["G1"]
    assert screen.parse("partner") == [
        "The bidder is bob; partners revealed: dee; called and not played yet: G1"
    ]


def test_a_tie_at_the_top_in_hundert_is_said_to_be_a_tie() -> None:
    screen = TextCodec()
    screen.render({"Type": "Table", "Table": 1, "Name": "t", "Game": "hundert", "Seats": 3,
                   "Free": 0, "Players": ["ann", "bob", "cy"]})  # fmt: skip
    screen.render({"Type": "Seat", "Table": 1, "Playerid": 2, "Token": "0" * 32})
    over = {"Type": "Score", "GameOver": True, "Winner": 0, "Score": [4, 4, -8], "Win": False}
    assert screen.render(over) == [
        "Game over. A tie: ann and bob end with 4 chips; the tie goes to the first seat of "
        "them, ann. Final balances: ann 4, bob 4, you -8"
    ]
    won = {**over, "Winner": 1, "Score": [-8, 4, 4], "Win": False}
    screen.seat = 1
    assert screen.render({**won, "Win": True})[0].startswith(
        "Game over. A tie: you and cy end with 4 chips; the tie goes to the first seat of "
        "them, you."
    )


# --------------------------------------------------------- every card can be typed


def _screen(game: str, notation: str, hand: list[str]) -> TextCodec:
    screen = TextCodec()
    screen.table, screen.table_game, screen.notation = 1, game, notation
    screen.seat, screen.players, screen.hand = 0, ["ann", "bob", "cy", "dee"], list(hand)
    return screen


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_every_card_shown_can_be_typed_back_as_shown(game: str, data: st.DataObject) -> None:
    spec = games.get(game)
    view = spec.text
    assert view is not None
    deck = sorted({card.code for card in spec.seeded_deck("typed", 0)})
    code = data.draw(st.sampled_from(deck), label="card")
    shown_in = data.draw(st.sampled_from(NOTATIONS), label="shown in")
    read_in = data.draw(st.sampled_from(NOTATIONS), label="screen")
    case = data.draw(st.sampled_from([str, str.lower, str.upper]), label="case")
    screen = _screen(game, shown_in, [code])
    shown = view.numbered_text([code], screen).removeprefix("1:")
    # As shown on either screen, in any case; by position; the code the wire knows.
    screen.notation = read_in
    for typed in (case(shown), "1", code.lower()):
        assert screen.parse(f"play {typed}") == [{"Type": "Play", "PlayedCard": code}], typed


@pytest.mark.parametrize(
    ("game", "typed", "code"),
    [
        ("rook", "black 10", "B10"),
        ("rook", "Black 10", "B10"),
        ("rook", "b 10", "B10"),
        ("rook", "rook", "ROOK"),
        ("rook", "r14", "R14"),
        ("hundredandten", "3♥", "3H"),
        ("hundredandten", "10♠", "TS"),
        ("hundredandten", "🃏", "JK"),
        ("hundredandten", "3♥\ufe0f", "3H"),
        ("whist", "q♡", "QH"),
        ("spades", "10s", "TS"),
    ],
)
def test_cards_typed_as_people_type_them(game: str, typed: str, code: str) -> None:
    screen = _screen(game, SYMBOLS, [])
    assert screen.parse(f"play {typed}") == [{"Type": "Play", "PlayedCard": code}]


def test_a_card_that_is_none_is_refused_in_the_words_of_the_screen() -> None:
    screen = _screen("rook", SYMBOLS, ["B10"])
    with pytest.raises(Exception, match=r'not a card: "purple" \(a card as shown, as Red 14'):
        screen.parse("play purple")
    with pytest.raises(Exception, match=r'no such card: "Black 3" \(1 or 5-14\)'):
        screen.parse("play black 3")
    screen = _screen("whist", SYMBOLS, ["3H"])
    with pytest.raises(Exception, match=r'not a card: "3X" \(a card as shown, as 5♥'):
        screen.parse("play 3X")


def test_the_help_at_a_table_says_what_play_3_means() -> None:
    for game in GAMES:
        view = games.get(game).text
        assert view is not None
        assert "play N            by its position in your hand (play 3: the third card)" in (
            view.help
        ), game


# ----------------------------------------------------------------- leave and quit


def _at_a_table(game: str, seed: str) -> tuple[Harness, Session, list[str]]:
    harness = Harness(seed)
    session = connect(harness)
    session.say("name ann")
    shown = session.say(f"create {game} 1")
    return harness, session, shown


@pytest.mark.parametrize("game", GAMES)
def test_leave_goes_back_to_the_lobby_and_the_game_goes_on(game: str) -> None:
    harness, session, shown = _at_a_table(game, f"leave-{game}")
    person = Person(game)
    # One answer of ann's, so that the table has been played at.
    while (command := person.answer(shown)) is None:
        shown = session.wait()
    session.say(command)
    table = harness.hub.lobby.tables[1]
    assert table.state is TableState.PLAYING
    left = session.say("leave")
    assert left[-2:] == [
        "Do you want to join a game, create a new game, or quit? (join, create, quit)",
        "> create, join, quit (or help)",
    ]
    conn = session.client.conn
    assert harness.hub.lobby.sessions[conn].where is Where.QUESTION
    assert session.say("help")[0] == "In the lobby you can type:"
    # The AI plays the seat at once, to the end; ann hears no more of it.
    for _ in range(20000):
        if table.state is TableState.OVER:
            break
        harness.advance(1.0)
    assert table.state is TableState.OVER
    assert table.game is not None
    assert is_over(table.game)
    assert session.client.take_text() == []


def test_leave_hands_the_seat_to_the_ai_at_once_and_the_game_is_not_abandoned() -> None:
    """No grace to wait out (a person who leaves is not coming back by a lost
    connection): the AI plays the seat from the moment of ``leave``, and a table with no
    person left is played on, not abandoned."""
    harness, session, _ = _at_a_table("hundredandten", "leave-ai")
    table = harness.hub.lobby.tables[1]
    session.say("leave")
    seat = table.seats[0]
    assert seat is not None
    assert (seat.conn, seat.away_until) == (None, None)
    assert seat.bot is not None  # the AI's, with no time gone by
    assert table.game is not None
    for _ in range(20000):
        if table.state is TableState.OVER:
            break
        harness.advance(1.0)
    assert is_over(table.game)  # played to its end, not abandoned


def test_quit_at_a_table_leaves_as_leave_does_then_hangs_up() -> None:
    harness, session, shown = _at_a_table("whist", "quit-whist")
    person = Person("whist")
    while (command := person.answer(shown)) is None:
        shown = session.wait()
    session.say(command)
    table = harness.hub.lobby.tables[1]
    assert session.say("quit") == ["Ok, bye bye!"]
    assert session.client.closed
    for _ in range(20000):
        if table.state is TableState.OVER:
            break
        harness.advance(1.0)
    assert table.game is not None
    assert is_over(table.game)


def test_join_of_a_table_that_is_none_says_so_then_lists_the_tables() -> None:
    harness = Harness("join-99")
    session = connect(harness)
    assert session.say("join 99") == [
        "! no open table 99 (no_such_table)",
        "No open tables right now. Type create, or join again later.",
    ]
