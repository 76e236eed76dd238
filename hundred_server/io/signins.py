"""The accounts' answers, off the event loop: what the lobby asks (core/signin.py's
``AccountAsk``) and what the HTTP API does with names and passwords (io/api.py).

Every call that reads the store, writes it or hashes a password runs on a thread of
its own pool: look-ups (a key, a name, a rating) on one thread, in order, and argon2's
hashes and checks (``login``, ``register``) on ``HASHERS`` more, so that a burst of
logins, each a deliberately slow hash of tens of MiB, neither stalls the look-ups nor
takes more memory than that many hashes at once. The answer comes back on the event
loop (``run``'s ``answered``): the value, or a ``Failed`` with its code and words --
a client's error (``wrong_password``, ``too_many_attempts``, ``name_taken``...), or
``store_unavailable`` when the store failed (logged; nothing changed, the client may
try again).

Wrong passwords and keys are counted in the store (``sign_in_failures``,
store/accounts.py) on the wall clock, so every instance of a site sees the same count
and a restart forgets none: the line protocol's keys, the HTTP API's logins and text
mode's ``login`` share it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from hundred_server.core.accounts import (
    Account,
    Attempts,
    account_id,
    check_name,
    check_password,
    hash_key,
    new_key,
)
from hundred_server.core.signin import (
    AccountAsk,
    Failed,
    LoginLookup,
    Query,
    Registered,
    RegisterLookup,
    look_up,
)
from hundred_server.protocol.errors import ClientError, Refused
from hundred_server.store.accounts import AccountStore
from hundred_server.store.base import StoreError

log = logging.getLogger("hundred_server")

#: Threads that hash and check passwords at once.
HASHERS: Final = 2
#: What a client is told when the store failed under its sign-in.
UNAVAILABLE: Final = (
    "the accounts' store is unavailable right now, so that cannot be checked; nothing "
    "changed, try again soon"
)

T = TypeVar("T")


def taken(name: str, found: str) -> str:
    """Why ``name`` cannot be a new account's: it is ``found``'s, or looks like it."""
    if found == name:
        return f"there is an account {name!r} already; log in, or pick another name"
    return f"{name!r} looks like the account {found!r}; pick another name"


class SignIns:
    """The accounts of ``accounts``, asked on threads (see the module docstring);
    ``clock``: the wall clock of the wrong guesses' windows."""

    def __init__(
        self,
        accounts: AccountStore,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.accounts = accounts
        self.hasher = hasher or PasswordHasher()
        self.attempts = Attempts(log=accounts)
        self.clock = clock
        self._lookups = ThreadPoolExecutor(1, "accounts")
        self._hashing = ThreadPoolExecutor(HASHERS, "argon2")

    # ------------------------------------------------------------ on a thread

    def register(self, name: object, password: object, bot: bool = False) -> Registered:
        """A new account and its first key (``POST /api/accounts``, ``register``)."""
        name = check_name(name)
        password = check_password(password)
        who = account_id(name)
        found = self.accounts.name_of(who)
        if found is not None:
            raise Refused(taken(name, found), "name_taken")
        hashed = self.hasher.hash(password)
        key = new_key()
        if not self.accounts.create(who, name, hashed, bot, hash_key(key)):
            raise Refused(taken(name, name), "name_taken")  # made meanwhile, elsewhere
        log.info("account %r made (%s)", name, "a bot" if bot else "a person")
        return Registered(Account(name, bot), key)

    def login(self, where: str | None, name: str, password: str) -> Account:
        """The account ``name`` is, if ``password`` is its password; else
        ``wrong_password``, charged to ``where`` (an address) and the account, or
        ``too_many_attempts`` unchecked (``POST /api/login``, ``login``)."""
        who = account_id(name.strip())
        charged = (where, f"account {who}")
        self.attempts.check(self.clock(), *charged)
        found = self.accounts.login(who)
        if found is None or not self._verify(found.password, password):
            self.attempts.failed(self.clock(), *charged)
            raise Refused("no account has that name and password", "wrong_password")
        if self.hasher.check_needs_rehash(found.password):
            self.accounts.set_password(who, self.hasher.hash(password))
        return Account(found.name, found.bot)

    def revoke(self, where: str | None, key: str) -> None:
        """Revoke ``key``; ``bad_key`` (charged to ``where``) if no account holds it."""
        self.attempts.check(self.clock(), where)
        found = self.accounts.by_key(hash_key(key))
        if found is None:
            self.attempts.failed(self.clock(), where)
            raise Refused("that key is no account's (or was revoked already)", "bad_key")
        self.accounts.revoke(account_id(found.name), hash_key(key))

    def _verify(self, hashed: str, password: str) -> bool:
        try:
            return self.hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    def answer(self, query: Query) -> object:
        """The answer to the lobby's ``query``; a client's error or a store's failure
        as ``Failed``."""
        try:
            if isinstance(query, LoginLookup):
                return self.login(query.where, query.name, query.password)
            if isinstance(query, RegisterLookup):
                return self.register(query.name, query.password)
            return look_up(query, self.accounts, self.attempts, self.clock())
        except ClientError as exc:
            return Failed(exc.code, exc.message)
        except StoreError as exc:
            log.warning("a sign-in could not be checked: %s", exc)
            return Failed("store_unavailable", UNAVAILABLE)
        except Exception:
            log.exception("a sign-in's look-up failed")
            return Failed("store_unavailable", UNAVAILABLE)

    # ------------------------------------------------------------ on the event loop

    async def call(self, hashing: bool, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` on the look-ups' thread, or (``hashing``) a hasher's."""
        pool = self._hashing if hashing else self._lookups
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    def run(self, asks: list[AccountAsk], answered: Callable[[int, object], None]) -> None:
        """Answer each of the lobby's ``asks`` on a thread; ``answered(ask, answer)``
        on the event loop as each comes."""
        loop = asyncio.get_running_loop()

        def then(number: int) -> Callable[[asyncio.Future[object]], None]:
            def done(future: asyncio.Future[object]) -> None:
                if not future.cancelled():
                    answered(number, future.result())

            return done

        for ask in asks:
            hashing = isinstance(ask.query, LoginLookup | RegisterLookup)
            pool = self._hashing if hashing else self._lookups
            loop.run_in_executor(pool, self.answer, ask.query).add_done_callback(then(ask.ask))

    def close(self) -> None:
        """No more answers: what is queued is dropped, and what runs is waited for (so
        that nothing touches the accounts' store once it is closed, nor opens it again)."""
        self._lookups.shutdown(wait=True, cancel_futures=True)
        self._hashing.shutdown(wait=True, cancel_futures=True)
