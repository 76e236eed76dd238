"""Every game as a PettingZoo AEC environment (hundred_server/research/aec.py): the
PettingZoo test suite, the observation layout and the action mapping as docs/research.md
gives them. Skipped when the research extra is not installed."""

from __future__ import annotations

import types
import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

# With pygame installed (make bench-research), pettingzoo.test imports a classic game
# through PettingZoo's deprecated creation API, which warns as it is imported.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, max_cycles_test, seed_test

from hundred_server import games  # noqa: E402
from hundred_server.research import parallel_env, pettingzoo_env  # noqa: E402
from hundred_server.research.layout import Layout  # noqa: E402

GAMES = games.names()

# PettingZoo's checks warn that a Dict observation is not a Box (its classic games'
# observations are Dicts too); the settings turn warnings into errors.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
]


def test_every_registered_game_has_an_environment() -> None:
    assert set(GAMES) == {"hundredandten", "whist", "pinochle", "rook", "hundert", "spades"}
    for game in GAMES:
        assert games.get(game).research is not None


@pytest.mark.parametrize("game", GAMES)
def test_api(game: str) -> None:
    api_test(pettingzoo_env(game), num_cycles=60)


@pytest.mark.parametrize("game", GAMES)
def test_seed(game: str) -> None:
    seed_test(lambda: pettingzoo_env(game, hands=1), num_cycles=60)


@pytest.mark.parametrize("game", GAMES)
def test_max_cycles(game: str) -> None:
    mod = types.SimpleNamespace(
        env=lambda max_cycles: pettingzoo_env(
            game, max_cycles=max_cycles, waits=True, illegal="legal"
        ),
        parallel_env=lambda max_cycles: parallel_env(game, max_cycles=max_cycles, illegal="legal"),
    )
    max_cycles_test(mod)


def test_a_play_shows_in_every_seats_trick_field_relative_to_the_observer() -> None:
    env = pettingzoo_env("whist")
    env.reset(seed=3)
    lay = env.layout
    seat = env.agent_seat[env.agent_selection]
    obs = env.observe(env.agent_selection)
    hand = obs["observation"][slice(*lay.own["hand"])]
    assert hand.sum() == 13
    card = int(np.flatnonzero(obs["action_mask"])[0])
    assert hand[card] == 1
    env.step(card)
    for observer in range(4):
        seen = env.observe(f"player_{observer}")["observation"]
        relative = (seat - observer) % 4
        block = seen[lay.own_size + relative * lay.seat_size :][: lay.seat_size]
        assert np.flatnonzero(block[slice(*lay.seat["trick"])]).tolist() == [card]
        assert seen[lay.own["seat"][0] + observer] == 1
        # the leader field: the relative seat that acted first this hand
        assert seen[lay.own["leader"][0] + relative] == 1
    after = env.observe(f"player_{seat}")["observation"][slice(*lay.own["hand"])]
    assert after.sum() == 12
    assert after[card] == 0


def test_the_action_numbers_of_a_game_in_steps() -> None:
    lay = Layout(games.get("rook"), 4)
    assert lay.num_cards == 45
    assert lay.num_choices == 27 + 4
    assert lay.describe(0) == "play B1"
    assert lay.describe(45) == "choice Bid(amount=0)"
    assert lay.describe(45 + 27) == "choice <Colour.BLACK: 'B'>"
    assert lay.describe(45 + 31) == "pick B1"
    assert lay.describe(45 + 31 + 45 + 44) == "call ROOK"
    assert lay.describe(lay.num_actions - 1) == "done"
    assert Layout(games.get("whist"), 4).num_actions == 52


def test_a_discard_is_taken_card_by_card() -> None:
    """Hundred and Ten: after the bidding and trump, each seat picks cards of its hand
    (its secret) then done; the engine gets one Discard and deals the refill."""
    env = pettingzoo_env("hundredandten", hands=1)
    env.reset(seed=5)
    episode, lay = env.episode, env.layout
    while not any(a >= lay.pick0 for a in episode.legal()):
        legal = episode.legal()  # the lowest bid (not the pass), then a trump
        env.step(legal[1] if len(legal) > 1 else legal[0])
    seat = episode.to_act
    legal = episode.legal()
    assert lay.done in legal
    assert len(legal) == 6
    first = legal[0]
    env.step(first)
    assert episode.to_act == seat
    assert first not in episode.legal()
    own = env.observe(f"player_{seat}")["observation"]
    assert own[lay.own["picking"][0] + first - lay.pick0] == 1
    assert own[lay.own["stage"][0] + 1] == 1  # picking
    env.step(lay.done)
    assert episode.to_act != seat
    mine = env.observe(f"player_{seat}")["observation"]
    assert mine[lay.own["discarded"][0] + first - lay.pick0] == 1
    assert mine[slice(*lay.own["hand"])].sum() == 5  # refilled
    other = env.observe(f"player_{episode.to_act}")["observation"]
    assert other[slice(*lay.own["discarded"])].sum() == 0


def test_an_illegal_action_ends_the_episode_against_its_seat() -> None:
    env = pettingzoo_env("spades")
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0
    assert sum(env.rewards.values()) == -1.0
    assert env.infos[agent] == {"illegal_move": illegal}


def test_win_rewards_are_zero_sum_and_go_to_the_winning_side() -> None:
    env = pettingzoo_env("spades", hands=1)
    env.reset(seed=2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(500):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert sum(totals.values()) == 0
    assert sorted(totals.values()) in ([-1, -1, 1, 1], [0, 0, 0, 0])
    assert totals["player_0"] == totals["player_2"]


def test_points_rewards_are_each_hands_points() -> None:
    env = pettingzoo_env("hundert", reward="points", hands=2)
    env.reset(seed=4)
    got = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(500):
        obs, reward, term, trunc, _ = env.last()
        got[agent] += reward
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.episode.hands_done == 2
    assert list(got.values()) == [float(s) for s in env.episode.game.scores]


def test_render_is_the_text_modes_table() -> None:
    env = pettingzoo_env("whist", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Your hand:" in text
    assert "Trump is" in text
    assert pettingzoo_env("whist").render() is None


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="reward is one of win, points, not 'score'"):
        pettingzoo_env("whist", reward="score")
    with pytest.raises(ValueError, match="Whist is played at 4 seats, not 3"):
        pettingzoo_env("whist", players=3)
    with pytest.raises(KeyError):
        pettingzoo_env("chess")
