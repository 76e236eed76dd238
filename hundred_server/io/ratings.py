"""The ratings' writer: what the lobby says of rated games (core/ratings.py events),
written to the accounts' store on a thread, in order, off the event loop.

A rated table's start is kept (its seats' accounts) and, when its game ends, it is
rated with the result, once (store/accounts.py: the ratings and the game's row are one
transaction). Nothing is lost to a stop: a game's result is in the games' store before
its end is sent, and at start ``recover`` rates every rated table's game that ended
and was not rated yet (the server stopped in between); a game still under way is
restored and rated when it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Final

from hundred_server.core.ratings import GameOver, RatedStart, RatingEvent
from hundred_server.store.accounts import AccountStore
from hundred_server.store.base import GameStore

log = logging.getLogger("hundred_server")

#: Seconds shutdown waits for the ratings still to write.
DRAIN: Final = 5.0
#: Seconds before a failed write is tried again.
RETRY: Final = 1.0


class RatingsWriter:
    """``add`` events (on the loop); a task writes them in order (``start``,
    ``close``)."""

    def __init__(self, accounts: AccountStore, store: GameStore | None) -> None:
        self.accounts = accounts
        self.store = store
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
        while True:
            while not self._queue:
                self._wake.clear()
                await self._wake.wait()
            event = self._queue[0]
            try:
                await asyncio.to_thread(self._write, event)
            except Exception:
                log.exception("a rating could not be written; it is tried again")
                await asyncio.sleep(RETRY)
                continue
            self._queue.popleft()
            if not self._queue:
                self._drained.set()

    def _write(self, event: RatingEvent) -> None:
        if isinstance(event, RatedStart):
            self.accounts.rated_table(event.table_id, event.game, event.seats, event.sides)
        elif isinstance(event, GameOver) and self.accounts.rate(event.table_id, event.result):
            self.rated += 1
            log.info("game %d rated", event.table_id)

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
