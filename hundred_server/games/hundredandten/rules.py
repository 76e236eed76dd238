"""Hundred and Ten: the pure rules engine (no I/O, no clocks, no randomness of its own).

The rules are ../shared/RULES.md, section Hundred and Ten, which follows the published
reference engine (``hundredandten`` 3.0.2) wherever its README and code disagree. The
tests compare this engine with that package move by move.

Shape of the API::

    game = Game(["ann", "bob", "cy", "dee"], seed="some seed")   # deals round 0 at once
    game.to_act                      # the seat that must act, or None
    game.legal_actions(seat)         # what that seat may do now
    events = game.apply(seat, Bid(15))   # all-or-nothing; raises IllegalActionError
    game.view_for(seat)              # what that seat may know, seat-relative

Chance is an input: without a seed the game waits in ``Phase.DEAL`` for ``deal(deck)``
with an explicit 53-card order, which is how records replay. With a seed, every round's
deck is ``seeded_deck(seed, k)``, bit for bit the reference's shuffle.

Who may act in each phase is decided in one place, ``_check_turn``; every action is
validated in full before any state changes.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from hashlib import sha256, sha512
from itertools import combinations, filterfalse
from typing import Any, ClassVar, Final, NamedTuple, TypeAlias

from hundred_server.games.kit.cards import ALL_CARDS, DECK_SUITS, JOKER_INDEX, Card, Suit
from hundred_server.games.kit.phases import GameWon as GameWon
from hundred_server.games.kit.tricks import CardPlay, SuitChoice, check_players, check_turn
from hundred_server.games.kit.tricks import Phase as Phase
from hundred_server.games.kit.tricks import Played as Played
from hundred_server.protocol.errors import CardCodeError, IllegalActionError

# ---------------------------------------------------------------------------- constants

PASS: Final = 0
MOON: Final = 60
BID_AMOUNTS: Final = (PASS, 15, 20, 25, 30, MOON)
HAND_SIZE: Final = 5
TRICKS_PER_ROUND: Final = 5
TRICK_POINTS: Final = 5
WINNING_SCORE: Final = 110
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
#: A dealer deals at most this many rounds in a row when rounds are passed out.
MAX_DEALS_IN_A_ROW: Final = 3

_ACE_OF_HEARTS: Final = 12  # index of AH in the deck order
#: SUIT_INDEX[card]: 0..3 in deck suit order, 4 for the joker (a table beats ``card.suit``).
SUIT_INDEX: Final = tuple([c // 13 for c in range(52)] + [4])
_SUIT_INDEX: Final = SUIT_INDEX

# Rank of a card among trumps (higher wins), as the reference's ``trump_value``:
# 5, J, joker, A of hearts, A, K, Q, then red 10..2 / black 2..10 (no 5 among them).
_RED_TRUMP: Final = (0, 1, 2, 14, 3, 4, 5, 6, 7, 13, 8, 9, 10)  # 2,3,...,K,A
_BLACK_TRUMP: Final = (7, 6, 5, 14, 4, 3, 2, 1, 0, 13, 8, 9, 10)
# Rank within the led suit when no trump is in the trick (``weak_trump_value``).
_RED_OFF: Final = tuple(range(13))  # 2 low ... A high, 6 above 5 as the reference has it
_BLACK_OFF: Final = (8, 7, 6, 5, 4, 3, 2, 1, 0, 9, 10, 11, 12)

TRUMP_VALUE: Final[tuple[int, ...]] = (
    *_RED_TRUMP[:12],
    11,
    *_RED_TRUMP,
    *_BLACK_TRUMP,
    *_BLACK_TRUMP,
    12,
)
OFF_VALUE: Final[tuple[int, ...]] = (*_RED_OFF, *_RED_OFF, *_BLACK_OFF, *_BLACK_OFF, 12)
#: IS_TRUMP[suit][card]: whether ``card`` is a trump when ``suit`` is named.
IS_TRUMP: Final[dict[Suit, tuple[bool, ...]]] = {
    suit: tuple(_SUIT_INDEX[c] == i or c in (_ACE_OF_HEARTS, JOKER_INDEX) for c in range(53))
    for i, suit in enumerate(DECK_SUITS)
}


# ------------------------------------------------------------------------------ actions


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of 15, 20, 25, 30 or 60 (shoot the moon), or 0 to pass.

    A pass from a seat that is not to act is a pre-pass.
    """

    amount: int

    def __post_init__(self) -> None:
        if type(self.amount) is not int or self.amount not in BID_AMOUNTS:
            raise IllegalActionError(
                f"no such bid: {self.amount!r} (bids are 0 to pass, 15, 20, 25, 30, 60)",
                "illegal_bid",
            )


@dataclass(frozen=True, slots=True)
class Unpass:
    """Take back a pre-pass."""


class SelectTrump(SuitChoice):
    """The bidder selects trump."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard these cards (none keeps the hand) and draw as many."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        cards = self.cards
        if type(cards) is not tuple:
            cards = tuple(cards)
            object.__setattr__(self, "cards", cards)
        for card in cards:
            if type(card) is not Card:
                raise CardCodeError(f"not a card: {card!r}")


class Play(CardPlay):
    """Play a card."""

    __slots__ = ()


Action: TypeAlias = Bid | Unpass | SelectTrump | Discard | Play

_BIDS: Final = {a: Bid(a) for a in BID_AMOUNTS}
_UNPASS: Final = Unpass()
_TRUMPS: Final = tuple(SelectTrump(s) for s in DECK_SUITS)
_PLAYS: Final = tuple(Play(c) for c in ALL_CARDS)
#: Shared instances (actions are immutable values): ``BID_ACTIONS[15]``, ``PLAY_ACTIONS[card]``,
#: ``TRUMP_ACTIONS`` (in ``DECK_SUITS`` order), ``UNPASS_ACTION``.
BID_ACTIONS: Final = _BIDS
PLAY_ACTIONS: Final = _PLAYS
TRUMP_ACTIONS: Final = _TRUMPS
UNPASS_ACTION: Final = _UNPASS


def _bid_choices(high: int, dealer: bool) -> tuple[Bid, ...]:
    """Bids open to the seat to act: pass, or above the high bid (the dealer may hold it)."""
    if not high:
        return tuple(_BIDS.values())
    return tuple(_BIDS[a] for a in BID_AMOUNTS if a == PASS or a > high or (dealer and a == high))


_BID_CHOICES: Final = {(h, d): _bid_choices(h, d) for h in BID_AMOUNTS for d in (False, True)}
#: The amounts of ``_BID_CHOICES``, for checking a bid.
_BID_OPEN: Final = {key: tuple(b.amount for b in bids) for key, bids in _BID_CHOICES.items()}


# ------------------------------------------------------------------------------- events
# Events are values: treat them as immutable. They are not frozen dataclasses because
# a frozen __init__ costs twice as much, and the engine makes one or two every move.


@dataclass(slots=True)
class Dealt:
    round: int  # 1-based, passed-out rounds counted
    dealer: int
    hands: tuple[tuple[Card, ...], ...]  # every seat's: the caller shows each only its own


@dataclass(slots=True)
class BidMade:
    seat: int
    amount: int  # 0 = pass
    automatic: bool = False  # a pre-pass taking effect


@dataclass(slots=True)
class PrePassed:
    seat: int


@dataclass(slots=True)
class Unpassed:
    seat: int


@dataclass(slots=True)
class BiddingWon:
    seat: int
    amount: int


@dataclass(slots=True)
class PassedOut:
    round: int
    totals: tuple[int, ...]  # unchanged by the round, for the scoreboard


@dataclass(slots=True)
class TrumpSelected:
    seat: int
    suit: Suit


@dataclass(slots=True)
class Discarded:
    seat: int
    discarded: tuple[Card, ...]  # private to ``seat``; others learn only the count
    drawn: tuple[Card, ...]
    hand: tuple[Card, ...]


@dataclass(slots=True)
class TrickWon:
    seat: int
    card: Card
    trick: int  # 1-based within the round


@dataclass(slots=True)
class RoundScored:
    round: int
    entries: tuple[tuple[int, int], ...]  # (seat, points) in earning order
    points: tuple[int, ...]  # this round, by seat
    totals: tuple[int, ...]


Event: TypeAlias = (
    Dealt
    | BidMade
    | PrePassed
    | Unpassed
    | BiddingWon
    | PassedOut
    | TrumpSelected
    | Discarded
    | Played
    | TrickWon
    | RoundScored
    | GameWon
)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A deal in ``Game.history``: the round (1-based), its dealer and deck order."""

    round: int
    dealer: int
    deck: tuple[Card, ...]


# -------------------------------------------------------------------------------- views


@dataclass(frozen=True, slots=True)
class InHand:
    pass


@dataclass(frozen=True, slots=True)
class PlayedIn:
    trick: int  # 0-based index among this round's tricks
    seat: int  # relative


@dataclass(frozen=True, slots=True)
class DiscardedBy:
    seat: int  # relative; only ever 0, one's own discards


@dataclass(frozen=True, slots=True)
class Unknown:
    pass


CardStatus: TypeAlias = InHand | PlayedIn | DiscardedBy | Unknown
_IN_HAND: Final = InHand()
_UNKNOWN: Final = Unknown()


@dataclass(frozen=True, slots=True)
class ViewParts:
    """A ``View`` as its parts, named, with absolute seats (``View.to_parts``): its JSON
    form on the wire (games/views.py). ``legal`` is the view's, worked out."""

    seat: int
    phase: Phase
    hand: tuple[Card, ...]
    trump: Suit | None
    lead: Card | None
    is_bidder: bool
    num_players: int
    round: int
    high_bid: int
    pre_passed: bool
    passed: bool
    scores: tuple[int, ...]
    dealer: int
    to_act: int | None
    bidder: int | None
    bids: tuple[tuple[int, int], ...]
    exchanged: tuple[int | None, ...]
    discarded: tuple[Card, ...]
    tricks: tuple[tuple[tuple[int, Card], ...], ...]
    trick_winners: tuple[tuple[int, Card], ...]
    current_trick: tuple[tuple[int, Card], ...]
    legal: tuple[Action, ...]


#: The parts a ``View`` keeps in its one tuple (``View._rest``), in order.
_REST: Final = tuple(f.name for f in dataclasses.fields(ViewParts))[6:-1]


class View:
    """What one seat may know, seat-relative: the viewer is seat 0, the others clockwise.

    ``seat`` alone is absolute (who is looking). ``legal`` is what the viewer may do now.
    A view is a snapshot: later moves do not change it. It copies the game's state in a
    few C-level tuple copies and works out the seat-relative forms only when asked, since
    bots build one for every decision.
    """

    __slots__ = ("_legal", "_rest", "hand", "is_bidder", "lead", "phase", "seat", "trump")

    seat: int
    phase: Phase
    hand: tuple[Card, ...]
    trump: Suit | None
    #: The card led to the current trick, if any.
    lead: Card | None
    #: Whether the viewer won the bidding.
    is_bidder: bool
    _legal: tuple[Action, ...] | None
    # What bots read on every move has a slot of its own; the rest is copied into one
    # tuple (fewer stores a view), in this order:
    _rest: tuple[
        int,  # num_players
        int,  # round
        int,  # high_bid
        bool,  # pre_passed
        bool,  # passed
        tuple[int, ...],  # scores, absolute
        int,  # dealer, absolute
        int | None,  # to_act, absolute
        int | None,  # bidder, absolute
        tuple[tuple[int, int], ...],  # bids, absolute seats
        tuple[int | None, ...],  # exchanged, absolute
        tuple[Card, ...],  # own discards
        tuple[tuple[tuple[int, Card], ...], ...],  # completed tricks, absolute seats
        tuple[tuple[int, Card], ...],  # their winners
        tuple[tuple[int, Card], ...],  # the current trick
    ]

    def __init__(self, game: Game, seat: int) -> None:
        trick = game.trick
        bidder = game.bidder
        self.seat = seat
        self.phase = game.phase
        self.hand = tuple(game.hands[seat])
        self.trump = game.trump
        self.lead = trick[0][1] if trick else None
        self.is_bidder = bidder == seat
        self._legal = None  # worked out when first asked
        self._rest = (
            game.num_players,
            game.round,
            game.high_bid,
            game.pre_passed[seat],
            game.passed[seat],
            tuple(game.scores),
            game.dealer,
            game.to_act,
            bidder,
            tuple(game.bids),
            tuple(game.exchanged),
            game.discarded[seat],
            tuple(game.tricks),
            tuple(game.trick_winners),
            tuple(trick),
        )

    #: Its JSON form's class (games/views.py): the parts named, seats absolute.
    Parts: ClassVar[type[ViewParts]] = ViewParts

    def to_parts(self) -> ViewParts:
        """The view as its parts (``ViewParts``)."""
        return ViewParts(
            self.seat, self.phase, self.hand, self.trump, self.lead, self.is_bidder,
            *self._rest, self.legal,
        )  # fmt: skip

    @classmethod
    def from_parts(cls, parts: ViewParts) -> View:
        """The view whose parts are ``parts``: ``View.from_parts(v.to_parts()) == v``."""
        view = cls.__new__(cls)
        view.seat, view.phase, view.hand = parts.seat, parts.phase, parts.hand
        view.trump, view.lead, view.is_bidder = parts.trump, parts.lead, parts.is_bidder
        view._legal = parts.legal
        view._rest = tuple(getattr(parts, name) for name in _REST)
        return view

    def __eq__(self, other: object) -> bool:
        if type(other) is not View:
            return NotImplemented
        return self.to_parts() == other.to_parts()

    __hash__ = None  # type: ignore[assignment]

    def _rel(self, seat: int) -> int:
        return (seat - self.seat) % self._rest[0]

    @property
    def num_players(self) -> int:
        return self._rest[0]

    @property
    def round(self) -> int:
        return self._rest[1]

    @property
    def high_bid(self) -> int:
        return self._rest[2]

    @property
    def pre_passed(self) -> bool:
        return self._rest[3]

    @property
    def legal(self) -> tuple[Action, ...]:
        """What the viewer may do now (see ``Game.legal_actions``)."""
        if self._legal is None:
            rest = self._rest
            self._legal = legal_actions(
                self.phase,
                self.seat == rest[7],
                self.hand,
                self.lead,
                self.trump,
                BidStanding(rest[2], self.seat == rest[6], rest[4], rest[3]),
            )
        return self._legal

    @property
    def scores(self) -> tuple[int, ...]:
        """Totals by relative seat (index 0 is the viewer)."""
        scores = self._rest[5]
        return scores[self.seat :] + scores[: self.seat]

    @property
    def dealer(self) -> int:
        return self._rel(self._rest[6])

    @property
    def to_act(self) -> int | None:
        to_act = self._rest[7]
        return None if to_act is None else self._rel(to_act)

    @property
    def bidder(self) -> int | None:
        bidder = self._rest[8]
        return None if bidder is None else self._rel(bidder)

    @property
    def is_dealer(self) -> bool:
        return self._rest[6] == self.seat

    @property
    def bids(self) -> tuple[tuple[int, int], ...]:
        """(relative seat, amount) in order, passes included."""
        return tuple((self._rel(s), a) for s, a in self._rest[9])

    @property
    def discard_counts(self) -> tuple[int | None, ...]:
        """How many cards each relative seat exchanged; None if it has not discarded."""
        exchanged = self._rest[10]
        return exchanged[self.seat :] + exchanged[: self.seat]

    @property
    def discarded(self) -> tuple[Card, ...]:
        """The viewer's own discards this round (nobody else's are known)."""
        return self._rest[11]

    @property
    def completed_tricks(self) -> tuple[tuple[tuple[tuple[int, Card], ...], int], ...]:
        """Each finished trick of the round: ((relative seat, card) ..., winner)."""
        rel = self._rel
        return tuple(
            (tuple((rel(s), c) for s, c in plays), rel(winner[0]))
            for plays, winner in zip(self._rest[12], self._rest[13], strict=True)
        )

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        return tuple((self._rel(s), c) for s, c in self._rest[14])

    def card_knowledge(self) -> tuple[tuple[Card, CardStatus], ...]:
        """What the viewer knows of each of the 53 cards, in deck order."""
        known: dict[Card, CardStatus] = dict.fromkeys(self.hand, _IN_HAND)
        tricks = list(self._rest[12])
        if self._rest[14]:
            tricks.append(self._rest[14])
        for index, plays in enumerate(tricks):
            for seat, card in plays:
                known[card] = PlayedIn(index, self._rel(seat))
        for card in self.discarded:
            known[card] = DiscardedBy(0)
        return tuple((c, known.get(c, _UNKNOWN)) for c in ALL_CARDS)

    def __repr__(self) -> str:
        return (
            f"View(seat={self.seat}, phase={self.phase.value}, round={self.round}, "
            f"hand={[str(c) for c in self.hand]}, scores={self.scores}, "
            f"to_act={self.to_act}, legal={len(self.legal)} actions)"
        )


# ------------------------------------------------------------------------------- decks


# The swaps of a Fisher-Yates shuffle of 53 cards, last to first: the positions ``i``
# that draw ``j`` in 0..i with ``k`` random bits (``(i + 1).bit_length()``), in runs of
# one ``k``.
_SHUFFLE_RUNS: Final = tuple(
    (range(top, bottom - 1, -1), k)
    for k, bottom, top in ((6, 31, 52), (5, 15, 30), (4, 7, 14), (3, 3, 6), (2, 1, 2))
)
# A version-4 UUID from 128 random bits, as ``uuid.UUID(int=..., version=4)`` makes it.
_UUID4_CLEAR: Final = ~((0xC000 << 48) | (0xF000 << 64))
_UUID4_SET: Final = (0x8000 << 48) | (4 << 76)


def _seeded_random(text: str) -> random.Random:
    """``random.Random(text)``: seeded from the int that ``Random.seed`` makes of a str
    (version 2, the default, which Python keeps stable across versions), made here
    directly."""
    data = text.encode()
    return random.Random(int.from_bytes(data + sha512(data).digest(), "big"))


def seeded_deck(seed: str, round_index: int) -> tuple[Card, ...]:
    """The deck order of round ``round_index`` (0-based), as the reference shuffles it.

    The reference: ``Random(str(UUID(int=Random(sha256(...).hexdigest()).getrandbits(128),
    version=4))).shuffle(deck)``. Here the UUID's string is formatted directly and the
    shuffle is ``random.Random.shuffle`` written out (same draws, same order), which
    halves the cost of a deal; the golden-seed tests pin it to the reference.
    """
    digest = sha256(f"deck-seed|{seed}|round:{round_index}".encode()).hexdigest()
    bits = _seeded_random(digest).getrandbits(128) & _UUID4_CLEAR | _UUID4_SET
    h = f"{bits:032x}"
    getrandbits = _seeded_random(f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}").getrandbits
    order = list(ALL_CARDS)
    for positions, k in _SHUFFLE_RUNS:
        for i in positions:
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            order[i], order[j] = order[j], order[i]
    return tuple(order)


_CARD_TYPE: Final = {Card}


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    """The deck as a tuple if it holds each of the 53 cards once; else ``bad_deck``."""
    cards = tuple(deck)
    if len(cards) != 53 or len(set(cards)) != 53 or set(map(type, cards)) != _CARD_TYPE:
        raise IllegalActionError(
            f"a deck is the 53 cards each once, got {len(cards)} cards "
            f"({len(set(cards))} distinct)",
            "bad_deck",
        )
    return cards


class _ReferenceDeck:
    """Hundred and Ten's deck (``GameDeck``): the reference's shuffle, and the check
    of a deck given."""

    seeded = staticmethod(seeded_deck)
    check = staticmethod(check_deck)


DECK: Final = _ReferenceDeck()


class BidStanding(NamedTuple):
    """Where one seat stands in the bidding, as far as its choices go: the high bid so
    far, whether it deals (the dealer may take the high bid), has passed, or has passed
    before its turn."""

    high_bid: int
    dealer: bool
    passed: bool
    pre_passed: bool


def legal_actions(
    phase: Phase,
    to_act: bool,
    hand: Sequence[Card],
    lead: Card | None,
    trump: Suit | None,
    standing: BidStanding,
) -> tuple[Action, ...]:
    """What a seat may do, from what it can see; ``Game.legal_actions`` explains."""
    if phase is Phase.TRICKS:
        if not to_act:
            return ()
        assert trump is not None
        is_trump = IS_TRUMP[trump]
        if lead is not None and is_trump[lead]:
            trumps = [c for c in hand if is_trump[c]]
            if trumps:
                return tuple(map(_PLAYS.__getitem__, trumps))
        return tuple(map(_PLAYS.__getitem__, hand))
    if phase is Phase.BIDDING:
        if to_act:
            return _BID_CHOICES[standing.high_bid, standing.dealer]
        if standing.pre_passed:
            return (_UNPASS,)
        return () if standing.passed else (_BIDS[PASS],)
    if not to_act:
        return ()
    if phase is Phase.DISCARD:
        return discard_choices(hand)
    if phase is Phase.TRUMP:
        return _TRUMPS
    return ()


def discard_choices(hand: Sequence[Card]) -> tuple[Discard, ...]:
    """Every discard open to this hand: each subset, smallest first, in hand order."""
    for card in hand:  # checked once here, as each Discard would check it
        if type(card) is not Card:
            raise CardCodeError(f"not a card: {card!r}")
    return tuple(
        _checked_discard(sub) for r in range(len(hand) + 1) for sub in combinations(hand, r)
    )


def _checked_discard(cards: tuple[Card, ...]) -> Discard:
    """``Discard(cards)`` of a tuple of cards already checked, without checking them again
    (a hand's every subset is made at each discard: ``discard_choices``)."""
    made = object.__new__(Discard)
    object.__setattr__(made, "cards", cards)
    return made


def trick_winner(plays: Sequence[tuple[int, Card]], trump: Suit) -> tuple[int, Card]:
    """The (seat, card) that wins: the highest trump, else the highest of the led suit."""
    is_trump = IS_TRUMP[trump]
    best: tuple[int, Card] | None = None
    best_value = -1
    for seat, card in plays:
        if is_trump[card]:
            value = 100 + TRUMP_VALUE[card]
        elif _SUIT_INDEX[card] == _SUIT_INDEX[plays[0][1]]:
            value = OFF_VALUE[card]
        else:
            continue
        if value > best_value:
            best, best_value = (seat, card), value
    assert best is not None
    return best


def round_entries(
    winners: Sequence[tuple[int, Card]], trump: Suit, bidder: int, bid: int
) -> list[tuple[int, int]]:
    """A round's score entries (seat, points) in earning order, as RULES.md item 14 says."""
    is_trump = IS_TRUMP[trump]
    trump_wins = [i for i, (_, c) in enumerate(winners) if is_trump[c]]
    bonus = max(trump_wins, key=lambda i: TRUMP_VALUE[winners[i][1]], default=-1)
    entries = [
        (seat, TRICK_POINTS * (2 if i == bonus else 1)) for i, (seat, _) in enumerate(winners)
    ]
    bidder_points = sum(p for s, p in entries if s == bidder)
    if bid == MOON and all(s == bidder for s, _ in entries):
        return [(bidder, MOON)]
    if bidder_points < bid:
        return [(bidder, -bid)] + [e for e in entries if e[0] != bidder]
    return entries


# -------------------------------------------------------------------------------- game


def _illegal(message: str, code: str) -> IllegalActionError:
    return IllegalActionError(message, code)


class Game:
    """One game of Hundred and Ten for 2 to 4 players; see the module docstring."""

    game_name: Final = "hundredandten"

    #: Table options: this game has none (``GameSpec.flags``).
    flags: Final[frozenset[str]] = frozenset()

    # The state of the current round (``_start_round`` resets it).
    phase: Phase
    to_act: int | None
    dealer: int
    round: int  # 1-based, passed-out rounds counted, as records and messages count
    deck: tuple[Card, ...]
    _drawn: int  # cards of ``deck`` dealt or drawn so far
    hands: list[list[Card]]
    bids: list[tuple[int, int]]  # (seat, amount) in order, passes included
    passed: list[bool]
    pre_passed: list[bool]
    high_bid: int
    bidder: int | None
    trump: Suit | None
    discards: list[tuple[int, tuple[Card, ...]]]  # (seat, cards) in order
    discarded: list[tuple[Card, ...]]  # by seat: what it discarded this round
    exchanged: list[int | None]  # by seat: how many it exchanged (public), None: not yet
    tricks: list[tuple[tuple[int, Card], ...]]  # completed, this round
    trick_winners: list[tuple[int, Card]]
    trick: list[tuple[int, Card]]  # the trick being played

    def __init__(
        self, players: Sequence[str], seed: str | None = None, *, deals_itself: bool = True
    ) -> None:
        """``seed``: every round is dealt ``seeded_deck(seed, round)``, by the game
        itself (``deals_itself``) or by whoever deals it (the driver, which passes
        False so that it sees every deal); it is written into the record."""
        names = check_players(players, range(MIN_PLAYERS, MAX_PLAYERS + 1), "Hundred and Ten")
        self.players: tuple[str, ...] = names
        self.num_players = len(names)
        self.seed = seed
        self._deals_itself = seed is not None and deals_itself
        self.scores: list[int] = [0] * self.num_players
        self.winner: int | None = None
        self.dealers: list[int] = []  # the dealer of every round so far
        self.history: list[DealRecord | tuple[int, Action]] = []
        self.round_results: list[tuple[int, ...]] = []  # totals after each round
        self._start_round(0, [])

    # ---------------------------------------------------------------------- queries

    @property
    def round_index(self) -> int:
        """0-based index of the current round (passed-out rounds counted)."""
        return self.round - 1

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def needs_deal(self) -> bool:
        """Whether the game waits for ``deal(deck)``."""
        return self.phase is _DEAL

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may do now. Out of turn: a pre-pass or an unpass while bidding.

        A discard's choices are every subset of the hand (the empty one keeps it).
        """
        self._check_seat(seat)
        return legal_actions(
            self.phase,
            seat == self.to_act,
            self.hands[seat],
            self.trick[0][1] if self.trick else None,
            self.trump,
            BidStanding(
                self.high_bid, seat == self.dealer, self.passed[seat], self.pre_passed[seat]
            ),
        )

    def view_for(self, seat: int) -> View:
        """What ``seat`` may know now, seat-relative (see ``View``)."""
        if type(seat) is not int or not 0 <= seat < self.num_players:
            self._check_seat(seat)
        return View(self, seat)

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self.num_players:
            raise _illegal(f"no seat {seat!r} at a table of {self.num_players}", "bad_seat")

    # ---------------------------------------------------------------------- actions

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        """Deal this round from an explicit 53-card order (``Phase.DEAL`` only)."""
        if self.phase is not Phase.DEAL:
            self._check_turn(None, Phase.DEAL)
        events: list[Event] = []
        self._deal(check_deck(deck), events)
        return events

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Carry out ``action`` for ``seat``; returns what happened, in order.

        Raises ``IllegalActionError`` (with its ``code``) and changes nothing if the
        action is not legal now.
        """
        if type(seat) is not int or not 0 <= seat < self.num_players:
            self._check_seat(seat)
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise _illegal(f"not a Hundred and Ten action: {action!r}", "bad_action")
        events: list[Event] = []
        # Recorded first: an action that ends a round comes before the next round's deal.
        self.history.append((seat, action))
        try:
            handler(self, seat, action, events)
        except BaseException:
            self.history.pop()  # handlers raise before they change anything
            raise
        return events

    # -------------------------------------------------------------------- internals

    def _check_turn(self, seat: int | None, phase: Phase, doing: str = "") -> None:
        """The one place that says who may act: the seat to act, in the right phase."""
        check_turn(self.phase, phase, self.to_act, seat, doing)

    def _bid(self, seat: int, action: Bid, events: list[Event]) -> None:
        amount = action.amount
        if self.phase is _BIDDING and seat != self.to_act:
            if amount != PASS:
                raise _illegal(
                    f"it is seat {self.to_act}'s turn to bid, not seat {seat}'s "
                    "(out of turn you may only pre-pass with a bid of 0)",
                    "not_your_turn",
                )
            if self.passed[seat] or self.pre_passed[seat]:
                raise _illegal(f"seat {seat} has already passed", "already_passed")
            self.pre_passed[seat] = True
            events.append(PrePassed(seat))
            return
        if self.phase is not _BIDDING:
            self._check_turn(seat, Phase.BIDDING)
        allowed = _BID_OPEN[self.high_bid, seat == self.dealer]
        if amount not in allowed:
            raise _illegal(
                f"seat {seat} cannot bid {amount} over a high bid of {self.high_bid} "
                f"(allowed: {list(allowed)})",
                "illegal_bid",
            )
        self._take_bid(seat, amount, events, False)
        while True in self.pre_passed and self.phase is _BIDDING:  # pre-passes take effect
            waiting = self.to_act
            assert waiting is not None
            if not self.pre_passed[waiting]:
                break
            self.pre_passed[waiting] = False
            self._take_bid(waiting, PASS, events, True)

    def _take_bid(self, seat: int, amount: int, events: list[Event], automatic: bool) -> None:
        self.bids.append((seat, amount))
        events.append(BidMade(seat, amount, automatic))
        if amount == PASS:
            self.passed[seat] = True
        else:
            self.high_bid = amount
        n = self.num_players
        passed = self.passed
        remaining = passed.count(False)
        if self.high_bid and remaining == 1:
            self.bidder = passed.index(False)
            self.phase, self.to_act = Phase.TRUMP, self.bidder
            events.append(BiddingWon(self.bidder, self.high_bid))
        elif not remaining:
            events.append(PassedOut(self.round, tuple(self.scores)))
            self.round_results.append(tuple(self.scores))
            dealer = self.dealer
            recent = self.dealers[-MAX_DEALS_IN_A_ROW:]
            if len(recent) == MAX_DEALS_IN_A_ROW and all(d == dealer for d in recent):
                dealer = (dealer + 1) % n
            self._start_round(dealer, events)
        else:
            nxt = (seat + 1) % n
            while passed[nxt]:
                nxt = (nxt + 1) % n
            self.to_act = nxt

    def _unpass(self, seat: int, action: Unpass, events: list[Event]) -> None:
        if self.phase is not Phase.BIDDING:
            self._check_turn(seat, Phase.BIDDING, "unpass")
        if not self.pre_passed[seat]:
            raise _illegal(f"seat {seat} has no pre-pass to take back", "not_pre_passed")
        self.pre_passed[seat] = False
        events.append(Unpassed(seat))

    def _select_trump(self, seat: int, action: SelectTrump, events: list[Event]) -> None:
        self._check_turn(seat, Phase.TRUMP)
        suit = action.suit
        if not isinstance(suit, Suit):
            raise _illegal(f"not a suit: {suit!r}", "bad_suit")
        self.trump = suit
        self.phase, self.to_act = Phase.DISCARD, (self.dealer + 1) % self.num_players
        events.append(TrumpSelected(seat, suit))

    def _discard(self, seat: int, action: Discard, events: list[Event]) -> None:
        if self.phase is not _DISCARD or seat != self.to_act:
            self._check_turn(seat, Phase.DISCARD)
        cards = action.cards  # a tuple (``Discard`` makes it one)
        hand = self.hands[seat]
        count = len(cards)
        discarding = set(cards)
        if len(discarding) != count:
            dupes = sorted({str(c) for c in cards if cards.count(c) > 1})
            raise _illegal(f"a discard names {dupes} more than once", "duplicate_card")
        if not discarding.issubset(hand):
            missing = [str(c) for c in cards if c not in hand]
            raise _illegal(f"not in seat {seat}'s hand: {missing}", "not_in_hand")
        drawn = self.deck[self._drawn : self._drawn + count]
        self._drawn += count
        kept = list(filterfalse(discarding.__contains__, hand)) if count else hand
        kept += drawn
        self.hands[seat] = kept
        self.discards.append((seat, cards))
        self.discarded[seat] = cards
        self.exchanged[seat] = count
        events.append(Discarded(seat, cards, drawn, tuple(kept)))
        if seat == self.dealer:
            self.phase = Phase.TRICKS
            assert self.bidder is not None
            self.to_act = (self.bidder + 1) % self.num_players
        else:
            self.to_act = (seat + 1) % self.num_players

    def _play(self, seat: int, action: Play, events: list[Event]) -> None:
        if self.phase is not _TRICKS or seat != self.to_act:
            self._check_turn(seat, Phase.TRICKS)
        card = action.card
        hand = self.hands[seat]
        if card not in hand:
            raise _illegal(f"{card} is not in seat {seat}'s hand", "not_in_hand")
        trump = self.trump
        assert trump is not None
        is_trump = IS_TRUMP[trump]
        trick = self.trick
        if (
            trick
            and is_trump[trick[0][1]]
            and not is_trump[card]
            and any(map(is_trump.__getitem__, hand))
        ):
            raise _illegal(
                f"a trump was led: seat {seat} holds a trump and must play one, not {card}",
                "must_bleed",
            )
        hand.remove(card)
        trick.append((seat, card))
        events.append(Played(seat, card))
        n = self.num_players
        if len(trick) < n:
            self.to_act = (seat + 1) % n
            return
        winner = trick_winner(trick, trump)
        tricks = self.tricks
        tricks.append(tuple(trick))
        self.trick_winners.append(winner)
        self.trick = []
        events.append(TrickWon(winner[0], winner[1], len(tricks)))
        if len(tricks) < TRICKS_PER_ROUND:
            self.to_act = winner[0]
        else:
            self._score_round(events)

    def _score_round(self, events: list[Event]) -> None:
        assert self.trump is not None
        assert self.bidder is not None
        entries = round_entries(self.trick_winners, self.trump, self.bidder, self.high_bid)
        points = [0] * self.num_players
        first_to_win: int | None = None
        for seat, value in entries:
            points[seat] += value
            self.scores[seat] += value
            if first_to_win is None and self.scores[seat] >= WINNING_SCORE:
                first_to_win = seat
        totals = tuple(self.scores)
        self.round_results.append(totals)
        events.append(RoundScored(self.round, tuple(entries), tuple(points), totals))
        if any(s >= WINNING_SCORE for s in self.scores):
            winner = self.bidder if self.scores[self.bidder] >= WINNING_SCORE else first_to_win
            assert winner is not None
            self.winner = winner
            self.phase, self.to_act = Phase.GAME_OVER, None
            events.append(GameWon(winner, totals))
        else:
            self._start_round((self.dealer + 1) % self.num_players, events)

    def _start_round(self, dealer: int, events: list[Event]) -> None:
        n = self.num_players
        self.dealer = dealer
        self.dealers.append(dealer)
        self.round = len(self.dealers)
        self.phase = Phase.DEAL
        self.to_act = None
        self.deck = ()
        self._drawn = 0
        self.hands = [[] for _ in range(n)]
        self.bids = []
        self.passed = [False] * n
        self.pre_passed = [False] * n
        self.high_bid = 0
        self.bidder = None
        self.trump = None
        self.discards = []
        self.discarded = [()] * n
        self.exchanged = [None] * n
        self.tricks = []
        self.trick_winners = []
        self.trick = []
        if self._deals_itself:
            assert self.seed is not None
            self._deal(seeded_deck(self.seed, self.round_index), events)

    def _deal(self, deck: tuple[Card, ...], events: list[Event]) -> None:
        n = self.num_players
        self.deck = deck
        hands = tuple(map(deck.__getitem__, _HAND_SLICES[n]))
        self.hands = list(map(list, hands))
        self._drawn = HAND_SIZE * n
        self.phase, self.to_act = Phase.BIDDING, (self.dealer + 1) % n
        self.history.append(DealRecord(self.round, self.dealer, deck))
        events.append(Dealt(self.round, self.dealer, hands))


_TRICKS: Final = Phase.TRICKS
_DEAL: Final = Phase.DEAL
#: _HAND_SLICES[n]: where each of n seats' hands is in a deck.
_HAND_SLICES: Final = {
    n: tuple(slice(HAND_SIZE * i, HAND_SIZE * (i + 1)) for i in range(n))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
_BIDDING: Final = Phase.BIDDING
_DISCARD: Final = Phase.DISCARD

_HANDLERS: Final[dict[type, Callable[[Game, int, Any, list[Event]], None]]] = {
    Bid: Game._bid,
    Play: Game._play,
    Discard: Game._discard,
    SelectTrump: Game._select_trump,
    Unpass: Game._unpass,
}
