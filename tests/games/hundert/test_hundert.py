"""Hundert (RULES.md, "Hundert"): the engine rule by rule on explicit decks, hand-checked
deals for 2, 3 and 6 players (the chips worked out by hand in the comments, never taken
from the engine), the Feder option both ways, every error code, and random whole games
of every table size as an oracle for the invariants.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server.games.hundert.rules import (
    HUNDERT_DECK,
    PLAY_ACTIONS,
    DealRecord,
    DealScored,
    Dealt,
    Event,
    Game,
    GameWon,
    Phase,
    Play,
    Played,
    chips,
    deal_hands,
    game_winner,
    hand_size,
    points,
    seeded_deck,
    sort_hand,
)
from hundred_server.games.kit.cards import JOKER, Card, format_cards
from hundred_server.games.kit.tricks import shuffled
from hundred_server.protocol.errors import CardCodeError, IllegalActionError
from tests.support.game_checks import cards_in

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


def cs(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def codes(text: str) -> list[str]:
    return text.split()


def c1(code: str) -> Card:
    return Card.parse(code)


def deck_for(n: int, dealer: int, hands: dict[int, str], pile: str = "") -> list[Card]:
    """A deck that deals seat ``s`` the cards ``hands[s]`` (filled up to the hand size
    with cards nobody named, in deck order) and leaves ``pile`` over."""
    size = hand_size(n)
    named = {s: cs(t) for s, t in hands.items()}
    left = cs(pile)
    used = {c for h in named.values() for c in h} | set(left)
    filler = [c for c in HUNDERT_DECK if c not in used]
    full = []
    for seat in range(n):
        hand = list(named.get(seat, []))
        assert len(hand) <= size
        while len(hand) < size:
            hand.append(filler.pop(0))
        full.append(hand)
    deck = [full[(dealer + 1 + i % n) % n][i // n] for i in range(n * size)]
    deck += left + filler  # the pile: the one asked for, else the cards nobody named
    assert sorted(deck) == sorted(HUNDERT_DECK)
    return deck


def play_all(game: Game, plays: str) -> list[Event]:
    """Each card of ``plays`` played by the seat to act, in turn."""
    events: list[Event] = []
    for code in plays.split():
        seat = game.to_act
        assert seat is not None, code
        events += game.apply(seat, Play(c1(code)))
    return events


def game_of(n: int, flags: frozenset[str] = frozenset()) -> Game:
    return Game(NAMES[:n], flags)


FEDER = frozenset({"Feder"})


# ------------------------------------------------------------------------ the cards


def test_the_deck_is_32_cards_7_to_ace_in_the_reference_order():
    assert len(HUNDERT_DECK) == 32
    assert format_cards(HUNDERT_DECK[:8]) == codes("7H 8H 9H TH JH QH KH AH")
    assert format_cards(HUNDERT_DECK[8:16]) == codes("7D 8D 9D TD JD QD KD AD")
    assert format_cards(HUNDERT_DECK[16:24]) == codes("7S 8S 9S TS JS QS KS AS")
    assert format_cards(HUNDERT_DECK[24:]) == codes("7C 8C 9C TC JC QC KC AC")


def test_card_points_are_a11_t10_k4_q3_j2_and_120_in_all():
    assert [points(c) for c in cs("AS TS KS QS JS 9S 8S 7S")] == [11, 10, 4, 3, 2, 0, 0, 0]
    assert sum(points(c) for c in HUNDERT_DECK) == 120


def test_the_seeded_deck_is_the_shared_shuffle_of_the_deck():
    assert seeded_deck("s", 3) == shuffled(HUNDERT_DECK, "hundert", "s", 3)
    assert seeded_deck("s", 0) != seeded_deck("s", 1)
    assert sorted(seeded_deck("x", 0)) == sorted(HUNDERT_DECK)


def test_hands_sort_by_suit_s_h_d_c_and_by_points_within():
    assert format_cards(sort_hand(cs("7C AH 9S TS KD QH 8C AC"))) == [
        "TS",
        "9S",
        "AH",
        "QH",
        "KD",
        "AC",
        "8C",
        "7C",
    ]


@pytest.mark.parametrize(
    ("n", "size", "left"), [(2, 16, 0), (3, 10, 2), (4, 8, 0), (5, 6, 2), (6, 5, 2)]
)
def test_dealing_one_at_a_time_from_the_dealers_left(n: int, size: int, left: int):
    deck = list(HUNDERT_DECK)
    for dealer in range(n):
        hands, pile = deal_hands(deck, dealer, n)
        assert [len(h) for h in hands] == [size] * n
        assert pile == tuple(deck[n * size :])
        assert len(pile) == left
        for i in range(n * size):
            assert deck[i] in hands[(dealer + 1 + i) % n]


# ------------------------------------------------------------------------ one deal


def test_the_deal_the_pile_and_who_plays_first():
    game = game_of(3)
    assert (game.phase, game.needs_deal, game.to_act, game.round, game.dealer) == (
        Phase.DEAL,
        True,
        None,
        1,
        0,
    )
    deck = deck_for(3, 0, {1: "AH KS"}, pile="AS TD")
    events = game.deal(deck)
    assert len(events) == 1
    dealt = events[0]
    assert isinstance(dealt, Dealt)
    assert (dealt.round, dealt.dealer, dealt.pile, dealt.total) == (1, 0, tuple(cs("AS TD")), 21)
    assert game.total == 21  # the pile's points start the total
    assert game.to_act == 1  # left of the dealer
    assert dealt.hands[1] == sort_hand(deck[0:30:3])
    assert game.history == [DealRecord(1, 0, tuple(deck))]


def test_the_highest_pile_is_two_aces_22():
    game = game_of(5)
    game.deal(deck_for(5, 0, {}, pile="AS AH"))
    assert game.total == 22


def test_every_card_in_hand_is_legal_for_the_seat_to_act_only():
    game = game_of(4)
    game.deal(deck_for(4, 0, {1: "AS 7H 9D QC"}))
    hand = game.hand(1)
    assert game.legal_actions(1) == tuple(PLAY_ACTIONS[c] for c in hand)
    assert len(hand) == 8
    assert [game.legal_actions(s) for s in (0, 2, 3)] == [(), (), ()]


def test_a_play_adds_its_points_and_passes_the_turn_left():
    game = game_of(4)
    game.deal(deck_for(4, 0, {1: "AS", 2: "KH"}))
    assert game.to_act == 1
    assert game.apply(1, Play(c1("AS"))) == [Played(1, c1("AS"), 11)]
    assert game.apply(2, Play(c1("KH"))) == [Played(2, c1("KH"), 15)]
    assert game.to_act == 3
    assert game.played == [(1, c1("AS")), (2, c1("KH"))]
    assert c1("AS") not in game.hand(1)
    game.apply(3, game.legal_actions(3)[0])
    assert game.to_act == 0  # round the table


# ----------------------------------------------------------- hand-checked: 2 players


def test_two_players_exactly_100_takes_3_and_the_next_dealer_is_seat_1():
    game = game_of(2)
    # Dealer ann (0); bob leads. The total climbs AS 11, AH 22, AD 33, AC 44, TS 54,
    # TH 64, TD 74, TC 84, KS 88, KH 92, KD 96, and ann's KC makes exactly 100.
    game.deal(deck_for(2, 0, {1: "AS AD TS TD KS KD", 0: "AH AC TH TC KH KC"}))
    events = play_all(game, "AS AH AD AC TS TH TD TC KS KH KD KC")
    # ann takes 3 chips from bob: [+3, -3].
    assert events[-1] == DealScored(1, 0, 100, (3, -3), (3, -3))
    assert events[-1].exact
    assert game.scores == (3, -3)
    assert (game.phase, game.round, game.dealer, game.total) == (Phase.DEAL, 2, 1, 0)


def test_two_players_overshoot_pays_the_overshoot():
    game = game_of(2)
    game.deal(deck_for(2, 0, {1: "AS AD TS TD KS 7S KD", 0: "AH AC TH TC KH QH KC"}))
    # bob AS 11, ann AH 22, bob AD 33, ann AC 44, bob TS 54, ann TH 64, bob TD 74, ann TC
    # 84, bob KS 88, ann KH 92, bob 7S 92, ann QH 95, bob KD 99, ann KC 103: ann passes
    # 100 by 3 and pays bob 3: [-3, +3].
    events = play_all(game, "AS AH AD AC TS TH TD TC KS KH 7S QH KD KC")
    assert events[-2:] == [Played(0, c1("KC"), 103), DealScored(1, 0, 103, (-3, 3), (-3, 3))]
    assert not events[-1].exact  # type: ignore[union-attr]


def test_the_deal_ends_at_once_and_the_cards_left_stay_in_the_hands():
    game = game_of(2)
    game.deal(deck_for(2, 0, {1: "AS AD TS TD KS KD", 0: "AH AC TH TC KH KC"}))
    play_all(game, "AS AH AD AC TS TH TD TC KS KH KD KC")
    assert game.needs_deal
    with pytest.raises(IllegalActionError) as caught:
        game.apply(1, Play(c1("QS")))
    assert caught.value.code == "wrong_phase"


def test_a_whole_two_player_game_each_deals_twice_and_the_higher_balance_wins():
    game = game_of(2)
    scored = []
    # Deal 1 (ann deals): ann makes 100 exactly: [+3, -3] -> balances [3, -3].
    game.deal(deck_for(2, 0, {1: "AS AD TS TD KS KD", 0: "AH AC TH TC KH KC"}))
    scored += play_all(game, "AS AH AD AC TS TH TD TC KS KH KD KC")[-1:]
    # Deal 2 (bob deals, ann leads): ... ann KD 99, bob KC 103: bob pays 3: [6, -6].
    game.deal(deck_for(2, 1, {0: "AS AD TS TD KS 7S KD", 1: "AH AC TH TC KH QH KC"}))
    scored += play_all(game, "AS AH AD AC TS TH TD TC KS KH 7S QH KD KC")[-1:]
    # Deal 3 (ann deals, bob leads): bob AS 11, TH 21, TD 31, TC 41, TS 51, KH 55, KD 59,
    # KC 63, KS 67, QH 70, QD 73, QC 76, QS 79, JH 81, JD 83, JC 85, JS 87, ann AH 98,
    # bob 7S 98, ann 7H 98, bob AD 109: bob pays 9: [15, -15].
    bob = "AS TD TS KD KS QD QS JD JS 7S AD"
    ann = "TH TC KH KC QH QC JH JC AH 7H"
    game.deal(deck_for(2, 0, {1: bob, 0: ann}))
    scored += play_all(game, "AS TH TD TC TS KH KD KC KS QH QD QC QS JH JD JC JS AH 7S 7H AD")[-1:]
    # Deal 4 (bob deals, ann leads): the climb of deal 1 with the seats swapped: bob's
    # KC makes 100 and takes 3 from ann: [12, -12].
    game.deal(deck_for(2, 1, {0: "AS AD TS TD KS KD", 1: "AH AC TH TC KH KC"}))
    events = play_all(game, "AS AH AD AC TS TH TD TC KS KH KD KC")
    scored += events[-2:-1]
    assert [(e.points, e.totals) for e in scored] == [  # type: ignore[union-attr]
        ((3, -3), (3, -3)),
        ((3, -3), (6, -6)),
        ((9, -9), (15, -15)),
        ((-3, 3), (12, -12)),
    ]
    assert events[-1] == GameWon(0, (12, -12))
    assert (game.is_over, game.winner, game.round, game.to_act) == (True, 0, 4, None)
    assert game.dealers == [0, 1, 0, 1]
    with pytest.raises(IllegalActionError) as caught:
        game.deal(list(HUNDERT_DECK))
    assert caught.value.code == "game_over"


def test_feder_two_players_one_chip_either_way():
    game = game_of(2, FEDER)
    assert game.flags == FEDER
    # ann's exact 100 takes 1 (not 3): [+1, -1].
    game.deal(deck_for(2, 0, {1: "AS AD TS TD KS KD", 0: "AH AC TH TC KH KC"}))
    assert play_all(game, "AS AH AD AC TS TH TD TC KS KH KD KC")[-1] == DealScored(
        1, 0, 100, (1, -1), (1, -1)
    )
    # Deal 2, bob deals and ann leads: deal 3 of the game above with the seats swapped,
    # so ann's AD takes the total from 98 to 109; she pays 1 to bob (not 9): [0, 0].
    ann = "AS TD TS KD KS QD QS JD JS 7S AD"
    game.deal(deck_for(2, 1, {0: ann, 1: "TH TC KH KC QH QC JH JC AH 7H"}))
    events = play_all(game, "AS TH TD TC TS KH KD KC KS QH QD QC QS JH JD JC JS AH 7S 7H AD")
    assert events[-1] == DealScored(2, 0, 109, (-1, 1), (0, 0))


# ----------------------------------------------------------- hand-checked: 3 players


def test_three_players_exact_then_overshoot():
    game = game_of(3)
    # Deal 1, ann deals, the pile AS 7C: total 11. bob AH 22, cy AD 33, ann AC 44, bob TH
    # 54, cy TD 64, ann TC 74, bob TS 84, cy KH 88, ann KD 92, bob 8H 92, cy KC 96, and
    # ann's KS makes 100: she takes 3 from each: [+6, -3, -3].
    game.deal(deck_for(3, 0, {1: "AH TH TS 8H", 2: "AD TD KH KC", 0: "AC TC KD KS"}, "AS 7C"))
    assert game.total == 11
    events = play_all(game, "AH AD AC TH TD TC TS KH KD 8H KC KS")
    assert events[-1] == DealScored(1, 0, 100, (6, -3, -3), (6, -3, -3))
    # Deal 2, bob deals, cy leads; the pile 7S 8S: total 0. cy AS 11, ann AH 22, bob AD
    # 33, cy AC 44, ann TS 54, bob TH 64, cy TD 74, ann TC 84, bob KS 88, cy KH 92, ann 9S
    # 92, bob QS 95, cy 7H 95, ann 9H 95, bob KC 99, cy 8H 99, ann QH 102: ann pays 2 to
    # each: [-4, +2, +2] -> balances [2, -1, -1].
    hands = {2: "AS AC TD KH 7H 8H", 0: "AH TS TC 9S 9H QH", 1: "AD TH KS QS KC"}
    game.deal(deck_for(3, 1, hands, "7S 8S"))
    assert (game.total, game.to_act) == (0, 2)
    events = play_all(game, "AS AH AD AC TS TH TD TC KS KH 9S QS 7H 9H KC 8H QH")
    assert events[-1] == DealScored(2, 0, 102, (-4, 2, 2), (2, -1, -1))
    assert sum(game.scores) == 0
    assert game.dealer == 2


# ----------------------------------------------------------- hand-checked: 6 players

SIX = {1: "AS KS QH", 2: "AH KH", 3: "AD KD", 4: "AC 7S", 5: "TS KC QS", 0: "TC 8S"}


def six_player_deal(flags: frozenset[str] = frozenset()) -> Game:
    game = game_of(6, flags)
    # ann deals; the pile TH TD: total 20. bob AS 31, cy AH 42, dee AD 53, eve AC 64, fay
    # TS 74, ann TC 84, bob KS 88, cy KH 92, dee KD 96, eve 7S 96: fay to play.
    game.deal(deck_for(6, 0, SIX, "TH TD"))
    assert [len(game.hand(s)) for s in range(6)] == [5] * 6
    assert game.total == 20
    play_all(game, "AS AH AD AC TS TC KS KH KD 7S")
    assert (game.total, game.to_act) == (96, 5)
    return game


def test_six_players_exactly_100_takes_3_from_each_of_five():
    game = six_player_deal()
    # fay's KC makes 100: she takes 3 from each of the five others: +15.
    events = game.apply(5, Play(c1("KC")))
    assert events[-1] == DealScored(1, 5, 100, (-3, -3, -3, -3, -3, 15), (-3,) * 5 + (15,))


def test_six_players_overshoot_pays_each_of_five():
    game = six_player_deal()
    # fay QS 99, ann 8S 99, bob QH 102: bob pays 2 to each of the five others: -10.
    events = play_all(game, "QS 8S QH")
    assert events[-1] == DealScored(1, 1, 102, (2, -10, 2, 2, 2, 2), (2, -10, 2, 2, 2, 2))


def test_six_players_feder_both_ways():
    game = six_player_deal(FEDER)
    # Feder: fay's exact 100 takes 1 from each: +5.
    events = game.apply(5, Play(c1("KC")))
    assert events[-1] == DealScored(1, 5, 100, (-1, -1, -1, -1, -1, 5), (-1,) * 5 + (5,))
    game = six_player_deal(FEDER)
    # Feder: bob's 102 pays 1 to each (not 2): -5.
    events = play_all(game, "QS 8S QH")
    assert events[-1] == DealScored(1, 1, 102, (1, -5, 1, 1, 1, 1), (1, -5, 1, 1, 1, 1))


# ------------------------------------------------------------------------ scoring


@pytest.mark.parametrize(
    ("seat", "total", "n", "feder", "expected"),
    [
        (0, 100, 2, False, (3, -3)),
        (1, 110, 3, False, (10, -20, 10)),
        (2, 101, 4, False, (1, 1, -3, 1)),
        (0, 100, 4, True, (3, -1, -1, -1)),
        (3, 110, 4, True, (1, 1, 1, -3)),
    ],
)
def test_chips(seat: int, total: int, n: int, feder: bool, expected: tuple[int, ...]):
    assert chips(seat, total, n, feder) == expected
    assert sum(expected) == 0


def test_chips_are_only_for_a_deal_that_ended():
    with pytest.raises(ValueError, match="not 99"):
        chips(0, 99, 3, False)


def test_the_winner_is_the_highest_balance_and_on_a_tie_the_lowest_seat():
    assert game_winner([1, 5, -6]) == 1
    assert game_winner([-2, 4, 4, -6]) == 1
    assert game_winner([0, 0]) == 0
    assert game_winner([-1, -1, 3, 3, -2, -2]) == 2


# ------------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("players", "code"),
    [(["a"], "bad_players"), (list("abcdefg"), "bad_players"), (["a", "b", "a"], "duplicate_name")],
)
def test_who_may_sit(players: list[str], code: str):
    with pytest.raises(IllegalActionError) as caught:
        Game(players)
    assert caught.value.code == code


def test_a_table_option_hundert_does_not_have():
    with pytest.raises(IllegalActionError) as caught:
        Game(NAMES[:3], frozenset({"Fast"}))
    assert caught.value.code == "bad_flag"
    assert "Feder" in caught.value.message
    assert Game(NAMES[:3]).flags == frozenset()


@pytest.mark.parametrize(
    "deck",
    [
        list(HUNDERT_DECK[:31]),
        [*HUNDERT_DECK[:31], HUNDERT_DECK[0]],
        [*HUNDERT_DECK[:31], c1("2H")],
        [*HUNDERT_DECK[:31], JOKER],
        [*HUNDERT_DECK, c1("2H")],
        [*HUNDERT_DECK[:31], "AC"],
    ],
    ids=["31", "twice", "2H", "joker", "33", "a code"],
)
def test_a_deck_that_is_not_the_32_cards(deck: Sequence[Card]):
    game = game_of(3)
    with pytest.raises(IllegalActionError) as caught:
        game.deal(deck)
    assert caught.value.code == "bad_deck"
    assert game.needs_deal


def test_the_engine_refusals_change_nothing():
    game = game_of(3)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(1, Play(c1("AS")))
    assert caught.value.code == "wrong_phase"
    game.deal(deck_for(3, 0, {1: "AS", 2: "AH"}))
    before = (game.to_act, game.total, [game.hand(s) for s in range(3)], list(game.history))
    cases = [
        (lambda: game.deal(list(HUNDERT_DECK)), "wrong_phase"),
        (lambda: game.apply(2, Play(c1("AH"))), "not_your_turn"),
        (lambda: game.apply(1, Play(c1("AH"))), "not_in_hand"),
        (lambda: game.apply(1, Play(c1("2S"))), "not_in_hand"),
        (lambda: game.apply(1, Play(JOKER)), "not_in_hand"),
        (lambda: game.apply(3, Play(c1("AS"))), "bad_seat"),
        (lambda: game.apply(-1, Play(c1("AS"))), "bad_seat"),
        (lambda: game.apply(1, "AS"), "bad_action"),  # type: ignore[arg-type]
        (lambda: game.legal_actions(5), "bad_seat"),
        (lambda: game.view_for(3), "bad_seat"),
    ]
    for call, code in cases:
        with pytest.raises(IllegalActionError) as caught:
            call()
        assert caught.value.code == code
        assert (game.to_act, game.total, [game.hand(s) for s in range(3)], game.history) == before


def test_play_checks_its_card():
    with pytest.raises(CardCodeError):
        Play("AS")  # type: ignore[arg-type]


# ------------------------------------------------------------------------ views


def test_a_view_shows_the_seats_own_hand_the_pile_and_the_plays_only():
    game = game_of(3)
    game.deal(deck_for(3, 0, {1: "AS", 2: "AH"}, "7C 8C"))
    game.apply(1, Play(c1("AS")))
    view = game.view_for(2)
    assert (view.seat, view.to_act, view.total, view.dealer, view.num_players) == (2, 2, 11, 0, 3)
    assert view.hand == game.hand(2)
    assert view.pile == tuple(cs("7C 8C"))
    assert view.played == ((1, c1("AS")),)
    assert view.hand_sizes == (10, 9, 10)
    assert view.legal == game.legal_actions(2)
    assert not view.feder
    allowed = set(game.hand(2)) | set(cs("7C 8C AS"))
    assert set(cards_in(view)) - allowed == set()
    assert set(view.unseen) == set(game.hand(0)) | set(game.hand(1))
    assert len(view.unseen) == 19


# ------------------------------------------------------------------ random games


@settings(max_examples=25, deadline=None)
@given(n=st.sampled_from([2, 3, 4, 5, 6]), seed=st.integers(0, 2**32 - 1), feder=st.booleans())
def test_random_full_games_keep_the_invariants(n: int, seed: int, feder: bool):
    rng = random.Random(seed)
    game = game_of(n, FEDER if feder else frozenset())
    balances = [0] * n
    deals = 0
    while not game.is_over:
        assert game.needs_deal
        dealer = deals % n  # seat 0 first, then the deal passes left
        assert game.dealer == dealer
        deck = list(HUNDERT_DECK)
        rng.shuffle(deck)
        (dealt,) = game.deal(deck)
        assert isinstance(dealt, Dealt)
        size = 32 // n
        assert [len(h) for h in dealt.hands] == [size] * n
        assert len(dealt.pile) == 32 % n
        total = sum(points(c) for c in dealt.pile)
        assert dealt.total == total <= 22
        assert game.to_act == (dealer + 1) % n
        deals += 1
        ended = None
        seat = (dealer + 1) % n
        while ended is None:
            assert game.to_act == seat
            legal = game.legal_actions(seat)
            assert [a.card for a in legal] == list(game.hand(seat))  # every card
            assert all(game.legal_actions(s) == () for s in range(n) if s != seat)
            card = rng.choice(legal).card
            events = game.apply(seat, Play(card))
            total += points(card)
            assert events[0] == Played(seat, card, total)
            if total < 100:
                assert len(events) == 1
                seat = (seat + 1) % n
                continue
            ended = events[1]
        assert isinstance(ended, DealScored)
        assert (ended.round, ended.seat, ended.total) == (deals, seat, total)
        each = 1 if feder else (3 if total == 100 else total - 100)
        sign = 1 if total == 100 else -1
        expected = [-sign * each] * n
        expected[seat] = sign * each * (n - 1)
        assert list(ended.points) == expected
        assert sum(ended.points) == 0  # chips sum to zero after every deal
        balances = [b + p for b, p in zip(balances, ended.points, strict=True)]
        assert list(ended.totals) == balances == list(game.scores)
        assert sum(game.scores) == 0
    assert deals == 2 * n
    assert game.round == 2 * n
    top = max(balances)
    assert game.winner == balances.index(top)  # the lowest seat among the top
    assert len(game.deal_results) == 2 * n
    assert sum(isinstance(h, DealRecord) for h in game.history) == 2 * n


def test_a_seeded_game_is_the_same_every_time():
    from hundred_server.ai.selfplay import play_game

    a = play_game(5, "same", game="hundert")
    b = play_game(5, "same", game="hundert")
    assert a.history == b.history
    assert a.is_over
    assert a.round == 10
    assert [d.deck for d in a.history if isinstance(d, DealRecord)] == [
        seeded_deck("same", k) for k in range(10)
    ]
