"""Plug-in bots (``serve --bot GAME=module:Class``): loading them (in a worker), and what
the sans-I/O core does with them (core/remote.py): a plug-in seat is asked
(``AskBot``), never called; its answer comes back through ``Hub.bot_answer``; stale
answers are dropped; a fault is a forfeit, counted and logged, the default AI playing
the turn; a seat that forfeits ``STRIKES`` moves in a row is benched. No sockets and no
workers here: the tests answer the asks themselves."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from hundred_server import games
from hundred_server.ai.plugins import PluginError, load_plugin
from hundred_server.cli import main
from hundred_server.core.remote import STRIKES, AskBot, ReleaseBots
from tests.support.hub_harness import Client, Harness, answer_from_legal, check_stream

LABEL = "whist=fake:Player"
#: (ask) -> (choice, fault)
Answerer = Callable[[AskBot], tuple[int | None, str | None]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("whist", "a plug-in is GAME=module:Class, as in GAME=mybot:Player, not 'whist'"),
        ("whist=good_player", "a plug-in is GAME=module:Class"),
        (
            "chess=good_player:Player",
            "no such game 'chess' (games: hundredandten, whist, pinochle, rook, hundert, spades)",
        ),
        ("hundredandten=good_player:Player", "Player has no act(view) method"),
        ("whist=no_such_module:Player", "cannot import 'no_such_module'"),
        ("whist=crashes_on_import:Player", "cannot import 'crashes_on_import': no"),
        ("whist=good_player:Nobody", "'good_player' has no class 'Nobody'"),
        ("whist=cannot_start:Player", "cannot_start:Player() fails: ValueError('nope')"),
        # what the worker that loads it finds it cannot play
        ("whist=exits_on_import:Player", "cannot import 'exits_on_import': 1"),
        (
            "whist=no_method:Player",
            "Player has no act(view) method (nor PlayCard, the Whist shape)",
        ),
        ("pinochle=no_method:Player", "Player has no act(view) method"),
    ],
)
def test_what_cannot_be_loaded_is_refused_with_why(
    plugin_dir: Path, text: str, message: str
) -> None:
    with pytest.raises(PluginError) as caught:
        load_plugin(text)
    assert message in caught.value.message


def test_loading_names_the_plugin_and_its_game(plugin_dir: Path) -> None:
    plugin = load_plugin(" Whist = good_player : Player ")
    assert (plugin.game, plugin.module, plugin.cls) == ("whist", "good_player", "Player")
    assert plugin.label == "whist=good_player:Player"
    assert str(plugin_dir) in plugin.path


def test_serve_refuses_a_bad_plugin_before_listening(
    plugin_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--memory", "--port", "0", "--bot", "whist=good_player:Nobody"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "hundred-server serve: --bot whist=good_player:Nobody: 'good_player' has no class "
        "'Nobody'\n"
    )


# ------------------------------------------------------------------ the core


def whist_table(seed: str, option: int = 1) -> tuple[Harness, Client]:
    h = Harness(seed)
    h.hub.lobby.plugins = {"whist": LABEL}
    ann = h.create("ann", "whist", Option=option)
    return h, ann


def asks(h: Harness) -> list[AskBot]:
    requests = h.hub.lobby.ai_seats.take()
    assert all(isinstance(r, AskBot) for r in requests)
    return [r for r in requests if isinstance(r, AskBot)]


def play_out(h: Harness, ann: Client, answer: Answerer, rng: random.Random) -> int:
    """Answer every ask with ``answer`` and every prompt of ann's at random, to the end;
    the asks answered."""
    answered = 0
    for _ in range(5000):
        if ann.game_over() is not None:
            break
        pending = asks(h)
        if pending:
            assert len(pending) == 1  # one seat acts at a time
            (ask,) = pending
            h.apply(h.hub.bot_answer(ask.table, ask.seat, ask.ask, *answer(ask)))
            answered += 1
            continue
        prompt = ann.pending()
        assert prompt is not None, "nobody is asked and ann has no prompt"
        ann.send(answer_from_legal(prompt, rng))
    assert ann.game_over() is not None
    return answered


def first_legal(ask: AskBot) -> tuple[int | None, str | None]:
    return 0, None


def test_a_plugin_seat_is_asked_and_its_choice_is_played() -> None:
    h, ann = whist_table("ask")
    table = h.hub.lobby.tables[1]
    # Whoever acts first: if it is an AI seat, it was asked, and ann has no prompt.
    pending = asks(h)
    while not pending:
        prompt = ann.pending()
        assert prompt is not None
        ann.send(answer_from_legal(prompt, random.Random(1)))
        pending = asks(h)
    (ask,) = pending
    assert (ask.table, ask.plugin) == (1, LABEL)
    assert ask.seat in (1, 2, 3)
    assert ask.view.seat == ask.seat
    assert ann.pending() is None
    last = len(ask.view.legal) - 1
    told = h.hub.bot_answer(ask.table, ask.seat, ask.ask, last)
    h.apply(told)
    played = [m for m in ann.take() if m.get("Type") == "Play" and "PlayedCard" in m]
    assert played[0] == {
        "Type": "Play",
        "Playerid": ask.seat,
        "PlayedCard": ask.view.legal[last].card.code,  # its own choice
    }
    assert table.asking != (ask.seat, ask.ask)
    assert h.hub.lobby.forfeits == {}


def test_a_whole_game_with_three_plugin_seats_finishes_and_the_stream_holds() -> None:
    h, ann = whist_table("whole")
    answered = play_out(h, ann, first_legal, random.Random(3))
    assert answered > 30
    assert h.hub.lobby.tables == {}
    assert h.hub.lobby.ai_seats.take() == [ReleaseBots(1)]
    check_stream(ann.messages, h.table_seeds())
    assert h.hub.lobby.forfeits == {}


def test_stale_answers_are_dropped() -> None:
    h, ann = whist_table("stale")
    rng = random.Random(2)
    while not (pending := asks(h)):
        ann.answer(rng)
    (ask,) = pending
    table = h.hub.lobby.tables[1]
    assert h.hub.bot_answer(1, ask.seat, ask.ask + 1, 0) == []  # not the current ask
    assert h.hub.bot_answer(1, (ask.seat + 1) % 4, ask.ask, 0) == []  # another seat
    assert h.hub.bot_answer(99, ask.seat, ask.ask, 0) == []  # no such table
    assert table.asking == (ask.seat, ask.ask)  # still waiting
    h.apply(h.hub.bot_answer(1, ask.seat, ask.ask, 0))
    history = len(table.game.history) if table.game is not None else 0
    assert h.hub.bot_answer(1, ask.seat, ask.ask, 0) == []  # the same answer again
    assert table.game is not None
    assert len(table.game.history) == history
    assert h.hub.lobby.forfeits == {}


def test_a_fault_is_a_forfeit_the_default_ai_plays_it_and_a_warning_says_why(
    caplog: pytest.LogCaptureFixture,
) -> None:
    h, ann = whist_table("fault")
    rng = random.Random(4)
    while not (pending := asks(h)):
        ann.answer(rng)
    (ask,) = pending
    expected = games.get("whist").bot().act(ask.view)
    with caplog.at_level(logging.WARNING, logger="hundred_server"):
        h.apply(h.hub.bot_answer(1, ask.seat, ask.ask, None, "it took longer than 1 s"))
    played = [
        m["PlayedCard"]
        for m in ann.messages
        if m.get("Type") == "Play" and m.get("Playerid") == ask.seat and "PlayedCard" in m
    ]
    assert played[-1] == expected.card.code  # the default AI's card
    assert h.hub.lobby.forfeits == {LABEL: 1}
    (warning,) = [r.getMessage() for r in caplog.records]
    assert warning == (
        f"table 1, seat {ask.seat}: plug-in {LABEL} forfeits its move: it took longer than "
        "1 s; the default AI plays it"
    )


def test_a_choice_that_is_no_legal_move_is_a_forfeit(caplog: pytest.LogCaptureFixture) -> None:
    h, ann = whist_table("range")
    rng = random.Random(5)
    while not (pending := asks(h)):
        ann.answer(rng)
    (ask,) = pending
    with caplog.at_level(logging.WARNING, logger="hundred_server"):
        h.apply(h.hub.bot_answer(1, ask.seat, ask.ask, len(ask.view.legal)))
    assert h.hub.lobby.forfeits == {LABEL: 1}
    assert f"it chose move {len(ask.view.legal)} of" in caplog.records[0].getMessage()


def test_a_seat_that_forfeits_strikes_in_a_row_is_benched_and_the_game_finishes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    h, ann = whist_table("bench")
    asked: dict[int, int] = {}

    def always_fails(ask: AskBot) -> tuple[int | None, str | None]:
        asked[ask.seat] = asked.get(ask.seat, 0) + 1
        return None, "its worker exited with status 7"

    with caplog.at_level(logging.WARNING, logger="hundred_server"):
        play_out(h, ann, always_fails, random.Random(6))
    assert asked == {1: STRIKES, 2: STRIKES, 3: STRIKES}
    assert h.hub.lobby.forfeits[LABEL] > 3 * STRIKES  # benched moves count too
    benched = [r.getMessage() for r in caplog.records if "in a row" in r.getMessage()]
    assert len(benched) == 3


def test_a_good_move_resets_the_strikes() -> None:
    h, ann = whist_table("strikes")
    turns = [0, 0, 0, 0]

    def every_other(ask: AskBot) -> tuple[int | None, str | None]:  # at each seat
        turns[ask.seat] += 1
        return (0, None) if turns[ask.seat] % 2 else (None, "PlayCard raised RuntimeError: 'x'")

    answered = play_out(h, ann, every_other, random.Random(7))
    assert sum(turns) == answered
    assert h.hub.lobby.forfeits[LABEL] == sum(n // 2 for n in turns)  # asked every time


def test_in_process_bots_are_still_called_as_before() -> None:
    h = Harness("in-process")
    h.hub.lobby.bots = {"whist": games.get("whist").bot}
    ann = h.create("ann", "whist", Option=1)
    rng = random.Random(8)
    while ann.game_over() is None:
        assert h.hub.lobby.ai_seats.take() == []
        ann.answer(rng)


def test_a_person_back_in_her_seat_is_prompted_and_the_plugins_answer_is_stale() -> None:
    h, ann = whist_table("reclaim")
    rng = random.Random(9)
    for _ in range(2):  # she plays once (a table nobody played in is abandoned)...
        while (prompt := ann.pending()) is None:  # ...and the AI seats until her turn
            (ask,) = asks(h)
            h.apply(h.hub.bot_answer(ask.table, ask.seat, ask.ask, 0))
        if not h.hub.lobby.tables[1].touched:
            ann.send(answer_from_legal(prompt, rng))
    ann.disconnect()
    h.advance(61)  # her grace runs out: the plug-in plays her seat, and it is her turn
    (ask,) = asks(h)
    assert ask.seat == 0
    back = h.json_client()
    told = back.send({"Type": "Hello", "Token": h.tokens[0]})
    prompt = back.pending()
    assert prompt is not None
    assert prompt["Playerid"] == 0
    assert any(m.get("Type") == "Snapshot" for m in told)
    assert h.hub.bot_answer(ask.table, 0, ask.ask, 0) == []  # stale: she plays it now
    told = back.send(answer_from_legal(prompt, rng))
    assert [m["Playerid"] for m in told if m.get("Type") == "Play"] == [0]  # her move
    assert [a.seat for a in asks(h)] == [1]  # and the next seat's plug-in is asked
    assert h.hub.lobby.forfeits == {}
