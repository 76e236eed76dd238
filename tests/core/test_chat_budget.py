"""Issue #27's chat findings: the lobby chat's fan-out budget (chat.FanOut,
``Limits.chat_fanout``, ``chat_busy``), lobby chat to others as news (hub.Send.news),
and mutes that follow the person, not the name."""

from __future__ import annotations

import json
from typing import Any

from hundred_server.core.hub import Send
from hundred_server.core.lobby import Limits
from tests.support.hub_harness import HELLO, Client, Harness

Message = dict[str, Any]


def said(who: str, text: str, where: str) -> Message:
    return {"Type": "Chat", "From": who, "Text": text, "Where": where}


def busy(wait: str, budget: int) -> Message:
    return {
        "Type": "Error",
        "Code": "chat_busy",
        "Message": f"the lobby's chat is busy (at most {budget} lines delivered a second, "
        f"shared by everyone talking): nothing was said; try again in {wait} s",
    }


def lobby_of(h: Harness, count: int) -> list[Client]:
    return [h.json_client(f"p{i}") for i in range(count)]


# ------------------------------------------------------------------ the budget


def test_the_lobby_chat_budget_refuses_once_spent_and_refills_with_the_clock() -> None:
    h = Harness("chat-budget")
    h.hub.lobby.limits = Limits(chat_fanout=100)
    ann, *others = lobby_of(h, 10)  # a line costs 10: ann's echo and 9 listeners
    for n in range(10):  # one second's budget: 10 lines of 10
        assert ann.send({"Type": "Chat", "Text": f"hi {n}"}) == [said("p0", f"hi {n}", "lobby")]
    assert ann.send({"Type": "Chat", "Text": "one more"}) == [busy("0.1", 100), HELLO]
    assert all(o.take() == [said("p0", f"hi {n}", "lobby") for n in range(10)] for o in others)
    h.advance(0.05)  # half a line's worth
    assert ann.send({"Type": "Chat", "Text": "still"}) == [busy("0.1", 100), HELLO]
    h.advance(0.06)
    assert ann.send({"Type": "Chat", "Text": "now"}) == [said("p0", "now", "lobby")]
    assert [o.take() for o in others] == [[said("p0", "now", "lobby")]] * 9


def test_a_second_speaker_is_heard_while_a_first_floods() -> None:
    h = Harness("chat-fair")
    h.hub.lobby.limits = Limits(chat_fanout=100)
    ann, bob, *others = lobby_of(h, 10)
    heard = 0
    for _ in range(30):  # ann floods: her share runs out
        heard += ann.send({"Type": "Chat", "Text": "spam"})[0]["Type"] == "Chat"
    assert heard == 10
    assert bob.send({"Type": "Chat", "Text": "hello"}) == [said("p1", "hello", "lobby")]
    for o in others:
        assert o.take()[-1] == said("p1", "hello", "lobby")
    # Two speak now: each has half the budget a second, and ann's half is spent.
    h.advance(0.1)
    assert ann.send({"Type": "Chat", "Text": "spam"})[0]["Code"] == "chat_busy"
    assert bob.send({"Type": "Chat", "Text": "again"})[0] == said("p1", "again", "lobby")
    h.advance(1.0)
    assert ann.send({"Type": "Chat", "Text": "spam"})[0] == said("p0", "spam", "lobby")


def test_a_line_dearer_than_a_seconds_share_waits_for_a_whole_second() -> None:
    h = Harness("chat-dear")
    h.hub.lobby.limits = Limits(chat_fanout=5)
    ann, *_ = lobby_of(h, 8)  # a line costs 8, more than the 5 a second
    assert ann.send({"Type": "Chat", "Text": "a"})[0]["Type"] == "Chat"
    h.advance(1.0)
    assert ann.send({"Type": "Chat", "Text": "b"})[0]["Code"] == "chat_busy"
    h.advance(1.6)
    assert ann.send({"Type": "Chat", "Text": "c"})[0]["Type"] == "Chat"


def test_table_chat_is_not_counted() -> None:
    h = Harness("chat-table-free")
    h.hub.lobby.limits = Limits(chat_fanout=1)
    ann = h.create("ann", Option=1)
    ann.take()
    for n in range(5):
        assert ann.send({"Type": "Chat", "Text": f"t{n}"})[0] == said("ann", f"t{n}", "table")


# ------------------------------------------------------------------ news


def test_lobby_chat_is_news_for_its_listeners_but_not_for_its_speaker() -> None:
    h = Harness("chat-news")
    ann, bob, cy = lobby_of(h, 3)
    commands = h.hub.receive(ann.conn, json.dumps({"Type": "Chat", "Text": "hi"}).encode())
    sends = {c.conn: c for c in commands if isinstance(c, Send)}
    assert set(sends) == {ann.conn, bob.conn, cy.conn}
    assert sends[ann.conn].news is False  # the echo answers the speaker's own line
    assert sends[bob.conn].news is True
    assert sends[cy.conn].news is True
    # Anything else for a connection in the lobby goes at once, as before.
    commands = h.hub.receive(bob.conn, b'{"Type":"Hello"}')
    assert [c.news for c in commands if isinstance(c, Send)] == [False]


# ------------------------------------------------------------------ mutes


def test_a_muted_person_who_renames_is_still_muted() -> None:
    h = Harness("chat-mute-rename")
    ann, bob, cy = (h.json_client(n) for n in ("ann", "bob", "cy"))
    ann.send({"Type": "Mute", "Name": "bob"})
    bob.send({"Type": "Hello", "Name": "other"})
    bob.send({"Type": "Chat", "Text": "it is me"})
    assert ann.take() == []
    assert cy.take() == [said("other", "it is me", "lobby")]
    # Unmute by the name they go by now (or by the one muted, see below).
    assert ann.send({"Type": "Unmute", "Name": "other"}) == [
        {"Type": "Message", "Message": "You unmuted other: you see what they say again"}
    ]
    bob.send({"Type": "Chat", "Text": "heard"})
    assert ann.take() == [said("other", "heard", "lobby")]
    ann.send({"Type": "Mute", "Name": "other"})
    bob.send({"Type": "Hello", "Name": "third"})
    assert ann.send({"Type": "Unmute", "Name": "other"})[0]["Message"].startswith("You unmuted")
    bob.send({"Type": "Chat", "Text": "heard again"})
    assert ann.take() == [said("third", "heard again", "lobby")]


def test_a_muted_person_is_still_muted_after_taking_their_seat_back_by_token() -> None:
    h = Harness("chat-mute-reclaim")
    ann, bob = h.json_client("ann"), h.json_client("bob")
    ann.send({"Type": "Mute", "Name": "bob"})
    bob.send({"Type": "Hello", "Name": "rob"})  # a new name, then a new connection
    ann.send({"Type": "Hello", "Message": "create"})
    ann.send({"Type": "Game", "Option": 5, "Seats": 2, "Bots": 0})
    bob.send({"Type": "Hello", "Message": "join"})
    bob.send({"Type": "Join", "Table": 1})
    token = bob.last("Seat")["Token"]
    bob.disconnect()
    again = h.json_client("robert")
    assert again.send({"Type": "Hello", "Token": token})[0]["Type"] == "Seat"
    ann.take()
    assert again.send({"Type": "Chat", "Text": "back, and not heard"}) == [
        said("rob", "back, and not heard", "table")
    ]
    assert ann.take() == []
    assert ann.send({"Type": "Unmute", "Name": "bob"})[0]["Message"].startswith("You unmuted")
    again.send({"Type": "Chat", "Text": "heard"})
    assert ann.take() == [said("rob", "heard", "table")]
