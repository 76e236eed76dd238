"""A seat's view as JSON, both ways: the game's ``View`` (what its built-in AIs read) on
the wire for bots (protocol.md, Views for bots), and back into the same ``View`` for a
bot that runs the server's own AIs in its process (clients/bot.py).

``encode(value)`` works on any of the games' values, by what the value is:

- a dataclass is an object of its fields, tagged with its class name
  (``{"Type":"Play","card":"5H"}``): every game's actions, its ``View``, their parts;
- a card (``InternedCard``) is its code (``"5H"``, ``"R14"``), an enum its value
  (``Phase`` ``"play"``, ``Suit`` ``"H"``), a tuple or a list a list; None, booleans,
  numbers and strings are themselves;
- a class that is not a dataclass names one of its parts (``Parts``) and converts to
  and from it (``to_parts``, ``from_parts``): Hundred and Ten's ``View``, which keeps
  most of its state in one tuple for speed. Its object is its parts', tagged with its
  own name.

``decode(spec, obj)`` reads the ``View`` of ``spec``'s game back by the type hints of
its dataclass fields (``tuple[X, ...]``, ``X | None``, unions of actions by their tag,
cards by their deck's ``parse``), so that ``decode(spec, encode(view)) == view``; a
value that does not fit its hint is a ``ViewError`` naming where it is. The class of a
game's view is found through the game interface only (a game dealt from a fixed seed),
so this module names no game.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Final

from hundred_server import games
from hundred_server.games.base import GameSpec, needs_deal, player_names
from hundred_server.games.kit.cards import InternedCard
from hundred_server.protocol.errors import HundredError

#: The key of the class name in an encoded dataclass: capitalised like the wire's own
#: keys, so it never meets a field (fields are lower case).
TAG: Final = "Type"


class ViewError(ValueError):
    """An object that is no view of the game: the message says where and why."""


def encode(value: object) -> Any:
    """``value`` (a view, an action, one of their parts) as JSON-ready data."""
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str or kind is float:
        return value
    if isinstance(value, InternedCard):
        return value.code
    if isinstance(value, enum.Enum):
        return value.value
    if kind is tuple or kind is list:
        return [encode(v) for v in value]  # type: ignore[attr-defined]
    to_parts = getattr(value, "to_parts", None)
    if to_parts is not None:
        return {**encode(to_parts()), TAG: kind.__name__}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {TAG: kind.__name__}
        for f in dataclasses.fields(value):
            out[f.name] = encode(getattr(value, f.name))
        return out
    raise TypeError(f"no JSON form for {value!r}")


def decode(spec: GameSpec, obj: object) -> Any:
    """The ``View`` of ``spec``'s game that ``obj`` (an ``encode``d one) stands for."""
    return _Reader(_classes(spec.name)).read(view_type(spec), obj, "View")


def view_type(spec: GameSpec) -> type:
    """The class of ``spec``'s views: a game at its smallest table, dealt from a fixed
    seed, asked for the view of its first seat to act."""
    return _view_type(spec.name)


@functools.cache
def _view_type(name: str) -> type:
    spec = games.get(name)
    game = spec.new_game(player_names(min(spec.seat_counts)), None)
    game.deal(spec.seeded_deck("views", 0))
    assert not needs_deal(game)
    assert game.to_act is not None
    return type(spec.view(game, game.to_act))


@functools.cache
def _classes(name: str) -> Mapping[str, type]:
    """The game's classes an ``Any`` may stand for, by name: its actions (what a
    ``legal`` of ``tuple[Any, ...]`` holds) and its view's."""
    spec = games.get(name)
    found = {line.kind.__name__: line.kind for line in spec.records.actions.lines.values()}
    found[view_type(spec).__name__] = view_type(spec)
    return found


@functools.cache
def _fields_of(cls: type) -> dict[str, Any]:
    """The fields of a dataclass and their type hints, in order."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


class _Reader:
    """Reads JSON data as the value of a type hint (see the module docstring)."""

    def __init__(self, classes: Mapping[str, type]) -> None:
        self.classes = classes

    def read(self, hint: Any, data: object, where: str) -> Any:
        origin = typing.get_origin(hint)
        if hint is Any:
            return self.any(data, where)
        if origin is typing.Union or origin is types.UnionType:
            return self.union(typing.get_args(hint), data, where)
        if origin is tuple:
            return self.tuple(typing.get_args(hint), data, where)
        if hint is type(None):
            if data is not None:
                raise ViewError(f"{where} must be null, not {data!r}")
            return None
        if isinstance(hint, type):
            return self.plain(hint, data, where)
        raise ViewError(f"{where}: no reader for the type {hint!r}")

    def any(self, data: object, where: str) -> Any:
        if isinstance(data, dict):
            tag = data.get(TAG)
            cls = self.classes.get(tag) if isinstance(tag, str) else None
            if cls is None:
                raise ViewError(f"{where}: {TAG} {tag!r} names no class of the game")
            return self.plain(cls, data, where)
        if isinstance(data, list):
            return tuple(self.any(v, f"{where}[{i}]") for i, v in enumerate(data))
        return data

    def union(self, members: tuple[Any, ...], data: object, where: str) -> Any:
        if data is None and type(None) in members:
            return None
        members = tuple(m for m in members if m is not type(None))
        if len(members) == 1:
            return self.read(members[0], data, where)
        tag = data.get(TAG) if isinstance(data, dict) else None
        if tag is not None:  # a union of dataclasses, told apart by their tags
            for member in members:
                if isinstance(member, type) and member.__name__ == tag:
                    return self.plain(member, data, where)
            raise ViewError(f"{where}: {TAG} {tag!r} is none of {_names(members)}")
        for member in members:
            try:
                return self.read(member, data, where)
            except ViewError:
                continue
        raise ViewError(f"{where}: {data!r} is none of {_names(members)}")

    def tuple(self, args: tuple[Any, ...], data: object, where: str) -> Any:
        if not isinstance(data, list):
            raise ViewError(f"{where} must be a list, not {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(self.read(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(data) != len(args):
            raise ViewError(f"{where} must have {len(args)} items, not {len(data)}")
        pairs = enumerate(zip(args, data, strict=True))
        return tuple(self.read(a, v, f"{where}[{i}]") for i, (a, v) in pairs)

    def plain(self, cls: type, data: object, where: str) -> Any:
        if issubclass(cls, InternedCard):
            parse = getattr(cls, "parse")  # noqa: B009 (each deck's own)
            if not isinstance(data, str):
                raise ViewError(f"{where} must be a card code, not {data!r}")
            try:
                return parse(data)
            except HundredError as exc:
                raise ViewError(f"{where}: {exc}") from None
        if issubclass(cls, enum.Enum):
            try:
                return cls(data)
            except ValueError:
                raise ViewError(f"{where}: {data!r} is no {cls.__name__}") from None
        if cls is bool or cls is str or cls is int:
            if type(data) is not cls:
                raise ViewError(f"{where} must be {cls.__name__}, not {data!r}")
            return data
        if cls is float:
            if type(data) not in (int, float):
                raise ViewError(f"{where} must be a number, not {data!r}")
            return float(data)  # type: ignore[arg-type]
        parts = getattr(cls, "Parts", None)
        if parts is not None:
            return cls.from_parts(self.dataclass(parts, data, where, cls.__name__))  # type: ignore[attr-defined]
        if dataclasses.is_dataclass(cls):
            return self.dataclass(cls, data, where, cls.__name__)
        raise ViewError(f"{where}: no reader for {cls.__name__}")

    def dataclass(self, cls: type, data: object, where: str, name: str) -> Any:
        if not isinstance(data, dict):
            raise ViewError(f"{where} must be an object, not {data!r}")
        if data.get(TAG, name) != name:
            raise ViewError(f"{where}: {TAG} must be {name!r}, not {data.get(TAG)!r}")
        hints = _fields_of(cls)
        missing = [k for k in hints if k not in data]
        if missing:
            raise ViewError(f"{where} lacks {', '.join(missing)}")
        values = {k: self.read(hint, data[k], f"{where}.{k}") for k, hint in hints.items()}
        try:
            return cls(**values)
        except (HundredError, TypeError) as exc:  # the class's own checks
            raise ViewError(f"{where}: {exc}") from None


def _names(members: tuple[Any, ...]) -> str:
    return ", ".join(getattr(m, "__name__", repr(m)) for m in members)
