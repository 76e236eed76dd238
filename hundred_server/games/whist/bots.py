"""Whist bots: ``act(view) -> Play``, choosing only among ``view.legal``.

``WhistBot`` follows the hints of seeds/whist-bot-assignment.txt and is deterministic
given the view. It reads only what a seat may know: its own hand, the turned-up trump
card (in the dealer's hand until played) and the cards played this hand. Counting those
tells it which cards are still out, so which card is the highest left of its suit (a
"master"), and a seat that did not follow a suit is known to be void in it.

Leading:

1. Draw trumps: holding a trump above every trump an opponent may still hold, lead the
   cheapest such trump, so the opponents' trumps fall before they can ruff.
2. Cash a master: lead the cheapest side-suit master, unless an opponent may ruff it.
3. Otherwise lead a side-suit singleton when holding trumps (to ruff that suit later),
   else the lowest card of the longest side suit; trumps only when nothing else is left.

Following:

- partner winning the trick: play the cheapest card (never trump or overtake partner);
- else, if some card wins: when no opponent plays after us, the lowest card that wins;
  otherwise the lowest card nobody left can beat, if there is one; else second hand
  plays low when following suit, and anyone else the lowest card that wins;
- cannot win: the cheapest card.

The cheapest card is the lowest non-trump that is not a master, from the shortest suit
on ties (to make voids); a trump only when nothing else is left.

``RandomBot`` plays a random legal card from its own seeded generator (a baseline).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from random import Random
from typing import Protocol

from hundred_server.games.kit.bots import seats_after
from hundred_server.games.kit.cards import STANDARD_52, Card, Suit
from hundred_server.games.kit.tricks import PARTNER_SEATS as NUM_PLAYERS
from hundred_server.games.whist.rules import (
    PLAY_ACTIONS,
    Play,
    beats,
    side_of,
    trick_winner,
)
from hundred_server.protocol.errors import HundredError


class WhistInputs(Protocol):
    """The parts of a ``whist.View`` the bots read."""

    @property
    def seat(self) -> int: ...
    @property
    def hand(self) -> tuple[Card, ...]: ...
    @property
    def dealer(self) -> int: ...
    @property
    def trump(self) -> Suit | None: ...
    @property
    def trump_card(self) -> Card | None: ...
    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]: ...
    @property
    def tricks(self) -> tuple[tuple[tuple[int, Card], ...], ...]: ...
    @property
    def played(self) -> tuple[Card, ...]: ...
    @property
    def legal(self) -> tuple[Play, ...]: ...


class _Table:
    """What the viewer can work out from the view: where cards may be, who is void."""

    def __init__(self, view: WhistInputs, trump: Suit) -> None:
        self.seat = view.seat
        self.trump = trump
        self.side = side_of(view.seat)
        partner = (view.seat + 2) % NUM_PLAYERS
        self.opponents = ((view.seat + 1) % NUM_PLAYERS, (view.seat + 3) % NUM_PLAYERS)
        out = set(STANDARD_52).difference(view.hand, view.played)
        # The turned-up card stays in the dealer's hand until played: if that is the
        # partner, no opponent holds it.
        if view.dealer == partner and view.trump_card in out:
            out.discard(view.trump_card)
        #: Cards an opponent may hold.
        self.opponents_may_hold: frozenset[Card] = frozenset(out)
        self.voids: set[tuple[int, Suit | None]] = set()
        for plays in (*view.tricks, view.current_trick):
            if plays:
                led = plays[0][1].suit
                self.voids.update((seat, led) for seat, card in plays[1:] if card.suit is not led)

    def out_in(self, suit: Suit | None) -> list[Card]:
        return [c for c in self.opponents_may_hold if c.suit is suit]

    def is_master(self, card: Card) -> bool:
        """No opponent can hold a higher card of its suit."""
        return all(c < card for c in self.out_in(card.suit))

    def may_ruff(self, seat: int, suit: Suit | None) -> bool:
        """Whether opponent ``seat`` may trump a lead of ``suit``: void there, not in trumps."""
        if suit is self.trump or (seat, self.trump) in self.voids or not self.out_in(self.trump):
            return False
        return (seat, suit) in self.voids or not self.out_in(suit)

    def sure_winner(self, card: Card, seats: Collection[int]) -> bool:
        """Whether none of the opponents in ``seats``, playing after us, can beat ``card``."""
        if card.suit is self.trump:
            return all((s, self.trump) in self.voids for s in seats) or self.is_master(card)
        return self.is_master(card) and not any(self.may_ruff(s, card.suit) for s in seats)


def _cheapest(cards: Sequence[Card], table: _Table, hand: Sequence[Card]) -> Card:
    """The card that costs least to give up (see the module docstring)."""
    lengths = {s: sum(1 for c in hand if c.suit is s) for s in Suit}

    def cost(card: Card) -> tuple[bool, bool, int, int, int]:
        suit = card.suit
        assert suit is not None
        return (suit is table.trump, table.is_master(card), card.rank, lengths[suit], card)

    return min(cards, key=cost)


def _lead(hand: Sequence[Card], table: _Table) -> Card:
    trump = table.trump
    trumps = [c for c in hand if c.suit is trump]
    out_trumps = table.out_in(trump)
    opponents_have_trumps = bool(out_trumps) and not all(
        (s, trump) in table.voids for s in table.opponents
    )
    if trumps and opponents_have_trumps:
        top = max(out_trumps)
        drawing = [c for c in trumps if c > top]
        if drawing:
            return min(drawing)
    side_cards = [c for c in hand if c.suit is not trump]
    masters = [
        c
        for c in side_cards
        if table.is_master(c) and not any(table.may_ruff(s, c.suit) for s in table.opponents)
    ]
    if masters:
        return min(masters, key=lambda c: (c.rank, c))
    if not side_cards:
        return min(trumps)
    if trumps:
        singletons = [c for c in side_cards if sum(1 for d in hand if d.suit is c.suit) == 1]
        if singletons:
            return min(singletons, key=lambda c: (c.rank, c))
    longest = max(sum(1 for d in side_cards if d.suit is c.suit) for c in side_cards)
    return min(
        (c for c in side_cards if sum(1 for d in side_cards if d.suit is c.suit) == longest),
        key=lambda c: (c.rank, c),
    )


def _follow(view: WhistInputs, cards: Sequence[Card], table: _Table) -> Card:
    trick = view.current_trick
    winner, best = trick_winner(trick, table.trump)
    if side_of(winner) == table.side:
        return _cheapest(cards, table, view.hand)
    winning = [c for c in cards if beats(c, best, table.trump)]
    if not winning:
        return _cheapest(cards, table, view.hand)
    # All winning cards share a suit (the suit led, or trumps when void in it).
    later = seats_after(view.seat, NUM_PLAYERS, len(trick))
    later_opponents = [s for s in later if side_of(s) != table.side]
    if not later_opponents:
        return min(winning)
    sure = [c for c in winning if table.sure_winner(c, later_opponents)]
    if sure:
        return min(sure)
    if len(trick) == 1 and winning[0].suit is trick[0][1].suit:
        return _cheapest(cards, table, view.hand)  # second hand low
    return min(winning)


class WhistBot:
    """``act(view) -> Play`` for Whist; see the module docstring."""

    name = "whist"

    def act(self, view: WhistInputs) -> Play:
        cards = [p.card for p in view.legal]
        trump = view.trump
        if not cards or trump is None:
            raise HundredError(f"the whist bot has no play to make as seat {view.seat}")
        if len(cards) == 1:
            return PLAY_ACTIONS[cards[0]]
        table = _Table(view, trump)
        if not view.current_trick:
            return PLAY_ACTIONS[_lead(cards, table)]
        return PLAY_ACTIONS[_follow(view, cards, table)]


class RandomBot:
    """Plays a random legal card, from its own generator (seeded: reproducible)."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = Random(seed)

    def act(self, view: WhistInputs) -> Play:
        if not view.legal:
            raise HundredError(f"the random bot has no play to make as seat {view.seat}")
        return self._random.choice(view.legal)
