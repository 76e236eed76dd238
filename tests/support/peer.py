"""The one test client of the protocol over real sockets: ``Peer`` over TCP lines (the
JSON and text modes), ``WsPeer`` over WebSocket text frames. ``messages`` is every
message it has read, decoded, and ``times`` when each came. Every read is bounded
(``READ_TIMEOUT``), and the end of the stream is ``EOFError``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from hundred_server.core.fairness import commitment
from tests.support.hub_harness import (
    GREETING,
    HELLO,
    QUESTION,
    answer_from_legal,
    is_prompt,
)

READ_TIMEOUT = 5.0

Message = dict[str, Any]


class Peer:
    """A client over a TCP socket.

    ``check`` is run on each message read (the fuzz test's schema check); with
    ``rate``, ``send`` sends at most that many lines a second unless told not to."""

    #: The first message of a connection: the main port's greeting.
    greeting: Message = GREETING

    def __init__(
        self,
        reader: asyncio.StreamReader | None,
        writer: asyncio.StreamWriter | None,
        *,
        check: Callable[[Message], None] | None = None,
        rate: float | None = None,
    ) -> None:
        self._reader, self._writer = reader, writer
        self.messages: list[Message] = []
        self.times: list[float] = []  # the loop's time each message came
        self.sent = 0
        self.answers = 0  # prompts answered by ``play``
        self.check, self.rate = check, rate
        self._next = 0.0

    @property
    def reader(self) -> asyncio.StreamReader:
        assert self._reader is not None
        return self._reader

    @property
    def writer(self) -> asyncio.StreamWriter:
        assert self._writer is not None
        return self._writer

    @classmethod
    async def open(cls, port: int, **options: Any) -> Peer:
        """A connection, nothing read yet (``options``: the constructor's)."""
        return cls(*await asyncio.open_connection("127.0.0.1", port), **options)

    @classmethod
    async def welcomed(cls, port: int, **options: Any) -> Peer:
        """A connection that has read the greeting: the lobby question and ``Hello``."""
        peer = await cls.open(port, **options)
        assert [await peer.recv(), await peer.recv()] == [cls.greeting, HELLO]
        return peer

    @classmethod
    async def greeted(cls, port: int, name: str, **options: Any) -> Peer:
        """A connection greeted, named ``name``, and at the lobby question again."""
        peer = await cls.welcomed(port, **options)
        await peer.send({"Type": "Hello", "Name": name})
        assert await peer.recv() == {"Type": "Message", "Message": f"Hello, {name}."}
        assert [await peer.recv(), await peer.recv()] == [QUESTION, HELLO]
        return peer

    async def create(self, answer: Message | bytes, game: str | None = None) -> None:
        """Ask to create a table (of ``game``, or of the default game) and give the
        options' ``answer`` (the ``Game`` message, or a line of bytes)."""
        await self.send({"Type": "Hello", "Message": "create", **({"Game": game} if game else {})})
        await self.until(lambda m: m == {"Type": "Game"})
        await self.send(answer)

    async def _pace(self, paced: bool) -> None:
        if self.rate is None or not paced:
            return
        now = time.monotonic()
        if now < self._next:
            await asyncio.sleep(self._next - now)
        self._next = max(now, self._next) + 1 / self.rate

    async def send(self, msg: Message | bytes, paced: bool = True) -> None:
        """Send one line (a message as JSON, or the bytes as they are); paced at
        ``rate`` unless ``paced`` is false."""
        await self._pace(paced)
        self.writer.write(msg if isinstance(msg, bytes) else json.dumps(msg).encode() + b"\n")
        self.sent += 1
        await self.writer.drain()

    async def line(self, wait: float = READ_TIMEOUT) -> bytes:
        data = await asyncio.wait_for(self.reader.readline(), wait)
        if not data:
            raise EOFError("the server closed the connection")
        return data

    def _got(self, msg: Message) -> Message:
        if self.check is not None:
            self.check(msg)
        self.messages.append(msg)
        self.times.append(asyncio.get_running_loop().time())
        return msg

    async def recv(self, wait: float = READ_TIMEOUT) -> Message:
        return self._got(json.loads(await self.line(wait)))

    async def until(self, done: Callable[[Message], bool]) -> Message:
        """Read up to the first message ``done`` is true of; that message."""
        while not done(msg := await self.recv()):
            pass
        return msg

    async def prompt(self) -> Message:
        """Up to this seat's next prompt to answer."""
        return await self.until(lambda m: is_prompt(m) and "Legal" in m)

    async def nothing_for(self, seconds: float) -> None:
        """Nothing comes for ``seconds``."""
        with pytest.raises(TimeoutError):
            await self.recv(seconds)

    async def text_until_prompt(self) -> list[str]:
        """Text mode: the lines up to and including the next ``> `` prompt."""
        lines: list[str] = []
        while True:
            raw = await self.line()
            assert raw.endswith(b"\r\n"), raw
            lines.append(raw.decode().removesuffix("\r\n"))
            if lines[-1].startswith("> "):
                return lines

    async def at_eof(self) -> bytes:
        """What is left to read before the server closes (fails if it does not)."""
        rest = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := await asyncio.wait_for(self.reader.read(65536), READ_TIMEOUT):
                rest += chunk
        return rest

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


class WsPeer(Peer):
    """A client over a WebSocket: one message a text frame, with no line ending."""

    #: The WebSocket speaks JSON from its first frame: the lobby question alone.
    greeting: Message = QUESTION

    def __init__(self, ws: ClientConnection, **options: Any) -> None:
        super().__init__(None, None, **options)
        self.ws = ws

    @classmethod
    async def open(  # type: ignore[override]
        cls, port: int | None, forwarded: str | None = None, **options: Any
    ) -> WsPeer:
        """Connect to the browser port's ``/ws``; ``forwarded``: the X-Forwarded-For
        header a balancer would add."""
        assert port is not None, "the server has no browser port"
        headers = None if forwarded is None else {"X-Forwarded-For": forwarded}
        url = f"ws://127.0.0.1:{port}/ws"
        ws = await connect(url, open_timeout=READ_TIMEOUT, additional_headers=headers)
        return cls(ws, **options)

    async def send(  # type: ignore[override]
        self, msg: Message | str | bytes, paced: bool = True
    ) -> None:
        await self._pace(paced)
        await self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))
        self.sent += 1

    async def frame(self, wait: float = READ_TIMEOUT) -> str | bytes:
        return await asyncio.wait_for(self.ws.recv(), wait)

    async def recv(self, wait: float = READ_TIMEOUT) -> Message:
        frame = await self.frame(wait)
        assert isinstance(frame, str), frame  # text frames only
        assert not frame.endswith("\n"), frame  # one message, no line ending
        return self._got(json.loads(frame))

    async def closed(self) -> int | None:
        """Wait for the server to close; the close code it gave."""
        with contextlib.suppress(ConnectionClosed):
            while True:
                await self.frame()
        return self.ws.close_code

    async def close(self) -> None:
        await self.ws.close()


async def play(peer: Peer, rng: random.Random, stop_after: int | None = None) -> Message | None:
    """Answer from ``Legal`` until the game is over; its ``GameOver`` score (None once
    ``stop_after`` answers are given). ``peer.answers`` counts the answers."""
    answers = 0
    while True:
        msg = await peer.recv()
        if msg.get("GameOver"):
            return msg
        if is_prompt(msg) and "Legal" in msg:
            await peer.send(answer_from_legal(msg, rng))
            peer.answers += 1
            answers += 1
            if answers == stop_after:
                return None


async def back_in_the_lobby(peer: Peer) -> None:
    """After a GameOver: the table's seed, which its ``Commit`` bound, then the lobby
    question."""
    reveal = await peer.recv()
    assert reveal["Type"] == "Reveal"
    assert reveal["Hash"] == commitment(reveal["Game"], reveal["Seed"])
    assert [await peer.recv(), await peer.recv()] == [QUESTION, HELLO]


async def new_table_refusal(peer: Peer) -> str:
    """``peer``, not yet greeted, asks for the lobby and opens a table (option 1); the Code
    of the Error that answers it (what comes before the Error is passed over)."""
    await peer.send({"Type": "Hello"})
    assert [await peer.recv(), await peer.recv()] == [QUESTION, HELLO]
    await peer.send({"Type": "Hello", "Message": "create"})
    await peer.send({"Type": "Game", "Option": 1})
    while (msg := await peer.recv())["Type"] != "Error":
        pass
    code: str = msg["Code"]
    return code
