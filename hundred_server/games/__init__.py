"""The games: pure rules engines (no I/O) and the registry of their specs.

Every game registers one ``GameSpec`` (games/base.py, games/README.md) here, by name;
the rest of the server finds games only through ``get``, ``spec_of`` and ``names``.
Adding a game is its module(s) under games/ plus one line in ``_REGISTRY``.
"""

from __future__ import annotations

import importlib
from typing import Final

from hundred_server.games.base import GameSpec, GameState

#: name -> the module whose ``SPEC`` describes the game.
_REGISTRY: Final = {
    "hundredandten": "hundred_server.games.hundredandten.wire",
    "whist": "hundred_server.games.whist.wire",
    "pinochle": "hundred_server.games.pinochle.wire",
    "rook": "hundred_server.games.rook.wire",
    "hundert": "hundred_server.games.hundert.wire",
    "spades": "hundred_server.games.spades.wire",
}
DEFAULT_GAME: Final = "hundredandten"


def names() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def get(name: str) -> GameSpec:
    """The spec of game ``name``; ``KeyError`` if there is none."""
    module = importlib.import_module(_REGISTRY[name])
    spec: GameSpec = module.SPEC
    return spec


def spec_of(game: GameState) -> GameSpec:
    """The spec of a game in progress."""
    return get(game.game_name)
