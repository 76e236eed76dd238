"""Spades on the wire: prompts, events to messages, snapshots, and ``SPEC``.

protocol.md, "A game of Spades", is the contract. What each seat is told is decided
here only: a seat's hand goes to that seat alone (``Deal``); bids, plays and tricks are
public. Scores, bags and tricks won are by side, ``[NS, EW]``; bids and tricks taken in
a hand's ``Score`` are by seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hundred_server.games.base import GameSpec, Preset, check_flags
from hundred_server.games.kit import messages
from hundred_server.games.kit.cards import format_cards
from hundred_server.games.spades import records
from hundred_server.games.spades.bots import NaiveBot
from hundred_server.games.spades.rules import (
    NUM_PLAYERS,
    SIDES,
    TRUMP,
    Bid,
    BidMade,
    Dealt,
    Event,
    Game,
    GameWon,
    HandScored,
    Phase,
    Played,
    TrickWon,
    seeded_deck,
    side_of,
    trick_winner,
)  # fmt: skip
from hundred_server.games.spades.strong import StrongBot
from hundred_server.games.spades.text import TEXT
from hundred_server.protocol.wire import Message, message

SIDE_TITLES: Final = ("North-South", "East-West")


def prompt(game: Game, seat: int | None, seq: int) -> Message | None:
    """The pending ``Bid`` or ``Play`` prompt as ``seat`` sees it (``Legal`` only for
    the seat to act)."""
    actor = game.to_act
    if actor is None or game.phase not in (Phase.BIDDING, Phase.TRICKS):
        return None
    legal = game.legal_actions(actor) if seat == actor else ()
    if game.phase is Phase.BIDDING:
        msg: Message = {"Type": "Bid", "Playerid": actor, "Seq": seq}
        if legal:
            msg["Legal"] = [a.amount for a in legal if isinstance(a, Bid)]
        return msg
    msg = {"Type": "Play", "Playerid": actor, "Seq": seq, "Trump": TRUMP.value}
    if game.trick:
        lead = game.trick[0][1].suit
        assert lead is not None
        msg["Lead"] = lead.value
        msg["WinningCard"] = trick_winner(game.trick)[1].code
    if legal:
        msg["Legal"] = [a.card.code for a in legal if not isinstance(a, Bid)]
    return msg


def snapshot(game: Game, seat: int | None, table: int) -> Message:
    """The game as ``seat`` knows it (a watcher, None: without Playerid and Hand)."""
    view = game.view_for(0 if seat is None else seat)
    msg = messages.snapshot_head(
        table, seat, game.players, view.hand_index + 1, view.dealer, view.phase.value,
        format_cards(view.hand),
    )  # fmt: skip
    msg["Score"] = list(view.scores)
    msg["Bags"] = list(view.bags)
    msg["Bids"] = [{"Playerid": s, "Bid": b} for s, b in view.bids]
    msg["Tricks"] = len(view.tricks)
    msg["TricksTaken"] = list(view.taken)
    msg["Trick"] = [{"Playerid": s, "PlayedCard": c.code} for s, c in view.current_trick]
    return msg


def describe_side(players: Sequence[str], side: int) -> str:
    return f"{SIDE_TITLES[side]} ({players[side]} and {players[side + 2]})"


def _public(event: Event, players: Sequence[str]) -> list[Message]:
    if isinstance(event, BidMade):
        return [{"Type": "Bid", "Playerid": event.seat, "Bid": event.amount}]
    if isinstance(event, Played):
        return [messages.played_message(event.seat, event.card)]
    if isinstance(event, TrickWon):
        won = list(event.tricks_won)
        return messages.trick_messages(players, event.seat, event.card, event.trick, TricksWon=won)
    if isinstance(event, HandScored):
        score: Message = {
            "Type": "Score", "Round": event.hand, "Bids": list(event.bids),
            "TricksTaken": list(event.taken), "Points": list(event.points),
            "Bags": list(event.bags), "Score": list(event.totals),
        }  # fmt: skip
        return [score]
    if isinstance(event, GameWon):
        low, high = sorted(event.totals)
        return [message(f"{describe_side(players, event.side)} win the game {high} to {low}")]
    return []


def _private(event: Event, seat: int | None, players: Sequence[str]) -> list[Message]:
    if isinstance(event, Dealt):
        return [messages.deal_message(seat, event.hands, event.dealer, event.hand, players)]
    if isinstance(event, GameWon):
        won = None if seat is None else side_of(seat) == event.side
        return [messages.game_over_message(SIDES[event.side], event.totals, won)]
    return []


def tell(
    events: Sequence[Event], seats: Sequence[int | None], players: Sequence[str]
) -> dict[int | None, list[Message]]:
    """What each of ``seats`` is told of ``events`` (None: a watcher)."""
    return messages.tell(events, seats, players, _public, _private, (Dealt, GameWon))


def result(game: Game) -> dict[str, object]:
    """How ``game`` ended (``Winner`` is a side), for the store and the games list."""
    score = list(game.scores)
    if game.winner is None:
        return {"Winner": None, "Score": score, "Text": "no winner"}
    text = f"{describe_side(game.players, game.winner)} win {max(score)} to {min(score)}"
    return {"Winner": game.winner, "Score": score, "Text": text}


def new_game(players: Sequence[str], seed: str | None, flags: frozenset[str] = frozenset()) -> Game:
    check_flags(flags, (), "Spades")
    return Game(players, seed)


SPEC: Final = GameSpec(
    name="spades",
    title="Spades",
    sides=tuple(side_of(seat) for seat in range(NUM_PLAYERS)),
    presets=(
        Preset("Play against three AI players and start immediately", 4, (1, 2, 3)),
        Preset("Play with a person as your partner against two AI players", 4, (1, 3)),
        Preset("Play with an AI partner against two people", 4, (2,)),
        Preset("Open a 4-seat table for people only", 4, ()),
    ),
    new_game=new_game,
    seeded_deck=seeded_deck,
    records=records.FORMAT,
    prompt=prompt,
    tell=tell,
    snapshot=snapshot,
    result=result,
    text=TEXT,
    bots={"naive": NaiveBot, "default": NaiveBot, "strong": StrongBot},
)
