"""Every error this package raises, and every wire ``Code``, listed once with its text.

The tree::

    HundredError                 root; ``code`` is the snake_case wire code
    ├── ClientError              what a client is told, with a code of ``CODES``
    │   ├── Malformed            the line is broken: it cannot be read as a request
    │   │   └── CardCodeError    a card code such as ``"1X"`` (code ``bad_card``)
    │   └── Refused              a request read in full that the server says no to now
    │       └── IllegalActionError   ... because the game's rules forbid it
    ├── Fault                    the server itself failed; never the client's fault
    │   ├── BotAnswerError       a plug-in's answer that is no legal move (code: why)
    │   ├── StoreError           the store failed (store/base.py)
    │   └── TableFailed          a table raised where it must not (a bug; core/guard.py)
    └── RecordError              a game record that cannot be replayed (knows its line)

Three kinds of failure, kept apart (as python-chess keeps ``InvalidMoveError`` and
``IllegalMoveError`` apart, and h11's errors know their status): ``Malformed`` says "I
cannot read you", ``Refused`` "I read you and the answer is no", ``Fault`` "I failed":
it is logged with what it hit and answered ``internal_error``, never a code that blames
the client. An error never leaves state half changed: every request is checked in full
before anything is touched.

``CODES`` is the one list of the codes a client can be sent in an ``Error``, each with
its kind and what it means; protocol.md's table of errors lists these codes and no
other (a test checks it), and a ``Malformed`` or ``Refused`` made with a code outside
it, or of the other kind, is a bug its constructor catches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Kind = Literal["malformed", "refused", "fault"]


@dataclass(frozen=True, slots=True)
class Code:
    kind: Kind
    text: str


def _codes(kind: Kind, **texts: str) -> dict[str, Code]:
    return {code: Code(kind, text) for code, text in texts.items()}


#: Every wire ``Code`` of an ``Error``: its kind and its meaning, in protocol.md's order.
CODES: Final[dict[str, Code]] = {
    **_codes(
        "malformed",
        line_too_long="a line over the line limit; the connection is closed",
        bad_json="the line is not a JSON object, or not UTF-8",
        bad_message="a field is missing or of the wrong type (the message names it)",
        unknown_type="no such Type from a client",
        bad_choice="Hello with a Message other than create, join, watch, quit, ladder; a "
        "Choice that is no index of the view's legal, or of an action of another Type",
        bad_name="a player or table name outside the rules",
        bad_option="a Game option that does not exist, or a bad value for one",
        bad_chat="a Chat whose Text is not a string, or is empty or too long",
        bad_suit="not a suit",
        bad_card="not a card code",
        bad_password="a new account's password that is not 8-128 characters",
    ),
    **_codes(
        "refused",
        bad_game="a game the server does not have, or one this port cannot say",
        bad_token="a Token that is not 32 hex digits or owns no seat of a game under way",
        no_such_table="no open table of that number (to watch: no table under way)",
        no_watchers="a table that takes no watchers",
        bad_mute="a Mute of yourself, of a name nobody goes by, or one too many",
        chat_busy="over your share of the lobby's chat budget; nothing was said",
        too_many_watchers="the table has its most watchers",
        table_full="the table has no free seat: its game is under way",
        not_now="a message that does not fit where you are",
        not_your_seat="Playerid is not your seat",
        stale_seq="Seq is not the pending prompt's",
        not_your_turn="another seat is to act",
        wrong_phase="that action does not fit the game's phase",
        illegal_bid="a bid that is not allowed now",
        already_passed="a pre-pass from a seat that has passed already",
        not_pre_passed="an unpass without a pre-pass",
        not_in_hand="a card you do not hold",
        duplicate_card="a discard naming a card twice",
        must_bleed="a trump was led and you hold one",
        must_follow_suit="you hold the suit led and played another",
        must_beat="a card that does not beat the trick's winner while you hold one that does",
        must_trump="you hold none of the suit led but a trump, and played another suit",
        bad_discard="a discard of another number of cards than the rules say, or a card twice",
        bad_partners="a call of another number of partner cards than the rules say",
        spades_not_broken="a spade led before spades are broken, holding another suit",
        game_over="the game has ended",
        server_full="the server has its most connections; the connection is closed",
        too_many_connections="your address has its most connections open",
        too_many_tables="tables from your address whose game is not over are at their most",
        too_many_waiting="tables from your address that wait for players are at their most",
        ai_busy="the strong AI is busy; nothing was created (ask for the naive AI)",
        store_unavailable="the server cannot save games (or check accounts) right now; try "
        "again soon",
        rate_limited="too many lines that do not play a turn; that line was not read",
        idle_timeout="silent too long; the connection is closed",
        bad_key="a Key that is no account's API key (or one revoked); nothing changed",
        wrong_password="a name and password that match no account",
        too_many_attempts="5 wrong passwords or keys for that account or from your address "
        "in 5 minutes; wait, the message says how long",
        not_rated="a rated table (Rated) or the ladder without an account, or an account "
        "at a rated table twice",
        name_taken="the name is an account's, or looks like one; log in or pick another",
        no_store="text mode's login or register on a server without a store: no accounts",
    ),
    **_codes("fault", internal_error="the server hit a bug; it is logged"),
}


class HundredError(Exception):
    """Root of every error raised by hundred_server."""

    code: str = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class ClientError(HundredError):
    """An error a client is sent with its code (``Malformed`` or ``Refused``): the code
    must be in ``CODES``, of the class's kind."""

    kind: Kind
    #: Whether the constructor checks the code against ``CODES``.
    listed: bool = True

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message, code)
        known = CODES.get(self.code)
        if self.listed and (known is None or known.kind != self.kind):
            raise ValueError(f"{self.code!r} is not a {self.kind} code (errors.CODES)")


class Malformed(ClientError):
    """A line that cannot be read as a request: bad JSON, a missing field, a wrong type,
    a value outside its field's domain."""

    kind: Kind = "malformed"
    code = "bad_message"


class CardCodeError(Malformed, ValueError):
    """A card code that names no card."""

    code = "bad_card"


class Refused(ClientError):
    """A request read in full that the server says no to in this state: not now, a full
    table, a limit, a store that cannot save, or (``IllegalActionError``) the rules."""

    kind: Kind = "refused"
    code = "not_now"


class IllegalActionError(Refused):
    """A well-formed action the rules forbid in the current state.

    A game's engine raises it with a code of ``CODES`` when a client can cause it
    (``not_your_turn``, ``illegal_bid``, ``must_follow_suit``, ...), or with one of its
    own (``bad_seat``, ``bad_deck``) where only the server or a record can (a replay
    names those on its ``Error`` line). The engines know nothing of the wire, so the
    code is not checked here; the refusal tests check that every code a client can
    provoke is listed.
    """

    listed = False
    code = "illegal_action"


def for_code(message: str, code: str) -> ClientError:
    """The error of ``code``'s kind (``CODES``), for a code known only at run time (a
    limit the server layer hit, a field whose range has its own code)."""
    known = CODES.get(code)
    if known is None or known.kind == "fault":
        raise ValueError(f"{code!r} is no code a client is told (errors.CODES)")
    return Malformed(message, code) if known.kind == "malformed" else Refused(message, code)


class Fault(HundredError):
    """The server failed: a store, a bot, a bug. Logged, and never blamed on the client."""

    code = "internal_error"


class BotAnswerError(Fault):
    """A plug-in bot answered with something that is not one of its legal moves.

    Raised by a game's plug-in adapter (``GameSpec.plugin``) inside the plug-in's worker
    process; the message says what it returned and why that is no move (``returned
    'AS', which is not a Card``), the code which of the game's checks it failed
    (``not_a_card``, ``not_in_hand``, ``revoke``; ``not_legal`` for the general shape).
    """

    code = "not_legal"


class RecordError(HundredError):
    """A record line that cannot be replayed; ``line`` is 1-based."""

    code = "bad_record"

    def __init__(self, message: str, code: str | None = None, line: int = 0) -> None:
        super().__init__(message, code)
        self.line = line
