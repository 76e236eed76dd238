"""Accounts, keys and ratings in the store (store/accounts.py), on each engine: made
once per skeleton, found by key hash, revoked, rated once per game, kept across a
reopen."""

from __future__ import annotations

import pytest

from hundred_server.core.accounts import Attempts, account_id, hash_key
from hundred_server.core.names import fold
from hundred_server.core.ratings import START_MU, START_SIGMA, seat_entry
from hundred_server.protocol.errors import Refused
from hundred_server.store.accounts import AccountStore, open_accounts
from tests.support.engines import Engine


def opened(engine: Engine) -> AccountStore:
    engine.open()  # the games' store first: it makes (and checks) the place
    return open_accounts(engine.location)


def test_an_account_is_made_once_per_skeleton_and_found_by_its_keys(engine: Engine) -> None:
    accounts = opened(engine)
    try:
        assert accounts.create("ann", "Ann", "$argon2id$x", False, hash_key("k1" * 21 + "a"))
        # "AnN_" and "Arn"/"Am" fold alike: the same account, refused.
        assert not accounts.create(account_id("AnN_"), "AnN_", "h", False, hash_key("k2"))
        assert accounts.create(account_id("Am"), "Am", "h", True, hash_key("bot-key"))
        assert accounts.taken("Arn") == "Am"
        assert accounts.taken("a n n") == "Ann"
        assert accounts.taken("bob") is None
        found = accounts.by_key(hash_key("k1" * 21 + "a"))
        assert found is not None
        assert (found.name, found.bot) == ("Ann", False)
        bot = accounts.by_key(hash_key("bot-key"))
        assert bot is not None
        assert (bot.name, bot.bot) == ("Am", True)
        assert accounts.by_key(hash_key("nobody's")) is None
        login = accounts.login("ann")
        assert login is not None
        assert (login.name, login.password) == ("Ann", "$argon2id$x")
        assert accounts.login("bob") is None
    finally:
        accounts.close()


def test_keys_are_several_and_each_is_revoked_alone(engine: Engine) -> None:
    accounts = opened(engine)
    try:
        accounts.create("ann", "ann", "h", False, hash_key("one"))
        accounts.add_key("ann", hash_key("two"))
        assert accounts.keys("ann") == 2
        assert accounts.revoke("ann", hash_key("one"))
        assert not accounts.revoke("ann", hash_key("one"))  # revoked already
        assert accounts.by_key(hash_key("one")) is None
        assert accounts.by_key(hash_key("two")) is not None
        assert accounts.keys("ann") == 1
        # Only the hashes are kept, never a key.
        kept = {row[0] for row in engine.rows("SELECT hash FROM account_keys")}
        assert kept == {hash_key("one"), hash_key("two")}
    finally:
        accounts.close()


def test_a_game_is_rated_once_and_the_ratings_outlive_a_reopen(engine: Engine) -> None:
    accounts = opened(engine)
    ann, bob = seat_entry("ann", "ann", "people"), seat_entry("bob", "bob", "people")
    try:
        accounts.create("ann", "ann", "h", False, hash_key("a"))
        accounts.create("bob", "bob", "h", False, hash_key("b"))
        accounts.ensure_anchors()
        accounts.ensure_anchors()  # once only
        assert accounts.taken("NAIVE") == "naive"
        assert accounts.login(fold("naive")) is not None
        naive = seat_entry(fold("naive"), "naive", "bots", anchor=True)
        assert not accounts.rate(7, {"Winner": 0, "Score": [1, 0]})  # no rated table 7
        accounts.rated_table(7, "whist", [ann, bob], None)
        accounts.rated_table(8, "whist", [ann, naive, bob, None], None)
        assert accounts.unrated() == [7, 8]
        assert accounts.rate(7, {"Winner": 0, "Score": [5, 2]})
        assert not accounts.rate(7, {"Winner": 1, "Score": [2, 5]})  # once only
        assert accounts.unrated() == [8]
        assert accounts.rate(8, {"Winner": 0, "Score": [9, 1, 5, 0]})
        assert accounts.rated(7)
        assert not accounts.rated(9)
        assert accounts.unrated() == []
    finally:
        accounts.close()
    again = open_accounts(engine.location)
    try:
        board = again.leaderboard("whist", "people")
        assert [(r.name, r.games, r.wins) for r in board] == [("ann", 2, 2), ("bob", 2, 0)]
        assert board[0].mu > START_MU > board[1].mu
        assert board[0].sigma < START_SIGMA
        bots = again.leaderboard("whist", "bots")
        assert [(r.name, r.mu, r.sigma, r.games) for r in bots] == [
            (
                "naive",
                20.0,
                1.0,
                1,
            )
        ]
        name, bot, ratings, played = again.profile("ann")
        assert (name, bot, [r.games for r in ratings]) == ("ann", False, [2])
        assert [(i, g) for i, g, _, _ in played] == [(8, "whist"), (7, "whist")]
        assert played[1][3] == {"Winner": 0, "Score": [5, 2]}
        # What the ladder pairs by, read once at start (io/ratings.py): every mu.
        mus = {r.name: r.mu for r in board}
        assert sorted(again.mus()) == [
            ("ann", "whist", mus["ann"]),
            ("bob", "whist", mus["bob"]),
            (fold("naive"), "whist", 20.0),
        ]
        # A struck seat (a ladder's fair clock) is ranked last whatever the score, and
        # the new ratings come back.
        again.rated_table(9, "whist", [ann, bob], None)
        after = again.rate_game(9, {"Winner": 0, "Score": [9, 1], "Struck": [0]})
        assert after is not None
        # ann won on the score, but struck: not counted a win (nor is it bob's)
        assert (after["ann"].games, after["ann"].wins, after["bob"].wins) == (3, 2, 0)
        assert after["ann"].mu < mus["ann"]
        assert after["bob"].mu > mus["bob"]
        assert again.rate_game(9, {"Winner": 0, "Score": [9, 1]}) is None  # once only
    finally:
        again.close()


def test_wrong_guesses_are_counted_across_a_reopen_and_the_old_are_deleted(
    engine: Engine,
) -> None:
    """``Attempts`` (core/accounts.py) on the store's failures: five in the window and
    the next is refused, also from a store opened again; failures older than the
    window are deleted as new ones come, so the table stays small."""
    accounts = opened(engine)
    try:
        attempts = Attempts(log=accounts)
        for i in range(5):
            attempts.check(1000.0 + i, "address 10.0.0.1", "account bob")
            attempts.failed(1000.0 + i, "address 10.0.0.1", "account bob")
    finally:
        accounts.close()
    accounts = opened(engine)
    try:
        attempts = Attempts(log=accounts)
        with pytest.raises(Refused) as refused:
            attempts.check(1010.0, "account bob")
        assert refused.value.code == "too_many_attempts"
        assert refused.value.message == "5 wrong passwords or keys in 300 s; try again in 291 s"
        attempts.check(1010.0, "address 10.0.0.2", "account cy")  # others are not counted
        assert accounts.recent_failures("account bob", 1002.5, 5) == [1004.0, 1003.0]
        # Past the window: checked again, and the next failure deletes the old ones.
        attempts.check(1300.5, "account bob")
        attempts.failed(1400.0, "account cy")
        rows = engine.rows("SELECT who, at FROM sign_in_failures")
        assert [(who, float(at)) for who, at in rows] == [("account cy", 1400.0)]
    finally:
        accounts.close()
