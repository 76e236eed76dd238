"""The site's PostgreSQL side (bus.py's docstring tells the whole story): this
instance's lease, renewed every ``RENEW_EVERY``; the sweep that takes over the games
whose owner holds no live lease; the table ids, from a sequence, in blocks; and the
owner of a token's game, for a relayed client."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import TYPE_CHECKING, Any, Final

import psycopg

from hundred_server.store import GameStore
from hundred_server.store.postgres import CREATE_LOCK

if TYPE_CHECKING:
    from hundred_server.io.bus import Bus

log = logging.getLogger("hundred_server")

RENEW_EVERY: Final = 1.0
SWEEP_EVERY: Final = 1.0
ID_BLOCK: Final = 128
#: Games one sweep takes over at most (the next sweep takes more).
SWEEP_BATCH: Final = 16
#: A lapsed instance's lease row is removed this long after it lapsed (its games long
#: taken over).
FORGET_AFTER: Final = 3600
#: Each instance's lease (made by the first instance of a site, like the table ids).
_INSTANCES: Final = """
    CREATE TABLE IF NOT EXISTS hundred_instances (
        id          text PRIMARY KEY,      -- an instance of the site (instance_id)
        lease_until timestamptz NOT NULL   -- its games are taken over once this passes
    )"""
_RENEW: Final = (
    "INSERT INTO hundred_instances (id, lease_until) VALUES (%s, now() + %s * interval"
    " '1 second') ON CONFLICT (id) DO UPDATE SET lease_until = EXCLUDED.lease_until"
)


class Leases:
    """The PostgreSQL side of ``bus``'s instance: ``store`` (PostgreSQL, whose URL it
    connects to on its own), ``lease`` seconds a lease lasts."""

    def __init__(self, bus: Bus, store: GameStore, lease: float) -> None:
        store_url = getattr(store, "url", None)
        if not isinstance(store_url, str):
            raise ValueError("the bus needs a PostgreSQL store")
        self.bus = bus
        self.store = store
        self.store_url = store_url
        self.lease = lease
        self.connection: psycopg.AsyncConnection[tuple[Any, ...]] | None = None
        self._ids: deque[int] = deque()
        self._refilling = False
        #: Held while a sweep takes games over (a relayed client's table may be among
        #: them: it waits for the sweep to end).
        self.claiming = asyncio.Lock()
        self.taken_over: list[int] = []  # game ids this instance took over (for logs)

    async def start(self) -> None:
        """Make the table-id sequence and the leases' table if the store has none, take
        this instance's lease and a first block of ids."""
        db = await self.db()
        async with db.transaction():
            await db.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(current_schema()))", (CREATE_LOCK,)
            )
            await db.execute("CREATE SEQUENCE IF NOT EXISTS hundred_table_ids")
            await db.execute(_INSTANCES)
            await db.execute(
                "SELECT setval('hundred_table_ids', greatest((SELECT coalesce(max(id), 0) FROM"
                " games), (SELECT last_value FROM hundred_table_ids)))"
            )
        await db.execute(_RENEW, (self.bus.instance, self.lease))  # its lease, before any game
        await self._refill()

    async def db(self) -> psycopg.AsyncConnection[tuple[Any, ...]]:
        if self.connection is None or self.connection.closed:
            self.connection = None
            try:
                self.connection = await psycopg.AsyncConnection.connect(
                    self.store_url, autocommit=True, connect_timeout=5
                )
            except psycopg.Error as exc:
                raise OSError(f"the bus cannot reach the store: {exc}") from None
        return self.connection

    def next_id(self) -> int | None:
        if len(self._ids) < ID_BLOCK // 2 and not self._refilling and not self.bus.closed:
            self._refilling = True
            asyncio.get_running_loop().create_task(self._refill_soon())
        return self._ids.popleft() if self._ids else None

    async def _refill_soon(self) -> None:
        try:
            await self._refill()
        except (OSError, psycopg.Error) as exc:
            log.warning("site bus: no table ids (%s)", exc)
        finally:
            self._refilling = False

    async def _refill(self) -> None:
        db = await self.db()
        cursor = await db.execute(
            "SELECT nextval('hundred_table_ids') FROM generate_series(1, %s)", (ID_BLOCK,)
        )
        self._ids.extend(int(row[0]) for row in await cursor.fetchall())

    async def renew(self) -> None:
        """Renew this instance's lease; let go of the tables another instance took
        over meanwhile (this one was cut off for longer than a lease)."""
        assert self.bus.hub is not None
        while not self.bus.closed:
            db = await self.db()
            await db.execute(_RENEW, (self.bus.instance, self.lease))
            here = [t.id for t in self.bus.hub.lobby.tables.values() if t.saved]
            if here:
                cursor = await db.execute(
                    "SELECT id FROM games WHERE id = ANY(%s) AND owner IS DISTINCT FROM %s",
                    (here, self.bus.instance),
                )
                lost = {int(row[0]) for row in await cursor.fetchall()}
                if lost:
                    self.bus.forget_games(lost)
                    self.bus.dispatch(self.bus.hub.tables_lost(lost))
            await asyncio.sleep(RENEW_EVERY)

    async def sweep(self) -> None:
        while not self.bus.closed:
            await self.sweep_once()
            await asyncio.sleep(SWEEP_EVERY)

    async def sweep_once(self) -> list[int]:
        """Take over the games whose owner holds no live lease (it died, or was cut
        off for longer than a lease); their ids."""
        assert self.bus.hub is not None
        async with self.claiming:
            db = await self.db()
            cursor = await db.execute(
                "UPDATE games SET owner = %s, lease_until = NULL WHERE id IN (SELECT id FROM"
                " games g WHERE state = 'playing' AND NOT EXISTS (SELECT 1 FROM"
                " hundred_instances i WHERE i.id = g.owner AND i.lease_until > now())"
                " ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING id",
                (self.bus.instance, SWEEP_BATCH),
            )
            ids = sorted(int(row[0]) for row in await cursor.fetchall())
            ids = [i for i in ids if i not in self.bus.hub.lobby.tables]  # ours already
            if not ids:
                await db.execute(
                    "DELETE FROM hundred_instances WHERE lease_until < now() - %s * interval"
                    " '1 second'",
                    (FORGET_AFTER,),
                )
                return []
            loop = asyncio.get_running_loop()
            stored = []
            for game_id in ids:
                found = await loop.run_in_executor(None, self.store.game, game_id)
                if found is not None and found.state == "playing":
                    stored.append(found)
            for line in self.bus.hub.lobby.restorer.restore(stored):
                log.info("took over %s", line)
            self.taken_over += ids
            self.bus.dispatch([])
            return ids

    async def owner_of_token(self, digest: str) -> tuple[int, str | None] | None:
        db = await self.db()
        cursor = await db.execute(
            "SELECT g.id, g.owner FROM seats s JOIN games g ON g.id = s.game"
            " WHERE s.token = %s AND g.state = 'playing'",
            (digest,),
        )
        row = await cursor.fetchone()
        return None if row is None else (int(row[0]), row[1])

    def lost(self) -> None:
        """The connection failed: a closed one is made anew at the next use."""
        if self.connection is not None and self.connection.closed:
            self.connection = None

    async def release(self) -> None:
        """Let go of this instance's lease (another instance takes its games at once),
        then close the connection."""
        with contextlib.suppress(Exception):
            async with asyncio.timeout(3.0):
                db = await self.db()
                await db.execute(
                    "UPDATE hundred_instances SET lease_until = now() - interval '1 second'"
                    " WHERE id = %s",
                    (self.bus.instance,),
                )
        if self.connection is not None:
            with contextlib.suppress(Exception):
                await self.connection.close()
