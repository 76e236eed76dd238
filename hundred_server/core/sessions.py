"""Sessions: one a connection, and where each is (no I/O).

A session walks: the lobby question (``Hello``) → options (``Game``) or the open
tables (``Join``) → seated, waiting → playing → back to the lobby question; from the
lobby it may instead watch a table, or be relayed to another instance of the site.
Which place may follow which is written down once, in ``TRANSITIONS`` (the way h11's
``_state.py`` writes its state machine), and ``Sessions.move`` is the one place that
changes a session's place: it checks the move against the table, and gives the
session its table with the place (a place at a table has one, the others none).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from hundred_server import games
from hundred_server.core.accounts import Account
from hundred_server.core.chat import Mutes
from hundred_server.core.keyed import Keyed
from hundred_server.protocol.errors import Refused
from hundred_server.protocol.wire import LOBBY_QUESTION, message, quote

if TYPE_CHECKING:
    from hundred_server.core.table import Outgoing, Table


class Where(enum.Enum):
    QUESTION = "question"  # asked: join, create or quit
    OPTIONS = "options"  # asked: which option
    TABLES = "tables"  # shown the open tables
    SEATED = "seated"  # at a table that waits for players
    PLAYING = "playing"
    WATCHING = "watching"  # a table's watcher: told, never asked
    RELAYED = "relayed"  # its table is on another instance of the site (bus.py)
    LADDER = "ladder"  # an account on the ladder: queued, or between its set's games
    CLOSED = "closed"

    # Members are singletons, so identity hashing is exact, and it runs in C: every
    # answer asks whether its connections are in the lobby (IN_LOBBY).
    __hash__ = object.__hash__


#: The places of a session in the lobby (not at a table).
IN_LOBBY: Final = frozenset({Where.QUESTION, Where.OPTIONS, Where.TABLES})
#: Where a session is at a game under way, a seat's or a watcher's.
UNDER_WAY: Final = frozenset({Where.PLAYING, Where.WATCHING})
#: The places at a table: a session there has its ``table`` (and elsewhere none).
AT_TABLE: Final = frozenset({Where.SEATED, Where.PLAYING, Where.WATCHING})

_ANYWHERE: Final = frozenset(Where)
#: Where a session may go from each place. From the lobby: anywhere (a seat, a table
#: to watch, another instance's table, or the question again); from a table: back to
#: the question (its game is over, it left, its table failed) or gone; a waiting seat
#: also to playing (the table filled). Every place may end (the connection is gone;
#: a session that quit is closed when its connection goes).
TRANSITIONS: Final[Mapping[Where, frozenset[Where]]] = {
    Where.QUESTION: _ANYWHERE,
    Where.OPTIONS: _ANYWHERE,
    Where.TABLES: _ANYWHERE,
    Where.SEATED: frozenset({Where.PLAYING, Where.QUESTION, Where.CLOSED}),
    Where.PLAYING: frozenset({Where.QUESTION, Where.LADDER, Where.CLOSED}),
    Where.LADDER: frozenset({Where.SEATED, Where.PLAYING, Where.QUESTION, Where.CLOSED}),
    Where.WATCHING: frozenset({Where.QUESTION, Where.CLOSED}),
    Where.RELAYED: frozenset({Where.QUESTION, Where.CLOSED}),
    Where.CLOSED: frozenset({Where.CLOSED}),
}


class BadTransition(RuntimeError):
    """A move ``TRANSITIONS`` does not allow: a bug in the lobby, never a client's."""


@dataclass
class Session:
    """One connection's session. Its place (``where``, ``table``) is changed by
    ``Sessions.move`` only."""

    conn: int
    name: str
    where: Where = Where.QUESTION
    table: Table | None = None
    game: str = games.DEFAULT_GAME  # the game whose options the session was shown
    #: Where the connection comes from (its IP address), for the per-address limits;
    #: None: not limited (in-process tests).
    address: str | None = None
    #: The list of tables the session was shown last (``Where.TABLES``): the open ones
    #: (``join``), or those it may watch (``watch``); an error shows it again.
    listing: str = "join"
    #: The people whose chat this connection does not want (for as long as it is open).
    mutes: Mutes = field(default_factory=Mutes)
    #: Who this is, for others' mutes (chat.py): the connection's number, or, once it
    #: takes a seat back with a token, the person's who sat with that token.
    person: int = 0
    #: The games the connection's codec can play (``Codec.games``; None: every game):
    #: it is shown, may create, join and watch tables of these only.
    games: frozenset[str] | None = None
    #: The account the connection is (a ``Key`` in ``Hello``; None: a guest).
    account: Account | None = None
    #: The game whose ladder the session is on (None: it is not on the ladder).
    ladder: str | None = None
    #: Whether its prompts carry its seat's view (``Views`` in ``Hello``: seat_views.py).
    views: bool = False

    def __post_init__(self) -> None:
        self.person = self.person or self.conn


class Sessions(Keyed[int, Session]):
    """Every open session by its connection, read as a mapping; opened, moved and
    closed through its methods."""

    def open(self, conn: int, address: str | None, playable: frozenset[str] | None) -> Session:
        """A new session for ``conn``, at the lobby question."""
        session = Session(conn, f"player{conn}", address=address, games=playable)
        self._items[conn] = session
        return session

    def close(self, conn: int) -> Session | None:
        """``conn`` is gone: its session (closed, no longer kept), if it had one."""
        session = self._items.pop(conn, None)
        if session is not None:
            self.move(session, Where.CLOSED)
        return session

    def clear(self) -> None:
        self._items.clear()

    @staticmethod
    def move(session: Session, where: Where, table: Table | None = None) -> None:
        """Put ``session`` at ``where`` (with ``table``, a place at a table's), if
        ``TRANSITIONS`` allows it; ``BadTransition`` if not."""
        if where not in TRANSITIONS[session.where]:
            raise BadTransition(f"a session may not go from {session.where} to {where}")
        if (table is not None) is not (where in AT_TABLE):
            raise BadTransition(f"{where} is {'' if where in AT_TABLE else 'not '}at a table")
        session.where, session.table = where, table

    def ask(self, session: Session, question: str = LOBBY_QUESTION) -> Outgoing:
        """Back to the lobby question, and what it says (``question``: its words)."""
        self.move(session, Where.QUESTION)
        return [(session.conn, message(question)), (session.conn, {"Type": "Hello"})]

    def where(self, conn: int) -> Where | None:
        """Where ``conn``'s session is (None: it has none)."""
        session = self._items.get(conn)
        return None if session is None else session.where

    def in_lobby(self, conn: int) -> bool:
        """Whether ``conn`` is in the lobby (not at a table); idling is limited by
        ``Limits.idle_timeout`` there and ``table_idle_timeout`` at a table."""
        return self.where(conn) in IN_LOBBY

    def lobby_conns(self) -> list[int]:
        """The connections in the lobby (for its chat)."""
        return [c for c, s in self._items.items() if s.where in IN_LOBBY]


def check_plays(
    session: Session, game: object, table_id: int | None = None, doing: str = "play"
) -> None:
    """``bad_game`` unless ``session``'s connection can play ``game`` (``Session.games``):
    a new table of it, or the table ``table_id`` (to play or ``doing`` "watch")."""
    playable = session.games
    if playable is None or game in playable:
        return
    title = games.get(game).title if isinstance(game, str) and game in games.names() else None
    named = title or quote(game)
    plays = " and ".join(sorted(games.get(name).title for name in playable)) or "no game"
    what = f"{named} is a game" if table_id is None else f"table {table_id} plays {named}, which"
    raise Refused(
        f"{what} this connection cannot {doing}: its protocol has no words for it (it plays "
        f"{plays})",
        "bad_game",
    )
