"""``games.hundredandten_compat``: the reference package's API, checked against it.

The README of ``hundredandten`` 3.0.2 (../shared/seeds/hundredandten-package-readme.txt)
shows how code drives a game. The same code runs here twice, once on the reference and
once on ``games.hundredandten_compat``, with only the names it imports changed, and must see
the same game: status, active player, hands, bids and scores after every call, and the
same winner. Also checked: errors are ``HundredAndTenError`` and change nothing; the
naive player, called directly with a ``GameState``, picks what the reference's picks;
and ``game_state_for`` shows the same ``GameState`` (cards compared as codes) at many
points of random games.

Note: the README's own import line (``from hundredandten import HundredAndTen, Bid,
BidAmount``) fails on the real 3.0.2, whose ``__init__`` exports only ``HundredAndTen``;
the reference names are therefore gathered from its submodules below.

Every failure message carries the seed that reproduces it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import hundredandten.actions as ref_actions
import hundredandten.constants as ref_constants
import hundredandten.player as ref_player
import pytest
from hundredandten import HundredAndTen as RefHundredAndTen
from hundredandten.deck import Card as RefCard
from hundredandten.deck import defined_cards
from hundredandten.hundred_and_ten_error import HundredAndTenError as RefError
from hundredandten.state import GameState as RefGameState

import tests.support.compat as compat
from hundred_server.games.kit.cards import ALL_CARDS, Card

MASTER_SEED = "hundred-and-ten-compat-2024"

#: The reference package under the names the README uses.
REF = SimpleNamespace(
    HundredAndTen=RefHundredAndTen,
    HumanPlayer=ref_player.HumanPlayer,
    AutomatedPlayer=ref_player.AutomatedPlayer,
    NaiveAutomatedPlayer=ref_player.NaiveAutomatedPlayer,
    Bid=ref_actions.Bid,
    Unpass=ref_actions.Unpass,
    SelectTrump=ref_actions.SelectTrump,
    Discard=ref_actions.Discard,
    Play=ref_actions.Play,
    BidAmount=ref_constants.BidAmount,
    SelectableSuit=ref_constants.SelectableSuit,
    GameStatus=ref_constants.GameStatus,
    RoundStatus=ref_constants.RoundStatus,
    RoundRole=ref_constants.RoundRole,
    HundredAndTenError=RefError,
    GameState=RefGameState,
)
#: Ours: one module, as the README's import line wants.
OURS = compat
APIS = pytest.mark.parametrize("api", [REF, OURS], ids=["reference", "compat"])
SUIT_NAMES = ("HEARTS", "CLUBS", "SPADES", "DIAMONDS")

# ---------------------------------------------------------------- conversions

_NUMBER_CODES = {
    "TWO": "2",
    "THREE": "3",
    "FOUR": "4",
    "FIVE": "5",
    "SIX": "6",
    "SEVEN": "7",
    "EIGHT": "8",
    "NINE": "9",
    "TEN": "T",
    "JACK": "J",
    "QUEEN": "Q",
    "KING": "K",
    "ACE": "A",
}


def code(card: Any) -> str:
    """A card's code, whichever package made it (the reference's from number and suit)."""
    if isinstance(card, RefCard):
        if card.number.name == "JOKER":
            return "JK"
        return _NUMBER_CODES[card.number.name] + card.suit.name[0]
    if isinstance(card, compat.Card):
        return card.engine_card.code
    assert isinstance(card, Card), f"not a card: {card!r}"
    return card.code


REF_BY_CODE = {code(c): c for c in defined_cards}
OURS_BY_CODE = {code(c): c for c in compat.defined_cards}


def card_of(api: Any, card_code: str) -> Any:
    return REF_BY_CODE[card_code] if api is REF else OURS_BY_CODE[card_code]


def action_key(action: Any) -> tuple[Any, ...]:
    """(kind, identifier, detail) for an action of either package."""
    kind = type(action).__name__
    if kind == "DetailedDiscard":  # how the reference records a discard in ``moves``
        kind = "Discard"
    detail: Any = None
    if kind == "Bid":
        detail = int(action.amount)
    elif kind == "SelectTrump":
        detail = action.suit.name
    elif kind == "Discard":
        detail = tuple(code(c) for c in action.cards)
    elif kind == "Play":
        detail = code(action.card)
    else:
        assert kind == "Unpass", f"unknown action {action!r}"
    return (kind, action.identifier, detail)


def build(api: Any, key: tuple[Any, ...]) -> Any:
    """The action ``key`` (see ``action_key``) in ``api``'s classes."""
    kind, ident, detail = key
    if kind == "Bid":
        return api.Bid(ident, api.BidAmount(detail))
    if kind == "Unpass":
        return api.Unpass(ident)
    if kind == "SelectTrump":
        return api.SelectTrump(ident, getattr(api.SelectableSuit, detail))
    if kind == "Discard":
        return api.Discard(ident, [card_of(api, c) for c in detail])
    assert kind == "Play"
    return api.Play(ident, card_of(api, detail))


def snapshot(api: Any, game: Any) -> tuple[Any, ...]:
    """What the README's fields show of a game (plus the round's public fields)."""
    status = game.status
    rnd = game.active_round
    won = status == api.GameStatus.WON
    return (
        type(status).__name__,
        status.name,
        None if won else rnd.active_player.identifier,
        dict(game.scores),
        None if game.winner is None else game.winner.identifier,
        rnd.status.name,
        rnd.dealer.identifier,
        [p.identifier for p in rnd.players],
        [[code(c) for c in p.hand] for p in rnd.players],
        [sorted(r.name for r in p.roles) for p in rnd.players],
        [(b.identifier, int(b.amount)) for b in rnd.bids],
        None if rnd.active_bid is None else int(rnd.active_bid),
        None if rnd.active_bidder is None else rnd.active_bidder.identifier,
        None if rnd.trump is None else rnd.trump.name,
    )


def state_form(state: Any) -> dict[str, Any]:
    """A ``GameState`` of either package in a comparable form (cards as codes)."""
    table, bidding, tricks = state.table, state.bidding, state.tricks

    def plays(ps: Any) -> list[tuple[int, str]]:
        return [(p.seat, code(p.card)) for p in ps]

    return {
        "status": state.status.name,
        "table": (table.num_players, table.dealer_seat, table.bidder_seat, tuple(table.scores)),
        "hand": [code(c) for c in state.hand],
        "bid_history": [(b.seat, int(b.amount)) for b in bidding.bid_history],
        "active_bid": None if bidding.active_bid is None else int(bidding.active_bid),
        "trump": None if bidding.trump is None else bidding.trump.name,
        "completed_tricks": [(plays(t.plays), t.winner_seat) for t in tricks.completed_tricks],
        "current_trick_plays": plays(tricks.current_trick_plays),
        "cards": [
            (code(k.card), type(k.status).__name__, tuple(vars(k.status).values()))
            for k in state.cards
        ],
        "available_actions (as sets)": sorted(
            {action_key(a) for a in state.available_actions}, key=repr
        ),
        "properties": (
            state.is_bidder,
            state.is_dealer,
            state.num_players,
            state.dealer_seat,
            state.bidder_seat,
            tuple(state.scores),
            len(state.bid_history),
            None if state.active_bid is None else int(state.active_bid),
            None if state.trump is None else state.trump.name,
            len(state.completed_tricks),
            len(state.current_trick_plays),
            [action_key(a) for a in state.available_bids],
            [action_key(a) for a in state.available_plays],
            len(state.available_discards),
            sorted(action_key(a) for a in state.available_trump_selections),
        ),
    }


# ------------------------------------------------------------ README sessions


def readme_players(api: Any, extra: type | None = None) -> list[Any]:
    second = extra("player_2") if extra is not None else api.HumanPlayer("player_2")
    return [
        api.HumanPlayer("player_1"),
        second,
        api.HumanPlayer("player_3"),
        api.NaiveAutomatedPlayer("player_4"),
    ]


def readme_session(
    api: Any, seed: str, extra: type | None = None, max_calls: int = 3000
) -> list[Any]:
    """Drive a game with README-style calls; the trace of what is seen after each call.

    ``extra``: a class to seat as ``player_2`` (the README's custom automated player).
    Choices come from a random generator seeded by ``seed``, and read the game only
    through README fields, so both packages get the same calls if they agree.
    """
    rng = random.Random(f"session|{seed}")
    game = api.HundredAndTen(readme_players(api, extra), seed=seed)
    trace: list[Any] = [("start", snapshot(api, game))]

    def act(action: Any) -> None:
        game.act(action)
        trace.append((action_key(action), snapshot(api, game)))

    def refused(action: Any) -> None:
        before = snapshot(api, game)
        with pytest.raises(api.HundredAndTenError):
            game.act(action)
        assert snapshot(api, game) == before, f"a refused {action!r} changed the game ({seed})"
        trace.append(("refused", action_key(action)))

    calls = 0
    while game.status != api.GameStatus.WON and calls < max_calls:
        calls += 1
        active = game.active_round.active_player.identifier
        status = game.status
        if status == api.RoundStatus.BIDDING:
            rnd = game.active_round
            passed = {b.identifier for b in rnd.bids if not b}
            pre = {p.identifier for p in rnd.players if api.RoundRole.PRE_PASSED in p.roles}
            others = [p.identifier for p in rnd.players if p.identifier not in (active, *passed)]
            if others and rng.random() < 0.3:
                who = rng.choice(others)
                if who in pre:
                    act(api.Unpass(who))
                else:
                    act(api.Bid(who, api.BidAmount.PASS))  # a pre-pass
                continue
            if rng.random() < 0.05 and others:
                refused(api.Bid(rng.choice(others), api.BidAmount.FIFTEEN))
            bids = [int(b.amount) for b in game.game_state_for(active).available_bids]
            roll = rng.random()
            if roll < 0.55 or len(bids) == 1:
                amount = api.BidAmount.PASS
            elif roll < 0.58 and 60 in bids:
                amount = api.BidAmount.SHOOT_THE_MOON
            else:
                amount = api.BidAmount(bids[1])
            act(api.Bid(active, amount))
        elif status == api.RoundStatus.TRUMP_SELECTION:
            act(api.SelectTrump(active, getattr(api.SelectableSuit, rng.choice(SUIT_NAMES))))
        elif status == api.RoundStatus.DISCARD:
            start = rng.randrange(6)
            stop = rng.randrange(start, 6)
            act(api.Discard(active, game.active_round.active_player.hand[start:stop]))
        elif status == api.RoundStatus.TRICKS:
            try:
                game.act(api.Play(active, game.active_round.active_player.hand[0]))
                trace.append(("play hand[0]", snapshot(api, game)))
            except api.HundredAndTenError:  # a trick bled and hand[0] is no trump
                trace.append(("hand[0] refused", snapshot(api, game)))
                act(game.game_state_for(active).available_plays[0])
        else:
            raise AssertionError(f"unexpected status {status} ({seed})")
    trace.append(("end", game.status.name, game.winner and game.winner.identifier))
    return trace


def compare_traces(seed: str, ref: list[Any], ours: list[Any]) -> None:
    for k, (a, b) in enumerate(zip(ref, ours, strict=False)):
        assert a == b, (
            f"seed {seed!r}, call {k}: reference {a!r}\n ours {b!r}\n before: {ref[k - 1]!r}"
        )
    assert len(ref) == len(ours), f"seed {seed!r}: {len(ref)} calls vs {len(ours)}"


@pytest.mark.parametrize("k", range(12))
def test_readme_session_matches_reference(k: int) -> None:
    seed = f"{MASTER_SEED}|readme|{k}"
    ref = readme_session(REF, seed)
    ours = readme_session(OURS, seed)
    assert ref[-1][1] == "WON", f"seed {seed!r}: the session did not finish"
    compare_traces(seed, ref, ours)


def make_smart_player(api: Any) -> type:
    """The README's custom player, written against ``api``."""

    class MySmartPlayer(api.AutomatedPlayer):  # type: ignore[misc,name-defined]
        def act(self, game_state: Any) -> Any:
            # logic to determine the best action based on game_state
            # for example, always play the first available card during tricks
            if game_state.available_plays:
                return game_state.available_plays[0]
            # return None or another action for other phases
            return None

    return MySmartPlayer


@pytest.mark.parametrize("k", range(6))
def test_readme_custom_automated_player(k: int) -> None:
    """``player_2`` is the README's ``MySmartPlayer``: it plays by itself, and the test
    acts for it in the other phases (its ``act`` returns None there)."""
    seed = f"{MASTER_SEED}|smart|{k}"
    ref = readme_session(REF, seed, make_smart_player(REF))
    ours = readme_session(OURS, seed, make_smart_player(OURS))
    assert ref[-1][1] == "WON"
    compare_traces(seed, ref, ours)
    seen = [(entry[1][1], entry[1][2]) for entry in ours[1:-1] if entry[0] != "refused"]
    # it never waits to play (it plays by itself) but waits in the other phases
    assert ("TRICKS", "player_2") not in seen
    assert ("BIDDING", "player_2") in seen
    assert ("TRICKS", "player_1") in seen


def test_readme_first_calls() -> None:
    """The README's examples, one by one, on both packages."""
    seed = f"{MASTER_SEED}|first-calls"
    seen: list[Any] = []
    for api in (REF, OURS):
        game = api.HundredAndTen(readme_players(api), seed=seed)
        log: list[Any] = [snapshot(api, game)]
        assert game.status == api.RoundStatus.BIDDING
        assert game.winner is None
        assert game.scores == {f"player_{i}": 0 for i in range(1, 5)}
        assert game.active_round.active_player.identifier == "player_2"
        assert game.active_player.identifier == "player_2"
        # pre-pass, then take it back
        game.act(api.Bid("player_3", api.BidAmount.PASS))
        assert api.RoundRole.PRE_PASSED in game.active_round.players[2].roles
        log.append(snapshot(api, game))
        game.act(api.Unpass("player_3"))
        assert api.RoundRole.PRE_PASSED not in game.active_round.players[2].roles
        log.append(snapshot(api, game))
        game.act(api.Bid("player_3", api.BidAmount.PASS))
        # the active player bids: player_3's pre-pass takes effect, player_4 (naive) acts
        game.act(api.Bid(game.active_round.active_player.identifier, api.BidAmount.FIFTEEN))
        log.append(snapshot(api, game))
        while game.status == api.RoundStatus.BIDDING:
            game.act(api.Bid(game.active_round.active_player.identifier, api.BidAmount.PASS))
            log.append(snapshot(api, game))
        if game.status == api.RoundStatus.TRUMP_SELECTION:
            bidder = game.active_round.active_bidder.identifier
            game.act(api.SelectTrump(bidder, api.SelectableSuit.CLUBS))
            assert game.status == api.RoundStatus.DISCARD
            log.append(snapshot(api, game))
            while game.status == api.RoundStatus.DISCARD:
                active = game.active_round.active_player.identifier
                game.act(api.Discard(active, game.active_round.active_player.hand[1:3]))
                log.append(snapshot(api, game))
            assert game.status == api.RoundStatus.TRICKS
            state = game.game_state_for(game.active_round.active_player.identifier)
            game.act(state.available_plays[0])
            log.append(snapshot(api, game))
        seen.append(log)
    compare_traces(seed, seen[0], seen[1])


@APIS
def test_readme_game_without_arguments_is_refused(api: Any) -> None:
    """``HundredAndTen()`` as the README writes it: no players, which both refuse."""
    with pytest.raises(api.HundredAndTenError):
        api.HundredAndTen()
    with pytest.raises(api.HundredAndTenError):
        api.HundredAndTen([api.HumanPlayer("solo")])
    with pytest.raises(api.HundredAndTenError):
        api.HundredAndTen([api.HumanPlayer(f"p{i}") for i in range(5)])


@APIS
def test_unseeded_game_starts(api: Any) -> None:
    game = api.HundredAndTen([api.HumanPlayer("a"), api.HumanPlayer("b")])
    assert isinstance(game.seed, str)
    assert game.status == api.RoundStatus.BIDDING
    assert all(len(p.hand) == 5 for p in game.active_round.players)


def test_automated_players_only() -> None:
    """Naive players at every seat: the game runs to the end inside the constructor."""
    for k in range(20):
        seed = f"{MASTER_SEED}|all-naive|{k}"
        results = []
        for api in (REF, OURS):
            game = api.HundredAndTen(
                [api.NaiveAutomatedPlayer(f"bot{i}") for i in range(2 + k % 3)], seed=seed
            )
            assert game.status == api.GameStatus.WON, seed
            results.append((game.winner.identifier, game.scores))
        assert results[0] == results[1], f"seed {seed!r}: reference {results[0]}, ours {results[1]}"


def test_initial_moves_replay() -> None:
    """``initial_moves`` (the reference's replay argument): the reference's own move list
    of a half-played game, in compat's classes, rebuilds the same game."""
    for k in range(5):
        seed = f"{MASTER_SEED}|replay|{k}"
        players = [REF.HumanPlayer(f"p{i}") for i in range(3)] + [REF.NaiveAutomatedPlayer("p3")]
        ref = RefHundredAndTen(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(120):
            if ref.status == REF.GameStatus.WON:
                break
            active = ref.active_round.active_player.identifier
            ref.act(rng.choice(ref.game_state_for(active).available_actions))
        moves = [build(OURS, action_key(m)) for m in ref.moves]
        ours = compat.HundredAndTen(
            [compat.HumanPlayer(f"p{i}") for i in range(3)] + [compat.NaiveAutomatedPlayer("p3")],
            seed=seed,
            initial_moves=moves,
        )
        assert snapshot(OURS, ours) == snapshot(REF, ref), seed


# -------------------------------------------------------------------- errors


class Pair:
    """The same game on both packages (all human players), driven in lockstep."""

    def __init__(self, n: int, seed: str) -> None:
        self.seed = seed
        self.ids = [f"p{i}" for i in range(n)]
        self.ref = RefHundredAndTen([REF.HumanPlayer(i) for i in self.ids], seed=seed)
        self.ours = compat.HundredAndTen([compat.HumanPlayer(i) for i in self.ids], seed=seed)

    def act(self, key: tuple[Any, ...]) -> None:
        self.ref.act(build(REF, key))
        self.ours.act(build(OURS, key))
        self.check(f"after {key}")

    def check(self, when: str) -> None:
        ref, ours = snapshot(REF, self.ref), snapshot(OURS, self.ours)
        assert ref == ours, f"seed {self.seed!r} {when}: reference {ref}\n ours {ours}"

    def refuse(self, key: tuple[Any, ...], ref_too: bool = True) -> None:
        """Compat must raise ``HundredAndTenError`` and change nothing."""
        before = snapshot(OURS, self.ours)
        states = [state_form(self.ours.game_state_for(i)) for i in self.ids]
        with pytest.raises(compat.HundredAndTenError):
            self.ours.act(build(OURS, key))
        assert snapshot(OURS, self.ours) == before, f"{key} changed the game ({self.seed})"
        assert [state_form(self.ours.game_state_for(i)) for i in self.ids] == states
        if ref_too:
            with pytest.raises(RefError):
                self.ref.act(build(REF, key))
            self.check(f"after the refused {key}")

    @property
    def active(self) -> str:
        return self.ours.active_round.active_player.identifier

    def hand(self, ident: str) -> list[str]:
        return [code(c) for c in self.ours.active_round.players[self.ids.index(ident)].hand]


def test_errors_are_hundred_and_ten_errors_and_change_nothing() -> None:
    pair = Pair(4, f"{MASTER_SEED}|errors")
    pair.check("at the start")
    assert issubclass(compat.HundredAndTenError, Exception)
    # bidding: p1 is to act, dealer p0
    pair.refuse(("Bid", "p2", 15))  # out of turn
    pair.refuse(("Bid", "nobody", 0))  # no such player
    pair.refuse(("SelectTrump", "p1", "CLUBS"))  # wrong phase
    pair.refuse(("Discard", "p1", tuple(pair.hand("p1")[:1])))
    pair.refuse(("Play", "p1", pair.hand("p1")[0]))
    pair.act(("Bid", "p1", 20))
    pair.refuse(("Bid", "p2", 15))  # below the high bid
    pair.refuse(("Bid", "p2", 20))  # only the dealer may hold
    pair.act(("Bid", "p2", 0))
    pair.act(("Bid", "p3", 0))
    pair.act(("Bid", "p0", 20))  # the dealer holds
    pair.refuse(("Bid", "p1", 20))
    pair.act(("Bid", "p1", 0))
    # trump selection: p0 names trump
    assert pair.active == "p0"
    pair.refuse(("SelectTrump", "p1", "CLUBS"))
    pair.refuse(("Bid", "p0", 25))
    pair.refuse(("Play", "p0", pair.hand("p0")[0]))
    pair.act(("SelectTrump", "p0", "HEARTS"))
    # discard: p1 first
    assert pair.active == "p1"
    pair.refuse(("Discard", "p2", tuple(pair.hand("p2")[:2])))
    outside = next(c.code for c in ALL_CARDS if c.code not in pair.hand("p1"))
    pair.refuse(("Discard", "p1", (pair.hand("p1")[0], outside)))
    pair.refuse(("SelectTrump", "p1", "SPADES"))
    for ident in ("p1", "p2", "p3", "p0"):
        pair.act(("Discard", ident, tuple(pair.hand(ident)[:2])))
    # tricks: left of the bidder leads
    assert pair.active == "p1"
    pair.refuse(("Play", "p2", pair.hand("p2")[0]))
    outside = next(c.code for c in ALL_CARDS if c.code not in pair.hand("p1"))
    pair.refuse(("Play", "p1", outside))  # not in hand
    pair.refuse(("Bid", "p1", 15))
    pair.refuse(("Discard", "p1", ()))
    rng = random.Random(pair.seed)
    bled = 0
    while pair.ours.status == compat.RoundStatus.TRICKS:
        active = pair.active
        legal = {action_key(a) for a in pair.ours.game_state_for(active).available_actions}
        illegal = [
            ("Play", active, c) for c in pair.hand(active) if ("Play", active, c) not in legal
        ]
        if illegal:
            pair.refuse(rng.choice(illegal))  # no trump on a bleeding trick
            bled += 1
        pair.act(rng.choice(sorted(legal)))
    assert pair.ours.status == compat.RoundStatus.BIDDING
    assert bled, "no bleeding trick to refuse a play on; pick another seed"


def test_errors_after_the_game_is_won() -> None:
    seed = f"{MASTER_SEED}|over"
    ref = RefHundredAndTen([REF.NaiveAutomatedPlayer(i) for i in ("a", "b", "c")], seed=seed)
    ours = compat.HundredAndTen(
        [compat.NaiveAutomatedPlayer(i) for i in ("a", "b", "c")], seed=seed
    )
    assert snapshot(REF, ref) == snapshot(OURS, ours)
    assert ours.status == compat.GameStatus.WON
    assert ours.active_round.status == compat.RoundStatus.COMPLETED
    for api, game in ((REF, ref), (OURS, ours)):
        before = snapshot(api, game)
        with pytest.raises(api.HundredAndTenError):
            game.act(api.Bid("a", api.BidAmount.FIFTEEN))
        with pytest.raises(api.HundredAndTenError):
            game.active_round.active_player  # noqa: B018 - nobody is to act
        assert snapshot(api, game) == before
        with pytest.raises(api.HundredAndTenError):
            game.active_player  # noqa: B018
    before = snapshot(OURS, ours)
    with pytest.raises(compat.HundredAndTenError):
        ours.act(compat.Play("a", Card.parse("AS")))
    assert snapshot(OURS, ours) == before


def test_game_state_after_the_game_is_won() -> None:
    """``game_state_for`` once the game is over: the last round, as the reference shows it."""
    for k in range(6):
        seed = f"{MASTER_SEED}|won-state|{k}"
        ids = [f"bot{i}" for i in range(2 + k % 3)]
        ref = RefHundredAndTen([REF.NaiveAutomatedPlayer(i) for i in ids], seed=seed)
        ours = compat.HundredAndTen([compat.NaiveAutomatedPlayer(i) for i in ids], seed=seed)
        for ident in ids:
            want = state_form(ref.game_state_for(ident))
            got = state_form(ours.game_state_for(ident))
            wrong = [
                f"{name}: reference {value!r}, ours {got[name]!r}"
                for name, value in want.items()
                if got[name] != value
            ]
            assert not wrong, f"seed {seed!r}, GameState of {ident}:\n" + "\n".join(wrong)


def test_deviations_refused_and_change_nothing() -> None:
    """Where the reference silently accepts (RULES.md planned deviations), compat raises
    ``HundredAndTenError`` and changes nothing."""
    pair = Pair(4, f"{MASTER_SEED}|deviations")
    pair.act(("Bid", "p1", 0))  # p1 passes; p2 to act
    pair.refuse(("Bid", "p1", 0), ref_too=False)  # a pre-pass after passing
    pair.refuse(("Unpass", "p3", None), ref_too=False)  # no pre-pass to take back
    pair.act(("Bid", "p3", 0))  # a pre-pass
    pair.refuse(("Bid", "p3", 0), ref_too=False)  # a second pre-pass
    pair.act(("Bid", "p2", 15))  # p3 passes automatically
    pair.act(("Bid", "p0", 0))
    assert pair.ours.status == compat.RoundStatus.TRUMP_SELECTION
    pair.refuse(("Bid", "p0", 0), ref_too=False)  # a pre-pass outside bidding
    pair.refuse(("Bid", "p2", 0), ref_too=False)
    pair.refuse(("Unpass", "p0", None), ref_too=False)
    pair.act(("SelectTrump", "p2", "SPADES"))
    assert pair.active == "p1"
    card = pair.hand("p1")[0]
    pair.refuse(("Discard", "p1", (card, card)), ref_too=False)  # a card named twice
    with pytest.raises(compat.HundredAndTenError):
        compat.HundredAndTen([compat.HumanPlayer("x"), compat.HumanPlayer("x")])
    # what the reference does with them instead
    ref = pair.ref
    ref.act(REF.Bid("p0", REF.BidAmount.PASS))
    assert REF.RoundRole.PRE_PASSED in ref.active_round.players[0].roles
    ref.act(REF.Discard("p1", [REF_BY_CODE[card], REF_BY_CODE[card]]))
    assert len(ref.active_round.players[1].hand) == 6


# -------------------------------------------------- GameState and naive player


def random_pair_walk(
    n: int, seed: str, visit: Callable[[Pair, str], None], max_calls: int = 1500
) -> int:
    """Play a random game on both packages; ``visit(pair, active)`` before each action."""
    pair = Pair(n, seed)
    rng = random.Random(f"walk|{seed}")
    calls = 0
    while pair.ours.status != compat.GameStatus.WON and calls < max_calls:
        calls += 1
        active = pair.active
        visit(pair, active)
        status = pair.ours.status
        if status == compat.RoundStatus.BIDDING and rng.random() < 0.25:
            rnd = pair.ref.active_round
            others = [
                p
                for p in rnd.players
                if p in rnd.bidders and p.identifier != rnd.active_player.identifier
            ]
            if others:
                who = rng.choice(others)
                if REF.RoundRole.PRE_PASSED in who.roles:
                    pair.act(("Unpass", who.identifier, None))
                else:
                    pair.act(("Bid", who.identifier, 0))
                continue
        legal = sorted({action_key(a) for a in pair.ref.game_state_for(active).available_actions})
        if status == compat.RoundStatus.BIDDING:  # legal: pass, then the bids upwards
            roll = rng.random()
            if roll < 0.6 or len(legal) == 1:
                key = legal[0]
            elif roll < 0.63:
                key = legal[-1]  # shoot the moon
            else:
                key = legal[1] if rng.random() < 0.7 else rng.choice(legal[1:])
        else:
            key = rng.choice(legal)
        pair.act(key)
    return calls


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_state_matches_reference(players: int) -> None:
    """``game_state_for`` of the player to act at every step, and of everyone at random
    steps, shows what the reference's shows (cards as codes, actions as sets)."""
    rng = random.Random(f"{MASTER_SEED}|states|{players}")
    checked = 0

    def visit(pair: Pair, active: str) -> None:
        nonlocal checked
        who = pair.ids if rng.random() < 0.2 else [active]
        for ident in who:
            ref = state_form(pair.ref.game_state_for(ident))
            ours = state_form(pair.ours.game_state_for(ident))
            for field_name, value in ref.items():
                assert ours[field_name] == value, (
                    f"seed {pair.seed!r}, GameState of {ident} ({active} to act), "
                    f"{field_name}: reference {value!r}\n ours {ours[field_name]!r}"
                )
            checked += 1

    for k in range(5):
        random_pair_walk(players, f"{MASTER_SEED}|states|{players}|{k}", visit)
    assert checked > 500


def test_available_actions_in_reference_order() -> None:
    """``available_actions`` in the reference's order, so a bot that picks by index
    (``available_actions[-1]``, ``available_trump_selections[1]``) acts the same."""
    mismatches: dict[str, tuple[Any, Any, str]] = {}

    def visit(pair: Pair, active: str) -> None:
        ref = [action_key(a) for a in pair.ref.game_state_for(active).available_actions]
        ours = [action_key(a) for a in pair.ours.game_state_for(active).available_actions]
        if ref != ours:
            mismatches.setdefault(pair.ours.status.name, (ref, ours, pair.seed))

    for players in (2, 3, 4):
        random_pair_walk(players, f"{MASTER_SEED}|order|{players}", visit)
    assert not mismatches, "\n".join(
        f"{status} (seed {seed!r}): reference {ref}\n ours {ours}"
        for status, (ref, ours, seed) in mismatches.items()
    )


def test_naive_player_act_matches_reference() -> None:
    """``NaiveAutomatedPlayer.act(game_state)`` called directly, at every step of random
    games: the same action as the reference's naive player for the same state."""
    checked = 0

    def visit(pair: Pair, active: str) -> None:
        nonlocal checked
        ref = REF.NaiveAutomatedPlayer(active).act(pair.ref.game_state_for(active))
        ours = compat.NaiveAutomatedPlayer(active).act(pair.ours.game_state_for(active))
        assert action_key(ours) == action_key(ref), (
            f"seed {pair.seed!r}, {active} in {pair.ours.status.name}: "
            f"reference {action_key(ref)}, ours {action_key(ours)}"
        )
        checked += 1

    for players in (2, 3, 4):
        for k in range(4):
            random_pair_walk(players, f"{MASTER_SEED}|naive-direct|{players}|{k}", visit)
    assert checked > 1000


def test_selectable_suit_enumeration_as_reference() -> None:
    """``list(SelectableSuit)`` in the reference's order (HEARTS, CLUBS, SPADES,
    DIAMONDS): a ported bot that iterates the suits and keeps the first best one (as the
    reference's own naive player does) breaks ties the same way only then."""
    assert [s.name for s in compat.SelectableSuit] == [s.name for s in REF.SelectableSuit]


def test_card_fields_as_reference() -> None:
    """Every card shows the fields the reference's ``Card`` has, with the same values
    (``number``, ``suit``; ``trump_value``, ``weak_trump_value``, ``always_trump`` are
    what the reference's own decision code reads)."""
    wrong: list[str] = []
    missing: set[str] = set()
    for ref_card in defined_cards:
        ours = OURS_BY_CODE[code(ref_card)]
        if ours.number.name != ref_card.number.name:
            wrong.append(f"{code(ours)}.number: reference {ref_card.number}, ours {ours.number}")
        ref_suit = ref_card.suit.name
        our_suit = ours.suit.name
        if our_suit != ref_suit:
            wrong.append(f"{code(ours)}.suit: reference {ref_suit}, ours {our_suit}")
        for name in ("trump_value", "weak_trump_value", "always_trump"):
            if not hasattr(ours, name):
                missing.add(name)
            elif getattr(ours, name) != getattr(ref_card, name):
                wrong.append(
                    f"{code(ours)}.{name}: reference {getattr(ref_card, name)}, "
                    f"ours {getattr(ours, name)}"
                )
    assert not missing, f"compat's Card lacks {sorted(missing)}; also {wrong[:8]}"
    assert not wrong, f"{len(wrong)} differences: {wrong[:8]}"


def test_compat_example_states() -> None:
    from tests.support.compat import Bid as CBid
    from tests.support.compat import (
        BidAmount,
        HumanPlayer,
        HundredAndTen,
        NaiveAutomatedPlayer,
        RoundRole,
        RoundStatus,
    )
    from tests.support.compat import Unpass as CUnpass

    game = HundredAndTen(
        [
            HumanPlayer("player_1"),
            HumanPlayer("player_2"),
            HumanPlayer("player_3"),
            NaiveAutomatedPlayer("player_4"),
        ],
        seed="readme",
    )
    assert game.active_round.active_player.identifier == "player_2"
    game.act(CBid("player_2", BidAmount.FIFTEEN))
    game.act(CBid("player_1", BidAmount.PASS))
    assert RoundRole.PRE_PASSED in game.active_round.players[0].roles
    game.act(CUnpass("player_1"))
    assert RoundRole.PRE_PASSED not in game.active_round.players[0].roles
    assert game.status is RoundStatus.BIDDING
    assert game.scores == {"player_1": 0, "player_2": 0, "player_3": 0, "player_4": 0}
    assert game.winner is None
