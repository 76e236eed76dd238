"""Cards, suits and their notation (hundred_server/games/kit/cards.py)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hundred_server.games.kit.cards import (
    ALL_CARDS,
    DECK_SUITS,
    JOKER,
    JOKER_INDEX,
    STANDARD_52,
    Card,
    InternedCard,
    Rank,
    Suit,
    card,
    format_cards,
    parse_cards,
)
from hundred_server.games.rook.cards import ROOK_DECK
from hundred_server.protocol.errors import CardCodeError, HundredError, Malformed

# The reference deck order written out by hand (RULES.md item 2), so the tests do not
# borrow the module's own tables.
RANK_CODES = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
DECK_CODES = [r + s for s in "HDSC" for r in RANK_CODES] + ["JK"]


# --------------------------------------------------------------------- deck order


def test_deck_index_order_is_hearts_diamonds_spades_clubs_then_joker():
    assert len(ALL_CARDS) == 53
    assert [c.code for c in ALL_CARDS] == DECK_CODES
    assert [int(c) for c in ALL_CARDS] == list(range(53))
    assert ALL_CARDS[0].code == "2H"
    assert ALL_CARDS[12].code == "AH"
    assert ALL_CARDS[13].code == "2D"
    assert ALL_CARDS[26].code == "2S"
    assert ALL_CARDS[39].code == "2C"
    assert ALL_CARDS[51].code == "AC"
    assert ALL_CARDS[52].code == "JK"


def test_constants_agree_with_the_deck_order():
    assert DECK_SUITS == (Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS)
    assert JOKER_INDEX == 52
    assert JOKER is ALL_CARDS[52]
    assert ALL_CARDS[:52] == STANDARD_52
    assert JOKER not in STANDARD_52


@pytest.mark.parametrize("index", range(53))
def test_card_index_rank_and_suit(index):
    c = Card(index)
    assert c is ALL_CARDS[index]
    assert isinstance(c, int)
    assert c == index
    if index == 52:
        assert c.suit is None
        assert c.rank is Rank.JOKER
        assert c.is_joker
    else:
        assert c.suit is DECK_SUITS[index // 13]
        assert c.rank == index % 13 + 2
        assert c.rank.code == RANK_CODES[index % 13]
        assert not c.is_joker
    assert c.number is c.rank


@pytest.mark.parametrize("bad", [53, 100, -54, "0", None, 1.0])
def test_card_rejects_a_value_that_is_no_index(bad):
    with pytest.raises(CardCodeError) as info:
        Card(bad)
    assert info.value.message == f"no card has index {bad!r}"
    assert info.value.code == "bad_card"


@pytest.mark.parametrize("bad", [-1, -13, -53])
def test_card_rejects_a_negative_index(bad):
    # "A card cannot exist unless it is valid": Python's negative tuple indexing must not
    # turn -1 into the joker.
    with pytest.raises(CardCodeError) as info:
        Card(bad)
    assert info.value.message == f"no card has index {bad!r}"


# ------------------------------------------------------------------ parse / format


@pytest.mark.parametrize("code", DECK_CODES)
def test_parse_and_code_are_a_symmetric_pair(code):
    c = Card.parse(code)
    assert c.code == code
    assert str(c) == code
    assert repr(c) == f"Card({code!r})"
    assert Card.parse(c.code) is c
    assert c is ALL_CARDS[DECK_CODES.index(code)]


def test_every_card_formats_and_parses_back_to_itself():
    assert {Card.parse(c.code) for c in ALL_CARDS} == set(ALL_CARDS)
    for c in ALL_CARDS:
        assert Card.parse(c.code) is c
    assert format_cards(ALL_CARDS) == DECK_CODES
    assert parse_cards(DECK_CODES) == list(ALL_CARDS)


@pytest.mark.parametrize(
    ("text", "code"),
    [("as", "AS"), (" 5h ", "5H"), ("10S", "TS"), ("10d", "TD"), ("jk", "JK"), ("tc", "TC")],
)
def test_parse_is_lenient_about_case_spaces_and_10(text, code):
    assert Card.parse(text).code == code


@pytest.mark.parametrize(
    "bad", ["", "1H", "AX", "JKK", "ZZ", "A S", "11H", "A", "H", "JOKER", "🃏", "10", "TT"]
)
def test_parse_rejects_a_bad_code_and_quotes_it(bad):
    with pytest.raises(CardCodeError) as info:
        Card.parse(bad)
    err = info.value
    assert str(err) == f"not a card: {bad!r} (rank 2-9 T J Q K A + suit S H D C, or JK)"
    assert err.code == "bad_card"
    assert isinstance(err, Malformed)
    assert isinstance(err, HundredError)
    assert isinstance(err, ValueError)


@pytest.mark.parametrize("bad", [None, 5, ALL_CARDS[0], b"AS", ["AS"]])
def test_parse_rejects_what_is_not_a_string(bad):
    with pytest.raises(CardCodeError, match=r"^not a card: ") as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value)


def test_parse_cards_stops_at_the_first_bad_code_and_quotes_it():
    assert parse_cards(["AS", "jk", "10h"]) == [ALL_CARDS[38], JOKER, ALL_CARDS[8]]
    with pytest.raises(CardCodeError, match=r"^not a card: 'QX' "):
        parse_cards(["AS", "QX", "ZZ"])


_CODE_PIECES = st.sampled_from([*DECK_CODES, "10", "1", "X", " ", "k", "j", "h", "ß", "ﬆ"])


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(max_size=6), st.lists(_CODE_PIECES, max_size=3).map("".join)))
def test_parse_of_any_text_round_trips_or_quotes_the_input(text):
    error: CardCodeError | None = None
    try:
        c = Card.parse(text)
    except CardCodeError as err:
        error = err
    if error is not None:
        assert repr(text) in str(error)
        assert error.code == "bad_card"
    else:
        assert c in ALL_CARDS
        assert c.code in DECK_CODES
        assert Card.parse(c.code) is c
        assert c.code == text.strip().upper().replace("10", "T")


# --------------------------------------------------------------------- pretty forms


@pytest.mark.parametrize(
    ("code", "pretty"),
    [
        ("5H", "5♥"),
        ("TS", "10♠"),
        ("JK", "🃏"),
        ("AD", "A♦"),
        ("QC", "Q♣"),
        ("2H", "2♥"),
        ("TD", "10♦"),
        ("JS", "J♠"),
        ("KC", "K♣"),
    ],
)
def test_pretty_form(code, pretty):
    assert Card.parse(code).pretty == pretty


def test_pretty_form_of_every_card():
    symbols = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
    for c in ALL_CARDS:
        if c.code == "JK":
            expected = "🃏"
        else:
            rank = "10" if c.code[0] == "T" else c.code[0]
            expected = rank + symbols[c.code[1]]
        assert c.pretty == expected


# ---------------------------------------------------------------------------- suits


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("H", Suit.HEARTS),
        ("h", Suit.HEARTS),
        ("hearts", Suit.HEARTS),
        ("Heart", Suit.HEARTS),
        (" D ", Suit.DIAMONDS),
        ("DIAMONDS", Suit.DIAMONDS),
        ("diamond", Suit.DIAMONDS),
        ("s", Suit.SPADES),
        ("Spades", Suit.SPADES),
        ("C", Suit.CLUBS),
        ("club", Suit.CLUBS),
    ],
)
def test_suit_parse(text, suit):
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("bad", ["", "X", "HD", "joker", "♥", "spadess", None, 1])
def test_suit_parse_rejects_and_quotes(bad):
    with pytest.raises(CardCodeError) as info:
        Suit.parse(bad)
    assert str(info.value) == f"no such suit: {bad!r} (use H, D, S or C)"
    assert info.value.code == "bad_suit"


def test_suit_values_and_symbols():
    assert [s.value for s in Suit] == ["H", "D", "S", "C"]
    assert [str(s) for s in Suit] == ["H", "D", "S", "C"]
    assert [s.symbol for s in Suit] == ["♥", "♦", "♠", "♣"]
    for s in Suit:
        assert Suit.parse(s.value) is s
        assert Suit.parse(str(s)) is s


# ------------------------------------------------------------------- card(rank, suit)


def test_card_from_rank_and_suit_for_every_card():
    for c in STANDARD_52:
        assert card(c.rank, c.suit) is c
    assert card(Rank.JOKER, None) is JOKER
    assert card(Rank.ACE, Suit.HEARTS).code == "AH"
    assert card(Rank.TEN, Suit.CLUBS).code == "TC"
    assert card(Rank.FIVE, Suit.DIAMONDS).code == "5D"
    assert card(Rank.TWO, Suit.SPADES).code == "2S"


def test_card_from_rank_and_suit_rejects_impossible_pairs():
    with pytest.raises(CardCodeError, match=r"^the joker has no suit, got <Suit\.HEARTS: 'H'>$"):
        card(Rank.JOKER, Suit.HEARTS)
    with pytest.raises(CardCodeError, match=r"^ACE needs a suit$"):
        card(Rank.ACE, None)


def test_rank_codes():
    assert [Rank(v).code for v in range(2, 15)] == RANK_CODES
    assert Rank.JOKER.code == "JK"
    assert Rank.JOKER == 1
    assert Rank.ACE == 14


# ------------------------------------------------------------ interning and pickling


#: Every deck of interned cards (kit ``InternedCard``): the French one and Rook's.
DECKS = pytest.mark.parametrize("deck", [ALL_CARDS, ROOK_DECK], ids=["french", "rook"])


@DECKS
@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_returns_the_interned_card(deck, protocol):
    for c in deck:
        assert pickle.loads(pickle.dumps(c, protocol)) is c
    restored = pickle.loads(pickle.dumps(list(deck), protocol))
    assert all(a is b for a, b in zip(restored, deck, strict=True))


@DECKS
def test_copy_and_deepcopy_return_the_same_card(deck):
    for c in deck:
        assert copy.copy(c) is c
        assert copy.deepcopy(c) is c


@DECKS
def test_a_card_prints_as_its_code_and_reprs_as_its_class_and_code(deck):
    for c in deck:
        assert str(c) == c.code
        assert f"{c}" == c.code
        assert repr(c) == f"{type(c).__name__}({c.code!r})"
        assert isinstance(c, InternedCard)
    assert repr(ROOK_DECK[-1]) == "RookCard('ROOK')"


def test_nested_cards_deepcopy_to_the_same_cards():
    nested = {"hand": [ALL_CARDS[3], JOKER]}
    clone = copy.deepcopy(nested)
    assert clone["hand"][0] is ALL_CARDS[3]
    assert clone["hand"][1] is JOKER


def test_cards_are_hashable_and_equal_to_their_index():
    assert len(set(ALL_CARDS)) == 53
    assert {c: c.code for c in ALL_CARDS}[Card.parse("AS")] == "AS"
    assert Card.parse("2H") == 0
    assert Card.parse("JK") == 52
