"""The text mode's table as one seat sees it (``render_mode="ansi"``): the game's
snapshot for that seat, rendered by the game's own text view as a telnet player reads
it (games/base.py ``TextView``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hundred_server.games.base import Message

if TYPE_CHECKING:
    from hundred_server.research.episode import Episode


class _Screen:
    """What the text view reads of a connection (``TextScreen``)."""

    def __init__(self, seat: int, players: list[str], hand: list[str]) -> None:
        self.seat: int | None = seat
        self.players = players
        self.hand = hand
        self.prompt: Message | None = None
        self.notation = "symbols"  # the text mode's default
        self.scores: list[int] | None = None
        self.notes: dict[str, Any] = {}

    def name(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.players):
            return "you" if seat == self.seat else self.players[seat]
        return f"seat {seat}"


def table_text(episode: Episode, seat: int) -> str:
    """The table as ``seat`` sees it, lines of text."""
    spec, game = episode.spec, episode.game
    snapshot = spec.wire.snapshot(game, seat, 0)
    hand = [card.code for card in game.view_for(seat).hand]
    screen = _Screen(seat, list(game.players), hand)
    lines: list[Any] = []
    if spec.text is not None:
        lines = spec.text.render(snapshot, screen) or []
    if not lines:
        lines = [f"{k}: {v}" for k, v in snapshot.items()]
    return "\n".join(map(str, lines)) + "\n"
