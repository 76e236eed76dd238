"""Checks the engine and record tests of every game share."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
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


@dataclasses.dataclass(frozen=True)
class Edits:
    """Records made from ``record`` (its lines) by changing it at one line, numbered
    from 1 as replay numbers them: for the tests of the errors replay gives."""

    record: Sequence[str]

    def replace(self, number: int, obj: dict[str, Any] | str) -> list[str]:
        """The line ``number`` replaced by ``obj`` (a line, or an object written as one)."""
        lines = list(self.record)
        lines[number - 1] = obj if isinstance(obj, str) else json.dumps(obj)
        return lines

    def with_field(self, number: int, **fields: Any) -> list[str]:
        return self.replace(number, {**json.loads(self.record[number - 1]), **fields})

    def without_field(self, number: int, name: str) -> list[str]:
        obj = json.loads(self.record[number - 1])
        del obj[name]
        return self.replace(number, obj)

    def insert(self, number: int, obj: dict[str, Any] | str) -> list[str]:
        """``obj`` (a line, or an object written as one) put in as line ``number``."""
        line = obj if isinstance(obj, str) else json.dumps(obj)
        return [*self.record[: number - 1], line, *self.record[number - 1 :]]

    def delete(self, number: int) -> list[str]:
        return [*self.record[: number - 1], *self.record[number:]]


def common_record_errors(
    record: Sequence[str], *, play: int, other_game: str, first_deal: str
) -> list[tuple[str, list[Any], int, str, str]]:
    """The error cases (name, lines, the error's Line and Code, a piece of its Message)
    that a record of every game whose Deal lines number their ``Hand`` gives the same
    way: its header is line 1 and the first Deal line 2, ``play`` is the number of a Play
    line, ``other_game`` another game's name, ``first_deal`` what the missing first Deal
    is called in its error ("hand 1"); the record plays a whole game."""
    edit = Edits(record)
    seat = json.loads(record[play - 1])["Playerid"]
    deck, end = json.loads(record[1])["Deck"], len(record)
    return [
        ("bad_json", edit.replace(play, '{"Type":"Play",'), play, "bad_json", "Play"),
        ("bad_utf8", [*record[:2], b"\xff\xfe"], 3, "bad_json", "UTF-8"),
        ("bad_record_list", edit.replace(play, "[1, 2]"), play, "bad_record", "[1, 2]"),
        (
            "bad_record_no_type",
            edit.replace(play, {"Playerid": seat}),
            play,
            "bad_record",
            '"Type"',
        ),
        ("missing_header", list(record[1:]), 1, "missing_header", '"Deal"'),
        ("empty", ["", "  "], 3, "missing_header", "empty"),
        ("unexpected_header", edit.insert(3, record[0]), 3, "unexpected_header", "Record"),
        ("unknown_game", edit.with_field(1, Game=other_game), 1, "unknown_game", f'"{other_game}"'),
        ("bad_version", edit.with_field(1, Version=2), 1, "bad_version", "2"),
        ("wrong_dealer", edit.with_field(2, Dealer=1), 2, "wrong_dealer", "Dealer 1"),
        ("missing_deck", edit.without_field(2, "Deck"), 2, "missing_deck", "Seed"),
        ("missing_deal", edit.delete(2), 2, "missing_deal", first_deal),
        ("unexpected_deal", edit.insert(3, record[1]), 3, "unexpected_deal", "Hand 1"),
        ("wrong_round", edit.with_field(2, Hand=2), 2, "wrong_round", "Hand 2"),
        ("bad_card_deck", edit.with_field(2, Deck=[*deck[:-1], "ZZ"]), 2, "bad_card", "ZZ"),
        ("game_over_deal", [*record, record[1]], end + 1, "game_over", f"line {end}"),
    ]


def seat_to_act(game: Any, seats: int = 4) -> tuple[int, Sequence[Any]]:
    """The seat to act in ``game`` and its legal actions: it has some, and no other seat
    has any."""
    seat = game.to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    assert legal, "the seat to act always has something to do"
    assert all(game.legal_actions(s) == () for s in range(seats) if s != seat)
    return seat, legal


def state_of(obj: Any, *names: str) -> tuple[object, ...]:
    """Copies (deep) of the attributes of ``obj`` that ``names`` name (each a string of
    names and spaces): a game's state that a refused action must leave as it was, or
    what a view shows, to compare with another."""
    return tuple(copy.deepcopy(getattr(obj, name)) for group in names for name in group.split())


def check_refused_line(
    fmt: Any, record: Sequence[str], number: int, bad: str, state: Callable[[Any], object]
) -> Any:
    """``record`` fed to a replayer of ``fmt`` up to line ``number``, where the line
    ``bad`` is refused (``RecordError``) leaving ``state(game)`` as it was, and the
    record's own line is then taken (and tells nothing). The game."""
    replayer = fmt.replayer()
    for at, line in enumerate(record[: number - 1], 1):
        replayer.feed(at, line)
    game = replayer.game
    assert game is not None
    before = state(game)
    with pytest.raises(RecordError):
        replayer.feed(number, bad)
    assert state(game) == before
    assert replayer.feed(number, record[number - 1]) == []
    return game


def prompts_now(
    game: Any,
    prompt: Callable[[Any, int | None, int], dict[str, Any] | None],
    seq: int,
    check: Callable[[dict[str, Any], int | None], None],
    legal: Callable[[int], list[Any]],
) -> tuple[int, dict[str, Any]]:
    """The prompt of ``game`` now (numbered ``seq``) as every seat is told it: the
    public prompt (for watchers: no ``Legal``), with ``legal(seat)`` as its ``Legal``
    for the seat to act. Each is given to ``check`` first (with its seat, None for the
    public one). The seat to act and what it is asked."""
    actor = game.to_act
    assert actor is not None
    public = prompt(game, None, seq)
    assert public is not None
    assert "Legal" not in public
    check(public, None)
    asked = public
    for seat in range(game.num_players):
        msg = prompt(game, seat, seq)
        assert msg is not None
        check(msg, seat)
        if seat == actor:
            assert msg == {**public, "Legal": legal(seat)}
            asked = msg
        else:
            assert msg == public
    return actor, asked
