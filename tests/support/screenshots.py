"""``make screenshots``: a screenshot of each game's table at its first trick, written to
docs/screenshots/<game>.png (checked in): Debian's Chromium at 1000x700, the light
colour scheme, no animations, the deals from one fixed seed (the same pictures until
the page changes); a person alone with the naive AI at the game's preset (the one the
browser tests play), answering by clicks until the first card of the first trick is
theirs to play.

    python -m tests.support.screenshots [folder]   (default docs/screenshots)
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from playwright.async_api import async_playwright

from hundred_server import games
from tests.support.browser import Person, answer, check_prompt, launch, running_site

#: Each game's preset: you and the naive AI (the browser tests' presets).
PRESETS = {"hundredandten": 1, "whist": 1, "pinochle": 1, "rook": 2, "hundert": 2, "spades": 1}
VIEWPORT = {"width": 1000, "height": 700}
#: The same deals every time (where a game deals from the table's seed), so that the
#: pictures change only when the page does.
SEED = "screenshots"
#: Prompts answered before the first Play, at most (bids, trump, a discard, meld).
BEFORE_PLAY = 40


async def shoot(folder: Path) -> list[Path]:
    """Each game's screenshot, written in ``folder`` (which exists)."""
    written: list[Path] = []
    async with async_playwright() as playwright, running_site(SEED) as site:
        browser = await launch(playwright)
        try:
            for game in games.names():
                context = await browser.new_context(
                    viewport=VIEWPORT, reduced_motion="reduce", color_scheme="light"
                )
                try:
                    person = Person(await context.new_page())
                    await person.open(site, "ann")
                    await person.create(game, PRESETS[game])
                    await to_first_play(person, random.Random(game))
                    path = folder / f"{game}.png"
                    await person.page.screenshot(path=str(path))
                    written.append(path)
                finally:
                    await context.close()
        finally:
            await browser.close()
    return written


async def to_first_play(person: Person, rng: random.Random) -> None:
    """Answer by clicks until our prompt is a Play (mostly passing the bids)."""
    last = ""
    for _ in range(BEFORE_PLAY):
        seq = await person.wait_turn(last)
        assert seq is not None, "the game ended before a Play"
        prompt = await check_prompt(person, seq)
        if prompt["Type"] == "Play":
            await person.page.mouse.move(0, 0)  # no card under the pointer
            return
        await answer(person, prompt, rng)
        last = seq
    raise AssertionError(f"no Play prompt in {BEFORE_PLAY} prompts")


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    for path in asyncio.run(shoot(folder)):
        print(f"{path} ({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
