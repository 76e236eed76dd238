"""Rook in text mode (netcat, telnet): cards by name (``Red 14``, ``Rook`` for the bird),
colours by name, every seat for itself, and the commands ``bid N``, ``pass``, ``moon``,
``setup COLOUR CARDS... [call CARDS...]`` and ``play``; what trick-taking games share is
games/text.py.

The screen keeps no trick history: a trick's cards are shown as they are played and
its winner when it ends, and nothing shows them again (RULES.md item 7).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.kit.text import BiddingText, card_at, prompted, says
from hundred_server.games.rook.cards import Colour, RookCard
from hundred_server.protocol.errors import CardCodeError, Malformed
from hundred_server.protocol.wire import quote

HELP: Final = "\n".join(
    [
        "  bid N, pass, moon  bid 80 to 200 in fives (above the high bid), pass, or shoot the moon",
        "  setup COLOUR CARDS... call CARDS...",
        "                    as the bidder: name trump, discard (by position in your hand",
        "                    or by card) and call partner cards (by card), e.g.",
        "                    setup red 1 2 3 4 5 call G1  (leave out call when none are called)",
        "  play R14, play 3  play by card or by position",
    ]
)

_COLOUR_WORDS: Final = {
    **{c.name.lower(): c for c in Colour},
    **{c.value.lower(): c for c in Colour},
}


def colour_named(code: str) -> str:
    """``"R"`` as people read it: ``Red``."""
    return Colour.parse(code).title


def card_named(code: str) -> str:
    """``"R14"`` as people read it: ``Red 14``; the bird is ``Rook``."""
    try:
        return RookCard.parse(code).name
    except CardCodeError:
        return code


class RookText(BiddingText):
    help = HELP
    commands: ClassVar[frozenset[str]] = frozenset({"bid", "pass", "moon", "setup", "play"})
    bid_hint: ClassVar[str] = "bid N, pass or moon"
    play_hint: ClassVar[str] = "play R14 or play 3"

    # --------------------------------------------------------------- cards and colours

    def card_text(self, code: str) -> str:
        return card_named(code)

    def cards_text(self, codes: Sequence[str]) -> str:
        return ", ".join(card_named(c) for c in codes) or "none"

    def suit_symbol(self, suit: str) -> str:
        return colour_named(suit)

    def suit_text(self, suit: str) -> str:
        return colour_named(suit)

    # -------------------------------------------------------------------- render

    def bid_prompt(self, legal: Sequence[object]) -> str:
        amounts = [b for b in legal if isinstance(b, int) and b]
        parts = ["pass"] if 0 in legal else []
        if amounts:
            span = str(amounts[0]) if len(amounts) == 1 else f"{amounts[0]}-{amounts[-1]} by 5"
            parts.append(span)
        if "moon" in legal:
            parts.append("moon")
        return f"> your bid ({', '.join(parts)}): {self.bid_hint}"

    def bid_said(self, msg: Message, screen: TextScreen) -> str:
        if msg.get("Moon"):
            return says(screen.name(msg["Playerid"]), "shoot the moon", "shoots the moon")
        return super().bid_said(msg, screen)

    def asks_bid(self, msg: Message) -> bool:
        # A Rook pass is a Bid without "Bid": only a prompt carries "Seq".
        return "Seq" in msg

    # The Message that comes with a Kitty, a Setup, a partner's Play and a hand's Score
    # says what happened for everyone; these add only what that Message does not.

    def _render_Kitty(self, msg: Message, screen: TextScreen) -> list[str]:
        if "Cards" not in msg:
            return []
        screen.hand = list(msg["Hand"])
        return [
            f"You take the kitty: {self.cards_text(msg['Cards'])}",
            f"Your hand: {self.numbered_text(screen.hand)}",
        ]

    def _render_Setup(self, msg: Message, screen: TextScreen) -> list[str]:
        if "Seq" in msg:
            return prompted(msg, screen, "set up the hand", self.setup_prompt)
        if "Hand" not in msg:
            return []
        screen.hand = list(msg["Hand"])
        return [
            f"You discarded: {self.cards_text(msg.get('Discard') or [])}",
            f"Your hand: {self.cards_text(screen.hand)}",
        ]

    def setup_prompt(self, msg: Message, screen: TextScreen) -> list[str]:
        """The bidder's setup prompt: its hand, how many cards to discard and to call."""
        calls = msg["Calls"]
        call = (
            f" and call {calls} partner card{'s' if calls != 1 else ''}"
            if calls
            else " (no partners to call)"
        )
        example = " ".join(str(i) for i in range(1, msg["Count"] + 1))
        example_call = " call G1" if calls == 1 else " call G1 Y1" if calls else ""
        return [
            f"Your hand: {self.numbered_text(screen.hand)}",
            f"> set up: name trump, discard {msg['Count']} cards{call}: "
            f"setup COLOUR CARDS...{' call CARDS...' if calls else ''} "
            f"(e.g. setup red {example}{example_call})",
        ]

    def _render_Score(self, msg: Message, screen: TextScreen) -> list[str]:
        if msg.get("GameOver"):
            return [self.game_over(msg, screen)]
        side = ", ".join(screen.name(s) for s in msg.get("Side") or [])
        return [
            f"  Bidding side: {side}",
            f"  Points taken: {self.board(msg.get('Taken') or [], screen)}",
            f"  This hand: {self.board(msg.get('Points') or [], screen)}",
        ]

    def snapshot_lines(self, msg: Message, screen: TextScreen) -> list[str]:
        lines = []
        if msg.get("Bids"):
            lines.append(f"Bids: {', '.join(self.bid_said(b, screen) for b in msg['Bids'])}")
        if "Bidder" in msg:
            bid = "the moon" if msg.get("Moon") else str(msg.get("Bid"))
            lines.append(f"{screen.name(msg['Bidder'])} won the bid at {bid}.")
        if "Trump" in msg:
            lines.append(f"Trump is {colour_named(msg['Trump'])}.")
            if msg.get("Called"):
                lines.append(f"Called and not played yet: {self.cards_text(msg['Called'])}")
            if msg.get("Partners"):
                partners = ", ".join(screen.name(s) for s in msg["Partners"])
                lines.append(f"Partners revealed: {partners}")
        if "Discarded" in msg:
            lines.append(f"You discarded: {self.cards_text(msg['Discarded'])}")
        if msg.get("Winners"):
            won = ", ".join(screen.name(s) for s in msg["Winners"])
            lines.append(f"Tricks won so far by: {won}")
        return lines

    # --------------------------------------------------------------------- parse

    def _cmd_bid(self, args: list[str], screen: TextScreen) -> list[Message]:
        if len(args) == 1 and args[0].lower() == "moon":
            return self._cmd_moon([], screen)
        return super()._cmd_bid(args, screen)

    def _cmd_moon(self, args: list[str], screen: TextScreen) -> list[Message]:
        return [{"Type": "Bid", "Moon": True}]

    def _cmd_setup(self, args: list[str], screen: TextScreen) -> list[Message]:
        """``setup red 1 2 3 4 5 call G1``: trump, the discard, the called cards."""
        example = "setup red 1 2 3 4 5 call G1"
        if not args:
            raise Malformed(f"name trump, the discard and the calls: {example}", "bad_message")
        colour = _COLOUR_WORDS.get(args[0].lower())
        if colour is None:
            raise Malformed(
                f"name trump first: black, green, red or yellow (not {quote(args[0])}), as "
                f"in: {example}",
                "bad_suit",
            )
        rest = [a.lower() for a in args[1:]]
        cut = rest.index("call") if "call" in rest else len(rest)
        discard = [card_at(word, screen) for word in args[1 : 1 + cut]]
        calls = args[2 + cut :]
        answer: Message = {"Type": "Setup", "Discard": discard, "Trump": colour.value}
        answer["Partners"] = calls
        return [answer]


TEXT: Final = RookText()
