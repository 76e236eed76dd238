"""The messages of the lobby and the tables around a game (protocol.md): the question and
its answers, the table lists, seats and tokens, commitments, watching, chat and errors.

Each is a ``TypedDict`` (protocol/declare.py says how they are written); ``DEFINITIONS``
adds what a type cannot say and is what ``protocol.schema.json`` is generated from.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from hundred_server.protocol.declare import Definition, Value, ref, shape
from hundred_server.protocol.message_values import (
    ApiKey,
    ChatText,
    ErrorCode,
    GameName,
    Hash,
    PlayerName,
    Seat,
    TableId,
    TableName,
    Token,
)


class FairClockSettings(
    Value,
    schema={
        "type": "object",
        "properties": {
            "Move": {"type": "number", "exclusiveMinimum": 0},
            "Bank": {"type": "number", "minimum": 0},
            "Strikes": {"type": "integer", "minimum": 1},
        },
        "required": ["Move", "Bank", "Strikes"],
        "additionalProperties": False,
    },
):
    """A ladder table's fair clock: Move seconds a move, a Bank of seconds a seat has for the
    game's slow moves (what a move takes over Move comes off it), and the Strikes (a move that
    empties the bank is one; the last hands the seat to the naive AI for the rest of the set)."""


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
        FairClock: A ladder table's fair clock (absent at other tables): its record's header says
            it too.
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
    FairClock: NotRequired[Annotated[dict[str, float], FairClockSettings]]
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


class Error(TypedDict):
    """--> To the connection that caused it only: a stable Code and a human Message. Nothing
    changed; a pending prompt follows again.
    """

    Type: Literal["Error"]
    Code: Annotated[str, ErrorCode]
    Message: str


class HelloAnswer(TypedDict):
    """<-- Answer to the lobby prompt: create, join, watch (the tables you may watch) or quit; Name
    (optional) is kept for later answers. Without Message: the question again. With Token (from
    a Seat message): take that seat back. With Key (in the first Hello): the connection is that
    account, named as it is. With Views true, the prompts to your seats carry View (false: no
    longer; without it, as it was).
    """

    Type: Literal["Hello"]
    Message: NotRequired[Literal["create", "join", "watch", "quit", "ladder"]]
    Name: NotRequired[Annotated[str, PlayerName]]
    Token: NotRequired[Annotated[str, Token]]
    Key: NotRequired[Annotated[str, ApiKey]]
    Game: NotRequired[str]
    Views: NotRequired[bool]


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
        Rated: Whether the new table's game is rated (any option): false, the default, or true,
            for accounts only (a Key in Hello); its AI seats are the anchors naive or strong.
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
    Rated: NotRequired[bool]


class JoinAnswer(TypedDict):
    """<-- Answer to Tables: sit at the lowest free seat of this table."""

    Type: Literal["Join"]
    Table: Annotated[int, TableId]


class SeatMessage(TypedDict):
    """--> Private, on sitting down and on taking a seat back: your seat and its token (keep it:
    Hello with Token takes the seat back).
    """

    Type: Literal["Seat"]
    Table: Annotated[int, TableId]
    Playerid: Annotated[int, Seat]
    Token: Annotated[str, Token]


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


class WatchAnswer(TypedDict):
    """<-- From the lobby: watch this table (its public messages, never a card in a hand)."""

    Type: Literal["Watch"]
    Table: Annotated[int, TableId]


class LeaveAnswer(TypedDict):
    """<-- A watcher stops watching: back to the lobby question."""

    Type: Literal["Leave"]


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


DEFINITIONS: tuple[Definition, ...] = (
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
    FairClockSettings,
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
    shape(Error, closed=True),
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
    shape(SeatMessage, closed=True),
    shape(Commit, closed=True),
    shape(Reveal, closed=True),
    shape(WatchAnswer),
    shape(LeaveAnswer),
    shape(ServerChat, closed=True),
    shape(ChatAnswer),
    shape(MuteAnswer),
)
