"""Hundert on the wire and through the server (games/hundert/wire.py, text.py, bots.py):
what each seat is told, the prompts, the answers a client may give, the snapshot, the
schema, text mode, tables in the lobby (the presets, Feder from a preset and from the
table of your choice), the store, and the bot against random play.

Exact messages come from explicit deals (tests/games/hundert/test_hundert.py's ``deck_for``); random
games check what no single deal can: every message valid against protocol.schema.json,
no seat told a card it may not know, ``Legal`` the engine's.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server import games
from hundred_server.ai.selfplay import play_game
from hundred_server.games.hundert.bots import FirstBot, HundertBot
from hundred_server.games.hundert.rules import (
    HUNDERT_DECK,
    PLAY_ACTIONS,
    DealScored,
    Event,
    Game,
    Play,
    seeded_deck,
)
from hundred_server.games.hundert.text import TEXT
from hundred_server.games.hundert.wire import (
    SPEC,
    prompt,
    snapshot,
    tell,
)
from hundred_server.games.kit.cards import Card, format_cards
from hundred_server.games.records import replay
from hundred_server.protocol.codecs.text import TextCodec
from hundred_server.protocol.errors import ClientError
from hundred_server.protocol.schema import is_valid_server_message, validate_server_message
from tests.games.hundert.test_hundert import FEDER, NAMES, c1, deck_for, play_all
from tests.support.hub_harness import (
    HELLO,
    QUESTION,
    Client,
    Harness,
    play_until_over,
    text_answer,
    valid,
)

parse_action = SPEC.parse_action

Message = dict[str, Any]


#: Deal 2 of three players (ann reached 102 and pays 2 chips to each), as seat 1 is told.
DEAL_2_SCORE = {
    "Type": "Score",
    "Round": 2,
    "Playerid": 0,
    "Total": 102,
    "Points": [-4, 2, 2],
    "Score": [2, -1, -1],
}


def told(game: Game, events: list[Event]) -> dict[int, list[Message]]:
    return tell(events, range(game.num_players), game.players)


def three() -> tuple[Game, list[Event]]:
    """Three players, ann deals: bob holds AS and KS, cy AH; the pile AC 7C: total 11."""
    game = Game(NAMES[:3])
    events = game.deal(deck_for(3, 0, {1: "AS KS", 2: "AH"}, "AC 7C"))
    return game, events


# ------------------------------------------------------------------------ telling


def test_the_deal_tells_each_seat_its_own_hand_then_everyone_the_pile():
    game, events = three()
    said = told(game, events)
    for seat in range(3):
        deal, pile, words = said[seat]
        assert deal == {
            "Type": "Deal",
            "Playerid": seat,
            "Hand": format_cards(game.hand(seat)),
            "Dealer": 0,
            "Round": 1,
            "Players": ["ann", "bob", "cy"],
        }
        assert pile == {"Type": "Pile", "Cards": ["AC", "7C"], "Total": 11}
        assert words == {"Type": "Message", "Message": "The pile shows AC 7C: total 11"}
    assert said[0][1] is said[2][1]  # one shared object: encoded once
    assert len(said[1][0]["Hand"]) == 10


def test_an_empty_pile_is_told_too():
    game = Game(NAMES[:4])
    said = told(game, game.deal(list(HUNDERT_DECK)))
    assert said[3][1:] == [
        {"Type": "Pile", "Cards": [], "Total": 0},
        {"Type": "Message", "Message": "No cards are left over: the total starts at 0"},
    ]


def test_the_prompt_carries_the_total_and_legal_only_for_the_seat_to_play():
    game, _ = three()
    assert prompt(game, 1, 7) == {
        "Type": "Play",
        "Playerid": 1,
        "Seq": 7,
        "Total": 11,
        "Legal": format_cards(game.hand(1)),
    }
    assert prompt(game, 0, 7) == {"Type": "Play", "Playerid": 1, "Seq": 7, "Total": 11}
    assert prompt(game, None, 7) == prompt(game, 2, 7)


def test_nobody_is_prompted_before_the_deal_or_after_the_game():
    game = Game(NAMES[:2])
    assert prompt(game, 0, 1) is None
    over = play_game(2, "over", game="hundert")
    assert prompt(over, 0, 1) is None


def test_a_play_is_told_to_everyone_with_the_new_total():
    game, _ = three()
    said = told(game, game.apply(1, Play(c1("AS"))))
    assert said[0] == [{"Type": "Play", "Playerid": 1, "PlayedCard": "AS", "Total": 22}]
    assert said[0] == said[1] == said[2]


def test_the_end_of_a_deal_overshoot_and_exact():
    game = Game(NAMES[:3])
    game.deal(deck_for(3, 0, {1: "AH TH TS 8H", 2: "AD TD KH KC", 0: "AC TC KD KS"}, "AS 7C"))
    play_all(game, "AH AD AC TH TD TC TS KH KD 8H KC")
    said = told(game, game.apply(0, Play(c1("KS"))))
    assert said[2] == [
        {"Type": "Play", "Playerid": 0, "PlayedCard": "KS", "Total": 100},
        {
            "Type": "Score",
            "Round": 1,
            "Playerid": 0,
            "Total": 100,
            "Points": [6, -3, -3],
            "Score": [6, -3, -3],
        },
        {"Type": "Message", "Message": "ann makes exactly 100 and takes 3 chips from each"},
    ]
    # Deal 2 (bob deals): the overshoot of tests/games/hundert/test_hundert.py: ann's QH makes 102.
    hands = {2: "AS AC TD KH 7H 8H", 0: "AH TS TC 9S 9H QH", 1: "AD TH KS QS KC"}
    said = told(game, game.deal(deck_for(3, 1, hands, "7S 8S")))
    assert said[0][0]["Dealer"] == 1
    assert said[0][0]["Round"] == 2
    play_all(game, "AS AH AD AC TS TH TD TC KS KH 9S QS 7H 9H KC 8H")
    said = told(game, game.apply(0, Play(c1("QH"))))
    assert said[1][1:] == [
        DEAL_2_SCORE,
        {"Type": "Message", "Message": "ann takes the total to 102 and pays 2 chips to each"},
    ]


def test_feder_words_say_one_chip():
    game = Game(NAMES[:3], FEDER)
    game.deal(deck_for(3, 0, {1: "AH TH TS 8H", 2: "AD TD KH KC", 0: "AC TC KD KS"}, "AS 7C"))
    play_all(game, "AH AD AC TH TD TC TS KH KD 8H KC")
    said = told(game, game.apply(0, Play(c1("KS"))))
    assert said[0][1]["Points"] == [2, -1, -1]
    assert said[0][2]["Message"] == "ann makes exactly 100 and takes 1 chip from each"


def test_the_game_ends_with_the_last_deals_score_then_each_seats_game_over():
    game = Game(NAMES[:2])
    bots = [HundertBot(), HundertBot()]
    events: list[Event] = []
    while not game.is_over:
        if game.needs_deal:
            game.deal(seeded_deck("end", game.round_index))
            continue
        seat = game.to_act
        assert seat is not None
        events = game.apply(seat, bots[seat].act(game.view_for(seat)))
    said = told(game, events)
    winner = game.winner
    assert winner is not None
    for seat in (0, 1):
        *_, score, deal_words, words, over = said[seat]
        assert score["Type"] == "Score"
        assert deal_words["Type"] == "Message"
        assert score["Round"] == 4
        assert score["Score"] == list(game.scores)
        balance = game.scores[winner]
        chips = f"{balance} chip{'' if balance == 1 else 's'}"
        assert words == {
            "Type": "Message",
            "Message": f"{NAMES[winner]} wins the game with a balance of {chips}",
        }
        assert over == {
            "Type": "Score",
            "GameOver": True,
            "Winner": winner,
            "Score": list(game.scores),
            "Win": seat == winner,
        }
    assert SPEC.result(game) == {
        "Winner": winner,
        "Score": list(game.scores),
        "Text": words["Message"],
    }
    assert SPEC.result(Game(NAMES[:2]))["Winner"] is None


# ----------------------------------------------------------------------- snapshot


def test_a_snapshot_holds_what_the_seat_knows():
    game, _ = three()
    play_all(game, "AS AH")
    snap = snapshot(game, 0, 9)
    assert snap == {
        "Type": "Snapshot",
        "Table": 9,
        "Playerid": 0,
        "Players": ["ann", "bob", "cy"],
        "Round": 1,
        "Dealer": 0,
        "Phase": "play",
        "Hand": format_cards(game.hand(0)),
        "Score": [0, 0, 0],
        "Pile": ["AC", "7C"],
        "Played": [{"Playerid": 1, "PlayedCard": "AS"}, {"Playerid": 2, "PlayedCard": "AH"}],
        "Total": 33,
    }
    validate_server_message(snap)
    others = set(game.hand(1)) | set(game.hand(2))
    assert not others & {Card.parse(c) for c in snap["Hand"]}


def test_snapshots_of_the_deal_phase_and_of_a_finished_game_are_valid():
    game = Game(NAMES[:6])
    snap = snapshot(game, 5, 1)
    assert (snap["Phase"], snap["Hand"], snap["Total"], snap["Pile"]) == ("deal", [], 0, [])
    validate_server_message(snap)
    over = play_game(6, "snap", game="hundert")
    snap = snapshot(over, 2, 1)
    assert snap["Phase"] == "game_over"
    assert snap["Total"] >= 100
    validate_server_message(snap)


# ------------------------------------------------------------------------ answers


@pytest.mark.parametrize(
    ("msg", "card"),
    [
        ({"Type": "Play", "PlayedCard": "AS"}, "AS"),
        ({"Type": "Play", "PlayedCard": "as", "Seq": 3, "Playerid": 1}, "AS"),
        ({"Type": "Play", "PlayedCard": "10H"}, "TH"),
        ({"Type": "Play", "PlayedCard": "2S"}, "2S"),  # a card, but no Hundert card: the
    ],  # engine refuses it (not_in_hand)
)
def test_parse_action_reads_a_play(msg: Message, card: str):
    assert parse_action(msg) == PLAY_ACTIONS[Card.parse(card)]


@pytest.mark.parametrize(
    ("msg", "code"),
    [
        ({"Type": "Play", "PlayedCard": "1X"}, "bad_card"),
        ({"Type": "Play", "PlayedCard": 7}, "bad_message"),
        ({"Type": "Play"}, "bad_message"),
        ({"Type": "Bid", "Bid": 20}, "unknown_type"),
    ],
)
def test_parse_action_errors(msg: Message, code: str):
    with pytest.raises(ClientError) as caught:
        parse_action(msg)
    assert caught.value.code == code


# ------------------------------------------------------------------- the schema


def test_the_schema_refuses_what_hundert_never_sends():
    ok_prompt = {"Type": "Play", "Playerid": 1, "Seq": 2, "Total": 40, "Legal": ["AS"]}
    validate_server_message(ok_prompt)
    for bad in (
        {**ok_prompt, "Total": 100},  # a deal ends at 100
        {**ok_prompt, "Legal": ["2S"]},  # no Hundert card
        {**ok_prompt, "Trump": "H"},
        {"Type": "Play", "Playerid": 1, "PlayedCard": "AS", "Total": 111},
        {"Type": "Pile", "Cards": ["AS", "AH", "AD"], "Total": 33},
        {
            "Type": "Score",
            "Round": 1,
            "Playerid": 0,
            "Total": 99,
            "Points": [0, 0],
            "Score": [0, 0],
        },
        {
            "Type": "Deal",
            "Playerid": 0,
            "Hand": ["2H", "3H", "4H", "5H", "6H"],
            "Dealer": 0,
            "Round": 1,
            "Players": ["a", "b", "c", "d", "e"],
        },
    ):
        assert not is_valid_server_message(bad), bad


@settings(max_examples=6, deadline=None)
@given(n=st.sampled_from([2, 3, 4, 5, 6]), seed=st.text(max_size=5), choices=st.integers(0, 2**32))
def test_random_games_tell_no_secrets_legal_is_the_engines_and_all_is_in_the_schema(
    n: int, seed: str, choices: int
):
    rng = random.Random(choices)

    def check(msg: Message) -> None:
        valid(msg)

    game = Game(NAMES[:n], FEDER if rng.random() < 0.5 else frozenset())
    seats = range(n)
    seq = 0
    shown: list[set[Card]] = [set() for _ in seats]
    while not game.is_over:
        if game.needs_deal:
            events = game.deal(seeded_deck(seed, game.round_index))
            shown = [set(game.hand(s)) | set(game.pile) for s in seats]
        else:
            seq += 1
            actor = game.to_act
            assert actor is not None
            for seat in seats:
                msg = prompt(game, seat, seq)
                assert msg is not None
                check(msg)
                if seat == actor:
                    assert msg["Legal"] == format_cards(game.hand(seat))
                else:
                    assert "Legal" not in msg
            card = rng.choice(game.legal_actions(actor)).card
            for s in seats:
                shown[s].add(card)
            events = game.apply(actor, Play(card))
        for seat, msgs in told(game, events).items():
            for msg in msgs:
                check(msg)
                for key in ("Hand", "Cards", "PlayedCard"):
                    value = msg.get(key)
                    codes = value if isinstance(value, list) else [value] if value else []
                    assert {Card.parse(c) for c in codes} <= shown[seat], msg
        if seq % 5 == 0 and game.to_act is not None:
            check(snapshot(game, game.to_act, 1))


# ------------------------------------------------------------------------ text mode


def Screen(seat: int, players: list[str]) -> TextCodec:
    """A text-mode screen at ``seat`` of ``players``."""
    screen = TextCodec()
    screen.seat, screen.players = seat, players
    return screen


def test_text_mode_shows_the_deal_the_total_and_what_each_card_makes():
    screen = Screen(0, [])
    deal = {
        "Type": "Deal",
        "Playerid": 0,
        "Hand": ["AS", "QH", "7D"],
        "Dealer": 2,
        "Round": 3,
        "Players": ["ann", "bob", "cy"],
    }
    assert TEXT.render(deal, screen) == [
        "── Deal 3 of 6: cy deals.",
        "Your hand: A♠ Q♥ 7♦",
    ]
    assert TEXT.render({"Type": "Pile", "Cards": [], "Total": 0}, screen) == []
    ask = {"Type": "Play", "Playerid": 0, "Seq": 4, "Total": 89, "Legal": ["AS", "QH", "7D"]}
    assert TEXT.render(ask, screen) == [
        "The total is 89; your cards would make it: A♠ 100 (exactly), Q♥ 92, 7♦ 89",
        "Your hand: 1:A♠  2:Q♥  3:7♦   (total 89)",
        "> play one of: A♠ Q♥ 7♦   (play A♠ or play 1)",
    ]
    assert screen.prompt == ask
    waiting = {"Type": "Play", "Playerid": 1, "Seq": 4, "Total": 89}
    assert TEXT.render(waiting, screen) == ["(waiting for bob to play)"]
    played = {"Type": "Play", "Playerid": 0, "PlayedCard": "QH", "Total": 92}
    assert TEXT.render(played, screen) == ["you played Q♥: total 92"]
    assert screen.hand == ["AS", "7D"]
    over = {"Type": "Play", "Playerid": 2, "PlayedCard": "TD", "Total": 102}
    assert TEXT.render(over, screen) == ["cy played 10♦: total 102"]
    assert TEXT.parse("play", ["2"], screen) == [{"Type": "Play", "PlayedCard": "7D"}]
    assert TEXT.parse("play", ["ks"], screen) == [{"Type": "Play", "PlayedCard": "KS"}]
    assert TEXT.parse("play", ["K♠"], screen) == [{"Type": "Play", "PlayedCard": "KS"}]
    assert TEXT.parse("bid", ["20"], screen) is None
    with pytest.raises(ClientError):
        TEXT.parse("play", [], screen)


def test_text_mode_shows_the_chips_balances_and_the_end():
    screen = Screen(1, ["ann", "bob", "cy"])
    assert TEXT.render(DEAL_2_SCORE, screen) == [
        "Deal 2: chips ann -4, you +2, cy +2. Balances: ann 2, you -1, cy -1"
    ]
    over = {"Type": "Score", "GameOver": True, "Winner": 0, "Score": [2, -1, -1], "Win": False}
    assert TEXT.render(over, screen) == [
        "Game over. ann wins. Final balances: ann 2, you -1, cy -1"
    ]
    won = {**over, "Winner": 1, "Win": True}
    assert TEXT.render(won, screen)[0].startswith("Game over. You win!")
    snap = snapshot(three()[0], 1, 1)
    lines = TEXT.render(snap, screen)
    assert lines is not None
    assert lines[-1] == "The pile: A♣ 7♣; played this deal: nothing yet; total 11"
    assert "play N            by its position in your hand (play 3: the third card)" in TEXT.help
    assert "exactly 100" in TEXT.help


def hundert_options() -> list[str]:
    return [
        "Option 1 - You against one AI (2 players)",
        "Option 2 - You against 2 AI (3 players)",
        "Option 3 - You against 3 AI (4 players)",
        "Option 4 - You against 4 AI (5 players)",
        "Option 5 - You against 5 AI (6 players)",
        "Option 6 - 4 players, Feder: you against three AI",
        "Option 7 - A table of your choice: Seats (2-6), Bots (AI seats), Name, Clock, "
        "Feder (true or false)",
        "Option 8 - Go back",
    ]


def finish_in_text(nc: Client, shown: list[str], rng: random.Random) -> list[str]:
    return nc.play_text(shown, text_answer, rng, lambda line: line.startswith("Game over"), 400)


def test_a_person_in_text_mode_plays_hundert_to_the_end():
    h = Harness("text-hundert")
    nc = h.connect()
    nc.take_text()
    shown = nc.say("create hundert")
    assert shown[:8] == hundert_options()
    assert (
        shown[-1] == "> choose an option: 1-8 "
        "(for 7: 7 SEATS BOTS NAME [feder] [nowatch], e.g. 7 4 1 friday)"
    )
    seen = finish_in_text(nc, nc.say("2"), random.Random(3))
    assert any(line.startswith("Game over") for line in seen)
    deals = [line for line in seen if line.startswith("── Deal ")]
    assert [d.split(":")[0] for d in deals] == [f"── Deal {i} of 6" for i in range(1, 7)]
    assert sum(1 for line in seen if line.startswith("The pile shows ")) == 6
    assert any(": total " in line and " played " in line for line in seen)
    assert seen[-1] == "> create, join, quit (or help)"
    assert h.hub.lobby.tables == {}
    help_lines = nc.say("help")
    assert help_lines  # the lobby's, after the game


def test_text_mode_makes_a_feder_table_of_your_choice():
    h = Harness("text-feder")
    nc = h.connect()
    nc.take_text()
    nc.say("create hundert")
    shown = nc.say("7 3 2 FEDER friday")
    assert shown[0] == "Table 1 (friday): you, AI 1, AI 2 [Feder] (naive AI)"
    assert h.hub.lobby.tables[1].game.flags == FEDER
    seen = finish_in_text(nc, shown, random.Random(4))
    chips = [line for line in seen if line.startswith("Deal ") and ": chips " in line]
    assert len(chips) == 6
    for line in chips:  # 1 chip either way: the one who ends the deal -2 or +2
        moves = sorted(line.split(": chips ")[1].split(". Balances")[0].split(", "))
        assert sorted(m.rsplit(" ", 1)[1] for m in moves) in (
            ["+1", "+1", "-2"],
            ["+2", "-1", "-1"],
        )


# ------------------------------------------------------------------ a JSON client


def create(h: Harness, name: str, option: int, **extra: object) -> Client:
    client = h.json_client(name)
    said = client.send({"Type": "Hello", "Message": "create", "Game": "hundert"})
    assert said == [{"Type": "Message", "Message": o} for o in hundert_options()] + [
        {"Type": "Game"}
    ]
    client.send({"Type": "Game", "Option": option, **extra})
    return client


def check_hundert_stream(messages: list[Message], seat: int) -> int:
    """What a seat was told adds up: its hand is what it was dealt, the totals climb by
    each card's points from the pile's, every deal ends at 100 or more with chips that
    sum to zero and balances that follow, the seat never sees another seat's card
    before it is played, and there are 2n deals. Returns the deals seen."""
    from hundred_server.games.hundert.rules import POINTS

    balances: list[int] = []
    total = 0
    hand: list[str] = []
    seen: set[str] = set()
    deals = 0
    for msg in messages:
        kind = msg["Type"]
        if kind == "Deal":
            deals += 1
            assert msg["Playerid"] == seat
            assert msg["Round"] == deals
            n = len(msg["Players"])
            assert msg["Dealer"] == (deals - 1) % n
            balances = balances or [0] * n
            hand = list(msg["Hand"])
            assert len(hand) == 32 // n
            seen = set(hand)
        elif kind == "Pile":
            assert len(msg["Cards"]) == 32 % len(balances)
            total = sum(POINTS[Card.parse(c)] for c in msg["Cards"])
            assert msg["Total"] == total
            seen |= set(msg["Cards"])
        elif kind == "Play" and "Seq" in msg:
            assert msg["Total"] == total < 100
            if "Legal" in msg:
                assert msg["Legal"] == hand
        elif kind == "Play":
            card = msg["PlayedCard"]
            if msg["Playerid"] == seat:
                hand.remove(card)
            else:
                assert card not in seen  # never the seat's own, nor shown before
            seen.add(card)
            total += POINTS[Card.parse(card)]
            assert msg["Total"] == total
        elif kind == "Score" and "Total" in msg:
            assert msg["Total"] == total >= 100
            assert sum(msg["Points"]) == 0
            balances = [b + p for b, p in zip(balances, msg["Points"], strict=True)]
            assert msg["Score"] == balances
        elif kind == "Score":
            assert msg["Score"] == balances
            assert deals == 2 * len(balances)
            top = max(balances)
            assert msg["Winner"] == balances.index(top)
            assert msg["Win"] is (msg["Winner"] == seat)
        for key in ("Hand", "Legal", "Cards"):
            if kind != "Deal" and isinstance(msg.get(key), list):
                assert set(msg[key]) <= seen, msg
    return deals


@pytest.mark.parametrize("option", [1, 5])
def test_a_json_client_plays_hundert_against_ai_to_the_end(option: int):
    h = Harness(f"json-hundert-{option}")
    ann = create(h, "ann", option)
    table = h.hub.lobby.tables[1]
    seats = option + 1
    assert table.names() == ["ann", *(f"AI {i}" for i in range(1, seats))]
    rng = random.Random(option)
    for asked in ann.play_on(rng, 600):
        assert asked["Type"] == "Play"
        if rng.random() < 0.1:  # now and then a bad answer: the same prompt again
            bad = {"Type": "Play", "PlayedCard": "2S", "Seq": asked["Seq"]}
            assert ann.refused(bad)["Code"] == "not_in_hand"
    over = ann.game_over()
    assert over is not None
    assert ann.messages[-2:] == [QUESTION, HELLO]
    for msg in ann.messages:
        validate_server_message(msg)
    start = next(i for i, m in enumerate(ann.messages) if m["Type"] == "Deal")
    assert check_hundert_stream(ann.messages[start:-3], 0) == 2 * seats
    assert h.hub.lobby.tables == {}


def test_two_people_and_an_ai_at_a_table_of_your_choice():
    h = Harness("people-hundert")
    ann = create(h, "ann", 7, Seats=3, Bots=1, Name="friday")
    assert ann.last("Table")["Free"] == 1
    bob = h.json_client("bob")
    bob.send({"Type": "Join", "Table": 1})
    assert h.hub.lobby.tables[1].names() == ["ann", "AI 1", "bob"]
    play_until_over([ann, bob], random.Random(8), 600)
    for client, seat in ((ann, 0), (bob, 2)):
        over = client.game_over()
        assert over is not None
        start = next(i for i, m in enumerate(client.messages) if m["Type"] == "Deal")
        assert check_hundert_stream(client.messages[start:-3], seat) == 6
        for msg in client.messages:
            validate_server_message(msg)
    ann_over, bob_over = ann.game_over(), bob.game_over()
    assert ann_over is not None
    assert bob_over is not None
    assert (ann_over["Winner"], ann_over["Score"]) == (bob_over["Winner"], bob_over["Score"])
    assert ann_over["Win"] is (ann_over["Winner"] == 0)


@pytest.mark.parametrize(
    "how",
    [{"option": 6}, {"option": 7, "Seats": 4, "Bots": 3, "Feder": True}],
    ids=["preset", "custom"],
)
def test_a_feder_table_from_the_preset_and_from_the_table_of_your_choice(how: dict[str, Any]):
    h = Harness("feder")
    extra = {k: v for k, v in how.items() if k != "option"}
    ann = create(h, "ann", how["option"], **extra)
    assert ann.last("Table")["Flags"] == ["Feder"]
    assert h.hub.lobby.tables[1].game.flags == FEDER
    play_until_over([ann], random.Random(2), 600)
    scores = [m for m in ann.messages if m["Type"] == "Score" and "Total" in m]
    assert len(scores) == 8
    for score in scores:
        ender = score["Playerid"]
        sign = 1 if score["Total"] == 100 else -1
        assert score["Points"] == [sign * 3 if s == ender else -sign for s in range(4)]


def test_a_plain_table_of_your_choice_has_no_flags():
    h = Harness("plain")
    ann = create(h, "ann", 7, Seats=2, Bots=1, Feder=False)
    assert "Flags" not in ann.last("Table")
    assert h.hub.lobby.tables[1].game.flags == frozenset()


def test_a_feder_game_is_saved_restored_with_its_option_and_exported(tmp_path: Path):
    from hundred_server.store import Store
    from tests.support.saving import mid_game, played_out_and_stored, restarted

    store = Store(tmp_path / "s.db")
    rng = random.Random(1)
    h, _, asked = mid_game(store, "hundert-store", lambda h: create(h, "ann", 6), 12, rng)
    store, h2 = restarted(store, lambda: Store(tmp_path / "s.db"), "hundert-store")
    assert h2.hub.lobby.tables[1].game.flags == FEDER
    again, said = h2.reclaim(h.tokens[0], "ann")
    assert [m["Type"] for m in said] == ["Seat", "Table", "Commit", "Snapshot", "Play"]
    assert said[1]["Flags"] == ["Feder"]
    assert said[-1] == asked
    snap = said[3]
    assert snap["Total"] == asked["Total"]
    assert snap["Hand"] == asked["Legal"]
    stored = played_out_and_stored(again, rng, store, 600)
    assert json.loads(stored.lines[0])["Flags"] == ["Feder"]
    replayed = list(replay(stored.lines))
    assert all(abs(p) <= 3 for r in replayed[:-1] for p in r["Points"])  # Feder: 1 a seat
    store.close()


# ----------------------------------------------------------------------------- bots


def view_at(total: int, hand: str, n: int = 3, played: str = "") -> Any:
    """The view of seat 1 to play at ``total``, holding ``hand``."""
    from hundred_server.games.hundert.rules import Phase, View

    cards = tuple(c1(c) for c in hand.split())
    return View(
        seat=1,
        num_players=n,
        phase=Phase.PLAY,
        round_index=0,
        dealer=0,
        to_act=1,
        hand=cards,
        hand_sizes=(len(cards),) * n,
        pile=(),
        played=tuple((0, c1(c)) for c in played.split()),
        total=total,
        scores=(0,) * n,
        feder=False,
        legal=tuple(PLAY_ACTIONS[c] for c in cards),
    )


def card_of(action: object) -> str:
    assert isinstance(action, Play)
    return action.card.code


def test_the_bot_makes_exactly_100_when_it_can():
    assert card_of(HundertBot().act(view_at(89, "7S AS TH"))) == "AS"
    assert card_of(HundertBot().act(view_at(96, "QS KH 7D"))) == "KH"


def test_when_every_card_goes_over_the_bot_overshoots_least():
    assert card_of(HundertBot().act(view_at(99, "AS JH TD QC"))) == "JH"


def test_the_bot_sheds_high_cards_early_and_keeps_the_low_ones():
    assert card_of(HundertBot().act(view_at(10, "7S AS 8H KD"))) == "AS"


def test_the_bot_leaves_no_gap_the_next_seat_may_close():
    # At 85, the ace would leave a gap of 4 (a king is out), the ten a gap of 5 (no card
    # is worth 5): it plays the ten.
    assert card_of(HundertBot().act(view_at(85, "AS TS 7H"))) == "TS"
    # At 86 the ten leaves 4 and the ace 3, both closable, the 7 a gap of 14: safe.
    assert card_of(HundertBot().act(view_at(86, "AS TS 7H"))) == "7H"


def test_bots_refuse_to_act_without_a_legal_action():
    from dataclasses import replace

    from hundred_server.protocol.errors import HundredError

    for bot in (HundertBot(), FirstBot()):
        with pytest.raises(HundredError):
            bot.act(replace(view_at(10, "AS"), legal=()))


class RandomBot:
    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Any) -> Any:
        return self.rng.choice(view.legal)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_the_bot_beats_random_play_clearly(n: int):
    games_ = 12
    balance = wins = 0
    for i in range(games_):
        seat = i % n
        bots: list[Any] = [RandomBot(f"{n}-{i}-{s}") for s in range(n)]
        bots[seat] = HundertBot()
        game = play_game(n, f"strength {n} {i}", bots, game="hundert")
        balance += game.scores[seat]
        wins += game.winner == seat
    # An even share would be a balance of 0 and games_ / n wins; over 2,000 games the bot
    # won 99% (2 players) to 60% (6 players) with +17 to +45 chips a game.
    assert balance > 5 * games_
    assert wins >= games_ // 2


def test_the_bots_choose_only_legal_cards_and_are_deterministic():
    for n in (2, 5):
        a = play_game(n, "det", [HundertBot()] * n, game="hundert")
        b = play_game(n, "det", [HundertBot()] * n, game="hundert")
        assert a.history == b.history
        first = play_game(n, "det", [FirstBot()] * n, game="hundert")
        assert first.is_over


# ------------------------------------------------------------------------- the spec


def test_the_spec():
    assert games.get("hundert") is SPEC
    assert (SPEC.name, SPEC.title, SPEC.seat_counts, SPEC.sides) == (
        "hundert",
        "Hundert",
        (2, 3, 4, 5, 6),
        None,
    )
    assert SPEC.flags == ("Feder",)
    assert SPEC.custom
    assert [(p.seats, p.ai_seats, p.flags) for p in SPEC.presets] == [
        (2, (1,), frozenset()),
        (3, (1, 2), frozenset()),
        (4, (1, 2, 3), frozenset()),
        (5, (1, 2, 3, 4), frozenset()),
        (6, (1, 2, 3, 4, 5), frozenset()),
        (4, (1, 2, 3), FEDER),
    ]
    assert SPEC.answer_types == {"Play"}
    assert SPEC.text is TEXT
    assert not SPEC.classic
    assert SPEC.new_game(NAMES[:3], "s", FEDER).flags == FEDER
    assert isinstance(SPEC.bot(), HundertBot)
    scored = play_game(3, "spec", game="hundert")
    assert all(isinstance(r, DealScored) for r in scored.deal_results)
