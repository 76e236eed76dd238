"""The default install's fast parts (uvloop, orjson) and the pure-Python fallback
without them: the same server, the same bytes."""

from __future__ import annotations

import contextlib
import importlib.metadata
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.protocol.test_example_session import CLOSED, SESSION

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 30.0


def test_the_default_install_brings_uvloop_and_orjson_where_their_wheels_exist() -> None:
    required = importlib.metadata.requires("hundred_server") or []
    assert (
        'uvloop==0.23.0; sys_platform != "win32" and platform_python_implementation == "CPython"'
        in required
    )
    assert 'orjson==3.13.0; platform_python_implementation == "CPython"' in required
    # The fast extra stays, an alias of what the default install has.
    assert 'uvloop==0.23.0; extra == "fast"' in required
    assert 'orjson==3.13.0; extra == "fast"' in required


def _listening_port(process: subprocess.Popen[str]) -> int:
    assert process.stdout is not None
    line = process.stdout.readline()  # bounded: the server prints it, or exits
    found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
    assert found, f"no listening line: {line!r}"
    return int(found.group(1))


def _play_the_example_session(port: int) -> list[str]:
    """protocol.md's example session over a real socket: each client line sent when the
    transcript shows it; the whole transcript as the server said it."""
    transcript: list[str] = []
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        reader = sock.makefile("rb")
        expected = 0
        for line in [*SESSION, "<-- "]:
            if line.startswith("<-- "):
                for _ in range(expected):
                    transcript.append("--> " + reader.readline().decode().rstrip("\n"))
                expected = 0
                if line != "<-- ":
                    transcript.append(line)
                    sock.sendall(line[4:].encode() + b"\n")
            elif line != CLOSED:
                expected += 1
        if reader.readline() == b"":
            transcript.append(CLOSED)
    return transcript


def test_without_uvloop_and_orjson_a_real_server_says_and_stores_the_same_bytes(
    tmp_path: Path,
) -> None:
    """The fallback for real: a server process where neither imports (the launcher
    hides them), on ``--loop auto`` and a store, plays protocol.md's example session
    byte for byte, and the record it stored exports the same as with orjson."""
    db = tmp_path / "fallback.db"
    command = [sys.executable, str(ROOT / "tests" / "support" / "fallback_server.py"), "serve"]
    command += ["--host", "127.0.0.1", "--port", "0", "--db", str(db), "--loop", "auto"]
    command += ["--ai", "naive"]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        port = _listening_port(process)
        assert _play_the_example_session(port) == SESSION
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            _out, err = process.communicate(timeout=10)
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert "event loop: asyncio" in err
    export = ["export", "--db", str(db), "1"]
    without = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "support" / "fallback_server.py"), *export],
        cwd=ROOT, capture_output=True, timeout=TIMEOUT, check=True,
    )  # fmt: skip
    with_orjson = subprocess.run(
        [sys.executable, "-m", "hundred_server", *export],
        cwd=ROOT, capture_output=True, timeout=TIMEOUT, check=True,
    )  # fmt: skip
    assert without.stdout == with_orjson.stdout
    assert without.stdout.count(b"\n") > 20


def test_the_test_environment_has_the_fast_parts() -> None:
    """The rest of the suite runs on them (live servers on uvloop, orjson's bytes)."""
    import orjson
    import uvloop

    assert uvloop.__version__ == "0.23.0"
    assert orjson.__version__ == "3.13.0"
