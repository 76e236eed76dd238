"""What each game's own tests once wrote out for themselves, the same but for the game's
values, written once here and given every game's: its players, its AIs, its quick
settings and what it is expected to do. What is a game's own stays in its own files."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from hundred_server import games
from hundred_server.core import driver
from hundred_server.games.base import Bot
from hundred_server.games.hundert.bots import HundertBot
from hundred_server.games.hundert.strong import StrongBot as HundertStrong
from hundred_server.games.hundredandten import bots as hundredandten_bots
from hundred_server.games.hundredandten.strong import StrongBot as HundredAndTenStrong
from hundred_server.games.pinochle import bots as pinochle_bots
from hundred_server.games.pinochle import rules as pinochle_rules
from hundred_server.games.pinochle.strong import StrongBot as PinochleStrong
from hundred_server.games.rook.bots import RookBot
from hundred_server.games.rook.strong import StrongBot as RookStrong
from hundred_server.games.whist import rules as whist_rules
from hundred_server.games.whist.bots import WhistBot
from hundred_server.games.whist.strong import StrongBot as WhistStrong
from hundred_server.protocol.errors import CardCodeError, HundredError, IllegalActionError
from tests.games.hundert import test_hundert_records as hundert_records
from tests.games.hundert import test_hundert_strong as hundert
from tests.games.hundredandten import test_hundredandten_strong as hundredandten
from tests.games.hundredandten import test_records as hundredandten_records
from tests.games.pinochle import test_pinochle as pinochle_engine
from tests.games.pinochle import test_pinochle_records as pinochle_records
from tests.games.pinochle import test_pinochle_strong as pinochle
from tests.games.rook import test_rook_records as rook_records
from tests.games.rook import test_rook_strong as rook
from tests.games.whist import test_whist as whist_engine
from tests.games.whist import test_whist_strong as whist
from tests.games.whist import test_whist_wire as whist_records
from tests.support.game_checks import check_replay_error

# ------------------------------------------------------------------------ the engines

#: Each game's rules, and its engine tests' module (its players, deals and snapshot).
ENGINES = [(pinochle_rules, pinochle_engine), (whist_rules, whist_engine)]
ENGINE_IDS = ["pinochle", "whist"]


@pytest.mark.parametrize(
    ("rules", "tests", "title"),
    [(pinochle_rules, pinochle_engine, "Pinochle"), (whist_rules, whist_engine, "Whist")],
    ids=ENGINE_IDS,
)
@pytest.mark.parametrize("n", [0, 3, 5])
def test_the_game_takes_exactly_four_players(rules: Any, tests: Any, title: str, n: int) -> None:
    with pytest.raises(IllegalActionError) as info:
        rules.Game((*tests.P4, "eve")[:n])
    assert info.value.code == "bad_players"
    assert info.value.message == f"{title} takes exactly 4 players, got {n}"


@pytest.mark.parametrize("rules", [r for r, _ in ENGINES], ids=ENGINE_IDS)
def test_player_names_must_differ(rules: Any) -> None:
    with pytest.raises(IllegalActionError) as info:
        rules.Game(["ann", "bob", "ann", "cy"])
    assert info.value.code == "duplicate_name"


@pytest.mark.parametrize("rules", [r for r, _ in ENGINES], ids=ENGINE_IDS)
def test_a_play_must_name_a_card(rules: Any) -> None:
    with pytest.raises(CardCodeError):
        rules.Play("AH")
    with pytest.raises(CardCodeError):
        rules.Play(12)


@pytest.mark.parametrize(
    ("make", "seat"),
    [(pinochle_engine.dealt, 4), (lambda: whist_engine.dealt(whist_engine.RULE_HANDS), -1)],
    ids=ENGINE_IDS,
)
def test_bad_seat_in_queries(make: Callable[[], Any], seat: int) -> None:
    game = make()
    for query in (game.legal_actions, game.view_for, game.hand):
        with pytest.raises(IllegalActionError) as info:
            query(seat)
        assert info.value.code == "bad_seat"


@pytest.mark.parametrize(
    ("rules", "tests", "over"),
    [
        (pinochle_rules, pinochle_engine, pinochle_engine.transcript_played_out),
        (whist_rules, whist_engine, whist_engine.played_by_random_bots),
    ],
    ids=ENGINE_IDS,
)
def test_the_history_replays_into_a_new_game(
    rules: Any, tests: Any, over: Callable[[], Any]
) -> None:
    """A game played to its end (Whist's seeded), replayed from its history into a new
    game (unseeded): the same game."""
    game = over()
    replay = rules.Game(tests.P4)
    for entry in game.history:
        if isinstance(entry, rules.DealRecord):
            assert (replay.round, replay.dealer) == (entry.hand, entry.dealer)
            replay.deal(entry.deck)
        else:
            replay.apply(*entry)
    assert tests.snapshot(replay) == tests.snapshot(game)


@pytest.mark.parametrize(
    ("module", "make", "act", "code"),
    [
        pytest.param(module, make, act, code, id=f"{game}-{code}")
        for game, (_, module) in zip(ENGINE_IDS, ENGINES, strict=True)
        for make, act, code in module.ILLEGAL_ACTIONS
    ],
)
def test_an_illegal_action_has_its_code_and_changes_nothing(
    module: Any, make: Callable[[], Any], act: Callable[[Any], object], code: str
) -> None:
    game = make()
    before = module.snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        act(game)
    assert info.value.code == code
    assert isinstance(info.value, HundredError)
    assert info.value.message
    assert module.snapshot(game) == before


# ------------------------------------------------------------------ the strong AIs
#
# No test of a strong AI times it: their speed and strength are measured with the
# tournament command and bench/strong.py (``make bench-strong``; README, tournament
# section; each strong.py's docstring says how).


@pytest.mark.parametrize(
    ("game", "strong", "default", "naive"),
    [
        ("pinochle", PinochleStrong, pinochle_bots.PinochleBot, pinochle_bots.NaiveBot),
        ("whist", WhistStrong, WhistBot, WhistBot),
        ("hundert", HundertStrong, HundertBot, HundertBot),
        ("rook", RookStrong, RookBot, RookBot),
        (
            "hundredandten",
            HundredAndTenStrong,
            hundredandten_bots.NaiveBot,
            hundredandten_bots.NaiveBot,
        ),
    ],
)
def test_the_strong_ai_is_registered_without_changing_the_other_ais(
    game: str, strong: type[Bot], default: type[Bot], naive: type[Bot]
) -> None:
    spec = games.get(game)
    assert spec.bots["strong"] is strong
    assert spec.bots["default"] is default
    assert spec.bots["naive"] is naive
    assert spec.bot is default
    assert strong.name == "strong"


@pytest.mark.parametrize(
    ("game", "players", "strong", "steps"),
    [
        (
            "pinochle",
            pinochle.PLAYERS,
            lambda seed: PinochleStrong(seed=seed, **pinochle.QUICK),
            70,
        ),
        ("whist", whist.PLAYERS, lambda seed: WhistStrong(seed=seed, **whist.QUICK), 60),
        ("hundert", hundert.NAMES[:3], lambda seed: HundertStrong(seed=seed, **hundert.QUICK), 80),
        ("rook", rook.NAMES[:4], rook.quick, 120),
        (
            "hundredandten",
            hundredandten.PLAYERS,
            lambda seed: HundredAndTenStrong(seed=seed, **hundredandten.QUICK),
            120,
        ),
    ],
)
def test_the_same_seed_replays_the_same_game_of_strong_ais(
    game: str, players: Sequence[str], strong: Callable[[int], Bot], steps: int
) -> None:
    """The first ``steps`` of the driver's steps of a game of strong AIs, each seeded 3,
    twice: the same history."""
    spec = games.get(game)

    def record(seed: int) -> list[object]:
        played = spec.new_game(list(players), "replay")
        bots = [strong(seed) for _ in players]
        for _ in range(steps):
            driver.step(played, spec, "replay", bots)
        return list(played.history)

    assert record(3) == record(3)


# ------------------------------------------------------------------------- records

#: Each game's record tests' module, and its error cases: (name, lines, the Line and
#: the Code of the error replay gives, a piece of its Message that quotes the input).
RECORD_ERRORS = [
    ("pinochle", pinochle_records, pinochle_records.ERROR_CASES),
    ("whist", whist_records, whist_records.ERROR_CASES),
    ("hundert", hundert_records, hundert_records.ERROR_CASES),
    ("hundredandten", hundredandten_records, hundredandten_records.ERROR_CASES),
    (
        "rook",
        rook_records,
        [(code, lines, line, code, quoted) for code, lines, line, quoted in rook_records.CASES],
    ),
]


@pytest.mark.parametrize(
    ("module", "lines", "line", "code", "quoted"),
    [
        pytest.param(module, lines, line, code, quoted, id=f"{game}-{name}")
        for game, module, cases in RECORD_ERRORS
        for name, lines, line, code, quoted in cases
    ],
)
def test_a_bad_record_stops_replay_with_its_error(
    module: Any, lines: list[str], line: int, code: str, quoted: str
) -> None:
    check_replay_error(module.replay, module.load_record, lines, line, code, quoted)


@pytest.mark.parametrize(
    "module",
    [pinochle_records, whist_records, hundert_records],
    ids=["pinochle", "whist", "hundert"],
)
def test_every_record_error_code_is_tested(module: Any) -> None:
    assert {case[3] for case in module.ERROR_CASES} == set(module.FORMAT.codes)


@pytest.mark.parametrize(
    ("module", "number", "bad", "kept"),
    [
        # in hand 2
        (pinochle_records, 70, pinochle_records.play(0, "1X"), pinochle_records.SCORES[:1]),
        (whist_records, 60, whist_records.play(0, "1X"), whist_records.SCORES[:1]),
        (hundert_records, 31, hundert_records.play(1, "1X"), hundert_records.SCORES[:2]),
        (hundredandten_records, 41, "{", hundredandten_records.HAND_SCORES[:3]),
    ],
    ids=["pinochle", "whist", "hundert", "hundredandten"],
)
def test_a_bad_line_keeps_the_scores_before_it(
    module: Any, number: int, bad: dict[str, Any] | str, kept: list[dict[str, Any]]
) -> None:
    """The record's line ``number`` made ``bad``: replay gives the Score lines before it
    (``kept``), then the Error at that line."""
    out = list(module.replay(module.edit.replace(number, bad)))
    assert out[:-1] == kept
    assert (out[-1]["Type"], out[-1]["Line"]) == ("Error", number)


@pytest.mark.parametrize(
    ("module", "number", "bad", "cut"),
    [
        pytest.param(pinochle_records, 8, pinochle_records.play(2, "1X"), 10, id="pinochle"),
        pytest.param(whist_records, 3, whist_records.play(1, "1X"), 5, id="whist"),
    ],
)
def test_only_the_first_bad_line_is_reported(
    module: Any, number: int, bad: dict[str, Any], cut: int
) -> None:
    """The record's line ``number`` made ``bad``, cut after ``cut`` lines, and a line
    that is not JSON after it: one Error, for line ``number``."""
    lines = [*module.edit.replace(number, bad)[:cut], "not json"]
    assert [o["Line"] for o in module.replay(lines) if o["Type"] == "Error"] == [number]
