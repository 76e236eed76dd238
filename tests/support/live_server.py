"""A real server in its own process, for the tests that need one (and bench/load.py's
twin): ``python -m hundred_server serve`` on a free port of 127.0.0.1, waited for until
it accepts, stopped with SIGTERM (or killed) at the end. Every wait is bounded. And an
in-process ``Server`` started for a test and closed after it (``started``)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

from hundred_server.io.server import Server

ROOT = Path(__file__).resolve().parents[2]  # the repository
START_TIMEOUT = 20.0


#: How long ``eventually`` waits.
EVENTUALLY: float = 5.0


async def eventually(done: Callable[[], bool]) -> None:
    """Wait until ``done()``, ``EVENTUALLY`` seconds at most: for what an in-process
    server has yet to read, which no event of the test's own signals."""
    async with asyncio.timeout(EVENTUALLY):
        while not done():  # noqa: ASYNC110 - a server's state, not an event to wait on
            await asyncio.sleep(0.01)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def run_command(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``hundred-server ARGS`` as a real process in ``cwd``, finished (60 s at most), its
    output as text; nothing of this environment but the package on its path."""
    return subprocess.run(
        [sys.executable, "-m", "hundred_server", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )


def start_server(
    *args: str, db: Path | None = None, port: int | None = None, store: str | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """Start a server (``--db db``; ``store``: a path for ``--db`` or a URL for
    ``--store``; ``--memory`` without either); returns it once it accepts connections,
    and its port. Its stdout and stderr are pipes. Its tables' AI is the naive one
    unless ``args`` has ``--ai`` (see hub_harness.Harness)."""
    port = port or free_port()
    if store is not None:
        options = ["--store" if "://" in store else "--db", store]
    else:
        options = ["--db", str(db)] if db is not None else ["--memory"]
    if "--ai" not in args:
        options += ["--ai", "naive"]
    process = subprocess.Popen(
        [sys.executable, "-m", "hundred_server", "serve", "--port", str(port), *options, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            if process.poll() is not None:
                _out, err = process.communicate(timeout=5)
                raise AssertionError(f"the server died: {err.decode(errors='replace')}") from None
            if time.monotonic() > deadline:
                process.kill()
                raise AssertionError("the server never listened") from None
            time.sleep(0.05)


def stop_server(process: subprocess.Popen[bytes]) -> int:
    """SIGTERM, then its exit status (killed after 10 s if it does not stop)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        return process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired, ValueError):
            process.communicate(timeout=5)


@contextlib.contextmanager
def server_process(*args: str, db: Path | None = None) -> Iterator[int]:
    """A server for the duration of the block; yields its port. It must stop cleanly."""
    process, port = start_server(*args, db=db)
    try:
        yield port
    finally:
        status = stop_server(process)
    assert status == 0, f"the server exited with {status}"


@contextlib.asynccontextmanager
async def started(server: Server) -> AsyncIterator[Server]:
    """``server`` started, and closed at the end."""
    await server.start()
    try:
        yield server
    finally:
        await server.close()
