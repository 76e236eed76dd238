"""Text mode that the games share (no I/O): what a trick-taking game reads and says
alike on netcat or telnet, for each game's ``TextView`` (games/base.py) to build on.

``TrickText`` renders the messages every trick-taking game sends the same way
(``Deal``, ``Play`` prompts and plays, ``Trick``, the common part of ``Snapshot``) and
reads ``play 5H`` / ``play 3``; ``BiddingText`` adds a ``Bid`` and ``Trump`` prompt and
the ``bid N``, ``pass`` and ``trump SUIT`` commands, for the games that bid for trump.
A game's view subclasses one of them, adds its own messages as ``_render_<Type>``
methods and its own commands as ``_cmd_<command>`` methods (listed in ``commands``),
and sets ``help``. The codec (codecs/text.py) keeps the lobby and asks the view of
the game at hand for everything else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.kit.cards import Card, Suit
from hundred_server.protocol.errors import Malformed
from hundred_server.protocol.wire import quote

HELP_TRUMP: Final = "  trump SUIT        hearts, diamonds, spades, clubs (or h, d, s, c)"
HELP_PLAY: Final = "  play 5H, play 3   play by card or by position"
NAME_TRUMP: Final = "> name trump: trump hearts, diamonds, spades or clubs"

SUIT_WORDS: Final = {
    **{s.name.lower(): s for s in Suit},
    **{s.name.lower()[:-1]: s for s in Suit},
    **{s.value.lower(): s for s in Suit},
    **{s.symbol: s for s in Suit},
}


def number_word(word: str) -> bool:
    """0-9 only: ``"²".isdigit()`` is true, but ``int("²")`` fails."""
    return word.isascii() and word.isdigit()


def number(args: Sequence[str], example: str) -> int:
    """The one number in ``args`` (``bad_message``, quoting what was typed, if not)."""
    if len(args) != 1 or not number_word(args[0]) or len(args[0]) > 6:
        typed = " ".join(args) or "nothing"
        raise Malformed(f"expected a number, as in: {example} (not {quote(typed)})", "bad_message")
    return int(args[0])


def pretty(codes: Sequence[str]) -> str:
    """``5♥ 🃏 A♦``."""
    return " ".join(Card.parse(c).pretty for c in codes)


def numbered(codes: Sequence[str]) -> str:
    """``1:5♥  2:🃏  3:A♦``: a hand as ``play 3`` and ``discard 2 5`` count it."""
    return "  ".join(f"{i}:{Card.parse(c).pretty}" for i, c in enumerate(codes, 1))


def card_at(word: str, screen: TextScreen) -> str:
    """A card named by its position in the hand (from 1) or by itself (the server
    reads the code)."""
    if number_word(word):
        index = int(word) - 1
        if not 0 <= index < len(screen.hand):
            raise Malformed(f"no card at position {word}: you hold {len(screen.hand)}", "bad_card")
        return screen.hand[index]
    return word


def suit_named(suit: str) -> str:
    """``"H"`` as people read it: ``♥ hearts``."""
    parsed = Suit.parse(suit)
    return f"{parsed.symbol} {parsed.name.lower()}"


def says(who: str, you: str, other: str) -> str:
    """``you pass`` or ``bob passes``: the verb agrees with "you"."""
    return f"{who} {you if who == 'you' else other}"


def waiting(msg: Message, screen: TextScreen, verb: str) -> list[str]:
    """What a prompt to another seat says: ``(waiting for bob to bid)``."""
    return [f"(waiting for {screen.name(msg['Playerid'])} to {verb})"]


def prompted(
    msg: Message,
    screen: TextScreen,
    verb: str,
    lines: Callable[[Message, TextScreen], list[str]],
) -> list[str]:
    """A prompt, kept as the screen's prompt: ``lines`` for the seat it asks (it carries
    ``Legal``), ``waiting`` (to ``verb``) for everyone else."""
    screen.prompt = msg
    if "Legal" not in msg:
        return waiting(msg, screen, verb)
    return lines(msg, screen)


class TrickText:
    """A trick-taking game's text mode: a ``TextView`` for a game to subclass."""

    #: The game's own commands, for the lines of ``help``.
    help: str = HELP_PLAY
    #: The commands the view reads: each is a ``_cmd_<command>`` method.
    commands: ClassVar[frozenset[str]] = frozenset({"play"})
    #: Partnerships, seat % len(side_names) being a seat's side (empty: every seat for
    #: itself): what people call each side, and the codes the wire may give for them.
    side_names: ClassVar[tuple[str, ...]] = ()
    side_codes: ClassVar[tuple[str, ...]] = ()
    #: What the end of a game says to its winners.
    win_text: ClassVar[str] = "You win!"
    #: How the play prompt says to answer it.
    play_hint: ClassVar[str] = "play 5H or play 3"

    def render(self, msg: Message, screen: TextScreen) -> list[str] | None:
        method = getattr(self, f"_render_{msg.get('Type')}", None)
        if method is None:
            return None
        lines: list[str] = method(msg, screen)
        return lines

    def parse(self, head: str, args: list[str], screen: TextScreen) -> list[Message] | None:
        if head not in self.commands:
            return None
        messages: list[Message] = getattr(self, f"_cmd_{head}")(args, screen)
        return messages

    # ------------------------------------------------------------------- naming

    # How cards and suits read: a game with its own deck overrides these four.
    def card_text(self, code: str) -> str:
        """One card as people read it: ``5♥``."""
        return Card.parse(code).pretty

    def cards_text(self, codes: Sequence[str]) -> str:
        """Some cards: ``5♥ 🃏 A♦``."""
        return " ".join(self.card_text(c) for c in codes)

    def numbered_text(self, codes: Sequence[str]) -> str:
        """A hand as ``play 3`` counts it: ``1:5♥  2:🃏  3:A♦``."""
        return "  ".join(f"{i}:{self.card_text(c)}" for i, c in enumerate(codes, 1))

    def suit_symbol(self, suit: str) -> str:
        """A suit (trump, the suit led) in brief: ``♥``."""
        return Suit.parse(suit).symbol

    def suit_text(self, suit: str) -> str:
        """A suit in full: ``♥ hearts``."""
        return suit_named(suit)

    def side(self, side: object, screen: TextScreen) -> str:
        """A side (an index or one of ``side_codes``) as people read it."""
        index = self.side_codes.index(side) if side in self.side_codes else side
        if not isinstance(index, int) or not 0 <= index < len(self.side_names):
            return f"side {side}"
        mine = screen.seat is not None and screen.seat % len(self.side_names) == index
        return self.side_label(index, mine, screen)

    def side_label(self, index: int, mine: bool, screen: TextScreen) -> str:
        return f"{self.side_names[index]}{' (you)' if mine else ''}"

    def scorer(self, index: object, screen: TextScreen) -> str:
        """Who scores: a seat, or a side in a partnership game."""
        return self.side(index, screen) if self.side_names else screen.name(index)

    def board(self, totals: Sequence[object], screen: TextScreen) -> str:
        """Scores (or tricks, counters) by seat, or by side in a partnership game."""
        return ", ".join(f"{self.scorer(i, screen)} {v}" for i, v in enumerate(totals))

    def game_over(self, msg: Message, screen: TextScreen) -> str:
        """The last line of a game (a ``Score`` with ``GameOver``); nothing is asked any
        more."""
        screen.prompt = None
        verdict = (
            self.win_text if msg.get("Win") else f"{self.scorer(msg.get('Winner'), screen)} wins."
        )
        return f"Game over. {verdict} Final scores: {self.board(msg.get('Score') or [], screen)}"

    # -------------------------------------------------------------------- render

    @staticmethod
    def seat_at(msg: Message, screen: TextScreen) -> None:
        """Remember the seat, the players and the hand a ``Deal`` or ``Snapshot`` gives
        (a watcher's has neither seat nor hand)."""
        screen.seat = msg.get("Playerid")
        screen.players = list(msg["Players"])
        screen.hand = list(msg.get("Hand") or [])

    def _render_Deal(self, msg: Message, screen: TextScreen) -> list[str]:
        self.seat_at(msg, screen)
        seat = screen.seat
        deals = self.deal_heading(msg, screen)
        if seat is None:  # a watcher's
            return [deals]
        return [
            f"{deals} You are seat {seat} ({screen.players[seat]}).",
            f"Your hand: {self.cards_text(screen.hand)}",
        ]

    def deal_heading(self, msg: Message, screen: TextScreen) -> str:
        """The line a deal opens with: ``── Round 2: bob deals.``"""
        return f"── Round {msg['Round']}: {says(screen.name(msg['Dealer']), 'deal', 'deals')}."

    def _render_Play(self, msg: Message, screen: TextScreen) -> list[str]:
        if "PlayedCard" not in msg:
            return prompted(msg, screen, "play", self.play_prompt)
        card = msg["PlayedCard"]
        if msg["Playerid"] == screen.seat and card in screen.hand:
            screen.hand.remove(card)
        return [self.played(msg, screen)]

    def play_prompt(self, msg: Message, screen: TextScreen) -> list[str]:
        """A play prompt to the viewer: its hand, trump and the card winning the trick."""
        state = f"trump {self.suit_symbol(msg['Trump'])}"
        if "WinningCard" in msg:
            state += f", winning {self.card_text(msg['WinningCard'])}"
        return [
            f"Your hand: {self.numbered_text(screen.hand)}   ({state})",
            f"> play one of: {self.cards_text(msg['Legal'])}   ({self.play_hint})",
        ]

    def played(self, msg: Message, screen: TextScreen) -> str:
        """A card played: ``bob played 5♥``."""
        return f"{screen.name(msg['Playerid'])} played {self.card_text(msg['PlayedCard'])}"

    def _render_Trick(self, msg: Message, screen: TextScreen) -> list[str]:
        return []  # the Message that follows says it for people

    def _render_Snapshot(self, msg: Message, screen: TextScreen) -> list[str]:
        self.seat_at(msg, screen)
        where = "Watching" if screen.seat is None else f"Back at seat {screen.seat}"
        lines = [
            f"── {where}, round {msg['Round']} ({msg['Phase']}); "
            f"{screen.name(msg['Dealer'])} dealt. Scores: {self.board(msg['Score'], screen)}",
            *([] if screen.seat is None else [f"Your hand: {self.cards_text(screen.hand)}"]),
            *self.snapshot_lines(msg, screen),
        ]
        if msg.get("Trick"):
            played = ", ".join(
                f"{screen.name(p['Playerid'])} {self.card_text(p['PlayedCard'])}"
                for p in msg["Trick"]
            )
            lines.append(f"This trick so far: {played}")
        return lines

    def snapshot_lines(self, msg: Message, screen: TextScreen) -> list[str]:
        """What a game's snapshot says between the hand and the trick: its trump."""
        if "Trump" not in msg:
            return []
        bid = f", bid {msg['Bid']}" if "Bid" in msg else ""
        return [f"Trump is {self.suit_text(msg['Trump'])}{bid}"]

    # --------------------------------------------------------------------- parse

    def _cmd_play(self, args: list[str], screen: TextScreen) -> list[Message]:
        if len(args) != 1:
            raise Malformed("play one card: play 5H or play 3", "bad_message")
        return [{"Type": "Play", "PlayedCard": card_at(args[0], screen)}]


class BiddingText(TrickText):
    """A game that bids for the right to name trump: ``Bid`` and ``Trump`` prompts and
    announcements, and the ``bid N``, ``pass`` and ``trump SUIT`` commands."""

    commands: ClassVar[frozenset[str]] = frozenset({"bid", "pass", "trump", "play"})
    #: How to answer a bid prompt.
    bid_hint: ClassVar[str] = "bid N or pass"

    def bid_prompt(self, legal: Sequence[int]) -> str:
        """The line that asks this seat to bid, ``legal`` being its bids (0: pass)."""
        options = ", ".join("pass" if b == 0 else str(b) for b in legal)
        return f"> your bid ({options}): {self.bid_hint}"

    def bid_said(self, msg: Message, screen: TextScreen) -> str:
        """A bid made: ``bob bids 20``, ``you pass``."""
        if msg["Bid"] == 0:
            return says(screen.name(msg["Playerid"]), "pass", "passes")
        amount = msg["Bid"]
        return says(screen.name(msg["Playerid"]), f"bid {amount}", f"bids {amount}")

    def asks_bid(self, msg: Message) -> bool:
        """Whether a ``Bid`` message is a prompt (else it tells a bid made)."""
        return "Bid" not in msg

    def _render_Bid(self, msg: Message, screen: TextScreen) -> list[str]:
        if self.asks_bid(msg):
            return prompted(msg, screen, "bid", lambda m, _: [self.bid_prompt(m["Legal"])])
        return [self.bid_said(msg, screen)]

    def _render_Trump(self, msg: Message, screen: TextScreen) -> list[str]:
        if "Trump" not in msg:
            return prompted(msg, screen, "name trump", lambda m, s: [NAME_TRUMP])
        return [
            f"Trump is {self.suit_text(msg['Trump'])} (named by {screen.name(msg['Playerid'])})"
        ]

    def _cmd_bid(self, args: list[str], screen: TextScreen) -> list[Message]:
        return [{"Type": "Bid", "Bid": number(args, "bid 20")}]

    def _cmd_pass(self, args: list[str], screen: TextScreen) -> list[Message]:
        return [{"Type": "Bid", "Bid": 0}]

    def _cmd_trump(self, args: list[str], screen: TextScreen) -> list[Message]:
        suit = SUIT_WORDS.get(args[0].lower()) if args else None
        if suit is None:
            typed = " ".join(["trump", *args])
            raise Malformed(f"name a suit: trump hearts (not {quote(typed)})", "bad_suit")
        return [{"Type": "Trump", "Trump": suit.value}]
