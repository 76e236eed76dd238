"""Spades at a table of the hub: a person bids and plays against three AI seats to the
end over the JSON line protocol, in the text mode, and every message fits the schema."""

from __future__ import annotations

import random

from hundred_server import games
from hundred_server.protocol.schema import validate_server_message
from tests.support.hub_harness import HELLO, QUESTION, Harness, answer_from_legal


def test_a_person_plays_spades_against_three_ai_seats_to_the_end() -> None:
    h = Harness("spades-table")
    ann = h.json_client("ann")
    told = ann.send({"Type": "Hello", "Message": "create", "Game": "spades"})
    options = [preset.text for preset in games.get("spades").presets] + ["Go back"]
    assert told[: len(options)] == [
        {"Type": "Message", "Message": f"Option {i} - {text}"} for i, text in enumerate(options, 1)
    ]
    ann.send({"Type": "Game", "Option": 1})
    assert h.hub.lobby.tables[1].names() == ["ann", "AI 1", "AI 2", "AI 3"]
    rng = random.Random(5)
    kinds = set()
    for _ in range(5000):
        if ann.game_over() is not None:
            break
        prompt = ann.pending()
        assert prompt is not None
        kinds.add(prompt["Type"])
        ann.send(answer_from_legal(prompt, rng))
    over = ann.game_over()
    assert over is not None
    assert kinds == {"Bid", "Play"}
    assert over["Winner"] in ("NS", "EW")
    assert over["Win"] is (over["Winner"] == "NS")
    assert ann.messages[-2:] == [QUESTION, HELLO]
    for msg in ann.messages:
        validate_server_message(msg)
    scores = [m for m in ann.messages if m["Type"] == "Score" and "Bags" in m]
    assert scores
    assert all(sum(m["TricksTaken"]) == 13 for m in scores)
    assert over["Score"] == scores[-1]["Score"]


def test_a_person_plays_spades_in_text_mode_to_the_end() -> None:
    h = Harness("spades-text")
    ann = h.connect()
    ann.take_text()
    ann.say("create spades")
    lines = ann.say("1")
    assert "── Round 1: you deal." in lines
    assert lines[-1] == "> your bid (nil, 1-13): bid N or nil"
    said: list[str] = []
    bids = 0
    for _ in range(3000):
        last = lines[-1]
        if any(line.startswith("Game over.") for line in lines):
            break
        if last.startswith("> your bid"):
            lines = ann.say("nil" if bids % 2 else "bid 3")
            bids += 1
        else:
            assert last.startswith("> play one of:"), last
            for position in range(1, 14):  # a refused card is said and asked again
                lines = ann.say(f"play {position}")
                if not lines[0].startswith("!"):
                    break
        said += lines
    assert any(line.startswith("Game over.") for line in said)
    assert any(line == "you bid nil" for line in said)
    assert any(line.startswith("Hand 1: taken/bid you ") for line in said)
