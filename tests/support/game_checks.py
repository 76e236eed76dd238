"""Checks the engine and record tests of every game share."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from hundred_server.games.kit.cards import Card
from hundred_server.protocol.errors import RecordError


def cards_in(value: object) -> Iterator[Card]:
    """Every card anywhere inside a value (fields, tuples, actions), generically."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from cards_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from cards_in(getattr(value, field.name))


def check_replay_error(
    replay: Callable[[Iterable[str]], Iterator[dict[str, Any]]],
    load_record: Callable[[Iterable[str]], object],
    lines: list[str],
    line: int,
    code: str,
    quoted: str,
) -> None:
    """Replay stops at ``line`` with ``code`` (its message quoting ``quoted``) after
    only Score lines, and loading the record fails at the same line with that code."""
    out = list(replay(lines))
    error = out[-1]
    assert set(error) == {"Type", "Line", "Code", "Message"}
    assert (error["Type"], error["Line"], error["Code"]) == ("Error", line, code), error
    assert quoted in error["Message"]
    assert all(o["Type"] == "Score" for o in out[:-1])
    with pytest.raises(RecordError) as caught:
        load_record(lines)
    assert (caught.value.line, caught.value.code) == (line, code)
