"""The plug-in seats of a table: asking for their moves and taking the answers (no I/O).

An AI seat played by a plug-in bot (``PluginSeat``), or by the strong AI in the
server's pool of AI workers (``PoolSeat``), is never called: when it must act, the
table asks for its move (``AskBot``, taken with ``take_bot_requests``) and goes on when
``bot_answer`` brings it (core/remote.py). ``Table`` (core/table.py) plays the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

from hundred_server.core.remote import AskBot, PluginSeat, PoolSeat
from hundred_server.core.table_seats import (
    DEFAULT_OPTIONS,
    Outgoing,
    TableOptions,
    TableSeats,
    TableState,
)
from hundred_server.games.base import GameSpec
from hundred_server.protocol.errors import HundredError


class PluginAsks(TableSeats):
    """The asks of a table's plug-in seats, and what their answers do."""

    def __init__(
        self,
        table_id: int,
        name: str,
        spec: GameSpec,
        seats: int,
        ai_seats: Sequence[int],
        seed: str,
        options: TableOptions = DEFAULT_OPTIONS,
    ) -> None:
        super().__init__(table_id, name, spec, seats, ai_seats, seed, options)
        #: The plug-in seat asked for its move, and the ask's number (None: none asked);
        #: the legal actions it was asked to choose from.
        self.asking: tuple[int, int] | None = None
        self._asked_legal: tuple[Any, ...] = ()
        #: Plug-in moves asked for so far (each ask's number).
        self.asks = 0
        self._requests: list[AskBot] = []

    def _advance(self, events: list[Any]) -> Outgoing:
        """Move the game on after ``events`` (``Table`` plays it)."""
        raise NotImplementedError

    @property
    def asks_elsewhere(self) -> bool:
        """Whether another process plays one of its seats (a plug-in, the AI pool)."""
        return any(s is not None and is_plugin(s.bot) for s in self.seats)

    def _plugin_at(self, seat: int) -> PluginSeat | None:
        """The plug-in that must be asked for ``seat``'s moves (not a benched one)."""
        occupant = self.seats[seat]
        bot = None if occupant is None else occupant.bot
        return bot if is_plugin(bot) else None

    def _ask(self, seat: int) -> None:
        game = self.game
        plugin = self._plugin_at(seat)
        assert game is not None
        assert plugin is not None
        view = self.spec.view(game, seat)
        self.asks += 1
        self.asking = (seat, self.asks)
        self._asked_legal = tuple(view.legal)
        self._requests.append(plugin.ask(self.id, seat, self.asks, view))

    def take_bot_requests(self) -> list[AskBot]:
        """The plug-in moves asked for since the last call."""
        requests, self._requests = self._requests, []
        return requests

    def ask_again(self) -> None:
        """Ask the pending plug-in move afresh (its answer was not taken: the table was
        paused); the earlier ask is stale from now on."""
        if self.asking is not None and self.state is TableState.PLAYING:
            self._ask(self.asking[0])

    def bot_answer(
        self, seat: int, ask: int, choice: int | None, fault: str | None, given: Any = None
    ) -> Outgoing:
        """The answer to ``AskBot`` number ``ask``: ``choice``, an index into the view's
        ``legal``, or the ``fault`` that stopped the plug-in (or ``given``, the move
        itself, from a built-in AI of the AI pool whose move is none of ``legal``: a
        Rook setup). A stale answer (another ask is current, or none) is dropped. A
        fault, or a choice that is no legal action, is a forfeit: the default AI plays
        the turn (core/remote.py)."""
        game = self.game
        if self.asking != (seat, ask) or game is None or self.state is not TableState.PLAYING:
            return []
        plugin = self._plugin_at(seat)
        if plugin is None or game.to_act != seat:
            self.asking = None
            return []
        self.asking = None
        if given is not None and fault is None and isinstance(plugin, PoolSeat):
            try:
                events = game.apply(seat, given)  # the rules check it (all or nothing)
            except HundredError as exc:
                fault = f"its move is refused: {exc.message}"
            else:
                return self._advance(events)
        legal = self._asked_legal
        action = None
        if fault is None:
            if choice is not None and 0 <= choice < len(legal):
                action = legal[choice]
            else:
                fault = f"it chose move {choice!r} of {len(legal)} (0-{len(legal) - 1})"
        if action is not None and action not in game.legal_actions(seat):
            self._ask(seat)  # the game moved on meanwhile (a pre-pass): ask again
            return []
        if action is None:
            assert fault is not None
            plugin.forfeit(f"table {self.id}, seat {seat}", fault)
            action = plugin.fallback.act(self.spec.view(game, seat))
        else:
            plugin.played()
        return self._advance(game.apply(seat, action))


def is_plugin(bot: object) -> TypeGuard[PluginSeat]:
    """Whether a seat's ``bot`` is a plug-in that must be asked (not a benched one)."""
    return isinstance(bot, PluginSeat) and not bot.benched
