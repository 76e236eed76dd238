"""Ratings (core/ratings.py): the order a result gives, openskill's updates, the anchors
that never move, partners rated together, and the rated table's seats (through the
hub)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hundred_server.core.accounts import Account, account_id, hash_key
from hundred_server.core.names import fold
from hundred_server.core.ratings import (
    ANCHORS,
    START_MU,
    START_SIGMA,
    GameOver,
    RatedStart,
    Rating,
    rate_game,
    seat_entry,
    team_ranks,
)
from tests.support.hub_harness import Harness

ANN = seat_entry("ann", "ann", "people")
BOB = seat_entry("bob", "bob", "people")
NAIVE = seat_entry("naive", "naive", "bots", anchor=True)


def test_the_winner_ranks_first_and_the_rest_by_score_ties_shared() -> None:
    team, ranks, winner = team_ranks(4, None, {"Winner": 2, "Score": [50, 80, 120, 80]})
    assert (team, ranks, winner) == ([0, 1, 2, 3], [4, 2, 1, 2], 2)
    # Partnerships: seats 0 and 2 are side 0; the score and the winner are by side.
    team, ranks, winner = team_ranks(4, (0, 1, 0, 1), {"Winner": 1, "Score": [40, 105]})
    assert (team, ranks, winner) == ([0, 1, 0, 1], [2, 1], 1)


def test_a_win_moves_the_winner_up_and_the_loser_down_uncertainty_shrinking() -> None:
    after = rate_game("whist", [ANN, BOB], None, {"Winner": 0, "Score": [5, 2]}, {})
    ann, bob = after["ann"], after["bob"]
    assert ann.mu > START_MU > bob.mu
    assert ann.sigma < START_SIGMA
    assert bob.sigma < START_SIGMA
    assert (ann.games, ann.wins, bob.games, bob.wins) == (1, 1, 1, 0)
    assert (ann.pool, ann.game, ann.name) == ("people", "whist", "ann")
    # From those ratings, a second game goes on from them (and counts).
    again = rate_game("whist", [ANN, BOB], None, {"Winner": 1, "Score": [1, 7]}, after)
    assert again["ann"].mu < ann.mu
    assert again["bob"].mu > bob.mu
    assert (again["ann"].games, again["ann"].wins, again["bob"].wins) == (2, 1, 1)


def test_an_anchor_never_moves_and_others_are_rated_against_it() -> None:
    before = {"naive": Rating("naive", "whist", "bots", 99.0, 9.0, 10, 3)}
    seats = [ANN, NAIVE, NAIVE, NAIVE]
    after = rate_game("whist", seats, None, {"Winner": 0, "Score": [9, 1, 1, 1]}, before)
    assert (after["naive"].mu, after["naive"].sigma) == ANCHORS["naive"]
    assert (after["naive"].games, after["naive"].wins) == (11, 3)
    assert after["ann"].mu > START_MU
    assert after["ann"].games == 1
    assert after["ann"].wins == 1


def test_partners_are_rated_as_one_team() -> None:
    cy, dee = seat_entry("cy", "cy", "bots"), seat_entry("dee", "dee", "bots")
    result = {"Winner": 0, "Score": [100, 20]}
    after = rate_game("spades", [ANN, cy, BOB, dee], (0, 1, 0, 1), result, {})
    assert after["ann"].mu == pytest.approx(after["bob"].mu)
    assert after["ann"].mu > START_MU
    assert after["cy"].mu == pytest.approx(after["dee"].mu)
    assert after["cy"].mu < START_MU
    assert [after[a].wins for a in ("ann", "bob", "cy", "dee")] == [1, 1, 0, 0]
    assert after["cy"].pool == "bots"


def test_a_seat_of_no_account_is_not_rated() -> None:
    after = rate_game(
        "whist", [ANN, None, BOB, None], None, {"Winner": 1, "Score": [3, 9, 5, 1]}, {}
    )
    assert set(after) == {"ann", "bob"}
    assert after["bob"].mu > after["ann"].mu  # bob scored more, both lost
    assert after["ann"].wins == after["bob"].wins == 0


class Book:
    def by_key(self, key_hash: str) -> Account | None:
        names = {hash_key(n * 43): n for n in ("a", "b")}
        name = names.get(key_hash)
        return None if name is None else Account(name, bot=name == "b")

    def taken(self, name: str) -> str | None:
        return name if fold(name) in ("a", "b") else None


def test_a_rated_table_is_for_accounts_and_says_its_seats_and_result() -> None:
    h = Harness("rated")
    h.hub.lobby.sign_in.book = Book()
    a, b, guest = h.json_client(), h.json_client(), h.json_client("gus")
    a.send({"Type": "Hello", "Key": "a" * 43})
    b.send({"Type": "Hello", "Key": "b" * 43})
    a.send({"Type": "Hello", "Message": "create", "Game": "whist"})
    said = a.send({"Type": "Game", "Option": 1, "Rated": True, "AI": "naive"})
    table = next(m["Table"] for m in said if m.get("Type") == "Table")
    assert table == 1
    guest.send({"Type": "Hello", "Message": "join"})
    refused = guest.send({"Type": "Join", "Table": table})
    assert [m["Code"] for m in refused if m.get("Type") == "Error"] == ["not_rated"]
    events = h.hub.lobby.rating_events
    # Option 1 of Whist is one person and three AI: the game started with ann.
    start = next(e for e in events if isinstance(e, RatedStart))
    assert start.game == "whist"
    assert start.seats[0] == seat_entry("a", "a", "people")
    assert start.seats[1:] == (seat_entry(fold("naive"), "naive", "bots", anchor=True),) * 3
    del b


def _play_out(client: Any) -> None:
    import random

    from tests.support.hub_harness import answer_from_legal

    rng = random.Random(1)
    for _ in range(5000):
        prompt = client.pending()
        if prompt is None:
            return
        client.send(answer_from_legal(prompt, rng))


def test_a_rated_game_that_ends_says_its_result() -> None:
    h = Harness("rated-end")
    h.hub.lobby.sign_in.book = Book()
    a = h.json_client()
    a.send({"Type": "Hello", "Key": "a" * 43})
    a.send({"Type": "Hello", "Message": "create", "Game": "whist"})
    a.send({"Type": "Game", "Option": 1, "Rated": True, "AI": "naive"})
    _play_out(a)
    over = [e for e in h.hub.lobby.rating_events if isinstance(e, GameOver)]
    assert [e.table_id for e in over] == [1]
    assert set(over[0].result) >= {"Winner", "Score"}


def test_an_anchor_at_seats_of_both_sides_plays_for_each() -> None:
    """Whist with one person: the person's partner and both opponents are the naive
    anchor; the person is rated against the anchor's fixed strength, and the anchor
    counts one game (a win: one of its seats won)."""
    seats = [ANN, NAIVE, NAIVE, NAIVE]
    lost = rate_game("whist", seats, (0, 1, 0, 1), {"Winner": 1, "Score": [3, 7]}, {})
    assert lost["ann"].mu < START_MU
    assert (lost["ann"].wins, lost["naive"].games, lost["naive"].wins) == (0, 1, 1)
    won = rate_game("whist", seats, (0, 1, 0, 1), {"Winner": 0, "Score": [7, 3]}, {})
    assert won["ann"].mu > START_MU
    assert (won["ann"].wins, won["naive"].wins) == (1, 1)


@given(
    st.lists(st.integers(-200, 200), min_size=2, max_size=6).flatmap(
        lambda scores: st.tuples(st.just(scores), st.integers(0, len(scores) - 1))
    )
)
def test_ranks_put_the_winner_first_and_follow_the_scores(case: tuple[list[int], int]) -> None:
    scores, winner = case
    team, ranks, won = team_ranks(len(scores), None, {"Winner": winner, "Score": scores})
    assert (team, won, ranks[winner]) == (list(range(len(scores))), winner, 1)
    others = [t for t in team if t != winner]
    assert all(ranks[t] >= 2 for t in others)
    for a in others:
        for b in others:
            if scores[a] > scores[b]:
                assert ranks[a] < ranks[b]
            if scores[a] == scores[b]:
                assert ranks[a] == ranks[b]


@given(st.from_regex(r"[A-Za-z0-9]{1,6}", fullmatch=True), st.sampled_from(["_", "-", ".", " "]))
def test_a_name_with_case_and_separators_changed_is_the_same_account(name: str, sep: str) -> None:
    variant = sep.join(name.swapcase())
    assert account_id(variant) == account_id(name)
