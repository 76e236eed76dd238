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

import reprlib
from collections.abc import Sequence
from typing import Final

from hundred_server.games.base import Bot, GameSpec, PluginShape, Preset, check_flags
from hundred_server.games.kit import messages
from hundred_server.games.kit.cards import Card, format_cards
from hundred_server.games.kit.messages import snapshot_head
from hundred_server.games.whist import records as records
from hundred_server.games.whist.bots import WhistBot
from hundred_server.games.whist.rules import (
    NUM_PLAYERS,
    PLAY_ACTIONS,
    SIDES,
    Dealt,
    Event,
    Game,
    GameWon,
    HandScored,
    Phase,
    Play,
    Played,
    TrickWon,
    TrumpTurned,
    View,
    seeded_deck,
    side_of,
    trick_winner,
)
from hundred_server.games.whist.strong import StrongBot
from hundred_server.games.whist.text import TEXT
from hundred_server.protocol.errors import BotAnswerError
from hundred_server.protocol.wire import Message, message

GAME: Final = "whist"
_PROMPT_TYPE: Final = {Phase.TRICKS: "Play"}
#: Compass points by seat: partners sit opposite (0 and 2, 1 and 3).
POSITIONS: Final = ("N", "E", "S", "W")
SIDE_TITLES: Final = ("North-South", "East-West")

#: How a plug-in's bad answer is quoted: cut short if long.
_quote_value = reprlib.Repr()
_quote_value.maxstring = _quote_value.maxother = 80


def prompt(game: Game, seat: int | None, seq: int) -> Message | None:
    """The pending prompt as ``seat`` sees it (None: as any seat but the one to act),
    or None if nobody is to act."""
    msg = messages.prompt_head(game, _PROMPT_TYPE, seq)
    if msg is None:
        return None
    assert game.trump is not None
    msg["Trump"] = game.trump.value
    if game.trick:
        lead = game.trick[0][1].suit
        assert lead is not None
        msg["Lead"] = lead.value
        msg["WinningCard"] = trick_winner(game.trick, game.trump)[1].code
    actor: int = msg["Playerid"]
    if seat == actor:
        msg["Legal"] = [play.card.code for play in game.legal_actions(actor)]
    return msg


def snapshot(game: Game, seat: int | None, table: int) -> Message:
    """Where the game stands, as ``seat`` knows it: for a person who takes their seat
    back. Built from the seat's view only, so it holds no other seat's cards.

    A watcher (``seat`` None) gets seat 0's view without seat 0's ``Hand`` (and no
    ``Playerid``): the turned-up trump card, the trick under way, the tricks won."""
    view = game.view_for(0 if seat is None else seat)
    msg = snapshot_head(
        table, seat, game.players, view.hand_index + 1, view.dealer, view.phase.value,
        format_cards(view.hand),
    )  # fmt: skip
    msg["Score"] = list(view.scores)
    if view.trump is not None and view.trump_card is not None:
        msg["Trump"] = view.trump.value
        msg["TrumpCard"] = view.trump_card.code
    msg["Tricks"] = len(view.tricks)
    msg["TricksWon"] = list(view.tricks_won)
    msg["Trick"] = [{"Playerid": s, "PlayedCard": c.code} for s, c in view.current_trick]
    return msg


def describe_side(players: Sequence[str], side: int) -> str:
    """``North-South (ann and cy)``."""
    return f"{SIDE_TITLES[side]} ({players[side]} and {players[side + 2]})"


def tell(
    events: Sequence[Event], seats: Sequence[int | None], players: Sequence[str]
) -> dict[int | None, list[Message]]:
    """What each of ``seats`` is told of ``events`` (see games/messages.py); the seat
    None is a watcher, told every public message, a ``Deal`` without a hand and the
    end of the game without ``Win``."""
    return messages.tell(events, seats, players, _public, _private)


def messages_for(events: Sequence[Event], seat: int, players: Sequence[str]) -> list[Message]:
    """What ``seat`` is told of ``events``."""
    return tell(events, (seat,), players)[seat]


def _public(event: Event, players: Sequence[str]) -> list[Message]:
    """The messages of ``event`` that everyone is told alike."""
    if isinstance(event, Played):
        return [messages.played_message(event.seat, event.card)]
    if isinstance(event, TrickWon):
        won = list(event.tricks_won)
        return messages.trick_messages(players, event.seat, event.card, event.trick, TricksWon=won)
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
        return [
            {
                "Type": "Score",
                "Round": event.hand,
                "Score": list(event.totals),
                "Tricks": list(event.tricks),
                "Points": list(event.points),
            }
        ]
    if isinstance(event, GameWon):
        low, high = sorted(event.totals)
        return [message(f"{describe_side(players, event.side)} win the game {high} to {low}")]
    return []


def _private(event: Event, seat: int | None, players: Sequence[str]) -> list[Message]:
    """The messages of ``event`` that only ``seat`` is told (its hand, whether it won);
    a watcher (None) has neither."""
    if isinstance(event, Dealt):
        return [messages.deal_message(seat, event.hands, event.dealer, event.hand, players)]
    if isinstance(event, GameWon):
        won = None if seat is None else side_of(seat) == event.side
        return [messages.game_over_message(SIDES[event.side], event.totals, won)]
    return []


def result(game: Game) -> dict[str, object]:
    """How ``game`` ended, for the store and the games list (``Winner`` is a side)."""
    winner = game.winner
    score = list(game.scores)
    if winner is None:
        return {"Winner": None, "Score": score, "Text": "no winner"}
    text = f"{describe_side(game.players, winner)} win {max(score)} to {min(score)}"
    return {"Winner": winner, "Score": score, "Text": text}


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


def new_game(players: Sequence[str], seed: str | None, flags: frozenset[str] = frozenset()) -> Game:
    """A game that waits for the driver to deal each round (``seed`` is recorded)."""
    check_flags(flags, (), "Whist")  # it has no table options
    return Game(players, seed, deals_itself=False)


SPEC: Final = GameSpec(
    name=GAME,
    title="Whist",
    sides=tuple(side_of(seat) for seat in range(NUM_PLAYERS)),
    presets=(
        Preset("Play against three AI players and start immediately", 4, (1, 2, 3)),
        Preset("Play with a person as your partner against two AI players", 4, (1, 3)),
        Preset("Play with an AI partner against two people", 4, (2,)),
        Preset("Open a 4-seat table for people only", 4, ()),
    ),
    new_game=new_game,
    seeded_deck=seeded_deck,
    records=records.FORMAT,
    prompt=prompt,
    tell=tell,
    snapshot=snapshot,
    result=result,
    plugin=PLUGIN,
    text=TEXT,
    bots={"naive": WhistBot, "default": WhistBot, "strong": StrongBot},
)
