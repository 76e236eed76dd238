"""The strong Whist AI (games/whist/strong.py): PIMC over deals sampled from the view.

No timing here (tests/games/test_every_game.py says where speed and strength are measured).
"""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from hundred_server.games.kit.cards import STANDARD_52, Card
from hundred_server.games.kit.search import SampleError, tricks_seen
from hundred_server.games.whist.bots import WhistBot
from hundred_server.games.whist.rules import Game, HandScored, View
from hundred_server.games.whist.strong import StrongBot, candidates_of, sampler
from hundred_server.games.whist.wire import SPEC
from tests.support import playing

PLAYERS = ["n", "e", "s", "w"]
#: Little work per decision, and no clock: fast and reproducible.
QUICK = {"work": 1500, "min_samples": 4, "budget": None}


def c(code: str) -> Card:
    return Card.parse(code)


def views_of_a_hand(seed: str) -> list[View]:
    """Every seat's view before every play of hand 1 of a game of WhistBots."""
    game = Game(PLAYERS, seed=seed)
    return [
        SPEC.view(game, s)
        for _ in playing.positions(game, WhistBot(), in_first_hand)
        for s in range(4)
    ]


def in_first_hand(game: Game) -> bool:
    return game.hand_index == 0 and not game.is_over


def test_it_plays_only_legal_cards_through_whole_games():
    for seed in ("legal-1", "legal-2"):
        bots = [StrongBot(seed=s, **QUICK) for s in range(4)]
        game, _, plays = playing.play_checked(SPEC, PLAYERS, seed, bots, limit=200)
        assert plays == 200 or game.is_over


def seen_of(view: View) -> tuple[list[set[int]], list[int]]:
    """The voids and hand sizes the kit's sampler reads off a view."""
    return tricks_seen((*view.tricks, view.current_trick), 13)


@pytest.mark.parametrize("seed", ["sample-1", "sample-2", "sample-3"])
def test_sampled_deals_fit_everything_the_view_shows(seed):
    rng = Random(seed)
    checked_voids = 0
    for view in views_of_a_hand(seed):
        assert view.trump_card is not None
        draw = sampler(view)
        voids, sizes = seen_of(view)
        checked_voids += sum(len(v) for s, v in enumerate(voids) if s != view.seat)
        seen = set(view.hand).union(view.played)
        for _ in range(5):
            hands = draw.sample(rng)
            assert hands[view.seat] == []
            placed = [card for s, hand in enumerate(hands) for card in hand]
            # every card not seen is placed once, and nothing else
            assert sorted(placed) == sorted(int(x) for x in STANDARD_52 if x not in seen)
            for s in range(4):
                if s == view.seat:
                    continue
                assert len(hands[s]) == sizes[s]
                assert not any(card // 13 in voids[s] for card in hands[s])
            if view.trump_card not in seen:
                assert int(view.trump_card) in hands[view.dealer]
    assert checked_voids > 0  # the hands did show voids


def test_the_voids_and_hand_sizes_it_reads_are_true_of_the_real_hands():
    game = Game(PLAYERS, seed="voids")
    voids_seen = 0
    for _ in playing.positions(game, WhistBot(), in_first_hand):
        for viewer in range(4):
            view = SPEC.view(game, viewer)
            voids, sizes = seen_of(view)
            assert sizes == [len(hand) for hand in game.hands]
            for s, suits in enumerate(voids):
                voids_seen += len(suits)
                assert not any(card // 13 in suits for card in game.hands[s])
    assert voids_seen > 0


def test_a_view_no_deal_fits_is_refused():
    view = SPEC.view(Game(PLAYERS, seed="refuse"), 1)
    # every card played by seat 0 after the view was taken, with its hand size kept:
    # the counts no longer add up
    with pytest.raises(SampleError):
        sampler(dataclasses.replace(view, hand=view.hand[:-1]))


def _swapped_game(game: Game, viewer: int) -> Game | None:
    """The same game with two hidden cards of one suit swapped between two other
    seats (neither played, nor the turned-up card): every play so far stays legal, and
    the viewer's view stays the same. None if there is no such pair."""
    deck = list(game.deck)
    played = set(game.played)
    owner = {i: (game.dealer + 1 + i) % 4 for i in range(52)}
    hidden = [i for i in range(51) if owner[i] != viewer and deck[i] not in played]
    for i, j in playing.swaps(hidden, owner):
        if deck[i].suit is deck[j].suit:
            deck[i], deck[j] = deck[j], deck[i]
            return playing.replayed(Game(PLAYERS), deck, game.history[1:])
    return None


def test_its_choice_depends_only_on_the_view():
    game = Game(PLAYERS, seed="view-only")
    compared = 0
    for seat in playing.positions(game, WhistBot(), in_first_hand):
        view = SPEC.view(game, seat)
        other = _swapped_game(game, seat)
        if other is not None and len(view.legal) > 1:
            playing.same_choice(lambda: StrongBot(seed=7, **QUICK), game, other, seat)
            compared += 1
    assert compared > 10


def test_it_is_given_only_the_seats_view():
    for view in playing.views_given(SPEC, PLAYERS, lambda spy: spy(**QUICK), WhistBot, 30):
        assert len(view.hand) + sum(view.seat == s for p in view.tricks for s, _ in p) <= 13


def test_cards_in_sequence_are_judged_once():
    kept_fewer = 0
    for view in views_of_a_hand("sequence"):
        if not view.legal:
            continue
        cards = sorted(p.card for p in view.legal)
        kept = candidates_of(view, cards)
        known = set(view.hand).union(view.played)

        def in_sequence(low: Card, high: Card, known: set[Card] = known) -> bool:
            return low.suit is high.suit and all(
                STANDARD_52[x] in known for x in range(low + 1, high)
            )

        for card in cards:
            below = [k for k in kept if k < card]
            # dropped exactly when it is in sequence with the kept card below it
            assert (card not in kept) == bool(below and in_sequence(below[-1], card))
        kept_fewer += len(kept) < len(cards)
    assert kept_fewer > 0


def test_it_takes_more_tricks_than_the_whist_bot_on_duplicate_hands():
    """The first hand of 16 seeded deals, played twice with the sides swapped."""
    strong = weak = 0
    for deal in range(16):
        for strong_side in (0, 1):
            game = Game(PLAYERS, seed=f"duplicate-{deal}")
            bots = [
                StrongBot(seed=deal, **QUICK) if s % 2 == strong_side else WhistBot()
                for s in range(4)
            ]
            tricks = playing.play_to(game, bots, HandScored, SPEC.view).tricks
            strong += tricks[strong_side]
            weak += tricks[1 - strong_side]
    assert strong + weak == 16 * 2 * 13
    assert strong > weak, (strong, weak)
