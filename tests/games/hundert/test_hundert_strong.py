"""The strong Hundert AI (games/hundert/strong.py): PIMC over deals sampled from the view.

No timing here (tests/games/test_every_game.py says where speed and strength are measured).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server.games.hundert.bots import HundertBot
from hundred_server.games.hundert.rules import (
    FEDER,
    HUNDERT_DECK,
    POINTS,
    TARGET,
    DealRecord,
    DealScored,
    Game,
    Play,
    View,
    chips,
    seeded_deck,
)
from hundred_server.games.hundert.strong import (
    CLASS_OF,
    VALUES,
    Sampler,
    StrongBot,
    chips_to,
    counts_of,
)
from hundred_server.games.hundert.wire import SPEC
from hundred_server.games.kit.cards import Card
from hundred_server.games.kit.search import SampleError
from tests.support import playing

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")
#: Little work per decision, and no clock: fast and reproducible.
QUICK = {"work": 600, "min_samples": 4, "budget": None}
#: The default work, no clock: as it plays, and reproducible (too little work is noise).
DUEL = {"budget": None}


def c(code: str) -> Card:
    return Card.parse(code)


def game_after(seats: int, seed: str, plays: int, flags: frozenset[str] = frozenset()) -> Game:
    """A game of HundertBots ``plays`` card plays into its first deal (fewer if the deal
    ends sooner: then as it ended, just before its last play)."""
    game = Game(NAMES[:seats], flags)
    deck = seeded_deck(seed, 0)
    game.deal(deck)
    bot = HundertBot()
    for _ in range(plays):
        seat = game.to_act
        assert seat is not None
        action = bot.act(game.view_for(seat))
        if game.total + POINTS[action.card] >= TARGET:
            break
        game.apply(seat, action)
    return game


@pytest.mark.parametrize(
    ("seats", "flags"),
    [(2, ()), (3, ()), (4, ()), (5, ()), (6, ()), (3, (FEDER,)), (6, (FEDER,))],
)
def test_it_plays_only_legal_cards_through_whole_games(seats: int, flags: tuple[str, ...]):
    seed = f"legal-{seats}-{len(flags)}"
    bots = [StrongBot(seed=s, **QUICK) for s in range(seats)]
    game, _, _ = playing.play_checked(SPEC, NAMES[:seats], seed, bots, flags=frozenset(flags))
    assert game.is_over
    assert game.round == 2 * seats
    assert sum(game.scores) == 0


@settings(max_examples=60, deadline=None)
@given(
    seats=st.integers(2, 6),
    seed=st.text("abcxyz", min_size=1, max_size=6),
    plays=st.integers(0, 40),
    viewer_shift=st.integers(0, 5),
    draw=st.integers(0, 2**32 - 1),
)
def test_sampled_deals_fit_everything_the_view_shows(
    seats: int, seed: str, plays: int, viewer_shift: int, draw: int
):
    game = game_after(seats, seed, plays)
    viewer = (game.to_act or 0) + viewer_shift
    view = game.view_for(viewer % seats)
    sampler = Sampler(view)
    seen = {*view.hand, *view.pile, *(card for _, card in view.played)}
    # the real deal is one of those the sampler may draw
    hidden = sorted(card for s, hand in enumerate(game.hands) if s != view.seat for card in hand)
    assert hidden == sorted(view.unseen)
    rng = Random(draw)
    for _ in range(3):
        hands = sampler.sample(rng)
        assert hands[view.seat] == []
        placed = [card for hand in hands for card in hand]
        # every card not seen is placed once, and nothing seen is
        assert sorted(placed) == sorted(card for card in HUNDERT_DECK if card not in seen)
        assert len(placed) == len(set(placed))
        assert [len(hand) for s, hand in enumerate(hands) if s != view.seat] == [
            len(hand) for s, hand in enumerate(game.hands) if s != view.seat
        ]
        counts = sampler.sample_counts(Random(draw))
        assert sum(counts[view.seat]) == 0
        assert [sum(h) for h in counts] == [len(h) for h in sampler.sample(Random(draw))]


def test_a_card_counts_as_its_points():
    cards = [c(x) for x in ("AS", "TH", "KD", "QC", "JS", "9H", "8D", "7C")]
    assert [VALUES[CLASS_OF[x]] for x in cards] == [11, 10, 4, 3, 2, 0, 0, 0]
    assert counts_of(list(HUNDERT_DECK)) == [12, 4, 4, 4, 4, 4]


@given(
    seats=st.integers(2, 6),
    seat=st.integers(0, 5),
    total=st.integers(TARGET, TARGET + 10),
    feder=st.booleans(),
)
def test_the_chips_it_counts_are_the_rules_chips(seats: int, seat: int, total: int, feder: bool):
    seat %= seats
    expected = chips(seat, total, seats, feder)
    assert [chips_to(v, seat, total, seats, feder) for v in range(seats)] == list(expected)


def test_a_view_no_deal_fits_is_refused():
    view = game_after(4, "refuse", 5).view_for(1)
    with pytest.raises(SampleError):
        Sampler(dataclasses.replace(view, hand=view.hand[:-1]))


def test_when_every_card_goes_over_it_plays_the_lowest():
    # Seat 0 leads at a total of 96 with nothing under 4 left: K (104) beats T and A.
    game = game_after(2, "over", 0)
    view = game.view_for(game.to_act or 0)
    hand = (c("AS"), c("TS"), c("KS"))
    forced = View(
        **{
            f: getattr(view, f)
            for f in View.__dataclass_fields__
            if f not in {"hand", "legal", "total", "hand_sizes"}
        },
        hand=hand,
        legal=tuple(Play(x) for x in hand),
        total=96,
        hand_sizes=tuple(3 if s == view.seat else 16 for s in range(2)),
    )
    assert StrongBot(**QUICK).act(forced) == Play(c("KS"))


def _swapped_game(game: Game, viewer: int) -> Game | None:
    """The same game with two hidden cards of different points swapped between two
    other seats: every play so far stays legal (any card is), and the viewer's view stays
    the same. None if there is no such pair."""
    record = game.history[0]
    assert isinstance(record, DealRecord)
    deck = list(record.deck)
    played = {card for _, card in game.played}
    n = game.num_players
    dealt = len(deck) - len(game.pile)
    owner = {i: (game.dealer + 1 + i) % n for i in range(dealt)}
    hidden = [i for i in range(dealt) if owner[i] != viewer and deck[i] not in played]
    for i, j in playing.swaps(hidden, owner):
        if POINTS[deck[i]] != POINTS[deck[j]]:
            deck[i], deck[j] = deck[j], deck[i]
            return playing.replayed(Game(game.players, game.flags), deck, game.history[1:])
    return None


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_its_choice_depends_only_on_the_view(seats: int):
    # (With two seats nothing is hidden: the other hand is every card not seen.)
    game = Game(NAMES[:seats])
    game.deal(seeded_deck(f"view-only-{seats}", 0))
    compared = 0
    for seat in playing.positions(game, HundertBot(), lambda g: g.round == 1):
        view = game.view_for(seat)
        other = _swapped_game(game, seat)
        if other is not None and len({POINTS[p.card] for p in view.legal}) > 1:
            playing.same_choice(lambda: StrongBot(seed=7, **QUICK), game, other, seat)
            compared += 1
    assert compared > 3


def test_it_is_given_only_the_seats_view():
    for view in playing.views_given(SPEC, NAMES[:4], lambda spy: spy(**QUICK), HundertBot, 60):
        assert view.to_act == view.seat
        # it holds its own cards only: nothing of the hidden hands
        assert set(view.hand).isdisjoint(view.unseen)


def _duplicate_chips(seats: int, deals: int, flags: frozenset[str] = frozenset()) -> int:
    """The strong AI's chips over the first deal of ``deals`` seeded decks, each played
    once with it at every seat against HundertBots (so the luck of the cards cancels)."""
    won = 0
    for deal in range(deals):
        deck = seeded_deck(f"duplicate-{seats}-{deal}", 0)
        for strong_seat in range(seats):
            game = Game(NAMES[:seats], flags)
            game.deal(deck)
            bots = [
                StrongBot(seed=deal, **DUEL) if s == strong_seat else HundertBot()
                for s in range(seats)
            ]
            won += playing.play_to(game, bots, DealScored).points[strong_seat]
    return won


@pytest.mark.parametrize("seats", [2, 4])
def test_it_wins_chips_from_the_hundert_bot_on_duplicate_deals(seats: int):
    # Against HundertBots alone a seat's chips over every seat of a deal sum to 0.
    assert _duplicate_chips(seats, 12) > 0


def test_it_wins_chips_with_the_feder_option():
    assert _duplicate_chips(3, 12, frozenset({FEDER})) > 0


def test_the_hidden_cards_counts_match_the_unseen_points():
    view = game_after(5, "counts", 7).view_for(2)
    counts = Sampler(view).sample_counts(Random(1))
    pooled = Counter(VALUES[CLASS_OF[card]] for card in view.unseen)
    assert {v: sum(h[k] for h in counts) for k, v in enumerate(VALUES) if pooled[v]} == dict(pooled)
