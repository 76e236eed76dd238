"""The strong Rook AI (games/rook/strong.py): PIMC over deals sampled from the view.

No timing here (tests/games/test_every_game.py says where speed and strength are measured).
"""

from __future__ import annotations

import dataclasses
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hundred_server.games.base import Bot
from hundred_server.games.kit.search import SampleError
from hundred_server.games.rook.bots import RookBot
from hundred_server.games.rook.cards import ROOK_DECK
from hundred_server.games.rook.rules import (
    POINTS,
    Bid,
    Game,
    HandScored,
    Phase,
    Setup,
    View,
    check_setup,
    seeded_deck,
)
from hundred_server.games.rook.strong import (
    Sampler,
    StrongBot,
    candidates_of,
    hand_sizes,
    played_cards,
    relative_value,
    voids_of,
)
from hundred_server.games.rook.wire import SPEC
from tests.support import playing

NAMES = ["ann", "bob", "cy", "dee", "eve", "fay"]


def quick(seed: int | str = 0, bot: type[StrongBot] = StrongBot) -> StrongBot:
    """Little work per decision, and no clock: fast and reproducible."""
    few = type("Quick", (bot,), {"bid_samples": 10})
    return few(seed, budget=None, work=400, min_samples=2)


def game_at(seats: int, seed: str, actions: int) -> Game:
    """A game of RookBots ``actions`` actions into its first hand (or its end)."""
    game = Game(NAMES[:seats])
    game.deal(seeded_deck(seed, 0))
    bot = RookBot()
    for _ in range(actions):
        seat = game.to_act
        if seat is None or game.hand_index:
            break
        game.apply(seat, bot.act(game.view_for(seat)))
    return game


def in_first_hand(game: Game) -> bool:
    return game.hand_index == 0 and not game.is_over


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_it_acts_legally_through_whole_games(seats: int) -> None:
    def legal(view: View, action: object) -> None:
        if isinstance(action, Setup):
            # legal lists ready-made setups only; any setup check_setup passes is legal
            check_setup(view.hand, action, view.kitty_size, view.calls)
        else:
            assert action in view.legal

    bots = [quick(s) for s in range(seats)]
    game, phases, _ = playing.play_checked(
        SPEC, NAMES[:seats], f"legal-{seats}", bots, limit=6000, check=legal
    )
    assert game.is_over
    assert set(phases) == {Phase.BIDDING, Phase.SETUP, Phase.TRICKS}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    seats=st.sampled_from([3, 4, 5, 6]),
    seed=st.integers(0, 10**6),
    actions=st.integers(0, 60),
    viewer=st.integers(0, 5),
)
def test_sampled_deals_fit_everything_the_view_shows(
    seats: int, seed: int, actions: int, viewer: int
) -> None:
    game = game_at(seats, f"sample-{seed}", actions)
    if game.hand_index or game.phase is Phase.DEAL:
        return
    seat = viewer % seats
    if game.phase is Phase.SETUP and seat != game.bidder:
        return  # only the bidder acts in the setup
    view = game.view_for(seat)
    sampler = Sampler(view)
    sizes = hand_sizes(view)
    assert sizes == [len(h) for h in game.hands]
    voids = voids_of(view)
    for s, colours in enumerate(voids):  # true of the real hands
        assert not any(
            game.trump is not None and _colour(c, game) in colours for c in game.hands[s]
        )
    seen = set(view.hand) | set(played_cards(view)) | set(view.discarded)
    unseen = sorted(int(c) for c in ROOK_DECK if c not in seen)
    hidden = sampler.hidden
    rng = Random(seed)
    for _ in range(4):
        deal = sampler.sample(rng)
        assert deal[seat] == []
        placed = sorted(c for hand in deal for c in hand)
        assert placed == unseen  # every card not seen placed once, nothing else
        for s in range(seats):
            if s != seat:
                assert len(deal[s]) == sizes[s]
                assert not any(_colour(c, game) in voids[s] for c in deal[s])
        if game.phase is Phase.BIDDING:
            assert hidden == seats
            assert len(deal[seats]) == view.kitty_size  # the kitty
        elif game.phase is Phase.TRICKS and seat != game.bidder:
            assert hidden == seats
            discard = deal[seats]
            assert len(discard) == view.kitty_size
            if view.points_in_discard:
                assert any(POINTS[c] for c in discard)
            else:
                assert not any(POINTS[c] for c in discard)
            # the prior (true of the RookBot bidder): no called card with it or discarded
            bidder = view.bidder
            assert bidder is not None
            assert not set(view.called) & {*deal[bidder], *discard}
        else:
            assert deal[seats] == []


def _colour(card: int, game: Game) -> int | None:
    """The colour index (0-3) a card plays as in ``game``."""
    if game.trump is None:
        return None
    if ROOK_DECK[card].is_bird:
        return ["B", "G", "R", "Y"].index(game.trump.value)
    return card // 11


def test_a_view_no_deal_fits_is_refused() -> None:
    view = game_at(4, "refuse", 10).view_for(1)
    with pytest.raises(SampleError):
        Sampler(dataclasses.replace(view, hand=view.hand[:-1]))


def _swapped_game(game: Game, viewer: int) -> Game | None:
    """The same first hand with two hidden cards of one colour swapped between two other
    seats' dealt hands (neither played, discarded nor the bird): every action so far
    stays legal. None if there is no such pair."""
    deck = list(game.deck)
    n = game.num_players
    dealt = n * game.hand_size
    owner = {i: (game.dealer + 1 + i) % n for i in range(dealt)}
    gone = set(game.played) | set(game.discard)
    hidden = [
        i
        for i in range(dealt)
        if owner[i] != viewer and deck[i] not in gone and not deck[i].is_bird
    ]
    for i, j in playing.swaps(hidden, owner):
        if deck[i].colour is deck[j].colour:
            deck[i], deck[j] = deck[j], deck[i]
            return playing.replayed(Game(game.players), deck, game.history[1:])
    return None


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_its_choice_depends_only_on_the_view(seats: int) -> None:
    game = game_at(seats, f"view-only-{seats}", 0)
    compared = 0
    for seat in playing.positions(game, RookBot(), in_first_hand):
        view = game.view_for(seat)
        other = _swapped_game(game, seat)
        if (
            other is not None
            and len(view.legal) > 1
            and compared < 12
            and other.view_for(seat) == view
        ):
            playing.same_choice(lambda: quick(7), game, other, seat)
            compared += 1
    assert compared >= 8


def test_it_is_given_only_the_seats_view() -> None:
    def own(view: View, game: Game) -> None:
        # the seat's own view, as the engine makes it now: nothing more
        assert view == game.view_for(view.seat)

    seen = playing.views_given(SPEC, NAMES[:4], lambda spy: quick(0, spy), RookBot, 80, own)
    assert {v.phase for v in seen} >= {Phase.BIDDING, Phase.TRICKS}
    assert {v.seat for v in seen} == {0, 2}


def test_cards_in_sequence_with_the_same_points_are_judged_once() -> None:
    kept_fewer = 0
    game = game_at(4, "sequence", 0)
    for seat in playing.positions(game, RookBot(), in_first_hand):
        view = game.view_for(seat)
        if view.phase is Phase.TRICKS:
            cards = [a.card for a in view.legal]  # type: ignore[union-attr]
            kept = candidates_of(view, cards)
            assert set(kept) <= set(cards)
            # one card at least of each colour and point value held stays
            assert {(c.colour, POINTS[c]) for c in kept} == {(c.colour, POINTS[c]) for c in cards}
            kept_fewer += len(kept) < len(cards)
    assert kept_fewer > 0


def test_the_value_of_a_hand_is_its_score_less_the_others_mean() -> None:
    side = [True, False, True, False]
    # made: the side scores its 120 each, the opposition its 80 each
    assert relative_value([100, 50, 20, 30], side, 120, False, 0) == 120 - (120 + 160) / 3
    # set: the side scores -130 each
    assert relative_value([100, 50, 20, 30], side, 130, False, 1) == 80 - (-260 + 80) / 3
    # a moon swept: +400, the others nothing
    alone = [True, False, False]
    assert relative_value([200, 0, 0], alone, 400, True, 0) == 400


def test_it_scores_more_than_the_naive_ai_on_duplicate_hands() -> None:
    """The first hand of 6 seeded 4-seat deals, the strong AI at each seat in turn
    against three naive ones, against the same seat in the all-naive game: the seat's
    score less the others' mean."""
    strong = naive = 0.0
    for deal in range(6):
        for seat in range(4):
            for with_strong in (True, False):
                game = Game(NAMES[:4])
                game.deal(seeded_deck(f"duplicate-{deal}", 0))
                bots: list[Bot] = [RookBot() for _ in range(4)]
                if with_strong:
                    bots[seat] = quick(deal)
                scored = playing.play_to(game, bots, HandScored).points
                value = scored[seat] - (sum(scored) - scored[seat]) / 3
                if with_strong:
                    strong += value
                else:
                    naive += value
    assert strong > naive, (strong, naive)


def test_over_a_high_bid_it_can_only_lose_by_it_passes() -> None:
    """Seen on the first hand of deck rook-bids-0, four strong AIs bidding up by 5: at
    180 seat 0 raised to 185 (passing was worth the fixed -40 at any level), and the
    hand went to 190, set with 165 taken. Passing leaves seat 3 held to 180. Passing
    or raising is close here (80 samples judge each), so it is judged on 20 seeds of
    the search: it passes on about half (with the fixed margin, on none)."""
    game = Game(NAMES[:4])
    game.deal(seeded_deck("rook-bids-0", 0))
    for amount in range(80, 180, 5):
        game.apply(game.to_act, Bid(amount))
    for amount in (0, 0, 180):
        game.apply(game.to_act, Bid(amount))
    view = game.view_for(0)
    assert (view.seat, view.high_bid) == (0, 180)
    passes = sum(StrongBot(seed, budget=None).act(view) == Bid(0) for seed in range(20))
    assert passes >= 5, passes


def test_strong_ais_bidding_against_each_other_stop_at_what_they_make() -> None:
    """The first hands of 8 decks, a strong AI in every seat: the bids they win are on
    average no more than the points the bidding side then takes (185.6 bid for 182.5
    taken before passing was judged by the holder's hand; now 180 for 188)."""
    bids = taken = 0
    for deck in range(8):
        game = Game(NAMES[:4])
        game.deal(seeded_deck(f"rook-bids-{deck}", 0))
        bots = [StrongBot(seat, budget=None, work=1000) for seat in range(4)]
        scored = playing.play_to(game, bots, HandScored)
        bids += scored.bid
        taken += sum(scored.taken[s] for s in scored.side)
    assert bids <= taken, (bids / 8, taken / 8)
