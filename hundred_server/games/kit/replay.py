"""What every game's records share (see records.py): the header line, the line readers
and the ``Replayer`` that games/hundredandten/records.py and games/whist/records.py
subclass.

A record is JSON lines: a ``Record`` header, then each round's ``Deal`` line and the
actions after it. The base ``Replayer`` reads each line in full (JSON, ``Type``, fields,
cards) before it checks it against the game, so a line that is both unreadable and out
of place reports the reading error; it checks the header, the order of Deal lines and
actions, and that nothing follows the end of the game, and passes the engine's own
refusals through with their codes. A game says only what differs (``Replayer``'s
hooks): its name and version, the Deal line's round key and word ("Round"/"round",
"Hand"/"hand"), its line Types, how a game starts and an action line reads, how the
winner is named, its deck check and the Score lines its events make.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, Final, Generic, ParamSpec, Protocol, TypeVar, overload

from hundred_server.games.base import DeckCard
from hundred_server.games.kit.cards import Card, Suit
from hundred_server.protocol.errors import (
    CardCodeError,
    HundredError,
    IllegalActionError,
    RecordError,
)

#: The codes every game's replay gives alike: reading a line, the header, deals, and
#: the engine codes all games share. Each game adds its own (its ``ERROR_CODES``).
COMMON_CODES: Final[dict[str, str]] = {
    "bad_json": "the line is not JSON (or not UTF-8)",
    "bad_record": "not a JSON object, or a field is missing or of the wrong type",
    "unknown_type": "a Type that records do not have",
    "bad_card": "a card code that names no card",
    "missing_header": "the first line is not the Record line (or the record is empty)",
    "unexpected_header": "a second Record line",
    "unknown_game": "a Game that no registered game has",
    "bad_version": "a Version other than 1",
    "wrong_dealer": "a Deal whose Dealer is not the seat the rules make deal",
    "missing_deck": "a Deal without Deck in a record without Seed",
    "deck_mismatch": "a Deal whose Deck differs from the one the Seed deals",
    "missing_deal": "an action before the Deal line of its round",
    "unexpected_deal": "a Deal line while the round's Deal has already been given",
    "game_over": "any line after the game ended",
    "duplicate_name": "two players with the same name",
    "bad_seat": "a Playerid that is no seat at this table",
    "not_your_turn": "the seat is not the one to act",
    "not_in_hand": "a card the seat does not hold",
}

QUOTE_LIMIT: Final = 80

P = ParamSpec("P")
T = TypeVar("T")
D = TypeVar("D")
A = TypeVar("A")
#: A game's card type (the French ``Card``, or a game's own deck's).
CardT = TypeVar("CardT")


# ----------------------------------------------------------------------------- writing


def record_header(
    game_name: str, version: int, players: Sequence[str], seed: str | None
) -> dict[str, Any]:
    """A record's first line (the ``Seed`` only if the game has one)."""
    header: dict[str, Any] = {
        "Type": "Record",
        "Game": game_name,
        "Version": version,
        "Players": list(players),
    }
    if seed is not None:
        header["Seed"] = seed
    return header


def deal_object(
    round_key: str, number: int, dealer: int, deck: Sequence[DeckCard]
) -> dict[str, Any]:
    """A Deal line (``round_key``: the game's word for its round, "Round" or "Hand")."""
    return {"Type": "Deal", round_key: number, "Dealer": dealer, "Deck": [c.code for c in deck]}


def history_lines(
    items: Iterable[D | tuple[int, A]],
    deal: Callable[[D], dict[str, Any]],
    action: Callable[[int, A], dict[str, Any]],
) -> list[dict[str, Any]]:
    """The record lines of some of a game's history: ``action(seat, action)`` for each
    ``(seat, action)`` item, ``deal(item)`` for each other (a deal)."""
    return [action(*item) if isinstance(item, tuple) else deal(item) for item in items]


def score_line(
    round_key: str, number: int, totals: Sequence[int], points: Sequence[int] | None = None
) -> dict[str, Any]:
    """A replay's Score line after a round: its totals, and its points when the game
    says them (``{"Type":"Score","Hand":2,"Points":[...],"Score":[...]}``)."""
    line: dict[str, Any] = {"Type": "Score", round_key: number}
    if points is not None:
        line["Points"] = list(points)
    line["Score"] = list(totals)
    return line


def game_over_line(winner: object, totals: Sequence[int]) -> dict[str, Any]:
    """A replay's last Score line: ``{"Type":"Score","GameOver":true,"Winner":..,...}``."""
    return {"Type": "Score", "GameOver": True, "Winner": winner, "Score": list(totals)}


# ----------------------------------------------------------------------------- field readers


def quote(value: object) -> str:
    """A value as JSON text for a message, cut short if long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > QUOTE_LIMIT:
        text = text[: QUOTE_LIMIT - 1] + "…"
    return text


def quote_raw(line: str) -> str:
    """A raw input line for a message, as Python quotes it (no JSON escaping of quotes)."""
    line = line.strip()
    if len(line) > QUOTE_LIMIT:
        return repr(line[: QUOTE_LIMIT - 1]) + "…"
    return repr(line)


def field(obj: dict[str, Any], name: str) -> Any:
    """``obj[name]``; ``bad_record`` if it is missing."""
    try:
        return obj[name]
    except KeyError:
        raise RecordError(f"missing field {quote(name)} in {quote(obj)}", "bad_record") from None


def read_int(obj: dict[str, Any], name: str) -> int:
    """An integer field (not a boolean)."""
    value = field(obj, name)
    if type(value) is not int:  # bool is an int subclass; a record's true is not 1
        raise RecordError(f"{quote(name)} must be an integer, got {quote(value)}", "bad_record")
    return value


def read_str(obj: dict[str, Any], name: str) -> str:
    """A string field."""
    value = field(obj, name)
    if not isinstance(value, str):
        raise RecordError(f"{quote(name)} must be a string, got {quote(value)}", "bad_record")
    return value


@overload
def read_cards(obj: dict[str, Any], name: str) -> list[Card]: ...
@overload
def read_cards(obj: dict[str, Any], name: str, parse: Callable[[str], CardT]) -> list[CardT]: ...
def read_cards(
    obj: dict[str, Any], name: str, parse: Callable[[str], object] = Card.parse
) -> list[Any]:
    """A list of card codes, as cards (``parse``: the game's card reader, French by
    default)."""
    value = field(obj, name)
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError(
            f"{quote(name)} must be a list of card codes, got {quote(value)}", "bad_record"
        )
    return [read_card(code, name, parse) for code in value]


@overload
def read_card(code: str, name: str) -> Card: ...
@overload
def read_card(code: str, name: str, parse: Callable[[str], CardT]) -> CardT: ...
def read_card(code: str, name: str, parse: Callable[[str], object] = Card.parse) -> object:
    """One card code (of field ``name``), as a card (``parse``: as for ``read_cards``);
    a code that names no card is ``bad_card`` (the reader's code)."""
    try:
        return parse(code)
    except CardCodeError as error:
        raise RecordError(f"{quote(name)}: {error.message}", error.code) from None


def read_suit(obj: dict[str, Any], name: str) -> Suit:
    """Field ``name``: a suit letter, as a suit."""
    text = read_str(obj, name)
    try:
        return Suit.parse(text)
    except CardCodeError as error:
        raise RecordError(error.message, error.code) from None


def engine(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call(...)``, with the engine's refusal turned into a ``RecordError`` of its code."""
    try:
        return call(*args, **kwargs)
    except HundredError as error:
        raise RecordError(error.message, error.code) from None


def error_object(error: RecordError) -> dict[str, Any]:
    """The ``Error`` line for ``error``; its message is always encodable UTF-8 (a lone
    surrogate quoted from the input is written as ``\\udXXX``)."""
    message = error.message.encode("utf-8", "backslashreplace").decode("utf-8")
    return {"Type": "Error", "Line": error.line, "Code": error.code, "Message": message}


# ----------------------------------------------------------------------------- replay


class Replayable(Protocol):
    """What replay needs of a game engine's ``Game``."""

    @property
    def seed(self) -> str | None: ...

    @property
    def deck(self) -> Sequence[Any]: ...

    @property
    def round(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def deal(self, deck: Sequence[Any]) -> list[Any]: ...

    def apply(self, seat: int, action: Any) -> list[Any]: ...


G = TypeVar("G", bound=Replayable)


class Replayer(ABC, Generic[G]):
    """Replays a record line by line; ``feed`` raises ``RecordError`` at a bad line.

    ``game`` is the game as far as the record has gone (``None`` before the header).
    A game's subclass sets the class attributes and the hooks below.
    """

    #: The header's ``Game`` and ``Version``.
    game_name: ClassVar[str]
    version: ClassVar[int]
    #: Every line ``Type`` a record of the game has ("Record", "Deal", the actions).
    known_types: ClassVar[tuple[str, ...]]
    #: How the unknown_type message names the record ("a record", "a Whist record").
    record_words: ClassVar[str] = "a record"
    #: The Deal line's round key, and the word messages use for a round.
    round_key: ClassVar[str] = "Round"
    round_word: ClassVar[str] = "round"
    #: The engine's ``Game(players, seed)`` (its refusals become record errors).
    new_game: Callable[[list[str], str | None], G]
    #: The engine's deck check: a Deal's Deck as a tuple, or its ``bad_deck`` refusal
    #: (a ``staticmethod``).
    check_deck: Callable[[Sequence[Any]], Sequence[Any]]
    #: How a card code of a Deal's Deck is read (a ``staticmethod``): the French
    #: ``Card.parse`` unless the game has its own deck; a code it refuses is ``bad_card``.
    parse_card: Callable[[str], DeckCard] = staticmethod(Card.parse)

    def __init__(self) -> None:
        self.game: G | None = None
        self._deals = 0  # Deal lines seen; the round's Deal is due while < game.round
        self._ended_on = 0  # the line that ended the game

    # ---------------------------------------------------------------- the game's hooks

    @abstractmethod
    def _action(self, kind: str, obj: dict[str, Any]) -> Any:
        """The action of an action line of Type ``kind``, read in full."""

    @abstractmethod
    def _winner(self, game: G) -> str:
        """Who won the game that is over, for the game_over message ("seat 1", "NS")."""

    @abstractmethod
    def _scores(self, game: G, events: list[Any]) -> list[dict[str, Any]]:
        """The Score lines of what an action made happen."""

    # ---------------------------------------------------------------- drivers

    def run(self, lines: Iterable[str | bytes]) -> Iterator[dict[str, Any]]:
        """Feed every line; yields the Score lines and raises ``RecordError`` at the
        first bad line (an empty record is one: it has no header)."""
        number = 0
        for number, line in enumerate(lines, 1):
            yield from self.feed(number, line)
        if self.game is None:
            raise RecordError(
                "the record is empty: it needs a Record line", "missing_header", number + 1
            )

    @classmethod
    def replay(cls, lines: Iterable[str | bytes]) -> Iterator[dict[str, Any]]:
        """Replay a record: its Score lines, and an Error line at the first bad line.

        ``lines`` are physical lines (text or UTF-8 bytes, newlines allowed at the end).
        """
        try:
            yield from cls().run(lines)
        except RecordError as error:
            yield error_object(error)

    @classmethod
    def load_record(cls, lines: Iterable[str | bytes]) -> G:
        """The game a record describes, as far as it goes; raises ``RecordError`` (with
        ``line``) at the first line that cannot be replayed."""
        replayer = cls()
        for _ in replayer.run(lines):
            pass
        assert replayer.game is not None
        return replayer.game

    def feed(self, number: int, line: str | bytes) -> list[dict[str, Any]]:
        """Replay physical line ``number`` (1-based); returns the Score lines it causes.

        Raises ``RecordError`` with ``line`` set to ``number``; the game is then as it
        was before this line.
        """
        try:
            return self._feed(number, line)
        except RecordError as error:
            error.line = number
            raise

    # ---------------------------------------------------------------- one line

    def _feed(self, number: int, line: str | bytes) -> list[dict[str, Any]]:
        obj = self._decode(line)
        if obj is None:
            return []
        kind = obj["Type"]
        game = self.game
        if kind == "Record":
            if game is not None:
                raise RecordError(
                    "a record has one Record line, at its start; got another", "unexpected_header"
                )
            self.game = self._start(obj)
            return []
        if game is None:
            raise RecordError(
                f"a record starts with its Record line, got a {quote(kind)} line",
                "missing_header",
            )
        if kind == "Deal":
            round_, dealer = read_int(obj, self.round_key), read_int(obj, "Dealer")
            deck = read_cards(obj, "Deck", self.parse_card) if "Deck" in obj else None
            self._check_not_over(game)
            self._deal(game, round_, dealer, deck)
            return []
        seat = read_int(obj, "Playerid")
        action = self._action(kind, obj)
        self._check_not_over(game)
        if self._deals < game.round:
            raise RecordError(
                f"a {kind} line before the Deal line of {self.round_word} {game.round}",
                "missing_deal",
            )
        try:
            events = game.apply(seat, action)
        except HundredError as error:
            raise RecordError(error.message, error.code) from None
        if game.is_over:
            self._ended_on = number
        return self._scores(game, events)

    def _decode(self, line: str | bytes) -> dict[str, Any] | None:
        """One line as a JSON object with a known ``Type`` (None: a blank line)."""
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                raise RecordError(f"not UTF-8 text: {line[:QUOTE_LIMIT]!r}", "bad_json") from None
        if self.game is None:
            line = line.removeprefix("\ufeff")  # a byte-order mark some editors add
        if not line.strip():
            return None
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError) as error:  # also a huge number, deep nesting
            why = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
            raise RecordError(f"not JSON ({why}): {quote_raw(line)}", "bad_json") from None
        if not isinstance(obj, dict):
            raise RecordError(f"a record line is a JSON object, got {quote(obj)}", "bad_record")
        kind = field(obj, "Type")
        if not isinstance(kind, str):
            raise RecordError(f'"Type" must be a string, got {quote(kind)}', "bad_record")
        if kind not in self.known_types:
            known = ", ".join(self.known_types)
            raise RecordError(
                f"unknown line type {quote(kind)} ({self.record_words} has {known})",
                "unknown_type",
            )
        return obj

    def _start(self, obj: dict[str, Any]) -> G:
        name = read_str(obj, "Game")
        if name != self.game_name:
            raise RecordError(
                f"unknown game {quote(name)} (only {self.game_name!r})", "unknown_game"
            )
        version = read_int(obj, "Version")
        if version != self.version:
            raise RecordError(
                f"unknown record version {quote(version)} (this reads version {self.version})",
                "bad_version",
            )
        players = field(obj, "Players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError(
                f'"Players" must be a list of names, got {quote(players)}', "bad_record"
            )
        seed = read_str(obj, "Seed") if "Seed" in obj else None
        return engine(self.new_game, players, seed)

    def _check_not_over(self, game: G) -> None:
        if game.is_over:
            raise RecordError(
                f"the game ended on line {self._ended_on} ({self._winner(game)} won); "
                "nothing may follow",
                "game_over",
            )

    def _deal(self, game: G, number: int, dealer: int, deck: list[DeckCard] | None) -> None:
        key, word = self.round_key, self.round_word
        if self._deals >= game.round:
            raise RecordError(
                f"a Deal ({key} {number}) while {word} {game.round} is under way; "
                "its Deal has been given",
                "unexpected_deal",
            )
        if number != game.round:
            raise RecordError(
                f"{key} {quote(number)} is not the next {word}: this Deal starts {word} "
                f"{game.round}",
                "wrong_round",
            )
        if dealer != game.dealer:
            raise RecordError(
                f"Dealer {quote(dealer)} contradicts the rules: seat {game.dealer} deals "
                f"{word} {game.round}",
                "wrong_dealer",
            )
        if game.seed is None:
            if deck is None:
                raise RecordError(
                    f"the Deal of {word} {number} has no Deck and the record has no Seed",
                    "missing_deck",
                )
            engine(game.deal, deck)
        elif deck is not None:
            given = engine(self.check_deck, deck)
            if given != game.deck:
                at = next(i for i, card in enumerate(given) if card != game.deck[i])
                raise RecordError(
                    f"the Deck of {word} {number} is not the one Seed {quote(game.seed)} "
                    f"deals: Deck[{at}] is {quote(given[at].code)}, the seed deals "
                    f"{quote(game.deck[at].code)}",
                    "deck_mismatch",
                )
        self._deals += 1


class DeckReplayer(Replayer[G]):
    """The ``Replayer`` of a game that never deals itself (Pinochle, Rook, Hundert):
    its records carry no Seed (one is refused, ``unexpected_seed``) and every Deal gives
    its Deck. The game reads the rest of its header (``header``) in ``start``."""

    #: The game's name for people ("Rook"), for the unexpected_seed message.
    title: ClassVar[str]

    def __init__(self) -> None:
        super().__init__()
        self.header: dict[str, Any] = {}

    def _start(self, obj: dict[str, Any]) -> G:
        # The shared reader checks Game, Version, Players and Seed first, then calls
        # new_game, which reads the game's own fields: errors come in the fields' order.
        self.header = obj
        return super()._start(obj)

    def new_game(self, players: list[str], seed: str | None) -> G:
        """The game a header starts (the shared reader's hook; refusals become errors)."""
        if seed is not None:
            raise IllegalActionError(
                f"a {self.title} record has no Seed (got {quote(seed)}): every Deal gives its Deck",
                "unexpected_seed",
            )
        return self.start(players)

    @abstractmethod
    def start(self, players: list[str]) -> G:
        """The game of ``players`` that ``header`` describes."""
