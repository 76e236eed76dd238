"""Spades in text mode: bids of tricks (``bid 4``, ``nil``), spades always trump,
scores and bags by side; what trick games share is kit/text.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.kit.text import HELP_PARTNER, HELP_PLAY, BiddingText, says

HELP: Final = "\n".join(
    [
        "  bid N, nil        bid 1 to 13 tricks, or nil (0: to take none)",
        HELP_PLAY,
        "  score             the scores (points by side)",
        HELP_PARTNER,
    ]
)


class SpadesText(BiddingText):
    help = HELP
    commands: ClassVar[frozenset[str]] = frozenset({"bid", "nil", "play", "score", "partner"})
    side_names: ClassVar[tuple[str, ...]] = ("North-South", "East-West")
    side_codes: ClassVar[tuple[str, ...]] = ("NS", "EW")
    bid_hint: ClassVar[str] = "bid N or nil"

    def bid_prompt(self, legal: Sequence[int]) -> str:
        return f"> your bid (nil, 1-{max(legal)}): {self.bid_hint}"

    def bid_said(self, msg: Message, screen: TextScreen) -> str:
        amount = "nil" if msg["Bid"] == 0 else str(msg["Bid"])
        return says(screen.name(msg["Playerid"]), f"bid {amount}", f"bids {amount}")

    def _render_Score(self, msg: Message, screen: TextScreen) -> list[str]:
        if msg.get("GameOver"):
            return [self.game_over(msg, screen)]
        taken = ", ".join(
            f"{screen.name(s)} {t}/{'nil' if b == 0 else b}"
            for s, (b, t) in enumerate(zip(msg["Bids"], msg["TricksTaken"], strict=True))
        )
        return [
            f"Hand {msg['Round']}: taken/bid {taken}.",
            f"  Points: {self.board(msg['Points'], screen)}; bags: "
            f"{self.board(msg['Bags'], screen)}. Scores: {self.board(msg['Score'], screen)}",
        ]

    def snapshot_lines(self, msg: Message, screen: TextScreen) -> list[str]:
        lines = ["Spades are trump"]
        if msg.get("Bids"):
            lines.append("Bids: " + ", ".join(self.bid_said(b, screen) for b in msg["Bids"]))
        return [*lines, f"Bags: {self.board(msg.get('Bags') or [], screen)}"]

    def _cmd_nil(self, args: list[str], screen: TextScreen) -> list[Message]:
        return [{"Type": "Bid", "Bid": 0}]


TEXT: Final = SpadesText()
