"""Every game as an OpenSpiel Python game, registered with pyspiel under
``python_hundred_<game>`` when this module is imported:
``pyspiel.load_game("python_hundred_whist")``.

Chance deals each hand card by card (an outcome is a card's number, layout.py, with the
probability of the copies left); the players' actions are the numbered actions of
layout.py. Parameters: ``players`` (the game's usual table size by default), ``hands``
(the hands a game lasts, 1 by default, as OpenSpiel's bridge is one deal; the game ends
sooner if the real game does) and ``reward`` (``"win"``, zero-sum, or ``"points"``).
The information state string is every message the game told the seat (its wire
``tell``), so two states share it exactly when the seat was told the same; the tensors
are the seat's observation vector (layout.py). ``resample_from_infostate`` draws the
hidden cards with the game's strong AI sampler (sampling.py).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Final

import numpy as np
import pyspiel

from hundred_server import games
from hundred_server.research.episode import Episode
from hundred_server.research.layout import Layout
from hundred_server.research.text import table_text

PREFIX: Final = "python_hundred_"
TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
CHANCE: Final = int(pyspiel.PlayerId.CHANCE)


def _default_players(game: str) -> int:
    counts = games.get(game).seat_counts
    return 4 if 4 in counts else counts[0]


def _game_type(game: str) -> Any:
    spec = games.get(game)
    return pyspiel.GameType(
        short_name=PREFIX + game,
        long_name=f"Python {spec.title} (hundred_server)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.seat_counts),
        min_num_players=min(spec.seat_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": _default_players(game),
            "hands": 1,
            "reward": "win",
        },
    )


class HundredGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games as an OpenSpiel game (see the module docstring)."""

    def __init__(self, game: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", _default_players(game)))
        hands = int(params.get("hands", 1))
        reward = str(params.get("reward", "win"))
        if hands < 1:
            raise ValueError(f"hands is 1 or more in OpenSpiel (a bounded game), not {hands}")
        spec = games.get(game)
        lay = Layout(spec, players)
        deck = len(spec.seeded_deck("", 0))
        # A hand: the deal, then at most every action once a seat and a card a step
        # (a loose bound: OpenSpiel asks for one).
        longest = hands * (deck + players * lay.num_actions + deck * 3)
        scale = lay.research.scale
        win = reward == "win"
        info = pyspiel.GameInfo(
            num_distinct_actions=lay.num_actions,
            max_chance_outcomes=lay.num_cards,
            num_players=players,
            min_utility=-(players - 1.0) if win else -10.0 * scale * hands,
            max_utility=1.0 if win else 10.0 * scale * hands,
            utility_sum=0.0 if win else None,
            max_game_length=longest,
        )
        game_type = _game_type(game)
        if not win:
            game_type = _general_sum(game_type)
        super().__init__(game_type, info, {"players": players, "hands": hands, "reward": reward})
        self.name, self.spec, self.layout = game, spec, lay
        self.players, self.hands, self.reward = players, hands, reward
        self.deck_size = deck
        copies = Counter(lay.card_index[c] for c in spec.seeded_deck("", 0))
        #: How many copies of each card the deck holds, by card number.
        self.full_deck = [copies[i] for i in range(lay.num_cards)]

    def new_initial_state(self) -> HundredState:
        return HundredState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        perfect = iig_obs_type is None or iig_obs_type.perfect_recall
        return Observer(self, perfect)


def _general_sum(game_type: Any) -> Any:
    return pyspiel.GameType(
        short_name=game_type.short_name,
        long_name=game_type.long_name,
        dynamics=game_type.dynamics,
        chance_mode=game_type.chance_mode,
        information=game_type.information,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=game_type.reward_model,
        max_num_players=game_type.max_num_players,
        min_num_players=game_type.min_num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=game_type.parameter_specification,
    )


#: One game object a (name, players, hands, reward): a state's ``hgame``.
_GAMES: dict[tuple[str, int, int, str], HundredGame] = {}


class HundredState(pyspiel.State):  # type: ignore[misc]
    """A state: the episode, the hand being dealt, and what each seat was told."""

    @property
    def hgame(self) -> HundredGame:
        game = _GAMES.get(self.key)
        if game is None:
            name, players, hands, reward = self.key
            game = _GAMES[self.key] = HundredGame(
                name, {"players": players, "hands": hands, "reward": reward}
            )
        return game

    def __init__(self, game: HundredGame) -> None:
        super().__init__(game)
        self.key = (game.name, game.players, game.hands, game.reward)
        _GAMES.setdefault(self.key, game)
        self.episode = Episode(
            game.spec, game.players, hands=game.hands, reward=game.reward, seed=""
        )
        self.dealing: list[int] = []
        #: How many copies of each card are left to deal, by card number.
        self.left = list(game.full_deck)
        #: Per step, what it told: the engine's events, or a seat's own step in a
        #: decision under way (("step", seat, action)).
        self.log: list[Any] = []
        self.told: tuple[tuple[str, ...], ...] = tuple(() for _ in range(game.players))
        self.told_upto = 0
        #: Where the hand under way starts in ``history()``.
        self.hand_from = 0
        self.returns_ = [0.0] * game.players
        self.player = CHANCE

    # ------------------------------------------------------------------ the API

    def current_player(self) -> int:
        return self.player

    def _whose_turn(self) -> int:
        episode = self.episode
        if episode.over:
            return TERMINAL
        if episode.needs_deal:
            return CHANCE
        seat = episode.to_act
        assert seat is not None
        return int(seat)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.episode.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self.left
        total = self.hgame.deck_size - len(self.dealing)
        return [(card, count / total) for card, count in enumerate(left) if count]

    def _apply_action(self, action: int) -> None:
        episode = self.episode
        if episode.needs_deal:
            if not self.dealing:
                self.hand_from = len(self.history())
            if not self.left[action]:
                raise ValueError(f"no card {action} is left to deal")
            self.dealing.append(action)
            self.left[action] -= 1
            if len(self.dealing) == self.hgame.deck_size:
                cards = self.hgame.layout.research.cards
                events = episode.deal([cards[i] for i in self.dealing])
                self.log.append(events)
                self.dealing = []
                self.left = list(self.hgame.full_deck)
                self.player = self._whose_turn()
            return
        seat = episode.to_act
        in_steps = episode.composite is not None or action >= self.hgame.layout.pick0
        events = episode.step(action)
        if in_steps and not events:
            self.log.append(("step", seat, action))
        else:
            self.log.append(events)
        if episode.over:
            self.returns_ = list(episode.total_rewards)
        self.player = self._whose_turn()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {self.hgame.layout.research.cards[action].code}"
        return self.hgame.layout.describe(action)

    def is_terminal(self) -> bool:
        return bool(self.episode.over)

    def returns(self) -> list[float]:
        return self.returns_

    def __str__(self) -> str:
        return " ".join(str(a) for a in self.history())

    # ------------------------------------------------------------ what a seat knows

    def told_to(self, seat: int) -> str:
        """Every message the game told ``seat`` so far, and its own steps."""
        if self.told_upto < len(self.log):
            spec, game = self.hgame.spec, self.episode.game
            seats = list(range(self.hgame.players))
            told = [list(t) for t in self.told]
            for entry in self.log[self.told_upto :]:
                if isinstance(entry, tuple):
                    told[entry[1]].append(f"step {entry[2]}")
                    continue
                said = spec.wire.tell(entry, seats, game.players)
                for s in seats:
                    for message in said.get(s, ()):
                        told[s].append(json.dumps(message, sort_keys=True))
            self.told = tuple(tuple(t) for t in told)
            self.told_upto = len(self.log)
        return f"p{seat}\n" + "\n".join(self.told[seat])

    def observation_text(self, seat: int) -> str:
        if not self.log:
            return f"p{seat} waiting for the deal"
        return f"p{seat}\n" + table_text(self.episode, seat)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HundredState:
        from hundred_server.research.sampling import resample

        return resample(self, player_id, probability_sampler)


class Observer:
    """pyspiel's Python observer: ``tensor`` (the seat's observation vector, layout.py)
    and the strings (the information state: every message the seat was told; the
    observation: the text mode's table)."""

    def __init__(self, game: HundredGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HundredState, player: int) -> None:
        self.tensor[:] = state.episode.observe(player)

    def string_from(self, state: HundredState, player: int) -> str:
        if self.perfect_recall:
            return state.told_to(player)
        return state.observation_text(player)


def openspiel_game(game: str, **params: Any) -> HundredGame:
    """``game`` (a registry name) as an OpenSpiel game (the module docstring)."""
    return HundredGame(game, params)


def _register() -> None:
    # A class a game, not a closure: pyspiel keeps its factories past the interpreter's
    # end, and a class (in a reference cycle of its own) is never freed then, where a
    # function would be freed without the GIL (a crash at exit).
    for name in games.names():
        if games.get(name).research is None:
            continue

        def init(self: HundredGame, params: dict[str, Any] | None = None) -> None:
            HundredGame.__init__(self, type(self).GAME, params)

        title = f"HundredGame_{name}"
        made = type(title, (HundredGame,), {"GAME": name, "__module__": __name__})
        made.__init__ = init  # type: ignore[misc]
        REGISTERED[name] = globals()[title] = made
        pyspiel.register_game(_game_type(name), made)


#: The registered game classes by game name.
REGISTERED: dict[str, type[HundredGame]] = {}


_register()
