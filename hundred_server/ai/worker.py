"""A plug-in bot's worker process, and the frames it speaks to the server.

``python -m hundred_server.ai.worker CONFIG`` (CONFIG is JSON: the game, the plug-in's
module and class, the memory limit, the parent's ``sys.path``) caps its own address
space (``RLIMIT_AS``), imports the plug-in, makes one instance and says ``Hello``: the
checks it made on the way (the module imports, the class exists, it can be made, it
has the method of its shape, the method's parameters), each passed or failed with why.
Then, one request at a time, it reads a view, asks the plug-in, and answers which of
``view.legal`` it chose, or the fault (what it raised, or why its answer is no move).

Frames are a 4-byte big-endian length and a payload, on the worker's own copies of
the pipes it was given as stdin and stdout: the plug-in's own ``print`` goes to
stderr, and it reads nothing from stdin. Requests are pickles (the server is trusted
here); everything the worker says is JSON, so the server never unpickles what a
plug-in's process wrote, and the action it plays is always the table's own object.

The general shape of a plug-in is a class whose ``act(self, view)`` returns one of
``view.legal``; a game may add its own (``GameSpec.plugin``, ``PluginShape``). A class
with ``act`` plays by it, otherwise by its game's shape (docs/plugins.md).
"""

from __future__ import annotations

import base64
import importlib
import inspect
import json
import os
import pickle
import reprlib
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Final

#: The largest frame either side accepts (a view is a few KiB).
MAX_FRAME: Final = 1 << 20
_LENGTH: Final = struct.Struct(">I")
#: How often the worker checks that the server is still there (it exits if not).
_WATCH_EVERY: Final = 0.5

_quote = reprlib.Repr()
_quote.maxstring = _quote.maxother = 80


class FrameError(Exception):
    """A frame longer than ``MAX_FRAME``: the other side is not speaking this protocol."""


def frame(payload: bytes) -> bytes:
    return _LENGTH.pack(len(payload)) + payload


class FrameReader:
    """Bytes in, whole frames out (``feed``); keeps what is left of a partial one."""

    def __init__(self, limit: int = MAX_FRAME) -> None:
        self.limit = limit
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self._buffer += data
        frames: list[bytes] = []
        while len(self._buffer) >= _LENGTH.size:
            (size,) = _LENGTH.unpack_from(self._buffer)
            if size > self.limit:
                raise FrameError(f"a frame of {size} bytes (at most {self.limit})")
            end = _LENGTH.size + size
            if len(self._buffer) < end:
                break
            frames.append(bytes(self._buffer[_LENGTH.size : end]))
            del self._buffer[:end]
        return frames


# ------------------------------------------------------------------- the checks


Check = tuple[str, bool, str]  # (what it checks, passed, why it failed or "")


def _parameters_check(
    method_name: str, method: Callable[..., Any], wanted: tuple[str, ...]
) -> Check:
    """Whether ``method`` (unbound, ``self`` first) takes exactly ``wanted``'s number of
    parameters after ``self``, each without a default."""
    names = ", ".join(wanted)
    if len(wanted) == 1:
        what = f"{method_name} takes one parameter ({names}) without a default"
    else:
        what = f"{method_name} takes the {len(wanted)} parameters ({names}) without defaults"
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError) as exc:
        return what, False, f"its signature cannot be read: {exc}"
    params = list(signature.parameters.values())[1:]  # after self
    shown = f"{method_name}{signature}"
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind not in positional for p in params):
        return what, False, f"{shown} has *args, **kwargs or keyword-only parameters"
    if len(params) != len(wanted):
        return what, False, f"{shown} takes {len(params)}, not {len(wanted)}"
    defaulted = [p.name for p in params if p.default is not inspect.Parameter.empty]
    if defaulted:
        return what, False, f"{shown} gives defaults to {', '.join(defaulted)}"
    return what, True, ""


def load(
    game: str, module_name: str, class_name: str
) -> tuple[list[Check], object | None, str | None]:
    """Import and make the plug-in; the checks made (in order, up to the first that
    fails, but the parameter check, which does not stop it), the bot (None if it
    cannot play) and the name of the method it plays by."""
    from hundred_server import games  # here: a worker that cannot import it says so

    checks: list[Check] = []
    spec = games.get(game)
    try:
        module = importlib.import_module(module_name)
    except BaseException as exc:  # ImportError, or whatever the module raises or exits with
        checks.append(
            (f"the module {module_name} imports", False, f"cannot import {module_name!r}: {exc}")
        )
        return checks, None, None
    checks.append((f"the module {module_name} imports", True, ""))
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        checks.append(
            (
                f"{module_name} has a class {class_name}",
                False,
                f"{module_name!r} has no class {class_name!r}",
            )
        )
        return checks, None, None
    checks.append((f"{module_name} has a class {class_name}", True, ""))
    shape = spec.plugin
    parameters: tuple[str, ...]
    if callable(getattr(cls, "act", None)) or shape is None:
        method_name, parameters = "act", ("view",)
    else:
        method_name, parameters = shape.method, shape.parameters
    method = getattr(cls, method_name, None)
    has = f"{class_name} has a method {method_name}"
    if not callable(method):
        own = "" if shape is None else f" (nor {shape.method}, the {spec.title} shape)"
        checks.append((has, False, f"{class_name} has no act(view) method{own}"))
        return checks, None, None
    checks.append((has, True, ""))
    checks.append(_parameters_check(method_name, method, parameters))
    try:
        instance = cls()
    except BaseException as exc:
        checks.append(
            (
                f"{class_name}() makes a player",
                False,
                f"{module_name}:{class_name}() fails: {exc!r}",
            )
        )
        return checks, None, None
    checks.append((f"{class_name}() makes a player", True, ""))
    if method_name == "act":
        return checks, instance, method_name
    assert shape is not None
    return checks, shape.adapt(instance), method_name


def choose(bot: object, view: Any) -> int:
    """The index in ``view.legal`` of ``bot``'s move; ``BotAnswerError`` if its answer is
    none of them."""
    from hundred_server.protocol.errors import BotAnswerError

    choice = bot.act(view)  # type: ignore[attr-defined]
    for index, action in enumerate(view.legal):
        if type(action) is type(choice) and action == choice:
            return index
    raise BotAnswerError(f"returned {_quote.repr(choice)}, which is not one of view.legal")


def describe_fault(method: str, exc: BaseException, memory: int) -> tuple[str, str]:
    """(why, kind) of what a plug-in's move raised."""
    from hundred_server.protocol.errors import BotAnswerError

    if isinstance(exc, BotAnswerError):
        return f"{method} {exc.message}", exc.code
    if isinstance(exc, SystemExit):
        return f"{method} called sys.exit({_quote.repr(exc.code)})", "exit"
    if isinstance(exc, MemoryError):
        limit = f" (the limit is {memory >> 20} MiB)" if memory else ""
        return f"{method} ran out of memory{limit}", "memory"
    return f"{method} raised {type(exc).__name__}: {_quote.repr(str(exc))}", "raised"


# ------------------------------------------------------------------- the process


def _watch_parent(parent: int) -> None:
    """Exit when the server is gone, even while the plug-in is stuck in a loop (the
    GIL lets this thread run every few milliseconds)."""
    while True:
        time.sleep(_WATCH_EVERY)
        if os.getppid() != parent:
            os._exit(0)


def _read_exactly(fd: int, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _send(fd: int, obj: dict[str, Any]) -> None:
    data = frame(json.dumps(obj).encode())
    while data:
        data = data[os.write(fd, data) :]


def main(argv: list[str]) -> int:
    config = json.loads(argv[0])
    # The protocol keeps its own copies of the pipes; the plug-in's stdout is stderr.
    requests, answers = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server
    threading.stack_size(1 << 18)  # the watchdog needs little: keep it out of the limit
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    memory = int(config.get("memory") or 0)
    if memory:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    sys.path[:0] = [p for p in config.get("path", []) if p not in sys.path]
    if config.get("pool"):
        return _serve_pool(requests, answers)
    checks, bot, method = load(config["game"], config["module"], config["class"])
    hello = {"Type": "Hello", "Checks": checks, "Ready": bot is not None, "Method": method}
    _send(answers, hello)
    if bot is None or method is None:
        return 0
    while True:
        request = _read_request(requests)
        if request is None:
            return 0  # the server closed the pipe
        ask, view = request
        try:
            answer: dict[str, Any] = {"Ask": ask, "Choice": choose(bot, view)}
        except BaseException as exc:  # the plug-in's fault, whatever it is
            why, kind = describe_fault(method, exc, memory)
            answer = {"Ask": ask, "Fault": why, "Kind": kind}
        _send(answers, answer)


def _read_request(fd: int) -> tuple[Any, ...] | None:
    """The next request the server sent (None: it closed the pipe)."""
    head = _read_exactly(fd, _LENGTH.size)
    if head is None:
        return None
    (size,) = _LENGTH.unpack(head)
    body = _read_exactly(fd, size)
    if body is None:
        return None
    request: tuple[Any, ...] = pickle.loads(body)
    return request


def _pool_answer(ask: int, bot: object, view: Any) -> dict[str, Any]:
    """A built-in AI's answer: which of ``view.legal`` it chose, or (a move ``legal``
    holds a sample of, as a Rook setup) the move itself, pickled: the pool's workers
    run the server's own code only, so the server may read it."""
    choice = bot.act(view)  # type: ignore[attr-defined]
    for index, action in enumerate(view.legal):
        if type(action) is type(choice) and action == choice:
            return {"Ask": ask, "Choice": index}
    data = base64.b64encode(pickle.dumps(choice, pickle.HIGHEST_PROTOCOL))
    return {"Ask": ask, "Action": data.decode("ascii")}


def _serve_pool(requests: int, answers: int) -> int:
    """A worker of the AI pool (bots/pool.py): each request is ``(ask, view, builtin)``,
    played by the built-in AI ``builtin`` names (one made for each kind, kept: its move
    is a function of its settings and the view)."""
    from hundred_server.core.remote import BuiltinAI

    _send(answers, {"Type": "Hello", "Checks": [], "Ready": True, "Method": "act"})
    bots: dict[BuiltinAI, object] = {}
    while True:
        request = _read_request(requests)
        if request is None:
            return 0
        ask, view, builtin = request
        answer: dict[str, Any]
        try:
            bot = bots.get(builtin)
            if bot is None:
                bot = bots[builtin] = builtin.make()
            answer = _pool_answer(ask, bot, view)
        except Exception as exc:  # a bug of the AI's: the naive AI plays the move
            answer = {"Ask": ask, "Fault": describe_fault("act", exc, 0)[0], "Kind": "raised"}
        _send(answers, answer)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
