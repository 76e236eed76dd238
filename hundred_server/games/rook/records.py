"""Rook records (JSON lines, version 1) and their replay (see records.py).

A record is one JSON object per line::

    {"Type":"Record","Game":"rook","Version":1,"Players":["ann","bob","cy","dee"]}
    {"Type":"Deal","Hand":1,"Dealer":0,"Deck":["R14","G1", ... 45 codes]}
    {"Type":"Bid","Playerid":1,"Bid":85}
    {"Type":"Bid","Playerid":2,"Bid":0}
    {"Type":"Bid","Playerid":3,"Moon":true}
    {"Type":"Setup","Playerid":3,"Discard":["B5","B6","G7","Y8","Y9"],"Trump":"R","Partners":[]}
    {"Type":"Play","Playerid":3,"PlayedCard":"R1"}

Seat ``i`` is ``Players[i]`` (3 to 6 players); seat 0 deals the first hand. The dealer
deals the deck one card at a time from their left, and the last kitty-size cards (6, 5,
5, 3 for 3, 4, 5, 6 players) are the kitty: ``Deck[i]`` goes to seat
``(Dealer + 1 + i) % players`` for ``i`` below ``players * hand size``. The header
carries no ``Seed``: a Rook game never deals itself, so every ``Deal`` gives its
``Deck`` (a header with a Seed is refused, ``unexpected_seed``). Each hand is its
``Deal`` (``Hand`` from 1; ``Hand`` and ``Dealer`` as the rules say), its bids (``Bid``
0 passes; ``"Moon":true`` is the moon and wins over any ``Bid`` beside it), the
bidder's ``Setup`` (``Discard``: as many cards as the kitty held; ``Trump``: a colour;
``Partners``: the called cards, which may be left out when none are called) and its
plays, in the order they happened. Other keys are ignored; blank lines are skipped
(they still count as lines).

Replay yields ``{"Type":"Score","Hand":1,"Points":[...],"Score":[...]}`` after every
hand (``Points``: what each seat scored that hand; ``Score``: the totals, the running
sum of ``Points``) and, when the game ends, ``{"Type":"Score","GameOver":true,
"Winner":2,"Score":[...]}`` (``Winner`` is the seat). Errors are as for every game
(kit/records.py): an ``Error`` line at the first line that cannot be replayed, and then
nothing. ``FORMAT.codes`` lists every ``Code`` replay can give.
"""

from __future__ import annotations

from typing import Any, Final

from hundred_server.games.kit.records import (
    GameEnd,
    RecordFormat,
    RoundEnd,
    engine,
    quote,
    read_card,
    read_cards,
    read_int,
    read_str,
)
from hundred_server.games.rook.cards import Colour, RookCard, codes
from hundred_server.games.rook.rules import (
    BID_ACTIONS,
    MOON,
    Action,
    Bid,
    Event,
    Game,
    GameWon,
    HandScored,
    Play,
    Setup,
    check_deck,
)
from hundred_server.protocol.errors import CardCodeError, RecordError

#: Rook's own ``Code``s, and the shared ones in its words.
OWN_CODES: Final[dict[str, str]] = {
    "bad_players": "a number of players other than 3 to 6",
    "bad_deck": "a Deck that is not the 45 Rook cards, each once",
    "bad_suit": "a Setup whose Trump names no colour (B, G, R, Y)",
    "wrong_phase": "an action that does not fit the phase (a Play while bidding, ...)",
    "illegal_bid": "a Bid that is not 0 or 80 to 200 in fives, or does not top the high bid",
    "bad_discard": "a Setup discarding another number of cards than the kitty held, or one twice",
    "bad_partners": "a Setup calling another number of partner cards than the rules, or one twice",
    "must_follow_suit": "a card off the colour led from a seat that holds the colour led",
}


def action_object(seat: int, action: Action) -> dict[str, Any]:
    """One action as its record line (a JSON-ready dict), as it looks on the wire."""
    if isinstance(action, Bid):
        if action.is_moon:
            return {"Type": "Bid", "Playerid": seat, "Moon": True}
        return {"Type": "Bid", "Playerid": seat, "Bid": action.amount}
    if isinstance(action, Setup):
        return {
            "Type": "Setup",
            "Playerid": seat,
            "Discard": codes(action.discard),
            "Trump": action.trump.value,
            "Partners": codes(action.partners),
        }
    return {"Type": "Play", "Playerid": seat, "PlayedCard": action.card.code}


def _bid(obj: dict[str, Any]) -> Bid:
    moon = obj.get("Moon", False)
    if type(moon) is not bool:
        raise RecordError(f'"Moon" must be true or false, got {quote(moon)}', "bad_record")
    if moon:
        return BID_ACTIONS[MOON]
    amount = read_int(obj, "Bid")
    if amount == MOON:  # the moon is "Moon":true, never a number
        raise RecordError(f'no such bid: {amount} (the moon is "Moon":true)', "illegal_bid")
    return engine(Bid, amount)


def _colour(obj: dict[str, Any], name: str) -> Colour:
    text = read_str(obj, name)
    try:
        return Colour.parse(text)
    except CardCodeError as error:
        raise RecordError(error.message, error.code) from None


def _setup(obj: dict[str, Any]) -> Setup:
    discard = read_cards(obj, "Discard", RookCard.parse)
    trump = _colour(obj, "Trump")
    partners = read_cards(obj, "Partners", RookCard.parse) if "Partners" in obj else []
    return engine(Setup, tuple(discard), trump, tuple(partners))


def _play(obj: dict[str, Any]) -> Play:
    return Play(read_card(read_str(obj, "PlayedCard"), "PlayedCard", RookCard.parse))


def _ended(game: Game, event: Event) -> RoundEnd | GameEnd | None:
    if isinstance(event, HandScored):
        return RoundEnd(event.hand, event.totals, event.points)
    if isinstance(event, GameWon):
        return GameEnd(event.winner, event.totals)
    return None


FORMAT: Final = RecordFormat[Game](
    game="rook",
    title="Rook",
    write=action_object,
    read={"Bid": _bid, "Setup": _setup, "Play": _play},
    start=lambda players, seed, header: Game(players),
    ended=_ended,
    check_deck=check_deck,
    own_codes=OWN_CODES,
    parse_card=RookCard.parse,
)
