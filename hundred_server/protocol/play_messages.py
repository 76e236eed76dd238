"""The messages of play that the trick games share (protocol.md): deals, bids, trump,
discards, plays, tricks, scores and snapshots, and the ``Dispatch`` of each ``Type``
that has variants. A game's own variants are in its package (``games/<game>/
messages.py``) and come in through the ``Variant``s and ``Slot``s here.

Each is a ``TypedDict`` (protocol/declare.py says how they are written); ``DEFINITIONS``
adds what a type cannot say and is what ``protocol.schema.json`` is generated from.
"""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from hundred_server.protocol.declare import Definition, Dispatch, Shape, Slot, ref, shape
from hundred_server.protocol.message_values import (
    BidAmount,
    Card,
    CardAnswer,
    Hand,
    PlayerName,
    Scores,
    Seat,
    SeatView,
    Seq,
    Side,
    SideTricks,
    Suit,
    TableId,
    TimeLeft,
)


class BidPrePassAck(TypedDict):
    """--> To the sender only: the pre-pass is noted and takes effect on its turn."""

    Type: Literal["Bid"]
    Playerid: Annotated[int, Seat]
    Bid: Literal[0]
    PrePass: Literal[True]


class UnpassEcho(TypedDict):
    """--> To the sender only: the pre-pass is taken back."""

    Type: Literal["Unpass"]
    Playerid: Annotated[int, Seat]


class TrumpAnnouncement(TypedDict):
    """--> To everyone: seat Playerid named Trump. Whist: Playerid is the dealer, who turned up
    Card; its suit is Trump.
    """

    Type: Literal["Trump"]
    Playerid: Annotated[int, Seat]
    Trump: Annotated[str, Suit]
    Card: NotRequired[Annotated[str, Card]]


class TrumpPrompt(TypedDict):
    """--> Prompt to every seat: the bidder, seat Playerid, must name trump. Only that seat's copy
    carries Legal.
    """

    Type: Literal["Trump"]
    Playerid: Annotated[int, Seat]
    Seq: Annotated[int, Seq]
    Legal: NotRequired[
        Annotated[
            list[str], {"items": ref(Suit), "minItems": 1, "maxItems": 4, "uniqueItems": True}
        ]
    ]
    TimeLeft: NotRequired[Annotated[float, TimeLeft]]
    View: NotRequired[Annotated[dict[str, Any], SeatView]]


class ServerTrump(
    Dispatch,
    side="server",
    wire_type="Trump",
    chain=(({"required": ["Seq"]}, TrumpPrompt), TrumpAnnouncement),
):
    """--> Trump: with Seq a prompt, else an announcement."""


class DiscardAnnouncement(TypedDict):
    """--> To everyone else: seat Playerid exchanged Count cards."""

    Type: Literal["Discard"]
    Playerid: Annotated[int, Seat]
    Count: Annotated[int, {"minimum": 0, "maximum": 5}]


class DiscardPrivate(TypedDict):
    """--> To the discarder only: the cards that went and the new hand."""

    Type: Literal["Discard"]
    Playerid: Annotated[int, Seat]
    Count: Annotated[int, {"minimum": 0, "maximum": 5}]
    Cards: Annotated[list[str], {"items": ref(Card), "maxItems": 5, "uniqueItems": True}]
    Hand: Annotated[list[str], Hand]


class DiscardPrompt(TypedDict):
    """--> Prompt to every seat: seat Playerid must discard. Only that seat's copy carries Legal
    (its hand).
    """

    Type: Literal["Discard"]
    Playerid: Annotated[int, Seat]
    Seq: Annotated[int, Seq]
    Legal: NotRequired[
        Annotated[
            list[str], {"items": ref(Card), "minItems": 1, "maxItems": 5, "uniqueItems": True}
        ]
    ]
    TimeLeft: NotRequired[Annotated[float, TimeLeft]]
    View: NotRequired[Annotated[dict[str, Any], SeatView]]


class ServerDiscard(
    Dispatch,
    side="server",
    wire_type="Discard",
    chain=(
        ({"required": ["Seq"]}, DiscardPrompt),
        ({"anyOf": [{"required": ["Cards"]}, {"required": ["Hand"]}]}, DiscardPrivate),
        DiscardAnnouncement,
    ),
):
    """--> Discard: with Seq a prompt; with Cards or Hand the discarder's private announcement;
    else the public one.
    """


class PlayPrompt(TypedDict):
    """--> Prompt to every seat: seat Playerid must play. Trump always; once a card is led, Lead
    (the led suit; trump for the joker) and WinningCard together. Only that seat's copy carries
    Legal.
    """

    Type: Literal["Play"]
    Playerid: Annotated[int, Seat]
    Seq: Annotated[int, Seq]
    Trump: Annotated[str, Suit]
    Lead: NotRequired[Annotated[str, Suit]]
    WinningCard: NotRequired[Annotated[str, Card]]
    Legal: NotRequired[
        Annotated[
            list[str], {"items": ref(Card), "minItems": 1, "maxItems": 13, "uniqueItems": True}
        ]
    ]
    TimeLeft: NotRequired[Annotated[float, TimeLeft]]
    View: NotRequired[Annotated[dict[str, Any], SeatView]]


class PlayAnnouncement(TypedDict):
    """--> To everyone: seat Playerid played PlayedCard."""

    Type: Literal["Play"]
    Playerid: Annotated[int, Seat]
    PlayedCard: Annotated[str, Card]


class Trick(TypedDict):
    """--> To everyone: seat Playerid won trick number Trick (from 1 in the round) with
    WinningCard. Whist: TricksWon, the tricks each side has taken this hand (NS, EW), and Trick
    up to 13. Pinochle: Points, the counters (A, T, K) in the trick plus 1 for the last trick,
    and Trick up to 12.
    """

    Type: Literal["Trick"]
    Playerid: Annotated[int, Seat]
    WinningCard: Annotated[str, Card]
    Trick: Annotated[int, {"minimum": 1, "maximum": 13}]
    TricksWon: NotRequired[Annotated[list[int], SideTricks]]
    Points: NotRequired[Annotated[int, {"minimum": 0, "maximum": 5}]]


class RoundScore(TypedDict):
    """--> To everyone: a round ended; Score holds the totals by seat, Points this round's points.
    PassedOut true: everyone passed. Whist: Score and Points are by side (NS, EW), and Tricks
    the tricks each side took.
    """

    Type: Literal["Score"]
    Round: Annotated[int, {"minimum": 1}]
    Score: Annotated[list[int], Scores]
    Points: Annotated[list[int], Scores]
    PassedOut: NotRequired[Literal[True]]
    Tricks: NotRequired[Annotated[list[int], SideTricks]]


class GameOverScore(TypedDict):
    """--> To each person: the game ended; Winner is the winning seat, Score the final totals, Win
    whether you won. Whist: Winner is the winning side, NS or EW, and Score is by side. A
    watcher's has no Win.
    """

    Type: Literal["Score"]
    GameOver: Literal[True]
    Winner: Annotated[int | str, {"anyOf": [ref(Seat), ref(Side)]}]
    Score: Annotated[list[int], Scores]
    Win: NotRequired[bool]


class ChoiceAnswer(TypedDict):
    """<-- Any answer to a prompt, by the index of its action in the prompt's View's legal (Views
    for bots): the answer's own keys are not read.
    """

    Type: str
    Playerid: NotRequired[Annotated[int, Seat]]
    Seq: NotRequired[Annotated[int, Seq]]
    Choice: Annotated[int, {"minimum": 0}]


class UnpassAnswer(TypedDict):
    """<-- Take back a pre-pass."""

    Type: Literal["Unpass"]
    Playerid: NotRequired[Annotated[int, Seat]]
    Seq: NotRequired[Annotated[int, Seq]]


class TrumpAnswer(TypedDict):
    """<-- Name trump.

    Keys:
        Trump: A suit letter or name, in any case: H, h, hearts, Heart ...
    """

    Type: Literal["Trump"]
    Playerid: NotRequired[Annotated[int, Seat]]
    Seq: NotRequired[Annotated[int, Seq]]
    Trump: Annotated[
        str,
        {
            "pattern": (
                "^\\s*(?:[HhDdSsCc]|[Hh][Ee][Aa][Rr][Tt][Ss]?|[Dd][Ii][Aa][Mm][Oo][Nn][Dd][Ss]?"
                "|[Ss][Pp][Aa][Dd][Ee][Ss]?|[Cc][Ll][Uu][Bb][Ss]?)\\s*$"
            )
        },
    ]


class DiscardAnswer(TypedDict):
    """<-- Discard these cards and draw as many; [] keeps the hand."""

    Type: Literal["Discard"]
    Playerid: NotRequired[Annotated[int, Seat]]
    Seq: NotRequired[Annotated[int, Seq]]
    Cards: Annotated[list[str], {"items": ref(CardAnswer)}]


class BidMade(TypedDict):
    """One bid or pass of a round, as a Snapshot lists them."""

    Playerid: Annotated[int, Seat]
    Bid: Annotated[int, BidAmount]


class CardPlayed(TypedDict):
    """One card of the trick under way, as a Snapshot lists them."""

    Playerid: Annotated[int, Seat]
    PlayedCard: Annotated[str, Card]


class FourSeatSnapshot(TypedDict):
    """The keys a Snapshot at a table of four starts with (Pinochle's, Whist's, Spades'
    each add theirs): not a message of its own."""

    Type: Literal["Snapshot"]
    Table: Annotated[int, TableId]
    Playerid: NotRequired[Annotated[int, Seat]]
    Players: Annotated[list[str], {"items": ref(PlayerName), "minItems": 4, "maxItems": 4}]
    Round: Annotated[int, {"minimum": 1}]
    Dealer: Annotated[int, Seat]


def seat_snapshot(cls: type, **together: list[str]) -> Shape:
    """The closed shape of a game's Snapshot: each of ``together``'s keys comes only with
    the keys it names, and Playerid with Hand (a watcher's has neither)."""
    rules = {"dependentRequired": {**together, "Playerid": ["Hand"], "Hand": ["Playerid"]}}
    return shape(cls, closed=True, rules=rules)


class Snapshot(TypedDict):
    """--> Private, after taking a seat back: the game as your seat knows it. A watcher's snapshot
    has neither Playerid nor Hand (nor Discarded): only what every seat is told alike.

    Keys:
        Bids: This round's bids and passes in order. At most 14: the raises climb 15, 20, 25,
            30, 60 (five at most), the dealer may hold each once (five), and each seat passes
            once (four).
    """

    Type: Literal["Snapshot"]
    Table: Annotated[int, TableId]
    Playerid: NotRequired[Annotated[int, Seat]]
    Players: Annotated[list[str], {"items": ref(PlayerName), "minItems": 2, "maxItems": 4}]
    Round: Annotated[int, {"minimum": 1}]
    Dealer: Annotated[int, Seat]
    Phase: Literal["bidding", "trump", "discard", "tricks"]
    Hand: NotRequired[
        Annotated[list[str], {"items": ref(Card), "maxItems": 5, "uniqueItems": True}]
    ]
    Score: Annotated[list[int], Scores]
    Bids: Annotated[
        list[BidMade],
        {
            "maxItems": 14,
        },
    ]
    Bid: Literal[0, 15, 20, 25, 30, 60]
    Bidder: NotRequired[Annotated[int, Seat]]
    Trump: NotRequired[Annotated[str, Suit]]
    Exchanged: Annotated[
        list[int | None],
        {
            "items": {"type": ["integer", "null"], "minimum": 0, "maximum": 5},
            "minItems": 2,
            "maxItems": 4,
        },
    ]
    Discarded: NotRequired[
        Annotated[
            list[str], {"items": ref(Card), "maxItems": 5, "uniqueItems": True, "minItems": 1}
        ]
    ]
    Tricks: Annotated[int, {"minimum": 0, "maximum": 4}]
    Trick: Annotated[
        list[CardPlayed],
        {
            "maxItems": 3,
        },
    ]


#: A Deal's hand: the generic one or a game's.
DEAL_HANDS = Slot("hands", (Hand,))


#: A bid amount: the generic one or a game's.
BID_AMOUNTS = Slot("bid_amounts", (BidAmount,))


class Deal(TypedDict):
    """--> Private: your seat for the whole game, your hand, the dealer, the round (from 1,
    passed-out rounds included) and the players by seat. Whist: 13 cards, Round counts hands.
    Pinochle: 12 cards, sorted, a card may come twice. Hundert: floor(32 / players) cards, 2 to
    6 players (a Deal to five or six players is Hundert's or Rook's). Rook: 13, 10, 8 or 7 Rook
    cards (3 to 6 players), sorted by colour. A watcher's Deal has neither Playerid nor Hand:
    who deals, the round and the players.
    """

    Type: Literal["Deal"]
    Playerid: NotRequired[Annotated[int, Seat]]
    Hand: NotRequired[Annotated[list[str], DEAL_HANDS]]
    Dealer: Annotated[int, Seat]
    Round: Annotated[int, {"minimum": 1}]
    Players: Annotated[list[str], {"items": ref(PlayerName), "minItems": 2, "maxItems": 6}]


class BidPrompt(TypedDict):
    """--> Prompt to every seat: seat Playerid must bid. Only that seat's copy carries Legal.
    Pinochle: Legal is 0 (pass) and every bid from one above the high bid (at least 20) to 250.
    """

    Type: Literal["Bid"]
    Playerid: Annotated[int, Seat]
    Seq: Annotated[int, Seq]
    Legal: NotRequired[
        Annotated[
            list[int],
            Slot(
                "bid_amounts",
                (BidAmount,),
                each=lambda r: {"type": "array", "items": r, "minItems": 1, "uniqueItems": True},
            ),
        ]
    ]
    TimeLeft: NotRequired[Annotated[float, TimeLeft]]
    View: NotRequired[Annotated[dict[str, Any], SeatView]]


class BidAnnouncement(TypedDict):
    """--> To everyone: seat Playerid bid (0: passed). Auto true: a pre-pass took effect.
    Pinochle: Bid is 0 or 20-250.
    """

    Type: Literal["Bid"]
    Playerid: Annotated[int, Seat]
    Bid: Annotated[int, BID_AMOUNTS]
    Auto: NotRequired[Literal[True]]


class BidAmountAnswer(TypedDict):
    """A bid that is not a game's own kind of bid (written inline in BidAnswer)."""

    Type: Literal["Bid"]
    Playerid: NotRequired[Annotated[int, Seat]]
    Seq: NotRequired[Annotated[int, Seq]]
    Bid: NotRequired[Annotated[int, BID_AMOUNTS]]


class CardPlayAnswer(TypedDict):
    """A play that is not a game's own kind of play (written inline in PlayAnswer)."""

    Type: Literal["Play"]
    Playerid: NotRequired[Annotated[int, Seat]]
    Seq: NotRequired[Annotated[int, Seq]]
    PlayedCard: Annotated[str, CardAnswer]


class ServerBid(
    Dispatch,
    side="server",
    wire_type="Bid",
    chain=(
        ({"required": ["Seq"]}, BidPrompt),
        ({"required": ["PrePass"]}, BidPrePassAck),
        BidAnnouncement,
    ),
):
    """--> Bid: with Seq a prompt; with PrePass the acknowledgement of a pre-pass; else an
    announcement. With Moon, a Rook moon. With "moon" in Legal, a Rook prompt.
    """


class ServerPlay(
    Dispatch,
    side="server",
    wire_type="Play",
    chain=(({"required": ["Seq"]}, PlayPrompt), PlayAnnouncement),
):
    """--> Play: with Seq a prompt, else an announcement. With Total, a Hundert prompt (with
    Seq) or play. With a Rook Trump or PlayedCard, a Rook prompt or play.
    """


class ServerTrick(Dispatch, side="server", wire_type="Trick", chain=(Trick,)):
    """--> Trick: with a Rook WinningCard a Rook trick, else the other games'."""


class Score(
    Dispatch,
    side="server",
    wire_type="Score",
    chain=(({"required": ["GameOver"]}, GameOverScore), RoundScore),
):
    """--> Score: with GameOver the end of the game, else the end of a round. With Bidder, a
    Pinochle score (the hand's details, by team). With Total, a Hundert deal's score (its game
    over is a GameOverScore). With Taken, a Rook hand's score (its game over is a
    GameOverScore).
    """


class ServerSnapshot(Dispatch, side="server", wire_type="Snapshot", chain=(Snapshot,)):
    """--> Snapshot: with TricksWon a Whist game's, with Counters a Pinochle game's, else a
    Hundred and Ten game's. With Pile, a Hundert game's. With Winners, a Rook game's.
    """


class BidAnswer(Dispatch, side="client", wire_type="Bid", chain=(BidAmountAnswer,)):
    """<-- A bid (0 or no Bid: pass, 60: shoot the moon); out of turn, a pass is a pre-pass.
    Pinochle: 0 or no Bid passes, else 20-250. With Moon, or Bid "moon": Rook's moon.
    """


class PlayAnswer(Dispatch, side="client", wire_type="Play", chain=(CardPlayAnswer,)):
    """<-- Play a card. With a Rook card, Rook's."""


DEFINITIONS: tuple[Definition, ...] = (
    shape(BidPrePassAck, closed=True),
    shape(UnpassEcho, closed=True),
    shape(TrumpAnnouncement, closed=True),
    shape(TrumpPrompt, closed=True),
    ServerTrump,
    shape(DiscardAnnouncement, closed=True),
    shape(DiscardPrivate, closed=True),
    shape(DiscardPrompt, closed=True),
    ServerDiscard,
    shape(
        PlayPrompt,
        closed=True,
        rules={"dependentRequired": {"Lead": ["WinningCard"], "WinningCard": ["Lead"]}},
    ),
    shape(PlayAnnouncement, closed=True),
    shape(
        Trick,
        closed=True,
        rules={
            "if": {"not": {"anyOf": [{"required": ["TricksWon"]}, {"required": ["Points"]}]}},
            "then": {"properties": {"Trick": {"maximum": 5}}},
            "dependentSchemas": {
                "Points": {
                    "properties": {"Trick": {"maximum": 12}},
                    "not": {"required": ["TricksWon"]},
                }
            },
        },
    ),
    shape(RoundScore, closed=True),
    shape(GameOverScore, closed=True),
    shape(ChoiceAnswer),
    shape(UnpassAnswer),
    shape(TrumpAnswer),
    shape(DiscardAnswer),
    shape(BidMade, closed=True, inline=True),
    shape(CardPlayed, closed=True, inline=True),
    shape(
        Snapshot,
        closed=True,
        rules={
            "dependentRequired": {
                "Playerid": ["Hand"],
                "Hand": ["Playerid"],
                "Discarded": ["Playerid"],
            }
        },
    ),
    shape(
        Deal,
        closed=True,
        rules={
            "if": {"properties": {"Players": {"minItems": 5}}, "required": ["Players"]},
            "then": {"properties": {"Hand": Slot("large_table_hands")}},
            "dependentRequired": {"Playerid": ["Hand"], "Hand": ["Playerid"]},
        },
    ),
    shape(BidPrompt, closed=True),
    shape(
        BidAnnouncement,
        closed=True,
        rules={"dependentSchemas": {"Auto": {"properties": {"Bid": {"const": 0}}}}},
    ),
    shape(BidAmountAnswer, inline=True),
    shape(CardPlayAnswer, inline=True),
    ServerBid,
    ServerPlay,
    ServerTrick,
    Score,
    ServerSnapshot,
    BidAnswer,
    PlayAnswer,
)
