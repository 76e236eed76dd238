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
(kit/records.py); ``FORMAT.codes`` lists Rook's.
"""

from __future__ import annotations

from typing import Any, Final

from hundred_server.games.kit.messages import Fields
from hundred_server.games.kit.records import (
    Line,
    Notation,
    RecordFormat,
    play_line,
    read_int,
    record_fields,
)
from hundred_server.games.kit.records import quote as record_quote
from hundred_server.games.rook.cards import Colour, RookCard, codes
from hundred_server.games.rook.rules import (
    BID_ACTIONS,
    DECK,
    MOON,
    PASS,
    Bid,
    Game,
    GameWon,
    HandScored,
    Play,
    Setup,
)
from hundred_server.protocol.errors import CardCodeError, Malformed, RecordError, Refused
from hundred_server.protocol.wire import Message, quote

#: The moon as ``Legal`` lists it (and as a ``Bid`` answer may give it back).
MOON_WORD: Final = "moon"

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


# ----------------------------------------------------------------------------- an answer's fields


def _card(value: object, key: str) -> RookCard:
    if not isinstance(value, str):
        raise Malformed(
            f'{key}: a card is a string such as "R14" or "ROOK", got {quote(value)}', "bad_card"
        )
    try:
        return RookCard.parse(value)
    except CardCodeError as exc:
        raise Malformed(exc.message, "bad_card") from None


def _needed(msg: Message, key: str) -> object:
    value = msg.get(key)
    if value is None:
        raise Malformed(f"{msg['Type']} needs {key}", "bad_message")
    return value


def _answer_cards(msg: Message, key: str) -> tuple[RookCard, ...]:
    value = _needed(msg, key)
    if not isinstance(value, list):
        raise Malformed(f"{key} must be a list of cards, got {quote(value)}", "bad_message")
    return tuple(_card(c, key) for c in value)


def _answer_colour(msg: Message, key: str) -> Colour:
    try:
        return Colour.parse(_needed(msg, key))
    except CardCodeError as exc:
        raise Malformed(exc.message, "bad_suit") from None


#: An answer's readers for Rook's cards and colours.
WIRE: Final = Fields(
    wire=True,
    card=lambda msg, key: _card(_needed(msg, key), key),
    cards=_answer_cards,
    suit=_answer_colour,
)


# ----------------------------------------------------------------------------- actions


def _bid(obj: dict[str, Any], fields: Fields) -> Bid:
    """A record's Bid gives ``"Moon":true`` or an amount, which the engine checks; an
    answer may also leave the amount out to pass, or say ``"Bid":"moon"``, and is
    checked against the bids. ``Moon`` wins over a ``Bid`` beside it."""
    return _answer_bid(obj) if fields.wire else _record_bid(obj)


def _record_bid(obj: dict[str, Any]) -> Bid:
    moon = obj.get("Moon", False)
    if type(moon) is not bool:
        raise RecordError(f'"Moon" must be true or false, got {record_quote(moon)}', "bad_record")
    if moon:
        return BID_ACTIONS[MOON]
    amount = read_int(obj, "Bid")
    if amount == MOON:  # the moon is "Moon":true, never a number
        raise RecordError(f'no such bid: {amount} (the moon is "Moon":true)', "illegal_bid")
    return Bid(amount)


def _answer_bid(msg: Message) -> Bid:
    moon = msg.get("Moon")
    if moon is not None and type(moon) is not bool:
        raise Malformed(f"Moon must be true or false, got {quote(moon)}", "bad_message")
    if moon:
        return BID_ACTIONS[MOON]
    amount = msg.get("Bid")
    if amount is None:
        return BID_ACTIONS[PASS]
    if isinstance(amount, str) and amount.strip().lower() == MOON_WORD:
        return BID_ACTIONS[MOON]
    if type(amount) is not int:
        raise Malformed(f'Bid must be a whole number or "moon", got {quote(amount)}', "bad_message")
    action = BID_ACTIONS.get(amount) if amount != MOON else None
    if action is None:
        raise Refused(
            f"no such bid: {quote(amount)} (0 or leave Bid out to pass; 80 to 200 in "
            'fives; "Moon":true for the moon)',
            "illegal_bid",
        )
    return action


def _setup(obj: dict[str, Any], fields: Fields) -> Setup:
    discard = tuple(fields.cards(obj, "Discard"))
    trump = fields.suit(obj, "Trump")
    return Setup(discard, trump, fields.optional_cards(obj, "Partners"))


def _bid_fields(bid: Bid) -> dict[str, Any]:
    return {"Moon": True} if bid.is_moon else {"Bid": bid.amount}


def _setup_fields(setup: Setup) -> dict[str, Any]:
    return {
        "Discard": codes(setup.discard),
        "Trump": setup.trump.value,
        "Partners": codes(setup.partners),
    }


#: Rook's actions, in records and answers alike.
ACTIONS: Final = Notation(
    {
        "Bid": Line(Bid, _bid_fields, _bid),
        "Setup": Line(Setup, _setup_fields, _setup),
        "Play": play_line(Play),
    },
    record=record_fields(RookCard.parse, Colour.parse),
    wire=WIRE,
    answer_words="a Rook answer",
)


FORMAT: Final = RecordFormat[Game](
    game="rook",
    title="Rook",
    actions=ACTIONS,
    start=lambda players, seed, header: Game(players),
    deck=DECK,
    round_ends=(HandScored,),
    game_ends=GameWon,
    points=True,
    own_codes=OWN_CODES,
    parse_card=RookCard.parse,
)
