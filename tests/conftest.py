"""Test settings shared by every file.

Under CI (``CI=true``), hypothesis runs the same examples every time (``derandomize``),
so a submission's CI result does not depend on luck; local runs keep exploring new
examples, which is where new bugs are found (and then pinned by plain tests).
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    settings.load_profile("ci")


# ------------------------------------------------------------------ plug-in workers


import time  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TypeVar  # noqa: E402

import pytest  # noqa: E402

from tests.support.plugin_sources import write_plugins  # noqa: E402

_Service = TypeVar("_Service", "Cluster", "RedisServer")


def worker_processes() -> set[int]:
    """The children of this process that are plug-in workers (zombies too: a worker
    must be reaped)."""
    me = str(os.getpid())
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()  # state, ppid, ...
        zombie = fields[0] == "Z"  # its cmdline is gone; any unreaped child is a leak
        if fields[1] == me and (zombie or b"hundred_server.ai.worker" in cmdline):
            found.add(int(entry.name))
    return found


@pytest.fixture
def plugin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The test plug-ins (tests/support/plugin_sources.py) on ``sys.path``; and after the test,
    no worker process of this one is left (waited for 5 s at most)."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    write_plugins(folder)
    monkeypatch.syspath_prepend(str(folder))
    before = worker_processes()
    yield folder
    deadline = time.monotonic() + 5.0
    while (left := worker_processes() - before) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not left, f"plug-in workers left running: {sorted(left)}"


# ------------------------------------------------------------------ the stores' engines


from tests.support.engines import Cluster, Engine, RedisServer, start_cluster, start_redis  # noqa: E402


def _running(start: Callable[[], _Service]) -> Iterator[_Service]:
    """A real server that ``start`` starts (tests/support/engines.py), stopped and removed at
    the end; the tests that ask for it fail, never skip, if it is not installed."""
    try:
        running = start()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield running
    finally:
        running.destroy()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A real PostgreSQL for the session."""
    yield from _running(start_cluster)


@pytest.fixture
def pg_engine(pg_cluster: Cluster) -> Iterator[Engine]:
    """A database of its own on the session's PostgreSQL, dropped after the test."""
    from tests.support.engines import fresh_database

    with fresh_database(pg_cluster) as engine:
        yield engine


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """Each store engine in turn: an SQLite file in ``tmp_path``, then a PostgreSQL
    database of its own."""
    from tests.support.engines import sqlite_engine

    if request.param == "sqlite":
        engine = sqlite_engine(tmp_path / "s.db")
        yield engine
        engine.close_all()
    else:
        yield request.getfixturevalue("pg_engine")


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A real redis-server for one test."""
    yield from _running(start_redis)
