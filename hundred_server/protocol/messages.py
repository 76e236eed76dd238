"""Every message of the wire (protocol.md) as a type, and the schema made from them.

One ``TypedDict`` a message (a ``Type`` and, where one ``Type`` has several, its
variant: a prompt, an announcement, a private copy), one ``Value`` a named value (a
seat, a card, a hand), a ``Dispatch`` where one ``Type`` has variants and an
``Envelope`` for each entry point: the main port's server and client messages and the
classic port's. protocol/declare.py says how they are written. These are the generic
messages (the lobby's, the tables', the errors, and the trick games' common ones); a
game's own are in its package (``games/<game>/messages.py``), found through the
registry.

``protocol.schema.json`` is generated from them: ``python -m
hundred_server.protocol.messages --write`` (``make schema``) writes it, ``--check``
says whether the file is what the types give (tests/test_schema.py checks it too).
"""

import argparse
import importlib
import json
import sys
from collections.abc import Mapping
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from hundred_server.protocol.declare import (
    Contribution,
    Definition,
    Dispatch,
    Envelope,
    Slot,
    Value,
    build_definitions,
    ref,
    shape,
)
from hundred_server.protocol.schema import SCHEMA_PATH


class Seat(Value, schema={"type": "integer", "minimum": 0, "maximum": 5}):
    """A seat number (Playerid, Dealer, Winner): seats count from 0, at most 6 per table."""


class Seq(Value, schema={"type": "integer", "minimum": 1}):
    """Prompt sequence number: increases with every prompt at the table."""


class Card(Value, schema={"type": "string", "pattern": "^([2-9TJQKA][SHDC]|JK)$", "maxLength": 2}):
    """A card code as the server writes it: rank 2-9 T J Q K A then suit S H D C, or JK for the
    joker.
    """


class CardAnswer(
    Value,
    schema={
        "type": "string",
        "pattern": "^(([2-9TJQKAtjqka]|10)[SHDCshdc]|[Jj][Kk])$",
        "maxLength": 3,
    },
):
    """A card code as a client may write it: as Card, and the server also reads lower case and 10
    for T.
    """


class Suit(Value, schema={"type": "string", "pattern": "^[HDSC]$", "maxLength": 1}):
    """A suit: H, D, S or C."""


class BidAmount(Value, schema={"enum": [0, 15, 20, 25, 30, 60]}):
    """A bid: 0 to pass, 15, 20, 25, 30, or 60 to shoot the moon."""


class Hand(
    Value,
    schema={
        "type": "array",
        "items": ref(Card),
        "minItems": 5,
        "maxItems": 5,
        "uniqueItems": True,
    },
):
    """A full hand: five distinct cards."""


class Scores(
    Value, schema={"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 6}
):
    """One number per seat, in seat order (Whist: per side, NS then EW)."""


class Side(Value, schema={"enum": ["NS", "EW"]}):
    """A Whist side: NS (seats 0 and 2) or EW (seats 1 and 3)."""


class SideTricks(
    Value,
    schema={
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": 13},
        "minItems": 2,
        "maxItems": 2,
    },
):
    """Whist: tricks taken this hand by side, North-South then East-West."""


class PlayerName(
    Value, schema={"type": "string", "pattern": "^[A-Za-z0-9 _.-]{1,20}( \\([0-9]+\\))?$"}
):
    """A player name: 1-20 ASCII letters, digits, spaces, _ - and . (default player<N>; AI seats
    are AI <N>); a name taken at the table gets a suffix such as ' (2)'.
    """


class TableName(
    Value,
    schema={
        "type": "string",
        "minLength": 1,
        "maxLength": 30,
        "pattern": "^[A-Za-z0-9 _.'-]{1,30}$",
    },
):
    """A table name: 1-30 ASCII letters, digits, spaces, _ - . and ' (default 'table <id>')."""


class TableId(Value, schema={"type": "integer", "minimum": 0}):
    """A table id."""


class ErrorCode(
    Value,
    schema={
        "enum": [
            "line_too_long",
            "bad_json",
            "bad_message",
            "unknown_type",
            "bad_choice",
            "bad_name",
            "bad_game",
            "bad_option",
            "bad_token",
            "no_such_table",
            "table_full",
            "not_now",
            "not_your_seat",
            "stale_seq",
            "not_your_turn",
            "wrong_phase",
            "illegal_bid",
            "already_passed",
            "not_pre_passed",
            "bad_suit",
            "bad_card",
            "not_in_hand",
            "duplicate_card",
            "must_bleed",
            "must_follow_suit",
            "must_beat",
            "must_trump",
            "game_over",
            "server_full",
            "too_many_connections",
            "too_many_tables",
            "too_many_waiting",
            "store_unavailable",
            "rate_limited",
            "idle_timeout",
            "internal_error",
            "bad_discard",
            "bad_partners",
            "no_watchers",
            "too_many_watchers",
            "bad_chat",
            "bad_mute",
            "chat_busy",
            "ai_busy",
        ]
    },
):
    """The stable error codes of protocol.md's error table."""


class GameName(Value, schema={"enum": Slot("games", names=True)}):
    """A game's registry name: the Game of a table, of its Commit and of its Reveal."""


class TableInfo(TypedDict):
    """A table as listed: id, name, game, seat count, free seats, the seats in order (null: free),
    the AI that plays its AI seats, and how many watch it. Players has Seats entries, Free of
    them null. Open: Table, TableEntry and WatchEntry close it.

    Keys:
        AI: What plays the table's AI seats, and any seat an AI takes over: the built-in AI the
            table asked for (strong, the default, or naive), or the server's plug-in bot for the
            game (its label, GAME=module:Class).
        Flags: The table options its game is played with (a game's variants, e.g. Hundert's
            Feder); absent when there are none.
        Watchers: How many watch the table now (Watch): 0 to the server's limit (50 by default).
    """

    Table: Annotated[int, TableId]
    Name: Annotated[str, TableName]
    Game: Annotated[str, GameName]
    Seats: Annotated[int, {"minimum": 2, "maximum": 6}]
    Free: Annotated[int, {"minimum": 0, "maximum": 5}]
    Players: Annotated[
        list[str | None],
        {"items": {"anyOf": [ref(PlayerName), {"type": "null"}]}, "minItems": 2, "maxItems": 6},
    ]
    AI: Annotated[str, {"minLength": 1}]
    Flags: NotRequired[
        Annotated[
            list[str],
            {
                "items": {"type": "string", "pattern": "^[A-Z][A-Za-z]*$"},
                "minItems": 1,
                "uniqueItems": True,
            },
        ]
    ]
    Watchers: Annotated[int, {"minimum": 0}]


class TableEntry(
    Value,
    schema={
        **ref(TableInfo),
        "properties": {"Free": {"minimum": 1}},
        "unevaluatedProperties": False,
    },
):
    """One table in a Tables list: TableInfo with a free seat, without Type."""


class Message(TypedDict):
    """--> Text for people: the lobby question, the create options, who won the bid or a trick,
    goodbye.
    """

    Type: Literal["Message"]
    Message: str


class HelloPrompt(TypedDict):
    """--> Lobby prompt: answer Hello with create, join or quit."""

    Type: Literal["Hello"]


class GamePrompt(TypedDict):
    """--> Create prompt (after the numbered options): answer Game with an Option."""

    Type: Literal["Game"]


class Table(TableInfo):
    """--> The table you created or joined; sent again to everyone at it while seats are free,
    whenever someone sits down or leaves.
    """

    Type: Literal["Table"]


class WatchEntry(Value, schema={**ref(TableInfo), "unevaluatedProperties": False}):
    """One table in a Tables list with Watch: TableInfo without Type, waiting or under way (Free
    may be 0), that takes watchers and has room for one more.
    """


class Tables(TypedDict):
    """--> Answer to join: the tables with a free seat (possibly none). With Watch (the answer to
    Hello watch): the tables you may watch, waiting or under way.

    Keys:
        Watch: true: this is the list of the tables you may watch (Hello watch), not of those
            you may join.
    """

    Type: Literal["Tables"]
    Tables: list[TableInfo]
    Watch: NotRequired[Literal[True]]


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


class TimeLeft(Value, schema={"type": "number", "minimum": 0}):
    """Seconds left to the seat to act, when the table has a turn clock."""


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


class ServerTrump(
    Value,
    schema={"if": {"required": ["Seq"]}, "then": ref(TrumpPrompt), "else": ref(TrumpAnnouncement)},
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


class ServerDiscard(
    Value,
    schema={
        "if": {"required": ["Seq"]},
        "then": ref(DiscardPrompt),
        "else": {
            "if": {"anyOf": [{"required": ["Cards"]}, {"required": ["Hand"]}]},
            "then": ref(DiscardPrivate),
            "else": ref(DiscardAnnouncement),
        },
    },
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


class Error(TypedDict):
    """--> To the connection that caused it only: a stable Code and a human Message. Nothing
    changed; a pending prompt follows again.
    """

    Type: Literal["Error"]
    Code: Annotated[str, ErrorCode]
    Message: str


class Token(Value, schema={"type": "string", "pattern": "^[0-9a-f]{32}$"}):
    """A seat token: 128 random bits as 32 lower-case hex digits."""


class HelloAnswer(TypedDict):
    """<-- Answer to the lobby prompt: create, join, watch (the tables you may watch) or quit; Name
    (optional) is kept for later answers. Without Message: the question again. With Token (from
    a Seat message): take that seat back.
    """

    Type: Literal["Hello"]
    Message: NotRequired[Literal["create", "join", "watch", "quit"]]
    Name: NotRequired[Annotated[str, PlayerName]]
    Token: NotRequired[Annotated[str, Token]]
    Game: NotRequired[str]


class GameAnswer(TypedDict):
    """<-- Answer to the create prompt: Option 1-6; with Option 5, Seats (2-4, default 4), Bots (0
    to Seats-1, default 0), Name (default 'table <id>') and Clock (seconds a turn, 0: none);
    with any option, AI (strong or naive, default strong) and Watchers (true, the default, or
    false: nobody may watch the table).

    Keys:
        AI: The AI for the new table's AI seats (any option): strong (the default) or naive; the
            server also takes them in any case.
        Watchers: Whether the new table takes watchers (any option): true, the default, or
            false.
    """

    Type: Literal["Game"]
    Option: Annotated[int, {"minimum": 1, "maximum": 20}]
    Seats: NotRequired[Annotated[int, {"minimum": 2, "maximum": 6}]]
    Bots: NotRequired[Annotated[int, {"minimum": 0, "maximum": 5}]]
    Name: NotRequired[Annotated[str, TableName]]
    Clock: NotRequired[Annotated[int, {"minimum": 0, "maximum": 3600}]]
    Game: NotRequired[str]
    AI: NotRequired[Literal["strong", "naive"]]
    Watchers: NotRequired[bool]


class JoinAnswer(TypedDict):
    """<-- Answer to Tables: sit at the lowest free seat of this table."""

    Type: Literal["Join"]
    Table: Annotated[int, TableId]


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


class SeatMessage(TypedDict):
    """--> Private, on sitting down and on taking a seat back: your seat and its token (keep it:
    Hello with Token takes the seat back).
    """

    Type: Literal["Seat"]
    Table: Annotated[int, TableId]
    Playerid: Annotated[int, Seat]
    Token: Annotated[str, Token]


class Hash(Value, schema={"type": "string", "pattern": "^[0-9a-f]{64}$"}):
    """A table's commitment to its seed: the SHA-256 of the UTF-8 bytes of "<game>|<seed>", as 64
    lower-case hex digits (protocol.md, Provably fair deals).
    """


class Commit(TypedDict):
    """--> To every person at a table when its game starts (after the starts message, before the
    first deal), and again after the table when a seat is taken back: the table's commitment to
    the secret seed every round is dealt from.
    """

    Type: Literal["Commit"]
    Table: Annotated[int, TableId]
    Game: Annotated[str, GameName]
    Hash: Annotated[str, Hash]


class Reveal(TypedDict):
    """--> To every person still at a table when its game ends with a result, before the lobby
    question: the seed the table dealt every round from, and its commitment (the Hash of its
    Commit).

    Keys:
        Seed: The table's seed: 128 random bits as 32 lower-case hex digits (a server given its
            seeds, as the tests are, may use any text).
    """

    Type: Literal["Reveal"]
    Table: Annotated[int, TableId]
    Game: Annotated[str, GameName]
    Seed: Annotated[str, {"minLength": 1}]
    Hash: Annotated[str, Hash]


class BidMade(TypedDict):
    """One bid or pass of a round, as a Snapshot lists them."""

    Playerid: Annotated[int, Seat]
    Bid: Annotated[int, BidAmount]


class CardPlayed(TypedDict):
    """One card of the trick under way, as a Snapshot lists them."""

    Playerid: Annotated[int, Seat]
    PlayedCard: Annotated[str, Card]


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


class WatchAnswer(TypedDict):
    """<-- From the lobby: watch this table (its public messages, never a card in a hand)."""

    Type: Literal["Watch"]
    Table: Annotated[int, TableId]


class LeaveAnswer(TypedDict):
    """<-- A watcher stops watching: back to the lobby question."""

    Type: Literal["Leave"]


class ChatText(
    Value,
    schema={
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "allOf": [
            {
                "pattern": (
                    "^[^\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f"
                    "\\u2028-\\u202e\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb]*$"
                )
            },
            {"pattern": "^\\S(.*\\S)?$"},
        ],
    },
):
    """A chat line as the server passes it on: 1-200 characters, no control or format character
    (Unicode category C, removed by the server: newlines, tabs, DEL, bidi overrides, zero-width
    characters), no space at either end.
    """


class ServerChat(TypedDict):
    """--> A chat line, to everyone where its speaker is (the speaker too), but those who muted the
    speaker: From is the name the speaker goes by there, Where 'lobby' (everyone in the lobby)
    or 'table' (everyone at the speaker's table, its watchers too).
    """

    Type: Literal["Chat"]
    From: Annotated[str, PlayerName]
    Text: Annotated[str, ChatText]
    Where: Literal["lobby", "table"]


class ChatAnswer(TypedDict):
    """<-- Say something, anywhere (the lobby, a seat, watching): Text, a string; the server
    removes control and format characters and the spaces around, and refuses an empty line or
    one of more than 200 characters (bad_chat).
    """

    Type: Literal["Chat"]
    Text: str


class MuteAnswer(TypedDict):
    """<-- See no more of the chat of whoever goes by Name now (as Chat's From shows it), for as
    long as the connection is open, under any name they take later and on a connection that
    takes their seat back with its token; Unmute (by the name muted or their name now) undoes
    it.
    """

    Type: Literal["Mute", "Unmute"]
    Name: str


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


class ServerMessage(
    Envelope,
    side="server",
    types={
        "Message": Message,
        "Hello": HelloPrompt,
        "Game": GamePrompt,
        "Table": Table,
        "Tables": Tables,
        "Deal": Deal,
        "Bid": ServerBid,
        "Unpass": UnpassEcho,
        "Trump": ServerTrump,
        "Discard": ServerDiscard,
        "Play": ServerPlay,
        "Trick": ServerTrick,
        "Score": Score,
        "Error": Error,
        "Seat": SeatMessage,
        "Snapshot": ServerSnapshot,
        "Commit": Commit,
        "Reveal": Reveal,
        "Chat": ServerChat,
    },
):
    """Any message the server sends (-->). Dispatches on Type; every server message is
    closed: a key not listed here is an error.
    """


class ClientMessage(
    Envelope,
    side="client",
    types={
        "Hello": HelloAnswer,
        "Game": GameAnswer,
        "Join": JoinAnswer,
        "Bid": BidAnswer,
        "Unpass": UnpassAnswer,
        "Trump": TrumpAnswer,
        "Discard": DiscardAnswer,
        "Play": PlayAnswer,
        "Watch": WatchAnswer,
        "Leave": LeaveAnswer,
        "Chat": ChatAnswer,
        "Mute": MuteAnswer,
        "Unmute": MuteAnswer,
    },
):
    """Any message a client sends (<--). Dispatches on Type; keys the server does not know
    are ignored, so they are allowed.
    """


class ClassicServerMessage(
    Envelope,
    side="classic server",
    types={"Message": Message, "Hello": HelloPrompt, "Game": GamePrompt},
):
    """Any message the server sends on the classic port (-->), the pinochle seed's dialect:
    only these Types and the keys below, zero values left out (no Bid 0, Amount 0, GameOver
    or Win false). A Bid, Trump or Play naming your Playerid is a prompt to you; your own
    moves are not echoed. Closed, as on the main port.
    """


class ClassicClientMessage(
    Envelope,
    side="classic client",
    types={"Hello": HelloAnswer, "Bid": BidAnswer, "Trump": TrumpAnswer, "Play": PlayAnswer},
):
    """Any message a client sends on the classic port (<--). Open, as on the main port: keys
    the server does not know are ignored.
    """


DEFINITIONS: tuple[Definition, ...] = (
    Seat,
    Seq,
    Card,
    CardAnswer,
    Suit,
    BidAmount,
    Hand,
    Scores,
    Side,
    SideTricks,
    PlayerName,
    TableName,
    TableId,
    ErrorCode,
    GameName,
    shape(
        TableInfo,
        rules={
            "allOf": [
                {
                    "if": {"properties": {"Seats": {"const": 2}}, "required": ["Seats"]},
                    "then": {"properties": {"Players": {"minItems": 2, "maxItems": 2}}},
                },
                {
                    "if": {"properties": {"Seats": {"const": 3}}, "required": ["Seats"]},
                    "then": {"properties": {"Players": {"minItems": 3, "maxItems": 3}}},
                },
                {
                    "if": {"properties": {"Seats": {"const": 4}}, "required": ["Seats"]},
                    "then": {"properties": {"Players": {"minItems": 4, "maxItems": 4}}},
                },
                {
                    "if": {"properties": {"Seats": {"const": 5}}, "required": ["Seats"]},
                    "then": {"properties": {"Players": {"minItems": 5, "maxItems": 5}}},
                },
                {
                    "if": {"properties": {"Seats": {"const": 6}}, "required": ["Seats"]},
                    "then": {"properties": {"Players": {"minItems": 6, "maxItems": 6}}},
                },
                {
                    "if": {"properties": {"Free": {"const": 0}}, "required": ["Free"]},
                    "then": {"properties": {"Players": {"not": {"contains": {"type": "null"}}}}},
                },
                {
                    "if": {"properties": {"Free": {"const": 1}}, "required": ["Free"]},
                    "then": {
                        "properties": {
                            "Players": {
                                "contains": {"type": "null"},
                                "minContains": 1,
                                "maxContains": 1,
                            }
                        }
                    },
                },
                {
                    "if": {"properties": {"Free": {"const": 2}}, "required": ["Free"]},
                    "then": {
                        "properties": {
                            "Players": {
                                "contains": {"type": "null"},
                                "minContains": 2,
                                "maxContains": 2,
                            }
                        }
                    },
                },
                {
                    "if": {"properties": {"Free": {"const": 3}}, "required": ["Free"]},
                    "then": {
                        "properties": {
                            "Players": {
                                "contains": {"type": "null"},
                                "minContains": 3,
                                "maxContains": 3,
                            }
                        }
                    },
                },
            ]
        },
    ),
    TableEntry,
    shape(Message, closed=True),
    shape(HelloPrompt, closed=True),
    shape(GamePrompt, closed=True),
    shape(Table, closed=True, extends=TableInfo),
    WatchEntry,
    shape(
        Tables,
        closed=True,
        rules={
            "if": {"required": ["Watch"]},
            "then": {"properties": {"Tables": {"items": ref(WatchEntry)}}},
            "else": {"properties": {"Tables": {"items": ref(TableEntry)}}},
        },
    ),
    shape(BidPrePassAck, closed=True),
    shape(UnpassEcho, closed=True),
    shape(TrumpAnnouncement, closed=True),
    TimeLeft,
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
    shape(Error, closed=True),
    Token,
    shape(HelloAnswer),
    shape(
        GameAnswer,
        rules={
            "allOf": [
                {
                    "if": {"properties": {"Seats": {"const": 2}}, "required": ["Seats"]},
                    "then": {"properties": {"Bots": {"maximum": 1}}},
                },
                {
                    "if": {"properties": {"Seats": {"const": 3}}, "required": ["Seats"]},
                    "then": {"properties": {"Bots": {"maximum": 2}}},
                },
            ]
        },
    ),
    shape(JoinAnswer),
    shape(UnpassAnswer),
    shape(TrumpAnswer),
    shape(DiscardAnswer),
    shape(SeatMessage, closed=True),
    Hash,
    shape(Commit, closed=True),
    shape(Reveal, closed=True),
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
    shape(WatchAnswer),
    shape(LeaveAnswer),
    ChatText,
    shape(ServerChat, closed=True),
    shape(ChatAnswer),
    shape(MuteAnswer),
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
    ServerMessage,
    ClientMessage,
    ClassicServerMessage,
    ClassicClientMessage,
)

ROOT_DESCRIPTION = (
    "Every message of protocol.md, one JSON object per line. Validate a server message"
    " against #/$defs/ServerMessage and a client message against #/$defs/ClientMessage; the"
    " root accepts either (anyOf: some messages, such as a Trump announcement, are valid both"
    " ways). Server messages are closed (additionalProperties false); client messages are"
    " open, since the server ignores keys it does not know. The classic port's dialect"
    " (protocol.md, The classic port) has its own entry points,"
    " #/$defs/ClassicServerMessage and #/$defs/ClassicClientMessage; the root accepts those"
    " too."
)
ENTRY_POINTS = (ServerMessage, ClientMessage, ClassicServerMessage, ClassicClientMessage)


def contributions() -> dict[str, Contribution]:
    """Each registered game's messages (its package's ``messages.MESSAGES``), in registry
    order."""
    from hundred_server import games

    return {
        name: importlib.import_module(f"{games.__name__}.{name}.messages").MESSAGES
        for name in games.names()
    }


def build_schema(games: Mapping[str, Contribution] | None = None) -> dict[str, Any]:
    """The whole schema, as ``protocol.schema.json`` holds it."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "hundred_server line protocol",
        "description": ROOT_DESCRIPTION,
        "anyOf": [ref(entry) for entry in ENTRY_POINTS],
        "$defs": build_definitions(DEFINITIONS, contributions() if games is None else games),
    }


def schema_text() -> str:
    """The schema file's text: two-space JSON and a final newline."""
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hundred_server.protocol.messages",
        description="Generate protocol.schema.json from the message types.",
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="write the schema file")
    action.add_argument("--check", action="store_true", help="fail if the file is out of date")
    args = parser.parse_args(argv)
    text = schema_text()
    if args.write:
        SCHEMA_PATH.write_text(text, encoding="utf-8")
        return 0
    if SCHEMA_PATH.read_text(encoding="utf-8") != text:
        print(f"{SCHEMA_PATH} is out of date: run make schema", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    # Run as ``python -m`` this file is ``__main__``, a second copy of the module beside
    # the one the games' messages import; the schema is built from that one.
    from hundred_server.protocol import messages

    sys.exit(messages.main())
