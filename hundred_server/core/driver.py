"""The one loop that feeds chance and bot moves to a game (no I/O).

Tables, self-play and the demo all move games on here, so a game is dealt and played
the same way wherever it runs: a round that is due is dealt the deck
``spec.seeded_deck(seed, round_index)`` (chance is an input), and a seat whose
``bots[seat]`` is a bot has its move played. ``step`` does one of those and returns its
events (None: nothing to do, a person must act or the game is over); ``advance`` steps
until then and returns every event, the first deal's included.

A game comes from ``spec.new_game(players, seed)`` waiting for its first deal; the
``seed`` it is given goes only into its record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hundred_server.games.base import Bot, GameSpec, GameState, needs_deal


def step(
    game: GameState, spec: GameSpec, seed: str, bots: Sequence[Bot | None]
) -> list[Any] | None:
    """Deal the round that is due, or play the move of the bot to act; None if neither
    (a person is to act, or the game is over)."""
    if needs_deal(game):
        return game.deal(spec.seeded_deck(seed, game.round_index))
    seat = game.to_act
    if seat is None:
        return None
    bot = bots[seat]
    if bot is None:
        return None
    return game.apply(seat, bot.act(spec.view(game, seat)))


def advance(game: GameState, spec: GameSpec, seed: str, bots: Sequence[Bot | None]) -> list[Any]:
    """Step until a person must act or the game is over; every event, in order."""
    events: list[Any] = []
    while (more := step(game, spec, seed, bots)) is not None:
        events += more
    return events
