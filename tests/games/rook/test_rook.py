"""The Rook engine (games/rook/rules.py): every rule and error code on explicit decks,
hand-checked deals with their scores worked out in the comments, and random full games
of every table size as an oracle."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hundred_server.games.rook.cards import BIRD, ROOK_DECK, Colour, RookCard, parse_cards
from hundred_server.games.rook.rules import (
    BID_ACTIONS,
    HAND_SIZES,
    KITTY,
    MOON,
    Bid,
    BidMade,
    Dealt,
    Event,
    Game,
    GameWon,
    HandScored,
    KittyTaken,
    Phase,
    Play,
    Played,
    Setup,
    SetupMade,
    StuckDealer,
    TrickWon,
    View,
    calls_for,
    card_points,
    game_winner,
    hand_score,
    legal_bids,
    seeded_deck,
    sort_hand,
    trick_winner,
)
from hundred_server.protocol.errors import CardCodeError, IllegalActionError
from tests.support.rook_decks import (
    FOUR_COLOURS,
    NAMES,
    THREE_MOON_FAILS,
    THREE_MOON_MADE,
    play_out,
)

R = RookCard.parse
B = BID_ACTIONS


def cards(*codes: str) -> tuple[RookCard, ...]:
    return tuple(parse_cards(codes))


def setup(discard: str, trump: str, partners: str = "") -> Setup:
    return Setup(cards(*discard.split()), Colour.parse(trump), cards(*partners.split()))


def game_of(n: int, deck: list[RookCard] | None = None) -> Game:
    game = Game(NAMES[:n])
    game.deal(deck if deck is not None else seeded_deck("t", 0))
    return game


def bids(game: Game, *amounts: int) -> list[Event]:
    events: list[Event] = []
    for amount in amounts:
        seat = game.to_act
        assert seat is not None
        events += game.apply(seat, B[amount])
    return events


def scored(events: list[Event]) -> HandScored:
    (score,) = [e for e in events if isinstance(e, HandScored)]
    return score


def refused(act: Callable[..., object], *args: Any) -> str:
    """The code of the IllegalActionError that ``act(*args)`` raises."""
    with pytest.raises(IllegalActionError) as caught:
        act(*args)
    return caught.value.code


def state(game: Game) -> tuple[object, ...]:
    """Everything an illegal action must leave alone."""
    return (
        [game.view_for(s) for s in range(game.num_players)],
        list(game.history),
        game.phase,
        game.to_act,
        list(game.discard),
        dict(game.called_holders),
    )


# ------------------------------------------------------------------ cards and deals


def test_points_and_ranks() -> None:
    assert card_points(ROOK_DECK) + 20 == 200  # the last trick's 20 makes 200
    assert card_points(cards("B5", "G10", "R14", "Y1", "ROOK")) == 5 + 10 + 10 + 15 + 20
    assert card_points(cards("B6", "B7", "B8", "B9", "B11", "B12", "B13")) == 0
    assert sort_hand(cards("ROOK", "Y5", "B14", "B1", "G5", "R13")) == cards(
        "B1", "B14", "G5", "R13", "Y5", "ROOK"
    )
    assert [calls_for(n) for n in (3, 4, 5, 6)] == [0, 1, 1, 2]
    assert KITTY == {3: 6, 4: 5, 5: 5, 6: 3}
    assert HAND_SIZES == {3: 13, 4: 10, 5: 8, 6: 7}


def test_the_deal_is_one_at_a_time_from_the_dealers_left_and_the_last_cards_the_kitty() -> None:
    deck = list(ROOK_DECK)
    for n in (3, 4, 5, 6):
        game = Game(NAMES[:n])
        (dealt,) = game.deal(deck)
        assert isinstance(dealt, Dealt)
        size = HAND_SIZES[n]
        for seat in range(n):
            # Seat 1 (left of dealer 0) takes deck[0], deck[n], ...
            mine = deck[(seat - 1) % n : n * size : n]
            assert dealt.hands[seat] == sort_hand(mine)
        assert game.kitty == tuple(deck[n * size :])
        assert dealt.kitty_size == KITTY[n] == len(game.kitty)
        assert game.to_act == 1  # bidding starts left of the dealer


def test_the_deal_passes_left() -> None:
    game = game_of(4, FOUR_COLOURS)
    bids(game, 0, 80, 0, 0)
    game.apply(2, setup("B5 G5 Y5 R6 R7", "R", "B1"))
    play_out(game)
    assert (game.dealer, game.phase, game.to_act) == (1, Phase.DEAL, None)
    game.deal(seeded_deck("t", 1))
    assert game.to_act == 2


# ------------------------------------------------------------------ bidding


def test_legal_bids_top_the_high_bid_in_fives_and_the_moon_is_always_open() -> None:
    assert [b.amount for b in legal_bids(0)] == [0, *range(80, 205, 5), MOON]
    assert [b.amount for b in legal_bids(190)] == [0, 195, 200, MOON]
    assert [b.amount for b in legal_bids(200)] == [0, MOON]


def test_bidding_goes_round_skipping_passes_until_one_holds_the_high_bid() -> None:
    game = game_of(4)
    assert game.legal_actions(1)[:3] == (B[0], B[80], B[85])
    assert game.legal_actions(2) == ()  # not its turn
    bids(game, 80, 0, 85)  # seats 1, 2, 3
    assert game.to_act == 0
    bids(game, 0)  # seat 0 passes
    assert game.to_act == 1  # seat 2 passed: skipped after seat 1
    events = bids(game, 90)
    assert game.to_act == 3
    events = bids(game, 0)  # seat 3 passes: seat 1 alone holds the high bid
    assert events[0] == BidMade(3, 0)
    kitty = events[1]
    assert isinstance(kitty, KittyTaken)
    assert (game.phase, game.to_act, game.bidder, game.bid) == (Phase.SETUP, 1, 1, 90)
    assert kitty.seat == 1
    assert kitty.calls == 1
    assert len(kitty.cards) == 5
    assert kitty.hand == game.hand(1)
    assert len(kitty.hand) == 15


def test_a_seat_left_alone_without_a_bid_still_acts() -> None:
    game = game_of(4)
    bids(game, 0, 0, 0)  # seats 1, 2, 3 pass; seat 0 has not bid
    assert (game.phase, game.to_act) == (Phase.BIDDING, 0)
    assert game.legal_actions(0) == legal_bids(0)
    bids(game, 100)
    assert (game.phase, game.bidder, game.bid) == (Phase.SETUP, 0, 100)


def test_everyone_passes_and_the_dealer_is_the_bidder_at_80() -> None:
    game = game_of(4)
    events = bids(game, 0, 0, 0, 0)
    assert events[4] == StuckDealer(0, 80)
    assert isinstance(events[5], KittyTaken)
    assert (game.bidder, game.bid, game.to_act) == (0, 80, 0)


def test_the_moon_ends_bidding_at_once_with_no_partner_to_call() -> None:
    game = game_of(6)
    events = bids(game, 80, MOON)
    assert events[1] == BidMade(2, MOON)
    assert (game.phase, game.bidder, game.bid, game.moon, game.calls) == (
        Phase.SETUP,
        2,
        MOON,
        True,
        0,
    )
    game.apply(2, Setup(tuple(game.hand(2)[:3]), Colour.RED, ()))


def test_a_bid_must_top_the_high_bid_and_be_80_to_200_in_fives() -> None:
    for amount in (5, 79, 83, 205, 60, 399, -80, True):
        assert refused(Bid, amount) == "illegal_bid"
    game = game_of(4)
    bids(game, 120)
    before = state(game)
    for amount in (120, 115, 80):
        assert refused(game.apply, 2, B[amount]) == "illegal_bid"
    assert state(game) == before


# ------------------------------------------------------------------ setup


def test_setup_errors_and_all_or_nothing() -> None:
    game = game_of(4, FOUR_COLOURS)
    bids(game, 0, 80, 0, 0)  # seat 2 (all red) takes the kitty: B5 G5 R5 Y5 ROOK
    reds = [f"R{n}" for n in (1, 14, 13, 12, 11, 10, 9, 8, 7, 6)]
    assert game.hand(2) == sort_hand(cards(*reds, "B5", "G5", "R5", "Y5", "ROOK"))
    before = state(game)
    wrong = [
        (setup("B5 G5 Y5 R6", "R", "B1"), "bad_discard"),  # four, not five
        (setup("B5 G5 Y5 R6 R7 R8", "R", "B1"), "bad_discard"),
        (setup("B5 G5 Y5 R6 R6", "R", "B1"), "bad_discard"),  # R6 twice
        (setup("B5 G5 Y5 R6 B6", "R", "B1"), "not_in_hand"),  # B6 is seat 0's
        (setup("B5 G5 Y5 R6 R7", "R", ""), "bad_partners"),  # one call is due
        (setup("B5 G5 Y5 R6 R7", "R", "B1 G1"), "bad_partners"),
    ]
    for action, code in wrong:
        assert refused(game.apply, 2, action) == code, action
        assert state(game) == before
    assert refused(game.apply, 1, setup("B5 G5 Y5 R6 R7", "R", "B1")) == "not_your_turn"
    assert refused(game.apply, 2, Play(R("R1"))) == "wrong_phase"
    assert refused(game.apply, 2, B[85]) == "wrong_phase"
    assert refused(Setup, cards("B5"), "R", ()) == "bad_suit"  # type: ignore[arg-type]
    with pytest.raises(CardCodeError):
        Setup(("B5",), Colour.RED, ())  # type: ignore[arg-type]
    assert state(game) == before
    # Calling your own card or one you discard is allowed (it makes no partner).
    events = game.apply(2, setup("B5 G5 Y5 R6 R7", "R", "B5"))
    (made,) = [e for e in events if isinstance(e, SetupMade)]
    assert made.points_in_discard is True
    assert made.discard == cards("B5", "G5", "R7", "R6", "Y5")
    assert len(made.hand) == 10
    assert game.called_holders == {}


def test_sample_setups_are_legal_one_per_colour() -> None:
    for n in (3, 4, 5, 6):
        game = game_of(n)
        bids(game, *([0] * n))
        samples = game.legal_actions(game.dealer)
        assert [s.trump for s in samples] == list(Colour)
        for sample in samples:
            assert isinstance(sample, Setup)
            assert len(sample.discard) == KITTY[n]
            assert len(sample.partners) == calls_for(n)
        game.apply(game.dealer, samples[2])
        assert game.trump is Colour.RED


# ------------------------------------------------------------------ tricks


def test_the_bird_is_the_lowest_trump_and_counts_as_trump_led() -> None:
    red = Colour.RED
    assert trick_winner([(0, R("ROOK")), (1, R("G1"))], red) == (0, BIRD)
    assert trick_winner([(0, R("G1")), (1, R("ROOK"))], red) == (1, BIRD)
    assert trick_winner([(0, R("ROOK")), (1, R("R5"))], red) == (1, R("R5"))
    assert trick_winner([(0, R("G5")), (1, R("G1")), (2, R("G14"))], red) == (1, R("G1"))
    assert trick_winner([(0, R("G5")), (1, R("B1")), (2, R("Y14"))], red) == (0, R("G5"))
    assert trick_winner([(0, R("G5")), (1, R("R6")), (2, R("R5"))], red) == (1, R("R6"))


def test_follow_the_colour_led_the_bird_being_trump() -> None:
    game = game_of(4, FOUR_COLOURS)
    bids(game, 0, 80, 0, 0)
    game.apply(2, setup("B5 G5 Y5 R6 R7", "R", "B1"))
    assert game.to_act == 2  # the bidder leads
    # Seat 2 holds reds and the bird: any card leads.
    assert len(game.legal_actions(2)) == 10
    game.apply(2, Play(R("ROOK")))  # the bird led: trump (red) led
    # Seat 3 holds yellows only: anything.
    assert [a.card.code for a in game.legal_actions(3)] == [
        f"Y{n}" for n in (1, 14, 13, 12, 11, 10, 9, 8, 7, 6)
    ]  # type: ignore[union-attr]
    before = state(game)
    assert refused(game.apply, 3, Play(R("B1"))) == "not_in_hand"
    assert refused(game.apply, 0, Play(R("B1"))) == "not_your_turn"
    assert state(game) == before


def test_must_follow_suit() -> None:
    game = game_of(3, THREE_MOON_FAILS)
    bids(game, MOON)
    game.apply(1, setup("G13 G9 G8 G7 G6 G5", "Y"))
    game.apply(1, Play(R("G12")))
    # Seat 2 (reds, Y11, Y10) has no green: anything. Seat 0 holds G1 and G14.
    assert len(game.legal_actions(2)) == 13
    game.apply(2, Play(R("Y11")))
    assert [a.card.code for a in game.legal_actions(0)] == ["G1", "G14"]  # type: ignore[union-attr]
    before = state(game)
    assert refused(game.apply, 0, Play(R("B1"))) == "must_follow_suit"
    assert state(game) == before


# ------------------------------------------------------------------ hand-checked hands


def test_a_made_bid_with_a_partner_revealed() -> None:
    # Four players, each one colour but its 5 (seat 0 black, 1 green, 2 red, 3 yellow);
    # the kitty B5 G5 R5 Y5 ROOK. Seat 2 bids 80 and the others pass. It discards B5 G5
    # Y5 R6 R7 (15 points: PointsInDiscard), names red and calls B1, which seat 0 holds.
    # It leads its reds high to low and the bird; the others, void, play their cards
    # high to low. Seat 2 wins every trick: R1 Y1 B1 G1 60, the 14s 40, the 10s 40, R5
    # Y7 B7 G7 5, the bird trick 20 + the last trick's 20 + the discard's 15 = 55: 200.
    # The side is seats 0 and 2 (B1 revealed seat 0 on trick 1): 200 >= 80, each scores
    # 200; the opposition (1 and 3) took nothing, so each scores 0.
    game = game_of(4, FOUR_COLOURS)
    bids(game, 0, 80, 0, 0)
    game.apply(2, setup("B5 G5 Y5 R6 R7", "R", "B1"))
    events = play_out(game)
    reveals = [e for e in events if isinstance(e, Played) and e.partner]
    assert reveals == [Played(0, R("B1"), True)]
    assert [e.seat for e in events if isinstance(e, TrickWon)] == [2] * 10
    score = scored(events)
    assert score == HandScored(
        1, 2, 80, (0, 2), True, (0, 0, 200, 0), (200, 0, 200, 0), (200, 0, 200, 0)
    )
    assert game.scores == (200, 0, 200, 0)


def test_a_failed_bid_costs_each_member_the_bid() -> None:
    # The same deal; seat 2 names green (seat 1's colour) and calls B1 (seat 0). Seat 1
    # trumps: trick 1 R1 Y1 B1 G1 60 to seat 1 (G1 is trump); then seat 1 leads its
    # greens: G14 takes the bird (the lowest trump) Y14 B14: 50; G13 R14 Y13 B13: 10;
    # G12...: 0; G11: 0; G10 R11 Y10 B10: 30; G9 R10 Y9 B9: 10; G8: 0; G7: 0; G6 R5 Y6
    # B6: 5 + the last trick's 20 + the discard's 15 = 40. Seat 1 took all 200. The side
    # (0, 2) took 0 < 80: each scores -80; the opposition (1, 3) took 200: each +200.
    game = game_of(4, FOUR_COLOURS)
    bids(game, 0, 80, 0, 0)
    game.apply(2, setup("B5 G5 Y5 R6 R7", "G", "B1"))
    score = scored(play_out(game))
    assert score.taken == (0, 200, 0, 0)
    assert (score.side, score.made, score.points) == ((0, 2), False, (-80, 200, -80, 200))


def test_a_called_card_the_bidder_holds_makes_no_partner() -> None:
    # As the made bid, but seat 2 calls its own R1: it plays alone, and scores 200.
    game = game_of(4, FOUR_COLOURS)
    bids(game, 0, 80, 0, 0)
    game.apply(2, setup("B5 G5 Y5 R6 R7", "R", "R1"))
    events = play_out(game)
    assert not any(isinstance(e, Played) and e.partner for e in events)
    score = scored(events)
    assert (score.side, score.points) == ((2,), (0, 0, 200, 0))


def test_all_pass_the_dealer_plays_at_80_and_calls_a_card_in_the_discard() -> None:
    # Everyone passes: seat 0 (the dealer, all black but B5) takes B5 G5 R5 Y5 ROOK at
    # 80, discards G5 R5 Y5 B6 B7 (15 points), names black and calls R5, which it has
    # just discarded: no partner. Its blacks and the bird take every trick: B1 G1 R1 Y1
    # 60, the 14s 40, the 10s 40, B5 and the 7s 5, the bird and the 6s 20 + 20 + 15: 200.
    game = game_of(4, FOUR_COLOURS)
    events = bids(game, 0, 0, 0, 0)
    assert StuckDealer(0, 80) in events
    game.apply(0, setup("G5 R5 Y5 B6 B7", "B", "R5"))
    score = scored(play_out(game))
    assert (score.bidder, score.bid, score.side, score.made) == (0, 80, (0,), True)
    assert (score.taken, score.points) == ((200, 0, 0, 0), (200, 0, 0, 0))


def test_a_moon_that_fails() -> None:
    # Three players (13 cards, kitty 6, no calls). Seat 1 shoots the moon, takes Y9 Y8 Y7
    # Y6 Y5 ROOK, discards G13 G9 G8 G7 G6 G5 (G5: points) and names yellow.
    # Trick 1: Y1 Y10 B5 to seat 1 (30); 2: Y14 Y11 B6 (10); 3: G12 R5 G1: seat 0 takes
    # it with G1 (20): the moon has failed. Then first cards: 4: B1 G11 R1 to seat 0
    # (30); 5: B14 G10 R14 (30); 6: B13 Y13 R13 seat 1 trumps (0); 7: Y12 R12 B12 (0);
    # 8: Y9 R11 B11 (0); 9: Y8 R10 B10 (20); 10: Y7 R9 B9 (0); 11: Y6 R8 B8 (0);
    # 12: Y5 R7 B7 (5); 13: ROOK R6 G14 (30) + the last trick's 20 + the discard's 5.
    # Seat 0 took 20 + 30 + 30 = 80, seat 1 30 + 10 + 20 + 5 + 55 = 120, seat 2 0.
    # The moon fails: seat 1 -400; the opposition (0, 2) took 80: each scores 80.
    game = game_of(3, THREE_MOON_FAILS)
    bids(game, MOON)
    game.apply(1, setup("G13 G9 G8 G7 G6 G5", "Y"))
    events = play_out(game, ["Y1", "Y10", "B5", "Y14", "Y11", "B6", "G12", "R5", "G1"])
    score = scored(events)
    assert [e.seat for e in events if isinstance(e, TrickWon)] == [1, 1, 0, 0, 0] + [1] * 8
    assert score == HandScored(
        1, 1, MOON, (1,), False, (80, 120, 0), (80, -400, 80), (80, -400, 80)
    )
    assert score.is_moon


def test_a_moon_that_is_made_scores_400() -> None:
    # Seat 1 holds eight yellows and G1 G14 G13 G12 G11; it moons, takes Y7 Y6 Y5 ROOK
    # G10 G9, discards its greens but the 1 and names yellow: G1 (led first: its hand
    # order) takes a trick nobody can trump, then its twelve trumps. Every trick is its:
    # +400; the opposition took nothing: 0 each.
    game = game_of(3, THREE_MOON_MADE)
    bids(game, MOON)
    game.apply(1, setup("G14 G13 G12 G11 G10 G9", "Y"))
    score = scored(play_out(game))
    assert (score.made, score.taken, score.points) == (True, (0, 200, 0), (0, 400, 0))


def test_two_called_cards_one_holder_is_one_partner() -> None:
    game = Game(NAMES[:6])
    game.deal(seeded_deck("two-calls", 0))
    bids(game, 80, *([0] * 5))  # seat 1 bids, the rest pass
    assert game.bidder == 1
    assert game.calls == 2
    holder = 4
    called = game.hand(holder)[:2]
    with pytest.raises(IllegalActionError) as caught:
        game.apply(1, Setup(game.hand(1)[:3], Colour.RED, (called[0], called[0])))
    assert caught.value.code == "bad_partners"
    assert "twice" in caught.value.message
    game.apply(1, Setup(game.hand(1)[:3], Colour.RED, called))
    assert game.called_holders == {called[0]: holder, called[1]: holder}
    events = play_out(game)
    reveals = [e for e in events if isinstance(e, Played) and e.partner]
    assert [e.seat for e in reveals] == [holder]
    score = scored(events)
    assert score.side == (1, holder)
    assert sum(score.taken) == 200


def test_hand_score_rules() -> None:
    # A made bid: the side's points to each member, the opposition's to each of them.
    assert hand_score([50, 30, 20, 100], 80, (1, 3), False) == ((70, 130, 70, 130), True)
    assert hand_score([50, 30, 20, 100], 135, (1, 3), False) == ((70, -135, 70, -135), False)
    assert hand_score([0, 200, 0], MOON, (1,), True) == ((0, 400, 0), True)
    assert hand_score([0, 200, 0], MOON, (1,), False) == ((0, -400, 0), False)


def test_the_game_ends_at_500_with_the_highest_and_a_tie_deals_again() -> None:
    assert game_winner((499, 0, 0)) is None
    assert game_winner((500, 0, 0)) == 0
    assert game_winner((510, 505, 600)) == 2
    assert game_winner((520, 520, 0)) is None
    # The made bid above gives seats 0 and 2 200 each.
    for start, winner in (((300, 0, 300, 0), None), ((300, 0, 310, 0), 2)):
        game = game_of(4, FOUR_COLOURS)
        game.scores = start
        bids(game, 0, 80, 0, 0)
        game.apply(2, setup("B5 G5 Y5 R6 R7", "R", "B1"))
        events = play_out(game)
        assert game.winner == winner
        if winner is None:
            assert game.scores == (500, 0, 500, 0)
            assert game.phase is Phase.DEAL
        else:
            assert events[-1] == GameWon(2, (500, 0, 510, 0))
            assert game.is_over
            assert game.to_act is None
            assert refused(game.apply, 0, B[0]) == "game_over"


# ------------------------------------------------------------------ refusals


def test_players_seats_actions_and_decks() -> None:
    for players in (["a", "b"], list("abcdefg")):
        assert refused(Game, players) == "bad_players"
    assert refused(Game, ["a", "b", "a"]) == "duplicate_name"
    game = Game(NAMES[:3])
    for deck in (list(ROOK_DECK[:44]), [*ROOK_DECK[:44], ROOK_DECK[0]], ["B1"] * 45):
        assert refused(game.deal, deck) == "bad_deck"  # type: ignore[arg-type]
    assert refused(game.apply, 0, B[0]) == "wrong_phase"
    game.deal(list(ROOK_DECK))
    assert refused(game.deal, list(ROOK_DECK)) == "wrong_phase"
    for seat in (-1, 3, "0"):
        assert refused(game.apply, seat, B[0]) == "bad_seat"  # type: ignore[arg-type]
    assert refused(game.apply, 1, "pass") == "bad_action"  # type: ignore[arg-type]
    assert refused(game.apply, 2, B[80]) == "not_your_turn"
    with pytest.raises(CardCodeError):
        Play("B1")  # type: ignore[arg-type]


# ------------------------------------------------------------------ views


def test_views_show_no_finished_trick_but_remember_it() -> None:
    game = game_of(4, FOUR_COLOURS)
    bids(game, 0, 80, 0, 0)
    game.apply(2, setup("B5 G5 Y5 R6 R7", "R", "B1"))
    for code in ("R1", "Y1", "B1", "G1", "R14"):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, Play(R(code)))
    for seat in range(4):
        view = game.view_for(seat)
        assert view.trick_winners == (2,)
        assert view.current_trick == ((2, R("R14")),)
        assert view.partners == (0,)
        assert view.called == ()
        assert view.points_in_discard is True
        assert view.discarded == (cards("B5", "G5", "R7", "R6", "Y5") if seat == 2 else ())
        # every seat was told the cards as they were played: its view remembers them
        assert view.tricks == (((2, R("R1")), (3, R("Y1")), (0, R("B1")), (1, R("G1"))),)
        # and holds them nowhere else (nothing the wire reads from a view shows them)
        gone = {R(c) for c in ("R1", "Y1", "B1", "G1")}
        assert not gone & set(every_card_in(view, but="tricks"))


def every_card_in(view: View, but: str = "") -> list[RookCard]:
    found: list[RookCard] = []

    def walk(value: object) -> None:
        if isinstance(value, RookCard):
            found.append(value)
        elif isinstance(value, tuple):
            for item in value:
                walk(item)
        elif hasattr(value, "card"):
            walk(value.card)
        elif isinstance(value, Setup):
            walk((value.discard, value.partners))

    for name in View.__slots__:  # type: ignore[attr-defined]
        if name != but:
            walk(getattr(view, name))
    return found


# ------------------------------------------------------------------ random games


def random_action(game: Game, rng: random.Random) -> object:
    seat = game.to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    assert legal, f"seat {seat} is to act with nothing legal"
    if game.phase is Phase.BIDDING:
        roll = rng.random()
        return legal[0] if roll < 0.5 else legal[1] if roll < 0.9 else rng.choice(legal)
    if game.phase is Phase.SETUP:
        hand = game.hand(seat)
        discard = tuple(rng.sample(hand, game.kitty_size))
        calls = tuple(rng.sample(ROOK_DECK, game.calls))
        return Setup(discard, rng.choice(list(Colour)), calls)
    return rng.choice(legal)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.sampled_from([3, 4, 5, 6]), seed=st.integers(0, 10**6))
def test_random_full_games_keep_the_invariants(n: int, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(NAMES[:n])
    totals = [0] * n
    hands = 0
    while not game.is_over:
        if game.needs_deal:
            game.deal(seeded_deck(str(seed), game.round_index))
            continue
        seat = game.to_act
        assert seat is not None
        assert all(game.legal_actions(s) == () for s in range(n) if s != seat)
        for event in game.apply(seat, random_action(game, rng)):  # type: ignore[arg-type]
            if isinstance(event, HandScored):
                hands += 1
                assert sum(event.taken) == 200
                totals = [t + p for t, p in zip(totals, event.points, strict=True)]
                assert list(event.totals) == totals
                assert event.bidder in event.side
                assert event.side == tuple(sorted(set(event.side)))
                if event.is_moon:
                    assert event.side == (event.bidder,)
            if isinstance(event, GameWon):
                top = max(event.totals)
                assert top >= 500
                assert list(event.totals).count(top) == 1
                assert event.totals[event.winner] == top
        assert hands < 200
    assert game.winner is not None
    assert game.to_act is None
