"""The stores' engines for the tests: SQLite in a temporary folder, and a real PostgreSQL
cluster started for the test session (no container, no service: ``initdb`` in a
temporary folder, ``pg_ctl start`` on a free port of 127.0.0.1, stopped and removed at
the end whatever happens).

The server binaries come from the OS package (``scripts/ensure-postgres`` installs it).
When they are missing the tests that need them fail, saying so; they are never skipped.
PostgreSQL refuses to run as root, so under root the cluster runs as the ``postgres``
user that Debian's package creates (``runuser``). Every test gets a database of its own.

The cluster trusts connections from 127.0.0.1, except those of the role ``PASSWORD_ROLE``
(its password: ``PASSWORD``), which must give it, so a test can see a wrong one refused.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from hundred_server.store import GameStore, open_store, redact
from tests.support.live_server import free_port

#: How long a pg_ctl start or stop may take before the test fails (seconds).
PG_WAIT = 60
PASSWORD_ROLE = "ann"
PASSWORD = "s3cret-Pw"
SUPERUSER = "postgres"
#: What the tests say when the binaries are missing.
MISSING = (
    "PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin/initdb): the "
    "PostgreSQL store's tests need them; run scripts/ensure-postgres (it installs "
    "Debian's postgresql package) and test again"
)


def pg_bin() -> Path | None:
    """The newest installed PostgreSQL's bin folder (None: none is)."""
    versions = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    versions.sort(
        key=lambda bin_dir: int(bin_dir.parent.name) if bin_dir.parent.name.isdigit() else 0
    )
    return versions[-1] if versions else None


class Cluster:
    """A PostgreSQL cluster in a temporary folder, for one test session."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="hundred-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self._databases = 0
        self._stopped = False
        self._as: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError(
                    "running as root, and there is no postgres user to run PostgreSQL as "
                    "(Debian's postgresql package makes it)"
                ) from None
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        try:
            self._run(
                "initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
                "--encoding=UTF8", "--locale=C", "--no-sync",
            )  # fmt: skip
            hba = self.data / "pg_hba.conf"  # the first rule that fits counts: this one first
            rule = f"host all {PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n"
            hba.write_text(rule + hba.read_text())
            self.start()
            self.execute(f"CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD '{PASSWORD}'")
        except BaseException:
            self.destroy()
            raise

    def _run(self, program: str, *args: str, timeout: float = PG_WAIT) -> None:
        path = str(self.bin / program) if (self.bin / program).exists() else program
        done = subprocess.run(
            [*self._as, path, *args], capture_output=True, text=True, timeout=timeout,
            cwd=self.root, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(f"{program} {' '.join(args)} failed: {done.stderr}{log[-2000:]}")

    def start(self) -> None:
        """Start it (again) on the same port; returns when it takes connections."""
        options = (
            f"-k {self.root} -h 127.0.0.1 -p {self.port} -c fsync=off "
            "-c full_page_writes=off -c max_connections=60"
        )
        self._run("pg_ctl", "start", "-w", "-t", str(PG_WAIT), "-D", str(self.data),
                  "-l", str(self.log), "-o", options)  # fmt: skip
        self._stopped = False

    def stop(self, mode: str = "fast") -> None:
        """Stop it (``fast``: every session ended, as an operator's restart does)."""
        self._run("pg_ctl", "stop", "-w", "-t", str(PG_WAIT), "-m", mode, "-D", str(self.data))
        self._stopped = True

    def url(self, database: str = "postgres", user: str = SUPERUSER, password: str = "") -> str:
        secret = f":{password}" if password else ""
        return f"postgresql://{user}{secret}@127.0.0.1:{self.port}/{database}"

    def execute(self, sql: str, params: Sequence[Any] = (), database: str = "postgres") -> None:
        with psycopg.connect(self.url(database), autocommit=True) as db:
            db.execute(sql, params)  # type: ignore[arg-type]

    def create_database(self, owner: str = SUPERUSER) -> str:
        self._databases += 1
        name = f"t{self._databases}"
        self.execute(f"CREATE DATABASE {name} OWNER {owner}")
        return name

    def drop_database(self, name: str) -> None:
        self.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def destroy(self) -> None:
        """Stop the server (fast, then immediate, then SIGKILL) and remove its folder;
        harmless if called again."""
        atexit.unregister(self.destroy)
        if self.root.exists():
            if not self._stopped:
                for mode in ("fast", "immediate"):
                    with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                        self.stop(mode)
                        break
                self._kill_leftover()
            shutil.rmtree(self.root, ignore_errors=True)

    def _kill_leftover(self) -> None:
        pidfile = self.data / "postmaster.pid"
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int(pidfile.read_text().split()[0])
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                os.kill(pid, 0)  # raises once it is gone
                time.sleep(0.05)


def start_cluster() -> Cluster:
    """A running cluster; its ``destroy`` stops and removes it (also run at exit, in
    case the session ends without its teardown). ``RuntimeError`` (``MISSING``) when
    PostgreSQL is not installed, or when it does not start."""
    bin_dir = pg_bin()
    if bin_dir is None:
        raise RuntimeError(MISSING)
    made = Cluster(bin_dir)
    atexit.register(made.destroy)
    return made


# ------------------------------------------------------------------ one engine, one test


@dataclass
class Engine:
    """A store location for one test and what the store tests need to reach past the
    store: raw SQL (``?`` placeholders for either engine), its errors, its lock."""

    name: str
    #: What ``open_store`` and the commands take: a path, or a URL.
    location: str
    #: The location as the store shows it (a URL without its password).
    shown: str
    #: The error a batch that breaks a key raises.
    integrity_error: type[Exception]
    cluster: Cluster | None = None
    database: str = ""
    #: Every store this engine opened, closed at the end of the test (``close_all``).
    opened: list[GameStore] = field(default_factory=list)

    def open(self, exclusive: bool = False, **options: Any) -> GameStore:
        store = open_store(self.location, exclusive=exclusive, **options)
        self.opened.append(store)
        return store

    def close_all(self) -> None:
        for store in self.opened:
            store.close()

    @property
    def store_args(self) -> list[str]:
        """The command-line options that name this store."""
        return ["--db", self.location] if self.name == "sqlite" else ["--store", self.location]

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run ``sql`` past the store (committed); its rows, if any."""
        if self.cluster is None:
            raw = sqlite3.connect(self.location, isolation_level=None)
            try:
                cursor = raw.execute(sql, params)
                return cursor.fetchall()
            finally:
                raw.close()
        with psycopg.connect(self.cluster.url(self.database), autocommit=True) as db:
            cursor = db.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
            return cursor.fetchall() if cursor.description else []

    def counts(self) -> list[int]:
        """Rows in games, seats and moves."""
        return [self.rows(f"SELECT count(*) FROM {t}")[0][0] for t in ("games", "seats", "moves")]

    @contextlib.contextmanager
    def write_locked(self) -> Iterator[None]:
        """Another program holds the lock a write needs, for the block."""
        if self.cluster is None:
            other = sqlite3.connect(self.location, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            try:
                yield
            finally:
                other.execute("ROLLBACK")
                other.close()
            return
        with psycopg.connect(self.cluster.url(self.database)) as other:
            other.execute("LOCK TABLE games, seats, moves IN EXCLUSIVE MODE")
            try:
                yield
            finally:
                other.rollback()

    @property
    def locked_error(self) -> tuple[type[Exception], str]:
        """What a write that waited too long for that lock raises, and its message."""
        if self.cluster is None:
            return sqlite3.OperationalError, "database is locked"
        return psycopg.errors.LockNotAvailable, "lock timeout"

    def defer_foreign_keys(self) -> None:
        """Make moves' reference to its game checked at COMMIT, so a COMMIT can fail."""
        if self.cluster is None:
            raw = sqlite3.connect(self.location, isolation_level=None)
            raw.execute("PRAGMA writable_schema=ON")
            raw.execute(
                "UPDATE sqlite_schema SET sql = replace(sql, 'REFERENCES games(id)', "
                "'REFERENCES games(id) DEFERRABLE INITIALLY DEFERRED') WHERE name = 'moves'"
            )
            raw.close()
        else:
            self.rows(
                "ALTER TABLE moves ALTER CONSTRAINT moves_game_fkey DEFERRABLE INITIALLY DEFERRED"
            )

    def dump(self) -> bytes:
        """Everything the store keeps, as bytes (the files; pg_dump's output)."""
        if self.cluster is None:
            folder = Path(self.location).parent
            return b"".join(p.read_bytes() for p in folder.iterdir() if p.is_file())
        done = subprocess.run(
            [str(self.cluster.bin / "pg_dump"), self.cluster.url(self.database)],
            capture_output=True, timeout=60, check=True,
        )  # fmt: skip
        return done.stdout


def sqlite_engine(path: Path) -> Engine:
    return Engine("sqlite", str(path), str(path), sqlite3.IntegrityError)


def postgres_engine(cluster: Cluster, database: str) -> Engine:
    url = cluster.url(database)
    return Engine("postgres", url, redact(url), psycopg.IntegrityError, cluster, database)


# ------------------------------------------------------------------ Redis, for the site


#: How long a redis-server may take to start or stop (seconds).
REDIS_WAIT = 20
REDIS_MISSING = (
    "redis-server not found: the site's tests (serve --bus) need it; run "
    "scripts/ensure-redis (it installs Debian's redis-server package) and test again"
)


class RedisServer:
    """A redis-server on 127.0.0.1 and a free port, in a temporary folder, keeping
    nothing on disk (``--save "" --appendonly no``); ``restart`` stops and starts it on
    the same port; ``destroy`` stops it and removes the folder (also at exit)."""

    def __init__(self, program: str) -> None:
        self.program = program
        self.root = Path(tempfile.mkdtemp(prefix="hundred-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        atexit.register(self.destroy)
        try:
            self.start()
        except BaseException:
            self.destroy()
            raise

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.program, "--bind", "127.0.0.1", "--port", str(self.port), "--dir",
             str(self.root), "--save", "", "--appendonly", "no", "--protected-mode", "no",
             "--logfile", str(self.root / "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            cwd=self.root,
        )  # fmt: skip
        deadline = time.monotonic() + REDIS_WAIT
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = self.root / "redis.log"
                text = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise RuntimeError(f"redis-server did not start: {text}")
            time.sleep(0.05)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(REDIS_WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(REDIS_WAIT)

    def restart(self) -> None:
        self.stop()
        self.start()

    def destroy(self) -> None:
        atexit.unregister(self.destroy)
        with contextlib.suppress(Exception):
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def start_redis() -> RedisServer:
    """A running redis-server (``RuntimeError`` with ``REDIS_MISSING`` if none is
    installed)."""
    program = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None
    )
    if program is None:
        raise RuntimeError(REDIS_MISSING)
    return RedisServer(program)


@contextlib.contextmanager
def fresh_database(cluster: Cluster, owner: str = SUPERUSER) -> Iterator[Engine]:
    """A database of its own on ``cluster``, owned by ``owner``, dropped after use with
    every connection to it closed."""
    name = cluster.create_database(owner=owner)
    engine = postgres_engine(cluster, name)
    try:
        yield engine
    finally:
        engine.close_all()
        cluster.drop_database(name)
