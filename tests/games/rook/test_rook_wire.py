"""Rook on the wire (games/rook/wire.py) and at the hub: answers, prompts, what each
seat is told, snapshots, the schema for every message of random games, THE FINISHED
TRICK CHECK (no card of a finished trick in any message once the next trick starts,
over every seat's stream at tables of people only), text mode and a JSON client
finishing a game together, and the bot against random play."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from hundred_server import games
from hundred_server.games.rook.bots import RookBot
from hundred_server.games.rook.cards import ROOK_DECK, Colour, RookCard
from hundred_server.games.rook.rules import (
    BID_ACTIONS,
    MOON,
    Game,
    Phase,
    Play,
    Setup,
    View,
    seeded_deck,
)
from hundred_server.games.rook.text import TEXT
from hundred_server.games.rook.wire import SPEC, prompt, snapshot, tell
from hundred_server.protocol.codecs.text import TextCodec
from hundred_server.protocol.errors import HundredError
from hundred_server.protocol.schema import validate_server_message
from tests.support import playing
from tests.support.hub_harness import QUESTION, Client, Harness, answer_from_legal, play_command
from tests.support.rook_decks import FOUR_COLOURS, NAMES

parse_action = SPEC.parse_action

R = RookCard.parse
Message = dict[str, Any]
CODES = frozenset(c.code for c in ROOK_DECK)
CODE_WORD = re.compile(r"\b(?:[BGRY](?:1[0-4]|[15-9])|ROOK)\b")
NAME_TO_CODE = {c.name: c.code for c in ROOK_DECK}


def four_colours() -> Game:
    game = Game(NAMES[:4])
    game.deal(FOUR_COLOURS)
    return game


def everyone(game: Game, events: list[Any]) -> dict[int, list[Message]]:
    return tell(events, range(game.num_players), game.players)


# ------------------------------------------------------------------ answers


def test_parse_bids() -> None:
    assert parse_action({"Type": "Bid"}) == BID_ACTIONS[0]
    assert parse_action({"Type": "Bid", "Bid": 0}) == BID_ACTIONS[0]
    assert parse_action({"Type": "Bid", "Bid": 85}) == BID_ACTIONS[85]
    for moon in (
        {"Moon": True},
        {"Bid": "moon"},
        {"Bid": " MOON "},
        {"Moon": True, "Bid": 85},
        {"Moon": True, "Bid": 83},
    ):
        assert parse_action({"Type": "Bid", **moon}) == BID_ACTIONS[MOON], moon
    assert parse_action({"Type": "Bid", "Moon": False, "Bid": 90}) == BID_ACTIONS[90]
    for bad, code in (
        (83, "illegal_bid"),
        (75, "illegal_bid"),
        (205, "illegal_bid"),
        (400, "illegal_bid"),
        ("x", "bad_message"),
        (True, "bad_message"),
        (85.0, "bad_message"),
    ):
        with pytest.raises(HundredError) as caught:
            parse_action({"Type": "Bid", "Bid": bad})
        assert caught.value.code == code, bad
    with pytest.raises(HundredError) as caught:
        parse_action({"Type": "Bid", "Moon": "yes"})
    assert caught.value.code == "bad_message"


def test_parse_setups_and_plays() -> None:
    answer = {"Type": "Setup", "Discard": ["b5", " G5 ", "rook"], "Trump": "red"}
    assert parse_action(answer) == Setup((R("B5"), R("G5"), R("ROOK")), Colour.RED, ())
    full = {**answer, "Trump": "Y", "Partners": ["G14", "y1"]}
    assert parse_action(full) == Setup(
        (R("B5"), R("G5"), R("ROOK")), Colour.YELLOW, (R("G14"), R("Y1"))
    )
    for bad, code in (
        ({"Type": "Setup", "Trump": "R"}, "bad_message"),
        ({"Type": "Setup", "Discard": "B5", "Trump": "R"}, "bad_message"),
        ({"Type": "Setup", "Discard": ["B4"], "Trump": "R"}, "bad_card"),
        ({"Type": "Setup", "Discard": [5], "Trump": "R"}, "bad_card"),
        ({"Type": "Setup", "Discard": ["B5"]}, "bad_message"),
        ({"Type": "Setup", "Discard": ["B5"], "Trump": "H"}, "bad_suit"),
        ({"Type": "Setup", "Discard": ["B5"], "Trump": 3}, "bad_suit"),
        ({"Type": "Setup", "Discard": ["B5"], "Trump": "R", "Partners": "G1"}, "bad_message"),
        ({"Type": "Play", "PlayedCard": "R4"}, "bad_card"),
        ({"Type": "Play", "PlayedCard": 14}, "bad_card"),
        ({"Type": "Play"}, "bad_message"),
        ({"Type": "Trump", "Trump": "R"}, "unknown_type"),
    ):
        with pytest.raises(HundredError) as caught:
            parse_action(bad)
        assert caught.value.code == code, bad
    assert parse_action({"Type": "Play", "PlayedCard": "r14"}) == Play(R("R14"))
    assert SPEC.answer_types == frozenset({"Bid", "Setup", "Play"})


# ------------------------------------------------------------------ prompts and telling


def test_bid_and_setup_prompts() -> None:
    game = four_colours()
    legal = [0, *range(80, 205, 5), "moon"]
    assert prompt(game, 1, 3) == {"Type": "Bid", "Playerid": 1, "Seq": 3, "Legal": legal}
    assert prompt(game, 2, 3) == {"Type": "Bid", "Playerid": 1, "Seq": 3}
    assert prompt(game, None, 3) == {"Type": "Bid", "Playerid": 1, "Seq": 3}
    game.apply(1, BID_ACTIONS[190])
    assert prompt(game, 2, 4) == {
        "Type": "Bid",
        "Playerid": 2,
        "Seq": 4,
        "Legal": [0, 195, 200, "moon"],
    }
    game.apply(2, BID_ACTIONS[0])
    events = game.apply(3, BID_ACTIONS[MOON])
    told = everyone(game, events)
    assert told[0][0] == {"Type": "Bid", "Playerid": 3, "Moon": True}
    assert told[0][2] == {"Type": "Kitty", "Playerid": 3, "Count": 5}
    kitty = ["B5", "G5", "R5", "Y5", "ROOK"]
    yellow = ["Y1", "Y14", "Y13", "Y12", "Y11", "Y10", "Y9", "Y8", "Y7", "Y6"]
    hand = ["B5", "G5", "R5", *yellow, "Y5", "ROOK"]  # the kitty taken in, sorted
    assert told[3][2] == {"Type": "Kitty", "Playerid": 3, "Count": 5, "Cards": kitty, "Hand": hand}
    assert [m["Type"] for m in told[1]] == ["Bid", "Message", "Kitty"]
    assert prompt(game, 3, 5) == {
        "Type": "Setup",
        "Playerid": 3,
        "Seq": 5,
        "Count": 5,
        "Calls": 0,
        "Legal": hand,
    }
    assert prompt(game, 0, 5) == {"Type": "Setup", "Playerid": 3, "Seq": 5, "Count": 5, "Calls": 0}
    events = game.apply(3, Setup((R("B5"), R("G5"), R("R5"), R("Y5"), R("Y6")), Colour.RED))
    told = everyone(game, events)
    public = {"Type": "Setup", "Playerid": 3, "Trump": "R", "Partners": [], "PointsInDiscard": True}
    assert told[0] == [told[0][0], public]
    assert told[0][0]["Message"] == "Player 3 (dee) names Red trump; the discard holds points"
    assert told[3][1] == {
        **public,
        "Discard": ["B5", "G5", "R5", "Y6", "Y5"],
        "Hand": [*yellow[:-1], "ROOK"],
    }
    assert prompt(game, 3, 6) == {
        "Type": "Play",
        "Playerid": 3,
        "Seq": 6,
        "Trump": "R",
        "Legal": [*yellow[:-1], "ROOK"],
    }
    game.apply(3, Play(R("ROOK")))  # the bird led: trump (red) led
    assert prompt(game, 0, 7) == {
        "Type": "Play",
        "Playerid": 0,
        "Seq": 7,
        "Trump": "R",
        "Lead": "R",
        "WinningCard": "ROOK",
        "Legal": ["B1", "B14", "B13", "B12", "B11", "B10", "B9", "B8", "B7", "B6"],
    }


def test_what_each_seat_is_told_of_a_hand() -> None:
    game = Game(NAMES[:4])
    told = everyone(game, game.deal(FOUR_COLOURS))
    for seat in range(4):
        deal, size = told[seat]
        assert deal["Type"] == "Deal"
        assert deal["Hand"] == [c.code for c in game.hand(seat)]
        assert size == {"Type": "Message", "Message": "Hand 1: the kitty holds 5 cards"}
    for seat, amount in ((1, 0), (2, 80), (3, 0)):
        assert everyone(game, game.apply(seat, BID_ACTIONS[amount]))[0][0] == {
            "Type": "Bid",
            "Playerid": seat,
            "Bid": amount,
        }
    game.apply(0, BID_ACTIONS[0])
    discard = tuple(map(R, ["B5", "G5", "Y5", "R6", "R7"]))
    events = game.apply(2, Setup(discard, Colour.RED, (R("B1"),)))
    assert everyone(game, events)[1][1] == {
        "Type": "Setup",
        "Playerid": 2,
        "Trump": "R",
        "Partners": ["B1"],
        "PointsInDiscard": True,
    }
    game.apply(2, Play(R("R1")))
    game.apply(3, Play(R("Y1")))
    told = everyone(game, game.apply(0, Play(R("B1"))))
    assert told[1] == [
        {"Type": "Play", "Playerid": 0, "PlayedCard": "B1", "Partner": True},
        {"Type": "Message", "Message": "Player 0 (ann) played the called Black 1 and is a partner"},
    ]
    told = everyone(game, game.apply(1, Play(R("G1"))))
    assert told[3] == [
        {"Type": "Play", "Playerid": 1, "PlayedCard": "G1"},
        {"Type": "Trick", "Playerid": 2, "WinningCard": "R1", "Trick": 1},
        {"Type": "Message", "Message": "Player 2 (cy) wins trick #1 with R1"},
    ]
    # Play the rest: seat 2 takes every trick.
    out: list[Message] = []
    while game.round == 1:
        seat = game.to_act
        assert seat is not None
        out += everyone(game, game.apply(seat, game.legal_actions(seat)[0]))[1]
    score = next(m for m in out if m["Type"] == "Score")
    assert score == {
        "Type": "Score",
        "Round": 1,
        "Bidder": 2,
        "Bid": 80,
        "Side": [0, 2],
        "Made": True,
        "Taken": [0, 0, 200, 0],
        "Points": [200, 0, 200, 0],
        "Score": [200, 0, 200, 0],
    }
    assert out[-1]["Message"].startswith(
        "Hand 1: Player 2 (cy) bid 80 with Player 0 (ann), took 200"
    )


def test_a_game_over_follows_the_hand_score() -> None:
    game = four_colours()
    game.scores = (300, 0, 310, 0)
    for seat, amount in ((1, 0), (2, 80), (3, 0), (0, 0)):
        game.apply(seat, BID_ACTIONS[amount])
    game.apply(2, Setup(tuple(map(R, ["B5", "G5", "Y5", "R6", "R7"])), Colour.RED, (R("B1"),)))
    events = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        events = game.apply(seat, game.legal_actions(seat)[0])
    told = everyone(game, events)
    kinds = [m["Type"] for m in told[0]]
    assert kinds[-4:] == ["Score", "Message", "Message", "Score"]
    assert told[0][-1] == {
        "Type": "Score",
        "GameOver": True,
        "Winner": 2,
        "Score": [500, 0, 510, 0],
        "Win": False,
    }
    assert told[2][-1]["Win"] is True
    assert SPEC.result(game) == {
        "Winner": 2,
        "Score": [500, 0, 510, 0],
        "Text": "cy wins with 510 (the others: 500, 0, 0)",
    }


def test_a_snapshot_holds_no_finished_trick() -> None:
    game = four_colours()
    assert snapshot(game, 0, 9) == {
        "Type": "Snapshot",
        "Table": 9,
        "Playerid": 0,
        "Players": list(NAMES[:4]),
        "Round": 1,
        "Dealer": 0,
        "Phase": "bidding",
        "Hand": ["B1", "B14", "B13", "B12", "B11", "B10", "B9", "B8", "B7", "B6"],
        "Score": [0, 0, 0, 0],
        "Bids": [],
        "Winners": [],
    }
    for seat, amount in ((1, 0), (2, 80), (3, 0), (0, 0)):
        game.apply(seat, BID_ACTIONS[amount])
    assert snapshot(game, 1, 9)["Phase"] == "setup"
    game.apply(2, Setup(tuple(map(R, ["B5", "G5", "Y5", "R6", "R7"])), Colour.RED, (R("B1"),)))
    for code in ("R1", "Y1", "B1", "G1", "R14", "Y14"):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, Play(R(code)))
    for seat in range(4):
        snap = snapshot(game, seat, 9)
        validate_server_message(snap)
        assert snap["Winners"] == [2]
        assert snap["Trick"] == [
            {"Playerid": 2, "PlayedCard": "R14"},
            {"Playerid": 3, "PlayedCard": "Y14"},
        ]
        assert (snap["Called"], snap["Partners"], snap["PointsInDiscard"]) == ([], [0], True)
        assert snap["Bids"][1] == {"Playerid": 2, "Bid": 80}
        assert ("Discarded" in snap) is (seat == 2)
        assert not {"R1", "Y1", "B1", "G1"} & set(codes_in(snap))


# ------------------------------------------------------------------ the schema, random games


def codes_in(msg: Message) -> Iterator[str]:
    """Every Rook card code in a message: card fields, and card words of text."""

    def walk(value: object, key: str = "") -> Iterator[str]:
        if key in ("Players", "Name", "Tables"):
            return
        if isinstance(value, str):
            if key == "Message":
                yield from CODE_WORD.findall(value)
            elif value in CODES:
                yield value
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)
        elif isinstance(value, dict):
            for k, v in value.items():
                yield from walk(v, k)

    yield from walk(msg)


class RandomBot:
    """Any legal action: bids mostly pass or lowest, random setups."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: View) -> object:
        rng, legal = self.rng, view.legal
        if view.phase is Phase.BIDDING:
            roll = rng.random()
            return legal[0] if roll < 0.5 else legal[1] if roll < 0.9 else rng.choice(legal)
        if view.phase is Phase.SETUP:
            discard = tuple(rng.sample(view.hand, view.kitty_size))
            calls = tuple(rng.sample(ROOK_DECK, view.calls))
            return Setup(discard, rng.choice(list(Colour)), calls)
        return rng.choice(legal)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_every_message_of_random_games_is_valid(seats: int) -> None:
    rng = random.Random(seats)
    seen: set[str] = set()
    for g in range(2):
        game = Game(NAMES[:seats])
        bots = [RandomBot(rng) if s % 2 else RookBot() for s in range(seats)]
        seq = 0
        while not game.is_over:
            if game.needs_deal:
                events = game.deal(seeded_deck(f"schema-{g}", game.round_index))
            else:
                seat = game.to_act
                assert seat is not None
                seq += 1
                for s in range(seats):
                    check(prompt(game, s, seq), seen)
                if rng.random() < 0.05:
                    check(snapshot(game, rng.randrange(seats), 1), seen)
                events = game.apply(seat, bots[seat].act(game.view_for(seat)))  # type: ignore[arg-type]
            for msgs in everyone(game, events).values():
                for msg in msgs:
                    check(msg, seen)


def check(msg: Message | None, seen: set[str]) -> None:
    if msg is None:
        return
    key = repr(sorted(msg.items()))
    if key not in seen:
        validate_server_message(msg)
        seen.add(key)


# ------------------------------------------------------------------ at the hub


def people_table(h: Harness, seats: int) -> list[Client]:
    """A table of ``seats`` people (ann creates it, the others join)."""
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create", "Game": "rook"})
    custom = len(SPEC.presets) + 1
    ann.send({"Type": "Game", "Option": custom, "Seats": seats, "Bots": 0, "Name": "people"})
    clients = [ann]
    for name in NAMES[1:seats]:
        client = h.json_client(name)
        assert client.send({"Type": "Hello", "Message": "join"})[0]["Type"] == "Tables"
        client.send({"Type": "Join", "Table": 1})
        clients.append(client)
    return clients


class TrickWatch:
    """One seat's stream, read in order: a card of a finished trick may not appear in
    any message once the next trick starts (the next message but the trick's words)."""

    def __init__(self) -> None:
        self.trick: set[str] = set()  # the cards of the trick under way
        self.gone: set[str] = set()  # the cards of this hand's finished tricks
        self.closing: set[str] = set()  # the trick just won, until its words are said
        self.words_due = False
        self.checked = 0

    def read(self, msg: Message, where: str) -> None:
        kind = msg.get("Type")
        if kind == "Deal":
            self.trick, self.gone, self.closing = set(), set(), set()
        if self.closing and (kind != "Message" or not self.words_due):
            self.gone |= self.closing
            self.closing = set()
        self.words_due = False
        leaked = set(codes_in(msg)) & self.gone
        assert not leaked, f"{where}: {msg} names finished-trick cards {leaked}"
        self.checked += 1
        if kind == "Play" and "PlayedCard" in msg:
            self.trick.add(msg["PlayedCard"])
        elif kind == "Trick":
            self.closing, self.trick = self.trick, set()
            self.words_due = True  # the one Message that says who won it
        elif kind == "Score":
            self.gone |= self.closing
            self.closing = set()


def play_people(h: Harness, clients: list[Client], rng: random.Random, rejoin_at: int = -1) -> None:
    for answers in range(1, 20_000):
        if all(c.game_over() is not None for c in clients):
            return
        waiting = [(c, p) for c in clients if (p := c.pending()) is not None]
        assert len(waiting) == 1, [c.conn for c, _ in waiting]
        client, question = waiting[0]
        client.send(answer_from_legal(question, rng))
        if answers == rejoin_at:  # a seat taken back mid-game gets a snapshot
            lost = clients.pop(1)
            lost.disconnect()
            back = h.json_client()
            told = back.send({"Type": "Hello", "Token": h.tokens[1]})
            assert [m["Type"] for m in told][:4] == ["Seat", "Table", "Commit", "Snapshot"]
            back.messages = [*lost.messages, *back.messages]
            back.read = len(back.messages)
            clients.insert(1, back)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4)])
def test_no_finished_trick_reaches_any_seat_at_a_table_of_people(seats: int, seed: int) -> None:
    h = Harness(f"rook-people-{seats}")
    clients = people_table(h, seats)
    assert h.hub.lobby.tables[1].names() == list(NAMES[:seats])
    play_people(h, clients, random.Random(seed), rejoin_at=37)
    for seat, client in enumerate(clients):
        watch = TrickWatch()
        dealt = 0
        for index, msg in enumerate(client.messages):
            validate_server_message(msg)
            watch.read(msg, f"seat {seat} message {index}")
            if msg["Type"] == "Deal":
                dealt += 1
                assert len(msg["Hand"]) == {3: 13, 4: 10, 5: 8, 6: 7}[seats]
                assert msg["Playerid"] == seat
        over = client.game_over()
        assert over is not None
        assert max(over["Score"]) >= 500
        assert over["Win"] is (over["Winner"] == seat)
        assert dealt >= 1
        assert watch.checked > 100
    snapshots = [m for m in clients[1].messages if m["Type"] == "Snapshot"]
    assert len(snapshots) == 1
    assert h.hub.lobby.tables == {}


def test_the_watch_catches_a_finished_trick_named_later() -> None:
    watch = TrickWatch()
    for msg in (
        {"Type": "Deal", "Hand": ["B1"]},
        {"Type": "Play", "Playerid": 0, "PlayedCard": "G5"},
        {"Type": "Trick", "Playerid": 0, "WinningCard": "G5", "Trick": 1},
        {"Type": "Message", "Message": "Player 0 (ann) wins trick #1 with G5"},
    ):
        watch.read(msg, "")
    with pytest.raises(AssertionError, match="G5"):
        watch.read({"Type": "Message", "Message": "G5 again"}, "")


# ------------------------------------------------------------------ text mode


def rook_text_answer(lines: list[str], rng: random.Random) -> str | None:
    """A command for the last ``> `` prompt of ``lines``, read as a person would."""
    at = max(i for i, line in enumerate(lines) if line.startswith("> "))
    ask = lines[at]
    if ask.startswith("> your bid ("):
        options = ask[len("> your bid (") : ask.index(")")].split(", ")
        amounts = [o for o in options if o[0].isdigit()]
        roll = rng.random()
        if roll < 0.6 or not amounts:
            return "pass"
        if roll < 0.97:
            return f"bid {amounts[0].split('-')[0]}"
        return "moon"
    if not ask.startswith(("> set up", "> play one of: ")):
        return None  # the lobby's
    shown = lines[at - 1]
    assert shown.startswith("Your hand: "), shown
    hand = [(int(n), NAME_TO_CODE[name]) for n, name in HAND_ENTRY.findall(shown)]
    if ask.startswith("> set up"):
        count = int(re.search(r"discard (\d+) cards", ask)[1])  # type: ignore[index]
        found = re.search(r"call (\d+) partner", ask)
        calls = int(found[1]) if found else 0
        picks = rng.sample(hand, count)
        discard = [str(n) if rng.random() < 0.5 else code.lower() for n, code in picks]
        called = rng.sample(sorted(CODES), calls)
        colour = rng.choice(["red", "R", "black", "g", "Yellow"])
        tail = f" call {' '.join(called)}" if called else ""
        return f"setup {colour} {' '.join(discard)}{tail}"
    if ask.startswith("> play one of: "):
        legal = ask[len("> play one of: ") : ask.index("   (")].split(", ")
        return play_command(hand, NAME_TO_CODE[rng.choice(legal)], rng)
    return None


HAND_ENTRY = re.compile(r"(\d+):((?:Black|Green|Red|Yellow) \d+|Rook)")


def test_a_person_in_text_mode_and_a_json_client_finish_a_game() -> None:
    h = Harness("rook-text")
    nc = h.connect()
    nc.take_text()
    shown = nc.say("create rook")
    assert shown[-1].startswith("> choose an option: 1-8 (for 7: 7 SEATS BOTS NAME")
    shown = nc.say("5")  # 4 players: two people and two AI
    bob = h.json_client("bob")
    bob.send({"Type": "Hello", "Message": "join"})
    bob.send({"Type": "Join", "Table": 1})
    assert h.hub.lobby.tables[1].names() == ["player1", "bob", "AI 1", "AI 2"]
    rng = random.Random(5)
    answered_upto = 0
    watch = TrickWatch()
    for _ in range(5000):
        text_over = any(line.startswith("Game over.") for line in nc.text)
        if text_over and bob.game_over() is not None:
            break
        fresh = nc.text[answered_upto:]
        asks = [i for i, line in enumerate(fresh) if line.startswith("> ")]
        command = rook_text_answer(fresh[: asks[-1] + 1], rng) if asks else None
        if command is not None:
            answered_upto = len(nc.text)
            reply = nc.say(command)
            assert not any(line.startswith("! ") for line in reply), (command, reply)
            continue
        question = bob.pending()
        assert question is not None, nc.text[-5:]
        bob.send(answer_from_legal(question, rng))
    else:
        raise AssertionError("the game did not end")
    for msg in bob.messages:
        validate_server_message(msg)
        watch.read(msg, "bob")
    text = "\n".join(nc.text)
    assert "Your hand: " in text
    assert "> set up: name trump" in text or "won the bid" not in text
    assert nc.text[-1] == "> create, join, quit (or help)"
    assert bob.messages[-2:] == [QUESTION, {"Type": "Hello"}]


def test_text_mode_reads_and_renders_rook() -> None:
    screen = TextCodec()
    screen.seat, screen.players = 0, ["ann", "bob", "cy", "dee"]
    screen.hand = ["B1", "B14", "R5", "ROOK"]
    assert TEXT.parse("setup", ["red", "1", "ROOK", "call", "g1"], screen) == [
        {"Type": "Setup", "Discard": ["B1", "ROOK"], "Trump": "R", "Partners": ["G1"]}
    ]
    # Cards as shown, by colour name and number: to discard, to call and to play.
    assert TEXT.parse(
        "setup", ["red", "black", "14", "rook", "call", "Green", "1", "y5"], screen
    ) == [{"Type": "Setup", "Discard": ["B14", "ROOK"], "Trump": "R", "Partners": ["G1", "Y5"]}]
    assert TEXT.parse("play", ["black", "14"], screen) == [{"Type": "Play", "PlayedCard": "B14"}]
    assert TEXT.parse("play", ["Rook"], screen) == [{"Type": "Play", "PlayedCard": "ROOK"}]
    assert TEXT.parse("setup", ["Yellow", "2", "3"], screen) == [
        {"Type": "Setup", "Discard": ["B14", "R5"], "Trump": "Y", "Partners": []}
    ]
    assert TEXT.parse("moon", [], screen) == [{"Type": "Bid", "Moon": True}]
    assert TEXT.parse("bid", ["moon"], screen) == [{"Type": "Bid", "Moon": True}]
    assert TEXT.parse("bid", ["85"], screen) == [{"Type": "Bid", "Bid": 85}]
    assert TEXT.parse("play", ["4"], screen) == [{"Type": "Play", "PlayedCard": "ROOK"}]
    assert TEXT.parse("trump", ["red"], screen) is None  # not a Rook command
    for bad, code in (
        (["purple", "1"], "bad_suit"),
        ([], "bad_message"),
        (["red", "9"], "bad_card"),
    ):
        with pytest.raises(HundredError) as caught:
            TEXT.parse("setup", bad, screen)
        assert caught.value.code == code
    bid = {"Type": "Bid", "Playerid": 0, "Seq": 1, "Legal": [0, 195, 200, "moon"]}
    assert TEXT.render(bid, screen) == [
        "> your bid (pass, 195-200 by 5, moon): bid N, pass or moon"
    ]
    assert TEXT.render({"Type": "Bid", "Playerid": 1, "Moon": True}, screen) == [
        "bob shoots the moon"
    ]
    play = {
        "Type": "Play",
        "Playerid": 0,
        "Seq": 2,
        "Trump": "R",
        "Lead": "B",
        "WinningCard": "B5",
        "Legal": ["B1", "B14"],
    }
    assert TEXT.render(play, screen) == [
        "Your hand: 1:Black 1  2:Black 14  3:Red 5  4:Rook   (trump Red, winning Black 5)",
        "> play one of: Black 1, Black 14   (play Black 1 or play 1)",
    ]
    assert TEXT.render(
        {"Type": "Play", "Playerid": 2, "PlayedCard": "ROOK", "Partner": True}, screen
    ) == ["cy played Rook"]  # the Message that comes with it says cy is a partner
    assert games.get("rook").text is TEXT


# ------------------------------------------------------------------ tables and the bot


@pytest.mark.parametrize("seats", [3, 6])
def test_a_table_of_one_person_and_ai_starts_and_finishes(seats: int) -> None:
    h = Harness(f"rook-ai-{seats}")
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create", "Game": "rook"})
    option = next(
        i
        for i, p in enumerate(SPEC.presets, 1)
        if p.seats == seats and len(p.ai_seats) == seats - 1
    )
    ann.send({"Type": "Game", "Option": option})
    assert h.hub.lobby.tables[1].names() == ["ann", *(f"AI {i}" for i in range(1, seats))]
    play_people(h, [ann], random.Random(seats))
    over = ann.game_over()
    assert over is not None
    assert len(over["Score"]) == seats
    watch = TrickWatch()
    for msg in ann.messages:
        validate_server_message(msg)
        watch.read(msg, "ann")


def test_the_bot_beats_random_play() -> None:
    wins = 0
    games_played = 24
    for g in range(games_played):
        rng = random.Random(g)
        game = Game(NAMES[:4])
        bots = [RookBot(), RandomBot(rng), RandomBot(rng), RandomBot(rng)]
        playing.play_out(
            game,
            lambda n, g=g: seeded_deck(f"strength-{g}", n),
            lambda seat, view, bots=bots: bots[seat].act(view),
        )
        wins += game.winner == 0
    # One seat of four wins a quarter of random games; the bot wins far more.
    assert wins >= games_played // 2, wins


def test_the_bot_only_plays_legal_actions() -> None:
    for seats in (3, 4, 5, 6):
        game = Game(NAMES[:seats])
        bot = RookBot()

        def legal(_: int, view: View, bot: RookBot = bot) -> object:
            action = bot.act(view)
            if view.phase is not Phase.SETUP:
                assert action in view.legal
            return action

        playing.play_out(game, lambda n, seats=seats: seeded_deck(f"legal-{seats}", n), legal)


def test_the_hand_command_shows_rook_cards() -> None:
    h = Harness("rook-hand")
    nc = h.connect()
    nc.take_text()
    nc.say("create rook")
    nc.say("1")
    shown = nc.say("hand")
    assert shown[0].startswith("Your hand: 1:")
    assert re.fullmatch(
        r"Your hand: (\d+:(?:(?:Black|Green|Red|Yellow) \d+|Rook)  )*\S+ ?\S*", shown[0]
    )
    assert shown[-1].startswith("> your bid (")
