"""Rook on the wire: answers to actions, prompts, events to messages, and ``SPEC``.

protocol.md, "A game of Rook", is the contract. What each seat is told is decided here
and nowhere else (``tell``, ``prompt``, ``snapshot``): a seat's hand and the kitty's
cards go only to the seat that holds them, the discard only to the bidder, and a
finished trick's cards to nobody once the next trick starts: a play is told as it is
made and the trick's winner when it ends, and no later message (prompt, score,
snapshot) names a card of it again. Points taken are told only when the hand ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from hundred_server.games.base import GameSpec, Preset, Wire
from hundred_server.games.kit import messages
from hundred_server.games.kit.messages import snapshot_head
from hundred_server.games.rook import records
from hundred_server.games.rook.bots import RookBot
from hundred_server.games.rook.cards import codes, names
from hundred_server.games.rook.records import MOON_WORD
from hundred_server.games.rook.research import RESEARCH
from hundred_server.games.rook.rules import (
    MOON,
    SEAT_COUNTS,
    Action,
    Bid,
    BidMade,
    Dealt,
    Event,
    Game,
    GameWon,
    HandScored,
    KittyTaken,
    Phase,
    Play,
    Played,
    SetupMade,
    StuckDealer,
    TrickWon,
    View,
    suit_of,
    trick_winner,
)
from hundred_server.games.rook.strong import StrongBot
from hundred_server.games.rook.text import TEXT
from hundred_server.protocol.wire import Message, message

_PROMPT_TYPE: Final = {Phase.BIDDING: "Bid", Phase.SETUP: "Setup", Phase.TRICKS: "Play"}


# ------------------------------------------------------------------------ prompts


def _legal_bid(action: Action) -> object:
    assert isinstance(action, Bid)
    return MOON_WORD if action.is_moon else action.amount


def _prompt_fields(game: Game, msg: Message) -> None:
    """A Setup prompt's kitty size and calls; a Play prompt's trump, and the trick's
    lead and winning card once it has one."""
    if msg["Type"] == "Setup":
        msg["Count"] = game.kitty_size
        msg["Calls"] = game.calls
    elif msg["Type"] == "Play":
        trump = game.trump
        assert trump is not None
        msg["Trump"] = trump.value
        if game.trick:
            lead = suit_of(game.trick[0][1], trump)
            assert lead is not None
            msg["Lead"] = lead.value
            msg["WinningCard"] = trick_winner(game.trick, trump)[1].code


def _legal(game: Game, seat: int) -> list[Any]:
    """A Bid's amounts (``"moon"``), a Setup's hand and kitty, a Play's cards."""
    if game.phase is Phase.BIDDING:
        return [_legal_bid(a) for a in game.legal_actions(seat)]
    if game.phase is Phase.SETUP:
        return codes(game.hands[seat])
    return [a.card.code for a in game.legal_actions(seat) if isinstance(a, Play)]


#: The pending prompt as a seat sees it.
prompt: Final = messages.prompter(_PROMPT_TYPE, _legal, _prompt_fields)


# ------------------------------------------------------------------------ events


def _who(players: Sequence[str], seat: int) -> str:
    return messages.describe_seat(players, seat)


def _score_message(event: HandScored) -> Message:
    bid: dict[str, object] = {"Moon": True} if event.is_moon else {"Bid": event.bid}
    return messages.score_message(
        event.hand, Bidder=event.bidder, **bid, Side=event.side, Made=event.made,
        Taken=event.taken, Points=event.points, Score=event.totals,
    )  # fmt: skip


def _score_text(event: HandScored, players: Sequence[str]) -> str:
    bid = "the moon" if event.is_moon else str(event.bid)
    side = sum(event.taken[s] for s in event.side)
    with_ = [s for s in event.side if s != event.bidder]
    partners = f" with {', '.join(_who(players, s) for s in with_)}" if with_ else " alone"
    made = "made it" if event.made else "went set"
    totals = ", ".join(f"{players[s]} {t}" for s, t in enumerate(event.totals))
    return (
        f"Hand {event.hand}: {_who(players, event.bidder)} bid {bid}{partners}, took {side} "
        f"and {made}. Scores: {totals}"
    )


def _public(event: Event, players: Sequence[str]) -> list[Message]:
    if isinstance(event, BidMade):
        if event.is_moon:
            return [{"Type": "Bid", "Playerid": event.seat, "Moon": True}]
        return [messages.bid_message(event.seat, event.amount)]
    if isinstance(event, StuckDealer):
        return [messages.stuck_dealer_message(event, players)]
    if isinstance(event, KittyTaken):
        return [message(f"{_who(players, event.seat)} takes the kitty")]
    if isinstance(event, SetupMade):
        called = f" and calls {names(event.partners)}" if event.partners else ""
        holds = "holds points" if event.points_in_discard else "holds no points"
        text = (
            f"{_who(players, event.seat)} names {event.trump.title} trump{called}; the "
            f"discard {holds}"
        )
        return [message(text)]
    if isinstance(event, Played):
        played = messages.played_message(event.seat, event.card)
        if not event.partner:
            return [played]
        text = f"{_who(players, event.seat)} played the called {event.card.name} and is a partner"
        return [{**played, "Partner": True}, message(text)]
    if isinstance(event, TrickWon):
        return messages.trick_messages(players, event.seat, event.card, event.trick)
    if isinstance(event, HandScored):
        return [_score_message(event), message(_score_text(event, players))]
    if isinstance(event, GameWon):
        score = event.totals[event.winner]
        return [message(f"{_who(players, event.winner)} wins the game with {score}!")]
    return []  # Dealt: private only


def _private(event: Event, seat: int | None, players: Sequence[str]) -> list[Message]:
    """What only ``seat`` is told: its hand; the kitty's cards and the discard, if it
    is the bidder; whether it won. A watcher (None) is told none of those: a ``Deal``
    without a hand, the kitty's and the setup's public copies."""
    if isinstance(event, Dealt):
        size = message(f"Hand {event.hand}: the kitty holds {event.kitty_size} cards")
        deal = messages.deal_message(seat, event.hands, event.dealer, event.hand, players)
        return [deal, size]
    if isinstance(event, KittyTaken):
        kitty: Message = {"Type": "Kitty", "Playerid": event.seat, "Count": len(event.cards)}
        if seat == event.seat:
            kitty["Cards"] = codes(event.cards)
            kitty["Hand"] = codes(event.hand)
        return [kitty]
    if isinstance(event, SetupMade):
        setup: Message = {
            "Type": "Setup",
            "Playerid": event.seat,
            "Trump": event.trump.value,
            "Partners": codes(event.partners),
            "PointsInDiscard": event.points_in_discard,
        }
        if seat == event.seat:
            setup["Discard"] = codes(event.discard)
            setup["Hand"] = codes(event.hand)
        return [setup]
    return messages.seat_won(event, seat) if isinstance(event, GameWon) else []


#: What each seat is told of some events (kit/messages.py); the seat None is a watcher,
#: told what a seat that is not the bidder is, without a hand: every play as it is
#: made, never a finished trick's cards again, never the kitty's or the discard's
#: cards, and the end of the game without ``Win``.
tell: Final = messages.teller(_public, _private)


# ------------------------------------------------------------------------ snapshot


def _bid_object(seat: int, amount: int) -> Message:
    if amount == MOON:
        return {"Playerid": seat, "Moon": True}
    return {"Playerid": seat, "Bid": amount}


def snapshot(game: Game, seat: int | None, table: int) -> Message:
    """Where the game stands, as ``seat`` knows it: for a person who takes their seat
    back. Built from the seat's view only: no other seat's hand, no finished trick.

    A watcher (``seat`` None) gets seat 0's view without what is seat 0's alone, its
    ``Hand`` and (if it bid) its ``Discarded`` cards, and no ``Playerid``: the bids,
    who won each finished trick (never its cards), the trump, the called cards not
    played yet, the partners revealed and the trick under way."""
    view: View = game.view_for(0 if seat is None else seat)
    msg = snapshot_head(game, view, seat, table, codes(view.hand))
    msg["Bids"] = [_bid_object(s, amount) for s, amount in view.bids]
    msg["Winners"] = list(view.trick_winners)
    if view.bidder is not None:
        msg["Bidder"] = view.bidder
        if view.moon:
            msg["Moon"] = True
        else:
            msg["Bid"] = view.bid
    if view.trump is not None:
        msg["Trump"] = view.trump.value
        msg["Called"] = codes(view.called)
        msg["Partners"] = list(view.partners)
    if view.points_in_discard is not None:
        msg["PointsInDiscard"] = view.points_in_discard
    if seat is not None and view.discarded:
        msg["Discarded"] = codes(view.discarded)
    if view.phase is Phase.TRICKS:
        msg["Trick"] = [{"Playerid": s, "PlayedCard": c.code} for s, c in view.current_trick]
    return msg


# ------------------------------------------------------------------------ the spec


def win_text(game: Game, winner: int, score: list[int]) -> str:
    others = ", ".join(str(s) for i, s in enumerate(score) if i != winner)
    return f"{game.players[winner]} wins with {score[winner]} (the others: {others})"


_NUMBER_WORDS: Final = {2: "two", 3: "three", 4: "four", 5: "five"}

SPEC: Final = GameSpec(
    presets=(
        *(
            Preset(f"{n} players: you against {_NUMBER_WORDS[n - 1]} AI", n, tuple(range(1, n)))
            for n in SEAT_COUNTS
        ),
        Preset("4 players: two people and two AI", 4, (2, 3)),
        Preset("6 players: three people and three AI", 6, (3, 4, 5)),
    ),
    custom=True,
    new_game=lambda players, seed, flags=frozenset(): Game(players),  # every Deck recorded
    # Today's AI is both the plainest player and the default; strong searches.
    research=RESEARCH,
    bots={"naive": RookBot, "default": RookBot, "strong": StrongBot},
    records=records.FORMAT,
    wire=Wire(prompt, tell, snapshot, win_text),
    text=TEXT,
)
