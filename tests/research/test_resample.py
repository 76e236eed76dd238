"""``resample_from_infostate`` (hundred_server/research/sampling.py): a drawn state the
seat cannot tell from the real one, drawn by the game's strong AI sampler, and never the
real state itself when no draw replays. Skipped when the research extra is not
installed."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import hundred_server.research.openspiel  # noqa: E402, F401
from hundred_server import games  # noqa: E402
from hundred_server.games.pinochle.rules import PINOCHLE_DECK  # noqa: E402
from hundred_server.research import sampling  # noqa: E402


def _mid_hand(game: str, seed: int, steps: int) -> Any:
    """A state ``steps`` random legal actions (seeded) into the first hand, or fewer if
    the hand ends first: the last state where a seat is to act."""
    loaded = pyspiel.load_game(f"python_hundred_{game}")
    rng = random.Random(f"{game} {seed}")
    state = loaded.new_initial_state()
    done = 0
    while done < steps:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([c for c, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        following = state.clone()
        following.apply_action(rng.choice(state.legal_actions()))
        if following.is_terminal() or following.is_chance_node():
            break
        state = following
        done += 1
    assert not state.is_chance_node()
    assert not state.is_terminal()
    return state


def _resampled_alike(state: Any, draws: int) -> set[str]:
    """Resample ``draws`` times for the seat to act: each draw tells that seat what it
    was told and leaves it the same legal actions; the other seats' information states
    drawn (one set for all)."""
    seat = state.current_player()
    real = state.information_state_string(seat)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(draws):
        drawn = state.resample_from_infostate(seat, sampler)
        assert drawn.information_state_string(seat) == real
        assert drawn.current_player() == seat
        assert drawn.legal_actions() == state.legal_actions()
        others.add(drawn.information_state_string((seat + 1) % state.num_players()))
    return others


def test_pinochle_research_sampler_deals_pinochle_cards_keeping_the_melds() -> None:
    """The strong AI's sampler numbers cards 0..23 (strong.card_id); the research side
    must turn them into the deck's cards, each of the 24 twice, the melds shown held."""
    state = _mid_hand("pinochle", 7, 9)  # 4 bids, the trump, 4 cards played
    game = state.episode.game
    seat = state.current_player()
    view = game.view_for(seat)
    assert view.melds  # the melds are shown
    hands, pool = games.get("pinochle").research.sample(view, random.Random(1))
    assert pool == []
    everything = Counter(c for hand in hands for c in hand) + Counter(view.played)
    assert everything == Counter(PINOCHLE_DECK)
    for other in range(4):
        assert len(hands[other]) == len(game.view_for(other).hand)
        shown = Counter(view.melds[other][1])
        played = Counter(
            c for trick in (*view.tricks, view.current_trick) for s, c in trick if s == other
        )
        assert shown - played <= Counter(hands[other])


def test_pinochle_resamples_replay_without_falling_back() -> None:
    """Seeded mid-hand states of every stage (bidding, after the melds, late tricks),
    each seat to act in turn: every draw replays, none is the real state handed back."""
    before = sampling.FALLBACKS[0]
    varied = 0
    for seed in range(36):
        state = _mid_hand("pinochle", seed, 3 + seed * 47 // 35)
        varied += len(_resampled_alike(state, 2)) > 1
    assert sampling.FALLBACKS[0] == before
    assert varied > 20  # the draws are not the real deal each time


@pytest.mark.parametrize("game", [g for g in games.names() if g != "pinochle"])
def test_every_other_game_resamples_without_falling_back(game: str) -> None:
    before = sampling.FALLBACKS[0]
    for seed in range(6):
        _resampled_alike(_mid_hand(game, seed, 2 + seed * 9), 2)
    assert sampling.FALLBACKS[0] == before


def test_no_draw_replaying_raises_and_never_hands_back_the_real_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _mid_hand("pinochle", 3, 20)
    seat = state.current_player()
    monkeypatch.setattr(sampling, "_renamed", lambda *args: None)
    before = sampling.FALLBACKS[0]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    with pytest.raises(
        sampling.ResampleError,
        match=rf"no deal drawn in 100 tries replays to what seat {seat} was told "
        rf"\(pinochle, after \d+ steps\)",
    ):
        state.resample_from_infostate(seat, sampler)
    assert sampling.FALLBACKS[0] == before + 1
