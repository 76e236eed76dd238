"""The HTTP API on the web listener (``/api/...``): accounts, keys, the leaderboard, an
account's page and a finished game's record, in JSON. Thin glue over the store.

The web listener is the ``websockets`` package's server, whose HTTP reader takes no
request body; so a connection whose request is for ``/api/`` is taken from it before it
reads anything (``websocket.Connection``) and its bytes are read here with ``h11`` (the
sans-I/O HTTP/1.1 library): one request a connection, answered and closed.

- ``POST /api/accounts`` ``{"name","password"}`` (and ``"bot": true`` for a bot's
  account) → 201 ``{"name","key"}``: the account and its first API key, shown this once;
- ``POST /api/login`` ``{"name","password"}`` → ``{"key"}``: one more key (an account
  may hold several, each revoked alone);
- ``POST /api/keys/revoke`` ``{"key"}`` → ``{"revoked": true}``: that key stops working;
- ``GET /api/leaderboard?game=G&pool=bots|people`` → rows ``{"name","rating","sigma",
  "games","wins"}``, best first (``rating`` is openskill's mu, ``sigma`` its uncertainty;
  the order is by mu - 3 sigma);
- ``GET /api/accounts/NAME`` → the account's ratings and its last rated games;
- ``GET /api/games/ID`` → a finished game's record, JSON lines as ``--record`` writes
  (``hundred-server replay`` reads it); a game under way, or none, is 404, and so is a
  ladder set's game until its set is over (core/ladder.py: its later games deal the
  same cards).

An error is ``{"Code","Message"}`` with a status that says its kind (400 malformed,
401 a wrong password or key, 404, 409 a name taken, 429 too many wrong attempts, 503
no store). Passwords are hashed and checked with argon2-cffi on a thread, never on the
event loop, by the same code as text mode's ``register`` and ``login`` (io/signins.py);
wrong passwords and keys are counted per address and per account in the store, the
line protocol's and the API's together, on every instance and across restarts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Final
from urllib.parse import parse_qs, unquote, urlsplit

import h11
from argon2 import PasswordHasher

from hundred_server import games
from hundred_server.core.accounts import account_id, check_name, check_password, hash_key, new_key
from hundred_server.core.ladder import seed_kept, set_over
from hundred_server.core.ratings import Rating
from hundred_server.io.signins import SignIns
from hundred_server.protocol.errors import ClientError, Malformed
from hundred_server.store.accounts import POOLS, AccountStore
from hundred_server.store.base import GameStore

log = logging.getLogger("hundred_server")

PREFIX: Final = b"/api/"
#: The largest request body read (bytes); a bigger one is 413.
MAX_BODY: Final = 16 * 1024
#: Seconds a client has to send its whole request.
REQUEST_TIMEOUT: Final = 10.0
STATUS: Final = {
    "malformed": 400,
    "wrong_password": 401,
    "bad_key": 401,
    "name_taken": 409,
    "too_many_attempts": 429,
    "not_found": 404,
    "no_store": 503,
    "too_big": 413,
    "not_allowed": 405,
}
_GAME_PATH: Final = re.compile(r"^/api/games/([0-9]{1,18})$")
_ACCOUNT_PATH: Final = re.compile(r"^/api/accounts/([^/]{1,60})$")

Answer = tuple[int, bytes, str]


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def _json(status: int, body: object) -> Answer:
    return status, json.dumps(body).encode(), "application/json"


def _error(status: int, code: str, message: str) -> Answer:
    return _json(status, {"Code": code, "Message": message})


def rating_row(r: Rating) -> dict[str, object]:
    return {
        "name": r.name,
        "rating": round(r.mu, 3),
        "sigma": round(r.sigma, 3),
        "games": r.games,
        "wins": r.wins,
    }


class Api:
    """The API's answers, given the stores (None: the server keeps no store, and every
    account request is 503) and what checks names and passwords off the event loop
    (``signins``, io/signins.py: the lobby's too, so wrong guesses are counted once)."""

    def __init__(
        self,
        accounts: AccountStore | None,
        store: GameStore | None,
        signins: SignIns | None = None,
    ) -> None:
        self.accounts = accounts
        self.store = store
        self.signins = signins if signins is not None or accounts is None else SignIns(accounts)

    @property
    def hasher(self) -> PasswordHasher | None:
        """argon2's hasher (None: no accounts)."""
        return None if self.signins is None else self.signins.hasher

    @hasher.setter
    def hasher(self, hasher: PasswordHasher | None) -> None:
        if self.signins is not None and hasher is not None:
            self.signins.hasher = hasher

    async def answer(self, method: str, target: str, body: bytes, address: str | None) -> Answer:
        try:
            return await self._route(method, target, body, address)
        except ApiError as exc:
            return _error(exc.status, exc.code, str(exc))
        except ClientError as exc:
            status = STATUS.get(exc.code, 400 if exc.kind == "malformed" else 403)
            return _error(status, exc.code, exc.message)

    async def _route(self, method: str, target: str, body: bytes, address: str | None) -> Answer:
        parts = urlsplit(target)
        path = parts.path
        posts: dict[str, Callable[[dict[str, Any], str | None], Awaitable[Answer]]] = {
            "/api/accounts": self.register,
            "/api/login": self.login,
            "/api/keys/revoke": self.revoke,
        }
        if path in posts:
            if method != "POST":
                raise ApiError(405, "not_allowed", f"{path} takes POST")
            return await posts[path](_body(body), address)
        if method != "GET":
            raise ApiError(405, "not_allowed", f"{path} takes GET")
        if path == "/api/leaderboard":
            return await self.leaderboard(parse_qs(parts.query))
        if (found := _GAME_PATH.match(path)) is not None:
            return await self.game(int(found.group(1)))
        if (found := _ACCOUNT_PATH.match(path)) is not None:
            return await self.account(unquote(found.group(1)))
        raise ApiError(404, "not_found", f"no such API path {path}")

    def _accounts(self) -> AccountStore:
        if self.accounts is None:
            raise ApiError(503, "no_store", "this server keeps no store, so no accounts")
        return self.accounts

    def _signins(self) -> SignIns:
        if self.signins is None:
            raise ApiError(503, "no_store", "this server keeps no store, so no accounts")
        return self.signins

    # ------------------------------------------------------------------ accounts

    async def register(self, body: dict[str, Any], address: str | None) -> Answer:
        signins = self._signins()
        name = check_name(body.get("name"))
        password = check_password(body.get("password"))
        bot = body.get("bot", False)
        if not isinstance(bot, bool):
            raise Malformed("bot must be true or false", "bad_message")
        made = await signins.call(True, signins.register, name, password, bot)
        return _json(201, {"name": made.account.name, "key": made.key})

    async def login(self, body: dict[str, Any], address: str | None) -> Answer:
        signins = self._signins()
        name, password = body.get("name"), body.get("password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise Malformed('login takes {"name", "password"}, both strings', "bad_message")
        where = None if address is None else f"address {address}"
        found = await signins.call(True, signins.login, where, name, password)
        key = new_key()
        await signins.call(False, signins.accounts.add_key, account_id(found.name), hash_key(key))
        return _json(200, {"name": found.name, "key": key})

    async def revoke(self, body: dict[str, Any], address: str | None) -> Answer:
        signins = self._signins()
        key = body.get("key")
        if not isinstance(key, str):
            raise Malformed('revoke takes {"key"}, a string', "bad_message")
        where = None if address is None else f"address {address}"
        await signins.call(False, signins.revoke, where, key)
        return _json(200, {"revoked": True})

    # ------------------------------------------------------------------ results

    async def leaderboard(self, query: dict[str, list[str]]) -> Answer:
        accounts = self._accounts()
        game = (query.get("game") or [games.DEFAULT_GAME])[0]
        pool = (query.get("pool") or ["people"])[0]
        if game not in games.names():
            raise ApiError(400, "bad_game", f"no game {game!r} (games: {', '.join(games.names())})")
        if pool not in POOLS:
            raise ApiError(400, "bad_pool", f"pool is bots or people, not {pool!r}")
        rows = await asyncio.to_thread(accounts.leaderboard, game, pool)
        return _json(200, [rating_row(r) for r in rows])

    async def account(self, name: str) -> Answer:
        accounts = self._accounts()
        try:
            found = await asyncio.to_thread(accounts.profile, account_id(name))
        except KeyError:
            raise ApiError(404, "not_found", f"no account {name!r}") from None
        real, bot, ratings, played = found
        return _json(
            200,
            {
                "name": real,
                "bot": bot,
                "ratings": [{"game": r.game, "pool": r.pool, **rating_row(r)} for r in ratings],
                "games": [
                    {"id": i, "game": g, "seats": seats, "result": result}
                    for i, g, seats, result in played
                ],
            },
        )

    async def game(self, game_id: int) -> Answer:
        store = self.store
        if store is None:
            raise ApiError(503, "no_store", "this server keeps no store, so no records")
        found = await asyncio.to_thread(store.game, game_id)
        # A game under way holds every hand: never served (nor said to exist).
        if found is None or found.state != "over":
            raise ApiError(404, "not_found", f"no finished game {game_id}")
        header = _header(found.lines)
        if seed_kept(header):  # a ladder set's game: its seed deals the set's later games
            kin = await asyncio.to_thread(store.games_with_seed, found.seed)
            ends = [(_header(g.lines), g.state, _epoch(g.finished)) for g in kin]
            if not set_over(ends, time.time()):
                raise ApiError(
                    404,
                    "not_found",
                    f"game {game_id} is a ladder set's, whose later games deal the same cards: "
                    "its record is served once the set is over",
                )
        body = "".join(line + "\n" for line in found.lines).encode()
        return 200, body, "application/x-ndjson"


def _header(lines: list[str]) -> dict[str, Any]:
    """A stored record's header (its first line), or nothing."""
    try:
        value = json.loads(lines[0]) if lines else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _epoch(when: str | None) -> float | None:
    """A store's time (ISO 8601, as ``iso`` writes it) in seconds of the epoch."""
    return None if when is None else datetime.fromisoformat(when).timestamp()


def _body(body: bytes) -> dict[str, Any]:
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        raise Malformed("the request body is not JSON", "bad_json") from None
    if not isinstance(value, dict):
        raise Malformed("the request body must be a JSON object", "bad_json")
    return value


class Exchange:
    """One HTTP request on a connection taken from the web listener: bytes in
    (``feed``), the answer written to ``transport`` and the connection closed."""

    def __init__(
        self,
        api: Api,
        transport: asyncio.Transport,
        address: str | None,
        forwarded: Callable[[list[tuple[str, str]]], str | None] | None = None,
    ) -> None:
        self.api = api
        self.transport = transport
        self.address = address
        #: Behind a load balancer: the client's address from the request's headers.
        self.forwarded = forwarded
        self.http = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_BODY)
        self.method = ""
        self.target = ""
        self.body = bytearray()
        self.done = False
        loop = asyncio.get_running_loop()
        self._timeout = loop.call_later(REQUEST_TIMEOUT, self._expired)
        self.task: asyncio.Task[None] | None = None

    def feed(self, data: bytes) -> None:
        if self.done:
            return
        self.http.receive_data(data)
        while not self.done:
            try:
                event = self.http.next_event()
            except h11.RemoteProtocolError as exc:
                self._reply(_error(400, "bad_request", f"not an HTTP request: {exc}"))
                return
            if event is h11.NEED_DATA:
                return
            if isinstance(event, h11.Request):
                self.method = event.method.decode()
                self.target = event.target.decode("ascii", "replace")
                if self.forwarded is not None:
                    headers = [(k.decode(), v.decode("latin-1")) for k, v in event.headers]
                    self.address = self.forwarded(headers)
                    if self.address is None:
                        self._reply(
                            _error(400, "bad_request", "no client address in X-Forwarded-For")
                        )
                        return
            elif isinstance(event, h11.Data):
                self.body += event.data
                if len(self.body) > MAX_BODY:
                    self._reply(_error(413, "too_big", f"a body is {MAX_BODY} bytes at most"))
                    return
            elif isinstance(event, h11.EndOfMessage):
                self.done = True
                self.task = asyncio.get_running_loop().create_task(self._answer())
                return
            elif isinstance(event, h11.ConnectionClosed):
                self.close()
                return

    async def _answer(self) -> None:
        try:
            answer = await self.api.answer(self.method, self.target, bytes(self.body), self.address)
        except Exception:
            log.exception("API %s %s: internal error", self.method, self.target)
            answer = _error(500, "internal_error", "the server hit a bug; it is logged")
        self._reply(answer)

    def _reply(self, answer: Answer) -> None:
        self.done = True
        status, body, kind = answer
        if self.transport.is_closing():
            return
        headers = [
            ("Content-Type", kind),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
        ]
        try:
            data = self.http.send(h11.Response(status_code=status, headers=headers))
            data = (data or b"") + (self.http.send(h11.Data(data=body)) or b"")
            data += self.http.send(h11.EndOfMessage()) or b""
        except h11.LocalProtocolError:  # the request was too broken to answer in kind
            data = (
                f"HTTP/1.1 {status} \r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n"
            ).encode() + body
        self.transport.write(data)
        self.close()

    def _expired(self) -> None:
        if not self.done:
            self._reply(_error(408, "timeout", f"no whole request in {REQUEST_TIMEOUT:g} s"))

    def close(self) -> None:
        self._timeout.cancel()
        if not self.transport.is_closing():
            self.transport.close()


def is_api(head: bytes) -> bool | None:
    """Whether a request that starts with ``head`` is for the API (None: not known
    yet, more bytes needed)."""
    space = head.find(b" ")
    if space < 0:
        return None if len(head) < 8 else False
    path = head[space + 1 :]
    if len(path) < len(PREFIX):
        return None if PREFIX.startswith(path) else False
    return path.startswith(PREFIX)
