"""Spades: the rules checked against an oracle written apart from them (every trick's
winner, the lead rule, the scores recomputed from the bids and tricks), over random
full games; the wire's secrecy, records and replay, text mode and both AIs."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server import games
from hundred_server.ai.selfplay import play_game
from hundred_server.games.kit.cards import STANDARD_52, Card
from hundred_server.games.records import load_record, record_lines, replay
from hundred_server.games.spades.rules import BID_ACTIONS, Bid, Game, Phase, Play, side_points
from hundred_server.games.spades.strong import StrongBot, sampler
from hundred_server.games.spades.text import TEXT
from hundred_server.protocol.codecs.text import TextCodec
from hundred_server.protocol.errors import IllegalActionError

PLAYERS = ["ann", "bob", "cy", "dee"]
SPEC = games.get("spades")


def oracle_winner(plays: list[tuple[int, Card]]) -> int:
    """The seat of the highest spade, else of the highest card of the suit led."""
    spades = [(c.rank, s) for s, c in plays if c.suit is STANDARD_52[26].suit]
    led = plays[0][1].suit
    return max(spades or [(c.rank, s) for s, c in plays if c.suit is led])[1]


def oracle_side(bids: list[int], taken: list[int]) -> tuple[int, int]:
    """(points, new bags) of one side's hand, from RULES.md section Spades, point 4."""
    contract = sum(b for b in bids if b > 0)
    toward = sum(t for b, t in zip(bids, taken, strict=True) if b > 0)
    bags = sum(t for b, t in zip(bids, taken, strict=True) if b == 0)
    points = sum(100 if t == 0 else -100 for b, t in zip(bids, taken, strict=True) if b == 0)
    if toward >= contract:
        return points + 10 * contract + (toward - contract) + bags, bags + toward - contract
    return points - 10 * contract + bags, bags


def random_game(rnd: random.Random) -> tuple[Game, int]:
    """A full game of random legal actions, every rule checked as it goes; also how
    many hands it took."""
    game = SPEC.new_game(PLAYERS, None)
    scores, bags, hands = [0, 0], [0, 0], 0
    while not game.is_over:
        assert game.phase is Phase.DEAL
        assert game.needs_deal
        deck = list(STANDARD_52)
        rnd.shuffle(deck)
        game.deal(deck)
        hands += 1
        for seat in range(4):  # each holds every 4th card, from the dealer's left
            assert sorted(game.hand(seat)) == sorted(deck[(seat - game.dealer - 1) % 4 :: 4])
        bids = [0] * 4
        for k in range(4):
            seat = (game.dealer + 1 + k) % 4
            assert game.to_act == seat
            assert len(game.legal_actions(seat)) == 14
            bids[seat] = rnd.choice([0, 1, 2, 3, 4, 5, 13])
            game.apply(seat, BID_ACTIONS[bids[seat]])
        taken, broken, leader = [0] * 4, False, (game.dealer + 1) % 4
        for _ in range(13):
            plays: list[tuple[int, Card]] = []
            for k in range(4):
                seat = (leader + k) % 4
                assert game.to_act == seat
                hand = game.hand(seat)
                legal = {a.card for a in game.legal_actions(seat) if isinstance(a, Play)}
                if plays:
                    suited = {c for c in hand if c.suit is plays[0][1].suit}
                    assert legal == (suited or set(hand))
                else:
                    others = {c for c in hand if c.suit is not STANDARD_52[26].suit}
                    assert legal == (set(hand) if broken or not others else others)
                refused = sorted(set(hand) - legal)
                if refused:  # the engine refuses what the oracle says is not legal
                    code = "must_follow_suit" if plays else "spades_not_broken"
                    with pytest.raises(IllegalActionError) as error:
                        game.apply(seat, Play(rnd.choice(refused)))
                    assert error.value.code == code
                card = rnd.choice(sorted(legal))
                game.apply(seat, Play(card))
                plays.append((seat, card))
            leader = oracle_winner(plays)
            taken[leader] += 1
            broken = broken or any(c.suit is STANDARD_52[26].suit for _, c in plays)
        for side in (0, 1):
            points, new = oracle_side(bids[side::2], taken[side::2])
            bags[side] += new
            while bags[side] >= 10:
                points, bags[side] = points - 100, bags[side] - 10
            scores[side] += points
        assert game.scores == tuple(scores)
        assert game.bags == tuple(bags)
        over = scores[0] != scores[1] and (max(scores) >= 500 or min(scores) <= -200)
        assert game.is_over == over
    assert game.winner == (0 if scores[0] > scores[1] else 1)
    return game, hands


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_random_full_games_follow_the_rules(seed: int) -> None:
    random_game(random.Random(seed))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 13), min_size=2, max_size=2),
    st.lists(st.integers(0, 13), min_size=2, max_size=2),
)
def test_hand_points_match_the_oracle(bids: list[int], taken: list[int]) -> None:
    assert side_points(list(bids), taken) == oracle_side(bids, taken)


def test_scoring_examples() -> None:
    assert side_points([4, 3], [5, 3]) == (71, 1)  # made 7 with a bag
    assert side_points([4, 3], [2, 4]) == (-70, 0)  # set
    assert side_points([0, 5], [0, 6]) == (151, 1)  # nil made, contract made with a bag
    assert side_points([0, 5], [2, 4]) == (-148, 2)  # nil failed: its tricks are bags


def test_an_illegal_action_changes_nothing() -> None:
    game = SPEC.new_game(PLAYERS, "x")
    game.deal(SPEC.seeded_deck("x", 0))
    with pytest.raises(IllegalActionError) as error:
        game.apply(1, Play(game.hand(1)[0]))
    assert error.value.code == "wrong_phase"
    with pytest.raises(IllegalActionError) as error:
        game.apply(2, BID_ACTIONS[3])
    assert error.value.code == "not_your_turn"
    with pytest.raises(IllegalActionError) as error:
        Bid(14)
    assert error.value.code == "illegal_bid"
    for seat in (1, 2, 3, 0):
        game.apply(seat, BID_ACTIONS[3])
    hand = game.hand(1)
    spades = [c for c in hand if c.suit is STANDARD_52[26].suit]
    before = (game.view_for(1), list(game.history))
    if spades and len(spades) < len(hand):
        with pytest.raises(IllegalActionError) as error:
            game.apply(1, Play(spades[0]))
        assert error.value.code == "spades_not_broken"
    assert (game.view_for(1), list(game.history)) == before


def test_a_deal_tells_each_seat_only_its_own_hand() -> None:
    game = SPEC.new_game(PLAYERS, "x")
    events = game.deal(SPEC.seeded_deck("x", 0))
    told = SPEC.wire.tell(events, (0, 1, 2, 3, None), PLAYERS)
    for seat in range(4):
        assert told[seat] == [
            {"Type": "Deal", "Playerid": seat, "Hand": [c.code for c in game.hand(seat)],
             "Dealer": 0, "Round": 1, "Players": PLAYERS}
        ]  # fmt: skip
    assert told[None] == [{"Type": "Deal", "Dealer": 0, "Round": 1, "Players": PLAYERS}]
    watcher = SPEC.wire.snapshot(game, None, 7)
    assert "Hand" not in watcher
    assert "Playerid" not in watcher
    assert watcher["Bags"] == [0, 0]
    assert SPEC.wire.prompt(game, 1, 5) == {
        "Type": "Bid",
        "Playerid": 1,
        "Seq": 5,
        "Legal": list(range(14)),
    }
    assert SPEC.wire.prompt(game, 2, 5) == {"Type": "Bid", "Playerid": 1, "Seq": 5}


@pytest.mark.parametrize("seed", ["r1", "r2"])
def test_a_record_replays_to_the_same_game(seed: str) -> None:
    game = play_game(4, seed, game="spades")
    lines = record_lines(game)
    assert '"Seed"' not in lines[0]
    assert all('"Deck"' in line for line in lines if '"Deal"' in line)
    again = load_record(lines)
    assert (again.scores, again.winner, again.history) == (game.scores, game.winner, game.history)
    out = list(replay(lines))
    assert out[-1] == {
        "Type": "Score",
        "GameOver": True,
        "Winner": ["NS", "EW"][game.winner],
        "Score": list(game.scores),
    }
    assert sum(1 for o in out if "Hand" in o) == game.round


def test_text_mode_bids_and_scores() -> None:
    screen = TextCodec()
    deal = {
        "Type": "Deal",
        "Playerid": 0,
        "Hand": ["2H"],
        "Dealer": 3,
        "Round": 1,
        "Players": PLAYERS,
    }
    TEXT.render(deal, screen)
    assert TEXT.parse("nil", [], screen) == [{"Type": "Bid", "Bid": 0}]
    assert TEXT.parse("bid", ["4"], screen) == [{"Type": "Bid", "Bid": 4}]
    assert TEXT.render({"Type": "Bid", "Playerid": 1, "Bid": 0}, screen) == ["bob bids nil"]
    score = {"Type": "Score", "Round": 1, "Bids": [3, 0, 4, 2], "TricksTaken": [4, 1, 3, 5],
             "Points": [71, -73], "Bags": [1, 4], "Score": [71, -73]}  # fmt: skip
    assert TEXT.render(score, screen) == [
        "Hand 1: taken/bid you 4/3, bob 1/nil, cy 3/4, dee 5/2.",
        "  Points: North-South (you and cy) 71, East-West (bob and dee) -73; bags: "
        "North-South (you and cy) 1, East-West (bob and dee) 4. Scores: North-South (you and "
        "cy) 71, East-West (bob and dee) -73",
    ]


def test_the_bots_choose_legal_actions_and_strong_is_deterministic() -> None:
    game = SPEC.new_game(PLAYERS, "b")
    game.deal(SPEC.seeded_deck("b", 0))
    naive = SPEC.bots["naive"]()
    while game.phase is Phase.BIDDING:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, naive.act(game.view_for(seat)))
    for _ in range(20):
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        first = StrongBot(seed=1, budget=None).act(view)
        assert first in view.legal
        assert first == StrongBot(seed=1, budget=None).act(view)
        game.apply(seat, first)


def test_the_lead_and_follow_rules_refuse_with_their_codes() -> None:
    game = SPEC.new_game(PLAYERS, None)
    game.deal(list(STANDARD_52))  # seat 1 holds every 4th card from the first: all suits
    for seat in (1, 2, 3, 0):
        game.apply(seat, BID_ACTIONS[3])
    spade = next(c for c in game.hand(1) if c.suit is STANDARD_52[26].suit)
    with pytest.raises(IllegalActionError) as error:
        game.apply(1, Play(spade))
    assert (error.value.code, str(error.value)) == (
        "spades_not_broken",
        f"spades are not broken: seat 1 may not lead {spade}",
    )
    with pytest.raises(IllegalActionError) as error:
        game.apply(1, Play(game.hand(2)[0]))
    assert error.value.code == "not_in_hand"
    heart = game.hand(1)[0]
    game.apply(1, Play(heart))
    off = next(c for c in game.hand(2) if c.suit is not heart.suit)
    before = (game.view_for(2), list(game.history))
    with pytest.raises(IllegalActionError) as error:
        game.apply(2, Play(off))
    assert (error.value.code, str(error.value)) == (
        "must_follow_suit",
        f"{heart} was led: seat 2 holds hearts and must follow suit, not play {off}",
    )
    assert (game.view_for(2), list(game.history)) == before


def test_the_sampler_keeps_to_a_spade_led_before_spades_are_broken() -> None:
    """Seat 1 is dealt all thirteen spades, so it leads one at once: it held nothing
    else, and every deal drawn for seat 2 gives it the twelve spades left."""
    spade_suit = STANDARD_52[26].suit
    spades = [c for c in STANDARD_52 if c.suit is spade_suit]
    others = [c for c in STANDARD_52 if c.suit is not spade_suit]
    game = SPEC.new_game(PLAYERS, None)
    game.deal([spades.pop() if i % 4 == 0 else others.pop() for i in range(52)])
    for seat in (1, 2, 3, 0):
        game.apply(seat, BID_ACTIONS[3])
    led = game.hand(1)[0]
    game.apply(1, Play(led))
    left = sorted(int(c) for c in game.hand(1))
    assert len(left) == 12
    drawing = sampler(game.view_for(2))
    for k in range(20):
        assert sorted(drawing.sample(random.Random(k))[1]) == left
