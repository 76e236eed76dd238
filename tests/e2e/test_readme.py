"""The README's Python examples run as written, and say what they claim."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) == 1


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int) -> None:
    namespace: dict[str, object] = {}
    exec(compile(BLOCKS[index], f"README block {index}", "exec"), namespace)


def test_engine_example_states() -> None:
    from hundred_server.games.hundredandten.rules import Bid, Game

    game = Game(["ann", "bob", "cy", "dee"], seed="friday")
    assert game.to_act == 1
    assert game.legal_actions(1) == tuple(Bid(a) for a in (0, 15, 20, 25, 30, 60))
    game.apply(1, Bid(15))
    game.apply(3, Bid(0))
    assert game.pre_passed == [False, False, False, True]
    assert game.view_for(2).scores == (0, 0, 0, 0)
