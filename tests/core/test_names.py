"""Names as people read them (names.py): the fold, the reserved names and their
look-alikes refused (lobby ``Hello``, text mode's ``name``), and seated names that fold
alike shown apart (table.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hundred_server.core.hub import _name_ok
from hundred_server.core.lobby import NAME_RE
from hundred_server.core.names import fold, reserved
from tests.support.hub_harness import HELLO, Harness

#: The characters a name may have (lobby.NAME_RE).
NAME_CHARS = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.- ")
NAMES = st.text(NAME_CHARS, min_size=1, max_size=20)
#: The look-alikes of each letter of the reserved names (what a person might type).
LOOK_ALIKES = {"l": "lI1|", "i": "iIl1|", "o": "oO0", "m": ["m", "M", "rn"], "w": ["w", "vv"]}
SEPARATORS = st.sampled_from(["", " ", "  ", "_", "-", ".", "_ "])
RESERVED = ["you", "me", "ai", "ai 1", "ai 12", "ai 10", "server", "player", "player1", "player 30"]

LOOK_ALIKE_REFUSED = [
    "AI  1",
    "AI1",
    "Al 1",
    "AI_1",
    "player 1",
    "PIayer1",
    "p.l.a.y.e.r-7",
    "SERVER",
    "s e r v e r",
    "Y0U",
    "rne",
    "ai 1O",
]


@st.composite
def disguised(draw: st.DrawFn) -> str:
    """A reserved name, each character swapped for a look-alike at random, in any case,
    with separators between."""
    name = draw(st.sampled_from(RESERVED))
    out = []
    for c in name.replace(" ", ""):
        c = draw(st.sampled_from(list(LOOK_ALIKES.get(c, c))))
        out.append(draw(st.sampled_from([c.lower(), c.upper()])) + draw(SEPARATORS))
    return "".join(out).strip() or name


@given(NAMES)
def test_fold_is_idempotent_and_case_insensitive(name: str) -> None:
    skeleton = fold(name)
    assert fold(skeleton) == skeleton
    assert fold(name.upper()) == fold(name.lower()) == skeleton
    assert not set(skeleton) & set(" _-.")


@given(disguised())
def test_every_reserved_name_and_its_look_alikes_fold_to_a_reserved_skeleton(name: str) -> None:
    assert reserved(name), name
    assert not _name_ok(name)


@given(st.sampled_from(["ann", "Bob", "Lola 7", "cy", "Dee-Dee", "eve.x", "players", "Yours"]))
def test_ordinary_names_are_accepted(name: str) -> None:
    assert NAME_RE.match(name)
    assert not reserved(name)
    assert _name_ok(name)


def test_fold_examples() -> None:
    assert fold("AI  1") == fold("Al 1") == fold("AI_1") == fold("ai1") == "all"
    assert fold("PIayer1") == fold("player 1") == "playerl"
    assert fold("B0b") == fold("bob")
    assert fold("Ma rn") == "mam"


@pytest.mark.parametrize("name", LOOK_ALIKE_REFUSED)
def test_each_look_alike_is_refused_with_bad_name(name: str) -> None:
    h = Harness("names-look-alike")
    client = h.json_client()
    assert client.send({"Type": "Hello", "Name": name}) == [
        {
            "Type": "Error",
            "Code": "bad_name",
            "Message": f'the name "{name}" is or looks like a reserved name (you, me, AI N, '
            "server, playerN; read without case, spaces or _ - . and with l, I, 1 alike "
            "and O, 0 alike); pick another",
        },
        HELLO,
    ]
    assert h.hub.lobby.sessions[client.conn].name == f"player{client.conn}"


def test_text_mode_name_refuses_a_look_alike() -> None:
    h = Harness("names-text")
    client = h.connect()  # its first line, not JSON, sets text mode
    client.take()
    said = client.say("name Al 1")
    assert any("looks like a reserved name" in line and "(bad_name)" in line for line in said)
    assert h.hub.lobby.sessions[client.conn].name == f"player{client.conn}"


def test_seated_names_that_fold_alike_are_shown_apart() -> None:
    h = Harness("names-table")
    h.create("ann", Option=5, Seats=4, Bots=0)
    for name in ("Ann", "a.n.n", "bob"):
        other = h.json_client(name)
        other.send({"Type": "Hello", "Message": "join"})
        other.send({"Type": "Join", "Table": 1})
    assert h.hub.lobby.tables[1].names() == ["ann", "Ann (2)", "a.n.n (3)", "bob"]
