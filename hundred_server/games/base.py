"""The one game interface: what the server, lobby, tables, records, bots and self-play
may know of a game. See games/README.md.

A game is its pure rules engine (``games/<game>/rules.py``, a ``GameState``), its
notation and record format (``games/<game>/records.py``, kit/records.py) and a
``GameSpec`` (``games/<game>/wire.py``) that says what else the rest of the code needs:
lobby presets, how to deal from a seed, its bots, how its events look on the wire. A
game supplies a few fields; the rest (``seat_counts``, ``bot``, ``answer_types``,
``parse_action``, the record functions) is derived from them. ``games/__init__.py``
registers each spec by name. Nothing outside ``hundred_server/games/`` imports a game
module directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from hundred_server.protocol.errors import IllegalActionError

if TYPE_CHECKING:
    from hundred_server.games.kit.records import RecordFormat
    from hundred_server.games.kit.research import Research

Message = dict[str, Any]


class DeckCard(Protocol):
    """A card of any game's deck, as the interface needs it: its code (the French
    ``hundred_server.games.kit.cards.Card``, or a game's own deck's card)."""

    @property
    def code(self) -> str: ...


#: The seat of a watcher in ``Wire.tell`` and ``Wire.snapshot``: nobody's.
WATCHER: Final = None

#: Seat names for bot games, seat 0 first (tables have up to six seats).
DEFAULT_NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


def player_names(num_players: int) -> list[str]:
    """``DEFAULT_NAMES`` for up to six seats (more are named, for the engine to refuse)."""
    return [DEFAULT_NAMES[i] if i < len(DEFAULT_NAMES) else f"p{i}" for i in range(num_players)]


class GameDeck(Protocol):
    """A game's deck: the order of each round's deal from a seed (chance is an input),
    and the check of an order it is given (``bad_deck``). kit/tricks.py ``Deck`` is one."""

    def seeded(self, seed: str, index: int) -> Sequence[Any]:
        """The deck of round ``index`` (0-based) of a table dealt from ``seed``."""
        ...

    def check(self, deck: Sequence[Any]) -> Sequence[Any]:
        """``deck`` as a tuple if it is the game's deck in some order, else ``bad_deck``."""
        ...


class GameState(Protocol):
    """A game in progress, as the rules engine keeps it (``hundredandten.Game``,
    ``whist.Game``). Actions, events and views are the engine's own types; only the
    game's own spec looks inside them."""

    @property
    def game_name(self) -> str:
        """The registry name of the game (``GameSpec.name``)."""

    @property
    def players(self) -> Sequence[str]: ...

    @property
    def flags(self) -> frozenset[str]:
        """The table options the game is played with (``GameSpec.flags``)."""

    @property
    def to_act(self) -> int | None:
        """The seat that must act now (None: nobody, the game waits for a deal or is
        over; ``needs_deal`` tells which)."""

    @property
    def winner(self) -> int | None:
        """The winner once the game is over (None until then): a seat, or a side for
        partnership games (see ``GameSpec.sides``)."""

    @property
    def scores(self) -> Sequence[int]:
        """Game scores: by seat, or by side for partnership games."""

    @property
    def round_index(self) -> int:
        """The current round (hand), from 0."""

    @property
    def history(self) -> Sequence[object]: ...

    def deal(self, deck: Sequence[Any]) -> list[Any]:
        """Deal a round from ``deck`` (the game's own cards, as ``seeded_deck`` gives)."""

    def legal_actions(self, seat: int) -> tuple[Any, ...]: ...

    def apply(self, seat: int, action: Any) -> list[Any]: ...

    def view_for(self, seat: int) -> Any: ...


def is_over(game: GameState) -> bool:
    """Whether ``game`` has ended: it has its winner."""
    return game.winner is not None


def needs_deal(game: GameState) -> bool:
    """Whether ``game`` waits for ``deal(deck)`` (chance is an input): nobody is to act
    and it is not over."""
    return game.to_act is None and game.winner is None


def round_number(game: GameState) -> int:
    """The current round (hand) of ``game``, from 1, as events and records count."""
    return game.round_index + 1


class Bot(Protocol):
    """A strategy: a seat's view in, one of its legal actions out."""

    def act(self, view: Any) -> Any: ...


@dataclass(frozen=True)
class PluginShape:
    """A game's own shape of plug-in bot (``--bot GAME=module:Class``), besides the
    general one every game takes: a class whose ``act(self, view)`` returns one of
    ``view.legal`` (docs/plugins.md).

    The plug-in's class has a method ``method`` taking ``parameters`` (the assignment
    a game's shape comes from says which); ``adapt(instance)`` is a ``Bot`` that calls
    it, and whose ``act`` raises ``BotAnswerError`` (its code one of ``checks``) when the
    answer is not a legal move, or whatever the method raised. It runs in the plug-in's
    worker process, never in the server's.
    """

    method: str
    parameters: tuple[str, ...]
    adapt: Callable[[object], Bot]
    #: What ``hundred-server check-bot`` checks of the answers, in order: (the
    #: ``BotAnswerError`` code that fails it, what it says), e.g. ("not_a_card",
    #: "PlayCard returns a Card").
    checks: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Preset:
    """A table mode the lobby offers: ``seats`` seats, AI at ``ai_seats``, and the
    partnerships (``sides``: seat -> side; None: every seat for itself). People sit in
    the lowest free seat, so a mode places people by where it puts the AI."""

    text: str
    seats: int
    ai_seats: tuple[int, ...]
    sides: tuple[int, ...] | None = None
    #: The table options (``GameSpec.flags``) this mode switches on.
    flags: frozenset[str] = frozenset()


class NewGame(Protocol):
    """``new_game(players, seed, flags)``: a game waiting for its first deal; the seed,
    if any, and the flags (table options, ``GameSpec.flags``) go into its record."""

    def __call__(
        self, players: Sequence[str], seed: str | None, flags: frozenset[str] = ..., /
    ) -> GameState: ...


def check_flags(flags: frozenset[str], known: Iterable[str], title: str) -> None:
    """``bad_flag`` unless every one of ``flags`` is a table option of the game."""
    unknown = sorted(flags - set(known))
    if unknown:
        takes = ", ".join(sorted(known)) or "none"
        raise IllegalActionError(
            f"{title} has no table option {', '.join(unknown)} (its options: {takes})",
            "bad_flag",
        )


class TextScreen(Protocol):
    """What a text-mode connection knows, for a game's ``TextView`` to render and read
    in context (codecs/text.py)."""

    seat: int | None
    players: list[str]
    hand: list[str]
    prompt: Message | None
    #: How cards are shown: "symbols" (``5♥``) or "letters" (``5H``); kit/text.py.
    notation: str
    #: The scores (by seat or side) the screen was last told, for ``score``.
    scores: list[int] | None
    #: What a game's view keeps of the hand under way (Rook: the bidder, the cards
    #: called, the partners revealed), for its commands; emptied back in the lobby.
    notes: dict[str, Any]

    def name(self, seat: object) -> str:
        """A seat as people read it: "you", or the player's name."""


class TextView(Protocol):
    """A game's text mode: its help, how its messages read, and its commands."""

    #: Lines of help for the game's own commands (shown after the lobby's).
    help: str

    def render(self, msg: Message, screen: TextScreen) -> list[str] | None:
        """``msg`` as lines for people (None: not one of this game's messages)."""

    def parse(
        self, head: str, args: list[str], screen: TextScreen
    ) -> list[Message] | list[str] | None:
        """The wire messages of the command ``head args``, or lines to show at once
        (``score``); None: not this game's command; ``Malformed`` if it is this game's
        but malformed."""

    def numbered_text(self, codes: Sequence[str], screen: TextScreen) -> str:
        """A hand as people read it, numbered as ``play 3`` counts it (``1:5♥  2:🃏``):
        the ``hand`` command shows it (each game reads its own cards)."""

    def said(self, text: str, screen: TextScreen) -> list[str] | None:
        """The server's words for people at a table of this game, as the screen says
        them: lines, [] (another message says it), None (not known: ``voice``)."""

    def voice(self, text: str, screen: TextScreen) -> str:
        """Words the view does not know, with seats named and cards in the screen's
        notation."""


def _view_for(game: Any, seat: int) -> Any:
    """A seat's view, as the engine gives it (``GameState.view_for``)."""
    return game.view_for(seat)


@dataclass(frozen=True)
class Wire:
    """What a game says on the wire (``GameSpec.wire``): the four functions of its
    ``wire.py``, ``Wire(prompt, tell, snapshot, win_text)``."""

    #: The pending prompt as a seat sees it (None: as any seat but the one to act,
    #: and as a watcher sees it), with ``Seq``; ``Legal`` only in the acting seat's copy.
    prompt: Callable[[Any, int | None, int], Message | None]
    #: What each of some seats is told of some events; the seat None is a watcher
    #: (``WATCHER``), told what a seat that holds no cards would be: every public
    #: message, and of the private ones only what carries no card (a ``Deal`` without
    #: ``Playerid`` and ``Hand``, a discard's count, a ``Score`` with ``GameOver`` and
    #: no ``Win``).
    tell: Callable[
        [Sequence[Any], Sequence[int | None], Sequence[str]], dict[int | None, list[Message]]
    ]
    #: The game as a seat knows it, for a person who takes their seat back; for the
    #: seat None (a watcher), what is public: no ``Playerid``, no ``Hand``, nothing any
    #: one seat holds or put away unseen.
    snapshot: Callable[[Any, int | None, int], Message]
    #: The words of a win, for ``result``: (game, winner, scores) -> "ann wins with 110"
    #: (the winner and the scores are by side where there are sides).
    win_text: Callable[[Any, int, list[int]], str]


@dataclass(frozen=True)
class GameSpec:
    """Everything outside ``games/`` may know of one game: what the game supplies (the
    fields), and what is derived from it (the properties). See games/README.md."""

    #: The lobby's ready-made tables (options 1..n); their seats are the table sizes
    #: the game is played at (``seat_counts``).
    presets: tuple[Preset, ...]
    #: A game with these players and table options, waiting for its first ``deal``
    #: (the driver deals every round); the seed, if any, is written into its record.
    #: The spec checks the options against ``flags`` first (``bad_flag``).
    new_game: NewGame
    #: The game's built-in AIs by name (name -> a new bot), for tournaments and the
    #: like: every game has ``naive`` (its plainest player), ``default`` (``bot``) and
    #: ``strong`` (search over sampled deals), whose factory also takes ``budget=``
    #: (seconds of wall clock a decision at most; None: no cap).
    bots: Mapping[str, Callable[..., Bot]]
    #: Its records (kit/records.py ``RecordFormat``): the header's own fields, the
    #: action lines, its deck, what ends a round, its error codes. The action lines are the
    #: answers' too: ``answer_types`` and ``parse_action`` are derived from it.
    records: RecordFormat[Any]
    #: How its games look on the wire: prompts, what each seat is told, snapshots and
    #: the words of a win (``Wire``).
    wire: Wire
    # ---- optional: what a game has only if it has it
    #: Partnerships: seat -> side (None: every seat for itself). Scores and the winner
    #: are by side when there are sides.
    sides: tuple[int, ...] | None = None
    #: Whether option n+1 is "a table of your choice" (Seats, Bots, Name, Clock).
    custom: bool = False
    #: A fast view for bots (``view(game, seat)``, seat being the one to act); the
    #: engine's ``view_for`` unless the game has a faster one.
    view: Callable[[Any, int], Any] = _view_for
    #: The game's own plug-in shape (``--bot GAME=module:Class``), if it has one
    #: besides the general ``act(view)`` that every game takes.
    plugin: PluginShape | None = None
    #: Plays and tells one game of bots for people (``demo`` command): (seed, seats).
    demo: Callable[[str | None, int], object] | None = None
    #: Text mode (netcat, telnet): the game's help, rendering and commands.
    text: TextView | None = None
    #: Whether the classic dialect (``--classic-port``, the pinochle seed's) can play
    #: this game: a seed client knows its deck, its phases and its every prompt. The
    #: classic port lists, joins and creates tables of such games only (codecs/classic.py,
    #: ``ClassicCodec.games``), and creates tables of the one game that says so.
    classic: bool = False
    #: The table options the game takes: boolean variants a preset may switch on, or a
    #: table of your choice (``{"Type":"Game",...,"<Flag>":true}``); see ``new_game``.
    flags: tuple[str, ...] = ()
    #: Its catalogue for the research environments (``hundred_server.research``,
    #: kit/research.py): numbered actions, decisions taken in steps, hidden cards drawn.
    research: Research | None = None

    def __post_init__(self) -> None:
        # Every game's table options checked here once: ``new_game`` refuses a flag
        # the game does not list (``bad_flag``) before the game's own is called.
        made, known, title = self.new_game, self.flags, self.title

        def new_game(
            players: Sequence[str], seed: str | None, flags: frozenset[str] = frozenset()
        ) -> GameState:
            check_flags(flags, known, title)
            return made(players, seed, flags)

        object.__setattr__(self, "new_game", new_game)

    # ---- derived from the fields above

    def result(self, game: Any) -> dict[str, Any]:
        """How ``game`` ended, for the store and the games list: {"Winner": seat or
        side, "Score": [...], "Text": "..."} ("no winner" while there is none)."""
        winner, score = game.winner, list(game.scores)
        text = "no winner" if winner is None else self.wire.win_text(game, winner, score)
        return {"Winner": winner, "Score": score, "Text": text}

    @property
    def seeded_deck(self) -> Callable[[str, int], Sequence[Any]]:
        """The deck of round ``index`` (0-based) of a table dealt from ``seed``: its
        records' deck's (``GameDeck.seeded``)."""
        return self.records.deck.seeded

    @property
    def name(self) -> str:
        """Registry key and the ``Game`` field on the wire and in records (its records')."""
        return self.records.game

    @property
    def title(self) -> str:
        """The game's name as people read it ("Hundred and Ten"), its records'."""
        return self.records.title

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """How many seats a table of this game may have: its presets' sizes."""
        return tuple(sorted({preset.seats for preset in self.presets}))

    @property
    def bot(self) -> Callable[[], Bot]:
        """The default AI (``bots["default"]``)."""
        return self.bots["default"]

    @property
    def answer_types(self) -> frozenset[str]:
        """Message Types that answer a prompt: the record's action lines' Types."""
        return frozenset(self.records.actions.read)

    @property
    def parse_action(self) -> Callable[[Message], Any]:
        """A client's answer -> the engine's action (``Malformed`` if malformed),
        read as its record line is (``Notation``)."""
        return self.records.actions.parse_answer

    @property
    def header_object(self) -> Callable[[Any], dict[str, Any]]:
        return self.records.header_object

    @property
    def history_objects(self) -> Callable[[Any, int], list[dict[str, Any]]]:
        return self.records.history_objects

    @property
    def replay(self) -> Callable[[Iterable[str | bytes]], Iterator[dict[str, Any]]]:
        return self.records.replay

    @property
    def load_record(self) -> Callable[[Iterable[str | bytes]], GameState]:
        return self.records.load_record

    @property
    def record_codes(self) -> Mapping[str, str]:
        """Every ``Code`` the game's replay can give, and what it means."""
        return self.records.codes
