"""Rook: the pure rules engine (no I/O, no clocks, no randomness of its own).

The rules are ../shared/RULES.md, section "Rook" (from seeds/rook-rules.txt): 45 cards
(four colours of 1 and 5-14, and the Rook bird; cards.py), 3 to 6 players, each for
themselves until partners are revealed. The dealer deals one card at a time from their
left; the last 6/5/5/3 cards (3/4/5/6 players) are the kitty, so ``deck[i]`` goes to
seat ``(dealer + 1 + i) % n`` for ``i`` below ``n * hand size``. Bidding from the
dealer's left, clockwise, skipping those who passed: 80 to 200 in fives, topping the
high bid, or the moon; a pass is final; bidding ends when all but one have passed and
that one holds the high bid, or at once on a moon; if all pass the dealer is the bidder
at 80. The bidder takes the kitty, and in one ``Setup`` discards as many cards, names
trump and calls ``floor(n/2) - 1`` partner cards (none on a moon). The bird is the
lowest trump; follow the led colour if able (the bird is of the trump colour), else
play anything; the highest trump wins, else the highest of the led colour (1, 14, 13
... 5). The bidder leads the first trick, the winner of a trick the next. Points: 5s 5,
10s and 14s 10, 1s 15, the bird 20, and the last trick 20 more and the discard's
points (200 a hand). A called card held by another seat makes it a partner, revealed
when that card is played. The bidding side (bidder and partners) makes its bid when
its points reach it: each member scores the side's points, else minus the bid; the
opposition each score the opposition's points. A moon is worth 400 (``MOON``): the
bidder alone scores +400 for every trick, else -400. The game ends after a hand when
someone has 500 or more: the highest wins; a tie at the top deals another hand.

Shape of the API (as the other engines, so one game interface covers them all)::

    game = Game(["ann", "bob", "cy", "dee"])   # waits in Phase.DEAL
    events = game.deal(deck)         # the 45 cards in dealing order
    game.to_act                      # the seat that must act, or None
    game.legal_actions(seat)         # what that seat may do now
    events = game.apply(seat, Bid(85))   # all-or-nothing; raises IllegalActionError
    game.view_for(seat)              # what that seat may know

Actions: ``Bid(amount)`` (0 passes, 80..200 in fives, ``MOON`` for the moon),
``Setup(discard, trump, partners)`` and ``Play(card)``. A setup's choices are too many
to list (choose 6 of 19 cards, a colour, a card to call...): ``legal_actions`` gives
one ready-made ``Setup`` per trump colour (``sample_setups``), and any setup that
``check_setup`` passes is accepted.

Phases, and who may act (decided in one place, ``_check_turn``)::

    DEAL       nobody: the game waits for deal(deck)
    BIDDING    the seat to bid: Bid(0), Bid(80..200) or Bid(MOON)
    SETUP      the bidder: Setup(discard, trump, partners)
    TRICKS     the seat to play: Play(card); then DEAL or GAME_OVER
    GAME_OVER  nobody

Nobody sees a finished trick again (RULES.md item 7): no event after the one that ends a
trick, and nothing the wire shows from a view (prompts, snapshots), names its cards;
only who won it (``trick_winners``). Every seat was told each card as it was played,
though, so a seat's view keeps what it was told this hand (``View.tricks``, the cards
of the finished tricks), for an AI that remembers; the wire never sends that field.

Every ``IllegalActionError`` code the engine raises:

- ``bad_players``: not 3 to 6 players; ``duplicate_name``: two alike;
  ``bad_flag``: a table option Rook does not have (it has none);
- ``bad_seat``: no such seat; ``bad_action``: not a Rook action;
- ``bad_deck``: ``deal`` given anything but the 45 cards;
- ``game_over``: the game has ended; ``wrong_phase``: an action of another phase;
  ``not_your_turn``: another seat acts;
- ``illegal_bid``: an amount that is not 0, 80..200 in fives or ``MOON`` (raised by
  ``Bid`` itself), or one that does not top the high bid;
- ``bad_suit``: a ``Setup`` whose trump is not a ``Colour``;
- ``bad_discard``: a discard of the wrong number of cards, or naming a card twice;
- ``bad_partners``: the wrong number of called cards, or one called twice;
- ``not_in_hand``: a card (played or discarded) the seat does not hold;
- ``must_follow_suit``: off the led colour while holding it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from hundred_server.games.kit import tricks
from hundred_server.games.kit.phases import Bids, HandDeal, Rule, TrickGame
from hundred_server.games.kit.phases import GameWon as GameWon
from hundred_server.games.kit.tricks import (
    Deck,
    winning_play,
)
from hundred_server.games.kit.tricks import Phase as Phase
from hundred_server.games.kit.tricks import StuckDealer as StuckDealer
from hundred_server.games.rook.cards import (
    COLOURS,
    ROOK_DECK,
    Colour,
    RookCard,
)
from hundred_server.protocol.errors import CardCodeError, IllegalActionError

# ---------------------------------------------------------------------------- constants

SEAT_COUNTS: Final = (3, 4, 5, 6)
#: Kitty size by number of players.
KITTY: Final = {3: 6, 4: 5, 5: 5, 6: 3}
#: Hand size by number of players: (45 - kitty) / players.
HAND_SIZES: Final = {n: (len(ROOK_DECK) - k) // n for n, k in KITTY.items()}
PASS: Final = 0
MIN_BID: Final = 80
MAX_BID: Final = 200
BID_STEP: Final = 5
#: The moon's bid: what it is worth, made (+) or not (-): double the 200 of a hand.
MOON: Final = 400
#: The dealer's bid when every seat passes.
STUCK_BID: Final = MIN_BID
#: The last trick's bonus (it takes the discard's points too).
LAST_TRICK_BONUS: Final = 20
HAND_POINTS: Final = 200
WINNING_SCORE: Final = 500

#: Points by card index: 5s 5, 10s and 14s 10, 1s 15, the bird 20.
POINTS: Final[tuple[int, ...]] = tuple(
    20 if c.is_bird else {5: 5, 10: 10, 14: 10, 1: 15}.get(c.number, 0) for c in ROOK_DECK
)
#: Rank within a colour by card index: 5 is 5 ... 14 is 14, the 1 is 15; the bird 0
#: (the lowest trump).
STRENGTH: Final[tuple[int, ...]] = tuple(
    0 if c.is_bird else 15 if c.number == 1 else c.number for c in ROOK_DECK
)


def _display_rank(card: RookCard) -> int:
    colour = card.colour
    return 100 if colour is None else COLOURS.index(colour) * 20 + 15 - STRENGTH[card]


#: Display order: by colour (B G R Y), high to low within one (1, 14 ... 5), the bird last.
_SORT_KEY: Final[tuple[int, ...]] = tuple(_display_rank(c) for c in ROOK_DECK)


def calls_for(players: int) -> int:
    """How many partner cards a bidder calls: floor(players / 2) - 1."""
    return players // 2 - 1


def sort_hand(cards: Iterable[RookCard]) -> tuple[RookCard, ...]:
    """Cards in display order: colours B, G, R, Y, each 1, 14, 13 ... 5; the bird last."""
    return tuple(sorted(cards, key=_SORT_KEY.__getitem__))


def suit_of(card: RookCard, trump: Colour | None) -> Colour | None:
    """The colour a card plays as: its own, the trump colour for the bird."""
    return trump if card.is_bird else card.colour


#: ``suit_of`` as tables, for the engine's loops: ``PLAYS_AS[trump][card]``.
PLAYS_AS: Final[dict[Colour | None, tuple[Colour | None, ...]]] = {
    trump: tuple(suit_of(c, trump) for c in ROOK_DECK) for trump in (None, *COLOURS)
}


def card_points(cards: Iterable[RookCard]) -> int:
    return sum(POINTS[c] for c in cards)


# ------------------------------------------------------------------------------ actions

_AMOUNTS: Final = (PASS, *range(MIN_BID, MAX_BID + 1, BID_STEP), MOON)


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid: 0 passes, 80..200 in fives, or ``MOON`` (400) shoots the moon."""

    amount: int

    def __post_init__(self) -> None:
        if type(self.amount) is not int or self.amount not in _AMOUNTS:
            raise IllegalActionError(
                f"no such bid: {self.amount!r} (0 to pass, {MIN_BID} to {MAX_BID} in fives, "
                "or the moon)",
                "illegal_bid",
            )

    @property
    def is_moon(self) -> bool:
        return self.amount == MOON


@dataclass(frozen=True, slots=True)
class Setup:
    """The bidder's one answer after taking the kitty: the cards it discards, the trump
    colour and the partner cards it calls."""

    discard: tuple[RookCard, ...]
    trump: Colour
    partners: tuple[RookCard, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.trump, Colour):
            raise IllegalActionError(f"not a colour: {self.trump!r}", "bad_suit")
        for name in ("discard", "partners"):
            cards = getattr(self, name)
            if type(cards) is not tuple or not all(type(c) is RookCard for c in cards):
                raise CardCodeError(f"a setup's {name} is a tuple of Rook cards: {cards!r}")


@dataclass(frozen=True, slots=True)
class Play:
    card: RookCard

    def __post_init__(self) -> None:
        if type(self.card) is not RookCard:
            raise CardCodeError(f"not a Rook card: {self.card!r}")


Action: TypeAlias = Bid | Setup | Play

#: Shared instances: ``BID_ACTIONS[amount]``, ``PLAY_ACTIONS[card]``.
BID_ACTIONS: Final = {a: Bid(a) for a in _AMOUNTS}
PLAY_ACTIONS: Final = tuple(Play(c) for c in ROOK_DECK)
_RAISES: Final = tuple(BID_ACTIONS[a] for a in range(MIN_BID, MAX_BID + 1, BID_STEP))


def legal_bids(high: int) -> tuple[Bid, ...]:
    """The bids open when ``high`` is the high bid (0: none yet): pass, every amount
    that tops it up to 200, lowest first, and the moon (always, while bidding)."""
    return (
        BID_ACTIONS[PASS],
        *(b for b in _RAISES if b.amount > high),
        BID_ACTIONS[MOON],
    )


# ------------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Dealt:
    hand: int  # 1-based, as records and messages count
    dealer: int
    hands: tuple[tuple[RookCard, ...], ...]  # every seat's, sorted: show each only its own
    kitty_size: int


class BidMade(tricks.BidMade):
    """A bid: 0 a pass, ``MOON`` the moon."""

    __slots__ = ()

    @property
    def is_moon(self) -> bool:
        return self.amount == MOON


@dataclass(frozen=True, slots=True)
class KittyTaken:
    """The bidder takes the kitty: ``cards`` and the ``hand`` it makes are the bidder's
    to see only; everyone is told how many cards it holds (``count``)."""

    seat: int
    cards: tuple[RookCard, ...]
    hand: tuple[RookCard, ...]  # sorted
    calls: int  # partner cards the bidder must call


@dataclass(frozen=True, slots=True)
class SetupMade:
    """The bidder's setup: trump, the called cards and whether the discard holds points
    are public; the discard and the hand it leaves are the bidder's only."""

    seat: int
    trump: Colour
    partners: tuple[RookCard, ...]
    points_in_discard: bool
    discard: tuple[RookCard, ...]
    hand: tuple[RookCard, ...]  # sorted


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: RookCard
    #: Whether this play reveals ``seat`` as a partner (a called card, its first).
    partner: bool = False


@dataclass(frozen=True, slots=True)
class TrickWon:
    seat: int
    card: RookCard  # the winning card
    trick: int  # 1-based within the hand


@dataclass(frozen=True, slots=True)
class HandScored:
    hand: int  # 1-based
    bidder: int
    bid: int  # MOON on a moon
    side: tuple[int, ...]  # the bidding side's seats, sorted
    made: bool
    taken: tuple[int, ...]  # points each seat took (last trick and discard included)
    points: tuple[int, ...]  # the score change by seat
    totals: tuple[int, ...]

    @property
    def is_moon(self) -> bool:
        return self.bid == MOON


Event: TypeAlias = (
    Dealt
    | BidMade
    | StuckDealer
    | KittyTaken
    | SetupMade
    | Played
    | TrickWon
    | HandScored
    | GameWon
)


#: A deal in ``Game.history`` (the kit's): the hand (1-based), its dealer and deck order.
DealRecord: Final = HandDeal


# -------------------------------------------------------------------------------- views

Plays: TypeAlias = tuple[tuple[int, RookCard], ...]


@dataclass(frozen=True, slots=True)
class View(Bids):
    """What one seat may know: its own hand, what is shown to the table, and what it
    was told this hand. A view is a snapshot.

    ``tricks`` is the seat's memory, not the table: the cards of this hand's finished
    tricks, as every seat was told them when they were played. The wire shows none of
    them again (RULES.md item 7): no prompt or snapshot reads that field."""

    seat: int
    num_players: int
    phase: Phase
    hand_index: int  # 0-based
    hand: tuple[RookCard, ...]  # sorted
    dealer: int
    to_act: int | None
    bids: tuple[tuple[int, int], ...]  # (seat, amount) this hand in order; 0 pass, MOON
    bidder: int | None  # once bidding is over
    bid: int | None  # the bid (80 for a stuck dealer; MOON on a moon)
    kitty_size: int
    calls: int  # partner cards the bidder calls this hand (0 on a moon)
    trump: Colour | None
    called: tuple[RookCard, ...]  # the called cards not played yet
    partners: tuple[int, ...]  # revealed partner seats, in the order revealed
    points_in_discard: bool | None  # once the setup is made
    discarded: tuple[RookCard, ...]  # the bidder's own discard (() for anyone else)
    current_trick: Plays  # (seat, card) in playing order
    #: This hand's finished tricks as the seat was told them: (seat, card) in playing
    #: order, one tuple a trick (the wire never shows them again).
    tricks: tuple[Plays, ...]
    trick_winners: tuple[int, ...]  # the seat that won each finished trick
    scores: tuple[int, ...]
    legal: tuple[Action, ...]

    @property
    def moon(self) -> bool:
        return self.bid == MOON


# ------------------------------------------------------------------------------- decks


#: The 45 cards, each once; hands in ``sort_hand`` order.
DECK: Final = Deck(
    "rook",
    ROOK_DECK,
    "a Rook deck is the 45 cards, each once",
    sort_hand,
    card_type=RookCard,
    unlike="a Rook deck holds Rook cards only",
)
seeded_deck: Final = DECK.seeded
check_deck: Final = DECK.check


def deal_hands(
    deck: Sequence[RookCard], dealer: int, players: int
) -> tuple[tuple[tuple[RookCard, ...], ...], tuple[RookCard, ...]]:
    """Each seat's hand, sorted, and the kitty: ``deck[i]`` goes to seat
    ``(dealer + 1 + i) % players``, and the last kitty-size cards are the kitty."""
    return DECK.deal(deck, dealer, players, HAND_SIZES[players])


# -------------------------------------------------------------------------- tricks


def trick_winner(trick: Sequence[tuple[int, RookCard]], trump: Colour) -> tuple[int, RookCard]:
    """(seat, card) winning a trick (complete or not): the highest trump, the bird being
    the lowest, else the highest card of the led colour."""
    return winning_play(trick, trump, beats)


def beats(card: RookCard, best: RookCard, trump: Colour) -> bool:
    """Whether ``card`` played now takes the trick from ``best``, the card winning it
    (of the led colour, or a trump): higher in its colour, or a trump on a non-trump."""
    plays_as = PLAYS_AS[trump]
    suit = plays_as[card]
    if suit is plays_as[best]:
        return STRENGTH[card] > STRENGTH[best]
    return suit is trump


def legal_plays(
    hand: Sequence[RookCard], trick: Sequence[tuple[int, RookCard]], trump: Colour
) -> tuple[Play, ...]:
    """RULES.md item 6: the led colour if the hand holds it (the bird is of the trump
    colour), else anything; in the hand's order."""
    if trick:
        plays_as = PLAYS_AS[trump]
        led = plays_as[trick[0][1]]
        follow = [c for c in hand if plays_as[c] is led]
        if follow:
            return tuple(PLAY_ACTIONS[c] for c in follow)
    return tuple(PLAY_ACTIONS[c] for c in hand)


def check_play(
    hand: Sequence[RookCard],
    trick: Sequence[tuple[int, RookCard]],
    trump: Colour,
    played: RookCard,
    holder: str = "the hand",
) -> None:
    """Raise why ``played`` may not be played now (``not_in_hand``,
    ``must_follow_suit``); else nothing."""
    if played not in hand:
        raise IllegalActionError(f"{holder} does not hold {played}", "not_in_hand")
    if not trick:
        return
    plays_as = PLAYS_AS[trump]
    led = plays_as[trick[0][1]]
    if plays_as[played] is not led and any(plays_as[c] is led for c in hand):
        assert led is not None
        what = f"{led.title.lower()} (trump, the Rook included)" if led is trump else led.title
        raise IllegalActionError(
            f"{trick[0][1]} was led and {holder} holds {what}: it must follow, not play {played}",
            "must_follow_suit",
        )


# ------------------------------------------------------------------------- the setup


def check_setup(
    hand: Sequence[RookCard], setup: Setup, count: int, calls: int, holder: str = "the bidder"
) -> None:
    """Raise why ``setup`` is refused for a bidder holding ``hand`` (the kitty
    included) who must discard ``count`` cards and call ``calls`` partner cards:
    ``bad_discard``, ``not_in_hand`` or ``bad_partners``; else nothing."""
    discard = setup.discard
    if len(discard) != count:
        raise IllegalActionError(
            f"discard {count} cards (as many as the kitty held), not {len(discard)}",
            "bad_discard",
        )
    if len(set(discard)) != len(discard):
        twice = sorted({c.code for c in discard if discard.count(c) > 1})
        raise IllegalActionError(
            f"a discard names each card once: {', '.join(twice)} twice", "bad_discard"
        )
    missing = [c.code for c in discard if c not in hand]
    if missing:
        raise IllegalActionError(
            f"{holder} does not hold {', '.join(missing)} to discard", "not_in_hand"
        )
    partners = setup.partners
    if len(partners) != calls:
        raise IllegalActionError(
            f"call {calls} partner card{'s' if calls != 1 else ''}, not {len(partners)}",
            "bad_partners",
        )
    if len(set(partners)) != len(partners):
        twice = sorted({c.code for c in partners if partners.count(c) > 1})
        raise IllegalActionError(
            f"a partner card is called once: {', '.join(twice)} twice", "bad_partners"
        )


def sample_setups(hand: Sequence[RookCard], count: int, calls: int) -> tuple[Setup, ...]:
    """Ready-made legal setups, one per trump colour (``legal_actions`` in SETUP): the
    hand's last ``count`` cards in display order go, and the highest ``calls`` cards of
    the trump colour the bidder does not keep are called."""
    discard = tuple(sort_hand(hand)[len(hand) - count :])
    kept = set(hand) - set(discard)
    setups = []
    for colour in COLOURS:
        ranked = [c for c in _RANKED[colour] if c not in kept]
        setups.append(Setup(discard, colour, tuple(ranked[:calls])))
    return tuple(setups)


#: Each colour's cards, highest first (the deck's order among equals, as a stable sort).
_RANKED: Final = {
    colour: tuple(sorted((c for c in ROOK_DECK if c.colour is colour), key=lambda c: -STRENGTH[c]))
    for colour in COLOURS
}


# ------------------------------------------------------------------------------ scoring


def hand_score(
    taken: Sequence[int], bid: int, side: Sequence[int], swept: bool
) -> tuple[tuple[int, ...], bool]:
    """Score changes by seat and whether the bid was made (RULES.md item 8).

    ``taken``: the points each seat took (the last trick's 20 and the discard's points
    included); ``side``: the bidder and its partners; ``swept``: whether the bidder won
    every trick. A made bid scores the side's points to each member, a failed one minus
    the bid; a moon (``bid`` is ``MOON``, the bidder alone) is made by winning every
    trick, scoring +400, else -400. Each of the opposition scores the opposition's
    points.
    """
    members = set(side)
    ours = sum(taken[s] for s in members)
    theirs = sum(t for s, t in enumerate(taken) if s not in members)
    made = swept if bid == MOON else ours >= bid
    mine = (bid if bid == MOON else ours) if made else -bid
    return tuple(mine if s in members else theirs for s in range(len(taken))), made


def game_winner(totals: Sequence[int]) -> int | None:
    """The winner once a hand is scored: when someone has 500 or more, the one highest
    score (a tie at the top: None, another hand is dealt)."""
    top = max(totals)
    if top < WINNING_SCORE or list(totals).count(top) > 1:
        return None
    return list(totals).index(top)


# -------------------------------------------------------------------------------- game


class Game(TrickGame[RookCard, Action, Event], Bids):
    """One game of Rook for 3 to 6 players; see the module docstring."""

    game_name: Final = "rook"
    TITLE = "Rook"

    # The state of the current hand (``_new_hand`` resets it, the kit's ``TrickGame``
    # its deck, hands and tricks; ``tricks`` is what every seat was told).
    phase: Phase
    kitty: tuple[RookCard, ...]
    bids: list[tuple[int, int]]  # (seat, amount) in order
    passed: list[bool]
    bidder: int | None
    bid: int | None
    calls: int
    trump: Colour | None
    called: tuple[RookCard, ...]  # every called card
    called_holders: dict[RookCard, int]  # called card -> the seat that holds it (not the bidder)
    partners: list[int]  # revealed partner seats, in order
    discard: tuple[RookCard, ...]
    played: set[RookCard]  # every card played this hand (for the called cards)
    taken: list[int]  # points by seat this hand

    def __init__(self, players: Sequence[str]) -> None:
        self._begin(players, SEAT_COUNTS)
        self._new_hand(0)

    # ---------------------------------------------------------------------- queries

    @property
    def kitty_size(self) -> int:
        return KITTY[self.num_players]

    @property
    def hand_size(self) -> int:
        return HAND_SIZES[self.num_players]

    @property
    def moon(self) -> bool:
        return self.bid == MOON

    @property
    def points_in_discard(self) -> bool | None:
        return card_points(self.discard) > 0 if self.phase is Phase.TRICKS else None

    def view_for(self, seat: int) -> View:
        bidder = self.bidder
        playing = self.phase is Phase.TRICKS
        return self._view_of(
            seat,
            View,
            num_players=self.num_players,
            bids=tuple(self.bids),
            bidder=bidder,
            bid=self.bid,
            kitty_size=self.kitty_size,
            calls=self.calls,
            trump=self.trump,
            called=tuple(c for c in self.called if c not in self.played),
            partners=tuple(self.partners),
            points_in_discard=self.points_in_discard,
            discarded=self.discard if playing and seat == bidder else (),
        )

    # ---------------------------------------------------------------------- actions

    def deal(self, deck: Sequence[RookCard]) -> list[Event]:
        """Deal this hand from an explicit order of the 45 cards (``Phase.DEAL`` only)."""
        self._check_turn(None, Phase.DEAL)
        cards = check_deck(deck)
        hands, self.kitty = deal_hands(cards, self.dealer, self.num_players)
        self._dealt(cards, hands, Phase.BIDDING)
        return [Dealt(self.round, self.dealer, hands, self.kitty_size)]

    # -------------------------------------------------------------------- internals

    def _bids(self, seat: int) -> tuple[Bid, ...]:
        """Pass first, then the amounts that top the high bid, then the moon."""
        return legal_bids(self.high_bid)

    def _setups(self, seat: int) -> tuple[Setup, ...]:
        """As ``sample_setups`` (any setup ``check_setup`` passes is accepted)."""
        return sample_setups(self.hands[seat], self.kitty_size, self.calls)

    def _plays(self, seat: int) -> tuple[Play, ...]:
        """In hand order."""
        assert self.trump is not None
        return legal_plays(self.hands[seat], self.trick, self.trump)

    def _check_bid(self, seat: int, action: Bid) -> None:
        high = self.high_bid
        if action.amount not in (PASS, MOON) and action.amount <= high:
            raise IllegalActionError(
                f"a bid must top the high bid of {high} (by 5 or more); {action.amount} does not",
                "illegal_bid",
            )

    def _check_setup(self, seat: int, action: Setup) -> None:
        check_setup(self.hands[seat], action, self.kitty_size, self.calls, f"seat {seat}")

    def _check_play(self, seat: int, action: Play) -> None:
        assert self.trump is not None
        check_play(self.hands[seat], self.trick, self.trump, action.card, f"seat {seat}")

    def _bid(self, seat: int, action: Bid, events: list[Event]) -> None:
        amount = action.amount
        n = self.num_players
        self.bids.append((seat, amount))
        events.append(BidMade(seat, amount))
        if amount == MOON:
            self._won_bidding(seat, MOON, events)
            return
        if amount == PASS:
            self.passed[seat] = True
        left = [s for s in range(n) if not self.passed[s]]
        high = self.high_bid
        if not left:  # everyone passed: the dealer is stuck at 80
            events.append(StuckDealer(self.dealer, STUCK_BID))
            self._won_bidding(self.dealer, STUCK_BID, events)
            return
        if len(left) == 1 and high != PASS:
            (last,) = left
            holder = next(s for s, a in reversed(self.bids) if a == high)
            if holder == last:
                self._won_bidding(last, high, events)
                return
        nxt = (seat + 1) % n
        while self.passed[nxt]:
            nxt = (nxt + 1) % n
        self.to_act = nxt

    def _won_bidding(self, seat: int, amount: int, events: list[Event]) -> None:
        self.bidder, self.bid = seat, amount
        self.calls = 0 if amount == MOON else calls_for(self.num_players)
        hand = sort_hand([*self.hands[seat], *self.kitty])
        self.hands[seat] = list(hand)
        events.append(KittyTaken(seat, self.kitty, hand, self.calls))
        self.phase, self.to_act = Phase.SETUP, seat

    def _setup(self, seat: int, setup: Setup, events: list[Event]) -> None:
        gone = set(setup.discard)
        self.hands[seat] = [c for c in self.hands[seat] if c not in gone]
        self.discard = tuple(sort_hand(setup.discard))
        self.trump = setup.trump
        self.called = setup.partners
        self.called_holders = {
            c: s
            for c in setup.partners
            for s in range(self.num_players)
            if s != seat and c in self.hands[s]
        }
        self.phase, self.to_act = Phase.TRICKS, seat
        events.append(
            SetupMade(
                seat,
                setup.trump,
                setup.partners,
                card_points(self.discard) > 0,
                self.discard,
                tuple(self.hands[seat]),
            )
        )

    def _play(self, seat: int, action: Play, events: list[Event]) -> None:
        card = action.card
        assert self.trump is not None
        complete = self._lay(seat, card)
        self.played.add(card)
        reveals = self.called_holders.get(card) == seat and seat not in self.partners
        if reveals:
            self.partners.append(seat)
        events.append(Played(seat, card, reveals))
        if not complete:
            return
        winner, best = trick_winner(self.trick, self.trump)
        # Its cards are shown no more (the seats remember them).
        plays = self._gather(winner)
        self.taken[winner] += card_points(c for _, c in plays)
        events.append(TrickWon(winner, best, len(self.trick_winners)))
        if len(self.trick_winners) == self.hand_size:
            self.taken[winner] += LAST_TRICK_BONUS + card_points(self.discard)
            self._score_hand(events)
        else:
            self.to_act = winner

    def _score_hand(self, events: list[Event]) -> None:
        assert self.bidder is not None
        assert self.bid is not None
        side = tuple(sorted({self.bidder, *self.called_holders.values()}))
        swept = all(w == self.bidder for w in self.trick_winners)
        points, made = hand_score(self.taken, self.bid, side, swept)
        totals = tuple(t + p for t, p in zip(self.scores, points, strict=True))
        events.append(
            HandScored(
                self.round, self.bidder, self.bid, side, made, tuple(self.taken), points, totals
            )
        )
        self._hand_scored(totals, game_winner(totals), events)

    def _new_hand(self, dealer: int) -> None:
        n = self.num_players
        super()._new_hand(dealer)
        self.kitty = ()
        self.bids = []
        self.passed = [False] * n
        self.bidder = None
        self.bid = None
        self.calls = 0
        self.trump = None
        self.called = ()
        self.called_holders = {}
        self.partners = []
        self.discard = ()
        self.played = set()
        self.taken = [0] * n

    #: Who may do what (the kit's ``HandGame`` checks the phase and the turn first).
    RULES: ClassVar[dict[type, Rule]] = {
        Bid: Rule(Phase.BIDDING, _bids, _check_bid, _bid),
        Setup: Rule(Phase.SETUP, _setups, _check_setup, _setup),
        Play: Rule(Phase.TRICKS, _plays, _check_play, _play),
    }
