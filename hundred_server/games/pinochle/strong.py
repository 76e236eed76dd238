"""A strong Pinochle AI: Perfect Information Monte Carlo (PIMC) over sampled deals.

``StrongBot.act(view)`` reads the seat's ``View`` and nothing else, and makes every
decision the game asks of a seat: its bid, the trump it names, and each card it plays
(meld is shown by the engine, not chosen). With one legal action it takes it.

The deals. The cards it has not seen are dealt to the other three seats (``Sampler``),
each deal consistent with everything the view shows:

- the viewer's hand and every card played this hand are placed; every seat holds 12
  cards less those it has played;
- the cards a seat showed in its meld are in its hand until it plays them;
- the meld a seat showed is exactly its meld: for each class of meld (a run, a
  marriage of each suit, the dix, a pinochle, each "around") the times the seat's hand
  at meld time holds it are the times it showed, so a seat that showed no marriage of
  clubs holds no K-Q of clubs between the cards it still holds and those it played;
- the must-follow and must-beat rules: a seat that did not follow the suit led holds
  none of it, one that did not trump holds no trump, one that followed (or trumped)
  without beating the winning card of its suit holds no higher card of that suit.

The bids are not used as evidence (every hand is as likely whatever a seat bid): the
meld shown right after trump tells the most of what a bid hints at. A deal is drawn
card by card, the most constrained cards first, each going to a seat that may hold it
with a chance proportional to the room left in that seat's hand; a draw whose melds do
not come out as shown is drawn again. After a few such tries the sampler picks, for
each class of meld still open, which card of it the seat holds no more of than shown
(a depth-first search checked by max-flow, ``Sampler._feasible``, so it never picks a
set that fits no deal), then draws under those caps, each card only where the rest
still fits. The distribution is close to, not exactly, uniform over consistent deals.

The rollouts. Each candidate action is judged on the same sampled deals by playing the
hand out with a fast policy that sees the sampled hands (the usual PIMC
simplification; ``_choose_card``): leading, the bidding side draws trumps with a trump
nobody can beat, anyone cashes a card nobody can beat, else leads its cheapest card
from its longest side suit; following, it throws counters (K, T, A, off trumps first)
to a partner whose card nobody after can beat, wins with the cheapest card nobody after
can beat, and otherwise plays its cheapest card. A deal's worth to the viewer is the
hand's points for its team less the other team's (meld plus counters, or minus the bid
for a bidding team short of it), so going set weighs what it costs.

- Card play: the legal cards (each once) on ``samples`` deals; the best mean worth wins,
  ties to the first in hand order.
- Trump: each of the ``trumps_judged`` suits that look best (by meld, trumps and aces,
  ``_hand_strength``) is named on the same deals (uniform over the unseen cards: no meld
  is shown yet), every seat's meld is counted and the hand is played out; the best suit.
- Bidding: the same for the ``bid_trumps`` suits that look best, the viewer the bidder
  at the lowest open amount; it bids when the best expected worth is at least
  ``bid_margin`` above passing's (taken as ``pass_value``), the partner's high bid
  raising the bar by ``partner_margin``. It bids the lowest open amount: a bid earns
  nothing over what the team takes, so a higher one only adds risk. A dealer everyone
  passed to bids the 20 it is stuck with anyway.

Budget and reproducibility: the work per decision is fixed, ``work`` card plays of
rollouts shared over the candidates and the cards left to play
(``samples = max(min_samples, work // (candidates * cards left))``), and the generator
is seeded from ``seed`` and the view, so the same game replays the same on any machine.
``budget`` (seconds, default ``BUDGET``) is a cap of CPU time on top: it is checked
between samples and only cuts a decision short when the machine is slower than
expected (or busy); then the choice depends on the machine and is no longer
reproducible. ``budget=None`` turns the cap off (as the tests run it).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import ClassVar, Final, TypeAlias

from mypy_extensions import mypyc_attr

from hundred_server.games.kit import search
from hundred_server.games.kit.bots import no_action
from hundred_server.games.kit.cards import Card
from hundred_server.games.pinochle.rules import (
    BID_ACTIONS,
    HAND_SIZE,
    MIN_BID,
    NUM_PLAYERS,
    PASS,
    PINOCHLE_CARDS,
    PLAY_ACTIONS,
    STRENGTH,
    SUIT_ORDER,
    TRUMP_ACTIONS,
    Action,
    Phase,
    Play,
    View,
    team_of,
)

#: The share of the budget the samples may take: the rest is left for the work before
#: and after them (the sampler's set-up, the choice), and for a sample slower than most.
_CAP_SHARE: Final = 0.85


# ------------------------------------------------------------------- compact cards
#
# A card is an int 0..23: suit index (SUIT_ORDER: D C H S) * 6 + strength (9 = 0 .. A = 5),
# so within a suit a higher int is a higher card. A counter has strength 3 or more.

_NCARDS: Final = 24
_ID: Final[dict[Card, int]] = {
    c: SUIT_ORDER.index(c.suit) * 6 + STRENGTH[c] for c in PINOCHLE_CARDS if c.suit is not None
}
_CARD: Final[tuple[Card, ...]] = tuple(
    sorted(PINOCHLE_CARDS, key=lambda c: _ID[c])  # index id -> Card
)
_QS: Final = 3 * 6 + 2
_JD: Final = 0 * 6 + 1
_RUN_VALUES: Final[tuple[int, ...]] = (0, 15, 150)
_PINOCHLE_VALUES: Final[tuple[int, ...]] = (0, 4, 30)
#: (strength, single, double) of each "around".
_AROUNDS: Final[tuple[tuple[int, int, int], ...]] = (
    (5, 10, 100),
    (3, 8, 80),
    (2, 6, 60),
    (1, 4, 40),
)


def card_id(card: Card) -> int:
    """The compact int of a Pinochle card."""
    return _ID[card]


def card_of(cid: int) -> Card:
    """The Card of a compact int."""
    return _CARD[cid]


def meld_value(counts: Sequence[int], trump: int) -> int:
    """``rules.meld``'s amount for a hand given as counts by compact card."""
    base = trump * 6
    runs = min(
        counts[base + 1], counts[base + 2], counts[base + 3], counts[base + 4], counts[base + 5]
    )
    amount = _RUN_VALUES[runs] + counts[base]  # the run(s) and each dix
    for suit in range(4):
        pairs = min(counts[suit * 6 + 3], counts[suit * 6 + 2])
        amount += 4 * (pairs - runs) if suit == trump else 2 * pairs
    amount += _PINOCHLE_VALUES[min(counts[_QS], counts[_JD])]
    for strength, single, double in _AROUNDS:
        times = min(
            counts[strength], counts[6 + strength], counts[12 + strength], counts[18 + strength]
        )
        if times:
            amount += single if times == 1 else double
    return amount


def meld_groups(trump: int) -> list[tuple[int, ...]]:
    """The classes of meld with ``trump``: each a group of cards whose fewest copies in a
    hand is the times the hand holds that meld (RULES.md item 4)."""
    groups: list[tuple[int, ...]] = [tuple(trump * 6 + s for s in range(1, 6))]
    groups += [(suit * 6 + 3, suit * 6 + 2) for suit in range(4)]
    groups += [(trump * 6,), (_QS, _JD)]
    groups += [tuple(suit * 6 + s for suit in range(4)) for s, _, _ in _AROUNDS]
    return groups


def _counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * _NCARDS
    for c in cards:
        counts[c] += 1
    return counts


# ----------------------------------------------------------------------- what it knows


def played_by(view: View) -> list[list[int]]:
    """The compact cards each seat has played this hand."""
    out: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
    for plays in (*view.tricks, view.current_trick):
        for seat, c in plays:
            out[seat].append(_ID[c])
    return out


def top_allowed(view: View) -> list[list[int]]:
    """``top[seat][suit]``: the highest strength of ``suit`` the seat may still hold, by
    the must-follow and must-beat rules (-1: none of the suit; 5: no limit)."""
    top = [[5] * 4 for _ in range(NUM_PLAYERS)]
    if view.trump is None:
        return top
    trump = SUIT_ORDER.index(view.trump)
    for plays in (*view.tricks, view.current_trick):
        if not plays:
            continue
        best = _ID[plays[0][1]]
        led = best // 6
        for seat, played in plays[1:]:
            c = _ID[played]
            if c // 6 == led:
                if best // 6 == led and c <= best:  # followed without beating
                    top[seat][led] = min(top[seat][led], best % 6)
            else:
                top[seat][led] = -1
                if c // 6 == trump:
                    if best // 6 == trump and c <= best:  # trumped under a trump
                        top[seat][trump] = min(top[seat][trump], best % 6)
                else:
                    top[seat][trump] = -1
            if _beats(c, best, trump):
                best = c
    return top


def _beats(c: int, best: int, trump: int) -> bool:
    if c // 6 == best // 6:
        return c > best
    return c // 6 == trump


def _ways(cap: Sequence[Sequence[int]]) -> list[int]:
    """How many of the three seats ``cap`` lets hold each card."""
    c0, c1, c2 = cap
    ways = [0] * _NCARDS
    for c in range(_NCARDS):
        ways[c] = (1 if c0[c] > 0 else 0) + (1 if c1[c] > 0 else 0) + (1 if c2[c] > 0 else 0)
    return ways


def _fewest_first(cards: list[int], ways: list[int]) -> list[int]:
    """``sorted(cards, key=ways.__getitem__)`` (a stable sort by 0-3 seats), as a
    partition: no call a card."""
    out: list[int] = []
    for w in range(4):
        for c in cards:
            if ways[c] == w:
                out.append(c)
    return out


class Sampler:
    """Draws the other seats' hands consistently with one view (see the docstring)."""

    #: Plain draws tried before the draw that picks each open meld class's card.
    QUICK_TRIES: Final = 6

    def __init__(self, view: View) -> None:
        if view.phase not in (Phase.BIDDING, Phase.TRUMP, Phase.TRICKS):
            raise search.SampleError("a Pinochle view outside a hand has no hidden cards to sample")
        me = view.seat
        self.others = [(me + k) % NUM_PLAYERS for k in (1, 2, 3)]
        played = played_by(view)
        mine = [_ID[c] for c in view.hand]
        if len(mine) != HAND_SIZE - len(played[me]):
            raise search.SampleError(
                f"seat {me} holds {len(mine)} cards, not {HAND_SIZE - len(played[me])}"
            )
        left = [2] * _NCARDS
        for c in mine:
            left[c] -= 1
        for cards in played:
            for c in cards:
                left[c] -= 1
        #: Cards known to be in each hidden hand: shown in meld, not yet played.
        self.fixed: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
        shown: list[list[int]] = [[0] * _NCARDS for _ in range(NUM_PLAYERS)]
        if view.melds:
            for seat in self.others:
                shown[seat] = _counts([_ID[c] for c in view.melds[seat][1]])
                counts = _counts(played[seat])
                for c in range(_NCARDS):
                    for _ in range(shown[seat][c] - counts[c]):
                        self.fixed[seat].append(c)
                        left[c] -= 1
        if min(left) < 0:
            raise search.SampleError("the view shows more than two of a card")
        #: Hidden copies of each card, to be placed.
        self.left = left
        self.room = [HAND_SIZE - len(played[s]) - len(self.fixed[s]) for s in self.others]
        if min(self.room) < 0 or sum(self.room) != sum(left):
            raise search.SampleError("the hand sizes do not add up to the cards not seen")
        # cap[k][c]: copies of c beyond the fixed ones self.others[k] may hold.
        top = top_allowed(view)
        self.cap = [
            [(2 if top[s][c // 6] >= c % 6 else 0) for c in range(_NCARDS)] for s in self.others
        ]
        #: Open meld classes: (k, the cards of which the seat may hold no more than shown,
        #: each with the most copies it may hold then).
        self.open: list[tuple[int, list[tuple[int, int]]]] = []
        if view.melds and view.trump is not None:
            self._meld_caps(SUIT_ORDER.index(view.trump), shown, played)
        for row in self.cap:
            for c in range(_NCARDS):
                row[c] = min(row[c], left[c])
        if not self._feasible(self.cap):
            raise search.SampleError("no deal fits what this view shows")
        #: How many seats may hold each card under ``cap``.
        self.ways = _ways(self.cap)
        #: The hidden copies, in card order.
        self.hidden = [c for c in range(_NCARDS) for _ in range(left[c])]

    def _meld_caps(self, trump: int, shown: list[list[int]], played: list[list[int]]) -> None:
        for k, seat in enumerate(self.others):
            gone = _counts(played[seat])
            fixed = _counts(self.fixed[seat])
            for group in meld_groups(trump):
                times = min(shown[seat][c] for c in group)
                if times >= 2:
                    continue
                # The hand at meld time held ``times`` of some card of the group, one
                # shown exactly ``times`` times: the seat holds no more of it now than
                # ``times`` less what it played of it (its fixed copies included).
                options = []
                for c in group:
                    if shown[seat][c] != times or gone[c] > times:
                        continue
                    extra = times - gone[c] - fixed[c]
                    options.append((c, max(extra, 0)))
                if any(self.cap[k][c] <= extra or self.left[c] <= extra for c, extra in options):
                    continue  # already kept to it
                if len(options) == 1:
                    c, extra = options[0]
                    self.cap[k][c] = min(self.cap[k][c], extra)
                else:
                    self.open.append((k, options))

    def _feasible(
        self,
        cap: Sequence[Sequence[int]],
        left: Sequence[int] | None = None,
        room: Sequence[int] | None = None,
    ) -> bool:
        """Whether the hidden cards (``left``, by default all) fit the three hands' room
        under ``cap`` (max-flow, min-cut: for every set A of seats, the copies that must
        go to A fit A's room)."""
        left = self.left if left is None else left
        room = self.room if room is None else room
        c0, c1, c2 = cap
        # One pass over the cards, the eight sets of seats at once (each card's caps read
        # once): need_X is what must go to the seats X (bit k: self.others[k]), the copies
        # beyond what the seats outside X may hold.
        need0 = need1 = need2 = need3 = need4 = need5 = need6 = need7 = 0
        for c in range(_NCARDS):
            n = left[c]
            if n:
                a, b, d = c0[c], c1[c], c2[c]
                if n > a + b + d:
                    need0 += n - (a + b + d)
                if n > b + d:
                    need1 += n - (b + d)
                if n > a + d:
                    need2 += n - (a + d)
                if n > d:
                    need3 += n - d
                if n > a + b:
                    need4 += n - (a + b)
                if n > b:
                    need5 += n - b
                if n > a:
                    need6 += n - a
                need7 += n
        r0, r1, r2 = room[0], room[1], room[2]
        return (
            need0 <= 0
            and need1 <= r0
            and need2 <= r1
            and need3 <= r0 + r1
            and need4 <= r2
            and need5 <= r0 + r2
            and need6 <= r1 + r2
            and need7 <= r0 + r1 + r2
        )

    def _cards(self, rng: Random, ways: list[int]) -> list[int]:
        """The hidden copies shuffled, then those fewest seats may hold first (``ways``:
        how many may hold each card)."""
        cards = self.hidden[:]
        search.shuffle(cards, rng)
        return _fewest_first(cards, ways)

    def _draw(
        self, cards: Sequence[int], rng: Random, cap: Sequence[Sequence[int]]
    ) -> list[list[int]] | None:
        """Place ``cards`` one by one where the caps allow, by room left; None if stuck."""
        # the room left and the hands in locals, not lists: a list's item is an object
        r0, r1, r2 = self.room[0], self.room[1], self.room[2]
        c0, c1, c2 = list(cap[0]), list(cap[1]), list(cap[2])
        h0: list[int] = []
        h1: list[int] = []
        h2: list[int] = []
        for c in cards:
            w0 = r0 if c0[c] else 0
            w1 = r1 if c1[c] else 0
            w2 = r2 if c2[c] else 0
            total = w0 + w1 + w2
            if not total:
                return None
            pick = rng.random() * total
            if pick < w0:
                c0[c] -= 1
                r0 -= 1
                h0.append(c)
            elif pick < w0 + w1:
                c1[c] -= 1
                r1 -= 1
                h1.append(c)
            else:
                c2[c] -= 1
                r2 -= 1
                h2.append(c)
        return [h0, h1, h2]

    def _draw_checked(self, rng: Random, cap: list[list[int]]) -> list[list[int]]:
        """Place the hidden cards one by one, each only where the rest still fits."""
        left, room = self.left[:], self.room[:]
        cap = [row[:] for row in cap]
        hands: list[list[int]] = [[], [], []]
        for c in self._cards(rng, _ways(cap)):
            weights = []
            for k in range(3):
                w = 0
                if cap[k][c] and room[k]:
                    left[c] -= 1
                    room[k] -= 1
                    cap[k][c] -= 1
                    if self._feasible(cap, left, room):
                        w = room[k] + 1
                    left[c] += 1
                    room[k] += 1
                    cap[k][c] += 1
                weights.append(w)
            total = sum(weights)
            if not total:  # cannot happen: every step keeps the rest placeable
                raise search.SampleError("the sampler got stuck")
            pick = rng.random() * total
            k = 0 if pick < weights[0] else 1 if pick < weights[0] + weights[1] else 2
            left[c] -= 1
            room[k] -= 1
            cap[k][c] -= 1
            hands[k].append(c)
        return hands

    def _melds_fit(self, hands: Sequence[list[int]]) -> bool:
        for k, options in self.open:
            hand = hands[k]
            for c, extra in options:
                if hand.count(c) <= extra:
                    break
            else:
                return False
        return True

    def _pick_caps(self, rng: Random) -> list[list[int]]:
        """Caps with one card of every open meld class kept to what was shown: a
        depth-first search in random order, each step checked by ``_feasible``."""
        cap = [row[:] for row in self.cap]

        def pick(i: int) -> bool:
            if i == len(self.open):
                return True
            k, options = self.open[i]
            if any(cap[k][c] <= extra for c, extra in options):
                return pick(i + 1)
            order = list(options)
            search.shuffle(order, rng)
            for c, extra in order:
                before = cap[k][c]
                cap[k][c] = extra
                if self._feasible(cap) and pick(i + 1):
                    return True
                cap[k][c] = before
            return False

        if not pick(0):
            raise search.SampleError("no deal fits the melds this view shows")
        return cap

    def sample(self, rng: Random) -> list[list[int]]:
        """Every seat's hidden hand in one consistent deal (the viewer's left empty)."""
        ways = self.ways
        cards = self._cards(rng, ways)
        for _ in range(self.QUICK_TRIES):
            hands = self._draw(cards, rng, self.cap)
            if hands is not None and (not self.open or self._melds_fit(hands)):
                return self._full(hands)
            search.shuffle(cards, rng)
            cards = _fewest_first(cards, ways)
        cap = self._pick_caps(rng) if self.open else self.cap
        if self.open:
            ways = _ways(cap)
        for _ in range(2):
            hands = self._draw(self._cards(rng, ways), rng, cap)
            if hands is not None:
                return self._full(hands)
        return self._full(self._draw_checked(rng, cap))

    def _full(self, hands: Sequence[list[int]]) -> list[list[int]]:
        out: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
        for k, seat in enumerate(self.others):
            out[seat] = self.fixed[seat] + hands[k]
        return out


# ------------------------------------------------------------------------ the rollouts
#
# A rollout hand is four lists, one a suit, each sorted low to high: the card a rule
# needs (the highest of a suit, the cards that beat one) is at hand, not searched for.

Suits: TypeAlias = list[list[int]]


def by_suit(cards: Sequence[int]) -> Suits:
    """A hand as four sorted lists, one a suit."""
    suits: Suits = [[], [], [], []]
    for c in sorted(cards):
        suits[c // 6].append(c)
    return suits


def legal_cards(hand: Suits, led: int, best: int, trump: int) -> list[int]:
    """``rules._playable`` on a rollout hand following ``led`` (-1: leading), ``best``
    winning the trick so far; sorted by suit then strength."""
    if led < 0:
        return [c for suit in hand for c in suit]
    follow = hand[led] or hand[trump]
    if not follow:
        return [c for suit in hand for c in suit]
    if follow[0] // 6 == best // 6 and follow[-1] > best:
        return [c for c in follow if c > best]
    return follow  # not a copy: the rollout reads it before it plays from the hand


def _can_beat(hand: Suits, led: int, card: int, trump: int) -> bool:
    """Whether a seat holding ``hand`` would take a trick that ``card`` is winning (the
    must-beat rule makes it beat when it can)."""
    follow = hand[led]
    if follow:
        return card // 6 == led and follow[-1] > card
    trumps = hand[trump]
    return bool(trumps) and (card // 6 != trump or trumps[-1] > card)


#: ``_CHEAP[trump][card]``: the lower, the cheaper to give up (off trump, no counter, low).
_CHEAP: Final = tuple(
    tuple(100 * (c // 6 == t) + 10 * (c % 6 >= 3) + c % 6 for c in range(_NCARDS)) for t in range(4)
)
#: Which counter to throw a partner first: the king, the ten, the ace (then the rest).
_SMEAR_ORDER: Final[tuple[int, ...]] = (3, 4, 5, 2, 1, 0)
#: ``_SMEAR[trump][card]``: the lower, the better to throw a partner who takes the trick.
_SMEAR: Final = tuple(
    tuple(100 * (c // 6 == t) + _SMEAR_ORDER.index(c % 6) for c in range(_NCARDS)) for t in range(4)
)


def _choose_card(
    seat: int,
    hands: list[Suits],
    led: int,
    position: int,
    best: int,
    best_seat: int,
    trump: int,
    bidding_team: int,
) -> int:
    """The rollout policy (it sees every hand; see the module docstring): the card
    ``seat`` plays, ``position`` cards being in the trick, ``led`` its suit (-1: none)."""
    hand = hands[seat]
    legal = legal_cards(hand, led, best, trump)
    if len(legal) == 1 or legal[0] == legal[-1]:
        return legal[0]
    if led < 0:
        return _lead(seat, hands, legal, trump, bidding_team)
    # Of the seats still to play only the next can be an opponent.
    after = hands[(seat + 1) % 4] if position < 3 else None
    if (best_seat - seat) % 2 == 0 and (after is None or not _can_beat(after, led, best, trump)):
        # least(the legal cards that do not beat best, _SMEAR), without their list
        smear = _SMEAR[trump]
        below, low = -1, 0
        for c in legal:
            if not _beats(c, best, trump) and (below < 0 or smear[c] < low):
                below, low = c, smear[c]
        if below >= 0:
            return below
        return search.least(legal, _CHEAP[trump])
    for c in legal:  # low to high within a suit: the cheapest sure winner first
        if _beats(c, best, trump) and (after is None or not _can_beat(after, led, c, trump)):
            return c
    return search.least(legal, _CHEAP[trump])


def _lead(seat: int, hands: list[Suits], legal: list[int], trump: int, bidding_team: int) -> int:
    hand = hands[seat]
    opp1, opp3 = hands[(seat + 1) % 4], hands[(seat + 3) % 4]
    trumps = hand[trump]
    if trumps and seat % 2 == bidding_team and (opp1[trump] or opp3[trump]):
        for c in trumps:  # draw trumps with the lowest trump nobody can beat
            if not _can_beat(opp1, trump, c, trump) and not _can_beat(opp3, trump, c, trump):
                return c
    cash = -1
    for suit in range(4):
        cards = hand[suit]
        if suit != trump and cards:
            top = cards[-1]
            if (
                top > cash
                and not _can_beat(opp1, suit, top, trump)
                and not _can_beat(opp3, suit, top, trump)
            ):
                cash = top
    if cash >= 0:
        return cash
    partner = hands[(seat + 2) % 4]
    # the legal cards off trump (the side), in order, without their list
    low, least_key = -1, 1 << 30
    for c in legal:
        if c // 6 == trump:
            continue
        ours = partner[c // 6]
        if (  # low into a suit the partner takes for sure
            c % 6 < 3
            and ours
            and ours[-1] > hand[c // 6][-1]
            and not _can_beat(opp1, c // 6, ours[-1], trump)
            and not _can_beat(opp3, c // 6, ours[-1], trump)
        ):
            return c
        # min by (a counter, the longest suit, rank) as one int (a suit <= 12 cards)
        key = ((c % 6 >= 3) * 16 + 16 - len(hand[c // 6])) * 8 + c % 6
        if key < least_key:
            low, least_key = c, key
    return legal[0] if low < 0 else low


#: The trick under way, for ``rollout``: the suit led (-1: none yet, a trick to lead),
#: the cards down, the winning card and its seat so far, the counters in it.
TrickSoFar: TypeAlias = tuple[int, int, int, int, int]


def rollout(
    hands: list[Suits], trick: TrickSoFar, to_act: int, trump: int, bidding_team: int
) -> list[int]:
    """Play the hand out from here (``hands`` is consumed; ``trick`` the trick under way,
    ``to_act`` to play to it): the counters each team takes from now on, the last
    trick's bonus included."""
    led, position, best, best_seat, points = trick
    taken = [0, 0]
    seat = to_act
    while True:
        card = _choose_card(seat, hands, led, position, best, best_seat, trump, bidding_team)
        hands[seat][card // 6].remove(card)
        if led < 0:
            led, best, best_seat = card // 6, card, seat
        elif _beats(card, best, trump):
            best, best_seat = card, seat
        if card % 6 >= 3:
            points += 1
        position += 1
        if position == 4:
            seat = best_seat
            hand = hands[seat]
            if not (hand[0] or hand[1] or hand[2] or hand[3]):
                taken[seat % 2] += points + 1
                return taken
            taken[seat % 2] += points
            led, position, points = -1, 0, 0
        else:
            seat = (seat + 1) % 4


def hand_worth(
    meld: Sequence[int], counters: Sequence[int], bidding_team: int, bid: int, team: int
) -> int:
    """The hand's points for ``team`` less the other team's (a set bidder scores -bid)."""
    points = [meld[0] + counters[0], meld[1] + counters[1]]
    if points[bidding_team] < bid:
        points[bidding_team] = -bid
    return points[team] - points[1 - team]


# --------------------------------------------------------------------------------- bot


class CardSearch(search.Decision[list[Suits]]):
    """A card decision: each legal card played, then the hand played out, on every
    sample; worth ``hand_worth`` to the viewer's team."""

    def __init__(self, view: View, cards: list[int], samples: int) -> None:
        super().__init__(len(cards), samples)
        assert view.trump is not None
        assert view.bidder is not None
        assert view.bid is not None
        self.cards = cards
        self.seat, self.team, self.bid = view.seat, view.team, view.bid
        self.trump = trump = SUIT_ORDER.index(view.trump)
        self.bidding_team = team_of(view.bidder)
        self.melds = [view.melds[0][0] + view.melds[2][0], view.melds[1][0] + view.melds[3][0]]
        trick = [_ID[c] for _, c in view.current_trick]
        top, top_seat = (trick[0], view.current_trick[0][0]) if trick else (0, view.seat)
        for (s, _), c in zip(view.current_trick[1:], trick[1:], strict=True):
            if _beats(c, top, trump):
                top, top_seat = c, s
        #: The trick under way, its winning card and its seat so far.
        self.trick, self.best, self.best_seat = trick, top, top_seat
        self.so_far = list(view.counters)
        self.sampler = Sampler(view)
        self.mine = [_ID[c] for c in view.hand]
        self.led = trick[0] // 6 if trick else -1
        self.in_trick = sum(1 for x in trick if x % 6 >= 3)
        self.position = len(trick) + 1

    def deal(self, rng: Random) -> list[Suits]:
        deal = self.sampler.sample(rng)
        deal[self.seat] = self.mine
        return [by_suit(h) for h in deal]

    def value(self, deal: list[Suits], i: int) -> float:
        c, seat, trump, bidding_team = self.cards[i], self.seat, self.trump, self.bidding_team
        hands = [[s[:] for s in h] for h in deal]
        hands[seat][c // 6].remove(c)
        if not self.trick or _beats(c, self.best, trump):
            b, bs = c, seat
        else:
            b, bs = self.best, self.best_seat
        points = self.in_trick + (c % 6 >= 3)
        if self.position == 4:
            hand = hands[bs]
            if hand[0] or hand[1] or hand[2] or hand[3]:
                gained = rollout(hands, (-1, 0, 0, bs, 0), bs, trump, bidding_team)
                gained[bs % 2] += points
            else:
                gained = [0, 0]
                gained[bs % 2] += points + 1
        else:
            led = c // 6 if self.led < 0 else self.led
            trick = (led, self.position, b, bs, points)
            gained = rollout(hands, trick, (seat + 1) % 4, trump, bidding_team)
        counters = [self.so_far[0] + gained[0], self.so_far[1] + gained[1]]
        return hand_worth(self.melds, counters, bidding_team, self.bid, self.team)


class HandSearch(search.Decision[list[list[int]]]):
    """A bid or trump decision: the hand played out from its first lead with each of
    ``trumps``, ``bidder`` naming it at ``bid``, on every sample. It keeps each
    outcome (``out``, as ``StrongBot._deal_outcomes`` gives it)."""

    def __init__(
        self, view: View, trumps: Sequence[int], bidder: int, bid: int, samples: int
    ) -> None:
        super().__init__(len(trumps), samples)
        self.sampler = Sampler(view)
        self.seat, self.team = view.seat, view.team
        self.mine = [_ID[c] for c in view.hand]
        self.trumps = trumps
        self.bidder, self.bid = bidder, bid
        self.bidding_team = team_of(bidder)
        self.counts: list[list[int]] = []
        self.out: list[list[int]] = [[] for _ in range(len(trumps) + 1)]

    def deal(self, rng: Random) -> list[list[int]]:
        deal = self.sampler.sample(rng)
        deal[self.seat] = self.mine
        self.counts = [_counts(h) for h in deal]
        return deal

    def value(self, deal: list[list[int]], i: int) -> float:
        trump, team, bidder = self.trumps[i], self.team, self.bidder
        bidding_team = self.bidding_team
        melds = [meld_value(self.counts[s], trump) for s in range(4)]
        meld = [melds[0] + melds[2], melds[1] + melds[3]]
        hands = [by_suit(h) for h in deal]
        counters = rollout(hands, (-1, 0, 0, bidder, 0), bidder, trump, bidding_team)
        worth = hand_worth(meld, counters, bidding_team, self.bid, team)
        self.out[i].append(worth)
        if i == 0:
            self.out[-1].append(meld[team] + counters[team])
        return worth


def _hand_strength(counts: Sequence[int], trump: int) -> float:
    """A quick look at a hand with ``trump``: its meld, its trumps and its aces."""
    trumps = sum(counts[trump * 6 : trump * 6 + 6])
    high = counts[trump * 6 + 5] + counts[trump * 6 + 4]
    aces = sum(counts[s * 6 + 5] for s in range(4) if s != trump)
    return meld_value(counts, trump) + 1.5 * trumps + high + 1.5 * aces


def _likely_trumps(hand: Sequence[Card], count: int) -> list[int]:
    """The ``count`` suits that look the best trumps for ``hand`` (``_hand_strength``),
    best first."""
    counts = _counts([_ID[c] for c in hand])
    return sorted(range(4), key=lambda t: -_hand_strength(counts, t))[:count]


@mypyc_attr(allow_interpreted_subclasses=True)
class StrongBot(search.SearchBot):
    """``act(view) -> action`` for Pinochle by PIMC; see the module docstring."""

    # Its tuning, class-wide (a tuning run subclasses the bot to change it): card plays
    # of rollouts per card decision, shared over the candidates and the cards left to
    # play (with bid_work, measured by bench/strong.py to keep p99 within 50 ms on the
    # development machine, busy with other work), and fewest samples per decision.
    default_work: ClassVar[int] = 6000
    default_min_samples: ClassVar[int] = 4
    #: Card plays of rollouts for a bid or a trump decision (whole hands: 48 plays each).
    bid_work: ClassVar[int] = 4800
    #: How much the worth of bidding must beat passing's before it bids (points).
    bid_margin: ClassVar[float] = 0.0
    #: What passing is taken to be worth (points a hand, the viewer's team less the other).
    pass_value: ClassVar[float] = -4.0
    #: The further margin before overbidding the partner.
    partner_margin: ClassVar[float] = 6.0
    #: The suits judged as trump when naming it, and when bidding.
    trumps_judged: ClassVar[int] = 4
    bid_trumps: ClassVar[int] = 1

    def _rng(self, view: View) -> Random:
        hand, played = search.codes(view.hand), search.codes(view.played)
        phase = view.phase.value
        return self.keyed(
            view.seat, view.hand_index, view.scores, view.dealer, phase, view.bids, hand, played
        )

    def spent(self, start: float, done: int) -> bool:
        """Whether another sample like the ``done`` so far would overrun the budget."""
        if self.budget is None:
            return False
        spent = search.clock() - start
        return spent + spent / done > self.budget * _CAP_SHARE

    def act(self, view: View) -> Action:
        if not view.legal:
            raise no_action("strong pinochle", view.seat)
        self.last_rollouts = 0
        if len(view.legal) == 1:
            return view.legal[0]
        if view.phase is Phase.BIDDING:
            return self._bid(view)
        if view.phase is Phase.TRUMP:
            return TRUMP_ACTIONS[SUIT_ORDER[self._trump(view)]]
        return self._play(view)

    # ------------------------------------------------------------------- card play

    def _play(self, view: View) -> Action:
        start = search.clock()
        cards = list(dict.fromkeys(_ID[a.card] for a in view.legal if isinstance(a, Play)))
        if len(cards) == 1:
            return PLAY_ACTIONS[_CARD[cards[0]]]
        left = NUM_PLAYERS * HAND_SIZE - len(view.played)
        decision = CardSearch(view, cards, self.samples_for(self.work, len(cards), left))
        totals = self.search(decision, self._rng(view), start)
        return PLAY_ACTIONS[_CARD[cards[search.best(totals)]]]

    # --------------------------------------------------------------- trump and bids

    def _deal_outcomes(
        self, view: View, trumps: Sequence[int], bidder: int, bid: int, start: float
    ) -> list[list[int]]:
        """For each trump, the worth (``hand_worth``) to the viewer's team of the hand
        played out on each sampled deal, ``bidder`` naming it at ``bid``; and, as the
        last row, the team's hand total (meld plus counters) with ``trumps[0]``."""
        samples = self.samples_for(self.bid_work, len(trumps), 48)
        decision = HandSearch(view, trumps, bidder, bid, samples)
        self.search(decision, self._rng(view), start)
        return decision.out

    def _trump(self, view: View) -> int:
        start = search.clock()
        assert view.bid is not None
        order = _likely_trumps(view.hand, self.trumps_judged)
        outcomes = self._deal_outcomes(view, order, view.seat, view.bid, start)
        means = [sum(row) / len(row) for row in outcomes[:-1]]
        return order[means.index(max(means))]

    def _bid(self, view: View) -> Action:
        start = search.clock()
        high = view.high_bid
        lowest = max(MIN_BID, high + 1)
        bid = BID_ACTIONS.get(lowest)
        if bid is None or bid not in view.legal:
            return BID_ACTIONS[PASS]
        if len(view.bids) == NUM_PLAYERS - 1 and high == PASS:
            return bid  # the dealer, stuck anyway: a bid of 20 is the same as passing
        order = _likely_trumps(view.hand, self.bid_trumps)
        outcomes = self._deal_outcomes(view, order, view.seat, lowest, start)
        worth = max(sum(row) / len(row) for row in outcomes[:-1])
        bar = self.pass_value + self.bid_margin
        if any(s == view.partner and a == high and a for s, a in view.bids):
            bar += self.partner_margin
        return bid if worth >= bar else BID_ACTIONS[PASS]
