"""Seeded games of every game, their records and replays (good and mutated), as bytes.

``tests/fixtures/records/<case>.jsonl`` hold what the server wrote and replayed before
the records became one generic format (made by this module with that code:
``python -m tests.support.record_bytes``); test_record_bytes.py makes them again with today's
code and compares the bytes, so a record and a replay's every line (its Error lines'
messages too) stay as they were.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

from hundred_server import games
from hundred_server.ai.selfplay import play_game
from hundred_server.core import driver
from hundred_server.games.base import player_names
from hundred_server.games.records import load_record, record_lines, replay
from hundred_server.protocol.errors import RecordError

FIXTURES: Final = Path(__file__).resolve().parents[1] / "fixtures" / "records"

#: (case name, game, seats, flags): one seeded game each.
CASES: Final = (
    ("hundredandten-2", "hundredandten", 2, frozenset[str]()),
    ("hundredandten-4", "hundredandten", 4, frozenset[str]()),
    ("whist-4", "whist", 4, frozenset[str]()),
    ("pinochle-4", "pinochle", 4, frozenset[str]()),
    ("rook-3", "rook", 3, frozenset[str]()),
    ("rook-6", "rook", 6, frozenset[str]()),
    ("hundert-3", "hundert", 3, frozenset[str]()),
    ("hundert-4-feder", "hundert", 4, frozenset({"Feder"})),
    ("spades-4", "spades", 4, frozenset[str]()),
)

Mutation = Callable[[list[dict[str, Any]], random.Random], list[str]]


def _played(game: str, seats: int, flags: frozenset[str], seed: str) -> Any:
    if not flags:
        return play_game(seats, seed, game=game)
    spec = games.get(game)
    state = spec.new_game(player_names(seats), seed, flags)
    driver.advance(state, spec, seed, [spec.bot()] * seats)
    return state


def _dump(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _without(obj: dict[str, Any], key: str) -> str:
    return _dump({k: v for k, v in obj.items() if k != key})


def _mutations(objs: list[dict[str, Any]], rnd: random.Random) -> Iterator[tuple[str, list[str]]]:
    """Records that break at one line, in every way a line can, and some that stop."""
    lines = [_dump(o) for o in objs]
    n = len(lines)
    actions = [i for i, o in enumerate(objs) if o["Type"] not in ("Record", "Deal")]
    deals = [i for i, o in enumerate(objs) if o["Type"] == "Deal"]
    yield "empty", []
    yield "blank", ["", "  "]
    yield "truncated", lines[: n // 2]
    yield "after-the-end", [*lines, lines[-1]]
    yield "not-json", [*lines[:3], "{not json", *lines[3:]]
    yield "not-utf8", [*lines[:2], "\udcff"]
    yield "a-list", [lines[0], "[1,2]"]
    yield "bad-type", [lines[0], _dump({"Type": "Bogus"})]
    yield "two-headers", [lines[0], lines[0]]
    yield "no-header", lines[1:]
    for key, value in (("Game", "nope"), ("Version", 2), ("Players", "x"), ("Seed", 7)):
        yield f"header-{key}", [_dump({**objs[0], key: value}), *lines[1:]]
    yield "header-seed", [_dump({**objs[0], "Seed": "s"}), *lines[1:]]
    yield "header-no-seed", [_without(objs[0], "Seed"), *lines[1:]]
    yield "header-players", [_dump({**objs[0], "Players": ["a", "a"]}), *lines[1:]]
    yield "header-flags", [_dump({**objs[0], "Flags": ["Nope"]}), *lines[1:]]
    yield "header-target", [_dump({**objs[0], "Target": "x"}), *lines[1:]]
    for i in deals[:2]:
        deal = objs[i]
        round_key = next(k for k in deal if k not in ("Type", "Dealer", "Deck"))
        yield (
            f"deal{i}-no-deck",
            [*lines[:i], _without(deal, "Deck")],
        )
        yield f"deal{i}-dealer", [*lines[:i], _dump({**deal, "Dealer": deal["Dealer"] + 1})]
        yield f"deal{i}-round", [*lines[:i], _dump({**deal, round_key: deal[round_key] + 1})]
        yield (
            f"deal{i}-no-round",
            [*lines[:i], _without(deal, round_key)],
        )
        deck = list(deal["Deck"])
        deck[0], deck[-1] = deck[-1], deck[0]
        yield f"deal{i}-swapped", [*lines[:i], _dump({**deal, "Deck": deck}), *lines[i + 1 :]]
        yield f"deal{i}-short", [*lines[:i], _dump({**deal, "Deck": deck[1:]})]
        yield f"deal{i}-badcard", [*lines[:i], _dump({**deal, "Deck": ["ZZ", *deck[1:]]})]
        yield f"deal{i}-twice", [*lines[: i + 1], lines[i]]
    for i in rnd.sample(actions, min(12, len(actions))):
        obj = objs[i]
        head = lines[:i]
        yield f"line{i}-dropped", [*head, *lines[i + 1 :]]
        yield f"line{i}-seat", [*head, _dump({**obj, "Playerid": obj["Playerid"] + 1})]
        yield f"line{i}-seat-big", [*head, _dump({**obj, "Playerid": 99})]
        yield f"line{i}-seat-bool", [*head, _dump({**obj, "Playerid": True})]
        for key in obj:
            if key != "Type":
                yield (
                    f"line{i}-no-{key}",
                    [*head, _without(obj, key)],
                )
                for bad in ("ZZ", 7, ["ZZ"], None, True, 1000, "moon", "R"):
                    yield f"line{i}-{key}-{bad}", [*head, _dump({**obj, key: bad})]
        others = [o for o in objs[1:] if o["Type"] != obj["Type"] and o["Type"] != "Deal"]
        if others:
            other = {**rnd.choice(others), "Playerid": obj["Playerid"]}
            yield f"line{i}-other-kind", [*head, _dump(other)]
    yield "before-deal", [lines[0], lines[actions[0]]]


def case_record(name: str) -> list[str]:
    """The record of case ``name``'s seeded game."""
    _, game, seats, flags = next(c for c in CASES if c[0] == name)
    return record_lines(_played(game, seats, flags, f"golden-{name}"))


def case_bytes(name: str) -> bytes:
    """Case ``name``: its record, its replay, and each mutation's replay and load."""
    record = case_record(name)
    out = [*record, "# replay", *map(_dump, replay(record))]
    again = load_record(record)
    out.append("# load and write again: " + str(record_lines(again) == record))
    objs = [json.loads(line) for line in record]
    for label, lines in _mutations(objs, random.Random(name)):
        out.append(f"# {label}")
        out += map(_dump, replay(lines))
        try:
            loaded = load_record(lines)
        except RecordError as error:
            out.append(f"load: {error.line} {error.code}")
        else:
            out.append(f"load: {len(record_lines(loaded))} lines")
    return "".join(line + "\n" for line in out).encode("utf-8", "backslashreplace")


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name, *_ in CASES:
        (FIXTURES / f"{name}.jsonl").write_bytes(case_bytes(name))
        print(name, file=sys.stderr)
    write_answers()


def answers_bytes(game: str) -> bytes:
    """How ``spec.parse_action`` reads answers: every action line of a seeded game's
    record sent as an answer, and each broken in the ways ``_mutations`` breaks them
    (the action it names, or the error's code and message); the answers of other games,
    which a table of this one refuses, too."""
    name = next(c[0] for c in CASES if c[1] == game)
    spec = games.get(game)
    objs = [json.loads(line) for line in case_record(name)]
    answers = [o for o in objs if o["Type"] not in ("Record", "Deal")]
    extra: list[dict[str, Any]] = [
        {"Type": "Bid"},
        {"Type": "Bid", "Bid": "moon"},
        {"Type": "Bid", "Moon": True, "Bid": 100},
        {"Type": "Bid", "Moon": "yes"},
        {"Type": "Setup", "Trump": "R"},
        {"Type": "Setup", "Discard": ["R1"]},
        {"Type": "Play"},
        {"Type": "Nope"},
    ]
    seen: set[str] = set()
    out: list[str] = []
    for msg in [*answers, *extra]:
        tried = [msg] + [
            {**msg, key: bad}
            for key in msg
            if key not in ("Type", "Playerid")
            for bad in ("ZZ", 7, ["ZZ"], None, True, 1000, "moon", "R", [])
        ]
        for answer in tried:
            text = _dump(answer)
            if text in seen:
                continue
            seen.add(text)
            if answer["Type"] not in spec.answer_types:
                text += " (not an answer)"
            try:
                out.append(f"{text} -> {spec.parse_action(answer)!r}")
            except Exception as error:
                code = getattr(error, "code", None)
                out.append(f"{text} -> {type(error).__name__} {code} {error}")
    return "".join(line + "\n" for line in out).encode("utf-8", "backslashreplace")


def write_answers() -> None:
    for game in games.names():
        (FIXTURES / f"answers-{game}.txt").write_bytes(answers_bytes(game))


if __name__ == "__main__":
    main()
