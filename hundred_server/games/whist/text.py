"""Whist in text mode (netcat, telnet): the turned-up trump, scores and tricks by side
(North-South, East-West), and ``play`` as its only command; what trick-taking games
share is games/text.py."""

from __future__ import annotations

from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.kit.cards import Card
from hundred_server.games.kit.text import HELP_PLAY, TrickText, suit_named


class WhistText(TrickText):
    help = HELP_PLAY
    side_names: ClassVar[tuple[str, ...]] = ("North-South", "East-West")
    side_codes: ClassVar[tuple[str, ...]] = ("NS", "EW")

    def _render_Trump(self, msg: Message, screen: TextScreen) -> list[str]:
        turned = Card.parse(msg["Card"]).pretty  # the dealer's last card
        return [f"Trump is {suit_named(msg['Trump'])} ({turned} turned up)"]

    def _render_Score(self, msg: Message, screen: TextScreen) -> list[str]:
        if msg.get("GameOver"):
            return [self.game_over(msg, screen)]
        tricks = self.board(msg.get("Tricks") or [], screen)
        scores = self.board(msg.get("Score") or [], screen)
        return [f"Hand {msg.get('Round')}: tricks {tricks}. Scores: {scores}"]

    def snapshot_lines(self, msg: Message, screen: TextScreen) -> list[str]:
        lines = []
        if "Trump" in msg:
            card = msg.get("TrumpCard")
            turned = f" ({Card.parse(card).pretty} turned up)" if card else ""
            lines.append(f"Trump is {suit_named(msg['Trump'])}{turned}")
        if msg.get("Tricks"):
            lines.append(f"Tricks this hand: {self.board(msg.get('TricksWon') or [], screen)}")
        return lines


TEXT: Final = WhistText()
