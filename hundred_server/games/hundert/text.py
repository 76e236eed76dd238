"""Hundert in text mode (netcat, telnet): the pile and the running total, what each card
would make it, the chips each deal moves and the balances, a tie shown as a tie, and
``play`` and ``score`` as its commands; what the card games share is kit/text.py."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.hundert.rules import POINTS, TARGET
from hundred_server.games.kit.cards import Card
from hundred_server.games.kit.text import HELP_PLAY, TrickText, person, plural, says

HELP: Final = "\n".join(
    [
        HELP_PLAY,
        "                    each card's points go onto the total: A 11, T 10, K 4, Q 3, J 2;",
        "                    past 100 you pay the overshoot to each, exactly 100 takes 3 from each",
        "  score             the balances (chips)",
    ]
)
_TOTAL_TO: Final = re.compile(r"^(.+) takes the total to (\d+) and pays (\d+ chips?) to each$")
_EXACTLY: Final = re.compile(r"^(.+) makes exactly 100 and takes (\d+ chips?) from each$")
_WINS: Final = re.compile(r"^.+ wins the game with a balance of -?\d+ chips?$")


class HundertText(TrickText):
    help = HELP
    win_text: ClassVar[str] = "You win!"
    scores_word: ClassVar[str] = "Balances"

    def makes(self, total: int, codes: Sequence[str], screen: TextScreen) -> str:
        """``A♠ 68, K♥ 104 (over), Q♠ 100 (exactly)``: what each card would make the
        total."""
        said = []
        for code in codes:
            new = total + POINTS[Card.parse(code)]
            note = " (exactly)" if new == TARGET else " (over)" if new > TARGET else ""
            said.append(f"{self.card_text(code, screen)} {new}{note}")
        return ", ".join(said)

    def deal_heading(self, msg: Message, screen: TextScreen) -> str:
        """``── Deal 3 of 6: bob deals.``: every seat deals twice."""
        deals = 2 * len(screen.players)
        return (
            f"── Deal {msg['Round']} of {deals}: "
            f"{says(screen.name(msg['Dealer']), 'deal', 'deals')}."
        )

    def _render_Pile(self, msg: Message, screen: TextScreen) -> list[str]:
        return []  # the Message that follows says it for people

    def play_prompt(self, msg: Message, screen: TextScreen) -> list[str]:
        """A play prompt to the viewer: the total, what each of its cards would make it."""
        total = msg.get("Total", 0)
        return [
            f"The total is {total}; your cards would make it: "
            f"{self.makes(total, msg['Legal'], screen)}",
            f"Your hand: {self.numbered_text(screen.hand, screen)}   (total {total})",
            f"> play one of: {self.cards_text(msg['Legal'], screen)}   "
            f"({self.play_hint(msg, screen)})",
        ]

    def played(self, msg: Message, screen: TextScreen) -> str:
        """A card played and the total it makes: ``bob played A♠: total 68``."""
        card = self.card_text(msg["PlayedCard"], screen)
        return f"{screen.name(msg['Playerid'])} played {card}: total {msg.get('Total', 0)}"

    def winner_said(self, msg: Message, screen: TextScreen) -> str:
        """``bob wins.``, or a tie at the top: who tie, and the lowest seat of them wins
        it (RULES.md)."""
        totals = msg.get("Score") or []
        best = max(totals, default=0)
        tied = [s for s, t in enumerate(totals) if t == best]
        if len(tied) < 2:
            return super().winner_said(msg, screen)
        names = " and ".join(screen.name(s) for s in tied)
        first = screen.name(msg.get("Winner"))
        return (
            f"A tie: {names} end with {plural(best, 'chip')}; the tie goes to the first "
            f"seat of them, {first}."
        )

    def game_over(self, msg: Message, screen: TextScreen) -> str:
        screen.prompt = None
        totals = msg.get("Score") or []
        tied = sum(t == max(totals, default=0) for t in totals) > 1
        verdict = self.winner_said(msg, screen)
        if msg.get("Win") and not tied:
            verdict = self.win_text
        return f"Game over. {verdict} Final balances: {self.board(totals, screen)}"

    def _render_Score(self, msg: Message, screen: TextScreen) -> list[str]:
        if msg.get("GameOver"):
            return [self.game_over(msg, screen)]
        change = ", ".join(
            f"{screen.name(seat)} {points:+d}" for seat, points in enumerate(msg.get("Points", []))
        )
        return [
            f"Deal {msg.get('Round')}: chips {change}. "
            f"Balances: {self.board(msg.get('Score') or [], screen)}"
        ]

    def said(self, text: str, screen: TextScreen) -> list[str] | None:
        if _WINS.match(text):
            return []  # the Score with GameOver says it
        over = _TOTAL_TO.match(text)
        if over:
            who = person(over[1], screen)
            pays = "pay" if who == "you" else "pays"
            return [f"{says(who, 'take', 'takes')} the total to {over[2]} and {pays} {over[3]} "
                    "to each"]  # fmt: skip
        exact = _EXACTLY.match(text)
        if exact:
            who = person(exact[1], screen)
            return [f"{says(who, 'make', 'makes')} exactly 100 and "
                    f"{'take' if who == 'you' else 'takes'} {exact[2]} from each"]  # fmt: skip
        return super().said(text, screen)

    def snapshot_lines(self, msg: Message, screen: TextScreen) -> list[str]:
        pile = self.cards_text(msg.get("Pile") or [], screen) or "nothing"
        played = ", ".join(
            f"{screen.name(p['Playerid'])} {self.card_text(p['PlayedCard'], screen)}"
            for p in msg.get("Played") or []
        )
        return [
            f"The pile: {pile}; played this deal: {played or 'nothing yet'}; "
            f"total {msg.get('Total', 0)}"
        ]


TEXT: Final = HundertText()
