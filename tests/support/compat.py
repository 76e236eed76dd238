"""The reference package's Python API, under its names, on top of our engine.

Code written for ``hundredandten`` runs with one import changed::

    from tests.support.compat import HundredAndTen, Bid, ...

Players are named by identifier here, as in the reference; the engine underneath
numbers them by seat. Differences, all deliberate (../shared/RULES.md, "planned
deviations"): an illegal action raises and changes nothing; a discard naming a card
twice is refused; duplicate player names are refused; a pass sent out of turn outside
bidding, or an unpass without a pre-pass, is refused instead of silently ignored.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias
from uuid import uuid4

from hundred_server.games.hundredandten import rules as engine
from hundred_server.games.hundredandten.bots import NaiveBot
from hundred_server.games.hundredandten.rules import Phase
from hundred_server.games.kit import cards as engine_cards
from hundred_server.games.kit.cards import Rank, Suit
from hundred_server.protocol.errors import CardCodeError, HundredError

HundredAndTenError = HundredError

__all__ = [
    "Action",
    "AutomatedPlayer",
    "Bid",
    "BidAmount",
    "BidEvent",
    "BiddingState",
    "Card",
    "CardKnowledge",
    "CardNumber",
    "CompletedTrick",
    "Discard",
    "Discarded",
    "GameState",
    "GameStatus",
    "HumanPlayer",
    "HundredAndTen",
    "HundredAndTenError",
    "InHand",
    "NaiveAutomatedPlayer",
    "Play",
    "Played",
    "Player",
    "RoundPlayer",
    "RoundRole",
    "RoundStatus",
    "SelectTrump",
    "SelectableSuit",
    "TableInfo",
    "TrickPlay",
    "TrickState",
    "Unknown",
    "Unpass",
    "UnselectableSuit",
]


class GameStatus(enum.Enum):
    WON = 1


class RoundStatus(enum.Enum):
    BIDDING = 1
    TRUMP_SELECTION = 2
    COMPLETED_NO_BIDDERS = 3
    TRICKS = 4
    DISCARD = 5
    COMPLETED = 6


class RoundRole(enum.Enum):
    DEALER = 1
    PRE_PASSED = 2


class BidAmount(enum.IntEnum):
    PASS = 0
    FIFTEEN = 15
    TWENTY = 20
    TWENTY_FIVE = 25
    THIRTY = 30
    SHOOT_THE_MOON = 60


_STATUS = {
    Phase.BIDDING: RoundStatus.BIDDING,
    Phase.TRUMP: RoundStatus.TRUMP_SELECTION,
    Phase.DISCARD: RoundStatus.DISCARD,
    Phase.TRICKS: RoundStatus.TRICKS,
}

# -------------------------------------------------------------------------------- cards


class SelectableSuit(enum.Enum):
    """The suits a bidder may name, numbered and ordered as the reference has them."""

    HEARTS = 0
    CLUBS = 1
    SPADES = 2
    DIAMONDS = 3


class UnselectableSuit(enum.Enum):
    JOKER = 1


#: The reference's card numbers (``JOKER`` 1, ``TWO`` 2 ... ``ACE`` 14): our ``Rank``.
CardNumber = Rank


CardSuit: TypeAlias = SelectableSuit | UnselectableSuit

_SUIT_TO_ENGINE: Final = {s: Suit[s.name] for s in SelectableSuit}
_SUIT_FROM_ENGINE: Final = {e: s for s, e in _SUIT_TO_ENGINE.items()}


@dataclass(frozen=True)
class Card:
    """A card as the reference has it: ``Card(CardNumber.ACE, SelectableSuit.SPADES)``."""

    number: CardNumber
    suit: CardSuit

    def __repr__(self) -> str:
        return f"{self.number.name} of {self.suit.name}"

    @property
    def engine_card(self) -> engine_cards.Card:
        """This card in our notation (``AS``)."""
        try:
            return _TO_ENGINE_CARD[self]
        except KeyError:
            raise CardCodeError(f"no such card: {self!r}") from None

    @property
    def trump_value(self) -> int:
        """Rank among trumps (higher wins)."""
        return engine.TRUMP_VALUE[self.engine_card]

    @property
    def weak_trump_value(self) -> int:
        """Rank within the led suit when no trump is played."""
        return engine.OFF_VALUE[self.engine_card]

    @property
    def always_trump(self) -> bool:
        """The ace of hearts and the joker are trumps whatever the suit named."""
        return self.engine_card in (_ACE_OF_HEARTS, engine_cards.JOKER)


def _card_of(card: engine_cards.Card) -> Card:
    engine_suit = card.suit
    if engine_suit is None:
        return Card(CardNumber.JOKER, UnselectableSuit.JOKER)
    return Card(CardNumber(int(card.rank)), _SUIT_FROM_ENGINE[engine_suit])


_ACE_OF_HEARTS: Final = engine_cards.Card.parse("AH")
_FROM_ENGINE_CARD: Final = tuple(_card_of(c) for c in engine_cards.ALL_CARDS)
_TO_ENGINE_CARD: Final = {
    c: e for e, c in zip(engine_cards.ALL_CARDS, _FROM_ENGINE_CARD, strict=True)
}
#: Every card, in the reference's deck order.
defined_cards: Final = list(_FROM_ENGINE_CARD)


def _cards(cards: Sequence[engine_cards.Card]) -> list[Card]:
    return [_FROM_ENGINE_CARD[c] for c in cards]


def _engine_card(card: Card) -> engine_cards.Card:
    if not isinstance(card, Card):
        raise CardCodeError(f"not a card: {card!r}")
    return card.engine_card


# ------------------------------------------------------------------------------ actions


@dataclass
class Action:
    identifier: str


@dataclass
class Unpass(Action):
    pass


@dataclass
class Bid(Action):
    amount: BidAmount

    def __bool__(self) -> bool:
        return self.amount > 0


@dataclass
class SelectTrump(Action):
    suit: SelectableSuit


@dataclass
class Discard(Action):
    cards: list[Card]


@dataclass
class Play(Action):
    card: Card


def _to_engine(action: Action) -> engine.Action:
    if isinstance(action, Bid):
        return engine.Bid(int(action.amount))
    if isinstance(action, Unpass):
        return engine.Unpass()
    if isinstance(action, SelectTrump):
        suit = _SUIT_TO_ENGINE.get(action.suit)
        if suit is None:
            raise HundredAndTenError(f"not a suit to name: {action.suit!r}", "bad_suit")
        return engine.SelectTrump(suit)
    if isinstance(action, Discard):
        return engine.Discard(tuple(_engine_card(c) for c in action.cards))
    if isinstance(action, Play):
        return engine.Play(_engine_card(action.card))
    raise HundredAndTenError(f"not an action: {action!r}", "bad_action")


def _from_engine(identifier: str, action: engine.Action) -> Action:
    if isinstance(action, engine.Bid):
        return Bid(identifier, BidAmount(action.amount))
    if isinstance(action, engine.SelectTrump):
        return SelectTrump(identifier, _SUIT_FROM_ENGINE[action.suit])
    if isinstance(action, engine.Discard):
        return Discard(identifier, _cards(action.cards))
    if isinstance(action, engine.Play):
        return Play(identifier, _FROM_ENGINE_CARD[action.card])
    return Unpass(identifier)


def _available(identifier: str, legal: Sequence[engine.Action]) -> tuple[Action, ...]:
    actions = [_from_engine(identifier, a) for a in legal]
    if actions and isinstance(actions[0], SelectTrump):  # the reference's suit order
        actions.sort(key=lambda a: a.suit.value if isinstance(a, SelectTrump) else 0)
    return tuple(actions)


# ------------------------------------------------------------------------- game state


@dataclass(frozen=True)
class InHand:
    pass


@dataclass(frozen=True)
class Played:
    trick_index: int
    seat: int


@dataclass(frozen=True)
class Discarded:
    seat: int


@dataclass(frozen=True)
class Unknown:
    pass


CardStatus: TypeAlias = InHand | Played | Discarded | Unknown


@dataclass(frozen=True)
class CardKnowledge:
    card: Card
    status: CardStatus


@dataclass(frozen=True)
class BidEvent:
    seat: int
    amount: BidAmount


@dataclass(frozen=True)
class TrickPlay:
    seat: int
    card: Card


@dataclass(frozen=True)
class CompletedTrick:
    plays: tuple[TrickPlay, ...]
    winner_seat: int


@dataclass(frozen=True)
class TableInfo:
    num_players: int
    dealer_seat: int
    bidder_seat: int | None
    scores: tuple[int, ...]


@dataclass(frozen=True)
class BiddingState:
    bid_history: tuple[BidEvent, ...]
    active_bid: BidAmount | None
    trump: SelectableSuit | None


@dataclass(frozen=True)
class TrickState:
    completed_tricks: tuple[CompletedTrick, ...]
    current_trick_plays: tuple[TrickPlay, ...]


@dataclass(frozen=True)
class GameState:
    """The reference's seat-relative observation (self is seat 0)."""

    status: RoundStatus
    table: TableInfo
    hand: tuple[Card, ...]
    bidding: BiddingState
    tricks: TrickState
    cards: tuple[CardKnowledge, ...]
    available_actions: tuple[Action, ...]

    @property
    def available_bids(self) -> tuple[Bid, ...]:
        return tuple(a for a in self.available_actions if isinstance(a, Bid))

    @property
    def available_trump_selections(self) -> tuple[SelectTrump, ...]:
        return tuple(a for a in self.available_actions if isinstance(a, SelectTrump))

    @property
    def available_discards(self) -> tuple[Discard, ...]:
        return tuple(a for a in self.available_actions if isinstance(a, Discard))

    @property
    def available_plays(self) -> tuple[Play, ...]:
        return tuple(a for a in self.available_actions if isinstance(a, Play))

    @property
    def is_bidder(self) -> bool:
        return self.table.bidder_seat == 0

    @property
    def is_dealer(self) -> bool:
        return self.table.dealer_seat == 0

    @property
    def num_players(self) -> int:
        return self.table.num_players

    @property
    def dealer_seat(self) -> int:
        return self.table.dealer_seat

    @property
    def bidder_seat(self) -> int | None:
        return self.table.bidder_seat

    @property
    def scores(self) -> tuple[int, ...]:
        return self.table.scores

    @property
    def bid_history(self) -> tuple[BidEvent, ...]:
        return self.bidding.bid_history

    @property
    def active_bid(self) -> BidAmount | None:
        return self.bidding.active_bid

    @property
    def trump(self) -> SelectableSuit | None:
        return self.bidding.trump

    @property
    def completed_tricks(self) -> tuple[CompletedTrick, ...]:
        return self.tricks.completed_tricks

    @property
    def current_trick_plays(self) -> tuple[TrickPlay, ...]:
        return self.tricks.current_trick_plays


def _status_of(status: engine.CardStatus) -> CardStatus:
    if isinstance(status, engine.InHand):
        return InHand()
    if isinstance(status, engine.PlayedIn):
        return Played(status.trick, status.seat)
    if isinstance(status, engine.DiscardedBy):
        return Discarded(status.seat)
    return Unknown()


def _trick_plays(plays: Sequence[tuple[int, engine_cards.Card]]) -> tuple[TrickPlay, ...]:
    return tuple(TrickPlay(s, _FROM_ENGINE_CARD[c]) for s, c in plays)


def _suit(suit: Suit | None) -> SelectableSuit | None:
    return None if suit is None else _SUIT_FROM_ENGINE[suit]


def game_state_from_view(view: engine.View, identifier: str, active: bool) -> GameState:
    """The reference's ``GameState`` for the viewer of ``view``."""
    over = view.phase is Phase.GAME_OVER
    return GameState(
        status=RoundStatus.COMPLETED if over else _STATUS[view.phase],
        table=TableInfo(view.num_players, view.dealer, view.bidder, view.scores),
        hand=tuple(_cards(view.hand)),
        bidding=BiddingState(
            bid_history=tuple(BidEvent(s, BidAmount(a)) for s, a in view.bids),
            active_bid=BidAmount(view.high_bid) if view.bids else None,
            trump=_suit(view.trump),
        ),
        tricks=TrickState(
            completed_tricks=tuple(
                CompletedTrick(_trick_plays(p), w) for p, w in view.completed_tricks
            ),
            current_trick_plays=_trick_plays(view.current_trick),
        ),
        cards=tuple(
            CardKnowledge(_FROM_ENGINE_CARD[c], _status_of(s)) for c, s in view.card_knowledge()
        ),
        available_actions=_available(identifier, view.legal) if active and not over else (),
    )


_PHASE = {status: phase for phase, status in _STATUS.items()}


@dataclass(frozen=True)
class _NaiveInputs:
    """A reference-style observation in the shape the naive bot reads."""

    phase: Phase
    hand: tuple[engine_cards.Card, ...]
    legal: tuple[engine.Action, ...]
    trump: Suit | None
    lead: engine_cards.Card | None
    is_bidder: bool

    @classmethod
    def of(cls, state: GameState) -> _NaiveInputs:
        plays = state.current_trick_plays
        return cls(
            phase=_PHASE.get(state.status, Phase.GAME_OVER),
            hand=tuple(_engine_card(c) for c in state.hand),
            legal=tuple(_to_engine(a) for a in state.available_actions),
            trump=None if state.trump is None else _SUIT_TO_ENGINE[state.trump],
            lead=_engine_card(plays[0].card) if plays else None,
            is_bidder=state.is_bidder,
        )


# ------------------------------------------------------------------------------ players


@dataclass
class Player(ABC):
    identifier: str


@dataclass
class HumanPlayer(Player):
    """A person: the game waits for their actions."""


@dataclass
class AutomatedPlayer(Player):
    """Subclass and implement ``act``; the game calls it as soon as it is this seat's turn."""

    @abstractmethod
    def act(self, game_state: GameState) -> Action | None: ...


@dataclass
class NaiveAutomatedPlayer(AutomatedPlayer):
    """The reference's naive player (``hundred_server.games.hundredandten.bots``)."""

    _bot: NaiveBot = field(default_factory=NaiveBot, repr=False, compare=False)

    def act(self, game_state: GameState) -> Action:
        return _from_engine(self.identifier, self._bot.act(_NaiveInputs.of(game_state)))

    def _act_on_view(self, view: engine.View) -> engine.Action:
        return self._bot.act(view)


@dataclass
class RoundPlayer:
    identifier: str
    roles: set[RoundRole] = field(default_factory=set, compare=False)
    hand: list[Card] = field(default_factory=list, compare=False)


class Round:
    """The current round, read-only, as the reference's ``active_round`` shows it."""

    def __init__(self, game: HundredAndTen) -> None:
        self._game = game

    @property
    def players(self) -> list[RoundPlayer]:
        g = self._game._engine
        players = []
        for seat, name in enumerate(g.players):
            roles = set()
            if seat == g.dealer:
                roles.add(RoundRole.DEALER)
            if g.pre_passed[seat]:
                roles.add(RoundRole.PRE_PASSED)
            players.append(RoundPlayer(name, roles, _cards(g.hands[seat])))
        return players

    @property
    def active_player(self) -> RoundPlayer:
        seat = self._game._engine.to_act
        if seat is None:
            raise HundredAndTenError("no player is to act: the game is over", "game_over")
        return self.players[seat]

    @property
    def dealer(self) -> RoundPlayer:
        return self.players[self._game._engine.dealer]

    @property
    def status(self) -> RoundStatus:
        g = self._game._engine
        return RoundStatus.COMPLETED if g.is_over else _STATUS[g.phase]

    @property
    def trump(self) -> SelectableSuit | None:
        return _suit(self._game._engine.trump)

    @property
    def bids(self) -> list[Bid]:
        g = self._game._engine
        return [Bid(g.players[s], BidAmount(a)) for s, a in g.bids]

    @property
    def active_bid(self) -> BidAmount | None:
        g = self._game._engine
        return BidAmount(g.high_bid) if g.bids else None

    @property
    def active_bidder(self) -> RoundPlayer | None:
        bidder = self._game._engine.bidder
        return None if bidder is None else self.players[bidder]


# --------------------------------------------------------------------------------- game


class HundredAndTen:
    """A game of Hundred and Ten with the reference package's interface."""

    def __init__(
        self,
        players: Sequence[Player] | None = None,
        seed: str | None = None,
        initial_moves: Sequence[Action] | None = None,
    ) -> None:
        self.players: list[Player] = list(players or [])
        self.seed = seed if seed is not None else str(uuid4())
        self._engine = engine.Game([p.identifier for p in self.players], seed=self.seed)
        for move in initial_moves or []:
            self._apply(move)
        self._automate()

    # ------------------------------------------------------------------ properties

    @property
    def status(self) -> GameStatus | RoundStatus:
        if self._engine.is_over:
            return GameStatus.WON
        return _STATUS[self._engine.phase]

    @property
    def active_round(self) -> Round:
        return Round(self)

    @property
    def active_player(self) -> Player:
        seat = self._engine.to_act
        if seat is None:
            raise HundredAndTenError("no player is to act: the game is over", "game_over")
        return self.players[seat]

    @property
    def scores(self) -> dict[str, int]:
        return dict(zip(self._engine.players, self._engine.scores, strict=True))

    @property
    def winner(self) -> Player | None:
        seat = self._engine.winner
        return None if seat is None else self.players[seat]

    @property
    def engine(self) -> engine.Game:
        """The engine underneath (seat-numbered), for code that wants more."""
        return self._engine

    # --------------------------------------------------------------------- actions

    def act(self, action: Action) -> None:
        """Carry out ``action``, then let automated players act until a person must."""
        self._apply(action)
        self._automate()

    def game_state_for(self, identifier: str) -> GameState:
        seat = self._seat(identifier)
        view = self._engine.view_for(seat)
        return game_state_from_view(view, identifier, active=seat == self._engine.to_act)

    def _seat(self, identifier: str) -> int:
        try:
            return self._engine.players.index(identifier)
        except ValueError:
            raise HundredAndTenError(f"no player {identifier!r}", "bad_seat") from None

    def _apply(self, action: Action) -> None:
        self._engine.apply(self._seat(action.identifier), _to_engine(action))

    def _automate(self) -> None:
        g = self._engine
        while not g.is_over and g.to_act is not None:
            player = self.players[g.to_act]
            if isinstance(player, NaiveAutomatedPlayer):
                g.apply(g.to_act, player._act_on_view(g.view_for(g.to_act)))
                continue
            if not isinstance(player, AutomatedPlayer):
                return
            action = player.act(self.game_state_for(player.identifier))
            if action is None:
                return
            self._apply(action)
