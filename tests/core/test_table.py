"""Whole games at a table through ``Hub`` (no sockets): people answer from ``Legal``,
AI seats fill the rest. Every stream goes through ``check_stream`` (schema, ``Legal``
only for the seat to act, ``Seq``, and the leak check); illegal answers get one Error,
the same prompt, and change nothing."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from hundred_server.core.fairness import reveal_message
from hundred_server.games.hundredandten.rules import seeded_deck
from hundred_server.games.kit.cards import ALL_CARDS
from tests.support import hub_harness
from tests.support.hub_harness import HELLO, QUESTION, Client, Harness

Message = dict[str, Any]
CARDS = [c.code for c in ALL_CARDS]


def person_vs_ai(h: Harness, option: int, name: str = "ann") -> Client:
    return h.create(name, Option=option)


def people_at_one_table(h: Harness, names: list[str], bots: int = 0) -> list[Client]:
    """``names[0]`` opens a table (option 4, or 5 for other sizes), the rest join."""
    seats = len(names) + bots
    first = h.json_client(names[0])
    first.send({"Type": "Hello", "Message": "create"})
    if seats == 4 and bots == 0:
        first.send({"Type": "Game", "Option": 4})
    else:
        first.send({"Type": "Game", "Option": 5, "Seats": seats, "Bots": bots})
    clients = [first]
    for name in names[1:]:
        client = h.json_client(name)
        client.send({"Type": "Hello", "Message": "join"})
        client.send({"Type": "Join", "Table": len(h.seeds)})
        clients.append(client)
    return clients


def hand_of(client: Client) -> list[str]:
    """What the client holds now, from what it was told."""
    hand: list[str] = []
    seat = None
    for msg in client.messages:
        if msg["Type"] == "Deal":
            hand, seat = list(msg["Hand"]), msg["Playerid"]
        elif msg["Type"] == "Discard" and "Hand" in msg:
            hand = list(msg["Hand"])
        elif msg["Type"] == "Play" and "PlayedCard" in msg and msg["Playerid"] == seat:
            hand.remove(msg["PlayedCard"])
    return hand


def assert_game_ended_well(client: Client, seat: int, seats: int) -> None:
    over = client.game_over()
    assert over is not None
    at = client.messages.index(over)
    table = client.last("Table")["Table"]
    reveal = reveal_message(table, "hundredandten", client.harness.table_seeds()[table])
    assert client.messages[at + 1 :] == [reveal, QUESTION, HELLO]
    assert over["Win"] is (over["Winner"] == seat)
    assert len(over["Score"]) == seats
    assert max(over["Score"]) >= 110
    assert over["Score"][over["Winner"]] >= 110
    last_round = client.messages[at - 2]
    assert last_round["Type"] == "Score"
    assert last_round["Score"] == over["Score"]
    winner_name = client.last("Deal")["Players"][over["Winner"]]
    assert client.messages[at - 1] == {
        "Type": "Message",
        "Message": f"Player {over['Winner']} ({winner_name}) wins the game with "
        f"{over['Score'][over['Winner']]}",
    }


# ----------------------------------------------------------------- whole games


@pytest.mark.parametrize(("option", "seats"), [(1, 4), (2, 3), (3, 2)])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_person_against_ai_plays_whole_games(option: int, seats: int, seed: int) -> None:
    h = Harness(f"vs-ai-{option}-{seed}")
    ann = person_vs_ai(h, option)
    hub_harness.play_until_over([ann], random.Random(seed))
    assert_game_ended_well(ann, 0, seats)
    assert hub_harness.check_stream(ann.messages, h.table_seeds()) == 1
    assert h.hub.lobby.tables == {}
    # Back in the lobby: a second game at once, on a new table.
    ann.send({"Type": "Hello", "Message": "create"})
    ann.send({"Type": "Game", "Option": option})
    hub_harness.play_until_over([ann], random.Random(seed + 100))
    assert hub_harness.check_stream(ann.messages, h.table_seeds()) == 2
    assert ann.messages[-2:] == [QUESTION, HELLO]
    # Each sitting told ann her seat and a new token, right after the table.
    seat_msgs = [m for m in ann.messages if m["Type"] == "Seat"]
    assert seat_msgs == [
        {"Type": "Seat", "Table": 1, "Playerid": 0, "Token": f"{1:032x}"},
        {"Type": "Seat", "Table": 2, "Playerid": 0, "Token": f"{2:032x}"},
    ]
    assert h.tokens == [f"{1:032x}", f"{2:032x}"]
    for msg in seat_msgs:
        before = ann.messages[ann.messages.index(msg) - 1]
        assert (before["Type"], before["Table"]) == ("Table", msg["Table"])


def test_seq_goes_up_by_one_per_prompt() -> None:
    h = Harness("seq")
    ann = person_vs_ai(h, 1)
    hub_harness.play_until_over([ann], random.Random(5))
    seqs = [m["Seq"] for m in ann.messages if hub_harness.is_prompt(m)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert all(
        "Legal" in m for m in ann.messages if hub_harness.is_prompt(m)
    )  # AI seats never wait


def test_four_people_at_one_table_finish_a_game() -> None:
    h = Harness("four")
    people = people_at_one_table(h, ["ann", "bob", "cy", "dee"])
    hub_harness.play_until_over(people, random.Random(7))
    for seat, person in enumerate(people):
        assert_game_ended_well(person, seat, 4)
        assert hub_harness.check_stream(person.messages, h.table_seeds()) == 1
    # Everyone saw the same public story: the prompts without Legal match.
    public = [
        [
            {k: v for k, v in m.items() if k != "Legal"}
            for m in p.messages
            if hub_harness.is_prompt(m)
        ]
        for p in people
    ]
    assert public[0] == public[1] == public[2] == public[3]
    assert sum(p.game_over()["Win"] for p in people) == 1  # type: ignore[index]


@pytest.mark.parametrize("seats", [2, 3])
def test_people_only_smaller_tables_finish(seats: int) -> None:
    h = Harness(f"small-{seats}")
    people = people_at_one_table(h, ["ann", "bob", "cy"][:seats])
    hub_harness.play_until_over(people, random.Random(seats))
    for seat, person in enumerate(people):
        assert_game_ended_well(person, seat, seats)
        hub_harness.check_stream(person.messages, h.table_seeds())


def test_an_answer_after_the_game_is_not_now() -> None:
    h = Harness("after")
    ann = person_vs_ai(h, 3)
    hub_harness.play_until_over([ann], random.Random(3))
    assert ann.send({"Type": "Play", "PlayedCard": "AS"}) == [
        {
            "Type": "Error",
            "Code": "not_now",
            "Message": "Play answers a game prompt; you are not in a game",
        },
        HELLO,
    ]


# -------------------------------------------------------------- illegal answers


def bad_answers(prompt: Message, hand: list[str], seats: int) -> list[tuple[Message, str, str]]:
    """(answer, Code, a text its Message must quote) for every wrong answer we can think
    of to ``prompt``; none of them may change anything."""
    kind, seat, seq = prompt["Type"], prompt["Playerid"], prompt["Seq"]
    base: Message = {"Type": kind, "Playerid": seat, "Seq": seq}
    out: list[tuple[Message, str, str]] = [
        ({**base, "Seq": seq - 1}, "stale_seq", f"Seq {seq - 1}"),
        ({**base, "Seq": seq + 7}, "stale_seq", f"Seq {seq + 7}"),
        ({**base, "Playerid": (seat + 1) % seats}, "not_your_seat", str((seat + 1) % seats)),
        ({"Type": "Hello", "Message": "create"}, "not_now", ""),
        ({"Type": "Game", "Option": 1}, "not_now", ""),
    ]
    not_held = next(c for c in CARDS if c not in hand)
    if kind == "Bid":
        out += [
            ({**base, "Bid": b}, "illegal_bid", str(b))
            for b in (15, 20, 25, 30, 60)
            if b not in prompt["Legal"]
        ]
        out += [
            ({**base, "Bid": 17}, "illegal_bid", "17"),
            ({**base, "Bid": "20"}, "bad_message", '"20"'),
            ({"Type": "Play", "PlayedCard": hand[0]}, "wrong_phase", ""),
            ({"Type": "Trump", "Trump": "H"}, "wrong_phase", ""),
            ({"Type": "Unpass"}, "not_pre_passed", ""),
        ]
    elif kind == "Trump":
        out += [
            (
                {**base, "Trump": "X"},
                "bad_suit",
                "'X'",
            ),  # the engine's card module quotes with repr
            ({**base, "Trump": 3}, "bad_message", "3"),
            ({"Type": "Bid", "Bid": 0}, "wrong_phase", ""),
        ]
    elif kind == "Discard":
        out += [
            ({**base, "Cards": [hand[0], hand[0]]}, "duplicate_card", hand[0]),
            ({**base, "Cards": [not_held]}, "not_in_hand", not_held),
            ({**base, "Cards": ["1X"]}, "bad_card", "1X"),
            ({**base, "Cards": hand[0]}, "bad_message", hand[0]),
            ({"Type": "Play", "PlayedCard": hand[0]}, "wrong_phase", ""),
        ]
    elif kind == "Play":
        out += [
            ({**base, "PlayedCard": not_held}, "not_in_hand", not_held),
            ({**base, "PlayedCard": "1X"}, "bad_card", "1X"),
            ({**base, "PlayedCard": 5}, "bad_message", "5"),
            ({**base, "PlayedCard": [hand[0]]}, "bad_message", hand[0]),
            ({"Type": "Discard", "Cards": []}, "wrong_phase", ""),
            ({"Type": "Bid", "Bid": 0}, "wrong_phase", ""),
        ]
        out += [
            ({**base, "PlayedCard": c}, "must_bleed", c) for c in hand if c not in prompt["Legal"]
        ]
    return out


def other_spelling(answer: Message) -> Message:
    """The same answer as the server also reads it: lower case, 10 for T, no Seq/Playerid."""
    answer = {k: v for k, v in answer.items() if k not in ("Seq", "Playerid")}
    if "PlayedCard" in answer:
        answer["PlayedCard"] = answer["PlayedCard"].lower().replace("t", "10")
    if "Cards" in answer:
        answer["Cards"] = [c.lower() for c in answer["Cards"]]
    if "Trump" in answer:
        answer["Trump"] = answer["Trump"].lower()
    return answer


def play_with_mistakes(
    prefix: str, option: int, seed: int, mistakes: bool
) -> tuple[Client, Counter[str]]:
    h = Harness(prefix)
    ann = person_vs_ai(h, option)
    seats = len(ann.last("Deal")["Players"])
    rng = random.Random(seed)
    codes: Counter[str] = Counter()
    while ann.game_over() is None:
        prompt = ann.pending()
        assert prompt is not None
        answer = hub_harness.answer_from_legal(prompt, rng)
        if mistakes:
            for bad, code, quoted in bad_answers(prompt, hand_of(ann), seats):
                replies = ann.send(bad)
                assert [m["Type"] for m in replies] == ["Error", prompt["Type"]], (bad, replies)
                assert replies[0]["Code"] == code, (bad, replies[0])
                assert quoted in replies[0]["Message"], (bad, replies[0])
                assert replies[1] == prompt, "the same prompt, the same Seq"
                codes[code] += 1
            answer = other_spelling(answer)
        ann.send(answer)
    hub_harness.check_stream(ann.messages, h.table_seeds())
    return ann, codes


@pytest.mark.parametrize("option", [1, 2, 3])
def test_illegal_answers_change_nothing(option: int) -> None:
    clean, _ = play_with_mistakes(f"mistakes-{option}", option, option, mistakes=False)
    messy, codes = play_with_mistakes(f"mistakes-{option}", option, option, mistakes=True)
    # Take away each Error and the prompt after it: the very same game remains.
    kept = []
    skip = False
    for msg in messy.messages:
        if msg["Type"] == "Error":
            skip = True
        elif skip:
            skip = False
        else:
            kept.append(msg)
    assert kept == clean.messages
    # One sitting, one Seat message (right after the table): the mistakes, Game and
    # Hello create among them, seat nobody again and hand out no token.
    told = {"Type": "Seat", "Table": 1, "Playerid": 0, "Token": f"{1:032x}"}
    for client in (clean, messy):
        assert [m for m in client.messages if m["Type"] == "Seat"] == [told]
        assert client.messages[client.messages.index(told) - 1]["Type"] == "Table"
    expected = {
        "stale_seq",
        "not_your_seat",
        "not_now",
        "illegal_bid",
        "bad_message",
        "wrong_phase",
        "not_pre_passed",
        "bad_suit",
        "duplicate_card",
        "not_in_hand",
        "bad_card",
    }
    assert expected <= set(codes)
    if option == 1:
        assert codes["must_bleed"] > 0


def test_must_bleed_is_exact() -> None:
    h = Harness("mistakes-1")
    ann = person_vs_ai(h, 1)
    rng = random.Random(1)
    while ann.game_over() is None:
        prompt = ann.pending()
        assert prompt is not None
        hand = hand_of(ann)
        banned = [c for c in hand if prompt["Type"] == "Play" and c not in prompt["Legal"]]
        if banned:
            assert ann.send({"Type": "Play", "PlayedCard": banned[0]}) == [
                {
                    "Type": "Error",
                    "Code": "must_bleed",
                    "Message": "a trump was led: seat 0 holds a trump and must play one, "
                    f"not {banned[0]}",
                },
                prompt,
            ]
            assert prompt["Lead"] == prompt["Trump"]
            return
        ann.send(hub_harness.answer_from_legal(prompt, rng))
    pytest.fail("no chance to break the bleeding rule in this game")


def test_a_bid_without_bid_is_a_pass() -> None:
    """protocol.md: "0 or no Bid = pass"."""
    h = Harness("no-bid")
    ann = person_vs_ai(h, 1)
    prompt = ann.pending()
    assert prompt is not None
    assert prompt["Type"] == "Bid"
    replies = ann.send({"Type": "Bid", "Seq": prompt["Seq"]})
    assert replies[0] == {"Type": "Bid", "Playerid": 0, "Bid": 0}


# ------------------------------------------------------- turns, pre-pass, unpass


def test_turns_pre_pass_and_unpass_between_people() -> None:
    h = Harness("prepass")
    ann, bob, cy = people_at_one_table(h, ["ann", "bob", "cy"])
    for person in (ann, bob, cy):
        person.take()
    prompt = {"Type": "Bid", "Playerid": 1, "Seq": 1}  # seat 0 deals, seat 1 opens

    def refused(client: Client, msg: Message, code: str) -> None:
        replies = client.send(msg)
        assert [m["Type"] for m in replies] == ["Error", "Bid"], replies
        assert replies[0]["Code"] == code, replies
        assert replies[1] == prompt, "the same prompt, as that seat sees it"
        assert [p.take() for p in (ann, bob, cy) if p is not client] == [[], []]

    refused(ann, {"Type": "Bid", "Bid": 20}, "not_your_turn")
    refused(ann, {"Type": "Bid", "Playerid": 0, "Bid": 15, "Seq": 1}, "not_your_turn")
    refused(ann, {"Type": "Play", "PlayedCard": "AS"}, "wrong_phase")
    refused(ann, {"Type": "Bid", "Playerid": 2, "Bid": 0}, "not_your_seat")
    refused(cy, {"Type": "Unpass"}, "not_pre_passed")

    # cy pre-passes: only cy is told, and nobody is prompted again.
    assert cy.send({"Type": "Bid", "Playerid": 2, "Bid": 0, "Seq": 1}) == [
        {"Type": "Bid", "Playerid": 2, "Bid": 0, "PrePass": True}
    ]
    assert ann.take() == bob.take() == []
    refused(cy, {"Type": "Bid", "Bid": 0}, "already_passed")
    # Unpass is echoed to cy only; then cy pre-passes again.
    assert cy.send({"Type": "Unpass", "Playerid": 2}) == [{"Type": "Unpass", "Playerid": 2}]
    assert ann.take() == bob.take() == []
    refused(cy, {"Type": "Unpass"}, "not_pre_passed")
    assert cy.send({"Type": "Bid", "Bid": 0}) == [
        {"Type": "Bid", "Playerid": 2, "Bid": 0, "PrePass": True}
    ]

    # bob bids: cy's pre-pass takes effect, announced to all with Auto; ann is asked.
    bob_legal = {**prompt, "Legal": [0, 15, 20, 25, 30, 60]}
    assert bob.pending() == bob_legal
    bob_got = bob.send({"Type": "Bid", "Bid": 15})
    told = [
        {"Type": "Bid", "Playerid": 1, "Bid": 15},
        {"Type": "Bid", "Playerid": 2, "Bid": 0, "Auto": True},
    ]
    asked = {"Type": "Bid", "Playerid": 0, "Seq": 2}
    assert bob_got == cy.take() == [*told, asked]
    # The dealer may hold the high bid: 15 is open to ann.
    assert ann.take() == [*told, {**asked, "Legal": [0, 15, 20, 25, 30, 60]}]

    # ann passes: bob has won the bid and names trump.
    ann_got = ann.send({"Type": "Bid", "Bid": 0})
    won = [
        {"Type": "Bid", "Playerid": 0, "Bid": 0},
        {"Type": "Message", "Message": "bob wins the bid at 15"},
    ]
    trump = {"Type": "Trump", "Playerid": 1, "Seq": 3}
    assert ann_got == cy.take() == [*won, trump]
    assert bob.take() == [*won, {**trump, "Legal": ["H", "D", "S", "C"]}]
    # Out of bidding, a pre-pass is out of place.
    replies = cy.send({"Type": "Bid", "Bid": 0})
    assert replies == [replies[0], trump]
    assert replies[0]["Code"] == "wrong_phase"

    hub_harness.play_until_over([ann, bob, cy], random.Random(11))
    for seat, person in enumerate((ann, bob, cy)):
        assert_game_ended_well(person, seat, 3)
        hub_harness.check_stream(person.messages, h.table_seeds())


def test_a_pre_pass_shows_as_auto_in_every_stream_later() -> None:
    """Many random games with random pre-passes: each pre-pass is acknowledged to its
    sender only, and announced to all with Auto when it takes effect (or unpassed)."""
    for game in range(3):
        h = Harness(f"auto-{game}")
        people = people_at_one_table(h, ["ann", "bob", "cy", "dee"])
        rng = random.Random(game)
        pre_passes = 0
        while any(p.game_over() is None for p in people):
            (actor, prompt), *_ = [(p, q) for p in people if (q := p.pending()) is not None]
            if prompt["Type"] == "Bid":
                for other in people:
                    if other is not actor and rng.random() < 0.3:
                        before = [len(p.messages) for p in people]
                        replies = other.send({"Type": "Bid", "Bid": 0})
                        if replies[0]["Type"] == "Error":
                            assert replies[0]["Code"] == "already_passed"
                        else:
                            assert replies == [
                                {
                                    "Type": "Bid",
                                    "Playerid": people.index(other),
                                    "Bid": 0,
                                    "PrePass": True,
                                }
                            ]
                            pre_passes += 1
                        assert [len(p.messages) for p in people if p is not other] == [
                            n for p, n in zip(people, before, strict=True) if p is not other
                        ]
            actor.send(hub_harness.answer_from_legal(prompt, rng))
        autos = sum(1 for m in people[0].messages if m.get("Auto"))
        for person in people:
            hub_harness.check_stream(person.messages, h.table_seeds())
            assert sum(1 for m in person.messages if m.get("Auto")) == autos
        assert pre_passes >= autos > 0


# ------------------------------------------------------------- leaving the table


@pytest.mark.parametrize("how", ["disconnect", "quit"])
def test_a_person_leaving_mid_game_hands_the_seat_to_an_ai(how: str) -> None:
    h = Harness(f"leave-{how}")
    ann, bob = people_at_one_table(h, ["ann", "bob"], bots=1)
    rng = random.Random(4)
    answers = 0
    while True:  # into the game a little, until it is bob's turn
        (actor, prompt), *_ = [(p, q) for p in (ann, bob) if (q := p.pending()) is not None]
        if actor is bob and answers >= 8:
            break
        actor.send(hub_harness.answer_from_legal(prompt, rng))
        answers += 1
    ann.take()
    if how == "quit":
        assert bob.send({"Type": "Hello", "Message": "quit"}) == [
            {"Type": "Message", "Message": "Ok, bye bye!"}
        ]
        assert bob.closed
        told = ann.take()
        # ann sits at 0, the AI seat follows her at 1, and bob joined at 2.
        assert told[0] == {"Type": "Message", "Message": "bob left; an AI plays seat 2 now"}
    else:
        bob.disconnect()
        # The seat waits for bob (and so does the table: it is his turn).
        assert ann.take() == [
            {
                "Type": "Message",
                "Message": "bob lost their connection; seat 2 waits 60 s for them to come back",
            }
        ]
        told = h.told_after(ann, 60)
        assert told[0] == {
            "Type": "Message",
            "Message": "bob did not come back in 60 s; an AI plays seat 2 until they do",
        }
    # The AI has played seat 2's turn at once (announced), and ann is asked next.
    assert told[1]["Type"] == prompt["Type"]
    assert told[1]["Playerid"] == 2
    assert "Seq" not in told[1]
    assert hub_harness.is_prompt(told[-1])
    assert told[-1]["Seq"] > prompt["Seq"]
    hub_harness.play_until_over([ann], rng)
    assert_game_ended_well(ann, 0, 3)
    hub_harness.check_stream(ann.messages, h.table_seeds())
    hub_harness.check_stream(bob.messages, h.table_seeds())
    assert h.hub.lobby.tables == {}
    assert h.stray == []


def test_the_last_person_quitting_ends_the_table() -> None:
    h = Harness("last")
    ann = person_vs_ai(h, 1)
    assert list(h.hub.lobby.tables) == [1]
    ann.send({"Type": "Hello", "Message": "quit"})
    assert h.hub.lobby.tables == {}
    assert h.hub.lobby.sessions == {}
    assert h.hub.lobby.tokens == {}


def test_the_last_person_losing_their_connection_is_waited_for_then_the_ai_finishes() -> None:
    h = Harness("last-lost")
    ann = person_vs_ai(h, 1)
    ann.disconnect()
    assert list(h.hub.lobby.tables) == [1]  # the seat waits for ann
    assert h.hub.lobby.timers.next_deadline() == h.now + 60
    h.advance(60)
    # No one to wait for: the AI plays ann's seat and the game runs to its end.
    assert h.hub.lobby.tables == {}
    assert h.hub.lobby.tokens == {}
    assert h.hub.lobby.timers.next_deadline() is None
    assert h.stray == []


# ---------------------------------------------------------------- the oracle itself


def a_real_stream() -> tuple[list[Message], dict[int, str]]:
    h = Harness("oracle")
    ann = person_vs_ai(h, 1)
    hub_harness.play_until_over([ann], random.Random(0))
    hub_harness.check_stream(ann.messages, h.table_seeds())
    return ann.messages, h.table_seeds()


def test_the_leak_check_catches_a_leak() -> None:
    messages, seeds = a_real_stream()
    deal_at = next(i for i, m in enumerate(messages) if m["Type"] == "Deal")
    others = [c.code for c in seeded_deck(seeds[1], 0)[5:20]]  # seats 1-3, round 1

    def broken(change: Any) -> list[Message]:
        stream = copy.deepcopy(messages)
        change(stream)
        return stream

    cases = [
        # Another seat's card in a message for people.
        lambda s: s.insert(deal_at + 1, {"Type": "Message", "Message": f"AI 1 holds {others[0]}"}),
        # Another seat's card as the card winning a trick not yet played.
        lambda s: s.insert(
            deal_at + 1,
            {"Type": "Trick", "Playerid": 1, "WinningCard": others[1], "Trick": 1},
        ),
        # The dealt hand swapped for another seat's.
        lambda s: s[deal_at].update(Hand=others[:5]),
        # Another seat's discard shown.
        lambda s: s.insert(
            deal_at + 1,
            {"Type": "Discard", "Playerid": 2, "Count": 1, "Cards": [others[6]], "Hand": []},
        ),
    ]
    for change in cases:
        with pytest.raises(hub_harness.StreamError):
            hub_harness.check_stream(broken(change), seeds, schema=False)


def test_the_stream_check_catches_legal_in_the_wrong_copy_and_seq_gaps() -> None:
    messages, seeds = a_real_stream()
    at = next(i for i, m in enumerate(messages) if m["Type"] == "Bid" and "Seq" in m)
    wrong_seat = copy.deepcopy(messages)
    wrong_seat[at]["Playerid"] = 1
    with pytest.raises(hub_harness.StreamError, match="Legal"):
        hub_harness.check_stream(wrong_seat, seeds, schema=False)
    gap = copy.deepcopy(messages)
    gap[at]["Seq"] = 2
    with pytest.raises(hub_harness.StreamError, match="Seq"):
        hub_harness.check_stream(gap, seeds, schema=False)
    again = copy.deepcopy(messages)
    again.insert(at + 1, dict(again[at]))
    with pytest.raises(hub_harness.StreamError, match="Seq"):
        hub_harness.check_stream(again, seeds, schema=False)
