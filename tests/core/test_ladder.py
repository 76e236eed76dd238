"""The ladder (core/ladder.py) through the hub: accounts queue, are paired by rating
into duplicate sets (one seed, the seats turned each game), rated, and queued again;
a lone account gets the anchors after its wait; guests are refused."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hundred_server.core.accounts import Account, hash_key
from hundred_server.core.botclock import BotClock
from hundred_server.core.ladder import ANCHOR_WAIT, BANK, MOVE_TIME
from hundred_server.core.names import fold
from hundred_server.core.ratings import GameOver, RatedStart, seat_entry
from hundred_server.core.sessions import Where
from hundred_server.games.records import dumps_line, replay
from hundred_server.store.sqlite import Store
from tests.support.hub_harness import Client, Harness, answer_from_legal
from tests.support.saving import SavingHarness, restarted

NAMES = ("a", "b", "c", "d")


class Book:
    """Accounts a-d (key: the letter 43 times), with the ratings ``mus``."""

    def __init__(self, mus: dict[str, float] | None = None) -> None:
        self.mus = mus or {}

    def by_key(self, key_hash: str) -> Account | None:
        names = {hash_key(n * 43): n for n in NAMES}
        name = names.get(key_hash)
        return None if name is None else Account(name, bot=True)

    def taken(self, name: str) -> str | None:
        return name if fold(name) in NAMES else None

    def rating(self, account: str, game: str) -> float | None:
        return self.mus.get(account)


def on_ladder(h: Harness, name: str, game: str) -> tuple[Client, list[Any]]:
    client = h.json_client()
    said = client.send({"Type": "Hello", "Key": name * 43, "Message": "ladder", "Game": game})
    return client, said


def play_all(clients: list[Client], rng: random.Random, h: Harness) -> None:
    for _ in range(20000):
        moved = False
        for client in clients:
            prompt = client.pending()
            if prompt is not None and "Legal" in prompt:
                client.send(answer_from_legal(prompt, rng))
                moved = True
        if not moved:
            return


def test_two_accounts_play_a_duplicate_set_and_are_queued_again() -> None:
    h = Harness("ladder")
    h.hub.lobby.sign_in.book = Book()
    a, said = on_ladder(h, "a", "hundredandten")
    assert said[0] == {
        "Type": "Message",
        "Message": "You are on the ladder for Hundred and Ten; waiting for a set",
    }
    b, _ = on_ladder(h, "b", "hundredandten")
    # Two-seat tables: paired at once.
    starts = [e for e in h.hub.lobby.rating_events if isinstance(e, RatedStart)]
    assert len(starts) == 1
    assert starts[0].seats == (seat_entry("a", "a", "bots"), seat_entry("b", "b", "bots"))
    play_all([a, b], random.Random(2), h)
    events = h.hub.lobby.rating_events
    starts = [e for e in events if isinstance(e, RatedStart)]
    overs = [e for e in events if isinstance(e, GameOver)]
    # The set's second game: the same seed, the seats turned; then a new set.
    assert [s.seats[0]["account"] for s in starts[:2]] == ["a", "b"]  # type: ignore[index]
    # The same deals: the tables' commitments to their seeds are the same.
    commits = [m["Hash"] for m in a.messages if m["Type"] == "Commit"]
    assert commits[0] == commits[1]
    assert len(overs) >= 2
    assert len(starts) > 2  # queued again: the next set started at once
    assert commits[2] != commits[0]


def test_a_lone_account_gets_the_anchors_after_its_wait_and_a_guest_is_refused() -> None:
    h = Harness("ladder-lone")
    h.hub.lobby.sign_in.book = Book({"c": 29.0})
    c, _ = on_ladder(h, "c", "whist")
    assert not [e for e in h.hub.lobby.rating_events if isinstance(e, RatedStart)]
    assert h.hub.lobby.timers.next_deadline() == h.now + ANCHOR_WAIT
    h.advance(ANCHOR_WAIT)
    starts = [e for e in h.hub.lobby.rating_events if isinstance(e, RatedStart)]
    assert len(starts) == 1
    # Its rating is nearer the strong anchor's (30) than the naive one's (20).
    strong = seat_entry(fold("strong"), "strong", "bots", anchor=True)
    assert starts[0].seats == (seat_entry("c", "c", "bots"), strong, strong, strong)
    guest = h.json_client("gus")
    refused = guest.send({"Type": "Hello", "Message": "ladder", "Game": "whist"})
    assert [m.get("Code") for m in refused if m["Type"] == "Error"] == ["not_rated"]
    del c


def test_quit_leaves_the_ladder_queue() -> None:
    h = Harness("ladder-quit")
    h.hub.lobby.sign_in.book = Book()
    d, _ = on_ladder(h, "d", "whist")
    said = d.send({"Type": "Hello", "Message": "create"})
    assert [m.get("Code") for m in said if m["Type"] == "Error"] == ["not_now"]
    said = d.send({"Type": "Hello", "Message": "quit"})
    assert said[0] == {"Type": "Message", "Message": "You left the ladder."}
    assert h.hub.lobby.ladder.queues["whist"] == []
    h.advance(ANCHOR_WAIT)
    assert not [e for e in h.hub.lobby.rating_events if isinstance(e, RatedStart)]


def test_the_fair_clock_charges_the_bank_and_strikes_out_on_the_third() -> None:
    clock = BotClock(2, move=5.0, bank=60.0)
    assert clock.deadline(0, 100.0) == 165.0
    clock.answered(0, 103.0)  # within the move's time: the bank is whole
    assert clock.banks == [60.0, 60.0]
    clock.deadline(0, 200.0)
    clock.answered(0, 215.0)  # 10 s over
    assert clock.banks == [50.0, 60.0]
    assert clock.deadline(0, 300.0) == 355.0
    assert [clock.strike(0), clock.out(0)] == [1, False]
    assert clock.deadline(0, 400.0) == 405.0  # the bank is empty now
    assert [clock.strike(0), clock.strike(0), clock.out(0), clock.out(1)] == [2, 3, True, False]


def test_a_silent_bot_on_the_ladder_is_struck_out_and_the_ai_plays_its_seat() -> None:
    h = Harness("ladder-clock")
    h.hub.lobby.sign_in.book = Book()
    c, _said = on_ladder(h, "c", "hundredandten")
    h.advance(ANCHOR_WAIT)
    told = [m.get("Message", "") for m in c.take() if m["Type"] == "Message"]
    assert "Ladder table 1: the fair clock, 5 s a move, a bank of 60 s, 3 strikes" in told
    assert c.pending() is not None
    seen: list[str] = []
    for _ in range(200):
        h.advance(MOVE_TIME + BANK)
        seen += [m["Message"] for m in c.take() if m["Type"] == "Message"]
        strikes = [m for m in seen if "ran out" in m]
        if len(strikes) >= 3:
            break
    assert strikes[:3] == [
        "c ran out of time; the server played for seat 0 (strike 1 of 3; its bank is empty)",
        "c ran out of time; the server played for seat 0 (strike 2 of 3; its bank is empty)",
        "c ran out of time; the server played for seat 0 (strike 3: the naive AI plays seat 0"
        " for the rest)",
    ]
    # The AI plays its seat to the end; the set's later games have nobody to play
    # them, so the set is over and the bot is queued again (anchors after the wait).
    for _ in range(10):
        h.advance(ANCHOR_WAIT)
    seen += [m["Message"] for m in c.take() if m["Type"] == "Message"]
    over = seen.index("The set is over; you are on the ladder again")
    assert seen.index(strikes[2]) < over  # the set's first game only: struck out
    assert seen[over + 1] == "Ladder table 2: the fair clock, 5 s a move, a bank of 60 s, 3 strikes"
    assert h.hub.lobby.sessions[c.conn].where is Where.PLAYING


def test_a_ladder_table_says_its_fair_clock_and_its_record_what_the_clock_did(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "clock.db")
    h = SavingHarness("ladder-record", store)
    h.hub.lobby.sign_in.book = Book()
    c, _ = on_ladder(h, "c", "hundredandten")
    h.advance(ANCHOR_WAIT)
    table = c.last("Table")
    assert table["FairClock"] == {"Move": 5.0, "Bank": 60.0, "Strikes": 3}
    assert list(table) == [  # FairClock before Watchers; other tables have none
        "Type", "Table", "Name", "Game", "Seats", "Free", "Players", "AI", "FairClock", "Watchers",
    ]  # fmt: skip
    h.advance(MOVE_TIME + 7)  # 7 s over the move's time: off the bank
    c.answer(random.Random(1))
    for _ in range(2):  # two strikes: the bank is empty after the first
        prompt = c.pending()
        assert prompt is not None
        h.advance(MOVE_TIME + 53 if prompt["TimeLeft"] > MOVE_TIME else MOVE_TIME)
    lines = store.game(1).lines  # type: ignore[union-attr]
    header = json.loads(lines[0])
    assert header["FairClock"] == {"Move": 5.0, "Bank": 60.0, "Strikes": 3}
    clock = [json.loads(line) for line in lines if '"Clock"' in line and "Record" not in line]
    assert clock == [
        {"Type": "Clock", "Playerid": 0, "Used": 7.0, "Bank": 53.0},
        {"Type": "Clock", "Playerid": 0, "Strike": 1},
        {"Type": "Clock", "Playerid": 0, "Strike": 2},
    ]
    # Each Clock line comes before the move it is about, and the record replays.
    first = lines.index(dumps_line(clock[0]))
    assert json.loads(lines[first + 1])["Playerid"] == 0
    assert [r for r in replay(lines) if r["Type"] == "Error"] == []
    # Restarted: the restored table has its clock, as the record left it.
    store, h = restarted(store, lambda: Store(tmp_path / "clock.db"), "ladder-record")
    restored = h.hub.lobby.tables.get(1)
    assert restored is not None
    assert restored.bot_clock is not None
    assert (restored.bot_clock.strikes, restored.bot_clock.banks) == ([2, 0], [0.0, 60.0])
    assert restored.info()["FairClock"] == {"Move": 5.0, "Bank": 60.0, "Strikes": 3}
    store.close()


def test_a_record_with_a_bad_clock_line_or_one_without_a_fair_clock_does_not_replay() -> None:
    head = {"Type": "Record", "Game": "hundredandten", "Version": 1, "Players": ["a", "b"]}
    clocked = {**head, "FairClock": {"Move": 5, "Bank": 60, "Strikes": 3}}
    strike = {"Type": "Clock", "Playerid": 1, "Strike": 1}
    assert list(replay([dumps_line(clocked), dumps_line(strike)])) == []
    (error,) = replay([dumps_line(head), dumps_line(strike)])
    assert (error["Line"], error["Code"]) == (2, "unknown_type")
    (error,) = replay([dumps_line(clocked), dumps_line({**strike, "Playerid": 2})])
    assert (error["Code"], error["Message"]) == ("bad_seat", "Playerid 2 is no seat of 2")
    bad = {**head, "FairClock": {"Move": 5, "Bank": -1, "Strikes": 3}}
    (error,) = replay([dumps_line(bad)])
    assert (error["Code"], error["Message"]) == (
        "bad_record",
        '"Bank" must be a number of at least 0, got -1',
    )
