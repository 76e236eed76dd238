"""``resample_from_infostate``: a state the seat cannot tell from the real one.

The hidden cards are drawn by the game's own strong AI sampler
(``GameSpec.research.sample``: the deal it searches over, keeping to the voids, melds,
bids and face-up cards the seat has seen), or, where that sampler does not apply (it
raises ``SampleError``), dealt at random to the same hand sizes. Then each hidden card
is renamed, holder by holder (another seat's hand, or the cards no seat holds: kitty,
stock, discards), into a drawn one; the hand's deal and the other seats' discard steps
are renamed alike, and the game is replayed from its start with them. The replay is
kept only if the engine takes every move and the seat was told exactly what it was
told in the real game (its information state string); else another draw is tried,
``TRIES`` at most. When none passes, ``ResampleError`` is raised: the real state is
never handed back, since a search given it would see the hidden cards (``FALLBACKS``
counts how often that happened, for a benchmark to report).
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import TYPE_CHECKING, Any, Final

from hundred_server.games.kit.search import SampleError
from hundred_server.protocol.errors import HundredError

if TYPE_CHECKING:
    from hundred_server.research.openspiel import HundredState

TRIES: Final = 100
#: How many resamples found no draw that replays (and raised ``ResampleError``), this
#: process, and how many there were.
FALLBACKS = [0]
RESAMPLES = [0]


class ResampleError(SampleError):
    """No deal drawn in ``TRIES`` replays to what the seat was told; the real state is
    not given instead (it would show the hidden cards)."""


def resample(state: HundredState, player: int, sampler: Any) -> HundredState:
    RESAMPLES[0] += 1
    rng = Random(float(sampler()) if sampler is not None else 0.0)
    history = list(state.history())
    new: HundredState | None
    if state.dealing:
        # Nothing of the hand being dealt is seen yet: deal its cards dealt so far anew.
        cut = len(history) - len(state.dealing)
        new = _replay(state, history[:cut], rng, len(state.dealing))
    elif state.episode.over or not state.log:
        new = _replay(state, history, rng)  # nothing dealt, or over: no decision to search
    else:
        new = _drawn(state, player, history, rng)
    if new is None:
        FALLBACKS[0] += 1
        raise ResampleError(
            f"no deal drawn in {TRIES} tries replays to what seat {player} was told "
            f"({state.hgame.name}, after {len(history)} steps)"
        )
    return new


def _drawn(
    state: HundredState, player: int, history: list[int], rng: Random
) -> HundredState | None:
    """The first of ``TRIES`` draws that replays to what ``player`` was told, or None."""
    real = state.information_state_string(player)
    for _ in range(TRIES):
        moved = _renamed(state, player, history, rng)
        if moved is None:
            continue
        new = _replay(state, moved, rng)
        if new is not None and new.information_state_string(player) == real:
            return new
    return None


def _replay(
    state: HundredState, actions: list[int], rng: Random, draws: int = 0
) -> HundredState | None:
    new: HundredState = state.get_game().new_initial_state()
    try:
        for action in actions:
            new.apply_action(action)
        for _ in range(draws):
            outcomes = new.chance_outcomes()
            cards = [card for card, _ in outcomes]
            new.apply_action(rng.choices(cards, [p for _, p in outcomes])[0])
    except (HundredError, RuntimeError, ValueError):
        return None
    return new


def _renamed(state: HundredState, player: int, history: list[int], rng: Random) -> list[int] | None:
    """The history with the hidden cards of the hand under way renamed into a draw."""
    episode, hgame = state.episode, state.hgame
    lay, game, n = hgame.layout, episode.game, hgame.players
    index, _research = lay.card_index, lay.research
    start, size = state.hand_from, hgame.deck_size
    deck = history[start : start + size]
    hands = [[index[c] for c in game.view_for(s).hand] for s in range(n)]
    seen = Counter(hands[player])
    played = (episode.trick.sum(axis=0) + episode.played.sum(axis=0)).astype(int)
    held_all = Counter(c for hand in hands for c in hand)
    for c in range(lay.num_cards):
        seen[c] += int(played[c]) + int(episode.discarded[player, c])
        extra = int(episode.faceup[c]) - held_all[c] + hands[player].count(c) - int(played[c])
        if extra > 0:
            seen[c] += extra
    hidden = Counter(deck) - seen
    real: dict[Any, list[int]] = {s: hands[s] for s in range(n) if s != player}
    real_pool = hidden - Counter(c for s in real for c in real[s])
    real["pool"] = list(real_pool.elements())
    drawn = _draw(state, player, real, hidden, rng)
    if drawn is None:
        return None
    # Each holder's renaming: the cards it keeps stay; the others pair off at random.
    rename: dict[Any, dict[int, list[int]]] = {}
    for holder, cards in real.items():
        keep = Counter(cards) & Counter(drawn[holder])
        gone = list((Counter(cards) - keep).elements())
        new = list((Counter(drawn[holder]) - keep).elements())
        rng.shuffle(new)
        pairs: dict[int, list[int]] = {c: [c] * k for c, k in keep.items()}
        for old, card in zip(gone, new, strict=True):
            pairs.setdefault(old, []).append(card)
        for targets in pairs.values():
            rng.shuffle(targets)
        rename[holder] = pairs
    # The other seats' discard steps name cards now held by nobody: renamed alike.
    pool = {c: list(t) for c, t in rename.get("pool", {}).items()}
    where = {h: Counter(cards) for h, cards in real.items()}
    left = Counter(seen)
    out = list(history)
    if episode.deal_map:
        return _renamed_by_seat(state, player, out, deck, rename)
    for i, card in enumerate(deck):
        if left[card] > 0 and rng.random() < left[card] / (
            left[card] + sum(w[card] for w in where.values())
        ):
            left[card] -= 1
            continue
        holders = [h for h, w in where.items() if w[card] > 0]
        if not holders:
            left[card] -= 1
            continue
        holder = rng.choice(holders)
        where[holder][card] -= 1
        out[start + i] = rename[holder][card].pop()
    for j, step in enumerate(state.full_history()[start + size :], start + size):
        who, action = step.player, step.action
        if who != player and lay.pick0 <= action < lay.call0:
            names = pool.get(action - lay.pick0)
            if not names:
                return None
            out[j] = lay.pick0 + names.pop()
    return out


def _renamed_by_seat(
    state: HundredState, player: int, out: list[int], deck: list[int], rename: dict[Any, Any]
) -> list[int] | None:
    """The deal renamed by the seat each position went to (a deck with duplicates):
    a seat's cards played stay, the ones it holds are renamed as its hand is."""
    episode = state.episode
    start = state.hand_from
    shown = episode.trick + episode.played
    skip = {s: Counter({c: int(k) for c, k in enumerate(shown[s]) if k}) for s in range(episode.n)}
    for i, (card, seat) in enumerate(zip(deck, episode.deal_map, strict=True)):
        if seat < 0 or seat == player:
            continue
        if skip[seat][card] > 0:
            skip[seat][card] -= 1
            continue
        targets = rename.get(seat, {}).get(card)
        if not targets:
            return None
        out[start + i] = targets.pop()
    return out


def _draw(
    state: HundredState, player: int, real: dict[Any, list[int]], hidden: Counter[int], rng: Random
) -> dict[Any, list[int]] | None:
    """The hidden cards drawn into the same holders: the strong AI's sampler, else at
    random to the same sizes."""
    lay, game = state.hgame.layout, state.episode.game
    index = lay.card_index
    try:
        hands, _pool = lay.research.sample(game.view_for(player), rng)
        drawn: dict[Any, list[int]] = {s: [index[c] for c in hands[s]] for s in real if s != "pool"}
        rest = hidden - Counter(c for s in drawn for c in drawn[s])
        drawn["pool"] = list(rest.elements())
        fits = all(len(drawn[h]) == len(real[h]) for h in real)
        if fits and sum(len(v) for v in drawn.values()) == sum(hidden.values()):
            return drawn
    except SampleError:
        pass
    cards = list(hidden.elements())
    rng.shuffle(cards)
    drawn, at = {}, 0
    for holder, had in real.items():
        drawn[holder] = cards[at : at + len(had)]
        at += len(had)
    return drawn
