"""Pinochle on the wire, as types: the messages only this game sends or reads, and what it
adds to the generic ones (protocol/declare.py says how; protocol.md is the contract).
The classic port's dialect (the seed's, which plays only Pinochle) is here too.
``MESSAGES`` is what ``protocol.schema.json`` is generated from.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from hundred_server.protocol.declare import Contribution, Definition, Value, Variant, ref, shape
from hundred_server.protocol.message_values import Seat, Suit
from hundred_server.protocol.play_messages import FourSeatSnapshot, seat_snapshot


class PinochleCard(Value, schema={"type": "string", "pattern": "^[9TJQKA][SHDC]$", "maxLength": 2}):
    """A Pinochle card: rank 9 T J Q K A then suit S H D C (the deck holds each twice)."""


class PinochleHand(
    Value, schema={"type": "array", "items": ref(PinochleCard), "minItems": 12, "maxItems": 12}
):
    """A full Pinochle hand: twelve cards, sorted by suit (D, C, H, S) and rank (A T K Q J 9); a
    card may come twice.
    """


class PinochleBidAmount(
    Value, schema={"type": "integer", "anyOf": [{"const": 0}, {"minimum": 20, "maximum": 250}]}
):
    """A Pinochle bid: 0 to pass, else a whole number from 20 to 250."""


class PinochleBid(Value, schema={"type": "integer", "minimum": 20, "maximum": 250}):
    """The bid a Pinochle hand is played for: 20 (a stuck dealer) to 250."""


class Team(Value, schema={"enum": [0, 1]}):
    """A Pinochle team: 0 (Team0, seats 0 and 2) or 1 (Team1, seats 1 and 3)."""


class TeamScores(
    Value, schema={"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
):
    """Pinochle: one whole number per team, Team0 then Team1."""


class TeamMeld(
    Value,
    schema={
        "type": "array",
        "items": {"type": "integer", "minimum": 0},
        "minItems": 2,
        "maxItems": 2,
    },
):
    """Pinochle: the meld of each team this hand, Team0 then Team1."""


class TeamCounters(
    Value,
    schema={
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": 25},
        "minItems": 2,
        "maxItems": 2,
    },
):
    """Pinochle: the counters each team has taken this hand (A, T, K a point each, the last trick
    one more; 25 in all), Team0 then Team1.
    """


class MeldCards(Value, schema={"type": "array", "items": ref(PinochleCard), "maxItems": 12}):
    """The cards of a Pinochle meld that count, sorted as a hand; [] for no meld."""


class Meld(TypedDict):
    """--> To everyone, once trump is named, for each seat 0-3: seat Playerid's meld, its counting
    cards (Hand) and what they are worth (Amount; 0 with Hand [] for no meld).
    """

    Type: Literal["Meld"]
    Playerid: Annotated[int, Seat]
    Hand: Annotated[list[str], MeldCards]
    Amount: Annotated[int, {"minimum": 0}]


class PinochleHandScore(TypedDict):
    """--> To everyone: a Pinochle hand ended. Round (from 1), the Bidder's seat and Bid, whether
    its team Made it, and by team (Team0, Team1): Meld, Counters, this hand's Points (meld +
    counters; minus the bid for a bidding team that fell short) and the game totals, Score.
    """

    Type: Literal["Score"]
    Round: Annotated[int, {"minimum": 1}]
    Bidder: Annotated[int, Seat]
    Bid: Annotated[int, PinochleBid]
    Made: bool
    Meld: Annotated[list[int], TeamMeld]
    Counters: Annotated[list[int], TeamCounters]
    Points: Annotated[list[int], TeamScores]
    Score: Annotated[list[int], TeamScores]


class PinochleGameOverScore(TypedDict):
    """--> To each person: a Pinochle game ended. The last hand's details as in PinochleHandScore
    (it takes that message's place), then GameOver, Winner (the winning team, 0 or 1) and Win
    (whether your team won). A watcher's has no Win.
    """

    Type: Literal["Score"]
    Round: Annotated[int, {"minimum": 1}]
    Bidder: Annotated[int, Seat]
    Bid: Annotated[int, PinochleBid]
    Made: bool
    Meld: Annotated[list[int], TeamMeld]
    Counters: Annotated[list[int], TeamCounters]
    Points: Annotated[list[int], TeamScores]
    Score: Annotated[list[int], TeamScores]
    GameOver: Literal[True]
    Winner: Annotated[int, Team]
    Win: NotRequired[bool]


class PinochleBidMade(TypedDict):
    """One bid or pass of a hand, as a PinochleSnapshot lists them."""

    Playerid: Annotated[int, Seat]
    Bid: Annotated[int, PinochleBidAmount]


class MeldShown(TypedDict):
    """One seat's meld, as a PinochleSnapshot lists them."""

    Playerid: Annotated[int, Seat]
    Hand: Annotated[list[str], MeldCards]
    Amount: Annotated[int, {"minimum": 0}]


class PinochleCardPlayed(TypedDict):
    """One card of the trick under way, as a PinochleSnapshot lists them."""

    Playerid: Annotated[int, Seat]
    PlayedCard: Annotated[str, PinochleCard]


class PinochleSnapshot(FourSeatSnapshot):
    """--> Private, after taking a seat back at a Pinochle table: the game as your seat knows it.
    Score and Counters are by team (Team0, Team1); Bids this hand's bids in order (0: a pass);
    Bidder and Bid once bidding is over, Trump once named; Meld every seat's meld once trump is
    named (else []); Tricks the tricks completed this hand; Trick the cards played to the trick
    under way. A watcher's snapshot has neither Playerid nor Hand (nor Discarded): only what
    every seat is told alike.
    """

    Phase: Literal["deal", "bidding", "trump", "tricks", "game_over"]
    Hand: NotRequired[Annotated[list[str], {"items": ref(PinochleCard), "maxItems": 12}]]
    Score: Annotated[list[int], TeamScores]
    Bids: Annotated[
        list[PinochleBidMade],
        {
            "maxItems": 4,
        },
    ]
    Bidder: NotRequired[Annotated[int, Seat]]
    Bid: NotRequired[Annotated[int, PinochleBid]]
    Trump: NotRequired[Annotated[str, Suit]]
    Meld: Annotated[
        list[MeldShown],
        {
            "anyOf": [{"maxItems": 0}, {"minItems": 4, "maxItems": 4}],
        },
    ]
    Tricks: Annotated[int, {"minimum": 0, "maximum": 12}]
    Counters: Annotated[list[int], TeamCounters]
    Trick: Annotated[
        list[PinochleCardPlayed],
        {
            "maxItems": 3,
        },
    ]


class ClassicDeal(TypedDict):
    """--> Classic, private: your seat (Playerid) and your twelve cards."""

    Type: Literal["Deal"]
    Playerid: Annotated[int, Seat]
    Hand: Annotated[list[str], PinochleHand]


class ClassicBid(TypedDict):
    """--> Classic: seat Playerid bid Bid, or passed (no Bid). Naming your own seat, it is the
    prompt to bid.
    """

    Type: Literal["Bid"]
    Playerid: Annotated[int, Seat]
    Bid: NotRequired[Annotated[int, PinochleBid]]


class ClassicTrump(TypedDict):
    """--> Classic: seat Playerid named Trump; without Trump, the prompt to name it (to the bidder
    only).
    """

    Type: Literal["Trump"]
    Playerid: Annotated[int, Seat]
    Trump: NotRequired[Annotated[str, Suit]]


class ClassicMeld(TypedDict):
    """--> Classic: seat Playerid's meld; no Amount (and Hand []) for no meld."""

    Type: Literal["Meld"]
    Playerid: Annotated[int, Seat]
    Hand: Annotated[list[str], MeldCards]
    Amount: NotRequired[Annotated[int, {"minimum": 1}]]


class ClassicPlay(TypedDict):
    """--> Classic: with PlayedCard, seat Playerid played it; else the prompt to play (to that seat
    only), with Trump, and once a card is led Lead and WinningCard.
    """

    Type: Literal["Play"]
    Playerid: Annotated[int, Seat]
    PlayedCard: NotRequired[Annotated[str, PinochleCard]]
    Trump: NotRequired[Annotated[str, Suit]]
    Lead: NotRequired[Annotated[str, Suit]]
    WinningCard: NotRequired[Annotated[str, PinochleCard]]


class ClassicScore(TypedDict):
    """--> Classic: the totals by team (Team0, Team1) after a hand; at the end of the game with
    GameOver, and Win if your team won.
    """

    Type: Literal["Score"]
    Score: Annotated[list[int], TeamScores]
    GameOver: NotRequired[Literal[True]]
    Win: NotRequired[Literal[True]]


class ClassicGameAnswer(TypedDict):
    """<-- Classic answer to Game: after create, the Option (1-6, 6 goes back); after join, the
    number of the table to sit at (0 goes back).
    """

    Type: Literal["Game"]
    Option: Annotated[int, {"minimum": 0}]


DEFINITIONS: tuple[Definition, ...] = (
    PinochleCard,
    PinochleHand,
    PinochleBidAmount,
    PinochleBid,
    Team,
    TeamScores,
    TeamMeld,
    TeamCounters,
    MeldCards,
    shape(
        Meld,
        closed=True,
        rules={
            "if": {"properties": {"Amount": {"const": 0}}, "required": ["Amount"]},
            "then": {"properties": {"Hand": {"maxItems": 0}}},
            "else": {"properties": {"Hand": {"minItems": 1}}},
        },
    ),
    shape(PinochleHandScore, closed=True),
    shape(PinochleGameOverScore, closed=True),
    shape(PinochleBidMade, closed=True, inline=True),
    shape(MeldShown, closed=True, inline=True),
    shape(PinochleCardPlayed, closed=True, inline=True),
    seat_snapshot(PinochleSnapshot, Bidder=["Bid"], Bid=["Bidder"]),
    shape(ClassicDeal, closed=True),
    shape(ClassicBid, closed=True),
    shape(ClassicTrump, closed=True),
    shape(
        ClassicMeld,
        closed=True,
        rules={
            "if": {"required": ["Amount"]},
            "then": {"properties": {"Hand": {"minItems": 1}}},
            "else": {"properties": {"Hand": {"maxItems": 0}}},
        },
    ),
    shape(
        ClassicPlay,
        closed=True,
        rules={
            "if": {"required": ["PlayedCard"]},
            "then": {"maxProperties": 3},
            "else": {"required": ["Trump"]},
            "dependentRequired": {"Lead": ["WinningCard"], "WinningCard": ["Lead"]},
        },
    ),
    shape(ClassicScore, closed=True, rules={"dependentRequired": {"Win": ["GameOver"]}}),
    shape(ClassicGameAnswer),
)


MESSAGES = Contribution(
    DEFINITIONS,
    variants=(
        Variant("server", "Meld", Meld),
        Variant("server", "Score", PinochleGameOverScore, {"required": ["GameOver", "Bidder"]}),
        Variant("server", "Score", PinochleHandScore, {"required": ["Bidder"]}),
        Variant("server", "Snapshot", PinochleSnapshot, {"required": ["Counters"]}),
        Variant("classic server", "Deal", ClassicDeal),
        Variant("classic server", "Bid", ClassicBid),
        Variant("classic server", "Trump", ClassicTrump),
        Variant("classic server", "Meld", ClassicMeld),
        Variant("classic server", "Play", ClassicPlay),
        Variant("classic server", "Score", ClassicScore),
        Variant("classic client", "Game", ClassicGameAnswer),
    ),
    slots={"hands": (PinochleHand,), "bid_amounts": (PinochleBidAmount,)},
)
