"""Hundert records (games/hundert/records.py): the lines a game writes, hand-written
records (as an independent implementation would write them: literal decks, literal
plays) that replay to scores worked out by hand, round trips of whole games, and every
error code replay can give.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hundred_server.games.hundert.bots import HundertBot
from hundred_server.games.hundert.records import FORMAT
from hundred_server.games.hundert.rules import Game, Play, seeded_deck
from hundred_server.games.kit.records import COMMON_CODES
from hundred_server.games.records import record_lines
from tests.support import playing
from tests.support.game_checks import Edits, check_refused_line, common_record_errors

header_object = FORMAT.header_object
history_objects = FORMAT.history_objects
load_record = FORMAT.load_record
replay = FORMAT.replay

Message = dict[str, Any]


def play(seat: int, card: str) -> Message:
    return {"Type": "Play", "Playerid": seat, "PlayedCard": card}


def deal(hand: int, dealer: int, deck: str) -> Message:
    return {"Type": "Deal", "Hand": hand, "Dealer": dealer, "Deck": deck.split()}


def plays(first: int, n: int, cards: str) -> list[Message]:
    """The plays of ``cards`` in turn, ``first`` playing the first."""
    return [play((first + i) % n, c) for i, c in enumerate(cards.split())]


def lines(*objs: Message | list[Message]) -> list[str]:
    out: list[str] = []
    for obj in objs:
        out += [json.dumps(o) for o in (obj if isinstance(obj, list) else [obj])]
    return out


# ------------------------------------------------------- a hand-written 2-player game
#
# Two players, ann (0) and bob (1); each deals twice. A deck is dealt one card at a
# time from the dealer's left, so the decks below read in pairs: (left of the dealer,
# dealer). No cards are left over for two players.

# Deal 1 (ann deals): pairs (bob, ann). Deal 4 (bob deals) is the same deck: pairs (ann,
# bob).
DECK_1 = (
    "AS AH AD AC TS TH TD TC KS KH KD KC QS QH QD QC "
    "JS JH JD JC 9S 9H 9D 9C 8S 8H 8D 8C 7S 7H 7D 7C"
)
# Deal 2 (bob deals): pairs (ann, bob).
DECK_2 = (
    "AS AH AD AC TS TH TD TC KS KH 7S QH KD KC QS QD "
    "QC JS JH JD JC 9S 9H 9D 9C 8S 8H 8D 8C 7H 7D 7C"
)
# Deal 3 (ann deals): pairs (bob, ann).
DECK_3 = (
    "AS TH TD TC TS KH KD KC KS QH QD QC QS JH JD JC "
    "JS AH 7S 7H AD AC 8S 9S 8H 9H 7D 8D 9D 7C 8C 9C"
)
HEADER: Message = {"Type": "Record", "Game": "hundert", "Version": 1, "Players": ["ann", "bob"]}
RECORD = lines(
    HEADER,
    # Deal 1: bob leads. 11 22 33 44 54 64 74 84 88 92 96, and ann's KC makes 100: she
    # takes 3 from bob: [3, -3].
    deal(1, 0, DECK_1),
    plays(1, 2, "AS AH AD AC TS TH TD TC KS KH KD KC"),
    # Deal 2: ann leads. 11 22 33 44 54 64 74 84 88 92, ann 7S 92, bob QH 95, ann KD 99,
    # bob KC 103: bob pays ann the overshoot, 3: [3, -3] -> balances [6, -6].
    deal(2, 1, DECK_2),
    plays(0, 2, "AS AH AD AC TS TH TD TC KS KH 7S QH KD KC"),
    # Deal 3: bob leads. AS 11, TH 21, TD 31, TC 41, TS 51, KH 55, KD 59, KC 63, KS 67,
    # QH 70, QD 73, QC 76, QS 79, JH 81, JD 83, JC 85, JS 87, ann AH 98, bob 7S 98, ann 7H
    # 98, bob AD 109: bob pays 9: [9, -9] -> [15, -15].
    deal(3, 0, DECK_3),
    plays(1, 2, "AS TH TD TC TS KH KD KC KS QH QD QC QS JH JD JC JS AH 7S 7H AD"),
    # Deal 4: ann leads; deal 1's climb with the seats swapped: bob's KC makes 100 and
    # takes 3 from ann: [-3, 3] -> [12, -12]. Game over: ann wins.
    deal(4, 1, DECK_1),
    plays(0, 2, "AS AH AD AC TS TH TD TC KS KH KD KC"),
)
SCORES = [
    {"Type": "Score", "Hand": 1, "Points": [3, -3], "Score": [3, -3]},
    {"Type": "Score", "Hand": 2, "Points": [3, -3], "Score": [6, -6]},
    {"Type": "Score", "Hand": 3, "Points": [9, -9], "Score": [15, -15]},
    {"Type": "Score", "Hand": 4, "Points": [-3, 3], "Score": [12, -12]},
    {"Type": "Score", "GameOver": True, "Winner": 0, "Score": [12, -12]},
]
# With Feder every deal moves 1 chip either way: [1,-1], [1,-1], [1,-1], [-1,1].
FEDER_RECORD = [json.dumps({**HEADER, "Flags": ["Feder"]}), *RECORD[1:]]
FEDER_SCORES = [
    {"Type": "Score", "Hand": 1, "Points": [1, -1], "Score": [1, -1]},
    {"Type": "Score", "Hand": 2, "Points": [1, -1], "Score": [2, -2]},
    {"Type": "Score", "Hand": 3, "Points": [1, -1], "Score": [3, -3]},
    {"Type": "Score", "Hand": 4, "Points": [-1, 1], "Score": [2, -2]},
    {"Type": "Score", "GameOver": True, "Winner": 0, "Score": [2, -2]},
]

# ------------------------------------------------------- a hand-written 3-player start
#
# Three players: a deck reads in triples from the dealer's left, 30 cards, then the
# 2 cards of the pile, face up.
THREE = lines(
    {"Type": "Record", "Game": "hundert", "Version": 1, "Players": ["ann", "bob", "cy"]},
    # Deal 1 (ann deals): triples (bob, cy, ann); the pile AS 7C: total 11. AH 22, AD 33,
    # AC 44, TH 54, TD 64, TC 74, TS 84, KH 88, KD 92, 8H 92, KC 96, and ann's KS makes
    # 100: she takes 3 from each: [6, -3, -3].
    deal(
        1,
        0,
        "AH AD AC TH TD TC TS KH KD 8H KC KS 7H 9H JH QH 7D 8D "
        "9D JD QD 7S 8S 9S JS QS 8C 9C JC QC AS 7C",
    ),
    plays(1, 3, "AH AD AC TH TD TC TS KH KD 8H KC KS"),
    # Deal 2 (bob deals): triples (cy, ann, bob); the pile 7S 8S: total 0. cy AS 11, ann
    # AH 22, bob AD 33, AC 44, TS 54, TH 64, TD 74, TC 84, KS 88, KH 92, 9S 92, QS 95, 7H
    # 95, 9H 95, KC 99, 8H 99, and ann's QH 102: she pays 2 to each: [-4, 2, 2] -> [2,
    # -1, -1]. The record stops there, mid-game: not an error.
    deal(
        2,
        1,
        "AS AH AD AC TS TH TD TC KS KH 9S QS 7H 9H KC 8H QH JH "
        "7D 8D 9D JD QD KD JS 7C 8C 9C JC QC 7S 8S",
    ),
    plays(2, 3, "AS AH AD AC TS TH TD TC KS KH 9S QS 7H 9H KC 8H QH"),
)


def test_the_hand_written_record_replays_to_the_hand_checked_scores():
    assert list(replay(RECORD)) == SCORES


def test_the_feder_record_replays_to_one_chip_either_way():
    assert list(replay(FEDER_RECORD)) == FEDER_SCORES
    assert load_record(FEDER_RECORD).flags == frozenset({"Feder"})


def test_the_three_player_record_that_stops_is_not_an_error():
    assert list(replay(THREE)) == [
        {"Type": "Score", "Hand": 1, "Points": [6, -3, -3], "Score": [6, -3, -3]},
        {"Type": "Score", "Hand": 2, "Points": [-4, 2, 2], "Score": [2, -1, -1]},
    ]
    game = load_record(THREE)
    assert (game.round, game.dealer, game.needs_deal, game.is_over) == (3, 2, True, False)


def test_the_game_writes_the_record_it_replays_from():
    game = load_record(RECORD)
    assert [json.loads(line) for line in record_lines(game)] == [json.loads(x) for x in RECORD]
    assert header_object(game) == HEADER
    assert header_object(load_record(FEDER_RECORD)) == {**HEADER, "Flags": ["Feder"]}
    assert history_objects(game, 1)[0] == json.loads(RECORD[2])  # after the first Deal


def test_blank_lines_unknown_keys_and_a_byte_order_mark_are_skipped():
    extra = ["\ufeff" + RECORD[0], "", *RECORD[1:3], "   "]
    extra.append(json.dumps({**json.loads(RECORD[3]), "Note": "hi"}))
    extra += RECORD[4:]
    assert list(replay(extra)) == SCORES


@pytest.mark.parametrize("seed", [f"roundtrip {i}" for i in range(6)])
def test_full_games_round_trip(seed: str):
    rng = random.Random(seed)
    n = 2 + rng.randrange(5)
    flags = frozenset({"Feder"}) if rng.random() < 0.5 else frozenset()
    game = Game([f"p{i}" for i in range(n)], flags)
    bot = HundertBot()
    playing.play_out(
        game,
        lambda n: seeded_deck(seed, n),
        lambda _, view: bot.act(view) if rng.random() < 0.5 else rng.choice(view.legal),
    )
    record = record_lines(game)
    expected = [
        {"Type": "Score", "Hand": d.round, "Points": list(d.points), "Score": list(d.totals)}
        for d in game.deal_results
    ] + [{"Type": "Score", "GameOver": True, "Winner": game.winner, "Score": list(game.scores)}]
    assert len(expected) == 2 * n + 1
    assert list(replay(record)) == expected
    loaded = load_record(record)
    assert (loaded.scores, loaded.winner, loaded.flags) == (game.scores, game.winner, flags)
    assert loaded.history == game.history
    assert record_lines(loaded) == record


# ----------------------------------------------------------------------------- errors


edit = Edits(RECORD)


SHORT = DECK_1.split()[:31]

# Line 1 is the header, 2 deal 1's Deal, 3-14 its plays (bob's AS on 3, ann's AH on 4),
# 15 deal 2's Deal, 16-29 its plays, 30 deal 3's Deal, 31-51, 52 deal 4's Deal, 53-64.
ERROR_CASES = [
    *common_record_errors(RECORD, play=3, other_game="pinochle", first_deal="deal 1"),
    ("bad_record_seat", edit.with_field(3, Playerid="1"), 3, "bad_record", '"Playerid"'),
    ("bad_record_card", edit.with_field(3, PlayedCard=None), 3, "bad_record", "null"),
    ("bad_record_deck", edit.with_field(2, Deck="AS"), 2, "bad_record", '"Deck"'),
    ("bad_record_flags", edit.with_field(1, Flags="Feder"), 1, "bad_record", '"Flags"'),
    ("bad_record_flag", edit.with_field(1, Flags=[1]), 1, "bad_record", "[1]"),
    (
        "unknown_type",
        edit.replace(3, {"Type": "Bid", "Playerid": 1, "Bid": 0}),
        3,
        "unknown_type",
        "Bid",
    ),
    ("bad_card", edit.replace(3, play(1, "1X")), 3, "bad_card", "1X"),
    ("wrong_dealer_deal_2", edit.with_field(15, Dealer=0), 15, "wrong_dealer", "seat 1"),
    ("missing_deal_2", RECORD[:14] + RECORD[15:], 15, "missing_deal", "deal 2"),
    ("game_over", [*RECORD, json.dumps(play(0, "7C"))], 65, "game_over", "seat 0 won"),
    ("duplicate_name", edit.with_field(1, Players=["a", "a"]), 1, "duplicate_name", "'a'"),
    ("bad_seat", edit.with_field(3, Playerid=2), 3, "bad_seat", "2"),
    ("not_your_turn", edit.replace(3, play(0, "AH")), 3, "not_your_turn", "seat 1"),
    ("not_in_hand", edit.replace(3, play(1, "AH")), 3, "not_in_hand", "AH"),
    ("not_in_hand_2s", edit.replace(3, play(1, "2S")), 3, "not_in_hand", "2S"),
    ("unexpected_seed", edit.with_field(1, Seed="x"), 1, "unexpected_seed", '"x"'),
    ("bad_flag", edit.with_field(1, Flags=["Fast"]), 1, "bad_flag", "Fast"),
    ("bad_players", edit.with_field(1, Players=["ann"]), 1, "bad_players", "got 1"),
    ("bad_players_7", edit.with_field(1, Players=list("abcdefg")), 1, "bad_players", "got 7"),
    ("bad_deck", edit.with_field(2, Deck=SHORT), 2, "bad_deck", "31 cards"),
    ("bad_deck_2h", edit.with_field(2, Deck=[*SHORT, "2H"]), 2, "bad_deck", "1 not of the deck"),
    ("bad_deck_twice", edit.with_field(2, Deck=[*SHORT, "AS"]), 2, "bad_deck", "31 distinct"),
]


def test_the_codes_are_the_shared_ones_but_deck_mismatch_and_hunderts_own():
    # No Hundert record has a Seed, so no Deck can contradict one.
    assert set(COMMON_CODES) - set(FORMAT.codes) == {"deck_mismatch"}
    assert set(FORMAT.codes) - set(COMMON_CODES) == {
        "unexpected_seed",
        "bad_flag",
        "wrong_round",
        "bad_players",
        "bad_deck",
    }


def test_a_refused_line_leaves_the_game_as_it_was():
    def state(game: Game) -> tuple[object, ...]:
        return (game.to_act, game.total, list(game.history), [game.hand(s) for s in (0, 1)])

    game = check_refused_line(FORMAT, RECORD, 4, json.dumps(play(0, "AS")), state)  # bob's
    assert game.total == 22
    assert game.history[-1] == (0, Play(game.played[-1][1]))
