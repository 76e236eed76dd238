"""The typed messages (hundred_server/protocol/messages.py, protocol/declare.py and each
game's ``messages.py``): the schema generated from them means what the schema kept by hand
before them meant (tests/data/protocol.schema.untyped.json, main's file when the types
came), over a corpus of real messages from seeded games, the page's examples and refusals,
and mutations of them; and the types say what their schema says."""

from __future__ import annotations

import copy
import json
import random
import re
import typing
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, TypedDict, get_args, get_origin

import jsonschema
import jsonschema_rs
import pytest

from hundred_server import games
from hundred_server.protocol import declare, messages
from hundred_server.protocol.declare import Contribution, Dispatch, Shape, Slot, Value, Variant
from tests.protocol import test_protocol_doc as doc
from tests.support.hub_harness import Client, Harness, answer_from_legal

UNTYPED = Path(__file__).resolve().parents[1] / "data" / "protocol.schema.untyped.json"
#: The validator protocol/schema.py says yes or no with (jsonschema says why).
FAST = jsonschema_rs.Draft202012Validator
ENTRY_POINTS = ("ServerMessage", "ClientMessage", "ClassicServerMessage", "ClassicClientMessage")


def validators(
    schema: dict[str, Any], kind: Any = jsonschema.Draft202012Validator
) -> dict[str, Any]:
    # As protocol/schema.py builds them: the root's $defs, entered at one definition.
    root = {k: v for k, v in schema.items() if k != "anyOf"}
    return {entry: kind({**root, "$ref": f"#/$defs/{entry}"}) for entry in ENTRY_POINTS}


# The hand-kept schema and the generated one of the same games, judged by FAST.
@cache
def fast_untyped() -> dict[str, Any]:
    return validators(json.loads(UNTYPED.read_text(encoding="utf-8")), FAST)


@cache
def fast_typed_kept() -> dict[str, Any]:
    return validators(hand_kept_games_schema(), FAST)


@cache
def typed() -> dict[str, Any]:
    return validators(messages.build_schema())


#: The games the hand-kept schema describes (Spades came after it).
HAND_KEPT_GAMES = ("hundredandten", "whist", "pinochle", "rook", "hundert")


def hand_kept_games_schema() -> dict[str, Any]:
    """The generated schema of the games the hand-kept one knows."""
    kept = {n: c for n, c in messages.contributions().items() if n in HAND_KEPT_GAMES}
    return messages.build_schema(kept)


# ------------------------------------------------------------------------- the corpus


def _answer(client: Client, answers: list[dict[str, Any]], rng: random.Random) -> bool:
    prompt = client.pending()
    if prompt is None:
        return False
    answer = answer_from_legal(prompt, rng)
    answers.append(answer)
    client.send(answer)
    return True


def _play_preset(name: str, option: int, seed: int) -> list[dict[str, Any]]:
    """Every message of one seeded game at lobby option ``option``: what its people and a
    watcher were sent and what the people answered; the first person leaves after a few
    answers and takes the seat back with the token (Seat, Snapshot)."""
    h = Harness(f"corpus-{name}-{option}-{seed}")
    rng = random.Random(seed)
    spec = games.get(name)
    preset = spec.presets[option - 1]
    people = [h.json_client("ann")]
    answers: list[dict[str, Any]] = [
        {"Type": "Hello", "Message": "create", "Game": name},
        {"Type": "Game", "Option": option},
    ]
    for answer in answers:
        people[0].send(answer)
    watcher = h.json_client("wes")
    watcher.send({"Type": "Hello", "Message": "watch"})
    watcher.send({"Type": "Watch", "Table": 1})
    for n in range(1, preset.seats - len(preset.ai_seats)):
        person = h.json_client(f"p{n}")
        person.send({"Type": "Hello", "Message": "join"})
        person.send({"Type": "Join", "Table": 1})
        people.append(person)
    for _ in range(6):
        for person in people:
            _answer(person, answers, rng)
    people[0].disconnect()
    back = h.json_client()
    back.send({"Type": "Hello", "Token": h.tokens[0]})
    people[0] = back
    for _ in range(5000):
        live = [c for c in people if not c.closed and c.game_over() is None]
        if not live or not any(_answer(c, answers, rng) for c in live):
            break
    received = [m for c in (*people, watcher) for m in c.messages]
    return received + answers


def _kind(msg: dict[str, Any]) -> str:
    """What tells messages apart for the schema: the Type, the keys, and each value's
    JSON type (and a list's length), not the values themselves."""

    def of(value: Any) -> str:
        if isinstance(value, list):
            return f"list{len(value)}"
        return type(value).__name__

    return json.dumps([msg.get("Type"), sorted((k, of(v)) for k, v in msg.items())])


@cache
def real_messages() -> list[dict[str, Any]]:
    """At most three messages of each kind from a seeded game at every lobby option of
    every game."""
    found: dict[str, list[dict[str, Any]]] = {}
    for name in games.names():
        for option in range(1, len(games.get(name).presets) + 1):
            for msg in _play_preset(name, option, seed=option):
                same = found.setdefault(_kind(msg), [])
                if len(same) < 3 and msg not in same:
                    same.append(msg)
    return [msg for same in found.values() for msg in same]


def page_messages() -> list[Any]:
    """protocol.md's examples and the refusals and acceptances test_protocol_doc keeps."""
    kept = [
        *doc.SERVER_REFUSED.values(),
        *doc.SERVER_ACCEPTED.values(),
        *doc.CLIENT_REFUSED.values(),
        *doc.CLIENT_ACCEPTED.values(),
    ]
    return [e.message for e in doc.DOC_EXAMPLES] + kept


WRONG_VALUES: tuple[object, ...] = ("x", -1, 7, 250, None, [], {}, True, 1.5, "moon", "R14")


def mutations(msg: dict[str, Any], rng: random.Random) -> Iterator[Any]:
    """The message with a key dropped, a key added, a value changed to a wrong one."""
    yield {**msg, "Bogus": 1}
    for key in msg:
        yield {k: v for k, v in msg.items() if k != key}
        yield {**msg, key: rng.choice(WRONG_VALUES)}
        value = msg[key]
        if isinstance(value, list) and value:
            yield {**msg, key: value[1:]}
            yield {**msg, key: [*value, value[0]]}


def hybrids(found: list[dict[str, Any]], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Two messages of one Type merged: the keys that tell variants (and games) apart
    meet, which is where the order of a Dispatch's tests could matter."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for msg in found:
        if isinstance(msg, dict):
            by_type.setdefault(str(msg.get("Type")), []).append(msg)
    for group in by_type.values():
        for _ in range(min(10, len(group))):
            first, second = rng.choice(group), rng.choice(group)
            yield {**first, **second}
            yield {**second, **first}


def before_views(msg: Any) -> bool:
    """Whether ``msg`` uses nothing of Views for bots (View, Views, Choice), which came
    after the hand-kept schema (test_protocol_doc checks the page's examples of it)."""
    return not (isinstance(msg, dict) and {"View", "Views", "Choice"} & msg.keys())


def corpus() -> list[Any]:
    rng = random.Random(29)
    base = [m for m in real_messages() + page_messages() if before_views(m)]
    found: list[Any] = [*base, *hybrids([m for m in base if isinstance(m, dict)], rng)]
    dicts = [m for m in base if isinstance(m, dict)]
    for msg in rng.sample(dicts, min(len(dicts), 100)):
        found.extend(mutations(msg, rng))
    # Each message once (the seeded games repeat many): a verdict is the message's own.
    return list({json.dumps(msg, sort_keys=True): msg for msg in found}.values())


def test_the_corpus_covers_every_message_type() -> None:
    # Every definition of a message the server sends or a client answers is met by a
    # real or documented message, so the verdicts below are over every kind.
    defs = messages.build_schema()["$defs"]
    met: set[str] = set()
    for msg in real_messages() + page_messages():
        for entry in ("ServerMessage", "ClientMessage"):
            if typed()[entry].is_valid(msg):
                met.update(_definitions_used(defs, entry, msg))
    closed = {
        name
        for name, d in defs.items()
        if d.get("additionalProperties") is False and "Type" in d.get("properties", {})
    }
    classic = {name for name in closed if name.startswith("Classic")}
    assert closed - classic - met == set()


@cache
def _condition(text: str) -> Any:
    # A Dispatch's test as a validator of its own, over the generated definitions.
    defs = messages.build_schema()["$defs"]
    return jsonschema.Draft202012Validator({"$defs": defs, **json.loads(text)})


def _definitions_used(defs: dict[str, Any], name: str, msg: Any) -> set[str]:
    """The definitions a valid message goes through from ``name``, following if/then."""
    used = {name}
    node = defs[name]
    while True:
        if "allOf" in node and name.endswith("Message"):
            branch = next(
                (
                    b
                    for b in node["allOf"]
                    if b["if"]["properties"]["Type"]["const"] == msg.get("Type")
                ),
                None,
            )
            if branch is not None and "$ref" in branch["then"]:
                target = branch["then"]["$ref"].split("/")[-1]
                return used | _definitions_used(defs, target, msg)
            if branch is not None:  # an answer that may be a Choice: if Choice, else its own
                node = branch["then"]
                continue
        if "if" in node and "then" in node and "$ref" in node["then"]:
            test = _condition(json.dumps(node["if"]))
            branch = node["then"] if test.is_valid(msg) else node.get("else")
            if branch is None:
                return used
            if "$ref" in branch:
                return used | _definitions_used(defs, branch["$ref"].split("/")[-1], msg)
            node = branch
            continue
        return used


def test_the_generated_schema_gives_the_verdicts_of_the_hand_kept_one() -> None:
    found = corpus()
    assert len(found) > 2000
    differ = [
        (entry, msg)
        for msg in found
        for entry in ENTRY_POINTS
        if fast_untyped()[entry].is_valid(msg) != fast_typed_kept()[entry].is_valid(msg)
    ]
    assert differ == []
    # Both verdicts occur, for each side: the corpus tells the schemas apart if they differ.
    for entry in ("ServerMessage", "ClientMessage"):
        verdicts = {fast_typed_kept()[entry].is_valid(msg) for msg in found}
        assert verdicts == {True, False}


def test_jsonschema_rs_gives_jsonschemas_verdicts() -> None:
    # protocol/schema.py and the test above take jsonschema-rs's yes or no: it is
    # jsonschema's on every message of the corpus, valid or not, at every entry point.
    found = corpus()
    fast = validators(messages.build_schema(), FAST)
    differ = [
        (entry, msg)
        for msg in found
        for entry in ENTRY_POINTS
        if fast[entry].is_valid(msg) != typed()[entry].is_valid(msg)
    ]
    assert differ == []
    assert {fast["ServerMessage"].is_valid(msg) for msg in found} == {True, False}


def test_every_real_server_message_is_valid() -> None:
    # The seeded games' messages themselves are what the schema accepts (the answers are
    # client messages).
    for msg in real_messages():
        assert typed()["ServerMessage"].is_valid(msg) or typed()["ClientMessage"].is_valid(msg)


def without_views(defs: dict[str, Any]) -> dict[str, Any]:
    """The definitions as they were before Views for bots (protocol.md): without its two
    definitions, the prompts' View, Hello's Views and the answers' Choice branch."""
    added = {"SeatView", "ChoiceAnswer"}
    assert added <= set(defs)

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            if value.get("if") == {"required": ["Choice"]}:
                return strip(value["else"])
            out = {k: strip(v) for k, v in value.items()}
            if isinstance(out.get("description"), str):
                choice = " An answer to a prompt with Choice is a ChoiceAnswer."
                out["description"] = out["description"].replace(choice, "")
            props = out.get("properties", {})
            if props.get("View") == {"$ref": "#/$defs/SeatView"}:
                out["properties"] = {k: v for k, v in props.items() if k != "View"}
            if props.get("Views") == {"type": "boolean"}:
                out["properties"] = {k: v for k, v in props.items() if k != "Views"}
                out["description"] = out["description"].split(" With Views true")[0]
            return out
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return {name: strip(d) for name, d in defs.items() if name not in added}


def test_the_definitions_are_the_hand_kept_ones_but_where_games_come_in() -> None:
    # Definition by definition, the generated schema is the old one, but for the
    # places that put the games' parts together: the entry points' Type lists, the
    # union of hands and of game names (order only), and three dispatchers whose games'
    # tests are now tried the latest game first.
    old = json.loads(UNTYPED.read_text(encoding="utf-8"))["$defs"]
    new = without_views(hand_kept_games_schema()["$defs"])
    assert set(old) == set(new)

    def unordered(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: unordered(v) for k, v in value.items()}
        if isinstance(value, list):
            return sorted((unordered(v) for v in value), key=json.dumps)
        return value

    # The error codes are errors.CODES, which grew by the sixth game's one code.
    grown = set(new["ErrorCode"].pop("enum")) - set(old["ErrorCode"].pop("enum"))
    assert grown == {"spades_not_broken"}
    changed = {name for name in old if old[name] != new[name]}
    reordered = {name for name in changed if unordered(old[name]) == unordered(new[name])}
    assert changed - reordered == {"ServerPlay", "Score", "ServerSnapshot"}


# -------------------------------------------------------------------- the types themselves


def message_shapes() -> list[Shape]:
    found = [d for d in messages.DEFINITIONS if isinstance(d, Shape)]
    for contribution in messages.contributions().values():
        found.extend(d for d in contribution.definitions if isinstance(d, Shape))
    return found


JSON_TYPES = {int: "integer", float: "number", str: "string", bool: "boolean", list: "array"}


def _python_types(hint: Any) -> set[Any]:
    if get_origin(hint) in (NotRequired, typing.Required, Annotated):
        return _python_types(get_args(hint)[0])
    if get_origin(hint) is Literal:
        return {type(v) for v in get_args(hint)}
    if get_origin(hint) in (typing.Union, type(int | str)):
        return set().union(*(_python_types(a) for a in get_args(hint)))
    if typing.is_typeddict(hint):
        return {dict}
    return {get_origin(hint) or hint}


def _json_types(schema: Any, defs: dict[str, Any]) -> set[str] | None:
    """The JSON types a schema allows, where it says (None: it does not say)."""
    if "$ref" in schema:
        return _json_types(defs[schema["$ref"].split("/")[-1]], defs)
    if "type" in schema:
        kinds = schema["type"]
        return set(kinds) if isinstance(kinds, list) else {kinds}
    if "const" in schema or "enum" in schema:
        values = [schema["const"]] if "const" in schema else schema["enum"]
        return {JSON_TYPES.get(type(v), "null" if v is None else "object") for v in values}
    if "anyOf" in schema:
        parts = [_json_types(s, defs) for s in schema["anyOf"]]
        return None if None in parts else set().union(*parts)  # type: ignore[arg-type]
    return None


@pytest.mark.parametrize("entry", message_shapes(), ids=lambda s: s.cls.__name__)
def test_a_keys_python_type_is_the_json_type_its_schema_allows(entry: Shape) -> None:
    defs = messages.build_schema()["$defs"]
    name = entry.cls.__name__
    definition = defs.get(name) or declare._Builder(messages.DEFINITIONS, {}).message(entry)
    hints = typing.get_type_hints(entry.cls, include_extras=True)
    for key, schema in definition["properties"].items():
        allowed = _json_types(schema, defs)
        if allowed is None:
            continue
        python = {
            JSON_TYPES.get(t, "object" if t is dict else "null" if t is type(None) else "?")
            for t in _python_types(hints[key])
        }
        if "number" in allowed:
            allowed = allowed | {"integer"}
        if python == {"integer"} and allowed == {"number"}:
            continue
        assert python <= allowed | {"?"}, f"{name}.{key}: {python} against {allowed}"
        assert "?" not in python, f"{name}.{key}: no JSON type for {hints[key]}"


def test_required_keys_are_the_ones_not_marked_not_required() -> None:
    defs = messages.build_schema()["$defs"]
    for entry in message_shapes():
        if entry.inline:
            continue
        definition = defs[entry.cls.__name__]
        assert set(definition.get("required", ())) == {
            k for k in entry.cls.__required_keys__ if entry.extends is None or k == "Type"
        }


def test_every_wire_type_has_a_message_type() -> None:
    # Each Type an entry point lists dispatches to a definition that exists, and each
    # game's own Types are in it.
    defs = messages.build_schema()["$defs"]
    for entry in ENTRY_POINTS:
        listed = defs[entry]["properties"]["Type"]["enum"]
        thens = [b["then"] for b in defs[entry]["allOf"]]
        # An answer that may be a Choice: the ChoiceAnswer if it has one, else its own.
        choices = [t for t in thens if "$ref" not in t]
        assert all(t["then"] == {"$ref": "#/$defs/ChoiceAnswer"} for t in choices)
        targets = [(t.get("else") or t)["$ref"].split("/")[-1] for t in thens]
        assert len(listed) == len(set(listed)) == len(targets)
        assert all(t in defs for t in targets)
    answers = defs["ClientMessage"]["allOf"]
    by_choice = {b["if"]["properties"]["Type"]["const"] for b in answers if "if" in b["then"]}
    assert by_choice == {"Bid", "Trump", "Discard", "Play", "Setup"}
    assert {"Pile", "Kitty", "Setup", "Meld"} <= set(
        defs["ServerMessage"]["properties"]["Type"]["enum"]
    )
    assert set(defs["GameName"]["enum"]) == set(games.names())


def test_every_registered_game_contributes() -> None:
    found = messages.contributions()
    assert list(found) == list(games.names())
    assert all(isinstance(c, Contribution) for c in found.values())


# ------------------------------------------------------------------------ the declaring


class Point(TypedDict):
    """--> A test message.

    Keys:
        X: Where it is across,
            from the left.
    """

    Type: Literal["Point"]
    X: Annotated[int, {"minimum": 0}]
    Label: NotRequired[str]
    Tags: NotRequired[list[str]]


class Small(Value, schema={"type": "integer", "maximum": 3}):
    """A small number."""


class Near(TypedDict):
    Type: Literal["Point"]
    Y: Annotated[int, Small]
    Kind: Annotated[str, Slot("kinds", (Small,))]


class AnyPoint(Dispatch, side="server", wire_type="Point", chain=(Point,)):
    """--> Point: the game's, else the plain one."""


def test_a_message_type_becomes_its_definition() -> None:
    defs = declare.build_definitions([shape := declare.shape(Point, closed=True)], {})
    assert shape.cls is Point
    assert defs["Point"] == {
        "description": "--> A test message.",
        "type": "object",
        "properties": {
            "Type": {"const": "Point"},
            "X": {
                "description": "Where it is across, from the left.",
                "type": "integer",
                "minimum": 0,
            },
            "Label": {"type": "string"},
            "Tags": {"type": "array"},
        },
        "required": ["Type", "X"],
        "additionalProperties": False,
    }


def test_a_games_variant_and_slot_values_come_first_and_in() -> None:
    game = Contribution(
        (Small, declare.shape(Near, closed=True)),
        variants=(Variant("server", "Point", Near, {"required": ["Y"]}),),
        slots={"kinds": (Point,)},
    )
    defs = declare.build_definitions([declare.shape(Point), AnyPoint], {"toy": game})
    assert defs["AnyPoint"] == {
        "description": "--> Point: the game's, else the plain one.",
        "if": {"required": ["Y"]},
        "then": {"$ref": "#/$defs/Near"},
        "else": {"$ref": "#/$defs/Point"},
    }
    assert defs["Near"]["properties"]["Kind"] == {
        "anyOf": [{"$ref": "#/$defs/Small"}, {"$ref": "#/$defs/Point"}]
    }
    assert defs["Near"]["properties"]["Y"] == {"$ref": "#/$defs/Small"}


def test_a_variant_of_a_type_no_dispatch_tells_apart_is_refused() -> None:
    game = Contribution((), variants=(Variant("client", "Point", Point, {"required": ["X"]}),))
    with pytest.raises(ValueError, match="no generic Dispatch of client Point"):
        declare.build_definitions([declare.shape(Point), AnyPoint], {"toy": game})


def test_a_definition_named_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="Point is defined twice"):
        declare.build_definitions([declare.shape(Point), declare.shape(Point)], {})


def test_a_key_without_a_check_is_refused() -> None:
    class Loose(TypedDict):
        Type: Literal["Loose"]
        Where: int | None

    with pytest.raises(TypeError, match="say what checks a key"):
        declare.build_definitions([declare.shape(Loose)], {})


def test_building_does_not_change_the_declarations() -> None:
    before = copy.deepcopy([getattr(d, "schema", None) for d in messages.DEFINITIONS])
    messages.build_schema()
    messages.build_schema()
    assert [getattr(d, "schema", None) for d in messages.DEFINITIONS] == before


PACKAGE = Path(messages.__file__).resolve().parents[1]
TYPE_LITERAL = re.compile(r'"Type": "(\w+)"')
#: Types the code writes that are not wire messages: a game record's first line, and
#: a ladder table's record's fair clock lines (core/botclock.py).
NOT_WIRE = frozenset({"Record", "Clock"})


def test_every_type_the_code_writes_has_a_message_type() -> None:
    # Grep the package for the messages it builds: each Type is one an entry point
    # dispatches, so a message added to the code without its type fails here.
    defs = messages.build_schema()["$defs"]
    typed_kinds = {k for entry in ENTRY_POINTS for k in defs[entry]["properties"]["Type"]["enum"]}
    written = {
        kind
        for path in PACKAGE.rglob("*.py")
        for kind in TYPE_LITERAL.findall(path.read_text(encoding="utf-8"))
    }
    assert len(written) > 20
    assert written - NOT_WIRE - typed_kinds == set()


@pytest.mark.parametrize("name", games.names())
def test_a_games_answers_are_client_message_types(name: str) -> None:
    defs = messages.build_schema()["$defs"]
    client_kinds = set(defs["ClientMessage"]["properties"]["Type"]["enum"])
    assert set(games.get(name).answer_types) <= client_kinds
