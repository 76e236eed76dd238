"""Rook in text mode (netcat, telnet): cards by name (``Red 14``, ``Rook`` for the bird)
or, in letters, by code (``R14``, ``ROOK``), colours by name, every seat for itself, and
the commands ``bid N``, ``pass``, ``moon``, ``setup COLOUR CARDS... [call CARDS...]``,
``play`` and ``score``; what trick-taking games share is kit/text.py. A card is typed
as shown (``play red 14``, ``play R14``, ``play rook``) or by its position.

The screen keeps no trick history: a trick's cards are shown as they are played and
its winner when it ends, and nothing shows them again (RULES.md item 7).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.kit.text import (
    LETTERS,
    BiddingText,
    card_at,
    number_word,
    plural,
    prompted,
    says,
)
from hundred_server.games.rook.cards import BIRD, Colour, RookCard, card_of
from hundred_server.protocol.errors import CardCodeError, Malformed
from hundred_server.protocol.wire import quote

HELP: Final = "\n".join(
    [
        "  bid N, pass, moon  bid 80 to 200 in fives (above the high bid), pass, or shoot the moon",
        "  setup COLOUR CARDS... call CARDS...",
        "                    as the bidder: name trump, discard (by position in your hand,",
        "                    2 5: the second and fifth cards, or by card as shown) and call",
        "                    partner cards (by card), e.g. setup red 1 2 3 4 5 call green 1",
        "                    (leave out call when none are called)",
        "  play CARD         play a card as it is shown (play Red 14, play R14, play Rook), or",
        "  play N            by its position in your hand (play 3: the third card)",
        "  score             the scores",
        "  partner           who has been revealed as the bidder's partner, and the cards",
        "                    called and not played yet",
    ]
)

_COLOUR_WORDS: Final = {
    **{c.name.lower(): c for c in Colour},
    **{c.value.lower(): c for c in Colour},
}
_BIRD_WORDS: Final = frozenset({"rook", "bird"})
#: A card by name in the server's words: ``Red 14``.
_NAMED: Final = re.compile(r"\b(Black|Green|Red|Yellow) (1[0-4]|[15-9])\b")
_TAKES_KITTY: Final = re.compile(r"^Player (\d+) \(.*\) takes the kitty$")
_NAMES_TRUMP: Final = re.compile(
    r"^Player (\d+) \(.*\) names (\w+) trump(?: and calls (.+))?; the discard (.+)$"
)
_CALLED: Final = re.compile(r"^Player (\d+) \(.*\) played the called (.+) and is a partner$")
#: The server's words for a hand's score and the game's end: the ``Score`` says them.
_SCORED: Final = re.compile(r"^Hand \d+: Player \d+ .* and (?:made it|went set)\. Scores: .*$")
_WINS: Final = re.compile(r"^Player \d+ \(.*\) wins the game with -?\d+!$")


def colour_named(code: str) -> str:
    """``"R"`` as people read it: ``Red``."""
    return Colour.parse(code).title


def card_named(code: str) -> str:
    """``"R14"`` as people read it: ``Red 14``; the bird is ``Rook``."""
    try:
        return RookCard.parse(code).name
    except CardCodeError:
        return code


def _card(colour: Colour, typed: str) -> str:
    """The code of a colour's card numbered ``typed``, or ``bad_card``."""
    try:
        return card_of(colour, int(typed)).code
    except CardCodeError:
        raise Malformed(
            f"no such card: {quote(colour.title + ' ' + typed)} (1 or 5-14)", "bad_card"
        ) from None


class RookText(BiddingText):
    help = HELP
    commands: ClassVar[frozenset[str]] = frozenset(
        {"bid", "pass", "moon", "setup", "play", "score", "partner"}
    )
    bid_hint: ClassVar[str] = "bid N, pass or moon"

    # --------------------------------------------------------------- cards and colours

    def card_text(self, code: str, screen: TextScreen) -> str:
        if screen.notation == LETTERS:
            return RookCard.parse(code).code
        return card_named(code)

    def cards_text(self, codes: Sequence[str], screen: TextScreen) -> str:
        return ", ".join(self.card_text(c, screen) for c in codes) or "none"

    def suit_symbol(self, suit: str, screen: TextScreen) -> str:
        return colour_named(suit)

    def suit_text(self, suit: str, screen: TextScreen) -> str:
        return colour_named(suit)

    def read_cards(
        self, args: Sequence[str], screen: TextScreen, positions: bool = True
    ) -> list[str]:
        """The codes of the cards ``args`` name: ``red 14`` (two words), ``R14``,
        ``rook``, or (``positions``) a position in the hand."""
        codes: list[str] = []
        at = 0
        while at < len(args):
            word = args[at]
            colour = _COLOUR_WORDS.get(word.lower())
            if colour is not None and at + 1 < len(args) and number_word(args[at + 1]):
                codes.append(_card(colour, args[at + 1]))
                at += 2
                continue
            at += 1
            if number_word(word) and positions:
                codes.append(card_at(word, screen))
            elif word.lower() in _BIRD_WORDS:
                codes.append(BIRD.code)
            else:
                try:
                    codes.append(RookCard.parse(word).code)
                except CardCodeError:
                    raise Malformed(
                        f"not a card: {quote(word)} (a card as shown, as Red 14, R14 or "
                        f"Rook{', or its position in your hand, as 3' if positions else ''})",
                        "bad_card",
                    ) from None
        return codes

    def recode(self, text: str, screen: TextScreen) -> str:
        if screen.notation != LETTERS:
            return text
        return _NAMED.sub(lambda m: _card(Colour[m[1].upper()], m[2]), text)

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

    # The Message that comes with a Kitty, a Setup and a partner's Play says what
    # happened for everyone (``said``); these add only what that Message does not.

    def _render_Deal(self, msg: Message, screen: TextScreen) -> list[str]:
        screen.notes.update(bidder=None, called=[], partners=[])  # a new hand
        return super()._render_Deal(msg, screen)

    def _render_Play(self, msg: Message, screen: TextScreen) -> list[str]:
        if msg.get("Partner") and "PlayedCard" in msg:
            screen.notes.setdefault("partners", []).append(msg["Playerid"])
            called = screen.notes.get("called") or []
            if msg["PlayedCard"] in called:
                called.remove(msg["PlayedCard"])
        return super()._render_Play(msg, screen)

    def _render_Kitty(self, msg: Message, screen: TextScreen) -> list[str]:
        if "Cards" not in msg:
            return []
        screen.hand = list(msg["Hand"])
        return [
            f"You take the kitty: {self.cards_text(msg['Cards'], screen)}",
            f"Your hand: {self.numbered_text(screen.hand, screen)}",
        ]

    def _render_Setup(self, msg: Message, screen: TextScreen) -> list[str]:
        if "Seq" in msg:
            return prompted(msg, screen, "set up the hand", self.setup_prompt)
        if "Hand" not in msg:
            return []
        screen.hand = list(msg["Hand"])
        return [
            f"You discarded: {self.cards_text(msg.get('Discard') or [], screen)}",
            f"Your hand: {self.cards_text(screen.hand, screen)}",
        ]

    def setup_prompt(self, msg: Message, screen: TextScreen) -> list[str]:
        """The bidder's setup prompt: its hand, how many cards to discard and to call."""
        calls = msg["Calls"]
        call = f" and call {plural(calls, 'partner card')}" if calls else " (no partners to call)"
        example = " ".join(str(i) for i in range(1, msg["Count"] + 1))
        called = ("G1", "Y1")[:calls] if calls else ()
        example_call = f" call {' '.join(self.card_text(c, screen) for c in called)}"
        return [
            f"Your hand: {self.numbered_text(screen.hand, screen)}",
            f"> set up: name trump, discard {plural(msg['Count'], 'card')}{call}: "
            f"setup COLOUR CARDS...{' call CARDS...' if calls else ''} "
            f"(e.g. setup red {example}{example_call if calls else ''})",
        ]

    def _render_Score(self, msg: Message, screen: TextScreen) -> list[str]:
        if msg.get("GameOver"):
            return [self.game_over(msg, screen)]
        bidder = screen.name(msg.get("Bidder"))
        bid = "the moon" if msg.get("Moon") else str(msg.get("Bid"))
        side = [s for s in msg.get("Side") or [] if s != msg.get("Bidder")]
        partners = f" with {' and '.join(screen.name(s) for s in side)}" if side else " alone"
        taken = msg.get("Taken") or []
        took = sum(taken[s] for s in msg.get("Side") or [] if s < len(taken))
        made = "made it" if msg.get("Made") else "went set"
        return [
            f"Hand {msg.get('Round')}: {bidder} bid {bid}{partners}, took {plural(took, 'point')} "
            f"and {made}.",
            f"  Points taken: {self.board(taken, screen)}",
            f"  This hand: {self.board(msg.get('Points') or [], screen)}. "
            f"Scores: {self.board(msg.get('Score') or [], screen)}",
        ]

    def said(self, text: str, screen: TextScreen) -> list[str] | None:
        if _SCORED.match(text) or _WINS.match(text):
            return []
        kitty = _TAKES_KITTY.match(text)
        if kitty:
            return [says(screen.name(int(kitty[1])), "take the kitty", "takes the kitty")]
        trump = _NAMES_TRUMP.match(text)
        if trump:
            screen.notes["bidder"] = int(trump[1])
            words = (trump[3] or "").replace(",", " ").split()
            calling = self.read_cards(words, screen, positions=False)
            screen.notes["called"] = list(calling)
            who = screen.name(int(trump[1]))
            verb = "call" if who == "you" else "calls"
            calls = f" and {verb} {self.cards_text(calling, screen)}" if calling else ""
            names = "name" if who == "you" else "names"
            return [f"{who} {names} {trump[2]} trump{calls}; the discard {trump[4]}"]
        called = _CALLED.match(text)
        if called:
            who = screen.name(int(called[1]))
            card = self.recode(called[2], screen)
            if called[2] == "Rook" and screen.notation == LETTERS:
                card = BIRD.code
            return [f"{who} played the called {card} and {'are' if who == 'you' else 'is'} "
                    "a partner"]  # fmt: skip
        return super().said(text, screen)

    def snapshot_lines(self, msg: Message, screen: TextScreen) -> list[str]:
        screen.notes.update(  # what ``partner`` says, as the snapshot tells it
            bidder=msg.get("Bidder") if "Trump" in msg else None,
            called=list(msg.get("Called") or []),
            partners=list(msg.get("Partners") or []),
        )
        lines = []
        if msg.get("Bids"):
            lines.append(f"Bids: {', '.join(self.bid_said(b, screen) for b in msg['Bids'])}")
        if "Bidder" in msg:
            bid = "the moon" if msg.get("Moon") else str(msg.get("Bid"))
            lines.append(f"{screen.name(msg['Bidder'])} won the bid at {bid}.")
        if "Trump" in msg:
            lines.append(f"Trump is {colour_named(msg['Trump'])}.")
            if msg.get("Called"):
                lines.append(f"Called and not played yet: {self.cards_text(msg['Called'], screen)}")
            if msg.get("Partners"):
                partners = ", ".join(screen.name(s) for s in msg["Partners"])
                lines.append(f"Partners revealed: {partners}")
        if "Discarded" in msg:
            lines.append(f"You discarded: {self.cards_text(msg['Discarded'], screen)}")
        if msg.get("Winners"):
            won = ", ".join(screen.name(s) for s in msg["Winners"])
            lines.append(f"Tricks won so far by: {won}")
        return lines

    # --------------------------------------------------------------------- parse

    def _cmd_partner(self, args: list[str], screen: TextScreen) -> list[str]:
        """``partner``: the bidder, the partners revealed, the cards still called."""
        bidder = screen.notes.get("bidder")
        if bidder is None:
            return ["No partner yet: the bidder calls partner cards when naming trump."]
        partners = " and ".join(screen.name(s) for s in screen.notes.get("partners") or [])
        called = self.cards_text(screen.notes.get("called") or [], screen)
        return [
            f"The bidder is {screen.name(bidder)}; partners revealed: {partners or 'none'}; "
            f"called and not played yet: {called}"
        ]

    def _cmd_bid(self, args: list[str], screen: TextScreen) -> list[Message]:
        if len(args) == 1 and args[0].lower() == "moon":
            return self._cmd_moon([], screen)
        return super()._cmd_bid(args, screen)

    def _cmd_moon(self, args: list[str], screen: TextScreen) -> list[Message]:
        return [{"Type": "Bid", "Moon": True}]

    def _cmd_setup(self, args: list[str], screen: TextScreen) -> list[Message]:
        """``setup red 1 2 3 4 5 call G1``: trump, the discard, the called cards."""
        example = "setup red 1 2 3 4 5 call green 1"
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
        discard = self.read_cards(args[1 : 1 + cut], screen)
        calls = self.read_cards(args[2 + cut :], screen, positions=False)
        answer: Message = {"Type": "Setup", "Discard": discard, "Trump": colour.value}
        answer["Partners"] = calls
        return [answer]


TEXT: Final = RookText()
