"""Hand-made Rook deals for the Rook tests (test_rook*.py): decks built from the hands
each seat is meant to hold, and a way to play a hand out."""

from __future__ import annotations

from collections.abc import Sequence

from hundred_server.games.rook.cards import RookCard, parse_cards
from hundred_server.games.rook.rules import (
    HAND_SIZES,
    KITTY,
    Event,
    Game,
    Phase,
    Play,
)

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


def colour_run(colour: str, skip: Sequence[int] = ()) -> list[str]:
    """A colour's cards, high to low (1, 14 ... 5), but the numbers in ``skip``."""
    return [f"{colour}{n}" for n in (1, *range(14, 4, -1)) if n not in skip]


def deck_for(
    hands: Sequence[Sequence[str]], kitty: Sequence[str], dealer: int = 0
) -> list[RookCard]:
    """The deck that deals ``hands[seat]`` to each seat and ``kitty`` to the kitty, the
    dealer dealing one card at a time from their left."""
    n = len(hands)
    size = HAND_SIZES[n]
    assert all(len(h) == size for h in hands), [len(h) for h in hands]
    assert len(kitty) == KITTY[n]
    order = [hands[(dealer + 1 + i % n) % n][i // n] for i in range(n * size)]
    deck = parse_cards([*order, *kitty])
    assert len(set(deck)) == 45
    return deck


# Four players, each holding one colour but its 5; the kitty is the four 5s and the bird.
FOUR_COLOURS = deck_for(
    [colour_run("B", [5]), colour_run("G", [5]), colour_run("R", [5]), colour_run("Y", [5])],
    ["B5", "G5", "R5", "Y5", "ROOK"],
)

# Three players: seat 0 all black and G1 G14; seat 1 the other greens and Y1 Y14 Y13
# Y12; seat 2 all red and Y11 Y10; the kitty Y9 Y8 Y7 Y6 Y5 and the bird.
THREE_MOON_FAILS = deck_for(
    [
        [*colour_run("B"), "G1", "G14"],
        [*colour_run("G", [1, 14]), "Y1", "Y14", "Y13", "Y12"],
        [*colour_run("R"), "Y11", "Y10"],
    ],
    ["Y9", "Y8", "Y7", "Y6", "Y5", "ROOK"],
)

# Three players: seat 1 holds Y1-Y8 and G1 G14 G13 G12 G11; the kitty Y7 Y6 Y5, the
# bird, G10 and G9; seat 0 all black and G8 G7, seat 2 all red and G6 G5.
THREE_MOON_MADE = deck_for(
    [
        [*colour_run("B"), "G8", "G7"],
        [*colour_run("Y", [7, 6, 5]), "G1", "G14", "G13", "G12", "G11"],
        [*colour_run("R"), "G6", "G5"],
    ],
    ["Y7", "Y6", "Y5", "ROOK", "G10", "G9"],
)


def play_out(game: Game, scripted: Sequence[str] = ()) -> list[Event]:
    """Play the trick phase of the hand under way: the ``scripted`` cards first (each
    by the seat to act), then every seat its first legal card, to the end of the hand."""
    assert game.phase is Phase.TRICKS
    hand = game.round
    events: list[Event] = []
    for code in scripted:
        seat = game.to_act
        assert seat is not None
        events += game.apply(seat, Play(RookCard.parse(code)))
    while game.phase is Phase.TRICKS and game.round == hand:
        seat = game.to_act
        assert seat is not None
        events += game.apply(seat, game.legal_actions(seat)[0])
    return events
