"""Whist: the pure rules engine (no I/O, no clocks, no randomness of its own).

The rules are ../shared/RULES.md, section Whist: four players, North-South (seats 0
and 2, side 0) against East-West (seats 1 and 3, side 1); 52 cards, ace high. The
dealer deals the whole deck one card at a time from their left, so ``deck[i]`` goes
to seat ``(dealer + 1 + i) % 4`` and ``deck[51]``, the dealer's 13th card, is turned
up for everyone to see: its suit is trump and it stays in the dealer's hand. Left of
the dealer leads; follow suit if able, else play any card; the highest trump wins,
else the highest card of the suit led; the winner leads next. After 13 tricks the side
with more than six scores one point per trick over six. First side to 5 points wins;
otherwise the deal passes left. No honours.

Shape of the API (as ``hundredandten.Game``, so one game interface covers both)::

    game = Game(["ann", "bob", "cy", "dee"], seed="some seed")   # deals hand 0 at once
    game.to_act                      # the seat that must play, or None
    game.legal_actions(seat)         # what that seat may do now
    events = game.apply(seat, Play(card))   # all-or-nothing; raises IllegalActionError
    game.view_for(seat)              # what that seat may know

Chance is an input: without a seed the game waits in ``Phase.DEAL`` for ``deal(deck)``
with an explicit 52-card order, which is how records replay. With a seed, hand ``k``
is dealt from ``seeded_deck(seed, k)``.

Scores, tricks and the winner are by side: index 0 is North-South, 1 is East-West
(``side_of(seat)``). Who may act is decided in one place, ``_check_turn`` (the kit's
``HandGame``); every action is validated in full before any state changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from hundred_server.games.kit import tricks
from hundred_server.games.kit.cards import STANDARD_52, Card, Suit
from hundred_server.games.kit.phases import HandDeal, Partners, Rule

# The kit's four partners, 13 cards each.
from hundred_server.games.kit.tricks import PARTNER_HAND as HAND_SIZE
from hundred_server.games.kit.tricks import PARTNER_SEATS as NUM_PLAYERS
from hundred_server.games.kit.tricks import SIDES as SIDES
from hundred_server.games.kit.tricks import (
    CardPlay,
    PartnersView,
    deck_of_52,
    following,
    winning_play,
)
from hundred_server.games.kit.tricks import GameWon as GameWon
from hundred_server.games.kit.tricks import Phase as Phase
from hundred_server.games.kit.tricks import Played as Played
from hundred_server.games.kit.tricks import TrickWon as TrickWon
from hundred_server.games.kit.tricks import beats as beats
from hundred_server.games.kit.tricks import side_of as side_of

# ---------------------------------------------------------------------------- constants

#: Tricks a side must pass before it scores: one point per trick over six.
BOOK: Final = 6
WINNING_SCORE: Final = 5
# The sides (SIDES, side_of) are the kit's: seats 0 and 2 North-South, 1 and 3 East-West.


# ------------------------------------------------------------------------------ actions


class Play(CardPlay):
    """Play a card: the only action."""

    __slots__ = ()


Action: TypeAlias = Play

#: Shared instances (actions are immutable values): ``PLAY_ACTIONS[card]``.
PLAY_ACTIONS: Final = tuple(Play(c) for c in STANDARD_52)


# ------------------------------------------------------------------------------- events
# Events are values: treat them as immutable. Not frozen, as in hundredandten: a frozen
# __init__ costs twice as much and the engine makes one or two every move.


@dataclass(slots=True)
class Dealt(tricks.Dealt):
    trump_card: Card  # the dealer's 13th card, face up


@dataclass(slots=True)
class TrumpTurned:
    card: Card  # public; its suit is trump and it stays in the dealer's hand
    dealer: int


@dataclass(slots=True)
class HandScored:
    hand: int  # 1-based
    tricks: tuple[int, int]  # taken this hand, (NS, EW)
    points: tuple[int, int]  # scored this hand; at most one side scores
    totals: tuple[int, int]


Event: TypeAlias = Dealt | TrumpTurned | Played | TrickWon | HandScored | GameWon


#: A deal in ``Game.history``: the hand (1-based), its dealer and deck order.
DealRecord: Final = HandDeal


# -------------------------------------------------------------------------------- views


@dataclass(frozen=True, slots=True)
class View(PartnersView):
    """What one seat may know (the kit's ``PartnersView``) and the trump: every card in
    it is the viewer's own, the turned-up trump card, or a card played this hand."""

    trump: Suit | None
    trump_card: Card | None  # face up; in the dealer's hand until the dealer plays it


# ------------------------------------------------------------------------------- decks


#: The 52 cards, each once; hands sorted (2 low ... ace high, hearts first).
DECK: Final = deck_of_52("whist", "Whist")
seeded_deck: Final = DECK.seeded
check_deck: Final = DECK.check


def deal_hands(deck: Sequence[Card], dealer: int) -> tuple[tuple[Card, ...], ...]:
    """Each seat's hand, sorted: ``deck[i]`` goes to seat ``(dealer + 1 + i) % 4``."""
    return DECK.deal(deck, dealer, NUM_PLAYERS, HAND_SIZE)[0]


# ------------------------------------------------------------------------------- rules


def legal_plays(hand: Sequence[Card], lead: Card | None) -> tuple[Play, ...]:
    """The plays open to a hand: cards of the suit led if it holds any, else every card."""
    return tuple(PLAY_ACTIONS[c] for c in following(hand, lead))


def trick_winner(plays: Sequence[tuple[int, Card]], trump: Suit) -> tuple[int, Card]:
    """The (seat, card) that wins: the highest trump, else the highest of the led suit."""
    return winning_play(plays, trump, beats)


def hand_points(tricks: tuple[int, int]) -> tuple[int, int]:
    """Points for (NS, EW) tricks: one per trick over six, for the side that took them."""
    ns, ew = tricks
    return (max(ns - BOOK, 0), max(ew - BOOK, 0))


# -------------------------------------------------------------------------------- game


class Game(Partners[Action, Event]):
    """One game of Whist for four players; see the module docstring."""

    game_name: Final = "whist"
    TITLE = "Whist"

    # The state of the current hand (``_new_hand`` resets it, the kit's ``Partners``
    # its deck, hands, tricks, the tricks by side and the cards played).
    phase: Phase
    trump_card: Card | None

    def __init__(
        self, players: Sequence[str], seed: str | None = None, *, deals_itself: bool = True
    ) -> None:
        """``seed``: every round is dealt ``seeded_deck(seed, round)``, by the game
        itself (``deals_itself``) or by whoever deals it (the driver, which passes
        False so that it sees every deal); it is written into the record."""
        super().__init__(players, seed)
        self._deals_itself = seed is not None and deals_itself
        self._new_hand(0)
        self._deal_itself([])  # the first deal's events go unsaid

    # ---------------------------------------------------------------------- queries

    def view_for(self, seat: int) -> View:
        """What ``seat`` may know now (see ``View``)."""
        return self._view_of(seat, View, trump=self.trump, trump_card=self.trump_card)

    # ---------------------------------------------------------------------- actions

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        """Deal this hand from an explicit 52-card order (``Phase.DEAL`` only)."""
        self._check_turn(None, Phase.DEAL)
        cards = check_deck(deck)
        events: list[Event] = []
        self._deal(cards, events)
        return events

    # -------------------------------------------------------------------- internals

    def _plays(self, seat: int) -> tuple[Play, ...]:
        """See ``legal_plays``."""
        return legal_plays(self.hands[seat], self.trick[0][1] if self.trick else None)

    def _check_play(self, seat: int, action: Play) -> None:
        self._check_follows(seat, action.card)

    def _play(self, seat: int, action: Play, events: list[Event]) -> None:
        if self._play_to_trick(seat, action.card, events):
            self._score_hand(events)

    def _score_hand(self, events: list[Event]) -> None:
        points = hand_points(self.tricks_won)
        totals = (self.scores[0] + points[0], self.scores[1] + points[1])
        events.append(HandScored(self.round, self.tricks_won, points, totals))
        # Only one side scores in a hand, so only that side can have reached the target.
        winners = [side for side in (0, 1) if totals[side] >= WINNING_SCORE]
        self._hand_scored(totals, winners[0] if winners else None, events)
        if not winners:
            self._deal_itself(events)

    def _deal_itself(self, events: list[Event]) -> None:
        """Deal the new hand from the seed, if the game deals itself."""
        if self._deals_itself:
            assert self.seed is not None
            self._deal(seeded_deck(self.seed, self.hand_index), events)

    def _new_hand(self, dealer: int) -> None:
        super()._new_hand(dealer)
        self.trump = None
        self.trump_card = None

    def _deal(self, deck: tuple[Card, ...], events: list[Event]) -> None:
        hands = self._deal_hands(deck, Phase.TRICKS)
        self.trump_card = deck[-1]
        self.trump = self.trump_card.suit
        events.append(Dealt(self.round, self.dealer, hands, self.trump_card))
        events.append(TrumpTurned(self.trump_card, self.dealer))

    #: Who may do what (the kit's ``HandGame`` checks the phase and the turn first).
    RULES: ClassVar[dict[type, Rule]] = {Play: Rule(Phase.TRICKS, _plays, _check_play, _play)}
