"""Hundred and Ten in text mode (netcat, telnet): its help, how its own messages read
(bids with pre-passes, the discard, scores by seat) and its own commands (``moon``,
``unpass``, ``discard``); what trick-taking games share is kit/text.py."""

from __future__ import annotations

import re
from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.kit.text import (
    HELP_PLAY,
    HELP_TRUMP,
    BiddingText,
    person,
    plural,
    prompted,
    says,
)

HELP: Final = "\n".join(
    [
        "  bid N, pass, moon bid 15/20/25/30, pass (also early: a pre-pass), bid 60",
        "  unpass            take back a pre-pass",
        HELP_TRUMP,
        "  discard 2 5       discard by position in your hand (2 5: the second and fifth",
        "                    cards) or by card as shown (discard 2♣ 3♦ or 2C 3D); discard none",
        HELP_PLAY,
        "  score             the scores",
    ]
)

_WINS_BID: Final = re.compile(r"^(.+) wins the bid at (\d+)$")
_NO_SCORE: Final = "Everybody passed: no score this round"
_WINS_GAME: Final = re.compile(r"^Player \d+ \(.*\) wins the game with -?\d+$")


class HundredAndTenText(BiddingText):
    help = HELP
    commands: ClassVar[frozenset[str]] = BiddingText.commands | {"moon", "unpass", "discard"}
    bid_hint: ClassVar[str] = "bid N, pass, or moon for 60"

    # -------------------------------------------------------------------- render

    def bid_said(self, msg: Message, screen: TextScreen) -> str:
        if msg.get("PrePass"):
            return "You will pass when your turn comes (unpass to take it back)."
        return super().bid_said(msg, screen) + (" (pre-pass)" if msg.get("Auto") else "")

    def _render_Unpass(self, msg: Message, screen: TextScreen) -> list[str]:
        return ["Your pre-pass is taken back."]

    def _render_Discard(self, msg: Message, screen: TextScreen) -> list[str]:
        if "Count" not in msg:
            return prompted(msg, screen, "discard", self.discard_prompt)
        if "Hand" in msg:
            screen.hand = list(msg["Hand"])
            gone = self.cards_text(msg["Cards"], screen) or "nothing"
            return [f"You discarded {gone}. Your hand: {self.cards_text(screen.hand, screen)}"]
        return [f"{screen.name(msg['Playerid'])} exchanged {plural(msg['Count'], 'card')}"]

    def discard_prompt(self, msg: Message, screen: TextScreen) -> list[str]:
        """The discard prompt: the hand, numbered, that ``Legal`` holds."""
        screen.hand = list(msg["Legal"])
        example = " ".join(self.card_text(c, screen) for c in screen.hand[1:2])
        return [
            f"Your hand: {self.numbered_text(screen.hand, screen)}",
            f"> discard by position or card (discard 2 5, discard {example}), or discard none",
        ]

    def _render_Score(self, msg: Message, screen: TextScreen) -> list[str]:
        if msg.get("GameOver"):
            return [self.game_over(msg, screen)]
        board = self.board(msg.get("Score") or [], screen)
        if msg.get("PassedOut"):
            return [f"Round {msg.get('Round')}: everybody passed, no score. Scores: {board}"]
        points = ", ".join(
            f"{screen.name(i)} {v:+d}" for i, v in enumerate(msg.get("Points") or [])
        )
        return [f"Round {msg.get('Round')}: {points}. Scores: {board}"]

    def said(self, text: str, screen: TextScreen) -> list[str] | None:
        if text == _NO_SCORE or _WINS_GAME.match(text):
            return []  # the Score that follows says it
        won = _WINS_BID.match(text)
        if won:
            who = person(won[1], screen)
            return [f"{says(who, 'win', 'wins')} the bid at {won[2]}"]
        return super().said(text, screen)

    # --------------------------------------------------------------------- parse

    def _cmd_moon(self, args: list[str], screen: TextScreen) -> list[Message]:
        return [{"Type": "Bid", "Bid": 60}]

    def _cmd_unpass(self, args: list[str], screen: TextScreen) -> list[Message]:
        return [{"Type": "Unpass"}]

    def _cmd_discard(self, args: list[str], screen: TextScreen) -> list[Message]:
        picks = [] if args in ([], ["none"], ["-"]) else self.read_cards(args, screen)
        return [{"Type": "Discard", "Cards": picks}]


TEXT: Final = HundredAndTenText()
