"""The asyncio server over real sockets on 127.0.0.1 (port 0), and the command line's
``serve`` in a subprocess. Every wait is bounded."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import socket
import sys
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hundred_server import cli
from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.hub import Hub
from hundred_server.core.lobby import Limits
from hundred_server.io.admit import ProxyHeader as _ProxyHeader
from hundred_server.io.server import Server
from hundred_server.protocol.wire import MAX_LINE
from tests.support.hub_harness import (
    GREETING,
    HELLO,
    QUESTION,
    answer_from_legal,
    check_stream,
    check_watcher_stream,
    is_prompt,
    public_part,
    text_answer,
)
from tests.support.live_server import eventually, start_server, started
from tests.support.peer import READ_TIMEOUT, Peer, back_in_the_lobby, play

#: A server on a free port of 127.0.0.1, with the defaults.
LOCAL = Settings(listeners=Listeners("127.0.0.1", 0))

SEED = "over-sockets"
SEEDS: defaultdict[int, str] = defaultdict(lambda: SEED)  # every table is dealt from SEED
GAME_TIMEOUT = 20.0
BYE = {"Type": "Message", "Message": "The server is shutting down. Bye!"}
REPO = Path(__file__).resolve().parents[2]

Message = dict[str, Any]


@contextlib.asynccontextmanager
async def running(limits: Limits | None = None, **options: Any) -> AsyncIterator[Server]:
    """A server on a free port of 127.0.0.1 (``options``: its ``Listeners``')."""
    hub = Hub(seed_source=lambda: SEED, limits=limits)
    settings = Settings(limits or Limits(), Listeners("127.0.0.1", 0, **options))
    server = Server(hub, settings)
    async with started(server):
        yield server


async def play_to_the_end(peer: Peer, rng: random.Random, stop_after: int | None = None) -> int:
    """Answer from Legal until the game is over and the lobby question is back (or,
    with ``stop_after``, until that many answers are given). Returns the answers given."""
    before = peer.answers
    if await play(peer, rng, stop_after) is not None:
        await back_in_the_lobby(peer)
    return peer.answers - before


# ------------------------------------------------------------------ whole games


@pytest.mark.asyncio
async def test_one_json_client_against_three_ai_finishes_a_game() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await Peer.greeted(server.port, "ann")
        await ann.create(b'{"Type":"Game","Option":1}\r\n')
        assert await play_to_the_end(ann, random.Random(1)) > 0
        assert check_stream(ann.messages, SEEDS) == 1
        await ann.send({"Type": "Hello", "Message": "quit"})
        assert await ann.recv() == {"Type": "Message", "Message": "Ok, bye bye!"}
        assert await ann.at_eof() == b""
        await ann.close()


@pytest.mark.asyncio
async def test_four_json_clients_at_a_people_only_table_finish_a_game() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        names = ["ann", "bob", "cy", "dee"]
        people = [await Peer.greeted(server.port, name) for name in names]
        await people[0].create({"Type": "Game", "Option": 4})
        await people[0].until(lambda m: m["Type"] == "Table")
        for peer in people[1:]:
            await peer.send({"Type": "Join", "Table": 1})
            await peer.until(lambda m: m["Type"] == "Table")
        answers = await asyncio.gather(
            *(play_to_the_end(p, random.Random(i)) for i, p in enumerate(people))
        )
        assert all(n > 0 for n in answers)
        wins = []
        for seat, peer in enumerate(people):
            assert check_stream(peer.messages, SEEDS) == 1
            deal = next(m for m in peer.messages if m["Type"] == "Deal")
            assert (deal["Playerid"], deal["Players"]) == (seat, names)
            over = next(m for m in peer.messages if m.get("GameOver"))
            wins.append(over["Win"])
        assert wins.count(True) == 1
        for peer in people:
            await peer.close()


@pytest.mark.asyncio
async def test_a_netcat_user_who_types_help_reads_plain_text_from_then_on() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        peer = await Peer.open(server.port)
        greeting = await peer.recv()
        assert greeting == GREETING
        assert "Type help: any word switches to plain text." in greeting["Message"]
        assert await peer.recv() == HELLO
        await peer.send(b"help\r\n")
        said = [await peer.line()]
        while said[-1] != b"  quit              hang up\r\n":
            said.append(await peer.line())
        assert said[0] == b"In the lobby you can type:\r\n"
        await peer.send(b"create whist 1\r\n")
        while not said[-1].startswith(b"> play one of: "):  # the options, then a card
            said += [line.encode() + b"\r\n" for line in await peer.text_until_prompt()]
        await peer.send(b"leave\r\n")
        said += [line.encode() + b"\r\n" for line in await peer.text_until_prompt()]
        assert said[-1] == b"> create, join, quit (or help)\r\n"
        await peer.send(b"quit\r\n")
        said.append(await peer.line())
        assert said[-1] == b"Ok, bye bye!\r\n"
        assert await peer.at_eof() == b""
        # Plain text only: no JSON line, every line ended as telnet ends it.
        assert not [line for line in said if line.startswith(b"{")]
        assert all(line.endswith(b"\r\n") for line in said)
        await peer.close()


@pytest.mark.asyncio
async def test_a_text_mode_session_over_a_raw_socket() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        # The greeting comes before the server knows the mode: JSON.
        peer = await Peer.welcomed(server.port)
        # A telnet client's first line: negotiation bytes, then the command.
        await peer.send(b"\xff\xfd\x03\xff\xfb\x18\xff\xfa\x18\x00xterm\xff\xf0create\r\n")
        options = await peer.text_until_prompt()
        assert options[0] == "Option 1 - Play against three AI players and start immediately"
        assert options[-1].startswith("> choose an option: 1-6")
        await peer.send(b"1\r\n")
        shown = await peer.text_until_prompt()
        assert shown[0] == "Table 1: you, AI 1, AI 2, AI 3 (strong AI)"
        rng = random.Random(3)
        prompts = 1
        while not any(line.startswith("Game over.") for line in shown):
            command = text_answer(shown, rng)
            assert command is not None, shown
            await peer.send(command.encode() + b"\r\n")
            shown = await peer.text_until_prompt()
            assert not any(line.startswith("! ") for line in shown), (command, shown)
            prompts += 1
        assert prompts > 5
        assert shown[-1] == "> create, join, quit (or help)"
        await peer.send(b"quit\r\n")
        assert await peer.line() == b"Ok, bye bye!\r\n"
        assert await peer.at_eof() == b""
        await peer.close()


# ---------------------------------------------------------------------- framing


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [MAX_LINE + 1, MAX_LINE + 2, 100_000])
async def test_a_line_over_the_limit_is_refused_and_the_connection_closed(size: int) -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        peer = await Peer.greeted(server.port, "ann")
        await peer.send(b"{" + b" " * (size - 2) + b"}\n")
        # Past the stream limit the server stops reading mid-line; closing with unread
        # data may reset the connection, which can drop the error line on its way.
        may_reset = size > MAX_LINE + 2
        with contextlib.suppress(*((ConnectionResetError,) if may_reset else ())):
            assert await peer.recv() == {
                "Type": "Error",
                "Code": "line_too_long",
                "Message": "a line is at most 8192 bytes; goodbye",
            }
            assert await peer.at_eof() == b""
        await peer.close()
        assert server.hub.lobby.sessions == {}


@pytest.mark.asyncio
@pytest.mark.parametrize("ending", [b"\n", b"\r\n"])
async def test_a_line_of_exactly_8192_bytes_is_not_refused(ending: bytes) -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        peer = await Peer.greeted(server.port, "ann")
        head = b'{"Type":"Hello","Message":"create"'
        line = head + b" " * (MAX_LINE - len(head) - 1) + b"}"
        assert len(line) == MAX_LINE
        await peer.send(line + ending)
        assert (await peer.recv())["Message"].startswith("Option 1 - ")
        await peer.until(lambda m: m == {"Type": "Game"})
        # Still connected and usable.
        await peer.send({"Type": "Game", "Option": 6})
        assert [await peer.recv(), await peer.recv()] == [QUESTION, HELLO]
        await peer.close()


@pytest.mark.asyncio
async def test_malformed_lines_keep_the_connection_usable() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        peer = await Peer.greeted(server.port, "ann")
        for bad, code in [
            (b"{not json\n", "bad_json"),
            (b"[1, 2, 3]\n", "bad_json"),
            (b"\xff\xfe\xfd\n", "bad_json"),
            (b'{"Type":"Nope"}\n', "unknown_type"),
            (b'{"Type":7}\r\n', "bad_message"),
            (b'{"Type":"Bid","Bid":20}\n', "not_now"),
        ]:
            await peer.send(b"\n\r\n" + bad)  # blank lines are ignored
            error = await peer.recv()
            assert (error["Type"], error["Code"]) == ("Error", code), bad
            assert await peer.recv() == HELLO
        await peer.send({"Type": "Hello", "Message": "create"})
        assert (await peer.until(lambda m: m["Type"] == "Game")) == {"Type": "Game"}
        await peer.close()


@pytest.mark.asyncio
async def test_a_last_line_without_a_newline_is_read_at_end_of_stream() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        peer = await Peer.greeted(server.port, "ann")
        await peer.send(b'{"Type":"Hello","Message":"quit"}')
        peer.writer.write_eof()
        assert await peer.recv() == {"Type": "Message", "Message": "Ok, bye bye!"}
        assert await peer.at_eof() == b""
        await peer.close()


# ------------------------------------------------------------ leaving, shutdown


@pytest.mark.asyncio
async def test_a_client_disconnecting_mid_game_does_not_stop_the_others() -> None:
    async with running(Limits(grace=0.2)) as server, asyncio.timeout(GAME_TIMEOUT):
        ann, bob = await Peer.greeted(server.port, "ann"), await Peer.greeted(server.port, "bob")
        await ann.create({"Type": "Game", "Option": 5, "Seats": 3, "Bots": 1})
        await ann.until(lambda m: m["Type"] == "Table")
        await bob.send({"Type": "Join", "Table": 1})
        await bob.until(lambda m: m["Type"] == "Table")

        async def bob_plays_a_little_then_goes() -> None:
            assert await play_to_the_end(bob, random.Random(2), stop_after=3) == 3
            bob.writer.transport.abort()  # gone, without a goodbye

        await asyncio.gather(play_to_the_end(ann, random.Random(1)), bob_plays_a_little_then_goes())
        said = [m["Message"] for m in ann.messages if m["Type"] == "Message"]
        lost = said.index("bob lost their connection; seat 2 waits 0.2 s for them to come back")
        back = "bob did not come back in 0.2 s; an AI plays seat 2 until they do"
        assert said.index(back) > lost
        assert check_stream(ann.messages, SEEDS) == 1
        await ann.close()
        await bob.close()
        assert server.hub.lobby.tables == {}


@pytest.mark.asyncio
async def test_close_tells_every_client_and_closes_them_and_is_idempotent() -> None:
    server = Server(Hub(seed_source=lambda: SEED), LOCAL)
    await server.start()
    port = server.port
    async with asyncio.timeout(GAME_TIMEOUT):
        lobby = await Peer.greeted(port, "ann")
        playing = await Peer.greeted(port, "bob")
        await playing.create({"Type": "Game", "Option": 1})
        await playing.until(lambda m: is_prompt(m) and "Legal" in m)
        texter = await Peer.open(port)
        await texter.recv()
        await texter.recv()
        await texter.send(b"help\r\n")
        assert await texter.line() == b"In the lobby you can type:\r\n"

        started = time.monotonic()
        await server.close()
        await server.close()  # again: nothing to do
        assert time.monotonic() - started < 5
        for peer in (lobby, playing):
            assert (
                await peer.until(lambda m: m["Type"] == "Message" and "shutting" in m["Message"])
                == BYE
            )
            assert await peer.at_eof() == b""
        assert (await texter.at_eof()).endswith(b"The server is shutting down. Bye!\r\n")
        assert server.hub.lobby.sessions == {}
        with pytest.raises(ConnectionRefusedError):  # no longer listening
            await asyncio.open_connection("127.0.0.1", port)
        for peer in (lobby, playing, texter):
            await peer.close()


@pytest.mark.asyncio
async def test_close_before_start_and_with_nobody_connected() -> None:
    server = Server(Hub(), LOCAL)
    await server.close()  # never started: nothing to do
    await server.start()
    async with asyncio.timeout(READ_TIMEOUT):
        await server.close()
        await server.close()


# ------------------------------------------------------------ the command line


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_serve_in_a_subprocess_stops_cleanly_on_sigterm(loop: str) -> None:
    """On either event loop (``--loop``; the tests' live servers otherwise take the
    default, auto: uvloop, which the test extra installs)."""
    proc, port = start_server("--loop", loop)
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=READ_TIMEOUT)
        with sock, sock.makefile("rb") as lines:

            def recv() -> Message:
                msg: Message = json.loads(lines.readline())
                return msg

            assert [recv(), recv()] == [GREETING, HELLO]
            sock.sendall(b'{"Type":"Hello","Message":"create","Name":"ann"}\n')
            while recv() != {"Type": "Game"}:
                pass
            sock.sendall(b'{"Type":"Game","Option":2}\n')
            rng = random.Random(5)
            for _ in range(3):  # a few answers
                while not (is_prompt(msg := recv()) and "Legal" in msg):
                    pass
                sock.sendall(json.dumps(answer_from_legal(msg, rng)).encode() + b"\n")
            proc.send_signal(signal.SIGTERM)
            started = time.monotonic()
            assert proc.wait(timeout=5) == 0
            assert time.monotonic() - started < 5
            rest = [json.loads(line) for line in lines.read().splitlines()]
            assert rest[-1] == BYE
        out, err = proc.communicate(timeout=5)
        assert f"hundred_server listening on 127.0.0.1:{port}".encode() in out
        assert f"INFO event loop: {loop}".encode() in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=5)


def test_serve_loop_uvloop_without_uvloop_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop raises ImportError
    assert cli.main(["serve", "--memory", "--port", "0", "--loop", "uvloop"]) == 2
    err = capsys.readouterr().err
    assert "hundred-server serve: --loop uvloop needs uvloop" in err
    assert "pip install 'hundred_server[fast]'" in err


@pytest.mark.asyncio
async def test_reconnect_mid_trick_with_the_token_and_finish_the_game() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await Peer.greeted(server.port, "ann")
        await ann.create({"Type": "Game", "Option": 2})
        seat = await ann.until(lambda m: m["Type"] == "Seat")
        rng = random.Random(4)
        while True:  # to a trick with a card on it, ann to play
            prompt = await ann.until(lambda m: is_prompt(m) and "Legal" in m)
            if prompt["Type"] == "Play" and "Lead" in prompt:
                break
            await ann.send(answer_from_legal(prompt, rng))
        ann.writer.transport.abort()  # the connection is lost, mid-trick

        again = await Peer.greeted(server.port, "someone")
        await again.send({"Type": "Hello", "Token": seat["Token"]})
        assert await again.recv() == seat
        assert (await again.recv())["Type"] == "Table"
        assert (await again.recv()) == next(m for m in ann.messages if m["Type"] == "Commit")
        snapshot = await again.recv()
        assert snapshot["Type"] == "Snapshot"
        assert snapshot["Phase"] == "tricks"
        assert snapshot["Trick"]
        assert set(prompt["Legal"]) <= set(snapshot["Hand"])
        assert await again.recv() == prompt  # the same prompt, the same Seq
        await again.send(answer_from_legal(prompt, rng))
        await play_to_the_end(again, rng)
        assert check_stream(again.messages, SEEDS) == 1
        await again.close()
        assert server.hub.lobby.tables == {}


# ------------------------------------------------------------------ watching and chat


@pytest.mark.asyncio
async def test_a_second_connection_watches_a_game_against_ai_and_chats() -> None:
    """ann plays against three (naive) AI seats; wat lists the tables to watch, watches
    hers from her first prompt to the end of the game and wishes her luck; both see the
    chat, and wat's stream holds no card that is not face up."""
    server = Server(Hub(seed_source=lambda: SEED, ai=AISettings("naive")), LOCAL)
    await server.start()
    try:
        async with asyncio.timeout(GAME_TIMEOUT):
            ann = await Peer.greeted(server.port, "ann")
            await ann.create({"Type": "Game", "Option": 1})
            first = await ann.until(lambda m: is_prompt(m) and "Legal" in m)
            since = len(ann.messages)
            wat = await Peer.greeted(server.port, "wat")
            await wat.send({"Type": "Hello", "Message": "watch"})
            listed = await wat.recv()
            assert (listed["Watch"], [t["Table"] for t in listed["Tables"]]) == (True, [1])
            came = len(wat.messages)
            await wat.send({"Type": "Watch", "Table": 1})
            told = [await wat.recv() for _ in range(4)]
            assert [m["Type"] for m in told] == ["Table", "Commit", "Snapshot", first["Type"]]
            assert told[3] == {k: v for k, v in first.items() if k != "Legal"}
            luck = {"Type": "Chat", "From": "wat", "Text": "good luck, ann", "Where": "table"}
            await wat.send({"Type": "Chat", "Text": " good luck, ann\n"})
            assert await wat.recv() == luck  # the echo, in order
            assert await ann.recv() == luck
            await ann.send(answer_from_legal(first, random.Random(9)))
            answers, over = await asyncio.gather(
                play_to_the_end(ann, random.Random(10)),
                wat.until(lambda m: bool(m.get("GameOver"))),
            )
            assert answers > 0
            assert "Win" not in over
            assert [await wat.recv() for _ in range(3)][1:] == [QUESTION, HELLO]
            assert check_stream(ann.messages, SEEDS) == 1
            watched = wat.messages[came:]
            assert check_watcher_stream(watched) == 1
            start = watched.index(told[2]) + 2  # after the snapshot and the prompt
            assert public_part(watched[start:]) == public_part(ann.messages[since:])
            await wat.send({"Type": "Hello", "Message": "quit"})
            assert await wat.recv() == {"Type": "Message", "Message": "Ok, bye bye!"}
            assert await wat.at_eof() == b""
            for peer in (ann, wat):
                await peer.close()
    finally:
        await server.close()


# ------------------------------------------------------------ behind a load balancer


def proxied(limits: Limits | None = None) -> contextlib.AbstractAsyncContextManager[Server]:
    """A server whose TCP connections start with a load balancer's PROXY header."""
    return running(limits, proxy_protocol=True)


def v1(client: str, port: int = 40000) -> bytes:
    return f"PROXY TCP4 {client} 127.0.0.1 {port} 7110\r\n".encode()


def v2(client: str) -> bytes:
    from ipaddress import IPv4Address

    from proxyprotocol.result import ProxyResultIPv4
    from proxyprotocol.v2 import ProxyProtocolV2

    result = ProxyResultIPv4((IPv4Address(client), 40000), (IPv4Address("127.0.0.1"), 7110))
    return ProxyProtocolV2().pack(result)


def addresses(server: Server) -> list[str | None]:
    return [link.address for link in server.hub.links.values()]


@pytest.mark.asyncio
async def test_behind_a_load_balancer_the_proxy_headers_address_is_the_clients() -> None:
    """Each connection's PROXY header (v1, or v2 in pieces, before or with its first
    line) gives the client's address, which the per-address limits count; a balancer's
    own connection (v2 LOCAL, a health check) is counted as the balancer's."""
    limits = Limits(max_connections_per_address=1)
    async with proxied(limits) as server, asyncio.timeout(30):
        ann = await Peer.open(server.port)
        await ann.send(v1("203.0.113.7") + b'{"Type":"Hello","Name":"ann"}\n')
        assert [await ann.recv(), await ann.recv()] == [GREETING, HELLO]
        assert await ann.recv() == {"Type": "Message", "Message": "Hello, ann."}
        header = v2("198.51.100.9")
        bob = await Peer.open(server.port)
        for piece in (header[:5], header[5:20], header[20:]):  # as it may arrive
            await bob.send(piece)
            await asyncio.sleep(0.05)
        assert [await bob.recv(), await bob.recv()] == [GREETING, HELLO]
        assert sorted(addresses(server)) == ["198.51.100.9", "203.0.113.7"]
        again = await Peer.open(server.port)  # ann's address once more: one too many
        await again.send(v1("203.0.113.7", 40001))
        refused = await again.recv()
        assert refused["Code"] == "too_many_connections"
        assert await again.at_eof() == b""
        from proxyprotocol.result import ProxyResultLocal
        from proxyprotocol.v2 import ProxyProtocolV2

        check = await Peer.open(server.port)
        await check.send(ProxyProtocolV2().pack(ProxyResultLocal()))
        assert [await check.recv(), await check.recv()] == [GREETING, HELLO]
        assert "127.0.0.1" in addresses(server)
        for peer in (ann, bob, again, check):
            await peer.close()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "first",
    [
        b'{"Type":"Hello"}\n',  # no header at all: not from the balancer
        b"PROXY TCP4 not-an-address 127.0.0.1 1 2\r\n",
        b"PROXY " + b"9" * 5000,  # a line that never ends
    ],
)
async def test_a_connection_without_a_good_proxy_header_is_closed_unanswered(
    first: bytes,
) -> None:
    async with proxied() as server, asyncio.timeout(30):
        peer = await Peer.open(server.port)
        await peer.send(first)
        assert await peer.at_eof() == b""
        assert server.hub.links == {}
        await peer.close()


@pytest.mark.asyncio
async def test_a_connection_that_sends_no_proxy_header_in_time_is_closed() -> None:
    async with proxied(Limits(handshake_timeout=0.2)) as server, asyncio.timeout(30):
        peer = await Peer.open(server.port)
        await peer.send(b"PROX")  # and then nothing
        began = time.monotonic()
        assert server.hub.addresses.half_open() == 1
        assert await peer.at_eof() == b""
        assert 0.1 < time.monotonic() - began < READ_TIMEOUT
        assert server.hub.links == {}
        assert server.hub.addresses.half_open() == 0
        await peer.close()


@pytest.mark.asyncio
async def test_connections_waiting_for_their_proxy_header_are_capped_in_all() -> None:
    """Behind a balancer every connection has its address until the header says the
    client's, so only the cap in all applies: one over it is closed at once, and a
    connection that then sends its header is served."""
    limits = Limits(max_half_open=3, max_half_open_per_address=1)
    async with proxied(limits) as server, asyncio.timeout(30):
        waiting = [await Peer.open(server.port) for _ in range(3)]
        for peer in waiting:
            await peer.send(b"PROXY TCP4 ")  # and then nothing, for now
        await eventually(lambda: server.hub.addresses.half_open() == 3)
        over = await Peer.open(server.port)
        assert await over.at_eof() == b""
        assert server.hub.addresses.half_open() == 3
        await waiting[0].send(v1("203.0.113.7")[len(b"PROXY TCP4 ") :])
        assert await waiting[0].recv() == GREETING
        assert server.hub.addresses.half_open() == 2
        port = waiting[0].writer.get_extra_info("sockname")[1]
        assert [link.peer for link in server.hub.links.values()] == [
            f"203.0.113.7 via 127.0.0.1:{port}"
        ]
        for peer in [*waiting, over]:
            await peer.close()


def test_serve_proxy_protocol_without_its_package_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "proxyprotocol", None)  # import raises ImportError
    assert cli.main(["serve", "--memory", "--port", "0", "--proxy-protocol"]) == 2
    err = capsys.readouterr().err
    assert "hundred-server serve: --proxy-protocol needs the proxy-protocol package" in err
    assert "pip install 'hundred_server[proxy]'" in err


SIGNATURE_V2 = b"\r\n\r\n\x00\r\nQUIT\n"


@settings(max_examples=300, deadline=None)
@example(  # a v2 header that the parser itself slips on (struct.error)
    start=SIGNATURE_V2 + b"!,\x00\x0c\x01\xcc\x03\x04\x05\x06\x07\xed\x00\x01\x00\x02k",
    noise=b"",
    flips=[],
    cuts=[],
)
@given(
    start=st.sampled_from([SIGNATURE_V2, b"PROXY ", v1("192.0.2.1"), v2("192.0.2.1")]),
    noise=st.binary(max_size=80),
    flips=st.lists(st.tuples(st.integers(0, 200), st.integers(0, 255)), max_size=4),
    cuts=st.lists(st.integers(1, 40), max_size=6),
)
def test_a_proxy_header_reader_says_header_none_yet_or_value_error_whatever_comes(
    start: bytes, noise: bytes, flips: list[tuple[int, int]], cuts: list[int]
) -> None:
    """Whatever bytes come, in whatever pieces, ``_ProxyHeader.feed`` gives the
    client's address and the rest, or None (not whole yet), or raises ValueError:
    never anything else (the parser slips on some bad v2 headers with struct.error)."""
    data = bytearray(start + noise)
    for at, value in flips:
        data[at % len(data)] = value
    reader = _ProxyHeader()
    pieces, rest = [], bytes(data)
    for cut in cuts:
        pieces.append(rest[:cut])
        rest = rest[cut:]
    pieces.append(rest)
    try:
        for n, piece in enumerate(pieces):
            got = reader.feed(piece)
            if got is not None:
                address, after = got
                assert address is None or isinstance(address, str)
                assert bytes(data).endswith(after + b"".join(pieces[n + 1 :]))  # the rest, whole
                break
    except ValueError:
        pass


@pytest.mark.asyncio
async def test_a_proxy_header_the_parser_slips_on_closes_only_its_connection() -> None:
    bad = SIGNATURE_V2 + b"!,\x00\x0c\x01\xcc\x03\x04\x05\x06\x07\xed\x00\x01\x00\x02k"
    async with proxied() as server, asyncio.timeout(30):
        peer = await Peer.open(server.port)
        await peer.send(bad)
        assert await peer.at_eof() == b""
        await peer.close()
        ann = await Peer.open(server.port)  # the next is served as ever
        await ann.send(v1("203.0.113.7"))
        assert [await ann.recv(), await ann.recv()] == [GREETING, HELLO]
        await ann.close()
