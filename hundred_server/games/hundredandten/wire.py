"""Hundred and Ten on the wire: answers to actions, prompts, and events to messages.

What each seat is told is decided here and nowhere else: ``tell(events, seats, players)``
builds each seat's messages from the engine's events (public ones shared, private ones
per seat; games/messages.py), and ``prompt(game, seat, seq)``
builds the prompt as one seat sees it (``Legal`` only for the seat that must answer).
Another seat's cards never enter a message unless they were played to a trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from hundred_server.games.base import GameSpec, Preset, Wire
from hundred_server.games.hundredandten import records as records
from hundred_server.games.hundredandten.bots import NaiveBot
from hundred_server.games.hundredandten.demo import run_demo
from hundred_server.games.hundredandten.research import RESEARCH
from hundred_server.games.hundredandten.rules import (
    Action,
    Bid,
    BiddingWon,
    BidMade,
    Dealt,
    Discarded,
    Event,
    Game,
    GameWon,
    PassedOut,
    Phase,
    Play,
    Played,
    PrePassed,
    RoundScored,
    SelectTrump,
    TrickWon,
    TrumpSelected,
    Unpassed,
    View,
    trick_winner,
)
from hundred_server.games.hundredandten.strong import StrongBot
from hundred_server.games.hundredandten.text import TEXT
from hundred_server.games.kit import messages
from hundred_server.games.kit.cards import Suit, format_cards
from hundred_server.protocol.wire import (
    Message,
    message,
)

#: Each suit's letter: a prompt names the trump and the lead (``Suit.value`` is a
#: Python-level property, asked twice a prompt).
_LETTER: Final = {suit: suit.value for suit in Suit}
_PROMPT_TYPE: Final = {
    Phase.BIDDING: "Bid",
    Phase.TRUMP: "Trump",
    Phase.DISCARD: "Discard",
    Phase.TRICKS: "Play",
}


def legal_to_wire(actions: Sequence[Action]) -> list[object]:
    """``Legal`` in wire form: bid amounts, suit letters, card codes (the hand for a discard)."""
    wire: list[object] = []
    for action in actions:
        if isinstance(action, Bid):
            wire.append(action.amount)
        elif isinstance(action, SelectTrump):
            wire.append(action.suit.value)
        elif isinstance(action, Play):
            wire.append(action.card.code)
    return wire


def _play_fields(game: Game, msg: Message) -> None:
    """A Play prompt's trump, and the trick's lead and winning card once it has one."""
    if game.phase is Phase.TRICKS:
        assert game.trump is not None
        msg["Trump"] = _LETTER[game.trump]
        if game.trick:
            lead = game.trick[0][1]
            lead_suit = lead.suit or game.trump  # the joker leads as a trump
            msg["Lead"] = _LETTER[lead_suit]
            msg["WinningCard"] = trick_winner(game.trick, game.trump)[1].code


def _legal(game: Game, seat: int) -> list[Any]:
    """A Discard's hand (any of it may go), else the legal actions on the wire."""
    if game.phase is Phase.DISCARD:
        return format_cards(game.hands[seat])
    return legal_to_wire(game.legal_actions(seat))


#: The pending prompt as a seat sees it (see ``messages.prompter``).
prompt: Final = messages.prompter(_PROMPT_TYPE, _legal, _play_fields)


def snapshot(game: Game, seat: int | None, table: int) -> Message:
    """Where the game stands, as ``seat`` knows it: for a person who takes their seat
    back. Built from the seat's view only, so it holds no other seat's cards.

    A watcher (``seat`` None) gets what every seat is told alike: seat 0's view without
    what is seat 0's alone, its ``Hand`` and its ``Discarded`` cards (and no
    ``Playerid``); the counts each seat exchanged are public."""
    own = seat is not None
    base = 0 if seat is None else seat
    view = game.view_for(base)
    n = view.num_players

    def absolute(rel: int) -> int:
        return (rel + base) % n

    msg: Message = {"Type": "Snapshot", "Table": table}
    if own:
        msg["Playerid"] = seat
    msg.update(
        {
            "Players": list(game.players),
            "Round": view.round,
            "Dealer": absolute(view.dealer),
            "Phase": view.phase.value,
        }
    )
    if own:
        msg["Hand"] = format_cards(view.hand)
    msg.update(
        {
            "Score": [view.scores[(s - base) % n] for s in range(n)],
            "Bids": [{"Playerid": absolute(s), "Bid": a} for s, a in view.bids],
            "Bid": view.high_bid,
        }
    )
    if view.bidder is not None:
        msg["Bidder"] = absolute(view.bidder)
    if view.trump is not None:
        msg["Trump"] = view.trump.value
    counts = view.discard_counts
    msg["Exchanged"] = [counts[(s - base) % n] for s in range(n)]
    if own and view.discarded:
        msg["Discarded"] = format_cards(view.discarded)
    msg["Tricks"] = len(view.completed_tricks)
    msg["Trick"] = [{"Playerid": absolute(s), "PlayedCard": c.code} for s, c in view.current_trick]
    return msg


def _public(event: Event, players: Sequence[str]) -> list[Message]:
    """The messages of ``event`` that everyone is told alike."""
    if isinstance(event, Played):
        return [messages.played_message(event.seat, event.card)]
    if isinstance(event, BidMade):
        bid = messages.bid_message(event.seat, event.amount)
        if event.automatic:
            bid["Auto"] = True
        return [bid]
    if isinstance(event, TrickWon):
        return messages.trick_messages(players, event.seat, event.card, event.trick)
    if isinstance(event, TrumpSelected):
        return [{"Type": "Trump", "Playerid": event.seat, "Trump": event.suit.value}]
    if isinstance(event, BiddingWon):
        return [message(f"{players[event.seat]} wins the bid at {event.amount}")]
    if isinstance(event, PassedOut):
        nothing = [0] * len(event.totals)
        score = messages.score_message(
            event.round, Score=event.totals, Points=nothing, PassedOut=True
        )
        return [message("Everybody passed: no score this round"), score]
    if isinstance(event, RoundScored):
        return [messages.score_message(event.round, Score=event.totals, Points=event.points)]
    if isinstance(event, GameWon):
        winner = messages.describe_seat(players, event.winner)
        return [message(f"{winner} wins the game with {event.totals[event.winner]}")]
    return []


#: The events ``_private`` tells a seat anything of (games/messages.py).
_PRIVATE_KINDS: Final = (Dealt, Discarded, PrePassed, Unpassed, GameWon)


def _private(event: Event, seat: int | None, players: Sequence[str]) -> list[Message]:
    """The messages of ``event`` that only ``seat`` is told (its hand, its discards,
    its pre-pass, whether it won); a watcher (None) has none of those."""
    if isinstance(event, Dealt):
        return [messages.deal_message(seat, event.hands, event.dealer, event.round, players)]
    if isinstance(event, Discarded):
        msg: Message = {"Type": "Discard", "Playerid": event.seat, "Count": len(event.discarded)}
        if event.seat == seat:
            msg["Cards"] = format_cards(event.discarded)
            msg["Hand"] = format_cards(event.hand)
        return [msg]
    if isinstance(event, PrePassed) and event.seat == seat:
        return [{"Type": "Bid", "Playerid": seat, "Bid": 0, "PrePass": True}]
    if isinstance(event, Unpassed) and event.seat == seat:
        return [{"Type": "Unpass", "Playerid": seat}]
    return messages.seat_won(event, seat) if isinstance(event, GameWon) else []


#: What each seat is told of some events (kit/messages.py); the seat None is a watcher,
#: told every public message, a ``Deal`` without a hand, each discard's count only, and
#: the end of the game without ``Win``.
tell: Final = messages.teller(_public, _private, _PRIVATE_KINDS)


def win_text(game: Game, winner: int, score: list[int]) -> str:
    return f"{game.players[winner]} wins with {score[winner]}"


SPEC: Final = GameSpec(
    presets=(
        Preset("Play against three AI players and start immediately", 4, (1, 2, 3)),
        Preset("Play against two AI players and start immediately", 3, (1, 2)),
        Preset("Play against one AI player and start immediately", 2, (1,)),
        Preset("Open a 4-seat table for people only", 4, ()),
    ),
    custom=True,
    # the driver deals every round (the seed is recorded)
    new_game=lambda players, seed, flags=frozenset(): Game(players, seed, deals_itself=False),
    view=View,
    records=records.FORMAT,
    wire=Wire(prompt, tell, snapshot, win_text),
    demo=run_demo,
    text=TEXT,
    research=RESEARCH,
    bots={"naive": NaiveBot, "default": NaiveBot, "strong": StrongBot},
)
