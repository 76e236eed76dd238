"""Plug-in bots: a class of your own, loaded by module path, plays a game's AI seats.

``hundred-server serve --bot whist=mybots.player:Player`` imports ``mybots.player``,
makes a ``Player()`` for each AI seat of every Whist table, and the game's spec adapts
it (``GameSpec.plugin``: for Whist, the seed assignment's ``PlayCard`` method). A
plug-in that raises, or answers with something that is not a legal move, gets the
default bot's move for that turn and a logged warning: a table never waits on it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from hundred_server import games
from hundred_server.errors import HundredError
from hundred_server.games.base import Bot


class PluginError(HundredError):
    code = "bad_plugin"


def load_plugin(text: str) -> tuple[str, Callable[[], Bot]]:
    """``GAME=module.path:Class`` -> (game name, a factory of bots for its AI seats).

    Raises ``PluginError`` with a message that says what is wrong."""
    game, sep, target = text.partition("=")
    module_name, colon, class_name = target.partition(":")
    if not sep or not colon or not module_name or not class_name:
        raise PluginError(f"a plug-in is GAME=module:Class, as in GAME=mybot:Player, not {text!r}")
    game = game.strip().lower()
    if game not in games.names():
        raise PluginError(f"no such game {game!r} (games: {', '.join(games.names())})")
    spec = games.get(game)
    adapt = spec.plugin
    if adapt is None:
        raise PluginError(f"{spec.title} takes no plug-in bots")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # ImportError, or whatever the module raises on import
        raise PluginError(f"cannot import {module_name!r}: {exc}") from None
    cls = getattr(module, class_name, None)
    if not callable(cls):
        raise PluginError(f"{module_name!r} has no class {class_name!r}")
    try:
        cls()
    except Exception as exc:
        raise PluginError(f"{module_name}:{class_name}() fails: {exc!r}") from None

    def factory() -> Bot:
        return adapt(cls(), spec.bot())

    return game, factory
