"""Watching a table (protocol.md, Watching): the lobby's ``Watch``, ``Leave`` and
``Hello`` ``watch``, what a watcher is told at a table (lobby.py, table.py), and THE
WATCHER LEAK CHECK: whole games of every game with watchers joined at random moments,
each watcher's stream read by ``check_watcher_stream`` and compared with a seat's."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hundred_server import games
from hundred_server.config import AISettings
from hundred_server.core.hub import Close, Hub, Send
from hundred_server.core.lobby import Limits
from hundred_server.games.base import is_over
from hundred_server.protocol import codecs
from hundred_server.protocol.schema import validate_server_message
from tests.support.hub_harness import (
    HELLO,
    QUESTION,
    Client,
    Harness,
    StreamError,
    answer_from_legal,
    check_stream,
    check_watcher_stream,
    is_prompt,
    play_until_over,
    public_part,
)

Message = dict[str, Any]


def kinds(messages: list[Message]) -> list[str]:
    return [m["Type"] for m in messages]


# ------------------------------------------------------------------ watching a table


def test_a_watcher_of_a_game_under_way_gets_what_a_seat_taking_it_back_gets() -> None:
    h = Harness("watch-under-way")
    ann = h.create(Option=1)
    rng = random.Random(1)
    for _ in range(6):
        ann.answer(rng)
    watcher = h.json_client("wat")
    told = watcher.send({"Type": "Watch", "Table": 1})
    table = h.hub.lobby.tables[1]
    assert told == table.rejoin(None)
    assert kinds(told) == ["Table", "Commit", "Snapshot", ann.pending()["Type"]]  # type: ignore[index]
    assert told[0]["Watchers"] == 1
    assert told[1] == ann.last("Commit")
    snapshot = told[2]
    assert "Playerid" not in snapshot
    assert "Hand" not in snapshot
    mine = {k: v for k, v in table.rejoin(0)[2].items() if k not in ("Playerid", "Hand")}
    assert snapshot == {k: v for k, v in mine.items() if k != "Discarded"}
    prompt = told[3]
    assert "Legal" not in prompt
    assert {k: v for k, v in ann.pending().items() if k != "Legal"} == prompt  # type: ignore[union-attr]
    assert ann.take() == []  # a watcher coming to a game under way is not announced
    for msg in told:
        validate_server_message(msg)


def test_a_watcher_of_a_waiting_table_sees_it_fill_and_the_game_from_its_start() -> None:
    h = Harness("watch-waiting")
    ann = h.create(Option=5, Seats=3, Bots=1)
    watcher = h.json_client("wat")
    table_1 = {**h.hub.lobby.tables[1].info(), "Watchers": 1}
    assert watcher.send({"Type": "Watch", "Table": 1}) == [table_1]
    assert ann.take() == [table_1]  # everyone at a waiting table: the new count
    bob = h.json_client("bob")
    bob.send({"Type": "Hello", "Message": "join"})
    bob.send({"Type": "Join", "Table": 1})
    told = watcher.take()
    assert kinds(told)[:4] == ["Table", "Message", "Commit", "Deal"]
    assert told[0]["Free"] == 0
    assert told[0]["Watchers"] == 1
    assert told[1] == {
        "Type": "Message",
        "Message": "Table 1 (table 1) starts: ann, AI 1 (AI), bob",
    }
    assert told[2] == ann.last("Commit")
    assert told[3] == {k: v for k, v in ann.last("Deal").items() if k not in ("Playerid", "Hand")}
    prompts = [m for m in told if is_prompt(m)]
    assert prompts
    assert all("Legal" not in p for p in prompts)


def test_the_watch_list_shows_tables_under_way_and_waiting_that_take_watchers() -> None:
    h = Harness("watch-list")
    h.hub.lobby.limits = Limits(max_watchers=1)
    h.create(Option=1)  # 1: under way
    h.create("bob", Option=4)  # 2: waits
    h.create("cy", Option=1, Watchers=False)  # 3: takes none
    h.create("dee", Option=1)  # 4: will be full of watchers
    h.json_client("eve").send({"Type": "Watch", "Table": 4})
    onlooker = h.json_client("fay")
    (listed,) = onlooker.send({"Type": "Hello", "Message": "watch"})
    assert listed["Watch"] is True
    assert [t["Table"] for t in listed["Tables"]] == [1, 2]
    assert [t["Free"] for t in listed["Tables"]] == [0, 3]
    assert all("Type" not in t and t["Watchers"] == 0 for t in listed["Tables"])
    validate_server_message(listed)
    # The join list is what it was: only the tables with a free seat, no "Watch".
    (joinable,) = onlooker.send({"Type": "Hello", "Message": "join"})
    open_table = {k: v for k, v in h.hub.lobby.tables[2].info().items() if k != "Type"}
    assert joinable == {"Type": "Tables", "Tables": [open_table]}
    # An error in the watch list shows the watch list again.
    onlooker.send({"Type": "Hello", "Message": "watch"})
    told = onlooker.send({"Type": "Watch", "Table": 3})
    assert told == [
        {"Type": "Error", "Code": "no_watchers", "Message": "table 3 takes no watchers"},
        listed,
    ]


@pytest.mark.parametrize(
    ("table", "code", "text"),
    [
        (9, "no_such_table", "no table 9 to watch"),
        (3, "no_watchers", "table 3 takes no watchers"),
        (2, "too_many_watchers", "table 2 has 2 watchers, the most it may; try again later"),
    ],
)
def test_watch_refusals_are_typed_and_the_question_comes_again(
    table: int, code: str, text: str
) -> None:
    h = Harness("watch-refused")
    h.hub.lobby.limits = Limits(max_watchers=2)
    h.create(Option=1)
    h.create("bob", Option=1)
    h.create("cy", Option=1, Watchers=False)
    for name in ("dee", "eve"):
        h.json_client(name).send({"Type": "Watch", "Table": 2})
    onlooker = h.json_client("fay")
    told = onlooker.send({"Type": "Watch", "Table": table})
    assert told == [{"Type": "Error", "Code": code, "Message": text}, HELLO]
    assert onlooker.conn not in h.hub.lobby.tables[min(table, 3)].watchers


def test_a_table_whose_game_is_over_cannot_be_watched() -> None:
    h = Harness("watch-over")
    ann = h.create(Option=1)
    play_until_over([ann], random.Random(2))
    told = h.json_client("wat").send({"Type": "Watch", "Table": 1})
    assert told[0] == {"Type": "Error", "Code": "no_such_table", "Message": "no table 1 to watch"}


def test_watchers_must_be_true_or_false() -> None:
    h = Harness("watch-option")
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create"})
    told = ann.send({"Type": "Game", "Option": 1, "Watchers": "no"})
    assert told == [
        {"Type": "Error", "Code": "bad_option", "Message": 'Watchers is true or false, not "no"'},
        {"Type": "Game"},
    ]
    assert h.hub.lobby.tables == {}
    ann.send({"Type": "Game", "Option": 5, "Seats": 2, "Watchers": False})
    assert h.hub.lobby.tables[1].watchable is False
    ann2 = h.create("bob", Option=1, Watchers=True)
    assert h.hub.lobby.tables[2].watchable is True
    assert ann2.last("Table")["Watchers"] == 0


def test_a_watcher_may_not_play_sit_or_watch_another_table() -> None:
    h = Harness("watch-not-now")
    ann = h.create(Option=1)
    h.create("bob", Option=4)
    watcher = h.watcher(1)
    prompt = ann.pending()
    assert prompt is not None
    answer = answer_from_legal(prompt, random.Random(3))
    told = watcher.send({**answer, "Playerid": None})
    assert told == [
        {
            "Type": "Error",
            "Code": "not_now",
            "Message": "you watch table 1: watchers do not play (not your seat)",
        }
    ]  # and nothing more: a watcher is asked nothing
    leave_first = "you watch table 1; send Leave to stop watching first"
    for msg in (
        {"Type": "Join", "Table": 2},
        {"Type": "Game", "Option": 1},
        {"Type": "Watch", "Table": 2},
    ):
        assert watcher.send(msg) == [{"Type": "Error", "Code": "not_now", "Message": leave_first}]
    for msg in (
        {"Type": "Hello", "Message": "create"},
        {"Type": "Hello", "Message": "join"},
        {"Type": "Hello", "Token": h.tokens[0]},
        {"Type": "Hello"},
    ):
        (error,) = watcher.send(msg)
        assert error["Code"] == "not_now"
    assert ann.pending() == prompt  # nothing changed at the table
    assert h.hub.lobby.tables[1].watchers == [watcher.conn]


def test_a_person_at_a_table_cannot_watch_and_leave_gives_the_seat_up() -> None:
    h = Harness("watch-seated")
    ann = h.create(Option=1)
    bob = h.create("bob", Option=4)
    told = ann.send({"Type": "Watch", "Table": 2})
    assert told[0] == {
        "Type": "Error",
        "Code": "not_now",
        "Message": "you sit at a table; a person at a table cannot watch one (quit first)",
    }
    assert is_prompt(told[1])  # the prompt again, as after any error at a seat
    # Leave from a seat at a game under way: back to the lobby, and an AI plays the
    # seat from then on, no grace waited; the game, with no person left, is played to
    # its end rather than abandoned (here at once: the harness's AI does not pause).
    table = h.hub.lobby.tables[1]
    assert ann.send({"Type": "Leave"}) == [QUESTION, HELLO]
    seat = table.seats[0]
    assert seat is not None
    assert (seat.conn, seat.away_until) == (None, None)
    assert seat.bot is not None
    assert table.game is not None
    assert is_over(table.game)
    # From a table that waits: the seat is free, and the empty table closes.
    assert bob.send({"Type": "Leave"}) == [QUESTION, HELLO]
    assert 2 not in h.hub.lobby.tables
    lobby = h.json_client("cy")
    assert lobby.send({"Type": "Leave"}) == [
        {
            "Type": "Error",
            "Code": "not_now",
            "Message": "Leave stops watching a table, and you watch none",
        },
        HELLO,
    ]


def test_leave_goes_back_to_the_lobby_and_a_watcher_may_then_sit() -> None:
    h = Harness("watch-leave")
    ann = h.create(Option=4)
    watcher = h.watcher(1)
    ann.take()
    assert watcher.send({"Type": "Leave"}) == [QUESTION, HELLO]
    assert ann.take() == [h.hub.lobby.tables[1].info()]  # the count, down again
    assert h.hub.lobby.tables[1].info()["Watchers"] == 0
    told = watcher.send({"Type": "Join", "Table": 1})
    assert told[1]["Type"] == "Seat"
    assert h.hub.lobby.tables[1].names()[:2] == ["ann", "wat"]


def test_a_watcher_that_drops_is_simply_removed() -> None:
    h = Harness("watch-drop")
    ann = h.create(Option=1)
    watchers = [h.json_client(n) for n in ("wat", "wit")]
    for w in watchers:
        w.send({"Type": "Watch", "Table": 1})
    tokens = dict(h.hub.lobby.tokens)
    watchers[0].disconnect()
    table = h.hub.lobby.tables[1]
    assert table.watchers == [watchers[1].conn]
    assert ann.take() == []  # nothing to tell the people: no seat waits, no grace
    assert h.hub.lobby.tokens == tokens
    assert table.deadline is None
    play_until_over([ann], random.Random(4))
    assert watchers[1].messages[-2:] == [QUESTION, HELLO]


def test_hello_quit_ends_a_watchers_connection() -> None:
    h = Harness("watch-quit")
    h.create(Option=1)
    watcher = h.watcher(1)
    assert watcher.send({"Type": "Hello", "Message": "quit"}) == [
        {"Type": "Message", "Message": "Ok, bye bye!"}
    ]
    assert watcher.closed
    assert h.hub.lobby.tables[1].watchers == []


def test_a_watcher_sees_the_end_of_the_game_and_is_back_in_the_lobby() -> None:
    h = Harness("watch-end")
    ann = h.create(Option=1)
    watcher = h.watcher(1)
    play_until_over([ann], random.Random(5))
    over = ann.game_over()
    assert over is not None
    end = watcher.messages[-4:]
    assert end[0] == {k: v for k, v in over.items() if k != "Win"}
    assert end[1] == ann.last("Reveal")
    assert end[2:] == [QUESTION, HELLO]
    assert h.hub.lobby.sessions.in_lobby(watcher.conn)
    assert check_watcher_stream(watcher.messages) == 1
    assert check_stream(ann.messages, h.table_seeds()) == 1


def test_a_game_nobody_plays_any_more_and_a_table_nobody_waits_at_send_watchers_away() -> None:
    h = Harness("watch-gone")
    ann = h.create(Option=1)
    bob = h.create("bob", Option=4)
    watchers = [h.json_client(n) for n in ("wat", "wit")]
    for w, table in zip(watchers, (1, 2), strict=True):
        w.send({"Type": "Watch", "Table": table})
    ann.send({"Type": "Hello", "Message": "quit"})
    assert watchers[0].take() == [
        {"Type": "Message", "Message": "The game at table 1 is over: nobody plays it any more"},
        QUESTION,
        HELLO,
    ]
    bob.send({"Type": "Hello", "Message": "quit"})
    assert watchers[1].take() == [
        {"Type": "Message", "Message": "Table 2 closed: nobody waits at it any more"},
        QUESTION,
        HELLO,
    ]
    assert h.hub.lobby.tables == {}
    assert all(h.hub.lobby.sessions.in_lobby(w.conn) for w in watchers)


def test_watchers_hear_what_the_table_tells_everyone() -> None:
    """Who lost their connection, who came back with the token, whose time ran out."""
    h = Harness("watch-notices")
    h.hub.lobby.limits = Limits(grace=60.0, turn_timeout=30.0)
    ann = h.create(Option=1)
    watcher = h.watcher(1)
    h.advance(31)
    assert {"Type": "Message", "Message": "ann ran out of time; the server played for seat 0"} in (
        watcher.take()
    )
    ann.disconnect()
    assert watcher.take() == [
        {
            "Type": "Message",
            "Message": "ann lost their connection; seat 0 waits 60 s for them to come back",
        }
    ]
    again = h.json_client("ann")
    again.send({"Type": "Hello", "Token": h.tokens[0]})
    assert {"Type": "Message", "Message": "ann is back at seat 0"} in watcher.take()


def test_a_watchers_lines_all_count_against_the_rate_limit() -> None:
    h = Harness("watch-rate")
    h.hub.lobby.limits = Limits(rate=1.0, burst=3)
    h.create(Option=1)
    watcher = h.json_client("wat")
    now = 0.0
    codes = []
    for i in range(6):
        msg = {"Type": "Watch", "Table": 1} if i % 2 == 0 else {"Type": "Leave"}
        h.apply(h.hub.receive(watcher.conn, json.dumps(msg).encode(), now=now))
        codes += [m.get("Code") for m in watcher.take() if m["Type"] == "Error"]
    assert "rate_limited" in codes


def test_watchers_are_not_told_their_game_is_saved_at_shutdown(tmp_path: Any) -> None:
    h = Harness("watch-shutdown", durable=True)
    h.create(Option=1)
    watcher = h.watcher(1)
    h.apply(h.hub.shutdown())
    assert watcher.take() == [{"Type": "Message", "Message": "The server is shutting down. Bye!"}]


def test_the_classic_port_has_no_watching() -> None:
    hub = Hub(seed_source=lambda: "classic-watch", ai=AISettings("naive"))
    conn, _ = hub.connect("classic", codecs.CLASSIC)
    out = hub.receive(conn, b'{"Type":"Hello","Message":"watch"}\n')
    assert [c.data for c in out if isinstance(c, Send)] == [b'{"Type":"Hello"}\n']
    out = hub.receive(conn, b'{"Type":"Watch","Table":1}\n')
    assert not any(isinstance(c, Close) for c in out)
    assert all(b"Tables" not in c.data for c in out if isinstance(c, Send))


# ------------------------------------------------------------------ text mode


def test_text_mode_watches_lists_and_leaves() -> None:
    h = Harness("watch-text")
    ann = h.create(Option=1)
    nc = h.connect()
    nc.take_text()
    shown = nc.say("watch")
    assert shown[0] == "Tables to watch:"
    assert shown[1] == "     1  table 1: ann, AI 1, AI 2, AI 3 (Hundred and Ten)"
    assert shown[-1] == "> watch ID, or create"
    shown = nc.say("watch 1")
    assert shown[0] == (
        "Table 1: ann, AI 1, AI 2, AI 3 (naive AI) (1 watching). You are watching: "
        "leave stops (no cards are shown to you)"
    )
    assert shown[2].startswith("── Watching, round 1 (")
    assert not any(line.startswith("Your hand") for line in shown)
    assert shown[-1].startswith("(waiting for ann to ")
    rng = random.Random(6)
    for _ in range(30):
        prompt = ann.pending()
        if prompt is None:
            break
        ann.send(answer_from_legal(prompt, rng))
    lines = nc.take_text()
    assert any(line.startswith("── Round 2: AI 1 deals.") for line in lines), lines
    assert not any("You are seat" in line or line.startswith("Your hand") for line in lines)
    assert any(line.startswith("ann played ") for line in lines)
    assert nc.say("leave") == [QUESTION["Message"], "> create, join, quit (or help)"]
    help_lines = "\n".join(nc.say("help"))  # the lobby's
    assert "watch, watch ID" in help_lines
    assert "nowatch" in help_lines
    assert any(line.startswith("Table 2: you,") for line in nc.say("create 1 nowatch"))
    assert h.hub.lobby.tables[2].watchable is False
    help_lines = "\n".join(nc.say("help"))  # at the table
    assert "watch, watch ID" not in help_lines
    assert "  leave             back to the lobby; an AI plays your seat from now on" in help_lines


def test_text_mode_shows_the_watch_count_and_its_errors() -> None:
    h = Harness("watch-text-errors")
    h.create(Option=1, Watchers=False)
    nc = h.connect()
    nc.take_text()
    assert nc.say("watch 1") == [
        "! table 1 takes no watchers (no_watchers)",
        "> create, join, quit (or help)",
    ]
    assert nc.say("watch one")[0].startswith("! expected a number, as in: watch 7")
    assert nc.say("watch")[0] == "No tables to watch right now. Type create, or watch again later."
    bob = h.create("bob", Option=4)
    h.json_client("wat").send({"Type": "Watch", "Table": 2})
    assert bob.last("Table")["Watchers"] == 1
    assert nc.say("join")[1] == "     2  table 2: bob, (free), (free), (free)"
    assert (
        nc.say("watch")[1]
        == "     2  table 2: bob, (free), (free), (free) (Hundred and Ten, 1 watching)"
    )


# ------------------------------------------------------------------ the leak check


def two_people(name: str) -> Message:
    """A ``Game`` answer for a table of ``name`` that waits for a second person, with
    AI seats if the game has a mode with two people and AI."""
    spec = games.get(name)
    for option, preset in enumerate(spec.presets, 1):
        if preset.seats - len(preset.ai_seats) == 2 and preset.ai_seats:
            return {"Type": "Game", "Game": name, "Option": option}
    seats = min(n for n in spec.seat_counts if n >= 3)
    return {"Type": "Game", "Game": name, "Option": len(spec.presets) + 1, "Seats": seats,
            "Bots": seats - 2}  # fmt: skip


def watched_game(name: str, early: bool, answers: list[int], seed: int) -> None:
    """A game of ``name`` for two people and AI, played from ``Legal`` to its end;
    with ``early`` a watcher comes while the table waits, and one more comes after each
    number of answers in ``answers``. Every watcher's stream passes
    ``check_watcher_stream`` and is, game messages told alike, a seat's from the
    moment it came."""
    h = Harness(f"leak-{name}-{seed}")
    rng = random.Random(seed)
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create"})
    ann.send(two_people(name))
    watchers: list[tuple[Client, int]] = []  # a watcher, and ann's messages when it came

    def watch(who: str) -> None:
        onlooker = h.json_client(who)
        onlooker.messages.clear()  # its stream from its Watch on
        onlooker.send({"Type": "Watch", "Table": 1})
        watchers.append((onlooker, len(ann.messages)))

    if early:
        watch("early")
    bob = h.json_client("bob")
    bob.send({"Type": "Hello", "Message": "join"})
    bob.send({"Type": "Join", "Table": 1})
    people = [ann, bob]
    due = sorted(answers)
    for given_answers in range(20000):
        while due and due[0] <= given_answers:
            due.pop(0)
            if ann.game_over() is None:
                watch(f"w{len(watchers)}")
        live = [c for c in people if c.game_over() is None]
        if not live:
            break
        ((client, prompt),) = [(c, p) for c in live if (p := c.pending()) is not None]
        client.send(answer_from_legal(prompt, rng))
    assert ann.game_over() is not None
    for onlooker, since in watchers:
        assert check_watcher_stream(onlooker.messages) == 1
        assert onlooker.messages[0]["Type"] == "Table"
        start = next((i for i, m in enumerate(onlooker.messages) if m["Type"] == "Snapshot"), None)
        mine = onlooker.messages if start is None else onlooker.messages[start + 2 :]
        seats = ann.messages[since:]
        assert public_part(mine)  # it saw the game go on
        assert public_part(mine) == public_part(seats), (name, since)
        assert public_part(bob.messages)[-len(public_part(mine)) :] == public_part(mine)


@pytest.mark.parametrize("name", games.names())
def test_watchers_before_the_start_and_mid_round_see_no_hidden_card(name: str) -> None:
    watched_game(name, early=True, answers=[0, 17], seed=1)


@pytest.mark.parametrize("name", games.names())
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(
    early=st.booleans(),
    answers=st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=2),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_no_watcher_of_any_game_sees_a_hidden_card(
    name: str, early: bool, answers: list[int], seed: int
) -> None:
    watched_game(name, early, answers, seed)


def test_the_watcher_leak_check_catches_a_leak() -> None:
    deal = {"Type": "Deal", "Dealer": 0, "Round": 1, "Players": ["ann", "bob"]}
    table = {"Type": "Table", "Table": 1, "Name": "t", "Game": "hundredandten", "Seats": 2,
             "Free": 0, "Players": ["ann", "bob"], "AI": "naive", "Watchers": 1}  # fmt: skip
    end = [
        {"Type": "Score", "GameOver": True, "Winner": 0, "Score": [110, 0]},
        {"Type": "Reveal", "Table": 1, "Game": "hundredandten", "Seed": "s", "Hash": "0" * 64},
        QUESTION,
        HELLO,
    ]
    good = [table, deal, {"Type": "Play", "Playerid": 1, "PlayedCard": "5H"}, *end]
    assert check_watcher_stream(good, schema=False) == 1
    leaks = {
        "a deal with a hand": [table, {**deal, "Playerid": 0, "Hand": ["5H"]}, *end],
        "a card in a message": [table, deal, {"Type": "Message", "Message": "ann holds AS"}, *end],
        "a discard's cards": [
            table,
            deal,
            {"Type": "Discard", "Playerid": 0, "Count": 1, "Cards": ["2C"]},
            *end,
        ],
        "Legal": [table, deal, {"Type": "Bid", "Playerid": 0, "Seq": 1, "Legal": [0]}, *end],
        "a Win": [table, deal, {**end[0], "Win": True}, *end[1:]],
        "no end": [table, deal],
        "a prompt's winning card not played": [
            table,
            deal,
            {
                "Type": "Play",
                "Playerid": 0,
                "Seq": 2,
                "Trump": "H",
                "Lead": "H",
                "WinningCard": "AH",
            },
            *end,
        ],
    }
    for why, stream in leaks.items():
        with pytest.raises(StreamError):
            check_watcher_stream(stream, schema=False)
        assert why
    rook = {**table, "Game": "rook"}
    trick = [
        {"Type": "Play", "Playerid": 0, "PlayedCard": "R14"},
        {"Type": "Play", "Playerid": 1, "PlayedCard": "R5"},
        {"Type": "Trick", "Playerid": 0, "WinningCard": "R14", "Trick": 1},
        {"Type": "Play", "Playerid": 0, "PlayedCard": "G5"},
    ]
    assert check_watcher_stream([rook, deal, *trick, *end], schema=False) == 1
    named = {"Type": "Message", "Message": "the last trick had Red 14"}
    with pytest.raises(StreamError, match="not face up"):
        check_watcher_stream([rook, deal, *trick, named, *end], schema=False)


def test_watch_may_come_from_the_create_options() -> None:
    h = Harness("watch-from-options")
    h.create(Option=1)
    onlooker = h.json_client("wat")
    onlooker.send({"Type": "Hello", "Message": "create"})
    assert kinds(onlooker.send({"Type": "Watch", "Table": 1}))[:3] == [
        "Table",
        "Commit",
        "Snapshot",
    ]


@pytest.mark.parametrize("name", games.names())
def test_a_text_mode_watcher_reads_a_whole_game_of_every_game(name: str) -> None:
    """Each game's text view renders a watcher's messages (no seat, no hand): no line
    falls back to JSON, none shows a hand, and the game over reads as for a loser."""
    h = Harness(f"watch-text-{name}")
    ann = h.create("ann", name, Option=1)
    rng = random.Random(7)
    for _ in range(5):
        ann.answer(rng)
    nc = h.connect()
    nc.take_text()
    shown = nc.say("watch 1")
    assert "You are watching" in shown[0]
    assert shown[2].startswith("── Watching, ")
    play_until_over([ann], rng)
    lines = shown + nc.take_text()
    assert not [line for line in lines if line.startswith("{")]
    assert not [line for line in lines if "Your hand" in line or "You are seat" in line]
    assert any(line.startswith("Game over. ") and "You win" not in line for line in lines)
    assert lines[-1] == "> create, join, quit (or help)"


def test_text_mode_says_you_are_watching_only_when_you_are() -> None:
    h = Harness("watch-text-refused")
    h.create(Option=4, Watchers=False)
    nc = h.connect()
    nc.take_text()
    assert nc.say("watch 1")[0] == "! table 1 takes no watchers (no_watchers)"
    (line,) = [line for line in nc.say("join 1") if line.startswith("Table 1:")]
    assert line.startswith("Table 1: ann, you")
    assert "watching" not in line
