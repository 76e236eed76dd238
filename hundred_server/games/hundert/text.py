"""Hundert in text mode (netcat, telnet): the pile and the running total, what each card
would make it, the chips each deal moves and the balances, and ``play`` as the only
command; what the card games share is games/text.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.hundert.rules import POINTS, TARGET
from hundred_server.games.kit.cards import Card
from hundred_server.games.kit.text import HELP_PLAY, TrickText, numbered, pretty, says

HELP: Final = "\n".join(
    [
        HELP_PLAY,
        "                    each card's points go onto the total: A 11, T 10, K 4, Q 3, J 2;",
        "                    past 100 you pay the overshoot to each, exactly 100 takes 3 from each",
    ]
)


def makes(total: int, codes: Sequence[str]) -> str:
    """``A♠ 68, K♥ 104 (over), Q♠ 100 (exactly)``: what each card would make the total."""
    said = []
    for code in codes:
        card = Card.parse(code)
        new = total + POINTS[card]
        note = " (exactly)" if new == TARGET else " (over)" if new > TARGET else ""
        said.append(f"{card.pretty} {new}{note}")
    return ", ".join(said)


class HundertText(TrickText):
    help = HELP
    win_text: ClassVar[str] = "You win!"

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
            f"The total is {total}; your cards would make it: {makes(total, msg['Legal'])}",
            f"Your hand: {numbered(screen.hand)}   (total {total})",
            f"> play one of: {pretty(msg['Legal'])}   (play AS or play 3)",
        ]

    def played(self, msg: Message, screen: TextScreen) -> str:
        """A card played and the total it makes: ``bob played A♠: total 68``."""
        card = Card.parse(msg["PlayedCard"]).pretty
        return f"{screen.name(msg['Playerid'])} played {card}: total {msg.get('Total', 0)}"

    def _render_Score(self, msg: Message, screen: TextScreen) -> list[str]:
        if msg.get("GameOver"):
            screen.prompt = None
            verdict = self.win_text if msg.get("Win") else f"{screen.name(msg.get('Winner'))} wins."
            balances = self.board(msg.get("Score") or [], screen)
            return [f"Game over. {verdict} Final balances: {balances}"]
        change = ", ".join(
            f"{screen.name(seat)} {points:+d}" for seat, points in enumerate(msg.get("Points", []))
        )
        return [
            f"Deal {msg.get('Round')}: chips {change}. "
            f"Balances: {self.board(msg.get('Score') or [], screen)}"
        ]

    def snapshot_lines(self, msg: Message, screen: TextScreen) -> list[str]:
        pile = pretty(msg.get("Pile") or []) or "nothing"
        played = ", ".join(
            f"{screen.name(p['Playerid'])} {Card.parse(p['PlayedCard']).pretty}"
            for p in msg.get("Played") or []
        )
        return [
            f"The pile: {pile}; played this deal: {played or 'nothing yet'}; "
            f"total {msg.get('Total', 0)}"
        ]


TEXT: Final = HundertText()
