"""The web listener (websocket.py, ``serve --http-port``) over real sockets on
127.0.0.1 (port 0): the page's static files over HTTP, and the JSON protocol over a
WebSocket, one message a text frame, with the TCP port's limits, tokens and
reconnection. Every wait is bounded."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import random
import socket
import urllib.error
import urllib.request
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.client import ClientProtocol
from websockets.datastructures import Headers
from websockets.exceptions import InvalidStatus
from websockets.uri import parse_uri

from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.hub import Hub
from hundred_server.core.lobby import Limits
from hundred_server.io import outbox as server_module
from hundred_server.io.server import Server
from hundred_server.io.websocket import MAX_FRAME, StaticFile, forwarded_address, load_static
from hundred_server.protocol.wire import MAX_LINE
from tests.io.test_slow_reader import flood_until_dropped
from tests.support.hub_harness import (
    GREETING,
    HELLO,
    QUESTION,
    answer_from_legal,
    check_stream,
    is_prompt,
)
from tests.support.live_server import eventually, free_port, start_server, started, stop_server
from tests.support.peer import READ_TIMEOUT, WsPeer
from tests.support.peer import play as play_from_legal

SEED = "over-websockets"
SEEDS: defaultdict[int, str] = defaultdict(lambda: SEED)
GAME_TIMEOUT = 30.0
PAGE = b"<!doctype html><title>t</title><script src=app.js></script>"
STATIC = {
    "/": StaticFile("text/html; charset=utf-8", PAGE),
    "/index.html": StaticFile("text/html; charset=utf-8", PAGE),
    "/app.js": StaticFile("text/javascript; charset=utf-8", b"console.log(1);\n"),
}

Message = dict[str, Any]


@contextlib.asynccontextmanager
async def running(
    limits: Limits | None = None, forwarded_for: bool = False
) -> AsyncIterator[Server]:
    hub = Hub(seed_source=lambda: SEED, limits=limits, ai=AISettings("naive"))
    listeners = Listeners("127.0.0.1", 0, http_port=0, forwarded_for=forwarded_for)
    server = Server(hub, Settings(limits or Limits(), listeners), static=STATIC)
    async with started(server):
        yield server


async def greeted(server: Server, name: str) -> WsPeer:
    assert server.http_port is not None
    peer = await WsPeer.greeted(server.http_port, name)
    assert isinstance(peer, WsPeer)
    return peer


async def seated(server: Server, name: str, game: Message) -> WsPeer:
    """``name`` at a new table made with the ``Game`` answer ``game``."""
    peer = await greeted(server, name)
    await peer.create(game)
    return peer


async def play(peer: WsPeer, rng: random.Random, stop_after: int | None = None) -> int:
    """Answer from Legal until the game is over (or ``stop_after`` answers)."""
    before = peer.answers
    await play_from_legal(peer, rng, stop_after)
    return peer.answers - before


def slow_reader_server() -> Server:
    """A server that queues 64 KiB at most for a client, and no rate limit to speak of:
    a client may be slow to read, not fast to send."""
    limits = Limits(rate=1e9, burst=10**9)
    hub = Hub(limits=limits, ai=AISettings("naive"))
    settings = Settings(limits, Listeners("127.0.0.1", 0, http_port=0))
    return Server(hub, settings, outgoing_limit=64 * 1024)


async def served(server: Server) -> None:
    """A new connection is welcomed (and closed): the server goes on."""
    peer = await WsPeer.welcomed(server.http_port)
    await peer.close()


async def unread(server: Server) -> tuple[ClientProtocol, asyncio.StreamWriter]:
    """A WebSocket client in the library's sans-I/O protocol, on a socket with a small
    buffer that is never read past the opening handshake."""
    url = f"ws://127.0.0.1:{server.http_port}/ws"
    client = ClientProtocol(parse_uri(url))
    client.send_request(client.connect())
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # fill up soon
    sock.connect(("127.0.0.1", server.http_port or 0))
    sock.setblocking(False)
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.write(client.data_to_send()[0])
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT)
    client.receive_data(head)
    assert client.handshake_exc is None
    return client, writer


async def half_open(server: Server) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to the browser port that sends half a request line and stops."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.http_port)
    writer.write(b"GET /ws HT")
    await writer.drain()
    return reader, writer


async def stuck_handshakes(
    server: Server, count: int
) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """``count`` half-open connections (``half_open``), once the server counts them."""
    stuck = [await half_open(server) for _ in range(count)]
    await eventually(lambda: server.hub.addresses.half_open("127.0.0.1") == count)
    return stuck


def get(port: int | None, path: str) -> tuple[int, dict[str, str], bytes]:
    url = f"http://127.0.0.1:{port}{path}"
    try:
        with urllib.request.urlopen(url, timeout=READ_TIMEOUT) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, dict(exc.headers), exc.read()


# ------------------------------------------------------------------ the page


@pytest.mark.asyncio
async def test_the_page_and_its_files_are_served_and_nothing_else() -> None:
    async with running() as server:
        status, headers, body = await asyncio.to_thread(get, server.http_port, "/")
        assert (status, headers["Content-Type"], body) == (200, "text/html; charset=utf-8", PAGE)
        assert headers["Content-Length"] == str(len(PAGE))
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        status, headers, body = await asyncio.to_thread(get, server.http_port, "/app.js?v=2")
        assert (status, headers["Content-Type"]) == (200, "text/javascript; charset=utf-8")
        for path in ("/nope.js", "/../setup.cfg", "/%2e%2e/setup.cfg", "/static/app.js"):
            status, _, body = await asyncio.to_thread(get, server.http_port, path)
            assert (status, body) == (404, b"not found\n"), path
        # /ws without an Upgrade is not a page: the library says what it wants.
        status, _, _ = await asyncio.to_thread(get, server.http_port, "/ws")
        assert status == 426


def test_the_static_folder_is_read_once_flat_and_by_type(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_bytes(PAGE)
    (tmp_path / "app.js").write_text("1;\n")
    (tmp_path / "notes.md").write_text("not served")
    (tmp_path / ".hidden.js").write_text("not served")
    (tmp_path / "sub").mkdir()
    files = load_static(tmp_path)
    assert sorted(files) == ["/", "/app.js", "/index.html"]
    assert files["/"] == files["/index.html"] == StaticFile("text/html; charset=utf-8", PAGE)
    assert load_static(tmp_path / "missing") == {}


# ------------------------------------------------------------------ the protocol


@pytest.mark.asyncio
async def test_a_websocket_client_plays_a_whole_game_against_three_ai() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await seated(server, "ann", {"Type": "Game", "Option": 1})
        assert await play(ann, random.Random(1)) > 0
        assert (await ann.recv())["Type"] == "Reveal"
        assert [await ann.recv(), await ann.recv()] == [QUESTION, HELLO]
        assert check_stream(ann.messages, SEEDS) == 1
        await ann.send({"Type": "Hello", "Message": "quit"})
        assert await ann.recv() == {"Type": "Message", "Message": "Ok, bye bye!"}
        assert await ann.closed() == 1000


@pytest.mark.asyncio
async def test_a_websocket_and_a_tcp_client_share_a_table() -> None:
    """The lobby cannot tell the transports apart: a table made over a WebSocket is
    joined over TCP, and the game is played out by both."""
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await seated(server, "ann", {"Type": "Game", "Option": 5, "Seats": 4, "Bots": 2})
        await ann.until(lambda m: m["Type"] == "Table")
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        try:
            lines = [json.loads(await reader.readline()) for _ in range(2)]
            assert lines == [GREETING, HELLO]  # the main port's greeting
            writer.write(b'{"Type":"Hello","Name":"bob"}\n{"Type":"Join","Table":1}\n')
            bob_rng, ann_rng = random.Random(2), random.Random(3)

            async def bob() -> None:
                while True:
                    line = await asyncio.wait_for(reader.readline(), READ_TIMEOUT)
                    msg = json.loads(line)
                    if msg.get("GameOver"):
                        return
                    if is_prompt(msg) and "Legal" in msg:
                        answer = answer_from_legal(msg, bob_rng)
                        writer.write(json.dumps(answer).encode() + b"\n")

            await asyncio.gather(play(ann, ann_rng), bob())
        finally:
            writer.close()
        assert check_stream(ann.messages, SEEDS) == 1
        await ann.close()


@pytest.mark.asyncio
async def test_a_token_takes_the_seat_back_over_a_new_websocket() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await seated(server, "ann", {"Type": "Game", "Option": 1})
        seat = await ann.until(lambda m: m["Type"] == "Seat")
        assert await play(ann, random.Random(4), stop_after=3) == 3
        await ann.close()  # a reload: the page is gone, its seat waits (grace)
        again = await WsPeer.welcomed(server.http_port)
        await again.send({"Type": "Hello", "Token": seat["Token"]})
        back = await again.until(lambda m: m["Type"] == "Seat")
        assert (back["Table"], back["Playerid"]) == (seat["Table"], seat["Playerid"])
        prompt = await again.until(lambda m: is_prompt(m) and "Legal" in m)
        table = server.hub.lobby.tables[seat["Table"]]
        assert prompt["Seq"] == table.seq
        assert prompt["Playerid"] == seat["Playerid"]
        await again.close()


@pytest.mark.asyncio
async def test_bad_frames_get_typed_errors_and_change_nothing() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await greeted(server, "ann")
        # No text mode on a WebSocket: a word is malformed JSON.
        await ann.send("create")
        assert (await ann.recv())["Code"] == "bad_json"
        assert await ann.recv() == HELLO  # asked again
        await ann.ws.send(b'{"Type":"Hello"}')  # a binary frame is not read
        assert await ann.recv() == {
            "Type": "Error",
            "Code": "bad_json",
            "Message": "a binary frame was not read: send each message as a text frame",
        }
        assert await ann.recv() == HELLO  # asked again
        # Two messages in one frame are one malformed message, not two.
        await ann.send('{"Type":"Hello"}\n{"Type":"Hello"}')
        assert (await ann.recv())["Code"] == "bad_json"
        assert await ann.recv() == HELLO  # asked again
        await ann.send({"Type": "Hello", "Message": "create"})  # still usable
        assert (await ann.until(lambda m: m == {"Type": "Game"})) == {"Type": "Game"}
        await ann.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [MAX_LINE, MAX_LINE + 1, MAX_FRAME + 1])
async def test_a_frame_over_the_line_limit_is_refused_and_the_connection_closed(
    size: int,
) -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await greeted(server, "ann")
        head = '{"Type":"Hello"'
        await ann.send(head + " " * (size - len(head) - 1) + "}")
        if size == MAX_LINE:  # exactly the limit: read
            assert [await ann.recv(), await ann.recv()] == [QUESTION, HELLO]
            await ann.close()
            return
        if size <= MAX_FRAME:  # the server's own error, then it closes
            assert await ann.recv() == {
                "Type": "Error",
                "Code": "line_too_long",
                "Message": f"a line is at most {MAX_LINE} bytes; goodbye",
            }
            assert await ann.closed() == 1009  # message too big
            assert ann.ws.close_reason == "line_too_long"
        else:  # past what the library reads at all: "message too big"
            assert await ann.closed() == 1009
        await asyncio.sleep(0.05)
        assert server.hub.lobby.sessions == {}


@pytest.mark.asyncio
async def test_the_rate_limit_holds_on_a_websocket() -> None:
    limits = Limits(rate=1.0, burst=2, max_refused=1)
    async with running(limits) as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await WsPeer.welcomed(server.http_port)
        for _ in range(2):  # the burst
            await ann.send({"Type": "Hello"})
            assert [await ann.recv(), await ann.recv()] == [QUESTION, HELLO]
        await ann.send({"Type": "Hello"})
        assert (await ann.recv())["Code"] == "rate_limited"
        assert (await ann.recv()) == HELLO  # what it was asked, again
        await ann.ws.send(b"binary frames count too")
        last = await ann.recv()
        assert (last["Code"], last["Message"]) == (
            "rate_limited",
            "over 1 lines a second for too long; goodbye",
        )
        assert await ann.closed() == 1008  # policy violation
        assert ann.ws.close_reason == "rate_limited"


@pytest.mark.asyncio
async def test_pings_count_against_the_rate_and_too_many_close_with_1008() -> None:
    """The library answers a ping by itself; the server still counts it, as a line
    that moves no game on, so a ping flood is closed as a line flood is."""
    limits = Limits(rate=0.01, burst=2, max_refused=3)
    async with running(limits) as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await WsPeer.welcomed(server.http_port)
        for _ in range(5):  # the burst, and three over it: answered, still open
            await asyncio.wait_for(await ann.ws.ping(), READ_TIMEOUT)
        assert server.hub.links[1].refused == 3
        await ann.ws.ping()  # one more over it
        last = await ann.recv()
        assert (last["Code"], last["Message"]) == (
            "rate_limited",
            "over 0.01 pings a second for too long; goodbye",
        )
        assert await ann.closed() == 1008
        assert ann.ws.close_reason == "rate_limited"
        await eventually(lambda: server.hub.lobby.sessions == {})


@pytest.mark.asyncio
async def test_pings_from_a_client_that_does_not_read_are_bounded_by_the_outgoing_limit(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Pongs are bytes written like any other: a client that sends pings and reads
    nothing is dropped once its pongs fill the outgoing limit."""
    async with started(slow_reader_server()) as server:
        client, writer = await unread(server)
        for _ in range(100):
            client.send_ping(b"p" * 125)  # the largest: 125 bytes of pong each
        pings = b"".join(client.data_to_send())
        await flood_until_dropped(server, writer, pings * 5, caplog)
        writer.close()
        await served(server)  # nobody waited on it


@pytest.mark.asyncio
async def test_a_ping_flood_that_is_never_read_ends_within_the_grace() -> None:
    """Over the rate, a client that reads nothing is failed: its close frame is
    written, nothing more it sends is read, and its socket is gone within FAIL_GRACE
    (not held for the closing handshake it never answers)."""
    limits = Limits(rate=0.01, burst=2, max_refused=3)
    async with running(limits) as server, asyncio.timeout(GAME_TIMEOUT):
        client, writer = await unread(server)
        for _ in range(100):
            client.send_ping(b"p" * 125)
        pings = b"".join(client.data_to_send())
        ended: BaseException | None = None
        try:
            for _ in range(
                round(40 * server_module.FAIL_GRACE)
            ):  # for four times the grace at most
                writer.write(pings)
                await asyncio.wait_for(writer.drain(), server_module.FAIL_GRACE + 2)
                await asyncio.sleep(0.1)
        except (ConnectionError, TimeoutError) as exc:
            ended = exc
        assert server.hub.lobby.sessions == {}
        # The server reset it: a drain that timed out is a socket it still holds.
        assert isinstance(ended, ConnectionError), ended
        writer.close()


# ------------------------------------------------------------ unfinished handshakes


@pytest.mark.asyncio
async def test_unfinished_handshakes_are_capped_per_address_and_end_at_the_deadline() -> None:
    limits = Limits(max_half_open_per_address=2, handshake_timeout=0.5)
    async with running(limits) as server, asyncio.timeout(GAME_TIMEOUT):
        stuck = await stuck_handshakes(server, 2)
        over, closed = await half_open(server)  # a third: closed at once, unanswered
        with contextlib.suppress(ConnectionResetError):
            assert await asyncio.wait_for(over.read(), READ_TIMEOUT) == b""
        assert server.hub.addresses.half_open() == 2
        # Another address is served meanwhile.
        url = f"ws://127.0.0.1:{server.http_port}/ws"
        async with connect(url, local_addr=("127.0.0.2", 0), open_timeout=READ_TIMEOUT) as ws:
            assert json.loads(await asyncio.wait_for(ws.recv(), READ_TIMEOUT)) == QUESTION
        # At the deadline the unfinished ones are closed, and the address is served.
        await eventually(lambda: server.hub.addresses.half_open() == 0)
        for _, writer in [*stuck, (over, closed)]:
            writer.close()
        await served(server)


@pytest.mark.asyncio
async def test_unfinished_handshakes_count_against_the_connections_of_their_address() -> None:
    limits = Limits(max_connections_per_address=2)
    async with running(limits) as server, asyncio.timeout(GAME_TIMEOUT):
        stuck = await stuck_handshakes(server, 2)
        ann = await WsPeer.open(server.http_port)
        refused = await ann.recv()
        assert refused["Code"] == "too_many_connections"
        for _, writer in stuck:
            writer.close()
        await eventually(lambda: server.hub.addresses.half_open() == 0)
        await served(server)


@pytest.mark.asyncio
async def test_connection_limits_refuse_a_websocket_with_the_reason() -> None:
    limits = Limits(max_connections_per_address=1)
    async with running(limits) as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await WsPeer.welcomed(server.http_port)
        other = await WsPeer.open(server.http_port)
        refused = await other.recv()
        assert refused["Code"] == "too_many_connections"
        assert await other.closed() == 1000
        await ann.close()


@pytest.mark.asyncio
async def test_behind_a_balancer_the_limits_count_the_forwarded_address(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limits = Limits(max_connections_per_address=1)
    async with running(limits, forwarded_for=True) as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await WsPeer.open(
            server.http_port, "203.0.113.9, 10.0.0.1"
        )  # the balancer adds the last
        bob = await WsPeer.open(
            server.http_port, "10.0.0.2"
        )  # from the same balancer, another person
        for peer in (ann, bob):
            assert [await peer.recv(), await peer.recv()] == [QUESTION, HELLO]
        again = await WsPeer.open(server.http_port, "198.51.100.7, 10.0.0.1")  # ann's address again
        refused = await again.recv()
        assert refused["Code"] == "too_many_connections"
        assert await again.closed() == 1000
        with pytest.raises(InvalidStatus) as refusal:  # no header: not through the balancer
            await WsPeer.open(server.http_port)
        assert refusal.value.response.status_code == 400
        with pytest.raises(InvalidStatus):
            await WsPeer.open(server.http_port, "unknown")
        assert "refused a WebSocket from 127.0.0.1: no X-Forwarded-For" in caplog.text
        status, _, body = await asyncio.to_thread(get, server.http_port, "/")  # pages: as ever
        assert (status, body) == (200, PAGE)
        await ann.close()
        await bob.close()


@pytest.mark.asyncio
async def test_without_the_option_the_header_is_not_believed() -> None:
    limits = Limits(max_connections_per_address=1)
    async with running(limits) as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await WsPeer.welcomed(server.http_port, forwarded="10.0.0.1")
        other = await WsPeer.open(server.http_port, "10.0.0.2")  # both are 127.0.0.1 here
        assert (await other.recv())["Code"] == "too_many_connections"
        await ann.close()


@pytest.mark.parametrize(
    ("values", "address"),
    [
        (["203.0.113.9"], "203.0.113.9"),
        (["203.0.113.9, 10.0.0.1"], "10.0.0.1"),
        (["1.2.3.4", "10.0.0.1,10.0.0.2"], "10.0.0.2"),  # the last header's last entry
        (["10.0.0.1:4711"], "10.0.0.1"),
        (["2001:db8::1"], "2001:db8::1"),
        (["[2001:DB8::1]:443"], "2001:db8::1"),
        (["2001:0db8:0000::0001"], "2001:db8::1"),
        ([], None),
        ([""], None),
        (["10.0.0.1, "], None),
        (["unknown"], None),
        (["10.0.0.1, _hidden"], None),
        (["[2001:db8::1"], None),
        (["300.1.2.3"], None),
    ],
)
def test_the_forwarded_address_is_the_last_entry_in_standard_form(
    values: list[str], address: str | None
) -> None:
    headers = Headers()
    for value in values:
        headers["X-Forwarded-For"] = value  # Headers keeps every value of a name
    assert forwarded_address(headers) == address


#: What a header's value may hold as the library reads it off the wire (latin-1: tab,
#: and no other control character), mostly of the characters addresses are made of.
HEADER_TEXT = st.text(
    st.one_of(
        st.sampled_from("0123456789abcdefABCDEF.:[], \t"),
        st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f"),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(HEADER_TEXT, max_size=3))
def test_any_forwarded_header_gives_an_address_or_none(values: list[str]) -> None:
    headers = Headers()
    for value in values:
        headers["X-Forwarded-For"] = value
    found = forwarded_address(headers)
    assert found is None or str(ipaddress.ip_address(found)) == found


@pytest.mark.asyncio
async def test_shutdown_says_goodbye_on_every_websocket() -> None:
    async with running() as server, asyncio.timeout(GAME_TIMEOUT):
        ann = await seated(server, "ann", {"Type": "Game", "Option": 1})
        await ann.until(lambda m: is_prompt(m) and "Legal" in m)
        await server.close()
        bye = await ann.until(lambda m: m.get("Type") == "Message" and "Bye" in m["Message"])
        assert bye["Message"].startswith("The server is shutting down")
        assert await ann.closed() == 1000
        with pytest.raises(ConnectionRefusedError):  # nobody listens any more
            await connect(f"ws://127.0.0.1:{server.http_port}/ws", open_timeout=1)


@pytest.mark.asyncio
async def test_serve_with_an_http_port_serves_the_page_and_the_websocket() -> None:
    """``serve --http-port`` in its own process (as ``make run`` starts it): the
    package's own page at ``/`` and the protocol at ``/ws``."""
    http_port = free_port()
    process, port = start_server("--http-port", str(http_port))
    try:
        ws = None
        for _ in range(100):  # the web listener starts just after the TCP one
            try:
                ws = await connect(f"ws://127.0.0.1:{http_port}/ws", open_timeout=READ_TIMEOUT)
                break
            except OSError:
                await asyncio.sleep(0.05)
        assert ws is not None, "the web listener never listened"
        async with ws:
            peer = WsPeer(ws)
            assert [await peer.recv(), await peer.recv()] == [QUESTION, HELLO]
        status, headers, body = await asyncio.to_thread(get, http_port, "/")
        assert (status, headers["Content-Type"]) == (200, "text/html; charset=utf-8")
        assert body == load_static()["/"].body
    finally:
        assert stop_server(process) == 0
    out, _ = process.communicate(timeout=5)
    shown = f"or a browser at http://127.0.0.1:{http_port}/"
    assert f"listening on 127.0.0.1:{port}".encode() in out
    assert shown.encode() in out


@pytest.mark.asyncio
async def test_a_websocket_that_stops_reading_is_dropped_and_the_server_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """As on TCP (test_slow_reader.py): the transport's buffer is its outgoing queue,
    bounded; a client that reads nothing is dropped, and nobody waits for it."""
    async with started(slow_reader_server()) as server:
        client, writer = await unread(server)
        for text in ('{"Type":"Hello","Message":"create"}', '{"Type":"Game","Option":6}'):
            client.send_text(text.encode())
        pair = b"".join(client.data_to_send())
        await flood_until_dropped(server, writer, pair * 500, caplog)
        writer.close()
        await served(server)  # nobody waited on it
