"""The site bus: several server processes, on one machine or many, as one site
(``serve --store postgresql://... --bus redis://...``). The asyncio glue; the hub and
lobby only see ``Relay``/``Remote`` commands, virtual connections and ``Elsewhere``.

One lobby. Every instance publishes its open tables to Redis (``hundred:open:ID``, a
JSON list that lapses after ``OPEN_TTL`` unless refreshed every ``PUBLISH_EVERY``) and
reads the others', so ``join`` lists the site's tables. Table ids come from a
PostgreSQL sequence (``hundred_table_ids``), in blocks, so they are unique on the site
and durable across a restart of Redis.

Relay, not hand-over: a client stays on the socket it opened (a netcat user cannot be
told to connect elsewhere, and no load balancer needs stickiness). When it joins a
table of another instance, or sends a token whose game another instance plays, its
instance (the socket's) forwards each message it decodes to the table's owner over the
owner's Redis channel (``hundred:to:ID``); the owner runs them through its own hub as a
virtual connection and publishes what that connection is told back to the socket's
instance, which encodes it with the client's codec and writes it. What the owner says
is published only once its moves are committed, as anything it sends. Messages carry
an epoch: after a relay is made anew (its owner died and another took the table over)
what the old one says is dropped.

Failover. Each game in PostgreSQL has an ``owner`` (the instance id), written with
the game (store/postgres.py), and each instance one lease, a row of
``hundred_instances`` (its id, ``lease_until``) that it renews every ``RENEW_EVERY``:
one row a second however many games it plays (a lease a game was 10,000 row versions a
second at 10,000 tables, docs/scaling.md). Every instance sweeps, every
``SWEEP_EVERY``, for games whose owner holds no live lease (one atomic ``UPDATE ...
RETURNING``, rows taken with ``SKIP LOCKED``), restores them from the store as at a
restart (``Hub.restore``) and owns them. People
then take their seats back with their token on any instance (the one that has the
game: at once; any other: relayed there), at the same prompt. A relayed client whose
table's instance dies is relayed again with the token it was given (its ``Seat``), to
the table's new owner, and sees its seat and prompt again. A clean shutdown lets go of
its leases, so another instance takes its games at once.

Redis is only the relay and the lobby list: when it restarts, the instances connect
again (backoff up to ``BACKOFF_MAX``) and publish again; games played on their own
instance go on meanwhile, and PostgreSQL alone decides who owns what.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import psycopg
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from hundred_server.core.hub import Close, Command, Hub, Relay, Remote
from hundred_server.core.lobby import TOKEN_RE, hash_token
from hundred_server.protocol.wire import Message
from hundred_server.store import GameStore, redact
from hundred_server.store.postgres import CREATE_LOCK, LEASE

log = logging.getLogger("hundred_server")

PREFIX: Final = "hundred:"
RENEW_EVERY: Final = 1.0
SWEEP_EVERY: Final = 1.0
PUBLISH_EVERY: Final = 0.5
OPEN_TTL: Final = 3
#: How often the peers of relayed clients are checked (``PUBSUB NUMSUB``), and how many
#: checks in a row must find one gone before it counts as gone (a restart of Redis
#: empties every channel for a moment).
CHECK_EVERY: Final = 1.0
GONE_AFTER: Final = 3
#: How long a relayed message waits for its table's instance (a takeover) before the
#: client is told there is none.
RESOLVE_FOR: Final = 15.0
RETRY_EVERY: Final = 0.5
BACKOFF_MAX: Final = 2.0
ID_BLOCK: Final = 128
#: Messages published in one pipeline at most (one round trip to Redis).
PUBLISH_BATCH: Final = 256
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


def instance_id() -> str:
    """A new instance's id: where it runs, and random (never reused)."""
    return f"{socket.gethostname()[:20]}-{os.getpid()}-{secrets.token_hex(3)}"


def channel(instance: str) -> str:
    return f"{PREFIX}to:{instance}"


def open_key(instance: str) -> str:
    return f"{PREFIX}open:{instance}"


#: The tables an instance lists for the others to watch: its newest this many (every
#: game in play would be megabytes a second on Redis at 10,000 tables).
WATCH_PUBLISHED: Final = 100


def listed_tables(hub: Hub) -> dict[str, list[Message]]:
    """This instance's tables as the site's lobby lists them: ``open``, those that wait
    for players (as ``join`` lists them), and ``watch``, the newest ``WATCH_PUBLISHED``
    of those that may be watched (as ``watch`` lists them)."""
    lobby = hub.lobby
    return {
        "open": lobby.tables.open_here(),
        "watch": lobby.tables.watchable(lobby.limits.max_watchers)[-WATCH_PUBLISHED:],
    }


def relayed_games(games: object) -> frozenset[str] | None:
    """The games a relayed client can play, as its instance sent them (``"g"``: a list
    of names; None or absent: every game; anything else, from a newer or broken peer:
    none, so that nothing slips through)."""
    if games is None:
        return None
    if isinstance(games, list):
        return frozenset(g for g in games if isinstance(g, str))
    return frozenset()


@dataclass
class SiteTables:
    """The other instances' tables, from their published lists: the open ones and the
    ones that may be watched, by id, and the instance that holds each."""

    open: dict[int, Message] = field(default_factory=dict)
    watch: dict[int, Message] = field(default_factory=dict)
    owners: dict[int, str] = field(default_factory=dict)


def merge_listed(values: dict[str, str | None], me: str) -> SiteTables:
    """The other instances' tables, from each one's published lists (instance ->
    JSON, None if it lapsed; a bare list is the open tables alone, as instances before
    watching across the site published them). What does not read is skipped."""
    merged = SiteTables()
    for instance, text in sorted(values.items()):
        if instance == me or text is None:
            continue
        try:
            published = json.loads(text)
        except ValueError:
            continue
        if isinstance(published, list):
            published = {"open": published}
        if not isinstance(published, dict):
            continue
        for key, into in (("open", merged.open), ("watch", merged.watch)):
            infos = published.get(key)
            for info in infos if isinstance(infos, list) else []:
                if isinstance(info, dict) and isinstance(info.get("Table"), int):
                    into[info["Table"]] = info
                    merged.owners[info["Table"]] = instance
    return merged


@dataclass
class _Out:
    """A client of this instance whose table is on another (the socket's side)."""

    conn: int
    table: int | None = None
    digest: str | None = None
    token: str | None = None  # from its Seat message: to be relayed again after a failover
    watch: bool = False  # it watches the table (it has no seat there)
    owner: str | None = None  # None: being resolved; its messages wait in ``buffer``
    epoch: int = 0
    buffer: list[Message] = field(default_factory=list)
    task: asyncio.Task[None] | None = None
    gone_checks: int = 0


class Bus:
    """The site glue of one instance; ``connect()``, ``run(hub, dispatch)``, ``close()``."""

    def __init__(self, url: str, store: GameStore, instance: str, lease: float = LEASE) -> None:
        store_url = getattr(store, "url", None)
        if not isinstance(store_url, str):
            raise ValueError("the bus needs a PostgreSQL store")
        self.url = url
        self.location = redact(url)
        self.store = store
        self.store_url = store_url
        self.instance = instance
        self.lease = lease
        self.redis: aioredis.Redis = aioredis.from_url(
            url, socket_timeout=5, socket_connect_timeout=2, decode_responses=True
        )
        self.db: psycopg.AsyncConnection[tuple[Any, ...]] | None = None
        self.hub: Hub | None = None
        self._dispatch: Callable[[list[Command]], None] = lambda commands: None
        self._forget_games: Callable[[set[int]], None] = lambda ids: None
        self._ids: deque[int] = deque()
        self._refilling = False
        self._outs: dict[int, _Out] = {}
        self._virtual: dict[tuple[str, int, int], int] = {}  # (origin, conn, epoch) -> conn
        self._origin: dict[int, tuple[str, int, int]] = {}
        self._origin_gone: dict[str, int] = {}
        self._owners: dict[int, str] = {}  # the other instances' open tables' owners
        self._queue: asyncio.Queue[tuple[str, dict[str, Any], int | None]] = asyncio.Queue()
        self._claiming = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False
        self._listened = False
        self.taken_over: list[int] = []  # game ids this instance took over (for logs)

    # ------------------------------------------------------------------ life

    async def connect(self) -> None:
        """Reach PostgreSQL and Redis (``OSError`` if either is not there), make the
        table-id sequence and the leases' table if the store has none, take this
        instance's lease and a first block of ids."""
        await self._db()
        try:
            await self.redis.ping()
        except (RedisError, OSError) as exc:
            raise OSError(f"cannot reach the bus {self.location}: {exc}") from None
        db = await self._db()
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
        await db.execute(_RENEW, (self.instance, self.lease))  # its lease, before any game
        await self._refill()

    async def _db(self) -> psycopg.AsyncConnection[tuple[Any, ...]]:
        if self.db is None or self.db.closed:
            self.db = None
            try:
                self.db = await psycopg.AsyncConnection.connect(
                    self.store_url, autocommit=True, connect_timeout=5
                )
            except psycopg.Error as exc:
                raise OSError(f"the bus cannot reach the store: {exc}") from None
        return self.db

    def run(
        self,
        hub: Hub,
        dispatch: Callable[[list[Command]], None],
        forget: Callable[[set[int]], None] = lambda ids: None,
    ) -> None:
        """Start the bus's tasks for ``hub``; ``dispatch`` takes what the hub returns;
        ``forget`` drops the queued writes of games another instance took over."""
        self.hub = hub
        self._dispatch = dispatch
        self._forget_games = forget
        lobby = hub.lobby
        lobby.tables.site = True
        lobby.tables.table_ids = self._next_id
        for work in (self._listen, self._send, self._publish, self._renew, self._sweep):
            self._tasks.append(asyncio.create_task(self._forever(work)))
        self._tasks.append(asyncio.create_task(self._forever(self._check)))
        log.info("site bus %s: this instance is %s", self.location, self.instance)

    async def _forever(self, work: Callable[[], Any]) -> None:
        """Run ``work`` again whenever it fails (Redis or PostgreSQL away), with backoff."""
        delay = 0.1
        while not self._closed:
            try:
                await work()
                delay = 0.1
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError, psycopg.Error) as exc:
                log.warning("site bus: %s (%s); trying again", type(exc).__name__, exc)
                if isinstance(exc, psycopg.Error) and self.db is not None and self.db.closed:
                    self.db = None
                await asyncio.sleep(delay)
                delay = min(BACKOFF_MAX, delay * 2)
            except Exception:
                log.exception("site bus: internal error; going on")
                await asyncio.sleep(BACKOFF_MAX)

    async def close(self) -> None:
        """Let go of this instance's games (another takes them at once), say what is
        left to say (2 s at most), and stop."""
        if self._closed:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._queue.join(), 2.0)
        self._closed = True
        for task in self._tasks:
            task.cancel()
        for out in self._outs.values():
            if out.task is not None:
                out.task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(3.0):
                db = await self._db()
                await db.execute(
                    "UPDATE hundred_instances SET lease_until = now() - interval '1 second'"
                    " WHERE id = %s",
                    (self.instance,),
                )
        with contextlib.suppress(Exception):
            await self.redis.delete(open_key(self.instance))
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        if self.db is not None:
            with contextlib.suppress(Exception):
                await self.db.close()

    # ------------------------------------------------------------------ table ids

    def _next_id(self) -> int | None:
        if len(self._ids) < ID_BLOCK // 2 and not self._refilling and not self._closed:
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
        db = await self._db()
        cursor = await db.execute(
            "SELECT nextval('hundred_table_ids') FROM generate_series(1, %s)", (ID_BLOCK,)
        )
        self._ids.extend(int(row[0]) for row in await cursor.fetchall())

    # ------------------------------------------------------------------ the lobby list

    async def _publish(self) -> None:
        assert self.hub is not None
        while not self._closed:
            mine = json.dumps(listed_tables(self.hub), separators=(",", ":"))
            await self.redis.set(open_key(self.instance), mine, ex=OPEN_TTL)
            keys = [key async for key in self.redis.scan_iter(f"{PREFIX}open:*", count=200)]
            values = await self.redis.mget(keys) if keys else []
            listed: dict[str, str | None] = {
                str(key)[len(PREFIX) + 5 :]: value if isinstance(value, str) else None
                for key, value in zip(keys, values, strict=True)
            }
            merged = merge_listed(listed, self.instance)
            self.hub.lobby.tables.remote_tables = merged.open
            self.hub.lobby.tables.remote_watchable = merged.watch
            self._owners = merged.owners
            await asyncio.sleep(PUBLISH_EVERY)

    # ------------------------------------------------------------------ leases

    async def _renew(self) -> None:
        """Renew this instance's lease; let go of the tables another instance took
        over meanwhile (this one was cut off for longer than a lease)."""
        assert self.hub is not None
        while not self._closed:
            db = await self._db()
            await db.execute(_RENEW, (self.instance, self.lease))
            here = [t.id for t in self.hub.lobby.tables.values() if t.saved]
            if here:
                cursor = await db.execute(
                    "SELECT id FROM games WHERE id = ANY(%s) AND owner IS DISTINCT FROM %s",
                    (here, self.instance),
                )
                lost = {int(row[0]) for row in await cursor.fetchall()}
                if lost:
                    self._forget_games(lost)
                    self._dispatch(self.hub.tables_lost(lost))
            await asyncio.sleep(RENEW_EVERY)

    async def _sweep(self) -> None:
        while not self._closed:
            await self.sweep_once()
            await asyncio.sleep(SWEEP_EVERY)

    async def sweep_once(self) -> list[int]:
        """Take over the games whose owner holds no live lease (it died, or was cut
        off for longer than a lease); their ids."""
        assert self.hub is not None
        async with self._claiming:
            db = await self._db()
            cursor = await db.execute(
                "UPDATE games SET owner = %s, lease_until = NULL WHERE id IN (SELECT id FROM"
                " games g WHERE state = 'playing' AND NOT EXISTS (SELECT 1 FROM"
                " hundred_instances i WHERE i.id = g.owner AND i.lease_until > now())"
                " ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING id",
                (self.instance, SWEEP_BATCH),
            )
            ids = sorted(int(row[0]) for row in await cursor.fetchall())
            ids = [i for i in ids if i not in self.hub.lobby.tables]  # ours already
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
            for line in self.hub.lobby.restorer.restore(stored):
                log.info("took over %s", line)
            self.taken_over += ids
            self._dispatch([])
            return ids

    # ------------------------------------------------------------------ sending

    def take(self, commands: list[Relay | Remote]) -> None:
        """The hub's commands for the bus, in order (server.py hands over those of one
        send). What one virtual connection is told goes in one payload, its release
        with it, so its client is back in its own lobby before it reads that it is."""
        if self._closed:
            return
        said: dict[int, dict[str, Any]] = {}
        for command in commands:
            if isinstance(command, Relay):
                self._relay(command)
            else:
                self._remote(command, said)
        for vconn, payload in said.items():
            origin = payload.pop("to")
            if "x" in payload:
                self._forget(vconn)
            self._put(origin, payload)

    def _relay(self, command: Relay) -> None:
        conn, msg = command.conn, command.message
        if command.to is not None:
            out = _Out(conn, command.to.table, command.to.digest, watch=command.to.watch)
            if msg is not None:
                out.buffer.append(msg)
            self._outs[conn] = out
            self._resolve(out)
            return
        known = self._outs.get(conn)
        if known is None:
            return
        if msg is None:  # the client is gone
            del self._outs[conn]
            if known.task is not None:
                known.task.cancel()
            if known.owner is not None:
                self._put(known.owner, {"k": "end", "c": conn, "e": known.epoch})
            return
        if known.owner is None:
            known.buffer.append(msg)
        else:
            self._put(known.owner, self._in(known, msg), conn)

    def _in(self, out: _Out, msg: Message) -> dict[str, Any]:
        assert self.hub is not None
        session = self.hub.lobby.sessions.get(out.conn)
        link = self.hub.links.get(out.conn)
        return {
            "k": "in",
            "c": out.conn,
            "e": out.epoch,
            "m": msg,
            "n": "" if session is None else session.name,
            "a": None if link is None else link.address,
            # The games its codec can play (None: every game), so the table's instance
            # refuses a Join or Watch of another game's table as this one does.
            "g": None if session is None or session.games is None else sorted(session.games),
        }

    def _remote(self, command: Remote, said: dict[int, dict[str, Any]]) -> None:
        key = self._origin.get(command.conn)
        if key is None:
            return
        origin, conn, epoch = key
        payload = said.get(command.conn)
        if payload is None or "x" in payload:
            if payload is not None:  # released and met again at once: rare; in order
                self._forget(command.conn)
                self._put(payload.pop("to"), payload)
            payload = said[command.conn] = {"k": "out", "c": conn, "e": epoch, "m": []}
            payload["to"] = origin
        if command.message is not None:
            payload["m"].append(command.message)
        else:  # back in its lobby (or its session ended): the hub forgot it
            payload["x"] = "close" if command.close else "bye"

    def _forget(self, vconn: int) -> None:
        key = self._origin.pop(vconn, None)
        if key is not None:
            self._virtual.pop(key, None)

    def _put(self, instance: str, payload: dict[str, Any], relayed: int | None = None) -> None:
        self._queue.put_nowait((instance, payload, relayed))

    async def _send(self) -> None:
        """Publish in order: what is queued goes in one pipeline (one round trip, at
        most ``PUBLISH_BATCH`` messages); a message nobody received (its instance is
        gone) makes its relayed client look for the table's new owner."""
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < PUBLISH_BATCH:
                batch.append(self._queue.get_nowait())
            try:
                await self._publish_batch(batch)
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _publish_batch(self, batch: list[tuple[str, dict[str, Any], int | None]]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for instance, payload, _ in batch:
            payload["i"] = self.instance
            pipe.publish(channel(instance), json.dumps(payload, separators=(",", ":")))
        try:
            counts = await pipe.execute()
        except (RedisError, OSError):  # Redis is away: its clients resync when it is back
            for _, _, relayed in batch:
                if relayed is not None:
                    self._owner_lost(relayed)
            return
        for (instance, payload, relayed), received in zip(batch, counts, strict=True):
            if received:
                continue
            if relayed is not None:
                self._owner_lost(relayed)
            elif payload["k"] == "out":
                self._origin_lost(instance, int(payload["c"]), int(payload["e"]))

    def _owner_lost(self, conn: int) -> None:
        """The instance of ``conn``'s table did not answer: relay to its next owner."""
        out = self._outs.get(conn)
        if out is None or out.owner is None:
            return
        assert self.hub is not None
        if out.token is None:
            del self._outs[conn]
            if out.watch:
                text = (
                    "the server instance of the table you watched is gone; watch it again "
                    "once another one has taken its game over (watch lists it)"
                )
            else:
                text = (
                    "the server instance of your table is gone and you have no seat there "
                    "yet; join another table"
                )
            self._dispatch(self.hub.unrelay(conn, text))
            return
        log.info(
            "connection %d: the instance of table %s is gone; finding it again", conn, out.table
        )
        out.owner, out.epoch = None, out.epoch + 1
        out.digest = hash_token(out.token)
        out.buffer = [{"Type": "Hello", "Token": out.token}]
        self._resolve(out)

    def _resync(self) -> None:
        """Every relayed client takes its seat again (its token relayed anew): it is
        shown its table and prompt as they are now, whatever it missed."""
        for out in list(self._outs.values()):
            if out.owner is not None and out.token is not None:
                self._owner_lost(out.conn)

    def _origin_lost(self, origin: str, conn: int, epoch: int) -> None:
        """The instance of a virtual connection's client is gone: its seat is lost."""
        assert self.hub is not None
        vconn = self._virtual.pop((origin, conn, epoch), None)
        if vconn is not None:
            del self._origin[vconn]
            self._dispatch(self.hub.disconnect(vconn))

    # ------------------------------------------------------------------ resolving

    def _resolve(self, out: _Out) -> None:
        out.task = asyncio.get_running_loop().create_task(self._find_owner(out))

    async def _find_owner(self, out: _Out) -> None:
        """Find the instance of ``out``'s table (waiting for a takeover if its owner is
        gone) and send it what waits; or handle it here if the table is here now."""
        assert self.hub is not None
        hub = self.hub
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RESOLVE_FOR
        while self._outs.get(out.conn) is out:
            owner: str | None = None
            try:
                if out.digest is not None:
                    row = await self._owner_of_token(out.digest)
                    if row is None:
                        self._refuse(out)
                        return
                    out.table, owner = row
                elif out.table is not None:
                    owner = self._owners.get(out.table)
                if out.table is not None and (
                    owner == self.instance or out.table in hub.lobby.tables
                ):
                    async with self._claiming:  # a takeover under way ends first
                        pass
                    if out.table in hub.lobby.tables:
                        self._here(out)
                        return
                elif owner is not None and out.buffer:
                    first = self._in(out, out.buffer[0])
                    first["i"] = self.instance
                    text = json.dumps(first, separators=(",", ":"))
                    if await self.redis.publish(channel(owner), text):
                        out.buffer.pop(0)
                        for msg in out.buffer:
                            self._put(owner, self._in(out, msg), out.conn)
                        out.buffer, out.owner, out.task = [], owner, None
                        return
            except (RedisError, OSError, psycopg.Error) as exc:
                log.info("connection %d: finding its table: %s", out.conn, exc)
            if loop.time() > deadline or (out.digest is None and owner is None):
                self._refuse(out)
                return
            await asyncio.sleep(RETRY_EVERY)

    async def _owner_of_token(self, digest: str) -> tuple[int, str | None] | None:
        db = await self._db()
        cursor = await db.execute(
            "SELECT g.id, g.owner FROM seats s JOIN games g ON g.id = s.game"
            " WHERE s.token = %s AND g.state = 'playing'",
            (digest,),
        )
        row = await cursor.fetchone()
        return None if row is None else (int(row[0]), row[1])

    def _here(self, out: _Out) -> None:
        """The table is on this instance now: the waiting messages are handled here."""
        assert self.hub is not None
        del self._outs[out.conn]
        commands = self.hub.unrelay(out.conn)
        for msg in out.buffer:
            commands += self.hub.receive_message(out.conn, msg)
        self._dispatch(commands)

    def _refuse(self, out: _Out) -> None:
        assert self.hub is not None
        self._outs.pop(out.conn, None)
        if out.digest is not None:
            code, text = "bad_token", "no game under way has a seat for that token (it may be over)"
        elif out.watch:
            code, text = "no_such_table", f"no table {out.table} to watch"
        else:
            code, text = "no_such_table", f"no open table {out.table}"
        self._dispatch(self.hub.unrelay(out.conn, text, code))

    # ------------------------------------------------------------------ receiving

    async def _listen(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(channel(self.instance))
            log.info("site bus: listening on %s", channel(self.instance))
            if self._listened:  # back after Redis was away: what was said meanwhile is lost
                self._resync()
            self._listened = True
            while not self._closed:
                got = await pubsub.get_message(timeout=1.0)
                if got is not None and got.get("type") == "message":
                    self._received(str(got["data"]))
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _received(self, text: str) -> None:
        assert self.hub is not None
        hub = self.hub
        try:
            payload = json.loads(text)
            kind, origin = payload["k"], str(payload["i"])
            conn, epoch = int(payload["c"]), int(payload["e"])
        except (ValueError, KeyError, TypeError):
            log.warning("site bus: a message that does not read: %.200s", text)
            return
        if kind in ("in", "end"):  # for a table here, from a client there
            key = (origin, conn, epoch)
            vconn = self._virtual.get(key)
            if kind == "end":
                if vconn is not None:
                    del self._virtual[key], self._origin[vconn]
                    self._dispatch(hub.disconnect(vconn))
                return
            msg = payload.get("m")
            if not isinstance(msg, dict):
                return
            if vconn is None and msg.get("Type") not in ("Hello", "Join", "Watch"):
                self._put(origin, {"k": "lost", "c": conn, "e": epoch})  # its seat was lost
                return
            if vconn is None:
                name = payload.get("n")
                address = payload.get("a")
                vconn = hub.connect_virtual(
                    name if isinstance(name, str) else "",
                    address if isinstance(address, str) else None,
                    relayed_games(payload.get("g")),
                )
                self._virtual[key] = vconn
                self._origin[vconn] = key
            self._dispatch(hub.receive_message(vconn, msg))
            return
        out = self._outs.get(conn)  # for a client here, from its table's instance
        if out is None or out.epoch != epoch or out.owner != origin:
            return
        if kind == "lost":
            self._owner_lost(conn)
            return
        if kind != "out":
            return
        said = payload.get("m")
        commands: list[Command] = []
        for msg in said if isinstance(said, list) else []:
            if not isinstance(msg, dict):
                continue
            token = msg.get("Token")
            if msg.get("Type") == "Seat" and isinstance(token, str) and TOKEN_RE.match(token):
                out.token = token
                out.table = msg.get("Table") if isinstance(msg.get("Table"), int) else None
            commands += hub.deliver(conn, msg)
        end = payload.get("x")
        if end == "bye":  # back in the lobby, which is ours again
            del self._outs[conn]
            commands += hub.unrelay(conn)
        elif end == "close":  # it quit there (and was told goodbye): it closes
            del self._outs[conn]
            hub.unrelay(conn)
            commands += [*hub.disconnect(conn), Close(conn)]
        self._dispatch(commands)

    # ------------------------------------------------------------------ liveness

    async def _check(self) -> None:
        """Relayed clients whose table's instance is gone, and virtual connections whose
        client's instance is gone, found by their channels' subscribers; a relayed
        client that waits for others' moves would otherwise wait for good."""
        while not self._closed:
            await asyncio.sleep(CHECK_EVERY)
            owners = {o.owner for o in self._outs.values() if o.owner is not None}
            origins = {key[0] for key in self._virtual}
            peers = sorted(owners | origins)
            if not peers:
                continue
            counts = dict(await self.redis.pubsub_numsub(*(channel(p) for p in peers)))
            for peer in peers:
                if counts.get(channel(peer), 0):
                    self._origin_gone.pop(peer, None)
                    continue
                missed = self._origin_gone.get(peer, 0) + 1
                self._origin_gone[peer] = missed
                if missed < GONE_AFTER:
                    continue
                del self._origin_gone[peer]
                for out in [o for o in self._outs.values() if o.owner == peer]:
                    self._owner_lost(out.conn)
                for key in [k for k in self._virtual if k[0] == peer]:
                    self._origin_lost(*key)
