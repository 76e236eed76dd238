"""Chat (protocol.md, Chat): the cleaner (chat.py), who hears a chat line in the lobby
and at a table (lobby.py), muting, the rate limit, text mode, and that chat is never
part of a game or its record."""

from __future__ import annotations

import json
import random
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server.config import AISettings
from hundred_server.core import chat
from hundred_server.core.chat import MAX_CHAT, clean
from hundred_server.core.hub import Hub, Send
from hundred_server.core.lobby import Limits
from hundred_server.protocol import codecs
from hundred_server.protocol.errors import ClientError
from hundred_server.protocol.schema import validate_client_message, validate_server_message
from hundred_server.store import Store
from tests.support.hub_harness import HELLO, Client, Harness, answer_from_legal, is_prompt
from tests.support.saving import SavingHarness

Message = dict[str, Any]


def said(who: str, text: str, where: str) -> Message:
    return {"Type": "Chat", "From": who, "Text": text, "Where": where}


def error(code: str, text: str) -> Message:
    return {"Type": "Error", "Code": code, "Message": text}


def at_table(h: Harness, name: str, **game: Any) -> Client:
    person = h.create(name, **game)
    person.take()
    return person


# ------------------------------------------------------------------ the cleaner


def is_control(c: str) -> bool:
    return unicodedata.category(c).startswith("C") or unicodedata.category(c) in ("Zl", "Zp")


@settings(deadline=None)  # the first example builds the schema's validator
@given(
    st.one_of(
        st.text(max_size=300),
        st.text(st.characters(categories=["Cc", "Cf", "Co", "Cs", "Zs", "Ll"]), max_size=300),
    )
)
def test_clean_removes_control_and_format_characters_and_trims(text: str) -> None:
    expected = "".join(c for c in text if not is_control(c)).strip()
    if not expected or len(expected) > MAX_CHAT:
        with pytest.raises(ClientError) as caught:
            clean(text)
        assert caught.value.code == "bad_chat"
        if expected:
            assert f"at most {MAX_CHAT} characters, not {len(expected)}" in caught.value.message
        return
    cleaned = clean(text)
    assert cleaned == expected
    assert not any(is_control(c) for c in cleaned)
    assert cleaned == cleaned.strip()
    assert clean(cleaned) == cleaned  # cleaning twice changes nothing
    validate_server_message(chat.chat_message("ann", cleaned, "lobby"))


@given(st.one_of(st.none(), st.integers(), st.lists(st.text()), st.booleans()))
def test_clean_refuses_what_is_not_a_string(value: object) -> None:
    with pytest.raises(ClientError) as caught:
        clean(value)
    assert caught.value.code == "bad_chat"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("  hello  ", "hello"),
        ("two\nlines", "twolines"),
        ("tab\tbed", "tabbed"),
        ("\x1b[2Jgone", "[2Jgone"),  # an escape sequence loses its ESC: the screen is safe
        ("evil\u202eoverride", "eviloverride"),  # a bidi override is a format character
        ("zero\u200bwidth\ufeff", "zerowidth"),
        ("del\x7f", "del"),
        ("line\u2028para\u2029graph", "lineparagraph"),  # separators break lines too
        ("é ünïcödé ♥ 🃏", "é ünïcödé ♥ 🃏"),
        ("x" * MAX_CHAT, "x" * MAX_CHAT),
        (" " + "x" * MAX_CHAT + "\n", "x" * MAX_CHAT),
    ],
)
def test_clean_examples(text: str, kept: str) -> None:
    assert clean(text) == kept


def test_a_line_too_long_is_refused_not_cut_short() -> None:
    with pytest.raises(ClientError, match="at most 200 characters, not 201"):
        clean("x" * 201)
    with pytest.raises(ClientError, match="it was empty"):
        clean(" \n\t\u200b ")


# ------------------------------------------------------------------ who hears it


def test_a_lobby_chat_reaches_the_lobby_and_a_table_chat_its_table_only() -> None:
    h = Harness("chat-audience")
    ann = at_table(h, "ann", Option=1)  # table 1, under way
    bob = at_table(h, "bob", Option=4)  # table 2, waiting
    cy = h.json_client("cy")  # in the lobby
    dee = h.json_client("dee")  # in the lobby, then watching table 1
    dee.send({"Type": "Hello", "Message": "create"})  # the options: still the lobby
    assert cy.send({"Type": "Chat", "Text": "hi all"}) == [said("cy", "hi all", "lobby")]
    assert dee.take() == [said("cy", "hi all", "lobby")]
    assert ann.take() == bob.take() == []
    dee.send({"Type": "Watch", "Table": 1})
    dee.take()
    prompt = ann.pending()
    assert ann.send({"Type": "Chat", "Text": "gl"}) == [said("ann", "gl", "table")]
    assert dee.take() == [said("ann", "gl", "table")]
    assert cy.take() == bob.take() == []
    assert dee.send({"Type": "Chat", "Text": "nice"}) == [said("dee", "nice", "table")]
    assert ann.take() == [said("dee", "nice", "table")]
    assert bob.send({"Type": "Chat", "Text": "anyone?"}) == [said("bob", "anyone?", "table")]
    assert ann.take() == cy.take() == dee.take() == []
    assert ann.pending() == prompt  # chat is no move: the same prompt, not sent again


def test_chat_names_are_as_the_table_shows_them() -> None:
    h = Harness("chat-names")
    nameless = h.connect()
    nameless.take()
    assert nameless.send({"Type": "Chat", "Text": "hello"}) == [
        said(f"player{nameless.conn}", "hello", "lobby")
    ]
    ann = at_table(h, "ann", Option=5, Seats=3)
    other = at_table(h, "bob", Option=1)
    other.take()
    second = h.json_client("ann")
    second.send({"Type": "Join", "Table": 1})
    assert h.hub.lobby.tables[1].names()[1] == "ann (2)"
    ann.take()
    assert second.send({"Type": "Chat", "Text": "me too"}) == [said("ann (2)", "me too", "table")]
    assert ann.take() == [said("ann (2)", "me too", "table")]


def test_a_chat_error_is_typed_and_what_you_were_asked_comes_again() -> None:
    h = Harness("chat-errors")
    cy = h.json_client("cy")
    for text, why in [
        ("", "a chat line needs something to say (it was empty)"),
        ("\n\n", "a chat line needs something to say (it was empty)"),
        ("x" * 300, "a chat line is at most 200 characters, not 300: nothing was said"),
    ]:
        assert cy.send({"Type": "Chat", "Text": text}) == [error("bad_chat", why), HELLO]
    assert cy.send({"Type": "Chat"}) == [
        error("bad_chat", "Chat needs Text, a string, not null"),
        HELLO,
    ]
    ann = at_table(h, "ann", Option=1)
    prompt = ann.pending()
    assert ann.send({"Type": "Chat", "Text": ["hi"]}) == [
        error("bad_chat", 'Chat needs Text, a string, not ["hi"]'),
        prompt,
    ]


# ------------------------------------------------------------------ muting


def test_mute_and_unmute(monkeypatch: pytest.MonkeyPatch) -> None:
    h = Harness("chat-mute")
    ann, bob, cy = (h.json_client(n) for n in ("ann", "bob", "cy"))
    assert ann.send({"Type": "Mute", "Name": " bob "}) == [
        {
            "Type": "Message",
            "Message": "You muted bob: you will not see what they say (Unmute to undo)",
        }
    ]
    assert bob.send({"Type": "Chat", "Text": "psst"}) == [said("bob", "psst", "lobby")]
    assert ann.take() == []
    assert cy.take() == [said("bob", "psst", "lobby")]  # only the muter stops hearing
    assert bob.take() == []  # nobody else is told of the mute
    ann.send({"Type": "Hello", "Message": "create"})
    ann.send({"Type": "Game", "Option": 4})
    bob.send({"Type": "Join", "Table": 1})
    ann.take()
    bob.send({"Type": "Chat", "Text": "at the table"})
    assert ann.take() == []  # a mute holds at tables too
    assert ann.send({"Type": "Unmute", "Name": "bob"}) == [
        {"Type": "Message", "Message": "You unmuted bob: you see what they say again"}
    ]
    bob.send({"Type": "Chat", "Text": "back"})
    assert ann.take() == [said("bob", "back", "table")]
    assert ann.send({"Type": "Unmute", "Name": "bob"}) == [
        {"Type": "Message", "Message": "bob was not muted"}
    ]


def test_what_cannot_be_muted(monkeypatch: pytest.MonkeyPatch) -> None:
    h = Harness("chat-mute-refused")
    ann = h.json_client("ann")
    h.json_client("bob")
    h.json_client("cy")
    assert ann.send({"Type": "Mute", "Name": "ann"}) == [
        error("bad_mute", "you cannot mute yourself"),
        HELLO,
    ]
    assert ann.send({"Type": "Mute", "Name": "zed"}) == [
        error("bad_mute", 'nobody here goes by "zed" (mute a name as its chat shows it)'),
        HELLO,
    ]
    assert ann.send({"Type": "Mute", "Name": 7}) == [
        error("bad_message", "Name must be a string, got 7"),
        HELLO,
    ]
    assert ann.send({"Type": "Mute"})[0] == error("bad_message", "Mute needs Name")
    monkeypatch.setattr(chat, "MAX_MUTES", 1)
    ann.send({"Type": "Mute", "Name": "bob"})
    assert ann.send({"Type": "Mute", "Name": "cy"})[0] == error(
        "bad_mute", "you have muted 1 names, the most you may; unmute one first"
    )
    assert ann.send({"Type": "Mute", "Name": "bob"})[0]["Type"] == "Message"  # again: fine


def test_mutes_last_as_long_as_the_connection() -> None:
    h = Harness("chat-mute-life")
    ann, bob = h.json_client("ann"), h.json_client("bob")
    ann.send({"Type": "Mute", "Name": "bob"})
    ann.disconnect()
    again = h.json_client("ann")
    bob.send({"Type": "Chat", "Text": "hello again"})
    assert again.take() == [said("bob", "hello again", "lobby")]


# ------------------------------------------------------------------ chat is no play


def test_a_chat_flood_is_rate_limited() -> None:
    h = Harness("chat-flood")
    h.hub.lobby.limits = Limits(rate=2.0, burst=4)
    ann = at_table(h, "ann", Option=1)
    got: list[Message] = []
    for _ in range(8):
        h.apply(h.hub.receive(ann.conn, b'{"Type":"Chat","Text":"spam"}', now=0.0))
        got += ann.take()
    assert got[:4] == [said("ann", "spam", "table")] * 4
    assert got[4]["Code"] == "rate_limited"
    assert is_prompt(got[5])  # the prompt again, as after any refused line


def test_chat_is_never_in_a_games_record(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    h = SavingHarness("chat-record", store)
    ann = h.create("ann", Option=1)
    watcher = h.watcher(1)
    rng = random.Random(8)
    secret = "the chat is not kept"
    while ann.game_over() is None:
        prompt = ann.pending()
        assert prompt is not None
        for who in (ann, watcher):
            who.send({"Type": "Chat", "Text": secret})
        ann.send(answer_from_legal(prompt, rng))
    (game,) = store.games()
    assert game.state == "over"
    assert not [line for line in game.lines if "Chat" in line or secret in line]
    assert not [line for line in game.lines if "wat" in json.loads(line).get("Players", [])]
    store.close()


# ------------------------------------------------------------------ other transports


def test_text_mode_says_mutes_and_shows_chat() -> None:
    h = Harness("chat-text")
    nc = h.connect()
    nc.take_text()
    bob = h.json_client("bob")
    assert nc.say("name ann") == [
        "Hello, ann.",
        "Do you want to join a game, create a new game, or quit? (join, create, quit)",
        "> create, join, quit (or help)",
    ]
    assert nc.say("say  hello   there ") == ["<ann> hello   there"]
    assert bob.take() == [said("ann", "hello   there", "lobby")]
    assert nc.say("chat hi") == ["<ann> hi"]
    bob.send({"Type": "Chat", "Text": "hey ann"})
    assert nc.take_text() == ["<bob> hey ann"]
    assert nc.say("mute bob") == ["You muted bob: you will not see what they say (Unmute to undo)"]
    bob.send({"Type": "Chat", "Text": "hello?"})
    assert nc.take_text() == []
    assert nc.say("unmute bob") == ["You unmuted bob: you see what they say again"]
    assert nc.say("say") == [
        "! a chat line needs something to say (it was empty) (bad_chat)",
        "> create, join, quit (or help)",
    ]
    help_lines = nc.say("help")
    assert any(line.startswith("  say TEXT") for line in help_lines)
    assert any(line.startswith("  mute NAME") for line in help_lines)


def test_the_classic_port_gets_no_chat_and_sends_none() -> None:
    hub = Hub(seed_source=lambda: "classic-chat", ai=AISettings("naive"))
    classic, _ = hub.connect("classic", codecs.CLASSIC)
    ann, _ = hub.connect("ann")
    out = hub.receive(ann, b'{"Type":"Chat","Text":"hello"}')
    sent = {c.conn: c.data for c in out if isinstance(c, Send)}
    assert classic not in sent  # a Type the seed does not know is never sent
    assert b'"Chat"' in sent[ann]
    out = hub.receive(classic, b'{"Type":"Chat","Text":"hello"}')
    assert [c.data for c in out if isinstance(c, Send)] == [b'{"Type":"Hello"}\n']


def test_the_client_messages_are_in_the_schema() -> None:
    for msg in (
        {"Type": "Chat", "Text": "hello"},
        {"Type": "Mute", "Name": "bob"},
        {"Type": "Unmute", "Name": "bob"},
    ):
        validate_client_message(msg)
    validate_server_message(said("ann (2)", "hi", "table"))
    for bad in (
        said("ann", "two\nlines", "table"),
        said("ann", " padded", "lobby"),
        said("ann", "x" * 201, "lobby"),
        said("ann", "", "lobby"),
        said("ann", "hi", "room"),
        {**said("ann", "hi", "lobby"), "Extra": 1},
    ):
        with pytest.raises(Exception, match=r".") as caught:
            validate_server_message(bad)
        assert caught.type.__name__ == "ValidationError"
