"""Plug-in bots: a class of your own, named by module path, plays a game's AI seats,
each in a worker process of its own (docs/plugins.md).

``hundred-server serve --bot GAME=mybots.player:Player`` checks the plug-in in a worker
(``load_plugin``: it imports, the class exists, it can be made, it has its method)
before the server listens; then every AI seat of every table of GAME is played by a
``Player()`` in a worker of its own (bots/runner.py for the server, ``PluginBot`` here
for a synchronous caller such as self-play). Plug-in code never runs in the server's
process: a move that takes longer than the time limit (``BotLimits.timeout``) is
killed, a worker that crashes, exits or runs out of memory (``BotLimits.memory``, its
address space) is started again, and the default AI plays every move the plug-in
forfeits (core/remote.py).

``Worker`` is one worker process seen from the server: non-blocking pipes, frames in
and out (bots/worker.py), usable from an event loop (``fileno``, ``read``) and, with
bounded waits, from plain code (``wait_readable``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import pickle
import select
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from hundred_server import games
from hundred_server.ai.worker import FrameError, FrameReader, frame
from hundred_server.core.remote import BuiltinAI, Forfeits, PluginSeat
from hundred_server.games.base import Bot
from hundred_server.protocol.errors import HundredError

log = logging.getLogger("hundred_server")

#: Seconds a worker may take to start (import the plug-in, make it) before it counts as
#: stuck; not part of any move's time limit.
STARTUP_TIMEOUT: Final = 5.0
#: The longest fault text taken from a worker.
MAX_FAULT: Final = 300


class PluginError(HundredError):
    code = "bad_plugin"


@dataclass(frozen=True)
class BotLimits:
    """What a plug-in's move may take: ``timeout`` seconds (then its worker is killed
    and started again) and ``memory`` bytes of address space (0: no limit)."""

    timeout: float = 1.0
    memory: int = 256 << 20
    startup: float = STARTUP_TIMEOUT


@dataclass(frozen=True)
class Plugin:
    """A plug-in bot: ``game``'s AI seats played by ``module:cls``, importable from
    ``path`` (the worker puts it in front of its ``sys.path``)."""

    game: str
    module: str
    cls: str
    path: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``GAME=module:Class``: how logs, forfeit counts and the lobby name it."""
        return f"{self.game}={self.module}:{self.cls}"


def parse_plugin(text: str) -> Plugin:
    """``GAME=module.path:Class`` -> a ``Plugin`` (nothing is imported); ``PluginError``
    says what is wrong."""
    game, sep, target = text.partition("=")
    module_name, colon, class_name = target.partition(":")
    module_name, class_name = module_name.strip(), class_name.strip()
    if not sep or not colon or not module_name or not class_name:
        raise PluginError(f"a plug-in is GAME=module:Class, as in GAME=mybot:Player, not {text!r}")
    game = game.strip().lower()
    if game not in games.names():
        raise PluginError(f"no such game {game!r} (games: {', '.join(games.names())})")
    return Plugin(game, module_name, class_name, tuple(sys.path))


class WorkerBroken(Exception):
    """The worker said something that is not the protocol, or stopped reading."""


class Worker:
    """One worker process of ``plugin``; see the module docstring. ``hello`` is its
    ``Hello`` once read (None before). Without a plug-in, a worker of the AI pool
    (bots/pool.py): it plays the built-in AI each ask names, within no memory limit
    (the built-in AIs are the server's own code)."""

    def __init__(self, plugin: Plugin | None, limits: BotLimits) -> None:
        config: dict[str, Any]
        if plugin is None:
            config = {"pool": True, "memory": 0, "path": list(sys.path)}
        else:
            config = {
                "game": plugin.game,
                "module": plugin.module,
                "class": plugin.cls,
                "memory": limits.memory,
                "path": list(plugin.path),
            }
        # No preexec_fn (the child caps its own memory), so this is a quick vfork.
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hundred_server.ai.worker", json.dumps(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
            # One malloc arena: each thread's own would reserve 64 MiB of the address
            # space that the memory limit counts.
            env={**os.environ, "MALLOC_ARENA_MAX": "1"},
        )
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self._in, self._out = self.process.stdin, self.process.stdout
        os.set_blocking(self._in.fileno(), False)
        os.set_blocking(self._out.fileno(), False)
        self._frames = FrameReader()
        self.hello: dict[str, Any] | None = None
        self.started = time.monotonic()

    @property
    def pid(self) -> int:
        return self.process.pid

    def fileno(self) -> int:
        """What to wait on for ``read``."""
        return self._out.fileno()

    def send(self, ask: int, view: Any, builtin: BuiltinAI | None = None) -> None:
        """Ask for a move on ``view`` (of ``builtin``, for a worker of the AI pool; never
        blocks; ``WorkerBroken`` if the worker's pipe is full or gone)."""
        request = (ask, view) if builtin is None else (ask, view, builtin)
        data = frame(pickle.dumps(request, pickle.HIGHEST_PROTOCOL))
        fd = self._in.fileno()
        try:
            while data:
                data = data[os.write(fd, data) :]
        except (BlockingIOError, BrokenPipeError, OSError) as exc:
            raise WorkerBroken(f"its worker does not take requests ({exc})") from None

    def read(self) -> list[dict[str, Any]] | None:
        """What the worker has said since the last call (never blocks); None once it
        has closed its end (it exited or crashed). ``WorkerBroken`` for a garbled
        frame. The first message, its ``Hello``, is kept in ``hello`` as well."""
        chunks: list[bytes] = []
        eof = False
        while True:
            try:
                chunk = os.read(self._out.fileno(), 65536)
            except BlockingIOError:
                break
            except OSError:
                eof = True
                break
            if not chunk:
                eof = True
                break
            chunks.append(chunk)
        try:
            payloads = self._frames.feed(b"".join(chunks))
        except FrameError as exc:
            raise WorkerBroken(f"its worker sent {exc}") from None
        messages = [_message(p) for p in payloads]
        if messages and self.hello is None:
            self.hello = messages[0]
        if eof and not messages:
            return None
        return messages

    def wait_readable(self, timeout: float) -> bool:
        """Block until ``read`` has something (or EOF), at most ``timeout`` seconds."""
        readable, _, _ = select.select([self.fileno()], [], [], max(0.0, timeout))
        return bool(readable)

    def kill(self) -> None:
        """Stop it now (SIGKILL) and close the pipes; reap it with ``reaped``/``wait``."""
        with contextlib.suppress(ProcessLookupError, OSError):
            self.process.kill()
        for pipe in (self._in, self._out):
            with contextlib.suppress(OSError):
                pipe.close()

    def reaped(self) -> bool:
        """Whether it has exited (and is reaped); never blocks."""
        return self.process.poll() is not None

    def exit_text(self) -> str:
        """How it ended, as far as is known now."""
        code = self.process.poll()
        if code is None:
            return "its worker closed its pipe"
        if code < 0:
            return f"its worker was killed by signal {-code}"
        return f"its worker exited with status {code}"

    def wait(self, timeout: float = 2.0) -> None:
        """Reap it, waiting at most ``timeout`` seconds (for plain code and shutdown)."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout)


def _message(payload: bytes) -> dict[str, Any]:
    try:
        message = json.loads(payload)
    except ValueError:
        raise WorkerBroken("its worker sent a frame that is not JSON") from None
    if not isinstance(message, dict):
        raise WorkerBroken("its worker sent a frame that is not a JSON object")
    return message


def hello_checks(hello: dict[str, Any] | None) -> list[tuple[str, bool, str]]:
    """The checks of a worker's ``Hello``, read defensively."""
    checks = [] if hello is None else hello.get("Checks")
    out: list[tuple[str, bool, str]] = []
    for item in checks if isinstance(checks, list) else []:
        if isinstance(item, list) and len(item) == 3:
            what, ok, why = item
            out.append((str(what), ok is True, str(why)[:MAX_FAULT]))
    return out


def read_answer(message: dict[str, Any]) -> tuple[int, int | None, str | None, str]:
    """(ask, choice, fault, kind) of a worker's answer; ``WorkerBroken`` if it is none."""
    ask, choice, fault = message.get("Ask"), message.get("Choice"), message.get("Fault")
    if type(ask) is not int:
        raise WorkerBroken("its worker sent an answer without an Ask number")
    if type(choice) is int:
        return ask, choice, None, ""
    if isinstance(fault, str):
        kind = message.get("Kind")
        return ask, None, fault[:MAX_FAULT], kind if isinstance(kind, str) else "raised"
    raise WorkerBroken("its worker sent an answer with neither a Choice nor a Fault")


def start_ready(plugin: Plugin, limits: BotLimits) -> tuple[Worker | None, str]:
    """A worker that has said ``Hello`` and can play, or (None, why not). Blocks for
    ``limits.startup`` seconds at most."""
    worker, _checks, why = start_checked(plugin, limits)
    return worker, why


def start_checked(
    plugin: Plugin, limits: BotLimits
) -> tuple[Worker | None, list[tuple[str, bool, str]], str]:
    """``start_ready``, with the checks of the worker's ``Hello`` (bots/worker.py)."""
    worker = Worker(plugin, limits)
    deadline = time.monotonic() + limits.startup
    why = f"its worker did not start in {limits.startup:g} s"
    while worker.hello is None and (left := deadline - time.monotonic()) > 0:
        if not worker.wait_readable(left):
            break
        try:
            if worker.read() is None:
                worker.wait(1.0)
                why = f"{worker.exit_text()} before it was ready"
                break
        except WorkerBroken as exc:
            why = str(exc)
            break
    hello = worker.hello
    checks = hello_checks(hello)
    if hello is not None:
        if hello.get("Ready") is True:
            return worker, checks, ""
        failed = [w for _, ok, w in checks if not ok]
        why = failed[0] if failed else "its worker cannot play"
    worker.kill()
    worker.wait()
    return None, checks, why


def load_plugin(text: str, limits: BotLimits | None = None) -> Plugin:
    """``GAME=module.path:Class`` -> the ``Plugin``, once a worker has imported it and
    made one (out of process: a module that hangs or exits cannot stop the caller).

    Raises ``PluginError`` with a message that says what is wrong."""
    plugin = parse_plugin(text)
    worker, why = start_ready(plugin, limits or BotLimits())
    if worker is None:
        raise PluginError(why)
    worker.kill()
    worker.wait()
    return plugin


class PluginBot:
    """A ``Bot`` for synchronous callers (self-play, tournaments): each ``act`` runs the
    move in the plug-in's worker within ``limits``, and a forfeit (core/remote.py)
    plays ``fallback``'s move (the game's default AI unless given). ``forfeits`` counts
    them by plug-in label; several bots may share one. ``close`` stops the worker (a
    ``with`` block does)."""

    def __init__(
        self,
        plugin: Plugin,
        limits: BotLimits | None = None,
        fallback: Bot | None = None,
        forfeits: Forfeits | None = None,
        where: str = "self-play",
    ) -> None:
        self.plugin = plugin
        self.limits = limits or BotLimits()
        fallback = fallback or games.get(plugin.game).bot()
        self.seat = PluginSeat(
            plugin.label, fallback, forfeits if forfeits is not None else Forfeits()
        )
        self.where = where
        self._worker: Worker | None = None
        self._asks = 0
        #: Every fault, in order: (why, kind).
        self.faults: list[tuple[str, str]] = []

    @property
    def forfeits(self) -> int:
        return self.seat.forfeits[self.plugin.label]

    def act(self, view: Any) -> Any:
        if self.seat.benched:
            return self.seat.act(view)
        choice, fault, kind = self.ask(view)
        legal = tuple(view.legal)
        if fault is None and choice is not None and 0 <= choice < len(legal):
            self.seat.played()
            return legal[choice]
        why = fault or f"it chose move {choice!r} of {len(legal)}"
        self.faults.append((why, kind or "not_legal"))
        self.seat.forfeit(self.where, why)
        return self.seat.fallback.act(view)

    def new_game(self, where: str | None = None) -> None:
        """A new game starts: a seat benched in the last one plays again (a bench is
        for the rest of a game only), and its forfeits are logged as at ``where``."""
        self.seat.strikes = 0
        if where is not None:
            self.where = where

    def ask(self, view: Any) -> tuple[int | None, str | None, str]:
        """The plug-in's answer on ``view``: (choice, None, "") or (None, fault, kind);
        waits ``limits.timeout`` at most once its worker is ready."""
        worker = self._worker
        if worker is None:
            worker, why = start_ready(self.plugin, self.limits)
            if worker is None:
                return None, why, "start"
            self._worker = worker
        self._asks += 1
        ask = self._asks
        try:
            worker.send(ask, view)
            deadline = time.monotonic() + self.limits.timeout
            while (left := deadline - time.monotonic()) > 0:
                if not worker.wait_readable(left):
                    break
                messages = worker.read()
                if messages is None:  # it is exiting: reap it to say how it ended
                    worker.wait(1.0)
                    why = worker.exit_text()
                    self._stop()
                    return None, why, "crash"
                for message in messages:
                    got, choice, fault, kind = read_answer(message)
                    if got == ask:
                        return choice, fault, kind
        except WorkerBroken as exc:
            self._stop()
            return None, str(exc), "crash"
        self._stop()
        return None, f"it took longer than {self.limits.timeout:g} s", "timeout"

    def _stop(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.kill()
            worker.wait()

    def close(self) -> None:
        self._stop()

    def __enter__(self) -> PluginBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def close_all(bots: Sequence[object]) -> None:
    """Stop the workers of every ``PluginBot`` among ``bots``."""
    for bot in bots:
        if isinstance(bot, PluginBot):
            bot.close()
