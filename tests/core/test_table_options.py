"""Table options (``GameSpec.flags``): a preset or a table of your choice switches a
game's variant on; the Table message and text mode show it (protocol.md, create)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hundred_server.store import Store
from tests.core.test_abuse import codes, connect
from tests.support.hub_harness import Harness, answer_from_legal, play_until_over
from tests.support.saving import SavingHarness, restarted


def _flagged(monkeypatch: pytest.MonkeyPatch) -> list[frozenset[str]]:
    """Whist as if it had a table option ``Fast``: a preset that switches it on, and
    the custom table; returns the flags each new game was made with."""
    import dataclasses

    from hundred_server import games
    from hundred_server.games.base import Preset

    real_get = games.get
    whist = real_get("whist")
    made: list[frozenset[str]] = []

    def new_game(players: object, seed: object, flags: frozenset[str] = frozenset()) -> object:
        made.append(flags)
        return whist.new_game(players, seed)  # type: ignore[arg-type]

    fast = Preset("Fast against three AI", 4, (1, 2, 3), flags=frozenset({"Fast"}))
    spec = dataclasses.replace(
        whist, flags=("Fast",), presets=(*whist.presets, fast), new_game=new_game, custom=True
    )
    monkeypatch.setattr(games, "get", lambda name: spec if name == "whist" else real_get(name))
    return made


def test_a_preset_and_a_table_of_your_choice_switch_table_options_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = _flagged(monkeypatch)
    h = Harness("flags")
    ann = connect(h, None)
    said = ann.send({"Type": "Hello", "Message": "create", "Game": "whist"})
    options = [m["Message"] for m in said if m.get("Type") == "Message"]
    assert options[-2].endswith("Name, Clock, Fast (true or false)")
    preset = len(options) - 2  # the Fast preset, before the custom table
    said = ann.send({"Type": "Game", "Option": preset})
    assert said[0]["Flags"] == ["Fast"]
    assert made == [frozenset({"Fast"})]
    bob = connect(h, None)
    bob.send({"Type": "Hello", "Message": "create", "Game": "whist"})
    custom = {"Type": "Game", "Option": preset + 1, "Seats": 4, "Bots": 3}
    refused = bob.send({**custom, "Fast": "yes"})
    assert codes(refused) == ["bad_option"]
    plain = bob.send({**custom, "Fast": False})
    assert "Flags" not in plain[0]
    assert made[-1] == frozenset()
    cy = connect(h, None)
    cy.send({"Type": "Hello", "Message": "create", "Game": "whist"})
    assert cy.send({**custom, "Fast": True})[0]["Flags"] == ["Fast"]
    assert made[-1] == frozenset({"Fast"})


def test_text_mode_reads_a_table_option_as_a_word(monkeypatch: pytest.MonkeyPatch) -> None:
    made = _flagged(monkeypatch)
    h = Harness("text flags")
    ann = h.connect()
    lines = ann.say("create whist")
    assert lines[-1].endswith("(for 6: 6 SEATS BOTS NAME [fast] [nowatch], e.g. 6 4 1 friday)")
    said = ann.say("6 4 3 FAST friday")
    assert said[0] == "Table 1 (friday): you, AI 1, AI 2, AI 3 [Fast] (naive AI)"
    assert made == [frozenset({"Fast"})]


def test_every_game_refuses_a_table_option_it_does_not_have() -> None:
    from hundred_server import games
    from hundred_server.protocol.errors import IllegalActionError

    for name in games.names():
        spec = games.get(name)
        assert "X" not in spec.flags
        with pytest.raises(IllegalActionError) as caught:
            spec.new_game(["a", "b", "c", "d"][: max(spec.seat_counts)], None, frozenset({"X"}))
        assert caught.value.code == "bad_flag"


def test_a_restored_table_keeps_its_table_options(tmp_path: Path) -> None:
    """The record keeps a game's table options, so a table restored after a restart
    still says them and its game still plays by them (Hundert's Feder: 1 chip a deal)."""
    store = Store(tmp_path / "s.db")
    h = SavingHarness("feder", store)
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create", "Game": "hundert"})
    said = ann.send({"Type": "Game", "Option": 7, "Seats": 3, "Bots": 2, "Feder": True})
    assert said[0]["Flags"] == ["Feder"]
    rng = random.Random(4)
    for _ in range(3):
        prompt = ann.pending()
        assert prompt is not None
        ann.send(answer_from_legal(prompt, rng))
    store, h2 = restarted(store, lambda: Store(tmp_path / "s.db"), "feder")
    h2.apply([])
    again = h2.json_client("ann")
    told = again.send({"Type": "Hello", "Token": h.tokens[0]})
    assert told[1]["Type"] == "Table"
    assert told[1]["Flags"] == ["Feder"]
    play_until_over([again], rng)
    scores = [m for m in again.messages if m["Type"] == "Score" and "Round" in m]
    assert scores
    assert all(sorted(map(abs, m["Points"])) == [1, 1, 2] for m in scores)
    store.close()
