"""Whist in text mode (netcat, telnet): the turned-up trump, scores and tricks by side
(North-South, East-West, and who plays each), and the commands ``play``, ``score`` and
``partner``; what trick-taking games share is kit/text.py."""

from __future__ import annotations

import re
from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.kit.text import HELP_PARTNER, HELP_PLAY, TrickText

HELP: Final = "\n".join(
    [HELP_PLAY, "  score             the scores (points by side)", HELP_PARTNER]
)
#: The server's words for the turned-up trump: the ``Trump`` before them says it.
_TURNED_UP: Final = re.compile(r"^Trump is \w+: .* turned up \w+$")


class WhistText(TrickText):
    help = HELP
    commands: ClassVar[frozenset[str]] = TrickText.commands | {"partner"}
    side_names: ClassVar[tuple[str, ...]] = ("North-South", "East-West")
    side_codes: ClassVar[tuple[str, ...]] = ("NS", "EW")

    def _render_Trump(self, msg: Message, screen: TextScreen) -> list[str]:
        turned = self.card_text(msg["Card"], screen)  # the dealer's last card
        who = screen.name(msg["Playerid"])
        return [f"Trump is {self.suit_text(msg['Trump'], screen)} ({who} turned up {turned})"]

    def _render_Score(self, msg: Message, screen: TextScreen) -> list[str]:
        if msg.get("GameOver"):
            return [self.game_over(msg, screen)]
        tricks = self.board(msg.get("Tricks") or [], screen)
        scores = self.board(msg.get("Score") or [], screen)
        return [f"Hand {msg.get('Round')}: tricks {tricks}. Scores: {scores}"]

    def said(self, text: str, screen: TextScreen) -> list[str] | None:
        if _TURNED_UP.match(text):
            return []
        return super().said(text, screen)

    def snapshot_lines(self, msg: Message, screen: TextScreen) -> list[str]:
        lines = []
        if "Trump" in msg:
            card = msg.get("TrumpCard")
            turned = f" ({self.card_text(card, screen)} turned up)" if card else ""
            lines.append(f"Trump is {self.suit_text(msg['Trump'], screen)}{turned}")
        if msg.get("Tricks"):
            lines.append(f"Tricks this hand: {self.board(msg.get('TricksWon') or [], screen)}")
        return lines


TEXT: Final = WhistText()
