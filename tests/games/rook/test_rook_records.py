"""Rook records (games/rook/records.py): the round trip, replay of hand-written records
to the hand-checked scores of test_rook.py, and every error code replay can give."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hundred_server.ai.selfplay import play_game
from hundred_server.games.records import record_lines
from hundred_server.games.records import replay as any_replay
from hundred_server.games.rook.records import FORMAT
from tests.support.game_checks import check_replay_error
from tests.support.rook_decks import FOUR_COLOURS, THREE_MOON_FAILS

ERROR_CODES = FORMAT.codes
load_record = FORMAT.load_record
replay = FORMAT.replay


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":"))


def header(players: list[str], **extra: object) -> str:
    return dumps({"Type": "Record", "Game": "rook", "Version": 1, "Players": players, **extra})


def deal(deck: list[str], hand: int = 1, dealer: int = 0) -> str:
    return dumps({"Type": "Deal", "Hand": hand, "Dealer": dealer, "Deck": deck})


def bid(seat: int, amount: int | None = None, **extra: object) -> str:
    obj: dict[str, Any] = {"Type": "Bid", "Playerid": seat, **extra}
    if amount is not None:
        obj["Bid"] = amount
    return dumps(obj)


def setup(seat: int, discard: str, trump: str, partners: str | None = None) -> str:
    obj: dict[str, Any] = {
        "Type": "Setup",
        "Playerid": seat,
        "Discard": discard.split(),
        "Trump": trump,
    }
    if partners is not None:
        obj["Partners"] = partners.split()
    return dumps(obj)


def plays(leader: int, n: int, tricks: list[str]) -> list[str]:
    """Play lines of tricks given as codes in playing order, each trick's winner
    leading the next (``leader`` leads them all: the hands below are made so)."""
    out = []
    for trick in tricks:
        for k, code in enumerate(trick.split()):
            seat = (leader + k) % n
            out.append(dumps({"Type": "Play", "Playerid": seat, "PlayedCard": code}))
    return out


FOUR = ["ann", "bob", "cy", "dee"]
THREE = FOUR[:3]
REDS = ["R1", "R14", "R13", "R12", "R11", "R10", "R9", "R8", "R5", "ROOK"]


def colour(c: str, skip: int) -> list[str]:
    return [f"{c}{n}" for n in (1, *range(14, 4, -1)) if n != skip]


# The made bid of test_rook.py: seat 2 takes every trick, B1 reveals seat 0 as partner.
MADE = [
    header(FOUR),
    deal([c.code for c in FOUR_COLOURS]),
    bid(1, 0),
    bid(2, 80),
    bid(3, 0),
    bid(0, 0),
    setup(2, "B5 G5 Y5 R6 R7", "R", "B1"),
    *plays(
        2,
        4,
        [
            " ".join(t)
            for t in zip(REDS, colour("Y", 5), colour("B", 5), colour("G", 5), strict=False)
        ],
    ),
]

# The moon that fails, from test_rook.py.
MOON_FAILS_PLAYS = [
    *plays(1, 3, ["Y1 Y10 B5", "Y14 Y11 B6"]),
    *plays(1, 3, ["G12 R5 G1"]),
    *plays(0, 3, ["B1 G11 R1", "B14 G10 R14", "B13 Y13 R13"]),
    *plays(
        1,
        3,
        [
            f"{y} {r} {b}"
            for y, r, b in zip(
                ["Y12", "Y9", "Y8", "Y7", "Y6", "Y5"],
                ["R12", "R11", "R10", "R9", "R8", "R7"],
                ["B12", "B11", "B10", "B9", "B8", "B7"],
                strict=True,
            )
        ],
    ),
    *plays(1, 3, ["ROOK R6 G14"]),
]
MOON_FAILS = [
    header(THREE),
    deal([c.code for c in THREE_MOON_FAILS]),
    bid(1, Moon=True),
    setup(1, "G13 G9 G8 G7 G6 G5", "y"),
    *MOON_FAILS_PLAYS,
]


def test_a_hand_written_record_replays_to_the_hand_checked_scores() -> None:
    assert list(replay(MADE)) == [
        {"Type": "Score", "Hand": 1, "Points": [200, 0, 200, 0], "Score": [200, 0, 200, 0]}
    ]
    assert list(any_replay(MADE)) == list(replay(MADE))
    assert list(replay(MOON_FAILS)) == [
        {"Type": "Score", "Hand": 1, "Points": [80, -400, 80], "Score": [80, -400, 80]}
    ]
    game = load_record(MOON_FAILS)
    assert (game.round, game.dealer, game.scores) == (2, 1, (80, -400, 80))


def test_records_write_the_wire_forms() -> None:
    game = load_record(MADE)
    lines = record_lines(game)
    assert lines == MADE
    moon = record_lines(load_record(MOON_FAILS))
    assert moon[2] == '{"Type":"Bid","Playerid":1,"Moon":true}'
    assert moon[3] == setup(1, "G13 G9 G8 G7 G6 G5", "Y", "")


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_a_bot_game_records_and_replays(seats: int) -> None:
    game = play_game(seats, f"rook-{seats}", game="rook")
    assert game.is_over
    lines = record_lines(game)
    head = json.loads(lines[0])
    assert head == {"Type": "Record", "Game": "rook", "Version": 1, "Players": list(game.players)}
    out = list(replay(lines))
    assert out[-1] == {
        "Type": "Score",
        "GameOver": True,
        "Winner": game.winner,
        "Score": list(game.scores),
    }
    totals = [0] * seats
    for score in out[:-1]:
        totals = [t + p for t, p in zip(totals, score["Points"], strict=True)]
        assert score["Score"] == totals
    again = load_record(lines)
    assert list(again.history) == list(game.history)
    assert again.scores == game.scores
    assert record_lines(again) == lines


def replaced(lines: list[str], at: int, line: str) -> list[str]:
    return [*lines[:at], line, *lines[at + 1 :]]


def finished() -> list[str]:
    return record_lines(play_game(4, "rook-over", game="rook"))


CASES: list[tuple[str, list[str], int, str]] = [
    ("bad_json", replaced(MADE, 2, "{not json"), 3, "not JSON"),
    ("bad_record", replaced(MADE, 2, bid(1, Moon=1)), 3, '"Moon"'),
    ("bad_record", replaced(MADE, 2, dumps({"Type": "Bid", "Playerid": 1, "Bid": "x"})), 3, "x"),
    ("unknown_type", replaced(MADE, 2, dumps({"Type": "Trump", "Playerid": 1})), 3, "Trump"),
    ("bad_card", replaced(MADE, 1, deal(["X9", *[c.code for c in FOUR_COLOURS][1:]])), 2, "X9"),
    (
        "bad_card",
        replaced(MADE, 7, dumps({"Type": "Play", "Playerid": 2, "PlayedCard": "R4"})),
        8,
        "R4",
    ),
    ("missing_header", MADE[1:], 1, "Deal"),
    ("unexpected_header", [MADE[0], *MADE], 2, "Record"),
    ("unknown_game", replaced(MADE, 0, header(FOUR).replace("rook", "whist")), 1, "whist"),
    ("bad_version", replaced(MADE, 0, header(FOUR).replace('"Version":1', '"Version":2')), 1, "2"),
    ("wrong_dealer", replaced(MADE, 1, deal([c.code for c in FOUR_COLOURS], dealer=1)), 2, "1"),
    ("missing_deck", replaced(MADE, 1, dumps({"Type": "Deal", "Hand": 1, "Dealer": 0})), 2, "Deck"),
    ("missing_deal", [MADE[0], MADE[2]], 2, "Deal"),
    ("unexpected_deal", [*MADE[:3], MADE[1]], 4, "Hand 1"),
    ("duplicate_name", replaced(MADE, 0, header(["a", "a", "b", "c"])), 1, "a"),
    ("bad_seat", replaced(MADE, 2, bid(7, 0)), 3, "7"),
    ("not_your_turn", replaced(MADE, 2, bid(2, 80)), 3, "seat 1"),
    ("not_in_hand", replaced(MADE, 6, setup(2, "B5 G5 Y5 R6 B6", "R", "B1")), 7, "B6"),
    ("unexpected_seed", replaced(MADE, 0, header(FOUR, Seed="s")), 1, '"s"'),
    ("wrong_round", replaced(MADE, 1, deal([c.code for c in FOUR_COLOURS], hand=2)), 2, "2"),
    ("bad_players", replaced(MADE, 0, header(["a", "b"])), 1, "2"),
    ("bad_deck", replaced(MADE, 1, deal([c.code for c in FOUR_COLOURS][:44])), 2, "44"),
    ("bad_suit", replaced(MADE, 6, setup(2, "B5 G5 Y5 R6 R7", "H", "B1")), 7, "H"),
    (
        "wrong_phase",
        replaced(MADE, 2, dumps({"Type": "Play", "Playerid": 1, "PlayedCard": "G1"})),
        3,
        "bidding",
    ),
    ("illegal_bid", replaced(MADE, 2, bid(1, 83)), 3, "83"),
    ("illegal_bid", replaced(MADE, 2, bid(1, 400)), 3, "400"),
    ("illegal_bid", [*MADE[:3], bid(2, 80), bid(3, 80)], 5, "80"),
    ("bad_discard", replaced(MADE, 6, setup(2, "B5 G5 Y5 R6", "R", "B1")), 7, "4"),
    ("bad_discard", replaced(MADE, 6, setup(2, "B5 G5 Y5 R6 R6", "R", "B1")), 7, "R6"),
    ("bad_partners", replaced(MADE, 6, setup(2, "B5 G5 Y5 R6 R7", "R")), 7, "1 partner"),
    ("bad_partners", replaced(MADE, 6, setup(2, "B5 G5 Y5 R6 R7", "R", "B1 B1")), 7, "not 2"),
    (
        "must_follow_suit",
        replaced(MOON_FAILS, 12, dumps({"Type": "Play", "Playerid": 0, "PlayedCard": "B1"})),
        13,
        "B1",
    ),
]


def test_nothing_may_follow_the_end_of_the_game() -> None:
    lines = finished()
    check_replay_error(replay, load_record, [*lines, MADE[2]], len(lines) + 1, "game_over", "seat")


def test_every_error_code_is_tested_and_listed() -> None:
    tested = {c[0] for c in CASES} | {"game_over"}
    assert tested == set(ERROR_CODES)
