"""The hot path's encoding: the same bytes as the plain way, and never one seat's
private message to another (issue #15's per-core throughput)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
