"""Playing a game on in the engine tests of every game: a whole game with each decision
checked, the positions of a stretch of a game one by one, a game played to an event, and
what a bot was given to decide on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from hundred_server.core import driver
from hundred_server.games.base import Bot, GameSpec, GameState


def play_checked(
    spec: GameSpec,
    players: Sequence[str],
    seed: str,
    bots: Sequence[Bot],
    *,
    flags: frozenset[str] = frozenset(),
    limit: int | None = None,
    check: Callable[[Any, Any], None] | None = None,
) -> tuple[GameState, Counter[Any], int]:
    """A game of ``spec`` dealt from ``seed`` and played by ``bots`` to its end (or
    ``limit`` decisions), each decision asserted legal: in its view's ``Legal``, or by
    ``check(view, action)`` where given. The game, the phases of the views decided on
    (counted), and the number of decisions."""
    game = spec.new_game(list(players), seed, flags)
    phases: Counter[Any] = Counter()
    decisions = 0
    while not game.is_over and (limit is None or decisions < limit):
        if game.needs_deal:
            driver.step(game, spec, seed, bots)
            continue
        seat = game.to_act
        assert seat is not None
        view = spec.view(game, seat)
        action = bots[seat].act(view)
        if check is None:
            assert action in view.legal
        else:
            check(view, action)
        phases[view.phase] += 1
        game.apply(seat, action)
        decisions += 1
    return game, phases, decisions


def positions(
    game: GameState,
    bot: Bot,
    going_on: Callable[[Any], bool],
    view: Callable[[Any, int], Any] | None = None,
) -> Iterator[int]:
    """While ``going_on(game)``, the seat to act in ``game``, one position at a time (the
    caller looks at the game then); then ``bot`` plays that seat's move, decided on
    ``view(game, seat)`` (the engine's ``view_for`` unless given)."""
    while going_on(game):
        seat = game.to_act
        assert seat is not None
        yield seat
        seen = view(game, seat) if view is not None else game.view_for(seat)
        game.apply(seat, bot.act(seen))


def play_to(
    game: GameState,
    bots: Sequence[Bot],
    kind: type,
    view: Callable[[Any, int], Any] | None = None,
) -> Any:
    """Play ``game`` on with ``bots`` (each deciding on ``view(game, seat)``, the engine's
    ``view_for`` unless given) up to the first event of type ``kind``; that event."""
    while True:
        seat = game.to_act
        assert seat is not None
        seen = view(game, seat) if view is not None else game.view_for(seat)
        for event in game.apply(seat, bots[seat].act(seen)):
            if isinstance(event, kind):
                return event


def views_given(
    spec: GameSpec,
    players: Sequence[str],
    strong: Callable[[type[Any]], Bot],
    other: Callable[[], Bot],
    steps: int,
    check: Callable[[Any, GameState], None] | None = None,
) -> list[Any]:
    """The views the game's strong AI at seats 0 and 2 (``other()`` at 1 and 3) is given
    over ``steps`` of the driver's steps of a game of four dealt from "spy"; ``strong``
    makes the AI of a subclass of its class, which sees each view first: there is one at
    least, each of the type of the engine's views, for the seat to act, a strong seat,
    and ``check(view, game)`` (the game as it is then) passes where given."""
    game = spec.new_game(list(players), "spy")
    seen: list[Any] = []

    def given(view: Any) -> None:
        assert type(view) is type(spec.view(game, view.seat))
        assert view.seat == game.to_act
        assert view.seat in (0, 2)
        if check is not None:
            check(view, game)
        seen.append(view)

    spy = spied(spec.bots["strong"], given)
    bots = [strong(spy), other(), strong(spy), other()]
    for _ in range(steps):
        driver.step(game, spec, "spy", bots)
    assert seen
    return seen


def spied(bot: type[Any], check: Callable[[Any], None]) -> type[Any]:
    """A subclass of the bot class ``bot`` that calls ``check`` with every view it is
    given before it decides."""

    class Spy(bot):  # type: ignore[misc, valid-type]
        def act(self, view: Any) -> Any:
            check(view)
            return super().act(view)

    return Spy


def swaps(hidden: Sequence[int], owner: Mapping[int, int]) -> Iterator[tuple[int, int]]:
    """Every pair of the deck's positions ``hidden`` (i, j) that are dealt to two seats,
    i's seat before j's (``owner``: a position's seat)."""
    return ((i, j) for i in hidden for j in hidden if owner[i] < owner[j])


def replayed(game: GameState, deck: Sequence[Any], history: Iterable[object]) -> GameState:
    """``game`` (new) dealt ``deck`` and given every action of ``history``."""
    game.deal(deck)
    for entry in history:
        assert isinstance(entry, tuple)
        game.apply(*entry)
    return game


def same_choice(strong: Callable[[], Bot], game: Any, other: Any, seat: int) -> None:
    """``other`` is ``game`` with other hidden cards, and ``seat`` sees the two the same:
    a new ``strong()`` decides the same in both."""
    assert other.hands != game.hands  # the hidden cards differ
    view, other_view = game.view_for(seat), other.view_for(seat)
    assert other_view == view
    assert strong().act(other_view) == strong().act(view)


def play_out(
    game: GameState, deal: Callable[[int], Sequence[Any]], choose: Callable[[int, Any], Any]
) -> GameState:
    """``game`` played to its end: each round dealt ``deal(round_index)``, each move
    ``choose(seat, view)`` for the seat to act, on its view from the engine."""
    while not game.is_over:
        if game.needs_deal:
            game.deal(deal(game.round_index))
            continue
        seat = game.to_act
        assert seat is not None
        game.apply(seat, choose(seat, game.view_for(seat)))
    return game
