"""Signing in, with the accounts' store never asked on the event loop (no I/O).

What the lobby asks of the accounts -- whose a ``Key`` is, whether a guest's name is an
account's, a text-mode ``login`` or ``register``
-- is a look-up in the store (on PostgreSQL, a network round trip) or an argon2 hash.
When the accounts are in a store (``SignIn.inline`` False: the server's case), the
lobby asks for it the way a table asks a plug-in bot for its move (core/remote.py):

1. the message that needs an answer raises ``Pending(query)`` before it has changed
   anything (the lobby's ``Hello`` validates fully, then changes state); the lobby
   keeps it (``pending``) and an ``AccountAsk(conn, ask, query)`` for the server
   (``take``);
2. the server runs the ask on a thread (io/signins.py) and hands the answer back,
   ``Hub.account_answer(ask, answer)``: the value, or a ``Failed`` (a code and its
   words: a wrong password, too many attempts, the store unavailable);
3. the lobby reads the kept message again from the start, the answer now known
   (``answered``), so it ends exactly as it would have in one go: the same messages,
   the same errors. One that needs a second answer asks again.

Meanwhile the connection's later lines wait unread, in order (hub.py, ``Held``). An
answer for a connection that has gone, or for a message no longer kept, is dropped.

An in-process book (``inline``, the default: tests and embedders, whose books are dicts)
is asked in place, as is none at all (``book`` None: no store, so every ``Key`` is
``bad_key`` and every name a guest's); wrong guesses are then counted in memory
(``attempts``), while the server's are counted in the store (io/signins.py), for
every instance of a site and across restarts.

The ladder's ratings are not asked here: the ladder keeps them in memory, filled and
kept fresh by the server's rating writer (core/ladder.py, io/ratings.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hundred_server.core.accounts import (
    KEY_RE,
    Account,
    AccountBook,
    Attempts,
    hash_key,
    read_key,
)
from hundred_server.core.names import fold
from hundred_server.core.sessions import IN_LOBBY, Session
from hundred_server.protocol.credentials import Credentials
from hundred_server.protocol.errors import Malformed, Refused, for_code
from hundred_server.protocol.wire import Message, message, quote

if TYPE_CHECKING:
    from hundred_server.core.lobby import Lobby
    from hundred_server.core.table import Outgoing


@dataclass(frozen=True, slots=True)
class KeyLookup:
    """The account whose API key hashes to ``key_hash``, once ``where`` (an address's
    label, or None) is found not at its limit of wrong guesses; a key no account holds
    is charged to ``where``. ``key_hash`` None (a malformed key): only the check."""

    where: str | None
    key_hash: str | None


@dataclass(frozen=True, slots=True)
class NameLookup:
    """The name of the account ``name`` is, or looks like (None: none)."""

    name: str


@dataclass(frozen=True, slots=True)
class LoginLookup:
    """The account ``name`` is, if ``password`` is its password (``POST /api/login``'s
    check, its wrong guesses counted the same way): an ``Account``."""

    where: str | None
    name: str
    password: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class RegisterLookup:
    """A new account (``POST /api/accounts``): a ``Registered``."""

    name: str
    password: str = field(repr=False)


Query = KeyLookup | NameLookup | LoginLookup | RegisterLookup


@dataclass(frozen=True, slots=True)
class Registered:
    """A new account and its first API key (shown once)."""

    account: Account
    key: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class Failed:
    """A query's answer that is an error for the client: its wire code and words."""

    code: str
    text: str


@dataclass(frozen=True, slots=True)
class AccountAsk:
    """Answer ``query`` for connection ``conn`` with ``Hub.account_answer(ask,
    answer)``."""

    conn: int
    ask: int
    query: Query


class Pending(Exception):
    """The message at hand needs ``query`` answered first (nothing has changed)."""

    def __init__(self, query: Query) -> None:
        super().__init__(type(query).__name__)
        self.query = query


@dataclass(eq=False)
class Held:
    """A message kept until its answers come: the ask out for it (None: none, it is
    being read again), and the answers it has had."""

    item: Message | Credentials
    ask: int | None = None
    facts: dict[Query, object] = field(default_factory=dict)


class _NoBook:
    """The accounts of a server without a store: none."""

    def by_key(self, key_hash: str) -> Account | None:
        return None

    def taken(self, name: str) -> str | None:
        return None


def look_up(query: Query, book: AccountBook, attempts: Attempts, now: float) -> object:
    """The answer to a key's or a name's ``query`` in ``book`` (wrong keys
    counted in ``attempts`` at ``now``); in place for an in-process book, on a thread
    for the store (io/signins.py). Raises ``too_many_attempts``."""
    if isinstance(query, KeyLookup):
        attempts.check(now, query.where)
        if query.key_hash is None:
            return None
        found = book.by_key(query.key_hash)
        if found is None:
            attempts.failed(now, query.where)
        return found
    if isinstance(query, NameLookup):
        return book.taken(query.name)
    raise TypeError(f"{type(query).__name__} takes a password: not a look-up")


def no_store() -> Refused:
    return Refused(
        "this server keeps no store, so no accounts: play as a guest (name NAME)", "no_store"
    )


class SignIn:
    """The lobby's part for accounts (see the module docstring): a ``Key`` in
    ``Hello`` (``hello``), the names of accounts kept from guests, text mode's
    ``login`` and ``register`` (``credentials``)."""

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby
        #: The accounts (None: no store, no accounts).
        self.book: AccountBook | None = None
        #: Whether ``book`` is asked in place (an in-process book) or through
        #: ``AccountAsk`` (the server's store, off the event loop).
        self.inline = True
        #: Wrong guesses, for an in-process book (the store counts its own).
        self.attempts = Attempts()
        self.clock = lobby.clock
        #: The messages kept for their answers, by connection.
        self.pending: dict[int, Held] = {}
        self._asks: list[AccountAsk] = []
        self._numbers: Iterator[int] = itertools.count(1)
        #: The asks out: their connection and query, by number.
        self._out: dict[int, tuple[int, Query]] = {}

    # ------------------------------------------------------------ asks and answers

    def take(self) -> list[AccountAsk]:
        """The asks to run (the server takes them after each event)."""
        asks, self._asks = self._asks, []
        return asks

    def conn_of(self, ask: int) -> int | None:
        """The connection ask ``ask`` is out for (None: none, or it was answered)."""
        out = self._out.get(ask)
        return None if out is None or not out[0] else out[0]

    def waits(self, conn: int) -> bool:
        """Whether ``conn``'s message waits for an answer (its lines wait behind it)."""
        return conn in self.pending

    def wait(self, conn: int, item: Message | Credentials, query: Query) -> None:
        """``item`` of ``conn`` waits for ``query``'s answer."""
        held = self.pending.get(conn)
        if held is None or held.item is not item:
            held = self.pending[conn] = Held(item)
        held.ask = self._ask(conn, query)

    def settle(self, conn: int) -> None:
        """``conn``'s message was read to its end: no longer kept."""
        held = self.pending.get(conn)
        if held is not None and held.ask is None:
            del self.pending[conn]

    def forget(self, conn: int) -> None:
        """``conn`` is gone: the answers for it will be dropped."""
        self.pending.pop(conn, None)

    def answered(self, ask: int, answer: object) -> tuple[int, Outgoing, bool]:
        """The answer to ask ``ask``: the kept message read again (what it said, and
        whether the rest of its line is moot); for a connection gone, nothing."""
        out = self._out.pop(ask, None)
        if out is None:
            return 0, [], False
        conn, query = out
        held = self.pending.get(conn)
        if held is None or held.ask != ask:
            return conn, [], False
        held.ask = None
        held.facts[query] = answer
        said, stop = self._lobby.handle(conn, held.item)
        return conn, said, stop

    def _ask(self, conn: int, query: Query) -> int:
        ask = next(self._numbers)
        self._out[ask] = (conn, query)
        self._asks.append(AccountAsk(conn, ask, query))
        return ask

    def _fact(self, conn: int, query: Query) -> object:
        """``query``'s answer: in place (an in-process book, or none), or the one the
        kept message of ``conn`` has had; else ``Pending``."""
        if self.inline or self.book is None:
            if isinstance(query, LoginLookup | RegisterLookup):
                raise no_store()
            return look_up(query, self.book or _NoBook(), self.attempts, self.clock())
        held = self.pending.get(conn)
        if held is None or query not in held.facts:
            raise Pending(query)
        answer = held.facts[query]
        if isinstance(answer, Failed):
            raise for_code(answer.text, answer.code)
        return answer

    # ------------------------------------------------------------ Hello

    def hello(
        self, session: Session, msg: Message, name: str | None
    ) -> tuple[Account | None, str | None]:
        """The account a ``Hello`` makes the connection (its ``Key``, or the one it is)
        and the name it goes by: ``bad_key``, ``too_many_attempts``, ``name_taken``..."""
        account = session.account
        if "Key" in msg:
            if account is not None or session.where not in IN_LOBBY:
                raise Refused("a Key comes in the first Hello only", "not_now")
            account = self.key(session, msg["Key"])
            name = name or account.name
        if name is not None:
            self.check_name(session, name, account)
        return account, name

    def key(self, session: Session, value: object) -> Account:
        """The account whose key ``value`` is, or ``bad_key`` (counted against the
        address) or ``too_many_attempts``; nothing changes but the count."""
        where = None if session.address is None else f"address {session.address}"
        well_formed = isinstance(value, str) and KEY_RE.match(value) is not None
        if where is None and not well_formed:
            read_key(value)  # bad_key: nothing to count, nothing to look up
        key_hash = hash_key(value) if well_formed and isinstance(value, str) else None
        found = self._fact(session.conn, KeyLookup(where, key_hash))
        read_key(value)
        if not isinstance(found, Account):
            raise Refused("that Key is no account's API key (or it was revoked)", "bad_key")
        return found

    def check_name(self, session: Session, name: str, account: Account | None) -> None:
        """``name_taken`` if ``name`` is, or looks like, an account's other than
        ``account`` (the connection's own)."""
        if account is not None:
            if fold(name) != fold(account.name):
                raise Malformed(
                    f"you are the account {quote(account.name)}: that is your name, not "
                    f"{quote(name)}",
                    "bad_name",
                )
            return
        if self.book is None:
            return
        taken = self._fact(session.conn, NameLookup(name))
        if isinstance(taken, str):
            raise Refused(
                f"the name {quote(name)} is the account {quote(taken)}'s, or looks like it: "
                "log in with its Key, or pick another name",
                "name_taken",
            )

    # ------------------------------------------------------------ text mode

    def credentials(self, session: Session, given: Credentials) -> Outgoing:
        """Text mode's ``login NAME`` or ``register NAME`` with its password: the
        connection is that account (a new one's key shown once), back at the lobby
        question; or ``wrong_password``, ``too_many_attempts``, ``name_taken``..."""
        if session.where not in IN_LOBBY:
            raise Refused("log in or register in the lobby, not at a table", "not_now")
        if session.account is not None:
            raise Refused(f"you are the account {quote(session.account.name)} already", "not_now")
        if self.book is None or self.inline:
            raise no_store()
        conn = session.conn
        if given.register:
            made = self._fact(conn, RegisterLookup(given.name, given.password))
            assert isinstance(made, Registered)
            account, said = made.account, _registered(made)
        else:
            where = None if session.address is None else f"address {session.address}"
            found = self._fact(conn, LoginLookup(where, given.name, given.password))
            assert isinstance(found, Account)
            account, said = found, [f"You are logged in: you are the account {found.name}."]
        session.account, session.name = account, account.name
        return [*((conn, message(text)) for text in said), *self._lobby.sessions.ask(session)]


def _registered(made: Registered) -> list[str]:
    """What a new account is told: its key, this once, and how to use it."""
    name, key = made.account.name, made.key
    hello = '{"Type":"Hello","Key":"' + key + '"}'
    return [
        f"The account {name} is made, and you are it. Its API key, shown this once: {key}",
        f"Keep the key: a bot or client signs in with it in its first line ({hello}); "
        f"here, login {name} asks for the password. POST /api/login makes another key, "
        "POST /api/keys/revoke revokes one.",
    ]
