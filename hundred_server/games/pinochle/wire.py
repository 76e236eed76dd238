"""Pinochle on the wire: answers to actions, prompts, events to messages, and ``SPEC``.

The messages are the pinochle seed's (seeds/pinochle-server-protocol.txt) with what
the rich protocol adds everywhere (``Seq`` and ``Legal`` on prompts, the ``Trick`` and
per-hand ``Score`` details, ``Snapshot``), so the classic codec (codecs/classic.py)
only has to leave things out to speak the seed's dialect exactly: its texts ("Player 2
wins trick #1 with AD for 3 points", "Scores are now Team0 = -25 to Team1 = 19, played
1 hands", "Team0 wins with a score of 24!") are these messages' own.

What each seat is told is decided here and nowhere else (``tell``, ``prompt``): a
seat's hand goes only to that seat; other seats' cards only once shown in a meld or
played. A pass is ``"Bid":0``; every meld shows its ``Amount`` (0 too); at the end of
the game the ``GameOver`` Score replaces the hand's, as in the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hundred_server.games.base import GameSpec, Preset, Wire
from hundred_server.games.kit import messages
from hundred_server.games.kit.cards import Card, format_cards
from hundred_server.games.kit.messages import snapshot_head
from hundred_server.games.kit.tricks import BidMade
from hundred_server.games.pinochle import records
from hundred_server.games.pinochle.bots import NaiveBot, PinochleBot
from hundred_server.games.pinochle.research import RESEARCH
from hundred_server.games.pinochle.rules import (
    NUM_PLAYERS,
    TEAMS,
    Action,
    Bid,
    Dealt,
    Event,
    Game,
    GameWon,
    HandScored,
    Melded,
    Phase,
    Played,
    StuckDealer,
    TrickWon,
    Trump,
    TrumpNamed,
    View,
    sort_hand,
    team_of,
    trick_winner,
)
from hundred_server.games.pinochle.strong import StrongBot
from hundred_server.games.pinochle.text import TEXT
from hundred_server.protocol.wire import (
    Message,
    message,
)

_PROMPT_TYPE: Final = {Phase.BIDDING: "Bid", Phase.TRUMP: "Trump", Phase.TRICKS: "Play"}
#: Partnerships: seats 0 and 2 (Team0) against 1 and 3 (Team1).
SIDES: Final = tuple(team_of(seat) for seat in range(NUM_PLAYERS))


def _legal(action: Action) -> object:
    if isinstance(action, Bid):
        return action.amount
    if isinstance(action, Trump):
        return action.suit.value
    return action.card.code


def _play_fields(game: Game, msg: Message) -> None:
    """A Play prompt's trump, and the trick's lead and winning card once it has one."""
    if msg["Type"] == "Play":
        assert game.trump is not None
        msg["Trump"] = game.trump.value
        if game.trick:
            lead = game.trick[0][1].suit
            assert lead is not None
            msg["Lead"] = lead.value
            msg["WinningCard"] = trick_winner(game.trick, game.trump)[1].code


#: The pending prompt as a seat sees it.
prompt: Final = messages.prompter(
    _PROMPT_TYPE, lambda game, seat: [_legal(a) for a in game.legal_actions(seat)], _play_fields
)


def meld_message(seat: int, amount: int, cards: Sequence[Card]) -> Message:
    return {"Type": "Meld", "Playerid": seat, "Hand": format_cards(cards), "Amount": amount}


def _scores_text(totals: Sequence[int], hand: int) -> str:
    return f"Scores are now Team0 = {totals[0]} to Team1 = {totals[1]}, played {hand} hands"


def _score_details(event: HandScored) -> Message:
    return messages.score_message(
        event.hand, Bidder=event.bidder, Bid=event.bid, Made=event.made, Meld=event.meld,
        Counters=event.counters, Points=event.points, Score=event.totals,
    )  # fmt: skip


class _Teller:
    """What each seat is told of one run of events. When the run ends the game, the
    last hand's ``Score`` is left out: the ``GameOver`` one carries it (as the seed)."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.over = any(isinstance(e, GameWon) for e in events)
        self.scored: HandScored | None = None

    def public(self, event: Event, players: Sequence[str]) -> list[Message]:
        if isinstance(event, BidMade):
            return [messages.bid_message(event.seat, event.amount)]
        if isinstance(event, StuckDealer):
            return [messages.stuck_dealer_message(event, players)]
        if isinstance(event, TrumpNamed):
            return [{"Type": "Trump", "Playerid": event.seat, "Trump": event.suit.value}]
        if isinstance(event, Melded):
            return [meld_message(event.seat, event.amount, event.cards)]
        if isinstance(event, Played):
            return [messages.played_message(event.seat, event.card)]
        if isinstance(event, TrickWon):
            won: Message = {
                "Type": "Trick",
                "Playerid": event.seat,
                "WinningCard": event.card.code,
                "Trick": event.trick,
                "Points": event.points,
            }
            text = (
                f"Player {event.seat} wins trick #{event.trick} with {event.card.code} "
                f"for {event.points} points"
            )
            return [won, message(text)]
        if isinstance(event, HandScored):
            self.scored = event
            said = [message(_scores_text(event.totals, event.hand))]
            return said if self.over else [*said, _score_details(event)]
        if isinstance(event, GameWon):
            score = event.totals[event.side]
            return [message(f"{TEAMS[event.side]} wins with a score of {score}!")]
        return []

    def private(self, event: Event, seat: int | None, players: Sequence[str]) -> list[Message]:
        if isinstance(event, Dealt):
            return [
                messages.deal_message(
                    seat, event.hands, event.dealer, event.hand, players, sort=sort_hand
                )
            ]
        if isinstance(event, GameWon):
            final: Message = {} if self.scored is None else _score_details(self.scored)
            final.update(
                {
                    "Type": "Score",
                    "Score": list(event.totals),
                    "GameOver": True,
                    "Winner": event.side,
                }
            )
            if seat is not None:
                final["Win"] = team_of(seat) == event.side
            return [final]
        return []


#: What each seat is told of some events (kit/messages.py); the seat None is a watcher,
#: told every public message (the melds among them), a ``Deal`` without a hand and the
#: end of the game without ``Win``.
tell: Final = messages.run_teller(_Teller)


def snapshot(game: Game, seat: int | None, table: int) -> Message:
    """Where the game stands, as ``seat`` knows it: for a person who takes their seat
    back. Built from the seat's view only, so it holds no other seat's hand.

    A watcher (``seat`` None) gets seat 0's view without seat 0's ``Hand`` (and no
    ``Playerid``): the bids, every meld (shown to everyone), the counters and the
    trick under way."""
    view: View = game.view_for(0 if seat is None else seat)
    msg = snapshot_head(game, view, seat, table, format_cards(view.hand))
    msg["Bids"] = [{"Playerid": s, "Bid": amount} for s, amount in view.bids]
    if view.bidder is not None:
        msg["Bidder"] = view.bidder
        msg["Bid"] = view.bid
    if view.trump is not None:
        msg["Trump"] = view.trump.value
    msg["Meld"] = [
        {"Playerid": s, "Hand": format_cards(cards), "Amount": amount}
        for s, (amount, cards) in enumerate(view.melds)
    ]
    msg["Tricks"] = len(view.tricks)
    msg["Counters"] = list(view.counters)
    msg["Trick"] = [{"Playerid": s, "PlayedCard": c.code} for s, c in view.current_trick]
    return msg


def win_text(game: Game, winner: int, score: list[int]) -> str:
    """The words of a win (``winner`` is a team)."""
    return f"{TEAMS[winner]} wins with a score of {score[winner]} to {score[1 - winner]}"


SPEC: Final = GameSpec(
    sides=SIDES,
    # The seed's six options, word for word (the classic port shows them as they are).
    # People sit in the lowest free seat: option 2 seats the one who joins opposite
    # the creator, option 5 puts them against the creator, each with an AI partner.
    presets=(
        Preset("Play against three AI players and start immediately", 4, (1, 2, 3), SIDES),
        Preset("Play with a human partner against two AI players", 4, (1, 3), SIDES),
        Preset("Play with a human partner against one AI players and 1 Human", 4, (1,), SIDES),
        Preset("Play with a human partner against two humans", 4, (), SIDES),
        Preset("Play against a human with AI partners", 4, (2, 3), SIDES),
    ),
    new_game=lambda players, seed, flags=frozenset(): Game(players),  # every Deck recorded
    records=records.FORMAT,
    wire=Wire(prompt, tell, snapshot, win_text),
    text=TEXT,
    classic=True,
    research=RESEARCH,
    bots={"naive": NaiveBot, "default": PinochleBot, "strong": StrongBot},
)
