"""Fuzzing the server: random bytes, random JSON, mutated valid messages, bounded count.

Two levels:

- The ``Hub`` alone (no sockets), for volume: hypothesis sends lines at every stage of a
  connection (mode not yet known, lobby question, options, tables, waiting at a table,
  mid-game at a Bid / Trump / Discard / Play prompt, a game where another seat is to
  act, text mode in the lobby and mid-game). Properties: ``receive`` never raises;
  every message validates against the schema; in JSON mode a line that is not valid
  gets exactly one ``Error`` (a documented Code), first, then the prompt again, the same
  as before, and changes nothing (the hub's state is compared before and after); a
  line that is surely bad (not UTF-8, not JSON, not an object, no known Type, a message
  that does not fit where you are) gets its Error with the expected Code; nobody else
  hears of it; afterwards a valid answer is accepted and a game is played to the end
  and checked by the harness oracle (``check_stream``).
- A live ``Server`` on 127.0.0.1 port 0: a few hundred lines over several connections,
  paced well under the server's per-connection rate limit, while another connection
  plays a real game; new connections still get the greeting, every bad line on a JSON
  connection gets its Error (and the same reply the ``Hub`` alone gives), the real game
  and a game started after the fuzz (by a fuzzed connection and a new one) complete.
  The lines are a corpus drawn by hypothesis, with a fixed seed, before the server starts.

The bugs this file found (four, fixed since) are pinned by the regression tests at the
end, each with the exact input that showed it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from hundred_server import games
from hundred_server.config import Listeners, Settings
from hundred_server.core.fairness import commitment
from hundred_server.core.hub import Close, Hub, Send
from hundred_server.core.lobby import Session, Where
from hundred_server.io.server import Server
from hundred_server.protocol.codecs.jsonlines import client_types
from hundred_server.protocol.codecs.text import HELP, HELP_SEATED, HELP_WATCHING, strip_telnet
from hundred_server.protocol.wire import MAX_LINE, strip_line
from tests.support.hub_harness import (
    HELLO,
    QUESTION,
    Client,
    Harness,
    answer_from_legal,
    check_stream,
    is_prompt,
    play_until_over,
    valid,
)
from tests.support.live_server import started
from tests.support.peer import Peer

CLIENT_TYPES = client_types()
Message = dict[str, Any]
REPO = Path(__file__).resolve().parents[2]
GAME = {"Type": "Game"}
ANSWER_TYPES = ("Bid", "Unpass", "Trump", "Discard", "Play")


def documented_codes() -> frozenset[str]:
    """The Codes of protocol.md's error table."""
    text = (REPO / "protocol.md").read_text(encoding="utf-8")
    table = text[text.index("| Code | meaning |") :]
    table = table[: table.index("\n\n")]
    return frozenset(re.findall(r"^\| `([a-z_]+)` \|", table, re.MULTILINE))


CODES = documented_codes()


def is_help(shown: list[str]) -> bool:
    """Whether ``shown`` is what ``help`` says: in the lobby, the lobby's commands; at a
    table, those of its game and the table's (then what is asked now, if anything);
    watching, a watcher's."""
    if shown in (HELP.splitlines(), HELP_WATCHING.splitlines()):
        return True
    for name in games.names():
        spec = games.get(name)
        game = spec.text.help.splitlines() if spec.text else []
        head = f"({spec.title}) you can type:"
        seated = [*game, *HELP_SEATED.splitlines()]
        if shown and shown[0].endswith(head) and shown[1 : 1 + len(seated)] == seated:
            rest = shown[1 + len(seated) :]
            return rest == [] or rest[0] == "Now:"
    return False


def test_the_documented_codes_are_read() -> None:
    assert {"line_too_long", "bad_json", "bad_message", "unknown_type", "game_over"} <= CODES
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", code) for code in CODES)


def nesting(line: bytes) -> int:
    """How deep the brackets of ``line`` go (whether such a line parses at all depends
    on the depth of the stack it is parsed in, so deep lines are compared loosely)."""
    depth = deepest = 0
    for byte in line:
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


# ------------------------------------------------------------------ strategies

FIELDS = (
    "Type",
    "Message",
    "Name",
    "Option",
    "Seats",
    "Bots",
    "Clock",
    "Token",
    "Game",
    "Table",
    "Playerid",
    "Seq",
    "Bid",
    "Trump",
    "Cards",
    "PlayedCard",
)
TEMPLATES: tuple[Message, ...] = (
    {"Type": "Hello"},
    {"Type": "Hello", "Message": "create", "Name": "ann"},
    {"Type": "Hello", "Message": "join"},
    {"Type": "Hello", "Name": "bob"},
    {"Type": "Hello", "Token": "f" * 32},
    {"Type": "Hello", "Message": "create", "Game": "whist"},
    {"Type": "Game", "Option": 1},
    {"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1, "Name": "friday"},
    {"Type": "Game", "Option": 6},
    {"Type": "Game", "Option": 5, "Seats": 2, "Bots": 1, "Clock": 30},
    {"Type": "Game", "Game": "whist", "Option": 1},
    {"Type": "Join", "Table": 1},
    {"Type": "Bid", "Playerid": 0, "Bid": 20, "Seq": 1},
    {"Type": "Bid", "Playerid": 1, "Bid": 0},
    {"Type": "Unpass", "Playerid": 0},
    {"Type": "Trump", "Playerid": 0, "Trump": "H", "Seq": 1},
    {"Type": "Discard", "Playerid": 0, "Cards": ["2C", "3D"], "Seq": 1},
    {"Type": "Play", "Playerid": 0, "PlayedCard": "5H", "Seq": 1},
)
QUIT: Message = {"Type": "Hello", "Message": "quit"}
LINE_ENDS = st.sampled_from([b"", b"\n", b"\r\n"])
SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"])
surrogate_text = st.tuples(st.text(max_size=4), SURROGATES, st.text(max_size=4)).map("".join)
long_text = st.builds(
    lambda c, n: c * n, st.sampled_from(["x", "é", "🃏", " ", "\\"]), st.integers(100, 2500)
)
HUGE = st.sampled_from(
    [2**31, 2**53 + 1, 2**63, 2**64, -(2**63), 10**30, -(10**30), 10**300, -1, -15]
)
CARD_LIKE = st.sampled_from(
    [
        "AS",
        "as",
        " 10h ",
        "JK",
        "jk",
        "1H",
        "ZZ",
        "",
        "H",
        "hearts",
        "♥",
        "5H5H",
        "\uff12H",
        "\uff21S",
    ]
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    HUGE,
    st.floats(),
    st.text(max_size=12),
    surrogate_text,
)
json_values = st.recursive(
    scalars,
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), kids, max_size=4)
    ),
    max_leaves=10,
)
weird = st.one_of(
    scalars,
    long_text,
    CARD_LIKE,
    st.sampled_from(["create", "join", "quit", " QUIT ", "Create", "ann", "x" * 21]),
    st.lists(st.integers(-5, 65) | CARD_LIKE, max_size=5),
    st.just({"nested": {"deeper": [[], {}]}}),
    json_values,
)
other_types = st.one_of(
    st.sampled_from(sorted(CLIENT_TYPES)),
    st.sampled_from(["hello", "BID", " Play", "Error", "Deal", "Score", "Tables", "Hello\x00"]),
    st.text(max_size=10),
    surrogate_text,
    weird,
)
mutation = st.one_of(
    st.tuples(st.just("drop"), st.integers(0, 20)),
    st.tuples(st.just("set"), st.integers(0, 20) | st.sampled_from(FIELDS), weird),
    st.tuples(st.just("type"), other_types),
    st.tuples(st.just("add"), st.text(max_size=8), json_values),
    st.tuples(st.just("nudge"), st.integers(0, 20), st.sampled_from([-1, 1, -100, 10**6])),
)
mutations = st.lists(mutation, min_size=1, max_size=3)


def mutate(base: Message, ops: list[tuple[Any, ...]]) -> Message:
    """``base`` changed by ``ops``: fields dropped, retyped, Type changed, keys added,
    numbers nudged. A key given as a number picks one of the message's own keys."""
    msg = dict(base)
    for op in ops:
        keys = sorted(msg)

        def key_of(k: int | str, keys: list[str] = keys) -> str | None:
            if isinstance(k, str):
                return k
            return keys[k % len(keys)] if keys else None

        if op[0] == "drop":
            key = key_of(op[1])
            if key is not None:
                del msg[key]
        elif op[0] == "set":
            key = key_of(op[1])
            if key is not None:
                msg[key] = op[2]
        elif op[0] == "type":
            msg["Type"] = op[1]
        elif op[0] == "add":
            msg[op[1]] = op[2]
        else:
            numbers = [k for k in keys if type(msg[k]) is int]
            if numbers:
                key = numbers[op[1] % len(numbers)]
                msg[key] += op[2]
    return msg


@st.composite
def serialised(draw: st.DrawFn, value: object) -> bytes:
    """``value`` as a JSON line: ASCII-escaped or raw UTF-8 (a lone surrogate then makes
    the bytes invalid UTF-8), maybe padded, with or without a line ending."""
    text = json.dumps(value, ensure_ascii=draw(st.booleans()))
    pad = draw(st.sampled_from(["", " ", "\t"]))
    return (pad + text + pad).encode("utf-8", "surrogatepass") + draw(LINE_ENDS)


def deep(depth: int) -> bytes:
    return b'{"Type":"Hello","Name":' + b"[" * depth + b"]" * depth + b"}"


SPECIAL_LINES = st.sampled_from(
    [
        b"{",
        b"}",
        b"[]",
        b"null",
        b'"Hello"',
        b"{}",
        b'{"Type":null}',
        b'{"Type":["Hello"]}',
        b'{"type":"Hello"}',
        b'{"Type":"Hello","Type":"Bid"}',
        b'{"Type":"Hello"} {"Type":"Hello"}',
        b'{"Type":"Hello"}\r\r',
        b'\xef\xbb\xbf{"Type":"Hello"}',
        b'{"Type":"Bid","Bid":' + b"9" * 5000 + b"}",
        b'{"Type":"Bid","Bid":1e999}',
        b'{"Type":"Bid","Bid":NaN}',
        b'{"Type":"Bid","Bid":-0}',
        b'{"Type":"Bid","Bid":20.0}',
        b'{"Type":"Play","PlayedCard":"\\u0000"}',
        b'{"Type":"Hello","Name":"\xff"}',
        b'{"Type":"Hello","Name":"\xed\xa0\x80"}',
        b"\x00",
        b"\xff\xfb\x01",
        b"\r",
        b"  \t ",
        b"x" * (MAX_LINE + 1),
        b'{"Type":"Hello"' + b" " * (MAX_LINE - 16) + b"}",
    ]
)
raw_bytes = st.binary(max_size=80).map(lambda b: b.replace(b"\n", b""))
unicode_lines = st.text(max_size=40).map(lambda s: s.replace("\n", "").encode())


def json_lines(bases: list[Message]) -> st.SearchStrategy[bytes]:
    """Random bytes, random JSON, and (most often) mutations of ``bases``."""
    mutated = st.tuples(st.sampled_from(bases), mutations).map(lambda bm: mutate(*bm))
    return st.one_of(
        raw_bytes,
        raw_bytes.map(lambda b: b"{" + b),
        unicode_lines,
        json_values.flatmap(serialised),
        mutated.flatmap(serialised),
        mutated.flatmap(serialised),
        mutated.flatmap(serialised),
        st.sampled_from(bases).flatmap(serialised),
        st.tuples(st.sampled_from(bases), st.sampled_from(FIELDS), surrogate_text).map(
            lambda b: json.dumps({**b[0], b[1]: b[2]}).encode()  # escaped: "\\ud800"
        ),
        SPECIAL_LINES,
        st.integers(850, 1000).map(deep),
    )


# "²", "①": digits that are not decimal; "٣", "\uff11": decimal digits of other scripts.
TEXT_WORDS = (
    *("create", "join", "name", "bid", "pass", "moon", "unpass", "trump", "discard"),
    *("play", "hand", "help", "?", "none", "-", "hearts", "♥", "h", "S", "20", "60"),
    *("15", "2C", "10h", "jk", "0", "1", "5", "6", "7", "999999", "9999999", "-3"),
    *("²", "٣", "\uff11", "①"),
)
text_commands = st.lists(
    st.sampled_from(TEXT_WORDS) | st.text(max_size=6).map(lambda s: s.replace("\n", "")),
    min_size=1,
    max_size=5,
).map(lambda words: " ".join(words).encode())
text_lines = st.one_of(
    text_commands,
    text_commands,
    raw_bytes,
    unicode_lines,
    raw_bytes.map(lambda b: b"\xff\xfa" + b),  # telnet subnegotiation, maybe unfinished
    st.sampled_from([b"quit", b"help", b"hand", b"\x00\r", b"x" * (MAX_LINE + 1)]),
)


# ------------------------------------------------------------------ stages


def last_prompt(client: Client) -> Message | None:
    return next((m for m in reversed(client.messages) if is_prompt(m)), None)


def bases_for(client: Client) -> list[Message]:
    """Valid messages for where ``client`` is (answers from Legal), and the templates."""
    bases = list(TEMPLATES)
    prompt = client.pending()
    if prompt is not None:
        head = {"Type": prompt["Type"], "Playerid": prompt["Playerid"], "Seq": prompt["Seq"]}
        legal = prompt["Legal"]
        if prompt["Type"] == "Bid":
            bases += [{**head, "Bid": b} for b in legal]
        elif prompt["Type"] == "Trump":
            bases += [{**head, "Trump": s} for s in legal]
        elif prompt["Type"] == "Discard":
            bases += [{**head, "Cards": legal[:k]} for k in range(len(legal) + 1)]
        else:
            bases += [{**head, "PlayedCard": c} for c in legal]
    return bases


def advance(clients: list[Client], rng: random.Random, steps: int, want: str = "") -> None:
    """Answer from Legal, ``steps`` times or until the prompt is ``want`` (bidding high
    when trump is wanted, so that a person wins the bid)."""
    for _ in range(steps):
        pending = [(c, p) for c in clients if not c.closed and (p := c.pending())]
        if not pending or pending[0][1]["Type"] == want:
            return
        client, prompt = pending[0]
        answer = answer_from_legal(prompt, rng)
        if want == "Trump" and prompt["Type"] == "Bid":
            answer["Bid"] = max(b for b in prompt["Legal"] if b != 60)
        client.send(answer)


STAGES = (
    "fresh",
    "question",
    "options",
    "tables",
    "seated",
    "Bid",
    "Trump",
    "Discard",
    "Play",
    "two people",
)


def set_up(h: Harness, stage: str, rng: random.Random) -> tuple[Client, list[Client]]:
    """The client to fuzz, at ``stage``, and the other people."""
    if stage == "fresh":
        return h.json_client(), []
    ann = h.json_client("ann")
    if stage == "question":
        return ann, []
    if stage == "tables":
        bob = h.create("bob", Option=4)
        ann.send({"Type": "Hello", "Message": "join"})
        return ann, [bob]
    ann.send({"Type": "Hello", "Message": "create"})
    if stage == "options":
        return ann, []
    if stage == "seated":
        ann.send({"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1})
        return ann, []
    if stage == "two people":
        ann.send({"Type": "Game", "Option": 5, "Seats": 2, "Name": "pair"})
        bob = h.json_client("bob")
        bob.send({"Type": "Join", "Table": 1})
        advance([ann, bob], rng, rng.randint(0, 12))
        return (ann, [bob]) if rng.random() < 0.5 else (bob, [ann])
    ann.send({"Type": "Game", "Option": rng.randint(1, 3)})
    advance([ann], rng, 400, want=stage)
    if stage == "Play":
        advance([ann], rng, rng.randint(0, 4))
    return ann, []


def session_of(h: Harness, client: Client) -> Session | None:
    return h.hub.lobby.sessions.get(client.conn)


def speaks_text(h: Harness, client: Client) -> bool:
    codec = h.hub.codec_of(client.conn)
    return codec is not None and codec.kind == "text"


def mode_known(h: Harness, client: Client) -> bool:
    return h.hub.codec_of(client.conn) is not None


def snapshot(h: Harness, client: Client) -> tuple[object, ...]:
    """What an error must not change: the session, every table and game, the hub."""
    session = session_of(h, client)
    assert session is not None
    tables = {
        tid: (
            t.state,
            t.names(),
            t.seq,
            None if t.game is None else repr(sorted(vars(t.game).items())),
        )
        for tid, t in h.hub.lobby.tables.items()
    }
    return (
        session.where,
        session.name,
        None if session.table is None else session.table.id,
        speaks_text(h, client),
        sorted(h.hub.lobby.sessions),
        tables,
        h.hub.lobby.tables.next_id,
    )


def asked_again(h: Harness, client: Client) -> list[Message]:
    """What follows an Error: what the client was being asked, as it was last sent."""
    session = session_of(h, client)
    assert session is not None
    where = session.where
    if where is Where.QUESTION:
        return [HELLO]
    if where is Where.OPTIONS:
        return [GAME]
    if where is Where.TABLES:
        return [client.last("Tables")]
    if where is Where.PLAYING:
        prompt = last_prompt(client)
        return [] if prompt is None else [prompt]
    return []  # seated at a table that waits: nothing is pending


def expected_code(line: bytes, where: Where, fresh: bool) -> str | None:
    """The Code a JSON-mode line surely gets (None: it may be valid, or the Code depends
    on more than this looks at)."""
    line = strip_line(line)
    if len(line) > MAX_LINE:
        return "line_too_long"
    if fresh:
        line = strip_telnet(line)
    if nesting(line) > 500:
        return None  # whether it parses depends on the depth of the stack
    try:
        msg = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return "bad_json"
    if not isinstance(msg, dict):
        return "bad_json"
    kind = msg.get("Type")
    if not isinstance(kind, str):
        return "bad_message"
    if kind not in CLIENT_TYPES:
        return "unknown_type"
    choice = msg.get("Message")
    if (
        (kind in ANSWER_TYPES and where is not Where.PLAYING)
        or (kind == "Game" and where is not Where.OPTIONS)
        or (kind == "Join" and where not in (Where.TABLES, Where.QUESTION))
        or (
            kind == "Hello"
            and where in (Where.SEATED, Where.PLAYING)
            # At a table only quit (trimmed, in any case, as in the lobby) is heard.
            and (choice is None or (isinstance(choice, str) and choice.strip().lower() != "quit"))
        )
    ):
        return "not_now"
    return None


def blank(line: bytes, fresh: bool) -> bool:
    line = strip_line(line)
    if fresh:
        line = strip_telnet(line)
    return len(line) <= MAX_LINE and not line.strip()


def check_schema(clients: list[Client], *, unread_only: bool = True) -> None:
    """Every message the clients have not read yet (or every one) is valid."""
    for client in clients:
        for msg in client.messages[client.read if unread_only else 0 :]:
            valid(msg)


class Fuzz:
    """One connection under fuzz at the hub, with the properties checked per line."""

    def __init__(self, h: Harness, client: Client, others: list[Client]) -> None:
        self.h, self.client, self.others = h, client, others

    @property
    def text_mode(self) -> bool:
        session = session_of(self.h, self.client)
        return session is not None and speaks_text(self.h, self.client)

    @property
    def done(self) -> bool:
        return self.client.closed

    def send(self, line: bytes) -> None:
        h, client = self.h, self.client
        session = session_of(h, client)
        assert session is not None
        fresh, text = not mode_known(h, client), speaks_text(h, client)
        link = h.hub.links[client.conn]  # kept: a line that quits ends the link
        before = snapshot(h, client)
        again = [] if text else asked_again(h, client)
        where = session.where
        for c in (client, *self.others):
            c.take()
            c.take_text()
        try:
            commands = h.hub.receive(client.conn, line)
        except Exception as exc:
            raise AssertionError(f"receive raised for {line!r}") from exc
        h.apply(commands)
        check_schema([client, *self.others])
        if text or (link.codec is not None and link.codec.kind == "text"):  # or it set it
            self._check_text(commands, line)
            return
        replies = client.take()
        if blank(line, fresh):
            assert commands == [], (line, commands)
            return
        errors = [m for m in replies if m.get("Type") == "Error"]
        code = expected_code(line, where, fresh)
        event(f"JSON line at {where.value}: {errors[0]['Code'] if errors else 'accepted'}")
        if not errors:
            assert code is None, f"{line!r} is surely bad ({code}) but got {replies}"
            return
        assert len(errors) == 1, (line, replies)
        assert replies[0] is errors[0], (line, replies)
        assert errors[0]["Code"] in CODES, errors[0]
        if code is not None:
            assert errors[0]["Code"] == code, (line, errors[0])
        if errors[0]["Code"] == "line_too_long":  # closed: the others hear that it left
            assert client.closed
            assert replies == errors
            return
        assert all(c.take() == [] for c in self.others), "an Error went to someone else"
        assert replies[1:] == again, (line, replies, again)
        after = snapshot(h, client)
        assert after == before, f"{line!r} was refused but changed {before} into {after}"

    def _check_text(self, commands: list[Send | Close], line: bytes) -> None:
        for command in commands:
            if isinstance(command, Send) and command.conn == self.client.conn:
                assert command.data.endswith(b"\r\n"), (line, command)
                text = command.data.decode("utf-8")
                assert "Traceback" not in text, (line, text)
        shown_lines = self.client.take_text()
        event(f"text line: {'error' if any(s.startswith('! ') for s in shown_lines) else 'ok'}")
        for shown in shown_lines:
            if shown.startswith("! "):
                found = re.search(r"\((\w+)\)$", shown)
                assert found is not None, (line, shown)
                assert found.group(1) in CODES, (line, shown)


def finish_json(h: Harness, fuzz: Fuzz, rng: random.Random) -> None:
    """After the fuzz: a valid answer is accepted, and a game is played to the end."""
    client = fuzz.client
    session = session_of(h, client)
    assert session is not None
    if session.where is Where.SEATED:
        assert client.send(QUIT) == [{"Type": "Message", "Message": "Ok, bye bye!"}]
        assert client.closed
        client = h.json_client("cy")
        session = session_of(h, client)
        assert session is not None
    if session.where is Where.TABLES:
        assert client.send({"Type": "Hello"}) == [QUESTION, HELLO]
    if session.where is Where.QUESTION:
        assert client.send({"Type": "Hello", "Message": "create"})[-1] == GAME
    if session.where is Where.OPTIONS:
        replies = client.send({"Type": "Game", "Game": "hundredandten", "Option": 3})
        assert replies[0]["Type"] == "Table"
    assert session.where is Where.PLAYING
    people = [client, *(o for o in fuzz.others if session_of(h, o) is not None)]
    at_table = [c for c in people if (s := session_of(h, c)) and s.table is session.table]
    prompt = next((p for c in at_table if (p := c.pending()) is not None), None)
    assert prompt is not None
    actor = next(c for c in at_table if c.pending() is prompt)
    replies = actor.send(answer_from_legal(prompt, rng))
    assert not any(m.get("Type") == "Error" for m in replies), (prompt, replies)
    play_until_over(at_table, rng)
    for c in at_table:
        assert c.game_over() is not None
        assert c.messages[-2:] == [QUESTION, HELLO]
        check_stream(c.messages, h.table_seeds())


FUZZ_SETTINGS = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)


@FUZZ_SETTINGS
@given(stage=st.sampled_from(STAGES), seed=st.integers(0, 2**16), data=st.data())
def test_the_hub_refuses_bad_lines_at_every_stage(stage: str, seed: int, data: Any) -> None:
    """Up to 8 lines at one stage (a line may move the connection on: later lines are
    drawn for where it is then), then a valid answer and a whole game."""
    rng = random.Random(seed)
    h = Harness(f"fuzz-{seed}")
    client, others = set_up(h, stage, rng)
    prompt = last_prompt(client)
    event(
        f"stage {stage}, prompt {prompt and prompt['Type']}, to act {client.pending() is not None}"
    )
    fuzz = Fuzz(h, client, others)
    for _ in range(data.draw(st.integers(1, 8), label="lines")):
        if fuzz.done:
            break
        if fuzz.text_mode:
            line = data.draw(text_lines, label="text line")
        else:
            line = data.draw(json_lines(bases_for(client)), label="line")
        fuzz.send(line)
    if not fuzz.done:
        if fuzz.text_mode:
            assert is_help(client.say("help"))
        else:
            finish_json(h, fuzz, rng)
    check_schema(list(h.clients.values()), unread_only=False)


TEXT_STAGES = ("lobby", "options", "mid-game")


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    stage=st.sampled_from(TEXT_STAGES),
    first=text_lines,
    lines=st.lists(text_lines, max_size=6),
    seed=st.integers(0, 2**16),
)
def test_text_mode_survives_any_bytes(
    stage: str, first: bytes, lines: list[bytes], seed: int
) -> None:
    """Text mode (in the lobby, at the options, mid-game): no line raises, every line
    sent is text ending in CRLF, every error names a documented Code; help still works."""
    rng = random.Random(seed)
    h = Harness(f"text-{seed}")
    client = h.json_client()
    if stage != "lobby":
        client.say("create")
        if stage == "mid-game":
            client.say(str(rng.randint(1, 3)))
    elif strip_telnet(strip_line(first)).lstrip().startswith(b"{"):
        first = b"#" + first  # the first line decides the mode: keep it text
    fuzz = Fuzz(h, client, [])
    for line in [first, *lines]:
        if fuzz.done:
            break
        fuzz.send(line)
    if not fuzz.done and fuzz.text_mode:
        assert is_help(client.say("help"))
    check_schema([client], unread_only=False)


# ------------------------------------------------------------------ live server

SEED = "fuzz-live"
SEEDS: defaultdict[int, str] = defaultdict(lambda: SEED)  # every live table is dealt from SEED
LINES_PER_SECOND = 12.0  # per connection: under the server's ~20 lines a second
LIVE_TIMEOUT = 90.0
LOBBY_FUZZERS = 2
LOBBY_LINES = 70  # per lobby fuzzer
TEXT_LINES = 50
GAME_FUZZ_LINES = 60


def corpus(strategy: st.SearchStrategy[Any], n: int, seed: int) -> list[Any]:
    """``n`` values of ``strategy`` as hypothesis draws them (reproducibly)."""
    found: list[Any] = []

    @hypothesis_seed(seed)
    @settings(
        max_examples=n,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found


def line_ending(line: bytes, crlf: bool) -> bytes:
    return strip_line(line) + (b"\r\n" if crlf else b"\n")


def hub_reply(line: bytes) -> list[Message] | None:
    """What a JSON connection at the lobby question gets for ``line`` from a hub of its
    own, if it is an Error (and the connection stays open)."""
    hub = Hub(seed_source=lambda: SEED)
    conn, _ = hub.connect()
    hub.receive(conn, b"{\n")  # JSON mode
    commands = hub.receive(conn, line)
    if any(isinstance(c, Close) for c in commands):
        return None
    replies = [json.loads(x) for c in commands if isinstance(c, Send) for x in c.data.splitlines()]
    if not replies or replies[0]["Type"] != "Error":
        return None
    return replies


def text_command(line: bytes) -> str:
    """The command word the server reads in a text-mode line."""
    line = strip_telnet(strip_line(line)).replace(b"\x00", b"").rstrip(b"\r")
    words = line.decode("utf-8", "replace").split()
    return words[0].lower() if words else ""


def joins_a_table(line: bytes) -> bool:
    """A Join naming a table id: refused by a hub of its own, but the live server may
    have that table waiting (the text fuzzer may create one)."""
    try:
        msg = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(msg, dict) and msg.get("Type") == "Join" and type(msg.get("Table")) is int


def live_lines() -> dict[str, Any]:
    """The corpus for the live test, drawn before the server starts."""
    lobby: list[tuple[bytes, list[Message]]] = []
    skipped = 0
    candidates = corpus(json_lines(list(TEMPLATES)), 600, seed=1)
    for i, raw in enumerate(candidates):
        line = line_ending(raw, crlf=i % 3 == 0)
        if len(strip_line(line)) > MAX_LINE:
            skipped += 1
            continue
        replies = hub_reply(line)
        if replies is None or joins_a_table(line):
            skipped += 1
            continue
        lobby.append((line, replies))
    text = [
        line_ending(b, crlf=True)
        for b in corpus(text_lines, 200, seed=2)
        if len(strip_line(b)) <= MAX_LINE and text_command(b) not in ("quit", "exit")
    ]
    game_ops = corpus(mutations, 150, seed=3)
    others = corpus(json_lines(list(TEMPLATES)), 150, seed=4)
    return {"lobby": lobby, "skipped": skipped, "text": text, "ops": game_ops, "other": others}


def paced_peer(port: int) -> Awaitable[Peer]:
    """A greeted connection that sends at most ``LINES_PER_SECOND`` (answers that play
    a turn need no pacing: the server's rate limit does not count them) and checks
    each message it reads against the schema."""
    return Peer.welcomed(port, check=valid, rate=LINES_PER_SECOND)


@contextlib.asynccontextmanager
async def live_server() -> AsyncIterator[Server]:
    server = Server(Hub(seed_source=lambda: SEED), Settings(listeners=Listeners("127.0.0.1", 0)))
    async with started(server):
        yield server


async def create(peer: Peer, option: Message) -> Message:
    await peer.send({"Type": "Hello", "Message": "create"})
    while await peer.recv() != GAME:
        pass
    await peer.send(option)
    table = await peer.recv()
    assert table["Type"] == "Table", table
    return table


async def play(
    peer: Peer,
    rng: random.Random,
    fuzz: Callable[[Message], list[bytes]] | None = None,
    paced: bool = True,
) -> int:
    """Answer from Legal until GameOver and the lobby question; before an answer, send
    the lines ``fuzz`` makes of it: each gets [Error, the same prompt] or is accepted.
    Returns how many fuzz lines got an Error."""
    refused = 0
    msg = await peer.recv()
    while True:
        if msg.get("GameOver"):
            reveal = await peer.recv()  # the table's seed, which its Commit bound
            assert reveal["Type"] == "Reveal"
            assert reveal["Hash"] == commitment(reveal["Game"], reveal["Seed"])
            assert [await peer.recv(), await peer.recv()] == [QUESTION, HELLO]
            return refused
        if not (is_prompt(msg) and "Legal" in msg):
            msg = await peer.recv()
            continue
        prompt = msg
        answer = answer_from_legal(prompt, rng)
        for line in fuzz(answer) if fuzz else []:
            await peer.send(line)
            msg = await peer.recv()
            if msg.get("Type") == "Error":
                assert msg["Code"] in CODES - {"rate_limited"}, (line, msg)  # paced
                assert await peer.recv() == prompt, line
                refused += 1
                continue
            break  # accepted: the game went on
        else:
            await peer.send(answer, paced=paced)
            msg = await peer.recv()


async def lobby_fuzzer(port: int, lines: list[tuple[bytes, list[Message]]]) -> Peer:
    peer = await paced_peer(port)
    await peer.send(b"{\n")
    first = [await peer.recv(), await peer.recv()]
    assert [first[0]["Code"], first[1]] == ["bad_json", HELLO], first
    for line, expected in lines:
        await peer.send(line)
        got = [await peer.recv() for _ in expected]
        assert got[0]["Type"] == "Error", (line, got)
        assert got[0]["Code"] in CODES, (line, got)
        assert got[1:] == [HELLO], (line, got)
        # Exactly what a hub alone says, but for Join (the live server has tables) and
        # deep JSON (parsed or not depending on the depth of the stack).
        if expected[0]["Code"] != "no_such_table" and nesting(line) <= 500:
            assert got == expected, line
    return peer


async def text_fuzzer(port: int, lines: list[bytes]) -> int:
    peer = await paced_peer(port)
    await peer.send(b"help\r\n")
    shown: list[str] = []
    sentinel = '! unknown command "zz-end" (type help) (unknown_type)'

    async def read_all() -> None:
        while True:
            raw = await peer.line()
            assert raw.endswith(b"\r\n"), raw
            text = raw.decode("utf-8").removesuffix("\r\n")
            assert "Traceback" not in text
            shown.append(text)
            if text == sentinel:
                return

    reader = asyncio.create_task(read_all())
    for line in lines:
        await peer.send(line)
    await peer.send(b"zz-end\r\n")
    await reader
    await peer.close()
    assert shown[: len(HELP.splitlines())] == HELP.splitlines()
    codes = [m.group(1) for s in shown if (m := re.search(r"^! .*\((\w+)\)$", s))]
    assert set(codes) <= CODES - {"rate_limited"}, codes
    return len(codes)


async def game_fuzzer(
    port: int, ops: list[Any], others: list[bytes], rng: random.Random
) -> tuple[int, int]:
    """An option-3 game where answers come with mutated answers and other lines first."""
    peer = await paced_peer(port)
    await create(peer, {"Type": "Game", "Option": 3})
    budget = [GAME_FUZZ_LINES]

    def fuzz(answer: Message) -> list[bytes]:
        lines: list[bytes] = []
        while budget[0] > 0 and rng.random() < 0.6:
            if rng.random() < 0.7:
                msg = mutate(answer, rng.choice(ops))
                line = json.dumps(msg, ensure_ascii=rng.random() < 0.5).encode(
                    "utf-8", "surrogatepass"
                )
            else:
                line = rng.choice(others)
            line = line_ending(line, crlf=rng.random() < 0.5)
            with contextlib.suppress(ValueError, RecursionError):
                msg = json.loads(line)
                choice = msg.get("Message") if isinstance(msg, dict) else None
                if isinstance(choice, str) and choice.strip().lower() == "quit":
                    continue  # it would leave
            if blank(line, False) or len(line) > MAX_LINE:
                continue
            lines.append(line)
            budget[0] -= 1
        return lines

    refused = await play(peer, rng, fuzz, paced=False)
    check_stream(peer.messages, SEEDS, schema=False)
    await peer.close()
    return GAME_FUZZ_LINES - budget[0], refused


async def greeters(port: int, stop: asyncio.Event) -> int:
    """A new connection now and then: it is greeted (the server keeps serving)."""
    count = 0
    while not stop.is_set():
        peer = await paced_peer(port)
        await peer.close()
        count += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)
    return count


def test_a_live_server_keeps_serving_through_the_fuzz() -> None:
    lines = live_lines()
    assert len(lines["lobby"]) >= LOBBY_FUZZERS * LOBBY_LINES, len(lines["lobby"])
    stats = asyncio.run(live_scenario(lines))
    print(stats)  # shown with -s
    assert stats["lobby lines"] + stats["text lines"] + stats["game lines"] >= 200, stats
    assert stats["game lines refused"] > 0, stats


async def live_scenario(lines: dict[str, Any]) -> dict[str, int]:
    seeds = SEEDS
    rng = random.Random(7)
    async with live_server() as server, asyncio.timeout(LIVE_TIMEOUT):
        port = server.port
        stop = asyncio.Event()
        greeting = asyncio.create_task(greeters(port, stop))
        # The real game: a person against one AI seat, clean answers.
        real = await paced_peer(port)
        await create(real, {"Type": "Game", "Option": 3})
        lobby = lines["lobby"]
        results = await asyncio.gather(
            play(real, random.Random(1)),
            *(
                lobby_fuzzer(port, lobby[i * LOBBY_LINES : (i + 1) * LOBBY_LINES])
                for i in range(LOBBY_FUZZERS)
            ),
            text_fuzzer(port, lines["text"][:TEXT_LINES]),
            game_fuzzer(port, lines["ops"], lines["other"], rng),
        )
        assert results[0] == 0
        check_stream(real.messages, seeds, schema=False)
        fuzzed: list[Peer] = list(results[1 : 1 + LOBBY_FUZZERS])
        lobby_sent = sum(p.sent for p in fuzzed)
        text_errors = results[-2]
        game_sent, game_refused = results[-1]
        # A new game after the fuzz: a new connection and a fuzzed one, people only.
        pat = await paced_peer(port)
        await pat.send({"Type": "Hello", "Name": "pat"})
        table = await create(pat, {"Type": "Game", "Option": 5, "Seats": 2, "Name": "after"})
        joiner = fuzzed[0]
        await joiner.send({"Type": "Join", "Table": table["Table"]})
        await asyncio.gather(
            play(pat, random.Random(2), paced=False), play(joiner, random.Random(3), paced=False)
        )
        for peer in (pat, joiner):
            assert check_stream(peer.messages, seeds, schema=False) == 1
        # The other fuzzed connection is still served, and so is a new one.
        await fuzzed[1].send({"Type": "Hello"})
        assert [await fuzzed[1].recv(), await fuzzed[1].recv()] == [QUESTION, HELLO]
        stop.set()
        greeted = await greeting
        assert greeted >= 3
        last = await paced_peer(port)
        for peer in (real, pat, last, *fuzzed):
            await peer.close()
    return {
        "lobby lines": lobby_sent,
        "text lines": len(lines["text"][:TEXT_LINES]),
        "text errors": text_errors,
        "game lines": game_sent,
        "game lines refused": game_refused,
        "greeted": greeted,
        "corpus lines skipped": lines["skipped"],
    }


# ------------------------------------------------------------------ the bugs found
# Each failed against the server as it was when this file was written (commit 37b3cc8).


def json_at_question() -> Client:
    return Harness().json_client("ann")


@pytest.mark.parametrize(
    "line",
    [
        rb'{"Type":"\ud800"}',
        rb'{"Type":"Hello","Name":"\udc00"}',
        rb'{"Type":"Hello","Message":"\udfff"}',
        rb'{"Type":"Join","Table":"\ud800"}',
        rb'{"Type":"Game","Option":5,"Name":"\ud800"}',
    ],
)
def test_found_a_lone_surrogate_quoted_in_an_error(line: bytes) -> None:
    """Was: UnicodeEncodeError from ``receive`` (``quote`` kept the surrogate, ``encode``
    could not write it as UTF-8); over a socket the connection dropped without a word."""
    client = json_at_question()
    if b"Game" in line:
        client.send({"Type": "Hello", "Message": "create"})
    again = client.messages[-1]
    replies = client.send(line)
    assert replies[0]["Type"] == "Error"
    assert replies[1:] == [again]


def test_found_a_lone_surrogate_mid_game() -> None:
    client = json_at_question()
    client.send({"Type": "Hello", "Message": "create"})
    client.send({"Type": "Game", "Option": 1})
    prompt = client.pending()
    replies = client.send(rb'{"Type":"Bid","Bid":"\ud800"}')
    assert replies[0]["Code"] == "bad_message"
    assert replies[1:] == [prompt]


@pytest.mark.parametrize("command", ["²", "join ²", "bid ³", "create 5 ² 1", "play ①"])
def test_found_text_mode_digits_that_are_not_decimal(command: str) -> None:
    """Was: ValueError from ``receive`` ("²".isdigit() is true, int("²") fails)."""
    client = Harness().json_client()
    client.say("create" if command.startswith("play") else "help")
    if command.startswith("play"):
        client.say("1")
    shown = client.say(command)
    assert shown[0].startswith("! "), shown


def test_found_json_nested_near_the_recursion_limit() -> None:
    """Was: RecursionError from ``receive``: some depth near the limit parses, and then
    quoting it in the error went one call deeper (depth 991 at the top of a stack)."""
    for depth in range(900, 1100):
        client = json_at_question()
        replies = client.send(deep(depth))
        assert replies[0]["Type"] == "Error", depth


def test_found_a_refused_hello_set_the_name() -> None:
    """Was: the Name of a Hello refused for its Message (bad_choice) was kept."""
    client = json_at_question()
    replies = client.send({"Type": "Hello", "Name": "mallory", "Message": "dance"})
    assert replies[0]["Code"] == "bad_choice"
    client.send({"Type": "Hello", "Message": "create"})
    table = client.send({"Type": "Game", "Option": 4})[0]
    assert table["Players"][0] == "ann", table


def test_found_live_a_lone_surrogate_dropped_the_connection() -> None:
    async def scenario() -> None:
        async with live_server() as server, asyncio.timeout(LIVE_TIMEOUT):
            peer = await paced_peer(server.port)
            await peer.send(b'{"Type":"\\ud800"}\n')
            assert (await peer.recv())["Code"] == "unknown_type"
            assert await peer.recv() == HELLO
            await peer.send({"Type": "Hello", "Message": "join"})
            assert (await peer.recv())["Type"] == "Tables"
            await peer.close()

    asyncio.run(scenario())
