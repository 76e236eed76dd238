"""How long a slow accounts' store stalls everyone else (not a test).

    python bench/signin_stall.py --delay 0.1            # the store asked off the loop
    python bench/signin_stall.py --delay 0.1 --inline   # asked on the loop (as before)

A server on an SQLite store in a temporary folder, its accounts' look-ups (``by_key``,
``recent_failures``) slowed by ``--delay`` seconds each, as a PostgreSQL store far away
would be. Two clients sign in with a ``Key`` over and over (``--keys`` each), while a
third, which needs no look-up, sends a bare ``Hello`` every 50 ms and times each
answer. The clients run on a thread and event loop of their own, so a stalled server
does not stall them. ``--inline`` asks the store in place, on the event loop, as the
lobby did before core/signin.py. Prints one line: the Key sign-ins' time, and the bare
``Hello``'s round trip (median, 95th percentile, most).

Measured on the development machine (2 cores shared with other work, load ~17), store
100 ms a call: off the loop, a bare Hello's round trip median 0.37 ms, p95 0.86 ms, most
4 ms; on the loop, median 48 ms, p95 72 ms, most 205 ms. The 40 Key sign-ins took 8.2 s
off the loop against 5.4 s on it: each asks the store twice (the wrong guesses' count,
kept there now, then the key), on one thread in turn, where the in-memory count cost
nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher

from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.accounts import hash_key, new_key
from hundred_server.core.hub import Hub
from hundred_server.io.server import Server
from hundred_server.store import Store
from hundred_server.store.accounts import accounts_of


async def line(reader: asyncio.StreamReader) -> Any:
    raw = await asyncio.wait_for(reader.readline(), 30)
    if not raw:
        raise EOFError("the server closed the connection")
    return json.loads(raw)


async def sign_ins(port: int, key: str, count: int) -> None:
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await line(reader)
        await line(reader)
        writer.write(json.dumps({"Type": "Hello", "Key": key}).encode() + b"\n")
        await line(reader)
        writer.close()
        await writer.wait_closed()
        await asyncio.sleep(0.01)


async def bare_hellos(port: int, count: int) -> list[float]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    await line(reader)
    await line(reader)
    times = []
    for _ in range(count):
        start = time.perf_counter()
        writer.write(b'{"Type":"Hello"}\n')
        await line(reader)
        await line(reader)
        times.append(time.perf_counter() - start)
        await asyncio.sleep(0.05)
    writer.close()
    return times


async def main(delay: float, inline: bool, keys: int) -> str:
    folder = Path(tempfile.mkdtemp())
    store = Store(folder / "s.db", exclusive=True)
    accounts = accounts_of(store)
    key = new_key()
    hashed = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash("x" * 8)
    accounts.create("ann", "ann", hashed, False, hash_key(key))
    for name in ("by_key", "recent_failures"):
        real = getattr(accounts, name)

        def slow(*args: Any, real: Any = real) -> Any:
            time.sleep(delay)
            return real(*args)

        setattr(accounts, name, slow)
    hub = Hub(ai=AISettings("naive"), durable=True)
    settings = Settings(listeners=Listeners("127.0.0.1", 0))
    server = Server(hub, settings, store=store, accounts=accounts)
    await server.start()
    hub.lobby.sign_in.inline = inline
    try:

        async def clients() -> tuple[list[float], float]:
            start = time.perf_counter()
            *_, times = await asyncio.gather(
                sign_ins(server.port, key, keys),
                sign_ins(server.port, key, keys),
                bare_hellos(server.port, 60),
            )
            return times, time.perf_counter() - start

        times, took = await asyncio.to_thread(asyncio.run, clients())
    finally:
        await server.close()
        accounts.close()
        store.close()
    times.sort()
    where = "on the loop (--inline)" if inline else "off the loop"
    return (
        f"{where}: store {delay * 1000:.0f} ms a call; {2 * keys} Key sign-ins in {took:.2f} s; "
        f"a bare Hello's round trip: median {statistics.median(times) * 1000:.2f} ms, "
        f"p95 {times[int(len(times) * 0.95)] * 1000:.2f} ms, most {times[-1] * 1000:.2f} ms"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.1, help="seconds a store call takes")
    parser.add_argument("--inline", action="store_true", help="ask the store on the loop")
    parser.add_argument("--keys", type=int, default=20, help="Key sign-ins per client")
    args = parser.parse_args()
    print(asyncio.run(main(args.delay, args.inline, args.keys)))
