"""Hundred and Ten records (JSON lines, version 1) and their replay (see records.py).

A record is one JSON object per line::

    {"Type":"Record","Game":"hundredandten","Version":1,"Players":["ann","bob","cy","dee"]}
    {"Type":"Deal","Round":1,"Dealer":0,"Deck":["5H","JS", ... 53 codes]}
    {"Type":"Bid","Playerid":1,"Bid":15}
    {"Type":"Unpass","Playerid":2}
    {"Type":"Trump","Playerid":1,"Trump":"H"}
    {"Type":"Discard","Playerid":2,"Cards":["2C","3D"]}
    {"Type":"Play","Playerid":3,"PlayedCard":"5H"}

Seat ``i`` is ``Players[i]`` and seat 0 deals the first round. The header may carry a
``"Seed"``; then every round's deck is the seeded one and ``Deal`` lines may leave out
``Deck`` (if they give it, it must match). Without a seed every ``Deal`` gives its
``Deck``: seat ``i`` is dealt ``Deck[5i:5i+5]`` and refills come in order from
``Deck[5n:]``. Each round starts with its ``Deal`` line (``Round`` is 1-based and counts
passed-out rounds; ``Round`` and ``Dealer`` must be what the rules say), then come the
actions in the order they happened. ``Bid`` 0 is a pass, 60 shoots the moon; a pass
from a seat that is not to act is a pre-pass. Keys other than these are ignored, so a
later version may add some. Blank lines are skipped (they still count as lines).

Replay yields, after every round (passed-out ones too)::

    {"Type":"Score","Round":1,"Score":[cumulative totals by seat]}

and when the game ends, also ``{"Type":"Score","GameOver":true,"Winner":1,"Score":[...]}``.
At the first line it cannot replay it yields ``{"Type":"Error","Line":n,"Code":...,
"Message":...}`` (``n`` counts physical lines from 1) and stops. A record that simply
stops, mid-round or between rounds, yields what it completed and is not an error.

Every line is read in full (JSON, fields, cards) before it is checked against the game,
so a line that is both unreadable and out of place reports the reading error.
``ERROR_CODES`` lists every ``Code`` replay can give.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from hundred_server.cards import Card, Suit, format_cards
from hundred_server.errors import CardCodeError, HundredError, RecordError
from hundred_server.games.hundredandten import (
    Action,
    Bid,
    DealRecord,
    Discard,
    Event,
    Game,
    GameWon,
    PassedOut,
    Play,
    RoundScored,
    SelectTrump,
    Unpass,
    check_deck,
)

GAME: Final = "hundredandten"
VERSION: Final = 1

#: Every ``Code`` an ``Error`` line can carry, and what it means.
ERROR_CODES: Final[dict[str, str]] = {
    # reading a line
    "bad_json": "the line is not JSON (or not UTF-8)",
    "bad_record": "not a JSON object, or a field is missing or of the wrong type",
    "unknown_type": "a Type that records do not have",
    "bad_card": "a card code that names no card",
    "bad_suit": "a Trump that names no suit",
    # the header
    "missing_header": "the first line is not the Record line (or the record is empty)",
    "unexpected_header": "a second Record line",
    "unknown_game": "a Game that no registered game has",
    "bad_version": "a Version other than 1",
    # deals
    "wrong_round": "a Deal whose Round is not the round the rules are at",
    "wrong_dealer": "a Deal whose Dealer is not the seat the rules make deal",
    "missing_deck": "a Deal without Deck in a record without Seed",
    "deck_mismatch": "a Deal whose Deck differs from the one the Seed deals",
    "missing_deal": "an action before the Deal line of its round",
    "unexpected_deal": "a Deal line while the round's Deal has already been given",
    "game_over": "any line after the game ended",
    # the engine's own codes (IllegalActionError), passed through unchanged
    "bad_players": "not 2 to 4 players",
    "duplicate_name": "two players with the same name",
    "bad_deck": "a Deck that is not the 53 cards each once",
    "bad_seat": "a Playerid that is no seat at this table",
    "not_your_turn": "the seat is not the one to act",
    "wrong_phase": "an action that does not fit the phase (a Trump while bidding, ...)",
    "illegal_bid": "a Bid amount that does not exist or is too low",
    "already_passed": "a pass from a seat that has passed or pre-passed",
    "not_pre_passed": "an Unpass from a seat without a pre-pass",
    "not_in_hand": "a card the seat does not hold",
    "duplicate_card": "a Discard naming a card twice",
    "must_bleed": "a non-trump on a trump lead from a seat holding a trump",
    "bad_action": "an action the engine does not know",
}

_QUOTE_LIMIT: Final = 80


# ----------------------------------------------------------------------------- writing


def action_object(seat: int, action: Action) -> dict[str, Any]:
    """One action as its record line (a JSON-ready dict)."""
    if isinstance(action, Bid):
        return {"Type": "Bid", "Playerid": seat, "Bid": action.amount}
    if isinstance(action, Play):
        return {"Type": "Play", "Playerid": seat, "PlayedCard": action.card.code}
    if isinstance(action, Discard):
        return {"Type": "Discard", "Playerid": seat, "Cards": format_cards(action.cards)}
    if isinstance(action, SelectTrump):
        return {"Type": "Trump", "Playerid": seat, "Trump": action.suit.value}
    if isinstance(action, Unpass):
        return {"Type": "Unpass", "Playerid": seat}
    raise TypeError(f"not a Hundred and Ten action: {action!r}")


def header_object(game: Game) -> dict[str, Any]:
    """A record's first line."""
    header: dict[str, Any] = {
        "Type": "Record",
        "Game": GAME,
        "Version": VERSION,
        "Players": list(game.players),
    }
    if game.seed is not None:
        header["Seed"] = game.seed
    return header


def history_objects(game: Game, start: int = 0) -> list[dict[str, Any]]:
    """The record lines of ``game.history[start:]`` (a record's lines after the header)."""
    lines: list[dict[str, Any]] = []
    for item in game.history[start:]:
        if isinstance(item, DealRecord):
            lines.append(
                {
                    "Type": "Deal",
                    "Round": item.round,
                    "Dealer": item.dealer,
                    "Deck": format_cards(item.deck),
                }
            )
        else:
            lines.append(action_object(*item))
    return lines


# ----------------------------------------------------------------------------- reading


def _quote(value: object) -> str:
    """A value as JSON text for a message, cut short if long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > _QUOTE_LIMIT:
        text = text[: _QUOTE_LIMIT - 1] + "…"
    return text


def _quote_raw(line: str) -> str:
    """A raw input line for a message, as Python quotes it (no JSON escaping of quotes)."""
    line = line.strip()
    if len(line) > _QUOTE_LIMIT:
        return repr(line[: _QUOTE_LIMIT - 1]) + "…"
    return repr(line)


class Replayer:
    """Replays a record line by line; ``feed`` raises ``RecordError`` at a bad line.

    ``game`` is the game as far as the record has gone (``None`` before the header).
    """

    def __init__(self) -> None:
        self.game: Game | None = None
        self._deals = 0  # Deal lines seen; the round's Deal is due while < game.round
        self._ended_on = 0  # the line that ended the game

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
            self.game = _start(obj)
            return []
        if game is None:
            raise RecordError(
                f"a record starts with its Record line, got a {_quote(kind)} line",
                "missing_header",
            )
        if kind == "Deal":
            round_, dealer = _int(obj, "Round"), _int(obj, "Dealer")
            deck = _cards(obj, "Deck") if "Deck" in obj else None
            self._check_not_over(game)
            self._deal(game, round_, dealer, deck)
            return []
        seat = _int(obj, "Playerid")
        action = _ACTIONS[kind](obj)
        self._check_not_over(game)
        if self._deals < game.round:
            raise RecordError(
                f"a {kind} line before the Deal line of round {game.round}", "missing_deal"
            )
        try:
            events = game.apply(seat, action)
        except HundredError as error:
            raise RecordError(error.message, error.code) from None
        if game.is_over:
            self._ended_on = number
        return _scores(game, events)

    def _decode(self, line: str | bytes) -> dict[str, Any] | None:
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                raise RecordError(f"not UTF-8 text: {line[:_QUOTE_LIMIT]!r}", "bad_json") from None
        if self.game is None:
            line = line.removeprefix("\ufeff")  # a byte-order mark some editors add
        if not line.strip():
            return None
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as error:
            raise RecordError(f"not JSON ({error.msg}): {_quote_raw(line)}", "bad_json") from None
        except (ValueError, RecursionError) as error:  # a huge number, deep nesting
            raise RecordError(f"not JSON ({error}): {_quote_raw(line)}", "bad_json") from None
        if not isinstance(obj, dict):
            raise RecordError(f"a record line is a JSON object, got {_quote(obj)}", "bad_record")
        kind = _field(obj, "Type")
        if not isinstance(kind, str):
            raise RecordError(f'"Type" must be a string, got {_quote(kind)}', "bad_record")
        if kind not in _KNOWN_TYPES:
            raise RecordError(
                f"unknown line type {_quote(kind)} (a record has {', '.join(_KNOWN_TYPES)})",
                "unknown_type",
            )
        return obj

    def _check_not_over(self, game: Game) -> None:
        if game.is_over:
            raise RecordError(
                f"the game ended on line {self._ended_on} (seat {game.winner} won); "
                "nothing may follow",
                "game_over",
            )

    def _deal(self, game: Game, round_: int, dealer: int, deck: list[Card] | None) -> None:
        if self._deals >= game.round:
            raise RecordError(
                f"a Deal (Round {round_}) while round {game.round} is under way; "
                "its Deal has been given",
                "unexpected_deal",
            )
        if round_ != game.round:
            raise RecordError(
                f"Round {_quote(round_)} is not the next round: this Deal starts round "
                f"{game.round}",
                "wrong_round",
            )
        if dealer != game.dealer:
            raise RecordError(
                f"Dealer {_quote(dealer)} contradicts the rules: seat {game.dealer} deals "
                f"round {game.round}",
                "wrong_dealer",
            )
        try:
            if game.seed is None:
                if deck is None:
                    raise RecordError(
                        f"the Deal of round {round_} has no Deck and the record has no Seed",
                        "missing_deck",
                    )
                game.deal(deck)
            elif deck is not None:
                given = check_deck(deck)
                if given != game.deck:
                    at = next(
                        i for i, (a, b) in enumerate(zip(given, game.deck, strict=True)) if a != b
                    )
                    raise RecordError(
                        f"the Deck of round {round_} is not the one Seed {_quote(game.seed)} "
                        f"deals: Deck[{at}] is {_quote(given[at].code)}, the seed deals "
                        f"{_quote(game.deck[at].code)}",
                        "deck_mismatch",
                    )
        except RecordError:
            raise
        except HundredError as error:
            raise RecordError(error.message, error.code) from None
        self._deals += 1


def _field(obj: dict[str, Any], name: str) -> Any:
    try:
        return obj[name]
    except KeyError:
        raise RecordError(f"missing field {_quote(name)} in {_quote(obj)}", "bad_record") from None


def _int(obj: dict[str, Any], name: str) -> int:
    value = _field(obj, name)
    if type(value) is not int:  # bool is an int subclass; a record's true is not 1
        raise RecordError(f"{_quote(name)} must be an integer, got {_quote(value)}", "bad_record")
    return value


def _str(obj: dict[str, Any], name: str) -> str:
    value = _field(obj, name)
    if not isinstance(value, str):
        raise RecordError(f"{_quote(name)} must be a string, got {_quote(value)}", "bad_record")
    return value


def _cards(obj: dict[str, Any], name: str) -> list[Card]:
    value = _field(obj, name)
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError(
            f"{_quote(name)} must be a list of card codes, got {_quote(value)}", "bad_record"
        )
    return [_card(code, name) for code in value]


def _card(code: str, name: str) -> Card:
    try:
        return Card.parse(code)
    except CardCodeError as error:
        raise RecordError(f"{_quote(name)}: {error.message}", error.code) from None


def _start(obj: dict[str, Any]) -> Game:
    game_name = _str(obj, "Game")
    if game_name != GAME:
        raise RecordError(f"unknown game {_quote(game_name)} (only {GAME!r})", "unknown_game")
    version = _int(obj, "Version")
    if version != VERSION:
        raise RecordError(
            f"unknown record version {_quote(version)} (this reads version {VERSION})",
            "bad_version",
        )
    players = _field(obj, "Players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(f'"Players" must be a list of names, got {_quote(players)}', "bad_record")
    seed = _str(obj, "Seed") if "Seed" in obj else None
    try:
        return Game(players, seed)
    except HundredError as error:
        raise RecordError(error.message, error.code) from None


def _trump(obj: dict[str, Any]) -> SelectTrump:
    text = _str(obj, "Trump")
    try:
        return SelectTrump(Suit.parse(text))
    except CardCodeError as error:
        raise RecordError(error.message, error.code) from None


def _bid(obj: dict[str, Any]) -> Bid:
    amount = _int(obj, "Bid")
    try:
        return Bid(amount)
    except HundredError as error:
        raise RecordError(error.message, error.code) from None


_ACTIONS: Final[dict[str, Callable[[dict[str, Any]], Action]]] = {
    "Bid": _bid,
    "Unpass": lambda obj: Unpass(),
    "Trump": _trump,
    "Discard": lambda obj: Discard(tuple(_cards(obj, "Cards"))),
    "Play": lambda obj: Play(_card(_str(obj, "PlayedCard"), "PlayedCard")),
}
_KNOWN_TYPES: Final = ("Record", "Deal", *_ACTIONS)


def _scores(game: Game, events: list[Event]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, RoundScored | PassedOut):
            totals = game.round_results[event.round - 1]
            out.append({"Type": "Score", "Round": event.round, "Score": list(totals)})
        elif isinstance(event, GameWon):
            out.append(
                {
                    "Type": "Score",
                    "GameOver": True,
                    "Winner": event.winner,
                    "Score": list(event.totals),
                }
            )
    return out


def error_object(error: RecordError) -> dict[str, Any]:
    """The ``Error`` line for ``error``; its message is always encodable UTF-8 (a lone
    surrogate quoted from the input is written as ``\\udXXX``)."""
    message = error.message.encode("utf-8", "backslashreplace").decode("utf-8")
    return {"Type": "Error", "Line": error.line, "Code": error.code, "Message": message}


def replay(lines: Iterable[str | bytes]) -> Iterator[dict[str, Any]]:
    """Replay a record: its Score lines, and an Error line at the first bad line.

    ``lines`` are physical lines (text or UTF-8 bytes, newlines allowed at the end).
    """
    replayer = Replayer()
    number = 0
    for number, line in enumerate(lines, 1):
        try:
            out = replayer.feed(number, line)
        except RecordError as error:
            yield error_object(error)
            return
        yield from out
    if replayer.game is None:
        yield error_object(
            RecordError("the record is empty: it needs a Record line", "missing_header", number + 1)
        )


def load_record(lines: Iterable[str | bytes]) -> Game:
    """The game a record describes, as far as it goes; raises ``RecordError`` (with
    ``line``) at the first line that cannot be replayed."""
    replayer = Replayer()
    number = 0
    for number, line in enumerate(lines, 1):
        replayer.feed(number, line)
    if replayer.game is None:
        raise RecordError(
            "the record is empty: it needs a Record line", "missing_header", number + 1
        )
    return replayer.game
