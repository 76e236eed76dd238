"""Differential test: our Hundred and Ten engine against the published reference.

The reference package ``hundredandten==3.0.2`` is the source of truth for the rules
(../shared/RULES.md). Two kinds of game are compared here:

- lockstep games: our ``Game`` and the reference ``HundredAndTen`` (all ``HumanPlayer``s,
  so the test chooses every action) are driven from the same seed with the same random
  actions. Before every action both must agree on whose turn it is, the phase, every
  hand, who has passed or pre-passed, and the full set of legal actions of the player to
  act. Pre-passes and unpasses are injected during bidding, and a few actions that both
  engines must refuse are tried (and must change nothing). Every round's score entries
  (earning order included), the totals after every round, the winner and the number of
  rounds must agree.
- naive games: the reference's ``NaiveAutomatedPlayer`` at every seat against our
  ``NaiveBot`` through our engine; whole games must end the same.

Reference quirks we deliberately do not copy (RULES.md "planned deviations", and our
stricter bidding), which the lockstep driver therefore never generates; the tests at
the end of this file pin both sides of each one:

- an illegal action changes nothing here; the reference can half-apply one (a discard
  that overdraws the deck has already shrunk the hand when it raises);
- a discard naming a card twice is refused (the reference accepts it and the hand grows);
- duplicate player names are refused (the reference accepts them);
- a pre-pass (``Bid(PASS)`` out of turn) outside bidding, or from a seat that has
  already passed or pre-passed, is refused (the reference silently records it);
- an ``Unpass`` without a pre-pass is refused (the reference ignores it).

Every failure message carries the game's seed string; ``Lockstep(n, seed).run()``
replays it.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from hundredandten import HundredAndTen as RefGame
from hundredandten.actions import Bid as RefBid
from hundredandten.actions import Discard as RefDiscard
from hundredandten.actions import Play as RefPlay
from hundredandten.actions import SelectTrump as RefSelectTrump
from hundredandten.actions import Unpass as RefUnpass
from hundredandten.constants import (
    BidAmount,
    CardNumber,
    GameStatus,
    RoundRole,
    RoundStatus,
    SelectableSuit,
)
from hundredandten.deck import Card as RefCard
from hundredandten.deck import defined_cards
from hundredandten.hundred_and_ten_error import HundredAndTenError
from hundredandten.player import HumanPlayer, NaiveAutomatedPlayer
from hundredandten.trick import Trick as RefTrick

from hundred_server.games.hundredandten.bots import NaiveBot
from hundred_server.games.hundredandten.rules import (
    MOON,
    PASS,
    Action,
    Bid,
    Discard,
    Game,
    PassedOut,
    Phase,
    Play,
    RoundScored,
    SelectTrump,
    Unpass,
    trick_winner,
)
from hundred_server.games.kit.cards import ALL_CARDS, Card, Suit
from hundred_server.protocol.errors import IllegalActionError

MASTER_SEED = "hundred-and-ten-differential-2024"
#: Lockstep games per player count (2, 3 and 4): 3 x 100 = 300 games.
LOCKSTEP_GAMES = 100
#: A lockstep game that has not ended after this many rounds is stopped (and counted).
MAX_ROUNDS = 80
#: Naive-bot games per player count.
NAIVE_GAMES = 120

# ---------------------------------------------------------------- conversions

_NUMBER_CODES = {
    CardNumber.TWO: "2",
    CardNumber.THREE: "3",
    CardNumber.FOUR: "4",
    CardNumber.FIVE: "5",
    CardNumber.SIX: "6",
    CardNumber.SEVEN: "7",
    CardNumber.EIGHT: "8",
    CardNumber.NINE: "9",
    CardNumber.TEN: "T",
    CardNumber.JACK: "J",
    CardNumber.QUEEN: "Q",
    CardNumber.KING: "K",
    CardNumber.ACE: "A",
}
_SUIT_CODES = {
    SelectableSuit.HEARTS: "H",
    SelectableSuit.DIAMONDS: "D",
    SelectableSuit.SPADES: "S",
    SelectableSuit.CLUBS: "C",
}


def ref_code(card: RefCard) -> str:
    """A reference card's code, worked out from its number and suit (not its index)."""
    if card.number is CardNumber.JOKER:
        return "JK"
    return _NUMBER_CODES[card.number] + _SUIT_CODES[card.suit]


REF_CARD: dict[Card, RefCard] = {Card.parse(ref_code(c)): c for c in defined_cards}
REF_SUIT: dict[Suit, SelectableSuit] = {s: SelectableSuit[s.name] for s in Suit}

Key = tuple[object, ...]


def ref_key(action: object) -> Key:
    """A reference action in a common, hashable form (cards as codes)."""
    if isinstance(action, RefBid):
        return ("bid", int(action.amount))
    if isinstance(action, RefUnpass):
        return ("unpass",)
    if isinstance(action, RefSelectTrump):
        return ("trump", action.suit.name)
    if isinstance(action, RefDiscard):
        return ("discard", tuple(ref_code(c) for c in action.cards))
    if isinstance(action, RefPlay):
        return ("play", ref_code(action.card))
    raise AssertionError(f"unknown reference action {action!r}")


def our_key(action: Action) -> Key:
    """One of our actions in the same form as ``ref_key``."""
    if isinstance(action, Bid):
        return ("bid", action.amount)
    if isinstance(action, Unpass):
        return ("unpass",)
    if isinstance(action, SelectTrump):
        return ("trump", action.suit.name)
    if isinstance(action, Discard):
        return ("discard", tuple(c.code for c in action.cards))
    if isinstance(action, Play):
        return ("play", action.card.code)
    raise AssertionError(f"unknown action {action!r}")


def to_ref(identifier: str, action: Action) -> object:
    """Our action as the reference's, sent by ``identifier``."""
    if isinstance(action, Bid):
        return RefBid(identifier, BidAmount(action.amount))
    if isinstance(action, Unpass):
        return RefUnpass(identifier)
    if isinstance(action, SelectTrump):
        return RefSelectTrump(identifier, REF_SUIT[action.suit])
    if isinstance(action, Discard):
        return RefDiscard(identifier, [REF_CARD[c] for c in action.cards])
    if isinstance(action, Play):
        return RefPlay(identifier, REF_CARD[action.card])
    raise AssertionError(f"unknown action {action!r}")


STATUS = {
    Phase.BIDDING: RoundStatus.BIDDING,
    Phase.TRUMP: RoundStatus.TRUMP_SELECTION,
    Phase.DISCARD: RoundStatus.DISCARD,
    Phase.TRICKS: RoundStatus.TRICKS,
    Phase.GAME_OVER: GameStatus.WON,
}


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


# ------------------------------------------------------------------- lockstep


class Divergence(AssertionError):
    pass


@dataclass
class Lockstep:
    """Our engine and the reference, driven together by one seeded random policy."""

    n: int
    seed: str
    ids: list[str] = field(init=False)
    ref: RefGame = field(init=False)
    ours: Game = field(init=False)
    rng: random.Random = field(init=False)
    step: int = 0
    log: list[str] = field(default_factory=list)
    stats: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.ids = names(self.n)
        self.ref = RefGame([HumanPlayer(i) for i in self.ids], seed=self.seed)
        self.ours = Game(self.ids, seed=self.seed)
        self.rng = random.Random(f"policy|{self.seed}")

    # ---------------------------------------------------------------- reporting

    def where(self) -> str:
        return (
            f"[seed={self.seed!r} players={self.n} step={self.step} round={self.ours.round} "
            f"phase={self.ours.phase.value}; last actions: {self.log[-6:]}]"
        )

    def expect(self, condition: bool, what: str, expected: object, got: object) -> None:
        if not condition:
            raise Divergence(f"{what}: reference {expected!r}, ours {got!r} {self.where()}")

    # --------------------------------------------------------------- comparisons

    def compare(self) -> None:
        ref, ours = self.ref, self.ours
        self.expect(ref.status == STATUS[ours.phase], "status", ref.status, STATUS[ours.phase])
        self.expect(len(ref.rounds) == ours.round, "rounds", len(ref.rounds), ours.round)
        rnd = ref.active_round
        dealer = self.ids[ours.dealer]
        self.expect(rnd.dealer.identifier == dealer, "dealer", rnd.dealer.identifier, dealer)
        ref_hands = [[ref_code(c) for c in p.hand] for p in rnd.players]
        our_hands = [[c.code for c in h] for h in ours.hands]
        self.expect(ref_hands == our_hands, "hands", ref_hands, our_hands)
        if ours.is_over:
            self.expect(ours.to_act is None, "to act after the end", None, ours.to_act)
            return
        ref_active = rnd.active_player.identifier
        our_active = self.ids[ours.to_act] if ours.to_act is not None else None
        self.expect(ref_active == our_active, "player to act", ref_active, our_active)
        if ours.phase is Phase.BIDDING:
            ref_pre = {p.identifier for p in rnd.players if RoundRole.PRE_PASSED in p.roles}
            our_pre = {self.ids[s] for s in range(self.n) if ours.pre_passed[s]}
            self.expect(ref_pre == our_pre, "pre-passed seats", ref_pre, our_pre)
            ref_in = {p.identifier for p in rnd.bidders}
            our_in = {self.ids[s] for s in range(self.n) if not ours.passed[s]}
            self.expect(ref_in == our_in, "seats still bidding", ref_in, our_in)
            high = int(rnd.active_bid) if rnd.active_bid is not None else 0
            self.expect(high == ours.high_bid, "high bid", high, ours.high_bid)
        ref_legal = [ref_key(a) for a in ref.game_state_for(ref_active).available_actions]
        our_legal = [our_key(a) for a in ours.legal_actions(ours.to_act)]  # type: ignore[arg-type]
        self.expect(len(set(our_legal)) == len(our_legal), "repeated legal actions", [], our_legal)
        self.expect(
            set(ref_legal) == set(our_legal) and len(ref_legal) == len(our_legal),
            f"legal actions of {ref_active}",
            sorted(ref_legal, key=repr),
            sorted(our_legal, key=repr),
        )

    def expect_round(self, number: int, status: RoundStatus) -> Any:
        """The reference's round ``number``, which must have ended with ``status``."""
        ref_round = self.ref.rounds[number - 1]
        self.expect(ref_round.status == status, f"round {number} status", ref_round.status, status)
        return ref_round

    def compare_round_end(self, events: list[object]) -> None:
        """After an action that ended a round: that round's score entries and totals."""
        for event in events:
            if isinstance(event, RoundScored):
                ref_round = self.expect_round(event.round, RoundStatus.COMPLETED)
                ref_entries = [(s.identifier, int(s.value)) for s in ref_round.scores]
                our_entries = [(self.ids[s], v) for s, v in event.entries]
                self.expect(
                    ref_entries == our_entries,
                    f"round {event.round} score entries",
                    ref_entries,
                    our_entries,
                )
                self.stats["rounds played"] += 1
                if len(event.entries) == 1 and event.entries[0][1] == MOON:
                    self.stats["moons made"] += 1
            elif isinstance(event, PassedOut):
                self.expect_round(event.round, RoundStatus.COMPLETED_NO_BIDDERS)
                self.stats["rounds passed out"] += 1
        ref_scores = self.ref.scores
        our_scores = dict(zip(self.ids, self.ours.scores, strict=True))
        self.expect(ref_scores == our_scores, "scores after the round", ref_scores, our_scores)

    # ------------------------------------------------------------------ actions

    def apply(self, seat: int, action: Action) -> list[object]:
        """Apply to both engines; both must accept it."""
        ident = self.ids[seat]
        self.log.append(f"{ident}:{our_key(action)}")
        self.step += 1
        round_before = self.ours.round
        try:
            events: list[object] = list(self.ours.apply(seat, action))
        except IllegalActionError as exc:
            raise Divergence(
                f"ours refused {action!r} from {ident} ({exc.code}: {exc}); "
                f"the reference offered it {self.where()}"
            ) from exc
        try:
            self.ref.act(to_ref(ident, action))  # type: ignore[arg-type]
        except HundredAndTenError as exc:
            raise Divergence(
                f"the reference refused {action!r} from {ident} ({exc}); ours accepted it "
                f"{self.where()}"
            ) from exc
        if self.ours.round != round_before or self.ours.is_over:
            self.compare_round_end(events)
        return events

    def refuse(self, seat: int, action: Action, why: str) -> None:
        """Both engines must refuse ``action`` (and ours must change nothing)."""
        ident = self.ids[seat]
        history = len(self.ours.history)
        snapshot = (self.ours.phase, self.ours.to_act, [list(h) for h in self.ours.hands])
        try:
            self.ours.apply(seat, action)
        except IllegalActionError:
            pass
        else:
            raise Divergence(f"ours accepted {why}: {action!r} from {ident} {self.where()}")
        try:
            self.ref.act(to_ref(ident, action))  # type: ignore[arg-type]
        except HundredAndTenError:
            pass
        else:
            raise Divergence(
                f"the reference accepted {why}: {action!r} from {ident} {self.where()}"
            )
        after = (self.ours.phase, self.ours.to_act, [list(h) for h in self.ours.hands])
        self.expect(
            len(self.ours.history) == history and after == snapshot,
            f"state after a refused {why}",
            snapshot,
            after,
        )
        self.stats["refused"] += 1

    # ------------------------------------------------------------------- policy

    def choose(self, legal: tuple[Action, ...]) -> Action:
        rng, ours = self.rng, self.ours
        if ours.phase is Phase.BIDDING:
            amounts = [a.amount for a in legal if isinstance(a, Bid)]
            raising = [a for a in amounts if a not in (PASS, MOON)]
            roll = rng.random()
            if MOON in amounts and roll < 0.03:
                amount = MOON
            elif raising and roll < 0.40:
                # mostly the lowest bid open, sometimes any
                amount = raising[0] if rng.random() < 0.7 else rng.choice(raising)
            else:
                amount = PASS
            if amount and amount == ours.high_bid:
                self.stats["dealer holds"] += 1
            if amount == MOON:
                self.stats["moon bids"] += 1
            return Bid(amount)
        if ours.phase is Phase.DISCARD:
            hand = ours.hands[ours.to_act]  # type: ignore[index]
            keep = rng.random()
            return Discard(tuple(c for c in hand if rng.random() > keep))
        return rng.choice(legal)

    def inject_prepass(self) -> None:
        """During bidding, sometimes a seat that is not to act pre-passes or unpasses."""
        ours = self.ours
        others = [s for s in range(self.n) if s != ours.to_act and (ours.legal_actions(s))]
        while others and self.rng.random() < 0.3:
            seat = self.rng.choice(others)
            (action,) = ours.legal_actions(seat)
            expected = Unpass() if ours.pre_passed[seat] else Bid(PASS)
            self.expect(action == expected, f"out-of-turn action of p{seat}", expected, action)
            self.stats["unpasses" if isinstance(action, Unpass) else "pre-passes"] += 1
            self.apply(seat, action)
            self.compare()

    def try_illegal(self) -> None:
        """Sometimes try an action both engines must refuse (never a planned deviation)."""
        ours, rng = self.ours, self.rng
        if rng.random() > 0.05:
            return
        seat = ours.to_act
        assert seat is not None
        other = rng.choice([s for s in range(self.n) if s != seat])
        hand = ours.hands[seat]
        outside = [c for c in ALL_CARDS if c not in hand]
        if ours.phase is Phase.BIDDING:
            choice = rng.randrange(3)
            if choice == 0:
                self.refuse(other, Bid(rng.choice((15, 30, MOON))), "bid out of turn")
            elif choice == 1:
                illegal = [
                    a for a in (15, 20, 25, 30, MOON) if Bid(a) not in ours.legal_actions(seat)
                ]
                if illegal:
                    self.refuse(seat, Bid(rng.choice(illegal)), "bid below the high bid")
            else:
                self.refuse(seat, Play(hand[0]), "play while bidding")
        elif ours.phase is Phase.TRUMP:
            if rng.random() < 0.5:
                self.refuse(other, SelectTrump(rng.choice(list(Suit))), "trump from a non-bidder")
            else:
                self.refuse(seat, Bid(15), "bid while naming trump")
        elif ours.phase is Phase.DISCARD:
            if rng.random() < 0.5:
                self.refuse(other, Discard(tuple(ours.hands[other][:1])), "discard out of turn")
            else:
                self.refuse(seat, Discard((rng.choice(outside),)), "discard not in hand")
        elif ours.phase is Phase.TRICKS:
            choice = rng.randrange(3)
            if choice == 0 and ours.hands[other]:
                self.refuse(other, Play(ours.hands[other][0]), "play out of turn")
            elif choice == 1:
                self.refuse(seat, Play(rng.choice(outside)), "play not in hand")
            else:
                legal = ours.legal_actions(seat)
                bad = [c for c in hand if Play(c) not in legal]
                if bad:
                    self.refuse(seat, Play(rng.choice(bad)), "no trump on a bleeding trick")
                    self.stats["bleeding refusals"] += 1

    def run(self) -> bool:
        """Play to the end (or ``MAX_ROUNDS``); True if the game ended."""
        ours = self.ours
        self.compare()
        while not ours.is_over and ours.round <= MAX_ROUNDS:
            if ours.phase is Phase.BIDDING:
                self.inject_prepass()
            self.try_illegal()
            seat = ours.to_act
            assert seat is not None
            dealer_before = ours.dealer
            events = self.apply(seat, self.choose(ours.legal_actions(seat)))
            if any(isinstance(e, PassedOut) for e in events):
                if ours.dealer == dealer_before:
                    self.stats["dealer deals again after a pass-out"] += 1
                else:
                    self.stats["deal passes on after three pass-outs"] += 1
            self.compare()
        if not ours.is_over:
            self.stats["unfinished"] += 1
            return False
        winner = self.ref.winner
        self.expect(winner is not None, "winner", None, self.ids[ours.winner])  # type: ignore[index]
        assert winner is not None
        self.expect(
            winner.identifier == self.ids[ours.winner],  # type: ignore[index]
            "winner",
            winner.identifier,
            self.ids[ours.winner],  # type: ignore[index]
        )
        self.expect(len(self.ref.rounds) == ours.round, "rounds", len(self.ref.rounds), ours.round)
        ref_by_round = [tuple(s[i] for i in self.ids) for s in self.ref.scores_by_round[1:]]
        self.expect(
            ref_by_round == ours.round_results,
            "totals after each round",
            ref_by_round,
            ours.round_results,
        )
        self.stats["finished"] += 1
        return True


# ---------------------------------------------------------------------- tests


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lockstep_random_games(players: int) -> None:
    """``LOCKSTEP_GAMES`` random games in lockstep; every divergence is collected."""
    failures: list[str] = []
    stats: Counter[str] = Counter()
    for i in range(LOCKSTEP_GAMES):
        game = Lockstep(players, f"{MASTER_SEED}|lockstep|{players}|{i}")
        try:
            game.run()
        except AssertionError as exc:
            failures.append(str(exc))
            stats["diverged"] += 1
        stats.update(game.stats)
    assert not failures, f"{len(failures)} of {LOCKSTEP_GAMES} games diverged:\n" + "\n".join(
        failures[:5]
    )
    assert stats["finished"] >= 0.9 * LOCKSTEP_GAMES, f"too many unfinished games: {stats}"
    # the policy must reach the interesting corners of the rules
    for corner in (
        "pre-passes",
        "unpasses",
        "dealer holds",
        "moon bids",
        "rounds passed out",
        "dealer deals again after a pass-out",
        "refused",
        "bleeding refusals",
    ):
        assert stats[corner] > 0, f"no {corner!r} in {players}-player games: {stats}"
    if players == 2:
        assert stats["deal passes on after three pass-outs"] > 0, stats
        assert stats["moons made"] > 0, stats


def ref_moves(ref: RefGame) -> list[tuple[str, Key]]:
    return [(m.identifier, ref_key(m)) for m in ref.moves]


def our_moves(game: Game) -> list[tuple[str, Key]]:
    return [
        (game.players[entry[0]], our_key(entry[1]))
        for entry in game.history
        if isinstance(entry, tuple)
    ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_naive_bots_play_the_same_games(players: int) -> None:
    """The reference's naive player at every seat vs our ``NaiveBot``: same games."""
    bot = NaiveBot()
    ids = names(players)
    failures: list[str] = []
    for i in range(NAIVE_GAMES):
        seed = f"{MASTER_SEED}|naive|{players}|{i}"
        ref = RefGame([NaiveAutomatedPlayer(x) for x in ids], seed=seed)
        ours = Game(ids, seed=seed)
        while not ours.is_over and ours.round <= 500:
            seat = ours.to_act
            assert seat is not None
            ours.apply(seat, bot.act(ours.view_for(seat)))
        where = f"[seed={seed!r} players={players}]"
        mine, theirs = our_moves(ours), ref_moves(ref)
        if mine != theirs:
            first = next(
                (k for k, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
                min(len(mine), len(theirs)),
            )
            failures.append(
                f"moves differ from move {first}: reference {theirs[first : first + 3]}, "
                f"ours {mine[first : first + 3]} {where}"
            )
            continue
        ref_winner = ref.winner.identifier if ref.winner else None
        our_winner = ids[ours.winner] if ours.winner is not None else None
        ref_scores = ref.scores
        our_scores = dict(zip(ids, ours.scores, strict=True))
        ref_by_round = [tuple(s[x] for x in ids) for s in ref.scores_by_round[1:]]
        got = (ref.status, ref_winner, len(ref.rounds), ref_scores, ref_by_round)
        want = (STATUS[ours.phase], our_winner, ours.round, our_scores, ours.round_results)
        if got != want:
            failures.append(
                f"(status, winner, rounds, scores, totals by round): reference {got}, "
                f"ours {want} {where}"
            )
    assert not failures, f"{len(failures)} of {NAIVE_GAMES} games differ:\n" + "\n".join(
        failures[:5]
    )


# ------------------------------------------------ planned deviations, pinned


def bid_to_trump(lock: Lockstep) -> None:
    """Four players, dealer p0: p1 bids 15 and everyone else passes."""
    lock.apply(1, Bid(15))
    for seat in (2, 3, 0):
        lock.apply(seat, Bid(PASS))
    lock.compare()
    assert lock.ours.phase is Phase.TRUMP
    assert lock.ours.to_act == 1


def test_deviation_duplicate_player_names() -> None:
    ref = RefGame([HumanPlayer("a"), HumanPlayer("a")], seed="dupes")
    assert ref.status == RoundStatus.BIDDING  # the reference takes them
    with pytest.raises(IllegalActionError) as info:
        Game(["a", "a"], seed="dupes")
    assert info.value.code == "duplicate_name"


def test_deviation_discard_naming_a_card_twice() -> None:
    lock = Lockstep(4, f"{MASTER_SEED}|deviation|discard")
    bid_to_trump(lock)
    lock.apply(1, SelectTrump(Suit.SPADES))
    card = lock.ours.hands[1][0]
    # the reference accepts it: one card leaves the hand, two are drawn
    lock.ref.act(RefDiscard("p1", [REF_CARD[card], REF_CARD[card]]))
    assert len(lock.ref.active_round.players[1].hand) == 6
    before = [list(h) for h in lock.ours.hands]
    with pytest.raises(IllegalActionError) as info:
        lock.ours.apply(1, Discard((card, card)))
    assert info.value.code == "duplicate_card"
    assert lock.ours.hands == before
    assert lock.ours.to_act == 1


def test_deviation_refused_action_changes_nothing() -> None:
    """The reference half-applies a discard that overdraws the deck; ours is all-or-nothing."""
    lock = Lockstep(4, f"{MASTER_SEED}|deviation|overdraw")
    bid_to_trump(lock)
    lock.apply(1, SelectTrump(Suit.SPADES))
    ref_players = lock.ref.active_round.players
    first = ref_players[1].hand[0]
    lock.ref.act(RefDiscard("p1", [first] * 30))  # 4 kept + 30 drawn: 3 cards left
    second = ref_players[2].hand[0]
    with pytest.raises(HundredAndTenError, match="overdrawn"):
        lock.ref.act(RefDiscard("p2", [second] * 10))
    assert len(ref_players[2].hand) == 4  # raised, yet the hand lost its card
    before = [list(h) for h in lock.ours.hands]
    card = lock.ours.hands[1][0]
    with pytest.raises(IllegalActionError):
        lock.ours.apply(1, Discard((card,) * 30))
    assert lock.ours.hands == before


def test_deviation_prepass_outside_bidding() -> None:
    lock = Lockstep(4, f"{MASTER_SEED}|deviation|prepass")
    bid_to_trump(lock)
    for seat in (1, 2):  # the bidder, and a seat that is not to act
        lock.ref.act(RefBid(f"p{seat}", BidAmount.PASS))  # silently recorded
        assert RoundRole.PRE_PASSED in lock.ref.active_round.players[seat].roles
        with pytest.raises(IllegalActionError) as info:
            lock.ours.apply(seat, Bid(PASS))
        assert info.value.code == "wrong_phase"
        assert not lock.ours.pre_passed[seat]
        assert lock.ours.phase is Phase.TRUMP
    # an unpass outside bidding: ignored there, refused here
    lock.ref.act(RefUnpass("p3"))
    with pytest.raises(IllegalActionError) as info:
        lock.ours.apply(3, Unpass())
    assert info.value.code == "wrong_phase"


def test_deviation_prepass_twice_or_after_passing() -> None:
    lock = Lockstep(4, f"{MASTER_SEED}|deviation|passed")
    lock.apply(1, Bid(PASS))  # p1 passes in turn; p2 is to act
    lock.apply(3, Bid(PASS))  # p3 pre-passes
    lock.compare()
    for seat in (1, 3):
        lock.ref.act(RefBid(f"p{seat}", BidAmount.PASS))  # accepted
        with pytest.raises(IllegalActionError) as info:
            lock.ours.apply(seat, Bid(PASS))
        assert info.value.code == "already_passed"
    # the reference now calls p1 pre-passed although p1 has passed for good
    roles = [RoundRole.PRE_PASSED in p.roles for p in lock.ref.active_round.players]
    assert roles == [False, True, False, True]
    assert lock.ours.pre_passed == [False, False, False, True]
    # an unpass without a pre-pass: ignored there, refused here
    lock.ref.act(RefUnpass("p0"))
    with pytest.raises(IllegalActionError) as info:
        lock.ours.apply(0, Unpass())
    assert info.value.code == "not_pre_passed"
    # the stray role changes nothing that follows: p2 bids, p3's pre-pass takes effect
    lock.apply(2, Bid(15))
    assert lock.ref.active_round.active_player.identifier == "p0"
    assert lock.ours.to_act == 0
    lock.apply(0, Bid(PASS))
    assert lock.ref.status == RoundStatus.TRUMP_SELECTION
    assert lock.ours.phase is Phase.TRUMP
    assert lock.ours.bidder == 2
    assert lock.ref.active_round.active_bidder.identifier == "p2"


def test_trick_winner_matches_reference() -> None:
    """Random tricks of 2 to 4 cards under each trump: the same winning play."""
    rng = random.Random(f"{MASTER_SEED}|tricks")
    for k in range(20_000):
        trump = rng.choice(list(Suit))
        cards = rng.sample(ALL_CARDS, rng.randint(2, 4))
        plays = list(enumerate(cards))
        ref = RefTrick(REF_SUIT[trump], [RefPlay(f"p{s}", REF_CARD[c]) for s, c in plays])
        expected = ref.winning_play
        assert expected is not None
        got = trick_winner(plays, trump)
        assert (expected.identifier, ref_code(expected.card)) == (f"p{got[0]}", got[1].code), (
            f"trick {k}: trump {trump.name}, plays {[c.code for c in cards]}"
        )


def test_lockstep_run_time_is_bounded() -> None:
    """One lockstep game of each size stays cheap (the suite runs hundreds)."""
    start = time.perf_counter()
    for players in (2, 3, 4):
        assert Lockstep(players, f"{MASTER_SEED}|timing|{players}").run()
    assert time.perf_counter() - start < 10
