"""The lobby through ``Hub`` alone (no sockets): greeting, create, join, quit, names,
and every error the lobby can give, with its exact Code and the prompt again."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from hundred_server import games
from hundred_server.config import AISettings
from hundred_server.core.fairness import commit_message
from hundred_server.core.hub import Close, Hub, Send
from hundred_server.core.lobby import options
from hundred_server.core.table import TableState
from hundred_server.protocol.schema import is_valid_server_message
from hundred_server.protocol.wire import MAX_LINE
from tests.support import protocol_examples
from tests.support.hub_harness import GREETING, HELLO, QUESTION, Client, Harness

GAME = {"Type": "Game"}
HT_OPTIONS = options(games.get("hundredandten"))
OPTION_LINES = [{"Type": "Message", "Message": text} for text in HT_OPTIONS]
DOC_OPTION_LINES = protocol_examples.OPTION_LINES


def table(
    tid: int, seats: int, players: list[str | None], name: str = "", ai: str = "naive"
) -> dict[str, Any]:
    return {
        "Type": "Table",
        "Table": tid,
        "Name": name or f"table {tid}",
        "Game": "hundredandten",
        "Seats": seats,
        "Free": players.count(None),
        "Players": players,
        "AI": ai,
        "Watchers": 0,
    }


def seat(tid: int, playerid: int, n: int) -> dict[str, Any]:
    """The Seat message of the ``n``-th sitting in a harness (its token is the n-th)."""
    return {"Type": "Seat", "Table": tid, "Playerid": playerid, "Token": f"{n:032x}"}


def entry(tid: int, seats: int, players: list[str | None], name: str = "") -> dict[str, Any]:
    info = table(tid, seats, players, name)
    del info["Type"]
    return info


def at_options(h: Harness, name: str | None = "ann") -> Client:
    client = h.json_client(name)
    assert client.send({"Type": "Hello", "Message": "create"})[-1] == GAME
    return client


def error_of(replies: list[dict[str, Any]]) -> dict[str, Any]:
    assert replies, "no reply"
    assert replies[0]["Type"] == "Error", replies
    return replies[0]


# ---------------------------------------------------------------------- the AI


def ai_bots(h: Harness, table_id: int) -> list[object]:
    return [
        s.bot for s in h.hub.lobby.tables[table_id].seats if s is not None and s.bot is not None
    ]


@pytest.mark.parametrize("name", games.names())
def test_a_new_table_gets_the_strong_ai_unless_it_asks_for_the_naive_one(name: str) -> None:
    spec = games.get(name)
    h = Harness(ai="strong")  # the server's default (Hub() and serve without --ai)
    for asked, level in (({}, "strong"), ({"AI": "naive"}, "naive"), ({"AI": "Strong"}, "strong")):
        client = h.json_client()
        client.send({"Type": "Hello", "Message": "create", "Game": name})
        replies = client.send({"Type": "Game", "Option": 1, **asked})
        assert replies[0]["Type"] == "Table"
        assert replies[0]["AI"] == level
        bots = ai_bots(h, replies[0]["Table"])
        assert bots
        assert all(type(b) is spec.bots[level] for b in bots)
    assert Hub().lobby.ai == "strong"


def test_the_naive_ai_can_be_the_servers_default_and_a_table_may_still_ask_for_strong() -> None:
    h = Harness(ai="naive")
    client = at_options(h)
    assert client.send({"Type": "Game", "Option": 2})[0]["AI"] == "naive"
    other = at_options(h, "bob")
    assert (
        other.send({"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1, "AI": "strong"})[0]["AI"]
        == "strong"
    )
    with pytest.raises(ValueError, match="no AI 'clever'"):
        Hub(ai=AISettings("clever"))


def test_the_open_tables_say_which_ai_plays_them() -> None:
    h = Harness(ai="strong")
    ann = at_options(h)
    ann.send({"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1, "AI": "naive"})
    bob = h.json_client("bob")
    tables = bob.send({"Type": "Hello", "Message": "join"})[0]
    assert tables["Tables"] == [
        {
            "Table": 1,
            "Name": "table 1",
            "Game": "hundredandten",
            "Seats": 3,
            "Free": 1,
            "Players": ["ann", "AI 1", None],
            "AI": "naive",
            "Watchers": 0,
        }
    ]
    assert is_valid_server_message(tables)


def test_the_strong_ai_of_a_table_thinks_within_the_servers_budget() -> None:
    h = Harness(ai="strong")
    h.hub.lobby.ai_budget = 0.01
    h.create(None, "whist", Option=1)
    bots = ai_bots(h, 1)
    assert len(bots) == 3
    assert all(getattr(b, "budget", None) == 0.01 for b in bots)


def test_a_plug_in_names_itself_as_the_tables_ai() -> None:
    h = Harness(ai="strong")
    h.hub.lobby.plugins = {"whist": "whist=mybot:Player"}
    client = h.json_client()
    client.send({"Type": "Hello", "Message": "create", "Game": "whist"})
    replies = client.send({"Type": "Game", "Option": 1, "AI": "naive"})
    assert replies[0]["AI"] == "whist=mybot:Player"
    assert is_valid_server_message(replies[0])


@pytest.mark.parametrize(
    ("command", "level", "shown"),
    [
        ("create 1", "strong", "Table 1: you, AI 1, AI 2, AI 3 (strong AI)"),
        ("create 1 naive", "naive", "Table 1: you, AI 1, AI 2, AI 3 (naive AI)"),
        ("create 2 NAIVE", "naive", "Table 1: you, AI 1, AI 2 (naive AI)"),
        (
            "create 5 3 1 naive friday",
            "naive",
            "Table 1 (friday): you, AI 1, (free) (naive AI). Waiting for 1 more "
            "(others type: join 1)",
        ),
        ("create 4 naive", "naive", "Table 1: you, (free), (free), (free). "
         "Waiting for 3 more (others type: join 1)"),
    ],
)  # fmt: skip
def test_text_mode_asks_for_the_naive_ai_with_a_word(command: str, level: str, shown: str) -> None:
    h = Harness(ai="strong")
    person = h.connect()
    said = person.say(command)
    assert next(line for line in said if line.startswith("Table 1")) == shown
    assert h.hub.lobby.tables[1].ai.level == level


def test_text_mode_refuses_two_ais_and_help_tells_of_the_word() -> None:
    h = Harness(ai="strong")
    person = h.connect()
    person.say("create")
    said = person.say("1 naive strong")
    assert said[0] == "! one AI a table, not naive and strong (naive or strong) (bad_option)"
    assert h.hub.lobby.tables == {}
    assert any("create ... naive" in line for line in person.say("help"))


# ---------------------------------------------------------------------- greeting


def test_greeting_is_the_lobby_question_then_hello() -> None:
    h = Harness()
    conn, commands = h.hub.connect("127.0.0.1:5555")
    assert commands == [  # one Send a connection, its lines in order
        Send(
            conn,
            b'{"Type":"Message","Message":"Do you want to join a game, create a new game, '
            b"or quit? (join, create, quit) At netcat or telnet? Type help: any word switches "
            b'to plain text."}\n{"Type":"Hello"}\n',
        ),
    ]


def test_the_classic_and_websocket_greetings_are_the_lobby_question() -> None:
    h = Harness()
    for listener in ("classic", "websocket"):
        _conn, commands = h.hub.connect("127.0.0.1:5555", listener)
        assert isinstance(commands[0], Send)
        assert b"netcat" not in commands[0].data
        assert b"(join, create, quit)" in commands[0].data


def test_each_connection_gets_its_own_greeting() -> None:
    h = Harness()
    a, b = h.connect(), h.connect()
    assert a.conn != b.conn
    assert a.messages == b.messages == [GREETING, HELLO]


def test_a_bare_hello_asks_again() -> None:
    h = Harness()
    client = h.json_client("ann")
    assert client.send({"Type": "Hello"}) == [QUESTION, HELLO]
    client.send({"Type": "Hello", "Message": "join"})
    assert client.send({"Type": "Hello"}) == [QUESTION, HELLO]  # back from the tables


def test_hello_with_a_name_only_greets_and_asks_again() -> None:
    h = Harness()
    client = h.json_client()
    assert client.send({"Type": "Hello", "Name": "ann"}) == [
        {"Type": "Message", "Message": "Hello, ann."},
        QUESTION,
        HELLO,
    ]


# ------------------------------------------------------------------------ create


def test_create_lists_the_options_then_the_game_prompt() -> None:
    h = Harness()
    client = h.json_client()
    replies = client.send({"Type": "Hello", "Message": "create", "Name": "ann"})
    assert replies == [*({"Type": "Message", "Message": t} for t in DOC_OPTION_LINES), GAME]
    assert replies[:-1] == OPTION_LINES


@pytest.mark.parametrize(("option", "seats"), [(1, 4), (2, 3), (3, 2)])
def test_options_1_to_3_start_at_once_against_ai(option: int, seats: int) -> None:
    h = Harness()
    client = at_options(h)
    replies = client.send({"Type": "Game", "Option": option})
    ais = [f"AI {i}" for i in range(1, seats)]
    players: list[str | None] = ["ann", *ais]
    assert replies[0] == table(1, seats, players)
    assert replies[1] == seat(1, 0, 1)
    assert h.tokens == [f"{1:032x}"]
    roster = ", ".join(["ann", *(f"{ai} (AI)" for ai in ais)])
    assert replies[2] == {"Type": "Message", "Message": f"Table 1 (table 1) starts: {roster}"}
    # Before the first deal, the table's commitment to the seed it deals from.
    assert replies[3] == commit_message(1, "hundredandten", h.seeds[0])
    deal = replies[4]
    assert deal["Type"] == "Deal"
    assert {k: deal[k] for k in ("Playerid", "Dealer", "Round", "Players")} == {
        "Playerid": 0,
        "Dealer": 0,
        "Round": 1,
        "Players": players,
    }
    assert len(deal["Hand"]) == 5
    # Seat 0 deals, so the AI seats bid first, at once; then the person is asked.
    bids = [m for m in replies[5:-1] if m["Type"] == "Bid"]
    assert [b["Playerid"] for b in bids] == list(range(1, seats))
    assert replies[5:-1] == bids
    prompt = replies[-1]
    assert {k: prompt[k] for k in ("Type", "Playerid", "Seq")} == {
        "Type": "Bid",
        "Playerid": 0,
        "Seq": 1,
    }
    assert set(prompt["Legal"]) <= {0, 15, 20, 25, 30, 60}
    assert 0 in prompt["Legal"]
    assert h.hub.lobby.tables[1].state is TableState.PLAYING


def test_option_4_waits_and_joiners_see_the_tables_and_updates() -> None:
    h = Harness()
    ann = at_options(h)
    assert ann.send({"Type": "Game", "Option": 4}) == [
        table(1, 4, ["ann", None, None, None]),
        seat(1, 0, 1),
    ]

    bob = h.json_client("bob")
    assert bob.send({"Type": "Hello", "Message": "join"}) == [
        {"Type": "Tables", "Tables": [entry(1, 4, ["ann", None, None, None])]}
    ]
    assert bob.send({"Type": "Join", "Table": 1}) == [
        table(1, 4, ["ann", "bob", None, None]),
        seat(1, 1, 2),
    ]
    assert ann.take() == [table(1, 4, ["ann", "bob", None, None])]

    cy = h.json_client("cy")
    cy.send({"Type": "Hello", "Message": "join"})
    assert cy.send({"Type": "Join", "Table": 1}) == [
        table(1, 4, ["ann", "bob", "cy", None]),
        seat(1, 2, 3),
    ]
    assert ann.take() == bob.take() == [table(1, 4, ["ann", "bob", "cy", None])]

    dee = h.json_client("dee")
    assert dee.send({"Type": "Hello", "Message": "join"}) == [
        {"Type": "Tables", "Tables": [entry(1, 4, ["ann", "bob", "cy", None])]}
    ]
    replies = {dee.conn: dee.send({"Type": "Join", "Table": 1})}
    full = table(1, 4, ["ann", "bob", "cy", "dee"])
    start = {"Type": "Message", "Message": "Table 1 (table 1) starts: ann, bob, cy, dee"}
    for at, person in enumerate((ann, bob, cy, dee)):
        got = replies.get(person.conn) or person.take()
        # Only dee, who sits now, is told a seat and token (right after the table).
        if person is dee:
            assert got[:2] == [full, seat(1, 3, 4)]
            got = [got[0], *got[2:]]
        assert got[:3] == [full, start, commit_message(1, "hundredandten", h.seeds[0])]
        assert got[3]["Type"] == "Deal"
        assert got[3]["Playerid"] == at
        assert got[3]["Players"] == ["ann", "bob", "cy", "dee"]
        prompt = {"Type": "Bid", "Playerid": 1, "Seq": 1}
        if at == 1:
            prompt["Legal"] = [0, 15, 20, 25, 30, 60]
        assert got[4:] == [prompt]
    assert h.tokens == [f"{n:032x}" for n in range(1, 5)]
    # A started table is no longer open.
    eve = h.json_client("eve")
    assert eve.send({"Type": "Hello", "Message": "join"}) == [{"Type": "Tables", "Tables": []}]


def test_join_may_come_straight_from_the_lobby_question() -> None:
    h = Harness()
    ann = at_options(h)
    ann.send({"Type": "Game", "Option": 5, "Seats": 2})
    bob = h.json_client("bob")
    replies = bob.send({"Type": "Join", "Table": 1})
    assert replies[0] == table(1, 2, ["ann", "bob"])
    assert replies[1] == seat(1, 1, 2)
    assert replies[2] == {"Type": "Message", "Message": "Table 1 (table 1) starts: ann, bob"}
    assert replies[3] == commit_message(1, "hundredandten", h.seeds[0])
    assert replies[4]["Type"] == "Deal"


def test_a_turn_says_all_it_has_for_a_connection_in_one_send() -> None:
    """What one line makes the hub say goes out as one ``Send`` a connection, its
    lines in the order they were said (the join's table, seat, start and deal)."""
    h = Harness()
    ann = at_options(h)
    ann.send({"Type": "Game", "Option": 5, "Seats": 2})
    bob = h.json_client("bob")
    commands = h.hub.receive(bob.conn, json.dumps({"Type": "Join", "Table": 1}).encode())
    sends = [c for c in commands if isinstance(c, Send)]
    assert sorted(c.conn for c in sends) == sorted([ann.conn, bob.conn])
    mine = next(c for c in sends if c.conn == bob.conn)
    lines = [json.loads(line) for line in mine.data.splitlines()]
    assert [m["Type"] for m in lines[:5]] == ["Table", "Seat", "Message", "Commit", "Deal"]
    assert lines[-1]["Type"] == "Bid"  # the first prompt, last


def test_tables_lists_only_open_tables_and_may_be_empty() -> None:
    h = Harness()
    lookers = h.json_client("zed")
    assert lookers.send({"Type": "Hello", "Message": "join"}) == [{"Type": "Tables", "Tables": []}]
    at_options(h, "ann").send({"Type": "Game", "Option": 1})  # starts at once: not open
    at_options(h, "bob").send({"Type": "Game", "Option": 5, "Seats": 3, "Name": "friday"})
    at_options(h, "cy").send({"Type": "Game", "Option": 4})
    listing = h.json_client("dee").send({"Type": "Hello", "Message": "join"})
    assert listing == [
        {
            "Type": "Tables",
            "Tables": [
                entry(2, 3, ["bob", None, None], "friday"),
                entry(3, 4, ["cy", None, None, None]),
            ],
        }
    ]


def test_hello_goes_back_from_the_tables() -> None:
    h = Harness()
    client = h.json_client()
    client.send({"Type": "Hello", "Message": "join"})
    assert client.send({"Type": "Hello", "Message": "create"})[-1] == GAME


def test_option_5_makes_the_table_asked_for() -> None:
    h = Harness()
    ann = at_options(h)
    replies = ann.send({"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1, "Name": "friday"})
    assert len(replies) == 2
    assert replies[1] == seat(1, 0, 1)
    info = replies[0]
    assert {k: info[k] for k in ("Type", "Table", "Name", "Game", "Seats", "Free")} == {
        "Type": "Table",
        "Table": 1,
        "Name": "friday",
        "Game": "hundredandten",
        "Seats": 3,
        "Free": 1,
    }
    assert info["Players"][0] == "ann"
    assert sorted(info["Players"][1:], key=str) == ["AI 1", None]
    bob = h.json_client("bob")
    replies = bob.send({"Type": "Join", "Table": 1})
    assert replies[0]["Free"] == 0
    assert "bob" in replies[0]["Players"]
    assert replies[1] == seat(1, replies[0]["Players"].index("bob"), 2)
    assert replies[2] == {
        "Type": "Message",
        "Message": "Table 1 (friday) starts: "
        + ", ".join(p if p != "AI 1" else "AI 1 (AI)" for p in replies[0]["Players"]),
    }


def test_option_5_ai_seats_follow_the_creator_as_protocol_md_shows() -> None:
    h = Harness(ai="strong")  # the server's default
    ann = at_options(h)
    replies = ann.send({"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1, "Name": "friday"})
    assert replies == [
        {**protocol_examples.FRIDAY_TABLE, "Table": 1},
        {"Type": "Seat", "Table": 1, "Playerid": 0, "Token": h.tokens[0]},
    ]
    assert h.tokens == ["00000000000000000000000000000001"]


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(
            {"Option": 4, "Seats": 9, "Bots": 7, "Name": "<x>"},
            id="options-1-to-4-ignore-seats-bots-and-name",
        ),
        pytest.param({"Option": 5}, id="option-5-defaults-to-four-seats-no-ai-and-table-id-name"),
    ],
)
def test_a_table_of_four_people_waits_for_them(answer: dict[str, Any]) -> None:
    h = Harness()
    ann = at_options(h)
    replies = ann.send({"Type": "Game", **answer})
    assert replies == [table(1, 4, ["ann", None, None, None]), seat(1, 0, 1)]


@pytest.mark.parametrize(
    ("extra", "code", "quoted"),
    [
        ({"Option": 7}, "bad_option", "7"),
        ({"Option": 0}, "bad_option", "0"),
        ({"Option": 5, "Seats": 5}, "bad_option", "5"),
        ({"Option": 5, "Seats": 1}, "bad_option", "1"),
        ({"Option": 5, "Seats": 3, "Bots": 3}, "bad_option", "3"),
        ({"Option": 5, "Bots": 4}, "bad_option", "4"),
        ({"Option": 5, "Bots": -1}, "bad_option", "-1"),
        ({"Option": 5, "Name": ""}, "bad_name", '""'),
        ({"Option": 5, "Name": "x" * 31}, "bad_name", "xxxx"),
        ({"Option": 5, "Name": "a<b>"}, "bad_name", '"a<b>"'),
        ({"Option": 5, "Seats": "3"}, "bad_message", '"3"'),
        ({"Option": 1, "AI": "genius"}, "bad_option", 'AI is "strong" or "naive", not "genius"'),
        ({"Option": 5, "AI": 3}, "bad_option", "not 3"),
        ({"Option": 4, "AI": ""}, "bad_option", 'not ""'),
        ({"Option": "1"}, "bad_message", '"1"'),
        ({}, "bad_message", "Option"),
    ],
)
def test_game_errors_then_the_game_prompt_again(
    extra: dict[str, Any], code: str, quoted: str
) -> None:
    h = Harness()
    client = at_options(h)
    replies = client.send({"Type": "Game", **extra})
    assert [m["Type"] for m in replies] == ["Error", "Game"]
    assert replies[0]["Code"] == code
    assert quoted in replies[0]["Message"]
    assert replies[1] == GAME
    assert h.hub.lobby.tables == {}
    # Nothing changed: a good answer still works.
    assert client.send({"Type": "Game", "Option": 4})[0]["Type"] == "Table"


def test_option_5_refuses_bots_equal_to_seats_exactly() -> None:
    h = Harness()
    client = at_options(h)
    assert client.send({"Type": "Game", "Option": 5, "Seats": 3, "Bots": 3}) == [
        {"Type": "Error", "Code": "bad_option", "Message": "Bots must be from 0 to 2, got 3"},
        GAME,
    ]
    assert client.send({"Type": "Game", "Option": 5, "Seats": 5}) == [
        {"Type": "Error", "Code": "bad_option", "Message": "Seats must be from 2 to 4, got 5"},
        GAME,
    ]
    assert client.send({"Type": "Game", "Option": 7}) == [
        {"Type": "Error", "Code": "bad_option", "Message": "Option must be from 1 to 6, got 7"},
        GAME,
    ]


def test_table_names_may_be_30_characters() -> None:
    h = Harness()
    client = at_options(h)
    name = "Friday's table no. 7 - all in_"
    assert len(name) == 30
    assert client.send({"Type": "Game", "Option": 5, "Name": name})[0]["Name"] == name


def test_option_6_goes_back_to_the_lobby_question() -> None:
    h = Harness()
    client = at_options(h)
    assert client.send({"Type": "Game", "Option": 6}) == [QUESTION, HELLO]
    assert h.hub.lobby.tables == {}
    # Back at the question, Game is out of place again.
    assert error_of(client.send({"Type": "Game", "Option": 1}))["Code"] == "not_now"


# -------------------------------------------------------------------------- join


def test_join_a_table_that_does_not_exist() -> None:
    h = Harness()
    client = h.json_client()
    client.send({"Type": "Hello", "Message": "join"})
    assert client.send({"Type": "Join", "Table": 99}) == [
        {"Type": "Error", "Code": "no_such_table", "Message": "no open table 99"},
        {"Type": "Tables", "Tables": []},  # the prompt again: the open tables
    ]
    # Still looking at the tables: a Join to a real table works.
    at_options(h, "bob").send({"Type": "Game", "Option": 4})
    assert client.send({"Type": "Join", "Table": 1})[0]["Type"] == "Table"


def test_join_a_full_table_is_refused() -> None:
    """A table starts when full, so it is no longer open: ``no_such_table``.

    (``table_full`` is in protocol.md's error table but a Join cannot reach it.)
    """
    h = Harness()
    at_options(h, "ann").send({"Type": "Game", "Option": 5, "Seats": 2})
    h.json_client("bob").send({"Type": "Join", "Table": 1})  # full now, and playing
    cy = h.json_client("cy")
    cy.send({"Type": "Hello", "Message": "join"})
    assert cy.send({"Type": "Join", "Table": 1}) == [
        {
            "Type": "Error",
            "Code": "table_full",
            "Message": "table 1 is full: its game is under way",
        },
        {"Type": "Tables", "Tables": []},
    ]
    assert h.hub.lobby.tables[1].names() == ["ann", "bob"]


def waiting_with_bob(h: Harness) -> tuple[Client, Client]:
    """ann's table of four people (option 4), which bob joined; what ann was told, taken."""
    ann = at_options(h)
    ann.send({"Type": "Game", "Option": 4})
    bob = h.json_client("bob")
    bob.send({"Type": "Join", "Table": 1})
    ann.take()
    return ann, bob


def test_leaving_a_waiting_table_frees_the_seat_and_tells_the_others() -> None:
    h = Harness()
    ann, bob = waiting_with_bob(h)
    bob.disconnect()
    assert ann.take() == [table(1, 4, ["ann", None, None, None])]
    cy = h.json_client("cy")
    # cy takes bob's freed seat 1, with a token of its own (the third handed out).
    assert cy.send({"Type": "Join", "Table": 1}) == [
        table(1, 4, ["ann", "cy", None, None]),
        seat(1, 1, 3),
    ]
    # The last person leaving closes the table.
    ann.send({"Type": "Hello", "Message": "quit"})
    cy.disconnect()
    assert h.hub.lobby.tables == {}


def test_seated_waiting_only_quit_leaves() -> None:
    h = Harness()
    ann = at_options(h)
    ann.send({"Type": "Game", "Option": 4})
    for msg in (
        {"Type": "Hello", "Message": "create"},
        {"Type": "Hello", "Message": "join"},
        {"Type": "Join", "Table": 1},
        {"Type": "Game", "Option": 1},
        {"Type": "Bid", "Bid": 0},
    ):
        replies = ann.send(msg)
        assert [m["Code"] for m in replies] == ["not_now"], msg
    assert ann.send({"Type": "Hello", "Message": "quit"}) == [
        {"Type": "Message", "Message": "Ok, bye bye!"}
    ]
    assert ann.closed


# ------------------------------------------------------------- seats and tokens


def seats_told(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.messages if m["Type"] == "Seat"]


def test_every_person_who_sits_gets_one_seat_message_with_their_own_token() -> None:
    h = Harness()
    ann = at_options(h, "ann")
    ann.send({"Type": "Game", "Option": 4})
    others = [h.json_client(name) for name in ("bob", "cy", "dee")]
    for person in others:
        person.send({"Type": "Join", "Table": 1})
    eve = at_options(h, "eve")
    eve.send({"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1})
    fay = h.json_client("fay")
    fay.send({"Type": "Join", "Table": 2})
    gus = at_options(h, "gus")
    gus.send({"Type": "Game", "Option": 1})
    expected = [
        (ann, seat(1, 0, 1)),
        (others[0], seat(1, 1, 2)),
        (others[1], seat(1, 2, 3)),
        (others[2], seat(1, 3, 4)),
        (eve, seat(2, 0, 5)),
        (fay, seat(2, 2, 6)),  # the AI seat follows eve: fay sits after it
        (gus, seat(3, 0, 7)),
    ]
    for person, told in expected:
        assert seats_told(person) == [told]
        # The seat is the person's own: the one the Deal gives them.
        assert person.last("Deal")["Playerid"] == told["Playerid"]
        # Right after the first Table message of that sitting.
        at = person.messages.index(told)
        assert person.messages[at - 1]["Type"] == "Table"
        assert person.messages[at - 1]["Table"] == told["Table"]
    tokens = [told["Token"] for _, told in expected]
    assert len(set(tokens)) == len(tokens)
    assert tokens == h.tokens == [f"{n:032x}" for n in range(1, 8)]


def test_the_seat_message_goes_only_to_the_sitter() -> None:
    h = Harness()
    ann = at_options(h, "ann")
    ann.send({"Type": "Game", "Option": 5, "Seats": 3})
    bob, cy = h.json_client("bob"), h.json_client("cy")
    # ann is told of bob sitting down, but not bob's seat and token.
    assert bob.send({"Type": "Join", "Table": 1}) == [
        table(1, 3, ["ann", "bob", None]),
        seat(1, 1, 2),
    ]
    assert ann.take() == [table(1, 3, ["ann", "bob", None])]
    # cy fills the table: the game starts for all, and only cy is told a seat.
    full = table(1, 3, ["ann", "bob", "cy"])
    start = {"Type": "Message", "Message": "Table 1 (table 1) starts: ann, bob, cy"}
    cy_got = cy.send({"Type": "Join", "Table": 1})
    assert cy_got[:3] == [full, seat(1, 2, 3), start]
    ann_got, bob_got = ann.take(), bob.take()
    assert ann_got[:2] == bob_got[:2] == [full, start]
    assert "Seat" not in {m["Type"] for m in ann_got + bob_got + cy_got[2:]}
    people = [(ann, 0), (bob, 1), (cy, 2)]
    for person, at in people:
        assert seats_told(person) == [seat(1, at, at + 1)]
        # No one else's token reaches this connection, in any message.
        stream = b"".join(person.raw)
        for _, other in people:
            assert (h.tokens[other].encode() in stream) is (other == at)


def test_a_real_hub_hands_out_random_hex_tokens() -> None:
    hub = Hub()  # no token_source: the tokens are random
    told: list[dict[str, Any]] = []
    for _ in range(2):
        conn, _ = hub.connect("test")
        hub.receive(conn, b'{"Type":"Hello","Message":"create","Name":"ann"}\n')
        commands = hub.receive(conn, b'{"Type":"Game","Option":4}\n')
        replies = [
            json.loads(line)
            for command in commands
            if isinstance(command, Send)
            for line in command.data.splitlines()
        ]
        assert [m["Type"] for m in replies] == ["Table", "Seat"]
        assert {k: v for k, v in replies[1].items() if k != "Token"} == {
            "Type": "Seat",
            "Table": replies[0]["Table"],
            "Playerid": 0,
        }
        told.append(replies[1])
    assert [m["Table"] for m in told] == [1, 2]
    for msg in told:
        assert re.fullmatch(r"[0-9a-f]{32}", msg["Token"]), msg
        assert is_valid_server_message(msg)
    assert told[0]["Token"] != told[1]["Token"]


# -------------------------------------------------------------------------- quit


def test_quit_says_bye_bye_then_closes() -> None:
    h = Harness()
    conn, _ = h.hub.connect()
    commands = h.hub.receive(conn, b'{"Type":"Hello","Message":"quit"}\n')
    assert commands == [
        Send(conn, b'{"Type":"Message","Message":"Ok, bye bye!"}\n'),
        Close(conn),
    ]
    assert conn not in h.hub.lobby.sessions
    assert h.hub.receive(conn, b'{"Type":"Hello","Message":"create"}\n') == []
    assert h.hub.disconnect(conn) == []


def test_quit_from_the_options() -> None:
    h = Harness()
    client = at_options(h)
    assert client.send({"Type": "Hello", "Message": "quit"}) == [
        {"Type": "Message", "Message": "Ok, bye bye!"}
    ]
    assert client.closed


# -------------------------------------------------------------------------- names


@pytest.mark.parametrize("name", ["", "   ", "x" * 21, "ann!", "a\tb", "<b>", "ann\u00e9"])
def test_bad_names(name: str) -> None:
    h = Harness()
    client = h.json_client()
    replies = client.send({"Type": "Hello", "Message": "create", "Name": name})
    assert replies[0]["Code"] == "bad_name"
    assert json.dumps(name.strip(), ensure_ascii=False)[:20] in replies[0]["Message"]
    assert replies[1:] == [HELLO]
    # The name was not taken: the default is used.
    client.send({"Type": "Hello", "Message": "create"})
    assert client.send({"Type": "Game", "Option": 4})[0]["Players"][0] == f"player{client.conn}"


@pytest.mark.parametrize("name", ["a", "x" * 20, "Ann Lee", "a_b-c.d", "007"])
def test_good_names_are_kept_for_later(name: str) -> None:
    h = Harness()
    client = h.json_client()
    client.send({"Type": "Hello", "Message": "create", "Name": name})
    assert client.send({"Type": "Game", "Option": 4})[0]["Players"][0] == name


def test_default_name_is_player_n() -> None:
    h = Harness()
    client = at_options(h, name=None)
    assert client.send({"Type": "Game", "Option": 4})[0]["Players"][0] == f"player{client.conn}"


def test_duplicate_names_at_a_table_get_a_suffix() -> None:
    h = Harness()
    at_options(h, "ann").send({"Type": "Game", "Option": 5, "Seats": 3})
    bob = h.json_client("ann")
    assert bob.send({"Type": "Join", "Table": 1})[0]["Players"] == ["ann", "ann (2)", None]
    # An AI's name is taken too.
    h2 = Harness()
    replies = at_options(h2, "AI 1").send({"Type": "Game", "Option": 3})
    assert replies[0]["Players"][1] == "AI 1"
    assert replies[0]["Players"][0] not in ("AI 1", None)


@pytest.mark.parametrize("name", ["ann", "x" * 20])
def test_suffixed_names_are_valid_names_on_the_wire(name: str) -> None:
    h = Harness()
    at_options(h, name).send({"Type": "Game", "Option": 5, "Seats": 3})
    h.json_client(name).send({"Type": "Join", "Table": 1})
    replies = h.json_client(name).send({"Type": "Join", "Table": 1})
    assert replies[0]["Players"] == [name, f"{name} (2)", f"{name} (3)"]
    assert replies[1] == seat(1, 2, 3)
    assert replies[4]["Players"] == [name, f"{name} (2)", f"{name} (3)"]  # the Deal
    for msg in replies:
        assert is_valid_server_message(msg), msg


# -------------------------------------------------------------------- lobby errors


@pytest.mark.parametrize(
    ("line", "code", "message"),
    [
        (b"{not json", "bad_json", 'not JSON: "{not json"'),
        (b"[1, 2]", "bad_json", 'not a JSON object: "[1, 2]"'),
        (b'"create"', "bad_json", 'not a JSON object: "\\"create\\""'),
        (b"\xff\xfe{}", "bad_json", "not UTF-8: b'\\xff\\xfe{}'"),
        (
            b'{"a":' * 1300 + b"1" + b"}" * 1300,  # too deep for json, not too long
            "bad_json",
            "not JSON: " + json.dumps('{"a":' * 12)[:57] + "...",  # quoted, cut short
        ),
        (b'{"Type":5}', "bad_message", "a message needs a string Type, got 5"),
        (b'{"Message":"create"}', "bad_message", "a message needs a string Type, got null"),
        (b'{"Type":"Hello","Message":5}', "bad_message", "Message must be a string, got 5"),
        (b'{"Type":"Join"}', "bad_message", "Join needs Table"),
        (b'{"Type":"Join","Table":"7"}', "bad_message", 'Table must be a whole number, got "7"'),
        (
            b'{"Type":"Dance"}',
            "unknown_type",
            'unknown Type "Dance" (clients send Bid, Chat, Discard, Game, Hello, Join, Leave, '
            "Mute, Play, Setup, Trump, Unmute, Unpass, Watch)",
        ),
        (
            b'{"Type":"Hello","Message":"dance"}',
            "bad_choice",
            'Message must be create, join, watch or quit, not "dance"',
        ),
        (
            b'{"Type":"Hello","Message":"create","Name":"ann!"}',
            "bad_name",
            'a name is 1-20 letters, digits, spaces, _ - . : not "ann!"',
        ),
        (
            b'{"Type":"Bid","Bid":20}',
            "not_now",
            "Bid answers a game prompt; you are not in a game",
        ),
        (
            b'{"Type":"Play","PlayedCard":"AS"}',
            "not_now",
            "Play answers a game prompt; you are not in a game",
        ),
        (
            b'{"Type":"Game","Option":1}',
            "not_now",
            "Game answers the create options; say Hello create first",
        ),
        (b'{"Type":"Join","Table":3}', "no_such_table", "no open table 3"),
    ],
)
def test_lobby_errors_are_exact_and_the_question_comes_again(
    line: bytes, code: str, message: str
) -> None:
    h = Harness()
    client = h.json_client("ann")  # the first line, JSON, has set JSON mode
    assert client.send(line) == [{"Type": "Error", "Code": code, "Message": message}, HELLO]
    # Nothing changed: the lobby still works.
    assert client.send({"Type": "Hello", "Message": "create"})[-1] == GAME


@pytest.mark.parametrize(
    "msg",
    [
        {"Type": "Bid", "Bid": 0},
        {"Type": "Unpass"},
        {"Type": "Trump", "Trump": "H"},
        {"Type": "Discard", "Cards": []},
        {"Type": "Join", "Table": 1},
    ],
)
def test_not_now_at_the_options_then_the_game_prompt(msg: dict[str, Any]) -> None:
    h = Harness()
    client = at_options(h)
    replies = client.send(msg)
    assert [m["Type"] for m in replies] == ["Error", "Game"]
    assert replies[0]["Code"] == "not_now"


@pytest.mark.parametrize(
    "msg",
    [
        {"Type": "Hello", "Message": "create"},
        {"Type": "Hello", "Message": "join"},
        {"Type": "Hello", "Name": "bob"},
        {"Type": "Game", "Option": 1},
        {"Type": "Join", "Table": 1},
    ],
)
def test_lobby_answers_mid_game_are_not_now_then_the_prompt_again(msg: dict[str, Any]) -> None:
    h = Harness()
    client = at_options(h)
    client.send({"Type": "Game", "Option": 1})
    prompt = client.messages[-1]
    assert prompt["Seq"] == 1
    replies = client.send(msg)
    assert replies[0]["Type"] == "Error"
    assert replies[0]["Code"] == "not_now"
    assert replies[1:] == [prompt]


def test_first_line_that_looks_like_json_sets_json_mode_even_if_broken() -> None:
    h = Harness()
    client = h.connect()
    client.take()
    assert client.send(b'{"Type":') == [
        {"Type": "Error", "Code": "bad_json", "Message": 'not JSON: "{\\"Type\\":"'},
        HELLO,
    ]
    assert client.send({"Type": "Hello", "Message": "create"})[-1] == GAME


def test_unknown_keys_are_ignored() -> None:
    h = Harness()
    client = h.json_client()
    replies = client.send({"Type": "Hello", "Message": "create", "Colour": "blue", "x": [1]})
    assert replies[-1] == GAME


# ------------------------------------------------------------------ line framing


def test_line_too_long_gets_an_error_and_closes() -> None:
    h = Harness()
    conn, _ = h.hub.connect()
    assert h.hub.receive(conn, b"x" * (MAX_LINE + 1) + b"\n") == [
        Send(
            conn,
            b'{"Type":"Error","Code":"line_too_long",'
            b'"Message":"a line is at most 8192 bytes; goodbye"}\n',
        ),
        Close(conn, "line_too_long"),
    ]
    assert conn not in h.hub.lobby.sessions


def test_line_too_long_frees_the_seat() -> None:
    h = Harness()
    ann, bob = waiting_with_bob(h)
    h.apply(h.hub.line_too_long(bob.conn))
    assert bob.closed
    assert bob.messages[-1]["Code"] == "line_too_long"
    assert ann.take() == [table(1, 4, ["ann", None, None, None])]


@pytest.mark.parametrize("ending", [b"", b"\n", b"\r\n"])
def test_a_line_of_exactly_max_bytes_is_read(ending: bytes) -> None:
    h = Harness()
    client = h.json_client()
    head = b'{"Type":"Hello","Message":"create"'
    line = head + b" " * (MAX_LINE - len(head) - 1) + b"}"
    assert len(line) == MAX_LINE
    assert client.send(line + ending)[-1] == GAME


def test_blank_lines_are_ignored_and_crlf_accepted() -> None:
    h = Harness()
    client = h.connect()
    client.take()
    for blank in (b"\n", b"\r\n", b"   \r\n", b"", b"\t\n"):
        assert h.hub.receive(client.conn, blank) == []
    assert client.send(b'{"Type":"Hello","Message":"create"}\r\n')[-1] == GAME
    for blank in (b"\n", b"\r\n", b"  \n"):
        assert h.hub.receive(client.conn, blank) == []
    assert client.send(b'{"Type":"Game","Option":6}\r\n') == [QUESTION, HELLO]


def test_every_lobby_message_is_valid_against_the_schema() -> None:
    h = Harness()
    ann = at_options(h)
    ann.send({"Type": "Game", "Option": 5, "Seats": 3, "Name": "friday"})
    bob = h.json_client("bob")
    for line in (b"{x", b'{"Type":"Dance"}', b'{"Type":"Hello","Message":"join"}'):
        bob.send(line)
    bob.send({"Type": "Join", "Table": 1})
    bob.send({"Type": "Hello", "Message": "quit"})
    for client in (ann, bob):
        for msg in client.messages:
            assert is_valid_server_message(msg), json.dumps(msg)


def test_quit_at_a_table_reads_the_choice_as_the_lobby_does() -> None:
    h = Harness()
    ann = at_options(h)
    ann.send({"Type": "Game", "Option": 4})
    assert ann.send({"Type": "Hello", "Message": " QUIT "}) == [
        {"Type": "Message", "Message": "Ok, bye bye!"}
    ]
    assert h.hub.lobby.tables == {}
