"""Rook bots: ``act(view) -> action``, choosing only among what the view allows.

A view holds no card of a finished trick (nobody sees those again), so the bot counts
no cards: it reads its hand, the bids, the setup (trump, the called cards not played
yet, the partners revealed) and the trick under way.

``RookBot``, the default:

- Bidding: it values its hand for its best trump colour (``hand_value``: its trumps,
  the 1s and 14s that should take tricks, and its points) and bids the lowest amount
  that tops the high bid while that stays within the value; it never shoots the moon.
- Setup: trump is its best colour counting the kitty; it discards the cards it can
  spare (no trump and no point card if it can help it, short colours first, to void
  them) and calls the highest trump it does not hold, then the 1s it does not hold.
- Play: it knows its side when it can (the bidder and the revealed partners; a seat
  holding a called card is the bidder's partner). Leading, the bidder draws trumps
  with its highest; anyone cashes a 1, else leads low. Following, it takes a trick
  with points in it cheaply, gives points to a side that is winning the trick with a
  card that should hold, and throws its cheapest card (no points) on a trick its side
  is losing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hundred_server.games.kit.bots import no_action
from hundred_server.games.rook.cards import COLOURS, ROOK_DECK, Colour, RookCard
from hundred_server.games.rook.rules import (
    BID_ACTIONS,
    HAND_SIZES,
    MAX_BID,
    PASS,
    PLAY_ACTIONS,
    POINTS,
    STRENGTH,
    Action,
    Bid,
    Phase,
    Play,
    Setup,
    View,
    beats,
    suit_of,
    trick_winner,
)

#: STRENGTH of a 1 and of a 14.
_ONE: Final = 15
_FOURTEEN: Final = 14


def _trumps(hand: Sequence[RookCard], colour: Colour) -> list[RookCard]:
    return [c for c in hand if suit_of(c, colour) is colour]


def hand_value(hand: Sequence[RookCard], colour: Colour, players: int) -> float:
    """What a bidder holding ``hand`` should take with ``colour`` trump: a share of the
    hand's 200 points by the tricks its trumps and top cards should win, and the kitty
    and its partners' help."""
    tricks = HAND_SIZES[players]
    trumps = _trumps(hand, colour)
    # Trumps beyond an even share take tricks; the top ones take them surely.
    share = len(hand) / 4
    top_trumps = sum(1 for c in trumps if STRENGTH[c] >= 12)
    side_ones = sum(1 for c in hand if STRENGTH[c] == _ONE and c.colour is not colour)
    winners = 0.9 * top_trumps + 0.6 * max(len(trumps) - share, 0) + 0.7 * side_ones
    fraction = min(winners / tricks, 1.0)
    helped = 0.25 if players >= 4 else 0.1  # the kitty, and a called partner
    return 200 * min(fraction + helped, 1.0) + 0.3 * sum(POINTS[c] for c in hand)


def best_colour(hand: Sequence[RookCard], players: int) -> Colour:
    return max(COLOURS, key=lambda c: (hand_value(hand, c, players), -COLOURS.index(c)))


def choose_setup(hand: Sequence[RookCard], count: int, calls: int, players: int) -> Setup:
    """The bot's setup for a bidder holding ``hand`` (the kitty in it)."""
    trump = best_colour(hand, players)
    length = {c: sum(1 for x in hand if x.colour is c) for c in COLOURS}

    def keep_worth(card: RookCard) -> tuple[int, ...]:
        # Low worth goes first: off trump, no points, short colours, low cards.
        is_trump = suit_of(card, trump) is trump
        colour = card.colour
        return (
            int(is_trump),
            int(STRENGTH[card] == _ONE),
            POINTS[card],
            length[colour] if colour is not None else 99,
            STRENGTH[card],
        )

    discard = tuple(sorted(hand, key=keep_worth)[:count])
    kept = set(hand) - set(discard)
    wanted = [c for c in _by_strength(trump) if c not in kept and c not in discard]
    ones = [
        c
        for c in ROOK_DECK
        if STRENGTH[c] == _ONE and c.colour is not trump and c not in kept and c not in discard
    ]
    partners: list[RookCard] = []
    for card in [*wanted[:1], *ones, *wanted[1:]]:
        if len(partners) == calls:
            break
        if card not in partners:
            partners.append(card)
    return Setup(discard, trump, tuple(partners))


def _by_strength(colour: Colour) -> list[RookCard]:
    return sorted((c for c in ROOK_DECK if c.colour is colour), key=lambda c: -STRENGTH[c])


class _Sides:
    """Who the viewer knows to be with it (``friends``) and against it (``foes``)."""

    def __init__(self, view: View) -> None:
        bidder = view.bidder
        assert bidder is not None
        side = {bidder, *view.partners}
        mine = set(view.called) & set(view.hand)
        open_calls = [c for c in view.called if c not in view.hand]
        if view.seat == bidder:
            open_calls = [c for c in open_calls if c not in view.discarded]
        others = set(range(view.num_players)) - {view.seat}
        if view.seat in side or mine:
            self.friends = (side | {bidder}) - {view.seat}
            self.foes = set() if open_calls else others - self.friends
        else:
            self.foes = side
            self.friends = set() if open_calls else others - side


def _cheapest(cards: Sequence[RookCard], trump: Colour) -> RookCard:
    """The card that costs least to give up: no points, off trump, low."""
    return min(
        cards,
        key=lambda c: (POINTS[c], suit_of(c, trump) is trump, STRENGTH[c] == _ONE, STRENGTH[c], c),
    )


def _richest(cards: Sequence[RookCard], trump: Colour) -> RookCard:
    """The card to give a friend's trick: the most points, sparing trumps and 1s."""
    return max(
        cards,
        key=lambda c: (
            POINTS[c] - (15 if STRENGTH[c] == _ONE or c.is_bird else 0),
            -STRENGTH[c],
            -c,
        ),
    )


def _lead(view: View, cards: list[RookCard], trump: Colour) -> RookCard:
    trumps = [c for c in cards if suit_of(c, trump) is trump]
    if view.seat == view.bidder and trumps and len(trumps) * 2 >= len(view.hand) // 2:
        return max(trumps, key=lambda c: STRENGTH[c])
    ones = [c for c in cards if STRENGTH[c] == _ONE and suit_of(c, trump) is not trump]
    if ones:
        return ones[0]
    side = [c for c in cards if suit_of(c, trump) is not trump] or cards
    return _cheapest(side, trump)


def _follow(view: View, cards: list[RookCard], trump: Colour, sides: _Sides) -> RookCard:
    trick = view.current_trick
    winner, best = trick_winner(trick, trump)
    last = len(trick) == view.num_players - 1
    in_trick = sum(POINTS[c] for _, c in trick)
    winning = [c for c in cards if beats(c, best, trump)]
    if winner in sides.friends:
        strong = (
            last
            or STRENGTH[best] >= _FOURTEEN
            or (suit_of(best, trump) is trump and suit_of(trick[0][1], trump) is not trump)
        )
        if strong:
            spare = [c for c in cards if c not in winning] or cards
            return _richest(spare, trump)
        return _cheapest(cards, trump)
    if winning:
        if last:
            return max(winning, key=lambda c: (POINTS[c], -STRENGTH[c]))
        sure = [c for c in winning if STRENGTH[c] == _ONE or suit_of(c, trump) is trump]
        if in_trick and sure:
            return min(sure, key=lambda c: (suit_of(c, trump) is trump, STRENGTH[c]))
        if in_trick >= 10:
            return min(winning, key=lambda c: STRENGTH[c])
    return _cheapest(cards, trump)


class RookBot:
    """The default Rook AI; see the module docstring."""

    name = "rook"

    def act(self, view: View) -> Action:
        if not view.legal:
            raise no_action("Rook", view.seat)
        if view.phase is Phase.BIDDING:
            return self._bid(view)
        if view.phase is Phase.SETUP:
            return choose_setup(view.hand, view.kitty_size, view.calls, view.num_players)
        cards = [a.card for a in view.legal if isinstance(a, Play)]
        if len(cards) == 1:
            return PLAY_ACTIONS[cards[0]]
        trump = view.trump
        assert trump is not None
        if not view.current_trick:
            return PLAY_ACTIONS[_lead(view, cards, trump)]
        return PLAY_ACTIONS[_follow(view, cards, trump, _Sides(view))]

    def _bid(self, view: View) -> Action:
        colour = best_colour(view.hand, view.num_players)
        limit = hand_value(view.hand, colour, view.num_players)
        raises = [a for a in view.legal if isinstance(a, Bid) and PASS < a.amount <= MAX_BID]
        if raises and raises[0].amount <= limit:
            return raises[0]
        return BID_ACTIONS[PASS]
