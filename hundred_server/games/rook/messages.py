"""Rook on the wire, as types: the messages only this game sends or reads, and
what it adds to the generic ones (protocol/declare.py says how; protocol.md is the
contract). ``MESSAGES`` is what ``protocol.schema.json`` is generated from.
"""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from hundred_server.protocol.declare import (
    Contribution,
    Definition,
    Dispatch,
    Value,
    Variant,
    ref,
    shape,
)
from hundred_server.protocol.message_values import (
    PlayerName,
    Scores,
    Seat,
    SeatView,
    Seq,
    TableId,
    TimeLeft,
)


class RookCard(
    Value, schema={"type": "string", "pattern": "^([BGRY](1[0-4]?|[5-9])|ROOK)$", "maxLength": 4}
):
    """A Rook card as the server writes it: colour B, G, R or Y and a number 1 or 5-14 (R14, G1,
    Y5), or ROOK for the bird.
    """


class RookCardAnswer(
    Value,
    schema={
        "type": "string",
        "pattern": "^\\s*([BGRYbgry](1[0-4]?|[5-9])|[Rr][Oo][Oo][Kk])\\s*$",
        "maxLength": 20,
    },
):
    """A Rook card as a client may write it: as RookCard, in any case, spaces around allowed."""


class RookColour(Value, schema={"enum": ["B", "G", "R", "Y"]}):
    """A Rook colour (trump, the colour led): B, G, R or Y."""


class RookColourAnswer(
    Value,
    schema={
        "type": "string",
        "pattern": (
            "^\\s*([BGRYbgry]|[Bb][Ll][Aa][Cc][Kk]|[Gg][Rr][Ee][Ee][Nn]|[Rr][Ee][Dd]"
            "|[Yy][Ee][Ll][Ll][Oo][Ww])\\s*$"
        ),
        "maxLength": 20,
    },
):
    """A Rook colour as a client may write it: B, G, R, Y or black, green, red, yellow, in any
    case.
    """


class RookHand(
    Value,
    schema={
        "type": "array",
        "items": ref(RookCard),
        "uniqueItems": True,
        "minItems": 7,
        "maxItems": 13,
    },
):
    """A full Rook hand: 13, 10, 8 or 7 distinct cards (3, 4, 5, 6 players), sorted by colour (B,
    G, R, Y), 1 14 13 ... 5 within one, the bird last.
    """


class RookBidAmount(
    Value,
    schema={
        "anyOf": [{"const": 0}, {"type": "integer", "minimum": 80, "maximum": 200, "multipleOf": 5}]
    },
):
    """A Rook bid amount: 0 (a pass) or 80 to 200 in fives (the moon is Moon, or "moon" in
    Legal).
    """


class RookBid(Value, schema={"type": "integer", "minimum": 80, "maximum": 200, "multipleOf": 5}):
    """The bid a Rook hand is played for: 80 (a stuck dealer) to 200 in fives (a moon has Moon
    instead).
    """


class RookBidPrompt(TypedDict):
    """--> Rook: the acting seat's copy of a Bid prompt. Legal is 0 (pass), every amount that tops
    the high bid up to 200, and "moon" last (always open while bidding).
    """

    Type: Literal["Bid"]
    Playerid: Annotated[int, Seat]
    Seq: Annotated[int, Seq]
    Legal: Annotated[
        list[int | str],
        {
            "items": {"anyOf": [ref(RookBidAmount), {"const": "moon"}]},
            "minItems": 2,
            "maxItems": 27,
            "uniqueItems": True,
            "contains": {"const": "moon"},
        },
    ]
    TimeLeft: NotRequired[Annotated[float, TimeLeft]]
    View: NotRequired[Annotated[dict[str, Any], SeatView]]


class RookMoonBid(TypedDict):
    """--> To everyone, Rook: seat Playerid shot the moon (bidding ends at once). Other Rook bids
    and passes are BidAnnouncements (Bid 0 or 80-200).
    """

    Type: Literal["Bid"]
    Playerid: Annotated[int, Seat]
    Moon: Literal[True]


class RookKitty(TypedDict):
    """--> Rook: bidder Playerid takes the kitty of Count cards. The bidder's copy adds Cards (the
    kitty) and Hand (its hand with the kitty, sorted).
    """

    Type: Literal["Kitty"]
    Playerid: Annotated[int, Seat]
    Count: Literal[3, 5, 6]
    Cards: NotRequired[
        Annotated[
            list[str], {"items": ref(RookCard), "uniqueItems": True, "minItems": 3, "maxItems": 6}
        ]
    ]
    Hand: NotRequired[
        Annotated[
            list[str], {"items": ref(RookCard), "uniqueItems": True, "minItems": 10, "maxItems": 19}
        ]
    ]


class RookSetupAnnouncement(TypedDict):
    """--> To everyone, Rook: bidder Playerid named Trump and called Partners; PointsInDiscard says
    whether the discard holds points (never which cards). The bidder's copy adds Discard and
    Hand (what it now holds).
    """

    Type: Literal["Setup"]
    Playerid: Annotated[int, Seat]
    Trump: Annotated[str, RookColour]
    Partners: Annotated[list[str], {"items": ref(RookCard), "uniqueItems": True, "maxItems": 2}]
    PointsInDiscard: bool
    Discard: NotRequired[
        Annotated[
            list[str], {"items": ref(RookCard), "uniqueItems": True, "minItems": 3, "maxItems": 6}
        ]
    ]
    Hand: NotRequired[
        Annotated[
            list[str], {"items": ref(RookCard), "uniqueItems": True, "minItems": 7, "maxItems": 13}
        ]
    ]


class RookSetupPrompt(TypedDict):
    """--> Prompt to every seat, Rook: bidder Playerid must discard Count cards (as many as the
    kitty held), name trump and call Calls partner cards (0 on a moon). Only the bidder's copy
    carries Legal: its hand, the cards it may discard.
    """

    Type: Literal["Setup"]
    Playerid: Annotated[int, Seat]
    Seq: Annotated[int, Seq]
    Count: Literal[3, 5, 6]
    Calls: Annotated[int, {"minimum": 0, "maximum": 2}]
    Legal: NotRequired[
        Annotated[
            list[str], {"items": ref(RookCard), "uniqueItems": True, "minItems": 10, "maxItems": 19}
        ]
    ]
    TimeLeft: NotRequired[Annotated[float, TimeLeft]]
    View: NotRequired[Annotated[dict[str, Any], SeatView]]


class ServerSetup(
    Dispatch,
    side="server",
    wire_type="Setup",
    chain=(({"required": ["Seq"]}, RookSetupPrompt), RookSetupAnnouncement),
):
    """--> Setup (Rook): with Seq a prompt, else the announcement of the bidder's setup."""


class RookPlayAnnouncement(TypedDict):
    """--> To everyone, Rook: seat Playerid played PlayedCard; Partner true when that play reveals
    the seat as a partner of the bidder (a called card, the seat's first).
    """

    Type: Literal["Play"]
    Playerid: Annotated[int, Seat]
    PlayedCard: Annotated[str, RookCard]
    Partner: NotRequired[Literal[True]]


class RookPlayPrompt(TypedDict):
    """--> Prompt to every seat, Rook: seat Playerid must play. Trump always; once a card is led,
    Lead (the colour led; trump when the bird is led) and WinningCard together. Only that seat's
    copy carries Legal.
    """

    Type: Literal["Play"]
    Playerid: Annotated[int, Seat]
    Seq: Annotated[int, Seq]
    Trump: Annotated[str, RookColour]
    Lead: NotRequired[Annotated[str, RookColour]]
    WinningCard: NotRequired[Annotated[str, RookCard]]
    Legal: NotRequired[
        Annotated[
            list[str], {"items": ref(RookCard), "uniqueItems": True, "minItems": 1, "maxItems": 13}
        ]
    ]
    TimeLeft: NotRequired[Annotated[float, TimeLeft]]
    View: NotRequired[Annotated[dict[str, Any], SeatView]]


class RookServerPlay(
    Value,
    schema={
        "if": {"required": ["Seq"]},
        "then": ref(RookPlayPrompt),
        "else": ref(RookPlayAnnouncement),
    },
):
    """--> Play (Rook): with Seq a prompt, else an announcement."""


class RookTrick(TypedDict):
    """--> To everyone, Rook: seat Playerid won trick number Trick (from 1 in the hand, up to 13)
    with WinningCard. No points: they are told when the hand ends.
    """

    Type: Literal["Trick"]
    Playerid: Annotated[int, Seat]
    WinningCard: Annotated[str, RookCard]
    Trick: Annotated[int, {"minimum": 1, "maximum": 13}]


class RookHandScore(TypedDict):
    """--> To everyone, Rook: a hand ended. Round (from 1), the Bidder and its Bid (or Moon), the
    bidding Side (bidder and partners, sorted), whether it Made the bid, and by seat: Taken
    (points taken, the last trick's 20 and the discard included; 200 in all), Points (this
    hand's score change) and Score (the totals). A GameOver Score follows when the hand ends the
    game.
    """

    Type: Literal["Score"]
    Round: Annotated[int, {"minimum": 1}]
    Bidder: Annotated[int, Seat]
    Bid: NotRequired[Annotated[int, RookBid]]
    Moon: NotRequired[Literal[True]]
    Side: Annotated[
        list[int], {"items": ref(Seat), "minItems": 1, "maxItems": 3, "uniqueItems": True}
    ]
    Made: bool
    Taken: Annotated[
        list[int],
        {"items": {"type": "integer", "minimum": 0, "maximum": 200}, "minItems": 3, "maxItems": 6},
    ]
    Points: Annotated[list[int], Scores]
    Score: Annotated[list[int], Scores]


class RookBidMade(TypedDict):
    """One bid, pass or moon of a hand, as a RookSnapshot lists them: Bid or Moon, not both."""

    Playerid: Annotated[int, Seat]
    Bid: NotRequired[Annotated[int, RookBidAmount]]
    Moon: NotRequired[Literal[True]]


class RookCardPlayed(TypedDict):
    """One card of the trick under way, as a RookSnapshot lists them."""

    Playerid: Annotated[int, Seat]
    PlayedCard: Annotated[str, RookCard]


class RookSnapshot(TypedDict):
    """--> Private, after taking a seat back at a Rook table: the game as your seat knows it. Bids
    this hand's bids in order (Bid 0: a pass; Moon); Winners the seat that won each finished
    trick (never a finished trick's cards); Bidder and Bid (or Moon) once bidding is over;
    Trump, Called (called cards not played yet) and Partners (revealed partner seats) once the
    setup is made, PointsInDiscard then too; Discarded the bidder's own discard (its copy only);
    Trick the cards of the trick under way. A watcher's snapshot has neither Playerid nor Hand
    (nor Discarded): only what every seat is told alike.
    """

    Type: Literal["Snapshot"]
    Table: Annotated[int, TableId]
    Playerid: NotRequired[Annotated[int, Seat]]
    Players: Annotated[list[str], {"items": ref(PlayerName), "minItems": 3, "maxItems": 6}]
    Round: Annotated[int, {"minimum": 1}]
    Dealer: Annotated[int, Seat]
    Phase: Literal["deal", "bidding", "setup", "tricks", "game_over"]
    Hand: NotRequired[
        Annotated[list[str], {"items": ref(RookCard), "uniqueItems": True, "maxItems": 19}]
    ]
    Score: Annotated[list[int], Scores]
    Bids: Annotated[
        list[RookBidMade],
        {
            "maxItems": 30,
        },
    ]
    Winners: Annotated[list[int], {"items": ref(Seat), "maxItems": 13}]
    Bidder: NotRequired[Annotated[int, Seat]]
    Bid: NotRequired[Annotated[int, RookBid]]
    Moon: NotRequired[Literal[True]]
    Trump: NotRequired[Annotated[str, RookColour]]
    Called: NotRequired[
        Annotated[list[str], {"items": ref(RookCard), "uniqueItems": True, "maxItems": 2}]
    ]
    Partners: NotRequired[
        Annotated[list[int], {"items": ref(Seat), "maxItems": 2, "uniqueItems": True}]
    ]
    PointsInDiscard: NotRequired[bool]
    Discarded: NotRequired[
        Annotated[
            list[str], {"items": ref(RookCard), "uniqueItems": True, "minItems": 3, "maxItems": 6}
        ]
    ]
    Trick: NotRequired[
        Annotated[
            list[RookCardPlayed],
            {
                "maxItems": 5,
            },
        ]
    ]


class RookBidAnswer(TypedDict):
    """<-- Rook: the moon, as "Moon":true (it wins over any Bid beside it) or "Bid":"moon" (as
    Legal lists it). Other Rook bids are BidAnswers: 0 or no Bid passes, else 80-200 in fives.
    """

    Type: Literal["Bid"]
    Playerid: NotRequired[Annotated[int, Seat]]
    Seq: NotRequired[Annotated[int, Seq]]
    Moon: NotRequired[bool]
    Bid: NotRequired[
        Annotated[
            int | str,
            {
                "anyOf": [
                    ref(RookBidAmount),
                    {"type": "string", "pattern": "^\\s*[Mm][Oo][Oo][Nn]\\s*$"},
                ]
            },
        ]
    ]


class RookSetupAnswer(TypedDict):
    """<-- Rook, the bidder: Discard (as many distinct cards of your hand as the kitty held), Trump
    (a colour) and Partners (the called cards, distinct, any of the 45; may be left out when
    none are called).
    """

    Type: Literal["Setup"]
    Playerid: NotRequired[Annotated[int, Seat]]
    Seq: NotRequired[Annotated[int, Seq]]
    Discard: Annotated[list[str], {"items": ref(RookCardAnswer), "maxItems": 6}]
    Trump: Annotated[str, RookColourAnswer]
    Partners: NotRequired[Annotated[list[str], {"items": ref(RookCardAnswer), "maxItems": 2}]]


class RookPlayAnswer(TypedDict):
    """<-- Rook: play a card."""

    Type: Literal["Play"]
    Playerid: NotRequired[Annotated[int, Seat]]
    Seq: NotRequired[Annotated[int, Seq]]
    PlayedCard: Annotated[str, RookCardAnswer]


DEFINITIONS: tuple[Definition, ...] = (
    RookCard,
    RookCardAnswer,
    RookColour,
    RookColourAnswer,
    RookHand,
    RookBidAmount,
    RookBid,
    shape(RookBidPrompt, closed=True),
    shape(RookMoonBid, closed=True),
    shape(
        RookKitty, closed=True, rules={"dependentRequired": {"Cards": ["Hand"], "Hand": ["Cards"]}}
    ),
    shape(
        RookSetupAnnouncement,
        closed=True,
        rules={"dependentRequired": {"Discard": ["Hand"], "Hand": ["Discard"]}},
    ),
    shape(RookSetupPrompt, closed=True),
    ServerSetup,
    shape(RookPlayAnnouncement, closed=True),
    shape(
        RookPlayPrompt,
        closed=True,
        rules={"dependentRequired": {"Lead": ["WinningCard"], "WinningCard": ["Lead"]}},
    ),
    RookServerPlay,
    shape(RookTrick, closed=True),
    shape(
        RookHandScore, closed=True, rules={"oneOf": [{"required": ["Bid"]}, {"required": ["Moon"]}]}
    ),
    shape(
        RookBidMade,
        closed=True,
        inline=True,
        rules={"oneOf": [{"required": ["Bid"]}, {"required": ["Moon"]}]},
    ),
    shape(RookCardPlayed, closed=True, inline=True),
    shape(
        RookSnapshot,
        closed=True,
        rules={
            "dependentRequired": {
                "Bid": ["Bidder"],
                "Moon": ["Bidder"],
                "Playerid": ["Hand"],
                "Hand": ["Playerid"],
                "Discarded": ["Playerid"],
            },
            "not": {"required": ["Bid", "Moon"]},
        },
    ),
    shape(RookBidAnswer),
    shape(RookSetupAnswer),
    shape(RookPlayAnswer),
)


MESSAGES = Contribution(
    DEFINITIONS,
    variants=(
        Variant("server", "Kitty", RookKitty),
        Variant("server", "Setup", ServerSetup),
        Variant("server", "Bid", RookMoonBid, {"required": ["Moon"]}),
        Variant(
            "server",
            "Bid",
            RookBidPrompt,
            {"required": ["Legal"], "properties": {"Legal": {"contains": {"const": "moon"}}}},
        ),
        Variant(
            "server",
            "Play",
            RookServerPlay,
            {
                "anyOf": [
                    {"required": ["Trump"], "properties": {"Trump": ref(RookColour)}},
                    {"required": ["PlayedCard"], "properties": {"PlayedCard": ref(RookCard)}},
                ]
            },
        ),
        Variant(
            "server",
            "Trick",
            RookTrick,
            {"required": ["WinningCard"], "properties": {"WinningCard": ref(RookCard)}},
        ),
        Variant("server", "Score", RookHandScore, {"required": ["Taken"]}),
        Variant("server", "Snapshot", RookSnapshot, {"required": ["Winners"]}),
        Variant("client", "Setup", RookSetupAnswer),
        Variant(
            "client",
            "Bid",
            RookBidAnswer,
            {
                "anyOf": [
                    {"required": ["Moon"]},
                    {"required": ["Bid"], "properties": {"Bid": {"type": "string"}}},
                ]
            },
        ),
        Variant(
            "client",
            "Play",
            RookPlayAnswer,
            {"required": ["PlayedCard"], "properties": {"PlayedCard": ref(RookCardAnswer)}},
        ),
    ),
    slots={"hands": (RookHand,), "large_table_hands": (RookHand,)},
)
