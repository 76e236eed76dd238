"""Single-deck Pinochle: the pure rules engine (no I/O, no clocks, no randomness of its own).

The rules are ../shared/RULES.md, section "Single-deck pinochle", and the transcript
seeds/pinochle-server-protocol.txt is its test: four players, seats 0 and 2 (team 0)
against 1 and 3 (team 1); 48 cards, A T K Q J 9 twice in each suit, ranked in that
order. The dealer deals the whole deck one card at a time from their left, so
``deck[i]`` goes to seat ``(dealer + 1 + i) % 4``. One round of bidding from the
dealer's left: each seat bids once (a whole number from 20 that tops the high bid) or
passes; if all pass the dealer is stuck with 20. The bidder names trump, every seat's
meld is shown (seats 0..3), and the bidder leads the first trick. Follow suit and beat
the winning card of the led suit if able; void, trump and beat a winning trump if
able; else play anything. Of two identical cards the one played first ranks higher.
A, T and K count a point each and the last trick one more (25 in all). A team scores
its meld plus its counters, except that a bidding team short of its bid scores minus
the bid. After a hand the game ends when a team has ``target`` (100) or more or is
below -50; the higher score wins, and on a tie the team that bid this hand.

Shape of the API (as ``whist.Game``, so one game interface covers both)::

    game = Game(["ann", "bob", "cy", "dee"])   # waits in Phase.DEAL
    events = game.deal(deck)         # the 48 cards in dealing order; Dealt
    game.to_act                      # the seat that must act, or None
    game.legal_actions(seat)         # what that seat may do now
    events = game.apply(seat, Bid(25))   # all-or-nothing; raises IllegalActionError
    game.view_for(seat)              # what that seat may know

Chance is an input: a game never deals by itself. Before every hand it waits in
``Phase.DEAL`` (``needs_deal``) until ``deal(deck)`` is given an explicit order of the
48 cards; ``seeded_deck(seed, k)`` makes one for hand ``k`` (0-based) from a seed. The
actions are ``Bid(amount)`` (0 passes), ``Trump(suit)`` and ``Play(card)``. Scores,
tricks, counters and the winner are by team: index 0 is seats 0 and 2, index 1 seats
1 and 3 (``team_of(seat)``).

Phases, and who may act (decided in one place, ``_check_turn``)::

    DEAL       nobody: the game waits for deal(deck)
    BIDDING    each seat once, from the dealer's left: Bid(0) or Bid(n), 20 <= n <= 250
    TRUMP      the bidder: Trump(suit); then every seat's meld is shown
    TRICKS     the seat to play: Play(card), 12 tricks; then DEAL or GAME_OVER
    GAME_OVER  nobody

Bids above ``MAX_BID`` (250) are refused: that is far above what a team can take in a
hand (a double run of spades with a double pinochle, 180 meld, and all 25 counters
make 205; what the partner can meld beside such a hand is small), so such a bid could
only lose, and a cap keeps the list of legal bids finite.

Every ``IllegalActionError`` code the engine raises:

- ``bad_players``: not exactly four players; ``duplicate_name``: two alike;
  ``bad_target``: a target that is not a positive whole number;
- ``bad_seat``: no such seat; ``bad_action``: not a Pinochle action;
- ``bad_deck``: ``deal`` given anything but the 48 cards (each of the 24 twice);
- ``game_over``: the game has ended; ``wrong_phase``: an action of another phase
  (a ``Play`` while bidding, ``deal`` mid-hand); ``not_your_turn``: another seat acts;
- ``illegal_bid``: an amount that is not 0 or 20..250 (raised by ``Bid`` itself), or
  one that does not top the high bid;
- ``bad_suit``: ``Trump`` of something that is not a ``Suit``;
- ``not_in_hand``: a card the seat does not hold;
- ``must_follow_suit``: off the led suit while holding it;
- ``must_beat``: a card of the led suit (or a trump, when void) that does not beat the
  winning card of its suit while the seat holds one that does;
- ``must_trump``: void in the led suit, not a trump, while holding a trump.

``Bid``, ``Trump`` and ``Play`` check their field on construction: ``Bid(19)`` raises
``illegal_bid``, ``Trump("H")`` ``bad_suit``, ``Play("AS")`` a ``CardCodeError``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from hundred_server.games.kit.cards import ALL_CARDS, SUIT_OF, Card, Rank, Suit, card
from hundred_server.games.kit.phases import Bids, HandDeal, Rule, TrickGame
from hundred_server.games.kit.tricks import (
    BidMade,
    CardPlay,
    Deck,
    Plays,
    SuitChoice,
    TrickSeat,
    winning_play,
)
from hundred_server.games.kit.tricks import Dealt as Dealt
from hundred_server.games.kit.tricks import GameWon as GameWon
from hundred_server.games.kit.tricks import Phase as Phase
from hundred_server.games.kit.tricks import StuckDealer as StuckDealer
from hundred_server.protocol.errors import IllegalActionError

# ---------------------------------------------------------------------------- constants

NUM_PLAYERS: Final = 4
HAND_SIZE: Final = 12
TRICKS_PER_HAND: Final = 12
DEFAULT_TARGET: Final = 100
#: A team below this after a hand ends the game.
LOSING_SCORE: Final = -50
PASS: Final = 0
MIN_BID: Final = 20
#: The highest bid accepted (see the module docstring).
MAX_BID: Final = 250
#: The dealer's bid when every seat passes.
STUCK_BID: Final = MIN_BID
#: The last trick's bonus point.
LAST_TRICK_BONUS: Final = 1
#: Team names by team index, as the seed server's messages name them.
TEAMS: Final = ("Team0", "Team1")

#: Suits in display order (a hand is sorted D, C, H, S).
SUIT_ORDER: Final = (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
#: Ranks in a suit, high to low.
RANK_ORDER: Final = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)

#: The 24 different cards, in display order.
PINOCHLE_CARDS: Final = tuple(card(r, s) for s in SUIT_ORDER for r in RANK_ORDER)
#: The 48-card deck: each of the 24 cards twice, in display order (``sort_hand`` order).
PINOCHLE_DECK: Final = tuple(c for c in PINOCHLE_CARDS for _ in range(2))
_DECK_COUNTS: Final = Counter(PINOCHLE_DECK)

# Lookup tables by card index (a Card is an int); cards outside the deck get -1 / 0.
#: Rank within a suit: 9 is 0 ... A is 5.
STRENGTH: Final[tuple[int, ...]] = tuple(
    5 - RANK_ORDER.index(c.rank) if c in _DECK_COUNTS else -1 for c in ALL_CARDS
)
#: Counters: A, T and K are worth a point each.
COUNTER_POINTS: Final[tuple[int, ...]] = tuple(
    1 if c.rank in (Rank.ACE, Rank.TEN, Rank.KING) else 0 for c in ALL_CARDS
)
_SORT_KEY: Final[tuple[int, ...]] = tuple(
    PINOCHLE_CARDS.index(c) if c in _DECK_COUNTS else 100 + c for c in ALL_CARDS
)


def team_of(seat: int) -> int:
    """The team a seat plays for: 0 (seats 0 and 2) or 1 (seats 1 and 3)."""
    return seat % 2


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in display order: suits D, C, H, S, and A T K Q J 9 within a suit."""
    return tuple(sorted(cards, key=_SORT_KEY.__getitem__))


# ------------------------------------------------------------------------------ actions


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid: 0 passes, else a whole number from ``MIN_BID`` to ``MAX_BID``."""

    amount: int

    def __post_init__(self) -> None:
        amount = self.amount
        if type(amount) is not int or not (amount == PASS or MIN_BID <= amount <= MAX_BID):
            raise IllegalActionError(
                f"no such bid: {amount!r} (0 to pass, or a whole number from {MIN_BID} "
                f"to {MAX_BID})",
                "illegal_bid",
            )


class Trump(SuitChoice):
    """The bidder names trump."""

    __slots__ = ()


class Play(CardPlay):
    """Play a card."""

    __slots__ = ()


Action: TypeAlias = Bid | Trump | Play

#: Shared instances (actions are immutable values): ``BID_ACTIONS[amount]`` (0 and
#: 20..250), ``TRUMP_ACTIONS[suit]``, ``PLAY_ACTIONS[card]``.
BID_ACTIONS: Final = {a: Bid(a) for a in (PASS, *range(MIN_BID, MAX_BID + 1))}
TRUMP_ACTIONS: Final = {s: Trump(s) for s in SUIT_ORDER}
TRUMP_CHOICES: Final = tuple(TRUMP_ACTIONS.values())
PLAY_ACTIONS: Final = tuple(Play(c) for c in ALL_CARDS)
_RAISES: Final = tuple(BID_ACTIONS[a] for a in range(MIN_BID, MAX_BID + 1))


def legal_bids(high: int) -> tuple[Bid, ...]:
    """The bids open when ``high`` is the high bid (0: none yet): pass, or any amount
    from ``max(20, high + 1)`` to ``MAX_BID``, lowest first."""
    return (BID_ACTIONS[PASS], *_RAISES[max(high + 1 - MIN_BID, 0) :])


# ------------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class BiddingWon:
    """Bidding is over (after ``StuckDealer`` if all passed): ``seat`` names trump."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class TrumpNamed:
    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class Melded:
    """A seat's meld, shown to all: its counting cards (sorted; () if none) and amount."""

    seat: int
    cards: tuple[Card, ...]
    amount: int


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    seat: int
    card: Card  # the winning card
    trick: int  # 1-based within the hand
    points: int  # counters in the trick, plus the bonus on the last trick
    plays: tuple[tuple[int, Card], ...]  # (seat, card) in playing order


@dataclass(frozen=True, slots=True)
class HandScored:
    hand: int  # 1-based
    meld: tuple[int, int]  # by team
    counters: tuple[int, int]  # by team, the last trick's bonus included (25 in all)
    points: tuple[int, int]  # scored this hand: meld + counters, or -bid for a set bidder
    totals: tuple[int, int]
    bidder: int  # the seat
    bid: int
    made: bool  # whether the bidding team reached its bid


Event: TypeAlias = (
    Dealt
    | BidMade
    | StuckDealer
    | BiddingWon
    | TrumpNamed
    | Melded
    | Played
    | TrickWon
    | HandScored
    | GameWon
)


#: A deal in ``Game.history`` (the kit's): the hand (1-based), its dealer and deck order.
DealRecord: Final = HandDeal


# -------------------------------------------------------------------------------- views


#: A meld as ``meld`` gives it: (amount, counting cards sorted for display).
MeldShown: TypeAlias = tuple[int, tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class View(TrickSeat, Bids):
    """What one seat may know: its own hand and everything shown to the table.

    Seats are absolute; scores, trick counts and counters are by team. A view is a
    snapshot: later moves do not change it. Every card in it is the viewer's own, a
    card some seat showed in its meld, or a card played this hand.
    """

    seat: int
    phase: Phase
    hand_index: int  # 0-based
    hand: tuple[Card, ...]  # sorted
    dealer: int
    to_act: int | None
    bids: tuple[tuple[int, int], ...]  # (seat, amount) this hand in order; 0 = pass
    bidder: int | None  # once bidding is over
    bid: int | None  # the bidder's bid (20 for a stuck dealer)
    trump: Suit | None
    melds: tuple[MeldShown, ...]  # by seat once trump is named (else ())
    current_trick: Plays  # (seat, card) in playing order
    tricks: tuple[Plays, ...]  # this hand's completed tricks
    trick_winners: tuple[int, ...]  # the seat that won each completed trick
    tricks_won: tuple[int, int]  # by team, this hand
    counters: tuple[int, int]  # by team, this hand so far (the last trick's bonus included)
    played: tuple[Card, ...]  # every card played this hand, in order
    scores: tuple[int, int]  # by team, the game so far
    target: int
    legal: tuple[Action, ...]  # what the viewer may do now

    @property
    def team(self) -> int:
        return team_of(self.seat)


# ------------------------------------------------------------------------------- decks


#: The 48 cards (each of 24 twice); hands in ``sort_hand`` order.
DECK: Final = Deck(
    "pinochle",
    PINOCHLE_DECK,
    "a Pinochle deck is A T K Q J 9 of each suit twice, 48 cards",
    sort_hand,
)
seeded_deck: Final = DECK.seeded
check_deck: Final = DECK.check


def deal_hands(deck: Sequence[Card], dealer: int) -> tuple[tuple[Card, ...], ...]:
    """Each seat's hand, sorted: ``deck[i]`` goes to seat ``(dealer + 1 + i) % 4``."""
    return DECK.deal(deck, dealer, NUM_PLAYERS, HAND_SIZE)[0]


# -------------------------------------------------------------------------------- meld

_RUN_RANKS: Final = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
#: Rank "around" (one of each suit): (single, double) values.
_AROUNDS: Final = (
    (Rank.ACE, 10, 100),
    (Rank.KING, 8, 80),
    (Rank.QUEEN, 6, 60),
    (Rank.JACK, 4, 40),
)
_QS: Final = card(Rank.QUEEN, Suit.SPADES)
_JD: Final = card(Rank.JACK, Suit.DIAMONDS)
RUN_VALUES: Final = (0, 15, 150)
PINOCHLE_VALUES: Final = (0, 4, 30)
ROYAL_MARRIAGE: Final = 4
MARRIAGE: Final = 2
DIX: Final = 1
#: The cards of each meld by suit (a run of trump, a K-Q pair, the dix of trump), and
#: of each rank around with its values.
_RUN_CARDS: Final = {s: tuple(card(r, s) for r in _RUN_RANKS) for s in SUIT_ORDER}
_PAIR_CARDS: Final = {s: (card(Rank.KING, s), card(Rank.QUEEN, s)) for s in SUIT_ORDER}
_DIX_CARDS: Final = {s: card(Rank.NINE, s) for s in SUIT_ORDER}
_AROUND_CARDS: Final = tuple(
    (tuple(card(rank, s) for s in SUIT_ORDER), single, double) for rank, single, double in _AROUNDS
)


def meld(hand: Iterable[Card], trump: Suit) -> MeldShown:
    """The meld of a hand with ``trump``: (amount, its counting cards sorted for display).

    RULES.md item 4. A card may count in melds of different classes (JD in jacks around
    and in a pinochle; AC in a club run and in aces around) and is listed once for them;
    within the class of trump K-Q melds, a run takes one K and one Q of trump and only
    the K-Q pairs beyond the runs count as royal marriages. So A T K K Q Q J of trump is
    a run and a royal marriage (19), a double run has no royal marriage (150), and a run
    with a second K but no second Q has none (15).
    """
    counts = [0] * len(ALL_CARDS)  # by card index
    for c in hand:
        counts[c] += 1
    held = counts.__getitem__
    used: dict[Card, int] = {}

    def count(cards: Sequence[Card], times: int) -> None:
        for c in cards:
            if used.get(c, 0) < times:
                used[c] = times

    amount = 0
    run = _RUN_CARDS[trump]
    runs = min(map(held, run))
    amount += RUN_VALUES[runs]
    count(run, runs)
    for suit in SUIT_ORDER:
        pair = _PAIR_CARDS[suit]
        pairs = min(map(held, pair))
        if suit is trump:
            amount += ROYAL_MARRIAGE * (pairs - runs)  # a run holds a K-Q: pairs >= runs
        else:
            amount += MARRIAGE * pairs
        count(pair, pairs)
    dix = _DIX_CARDS[trump]
    amount += DIX * counts[dix]
    count((dix,), counts[dix])
    pinochles = min(counts[_QS], counts[_JD])
    amount += PINOCHLE_VALUES[pinochles]
    count([_QS, _JD], pinochles)
    for around, single, double in _AROUND_CARDS:
        times = min(map(held, around))
        amount += (0, single, double)[times]
        count(around, times)
    return amount, sort_hand(c for c, times in used.items() for _ in range(times))


# ------------------------------------------------------------------------------- tricks


def beats(challenger: Card, best: Card, trump: Suit) -> bool:
    """Whether ``challenger``, played later, takes a trick that ``best`` is winning.

    A higher card of the same suit, or a trump over a non-trump; an identical card does
    not beat (the one played first ranks higher).
    """
    suit = SUIT_OF[challenger]
    if suit is SUIT_OF[best]:
        return STRENGTH[challenger] > STRENGTH[best]
    return suit is trump


def trick_winner(plays: Sequence[tuple[int, Card]], trump: Suit) -> tuple[int, Card]:
    """The (seat, card) that wins: the highest trump, else the highest of the led suit,
    the first played of two identical cards."""
    return winning_play(plays, trump, beats)


def trick_points(plays: Iterable[tuple[int, Card]], last: bool) -> int:
    """The counters in a trick (A, T, K one each), plus one if it is the last trick."""
    return sum(COUNTER_POINTS[c] for _, c in plays) + (LAST_TRICK_BONUS if last else 0)


def _winning_card(trick: Sequence[tuple[int, Card]], trump: Suit) -> Card:
    """``trick_winner(trick, trump)[1]``, ``beats`` written out (it is asked twice a move)."""
    best = trick[0][1]
    best_suit = SUIT_OF[best]
    for _, played in trick:  # the first against itself does not beat
        suit = SUIT_OF[played]
        if STRENGTH[played] > STRENGTH[best] if suit is best_suit else suit is trump:
            best, best_suit = played, suit
    return best


def _playable(hand: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: Suit) -> list[Card]:
    """RULES.md item 5: the cards of ``hand`` (in its order, repeats kept) it may play."""
    if not trick:
        return list(hand)
    led = SUIT_OF[trick[0][1]]
    best = _winning_card(trick, trump)
    follow = [c for c in hand if SUIT_OF[c] is led]
    if not follow:
        follow = [c for c in hand if SUIT_OF[c] is trump]
        if not follow:
            return list(hand)
    if SUIT_OF[follow[0]] is SUIT_OF[best]:  # the card to beat is of the suit we must play
        top = STRENGTH[best]
        higher = [c for c in follow if STRENGTH[c] > top]
        if higher:
            return higher
    return follow


def legal_plays(
    hand: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: Suit
) -> tuple[Play, ...]:
    """The plays open to ``hand`` with ``trick`` on the table, in the hand's order, each
    card once (the engine keeps hands sorted, so this is display order)."""
    return tuple(map(PLAY_ACTIONS.__getitem__, dict.fromkeys(_playable(hand, trick, trump))))


def check_play(
    hand: Sequence[Card],
    trick: Sequence[tuple[int, Card]],
    trump: Suit,
    played: Card,
    holder: str = "the hand",
) -> None:
    """Raise the ``IllegalActionError`` that says why ``played`` may not be played now
    (``not_in_hand``, ``must_follow_suit``, ``must_beat``, ``must_trump``); else nothing.
    ``holder`` names the hand in the message ("seat 2")."""
    if played not in hand:
        raise IllegalActionError(f"{holder} does not hold {played}", "not_in_hand")
    if not trick or played in _playable(hand, trick, trump):
        return
    lead = trick[0][1]
    led = lead.suit
    assert led is not None
    best = trick_winner(trick, trump)[1]
    if any(c.suit is led for c in hand):
        if played.suit is not led:
            raise IllegalActionError(
                f"{lead} was led and {holder} holds {_PLURAL[led]}: it must follow suit, "
                f"not play {played}",
                "must_follow_suit",
            )
    elif played.suit is not trump:
        raise IllegalActionError(
            f"{lead} was led; {holder} holds no {_PLURAL[led]} but holds trumps "
            f"({_PLURAL[trump]}): it must trump, not play {played}",
            "must_trump",
        )
    raise IllegalActionError(
        f"{best} is winning the trick and {holder} holds a higher {_PLURAL[best.suit][:-1]}"
        f": it must beat it, not play {played}",
        "must_beat",
    )


_PLURAL: Final[dict[Suit | None, str]] = {s: s.name.lower() for s in Suit}


# ------------------------------------------------------------------------------ scoring


def hand_points(
    meld: tuple[int, int], counters: tuple[int, int], bidder: int, bid: int
) -> tuple[tuple[int, int], bool]:
    """Points by team for a hand, and whether the bidding team made its bid.

    A team scores its meld plus its counters; the team of seat ``bidder``, if that is
    below ``bid``, scores minus the bid instead (RULES.md item 7).
    """
    raw = [meld[0] + counters[0], meld[1] + counters[1]]
    team = team_of(bidder)
    made = raw[team] >= bid
    if not made:
        raw[team] = -bid
    return (raw[0], raw[1]), made


def game_winner(totals: tuple[int, int], target: int, bidding_team: int) -> int | None:
    """The winning team once a hand has been scored, or None if the game goes on: over
    when a team has ``target`` or more or is below ``LOSING_SCORE``; the higher score
    wins, and on a tie the team that bid this hand."""
    if max(totals) < target and min(totals) >= LOSING_SCORE:
        return None
    if totals[0] == totals[1]:
        return bidding_team
    return 0 if totals[0] > totals[1] else 1


# -------------------------------------------------------------------------------- game


class Game(TrickGame[Card, Action, Event], Bids):
    """One game of single-deck Pinochle for four players; see the module docstring."""

    game_name: Final = "pinochle"
    TITLE = "Pinochle"

    # The state of the current hand (``_new_hand`` resets it, the kit's ``TrickGame``
    # its deck, hands and tricks).
    phase: Phase
    bids: list[tuple[int, int]]  # (seat, amount) in order
    bidder: int | None
    bid: int | None
    trump: Suit | None
    melds: list[MeldShown]  # by seat once trump is named
    played: list[Card]  # every card played this hand, in order
    tricks_won: tuple[int, int]  # by team, this hand
    counters: tuple[int, int]  # by team, this hand (the last trick's bonus included)

    GAME_WON = GameWon
    scores: tuple[int, int]  # by team

    def __init__(self, players: Sequence[str], target: int = DEFAULT_TARGET) -> None:
        self._begin(players, (NUM_PLAYERS,), sides=2)  # scores and the winner by team
        if type(target) is not int or target < 1:
            raise IllegalActionError(
                f"the target must be a whole number from 1, got {target!r}", "bad_target"
            )
        self.target = target
        self._new_hand(0)

    # ---------------------------------------------------------------------- queries

    def view_for(self, seat: int) -> View:
        """What ``seat`` may know now (see ``View``)."""
        return self._view_of(
            seat,
            View,
            bids=tuple(self.bids),
            bidder=self.bidder,
            bid=self.bid,
            trump=self.trump,
            melds=tuple(self.melds),
            tricks_won=self.tricks_won,
            counters=self.counters,
            played=tuple(self.played),
            target=self.target,
        )

    # ---------------------------------------------------------------------- actions

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        """Deal this hand from an explicit order of the 48 cards (``Phase.DEAL`` only)."""
        self._check_turn(None, Phase.DEAL)
        cards = check_deck(deck)
        hands = deal_hands(cards, self.dealer)
        self._dealt(cards, hands, Phase.BIDDING)
        return [Dealt(self.round, self.dealer, hands)]

    # -------------------------------------------------------------------- internals

    def _bids(self, seat: int) -> tuple[Bid, ...]:
        """As ``legal_bids`` orders them: pass first."""
        return legal_bids(self.high_bid)

    def _plays(self, seat: int) -> tuple[Play, ...]:
        """In hand order, each card once."""
        assert self.trump is not None
        return legal_plays(self.hands[seat], self.trick, self.trump)

    def _check_bid(self, seat: int, action: Bid) -> None:
        high = self.high_bid
        if action.amount != PASS and action.amount <= high:
            raise IllegalActionError(
                f"a bid must top the high bid of {high}; {action.amount} does not",
                "illegal_bid",
            )

    def _check_play(self, seat: int, action: Play) -> None:
        assert self.trump is not None
        check_play(self.hands[seat], self.trick, self.trump, action.card, f"seat {seat}")

    def _bid(self, seat: int, action: Bid, events: list[Event]) -> None:
        amount = action.amount
        self.bids.append((seat, amount))
        events.append(BidMade(seat, amount))
        if len(self.bids) < NUM_PLAYERS:
            self.to_act = (seat + 1) % NUM_PLAYERS
            return
        high = self.high_bid
        if high == PASS:
            bidder, high = self.dealer, STUCK_BID
            events.append(StuckDealer(bidder, high))
        else:
            bidder = next(s for s, a in self.bids if a == high)
        self.bidder, self.bid = bidder, high
        events.append(BiddingWon(bidder, high))
        self.phase, self.to_act = Phase.TRUMP, bidder

    def _name_trump(self, seat: int, action: Trump, events: list[Event]) -> None:
        suit = action.suit
        self.trump = suit
        events.append(TrumpNamed(seat, suit))
        self.melds = [meld(h, suit) for h in self.hands]
        for s, (amount, cards) in enumerate(self.melds):
            events.append(Melded(s, cards, amount))
        self.phase, self.to_act = Phase.TRICKS, seat

    def _play(self, seat: int, action: Play, events: list[Event]) -> None:
        played = action.card
        assert self.trump is not None
        complete = self._lay(seat, played)
        self.played.append(played)
        events.append(Played(seat, played))
        if not complete:
            return
        winner, best = trick_winner(self.trick, self.trump)
        plays = self._gather(winner)
        last = len(self.tricks) == TRICKS_PER_HAND
        points = trick_points(plays, last)
        team = team_of(winner)
        won, taken = list(self.tricks_won), list(self.counters)
        won[team] += 1
        taken[team] += points
        self.tricks_won, self.counters = (won[0], won[1]), (taken[0], taken[1])
        events.append(TrickWon(winner, best, len(self.tricks), points, plays))
        if last:
            self._score_hand(events)
        else:
            self.to_act = winner

    def _score_hand(self, events: list[Event]) -> None:
        assert self.bidder is not None
        assert self.bid is not None
        melds = [amount for amount, _ in self.melds]
        team_meld = (melds[0] + melds[2], melds[1] + melds[3])
        points, made = hand_points(team_meld, self.counters, self.bidder, self.bid)
        totals = (self.scores[0] + points[0], self.scores[1] + points[1])
        events.append(
            HandScored(
                self.round, team_meld, self.counters, points, totals, self.bidder, self.bid, made
            )
        )
        self._hand_scored(totals, game_winner(totals, self.target, team_of(self.bidder)), events)

    def _new_hand(self, dealer: int) -> None:
        super()._new_hand(dealer)
        self.bids = []
        self.bidder = None
        self.bid = None
        self.trump = None
        self.melds = []
        self.played = []
        self.tricks_won = (0, 0)
        self.counters = (0, 0)

    #: Who may do what (the kit's ``HandGame`` checks the phase and the turn first).
    RULES: ClassVar[dict[type, Rule]] = {
        Bid: Rule(Phase.BIDDING, _bids, _check_bid, _bid),
        Trump: Rule(Phase.TRUMP, lambda game, seat: TRUMP_CHOICES, None, _name_trump),
        Play: Rule(Phase.TRICKS, _plays, _check_play, _play),
    }
