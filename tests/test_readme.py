"""The README's Python examples run as written, and say what they claim."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) == 2


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


def test_compat_example_states() -> None:
    from hundred_server.games.hundredandten.compat import Bid as CBid
    from hundred_server.games.hundredandten.compat import (
        BidAmount,
        HumanPlayer,
        HundredAndTen,
        NaiveAutomatedPlayer,
        RoundRole,
        RoundStatus,
    )
    from hundred_server.games.hundredandten.compat import Unpass as CUnpass

    game = HundredAndTen(
        [
            HumanPlayer("player_1"),
            HumanPlayer("player_2"),
            HumanPlayer("player_3"),
            NaiveAutomatedPlayer("player_4"),
        ],
        seed="readme",
    )
    assert game.active_round.active_player.identifier == "player_2"
    game.act(CBid("player_2", BidAmount.FIFTEEN))
    game.act(CBid("player_1", BidAmount.PASS))
    assert RoundRole.PRE_PASSED in game.active_round.players[0].roles
    game.act(CUnpass("player_1"))
    assert RoundRole.PRE_PASSED not in game.active_round.players[0].roles
    assert game.status is RoundStatus.BIDDING
    assert game.scores == {"player_1": 0, "player_2": 0, "player_3": 0, "player_4": 0}
    assert game.winner is None
