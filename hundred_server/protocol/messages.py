"""Every message of the wire (protocol.md) as a type, and the schema made from them.

One ``TypedDict`` a message (a ``Type`` and, where one ``Type`` has several, its
variant: a prompt, an announcement, a private copy), one ``Value`` a named value (a
seat, a card, a hand), a ``Dispatch`` where one ``Type`` has variants and an
``Envelope`` for each entry point: the main port's server and client messages and the
classic port's (here). protocol/declare.py says how they are written. The generic ones
are in message_values.py, lobby_messages.py (the lobby, the tables, chat, errors) and
play_messages.py (what the trick games share); a game's own are in its package
(``games/<game>/messages.py``), found through the registry.

``protocol.schema.json`` is generated from them: ``python -m
hundred_server.protocol.messages --write`` (``make schema``) writes it, ``--check``
says whether the file is what the types give (tests/test_schema.py checks it too).
"""

import argparse
import importlib
import json
import sys
from collections.abc import Mapping
from typing import Any

from hundred_server.protocol import lobby_messages, message_values, play_messages
from hundred_server.protocol.declare import (
    Contribution,
    Definition,
    Envelope,
    build_definitions,
    ref,
)
from hundred_server.protocol.lobby_messages import (
    ChatAnswer,
    Commit,
    Error,
    GameAnswer,
    GamePrompt,
    HelloAnswer,
    HelloPrompt,
    JoinAnswer,
    LeaveAnswer,
    Message,
    MuteAnswer,
    Reveal,
    SeatMessage,
    ServerChat,
    Table,
    Tables,
    WatchAnswer,
)
from hundred_server.protocol.play_messages import (
    BidAnswer,
    ChoiceAnswer,
    Deal,
    DiscardAnswer,
    PlayAnswer,
    Score,
    ServerBid,
    ServerDiscard,
    ServerPlay,
    ServerSnapshot,
    ServerTrick,
    ServerTrump,
    TrumpAnswer,
    UnpassAnswer,
    UnpassEcho,
)
from hundred_server.protocol.schema import SCHEMA_PATH


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
    choice=ChoiceAnswer,
    by_choice=frozenset({"Bid", "Trump", "Discard", "Play"}),
):
    """Any message a client sends (<--). Dispatches on Type; keys the server does not know
    are ignored, so they are allowed. An answer to a prompt with Choice is a ChoiceAnswer.
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
    *message_values.DEFINITIONS,
    *lobby_messages.DEFINITIONS,
    *play_messages.DEFINITIONS,
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
