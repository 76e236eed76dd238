"""Wire messages that the games send alike, and the one way events become each seat's
messages (each game's wire module supplies what is public and what is private).

A message that everyone is told is one object in every seat's list, so the server
encodes it once; a private one is built per seat, from what that seat may know.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hundred_server.games.base import DeckCard
from hundred_server.protocol import Message, message

#: (event, players) -> what everyone is told of it.
Public = Callable[[Any, Sequence[str]], list[Message]]
#: (event, seat, players) -> what only that seat is told of it.
Private = Callable[[Any, int, Sequence[str]], list[Message]]


def tell(
    events: Sequence[Any],
    seats: Sequence[int],
    players: Sequence[str],
    public: Public,
    private: Private,
) -> dict[int, list[Message]]:
    """What each of ``seats`` is told of ``events``: per event, its public messages
    (shared objects), then the seat's private ones."""
    told: dict[int, list[Message]] = {seat: [] for seat in seats}
    for event in events:
        shared = public(event, players)
        for seat in seats:
            told[seat] += shared
            told[seat] += private(event, seat, players)
    return told


def describe_seat(players: Sequence[str], seat: int) -> str:
    return f"Player {seat} ({players[seat]})"


def deal_message(
    seat: int, hand: Sequence[DeckCard], dealer: int, round_: int, players: Sequence[str]
) -> Message:
    """The private ``Deal``: the seat's own hand only."""
    return {
        "Type": "Deal",
        "Playerid": seat,
        "Hand": [c.code for c in hand],
        "Dealer": dealer,
        "Round": round_,
        "Players": list(players),
    }


def game_over_message(winner: object, totals: Sequence[int], win: bool) -> Message:
    """The private end of a game: the winner (a seat or a side), the final totals, and
    whether the seat told is among the winners."""
    return {"Type": "Score", "GameOver": True, "Winner": winner, "Score": list(totals), "Win": win}


def played_message(seat: int, card: DeckCard) -> Message:
    return {"Type": "Play", "Playerid": seat, "PlayedCard": card.code}


def trick_messages(
    players: Sequence[str], seat: int, card: DeckCard, trick: int, **extra: object
) -> list[Message]:
    """A won trick: the ``Trick`` message (with any game's ``extra`` keys) and its
    words for people."""
    won: Message = {"Type": "Trick", "Playerid": seat, "WinningCard": card.code, "Trick": trick}
    won.update(extra)
    text = f"{describe_seat(players, seat)} wins trick #{trick} with {card.code}"
    return [won, message(text)]
