"""Every error this package raises, each with a stable wire ``code``.

The tree::

    HundredError                 root; ``code`` is the snake_case wire code
    ├── MalformedError           the input cannot be read at all
    │   └── CardCodeError        a card code such as ``"1X"`` (code ``bad_card``)
    ├── IllegalActionError       well formed, but the rules forbid it now
    ├── BotAnswerError           a plug-in bot's answer that is no legal move (code: why)
    └── RecordError              a game record that cannot be replayed (knows its line)

"Malformed" and "illegal" are kept apart as python-chess keeps ``InvalidMoveError``
and ``IllegalMoveError`` apart: the first says "I cannot read you", the second "I read
you and the answer is no". An error never leaves state half changed: every action is
validated in full before anything is touched.
"""

from __future__ import annotations


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


class MalformedError(HundredError):
    """Input that cannot be parsed: bad JSON, a missing field, a wrong type."""

    code = "bad_message"


class CardCodeError(MalformedError, ValueError):
    """A card code that names no card."""

    code = "bad_card"


class IllegalActionError(HundredError):
    """A well-formed action the rules forbid in the current state.

    Codes in use: ``not_your_turn``, ``wrong_phase``, ``illegal_bid``,
    ``already_passed``, ``not_pre_passed``, ``bad_suit``, ``not_in_hand``,
    ``duplicate_card``, ``must_bleed``, ``game_over``, ``bad_seat``, ``bad_deck``.
    """

    code = "illegal_action"


class BotAnswerError(HundredError):
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
