"""The strong Pinochle AI (games/pinochle/strong.py): PIMC over deals sampled from the view.

No timing here (tests/games/test_every_game.py says where speed and strength are measured).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server.core import driver
from hundred_server.games.kit.search import SampleError
from hundred_server.games.pinochle.bots import NaiveBot, PinochleBot
from hundred_server.games.pinochle.rules import (
    PINOCHLE_DECK,
    SUIT_ORDER,
    Game,
    Phase,
    meld,
)
from hundred_server.games.pinochle.strong import (
    Sampler,
    StrongBot,
    card_id,
    card_of,
    meld_value,
    played_by,
    top_allowed,
)
from hundred_server.games.pinochle.wire import SPEC
from tests.support import playing

PLAYERS = ["n", "e", "s", "w"]
#: Little work per decision, and no clock: fast and reproducible.
QUICK = {"work": 500, "min_samples": 2, "budget": None}
#: Enough work to play well, still no clock.
STEADY = {"work": 1500, "min_samples": 3, "budget": None}


def quick(seed: int = 0, bot: type[StrongBot] = StrongBot) -> StrongBot:
    """A strong AI of QUICK's work, its bids' work cut as well (a tuning subclass)."""
    return type("Quick", (bot,), {"bid_work": 400})(seed=seed, **QUICK)


class Steady(StrongBot):
    """STEADY's bids' work."""

    bid_work = 1500


def game_at(seed: str, plays: int) -> Game:
    """A game of PinochleBots dealt from ``seed``, ``plays`` actions (bids and trump
    included; fewer than the hand's 53) into its first hand."""
    game = Game(PLAYERS)
    game.deal(SPEC.seeded_deck(seed, 0))
    bot = PinochleBot()
    for _ in range(plays):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.act(SPEC.view(game, seat)))
    return game


def in_first_hand(game: Game) -> bool:
    return game.hand_index == 0 and not game.needs_deal


def test_the_compact_meld_is_the_rules_meld():
    rng = Random("meld")
    deck = list(PINOCHLE_DECK)
    for _ in range(500):
        rng.shuffle(deck)
        hand = deck[:12]
        counts = [0] * 24
        for c in hand:
            counts[card_id(c)] += 1
        for t, suit in enumerate(SUIT_ORDER):
            assert meld_value(counts, t) == meld(hand, suit)[0]
    assert all(card_of(card_id(c)) == c for c in PINOCHLE_DECK)


def test_it_plays_only_legal_actions_through_whole_games():
    for seed in ("legal-1", "legal-2"):
        bots = [quick(s) for s in range(4)]
        game, phases, _ = playing.play_checked(SPEC, PLAYERS, seed, bots)
        assert game.is_over
        assert all(phases[p] for p in (Phase.BIDDING, Phase.TRUMP, Phase.TRICKS))


def test_what_it_reads_of_the_plays_is_true_of_the_real_hands():
    game = game_at("caps", 0)
    limited = 0
    for _ in playing.positions(game, PinochleBot(), in_first_hand):
        for viewer in range(4):
            view = SPEC.view(game, viewer)
            top = top_allowed(view)
            limited += sum(t < 5 for s, row in enumerate(top) if s != viewer for t in row)
            for s, hand in enumerate(game.hands):
                assert all(top[s][card_id(c) // 6] >= card_id(c) % 6 for c in hand)
            assert [len(p) for p in played_by(view)] == [12 - len(h) for h in game.hands]
    assert limited > 0  # the hand did show voids and cards that could not beat


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), plays=st.integers(0, 50), viewer=st.integers(0, 3))
def test_sampled_deals_fit_everything_the_view_shows(seed, plays, viewer):
    game = game_at(f"sample-{seed}", plays)
    view = SPEC.view(game, viewer)
    sampler = Sampler(view)
    played = played_by(view)
    top = top_allowed(view)
    hidden = Counter(card_id(c) for s in range(4) if s != viewer for c in game.hands[s])
    rng = Random(seed)
    # the plain draws, and the careful draw the sampler falls back on when they fail
    careful = sampler._full(sampler._draw_checked(rng, sampler._pick_caps(rng)))
    for hands in [sampler.sample(rng) for _ in range(4)] + [careful]:
        assert hands[viewer] == []
        # every card not seen is placed once, and nothing else
        assert Counter(c for hand in hands for c in hand) == hidden
        for s in range(4):
            if s == viewer:
                continue
            assert len(hands[s]) == len(game.hands[s])
            # no card the must-follow and must-beat rules say it cannot hold
            assert all(top[s][c // 6] >= c % 6 for c in hands[s])
            if view.trump is not None:
                # its hand at meld time melds exactly what it showed, shown cards and all
                at_meld = [card_of(c) for c in hands[s] + played[s]]
                assert meld(at_meld, view.trump) == view.melds[s]


def test_a_view_no_deal_fits_is_refused():
    view = SPEC.view(game_at("refuse", 10), 1)
    with pytest.raises(SampleError):
        Sampler(dataclasses.replace(view, hand=view.hand[:-1]))


def _swapped_game(game: Game, viewer: int) -> Game | None:
    """The same game with two hidden cards swapped between two other seats such that
    every action so far stays legal and the viewer's view stays the same (melds
    included). None if there is no such pair."""
    first = game.history[0]
    deck = list(first.deck)  # type: ignore[union-attr]
    played = Counter(game.played)
    owner = {i: (game.dealer + 1 + i) % 4 for i in range(48)}
    view = SPEC.view(game, viewer)
    hidden = [i for i in range(48) if owner[i] != viewer]
    for i, j in playing.swaps(hidden, owner):
        if deck[i] == deck[j] or deck[i].suit is not deck[j].suit:
            continue
        if played[deck[i]] or played[deck[j]]:
            continue
        swapped = deck[:]
        swapped[i], swapped[j] = swapped[j], swapped[i]
        try:
            other = playing.replayed(Game(PLAYERS), swapped, game.history[1:])
        except Exception:  # an action no longer legal: try another pair
            continue
        if SPEC.view(other, viewer) == view:
            return other
    return None


def test_its_choice_depends_only_on_the_view():
    compared = 0
    for seed in ("view-only-1", "view-only-2"):
        game = game_at(seed, 0)
        for seat in playing.positions(game, PinochleBot(), in_first_hand):
            if compared == 12:
                break
            view = SPEC.view(game, seat)
            if len(view.legal) > 1:
                other = _swapped_game(game, seat)
                if other is not None:
                    playing.same_choice(lambda: quick(7), game, other, seat)
                    compared += 1
    assert compared >= 8


def test_it_is_given_only_the_seats_view():
    for view in playing.views_given(SPEC, PLAYERS, lambda spy: quick(0, spy), PinochleBot, 40):
        assert len(view.hand) + sum(view.seat == s for p in view.tricks for s, _ in p) <= 12


def test_it_beats_the_naive_ai_on_duplicate_deals():
    """Whole games from 4 seeded deals, each played twice with the sides swapped."""
    wins = [0, 0]  # strong, naive
    margin = 0
    for deal in range(4):
        seed = f"duplicate-{deal}"
        for strong_side in (0, 1):
            game = SPEC.new_game(PLAYERS, seed)
            bots = [
                Steady(seed=deal, **STEADY) if s % 2 == strong_side else NaiveBot()
                for s in range(4)
            ]
            driver.advance(game, SPEC, seed, bots)
            assert game.winner is not None
            wins[game.winner != strong_side] += 1
            margin += game.scores[strong_side] - game.scores[1 - strong_side]
    assert wins[0] > wins[1], (wins, margin)
    assert margin > 0
