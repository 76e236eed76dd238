"""The results pages (static/results-*.html, results.js) in a real browser (Debian's
Chromium, driven by Playwright) against an in-process server with a store: after a
rated game, the leaderboard lists the account, its page lists the game, and the game
viewer steps through the record trick by trick. Every wait is bounded."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from tests.e2e.test_browser import axe_violations
from tests.io.test_api import rated_game, register, running
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, HAVE_CHROMIUM


@pytest.mark.asyncio
async def test_leaderboard_account_and_game_viewer(tmp_path: Path) -> None:
    if not HAVE_CHROMIUM:
        pytest.fail(f"no Chromium at {CHROMIUM}: run scripts/ensure-chromium")
    async with running(tmp_path, static=True) as server, async_playwright() as playwright:
        key = await register(server, "Hal")
        await rated_game(server, key)
        base = f"http://127.0.0.1:{server.http_port}"
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = await browser.new_page()
            page.set_default_timeout(10_000)
            await page.goto(f"{base}/")  # the table page links to the leaderboards
            await page.get_by_role("link", name="Leaderboards").click()
            await page.wait_for_url("**/results-leaderboard.html")
            for _ in range(50):  # the rating is written just after the game's end
                await page.goto(f"{base}/results-leaderboard.html?game=whist&pool=people")
                rows = page.locator("#board tbody tr")
                if await rows.count():
                    break
                await page.wait_for_timeout(100)
            assert await rows.count() == 1
            cells = await rows.first.locator("td").all_inner_texts()
            assert (cells[0], cells[1], cells[4]) == ("1", "Hal", "1")
            assert await axe_violations(page) == [], "the leaderboard"
            await rows.first.locator("a").click()
            await page.wait_for_url("**/results-account.html?name=Hal")
            await page.locator("#games a").first.wait_for()
            assert await page.locator("#name").inner_text() == "Hal"
            assert await axe_violations(page) == [], "the account page"
            await page.locator("#games a").first.click()
            await page.wait_for_url("**/results-game.html?id=*")
            title = page.locator("#step h3")
            await title.wait_for()
            assert (await title.inner_text()).startswith("Round 1: dealt by ")
            assert await page.locator("#prev").is_disabled()
            await page.locator("#next").click()  # Whist has no auction: the first trick
            assert await title.inner_text() == "Trick 1"
            plays = page.locator("#step li")
            assert await plays.count() == 4  # four cards played, each drawn as a card
            labels = await page.locator("#step li .card").evaluate_all(
                "cards => cards.map(c => c.getAttribute('aria-label'))"
            )
            assert len(labels) == 4
            assert all(" of " in label for label in labels)  # e.g. "queen of hearts"
            who = await plays.first.locator(".who").inner_text()
            assert (await plays.first.text_content() or "").strip() == f"{who} plays"
            await page.keyboard.press("ArrowLeft")  # the arrow keys step too
            assert (await title.inner_text()).startswith("Round 1: dealt by ")
            assert await axe_violations(page) == [], "the game viewer"
            assert await page.locator("#error").inner_text() == ""
        finally:
            await browser.close()
