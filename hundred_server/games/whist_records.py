"""Whist records (JSON lines, version 1) and their replay (see records.py).

A record is one JSON object per line::

    {"Type":"Record","Game":"whist","Version":1,"Players":["ann","bob","cy","dee"]}
    {"Type":"Deal","Hand":1,"Dealer":0,"Deck":["5H","JS", ... 52 codes]}
    {"Type":"Play","Playerid":1,"PlayedCard":"5H"}

Seat ``i`` is ``Players[i]``; seats 0 and 2 play North-South against 1 and 3, and seat
0 deals the first hand. The dealer deals the deck one card at a time from their left:
``Deck[i]`` goes to seat ``(Dealer + 1 + i) % 4``, so ``Deck[51]`` is the dealer's last
card, turned up for trump. The header may carry a ``"Seed"``; then every hand's deck is
the seeded one and ``Deal`` lines may leave out ``Deck`` (if they give it, it must
match). Each hand starts with its ``Deal`` line (``Hand`` counts from 1; ``Hand`` and
``Dealer`` must be what the rules say), then its 52 plays in order. Other keys are
ignored; blank lines are skipped (they still count as lines).

Replay yields ``{"Type":"Score","Hand":1,"Score":[NS,EW]}`` (the totals) after every
hand and, when the game ends, ``{"Type":"Score","GameOver":true,"Winner":"NS",
"Score":[5,2]}``. Errors are Hundred and Ten's (hundredandten_records.py): an
``{"Type":"Error","Line":n,"Code":...,"Message":...}`` line at the first line that
cannot be replayed, and then nothing; a record that simply stops is not an error. The
line readers are shared with Hundred and Ten, so both games quote bad input alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, ParamSpec, TypeVar

from hundred_server.cards import Card, format_cards
from hundred_server.errors import HundredError, RecordError
from hundred_server.games import hundredandten_records as shared
from hundred_server.games.hundredandten_records import (
    _QUOTE_LIMIT,
    _card,
    _cards,
    _field,
    _int,
    _quote,
    _quote_raw,
    _str,
    error_object,
)
from hundred_server.games.whist import (
    SIDES,
    DealRecord,
    Event,
    Game,
    GameWon,
    HandScored,
    Play,
    check_deck,
)

GAME: Final = "whist"
VERSION: Final = 1
_KNOWN_TYPES: Final = ("Record", "Deal", "Play")
P = ParamSpec("P")
T = TypeVar("T")

#: Every ``Code`` an ``Error`` line can carry, and what it means: Hundred and Ten's codes
#: (and words) for the same situations; ``must_follow_suit`` is Whist's own. Each game's
#: codes are merged into one table (records.ERROR_CODES), so the words fit both games.
ERROR_CODES: Final[dict[str, str]] = {
    **{
        code: shared.ERROR_CODES[code]
        for code in (
            # reading a line, the header
            "bad_json",
            "bad_record",
            "unknown_type",
            "bad_card",
            "missing_header",
            "unexpected_header",
            "unknown_game",
            "bad_version",
            # deals
            "wrong_dealer",
            "missing_deck",
            "deck_mismatch",
            "missing_deal",
            "unexpected_deal",
            "game_over",
            # the engine's own codes (IllegalActionError), passed through unchanged
            "duplicate_name",
            "bad_seat",
            "not_your_turn",
            "not_in_hand",
        )
    },
    "wrong_round": "a Deal whose round number (Whist: Hand) is not the one the rules are at",
    "bad_players": "a number of players the game is not played by (Whist: exactly 4)",
    "bad_deck": "a Deck that is not the game's cards each once (Whist: 52, without the joker)",
    "must_follow_suit": "a card off the suit led from a seat that holds the suit led",
}


# ----------------------------------------------------------------------------- writing


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
            deck = format_cards(item.deck)
            lines.append({"Type": "Deal", "Hand": item.hand, "Dealer": item.dealer, "Deck": deck})
        else:
            seat, play = item
            lines.append({"Type": "Play", "Playerid": seat, "PlayedCard": play.card.code})
    return lines


# ----------------------------------------------------------------------------- reading


class Replayer:
    """Replays a record line by line; ``feed`` raises ``RecordError`` at a bad line.

    ``game`` is the game as far as the record has gone (``None`` before the header).
    """

    def __init__(self) -> None:
        self.game: Game | None = None
        self._deals = 0  # Deal lines seen; the hand's Deal is due while < game.round
        self._ended_on = 0  # the line that ended the game

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

    def _feed(self, number: int, line: str | bytes) -> list[dict[str, Any]]:
        obj = _decode(line, first=self.game is None)
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
            hand, dealer = _int(obj, "Hand"), _int(obj, "Dealer")
            deck = _cards(obj, "Deck") if "Deck" in obj else None
            self._check_not_over(game)
            self._deal(game, hand, dealer, deck)
            return []
        seat = _int(obj, "Playerid")
        play = Play(_card(_str(obj, "PlayedCard"), "PlayedCard"))
        self._check_not_over(game)
        if self._deals < game.round:
            raise RecordError(
                f"a Play line before the Deal line of hand {game.round}", "missing_deal"
            )
        events = _engine(game.apply, seat, play)
        if game.is_over:
            self._ended_on = number
        return _scores(events)

    def _check_not_over(self, game: Game) -> None:
        if game.winner is not None:
            raise RecordError(
                f"the game ended on line {self._ended_on} ({SIDES[game.winner]} won); "
                "nothing may follow",
                "game_over",
            )

    def _deal(self, game: Game, hand: int, dealer: int, deck: list[Card] | None) -> None:
        if self._deals >= game.round:
            raise RecordError(
                f"a Deal (Hand {hand}) while hand {game.round} is under way; "
                "its Deal has been given",
                "unexpected_deal",
            )
        if hand != game.round:
            raise RecordError(
                f"Hand {_quote(hand)} is not the next hand: this Deal starts hand {game.round}",
                "wrong_round",
            )
        if dealer != game.dealer:
            raise RecordError(
                f"Dealer {_quote(dealer)} contradicts the rules: seat {game.dealer} deals "
                f"hand {game.round}",
                "wrong_dealer",
            )
        if game.seed is None:
            if deck is None:
                raise RecordError(
                    f"the Deal of hand {hand} has no Deck and the record has no Seed",
                    "missing_deck",
                )
            _engine(game.deal, deck)
        elif deck is not None:
            given = _engine(check_deck, deck)
            if given != game.deck:
                at = next(i for i, card in enumerate(given) if card != game.deck[i])
                raise RecordError(
                    f"the Deck of hand {hand} is not the one Seed {_quote(game.seed)} deals: "
                    f"Deck[{at}] is {_quote(given[at].code)}, the seed deals "
                    f"{_quote(game.deck[at].code)}",
                    "deck_mismatch",
                )
        self._deals += 1


def _engine(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call(...)``, with the engine's refusal turned into a ``RecordError`` of its code."""
    try:
        return call(*args, **kwargs)
    except HundredError as error:
        raise RecordError(error.message, error.code) from None


def _decode(line: str | bytes, *, first: bool) -> dict[str, Any] | None:
    """One line as a JSON object with a known ``Type`` (None: a blank line)."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"not UTF-8 text: {line[:_QUOTE_LIMIT]!r}", "bad_json") from None
    if first:
        line = line.removeprefix("\ufeff")  # a byte-order mark some editors add
    if not line.strip():
        return None
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError) as error:  # also a huge number, deep nesting
        why = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        raise RecordError(f"not JSON ({why}): {_quote_raw(line)}", "bad_json") from None
    if not isinstance(obj, dict):
        raise RecordError(f"a record line is a JSON object, got {_quote(obj)}", "bad_record")
    kind = _field(obj, "Type")
    if not isinstance(kind, str):
        raise RecordError(f'"Type" must be a string, got {_quote(kind)}', "bad_record")
    if kind not in _KNOWN_TYPES:
        raise RecordError(
            f"unknown line type {_quote(kind)} (a Whist record has {', '.join(_KNOWN_TYPES)})",
            "unknown_type",
        )
    return obj


def _start(obj: dict[str, Any]) -> Game:
    name = _str(obj, "Game")
    if name != GAME:
        raise RecordError(f"unknown game {_quote(name)} (only {GAME!r})", "unknown_game")
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
    return _engine(Game, players, seed)


def _scores(events: list[Event]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, HandScored):
            out.append({"Type": "Score", "Hand": event.hand, "Score": list(event.totals)})
        elif isinstance(event, GameWon):
            winner = SIDES[event.side]
            out.append(
                {"Type": "Score", "GameOver": True, "Winner": winner, "Score": list(event.totals)}
            )
    return out


def replay(lines: Iterable[str | bytes]) -> Iterator[dict[str, Any]]:
    """Replay a record: its Score lines, and an Error line at the first bad line.

    ``lines`` are physical lines (text or UTF-8 bytes, newlines allowed at the end).
    """
    try:
        yield from Replayer().run(lines)
    except RecordError as error:
        yield error_object(error)


def load_record(lines: Iterable[str | bytes]) -> Game:
    """The game a record describes, as far as it goes; raises ``RecordError`` (with
    ``line``) at the first line that cannot be replayed."""
    replayer = Replayer()
    for _ in replayer.run(lines):
        pass
    assert replayer.game is not None
    return replayer.game
