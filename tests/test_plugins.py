"""Plug-in bots (bots/plugins.py, ``serve --bot GAME=module:Class``): loading them,
refusing what cannot be loaded, and a deliberately broken plug-in at a Whist table that
still finishes its game."""

from __future__ import annotations

import logging
import random
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from hundred_server.bots.plugins import PluginError, load_plugin
from hundred_server.cli import main
from hundred_server.games.base import Bot
from tests.hub_harness import Harness, answer_from_legal

GOOD = """
    class Player:
        '''Plays the lowest card it may (it follows suit when it must).'''

        def PlayCard(self, hand, trick, trump, position, tricks, score):
            if trick:
                same = [c for c in hand if c.suit == trick[0].suit]
                if same:
                    return min(same, key=lambda c: c.rank)
            return min(hand, key=lambda c: c.rank)
"""
BROKEN = """
    class Player:
        def __init__(self):
            self.turns = 0

        def PlayCard(self, hand, trick, trump, position, tricks, score):
            self.turns += 1
            if self.turns % 3 == 0:
                raise RuntimeError("my strategy has a bug")
            if self.turns % 3 == 1:
                return "AS"  # a string, not a Card
            return hand[-1]  # may not follow suit
"""


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "good_player.py").write_text(textwrap.dedent(GOOD))
    (tmp_path / "broken_player.py").write_text(textwrap.dedent(BROKEN))
    (tmp_path / "crashes_on_import.py").write_text("raise SystemError('no')\n")
    (tmp_path / "cannot_start.py").write_text(
        "class Player:\n    def __init__(self):\n        raise ValueError('nope')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("whist", "a plug-in is GAME=module:Class, as in GAME=mybot:Player, not 'whist'"),
        ("whist=good_player", "a plug-in is GAME=module:Class"),
        (
            "chess=good_player:Player",
            "no such game 'chess' (games: hundredandten, whist, pinochle, rook, hundert)",
        ),
        ("hundredandten=good_player:Player", "Hundred and Ten takes no plug-in bots"),
        ("whist=no_such_module:Player", "cannot import 'no_such_module'"),
        ("whist=crashes_on_import:Player", "cannot import 'crashes_on_import': no"),
        ("whist=good_player:Nobody", "'good_player' has no class 'Nobody'"),
        ("whist=cannot_start:Player", "cannot_start:Player() fails: ValueError('nope')"),
    ],
)
def test_what_cannot_be_loaded_is_refused_with_why(plugins: Path, text: str, message: str) -> None:
    with pytest.raises(PluginError) as caught:
        load_plugin(text)
    assert message in caught.value.message


def test_serve_refuses_a_bad_plugin_before_listening(
    plugins: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--memory", "--port", "0", "--bot", "whist=good_player:Nobody"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "hundred-server serve: --bot whist=good_player:Nobody: 'good_player' has no class "
        "'Nobody'\n"
    )


def play_whist(hub_bots: dict[str, Callable[[], Bot]], seed: str) -> tuple[Harness, list[str]]:
    h = Harness(seed)
    h.hub.bots = dict(hub_bots)
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create", "Game": "whist"})
    ann.send({"Type": "Game", "Option": 1})
    rng = random.Random(5)
    for _ in range(3000):
        if ann.game_over() is not None:
            break
        prompt = ann.pending()
        assert prompt is not None
        ann.send(answer_from_legal(prompt, rng))
    assert ann.game_over() is not None
    assert h.hub.tables == {}
    played = [m["PlayedCard"] for m in ann.messages if m["Type"] == "Play" and "PlayedCard" in m]
    return h, played


def test_a_good_plugin_plays_the_ai_seats(plugins: Path) -> None:
    game, factory = load_plugin("whist=good_player:Player")
    assert game == "whist"
    _, with_plugin = play_whist({"whist": factory}, "plug")
    _, without = play_whist({}, "plug")
    assert with_plugin != without  # the AI seats played differently: the plug-in did


def test_a_broken_plugin_gets_the_default_move_and_a_warning(
    plugins: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _, factory = load_plugin("whist=broken_player:Player")
    with caplog.at_level(logging.WARNING, logger="hundred_server"):
        play_whist({"whist": factory}, "broken")
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(
        "PlayCard raised RuntimeError" in w and "my strategy has a bug" in w for w in warnings
    )
    assert any("returned 'AS', which is not a Card" in w for w in warnings)
    assert all(w.startswith("whist plug-in Player, seat ") for w in warnings)
