"""Text mode that the games share (no I/O): what a trick-taking game reads and says
alike on netcat or telnet, for each game's ``TextView`` (games/base.py) to build on.

One voice on a screen: a person is named by their name, and "you" for the viewer;
cards are shown in the notation the person chose (``screen.notation``: symbols, ``5♥
10♠ 🃏``, or letters, the wire's codes ``5H TS JK``), and whatever is shown can be
typed back as shown (in either notation, any case) or by its position in the hand
(``play 3``: the third card); counts agree with their nouns ("1 point", "2 points").

``TrickText`` renders the messages every trick-taking game sends the same way
(``Deal``, ``Play`` prompts and plays, ``Trick``, the common part of ``Snapshot``),
reads ``play CARD`` / ``play 3``, says the server's words for people (``Message``) in
the screen's voice (``said``), and answers ``score`` and, in a partnership game,
``partner``; ``BiddingText`` adds a ``Bid`` and ``Trump`` prompt and the ``bid N``,
``pass`` and ``trump SUIT`` commands, for the games that bid for trump. A game's view
subclasses one of them, adds its own messages as ``_render_<Type>`` methods and its
own commands as ``_cmd_<command>`` methods (listed in ``commands``), and sets
``help``. The codec (codecs/text.py) keeps the lobby and asks the view of the game at
hand for everything else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import ClassVar, Final

from hundred_server.games.base import Message, TextScreen
from hundred_server.games.kit.cards import Card, Suit
from hundred_server.protocol.errors import CardCodeError, Malformed
from hundred_server.protocol.wire import quote

#: The two notations of a screen: cards as symbols (``5♥``, ``10♠``, ``🃏``; Rook's
#: by name, ``Red 14``) or as letters (the wire's codes: ``5H``, ``TS``, ``JK``, ``R14``).
SYMBOLS: Final = "symbols"
LETTERS: Final = "letters"
NOTATIONS: Final = (SYMBOLS, LETTERS)

HELP_TRUMP: Final = (
    "  trump SUIT        hearts, diamonds, spades, clubs (or h, d, s, c, or ♥ ♦ ♠ ♣)"
)
HELP_PLAY: Final = "\n".join(
    [
        "  play CARD         play a card as it is shown (play 5♥ or play 5H), or",
        "  play N            by its position in your hand (play 3: the third card)",
    ]
)
NAME_TRUMP: Final = "> name trump: trump hearts, diamonds, spades or clubs"
#: What a partnership game adds to ``help``.
HELP_PARTNER: Final = "  partner           who plays with you, and against you"

SUIT_WORDS: Final = {
    **{s.name.lower(): s for s in Suit},
    **{s.name.lower()[:-1]: s for s in Suit},
    **{s.value.lower(): s for s in Suit},
    **{s.symbol: s for s in Suit},
}
#: A suit symbol as typed: the black and the white forms (a person may type either).
_SYMBOL_SUITS: Final = {
    **{s.symbol: s.value for s in Suit},
    "♡": "H",
    "♢": "D",
    "♤": "S",
    "♧": "C",
}
_VARIATION: Final = "\ufe0f"  # an emoji variation selector, as some keyboards add to ♥
#: A card code as a word of the server's words for people (``... with 5H``).
_CODE_WORD: Final = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b")
#: How the server's words for people name a seat: ``Player 2 (bob)``.
_PLAYER_WORD: Final = re.compile(r"\bPlayer (\d+) \([^()]*\)")
_TRICK_WORDS: Final = re.compile(r"^Player \d+ (?:\(.*\) )?wins trick #\d+ with \S+(?: for .*)?$")
_STUCK_WORDS: Final = re.compile(
    r"^Everyone passed: Player (\d+) \(.*\) dealt and is the bidder at (\d+)$"
)
#: A side's win in a partnership game: the ``Score`` with ``GameOver`` says it.
_SIDE_WON: Final = re.compile(r"^.* win the game \d+ to \d+$")
#: Nouns the server counts, and their plurals, for ``fix_plurals``.
_COUNTED: Final = re.compile(
    r"\b(1|one) (point|hand|trick|card|chip|player|AI player|person|second|game|seat)s\b"
)


def number_word(word: str) -> bool:
    """0-9 only: ``"²".isdigit()`` is true, but ``int("²")`` fails."""
    return word.isascii() and word.isdigit()


def number(args: Sequence[str], example: str) -> int:
    """The one number in ``args`` (``bad_message``, quoting what was typed, if not)."""
    if len(args) != 1 or not number_word(args[0]) or len(args[0]) > 6:
        typed = " ".join(args) or "nothing"
        raise Malformed(f"expected a number, as in: {example} (not {quote(typed)})", "bad_message")
    return int(args[0])


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 point``, ``2 points`` (``many``: the plural, if not ``noun`` + s)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def fix_plurals(text: str) -> str:
    """The server's words with "1 points" and "one AI players" said right."""
    return _COUNTED.sub(lambda m: f"{m[1]} {m[2]}", text)


def pretty(codes: Sequence[str]) -> str:
    """``5♥ 🃏 A♦``."""
    return " ".join(Card.parse(c).pretty for c in codes)


def numbered(codes: Sequence[str]) -> str:
    """``1:5♥  2:🃏  3:A♦``: a hand as ``play 3`` and ``discard 2 5`` count it."""
    return "  ".join(f"{i}:{Card.parse(c).pretty}" for i, c in enumerate(codes, 1))


def read_french(word: str) -> str | None:
    """The code of a French-deck card as a person types it: the code in any case
    (``5h``, ``10H``), or as shown with a symbol (``5♥``, ``10♠``, ``🃏``); None if
    it is none."""
    typed = word.strip().replace(_VARIATION, "")
    if typed == "🃏" or typed.lower() == "joker":
        return "JK"
    if typed and typed[-1] in _SYMBOL_SUITS:
        typed = typed[:-1] + _SYMBOL_SUITS[typed[-1]]
    try:
        return Card.parse(typed).code
    except CardCodeError:
        return None


def card_at(word: str, screen: TextScreen) -> str:
    """A card named by its position in the hand (from 1) or by itself, as shown in
    either notation (its code, for the server to read)."""
    if number_word(word):
        index = int(word) - 1
        if not 0 <= index < len(screen.hand):
            raise Malformed(
                f"no card at position {word}: you hold {plural(len(screen.hand), 'card')}",
                "bad_card",
            )
        return screen.hand[index]
    code = read_french(word)
    if code is None:
        raise Malformed(
            f"not a card: {quote(word)} (a card as shown, as 5♥, 10♠ or 5H, or its "
            "position in your hand, as 3)",
            "bad_card",
        )
    return code


def suit_named(suit: str) -> str:
    """``"H"`` as people read it: ``♥ hearts``."""
    parsed = Suit.parse(suit)
    return f"{parsed.symbol} {parsed.name.lower()}"


def person(name: str, screen: TextScreen) -> str:
    """A player the server's words name by their name, as the screen names them ("you"
    for the viewer)."""
    return screen.name(screen.players.index(name)) if name in screen.players else name


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
    commands: ClassVar[frozenset[str]] = frozenset({"play", "score"})
    #: Partnerships, seat % len(side_names) being a seat's side (empty: every seat for
    #: itself): what people call each side, and the codes the wire may give for them.
    side_names: ClassVar[tuple[str, ...]] = ()
    side_codes: ClassVar[tuple[str, ...]] = ()
    #: What the end of a game says to its winners.
    win_text: ClassVar[str] = "You win!"
    #: What the scores are called (``score``, the end of a game).
    scores_word: ClassVar[str] = "Scores"

    def render(self, msg: Message, screen: TextScreen) -> list[str] | None:
        method = getattr(self, f"_render_{msg.get('Type')}", None)
        if method is None:
            return None
        lines: list[str] = method(msg, screen)
        return lines

    def parse(
        self, head: str, args: list[str], screen: TextScreen
    ) -> list[Message] | list[str] | None:
        if head not in self.commands:
            return None
        said: list[Message] | list[str] = getattr(self, f"_cmd_{head}")(args, screen)
        return said

    # ------------------------------------------------------------------- naming

    # How cards and suits read and are read: a game with its own deck overrides these.
    def card_text(self, code: str, screen: TextScreen) -> str:
        """One card as the screen shows it: ``5♥`` (symbols) or ``5H`` (letters)."""
        card = Card.parse(code)
        return card.code if screen.notation == LETTERS else card.pretty

    def cards_text(self, codes: Sequence[str], screen: TextScreen) -> str:
        """Some cards: ``5♥ 🃏 A♦``."""
        return " ".join(self.card_text(c, screen) for c in codes)

    def numbered_text(self, codes: Sequence[str], screen: TextScreen) -> str:
        """A hand as ``play 3`` counts it: ``1:5♥  2:🃏  3:A♦``."""
        return "  ".join(f"{i}:{self.card_text(c, screen)}" for i, c in enumerate(codes, 1))

    def suit_symbol(self, suit: str, screen: TextScreen) -> str:
        """A suit (trump, the suit led) in brief: ``♥`` (letters: ``hearts``)."""
        parsed = Suit.parse(suit)
        return parsed.name.lower() if screen.notation == LETTERS else parsed.symbol

    def suit_text(self, suit: str, screen: TextScreen) -> str:
        """A suit in full: ``♥ hearts`` (letters: ``hearts``)."""
        parsed = Suit.parse(suit)
        return parsed.name.lower() if screen.notation == LETTERS else suit_named(suit)

    def read_cards(self, args: Sequence[str], screen: TextScreen) -> list[str]:
        """The codes of the cards ``args`` name, each by position or as shown."""
        return [card_at(word, screen) for word in args]

    def recode(self, text: str, screen: TextScreen) -> str:
        """The server's words for people with its card codes in the screen's notation."""
        return _CODE_WORD.sub(lambda m: self.card_text(m[0], screen), text)

    def play_hint(self, msg: Message, screen: TextScreen) -> str:
        """How the play prompt says to answer it: by a card it offers, or by position."""
        legal = msg.get("Legal") or screen.hand
        if not legal:
            return "play 5♥ or play 3"
        at = screen.hand.index(legal[0]) + 1 if legal[0] in screen.hand else 1
        return f"play {self.card_text(legal[0], screen)} or play {at}"

    def side(self, side: object, screen: TextScreen) -> str:
        """A side (an index or one of ``side_codes``) as people read it."""
        index = self.side_codes.index(side) if side in self.side_codes else side
        if not isinstance(index, int) or not 0 <= index < len(self.side_names):
            return f"side {side}"
        mine = screen.seat is not None and screen.seat % len(self.side_names) == index
        return self.side_label(index, mine, screen)

    def side_label(self, index: int, mine: bool, screen: TextScreen) -> str:
        """``North-South (you and cy)``: a side and who plays it."""
        sides = len(self.side_names)
        members = [screen.name(s) for s in range(index, len(screen.players), sides)]
        if not members:
            return f"{self.side_names[index]}{' (you)' if mine else ''}"
        return f"{self.side_names[index]} ({' and '.join(members)})"

    def scorer(self, index: object, screen: TextScreen) -> str:
        """Who scores: a seat, or a side in a partnership game."""
        return self.side(index, screen) if self.side_names else screen.name(index)

    def board(self, totals: Sequence[object], screen: TextScreen) -> str:
        """Scores (or tricks, counters) by seat, or by side in a partnership game."""
        return ", ".join(f"{self.scorer(i, screen)} {v}" for i, v in enumerate(totals))

    def winner_said(self, msg: Message, screen: TextScreen) -> str:
        """``bob wins.``, ``North-South (ann and cy) win.``: the winner of a game."""
        if self.side_names:
            return f"{self.scorer(msg.get('Winner'), screen)} win."
        return f"{says(screen.name(msg.get('Winner')), 'win', 'wins')}."

    def game_over(self, msg: Message, screen: TextScreen) -> str:
        """The last line of a game (a ``Score`` with ``GameOver``); nothing is asked any
        more."""
        screen.prompt = None
        verdict = self.win_text if msg.get("Win") else self.winner_said(msg, screen)
        board = self.board(msg.get("Score") or [], screen)
        return f"Game over. {verdict} Final {self.scores_word.lower()}: {board}"

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
        deals = self.deal_heading(msg, screen)
        if screen.seat is None:  # a watcher's
            return [deals]
        return [
            deals,
            f"Your hand: {self.cards_text(screen.hand, screen)}",
            *self.partners_line(screen),
        ]

    def partners_line(self, screen: TextScreen) -> list[str]:
        """``You play with cy (your partner) against bob and dee.``, in a game of two
        fixed sides of two; nothing in any other."""
        seat = screen.seat
        if seat is None or len(self.side_names) != 2 or len(screen.players) != 4:
            return []
        partner, left, right = (screen.name((seat + k) % 4) for k in (2, 1, 3))
        side = self.side_names[seat % 2]
        return [f"You play with {partner} (your partner, {side}) against {left} and {right}."]

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
        state = f"trump {self.suit_symbol(msg['Trump'], screen)}"
        if "WinningCard" in msg:
            state += f", winning {self.card_text(msg['WinningCard'], screen)}"
        return [
            f"Your hand: {self.numbered_text(screen.hand, screen)}   ({state})",
            f"> play one of: {self.cards_text(msg['Legal'], screen)}   "
            f"({self.play_hint(msg, screen)})",
        ]

    def played(self, msg: Message, screen: TextScreen) -> str:
        """A card played: ``bob played 5♥``."""
        return f"{screen.name(msg['Playerid'])} played {self.card_text(msg['PlayedCard'], screen)}"

    def _render_Trick(self, msg: Message, screen: TextScreen) -> list[str]:
        """``bob wins trick 3 with 5♥`` (the server's words that follow are left out)."""
        who = says(screen.name(msg["Playerid"]), "win", "wins")
        line = f"{who} trick {msg['Trick']} with {self.card_text(msg['WinningCard'], screen)}"
        if isinstance(msg.get("Points"), int):
            line += f" ({plural(msg['Points'], 'point')})"
        return [line]

    def _render_Score(self, msg: Message, screen: TextScreen) -> list[str]:
        """A game's end (a game's own view says its hands' scores)."""
        return [self.game_over(msg, screen)] if msg.get("GameOver") else []

    def _render_Snapshot(self, msg: Message, screen: TextScreen) -> list[str]:
        self.seat_at(msg, screen)
        where = "Watching" if screen.seat is None else "Back at your seat"
        lines = [
            f"── {where}, round {msg['Round']} ({msg['Phase']}); "
            f"{screen.name(msg['Dealer'])} dealt. "
            f"{self.scores_word}: {self.board(msg['Score'], screen)}",
            *(
                []
                if screen.seat is None
                else [f"Your hand: {self.cards_text(screen.hand, screen)}"]
            ),
            *self.partners_line(screen),
            *self.snapshot_lines(msg, screen),
        ]
        if msg.get("Trick"):
            played = ", ".join(
                f"{screen.name(p['Playerid'])} {self.card_text(p['PlayedCard'], screen)}"
                for p in msg["Trick"]
            )
            lines.append(f"This trick so far: {played}")
        return lines

    def snapshot_lines(self, msg: Message, screen: TextScreen) -> list[str]:
        """What a game's snapshot says between the hand and the trick: its trump."""
        if "Trump" not in msg:
            return []
        bid = f", bid {msg['Bid']}" if "Bid" in msg else ""
        return [f"Trump is {self.suit_text(msg['Trump'], screen)}{bid}"]

    # ------------------------------------------------------- the server's words

    def said(self, text: str, screen: TextScreen) -> list[str] | None:
        """The server's words for people (a ``Message`` at a table of this game) as
        this screen says them: lines, [] when a message rendered already says it, or
        None for words the view does not know (the codec says them in the screen's
        voice, ``recode``)."""
        if _TRICK_WORDS.match(text) or _SIDE_WON.match(text):
            return []  # the Trick before it, the Score with GameOver after it
        stuck = _STUCK_WORDS.match(text)
        if stuck:
            who = screen.name(int(stuck[1]))
            are = "are" if who == "you" else "is"
            return [f"Everyone passed: {who} dealt and {are} the bidder at {stuck[2]}"]
        return None

    def voice(self, text: str, screen: TextScreen) -> str:
        """Words the view does not know, in the screen's voice: seats by name (or
        "you"), cards in its notation, counts that agree with their nouns."""
        named = _PLAYER_WORD.sub(lambda m: screen.name(int(m[1])), text)
        return fix_plurals(self.recode(named, screen))

    # --------------------------------------------------------------------- parse

    def _cmd_play(self, args: list[str], screen: TextScreen) -> list[Message]:
        example = self.play_hint(screen.prompt or {}, screen)
        if not args:
            raise Malformed(f"play one card: {example}", "bad_message")
        cards = self.read_cards(args, screen)
        if len(cards) != 1:
            raise Malformed(f"play one card, not {len(cards)}: {example}", "bad_message")
        return [{"Type": "Play", "PlayedCard": cards[0]}]

    def _cmd_score(self, args: list[str], screen: TextScreen) -> list[str]:
        """``score``: the scores the screen was last told (lines to show at once)."""
        totals = screen.scores
        if totals is None:
            return ["No hand has been scored yet." if screen.players else "You are at no game."]
        return [f"{self.scores_word}: {self.board(totals, screen)}"]

    def _cmd_partner(self, args: list[str], screen: TextScreen) -> list[str]:
        """``partner``: who plays with you (a partnership game's)."""
        lines = self.partners_line(screen)
        return lines or ["You have no partner now: you are at no game."]


class BiddingText(TrickText):
    """A game that bids for the right to name trump: ``Bid`` and ``Trump`` prompts and
    announcements, and the ``bid N``, ``pass`` and ``trump SUIT`` commands."""

    commands: ClassVar[frozenset[str]] = frozenset({"bid", "pass", "trump", "play", "score"})
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
        suit = self.suit_text(msg["Trump"], screen)
        return [f"Trump is {suit} (named by {screen.name(msg['Playerid'])})"]

    def _cmd_bid(self, args: list[str], screen: TextScreen) -> list[Message]:
        return [{"Type": "Bid", "Bid": number(args, "bid 20")}]

    def _cmd_pass(self, args: list[str], screen: TextScreen) -> list[Message]:
        return [{"Type": "Bid", "Bid": 0}]

    def _cmd_trump(self, args: list[str], screen: TextScreen) -> list[Message]:
        suit = SUIT_WORDS.get(args[0].lower().replace(_VARIATION, "")) if args else None
        if suit is None and args:
            suit = SUIT_WORDS.get(_SYMBOL_SUITS.get(args[0].replace(_VARIATION, ""), "").lower())
        if suit is None:
            typed = " ".join(["trump", *args])
            raise Malformed(f"name a suit: trump hearts (not {quote(typed)})", "bad_suit")
        return [{"Type": "Trump", "Trump": suit.value}]
