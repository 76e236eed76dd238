"""The admit path, one for every listener: a connection's first moment (half-open while
its handshake is to come: a PROXY header, a WebSocket's HTTP request), then its
admission as a client (the per-address and overall caps, ``Hub.admit``) or its refusal
with the reason. The limits are the hub's (``Hub.arrive``, ``Hub.admit``); this module
is what every listener does with their answers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from hundred_server.core.hub import Command, Hub
from hundred_server.io.outbox import Connection
from hundred_server.protocol.wire import encode, error

log = logging.getLogger("hundred_server")

#: How long a PROXY header may be (a v2 header with its TLVs; v1 is 107 bytes at most);
#: a connection has ``Limits.handshake_timeout`` to send it.
PROXY_MAX: Final = 4096


@dataclass(eq=False)
class HalfOpen:
    """A connection in its handshake (a PROXY header, a WebSocket's HTTP request): one
    of the hub's half-open ones (``Hub.arrive``) until ``Admission.settle``."""

    address: str | None
    transport: asyncio.Transport


class ProxyHeader:
    """The PROXY protocol header (v1 or v2) that a load balancer sends first, read from
    what arrives (the proxy-protocol library parses it): ``feed`` returns the client's
    address (None for a balancer's own connection, a health check) and the bytes after
    the header, or None until the header is whole; it raises ``ValueError`` for
    anything else, whatever the parser raised over it."""

    def __init__(self) -> None:
        from proxyprotocol import ProxyProtocolIncompleteError
        from proxyprotocol.detect import ProxyProtocolDetect

        self._incomplete = ProxyProtocolIncompleteError
        self._detect = ProxyProtocolDetect()
        self._buffer = b""
        self._need = 8  # the signature first

    def feed(self, data: bytes) -> tuple[str | None, bytes] | None:
        from proxyprotocol.result import is_ipv4, is_ipv6

        buffer = self._buffer = self._buffer + data
        while len(buffer) >= self._need:
            try:
                result = self._detect.unpack(buffer[: self._need])
            except self._incomplete as exc:
                want = exc.want_read
                if want.want_bytes is not None:
                    self._need += want.want_bytes
                else:  # v1: up to the line's end
                    end = buffer.find(b"\n", self._need - 1)
                    if end == -1:
                        self._need = len(buffer) + 1
                    else:
                        self._need = end + 1
                if self._need > PROXY_MAX:
                    raise ValueError(f"no PROXY header in its first {PROXY_MAX} bytes") from None
                continue
            except Exception as exc:  # a bad header (or the parser's own slip over one)
                raise ValueError(f"a bad PROXY header ({type(exc).__name__}: {exc})") from None
            rest = buffer[self._need :]
            if is_ipv4(result) or is_ipv6(result):
                return str(result.source[0]), rest
            return None, rest  # LOCAL or UNKNOWN: the balancer's own connection
        return None


class Admission:
    """Connections from their first moment until they are clients: the half-open ones
    (closed at shutdown), and each one admitted into ``connections`` (its greeting
    handed to ``dispatch``) or refused."""

    def __init__(
        self,
        hub: Hub,
        connections: dict[int, Connection],
        dispatch: Callable[[list[Command]], None],
    ) -> None:
        self.hub = hub
        self.connections = connections
        self.dispatch = dispatch
        self._half_open: set[HalfOpen] = set()

    def arrive(self, transport: asyncio.Transport, listener: str, proxied: bool) -> HalfOpen | None:
        """A connection whose handshake is to come (its first moment, before a byte of
        it is read): half-open (``Hub.arrive``), or over a half-open limit and closed at
        once, unanswered (None). Every listener's half-open connections come here.
        ``proxied``: the listener is behind a proxy (``--proxy-protocol``,
        ``--forwarded-for``), whose own address every connection has until its handshake
        gives the client's, so only the limit in all applies."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer and not proxied else None
        refusal = self.hub.addresses.arrive(address)
        if refusal is not None:
            where = peer[0] if peer else "?"
            log.warning("closed a connection from %s (%s) at once: %s", where, listener, refusal[1])
            transport.abort()
            return None
        half_open = HalfOpen(address, transport)
        self._half_open.add(half_open)
        return half_open

    def settle(self, half_open: HalfOpen) -> None:
        """Its handshake is over (done, failed, timed out, or the connection is gone):
        half-open no more, once whatever path comes here first."""
        if half_open in self._half_open:
            self._half_open.discard(half_open)
            self.hub.addresses.settle(half_open.address)

    def admit(
        self,
        connection: Connection,
        listener: str,
        peer: tuple[str, int] | None,
        proxied: str | None = None,
    ) -> bytes | None:
        """A client connected from ``peer``: admitted (it has its number, is among the
        ``connections``, and its greeting is dispatched: None), or refused (its refusal
        line, which the listener writes before it closes). ``proxied``: its address as a
        load balancer's PROXY header gave it (the per-address limits count it)."""
        address = proxied or (str(peer[0]) if peer else None)
        refusal = self.hub.admit(address)
        if refusal is not None:
            code, text = refusal
            log.warning("refused a connection from %s (%s): %s", address, listener, code)
            return encode(error(code, text))
        label = f"{peer[0]}:{peer[1]}" if peer else ""
        if proxied is not None:
            label = f"{proxied} via {label}"
        conn, commands = self.hub.connect(label, listener, address)
        connection.conn = conn
        self.connections[conn] = connection
        self.dispatch(commands)
        return None

    def close(self) -> None:
        """At shutdown: no handshake is finished now."""
        for half_open in list(self._half_open):
            self.settle(half_open)
            half_open.transport.abort()
