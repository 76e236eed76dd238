"""The hot path's encoding: the same bytes as the plain way, and never one seat's
private message to another (issue #15's per-core throughput)."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import json
import random
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hundred_server.core.hub import Command, Hub, Send
from hundred_server.games.records import dumps_line
from hundred_server.protocol import wire as protocol
from hundred_server.protocol.codecs.jsonlines import JsonCodec
from hundred_server.protocol.wire import compact_json, encode
from tests.support.hub_harness import Harness, check_stream, play_until_over

_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=20,
)
_messages = st.dictionaries(st.text(), _values, max_size=8)


def _plain(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


@given(_messages)
def test_compact_json_is_json_dumps_exactly(message: dict[str, Any]) -> None:
    assert compact_json(message) == _plain(message)
    assert dumps_line(message) == _plain(message)
    assert encode(message) == _plain(message).encode("utf-8", "backslashreplace") + b"\n"


@given(_values)
def test_compact_json_of_any_value(value: Any) -> None:
    assert compact_json(value) == _plain(value)


def test_compact_json_edge_cases() -> None:
    for message in [
        {"Type": "Message", "Message": '5♥ 🃏 \u2028 \x00 "quoted" back\\slash'},
        {"Type": "Error", "Message": "\ud800"},  # a lone surrogate, as a client may send
        {"Type": "Score", "TimeLeft": 12.0, "Big": 1e16, "Small": 1e-7, "Neg": -0.0},
        {"Type": "X", "Nan": float("nan"), "Inf": float("inf")},
        {"Type": "Table", "Players": [None, "ann"], "Flags": [], "Nested": {"a": {"b": []}}},
        {},
    ]:
        assert compact_json(message) == _plain(message)
        assert encode(message) == _plain(message).encode("utf-8", "backslashreplace") + b"\n"


# ------------------------------------------ orjson (the fast extra) or the standard way


def test_the_test_environment_has_orjson_and_takes_it_for_a_prompt() -> None:
    prompt = {"Type": "Prompt", "Playerid": 2, "Seq": 17, "Legal": ["5H", "JD"], "Timeout": 30.5}
    fast = protocol._fast_bytes(prompt)
    assert fast is not None  # the test extra installs orjson: its path is tested
    assert fast == _plain(prompt).encode()


@pytest.mark.parametrize(
    "value",
    [
        2.5e-7,  # orjson: 2.5e-7
        1e-5,  # orjson: 0.00001
        float("nan"),  # orjson: null
        float("-inf"),
        2**64,  # past orjson's integers
        {1: "an int key"},
        "\ud800",  # a lone surrogate
        dataclasses.make_dataclass("D", ["x"])(1),  # orjson writes these, json refuses
        datetime.datetime(2026, 12, 2),
        "null",  # only looks alike: made the standard way too, the same text
    ],
)
def test_what_orjson_writes_otherwise_or_refuses_is_made_the_standard_way(value: Any) -> None:
    message = {"Type": "X", "Value": [value]}
    assert protocol._fast_bytes(message) is None
    refused: str | None = None
    try:
        want = _plain(message).encode("utf-8", "backslashreplace") + b"\n"
    except TypeError as exc:
        refused = str(exc)
    if refused is None:
        assert encode(message) == want
    else:
        with pytest.raises(TypeError) as ours:
            encode(message)
        assert str(ours.value) == refused


@pytest.mark.parametrize("value", [1e16, 1.5e300, 1e-4, 0.1, 30.0, -0.0, 2**63])
def test_numbers_orjson_writes_alike_are_its(value: Any) -> None:
    message = {"Type": "X", "Value": value}
    assert encode(message) == _plain(message).encode() + b"\n"


def test_without_orjson_every_message_is_made_the_standard_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "orjson", None)  # import orjson: ImportError
    without = protocol._orjson_encoder()
    message = {"Type": "Prompt", "Playerid": 2, "Legal": ["5H", "JD"]}
    assert without(message) is None
    monkeypatch.setattr(protocol, "_fast_bytes", without)
    assert encode(message) == _plain(message).encode() + b"\n"
    assert compact_json(message) == _plain(message)


@given(_messages)
def test_the_standard_way_alone_is_json_dumps_exactly(message: dict[str, Any]) -> None:
    plain_way = protocol._fast_bytes
    protocol._fast_bytes = lambda obj: None  # as without orjson (no fixture: hypothesis)
    try:
        assert compact_json(message) == _plain(message)
        assert encode(message) == _plain(message).encode("utf-8", "backslashreplace") + b"\n"
    finally:
        protocol._fast_bytes = plain_way


def test_compact_json_refuses_what_json_refuses() -> None:
    for bad in ({"Type": object()}, {"Type": {1, 2}}, {("a",): 1}):
        with pytest.raises(TypeError) as plain:
            _plain(bad)
        with pytest.raises(TypeError) as ours:
            compact_json(bad)
        assert str(ours.value) == str(plain.value)


# ------------------------------------------------ the hub's one encoding per message


def _json_conns(hub: Hub, n: int) -> list[int]:
    conns = []
    for i in range(n):
        conn, _ = hub.connect()
        hub.receive(conn, json.dumps({"Type": "Hello", "Name": f"p{i}"}).encode())
        conns.append(conn)
    return conns


def test_a_shared_message_is_encoded_once_and_private_ones_each_for_their_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hub = Hub()
    conns = _json_conns(hub, 4)
    encoded: list[dict[str, Any]] = []
    plain_encode = JsonCodec.encode

    def counting(self: JsonCodec, message: dict[str, Any]) -> bytes:
        encoded.append(message)
        return plain_encode(message)

    monkeypatch.setattr(JsonCodec, "encode", counting)
    public = {"Type": "Play", "Playerid": 1, "PlayedCard": "5H"}
    out: list[tuple[int, dict[str, Any]]] = []
    for seat, conn in enumerate(conns):
        out.append((conn, public))
        # Built per seat, alike in all but the hand: never one seat's for another.
        out.append((conn, {"Type": "Deal", "Playerid": seat, "Hand": [f"{seat + 2}H"]}))
        out.append((conn, {"Type": "Deal", "Playerid": seat, "Hand": [f"{seat + 2}H"]}))
    commands = hub._render(out)
    said: dict[int, bytes] = {}  # one Send a connection, its lines in order
    for conn, msg in out:
        said[conn] = said.get(conn, b"") + encode(msg)
    assert [(c.conn, c.data) for c in commands if isinstance(c, Send)] == list(said.items())
    assert sum(m is public for m in encoded) == 1  # once for all four
    assert len(encoded) == 1 + 2 * len(conns)  # each private one for its own seat


def test_every_byte_of_a_game_is_the_encoding_of_that_connections_own_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A people-only table of four JSON seats played to its end: every Send is the
    fresh encoding of a copy of the message addressed to that connection, so the
    encoding shared by id never hands one seat another's private message."""
    h = Harness("encoding")
    checked = 0
    plain_render = Hub._render

    def checking(
        self: Hub, out: list[tuple[int, dict[str, Any]]], speaker: int | None = None
    ) -> list[Command]:
        nonlocal checked
        expected: dict[int, bytes | None] = {}  # one Send a connection, lines in order
        for conn, msg in out:
            link = self.links.get(conn)
            if link is not None:
                codec = link.codec or JsonCodec()
                data = codec.encode(copy.deepcopy(msg)) if codec.shared else None
                before = expected.get(conn, b"")
                if data is None or before is None:
                    expected[conn] = None  # text mode: not checked here
                elif data or conn in expected:
                    expected[conn] = before + data
        commands = plain_render(self, out, speaker)
        sent = [(c.conn, c.data) for c in commands if isinstance(c, Send)]
        assert [conn for conn, _ in sent] == [c for c, d in expected.items() if d != b""]
        for conn, data in sent:
            want = expected[conn]
            if want is not None:
                assert data == want
                checked += 1
        return commands

    monkeypatch.setattr(Hub, "_render", checking)
    ann = h.create("ann", Option=4)
    others = [h.json_client(name) for name in ("bob", "cy", "dee")]
    for other in others:
        other.send({"Type": "Hello", "Message": "join"})
        other.send({"Type": "Join", "Table": 1})
    players = [ann, *others]
    play_until_over(players, random.Random(15))
    assert all(p.game_over() is not None for p in players)
    for player in players:
        check_stream(player.messages, h.table_seeds())  # the leak check, among others
    assert checked > 400


# ------------------------------------- private messages asked only of events that have them


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_private_kinds_skip_no_private_message(seats: int) -> None:
    """Hundred and Ten's ``tell`` asks ``_private`` only of ``_PRIVATE_KINDS``: over whole
    games (every event the rules make), each seat and a watcher are told exactly what
    asking every event gives."""
    from hundred_server import games
    from hundred_server.core import driver
    from hundred_server.games.hundredandten import wire
    from hundred_server.games.kit import messages

    spec = games.get("hundredandten")
    kinds_seen: set[str] = set()
    for seed in (f"kinds-{seats}-1", f"kinds-{seats}-2"):
        game = spec.new_game([f"p{i}" for i in range(seats)], seed)
        bots = [spec.bots["naive"]() for _ in range(seats)]
        audience = [None, *range(seats)]
        while (events := driver.step(game, spec, seed, bots)) is not None:
            kinds_seen.update(type(e).__name__ for e in events)
            every = messages.tell(events, audience, game.players, wire._public, wire._private)
            assert spec.wire.tell(events, audience, game.players) == every
        assert game.is_over
    assert {"Dealt", "Discarded", "Played", "TrickWon", "GameWon"} <= kinds_seen
