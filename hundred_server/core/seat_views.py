"""Views for bots: a seat's view in its prompts, and answers by ``Choice`` (no I/O).

A connection that says ``"Views": true`` in a ``Hello`` (``Session.views``; false turns
it off, no ``Views`` keeps it as it is) sits with ``Seat.views``: the copy of a prompt
its seat must answer (the one with ``Legal``) carries ``View``, the seat's view as the
game's built-in AIs read it, as JSON (games/views.py). Any connection may answer any
prompt with ``Choice``, an index into that view's ``legal`` (the seat's legal actions,
in order), instead of the answer's own keys: ``chosen`` reads it, the same way for
every game. protocol.md, Views for bots.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hundred_server.games import views
from hundred_server.games.base import GameSpec, GameState
from hundred_server.protocol.errors import IllegalActionError, Malformed
from hundred_server.protocol.wire import Message, field_int, quote


def read_views(msg: Message, current: bool) -> bool:
    """A ``Hello``'s ``Views`` (``bad_message`` unless true or false); ``current`` when
    it has none."""
    value = msg.get("Views")
    if value is None:
        return current
    if type(value) is not bool:
        raise Malformed(f"Views is true or false, not {quote(value)}", "bad_message")
    return value


@contextmanager
def hello_views(session: Any, msg: Message) -> Iterator[None]:
    """A ``Hello``'s ``Views`` for ``session`` (``Session.views``), read before anything
    else (``bad_message``) and set while the ``Hello`` is handled (a seat it takes back
    sits with it), back as it was if the ``Hello`` is refused (or waits for a sign-in's
    answer: it is read again then)."""
    before = session.views
    session.views = read_views(msg, before)
    try:
        yield
    except BaseException:
        session.views = before
        raise


def add_view(msg: Message, spec: GameSpec, game: GameState, seat: int, occupant: Any) -> None:
    """A prompt's copy for ``seat``, the seat to act: with its ``View`` if the seat's
    ``occupant`` (``Seat``) asked for views."""
    if occupant is not None and occupant.views:
        msg["View"] = views.encode(spec.view(game, seat))


def read_answer(spec: GameSpec, game: GameState, seat: int, msg: Message) -> Any:
    """The action an answer to ``seat``'s prompt names: its ``Choice`` (``chosen``), or
    its own keys (``GameSpec.parse_action``)."""
    return chosen(spec, game, seat, msg) if "Choice" in msg else spec.parse_action(msg)


def chosen(spec: GameSpec, game: GameState, seat: int, msg: Message) -> Any:
    """The action an answer's ``Choice`` names: ``bad_choice`` when it is no index of
    the seat's legal actions, or names an action of another ``Type`` than the answer's;
    ``not_your_turn`` when another seat is to act."""
    choice = field_int(msg, "Choice")
    if choice is None:
        raise Malformed("Choice must be a whole number, got null", "bad_message")
    if game.to_act != seat:
        raise IllegalActionError("another seat is to act", "not_your_turn")
    legal = spec.view(game, seat).legal
    if not 0 <= choice < len(legal):
        raise Malformed(
            f"Choice {choice} is not an index of your View's legal (0-{len(legal) - 1})",
            "bad_choice",
        )
    action = legal[choice]
    kind = spec.records.actions.write(seat, action)["Type"]
    if kind != msg["Type"]:
        raise Malformed(f"Choice {choice} is a {kind}, not a {quote(msg['Type'])}", "bad_choice")
    return action
