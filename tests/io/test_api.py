"""The HTTP API (io/api.py) on a real server's web port, with an SQLite store: accounts,
logins, keys in Hello, the limits on wrong guesses, and a finished game's record. Every
wait is bounded."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from hypothesis import given
from hypothesis import strategies as st

from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.hub import Hub
from hundred_server.games.records import replay
from hundred_server.io.api import is_api
from hundred_server.io.server import Server
from hundred_server.io.websocket import load_static
from hundred_server.store import GameStore, Store, open_store
from hundred_server.store.accounts import accounts_of
from tests.support.engines import Engine
from tests.support.hub_harness import HELLO, QUESTION
from tests.support.live_server import started
from tests.support.peer import READ_TIMEOUT, Peer, play

Message = dict[str, Any]


@contextlib.asynccontextmanager
async def running(
    tmp_path: Path, location: str | None = None, static: bool = False
) -> AsyncIterator[Server]:
    """A server on an SQLite store in ``tmp_path`` (or the store at ``location``);
    ``static``: with the package's pages."""
    store: GameStore = (
        Store(tmp_path / "s.db", exclusive=True)
        if location is None
        else open_store(location, exclusive=True)
    )
    accounts = accounts_of(store)
    hub = Hub(ai=AISettings("naive"), durable=True)
    server = Server(
        hub, Settings(listeners=Listeners("127.0.0.1", 0, http_port=0)), store=store,
        accounts=accounts, static=load_static() if static else {},
    )  # fmt: skip
    # Cheap hashes for the tests (the server's default is argon2-cffi's own).
    server.api.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    try:
        async with started(server):
            yield server
    finally:
        accounts.close()
        store.close()


async def http(
    server: Server, method: str, path: str, body: object = None, raw: bytes | None = None
) -> tuple[int, Any]:
    """One request on a connection of its own; the status and the body (JSON, or the
    bytes of anything else)."""
    assert server.http_port is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", server.http_port)
    data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
    writer.write(
        f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(data)}\r\n"
        "Content-Type: application/json\r\n\r\n".encode()
        + data
    )
    answer = await asyncio.wait_for(reader.read(), READ_TIMEOUT)
    writer.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    kind = next(
        (line for line in head.split(b"\r\n") if line.lower().startswith(b"content-type")), b""
    )
    return status, json.loads(payload) if b"json" in kind and b"ndjson" not in kind else payload


async def register(server: Server, name: str, password: str = "correct horse", **more: Any) -> str:
    status, body = await http(
        server, "POST", "/api/accounts", {"name": name, "password": password, **more}
    )
    assert status == 201, body
    assert body["name"] == name
    assert len(body["key"]) == 43
    return str(body["key"])


async def hello(server: Server, msg: Message) -> tuple[Peer, Message]:
    peer = await Peer.welcomed(server.port)
    await peer.send(msg)
    return peer, await peer.recv()


@pytest.mark.asyncio
async def test_register_log_in_and_connect_with_the_key(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        key = await register(server, "Ann")
        # A look-alike (case, separators, l/I/1, rn/m) of the account is refused.
        for other in ("ann", "A_N_N", "AnN."):
            status, body = await http(
                server, "POST", "/api/accounts", {"name": other, "password": "whatever1"}
            )
            assert (status, body["Code"]) == (409, "name_taken"), other
        status, body = await http(
            server, "POST", "/api/login", {"name": "ANN", "password": "correct horse"}
        )
        assert status == 200
        assert body["name"] == "Ann"
        second = body["key"]
        assert second != key
        assert len(second) == 43
        # Both keys work: a connection with either is the account.
        for k in (key, second):
            peer, said = await hello(server, {"Type": "Hello", "Key": k})
            assert said == {"Type": "Message", "Message": "Hello, Ann."}
            assert [await peer.recv(), await peer.recv()] == [QUESTION, HELLO]
            await peer.close()
        # A guest may not take the account's name, nor a look-alike of it.
        peer, said = await hello(server, {"Type": "Hello", "Name": "a n n"})
        assert (said["Type"], said["Code"]) == ("Error", "name_taken")
        await peer.close()
        # Revoked, a key is refused; the other still works.
        status, body = await http(server, "POST", "/api/keys/revoke", {"key": key})
        assert (status, body) == (200, {"revoked": True})
        peer, said = await hello(server, {"Type": "Hello", "Key": key})
        assert (said["Type"], said["Code"]) == ("Error", "bad_key")
        assert await peer.recv() == HELLO  # asked again, nothing changed
        await peer.close()
        peer, said = await hello(server, {"Type": "Hello", "Key": second})
        assert said == {"Type": "Message", "Message": "Hello, Ann."}
        await peer.close()


@pytest.mark.asyncio
async def test_bad_requests_get_clear_codes(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        cases = [
            ({"name": "ann", "password": "short"}, 400, "bad_password"),
            ({"name": "AI 1", "password": "long enough"}, 400, "bad_name"),
            ({"name": "x" * 21, "password": "long enough"}, 400, "bad_name"),
            ({"name": "ann", "password": 12345678}, 400, "bad_password"),
            ([1, 2], 400, "bad_json"),
        ]
        for body, status, code in cases:
            got = await http(server, "POST", "/api/accounts", body)
            assert (got[0], got[1]["Code"]) == (status, code), body
        got = await http(server, "POST", "/api/accounts", raw=b"{nope")
        assert (got[0], got[1]["Code"]) == (400, "bad_json")
        got = await http(server, "GET", "/api/accounts")
        assert (got[0], got[1]["Code"]) == (405, "not_allowed")
        got = await http(server, "GET", "/api/nothing")
        assert (got[0], got[1]["Code"]) == (404, "not_found")
        got = await http(server, "GET", "/api/leaderboard?game=chess")
        assert (got[0], got[1]["Code"]) == (400, "bad_game")
        got = await http(server, "GET", "/api/leaderboard?game=whist&pool=cats")
        assert (got[0], got[1]["Code"]) == (400, "bad_pool")
        got = await http(server, "GET", "/api/accounts/nobody")
        assert (got[0], got[1]["Code"]) == (404, "not_found")
        # Nothing was made by any of it.
        assert await http(server, "GET", "/api/leaderboard?game=whist&pool=people") == (200, [])


@pytest.mark.asyncio
async def test_five_wrong_passwords_and_the_next_is_refused_unchecked(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        await register(server, "bob")
        for _ in range(5):
            status, body = await http(
                server, "POST", "/api/login", {"name": "bob", "password": "guess guess"}
            )
            assert (status, body["Code"]) == (401, "wrong_password")
        # The right password now is refused too, and said why.
        status, body = await http(
            server, "POST", "/api/login", {"name": "bob", "password": "correct horse"}
        )
        assert (status, body["Code"]) == (429, "too_many_attempts")
        assert "try again in" in body["Message"]
        # Per address too: another account from this address is refused now.
        await register(server, "cy")
        status, body = await http(
            server, "POST", "/api/login", {"name": "cy", "password": "correct horse"}
        )
        assert (status, body["Code"]) == (429, "too_many_attempts")


@pytest.mark.asyncio
async def test_a_finished_game_is_served_and_replays_a_game_under_way_is_not(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as server:
        key = await register(server, "dee")
        peer, _said = await hello(server, {"Type": "Hello", "Key": key})
        assert [await peer.recv(), await peer.recv()] == [QUESTION, HELLO]
        await peer.create({"Type": "Game", "Option": 1, "AI": "naive"})
        seat = await peer.until(lambda m: m.get("Type") == "Seat")
        table = seat["Table"]
        rng = random.Random(3)
        assert await play(peer, rng, stop_after=3) is None
        status, body = await http(server, "GET", f"/api/games/{table}")
        assert (status, body["Code"]) == (404, "not_found")  # under way: never served
        over = await play(peer, rng)
        assert over is not None
        await asyncio.sleep(0.2)  # the end is committed before it is sent; be generous
        status, body = await http(server, "GET", f"/api/games/{table}")
        assert status == 200
        lines = body.decode().splitlines()
        assert json.loads(lines[0])["Type"] == "Record"
        scores = list(replay(lines))
        assert scores
        assert scores[-1]["Score"] == over["Score"]
        # ... and so does the command (hundred-server replay FILE), the same scores.
        record = tmp_path / "game.jsonl"
        record.write_bytes(body)
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "hundred_server", "replay", str(record)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout.splitlines()[-1])["Score"] == over["Score"]
        await peer.close()


async def rated_game(server: Server, key: str, game: str = "whist") -> Message:
    """A rated game against three naive AI seats, played out; its GameOver."""
    peer, _said = await hello(server, {"Type": "Hello", "Key": key})
    assert [await peer.recv(), await peer.recv()] == [QUESTION, HELLO]
    await peer.create({"Type": "Game", "Option": 1, "AI": "naive", "Rated": True}, game)
    over = await play(peer, random.Random(5))
    assert over is not None
    await peer.close()
    return over


async def board(server: Server, game: str = "whist", pool: str = "people") -> list[Any]:
    for _ in range(100):  # the rating is written on a thread, just after the end
        status, rows = await http(server, "GET", f"/api/leaderboard?game={game}&pool={pool}")
        assert status == 200
        if rows:
            return list(rows)
        await asyncio.sleep(0.05)
    return []


@pytest.mark.asyncio
async def test_register_log_in_play_a_rated_game_and_the_leaderboard_shows_it(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as server:
        await register(server, "Eve")
        status, body = await http(
            server, "POST", "/api/login", {"name": "eve", "password": "correct horse"}
        )
        assert status == 200
        over = await rated_game(server, body["key"])
        rows = await board(server)
        assert [(r["name"], r["games"]) for r in rows] == [("Eve", 1)]
        assert set(rows[0]) == {"name", "rating", "sigma", "games", "wins"}
        assert rows[0]["wins"] == int(over["Win"])
        assert rows[0]["sigma"] < 8.34
        # The anchors are in the bots' pool, never moved.
        bots = await board(server, pool="bots")
        assert [(r["name"], r["rating"], r["sigma"], r["games"]) for r in bots] == [
            ("naive", 20.0, 1.0, 1)
        ]
        status, page = await http(server, "GET", "/api/accounts/EVE")
        assert status == 200
        assert (page["name"], page["bot"], len(page["games"])) == ("Eve", False, 1)
        assert page["ratings"][0]["game"] == "whist"
        assert page["ratings"][0]["games"] == 1
        # An unrated game (the default) rates nothing.
        peer, _ = await hello(server, {"Type": "Hello", "Name": "guest"})
        await peer.until(lambda m: m == HELLO)
        await peer.create({"Type": "Game", "Option": 1, "AI": "naive"}, "whist")
        assert await play(peer, random.Random(6)) is not None
        await peer.close()
        await asyncio.sleep(0.2)
        assert [r["games"] for r in await board(server)] == [1]


@pytest.mark.asyncio
async def test_a_rated_game_that_ended_unrated_before_a_stop_is_rated_at_the_next_start(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as server:
        key = await register(server, "Fay")
        assert server.ratings is not None
        writer = server.ratings
        real = writer._write

        def crash_before_rating(event: Any) -> None:  # the server dies as the game ends
            if type(event).__name__ == "RatedStart":
                real(event)

        writer._write = crash_before_rating  # type: ignore[method-assign]
        await rated_game(server, key)
        await asyncio.sleep(0.2)
        assert await http(server, "GET", "/api/leaderboard?game=whist&pool=people") == (200, [])
    async with running(tmp_path) as server:
        rows = await board(server)
        assert [(r["name"], r["games"]) for r in rows] == [("Fay", 1)]


@pytest.mark.asyncio
async def test_accounts_and_ratings_on_postgresql(tmp_path: Path, pg_engine: Engine) -> None:
    """The same on a PostgreSQL store (a site's): and they outlive the server."""
    async with running(tmp_path, pg_engine.location) as server:
        key = await register(server, "Gil")
        status, body = await http(
            server, "POST", "/api/accounts", {"name": "G1L", "password": "xxxxxxxx"}
        )
        assert (status, body["Code"]) == (409, "name_taken")
        await rated_game(server, key)
        assert [(r["name"], r["games"]) for r in await board(server)] == [("Gil", 1)]
    async with running(tmp_path, pg_engine.location) as server:
        assert [(r["name"], r["games"]) for r in await board(server)] == [("Gil", 1)]
        peer, said = await hello(server, {"Type": "Hello", "Key": key})
        assert said == {"Type": "Message", "Message": "Hello, Gil."}
        await peer.close()


def test_the_results_pages_are_in_the_package_and_their_script_parses() -> None:
    static = load_static()
    for page in ("leaderboard", "account", "game"):
        found = static[f"/results-{page}.html"]
        assert found.content_type == "text/html; charset=utf-8"
        assert f'data-page="{page}"'.encode() in found.body
        assert b'src="results.js"' in found.body
    script = static["/results.js"]
    assert script.content_type == "text/javascript; charset=utf-8"
    node = shutil.which("node")
    assert node is not None, "node is not installed"
    checked = subprocess.run(
        [node, "--check", "--input-type=module"], input=script.body, capture_output=True, timeout=30
    )
    assert checked.returncode == 0, checked.stderr


@given(
    st.sampled_from([b"GET", b"POST", b"PUT", b"HEAD"]),
    st.sampled_from([b"/", b"/ws", b"/api", b"/api/", b"/api/login", b"/apix", b"/app.js"]),
    st.integers(0, 40),
)
def test_whether_a_request_is_for_the_api_never_changes_as_its_bytes_come(
    method: bytes, path: bytes, cut: int
) -> None:
    head = method + b" " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    verdict = is_api(head)
    assert verdict is path.startswith(b"/api/")
    assert is_api(head[:cut]) in (None, verdict)


@pytest.mark.asyncio
async def test_a_ladder_sets_first_game_is_kept_until_the_set_is_over(tmp_path: Path) -> None:
    """A set's games deal from one seed: the first game's record (every Deck) and its
    seed would show every hand of the second, so neither is given before the set is over."""
    async with running(tmp_path) as server:
        keys = [await register(server, name, bot=True) for name in ("lad a", "lad b")]
        peers = []
        for key in keys:
            peer, said = await hello(
                server, {"Type": "Hello", "Key": key, "Message": "ladder", "Game": "hundredandten"}
            )
            assert said["Message"] == "You are on the ladder for Hundred and Ten; waiting for a set"
            peers.append(peer)
        rng = random.Random(8)
        firsts = await asyncio.gather(*(p.until(lambda m: m.get("Type") == "Seat") for p in peers))
        first = firsts[0]["Table"]
        await asyncio.gather(*(play(p, rng) for p in peers))
        seconds = await asyncio.gather(*(p.until(lambda m: m.get("Type") == "Seat") for p in peers))
        second = seconds[0]["Table"]
        assert second != first
        for peer in peers:  # the first game's end revealed nothing
            assert [m for m in peer.messages if m["Type"] == "Reveal"] == []
        status, body = await http(server, "GET", f"/api/games/{first}")
        assert (status, body["Code"]) == (404, "not_found")
        assert body["Message"] == (
            f"game {first} is a ladder set's, whose later games deal the same cards: "
            "its record is served once the set is over"
        )
        await asyncio.gather(*(play(p, rng) for p in peers))
        reveal = await peers[0].until(lambda m: m.get("Type") == "Reveal")
        commits = [m["Hash"] for m in peers[0].messages if m["Type"] == "Commit"]
        assert reveal["Table"] == second
        assert commits[:2] == [reveal["Hash"], reveal["Hash"]]  # one seed, both games
        for table in (first, second):
            for _ in range(100):  # the end is committed just after it is sent
                status, body = await http(server, "GET", f"/api/games/{table}")
                if status == 200:
                    break
                await asyncio.sleep(0.05)
            assert status == 200
            assert json.loads(body.decode().splitlines()[0])["Ladder"]["Tables"] == (
                [] if table == first else [first]
            )
        for peer in peers:
            await peer.close()
