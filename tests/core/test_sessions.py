"""Sessions (core/sessions.py): the places a session may go from each place are one
table, ``TRANSITIONS``, and ``Sessions.move`` is the one place that moves a session."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path
from typing import Any, cast

import pytest

from hundred_server.core.sessions import (
    AT_TABLE,
    TRANSITIONS,
    BadTransition,
    Session,
    Sessions,
    Where,
)
from hundred_server.core.table import Table
from tests.support.hub_harness import Harness, play_until_over

PACKAGE = Path(__file__).resolve().parents[2] / "hundred_server"
#: A stand-in for a session's table: ``move`` only carries it.
TABLE = cast(Table, object())


def at(where: Where) -> Session:
    """A session at ``where`` (with a table if the place is at one)."""
    return Session(1, "ann", where=where, table=TABLE if where in AT_TABLE else None)


def test_every_place_has_its_moves_written_down() -> None:
    assert set(TRANSITIONS) == set(Where)
    # From the lobby a session may go anywhere; from a table, not to another table.
    for place in (Where.SEATED, Where.PLAYING, Where.WATCHING, Where.RELAYED):
        assert Where.QUESTION in TRANSITIONS[place]
        assert Where.CLOSED in TRANSITIONS[place]
        assert not TRANSITIONS[place] & {Where.WATCHING, Where.OPTIONS, Where.TABLES}
    assert TRANSITIONS[Where.CLOSED] == {Where.CLOSED}  # an ended session stays ended


@pytest.mark.parametrize(
    ("start", "end"),
    [(a, b) for a, b in itertools.product(Where, Where) if b not in TRANSITIONS[a]],
    ids=str,
)
def test_a_move_the_table_does_not_allow_is_refused_and_changes_nothing(
    start: Where, end: Where
) -> None:
    session = at(start)
    with pytest.raises(BadTransition, match=f"from {start} to {end}"):
        Sessions.move(session, end, TABLE if end in AT_TABLE else None)
    assert (session.where, session.table) == (start, TABLE if start in AT_TABLE else None)


@pytest.mark.parametrize(
    ("start", "end"),
    [(a, b) for a in Where for b in sorted(TRANSITIONS[a], key=str)],
    ids=str,
)
def test_a_place_at_a_table_comes_with_its_table_and_no_other_does(
    start: Where, end: Where
) -> None:
    with pytest.raises(BadTransition, match="at a table"):
        Sessions.move(at(start), end, None if end in AT_TABLE else TABLE)
    session = at(start)
    Sessions.move(session, end, TABLE if end in AT_TABLE else None)
    assert session.where is end
    assert (session.table is TABLE) is (end in AT_TABLE)


def test_the_lobbys_walks_take_the_moves_of_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Creating, joining, playing a game out, watching, leaving, quitting and losing a
    connection: every move goes through ``Sessions.move``, and is one of the table's."""
    moves: set[tuple[Where, Where]] = set()
    move = Sessions.move

    def recording(session: Session, where: Where, table: Any = None) -> None:
        moves.add((session.where, where))
        move(session, where, table)

    monkeypatch.setattr(Sessions, "move", staticmethod(recording))
    h = Harness("sessions")
    ann, bob, cat, dee = (h.json_client(name) for name in ("ann", "bob", "cat", "dee"))
    ann.send({"Type": "Hello", "Message": "create"})
    ann.send({"Type": "Game", "Option": 4})  # four people: ann waits
    cat.send({"Type": "Hello", "Message": "watch"})
    cat.send({"Type": "Watch", "Table": 1})
    for person in (bob, dee):
        person.send({"Type": "Hello", "Message": "join"})
    bob.send({"Type": "Join", "Table": 1})
    eve = h.json_client("eve")
    eve.send({"Type": "Join", "Table": 1})  # straight from the lobby question
    dee.send({"Type": "Join", "Table": 1})  # the table is full: it starts
    assert h.hub.lobby.sessions[dee.conn].where is Where.PLAYING
    cat.send({"Type": "Leave"})
    cat.send({"Type": "Hello", "Message": "quit"})
    play_until_over([ann, bob, eve, dee], random.Random(7))
    ann.disconnect()
    assert moves <= {(a, b) for a in Where for b in TRANSITIONS[a]}
    assert {
        (Where.QUESTION, Where.OPTIONS),
        (Where.OPTIONS, Where.SEATED),
        (Where.QUESTION, Where.TABLES),
        (Where.TABLES, Where.WATCHING),
        (Where.TABLES, Where.SEATED),
        (Where.QUESTION, Where.SEATED),
        (Where.SEATED, Where.PLAYING),
        (Where.TABLES, Where.PLAYING),
        (Where.WATCHING, Where.QUESTION),
        (Where.QUESTION, Where.CLOSED),
        (Where.PLAYING, Where.QUESTION),
    } <= moves


def test_a_sessions_place_is_assigned_in_sessions_py_only() -> None:
    """No module of the core or the I/O layer sets a session's ``where`` but
    ``Sessions.move``."""
    sites = []
    for path in sorted([*PACKAGE.glob("core/*.py"), *PACKAGE.glob("io/*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign | ast.AugAssign)
                else []
            )
            for target in targets:
                for element in target.elts if isinstance(target, ast.Tuple) else [target]:
                    if isinstance(element, ast.Attribute) and element.attr == "where":
                        sites.append(f"{path.name}:{node.lineno}")
    assert [site.split(":")[0] for site in sites] == ["sessions.py"], sites
