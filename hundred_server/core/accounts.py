"""Accounts: what a name, a password and a key may be, how wrong guesses are counted,
and what the lobby asks of the accounts (no I/O).

An account has a name (the lobby's name rules, ``NAME_RE``, and not reserved), kept as
written and found by its skeleton (``names.fold``): ``Ann``, ``ann`` and ``AnN_`` are
one account, and ``Arm`` and ``Ann`` are not, but ``rn`` reads as ``m``, so ``Arn`` is
a look-alike of ``Am`` and refused once ``Am`` exists. A password is 8-128 characters,
kept only as its argon2 hash (store/accounts.py, the hashing off the event loop). A key
(``new_key``) is 43 characters of URL-safe base64 (256 random bits), shown once and kept
as its SHA-256 (``hash_key``): random enough that a fast hash is safe, and a key is
found by its hash in one look-up. An account may hold several keys, each revocable.

Wrong guesses (a password, a key) are counted by ``Attempts``, per address and per
account: after ``MAX_FAILURES`` wrong ones within ``FAILURE_WINDOW`` seconds, the next
is refused (``too_many_attempts``) without being checked, until the window has passed.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from hundred_server.core.names import NAME_RE, fold, reserved
from hundred_server.protocol.errors import Malformed, Refused
from hundred_server.protocol.wire import quote

#: What a key looks like: ``secrets.token_urlsafe(32)``.
KEY_RE: Final = re.compile(r"^[A-Za-z0-9_-]{43}$")
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 128
#: Wrong passwords or keys within ``FAILURE_WINDOW`` seconds, per address and per
#: account, after which the next attempt is refused unread.
MAX_FAILURES: Final = 5
FAILURE_WINDOW: Final = 300.0
#: The most addresses and accounts whose failures are remembered (the oldest forgotten
#: first), so that guessing from many addresses cannot grow memory without end.
MAX_TRACKED: Final = 100_000


def check_name(name: object) -> str:
    """An account's name as given, trimmed; ``bad_name`` if it breaks the rules."""
    if not isinstance(name, str):
        raise Malformed("name must be a string", "bad_name")
    name = name.strip()
    if not NAME_RE.match(name):
        raise Malformed(
            f"an account's name is 1-20 letters, digits, spaces, _ - . : not {quote(name)}",
            "bad_name",
        )
    if reserved(name):
        raise Malformed(
            f"the name {quote(name)} is or looks like a reserved name (you, me, AI N, server, "
            "playerN); pick another",
            "bad_name",
        )
    return name


def check_password(password: object) -> str:
    """A new password, or ``bad_password`` saying what is wrong with it."""
    if not isinstance(password, str):
        raise Malformed("password must be a string", "bad_password")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Malformed(
            f"a password is {MIN_PASSWORD}-{MAX_PASSWORD} characters, not {len(password)}",
            "bad_password",
        )
    return password


def account_id(name: str) -> str:
    """The account a name is (or would be): its skeleton."""
    return fold(name)


def new_key() -> str:
    """A fresh API key (shown once)."""
    return secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    """What is stored of a key: its SHA-256, in hex."""
    return hashlib.sha256(key.encode()).hexdigest()


def read_key(value: object) -> str:
    """A ``Key`` field's value, or ``bad_key`` (nothing is looked up)."""
    if not isinstance(value, str) or not KEY_RE.match(value):
        raise Refused(
            "Key must be an account's API key (43 characters of A-Z a-z 0-9 _ -)", "bad_key"
        )
    return value


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the lobby sees it: its name as registered, and whether it is a bot."""

    name: str
    bot: bool = False


class AccountBook(Protocol):
    """What the lobby asks of the accounts (the server's store answers; tests give a
    dict)."""

    def by_key(self, key_hash: str) -> Account | None:
        """The account that holds the key of that hash, if it holds it still."""
        ...

    def taken(self, name: str) -> str | None:
        """The name of the account ``name`` is, or looks like (None: none)."""
        ...


class FailureLog(Protocol):
    """Where wrong guesses are kept: in memory (``MemoryFailures``, one process), or in
    the store (store/accounts.py: every instance of a site, and across restarts)."""

    def recent_failures(self, who: str, since: float, limit: int) -> list[float]:
        """The times of ``who``'s latest ``limit`` failures after ``since``, newest
        first."""
        ...

    def add_failures(self, who: Sequence[str], at: float, forget: float) -> None:
        """A failure at ``at`` for each of ``who``; those at or before ``forget`` may
        be forgotten."""
        ...


class MemoryFailures:
    """Failures in memory, ``MAX_TRACKED`` addresses and accounts at most (the oldest
    forgotten first), the latest ``keep`` of each."""

    def __init__(self, keep: int = MAX_FAILURES) -> None:
        self.keep = keep
        self._failures: dict[str, deque[float]] = {}

    def recent_failures(self, who: str, since: float, limit: int) -> list[float]:
        times = self._failures.get(who)
        if times is None:
            return []
        while times and times[0] <= since:
            times.popleft()
        if not times:
            del self._failures[who]
        return sorted(times, reverse=True)[:limit]

    def add_failures(self, who: Sequence[str], at: float, forget: float) -> None:
        for one in who:
            times = self._failures.get(one)
            if times is None:
                if len(self._failures) >= MAX_TRACKED:
                    del self._failures[next(iter(self._failures))]
                times = self._failures[one] = deque(maxlen=self.keep)
            times.append(at)


class Attempts:
    """Wrong guesses per address and per account (see the module docstring), kept in
    ``log`` (None: in memory). ``check`` before a guess is checked, ``failed`` after a
    wrong one; a right one does not clear the count (a guesser who knows one password
    learns nothing from it)."""

    def __init__(
        self,
        limit: int = MAX_FAILURES,
        window: float = FAILURE_WINDOW,
        log: FailureLog | None = None,
    ) -> None:
        self.limit = limit
        self.window = window
        self.log: FailureLog = log if log is not None else MemoryFailures(limit)

    def check(self, now: float, *who: str | None) -> None:
        """``too_many_attempts`` if any of ``who`` (an address, an account) is at its
        limit; nothing changes."""
        for one in who:
            if one is None:
                continue
            times = self.log.recent_failures(one, now - self.window, self.limit)
            if len(times) >= self.limit:
                wait = int(min(times) + self.window - now) + 1
                raise Refused(
                    f"{self.limit} wrong passwords or keys in {int(self.window)} s; try again "
                    f"in {wait} s",
                    "too_many_attempts",
                )

    def failed(self, now: float, *who: str | None) -> None:
        """A wrong guess, charged to each of ``who``."""
        charged = [one for one in who if one is not None]
        if charged:
            self.log.add_failures(charged, now, now - self.window)
