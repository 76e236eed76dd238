"""Whist on the wire, as types: the messages only this game sends or reads, and
what it adds to the generic ones (protocol/declare.py says how; protocol.md is the
contract). ``MESSAGES`` is what ``protocol.schema.json`` is generated from.
"""

from typing import Annotated, Literal, NotRequired

from hundred_server.protocol.declare import Contribution, Definition, Value, Variant, ref
from hundred_server.protocol.message_values import Card, SideTricks, Suit
from hundred_server.protocol.play_messages import CardPlayed, FourSeatSnapshot, seat_snapshot


class WhistHand(
    Value,
    schema={
        "type": "array",
        "items": ref(Card),
        "minItems": 13,
        "maxItems": 13,
        "uniqueItems": True,
    },
):
    """A full Whist hand: thirteen distinct cards."""


class WhistSnapshot(FourSeatSnapshot):
    """--> Private, after taking a seat back at a Whist table: the game as your seat knows it.
    Score and TricksWon are by side (NS, EW); Trump and TrumpCard (the dealer's turned-up card)
    once the hand is dealt. A watcher's snapshot has neither Playerid nor Hand (nor Discarded):
    only what every seat is told alike.
    """

    Phase: Literal["deal", "tricks", "game_over"]
    Hand: NotRequired[
        Annotated[list[str], {"items": ref(Card), "maxItems": 13, "uniqueItems": True}]
    ]
    Score: Annotated[
        list[int], {"items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2}
    ]
    Trump: NotRequired[Annotated[str, Suit]]
    TrumpCard: NotRequired[Annotated[str, Card]]
    Tricks: Annotated[int, {"minimum": 0, "maximum": 13}]
    TricksWon: Annotated[list[int], SideTricks]
    Trick: Annotated[
        list[CardPlayed],
        {
            "maxItems": 3,
        },
    ]


DEFINITIONS: tuple[Definition, ...] = (
    WhistHand,
    seat_snapshot(WhistSnapshot, Trump=["TrumpCard"], TrumpCard=["Trump"]),
)


MESSAGES = Contribution(
    DEFINITIONS,
    variants=(Variant("server", "Snapshot", WhistSnapshot, {"required": ["TricksWon"]}),),
    slots={"hands": (WhistHand,)},
)
