"""How a wire message is declared as a type, and how ``protocol.schema.json`` is made from
the declarations.

A message is a ``TypedDict`` (one per wire ``Type`` and variant): its keys are the
message's keys, ``NotRequired`` marks the optional ones, ``Literal["Deal"]`` fixes
``Type``, and each key's value is ``Annotated[<python type>, <what checks it>]``: a named
definition (a ``Value`` subclass: a seat, a card, a hand) or a JSON Schema fragment for
what a Python type cannot say (a range, a pattern, a length). The class docstring is the
message's description; a ``Keys:`` section in it describes single keys. ``shape`` adds
what belongs to the message as a whole: closed or open, and the rules that tie its keys
together (a key that needs another, a bound that depends on the table's size), which a
``TypedDict`` cannot state, so they are written as JSON Schema beside the type.

Several messages share one ``Type`` (a prompt and an announcement are both ``Bid``): a
``Dispatch`` tells them apart by a key, in order, as an ``if``/``then``/``else`` chain,
so a validation error names what is wrong with the variant meant rather than "valid
under none". An ``Envelope`` is an entry point (every message one side sends) that
dispatches on ``Type``.

Generic modules may not name a game (tests/test_game_interface.py), so a game declares
its own messages in its package (``games/<game>/messages.py``, a ``Contribution``): its
definitions, the ``Variant``s it adds to a generic ``Dispatch`` or ``Envelope``, and the
values it adds to a generic ``Slot`` (the hands a Deal may carry, the bid amounts).
``build_schema`` puts the generic declarations and every registered game's together.
"""

import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, get_args, get_origin, get_type_hints

JSON = dict[str, Any]
#: The sides a message goes: the main port's server and client, the classic port's.
Side = Literal["server", "client", "classic server", "classic client"]


def ref(target: type) -> JSON:
    """A reference to a named definition (a ``Value`` or a message type)."""
    return {"$ref": f"#/$defs/{target.__name__}"}


class Value:
    """A named definition that is not a message: its docstring is its description and its
    ``schema`` keyword the rest (``class Seat(Value, schema={...})``). Subclasses are
    markers, never instantiated; a key's annotation names one as ``Annotated[int, Seat]``."""

    schema: ClassVar[JSON] = {}

    def __init_subclass__(cls, schema: JSON | None = None, **rest: Any) -> None:
        super().__init_subclass__(**rest)
        cls.schema = schema or {}


@dataclass(frozen=True)
class Shape:
    """A message type and what a ``TypedDict`` cannot say about it.

    ``closed``: a key not declared is an error (every server message). ``extends``: the
    type adds keys to this one, and the definition is that one's ``$ref`` plus the new
    keys, closed with ``unevaluatedProperties`` so the base's keys count as declared.
    ``rules``: JSON Schema keywords for the message as a whole (``if``/``then``,
    ``dependentRequired``, ``allOf``, ``oneOf``, ``not``). ``inline``: written out where
    it is used (a ``Dispatch``'s target, the items of a key's ``list[...]``) instead of
    as a definition of its own.
    """

    cls: type
    closed: bool = False
    extends: type | None = None
    rules: JSON = field(default_factory=dict)
    inline: bool = False


def shape(
    cls: type,
    *,
    closed: bool = False,
    extends: type | None = None,
    inline: bool = False,
    rules: JSON | None = None,
) -> Shape:
    return Shape(cls, closed, extends, rules or {}, inline)


@dataclass(frozen=True)
class Slot:
    """A place in a generic definition that every game may add values to: the schema is
    ``anyOf`` the generic ``base`` and the games' values (each passed through ``each``,
    e.g. to make an array of it); ``names`` gives the games' registry names instead."""

    kind: str
    base: tuple[type, ...] = ()
    each: Callable[[JSON], JSON] | None = None
    names: bool = False


class Dispatch(Value):
    """One ``Type``'s variants (``wire_type``, as ``side`` sends it), told apart in
    ``chain`` order: ``(condition, target)`` pairs, then the target when no condition
    holds. The games' ``Variant``s for the same side and ``Type`` are tried first, the
    game registered last first: a game added later knows the keys of those before it and
    picks one of its own, while an earlier game's test (a Pinochle score has a Bidder)
    may also hold for a later game's message."""

    side: ClassVar[Side]
    wire_type: ClassVar[str]
    chain: ClassVar[tuple[tuple[JSON, type] | type, ...]]

    def __init_subclass__(
        cls, side: Side, wire_type: str, chain: tuple[tuple[JSON, type] | type, ...]
    ) -> None:
        super().__init_subclass__()
        cls.side, cls.wire_type, cls.chain = side, wire_type, chain


class Envelope(Value):
    """Every message one side sends: ``types`` maps each ``Type`` to its definition,
    the games' own ``Type``s added."""

    side: ClassVar[Side]
    types: ClassVar[Mapping[str, type]]
    #: The answers that may come as a ``Choice`` instead (``choice``: the message they
    #: then are): these ``Type``s and every game's own.
    choice: ClassVar[type | None]
    by_choice: ClassVar[frozenset[str]]

    def __init_subclass__(
        cls,
        side: Side,
        types: Mapping[str, type],
        choice: type | None = None,
        by_choice: frozenset[str] = frozenset(),
    ) -> None:
        super().__init_subclass__()
        cls.side, cls.types, cls.choice, cls.by_choice = side, types, choice, by_choice


@dataclass(frozen=True)
class Variant:
    """A game's message on a side: with ``when`` (a JSON Schema condition), one more
    variant of a generic ``Dispatch`` for ``wire_type``; without it, a ``Type`` of the
    game's own in the side's ``Envelope``."""

    side: Side
    wire_type: str
    then: type
    when: JSON | None = None


#: What a module declares: a named value (or Dispatch, Envelope), or a message's Shape.
Definition = type[Value] | Shape


@dataclass(frozen=True)
class Contribution:
    """What one game adds to the wire: its definitions, its variants of generic ``Type``s
    and its own ``Type``s, and its values for the generic ``Slot``s by kind."""

    definitions: tuple[Definition, ...]
    variants: tuple[Variant, ...] = ()
    slots: Mapping[str, tuple[type, ...]] = field(default_factory=dict)


# --------------------------------------------------------------------------- building


def _doc(obj: type) -> tuple[str, dict[str, str]]:
    """A docstring as a one-line description and the descriptions of its ``Keys:``."""
    text = inspect.cleandoc(obj.__doc__ or "")
    head, _, keys = text.partition("\n\nKeys:\n")
    described: dict[str, str] = {}
    name = ""
    for line in keys.splitlines():
        if line.startswith("    ") and not line.startswith("     ") and ": " in line:
            name, _, rest = line.strip().partition(": ")
            described[name] = rest
        elif line.strip():
            described[name] += " " + line.strip()
    return " ".join(line.strip() for line in head.splitlines()), described


#: The JSON type of a key's Python type, where one type says it.
_JSON_TYPES: dict[object, str] = {
    int: "integer",
    float: "number",
    str: "string",
    bool: "boolean",
    list: "array",
    dict: "object",
}


def _json_type(hint: Any) -> str | None:
    return _JSON_TYPES.get(get_origin(hint) or hint)


def _required(hint: Any, *, total: bool) -> bool:
    # From the hint, not ``__required_keys__``: under ``from __future__ import
    # annotations`` Python 3.11 puts a ``NotRequired`` key among the required ones.
    if get_origin(hint) is typing.NotRequired:
        return False
    return total or get_origin(hint) is typing.Required


class _Builder:
    def __init__(self, generic: Sequence[Definition], games: Mapping[str, Contribution]):
        self.games = games
        self.definitions: list[Definition] = [*generic]
        for contribution in games.values():
            self.definitions.extend(contribution.definitions)
        self.shapes = {d.cls: d for d in self.definitions if isinstance(d, Shape)}
        self.variants = [v for c in reversed(list(games.values())) for v in c.variants]

    def fill(self, fragment: Any) -> Any:
        """``fragment`` with its ``Slot``s filled in."""
        if isinstance(fragment, Slot):
            if fragment.names:
                return list(self.games)
            members = [*fragment.base]
            for contribution in self.games.values():
                members.extend(contribution.slots.get(fragment.kind, ()))
            each = fragment.each or (lambda r: r)
            return {"anyOf": [each(ref(m)) for m in members]}
        if isinstance(fragment, dict):
            return {k: self.fill(v) for k, v in fragment.items()}
        if isinstance(fragment, list | tuple):
            return [self.fill(v) for v in fragment]
        return fragment

    def key_schema(self, hint: Any, description: str | None) -> JSON:
        out: JSON = {} if description is None else {"description": description}
        if get_origin(hint) is typing.NotRequired or get_origin(hint) is typing.Required:
            (hint,) = get_args(hint)
        if get_origin(hint) is Literal:
            values = list(get_args(hint))
            return {**out, **({"const": values[0]} if len(values) == 1 else {"enum": values})}
        if hasattr(hint, "__metadata__"):
            (check,) = hint.__metadata__
            if isinstance(check, type):
                return {**out, **ref(check)}
            if isinstance(check, Slot):
                return {**out, **self.fill(check)}
            filled: JSON = self.fill(check)
            (hint,) = get_args(hint)[:1]
        else:
            filled = {}
        json_type = _json_type(hint)
        if json_type is None and not filled:
            raise TypeError(f"say what checks a key of type {hint!r}: Annotated[..., check]")
        if json_type is not None and "type" not in filled:
            out["type"] = json_type
        args = get_args(hint)
        item = self.shapes.get(args[0]) if json_type == "array" and args else None
        if item is not None and item.inline and "items" not in filled:
            out["items"] = self.message(item, with_description=False)
        return {**out, **filled}

    def message(self, entry: Shape, with_description: bool = True) -> JSON:
        cls = entry.cls
        description, described = _doc(cls)
        hints = get_type_hints(cls, include_extras=True)
        inherited: set[str] = set(get_type_hints(entry.extends)) if entry.extends else set()
        own = [k for k in hints if k not in inherited]
        required = [k for k in own if _required(hints[k], total=cls.__total__)]  # type: ignore[attr-defined]
        out: JSON = {"description": description} if with_description else {}
        if entry.extends is not None:
            out.update(ref(entry.extends))
        else:
            out["type"] = "object"
        out["properties"] = {k: self.key_schema(hints[k], described.get(k)) for k in own}
        if required:
            out["required"] = required
        if entry.closed:
            out["additionalProperties" if entry.extends is None else "unevaluatedProperties"] = (
                False
            )
        out.update(self.fill(entry.rules))
        return out

    def target(self, target: type) -> JSON:
        entry = self.shapes.get(target)
        if entry is not None and entry.inline:
            return self.message(entry, with_description=False)
        return ref(target)

    def dispatch(self, cls: type[Dispatch]) -> JSON:
        steps: list[tuple[JSON, type] | type] = [
            (v.when, v.then)
            for v in self.variants
            if v.side == cls.side and v.wire_type == cls.wire_type and v.when is not None
        ]
        steps.extend(cls.chain)

        def chain(rest: Sequence[tuple[JSON, type] | type]) -> JSON:
            first = rest[0]
            if isinstance(first, tuple):
                condition, then = first
                return {"if": condition, "then": self.target(then), "else": chain(rest[1:])}
            return self.target(first)

        return chain(steps)

    def envelope(self, cls: type[Envelope]) -> JSON:
        types = dict(cls.types)
        by_choice = set(cls.by_choice)
        for contribution in self.games.values():
            for v in contribution.variants:
                if v.side == cls.side and v.when is None:
                    types[v.wire_type] = v.then
                    by_choice.add(v.wire_type)

        def then(kind: str, target: type) -> JSON:
            if cls.choice is None or kind not in by_choice:
                return ref(target)
            return {"if": {"required": ["Choice"]}, "then": ref(cls.choice), "else": ref(target)}

        return {
            "type": "object",
            "required": ["Type"],
            "properties": {"Type": {"enum": list(types)}},
            "allOf": [
                {
                    "if": {"properties": {"Type": {"const": kind}}, "required": ["Type"]},
                    "then": then(kind, target),
                }
                for kind, target in types.items()
            ],
        }

    def definition(self, entry: Definition) -> tuple[str, JSON]:
        if isinstance(entry, Shape):
            return entry.cls.__name__, self.message(entry)
        description, _ = _doc(entry)
        if issubclass(entry, Dispatch):
            body = self.dispatch(entry)
        elif issubclass(entry, Envelope):
            body = self.envelope(entry)
        else:
            body = self.fill(entry.schema)
        return entry.__name__, {"description": description, **body}

    def build(self) -> dict[str, JSON]:
        defs: dict[str, JSON] = {}
        for entry in self.definitions:
            if isinstance(entry, Shape) and entry.inline:
                continue
            name, body = self.definition(entry)
            if name in defs:
                raise ValueError(f"{name} is defined twice")
            defs[name] = body
        self.check_variants(defs)
        return defs

    def check_variants(self, defs: Mapping[str, JSON]) -> None:
        dispatched = {
            (e.side, e.wire_type)
            for e in self.definitions
            if isinstance(e, type) and issubclass(e, Dispatch)
        }
        for v in self.variants:
            if v.when is not None and (v.side, v.wire_type) not in dispatched:
                raise ValueError(f"no generic Dispatch of {v.side} {v.wire_type} for {v.then}")


def build_definitions(
    generic: Sequence[Definition], games: Mapping[str, Contribution]
) -> dict[str, JSON]:
    """Every definition, the generic ones first, then each game's in registry order."""
    return _Builder(generic, games).build()
