"""Messages protocol.md shows, which the lobby, the schema and text mode tests all hold
the server to."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The options of Hundred and Ten's lobby, as ``create`` lists them.
OPTION_LINES = [
    "Option 1 - Play against three AI players and start immediately",
    "Option 2 - Play against two AI players and start immediately",
    "Option 3 - Play against one AI player and start immediately",
    "Option 4 - Open a 4-seat table for people only",
    "Option 5 - A table of your choice: Seats (2-4), Bots (AI seats), Name, Clock",
    "Option 6 - Go back",
]

#: Table 7, ann's table of your choice: three seats, one AI, one free.
FRIDAY_TABLE: dict[str, Any] = {
    "Type": "Table",
    "Table": 7,
    "Name": "friday",
    "Game": "hundredandten",
    "Seats": 3,
    "Free": 1,
    "Players": ["ann", "AI 1", None],
    "AI": "strong",
    "Watchers": 0,
}


def snapshot_before_the_deal(table: int, seat: int, players: Sequence[str]) -> dict[str, Any]:
    """What a Snapshot at a table of four starts with (protocol.md, Snapshot), as it is
    before the first deal."""
    return {
        "Type": "Snapshot",
        "Table": table,
        "Playerid": seat,
        "Players": list(players),
        "Round": 1,
        "Dealer": 0,
        "Phase": "deal",
        "Hand": [],
        "Score": [0, 0],
    }
