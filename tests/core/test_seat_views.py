"""Views for bots (core/seat_views.py, protocol.md): a connection that says Views in Hello
gets its seat's View in the prompts it must answer, any prompt takes a Choice, and a
View holds no card its seat was not shown."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hundred_server import games
from hundred_server.core.seat_views import chosen
from hundred_server.games import views
from hundred_server.games.base import player_names
from hundred_server.protocol.errors import IllegalActionError, Malformed
from tests.support.hub_harness import Client, Harness, answer_from_legal, check_stream, valid
from tests.support.oracle import card_fields

Message = dict[str, Any]


def codes_of(name: str) -> frozenset[str]:
    spec = games.get(name)
    return frozenset(c.code for c in spec.seeded_deck("codes", 0))


def views_table(harness: Harness, game: str, option: int = 1) -> Client:
    """A person who said Views and created a table of ``game`` (``option``)."""
    client = harness.json_client("ann")
    client.send({"Type": "Hello", "Message": "create", "Game": game, "Views": True})
    client.send({"Type": "Game", "Option": option})
    return client


def by_choice(prompt: Message, rng: random.Random) -> Message:
    legal = prompt["View"]["legal"]
    return {"Type": prompt["Type"], "Seq": prompt["Seq"], "Choice": rng.randrange(len(legal))}


@pytest.mark.parametrize("game", games.names())
def test_a_bot_plays_a_whole_game_by_views_and_choices(game: str) -> None:
    harness = Harness()
    ann = views_table(harness, game)
    spec, codes, rng = games.get(game), codes_of(game), random.Random(game)
    told: set[str] = set()  # every card the seat was shown, but in Views
    read = prompts = 0
    for _ in range(3000):
        for msg in ann.messages[read:]:
            valid(msg)  # the schema, the View included
            told.update(card_fields(msg, codes, ("View", "Players", "Name", "Tables")))
            if "View" in msg:
                view = msg["View"]
                assert "Legal" in msg
                assert view["seat"] == msg["Playerid"]
                shown = set(card_fields(view, codes, ("legal",)))
                assert shown <= told, f"{shown - told} in {view}"
                decoded = views.decode(spec, view)
                assert [views.encode(a) for a in decoded.legal] == view["legal"]
        read = len(ann.messages)
        if ann.game_over() is not None:
            break
        prompt = ann.pending()
        assert prompt is not None
        assert "View" in prompt
        prompts += 1
        told_now = ann.send(by_choice(prompt, rng))
        assert all(m.get("Type") != "Error" for m in told_now), told_now
    assert ann.game_over() is not None
    assert prompts > 10
    if game == "hundredandten":
        assert check_stream(ann.messages, harness.table_seeds()) == 1


def test_without_views_no_message_carries_one_and_choice_still_answers() -> None:
    harness = Harness()
    ann = harness.create("ann", None, Option=1)
    rng = random.Random(1)
    for _ in range(2000):
        prompt = ann.pending()
        if prompt is None:
            break
        n = len(harness.hub.lobby.tables.get(1).game.legal_actions(0))  # type: ignore[union-attr]
        ann.send({"Type": prompt["Type"], "Seq": prompt["Seq"], "Choice": rng.randrange(n)})
    assert ann.game_over() is not None
    assert not any("View" in m for m in ann.messages)
    assert check_stream(ann.messages, harness.table_seeds()) == 1


def test_a_choice_that_is_no_legal_action_is_refused_and_the_prompt_comes_again() -> None:
    harness = Harness()
    ann = views_table(harness, "hundredandten")
    prompt = ann.pending()
    assert prompt is not None
    assert prompt["Type"] == "Bid"
    n = len(prompt["View"]["legal"])
    seq = prompt["Seq"]
    too_far = ann.refused({"Type": "Bid", "Seq": seq, "Choice": n})
    assert too_far == {
        "Type": "Error",
        "Code": "bad_choice",
        "Message": f"Choice {n} is not an index of your View's legal (0-{n - 1})",
    }
    assert ann.refused({"Type": "Bid", "Seq": seq, "Choice": -1})["Code"] == "bad_choice"
    wrong = ann.refused({"Type": "Play", "Seq": seq, "Choice": 0})
    assert wrong["Message"] == 'Choice 0 is a Bid, not a "Play"'
    assert wrong["Code"] == "bad_choice"
    text = ann.refused({"Type": "Bid", "Seq": seq, "Choice": "0"})
    assert text["Code"] == "bad_message"
    assert text["Message"] == 'Choice must be a whole number, got "0"'
    stale = ann.refused({"Type": "Bid", "Seq": seq + 1, "Choice": 0})
    assert stale["Code"] == "stale_seq"
    told = ann.send({"Type": "Bid", "Seq": seq, "Choice": 0})  # 0: the first, a pass
    assert told[0] == {"Type": "Bid", "Playerid": 0, "Bid": 0}


def test_views_is_true_or_false_and_false_turns_them_off() -> None:
    harness = Harness()
    ann = harness.json_client("ann")
    told = ann.send({"Type": "Hello", "Message": "create", "Views": "yes"})
    assert told == [
        {"Type": "Error", "Code": "bad_message", "Message": 'Views is true or false, not "yes"'},
        {"Type": "Hello"},
    ]
    assert not harness.hub.lobby.sessions[ann.conn].views
    ann.send({"Type": "Hello", "Views": True})
    ann.send({"Type": "Hello", "Message": "create", "Views": False})
    ann.send({"Type": "Game", "Option": 1})
    prompt = ann.pending()
    assert prompt is not None
    assert "View" not in prompt


def test_a_refused_hello_leaves_views_as_they_were() -> None:
    harness = Harness()
    ann = harness.json_client("ann")
    told = ann.send({"Type": "Hello", "Message": "dance", "Views": True})
    assert [m.get("Code") for m in told] == ["bad_choice", None]
    assert not harness.hub.lobby.sessions[ann.conn].views  # the refused Hello changed nothing
    ann.send({"Type": "Hello", "Views": True})
    told = ann.send({"Type": "Hello", "Name": "AI 1", "Views": False})
    assert [m.get("Code") for m in told] == ["bad_name", None]
    assert harness.hub.lobby.sessions[ann.conn].views  # still on


def test_a_seat_taken_back_by_a_connection_with_views_gets_its_view() -> None:
    harness = Harness()
    ann = harness.create("ann", None, Option=1)
    prompt = ann.pending()
    assert prompt is not None
    assert "View" not in prompt
    token = ann.last("Seat")["Token"]
    ann.disconnect()
    again = harness.json_client()
    told = again.send({"Type": "Hello", "Token": token, "Views": True})
    back = [m for m in told if "Legal" in m]
    assert len(back) == 1
    assert back[0]["Seq"] == prompt["Seq"]
    assert back[0]["View"]["seat"] == 0
    assert {k: v for k, v in back[0].items() if k != "View"} == prompt


def test_a_choice_out_of_turn_is_not_your_turn() -> None:
    spec = games.get("whist")
    game = spec.new_game(player_names(4), None)
    game.deal(spec.seeded_deck("turn", 0))
    other = (game.to_act + 1) % 4  # type: ignore[operator]
    with pytest.raises(IllegalActionError) as info:
        chosen(spec, game, other, {"Type": "Play", "Choice": 0})
    assert info.value.code == "not_your_turn"
    with pytest.raises(Malformed):
        chosen(spec, game, game.to_act, {"Type": "Play", "Choice": None})  # type: ignore[arg-type]


def test_a_random_answer_from_legal_and_a_choice_are_the_same_table_move() -> None:
    # Choice i is the seat's i-th legal action, the one the engine lists: answered by
    # Choice and by the answer's own keys, two tables of one seed end the same.
    ends = []
    for mode in ("keys", "choice"):
        harness = Harness("same")
        ann = views_table(harness, "whist")
        rng = random.Random(7)
        for _ in range(2000):
            prompt = ann.pending()
            if prompt is None:
                break
            answer = answer_from_legal(prompt, rng)
            if mode == "choice":
                card = answer["PlayedCard"]
                index = [a["card"] for a in prompt["View"]["legal"]].index(card)
                answer = {"Type": "Play", "Seq": prompt["Seq"], "Choice": index}
            ann.send(answer)
        ends.append(ann.game_over())
    assert ends[0] is not None
    assert ends[0] == ends[1]
