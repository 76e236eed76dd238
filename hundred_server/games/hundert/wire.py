"""Hundert on the wire: answers to actions, prompts, events to messages, and ``SPEC``.

What each seat is told is decided here and nowhere else (``tell``, ``prompt``): a
seat's hand goes only to that seat; the pile is face up, so everyone is told it
(``Pile``, right after the private ``Deal``); every play is told with the new total,
and the end of each deal with the chips it moved (``Score`` with ``Total``). The game
over ``Score`` goes to each seat with its ``Win``, after the last deal's ``Score``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hundred_server.games.base import GameSpec, Preset, Wire
from hundred_server.games.hundert import records
from hundred_server.games.hundert.bots import HundertBot
from hundred_server.games.hundert.research import RESEARCH
from hundred_server.games.hundert.rules import (
    FLAGS,
    DealScored,
    Dealt,
    Event,
    Game,
    GameWon,
    Phase,
    Played,
    View,
)
from hundred_server.games.hundert.strong import StrongBot
from hundred_server.games.hundert.text import TEXT
from hundred_server.games.kit import messages
from hundred_server.games.kit.cards import format_cards
from hundred_server.games.kit.messages import snapshot_head
from hundred_server.protocol.wire import Message, message

_PROMPT_TYPE: Final = {Phase.PLAY: "Play"}


#: The pending prompt as a seat sees it: the total, and the cards it may play.
prompt: Final = messages.prompter(
    _PROMPT_TYPE,
    lambda game, seat: [a.card.code for a in game.legal_actions(seat)],
    lambda game, msg: msg.update(Total=game.total),
)


def pile_messages(codes: Sequence[str], total: int) -> list[Message]:
    """The pile (its card codes), face up, and its words for people."""
    shown: Message = {"Type": "Pile", "Cards": list(codes), "Total": total}
    if codes:
        text = f"The pile shows {' '.join(codes)}: total {total}"
    else:
        text = "No cards are left over: the total starts at 0"
    return [shown, message(text)]


def chips_word(n: int) -> str:
    return f"{n} chip{'' if n == 1 else 's'}"


def score_text(event: DealScored, players: Sequence[str]) -> str:
    """``bob takes the total to 104 and pays 4 chips to each``, ``cy makes exactly 100
    and takes 3 chips from each``."""
    who = players[event.seat]
    others = [p for s, p in enumerate(event.points) if s != event.seat]
    each = abs(others[0]) if others else 0
    if event.exact:
        return f"{who} makes exactly 100 and takes {chips_word(each)} from each"
    return f"{who} takes the total to {event.total} and pays {chips_word(each)} to each"


def deal_score(event: DealScored) -> Message:
    return messages.score_message(
        event.round, Playerid=event.seat, Total=event.total, Points=event.points, Score=event.totals
    )


def win_text(winner: int, totals: Sequence[int], players: Sequence[str]) -> str:
    return f"{players[winner]} wins the game with a balance of {chips_word(totals[winner])}"


class _Teller:
    """What each seat is told of one run of events. The pile is told right after each
    seat's own ``Deal``: its messages are made once and shared by every seat."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.pile: list[Message] = []

    def public(self, event: Event, players: Sequence[str]) -> list[Message]:
        if isinstance(event, Dealt):
            self.pile = pile_messages(format_cards(event.pile), event.total)
            return []  # told after each seat's private Deal
        if isinstance(event, Played):
            played = messages.played_message(event.seat, event.card)
            played["Total"] = event.total
            return [played]
        if isinstance(event, DealScored):
            return [deal_score(event), message(score_text(event, players))]
        return [message(win_text(event.winner, event.totals, players))]  # GameWon

    def private(self, event: Event, seat: int | None, players: Sequence[str]) -> list[Message]:
        if isinstance(event, Dealt):
            deal = messages.deal_message(seat, event.hands, event.dealer, event.round, players)
            return [deal, *self.pile]
        return messages.seat_won(event, seat) if isinstance(event, GameWon) else []


#: What each seat is told of some events (kit/messages.py); the seat None is a watcher,
#: told every public message (the pile among them), a ``Deal`` without a hand and the
#: end of the game without ``Win``.
tell: Final = messages.run_teller(_Teller)


def snapshot(game: Game, seat: int | None, table: int) -> Message:
    """Where the game stands, as ``seat`` knows it: for a person who takes their seat
    back. Built from the seat's view only, so it holds no other seat's hand.

    A watcher (``seat`` None) gets seat 0's view without seat 0's ``Hand`` (and no
    ``Playerid``): the pile, this deal's plays and the total, all face up."""
    view: View = game.view_for(0 if seat is None else seat)
    msg = snapshot_head(game, view, seat, table, format_cards(view.hand))
    msg.update(
        {
            "Pile": format_cards(view.pile),
            "Played": [{"Playerid": s, "PlayedCard": c.code} for s, c in view.played],
            "Total": view.total,
        }
    )
    return msg


def _win_text(game: Game, winner: int, score: list[int]) -> str:
    return win_text(winner, score, game.players)


def new_game(players: Sequence[str], seed: str | None, flags: frozenset[str] = frozenset()) -> Game:
    """A game waiting for its first deal (Hundert records keep no seed: every deal's
    deck is in the record); ``flags`` may hold ``Feder``."""
    return Game(players, flags)


def _against(ai: int) -> Preset:
    seats = ai + 1
    text = f"You against {'one AI' if ai == 1 else f'{ai} AI'} ({seats} players)"
    return Preset(text, seats, tuple(range(1, seats)))


SPEC: Final = GameSpec(
    presets=(
        *(_against(ai) for ai in range(1, 6)),
        Preset("4 players, Feder: you against three AI", 4, (1, 2, 3), flags=frozenset(FLAGS)),
    ),
    custom=True,
    new_game=new_game,
    # Today's AI is both the plainest player and the default; "strong" plays by PIMC.
    research=RESEARCH,
    bots={"naive": HundertBot, "default": HundertBot, "strong": StrongBot},
    records=records.FORMAT,
    wire=Wire(prompt, tell, snapshot, _win_text),
    text=TEXT,
    flags=FLAGS,
)
