"""The named values of the wire (protocol.md): seats, cards, hands, names, ids, codes.

Each is a ``Value`` (protocol/declare.py): its docstring is its description, its
``schema`` what a value must be. A message's key names one as ``Annotated[int, Seat]``.
"""

from hundred_server.protocol.declare import Definition, Slot, Value, ref
from hundred_server.protocol.errors import CODES


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


# The codes are errors.CODES, the one list.
class ErrorCode(Value, schema={"enum": list(CODES)}):
    """The stable error codes of protocol.md's error table."""


class GameName(Value, schema={"enum": Slot("games", names=True)}):
    """A game's registry name: the Game of a table, of its Commit and of its Reveal."""


class TimeLeft(Value, schema={"type": "number", "minimum": 0}):
    """Seconds left to the seat to act, when the table has a turn clock."""


class SeatView(
    Value,
    schema={
        "type": "object",
        "required": ["Type", "legal"],
        "properties": {"Type": {"type": "string"}, "legal": {"type": "array", "minItems": 1}},
    },
):
    """The seat's view as the game's built-in AIs read it, in the copy of a prompt to the
    seat to act when its connection said Views in Hello: the game's View dataclass as an
    object of its fields (Type its class name; cards as codes, actions as objects tagged by
    Type). Choice answers with an index into its legal. protocol.md, Views for bots, lists
    each game's fields.
    """


class Token(Value, schema={"type": "string", "pattern": "^[0-9a-f]{32}$"}):
    """A seat token: 128 random bits as 32 lower-case hex digits."""


class ApiKey(Value, schema={"type": "string", "pattern": "^[A-Za-z0-9_-]{43}$"}):
    """An account's API key (POST /api/accounts, POST /api/login): 256 random bits as 43
    characters of URL-safe base64.
    """


class Hash(Value, schema={"type": "string", "pattern": "^[0-9a-f]{64}$"}):
    """A table's commitment to its seed: the SHA-256 of the UTF-8 bytes of "<game>|<seed>", as 64
    lower-case hex digits (protocol.md, Provably fair deals).
    """


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


DEFINITIONS: tuple[Definition, ...] = (
    Seat,
    SeatView,
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
    TimeLeft,
    Token,
    ApiKey,
    Hash,
    ChatText,
)
