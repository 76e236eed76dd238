"""One seat of a game as a Gymnasium environment, the others the built-in AI
(hundred_server/research/single.py). Skipped when the research extra is not installed."""

from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from hundred_server import games  # noqa: E402
from hundred_server.research import gym_env  # noqa: E402


@pytest.mark.parametrize("game", games.names())
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasiums_checker(game: str) -> None:
    check_env(gym_env(game, hands=1), skip_render_check=True)


def test_the_ai_seats_play_before_the_learner_is_asked() -> None:
    """Whist, learner at seat 0 (the dealer): seat 1 leads, then 2 and 3, all AI."""
    env = gym_env("whist", seat=0)
    obs, info = env.reset(seed=7)
    lay = env.episode.layout
    seen = obs["observation"]
    for relative in (1, 2, 3):
        block = seen[lay.own_size + relative * lay.seat_size :][: lay.seat_size]
        assert block[slice(*lay.seat["trick"])].sum() == 1
    assert (info["action_mask"] == obs["action_mask"]).all()
    assert obs["action_mask"].sum() >= 1


@pytest.mark.parametrize("opponents", ["naive", "strong"])
def test_a_hand_against_the_ai_ends_with_the_learners_reward(opponents: str) -> None:
    env = gym_env("spades", opponents=opponents, hands=1, budget=0.002)
    obs, _ = env.reset(seed=3)
    total, done, steps = 0.0, False, 0
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, done, truncated, _ = env.step(action)
        total += reward
        steps += 1
        assert not truncated
    assert steps == 14  # a bid and thirteen cards
    assert total in (-1.0, 0.0, 1.0)
    assert env.episode.over


def test_an_illegal_action_ends_the_episode() -> None:
    env = gym_env("whist")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal_move"]) == (-1.0, True, illegal)
