"""Pinochle bots (games/pinochle/bots.py): always legal, deterministic, the seed's naive
AI as it is described, the better bot's habits one by one, and a match between them.

Situations are views built by hand (``bot_view``): the viewer's hand, the bids, the
tricks so far; the legal actions are the rules' own (``legal_plays``).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from hundred_server.games.kit.cards import Suit
from hundred_server.games.pinochle.bots import NaiveBot, PinochleBot, hand_value, naive_value
from hundred_server.games.pinochle.rules import (
    Bid,
    Game,
    Phase,
    Play,
    Trump,
    View,
    legal_bids,
    legal_plays,
    meld,
    seeded_deck,
    team_of,
    trick_points,
    trick_winner,
)
from hundred_server.protocol.errors import HundredError
from tests.games.pinochle.test_pinochle import P4, c1, cs, dealt, plays_of
from tests.support import playing

H, D, S, C = Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS
BOTS = (NaiveBot, PinochleBot)


def bot_view(
    hand: str,
    trump: Suit = H,
    trick: str = "",
    earlier: Sequence[str] = (),
    seat: int = 0,
    bidder: int = 1,
    melds: Sequence[str] = ("", "", "", ""),
) -> View:
    """What ``seat`` would see holding ``hand`` with these tricks played this hand."""
    tricks = tuple(plays_of(t) for t in earlier)
    current = plays_of(trick)
    played = tuple(c for t in (*tricks, current) for _, c in t)
    winners = tuple(trick_winner(t, trump)[0] for t in tricks)
    won = [0, 0]
    counters = [0, 0]
    for t, w in zip(tricks, winners, strict=True):
        won[team_of(w)] += 1
        counters[team_of(w)] += trick_points(t, False)
    cards = cs(hand)
    return View(
        seat=seat,
        phase=Phase.TRICKS,
        hand_index=0,
        hand=cards,
        dealer=3,
        to_act=seat,
        bids=tuple((s, 20 if s == bidder else 0) for s in range(4)),
        bidder=bidder,
        bid=20,
        trump=trump,
        melds=tuple((meld(cs(m), trump)[0], cs(m)) for m in melds),
        current_trick=current,
        tricks=tricks,
        trick_winners=winners,
        tricks_won=(won[0], won[1]),
        counters=(counters[0], counters[1]),
        played=played,
        scores=(0, 0),
        target=100,
        legal=legal_plays(cards, current, trump),
    )


def bidding_view(hand: str, bids: Sequence[tuple[int, int]] = (), seat: int = 0) -> View:
    high = max((a for _, a in bids), default=0)
    return View(
        seat=seat,
        phase=Phase.BIDDING,
        hand_index=0,
        hand=cs(hand),
        dealer=(seat + 3) % 4 if not bids else (bids[0][0] + 3) % 4,
        to_act=seat,
        bids=tuple(bids),
        bidder=None,
        bid=None,
        trump=None,
        melds=(),
        current_trick=(),
        tricks=(),
        trick_winners=(),
        tricks_won=(0, 0),
        counters=(0, 0),
        played=(),
        scores=(0, 0),
        target=100,
        legal=legal_bids(high),
    )


def trump_view(hand: str) -> View:
    view = bidding_view(hand)
    return View(
        **{**_fields(view), "phase": Phase.TRUMP, "legal": tuple(Trump(s) for s in (D, C, H, S))}
    )


def _fields(view: View) -> dict[str, object]:
    return {name: getattr(view, name) for name in View.__dataclass_fields__}


def play_game(seed: str, bots: Sequence[NaiveBot | PinochleBot], target: int = 100) -> Game:
    def choose(seat: int, view: View) -> object:
        action = bots[seat].act(view)
        assert action in view.legal
        assert action == bots[seat].act(view)
        return action

    return playing.play_out(Game(P4, target=target), lambda n: seeded_deck(seed, n), choose)


# ------------------------------------------------------------------ always legal


@pytest.mark.parametrize("seed", [f"legal {i}" for i in range(6)])
def test_both_bots_only_ever_choose_legal_actions(seed):
    mixed = [PinochleBot(), NaiveBot(), NaiveBot(), PinochleBot()]
    for bots in ([PinochleBot() for _ in range(4)], [NaiveBot() for _ in range(4)], mixed):
        game = play_game(seed, bots)
        assert game.is_over


@pytest.mark.parametrize("bot", BOTS)
def test_bots_refuse_to_act_without_an_action(bot):
    game = dealt()
    with pytest.raises(HundredError):
        bot().act(game.view_for(0))  # seat 1 bids first


# ------------------------------------------------------------------ the naive bot


def test_naive_value_is_meld_plus_two_per_ace_and_one_per_ten():
    hand = cs("AD TD KD QD JD AC AH TH KH QH JH 9H")
    # hearts: run 15, dix 1, marriage KD-QD 2; aces AD AC AH (no AS): 3*2; tens TD TH: 2
    assert naive_value(hand, H) == 18 + 6 + 2
    # diamonds: run 15, marriage KH-QH 2; no dix
    assert naive_value(hand, D) == 17 + 8


#: A hand worth 26 to the naive bot (its best value, in hearts) and 39 to the better one.
STRONG = "AD TD KD QD JD AC AH TH KH QH JH 9H"
WEAK = "9D 9D JC 9C QH 9H JS JS 9S 9S TC TS"


@pytest.mark.parametrize(
    ("bot", "bids"),
    [
        pytest.param(
            NaiveBot,
            [([], 26), ([(1, 25), (2, 0), (3, 0)], 26), ([(1, 26), (2, 0), (3, 0)], 0)],
            id="the-naive-bot-bids-its-value-if-it-tops-the-high-bid",
        ),
        pytest.param(
            PinochleBot,
            [([], 20), ([(1, 30), (2, 0), (3, 0)], 31), ([(1, 37), (2, 0), (3, 0)], 0)],
            id="the-bot-bids-the-lowest-amount-that-tops",
        ),
    ],
)
def test_a_bot_bids_on_a_strong_hand_and_passes_on_a_weak_one(
    bot: type[NaiveBot | PinochleBot], bids: list[tuple[list[tuple[int, int]], int]]
) -> None:
    """``bids``: the bids before the bot's (seat 1 first) and the amount it bids then."""
    for before, amount in bids:
        assert bot().act(bidding_view(STRONG, before)) == Bid(amount)
    assert bot().act(bidding_view(WEAK)) == Bid(0)


def test_the_naive_bot_names_its_best_suit_and_plays_the_first_legal_card():
    assert NaiveBot().act(trump_view("AD TD KD QD JD AC AH TH KH QH JH 9H")) == Trump(H)
    view = bot_view("AD TD QD 9D AC 9C KH 9H", trick="1:KD")
    assert NaiveBot().act(view) == Play(c1("AD")) == view.legal[0]
    lead = bot_view("AD TD QD 9D AC 9C KH 9H")
    assert NaiveBot().act(lead) == Play(c1("AD"))


# -------------------------------------------------------------- the better bot


def test_hand_value_counts_meld_partner_and_trump_strength():
    hand = cs("AD TD KD QD JD AC AH TH KH QH JH 9H")
    # hearts: meld 18; partner 3; counters 4 + 1.5*6 trumps + 2 high trumps + 1.5*2 side aces
    assert hand_value(hand, H) == 18 + 3 + 4 + 9 + 2 + 3
    assert max((D, C, H, S), key=lambda s: hand_value(hand, s)) is H


def test_the_bot_does_not_overbid_its_partner_unless_much_stronger():
    strong = "AD TD KD QD JD AC AH TH KH QH JH 9H"  # worth 39: bids up to 37
    assert PinochleBot().act(bidding_view(strong, [(2, 30), (3, 0)], seat=0)) == Bid(0)
    assert PinochleBot().act(bidding_view(strong, [(2, 28), (3, 0)], seat=0)) == Bid(0)
    assert PinochleBot().act(bidding_view(strong, [(2, 27), (3, 0)], seat=0)) == Bid(28)
    # an opponent's bid is topped at once
    assert PinochleBot().act(bidding_view(strong, [(3, 30)], seat=0)) == Bid(31)


def test_the_bot_names_its_strongest_trump():
    # spades: a run (15) and six trumps beat hearts' lone marriage
    view = trump_view("AD 9D AC 9C KH QH AS TS KS QS JS 9S")
    assert PinochleBot().act(view) == Trump(S)


def test_the_bot_gives_counters_to_a_partner_who_takes_the_trick():
    # Last to play: partner (seat 2) wins with AD, nobody can beat it after us.
    view = bot_view("TD QD 9D AC 9C", trick="1:9D 2:AD 3:JD")
    assert PinochleBot().act(view) == Play(c1("TD"))
    # ... but not with a trump to spare: void, partner wins; trumps only if forced
    void = bot_view("KC 9C 9H", trick="1:9D 2:AD 3:JD")
    assert void.legal == (Play(c1("9H")),)


def test_the_bot_keeps_counters_when_partner_may_be_beaten():
    # Second to play: partner has not played, opponent leads low; we cannot win.
    view = bot_view("KD QD 9D AC", trick="3:AD", seat=0)
    assert PinochleBot().act(view) == Play(c1("9D"))


def test_the_bot_wins_a_trick_cheaply_when_last():
    view = bot_view("AD TD JD 9C", trick="1:QD 2:9D 3:KD")
    assert view.legal == (Play(c1("AD")), Play(c1("TD")))
    assert PinochleBot().act(view) == Play(c1("TD"))


def test_the_bot_does_not_waste_high_trumps():
    # void in diamonds, an opponent winning with AD: the lowest trump does it
    view = bot_view("AH KH 9H AS", trick="1:AD 2:9D 3:TD")
    assert PinochleBot().act(view) == Play(c1("9H"))


def test_the_bot_throws_its_cheapest_card_when_it_cannot_win():
    view = bot_view("AS KS 9S AC JC", trick="1:AD 2:9D 3:TD")  # no diamonds, no trumps
    assert PinochleBot().act(view) == Play(c1("9S"))  # not a counter, not an ace


def test_the_bidder_draws_trumps_with_a_master_trump():
    view = bot_view("AH 9H AS 9S 9D QC", seat=0, bidder=0)
    assert PinochleBot().act(view) == Play(c1("AH"))


def test_a_defender_cashes_a_side_ace():
    view = bot_view("AH 9H AS 9S 9D QC", seat=0, bidder=1)
    assert PinochleBot().act(view) == Play(c1("AS"))  # trumps are the bidder's to draw


def test_the_bot_counts_cards_to_know_a_ten_is_a_master():
    both_aces_gone = ["0:AS 1:9S 2:AS 3:9S"]
    view = bot_view("TS QS 9D JC", earlier=both_aces_gone, seat=0, bidder=0)
    assert PinochleBot().act(view) == Play(c1("TS"))
    # with an ace of spades still out, the ten is no master: lead low instead
    one_gone = ["0:AS 1:9S 2:KS 3:9S"]
    view = bot_view("TS QS 9D JC", earlier=one_gone, seat=0, bidder=0)
    assert PinochleBot().act(view) == Play(c1("QS"))  # low from the longest suit


def test_the_bot_reads_partners_meld_to_count_cards():
    # Partner showed AS in meld and has not played it: an opponent cannot hold a higher
    # spade than our TS besides the other ace, which is played.
    earlier = ["0:AS 1:9S 2:KS 3:9S"]
    melds = ("", "", "AD AC AH AS", "")
    view = bot_view("TS QS 9D JC", earlier=earlier, seat=0, bidder=0, melds=melds)
    assert PinochleBot().act(view) == Play(c1("TS"))


def test_the_bot_leads_into_a_suit_its_partner_can_ruff():
    # Partner (seat 2) showed a club void on trick 1 by trumping; we overtrumped.
    earlier = ["1:AC 2:9H 3:JC 0:TH"]
    view = bot_view("QC 9D JS QS", earlier=earlier, seat=0, bidder=1)
    assert PinochleBot().act(view) == Play(c1("QC"))


# ------------------------------------------------------------------------ the match


def test_the_better_bot_beats_the_naive_bot():
    """200 seeded games, the better bot's team alternating between seats 0+2 and 1+3.

    Measured: 191 of 200 with the seeds below (95%); the threshold leaves a wide margin.
    """
    games = 200
    wins = 0
    for i in range(games):
        side = i % 2
        bots = [PinochleBot() if s % 2 == side else NaiveBot() for s in range(4)]
        game = play_game(f"match {i}", bots)
        wins += game.winner == side
    assert wins >= 0.85 * games, wins


def test_bots_are_deterministic_across_instances():
    game = dealt()
    view = game.view_for(1)
    for bot in BOTS:
        assert bot().act(view) == bot().act(view)
