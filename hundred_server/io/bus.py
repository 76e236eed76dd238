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

The parts: ``Bus`` here (its tasks, the lobby list, publishing and listening),
relays.py (the relayed clients, both sides of a relay) and leases.py (the PostgreSQL
side: leases, takeovers, table ids).

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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import psycopg
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from hundred_server.core.hub import Command, Hub
from hundred_server.io.leases import Leases
from hundred_server.io.relays import PREFIX, Relays, channel
from hundred_server.protocol.wire import Message
from hundred_server.store import GameStore, redact
from hundred_server.store.postgres import LEASE

log = logging.getLogger("hundred_server")

PUBLISH_EVERY: Final = 0.5
OPEN_TTL: Final = 3
BACKOFF_MAX: Final = 2.0
#: Messages published in one pipeline at most (one round trip to Redis).
PUBLISH_BATCH: Final = 256


def instance_id() -> str:
    """A new instance's id: where it runs, and random (never reused)."""
    return f"{socket.gethostname()[:20]}-{os.getpid()}-{secrets.token_hex(3)}"


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


class Bus:
    """The site glue of one instance; ``connect()``, ``run(hub, dispatch)``, ``close()``.
    Its parts: ``leases`` (PostgreSQL) and ``relays`` (the relayed clients)."""

    def __init__(self, url: str, store: GameStore, instance: str, lease: float = LEASE) -> None:
        self.leases = Leases(self, store, lease)
        self.relays = Relays(self)
        self.url = url
        self.location = redact(url)
        self.instance = instance
        self.redis: aioredis.Redis = aioredis.from_url(
            url, socket_timeout=5, socket_connect_timeout=2, decode_responses=True
        )
        self.hub: Hub | None = None
        self.dispatch: Callable[[list[Command]], None] = lambda commands: None
        self.forget_games: Callable[[set[int]], None] = lambda ids: None
        self._queue: asyncio.Queue[tuple[str, dict[str, Any], int | None]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.closed = False
        self._listened = False

    # ------------------------------------------------------------------ life

    async def connect(self) -> None:
        """Reach PostgreSQL and Redis (``OSError`` if either is not there), make the
        table-id sequence and the leases' table if the store has none, take this
        instance's lease and a first block of ids."""
        await self.leases.db()
        try:
            await self.redis.ping()
        except (RedisError, OSError) as exc:
            raise OSError(f"cannot reach the bus {self.location}: {exc}") from None
        await self.leases.start()

    def run(
        self,
        hub: Hub,
        dispatch: Callable[[list[Command]], None],
        forget: Callable[[set[int]], None] = lambda ids: None,
    ) -> None:
        """Start the bus's tasks for ``hub``; ``dispatch`` takes what the hub returns;
        ``forget`` drops the queued writes of games another instance took over."""
        self.hub = hub
        self.dispatch = dispatch
        self.forget_games = forget
        lobby = hub.lobby
        lobby.tables.site = True
        lobby.tables.table_ids = self.leases.next_id
        leases = self.leases
        for work in (self._listen, self._send, self._publish, leases.renew, leases.sweep):
            self._tasks.append(asyncio.create_task(self._forever(work)))
        self._tasks.append(asyncio.create_task(self._forever(self.relays.check)))
        log.info("site bus %s: this instance is %s", self.location, self.instance)

    async def _forever(self, work: Callable[[], Any]) -> None:
        """Run ``work`` again whenever it fails (Redis or PostgreSQL away), with backoff."""
        delay = 0.1
        while not self.closed:
            try:
                await work()
                delay = 0.1
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError, psycopg.Error) as exc:
                log.warning("site bus: %s (%s); trying again", type(exc).__name__, exc)
                if isinstance(exc, psycopg.Error):
                    self.leases.lost()
                await asyncio.sleep(delay)
                delay = min(BACKOFF_MAX, delay * 2)
            except Exception:
                log.exception("site bus: internal error; going on")
                await asyncio.sleep(BACKOFF_MAX)

    async def close(self) -> None:
        """Let go of this instance's games (another takes them at once), say what is
        left to say (2 s at most), and stop."""
        if self.closed:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._queue.join(), 2.0)
        self.closed = True
        for task in self._tasks:
            task.cancel()
        self.relays.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.leases.release()
        with contextlib.suppress(Exception):
            await self.redis.delete(open_key(self.instance))
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------------ the lobby list

    async def _publish(self) -> None:
        assert self.hub is not None
        while not self.closed:
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
            self.relays.owners = merged.owners
            await asyncio.sleep(PUBLISH_EVERY)

    # ------------------------------------------------------------------ publishing

    def put(self, instance: str, payload: dict[str, Any], relayed: int | None = None) -> None:
        """Publish ``payload`` to ``instance``, in order; ``relayed``: the relayed client
        it is from, which looks for its table anew if nobody receives it."""
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
        relays = self.relays
        try:
            counts = await pipe.execute()
        except (RedisError, OSError):  # Redis is away: its clients resync when it is back
            for _, _, relayed in batch:
                if relayed is not None:
                    relays.owner_lost(relayed)
            return
        for (instance, payload, relayed), received in zip(batch, counts, strict=True):
            if received:
                continue
            if relayed is not None:
                relays.owner_lost(relayed)
            elif payload["k"] == "out":
                relays.origin_lost(instance, int(payload["c"]), int(payload["e"]))

    # ------------------------------------------------------------------ listening

    async def _listen(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(channel(self.instance))
            log.info("site bus: listening on %s", channel(self.instance))
            if self._listened:  # back after Redis was away: what was said meanwhile is lost
                self.relays.resync()
            self._listened = True
            while not self.closed:
                got = await pubsub.get_message(timeout=1.0)
                if got is not None and got.get("type") == "message":
                    self.relays.received(str(got["data"]))
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]
