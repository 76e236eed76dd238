"""Research environments: every game as a PettingZoo AEC environment, an OpenSpiel game
and a Gymnasium single-agent environment (docs/research.md). Needs the ``research``
extra (``pip install hundred-server[research]``); the modules import it when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hundred_server.research.aec import HundredEnv, HundredParallelEnv
    from hundred_server.research.openspiel import HundredGame
    from hundred_server.research.single import HundredGymEnv


def pettingzoo_env(game: str, **options: Any) -> HundredEnv:
    """``game`` as a PettingZoo AEC environment (research/aec.py ``HundredEnv``)."""
    from hundred_server.research.aec import pettingzoo_env as make

    return make(game, **options)


def parallel_env(game: str, **options: Any) -> HundredParallelEnv:
    """``game`` as a PettingZoo parallel environment, a round of the table a step."""
    from hundred_server.research.aec import parallel_env as make

    return make(game, **options)


def openspiel_game(game: str, **params: Any) -> HundredGame:
    """``game`` as an OpenSpiel game (research/openspiel.py; importing it registers
    every game with pyspiel as ``python_hundred_<game>``)."""
    from hundred_server.research.openspiel import openspiel_game as make

    return make(game, **params)


def gym_env(game: str, **options: Any) -> HundredGymEnv:
    """One seat of ``game`` as a Gymnasium environment, the others the built-in AI."""
    from hundred_server.research.single import gym_env as make

    return make(game, **options)
