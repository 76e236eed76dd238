"""The wire of a game of four partners (Whist, Spades): seats 0 and 2 (North-South)
against 1 and 3 (East-West), scores and the winner by side.

What such games tell alike is here once: the lobby's four ready-made tables, a side's
name, a card played, a trick won, a deal (each seat its own hand), the game's end (each
seat whether its side won), the result, the snapshot's common part, and a Play prompt's
``Trump``/``Lead``/``WinningCard``. The events it tells are the kit's (kit/tricks.py:
``Dealt``, ``Played``, ``TrickWon``, ``GameWon``, or a game's subclass of one); a game
tells the rest of its events itself (``tell``'s ``own``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from hundred_server.games.base import Preset
from hundred_server.games.kit import messages
from hundred_server.games.kit.cards import Card, Suit, format_cards
from hundred_server.games.kit.tricks import (
    PARTNER_SEATS,
    SIDES,
    CardPlay,
    Dealt,
    GameWon,
    Played,
    TrickWon,
    beats,
    side_of,
    winning_play,
)
from hundred_server.protocol.wire import Message, message

SIDE_TITLES: Final = ("North-South", "East-West")
#: Each seat's side (``GameSpec.sides``): 0 and 2 North-South, 1 and 3 East-West.
SEAT_SIDES: Final = tuple(side_of(seat) for seat in range(PARTNER_SEATS))

#: The lobby's tables of a game of four partners.
PRESETS: Final = (
    Preset("Play against three AI players and start immediately", 4, (1, 2, 3)),
    Preset("Play with a person as your partner against two AI players", 4, (1, 3)),
    Preset("Play with an AI partner against two people", 4, (2,)),
    Preset("Open a 4-seat table for people only", 4, ()),
)

#: A game's events that only it knows how to tell: (event, players) -> messages, or
#: None when the event is not one of its own.
Own = Callable[[Any, Sequence[str]], list[Message] | None]


def describe_side(players: Sequence[str], side: int) -> str:
    """``North-South (ann and cy)``."""
    return f"{SIDE_TITLES[side]} ({players[side]} and {players[side + 2]})"


def play_prompt(msg: Message, trump: Suit | None, trick: Sequence[tuple[int, Card]]) -> Message:
    """A Play prompt's ``Trump``, and while a trick is under way the suit led
    (``Lead``) and the card winning it (``WinningCard``, by the kit's ``beats``)."""
    assert trump is not None
    msg["Trump"] = trump.value
    if trick:
        lead = trick[0][1].suit
        assert lead is not None
        msg["Lead"] = lead.value
        msg["WinningCard"] = winning_play(trick, trump, beats)[1].code
    return msg


def prompter(kinds: Mapping[Any, str]) -> Callable[[Any, int | None, int], Message | None]:
    """The ``Wire.prompt`` of a game of partners whose phases ask ``kinds`` (phase
    -> Type): the pending prompt as a seat sees it, a Play's with ``play_prompt``'s
    fields; ``Legal`` (cards' codes, or a Bid's amounts) only in the acting seat's."""

    def legal(game: Any, seat: int) -> list[Any]:
        return [
            a.card.code if isinstance(a, CardPlay) else a.amount for a in game.legal_actions(seat)
        ]

    def fields(game: Any, msg: Message) -> None:
        if msg["Type"] == "Play":
            play_prompt(msg, game.trump, game.trick)

    return messages.prompter(kinds, legal, fields)


def snapshot(
    game: Any, view: Any, seat: int | None, table: int, own: Message, won: tuple[str, Sequence[int]]
) -> Message:
    """A partnership game's ``Snapshot`` from ``view``, the seat's (a watcher, ``seat``
    None, gets seat 0's without ``Playerid`` and ``Hand``): ``snapshot_head``, the score
    by side, the game's ``own`` fields, then the tricks: how many this hand, the tricks
    each took (``won``: its key and counts), and the trick under way."""
    msg = messages.snapshot_head(game, view, seat, table, format_cards(view.hand))
    msg.update(own)
    msg["Tricks"] = len(view.tricks)
    msg[won[0]] = list(won[1])
    msg["Trick"] = [{"Playerid": s, "PlayedCard": c.code} for s, c in view.current_trick]
    return msg


def win_text(game: Any, winner: int, score: list[int]) -> str:
    """The words of a side's win (``Wire.win_text``)."""
    return f"{describe_side(game.players, winner)} win {max(score)} to {min(score)}"


def public(event: Any, players: Sequence[str]) -> list[Message]:
    """What everyone is told of a card played, a trick won and the game's end."""
    if isinstance(event, Played):
        return [messages.played_message(event.seat, event.card)]
    if isinstance(event, TrickWon):
        won = list(event.tricks_won)
        return messages.trick_messages(players, event.seat, event.card, event.trick, TricksWon=won)
    if isinstance(event, GameWon):
        low, high = sorted(event.totals)
        return [message(f"{describe_side(players, event.side)} win the game {high} to {low}")]
    return []


def private(event: Any, seat: int | None, players: Sequence[str]) -> list[Message]:
    """A seat's own hand, and whether its side won; a watcher (None) has neither."""
    if isinstance(event, Dealt):
        return [messages.deal_message(seat, event.hands, event.dealer, event.hand, players)]
    if isinstance(event, GameWon):
        won = None if seat is None else seat % 2 == event.side
        return [messages.game_over_message(SIDES[event.side], event.totals, won)]
    return []


def tell(
    events: Sequence[Any], seats: Sequence[int | None], players: Sequence[str], own: Own
) -> dict[int | None, list[Message]]:
    """What each of ``seats`` is told of ``events`` (None: a watcher): the game's
    ``own`` messages for its own events, the kit's for the rest."""

    def told(event: Any, names: Sequence[str]) -> list[Message]:
        said = own(event, names)
        return public(event, names) if said is None else said

    return messages.tell(events, seats, players, told, private, (Dealt, GameWon))
