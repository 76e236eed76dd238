"""A table whose AI searches (the strong AI) plays one AI move a step (table.py): the
server answers its other connections between two such moves, however many AI moves
are due in a row; the naive AI plays on to the next person at once."""

from __future__ import annotations

import random

from hundred_server.core.table import TableState
from tests.support.hub_harness import Client, Harness, answer_from_legal, check_stream


def two_seat_hundert(h: Harness) -> Client:
    """ann at a 2-seat Hundert table against one AI (a table of your choice), after
    her first move."""
    ann = h.create("ann", "hundert", Option=7, Seats=2, Bots=1)
    prompt = ann.pending()
    assert prompt is not None
    ann.send(answer_from_legal(prompt, random.Random(1)))
    return ann


def test_the_strong_ai_plays_out_a_table_one_move_a_tick() -> None:
    h = Harness("pace", ai="strong")
    ann = two_seat_hundert(h)
    table = h.hub.lobby.tables[1]
    game = table.game
    assert game is not None
    ann.disconnect()
    h.advance(60)  # her grace is over: the AI plays both seats from now on
    steps = 0
    while ann.game_over() is None and table.state is TableState.PLAYING:
        before = len(game.history)
        assert h.hub.lobby.timers.next_deadline() == h.now  # the next AI move is due at once
        h.advance(0)
        steps += 1
        assert 1 <= len(game.history) - before <= 2  # one move (and a deal with it)
        assert steps < 1000
    assert game.is_over
    assert steps > 10
    assert h.hub.lobby.timers.next_deadline() is None


def test_another_connection_is_answered_between_two_strong_ai_moves() -> None:
    h = Harness("pace", ai="strong")
    ann = two_seat_hundert(h)
    ann.disconnect()
    h.advance(60)
    bob = h.json_client("bob")
    game = h.hub.lobby.tables[1].game
    assert game is not None
    played = len(game.history)
    assert bob.send({"Type": "Hello", "Message": "join"})[0]["Type"] == "Tables"
    assert len(game.history) == played  # bob's line played no AI move
    h.advance(0)
    assert len(game.history) > played


def test_the_naive_ai_plays_on_to_the_next_person_at_once() -> None:
    h = Harness("pace", ai="naive")
    ann = two_seat_hundert(h)
    table = h.hub.lobby.tables[1]
    ann.disconnect()
    h.advance(60)
    assert table.state is TableState.OVER  # the whole game, in the one tick
    assert h.hub.lobby.timers.next_deadline() is None


def test_a_person_against_strong_ai_is_prompted_once_the_ai_has_moved() -> None:
    """Four seats, three strong AI (Hundert, option 3): after each of ann's moves the
    AI seats move one a tick, and ann's prompt comes when it is her turn again; the
    stream she gets holds every rule of the protocol."""
    h = Harness("pace", ai="strong")
    ann = h.create("ann", "hundert", Option=3)
    rng = random.Random(2)
    for _ in range(2000):
        if ann.game_over() is not None:
            break
        prompt = ann.pending()
        if prompt is None:
            assert h.hub.lobby.timers.next_deadline() == h.now
            h.advance(0)
            continue
        ann.send(answer_from_legal(prompt, rng))
    assert ann.game_over() is not None
    check_stream(ann.messages, h.table_seeds())


def test_a_seat_taken_back_while_its_ai_move_is_due_is_prompted_not_played() -> None:
    """bob and ann at a 2-seat table of the strong AI; bob is away and the AI plays
    his seat. When he takes it back while the AI's move for it waits for the next
    tick, he is prompted (a fresh Seq, ann's copy too) and the tick plays nothing."""
    h = Harness("pace", ai="strong")
    ann = h.create("ann", "hundert", Option=7, Seats=3, Bots=1)
    bob = h.json_client("bob")
    bob.send({"Type": "Hello", "Message": "join"})
    bob.send({"Type": "Join", "Table": 1})
    table = h.hub.lobby.tables[1]
    game = table.game
    assert game is not None
    rng = random.Random(5)
    bob_seat = table.seat_of(bob.conn)
    assert bob_seat is not None
    bob.disconnect()
    h.advance(60)
    for _ in range(200):  # play on until the AI's move for bob's seat is the one due
        if table.ai_due is not None and game.to_act == bob_seat:
            break
        prompt = ann.pending()
        if prompt is not None:
            ann.send(answer_from_legal(prompt, rng))
        else:
            h.advance(0)
    assert table.ai_due is not None
    assert game.to_act == bob_seat
    played = len(game.history)
    back = h.json_client()
    told = back.send({"Type": "Hello", "Token": h.tokens[1]})
    prompt = told[-1]
    assert prompt["Playerid"] == bob_seat
    assert "Legal" in prompt
    assert table.ai_due is None
    assert h.hub.lobby.timers.next_deadline() is None  # nothing is due: bob is to answer
    h.advance(0)
    assert len(game.history) == played
    assert back.send(answer_from_legal(prompt, rng))[0].get("Type") != "Error"
    assert len(game.history) > played
