"""Seat tokens: who may take a seat back, and on which table (no I/O).

A person who sits gets a token (``Seat``); the lobby keeps only its hash
(``hash_token``), with the table it owns a seat at while the game goes on and the
person who sat with it (so that mutes follow them to a new connection). After a
restart, the tokens of a game that ended just before the server stopped are kept a
while with that game's end (``Ended``, ``Limits.result_hold``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from hundred_server.core.keyed import Keyed
from hundred_server.core.table import Table
from hundred_server.protocol.errors import Refused
from hundred_server.protocol.wire import Message, field_str, quote

TOKEN_RE: Final = re.compile(r"^[0-9a-f]{32}$")


def hash_token(token: str) -> str:
    """What is kept of a seat token: its SHA-256, so a leaked table state or store
    holds no token that could take a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def read_token(msg: Message) -> str:
    """The ``Token`` of a ``Hello``, trimmed and in lower case (``bad_token`` if it is
    not 32 hex digits)."""
    token = field_str(msg, "Token")
    if token is not None:
        token = token.strip().lower()
    if token is None or not TOKEN_RE.match(token):
        raise Refused(
            f"a token is the 32 hex digits of your Seat message, not {quote(token)}",
            "bad_token",
        )
    return token


@dataclass(frozen=True)
class Ended:
    """A finished game's end, for the token of one of its seats after a restart: its
    ``table``, the ``seat``, and what the seat is told after its ``Seat`` message."""

    table: int
    seat: int
    told: tuple[Message, ...]


class Tokens(Keyed[str, Table]):
    """Token hash -> the table it owns a seat at, while its game goes on, read as a
    mapping; given and forgotten through its methods."""

    def __init__(self, source: Callable[[], str] | None = None) -> None:
        self._source = source or (lambda: secrets.token_hex(16))  # 128 bits
        super().__init__()
        #: Token hash -> the ``Session.person`` who sat with it (dropped with the token).
        self._person_of: dict[str, int] = {}
        #: Table id -> the token hashes given out at it (forgotten with it).
        self._issued: dict[int, set[str]] = {}
        #: Token hash -> the end of its game, which ended just before the server last
        #: stopped (``Restorer``), until ``ended_until``.
        self.ended: dict[str, Ended] = {}
        self.ended_until = 0.0

    def new(self) -> tuple[str, str]:
        """A new token and its hash."""
        token = self._source()
        return token, hash_token(token)

    def give(self, digest: str, table: Table, person: int) -> None:
        """The token ``digest`` owns a seat at ``table``, sat in by ``person``."""
        self._items[digest] = table
        self._person_of[digest] = person
        self._issued.setdefault(table.id, set()).add(digest)

    def restored(self, table: Table) -> None:
        """The tokens of a restored table's seats own them again."""
        for digest in table.tokens():
            self._items[digest] = table

    def person(self, digest: str, default: int) -> int:
        """Who sat with the token ``digest`` (``default`` if it is not known)."""
        return self._person_of.get(digest, default)

    def issued_at(self, table_id: int) -> frozenset[str]:
        """The token hashes given out at the table and not forgotten yet."""
        return frozenset(self._issued.get(table_id, ()))

    def forget(self, table: Table, every: bool = False) -> None:
        """Drop the table's tokens that no longer own a seat (``every``: all of them);
        only the tokens given at this table are looked at."""
        owned = set() if every else set(table.tokens())
        issued = self._issued.pop(table.id, set())
        for digest in issued - owned:
            if self._items.get(digest) is table:
                del self._items[digest]
                self._person_of.pop(digest, None)
        if issued & owned:
            self._issued[table.id] = issued & owned

    def drop_table(self, table_id: int) -> None:
        """Every token of table ``table_id`` goes (a game that cannot be restored)."""
        for digest in [d for d, t in self._items.items() if t.id == table_id]:
            del self._items[digest]

    def end_of(self, digest: str, clock: Callable[[], float]) -> Ended | None:
        """The kept end of the token ``digest``'s game, if it is held still (on
        ``clock``, read only while ends are held)."""
        if not self.ended:
            return None
        if clock() >= self.ended_until:
            self.ended.clear()  # they were all kept at the same restart
            return None
        return self.ended.get(digest)

    def clear(self) -> None:
        self._items.clear()
