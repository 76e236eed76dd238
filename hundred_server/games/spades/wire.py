"""Spades on the wire: prompts, events to messages, snapshots, and ``SPEC``.

protocol.md, "A game of Spades", is the contract. What each seat is told is decided
here and in kit/partners.py only: a seat's hand goes to that seat alone (``Deal``);
bids, plays and tricks are public. Scores, bags and tricks won are by side, ``[NS,
EW]``; bids and tricks taken in a hand's ``Score`` are by seat.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from hundred_server.games.base import GameSpec, Wire
from hundred_server.games.kit import messages, partners, tricks
from hundred_server.games.spades import records, rules
from hundred_server.games.spades.research import RESEARCH
from hundred_server.games.spades.strong import NaiveBot, StrongBot
from hundred_server.games.spades.text import TEXT
from hundred_server.protocol.wire import Message


def snapshot(game: rules.Game, seat: int | None, table: int) -> Message:
    """The game as ``seat`` knows it (a watcher, None: without Playerid and Hand)."""
    view = game.view_for(0 if seat is None else seat)
    bids = [{"Playerid": s, "Bid": b} for s, b in view.bids]
    own = {"Bags": list(view.bags), "Bids": bids}
    return partners.snapshot(game, view, seat, table, own, ("TricksTaken", view.taken))


def _own(event: rules.Event, players: Sequence[str]) -> list[Message] | None:
    if isinstance(event, tricks.BidMade):
        return [messages.bid_message(event.seat, event.amount)]
    if isinstance(event, rules.HandScored):
        score = messages.score_message(
            event.hand, Bids=event.bids, TricksTaken=event.taken, Points=event.points,
            Bags=event.bags, Score=event.totals,
        )  # fmt: skip
        return [score]
    return None


prompt: Final = partners.prompter({rules.Phase.BIDDING: "Bid", rules.Phase.TRICKS: "Play"})
tell: Final = functools.partial(partners.tell, own=_own)

SPEC: Final = GameSpec(
    sides=partners.SEAT_SIDES,
    presets=partners.PRESETS,
    new_game=lambda players, seed, flags=frozenset(): rules.Game(players, seed),
    records=records.FORMAT,
    wire=Wire(prompt, tell, snapshot, partners.win_text),
    text=TEXT,
    research=RESEARCH,
    bots={"naive": NaiveBot, "default": NaiveBot, "strong": StrongBot},
)
