"""An example Whist plug-in bot, written to the classic Whist-bot assignment (docs/plugins.md).

    hundred-server check-bot whist=whist_bot:Player     # from clients/, or with it on PYTHONPATH
    hundred-server serve --bot whist=whist_bot:Player

``Player().PlayCard(hand, trick, trump, position, tricks, score)`` gets its hand (a tuple
of cards), the cards played to this trick so far, the trump letter, its compass letter
(N E S W), this hand's finished tricks as (four cards, leader, winner) and the score
(NS, EW), and returns one of the cards in its hand, following suit when it can. The
cards are the server's own (``hundred_server.games.kit.cards.Card``): ``card.suit.value`` is the
suit letter and ``card.rank`` compares as a number, ace high.

The strategy, in order:

- Following, when its partner is already winning the trick: it plays low (it does not
  overtake its partner, and keeps its trumps).
- Following, when it can beat what is winning: it plays the lowest card that does
  (trumping in only when it has none of the suit led).
- Following, when it cannot win the trick: it plays its lowest card, of the suit led if
  it must, else the lowest of its shortest side suit (to be void sooner), keeping trumps.
- Leading: the highest card of a side suit whose higher cards have all been played
  (a sure winner); else, holding four trumps or more, its top trump (drawing trumps);
  else the lowest card of its longest side suit.
"""

from __future__ import annotations

from typing import Any

POSITIONS = "NESW"
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


def suit(card: Any) -> str:
    return str(card.suit.value)


def rank(card: Any) -> int:
    return int(card.rank)


class Player:
    """Plays by the strategy in the module docstring."""

    def __init__(self) -> None:
        self.played: set[Any] = set()

    def PlayCard(self, hand, trick, trump, position, tricks, score):
        self.played = {card for cards, _leader, _winner in tricks for card in cards} | set(trick)
        if not trick:
            return self.lead(hand, trump)
        led = suit(trick[0])
        following = [c for c in hand if suit(c) == led]
        winning, by = self.winning(trick, trump, position)
        if by == PARTNER[position]:
            return min(following or self.discards(hand, trump), key=rank)
        if following:
            beaters = [c for c in following if self.beats(c, winning, trump)]
            return min(beaters or following, key=rank)
        trumps = [c for c in hand if suit(c) == trump]
        beaters = [c for c in trumps if self.beats(c, winning, trump)]
        if beaters:
            return min(beaters, key=rank)
        return min(self.discards(hand, trump), key=rank)

    def lead(self, hand, trump):
        for card in sorted(hand, key=rank, reverse=True):
            if suit(card) != trump and self.is_top(card):
                return card
        trumps = [c for c in hand if suit(c) == trump]
        if len(trumps) >= 4:
            return max(trumps, key=rank)
        side = [c for c in hand if suit(c) != trump] or list(hand)
        longest = max({suit(c) for c in side}, key=lambda s: sum(suit(c) == s for c in side))
        return min((c for c in side if suit(c) == longest), key=rank)

    def is_top(self, card) -> bool:
        """Whether every higher card of its suit has been played."""
        higher = range(rank(card) + 1, 15)
        gone = {rank(c) for c in self.played if suit(c) == suit(card)}
        return all(r in gone for r in higher)

    def discards(self, hand, trump):
        """Cards to throw away: the shortest side suit, or anything if only trumps."""
        side = [c for c in hand if suit(c) != trump]
        if not side:
            return list(hand)
        shortest = min({suit(c) for c in side}, key=lambda s: sum(suit(c) == s for c in side))
        return [c for c in side if suit(c) == shortest]

    def winning(self, trick, trump, position):
        """The card winning the trick so far, and the compass letter of who played it."""
        seat = POSITIONS.index(position)
        first = POSITIONS[(seat - len(trick)) % 4]
        best, by = trick[0], first
        for offset, card in enumerate(trick[1:], 1):
            if self.beats(card, best, trump):
                best, by = card, POSITIONS[(POSITIONS.index(first) + offset) % 4]
        return best, by

    @staticmethod
    def beats(card, best, trump) -> bool:
        if suit(card) == suit(best):
            return rank(card) > rank(best)
        return suit(card) == trump
