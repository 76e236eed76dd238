"""One seat of a game as a Gymnasium environment, the other seats played by the game's
built-in AI (``naive`` or ``strong``): ``gym_env(game, seat=0, opponents="naive")``.

The observation and the action numbers are the PettingZoo environment's (layout.py);
``info["action_mask"]`` and the observation's ``action_mask`` give the legal ones.
An action outside the mask, as in the PettingZoo environment, ends the episode with -1
(``illegal="end"``, the default) or is taken as the first legal action at or above it
(``illegal="legal"``). The reward is the learner's (episode.py: ``"win"`` or
``"points"``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from hundred_server import games
from hundred_server.games.base import Bot
from hundred_server.research.episode import Episode
from hundred_server.research.text import table_text


class HundredGymEnv(gymnasium.Env[dict[str, Any], int]):
    """The learner at ``seat``; ``opponents`` names the built-in AI of the others
    (``"strong"`` takes ``budget``, seconds a decision); ``hands``, ``reward`` and
    ``players`` as in the PettingZoo environment."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium's own attribute)

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str = "naive",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.spec_of = games.get(game)
        if opponents not in self.spec_of.bots:
            raise ValueError(
                f"opponents is one of {', '.join(sorted(self.spec_of.bots))}, not {opponents!r}"
            )
        self.budget = options.pop("budget", None)
        self.illegal = options.pop("illegal", "end")
        if self.illegal not in ("end", "legal"):
            raise ValueError(f"illegal is one of end, legal, not {self.illegal!r}")
        self.players = int(
            options.pop(
                "players", 4 if 4 in self.spec_of.seat_counts else self.spec_of.seat_counts[0]
            )
        )
        if not 0 <= seat < self.players:
            raise ValueError(f"seat is 0 to {self.players - 1}, not {seat}")
        self.seat, self.opponents, self.options = seat, opponents, options
        self.render_mode = render_mode
        self.episode = Episode(self.spec_of, self.players, **options)
        lay = self.episode.layout
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (lay.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (lay.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(lay.num_actions)  # type: ignore[assignment]
        self.bots: dict[int, Bot] = {}

    def _bot(self, seat: int) -> Bot:
        factory = self.spec_of.bots[self.opponents]
        if self.opponents == "strong":
            return factory(f"{self.seed_text}|{seat}", budget=self.budget)
        try:
            return factory(f"{self.seed_text}|{seat}")
        except TypeError:
            return factory()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.seed_text = f"{int(self.np_random.integers(2**62))}"
        self.episode = Episode(self.spec_of, self.players, seed=self.seed_text, **self.options)
        self.bots = {s: self._bot(s) for s in range(self.players) if s != self.seat}
        self.gained = 0.0
        self._others()
        return self._observe(), {"action_mask": self._mask()}

    def _others(self) -> None:
        """Deal and let the AI seats act until the learner is to act or it is over."""
        episode = self.episode
        while not episode.over:
            if episode.needs_deal:
                episode.deal(episode.deck())
                continue
            seat = episode.to_act
            if seat == self.seat:
                return
            assert seat is not None
            bot = self.bots[seat]
            episode.act(bot.act(self.spec_of.view(episode.game, seat)))
            self.gained += episode.rewards[self.seat]

    def _mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        if self.episode.to_act == self.seat:
            return self.episode.mask()
        return np.zeros(self.episode.layout.num_actions, np.int8)

    def _observe(self) -> dict[str, Any]:
        return {"observation": self.episode.observe(self.seat), "action_mask": self._mask()}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        episode = self.episode
        self.gained = 0.0
        legal = episode.legal()
        if int(action) not in legal:
            if self.illegal == "end" or not legal:
                info = {"action_mask": self._mask(), "illegal_move": int(action)}
                episode.over = True
                return self._observe(), -1.0, True, False, info
            action = next((a for a in legal if a >= int(action)), legal[0])
        episode.step(int(action))
        self.gained += episode.rewards[self.seat]
        self._others()
        reward = self.gained
        return self._observe(), reward, episode.over, False, {"action_mask": self._mask()}

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return table_text(self.episode, self.seat)


def gym_env(game: str, **options: Any) -> HundredGymEnv:
    """``game`` as a Gymnasium environment of one seat (``HundredGymEnv``)."""
    return HundredGymEnv(game, **options)
