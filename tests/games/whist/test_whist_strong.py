"""The strong Whist AI (games/whist/strong.py): PIMC over deals sampled from the view.

No timing here: its speed and strength are measured with the tournament command and
bench/strong.py (``make bench-strong``; README, tournament section).
"""

from __future__ import annotations

from random import Random

import pytest

from hundred_server.core import driver
from hundred_server.games.kit.cards import STANDARD_52, Card
from hundred_server.games.kit.search import SampleError, tricks_seen
from hundred_server.games.whist.bots import WhistBot
from hundred_server.games.whist.rules import Game, HandScored, Play, View
from hundred_server.games.whist.strong import StrongBot, candidates_of, sampler
from hundred_server.games.whist.wire import SPEC

PLAYERS = ["n", "e", "s", "w"]
#: Little work per decision, and no clock: fast and reproducible.
QUICK = {"work": 1500, "min_samples": 4, "budget": None}


def c(code: str) -> Card:
    return Card.parse(code)


def views_of_a_hand(seed: str) -> list[View]:
    """Every seat's view before every play of hand 1 of a game of WhistBots."""
    game = Game(PLAYERS, seed=seed)
    bot = WhistBot()
    views = []
    while game.hand_index == 0 and not game.is_over:
        seat = game.to_act
        assert seat is not None
        views += [SPEC.view(game, s) for s in range(4)]
        game.apply(seat, bot.act(SPEC.view(game, seat)))
    return views


def test_it_is_registered_without_changing_the_default_ai():
    assert SPEC.bots["strong"] is StrongBot
    assert SPEC.bots["default"] is WhistBot
    assert SPEC.bot is WhistBot


def test_it_plays_only_legal_cards_through_whole_games():
    for seed in ("legal-1", "legal-2"):
        game = SPEC.new_game(PLAYERS, seed)
        bots = [StrongBot(seed=s, **QUICK) for s in range(4)]
        plays = 0
        while not game.is_over and plays < 200:
            seat = game.to_act
            if seat is None:
                driver.step(game, SPEC, seed, bots)
                continue
            view = SPEC.view(game, seat)
            action = bots[seat].act(view)
            assert action in view.legal
            game.apply(seat, action)
            plays += 1
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
    bot = WhistBot()
    voids_seen = 0
    while game.hand_index == 0 and not game.is_over:
        seat = game.to_act
        assert seat is not None
        for viewer in range(4):
            view = SPEC.view(game, viewer)
            voids, sizes = seen_of(view)
            assert sizes == [len(hand) for hand in game.hands]
            for s, suits in enumerate(voids):
                voids_seen += len(suits)
                assert not any(card // 13 in suits for card in game.hands[s])
        game.apply(seat, bot.act(SPEC.view(game, seat)))
    assert voids_seen > 0


def test_a_view_no_deal_fits_is_refused():
    view = SPEC.view(Game(PLAYERS, seed="refuse"), 1)
    # every card played by seat 0 after the view was taken, with its hand size kept:
    # the counts no longer add up
    broken = View(
        **{f: getattr(view, f) for f in View.__dataclass_fields__ if f != "hand"},
        hand=view.hand[:-1],
    )
    with pytest.raises(SampleError):
        sampler(broken)


def _swapped_game(game: Game, viewer: int) -> Game | None:
    """The same game with two hidden cards of one suit swapped between two other
    seats (neither played, nor the turned-up card): every play so far stays legal, and
    the viewer's view stays the same. None if there is no such pair."""
    deck = list(game.deck)
    played = set(game.played)
    owner = {i: (game.dealer + 1 + i) % 4 for i in range(52)}
    hidden = [i for i in range(51) if owner[i] != viewer and deck[i] not in played]
    for i in hidden:
        for j in hidden:
            if owner[i] < owner[j] and deck[i].suit is deck[j].suit:
                deck[i], deck[j] = deck[j], deck[i]
                other = Game(PLAYERS)
                other.deal(deck)
                for entry in game.history[1:]:
                    assert isinstance(entry, tuple)
                    other.apply(*entry)
                return other
    return None


def test_its_choice_depends_only_on_the_view():
    game = Game(PLAYERS, seed="view-only")
    bot = WhistBot()
    compared = 0
    while game.hand_index == 0 and not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = SPEC.view(game, seat)
        other = _swapped_game(game, seat)
        if other is not None and len(view.legal) > 1:
            assert other.hands != game.hands  # the hidden cards differ
            other_view = SPEC.view(other, seat)
            assert other_view == view
            assert StrongBot(seed=7, **QUICK).act(other_view) == StrongBot(seed=7, **QUICK).act(
                view
            )
            compared += 1
        game.apply(seat, bot.act(view))
    assert compared > 10


def test_it_is_given_only_the_seats_view():
    seen: list[object] = []

    class Spy(StrongBot):
        def act(self, view: View) -> Play:  # type: ignore[override]
            seen.append(view)
            return super().act(view)

    game = SPEC.new_game(PLAYERS, "spy")
    bots = [Spy(**QUICK), WhistBot(), Spy(**QUICK), WhistBot()]
    for _ in range(30):
        driver.step(game, SPEC, "spy", bots)
    assert seen
    for view in seen:
        assert type(view) is View
        assert len(view.hand) + sum(view.seat == s for p in view.tricks for s, _ in p) <= 13


def test_the_same_seed_replays_the_same_game():
    def record(seed: int) -> list[object]:
        game = SPEC.new_game(PLAYERS, "replay")
        bots = [StrongBot(seed=seed, **QUICK) for _ in range(4)]
        for _ in range(60):
            driver.step(game, SPEC, "replay", bots)
        return list(game.history)

    assert record(3) == record(3)


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
            tricks = None
            while tricks is None:
                seat = game.to_act
                assert seat is not None
                for event in game.apply(seat, bots[seat].act(SPEC.view(game, seat))):
                    if isinstance(event, HandScored):
                        tricks = event.tricks
            strong += tricks[strong_side]
            weak += tricks[1 - strong_side]
    assert strong + weak == 16 * 2 * 13
    assert strong > weak, (strong, weak)
