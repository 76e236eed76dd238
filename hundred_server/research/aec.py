"""Every game as a PettingZoo AEC environment: ``pettingzoo_env(game, **options)``.

Agents ``player_0``.. are the seats. ``observation_space(agent)`` is a Dict of
``observation`` (float32, layout.py ``OWN`` and ``SEAT``) and ``action_mask`` (int8, one a
numbered action); one Discrete action space covers every decision (layout.py). The
environment deals every hand itself from its seed (``reset(seed=...)``), as a table
deals from its seed. docs/research.md has the options and the layouts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv

from hundred_server import games
from hundred_server.research.episode import Episode
from hundred_server.research.text import table_text

ILLEGAL: Final = ("end", "legal")
#: The action of a seat that is not to act, with ``waits`` (the last number).
WAIT_NAME: Final = "wait"


@dataclass(frozen=True)
class Options:
    """``HundredEnv``'s options (its docstring says what each does)."""

    hands: int = 0
    reward: str = "win"
    max_cycles: int | None = None
    illegal: str = "end"
    waits: bool = False
    flags: frozenset[str] = frozenset()


class HundredEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """One game of ``game`` (a registry name) at ``players`` seats (its usual size by
    default), as an AEC environment.

    Options: ``hands`` (0: the whole game; else the episode ends after that many hands),
    ``reward`` (``"win"`` or ``"points"``: episode.py), ``max_cycles`` (None: no cap;
    else truncated once the seat to act has had that many turns), ``illegal``
    (``"end"``: an action outside the mask ends the episode, -1 to its seat, as
    PettingZoo's classic games do; ``"legal"``: it is taken as the first legal action at
    or above it, cyclically), ``waits`` (False: only the seat to act is asked; True:
    every seat in turn, seat order, those not to act answering ``wait``, the last action:
    a cycle is a round of the table), ``flags`` (the game's table options),
    ``render_mode`` (``"ansi"``: the text mode's table as the seat to act sees it).
    """

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        spec = games.get(game)
        opts = Options(**options)
        if opts.illegal not in ILLEGAL:
            raise ValueError(f"illegal is one of {', '.join(ILLEGAL)}, not {opts.illegal!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        n = (
            players
            if players is not None
            else (4 if 4 in spec.seat_counts else spec.seat_counts[0])
        )
        self.spec = spec
        self.options = {"hands": opts.hands, "reward": opts.reward, "flags": opts.flags}
        self.episode = Episode(spec, n, **self.options)  # type: ignore[arg-type]
        self.layout = self.episode.layout
        self.max_cycles, self.illegal, self.waits = opts.max_cycles, opts.illegal, opts.waits
        waits = opts.waits
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": ["ansi"],
            "is_parallelizable": False,
            "name": f"hundred_{game}_v0",
        }
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        size, actions = self.layout.size, self.layout.num_actions + (1 if waits else 0)
        self.wait = self.layout.num_actions
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.mask_size = actions
        self.np_random, _ = seeding.np_random(None)
        self.turns = [0] * n
        self.asked = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the API

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or not hasattr(self, "_seeded"):
            self.np_random, _ = seeding.np_random(seed)
            self._seeded = True
        seed_text = f"{int(self.np_random.integers(2**62))}"
        self.episode = Episode(self.spec, len(self.possible_agents), seed=seed_text, **self.options)  # type: ignore[arg-type]
        self.episode.deal(self.episode.deck())
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.turns = [0] * len(self.agents)
        self.asked = 0
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        if self.waits:
            agent = self.possible_agents[self.asked % len(self.possible_agents)]
            self.asked += 1
            return agent
        seat = self.episode.to_act
        return self.possible_agents[seat if seat is not None else 0]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.agent_seat[agent]
        episode = self.episode
        to_act = episode.to_act
        if seat == to_act:
            # First: the legal actions begin a decision in steps, which the seat sees.
            mask = episode.mask(self.mask_size)
        else:
            mask = np.zeros(self.mask_size, np.int8)
            if self.waits and to_act is not None:
                mask[self.wait] = 1
        return {"observation": episode.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_seat[agent]
        episode = self.episode
        self._cumulative_rewards[agent] = 0.0
        self.turns[seat] += 1
        if seat == episode.to_act:
            legal = episode.legal()
            if action not in legal:
                if self.illegal == "end":
                    self._illegal(agent, action)
                    return
                action = next((a for a in legal if a >= int(action or 0)), legal[0])
            episode.take(seat, int(action))  # found in legal just now
            if episode.game.to_act is None:  # a hand ended: deal the next, unless it is over
                while episode.needs_deal:
                    episode.deal(episode.deck())
            # As the seats' order: agent i is seat i.
            self.rewards = dict(zip(self.agents, episode.rewards, strict=False))
        elif action != self.wait and self.illegal == "end":
            self._illegal(agent, action)
            return
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        if episode.over:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._next_agent()
        if (
            self.max_cycles is not None
            and not episode.over
            and self.turns[self.agent_seat[self.agent_selection]] >= self.max_cycles
        ):
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def _illegal(self, agent: str, action: object) -> None:
        self.rewards = {a: (-1.0 if a == agent else 0.0) for a in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {"illegal_move": action}
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.episode.to_act
        return table_text(self.episode, 0 if seat is None else seat)

    def close(self) -> None:
        pass


class HundredParallelEnv(ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """The AEC environment with ``waits``, one round of the table a step: every live
    agent gives an action, the seat to act's is taken, the others' are ``wait``."""

    def __init__(self, game: str, players: int | None = None, **options: Any) -> None:
        self.aec = HundredEnv(game, players, waits=True, **options)
        self.possible_agents = self.aec.possible_agents
        self.metadata = self.aec.metadata
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.aec.reset(seed, options)
        self.agents = self.aec.agents[:]
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        aec = self.aec
        rewards = dict.fromkeys(self.agents, 0.0)
        for _ in self.agents:
            agent = aec.agent_selection
            aec.step(actions.get(agent))
            for a in self.agents:
                rewards[a] += aec.rewards.get(a, 0.0)
            if any(aec.terminations.values()) or any(aec.truncations.values()):
                break
        terminations = {a: aec.terminations[a] for a in self.agents}
        truncations = {a: aec.truncations[a] for a in self.agents}
        observations = {a: aec.observe(a) for a in self.agents}
        infos = {a: aec.infos[a] for a in self.agents}
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        pass


def pettingzoo_env(game: str, **options: Any) -> HundredEnv:
    """``game`` (a registry name: ``hundred_server.games.names()``) as a PettingZoo AEC
    environment; the options are ``HundredEnv``'s."""
    return HundredEnv(game, **options)


def parallel_env(game: str, **options: Any) -> HundredParallelEnv:
    """``game`` as a PettingZoo parallel environment: a step is one round of the table
    (``HundredEnv`` with ``waits``); the options are ``HundredEnv``'s."""
    return HundredParallelEnv(game, **options)
