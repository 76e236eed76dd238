"""What each game's own tests once wrote out for themselves, the same but for the game's
values, written once here and given every game's: its players, its AIs, its quick
settings and what it is expected to do. What is a game's own stays in its own files."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from hundred_server import games
from hundred_server.core import driver
from hundred_server.games.base import Bot
from hundred_server.games.hundert.bots import HundertBot
from hundred_server.games.hundert.strong import StrongBot as HundertStrong
from hundred_server.games.hundredandten import bots as hundredandten_bots
from hundred_server.games.hundredandten.strong import StrongBot as HundredAndTenStrong
from hundred_server.games.pinochle import bots as pinochle_bots
from hundred_server.games.pinochle.strong import StrongBot as PinochleStrong
from hundred_server.games.rook.bots import RookBot
from hundred_server.games.rook.strong import StrongBot as RookStrong
from hundred_server.games.whist.bots import WhistBot
from hundred_server.games.whist.strong import StrongBot as WhistStrong
from tests.games.hundert import test_hundert_strong as hundert
from tests.games.hundredandten import test_hundredandten_strong as hundredandten
from tests.games.pinochle import test_pinochle_strong as pinochle
from tests.games.rook import test_rook_strong as rook
from tests.games.whist import test_whist_strong as whist

# ------------------------------------------------------------------ the strong AIs


@pytest.mark.parametrize(
    ("game", "strong", "default", "naive"),
    [
        ("pinochle", PinochleStrong, pinochle_bots.PinochleBot, pinochle_bots.NaiveBot),
        ("whist", WhistStrong, WhistBot, WhistBot),
        ("hundert", HundertStrong, HundertBot, HundertBot),
        ("rook", RookStrong, RookBot, RookBot),
        (
            "hundredandten",
            HundredAndTenStrong,
            hundredandten_bots.NaiveBot,
            hundredandten_bots.NaiveBot,
        ),
    ],
)
def test_the_strong_ai_is_registered_without_changing_the_other_ais(
    game: str, strong: type[Bot], default: type[Bot], naive: type[Bot]
) -> None:
    spec = games.get(game)
    assert spec.bots["strong"] is strong
    assert spec.bots["default"] is default
    assert spec.bots["naive"] is naive
    assert spec.bot is default
    assert strong.name == "strong"


@pytest.mark.parametrize(
    ("game", "players", "strong", "steps"),
    [
        (
            "pinochle",
            pinochle.PLAYERS,
            lambda seed: PinochleStrong(seed=seed, **pinochle.QUICK),
            70,
        ),
        ("whist", whist.PLAYERS, lambda seed: WhistStrong(seed=seed, **whist.QUICK), 60),
        ("hundert", hundert.NAMES[:3], lambda seed: HundertStrong(seed=seed, **hundert.QUICK), 80),
        ("rook", rook.NAMES[:4], rook.quick, 120),
        (
            "hundredandten",
            hundredandten.PLAYERS,
            lambda seed: HundredAndTenStrong(seed=seed, **hundredandten.QUICK),
            120,
        ),
    ],
)
def test_the_same_seed_replays_the_same_game_of_strong_ais(
    game: str, players: Sequence[str], strong: Callable[[int], Bot], steps: int
) -> None:
    """The first ``steps`` of the driver's steps of a game of strong AIs, each seeded 3,
    twice: the same history."""
    spec = games.get(game)

    def record(seed: int) -> list[object]:
        played = spec.new_game(list(players), "replay")
        bots = [strong(seed) for _ in players]
        for _ in range(steps):
            driver.step(played, spec, "replay", bots)
        return list(played.history)

    assert record(3) == record(3)
