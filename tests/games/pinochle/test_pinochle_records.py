"""Pinochle records (games/pinochle/records.py): writing, replay, and every error code.

The hand-checked record is the seed transcript's game (test_pinochle.py's
``play_transcript``): three hands, Team1 set twice and below -50, Team0 wins 24 to -55.
Its Score lines are the transcript's Score lines.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hundred_server.games.kit.cards import Card, Suit, format_cards
from hundred_server.games.kit.records import COMMON_CODES
from hundred_server.games.pinochle.bots import PinochleBot
from hundred_server.games.pinochle.records import FORMAT
from hundred_server.games.pinochle.rules import Game, seeded_deck
from tests.games.pinochle.test_pinochle import P4, RULE_HANDS, deck_for, play_transcript
from tests.support import playing
from tests.support.game_checks import Edits, check_refused_line, common_record_errors

header_object = FORMAT.header_object
history_objects = FORMAT.history_objects
load_record = FORMAT.load_record
replay = FORMAT.replay

Message = dict[str, Any]


def dumps(objs: list[Message]) -> list[str]:
    return [json.dumps(o, separators=(",", ":")) for o in objs]


def record_of(game: Game) -> list[str]:
    return dumps([header_object(game), *history_objects(game, 0)])


def transcript_game(target: int = 100) -> Game:
    game = Game(P4, target=target)
    for hand in range(3):
        if game.is_over:
            break
        play_transcript(game, hand)
    return game


GAME = transcript_game()
RECORD = record_of(GAME)
# The transcript's Score lines, with the winner by team.
SCORES = [
    {"Type": "Score", "Hand": 1, "Score": [-25, 19]},
    {"Type": "Score", "Hand": 2, "Score": [3, -10]},
    {"Type": "Score", "Hand": 3, "Score": [24, -55]},
    {"Type": "Score", "GameOver": True, "Winner": 0, "Score": [24, -55]},
]


def bid(seat: int, amount: int) -> Message:
    return {"Type": "Bid", "Playerid": seat, "Bid": amount}


def play(seat: int, code: str) -> Message:
    return {"Type": "Play", "Playerid": seat, "PlayedCard": code}


# ----------------------------------------------------------------------------- writing


def test_the_record_lines():
    # a header, then per hand a Deal, four bids, the trump and 48 plays
    assert len(RECORD) == 1 + 3 * (1 + 4 + 1 + 48)
    assert (
        RECORD[0]
        == '{"Type":"Record","Game":"pinochle","Version":1,"Players":["ann","bob","cy","dee"]}'
    )
    assert json.loads(RECORD[1]) == {
        "Type": "Deal",
        "Hand": 1,
        "Dealer": 0,
        "Deck": format_cards(deck_for(RULE_HANDS, 0)),
    }
    assert [json.loads(line) for line in RECORD[2:11]] == [
        bid(1, 0),
        bid(2, 25),
        bid(3, 0),
        bid(0, 0),
        {"Type": "Trump", "Playerid": 2, "Trump": "H"},
        play(2, "AD"),
        play(3, "TD"),
        play(0, "KD"),
        play(1, "QD"),
    ]
    deal2 = json.loads(RECORD[55])
    assert (deal2["Type"], deal2["Hand"], deal2["Dealer"], len(deal2["Deck"])) == ("Deal", 2, 1, 48)
    assert json.loads(RECORD[34]) == play(0, "TH")  # trick 7 of hand 1
    assert history_objects(GAME, 60) == history_objects(GAME, 0)[60:]


def test_the_header_carries_the_target_only_when_it_is_not_100():
    assert "Target" not in header_object(GAME)
    game = transcript_game(target=19)
    assert header_object(game) == {
        "Type": "Record",
        "Game": "pinochle",
        "Version": 1,
        "Players": list(P4),
        "Target": 19,
    }
    record = record_of(game)
    assert list(replay(record)) == [
        SCORES[0],
        {"Type": "Score", "GameOver": True, "Winner": 1, "Score": [-25, 19]},
    ]
    assert load_record(record).target == 19


# ----------------------------------------------------------------------------- replay


def test_the_transcript_record_replays_to_the_transcripts_scores():
    assert list(replay(RECORD)) == SCORES
    assert list(replay(line.encode() + b"\r\n" for line in RECORD)) == SCORES
    game = load_record(RECORD)
    assert (game.scores, game.winner, game.is_over) == ((24, -55), 0, True)
    assert game.history == GAME.history
    assert record_of(game) == RECORD


def test_a_record_that_stops_is_not_an_error():
    assert list(replay(RECORD[:60])) == SCORES[:1]
    assert list(replay(RECORD[:56])) == SCORES[:1]  # hand 2's Deal line, no bid yet
    game = load_record(RECORD[:60])
    assert (game.round, game.dealer, len(game.bids)) == (2, 1, 4)
    assert list(replay(["", RECORD[0], "  "])) == []


def test_blank_lines_and_unknown_keys_are_skipped():
    lines = [RECORD[0], "", *RECORD[1:3], "   ", *RECORD[3:]]
    assert list(replay(lines)) == SCORES
    extra = [json.dumps({**json.loads(line), "Note": "x"}) for line in RECORD]
    assert list(replay(extra)) == SCORES


def _bot_game(seed: str, rng: random.Random | None = None) -> Game:
    game = Game(P4, target=random.Random(seed).choice([60, 100]))
    bot = PinochleBot()
    return playing.play_out(
        game,
        lambda n: seeded_deck(seed, n),
        lambda _, view: bot.act(view) if rng is None else rng.choice(view.legal),
    )


@pytest.mark.parametrize("seed", [f"roundtrip {i}" for i in range(8)])
def test_full_games_round_trip(seed):
    rng = random.Random(seed) if seed.endswith(("1", "3", "5")) else None
    game = _bot_game(seed, rng)
    record = record_of(game)
    expected = [
        {"Type": "Score", "Hand": i, "Score": list(totals)}
        for i, totals in enumerate(game.hand_results, 1)
    ] + [{"Type": "Score", "GameOver": True, "Winner": game.winner, "Score": list(game.scores)}]
    assert list(replay(record)) == expected
    loaded = load_record(record)
    assert (loaded.scores, loaded.winner, loaded.target) == (game.scores, game.winner, game.target)
    assert loaded.history == game.history
    assert record_of(loaded) == record


# ----------------------------------------------------------------------------- errors


edit = Edits(RECORD)


SHORT_DECK = json.loads(RECORD[1])["Deck"][:47]

# Line 1 is the header, 2 hand 1's Deal, 3-6 the bids (seats 1, 2, 3, 0), 7 the trump,
# 8-11 trick 1 (2:AD 3:TD 0:KD 1:QD), 12-15 trick 2 (2:JD 3:TD 0:AD 1:QD), 35 seat 0's
# TH on trick 7 (clubs led, JH winning: the transcript's refused JD).
ERROR_CASES = [
    *common_record_errors(RECORD, play=8, other_game="whist", first_deal="hand 1"),
    ("bad_record_bid", edit.with_field(3, Bid="0"), 3, "bad_record", '"Bid"'),
    ("bad_record_bid_bool", edit.with_field(3, Bid=False), 3, "bad_record", "false"),
    ("bad_record_seat", edit.with_field(8, Playerid="2"), 8, "bad_record", '"Playerid"'),
    ("bad_record_trump", edit.with_field(7, Trump=None), 7, "bad_record", "null"),
    ("bad_record_deck", edit.with_field(2, Deck="AD"), 2, "bad_record", '"Deck"'),
    ("bad_record_target", edit.with_field(1, Target="100"), 1, "bad_record", '"Target"'),
    (
        "unknown_type",
        edit.replace(3, {"Type": "Discard", "Playerid": 1, "Cards": []}),
        3,
        "unknown_type",
        '"Discard"',
    ),
    ("bad_card", edit.replace(8, play(2, "1X")), 8, "bad_card", "1X"),
    ("wrong_dealer_hand_2", edit.with_field(56, Dealer=0), 56, "wrong_dealer", "seat 1"),
    ("missing_deal_hand_2", RECORD[:55] + RECORD[56:], 56, "missing_deal", "hand 2"),
    ("game_over", [*RECORD, json.dumps(bid(1, 0))], 164, "game_over", "Team0 won"),
    (
        "duplicate_name",
        edit.with_field(1, Players=["a", "b", "a", "c"]),
        1,
        "duplicate_name",
        "'a'",
    ),
    ("bad_seat", edit.with_field(3, Playerid=4), 3, "bad_seat", "4"),
    ("not_your_turn", edit.replace(3, bid(2, 25)), 3, "not_your_turn", "seat 1"),
    ("not_in_hand", edit.replace(8, play(2, "TD")), 8, "not_in_hand", "TD"),
    ("unexpected_seed", edit.with_field(1, Seed="x"), 1, "unexpected_seed", '"x"'),
    ("bad_target", edit.with_field(1, Target=0), 1, "bad_target", "0"),
    ("bad_players", edit.with_field(1, Players=["ann", "bob", "cy"]), 1, "bad_players", "got 3"),
    ("bad_deck", edit.with_field(2, Deck=SHORT_DECK), 2, "bad_deck", "47 cards"),
    ("bad_deck_52", edit.with_field(2, Deck=[*SHORT_DECK, "2H"]), 2, "bad_deck", "48 cards"),
    ("bad_suit", edit.with_field(7, Trump="X"), 7, "bad_suit", "'X'"),
    ("wrong_phase", edit.replace(3, play(1, "QD")), 3, "wrong_phase", "bidding"),
    (
        "wrong_phase_trump",
        edit.replace(8, {"Type": "Trump", "Playerid": 2, "Trump": "S"}),
        8,
        "wrong_phase",
        "tricks",
    ),
    ("illegal_bid", edit.with_field(4, Bid=19), 4, "illegal_bid", "19"),
    ("illegal_bid_low", edit.replace(5, bid(3, 25)), 5, "illegal_bid", "25"),
    ("must_follow_suit", edit.replace(9, play(3, "KC")), 9, "must_follow_suit", "KC"),
    ("must_beat", edit.replace(13, play(3, "9D")), 13, "must_beat", "9D"),
    ("must_trump", edit.replace(35, play(0, "JD")), 35, "must_trump", "JD"),
]


def test_the_codes_are_the_shared_ones_but_deck_mismatch_and_pinochles_own():
    # No Pinochle record has a Seed, so no Deck can contradict one.
    assert set(COMMON_CODES) - set(FORMAT.codes) == {"deck_mismatch"}


def test_a_refused_line_leaves_the_game_as_it_was():
    bad = json.dumps(play(2, "TD"))
    game = check_refused_line(
        FORMAT, RECORD, 8, bad, lambda g: (g.phase, g.to_act, list(g.history))
    )
    assert (game.bid, game.trump, game.played) == (25, Suit.HEARTS, [Card.parse("AD")])
