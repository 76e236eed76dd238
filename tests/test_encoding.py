"""The hot path's encoding: the same bytes as the plain way, and never one seat's
private message to another (issue #15's per-core throughput)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hub_harness import Harness, check_stream, play_until_over
from hypothesis import given
from hypothesis import strategies as st

from hundred_server.codecs.jsonlines import JsonCodec
from hundred_server.hub import Command, Hub, Send
from hundred_server.protocol import compact_json, encode
from hundred_server.records import dumps_line

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
        return plain_encode(self, message)

    monkeypatch.setattr(JsonCodec, "encode", counting)
    public = {"Type": "Play", "Playerid": 1, "PlayedCard": "5H"}
    out: list[tuple[int, dict[str, Any]]] = []
    for seat, conn in enumerate(conns):
        out.append((conn, public))
        # Built per seat, alike in all but the hand: never one seat's for another.
        out.append((conn, {"Type": "Deal", "Playerid": seat, "Hand": [f"{seat + 2}H"]}))
        out.append((conn, {"Type": "Deal", "Playerid": seat, "Hand": [f"{seat + 2}H"]}))
    commands = hub._render(out)
    assert [(c.conn, c.data) for c in commands if isinstance(c, Send)] == [
        (conn, encode(msg)) for conn, msg in out
    ]
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

    def checking(self: Hub, out: list[tuple[int, dict[str, Any]]]) -> list[Command]:
        nonlocal checked
        expected = []
        for conn, msg in out:
            link = self.links.get(conn)
            if link is not None:
                codec = link.codec or JsonCodec()
                data = codec.encode(copy.deepcopy(msg)) if codec.shared else None
                if data != b"":
                    expected.append((conn, data))
        commands = plain_render(self, out)
        sent = [(c.conn, c.data) for c in commands if isinstance(c, Send)]
        assert len(sent) == len(expected)
        for (conn, data), (want_conn, want) in zip(sent, expected, strict=True):
            assert conn == want_conn
            if want is not None:
                assert data == want
                checked += 1
        return commands

    monkeypatch.setattr(Hub, "_render", checking)
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create"})
    ann.send({"Type": "Game", "Option": 4})
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
