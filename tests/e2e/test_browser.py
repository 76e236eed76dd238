"""The page (hundred_server/static/) in a real browser: Debian's Chromium, driven by
Playwright, against an in-process server on 127.0.0.1 (its WebSocket and page port on
port 0), in the test's own event loop.

A person clicks through whole games of every registered game; a reload takes the seat
back; a second page watches and sees no hidden card; chat goes from page to page and
mute stops it; the keyboard plays; the page fits a phone's width; and a screenshot of a
game under way is kept in test-artifacts/ (not committed).

Every wait is bounded (Playwright's timeouts, a deadline and a move count a game), and
the browser, its contexts and the server are closed whatever happens. Chromium comes
from the OS (scripts/ensure-chromium installs it); Playwright never downloads one.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import (
    Browser,
    BrowserContext,
    Page,
    WebSocket,
    WebSocketRoute,
    async_playwright,
)

from hundred_server import games
from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.hub import Hub
from hundred_server.io.server import Server

#: The async tests share the module's event loop (the browser is started once).
in_browser = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
HAVE_CHROMIUM = Path(CHROMIUM).exists()
#: Without the background-networking flags Chromium's own connections (updates, sync,
#: safe browsing) are refused on a closed network and slow everything down.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Playwright's own timeout for one action or wait (ms).
ACTION_MS = 10_000
#: A whole game by clicking: at most this long and this many of our moves.
GAME_SECONDS = 150.0
GAME_MOVES = 1500

Msg = dict[str, Any]


# ------------------------------------------------------------------ fixtures


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Browser]:
    if not HAVE_CHROMIUM:
        pytest.fail(f"no Chromium at {CHROMIUM}: run scripts/ensure-chromium")
    async with async_playwright() as playwright:
        # launch() starts Chromium with a fresh temporary profile (user data dir).
        chromium = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            await chromium.close()


@dataclass
class Site:
    server: Server
    url: str


@pytest_asyncio.fixture(loop_scope="module")
async def site() -> AsyncIterator[Site]:

    settings = Settings(listeners=Listeners("127.0.0.1", 0, http_port=0))
    server = Server(Hub(ai=AISettings("naive")), settings)
    await server.start()
    try:
        yield Site(server, f"http://127.0.0.1:{server.http_port}/")
    finally:
        await server.close()


@pytest_asyncio.fixture(loop_scope="module")
async def contexts(browser: Browser) -> AsyncIterator[Callable[..., Any]]:
    """``await new(width=...)``: a fresh browser context (its own localStorage) and a
    page in it; all closed after the test."""
    made: list[BrowserContext] = []

    async def new(width: int = 1000, height: int = 900) -> Person:
        context = await browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(ACTION_MS)
        made.append(context)
        page = await context.new_page()
        return Person(page)

    try:
        yield new
    finally:
        for context in made:
            await context.close()


# ------------------------------------------------------------------ a person


@dataclass
class Person:
    """A page, and every frame its WebSockets sent and received (decoded)."""

    page: Page
    received: list[Msg] = field(default_factory=list)
    sent: list[Msg] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: Set at every frame: what ``until`` waits on.
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _socket(self, socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: self._frame(self.received, payload))
        socket.on("framesent", lambda payload: self._frame(self.sent, payload))

    def _frame(self, frames: list[Msg], payload: str | bytes) -> None:
        frames.append(_decode(payload))
        self.changed.set()

    async def until(self, predicate: Callable[[], bool], seconds: float = 5.0) -> None:
        """Wait (at most ``seconds``) until ``predicate()`` holds, checked at each frame."""
        async with asyncio.timeout(seconds):
            while not predicate():
                self.changed.clear()
                await self.changed.wait()

    async def open(self, site: Site, name: str) -> None:
        await self.page.goto(site.url)
        await self.page.fill("#name", name)
        await self.page.press("#name", "Enter")
        await self.page.wait_for_selector("#status[data-state=open]")

    async def create(self, game: str, option: int, naive: bool = True) -> None:
        """Create a table with the game's option ``option`` (a preset), as a click."""
        await self.page.click(f"#game-tabs [data-game={game}]")
        await self.page.wait_for_selector(f"#options [data-option='{option}']")
        if naive:
            await self.page.check("#naive")
        await self.page.click(f"#options [data-option='{option}']")
        await self.page.wait_for_selector("body[data-view=table]")

    def seat(self) -> int:
        seats = [m["Playerid"] for m in self.received if m.get("Type") == "Seat"]
        assert seats, "no Seat message"
        return int(seats[-1])

    def hand(self) -> list[str]:
        """Our hand as the server told it: the last hand it sent, less what we played."""
        seat = self.seat()
        hand: list[str] = []
        for m in self.received:
            kind, mine = m.get("Type"), m.get("Playerid") == seat and "Seq" not in m
            told = kind in ("Deal", "Snapshot") or (kind in ("Discard", "Kitty", "Setup") and mine)
            if told and "Hand" in m:
                hand = list(m["Hand"])
            elif kind == "Play" and mine:
                hand.remove(m["PlayedCard"])
        return hand

    async def prompt_frame(self, seq: int) -> Msg:
        """The prompt with ``seq`` and our Legal, as received (frame events may trail
        the page by a moment)."""

        def found() -> Msg | None:
            return next(
                (m for m in reversed(self.received) if m.get("Seq") == seq and "Legal" in m), None
            )

        await self.until(lambda: found() is not None)
        prompt = found()
        assert prompt is not None
        return prompt

    async def wait_turn(self, after: str = "") -> str | None:
        """Wait until it is our turn at a prompt other than ``after`` (its Seq) or the
        game is over; the prompt's Seq, or None when over."""
        result = await self.page.wait_for_function(
            """(after) => {
                if (!document.querySelector('#gameover').hidden) return 'over';
                const p = document.querySelector('#prompt');
                if (p.dataset.mine === '1' && p.dataset.busy !== '1' && p.dataset.seq !== after)
                    return p.dataset.seq;
                return false;
            }""",
            arg=after,
        )
        value = await result.json_value()
        return None if value == "over" else str(value)

    async def choices(self) -> list[str]:
        """The data-value of every choice the page offers, in the keys' order (a pick's
        confirm button last)."""
        values: list[str] = await self.page.eval_on_selector_all(
            "#table .choice",
            "nodes => nodes.sort((a, b) => a.dataset.index - b.dataset.index)"
            ".map(n => n.dataset.value)",
        )
        return values

    async def hand_shown(self) -> list[str]:
        codes: list[str] = await self.page.eval_on_selector_all(
            "#hand .card", "nodes => nodes.map(n => n.dataset.code)"
        )
        return codes


def _decode(payload: str | bytes) -> Msg:
    text = payload.decode() if isinstance(payload, bytes) else payload
    decoded: Msg = json.loads(text)
    return decoded


# ------------------------------------------------------------------ playing


async def check_prompt(person: Person, seq: str) -> Msg:
    """The page shows exactly the prompt's Legal as choices, and our hand as the
    server has it; returns the prompt."""
    prompt = await person.prompt_frame(int(seq))
    shown = await person.choices()
    kind = prompt["Type"]
    if kind in ("Discard", "Setup"):  # the hand's cards to pick from, then confirm
        assert shown[:-1] == [str(c) for c in prompt["Legal"]]
        assert shown[-1] == "confirm"
    elif kind == "Play":
        assert set(shown) == {str(c) for c in prompt["Legal"]}
    else:
        assert shown == [json.dumps(v) for v in prompt["Legal"]]
    assert await person.hand_shown() == person.hand()
    return prompt


async def answer(person: Person, prompt: Msg, rng: random.Random) -> None:
    """Click one of the legal answers (chosen by ``rng``, passing mostly)."""
    page = person.page
    legal: list[Any] = prompt["Legal"]
    kind = prompt["Type"]
    if kind == "Bid":
        bids = [v for v in legal if v != "moon" and v != 0]
        pick = 0 if 0 in legal and (not bids or rng.random() < 0.7) else rng.choice(bids)
        await page.locator("#choices .choice").nth(legal.index(pick)).click()
    elif kind == "Trump":
        await page.locator("#choices .choice").nth(rng.randrange(len(legal))).click()
    elif kind == "Play":
        card = rng.choice(legal)
        await page.locator(f"#hand .choice[data-value='{card}']").first.click()
    elif kind == "Discard":
        for index in sorted(rng.sample(range(len(legal)), rng.randint(0, len(legal)))):
            await page.locator("#hand .choice").nth(index).click()
        await page.click("#choices .confirm")
    elif kind == "Setup":
        count = int(prompt["Count"])
        for index in sorted(rng.sample(range(len(legal)), count)):
            await page.locator("#hand .choice").nth(index).click()
        colour = rng.choice("BGRY")
        await page.click(f"#choices .colour[data-colour={colour}]")
        kept = set(legal)
        calls = [f"{colour}{n}" for n in (1, 14, 13, 12, 11, 10) if f"{colour}{n}" not in kept]
        for k in range(int(prompt["Calls"])):
            await page.select_option(f"#choices select[data-call='{k}']", calls[k])
        await page.click("#choices .confirm")
    else:
        raise AssertionError(f"a prompt the test does not know: {prompt}")


async def play_out(person: Person, rng: random.Random, stop: int | None = None) -> int:
    """Answer our prompts by clicking until the game is over (or ``stop`` moves);
    returns how many moves we made."""
    deadline = time.monotonic() + GAME_SECONDS
    moves, last = 0, ""
    while moves < GAME_MOVES and time.monotonic() < deadline:
        seq = await person.wait_turn(last)
        if seq is None or (stop is not None and moves >= stop):
            return moves
        prompt = await check_prompt(person, seq)
        await answer(person, prompt, rng)
        moves, last = moves + 1, seq
    raise AssertionError(f"the game did not end in {moves} moves / {GAME_SECONDS} s")


async def check_game_over(person: Person) -> Msg:
    """The page shows the final score the server sent."""
    over = [m for m in person.received if m.get("Type") == "Score" and m.get("GameOver")]
    assert over, "no GameOver score"
    final = over[-1]
    text = await person.page.text_content("#final-score") or ""
    for score in final["Score"]:
        assert str(score) in text
    verdict = await person.page.text_content("#gameover") or ""
    assert ("You win!" if final["Win"] else "You lose.") in verdict
    return final


async def no_horizontal_scroll(page: Page) -> None:
    """Nothing is wider than the window, nor sticks out of it on the right."""
    width = await page.evaluate("document.documentElement.scrollWidth")
    inner = await page.evaluate("window.innerWidth")
    assert width <= inner, f"the page is {width} px wide in a {inner} px window"
    beyond = await page.evaluate(
        """(inner) => [...document.querySelectorAll('body *')]
            .filter(n => n.getClientRects().length)
            .filter(n => n.getBoundingClientRect().right > inner + 0.5
                || (!['INPUT', 'SELECT', 'TEXTAREA', 'OPTION'].includes(n.tagName)
                    && n.scrollWidth > n.clientWidth + 1 && n.clientWidth > 0))
            .map(n => n.tagName + '#' + n.id + '.' + n.className)""",
        inner,
    )
    assert not beyond, f"out of a {inner} px window, or out of its box: {beyond}"


# ------------------------------------------------------------------ the tests


@in_browser
async def test_hundred_and_ten_whole_game_by_clicking(site: Site, contexts: Any) -> None:
    ann: Person = await contexts()
    await ann.open(site, "ann")
    # A tab a registered game: the page's games.js covers the registry.
    tabs = await ann.page.eval_on_selector_all(
        "#game-tabs [data-game]", "n => n.map(x => x.dataset.game)"
    )
    assert tabs == list(games.names())
    await ann.create("hundredandten", 1)
    await ann.page.wait_for_selector("#hand .card")
    assert len(await ann.hand_shown()) == 5
    names = await ann.page.eval_on_selector_all(
        ".seat .seat-name", "n => n.map(x => x.textContent)"
    )
    assert names == ["ann (you)", "AI 1", "AI 2", "AI 3"]
    moves = await play_out(ann, random.Random(110))
    assert moves > 10
    await check_game_over(ann)
    assert not ann.errors
    assert not [m for m in ann.received if m.get("Type") == "Error"]
    # Back in the lobby, the seat's token is gone: a reload does not try it.
    assert await ann.page.evaluate("localStorage.getItem('hundred.seat')") is None
    await ann.page.click("#back")
    await ann.page.wait_for_selector("body[data-view=lobby]")


#: Each other game: the preset a person plays against AI only.
OTHER_GAMES = {"whist": 1, "pinochle": 1, "rook": 2, "hundert": 2, "spades": 1}


@in_browser
@pytest.mark.parametrize("game", sorted(OTHER_GAMES))
async def test_other_games_whole_game_by_clicking(site: Site, contexts: Any, game: str) -> None:
    person: Person = await contexts()
    await person.open(site, "bea")
    await person.create(game, OTHER_GAMES[game])
    moves = await play_out(person, random.Random(game))
    assert moves > 3
    await check_game_over(person)
    assert not person.errors
    assert not [m for m in person.received if m.get("Type") == "Error"]


def test_other_games_cover_the_registry() -> None:
    assert {"hundredandten", *OTHER_GAMES} == set(games.names())


@in_browser
async def test_a_reload_takes_the_seat_back(site: Site, contexts: Any) -> None:
    ann: Person = await contexts()
    await ann.open(site, "ann")
    await ann.create("hundredandten", 1)
    rng = random.Random(3)
    await play_out(ann, rng, stop=4)
    seq = await ann.wait_turn()
    assert seq is not None
    seat, hand, shown = ann.seat(), await ann.hand_shown(), await ann.choices()
    saved = await ann.page.evaluate("JSON.parse(localStorage.getItem('hundred.seat'))")
    assert saved["seat"] == seat

    await ann.page.reload()
    assert await ann.wait_turn() == seq  # the pending prompt again, same Seq
    assert {"Type": "Hello", "Token": saved["token"]} in ann.sent
    assert ann.seat() == seat  # the Seat of the reclaim
    assert [m["Type"] for m in ann.received if m.get("Type") == "Snapshot"] == ["Snapshot"]
    assert await ann.page.get_attribute(".seat.me", "data-seat") == str(seat)
    assert await ann.hand_shown() == hand
    assert await ann.choices() == shown
    await check_prompt(ann, seq)
    assert await play_out(ann, rng, stop=3) == 3  # and play goes on
    assert not ann.errors


@in_browser
async def test_keyboard_plays(site: Site, contexts: Any) -> None:
    ann: Person = await contexts()
    await ann.open(site, "ann")
    await ann.create("hundredandten", 1)
    page = ann.page
    done: set[str] = set()
    last = ""
    for _ in range(60):  # a few rounds at most: until each kind was played by keys
        seq = await ann.wait_turn(last)
        assert seq is not None, "the game ended before every prompt was played by keys"
        prompt = await check_prompt(ann, seq)
        assert (await page.title()).startswith("Your turn")
        kind, legal = prompt["Type"], prompt["Legal"]
        shown = await ann.choices()
        sent = len(ann.sent)
        if kind == "Discard":
            await page.keyboard.press("1")  # the first card of the hand
            await page.keyboard.press("Enter")  # in the discard
            assert await page.get_attribute("#hand .choice >> nth=0", "aria-pressed") == "true"
            await page.keyboard.press("End")  # the confirm button
            await page.keyboard.press("Enter")
            expected: Msg = {"Type": "Discard", "Cards": [legal[0]], "Seq": int(seq)}
        else:
            index = 1 if len(shown) > 1 else 0
            await page.keyboard.press("1")
            if index:
                await page.keyboard.press("ArrowRight")
            focused = await page.evaluate("document.activeElement.dataset.value")
            assert focused == shown[index]
            await page.keyboard.press("Enter")
            field_of = {"Bid": "Bid", "Trump": "Trump", "Play": "PlayedCard"}[kind]
            expected = {"Type": kind, field_of: legal[index], "Seq": int(seq)}
        await ann.until(lambda: len(ann.sent) > sent)  # noqa: B023 (awaited here)
        assert ann.sent[sent:] == [expected]
        done.add(kind)
        last = seq
        if {"Bid", "Play", "Discard"} <= done:
            break
    assert {"Bid", "Play", "Discard"} <= done
    assert not [m for m in ann.received if m.get("Type") == "Error"]

    # Leaving the table: quit (an AI takes the seat), and a new connection in the lobby.
    await page.click("#leave")
    await page.wait_for_selector("body[data-view=lobby]")
    assert {"Type": "Hello", "Message": "quit"} in ann.sent
    assert await page.evaluate("localStorage.getItem('hundred.seat')") is None
    await ann.until(lambda: ann.received[-1].get("Type") == "Tables")
    await page.wait_for_selector("#status[data-state=open]")


@in_browser
async def test_a_hovered_card_keeps_its_place(site: Site, contexts: Any) -> None:
    """Hover highlights a card without moving it: a card that rose under the pointer
    left it, fell back and rose again, a jitter that never settled (and a click that
    waited for it to settle timed out)."""
    bea: Person = await contexts(width=375, height=740)
    await bea.open(site, "bea")
    await bea.create("whist", 1)
    seq = await bea.wait_turn()
    assert seq is not None
    card = bea.page.locator("#hand .choice").first
    before = await card.bounding_box()
    assert before is not None
    await bea.page.mouse.move(before["x"] + before["width"] / 2, before["y"] + before["height"] - 1)
    await bea.page.wait_for_timeout(100)
    assert await card.evaluate("n => n.matches(':hover')")
    assert await card.bounding_box() == before


@in_browser
async def test_a_phone_width_has_no_horizontal_scroll(site: Site, contexts: Any) -> None:
    bea: Person = await contexts(width=375, height=740)
    await bea.open(site, "bea")
    await no_horizontal_scroll(bea.page)
    await bea.create("whist", 1)  # thirteen cards in hand
    await play_out(bea, random.Random(5), stop=2)
    assert await bea.wait_turn() is not None
    await no_horizontal_scroll(bea.page)
    ARTIFACTS.mkdir(exist_ok=True)
    await bea.page.screenshot(path=str(ARTIFACTS / "browser-whist-375px.png"), full_page=True)

    # The most crowded prompt: Rook's setup (the kitty in hand, colours, a call).
    await bea.page.click("#leave")
    await bea.page.wait_for_selector("body[data-view=lobby] #status[data-state=open]")
    await bea.create("rook", 2)
    last = ""
    for _ in range(10):
        seq = await bea.wait_turn(last)
        assert seq is not None
        prompt = await check_prompt(bea, seq)
        if prompt["Type"] == "Setup":
            break
        assert prompt["Type"] == "Bid"
        top = max(v for v in prompt["Legal"] if v != "moon")  # win the bid
        await bea.page.locator("#choices .choice").nth(prompt["Legal"].index(top)).click()
        last = seq
    else:
        raise AssertionError("no Setup prompt")
    for index in range(3):
        await bea.page.locator("#hand .choice").nth(index).click()
    await bea.page.click("#choices .colour[data-colour=R]")
    await no_horizontal_scroll(bea.page)


@in_browser
async def test_screenshot_of_a_game_under_way(site: Site, contexts: Any) -> None:
    """Kept in test-artifacts/ (git ignores it) for people to look at."""
    ann: Person = await contexts(width=1100, height=900)
    await ann.open(site, "ann")
    await ann.create("hundredandten", 1)
    await play_out(ann, random.Random(7), stop=6)
    seq = await ann.wait_turn()
    assert seq is not None
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "browser-hundredandten.png"
    await ann.page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000


def hidden_cards(site: Site, table: int) -> set[str]:
    """Every card in a hand at ``table`` now, as the server holds them."""
    game = site.server.hub.lobby.tables[table].game
    assert game is not None
    return {card.code for seat in range(len(game.players)) for card in game.view_for(seat).hand}


async def watch_from_lobby(person: Person, table: int) -> None:
    await person.page.click("#refresh")
    await person.page.click(f"#tables li[data-table='{table}'] .watch")
    await person.page.wait_for_selector("body[data-view=table] #seats .seat")


@in_browser
async def test_a_watcher_sees_the_table_and_no_hand(site: Site, contexts: Any) -> None:
    ann: Person = await contexts()
    await ann.open(site, "ann")
    await ann.create("hundredandten", 1)
    rng = random.Random(4)
    await play_out(ann, rng, stop=3)
    seq = await ann.wait_turn()
    assert seq is not None
    table = next(m["Table"] for m in ann.received if m.get("Type") == "Seat")

    cy: Person = await contexts()
    await cy.open(site, "cy")
    await watch_from_lobby(cy, table)
    page = cy.page
    await page.wait_for_selector("#table-meta:has-text('you are watching')")
    names = await page.eval_on_selector_all(".seat .seat-name", "n => n.map(x => x.textContent)")
    assert names == ["ann", "AI 1", "AI 2", "AI 3"]
    assert await page.is_hidden("#hand-box")
    assert await page.locator("#hand .card").count() == 0
    assert await page.locator(".choice").count() == 0
    # The watcher's Table counts it (once a game is under way, only newcomers are told).
    assert [m["Watchers"] for m in cy.received if m.get("Type") == "Table"] == [1]
    assert "1 watching" in (await page.text_content("#table-meta") or "")

    async def shown_codes() -> set[str]:
        codes = await page.eval_on_selector_all("[data-code]", "n => n.map(x => x.dataset.code)")
        return set(codes)

    hidden = hidden_cards(site, table)
    assert len(hidden) > 4
    assert not (await shown_codes()) & hidden
    html = await page.content()
    assert not [code for code in hidden if f'data-code="{code}"' in html]
    assert not [m for m in cy.received if "Hand" in m or "Legal" in m]

    # ann plays on: the watcher sees the moves, and still no hand.
    for _ in range(3):
        prompt = await check_prompt(ann, seq)
        await answer(ann, prompt, rng)
        if prompt["Type"] == "Play":
            card = next(m for m in reversed(ann.sent) if m.get("Type") == "Play")["PlayedCard"]
            await page.wait_for_selector(f"#center [data-code='{card}']")  # trick or last
        next_seq = await ann.wait_turn(seq)
        if next_seq is None:
            break
        seq = next_seq
        assert not (await shown_codes()) & hidden_cards(site, table)
    assert not [m for m in cy.received if "Hand" in m or "Legal" in m]
    ARTIFACTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / "browser-watcher.png"), full_page=True)

    await page.click("#leave")  # stop watching
    await page.wait_for_selector("body[data-view=lobby]")
    assert {"Type": "Leave"} in cy.sent
    assert not cy.errors
    assert not [m for m in cy.received if m.get("Type") == "Error"]


#: Every card of Hundred and Ten's deck, for a card one does not hold.
FRENCH_DECK = [r + s for s in "SHDC" for r in "23456789TJQKA"] + ["JK"]


@in_browser
async def test_errors_are_shown_next_to_what_caused_them(site: Site, contexts: Any) -> None:
    ann: Person = await contexts()
    tamper = {"armed": False}

    async def route(socket: WebSocketRoute) -> None:
        """Pass frames on, but turn the first Play after arming into a card we lack."""
        server = socket.connect_to_server()

        def from_page(frame: str | bytes) -> None:
            msg = _decode(frame)
            if tamper["armed"] and msg.get("Type") == "Play":
                tamper["armed"] = False
                msg["PlayedCard"] = next(c for c in FRENCH_DECK if c not in ann.hand())
            server.send(json.dumps(msg))

        socket.on_message(from_page)

    await ann.page.route_web_socket("**/ws", route)
    await ann.page.goto(site.url)
    await ann.page.fill("#name", "AI")  # reserved
    await ann.page.press("#name", "Enter")
    await ann.page.wait_for_selector("#name-error:has-text('reserved')")
    await ann.page.fill("#name", "ann")
    await ann.page.press("#name", "Enter")
    assert await ann.page.text_content("#name-error") == ""
    await ann.create("hundredandten", 1)

    rng = random.Random(9)
    last = ""
    for _ in range(40):  # until a Play prompt
        seq = await ann.wait_turn(last)
        assert seq is not None
        prompt = await check_prompt(ann, seq)
        if prompt["Type"] == "Play":
            break
        await answer(ann, prompt, rng)
        last = seq
    else:
        raise AssertionError("no Play prompt")
    tamper["armed"] = True
    before = len(ann.received)
    await ann.page.locator("#hand .choice").first.click()
    await ann.until(lambda: any(m.get("Type") == "Error" for m in ann.received[before:]))
    error = next(m for m in ann.received[before:] if m.get("Type") == "Error")
    assert error["Code"] == "not_in_hand"
    await ann.page.wait_for_selector("#prompt-error:not(:empty)")
    assert await ann.page.text_content("#prompt-error") == error["Message"]
    assert await ann.wait_turn() == seq  # the same prompt, to answer again
    await check_prompt(ann, seq)
    await ann.page.locator("#hand .choice").first.click()
    assert await ann.wait_turn(seq) != seq
    assert await ann.page.text_content("#prompt-error") == ""


@in_browser
async def test_a_dropped_connection_reconnects_to_the_seat(site: Site, contexts: Any) -> None:
    ann: Person = await contexts()
    links: list[tuple[WebSocketRoute, WebSocketRoute]] = []
    refuse = {"next": 0}

    async def route(socket: WebSocketRoute) -> None:
        if refuse["next"]:
            refuse["next"] -= 1
            await socket.close()
            return
        server = socket.connect_to_server()
        links.append((socket, server))

    await ann.page.route_web_socket("**/ws", route)
    await ann.open(site, "ann")
    await ann.create("hundredandten", 1)
    await play_out(ann, random.Random(11), stop=2)
    seq = await ann.wait_turn()
    assert seq is not None
    hand = await ann.hand_shown()
    token = (await ann.page.evaluate("JSON.parse(localStorage.getItem('hundred.seat'))"))["token"]

    refuse["next"] = 1  # the first try again fails too
    page_side, server_side = links[-1]
    await server_side.close()
    await page_side.close()
    await ann.page.wait_for_selector("#status[data-state=reconnecting]")
    assert await ann.page.text_content("#status") == "reconnecting…"
    await ann.page.wait_for_selector("#status[data-state=open]")
    assert await ann.wait_turn() == seq
    assert len(links) == 2
    assert ann.sent.count({"Type": "Hello", "Token": token}) == 1
    assert await ann.hand_shown() == hand
    await check_prompt(ann, seq)


async def next_prompt(person: Person, after: int) -> Msg:
    """The first prompt (any seat's) ``person`` was sent after Seq ``after``."""

    def later() -> list[Msg]:
        return [m for m in person.received if m.get("Seq", 0) > after]

    await person.until(lambda: bool(later()), 10)
    return later()[0]


async def two_at_a_table(
    site: Site, contexts: Any, ann: Person | None = None, bea: Person | None = None
) -> tuple[Person, Person, int]:
    """ann opens a table of her choice (two seats, no AI, a 60 s clock) and bea joins
    it from the lobby's list; the game starts. (Either, if not given, opens a page.)"""
    if ann is None:
        ann = await contexts()
        await ann.open(site, "ann")
    page = ann.page
    await page.wait_for_selector("#custom:not([hidden])")
    await page.select_option("#custom-seats", "2")
    await page.select_option("#custom-bots", "0")
    await page.fill("#custom-name", "duel")
    await page.fill("#custom-clock", "60")
    await page.click("#custom-create")
    await page.wait_for_selector("#table-meta:has-text('waiting for 1 more')")
    table = next(m["Table"] for m in ann.received if m.get("Type") == "Seat")
    assert {
        "Type": "Game",
        "Game": "hundredandten",
        "Option": 5,
        "Seats": 2,
        "Bots": 0,
    }.items() <= (next(m for m in ann.sent if m.get("Type") == "Game").items())

    if bea is None:
        bea = await contexts()
        await bea.open(site, "bea")
    await bea.page.click("#refresh")
    await bea.page.click(f"#tables li[data-table='{table}'] .join")
    for person, names in ((ann, ["ann (you)", "bea"]), (bea, ["ann", "bea (you)"])):
        await person.page.wait_for_selector("#hand .card")
        shown = await person.page.eval_on_selector_all(
            ".seat .seat-name", "n => n.map(x => x.textContent)"
        )
        assert shown == names
    return ann, bea, table


@in_browser
async def test_two_people_at_a_table_of_their_choice(site: Site, contexts: Any) -> None:
    ann, bea, _table = await two_at_a_table(site, contexts)
    people = {ann.seat(): ann, bea.seat(): bea}
    assert sorted(people) == [0, 1]
    # ann deals, bea bids first: meanwhile ann may pass early, and take it back.
    first = await next_prompt(ann, 0)
    assert (first["Type"], first["Playerid"]) == ("Bid", bea.seat())
    await ann.page.click("#choices button:has-text('pass early')")
    await ann.page.wait_for_selector("#choices button:has-text('take back the pass')")
    assert {"Type": "Bid", "Playerid": ann.seat(), "Bid": 0, "PrePass": True} in ann.received
    await ann.page.click("#choices button:has-text('take back the pass')")
    await ann.page.wait_for_selector("#choices button:has-text('pass early')")
    assert {"Type": "Unpass", "Playerid": ann.seat()} in ann.received
    rng, last = random.Random(2), 0
    for _ in range(8):
        prompt = await next_prompt(ann, last)
        actor, other = people[prompt["Playerid"]], people[1 - prompt["Playerid"]]
        seq = await actor.wait_turn(str(last))
        assert seq == str(prompt["Seq"])
        # The other page says whose turn it is, with the clock running.
        name = "ann" if actor is ann else "bea"
        await other.page.wait_for_selector(f"#prompt-text:has-text('Waiting for {name}')")
        await other.page.wait_for_selector(f".seat[data-seat='{prompt['Playerid']}'] .clock")
        clock = await actor.page.text_content("#prompt-text .clock") or ""
        assert 0 < float(clock.strip().removesuffix(" s")) <= 60
        await answer(actor, await check_prompt(actor, seq), rng)
        last = int(seq)
    for person in (ann, bea):
        assert not person.errors


async def say(person: Person, text: str) -> None:
    await person.page.fill("#chat-input", text)
    await person.page.press("#chat-input", "Enter")
    assert await person.page.input_value("#chat-input") == ""


def chat_line(sender: str, text: str) -> str:
    return f"#chat-lines li[data-from='{sender}']:has-text('{text}')"


@in_browser
async def test_chat_reaches_the_other_page_and_mute_hides_it(site: Site, contexts: Any) -> None:
    ann: Person = await contexts()
    bea: Person = await contexts()
    await ann.open(site, "ann")
    await bea.open(site, "bea")

    # In the lobby.
    await say(ann, "hello lobby")
    await bea.page.wait_for_selector(chat_line("ann", "hello lobby"))
    assert "lobby" in (await bea.page.text_content(chat_line("ann", "hello lobby")) or "")

    # At a table (ann's, two seats), bea says it; then ann mutes her.
    ann, bea, _table = await two_at_a_table(site, contexts, ann, bea)
    await say(bea, "good luck")
    await ann.page.wait_for_selector(chat_line("bea", "good luck"))
    assert "table" in (await ann.page.text_content(chat_line("bea", "good luck")) or "")
    await ann.page.click(f"{chat_line('bea', 'good luck')} .mute")
    await ann.page.wait_for_selector("#muted .unmute[data-name='bea']")
    assert await ann.page.locator("#chat-lines li[data-from='bea']").count() == 0
    assert {"Type": "Mute", "Name": "bea"} in ann.sent

    await say(bea, "psst")
    await bea.page.wait_for_selector(chat_line("bea", "psst"))  # said (the server has it)
    await say(ann, "probe")  # after bea's line: had ann been told it, it came first
    await ann.page.wait_for_selector(chat_line("ann", "probe"))
    assert await ann.page.locator("#chat-lines li[data-from='bea']").count() == 0
    assert not [m for m in ann.received if m.get("Type") == "Chat" and m.get("From") == "bea"][1:]

    await ann.page.click("#muted .unmute[data-name='bea']")
    assert {"Type": "Unmute", "Name": "bea"} in ann.sent
    await say(bea, "back again")
    await ann.page.wait_for_selector(chat_line("bea", "back again"))
    for person in (ann, bea):
        assert not person.errors
        assert not [m for m in person.received if m.get("Type") == "Error"]
