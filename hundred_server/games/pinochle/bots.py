"""Pinochle bots: ``act(view) -> action``, choosing only among ``view.legal``.

Both bots are deterministic given the view and read only what the seat may know: its
own hand, the bids, every seat's shown meld (melded cards stay in the hand until
played, so they are known to be there) and the cards played this hand.

``NaiveBot`` is the seed server's AI: "a decent attempt at bidding", then the first
valid move. It values its hand for each trump suit as its meld plus the counters its
high cards should bring (``naive_value``), bids that value if it tops the high bid (else
passes), names the suit of its best value, and plays the first legal card (legal plays
come in hand order: D, C, H, S, and A T K Q J 9 within a suit).

``PinochleBot``, the default, plays a partnership game:

- Bidding: it values each trump suit as its meld, the meld its partner brings on
  average, and the counters its trumps and aces should take (``hand_value``). It bids
  the lowest amount that tops the high bid when that is within its value less a safety
  margin, and does not overbid its partner unless clearly stronger.
- Trump: the suit of its best value (meld, length and high trumps all count).
- Play: it counts cards (what is out; what its partner showed in meld and has not
  played, which no opponent can hold; who has shown a void) so it knows its masters
  (no opponent can hold a higher card of the suit) and whether a trick is safe.
  Leading, the bidder draws trumps with master trumps, then anyone cashes side-suit
  masters nobody can ruff, else leads low, preferring a suit its partner can ruff.
  Following, it gives counters to a partner whose card nobody after can beat, takes a
  trick from the opponents with its cheapest card that surely wins (or, last to play,
  its cheapest card that wins), and otherwise throws its cheapest card: a low
  non-counter off trumps, a high trump never when a low one does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from hundred_server.games.kit.bots import no_action, seats_after
from hundred_server.games.kit.cards import Card, Suit
from hundred_server.games.pinochle.rules import (
    BID_ACTIONS,
    COUNTER_POINTS,
    MAX_BID,
    MIN_BID,
    NUM_PLAYERS,
    PASS,
    PINOCHLE_DECK,
    PLAY_ACTIONS,
    STRENGTH,
    SUIT_ORDER,
    TRUMP_ACTIONS,
    Action,
    Phase,
    Play,
    View,
    meld,
    team_of,
    trick_winner,
)

_ACE: Final = 5  # STRENGTH of an ace
_TEN: Final = 4


def _legal_cards(view: View) -> list[Card]:
    return [a.card for a in view.legal if isinstance(a, Play)]


def _bid_amount(view: View, amount: int) -> Action:
    """``Bid(amount)`` if it is legal now, else a pass."""
    action = BID_ACTIONS.get(amount, BID_ACTIONS[PASS])
    return action if action in view.legal else BID_ACTIONS[PASS]


# ----------------------------------------------------------------------------- naive


def naive_value(hand: Sequence[Card], trump: Suit) -> int:
    """The seed AI's idea of a hand with ``trump``: meld, two per ace and one per ten."""
    aces = sum(1 for c in hand if STRENGTH[c] == _ACE)
    tens = sum(1 for c in hand if STRENGTH[c] == _TEN)
    return meld(hand, trump)[0] + 2 * aces + tens


class NaiveBot:
    """The seed server's AI; see the module docstring."""

    name = "naive"

    def act(self, view: View) -> Action:
        if not view.legal:
            raise no_action(self.name, view.seat)
        if view.phase is Phase.BIDDING:
            best = max(naive_value(view.hand, s) for s in SUIT_ORDER)
            if best > view.high_bid and best >= MIN_BID:
                return _bid_amount(view, min(best, MAX_BID))
            return BID_ACTIONS[PASS]
        if view.phase is Phase.TRUMP:
            values = {s: naive_value(view.hand, s) for s in SUIT_ORDER}
            return TRUMP_ACTIONS[max(SUIT_ORDER, key=lambda s: values[s])]
        return view.legal[0]


# ----------------------------------------------------------------------------- better

#: What a partner's meld adds on average in the bidder's trump (measured in self-play
#: over 2,000 hands: 2.9).
PARTNER_MELD: Final = 3
#: Points knocked off a hand's value before bidding on it (in self-play a team took
#: about its value, give or take 4.5).
SAFETY: Final = 2
#: How much stronger than its partner's bid a hand must be before overbidding it.
OVER_PARTNER: Final = 10


def hand_value(hand: Sequence[Card], trump: Suit) -> float:
    """What a team should take when this hand names ``trump``: the hand's meld, the
    partner's average meld and the counters that trumps and aces bring in."""
    trumps = [c for c in hand if c.suit is trump]
    side_aces = sum(1 for c in hand if STRENGTH[c] == _ACE and c.suit is not trump)
    high_trumps = sum(1 for c in trumps if STRENGTH[c] >= _TEN)
    counters = 4.0 + 1.5 * len(trumps) + 1.0 * high_trumps + 1.5 * side_aces
    return meld(hand, trump)[0] + PARTNER_MELD + min(counters, 25.0)


class _Table:
    """What the viewer can work out from the view: where cards may be, who is void."""

    def __init__(self, view: View) -> None:
        trump = view.trump
        assert trump is not None
        self.trump: Suit = trump
        self.seat = view.seat
        self.team = team_of(view.seat)
        self.partner = (view.seat + 2) % NUM_PLAYERS
        self.opponents = ((view.seat + 1) % NUM_PLAYERS, (view.seat + 3) % NUM_PLAYERS)
        played_by: dict[int, Counter[Card]] = {s: Counter() for s in range(NUM_PLAYERS)}
        self.voids: set[tuple[int, Suit | None]] = set()
        for plays in (*view.tricks, view.current_trick):
            if not plays:
                continue
            led = plays[0][1].suit
            for seat, card in plays:
                played_by[seat][card] += 1
                if card.suit is not led:
                    self.voids.add((seat, led))
                    if card.suit is not trump:
                        self.voids.add((seat, trump))
        #: Cards the other three seats hold between them.
        out = Counter(PINOCHLE_DECK)
        out.subtract(view.hand)
        out.subtract(view.played)
        partner_known = Counter(view.melds[self.partner][1]) if view.melds else Counter()
        partner_known.subtract(played_by[self.partner])
        #: Cards an opponent may hold: out, less what the partner is known to hold.
        self.opponents_out: Counter[Card] = Counter(
            {
                c: n - max(partner_known[c], 0)
                for c, n in out.items()
                if n > max(partner_known[c], 0)
            }
        )

    def may_hold(self, seat: int, suit: Suit | None) -> list[Card]:
        """The cards of ``suit`` opponent ``seat`` may hold (none if known void)."""
        if (seat, suit) in self.voids:
            return []
        return [c for c in self.opponents_out if c.suit is suit]

    def may_ruff(self, seat: int, suit: Suit | None) -> bool:
        """Whether opponent ``seat`` may trump a lead of ``suit``."""
        if suit is self.trump or not self.may_hold(seat, self.trump):
            return False
        return not self.may_hold(seat, suit)

    def is_master(self, card: Card) -> bool:
        """No opponent may hold a higher card of its suit."""
        top = STRENGTH[card]
        return all(STRENGTH[c] <= top for c in self.opponents_out if c.suit is card.suit)

    def safe(self, card: Card, led: Suit | None, seats: Sequence[int]) -> bool:
        """Whether ``card``, winning the trick, stays winning after opponents ``seats``."""
        top = STRENGTH[card]
        for seat in seats:
            if any(STRENGTH[c] > top for c in self.may_hold(seat, card.suit)):
                return False
            if card.suit is not self.trump and self.may_ruff(seat, led):
                return False
        return True


def _cheapest(cards: Sequence[Card], table: _Table) -> Card:
    """The card that costs least to give up: off trump, no counter, no master, low."""

    def cost(card: Card) -> tuple[bool, int, bool, int, int]:
        return (
            card.suit is table.trump,
            COUNTER_POINTS[card],
            table.is_master(card),
            STRENGTH[card],
            card,
        )

    return min(cards, key=cost)


def _smear(cards: Sequence[Card], table: _Table) -> Card:
    """The card to give a partner who takes the trick: counters first, but not a master
    or a trump, which may take a trick of its own later."""

    def worth(card: Card) -> tuple[int, bool, bool, int, int]:
        return (
            COUNTER_POINTS[card],
            not table.is_master(card),
            card.suit is not table.trump,
            STRENGTH[card],
            -card,
        )

    return max(cards, key=worth)


def _lowest(cards: Sequence[Card], table: _Table) -> Card:
    """The lowest card, off trump when possible."""
    return min(cards, key=lambda c: (c.suit is table.trump, STRENGTH[c], COUNTER_POINTS[c], c))


def _lead(view: View, cards: list[Card], table: _Table) -> Card:
    trump = table.trump
    trumps = [c for c in cards if c.suit is trump]
    opponents_trump = any(table.may_hold(s, trump) for s in table.opponents)
    ours = view.bidder is not None and team_of(view.bidder) == table.team
    if trumps and opponents_trump and ours:
        # Draw trumps: the bidder, or its partner when long in them, leads a master trump.
        masters = [c for c in trumps if table.is_master(c)]
        if masters and (view.bidder == table.seat or len(trumps) >= 3):
            return min(masters, key=lambda c: (STRENGTH[c], c))
    side = [c for c in cards if c.suit is not trump]
    cashable = [
        c
        for c in side
        if table.is_master(c) and not any(table.may_ruff(s, c.suit) for s in table.opponents)
    ]
    if cashable:
        return max(cashable, key=lambda c: (STRENGTH[c], -c))
    if not side:
        return min(trumps, key=lambda c: (-table.is_master(c), STRENGTH[c], c))
    # Lead low into a suit the partner can ruff, else low from the longest side suit.
    partner_ruffs = [
        c
        for c in side
        if (table.partner, c.suit) in table.voids and (table.partner, trump) not in table.voids
    ]
    if partner_ruffs:
        return _cheapest(partner_ruffs, table)
    length = Counter(c.suit for c in side)
    longest = max(length.values())
    return _cheapest([c for c in side if length[c.suit] == longest], table)


def _follow(view: View, cards: list[Card], table: _Table) -> Card:
    trick = view.current_trick
    led = trick[0][1].suit
    winner, best = trick_winner(trick, table.trump)
    later = seats_after(view.seat, NUM_PLAYERS, len(trick))
    later_opponents = [s for s in later if team_of(s) != table.team]
    if team_of(winner) == table.team:
        if table.safe(best, led, later_opponents):
            beaten_by_us = [c for c in cards if _beats(c, best, table.trump)]
            if len(beaten_by_us) == len(cards):  # must beat partner: cheaply
                return _lowest(cards, table)
            return _smear([c for c in cards if c not in beaten_by_us] or cards, table)
        winners = [c for c in cards if _beats(c, best, table.trump)]
        sure = [c for c in winners if table.safe(c, led, later_opponents)]
        if sure:
            return _lowest(sure, table)
        return _cheapest(cards, table)
    winners = [c for c in cards if _beats(c, best, table.trump)]
    if not winners:
        return _cheapest(cards, table)
    if not later_opponents:
        return _lowest(winners, table)
    sure = [c for c in winners if table.safe(c, led, later_opponents)]
    if sure:
        return _lowest(sure, table)
    return _cheapest(cards, table)


def _beats(card: Card, best: Card, trump: Suit) -> bool:
    if card.suit is best.suit:
        return STRENGTH[card] > STRENGTH[best]
    return card.suit is trump


class PinochleBot:
    """The default Pinochle AI; see the module docstring."""

    name = "pinochle"

    def act(self, view: View) -> Action:
        if not view.legal:
            raise no_action(self.name, view.seat)
        if view.phase is Phase.BIDDING:
            return self._bid(view)
        if view.phase is Phase.TRUMP:
            values = {s: hand_value(view.hand, s) for s in SUIT_ORDER}
            return TRUMP_ACTIONS[max(SUIT_ORDER, key=lambda s: values[s])]
        cards = _legal_cards(view)
        if len(cards) == 1:
            return PLAY_ACTIONS[cards[0]]
        table = _Table(view)
        if not view.current_trick:
            return PLAY_ACTIONS[_lead(view, cards, table)]
        return PLAY_ACTIONS[_follow(view, cards, table)]

    def _bid(self, view: View) -> Action:
        value = max(hand_value(view.hand, s) for s in SUIT_ORDER)
        limit = int(value - SAFETY)
        high = view.high_bid
        lowest = max(MIN_BID, high + 1)
        if limit < lowest:
            return BID_ACTIONS[PASS]
        partner_high = any(s == view.partner and a == high and a for s, a in view.bids)
        if partner_high and limit < high + OVER_PARTNER:
            return BID_ACTIONS[PASS]
        return _bid_amount(view, lowest)
