"""Hundert: the pure rules engine (no I/O, no clocks, no randomness of its own).

The rules are ../shared/RULES.md, section "Hundert". 32 cards, 7 8 9 T J Q K A of each
suit (the French ``Card``: ``7S``, ``TH``, ``AD``), worth A 11, T 10, K 4, Q 3, J 2 and
nothing for 9, 8, 7 (120 in all). Two to six players. Seat 0 deals the first deal,
then the deal passes left. The dealer deals ``floor(32 / players)`` cards to each seat,
one at a time from their left: ``deck[i]`` goes to seat ``(dealer + 1 + i) % players``
for the first ``players * floor(32 / players)`` cards; the last ``32 mod players`` cards
are the pile, face up, and their points start the total (at most 22). From the dealer's
left, each in turn plays any card it holds; its points go onto the total. A seat that
takes the total past 100 pays each opponent the overshoot (total - 100) in chips; one
that makes exactly 100 takes 3 chips from each opponent (table option ``Feder``: 1 chip
either way); either way the deal ends at once (the cards still held stay in the
hands). The cards hold 120 points, so every deal ends so. A game is every seat dealing
twice (``2 * players`` deals); balances start at 0 and always sum to 0; the highest
balance wins, and on a tie at the top the lowest seat among them.

Shape of the API (as the other engines', so one game interface covers all)::

    game = Game(["ann", "bob", "cy"], flags=frozenset({"Feder"}))   # waits in Phase.DEAL
    events = game.deal(deck)         # the 32 cards in dealing order: Dealt
    game.to_act                      # the seat that must play, or None
    game.legal_actions(seat)         # every card of its hand
    events = game.apply(seat, Play(card))   # all-or-nothing; raises IllegalActionError
    game.view_for(seat)              # what that seat may know

Chance is an input: before every deal the game waits in ``Phase.DEAL`` (``needs_deal``)
for ``deal(deck)``, an explicit order of the 32 cards. ``seeded_deck(seed, k)`` makes the
one of deal ``k`` (0-based): ``HUNDERT_DECK`` (the 32 cards in ``cards.ALL_CARDS`` order,
hearts 7..A, diamonds, spades, clubs) shuffled by ``tricks.shuffled(deck, "hundert",
seed, k)``.

Phases, and who may act (decided in one place, ``_check_turn``)::

    DEAL       nobody: the game waits for deal(deck)
    PLAY       the seat to play: Play(card); a deal ends at 100 or more: DEAL or GAME_OVER
    GAME_OVER  nobody

Every ``IllegalActionError`` code the engine raises:

- ``bad_players``: fewer than 2 or more than 6 players; ``duplicate_name``: two alike;
  ``bad_flag``: a table option Hundert does not have (it has ``Feder``);
- ``bad_seat``: no such seat; ``bad_action``: not a Hundert action (a ``Play``);
- ``bad_deck``: ``deal`` given anything but the 32 cards, each once;
- ``game_over``: the game has ended; ``wrong_phase``: a ``Play`` while the game waits
  for a deal, or ``deal`` during one; ``not_your_turn``: another seat is to play;
- ``not_in_hand``: a card the seat does not hold.

``Play`` checks its card on construction: ``Play("AS")`` raises a ``CardCodeError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from hundred_server.games.base import check_flags
from hundred_server.games.kit.cards import ALL_CARDS, Card, Rank, Suit
from hundred_server.games.kit.phases import GameWon as GameWon
from hundred_server.games.kit.phases import HandDeal, HandGame, Rule
from hundred_server.games.kit.tricks import (
    CardPlay,
    Deck,
)
from hundred_server.games.kit.tricks import Phase as Phase
from hundred_server.protocol.errors import IllegalActionError

# ---------------------------------------------------------------------------- constants

SEAT_COUNTS: Final = (2, 3, 4, 5, 6)
TARGET: Final = 100
#: What exactly 100 takes from each opponent (the Feder option: 1).
EXACT_CHIPS: Final = 3
#: The table option: 1 chip either way.
FEDER: Final = "Feder"
FLAGS: Final = (FEDER,)
#: Every seat deals this many times.
DEALS_PER_SEAT: Final = 2

_POINTS_BY_RANK: Final = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}
#: The 32 cards, ranks 7 to A, in ``cards.ALL_CARDS`` order (the seeded deck's order).
HUNDERT_DECK: Final = tuple(c for c in ALL_CARDS if not c.is_joker and c.rank >= Rank.SEVEN)
_IN_DECK: Final = frozenset(HUNDERT_DECK)
#: Card points by card index (cards outside the deck: 0).
POINTS: Final[tuple[int, ...]] = tuple(_POINTS_BY_RANK.get(c.rank, 0) for c in ALL_CARDS)

#: Suits in display order, and ranks high to low (as the points rank them).
SUIT_ORDER: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
RANK_ORDER: Final = (
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
)
_SORT_KEY: Final[tuple[int, ...]] = tuple(
    SUIT_ORDER.index(c.suit) * 8 + RANK_ORDER.index(c.rank) if c in _IN_DECK else 100 + c
    for c in ALL_CARDS
)


def points(card: Card) -> int:
    """A card's points: A 11, T 10, K 4, Q 3, J 2, else 0."""
    return POINTS[card]


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in display order: suits S, H, D, C, and A T K Q J 9 8 7 within a suit."""
    return tuple(sorted(cards, key=_SORT_KEY.__getitem__))


def hand_size(num_players: int) -> int:
    """The cards each seat is dealt: ``32 // num_players``."""
    return len(HUNDERT_DECK) // num_players


# ------------------------------------------------------------------------------ actions


class Play(CardPlay):
    """Play a card: the only action."""

    __slots__ = ()


Action: TypeAlias = Play

#: Shared instances: ``PLAY_ACTIONS[card]``.
PLAY_ACTIONS: Final = tuple(Play(c) for c in ALL_CARDS)


# ------------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Dealt:
    round: int  # 1-based
    dealer: int
    hands: tuple[tuple[Card, ...], ...]  # every seat's, sorted: show each only its own
    pile: tuple[Card, ...]  # the leftovers, face up, in deck order
    total: int  # the pile's points


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: Card
    total: int  # the new total


@dataclass(frozen=True, slots=True)
class DealScored:
    """A deal ended: ``seat`` took the total to ``total`` (100: exactly)."""

    round: int  # 1-based
    seat: int
    total: int
    points: tuple[int, ...]  # chips by seat this deal (they sum to 0)
    totals: tuple[int, ...]  # balances by seat after it

    @property
    def exact(self) -> bool:
        return self.total == TARGET


Event: TypeAlias = Dealt | Played | DealScored | GameWon


#: A deal in ``Game.history`` (the kit's): the hand (1-based), its dealer and deck order.
DealRecord: Final = HandDeal


# -------------------------------------------------------------------------------- views


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may know: its own hand and everything shown to the table.

    A view is a snapshot: later moves do not change it. Every card in it is the
    viewer's own, one of the pile, or one played this deal.
    """

    seat: int
    num_players: int
    phase: Phase
    round_index: int  # 0-based
    dealer: int
    to_act: int | None
    hand: tuple[Card, ...]  # sorted
    hand_sizes: tuple[int, ...]  # how many cards each seat holds
    pile: tuple[Card, ...]
    played: tuple[tuple[int, Card], ...]  # (seat, card) this deal, in order
    total: int
    scores: tuple[int, ...]  # chip balances by seat
    feder: bool  # the table option: 1 chip either way
    legal: tuple[Action, ...]

    @property
    def unseen(self) -> tuple[Card, ...]:
        """The cards the viewer has not seen: in the other hands (deck order)."""
        seen = {*self.hand, *self.pile, *(c for _, c in self.played)}
        return tuple(c for c in HUNDERT_DECK if c not in seen)


# ------------------------------------------------------------------------------- decks


#: The 32 cards, each once; hands in ``sort_hand`` order. A deck refused says how many
#: of its cards are not of the deck.
DECK: Final = Deck(
    "hundert",
    HUNDERT_DECK,
    "a Hundert deck is 7 8 9 T J Q K A of each suit, 32 cards",
    sort_hand,
    strangers=True,
)
seeded_deck: Final = DECK.seeded
check_deck: Final = DECK.check


def deal_hands(
    deck: Sequence[Card], dealer: int, num_players: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Each seat's hand, sorted, and the pile: ``deck[i]`` goes to seat ``(dealer + 1 +
    i) % num_players`` for the first ``num_players * hand_size`` cards; the rest is the
    pile."""
    return DECK.deal(deck, dealer, num_players, hand_size(num_players))


# ------------------------------------------------------------------------------ scoring


def chips(seat: int, total: int, num_players: int, feder: bool) -> tuple[int, ...]:
    """Chips by seat when ``seat`` ends a deal at ``total`` (100 or more): past 100 it
    pays each opponent the overshoot (Feder: 1); exactly 100 it takes 3 from each
    (Feder: 1)."""
    if total < TARGET:
        raise ValueError(f"a deal ends at {TARGET} or more, not {total}")
    if total == TARGET:
        each = -(1 if feder else EXACT_CHIPS)
    else:
        each = 1 if feder else total - TARGET
    out = [each] * num_players
    out[seat] = -each * (num_players - 1)
    return tuple(out)


def game_winner(totals: Sequence[int]) -> int:
    """The highest balance; on a tie, the lowest seat among them."""
    return max(range(len(totals)), key=lambda s: (totals[s], -s))


# -------------------------------------------------------------------------------- game


class Game(HandGame[Card, Action, Event]):
    """One game of Hundert; see the module docstring."""

    game_name: Final = "hundert"
    TITLE = "Hundert"

    # The state of the current deal (``_new_hand`` resets it, the kit's ``HandGame``
    # its deck and hands).
    phase: Phase
    pile: tuple[Card, ...]
    total: int
    played: list[tuple[int, Card]]  # this deal, in order

    def __init__(self, players: Sequence[str], flags: frozenset[str] = frozenset()) -> None:
        self._begin(players, SEAT_COUNTS)
        self.flags = frozenset(flags)
        check_flags(self.flags, FLAGS, "Hundert")
        self.deal_results: list[DealScored] = []
        self._new_hand(0)

    # ---------------------------------------------------------------------- queries

    @property
    def feder(self) -> bool:
        return FEDER in self.flags

    @property
    def deals(self) -> int:
        """How many deals the game has: every seat deals twice."""
        return DEALS_PER_SEAT * self.num_players

    def view_for(self, seat: int) -> View:
        """What ``seat`` may know now (see ``View``)."""
        return self._view_of(
            seat,
            View,
            num_players=self.num_players,
            round_index=self.round_index,
            hand_sizes=tuple(len(h) for h in self.hands),
            pile=self.pile,
            played=tuple(self.played),
            total=self.total,
            feder=self.feder,
        )

    # ---------------------------------------------------------------------- actions

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        """Deal this deal from an explicit order of the 32 cards (``Phase.DEAL`` only)."""
        self._check_turn(None, Phase.DEAL)
        cards = check_deck(deck)
        hands, pile = deal_hands(cards, self.dealer, self.num_players)
        self._dealt(cards, hands, Phase.PLAY)
        self.pile = pile
        self.total = sum(POINTS[c] for c in pile)
        return [Dealt(self.round, self.dealer, hands, pile, self.total)]

    # -------------------------------------------------------------------- internals

    def _plays(self, seat: int) -> tuple[Play, ...]:
        """Any card of the hand, in hand order."""
        return tuple(PLAY_ACTIONS[c] for c in self.hands[seat])

    def _check_play(self, seat: int, action: Play) -> None:
        if action.card not in self.hands[seat]:
            raise IllegalActionError(f"seat {seat} does not hold {action.card}", "not_in_hand")

    def _play(self, seat: int, action: Play, events: list[Event]) -> None:
        card = action.card
        self.hands[seat].remove(card)
        self.played.append((seat, card))
        self.total += POINTS[card]
        events.append(Played(seat, card, self.total))
        if self.total < TARGET:
            self.to_act = self._next(seat)
        else:
            self._score_deal(seat, events)

    def _score_deal(self, seat: int, events: list[Event]) -> None:
        change = chips(seat, self.total, self.num_players, self.feder)
        totals = tuple(s + c for s, c in zip(self.scores, change, strict=True))
        scored = DealScored(self.round, seat, self.total, change, totals)
        self.deal_results.append(scored)
        events.append(scored)
        self._hand_scored(totals, None if self.round < self.deals else game_winner(totals), events)

    def _new_hand(self, dealer: int) -> None:
        super()._new_hand(dealer)
        self.pile = ()
        self.total = 0
        self.played = []

    #: Who may do what (the kit's ``HandGame`` checks the phase and the turn first).
    RULES: ClassVar[dict[type, Rule]] = {Play: Rule(Phase.PLAY, _plays, _check_play, _play)}
