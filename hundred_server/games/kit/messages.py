"""Wire messages that the games send alike, and the one way events become each seat's
messages (each game's wire module supplies what is public and what is private).

A message that everyone is told is one object in every seat's list, so the server
encodes it once; a private one is built per seat, from what that seat may know.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from hundred_server.games.base import DeckCard
from hundred_server.games.kit.tricks import StuckDealer
from hundred_server.protocol.wire import (
    Message,
    field_card,
    field_cards,
    field_suit,
    message,
)

C = TypeVar("C", bound=DeckCard)

#: (event, players) -> what everyone is told of it.
Public = Callable[[Any, Sequence[str]], list[Message]]
#: (event, seat, players) -> what only that seat is told of it; for the seat None (a
#: watcher), what a seat that holds no cards would be told privately: no card at all.
Private = Callable[[Any, int | None, Sequence[str]], list[Message]]
#: A game's ``Wire.tell``: (events, seats, players) -> what each seat is told.
Tell = Callable[
    [Sequence[Any], Sequence[int | None], Sequence[str]], dict[int | None, list[Message]]
]


class Teller(Protocol):
    """What tells one run of events, keeping what an earlier event of the run said
    for a later one."""

    def public(self, event: Any, players: Sequence[str]) -> list[Message]: ...

    def private(self, event: Any, seat: int | None, players: Sequence[str]) -> list[Message]: ...


def tell(
    events: Sequence[Any],
    seats: Sequence[int | None],
    players: Sequence[str],
    public: Public,
    private: Private,
    private_kinds: tuple[type, ...] | None = None,
) -> dict[int | None, list[Message]]:
    """What each of ``seats`` is told of ``events``: per event, its public messages
    (shared objects), then the seat's private ones (None: a watcher's). Given
    ``private_kinds``, the event types ``private`` can tell anything of, it is asked of
    no other (most events, a card played, are public only: asked of every seat, it
    answers nothing for each)."""
    told: dict[int | None, list[Message]] = {seat: [] for seat in seats}
    for event in events:
        shared = public(event, players)
        asked = private_kinds is None or isinstance(event, private_kinds)
        for seat in seats:
            told[seat] += shared
            if asked:
                told[seat] += private(event, seat, players)
    return told


def teller(public: Public, private: Private, private_kinds: tuple[type, ...] | None = None) -> Tell:
    """A game's ``Wire.tell``: ``tell`` with its ``public`` and ``private``."""

    def told(
        events: Sequence[Any], seats: Sequence[int | None], players: Sequence[str]
    ) -> dict[int | None, list[Message]]:
        return tell(events, seats, players, public, private, private_kinds)

    return told


def run_teller(make: Callable[[Sequence[Any]], Teller]) -> Tell:
    """A game's ``Wire.tell`` that tells each run of events with a ``Teller`` of
    its own, ``make(events)``."""

    def told(
        events: Sequence[Any], seats: Sequence[int | None], players: Sequence[str]
    ) -> dict[int | None, list[Message]]:
        run = make(events)
        return tell(events, seats, players, run.public, run.private)

    return told


def prompt_head(game: Any, kinds: Mapping[Any, str], seq: int) -> Message | None:
    """The start of ``game``'s pending prompt, the same in every game: ``Type`` (what
    its phase asks, ``kinds``: phase -> Type), ``Playerid`` (the seat to act) and
    ``Seq``; None if nobody is to act or the phase asks nothing. The game adds the
    rest, ``Legal`` only to the acting seat's copy."""
    actor = game.to_act
    kind = kinds.get(game.phase)
    if actor is None or kind is None:
        return None
    return {"Type": kind, "Playerid": actor, "Seq": seq}


def prompter(
    kinds: Mapping[Any, str],
    legal: Callable[[Any, int], list[Any]],
    fields: Callable[[Any, Message], None] | None = None,
) -> Callable[[Any, int | None, int], Message | None]:
    """A game's ``Wire.prompt``: the pending prompt as a seat sees it (None: as any
    seat but the one to act), or None if nobody is to act. ``prompt_head`` of its phases'
    ``kinds``, what ``fields(game, msg)`` adds for every seat, and ``Legal``,
    ``legal(game, seat)``, in the acting seat's copy only."""

    def prompt(game: Any, seat: int | None, seq: int) -> Message | None:
        msg = prompt_head(game, kinds, seq)
        if msg is None:
            return None
        if fields is not None:
            fields(game, msg)
        actor: int = msg["Playerid"]
        if seat == actor:
            msg["Legal"] = legal(game, actor)
        return msg

    return prompt


def describe_seat(players: Sequence[str], seat: int) -> str:
    return f"Player {seat} ({players[seat]})"


def bid_message(seat: int, amount: int) -> Message:
    """Everyone's news of a bid of ``amount`` (0: a pass)."""
    return {"Type": "Bid", "Playerid": seat, "Bid": amount}


def stuck_dealer_message(event: StuckDealer, players: Sequence[str]) -> Message:
    """Everyone's news of a dealer made to bid when every other seat passed."""
    who = describe_seat(players, event.seat)
    return message(f"Everyone passed: {who} dealt and is the bidder at {event.amount}")


def deal_message(
    seat: int | None,
    hands: Sequence[Sequence[C]],
    dealer: int,
    round_: int,
    players: Sequence[str],
    sort: Callable[[Sequence[C]], Sequence[C]] | None = None,
) -> Message:
    """The private ``Deal``: the seat's own hand only (of ``hands``, by seat; ``sort``
    puts it in the order the game shows a hand). A watcher's (seat None) has neither
    ``Playerid`` nor ``Hand``: who deals, the round and the players."""
    if seat is None:
        return {"Type": "Deal", "Dealer": dealer, "Round": round_, "Players": list(players)}
    return {
        "Type": "Deal",
        "Playerid": seat,
        "Hand": [c.code for c in (hands[seat] if sort is None else sort(hands[seat]))],
        "Dealer": dealer,
        "Round": round_,
        "Players": list(players),
    }


def score_message(round_: int, **fields: object) -> Message:
    """A round's ``Score``, everyone's news: its ``Round``, then the game's ``fields`` in
    the order given (a sequence, scores by seat or side, as a list of its own)."""
    msg: Message = {"Type": "Score", "Round": round_}
    for key, value in fields.items():
        msg[key] = list(value) if isinstance(value, (tuple, list)) else value
    return msg


def game_over_message(winner: object, totals: Sequence[int], win: bool | None) -> Message:
    """The private end of a game: the winner (a seat or a side), the final totals, and
    whether the seat told is among the winners (None: a watcher's, without ``Win``)."""
    msg: Message = {"Type": "Score", "GameOver": True, "Winner": winner, "Score": list(totals)}
    if win is not None:
        msg["Win"] = win
    return msg


def seat_won(event: Any, seat: int | None) -> list[Message]:
    """The private end of a game of seats each for themselves (its ``GameWon``: a
    ``winner`` seat and the ``totals``): ``game_over_message`` as ``seat`` is told it."""
    win = None if seat is None else seat == event.winner
    return [game_over_message(event.winner, event.totals, win)]


def played_message(seat: int, card: DeckCard) -> Message:
    return {"Type": "Play", "Playerid": seat, "PlayedCard": card.code}


def trick_messages(
    players: Sequence[str], seat: int, card: DeckCard, trick: int, **extra: object
) -> list[Message]:
    """A won trick: the ``Trick`` message (with any game's ``extra`` keys) and its
    words for people."""
    won: Message = {"Type": "Trick", "Playerid": seat, "WinningCard": card.code, "Trick": trick}
    won.update(extra)
    text = f"{describe_seat(players, seat)} wins trick #{trick} with {card.code}"
    return [won, message(text)]


def snapshot_head(game: Any, view: Any, seat: int | None, table: int, hand: list[str]) -> Message:
    """What every game's ``Snapshot`` starts with, in this order: the table, the seat
    (``Playerid``), the players, the round (1-based), the dealer, the phase, the seat's
    ``Hand`` and the ``Score``, from ``game`` and the seat's ``view`` (a watcher, ``seat``
    None, gets seat 0's, without ``Playerid`` and ``Hand``)."""
    msg: Message = {"Type": "Snapshot", "Table": table}
    if seat is not None:
        msg["Playerid"] = seat
    msg.update({"Players": list(game.players), "Round": game.round_index + 1})
    msg["Dealer"] = view.dealer
    msg["Phase"] = view.phase.value
    if seat is not None:
        msg["Hand"] = hand
    msg["Score"] = list(view.scores)
    return msg


@dataclass(frozen=True, slots=True)
class Fields:
    """Where an action's fields are read from: a record line (``record_fields``: a
    missing or ill-typed field is a ``RecordError``) or a client's answer (``wire``,
    kit/messages.py ``WIRE``: a ``Malformed``). A game reads each of its actions
    once, through these; each source says what is wrong in its own words."""

    #: Whether this is a client's answer (the seed's clients pass by leaving out Bid).
    wire: bool
    card: Callable[[dict[str, Any], str], Any]
    cards: Callable[[dict[str, Any], str], Sequence[Any]]
    suit: Callable[[dict[str, Any], str], Any]

    def optional_cards(self, obj: dict[str, Any], key: str) -> tuple[Any, ...]:
        """``cards``, or none if the field is left out (an answer's may be null too)."""
        absent = obj.get(key) is None if self.wire else key not in obj
        return () if absent else tuple(self.cards(obj, key))


#: A client's answer's readers for the French cards (``Fields``).
WIRE: Final = Fields(wire=True, card=field_card, cards=field_cards, suit=field_suit)
