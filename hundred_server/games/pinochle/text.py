"""Single-deck Pinochle in text mode (netcat, telnet): bids from 20, the meld each seat
shows, scores by team (seats 0 and 2 are team 0, seats 1 and 3 team 1), and the
commands ``bid N``, ``pass``, ``trump SUIT``, ``play``, ``score`` and ``partner``; what
trick-taking games share is kit/text.py."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.kit.text import (
    HELP_PARTNER,
    HELP_PLAY,
    HELP_TRUMP,
    BiddingText,
    says,
)

HELP: Final = "\n".join(
    [
        "  bid N, pass       bid 20 or more (above the high bid), or pass",
        HELP_TRUMP,
        HELP_PLAY,
        "  score             the scores (points by team)",
        HELP_PARTNER,
    ]
)
#: The server's words that the ``Score`` and the game's end say for people already.
_SCORES_WORDS: Final = re.compile(
    r"^(?:Scores are now Team0 = -?\d+ to Team1 = -?\d+, played \d+ hands?"
    r"|Team\d wins with a score of -?\d+!)$"
)


def spans(numbers: Sequence[int]) -> str:
    """``20-25, 30``: runs of whole numbers, in order."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


class PinochleText(BiddingText):
    help = HELP
    commands: ClassVar[frozenset[str]] = BiddingText.commands | {"partner"}
    side_names: ClassVar[tuple[str, ...]] = ("Team 0", "Team 1")
    win_text: ClassVar[str] = "Your team wins!"

    def team_of(self, seat: object, screen: TextScreen) -> str:
        """``your team`` or ``Team 1``: the team of ``seat``, briefly."""
        if not isinstance(seat, int):
            return f"the team of seat {seat}"
        if screen.seat is not None and screen.seat % 2 == seat % 2:
            return "your team"
        return f"Team {seat % 2}"

    # -------------------------------------------------------------------- render

    def bid_prompt(self, legal: Sequence[int]) -> str:
        bids = spans([b for b in legal if b != 0])
        options = ", or ".join(part for part in ("pass" if 0 in legal else "", bids) if part)
        return f"> your bid ({options}): {self.bid_hint}"

    def meld_said(self, meld: Message, screen: TextScreen) -> str:
        """``cy melds 11: J♦ J♣ J♥ 9♥ K♠ Q♠ J♠``, or ``cy has no meld``."""
        who = screen.name(meld["Playerid"])
        if not meld.get("Amount"):
            return says(who, "have no meld", "has no meld")
        cards = self.cards_text(meld.get("Hand") or [], screen)
        return f"{says(who, 'meld', 'melds')} {meld['Amount']}: {cards}"

    def _render_Meld(self, msg: Message, screen: TextScreen) -> list[str]:
        return [self.meld_said(msg, screen)]

    def _render_Score(self, msg: Message, screen: TextScreen) -> list[str]:
        lines = []
        if "Bidder" in msg and "Bid" in msg:
            bidder = msg["Bidder"]
            made = "made it" if msg.get("Made") else "went set"
            lines.append(
                f"Hand {msg.get('Round')}: {screen.name(bidder)} bid {msg['Bid']} for "
                f"{self.team_of(bidder, screen)} and {made}."
            )
        meld, counters = msg.get("Meld") or [], msg.get("Counters") or []
        for team, points in enumerate(msg.get("Points") or []):
            if team < min(len(meld), len(counters)):
                lines.append(
                    f"  {self.side(team, screen)}: meld {meld[team]}, counters "
                    f"{counters[team]}; {points:+d} this hand"
                )
        if msg.get("GameOver"):
            return [*lines, self.game_over(msg, screen)]
        return [*lines, f"Scores: {self.board(msg.get('Score') or [], screen)}"]

    def snapshot_lines(self, msg: Message, screen: TextScreen) -> list[str]:
        lines = []
        if msg.get("Bids"):
            said = ", ".join(self.bid_said(bid, screen) for bid in msg["Bids"])
            lines.append(f"Bids: {said}")
        if "Bidder" in msg and "Trump" not in msg:
            who = screen.name(msg["Bidder"])
            lines.append(f"{who} won the bid at {msg.get('Bid')}; trump is not named yet")
        if "Trump" in msg:
            bid = f" ({screen.name(msg['Bidder'])} bid {msg.get('Bid')})" if "Bidder" in msg else ""
            lines.append(f"Trump is {self.suit_text(msg['Trump'], screen)}{bid}")
        lines += [self.meld_said(meld, screen) for meld in msg.get("Meld") or []]
        if msg.get("Phase") == "tricks" and "Counters" in msg:
            counters = self.board(msg["Counters"], screen)
            lines.append(f"Tricks played: {msg.get('Tricks', 0)}; counters: {counters}")
        return lines

    def said(self, text: str, screen: TextScreen) -> list[str] | None:
        if _SCORES_WORDS.match(text):
            return []
        return super().said(text, screen)


TEXT: Final = PinochleText()
