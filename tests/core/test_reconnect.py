"""Seats and tokens, lost connections, taking a seat back, grace periods and turn
clocks (protocol.md, Seats and tokens; Turn clock), against a ``Hub`` with a clock the
tests move by hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hundred_server.core.fairness import commit_message, commitment
from hundred_server.core.lobby import Limits, hash_token
from hundred_server.core.table import Table
from hundred_server.games.hundredandten import wire as wire
from hundred_server.games.hundredandten.bots import NaiveBot
from hundred_server.games.hundredandten.rules import Game, Phase
from hundred_server.games.kit.cards import format_cards
from tests.core.test_table import people_at_one_table, person_vs_ai
from tests.support.hub_harness import (
    HELLO,
    QUESTION,
    Client,
    Harness,
    Message,
    answer_from_legal,
    check_stream,
    is_prompt,
)

LOST = "{} lost their connection; seat {} waits 60 s for them to come back"


def table_of(h: Harness, table_id: int = 1) -> Table:
    return h.hub.lobby.tables[table_id]


def game_of(h: Harness, table_id: int = 1) -> Game:
    game = table_of(h, table_id).game
    assert game is not None
    return game


def seat_message(client: Client) -> Message:
    return client.last("Seat")


def play_until(clients: list[Client], rng: random.Random, stop: object) -> None:
    """Answer from Legal (whoever is asked) until ``stop()`` is true."""
    assert callable(stop)
    while not stop():
        pending = [(c, p) for c in clients if not c.closed and (p := c.pending()) is not None]
        assert pending, "nobody is asked to answer"
        client, prompt = pending[0]
        client.send(answer_from_legal(prompt, rng))


def play_to_the_end(clients: list[Client], rng: random.Random) -> None:
    play_until(clients, rng, lambda: all(c.game_over() is not None for c in clients))


def mid_trick(h: Harness, seat: int) -> bool:
    """``seat`` is to play to a trick that has a card on it already."""
    game = h.hub.lobby.tables[1].game if 1 in h.hub.lobby.tables else None
    return (
        game is not None and game.phase is Phase.TRICKS and game.to_act == seat and bool(game.trick)
    )


# ------------------------------------------------------------------ the token


def test_the_seat_message_carries_the_token_the_hub_keeps_only_hashed() -> None:
    h = Harness("token")
    ann = person_vs_ai(h, 3)
    seat = seat_message(ann)
    assert seat == {"Type": "Seat", "Table": 1, "Playerid": 0, "Token": h.tokens[0]}
    assert list(h.hub.lobby.tokens) == [hash_token(h.tokens[0])]
    assert table_of(h).seats[0] is not None
    assert table_of(h).seats[0].token == hash_token(h.tokens[0])
    assert h.tokens[0] not in repr(vars(table_of(h)))


# ------------------------------------------------------------- taking it back


def test_reconnect_mid_trick_with_the_token_and_finish_the_game() -> None:
    h = Harness("mid-trick")
    rng = random.Random(7)
    ann, bob = people_at_one_table(h, ["ann", "bob"], bots=1)  # ann 0, AI 1, bob 2
    play_until([ann, bob], rng, lambda: mid_trick(h, 2))
    ann.take()
    game = game_of(h)
    prompt = bob.pending()
    assert prompt is not None
    hand, trick, scores = list(game.hands[2]), list(game.trick), list(game.scores)
    bob.disconnect()
    assert ann.take() == [{"Type": "Message", "Message": LOST.format("bob", 2)}]
    assert table_of(h).seq == prompt["Seq"]  # the table waits for bob

    again, told = h.reclaim(h.tokens[1], "bobby")
    view = game.view_for(2)
    assert told == [
        {"Type": "Seat", "Table": 1, "Playerid": 2, "Token": h.tokens[1]},
        table_of(h).info(),
        commit_message(1, "hundredandten", h.seeds[0]),  # as told when the game started
        {
            "Type": "Snapshot",
            "Table": 1,
            "Playerid": 2,
            "Players": ["ann", "AI 1", "bob"],
            "Round": game.round,
            "Dealer": game.dealer,
            "Phase": "tricks",
            "Hand": format_cards(hand),
            "Score": scores,
            "Bids": [{"Playerid": s, "Bid": a} for s, a in game.bids],
            "Bid": game.high_bid,
            "Bidder": game.bidder,
            "Trump": game.trump.value if game.trump else None,
            "Exchanged": list(game.exchanged),
            **({"Discarded": format_cards(view.discarded)} if view.discarded else {}),
            "Tricks": len(game.tricks),
            "Trick": [{"Playerid": s, "PlayedCard": c.code} for s, c in trick],
        },
        prompt,  # the very prompt bob was waiting on: same Seq, same Legal
    ]
    assert ann.take() == [{"Type": "Message", "Message": "bob is back at seat 2"}]
    assert h.hub.lobby.timers.next_deadline() is None  # nobody is awaited any more
    play_to_the_end([ann, again], rng)
    over, also = ann.game_over(), again.game_over()
    assert over is not None
    assert also is not None
    assert (also["Winner"], also["Score"]) == (over["Winner"], over["Score"])
    for client in (ann, bob, again):
        check_stream(client.messages, h.table_seeds())
    assert again.messages[-2:] == [QUESTION, HELLO]
    assert h.hub.lobby.tables == {}
    assert h.hub.lobby.tokens == {}
    assert h.stray == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), drops=st.lists(st.integers(1, 60), min_size=1, max_size=4))
def test_dropping_and_reclaiming_anywhere_keeps_every_stream_true(
    seed: int, drops: list[int]
) -> None:
    """Lose the connection after a random number of answers, take the seat back, again
    and again: the snapshot and every stream pass the oracle (no leak, Seq in order,
    scores that add up) and the game finishes."""
    h = Harness(f"drops-{seed}")
    rng = random.Random(seed)
    ann = person_vs_ai(h, 1 + seed % 3)
    token = h.tokens[0]
    streams = [ann]
    answers = 0
    for after in drops:
        target = answers + after
        while answers < target and ann.game_over() is None:
            ann.answer(rng)
            answers += 1
        if ann.game_over() is not None:
            break
        ann.disconnect()
        ann, told = h.reclaim(token)
        assert [m["Type"] for m in told[:4]] == ["Seat", "Table", "Commit", "Snapshot"]
        assert told[2] == streams[0].last("Commit")
        snapshot = told[3]
        game = game_of(h)
        assert snapshot["Hand"] == format_cards(game.hands[0])
        assert told[4:] == [wire.prompt(game, 0, table_of(h).seq)]
        streams.append(ann)
    play_to_the_end([ann], rng)
    for client in streams:
        check_stream(client.messages, h.table_seeds())
    assert h.hub.lobby.tables == {}


def test_after_the_grace_period_the_ai_plays_and_the_owner_can_still_come_back() -> None:
    h = Harness("grace")
    rng = random.Random(3)
    ann, bob = people_at_one_table(h, ["ann", "bob"])  # option 5: two seats, no AI
    play_until([ann, bob], rng, lambda: game_of(h).to_act == 1 and game_of(h).round == 1)
    ann.take()
    bob.disconnect()
    assert ann.take() == [{"Type": "Message", "Message": LOST.format("bob", 1)}]
    h.advance(30)
    assert ann.take() == []  # still waiting
    h.advance(30)
    told = ann.take()
    assert told[0] == {
        "Type": "Message",
        "Message": "bob did not come back in 60 s; an AI plays seat 1 until they do",
    }
    assert any(m.get("Playerid") == 1 and "Seq" not in m for m in told[1:])  # the AI played
    assert is_prompt(told[-1])
    # ann plays on against the AI for a while; then bob comes back.
    for _ in range(6):
        prompt = ann.pending()
        if prompt is None:
            break
        ann.send(answer_from_legal(prompt, rng))
    if ann.game_over() is not None:
        pytest.fail("the game ended before bob could come back; pick another seed")
    bob2, told = h.reclaim(h.tokens[1])
    assert told[0]["Type"] == "Seat"
    assert table_of(h).seats[1] is not None
    assert table_of(h).seats[1].bot is None
    assert ann.take() == [{"Type": "Message", "Message": "bob is back at seat 1"}]
    play_to_the_end([ann, bob2], rng)
    check_stream(bob2.messages, h.table_seeds())
    check_stream(ann.messages, h.table_seeds())


def test_a_seat_held_by_an_open_connection_moves_to_the_new_one() -> None:
    h = Harness("half-open")
    rng = random.Random(5)
    ann = person_vs_ai(h, 2)
    play_until([ann], rng, lambda: mid_trick(h, 0))
    prompt = ann.pending()
    assert prompt is not None
    ann2, told = h.reclaim(h.tokens[0])
    assert told[-1] == prompt
    assert ann.take() == [
        {"Type": "Message", "Message": "your seat 0 at table 1 was taken back with its token"},
        QUESTION,
        HELLO,
    ]
    # The old connection acts for nobody now.
    card = prompt["Legal"][0]
    assert ann.send({"Type": "Play", "PlayedCard": card}) == [
        {
            "Type": "Error",
            "Code": "not_now",
            "Message": "Play answers a game prompt; you are not in a game",
        },
        HELLO,
    ]
    assert table_of(h).seq == prompt["Seq"]
    play_to_the_end([ann2], rng)


# ------------------------------------------------------------------ impostors


def test_another_connection_cannot_act_for_a_seat() -> None:
    h = Harness("impostor")
    rng = random.Random(11)
    ann, bob = people_at_one_table(h, ["ann", "bob"], bots=1)
    play_until([ann, bob], rng, lambda: game_of(h).to_act == 0 and game_of(h).phase is Phase.TRICKS)
    game = game_of(h)
    prompt = ann.pending()
    assert prompt is not None
    before = (table_of(h).seq, [list(x) for x in game.hands], list(game.history))
    answer = answer_from_legal(prompt, rng)
    # bob, seated at the same table, names ann's seat: refused, and bob's own prompt again.
    told = bob.send(answer)
    assert told[0] == {
        "Type": "Error",
        "Code": "not_your_seat",
        "Message": "you play seat 2, not Playerid 0",
    }
    assert told[1:] == [wire.prompt(game, 2, table_of(h).seq)]
    # bob without Playerid: read as bob's own move, and it is not his turn.
    told = bob.send({k: v for k, v in answer.items() if k != "Playerid"})
    assert told[0]["Type"] == "Error"
    assert told[0]["Code"] == "not_your_turn"
    # A connection in the lobby, with or without the Playerid.
    eve = h.json_client("eve")
    for line in (answer, {k: v for k, v in answer.items() if k != "Playerid"}):
        assert eve.send(line)[0]["Code"] == "not_now"
    # Guessed, malformed and used-up tokens.
    wrong = "f" * 32
    assert eve.send({"Type": "Hello", "Token": wrong}) == [
        {
            "Type": "Error",
            "Code": "bad_token",
            "Message": f'no game under way has a seat for token "{wrong}" (it may be over)',
        },
        HELLO,
    ]
    for bad, code in [
        *[(t, "bad_token") for t in ("", "abc", "g" * 32, None, h.tokens[0] + "0")],
        *[(t, "bad_message") for t in (12, ["x"], {"Token": h.tokens[0]})],
    ]:
        told = eve.send({"Type": "Hello", "Token": bad})
        assert told[0]["Code"] == code, bad
        assert told[1:] == [HELLO]
    # A token from a connection that is at a table.
    assert bob.send({"Type": "Hello", "Token": h.tokens[0]})[0]["Code"] == "not_now"
    assert (table_of(h).seq, [list(x) for x in game.hands], list(game.history)) == before
    # ann's own answer is still taken.
    assert ann.send(answer)[0].get("Code") is None


def test_a_token_of_a_finished_game_takes_nothing() -> None:
    h = Harness("finished")
    ann = person_vs_ai(h, 3)
    play_to_the_end([ann], random.Random(1))
    eve = h.json_client("eve")
    assert eve.send({"Type": "Hello", "Token": h.tokens[0]})[0]["Code"] == "bad_token"


def test_a_waiting_table_frees_a_lost_seat_and_its_token() -> None:
    h = Harness("waiting")
    h.create("ann", Option=4)
    bob = h.json_client("bob")
    bob.send({"Type": "Join", "Table": 1})
    bob.disconnect()
    assert table_of(h).names() == ["ann", None, None, None]
    assert list(h.hub.lobby.tokens) == [hash_token(h.tokens[0])]
    eve = h.json_client("eve")
    assert eve.send({"Type": "Hello", "Token": h.tokens[1]})[0]["Code"] == "bad_token"


def test_text_mode_takes_a_seat_back_with_the_token_command() -> None:
    h = Harness("text")
    rng = random.Random(2)
    ann = person_vs_ai(h, 3)
    play_until([ann], rng, lambda: mid_trick(h, 0))
    ann.disconnect()
    nc = h.connect()
    nc.take_text()
    shown = nc.say(f"token {h.tokens[0]}")
    assert shown[0] == (
        f"You sit at table 1. If your connection drops, or you leave, come back and type: "
        f"token {h.tokens[0]}"
    )
    assert shown[1] == "Table 1: you, AI 1 (naive AI)"
    digest = commitment("hundredandten", h.seeds[0])
    assert shown[2] == (
        f"Deck commitment for table 1: {digest} (the seed is revealed when the game ends)"
    )
    assert shown[3].startswith("── Back at your seat, round ")
    assert shown[4].startswith("Your hand: ")
    assert any(line.startswith("This trick so far: ") for line in shown)
    assert shown[-1].startswith("> play one of: ")


# ------------------------------------------------------------------ turn clock


def clock_table(h: Harness, clock: int) -> Client:
    return h.create("ann", Option=5, Seats=2, Bots=1, Clock=clock)


def test_prompts_carry_the_time_left_and_an_error_does_not_reset_it() -> None:
    h = Harness("clock")
    ann = clock_table(h, 30)
    prompt = ann.pending()
    assert prompt is not None
    assert prompt["TimeLeft"] == 30.0
    h.advance(12.34)
    told = ann.send({"Type": "Bid", "Bid": 17})
    assert told[0]["Code"] == "illegal_bid"
    assert told[1] == {**prompt, "TimeLeft": 17.7}


def test_when_the_clock_runs_out_the_naive_move_is_played_and_said() -> None:
    h = Harness("timeout")
    ann = clock_table(h, 30)
    rng = random.Random(8)
    for _ in range(5):  # a few moves in, each on a fresh clock
        prompt = ann.pending()
        assert prompt is not None
        assert prompt["TimeLeft"] == 30.0
        h.advance(10)
        ann.send(answer_from_legal(prompt, rng))
    game = game_of(h)
    prompt = ann.pending()
    assert prompt is not None
    expected = NaiveBot().act(game.view_for(0))
    seq, played = table_of(h).seq, len(game.history)
    told = h.told_after(ann, 30)
    assert told[0] == {
        "Type": "Message",
        "Message": "ann ran out of time; the server played for seat 0",
    }
    assert game.history[played] == (0, expected)
    assert table_of(h).seq > seq
    assert is_prompt(told[-1]) or ann.game_over() is not None
    check_stream(ann.messages, h.table_seeds())


def test_the_server_wide_turn_timeout_applies_to_every_table() -> None:
    h = Harness("wide")
    h.hub.lobby.limits = Limits(turn_timeout=5.0)
    ann = person_vs_ai(h, 1)
    prompt = ann.pending()
    assert prompt is not None
    assert prompt["TimeLeft"] == 5.0
    assert h.hub.lobby.timers.next_deadline() == h.now + 5.0
    # A table that asks for no clock has none.
    bob = h.create("bob", Option=5, Seats=2, Bots=1, Clock=0)
    prompt = bob.pending()
    assert prompt is not None
    assert "TimeLeft" not in prompt


def test_a_game_with_nobody_answering_ends_by_the_clock_alone() -> None:
    h = Harness("alone")
    ann = clock_table(h, 10)
    for _ in range(2000):
        if ann.game_over() is not None:
            break
        h.advance(10)
    over = ann.game_over()
    assert over is not None
    check_stream(ann.messages, h.table_seeds())
    assert h.hub.lobby.timers.next_deadline() is None


@pytest.mark.parametrize("clock", [-1, 3601, "30", 2.5])
def test_a_bad_clock_is_refused(clock: object) -> None:
    h = Harness("bad-clock")
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create"})
    told = ann.send({"Type": "Game", "Option": 5, "Seats": 2, "Bots": 1, "Clock": clock})
    assert told[0]["Type"] == "Error"
    assert told[0]["Code"] in ("bad_option", "bad_message")
    assert h.hub.lobby.tables == {}
