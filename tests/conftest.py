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
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from tests.plugin_sources import write_plugins  # noqa: E402


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
        if fields[1] == me and (zombie or b"hundred_server.bots.worker" in cmdline):
            found.add(int(entry.name))
    return found


@pytest.fixture
def plugin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The test plug-ins (tests/plugin_sources.py) on ``sys.path``; and after the test,
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
