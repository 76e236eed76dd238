"""One record format, and its replay, for every game (games/records.py reads and
writes records through it; a game's ``records.py`` says only what is its own).

A record is JSON lines: the ``Record`` header (``Game``, ``Version``, ``Players``, a
``Seed`` for a game that may deal itself, and the game's own fields), then each round's
``Deal`` line with its ``Deck``, and the actions in the order they happened. Replay
yields a ``Score`` line after each round and a ``GameOver`` one at the end, or an
``Error`` line (``Line``, ``Code``, ``Message``) at the first line it cannot replay, and
then nothing; a record that simply stops is not an error (replay yields what it
completed). A ladder table's record also has a ``FairClock`` in its header and
``Clock`` lines among the actions (core/botclock.py): replay checks them and goes past
them (a record without ``FairClock`` has none: ``unknown_type``).

The ``Replayer`` reads each line in full (JSON, ``Type``, fields, cards) before it checks
it against the game, so a line that is both unreadable and out of place reports the
reading error; it checks the header, the order of Deal lines and actions, and that
nothing follows the end of the game, and passes the engine's own refusals through with
their codes. What differs between games is data, a game's ``RecordFormat``: its name,
its word for a round, its actions' lines (written and read), how a game starts from the
header and what else the header carries, what ends a round or the game, its deck.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Final, Generic, ParamSpec, Protocol, TypeVar, cast, overload

from hundred_server.games.base import DeckCard, GameDeck
from hundred_server.games.kit.cards import Card, Suit
from hundred_server.games.kit.messages import WIRE, Fields
from hundred_server.games.kit.tricks import SIDES
from hundred_server.protocol.errors import (
    CardCodeError,
    HundredError,
    Malformed,
    RecordError,
    Refused,
)
from hundred_server.protocol.wire import Message, field_int
from hundred_server.protocol.wire import quote as wire_quote

#: The codes every game's replay gives alike: reading a line, the header, deals, and
#: the engine codes all games share. Each game adds its own (``RecordFormat.own_codes``).
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


def read_field(obj: dict[str, Any], name: str) -> Any:
    """``obj[name]``; ``bad_record`` if it is missing."""
    try:
        return obj[name]
    except KeyError:
        raise RecordError(f"missing field {quote(name)} in {quote(obj)}", "bad_record") from None


def read_int(obj: dict[str, Any], name: str) -> int:
    """An integer field (not a boolean)."""
    value = read_field(obj, name)
    if type(value) is not int:  # bool is an int subclass; a record's true is not 1
        raise RecordError(f"{quote(name)} must be an integer, got {quote(value)}", "bad_record")
    return value


def read_str(obj: dict[str, Any], name: str) -> str:
    """A string field."""
    value = read_field(obj, name)
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
    value = read_field(obj, name)
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


def read_suit(obj: dict[str, Any], name: str, parse: Callable[[str], object] = Suit.parse) -> Any:
    """Field ``name``: a suit letter, as a suit (``parse``: the game's suit reader, the
    French ``Suit.parse`` by default; Rook's colours are its own)."""
    text = read_str(obj, name)
    try:
        return parse(text)
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


def _number(obj: dict[str, Any], name: str, least: float) -> float:
    value = read_field(obj, name)
    if not isinstance(value, int | float) or isinstance(value, bool) or value < least:
        raise RecordError(
            f"{quote(name)} must be a number of at least {least:g}, got {quote(value)}",
            "bad_record",
        )
    return float(value)


def read_fair_clock(value: object) -> None:
    """A header's ``FairClock`` (a ladder table's: core/botclock.py), checked:
    ``{"Move":5.0,"Bank":60.0,"Strikes":3}``."""
    if not isinstance(value, dict):
        raise RecordError(f'"FairClock" must be an object, got {quote(value)}', "bad_record")
    _number(value, "Move", 0)
    _number(value, "Bank", 0)
    if read_int(value, "Strikes") < 1:
        raise RecordError(f'"Strikes" must be 1 or more, got {value["Strikes"]}', "bad_record")


def read_clock_line(obj: dict[str, Any], seats: int) -> None:
    """A ``Clock`` line (what the fair clock did before the next move), checked: a
    seat's bank used (``Used``, ``Bank``) or a strike (``Strike``, and ``"Out":true``
    at the last)."""
    seat = read_int(obj, "Playerid")
    if not 0 <= seat < seats:
        raise RecordError(f"Playerid {seat} is no seat of {seats}", "bad_seat")
    if "Strike" in obj:
        if read_int(obj, "Strike") < 1 or obj.get("Out", True) is not True:
            raise RecordError(f"not a strike: {quote(obj)}", "bad_record")
    else:
        _number(obj, "Used", 0)
        _number(obj, "Bank", 0)


# ----------------------------------------------------------------------------- notation


def record_fields(
    parse_card: Callable[[str], object] = Card.parse,
    parse_suit: Callable[[str], object] = Suit.parse,
) -> Fields:
    """A record line's readers, for a game's cards and suits (French by default)."""
    return Fields(
        wire=False,
        card=lambda obj, key: read_card(read_str(obj, key), key, parse_card),
        cards=lambda obj, key: read_cards(obj, key, parse_card),
        suit=lambda obj, key: read_suit(obj, key, parse_suit),
    )


#: A record line's readers for the French cards.
RECORD: Final = record_fields()


def read_bid(
    obj: dict[str, Any],
    fields: Fields,
    bids: Mapping[int, A],
    make: Callable[[int], A],
    words: str,
) -> A:
    """A Bid's action: a record line gives its amount and the engine checks it
    (``make``); an answer may leave it out to pass (the pinochle seed's clients do), and
    is looked up in ``bids`` (a refusal says them: ``words``)."""
    if not fields.wire:
        return make(read_int(obj, "Bid"))
    amount = field_int(obj, "Bid")
    action = bids.get(0 if amount is None else amount)
    if action is None:
        raise Refused(f"no such bid: {wire_quote(amount)} ({words})", "illegal_bid")
    return action


@dataclass(frozen=True, slots=True)
class Line(Generic[A]):
    """One action Type both ways: an action of class ``kind`` as the fields of its line
    (``write``: after ``Type`` and ``Playerid``), and a line's or answer's fields as
    one (``read(obj, fields)``, in full)."""

    kind: type[A]
    write: Callable[[A], dict[str, Any]]
    read: Callable[[dict[str, Any], Fields], A]


def play_line(kind: type[A], make: Callable[[Any], A] | None = None) -> Line[A]:
    """A card played, ``"PlayedCard":"5H"`` (``make``: the action of a card, if the
    game keeps one of each; ``kind`` by default)."""
    made: Callable[[Any], A] = kind if make is None else make
    return Line(
        kind,
        lambda action: {"PlayedCard": action.card.code},  # type: ignore[attr-defined]
        lambda obj, fields: made(fields.card(obj, "PlayedCard")),
    )


def trump_line(kind: type[A]) -> Line[A]:
    """A trump named, ``"Trump":"H"``."""
    return Line(
        kind,
        lambda action: {"Trump": action.suit.value},  # type: ignore[attr-defined]
        lambda obj, fields: kind(fields.suit(obj, "Trump")),  # type: ignore[call-arg]
    )


def bid_line(kind: type[A], bids: Mapping[int, A], words: str) -> Line[A]:
    """A bid, ``"Bid":25`` (0 passes): read by ``read_bid``."""
    return Line(
        kind,
        lambda action: {"Bid": action.amount},  # type: ignore[attr-defined]
        lambda obj, fields: read_bid(obj, fields, bids, kind, words),
    )


@dataclass(frozen=True)
class Notation:
    """A game's actions as JSON objects, both ways, in one place: a ``Line`` for each
    Type. ``write(seat, action)`` is an action's record line (``Type`` and ``Playerid``
    first), and ``read[Type](obj, fields)`` reads one in full from a record line or a
    client's answer (``fields`` says which: ``record`` or ``wire``). The Types are the
    record's action lines and the answers a prompt takes (``GameSpec.answer_types``)."""

    lines: Mapping[str, Line[Any]]
    record: Fields = RECORD
    wire: Fields = WIRE
    #: How a refused answer of another Type names what it is not ("a Rook answer").
    answer_words: str = "an answer"
    read: Mapping[str, Callable[[dict[str, Any], Fields], Any]] = field(init=False)
    _writers: Mapping[type, tuple[str, Callable[[Any], dict[str, Any]]]] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "read", {kind: line.read for kind, line in self.lines.items()})
        writers = {line.kind: (kind, line.write) for kind, line in self.lines.items()}
        object.__setattr__(self, "_writers", writers)

    def write(self, seat: int, action: Any) -> dict[str, Any]:
        """One action as its record line (a JSON-ready dict)."""
        try:
            kind, fields = self._writers[type(action)]
        except KeyError:
            raise TypeError(f"not an action of this game: {action!r}") from None
        return {"Type": kind, "Playerid": seat, **fields(action)}

    def parse_answer(self, msg: Message) -> Any:
        """The engine action a client's answer names; ``Malformed`` if malformed,
        ``unknown_type`` if its Type answers no prompt of this game."""
        read = self.read.get(msg["Type"])
        if read is None:
            raise Malformed(f"not {self.answer_words}: {wire_quote(msg['Type'])}", "unknown_type")
        return read(msg, self.wire)


# ----------------------------------------------------------------------------- a game's format


class _Ended(Protocol):
    """An event that ends a round or the game, as its Score line reads it."""

    @property
    def totals(self) -> Sequence[int]: ...

    @property
    def points(self) -> Sequence[int]: ...


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

    @property
    def winner(self) -> int | None: ...

    @property
    def players(self) -> Sequence[str]: ...

    @property
    def history(self) -> Sequence[object]: ...

    def deal(self, deck: Sequence[Any]) -> list[Any]: ...

    def apply(self, seat: int, action: Any) -> list[Any]: ...


G = TypeVar("G", bound=Replayable)


def _seat_won(game: Replayable) -> str:
    return f"seat {game.winner}"


def _no_fields(game: Any) -> dict[str, Any]:
    return {}


# -------------------------------------------------- a game of four partners' records


def partners_codes(title: str) -> dict[str, str]:
    """The ``Code``s every game of four partners' records have, in ``title``'s words."""
    return {
        "bad_players": f"a number of players the game is not played by ({title}: exactly 4)",
        "bad_deck": (
            f"a Deck that is not the game's cards each once ({title}: 52, without the joker)"
        ),
        "must_follow_suit": "a card off the suit led from a seat that holds the suit led",
    }


def side_won(game: Replayable) -> str:
    """The side that won a game of partners, named (``RecordFormat.winner``)."""
    assert game.winner is not None
    return SIDES[game.winner]


def side_of_end(event: Any) -> str:
    """The side a game of partners' end names (``RecordFormat.game_winner``)."""
    return SIDES[event.side]


@dataclass(frozen=True)
class RecordFormat(Generic[G]):
    """What one game's records have of their own; the rest is every game's (above).

    ``seeded``: whether the game may deal itself from a seed its header carries (then a
    Deal may leave out its Deck, and one it gives must match); otherwise a header with a
    ``Seed`` is refused (``unexpected_seed``) and every Deal gives its Deck.
    """

    #: The header's ``Game``, and the game's name for people (for messages).
    game: str
    title: str
    #: The action lines, written and read (the answers' notation too).
    actions: Notation
    #: ``start(players, seed, header)``: the game a header starts (its refusals, and
    #: those of the header's own fields, become record errors).
    start: Callable[[list[str], str | None, dict[str, Any]], G]
    #: The engine's events that end a round (each with its ``totals``, and its
    #: ``points`` if ``points``), and the one that ends the game (with its ``totals``).
    round_ends: tuple[type, ...]
    game_ends: type
    #: The game's deck: a Deal's Deck checked (``bad_deck``), the seeded deals.
    deck: GameDeck
    #: The game's own ``Code``s, and what they mean (the shared ones are added).
    own_codes: Mapping[str, str]
    seeded: bool = False
    #: The header's fields besides the shared ones (a table option's, say).
    header_fields: Callable[[G], dict[str, Any]] = _no_fields
    #: Whether a round's Score line gives its ``Points``.
    points: bool = False
    #: Which round a round's end ends, and the ``Winner`` of the game's end, as the
    #: record says it (a seat, a side's index, a side's name).
    round_number: Callable[[Any], int] = attrgetter("hand")
    game_winner: Callable[[Any], object] = attrgetter("winner")
    #: Who won the game that is over, for the game_over message ("seat 1", "NS").
    winner: Callable[[G], str] = _seat_won
    #: How a card code of a Deal's Deck is read (a code it refuses is ``bad_card``).
    parse_card: Callable[[str], DeckCard] = Card.parse
    #: The Deal line's round key, the word messages use for a round, and the field of
    #: the engine's deal record that numbers it.
    round_key: str = "Hand"
    round_word: str = "hand"
    deal_number: Callable[[Any], int] = attrgetter("hand")
    #: How the unknown_type message names the record (default "a <title> record").
    record_words: str = ""
    version: int = 1
    #: Every ``Code`` an ``Error`` line can carry, and what it means.
    codes: Mapping[str, str] = field(init=False)

    def __post_init__(self) -> None:
        codes = dict(COMMON_CODES)
        codes["wrong_round"] = (
            f"a Deal whose {self.round_key} is not the {self.round_word} the rules are at"
        )
        if not self.seeded:
            del codes["deck_mismatch"]  # no record of the game has a Seed
            codes["missing_deck"] = (
                f"a Deal without Deck ({self.title} records give every {self.round_word}'s Deck)"
            )
            codes["unexpected_seed"] = (
                f"a Seed in the Record line: {self.title} records give every Deck instead"
            )
        object.__setattr__(self, "codes", {**codes, **self.own_codes})

    @property
    def types(self) -> tuple[str, ...]:
        """Every line ``Type`` a record of the game has."""
        return ("Record", "Deal", *self.actions.read)

    # ---------------------------------------------------------------- writing

    def header_object(self, game: G) -> dict[str, Any]:
        """A record's first line."""
        seed = game.seed if self.seeded else None
        return {
            **record_header(self.game, self.version, game.players, seed),
            **self.header_fields(game),
        }

    def history_objects(self, game: G, start: int = 0) -> list[dict[str, Any]]:
        """The record lines of ``game.history[start:]`` (a record's lines after the header)."""
        return history_lines(game.history[start:], self._deal_object, self.actions.write)

    def _deal_object(self, deal: Any) -> dict[str, Any]:
        return deal_object(self.round_key, self.deal_number(deal), deal.dealer, deal.deck)

    def score_line(self, event: Any) -> dict[str, Any] | None:
        """The replay's Score line of an event that ends a round or the game."""
        if isinstance(event, self.round_ends):
            ended = cast(_Ended, event)
            points = ended.points if self.points else None
            return score_line(self.round_key, self.round_number(event), ended.totals, points)
        if isinstance(event, self.game_ends):
            return game_over_line(self.game_winner(event), cast(_Ended, event).totals)
        return None

    # ---------------------------------------------------------------- reading

    def replayer(self) -> Replayer[G]:
        return Replayer(self)

    def replay(self, lines: Iterable[str | bytes]) -> Iterator[dict[str, Any]]:
        """Replay a record: its Score lines, and an Error line at the first bad line.

        ``lines`` are physical lines (text or UTF-8 bytes, newlines allowed at the end).
        """
        try:
            yield from self.replayer().run(lines)
        except RecordError as error:
            yield error_object(error)

    def load_record(self, lines: Iterable[str | bytes]) -> G:
        """The game a record describes, as far as it goes; raises ``RecordError`` (with
        ``line``) at the first line that cannot be replayed."""
        replayer = self.replayer()
        for _ in replayer.run(lines):
            pass
        assert replayer.game is not None
        return replayer.game


# ----------------------------------------------------------------------------- replay


class Replayer(Generic[G]):
    """Replays a record of ``form``'s game line by line; ``feed`` raises ``RecordError``
    at a bad line. ``game`` is the game as far as the record has gone (``None`` before
    the header)."""

    def __init__(self, form: RecordFormat[G]) -> None:
        self.form = form
        self.game: G | None = None
        self._deals = 0  # Deal lines seen; the round's Deal is due while < game.round
        self._ended_on = 0  # the line that ended the game
        self._clocked = False  # the header has a FairClock: Clock lines may follow

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
        form = self.form
        if kind == "Clock":
            self._check_not_over(game)
            read_clock_line(obj, len(game.players))
            return []
        if kind == "Deal":
            round_, dealer = read_int(obj, form.round_key), read_int(obj, "Dealer")
            deck = read_cards(obj, "Deck", form.parse_card) if "Deck" in obj else None
            self._check_not_over(game)
            self._deal(game, round_, dealer, deck)
            return []
        seat = read_int(obj, "Playerid")
        actions = form.actions
        action = engine(actions.read[kind], obj, actions.record)
        self._check_not_over(game)
        if self._deals < game.round:
            raise RecordError(
                f"a {kind} line before the Deal line of {form.round_word} {game.round}",
                "missing_deal",
            )
        events = engine(game.apply, seat, action)
        if game.is_over:
            self._ended_on = number
        return [score for event in events if (score := form.score_line(event))]

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
        kind = read_field(obj, "Type")
        if not isinstance(kind, str):
            raise RecordError(f'"Type" must be a string, got {quote(kind)}', "bad_record")
        types = self.form.types
        if kind not in types and not (kind == "Clock" and self._clocked):
            words = self.form.record_words or f"a {self.form.title} record"
            raise RecordError(
                f"unknown line type {quote(kind)} ({words} has {', '.join(types)})",
                "unknown_type",
            )
        return obj

    def _start(self, obj: dict[str, Any]) -> G:
        """The game the header ``obj`` starts: the shared fields are checked first, in
        their order, then the game reads its own (``RecordFormat.start``)."""
        form = self.form
        name = read_str(obj, "Game")
        if name != form.game:
            raise RecordError(f"unknown game {quote(name)} (only {form.game!r})", "unknown_game")
        version = read_int(obj, "Version")
        if version != form.version:
            raise RecordError(
                f"unknown record version {quote(version)} (this reads version {form.version})",
                "bad_version",
            )
        players = read_field(obj, "Players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError(
                f'"Players" must be a list of names, got {quote(players)}', "bad_record"
            )
        seed = read_str(obj, "Seed") if "Seed" in obj else None
        if seed is not None and not form.seeded:
            raise RecordError(
                f"a {form.title} record has no Seed (got {quote(seed)}): every Deal gives its Deck",
                "unexpected_seed",
            )
        if "FairClock" in obj:
            read_fair_clock(obj["FairClock"])
            self._clocked = True
        return engine(form.start, players, seed, obj)

    def _check_not_over(self, game: G) -> None:
        if game.is_over:
            raise RecordError(
                f"the game ended on line {self._ended_on} ({self.form.winner(game)} won); "
                "nothing may follow",
                "game_over",
            )

    def _deal(self, game: G, number: int, dealer: int, deck: list[DeckCard] | None) -> None:
        key, word = self.form.round_key, self.form.round_word
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
            given = engine(self.form.deck.check, deck)
            if given != game.deck:
                at = next(i for i, card in enumerate(given) if card != game.deck[i])
                raise RecordError(
                    f"the Deck of {word} {number} is not the one Seed {quote(game.seed)} "
                    f"deals: Deck[{at}] is {quote(given[at].code)}, the seed deals "
                    f"{quote(game.deck[at].code)}",
                    "deck_mismatch",
                )
        self._deals += 1
