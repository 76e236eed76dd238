"""A strong Whist AI: Perfect Information Monte Carlo (PIMC) over sampled deals.

``StrongBot.act(view)`` reads the seat's ``View`` and nothing else. With one legal card
it plays it. Otherwise it samples ``samples`` deals of the cards it has not seen, each
consistent with everything the view shows:

- the viewer's own hand and every card played this hand are placed;
- the turned-up trump card is in the dealer's hand until the dealer plays it;
- every other seat holds 13 cards less those it has played;
- a seat that did not follow the suit led holds none of that suit (a shown void).

The deals are drawn by the kit's ``search.Sampler`` (Hall's condition keeps it from
getting stuck; close to, not exactly, uniform over the consistent deals).

For every sample and every candidate card it plays the card and then the rest of the
hand out with a fast rollout policy that sees the sampled hands (the usual PIMC
simplification): it draws trumps with a master trump, cashes side-suit masters nobody
can ruff, leads low to a suit where the partner holds a master nobody can ruff, else
leads low from its longest side suit; following, it plays cheap behind a partner who
is winning for sure, wins as cheaply as it can make sure of, and plays low otherwise.
The candidates are the legal cards less those in sequence with a lower one (holding
king and queen, or with every card between them played, only the queen is judged).
Every card is judged on the same samples, by the mean number of tricks its side takes
this hand; ties go to the lowest card (deterministic).

Budget and reproducibility: the work per decision is fixed, ``work`` card plays of
rollouts shared over the candidates and the cards left in the hand
(``samples = max(min_samples, work // (candidates * cards left))``; the loop is the
kit's, ``kit/search.py``, with ``CardSearch`` the decision), and the generator is seeded
from ``seed`` and the view, so the same game replays the same on any machine.
The default (``default_work``) was measured to decide within 50 ms at p99 on one core of the
development machines (``make bench-strong``, bench/strong.py; README, tournament section).
``budget`` (seconds, default ``BUDGET``) is a cap of CPU time on top: it is checked
between samples and only cuts a decision short when the machine is slower than that
(or busy); then the choice depends on the machine's speed and is no longer
reproducible. ``budget=None`` turns the cap off (fully reproducible, as the tests run
it). The trade-off: a fixed count gives the same play everywhere but can overrun the
budget on a slow machine; the cap keeps to the budget but gives up reproducibility
exactly when it bites.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import ClassVar, Final

from mypy_extensions import mypyc_attr

from hundred_server.games.kit import search
from hundred_server.games.kit.cards import DECK_SUITS, STANDARD_52, Card
from hundred_server.games.kit.tricks import PARTNER_HAND as HAND_SIZE
from hundred_server.games.kit.tricks import PARTNER_SEATS as NUM_PLAYERS
from hundred_server.games.whist.rules import PLAY_ACTIONS, Play, View
from hundred_server.protocol.errors import HundredError


def sampler(view: View) -> search.Sampler:
    """The kit's sampler for ``view``: the turned-up trump card stays with the dealer
    until the dealer plays it."""
    if view.trump_card is None:
        raise search.SampleError("a Whist view before the deal has no hidden cards to sample")
    tricks = (*view.tricks, view.current_trick)
    if search.tricks_seen(tricks, HAND_SIZE)[1][view.seat] != len(view.hand):
        raise search.SampleError(f"seat {view.seat} holds {len(view.hand)} cards, not its share")
    fixed: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
    seen = set(view.hand).union(view.played)
    if view.trump_card not in seen:
        fixed[view.dealer].append(int(view.trump_card))
    return search.Sampler(view.seat, seen, tricks, HAND_SIZE, fixed)


# ------------------------------------------------------------------------ the rollouts


def _beats(card: int, best: int, trump: int) -> bool:
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def _can_beat(hand: list[int], led: int, card: int, trump: int) -> bool:
    """Whether a seat holding ``hand`` can beat ``card`` when ``led`` is the suit led."""
    suit = card // 13
    followed = False
    for c in hand:
        if c // 13 == led:
            if suit == led and c > card:
                return True
            followed = True
    if followed:
        return False
    for c in hand:  # noqa: SIM110 (a loop: compiled, a generator costs an object a call)
        if c // 13 == trump and (suit != trump or c > card):
            return True
    return False


def _holds(hand: list[int], suit: int) -> bool:
    """Whether ``hand`` holds a card of ``suit``."""
    for c in hand:  # noqa: SIM110 (a loop: compiled, a generator costs an object a call)
        if c // 13 == suit:
            return True
    return False


def _either_beats(a: list[int], b: list[int], led: int, card: int, trump: int) -> bool:
    """Whether a seat holding ``a`` or one holding ``b`` can beat ``card``."""
    return _can_beat(a, led, card, trump) or _can_beat(b, led, card, trump)


def _cheapest(hand: list[int], led: int, trump: int) -> int:
    """The card of ``hand`` that costs least, of the suit ``led`` if it holds any (-1:
    any suit): the lowest non-trump, from the shortest suit on ties."""
    # the suits' lengths in four ints, not a list (one fewer object a call)
    n0 = n1 = n2 = n3 = 0
    for c in hand:
        suit = c // 13
        if suit == 0:
            n0 += 1
        elif suit == 1:
            n1 += 1
        elif suit == 2:
            n2 += 1
        else:
            n3 += 1
    # min by (is trump, rank, suit length, card) as one int: each part is bounded
    # (rank < 13, length <= 13, card < 52), so the order is that of the tuple.
    cheapest, least = -1, 1 << 30
    for c in hand:
        suit = c // 13
        if led >= 0 and suit != led:
            continue
        length = n0 if suit == 0 else n1 if suit == 1 else n2 if suit == 2 else n3
        key = (((13 if suit == trump else 0) + c % 13) * 14 + length) * 52 + c
        if key < least:
            cheapest, least = c, key
    return cheapest


def _is_master(card: int, seat: int, owner: list[int]) -> bool:
    """No other seat holds a higher card of its suit."""
    for higher in range(card + 1, (card // 13 + 1) * 13):
        if owner[higher] >= 0 and owner[higher] != seat:
            return False
    return True


def _lead(seat: int, hands: list[list[int]], owner: list[int], trump: int) -> int:
    hand = hands[seat]
    left, right = hands[(seat + 1) % 4], hands[(seat + 3) % 4]
    top, low_trump = -1, 99
    for c in hand:
        if c // 13 == trump:
            if c > top:
                top = c
            if c < low_trump:
                low_trump = c
    if top >= 0 and _is_master(top, seat, owner) and (_holds(left, trump) or _holds(right, trump)):
        return top
    # the side cards by rank, low first, in hand order on equal ranks: the rank, the
    # place in the hand and the card as one int (the card < 64), sorted
    by_rank: list[int] = []
    lengths = [0, 0, 0, 0]
    for i, c in enumerate(hand):
        if c // 13 != trump:
            by_rank.append((c % 13) * 4096 + i * 64 + c)
            lengths[c // 13] += 1
    if not by_rank:
        return low_trump
    by_rank.sort()
    for key in by_rank:
        card = key % 64
        if _is_master(card, seat, owner) and not _either_beats(
            left, right, card // 13, card, trump
        ):
            return card
    partner = (seat + 2) % 4
    partners = hands[partner]
    # lead low to a suit where the partner holds the master and no opponent can ruff
    for key in by_rank:
        card = key % 64
        suit = card // 13
        ours = -1
        for c in partners:
            if c // 13 == suit and c > ours:
                ours = c
        if (
            ours >= 0
            and _is_master(ours, partner, owner)
            and not _either_beats(left, right, suit, ours, trump)
        ):
            return card
    # min by (longest suit first, rank, card) as one int (length <= 13, rank < 13)
    low, least = -1, 1 << 30
    for key in by_rank:
        c = key % 64
        longest = ((13 - lengths[c // 13]) * 13 + c % 13) * 52 + c
        if longest < least:
            low, least = c, longest
    return low


#: A card played to a trick, as one int: the seat times this plus the card (< 256, so
#: Python keeps each such int once and a trick's plays allocate nothing).
SEAT: Final = 64


def _winner(trick: list[int], trump: int) -> tuple[int, int]:
    """The seat winning ``trick`` so far, and its card."""
    winner, best = trick[0] // SEAT, trick[0] % SEAT
    for k in range(1, len(trick)):
        c = trick[k] % SEAT
        if _beats(c, best, trump):
            winner, best = trick[k] // SEAT, c
    return winner, best


def _follow(seat: int, hands: list[list[int]], trick: list[int], trump: int) -> int:
    hand = hands[seat]
    led = trick[0] % SEAT // 13
    count, only = 0, -1
    for c in hand:
        if c // 13 == led:
            count += 1
            only = c
    if count == 0:
        if len(hand) == 1:
            return hand[0]
        must = -1
    elif count == 1:
        return only
    else:
        must = led
    winner, best = _winner(trick, trump)
    # Of the seats still to play, only the next can be an opponent (the one after it,
    # if any, is the partner).
    after = hands[(seat + 1) % 4] if len(trick) < 3 else None
    partner_winning = (winner - seat) % 2 == 0
    if partner_winning and (after is None or not _can_beat(after, led, best, trump)):
        return _cheapest(hand, must, trump)
    # the lowest card that wins, and the lowest that wins for sure
    lowest, sure = 99, 99
    for c in hand:
        if (must < 0 or c // 13 == must) and _beats(c, best, trump):
            if c < lowest:
                lowest = c
            if c < sure and (after is None or not _can_beat(after, led, c, trump)):
                sure = c
    if lowest == 99:
        return _cheapest(hand, must, trump)
    if sure != 99:
        return sure
    if partner_winning or (len(trick) == 1 and lowest // 13 == led):
        return _cheapest(hand, must, trump)
    return lowest


def rollout(
    hands: list[list[int]],
    trick: list[int],
    to_act: int,
    trump: int,
    side: int,
) -> int:
    """Play the hand out from here (``hands`` and ``trick``, plays as ``seat * SEAT +
    card``, are consumed); the tricks ``side`` takes from now on, the trick under way
    included."""
    owner = [-1] * 52
    for s, hand in enumerate(hands):
        for c in hand:
            owner[c] = s
    taken = 0
    seat = to_act
    while hands[seat] or trick:
        if trick:
            card = _follow(seat, hands, trick, trump)
        else:
            card = _lead(seat, hands, owner, trump)
        hands[seat].remove(card)
        owner[card] = -1
        trick.append(seat * SEAT + card)
        if len(trick) == 4:
            winner = _winner(trick, trump)[0]
            if winner % 2 == side:
                taken += 1
            trick = []
            seat = winner
            if not hands[seat]:
                break
        else:
            seat = (seat + 1) % 4
    return taken


# --------------------------------------------------------------------------------- bot


def candidates_of(view: View, cards: Sequence[Card]) -> list[Card]:
    """The legal ``cards`` (sorted) worth judging: of cards in sequence, such as a king
    and queen when the viewer holds both or every card between them is played, only the
    lowest, since they take the same tricks."""
    gone = set(view.hand).union(view.played)
    kept: list[Card] = []
    for card in cards:
        if kept:
            low = kept[-1]
            if low // 13 == card // 13 and all(
                STANDARD_52[c] in gone for c in range(low + 1, card)
            ):
                continue
        kept.append(card)
    return kept


class CardSearch(search.Decision[list[list[int]]]):
    """A card decision: each candidate card played, then the hand played out, on every
    sample; worth the tricks the viewer's side takes from here."""

    def __init__(self, view: View, cards: Sequence[Card], samples: int) -> None:
        super().__init__(len(cards), samples)
        assert view.trump is not None
        self.trump = DECK_SUITS.index(view.trump)
        self.seat = view.seat
        self.side = view.seat % 2
        self.sampler = sampler(view)
        self.hand = [int(c) for c in view.hand]
        self.cards = [int(c) for c in cards]
        self.trick = [s * SEAT + int(c) for s, c in view.current_trick]
        self.next_seat = (view.seat + 1) % NUM_PLAYERS

    def deal(self, rng: Random) -> list[list[int]]:
        deal = self.sampler.sample(rng)
        deal[self.seat] = self.hand
        return deal

    def value(self, deal: list[list[int]], i: int) -> float:
        card, trump, side = self.cards[i], self.trump, self.side
        hands = [h[:] for h in deal]
        hands[self.seat].remove(card)
        played = [*self.trick, self.seat * SEAT + card]
        if len(played) == NUM_PLAYERS:
            winner = _winner(played, trump)[0]
            first = 1 if winner % 2 == side else 0
            return first + (rollout(hands, [], winner, trump, side) if hands[winner] else 0)
        return rollout(hands, played, self.next_seat, trump, side)


@mypyc_attr(allow_interpreted_subclasses=True)
class StrongBot(search.SearchBot):
    """``act(view) -> Play`` for Whist by PIMC; see the module docstring."""

    # Its tuning, class-wide (a tuning run subclasses the bot to change it): card plays
    # of rollouts per decision, shared over the candidate cards and the cards left to
    # play (measured: see the docstring), and fewest samples per decision, however many
    # cards are legal.
    default_work: ClassVar[int] = 7000
    default_min_samples: ClassVar[int] = 6

    def _rng(self, view: View) -> Random:
        hand, played = search.codes(view.hand), search.codes(view.played)
        return self.keyed(view.seat, view.hand_index, view.scores, view.dealer, hand, played)

    def act(self, view: View) -> Play:
        cards = sorted(p.card for p in view.legal)
        if not cards or view.trump is None:
            raise HundredError(f"the strong whist bot has no play to make as seat {view.seat}")
        self.last_rollouts = 0
        candidates = candidates_of(view, cards)
        if len(candidates) == 1:
            return PLAY_ACTIONS[candidates[0]]
        return PLAY_ACTIONS[self.choose(view, candidates)]

    def choose(self, view: View, cards: Sequence[Card]) -> Card:
        """The legal card with the best mean tricks for the viewer's side (the lowest
        card among the best)."""
        start = search.clock()
        left = NUM_PLAYERS * HAND_SIZE - len(view.played)
        decision = CardSearch(view, cards, self.samples_for(self.work, len(cards), left))
        return cards[search.best(self.search(decision, self._rng(view), start))]
