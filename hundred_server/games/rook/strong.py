"""A strong Rook AI: Perfect Information Monte Carlo (PIMC) over sampled deals.

``StrongBot.act(view)`` reads the seat's ``View`` and nothing else, and decides every
action of a hand the same way: it samples deals of the cards it has not seen, each
consistent with the view, plays each candidate out on every sample with a fast rollout
policy that sees the sampled hands, and takes the candidate with the best mean value.

The value of a played-out hand to the viewer is its own score change less the mean of
the other seats' (RULES.md item 8 applied to the points each seat took): a made bid, a
set, the opposition's points and the moon all count as the scores do, and beating the
others is what wins the race to 500.

What a sample keeps to (``Sampler``):

- the viewer's hand, and every card it was told of this hand (``View.tricks`` and the
  trick under way) are placed;
- every other seat holds its hand size less what it has played; the kitty (while
  bidding) or the discard (for everyone but the bidder) holds the rest;
- a seat that did not follow the colour led holds none of it (a shown void; the bird
  is of the trump colour); a discard said to hold no points holds no point card, and one
  said to hold points holds at least one (redrawn a few times, then one swapped in);
- the called cards not played yet are in no hand but the bidder's partners' (a prior,
  not a rule: a bidder calls cards it lacks; dropped when no deal fits it), and whoever
  holds one in a sample is the bidder's partner there (the revealed ones are known).

The draw places the most constrained cards first, each with a holder that may take it,
by the room left; when none has room it moves cards along an augmenting path (a holder
full, one of its cards to another that may hold it, ...), so it never gets stuck on a
view a real game can give.

The decisions:

- Bidding: on each sample the viewer takes the kitty, sets up by a quick rule (its
  best colour, a discard that voids short colours, the highest trump it lacks called)
  and leads; one rollout a sample gives the points its side would take. Every bid
  level is then judged on the same rollouts: it bids the lowest legal raise whose mean
  value is at least what passing is worth, else passes (a made bid scores the side's
  points, not the bid, so a higher bid only costs). Before any bid, passing is worth
  ``bid_margin``, below 0 because another seat then takes the bid, usually makes it,
  and the viewer shares an opposition's points (-40 did best of 0, -20, -40, -60 on
  duplicate first hands at 3, 5 and 6 seats; at 4 it made no difference). Over a bid,
  passing leaves the holder of the high bid held to it: on each sample the holder
  takes the kitty and sets up by the same quick rule, and one more rollout says what
  its side takes, so passing is worth that hand's score to the viewer (a set when the
  holder falls short). With a fixed margin for passing at every level, strong AIs
  bid each other up to 185-190, past what the bidder then took. When the side takes
  nearly everything it also plays each sample out alone, for the moon, which it shoots
  when its mean value is the best (a sweep is +400, anything less -400).
- Setup: the candidates are the two best trump colours by a quick count, each with two
  discards (void short colours; or keep the points out of the discard) and two ways to
  call (the highest trumps it lacks first; or the 1s of the other colours first), as
  ``Setup`` values that ``check_setup`` passes (``legal`` lists only the engine's four
  ready-made setups: any setup it passes is accepted, RULES.md item 5).
- Card play: the candidates are the legal cards less those in sequence with a cheaper
  one of the same points (holding 7 and 8, or with every card between them gone).

The rollouts see a hand as the bits of an int (renumbered for the trump colour, so a
higher bit of a colour is a higher card): following, voids and masters are a few mask
operations. The policy, for every seat (its side known from the sample): the bidding side
draws trumps with the master trump while an opponent holds one; anyone cashes a master
no opponent can beat, leads low to a partner's sure master, else leads its cheapest card
of its longest colour. Following, it gives points to a trick its side wins for sure
(the bird, 10s, 14s and 5s before a 1 or a trump: ``_RICH``), takes a trick as cheaply
as it can make sure of, and throws its cheapest card (no points, no trumps) otherwise.

Budget and reproducibility: the work per decision is fixed, ``work`` card plays of
rollouts shared over the candidates (``samples = max(min_samples, work // (candidates *
cards left))``), and the generator is seeded from ``seed`` and the view, so the same
game replays the same on any machine. ``budget`` (seconds, default ``BUDGET``) is only
a cap of CPU time on top: checked between samples, it cuts a decision short when the
machine is slower than the one ``default_work`` was measured on (or busy), and then the choice
depends on the machine's speed. ``budget=None`` turns it off (as the tests run it).
``default_work`` and ``bid_samples`` were measured (``bench/strong.py --game rook --games 5``,
on 2 busy cores) at a p99 of 26-34 ms a decision at 3-6 seats; twice the work took
about 6 points a hand more on duplicate first hands at 4 seats, at twice the time.

Measured against the naive AI (``tournament --duplicate``, one strong seat): 82.5% of
400 games at 4 seats (78.5-85.9%), 97.0% of 300 at 3, 63% of 100 at 5, 50% of 120 at 6.
Passing judged by the holder's hand (issue 28): 81.8% (78.5-84.7%) of 600 games at 4
seats against 81.0% (77.7-83.9%) with the fixed margin, side by side on the same deals
(``--games 150 --seed issue12-rook --budget 0.2``); four strong AIs on the first hands
of 30 decks bid 177.8 on average for 177.3 taken, against 185.2 bid for 181.7 taken.
The extra rollout doubles a bidding decision's work: ``bench/strong.py --seats 4``
p50 4.6 ms both, p99 7.8 -> 13-15 ms.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from random import Random
from typing import ClassVar, Final, TypeAlias

from mypy_extensions import mypyc_attr

from hundred_server.games.kit import search
from hundred_server.games.kit.bots import no_action
from hundred_server.games.rook.cards import COLOURS, ROOK_DECK, RookCard
from hundred_server.games.rook.rules import (
    BID_ACTIONS,
    HAND_POINTS,
    HAND_SIZES,
    LAST_TRICK_BONUS,
    MAX_BID,
    MOON,
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
)

#: Deals whose bidding samples a bot keeps (``_bid``), the latest first out last.
BID_CACHE: Final = 1024

_BIRD: Final = 44
_ONE: Final = 15  # STRENGTH of a 1
#: The colour a card plays as, by trump colour index: the bird is of the trump colour.
_SUIT: Final = tuple(tuple(t if c == _BIRD else c // 11 for c in range(45)) for t in range(4))
#: A card's power when it counts (of the colour led or trump): trumps above the rest.
_POW: Final = tuple(
    tuple(STRENGTH[c] + (100 if _SUIT[t][c] == t else 0) for c in range(45)) for t in range(4)
)
_PTS: Final = POINTS
#: Redraws of a sample whose discard should hold points and does not.
_POINT_TRIES: Final = 8


#: A deal's bidding samples (``StrongBot._bid_samples``).
BidSamples: TypeAlias = tuple[
    list[bytes], list[tuple[int, int, int | None]], dict[int, list[tuple[int, int, bool]]]
]


def _held_value(theirs: int, members: int, mine: bool, high: int, n: int) -> float:
    """The viewer's value of the holder's side (``members`` seats, the viewer among them
    if ``mine``) taking ``theirs`` at a bid of ``high``: the viewer's score change less
    the others' mean."""
    delta = theirs if theirs >= high else -high
    total = members * delta + (n - members) * (HAND_POINTS - theirs)
    me = delta if mine else HAND_POINTS - theirs
    return me - (total - me) / (n - 1)


def _trump_index(view: View) -> int:
    assert view.trump is not None
    return COLOURS.index(view.trump)


def voids_of(view: View) -> list[set[int]]:
    """The colours (0-3, B G R Y) each seat has shown it holds none of this hand."""
    voids: list[set[int]] = [set() for _ in range(view.num_players)]
    if view.trump is None:
        return voids
    suit = _SUIT[_trump_index(view)]
    for plays in (*view.tricks, view.current_trick):
        if plays:
            led = suit[plays[0][1]]
            for seat, card in plays[1:]:
                if suit[card] != led:
                    voids[seat].add(led)
    return voids


def hand_sizes(view: View) -> list[int]:
    """How many cards each seat holds now (the bidder's after its discard, once set up)."""
    size = HAND_SIZES[view.num_players]
    sizes = [size] * view.num_players
    if view.phase is Phase.SETUP and view.bidder is not None:
        sizes[view.bidder] += view.kitty_size
    for plays in (*view.tricks, view.current_trick):
        for seat, _ in plays:
            sizes[seat] -= 1
    return sizes


def played_cards(view: View) -> list[int]:
    return [c for plays in (*view.tricks, view.current_trick) for _, c in plays]


class Sampler:
    """Draws the hidden cards consistently with one view (see the module docstring).

    ``holders`` are the other seats, then (if hidden from the viewer) the kitty or the
    discard as one more holder, ``hidden``; ``sample`` gives every seat's cards and the
    hidden holder's (the viewer's own list left empty)."""

    def __init__(self, view: View) -> None:
        n = view.num_players
        self.n = n
        self.seat = view.seat
        sizes = hand_sizes(view)
        if sizes[view.seat] != len(view.hand):
            raise search.SampleError(
                f"seat {view.seat} holds {len(view.hand)} cards, not {sizes[view.seat]}"
            )
        seen = set(view.hand).union(played_cards(view))
        if view.seat == view.bidder:
            seen.update(view.discarded)
        self.holders = [s for s in range(n) if s != view.seat]
        room = [sizes[s] for s in self.holders]
        hidden_size = 0
        if view.phase is Phase.BIDDING:
            hidden_size = view.kitty_size  # the kitty
        elif view.phase is Phase.TRICKS and view.seat != view.bidder:
            hidden_size = view.kitty_size  # the discard
        self.hidden = n if hidden_size else -1
        if hidden_size:
            self.holders.append(n)
            room.append(hidden_size)
        self.room = room
        self.unseen = [c for c in range(45) if c not in seen]
        if sum(room) != len(self.unseen) or min(room, default=0) < 0:
            raise search.SampleError("the hand sizes do not add up to the cards not seen")
        k = len(self.holders)
        full = (1 << k) - 1
        voids = voids_of(view)
        suit = _SUIT[_trump_index(view)] if view.trump is not None else None
        self.discard_points: bool | None = None
        if self.hidden == n and view.phase is Phase.TRICKS:
            self.discard_points = view.points_in_discard
        # The prior: a bidder calls cards it has not kept nor discarded (a card it keeps
        # makes no partner); dropped if no deal fits it.
        called = set(view.called) if view.seat != view.bidder else set()
        for prior in (True, False):
            allowed = []
            for c in self.unseen:
                mask = full
                for i, s in enumerate(self.holders):
                    if s < n and suit is not None and suit[c] in voids[s]:
                        mask &= ~(1 << i)
                    if s == n and self.discard_points is False and _PTS[c]:
                        mask &= ~(1 << i)
                    if prior and c in called and s in (n, view.bidder):
                        mask &= ~(1 << i)
                if not mask:
                    break
                allowed.append(mask)
            else:
                self.allowed = dict(zip(self.unseen, allowed, strict=True))
                self.free = all(m == full for m in allowed)
                try:
                    self._draw(Random(0))
                except search.SampleError:
                    continue
                return
        raise search.SampleError("no deal fits what this view shows")

    def sample(self, rng: Random) -> list[list[int]]:
        """Every seat's hand and then the hidden holder's (index ``n``), one deal."""
        for _ in range(_POINT_TRIES):
            hands = self._draw(rng)
            if self.discard_points is not True or any(_PTS[c] for c in hands[self.n]):
                return hands
        self._give_the_discard_points(hands)
        return hands

    def _give_the_discard_points(self, hands: list[list[int]]) -> None:
        """Swap a point card into a discard that drew none (told it holds points): with
        one of its cards that the point card's holder may hold."""
        discard = hands[self.n]
        for i, s in enumerate(self.holders[:-1]):
            for card in hands[s]:
                if not _PTS[card]:
                    continue
                for other in discard:
                    if self.allowed[other] >> i & 1:
                        hands[s][hands[s].index(card)] = other
                        discard[discard.index(other)] = card
                        return

    def _draw(self, rng: Random) -> list[list[int]]:
        holders, n = self.holders, self.n
        out: list[list[int]] = [[] for _ in range(n + 1)]
        if self.free:
            cards = self.unseen[:]
            search.shuffle(cards, rng)
            start = 0
            for i, s in enumerate(holders):
                out[s] = cards[start : start + self.room[i]]
                start += self.room[i]
            return out
        k = len(holders)
        room = self.room[:]
        placed: list[list[int]] = [[] for _ in range(k)]
        cards = self.unseen[:]
        search.shuffle(cards, rng)
        # the most constrained cards first: they have the fewest places to go
        allowed = self.allowed
        cards.sort(key=lambda c: allowed[c].bit_count())
        for card in cards:
            mask = self.allowed[card]
            total = 0
            for i in range(k):
                if mask >> i & 1:
                    total += room[i]
            if total:
                pick = rng.random() * total
                chosen = -1
                for i in range(k):
                    if mask >> i & 1 and room[i]:
                        chosen = i
                        pick -= room[i]
                        if pick < 0:
                            break
                room[chosen] -= 1
                placed[chosen].append(card)
            else:
                self._augment(card, placed, room)
        for i, s in enumerate(holders):
            out[s] = placed[i]
        return out

    def _augment(self, card: int, placed: list[list[int]], room: list[int]) -> None:
        """Place ``card`` though every holder that may take it is full: move a card of
        one of them to a holder that may take that one, and so on, to one with room."""
        k = len(placed)
        start = [i for i in range(k) if self.allowed[card] >> i & 1]
        parent: dict[int, tuple[int, int] | None] = dict.fromkeys(start)
        queue = list(start)
        while queue:
            h = queue.pop(0)
            for moved in placed[h]:
                for h2 in range(k):
                    if self.allowed[moved] >> h2 & 1 and h2 not in parent:
                        parent[h2] = (h, moved)
                        if room[h2]:
                            # shift along the path back to the start
                            node = h2
                            while True:
                                link = parent[node]
                                if link is None:
                                    placed[node].append(card)
                                    break
                                prev, c = link
                                placed[prev].remove(c)
                                placed[node].append(c)
                                node = prev
                            room[h2] -= 1
                            return
                        queue.append(h2)
        raise search.SampleError("no deal fits the voids this view shows")


# ------------------------------------------------------------------------ the rollouts
#
# A rollout sees cards as bits of an int, renumbered for the trump colour: colour k is
# bits 12k..12k+11 in rising power (bit 12k+1 the 5 ... 12k+10 the 14, 12k+11 the 1),
# and the bird is bit 12t, the lowest of the trump colour t. A hand is a mask; the
# colour a card plays as is its bit's block (``bit // 12``), and within a block a
# higher bit beats a lower one.


def _bit_of(card: int, trump: int) -> int:
    return trump * 12 if card == _BIRD else (card // 11) * 12 + STRENGTH[card] - 4


#: The rollout bit of each card, by trump colour, and the card of each bit (-1: none).
_BIT: Final = tuple(tuple(_bit_of(c, t) for c in range(45)) for t in range(4))
_CARD: Final = tuple(
    tuple(_BIT[t].index(b) if b in _BIT[t] else -1 for b in range(48)) for t in range(4)
)
#: Points by bit, by trump colour.
_BIT_PTS: Final = tuple(tuple(_PTS[c] if c >= 0 else 0 for c in _CARD[t]) for t in range(4))
_SUITS: Final = tuple(0xFFF << (12 * k) for k in range(4))


def _masks_where(test: Callable[[int, int], bool]) -> tuple[int, ...]:
    return tuple(
        sum(1 << b for b in range(48) if _CARD[t][b] >= 0 and test(t, b)) for t in range(4)
    )


def _group(points: int, trump: bool) -> tuple[int, ...]:
    return _masks_where(lambda t, b: _BIT_PTS[t][b] == points and (b // 12 == t) == trump)


#: The cheapest cards first, by trump colour: no points before points, off trump
#: before trump (the bird last).
_CHEAP: Final = tuple(
    zip(*(_group(p, tr) for tr in (False, True) for p in (0, 5, 10, 15, 20)), strict=True)
)
#: What to give a trick one's side wins for sure, first: the bird, then the 10s and 14s,
#: the 5s and the 1s off trump (a 1 is last of them: it takes a trick of its own), then
#: the rest; trumps last (measured: sparing the 1s and trumps took 10 points a hand more
#: at 4 seats than the most points first).
_RICH: Final = tuple(
    zip(
        *(
            _group(p, tr)
            for p, tr in (
                (20, True),
                (10, False),
                (5, False),
                (15, False),
                (0, False),
                (5, True),
                (10, True),
                (15, True),
                (0, True),
            )
        ),
        strict=True,
    )
)


def masks_of(hands: Sequence[Sequence[int]], trump: int) -> list[int]:
    bit = _BIT[trump]
    return [sum(1 << bit[c] for c in hand) for hand in hands]


def _pick(mask: int, groups: Sequence[int]) -> int:
    for g in groups:
        m = mask & g
        if m:
            return (m & -m).bit_length() - 1
    raise AssertionError("an empty hand")


def _can_beat(hand: int, led: int, best: int, trump: int) -> bool:
    """Whether a seat holding ``hand`` can top a trick of colour ``led`` whose best
    card is the bit ``best`` (of the colour led, or a trump)."""
    follow = hand & _SUITS[led]
    if follow:
        return best // 12 == led and follow >> (best + 1) != 0
    trumps = hand & _SUITS[trump]
    if not trumps:
        return False
    return best // 12 != trump or trumps >> (best + 1) != 0


Seating: TypeAlias = tuple[
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[tuple[int, ...], ...], ...],
]


@functools.lru_cache(maxsize=256)
def _seating(side: tuple[bool, ...]) -> Seating:
    """By seat: its opponents, its partners, and by cards down in a trick the opponents
    still to play after it."""
    n = len(side)
    foes = tuple(tuple(s for s in range(n) if side[s] != side[me]) for me in range(n))
    friends = tuple(
        tuple(s for s in range(n) if s != me and side[s] == side[me]) for me in range(n)
    )
    after = tuple(
        tuple(
            tuple((me + k) % n for k in range(1, n - played) if side[(me + k) % n] != side[me])
            for played in range(n)
        )
        for me in range(n)
    )
    return foes, friends, after


def _lead(seat: int, hands: Sequence[int], side: Sequence[bool], table: Seating, trump: int) -> int:
    hand = hands[seat]
    mine = side[seat]
    foes = [hands[s] for s in table[0][seat]]
    trumps = hand & _SUITS[trump]
    if mine and trumps:
        foe_trumps = 0
        for h in foes:
            foe_trumps |= h & _SUITS[trump]
        top = trumps.bit_length() - 1
        if foe_trumps and top > foe_trumps.bit_length() - 1:
            return top
    off = hand & ~_SUITS[trump]
    if not off:
        return _pick(hand, _CHEAP[trump])
    longest = 0
    long_mask = 0
    for k in range(4):
        ms = off & _SUITS[k]
        if not ms:
            continue
        top = ms.bit_length() - 1
        for h in foes:
            if _can_beat(h, k, top, trump):
                break
        else:
            return top
        length = ms.bit_count()
        if length > longest:
            longest, long_mask = length, ms
        elif length == longest:
            long_mask |= ms
    for f in table[1][seat]:
        for k in range(4):
            ms = off & _SUITS[k]
            theirs = hands[f] & _SUITS[k]
            if ms and theirs:
                high = theirs.bit_length() - 1
                for h in foes:
                    if _can_beat(h, k, high, trump):
                        break
                else:
                    return _pick(ms, _CHEAP[trump])
    return _pick(long_mask, _CHEAP[trump])


def _follow(
    seat: int,
    hands: Sequence[int],
    led: int,
    best: int,
    played: int,
    ours: bool,
    table: Seating,
    trump: int,
) -> int:
    """The card ``seat`` plays to a trick of colour ``led`` held with the bit ``best``,
    ``played`` cards down; ``ours``: its own side holds the trick."""
    hand = hands[seat]
    follow = hand & _SUITS[led]
    cards = follow or hand
    if not cards & (cards - 1):
        return cards.bit_length() - 1
    foes_after = [hands[s] for s in table[2][seat][played]]
    if ours:
        for h in foes_after:
            if _can_beat(h, led, best, trump):
                break
        else:
            return _pick(cards, _RICH[trump])
    if follow:
        winning = follow >> (best + 1) << (best + 1) if best // 12 == led else 0
    else:
        trumps = hand & _SUITS[trump]
        winning = trumps >> (best + 1) << (best + 1) if best // 12 == trump else trumps
    while winning:
        low = winning & -winning
        card = low.bit_length() - 1
        for h in foes_after:
            if _can_beat(h, led, card, trump):
                break
        else:
            return card
        winning ^= low
    return _pick(cards, _CHEAP[trump])


def rollout(
    hands: list[int],
    trick: list[tuple[int, int]],
    to_act: int,
    trump: int,
    side: Sequence[bool],
    taken: list[int],
    bonus: int,
    bidder: int,
) -> bool:
    """Play the hand out from here (``hands``, masks of rollout bits, is consumed;
    ``trick`` is the trick under way as (seat, bit)), adding the points each seat takes
    to ``taken`` (``bonus``: the last trick's 20 and the discard's points); whether
    ``bidder`` won every trick from here."""
    n = len(taken)
    table = _seating(tuple(side))
    pts = _BIT_PTS[trump]
    swept = True
    seat = to_act
    if trick:
        led = trick[0][1] // 12
        winner, best = trick[0]
        points = pts[best]
        for s, c in trick[1:]:
            points += pts[c]
            b = c // 12
            if (b == best // 12 and c > best) or (b == trump and best // 12 != trump):
                winner, best = s, c
        played = len(trick)
    else:
        led = winner = best = -1
        points = played = 0
    while True:
        if played == n:
            taken[winner] += points
            if winner != bidder:
                swept = False
            if not hands[winner]:
                taken[winner] += bonus
                return swept
            seat = winner
            played = points = 0
        if played:
            ours = side[winner] == side[seat]
            card = _follow(seat, hands, led, best, played, ours, table, trump)
            b = card // 12
            if (b == best // 12 and card > best) or (b == trump and best // 12 != trump):
                winner, best = seat, card
        else:
            card = _lead(seat, hands, side, table, trump)
            led = card // 12
            winner, best = seat, card
        hands[seat] ^= 1 << card
        points += pts[card]
        played += 1
        if played < n:
            seat = (seat + 1) % n


def relative_value(
    taken: Sequence[int], side: Sequence[bool], bid: int, swept: bool, seat: int
) -> float:
    """``seat``'s score change for the hand less the mean of the others' (RULES.md 8)."""
    n = len(taken)
    ours = sum(t for s, t in enumerate(taken) if side[s])
    theirs = HAND_POINTS - ours
    if bid == MOON:
        side_delta = MOON if swept else -MOON
    else:
        side_delta = ours if ours >= bid else -bid
    members = sum(side)
    total = members * side_delta + (n - members) * theirs
    mine = side_delta if side[seat] else theirs
    return mine - (total - mine) / (n - 1)


# ------------------------------------------------------------------------ setups


def _trump_score(hand: Sequence[int], colour: int) -> float:
    score = 0.0
    for c in hand:
        if c == _BIRD:
            score += 2.5
        elif c // 11 == colour:
            score += 2.0 + STRENGTH[c] / 5
    return score


def _trump_order(hand: Sequence[int]) -> list[int]:
    return sorted(range(4), key=lambda t: (-_trump_score(hand, t), t))


def quick_setup(
    hand: Sequence[int], trump: int, count: int, calls: int, keep_points: bool, ones_first: bool
) -> tuple[list[int], list[int]]:
    """A discard of ``count`` of ``hand`` (the kitty in it) and ``calls`` cards to call,
    for ``trump``: the discard voids the short colours (``keep_points``: and holds no
    points if it can); the calls are the highest trumps the hand lacks, or first
    (``ones_first``) the 1s of the other colours it lacks."""
    suit = _SUIT[trump]
    lengths = [0, 0, 0, 0]
    for c in hand:
        lengths[suit[c]] += 1

    def worth(c: int) -> tuple[int, ...]:
        is_trump = suit[c] == trump
        one = STRENGTH[c] == _ONE
        return (
            int(is_trump),
            int(one),
            _PTS[c] if keep_points else 0,
            lengths[suit[c]],
            STRENGTH[c],
        )

    ranked = sorted(hand, key=worth)
    discard = ranked[:count]
    held = set(hand)
    trumps = sorted(
        (c for c in range(45) if c not in held and suit[c] == trump),
        key=lambda c: -STRENGTH[c],
    )
    ones = [c for c in range(0, 44, 11) if c not in held and suit[c] != trump]
    order = [*ones, *trumps] if ones_first else [*trumps, *ones]
    if len(order) < calls:  # the hand holds nearly everything: call anything else
        order += [c for c in range(45) if c not in held and c not in order]
    return discard, order[:calls]


# ------------------------------------------------------------------------------ bot


def candidates_of(view: View, cards: Sequence[RookCard]) -> list[RookCard]:
    """The legal ``cards`` worth judging: of cards of one colour and the same points in
    sequence (every card between them held or played), only the lowest."""
    trump = _trump_index(view)
    suit, pw = _SUIT[trump], _POW[trump]
    gone = set(view.hand).union(played_cards(view))
    power_of = {(suit[c], pw[c]): c for c in range(45)}
    ranked = sorted(cards, key=lambda c: (suit[c], pw[c]))
    kept: list[RookCard] = []
    for card in ranked:
        if kept:
            low = kept[-1]
            if (
                suit[low] == suit[card]
                and _PTS[low] == _PTS[card]
                and all(
                    power_of.get((suit[card], p)) is None
                    or ROOK_DECK[power_of[(suit[card], p)]] in gone
                    for p in range(pw[low] + 1, pw[card])
                )
            ):
                continue
        kept.append(card)
    return kept


@mypyc_attr(allow_interpreted_subclasses=True)
class StrongBot(search.SearchBot):
    """``act(view) -> action`` for Rook by PIMC; see the module docstring."""

    # Its tuning, class-wide (a tuning run subclasses the bot to change it): card plays
    # of rollouts per decision, shared over the candidates (see the docstring), and
    # fewest samples per decision, however many candidates.
    default_work: ClassVar[int] = 4000
    default_min_samples: ClassVar[int] = 6
    #: Samples a bidding decision plays out (one rollout each, all bids judged on them).
    bid_samples: ClassVar[int] = 80
    #: The mean value (score change less the others' mean) a bid must reach.
    bid_margin: ClassVar[float] = -40.0
    #: The colours judged as trump, best looking first.
    trumps_judged: ClassVar[int] = 2
    #: Whether the bidding rollouts' quick setups keep points out of the discard.
    bid_keeps_points: ClassVar[bool] = False

    #: The bidding samples of the latest deals (``_bid_samples``), oldest first: none
    #: until its first bidding decision.
    _bid_cache: dict[str, BidSamples] | None = None

    def _rng(self, view: View) -> Random:
        told = ",".join(f"{s}:{c}" for plays in view.tricks for s, c in plays)
        return self.keyed(
            view.seat,
            view.num_players,
            view.hand_index,
            view.scores,
            view.dealer,
            view.phase.value,
            [int(c) for c in view.hand],
            view.bids,
            view.trump,
            [int(c) for c in view.called],
            told,
            [(s, int(c)) for s, c in view.current_trick],
        )

    def act(self, view: View) -> Action:
        if not view.legal:
            raise no_action("strong Rook", view.seat)
        self.last_rollouts = 0
        if view.phase is Phase.BIDDING:
            return self._bid(view)
        if view.phase is Phase.SETUP:
            return self._setup(view)
        cards = [a.card for a in view.legal if isinstance(a, Play)]
        candidates = candidates_of(view, cards)
        if len(candidates) == 1:
            return PLAY_ACTIONS[candidates[0]]
        return PLAY_ACTIONS[self._play(view, candidates)]

    # ------------------------------------------------------------------ bidding

    def _deal_key(self, view: View) -> str:
        """What a bidding decision's samples depend on: the deal as the viewer sees it
        before play (not the bids, which the samples do not fit)."""
        return self.key(
            "bidding",
            view.seat,
            view.num_players,
            view.hand_index,
            view.scores,
            view.dealer,
            [int(c) for c in view.hand],
        )

    def _bid(self, view: View) -> Action:
        start = search.clock()
        raises = [a for a in view.legal if isinstance(a, Bid) and PASS < a.amount <= MAX_BID]
        moon_open = BID_ACTIONS[MOON] in view.legal
        n = view.num_players
        high = view.high_bid
        # the seat that holds the high bid: passing leaves it the bid (at least that)
        holder = next((s for s, a in reversed(view.bids) if a == high), None) if high else None
        key = self._deal_key(view)
        cached = None if self._bid_cache is None else self._bid_cache.get(key)
        if cached is None:
            cached = self._bid_samples(view, key, start)
        deals, results, holders = cached
        count = len(results)
        passed = 0.0  # the viewer's value, summed, of the holder's bid when it passes
        held = 0
        if holder is not None and high <= MAX_BID:
            takes = holders.get(holder)
            if takes is None:  # the holder's play does not depend on its bid: kept
                takes = []
                for packed in deals:
                    takes.append(
                        self._takes([list(h) for h in packed.split(b"\xff")], holder, view)
                    )
                    if self.out_of_time(start):
                        break
                if len(takes) == len(deals):
                    holders[holder] = takes
            for theirs, members, mine in takes:
                passed += _held_value(theirs, members, mine, high, n)
                held += 1

        def value(bid: int) -> float:
            total = 0.0
            for ours, members, _ in results:
                delta = ours if ours >= bid else -bid
                others = (members - 1) * delta + (n - members) * (HAND_POINTS - ours)
                total += delta - others / (n - 1)
            return total / count

        best: Action = BID_ACTIONS[PASS]
        # passing with no bid yet is worth bid_margin (another seat takes the bid, with
        # the kitty and the lead); with one, what the holder's bid is worth to the viewer
        best_value = self.bid_margin if not held else passed / held
        if raises:
            v = value(raises[0].amount)
            if v >= best_value:
                best, best_value = raises[0], v
        if moon_open:
            # a sweep: +400 and the others nothing; else -400 and the others their points
            moon = 0.0
            for ours, _, alone in results:
                theirs = HAND_POINTS - ours if alone is None else alone
                moon += MOON if theirs == 0 else -MOON - theirs
            if moon / count > max(best_value, 0.0):
                best = BID_ACTIONS[MOON]
        return best

    def _bid_samples(self, view: View, key: str, start: float) -> BidSamples:
        """A deal's bidding samples, made once and kept (``BID_CACHE`` deals): the deals
        drawn (each seat's cards and the kitty, packed) and on each the viewer's side's
        points as bidder, its size, and alone the points the others took (0: a sweep;
        None: not played alone, the side took too little). They depend on nothing the
        bidding changes, so every bidding decision of the deal judges its bids on the
        same samples (drawn from ``key``), and only the holder's hand is played anew."""
        decision = BidSearch(view, self.bid_samples, self.bid_keeps_points)
        self.search(decision, Random(key), start)
        deals, results = decision.deals, decision.results
        if self._bid_cache is None:
            self._bid_cache = {}
        cache = self._bid_cache
        if len(cache) >= BID_CACHE:
            del cache[next(iter(cache))]
        samples: BidSamples = (deals, results, {})
        cache[key] = samples
        return samples

    def _takes(self, deal: Sequence[list[int]], holder: int, view: View) -> tuple[int, int, bool]:
        """On one sample, ``holder`` playing the hand: it takes the kitty and sets up by
        the same quick rule, and one rollout says what its side takes (its side the seats
        of the cards it calls); with its side's size and whether the viewer is on it.
        Its bid changes none of it (``_held_value`` scores it at the bid), so a deal's
        bidding keeps it for each holder."""
        n = view.num_players
        full = deal[holder] + deal[n]
        trump = _trump_order(full)[0]
        discard, called = quick_setup(
            full, trump, view.kitty_size, n // 2 - 1, self.bid_keeps_points, False
        )
        gone = set(discard)
        hands = [list(h) for h in deal[:n]]
        hands[view.seat] = [int(c) for c in view.hand]
        hands[holder] = [c for c in full if c not in gone]
        side = [s == holder or any(c in hands[s] for c in called) for s in range(n)]
        taken = [0] * n
        bonus = LAST_TRICK_BONUS + sum(_PTS[c] for c in discard)
        rollout(masks_of(hands, trump), [], holder, trump, side, taken, bonus, holder)
        self.last_rollouts += 1
        theirs = sum(t for s, t in enumerate(taken) if side[s])
        return theirs, sum(side), side[view.seat]

    # ------------------------------------------------------------------ setup

    def _setup(self, view: View) -> Setup:
        start = search.clock()
        n = view.num_players
        hand = [int(c) for c in view.hand]
        calls = view.calls
        options: list[tuple[int, list[int], list[int]]] = []
        for trump in _trump_order(hand)[: self.trumps_judged]:
            for keep_points in (False, True):
                for ones_first in (False, True) if calls else (False,):
                    discard, called = quick_setup(
                        hand, trump, view.kitty_size, calls, keep_points, ones_first
                    )
                    option = (trump, sorted(discard), called)
                    if option not in options:
                        options.append(option)
        samples = self.samples_for(self.work, len(options), n * HAND_SIZES[n])
        totals = self.search(SetupSearch(view, options, samples), self._rng(view), start)
        trump, discard, called = options[search.best(totals)]
        return Setup(
            tuple(ROOK_DECK[c] for c in discard),
            COLOURS[trump],
            tuple(ROOK_DECK[c] for c in called),
        )

    # ------------------------------------------------------------------ play

    def _play(self, view: View, cards: Sequence[RookCard]) -> RookCard:
        start = search.clock()
        left = view.num_players * HAND_SIZES[view.num_players] - len(played_cards(view))
        samples = self.samples_for(self.work, len(cards), left)
        totals = self.search(CardSearch(view, cards, samples), self._rng(view), start)
        return cards[search.best(totals)]


class BidSearch(search.Decision[list[list[int]]]):
    """A deal's bidding samples (``StrongBot._bid_samples``): on each the viewer takes
    the kitty, sets up by the quick rule and plays the hand out (alone too, for the
    moon, when its side took nearly everything); one candidate, kept in ``results``."""

    def __init__(self, view: View, samples: int, keeps_points: bool) -> None:
        super().__init__(1, samples)
        self.n, self.seat, self.kitty_size = view.num_players, view.seat, view.kitty_size
        self.calls = self.n // 2 - 1
        self.keeps_points = keeps_points
        self.sampler = Sampler(view)
        self.hand = [int(c) for c in view.hand]
        self.deals: list[bytes] = []
        self.results: list[tuple[int, int, int | None]] = []

    def deal(self, rng: Random) -> list[list[int]]:
        deal = self.sampler.sample(rng)
        self.deals.append(b"\xff".join(bytes(h) for h in deal))
        return deal

    def value(self, deal: list[list[int]], i: int) -> float:
        n, seat = self.n, self.seat
        full = self.hand + deal[n]
        trump = _trump_order(full)[0]
        discard, called = quick_setup(
            full, trump, self.kitty_size, self.calls, self.keeps_points, False
        )
        gone = set(discard)
        deal[seat] = [c for c in full if c not in gone]
        hands = masks_of(deal[:n], trump)
        side = [s == seat or any(c in deal[s] for c in called) for s in range(n)]
        taken = [0] * n
        bonus = LAST_TRICK_BONUS + sum(_PTS[c] for c in discard)
        moon_hands = hands[:]
        rollout(hands, [], seat, trump, side, taken, bonus, seat)
        ours = sum(t for s, t in enumerate(taken) if side[s])
        alone: int | None = None
        if ours >= HAND_POINTS - 20:
            solo = [s == seat for s in range(n)]
            taken = [0] * n
            swept = rollout(moon_hands, [], seat, trump, solo, taken, bonus, seat)
            alone = 0 if swept else HAND_POINTS - taken[seat]
            self.extra_rollouts += 1
        self.results.append((ours, sum(side), alone))
        return 0.0


class SetupSearch(search.Decision[list[list[int]]]):
    """The bidder's setup: each of ``options`` (trump, discard, calls) set up, then the
    hand played out, on every sample; worth ``relative_value``."""

    def __init__(
        self, view: View, options: list[tuple[int, list[int], list[int]]], samples: int
    ) -> None:
        super().__init__(len(options), samples)
        self.n, self.seat = view.num_players, view.seat
        self.bid = view.bid or MOON
        self.options = options
        self.hand = [int(c) for c in view.hand]
        self.sampler = Sampler(view)

    def deal(self, rng: Random) -> list[list[int]]:
        return self.sampler.sample(rng)

    def value(self, deal: list[list[int]], i: int) -> float:
        n, seat = self.n, self.seat
        trump, discard, called = self.options[i]
        gone = set(discard)
        deal[seat] = [c for c in self.hand if c not in gone]
        hands = masks_of(deal[:n], trump)
        side = [s == seat or any(c in deal[s] for c in called) for s in range(n)]
        taken = [0] * n
        bonus = LAST_TRICK_BONUS + sum(_PTS[c] for c in discard)
        swept = rollout(hands, [], seat, trump, side, taken, bonus, seat)
        return relative_value(taken, side, self.bid, swept, seat)


class CardSearch(search.Decision[list[int]]):
    """A card decision: each candidate card played, then the hand played out, on every
    sample (the sides as the sample places the called cards); worth ``relative_value``."""

    def __init__(self, view: View, cards: Sequence[RookCard], samples: int) -> None:
        super().__init__(len(cards), samples)
        n = self.n = view.num_players
        self.seat = view.seat
        self.trump = trump = _trump_index(view)
        bidder = view.bidder
        assert bidder is not None
        assert view.bid is not None
        self.bidder, self.bid = bidder, view.bid
        self.sampler = Sampler(view)
        self.hand = [int(c) for c in view.hand]
        self.revealed = {bidder, *view.partners}
        self.called = [int(c) for c in view.called]
        self.own_discard = sum(_PTS[c] for c in view.discarded)
        taken0 = [0] * n  # the finished tricks' points count towards the bid
        for plays, winner in zip(view.tricks, view.trick_winners, strict=False):
            taken0[winner] += sum(_PTS[c] for _, c in plays)
        self.taken0 = taken0
        self.swept0 = all(w == bidder for w in view.trick_winners)
        self.nxt = (view.seat + 1) % n
        self.bit = bit = _BIT[trump]
        self.bits = [bit[int(c)] for c in cards]
        self.trick_bits = [(s, bit[int(c)]) for s, c in view.current_trick]
        #: The sides and the last trick's bonus in the latest sample (``deal``).
        self.side: list[bool] = []
        self.bonus = 0

    def deal(self, rng: Random) -> list[int]:
        """The hands as masks of rollout bits, the sides and bonus set for them."""
        n = self.n
        deal = self.sampler.sample(rng)
        deal[self.seat] = self.hand
        called, revealed = self.called, self.revealed
        self.side = [s in revealed or any(c in deal[s] for c in called) for s in range(n)]
        if self.seat == self.bidder:
            self.bonus = LAST_TRICK_BONUS + self.own_discard
        else:
            self.bonus = LAST_TRICK_BONUS + sum(_PTS[c] for c in deal[n])
        return masks_of(deal[:n], self.trump)

    def value(self, deal: list[int], i: int) -> float:
        seat, bit = self.seat, self.bits[i]
        hands = deal[:]
        hands[seat] ^= 1 << bit
        played = [*self.trick_bits, (seat, bit)]
        taken = self.taken0[:]
        side = self.side
        swept = rollout(hands, played, self.nxt, self.trump, side, taken, self.bonus, self.bidder)
        return relative_value(taken, side, self.bid, swept and self.swept0, seat)
