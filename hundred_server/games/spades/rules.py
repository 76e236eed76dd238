"""Spades: the pure rules engine (no I/O, no clocks, no randomness of its own).

The rules are docs/rules.md, "Spades": four partners (the kit's ``Partners``), 13 cards
each dealt one at a time from the dealer's left, one bid each of 0 (nil) to 13 tricks,
spades always trump and not led until broken, ``side_points`` and bags scored by side
after each hand; the game ends with a side at 500 or more or -200 or less, and no tie.
Chance is an input: the game waits in ``Phase.DEAL`` for ``deal(deck)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from hundred_server.games.kit import tricks
from hundred_server.games.kit.cards import STANDARD_52, SUIT_OF, Card, Suit
from hundred_server.games.kit.phases import Partners, Rule
from hundred_server.games.kit.tricks import PARTNER_HAND as HAND_SIZE
from hundred_server.games.kit.tricks import PARTNER_SEATS as NUM_PLAYERS
from hundred_server.games.kit.tricks import Phase as Phase
from hundred_server.protocol.errors import IllegalActionError

TARGET: Final = 500
FLOOR: Final = -200
NIL_POINTS: Final = 100
BAG_LIMIT: Final = 10
BAG_PENALTY: Final = 100
TRUMP: Final = Suit.SPADES


class Play(tricks.CardPlay):
    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid ``amount`` tricks, 0-13; 0 is nil."""

    amount: int

    def __post_init__(self) -> None:
        if type(self.amount) is not int or not 0 <= self.amount <= HAND_SIZE:
            raise IllegalActionError(f"no such bid: {self.amount!r} (0-13)", "illegal_bid")


Action: TypeAlias = Play | Bid
PLAY_ACTIONS: Final = tuple(Play(c) for c in STANDARD_52)
BID_ACTIONS: Final = {n: Bid(n) for n in range(HAND_SIZE + 1)}
ALL_BIDS: Final = tuple(BID_ACTIONS.values())


@dataclass(slots=True)
class HandScored:
    hand: int
    bids: tuple[int, ...]  # by seat
    taken: tuple[int, ...]  # tricks by seat
    points: tuple[int, int]  # this hand's, bag penalties included
    bags: tuple[int, int]  # the bags each side carries on, after penalties
    totals: tuple[int, int]


Event: TypeAlias = (
    tricks.Dealt | tricks.BidMade | tricks.Played | tricks.TrickWon | HandScored | tricks.GameWon
)


@dataclass(frozen=True, slots=True)
class View(tricks.PartnersView):
    """What one seat may know (the kit's ``PartnersView``), the bids and bags."""

    bids: tuple[tuple[int, int], ...]  # (seat, amount) in order
    taken: tuple[int, ...]  # tricks by seat this hand
    bags: tuple[int, int]
    broken: bool  # a spade was played to an earlier trick


DECK: Final = tricks.deck_of_52("spades", "Spades")
seeded_deck: Final = DECK.seeded
check_deck: Final = DECK.check


def legal_plays(hand: Sequence[Card], lead: Card | None, broken: bool) -> tuple[Play, ...]:
    if lead is not None or broken:
        return tuple(PLAY_ACTIONS[c] for c in tricks.following(hand, lead))
    return tuple(PLAY_ACTIONS[c] for c in [c for c in hand if SUIT_OF[c] is not TRUMP] or hand)


def side_points(bids: Sequence[int], taken: Sequence[int]) -> tuple[int, int]:
    """(points, bags) of one side's two seats this hand, before the bag penalty: the
    non-nil tricks against the contract (10 a trick bid and a point a bag when made, -10
    a trick bid when set), each nil +-100, and a nil bidder's tricks as bags."""
    contract = sum(bids)
    made = sum(t for b, t in zip(bids, taken, strict=True) if b)
    bags = sum(t for b, t in zip(bids, taken, strict=True) if not b)
    nils = sum(
        NIL_POINTS if t == 0 else -NIL_POINTS for b, t in zip(bids, taken, strict=True) if not b
    )
    if made >= contract:
        bags += made - contract
        return 10 * contract + bags + nils, bags
    return -10 * contract + bags + nils, bags


class Game(Partners[Action, Event]):
    """One game of Spades for four players; see the module docstring."""

    game_name: Final = "spades"
    TITLE = "Spades"

    phase: Phase
    bids: list[tuple[int, int]]

    def __init__(self, players: Sequence[str], seed: str | None = None) -> None:
        super().__init__(players, seed)
        self.trump = TRUMP
        self.bags: tuple[int, int] = (0, 0)
        self._new_hand(0)

    @property
    def broken(self) -> bool:
        return any(SUIT_OF[c] is TRUMP for plays in self.tricks for _, c in plays)

    @property
    def taken(self) -> tuple[int, ...]:
        return tuple(self.trick_winners.count(s) for s in range(NUM_PLAYERS))

    def view_for(self, seat: int) -> View:
        own = {"bids": tuple(self.bids), "taken": self.taken, "bags": self.bags}
        return self._view_of(seat, View, broken=self.broken, **own)

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        self._check_turn(None, Phase.DEAL)
        hands = self._deal_hands(check_deck(deck), Phase.BIDDING)
        return [tricks.Dealt(self.round, self.dealer, hands)]

    def _bid(self, seat: int, action: Bid, events: list[Event]) -> None:
        self.bids.append((seat, action.amount))
        events.append(tricks.BidMade(seat, action.amount))
        self.to_act = self._next(seat)
        if len(self.bids) == NUM_PLAYERS:
            self.phase = Phase.TRICKS  # left of the dealer, who bid first, leads

    def _plays(self, seat: int) -> tuple[Play, ...]:
        lead = self.trick[0][1] if self.trick else None
        # Whether spades are broken counts only for a lead (``legal_plays``).
        return legal_plays(self.hands[seat], lead, lead is not None or self.broken)

    def _check_play(self, seat: int, action: Play) -> None:
        card = action.card
        self._check_follows(seat, card)
        if (
            not self.trick
            and SUIT_OF[card] is TRUMP
            and not self.broken
            and any(SUIT_OF[c] is not TRUMP for c in self.hands[seat])
        ):
            raise IllegalActionError(
                f"spades are not broken: seat {seat} may not lead {card}",
                "spades_not_broken",
            )

    def _play(self, seat: int, action: Play, events: list[Event]) -> None:
        if self._play_to_trick(seat, action.card, events):
            self._score_hand(events)

    def _score_hand(self, events: list[Event]) -> None:
        bids = tuple(amount for _, amount in sorted(self.bids))
        taken = self.taken
        points, bags, totals = [], [], []
        for side in (0, 1):
            got, bag = side_points(bids[side::2], taken[side::2])
            bag += self.bags[side]
            while bag >= BAG_LIMIT:
                got, bag = got - BAG_PENALTY, bag - BAG_LIMIT
            points.append(got)
            bags.append(bag)
            totals.append(self.scores[side] + got)
        (ns, ew), self.bags = totals, (bags[0], bags[1])
        events.append(
            HandScored(self.round, bids, taken, (points[0], points[1]), self.bags, (ns, ew))
        )
        over = ns != ew and (max(ns, ew) >= TARGET or min(ns, ew) <= FLOOR)
        self._hand_scored((ns, ew), (0 if ns > ew else 1) if over else None, events)

    def _new_hand(self, dealer: int) -> None:
        super()._new_hand(dealer)
        self.bids = []

    RULES: ClassVar[dict[type, Rule]] = {
        Bid: Rule(Phase.BIDDING, lambda game, seat: ALL_BIDS, None, _bid),
        Play: Rule(Phase.TRICKS, _plays, _check_play, _play),
    }
