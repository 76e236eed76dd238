"""Single-deck Pinochle (RULES.md, "Single-deck pinochle"): the engine rule by rule, the
seed transcript as a test vector, and random whole games.

The transcript (seeds/pinochle-server-protocol.txt) shows seat 0's hands, every meld
line, some tricks and the scores. ``TRANSCRIPT`` completes it: full deals whose meld,
visible tricks and counters are exactly the transcript's (found by a search, then each
meld and trick checked by hand against RULES.md), with seat 0's plays; the other seats
are the seed's AI and play their first legal card. Expected values are written out
from the transcript or by hand, never taken from the engine.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server.games.kit.cards import JOKER, STANDARD_52, Card, Suit, format_cards
from hundred_server.games.pinochle.rules import (
    BID_ACTIONS,
    DEFAULT_TARGET,
    HAND_SIZE,
    LOSING_SCORE,
    MAX_BID,
    MIN_BID,
    NUM_PLAYERS,
    PINOCHLE_CARDS,
    PINOCHLE_DECK,
    TRUMP_ACTIONS,
    Bid,
    BiddingWon,
    BidMade,
    DealRecord,
    Dealt,
    Event,
    Game,
    GameWon,
    HandScored,
    Melded,
    Phase,
    Play,
    Played,
    StuckDealer,
    TrickWon,
    Trump,
    TrumpNamed,
    View,
    check_play,
    game_winner,
    hand_points,
    legal_bids,
    legal_plays,
    meld,
    seeded_deck,
    sort_hand,
    team_of,
    trick_points,
    trick_winner,
)
from hundred_server.protocol.errors import IllegalActionError
from tests.support.game_checks import cards_in, seat_to_act, state_of

P4 = ("ann", "bob", "cy", "dee")
H, D, S, C = Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS


# ------------------------------------------------------------------------- helpers


def cs(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def c1(code: str) -> Card:
    return Card.parse(code)


def plays_of(text: str) -> tuple[tuple[int, Card], ...]:
    """``"2:AD 3:TD"`` as ((2, AD), (3, TD))."""
    return tuple((int(p[0]), c1(p[2:])) for p in text.split())


def deck_for(hands: Sequence[str], dealer: int = 0) -> tuple[Card, ...]:
    """The deck that deals ``hands[s]`` to seat s: ``deck[i]`` goes to ``(dealer+1+i)%4``."""
    cards = [cs(h) for h in hands]
    assert all(len(h) == HAND_SIZE for h in cards), [len(h) for h in cards]
    assert Counter(c for h in cards for c in h) == Counter(PINOCHLE_DECK)
    deck: list[Card] = [JOKER] * 48
    for seat, hand in enumerate(cards):
        for k, card in enumerate(hand):
            deck[4 * k + (seat - dealer - 1) % 4] = card
    return tuple(deck)


def snapshot(game: Game) -> tuple[object, ...]:
    return state_of(
        game,
        "phase to_act dealer hand_index hands bids bidder bid trump melds trick tricks",
        "trick_winners played tricks_won counters scores winner history hand_results",
    )


def bid_round(game: Game, amounts: dict[int, int]) -> list[Event]:
    """Every seat bids once, from the dealer's left; ``amounts`` by seat, 0 passes."""
    events: list[Event] = []
    for k in range(1, 5):
        seat = (game.dealer + k) % 4
        events += game.apply(seat, Bid(amounts.get(seat, 0)))
    return events


def first_legal(game: Game) -> list[Event]:
    """Play the current hand's tricks out, every seat playing its first legal card."""
    events: list[Event] = []
    while game.phase is Phase.TRICKS:
        seat = game.to_act
        assert seat is not None
        events += game.apply(seat, game.legal_actions(seat)[0])
    return events


# A deal for the rule tests (dealer 0): seat 1 leads after bidding unless said otherwise.
RULE_HANDS = (
    "AD KD KD JD 9D JC TH KH TS TS JS 9S",
    "QD QD AC AC TC 9C AH TH QH QH 9H QS",
    "AD JD JC 9C AH KH JH 9H KS KS QS JS",
    "TD TD 9D TC KC KC QC QC JH AS AS 9S",
)


def dealt(hands: Sequence[str] = RULE_HANDS, dealer: int = 0) -> Game:
    game = Game(P4)
    for _ in range(dealer):  # the deal passes left: play hands out to reach the dealer
        game.deal(PINOCHLE_DECK)
        bid_round(game, {})
        game.apply(game.dealer, Trump(H))
        first_legal(game)
    game.deal(deck_for(hands, dealer))
    return game


def to_tricks(bidder: int = 2, trump: Suit = H, amount: int = 25) -> Game:
    """RULE_HANDS, ``bidder`` bids ``amount``, names ``trump``: ready for trick 1."""
    game = dealt()
    bid_round(game, {bidder: amount})
    game.apply(bidder, Trump(trump))
    return game


# ------------------------------------------------------------------------ the deck


def test_the_deck_is_a_t_k_q_j_9_twice_in_each_suit():
    assert len(PINOCHLE_DECK) == 48
    assert len(PINOCHLE_CARDS) == 24
    assert Counter(PINOCHLE_DECK) == dict.fromkeys(PINOCHLE_CARDS, 2)
    assert {c.rank.code for c in PINOCHLE_CARDS} == set("ATKQJ9")
    assert format_cards(PINOCHLE_CARDS[:6]) == ["AD", "TD", "KD", "QD", "JD", "9D"]


def test_a_hand_sorts_by_suit_d_c_h_s_then_a_t_k_q_j_9():
    # The transcript's first Deal line, shuffled and sorted back.
    shown = cs("AD KD KD JD 9D JC TH KH TS TS JS 9S")
    shuffled = list(shown)
    random.Random(1).shuffle(shuffled)
    assert sort_hand(shuffled) == shown
    assert sort_hand(cs("9S AS 9H TH 9C AC 9D AD")) == cs("AD 9D AC 9C TH 9H AS 9S")
    assert sort_hand(PINOCHLE_DECK) == PINOCHLE_DECK


def test_seeded_decks_are_deterministic_permutations():
    deck = seeded_deck("seed", 0)
    assert Counter(deck) == Counter(PINOCHLE_DECK)
    assert seeded_deck("seed", 0) == deck
    assert seeded_deck("seed", 1) != deck
    assert seeded_deck("other", 0) != deck


def test_teams_are_seats_0_2_and_1_3():
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]


# ------------------------------------------------------------------------ set up


@pytest.mark.parametrize("target", [0, -5, True, 2.5, "100"])
def test_the_target_is_a_positive_whole_number(target):
    with pytest.raises(IllegalActionError) as info:
        Game(P4, target=target)
    assert info.value.code == "bad_target"


def test_a_new_game_waits_for_a_deck():
    game = Game(P4)
    assert (game.phase, game.needs_deal, game.to_act) == (Phase.DEAL, True, None)
    assert (game.dealer, game.round, game.round_index, game.hand_index) == (0, 1, 0, 0)
    assert (game.scores, game.winner, game.is_over, game.target) == ((0, 0), None, False, 100)
    assert (game.bidder, game.bid, game.trump, game.seed) == (None, None, None, None)
    assert game.game_name == "pinochle"
    assert game.players == P4
    assert game.history == []
    assert all(game.legal_actions(s) == () for s in range(4))
    assert Game(P4, target=150).target == 150
    assert DEFAULT_TARGET == 100


def test_the_deal_goes_one_card_at_a_time_from_the_dealers_left():
    game = Game(P4)
    deck = seeded_deck("deal", 0)
    events = game.deal(deck)
    for seat in range(4):
        # dealer 0: deck[i] to seat (1 + i) % 4, so seat s gets deck[(s - 1) % 4 :: 4]
        assert game.hand(seat) == sort_hand(deck[(seat - 1) % 4 :: 4])
    assert events == [Dealt(1, 0, tuple(game.hand(s) for s in range(4)))]
    assert game.history == [DealRecord(1, 0, deck)]
    assert (game.phase, game.to_act, game.needs_deal) == (Phase.BIDDING, 1, False)
    assert game.deck == deck


def test_dealt_hands_are_sorted_for_display():
    game = dealt()
    assert game.hand(0) == cs(RULE_HANDS[0])
    assert all(game.hand(s) == sort_hand(game.hand(s)) for s in range(4))


# ------------------------------------------------------------------------ bidding


def test_bidding_is_one_round_from_the_dealers_left():
    game = dealt()
    assert game.legal_actions(1)[:3] == (Bid(0), Bid(20), Bid(21))
    assert game.legal_actions(1)[-1] == Bid(MAX_BID)
    assert len(game.legal_actions(1)) == 1 + MAX_BID - MIN_BID + 1
    assert all(game.legal_actions(s) == () for s in (0, 2, 3))
    assert game.apply(1, Bid(0)) == [BidMade(1, 0)]
    assert game.apply(2, Bid(25)) == [BidMade(2, 25)]
    assert game.legal_actions(3)[:3] == (Bid(0), Bid(26), Bid(27))
    assert game.apply(3, Bid(30)) == [BidMade(3, 30)]
    assert game.high_bid == 30
    events = game.apply(0, Bid(0))
    assert events == [BidMade(0, 0), BiddingWon(3, 30)]
    assert (game.phase, game.to_act, game.bidder, game.bid) == (Phase.TRUMP, 3, 3, 30)
    assert game.bids == [(1, 0), (2, 25), (3, 30), (0, 0)]
    assert game.legal_actions(3) == (Trump(D), Trump(C), Trump(H), Trump(S))


def test_when_all_pass_the_dealer_is_stuck_at_20():
    game = dealt()
    events = bid_round(game, {})
    assert events == [
        BidMade(1, 0),
        BidMade(2, 0),
        BidMade(3, 0),
        BidMade(0, 0),
        StuckDealer(0, 20),
        BiddingWon(0, 20),
    ]
    assert (game.bidder, game.bid, game.to_act, game.phase) == (0, 20, 0, Phase.TRUMP)


def test_the_dealer_may_bid_too_and_a_late_high_bid_wins():
    game = dealt()
    events = bid_round(game, {1: 20, 3: 21, 0: 40})
    assert events[-1] == BiddingWon(0, 40)


def test_legal_bids_top_the_high_bid():
    assert legal_bids(0) == (Bid(0), *(Bid(a) for a in range(20, 251)))
    assert legal_bids(29) == (Bid(0), *(Bid(a) for a in range(30, 251)))
    assert legal_bids(MAX_BID) == (Bid(0),)
    assert legal_bids(0)[1] is BID_ACTIONS[20]


@pytest.mark.parametrize("amount", [1, 19, 251, -20, True, 25.0, "25"])
def test_a_bid_is_0_or_a_whole_number_from_20_to_250(amount):
    with pytest.raises(IllegalActionError) as info:
        Bid(amount)
    assert info.value.code == "illegal_bid"


@pytest.mark.parametrize("amount", [25, 24, 20])
def test_a_bid_must_top_the_high_bid(amount):
    game = dealt()
    game.apply(1, Bid(25))
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.apply(2, Bid(amount))
    assert info.value.code == "illegal_bid"
    assert info.value.message == f"a bid must top the high bid of 25; {amount} does not"
    assert snapshot(game) == before
    game.apply(2, Bid(0))  # a pass is always open


def test_only_the_bidder_names_trump_and_only_a_suit():
    game = dealt()
    bid_round(game, {2: 25})
    with pytest.raises(IllegalActionError) as info:
        game.apply(1, Trump(H))
    assert info.value.code == "not_your_turn"
    with pytest.raises(IllegalActionError) as info:
        Trump("H")  # type: ignore[arg-type]
    assert info.value.code == "bad_suit"
    assert TRUMP_ACTIONS[S] == Trump(S)


def test_naming_trump_shows_every_seats_meld_in_seat_order_and_the_bidder_leads():
    game = dealt()
    bid_round(game, {2: 25})
    events = game.apply(2, Trump(H))
    assert events == [
        TrumpNamed(2, H),
        Melded(0, (), 0),
        Melded(1, cs("9H"), 1),
        Melded(2, cs("JD JC JH 9H KS QS JS"), 11),  # KS KS QS: one marriage, one KS shown
        Melded(3, cs("KC KC QC QC"), 4),
    ]
    assert (game.phase, game.to_act, game.trump) == (Phase.TRICKS, 2, H)
    assert game.melds[3] == (4, cs("KC KC QC QC"))
    assert game.hand(2) == cs(RULE_HANDS[2])  # melded cards stay in the hand


# ------------------------------------------------------------------------ meld

# The transcript's 12 meld lines, with the full hands of the reconstructed deals
# (seat 0's hands are the transcript's Deal lines).
MELD_LINES = [
    # hand 1, hearts
    (H, "AD KD KD JD 9D JC TH KH TS TS JS 9S", "", 0),
    (H, "QD QD AC AC TC 9C AH TH QH QH 9H QS", "9H", 1),
    (H, "AD JD JC 9C AH KH JH 9H KS KS QS JS", "JD JC JH 9H KS QS JS", 11),
    (H, "TD TD 9D TC KC KC QC QC JH AS AS 9S", "KC KC QC QC", 4),
    # hand 2, clubs
    (C, "9D AC TC KC QC QC JC KH JH 9H 9H JS", "AC TC KC QC JC", 15),
    (C, "QD QD 9D JC 9C AH KH JH AS KS KS 9S", "9C", 1),
    (C, "AD TD KD KD JD JD KC TH QH TS JS 9S", "", 0),
    (C, "AD TD AC TC 9C AH TH QH AS TS QS QS", "AD AC 9C AH AS", 11),
    # hand 3, clubs
    (C, "TD 9D AC 9C 9C AH KH QH 9H QS 9S 9S", "9C 9C KH QH", 4),
    (C, "AD AC TC KC QC JC AH KH AS AS JS JS", "AD AC TC KC QC JC AH AS", 25),
    (C, "JD TC KC JC TH QH JH 9H TS KS KS QS", "JD KS QS", 6),
    (C, "AD TD KD KD QD QD JD 9D QC TH JH TS", "KD KD QD QD", 4),
]


@pytest.mark.parametrize(("trump", "hand", "shown", "amount"), MELD_LINES)
def test_the_transcripts_meld_lines(trump, hand, shown, amount):
    assert meld(cs(hand), trump) == (amount, cs(shown))


# Worked out by hand from RULES.md item 4.
MELD_CASES = [
    # a run and a royal marriage beyond it, a dix, aces around (AH counts in both)
    (
        "run_and_royal",
        H,
        "AH TH KH KH QH QH JH 9H AD AS AC JD",
        "AD AC AH TH KH KH QH QH JH 9H AS",
        30,
    ),
    # a double run holds both K-Qs: no royal marriage
    ("double_run", H, "AH AH TH TH KH KH QH QH JH JH 9S 9D", "AH AH TH TH KH KH QH QH JH JH", 150),
    # one run and a second K without a second Q: the run only
    (
        "run_extra_king",
        S,
        "AS TS KS KS QS JS 9D 9C 9H TD TC TH",
        "AS TS KS QS JS",
        15,
    ),
    ("royal_marriage", H, "KH QH 9D 9C 9S TD TC TS JD JC JS AD", "KH QH", 4),
    ("plain_marriage", S, "KH QH 9D 9C 9H TD TC TS JD JC JS AD", "KH QH", 2),
    ("no_run_off_trump", H, "AS TS KS QS JS 9D 9C TD TC 9S JC AD", "KS QS", 2),
    ("double_pinochle", C, "QS QS JD JD 9D 9H TD TH TS AD AH AS", "JD JD QS QS", 30),
    ("pinochle_and_jacks", C, "QS QS JD JD JC JH JS 9D 9H TD TH TS", "JD JD JC JH QS QS JS", 34),
    ("double_aces", S, "AD AD AC AC AH AH AS AS TD TC TH JD", "AD AD AC AC AH AH AS AS", 100),
    ("double_kings", D, "KD KD KC KC KH KH KS KS 9C 9H 9S JC", "KD KD KC KC KH KH KS KS", 80),
    ("double_queens", H, "QD QD QC QC QH QH QS QS 9D 9C TD TC", "QD QD QC QC QH QH QS QS", 60),
    (
        "double_jacks_and_dixes",
        S,
        "JD JD JC JC JH JH JS JS AD TD 9S 9S",
        "JD JD JC JC JH JH JS JS 9S 9S",
        42,
    ),
    ("kings_around_and_royal", H, "KD KC KH QH KS 9D 9C 9S TD TC TS JD", "KD KC KH QH KS", 12),
    ("single_arounds", D, "AD AC AH AS KD KC KH KS TD TC TH TS", "AD KD AC KC AH KH AS KS", 18),
    (
        "queens_jacks_pinochle",
        H,
        "QD QC QH QS JD JC JH JS 9D 9C TD TC",
        "QD JD QC JC QH JH QS JS",
        14,
    ),
    ("nothing", D, "TD TD 9C 9C 9H 9H TS TS JC JC JH JH", "", 0),
]


@pytest.mark.parametrize(
    ("trump", "hand", "shown", "amount"),
    [case[1:] for case in MELD_CASES],
    ids=[case[0] for case in MELD_CASES],
)
def test_meld_rule_by_rule(trump, hand, shown, amount):
    assert meld(cs(hand), trump) == (amount, cs(shown))


def test_meld_does_not_depend_on_the_order_of_the_hand():
    hand = list(cs("AH TH KH KH QH QH JH 9H AD AS AC JD"))
    random.Random(3).shuffle(hand)
    assert meld(hand, H) == meld(sort_hand(hand), H)


# ------------------------------------------------------------------------ tricks

# The transcript's trick lines: (trump, plays, last trick, winner, card, points).
TRICK_LINES = [
    (H, "2:AD 3:TD 0:KD 1:QD", False, 2, "AD", 3),  # hand 1 trick 1
    (H, "0:KD 1:TH 2:KH 3:JH", False, 1, "TH", 3),  # hand 1 trick 6
    (H, "1:TC 2:JH 3:KC 0:TH", False, 0, "TH", 3),  # hand 1 trick 7
    (H, "1:9H 2:JS 3:9S 0:TS", True, 1, "9H", 2),  # hand 1 trick 12
    (C, "3:AD 0:9D 1:QD 2:AD", False, 3, "AD", 2),  # hand 2 trick 1: the first AD wins
    (C, "0:QC 1:9S 2:9S 3:QS", True, 0, "QC", 1),  # hand 2 trick 12
    (C, "3:9D 0:KH 1:JS 2:QS", True, 3, "9D", 2),  # hand 3 trick 12
]


@pytest.mark.parametrize(("trump", "plays", "last", "seat", "card", "points"), TRICK_LINES)
def test_the_transcripts_trick_lines(trump, plays, last, seat, card, points):
    trick = plays_of(plays)
    assert trick_winner(trick, trump) == (seat, c1(card))
    assert trick_points(trick, last) == points


def test_the_counters_add_up_to_25():
    tricks = [tuple((s, PINOCHLE_DECK[4 * t + s]) for s in range(4)) for t in range(12)]
    assert sum(trick_points(t, i == 11) for i, t in enumerate(tricks)) == 25


# ------------------------------------------------------------------- legal plays

HAND = "AD TD QD 9D AC 9C KH 9H"  # no spades; hearts are trump below


@pytest.mark.parametrize(
    ("hand", "trick", "legal"),
    [
        # leading: any card, each once, in hand order
        (HAND, "", "AD TD QD 9D AC 9C KH 9H"),
        ("AD AD TD 9S", "", "AD TD 9S"),
        # follow suit and beat the winning card of the led suit if able
        (HAND, "1:KD", "AD TD"),
        (HAND, "1:9D 2:QD 3:KD", "AD TD"),
        ("AD AD TD", "1:9D", "AD TD"),
        # ... else any card of the led suit; an identical card does not beat
        (HAND, "1:AD", "AD TD QD 9D"),
        (HAND, "1:TD 2:AD", "AD TD QD 9D"),
        # a trump is winning a side-suit trick: follow suit, no need to beat
        (HAND, "1:JD 2:9H", "AD TD QD 9D"),
        # trump led: follow with trumps and beat if able, else any trump
        (HAND, "1:QH", "KH"),
        (HAND, "1:AH", "KH 9H"),
        # void in the led suit: trump, any trump if a side card is winning
        (HAND, "1:KS", "KH 9H"),
        (HAND, "1:KS 2:AS", "KH 9H"),
        # ... and beat a winning trump if able, else any trump
        (HAND, "1:KS 2:QH", "KH"),
        (HAND, "1:KS 2:QH 3:TH", "KH 9H"),
        (HAND, "1:KS 2:AH", "KH 9H"),
        # void in the led suit and in trumps: any card
        ("AD TD AC", "1:KS", "AD TD AC"),
        ("AD TD AC", "1:KS 2:9H", "AD TD AC"),
    ],
)
def test_legal_plays_clause_by_clause(hand, trick, legal):
    assert legal_plays(cs(hand), plays_of(trick), H) == tuple(Play(c) for c in cs(legal))


@pytest.mark.parametrize(
    ("trick", "card", "code"),
    [
        ("1:KD", "JS", "not_in_hand"),
        ("1:KD", "AC", "must_follow_suit"),
        ("1:KD", "KH", "must_follow_suit"),
        ("1:KD", "QD", "must_beat"),
        ("1:QH", "9H", "must_beat"),
        ("1:KS", "AC", "must_trump"),
        ("1:KS 2:QH", "9H", "must_beat"),
    ],
)
def test_check_play_says_why_a_card_is_refused(trick, card, code):
    with pytest.raises(IllegalActionError) as info:
        check_play(cs(HAND), plays_of(trick), H, c1(card))
    assert info.value.code == code
    assert card in info.value.message


def test_check_play_accepts_every_legal_play():
    for trick in ("", "1:KD", "1:AD", "1:QH", "1:KS", "1:KS 2:QH", "1:JD 2:9H"):
        for play in legal_plays(cs(HAND), plays_of(trick), H):
            check_play(cs(HAND), plays_of(trick), H, play.card)


# ------------------------------------------------------------------------ scoring


@pytest.mark.parametrize(
    ("meld_", "counters", "bidder", "bid", "points", "made"),
    [
        ((11, 5), (11, 14), 2, 25, (-25, 19), False),  # transcript hand 1
        ((15, 12), (13, 12), 3, 29, (28, -29), False),  # transcript hand 2
        ((10, 29), (11, 14), 1, 45, (21, -45), False),  # transcript hand 3
        ((10, 0), (15, 10), 0, 25, (25, 10), True),  # exactly the bid makes it
        ((10, 0), (14, 11), 2, 25, (-25, 11), False),
        ((0, 30), (10, 15), 1, 20, (10, 45), True),
    ],
)
def test_hand_points(meld_, counters, bidder, bid, points, made):
    assert hand_points(meld_, counters, bidder, bid) == (points, made)


@pytest.mark.parametrize(
    ("totals", "target", "bidding_team", "winner"),
    [
        ((99, 40), 100, 0, None),
        ((100, 40), 100, 1, 0),
        ((40, 130), 100, 0, 1),
        ((120, 130), 100, 0, 1),  # both over: the higher wins
        ((110, 110), 100, 1, 1),  # a tie: the team that bid this hand
        ((110, 110), 100, 0, 0),
        ((-50, 20), 100, 0, None),  # -50 is not below -50
        ((-51, 20), 100, 0, 1),
        ((24, -55), 100, 1, 0),  # transcript hand 3
        ((-60, -60), 100, 1, 1),
        ((19, -25), 19, 0, 0),  # the Target option
    ],
)
def test_game_winner(totals, target, bidding_team, winner):
    assert game_winner(totals, target, bidding_team) == winner


# ------------------------------------------------------------ the transcript game


@dataclasses.dataclass(frozen=True)
class TranscriptHand:
    """One hand of the transcript: the reconstructed deal, the bids, trump, seat 0's
    plays, and what the transcript shows of its tricks and score."""

    hands: tuple[str, str, str, str]
    bids: dict[int, int]
    bidder: int
    trump: Suit
    seat0: str
    tricks: dict[int, TrickWon]
    scored: HandScored


TRANSCRIPT = [
    # hand 1: dealer 0; seat 2 bids 25, names hearts, and is set
    TranscriptHand(
        hands=RULE_HANDS,
        bids={2: 25},
        bidder=2,
        trump=H,
        seat0="KD AD 9D JC KH KD TH 9S JS TS JD TS",
        tricks={
            1: TrickWon(2, c1("AD"), 1, 3, plays_of("2:AD 3:TD 0:KD 1:QD")),
            6: TrickWon(1, c1("TH"), 6, 3, plays_of("0:KD 1:TH 2:KH 3:JH")),
            7: TrickWon(0, c1("TH"), 7, 3, plays_of("1:TC 2:JH 3:KC 0:TH")),
            12: TrickWon(1, c1("9H"), 12, 2, plays_of("1:9H 2:JS 3:9S 0:TS")),
        },
        scored=HandScored(1, (11, 5), (11, 14), (-25, 19), (-25, 19), 2, 25, False),
    ),
    # hand 2: dealer 1; seat 3 bids 29, names clubs, and is set
    TranscriptHand(
        hands=(
            "9D AC TC KC QC QC JC KH JH 9H 9H JS",
            "QD QD 9D JC 9C AH KH JH AS KS KS 9S",
            "AD TD KD KD JD JD KC TH QH TS JS 9S",
            "AD TD AC TC 9C AH TH QH AS TS QS QS",
        ),
        bids={3: 29},
        bidder=3,
        trump=C,
        seat0="9D KC QC AC JS JC 9H 9H KH TC JH QC",
        tricks={
            1: TrickWon(3, c1("AD"), 1, 2, plays_of("3:AD 0:9D 1:QD 2:AD")),
            12: TrickWon(0, c1("QC"), 12, 1, plays_of("0:QC 1:9S 2:9S 3:QS")),
        },
        scored=HandScored(2, (15, 12), (13, 12), (28, -29), (3, -10), 3, 29, False),
    ),
    # hand 3: dealer 2; seat 3 bids 22, seat 1 45, names clubs, is set: -55 ends it
    TranscriptHand(
        hands=(
            "TD 9D AC 9C 9C AH KH QH 9H QS 9S 9S",
            "AD AC TC KC QC JC AH KH AS AS JS JS",
            "JD TC KC JC TH QH JH 9H TS KS KS QS",
            "AD TD KD KD QD QD JD 9D QC TH JH TS",
        ),
        bids={3: 22, 1: 45},
        bidder=1,
        trump=C,
        seat0="9D 9C AC QH 9C QS 9S AH 9H TD 9S KH",
        tricks={12: TrickWon(3, c1("9D"), 12, 2, plays_of("3:9D 0:KH 1:JS 2:QS"))},
        scored=HandScored(3, (10, 29), (11, 14), (21, -45), (24, -55), 1, 45, False),
    ),
]
#: The transcript's Deal lines (seat 0's hands, sorted for display).
DEAL_LINES = [
    "AD KD KD JD 9D JC TH KH TS TS JS 9S",
    "9D AC TC KC QC QC JC KH JH 9H 9H JS",
    "TD 9D AC 9C 9C AH KH QH 9H QS 9S 9S",
]
#: The transcript's Meld lines, by hand.
MELD_EVENTS = [
    [
        Melded(s, cs(shown), amount)
        for s, (_, _, shown, amount) in enumerate(MELD_LINES[4 * h :][:4])
    ]
    for h in range(3)
]


def play_transcript(game: Game, hand: int, refuse: bool = False) -> list[Event]:
    """Hand ``hand`` (0-based) of the transcript: the deal, its bids, trump, and the
    plays (seat 0's as listed, the AI's first legal card). With ``refuse``, seat 0 first
    tries JD on trick 7 of hand 1, as the transcript's client did."""
    spec = TRANSCRIPT[hand]
    events = game.deal(deck_for(spec.hands, game.dealer))
    events += bid_round(game, spec.bids)
    events += game.apply(spec.bidder, Trump(spec.trump))
    seat0 = iter(cs(spec.seat0))
    while game.phase is Phase.TRICKS:
        seat = game.to_act
        assert seat is not None
        if seat == 0:
            card = next(seat0)
            if refuse and len(game.tricks) == 6:
                before = snapshot(game)
                with pytest.raises(IllegalActionError) as info:
                    game.apply(0, Play(c1("JD")))  # void in clubs: a trump, above JH
                assert info.value.code == "must_trump"
                assert snapshot(game) == before
                assert game.legal_actions(0) == (Play(c1("TH")),)
        else:
            card = game.legal_actions(seat)[0].card
        events += game.apply(seat, Play(card))
    return events


def test_the_transcript_game_hand_by_hand():
    game = Game(P4)
    for hand, spec in enumerate(TRANSCRIPT):
        assert (game.dealer, game.round) == (hand, hand + 1)
        events = play_transcript(game, hand, refuse=hand == 0)
        dealt_ = events[0]
        assert isinstance(dealt_, Dealt)
        assert dealt_.hands[0] == cs(DEAL_LINES[hand])
        assert [e for e in events if isinstance(e, Melded)] == MELD_EVENTS[hand]
        tricks = [e for e in events if isinstance(e, TrickWon)]
        assert len(tricks) == 12
        for number, expected in spec.tricks.items():
            assert tricks[number - 1] == expected
        assert sum(t.points for t in tricks) == 25
        assert [e for e in events if isinstance(e, HandScored)] == [spec.scored]
    assert events[-1] == GameWon(0, (24, -55))
    assert events[-1].winner == 0
    assert (game.is_over, game.winner, game.scores, game.to_act) == (True, 0, (24, -55), None)
    assert game.hand_results == [(-25, 19), (3, -10), (24, -55)]
    assert game.dealers == [0, 1, 2]
    assert all(game.legal_actions(s) == () for s in range(4))


def test_the_transcripts_bids_in_order():
    game = Game(P4)
    play_transcript(game, 0)
    play_transcript(game, 1)
    play_transcript(game, 2)
    bids = [
        (s, a.amount)
        for s, a in (h for h in game.history if isinstance(h, tuple))
        if isinstance(a, Bid)
    ]
    assert bids == [
        (1, 0),
        (2, 25),
        (3, 0),
        (0, 0),  # hand 1
        (2, 0),
        (3, 29),
        (0, 0),
        (1, 0),  # hand 2
        (3, 22),
        (0, 0),
        (1, 45),
        (2, 0),  # hand 3
    ]


def test_the_target_option_ends_the_game_sooner():
    game = Game(P4, target=19)
    events = play_transcript(game, 0)
    assert events[-1] == GameWon(1, (-25, 19))
    assert game.is_over


def test_a_tie_goes_to_the_team_that_bid():
    # Seed "tie 659" (found by a search): with hearts trump and every seat playing its
    # first legal card, the hand scores 33 to 33 whoever bids 20.
    for bidder in (0, 1):
        game = Game(P4, target=1)
        game.deal(seeded_deck("tie 659", 0))
        bid_round(game, {bidder: 20})
        game.apply(bidder, Trump(H))
        events = first_legal(game)
        assert events[-2] == HandScored(1, (23, 18), (10, 15), (33, 33), (33, 33), bidder, 20, True)
        assert events[-1] == GameWon(bidder, (33, 33))


def test_the_deal_passes_left_and_the_next_hand_starts_clean():
    game = Game(P4)
    play_transcript(game, 0)
    assert (game.phase, game.dealer, game.round, game.to_act) == (Phase.DEAL, 1, 2, None)
    assert (game.bids, game.bidder, game.bid, game.trump, game.melds) == ([], None, None, None, [])
    assert (game.tricks, game.played, game.tricks_won, game.counters) == ([], [], (0, 0), (0, 0))
    assert game.deal(PINOCHLE_DECK)[0] == Dealt(2, 1, tuple(game.hand(s) for s in range(4)))
    assert game.to_act == 2  # left of the dealer bids first
    assert game.hand(2) == sort_hand(PINOCHLE_DECK[0::4])


def test_tricks_are_counted_by_team_and_the_winner_leads():
    game = to_tricks()
    for seat, code in ((2, "AD"), (3, "TD"), (0, "KD"), (1, "QD")):
        game.apply(seat, Play(c1(code)))
    assert (game.to_act, game.tricks_won, game.counters) == (2, (1, 0), (3, 0))
    assert game.trick_winners == [2]
    assert game.played == list(cs("AD TD KD QD"))


# ---------------------------------------------------------------- illegal actions


def transcript_played_out() -> Game:
    game = Game(P4)
    for hand in range(3):
        play_transcript(game, hand)
    return game


def _bidding() -> Game:
    return dealt()


#: Actions no rule allows: how the game is made, the action, the error's Code (the
#: test, in test_every_game.py, checks the game is left as it was).
ILLEGAL_ACTIONS = [
    (_bidding, lambda g: g.apply(2, Bid(25)), "not_your_turn"),
    (_bidding, lambda g: g.apply(1, Play(c1("QD"))), "wrong_phase"),
    (_bidding, lambda g: g.apply(1, Trump(H)), "wrong_phase"),
    (_bidding, lambda g: g.deal(PINOCHLE_DECK), "wrong_phase"),
    (_bidding, lambda g: g.apply(4, Bid(0)), "bad_seat"),
    (_bidding, lambda g: g.apply(-1, Bid(0)), "bad_seat"),
    (_bidding, lambda g: g.apply(True, Bid(0)), "bad_seat"),
    (_bidding, lambda g: g.apply(1, "pass"), "bad_action"),
    (_bidding, lambda g: g.apply(1, 25), "bad_action"),
    (to_tricks, lambda g: g.apply(2, Bid(30)), "wrong_phase"),
    (to_tricks, lambda g: g.apply(2, Trump(S)), "wrong_phase"),
    (to_tricks, lambda g: g.apply(1, Play(c1("QD"))), "not_your_turn"),
    (to_tricks, lambda g: g.apply(2, Play(c1("TD"))), "not_in_hand"),
    (to_tricks, lambda g: g.apply(2, Play(c1("2H"))), "not_in_hand"),
    (to_tricks, lambda g: g.apply(2, Play(JOKER)), "not_in_hand"),
    (lambda: Game(P4), lambda g: g.apply(1, Bid(0)), "wrong_phase"),
    (lambda: Game(P4), lambda g: g.deal(PINOCHLE_DECK[:47]), "bad_deck"),
    (lambda: Game(P4), lambda g: g.deal((*PINOCHLE_DECK, PINOCHLE_DECK[0])), "bad_deck"),
    (lambda: Game(P4), lambda g: g.deal(STANDARD_52[:48]), "bad_deck"),
    (lambda: Game(P4), lambda g: g.deal((*PINOCHLE_DECK[:47], PINOCHLE_DECK[0])), "bad_deck"),
    (lambda: Game(P4), lambda g: g.deal(list(range(48))), "bad_deck"),
    (transcript_played_out, lambda g: g.apply(1, Bid(0)), "game_over"),
    (transcript_played_out, lambda g: g.deal(PINOCHLE_DECK), "game_over"),
]


@pytest.mark.parametrize(
    ("plays", "seat", "card", "code"),
    [
        ("2:AD", 3, "KC", "must_follow_suit"),  # seat 3 holds TD TD 9D
        ("2:AD 3:TD", 0, "JC", "must_follow_suit"),
        ("2:JD", 3, "9D", "must_beat"),  # seat 3 holds TD TD 9D: TD beats JD
        ("2:KS", 3, "9S", "must_beat"),  # seat 3 holds AS AS 9S
        ("2:9C 3:TC 0:JC", 1, "QD", "must_follow_suit"),  # seat 1: AC AC TC 9C
        ("2:9C 3:TC 0:JC", 1, "9C", "must_beat"),  # ... and TC is winning: AC beats it
    ],
)
def test_refused_plays_in_a_game(plays, seat, card, code):
    game = to_tricks()
    for s, c in plays_of(plays):
        game.apply(s, Play(c))
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.apply(seat, Play(c1(card)))
    assert info.value.code == code
    assert f"seat {seat} " in info.value.message
    assert card in info.value.message
    assert snapshot(game) == before


# -------------------------------------------------------------------------- views


def test_a_view_shows_the_own_hand_and_the_table_only():
    game = to_tricks()
    for seat, code in ((2, "AD"), (3, "TD"), (0, "KD"), (1, "QD"), (2, "9C")):
        game.apply(seat, Play(c1(code)))
    view = game.view_for(3)
    assert view == View(
        seat=3,
        phase=Phase.TRICKS,
        hand_index=0,
        hand=cs("TD 9D TC KC KC QC QC JH AS AS 9S"),
        dealer=0,
        to_act=3,
        bids=((1, 0), (2, 25), (3, 0), (0, 0)),
        bidder=2,
        bid=25,
        trump=H,
        melds=(
            (0, ()),
            (1, cs("9H")),
            (11, cs("JD JC JH 9H KS QS JS")),
            (4, cs("KC KC QC QC")),
        ),
        current_trick=((2, c1("9C")),),
        tricks=(plays_of("2:AD 3:TD 0:KD 1:QD"),),
        trick_winners=(2,),
        tricks_won=(1, 0),
        counters=(3, 0),
        played=cs("AD TD KD QD 9C"),
        scores=(0, 0),
        target=100,
        legal=(Play(c1("TC")), Play(c1("KC")), Play(c1("QC"))),
    )
    assert (view.team, view.partner, view.position, view.lead, view.is_dealer) == (
        1,
        1,
        1,
        c1("9C"),
        False,
    )
    assert view.high_bid == 25
    assert game.view_for(0).legal == ()
    assert game.view_for(0).is_dealer


def test_a_view_is_a_snapshot():
    game = dealt()
    view = game.view_for(1)
    game.apply(1, Bid(20))
    assert view.bids == ()
    assert view.to_act == 1
    assert view.legal[0] == Bid(0)


# ------------------------------------------------------------- random whole games


def _public_cards(game: Game) -> Counter[Card]:
    """What every seat may see: the cards played this hand and the melds shown."""
    public = Counter(game.played)
    for _, cards in game.melds:
        public |= Counter(cards)
    return public


def _check_view(game: Game, seat: int) -> None:
    view = game.view_for(seat)
    assert view.hand == game.hand(seat)
    assert view.legal == game.legal_actions(seat)
    others = dataclasses.replace(view, hand=(), legal=())
    seen = set(cards_in(others))
    allowed = set(_public_cards(game))
    assert seen <= allowed, seen - allowed
    assert set(cards_in(view.legal)) <= set(view.hand)


def _illegal_tries(game: Game, seat: int, rng: random.Random) -> list[object]:
    """Some actions that are not legal now: other seats, other phases, other cards."""
    legal = set(game.legal_actions(seat))
    tries: list[object] = [Bid(0), Bid(rng.randrange(20, 251)), Trump(rng.choice([H, D, S, C]))]
    tries += [Play(c) for c in rng.sample(PINOCHLE_CARDS, 6)]
    return [a for a in tries if a not in legal]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.text(max_size=8), choices=st.integers(0, 2**32 - 1), target=st.sampled_from([40, 100])
)
def test_random_games_keep_the_invariants(seed, choices, target):
    rng = random.Random(choices)
    game = Game(P4, target=target)
    totals = (0, 0)
    hand_plays: list[Card] = []
    trick_points_: list[int] = []
    trump = H
    while not game.is_over:
        if game.needs_deal:
            assert all(game.legal_actions(s) == () for s in range(4))
            events = game.deal(seeded_deck(seed, game.round_index))
            assert events == [Dealt(game.round, game.dealer, tuple(game.hand(s) for s in range(4)))]
            continue
        seat, legal = seat_to_act(game)
        if rng.random() < 0.15:
            _check_view(game, rng.randrange(4))
        if rng.random() < 0.1:
            before = snapshot(game)
            for action in _illegal_tries(game, seat, rng):
                with pytest.raises(IllegalActionError):
                    game.apply(seat, action)  # type: ignore[arg-type]
            with pytest.raises(IllegalActionError):
                game.apply((seat + rng.randrange(1, 4)) % 4, legal[0])
            assert snapshot(game) == before
        if game.phase is Phase.BIDDING:
            # mostly passes, else a bid near the bottom of the range
            action = (
                legal[0] if rng.random() < 0.6 else legal[min(len(legal) - 1, rng.randrange(1, 12))]
            )
        else:
            action = rng.choice(legal)
        for event in game.apply(seat, action):
            if isinstance(event, TrumpNamed):
                trump = event.suit
            elif isinstance(event, Played):
                hand_plays.append(event.card)
            elif isinstance(event, TrickWon):
                trick_points_.append(event.points)
                assert event.trick == len(trick_points_)
                assert trick_winner(event.plays, trump) == (event.seat, event.card)
            elif isinstance(event, Melded):
                assert event.cards == sort_hand(event.cards)
                assert not Counter(event.cards) - Counter(game.hand(event.seat))
            elif isinstance(event, HandScored):
                assert len(trick_points_) == 12
                assert sum(trick_points_) == 25 == sum(event.counters)
                assert Counter(hand_plays) == Counter(PINOCHLE_DECK)  # every card once
                points, made = hand_points(event.meld, event.counters, event.bidder, event.bid)
                assert (event.points, event.made) == (points, made)
                assert event.totals == (totals[0] + points[0], totals[1] + points[1])
                assert max(totals) < target
                assert min(totals) >= LOSING_SCORE
                totals = event.totals
                hand_plays, trick_points_ = [], []
            elif isinstance(event, GameWon):
                assert event.side == game_winner(totals, target, team_of(game.bidder or 0))
    assert game.scores == totals
    assert game.winner is not None
    assert len(game.hand_results) == len(game.dealers)
    assert game.dealers == [i % NUM_PLAYERS for i in range(len(game.dealers))]
