"""Whist on the wire: answers to actions, prompts, events to messages, and ``SPEC``.

What each seat is told is decided here and nowhere else: ``tell(events, seats, players)``
builds every seat's messages from the engine's events, and ``prompt(game, seat, seq)``
the prompt as one seat sees it (``Legal`` only for the seat that must play). Another
seat's cards never enter a message unless they were played to a trick or are the
turned-up trump card, which everyone sees. Types and keys are Hundred and Ten's wherever
the meaning is the same (protocol.md); scores, trick counts and the winner are by side,
``[NS, EW]``, and a side is ``"NS"`` or ``"EW"`` where a name is wanted.

``PLUGIN`` is the plug-in shape of seeds/whist-bot-assignment.txt: a class whose
``PlayCard`` method takes cards, not views (docs/plugins.md).
"""

from __future__ import annotations

import functools
import reprlib
from collections.abc import Sequence
from typing import Final

from hundred_server.games.base import Bot, GameSpec, PluginShape, Wire
from hundred_server.games.kit import messages, partners
from hundred_server.games.kit.cards import Card
from hundred_server.games.whist import records as records
from hundred_server.games.whist.bots import WhistBot
from hundred_server.games.whist.research import RESEARCH
from hundred_server.games.whist.rules import (
    PLAY_ACTIONS,
    Event,
    Game,
    HandScored,
    Phase,
    Play,
    TrumpTurned,
    View,
)
from hundred_server.games.whist.strong import StrongBot
from hundred_server.games.whist.text import TEXT
from hundred_server.protocol.errors import BotAnswerError
from hundred_server.protocol.wire import Message, message

#: Compass points by seat: partners sit opposite (0 and 2, 1 and 3).
POSITIONS: Final = ("N", "E", "S", "W")

#: How a plug-in's bad answer is quoted: cut short if long.
_quote_value = reprlib.Repr()
_quote_value.maxstring = _quote_value.maxother = 80


def snapshot(game: Game, seat: int | None, table: int) -> Message:
    """Where the game stands, as ``seat`` knows it: for a person who takes their seat
    back. Built from the seat's view only, so it holds no other seat's cards.

    A watcher (``seat`` None) gets seat 0's view without seat 0's ``Hand`` (and no
    ``Playerid``): the turned-up trump card, the trick under way, the tricks won."""
    view = game.view_for(0 if seat is None else seat)
    own: Message = {}
    if view.trump is not None and view.trump_card is not None:
        own = {"Trump": view.trump.value, "TrumpCard": view.trump_card.code}
    return partners.snapshot(game, view, seat, table, own, ("TricksWon", view.tricks_won))


def messages_for(events: Sequence[Event], seat: int, players: Sequence[str]) -> list[Message]:
    """What ``seat`` is told of ``events``."""
    return tell(events, (seat,), players)[seat]


def _own(event: Event, players: Sequence[str]) -> list[Message] | None:
    """The messages of Whist's own events (the trump turned up, a hand's score)."""
    if isinstance(event, TrumpTurned):
        suit = event.card.suit
        assert suit is not None
        trump: Message = {
            "Type": "Trump",
            "Playerid": event.dealer,
            "Trump": suit.value,
            "Card": event.card.code,
        }
        text = f"Trump is {suit.name.lower()}: {players[event.dealer]} turned up {event.card}"
        return [trump, message(text)]
    if isinstance(event, HandScored):
        scored = messages.score_message(
            event.hand, Score=event.totals, Tricks=event.tricks, Points=event.points
        )
        return [scored]
    return None


#: What each seat is told of some events (kit/partners.py); the seat None is a watcher,
#: told every public message, a ``Deal`` without a hand and the end of the game
#: without ``Win``.
tell: Final = functools.partial(partners.tell, own=_own)


# ------------------------------------------------------------------------------ plug-ins


class PlayCardBot:
    """A ``Bot`` that asks a plug-in's ``PlayCard`` (seeds/whist-bot-assignment.txt).

    ``PlayCard(hand, trick, trump, position, tricks, score)`` gets the hand as a tuple
    of ``Card``, the cards played to this trick so far in order, the trump letter, the
    seat's compass letter (N E S W for seats 0-3), this hand's completed tricks as
    ``(four cards, leader letter, winner letter)`` and the score ``(NS, EW)``; it returns
    one of its legal cards. Anything else raises ``BotAnswerError`` saying what it
    returned and why that is no move; what ``PlayCard`` raises passes through. It runs
    in the plug-in's worker process (bots/worker.py), where the server's limits hold.
    """

    def __init__(self, plugin: object) -> None:
        self.plugin = plugin
        self.name = type(plugin).__name__

    def act(self, view: View) -> Play:
        choice = self._ask(view)
        legal = {play.card for play in view.legal}
        if type(choice) is Card and choice in legal:
            return PLAY_ACTIONS[choice]
        if type(choice) is not Card:
            why, code = f"is not a Card but a {type(choice).__name__}", "not_a_card"
        elif choice not in view.hand:
            why, code = "is not in its hand", "not_in_hand"
        else:
            why, code = "does not follow the suit led", "revoke"
        raise BotAnswerError(f"returned {_quote_value.repr(choice)}, which {why}", code)

    def _ask(self, view: View) -> object:
        assert view.trump is not None
        tricks = [
            (tuple(c for _, c in plays), POSITIONS[plays[0][0]], POSITIONS[winner])
            for plays, winner in zip(view.tricks, view.trick_winners, strict=True)
        ]
        trick_so_far = [c for _, c in view.current_trick]
        play_card = self.plugin.PlayCard  # type: ignore[attr-defined]
        choice: object = play_card(
            view.hand, trick_so_far, view.trump.value, POSITIONS[view.seat], tricks, view.scores
        )
        return choice


def plugin(obj: object) -> Bot:
    """``obj``, an instance with the seed's ``PlayCard`` method, as a ``Bot``."""
    return PlayCardBot(obj)


#: The Whist assignment's plug-in shape, and the checks of its answers that its test
#: script makes (``hundred-server check-bot whist=module:Class``).
PLUGIN: Final = PluginShape(
    method="PlayCard",
    parameters=("hand", "trick", "trump", "position", "tricks", "score"),
    adapt=plugin,
    checks=(
        ("not_a_card", "PlayCard returns a Card"),
        ("not_in_hand", "PlayCard returns a card from its hand"),
        ("revoke", "PlayCard follows suit when it can"),
    ),
)


SPEC: Final = GameSpec(
    sides=partners.SEAT_SIDES,
    presets=partners.PRESETS,
    # the driver deals every round (the seed is recorded)
    new_game=lambda players, seed, flags=frozenset(): Game(players, seed, deals_itself=False),
    records=records.FORMAT,
    wire=Wire(partners.prompter({Phase.TRICKS: "Play"}), tell, snapshot, partners.win_text),
    plugin=PLUGIN,
    text=TEXT,
    research=RESEARCH,
    bots={"naive": WhistBot, "default": WhistBot, "strong": StrongBot},
)
