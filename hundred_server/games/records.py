"""Game records (JSON lines) for every registered game, and their replay.

A record's first line names its game::

    {"Type":"Record","Game":"hundredandten","Version":1,"Players":["ann","bob","cy","dee"]}

then each round's ``Deal`` with its deck, and the actions in the order they happened.
Every game's records have this one format (games/kit/records.py); a game's
``RecordFormat`` (its ``records.py``, ``GameSpec.records``) says only what is its own.
``replay`` reads the header and replays the record by its game's format, which yields a
``Score`` line after every round and a ``GameOver`` one at the end, or an ``Error``
line (``Line``, ``Code``, ``Message``) at the first line it cannot replay.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable, Iterator
from typing import Any, Final

from hundred_server import games
from hundred_server.games.base import GameState
from hundred_server.protocol.errors import RecordError
from hundred_server.protocol.wire import compact_json

#: Every ``Code`` an ``Error`` line can carry, and what it means (every game's).
ERROR_CODES: Final[dict[str, str]] = {
    code: text for name in games.names() for code, text in games.get(name).record_codes.items()
}


def dumps_line(obj: dict[str, Any]) -> str:
    """One record or replay line as compact JSON (no newline)."""
    return compact_json(obj)


def record_objects(game: GameState) -> list[dict[str, Any]]:
    """The record of ``game`` so far (finished or not), one JSON-ready dict per line."""
    spec = games.spec_of(game)
    return [spec.header_object(game), *spec.history_objects(game, 0)]


def record_lines(game: GameState) -> list[str]:
    """The record of ``game`` as JSON text lines (without newlines)."""
    return [dumps_line(obj) for obj in record_objects(game)]


def write_record(game: GameState, path: str | os.PathLike[str]) -> None:
    """Write the record of ``game`` to ``path`` (UTF-8, one line per object)."""
    with open(path, "w", encoding="utf-8", newline="\n") as file:
        file.writelines(line + "\n" for line in record_lines(game))


def read_lines(path: str | os.PathLike[str]) -> Iterator[bytes]:
    """The physical lines of a record file, as bytes (``replay`` decodes them)."""
    with open(path, "rb") as file:
        yield from file


def _game_of(lines: Iterable[str | bytes]) -> tuple[str, Iterator[str | bytes], int]:
    """The record's game (by its first non-blank line; the default game if that line
    names none, so the game's replay reports what is wrong with it), all the lines
    again, and the first line's number."""
    it = iter(lines)
    head: list[str | bytes] = []
    name = games.DEFAULT_GAME
    for line in it:
        head.append(line)
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            break
        if isinstance(obj, dict) and isinstance(obj.get("Game"), str):
            name = obj["Game"]
        break
    return name, itertools.chain(head, it), len(head)


def _unknown(name: str, line: int) -> RecordError:
    known = ", ".join(games.names())
    return RecordError(f"no such game {json.dumps(name)} ({known})", "unknown_game", line)


def replay(lines: Iterable[str | bytes]) -> Iterator[dict[str, Any]]:
    """Replay a record: its Score lines, and an Error line at the first bad line.

    ``lines`` are physical lines (text or UTF-8 bytes, newlines allowed at the end).
    """
    name, lines, at = _game_of(lines)
    if name not in games.names():
        error = _unknown(name, at)
        yield {"Type": "Error", "Line": at, "Code": error.code, "Message": error.message}
        return
    yield from games.get(name).replay(lines)


def load_record(lines: Iterable[str | bytes]) -> GameState:
    """The game a record describes, as far as it goes; raises ``RecordError`` (with
    ``line``) at the first line that cannot be replayed."""
    name, lines, at = _game_of(lines)
    if name not in games.names():
        raise _unknown(name, at)
    return games.get(name).load_record(lines)
