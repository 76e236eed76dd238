"""Game records: writing, replaying, and every error code replay can give."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hundred_server import games
from hundred_server.ai.selfplay import play_game
from hundred_server.games.hundredandten.rules import Bid, Game, Phase, Unpass, seeded_deck
from hundred_server.games.kit.cards import ALL_CARDS, Card, format_cards
from hundred_server.games.records import (
    ERROR_CODES,
    dumps_line,
    load_record,
    read_lines,
    record_lines,
    record_objects,
    replay,
    write_record,
)
from tests.support.game_checks import Edits

# ------------------------------------------------------------------- a record by hand


def deck(*codes: str) -> list[str]:
    """A 53-card deck that starts with ``codes``; the rest follow in deck order."""
    top = [Card.parse(c) for c in codes]
    return format_cards(top + [c for c in ALL_CARDS if c not in top])


def bid(seat: int, amount: int) -> dict[str, Any]:
    return {"Type": "Bid", "Playerid": seat, "Bid": amount}


def trump(seat: int, suit: str) -> dict[str, Any]:
    return {"Type": "Trump", "Playerid": seat, "Trump": suit}


def discard(seat: int, *cards: str) -> dict[str, Any]:
    return {"Type": "Discard", "Playerid": seat, "Cards": list(cards)}


def play(seat: int, card: str) -> dict[str, Any]:
    return {"Type": "Play", "Playerid": seat, "PlayedCard": card}


def plays(text: str) -> list[dict[str, Any]]:
    """``"0:5D 1:AD"``: seat 0 plays 5D, then seat 1 AD."""
    return [play(int(seat), card) for seat, card in (p.split(":") for p in text.split())]


def deal(round_: int, dealer: int, cards: list[str]) -> dict[str, Any]:
    return {"Type": "Deal", "Round": round_, "Dealer": dealer, "Deck": cards}


# Two players, ann (seat 0) and bob (seat 1). Worked out by hand from RULES.md:
#
# Round 1, ann deals, bob bids first. ann pre-passes, takes it back, pre-passes again;
#   bob passes, ann's pre-pass takes effect: passed out, no score. [0, 0]
#   A passed-out round: the same dealer deals again.
# Round 2, ann deals. ann holds 5D AH 2C 3C KS, bob JD JK AD 9H 4S. bob bids 20, ann
#   passes; bob names diamonds (trumps 5D > JD > JK > AH > AD ...). Discards start left
#   of the dealer: bob drops 9H 4S and draws 8S 7S; ann keeps. ann (left of the bidder)
#   leads: 5D/AD ann; AH/JK bob (the joker beats the ace of hearts); JD/KS bob; 8S/2C
#   bob; 7S/3C bob. The highest trump played, 5D, won trick 1: ann 5 + 5 = 10. bob took
#   4 tricks = 20, which meets his bid, so both score. [10, 20]
# Round 3, bob deals (the deal passes left after a played round); ann bids first.
#   ann 15, bob holds 15 (the dealer may), ann shoots the moon, bob passes. ann names
#   clubs and holds 5C JC JK AH AC: she takes all five tricks, +60 only. [70, 20]
# Round 4, ann deals; bob passes, ann shoots the moon with 5S JS JK AH AS in spades and
#   takes all five: [130, 20]. 130 >= 110 and the bidder is there: ann wins.
HAND_RECORD: list[dict[str, Any]] = [
    {"Type": "Record", "Game": "hundredandten", "Version": 1, "Players": ["ann", "bob"]},
    deal(1, 0, format_cards(ALL_CARDS)),  # line 2
    bid(0, 0),  # 3: pre-pass (bob is to act)
    {"Type": "Unpass", "Playerid": 0},  # 4
    bid(0, 0),  # 5: pre-pass again
    bid(1, 0),  # 6: bob passes, ann's pre-pass follows: passed out
    deal(2, 0, deck("5D", "AH", "2C", "3C", "KS", "JD", "JK", "AD", "9H", "4S", "8S", "7S")),
    bid(1, 20),  # 8
    bid(0, 0),  # 9
    trump(1, "D"),  # 10
    discard(1, "9H", "4S"),  # 11
    discard(0),  # 12
    *plays("0:5D 1:AD 0:AH 1:JK 1:JD 0:KS 1:8S 0:2C 1:7S 0:3C"),  # 13-22: round 2 scored
    deal(3, 1, deck("5C", "JC", "JK", "AH", "AC", "2H", "3H", "4H", "6H", "7H", "2D")),
    bid(0, 15),  # 24
    bid(1, 15),  # 25: the dealer holds
    bid(0, 60),  # 26
    bid(1, 0),  # 27
    trump(0, "C"),  # 28
    discard(0),  # 29
    discard(1, "2H"),  # 30
    *plays("1:3H 0:AC 0:5C 1:4H 0:JC 1:6H 0:JK 1:7H 0:AH 1:2D"),  # 31-40: round 3 scored
    deal(4, 0, deck("5S", "JS", "JK", "AH", "AS", "2D", "3D", "4D", "6D", "7D", "2C", "3C")),
    bid(1, 0),  # 42
    bid(0, 60),  # 43
    trump(0, "S"),  # 44
    discard(1, "2D", "3D"),  # 45
    discard(0),  # 46
    *plays("1:4D 0:AS 0:5S 1:6D 0:JS 1:7D 0:JK 1:2C 0:AH 1:3C"),  # 47-56: round 4 scored, game over
]
HAND_SCORES = [
    {"Type": "Score", "Round": 1, "Score": [0, 0]},
    {"Type": "Score", "Round": 2, "Score": [10, 20]},
    {"Type": "Score", "Round": 3, "Score": [70, 20]},
    {"Type": "Score", "Round": 4, "Score": [130, 20]},
    {"Type": "Score", "GameOver": True, "Winner": 0, "Score": [130, 20]},
]


def text(objs: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(o) for o in objs]


def test_hand_written_record_scores_as_worked_out() -> None:
    assert list(replay(text(HAND_RECORD))) == HAND_SCORES


def test_hand_written_record_builds_the_game_it_describes() -> None:
    game = load_record(text(HAND_RECORD))
    assert game.winner == 0
    assert game.dealers == [0, 0, 1, 0]
    assert game.round_results == [(0, 0), (10, 20), (70, 20), (130, 20)]
    # Written back, it is the same record (the writer uses the compact form).
    assert [json.loads(line) for line in record_lines(game)] == HAND_RECORD


def test_pre_pass_and_unpass_lines_replay() -> None:
    game = load_record(text(HAND_RECORD[:5]))  # pre-pass, unpass, pre-pass
    assert game.phase is Phase.BIDDING
    assert game.to_act == 1
    assert game.pre_passed == [True, False]
    assert game.history[1:] == [(0, Bid(0)), (0, Unpass()), (0, Bid(0))]
    game = load_record(text(HAND_RECORD[:6]))  # bob passes: ann's pre-pass follows
    assert game.round == 2
    assert game.phase is Phase.DEAL
    assert game.round_results == [(0, 0)]


def test_blank_lines_are_skipped_but_counted() -> None:
    lines = text(HAND_RECORD)
    lines[8:8] = ["", "   ", "\t"]
    assert list(replay(lines)) == HAND_SCORES
    lines[13] = json.dumps(play(0, "9C"))  # was line 11 before the blanks
    assert list(replay(lines))[-1]["Line"] == 14


def test_bytes_crlf_and_byte_order_mark() -> None:
    lines = [line.encode() + b"\r\n" for line in text(HAND_RECORD)]
    lines[0] = b"\xef\xbb\xbf" + lines[0]
    assert list(replay(lines)) == HAND_SCORES


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", ["a", "b"])
def test_selfplay_game_round_trips_seeded(players: int, seed: str) -> None:
    game = play_game(players, f"round-trip-{seed}")
    out = list(replay(record_lines(game)))
    assert [tuple(o["Score"]) for o in out if "Round" in o] == game.round_results
    assert [o["Round"] for o in out if "Round" in o] == list(range(1, game.round + 1))
    assert out[-1] == {
        "Type": "Score",
        "GameOver": True,
        "Winner": game.winner,
        "Score": list(game.scores),
    }


def _without(objs: list[dict[str, Any]], kind: str, key: str) -> list[dict[str, Any]]:
    return [{k: v for k, v in o.items() if not (o["Type"] == kind and k == key)} for o in objs]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_record_without_decks_and_unseeded_record_with_decks(players: int) -> None:
    game = play_game(players, f"variants-{players}")
    objs = record_objects(game)
    assert objs[0]["Seed"] == f"variants-{players}"
    assert all(len(o["Deck"]) == 53 for o in objs if o["Type"] == "Deal")
    expected = list(replay(text(objs)))
    assert expected[-1]["Winner"] == game.winner
    seed_only = _without(objs, "Deal", "Deck")
    decks_only = _without(objs, "Record", "Seed")
    assert list(replay(text(seed_only))) == expected
    assert list(replay(text(decks_only))) == expected
    assert load_record(text(decks_only)).round_results == game.round_results


def test_unseeded_game_records_its_decks() -> None:
    game = Game(["x", "y", "z"])
    game.deal(seeded_deck("u", 0))
    for seat, amount in ((1, 0), (2, 15), (0, 0)):
        game.apply(seat, Bid(amount))
    objs = record_objects(game)
    assert "Seed" not in objs[0]
    assert objs[1] == deal(1, 0, format_cards(seeded_deck("u", 0)))
    assert objs[2:] == [bid(1, 0), bid(2, 15), bid(0, 0)]
    assert list(replay(text(objs))) == []  # unfinished round: nothing completed


def test_random_play_with_pre_passes_round_trips() -> None:
    """Random legal moves from every seat, out-of-turn pre-passes and unpasses too."""
    seen: set[str] = set()
    for k in range(12):
        rng = random.Random(k)
        n = 2 + k % 3
        game = Game([f"p{i}" for i in range(n)], seed=f"random-{k}")
        for _ in range(400):
            if game.is_over:
                break
            seat = rng.randrange(n) if rng.random() < 0.4 else game.to_act
            assert seat is not None
            actions = game.legal_actions(seat)
            if actions:
                action = rng.choice(actions[:40])  # discards: the small subsets
                seen.add(type(action).__name__ + ("" if seat == game.to_act else "*"))
                game.apply(seat, action)
        lines = record_lines(game)
        out = list(replay(lines))
        assert [tuple(o["Score"]) for o in out if "Round" in o] == game.round_results
        again = load_record(lines)
        assert again.history == game.history
        assert again.scores == game.scores
    assert {"Unpass*", "Bid*"} <= seen


def test_truncated_record_yields_what_it_completed() -> None:
    lines = text(HAND_RECORD)
    assert list(replay(lines[:1])) == []
    assert list(replay(lines[:6])) == HAND_SCORES[:1]
    assert list(replay(lines[:22])) == HAND_SCORES[:2]
    assert list(replay(lines[:30])) == HAND_SCORES[:2]  # mid-round
    assert list(replay(lines[:55])) == HAND_SCORES[:3]


@settings(max_examples=60, deadline=None)
@given(cut=st.integers(min_value=1, max_value=len(HAND_RECORD)))
def test_every_prefix_replays_a_prefix_of_the_scores(cut: int) -> None:
    out = list(replay(text(HAND_RECORD[:cut])))
    assert out == HAND_SCORES[: len(out)]
    game = load_record(text(HAND_RECORD[:cut]))
    assert [json.loads(line) for line in record_lines(game)][:cut] == HAND_RECORD[:cut]


def test_write_record_and_read_lines(tmp_path: Any) -> None:
    game = play_game(3, "file")
    path = tmp_path / "game.jsonl"
    write_record(game, path)
    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    assert b"\r" not in raw
    assert raw.decode().splitlines() == record_lines(game)
    assert load_record(read_lines(path)).round_results == game.round_results


def test_header_is_compact_and_first() -> None:
    line = record_lines(play_game(4, "h"))[0]
    assert line == (
        '{"Type":"Record","Game":"hundredandten","Version":1,'
        '"Players":["ann","bob","cy","dee"],"Seed":"h"}'
    )


# ------------------------------------------------------------------------- errors

HEADER = HAND_RECORD[0]


edit = Edits(text(HAND_RECORD))


def seeded(mutate: Any = None) -> list[str]:
    """A seeded 2-player game's record, ``mutate``d (a function of the objects)."""
    objs = record_objects(play_game(2, "errors"))
    if mutate is not None:
        mutate(objs)
    return text(objs)


def _swap_deck_cards(objs: list[dict[str, Any]]) -> None:
    deals = [o for o in objs if o["Type"] == "Deal"]
    cards = deals[1]["Deck"]
    cards[3], cards[40] = cards[40], cards[3]


def _deal_index(objs: list[dict[str, Any]], n: int) -> int:
    return [i for i, o in enumerate(objs) if o["Type"] == "Deal"][n]


def _seeded_second_deal_line() -> int:
    return _deal_index(record_objects(play_game(2, "errors")), 1) + 1


# (lines, expected Line, expected Code, a piece of the message that quotes the input)
ERROR_CASES: list[tuple[str, list[str], int, str, str]] = [
    ("bad_json", edit.replace(8, '{"Type":"Bid",'), 8, "bad_json", """'{"Type":"Bid",'"""),
    ("bad_json_text", edit.replace(3, "hello"), 3, "bad_json", "'hello'"),
    (
        "bad_utf8",
        [*(line.encode() for line in text(HAND_RECORD[:8])), b"\xff\xfe"],
        9,
        "bad_json",
        "xff",
    ),
    ("not_an_object", edit.replace(8, "[1, 2]"), 8, "bad_record", "[1, 2]"),
    ("missing_type", edit.replace(8, {"Playerid": 1}), 8, "bad_record", '"Type"'),
    ("type_not_string", edit.replace(8, {"Type": 5}), 8, "bad_record", "5"),
    ("missing_playerid", edit.without_field(8, "Playerid"), 8, "bad_record", '"Playerid"'),
    (
        "bid_is_bool",
        edit.with_field(8, Bid=True),
        8,
        "bad_record",
        '"Bid" must be an integer, got true',
    ),
    ("bid_is_string", edit.with_field(8, Bid="20"), 8, "bad_record", '"20"'),
    ("playerid_bool", edit.with_field(8, Playerid=True), 8, "bad_record", "true"),
    ("playerid_float", edit.with_field(8, Playerid=1.0), 8, "bad_record", "1.0"),
    ("cards_not_list", edit.with_field(11, Cards="9H"), 11, "bad_record", '"9H"'),
    ("cards_not_strings", edit.with_field(11, Cards=[9]), 11, "bad_record", "[9]"),
    ("trump_not_string", edit.with_field(10, Trump=None), 10, "bad_record", "null"),
    ("card_not_string", edit.with_field(13, PlayedCard=5), 13, "bad_record", "5"),
    ("deck_not_list", edit.with_field(7, Deck="5D"), 7, "bad_record", '"5D"'),
    ("round_missing", edit.without_field(7, "Round"), 7, "bad_record", '"Round"'),
    ("dealer_bool", edit.with_field(7, Dealer=False), 7, "bad_record", "false"),
    ("players_not_list", edit.with_field(1, Players="ann"), 1, "bad_record", '"ann"'),
    ("players_not_names", edit.with_field(1, Players=["ann", 2]), 1, "bad_record", '["ann", 2]'),
    ("version_string", edit.with_field(1, Version="1"), 1, "bad_record", '"1"'),
    ("version_bool", edit.with_field(1, Version=True), 1, "bad_record", "true"),
    ("game_missing", edit.without_field(1, "Game"), 1, "bad_record", '"Game"'),
    ("seed_not_string", edit.with_field(1, Seed=7), 1, "bad_record", "7"),
    ("unknown_type", edit.replace(8, {"Type": "Score", "Round": 1}), 8, "unknown_type", '"Score"'),
    ("unknown_game", edit.with_field(1, Game="chess"), 1, "unknown_game", '"chess"'),
    ("bad_version", edit.with_field(1, Version=2), 1, "bad_version", "2"),
    ("bad_players", edit.with_field(1, Players=["ann"]), 1, "bad_players", "1"),
    ("too_many_players", edit.with_field(1, Players=list("abcde")), 1, "bad_players", "5"),
    ("duplicate_name", edit.with_field(1, Players=["ann", "ann"]), 1, "duplicate_name", "'ann'"),
    ("missing_header", text(HAND_RECORD[1:]), 1, "missing_header", '"Deal"'),
    ("empty_record", [], 1, "missing_header", "empty"),
    ("only_blank_lines", ["", " "], 3, "missing_header", "empty"),
    ("unexpected_header", edit.insert(3, HEADER), 3, "unexpected_header", "Record"),
    ("bad_seat", edit.with_field(8, Playerid=5), 8, "bad_seat", "5"),
    ("bad_seat_negative", edit.with_field(8, Playerid=-1), 8, "bad_seat", "-1"),
    ("bad_card_play", edit.with_field(13, PlayedCard="1X"), 13, "bad_card", "'1X'"),
    ("bad_card_discard", edit.with_field(11, Cards=["9H", "ZZ"]), 11, "bad_card", "'ZZ'"),
    ("bad_card_deck", edit.with_field(2, Deck=["2H", "XX"]), 2, "bad_card", "'XX'"),
    ("bad_suit", edit.with_field(10, Trump="X"), 10, "bad_suit", "'X'"),
    ("wrong_dealer", edit.with_field(23, Dealer=0), 23, "wrong_dealer", "Dealer 0"),
    ("wrong_dealer_repeat", edit.with_field(7, Dealer=1), 7, "wrong_dealer", "Dealer 1"),
    ("wrong_dealer_first", edit.with_field(2, Dealer=3), 2, "wrong_dealer", "Dealer 3"),
    ("wrong_round", edit.with_field(7, Round=3), 7, "wrong_round", "Round 3"),
    ("wrong_round_first", edit.with_field(2, Round=0), 2, "wrong_round", "Round 0"),
    ("missing_deck", edit.without_field(2, "Deck"), 2, "missing_deck", "round 1"),
    (
        "deck_mismatch",
        seeded(_swap_deck_cards),
        _seeded_second_deal_line(),
        "deck_mismatch",
        '"errors"',
    ),
    ("missing_deal_first", edit.replace(2, ""), 3, "missing_deal", "Bid"),
    ("missing_deal", edit.delete(23), 23, "missing_deal", "round 3"),
    ("unexpected_deal", edit.insert(8, HAND_RECORD[6]), 8, "unexpected_deal", "Round 2"),
    (
        "unexpected_deal_mid_round",
        edit.insert(14, HAND_RECORD[22]),
        14,
        "unexpected_deal",
        "Round 3",
    ),
    ("game_over", [*text(HAND_RECORD), json.dumps(bid(1, 15))], 57, "game_over", "line 56"),
    (
        "game_over_unpass",
        [*text(HAND_RECORD), '{"Type":"Unpass","Playerid":1}'],
        57,
        "game_over",
        "",
    ),
    ("game_over_deal", [*text(HAND_RECORD), json.dumps(HAND_RECORD[1])], 57, "game_over", ""),
    ("not_your_turn", edit.replace(8, bid(0, 20)), 8, "not_your_turn", "seat 0"),
    ("not_your_turn_play", edit.replace(13, play(1, "JD")), 13, "not_your_turn", "seat 1"),
    ("illegal_bid_amount", edit.with_field(8, Bid=17), 8, "illegal_bid", "17"),
    ("illegal_bid_low", edit.replace(26, bid(0, 15)), 26, "illegal_bid", "15"),
    ("must_bleed", edit.replace(14, play(1, "8S")), 14, "must_bleed", "8S"),
    ("not_in_hand", edit.replace(13, play(0, "9C")), 13, "not_in_hand", "9C"),
    ("not_in_hand_discard", edit.with_field(11, Cards=["9C"]), 11, "not_in_hand", "9C"),
    ("duplicate_card", edit.with_field(11, Cards=["9H", "9H"]), 11, "duplicate_card", "9H"),
    ("bad_deck_short", edit.with_field(2, Deck=format_cards(ALL_CARDS[:52])), 2, "bad_deck", "52"),
    ("bad_deck_repeat", edit.with_field(2, Deck=["2H"] * 53), 2, "bad_deck", "53 cards (1"),
    ("wrong_phase", edit.replace(8, trump(1, "H")), 8, "wrong_phase", "bidding"),
    ("already_passed", edit.delete(4), 4, "already_passed", "seat 0"),
    (
        "not_pre_passed",
        edit.replace(4, {"Type": "Unpass", "Playerid": 1}),
        4,
        "not_pre_passed",
        "1",
    ),
]


def test_every_documented_code_is_tested() -> None:
    tested = {case[3] for case in ERROR_CASES}
    # bad_action cannot come from a record: every line decodes to an engine action.
    assert tested | {"bad_action"} == set(games.get("hundredandten").record_codes)
    assert set(games.get("hundredandten").record_codes) <= set(ERROR_CODES)


def test_deck_matching_the_seed_is_accepted() -> None:
    game = play_game(2, "errors")
    assert list(replay(seeded())) == list(replay(record_lines(game)))


def test_lone_surrogate_in_input_gives_an_encodable_message() -> None:
    for line, code in (('{"Type":"\\ud800"}', "unknown_type"), ('"\\udfff"', "bad_record")):
        out = list(replay(edit.replace(10, line)))
        assert out[-1]["Code"] == code
        dumps_line(out[-1]).encode("utf-8")
        assert "\\ud" in out[-1]["Message"]


def test_long_bad_input_is_quoted_short() -> None:
    out = list(replay(edit.replace(8, "x" * 10_000)))
    assert out[-1]["Code"] == "bad_json"
    assert len(out[-1]["Message"]) < 200


# ----------------------------------------------------------------- mutated records

_FIELDS = ("Type", "Playerid", "Bid", "Trump", "Cards", "PlayedCard", "Deck", "Round")
_FIELDS += ("Dealer", "Players", "Version", "Game", "Seed")
_any_text = st.text(st.characters(exclude_categories=()), max_size=5)  # surrogates too
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | _any_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_any_text, inner),
    max_leaves=6,
)
_mutation = st.one_of(
    st.tuples(st.just("text"), st.integers(0, 60), st.text(st.characters(exclude_categories=()))),
    st.tuples(st.just("bytes"), st.integers(0, 60), st.binary(max_size=30)),
    st.tuples(
        st.just("field"),
        st.integers(0, 60),
        st.sampled_from(_FIELDS),
        _json_values,
    ),
    st.tuples(st.just("drop"), st.integers(0, 60)),
    st.tuples(st.just("copy"), st.integers(0, 60), st.integers(0, 60)),
    st.tuples(st.just("cut"), st.integers(0, 60), st.integers(0, 200)),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations=st.lists(_mutation, min_size=1, max_size=3))
def test_mutated_records_give_scores_or_one_clean_error(mutations: list[Any]) -> None:
    lines: list[str | bytes] = list(text(HAND_RECORD))
    for kind, at, *args in mutations:
        at %= len(lines) or 1
        if not lines:
            lines.append("")
        if kind in ("text", "bytes"):
            lines[at] = args[0]
        elif kind == "field":
            obj = dict(HAND_RECORD[at % len(HAND_RECORD)])
            obj[args[0]] = args[1]
            lines[at] = json.dumps(obj)
        elif kind == "drop":
            del lines[at]
        elif kind == "copy":
            lines.insert(args[0] % (len(lines) + 1), lines[at])
        else:
            line = lines[at]
            lines[at] = line[: args[0]]
    out = list(replay(lines))
    for obj in out[:-1]:
        assert obj["Type"] == "Score"
    if out and out[-1]["Type"] == "Error":
        error = out[-1]
        assert error["Code"] in ERROR_CODES
        assert 1 <= error["Line"] <= len(lines) + 1
        assert isinstance(error["Message"], str)
        assert error["Message"]
        dumps_line(error).encode("utf-8")  # always printable


def test_unknown_keys_are_ignored() -> None:
    objs = [{**o, "Comment": "later versions may add keys"} for o in HAND_RECORD]
    assert list(replay(text(objs))) == HAND_SCORES
