"""Every JSON example in protocol.md is valid against protocol.schema.json, as the kind
its place on the page says it is; the error table and the schema's Code enum agree; and
the schema refuses what the contract rules out.

Where an example sits decides what it must be:
- ``--> {...}`` lines are server messages, ``<-- {...}`` lines client messages;
- in a table, the column decides: ``prompt`` and ``message`` (what everyone is told) are
  server messages, ``answer`` client messages. A ``Legal`` cell's list is checked as the
  ``Legal`` of its row's prompt, and a ``"Key":value`` fragment in a ``when`` cell as an
  optional key of a server message of its row's ``Type``;
- an object in the prose (a backticked ``{...}`` outside both) has no direction, so it
  must be valid at least one way; the sketches that are not JSON on purpose are listed;
- in the section "The classic port" all of these are messages of the classic dialect,
  checked against the schema's ``ClassicServerMessage`` / ``ClassicClientMessage``, and
  its example exchange must be what the server says there, line for line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hundred_server.config import AISettings
from hundred_server.core.hub import Hub
from hundred_server.protocol import codecs
from hundred_server.protocol.schema import (
    is_valid_client_message,
    is_valid_server_message,
    load_schema,
    validate_client_message,
    validate_server_message,
)
from tests.support.protocol_examples import FRIDAY_TABLE
from tests.support.transcript import CLOSED, replay_exchange

DOC_PATH = Path(__file__).resolve().parents[2] / "protocol.md"
DOC = DOC_PATH.read_text(encoding="utf-8")
LINES = DOC.splitlines()

SERVER = "server"
CLIENT = "client"
EITHER = "either"
CLASSIC_SERVER = "classic-server"
CLASSIC_CLIENT = "classic-client"
CLASSIC = {SERVER: CLASSIC_SERVER, CLIENT: CLASSIC_CLIENT}

ARROW = re.compile(r"^\s*(-->|<--)\s*(\{.*\})\s*$")
TICKED = re.compile(r"`([^`]*)`")
FRAGMENT = re.compile(r'^"(\w+)":(.+)$')
# The table columns whose JSON objects are messages, and which way they go.
COLUMN_DIRECTION = {"prompt": SERVER, "message": SERVER, "answer": CLIENT}

# Objects in the prose that are sketches, not JSON: the text and why.
SKETCHES = {
    '{"Type":"Error","Code":"line_too_long",...}': "elides the Message",
    '{"Type":"Bid","Playerid":m,"Bid":0}': "m stands for the sender's seat",
    "{": "the first character of a JSON line, not a message",
    # Views for bots: actions as a View's legal lists them, parts of a message.
    '{"Type":"Play","card":"5H"}': "an action in a View",
    '{"Type":"Bid","amount":20}': "an action in a View",
    '{"Type":"SelectTrump","suit":"C"}': "an action in a View",
    '{"Type":"Discard","cards":["2C","JK"]}': "an action in a View",
    '{"Type":"Setup","discard":["B5",...],"trump":"R","partners":["G14"]}': "an action in a View",
    '{"Type":<the prompt\'s Type>,"Seq":n,"Choice":i}': "n and i stand for the numbers",
}


def section_lines(title: str) -> range:
    """The 1-based line numbers of the ``## title`` section."""
    start = LINES.index(f"## {title}") + 1
    end = next(
        (n for n in range(start + 1, len(LINES) + 1) if LINES[n - 1].startswith("## ")),
        len(LINES) + 1,
    )
    return range(start, end)


CLASSIC_SECTION = section_lines("The classic port")


def dialect(direction: str, line: int) -> str:
    """The direction of an example on ``line``, in the classic dialect in its section."""
    return CLASSIC[direction] if line in CLASSIC_SECTION else direction


@dataclass(frozen=True)
class Example:
    line: int  # 1-based line in protocol.md
    direction: str
    message: dict[str, Any]
    text: str

    @property
    def id(self) -> str:
        return f"L{self.line}-{self.direction}-{self.message.get('Type')}"


def parse_object(text: str, line: int) -> dict[str, Any]:
    value = json.loads(text)
    assert isinstance(value, dict), f"protocol.md line {line}: not a JSON object: {text}"
    return value


def split_row(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def is_table_row(line: str) -> bool:
    return line.lstrip().startswith("|")


def arrow_examples() -> list[Example]:
    found = []
    for number, line in enumerate(LINES, 1):
        match = ARROW.match(line)
        if match:
            direction = dialect(SERVER if match[1] == "-->" else CLIENT, number)
            found.append(Example(number, direction, parse_object(match[2], number), match[2]))
    return found


@dataclass(frozen=True)
class Fragment:
    line: int
    kind: str  # the Type of the row's message
    key: str
    value: Any


@dataclass
class TableFindings:
    examples: list[Example]
    legal: list[Example]  # a prompt with its row's Legal list added
    fragments: list[Fragment]  # a "Key":value in a row's "when" cell
    stray: list[str]  # JSON objects in a column that names no direction


def table_findings() -> TableFindings:
    findings = TableFindings([], [], [], [])
    header: list[str] = []
    for number, line in enumerate(LINES, 1):
        if not is_table_row(line):
            header = []
            continue
        cells = split_row(line)
        if not header:
            header = [c.strip("`").lower() for c in cells]
            continue
        if all(set(c) <= set("-: ") for c in cells):
            continue
        row: dict[str, Example] = {}
        for column, cell in zip(header, cells, strict=True):
            for text in TICKED.findall(cell):
                if not text.startswith("{"):
                    continue
                if column not in COLUMN_DIRECTION:
                    findings.stray.append(f"line {number}, column {column!r}: {text}")
                    continue
                example = Example(
                    number,
                    dialect(COLUMN_DIRECTION[column], number),
                    parse_object(text, number),
                    text,
                )
                findings.examples.append(example)
                row.setdefault(column, example)
        columns = dict(zip(header, cells, strict=True))
        if "prompt" in row and "legal" in columns:
            for text in TICKED.findall(columns["legal"]):
                if text.startswith("["):
                    prompt = row["prompt"]
                    message = {**prompt.message, "Legal": json.loads(text)}
                    findings.legal.append(Example(number, SERVER, message, text))
        if "message" in row and "when" in columns:
            kind = row["message"].message["Type"]
            for text in TICKED.findall(columns["when"]):
                fragment = FRAGMENT.match(text)
                if fragment:
                    value = json.loads(fragment[2])
                    findings.fragments.append(Fragment(number, kind, fragment[1], value))
    return findings


def prose_objects() -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate(LINES, 1):
        if is_table_row(line) or ARROW.match(line):
            continue
        found += [(number, t) for t in TICKED.findall(line) if t.startswith("{")]
    return found


ARROWS = arrow_examples()
TABLES = table_findings()
PROSE = prose_objects()
DOC_EXAMPLES = ARROWS + TABLES.examples + TABLES.legal


def _classic_validator(entry: str) -> Any:
    root = {k: v for k, v in load_schema().items() if k != "anyOf"}
    return jsonschema.Draft202012Validator({**root, "$ref": f"#/$defs/{entry}"})


CLASSIC_VALIDATORS = {
    CLASSIC_SERVER: _classic_validator("ClassicServerMessage"),
    CLASSIC_CLIENT: _classic_validator("ClassicClientMessage"),
}


def is_valid(direction: str, message: Any) -> bool:
    if direction == SERVER:
        return is_valid_server_message(message)
    if direction == CLIENT:
        return is_valid_client_message(message)
    return bool(CLASSIC_VALIDATORS[direction].is_valid(message))


def check(example: Example) -> None:
    if example.direction == SERVER:
        validate_server_message(example.message)
    elif example.direction == CLIENT:
        validate_client_message(example.message)
    else:
        CLASSIC_VALIDATORS[example.direction].validate(example.message)


# ---------------------------------------------------------------- the examples are found


def test_the_extraction_finds_the_examples() -> None:
    # Counts as of writing; a floor, so the page may grow but the extraction can't go blind.
    assert len([e for e in ARROWS if e.direction == SERVER]) >= 15
    assert len([e for e in ARROWS if e.direction == CLIENT]) >= 6
    assert len([e for e in TABLES.examples if e.direction == SERVER]) >= 14
    assert len([e for e in TABLES.examples if e.direction == CLIENT]) >= 4
    assert len(TABLES.legal) >= 2
    assert len(TABLES.fragments) >= 2
    assert len(DOC_EXAMPLES) >= 41
    kinds = {(e.direction, e.message["Type"]) for e in DOC_EXAMPLES}
    for kind in ["Message", "Hello", "Game", "Table", "Tables", "Deal", "Bid", "Trump"]:
        assert (SERVER, kind) in kinds
    for kind in ["Discard", "Play", "Trick", "Score", "Error"]:
        assert (SERVER, kind) in kinds
    for kind in ["Hello", "Game", "Join", "Bid", "Trump", "Discard", "Play", "Watch", "Leave"]:
        assert (CLIENT, kind) in kinds
    for kind in ["Chat", "Mute", "Unmute"]:
        assert (CLIENT, kind) in kinds
    assert (SERVER, "Chat") in kinds
    assert (SERVER, "Meld") in kinds  # Pinochle
    for kind in ["Message", "Hello", "Game", "Deal", "Bid", "Trump", "Meld", "Play"]:
        assert (CLASSIC_SERVER, kind) in kinds
    for kind in ["Hello", "Game", "Bid", "Trump", "Play"]:
        assert (CLASSIC_CLIENT, kind) in kinds


def test_every_json_object_in_a_table_has_a_direction() -> None:
    assert TABLES.stray == []


# ---------------------------------------------------------------- ... and are valid


@pytest.mark.parametrize("example", DOC_EXAMPLES, ids=lambda e: e.id)
def test_doc_example_is_valid(example: Example) -> None:
    check(example)


@pytest.mark.parametrize("example", DOC_EXAMPLES, ids=lambda e: e.id)
def test_doc_example_with_an_unknown_key(example: Example) -> None:
    # Server messages are closed, so the tests catch an undocumented key; the server
    # ignores keys it does not know, so client messages are open.
    message = {**example.message, "Extra": 1}
    if example.direction in (SERVER, CLASSIC_SERVER):
        assert not is_valid(example.direction, message)
    else:
        assert is_valid(example.direction, message)


def server_definitions(kind: str) -> list[dict[str, Any]]:
    """The closed definitions of server messages of this Type."""
    return [
        d
        for d in load_schema()["$defs"].values()
        if d.get("additionalProperties") is False and d["properties"].get("Type") == {"const": kind}
    ]


@pytest.mark.parametrize("fragment", TABLES.fragments, ids=lambda f: f"L{f.line}-{f.key}")
def test_doc_fragment_is_an_optional_key_of_its_message(fragment: Fragment) -> None:
    # "Auto":true goes with a pass, not with the row's bid of 20, so the fragment is
    # checked against the message kind, not merged into the row's example.
    defs = load_schema()["$defs"]
    fitting = [
        d
        for d in server_definitions(fragment.kind)
        if fragment.key in d["properties"] and fragment.key not in d["required"]
    ]
    assert fitting, f"no {fragment.kind} message has an optional {fragment.key}"
    for definition in fitting:
        value_schema = {"$defs": defs, **definition["properties"][fragment.key]}
        jsonschema.Draft202012Validator(value_schema).validate(fragment.value)


@pytest.mark.parametrize(("line", "text"), PROSE, ids=[f"L{n}" for n, _ in PROSE])
def test_prose_object_is_valid_or_a_known_sketch(line: int, text: str) -> None:
    if text in SKETCHES:
        return
    message = parse_object(text, line)
    ways = [CLASSIC_SERVER, CLASSIC_CLIENT] if line in CLASSIC_SECTION else [SERVER, CLIENT]
    assert any(is_valid(way, message) for way in ways), text


def test_the_sketches_are_still_on_the_page() -> None:
    assert {text for _, text in PROSE} >= set(SKETCHES)


# ---------------------------------------------------------------- error codes


def doc_error_codes() -> list[str]:
    section = DOC.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    codes = []
    header_seen = False
    for line in section.splitlines():
        if not is_table_row(line):
            continue
        first = split_row(line)[0]
        if not header_seen:
            assert first == "Code"
            header_seen = True
            continue
        if set(first) <= set("-: "):
            continue
        match = re.fullmatch(r"`([a-z_]+)`", first)
        assert match, f"not a code: {first}"
        codes.append(match[1])
    return codes


def test_error_codes_in_the_doc_and_the_schema_agree() -> None:
    documented = doc_error_codes()
    in_schema = load_schema()["$defs"]["ErrorCode"]["enum"]
    assert len(documented) >= 20
    assert len(set(documented)) == len(documented)
    assert len(set(in_schema)) == len(in_schema)
    assert set(documented) == set(in_schema)


@pytest.mark.parametrize("code", doc_error_codes())
def test_every_documented_code_makes_a_valid_error(code: str) -> None:
    validate_server_message({"Type": "Error", "Code": code, "Message": "why"})


# ---------------------------------------------------------------- the schema itself


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = load_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_every_definition_has_a_description() -> None:
    defs = load_schema()["$defs"]
    assert [name for name, d in defs.items() if not d.get("description")] == []


def test_the_root_accepts_either_direction() -> None:
    validator = jsonschema.Draft202012Validator(load_schema())
    assert validator.is_valid({"Type": "Hello"})  # a server prompt
    assert validator.is_valid({"Type": "Join", "Table": 7})  # a client answer
    assert validator.is_valid({"Type": "Trump", "Playerid": 1, "Trump": "H"})  # both
    assert not validator.is_valid({"Type": "Nope"})
    assert not validator.is_valid({"Playerid": 1})


# ---------------------------------------------------------------- what is refused

BID_PROMPT = {"Type": "Bid", "Playerid": 1, "Seq": 1}
TABLE = FRIDAY_TABLE
HAND = ["5H", "JK", "AD", "9C", "TS"]
CHAT = {"Type": "Chat", "From": "ann", "Text": "good luck, all", "Where": "table"}
DEAL = {
    "Type": "Deal",
    "Playerid": 2,
    "Hand": HAND,
    "Dealer": 0,
    "Round": 1,
    "Players": ["ann", "bob", "cy", "dee"],
}

PINOCHLE_HAND = ["AD", "TD", "QD", "AC", "QC", "QC", "JC", "9C", "JH", "9H", "AS", "QS"]
MELD = {"Type": "Meld", "Playerid": 2, "Hand": ["KD", "KC", "KH", "QH", "KS"], "Amount": 12}
PINOCHLE_TRICK = {"Type": "Trick", "Playerid": 2, "WinningCard": "AH", "Trick": 6, "Points": 2}
PINOCHLE_SCORE = {
    "Type": "Score",
    "Round": 1,
    "Bidder": 2,
    "Bid": 21,
    "Made": True,
    "Meld": [13, 7],
    "Counters": [13, 12],
    "Points": [26, 19],
    "Score": [26, 19],
}
PINOCHLE_GAME_OVER = {**PINOCHLE_SCORE, "GameOver": True, "Winner": 0, "Win": True}
PINOCHLE_SNAPSHOT = {
    "Type": "Snapshot",
    "Table": 1,
    "Playerid": 0,
    "Players": ["ann", "AI 1", "AI 2", "AI 3"],
    "Round": 1,
    "Dealer": 0,
    "Phase": "tricks",
    "Hand": PINOCHLE_HAND,
    "Score": [0, 0],
    "Bids": [{"Playerid": 1, "Bid": 20}, {"Playerid": 2, "Bid": 21}],
    "Bidder": 2,
    "Bid": 21,
    "Trump": "H",
    "Meld": [{"Playerid": s, "Hand": [], "Amount": 0} for s in range(4)],
    "Tricks": 0,
    "Counters": [0, 0],
    "Trick": [{"Playerid": 2, "PlayedCard": "AH"}],
}

SERVER_REFUSED = {
    "bid prompt with an unknown key": {**BID_PROMPT, "Bids": [0, 20]},
    "card 1X played": {"Type": "Play", "Playerid": 3, "PlayedCard": "1X"},
    "card 1X in a hand": {**DEAL, "Hand": ["1X", "JK", "AD", "9C", "TS"]},
    "lower case card from the server": {"Type": "Play", "Playerid": 3, "PlayedCard": "5h"},
    "10 for T from the server": {"Type": "Play", "Playerid": 3, "PlayedCard": "10H"},
    "round score without Score": {"Type": "Score", "Round": 1, "Points": [20, -15, 5, 0]},
    "game over without Score": {"Type": "Score", "GameOver": True, "Winner": 0, "Win": True},
    "game over with Win null": {
        "Type": "Score",
        "GameOver": True,
        "Winner": 0,
        "Score": [115, 4],
        "Win": None,
    },
    "a deal with a hand and no seat": {k: v for k, v in DEAL.items() if k != "Playerid"},
    "a deal with a seat and no hand": {k: v for k, v in DEAL.items() if k != "Hand"},
    "a snapshot with a hand and no seat": {
        k: v for k, v in PINOCHLE_SNAPSHOT.items() if k != "Playerid"
    },
    "a snapshot with a seat and no hand": {
        k: v for k, v in PINOCHLE_SNAPSHOT.items() if k != "Hand"
    },
    "round score with Win": {
        "Type": "Score",
        "Round": 1,
        "Score": [5, 0],
        "Points": [5, 0],
        "Win": True,
    },
    "no Type": {"Playerid": 1, "Seq": 1},
    "Type not a string": {"Type": 1},
    "unknown Type": {"Type": "Pass", "Playerid": 1},
    "meld without Hand and Amount": {"Type": "Meld", "Playerid": 1},
    "not an object": ["Type", "Bid"],
    "unknown error code": {"Type": "Error", "Code": "oops", "Message": "why"},
    "error without Message": {"Type": "Error", "Code": "bad_json"},
    "bid of 17": {"Type": "Bid", "Playerid": 1, "Bid": 17},
    "Auto on a bid that is not a pass": {"Type": "Bid", "Playerid": 1, "Bid": 20, "Auto": True},
    "pre-pass ack of a bid": {"Type": "Bid", "Playerid": 3, "Bid": 20, "PrePass": True},
    "seat 6": {"Type": "Bid", "Playerid": 6, "Seq": 1},
    "Seq 0": {"Type": "Bid", "Playerid": 1, "Seq": 0},
    "Seq not a whole number": {"Type": "Bid", "Playerid": 1, "Seq": "1"},
    "Legal with a bid of 17": {**BID_PROMPT, "Legal": [0, 17]},
    "Legal empty": {**BID_PROMPT, "Legal": []},
    "Legal twice the same": {"Type": "Trump", "Playerid": 1, "Seq": 5, "Legal": ["H", "H"]},
    "trump that is not a suit": {"Type": "Trump", "Playerid": 1, "Trump": "X"},
    "trump as a word": {"Type": "Trump", "Playerid": 1, "Trump": "hearts"},
    "play prompt without Trump": {"Type": "Play", "Playerid": 3, "Seq": 9},
    "Lead without WinningCard": {
        "Type": "Play",
        "Playerid": 3,
        "Seq": 9,
        "Trump": "H",
        "Lead": "D",
    },
    "WinningCard without Lead": {
        "Type": "Play",
        "Playerid": 3,
        "Seq": 9,
        "Trump": "H",
        "WinningCard": "AD",
    },
    "a four-card hand": {**DEAL, "Hand": HAND[:4]},
    "a hand with a card twice": {**DEAL, "Hand": ["5H", "5H", "AD", "9C", "TS"]},
    "a deal for one player": {**DEAL, "Players": ["ann"]},
    "a deal with a round 0": {**DEAL, "Round": 0},
    "private discard without Hand": {"Type": "Discard", "Playerid": 2, "Count": 1, "Cards": ["2C"]},
    "discard count 6": {"Type": "Discard", "Playerid": 2, "Count": 6},
    "trick 6": {"Type": "Trick", "Playerid": 3, "WinningCard": "5H", "Trick": 6},
    "table with fewer players than seats": {**TABLE, "Players": ["ann", None]},
    "table whose Free does not count the empty seats": {**TABLE, "Free": 2},
    "table of another game": {**TABLE, "Game": "chess"},
    "table that does not say its AI": {k: v for k, v in TABLE.items() if k != "AI"},
    "table whose AI is empty": {**TABLE, "AI": ""},
    "table name of 31 characters": {**TABLE, "Name": "x" * 31},
    "player name of 21 characters": {**TABLE, "Players": ["a" * 21, "AI 1", None]},
    "player name with a comma": {**TABLE, "Players": ["ann,bob", "AI 1", None]},
    "a full table in Tables": {
        "Type": "Tables",
        "Tables": [
            {k: v for k, v in TABLE.items() if k != "Type"}
            | {"Free": 0, "Players": ["ann", "AI 1", "bob"]}
        ],
    },
    "a Table message in Tables": {"Type": "Tables", "Tables": [TABLE]},
    "a table that does not say how many watch": {k: v for k, v in TABLE.items() if k != "Watchers"},
    "a table watched by -1": {**TABLE, "Watchers": -1},
    "a watch list that says Watch false": {"Type": "Tables", "Tables": [], "Watch": False},
    "a Table message in a watch list": {"Type": "Tables", "Tables": [TABLE], "Watch": True},
    "a chat line with a newline": {**CHAT, "Text": "two\nlines"},
    "a chat line with a bidi override": {**CHAT, "Text": "evil\u202eoverride"},
    "a chat line with spaces around": {**CHAT, "Text": " hi "},
    "an empty chat line": {**CHAT, "Text": ""},
    "a chat line of 201 characters": {**CHAT, "Text": "x" * 201},
    "a chat line from nowhere": {**CHAT, "Where": "kitchen"},
    "a chat line from nobody": {k: v for k, v in CHAT.items() if k != "From"},
    "Hello prompt with a Message": {"Type": "Hello", "Message": "hi"},
    "Unpass echo without Playerid": {"Type": "Unpass"},
    # Pinochle
    "pinochle deal of 11 cards": {**DEAL, "Hand": PINOCHLE_HAND[:11]},
    "pinochle deal with a 2": {**DEAL, "Hand": ["2D", *PINOCHLE_HAND[1:]]},
    "bid of 251": {"Type": "Bid", "Playerid": 1, "Bid": 251},
    "Legal mixing the games' bids": {**BID_PROMPT, "Legal": [0, 15, 21]},
    "meld worth 0 with cards": {**MELD, "Amount": 0},
    "meld worth something without cards": {**MELD, "Hand": []},
    "meld with a 5": {**MELD, "Hand": ["5H"]},
    "meld without Amount": {k: v for k, v in MELD.items() if k != "Amount"},
    "trick 13 with Points": {**PINOCHLE_TRICK, "Trick": 13},
    "trick of 6 points": {**PINOCHLE_TRICK, "Points": 6},
    "trick with Points and TricksWon": {**PINOCHLE_TRICK, "TricksWon": [1, 0]},
    "pinochle hand score without Counters": {
        k: v for k, v in PINOCHLE_SCORE.items() if k != "Counters"
    },
    "pinochle hand score by seat": {**PINOCHLE_SCORE, "Score": [1, 2, 3, 4]},
    "pinochle hand score with Win": {**PINOCHLE_SCORE, "Win": True},
    "pinochle game over won by seat 2": {**PINOCHLE_GAME_OVER, "Winner": 2},
    "pinochle game over won by a side": {**PINOCHLE_GAME_OVER, "Winner": "NS"},
    "pinochle snapshot with a Bidder and no Bid": {
        k: v for k, v in PINOCHLE_SNAPSHOT.items() if k != "Bid"
    },
    "pinochle snapshot with three melds": {
        **PINOCHLE_SNAPSHOT,
        "Meld": PINOCHLE_SNAPSHOT["Meld"][:3],
    },
    "pinochle snapshot with TricksWon": {**PINOCHLE_SNAPSHOT, "TricksWon": [0, 0]},
}

SERVER_ACCEPTED = {
    "a deal": DEAL,
    "a watcher's deal": {k: v for k, v in DEAL.items() if k not in ("Playerid", "Hand")},
    "a watcher's game over": {"Type": "Score", "GameOver": True, "Winner": 0, "Score": [115, 4]},
    "a watcher's pinochle game over": {k: v for k, v in PINOCHLE_GAME_OVER.items() if k != "Win"},
    "a watcher's pinochle snapshot": {
        k: v for k, v in PINOCHLE_SNAPSHOT.items() if k not in ("Playerid", "Hand")
    },
    "bid prompt with Legal": {**BID_PROMPT, "Legal": [0, 15, 20, 25, 30, 60]},
    "auto pass": {"Type": "Bid", "Playerid": 1, "Bid": 0, "Auto": True},
    "trump prompt with Legal": {
        "Type": "Trump",
        "Playerid": 1,
        "Seq": 5,
        "Legal": ["H", "D", "S", "C"],
    },
    "discard prompt with Legal": {"Type": "Discard", "Playerid": 2, "Seq": 6, "Legal": HAND},
    "private discard of nothing": {
        "Type": "Discard",
        "Playerid": 2,
        "Count": 0,
        "Cards": [],
        "Hand": HAND,
    },
    "first play prompt": {"Type": "Play", "Playerid": 3, "Seq": 9, "Trump": "H", "Legal": ["JK"]},
    "passed-out round": {
        "Type": "Score",
        "Round": 2,
        "Score": [0, 0],
        "Points": [0, 0],
        "PassedOut": True,
    },
    "a full table": {**TABLE, "Free": 0, "Players": ["ann", "AI 1", "bob"]},
    "a two-seat table": {**TABLE, "Seats": 2, "Free": 0, "Players": ["ann", "AI 1"]},
    "no open tables": {"Type": "Tables", "Tables": []},
    "a chat line": CHAT,
    "a chat line of 200 characters in the lobby": {**CHAT, "Text": "é" * 200, "Where": "lobby"},
    "a chat line from a second ann": {**CHAT, "From": "ann (2)"},
    "a watch list with a full table": {
        "Type": "Tables",
        "Tables": [
            {k: v for k, v in TABLE.items() if k != "Type"}
            | {"Free": 0, "Players": ["ann", "AI 1", "bob"], "Watchers": 3}
        ],
        "Watch": True,
    },
    "unpass echo": {"Type": "Unpass", "Playerid": 3},
    # Pinochle
    "a pinochle deal": {**DEAL, "Hand": PINOCHLE_HAND},
    "a pinochle table": {**TABLE, "Game": "pinochle"},
    "pinochle bid prompt": {**BID_PROMPT, "Legal": [0, *range(20, 251)]},
    "pinochle bid": {"Type": "Bid", "Playerid": 1, "Bid": 21},
    "pinochle pass": {"Type": "Bid", "Playerid": 1, "Bid": 0},
    "a meld": MELD,
    "no meld": {**MELD, "Hand": [], "Amount": 0},
    "a double pinochle": {**MELD, "Hand": ["JD", "JD", "QS", "QS"], "Amount": 30},
    "pinochle trick": PINOCHLE_TRICK,
    "the last pinochle trick": {**PINOCHLE_TRICK, "Trick": 12, "Points": 5},
    "pinochle hand score": PINOCHLE_SCORE,
    "pinochle game over": PINOCHLE_GAME_OVER,
    "pinochle snapshot": PINOCHLE_SNAPSHOT,
    "pinochle snapshot before the deal": {
        **{k: v for k, v in PINOCHLE_SNAPSHOT.items() if k not in ("Bidder", "Bid", "Trump")},
        "Phase": "deal",
        "Hand": [],
        "Bids": [],
        "Meld": [],
        "Trick": [],
    },
}

CLIENT_REFUSED = {
    "card 1X played": {"Type": "Play", "PlayedCard": "1X"},
    "card 1X discarded": {"Type": "Discard", "Cards": ["2C", "1X"]},
    "card 11H": {"Type": "Play", "PlayedCard": "11H"},
    "no Type": {"PlayedCard": "5H"},
    "unknown Type": {"Type": "Pass"},
    "a server-only Type": {"Type": "Deal"},
    "Type in lower case": {"Type": "bid", "Bid": 0},
    "bid of 17": {"Type": "Bid", "Bid": 17},
    "bid as a string": {"Type": "Bid", "Bid": "20"},
    "Hello with another choice": {"Type": "Hello", "Message": "Create"},
    "Hello with an unknown choice": {"Type": "Hello", "Message": "dance"},
    "a name of 21 characters": {"Type": "Hello", "Message": "create", "Name": "a" * 21},
    "an empty name": {"Type": "Hello", "Message": "create", "Name": ""},
    "option 21": {"Type": "Game", "Option": 21},
    "option 0": {"Type": "Game", "Option": 0},
    "one seat": {"Type": "Game", "Option": 5, "Seats": 1},
    "as many bots as seats": {"Type": "Game", "Option": 5, "Seats": 3, "Bots": 3},
    "an AI there is none of": {"Type": "Game", "Option": 1, "AI": "genius"},
    "six bots": {"Type": "Game", "Option": 5, "Bots": 6},
    "join without a table": {"Type": "Join"},
    "watch without a table": {"Type": "Watch"},
    "chat without Text": {"Type": "Chat"},
    "mute without Name": {"Type": "Mute"},
    "unmute of a number": {"Type": "Unmute", "Name": 7},
    "watch of a table named, not numbered": {"Type": "Watch", "Table": "friday"},
    "Watchers that is not a boolean": {"Type": "Game", "Option": 1, "Watchers": "no"},
    "trump that is not a suit": {"Type": "Trump", "Trump": "X"},
    "discard without Cards": {"Type": "Discard"},
    "discard of a card, not a list": {"Type": "Discard", "Cards": "2C"},
    "Playerid 6": {"Type": "Play", "Playerid": 6, "PlayedCard": "5H"},
    "Seq 0": {"Type": "Play", "Seq": 0, "PlayedCard": "5H"},
    "bid of 251": {"Type": "Bid", "Bid": 251},
    "bid of 19": {"Type": "Bid", "Bid": 19},
}

CLIENT_ACCEPTED = {
    "a bare Hello asks the question again": {"Type": "Hello"},
    "a Bid without Bid is a pass, as the seed's clients send it": {"Type": "Bid", "Playerid": 1},
    "trump by name": {"Type": "Trump", "Trump": "hearts"},
    "lower case card": {"Type": "Play", "PlayedCard": "5h"},
    "10 for T": {"Type": "Play", "PlayedCard": "10H"},
    "lower case joker": {"Type": "Play", "PlayedCard": "jk"},
    "discard of nothing": {"Type": "Discard", "Cards": []},
    "answer without Playerid": {"Type": "Bid", "Bid": 0},
    "answer echoing Seq": {"Type": "Bid", "Playerid": 1, "Seq": 12, "Bid": 60},
    "unpass": {"Type": "Unpass"},
    "unpass with Seq": {"Type": "Unpass", "Playerid": 3, "Seq": 4},
    "two seats, one bot": {"Type": "Game", "Option": 5, "Seats": 2, "Bots": 1, "Name": "x"},
    "the naive AI": {"Type": "Game", "Option": 1, "AI": "naive"},
    "a table nobody may watch": {"Type": "Game", "Option": 1, "Watchers": False},
    "the list of tables to watch": {"Type": "Hello", "Message": "watch"},
    "watch a table": {"Type": "Watch", "Table": 7},
    "stop watching": {"Type": "Leave"},
    "a chat line the server cleans": {"Type": "Chat", "Text": " two\nlines "},
    "mute": {"Type": "Mute", "Name": "bob"},
    "four bots' worth of defaults": {"Type": "Game", "Option": 5, "Bots": 3},
    "name with every allowed kind of character": {
        "Type": "Hello",
        "Message": "join",
        "Name": "Ann_B-2 .x",
    },
    "unknown keys": {"Type": "Join", "Table": 7, "Token": "abc", "Version": 2},
    "a pinochle bid": {"Type": "Bid", "Playerid": 2, "Bid": 21},
    "the top pinochle bid": {"Type": "Bid", "Bid": 250},
}

# The classic port (the seed's dialect): the lines of the seed's own transcript come out
# of the codec and validate in test_pinochle_wire.py; here, what its definitions refuse
# and accept.
CLASSIC_SERVER_REFUSED = {
    "a pass with Bid 0": {"Bid": 0, "Playerid": 1, "Type": "Bid"},
    "a prompt with Seq": {"Playerid": 0, "Seq": 1, "Type": "Bid"},
    "a deal with Dealer": {"Dealer": 0, "Hand": PINOCHLE_HAND, "Playerid": 0, "Type": "Deal"},
    "a meld with Amount 0": {"Amount": 0, "Hand": [], "Playerid": 0, "Type": "Meld"},
    "a meld with cards and no Amount": {"Hand": ["9H"], "Playerid": 1, "Type": "Meld"},
    "a play with Trump": {"PlayedCard": "AD", "Playerid": 2, "Trump": "H", "Type": "Play"},
    "a play prompt without Trump": {"Playerid": 0, "Type": "Play"},
    "a play prompt with Lead only": {"Lead": "D", "Playerid": 0, "Trump": "H", "Type": "Play"},
    "a score with Win false": {"GameOver": True, "Score": [24, -55], "Type": "Score", "Win": False},
    "Win without GameOver": {"Score": [24, -55], "Type": "Score", "Win": True},
    "a score with Round": {"Round": 1, "Score": [3, -10], "Type": "Score"},
    "an Error": {"Code": "bad_json", "Message": "not JSON", "Type": "Error"},
    "a Trick": {"Playerid": 2, "Trick": 1, "Type": "Trick", "WinningCard": "AD"},
    "a Table": TABLE,
}
CLASSIC_SERVER_ACCEPTED = {
    "a deal": {"Hand": PINOCHLE_HAND, "Playerid": 0, "Type": "Deal"},
    "a pass or the prompt to bid": {"Playerid": 1, "Type": "Bid"},
    "a bid": {"Bid": 25, "Playerid": 2, "Type": "Bid"},
    "the prompt to name trump": {"Playerid": 0, "Type": "Trump"},
    "trump named": {"Playerid": 2, "Trump": "H", "Type": "Trump"},
    "no meld": {"Hand": [], "Playerid": 0, "Type": "Meld"},
    "a meld": {"Amount": 1, "Hand": ["9H"], "Playerid": 1, "Type": "Meld"},
    "a card played": {"PlayedCard": "AD", "Playerid": 2, "Type": "Play"},
    "the prompt to lead": {"Playerid": 0, "Trump": "C", "Type": "Play"},
    "the prompt to follow": {
        "Lead": "D",
        "Playerid": 0,
        "Trump": "H",
        "Type": "Play",
        "WinningCard": "AD",
    },
    "a hand's score": {"Score": [-25, 19], "Type": "Score"},
    "a winner's last score": {"GameOver": True, "Score": [24, -55], "Type": "Score", "Win": True},
    "a loser's last score": {"GameOver": True, "Score": [24, -55], "Type": "Score"},
    "a message": {"Message": "Ok, bye bye!", "Type": "Message"},
    "the lobby prompt": {"Type": "Hello"},
    "the create or join prompt": {"Type": "Game"},
}
CLASSIC_CLIENT_REFUSED = {
    "Join": {"Table": 1, "Type": "Join"},
    "Unpass": {"Type": "Unpass"},
    "a negative table": {"Option": -1, "Type": "Game"},
    "Game without Option": {"Type": "Game"},
    "a bid of 19": {"Bid": 19, "Playerid": 0, "Type": "Bid"},
    "a play without a card": {"Playerid": 0, "Type": "Play"},
}
CLASSIC_CLIENT_ACCEPTED = {
    "create": {"Message": "create", "Type": "Hello"},
    "option 1": {"Option": 1, "Type": "Game"},
    "table 12": {"Option": 12, "Type": "Game"},
    "back from the tables": {"Option": 0, "Type": "Game"},
    "a pass as the seed's client sends it": {"Playerid": 0, "Type": "Bid"},
    "a bid": {"Bid": 22, "Playerid": 0, "Type": "Bid"},
    "trump": {"Playerid": 0, "Trump": "C", "Type": "Trump"},
    "a card": {"PlayedCard": "KD", "Playerid": 0, "Type": "Play"},
}


CLASSIC_CASES = [
    (CLASSIC_SERVER, CLASSIC_SERVER_REFUSED, False),
    (CLASSIC_SERVER, CLASSIC_SERVER_ACCEPTED, True),
    (CLASSIC_CLIENT, CLASSIC_CLIENT_REFUSED, False),
    (CLASSIC_CLIENT, CLASSIC_CLIENT_ACCEPTED, True),
]


@pytest.mark.parametrize(
    ("direction", "message", "valid"),
    [(d, m, valid) for d, cases, valid in CLASSIC_CASES for m in cases.values()],
    ids=[f"{d}-{name}" for d, cases, _ in CLASSIC_CASES for name in cases],
)
def test_classic_message(direction: str, message: Any, valid: bool) -> None:
    assert is_valid(direction, message) is valid


#: Each direction's checks and its messages the schema refuses and accepts.
SCHEMA_CASES = [
    ("server", is_valid_server_message, validate_server_message, SERVER_REFUSED, SERVER_ACCEPTED),
    ("client", is_valid_client_message, validate_client_message, CLIENT_REFUSED, CLIENT_ACCEPTED),
]


@pytest.mark.parametrize(
    ("is_valid_message", "validate", "message"),
    [
        pytest.param(is_ok, check, message, id=f"{side}-{name}")
        for side, is_ok, check, refused, _ in SCHEMA_CASES
        for name, message in refused.items()
    ],
)
def test_a_message_refused(
    is_valid_message: Callable[[Any], bool], validate: Callable[[Any], None], message: Any
) -> None:
    assert not is_valid_message(message)
    with pytest.raises(jsonschema.ValidationError):
        validate(message)


@pytest.mark.parametrize(
    ("validate", "message"),
    [
        pytest.param(check, message, id=f"{side}-{name}")
        for side, _, check, _, accepted in SCHEMA_CASES
        for name, message in accepted.items()
    ],
)
def test_a_message_accepted(validate: Callable[[Any], None], message: Any) -> None:
    validate(message)


def test_the_error_names_what_is_wrong() -> None:
    # Variants of one Type are told apart by a key, so the error is about the variant
    # meant, not "valid under none of the given schemas".
    with pytest.raises(jsonschema.ValidationError, match="'Bids' was unexpected"):
        validate_server_message(SERVER_REFUSED["bid prompt with an unknown key"])
    with pytest.raises(jsonschema.ValidationError, match="'Score' is a required property"):
        validate_server_message(SERVER_REFUSED["round score without Score"])
    with pytest.raises(jsonschema.ValidationError, match="'1X' does not match"):
        validate_client_message(CLIENT_REFUSED["card 1X played"])
    with pytest.raises(jsonschema.ValidationError, match="'Type' is a required property"):
        validate_client_message(CLIENT_REFUSED["no Type"])


# ---------------------------------------------------------------- the classic exchange

CLASSIC_TEXT = "\n".join(LINES[CLASSIC_SECTION.start - 1 : CLASSIC_SECTION.stop - 1])
CLASSIC_EXCHANGE = re.findall(r"```\n(.*?)```", CLASSIC_TEXT, re.S)[0].splitlines()


def test_the_classic_exchange_is_a_whole_one() -> None:
    assert CLASSIC_EXCHANGE[0].startswith('--> {"Message":"Do you want to join')
    assert CLASSIC_EXCHANGE[-1] == CLOSED
    assert sum(line.startswith("<-- ") for line in CLASSIC_EXCHANGE) >= 8
    assert any('"Type":"Meld"' in line for line in CLASSIC_EXCHANGE)


def test_the_classic_exchange_replays_exactly() -> None:
    """Each client line is sent on the classic port when the exchange shows it; the
    whole exchange, client lines in place, must come out the same."""
    # The strong AI's fixed work, with no wall-clock cap to cut it short on a busy
    # machine: its moves are the same every time.
    hub = Hub(seed_source=lambda: "protocol-example", ai=AISettings(budget=10.0))
    conn, commands = hub.connect("example", codecs.CLASSIC)
    transcript = replay_exchange(hub, conn, commands, CLASSIC_EXCHANGE, timers=True)
    assert transcript == CLASSIC_EXCHANGE
    assert hub.lobby.sessions == {}
