"""The one list of error codes (protocol/errors.py ``CODES``) is protocol.md's, every
client error is a ``Malformed`` or a ``Refused`` with a listed code of its kind, and
every code a client can provoke is provoked here, through the hub, and answered with
that code."""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hundred_server import games
from hundred_server.core.accounts import Account, hash_key
from hundred_server.core.hub import Hub
from hundred_server.core.lobby import Limits
from hundred_server.core.names import fold
from hundred_server.protocol.errors import (
    CODES,
    IllegalActionError,
    Malformed,
    Refused,
    for_code,
)
from hundred_server.protocol.wire import MAX_LINE
from tests.support.hub_harness import Client, Harness, answer_from_legal

ROOT = Path(__file__).resolve().parents[2]
Message = dict[str, Any]


def doc_codes() -> list[str]:
    section = (ROOT / "protocol.md").read_text().split("\n## Errors\n", 1)[1]
    section = section.split("\n## ", 1)[0]
    return [line.split("`")[1] for line in section.splitlines() if line.startswith("| `")]


def test_protocol_md_lists_every_code_once() -> None:
    listed = doc_codes()
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(CODES)


def test_a_client_error_takes_only_a_listed_code_of_its_kind() -> None:
    assert Malformed("x", "bad_json").code == "bad_json"
    assert Refused("x", "table_full").code == "table_full"
    for make, code in ((Malformed, "not_now"), (Refused, "bad_json"), (Refused, "nope")):
        with pytest.raises(ValueError, match=repr(code)):
            make("x", code)
    assert isinstance(for_code("x", "rate_limited"), Refused)
    assert isinstance(for_code("x", "bad_option"), Malformed)
    with pytest.raises(ValueError, match="no code a client is told"):
        for_code("x", "internal_error")  # a fault is no client's error
    assert issubclass(IllegalActionError, Refused)


def test_every_client_error_the_package_raises_names_a_listed_code_of_its_kind() -> None:
    """Statically, every ``Malformed(...)`` / ``Refused(...)`` with a code written out
    (the constructor checks the rest when they run)."""
    kinds = {"Malformed": "malformed", "Refused": "refused"}
    wrong = []
    seen = 0
    for path in (ROOT / "hundred_server").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            kind = kinds.get(node.func.id)
            if kind is None or len(node.args) < 2 or not isinstance(node.args[1], ast.Constant):
                continue
            seen += 1
            code = node.args[1].value
            if code not in CODES or CODES[code].kind != kind:
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.func.id} {code}")
    assert wrong == []
    assert seen > 50


# ---------------------------------------------------------------------- provoking


def codes(messages: list[Message]) -> list[str]:
    return [m["Code"] for m in messages if m.get("Type") == "Error"]


def named(h: Harness, name: str, address: str | None = None) -> Client:
    conn, commands = h.hub.connect("test", address=address)
    client = Client(h, conn)
    h.clients[conn] = client
    h.apply(commands)
    client.send({"Type": "Hello", "Name": name})
    client.take()
    return client


def create(client: Client, game: str = "hundredandten", **fields: Any) -> list[Message]:
    client.send({"Type": "Hello", "Message": "create", "Game": game})
    return client.send({"Type": "Game", "Option": 1, **fields})


def open_table(h: Harness) -> tuple[Client, int]:
    """A 4-seat table of people only, waiting: its creator and its id."""
    ann = named(h, "ann")
    said = create(ann, Option=4)
    return ann, next(m["Table"] for m in said if m.get("Type") == "Table")


def full_table(h: Harness) -> tuple[Client, int]:
    ann, table = open_table(h)
    for name in ("bob", "cy", "dee"):
        other = named(h, name)
        other.send({"Type": "Hello", "Message": "join"})
        other.send({"Type": "Join", "Table": table})
    return ann, table


def in_lobby(send: Message | bytes) -> Callable[[Harness], list[Message]]:
    return lambda h: named(h, "ann").send(send)


def _no_such_table(h: Harness) -> list[Message]:
    ann = named(h, "ann")
    ann.send({"Type": "Hello", "Message": "join"})
    return ann.send({"Type": "Join", "Table": 99})


def _no_watchers(h: Harness) -> list[Message]:
    ann = named(h, "ann")
    said = create(ann, Watchers=False)
    table = next(m["Table"] for m in said if m.get("Type") == "Table")
    return named(h, "bob").send({"Type": "Watch", "Table": table})


def _too_many_watchers(h: Harness) -> list[Message]:
    h.hub.lobby.limits = Limits(max_watchers=1)
    said = create(named(h, "ann"))
    table = next(m["Table"] for m in said if m.get("Type") == "Table")
    named(h, "bob").send({"Type": "Watch", "Table": table})
    return named(h, "cy").send({"Type": "Watch", "Table": table})


def _table_full(h: Harness) -> list[Message]:
    _, table = open_table(h)
    joiners = [named(h, n) for n in ("bob", "cy", "dee", "eve")]
    for other in joiners:
        other.send({"Type": "Hello", "Message": "join"})
    for other in joiners[:3]:
        other.send({"Type": "Join", "Table": table})
    return joiners[3].send({"Type": "Join", "Table": table})


def _bad_mute(h: Harness) -> list[Message]:
    return named(h, "ann").send({"Type": "Mute", "Name": "ann"})


def _chat_busy(h: Harness) -> list[Message]:
    h.hub.lobby.limits = Limits(chat_fanout=4)  # lines delivered a second, for everyone
    ann, listeners = named(h, "ann"), [named(h, f"p{n}") for n in range(3)]
    assert listeners
    return ann.send({"Type": "Chat", "Text": "hello"}) + ann.send({"Type": "Chat", "Text": "again"})


def _prompted(h: Harness) -> tuple[Client, Message]:
    ann = named(h, "ann")
    create(ann, AI="naive")
    prompt = ann.pending()
    assert prompt is not None
    return ann, prompt


def _not_your_seat(h: Harness) -> list[Message]:
    ann, prompt = _prompted(h)
    return ann.send({**answer_from_legal(prompt, random.Random(1)), "Playerid": 3})


def _stale_seq(h: Harness) -> list[Message]:
    ann, prompt = _prompted(h)
    return ann.send({**answer_from_legal(prompt, random.Random(1)), "Seq": prompt["Seq"] + 7})


def _too_many_tables(h: Harness) -> list[Message]:
    h.hub.lobby.limits = Limits(max_tables_per_address=1)
    create(named(h, "ann", "10.0.0.1"))
    return create(named(h, "bob", "10.0.0.1"))


def _too_many_waiting(h: Harness) -> list[Message]:
    h.hub.lobby.limits = Limits(max_waiting_per_address=1)
    create(named(h, "ann", "10.0.0.1"), Option=4)
    return create(named(h, "bob", "10.0.0.1"), Option=4)


def _ai_busy(h: Harness) -> list[Message]:
    h.hub.lobby.ai_pool = True  # the strong AI's seats go to a pool, which is busy
    h.hub.lobby.ai_busy = lambda: True
    return create(named(h, "ann"), AI="strong")


def _store_unavailable(h: Harness) -> list[Message]:
    h.hub.lobby.store_gate.failed(set())
    return create(named(h, "ann"))


def _rate_limited(h: Harness) -> list[Message]:
    h.hub.lobby.limits = Limits(rate=1.0, burst=1)
    ann = named(h, "ann")
    for _ in range(3):  # at one moment: one line's burst, then the rate
        h.apply(h.hub.receive(ann.conn, b'{"Type":"Hello"}', now=5.0))
    return ann.take()


def _idle_timeout(h: Harness) -> list[Message]:
    h.hub.lobby.limits = Limits(idle_timeout=10.0)
    ann = named(h, "ann")
    h.advance(11)
    h.apply(h.hub.idle())
    return ann.take()


class Book:
    """Accounts for the lobby (core/accounts.py ``AccountBook``): ``Zed``, key ``k`` * 43."""

    def by_key(self, key_hash: str) -> Account | None:
        return Account("Zed") if key_hash == hash_key("k" * 43) else None

    def taken(self, name: str) -> str | None:
        return "Zed" if fold(name) == fold("Zed") else None


def _with_book(h: Harness) -> Harness:
    h.hub.lobby.sign_in.book = Book()
    return h


def _name_taken(h: Harness) -> list[Message]:
    _with_book(h)
    return named(h, "ann").send({"Type": "Hello", "Name": "ZED"})


def _too_many_attempts(h: Harness) -> list[Message]:
    _with_book(h)
    ann = named(h, "ann", address="10.0.0.9")
    said = [ann.send({"Type": "Hello", "Key": f"{i}" * 43}) for i in range(5)]
    assert all(codes(s) == ["bad_key"] for s in said)
    return ann.send({"Type": "Hello", "Key": "k" * 43})  # right, but not checked now


def _no_store(h: Harness) -> list[Message]:
    """Text mode's login on a server without a store: the error line's code."""
    conn, commands = h.hub.connect("test")
    client = Client(h, conn)
    h.clients[conn] = client
    h.apply(commands)
    assert client.say("login ann") == [
        "Password for ann (what you type is shown on your own screen only):"
    ]
    said = client.say("correct horse")
    return [
        {"Type": "Error", "Code": line.rsplit("(", 1)[1].rstrip(")")}
        for line in said
        if line.startswith("! ")
    ]


def _admission(h: Harness, limits: Limits) -> list[Message]:
    hub = Hub(limits=limits)
    hub.connect("a", address="10.0.0.1")
    refusal = hub.admit("10.0.0.1")
    assert refusal is not None
    return [{"Type": "Error", "Code": refusal[0], "Message": refusal[1]}]


#: The codes that are not the rules' (those are below), each with how to provoke it.
SCENARIOS: dict[str, Callable[[Harness], list[Message]]] = {
    "line_too_long": in_lobby(b"{" + b" " * MAX_LINE + b"}"),
    "bad_json": in_lobby(b"{nope"),
    "bad_message": in_lobby({"Type": "Join", "Table": "one"}),
    "unknown_type": in_lobby({"Type": "Dance"}),
    "bad_choice": in_lobby({"Type": "Hello", "Message": "dance"}),
    "bad_name": in_lobby({"Type": "Hello", "Name": "AI 1"}),
    "bad_game": in_lobby({"Type": "Hello", "Message": "create", "Game": "chess"}),
    "bad_option": lambda h: create(named(h, "ann"), AI="genius"),
    "bad_token": in_lobby({"Type": "Hello", "Token": "0" * 32}),
    "no_such_table": _no_such_table,
    "no_watchers": _no_watchers,
    "bad_chat": in_lobby({"Type": "Chat", "Text": ""}),
    "bad_mute": _bad_mute,
    "chat_busy": _chat_busy,
    "too_many_watchers": _too_many_watchers,
    "table_full": _table_full,
    "not_now": in_lobby({"Type": "Leave"}),
    "not_your_seat": _not_your_seat,
    "stale_seq": _stale_seq,
    "server_full": lambda h: _admission(h, Limits(max_connections=1)),
    "too_many_connections": lambda h: _admission(h, Limits(max_connections_per_address=1)),
    "too_many_tables": _too_many_tables,
    "too_many_waiting": _too_many_waiting,
    "ai_busy": _ai_busy,
    "store_unavailable": _store_unavailable,
    "rate_limited": _rate_limited,
    "idle_timeout": _idle_timeout,
    "bad_key": in_lobby({"Type": "Hello", "Key": "x" * 43}),
    "name_taken": _name_taken,
    "too_many_attempts": _too_many_attempts,
    "no_store": _no_store,
    "not_rated": lambda h: create(named(h, "ann"), Rated=True),
}


@pytest.mark.parametrize("code", sorted(SCENARIOS))
def test_each_refusal_is_answered_with_its_code(code: str) -> None:
    assert code in CODES
    assert code in codes(SCENARIOS[code](Harness(code)))


# ---------------------------------------------------------------- the rules' codes

#: Answers a seat can send that its prompt's Legal does not hold, by prompt Type: the
#: rules' refusals come from these.
WRONG_CARDS = [f"{r}{s}" for r in "23456789TJQKA" for s in "SHDC"] + ["JK", "ROOK"]
WRONG_CARDS += [f"{c}{n}" for c in "BGRY" for n in ("1", *map(str, range(5, 15)))]


def dealt(client: Client) -> list[str]:
    """The client's hand as it was last told (a deal, an exchange), if it was."""
    for msg in reversed(client.messages):
        hand = msg.get("Hand")
        if isinstance(hand, list):
            return [c for c in hand if isinstance(c, str)]
    return []


def wrong_answers(prompt: Message, rng: random.Random, hand: list[str]) -> list[Message]:
    base = {"Type": prompt["Type"], "Playerid": prompt["Playerid"], "Seq": prompt["Seq"]}
    legal = prompt["Legal"]
    if prompt["Type"] == "Bid":
        return [{**base, "Bid": b} for b in range(0, 400, 5) if b not in legal]
    if prompt["Type"] == "Play":
        # The cards of its hand it may not play now, and some it does not hold.
        held = [c for c in hand if c not in legal]
        cards = [c for c in WRONG_CARDS if c not in legal and c not in held]
        return [{**base, "PlayedCard": c} for c in held + rng.sample(cards, 24)]
    if prompt["Type"] == "Discard":
        return [{**base, "Cards": [legal[0], legal[0]]}, {**base, "Cards": WRONG_CARDS[:3]}]
    if prompt["Type"] == "Setup":
        hand = list(legal)
        return [
            {**base, "Discard": hand[:1], "Trump": "B", "Partners": []},
            {
                **base,
                "Discard": hand[: prompt["Count"]],
                "Trump": "B",
                "Partners": WRONG_CARDS[-prompt["Calls"] - 1 :],
            },
        ]
    return []


#: The codes only the rules give, which a seat at a table provokes by answering wrong.
RULE_CODES = {code for code in CODES if code not in SCENARIOS and CODES[code].kind == "refused"} - {
    "not_your_turn",
    "already_passed",
    "not_pre_passed",
    "wrong_phase",
    "game_over",
    # Said to a login over HTTP or in text mode (tests/io/test_api.py, test_signin.py).
    "wrong_password",
}


#: The codes only the winner of an auction can provoke (its exchange with the kitty).
BIDDERS_CODES = {"bad_discard", "bad_partners"}


def test_the_rules_refusals_are_provoked_and_answered_with_listed_codes() -> None:
    """A person plays three whole games of every game against the naive AI, answering each
    prompt wrong in every way first: every code that comes back is listed, and every
    rule's code comes back from some game."""
    seen: set[str] = set()
    for name, game in ((n, g) for n in games.names() for g in range(3)):
        h = Harness(f"rules-{name}-{game}")
        ann = named(h, "ann")
        create(ann, game=name, AI="naive")
        rng = random.Random(f"{name}-{game}")
        for _ in range(5000):
            prompt = ann.pending()
            if prompt is None:
                break
            for wrong in wrong_answers(prompt, rng, dealt(ann)):
                seen.update(codes(ann.send(wrong)))
            assert ann.pending() == prompt  # each was refused, and asked again
            answer = answer_from_legal(prompt, rng)
            bids = [b for b in prompt["Legal"] if type(b) is int and b]
            if prompt["Type"] == "Bid" and bids and not seen >= BIDDERS_CODES:
                # The lowest bid, until the codes of a bidder's own answer are seen.
                answer["Bid"] = min(bids)
            ann.send(answer)
        assert ann.game_over() is not None, name
    assert seen <= set(CODES)
    assert seen >= RULE_CODES, sorted(RULE_CODES - seen)


def test_the_rules_turn_codes_are_answered() -> None:
    """Hundred and Ten lets a seat answer out of turn (a pre-pass): the turn codes."""
    h = Harness("turns")
    people = [named(h, n) for n in ("ann", "bob", "cy", "dee")]
    create(people[0], Option=4)
    for other in people[1:]:
        other.send({"Type": "Hello", "Message": "join"})
        other.send({"Type": "Join", "Table": 1})
    waiting = next(c for c in people if c.pending() is None)
    seat = next(m["Playerid"] for m in waiting.messages if m.get("Type") == "Seat")
    prompt = next(m for m in reversed(waiting.messages) if "Seq" in m)
    base = {"Type": "Bid", "Playerid": seat, "Seq": prompt["Seq"]}
    said = codes(waiting.send({**base, "Bid": 15}))
    said += codes(waiting.send({**base, "Bid": 0}))
    said += codes(waiting.send({**base, "Bid": 0}))
    assert "not_your_turn" in said
    assert "already_passed" in said
