"""Hundert on the wire, as types: the messages only this game sends or reads, and
what it adds to the generic ones (protocol/declare.py says how; protocol.md is the
contract). ``MESSAGES`` is what ``protocol.schema.json`` is generated from.
"""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from hundred_server.protocol.declare import Contribution, Definition, Value, Variant, ref, shape
from hundred_server.protocol.message_values import (
    PlayerName,
    Scores,
    Seat,
    SeatView,
    Seq,
    TableId,
    TimeLeft,
)
from hundred_server.protocol.play_messages import seat_snapshot


class HundertCard(
    Value, schema={"type": "string", "pattern": "^[7-9TJQKA][SHDC]$", "maxLength": 2}
):
    """A Hundert card: rank 7-9 T J Q K A then suit S H D C (32 cards, each once)."""


class HundertHand(
    Value,
    schema={
        "type": "array",
        "items": ref(HundertCard),
        "minItems": 5,
        "maxItems": 16,
        "uniqueItems": True,
    },
):
    """A Hundert hand as dealt: floor(32 / players) distinct cards (16 for two players, 10, 8, 6, 5
    for six).
    """


class HundertTotal(Value, schema={"type": "integer", "minimum": 0, "maximum": 110}):
    """A Hundert deal's running total: the pile's points plus every card played (A 11, T 10, K 4, Q
    3, J 2); a deal ends at 100 or more, so at most 99 + 11.
    """


class HundertPile(TypedDict):
    """--> To everyone, right after each seat's Deal: the cards left over (32 mod players, face up;
    [] for 2 or 4 players) and their points, the total the deal starts at.
    """

    Type: Literal["Pile"]
    Cards: Annotated[list[str], {"items": ref(HundertCard), "maxItems": 2, "uniqueItems": True}]
    Total: Annotated[int, {"minimum": 0, "maximum": 22}]


class HundertPlayPrompt(TypedDict):
    """--> Hundert prompt to every seat: seat Playerid must play a card; Total is the running total
    (below 100). Only that seat's copy carries Legal: every card of its hand.
    """

    Type: Literal["Play"]
    Playerid: Annotated[int, Seat]
    Seq: Annotated[int, Seq]
    Total: Annotated[int, {"minimum": 0, "maximum": 99}]
    Legal: NotRequired[
        Annotated[
            list[str],
            {"items": ref(HundertCard), "minItems": 1, "maxItems": 16, "uniqueItems": True},
        ]
    ]
    TimeLeft: NotRequired[Annotated[float, TimeLeft]]
    View: NotRequired[Annotated[dict[str, Any], SeatView]]


class HundertPlayAnnouncement(TypedDict):
    """--> To everyone at a Hundert table: seat Playerid played PlayedCard, and Total is the new
    running total.
    """

    Type: Literal["Play"]
    Playerid: Annotated[int, Seat]
    PlayedCard: Annotated[str, HundertCard]
    Total: Annotated[int, HundertTotal]


class HundertDealScore(TypedDict):
    """--> To everyone: a Hundert deal ended. Round (the deal, from 1); Playerid, the seat that
    took the total to Total (100 or more); Points, the chips each seat won (+) or paid (-) this
    deal (they sum to 0); Score, the chip balances by seat.
    """

    Type: Literal["Score"]
    Round: Annotated[int, {"minimum": 1}]
    Playerid: Annotated[int, Seat]
    Total: Annotated[int, {"minimum": 100, "maximum": 110}]
    Points: Annotated[list[int], Scores]
    Score: Annotated[list[int], Scores]


class HundertCardPlayed(TypedDict):
    """One card of the trick under way, as a HundertSnapshot lists them."""

    Playerid: Annotated[int, Seat]
    PlayedCard: Annotated[str, HundertCard]


class HundertSnapshot(TypedDict):
    """--> Private, after taking a seat back at a Hundert table: the game as your seat knows it.
    Round (the deal, from 1), Dealer, Phase (play; deal while a deal waits for its deck), your
    Hand, Score (chip balances by seat), Pile (the leftovers, face up), Played (this deal's
    cards in order) and Total (the running total). A watcher's snapshot has neither Playerid nor
    Hand (nor Discarded): only what every seat is told alike.
    """

    Type: Literal["Snapshot"]
    Table: Annotated[int, TableId]
    Playerid: NotRequired[Annotated[int, Seat]]
    Players: Annotated[list[str], {"items": ref(PlayerName), "minItems": 2, "maxItems": 6}]
    Round: Annotated[int, {"minimum": 1}]
    Dealer: Annotated[int, Seat]
    Phase: Literal["deal", "play", "game_over"]
    Hand: NotRequired[
        Annotated[list[str], {"items": ref(HundertCard), "maxItems": 16, "uniqueItems": True}]
    ]
    Score: Annotated[list[int], Scores]
    Pile: Annotated[list[str], {"items": ref(HundertCard), "maxItems": 2, "uniqueItems": True}]
    Played: Annotated[
        list[HundertCardPlayed],
        {
            "maxItems": 32,
        },
    ]
    Total: Annotated[int, HundertTotal]


DEFINITIONS: tuple[Definition, ...] = (
    HundertCard,
    HundertHand,
    HundertTotal,
    shape(HundertPile, closed=True),
    shape(HundertPlayPrompt, closed=True),
    shape(HundertPlayAnnouncement, closed=True),
    shape(HundertDealScore, closed=True),
    shape(HundertCardPlayed, closed=True, inline=True),
    seat_snapshot(HundertSnapshot),
)


MESSAGES = Contribution(
    DEFINITIONS,
    variants=(
        Variant("server", "Pile", HundertPile),
        Variant("server", "Play", HundertPlayPrompt, {"required": ["Total", "Seq"]}),
        Variant("server", "Play", HundertPlayAnnouncement, {"required": ["Total"]}),
        Variant("server", "Score", HundertDealScore, {"required": ["Total"]}),
        Variant("server", "Snapshot", HundertSnapshot, {"required": ["Pile"]}),
    ),
    slots={"hands": (HundertHand,), "large_table_hands": (HundertHand,)},
)
