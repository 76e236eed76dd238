"""Random whole games of Hundred and Ten, checked against an oracle at every step.

The oracle (trick winner, round score, game winner, next dealer) is written here from
RULES.md alone; it shares no table with the engine. Random games pass more often than
they bid so that bidding ends, and pre-passes, unpasses and illegal actions from any
seat are mixed in along the way.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server.games.hundredandten import rules
from hundred_server.games.hundredandten.bots import NaiveBot
from hundred_server.games.hundredandten.rules import (
    Action,
    Bid,
    DealRecord,
    Discard,
    Game,
    Phase,
    Play,
    SelectTrump,
    Unpass,
)
from hundred_server.games.kit.cards import ALL_CARDS, Card, Suit
from hundred_server.protocol.errors import IllegalActionError

MAX_STEPS = 5000
NAMES = ("ann", "bob", "cy", "dee")

# ----------------------------------------------------------------------- the oracle

_TRUMP_RANKS = {True: "5 J JK AH A K Q T 9 8 7 6 4 3 2", False: "5 J JK AH A K Q 2 3 4 6 7 8 9 T"}
_OFF_RANKS = {True: "A K Q J T 9 8 7 6 5 4 3 2", False: "A K Q J 2 3 4 5 6 7 8 9 T"}


def _trump_order(suit: Suit) -> dict[Card, int]:
    """Trump -> position, 0 the highest (RULES.md items 8-9)."""
    codes: list[str] = []
    for rank in _TRUMP_RANKS[suit in (Suit.HEARTS, Suit.DIAMONDS)].split():
        code = rank if rank in ("JK", "AH") else rank + suit.value
        if code not in codes:  # hearts: AH is named twice
            codes.append(code)
    return {Card.parse(code): i for i, code in enumerate(codes)}


def _off_order(suit: Suit) -> dict[Card, int]:
    """Card of ``suit`` -> position when no trump is in the trick (item 10)."""
    ranks = _OFF_RANKS[suit in (Suit.HEARTS, Suit.DIAMONDS)].split()
    return {Card.parse(r + suit.value): i for i, r in enumerate(ranks)}


TRUMP_ORDER = {suit: _trump_order(suit) for suit in Suit}
OFF_ORDER = {suit: _off_order(suit) for suit in Suit}


def oracle_trick_winner(plays: list[tuple[int, Card]], trump: Suit) -> tuple[int, Card]:
    order = TRUMP_ORDER[trump]
    trumps = [p for p in plays if p[1] in order]
    if trumps:
        return min(trumps, key=lambda p: order[p[1]])
    led = plays[0][1].suit
    assert led is not None
    followers = [p for p in plays if p[1].suit is led]
    return min(followers, key=lambda p: OFF_ORDER[led][p[1]])


def oracle_entries(
    winners: list[tuple[int, Card]], trump: Suit, bidder: int, bid: int
) -> list[tuple[int, int]]:
    """RULES.md item 14, score entries in earning order."""
    order = TRUMP_ORDER[trump]
    trump_tricks = [i for i, (_, c) in enumerate(winners) if c in order]
    bonus = min(trump_tricks, key=lambda i: order[winners[i][1]]) if trump_tricks else None
    entries = [(seat, 10 if i == bonus else 5) for i, (seat, _) in enumerate(winners)]
    others = [e for e in entries if e[0] != bidder]
    if bid == 60:
        if all(seat == bidder for seat, _ in winners):
            return [(bidder, 60)]
        return [(bidder, -60), *others]
    if sum(p for s, p in entries if s == bidder) >= bid:
        return entries
    return [(bidder, -bid), *others]


def oracle_winner(start: list[int], entries: list[tuple[int, int]], bidder: int) -> int | None:
    """RULES.md item 15: None if the game goes on."""
    totals = list(start)
    first = None
    for seat, points in entries:
        totals[seat] += points
        if first is None and totals[seat] >= 110:
            first = seat
    if not any(t >= 110 for t in totals):
        return None
    return bidder if totals[bidder] >= 110 else first


def oracle_next_dealer(dealers: list[int], played: bool, n: int) -> int:
    """RULES.md item 5; ``dealers`` lists every round's dealer so far."""
    dealer = dealers[-1]
    if played or (len(dealers) >= 3 and dealers[-3:] == [dealer] * 3):
        return (dealer + 1) % n
    return dealer


def oracle_legal_plays(hand: list[Card], lead: Card | None, trump: Suit) -> list[Card]:
    """RULES.md item 12: bleed on a trump lead when holding a trump; else anything."""
    order = TRUMP_ORDER[trump]
    if lead is not None and lead in order:
        trumps = [c for c in hand if c in order]
        if trumps:
            return trumps
    return list(hand)


# --------------------------------------------------------------------------- checks


def state_of(game: Game) -> tuple:
    """What an illegal action must leave untouched."""
    n = game.num_players
    return (
        len(game.history),
        game.history[-1] if game.history else None,
        [tuple(h) for h in game.hands],
        tuple(game.scores),
        game.phase,
        game.to_act,
        game.round,
        tuple(game.dealers),
        game.winner,
        tuple(game.passed),
        tuple(game.pre_passed),
        tuple(game.bids),
        game.high_bid,
        game.bidder,
        game.trump,
        tuple(game.discards),
        tuple(game.tricks),
        tuple(game.trick),
        tuple(game.round_results),
        [game.legal_actions(s) for s in range(n)],
        [game.view_for(s).card_knowledge() for s in range(n)],
    )


def check_cards(game: Game) -> None:
    """Every card once across hands, the undealt deck, discards and played cards."""
    n = game.num_players
    deck = next(r for r in reversed(game.history) if isinstance(r, DealRecord)).deck
    assert game.deck == deck
    drawn = 5 * n + sum(len(cards) for _, cards in game.discards)
    undealt = list(deck[drawn:])
    discarded = [c for _, cards in game.discards for c in cards]
    played = [c for trick in game.tricks for _, c in trick] + [c for _, c in game.trick]
    held = [c for hand in game.hands for c in hand]
    assert sorted(held + undealt + discarded + played) == list(ALL_CARDS)

    if game.phase in (Phase.BIDDING, Phase.TRUMP, Phase.DISCARD):
        assert [len(h) for h in game.hands] == [5] * n
        assert game.tricks == []
    if game.phase is Phase.TRICKS:
        in_trick = {seat for seat, _ in game.trick}
        expected = [5 - len(game.tricks) - (s in in_trick) for s in range(n)]
        assert [len(h) for h in game.hands] == expected
        assert len(game.tricks) < 5


def check_views(game: Game) -> None:
    n = game.num_players
    for seat in range(n):
        view = game.view_for(seat)
        assert view.hand == tuple(game.hands[seat])
        assert view.legal == game.legal_actions(seat)
        assert view.scores == tuple(game.scores[seat:] + game.scores[:seat])
        others = {c for s in range(n) if s != seat for c in game.hands[s]}
        assert not others & set(view.hand)
        known = {c for c, status in view.card_knowledge() if not isinstance(status, rules.Unknown)}
        assert not others & known


def random_illegal(game: Game, rng: random.Random) -> tuple[object, object]:
    n = game.num_players
    # Half the time from the seat to act, so that bleeding and discards get tried.
    seat: object = game.to_act if game.to_act is not None and rng.random() < 0.5 else None
    if seat is None:
        seat = rng.randrange(n)
    kind = rng.randrange(8)
    action: object
    if kind == 0:
        action = Bid(rng.choice([0, 15, 20, 25, 30, 60]))
    elif kind == 1:
        action = Unpass()
    elif kind == 2:
        action = SelectTrump(rng.choice(list(Suit)))
    elif kind == 3:
        hand = game.hands[seat] if isinstance(seat, int) else []
        pool = list(hand) * 2 + rng.sample(ALL_CARDS, 3)
        action = Discard(tuple(rng.choice(pool) for _ in range(rng.randrange(6))))
    elif kind == 4:
        action = Play(rng.choice(ALL_CARDS))
    elif kind == 5:
        hand = game.hands[seat] if isinstance(seat, int) else []
        action = Play(rng.choice(hand or ALL_CARDS))
    elif kind == 6:
        action = rng.choice(["pass", None, 15, ("play", "AS")])
    else:
        seat = rng.choice([n, -1, "0", None])
        action = Bid(0)
    return seat, action


def is_legal(game: Game, seat: object, action: object) -> bool:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.num_players:
        return False
    if action in game.legal_actions(seat):
        return True
    if isinstance(action, Discard) and game.phase is Phase.DISCARD and seat == game.to_act:
        # The listed discards keep hand order; the same cards in another order are fine.
        cards = action.cards
        return len(set(cards)) == len(cards) and all(c in game.hands[seat] for c in cards)
    return False


def try_illegal(game: Game, rng: random.Random) -> None:
    seat, action = random_illegal(game, rng)
    if is_legal(game, seat, action):
        return
    before = state_of(game)
    error: IllegalActionError | None = None
    try:
        game.apply(seat, action)  # type: ignore[arg-type]
    except IllegalActionError as err:
        error = err
    assert error is not None, f"seat {seat!r} was allowed {action!r}"
    assert error.code in {
        "not_your_turn",
        "wrong_phase",
        "illegal_bid",
        "already_passed",
        "not_pre_passed",
        "bad_suit",
        "not_in_hand",
        "duplicate_card",
        "must_bleed",
        "game_over",
        "bad_seat",
        "bad_action",
    }
    assert state_of(game) == before


# ---------------------------------------------------------------------- the driver

Chooser = Callable[[Game, int], Action]


class RandomPlayer:
    """Random legal actions, biased so that games end.

    One eager seat per game bids (mostly 15) and the others mostly pass, so most
    rounds are played and the players who do not bid keep what they earn: someone
    reaches 110 well within ``MAX_STEPS`` (tens of thousands of games tried, the
    longest under a thousand steps). Every bid amount, holds and moons still occur.
    """

    WEIGHTS: ClassVar = {15: 10, 20: 3, 25: 2, 30: 1, 60: 1}

    def __init__(self, rng: random.Random, n: int) -> None:
        self.rng = rng
        self.eager = rng.randrange(n)

    def __call__(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if game.phase is Phase.BIDDING:
            bids = [a for a in legal if isinstance(a, Bid) and a.amount]
            if not bids or self.rng.random() < (0.15 if seat == self.eager else 0.85):
                return Bid(0)
            return self.rng.choices(bids, [self.WEIGHTS[b.amount] for b in bids])[0]
        return self.rng.choice(legal)


def naive_player(game: Game, seat: int) -> Action:
    return NaiveBot().act(game.view_for(seat))


class Oracle:
    """Follows the events of one game and checks each against the rules."""

    def __init__(self, game: Game) -> None:
        self.n = game.num_players
        self.totals = [0] * self.n
        self.round_points: list[tuple[int, ...]] = []
        self.dealers: list[int] = []
        self.played_rounds = 0
        self.passed_out = 0
        self.over = False
        self.expected_winner: int | None = None
        self.new_round(game.history[0])

    def new_round(self, deal: DealRecord | rules.Dealt) -> None:
        if self.dealers:
            played = self.last_round_played
            assert deal.dealer == oracle_next_dealer(self.dealers, played, self.n)
        else:
            assert deal.dealer == 0
        self.dealers.append(deal.dealer)
        assert deal.round == len(self.dealers)
        self.bidder: int | None = None
        self.bid = 0
        self.trump: Suit | None = None
        self.trick: list[tuple[int, Card]] = []
        self.winners: list[tuple[int, Card]] = []
        self.last_round_played = False

    def see(self, events: list, game: Game) -> None:
        for event in events:
            assert not self.over
            if isinstance(event, rules.Dealt):
                self.new_round(event)
                assert all(len(h) == 5 for h in event.hands)
            elif isinstance(event, rules.BiddingWon):
                self.bidder, self.bid = event.seat, event.amount
            elif isinstance(event, rules.TrumpSelected):
                assert event.seat == self.bidder
                self.trump = event.suit
            elif isinstance(event, rules.Played):
                self.trick.append((event.seat, event.card))
            elif isinstance(event, rules.TrickWon):
                assert len(self.trick) == self.n
                assert self.trump is not None
                assert (event.seat, event.card) == oracle_trick_winner(self.trick, self.trump)
                self.winners.append((event.seat, event.card))
                assert event.trick == len(self.winners)
                self.trick = []
            elif isinstance(event, rules.PassedOut):
                assert self.bidder is None
                assert self.winners == []
                assert event.round == len(self.dealers)
                self.round_points.append((0,) * self.n)
                self.passed_out += 1
            elif isinstance(event, rules.RoundScored):
                self.scored(event)
            elif isinstance(event, rules.GameWon):
                assert event.winner == self.expected_winner
                assert event.totals == tuple(self.totals)
                assert game.winner == event.winner
                self.over = True
        # A round that takes someone to 110 ends the game, and only such a round does.
        assert self.over == (self.expected_winner is not None) == game.is_over

    def scored(self, event: rules.RoundScored) -> None:
        assert self.trump is not None
        assert self.bidder is not None
        assert len(self.winners) == 5, "a played round has five tricks"
        entries = oracle_entries(self.winners, self.trump, self.bidder, self.bid)
        assert list(event.entries) == entries
        start = list(self.totals)
        points = [0] * self.n
        for seat, value in entries:
            points[seat] += value
            self.totals[seat] += value
        assert event.points == tuple(points)
        assert event.totals == tuple(self.totals)
        assert event.round == len(self.dealers)
        self.round_points.append(tuple(points))
        self.expected_winner = oracle_winner(start, entries, self.bidder)
        self.played_rounds += 1
        self.last_round_played = True


def run_game(
    n: int, seed: str, choose: Chooser, mischief: random.Random | None = None
) -> tuple[Game, Oracle]:
    """Play one game to its end, checking everything at every step.

    With ``mischief``, each step may also try random illegal actions from any seat and
    pre-pass or unpass for a seat that is not to act.
    """
    game = Game(NAMES[:n], seed=seed)
    oracle = Oracle(game)
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps <= MAX_STEPS, "the game did not end"
        check_cards(game)
        check_views(game)
        if mischief is not None:
            rng = mischief
            for _ in range(rng.randrange(3)):
                try_illegal(game, rng)
            if game.phase is Phase.BIDDING and rng.random() < 0.3:
                seat = rng.randrange(n)
                legal = game.legal_actions(seat)
                if seat != game.to_act and legal:
                    (action,) = legal
                    events = game.apply(seat, action)
                    expected = rules.PrePassed(seat) if action == Bid(0) else rules.Unpassed(seat)
                    assert action in (Bid(0), Unpass())
                    assert events == [expected]
                    check_views(game)
        seat = game.to_act
        assert seat is not None
        action = choose(game, seat)
        if isinstance(action, Play):
            assert game.trump is not None
            lead = game.trick[0][1] if game.trick else None
            expected_plays = oracle_legal_plays(game.hands[seat], lead, game.trump)
            assert game.legal_actions(seat) == tuple(Play(c) for c in expected_plays)
        events = game.apply(seat, action)
        if isinstance(action, Bid):
            assert isinstance(events[0], rules.BidMade)
            assert (events[0].seat, events[0].amount) == (seat, action.amount)
        oracle.see(events, game)
    check_cards(game)
    assert oracle.over
    assert game.to_act is None
    assert all(game.legal_actions(s) == () for s in range(n))
    assert game.scores == oracle.totals
    assert [sum(col) for col in zip(*oracle.round_points, strict=True)] == oracle.totals
    # round_results holds the totals after each round, passed-out rounds included.
    running = [0] * n
    sums = []
    for points in oracle.round_points:
        running = [a + b for a, b in zip(running, points, strict=True)]
        sums.append(tuple(running))
    assert game.round_results == sums
    assert max(game.scores) >= 110
    return game, oracle


# -------------------------------------------------------------------------- tests

seeds = st.text(max_size=12)


@settings(max_examples=120, deadline=None)
@given(n=st.sampled_from([2, 3, 4]), seed=seeds, choices=st.integers(0, 2**32))
def test_random_games_follow_the_rules(n, seed, choices):
    rng = random.Random(choices)
    _, oracle = run_game(n, seed, RandomPlayer(rng, n), mischief=rng)
    assert oracle.played_rounds >= 1


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([2, 3, 4]), seed=seeds)
def test_naive_bots_finish_games(n, seed):
    game, oracle = run_game(n, seed, naive_player)
    assert game.winner is not None
    assert oracle.played_rounds >= 1


@settings(max_examples=30, deadline=None)
@given(n=st.sampled_from([2, 3, 4]), seed=seeds)
def test_passed_out_rounds_keep_the_dealer_three_times(n, seed):
    game = Game(NAMES[:n], seed=seed)
    oracle = Oracle(game)
    for _ in range(3 * n + 2):
        rnd = game.round
        while game.round == rnd:
            oracle.see(game.apply(game.to_act, Bid(0)), game)
        check_cards(game)
    assert oracle.passed_out == 3 * n + 2
    assert oracle.dealers == [d for d in [*range(n), 0] for _ in range(3)]
    assert game.dealers == oracle.dealers
    assert game.scores == [0] * n
