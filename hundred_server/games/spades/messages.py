"""Spades on the wire, as types: what it adds to the generic messages (protocol/declare.py
says how; protocol.md is the contract). ``MESSAGES`` is what ``protocol.schema.json`` is
generated from."""

from typing import Annotated, Final, Literal, NotRequired, TypedDict

from hundred_server.protocol.declare import Contribution, Definition, Value, Variant, ref, shape
from hundred_server.protocol.message_values import Card, Seat
from hundred_server.protocol.play_messages import CardPlayed, FourSeatSnapshot, seat_snapshot

_BY_SIDE: Final = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
_BY_SEAT: Final = {"minItems": 4, "maxItems": 4}
_TAKEN: Final = {"items": {"type": "integer", "minimum": 0, "maximum": 13}, **_BY_SEAT}


class SpadesBid(Value, schema={"type": "integer", "minimum": 0, "maximum": 13}):
    """A Spades bid: the tricks to take, 0 (nil) to 13."""


class SpadesHandScore(TypedDict):
    """--> To everyone: a Spades hand ended. Bids and TricksTaken by seat; Points (bag
    penalties included), Bags (carried on) and Score (the totals) by side, NS then EW."""

    Type: Literal["Score"]
    Round: Annotated[int, {"minimum": 1}]
    Bids: Annotated[list[int], {"items": ref(SpadesBid), **_BY_SEAT}]
    TricksTaken: Annotated[list[int], _TAKEN]
    Points: Annotated[list[int], _BY_SIDE]
    Bags: Annotated[
        list[int], {**_BY_SIDE, "items": {"type": "integer", "minimum": 0, "maximum": 9}}
    ]
    Score: Annotated[list[int], _BY_SIDE]


class SpadesBidMade(TypedDict):
    """One bid of a hand, as a SpadesSnapshot lists them."""

    Playerid: Annotated[int, Seat]
    Bid: Annotated[int, SpadesBid]


class SpadesSnapshot(FourSeatSnapshot):
    """--> Private, after taking a seat back at a Spades table: the game as your seat knows
    it. Score and Bags by side (NS, EW); Bids this hand's bids in order; Tricks the tricks
    completed this hand, TricksTaken by seat; Trick the trick under way. A watcher's has
    neither Playerid nor Hand."""

    Phase: Literal["deal", "bidding", "tricks", "game_over"]
    Hand: NotRequired[
        Annotated[list[str], {"items": ref(Card), "maxItems": 13, "uniqueItems": True}]
    ]
    Score: Annotated[list[int], _BY_SIDE]
    Bags: Annotated[list[int], _BY_SIDE]
    Bids: Annotated[list[SpadesBidMade], {"maxItems": 4}]
    Tricks: Annotated[int, {"minimum": 0, "maximum": 13}]
    TricksTaken: Annotated[list[int], _TAKEN]
    Trick: Annotated[list[CardPlayed], {"maxItems": 3}]


DEFINITIONS: tuple[Definition, ...] = (
    SpadesBid,
    shape(SpadesHandScore, closed=True),
    shape(SpadesBidMade, closed=True, inline=True),
    seat_snapshot(SpadesSnapshot),
)

MESSAGES = Contribution(
    DEFINITIONS,
    variants=(
        Variant("server", "Score", SpadesHandScore, {"required": ["Bags"]}),
        Variant("server", "Snapshot", SpadesSnapshot, {"required": ["Bags"]}),
    ),
    slots={"bid_amounts": (SpadesBid,)},
)
