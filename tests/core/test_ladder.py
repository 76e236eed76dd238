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
from hundred_server.core.ladder import (
    ANCHOR_WAIT,
    BANK,
    MOVE_TIME,
    SET_OVER_AFTER,
    seed_kept,
    set_over,
)
from hundred_server.core.names import fold
from hundred_server.core.ratings import START_MU, GameOver, RatedStart, rate_game, seat_entry
from hundred_server.core.sessions import Where
from hundred_server.games.records import dumps_line, replay
from hundred_server.store.sqlite import Store
from tests.support.hub_harness import Client, Harness, answer_from_legal
from tests.support.saving import SavingHarness, restarted

NAMES = ("a", "b", "c", "d")


class Book:
    """Accounts a-d (key: the letter 43 times); no ratings: the ladder keeps its own."""

    def by_key(self, key_hash: str) -> Account | None:
        names = {hash_key(n * 43): n for n in NAMES}
        name = names.get(key_hash)
        return None if name is None else Account(name, bot=True)

    def taken(self, name: str) -> str | None:
        return name if fold(name) in NAMES else None


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
    h.hub.lobby.sign_in.book = Book()  # the ratings are the ladder's own:
    h.hub.lobby.ladder.rated([("c", "whist", 29.0), ("c", "rook", 10.0)])  # kept here
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
    # The AI plays its seat to the end; the set's later game has nobody to play it,
    # so it is rated at once as a forfeit (its own id, 2), the set is over and the bot
    # is queued again (anchors after the wait).
    for _ in range(10):
        h.advance(ANCHOR_WAIT)
    seen += [m["Message"] for m in c.take() if m["Type"] == "Message"]
    over = seen.index("The set is over; you are on the ladder again")
    assert seen.index(strikes[2]) < over  # the set's first game only: struck out
    assert seen[over + 1] == "Ladder table 3: the fair clock, 5 s a move, a bank of 60 s, 3 strikes"
    assert h.hub.lobby.sessions[c.conn].where is Where.PLAYING
    # Both games of the set are lost by c, ranked last: the one of its last strike,
    # whatever its score, and the forfeit of the one nobody played.
    naive = seat_entry(fold("naive"), "naive", "bots", anchor=True)
    events = h.hub.lobby.rating_events[:4]
    assert events[0] == RatedStart(1, "hundredandten", (seat_entry("c", "c", "bots"), naive), None)
    assert isinstance(events[1], GameOver)
    assert (events[1].table_id, events[1].result["Struck"]) == (1, [0])
    assert events[2:] == [
        RatedStart(2, "hundredandten", (naive, seat_entry("c", "c", "bots")), None),
        GameOver(
            2,
            {
                "Winner": 0,
                "Score": [0, 0],
                "Struck": [1],
                "Text": "forfeited: struck out of the set by the fair clock",
            },
        ),
    ]
    for event in events[1::2]:
        assert isinstance(event, GameOver)
        start = events[events.index(event) - 1]
        assert isinstance(start, RatedStart)
        after = rate_game("hundredandten", start.seats, None, event.result, {})
        assert after["c"].wins == 0
        assert after["c"].mu < START_MU  # lost to the anchor, which it began level with


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


def test_a_struck_seat_is_ranked_last_whatever_the_score_and_its_partner_is_not() -> None:
    seats = [seat_entry(n, n, "bots") for n in ("a", "b", "c", "d")]
    result = {"Winner": 0, "Score": [300, 100], "Struck": [0]}  # a's side won
    before: dict[str, Any] = {}
    fair = rate_game("spades", seats, [0, 1, 0, 1], {"Winner": 0, "Score": [300, 100]}, before)
    after = rate_game("spades", seats, [0, 1, 0, 1], result, before)
    assert fair["a"].wins == 1
    assert after["a"].wins == 0  # struck: not a winner
    assert after["c"].wins == 1  # its partner won, and is rated as the winning side
    assert after["a"].mu < START_MU < fair["a"].mu  # a loss where the score says a win
    assert after["b"].mu == after["d"].mu < START_MU < after["c"].mu


def play_until(clients: list[Client], rng: random.Random, done: Any) -> None:
    for _ in range(5000):
        if done():
            return
        for client in clients:
            prompt = client.pending()
            if prompt is not None:
                client.send(answer_from_legal(prompt, rng))
    raise AssertionError("not done in 5000 rounds of answers")


def overs(h: Harness) -> dict[int, dict[str, Any]]:
    return {e.table_id: e.result for e in h.hub.lobby.rating_events if isinstance(e, GameOver)}


def test_a_set_goes_on_after_a_restart_its_bots_back_by_key_and_token(tmp_path: Path) -> None:
    path = tmp_path / "sets.db"
    store = Store(path)
    h = SavingHarness("ladder-restart", store)
    h.hub.lobby.sign_in.book = Book()
    a, _ = on_ladder(h, "a", "hundredandten")
    b, _ = on_ladder(h, "b", "hundredandten")
    rng = random.Random(5)
    for _ in range(3):
        for client in (a, b):
            if client.pending() is not None:
                client.answer(rng)
    tokens = {"a": a.last("Seat")["Token"], "b": b.last("Seat")["Token"]}
    commit = a.last("Commit")["Hash"]
    store, h = restarted(store, lambda: Store(path), "ladder-restart")  # killed mid-game
    h.hub.lobby.sign_in.book = Book()
    lobby = h.hub.lobby
    table = lobby.tables.get(1)
    assert table is not None
    assert lobby.ladder.is_ladder(table)
    assert table.rated
    back = []
    for name in ("a", "b"):  # as clients/bot.py comes back: its key and its seat's token
        client = h.json_client()
        client.send({"Type": "Hello", "Key": name * 43, "Token": tokens[name]})
        back.append(client)
    play_until(back, rng, lambda: 2 in overs(h))
    # The set's second game: the same seed, the seats turned, rated; its record says
    # the set as it stands.
    # The restored game's rated start comes again from its record (the writer may not
    # have had it before the kill; the store keeps it once), then the second game's.
    starts = [e for e in lobby.rating_events if isinstance(e, RatedStart)]
    a_b = (seat_entry("a", "a", "bots"), seat_entry("b", "b", "bots"))
    assert starts[:2] == [
        RatedStart(1, "hundredandten", a_b, None),
        RatedStart(2, "hundredandten", a_b[::-1], None),
    ]
    assert [m["Hash"] for m in back[0].messages if m["Type"] == "Commit"][-1] == commit
    header = json.loads(store.game(2).lines[0])  # type: ignore[union-attr]
    assert header["Ladder"] == {
        "Entrants": [{"Account": "a", "Bot": True}, {"Account": "b", "Bot": True}],
        "Round": 1,
        "Struck": [],
        "Tables": [1],
    }
    assert sorted(overs(h)) == [1, 2]  # the game that was under way is rated too
    store.close()


def test_a_struck_entrant_loses_the_sets_later_games_the_ai_in_its_seat_unrated() -> None:
    h = Harness("ladder-struck")
    h.hub.lobby.sign_in.book = Book()
    a, _ = on_ladder(h, "a", "hundredandten")
    b, _ = on_ladder(h, "b", "hundredandten")
    rng = random.Random(3)
    for _ in range(400):  # a says nothing: three strikes; b plays
        if 1 in overs(h):
            break
        if b.pending() is not None:
            b.answer(rng)
        else:
            h.advance(MOVE_TIME + BANK)
    assert overs(h)[1]["Struck"] == [0]
    # The set's second game: b against the naive AI in a's seat, which is rated as a's.
    start = next(
        e for e in h.hub.lobby.rating_events if isinstance(e, RatedStart) and e.table_id == 2
    )
    assert start.seats == (seat_entry("b", "b", "bots"), seat_entry("a", "a", "bots"))
    table = h.hub.lobby.tables.get(2)
    assert table is not None
    assert table.names() == ["b", "AI 1"]
    assert a.pending() is None  # a plays no more of the set
    play_until([b], rng, lambda: 2 in overs(h))
    assert overs(h)[2]["Struck"] == [1]
    assert "The set is over; you are on the ladder again" in [m.get("Message") for m in a.take()]


def test_a_set_keeps_its_seed_until_its_last_game_and_is_over_when_the_store_says_so() -> None:
    entrants = [{"Account": "a", "Bot": True}, {"Anchor": "naive"}]
    first = {"Type": "Record", "Ladder": {"Entrants": entrants, "Round": 0}}
    last = {"Type": "Record", "Ladder": {"Entrants": entrants, "Round": 1}}
    assert seed_kept(first)
    assert not seed_kept(last)
    assert not seed_kept({"Type": "Record"})  # no ladder: revealed as ever
    assert not seed_kept({"Ladder": {"Entrants": "ab", "Round": 0}})  # not a set's header
    now = 1_000_000.0
    # The second game under way, or not yet in the store: not over.
    assert not set_over([(first, "over", now - 5), (last, "playing", None)], now)
    assert not set_over([(first, "over", now - 5)], now)
    assert not set_over([], now)
    # Its last game ended (or was abandoned): over at once.
    assert set_over([(first, "over", now - 5), (last, "abandoned", now - 1)], now)
    # No last game ever came (the set ended early): over once the wait is long past.
    assert not set_over([(first, "over", now - SET_OVER_AFTER + 1)], now)
    assert set_over([(first, "over", now - SET_OVER_AFTER)], now)
