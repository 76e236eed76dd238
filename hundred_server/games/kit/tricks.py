"""What the trick-taking engines share (pure): who may sit, dealing, seeded shuffles,
and where a seat stands in the trick under way and at a four-seat partnership table.

The games keep their own rules; these are the parts that are the same word for word:
the play of a card, a deck (its seeded shuffle, its check, its deal), the trick's
winner by a game's own ``beats``, the sides of four partners (``SIDES``, ``side_of``),
and the plain rules of the French cards ranked ace high that Whist and Spades play by
(``beats``: higher in the suit, or a trump; ``following``: follow suit if able).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from random import Random
from typing import Any, Final, Generic, TypeVar

from hundred_server.games.kit.cards import STANDARD_52, SUIT_OF, Card, Suit
from hundred_server.protocol.errors import CardCodeError, IllegalActionError

Plays = tuple[tuple[int, Card], ...]
#: A game's card type (the French ``Card``, or a game's own deck's).
C = TypeVar("C")
#: A game's trump (a ``Suit``, or a game's own colour).
T = TypeVar("T")


class Phase(enum.Enum):
    """Where a game played hand after hand is; each game passes through some of these.
    ``DEAL`` waits for a deck (chance is an input); ``GAME_OVER`` is the end."""

    DEAL = "deal"
    BIDDING = "bidding"
    TRUMP = "trump"
    DISCARD = "discard"
    SETUP = "setup"
    TRICKS = "tricks"
    PLAY = "play"
    GAME_OVER = "game_over"

    # Members are singletons, so identity hashing is exact, and it runs in C: every
    # prompt looks its type up by phase.
    __hash__ = object.__hash__

    @property
    def verb(self) -> str:
        """What a seat does in this phase, in the words of ``wrong_phase`` and
        ``not_your_turn`` ("cannot name trump now")."""
        return _VERBS[self]


_VERBS: Final = {
    Phase.DEAL: "deal",
    Phase.BIDDING: "bid",
    Phase.TRUMP: "name trump",
    Phase.DISCARD: "discard",
    Phase.SETUP: "set up the hand",
    Phase.TRICKS: "play",
    Phase.PLAY: "play",
    Phase.GAME_OVER: "act",
}


@dataclass(frozen=True, slots=True)
class CardPlay:
    """Play a card: the action every game of French cards has. Each game subclasses it,
    so that its actions stay its own (another game's play is ``bad_action`` to it)."""

    card: Card

    def __post_init__(self) -> None:
        if type(self.card) is not Card:
            raise CardCodeError(f"not a card: {self.card!r}")


@dataclass(slots=True)
class Played:
    """The event of a card played, for a game whose plays tell nothing more. Not frozen:
    a frozen ``__init__`` costs twice as much, and the engines make one every move;
    treat it as immutable."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class BidMade:
    """The event of a bid: ``seat`` bid ``amount`` (in the game's own terms: 0 a pass in
    Pinochle and Rook, nil in Spades)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class StuckDealer:
    """Every seat passed: the dealer is the bidder at ``amount`` (the game's least bid
    for it: Pinochle's 20, Rook's 80)."""

    seat: int
    amount: int


#: A game of four partners (Whist, Spades): its seats, and the cards each holds (and
#: the tricks of a hand).
PARTNER_SEATS: Final = 4
PARTNER_HAND: Final = 13

# The events of a game of four partners (Whist, Spades), seats 0 and 2 (NS) against 1
# and 3 (EW): what kit/partners.py tells for it. A game adds fields by subclassing.


@dataclass(slots=True)
class Dealt:
    hand: int  # 1-based, as records and messages count
    dealer: int
    hands: tuple[tuple[Card, ...], ...]  # every seat's: the caller shows each only its own


@dataclass(slots=True)
class TrickWon:
    seat: int
    card: Card  # the winning card
    trick: int  # 1-based within the hand
    plays: tuple[tuple[int, Card], ...]  # (seat, card) in playing order
    tricks_won: tuple[int, int]  # (NS, EW) taken this hand, this trick included

    @property
    def side(self) -> int:
        return self.seat % 2


@dataclass(slots=True)
class GameWon:
    side: int  # 0 North-South, 1 East-West
    totals: tuple[int, int]

    @property
    def winner(self) -> int:
        """The winning side (the name every game's ``GameWon`` answers to)."""
        return self.side


@dataclass(frozen=True, slots=True)
class SuitChoice:
    """Name a suit (trump): the action of the games whose bidder names one. Each game
    subclasses it, as ``CardPlay``."""

    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit):
            raise IllegalActionError(f"not a suit: {self.suit!r}", "bad_suit")


#: The sides of a table of four partners, by side index: seats 0 and 2 are North-South
#: (side 0), seats 1 and 3 East-West (side 1).
SIDES: Final = ("NS", "EW")


def side_of(seat: int) -> int:
    """The side a seat of four partners plays for: 0 (seats 0 and 2) or 1 (1 and 3)."""
    return seat % 2


def beats(card: Card, best: Card, trump: Suit) -> bool:
    """Whether ``card`` takes a trick that ``best`` (of the suit led, or a trump) is
    winning, the cards ranked as the deck orders them (2 low ... ace high): higher in
    its suit, or a trump."""
    suit = SUIT_OF[card]
    if suit is SUIT_OF[best]:
        return card > best
    return suit is trump


def following(hand: Sequence[Card], lead: Card | None) -> Sequence[Card]:
    """The cards of ``hand`` it may play to a trick led by ``lead`` when it must follow
    suit if able: those of the suit led if it holds any, else (or leading) all."""
    if lead is not None:
        suit = SUIT_OF[lead]
        follow = [c for c in hand if SUIT_OF[c] is suit]
        if follow:
            return follow
    return hand


def check_players(players: Iterable[str], counts: Sequence[int], title: str) -> tuple[str, ...]:
    """The players as a tuple, if ``title`` is played by that many and no two names are
    alike (``bad_players``, ``duplicate_name``)."""
    names = tuple(players)
    if len(names) not in counts:
        many = f"exactly {counts[0]}" if len(counts) == 1 else f"{min(counts)} to {max(counts)}"
        raise IllegalActionError(f"{title} takes {many} players, got {len(names)}", "bad_players")
    if len(set(names)) != len(names):
        dupes = sorted({n for n in names if names.count(n) > 1})
        raise IllegalActionError(f"player names must differ: {dupes!r} repeats", "duplicate_name")
    return names


def shuffled(cards: Sequence[C], game: str, seed: str, hand_index: int) -> tuple[C, ...]:
    """``cards`` in the order ``game`` deals hand ``hand_index`` (0-based) from ``seed``:
    the same for the same inputs."""
    order = list(cards)
    Random(f"{game}-deck|{seed}|hand:{hand_index}").shuffle(order)
    return tuple(order)


def winning_play(
    plays: Sequence[tuple[int, C]], trump: T, beats: Callable[[C, C, T], bool]
) -> tuple[int, C]:
    """The (seat, card) that wins a trick (complete or not): the first play, unless a
    later card ``beats(card, best, trump)`` the best so far."""
    best = plays[0]
    for play in plays[1:]:
        if beats(play[1], best[1], trump):
            best = play
    return best


def deal_one_at_a_time(
    deck: Sequence[C],
    dealer: int,
    seats: int,
    arrange: Callable[[Iterable[C]], tuple[C, ...]],
) -> tuple[tuple[C, ...], ...]:
    """Each seat's hand, arranged: ``deck[i]`` goes to seat ``(dealer + 1 + i) % seats``."""
    return tuple(arrange(deck[(seat - dealer - 1) % seats :: seats]) for seat in range(seats))


@dataclass(frozen=True)
class Deck(Generic[C]):
    """A game's deck and what the game does with one: shuffle it from a seed, check an
    order it is given, deal it.

    ``cards`` holds every card as often as the deck does, in the order the seeded
    shuffle starts from; ``game`` names the shuffle (``shuffled``). A deck given is
    refused (``bad_deck``) with ``unlike`` if it holds anything but ``card_type``, else
    with ``what`` and what it held (with ``strangers``, how many of its cards are not
    of the deck). ``arrange`` puts a hand dealt in its order.
    """

    game: str
    cards: tuple[C, ...]
    what: str
    arrange: Callable[[Iterable[C]], tuple[C, ...]]
    _: KW_ONLY
    card_type: type = Card
    unlike: str = "a deck holds cards only"
    strangers: bool = False
    #: How often the deck holds each card (``check`` compares a deck given with it).
    counts: dict[C, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "counts", dict(Counter(self.cards)))

    def seeded(self, seed: str, hand_index: int) -> tuple[C, ...]:
        """The deck order of hand ``hand_index`` (0-based): the same for the same inputs."""
        return shuffled(self.cards, self.game, seed, hand_index)

    def check(self, deck: Sequence[C]) -> tuple[C, ...]:
        """The deck as a tuple if it holds the deck's cards, each as often, in any order;
        else ``bad_deck``."""
        cards = tuple(deck)
        if not {*map(type, cards)} <= {self.card_type}:  # all of the card type
            raise IllegalActionError(self.unlike, "bad_deck")
        # As dicts: Counters of cards given hold no zero counts, so this is Counter's ==.
        if len(cards) != len(self.cards) or dict(Counter(cards)) != self.counts:
            held = set(cards)
            foreign = f", {len(held - set(self.cards))} not of the deck" if self.strangers else ""
            raise IllegalActionError(
                f"{self.what}; got {len(cards)} cards ({len(held)} distinct{foreign})",
                "bad_deck",
            )
        return cards

    def deal(
        self, deck: Sequence[C], dealer: int, seats: int, hand_size: int
    ) -> tuple[tuple[tuple[C, ...], ...], tuple[C, ...]]:
        """Each seat's hand, arranged, and the cards left over: ``deck[i]`` goes to seat
        ``(dealer + 1 + i) % seats`` for the first ``seats * hand_size`` cards."""
        dealt = seats * hand_size
        return deal_one_at_a_time(deck[:dealt], dealer, seats, self.arrange), tuple(deck[dealt:])


def sorted_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """French cards in the deck's order (hearts first, 2 low ... ace high in each suit)."""
    return tuple(sorted(cards))


def deck_of_52(game: str, title: str) -> Deck[Card]:
    """The 52 cards without the joker, each once, hands sorted: the deck of ``game``
    (its shuffle's name), refused in the words of ``title``."""
    what = f"a {title} deck is the 52 cards without the joker, each once"
    return Deck(game, STANDARD_52, what, sorted_hand)


class TrickSeat:
    """Where a view's seat stands: in the trick under way, and at a table of four
    where partners sit opposite. A mixin for a game's ``View``."""

    __slots__ = ()
    seat: int
    dealer: int
    current_trick: Plays

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @property
    def position(self) -> int:
        """How many cards are already in the current trick (0: the viewer leads)."""
        return len(self.current_trick)

    @property
    def lead(self) -> Card | None:
        """The card led to the current trick, if any."""
        return self.current_trick[0][1] if self.current_trick else None

    @property
    def is_dealer(self) -> bool:
        return self.dealer == self.seat


@dataclass(frozen=True, slots=True)
class PartnersView(TrickSeat):
    """What a seat of a game of four partners may know (``Partners._view_of``): its own
    hand and what the table has seen, by absolute seat (0 North, 1 East, 2 South, 3
    West); scores and trick counts by side (NS, EW). A snapshot: later moves do not
    change it. A game's ``View`` adds its own fields."""

    seat: int
    phase: Phase
    hand_index: int  # 0-based
    hand: tuple[Card, ...]
    dealer: int
    to_act: int | None
    current_trick: Plays  # (seat, card) in playing order
    tricks: tuple[Plays, ...]  # this hand's completed tricks
    trick_winners: tuple[int, ...]  # the seat that won each completed trick
    tricks_won: tuple[int, int]  # (NS, EW) this hand
    scores: tuple[int, int]  # (NS, EW) game points
    played: tuple[Card, ...]  # every card played this hand, in order
    legal: tuple[Any, ...]  # what the viewer may do now

    @property
    def side(self) -> int:
        return self.seat % 2


def check_seat(seat: object, seats: int) -> None:
    """``bad_seat`` unless ``seat`` is one of a table of ``seats``."""
    if type(seat) is not int or not 0 <= seat < seats:
        raise IllegalActionError(f"no seat {seat!r} at a table of {seats}", "bad_seat")


def check_turn(
    phase: Phase, wanted: Phase, to_act: int | None, seat: int | None, doing: str = ""
) -> None:
    """Who may act: ``seat`` must be the seat ``to_act`` and the game in the ``wanted``
    phase (``game_over`` once it is over, else ``wrong_phase``, which says ``doing``
    where an action is not the phase's own verb; ``not_your_turn``)."""
    if phase is not wanted:
        if phase is Phase.GAME_OVER:
            raise IllegalActionError("the game is over", "game_over")
        raise IllegalActionError(
            f"cannot {doing or wanted.verb} now: the game is in {phase.value}", "wrong_phase"
        )
    if seat != to_act:
        raise IllegalActionError(
            f"it is seat {to_act}'s turn to {wanted.verb}, not seat {seat}'s", "not_your_turn"
        )


class Hands(Generic[C]):
    """What a game played hand after hand, each hand waiting for its deck, answers
    alike: a mixin for a game's ``Game``. The game keeps ``dealers`` (the dealer of
    every hand so far, the current one last), ``phase``, ``hands`` (each seat's cards)
    and ``num_players``; it waits for a deck in ``Phase.DEAL`` and ends in
    ``Phase.GAME_OVER``."""

    __slots__ = ()
    dealers: list[int]
    phase: Phase
    hands: list[list[C]]
    num_players: int

    @property
    def round_index(self) -> int:
        """0-based index of the current hand (the game interface calls hands rounds)."""
        return len(self.dealers) - 1

    @property
    def round(self) -> int:
        """1-based number of the current hand, as events and records count."""
        return len(self.dealers)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def needs_deal(self) -> bool:
        """Whether the game waits for ``deal(deck)``."""
        return self.phase is Phase.DEAL

    def hand(self, seat: int) -> tuple[C, ...]:
        """The cards ``seat`` holds now."""
        check_seat(seat, self.num_players)
        return tuple(self.hands[seat])
