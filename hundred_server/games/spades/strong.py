"""The Spades AIs: the naive bot and the strong one, which bids as the naive bot does
and plays by the kit's PIMC search.

The naive bot bids its sure-looking tricks (aces, guarded kings, top spades, spades
past three), nil with no card above a ten and at most two spades. It plays by
``pick``: a nil bidder ducks (the highest card that loses, else the lowest); anyone
else leaves a trick its partner is winning, takes one it can with its lowest winning
card, and otherwise throws its cheapest card (a non-spade, low). It leads an ace of a
side suit, else its lowest side card, and spades only when it must.

The strong bot, at a play, deals the unseen cards to the other seats many times
(``sampler``, the kit's ``search.Sampler``: each seat as many as it has still to play,
none of a suit it has shown void in, nothing but spades if it led one before spades
were broken), plays every legal card out on each deal with ``pick`` for every seat,
then takes the card whose hand ends with the best score for its side over the other's.
Cards are numbers here (``int(card)``: ``card // 13`` the suit, ``card % 13`` the rank,
12 the ace).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import ClassVar, Final

from mypy_extensions import mypyc_attr

from hundred_server.games.kit import search
from hundred_server.games.kit.bots import no_action
from hundred_server.games.kit.cards import Card, Rank, Suit
from hundred_server.games.spades import rules

SPADE: Final = 2  # card // 13: hearts, diamonds, spades, clubs


def bid_for(hand: Sequence[Card]) -> int:
    """Tricks a hand should take (see the module docstring); 0 is nil."""
    tricks = 0
    spades = [c for c in hand if c.suit is rules.TRUMP]
    for suit in Suit:
        held = [c.rank for c in hand if c.suit is suit]
        tricks += Rank.ACE in held
        tricks += Rank.KING in held and len(held) >= 2
        if suit is rules.TRUMP:
            tricks += (Rank.QUEEN in held and len(held) >= 3) + max(0, len(held) - 3)
    if tricks == 0 and len(spades) <= 2 and all(c.rank <= Rank.TEN for c in hand):
        return 0
    return max(1, tricks)


def beats(card: int, best: int) -> bool:
    """Whether ``card`` beats ``best``: higher in its suit, or a spade on another suit."""
    return (card // 13 == best // 13 and card > best) or card // 13 == SPADE != best // 13


def best_of(trick: list[int]) -> int:
    """The play (``seat * 64 + card``) that wins ``trick`` so far."""
    best = trick[0]
    for p in trick[1:]:
        if beats(p % 64, best % 64):
            best = p
    return best


def sampler(view: rules.View) -> search.Sampler:
    """The kit's sampler for ``view``: the voids the tricks show, and those a lead shows
    (a seat that led a spade before spades were broken held nothing but spades)."""
    seen = set(view.hand).union(view.played)
    tricks = (*view.tricks, view.current_trick)
    voids: list[list[int]] = [[], [], [], []]
    broken = False
    for plays in tricks:
        if plays and not broken and int(plays[0][1]) // 13 == SPADE:
            voids[plays[0][0]] = [suit for suit in range(4) if suit != SPADE]
        broken = broken or any(int(c) // 13 == SPADE for _, c in plays)
    return search.Sampler(view.seat, seen, tricks, 13, [[], [], [], []], voids)


def cheap(card: int) -> tuple[bool, int]:
    return card // 13 == SPADE, card % 13


def pick(hand: list[int], trick: list[int], broken: bool, nil: bool, partner_wins: bool) -> int:
    """The policy's card (``trick``: seat * 64 + card, in order)."""
    if not trick:
        pool = [c for c in hand if c // 13 != SPADE or broken] or hand
        aces = [c for c in pool if c % 13 == 12 and c // 13 != SPADE]
        return aces[0] if aces and not nil else min(pool, key=cheap)
    follow = [c for c in hand if c // 13 == trick[0] % 64 // 13] or hand
    best = best_of(trick) % 64
    win = [c for c in follow if beats(c, best)]
    if nil:
        lose = [c for c in follow if c not in win]
        return max(lose, key=lambda c: c % 13) if lose else min(follow, key=lambda c: c % 13)
    return min(follow if partner_wins or not win else win, key=cheap)


class PlayOut(search.Decision[list[list[int]]]):
    """One play's search: ``candidates`` the legal cards, each played out to the end."""

    def __init__(self, view: rules.View, cards: list[int], samples: int) -> None:
        super().__init__(len(cards), samples)
        self.seat, self.cards, self.hand = view.seat, cards, [int(c) for c in view.hand]
        self.bids = [0] * 4
        for seat, amount in view.bids:
            self.bids[seat] = amount
        self.taken = list(view.taken)
        self.trick = [s * 64 + int(c) for s, c in view.current_trick]
        self.broken = view.broken
        self.sampler = sampler(view)

    def deal(self, rng: Random) -> list[list[int]]:
        hands = self.sampler.sample(rng)
        hands[self.seat] = self.hand[:]
        return hands

    def value(self, deal: list[list[int]], i: int) -> float:
        hands = [h[:] for h in deal]
        trick, taken, broken = self.trick[:], self.taken[:], self.broken
        seat, card = self.seat, self.cards[i]
        while True:
            hands[seat].remove(card)
            trick.append(seat * 64 + card)
            broken = broken or card // 13 == SPADE
            if len(trick) == 4:
                seat = best_of(trick) // 64
                taken[seat] += 1
                trick = []
                if not hands[seat]:
                    break
            else:
                seat = (seat + 1) % 4
            partner_wins = len(trick) >= 2 and best_of(trick) // 64 == (seat + 2) % 4
            card = pick(hands[seat], trick, broken, self.bids[seat] == 0, partner_wins)
        us, them = self.seat % 2, 1 - self.seat % 2
        mine = rules.side_points(self.bids[us::2], taken[us::2])[0]
        theirs = rules.side_points(self.bids[them::2], taken[them::2])[0]
        return float(mine - theirs)


class NaiveBot:
    """``act(view)`` for Spades: ``bid_for`` and ``pick`` (see the module docstring)."""

    name: ClassVar[str] = "naive"

    def act(self, view: rules.View) -> rules.Action:
        if not view.legal:
            raise no_action(self.name, view.seat)
        if isinstance(view.legal[0], rules.Bid):
            return rules.BID_ACTIONS[bid_for(view.hand)]
        trick = [s * 64 + int(c) for s, c in view.current_trick]
        partner_wins = len(trick) >= 2 and best_of(trick) // 64 == view.partner
        nil = dict(view.bids).get(view.seat) == 0
        hand = [int(c) for c in view.hand]
        return rules.PLAY_ACTIONS[pick(hand, trick, view.broken, nil, partner_wins)]


@mypyc_attr(allow_interpreted_subclasses=True)
class StrongBot(search.SearchBot):
    """``act(view)`` for Spades: the naive bid, a searched play."""

    # Its tuning, class-wide (a tuning run subclasses the bot to change it): card plays
    # of rollouts per decision, and fewest samples.
    default_work: ClassVar[int] = 6000
    default_min_samples: ClassVar[int] = 6

    def act(self, view: rules.View) -> rules.Action:
        self.last_rollouts = 0
        cards = sorted(int(a.card) for a in view.legal if not isinstance(a, rules.Bid))
        if len(cards) <= 1:
            return NaiveBot().act(view)
        start = search.clock()
        left = 52 - len(view.played)
        decision = PlayOut(view, cards, self.samples_for(self.work, len(cards), left))
        hand, played = search.codes(view.hand), search.codes(view.played)
        rng = self.keyed(view.seat, view.hand_index, view.scores, hand, played)
        return rules.PLAY_ACTIONS[cards[search.best(self.search(decision, rng, start))]]
