"""One game as the research environments play it: numbered actions in, observation
vectors, legal masks and rewards out (layout.py says what the numbers mean).

An ``Episode`` wraps a game's engine (``GameSpec.new_game``) and reaches it only
through the game interface: ``legal_actions``, ``apply``, ``deal``, ``view_for`` and the
catalogue ``GameSpec.research``. It keeps, by absolute seat, what every seat has seen
(the cards played, by trick; the choices made; the called cards; each seat's own
discard), all in one float32 vector (``Frame``), from which any seat's observation is
one gather and two ones set. A decision too large to list (a discard of any cards,
Rook's setup) is taken in steps, ``Composite``.

The episode ends with the game, or after ``hands`` hands (0: the whole game). Rewards:
``"win"`` gives, when the episode ends, +1 to each winner and -w/l to each of the l
losers (w winners: zero-sum; all even: 0); ``"points"`` gives at the end of each hand
each seat's points of that hand (its side's in a partnership).
"""

from __future__ import annotations

import copy
import functools
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from hundred_server import games
from hundred_server.games.base import GameSpec, needs_deal, player_names
from hundred_server.games.kit.research import Composite
from hundred_server.protocol.errors import IllegalActionError
from hundred_server.research.layout import CALLING, OPTION, PICKING, PLAIN, Layout

REWARDS: Final = ("win", "points")
#: What a pickled episode leaves out: the registry's, and the views of ``flat``.
_SHARED: Final = frozenset(
    (
        *("spec", "layout", "frame", "cells"),
        *("held", "discarded", "picking", "faceup", "called", "table"),
        *("trick", "played", "shown", "choices", "score"),
    )
)


@functools.cache
def layout_of(game: str, players: int) -> Layout:
    """The layout of ``game`` at ``players`` seats (one a process)."""
    return Layout(games.get(game), players)


Vector = np.ndarray[Any, np.dtype[np.float32]]
Indices = np.ndarray[Any, np.dtype[np.intp]]


class Frame:
    """Where an episode of one layout keeps its numbers, one float32 vector
    (``Episode.flat``): each seat's hand and own discard, the picking under way, the
    face-up and called cards, the seats' blocks (layout.SEAT, by absolute seat), then
    zeros and a one that are never written. ``gather[seat][acting]`` are the places of
    ``seat``'s observation (layout.OWN, then the blocks in relative order), the one-hots
    of its leader and stage pointing at zeros: the observation is ``flat.take`` of them,
    with those two ones set (``leader_at``, ``stage_at``)."""

    def __init__(self, lay: Layout) -> None:
        n, c = lay.players, lay.num_cards
        sizes = (
            ("held", n * c),
            ("discarded", n * c),
            ("picking", c),
            ("faceup", c),
            ("called", c),
            ("table", n * lay.seat_size),
            ("zero", max(c, n, 4)),
            ("one", 1),
        )
        self.at: dict[str, int] = {}
        at = 0
        for name, length in sizes:
            self.at[name] = at
            at += length
        self.size = at
        self.gather: tuple[tuple[Indices, Indices], ...] = tuple(
            (self._places(lay, seat, False), self._places(lay, seat, True)) for seat in range(n)
        )
        self.leader_at, self.stage_at = lay.own["leader"][0], lay.own["stage"][0]
        #: Where each seat's row of ``held``, ``trick`` and ``played`` starts in the vector.
        table, seat = self.at["table"], lay.seat
        self.held_row = tuple(self.at["held"] + s * c for s in range(n))
        self.trick_row = tuple(table + s * lay.seat_size + seat["trick"][0] for s in range(n))
        self.played_row = tuple(table + s * lay.seat_size + seat["played"][0] for s in range(n))

    def _places(self, lay: Layout, seat: int, acting: bool) -> Indices:
        n, c, size = lay.players, lay.num_cards, lay.seat_size
        at, cards = self.at, np.arange(c)
        zero, one = at["zero"], at["one"]
        own = {
            "hand": at["held"] + seat * c + cards,
            "discarded": at["discarded"] + seat * c + cards,
            "picking": (at["picking"] if acting else zero) + cards,
            "faceup": at["faceup"] + cards,
            "called": at["called"] + cards,
            "seat": np.array([one if s == seat else zero for s in range(n)]),
            "leader": zero + np.arange(n),
            "stage": zero + np.arange(4),
        }
        parts = [own[name] for name in lay.own]
        blocks = at["table"] + lay.rot[seat][:, None] * size + np.arange(size)
        places: Indices = np.concatenate((*parts, blocks.ravel())).astype(np.intp)
        assert len(places) == lay.size
        return places


@functools.cache
def frame_of(game: str, players: int) -> Frame:
    """The frame of ``game`` at ``players`` seats (one a process)."""
    return Frame(layout_of(game, players))


class Episode:
    """One game of ``spec`` at ``players`` seats (see the module docstring)."""

    def __init__(
        self,
        spec: GameSpec,
        players: int,
        *,
        seed: str = "",
        hands: int = 0,
        reward: str = "win",
        flags: frozenset[str] = frozenset(),
    ) -> None:
        if players not in spec.seat_counts:
            raise ValueError(
                f"{spec.title} is played at {', '.join(map(str, spec.seat_counts))} seats,"
                f" not {players}"
            )
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
        if hands < 0:
            raise ValueError(f"hands is 0 (the whole game) or more, not {hands}")
        self.layout = layout_of(spec.name, players)
        self.spec, self.n, self.hands, self.reward = spec, players, hands, reward
        self.seed = seed
        self.game: Any = spec.new_game(player_names(players), seed, flags)
        #: Every number the observations are gathered from (``Frame``), and its views:
        #: ``table``, one row a seat (absolute), the seat's block of the observation
        #: (layout.SEAT); each seat's hand and own discard (counts), and what all see.
        self.frame = frame_of(spec.name, players)
        self.flat = np.zeros(self.frame.size, np.float32)
        self.flat[self.frame.at["one"]] = 1.0
        self._views()
        self.in_trick = 0
        self.leader = -1
        #: The decision in steps under way: its shape and what is chosen so far.
        self.composite: Composite | None = None
        self.picked: list[Any] = []
        self.option: Any = None
        self.calls: list[Any] = []
        self.stage = PLAIN
        self.hands_done = 0
        self.hand_start = self.episode_start = self._seat_scores()
        self._scores_seen()
        #: The rewards of the last step, and of the episode so far, by seat.
        self.rewards = [0.0] * players
        self.total_rewards = [0.0] * players
        self.over = False
        #: Whether a seat's ``held`` row, and the face-up and shown cards, are to be
        #: read from a view again before they are observed.
        self.stale = [True] * players
        self.public_stale = True
        #: Each seat's hand as its view gave it when last read (None: read it again).
        self.seen: list[tuple[Any, ...] | None] = [None] * players
        #: Which seat each position of the hand's deck went to (-1: to none), for a
        #: deck with duplicate cards (sampling.py needs it; else by card).
        self.deal_map: tuple[int, ...] = ()
        #: The legal actions of the seat to act, once asked (until the next move).
        self._legal: list[int] | None = None
        #: The hand of the seat taking a decision in steps, as it began.
        self.composite_hand: tuple[Any, ...] = ()

    def _views(self) -> None:
        """``held``, ``discarded``, ``picking``, ``faceup``, ``called``, ``table`` and
        the seat fields (``trick``...) as views of ``flat``."""
        at, flat, lay = self.frame.at, self.flat, self.layout
        n, c, size = self.n, lay.num_cards, lay.seat_size
        #: ``flat`` as a memoryview: one number read and written without numpy's costs.
        self.cells = flat.data
        self.held = flat[at["held"] : at["held"] + n * c].reshape(n, c)
        self.discarded = flat[at["discarded"] : at["discarded"] + n * c].reshape(n, c)
        self.picking = flat[at["picking"] : at["picking"] + c]
        self.faceup = flat[at["faceup"] : at["faceup"] + c]
        self.called = flat[at["called"] : at["called"] + c]
        self.table = flat[at["table"] : at["table"] + n * size].reshape(n, size)
        seat = lay.seat
        self.trick = self.table[:, slice(*seat["trick"])]
        self.played = self.table[:, slice(*seat["played"])]
        self.shown = self.table[:, slice(*seat["shown"])]
        self.choices = self.table[:, slice(*seat["choices"])]
        self.score = self.table[:, seat["score"][0]]

    # ------------------------------------------------------------------ the game

    @property
    def to_act(self) -> int | None:
        """The seat to act (None: the episode is over or waits for a deal)."""
        return None if self.over else self.game.to_act

    @property
    def needs_deal(self) -> bool:
        return not self.over and needs_deal(self.game)

    def deal(self, deck: Sequence[Any]) -> list[Any]:
        """Deal the next hand from ``deck`` (the game's cards in dealing order)."""
        key = _deal_key(self) if self.layout.research.copies > 1 else None
        # The deal map is found on a copy of the game before the deal, once a dealer.
        before = copy.deepcopy(self.game) if key is not None and key not in _DEAL_MAPS else None
        events: list[Any] = self.game.deal(deck)
        self._legal = None
        for block in (self.trick, self.played, self.shown, self.choices, self.discarded):
            block.fill(0)
        self.called.fill(0)
        self.in_trick, self.leader = 0, -1
        self.hand_start = self._seat_scores()
        self._after()
        self._refresh()
        if key is not None:
            self.deal_map = _deal_map(self, key, before, list(deck))
        return events

    def deck(self) -> Sequence[Any]:
        """The deck of the hand to deal, from the episode's seed (as a table deals)."""
        deck: Sequence[Any] = self.spec.seeded_deck(self.seed, self.game.round_index)
        return deck

    def legal(self) -> list[int]:
        """The numbers of the legal actions of the seat to act (none if nobody is)."""
        if self._legal is None:
            self._legal = self._find_legal()
        return self._legal

    def _find_legal(self) -> list[int]:
        seat = self.to_act
        if seat is None:
            return []
        lay = self.layout
        if self.composite is None:
            legal = self.game.legal_actions(seat)
            composite = lay.research.compose(legal)
            if composite is None:
                try:  # the catalogue's own instances, as the engines share them
                    by_id = lay.number_of_id
                    return [by_id[id(a)] for a in legal]
                except KeyError:
                    return [lay.action_id[a] for a in legal]
            self._begin(seat, composite)
        composite = self.composite
        assert composite is not None
        if self.stage == PICKING:
            ids = (
                []
                if len(self.picked) >= composite.picks[1]
                else [
                    lay.pick0 + lay.card_index[c]
                    for c in self.composite_hand
                    if c not in self.picked
                ]
            )
            if len(self.picked) >= composite.picks[0]:
                ids.append(lay.done)
            return ids
        if self.stage == OPTION:
            return [lay.num_cards + lay.choice_index[o] for o in composite.options]
        called = {lay.card_index[c] for c in self.calls}
        return [lay.call0 + i for i in range(lay.num_cards) if i not in called]

    def mask(self, size: int = 0) -> np.ndarray[Any, np.dtype[np.int8]]:
        """A new int8 array of ``size`` (the number of actions by default), 1 at each
        legal action of the seat to act."""
        # Set in a bytearray, then seen by numpy: faster than an index list's assignment.
        marks = bytearray(size or self.layout.num_actions)
        for number in self.legal():
            marks[number] = 1
        return np.frombuffer(marks, np.int8)

    def step(self, action: int) -> list[Any]:
        """The seat to act takes ``action`` (a number): the engine's events (none for a
        step of a decision under way). ``IllegalActionError`` if it is not legal."""
        seat = self.to_act
        if seat is None:
            raise IllegalActionError("nobody is to act", "not_your_turn")
        if action not in self.legal():
            raise IllegalActionError(
                f"action {action} is not legal now (legal: {self.legal()})", "illegal_action"
            )
        return self.take(seat, action)

    def take(self, seat: int, action: int) -> list[Any]:
        """``step`` of an ``action`` the caller found in ``legal()`` for ``seat``, the
        seat to act (unchecked)."""
        self.rewards = [0.0] * self.n
        self._legal = None
        if self.composite is None:
            return self._apply(seat, self.layout.actions[action], action)
        return self._step(seat, action)

    def act(self, action: Any) -> list[Any]:
        """The seat to act takes the engine's ``action`` whole (an AI's answer), a
        decision in steps included; the engine refuses what is not legal."""
        seat = self.to_act
        if seat is None:
            raise IllegalActionError("nobody is to act", "not_your_turn")
        lay = self.layout
        self.rewards = [0.0] * self.n
        self._legal = None
        self.composite, self.stage = None, PLAIN
        self.picking.fill(0)
        number = lay.action_id.get(action)
        if number is not None:
            return self._apply(seat, action, number)
        composite = lay.research.compose(self.game.legal_actions(seat))
        events = self._apply(seat, action, -1)
        if composite is not None:
            self._record(seat, *composite.parts(action))
        return events

    def _record(self, seat: int, picked: Any, option: Any, calls: Any) -> None:
        lay = self.layout
        for card in picked:
            self.discarded[seat, lay.card_index[card]] += 1
        if option is not None:
            self.choices[seat, lay.choice_index[option]] = 1
        for card in calls:
            self.called[lay.card_index[card]] = 1

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (OpenSpiel clones a state so) without the spec and the layout, which
        are the registry's: ``__setstate__`` finds them again by name."""
        state = {k: v for k, v in self.__dict__.items() if k not in _SHARED}
        state["game_name"] = self.spec.name
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.spec = games.get(state["game_name"])
        self.layout = layout_of(self.spec.name, self.n)
        self.frame = frame_of(self.spec.name, self.n)
        self._views()

    def copy(self) -> Episode:
        """An independent copy (the engine deep-copied; the spec and layout shared)."""
        new = object.__new__(Episode)
        new.__dict__.update(self.__dict__)
        new.game = copy.deepcopy(self.game)
        new.flat = self.flat.copy()
        new._views()
        for name in ("picked", "calls", "rewards", "total_rewards", "hand_start", "stale", "seen"):
            setattr(new, name, list(getattr(self, name)))
        return new

    # ------------------------------------------------------------ decisions in steps

    def _begin(self, seat: int, composite: Composite) -> None:
        self.composite = composite
        # The engine hears of no step until the last: the hand stays as it is now.
        hand = self.seen[seat]
        if hand is None:
            self.stale[seat] = True
            self._fresh(seat)
            hand = self.seen[seat]
            assert hand is not None
        self.composite_hand = hand
        self.picked, self.option, self.calls = [], None, []
        self.picking.fill(0)
        self.stage = PICKING
        self._advance()

    def _advance(self) -> None:
        composite = self.composite
        assert composite is not None
        if self.stage == PICKING and len(self.picked) >= composite.picks[1]:
            self.stage = OPTION
        if self.stage == OPTION and (self.option is not None or not composite.options):
            self.stage = CALLING

    def _step(self, seat: int, action: int) -> list[Any]:
        lay = self.layout
        composite = self.composite
        assert composite is not None
        cards = lay.research.cards
        if self.stage == PICKING:
            if action == lay.done:
                self.stage = OPTION
            else:
                self.picked.append(cards[action - lay.pick0])
                self.picking[action - lay.pick0] = 1
        elif self.stage == OPTION:
            self.option = lay.research.choices[action - lay.num_cards]
        else:
            self.calls.append(cards[action - lay.call0])
        self._advance()
        if self.stage != CALLING or len(self.calls) < composite.calls:
            return []
        made = composite.make(tuple(self.picked), self.option, tuple(self.calls))
        picked, option, calls = self.picked, self.option, self.calls
        self.composite, self.stage = None, PLAIN
        self.picking.fill(0)
        events = self._apply(seat, made, -1)
        self._record(seat, picked, option, calls)
        return events

    # ------------------------------------------------------------------ bookkeeping

    def _apply(self, seat: int, action: Any, number: int) -> list[Any]:
        game = self.game
        events: list[Any] = game.apply(seat, action)
        lay = self.layout
        if self.leader < 0:
            self.leader = seat
        if 0 <= number < lay.num_cards:
            cells, frame = self.cells, self.frame
            cells[frame.held_row[seat] + number] -= 1
            self.seen[seat] = None
            if lay.research.tricks:
                cells[frame.trick_row[seat] + number] += 1
                self.in_trick += 1
                if self.in_trick == self.n:
                    self.played += self.trick
                    self.trick.fill(0)
                    self.in_trick = 0
            else:
                cells[frame.played_row[seat] + number] += 1
        else:
            if number >= lay.num_cards:
                self.choices[seat, number - lay.num_cards] = 1
            self._refresh()
        if game.to_act is None:  # the hand (or the game) ended
            self._after()
        return events

    def _refresh(self) -> None:
        """After a deal or an action that is not a play (a kitty taken, a discard
        refilled): each hand, the face-up and the shown cards are read from a view
        again when next observed (``_fresh``)."""
        self.stale = [True] * self.n
        self.public_stale = True
        self.seen = [None] * self.n

    def _fresh(self, seat: int) -> None:
        if not self.stale[seat]:
            return
        self.stale[seat] = False
        index, research = self.layout.card_index, self.layout.research
        view = self.game.view_for(seat)
        hand = self.seen[seat] = tuple(view.hand)
        counts = [0.0] * self.layout.num_cards
        for card in hand:
            counts[index[card]] += 1
        self.held[seat] = counts
        if self.public_stale:
            self.public_stale = False
            self.faceup.fill(0)
            self.shown.fill(0)
            for card in research.faceup(view):
                self.faceup[index[card]] += 1
            for s, cards in enumerate(research.shown(view)):
                for card in cards:
                    self.shown[s, index[card]] += 1

    def _after(self) -> None:
        """After a move or a deal: score a hand that ended, end the episode."""
        game = self.game
        if game.to_act is not None:
            return
        over = game.winner is not None
        self.hands_done += 1
        scores = self._seat_scores()
        self._scores_seen()
        if self.reward == "points":
            self.rewards = [float(a - b) for a, b in zip(scores, self.hand_start, strict=True)]
        if over or (self.hands and self.hands_done >= self.hands):
            self.over = True
            if self.reward == "win":
                self.rewards = _win_rewards(self)
        self.total_rewards = [t + r for t, r in zip(self.total_rewards, self.rewards, strict=True)]

    def _scores_seen(self) -> None:
        scale = self.layout.research.scale
        self.score[:] = [score / scale for score in self._seat_scores()]

    def _seat_scores(self) -> list[int]:
        scores = list(self.game.scores)
        sides = self.spec.sides
        if sides is None:
            return scores
        return [scores[sides[s]] for s in range(self.n)]

    # ------------------------------------------------------------------ observing

    def observe(self, seat: int) -> Vector:
        """What ``seat`` may see, as the vector layout.py describes (a new array)."""
        if self.stale[seat]:
            self._fresh(seat)
        acting = seat == self.to_act
        frame = self.frame
        out: Vector = self.flat.take(frame.gather[seat][acting], mode="clip")  # all in range
        leader = self.leader
        if leader >= 0:
            out[frame.leader_at + (leader - seat) % self.n] = 1.0
        if acting:
            out[frame.stage_at + self.stage] = 1.0
        return out


def _win_rewards(episode: Episode) -> list[float]:
    """The ``"win"`` rewards when the episode ends (the module docstring)."""
    game, sides = episode.game, episode.spec.sides
    if game.winner is not None:
        won = [s for s in range(episode.n) if (sides[s] if sides else s) == game.winner]
    else:
        gained = [a - b for a, b in zip(episode._seat_scores(), episode.episode_start, strict=True)]
        best = max(gained)
        won = [s for s in range(episode.n) if gained[s] == best]
    if len(won) == episode.n:
        return [0.0] * episode.n
    lose = -len(won) / (episode.n - len(won))
    return [1.0 if s in won else lose for s in range(episode.n)]


_DEAL_MAPS: dict[tuple[str, int, int], tuple[int, ...]] = {}


def _counts(game: Any, index: dict[Any, int], players: int) -> list[Counter[int]]:
    return [Counter(index[c] for c in game.view_for(s).hand) for s in range(players)]


def _deal_key(episode: Episode) -> tuple[str, int, int]:
    """What a deal map depends on: the game, the seats and the dealer (the same before
    and after the deal)."""
    game = episode.game
    dealer = int(getattr(game.view_for(0), "dealer", game.round_index))
    return (episode.spec.name, episode.n, dealer)


def _deal_map(
    episode: Episode, key: tuple[str, int, int], before: Any, deck: list[Any]
) -> tuple[int, ...]:
    """Which seat each position of ``deck`` went to: where a card's copies went to one
    seat, that seat; else found by dealing, on a copy of the game ``before`` the deal,
    the deck with that position swapped with a card of a known seat (once a dealer:
    ``key``)."""
    if key in _DEAL_MAPS:
        return _DEAL_MAPS[key]
    game, n, index = episode.game, episode.n, episode.layout.card_index
    dealt = _counts(game, index, n)
    codes = [index[c] for c in deck]
    total = Counter(codes)
    owner = []
    for code in codes:
        seats = [s for s in range(n) if dealt[s][code]]
        owner.append(seats[0] if len(seats) == 1 and dealt[seats[0]][code] == total[code] else -2)
    for p, code in enumerate(codes):
        if owner[p] != -2:
            continue
        candidates = {s for s in range(n) if dealt[s][code]}
        for q, other in enumerate(codes):
            if other == code or owner[q] < 0 or owner[q] in candidates:
                continue
            swapped = list(deck)
            swapped[p], swapped[q] = swapped[q], swapped[p]
            probe = copy.deepcopy(before)
            probe.deal(swapped)
            after = _counts(probe, index, n)
            lost = [s for s in candidates if after[s][code] < dealt[s][code]]
            owner[p] = lost[0] if lost else -1
            break
    result = tuple(owner)
    _DEAL_MAPS[key] = result
    return result
