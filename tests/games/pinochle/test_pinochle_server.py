"""Pinochle through the server: the six table modes, a JSON client and AI seats on the
main port, the store, and the classic port (the seed's dialect, codecs/classic.py)
checked at hub level and by an independent client over real sockets."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from hundred_server import games
from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.hub import Hub, Send
from hundred_server.io.server import Server
from hundred_server.protocol import codecs
from hundred_server.protocol.codecs.classic import ClassicCodec, dumps, project
from hundred_server.protocol.errors import ClientError
from hundred_server.protocol.schema import validate_server_message
from hundred_server.protocol.wire import LOBBY_QUESTION
from tests.support.classic_client import OPTION_LINES, meld, play_games
from tests.support.hub_harness import (
    HELLO,
    QUESTION,
    Client,
    Harness,
    text_answer,
)

SEED_OPTIONS = list(OPTION_LINES)


def create(h: Harness, name: str, option: int) -> Client:
    client = h.json_client(name)
    told = client.send({"Type": "Hello", "Message": "create", "Game": "pinochle"})
    assert told == [{"Type": "Message", "Message": o} for o in SEED_OPTIONS] + [{"Type": "Game"}]
    client.send({"Type": "Game", "Option": option})
    return client


def join(h: Harness, name: str, table: int = 1) -> Client:
    client = h.json_client(name)
    client.send({"Type": "Join", "Table": table})
    return client


# ----------------------------------------------------------------- the six modes

#: option -> (the people, in the order they sit; where each sits; the AI seats)
MODES = {
    1: (["ann"], [0], (1, 2, 3)),
    2: (["ann", "bob"], [0, 2], (1, 3)),  # bob is ann's partner
    3: (["ann", "bob", "cy"], [0, 2, 3], (1,)),  # bob partners ann; cy and an AI oppose
    4: (["ann", "bob", "cy", "dee"], [0, 1, 2, 3], ()),
    5: (["ann", "bob"], [0, 1], (2, 3)),  # bob against ann, each with an AI partner
}


@pytest.mark.parametrize("option", sorted(MODES))
def test_each_mode_seats_people_and_ai_where_the_seed_says(option: int) -> None:
    people, seats, ai = MODES[option]
    h = Harness(f"mode-{option}")
    clients = [create(h, people[0], option)] + [join(h, name) for name in people[1:]]
    table = h.hub.lobby.tables[1]
    assert table.info()["Game"] == "pinochle"
    for client, seat in zip(clients, seats, strict=True):
        assert client.last("Seat")["Playerid"] == seat
        assert client.last("Deal")["Playerid"] == seat
    assert [i for i, s in enumerate(table.seats) if s is not None and s.bot is not None] == list(ai)
    assert games.get("pinochle").presets[option - 1].sides == (0, 1, 0, 1)
    if option == 2:
        assert (seats[1] - seats[0]) % 4 == 2  # partners sit opposite
    if option == 5:
        assert seats[0] % 2 != seats[1] % 2  # on opposite teams


def test_option_6_goes_back() -> None:
    h = Harness()
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create", "Game": "pinochle"})
    assert ann.send({"Type": "Game", "Option": 6}) == [QUESTION, HELLO]
    assert h.hub.lobby.tables == {}


# ------------------------------------------------------------ a JSON client plays


def test_a_json_client_plays_pinochle_against_three_ai_to_the_end() -> None:
    h = Harness("json-pinochle")
    ann = create(h, "ann", 1)
    rng = random.Random(5)
    prompts = 0
    for prompt in ann.play_on(rng, 3000):
        prompts += 1
        assert prompt["Type"] in ("Bid", "Trump", "Play")
        if rng.random() < 0.05:  # now and then a bad answer: the same prompt again
            ann.refused({"Type": "Play", "PlayedCard": "9Z", "Seq": prompt["Seq"]})
    over = ann.game_over()
    assert over is not None
    assert over["Win"] is (over["Winner"] == 0)
    assert max(over["Score"]) >= 100 or min(over["Score"]) < -50
    assert ann.messages[-2:] == [QUESTION, HELLO]
    for msg in ann.messages:
        validate_server_message(msg)
    check_pinochle_stream(ann.messages)
    assert prompts > 12


def check_pinochle_stream(messages: list[dict[str, Any]]) -> None:
    """What seat 0 was told adds up: 12 cards a deal, four melds a hand each worth
    what its cards meld (by an independent calculator), 12 tricks, 25 points of
    counters, team scores that follow from meld, counters and the bid; and no card
    of another seat's hand before it was melded or played."""
    hand: list[str] = []
    trump = ""
    shown: set[str] = set()
    melds: list[dict[str, Any]] = []
    trick_points = [0, 0]
    tricks = 0
    totals = [0, 0]
    for msg in messages:
        kind = msg["Type"]
        if kind == "Deal":
            hand = msg["Hand"]
            assert len(hand) == 12
            shown, melds, trick_points, tricks = set(), [], [0, 0], 0
        elif kind == "Trump" and "Trump" in msg:
            trump = msg["Trump"]
        elif kind == "Meld":
            assert meld(msg["Hand"], trump)[0] == msg["Amount"]
            if msg["Playerid"] == 0:
                assert meld(hand, trump) == (msg["Amount"], msg["Hand"])
            melds.append(msg)
            shown |= set(msg["Hand"])
        elif kind == "Play" and "PlayedCard" in msg:
            shown.add(msg["PlayedCard"])
        elif kind == "Trick":
            tricks += 1
            trick_points[msg["Playerid"] % 2] += msg["Points"]
        elif kind == "Score" and "Round" in msg:
            assert tricks == 12
            assert sum(trick_points) == 25
            assert msg["Counters"] == trick_points
            team_meld = [sum(m["Amount"] for m in melds if m["Playerid"] % 2 == t) for t in (0, 1)]
            assert msg["Meld"] == team_meld
            points = [team_meld[t] + trick_points[t] for t in (0, 1)]
            bidding = msg["Bidder"] % 2
            assert msg["Made"] is (points[bidding] >= msg["Bid"])
            if not msg["Made"]:
                points[bidding] = -msg["Bid"]
            assert msg["Points"] == points
            totals = [totals[t] + points[t] for t in (0, 1)]
            assert msg["Score"] == totals
        for key in ("Hand", "Legal", "Trick"):
            value = msg.get(key)
            if kind in ("Deal", "Meld", "Snapshot") or not isinstance(value, list):
                continue
            for card in value:
                if isinstance(card, str) and len(card) == 2:
                    assert card in hand or card in shown, (card, msg)


def test_a_pinochle_game_is_saved_restored_and_exported(tmp_path: Path) -> None:
    from hundred_server.store import Store
    from tests.support.saving import mid_game, played_out_and_stored, restarted

    store = Store(tmp_path / "s.db")
    rng = random.Random(1)
    h, ann, prompt = mid_game(store, "pinochle-store", lambda h: create(h, "ann", 1), 10, rng)
    store, h2 = restarted(store, lambda: Store(tmp_path / "s.db"), "pinochle-store")
    again, told = h2.reclaim(h.tokens[0], "ann")
    assert [m["Type"] for m in told] == ["Seat", "Table", "Commit", "Snapshot", prompt["Type"]]
    assert told[2] == ann.last("Commit")  # the seed is the stored one
    assert told[-1] == prompt
    snapshot = told[3]
    assert snapshot["Hand"] == sorted_like_deal(ann, snapshot["Hand"])
    played_out_and_stored(again, rng, store, 3000)
    store.close()


def sorted_like_deal(client: Client, hand: list[str]) -> list[str]:
    """``hand`` in the order the last Deal showed its cards (the seed's sort)."""
    order = {card: i for i, card in enumerate(client.last("Deal")["Hand"])}
    return sorted(hand, key=order.__getitem__)


# ------------------------------------------------------------------ the classic codec


def test_the_classic_codec_projects_to_the_seeds_keys() -> None:
    assert project({"Type": "Bid", "Playerid": 1, "Bid": 0}) == {"Type": "Bid", "Playerid": 1}
    assert project({"Type": "Meld", "Playerid": 0, "Hand": [], "Amount": 0}) == {
        "Type": "Meld",
        "Playerid": 0,
        "Hand": [],
    }
    final = {"Type": "Score", "Round": 3, "Score": [24, -55], "GameOver": True, "Winner": 0}
    assert project({**final, "Win": False}) == {
        "Type": "Score",
        "Score": [24, -55],
        "GameOver": True,
    }
    assert project({"Type": "Seat", "Playerid": 0}) is None
    assert project({"Type": "Error", "Code": "x", "Message": "y"}) is None
    deal = {"Type": "Deal", "Playerid": 0, "Hand": ["AD"], "Dealer": 0, "Round": 1, "Players": []}
    assert dumps(project(deal) or {}) == b'{"Hand":["AD"],"Playerid":0,"Type":"Deal"}\n'


def test_the_classic_codec_prompts_only_the_seat_asked_and_echoes_nothing() -> None:
    codec = ClassicCodec()
    codec.encode({"Type": "Seat", "Table": 1, "Playerid": 0, "Token": "x"})
    mine = {"Type": "Bid", "Playerid": 0, "Seq": 4, "Legal": [0, 20]}
    theirs = {"Type": "Bid", "Playerid": 1, "Seq": 3}
    assert codec.encode(theirs) == b""
    assert codec.encode(mine) == b'{"Playerid":0,"Type":"Bid"}\n'
    assert codec.encode({"Type": "Bid", "Playerid": 0, "Bid": 25}) == b""  # my own move
    assert codec.encode({"Type": "Bid", "Playerid": 2, "Bid": 25}) == (
        b'{"Bid":25,"Playerid":2,"Type":"Bid"}\n'
    )
    assert codec.encode({"Type": "Meld", "Playerid": 0, "Hand": ["9H"], "Amount": 1}) == (
        b'{"Amount":1,"Hand":["9H"],"Playerid":0,"Type":"Meld"}\n'
    )
    assert codec.encode({"Type": "Error", "Code": "not_in_hand", "Message": "no"}) == b""


def test_the_classic_codec_reads_create_and_a_table_number() -> None:
    codec = ClassicCodec()
    assert codec.decode(b'{"Message":"create","Type":"Hello"}') == [
        {"Message": "create", "Type": "Hello", "Game": "pinochle"}
    ]
    listing = codec.encode(
        {"Type": "Tables", "Tables": [{"Table": 3, "Name": "t", "Players": ["ann", None]}]}
    )
    lines = [json.loads(line) for line in listing.splitlines()]
    assert lines[0] == {"Message": "Table 3 - t: ann, (free)", "Type": "Message"}
    assert lines[-1] == {"Type": "Game"}
    assert codec.decode(b'{"Option":3,"Type":"Game"}') == [{"Type": "Join", "Table": 3}]
    assert codec.decode(b'{"Option":0,"Type":"Game"}') == [{"Type": "Hello"}]
    codec.encode({"Type": "Hello"})
    assert codec.decode(b'{"Option":1,"Type":"Game"}') == [{"Option": 1, "Type": "Game"}]
    with pytest.raises(ClientError):
        codec.decode(b'{"Type":"Join","Table":1}')  # not a Type of the seed's
    with pytest.raises(ClientError):
        codec.decode(b"{nope")


def classic(h: Harness) -> Client:
    conn, commands = h.hub.connect("test", codecs.CLASSIC)
    client = Client(h, conn)
    h.clients[conn] = client
    h.apply(commands)
    return client


def raw_lines(client: Client) -> list[bytes]:
    return [line for data in client.raw for line in data.splitlines()]


def test_the_classic_lobby_is_the_seeds_word_for_word() -> None:
    h = Harness("classic")
    client = classic(h)
    question = json.dumps({"Message": LOBBY_QUESTION, "Type": "Message"}, separators=(",", ":"))
    assert raw_lines(client) == [question.encode(), b'{"Type":"Hello"}']
    client.raw.clear()
    h.apply(h.hub.receive(client.conn, b'{"Message":"create","Type":"Hello"}'))
    assert raw_lines(client) == [
        json.dumps({"Message": o, "Type": "Message"}, separators=(",", ":")).encode()
        for o in SEED_OPTIONS
    ] + [b'{"Type":"Game"}']
    client.raw.clear()
    h.apply(h.hub.receive(client.conn, b'{"Option":1,"Type":"Game"}'))
    lines = [json.loads(line) for line in raw_lines(client)]
    assert {m["Type"] for m in lines} <= {"Message", "Deal", "Bid", "Trump", "Meld", "Play"}
    deal = next(m for m in lines if m["Type"] == "Deal")
    assert set(deal) == {"Hand", "Playerid", "Type"}
    # a bad line at a prompt: the same prompt again, nothing more
    prompt = raw_lines(client)[-1]
    client.raw.clear()
    h.apply(h.hub.receive(client.conn, b"this is not json"))
    assert raw_lines(client) == [prompt]
    client.raw.clear()
    h.apply(h.hub.receive(client.conn, b'{"Type":"Play","PlayedCard":"XX"}'))
    assert raw_lines(client) == [prompt]
    client.raw.clear()
    h.apply(h.hub.receive(client.conn, b'{"Message":"quit","Type":"Hello"}'))
    assert b'{"Message":"Ok, bye bye!","Type":"Message"}' in raw_lines(client)


def test_a_classic_client_can_join_a_table_by_number() -> None:
    h = Harness("classic-join")
    ann = create(h, "ann", 2)
    bob = classic(h)
    bob.raw.clear()
    h.apply(h.hub.receive(bob.conn, b'{"Message":"join","Type":"Hello"}'))
    shown = [json.loads(line) for line in raw_lines(bob)]
    assert shown[0]["Message"].startswith("Table 1 - ")
    assert shown[-1] == {"Type": "Game"}
    h.apply(h.hub.receive(bob.conn, b'{"Option":1,"Type":"Game"}'))
    deal = next(json.loads(line) for line in raw_lines(bob) if b'"Deal"' in line)
    assert deal["Playerid"] == 2  # opposite ann
    assert ann.last("Deal")["Playerid"] == 0


# ---------------------------------------------------------- over real sockets


def test_an_independent_seed_client_plays_whole_games_on_the_classic_port() -> None:
    """tests/support/classic_client.py knows only the seed transcript and RULES.md: it checks
    every meld, trick line and score against its own calculation."""

    async def main() -> Any:
        # The strong AI without a wall-clock cap that bites: the same games every run.
        settings = Settings(listeners=Listeners("127.0.0.1", 0, classic_port=0))
        server = Server(Hub(ai=AISettings(budget=10.0)), settings)
        await server.start()
        try:
            assert server.classic_port is not None
            return await asyncio.to_thread(
                play_games, "127.0.0.1", server.classic_port, games=2, seed=7
            )
        finally:
            await server.close()

    summary = asyncio.run(main())
    assert summary.games == 2
    assert summary.hands >= 4
    assert summary.illegal_plays_tested >= 2
    assert summary.bad_json_tested == 1


def test_the_classic_port_is_off_unless_asked() -> None:
    async def main() -> int | None:
        server = Server(Hub(), Settings(listeners=Listeners("127.0.0.1", 0)))
        await server.start()
        try:
            return server.classic_port
        finally:
            await server.close()

    assert asyncio.run(main()) is None


def test_hub_sends_bytes_only() -> None:
    h = Harness()
    client = classic(h)
    assert all(isinstance(c, Send) for c in h.hub.receive(client.conn, b"{}"))


# ------------------------------------------------------------- a person in text mode


def pinochle_text_answer(lines: list[str], rng: random.Random) -> str | None:
    """A person's answer to the last ``> `` prompt of a Pinochle screen."""
    ask = next(line for line in reversed(lines) if line.startswith("> "))
    if ask.startswith("> your bid ("):
        low = int(ask.split("or ")[1].split("-")[0])
        return "pass" if rng.random() < 0.7 else f"bid {low}"
    if ask.startswith("> name trump"):
        return "trump " + rng.choice(["hearts", "s", "♦", "clubs"])
    return text_answer(lines, rng)


def test_a_person_in_text_mode_plays_pinochle_to_the_end() -> None:
    h = Harness("text-pinochle")
    nc = h.connect()
    nc.take_text()
    shown = nc.say("create pinochle")
    # The seed's options, in text mode with their counts said right.
    assert shown[:6] == [o.replace("one AI players", "one AI player") for o in SEED_OPTIONS]
    assert shown[-1] == "> choose an option: 1-6"
    shown = nc.say("1")
    rng = random.Random(11)
    seen = nc.play_text(
        shown,
        pinochle_text_answer,
        rng,
        lambda line: line.startswith("Game over"),
        2000,
    )
    assert any(line.startswith("Game over. ") for line in seen)
    assert any(" melds " in line or "has no meld" in line for line in seen)
    # A trick's line names who took it, and its points.
    trick = re.compile(r"^(?:you win|AI \d wins) trick 12 with \S+ \(\d+ points?\)$")
    assert any(trick.match(line) for line in seen)
    assert seen[-1] == "> create, join, quit (or help)"
    assert h.hub.lobby.tables == {}
