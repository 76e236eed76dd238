"""The views' JSON form (hundred_server/games/views.py): every decision's view of seeded
games of every game reads back equal, and the built-in AIs choose the same on it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hundred_server import games
from hundred_server.games import views
from hundred_server.games.base import GameSpec, is_over, needs_deal, player_names
from hundred_server.games.views import ViewError

GAMES = games.names()


def decisions(spec: GameSpec, players: int, seed: str, most: int) -> list[tuple[Any, Any]]:
    """(game, view) at each decision of a game of ``spec`` (``most`` at most), its seats
    played by the naive AI and, one move in four, at random (so odd spots come up)."""
    rng = random.Random(seed)
    game = spec.new_game(player_names(players), None)
    ai = spec.bots["naive"]()
    seen: list[tuple[Any, Any]] = []
    while not is_over(game) and len(seen) < most:
        if needs_deal(game):
            game.deal(spec.seeded_deck(seed, game.round_index))
            continue
        seat = game.to_act
        assert seat is not None
        view = spec.view(game, seat)
        seen.append((game, view))
        game.apply(seat, rng.choice(view.legal) if rng.random() < 0.25 else ai.act(view))
    return seen


def round_trip(spec: GameSpec, view: Any) -> Any:
    return views.decode(spec, json.loads(json.dumps(views.encode(view))))


@pytest.mark.parametrize("name", GAMES)
def test_every_decisions_view_reads_back_equal_at_every_table_size(name: str) -> None:
    spec = games.get(name)
    count = 0
    for players in spec.seat_counts:
        for n in range(2):
            for _, view in decisions(spec, players, f"views-{name}-{players}-{n}", 400):
                encoded = views.encode(view)
                assert encoded["Type"] == type(view).__name__
                assert len(encoded["legal"]) == len(view.legal)
                back = round_trip(spec, view)
                assert back == view
                assert back.legal == view.legal
                assert type(back) is type(view)
                count += 1
    assert count > 100


@pytest.mark.parametrize("name", GAMES)
def test_the_ais_choose_the_same_on_a_view_read_back(name: str) -> None:
    spec = games.get(name)
    strong = spec.bots["strong"](budget=None, work=1000)
    naive = spec.bots["naive"]()
    for _, view in decisions(spec, min(spec.seat_counts), f"same-{name}", 40):
        back = round_trip(spec, view)
        assert strong.act(back) == strong.act(view)
        assert naive.act(back) == naive.act(view)


def test_actions_and_cards_as_json() -> None:
    from hundred_server.games.hundredandten.rules import Bid, Discard, Play, SelectTrump
    from hundred_server.games.kit.cards import Card, Suit
    from hundred_server.games.rook.cards import Colour, RookCard
    from hundred_server.games.rook.rules import Setup

    assert views.encode(Bid(15)) == {"Type": "Bid", "amount": 15}
    assert views.encode(Play(Card.parse("5H"))) == {"Type": "Play", "card": "5H"}
    assert views.encode(SelectTrump(Suit.CLUBS)) == {"Type": "SelectTrump", "suit": "C"}
    cards = (Card.parse("2C"), Card.parse("JK"))
    assert views.encode(Discard(cards)) == {"Type": "Discard", "cards": ["2C", "JK"]}
    setup = Setup((RookCard.parse("ROOK"),), Colour.parse("R"), (RookCard.parse("B14"),))
    assert views.encode(setup) == {
        "Type": "Setup",
        "discard": ["ROOK"],
        "trump": "R",
        "partners": ["B14"],
    }


def test_hundred_and_tens_view_is_its_parts_with_absolute_seats() -> None:
    spec = games.get("hundredandten")
    game, view = decisions(spec, 4, "parts", 30)[-1]
    encoded = views.encode(view)
    assert encoded["seat"] == view.seat
    assert encoded["dealer"] == game.dealer  # absolute (the View's property is relative)
    assert encoded["scores"] == list(game.scores)
    assert encoded["hand"] == [c.code for c in view.hand]


def test_an_object_that_is_no_view_is_refused_saying_where() -> None:
    spec = games.get("whist")
    _, view = decisions(spec, 4, "bad", 5)[-1]
    good = views.encode(view)
    cases: list[tuple[dict[str, Any], str]] = [
        ({**good, "hand": ["1X"]}, "View.hand[0]: not a card: '1X'"),
        ({**good, "seat": "0"}, "View.seat must be int, not '0'"),
        ({**good, "Type": "Game"}, "View: Type must be 'View', not 'Game'"),
        ({k: v for k, v in good.items() if k != "trump"}, "View lacks trump"),
        ({**good, "legal": [{"Type": "Bid"}]}, "View.legal[0]: Type 'Bid' names no class"),
        ({**good, "phase": "dance"}, "View.phase: 'dance' is no Phase"),
        ({**good, "tricks_won": [0]}, "View.tricks_won must have 2 items, not 1"),
    ]
    for bad, words in cases:
        with pytest.raises(ViewError) as info:
            views.decode(spec, bad)
        assert str(info.value).startswith(words)
