"""The Hundred and Ten engine, rule by rule (RULES.md, Hundred and Ten, items 1-15).

Every situation is built from an explicit deck (``make_deck``): the hands we want go to
seats 0, 1, ... in order, then the stated refill cards, then every other card in deck
index order. Expected values are written out by hand, never taken from the engine.
"""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Callable
from itertools import combinations

import pytest

from hundred_server.games.hundredandten.rules import (
    IS_TRUMP,
    Bid,
    BiddingWon,
    BidMade,
    DealRecord,
    Dealt,
    Discard,
    Discarded,
    DiscardedBy,
    Game,
    GameWon,
    InHand,
    PassedOut,
    Phase,
    Play,
    Played,
    PlayedIn,
    PrePassed,
    RoundScored,
    SelectTrump,
    TrickWon,
    TrumpSelected,
    Unknown,
    Unpass,
    Unpassed,
    seeded_deck,
    trick_winner,
)
from hundred_server.games.kit.cards import ALL_CARDS, Card, Suit
from hundred_server.protocol.errors import CardCodeError, HundredError, IllegalActionError

H, D, S, C = Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS
P4 = ("ann", "bob", "cy", "dee")
ALL_BIDS = (Bid(0), Bid(15), Bid(20), Bid(25), Bid(30), Bid(60))


# ------------------------------------------------------------------------- helpers


def cs(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def c1(code: str) -> Card:
    return Card.parse(code)


def make_deck(*hands: str, stock: str = "") -> tuple[Card, ...]:
    """Seat i gets hands[i]; then ``stock`` (the refills, in order); then the rest."""
    chosen = [c for hand in hands for c in cs(hand)] + list(cs(stock))
    assert len(set(chosen)) == len(chosen), "a card is named twice"
    assert all(len(cs(hand)) == 5 for hand in hands)
    return tuple(chosen) + tuple(c for c in ALL_CARDS if c not in chosen)


def dealt(*hands: str, stock: str = "") -> Game:
    game = Game(P4[: len(hands)])
    game.deal(make_deck(*hands, stock=stock))
    return game


def win_bid(game: Game, bidder: int, amount: int) -> None:
    """Everyone but ``bidder`` passes; ``bidder`` bids ``amount``."""
    while game.phase is Phase.BIDDING:
        seat = game.to_act
        game.apply(seat, Bid(amount if seat == bidder else 0))


def to_tricks(game: Game, bidder: int, amount: int, trump: Suit) -> None:
    win_bid(game, bidder, amount)
    game.apply(bidder, SelectTrump(trump))
    while game.phase is Phase.DISCARD:
        game.apply(game.to_act, Discard(()))


def play(game: Game, codes: str) -> list:
    events: list = []
    for code in codes.split():
        events += game.apply(game.to_act, Play(c1(code)))
    return events


def play_out(game: Game) -> list:
    """Finish the round's tricks, each seat playing its first legal card."""
    events: list = []
    rnd = game.round
    while game.phase is Phase.TRICKS and game.round == rnd:
        seat = game.to_act
        events += game.apply(seat, game.legal_actions(seat)[0])
    return events


def pass_round(game: Game) -> list:
    """Everyone passes: the round is passed out."""
    events: list = []
    rnd = game.round
    while game.phase is Phase.BIDDING and game.round == rnd:
        events += game.apply(game.to_act, Bid(0))
    return events


def amounts(actions) -> list[int]:
    assert all(isinstance(a, Bid) for a in actions)
    return [a.amount for a in actions]


def view_state(view) -> tuple:
    """Every public field of a view, for comparisons."""
    return (
        view.seat,
        view.num_players,
        view.phase,
        view.round,
        view.hand,
        view.high_bid,
        view.pre_passed,
        view.trump,
        view.legal,
        view.scores,
        view.dealer,
        view.to_act,
        view.bidder,
        view.is_bidder,
        view.is_dealer,
        view.bids,
        view.discard_counts,
        view.discarded,
        view.completed_tricks,
        view.current_trick,
        view.lead,
        view.card_knowledge(),
    )


def snapshot(game: Game) -> tuple:
    n = game.num_players
    return (
        [view_state(game.view_for(s)) for s in range(n)],
        [game.legal_actions(s) for s in range(n)],
        list(game.history),
        tuple(game.scores),
        game.phase,
        game.to_act,
        game.round,
        game.dealer,
        list(game.dealers),
        game.winner,
        list(game.round_results),
        [tuple(h) for h in game.hands],
        game.deck,
        list(game.discards),
        game.high_bid,
        game.bidder,
        game.trump,
        list(game.passed),
        list(game.pre_passed),
        list(game.bids),
        list(game.tricks),
        list(game.trick),
    )


def assert_refused(game: Game, seat, action, code: str, message: str) -> None:
    """``action`` raises ``IllegalActionError(code)`` with ``message`` and changes nothing."""
    assert_deal_refused(game, code, message, lambda: game.apply(seat, action))


def assert_deal_refused(
    game: Game, code: str, message: str, act: Callable[[], object] | None = None
) -> None:
    """Dealing ``ALL_CARDS`` (or ``act()``) raises ``IllegalActionError(code)`` with
    ``message`` and changes nothing."""
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        act() if act is not None else game.deal(ALL_CARDS)
    assert info.value.code == code
    assert info.value.message == message
    assert snapshot(game) == before


def bids(game: Game, text: str) -> None:
    """``"1:15 2:0"``: seat 1 bids 15, then seat 2 passes."""
    for seat, amount in (b.split(":") for b in text.split()):
        game.apply(int(seat), Bid(int(amount)))


def reference_order(seed: str, k: int) -> list[int]:
    """RULES.md item 3, written out with ``random.Random.shuffle``."""
    digest = hashlib.sha256(f"deck-seed|{seed}|round:{k}".encode()).hexdigest()
    deck_seed = str(uuid.UUID(int=random.Random(digest).getrandbits(128), version=4))
    order = list(range(53))
    random.Random(deck_seed).shuffle(order)
    return order


# Four-player rounds used by several tests. Dealer 0, seat 1 bids, trump spades, nobody
# discards, seat 2 (left of the bidder) leads. Tricks are listed in play order.
#
# A: seat 1 wins trick 1 with 5S (the round's highest trump) and trick 2; seats 2, 0, 3
#    win tricks 3, 4, 5 with plain cards.
HANDS_A = ("4D 7D 4H AC 8H", "5S AD 2H 4C 9C", "2D 5D KH 2C 9D", "3D 6D 3H 3C QH")
PLAYS_A = "2D 3D 4D 5S  AD 5D 6D 7D  2H KH 3H 4H  2C 3C AC 4C  8H 9C 9D QH"
ENTRIES_A = ((1, 10), (1, 5), (2, 5), (0, 5), (3, 5))
# B: seat 1 wins tricks 1-2 (2S, a low trump, then AD); seat 0 wins trick 4 with 5S, the
#    round's highest trump, so the bonus sits on trick 4.
HANDS_B = ("4D 7D 4H 5S 8H", "2S AD 2H 4C 9C", "2D 5D KH 2C 9D", "3D 6D 3H 3C QH")
PLAYS_B = "2D 3D 4D 2S  AD 5D 6D 7D  2H KH 3H 4H  2C 3C 5S 4C  8H 9C 9D QH"
ENTRIES_B = ((1, 5), (1, 5), (2, 5), (0, 10), (3, 5))
# E: seat 3 wins trick 1 (AD), seat 1 tricks 2 (5S, bonus) and 3, seat 2 trick 4 (2C is
#    the highest club among 4C 2C 5C 6C), seat 0 trick 5 (9H over 8H).
HANDS_E = ("4D 3H 7D 6C 9H", "3C 5S KD 4C 8C", "2D 4H 5D 2C 8H", "AD 2H 6D 5C 9D")
PLAYS_E = "2D AD 4D 3C  2H 3H 5S 4H  KD 5D 6D 7D  4C 2C 5C 6C  8H 9D 9H 8C"
ENTRIES_E = ((3, 5), (1, 10), (1, 5), (2, 5), (0, 5))

# Two players, dealer 0, seat 1 bids, trump hearts, seat 0 leads: seat 1 holds the five
# highest trumps and takes every trick.
HANDS_SWEEP = ("2C 3C 4C 6C 7C", "5H JH JK AH KH")
PLAYS_SWEEP = "2C 5H  JH 3C  JK 4C  AH 6C  KH 7C"


def round_a(amount: int = 15, scores=None, hands=HANDS_A) -> Game:
    game = dealt(*hands)
    if scores is not None:
        # Start the round at these totals (as a game resumed mid-way would be), so the
        # end-of-game rules can be tested on one exact round.
        game.scores[:] = scores
    to_tricks(game, 1, amount, S)
    return game


# ------------------------------------------------------------------ 1. players


@pytest.mark.parametrize("n", [2, 3, 4])
def test_two_to_four_players(n):
    game = Game(P4[:n])
    assert game.players == P4[:n]
    assert game.num_players == n
    assert game.scores == [0] * n
    assert game.phase is Phase.DEAL
    assert game.round == 1
    assert game.round_index == 0
    assert game.dealer == 0
    assert game.to_act is None
    assert game.winner is None
    assert not game.is_over
    assert game.history == []
    assert [game.legal_actions(s) for s in range(n)] == [()] * n


@pytest.mark.parametrize("n", [0, 1, 5, 6])
def test_player_count_outside_two_to_four_is_refused(n):
    with pytest.raises(IllegalActionError) as info:
        Game([f"p{i}" for i in range(n)])
    assert info.value.code == "bad_players"
    assert info.value.message == f"Hundred and Ten takes 2 to 4 players, got {n}"


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["a", "b", "a"], "player names must differ: ['a'] repeats"),
        (["x", "y", "x", "y"], "player names must differ: ['x', 'y'] repeats"),
        (["z", "z"], "player names must differ: ['z'] repeats"),
    ],
)
def test_duplicate_player_names_are_refused(names, message):
    with pytest.raises(IllegalActionError) as info:
        Game(names)
    assert info.value.code == "duplicate_name"
    assert info.value.message == message


# --------------------------------------------------------------- 2-4. deck and deal


def test_a_seeded_deck_is_the_53_cards_once():
    for k in range(5):
        deck = seeded_deck("any", k)
        assert len(deck) == 53
        assert sorted(deck) == list(ALL_CARDS)
        assert all(type(c) is Card for c in deck)


@pytest.mark.parametrize(
    "seed",
    [
        "",
        "a",
        "some seed",
        "57eaf68e-1c52-4a34-a1e1-1a12905c5069",
        "c60b633d-af6e-4715-be71-02c285bfea07",
        "ünïcödé ♠",
    ],
)
def test_seeded_deck_is_the_reference_formula(seed):
    for k in [0, 1, 2, 3, 7, 100]:
        assert [int(c) for c in seeded_deck(seed, k)] == reference_order(seed, k)


def test_seeded_rounds_count_passed_out_rounds():
    seed = "count the passed-out rounds too"
    game = Game(P4, seed=seed)
    pass_round(game)  # round index 0 passed out
    pass_round(game)  # 1
    win_bid(game, 1, 15)  # index 2 is played
    game.apply(1, SelectTrump(H))
    while game.phase is Phase.DISCARD:
        game.apply(game.to_act, Discard(()))
    play_out(game)
    decks = [r for r in game.history if isinstance(r, DealRecord)]
    assert [(r.round, r.dealer) for r in decks] == [(1, 0), (2, 0), (3, 0), (4, 1)]
    for k, record in enumerate(decks):
        assert [int(c) for c in record.deck] == reference_order(seed, k)
    assert game.deck == decks[-1].deck
    for seat in range(4):
        assert tuple(game.hands[seat]) == decks[-1].deck[5 * seat : 5 * seat + 5]


def test_seeded_game_deals_itself_at_once():
    game = Game(P4[:3], seed="x")
    assert game.phase is Phase.BIDDING
    assert game.to_act == 1
    deck = seeded_deck("x", 0)
    assert game.history == [DealRecord(1, 0, deck)]
    assert [tuple(h) for h in game.hands] == [deck[0:5], deck[5:10], deck[10:15]]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_gives_seat_i_the_cards_5i_to_5i_plus_5(n):
    game = Game(P4[:n])
    deck = tuple(reversed(ALL_CARDS))
    events = game.deal(deck)
    hands = tuple(deck[5 * i : 5 * i + 5] for i in range(n))
    assert events == [Dealt(1, 0, hands)]
    assert [tuple(h) for h in game.hands] == list(hands)
    assert game.history == [DealRecord(1, 0, deck)]
    assert game.phase is Phase.BIDDING
    assert game.to_act == 1


def test_deal_order_is_seat_order_whoever_deals():
    game = Game(P4[:3])
    game.deal(ALL_CARDS)
    to_tricks(game, 1, 15, H)
    play_out(game)
    assert (game.phase, game.dealer, game.round) == (Phase.DEAL, 1, 2)
    deck = tuple(reversed(ALL_CARDS))
    events = game.deal(deck)
    # Seat 0 still takes the first five cards, not the seat left of the dealer.
    assert events == [Dealt(2, 1, (deck[0:5], deck[5:10], deck[10:15]))]
    assert game.to_act == 2


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (ALL_CARDS[:52], "a deck is the 53 cards each once, got 52 cards (52 distinct)"),
        (ALL_CARDS + ALL_CARDS[:1], "a deck is the 53 cards each once, got 54 cards (53 distinct)"),
        (
            ALL_CARDS[:52] + ALL_CARDS[:1],
            "a deck is the 53 cards each once, got 53 cards (52 distinct)",
        ),
        (tuple(range(53)), "a deck is the 53 cards each once, got 53 cards (53 distinct)"),
        ((), "a deck is the 53 cards each once, got 0 cards (0 distinct)"),
    ],
)
def test_deal_refuses_a_bad_deck(deck, message):
    game = Game(P4)
    assert_deal_refused(game, "bad_deck", message, lambda: game.deal(deck))
    assert game.phase is Phase.DEAL


def test_deal_only_when_the_game_waits_for_a_deck():
    game = dealt(*HANDS_A)
    assert_deal_refused(game, "wrong_phase", "cannot deal now: the game is in bidding")
    seeded = Game(P4, seed="s")
    with pytest.raises(IllegalActionError, match=r"^cannot deal now: the game is in bidding$"):
        seeded.deal(ALL_CARDS)


# ------------------------------------------------------------------------ 5. dealer


def test_the_deal_passes_left_after_each_played_round():
    game = Game(P4[:3])
    dealers = []
    for _ in range(4):
        dealers.append(game.dealer)
        game.deal(ALL_CARDS)
        assert game.to_act == (game.dealer + 1) % 3
        to_tricks(game, game.to_act, 15, H)
        play_out(game)
    assert dealers == [0, 1, 2, 0]
    assert game.dealer == 1
    assert game.dealers == [0, 1, 2, 0, 1]
    assert game.round == 5
    assert not game.is_over


def test_a_long_run_of_passed_out_rounds():
    game = Game(P4, seed="nobody bids")
    seen = []
    for _ in range(14):
        seen.append((game.round, game.dealer, game.to_act))
        pass_round(game)
    # Each dealer deals three rounds in a row (counting the passed-out round itself),
    # then the deal passes left; bidding always opens left of the dealer.
    expected_dealers = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0]
    assert seen == [(i + 1, d, (d + 1) % 4) for i, d in enumerate(expected_dealers)]
    assert game.dealers == [*expected_dealers, 0]
    assert game.scores == [0, 0, 0, 0]
    assert game.round_results == [(0, 0, 0, 0)] * 14


def test_passed_out_rounds_after_a_played_round():
    game = Game(P4, seed="played then passed")
    to_tricks(game, 1, 15, H)
    play_out(game)  # round 1, dealer 0, played
    assert game.dealer == 1
    for _ in range(3):
        pass_round(game)  # rounds 2, 3, 4: dealer 1 each time
    assert game.dealers == [0, 1, 1, 1, 2]
    pass_round(game)
    assert game.dealers == [0, 1, 1, 1, 2, 2]


def test_a_played_round_passes_the_deal_even_after_passed_out_rounds():
    game = Game(P4[:3], seed="passed then played")
    pass_round(game)
    pass_round(game)
    assert game.dealers == [0, 0, 0]
    to_tricks(game, 2, 15, C)
    play_out(game)  # the third deal by seat 0 is played
    assert game.dealers == [0, 0, 0, 1]
    pass_round(game)
    assert game.dealers == [0, 0, 0, 1, 1]


def test_only_consecutive_deals_count_toward_three_in_a_row():
    game = Game(P4[:2], seed="two players")
    for _ in range(2):
        to_tricks(game, game.to_act, 15, S)
        play_out(game)
    assert game.dealers == [0, 1, 0]
    pass_round(game)  # seat 0 dealt rounds 1 and 3, not 2: it deals again
    assert game.dealers == [0, 1, 0, 0]
    pass_round(game)
    assert game.dealers == [0, 1, 0, 0, 0]
    pass_round(game)  # rounds 3, 4, 5 all dealt by seat 0
    assert game.dealers == [0, 1, 0, 0, 0, 1]


# ----------------------------------------------------------------------- 6. bidding


def test_bidding_goes_clockwise_from_the_dealers_left():
    game = dealt(*HANDS_A)
    order = []
    for amount in (15, 20, 0, 25):
        order.append(game.to_act)
        game.apply(game.to_act, Bid(amount))
    assert order == [1, 2, 3, 0]
    assert game.to_act == 1


def test_bidding_skips_players_who_passed():
    game = dealt(*HANDS_A)
    bids(game, "1:15 2:0 3:20 0:0")
    assert game.to_act == 1
    game.apply(1, Bid(25))
    assert game.to_act == 3
    assert game.apply(3, Bid(0)) == [BidMade(3, 0), BiddingWon(1, 25)]
    assert (game.phase, game.bidder, game.high_bid, game.to_act) == (Phase.TRUMP, 1, 25, 1)
    assert game.bids == [(1, 15), (2, 0), (3, 20), (0, 0), (1, 25), (3, 0)]


def test_legal_bids_exactly():
    game = dealt(*HANDS_A)
    assert game.legal_actions(1) == ALL_BIDS
    # Seats not to act may only pre-pass.
    assert [game.legal_actions(s) for s in (0, 2, 3)] == [(Bid(0),)] * 3
    game.apply(1, Bid(20))
    assert amounts(game.legal_actions(2)) == [0, 25, 30, 60]
    game.apply(2, Bid(0))
    assert game.legal_actions(2) == ()
    assert amounts(game.legal_actions(3)) == [0, 25, 30, 60]
    game.apply(3, Bid(0))
    # The dealer may hold the high bid.
    assert amounts(game.legal_actions(0)) == [0, 20, 25, 30, 60]


def test_legal_bids_over_30_and_60():
    game = dealt(*HANDS_A)
    game.apply(1, Bid(30))
    assert amounts(game.legal_actions(2)) == [0, 60]
    bids(game, "2:0 3:0")
    assert amounts(game.legal_actions(0)) == [0, 30, 60]
    game.apply(0, Bid(60))
    assert amounts(game.legal_actions(1)) == [0]
    game.apply(1, Bid(0))
    assert (game.phase, game.bidder, game.high_bid) == (Phase.TRUMP, 0, 60)


def test_the_dealer_may_hold_60():
    game = dealt(*HANDS_A)
    game.apply(1, Bid(60))
    assert amounts(game.legal_actions(2)) == [0]
    bids(game, "2:0 3:0")
    assert amounts(game.legal_actions(0)) == [0, 60]
    assert game.apply(0, Bid(60)) == [BidMade(0, 60)]
    assert amounts(game.legal_actions(1)) == [0]
    assert game.apply(1, Bid(0)) == [BidMade(1, 0), BiddingWon(0, 60)]


def test_the_dealer_holds_and_wins_at_the_held_bid():
    game = dealt(*HANDS_A)
    bids(game, "1:20 2:0 3:0")
    assert game.apply(0, Bid(20)) == [BidMade(0, 20)]
    assert game.high_bid == 20
    assert game.to_act == 1
    assert amounts(game.legal_actions(1)) == [0, 25, 30, 60]
    assert game.apply(1, Bid(0)) == [BidMade(1, 0), BiddingWon(0, 20)]
    assert (game.bidder, game.high_bid) == (0, 20)


def test_two_player_bidding_war():
    game = dealt(*HANDS_SWEEP)
    assert game.to_act == 1
    game.apply(1, Bid(15))
    assert amounts(game.legal_actions(0)) == [0, 15, 20, 25, 30, 60]
    game.apply(0, Bid(15))
    assert amounts(game.legal_actions(1)) == [0, 20, 25, 30, 60]
    bids(game, "1:25 0:25")
    assert game.apply(1, Bid(0)) == [BidMade(1, 0), BiddingWon(0, 25)]


@pytest.mark.parametrize(
    ("moves", "seat", "amount", "message"),
    [
        ([20], 2, 20, "seat 2 cannot bid 20 over a high bid of 20 (allowed: [0, 25, 30, 60])"),
        ([20], 2, 15, "seat 2 cannot bid 15 over a high bid of 20 (allowed: [0, 25, 30, 60])"),
        (
            [20, 0, 0],
            0,
            15,
            "seat 0 cannot bid 15 over a high bid of 20 (allowed: [0, 20, 25, 30, 60])",
        ),
        ([60], 2, 60, "seat 2 cannot bid 60 over a high bid of 60 (allowed: [0])"),
        ([30], 2, 30, "seat 2 cannot bid 30 over a high bid of 30 (allowed: [0, 60])"),
    ],
)
def test_illegal_bid(moves, seat, amount, message):
    game = dealt(*HANDS_A)
    for m in moves:
        game.apply(game.to_act, Bid(m))
    assert game.to_act == seat
    assert_refused(game, seat, Bid(amount), "illegal_bid", message)


@pytest.mark.parametrize("amount", [17, 5, -15, 35, 100, True, "15", 15.0, None])
def test_no_such_bid_amount(amount):
    with pytest.raises(IllegalActionError) as info:
        Bid(amount)
    assert info.value.code == "illegal_bid"
    assert info.value.message == (
        f"no such bid: {amount!r} (bids are 0 to pass, 15, 20, 25, 30, 60)"
    )


def test_a_pass_is_final():
    game = dealt(*HANDS_A)
    bids(game, "1:0 2:15 3:20 0:25")
    assert game.to_act == 2  # seat 1 is skipped
    assert game.legal_actions(1) == ()
    assert_refused(
        game,
        1,
        Bid(30),
        "not_your_turn",
        "it is seat 2's turn to bid, not seat 1's "
        "(out of turn you may only pre-pass with a bid of 0)",
    )
    assert_refused(game, 1, Bid(0), "already_passed", "seat 1 has already passed")
    assert game.view_for(1).legal == ()


def test_bidding_ends_with_one_player_left_and_a_bid():
    game = dealt(*HANDS_A)
    bids(game, "1:15 2:0 3:0")
    assert game.phase is Phase.BIDDING  # the dealer has not spoken yet
    assert game.to_act == 0
    assert game.apply(0, Bid(0)) == [BidMade(0, 0), BiddingWon(1, 15)]
    assert (game.phase, game.to_act, game.bidder, game.high_bid) == (Phase.TRUMP, 1, 1, 15)


def test_the_last_player_left_without_a_bid_still_bids():
    game = dealt(*HANDS_A)
    for seat in (1, 2, 3):
        game.apply(seat, Bid(0))
    assert game.phase is Phase.BIDDING
    assert game.to_act == 0
    assert game.legal_actions(0) == ALL_BIDS
    assert game.apply(0, Bid(15)) == [BidMade(0, 15), BiddingWon(0, 15)]
    assert game.bidder == 0


def test_all_pass_passes_the_round_out():
    game = dealt(*HANDS_A)
    for seat in (1, 2, 3):
        assert game.apply(seat, Bid(0)) == [BidMade(seat, 0)]
    assert game.apply(0, Bid(0)) == [BidMade(0, 0), PassedOut(1, (0, 0, 0, 0))]
    assert game.phase is Phase.DEAL
    assert (game.round, game.round_index, game.dealer) == (2, 1, 0)
    assert game.scores == [0, 0, 0, 0]
    assert game.round_results == [(0, 0, 0, 0)]
    assert game.hands == [[], [], [], []]
    assert game.history[1:] == [(1, Bid(0)), (2, Bid(0)), (3, Bid(0)), (0, Bid(0))]
    game.deal(ALL_CARDS)
    assert game.to_act == 1


def test_all_pass_in_a_seeded_game_deals_the_next_round():
    game = Game(P4, seed="pass")
    events = pass_round(game)
    deck = seeded_deck("pass", 1)
    hands = tuple(deck[5 * i : 5 * i + 5] for i in range(4))
    assert events == [
        BidMade(1, 0),
        BidMade(2, 0),
        BidMade(3, 0),
        BidMade(0, 0),
        PassedOut(1, (0, 0, 0, 0)),
        Dealt(2, 0, hands),
    ]
    assert game.history[-5:] == [
        (1, Bid(0)),
        (2, Bid(0)),
        (3, Bid(0)),
        (0, Bid(0)),
        DealRecord(2, 0, deck),
    ]


# ------------------------------------------------------------- 7. pre-pass, unpass


def test_a_pre_pass_waits_for_the_turn():
    game = dealt(*HANDS_A)
    assert game.apply(3, Bid(0)) == [PrePassed(3)]
    assert game.pre_passed == [False, False, False, True]
    assert game.to_act == 1
    assert game.bids == []
    assert game.legal_actions(3) == (Unpass(),)
    assert game.view_for(3).pre_passed
    assert game.view_for(3).legal == (Unpass(),)
    assert game.apply(1, Bid(15)) == [BidMade(1, 15)]
    assert game.to_act == 2
    assert game.apply(2, Bid(20)) == [BidMade(2, 20), BidMade(3, 0, automatic=True)]
    assert game.to_act == 0
    assert game.pre_passed == [False] * 4
    assert game.passed == [False, False, False, True]
    assert game.legal_actions(3) == ()


def test_a_pre_passed_player_cannot_bid():
    game = dealt(*HANDS_A)
    game.apply(3, Bid(0))
    assert_refused(
        game,
        3,
        Bid(15),
        "not_your_turn",
        "it is seat 1's turn to bid, not seat 3's "
        "(out of turn you may only pre-pass with a bid of 0)",
    )
    assert_refused(game, 3, Bid(0), "already_passed", "seat 3 has already passed")


def test_pre_passes_chain_through_several_seats_in_one_apply():
    game = dealt(*HANDS_A)
    for seat in (2, 3, 0):
        assert game.apply(seat, Bid(0)) == [PrePassed(seat)]
    assert game.apply(1, Bid(15)) == [
        BidMade(1, 15),
        BidMade(2, 0, automatic=True),
        BidMade(3, 0, automatic=True),
        BidMade(0, 0, automatic=True),
        BiddingWon(1, 15),
    ]
    assert (game.phase, game.bidder, game.to_act) == (Phase.TRUMP, 1, 1)
    # Only what the players sent is in the history; automatic passes follow from it.
    assert game.history[1:] == [(2, Bid(0)), (3, Bid(0)), (0, Bid(0)), (1, Bid(15))]


def test_pre_passes_chain_into_a_passed_out_round():
    game = dealt(*HANDS_A)
    for seat in (2, 3, 0):
        game.apply(seat, Bid(0))
    assert game.apply(1, Bid(0)) == [
        BidMade(1, 0),
        BidMade(2, 0, automatic=True),
        BidMade(3, 0, automatic=True),
        BidMade(0, 0, automatic=True),
        PassedOut(1, (0, 0, 0, 0)),
    ]
    assert (game.phase, game.round, game.dealer) == (Phase.DEAL, 2, 0)
    assert game.pre_passed == [False] * 4


def test_pre_passes_take_effect_one_turn_at_a_time():
    game = dealt(*HANDS_A)
    bids(game, "0:0 2:0")
    assert game.apply(1, Bid(0)) == [BidMade(1, 0), BidMade(2, 0, automatic=True)]
    assert game.to_act == 3
    assert game.apply(3, Bid(0)) == [
        BidMade(3, 0),
        BidMade(0, 0, automatic=True),
        PassedOut(1, (0, 0, 0, 0)),
    ]
    assert (game.phase, game.round) == (Phase.DEAL, 2)


def test_a_pre_pass_stops_at_the_first_seat_still_in():
    game = dealt(*HANDS_A)
    bids(game, "2:0 0:0")
    assert game.apply(1, Bid(15)) == [BidMade(1, 15), BidMade(2, 0, automatic=True)]
    assert game.to_act == 3
    assert game.pre_passed == [True, False, False, False]
    assert game.apply(3, Bid(20)) == [BidMade(3, 20), BidMade(0, 0, automatic=True)]
    assert game.to_act == 1


def test_unpass_takes_a_pre_pass_back():
    game = dealt(*HANDS_A)
    game.apply(3, Bid(0))
    assert game.apply(3, Unpass()) == [Unpassed(3)]
    assert game.pre_passed == [False] * 4
    assert game.legal_actions(3) == (Bid(0),)
    bids(game, "1:15 2:0")
    assert game.to_act == 3  # no automatic pass
    assert amounts(game.legal_actions(3)) == [0, 20, 25, 30, 60]
    assert game.apply(3, Bid(20)) == [BidMade(3, 20)]
    assert game.history[1:3] == [(3, Bid(0)), (3, Unpass())]


def test_unpass_without_a_pre_pass_is_refused():
    game = dealt(*HANDS_A)
    assert_refused(game, 2, Unpass(), "not_pre_passed", "seat 2 has no pre-pass to take back")
    assert_refused(game, 1, Unpass(), "not_pre_passed", "seat 1 has no pre-pass to take back")
    game.apply(1, Bid(0))
    assert_refused(game, 1, Unpass(), "not_pre_passed", "seat 1 has no pre-pass to take back")


def test_no_pre_pass_or_unpass_outside_bidding():
    game = dealt(*HANDS_A)
    assert_refused(game, 1, Unpass(), "not_pre_passed", "seat 1 has no pre-pass to take back")
    win_bid(game, 1, 15)
    assert_refused(game, 2, Bid(0), "wrong_phase", "cannot bid now: the game is in trump")
    assert_refused(game, 2, Unpass(), "wrong_phase", "cannot unpass now: the game is in trump")
    assert game.legal_actions(2) == ()
    deal_wait = Game(P4)
    assert_refused(deal_wait, 1, Bid(0), "wrong_phase", "cannot bid now: the game is in deal")


# ------------------------------------------------------------------------- 8. trump


def test_only_the_bidder_names_trump():
    game = dealt(*HANDS_A)
    win_bid(game, 2, 20)
    assert game.phase is Phase.TRUMP
    assert game.to_act == 2
    assert game.legal_actions(2) == (SelectTrump(H), SelectTrump(D), SelectTrump(S), SelectTrump(C))
    assert [game.legal_actions(s) for s in (0, 1, 3)] == [(), (), ()]
    assert_refused(
        game, 1, SelectTrump(S), "not_your_turn", "it is seat 2's turn to name trump, not seat 1's"
    )
    assert game.apply(2, SelectTrump(D)) == [TrumpSelected(2, D)]
    assert (game.phase, game.trump, game.to_act) == (Phase.DISCARD, D, 1)


@pytest.mark.parametrize("trump", list(Suit))
def test_trumps_are_the_suit_the_ace_of_hearts_and_the_joker(trump):
    expected = {c for c in ALL_CARDS if c.suit is trump} | {c1("AH"), c1("JK")}
    assert {c for c in ALL_CARDS if IS_TRUMP[trump][c]} == expected
    assert len(expected) == (14 if trump is H else 15)


@pytest.mark.parametrize("trump", list(Suit))
def test_trump_membership_decides_who_must_bleed(trump):
    o1, o2, o3 = (s.value for s in Suit if s is not trump)
    t = trump.value
    # Seat 1 holds AH, JK, a trump of the suit and two cards of other suits (a heart
    # other than the ace among them when hearts is not trump).
    seat1 = f"AH JK 2{t} 2{o1} 2{o2}"
    seat0 = f"3{t} 4{o1} 4{o2} 4{o3} 6{o3}"
    game = dealt(seat0, seat1)
    to_tricks(game, 1, 15, trump)
    assert game.to_act == 0
    play(game, f"3{t}")
    assert game.legal_actions(1) == tuple(Play(c) for c in cs(f"AH JK 2{t}"))


# ----------------------------------------------------------- 9-10, 13. card ranking

TRUMP_ORDER = {
    # high to low, RULES.md item 9 (hearts: AH is both the ace of hearts and the suit's ace)
    H: "5H JH JK AH KH QH TH 9H 8H 7H 6H 4H 3H 2H",
    D: "5D JD JK AH AD KD QD TD 9D 8D 7D 6D 4D 3D 2D",
    S: "5S JS JK AH AS KS QS 2S 3S 4S 6S 7S 8S 9S TS",
    C: "5C JC JK AH AC KC QC 2C 3C 4C 6C 7C 8C 9C TC",
}
OFF_ORDER = {
    # high to low, RULES.md item 10: red 6 above 5, black low beats high
    D: "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    H: "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",  # AH is always a trump
    S: "AS KS QS JS 2S 3S 4S 5S 6S 7S 8S 9S TS",
    C: "AC KC QC JC 2C 3C 4C 5C 6C 7C 8C 9C TC",
}


@pytest.mark.parametrize("trump", list(Suit))
def test_trump_rank_order(trump):
    order = cs(TRUMP_ORDER[trump])
    assert all(IS_TRUMP[trump][c] for c in order)
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert trick_winner([(0, low), (1, high)], trump) == (1, high)
            assert trick_winner([(0, high), (1, low)], trump) == (0, high)


@pytest.mark.parametrize(("led", "trump"), [(D, S), (H, C), (S, D), (C, H), (D, H), (C, S)])
def test_off_trump_rank_order(led, trump):
    order = cs(OFF_ORDER[led])
    assert not any(IS_TRUMP[trump][c] for c in order)
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert trick_winner([(0, low), (1, high)], trump) == (1, high)
            assert trick_winner([(0, high), (1, low)], trump) == (0, high)


def test_red_six_beats_red_five_and_black_two_beats_black_ten():
    assert trick_winner([(0, c1("5D")), (1, c1("6D"))], S) == (1, c1("6D"))
    assert trick_winner([(0, c1("5H")), (1, c1("6H"))], C) == (1, c1("6H"))
    assert trick_winner([(0, c1("TC")), (1, c1("2C"))], H) == (1, c1("2C"))
    assert trick_winner([(0, c1("JS")), (1, c1("2S"))], D) == (0, c1("JS"))


def test_trick_winner_off_suit_cards_never_win_and_any_trump_beats_the_led_suit():
    # Spades trump: a club (not led, not trump) cannot win; the lowest trump beats the
    # ace of the led suit; the ace of hearts is a trump even on a heart lead.
    assert trick_winner([(0, c1("2D")), (1, c1("AC")), (2, c1("KC"))], S) == (0, c1("2D"))
    plays = [(0, c1("AD")), (1, c1("TS")), (2, c1("KD")), (3, c1("3D"))]
    assert trick_winner(plays, S) == (1, c1("TS"))
    assert trick_winner([(2, c1("KH")), (3, c1("TS")), (0, c1("AH"))], S) == (0, c1("AH"))
    assert trick_winner([(2, c1("KH")), (3, c1("AH")), (0, c1("5S"))], S) == (0, c1("5S"))
    assert trick_winner([(2, c1("KH")), (3, c1("AH")), (0, c1("QH"))], S) == (3, c1("AH"))
    assert trick_winner([(1, c1("JK")), (2, c1("5S")), (3, c1("JS"))], S) == (2, c1("5S"))


def test_trick_winner_through_play():
    game = round_a()
    assert play(game, "2D 3D 4D") == [Played(2, c1("2D")), Played(3, c1("3D")), Played(0, c1("4D"))]
    assert play(game, "5S") == [Played(1, c1("5S")), TrickWon(1, c1("5S"), 1)]
    assert game.to_act == 1  # the winner leads
    assert play(game, "AD 5D 6D 7D")[-1] == TrickWon(1, c1("AD"), 2)
    assert play(game, "2H KH 3H 4H")[-1] == TrickWon(2, c1("KH"), 3)
    assert game.to_act == 2
    assert play(game, "2C 3C AC 4C")[-1] == TrickWon(0, c1("AC"), 4)
    assert game.to_act == 0


# ---------------------------------------------------------------------- 11. discard


def test_discards_run_from_the_dealers_left_to_the_dealer():
    game = dealt(*HANDS_A)
    win_bid(game, 2, 15)
    game.apply(2, SelectTrump(C))
    order = []
    while game.phase is Phase.DISCARD:
        seat = game.to_act
        order.append(seat)
        assert [bool(game.legal_actions(s)) for s in range(4)] == [s == seat for s in range(4)]
        game.apply(seat, Discard(()))
    assert order == [1, 2, 3, 0]
    assert game.phase is Phase.TRICKS
    assert game.to_act == 3  # left of the bidder


def test_discard_order_with_a_later_dealer():
    game = Game(P4, seed="dealer two")
    for _ in range(6):
        pass_round(game)
    assert game.dealer == 2
    assert game.to_act == 3
    win_bid(game, 3, 15)
    game.apply(3, SelectTrump(H))
    order = []
    while game.phase is Phase.DISCARD:
        order.append(game.to_act)
        game.apply(game.to_act, Discard(()))
    assert order == [3, 0, 1, 2]
    assert game.to_act == 0  # left of the bidder, seat 3


def test_refills_are_drawn_in_order_from_the_deck():
    game = dealt(*HANDS_A, stock="6S 7S 8S 9S TS JS QS KS")
    win_bid(game, 1, 15)
    game.apply(1, SelectTrump(S))
    assert game.apply(1, Discard(cs("9C 2H"))) == [
        Discarded(1, cs("9C 2H"), cs("6S 7S"), cs("5S AD 4C 6S 7S"))
    ]
    assert game.apply(2, Discard(())) == [Discarded(2, (), (), cs(HANDS_A[2]))]
    assert game.apply(3, Discard(cs(HANDS_A[3]))) == [
        Discarded(3, cs(HANDS_A[3]), cs("8S 9S TS JS QS"), cs("8S 9S TS JS QS"))
    ]
    assert game.apply(0, Discard(cs("8H"))) == [
        Discarded(0, cs("8H"), cs("KS"), cs("4D 7D 4H AC KS"))
    ]
    assert [tuple(h) for h in game.hands] == [
        cs("4D 7D 4H AC KS"),
        cs("5S AD 4C 6S 7S"),
        cs(HANDS_A[2]),
        cs("8S 9S TS JS QS"),
    ]
    assert game.discards == [(1, cs("9C 2H")), (2, ()), (3, cs(HANDS_A[3])), (0, cs("8H"))]
    assert game.phase is Phase.TRICKS


def test_discard_keeps_the_order_the_player_named():
    game = dealt(*HANDS_A, stock="6S 7S")
    win_bid(game, 1, 15)
    game.apply(1, SelectTrump(S))
    events = game.apply(1, Discard(cs("9C 5S")))
    assert events == [Discarded(1, cs("9C 5S"), cs("6S 7S"), cs("AD 2H 4C 6S 7S"))]
    assert game.view_for(1).discarded == cs("9C 5S")


def test_an_empty_discard_keeps_the_hand():
    game = dealt(*HANDS_A)
    to_tricks(game, 1, 15, S)
    assert [tuple(h) for h in game.hands] == [cs(h) for h in HANDS_A]
    assert game.discards == [(1, ()), (2, ()), (3, ()), (0, ())]
    assert game.view_for(0).discard_counts == (0, 0, 0, 0)


def test_the_discard_choices_are_every_subset_of_the_hand():
    game = dealt(*HANDS_A)
    win_bid(game, 1, 15)
    game.apply(1, SelectTrump(S))
    hand = cs(HANDS_A[1])
    expected = tuple(Discard(sub) for r in range(6) for sub in combinations(hand, r))
    assert len(expected) == 32
    assert game.legal_actions(1) == expected
    assert game.legal_actions(1)[0] == Discard(())
    assert game.legal_actions(1)[-1] == Discard(hand)


def test_refused_discards():
    game = dealt(*HANDS_A, stock="6S 7S")
    win_bid(game, 1, 15)
    game.apply(1, SelectTrump(S))
    assert_refused(
        game, 1, Discard(cs("9C 9C")), "duplicate_card", "a discard names ['9C'] more than once"
    )
    assert_refused(
        game,
        1,
        Discard(cs("AD 9C AD 9C 5S")),
        "duplicate_card",
        "a discard names ['9C', 'AD'] more than once",
    )
    assert_refused(
        game, 1, Discard(cs("9C 2D 3D")), "not_in_hand", "not in seat 1's hand: ['2D', '3D']"
    )
    assert_refused(
        game, 2, Discard(()), "not_your_turn", "it is seat 1's turn to discard, not seat 2's"
    )
    # Nothing was drawn by the refused discards: the next refill is still 6S.
    assert game.apply(1, Discard(cs("9C"))) == [
        Discarded(1, cs("9C"), cs("6S"), cs("5S AD 2H 4C 6S"))
    ]


# ------------------------------------------------------------------------ 12. tricks


def test_the_first_trick_is_led_left_of_the_bidder():
    for bidder, leader in [(1, 2), (2, 3), (3, 0), (0, 1)]:
        game = dealt(*HANDS_A)
        to_tricks(game, bidder, 15, S)
        assert game.to_act == leader
        assert game.legal_actions(leader) == tuple(Play(c) for c in game.hands[leader])
        assert [game.legal_actions(s) for s in range(4) if s != leader] == [(), (), ()]


BLEED_HANDS = ("4S AH JK 7D 8D", "9S 2D 3D AC 2H")


@pytest.mark.parametrize("lead", ["4S", "AH", "JK"])
def test_a_trump_lead_must_be_followed_with_a_trump(lead):
    game = dealt(*BLEED_HANDS)
    to_tricks(game, 1, 15, S)
    play(game, lead)
    # Seat 1's 2H is no trump in spades even on the ace of hearts.
    assert game.legal_actions(1) == (Play(c1("9S")),)
    for code in ("2D", "3D", "AC", "2H"):
        assert_refused(
            game,
            1,
            Play(c1(code)),
            "must_bleed",
            f"a trump was led: seat 1 holds a trump and must play one, not {code}",
        )
    assert play(game, "9S")[-1] == TrickWon(0, c1(lead), 1)


@pytest.mark.parametrize("only_trump", ["9S", "AH", "JK"])
def test_the_ace_of_hearts_and_the_joker_must_bleed_too(only_trump):
    game = dealt("4S 5C 6C 7D 8D", f"{only_trump} 2D 3D AC 2C")
    to_tricks(game, 1, 15, S)
    play(game, "4S")
    assert game.legal_actions(1) == (Play(c1(only_trump)),)
    assert_refused(
        game,
        1,
        Play(c1("AC")),
        "must_bleed",
        "a trump was led: seat 1 holds a trump and must play one, not AC",
    )


def test_without_a_trump_any_card_follows_a_trump_lead():
    # Seat 1 holds no trump (2H and 3H are plain in spades).
    game = dealt("4S AH JK 7D 8D", "3H 2D 3D AC 2H")
    to_tricks(game, 1, 15, S)
    play(game, "JK")
    assert game.legal_actions(1) == tuple(Play(c) for c in cs("3H 2D 3D AC 2H"))
    assert play(game, "AC") == [Played(1, c1("AC")), TrickWon(0, c1("JK"), 1)]


def test_a_plain_lead_may_be_answered_with_any_card():
    game = dealt(*BLEED_HANDS)
    to_tricks(game, 1, 15, S)
    play(game, "7D")
    # No need to follow suit or to trump.
    assert game.legal_actions(1) == tuple(Play(c) for c in cs("9S 2D 3D AC 2H"))
    assert play(game, "AC") == [Played(1, c1("AC")), TrickWon(0, c1("7D"), 1)]


def test_refused_plays():
    game = round_a()
    assert_refused(game, 2, Play(c1("AS")), "not_in_hand", "AS is not in seat 2's hand")
    assert_refused(game, 2, Play(c1("5S")), "not_in_hand", "5S is not in seat 2's hand")
    assert_refused(
        game, 1, Play(c1("5S")), "not_your_turn", "it is seat 2's turn to play, not seat 1's"
    )
    bidding = dealt(*HANDS_A)
    assert_refused(
        bidding, 1, Play(c1("5S")), "wrong_phase", "cannot play now: the game is in bidding"
    )


def test_a_player_holds_one_card_fewer_per_trick():
    game = round_a()
    play(game, "2D 3D 4D 5S  AD")
    assert [len(h) for h in game.hands] == [4, 3, 4, 4]
    assert game.tricks == [((2, c1("2D")), (3, c1("3D")), (0, c1("4D")), (1, c1("5S")))]
    assert game.trick == [(1, c1("AD"))]
    assert game.trick_winners == [(1, c1("5S"))]


# ----------------------------------------------------------------- 14. round score


@pytest.mark.parametrize(
    ("hands", "plays", "amount", "entries", "points"),
    [
        # A: the bid of 15 is made (10 + 5): everyone scores, the bonus on trick 1.
        (HANDS_A, PLAYS_A, 15, ENTRIES_A, (5, 15, 5, 5)),
        # A: bids above 15 fail: the bidder loses the bid, the others keep their points.
        (HANDS_A, PLAYS_A, 20, ((1, -20), (2, 5), (0, 5), (3, 5)), (5, -20, 5, 5)),
        (HANDS_A, PLAYS_A, 30, ((1, -30), (2, 5), (0, 5), (3, 5)), (5, -30, 5, 5)),
        (HANDS_A, PLAYS_A, 60, ((1, -60), (2, 5), (0, 5), (3, 5)), (5, -60, 5, 5)),
        # B: the highest trump (5S) wins trick 4 for seat 0; a low trump won trick 1.
        (HANDS_B, PLAYS_B, 15, ((1, -15), (2, 5), (0, 10), (3, 5)), (10, -15, 5, 5)),
        # E: the bidder's points come after another seat's trick.
        (HANDS_E, PLAYS_E, 15, ENTRIES_E, (5, 15, 5, 5)),
        (HANDS_E, PLAYS_E, 20, ((1, -20), (3, 5), (2, 5), (0, 5)), (5, -20, 5, 5)),
    ],
)
def test_round_score(hands, plays, amount, entries, points):
    game = round_a(amount, hands=hands)
    events = play(game, plays)
    assert events[-1] == RoundScored(1, entries, points, points)
    assert game.scores == list(points)
    assert game.round_results == [points]
    assert (game.phase, game.round, game.dealer) == (Phase.DEAL, 2, 1)


def test_no_bonus_when_no_trick_is_won_by_a_trump():
    game = dealt("2D 3D 4D KC QC", "AD KD 5D 2C 3C")
    to_tricks(game, 1, 15, S)
    events = play(game, "2D AD  KD 3D  5D 4D  2C KC  QC 3C")
    winners = [e for e in events if isinstance(e, TrickWon)]
    assert [(w.seat, w.card.code) for w in winners] == [
        (1, "AD"),
        (1, "KD"),
        (1, "5D"),
        (0, "KC"),
        (0, "QC"),
    ]
    entries = ((1, 5), (1, 5), (1, 5), (0, 5), (0, 5))
    assert events[-1] == RoundScored(1, entries, (10, 15), (10, 15))


def test_a_made_moon_scores_60_and_nothing_else():
    game = dealt(*HANDS_SWEEP)
    to_tricks(game, 1, 60, H)
    events = play(game, PLAYS_SWEEP)
    assert events[-1] == RoundScored(1, ((1, 60),), (0, 60), (0, 60))


def test_a_sweep_on_a_bid_of_30_scores_30():
    game = dealt(*HANDS_SWEEP)
    to_tricks(game, 1, 30, H)
    events = play(game, PLAYS_SWEEP)
    entries = ((1, 10), (1, 5), (1, 5), (1, 5), (1, 5))
    assert events[-1] == RoundScored(1, entries, (0, 30), (0, 30))


def test_a_failed_moon_with_all_but_one_trick():
    # Seat 1 sweeps four tricks; seat 0 takes the last with KC on a club lead.
    game = dealt("2C 3C 4C 6C KC", "5H JH JK AH 7C")
    to_tricks(game, 1, 60, H)
    events = play(game, "2C 5H  JH 3C  JK 4C  AH 6C  7C KC")
    assert events[-1] == RoundScored(1, ((1, -60), (0, 5)), (5, -60), (5, -60))


def test_totals_add_up_over_rounds():
    game = round_a(15)
    play(game, PLAYS_A)  # (5, 15, 5, 5); dealer 1 next
    game.deal(make_deck(*HANDS_A))
    win_bid(game, 1, 20)  # bidding opens at seat 2 now
    game.apply(1, SelectTrump(S))
    while game.phase is Phase.DISCARD:
        game.apply(game.to_act, Discard(()))
    events = play(game, PLAYS_A)
    assert events[-1] == RoundScored(
        2, ((1, -20), (2, 5), (0, 5), (3, 5)), (5, -20, 5, 5), (10, -5, 10, 10)
    )
    assert game.round_results == [(5, 15, 5, 5), (10, -5, 10, 10)]
    assert game.dealer == 2


# ------------------------------------------------------------------- 15. game end


def test_two_made_moons_win_the_game():
    game = dealt(*HANDS_SWEEP)
    to_tricks(game, 1, 60, H)
    play(game, PLAYS_SWEEP)
    game.deal(make_deck(*HANDS_SWEEP))
    assert game.to_act == 0  # dealer 1 now
    game.apply(0, Bid(0))
    assert game.apply(1, Bid(60)) == [BidMade(1, 60), BiddingWon(1, 60)]
    game.apply(1, SelectTrump(H))
    game.apply(0, Discard(()))
    game.apply(1, Discard(()))
    assert game.to_act == 0
    events = play(game, PLAYS_SWEEP)
    assert events[-3:] == [
        TrickWon(1, c1("KH"), 5),
        RoundScored(2, ((1, 60),), (0, 60), (0, 120)),
        GameWon(1, (0, 120)),
    ]
    assert (game.phase, game.winner, game.to_act, game.is_over) == (Phase.GAME_OVER, 1, None, True)
    assert game.round_results == [(0, 60), (0, 120)]


@pytest.mark.parametrize(
    ("hands", "plays", "amount", "start", "totals", "winner"),
    [
        # The bidder made the bid and is at 110: it wins though seat 3 got there first.
        (HANDS_E, PLAYS_E, 15, (0, 95, 0, 105), (5, 110, 5, 110), 1),
        # The bidder made the bid but stays short: the one who reached 110 wins.
        (HANDS_E, PLAYS_E, 15, (0, 0, 0, 105), (5, 15, 5, 110), 3),
        # Failed bid: the first to reach 110 in earning order wins (seat 3 on trick 1),
        # not the highest total (seat 0, 113, on trick 5).
        (HANDS_E, PLAYS_E, 20, (108, 100, 105, 105), (113, 80, 110, 110), 3),
        # The bonus sits on its trick: seat 0 reaches 110 with 5S on trick 4 (10 points),
        # before seat 3 on trick 5.
        (HANDS_B, PLAYS_B, 15, (100, 0, 0, 105), (110, -15, 5, 110), 0),
        # Seat 2 reaches 110 on trick 3, before seat 0 on trick 4.
        (HANDS_B, PLAYS_B, 15, (100, 0, 105, 105), (110, -15, 110, 110), 2),
        # The bidder reaches 110 exactly, alone.
        (HANDS_A, PLAYS_A, 15, (0, 95, 0, 0), (5, 110, 5, 5), 1),
    ],
)
def test_winner(hands, plays, amount, start, totals, winner):
    game = round_a(amount, scores=list(start), hands=hands)
    events = play(game, plays)
    assert isinstance(events[-2], RoundScored)
    assert events[-2].totals == totals
    assert events[-1] == GameWon(winner, totals)
    assert game.winner == winner
    assert game.phase is Phase.GAME_OVER
    assert game.scores == list(totals)


def test_a_made_moon_wins_from_50():
    game = dealt(*HANDS_SWEEP)
    game.scores[:] = [105, 50]
    to_tricks(game, 1, 60, H)
    events = play(game, PLAYS_SWEEP)
    assert events[-2:] == [RoundScored(1, ((1, 60),), (0, 60), (105, 110)), GameWon(1, (105, 110))]


def test_the_game_goes_on_below_110():
    game = round_a(15, scores=[104, 94, 104, 104])
    events = play(game, PLAYS_A)
    assert events[-1] == RoundScored(1, ENTRIES_A, (5, 15, 5, 5), (109, 109, 109, 109))
    assert (game.phase, game.winner, game.dealer) == (Phase.DEAL, None, 1)


def finished_game() -> Game:
    game = round_a(15, scores=[0, 95, 0, 0])
    play(game, PLAYS_A)
    assert game.is_over
    return game


@pytest.mark.parametrize(
    ("seat", "action"),
    [
        (0, Bid(0)),
        (1, Bid(15)),
        (1, SelectTrump(S)),
        (2, Discard(())),
        (3, Play(c1("QH"))),
        (0, Play(c1("AS"))),
        (2, Unpass()),
    ],
)
def test_no_action_after_the_game_is_over(seat, action):
    game = finished_game()
    assert [game.legal_actions(s) for s in range(4)] == [()] * 4
    assert [game.view_for(s).legal for s in range(4)] == [()] * 4
    assert_refused(game, seat, action, "game_over", "the game is over")


def test_no_deal_after_the_game_is_over():
    game = finished_game()
    assert_deal_refused(game, "game_over", "the game is over")


# ------------------------------------------------------------------- golden seeds

GOLDEN = [
    ("57eaf68e-1c52-4a34-a1e1-1a12905c5069", 15, ((1, -15), (0, 5), (3, 5), (3, 5), (3, 5))),
    ("5b46ca51-5967-4a9e-b894-c9886ba1794b", 15, ((1, 10), (3, 5), (1, 5), (3, 5), (3, 5))),
    ("5b46ca51-5967-4a9e-b894-c9886ba1794b", 20, ((1, -20), (3, 5), (3, 5), (3, 5))),
    ("5b46ca51-5967-4a9e-b894-c9886ba1794b", 60, ((1, -60), (3, 5), (3, 5), (3, 5))),
    ("c60b633d-af6e-4715-be71-02c285bfea07", 15, ((1, 10), (1, 5), (1, 5), (1, 5), (1, 5))),
    ("c60b633d-af6e-4715-be71-02c285bfea07", 60, ((1, 60),)),
]


@pytest.mark.parametrize(("seed", "amount", "entries"), GOLDEN)
def test_golden_seed(seed, amount, entries):
    game = Game(["0", "1", "2", "3"], seed=seed)
    game.apply(1, Bid(amount))
    for seat in (2, 3, 0):
        game.apply(seat, Bid(0))
    game.apply(1, SelectTrump(S))
    for seat in (1, 2, 3, 0):
        game.apply(seat, Discard(()))
    is_trump = IS_TRUMP[S]
    scored = []
    while game.round == 1:
        seat = game.to_act
        hand = game.hands[seat]
        card = next((c for c in hand if is_trump[c]), hand[0])
        scored += [e for e in game.apply(seat, Play(card)) if isinstance(e, RoundScored)]
    assert len(scored) == 1
    assert scored[0].entries == entries
    points = [0] * 4
    for seat, value in entries:
        points[seat] += value
    assert scored[0].points == tuple(points)


# ------------------------------------------------------------------ error handling


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        (4, "no seat 4 at a table of 4"),
        (-1, "no seat -1 at a table of 4"),
        ("1", "no seat '1' at a table of 4"),
        (True, "no seat True at a table of 4"),
        (None, "no seat None at a table of 4"),
    ],
)
def test_bad_seat(seat, message):
    game = dealt(*HANDS_A)
    assert_refused(game, seat, Bid(15), "bad_seat", message)
    for query in (game.view_for, game.legal_actions):
        with pytest.raises(IllegalActionError) as info:
            query(seat)
        assert (info.value.code, info.value.message) == ("bad_seat", message)


@pytest.mark.parametrize("action", ["15", 15, None, ("bid", 15), Bid])
def test_bad_action(action):
    game = dealt(*HANDS_A)
    assert_refused(game, 1, action, "bad_action", f"not a Hundred and Ten action: {action!r}")


@pytest.mark.parametrize("suit", ["S", "spades", None, 2])
def test_select_trump_needs_a_suit(suit):
    with pytest.raises(IllegalActionError) as info:
        SelectTrump(suit)
    assert (info.value.code, info.value.message) == ("bad_suit", f"not a suit: {suit!r}")


@pytest.mark.parametrize("card", ["AS", 38, None, 52.0])
def test_play_and_discard_need_cards(card):
    for make in (Play, lambda c: Discard((c,)), lambda c: Discard((c1("AS"), c))):
        with pytest.raises(CardCodeError) as info:
            make(card)
        assert (info.value.code, info.value.message) == ("bad_card", f"not a card: {card!r}")


def test_a_discard_takes_any_sequence_of_cards():
    assert Discard(list(cs("AS KS"))) == Discard(cs("AS KS"))
    assert Discard(list(cs("AS KS"))).cards == cs("AS KS")
    assert Discard([]) == Discard(())


def test_illegal_action_error_is_a_hundred_error():
    assert issubclass(IllegalActionError, HundredError)
    with pytest.raises(HundredError):
        Game(["solo"])


@pytest.mark.parametrize(
    ("phase_of", "seat", "action", "message"),
    [
        ("bidding", 1, SelectTrump(S), "cannot name trump now: the game is in bidding"),
        ("bidding", 1, Discard(()), "cannot discard now: the game is in bidding"),
        ("trump", 1, Bid(15), "cannot bid now: the game is in trump"),
        ("trump", 1, Discard(()), "cannot discard now: the game is in trump"),
        ("trump", 1, Play(c1("5S")), "cannot play now: the game is in trump"),
        ("discard", 1, SelectTrump(S), "cannot name trump now: the game is in discard"),
        ("discard", 1, Play(c1("5S")), "cannot play now: the game is in discard"),
        ("discard", 2, Bid(0), "cannot bid now: the game is in discard"),
        ("tricks", 2, Discard(()), "cannot discard now: the game is in tricks"),
        ("tricks", 2, Unpass(), "cannot unpass now: the game is in tricks"),
        ("tricks", 0, Bid(0), "cannot bid now: the game is in tricks"),
    ],
)
def test_wrong_phase(phase_of, seat, action, message):
    game = dealt(*HANDS_A)
    if phase_of != "bidding":
        win_bid(game, 1, 15)
    if phase_of in ("discard", "tricks"):
        game.apply(1, SelectTrump(S))
    if phase_of == "tricks":
        while game.phase is Phase.DISCARD:
            game.apply(game.to_act, Discard(()))
    assert game.phase.value == phase_of
    assert_refused(game, seat, action, "wrong_phase", message)


# -------------------------------------------------------------------------- events


def test_events_of_a_whole_round():
    game = Game(P4)
    deck = make_deck(*HANDS_A)
    assert game.deal(deck) == [Dealt(1, 0, tuple(cs(h) for h in HANDS_A))]
    assert game.apply(1, Bid(15)) == [BidMade(1, 15)]
    assert game.apply(2, Bid(0)) == [BidMade(2, 0)]
    assert game.apply(3, Bid(0)) == [BidMade(3, 0)]
    assert game.apply(0, Bid(0)) == [BidMade(0, 0), BiddingWon(1, 15)]
    assert game.apply(1, SelectTrump(S)) == [TrumpSelected(1, S)]
    for seat in (1, 2, 3, 0):
        assert game.apply(seat, Discard(())) == [Discarded(seat, (), (), cs(HANDS_A[seat]))]
    assert game.apply(2, Play(c1("2D"))) == [Played(2, c1("2D"))]
    play(game, "3D 4D 5S  AD 5D 6D 7D  2H KH 3H 4H  2C 3C AC 4C  8H 9C 9D")
    assert game.apply(3, Play(c1("QH"))) == [
        Played(3, c1("QH")),
        TrickWon(3, c1("QH"), 5),
        RoundScored(1, ENTRIES_A, (5, 15, 5, 5), (5, 15, 5, 5)),
    ]
    assert len(game.history) == 1 + 4 + 1 + 4 + 20
    assert game.history[0] == DealRecord(1, 0, deck)
    assert game.history[-1] == (3, Play(c1("QH")))


def test_the_last_play_of_a_seeded_round_precedes_the_next_deal():
    game = Game(P4, seed="next deal")
    to_tricks(game, 1, 15, D)
    events = play_out(game)
    deck = seeded_deck("next deal", 1)
    assert isinstance(events[-2], RoundScored)
    assert events[-1] == Dealt(2, 1, tuple(deck[5 * i : 5 * i + 5] for i in range(4)))
    last_play = game.history[-2]
    assert isinstance(last_play, tuple)
    assert isinstance(last_play[1], Play)
    assert game.history[-1] == DealRecord(2, 1, deck)
    assert (game.phase, game.to_act) == (Phase.BIDDING, 2)


# --------------------------------------------------------------------------- views


def mid_round() -> Game:
    """Scenario A at totals (10, 20, 30, 40), with discards; trick 2 half played."""
    game = dealt(*HANDS_A, stock="6S 7S 8S 9S")
    game.scores[:] = [10, 20, 30, 40]
    win_bid(game, 1, 15)
    game.apply(1, SelectTrump(S))
    game.apply(1, Discard(cs("9C")))
    game.apply(2, Discard(()))
    game.apply(3, Discard(cs("QH 3C")))
    game.apply(0, Discard(cs("8H")))
    play(game, "2D 3D 4D 5S  AD 5D")
    return game


MID_HANDS = (cs("7D 4H AC 9S"), cs("2H 4C 6S"), cs("KH 2C 9D"), cs("6D 3H 7S 8S"))
MID_DISCARDS = (cs("8H"), cs("9C"), (), cs("QH 3C"))


@pytest.mark.parametrize("seat", range(4))
def test_view_fields_are_seat_relative(seat):
    game = mid_round()
    assert [tuple(h) for h in game.hands] == list(MID_HANDS)

    def rel(s: int) -> int:
        return (s - seat) % 4

    view = game.view_for(seat)
    assert view.seat == seat
    assert view.num_players == 4
    assert (view.phase, view.round, view.high_bid, view.trump) == (Phase.TRICKS, 1, 15, S)
    assert view.hand == MID_HANDS[seat]
    assert view.scores == tuple([10, 20, 30, 40][(seat + i) % 4] for i in range(4))
    assert view.dealer == rel(0)
    assert view.bidder == rel(1)
    assert view.to_act == rel(3)
    assert view.is_dealer == (seat == 0)
    assert view.is_bidder == (seat == 1)
    assert not view.pre_passed
    assert view.bids == ((rel(1), 15), (rel(2), 0), (rel(3), 0), (rel(0), 0))
    counts = [1, 1, 0, 2]
    assert view.discard_counts == tuple(counts[(seat + i) % 4] for i in range(4))
    assert view.discarded == MID_DISCARDS[seat]
    trick1 = ((rel(2), c1("2D")), (rel(3), c1("3D")), (rel(0), c1("4D")), (rel(1), c1("5S")))
    assert view.completed_tricks == ((trick1, rel(1)),)
    assert view.current_trick == ((rel(1), c1("AD")), (rel(2), c1("5D")))
    assert view.lead == c1("AD")
    expected_legal = tuple(Play(c) for c in MID_HANDS[3]) if seat == 3 else ()
    assert view.legal == expected_legal == game.legal_actions(seat)


@pytest.mark.parametrize("seat", range(4))
def test_card_knowledge(seat):
    game = mid_round()
    view = game.view_for(seat)

    def rel(s: int) -> int:
        return (s - seat) % 4

    played = {
        "2D": PlayedIn(0, rel(2)),
        "3D": PlayedIn(0, rel(3)),
        "4D": PlayedIn(0, rel(0)),
        "5S": PlayedIn(0, rel(1)),
        "AD": PlayedIn(1, rel(1)),
        "5D": PlayedIn(1, rel(2)),
    }
    expected = []
    for c in ALL_CARDS:
        if c in MID_HANDS[seat]:
            status = InHand()
        elif c.code in played:
            status = played[c.code]
        elif c in MID_DISCARDS[seat]:
            status = DiscardedBy(0)
        else:
            status = Unknown()
        expected.append((c, status))
    assert view.card_knowledge() == tuple(expected)
    unknown = {c for c, status in view.card_knowledge() if status == Unknown()}
    for other in range(4):
        if other != seat:
            assert set(MID_HANDS[other]) <= unknown
            assert set(MID_DISCARDS[other]) <= unknown


def test_discard_counts_fill_in_as_players_discard():
    game = dealt(*HANDS_A, stock="6S 7S 8S")
    win_bid(game, 1, 15)
    game.apply(1, SelectTrump(S))
    assert game.view_for(0).discard_counts == (None, None, None, None)
    game.apply(1, Discard(cs("9C 4C")))
    assert game.view_for(0).discard_counts == (None, 2, None, None)
    assert game.view_for(2).discard_counts == (None, None, None, 2)
    assert game.view_for(1).discarded == cs("9C 4C")
    assert game.view_for(2).discarded == ()
    game.apply(2, Discard(()))
    assert game.view_for(3).discard_counts == (None, None, 2, 0)


def test_a_view_never_shows_another_seats_hand():
    # Seat 0's view is the same whatever the other seats hold.
    stock = "6S 7S 8S 9S"
    decks = [
        make_deck(HANDS_A[0], HANDS_A[1], HANDS_A[2], HANDS_A[3], stock=stock),
        make_deck(HANDS_A[0], HANDS_A[3], HANDS_A[1], HANDS_A[2], stock=stock),
        make_deck(HANDS_A[0], "QS KS AS JS TS", HANDS_A[1], HANDS_A[2], stock=stock),
    ]
    seen = []
    for deck in decks:
        game = Game(P4)
        game.deal(deck)
        states = [view_state(game.view_for(0))]
        game.apply(2, Bid(0))
        states.append(view_state(game.view_for(0)))
        win_bid(game, 1, 15)
        game.apply(1, SelectTrump(S))
        states.append(view_state(game.view_for(0)))
        game.apply(1, Discard((game.hands[1][0],)))
        game.apply(2, Discard(()))
        game.apply(3, Discard(()))
        states.append(view_state(game.view_for(0)))
        game.apply(0, Discard(cs("8H")))
        states.append(view_state(game.view_for(0)))
        seen.append(states)
    assert seen[0] == seen[1] == seen[2]
    assert seen[0][-1][4] == cs("4D 7D 4H AC 7S")  # 6S went to seat 1


def test_a_view_is_a_snapshot():
    game = round_a()
    view = game.view_for(2)
    before = view_state(view)
    play(game, "2D 3D 4D 5S")
    assert view_state(view) == before
    assert view.hand == cs(HANDS_A[2])
    assert game.view_for(2).hand == cs("5D KH 2C 9D")


def test_views_during_bidding():
    game = dealt(*HANDS_A)
    bids(game, "3:0 1:20")
    for seat in range(4):
        view = game.view_for(seat)
        assert view.phase is Phase.BIDDING
        assert view.hand == cs(HANDS_A[seat])
        assert view.to_act == (2 - seat) % 4
        assert view.bidder is None
        assert view.trump is None
        assert view.lead is None
        assert view.bids == (((1 - seat) % 4, 20),)
        assert view.pre_passed == (seat == 3)
        assert view.high_bid == 20
        assert view.discard_counts == (None,) * 4
        assert view.completed_tricks == ()
        assert view.current_trick == ()
        assert view.legal == game.legal_actions(seat)
    assert game.view_for(3).legal == (Unpass(),)
    assert game.view_for(0).legal == (Bid(0),)
    assert game.view_for(1).legal == (Bid(0),)
    assert amounts(game.view_for(2).legal) == [0, 25, 30, 60]
