"""The one game interface (games/base.py, games/README.md): the rest of the server
reaches games only through it, and every registered game works through it alone:
seeded games, records that replay, tables in the lobby, text mode. Whist is played
through the server here by a person against three AI seats."""

from __future__ import annotations

import ast
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hundred_server import games
from hundred_server.ai.selfplay import play_game, selfplay
from hundred_server.games.kit.cards import ALL_CARDS, Suit
from hundred_server.games.records import load_record, record_lines, replay
from hundred_server.protocol.schema import validate_server_message
from tests.support.hub_harness import (
    HELLO,
    QUESTION,
    Client,
    Harness,
    is_prompt,
    play_until_over,
)

PACKAGE = Path(__file__).resolve().parents[2] / "hundred_server"
CARD_WORD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b")
CODES = frozenset(c.code for c in ALL_CARDS)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


GAME_PACKAGES = sorted(
    p.parent.name for p in (PACKAGE / "games").glob("*/__init__.py") if p.parent.name != "kit"
)


def generic_modules() -> list[Path]:
    """Every module of the package but the games' own packages and the registry."""
    return [
        path
        for path in PACKAGE.rglob("*.py")
        if not (
            path.relative_to(PACKAGE).parts[0] == "games"
            and len(path.relative_to(PACKAGE).parts) > 2
            and path.relative_to(PACKAGE).parts[1] in GAME_PACKAGES
        )
        and path != PACKAGE / "games" / "__init__.py"
    ]


def names_a_game(path: Path) -> set[str]:
    """The games a module names: by importing one of their modules, or in any
    identifier or string (a game's name, title, or one of its own message keys)."""
    tree = ast.parse(path.read_text(), str(path))
    words = {name: re.compile(rf"(?i){name}|{games.get(name).title}") for name in games.names()}
    # A game named as a suit is ("spades"): the suit's word names no game, its key does.
    suits = {suit.name.lower() for suit in Suit}
    words.update({name: re.compile(rf"^{name}$") for name in words if name in suits})
    found: set[str] = set()
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for module in imported_modules(path):
        parts = module.split(".")
        if parts[:2] == ["hundred_server", "games"] and len(parts) > 2 and parts[2] in words:
            found.add(f"import {module}")
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings:
                continue  # prose about the design may give examples
            text = node.value
        elif isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        if text is None:
            continue
        for name, pattern in words.items():
            if pattern.search(text):
                found.add(f"{name}: {text[:60]!r}")
    return found


def test_no_generic_module_names_a_game() -> None:
    """A generic module (server, lobby, tables, codecs, store, records, CLI, the
    driver) reaches games only through the registry: it imports no game's module and
    names no game, so adding a game touches only its package and the registry."""
    assert set(GAME_PACKAGES) == set(games.names())
    modules = generic_modules()
    assert PACKAGE / "core" / "lobby.py" in modules
    assert PACKAGE / "games" / "kit" / "records.py" in modules
    assert PACKAGE / "games" / "base.py" in modules
    offenders = {
        str(p.relative_to(PACKAGE)): sorted(found) for p in modules if (found := names_a_game(p))
    }
    assert offenders == {}


def test_the_game_name_check_finds_a_game_named() -> None:
    """The check above can fail: it sees an import, a string and an identifier."""
    sample = PACKAGE / "games" / "base.py"
    source = sample.read_text()
    for extra in (
        "import hundred_server.games.whist.rules\n",
        "X = 'create whist'\n",
        "hundredandten_thing = 1\n",
    ):
        probe = Path(__file__).parent / "_probe_module.py"
        try:
            probe.write_text(source + extra)
            assert names_a_game(probe), extra
        finally:
            probe.unlink()


def test_the_sans_io_core_imports_nothing_that_does_io() -> None:
    io = {"asyncio", "socket", "sqlite3", "selectors", "subprocess"}
    io |= {"hundred_server.io", "hundred_server.store", "hundred_server.ai"}
    core = [
        str(p.relative_to(PACKAGE))
        for layer in ("core", "protocol", "games")
        for p in (PACKAGE / layer).rglob("*.py")
    ]
    found = {
        name: sorted(
            m
            for m in imported_modules(PACKAGE / name)
            if m.split(".")[0] in io or any(m.startswith(i) for i in io if "." in i)
        )
        for name in core
    }
    assert {name: bad for name, bad in found.items() if bad} == {}
    assert "core/lobby.py" in found
    assert "games/whist/rules.py" in found


def test_the_registry_knows_every_game() -> None:
    assert games.names() == ("hundredandten", "whist", "pinochle", "rook", "hundert", "spades")
    assert games.DEFAULT_GAME == "hundredandten"
    for name in games.names():
        spec = games.get(name)
        assert spec.name == name
        game = spec.new_game(["a", "b", "c", "d"][: max(spec.seat_counts)], "s")
        assert games.spec_of(game) is spec
    with pytest.raises(KeyError):
        games.get("chess")


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("seed", ["one", "two", "three"])
def test_a_seeded_game_records_and_replays_through_the_interface(name: str, seed: str) -> None:
    spec = games.get(name)
    seats = max(spec.seat_counts)
    game = play_game(seats, seed, game=name)
    assert game.is_over
    assert game.winner is not None
    lines = record_lines(game)
    assert json.loads(lines[0])["Game"] == name
    out = list(replay(lines))
    assert out[-1]["GameOver"] is True
    assert out[-1]["Score"] == list(game.scores)
    again = load_record(lines)
    assert list(again.history) == list(game.history)
    assert again.scores == game.scores
    result = spec.result(game)
    assert (result["Winner"], result["Score"]) == (game.winner, list(game.scores))
    assert isinstance(result["Text"], str)


def test_replay_names_an_unknown_game() -> None:
    header = '{"Type":"Record","Game":"chess","Version":1,"Players":["a","b"]}'
    assert list(replay(["", header])) == [
        {
            "Type": "Error",
            "Line": 2,
            "Code": "unknown_game",
            "Message": (
                'no such game "chess" (hundredandten, whist, pinochle, rook, hundert, spades)'
            ),
        }
    ]


def test_selfplay_plays_whist() -> None:
    summary = selfplay(num_players=4, games=8, seed="w", game="whist")
    assert summary["game"] == "whist"
    assert summary["games"] == 8
    assert sum(summary["wins"]) == 8
    assert len(summary["wins"]) == 2  # by side
    with pytest.raises(ValueError, match="Whist is played by"):
        selfplay(num_players=3, games=1, game="whist")


# ------------------------------------------------------------------ whist at a table


def whist_person_vs_ai(h: Harness, option: int = 1) -> Client:
    ann = h.json_client("ann")
    told = ann.send({"Type": "Hello", "Message": "create", "Game": "whist"})
    assert told == [
        {"Type": "Message", "Message": f"Option {i} - {text}"}
        for i, text in enumerate(
            [preset.text for preset in games.get("whist").presets] + ["Go back"], 1
        )
    ] + [{"Type": "Game"}]
    ann.send({"Type": "Game", "Option": option})
    return ann


def leaks(messages: list[dict[str, Any]]) -> list[str]:
    """Card codes a seat was shown that were neither its own nor played nor turned up."""
    own: set[str] = set()
    public: set[str] = set()
    found = []
    for msg in messages:
        if msg.get("Type") == "Deal":
            own = set(msg["Hand"])
            public = set()
        if msg.get("Type") == "Trump" and "Card" in msg:
            public.add(msg["Card"])
        if msg.get("Type") == "Play" and "PlayedCard" in msg:
            public.add(msg["PlayedCard"])
        text = json.dumps(msg)
        for code in CARD_WORD.findall(text):
            if code in CODES and code not in own | public:
                found.append(code)
    return found


def test_a_person_plays_whist_against_three_ai_seats_to_the_end() -> None:
    h = Harness("whist-table")
    ann = whist_person_vs_ai(h)
    table = h.hub.lobby.tables[1]
    assert table.info()["Game"] == "whist"
    assert table.names() == ["ann", "AI 1", "AI 2", "AI 3"]
    for prompt in ann.play_on(random.Random(3), 2000):
        assert prompt["Type"] == "Play"
    over = ann.game_over()
    assert over is not None
    assert over["Winner"] in ("NS", "EW")
    assert max(over["Score"]) >= 5
    assert over["Win"] is (over["Winner"] == "NS")  # ann sits North
    assert ann.messages[-2:] == [QUESTION, HELLO]
    for msg in ann.messages:
        validate_server_message(msg)
    assert leaks(ann.messages) == []
    deals = [m for m in ann.messages if m["Type"] == "Deal"]
    assert all(len(d["Hand"]) == 13 for d in deals)
    assert [d["Dealer"] for d in deals] == [i % 4 for i in range(len(deals))]
    assert h.hub.lobby.tables == {}


def test_whist_option_2_seats_a_person_as_partner() -> None:
    h = Harness("whist-partner")
    ann = whist_person_vs_ai(h, 2)
    assert h.hub.lobby.tables[1].names() == ["ann", "AI 1", None, "AI 2"]
    bob = h.json_client("bob")
    told = bob.send({"Type": "Hello", "Message": "join"})
    assert told[0]["Tables"][0]["Game"] == "whist"
    bob.send({"Type": "Join", "Table": 1})
    assert h.hub.lobby.tables[1].names() == ["ann", "AI 1", "bob", "AI 2"]
    assert ann.last("Deal")["Playerid"] == 0
    assert bob.last("Deal")["Playerid"] == 2


def test_the_lobby_refuses_a_game_it_does_not_have() -> None:
    h = Harness("no-chess")
    ann = h.json_client("ann")
    told = ann.send({"Type": "Hello", "Message": "create", "Game": "chess"})
    assert told == [
        {
            "Type": "Error",
            "Code": "bad_game",
            "Message": (
                'no such game "chess" '
                "(games: hundredandten, whist, pinochle, rook, hundert, spades)"
            ),
        },
        HELLO,
    ]
    ann.send({"Type": "Hello", "Message": "create"})
    told = ann.send({"Type": "Game", "Game": "whist", "Option": 6})
    assert told[0]["Code"] == "bad_option"  # whist has options 1-5
    assert ann.send({"Type": "Game", "Game": "whist", "Option": 5}) == [QUESTION, HELLO]


def test_text_mode_offers_whist() -> None:
    h = Harness("whist-text")
    nc = h.connect()
    nc.take_text()
    shown = nc.say("create whist")
    assert shown[-1] == "> choose an option: 1-5"
    shown = nc.say("1")
    assert any(line.startswith("Trump is ") and "turned up" in line for line in shown)
    assert shown[-1].startswith("> play one of: ")


def test_a_whist_game_is_saved_and_restored(tmp_path: Path) -> None:
    from hundred_server.store import Store
    from tests.support.saving import mid_game, restarted

    store = Store(tmp_path / "s.db")
    rng = random.Random(1)
    h, ann, prompt = mid_game(store, "whist-store", whist_person_vs_ai, 20, rng)
    store, h2 = restarted(store, lambda: Store(tmp_path / "s.db"), "whist-store")
    again = h2.json_client("ann")
    told = again.send({"Type": "Hello", "Token": h.tokens[0]})
    assert [m["Type"] for m in told] == ["Seat", "Table", "Commit", "Snapshot", "Play"]
    assert told[2] == ann.last("Commit")  # the seed is the stored one
    assert told[-1] == prompt
    assert is_prompt(told[-1])


@pytest.mark.parametrize("name", games.names())
def test_every_game_is_saved_restored_and_finished_through_the_store(
    name: str, tmp_path: Path
) -> None:
    """A person against AI at each game's first table mode: some answers, the process
    dies, the store restores the game, the token takes the seat back to the same hand
    and the same prompt, and the game finishes with the stored result the record's."""
    from hundred_server.store import Store
    from tests.support.saving import SavingHarness, restarted

    store = Store(tmp_path / "s.db")
    h = SavingHarness(f"{name}-store", store)
    ann = h.create("ann", name, Option=1)
    rng = random.Random(5)
    for _ in range(12):
        ann.answer(rng)
    prompt = ann.pending()
    game = h.hub.lobby.tables[1].game
    assert game is not None
    hand = [c.code for c in game.view_for(0).hand]
    # the process dies: only the store is left
    store, h2 = restarted(store, lambda: Store(tmp_path / "s.db"), f"{name}-store")
    again = h2.json_client("ann")
    told = again.send({"Type": "Hello", "Token": h.tokens[0]})
    assert [m["Type"] for m in told][:4] == ["Seat", "Table", "Commit", "Snapshot"]
    assert told[2] == ann.last("Commit")
    assert sorted(told[3]["Hand"]) == sorted(hand)
    assert told[-1] == prompt  # the same prompt, the same Seq
    for msg in told:
        validate_server_message(msg)
    play_until_over([again], rng)
    over = again.game_over()
    assert over is not None
    stored = store.game(1)
    assert stored is not None
    assert stored.state == "over"
    assert list(replay(stored.lines))[-1]["Score"] == over["Score"]
    store.close()


@pytest.mark.parametrize("name", games.names())
def test_every_game_names_its_built_in_ais(name: str) -> None:
    """The lobby and tournaments pick built-in AIs by name: every game has ``naive``,
    ``default`` (its default bot) and ``strong``, whose factory takes the budget a
    decision; each name makes a bot that plays a whole game (the strong one here with
    a budget of 2 ms, which only makes it think less: its own tests play it fully)."""
    spec = games.get(name)
    assert {"naive", "default", "strong"} <= set(spec.bots)
    assert type(spec.bots["default"]()) is type(spec.bot())
    assert getattr(spec.bots["strong"](budget=0.002), "budget", None) == 0.002
    seats = spec.seat_counts[-1]
    for label, factory in spec.bots.items():
        bots = [factory(budget=0.002) if label == "strong" else factory() for _ in range(seats)]
        game = play_game(seats, "named-ais", bots, name)
        assert game.is_over
        assert game.winner is not None


# ------------------------------------------------------------------ a watcher's view

WATCHER = None


def _key(msg: dict[str, Any]) -> str:
    return json.dumps(msg, sort_keys=True)


def _without(msg: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in msg.items() if k not in keys}


def check_watcher_told(told: dict[int | None, list[dict[str, Any]]], seats: int) -> None:
    """The oracle of what a watcher (the seat None) is told of one batch of events:

    - a ``Deal`` is every seat's without ``Playerid`` and ``Hand``; a ``GameOver``
      ``Score`` is every seat's without ``Win``;
    - any other message is told alike to every seat but the one it is about (its
      ``Playerid``: the discarder's own copy of a discard, the bidder's of the kitty,
      differ), so it holds nothing that only one seat knows;
    - and whatever every seat is told, the watcher is told too."""
    watched = told[WATCHER]
    for msg in watched:
        assert "Legal" not in msg, msg
        if msg["Type"] == "Deal":
            assert not {"Playerid", "Hand"} & set(msg), msg
            deals = [m for s in range(seats) for m in told[s] if m["Type"] == "Deal"]
            assert len(deals) == seats, msg
            assert all(_without(d, "Playerid", "Hand") == msg for d in deals), msg
            continue
        if msg["Type"] == "Score" and msg.get("GameOver"):
            assert "Win" not in msg, msg
            ends = [m for s in range(seats) for m in told[s] if m.get("GameOver")]
            assert len(ends) == seats, msg
            assert all(_without(e, "Win") == msg for e in ends), msg
            continue
        about = msg.get("Playerid")
        for seat in range(seats):
            if seat != about:
                assert _key(msg) in {_key(m) for m in told[seat]}, (seat, msg)
    counts = [Counter(_key(m) for m in told[s]) for s in range(seats)]
    common = counts[0].copy()
    for count in counts[1:]:
        common &= count
    assert not common - Counter(_key(m) for m in watched), "a public message not told"
    shown = {_key(m) for m in watched}
    for msg in (m for s in range(seats) for m in told[s]):
        if msg["Type"] == "Deal" or msg.get("GameOver"):
            continue
        others = [t for t in range(seats) if t != msg.get("Playerid")]
        if all(counts[t][_key(msg)] for t in others):
            assert _key(msg) in shown, f"not told {msg}, which every other seat is"


def _public_snapshot(snapshot: dict[str, Any]) -> dict[str, Any]:
    return _without(snapshot, "Playerid", "Hand", "Discarded")


@pytest.mark.parametrize("name", games.names())
def test_a_watcher_is_told_only_what_every_seat_is(name: str) -> None:
    """Whole games of every game, at its smallest and largest table: each batch of
    events told to every seat and to a watcher (``check_watcher_told``), and every
    now and then the watcher's snapshot, which is what every seat's snapshot has in
    common (``Playerid``, ``Hand`` and ``Discarded`` aside), and valid."""
    from hundred_server.core import driver

    spec = games.get(name)
    for seats in sorted({min(spec.seat_counts), max(spec.seat_counts)}):
        for seed in ("watch-1", "watch-2"):
            game = spec.new_game([f"p{i}" for i in range(seats)], seed)
            bots = [spec.bots["naive"]() for _ in range(seats)]
            players = game.players
            rng = random.Random(seed)
            while (events := driver.step(game, spec, seed, bots)) is not None:
                told = spec.wire.tell(events, [WATCHER, *range(seats)], players)
                check_watcher_told(told, seats)
                for msg in told[WATCHER]:
                    validate_server_message(msg)
                if rng.random() < 0.1 and not game.is_over and not game.needs_deal:
                    watcher = spec.wire.snapshot(game, WATCHER, 7)
                    validate_server_message(watcher)
                    assert not {"Playerid", "Hand", "Discarded"} & set(watcher)
                    for seat in range(seats):
                        assert _public_snapshot(spec.wire.snapshot(game, seat, 7)) == watcher
                    assert spec.wire.prompt(game, WATCHER, 3) == spec.wire.prompt(
                        game, next((s for s in range(seats) if s != game.to_act), 0), 3
                    )
            assert game.is_over


def test_the_watcher_oracle_catches_a_leak() -> None:
    """``check_watcher_told`` fails a watcher told a seat's own copy of its discard,
    a Deal with a hand, or a GameOver with Win; and one not told a public message."""
    own = {"Type": "Discard", "Playerid": 1, "Count": 1, "Cards": ["2C"], "Hand": ["5H"]}
    public = {"Type": "Discard", "Playerid": 1, "Count": 1}
    told: dict[int | None, list[dict[str, Any]]] = {0: [public], 1: [own], 2: [public]}
    check_watcher_told({**told, WATCHER: [public]}, 3)
    for wrong in ([own], [], [public, {"Type": "Message", "Message": "x"}]):
        with pytest.raises(AssertionError):
            check_watcher_told({**told, WATCHER: wrong}, 3)
    deal = {"Type": "Deal", "Playerid": 0, "Hand": ["5H"], "Dealer": 0, "Round": 1,
            "Players": ["a", "b"]}  # fmt: skip
    dealt = {0: [deal], 1: [{**deal, "Playerid": 1, "Hand": ["2C"]}]}
    check_watcher_told({**dealt, WATCHER: [_without(deal, "Playerid", "Hand")]}, 2)
    with pytest.raises(AssertionError):
        check_watcher_told({**dealt, WATCHER: [_without(deal, "Playerid")]}, 2)
    over = {"Type": "Score", "GameOver": True, "Winner": 0, "Score": [1, 0]}
    ended = {0: [{**over, "Win": True}], 1: [{**over, "Win": False}]}
    check_watcher_told({**ended, WATCHER: [over]}, 2)
    with pytest.raises(AssertionError):
        check_watcher_told({**ended, WATCHER: [{**over, "Win": True}]}, 2)
