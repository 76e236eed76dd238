"""Engine input checks found missing while writing records and self-play (now fixed)."""

from __future__ import annotations

import pytest

from hundred_server.ai.selfplay import play_game
from hundred_server.games.hundredandten.rules import (
    Bid,
    Discard,
    Game,
    Play,
    SelectTrump,
    Unpass,
)
from hundred_server.games.kit.cards import ALL_CARDS, Suit
from hundred_server.games.records import record_lines
from hundred_server.protocol.errors import HundredError, IllegalActionError


def _ready_to_discard() -> Game:
    """Two players, deck in index order: ann 2H..6H, bob 7H..JH; bob bids, spades."""
    game = Game(["ann", "bob"])
    game.deal(ALL_CARDS)
    game.apply(1, Bid(15))
    game.apply(0, Bid(0))
    game.apply(1, SelectTrump(Suit.SPADES))
    return game


def _ready_to_play() -> Game:
    """``_ready_to_discard``, and neither discards: ann leads."""
    game = _ready_to_discard()
    game.apply(1, Discard(()))
    game.apply(0, Discard(()))
    assert game.to_act == 0
    return game


def test_legal_actions_refuses_a_negative_seat() -> None:
    game = Game(["ann", "bob", "cy"], seed="s")
    with pytest.raises(IllegalActionError) as caught:
        game.legal_actions(-1)
    assert caught.value.code == "bad_seat"


def test_legal_actions_refuses_a_seat_past_the_table() -> None:
    game = Game(["ann", "bob", "cy"], seed="s")
    with pytest.raises(IllegalActionError):
        game.legal_actions(3)


def test_play_of_a_non_card_is_refused_and_changes_nothing() -> None:
    game = _ready_to_play()
    hand = list(game.hands[0])
    with pytest.raises(HundredError):
        game.apply(0, Play(True))  # type: ignore[arg-type]
    assert game.hands[0] == hand
    assert game.trick == []


def test_a_game_that_accepted_a_non_card_can_still_be_recorded() -> None:
    game = _ready_to_play()
    try:
        game.apply(0, Play(1))  # type: ignore[arg-type]
    except HundredError:
        return  # refused: the fixed engine passes here
    record_lines(game)


def test_discard_of_non_cards_is_refused() -> None:
    game = _ready_to_discard()
    with pytest.raises(HundredError):
        game.apply(1, Discard((5,)))  # type: ignore[arg-type]


def test_unpass_after_the_game_is_game_over() -> None:
    game = play_game(2, "over")
    with pytest.raises(IllegalActionError) as caught:
        game.apply(0, Unpass())
    assert caught.value.code == "game_over"
