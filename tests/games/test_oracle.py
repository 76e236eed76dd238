"""The leak oracles of tests/support/oracle.py, for every game through the interface:
whole seeded games with people and AI seats pass them, and a leak planted in what a
seat or a watcher is told, of every kind and in every game, is caught."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from hundred_server import games
from hundred_server.games.base import WATCHER, GameState, player_names
from tests.support.oracle import CardReader, LeakError, cards_held, play_checked

Message = dict[str, Any]
Told = dict[int | None, list[Message]]


def table_sizes(name: str) -> list[int]:
    counts = games.get(name).seat_counts
    return sorted({min(counts), max(counts)})


@pytest.mark.parametrize(
    ("name", "seats"), [(name, seats) for name in games.names() for seats in table_sizes(name)]
)
def test_whole_games_with_people_and_ai_seats_pass_the_oracles(name: str, seats: int) -> None:
    """Seat 0 and the last seat are people (random legal answers now and then), the
    others the naive AI; every batch told to each seat and a watcher is checked."""
    game = play_checked(name, seats, f"oracle-{name}-{seats}", people={0, seats - 1})
    assert game.is_over


def _unknown(game: GameState, seat: int, reader: CardReader) -> tuple[int, str]:
    """Another seat and a card of its hand that ``seat`` does not see."""
    mine = cards_held(game.view_for(seat), reader.codes)
    for other in range(len(game.players)):
        held = cards_held(game.view_for(other).hand, reader.codes) - mine
        if other != seat and held:
            return other, sorted(held)[0]
    raise AssertionError("every card is seen by every seat")


def _undealt(game: GameState, seed: str, reader: CardReader) -> str | None:
    """A card of this round's deck in no seat's hand (the kitty, nest or talon)."""
    deck = [c.code for c in games.spec_of(game).seeded_deck(seed, game.round_index)]
    held: set[str] = set()
    for seat in range(len(game.players)):
        held |= cards_held(game.view_for(seat), reader.codes)
    return next((c for c in deck if c not in held), None)


Plant = Callable[[GameState, CardReader, str, Told], bool]


def another_hands_card_in_text(game: GameState, reader: CardReader, seed: str, told: Told) -> bool:
    other, card = _unknown(game, 0, reader)
    name = next((n for n, c in reader.names.items() if c == card and n != card), card)
    told[0].append({"Type": "Message", "Message": f"{game.players[other]} holds {name}"})
    return True


def another_hands_card_in_a_field(
    game: GameState, reader: CardReader, seed: str, told: Told
) -> bool:
    other, card = _unknown(game, 0, reader)
    told[0].append({"Type": "Play", "Playerid": other, "Seq": 9, "Legal": [card]})
    return True


def an_undealt_card(game: GameState, reader: CardReader, seed: str, told: Told) -> bool:
    card = _undealt(game, seed, reader)
    if card is None:
        return False  # every card of this game is dealt: nothing is put aside
    told[1].append({"Type": "Kitty", "Playerid": 1, "Cards": [card]})
    return True


def the_seed(game: GameState, reader: CardReader, seed: str, told: Told) -> bool:
    told[1].append({"Type": "Message", "Message": f"this table deals from {seed}"})
    return True


def a_hands_card_to_the_watcher(game: GameState, reader: CardReader, seed: str, told: Told) -> bool:
    other, card = _unknown(game, 0, reader)
    told[WATCHER].append({"Type": "Message", "Message": f"{game.players[other]} leads {card}"})
    return True


def a_seats_own_copy_to_the_watcher(
    game: GameState, reader: CardReader, seed: str, told: Told
) -> bool:
    other, card = _unknown(game, 0, reader)
    told[WATCHER].append({"Type": "Discard", "Playerid": other, "Count": 1, "Cards": [card]})
    return True


PLANTS: list[Plant] = [
    another_hands_card_in_text,
    another_hands_card_in_a_field,
    the_seed,
    a_hands_card_to_the_watcher,
    a_seats_own_copy_to_the_watcher,
]


def _all_dealt(name: str) -> bool:
    """Whether every card of the game's deck is dealt to the seats (no kitty)."""
    spec = games.get(name)
    seed = f"oracle-{name}-{min(spec.seat_counts)}"
    game = spec.new_game(player_names(min(spec.seat_counts)), seed)
    game.deal(spec.seeded_deck(seed, 0))
    return _undealt(game, seed, CardReader(spec)) is None


PUT_ASIDE = [name for name in games.names() if not _all_dealt(name)]


def test_some_games_put_cards_aside_and_the_others_deal_them_all() -> None:
    """The kitty plant below runs for the games that put cards aside; the others have
    no card to leak that is in nobody's hand."""
    assert PUT_ASIDE
    for name in set(games.names()) - set(PUT_ASIDE):
        spec = games.get(name)
        game = spec.new_game(player_names(min(spec.seat_counts)), "all-dealt")
        deck = spec.seeded_deck("all-dealt", 0)
        game.deal(deck)
        held = [c for s in range(len(game.players)) for c in game.view_for(s).hand]
        assert sorted(c.code for c in held) == sorted(c.code for c in deck)


@pytest.mark.parametrize(
    ("name", "plant"),
    [(name, plant) for name in games.names() for plant in PLANTS]
    + [(name, an_undealt_card) for name in PUT_ASIDE],
    ids=lambda x: x if isinstance(x, str) else x.__name__,
)
def test_a_planted_leak_is_caught_in_every_game(name: str, plant: Plant) -> None:
    """The same whole game passes (``test_whole_games_...``); with one leak planted in
    what is told after a random move of the first round, it fails, saying whose."""
    seats = min(games.get(name).seat_counts)
    seed = f"oracle-{name}-{seats}"
    reader = CardReader(games.get(name))
    # After a random move of the first round; the kitty's cards before its first (once
    # the bidder takes them, each is in some seat's view: its hand or its discard).
    when = 1 if plant is an_undealt_card else random.Random(plant.__name__).randint(1, 2 * seats)
    planted: list[bool] = []
    moves = [0]

    def leak(game: GameState, told: Told) -> None:
        if planted or game.needs_deal or game.is_over or game.to_act is None:
            return
        moves[0] += 1
        if moves[0] == when:
            planted.append(plant(game, reader, seed, told))

    with pytest.raises(LeakError, match=r"may not know|not face up|never told|the seed") as caught:
        play_checked(name, seats, seed, people={0}, plant=leak)
    assert planted == [True], caught.value
