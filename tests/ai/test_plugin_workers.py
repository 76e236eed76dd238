"""Plug-in workers through the synchronous client (bots/plugins.py ``PluginBot``, which
self-play and tournaments use): every move runs in a worker process within its limits,
hostile plug-ins forfeit with the reason, and whole games of every game are played by
the general ``act(view)`` shape. Every wait is bounded by the limits; every worker is
reaped (the ``plugin_dir`` fixture checks)."""

from __future__ import annotations

import logging
import pickle
from pathlib import Path

import pytest

from hundred_server import games
from hundred_server.ai.plugins import BotLimits, PluginBot, load_plugin
from hundred_server.ai.selfplay import play_game
from hundred_server.core.remote import STRIKES, Forfeits
from hundred_server.games.base import player_names

QUICK = BotLimits(timeout=0.3)


def whist_view(seed: str = "w", plays: int = 5) -> object:
    """A Whist view some plays into the first hand (seat to act)."""
    spec = games.get("whist")
    game = spec.new_game(player_names(4), seed)
    game.deal(spec.seeded_deck(seed, 0))
    for _ in range(plays):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
    seat = game.to_act
    assert seat is not None
    return spec.view(game, seat)


@pytest.mark.parametrize("name", games.names())
def test_every_games_views_pickle_to_equal_views(name: str) -> None:
    spec = games.get(name)
    game = spec.new_game(player_names(spec.seat_counts[0]), "pickle")
    bots = [spec.bot()] * spec.seat_counts[0]
    for _ in range(40):
        game.deal(spec.seeded_deck("pickle", game.round_index)) if game.needs_deal else None
        seat = game.to_act
        assert seat is not None
        view = spec.view(game, seat)
        again = pickle.loads(pickle.dumps(view))
        assert tuple(again.legal) == tuple(view.legal)
        assert again.hand == view.hand
        game.apply(seat, bots[seat].act(view))


@pytest.mark.parametrize("name", games.names())
def test_the_general_act_shape_plays_whole_games_of_every_game(name: str, plugin_dir: Path) -> None:
    spec = games.get(name)
    seats = spec.seat_counts[0]
    plugin = load_plugin(f"{name}=random_act:Player")
    forfeits = Forfeits()
    bots = [PluginBot(plugin, forfeits=forfeits) for _ in range(seats)]
    try:
        game = play_game(seats, f"act-{name}", bots, name)
    finally:
        for bot in bots:
            bot.close()
    assert game.is_over
    assert game.winner is not None
    assert forfeits == Forfeits()  # every move was its own


def test_a_good_playcard_plugin_plays_its_own_moves(plugin_dir: Path) -> None:
    view = whist_view()
    with PluginBot(load_plugin("whist=good_player:Player"), QUICK) as bot:
        move = bot.act(view)
        assert move in view.legal  # type: ignore[attr-defined]
        assert move == min(view.legal, key=lambda play: play.card.rank)  # type: ignore[attr-defined]
        assert bot.forfeits == 0


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("sleeper", "it took longer than 0.3 s"),
        ("looper", "it took longer than 0.3 s"),
        ("hog", "PlayCard ran out of memory (the limit is 64 MiB)"),
        ("raiser", "PlayCard raised RuntimeError: 'my strategy has a bug'"),
        ("exiter", "PlayCard called sys.exit(3)"),
        ("killer", "its worker exited with status 7"),
        ("strings", "PlayCard returned '"),
        ("outsider", "which is not in its hand"),
    ],
)
def test_a_hostile_plugin_forfeits_with_the_reason_and_the_default_ai_plays(
    name: str, why: str, plugin_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    view = whist_view()
    spec = games.get("whist")
    limits = BotLimits(timeout=0.3, memory=64 << 20)
    with (
        caplog.at_level(logging.WARNING, logger="hundred_server"),
        PluginBot(load_plugin(f"whist={name}:Player", limits), limits) as bot,
    ):
        move = bot.act(view)
        assert move == spec.bot().act(view)  # the default AI's move
        assert bot.forfeits == 1
        assert why in bot.faults[0][0]
        # It is asked again next time (a new worker if the last one died or hung).
        bot.act(view)
        assert bot.forfeits == 2
    (first, *_) = [r.getMessage() for r in caplog.records]
    assert first.startswith(f"self-play: plug-in whist={name}:Player forfeits its move: ")
    assert why in first
    assert first.endswith("; the default AI plays it")


def test_a_plugin_that_forfeits_every_move_is_benched_after_strikes(plugin_dir: Path) -> None:
    view = whist_view()
    with PluginBot(load_plugin("whist=killer:Player"), QUICK) as bot:
        for _ in range(STRIKES + 5):
            bot.act(view)
        assert bot.seat.benched
        assert bot.forfeits == STRIKES + 5  # benched moves are forfeits too
        assert len(bot.faults) == STRIKES  # ...but it was asked only until benched


def test_a_slow_move_then_a_good_one_is_not_benched(plugin_dir: Path) -> None:
    slow, quick = whist_view(plays=5), whist_view(plays=6)  # 1 card on the trick, and 2
    with PluginBot(load_plugin("whist=sometimes_slow:Player"), QUICK) as bot:
        for view in (slow, quick, slow, quick):
            bot.act(view)
        assert bot.forfeits == 2
        assert not bot.seat.benched
        assert [kind for _, kind in bot.faults] == ["timeout", "timeout"]


def test_what_a_plugin_prints_never_reaches_the_protocol(plugin_dir: Path) -> None:
    view = whist_view()
    with PluginBot(load_plugin("whist=printer:Player"), QUICK) as bot:
        assert bot.act(view) in view.legal  # type: ignore[attr-defined]
        assert bot.forfeits == 0
