"""The page (hundred_server/static/) in a real browser: Debian's Chromium, driven by
Playwright, against an in-process server on 127.0.0.1 (its WebSocket and page port on
port 0), in the test's own event loop (the person and the site: tests/support/browser.py).

A person clicks through whole games of every registered game; a quick click never makes
a table of another game; a reload takes the seat back; a second page watches and sees no
hidden card; chat goes from page to page and mute stops it; the keyboard plays; the
page fits a phone's width; a card played moves to the middle and a trick taken goes to
its winner; axe-core (vendored in tests/vendor/) finds no serious or critical
accessibility violation, light and dark; and a screenshot of a game under way is kept
in test-artifacts/ (not committed).

Every wait is bounded (Playwright's timeouts, a deadline and a move count a game), and
the browser, its contexts and the server are closed whatever happens. Chromium comes
from the OS (scripts/ensure-chromium installs it); Playwright never downloads one.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import (
    Browser,
    BrowserContext,
    Page,
    WebSocketRoute,
    async_playwright,
)

from hundred_server import games
from tests.support.browser import (
    ACTION_MS,
    CHROMIUM,
    HAVE_CHROMIUM,
    VISIBLE_POINT,
    Msg,
    Person,
    Site,
    answer,
    check_game_over,
    check_prompt,
    click_shown,
    decode,
    launch,
    no_horizontal_scroll,
    play_out,
    running_site,
)

#: The async tests share the module's event loop (the browser is started once).
in_browser = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


# ------------------------------------------------------------------ fixtures


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Browser]:
    if not HAVE_CHROMIUM:
        pytest.fail(f"no Chromium at {CHROMIUM}: run scripts/ensure-chromium")
    async with async_playwright() as playwright:
        chromium = await launch(playwright)
        try:
            yield chromium
        finally:
            await chromium.close()


@pytest_asyncio.fixture(loop_scope="module")
async def site() -> AsyncIterator[Site]:
    async with running_site() as running:
        yield running


@pytest_asyncio.fixture(loop_scope="module")
async def contexts(browser: Browser) -> AsyncIterator[Callable[..., Any]]:
    """``await new(width=...)``: a fresh browser context (its own localStorage) and a
    page in it (``motion``: with animations; ``dark``: the dark colour scheme); all
    closed after the test."""
    made: list[BrowserContext] = []

    async def new(
        width: int = 1000, height: int = 900, motion: bool = False, dark: bool = False
    ) -> Person:
        context = await browser.new_context(
            viewport={"width": width, "height": height},
            # Cards come and go without animations unless a test looks at them.
            reduced_motion="no-preference" if motion else "reduce",
            color_scheme="dark" if dark else "light",
        )
        context.set_default_timeout(ACTION_MS)
        made.append(context)
        page = await context.new_page()
        return Person(page)

    try:
        yield new
    finally:
        for context in made:
            await context.close()


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
    final = await check_game_over(ann)
    # The running score, by seat, and what ends the game, in the bar.
    scores = await ann.page.eval_on_selector_all(
        "#scoreline .score", "n => n.map(x => x.textContent)"
    )
    assert scores == [
        f"{name} {score}"
        for name, score in zip(["ann", "AI 1", "AI 2", "AI 3"], final["Score"], strict=True)
    ]
    assert "(game to 110)" in (await ann.page.text_content("#scoreline") or "")
    assert await axe_violations(ann.page) == [], "the game over"
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
    bea: Person = await contexts(width=375, height=740, motion=True)
    await bea.open(site, "bea")
    await bea.create("whist", 1)
    seq = await bea.wait_turn()
    assert seq is not None
    card = bea.page.locator("#hand .choice").first
    # The lowest point where it shows from under the next card (a rising card would
    # leave the pointer there).
    point = await card.evaluate(
        """(node) => {
            const r = node.getBoundingClientRect();
            for (let y = r.bottom - 2; y > r.top; y -= 2)
                for (let x = r.left + 2; x < r.right; x += 2) {
                    const hit = document.elementFromPoint(x, y);
                    if (hit && (hit === node || node.contains(hit))) return {x, y};
                }
            return null;
        }"""
    )
    before = await card.bounding_box()
    assert before is not None
    assert point is not None
    await bea.page.mouse.move(point["x"], point["y"])
    await bea.page.wait_for_timeout(200)
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
    # Cards a finger can take: large, and each legal one showing from under the next.
    widths = await bea.page.eval_on_selector_all(
        "#hand .card", "n => n.map(x => x.getBoundingClientRect().width)"
    )
    assert len(widths) == 13 - 2
    assert min(widths) >= 50
    for card in await bea.page.locator("#hand .choice").all():
        assert await card.evaluate(VISIBLE_POINT) is not None
    # At the foot of the page, the bar (bid, trump, score) is still in sight.
    await bea.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert await bea.page.evaluate("window.scrollY") > 0
    bar = await bea.page.evaluate(
        "(() => { const r = document.querySelector('#bar').getBoundingClientRect();"
        " return [r.top, r.bottom, innerHeight]; })()"
    )
    assert 0 <= bar[0] < bar[1] <= bar[2]
    assert "Trump" in (await bea.page.text_content("#bar") or "")
    # Narrower still: the fan takes another look at the width, and fits it.
    await bea.page.set_viewport_size({"width": 320, "height": 640})
    await bea.page.wait_for_function(
        "() => [...document.querySelectorAll('#hand .fan-row')]"
        ".every(r => r.scrollWidth <= r.clientWidth)"
    )
    await no_horizontal_scroll(bea.page)
    assert await bea.page.locator("#hand .fan-row").count() == 2
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
        await click_shown(bea.page, bea.page.locator("#hand .choice").nth(index))
    await bea.page.click("#choices .colour[data-colour=R]")
    await no_horizontal_scroll(bea.page)
    assert await axe_violations(bea.page) == [], "Rook's setup"


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
async def test_a_name_typed_before_the_greeting_costs_no_games_options(
    site: Site, contexts: Any
) -> None:
    """The name field holds a refused name when the socket's greeting comes (the page
    then asks every game's options): the options are asked without it, so they all
    come, and a table is made once the name is right."""
    ann: Person = await contexts()
    held: list[str | bytes] = []
    page_side: list[WebSocketRoute] = []
    greeted = asyncio.Event()

    async def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        page_side.append(socket)

        def from_server(frame: str | bytes) -> None:
            if held or not page_side[1:]:  # held until the name is typed
                held.append(frame)
                greeted.set()
            else:
                socket.send(frame)

        server.on_message(from_server)
        socket.on_message(server.send)

    await ann.page.route_web_socket("**/ws", route)
    await ann.page.goto(site.url)
    await ann.page.fill("#name", "AI")  # reserved: refused in any Hello that names it
    await ann.page.press("#name", "Enter")
    await asyncio.wait_for(greeted.wait(), 10)  # the greeting, held
    [socket] = page_side
    page_side.append(socket)  # from now on frames pass
    while held:
        socket.send(held.pop(0))
    await ann.page.fill("#name", "ann")
    await ann.page.press("#name", "Enter")
    await ann.create("hundredandten", 1)  # its options shown, clicked: at the table


@in_browser
async def test_errors_are_shown_next_to_what_caused_them(site: Site, contexts: Any) -> None:
    ann: Person = await contexts()
    tamper = {"armed": False}

    async def route(socket: WebSocketRoute) -> None:
        """Pass frames on, but turn the first Play after arming into a card we lack."""
        server = socket.connect_to_server()

        def from_page(frame: str | bytes) -> None:
            msg = decode(frame)
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
    await click_shown(ann.page, ann.page.locator("#hand .choice").first)
    await ann.until(lambda: any(m.get("Type") == "Error" for m in ann.received[before:]))
    error = next(m for m in ann.received[before:] if m.get("Type") == "Error")
    assert error["Code"] == "not_in_hand"
    await ann.page.wait_for_selector("#prompt-error:not(:empty)")
    assert await ann.page.text_content("#prompt-error") == error["Message"]
    assert await ann.wait_turn() == seq  # the same prompt, to answer again
    await check_prompt(ann, seq)
    await click_shown(ann.page, ann.page.locator("#hand .choice").first)
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


# ------------------------------------------------------------------ the game switch


async def options_loaded(person: Person) -> None:
    """Every game's options have come (the page asks for them all on connecting)."""
    await person.until(
        lambda: sum(m.get("Type") == "Game" for m in person.received) >= len(games.names())
    )


@in_browser
async def test_a_game_tab_switches_at_once_and_a_quick_click_makes_that_game(
    site: Site, contexts: Any
) -> None:
    ann: Person = await contexts()
    await ann.open(site, "ann")
    await options_loaded(ann)
    page = ann.page
    # A tab's click shows that game's presets in the same task: nothing to wait for.
    for game in games.names():
        shown = await page.evaluate(
            """(game) => {
                document.querySelector(`#game-tabs [data-game=${game}]`).click();
                const box = document.querySelector('#options');
                return [box.dataset.game,
                        [...box.querySelectorAll('[data-option]')].map(b => b.dataset.game)];
            }""",
            game,
        )
        assert shown[0] == game
        assert shown[1]
        assert set(shown[1]) == {game}
    # A message's render keeps the tabs and the presets (a click never lands on a
    # button replaced under the pointer).
    tab = await page.query_selector("#game-tabs [data-game=rook]")
    preset = await page.query_selector("#options [data-option='1']")
    assert tab is not None
    assert preset is not None
    await say(ann, "a render")
    await page.wait_for_selector(chat_line("ann", "a render"))
    assert await tab.evaluate("n => n.isConnected")
    assert await preset.evaluate("n => n.isConnected")

    # Three tabs and a preset clicked in one go: a table of the last tab's game.
    await page.evaluate(
        """() => {
            for (const game of ['whist', 'spades', 'rook'])
                document.querySelector(`#game-tabs [data-game=${game}]`).click();
            document.querySelector("#options [data-option='2']").click();
        }"""
    )
    await page.wait_for_selector("body[data-view=table]")
    await ann.until(lambda: any(m.get("Type") == "Table" for m in ann.received))
    table = next(m for m in ann.received if m.get("Type") == "Table")
    assert table["Game"] == "rook"
    assert table["Seats"] == 4  # Rook's preset 2: you against three AI
    sent = [m for m in ann.sent if m.get("Type") == "Game"]
    assert [(m["Game"], m["Option"]) for m in sent] == [("rook", 2)]
    await page.click("#leave")
    await page.wait_for_selector("body[data-view=lobby] #status[data-state=open]")

    # And by the mouse, as quick as Playwright clicks: tab, then preset.
    before = len(ann.received)
    await options_loaded(ann)
    await page.click("#game-tabs [data-game=hundert]")
    await page.click("#options [data-option='1']")
    await page.wait_for_selector("body[data-view=table]")
    await ann.until(lambda: any(m.get("Type") == "Table" for m in ann.received[before:]))
    table = next(m for m in ann.received[before:] if m.get("Type") == "Table")
    assert (table["Game"], table["Seats"]) == ("hundert", 2)  # Hundert's preset 1: one AI
    assert not ann.errors
    assert not [m for m in ann.received if m.get("Type") == "Error"]


@in_browser
async def test_a_game_the_server_lacks_leaves_the_other_games_options_right(
    site: Site, contexts: Any
) -> None:
    """The options come in the order asked, with no game's name on them: a game the
    server refuses (``bad_game``) gets none, and the next game's are its own."""
    ann: Person = await contexts()

    async def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def from_page(frame: str | bytes) -> None:
            msg = decode(frame)
            if msg.get("Type") == "Hello" and msg.get("Game") == "pinochle":
                msg["Game"] = "nosuch"
            server.send(json.dumps(msg))

        socket.on_message(from_page)

    await ann.page.route_web_socket("**/ws", route)
    await ann.open(site, "ann")
    await ann.until(
        lambda: sum(m.get("Type") == "Game" for m in ann.received) >= len(games.names()) - 1
    )
    assert [m["Code"] for m in ann.received if m.get("Type") == "Error"] == ["bad_game"]
    page = ann.page
    await page.click("#game-tabs [data-game=pinochle]")
    await page.wait_for_selector("#options:has-text('This server does not offer this game.')")
    firsts = {}
    for game in ("rook", "hundert", "spades"):
        await page.click(f"#game-tabs [data-game={game}]")
        firsts[game] = await page.text_content("#options [data-option='1']")
    assert firsts == {
        "rook": "3 players: you against two AI",
        "hundert": "You against one AI (2 players)",
        "spades": "Play against three AI players and start immediately",
    }
    await page.click("#game-tabs [data-game=rook]")
    await page.click("#options [data-option='1']")
    await ann.until(lambda: any(m.get("Type") == "Table" for m in ann.received))
    table = next(m for m in ann.received if m.get("Type") == "Table")
    assert (table["Game"], table["Seats"]) == ("rook", 3)


# ------------------------------------------------------------------ motion


#: Records every played card that enters the trick, and every one taken away, with the
#: animations it runs.
WATCH_MOTION = """() => {
    window.entered = [];
    window.taken = [];
    const record = (list) => (mutations) => {
        for (const m of mutations)
            for (const n of m.addedNodes)
                list.push({seat: n.dataset.seat, place: n.dataset.place, to: n.dataset.to,
                           animations: n.getAnimations().map(a => a.animationName)});
    };
    new MutationObserver(record(window.entered))
        .observe(document.querySelector('#trick'), {childList: true});
    new MutationObserver(record(window.taken))
        .observe(document.querySelector('#taken'), {childList: true});
}"""


def place_of(seat: int, me: int, seats: int = 4) -> str:
    """Where a seat sits around the table, seen from ``me`` (render.js's PLACES)."""
    places = {2: ["bottom", "top"], 4: ["bottom", "left", "top", "right"]}[seats]
    return places[(seat - me) % seats]


async def play_tricks(person: Person, rng: random.Random, tricks: int) -> None:
    """Answer by clicks until ``tricks`` tricks have been taken and the next begun."""
    last = ""
    for _ in range(80):
        done = [m for m in person.received if m.get("Type") == "Trick"]
        plays_after = [m for m in person.received if "PlayedCard" in m]
        if len(done) >= tricks and len(plays_after) > tricks * 4:
            return
        seq = await person.wait_turn(last)
        assert seq is not None
        await answer(person, await check_prompt(person, seq), rng)
        last = seq
    raise AssertionError(f"not {tricks} tricks in 80 prompts")


@in_browser
async def test_a_card_played_comes_in_from_its_player_and_a_trick_goes_to_its_winner(
    site: Site, contexts: Any
) -> None:
    ann: Person = await contexts(motion=True)
    await ann.open(site, "ann")
    await ann.create("hundredandten", 1)
    await ann.page.evaluate(WATCH_MOTION)
    await play_tricks(ann, random.Random(12), 3)
    me = ann.seat()
    plays = [m for m in ann.received if "PlayedCard" in m]
    entered = await ann.page.evaluate("window.entered")
    assert len(entered) >= len(plays[:12])
    for node, play in zip(entered, plays, strict=False):
        assert node["seat"] == str(play["Playerid"])
        assert node["place"] == place_of(play["Playerid"], me)
        assert node["animations"] == ["enter"]
    # Each of the first three tricks went, card by card, to its winner's place.
    winners = [m["Playerid"] for m in ann.received if m.get("Type") == "Trick"][:3]
    taken = await ann.page.evaluate("window.taken")
    assert [n["to"] for n in taken[:12]] == [place_of(w, me) for w in winners for _ in range(4)]
    assert all(n["animations"] == ["take"] for n in taken)
    # And they are gone once there.
    await ann.page.wait_for_function("() => !document.querySelector('#taken').children.length")


@in_browser
async def test_reduced_motion_moves_nothing(site: Site, contexts: Any) -> None:
    ann: Person = await contexts()  # prefers-reduced-motion: reduce
    await ann.open(site, "ann")
    await ann.create("hundredandten", 1)
    await ann.page.evaluate(WATCH_MOTION)
    await play_tricks(ann, random.Random(13), 2)
    entered = await ann.page.evaluate("window.entered")
    assert entered
    assert all(n["animations"] == [] for n in entered)
    # The last trick taken stays in sight, with its winner (seen at our next prompt,
    # when all that came before it has come).
    seq = await ann.wait_turn()
    assert seq is not None
    await ann.prompt_frame(int(seq))
    plays = [m["PlayedCard"] for m in ann.received if "PlayedCard" in m]
    winners = [m["Playerid"] for m in ann.received if m.get("Type") == "Trick"]
    assert len(winners) < 5  # still the first deal (five tricks)
    # The trick before the one on the table (which has begun: we are to play in it).
    done = len(winners) - (len(plays) == 4 * len(winners))
    winner = winners[done - 1]
    last = await ann.page.eval_on_selector_all(
        "#last-trick [data-code]", "n => n.map(x => x.dataset.code)"
    )
    assert last == plays[4 * (done - 1) : 4 * done]
    title = await ann.page.text_content("#last-trick .last-title")
    assert title == f"Last trick, to {(['ann', 'AI 1', 'AI 2', 'AI 3'])[winner]}:"
    assert await ann.page.evaluate("window.taken") == []
    assert await ann.page.evaluate("document.getAnimations().length") == 0


# ------------------------------------------------------------------ accessibility

AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
#: axe's run, with what each violation is and where (a few of its nodes).
RUN_AXE = """() => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(
    v => ({id: v.id, impact: v.impact, help: v.help,
           nodes: v.nodes.slice(0, 4).map(n => n.target.join(' '))})))"""


@functools.cache
def axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


async def axe_violations(page: Page) -> list[Msg]:
    """The serious and critical violations axe-core finds on the page as it is."""
    if not await page.evaluate("typeof axe !== 'undefined'"):
        await page.evaluate(axe_source())  # an evaluation: the page's CSP allows no script
    found: list[Msg] = await page.evaluate(RUN_AXE)
    return [v for v in found if v["impact"] in ("serious", "critical")]


@in_browser
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
async def test_axe_finds_no_serious_violation(site: Site, contexts: Any, dark: bool) -> None:
    ann: Person = await contexts(dark=dark)
    await ann.open(site, "ann")
    await options_loaded(ann)
    scheme = await ann.page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    assert scheme is dark
    assert await axe_violations(ann.page) == [], "the lobby"
    await ann.create("hundredandten", 1)
    rng, last, kinds = random.Random(30), "", set()
    for _ in range(40):  # each kind of prompt, and a trick on the table
        seq = await ann.wait_turn(last)
        assert seq is not None
        prompt = await check_prompt(ann, seq)
        if prompt["Type"] not in kinds:
            kinds.add(prompt["Type"])
            assert await axe_violations(ann.page) == [], f"at a {prompt['Type']} prompt"
        if prompt["Type"] == "Play" and any(m.get("Type") == "Trick" for m in ann.received):
            assert await axe_violations(ann.page) == [], "a trick played"
            break
        await answer(ann, prompt, rng)
        last = seq
    else:
        raise AssertionError("no Play after a trick in 40 prompts")
    assert {"Bid", "Play"} <= kinds
