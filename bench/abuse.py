"""Abuse benchmark (not a test): what a careless or hostile client costs a real server.

    make abuse                                  # every scenario, one after another
    python bench/abuse.py --cycles 200 --scenario churn --timeout 60
    python bench/abuse.py --server-arg=--rate --server-arg=50
    python bench/abuse.py --scenario chatfan --chat-seconds 5
    python bench/abuse.py --scenario pingflood-read --ping-seconds 10
    python bench/abuse.py --scenario halfopen --half-open 1000

Each scenario gets its own server process (``python -m hundred_server serve``) on a
free port of 127.0.0.1, with ``--db`` on a fresh file in a temporary directory (never
the working directory) and ``--log-level WARNING``, then whatever ``--server-arg`` adds
(repeat it, one word each; ``--server-arg=--rate`` for a word that starts with ``-``).
The server is stopped with SIGTERM at the end. Every loop is bounded in count and in
time: ``--timeout`` (default 300 s) is for the whole run.

**churn**: one client does ``--cycles`` cycles (default 1000), one after another, each
on a fresh TCP connection: connect, read the greeting, send
``{"Type":"Hello","Message":"create","Name":"churn"}`` and ``{"Type":"Game","Option":1}``
(three AI, the game starts at once) and hang up without waiting for the answer. Every
50th cycle instead reads the answer (until the first line after the ``Game`` prompt, 1 s
at most) before hanging up, to learn what the server says (Error codes are counted).
Meanwhile a lobby probe measures the round trip of ``{"Type":"Hello"}`` (the server
asks the lobby question again: a Message line, then ``{"Type":"Hello"}``, which stops the
clock) every 10 ms, during the churn and for 2 s after it. The server allows a
connection 20 such lines a second (``--rate``), so the probe takes turns over
``--probe-connections`` connections (default 6: one probe each 60 ms on each), strictly
in turn: a tick whose connection is still waiting for its answer is skipped (counted).
A probe that gets an Error (say ``rate_limited``), the end of the stream or no answer in
5 s is counted and its connection replaced; one with no answer counts as a 5000 ms
sample. Printed: cycles done, seconds, the probe's p50/p99/max, the server's VmRSS
before and after (churn plus 2 s) and VmHWM, the store's growth (db and -wal files;
and the -wal file's size at the end), the churn's Error codes and failed or
early-closed connections.

**flood**: a client creates a table with a one-hour turn clock (option 5, four seats,
three AI, ``Clock`` 3600), waits for its prompt with ``Legal`` (5 s at most), then sends
1 MiB of bare ``\\n`` in 64 KiB chunks as fast as the socket takes them, reading and
discarding whatever comes back all along; 1 s later the server's VmRSS is read again.
Then one line the server must answer (``{"Type":"Abuse"}``: ``unknown_type``, or
whatever it says) shows how long its backlog of blank lines took to clear. Printed:
VmRSS before/after, VmHWM before/after, the Error codes the flood drew, whether the
server closed the connection, the marker's answer (and VmRSS and VmHWM then), the
server's CPU seconds and the lobby probe meanwhile (from the flood to the marker's
answer). JSON mode only: the text mode's ``create`` has no turn clock.

**chatfan**: the lobby chat's fan-out (issue #27). ``--listeners`` connections (default
400) sit in the lobby and only read, counting the chat lines they are sent;
``--chatters`` more (default 32) each send ``{"Type":"Chat","Text":...}`` at the
server's allowed rate (20 lines a second, ``--rate``'s default) for ``--chat-seconds``
(default 15), counting their echoes and the ``chat_busy`` (and any other) Errors.
Meanwhile a seated player at a table against three naive AI with a one-hour turn clock
(option 5, ``Clock`` 3600) answers each of its prompts (50 ms after it comes, the first
of ``Legal``; a new table when a game ends) and times each answer's round trip to the
first line back, and the lobby probe (above) times ``Hello`` round trips; the probe's
connections are in the lobby and hear the chat too. Every chat line our clients
receive counts as delivered. The server gets ``--max-per-address 600`` first (all the
clients come from 127.0.0.1; a ``--server-arg`` may override it). Printed: the lines
delivered in all (and a second), the chatters' lines sent and echoed, their Error
codes, the table round trip's and the lobby probe's p50/p99/max, the server's CPU
seconds.

**pingflood** and **pingflood-read**: WebSocket ping floods (issue #27). One client on
the browser port (the server gets ``--http-port``), in a thread with plain sockets,
sends the largest pings (125 bytes of payload, so 125 bytes of pong each) 500 to a
write, as fast as its socket takes them, for ``--ping-seconds`` (default 40); each time
the server ends its connection it opens another. In pingflood it never reads (its
receive buffer is 4 KiB); in pingflood-read it reads everything, counting the pongs,
the Errors and the close frame that ends each connection. The lobby probe (above)
runs meanwhile on the main port, and the server's VmRSS is read every 0.5 s. Printed:
MB of pings sent, pongs read, connections and how each ended, the server's VmRSS
before, at its peak and after (and the growth: peak or after, less before), VmHWM's
growth, its CPU seconds and the probe's p50/p99/max.

**halfopen**: unfinished handshakes (issue #27). The server (with ``--http-port``)
gets a limit on open files of ``--half-open`` (default 2400) plus 8, soft and hard
(prlimit, once it is ready). A thread opens ``--half-open`` connections from
127.0.0.1 to the browser port, 50 connecting at once, each sending half a request
line (``GET /ws HT``) and then nothing, and holds them for ``--half-open-seconds``
(default 10), closing those the server closes. Once they are all open, ``--honest``
clients (default 24) connect one after another from 127.0.0.2, alternately to the
main port (the first line) and the browser port (the opening handshake, then the
first text frame), and each times its greeting (5 s at most). Printed: the attack's
connections, how many the server closed and how many were still held at the end, the
honest clients greeted and the p50/max of their greeting times, and why any got none.

A last line sums up against the targets: churn probe p99 < 100 ms and max < 500 ms,
store growth < 2 MB, RSS growth < 30 MB; flood RSS growth < 5 MB; chatfan at most
1,000,000 lines delivered, and no table or lobby round trip of 100 ms or more;
pingflood and pingflood-read RSS growth < 50 MB and probe p99 < 100 ms; halfopen every
honest client greeted, within 1 s. Exit status 0 when
the run completed (whether or not the targets are met), 2 when a server could not be
started or the run timed out. Standard library only.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import resource
import select
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024

# Targets (the summary's pass/fail).
PROBE_P99_MS = 100.0
PROBE_MAX_MS = 500.0
STORE_GROWTH_MB = 2.0
CHURN_RSS_MB = 30.0
FLOOD_RSS_MB = 5.0
CHATFAN_LINES = 1_000_000
CHATFAN_RTT_MS = 100.0
PING_RSS_MB = 50.0
#: The halfopen server's limit on open files: this many above --half-open (its own,
#: its listeners, store and event loop's, take about 20 of them).
HALF_OPEN_SPARE_FILES = 8

START_TIMEOUT = 20.0  # seconds for a server to accept connections
STOP_TIMEOUT = 10.0  # seconds for it to stop after SIGTERM, else it is killed
PROBE_INTERVAL = 0.010
PROBE_TIMEOUT = 5.0
PROBE_AFTER = 2.0  # seconds the probe goes on after the churn
CYCLE_TIMEOUT = 5.0  # socket timeout of one churn cycle (connect, greeting)
ANSWER_TIMEOUT = 1.0  # reading a sampled churn answer
ANSWER_EVERY = 50
FLOOD_BYTES = 1 * MB
FLOOD_CHUNK = 64 * 1024
LEGAL_TIMEOUT = 5.0
MARKER_TIMEOUT = 30.0

HELLO = b'{"Type":"Hello"}\n'
CHURN_LINES = b'{"Type":"Hello","Message":"create","Name":"churn"}\n{"Type":"Game","Option":1}\n'
FLOOD_LINES = (
    b'{"Type":"Hello","Message":"create","Name":"flood"}\n'
    b'{"Type":"Game","Option":5,"Seats":4,"Bots":3,"Clock":3600}\n'
)
MARKER = b'{"Type":"Abuse"}\n'
CHAT_RATE = 20.0  # lines a second a chatter sends: the server's default --rate
CONNECT_BATCH = 50  # connections opened at once (the listen backlog is 100)
PLAYER_PAUSE = 0.05  # seconds the seated player waits before it answers
#: Options for the server of a scenario, before ``--server-arg``'s (which may override).
SCENARIO_SERVER_ARGS: dict[str, list[str]] = {"chatfan": ["--max-per-address", "600"]}
PLAYER_LINES = (
    b'{"Type":"Hello","Message":"create","Name":"seated"}\n'
    b'{"Type":"Game","Option":5,"Seats":4,"Bots":3,"Clock":3600,"AI":"naive"}\n'
)
#: What answers a prompt of each kind, from its Legal (the first of it).
ANSWER_FIELD = {"Bid": "Bid", "Trump": "Trump", "Discard": "Cards"}


def log(text: str) -> None:
    print(f"abuse: {text}", file=sys.stderr, flush=True)


def parse(line: bytes) -> dict[str, Any]:
    """A line from the server as a dict ({} if it is not a JSON object)."""
    try:
        msg = json.loads(line)
    except ValueError:
        return {}
    return msg if isinstance(msg, dict) else {}


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(1000 * seconds, 2)


def mb(n_bytes: int | None) -> float | None:
    return None if n_bytes is None else round(n_bytes / MB, 2)


def diff(after: int | None, before: int | None) -> int | None:
    return None if after is None or before is None else after - before


# ------------------------------------------------------------------ the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def memory(pid: int) -> dict[str, int | None]:
    """VmRSS and VmHWM of a process, in bytes (None once it is gone)."""
    found: dict[str, int | None] = {"VmRSS": None, "VmHWM": None}
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                key = line.split(":", 1)[0]
                if key in found:
                    found[key] = int(line.split()[1]) * 1024
    except OSError:
        pass
    return found


def cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def store_size(db: Path, wal: bool = True) -> int:
    """Bytes of the store: the db file and (if ``wal``) its -wal file."""
    total = 0
    for path in (db, db.with_name(db.name + "-wal"))[: 2 if wal else 1]:
        with contextlib.suppress(OSError):
            total += path.stat().st_size
    return total


class ServerError(Exception):
    """The server could not be started."""


class Server:
    """``python -m hundred_server serve`` on a free port, its store in ``tmp``."""

    def __init__(self, tmp: Path, extra: list[str], web: bool = False) -> None:
        """``web``: the browser port too (``http_port``)."""
        self.port = free_port()
        self.http_port = free_port() if web else None
        self.db = tmp / "abuse.db"
        self.log_path = tmp / "server.log"
        command = [sys.executable, "-m", "hundred_server", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--db", str(self.db), "--log-level", "WARNING"]
        if self.http_port is not None:
            command += ["--http-port", str(self.http_port)]
        command += extra
        self.command = command
        with open(self.log_path, "wb") as log_file:
            self.process = subprocess.Popen(
                command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log_file
            )
        self.pid = self.process.pid

    def limit_files(self, limit: int) -> None:
        """Set its limit on open files (soft and hard) to ``limit``."""
        resource.prlimit(self.pid, resource.RLIMIT_NOFILE, (limit, limit))

    def wait_ready(self, deadline: float) -> None:
        end = min(deadline, time.monotonic() + START_TIMEOUT)
        while True:
            if self.process.poll() is not None:
                raise ServerError(f"the server exited with {self.process.returncode}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if time.monotonic() > end:
                    raise ServerError("the server never accepted a connection") from None
                time.sleep(0.05)

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> int | None:
        """SIGTERM, then its exit status (killed after STOP_TIMEOUT; None then)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def log_tail(self, lines: int = 15) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


# ------------------------------------------------------------------ the lobby probe


@dataclass
class _ProbeConn:
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    busy: bool = False
    broken: bool = True  # no connection yet


@dataclass
class Probe:
    """Round trips of ``{"Type":"Hello"}`` every ``interval``, over ``conns``
    connections strictly in turn."""

    port: int
    conns: int
    interval: float = PROBE_INTERVAL
    samples: list[float] = field(default_factory=list)
    error_codes: Counter[str] = field(default_factory=Counter)
    timeouts: int = 0
    closed: int = 0
    connects: int = 0
    connect_failures: int = 0
    skipped: int = 0
    _links: list[_ProbeConn] = field(default_factory=list)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _stop: asyncio.Event = field(default_factory=asyncio.Event)

    async def start(self) -> None:
        self._links = [_ProbeConn() for _ in range(self.conns)]
        await asyncio.gather(*(self._connect(link) for link in self._links))

    async def _connect(self, link: _ProbeConn) -> None:
        link.busy = True
        self._close(link)
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                link.reader, link.writer = await asyncio.open_connection("127.0.0.1", self.port)
                self.connects += 1
                while True:  # the greeting: a Message, then Hello
                    msg = parse(await link.reader.readline() or b'{"Type":"EOF"}')
                    kind = msg.get("Type")
                    if kind == "Hello":
                        link.broken = False
                        return
                    if kind == "Error":
                        self.error_codes[str(msg.get("Code"))] += 1
                        return
                    if kind == "EOF":
                        self.closed += 1
                        return
        except (TimeoutError, OSError):
            self.connect_failures += 1
        finally:
            link.busy = False

    @staticmethod
    def _close(link: _ProbeConn) -> None:
        if link.writer is not None:
            link.writer.close()
        link.reader = link.writer = None
        link.broken = True

    async def _probe(self, link: _ProbeConn) -> None:
        assert link.reader is not None
        assert link.writer is not None
        link.busy = True
        start = time.perf_counter()
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                link.writer.write(HELLO)
                await link.writer.drain()
                while True:
                    line = await link.reader.readline()
                    if not line:
                        self.closed += 1
                        self._close(link)
                        return
                    msg = parse(line)
                    if msg.get("Type") == "Hello":
                        self.samples.append(time.perf_counter() - start)
                        return
                    if msg.get("Type") == "Error":
                        # rate_limited: that line was not read, no Hello follows.
                        self.error_codes[str(msg.get("Code"))] += 1
                        self._close(link)
                        return
        except TimeoutError:
            self.timeouts += 1
            self.samples.append(PROBE_TIMEOUT)
            self._close(link)
        except OSError:
            self.closed += 1
            self._close(link)
        finally:
            link.busy = False

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def run(self) -> None:
        """Probe until ``stop``; a tick whose connection is busy is skipped."""
        loop = asyncio.get_running_loop()
        tick, turn = loop.time(), 0
        while not self._stop.is_set():
            link = self._links[turn % self.conns]
            turn += 1
            if link.busy:
                self.skipped += 1
            elif link.broken:
                self._spawn(self._connect(link))
                self.skipped += 1
            else:
                self._spawn(self._probe(link))
            tick += self.interval
            now = loop.time()
            if tick < now - self.interval:  # we fell behind (the client itself stalled)
                missed = int((now - tick) / self.interval)
                self.skipped += missed
                tick += missed * self.interval
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, tick - loop.time())):
                    await self._stop.wait()

    async def stop(self) -> None:
        self._stop.set()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=PROBE_TIMEOUT + 1)
        for link in self._links:
            self._close(link)

    def report(self) -> dict[str, Any]:
        s = self.samples
        return {
            "probe_connections": self.conns,
            "probe_interval_ms": ms(self.interval),
            "probe_samples": len(s),
            "probe_ms_p50": ms(percentile(s, 0.50)),
            "probe_ms_p99": ms(percentile(s, 0.99)),
            "probe_ms_max": ms(max(s, default=None)),
            "probe_timeouts": self.timeouts,
            "probe_error_codes": dict(self.error_codes),
            "probe_closed": self.closed,
            "probe_connect_failures": self.connect_failures,
            "probe_reconnects": max(0, self.connects - self.conns),
            "probe_skipped_ticks": self.skipped,
        }


# ------------------------------------------------------------------ churn


@dataclass
class ChurnStats:
    cycles: int = 0
    sent: int = 0  # cycles that sent both lines
    connect_failures: int = 0
    refused: int = 0  # an Error instead of the greeting
    closed_early: int = 0  # the stream ended before we hung up
    timeouts: int = 0
    answers_read: int = 0
    answer_types: Counter[str] = field(default_factory=Counter)
    error_codes: Counter[str] = field(default_factory=Counter)


def _read_json_line(stream: Any) -> dict[str, Any] | None:
    """One line from a socket file; None at the end of the stream."""
    line = stream.readline()
    if not line:
        return None
    return parse(line) or {"Type": "?"}


def churn_cycle(port: int, read_answer: bool, stats: ChurnStats) -> None:
    """Connect, read the greeting, send create + option 1, hang up (after reading the
    answer if ``read_answer``)."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=CYCLE_TIMEOUT)
    except OSError:
        stats.connect_failures += 1
        return
    with sock, sock.makefile("rb") as stream:
        try:
            while True:  # the greeting
                msg = _read_json_line(stream)
                if msg is None:
                    stats.closed_early += 1
                    return
                if msg.get("Type") == "Error":
                    stats.refused += 1
                    stats.error_codes[str(msg.get("Code"))] += 1
                    return
                if msg.get("Type") == "Hello":
                    break
            sock.sendall(CHURN_LINES)
            stats.sent += 1
            if read_answer:
                _read_answer(sock, stream, stats)
        except TimeoutError:
            stats.timeouts += 1
        except OSError:
            stats.closed_early += 1


def _read_answer(sock: socket.socket, stream: Any, stats: ChurnStats) -> None:
    """Lines until the first one after the ``Game`` prompt (ANSWER_TIMEOUT at most)."""
    end = time.monotonic() + ANSWER_TIMEOUT
    prompted = False
    while True:
        left = end - time.monotonic()
        if left <= 0:
            stats.answer_types["(none in 1 s)"] += 1
            return
        sock.settimeout(left)
        try:
            msg = _read_json_line(stream)
        except TimeoutError:
            stats.answer_types["(none in 1 s)"] += 1
            return
        if msg is None:
            stats.closed_early += 1
            stats.answer_types["(closed)"] += 1
            return
        kind = str(msg.get("Type"))
        if kind == "Error":
            stats.error_codes[str(msg.get("Code"))] += 1
        if prompted:
            stats.answers_read += 1
            stats.answer_types[kind if kind != "Error" else f"Error {msg.get('Code')}"] += 1
            return
        if kind == "Game":
            prompted = True


def churn(
    port: int, cycles: int, deadline: float, stop: threading.Event, stats: ChurnStats
) -> None:
    """The churning client (run in a thread: blocking sockets, one after another)."""
    start = time.monotonic()
    for i in range(cycles):
        if stop.is_set() or time.monotonic() > deadline:
            return
        churn_cycle(port, i % ANSWER_EVERY == 0, stats)
        stats.cycles += 1
        if stats.cycles % 100 == 0:
            log(f"churn: {stats.cycles}/{cycles} cycles, {time.monotonic() - start:.1f} s")


async def _churn(
    server: Server,
    args: argparse.Namespace,
    deadline: float,
    result: dict[str, Any],
    probe: Probe,
) -> None:
    await probe.start()
    mem0, cpu0, store0 = memory(server.pid), cpu_seconds(server.pid), store_size(server.db)
    result.update(rss_before_mb=mb(mem0["VmRSS"]), store_before_mb=mb(store0))
    stats = ChurnStats()
    stop = threading.Event()
    probing = asyncio.create_task(probe.run())
    began = time.perf_counter()
    try:
        await asyncio.to_thread(churn, server.port, args.cycles, deadline, stop, stats)
    finally:
        stop.set()
        seconds = time.perf_counter() - began
        result.update(
            cycles=stats.cycles,
            cycles_asked=args.cycles,
            seconds=round(seconds, 2),
            cycles_per_s=round(stats.cycles / seconds, 1) if seconds else None,
            cycles_sent=stats.sent,
            connect_failures=stats.connect_failures,
            refused_at_greeting=stats.refused,
            closed_early=stats.closed_early,
            cycle_timeouts=stats.timeouts,
            answers_read=stats.answers_read,
            answer_types=dict(stats.answer_types),
            error_codes=dict(stats.error_codes),
        )
    await asyncio.sleep(PROBE_AFTER)
    await probe.stop()
    await probing
    mem1, cpu1, store1 = memory(server.pid), cpu_seconds(server.pid), store_size(server.db)
    result.update(
        rss_after_mb=mb(mem1["VmRSS"]),
        rss_delta_mb=mb(diff(mem1["VmRSS"], mem0["VmRSS"])),
        hwm_mb=mb(mem1["VmHWM"]),
        store_after_mb=mb(store1),
        store_growth_mb=mb(store1 - store0),
        wal_after_mb=mb(store1 - store_size(server.db, wal=False)),
        server_cpu_s=round(cpu1 - cpu0, 2) if cpu0 is not None and cpu1 is not None else None,
        server_alive=server.alive(),
    )


# ------------------------------------------------------------------ flood


@dataclass
class FloodReader:
    """Reads and discards what the server sends the flooder, counting Errors."""

    reader: asyncio.StreamReader
    lines: int = 0
    error_codes: Counter[str] = field(default_factory=Counter)
    errors: list[tuple[float, str]] = field(default_factory=list)
    closed_at: float | None = None
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self) -> None:
        try:
            while True:
                line = await self.reader.readline()
                if not line:
                    break
                self.lines += 1
                msg = parse(line)
                if msg.get("Type") == "Error":
                    code = str(msg.get("Code"))
                    self.error_codes[code] += 1
                    self.errors.append((time.perf_counter(), code))
                    self.arrived.set()
        except (OSError, ValueError, asyncio.LimitOverrunError):
            pass
        self.closed_at = time.perf_counter()
        self.arrived.set()


async def _until_legal(reader: asyncio.StreamReader, codes: Counter[str]) -> bool:
    """Read until a prompt with ``Legal`` (False: the stream ended or LEGAL_TIMEOUT)."""
    try:
        async with asyncio.timeout(LEGAL_TIMEOUT):
            while True:
                line = await reader.readline()
                if not line:
                    return False
                msg = parse(line)
                if msg.get("Type") == "Error":
                    codes[str(msg.get("Code"))] += 1
                if "Legal" in msg:
                    return True
    except (TimeoutError, OSError):
        return False


async def _flood(
    server: Server,
    args: argparse.Namespace,
    deadline: float,
    result: dict[str, Any],
    probe: Probe,
) -> None:
    setup_codes: Counter[str] = Counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(FLOOD_LINES)
    await writer.drain()
    result["prompt_seen"] = await _until_legal(reader, setup_codes)
    result["setup_error_codes"] = dict(setup_codes)
    await probe.start()
    mem0, cpu0 = memory(server.pid), cpu_seconds(server.pid)
    result.update(rss_before_mb=mb(mem0["VmRSS"]), hwm_before_mb=mb(mem0["VmHWM"]))
    flood = FloodReader(reader)
    reading = asyncio.create_task(flood.run())
    probing = asyncio.create_task(probe.run())
    chunk = b"\n" * FLOOD_CHUNK
    sent, write_error = 0, None
    began = time.perf_counter()
    try:
        while sent < FLOOD_BYTES and flood.closed_at is None:
            writer.write(chunk)
            await writer.drain()
            sent += len(chunk)
    except OSError as exc:
        write_error = type(exc).__name__
    send_s = time.perf_counter() - began
    log(f"flood: {sent} bytes sent in {send_s:.2f} s")
    await asyncio.sleep(1.0)
    mem1 = memory(server.pid)
    result.update(
        bytes_sent=sent,
        send_s=round(send_s, 2),
        write_error=write_error,
        rss_after_mb=mb(mem1["VmRSS"]),
        rss_delta_mb=mb(diff(mem1["VmRSS"], mem0["VmRSS"])),
        hwm_after_mb=mb(mem1["VmHWM"]),
        hwm_delta_mb=mb(diff(mem1["VmHWM"], mem0["VmHWM"])),
        error_codes=dict(flood.error_codes),
    )
    # How long until the server reads a line sent after the flood.
    marker_code, marker_ms = None, None
    if flood.closed_at is None and write_error is None:
        seen = len(flood.errors)
        sent_at = time.perf_counter()
        try:
            writer.write(MARKER)
            await writer.drain()
            end = min(deadline, time.monotonic() + MARKER_TIMEOUT)
            while len(flood.errors) == seen and flood.closed_at is None:
                flood.arrived.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.0, end - time.monotonic())):
                        await flood.arrived.wait()
                if time.monotonic() >= end:
                    break
        except OSError as exc:
            write_error = write_error or type(exc).__name__
        if len(flood.errors) > seen:
            at, marker_code = flood.errors[seen]
            marker_ms = ms(at - sent_at)
    mem2 = memory(server.pid)
    await probe.stop()
    await probing
    cpu1 = cpu_seconds(server.pid)
    server_closed = flood.closed_at is not None
    writer.close()
    reading.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reading
    result.update(
        lines_received=flood.lines,
        server_closed=server_closed,
        closed_after_s=round(flood.closed_at - began, 2)
        if server_closed and flood.closed_at is not None
        else None,
        marker_answer=marker_code,
        marker_ms=marker_ms,
        rss_after_marker_mb=mb(mem2["VmRSS"]),
        hwm_after_marker_mb=mb(mem2["VmHWM"]),
    )
    result.update(
        server_cpu_s=round(cpu1 - cpu0, 2) if cpu0 is not None and cpu1 is not None else None,
        server_alive=server.alive(),
    )


# ------------------------------------------------------------------ chatfan


@dataclass
class ChatStats:
    delivered: int = 0  # chat lines received by every client of ours
    sent: int = 0
    echoed: int = 0
    error_codes: Counter[str] = field(default_factory=Counter)
    closed: int = 0
    table_samples: list[float] = field(default_factory=list)
    table_error_codes: Counter[str] = field(default_factory=Counter)
    games: int = 0


async def _open_lobby(port: int, count: int) -> list[tuple[asyncio.StreamReader, Any]]:
    """``count`` connections past the greeting (its Hello), ``CONNECT_BATCH`` at once."""

    async def one() -> tuple[asyncio.StreamReader, Any]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        async with asyncio.timeout(PROBE_TIMEOUT):
            while parse(await reader.readline() or b'{"Type":"Hello"}').get("Type") != "Hello":
                pass
        return reader, writer

    links = []
    for start in range(0, count, CONNECT_BATCH):
        links += await asyncio.gather(*(one() for _ in range(min(CONNECT_BATCH, count - start))))
    return links


async def _listen(reader: asyncio.StreamReader, stats: ChatStats, stop: asyncio.Event) -> None:
    """Read until the stream ends or ``stop``, counting the chat lines."""
    while not stop.is_set():
        try:
            data = await reader.read(64 * 1024)
        except OSError:
            data = b""
        if not data:
            stats.closed += 1
            return
        stats.delivered += data.count(b'"Type":"Chat"')


async def _chatter(
    number: int, link: tuple[asyncio.StreamReader, Any], stats: ChatStats, end: float
) -> None:
    """Chat at ``CHAT_RATE`` until ``end``, then read what is still coming for 1 s."""
    reader, writer = link

    async def read() -> None:
        with contextlib.suppress(OSError):
            while line := await reader.readline():
                msg = parse(line)
                kind = msg.get("Type")
                if kind == "Chat":
                    stats.delivered += 1
                    stats.echoed += msg.get("From") == f"chatter{number}"
                elif kind == "Error":
                    stats.error_codes[str(msg.get("Code"))] += 1
        stats.closed += 1

    writer.write(f'{{"Type":"Hello","Name":"chatter{number}"}}\n'.encode())
    reading = asyncio.create_task(read())
    loop = asyncio.get_running_loop()
    tick, n = loop.time(), 0
    while loop.time() < end and not reading.done():
        n += 1
        writer.write(f'{{"Type":"Chat","Text":"line {n} of chatter {number}"}}\n'.encode())
        stats.sent += 1
        tick += 1 / CHAT_RATE
        await asyncio.sleep(max(0.0, tick - loop.time()))
    await asyncio.sleep(1.0)
    writer.close()
    reading.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reading


def _answer_of(prompt: dict[str, Any]) -> bytes:
    kind, legal = prompt["Type"], prompt["Legal"]
    answer: dict[str, Any] = {"Type": kind, "Playerid": prompt["Playerid"], "Seq": prompt["Seq"]}
    if kind == "Discard":
        answer["Cards"] = []
    else:
        answer[ANSWER_FIELD.get(kind, "PlayedCard")] = legal[0]
    return json.dumps(answer).encode() + b"\n"


async def _seated(port: int, stats: ChatStats, end: float) -> None:
    """A person at a table against naive AI: each answer's round trip to the first line
    back, until ``end``; a new table when a game is over."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(PLAYER_LINES)
    loop = asyncio.get_running_loop()
    seat, sent_at = None, None
    try:
        while loop.time() < end:
            async with asyncio.timeout(max(0.1, end - loop.time())):
                line = await reader.readline()
            if not line:
                return
            if sent_at is not None:
                stats.table_samples.append(time.perf_counter() - sent_at)
                sent_at = None
            msg = parse(line)
            kind = msg.get("Type")
            if kind == "Seat":
                seat = msg.get("Playerid")
            elif kind == "Error":
                stats.table_error_codes[str(msg.get("Code"))] += 1
            elif kind == "GameOver" or (kind == "Hello" and seat is not None):
                stats.games += kind == "GameOver"
                if kind == "Hello":  # back at the lobby question: a new table
                    seat = None
                    writer.write(PLAYER_LINES)
            elif "Legal" in msg and msg.get("Playerid") == seat:
                await asyncio.sleep(PLAYER_PAUSE)
                writer.write(_answer_of(msg))
                sent_at = time.perf_counter()
    except TimeoutError:
        pass
    finally:
        writer.close()


async def _chatfan(
    server: Server,
    args: argparse.Namespace,
    deadline: float,
    result: dict[str, Any],
    probe: Probe,
) -> None:
    stats = ChatStats()
    listeners = await _open_lobby(server.port, args.listeners)
    chatters = await _open_lobby(server.port, args.chatters)
    log(f"chatfan: {len(listeners)} listeners and {len(chatters)} chatters connected")
    await probe.start()
    stop = asyncio.Event()
    listening = [asyncio.create_task(_listen(r, stats, stop)) for r, _ in listeners]
    cpu0 = cpu_seconds(server.pid)
    loop = asyncio.get_running_loop()
    end = min(loop.time() + args.chat_seconds, loop.time() + deadline - time.monotonic() - 5)
    probing = asyncio.create_task(probe.run())
    began = time.perf_counter()
    try:
        await asyncio.gather(
            _seated(server.port, stats, end),
            *(_chatter(i, link, stats, end) for i, link in enumerate(chatters)),
        )
    finally:
        seconds = time.perf_counter() - began
        await probe.stop()
        await probing
        stop.set()
        for _, writer in listeners:
            writer.close()
        for task in listening:
            task.cancel()
        await asyncio.gather(*listening, return_exceptions=True)
        cpu1 = cpu_seconds(server.pid)
        t = stats.table_samples
        result.update(
            listeners=len(listeners),
            chatters=len(chatters),
            seconds=round(seconds, 2),
            lines_delivered=stats.delivered,
            lines_delivered_per_s=round(stats.delivered / seconds) if seconds else None,
            chat_sent=stats.sent,
            chat_echoed=stats.echoed,
            chat_error_codes=dict(stats.error_codes),
            connections_closed=stats.closed,
            table_samples=len(t),
            table_ms_p50=ms(percentile(t, 0.50)),
            table_ms_p99=ms(percentile(t, 0.99)),
            table_ms_max=ms(max(t, default=None)),
            table_error_codes=dict(stats.table_error_codes),
            table_games_over=stats.games,
            server_cpu_s=round(cpu1 - cpu0, 2) if cpu0 is not None and cpu1 is not None else None,
            server_alive=server.alive(),
        )


# ------------------------------------------------------------------ a WebSocket client

#: The opening handshake's key (any 16 bytes, base64) and a client frame's mask (any
#: four bytes: zero leaves the payload as it is).
WS_KEY = base64.b64encode(b"hundred-abuse-ws").decode()
WS_MASK = b"\0\0\0\0"
OP_TEXT, OP_CLOSE, OP_PING, OP_PONG = 0x1, 0x8, 0x9, 0xA


def ws_frame(opcode: int, payload: bytes) -> bytes:
    """A client's frame (final, masked) of at most 125 bytes of payload."""
    assert len(payload) < 126
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + WS_MASK + payload


#: The largest ping (125 bytes of payload: 125 bytes of pong back), 500 to a write.
PINGS = ws_frame(OP_PING, b"p" * 125) * 500


def ws_request(port: int) -> bytes:
    return (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {WS_KEY}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def ws_frames(buffer: bytearray) -> list[tuple[int, bytes]]:
    """The whole server frames (unmasked) at the start of ``buffer``, taken from it."""
    frames = []
    while len(buffer) >= 2:
        length, start = buffer[1] & 0x7F, 2
        if length == 126:
            if len(buffer) < 4:
                break
            length, start = int.from_bytes(buffer[2:4], "big"), 4
        elif length == 127:
            if len(buffer) < 10:
                break
            length, start = int.from_bytes(buffer[2:10], "big"), 10
        if len(buffer) < start + length:
            break
        frames.append((buffer[0] & 0x0F, bytes(buffer[start : start + length])))
        del buffer[: start + length]
    return frames


def ws_open(port: int, rcvbuf: int | None = None) -> tuple[socket.socket, bytearray]:
    """A blocking WebSocket connection past its opening handshake; what came after the
    response's head. OSError if the server refused or closed it."""
    sock = socket.socket()
    try:
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.settimeout(PROBE_TIMEOUT)
        sock.connect(("127.0.0.1", port))
        sock.sendall(ws_request(port))
        head = bytearray()
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                raise ConnectionResetError("closed in the handshake")
            head += chunk
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionRefusedError(bytes(head.split(b"\r\n", 1)[0]).decode())
        return sock, bytearray(head.split(b"\r\n\r\n", 1)[1])
    except BaseException:
        sock.close()
        raise


# ------------------------------------------------------------------ pingflood


@dataclass
class PingStats:
    connections: int = 0  # opened past the handshake
    refused: int = 0  # the handshake failed (a limit, a reset)
    bytes_sent: int = 0
    pongs: int = 0
    closes: Counter[str] = field(default_factory=Counter)  # how each connection ended
    error_codes: Counter[str] = field(default_factory=Counter)
    rss_samples: list[int] = field(default_factory=list)


def _ping_connection(port: int, reading: bool, end: float, stats: PingStats) -> None:
    """One connection's flood: pings as fast as the socket takes them until ``end`` or
    the server ends it (and, ``reading``, everything it sends read and counted)."""
    try:
        sock, buffer = ws_open(port, rcvbuf=None if reading else 4096)
    except OSError:
        stats.refused += 1
        time.sleep(0.01)
        return
    stats.connections += 1
    sock.setblocking(False)
    pending = memoryview(PINGS)
    how = "still open at the end"
    try:
        while time.monotonic() < end:
            readable, writable, _ = select.select([sock] if reading else [], [sock], [], 0.2)
            if readable:
                data = sock.recv(256 * 1024)
                if not data:
                    how = "closed without a close frame"
                    return
                buffer += data
                for opcode, payload in ws_frames(buffer):
                    if opcode == OP_PONG:
                        stats.pongs += 1
                    elif opcode == OP_TEXT:
                        msg = parse(payload)
                        if msg.get("Type") == "Error":
                            stats.error_codes[str(msg.get("Code"))] += 1
                    elif opcode == OP_CLOSE:
                        code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
                        how = f"close frame {code} {payload[2:].decode(errors='replace')}"
                        return
            if writable:
                sent = sock.send(pending)
                stats.bytes_sent += sent
                pending = pending[sent:] or memoryview(PINGS)
    except OSError as exc:
        how = f"{type(exc).__name__}"
    finally:
        stats.closes[how] += 1
        sock.close()


def _ping_flood(port: int, reading: bool, end: float, stats: PingStats) -> None:
    """One client's flood, again on a new connection each time the server ends one."""
    while time.monotonic() < end:
        _ping_connection(port, reading, end, stats)


async def _pingflood(
    server: Server,
    args: argparse.Namespace,
    deadline: float,
    result: dict[str, Any],
    probe: Probe,
    reading: bool = False,
) -> None:
    assert server.http_port is not None
    stats = PingStats()
    await probe.start()
    before = memory(server.pid)
    cpu0 = cpu_seconds(server.pid)
    seconds = max(1.0, min(args.ping_seconds, deadline - time.monotonic() - 10))
    end = time.monotonic() + seconds
    flood = threading.Thread(
        target=_ping_flood, args=(server.http_port, reading, end, stats), daemon=True
    )
    probing = asyncio.create_task(probe.run())
    log(f"ping flood for {seconds:g} s, {'reading' if reading else 'never reading'}")
    flood.start()
    try:
        while flood.is_alive():
            rss = memory(server.pid)["VmRSS"]
            if rss is not None:
                stats.rss_samples.append(rss)
            await asyncio.sleep(0.5)
        await asyncio.sleep(1.0)
    finally:
        await probe.stop()
        await probing
        flood.join(PROBE_TIMEOUT)
        after = memory(server.pid)
        cpu1 = cpu_seconds(server.pid)
        peak = max(stats.rss_samples, default=None)
        result.update(
            reading=reading,
            seconds=round(seconds, 1),
            ping_mb_sent=mb(stats.bytes_sent),
            pongs_read=stats.pongs,
            connections=stats.connections,
            handshakes_failed=stats.refused,
            how_connections_ended=dict(stats.closes),
            error_codes=dict(stats.error_codes),
            rss_before_mb=mb(before["VmRSS"]),
            rss_peak_mb=mb(peak),
            rss_after_mb=mb(after["VmRSS"]),
            rss_growth_mb=mb(diff(max(peak or 0, after["VmRSS"] or 0), before["VmRSS"])),
            hwm_delta_mb=mb(diff(after["VmHWM"], before["VmHWM"])),
            server_cpu_s=round(cpu1 - cpu0, 2) if cpu0 is not None and cpu1 is not None else None,
            server_alive=server.alive(),
        )


async def _pingflood_read(
    server: Server,
    args: argparse.Namespace,
    deadline: float,
    result: dict[str, Any],
    probe: Probe,
) -> None:
    await _pingflood(server, args, deadline, result, probe, reading=True)


# ------------------------------------------------------------------ halfopen

HALF_REQUEST = b"GET /ws HT"  # half a request line, and then nothing
HONEST_TIMEOUT = 5.0


@dataclass
class HalfOpenStats:
    attempts: int = 0
    connect_failures: int = 0
    closed_by_server: int = 0
    held: int = 0
    greet_ms: list[float] = field(default_factory=list)
    not_greeted: Counter[str] = field(default_factory=Counter)
    opened: threading.Event = field(default_factory=threading.Event)  # all tried once


def _half_open_attack(port: int, count: int, end: float, stats: HalfOpenStats) -> None:
    """Open ``count`` connections from 127.0.0.1 that each send half a request line and
    then nothing (``CONNECT_BATCH`` connecting at once, non-blocking: a full listen
    queue costs a SYN retry of 1 s), and hold them until ``end``; those the server
    closes are closed here too. (A selector, not select(): thousands of sockets.)"""
    connecting: dict[socket.socket, float] = {}
    held = selectors.DefaultSelector()
    try:
        while time.monotonic() < end:
            while len(connecting) < CONNECT_BATCH and stats.attempts < count:
                sock = socket.socket()
                sock.setblocking(False)
                stats.attempts += 1
                sock.connect_ex(("127.0.0.1", port))
                connecting[sock] = time.monotonic()
            if stats.attempts >= count and not connecting:
                stats.opened.set()
            wait = 0.2 if stats.opened.is_set() else 0.001
            for key, _ in held.select(wait):  # readable: closed by the server (EOF, reset)
                stats.closed_by_server += 1
                held.unregister(key.fileobj)
                key.fileobj.close()  # type: ignore[union-attr]
            for sock, began in list(connecting.items()):
                error = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                try:
                    sock.getpeername()  # connected
                except OSError:
                    if not error and time.monotonic() - began < CYCLE_TIMEOUT:
                        continue  # still connecting
                    error = error or 1
                del connecting[sock]
                try:
                    if error:
                        raise ConnectionRefusedError
                    sock.send(HALF_REQUEST)
                except OSError:
                    stats.connect_failures += 1
                    sock.close()
                    continue
                held.register(sock, selectors.EVENT_READ)
    finally:
        stats.opened.set()
        stats.held = len(held.get_map())
        for key in list(held.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        held.close()
        for sock in connecting:
            sock.close()


async def _greeting(port: int, web: bool, stats: HalfOpenStats) -> None:
    """An honest client from 127.0.0.2: the time to its first line (TCP) or first text
    frame (the browser port's WebSocket)."""
    start = time.perf_counter()
    kind = "websocket" if web else "tcp"
    try:
        async with asyncio.timeout(HONEST_TIMEOUT):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=("127.0.0.2", 0)
            )
            try:
                if not web:
                    line = await reader.readline()
                    greeted = parse(line).get("Type") == "Message"
                else:
                    writer.write(ws_request(port))
                    await reader.readuntil(b"\r\n\r\n")
                    buffer = bytearray()
                    frames: list[tuple[int, bytes]] = []
                    while not frames:
                        data = await reader.read(4096)
                        if not data:
                            break
                        buffer += data
                        frames = ws_frames(buffer)
                    greeted = bool(frames) and parse(frames[0][1]).get("Type") == "Message"
            finally:
                writer.close()
    except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
        stats.not_greeted[f"{kind}: {type(exc).__name__}"] += 1
        return
    if greeted:
        stats.greet_ms.append(1000 * (time.perf_counter() - start))
    else:
        stats.not_greeted[f"{kind}: no greeting"] += 1


async def _halfopen(
    server: Server, args: argparse.Namespace, deadline: float, result: dict[str, Any]
) -> None:
    assert server.http_port is not None
    stats = HalfOpenStats()
    files = args.half_open + HALF_OPEN_SPARE_FILES
    server.limit_files(files)
    seconds = max(2.0, min(args.half_open_seconds, deadline - time.monotonic() - 10))
    end = time.monotonic() + seconds
    attack = threading.Thread(
        target=_half_open_attack,
        args=(server.http_port, args.half_open, end, stats),
        daemon=True,
    )
    log(f"halfopen: {args.half_open} half-open connections for {seconds:g} s")
    attack.start()
    await asyncio.to_thread(stats.opened.wait, seconds)
    log(f"halfopen: {stats.attempts} opened; {args.honest} honest clients from 127.0.0.2")
    pause = max(0.0, (end - time.monotonic() - 1) / max(1, args.honest))
    for i in range(args.honest):  # one after another, alternately TCP and WebSocket
        port = server.http_port if i % 2 else server.port
        await _greeting(port, bool(i % 2), stats)
        await asyncio.sleep(pause)
    attack.join(seconds + PROBE_TIMEOUT)
    g = stats.greet_ms
    result.update(
        half_open_target=args.half_open,
        server_file_limit=files,
        seconds=round(seconds, 1),
        attack_connects=stats.attempts,
        attack_connect_failures=stats.connect_failures,
        attack_closed_by_server=stats.closed_by_server,
        attack_held_at_end=stats.held,
        honest=args.honest,
        honest_greeted=len(g),
        honest_not_greeted=dict(stats.not_greeted),
        honest_greet_ms_p50=round(percentile(g, 0.5) or 0, 2) if g else None,
        honest_greet_ms_max=round(max(g), 2) if g else None,
        server_alive=server.alive(),
    )


# ------------------------------------------------------------------ the run

Scenario = Callable[[Server, argparse.Namespace, float, dict[str, Any]], Any]
Probed = Callable[
    [Server, argparse.Namespace, float, dict[str, Any], Probe], Coroutine[Any, Any, None]
]


def probed(body: Probed) -> Scenario:
    """The scenario that runs ``body`` with a lobby probe (``--probe-connections``)."""

    async def scenario(
        server: Server, args: argparse.Namespace, deadline: float, result: dict[str, Any]
    ) -> None:
        probe = Probe(server.port, args.probe_connections)
        try:
            await body(server, args, deadline, result, probe)
        finally:  # a timed-out run still shows what the probe saw
            result.update(probe.report())

    return scenario


SCENARIOS: dict[str, Scenario] = {
    "churn": probed(_churn),
    "flood": probed(_flood),
    "chatfan": probed(_chatfan),
    "pingflood": probed(_pingflood),
    "pingflood-read": probed(_pingflood_read),
    "halfopen": _halfopen,
}
#: The scenarios whose server has the browser port too.
WEB_SCENARIOS = frozenset({"pingflood", "pingflood-read", "halfopen"})


def run_scenario(
    name: str, args: argparse.Namespace, deadline: float
) -> tuple[dict[str, Any], str | None]:
    """One scenario on its own server: its figures, and what went wrong (None: ok)."""
    result: dict[str, Any] = {"scenario": name}
    with tempfile.TemporaryDirectory(prefix="hundred-abuse-") as tmp:
        extra = [*SCENARIO_SERVER_ARGS.get(name, []), *args.server_arg]
        server = Server(Path(tmp), extra, web=name in WEB_SCENARIOS)
        result["server_args"] = ["--db", "<tmp>/abuse.db", *extra]
        problem = None
        try:
            server.wait_ready(deadline)
            log(f"{name}: server {server.pid} on port {server.port}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            asyncio.run(asyncio.wait_for(SCENARIOS[name](server, args, deadline, result), left))
        except ServerError as exc:
            problem = f"{exc}\n{server.log_tail()}"
        except TimeoutError:
            problem = f"the run timed out (--timeout {args.timeout:g} s)"
            result["timed_out"] = True
        except OSError as exc:
            problem = f"{name}: {type(exc).__name__}: {exc}"
            result["failed"] = problem
        finally:
            result["server_exit"] = server.stop()
    if problem and "failed" in result:  # a scenario that failed still completed the run
        log(problem)
        return result, None
    return result, problem


def check(value: float | None, target: float) -> dict[str, Any]:
    return {"value": value, "target": f"< {target:g}", "pass": value is not None and value < target}


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    checks: dict[str, Any] = {}
    for r in results:
        if r["scenario"] == "churn":
            checks["churn_probe_ms_p99"] = check(r.get("probe_ms_p99"), PROBE_P99_MS)
            checks["churn_probe_ms_max"] = check(r.get("probe_ms_max"), PROBE_MAX_MS)
            checks["churn_store_growth_mb"] = check(r.get("store_growth_mb"), STORE_GROWTH_MB)
            checks["churn_rss_delta_mb"] = check(r.get("rss_delta_mb"), CHURN_RSS_MB)
        elif r["scenario"] == "flood":
            checks["flood_rss_delta_mb"] = check(r.get("rss_delta_mb"), FLOOD_RSS_MB)
        elif r["scenario"] == "chatfan":
            checks["chatfan_lines_delivered"] = check(r.get("lines_delivered"), CHATFAN_LINES + 1)
            checks["chatfan_table_ms_max"] = check(r.get("table_ms_max"), CHATFAN_RTT_MS)
            checks["chatfan_lobby_ms_max"] = check(r.get("probe_ms_max"), CHATFAN_RTT_MS)
        elif r["scenario"] in ("pingflood", "pingflood-read"):
            key = r["scenario"].replace("-", "_")
            checks[f"{key}_rss_growth_mb"] = check(r.get("rss_growth_mb"), PING_RSS_MB)
            checks[f"{key}_lobby_ms_p99"] = check(r.get("probe_ms_p99"), PROBE_P99_MS)
        elif r["scenario"] == "halfopen":
            not_greeted = r.get("honest", 0) - r.get("honest_greeted", 0)
            checks["halfopen_honest_not_greeted"] = check(not_greeted, 1)
            checks["halfopen_honest_greet_ms_max"] = check(r.get("honest_greet_ms_max"), 1000)
    return {
        "summary": True,
        "scenarios": [r["scenario"] for r in results],
        "checks": checks,
        "failed": [name for name, c in checks.items() if not c["pass"]],
        "all_pass": bool(checks) and all(c["pass"] for c in checks.values()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cycles", type=int, default=1000, help="churn cycles (default 1000)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds for the whole run")
    parser.add_argument("--scenario", choices=[*SCENARIOS, "all"], default="all")
    parser.add_argument(
        "--chat-seconds", type=float, default=15.0, help="chatfan: seconds of chat (default 15)"
    )
    parser.add_argument(
        "--chatters", type=int, default=32, help="chatfan: connections that chat (default 32)"
    )
    parser.add_argument(
        "--listeners",
        type=int,
        default=400,
        help="chatfan: connections in the lobby that only read (default 400)",
    )
    parser.add_argument(
        "--ping-seconds",
        type=float,
        default=40.0,
        help="pingflood, pingflood-read: seconds of flood (default 40)",
    )
    parser.add_argument(
        "--half-open",
        type=int,
        default=2400,
        help="halfopen: connections that send half a request line (default 2400)",
    )
    parser.add_argument(
        "--half-open-seconds",
        type=float,
        default=10.0,
        help="halfopen: seconds the attack lasts (default 10)",
    )
    parser.add_argument(
        "--honest",
        type=int,
        default=24,
        help="halfopen: honest clients from 127.0.0.2 meanwhile (default 24)",
    )
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="one more word for the server's command line (repeat it)",
    )
    parser.add_argument(
        "--probe-connections",
        type=int,
        default=6,
        help="connections the lobby probe takes turns over (default 6: each under "
        "the server's default 20 lines a second)",
    )
    args = parser.parse_args()
    if args.cycles < 0 or args.timeout <= 0 or args.probe_connections < 1:
        parser.error("cycles must be >= 0, timeout > 0, probe-connections >= 1")
    if args.chat_seconds <= 0 or args.chatters < 1 or args.listeners < 0:
        parser.error("chat-seconds must be > 0, chatters >= 1, listeners >= 0")
    if args.ping_seconds <= 0 or args.half_open < 1 or args.half_open_seconds <= 0:
        parser.error("ping-seconds and half-open-seconds must be > 0, half-open >= 1")
    if args.honest < 1:
        parser.error("honest must be >= 1")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # halfopen's connections
    want = args.half_open + 256
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    sys.setswitchinterval(0.001)  # the churn thread must not hold up the probe's loop
    deadline = time.monotonic() + args.timeout
    names = list(SCENARIOS) if args.scenario == "all" else [args.scenario]
    results = []
    for name in names:
        result, problem = run_scenario(name, args, deadline)
        results.append(result)
        print(json.dumps(result), flush=True)
        if problem is not None:
            log(problem)
            return 2
    print(json.dumps(summarize(results)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
