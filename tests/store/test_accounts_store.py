"""Accounts, keys and ratings in the store (store/accounts.py), on each engine: made
once per skeleton, found by key hash, revoked, rated once per game, kept across a
reopen."""

from __future__ import annotations

from hundred_server.core.accounts import account_id, hash_key
from hundred_server.store.accounts import AccountStore, Before, Rating, open_accounts
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


def _plus_one(before: Before) -> list[Rating]:
    """A rater that adds 1 to mu and counts a game (a first rating starts at 25)."""
    out = []
    for account, r in before.items():
        if r is None:
            out.append(Rating(account, "whist", "people", 26.0, 8.0, 1, 1))
        else:
            out.append(Rating(r.name, r.game, r.pool, r.mu + 1, r.sigma - 1, r.games + 1, r.wins))
    return out


def test_a_game_is_rated_once_and_the_ratings_outlive_a_reopen(engine: Engine) -> None:
    accounts = opened(engine)
    seats: list[object] = [{"account": "ann", "name": "ann"}, {"account": "bob", "name": "bob"}]
    try:
        accounts.create("ann", "ann", "h", False, hash_key("a"))
        accounts.create("bob", "bob", "h", False, hash_key("b"))
        assert accounts.rate(7, "whist", seats, _plus_one)
        assert not accounts.rate(7, "whist", seats, _plus_one)  # once only
        assert accounts.rate(8, "whist", seats, _plus_one)
        assert accounts.rated(7)
        assert not accounts.rated(9)
    finally:
        accounts.close()
    again = open_accounts(engine.location)
    try:
        board = again.leaderboard("whist", "people")
        assert [(r.name, r.mu, r.sigma, r.games, r.wins) for r in board] == [
            ("ann", 27.0, 7.0, 2, 1),
            ("bob", 27.0, 7.0, 2, 1),
        ]
        assert again.leaderboard("whist", "bots") == []
        name, bot, ratings, played = again.profile("ann")
        assert (name, bot, [r.games for r in ratings]) == ("ann", False, [2])
        assert [(i, g) for i, g, _ in played] == [(8, "whist"), (7, "whist")]
    finally:
        again.close()
