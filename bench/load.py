"""Load benchmark (not a test): a real server process and N bot clients over loopback.

    make load                                   # 400 clients at 100 tables
    python bench/load.py --clients 400 --tables 100 --games 1 --timeout 300

The server runs as its own process (``python -m hundred_server serve``) on a free port
of 127.0.0.1. Every client is a person at a people-only table (``Seats`` = clients /
tables): one creates the table (option 5), the others join it. They answer every
prompt from ``Legal`` with the naive strategy of ``clients/bot.py``, echoing ``Seq``,
play ``--games`` games, then quit. Bounded in count (games) and time (``--timeout``).

Every client connects from 127.0.0.1, so the server's per-address limits
(``--max-per-address`` and the tables per address) are raised to the client count.

``--instances N`` (N > 1) runs one site of N servers instead (``--store
postgresql://... --bus redis://...``, a PostgreSQL cluster and a Redis that the run
starts in temporary folders and removes): table t is made on instance t mod N and its
other seats join from the next instances, so most play relayed (bus.py).

``--store`` picks the server's store: ``off`` runs it with ``--memory`` (nothing on
disk), ``on`` with ``--db`` on a fresh file in a temporary directory (never the working
directory, so no old games are restored), ``both`` (the default) alternates off and on,
``--reps`` times each (default 2 for both, 1 otherwise), a fresh server process per run,
so that machine noise hits both alike.

Printed as one JSON line per run, with ``store`` "off" or "on":
- games completed (of those expected), seconds, messages per second (lines the
  clients received, and lines they sent);
- latency: for each answer a client sends, the time until that client receives the
  next prompt at its table, which is the server's turnaround as a client feels it
  (p50, p99 and max, in ms);
- errors: Error messages received, connections that failed or closed early;
- the server's peak memory (VmHWM) and CPU seconds, from /proc;
- ``ok``: every game completed, no Error message, no failed connection.

With ``--store both``, a last line sums up: the medians of messages received per second
and of p99 latency with the store off and on, the store's cost in percent of the
messages per second without it (target: under 30), whether every run completed all its
games, and the errors of all runs.

Each run also counts the clients' ``answers`` (replies to prompts) and the server's
CPU seconds under load (from the moment it listens to the last client's end), and
divides: ``server_cpu_us_per_answer``, the cost of an answer, which machine noise
barely moves (other processes take wall time, not this process's CPU time).

Side by side: ``--base PATH`` also runs the server of another checkout (say, main's
in a worktree: ``git worktree add /tmp/base-perf main``), imported from there by
``PYTHONPATH``, alternately with this one, run for run (``server`` "base" or "this");
a last line gives the medians of each and this one's ratio to the base's, and for the
server's CPU an answer each pair's ratio (a base run and this one's after it) and their
median, which the machine's drift between pairs moves less.

Unsaturated, at a person's pace: ``--pace SECONDS`` has every client answer each
prompt after a delay drawn uniformly from 0.5 to 1.5 times SECONDS (from its own seeded
generator), so the server idles between answers and every answer pays the whole cost a
real site pays for it: a wake-up, a read, a commit, a write to each seat. A run then ends
after ``--seconds`` (default 30; a game of 110 at that pace lasts minutes), its games
unfinished and not counted as failures; ``server_cpu_us_per_answer`` is the figure to
read (the server's CPU from listening to the end, over the answers sent), and beside it
``server_cpu_us_per_answer_steady``, the same from ``SETTLE`` (2) seconds after the last
client joined: without the arrivals (400 connections greeted, 100 tables made and
joined, a cost of the run's size, not of an answer), the cost of an answer alone:

    python bench/load.py --clients 400 --tables 100 --games 1 --store on --pace 0.5 \
        --reps 3 --base /tmp/base-fast

Each side on its default install: this checkout's server runs on this interpreter (its
venv: ``pip install -e .``, uvloop and orjson where they install), the base's on
``--base-python``, by default the base's own venv ``BASE/.venv/bin/python`` when there
is one (``python3 -m venv BASE/.venv && BASE/.venv/bin/pip install -e BASE``: what that
checkout's setup.cfg installs; 09b93ac's has neither uvloop nor orjson). Each run says
which interpreter it ran and which of the two it had (``server_python``,
``server_fast_parts``).

``--profile DIR`` samples each server under load with py-spy (``pip install -e '.[profile]'``):
a flame graph (``DIR/<server>-<store>-<n>.svg``), the same samples as collapsed stacks
(``.txt``), and its top entries by self and cumulative share, printed (keep ``DIR`` out
of git: ``bench-artifacts/`` is ignored). Per-core
targets, store on, median of three (``make load-targets``):

    python bench/load.py --clients 1000 --tables 250 --store on --reps 3
    python bench/load.py --clients 2000 --tables 500 --store on --reps 3 --base /tmp/base-perf
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import importlib.util
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
STORE_COST_TARGET_PCT = 30


def _load_strategy() -> Any:
    spec = importlib.util.spec_from_file_location("bot_client", ROOT / "clients" / "bot.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_client"] = module
    spec.loader.exec_module(module)
    return module.Strategy


Strategy = _load_strategy()


@dataclass
class Stats:
    received: int = 0
    sent: int = 0
    errors: int = 0
    answers: int = 0
    failures: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)
    #: Paced: the servers' CPU seconds and the answers when every table is playing.
    steady_cpu: float | None = None
    steady_answers: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)


class Player:
    """A seat's side of a game, without I/O: what it was dealt and shown, and its
    answer to a prompt for it, from ``Legal`` with the naive strategy of
    ``clients/bot.py`` (bench/hub_cost.py plays its clients with it too)."""

    def __init__(self, rng: random.Random) -> None:
        self.strategy = Strategy("naive", rng)
        self.seat: int | None = None
        self.hand: list[str] = []
        self.trump: str | None = None
        self.answered = 0  # the Seq of the last prompt answered

    def see(self, kind: str, msg: dict[str, Any]) -> dict[str, Any] | None:
        """Note ``msg``; the answer to send if it is a prompt this seat has not answered."""
        if kind == "Deal":
            self.seat, self.hand, self.trump = msg["Playerid"], list(msg["Hand"]), None
        elif kind == "Trump" and "Trump" in msg:
            self.trump = msg["Trump"]
        elif kind == "Discard" and "Hand" in msg:
            self.hand = list(msg["Hand"])
        elif kind == "Play" and msg.get("PlayedCard") in self.hand and msg["Playerid"] == self.seat:
            self.hand.remove(msg["PlayedCard"])
        if "Legal" not in msg or msg["Seq"] <= self.answered:
            return None
        legal, seq = msg["Legal"], msg["Seq"]
        answer: dict[str, Any] = {"Type": kind, "Playerid": self.seat, "Seq": seq}
        if kind == "Bid":
            answer["Bid"] = self.strategy.bid(legal, self.hand)
        elif kind == "Trump":
            answer["Trump"] = self.strategy.trump(legal, self.hand)
        elif kind == "Discard":
            answer["Cards"] = self.strategy.discard(legal, self.trump)
        else:
            answer["PlayedCard"] = self.strategy.play(legal, msg)
        self.answered = seq
        return answer


class LoadClient(asyncio.Protocol):
    """One person at a table: answers prompts for its seat from Legal.

    A protocol, not a stream reader and writer: a line costs the client a ``json.loads``
    and no await, so that the generator (one process, one core) keeps up with the server
    and the latencies it reports are the server's, not its own backlog's."""

    def __init__(
        self, name: str, stats: Stats, games: int, rng: random.Random, pace: float = 0.0
    ) -> None:
        self.name = name
        self.pace = pace
        self.rng = rng
        self.stats = stats
        self.games_left = games
        self.player = Player(rng)
        self.sent_at: float | None = None
        loop = asyncio.get_running_loop()
        self.table_id: asyncio.Future[int] = loop.create_future()
        self.done: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.first: list[dict[str, Any]] = []
        self.greeted = False

    async def connect(self, port: int, first: list[dict[str, Any]]) -> None:
        """Connect; ``first`` is sent after the greeting."""
        self.first = first
        await asyncio.get_running_loop().create_connection(lambda: self, "127.0.0.1", port)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)

    def send(self, msg: dict[str, Any]) -> None:
        assert self.transport is not None
        self.transport.write(json.dumps(msg, separators=(",", ":")).encode() + b"\n")
        self.stats.sent += 1

    def data_received(self, data: bytes) -> None:
        lines = (self.buffer + data).split(b"\n")
        self.buffer = lines.pop()
        try:
            for line in lines:
                self.line(line)
        except Exception:  # a bug of the client's: counted, and it stops
            self.stats.failures += 1
            self.games_left = 0
            assert self.transport is not None
            self.transport.close()
            raise

    def line(self, line: bytes) -> None:
        self.stats.received += 1
        msg = json.loads(line)
        kind = msg.get("Type")
        if kind == "Hello":
            if not self.greeted:
                self.greeted = True
                for m in self.first:
                    self.send(m)
            else:  # back at the lobby after a game
                self.send({"Type": "Hello", "Message": "quit"})
        elif kind == "Table" and not self.table_id.done():
            self.table_id.set_result(msg["Table"])
        elif kind == "Error":
            self.stats.errors += 1
            code = msg.get("Code", "?")
            self.stats.error_codes[code] = self.stats.error_codes.get(code, 0) + 1
        else:
            self.on_game(kind, msg)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.games_left > 0:
            self.stats.failures += 1
        if not self.table_id.done():
            self.table_id.cancel()
        if not self.done.done():
            self.done.set_result(None)

    def on_game(self, kind: str, msg: dict[str, Any]) -> None:
        if "Seq" in msg and msg["Seq"] > self.player.answered and self.sent_at is not None:
            self.stats.latencies.append(time.perf_counter() - self.sent_at)
            self.sent_at = None
        if kind == "Score" and msg.get("GameOver"):
            self.games_left -= 1
            self.stats.games += 1
        answer = self.player.see(kind, msg)
        if answer is None:
            pass
        elif self.pace:  # a person's pace: 0.5-1.5 times --pace after the prompt
            delay = self.pace * (0.5 + self.rng.random())
            asyncio.get_running_loop().call_later(delay, self.answer, answer)
        else:
            self.answer(answer)

    def answer(self, answer: dict[str, Any]) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        self.sent_at = time.perf_counter()
        self.stats.answers += 1
        self.send(answer)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def proc_status(pid: int) -> tuple[float, float]:
    """(peak resident MB, CPU seconds) of a process, from /proc."""
    peak, user, system = proc_cpu(pid)
    return peak, user + system


def proc_cpu(pid: int) -> tuple[float, float, float]:
    """(peak resident MB, user CPU seconds, system CPU seconds) of a process."""
    peak = 0.0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return peak, int(fields[11]) / ticks, int(fields[12]) / ticks


def servers_cpu(servers: list[subprocess.Popen[bytes]]) -> float:
    """The CPU seconds (user + system) of these processes, summed."""
    return sum(proc_status(each.pid)[1] for each in servers)


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds (user + system) of a process's threads: its main thread ("main")
    and the others ("other": the store's writer, plug-in readers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        key = "main" if task.name == str(pid) else "other"
        out[key] = out.get(key, 0.0) + (int(fields[11]) + int(fields[12])) / ticks
    return out


async def wait_for_port(port: int, deadline: float) -> None:
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)


#: Paced: seconds after the last join before the steady part of a run is measured.
SETTLE = 2.0


async def drive(
    ports: list[int],
    args: argparse.Namespace,
    stats: Stats,
    server_cpu: Callable[[], float] = lambda: 0.0,
) -> float:
    seats = args.clients // args.tables
    rng = random.Random(args.seed)
    loop_start = time.perf_counter()
    creators = [
        LoadClient(f"c{t}", stats, args.games, random.Random(rng.random()), args.pace)
        for t in range(args.tables)
    ]
    clients = list(creators)
    for i, creator in enumerate(creators):
        game = {"Type": "Game", "Option": 5, "Seats": seats, "Bots": 0, "Name": f"load {i}"}
        hello = {"Type": "Hello", "Message": "create", "Name": creator.name}
        await creator.connect(ports[i % len(ports)], [hello, game])
    ids = await asyncio.wait_for(asyncio.gather(*(c.table_id for c in creators)), args.timeout)
    if len(ports) > 1:  # every instance lists the others' tables within a second or so
        await asyncio.sleep(1.5)
    for t, table_id in enumerate(ids):
        for j in range(1, seats):
            joiner = LoadClient(
                f"j{t}-{j}", stats, args.games, random.Random(rng.random()), args.pace
            )
            hello = {"Type": "Hello", "Message": "join", "Name": joiner.name}
            first: list[dict[str, Any]] = [hello, {"Type": "Join", "Table": table_id}]
            await joiner.connect(ports[(t + j) % len(ports)], first)  # most join another instance
            clients.append(joiner)
    if args.pace:  # the answers of people at their tables, without the arrivals
        await asyncio.sleep(SETTLE)
        stats.steady_cpu, stats.steady_answers = server_cpu(), stats.answers
    # Paced, a run ends after --seconds too (a game of 110 at a person's pace is minutes).
    limit = args.timeout if args.seconds is None else min(args.timeout, args.seconds)
    await asyncio.wait([c.done for c in clients], timeout=limit)
    for client in clients:
        if args.seconds is not None and not client.done.done():
            client.games_left = 0  # stopped by the run's end, not a failure
        if client.transport is not None:
            client.transport.close()
    return time.perf_counter() - loop_start


def steady_us(stats: Stats, cpu: float) -> float | None:
    answers = stats.answers - stats.steady_answers
    if stats.steady_cpu is None or answers <= 0:
        return None
    return round(1e6 * (cpu - stats.steady_cpu) / answers, 1)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def start_profile(
    args: argparse.Namespace, pid: int, store: str, base: Path | None
) -> list[tuple[subprocess.Popen[bytes], Path]]:
    """py-spy samplers on the server (``--profile``): a flame graph and raw stacks."""
    if args.profile is None:
        return []
    where = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    spy = shutil.which("py-spy", path=where)
    if spy is None:
        raise SystemExit("--profile needs py-spy: pip install -e '.[profile]'")
    args.profile.mkdir(parents=True, exist_ok=True)
    label = f"{'this' if base is None else 'base'}-{store}"
    n = 1 + sum(1 for _ in args.profile.glob(f"{label}-*.svg"))
    samplers = []
    for fmt, ext in (("flamegraph", "svg"), ("raw", "txt")):
        out = args.profile / f"{label}-{n}.{ext}"
        command = [spy, "record", "--pid", str(pid), "--rate", "200", "--nonblocking"]
        command += ["--format", fmt, "--output", str(out)]
        samplers.append((subprocess.Popen(command, stdout=subprocess.DEVNULL), out))
    return samplers


def stop_profile(samplers: list[tuple[subprocess.Popen[bytes], Path]]) -> None:
    for sampler, _ in samplers:
        sampler.send_signal(signal.SIGINT)  # py-spy writes its output on Ctrl-C
    for sampler, out in samplers:
        sampler.wait(30)
        if out.suffix == ".txt" and out.exists():
            print(profile_top(out), flush=True)


def profile_top(collapsed: Path, top: int = 25) -> str:
    """The functions that took most of the samples of py-spy's raw (collapsed) stacks:
    cumulative share (on the stack) and self share (at its top), in percent."""
    total = 0
    own: dict[str, int] = {}
    cumulative: dict[str, int] = {}
    for line in collapsed.read_text(errors="replace").splitlines():  # py-spy may garble a name
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():  # a frame's name broken over lines
            continue
        n = int(count)
        total += n
        frames = [f.split(" (")[0] + " (" + f.split(" (")[1].split(":")[0] + ")"
                  if " (" in f else f for f in stack.split(";")]  # fmt: skip
        own[frames[-1]] = own.get(frames[-1], 0) + n
        for frame in set(frames):
            cumulative[frame] = cumulative.get(frame, 0) + n
    rows = [f"{collapsed.name}: {total} samples; cumulative %, self %, function"]
    for frame, n in sorted(cumulative.items(), key=lambda kv: -kv[1])[:top]:
        rows.append(f"{100 * n / total:6.1f} {100 * own.get(frame, 0) / total:6.1f}  {frame}")
    rows.append("by self:")
    for frame, n in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        rows.append(f"{100 * cumulative[frame] / total:6.1f} {100 * n / total:6.1f}  {frame}")
    return "\n".join(rows)


def server_python(args: argparse.Namespace, base: Path | None) -> str:
    """The interpreter a server runs on: this one for this checkout, and for a base
    ``--base-python``, else the base's own venv (``BASE/.venv``, made from its own
    setup.cfg: its default install) when it has one, else this one."""
    if base is None:
        return sys.executable
    if args.base_python is not None:
        return str(args.base_python)
    own = base / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


@functools.cache
def fast_parts(python: str) -> list[str]:
    """Which of uvloop and orjson ``python`` imports (what its server runs on)."""
    probe = (
        "import importlib.util as u; print(*[m for m in ('uvloop', 'orjson') if u.find_spec(m)])"
    )
    out = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True)
    return out.stdout.split()


def run_once(
    args: argparse.Namespace,
    server_args: list[str],
    store: str,
    base: Path | None = None,
    instances: int = 1,
) -> dict[str, Any]:
    """One run; with ``instances`` > 1 (a site), the CPU and memory figures are every
    instance's (CPU summed, memory the largest), the profile and threads the first's."""
    ports = [free_port() for _ in range(instances)]
    env = dict(os.environ)
    if base is not None:  # the base checkout's package, not this one's
        env["PYTHONPATH"] = os.pathsep.join([str(base), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    cwd = ROOT if base is None else base
    python = server_python(args, base)
    servers = []
    for port in ports:
        command = [python, "-m", "hundred_server", "serve", "--port", str(port)]
        command += ["--log-level", "WARNING", *server_args]
        # Every client comes from 127.0.0.1: the per-address limits would be the whole run's.
        room = str(max(1, args.clients))
        command += ["--max-per-address", room, "--max-tables-per-address", room]
        command += ["--max-waiting-per-address", room]
        # Room for every client whatever the server's default (a base may predate ours).
        command += ["--max-connections", str(args.clients + 16)]
        if base is None:
            command += args.server_arg
        servers.append(subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, env=env))
    server = servers[0]
    stats = Stats()
    try:
        for port in ports:
            asyncio.run(wait_for_port(port, time.monotonic() + 20))
        ready = [proc_cpu(each.pid) for each in servers]
        user_ready, sys_ready = sum(r[1] for r in ready), sum(r[2] for r in ready)
        samplers = start_profile(args, server.pid, store, base)
        client_start = time.process_time()
        seconds = asyncio.run(drive(ports, args, stats, lambda: servers_cpu(servers)))
        client_cpu = time.process_time() - client_start
        usage = [proc_cpu(each.pid) for each in servers]
        peak_mb = max(u[0] for u in usage)
        user, system = sum(u[1] for u in usage), sum(u[2] for u in usage)
        threads = thread_cpu(server.pid)
        cpu = user + system
        stop_profile(samplers)
    finally:
        for each in servers:
            each.send_signal(signal.SIGTERM)
        for each in servers:
            try:
                each.wait(10)
            except subprocess.TimeoutExpired:
                each.kill()
    lat = stats.latencies
    games_completed = stats.games // (args.clients // args.tables)
    games_expected = args.tables * args.games
    load_cpu = cpu - user_ready - sys_ready
    return {
        "store": store,
        "server": "this" if base is None else "base",
        "instances": instances,
        "clients": args.clients,
        "tables": args.tables,
        "server_args": server_args,
        "games_completed": games_completed,
        "games_expected": games_expected,
        "seconds": round(seconds, 2),
        "messages_received": stats.received,
        "messages_received_per_s": round(stats.received / seconds),
        "messages_sent_per_s": round(stats.sent / seconds),
        "latency_ms_p50": round(1000 * percentile(lat, 0.50), 2),
        "latency_ms_p99": round(1000 * percentile(lat, 0.99), 2),
        "latency_ms_max": round(1000 * max(lat, default=float("nan")), 2),
        "latency_samples": len(lat),
        "latency_ms_mean": round(1000 * statistics.fmean(lat), 2) if lat else None,
        "errors": stats.errors,
        "error_codes": stats.error_codes,
        "connection_failures": stats.failures,
        "server_peak_rss_mb": round(peak_mb, 1),
        "server_cpu_s": round(cpu, 2),
        "server_cpu_load_s": round(load_cpu, 2),
        "server_cpu_load_user_s": round(user - user_ready, 2),
        "server_cpu_load_sys_s": round(system - sys_ready, 2),
        "server_thread_cpu_s": {name: round(cpu, 2) for name, cpu in threads.items()},
        "answers": stats.answers,
        # Paced: from SETTLE s after the last join to the end, the answers meanwhile.
        "server_cpu_us_per_answer_steady": steady_us(stats, cpu),
        "server_cpu_us_per_answer": round(1e6 * load_cpu / stats.answers, 1)
        if stats.answers
        else None,
        # The generator's own CPU (this process): near a whole core, it is the
        # bottleneck and the latencies are partly its own.
        "client_cpu_s": round(client_cpu, 2),
        "client_cpu_us_per_answer": round(1e6 * client_cpu / stats.answers, 1)
        if stats.answers
        else None,
        "server_exit": server.returncode,
        "server_python": python,
        "server_fast_parts": fast_parts(python),
        "pace_s": args.pace,
        # Paced with --seconds, the run may end before the games do.
        "ok": (games_completed == games_expected or args.seconds is not None)
        and not stats.errors
        and not stats.failures,
    }


def run_site(args: argparse.Namespace) -> dict[str, Any]:
    """One run on a site of ``--instances`` servers: a PostgreSQL cluster and a Redis of
    its own (started as the tests start theirs, in temporary folders, removed after)."""
    sys.path.insert(0, str(ROOT))
    from tests.support.engines import start_cluster, start_redis

    cluster = start_cluster()
    try:
        redis = start_redis()
        try:
            url = cluster.url(cluster.create_database())
            site_args = ["--store", url, "--bus", redis.url]
            result = run_once(args, site_args, "site", instances=args.instances)
            result.update(site_traffic(url, redis.url, result["answers"], result["seconds"]))
        finally:
            redis.destroy()
    finally:
        cluster.destroy()
    result["server_args"] = ["--store", "postgresql://<tmp>", "--bus", "redis://<tmp>"]
    return result


def site_traffic(store_url: str, bus_url: str, answers: int, seconds: float) -> dict[str, Any]:
    """What the site's PostgreSQL and Redis carried over the run (read once the servers
    have stopped, so every session's statistics are in), in all and an answer: the
    figures docs/scaling.md works from."""
    import psycopg
    import redis

    with psycopg.connect(store_url, autocommit=True) as db:
        commits, inserted, updated = db.execute(
            "SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database"
            " WHERE datname = current_database()"
        ).fetchone() or (0, 0, 0)
    bus = redis.Redis.from_url(bus_url)
    try:
        stats = bus.info("commandstats")
    finally:
        bus.close()
    calls = {
        name.removeprefix("cmdstat_"): int(value["calls"])
        for name, value in stats.items()
        if isinstance(value, dict)
    }
    out: dict[str, Any] = {
        "pg_commits": commits,
        "pg_rows_inserted": inserted,
        "pg_rows_updated": updated,
        "redis_calls": calls,
    }
    if answers:
        per = {
            "pg_commits": commits,
            "pg_rows_inserted": inserted,
            "pg_rows_updated": updated,
            "redis_publish": calls.get("publish", 0),
        }
        out["per_answer"] = {key: round(n / answers, 3) for key, n in per.items()}
        out["answers_per_s"] = round(answers / seconds)
    return out


def run_store(args: argparse.Namespace, store: str, base: Path | None = None) -> dict[str, Any]:
    """One run with the store off (``--memory``) or on (a fresh db in a temporary dir),
    of this checkout's server or ``base``'s."""
    if store == "off":
        return run_once(args, ["--memory"], store, base)
    with tempfile.TemporaryDirectory(prefix="hundred-load-") as tmp:
        db = Path(tmp) / "load.db"
        result = run_once(args, ["--db", str(db)], store, base)
        result["store_kb"] = round(sum(f.stat().st_size for f in Path(tmp).iterdir()) / 1024)
        # What the store took an answer (for docs/scaling.md): record lines saved.
        with contextlib.closing(sqlite3.connect(db)) as saved:
            (lines,) = saved.execute("SELECT count(*) FROM moves").fetchone()
        result["store_lines"] = lines
        answers = result["answers"]
        result["store_lines_per_answer"] = round(lines / answers, 3) if answers else None
        result["messages_per_answer"] = (
            round(result["messages_received"] / answers, 2) if answers else None
        )
    result["server_args"] = ["--db", "<tmp>/load.db"]
    return result


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    def median(store: str, key: str) -> float:
        return float(statistics.median(r[key] for r in runs if r["store"] == store))

    off = median("off", "messages_received_per_s")
    on = median("on", "messages_received_per_s")
    cost = round((off - on) / off * 100, 1) if off else float("nan")
    return {
        "summary": True,
        "runs": len(runs),
        "messages_per_s_off": round(off),
        "messages_per_s_on": round(on),
        "store_cost_pct": cost,
        "store_cost_target_pct": STORE_COST_TARGET_PCT,
        "store_cost_ok": cost < STORE_COST_TARGET_PCT,
        "p99_ms_off": round(median("off", "latency_ms_p99"), 2),
        "p99_ms_on": round(median("on", "latency_ms_p99"), 2),
        "games_completed_all": all(r["games_completed"] == r["games_expected"] for r in runs),
        "errors_total": sum(r["errors"] for r in runs),
        "connection_failures_total": sum(r["connection_failures"] for r in runs),
        "all_ok": all(r["ok"] for r in runs),
    }


def compare(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per store, the medians of each server's runs and this one's ratio to the base's;
    for the CPU an answer also each pair's ratio (a base run and the run of this one
    after it), in order, and their median: the machine's speed drifts between pairs,
    and a pair's two runs see nearly the same machine."""
    cpu_keys = ["server_cpu_us_per_answer"]
    if all(r["server_cpu_us_per_answer_steady"] is not None for r in runs):  # paced
        cpu_keys.append("server_cpu_us_per_answer_steady")
    keys = ("latency_ms_p50", "latency_ms_p99", *cpu_keys)
    out: dict[str, Any] = {"compare": True, "runs": len(runs)}
    for store in sorted({r["store"] for r in runs}):
        for key in keys:
            medians = {}
            for server in ("base", "this"):
                values = [r[key] for r in runs if r["store"] == store and r["server"] == server]
                medians[server] = statistics.median(values)
                out[f"{store}_{server}_{key}"] = round(medians[server], 2)
            ratio = medians["this"] / medians["base"] if medians["base"] else float("nan")
            out[f"{store}_ratio_{key}"] = round(ratio, 3)
        for key in cpu_keys:
            base = [r[key] for r in runs if r["store"] == store and r["server"] == "base"]
            this = [r[key] for r in runs if r["store"] == store and r["server"] == "this"]
            pairs = [round(t / b, 3) for b, t in zip(base, this, strict=False) if b]
            out[f"{store}_pair_ratios_{key}"] = pairs
            out[f"{store}_pair_ratio_median_{key}"] = statistics.median(pairs) if pairs else None
    out["all_ok"] = all(r["ok"] for r in runs)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=400)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--games", type=int, default=1, help="games per table (default 1)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds at most")
    parser.add_argument("--seed", default="load")
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="unsaturated: every client answers each prompt after a delay drawn uniformly "
        "from 0.5 to 1.5 times SECONDS (default 0: at once, the server saturated); a run "
        "then ends after --seconds",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="end each run after this many seconds of play even if games go on "
        "(default 30 with --pace, else none: the games' end)",
    )
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        help="one more argument for this checkout's server (not the base's): "
        "--server-arg=--commit-wait=0",
    )
    parser.add_argument(
        "--base-python",
        type=Path,
        default=None,
        help="the interpreter of --base's server (default BASE/.venv/bin/python when it "
        "exists, that checkout's own default install, else this one)",
    )
    parser.add_argument(
        "--store",
        choices=["off", "on", "both"],
        default="both",
        help="off: serve --memory; on: serve --db on a fresh temporary file; "
        "both (default): alternate off and on",
    )
    parser.add_argument(
        "--reps", type=int, default=None, help="runs of each store (default 2 for both, else 1)"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="sample each server with py-spy: flame graphs and stacks in this directory",
    )
    parser.add_argument(
        "--base",
        type=Path,
        default=None,
        help="a checkout whose server runs alternately with this one's, for a side-by-side",
    )
    parser.add_argument(
        "--instances",
        type=int,
        default=1,
        help="servers (default 1); more: one site (serve --store postgresql://... --bus "
        "redis://..., both started here in temporary folders), the clients spread over them",
    )
    args = parser.parse_args()
    if args.pace < 0:
        parser.error("--pace must be at least 0")
    if args.pace and args.seconds is None:
        args.seconds = 30.0
    if args.instances > 1:
        print(json.dumps(run_site(args)), flush=True)
        return 0
    seats = args.clients // args.tables
    if args.clients % args.tables or not 2 <= seats <= 4:
        parser.error("clients must be 2, 3 or 4 times tables")
    reps = args.reps if args.reps is not None else (2 if args.store == "both" else 1)
    if reps < 1:
        parser.error("reps must be at least 1")
    stores = ["off", "on"] if args.store == "both" else [args.store]
    # The server runs in ROOT; it must never leave its default store there.
    strays = [Path.cwd() / "hundred.db", ROOT / "hundred.db"]
    before = {path for path in strays if path.exists()}
    runs = []
    servers: list[Path | None] = [None] if args.base is None else [args.base.resolve(), None]
    for _ in range(reps):
        for store in stores:
            for base in servers:
                runs.append(run_store(args, store, base))
                print(json.dumps(runs[-1]), flush=True)
    ours = [r for r in runs if r["server"] == "this"]
    if args.store == "both":
        print(json.dumps(summarize(ours)), flush=True)
    if args.base is not None:
        print(json.dumps(compare(runs)), flush=True)
    left = [str(path) for path in strays if path.exists() and path not in before]
    if left:
        print(f"load: the benchmark left a store behind: {', '.join(left)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
