"""Whist (RULES.md, Whist): the engine rule by rule, random whole games, and the bot.

Situations are built from explicit decks (``deck_for``): seat s is given the 13 cards
written for it, and the deck is laid out the way the dealer deals it (``deck[i]`` to
seat ``(dealer + 1 + i) % 4``), so the dealer's last listed card is ``deck[51]``, the
turned-up trump. Expected values are written out by hand, never taken from the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server.games.hundredandten.rules import Bid
from hundred_server.games.kit.cards import JOKER, STANDARD_52, Card, Suit
from hundred_server.games.whist.bots import RandomBot, WhistBot
from hundred_server.games.whist.rules import (
    DealRecord,
    Dealt,
    Event,
    Game,
    GameWon,
    HandScored,
    Phase,
    Play,
    Played,
    TrickWon,
    TrumpTurned,
    View,
    legal_plays,
    seeded_deck,
    trick_winner,
)
from hundred_server.protocol.errors import HundredError, IllegalActionError
from tests.support.game_checks import cards_in, seat_to_act, state_of

P4 = ("north", "east", "south", "west")
RANKS = "23456789TJQKA"


# ------------------------------------------------------------------------- helpers


def cs(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def c1(code: str) -> Card:
    return Card.parse(code)


def deck_for(hands: Sequence[str], dealer: int = 0) -> tuple[Card, ...]:
    """The deck that deals ``hands[s]`` to seat s; the dealer's last card is turned up."""
    cards = [cs(h) for h in hands]
    assert all(len(h) == 13 for h in cards), [len(h) for h in cards]
    assert set().union(*cards) == set(STANDARD_52)
    deck: list[Card | None] = [None] * 52
    for seat, hand in enumerate(cards):
        for k, card in enumerate(hand):
            deck[4 * k + (seat - dealer - 1) % 4] = card
    assert deck[51] == cards[dealer][12]
    return tuple(c for c in deck if c is not None)


def dealt(hands: Sequence[str]) -> Game:
    game = Game(P4)
    game.deal(deck_for(hands))
    return game


def ladder(dealer_tricks: int, dealer: int = 0) -> tuple[Card, ...]:
    """A deal where the dealer's side takes ``dealer_tricks`` tricks when every seat
    plays its first legal card (hands are sorted: hearts, diamonds, spades, clubs).

    The dealer holds the top ``a`` spades (the lowest of them turned: spades are trump)
    and the lowest ``13 - a`` clubs; the seat on its right the other spades and clubs;
    left of the dealer every heart, across every diamond. The dealer ruffs the first
    trick and draws trumps, winning ``a`` tricks; then the right-hand seat wins the rest
    with its higher clubs and (when a < 7) its spare trumps. Worked through by hand for
    a = 1, 6, 7, 8, 9 and 13.
    """
    a = dealer_tricks
    hands = [""] * 4
    dealer_spades = [r + "S" for r in RANKS[13 - a :]]
    hands[dealer] = " ".join([c + "C" for c in RANKS[: 13 - a]] + dealer_spades[1:])
    hands[dealer] += " " + dealer_spades[0]  # turned up: the dealer's 13th card
    hands[(dealer + 1) % 4] = " ".join(r + "H" for r in RANKS)
    hands[(dealer + 2) % 4] = " ".join(r + "D" for r in RANKS)
    hands[(dealer + 3) % 4] = " ".join(
        [r + "S" for r in RANKS[: 13 - a]] + [r + "C" for r in RANKS[13 - a :]]
    )
    return deck_for(hands, dealer)


def play_first_legal(game: Game) -> list[Event]:
    """Play the current hand out, every seat playing its first legal card."""
    events: list[Event] = []
    hand = game.hand_index
    while game.phase is Phase.TRICKS and game.hand_index == hand:
        seat = game.to_act
        assert seat is not None
        events += game.apply(seat, game.legal_actions(seat)[0])
    return events


def snapshot(game: Game) -> tuple[object, ...]:
    return state_of(
        game,
        "phase to_act dealer hand_index trump trump_card hands trick tricks trick_winners",
        "played tricks_won scores winner history hand_results",
    )


# The deal of the rule tests (dealer 0, spades trump, 2S turned up).
RULE_HANDS = (
    "4H 5H 6H 7H 8H 9H TH JH QH KH KS AS 2S",  # 0 north, dealer
    "AH 2H 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",  # 1 east: leads
    "KD AD 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",  # 2 south: no hearts, no trumps
    "3H KC AC 3S 4S 5S 6S 7S 8S 9S TS JS QS",  # 3 west
)


# -------------------------------------------------------------------------- setup


def test_an_unseeded_game_waits_for_a_deck():
    game = Game(P4)
    assert game.phase is Phase.DEAL
    assert game.to_act is None
    assert game.dealer == 0
    assert game.hand_index == game.round_index == 0
    assert game.round == 1
    assert game.trump is None
    assert game.scores == (0, 0)
    assert game.winner is None
    assert not game.is_over
    assert game.players == P4
    assert all(game.legal_actions(s) == () for s in range(4))


def test_a_seeded_game_deals_at_once():
    game = Game(P4, seed="abc")
    deck = seeded_deck("abc", 0)
    assert game.phase is Phase.TRICKS
    assert game.to_act == 1
    assert game.history == [DealRecord(1, 0, deck)]
    assert game.trump_card == deck[51]
    assert game.trump is deck[51].suit


def test_a_seeded_game_that_is_dealt_says_every_deal():
    """As the driver makes it: seeded (for its record) but dealt from outside, so the
    first deal's events are returned like every other's."""
    game = Game(P4, seed="abc", deals_itself=False)
    assert game.needs_deal
    deck = seeded_deck("abc", 0)
    events = game.deal(deck)
    hands = tuple(tuple(game.hand(s)) for s in range(4))
    assert events == [Dealt(1, 0, hands, deck[51]), TrumpTurned(deck[51], 0)]
    assert game.history == [DealRecord(1, 0, deck)]
    assert game.seed == "abc"
    assert hands == tuple(tuple(Game(P4, seed="abc").hand(s)) for s in range(4))


def test_seeded_decks_are_deterministic_permutations():
    deck = seeded_deck("seed", 0)
    assert sorted(deck) == list(STANDARD_52)
    assert JOKER not in deck
    assert seeded_deck("seed", 0) == deck
    assert seeded_deck("seed", 1) != deck
    assert seeded_deck("other", 0) != deck
    assert Game(P4, seed="seed").hands == Game(P4, seed="seed").hands


# ------------------------------------------------------------------------ dealing


def test_the_deal_goes_one_at_a_time_from_the_dealers_left():
    game = Game(P4)
    events = game.deal(STANDARD_52)  # deck[i] to seat (0 + 1 + i) % 4
    assert game.hand(1) == cs("2H 6H TH AH 5D 9D KD 4S 8S QS 3C 7C JC")
    assert game.hand(2) == cs("3H 7H JH 2D 6D TD AD 5S 9S KS 4C 8C QC")
    assert game.hand(3) == cs("4H 8H QH 3D 7D JD 2S 6S TS AS 5C 9C KC")
    assert game.hand(0) == cs("5H 9H KH 4D 8D QD 3S 7S JS 2C 6C TC AC")
    # deck[51], the dealer's 13th card, is turned: its suit is trump; it stays in hand.
    assert game.trump_card == c1("AC")
    assert game.trump is Suit.CLUBS
    assert c1("AC") in game.hand(0)
    assert events == [
        Dealt(1, 0, tuple(game.hand(s) for s in range(4)), c1("AC")),
        TrumpTurned(c1("AC"), 0),
    ]
    assert game.history == [DealRecord(1, 0, STANDARD_52)]


def test_left_of_the_dealer_leads_the_first_trick():
    game = dealt(RULE_HANDS)
    assert game.phase is Phase.TRICKS
    assert game.to_act == 1
    assert game.legal_actions(1) == tuple(Play(c) for c in game.hand(1))
    assert game.legal_actions(0) == game.legal_actions(2) == game.legal_actions(3) == ()


def test_the_deal_passes_left_and_the_next_dealers_last_card_is_trump():
    game = Game(P4)
    game.deal(ladder(7))
    play_first_legal(game)
    assert game.scores == (1, 0)
    assert (game.phase, game.dealer, game.hand_index, game.round) == (Phase.DEAL, 1, 1, 2)
    events = game.deal(STANDARD_52)  # now deck[i] goes to seat (1 + 1 + i) % 4
    assert game.hand(2) == cs("2H 6H TH AH 5D 9D KD 4S 8S QS 3C 7C JC")
    assert game.hand(1) == cs("5H 9H KH 4D 8D QD 3S 7S JS 2C 6C TC AC")
    assert (game.trump_card, game.to_act) == (c1("AC"), 2)
    assert events[0] == Dealt(2, 1, tuple(game.hand(s) for s in range(4)), c1("AC"))
    assert game.tricks_won == (0, 0)
    assert game.played == []


def test_a_seeded_game_deals_each_hand_from_its_own_seeded_deck():
    game = Game(P4, seed="s")
    events = play_first_legal(game)
    assert isinstance(events[-1], TrumpTurned)
    assert events[-1] == TrumpTurned(seeded_deck("s", 1)[51], 1)
    assert game.history[-1] == DealRecord(2, 1, seeded_deck("s", 1))
    assert (game.dealer, game.to_act) == (1, 2)


# ------------------------------------------------------------------------- tricks


def test_tricks_follow_suit_trump_wins_and_the_winner_leads():
    game = dealt(RULE_HANDS)
    # Trick 1: east leads 2D; south follows KD; west and north are void: west ruffs,
    # north over-ruffs. The highest trump wins, not the highest diamond.
    events = []
    for seat, code in ((1, "2D"), (2, "KD"), (3, "3S"), (0, "AS")):
        events += game.apply(seat, Play(c1(code)))
    plays = ((1, c1("2D")), (2, c1("KD")), (3, c1("3S")), (0, c1("AS")))
    assert events == [*(Played(s, c) for s, c in plays), TrickWon(0, c1("AS"), 1, plays, (1, 0))]
    assert events[-1].side == 0  # NS
    assert game.tricks_won == (1, 0)
    assert game.to_act == 0  # the winner leads

    # Trick 2: north leads 4H. East must follow hearts (and south, void, may not be
    # stopped from throwing an off-suit ace, which cannot win): the highest heart wins.
    assert game.legal_actions(1) == ()
    game.apply(0, Play(c1("4H")))
    assert game.legal_actions(1) == (Play(c1("2H")), Play(c1("AH")))
    game.apply(1, Play(c1("AH")))
    assert len(game.legal_actions(2)) == 12  # void in hearts: anything
    game.apply(2, Play(c1("AD")))
    assert game.legal_actions(3) == (Play(c1("3H")),)
    events = game.apply(3, Play(c1("3H")))
    assert events[-1] == TrickWon(
        1, c1("AH"), 2, ((0, c1("4H")), (1, c1("AH")), (2, c1("AD")), (3, c1("3H"))), (1, 1)
    )
    assert events[-1].side == 1  # EW
    assert (game.to_act, game.tricks_won) == (1, (1, 1))

    # Trick 3: east leads 2H; west, now void in hearts, ruffs with its lowest trump,
    # which beats north's higher heart.
    game.apply(1, Play(c1("2H")))
    game.apply(2, Play(c1("2C")))
    game.apply(3, Play(c1("4S")))
    assert game.legal_actions(0) == tuple(Play(c) for c in cs("5H 6H 7H 8H 9H TH JH QH KH"))
    events = game.apply(0, Play(c1("KH")))
    assert events[-1] == TrickWon(
        3, c1("4S"), 3, ((1, c1("2H")), (2, c1("2C")), (3, c1("4S")), (0, c1("KH"))), (1, 2)
    )
    assert events[-1].side == 1  # EW
    assert (game.to_act, game.tricks_won, len(game.tricks)) == (3, (1, 2), 3)
    assert game.played == list(cs("2D KD 3S AS 4H AH AD 3H 2H 2C 4S KH"))


def test_a_trump_lead_must_be_followed_with_trumps():
    game = dealt(RULE_HANDS)
    for seat, code in ((1, "2D"), (2, "KD"), (3, "3S"), (0, "AS")):
        game.apply(seat, Play(c1(code)))
    game.apply(0, Play(c1("2S")))  # the turned card may be played like any other
    assert game.legal_actions(1) == tuple(
        Play(c) for c in cs("2H AH 3D 4D 5D 6D 7D 8D 9D TD JD QD")
    )
    game.apply(1, Play(c1("3D")))
    game.apply(2, Play(c1("2C")))
    assert game.legal_actions(3) == tuple(Play(c) for c in cs("4S 5S 6S 7S 8S 9S TS JS QS"))
    events = game.apply(3, Play(c1("4S")))
    assert events[-1] == TrickWon(
        3, c1("4S"), 2, ((0, c1("2S")), (1, c1("3D")), (2, c1("2C")), (3, c1("4S"))), (1, 1)
    )
    assert events[-1].side == 1  # EW


def test_legal_plays_follow_the_suit_led():
    hand = cs("2H 9H 3D AS")
    assert legal_plays(hand, None) == tuple(Play(c) for c in hand)
    assert legal_plays(hand, c1("KH")) == (Play(c1("2H")), Play(c1("9H")))
    assert legal_plays(hand, c1("5C")) == tuple(Play(c) for c in hand)


# ------------------------------------------------------------------------ scoring


@pytest.mark.parametrize(
    ("dealer_tricks", "tricks", "points", "totals", "winner"),
    [
        (7, (7, 6), (1, 0), (1, 0), None),
        (6, (6, 7), (0, 1), (0, 1), None),
        (8, (8, 5), (2, 0), (2, 0), None),
        (13, (13, 0), (7, 0), (7, 0), 0),
        (1, (1, 12), (0, 6), (0, 6), 1),
    ],
)
def test_a_side_scores_one_point_per_trick_over_six(dealer_tricks, tricks, points, totals, winner):
    game = Game(P4)
    game.deal(ladder(dealer_tricks))
    events = play_first_legal(game)
    assert sum(isinstance(e, TrickWon) for e in events) == 13
    scored = [e for e in events if isinstance(e, HandScored)]
    assert scored == [HandScored(1, tricks, points, totals)]
    assert game.scores == totals
    assert game.winner == winner
    if winner is None:
        assert game.phase is Phase.DEAL
        assert events[-1] == scored[0]
    else:
        assert events[-1] == GameWon(winner, totals)
        assert events[-1].winner == winner
        assert game.is_over
        assert game.to_act is None


def test_the_game_goes_to_five_points_with_the_deal_passing_left():
    game = Game(P4)
    results = []
    for dealer, dealer_tricks in ((0, 8), (1, 9), (2, 7), (3, 8)):
        assert game.dealer == dealer
        game.deal(ladder(dealer_tricks, dealer))
        events = play_first_legal(game)
        results.append([e for e in events if isinstance(e, HandScored | GameWon)])
    assert results == [
        [HandScored(1, (8, 5), (2, 0), (2, 0))],
        [HandScored(2, (4, 9), (0, 3), (2, 3))],
        [HandScored(3, (7, 6), (1, 0), (3, 3))],
        [HandScored(4, (5, 8), (0, 2), (3, 5)), GameWon(1, (3, 5))],
    ]
    assert game.hand_results == [(2, 0), (2, 3), (3, 3), (3, 5)]
    assert game.dealers == [0, 1, 2, 3]
    assert (game.phase, game.winner, game.scores, game.to_act) == (
        Phase.GAME_OVER,
        1,
        (3, 5),
        None,
    )
    assert all(game.legal_actions(s) == () for s in range(4))


# ---------------------------------------------------------------- illegal actions


def _over() -> Game:
    game = Game(P4)
    game.deal(ladder(13))
    play_first_legal(game)
    assert game.is_over
    return game


#: Actions no rule allows: how the game is made, the action, the error's Code (the
#: test, in test_every_game.py, checks the game is left as it was).
ILLEGAL_ACTIONS = [
    (lambda: dealt(RULE_HANDS), lambda g: g.apply(0, Play(c1("4H"))), "not_your_turn"),
    (lambda: dealt(RULE_HANDS), lambda g: g.apply(1, Play(c1("4H"))), "not_in_hand"),
    (lambda: dealt(RULE_HANDS), lambda g: g.apply(1, Play(JOKER)), "not_in_hand"),
    (lambda: dealt(RULE_HANDS), lambda g: g.apply(4, Play(c1("AH"))), "bad_seat"),
    (lambda: dealt(RULE_HANDS), lambda g: g.apply(True, Play(c1("AH"))), "bad_seat"),
    (lambda: dealt(RULE_HANDS), lambda g: g.apply(1, Bid(15)), "bad_action"),
    (lambda: dealt(RULE_HANDS), lambda g: g.apply(1, "AH"), "bad_action"),
    (lambda: dealt(RULE_HANDS), lambda g: g.deal(STANDARD_52), "wrong_phase"),
    (lambda: Game(P4), lambda g: g.apply(1, Play(c1("AH"))), "wrong_phase"),
    (lambda: Game(P4), lambda g: g.deal(STANDARD_52[:51]), "bad_deck"),
    (lambda: Game(P4), lambda g: g.deal((*STANDARD_52[:51], JOKER)), "bad_deck"),
    (lambda: Game(P4), lambda g: g.deal((*STANDARD_52, JOKER)), "bad_deck"),
    (lambda: Game(P4), lambda g: g.deal((*STANDARD_52[:51], STANDARD_52[0])), "bad_deck"),
    (lambda: Game(P4), lambda g: g.deal(list(range(52))), "bad_deck"),
    (_over, lambda g: g.apply(1, Play(c1("AH"))), "game_over"),
    (_over, lambda g: g.deal(STANDARD_52), "game_over"),
]


def test_must_follow_suit_has_its_code_and_changes_nothing():
    game = dealt(RULE_HANDS)
    game.apply(1, Play(c1("2D")))
    before = snapshot(game)
    for code in ("2C", "QC"):  # south holds KD AD
        with pytest.raises(IllegalActionError) as info:
            game.apply(2, Play(c1(code)))
        assert info.value.code == "must_follow_suit"
        assert info.value.message == (
            f"2D was led: seat 2 holds diamonds and must follow suit, not play {code}"
        )
    assert snapshot(game) == before
    game.apply(2, Play(c1("KD")))
    game.apply(3, Play(c1("3S")))
    game.apply(0, Play(c1("AS")))
    game.apply(0, Play(c1("4H")))
    game.apply(1, Play(c1("AH")))
    game.apply(2, Play(c1("AD")))
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:  # west holds 3H: it may not ruff
        game.apply(3, Play(c1("4S")))
    assert info.value.code == "must_follow_suit"
    assert snapshot(game) == before


def played_by_random_bots() -> Game:
    """A game seeded "replay" that RandomBots play to its end."""
    seeded = Game(P4, seed="replay")
    bots = [RandomBot(s) for s in range(4)]
    while not seeded.is_over:
        seat = seeded.to_act
        assert seat is not None
        seeded.apply(seat, bots[seat].act(seeded.view_for(seat)))
    return seeded


# -------------------------------------------------------------------------- views


def test_a_view_shows_the_own_hand_and_the_table_only():
    game = dealt(RULE_HANDS)
    for seat, code in ((1, "2D"), (2, "KD"), (3, "3S"), (0, "AS"), (0, "4H")):
        game.apply(seat, Play(c1(code)))
    view = game.view_for(1)
    assert view == View(
        seat=1,
        phase=Phase.TRICKS,
        hand_index=0,
        hand=cs("2H AH 3D 4D 5D 6D 7D 8D 9D TD JD QD"),
        dealer=0,
        trump=Suit.SPADES,
        trump_card=c1("2S"),
        to_act=1,
        current_trick=((0, c1("4H")),),
        tricks=(((1, c1("2D")), (2, c1("KD")), (3, c1("3S")), (0, c1("AS"))),),
        trick_winners=(0,),
        tricks_won=(1, 0),
        scores=(0, 0),
        played=cs("2D KD 3S AS 4H"),
        legal=(Play(c1("2H")), Play(c1("AH"))),
    )
    assert (view.side, view.partner, view.position, view.lead, view.is_dealer) == (
        1,
        3,
        1,
        c1("4H"),
        False,
    )
    # The turned-up card is public: it is the only card of north's hand others see.
    seen = set(cards_in(view))
    assert seen & set(game.hand(0)) == {c1("2S")}
    assert not seen & (set(game.hand(2)) | set(game.hand(3)))
    assert game.view_for(2).legal == ()


def test_a_view_is_a_snapshot():
    game = dealt(RULE_HANDS)
    view = game.view_for(1)
    game.apply(1, Play(c1("2D")))
    assert c1("2D") in view.hand
    assert view.current_trick == ()
    assert view.to_act == 1


# ------------------------------------------------------------- random whole games


def _check_view(game: Game, seat: int) -> None:
    view = game.view_for(seat)
    allowed = set(game.hand(seat)) | set(game.played) | {game.trump_card}
    assert set(cards_in(view)) <= allowed
    assert view.hand == game.hand(seat)
    assert view.legal == game.legal_actions(seat)


@settings(max_examples=25, deadline=None)
@given(seed=st.text(max_size=8), choices=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_invariants(seed, choices):
    rng = random.Random(choices)
    game = Game(P4, seed=seed)
    dealers = [0]
    totals = (0, 0)
    hand_plays: list[Card] = []
    tricks = 0
    while not game.is_over:
        seat, legal = seat_to_act(game)
        if rng.random() < 0.1:
            _check_view(game, rng.randrange(4))
        events = game.apply(seat, rng.choice(legal))
        for event in events:
            if isinstance(event, Played):
                hand_plays.append(event.card)
            elif isinstance(event, TrickWon):
                tricks += 1
                assert event.side == event.seat % 2
                assert sum(event.tricks_won) == event.trick == tricks
            elif isinstance(event, HandScored):
                assert tricks == 13
                assert sum(event.tricks) == 13
                assert sorted(hand_plays) == list(STANDARD_52)  # every card once
                expected = tuple(max(t - 6, 0) for t in event.tricks)
                assert event.points == expected
                assert event.totals == (totals[0] + expected[0], totals[1] + expected[1])
                assert event.totals[0] >= totals[0]
                assert event.totals[1] >= totals[1]
                totals = event.totals
                hand_plays, tricks = [], 0
            elif isinstance(event, Dealt):
                dealers.append(event.dealer)
                assert event.dealer == (dealers[-2] + 1) % 4
                assert max(totals) < 5
            elif isinstance(event, GameWon):
                assert totals[event.side] >= 5 > totals[1 - event.side]
    assert game.scores == totals
    assert game.winner is not None
    assert game.scores[game.winner] >= 5
    assert game.dealers == dealers
    assert len(game.hand_results) == len(dealers)


# ------------------------------------------------------------------------- the bot


def bot_view(
    hand: str,
    turned: str,
    trick: Sequence[tuple[int, str]] = (),
    earlier: Sequence[Sequence[tuple[int, str]]] = (),
    seat: int = 0,
    dealer: int = 3,
) -> View:
    """What ``seat`` would see with ``hand``, ``turned`` up and these tricks played."""
    plays = tuple(tuple((s, c1(c)) for s, c in t) for t in earlier)
    current = tuple((s, c1(c)) for s, c in trick)
    cards = cs(hand)
    turned_card = c1(turned)
    trump = turned_card.suit
    assert trump is not None
    played = tuple(c for t in (*plays, current) for _, c in t)
    assert not set(cards) & set(played)
    return View(
        seat=seat,
        phase=Phase.TRICKS,
        hand_index=0,
        hand=cards,
        dealer=dealer,
        trump=trump,
        trump_card=turned_card,
        to_act=seat,
        current_trick=current,
        tricks=plays,
        trick_winners=tuple(trick_winner(t, trump)[0] for t in plays),
        tricks_won=(0, 0),
        scores=(0, 0),
        played=played,
        legal=legal_plays(cards, current[0][1] if current else None),
    )


def test_the_bot_does_not_trump_its_partners_winning_trick():
    # North is last; south (partner) wins with AD; north has no diamond but has trumps.
    view = bot_view("3S 9S KS 4C 8C", "2S", [(1, "5D"), (2, "AD"), (3, "3D")])
    assert WhistBot().act(view) == Play(c1("4C"))


def test_the_bot_does_not_overtake_its_partner():
    view = bot_view("4H QH AH 5C", "2S", [(1, "9H"), (2, "KH"), (3, "3H")])
    assert WhistBot().act(view) == Play(c1("4H"))


def test_the_bot_wins_with_the_lowest_card_that_wins():
    view = bot_view("2H QH KH AH 5C", "2S", [(1, "9H"), (2, "3H"), (3, "JH")])
    assert WhistBot().act(view) == Play(c1("QH"))
    ruff = bot_view("3S 9S KS 5C", "2S", [(1, "TD"), (2, "3D"), (3, "KD")])
    assert WhistBot().act(ruff) == Play(c1("3S"))
    over_ruff = bot_view("3S 9S KS 5C", "2S", [(1, "TD"), (2, "3D"), (3, "5S")])
    assert WhistBot().act(over_ruff) == Play(c1("9S"))


def test_the_bot_plays_its_lowest_card_when_it_cannot_win():
    follow = bot_view("3H 7H QH AS", "2S", [(1, "AH"), (2, "2H"), (3, "4H")])
    assert WhistBot().act(follow) == Play(c1("3H"))
    discard = bot_view("9D 4C KC", "2S", [(1, "AH"), (2, "2H"), (3, "4H")])
    assert WhistBot().act(discard) == Play(c1("4C"))
    # An opponent over-ruffed with the ace: no trump of ours can win, so keep them.
    beaten = bot_view("3S 9S 6C KC", "2S", [(1, "AH"), (2, "2H"), (3, "AS")])
    assert WhistBot().act(beaten) == Play(c1("6C"))


def test_the_bot_draws_trumps_holding_the_top_trump():
    view = bot_view("AS 4S 7H 9D 3C", "2S")
    assert WhistBot().act(view) == Play(c1("AS"))
    # With the ace gone, the king is the top trump: it draws with that.
    gone = bot_view("KS 4S 7H 9D", "2S", earlier=[[(0, "AS"), (1, "3S"), (2, "5S"), (3, "6S")]])
    assert WhistBot().act(gone) == Play(c1("KS"))
    # Without the top trump it keeps its trumps and leads a side suit.
    weak = bot_view("QS 4S 7H 9D 3C", "2S")
    assert WhistBot().act(weak).card.suit is not Suit.SPADES


def test_the_bot_counts_cards_to_lead_a_master():
    earlier = [
        [(1, "AH"), (2, "2H"), (3, "3H"), (0, "4H")],
        [(1, "5C"), (2, "6C"), (3, "8C"), (0, "AC")],
    ]
    with_ace_gone = bot_view("KH 5D 7C", "2S", earlier=earlier)
    assert WhistBot().act(with_ace_gone) == Play(c1("KH"))
    # The ace of hearts still out: the king is no sure winner, so lead low.
    view = bot_view("KH 5D 7C", "2S")
    assert WhistBot().act(view) == Play(c1("5D"))


def test_the_bot_is_deterministic_and_plays_only_legal_cards():
    game = Game(P4, seed="bot")
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        play = WhistBot().act(view)
        assert play == WhistBot().act(view)
        assert play in view.legal
        game.apply(seat, play)


def test_the_bot_beats_random_players():
    wins = 0
    games = 200
    for i in range(games):
        bot_side = i % 2
        game = Game(P4, seed=f"match {i}")
        players = [WhistBot() if s % 2 == bot_side else RandomBot(i * 4 + s) for s in range(4)]
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, players[seat].act(game.view_for(seat)))
        wins += game.winner == bot_side
    assert wins > 0.75 * games, wins


def test_bots_refuse_to_act_without_a_play():
    game = dealt(RULE_HANDS)
    for bot in (WhistBot(), RandomBot(0)):
        with pytest.raises(HundredError):
            bot.act(game.view_for(0))
