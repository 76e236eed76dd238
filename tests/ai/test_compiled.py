"""The strong AIs compiled by mypyc (setup.py) decide as their pure-Python sources do.

Each side plays the same seeded games, strong AIs at every seat (no wall-clock budget,
so only the code decides), in a subprocess of its own: one imports the package as
installed (compiled where the install found a compiler), the other a copy of its
sources without any extension (the pure fallback), and every action must be the same.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import hundred_server
from hundred_server import games as registry

ROOT = Path(hundred_server.__file__).parent
#: The modules setup.py compiles.
COMPILED = (
    "hundred_server.games.kit.search",
    *(
        f"hundred_server.games.{game}.strong"
        for game in ("hundredandten", "whist", "pinochle", "rook", "hundert", "spades")
    ),
)
#: Seeded games a game; the work a decision is cut (the same on both sides) so the
#: pure side's games stay short.
GAMES = 2
WORK_SHARE = 8
#: Bounds every game (none of these seeds comes near it).
MAX_STEPS = 4000

# Plays GAMES seeded games of each game, strong at every seat; prints which files the
# compiled modules came from and each game's actions, as JSON.
PLAY = f"""
import importlib, json, sys
from hundred_server import games as registry
files = {{m: importlib.import_module(m).__file__ for m in {COMPILED!r}}}
records = {{}}
for name in sys.argv[1:]:
    spec = registry.get(name)
    module = importlib.import_module(f"hundred_server.games.{{name}}.strong")
    seats = 4 if 4 in spec.seat_counts else spec.seat_counts[0]
    for index in range({GAMES}):
        seed = f"oracle-{{index}}"
        work = module.StrongBot.default_work // {WORK_SHARE}
        bots = [module.StrongBot(seed=seat, budget=None, work=work) for seat in range(seats)]
        game = spec.new_game([f"p{{s}}" for s in range(seats)], seed)
        actions = []
        for _ in range({MAX_STEPS}):
            if game.is_over:
                break
            if game.needs_deal:
                game.deal(spec.seeded_deck(seed, game.round_index))
                continue
            seat = game.to_act
            action = bots[seat].act(spec.view(game, seat))
            actions.append(repr(action))
            game.apply(seat, action)
        records[f"{{name}}/{{seed}}"] = [game.is_over, actions]
print(json.dumps({{"files": files, "records": records}}))
"""


def play(games: list[str], path: Path | None) -> dict[str, dict[str, object]]:
    """Run PLAY in a subprocess, importing the package from ``path`` if given."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    done = subprocess.run(
        [sys.executable, "-c", PLAY, *games],
        capture_output=True,
        text=True,
        env=env,
        cwd=path or ROOT.parent,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, dict[str, object]] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def pure_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's sources with no compiled extension beside them."""
    root = tmp_path_factory.mktemp("pure")
    shutil.copytree(
        ROOT,
        root / "hundred_server",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    return root


def test_the_pure_fallback_imports_only_python(pure_copy: Path) -> None:
    result = play([], pure_copy)
    for module, file in result["files"].items():
        assert isinstance(file, str)
        assert file.startswith(str(pure_copy)), module
        assert file.endswith(".py"), module


@pytest.mark.parametrize("game", registry.names())
def test_compiled_and_pure_make_the_same_decisions(game: str, pure_copy: Path) -> None:
    assert game in registry.names()
    installed = play([game], None)
    pure = play([game], pure_copy)
    assert len(pure["records"]) == GAMES
    for key, (over, actions) in pure["records"].items():
        assert over, key
        assert isinstance(actions, list), key
        assert len(actions) > 50, key
        assert installed["records"][key] == [over, actions], key


def can_compile() -> bool:
    """A C compiler and Python's headers are at hand, and HUNDRED_PURE does not ask for
    pure Python: then the install must have built the extensions."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    wanted = os.environ.get("HUNDRED_PURE") != "1"
    return wanted and shutil.which(compiler) is not None and headers.is_file()


def test_the_installed_ai_is_compiled_where_the_build_could_compile_it() -> None:
    """An install imports the extensions (not the sources beside them), all or none,
    and all wherever a compiler is at hand: once, a type error that only pip's build
    environment saw (a dependency it lacks) left every install in pure Python."""
    result = play([], None)
    files = result["files"]
    compiled = {m for m, f in files.items() if isinstance(f, str) and not f.endswith(".py")}
    assert compiled in (set(), set(COMPILED))
    if can_compile():
        assert compiled == set(COMPILED), "a compiler is at hand but the AIs are pure Python"


def test_the_compiled_shuffle_is_random_shuffle() -> None:
    """search.shuffle orders as Random.shuffle and leaves the generator where it does
    (lists of cards of every deal's size, many seeds), so deals are as they were."""
    from random import Random

    from hundred_server.games.kit.search import EXACT_SHUFFLE, shuffle

    assert EXACT_SHUFFLE
    for seed in range(40):
        for size in (0, 1, 2, 10, 13, 24, 33, 45, 48, 53, 80):
            ours, theirs = Random(f"{seed}-{size}"), Random(f"{seed}-{size}")
            mine, stdlib = list(range(size)), list(range(size))
            shuffle(mine, ours)
            theirs.shuffle(stdlib)
            assert mine == stdlib
            assert ours.getstate() == theirs.getstate()


def test_least_is_min_by_key() -> None:
    """search.least picks what min(cards, key=key.__getitem__) picks, ties included."""
    from random import Random

    from hundred_server.games.kit.search import least

    rng = Random("least")
    for _ in range(2000):
        key = tuple(rng.randrange(6) for _ in range(53))
        cards = rng.sample(range(53), rng.randrange(1, 14))
        assert least(cards, key) == min(cards, key=key.__getitem__)


def test_no_compiled_module_is_older_than_its_source() -> None:
    """An editable install imports the extension beside a module, not its source: one
    built before the source was last changed runs old code (reinstall: make does). The
    extension is found beside the source by name (a grouped mypyc module's ``__file__``
    may name a path that does not exist)."""
    from importlib.machinery import EXTENSION_SUFFIXES

    for name in COMPILED:
        source = ROOT.parent.joinpath(*name.split(".")).with_suffix(".py")
        assert source.is_file(), source
        for suffix in EXTENSION_SUFFIXES:
            built = source.with_name(source.stem + suffix)
            if built.exists():
                assert built.stat().st_mtime >= source.stat().st_mtime, (
                    f"{built.name} is older than {source.name}: pip install -e . again"
                )
