"""Sign-in on a real server (io/signins.py): the accounts' store is never called on the
event loop, the lines sent while a Key is checked are answered after it in order, wrong
passwords and keys are counted in the store for HTTP and the line protocol alike and
survive a restart (SQLite and PostgreSQL), and text mode registers and logs in over a
socket with its password shown back to nobody and logged nowhere. Every wait is
bounded."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hundred_server.io.server import Server
from hundred_server.store.base import StoreError
from tests.io.test_api import hello, http, register, running
from tests.support.engines import Engine
from tests.support.hub_harness import HELLO, QUESTION
from tests.support.peer import Peer

PASSWORD = "correct horse"


def off_the_loop(server: Server, names: tuple[str, ...], delay: float) -> list[bool]:
    """Wrap the accounts' ``names`` so that each notes whether it ran on the event
    loop's thread, and answers ``delay`` s late (a slow store)."""
    assert server.accounts is not None
    loop_thread = threading.get_ident()
    on_loop: list[bool] = []
    for name in names:
        real = getattr(server.accounts, name)

        def slow(*args: Any, real: Callable[..., Any] = real) -> Any:
            on_loop.append(threading.get_ident() == loop_thread)
            threading.Event().wait(delay)
            return real(*args)

        setattr(server.accounts, name, slow)
    return on_loop


@pytest.mark.asyncio
async def test_a_key_is_checked_off_the_loop_and_the_next_lines_wait_in_order(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as server:
        key = await register(server, "Ann")
        calls = off_the_loop(server, ("by_key", "taken", "recent_failures", "add_failures"), 0.05)
        peer = await Peer.welcomed(server.port)
        await peer.send({"Type": "Hello", "Key": key}, paced=False)
        await peer.send({"Type": "Hello", "Name": "bob"}, paced=False)  # not Ann's: refused
        await peer.send({"Type": "Hello", "Message": "create", "Game": "whist"}, paced=False)
        said = [await peer.recv() for _ in range(6)]
        assert said == [
            {"Type": "Message", "Message": "Hello, Ann."},
            QUESTION,
            HELLO,
            {
                "Type": "Error",
                "Code": "bad_name",
                "Message": 'you are the account "Ann": that is your name, not "bob"',
            },
            HELLO,
            {
                "Type": "Message",
                "Message": "Option 1 - Play against three AI players and start immediately",
            },
        ]
        # A guest's name and a wrong key, each asked of the store off the loop too.
        guest = await Peer.welcomed(server.port)
        await guest.send({"Type": "Hello", "Name": "a n n"})
        refused = await guest.recv()
        assert (refused["Code"], await guest.recv()) == ("name_taken", HELLO)
        await guest.send({"Type": "Hello", "Key": "x" * 43})
        assert (await guest.recv())["Code"] == "bad_key"
        await peer.close()
        await guest.close()
        assert len(calls) >= 5  # the key, the failures' check twice, a name, a wrong key...
        assert not any(calls)  # ... none of them on the event loop


@pytest.mark.asyncio
async def test_a_store_that_fails_under_a_hello_is_store_unavailable(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        key = await register(server, "Ann")
        assert server.accounts is not None

        def broken(key_hash: str) -> None:
            raise StoreError("the accounts in s.db: disk I/O error")

        server.accounts.by_key = broken  # type: ignore[method-assign]
        peer, said = await hello(server, {"Type": "Hello", "Key": key})
        assert said == {
            "Type": "Error",
            "Code": "store_unavailable",
            "Message": "the accounts' store is unavailable right now, so that cannot be "
            "checked; nothing changed, try again soon",
        }
        assert await peer.recv() == HELLO
        await peer.send({"Type": "Hello", "Message": "join"})  # the lobby goes on
        assert (await peer.recv())["Type"] == "Tables"
        await peer.close()


async def wrong_login(server: Server, name: str = "bob", password: str = "guess guess") -> Any:
    return await http(server, "POST", "/api/login", {"name": name, "password": password})


@pytest.mark.asyncio
async def test_five_wrong_passwords_then_refused_and_still_after_a_restart(
    tmp_path: Path, engine: Engine
) -> None:
    async with running(tmp_path, engine.location) as server:
        await register(server, "bob")
        for _ in range(5):
            status, body = await wrong_login(server)
            assert (status, body["Code"]) == (401, "wrong_password")
        status, body = await wrong_login(server, password=PASSWORD)
        assert (status, body["Code"]) == (429, "too_many_attempts")
    async with running(tmp_path, engine.location) as server:  # the same store, restarted
        status, body = await wrong_login(server, password=PASSWORD)
        assert (status, body["Code"]) == (429, "too_many_attempts")
        assert body["Message"].startswith("5 wrong passwords or keys in 300 s; try again in ")
        # Text mode's login is refused the same way.
        peer = await text_peer(server)
        await peer.send(b"login bob\r\n")
        assert (await peer.line()).startswith(b"Password for bob")
        await peer.send(PASSWORD.encode() + b"\r\n")
        line = (await peer.line()).decode()
        assert line.startswith("! 5 wrong passwords or keys in 300 s; try again in ")
        assert line.endswith(" s (too_many_attempts)\r\n")
        await peer.close()


@pytest.mark.asyncio
async def test_wrong_keys_on_the_line_and_wrong_passwords_over_http_are_one_count(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as server:
        await register(server, "cy")
        for _ in range(3):
            assert (await wrong_login(server, "cy"))[0] == 401
        for _ in range(2):
            peer, said = await hello(server, {"Type": "Hello", "Key": "y" * 43})
            assert said["Code"] == "bad_key"
            await peer.close()
        # Five from this address in all: the next guess of either kind is not checked.
        status, body = await wrong_login(server, "cy", PASSWORD)
        assert (status, body["Code"]) == (429, "too_many_attempts")
        peer, said = await hello(server, {"Type": "Hello", "Key": "y" * 43})
        assert said["Code"] == "too_many_attempts"
        await peer.close()


async def text_peer(server: Server) -> Peer:
    """A text-mode connection at the lobby's help (its first line, which picks text)."""
    peer = await Peer.open(server.port)
    await peer.line()  # the JSON greeting
    await peer.line()  # {"Type":"Hello"}
    await peer.send(b"help\r\n")
    assert (await peer.line()) == b"In the lobby you can type:\r\n"
    while not (await peer.line()).startswith(b"  quit"):
        pass
    return peer


async def text_lines(peer: Peer, count: int) -> list[str]:
    return [(await peer.line()).decode().removesuffix("\r\n") for _ in range(count)]


@pytest.mark.asyncio
async def test_text_register_and_login_over_a_socket_show_no_password_to_anyone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = "tr0ub4dor&3 x"
    async with running(tmp_path) as server:
        watcher = await Peer.greeted(server.port, "wat")
        ann = await text_peer(server)
        await ann.send(b"register ann\r\n")
        assert (await text_lines(ann, 1))[0].startswith("Password for the new account ann")
        await ann.send(secret.encode() + b"\r\n")
        assert (await text_lines(ann, 1))[0].startswith("The same password again")
        await ann.send(secret.encode() + b"\r\n")
        made, keep, question, prompt = await text_lines(ann, 4)
        key = made.rsplit(" ", 1)[1]
        assert (
            made == f"The account ann is made, and you are it. Its API key, shown this once: {key}"
        )
        hello_line = '{"Type":"Hello","Key":"' + key + '"}'
        assert keep.startswith(
            f"Keep the key: a bot or client signs in with it in its first line ({hello_line})"
        )
        assert (question, prompt) == (QUESTION["Message"], "> create, join, quit (or help)")
        # The key is the account's on the line protocol.
        bot, said = await hello(server, {"Type": "Hello", "Key": key})
        assert said == {"Type": "Message", "Message": "Hello, ann."}
        await bot.close()
        # Another connection logs in with the password: no key shown, none made.
        again = await text_peer(server)
        await again.send(b"login ANN\r\n")
        await text_lines(again, 1)
        await again.send(b"not it at all\r\n")
        assert await text_lines(again, 2) == [
            "! no account has that name and password (wrong_password)",
            "> create, join, quit (or help)",
        ]
        await again.send(b"login ann\r\n")
        await text_lines(again, 1)
        await again.send(secret.encode() + b"\r\n")
        assert await text_lines(again, 3) == [
            "You are logged in: you are the account ann.",
            QUESTION["Message"],
            "> create, join, quit (or help)",
        ]
        await again.send(b"say hello all\r\n")
        assert (await watcher.until(lambda m: m.get("Type") == "Chat")) == {
            "Type": "Chat",
            "From": "ann",
            "Text": "hello all",
            "Where": "lobby",
        }
        assert server.accounts is not None
        assert server.accounts.keys("ann") == 1
        for peer in (ann, again, watcher):
            await peer.close()
    # The password is in no log line, and nobody (its typist included) was sent it.
    assert not any(secret in record.getMessage() for record in caplog.records)
    assert secret.encode() not in b"".join(repr(m).encode() for m in watcher.messages)
    assert not kept(tmp_path, secret)  # nor stored: only its argon2 hash is


def kept(folder: Path, secret: str) -> bool:
    """Whether ``secret`` is in any of the store's files."""
    return any(secret.encode() in stored.read_bytes() for stored in folder.glob("s.db*"))


@pytest.mark.asyncio
async def test_a_bug_in_reading_an_answer_ends_that_connection_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running(tmp_path) as server:
        key = await register(server, "Ann")
        other = await Peer.greeted(server.port, "bob")

        def bug(ask: int, answer: object) -> list[Any]:
            raise RuntimeError("a bug")

        monkeypatch.setattr(server.hub, "account_answer", bug)
        peer, said = await hello(server, {"Type": "Hello", "Key": key})
        assert said == {
            "Type": "Error",
            "Code": "internal_error",
            "Message": "the server hit an internal error (it is logged); goodbye",
        }
        assert await peer.at_eof() == b""
        await peer.close()
        monkeypatch.undo()
        await other.send({"Type": "Hello", "Message": "join"})  # the server goes on
        assert (await other.recv())["Type"] == "Tables"
        await other.close()
