"""Pinochle on the wire (games/pinochle/wire.py): what each seat is told, the prompts,
the answers a client may give, and the snapshot.

Exact messages come from explicit deals: ``RULE_HANDS`` and the seed transcript's
three hands as completed in test_pinochle.py (``TRANSCRIPT``), whose lines, run
through the classic codec, must come out byte for byte as the seed's. Random seeded
games check what no single deal can: that every message is valid against
protocol.schema.json (the classic projection against its classic definitions), that
no seat is told a card it may not know, that ``Legal`` is the engine's, and that the
game ends with one ``GameOver`` score a seat.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server import games
from hundred_server.core import driver
from hundred_server.games.base import Preset
from hundred_server.games.kit.cards import Suit, format_cards
from hundred_server.games.pinochle.records import FORMAT
from hundred_server.games.pinochle.rules import (
    MAX_BID,
    Action,
    Bid,
    BidMade,
    Dealt,
    Event,
    Game,
    HandScored,
    Phase,
    Play,
    Trump,
    team_of,
)
from hundred_server.games.pinochle.wire import (
    SPEC,
    meld_message,
    prompt,
    snapshot,
    tell,
)
from hundred_server.protocol.codecs.classic import ClassicCodec
from hundred_server.protocol.errors import ClientError, IllegalActionError
from hundred_server.protocol.schema import load_schema, validate_server_message
from tests.games.pinochle.test_pinochle import (
    MELD_LINES,
    RULE_HANDS,
    TRANSCRIPT,
    bid_round,
    c1,
    cs,
    deck_for,
)
from tests.support.game_checks import prompts_now
from tests.support.protocol_examples import snapshot_before_the_deal

parse_action = SPEC.parse_action

PLAYERS = ("ann", "bob", "cy", "dee")
SEATS = range(4)
H, D, S, C = Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS
Message = dict[str, Any]


def codes(text: str) -> list[str]:
    return text.split()


def dealt() -> tuple[Game, list[Event]]:
    """A new game, RULE_HANDS dealt by seat 0: seat 1 bids first."""
    game = Game(PLAYERS)
    return game, game.deal(deck_for(RULE_HANDS, 0))


def to_tricks(bidder: int = 2, trump: Suit = H, amount: int = 25) -> tuple[Game, list[Event]]:
    """RULE_HANDS, ``bidder`` bids ``amount`` and names ``trump``: trick 1 is next."""
    game, _ = dealt()
    events = bid_round(game, {bidder: amount})
    events += game.apply(bidder, Trump(trump))
    return game, events


def told(events: list[Event]) -> dict[int, list[Message]]:
    return tell(events, SEATS, PLAYERS)


def wire(action: Action) -> object:
    """An action as ``Legal`` lists it."""
    if isinstance(action, Bid):
        return action.amount
    if isinstance(action, Trump):
        return action.suit.value
    return action.card.code


def answer(kind: str, legal: object) -> Message:
    """The answer that gives the ``Legal`` item ``legal`` of a ``kind`` prompt."""
    key = {"Bid": "Bid", "Trump": "Trump", "Play": "PlayedCard"}[kind]
    return {"Type": kind, key: legal}


@functools.cache
def classic_validator() -> Any:
    """protocol.schema.json's ClassicServerMessage: what the classic port sends."""
    root = {k: v for k, v in load_schema().items() if k != "anyOf"}
    return jsonschema.Draft202012Validator({**root, "$ref": "#/$defs/ClassicServerMessage"})


def validate_classic(msg: Message) -> None:
    classic_validator().validate(msg)


# ---------------------------------------------------------------- what each seat is told


def test_the_deal_tells_each_seat_its_own_sorted_hand_only():
    _, events = dealt()
    for seat, messages in told(events).items():
        assert messages == [
            {
                "Type": "Deal",
                "Playerid": seat,
                "Hand": codes(RULE_HANDS[seat]),
                "Dealer": 0,
                "Round": 1,
                "Players": list(PLAYERS),
            }
        ]
    assert tell([], SEATS, PLAYERS) == {s: [] for s in SEATS}


def test_bids_are_public_and_a_pass_is_bid_0():
    game, _ = dealt()
    events = bid_round(game, {2: 25})
    expected = [
        {"Type": "Bid", "Playerid": 1, "Bid": 0},
        {"Type": "Bid", "Playerid": 2, "Bid": 25},
        {"Type": "Bid", "Playerid": 3, "Bid": 0},
        {"Type": "Bid", "Playerid": 0, "Bid": 0},
    ]
    messages = told(events)
    for seat in SEATS:
        assert messages[seat] == expected
        # public messages are one object for everyone, so the server encodes them once
        assert all(a is b for a, b in zip(messages[seat], messages[0], strict=True))


def test_when_everyone_passes_the_dealer_is_told_to_name_trump_at_20():
    game, _ = dealt()
    events = bid_round(game, {})
    messages = told(events)
    assert messages[2][-1] == {
        "Type": "Message",
        "Message": "Everyone passed: Player 0 (ann) dealt and is the bidder at 20",
    }
    assert [m["Bid"] for m in messages[2] if m["Type"] == "Bid"] == [0, 0, 0, 0]
    assert prompt(game, 0, 5) == {
        "Type": "Trump",
        "Playerid": 0,
        "Seq": 5,
        "Legal": ["D", "C", "H", "S"],
    }
    assert prompt(game, 1, 5) == {"Type": "Trump", "Playerid": 0, "Seq": 5}


def test_trump_and_every_seats_meld_are_told_to_all_in_seat_order():
    # The transcript's first hand: hearts, and its four meld lines (MELD_LINES[0:4]).
    game, _ = dealt()
    bid_round(game, {2: 25})
    messages = told(game.apply(2, Trump(H)))
    melds = [
        meld_message(seat, amount, cs(shown))
        for seat, (_, _, shown, amount) in enumerate(MELD_LINES[:4])
    ]
    assert melds[0] == {"Type": "Meld", "Playerid": 0, "Hand": [], "Amount": 0}
    assert melds[2] == {
        "Type": "Meld",
        "Playerid": 2,
        "Hand": codes("JD JC JH 9H KS QS JS"),
        "Amount": 11,
    }
    for seat in SEATS:
        assert messages[seat] == [{"Type": "Trump", "Playerid": 2, "Trump": "H"}, *melds]


def test_a_card_played_and_a_trick_won():
    game, _ = to_tricks()
    events = []
    for seat, card in [(2, "AD"), (3, "TD"), (0, "KD"), (1, "QD")]:
        events += game.apply(seat, Play(c1(card)))
    assert told(events)[0] == [
        {"Type": "Play", "Playerid": 2, "PlayedCard": "AD"},
        {"Type": "Play", "Playerid": 3, "PlayedCard": "TD"},
        {"Type": "Play", "Playerid": 0, "PlayedCard": "KD"},
        {"Type": "Play", "Playerid": 1, "PlayedCard": "QD"},
        {"Type": "Trick", "Playerid": 2, "WinningCard": "AD", "Trick": 1, "Points": 3},
        {"Type": "Message", "Message": "Player 2 wins trick #1 with AD for 3 points"},
    ]


# ---------------------------------------------------------------- prompts


def test_the_bid_prompt_lists_pass_and_every_bid_above_the_high_bid():
    game, _ = dealt()
    game.apply(1, Bid(0))
    game.apply(2, Bid(25))
    assert prompt(game, 3, 3) == {
        "Type": "Bid",
        "Playerid": 3,
        "Seq": 3,
        "Legal": [0, *range(26, MAX_BID + 1)],
    }
    assert prompt(game, 0, 3) == {"Type": "Bid", "Playerid": 3, "Seq": 3}
    assert prompt(game, None, 3) == {"Type": "Bid", "Playerid": 3, "Seq": 3}
    fresh, _ = dealt()
    assert prompt(fresh, 1, 1)["Legal"] == [0, *range(20, MAX_BID + 1)]


def test_the_play_prompt_says_trump_then_lead_and_the_winning_card():
    game, _ = to_tricks()
    assert prompt(game, None, 9) == {"Type": "Play", "Playerid": 2, "Seq": 9, "Trump": "H"}
    assert prompt(game, 2, 9)["Legal"] == codes("AD JD JC 9C AH KH JH 9H KS QS JS")
    game.apply(2, Play(c1("AD")))
    game.apply(3, Play(c1("TD")))
    # seat 0 holds diamonds, none above the AD: any diamond, each card once
    assert prompt(game, 0, 10) == {
        "Type": "Play",
        "Playerid": 0,
        "Seq": 10,
        "Trump": "H",
        "Lead": "D",
        "WinningCard": "AD",
        "Legal": codes("AD KD JD 9D"),
    }


def test_nobody_is_prompted_before_the_deal_or_after_the_game():
    game = Game(PLAYERS)
    assert all(prompt(game, s, 1) is None for s in (None, *SEATS))
    play_transcript(game, ignore)
    assert game.is_over
    assert all(prompt(game, s, 1) is None for s in (None, *SEATS))


# ---------------------------------------------------------------- the seed transcript


def play_transcript(
    game: Game,
    told_: Callable[[list[Event]], None],
    before: Callable[[int, int, Action], None] | None = None,
) -> None:
    """The transcript's three hands (test_pinochle.TRANSCRIPT): each hand's deal and
    moves (seat 0's plays as listed, the AI's first legal card), handing the events of
    each to ``told_``; ``before(hand, seat, action)`` is called before each move."""
    for hand, spec in enumerate(TRANSCRIPT):
        told_(game.deal(deck_for(spec.hands, game.dealer)))
        seat0 = iter(cs(spec.seat0))
        while not (game.needs_deal or game.is_over):
            seat = game.to_act
            assert seat is not None
            action: Action
            if game.phase is Phase.BIDDING:
                action = Bid(spec.bids.get(seat, 0))
            elif game.phase is Phase.TRUMP:
                action = Trump(spec.trump)
            elif seat == 0:
                action = Play(next(seat0))
            else:
                action = game.legal_actions(seat)[0]
            if before is not None:
                before(hand, seat, action)
            told_(game.apply(seat, action))


def ignore(events: list[Event]) -> None:
    pass


# The seed transcript's game (seeds/pinochle-server-protocol.txt), verbatim from the
# first deal to the final score; "<snip>" stands for the seed's snipped stretches, and
# its two commentary lines are left out.
SEED_GAME = """
--> {"Hand":["AD","KD","KD","JD","9D","JC","TH","KH","TS","TS","JS","9S"],"Playerid":0,"Type":"Deal"}
--> {"Playerid":1,"Type":"Bid"}
--> {"Bid":25,"Playerid":2,"Type":"Bid"}
--> {"Playerid":3,"Type":"Bid"}
--> {"Playerid":0,"Type":"Bid"}
<-- {"Playerid":0,"Type":"Bid"}
--> {"Playerid":2,"Trump":"H","Type":"Trump"}
--> {"Hand":[],"Playerid":0,"Type":"Meld"}
--> {"Amount":1,"Hand":["9H"],"Playerid":1,"Type":"Meld"}
--> {"Amount":11,"Hand":["JD","JC","JH","9H","KS","QS","JS"],"Playerid":2,"Type":"Meld"}
--> {"Amount":4,"Hand":["KC","KC","QC","QC"],"Playerid":3,"Type":"Meld"}
--> {"PlayedCard":"AD","Playerid":2,"Type":"Play"}
--> {"PlayedCard":"TD","Playerid":3,"Type":"Play"}
--> {"Lead":"D","Playerid":0,"Trump":"H","Type":"Play","WinningCard":"AD"}
<-- {"PlayedCard":"KD","Playerid":0,"Type":"Play"}
--> {"PlayedCard":"QD","Playerid":1,"Type":"Play"}
--> {"Message":"Player 2 wins trick #1 with AD for 3 points","Type":"Message"}
<snip>
<-- {"PlayedCard":"KD","Playerid":0,"Type":"Play"}
--> {"PlayedCard":"TH","Playerid":1,"Type":"Play"}
--> {"PlayedCard":"KH","Playerid":2,"Type":"Play"}
--> {"PlayedCard":"JH","Playerid":3,"Type":"Play"}
--> {"Message":"Player 1 wins trick #6 with TH for 3 points","Type":"Message"}
--> {"PlayedCard":"TC","Playerid":1,"Type":"Play"}
--> {"PlayedCard":"JH","Playerid":2,"Type":"Play"}
--> {"PlayedCard":"KC","Playerid":3,"Type":"Play"}
--> {"Lead":"C","Playerid":0,"Trump":"H","Type":"Play","WinningCard":"JH"}
<-- {"PlayedCard":"JD","Playerid":0,"Type":"Play"}
--> {"Lead":"C","Playerid":0,"Trump":"H","Type":"Play","WinningCard":"JH"}
<-- {"PlayedCard":"TH","Playerid":0,"Type":"Play"}
--> {"Message":"Player 0 wins trick #7 with TH for 3 points","Type":"Message"}
<snip>
--> {"PlayedCard":"9H","Playerid":1,"Type":"Play"}
--> {"PlayedCard":"JS","Playerid":2,"Type":"Play"}
--> {"PlayedCard":"9S","Playerid":3,"Type":"Play"}
--> {"Lead":"H","Playerid":0,"Trump":"H","Type":"Play","WinningCard":"9H"}
<-- {"PlayedCard":"TS","Playerid":0,"Type":"Play"}
--> {"Message":"Player 1 wins trick #12 with 9H for 2 points","Type":"Message"}
--> {"Message":"Scores are now Team0 = -25 to Team1 = 19, played 1 hands","Type":"Message"}
--> {"Score":[-25,19],"Type":"Score"}
--> {"Hand":["9D","AC","TC","KC","QC","QC","JC","KH","JH","9H","9H","JS"],"Playerid":0,"Type":"Deal"}
--> {"Playerid":2,"Type":"Bid"}
--> {"Bid":29,"Playerid":3,"Type":"Bid"}
--> {"Playerid":0,"Type":"Bid"}
<-- {"Playerid":0,"Type":"Bid"}
--> {"Playerid":1,"Type":"Bid"}
--> {"Playerid":3,"Trump":"C","Type":"Trump"}
--> {"Amount":15,"Hand":["AC","TC","KC","QC","JC"],"Playerid":0,"Type":"Meld"}
--> {"Amount":1,"Hand":["9C"],"Playerid":1,"Type":"Meld"}
--> {"Hand":[],"Playerid":2,"Type":"Meld"}
--> {"Amount":11,"Hand":["AD","AC","9C","AH","AS"],"Playerid":3,"Type":"Meld"}
--> {"PlayedCard":"AD","Playerid":3,"Type":"Play"}
--> {"Lead":"D","Playerid":0,"Trump":"C","Type":"Play","WinningCard":"AD"}
<-- {"PlayedCard":"9D","Playerid":0,"Type":"Play"}
--> {"PlayedCard":"QD","Playerid":1,"Type":"Play"}
--> {"PlayedCard":"AD","Playerid":2,"Type":"Play"}
--> {"Message":"Player 3 wins trick #1 with AD for 2 points","Type":"Message"}
<snip>
<-- {"PlayedCard":"QC","Playerid":0,"Type":"Play"}
--> {"PlayedCard":"9S","Playerid":1,"Type":"Play"}
--> {"PlayedCard":"9S","Playerid":2,"Type":"Play"}
--> {"PlayedCard":"QS","Playerid":3,"Type":"Play"}
--> {"Message":"Player 0 wins trick #12 with QC for 1 points","Type":"Message"}
--> {"Message":"Scores are now Team0 = 3 to Team1 = -10, played 2 hands","Type":"Message"}
--> {"Score":[3,-10],"Type":"Score"}
--> {"Hand":["TD","9D","AC","9C","9C","AH","KH","QH","9H","QS","9S","9S"],"Playerid":0,"Type":"Deal"}
--> {"Bid":22,"Playerid":3,"Type":"Bid"}
--> {"Playerid":0,"Type":"Bid"}
<-- {"Playerid":0,"Type":"Bid"}
--> {"Bid":45,"Playerid":1,"Type":"Bid"}
--> {"Playerid":2,"Type":"Bid"}
--> {"Playerid":1,"Trump":"C","Type":"Trump"}
--> {"Amount":4,"Hand":["9C","9C","KH","QH"],"Playerid":0,"Type":"Meld"}
--> {"Amount":25,"Hand":["AD","AC","TC","KC","QC","JC","AH","AS"],"Playerid":1,"Type":"Meld"}
--> {"Amount":6,"Hand":["JD","KS","QS"],"Playerid":2,"Type":"Meld"}
--> {"Amount":4,"Hand":["KD","KD","QD","QD"],"Playerid":3,"Type":"Meld"}
<snip>
--> {"PlayedCard":"9D","Playerid":3,"Type":"Play"}
--> {"Lead":"D","Playerid":0,"Trump":"C","Type":"Play","WinningCard":"9D"}
<-- {"PlayedCard":"KH","Playerid":0,"Type":"Play"}
--> {"PlayedCard":"JS","Playerid":1,"Type":"Play"}
--> {"PlayedCard":"QS","Playerid":2,"Type":"Play"}
--> {"Message":"Player 3 wins trick #12 with 9D for 2 points","Type":"Message"}
--> {"Message":"Scores are now Team0 = 24 to Team1 = -55, played 3 hands","Type":"Message"}
--> {"Message":"Team0 wins with a score of 24!","Type":"Message"}
--> {"GameOver":true,"Score":[24,-55],"Type":"Score","Win":true}
"""  # noqa: E501
SEED_CHUNKS = [chunk.strip().splitlines() for chunk in SEED_GAME.split("<snip>")]


def classic_line(msg: Message) -> str:
    return json.dumps(msg, sort_keys=True, separators=(",", ":"))


def seat0_on_the_classic_port() -> list[str]:
    """The transcript's game as seat 0's classic connection sees it: every message the
    wire module makes for seat 0 (the prompt after each move; again after the refused
    JD of hand 1, trick 7, as the table sends it) through the classic codec, with seat
    0's answers where it gives them."""
    game = Game(PLAYERS)
    codec = ClassicCodec()
    lines: list[str] = []
    asked: list[Message] = []

    def send(msg: Message) -> None:
        lines.extend("--> " + line for line in codec.encode(msg).decode().splitlines())

    def told_(events: list[Event]) -> None:
        for msg in tell(events, [0], PLAYERS)[0]:
            send(msg)
        ask = prompt(game, 0, len(asked) + 1)
        if ask is not None:
            asked.append(ask)
            send(ask)

    def before(hand: int, seat: int, action: Action) -> None:
        if seat != 0:
            return
        if hand == 0 and isinstance(action, Play) and len(game.tricks) == 6:
            lines.append("<-- " + classic_line(_answer_of(Play(c1("JD")))))
            send(asked[-1])  # after the table's Error, which the classic port leaves out
        lines.append("<-- " + classic_line(_answer_of(action)))

    play_transcript(game, told_, before)
    return lines


def _answer_of(action: Action) -> Message:
    """Seat 0's answer as the seed's client writes it (a pass has no Bid)."""
    if isinstance(action, Bid):
        return {"Type": "Bid", "Playerid": 0, **({"Bid": action.amount} if action.amount else {})}
    if isinstance(action, Trump):
        return {"Type": "Trump", "Playerid": 0, "Trump": action.suit.value}
    return {"Type": "Play", "Playerid": 0, "PlayedCard": action.card.code}


def test_the_seed_transcript_comes_out_byte_for_byte_on_the_classic_port():
    lines = seat0_on_the_classic_port()
    at = 0
    for chunk in SEED_CHUNKS:
        found = next(
            (
                i
                for i in range(at, len(lines) - len(chunk) + 1)
                if lines[i : i + len(chunk)] == chunk
            ),
            None,
        )
        assert found is not None, f"not found in order: {chunk[0]} ... {chunk[-1]}"
        at = found + len(chunk)
    assert lines[-1] == SEED_CHUNKS[-1][-1]  # nothing after the game-over score
    assert lines[0] == SEED_CHUNKS[0][0]  # nothing before the first deal


def test_the_hand_score_and_at_the_end_the_game_over_score_in_its_place():
    game = Game(PLAYERS)
    streams: dict[int, list[Message]] = {s: [] for s in SEATS}

    def told_(events: list[Event]) -> None:
        for seat, messages in told(events).items():
            streams[seat] += messages

    play_transcript(game, told_)
    scores = [m for m in streams[1] if m["Type"] == "Score"]
    assert scores[0] == {
        "Type": "Score",
        "Round": 1,
        "Bidder": 2,
        "Bid": 25,
        "Made": False,
        "Meld": [11, 5],
        "Counters": [11, 14],
        "Points": [-25, 19],
        "Score": [-25, 19],
    }
    assert scores[1]["Score"] == [3, -10]
    assert scores[2] == {
        "Type": "Score",
        "Round": 3,
        "Bidder": 1,
        "Bid": 45,
        "Made": False,
        "Meld": [10, 29],
        "Counters": [11, 14],
        "Points": [21, -45],
        "Score": [24, -55],
        "GameOver": True,
        "Winner": 0,
        "Win": False,
    }
    assert len(scores) == 3  # the last hand's own Score is not sent
    for seat in SEATS:
        tail = streams[seat][-4:]
        assert tail[:3] == [
            {"Type": "Message", "Message": "Player 3 wins trick #12 with 9D for 2 points"},
            {
                "Type": "Message",
                "Message": "Scores are now Team0 = 24 to Team1 = -55, played 3 hands",
            },
            {"Type": "Message", "Message": "Team0 wins with a score of 24!"},
        ]
        assert tail[3] == {**scores[2], "Win": team_of(seat) == 0}
    assert SPEC.result(game) == {
        "Winner": 0,
        "Score": [24, -55],
        "Text": "Team0 wins with a score of 24 to -55",
    }


# ---------------------------------------------------------------- random games

CARD_CODE = re.compile(r"\b[9TJQKA][SHDC]\b")


def card_codes(msg: Message) -> set[str]:
    """Every card code anywhere in a message, its text included."""
    return set(CARD_CODE.findall(json.dumps(msg)))


class Knowledge:
    """What one seat may know of the hand under way: its own cards, and the cards
    shown in a meld or played; built from the engine's truth as messages arrive."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.own: set[str] = set()
        self.shown: set[str] = set()

    def read(self, msg: Message, game: Game, dealt: Dealt | None) -> None:
        kind = msg["Type"]
        if kind == "Deal":
            assert dealt is not None
            assert msg["Playerid"] == self.seat, "a seat is dealt only its own hand"
            assert msg["Hand"] == format_cards(dealt.hands[self.seat])
            self.own, self.shown = set(msg["Hand"]), set()
        elif kind == "Meld":
            self.shown |= set(msg["Hand"])
        elif kind == "Play" and "PlayedCard" in msg:
            self.shown.add(msg["PlayedCard"])
        self.check(msg)

    def check(self, msg: Message) -> None:
        leaked = card_codes(msg) - self.own - self.shown
        assert not leaked, (self.seat, msg)


class Checked:
    """Validates each distinct message once (by content: the same prompt goes to
    three seats), and each seat's classic codec's lines against the classic port's
    definitions."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.seen_classic: set[bytes] = set()
        self.codecs = [ClassicCodec() for _ in SEATS]
        self.classic: list[list[Message]] = [[] for _ in SEATS]

    def __call__(self, msg: Message, seat: int | None = None) -> None:
        text = json.dumps(msg, sort_keys=True)
        if text not in self.seen:
            validate_server_message(msg)
            self.seen.add(text)
        if seat is None:
            return
        for line in self.codecs[seat].encode(msg).splitlines():
            shown = json.loads(line)
            if line not in self.seen_classic:
                assert line == classic_line(shown).encode()  # sorted keys, compact
                validate_classic(shown)
                self.seen_classic.add(line)
            self.classic[seat].append(shown)


def choose(game: Game, rng: random.Random) -> Action:
    """A random legal action; bids mostly pass or stay low, so games last some hands
    and now and then everyone passes."""
    seat = game.to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    if game.phase is Phase.BIDDING:
        return legal[0] if rng.random() < 0.5 else rng.choice(legal[1:6])
    return rng.choice(legal)


def check_snapshot(game: Game, seat: int, knowledge: Knowledge, checked: Checked) -> None:
    msg = snapshot(game, seat, 7)
    checked(msg)
    knowledge.check(msg)
    view = game.view_for(seat)
    assert msg["Table"] == 7
    assert (msg["Playerid"], msg["Players"]) == (seat, list(PLAYERS))
    assert (msg["Round"], msg["Dealer"], msg["Phase"]) == (
        view.hand_index + 1,
        view.dealer,
        view.phase.value,
    )
    assert msg["Hand"] == format_cards(view.hand) == format_cards(game.hand(seat))
    assert msg["Score"] == list(view.scores)
    assert msg["Bids"] == [{"Playerid": s, "Bid": a} for s, a in view.bids]
    assert msg.get("Bidder") == view.bidder
    assert msg.get("Bid") == view.bid
    assert msg.get("Trump") == (None if view.trump is None else view.trump.value)
    assert msg["Meld"] == [
        {"Playerid": s, "Hand": format_cards(cards), "Amount": amount}
        for s, (amount, cards) in enumerate(view.melds)
    ]
    assert msg["Tricks"] == len(view.tricks)
    assert msg["Counters"] == list(view.counters)
    assert msg["Trick"] == [{"Playerid": s, "PlayedCard": c.code} for s, c in view.current_trick]


@settings(max_examples=5, deadline=None)
@given(seed=st.text(max_size=6), choices=st.integers(0, 2**32 - 1))
def test_random_games_tell_no_secrets_legal_is_the_engines_and_all_is_in_the_schema(
    seed: str, choices: int
) -> None:
    rng = random.Random(choices)
    game = SPEC.new_game(PLAYERS, seed)
    no_bots = [None] * len(SEATS)
    knowledge = [Knowledge(s) for s in SEATS]
    checked = Checked()
    streams: dict[int, list[Message]] = {s: [] for s in SEATS}
    bids: list[tuple[int, int]] = []
    scored: list[HandScored] = []
    events: list[Event] = driver.advance(game, SPEC, seed, no_bots)  # the first deal
    seq = 0
    while True:
        bids += [(e.seat, e.amount) for e in events if isinstance(e, BidMade)]
        scored += [e for e in events if isinstance(e, HandScored)]
        deal = next((e for e in events if isinstance(e, Dealt)), None)
        messages = told(events)
        for seat in SEATS:
            for msg in messages[seat]:
                checked(msg, seat)
                knowledge[seat].read(msg, game, deal)
            streams[seat] += messages[seat]
        # Everyone is told the same, but for their own Deal and final Score.
        public = [
            [m for m in messages[s] if m["Type"] != "Deal" and not m.get("GameOver")] for s in SEATS
        ]
        assert public[1:] == public[:1] * 3
        if game.is_over:
            break
        seq += 1

        def check(msg: Message, seat: int | None) -> None:
            checked(msg, seat)
            if seat is not None:
                knowledge[seat].check(msg)

        def legal(seat: int) -> list[object]:
            return [wire(a) for a in game.legal_actions(seat)]

        actor, asked = prompts_now(game, prompt, seq, check, legal)
        answers = [parse_action(answer(asked["Type"], v)) for v in asked["Legal"]]
        assert answers == list(game.legal_actions(actor))
        if rng.random() < 0.1:
            seat = rng.randrange(4)
            check_snapshot(game, seat, knowledge[seat], checked)
        events = game.apply(actor, choose(game, rng))
        events += driver.advance(game, SPEC, seed, no_bots)  # the next hand's deal

    # Every bid and pass was announced with its amount: a pass is "Bid":0.
    for seat in SEATS:
        told_bids = [(m["Playerid"], m["Bid"]) for m in streams[seat] if m["Type"] == "Bid"]
        assert told_bids == bids
    # One Score a hand; the last one is the GameOver Score, one a seat.
    assert game.winner is not None
    hands = len(scored)
    for seat in SEATS:
        scores = [m for m in streams[seat] if m["Type"] == "Score"]
        assert len(scores) == hands
        assert [m.get("GameOver", False) for m in scores] == [False] * (hands - 1) + [True]
        final = scores[-1]
        assert final["Winner"] == game.winner
        assert final["Win"] is (team_of(seat) == game.winner)
        assert final["Score"] == list(game.scores)
        assert (final["Round"], final["Bidder"], final["Made"]) == (
            hands,
            scored[-1].bidder,
            scored[-1].made,
        )
        texts = [m["Message"] for m in streams[seat] if m["Type"] == "Message"]
        assert sum(t.startswith("Scores are now") for t in texts) == hands
        winner = game.winner
        assert texts[-1] == f"Team{winner} wins with a score of {game.scores[winner]}!"
        # the classic port: the same scores, Win only for the winners
        classic = [m for m in checked.classic[seat] if m["Type"] == "Score"]
        assert [m["Score"] for m in classic] == [m["Score"] for m in scores]
        assert classic[-1].get("Win", False) is final["Win"]
    if rng.random() < 0.5:
        seat = rng.randrange(4)
        check_snapshot(game, seat, knowledge[seat], checked)


def test_snapshots_of_the_deal_phase_and_of_a_finished_game_are_valid():
    game = Game(PLAYERS)
    first = snapshot(game, 3, 1)
    assert first == {
        **snapshot_before_the_deal(1, 3, PLAYERS),
        "Bids": [],
        "Meld": [],
        "Tricks": 0,
        "Counters": [0, 0],
        "Trick": [],
    }
    validate_server_message(first)
    play_transcript(game, ignore)
    last = snapshot(game, 0, 1)
    validate_server_message(last)
    assert (last["Phase"], last["Score"], last["Tricks"], last["Hand"]) == (
        "game_over",
        [24, -55],
        12,
        [],
    )


def test_a_snapshot_holds_what_the_seat_knows():
    game, _ = to_tricks()
    game.apply(2, Play(c1("AD")))
    game.apply(3, Play(c1("TD")))
    msg = snapshot(game, 0, 7)
    validate_server_message(msg)
    assert msg == {
        "Type": "Snapshot",
        "Table": 7,
        "Playerid": 0,
        "Players": list(PLAYERS),
        "Round": 1,
        "Dealer": 0,
        "Phase": "tricks",
        "Hand": codes(RULE_HANDS[0]),
        "Score": [0, 0],
        "Bids": [
            {"Playerid": 1, "Bid": 0},
            {"Playerid": 2, "Bid": 25},
            {"Playerid": 3, "Bid": 0},
            {"Playerid": 0, "Bid": 0},
        ],
        "Bidder": 2,
        "Bid": 25,
        "Trump": "H",
        "Meld": [
            {"Playerid": 0, "Hand": [], "Amount": 0},
            {"Playerid": 1, "Hand": ["9H"], "Amount": 1},
            {"Playerid": 2, "Hand": codes("JD JC JH 9H KS QS JS"), "Amount": 11},
            {"Playerid": 3, "Hand": codes("KC KC QC QC"), "Amount": 4},
        ],
        "Tricks": 0,
        "Counters": [0, 0],
        "Trick": [{"Playerid": 2, "PlayedCard": "AD"}, {"Playerid": 3, "PlayedCard": "TD"}],
    }
    # another seat's snapshot differs only by what is its own
    other = snapshot(game, 1, 7)
    assert {k for k in msg if msg[k] != other[k]} == {"Playerid", "Hand"}
    assert other["Hand"] == format_cards(game.hand(1))


# ---------------------------------------------------------------- answers


@pytest.mark.parametrize(
    ("msg", "action"),
    [
        ({"Type": "Bid"}, Bid(0)),  # the seed's client passes so
        ({"Type": "Bid", "Playerid": 0}, Bid(0)),
        ({"Type": "Bid", "Bid": None}, Bid(0)),
        ({"Type": "Bid", "Bid": 0}, Bid(0)),
        ({"Type": "Bid", "Bid": 20, "Seq": 3}, Bid(20)),
        ({"Type": "Bid", "Bid": 250}, Bid(250)),
        ({"Type": "Trump", "Trump": "H"}, Trump(H)),
        ({"Type": "Trump", "Trump": "s"}, Trump(S)),
        ({"Type": "Trump", "Trump": "clubs"}, Trump(C)),
        ({"Type": "Play", "PlayedCard": "AD"}, Play(c1("AD"))),
        ({"Type": "Play", "PlayedCard": "10h"}, Play(c1("TH"))),
        ({"Type": "Play", "PlayedCard": "qs"}, Play(c1("QS"))),
    ],
)
def test_parse_action_reads_an_answer(msg: Message, action: Action) -> None:
    assert parse_action(msg) == action


@pytest.mark.parametrize(
    ("msg", "code", "quoted"),
    [
        ({"Type": "Bid", "Bid": 19}, "illegal_bid", "19"),
        ({"Type": "Bid", "Bid": 15}, "illegal_bid", "15"),
        ({"Type": "Bid", "Bid": 251}, "illegal_bid", "251"),
        ({"Type": "Bid", "Bid": -20}, "illegal_bid", "-20"),
        ({"Type": "Bid", "Bid": "20"}, "bad_message", '"20"'),
        ({"Type": "Bid", "Bid": True}, "bad_message", "true"),
        ({"Type": "Bid", "Bid": 20.5}, "bad_message", "20.5"),
        ({"Type": "Trump", "Trump": "X"}, "bad_suit", "X"),
        ({"Type": "Trump", "Trump": 1}, "bad_message", "1"),
        ({"Type": "Trump"}, "bad_message", "Trump"),
        ({"Type": "Play", "PlayedCard": "9Z"}, "bad_card", "9Z"),
        ({"Type": "Play", "PlayedCard": ["AD"]}, "bad_message", '["AD"]'),
        ({"Type": "Play"}, "bad_message", "PlayedCard"),
        ({"Type": "Discard", "Cards": []}, "unknown_type", '"Discard"'),
        ({"Type": "Unpass"}, "unknown_type", '"Unpass"'),
    ],
)
def test_parse_action_errors(msg: Message, code: str, quoted: str) -> None:
    with pytest.raises(ClientError) as info:
        parse_action(msg)
    assert info.value.code == code
    assert quoted in info.value.message


@pytest.mark.parametrize(
    ("answer_", "code"),
    [
        ({"Type": "Play", "PlayedCard": "2S"}, "not_in_hand"),  # a card, not a Pinochle one
        ({"Type": "Play", "PlayedCard": "QS"}, "not_in_hand"),
        ({"Type": "Play", "PlayedCard": "JC"}, "must_follow_suit"),
        ({"Type": "Bid", "Bid": 20}, "wrong_phase"),
    ],
)
def test_answers_the_engine_refuses(answer_: Message, code: str) -> None:
    # Seat 0, AD led and TD followed: it holds diamonds (AD KD KD JD 9D), none above AD.
    game, _ = to_tricks()
    game.apply(2, Play(c1("AD")))
    game.apply(3, Play(c1("TD")))
    with pytest.raises(IllegalActionError) as info:
        game.apply(0, parse_action(answer_))
    assert info.value.code == code


def test_must_beat_and_must_trump_are_what_a_client_gets_for_such_answers():
    # RULE_HANDS, seat 0 bids and names hearts, and leads JC.
    game, _ = to_tricks(bidder=0)
    game.apply(0, Play(c1("JC")))
    # seat 1 (AC AC TC 9C in clubs) must beat the JC
    assert prompt(game, 1, 1)["Legal"] == ["AC", "TC"]
    with pytest.raises(IllegalActionError) as info:
        game.apply(1, parse_action({"Type": "Play", "PlayedCard": "9C"}))
    assert info.value.code == "must_beat"
    for seat, card in [(1, "AC"), (2, "9C"), (3, "QC"), (1, "AC"), (2, "JC"), (3, "QC")]:
        game.apply(seat, Play(c1(card)))
    # seat 0 has no club left but holds trumps (TH KH): it must trump
    assert prompt(game, 0, 2)["Legal"] == ["TH", "KH"]
    with pytest.raises(IllegalActionError) as info:
        game.apply(0, parse_action({"Type": "Play", "PlayedCard": "AD"}))
    assert info.value.code == "must_trump"


# ---------------------------------------------------------------- the spec


def test_the_spec():
    assert SPEC.name == "pinochle"
    assert SPEC.title == "Pinochle"
    assert SPEC.seat_counts == (4,)
    assert SPEC.sides == (0, 1, 0, 1)
    assert SPEC.classic is True
    assert SPEC.answer_types == frozenset({"Bid", "Trump", "Play"})
    assert (SPEC.wire.prompt, SPEC.wire.tell, SPEC.wire.snapshot) == (prompt, tell, snapshot)
    assert SPEC.records is FORMAT
    teams = (0, 1, 0, 1)
    assert SPEC.presets == (
        Preset("Play against three AI players and start immediately", 4, (1, 2, 3), teams),
        Preset("Play with a human partner against two AI players", 4, (1, 3), teams),
        Preset("Play with a human partner against one AI players and 1 Human", 4, (1,), teams),
        Preset("Play with a human partner against two humans", 4, (), teams),
        Preset("Play against a human with AI partners", 4, (2, 3), teams),
    )
    assert games.get("pinochle") is SPEC
