"""Connections counted by address, for the per-address limits (no I/O).

A connection counts against its address from its first moment: half-open while its
handshake is to come (``arrive`` until ``settle``), then open (``opened`` until
``closed``). The hub (hub.py) says whether one more is admitted.
"""

from __future__ import annotations

from hundred_server.core.limits import Limits


def _less(counts: dict[str, int], address: str) -> None:
    left = counts.get(address, 1) - 1
    if left:
        counts[address] = left
    else:
        counts.pop(address, None)


class Addresses:
    """The open and the half-open connections of each address, under ``limits``."""

    def __init__(self, limits: Limits) -> None:
        self._limits = limits
        self._open: dict[str, int] = {}
        #: Connections still in their handshake (``arrive``), per address and in all.
        self._half_open: dict[str, int] = {}
        self._half_open_total = 0

    def arrive(self, address: str | None) -> tuple[str, str] | None:
        """A connection from ``address`` that is not yet a client: its handshake (a
        WebSocket's HTTP request, a PROXY header) is to come. Why it is closed at once,
        as (code, text), if it is: the half-open connections from its address or in all
        are at their limit. Otherwise it is half-open until ``settle(address)``, and
        counts against its address's ``max_connections_per_address`` meanwhile."""
        limits = self._limits
        if self._half_open_total >= limits.max_half_open:
            return (
                "too_many_half_open",
                f"{limits.max_half_open} connections are in their handshake already",
            )
        if address is not None:
            count = self._half_open.get(address, 0)
            if count >= limits.max_half_open_per_address:
                return (
                    "too_many_half_open",
                    f"your address has {limits.max_half_open_per_address} connections in "
                    "their handshake already",
                )
            self._half_open[address] = count + 1
        self._half_open_total += 1
        return None

    def settle(self, address: str | None) -> None:
        """A half-open connection from ``address`` (``arrive``) is through its handshake
        (admitted next) or gone: it is half-open no more. Once a connection."""
        self._half_open_total -= 1
        if address is not None:
            _less(self._half_open, address)

    def half_open(self, address: str | None = None) -> int:
        """The half-open connections from ``address`` (None: in all)."""
        return self._half_open_total if address is None else self._half_open.get(address, 0)

    def refusal(self, address: str | None, connections: int) -> tuple[str, str] | None:
        """Why one more connection (from ``address``, with ``connections`` open) is
        refused, as (code, text), if it is: the server's or the address's connections
        are at their limit (the address's half-open ones count, so a connection that was
        half-open is settled first)."""
        limits = self._limits
        if connections >= limits.max_connections:
            return (
                "server_full",
                f"the server is full ({limits.max_connections} connections); try later",
            )
        if address is not None and self.full(address):
            return (
                "too_many_connections",
                f"your address has {limits.max_connections_per_address} connections open "
                "already (the most it may); close one first",
            )
        return None

    def full(self, address: str) -> bool:
        """Whether ``address`` has as many connections, open or half-open, as it may."""
        count = self._open.get(address, 0) + self._half_open.get(address, 0)
        return count >= self._limits.max_connections_per_address

    def opened(self, address: str | None) -> None:
        if address is not None:
            self._open[address] = self._open.get(address, 0) + 1

    def closed(self, address: str | None) -> None:
        if address is not None:
            _less(self._open, address)

    def clear(self) -> None:
        """Every open connection is gone (shutdown)."""
        self._open.clear()
