"""The skeleton the card-game engines share (pure): a game played hand after hand, in
phases, by seats that act in turn, every action validated in full before it changes
anything.

``HandGame`` answers what every engine answers alike: who may act (``_check_turn``,
the one place that says it), the checked ``apply``, a hand's start and the game's
end. ``TrickGame`` adds the trick under way, the tricks taken and who took them;
``CardTricks``, for a game of French cards whose plays tell nothing but the card, the
cards played this hand and the play of one; ``Partners``, for four partners (Whist,
Spades), the scores by side and the tricks each side took. A game writes the rest, which is its
rules: its phases and their verbs, its table of ``RULES`` (each action type: the phase
it is taken in, what more it checks, what it does), how it deals and how it scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from hundred_server.games.kit import tricks
from hundred_server.games.kit.cards import SUIT_OF, Card, Suit
from hundred_server.games.kit.tricks import (
    PARTNER_HAND,
    PARTNER_SEATS,
    C,
    Hands,
    Phase,
    Played,
    TrickWon,
    beats,
    check_players,
    check_seat,
    check_turn,
    deal_one_at_a_time,
    sorted_hand,
    winning_play,
)
from hundred_server.protocol.errors import IllegalActionError

#: A game's action and event types.
A = TypeVar("A")
E = TypeVar("E")
#: A game's view type.
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class HandDeal(Generic[C]):
    """A deal in ``Game.history``: the hand (1-based), its dealer and deck order. A game
    may name its own subclass ``DealRecord`` of its card type (``Partners`` games keep
    this one)."""

    hand: int
    dealer: int
    deck: tuple[C, ...]


@dataclass(frozen=True, slots=True)
class GameWon:
    """The event that ends a game of seats each for themselves: ``winner`` (a seat) won
    it, with ``totals`` by seat."""

    winner: int
    totals: tuple[int, ...]


class Rule(NamedTuple):
    """How a game takes one type of action: in ``phase``, from the seat to act;
    ``legal(game, seat)`` is what that seat may do then (``legal_actions``);
    ``check(game, seat, action)`` raises why an action is illegal beyond that (None:
    nothing more to check); ``carry_out(game, seat, action, events)`` does it, checked."""

    phase: Phase
    legal: Callable[[Any, int], tuple[Any, ...]]
    check: Callable[[Any, int, Any], None] | None
    carry_out: Callable[[Any, int, Any, list[Any]], None]


class Bids:
    """The bids of a hand so far, ``bids`` ((seat, amount) in order, 0 a pass): a mixin
    for a game's ``Game`` and ``View``."""

    __slots__ = ()
    bids: Sequence[tuple[int, int]]

    @property
    def high_bid(self) -> int:
        """The highest bid so far this hand (0: none)."""
        return max((amount for _, amount in self.bids), default=0)


class HandGame(Hands[C], Generic[C, A, E]):
    """A game played hand after hand by seats in turn; see the module docstring.

    The game names its ``TITLE``, writes who may do what in its ``RULES`` (one ``Rule``
    an action type: anything else is ``bad_action``; what a seat does in a phase is the
    phase's ``verb``), sets up its players with ``_begin``, adds its own state of a hand
    to ``_new_hand`` and ends each hand it scores with ``_hand_scored``."""

    TITLE: ClassVar[str]
    #: The table options the game is played with (``GameSpec.flags``): none, unless the
    #: game has some.
    flags: frozenset[str] = frozenset()
    RULES: ClassVar[Mapping[type, Rule]]
    _LEGAL: ClassVar[dict[Phase, Callable[[Any, int], tuple[Any, ...]]]] = {}
    # The state of the current hand (``_new_hand`` resets it; the game, its own part).
    to_act: int | None
    dealer: int
    hand_index: int  # 0-based
    deck: tuple[C, ...]
    winner: int | None
    #: The seed the game deals itself from, written into its record; None (unless the
    #: game sets one): it never deals itself, and its records carry every deck.
    seed: str | None = None
    #: Deals and (seat, action) pairs, in order: what a record replays.
    history: list[Any]
    players: tuple[str, ...]
    scores: tuple[int, ...]  # by seat, or by side
    hand_results: list[tuple[int, ...]]  # the scores after each hand
    #: The event that ends the game: ``GAME_WON(winner, scores)``.
    GAME_WON: ClassVar[type[Any]] = GameWon

    def _begin(self, players: Sequence[str], seat_counts: Sequence[int], sides: int = 0) -> None:
        """The game before its first hand: ``players`` (checked: one of ``seat_counts``
        seats), no score yet by seat (or by side, when it has ``sides``), no winner."""
        self.players = check_players(players, seat_counts, self.TITLE)
        self.num_players = len(self.players)
        self.scores = (0,) * (sides or self.num_players)
        self.winner = None
        self.dealers = []  # the dealer of every hand so far
        self.history = []
        self.hand_results = []

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "RULES" in cls.__dict__:
            cls._LEGAL = {rule.phase: rule.legal for rule in cls.RULES.values()}

    def legal_actions(self, seat: int) -> tuple[Any, ...]:
        """What ``seat`` may do now: nothing unless it is to act, else what the ``Rule``
        of the phase gives."""
        self._check_seat(seat)
        legal = self._LEGAL.get(self.phase)
        return () if legal is None or seat != self.to_act else legal(self, seat)

    def apply(self, seat: int, action: A) -> list[E]:
        """Carry out ``action`` for ``seat``; returns what happened, in order.

        Raises ``IllegalActionError`` (with its ``code``) and changes nothing if the
        action is not legal now.
        """
        self._check_seat(seat)
        rule = self.RULES.get(type(action))
        if rule is None:
            raise IllegalActionError(f"not a {self.TITLE} action: {action!r}", "bad_action")
        self._check_turn(seat, rule.phase)
        if rule.check is not None:
            rule.check(self, seat, action)
        # Recorded first: a play that ends a hand comes before the next hand's deal.
        self.history.append((seat, action))
        events: list[E] = []
        rule.carry_out(self, seat, action, events)
        return events

    def _check_seat(self, seat: int) -> None:
        check_seat(seat, self.num_players)

    def _check_turn(self, seat: int | None, phase: Phase) -> None:
        """The one place that says who may act: the seat to act, in the right phase."""
        check_turn(self.phase, phase, self.to_act, seat)

    def _next(self, seat: int) -> int:
        """The seat on ``seat``'s left."""
        return (seat + 1) % self.num_players

    def _new_hand(self, dealer: int) -> None:
        """Start a hand that ``dealer`` deals: it waits for its deck, nobody holds a card."""
        self.dealer = dealer
        self.dealers.append(dealer)
        self.hand_index = len(self.dealers) - 1
        self.phase = Phase.DEAL
        self.to_act = None
        self.deck = ()
        self.hands = [[] for _ in range(self.num_players)]

    def _view_of(self, seat: int, view: Callable[..., V], **own: Any) -> V:
        """What ``seat`` may know now, as the game's ``view`` type: what every kit game's
        view holds (the seat, the phase, its hand, the dealer, the seat to act, the
        scores, what it may do) and the game's ``own``."""
        self._check_seat(seat)
        return view(
            seat=seat, phase=self.phase, hand=tuple(self.hands[seat]), dealer=self.dealer,
            to_act=self.to_act, scores=self.scores, legal=self.legal_actions(seat), **own,
        )  # fmt: skip

    def _dealt(self, deck: tuple[C, ...], hands: Sequence[Sequence[C]], phase: Phase) -> None:
        """The hand's ``deck`` (checked) is dealt as ``hands`` and kept in ``history``;
        the seat on the dealer's left acts first, in ``phase``."""
        self.deck = deck
        self.hands = [list(h) for h in hands]
        self.history.append(HandDeal(self.round, self.dealer, deck))
        self.phase, self.to_act = phase, self._next(self.dealer)

    def _hand_scored(self, scores: tuple[int, ...], winner: int | None, events: list[Any]) -> None:
        """A hand has been scored (and told): ``scores`` are the game's now. The seat on
        the dealer's left deals next, or, with a ``winner``, the game is over (told as
        ``GAME_WON``)."""
        self.scores = scores
        self.hand_results.append(scores)
        if winner is None:
            self._new_hand(self._next(self.dealer))
        else:
            self._end(winner)
            events.append(self.GAME_WON(winner, scores))

    def _end(self, winner: int) -> None:
        """The game is over, won by ``winner``: nobody acts again."""
        self.winner = winner
        self.phase, self.to_act = Phase.GAME_OVER, None


class TrickGame(HandGame[C, A, E]):
    """A ``HandGame`` played in tricks: one card a seat, from the leader round the table;
    the game says who wins a trick and what it is worth."""

    trick: list[tuple[int, C]]  # the trick being played: (seat, card) in playing order
    tricks: list[tuple[tuple[int, C], ...]]  # this hand's complete tricks
    trick_winners: list[int]  # the seat that won each complete trick

    def _new_hand(self, dealer: int) -> None:
        super()._new_hand(dealer)
        self.trick = []
        self.tricks = []
        self.trick_winners = []

    def _view_of(self, seat: int, view: Callable[..., V], **own: Any) -> V:
        """``HandGame._view_of``, and the hand's tricks: its number, the trick under way,
        the tricks complete and who won each."""
        return super()._view_of(
            seat, view, hand_index=self.hand_index, current_trick=tuple(self.trick),
            tricks=tuple(self.tricks), trick_winners=tuple(self.trick_winners), **own,
        )  # fmt: skip

    def _lay(self, seat: int, card: C) -> bool:
        """``seat`` plays ``card`` from its hand to the trick: whether that completes the
        trick (if not, the next seat is to play)."""
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.num_players:
            self.to_act = self._next(seat)
            return False
        return True

    def _gather(self, winner: int) -> tuple[tuple[int, C], ...]:
        """The complete trick goes to ``winner``: it is the hand's next trick taken, and
        the table is clear. Returns its plays."""
        plays = tuple(self.trick)
        self.tricks.append(plays)
        self.trick_winners.append(winner)
        self.trick = []
        return plays


class CardTricks(TrickGame[Card, A, E]):
    """A ``TrickGame`` of French cards whose plays tell nothing but the card (the kit's
    ``Played``), keeping ``played``, every card played this hand in order."""

    played: list[Card]

    def _new_hand(self, dealer: int) -> None:
        super()._new_hand(dealer)
        self.played = []

    def _check_holds(self, seat: int, card: Card) -> None:
        """``not_in_hand`` unless ``seat`` holds ``card``."""
        if card not in self.hands[seat]:
            raise IllegalActionError(f"{card} is not in seat {seat}'s hand", "not_in_hand")

    def _play_card(self, seat: int, card: Card, events: list[Any]) -> bool:
        """``seat`` plays ``card``, checked: from its hand to the trick and to ``played``,
        told as ``Played``. Returns whether that completes the trick."""
        complete = self._lay(seat, card)
        self.played.append(card)
        events.append(Played(seat, card))
        return complete


class Partners(CardTricks[A, E]):
    """A ``CardTricks`` of four partners, 13 cards each: seats 0 and 2 (side 0, NS)
    against 1 and 3 (side 1, EW), the scores and the winner by side, and this hand's
    tricks by side (``tricks_won``). The highest ``trump`` wins a trick, else the
    highest card of the suit led (ace high), told as the kit's ``TrickWon``."""

    trump: Suit | None
    tricks_won: tuple[int, int]  # (NS, EW) this hand

    GAME_WON = tricks.GameWon
    scores: tuple[int, int]  # (NS, EW)

    def __init__(self, players: Sequence[str], seed: str | None) -> None:
        self._begin(players, (PARTNER_SEATS,), sides=2)  # scores and the winner: (NS, EW), a side
        self.seed = seed

    def _new_hand(self, dealer: int) -> None:
        super()._new_hand(dealer)
        self.tricks_won = (0, 0)

    def _deal_hands(self, deck: tuple[Card, ...], phase: Phase) -> tuple[tuple[Card, ...], ...]:
        """Deal ``deck`` (checked): ``deck[i]`` to seat ``(dealer + 1 + i) % 4``, each
        hand sorted (``deck_of_52``), then ``phase`` (``_dealt``). Returns the hands."""
        hands = deal_one_at_a_time(deck, self.dealer, PARTNER_SEATS, sorted_hand)
        self._dealt(deck, hands, phase)
        return hands

    def _view_of(self, seat: int, view: Callable[..., V], **own: Any) -> V:
        """What ``seat`` may know now: the kit's ``PartnersView`` fields (``TrickGame``'s,
        the tricks by side and the cards played) and the game's ``own``."""
        own.update(tricks_won=self.tricks_won, played=tuple(self.played))
        return super()._view_of(seat, view, **own)

    def _check_follows(self, seat: int, card: Card) -> None:
        """``not_in_hand`` unless ``seat`` holds ``card``; ``must_follow_suit`` if it is
        off the suit led while ``seat`` holds that suit."""
        self._check_holds(seat, card)
        if self.trick:
            lead = self.trick[0][1]
            suit = SUIT_OF[lead]
            held = any(SUIT_OF[c] is suit for c in self.hands[seat])
            if suit is not None and SUIT_OF[card] is not suit and held:
                raise IllegalActionError(
                    f"{lead} was led: seat {seat} holds {suit.name.lower()} and must follow "
                    f"suit, not play {card}",
                    "must_follow_suit",
                )

    def _play_to_trick(self, seat: int, card: Card, events: list[Any]) -> bool:
        """``seat`` plays ``card`` (``_play_card``); a trick it completes goes to its
        winner, who leads next. Returns whether that was the hand's last trick."""
        if not self._play_card(seat, card, events):
            return False
        assert self.trump is not None
        winner, best = winning_play(self.trick, self.trump, beats)
        plays = self._gather(winner)
        ns, ew = self.tricks_won
        self.tricks_won = (ns + 1, ew) if winner % 2 == 0 else (ns, ew + 1)
        events.append(TrickWon(winner, best, len(self.tricks), plays, self.tricks_won))
        self.to_act = winner
        return len(self.tricks) == PARTNER_HAND
