"""Every game as an OpenSpiel game (hundred_server/research/openspiel.py): registered
as python_hundred_<game>, OpenSpiel's random simulation test with serialization, the
deal as chance outcomes and what a seat's information state holds. Skipped when the
research extra is not installed."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

import hundred_server.research.openspiel  # noqa: E402, F401
from hundred_server import games  # noqa: E402

GAMES = games.names()


@pytest.mark.parametrize("game", GAMES)
def test_random_sim_with_serialization(game: str) -> None:
    loaded = pyspiel.load_game(f"python_hundred_{game}")
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


def test_the_deal_is_chance_card_by_card_with_the_copies_left() -> None:
    game = pyspiel.load_game("python_hundred_pinochle")
    assert game.num_players() == 4
    assert str(game) == "python_hundred_pinochle(hands=1,players=4,reward=win)"
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 24
    assert {p for _, p in outcomes} == {2 / 48}
    state.apply_action(0)
    assert dict(state.chance_outcomes())[0] == 1 / 47
    assert dict(state.chance_outcomes())[1] == 2 / 47
    for _ in range(47):
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_chance_node()
    assert state.current_player() == 1  # left of the dealer bids first


def test_an_information_state_is_what_the_seat_was_told() -> None:
    game = pyspiel.load_game("python_hundred_whist")
    state = game.new_initial_state()
    for card in range(52):
        state.apply_action(card)
    seat = state.current_player()
    mine = state.information_state_string(seat)
    theirs = state.information_state_string((seat + 1) % 4)
    assert mine.startswith(f"p{seat}\n")
    assert '"Type": "Deal"' in mine
    assert mine != theirs
    before = state.information_state_string((seat + 1) % 4)
    state.apply_action(state.legal_actions()[0])
    after = state.information_state_string((seat + 1) % 4)
    assert after.startswith(before)
    assert '"Type": "Play"' in after[len(before) :]
    tensor = state.information_state_tensor(seat)
    assert len(tensor) == game.information_state_tensor_size()
    assert "Your hand:" in state.observation_string(seat)


def test_returns_are_zero_sum_wins() -> None:
    game = pyspiel.load_game("python_hundred_spades")
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])
    assert sum(state.returns()) == 0
    assert sorted(state.returns()) in ([-1, -1, 1, 1], [0, 0, 0, 0])


def test_points_and_hands_parameters() -> None:
    game = pyspiel.load_game("python_hundred_hundert(hands=2,reward=points)")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    with pytest.raises(Exception, match="hands is 1 or more"):
        pyspiel.load_game("python_hundred_hundert(hands=0)")


@pytest.mark.parametrize("game", ["whist", "hundredandten", "rook"])
def test_a_resampled_state_is_one_the_seat_cannot_tell_from_the_real_one(game: str) -> None:
    """Drawn with the strong AI's sampler: the seat's information state and legal
    actions are the real ones, the other hands are not always."""
    from hundred_server.research import sampling

    loaded = pyspiel.load_game(f"python_hundred_{game}")
    state = loaded.new_initial_state()
    steps = 0
    while state.is_chance_node() or steps < 12:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[1] if len(legal) > 1 else legal[0])
            steps += 1
    assert not state.is_terminal()
    seat = state.current_player()
    other = (seat + 1) % loaded.num_players()
    before = sampling.FALLBACKS[0]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(6):
        drawn = state.resample_from_infostate(seat, sampler)
        assert drawn.information_state_string(seat) == state.information_state_string(seat)
        assert drawn.legal_actions() == state.legal_actions()
        others.add(drawn.information_state_string(other))
    assert sampling.FALLBACKS[0] == before
    assert len(others) > 1
