"""A person at the page (hundred_server/static/) in Debian's Chromium, driven by
Playwright: the in-process site, the browser, and a person who opens the page, creates
a table and plays it by clicking (tests/e2e/test_browser.py, and the screenshots of
``make screenshots``, tests/support/screenshots.py).

Every wait is bounded (Playwright's timeouts, a deadline and a move count a game).
Chromium comes from the OS (scripts/ensure-chromium installs it); Playwright never
downloads one.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Locator, Page, Playwright, WebSocket

from hundred_server.config import AISettings, Listeners, Settings
from hundred_server.core.hub import Hub
from hundred_server.io.server import Server

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


async def launch(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless, with a fresh temporary profile."""
    return await playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
    )


@dataclass
class Site:
    server: Server
    url: str


@asynccontextmanager
async def running_site(seed: str | None = None) -> AsyncIterator[Site]:
    """A server on 127.0.0.1 (its WebSocket and page port on port 0), the naive AI;
    ``seed``: every table's deals from that seed (else each its own)."""
    settings = Settings(listeners=Listeners("127.0.0.1", 0, http_port=0))
    seeds = None if seed is None else (lambda: seed)
    server = Server(Hub(ai=AISettings("naive"), seed_source=seeds), settings)
    await server.start()
    try:
        yield Site(server, f"http://127.0.0.1:{server.http_port}/")
    finally:
        await server.close()


#: A point of a node where a click lands on it (the node topmost there): a card of a
#: fanned hand lies partly under its neighbour, and a person clicks what shows of it.
VISIBLE_POINT = """(node) => {
    node.scrollIntoView({block: "nearest", inline: "nearest"});
    const r = node.getBoundingClientRect();
    for (const fy of [0.5, 0.3, 0.7, 0.15, 0.85]) {
        for (let fx = 0.1; fx < 1; fx += 0.1) {
            const x = r.left + r.width * fx, y = r.top + r.height * fy;
            const hit = document.elementFromPoint(x, y);
            if (hit && (hit === node || node.contains(hit))) return {x, y};
        }
    }
    return null;
}"""


async def click_shown(page: Page, locator: Locator) -> None:
    """Click ``locator`` (one node) with the mouse where it shows."""
    await locator.wait_for()
    point = await locator.evaluate(VISIBLE_POINT)
    assert point is not None, "the node shows nowhere: nothing to click"
    await page.mouse.click(point["x"], point["y"])


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
        frames.append(decode(payload))
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


def decode(payload: str | bytes) -> Msg:
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
    """Click one of the legal answers (chosen by ``rng``, passing mostly); back when the
    page has sent it."""
    sent = len(person.sent)
    await click_answer(person, prompt, rng)
    await person.until(lambda: len(person.sent) > sent)


async def click_answer(person: Person, prompt: Msg, rng: random.Random) -> None:
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
        await click_shown(page, page.locator(f"#hand .choice[data-value='{card}']").first)
    elif kind == "Discard":
        for index in sorted(rng.sample(range(len(legal)), rng.randint(0, len(legal)))):
            await click_shown(page, page.locator("#hand .choice").nth(index))
        await page.click("#choices .confirm")
    elif kind == "Setup":
        count = int(prompt["Count"])
        for index in sorted(rng.sample(range(len(legal)), count)):
            await click_shown(page, page.locator("#hand .choice").nth(index))
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
