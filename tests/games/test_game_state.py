"""The game interface's twelve members, and what base.py derives from them: every
engine's own idea of being over, waiting for a deal and its round agrees with the
derived one at every step of random games, in every game and at every table size."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hundred_server import games
from hundred_server.games.base import GameState, is_over, needs_deal, player_names, round_number

MEMBERS = {
    "game_name",
    "players",
    "flags",
    "to_act",
    "winner",
    "scores",
    "round_index",
    "history",
    "deal",
    "legal_actions",
    "apply",
    "view_for",
}


def test_the_interface_has_twelve_members() -> None:
    members = {name for name in vars(GameState) if not name.startswith("_")}
    assert members == MEMBERS


@pytest.mark.parametrize(
    ("name", "seats"),
    [(name, seats) for name in games.names() for seats in games.get(name).seat_counts],
)
def test_the_derived_members_agree_with_each_engine(name: str, seats: int) -> None:
    spec = games.get(name)
    ended = 0
    for game_number in range(3):  # the naive bot's game, to its end; two random ones
        seed = f"derived-{game_number}"
        rng = random.Random(seed)
        bot = spec.bot() if game_number == 0 else None
        game = spec.new_game(player_names(seats), seed)
        while game.round_index < 60:
            engine: Any = game  # the engine's own members, outside the interface
            assert is_over(game) is engine.is_over
            assert needs_deal(game) is engine.needs_deal
            assert round_number(game) == engine.round
            if is_over(game):
                ended += 1
                break
            if needs_deal(game):
                game.deal(spec.seeded_deck(seed, game.round_index))
                continue
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            game.apply(seat, bot.act(game.view_for(seat)) if bot else rng.choice(legal))
    assert ended >= 1
