"""Restore: the lobby's tables again after a restart, from the store (no I/O).

A game under way goes on where its record stops: every person's seat waits ``grace``
for its owner's token (``Table.restored``). A game that ended just before the server
stopped (its end saved, perhaps never sent) is kept for its people's tokens instead,
for ``Limits.result_hold``: the token gets the game's end, then the lobby question.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from hundred_server import games
from hundred_server.core.ai_seats import AI_LEVELS
from hundred_server.core.botclock import BotClock, clock_from
from hundred_server.core.fairness import reveal_message
from hundred_server.core.journal import GameEnded, StoredGame
from hundred_server.core.ladder import seed_kept
from hundred_server.core.ratings import restored_start
from hundred_server.core.table import RestoredGame, Table, TableOptions, TableState
from hundred_server.core.tokens import Ended
from hundred_server.games.base import GameState, is_over, round_number
from hundred_server.games.records import load_record
from hundred_server.protocol.errors import HundredError
from hundred_server.protocol.wire import Message, message

if TYPE_CHECKING:
    from hundred_server.core.lobby import Lobby


class Restorer:
    """The stored games, back in the lobby."""

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby

    def restore(self, stored_games: list[StoredGame], last_id: int = 0) -> list[str]:
        """Tables for the unfinished games of a store, after a restart (call before
        any connection); a game over (``store.restorable``: it ended just before the
        server stopped) is kept for its people's tokens instead (``Limits.result_hold``).
        Returns a line to log per game."""
        lobby = self._lobby
        tables, tokens = lobby.tables, lobby.tokens
        tables.next_id = max(tables.next_id, last_id + 1)
        said: list[str] = []
        for stored in stored_games:
            if stored.state == "over":
                said.append(self._keep_end(stored))
                continue
            try:
                table, game = self._restored(stored)
                tables.add(table)
                tokens.restored(table)
                lobby.ladder.adopt(table)
                table.resume()
                start = restored_start(table.id, table.game_name, table.header)
                if start is not None:  # its rated start again (kept once: the store)
                    lobby.rating_events.append(start)
            except Exception as exc:  # a bad row, a record that does not replay: that game
                reason = exc if isinstance(exc, HundredError) else f"{type(exc).__name__}: {exc}"
                said.append(f"game {stored.id} cannot be restored ({reason}); marked failed")
                tables.remove(stored.id)
                tokens.drop_table(stored.id)
                if lobby.journal.durable:
                    lobby.journal.add(GameEnded(stored.id, "failed"))
                continue
            if table.state is TableState.OVER:
                lobby.ends.finish(table)
            else:
                lobby.after(table)
            said.append(
                f"game {stored.id} ({stored.name}) restored at round {round_number(game)}; "
                f"people have {lobby.limits.grace:g} s to take their seats back"
            )
        return said

    def _keep_end(self, stored: StoredGame) -> str:
        """Keep a finished game's end for its seats' tokens; a line to log."""
        try:
            told = _ends(stored)
        except Exception as exc:  # a record that does not replay: its tokens get nothing
            reason = exc if isinstance(exc, HundredError) else f"{type(exc).__name__}: {exc}"
            return f"game {stored.id} is over and its end cannot be replayed ({reason})"
        lobby = self._lobby
        hold = lobby.limits.result_hold
        tokens = lobby.tokens
        tokens.ended_until = lobby.clock() + hold
        for seat, (_, digest) in enumerate(stored.seats):
            if digest is not None:
                tokens.ended[digest] = Ended(stored.id, seat, told[seat])
        return (
            f"game {stored.id} ({stored.name}) is over: its people's tokens get its end "
            f"for {hold:g} s"
        )

    def _restored(self, stored: StoredGame) -> tuple[Table, GameState]:
        """The table of a stored game; raises whatever a bad row makes it raise."""
        lobby = self._lobby
        game = load_record(stored.lines)
        spec = games.get(stored.game)
        if spec.name != game.game_name:
            raise HundredError(f"its record is a {game.game_name} game, its row says {spec.name}")
        # A game stored before tables chose their AI goes on with the naive one.
        level = stored.ai if stored.ai in AI_LEVELS else AI_LEVELS[-1]
        header = json.loads(stored.lines[0]) if stored.lines else {}
        clock = clock_from(header.get("FairClock"), len(stored.seats))
        table = Table.restored(
            stored.id,
            stored.name,
            spec,
            stored.seed,
            RestoredGame(game, stored.seats, stored.seq, saved=len(stored.lines)),
            TableOptions(
                grace=lobby.limits.grace,
                turn_timeout=stored.clock,
                clock=lobby.clock,
                ai=lobby.ai_seats.for_table(spec, level),
                watchable=stored.watchers,
                rated=clock is not None or "Rated" in header,  # a ladder's, or rated
                bank=None if clock is None else clock.bank,
                strikes=3 if clock is None else clock.strikes_allowed,
            ),
        )
        if table.bot_clock is not None:
            _clock_back(table, table.bot_clock, stored.lines, len(game.history))
        # Its set's (core/ladder.py: ``Ladder.adopt``), and its rated seats (ratings.py).
        table.header = {k: header[k] for k in ("Ladder", "Rated") if k in header}
        return table, game


def _clock_back(table: Table, clock: BotClock, lines: list[str], history: int) -> None:
    """A restored table's fair clock as its record's ``Clock`` lines left it; a seat
    struck out stays the naive AI's (its owner's token does not take it back)."""
    marked = [line for line in lines if '"Type":"Clock"' in line]
    clock.replay([json.loads(line) for line in marked], history)
    for seat in clock.out_seats():
        occupant = table.seats[seat]
        if occupant is not None and occupant.owned:
            occupant.bot, occupant.away_until = table.spec.bot(), None


def _ends(stored: StoredGame) -> dict[int, tuple[Message, ...]]:
    """What each person's seat of a stored game that is over would have been told of
    its end: that the game is over, with its result, then the messages of its last move
    (the game's own, replayed: its Score and GameOver among them), and the Reveal."""
    spec = games.get(stored.game)
    game = load_record(stored.lines)
    last = game.history[-1] if game.history else None
    if not is_over(game) or not isinstance(last, tuple) or len(last) != 2:
        raise HundredError("its record does not end with the move that ends the game")
    seat, action = last
    before = load_record(stored.lines[:-1])
    people = [i for i, (_, digest) in enumerate(stored.seats) if digest is not None]
    told = spec.wire.tell(before.apply(seat, action), people, before.players)
    result = spec.result(game)
    over = message(f"The game at table {stored.id} is over: {result['Text']}")
    header = json.loads(stored.lines[0]) if stored.lines else {}
    if seed_kept(header):  # a ladder set's game before its last: the seed is kept
        return {i: (over, *told[i]) for i in people}
    reveal = reveal_message(stored.id, spec.name, stored.seed)
    return {i: (over, *told[i], reveal) for i in people}
