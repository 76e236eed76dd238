"""The ratings' writer: what the lobby says of rated games (core/ratings.py events),
written to the accounts' store on a thread, in order, off the event loop.

A rated table's start is kept (its seats' accounts) and, when its game ends, it is
rated with the result, once (store/accounts.py: the ratings and the game's row are one
transaction). Nothing is lost to a stop: a game's result is in the games' store before
its end is sent, and at start ``recover`` rates every rated table's game that ended
and was not rated yet (the server stopped in between); a game still under way is
restored and rated when it ends.

The ladder pairs by ratings it keeps in memory (core/ladder.py ``Ladder.mus``), never
asking the store while queueing: the writer gives it every rating at start, the new
ones of each game it rates, and every rating again each ``REFRESH`` seconds (on a site,
the games other instances rated), through ``on_rated``, on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Final

from hundred_server.core.ratings import GameOver, RatedStart, RatingEvent
from hundred_server.store.accounts import AccountStore
from hundred_server.store.base import GameStore

log = logging.getLogger("hundred_server")

#: Seconds shutdown waits for the ratings still to write.
DRAIN: Final = 5.0
#: Seconds before a failed write is tried again.
RETRY: Final = 1.0
#: Seconds between two readings of every rating for the ladder's pairing.
REFRESH: Final = 60.0

#: What the ratings are told to: (account id, game, mu) each.
Mus = list[tuple[str, str, float]]


class RatingsWriter:
    """``add`` events (on the loop); a task writes them in order (``start``,
    ``close``)."""

    def __init__(
        self,
        accounts: AccountStore,
        store: GameStore | None,
        on_rated: Callable[[Mus], None] = lambda mus: None,
    ) -> None:
        self.accounts = accounts
        self.store = store
        #: Told the ratings as the store has them (at start, after each game rated,
        #: each ``REFRESH``), on the event loop.
        self.on_rated = on_rated
        self._queue: deque[RatingEvent] = deque()
        self._wake = asyncio.Event()
        #: Set whenever the queue has been written to its end.
        self._drained = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: Games rated by this writer (for tests and the bench).
        self.rated = 0

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def add(self, events: list[RatingEvent]) -> None:
        if events:
            self._queue.extend(events)
            events.clear()
            self._drained.clear()
            self._wake.set()

    async def _run(self) -> None:
        await asyncio.to_thread(self.recover)
        await self._refresh()
        loop = asyncio.get_running_loop()
        refresh_at = loop.time() + REFRESH
        while True:
            while not self._queue:
                self._wake.clear()
                if loop.time() >= refresh_at:
                    await self._refresh()
                    refresh_at = loop.time() + REFRESH
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.0, refresh_at - loop.time())):
                        await self._wake.wait()
            event = self._queue[0]
            try:
                mus = await asyncio.to_thread(self._write, event)
            except Exception:
                log.exception("a rating could not be written; it is tried again")
                await asyncio.sleep(RETRY)
                continue
            self._queue.popleft()
            if mus:
                self.on_rated(mus)
            if not self._queue:
                self._drained.set()

    async def _refresh(self) -> None:
        """Every rating, to ``on_rated`` (a store that fails now is asked next time)."""
        try:
            mus = await asyncio.to_thread(self.accounts.mus)
        except Exception:
            log.exception("the ratings could not be read for the ladder")
            return
        self.on_rated(mus)

    def _write(self, event: RatingEvent) -> Mus:
        """Write ``event``; the ratings it changed."""
        if isinstance(event, RatedStart):
            self.accounts.rated_table(event.table_id, event.game, event.seats, event.sides)
        elif isinstance(event, GameOver):
            after = self.accounts.rate_game(event.table_id, event.result)
            if after is not None:
                self.rated += 1
                log.info("game %d rated", event.table_id)
                return [(account, r.game, r.mu) for account, r in after.items()]
        return []

    def recover(self) -> None:
        """Rate the rated tables' games that ended unrated (a stop in between)."""
        self.accounts.ensure_anchors()
        store = self.store
        if store is None:
            return
        for game_id in self.accounts.unrated():
            game = store.game(game_id)
            result = None if game is None or game.state != "over" else game.result
            if result is not None and self.accounts.rate(game_id, result):
                self.rated += 1
                log.info("game %d rated (it ended before the last stop)", game_id)

    async def close(self) -> None:
        """Write what is queued (``DRAIN`` seconds at most), then stop."""
        task, self._task = self._task, None
        if task is None:
            return
        try:
            async with asyncio.timeout(DRAIN):
                if self._queue and not task.done():
                    await self._drained.wait()
        except TimeoutError:
            log.warning("%d rating events unwritten at shutdown", len(self._queue))
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
