"""The relayed clients of the site (bus.py's docstring tells the whole story), both
sides of a relay: on the socket's instance, a client whose table is on another
(``Out``: its messages go to the table's owner, found anew when that owner dies); on
the table's instance, the virtual connection that stands for a client of another
instance, which the hub serves as any other and whose messages go back to its origin.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import psycopg
from redis.exceptions import RedisError

from hundred_server.core.hub import Close, Command, Relay, Remote
from hundred_server.core.lobby import TOKEN_RE, hash_token
from hundred_server.protocol.wire import Message

if TYPE_CHECKING:
    from hundred_server.io.bus import Bus

log = logging.getLogger("hundred_server")

PREFIX: Final = "hundred:"
#: How often the peers of relayed clients are checked (``PUBSUB NUMSUB``), and how many
#: checks in a row must find one gone before it counts as gone (a restart of Redis
#: empties every channel for a moment).
CHECK_EVERY: Final = 1.0
GONE_AFTER: Final = 3
#: How long a relayed message waits for its table's instance (a takeover) before the
#: client is told there is none.
RESOLVE_FOR: Final = 15.0
RETRY_EVERY: Final = 0.5


def channel(instance: str) -> str:
    return f"{PREFIX}to:{instance}"


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
class Out:
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


class Relays:
    """The relays of ``bus``'s instance: its clients whose tables are elsewhere
    (``take`` their messages, ``received`` what their tables say), and the virtual
    connections of other instances' clients at its own tables."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._outs: dict[int, Out] = {}
        self._virtual: dict[tuple[str, int, int], int] = {}  # (origin, conn, epoch) -> conn
        self._origin: dict[int, tuple[str, int, int]] = {}
        self._origin_gone: dict[str, int] = {}
        self.owners: dict[int, str] = {}  # the other instances' open tables' owners

    def cancel(self) -> None:
        """At shutdown: no relayed client looks for its table any more."""
        for out in self._outs.values():
            if out.task is not None:
                out.task.cancel()

    def take(self, commands: list[Relay | Remote]) -> None:
        """The hub's commands for the bus, in order (server.py hands over those of one
        send). What one virtual connection is told goes in one payload, its release
        with it, so its client is back in its own lobby before it reads that it is."""
        if self.bus.closed:
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
            self.bus.put(origin, payload)

    def _relay(self, command: Relay) -> None:
        conn, msg = command.conn, command.message
        if command.to is not None:
            out = Out(conn, command.to.table, command.to.digest, watch=command.to.watch)
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
                self.bus.put(known.owner, {"k": "end", "c": conn, "e": known.epoch})
            return
        if known.owner is None:
            known.buffer.append(msg)
        else:
            self.bus.put(known.owner, self._in(known, msg), conn)

    def _in(self, out: Out, msg: Message) -> dict[str, Any]:
        assert self.bus.hub is not None
        session = self.bus.hub.lobby.sessions.get(out.conn)
        link = self.bus.hub.links.get(out.conn)
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
                self.bus.put(payload.pop("to"), payload)
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

    def owner_lost(self, conn: int) -> None:
        """The instance of ``conn``'s table did not answer: relay to its next owner."""
        out = self._outs.get(conn)
        if out is None or out.owner is None:
            return
        assert self.bus.hub is not None
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
            self.bus.dispatch(self.bus.hub.unrelay(conn, text))
            return
        log.info(
            "connection %d: the instance of table %s is gone; finding it again", conn, out.table
        )
        out.owner, out.epoch = None, out.epoch + 1
        out.digest = hash_token(out.token)
        out.buffer = [{"Type": "Hello", "Token": out.token}]
        self._resolve(out)

    def resync(self) -> None:
        """Every relayed client takes its seat again (its token relayed anew): it is
        shown its table and prompt as they are now, whatever it missed."""
        for out in list(self._outs.values()):
            if out.owner is not None and out.token is not None:
                self.owner_lost(out.conn)

    def origin_lost(self, origin: str, conn: int, epoch: int) -> None:
        """The instance of a virtual connection's client is gone: its seat is lost."""
        assert self.bus.hub is not None
        vconn = self._virtual.pop((origin, conn, epoch), None)
        if vconn is not None:
            del self._origin[vconn]
            self.bus.dispatch(self.bus.hub.disconnect(vconn))

    def _resolve(self, out: Out) -> None:
        out.task = asyncio.get_running_loop().create_task(self._find_owner(out))

    async def _find_owner(self, out: Out) -> None:
        """Find the instance of ``out``'s table (waiting for a takeover if its owner is
        gone) and send it what waits; or handle it here if the table is here now."""
        assert self.bus.hub is not None
        hub = self.bus.hub
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RESOLVE_FOR
        while self._outs.get(out.conn) is out:
            owner: str | None = None
            try:
                if out.digest is not None:
                    row = await self.bus.leases.owner_of_token(out.digest)
                    if row is None:
                        self._refuse(out)
                        return
                    out.table, owner = row
                elif out.table is not None:
                    owner = self.owners.get(out.table)
                if out.table is not None and (
                    owner == self.bus.instance or out.table in hub.lobby.tables
                ):
                    async with self.bus.leases.claiming:  # a takeover under way ends first
                        pass
                    if out.table in hub.lobby.tables:
                        self._here(out)
                        return
                elif owner is not None and out.buffer:
                    first = self._in(out, out.buffer[0])
                    first["i"] = self.bus.instance
                    text = json.dumps(first, separators=(",", ":"))
                    if await self.bus.redis.publish(channel(owner), text):
                        out.buffer.pop(0)
                        for msg in out.buffer:
                            self.bus.put(owner, self._in(out, msg), out.conn)
                        out.buffer, out.owner, out.task = [], owner, None
                        return
            except (RedisError, OSError, psycopg.Error) as exc:
                log.info("connection %d: finding its table: %s", out.conn, exc)
            if loop.time() > deadline or (out.digest is None and owner is None):
                self._refuse(out)
                return
            await asyncio.sleep(RETRY_EVERY)

    def _here(self, out: Out) -> None:
        """The table is on this instance now: the waiting messages are handled here."""
        assert self.bus.hub is not None
        del self._outs[out.conn]
        commands = self.bus.hub.unrelay(out.conn)
        for msg in out.buffer:
            commands += self.bus.hub.receive_message(out.conn, msg)
        self.bus.dispatch(commands)

    def _refuse(self, out: Out) -> None:
        assert self.bus.hub is not None
        self._outs.pop(out.conn, None)
        if out.digest is not None:
            code, text = "bad_token", "no game under way has a seat for that token (it may be over)"
        elif out.watch:
            code, text = "no_such_table", f"no table {out.table} to watch"
        else:
            code, text = "no_such_table", f"no open table {out.table}"
        self.bus.dispatch(self.bus.hub.unrelay(out.conn, text, code))

    def received(self, text: str) -> None:
        assert self.bus.hub is not None
        hub = self.bus.hub
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
                    self.bus.dispatch(hub.disconnect(vconn))
                return
            msg = payload.get("m")
            if not isinstance(msg, dict):
                return
            if vconn is None and msg.get("Type") not in ("Hello", "Join", "Watch"):
                self.bus.put(origin, {"k": "lost", "c": conn, "e": epoch})  # its seat was lost
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
            self.bus.dispatch(hub.receive_message(vconn, msg))
            return
        out = self._outs.get(conn)  # for a client here, from its table's instance
        if out is None or out.epoch != epoch or out.owner != origin:
            return
        if kind == "lost":
            self.owner_lost(conn)
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
        self.bus.dispatch(commands)

    async def check(self) -> None:
        """Relayed clients whose table's instance is gone, and virtual connections whose
        client's instance is gone, found by their channels' subscribers; a relayed
        client that waits for others' moves would otherwise wait for good."""
        while not self.bus.closed:
            await asyncio.sleep(CHECK_EVERY)
            owners = {o.owner for o in self._outs.values() if o.owner is not None}
            origins = {key[0] for key in self._virtual}
            peers = sorted(owners | origins)
            if not peers:
                continue
            counts = dict(await self.bus.redis.pubsub_numsub(*(channel(p) for p in peers)))
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
                    self.owner_lost(out.conn)
                for key in [k for k in self._virtual if k[0] == peer]:
                    self.origin_lost(*key)
