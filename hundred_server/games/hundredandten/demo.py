"""A game of naive bots told for people, built only from the engine's events.

``Narrator`` turns events into lines of text and knows nothing of how they came about;
``run_demo`` plays the game and feeds it. The demo sees every hand: it is a show, not
a seat.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterable, Sequence
from typing import Final, TextIO

from hundred_server import games
from hundred_server.core import driver
from hundred_server.games.base import player_names
from hundred_server.games.hundredandten.bots import NaiveBot
from hundred_server.games.hundredandten.rules import (
    MOON,
    PASS,
    WINNING_SCORE,
    BiddingWon,
    BidMade,
    Dealt,
    Discarded,
    Event,
    Game,
    GameWon,
    PassedOut,
    Played,
    PrePassed,
    RoundScored,
    TrickWon,
    TrumpSelected,
    Unpassed,
)
from hundred_server.games.kit.cards import Card, Suit

_SUIT_NAMES: Final = {
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.SPADES: "spades",
    Suit.CLUBS: "clubs",
}
_SUIT_ORDER: Final = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3}
_RULE: Final = "─"


def _width(text: str) -> int:
    """Terminal columns: the joker emoji takes two."""
    return len(text) + text.count("🃏")


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _sort_key(card: Card) -> tuple[int, int]:
    suit = card.suit
    return (4, 0) if suit is None else (_SUIT_ORDER[suit], -card.rank)


def pretty_hand(cards: Iterable[Card]) -> str:
    """A hand for people, by suit, high cards first: ``A♠ 5♠ K♥ 3♣ 🃏``."""
    return " ".join(_pad(c.pretty, 3) for c in sorted(cards, key=_sort_key)).rstrip()


def _bid_text(amount: int) -> str:
    return "pass" if amount == PASS else "moon" if amount == MOON else str(amount)


class Narrator:
    """Events in, lines of text out (``lines(events)``); one per game."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = tuple(players)
        self.name_width = max(len(p) for p in players)
        self.rounds = 0
        self._bids: list[str] = []
        self._trick: list[tuple[int, Card]] = []
        self._bidder: int | None = None
        self._bid = 0
        self._trump: Suit | None = None

    def _name(self, seat: int) -> str:
        return self.players[seat]

    def _col(self, seat: int) -> str:
        return self.players[seat].ljust(self.name_width)

    def _by_seat(self, values: Sequence[int], signed: bool = False) -> str:
        fmt = "{:+4d}" if signed else "{:4d}"
        return "   ".join(
            f"{self._col(s)} " + (fmt.format(v) if v or not signed else "   0")
            for s, v in enumerate(values)
        )

    def lines(self, events: Iterable[Event]) -> list[str]:
        out: list[str] = []
        for event in events:
            out.extend(self._line(event))
        return out

    def _line(self, event: Event) -> list[str]:
        if isinstance(event, Dealt):
            self.rounds = event.round
            self._bids, self._bidder, self._trump = [], None, None
            title = f"{_RULE * 2} Round {event.round} · {self._name(event.dealer)} deals "
            out = ["", title + _RULE * max(3, 60 - len(title))]
            out += [f"  {self._col(s)}  {pretty_hand(h)}" for s, h in enumerate(event.hands)]
            return out
        if isinstance(event, PrePassed):
            self._bids.append(f"{self._name(event.seat)} passes early")
        elif isinstance(event, Unpassed):
            self._bids.append(f"{self._name(event.seat)} takes the pass back")
        elif isinstance(event, BidMade):
            text = f"{self._name(event.seat)} {_bid_text(event.amount)}"
            self._bids.append(text + (" (pre-passed)" if event.automatic else ""))
        elif isinstance(event, BiddingWon):
            self._bidder, self._bid = event.seat, event.amount
            won = "shoots the moon" if event.amount == MOON else f"wins the bid at {event.amount}"
            return [
                f"  Bids:     {', '.join(self._bids)}",
                f"            → {self._name(event.seat)} {won}",
            ]
        elif isinstance(event, PassedOut):
            return [
                f"  Bids:     {', '.join(self._bids)}",
                "            → everybody passed: no score this round",
            ]
        elif isinstance(event, TrumpSelected):
            self._trump = event.suit
            extra = "" if event.suit is Suit.HEARTS else ", A♥"
            return [
                f"  Trump:    {event.suit.symbol} {_SUIT_NAMES[event.suit]}"
                f" (every {event.suit.symbol}{extra} and 🃏)"
            ]
        elif isinstance(event, Discarded):
            count = len(event.discarded)
            swap = "keeps the hand" if not count else f"exchanges {count}"
            return [f"  {self._col(event.seat)}  {_pad(swap, 16)}→ {pretty_hand(event.hand)}"]
        elif isinstance(event, Played):
            self._trick.append((event.seat, event.card))
        elif isinstance(event, TrickWon):
            plays = "  ".join(f"{self._name(s)} {_pad(c.pretty, 3)}" for s, c in self._trick)
            self._trick = []
            return [f"  Trick {event.trick}:  {plays}  → {self._name(event.seat)}"]
        elif isinstance(event, RoundScored):
            return self._scored(event)
        elif isinstance(event, GameWon):
            return self._won(event)
        return []

    def _scored(self, event: RoundScored) -> list[str]:
        bidder, bid = self._bidder, self._bid
        assert bidder is not None
        name = self._name(bidder)
        taken = sum(p for s, p in event.entries if s == bidder)
        if bid == MOON:
            verdict = "took every trick: +60" if taken > 0 else "missed the moon: -60"
        elif taken >= 0:
            verdict = f"bid {bid}, took {taken}: made it"
        else:
            verdict = f"bid {bid} and fell short: -{bid}"
        return [
            f"  Points:   {self._by_seat(event.points, signed=True)}   ({name} {verdict})",
            f"  Totals:   {self._by_seat(event.totals)}",
        ]

    def _won(self, event: GameWon) -> list[str]:
        ranking = sorted(range(len(event.totals)), key=lambda s: -event.totals[s])
        others = ", ".join(
            f"{self._name(s)} {event.totals[s]}" for s in ranking if s != event.winner
        )
        return [
            "",
            f"🏆 {self._name(event.winner)} wins with {event.totals[event.winner]} "
            f"after {self.rounds} rounds ({others}).",
        ]


def run_demo(seed: str | None = None, num_players: int = 4, out: TextIO | None = None) -> Game:
    """Play one game of naive bots and tell it on ``out`` (stdout by default)."""
    stream = sys.stdout if out is None else out
    seed = str(uuid.uuid4()) if seed is None else seed
    names = player_names(num_players)
    game = Game(names, seed, deals_itself=False)  # the driver deals: every deal is told
    narrator = Narrator(names)
    bots = [NaiveBot()] * num_players
    stream.write(
        f"Hundred and Ten: {', '.join(names)} (naive bots). First to {WINNING_SCORE} wins.\n"
        f"Seed {seed} (replay it with --seed).\n"
    )
    spec = games.get(game.game_name)
    while (events := driver.step(game, spec, seed, bots)) is not None:
        for line in narrator.lines(events):
            stream.write(line + "\n")
    return game
