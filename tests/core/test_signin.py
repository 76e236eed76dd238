"""Signing in with the accounts asked off the event loop (core/signin.py, core/held.py,
through the hub, no sockets): a book that answers later, when the test says; the
messages and errors are those of a book asked in place, byte for byte; the lines that
come meanwhile wait in order; a connection gone drops its answer; a store that fails
is ``store_unavailable``; text mode's login and register against a real store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from hundred_server.core.accounts import Account, Attempts, hash_key
from hundred_server.core.held import MAX_HELD
from hundred_server.core.names import fold
from hundred_server.core.signin import (
    AccountAsk,
    Failed,
    KeyLookup,
    NameLookup,
    look_up,
)
from hundred_server.io.signins import UNAVAILABLE, SignIns
from hundred_server.protocol.credentials import Credentials
from hundred_server.protocol.errors import Refused
from hundred_server.store.accounts import open_accounts
from tests.core.test_abuse import connect as client
from tests.support.hub_harness import HELLO, QUESTION, Client, Harness

KEY = "k" * 43


class Book:
    """The accounts: ``Zed`` (key ``KEY``), rated 27 in every game; it counts its
    look-ups."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def by_key(self, key_hash: str) -> Account | None:
        self.calls.append("by_key")
        return Account("Zed", bot=True) if key_hash == hash_key(KEY) else None

    def taken(self, name: str) -> str | None:
        self.calls.append("taken")
        return "Zed" if fold(name) == fold("Zed") else None


def later(h: Harness) -> Book:
    """The lobby asks ``Book`` through ``AccountAsk`` (``answer`` runs them)."""
    book = Book()
    sign_in = h.hub.lobby.sign_in
    sign_in.book, sign_in.inline = book, False
    return book


def answer(h: Harness, book: Book, attempts: Attempts | None = None) -> list[AccountAsk]:
    """Answer the asks out, one round (as io/signins.py would, on its thread)."""
    asks = h.hub.lobby.sign_in.take()
    counted = attempts or Attempts()
    for ask in asks:
        h.apply(h.hub.account_answer(ask.ask, look_up(ask.query, book, counted, h.now)))
    return asks


def session_lines(h: Harness, book: Book | None, lines: list[Any]) -> list[bytes]:
    """Every byte a JSON client gets for ``lines``; with ``book``, its asks answered
    only after all the lines were sent (None: a book asked in place)."""
    if book is None:
        h.hub.lobby.sign_in.book = Book()
    ann = client(h, "10.0.0.1")
    for line in lines:
        ann.send(line)
    while book is not None and answer(h, book):
        pass
    return ann.raw


HELLOS = [
    # A Key, then a create and its option: the option waits for the Key's answer.
    [
        {"Type": "Hello", "Key": KEY, "Message": "create"},
        {"Type": "Game", "Option": 1, "AI": "naive"},
    ],
    # A wrong Key, then a name that is the account's (taken), then a free one.
    [
        {"Type": "Hello", "Key": "x" * 43},
        {"Type": "Hello", "Name": "zed"},
        {"Type": "Hello", "Name": "bob"},
    ],
    # A malformed Key, a Key with another name, a Key after the first Hello.
    [{"Type": "Hello", "Key": 5}, {"Type": "Hello", "Key": KEY, "Name": "amy"}],
    [
        {"Type": "Hello", "Name": "amy"},
        {"Type": "Hello", "Key": KEY},
        {"Type": "Hello", "Message": "join"},
    ],
    # The ladder: the key, then the rating, then queued.
    [
        {"Type": "Hello", "Key": KEY, "Message": "ladder", "Game": "whist"},
        {"Type": "Hello", "Message": "create"},
    ],
]


@pytest.mark.parametrize("lines", HELLOS)
def test_a_hello_answered_later_says_what_one_answered_at_once_says(lines: list[Any]) -> None:
    at_once = session_lines(Harness("same"), None, lines)
    h = Harness("same")
    book = later(h)
    assert session_lines(h, book, lines) == at_once
    assert h.hub.lobby.sign_in.pending == {}
    assert all(link.held is None for link in h.hub.links.values())


def test_nothing_is_said_until_the_answer_and_the_lines_behind_it_wait_in_order() -> None:
    h = Harness("order")
    book = later(h)
    zed = client(h, "10.0.0.2")
    assert zed.send({"Type": "Hello", "Key": KEY}) == []
    assert zed.send({"Type": "Hello", "Message": "create", "Game": "whist"}) == []
    assert zed.send(b"not json") == []
    assert zed.send({"Type": "Game", "Option": 1, "AI": "naive"}) == []
    assert book.calls == []  # nothing asked in place
    [ask] = h.hub.lobby.sign_in.take()
    assert ask.query == KeyLookup("address 10.0.0.2", hash_key(KEY))
    assert ask.conn == zed.conn
    h.apply(h.hub.account_answer(ask.ask, Account("Zed", bot=True)))
    said = zed.take()
    assert said[:3] == [{"Type": "Message", "Message": "Hello, Zed."}, QUESTION, HELLO]
    # The Hello create, then the line that is no JSON, then the option: in that order.
    kinds = [m["Type"] for m in said[3:]]
    assert kinds[:7] == ["Message"] * 5 + ["Game", "Error"]
    assert said[9] == {"Type": "Error", "Code": "bad_json", "Message": 'not JSON: "not json"'}
    assert [m["Type"] for m in said[10:13]] == ["Game", "Table", "Seat"]
    assert h.hub.lobby.sessions[zed.conn].account == Account("Zed", bot=True)


def test_a_guests_name_waits_for_the_store_and_is_refused_if_it_is_an_accounts() -> None:
    h = Harness("name")
    book = later(h)
    amy = client(h, None)
    assert amy.send({"Type": "Hello", "Name": "ZED"}) == []
    [ask] = answer(h, book)
    assert ask.query == NameLookup("ZED")
    said = amy.take()
    assert said[0]["Code"] == "name_taken"
    assert said[0]["Message"] == (
        'the name "ZED" is the account "Zed"\'s, or looks like it: log in with its Key, '
        "or pick another name"
    )
    assert said[1:] == [HELLO]
    assert h.hub.lobby.sessions[amy.conn].name == f"player{amy.conn}"  # nothing changed


def test_a_connection_gone_while_its_look_up_is_out_drops_the_answer() -> None:
    h = Harness("gone")
    book = later(h)
    zed = client(h, None)
    zed.send({"Type": "Hello", "Key": KEY})
    zed.send({"Type": "Hello", "Message": "create"})
    [ask] = h.hub.lobby.sign_in.take()
    zed.disconnect()
    assert h.hub.lobby.sign_in.pending == {}
    assert h.hub.account_answer(ask.ask, Account("Zed")) == []
    assert h.hub.account_answer(ask.ask, Account("Zed")) == []  # twice: still nothing
    assert h.stray == []
    assert book.calls == []


def test_a_store_that_fails_is_store_unavailable_and_changes_nothing() -> None:
    h = Harness("fails")
    later(h)
    zed = client(h, None)
    zed.send({"Type": "Hello", "Key": KEY, "Message": "create"})
    zed.send({"Type": "Hello", "Name": "bob"})
    [ask] = h.hub.lobby.sign_in.take()
    text = UNAVAILABLE
    h.apply(h.hub.account_answer(ask.ask, Failed("store_unavailable", text)))
    said = zed.take()
    assert said[:2] == [{"Type": "Error", "Code": "store_unavailable", "Message": text}, HELLO]
    session = h.hub.lobby.sessions[zed.conn]
    assert session.account is None
    # The next line (a guest's name) was read after it, and asks the store in its turn.
    [name] = h.hub.lobby.sign_in.take()
    assert name.query == NameLookup("bob")
    h.apply(h.hub.account_answer(name.ask, None))
    assert zed.take() == [{"Type": "Message", "Message": "Hello, bob."}, QUESTION, HELLO]


def test_the_rest_of_a_line_waits_behind_its_first_message_and_is_moot_if_it_is_refused() -> None:
    h = Harness("rest")
    later(h)
    zed = client(h, None)
    zed.send({"Type": "Hello", "Name": "bob"})  # JSON mode: the hub reads messages now
    [ask] = h.hub.lobby.sign_in.take()
    line = [{"Type": "Hello", "Name": "cy"}, {"Type": "Hello", "Message": "join"}]
    h.apply(h.hub._handle(zed.conn, line))  # as a codec that reads two from a line
    h.apply(h.hub.account_answer(ask.ask, None))
    [second] = h.hub.lobby.sign_in.take()
    assert second.query == NameLookup("cy")
    h.apply(h.hub.account_answer(second.ask, "Cy"))  # cy is an account's: refused
    said = zed.take()
    codes = [m.get("Code") for m in said if m["Type"] == "Error"]
    assert codes == ["name_taken"]
    assert not any(m["Type"] == "Tables" for m in said)  # the join of that line: moot


def test_lines_behind_a_sign_in_count_against_the_rate_and_at_most_max_held_wait() -> None:
    h = Harness("rate")
    later(h)
    zed = client(h, None)
    h.apply(h.hub.receive(zed.conn, b'{"Type":"Hello","Key":"' + KEY.encode() + b'"}', now=0.0))
    link = h.hub.links[zed.conn]
    tokens = link.tokens
    h.apply(h.hub.receive(zed.conn, b'{"Type":"Hello"}', now=0.0))
    assert link.tokens == tokens - 1
    assert link.held is not None
    for _ in range(MAX_HELD - 1):
        h.apply(h.hub.receive(zed.conn, b'{"Type":"Hello"}'))
    zed.take()
    said = zed.send({"Type": "Hello"})
    assert [m.get("Code") for m in said] == ["rate_limited", None]
    assert said[0]["Message"] == (
        f"slow down: at most {MAX_HELD} lines wait for your sign-in; that line was not read"
    )
    assert len(link.held.later) == MAX_HELD


# ---------------------------------------------------------------- text mode, a real store


@pytest.fixture
def signins(tmp_path: Path) -> Iterator[SignIns]:
    accounts = open_accounts(str(tmp_path / "a.db"))
    made = SignIns(accounts, PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    yield made
    made.close()
    accounts.close()


def with_store(h: Harness, signins: SignIns) -> None:
    sign_in = h.hub.lobby.sign_in
    sign_in.book, sign_in.inline = signins.accounts, False


def run(h: Harness, signins: SignIns) -> None:
    """The asks out answered by io/signins.py (here on the test's own thread)."""
    for ask in h.hub.lobby.sign_in.take():
        h.apply(h.hub.account_answer(ask.ask, signins.answer(ask.query)))


def typed_login(h: Harness, signins: SignIns, name: str) -> Client:
    """A text client of a hub on ``signins``' store that typed ``login bob`` and Bob's
    password (``correct horse``), Bob's account made first; nothing answered yet."""
    signins.register("Bob", "correct horse")
    with_store(h, signins)
    bob = text_client(h)
    bob.say(f"login {name}")
    bob.say("correct horse")
    return bob


def text_client(h: Harness, address: str | None = None) -> Client:
    made = client(h, address)
    assert made.say("help")[0] == "In the lobby you can type:"
    return made


PRIVATE = "(what you type is shown on your own screen only)"
PROMPT = f"Password for the new account ann, 8-128 characters {PRIVATE}:"


def test_text_register_shows_the_key_once_and_the_connection_is_the_account(
    signins: SignIns,
) -> None:
    h = Harness("register")
    with_store(h, signins)
    ann = text_client(h)
    assert ann.say("register ann") == [PROMPT]
    assert ann.say("correct horse") == [
        "The same password again (what you type is shown on your own screen only):"
    ]
    assert ann.say("correct horse") == []  # hashed off the loop: nothing yet
    [ask] = h.hub.lobby.sign_in.take()
    assert "correct horse" not in repr(ask)  # a password never in a repr (nor a log)
    made = signins.answer(ask.query)
    assert "correct horse" not in repr(made)
    h.apply(h.hub.account_answer(ask.ask, made))
    said = ann.take_text()
    key = said[0].rsplit(" ", 1)[1]
    assert len(key) == 43
    assert said == [
        f"The account ann is made, and you are it. Its API key, shown this once: {key}",
        "Keep the key: a bot or client signs in with it in its first line "
        f'({{"Type":"Hello","Key":"{key}"}}); here, login ann asks for the password. POST '
        "/api/login makes another key, POST /api/keys/revoke revokes one.",
        "Do you want to join a game, create a new game, or quit? (join, create, quit)",
        "> create, join, quit (or help)",
    ]
    assert h.hub.lobby.sessions[ann.conn].account == Account("ann")
    assert signins.accounts.by_key(hash_key(key)) == Account("ann")
    assert not any("correct horse" in line for line in ann.text)  # never said back
    # The key works on the line protocol; the account's name is no guest's.
    bot = client(h, None)
    bot.send({"Type": "Hello", "Key": key})
    run(h, signins)
    assert bot.take()[0] == {"Type": "Message", "Message": "Hello, ann."}
    guest = text_client(h)
    guest.say("name ANN")
    run(h, signins)
    assert guest.take_text()[0].endswith("(name_taken)")


def test_text_register_refusals_say_why_before_any_store_call(signins: SignIns) -> None:
    h = Harness("register-bad")
    with_store(h, signins)
    ann = text_client(h)
    assert ann.say("register") == [
        "! register NAME: the name of the new account (register ann) (bad_name)",
        "> create, join, quit (or help)",
    ]
    assert ann.say("register AI 1")[0].endswith("pick another (bad_name)")
    assert ann.say("register ann") == [PROMPT]
    assert ann.say("short") == [
        "! a password is 8-128 characters, not 5 (bad_password)",
        "> create, join, quit (or help)",
    ]
    ann.say("register ann")
    ann.say("correct horse")
    assert ann.say("correct h0rse") == [
        "! the two passwords differ; no account was made (register ann to try again) "
        "(bad_password)",
        "> create, join, quit (or help)",
    ]
    assert h.hub.lobby.sign_in.take() == []
    assert signins.accounts.name_of("ann") is None
    # A name taken: refused once the store is asked.
    signins.register("Ann", "whatever1")
    ann.say("register a n n")
    ann.say("correct horse")
    ann.say("correct horse")
    run(h, signins)
    assert ann.take_text()[0] == (
        "! 'a n n' looks like the account 'Ann'; pick another name (name_taken)"
    )


def test_text_login_checks_the_password_off_the_loop_and_counts_wrong_ones(
    signins: SignIns,
) -> None:
    signins.register("Bob", "correct horse")
    h = Harness("login")
    with_store(h, signins)
    bob = text_client(h, "10.0.0.7")
    assert bob.say("login") == [
        "! login NAME: the name of your account (login ann) (bad_name)",
        "> create, join, quit (or help)",
    ]
    for _ in range(5):
        assert bob.say("login bob") == [
            "Password for bob (what you type is shown on your own screen only):"
        ]
        assert bob.say("guess guess") == []
        run(h, signins)
        assert bob.take_text() == [
            "! no account has that name and password (wrong_password)",
            "> create, join, quit (or help)",
        ]
    bob.say("login bob")
    bob.say("correct horse")
    run(h, signins)
    said = bob.take_text()
    assert said[0].startswith("! 5 wrong passwords or keys in 300 s; try again in ")
    assert said[0].endswith(" s (too_many_attempts)")
    # From another address too: the account has had its 5 wrong passwords.
    cy = text_client(h, "10.0.0.8")
    cy.say("login bob")
    cy.say("correct horse")
    run(h, signins)
    assert cy.take_text()[0].endswith("(too_many_attempts)")
    assert h.hub.lobby.sessions[bob.conn].account is None
    assert not any("guess guess" in line or "correct horse" in line for line in bob.text + cy.text)


def test_text_login_makes_the_connection_the_account_without_a_new_key(signins: SignIns) -> None:
    h = Harness("login-ok")
    bob = typed_login(h, signins, "BOB")
    run(h, signins)
    assert bob.take_text() == [
        "You are logged in: you are the account Bob.",
        "Do you want to join a game, create a new game, or quit? (join, create, quit)",
        "> create, join, quit (or help)",
    ]
    assert h.hub.lobby.sessions[bob.conn].account == Account("Bob")
    assert signins.accounts.keys("bob") == 1  # no key made that nobody was shown
    # Signed in, it may not log in again, and ladder queues it.
    bob.say("login bob")
    assert bob.say("whatever") == [
        '! you are the account "Bob" already (not_now)',
        "> create, join, quit (or help)",
    ]
    # The ladder's ratings are in memory (core/ladder.py): queued at once, nothing asked.
    assert bob.say("ladder whist")[0] == "You are on the ladder for Whist; waiting for a set"
    assert h.hub.lobby.sign_in.take() == []


def test_text_sign_in_is_the_lobbys_and_its_password_line_is_never_read_as_a_command(
    signins: SignIns,
) -> None:
    h = Harness("login-where")
    with_store(h, signins)
    signins.register("Bob", "help quit")
    bob = text_client(h)
    bob.say("login bob")
    assert bob.say("help quit") == []  # the password, not help nor quit
    run(h, signins)
    assert bob.take_text()[0] == "You are logged in: you are the account Bob."
    bob.say("create 1 naive")
    assert h.hub.lobby.sessions[bob.conn].table is not None
    said = bob.say("login bob")
    assert said[0] == "! login in the lobby, not at a table (leave first) (not_now)"
    assert h.hub.lobby.sign_in.take() == []
    # A password line that is no UTF-8 is refused without being shown back.
    guest = text_client(h)
    guest.say("login bob")
    guest.take_text()
    h.apply(h.hub.receive(guest.conn, b"x\xc3\x28secret\r\n"))
    assert guest.take_text() == [
        "! that password is not UTF-8 (it was not read) (bad_password)",
        "> create, join, quit (or help)",
    ]
    assert h.hub.lobby.sign_in.take() == []


def test_a_text_login_whose_connection_goes_is_dropped(signins: SignIns) -> None:
    h = Harness("login-gone")
    bob = typed_login(h, signins, "bob")
    [ask] = h.hub.lobby.sign_in.take()
    bob.disconnect()
    assert h.hub.account_answer(ask.ask, signins.answer(ask.query)) == []


def test_credentials_keep_their_password_out_of_their_repr() -> None:
    given = Credentials(True, "ann", "correct horse")
    assert repr(given) == "Credentials(register=True, name='ann')"


def test_wrong_guesses_in_memory_are_bounded_per_who_and_in_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without a store, ``Attempts`` keeps the last 5 failures of each address or
    account, and ``MAX_TRACKED`` of them at most (the oldest forgotten first)."""
    from hundred_server.core import accounts

    monkeypatch.setattr(accounts, "MAX_TRACKED", 3)
    attempts = Attempts()
    for i in range(8):
        attempts.failed(float(i), "address a")
    assert attempts.log.recent_failures("address a", -1.0, 10) == [7.0, 6.0, 5.0, 4.0, 3.0]
    with pytest.raises(Refused, match="try again in 297 s"):
        attempts.check(7.0, "address a")
    for who in ("b", "c", "d"):
        attempts.failed(8.0, f"address {who}")
    assert attempts.log.recent_failures("address a", -1.0, 10) == []  # forgotten: the oldest
    assert attempts.log.recent_failures("address d", -1.0, 10) == [8.0]
    attempts.check(400.0, "address d")  # past the window
