"""Every game's records and replays are byte for byte what they were before the
records became one generic format (tests/support/record_bytes.py made the fixtures with that
code): a seeded game's record, its replay, and the replay of each way of breaking it."""

from __future__ import annotations

import pytest

from hundred_server import games
from tests.support.record_bytes import CASES, FIXTURES, answers_bytes, case_bytes


@pytest.mark.parametrize("name", [case[0] for case in CASES])
def test_records_and_replays_are_the_bytes_they_were(name: str) -> None:
    expected = (FIXTURES / f"{name}.jsonl").read_bytes()
    got = case_bytes(name)
    assert got.splitlines() == expected.splitlines()
    assert got == expected


@pytest.mark.parametrize("game", games.names())
def test_answers_read_as_they_did(game: str) -> None:
    """The one notation of a game's actions reads answers as its wire parser did."""
    expected = (FIXTURES / f"answers-{game}.txt").read_bytes()
    assert answers_bytes(game).splitlines() == expected.splitlines()
