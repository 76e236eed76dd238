"""The classic port's scope (issue #27, finding 4): a classic client is shown, creates,
joins and watches only tables of the games its dialect can play (``GameSpec.classic``,
``Codec.games``), on one instance and across a site; another game's table is refused
with ``bad_game`` and nothing changes. JSON and text mode are not limited."""

from __future__ import annotations

import json

from hundred_server import games
from hundred_server.config import AISettings
from hundred_server.core.hub import Remote
from hundred_server.core.lobby import Elsewhere, Lobby, Where
from hundred_server.protocol import codecs
from hundred_server.protocol.codecs.classic import ClassicCodec
from hundred_server.protocol.wire import Message
from tests.games.pinochle.test_pinochle_server import classic, raw_lines
from tests.support.hub_harness import Client, Harness

#: What a classic client is told of a table of Hundred and Ten (table 1 here).
REFUSED_110 = (
    "table 1 plays Hundred and Ten, which this connection cannot play: its protocol has "
    "no words for it (it plays Pinochle)"
)
WHICH = (
    b'{"Message":"Which table? Answer Game with its number as Option (0 goes back)",'
    b'"Type":"Message"}'
)
PINOCHLE_LINE = b'{"Message":"Table 2 - table 2: bob, AI 1, (free), AI 2","Type":"Message"}'


def tables_of_two_games(h: Harness) -> tuple[Client, Client]:
    """Table 1, Hundred and Ten, waits for three people (ann's); table 2, Pinochle,
    for one (bob's, option 2)."""
    ann = h.create("ann", "hundredandten", Option=4)
    bob = h.create("bob", "pinochle", Option=2)
    assert [t.game_name for t in h.hub.lobby.tables.values()] == ["hundredandten", "pinochle"]
    return ann, bob


def said(client: Client, line: bytes) -> list[bytes]:
    client.raw.clear()
    client.harness.apply(client.harness.hub.receive(client.conn, line))
    return raw_lines(client)


def test_the_classic_codec_plays_the_games_that_say_classic() -> None:
    assert ClassicCodec().games == {n for n in games.names() if games.get(n).classic}
    assert ClassicCodec().games == {"pinochle"}
    assert codecs.for_listener(codecs.MAIN) is None  # the first line picks: every game
    assert codecs.JsonCodec().games is None
    assert codecs.TextCodec().games is None


def test_a_classic_client_is_shown_only_the_tables_it_can_play() -> None:
    h = Harness("classic-scope")
    tables_of_two_games(h)
    carl = classic(h)
    assert said(carl, b'{"Message":"join","Type":"Hello"}') == [
        PINOCHLE_LINE,
        WHICH,
        b'{"Type":"Game"}',
    ]


def test_a_classic_join_of_another_games_table_is_refused_and_changes_nothing() -> None:
    h = Harness("classic-scope")
    ann, _ = tables_of_two_games(h)
    carl = classic(h)
    said(carl, b'{"Message":"join","Type":"Hello"}')
    table = h.hub.lobby.tables[1]
    before = table.info()
    # Table 1 by its number, though it was not listed: why, then the list again.
    refused = json.dumps({"Message": REFUSED_110, "Type": "Message"}, separators=(",", ":"))
    assert said(carl, b'{"Option":1,"Type":"Game"}') == [
        refused.encode(),
        PINOCHLE_LINE,
        WHICH,
        b'{"Type":"Game"}',
    ]
    assert table.info() == before
    assert table.seat_of(carl.conn) is None
    assert h.hub.lobby.sessions[carl.conn].where is Where.TABLES
    assert ann.take() == []  # nobody at the table hears of it
    # The list's own table still seats the classic client (opposite bob).
    deal = next(json.loads(m) for m in said(carl, b'{"Option":2,"Type":"Game"}') if b"Deal" in m)
    assert deal["Playerid"] == 2


def test_a_classic_client_cannot_create_another_games_table() -> None:
    h = Harness("classic-scope")
    carl = classic(h)
    said(carl, b'{"Message":"create","Type":"Hello"}')
    text = (
        "Hundred and Ten is a game this connection cannot play: its protocol has no words "
        "for it (it plays Pinochle)"
    )
    refused = json.dumps({"Message": text, "Type": "Message"}, separators=(",", ":"))
    assert said(carl, b'{"Game":"hundredandten","Option":1,"Type":"Game"}') == [
        refused.encode(),
        b'{"Type":"Game"}',
    ]
    assert h.hub.lobby.tables == {}
    assert h.hub.lobby.sessions[carl.conn].where is Where.OPTIONS


def test_a_classic_client_watches_nothing() -> None:
    """The dialect has no watching at all: neither Type nor choice gets through."""
    h = Harness("classic-scope")
    tables_of_two_games(h)
    carl = classic(h)
    assert said(carl, b'{"Table":1,"Type":"Watch"}') == [b'{"Type":"Hello"}']
    assert said(carl, b'{"Message":"watch","Type":"Hello"}') == [b'{"Type":"Hello"}']
    assert h.hub.lobby.tables[1].watchers == []
    assert h.hub.lobby.tables[2].watchers == []


def pinochle_only(lobby: Lobby, conn: int = 50) -> int:
    lobby.connect(conn, None, frozenset({"pinochle"}))
    return conn


def errors(out: list[tuple[int, Message]]) -> list[tuple[str, str]]:
    return [(m["Code"], m["Message"]) for _, m in out if m["Type"] == "Error"]


def test_a_session_limited_to_some_games_watches_only_those() -> None:
    h = Harness("classic-scope")
    tables_of_two_games(h)
    lobby = h.hub.lobby
    conn = pinochle_only(lobby)
    out, _ = lobby.handle(conn, {"Type": "Hello", "Message": "watch"})
    assert [t["Table"] for t in out[-1][1]["Tables"]] == [2]
    out, _ = lobby.handle(conn, {"Type": "Watch", "Table": 1})
    text = REFUSED_110.replace("cannot play:", "cannot watch:")
    assert errors(out) == [("bad_game", text)]
    assert h.hub.lobby.tables[1].watchers == []
    assert lobby.sessions[conn].where is Where.TABLES
    lobby.handle(conn, {"Type": "Watch", "Table": 2})
    assert h.hub.lobby.tables[2].watchers == [conn]


def test_the_sites_tables_of_other_games_neither_list_nor_relay() -> None:
    lobby = Lobby(seed_source=lambda: "site", ai=AISettings("naive"))
    lobby.tables.site = True

    def info(table: int, game: str) -> Message:
        return {"Table": table, "Name": f"t{table}", "Game": game, "Players": ["x", None]}

    lobby.tables.remote_tables = {1: info(1, "hundredandten"), 2: info(2, "pinochle")}
    lobby.tables.remote_watchable = {1: info(1, "hundredandten"), 2: info(2, "pinochle")}
    conn = pinochle_only(lobby)
    out, _ = lobby.handle(conn, {"Type": "Hello", "Message": "join"})
    assert [t["Table"] for t in out[-1][1]["Tables"]] == [2]
    out, _ = lobby.handle(conn, {"Type": "Join", "Table": 1})
    assert errors(out) == [("bad_game", REFUSED_110)]
    assert lobby.relays == {}
    out, _ = lobby.handle(conn, {"Type": "Watch", "Table": 1})
    assert errors(out) == [("bad_game", REFUSED_110.replace("cannot play:", "cannot watch:"))]
    assert lobby.relays == {}
    lobby.handle(conn, {"Type": "Join", "Table": 2})
    there = lobby.relays[conn]
    assert isinstance(there, Elsewhere)
    assert there.table == 2
    # A session of every game (JSON, text) is shown and relayed to both.
    lobby.connect(51)
    out, _ = lobby.handle(51, {"Type": "Hello", "Message": "join"})
    assert [t["Table"] for t in out[-1][1]["Tables"]] == [1, 2]
    lobby.handle(51, {"Type": "Join", "Table": 1})
    assert lobby.relays[51].table == 1


def test_a_relayed_classic_client_is_refused_by_the_tables_instance_too() -> None:
    """The relay carries what the client can play (bus ``"g"``) to its virtual
    connection on the table's instance, which refuses as the client's own would."""
    from hundred_server.io.relays import relayed_games  # here: main has none (checked on main)

    assert relayed_games(None) is None
    assert relayed_games(["pinochle", 3]) == {"pinochle"}
    assert relayed_games("pinochle") == frozenset()  # unreadable: nothing slips through
    h = Harness("classic-scope")
    tables_of_two_games(h)
    vconn = h.hub.connect_virtual("carl", None, relayed_games(["pinochle"]))
    out = h.hub.receive_message(vconn, {"Type": "Join", "Table": 1})
    told = [c.message for c in out if isinstance(c, Remote) and c.message is not None]
    assert {"Type": "Error", "Code": "bad_game", "Message": REFUSED_110} in told
    assert h.hub.lobby.tables[1].seat_of(vconn) is None


def test_a_classic_client_cannot_take_back_a_seat_of_another_game() -> None:
    """A token is no way around the scope: a seat of Hundred and Ten, taken back on the
    classic port, is refused and stays its owner's."""
    h = Harness("classic-scope")
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create", "Game": "hundredandten"})
    told = ann.send({"Type": "Game", "Option": 1})  # three AI: under way at once
    seat = next(m for m in told if m.get("Type") == "Seat")
    table = h.hub.lobby.tables[seat["Table"]]
    carl = classic(h)
    hello = {"Type": "Hello", "Token": seat["Token"]}
    lines = said(carl, json.dumps(hello).encode())
    refused = (
        f"table {table.id} plays Hundred and Ten, which this connection cannot play: its "
        "protocol has no words for it (it plays Pinochle)"
    )
    assert json.loads(lines[0]) == {"Type": "Message", "Message": refused}
    assert h.hub.lobby.sessions[carl.conn].table is None
    assert table.seat_of(ann.conn) == seat["Playerid"]


def test_json_and_text_clients_join_any_game() -> None:
    h = Harness("classic-scope")
    tables_of_two_games(h)
    dee = h.json_client("dee")
    listed = dee.send({"Type": "Hello", "Message": "join"})[-1]
    assert [(t["Table"], t["Game"]) for t in listed["Tables"]] == [
        (1, "hundredandten"),
        (2, "pinochle"),
    ]
    dee.send({"Type": "Join", "Table": 1})
    assert h.hub.lobby.tables[1].seat_of(dee.conn) == 1
    eve = h.connect()
    eve.say("name eve")
    eve.say("join 1")
    assert h.hub.lobby.tables[1].seat_of(eve.conn) == 2
