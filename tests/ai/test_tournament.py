"""``hundred-server tournament`` (hundred_server/ai/tournament.py): who sits where in every
game of a run, duplicate deals, labels, the table and its JSON, wins recounted from the
records, ratings, plug-in forfeits, --jobs, and the bad arguments."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hundred_server import cli
from hundred_server import games as registry
from hundred_server.ai.plugins import BotLimits
from hundred_server.ai.tournament import (
    Config,
    Entrant,
    GameResult,
    Players,
    TournamentError,
    parse_entrants,
    player_names,
    ranks,
    schedule,
    seating,
    wilson,
)
from hundred_server.games.records import load_record, read_lines, replay

# Games by their shape, found through the registry: one for each seat, and partnerships.
SEAT_GAME = next(n for n in registry.names() if registry.get(n).sides is None)
SIDE_GAME = next(n for n in registry.names() if registry.get(n).sides is not None)
# A partnership game whose default AI beats its naive one (the seed's bot) clearly.
STRONG_VS_NAIVE = next(
    n
    for n in registry.names()
    if registry.get(n).sides is not None
    and type(registry.get(n).bots["default"]()) is not type(registry.get(n).bots["naive"]())
)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(["tournament", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def options(game: str, bots: str, games: str, *more: str) -> list[str]:
    """The command line of a tournament of ``game`` between ``bots`` (comma separated),
    ``games`` deals (or games), then ``more``."""
    return ["--game", game, "--bots", bots, "--games", games, *more]


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    status, out, err = run([*argv, "--json"], capsys)
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == 1
    summary: dict[str, Any] = json.loads(lines[0])
    return summary


def header(path: Path) -> dict[str, Any]:
    head: dict[str, Any] = json.loads(next(iter(read_lines(path))))
    return head


def first_deck(path: Path) -> list[str]:
    for line in read_lines(path):
        obj = json.loads(line)
        if obj["Type"] == "Deal":
            deck: list[str] = obj["Deck"]
            return deck
    raise AssertionError(f"{path} has no Deal")


def deck_codes(game: str, seed: str) -> list[str]:
    return [card.code for card in registry.get(game).seeded_deck(seed, 0)]


def game_over(path: Path) -> dict[str, Any]:
    lines = list(replay(read_lines(path)))
    assert all(line["Type"] == "Score" for line in lines), lines[-1]
    assert lines[-1].get("GameOver") is True
    return lines[-1]


# ----------------------------------------------------------------- the pure parts


def test_entrants_are_labelled_uniquely_in_order() -> None:
    spec = registry.get(SEAT_GAME)
    entrants = parse_entrants(spec, ["naive", "default", "naive", "naive"])
    assert [e.label for e in entrants] == ["naive", "default", "naive#2", "naive#3"]
    assert [e.name for e in entrants] == ["naive", "default", "naive", "naive"]
    assert all(e.plugin is None for e in entrants)


def test_a_plug_in_entrant_is_parsed_for_the_game() -> None:
    spec = registry.get(SIDE_GAME)
    entrants = parse_entrants(spec, ["mybot:Player", "mybot:Player"])
    assert [e.label for e in entrants] == ["mybot:Player", "mybot:Player#2"]
    assert entrants[0].plugin is not None
    assert (entrants[0].plugin.game, entrants[0].plugin.module) == (SIDE_GAME, "mybot")
    assert entrants[0].plugin.cls == "Player"


def test_rotations_move_every_entrant_one_seat_on() -> None:
    spec = registry.get(SEAT_GAME)
    assert [seating(spec, 3, r) for r in range(3)] == [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    sides = registry.get(SIDE_GAME)
    assert sides.sides == (0, 1, 0, 1)
    assert [seating(sides, 2, r) for r in range(2)] == [(0, 1, 0, 1), (1, 0, 1, 0)]


def test_a_side_s_two_seats_are_numbered_in_the_record() -> None:
    entrants = [Entrant("a", "a"), Entrant("b", "b")]
    assert player_names(entrants, (1, 0, 1, 0)) == ["b/1", "a/1", "b/2", "a/2"]
    assert player_names(entrants, (0, 1)) == ["a", "b"]


def test_the_schedule_numbers_games_by_deal_and_rotation() -> None:
    games = schedule("S", 2, 3, duplicate=True)
    assert [(m.index, m.deal, m.seed, m.rotation) for m in games] == [
        (1, 1, "S-1", 0),
        (2, 1, "S-1", 1),
        (3, 1, "S-1", 2),
        (4, 2, "S-2", 0),
        (5, 2, "S-2", 1),
        (6, 2, "S-2", 2),
    ]
    plain = schedule("S", 3, 3, duplicate=False)
    assert [(m.index, m.seed, m.rotation) for m in plain] == [
        (1, "S-1", 0),
        (2, "S-2", 0),
        (3, "S-3", 0),
    ]


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_ranks_put_the_winner_first_then_points_and_share_ties() -> None:
    def result(winner: int, points: tuple[int, ...]) -> GameResult:
        n = len(points)
        return GameResult(1, "s", 0, tuple(range(n)), winner, points, (0,) * n, 1)

    assert ranks(result(2, (50, 50, 110, 20))) == [2, 2, 1, 4]
    # The winner first even when another has more points (a bidder going out).
    assert ranks(result(1, (120, 115, 30))) == [2, 1, 3]


# ----------------------------------------------------------------- whole runs


def test_duplicate_deals_at_every_rotation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """3 deals x 4 rotations of 4 entrants: 12 games; every deal at every rotation,
    each entrant at the right seat, the records named by label."""
    spec = registry.get(SEAT_GAME)
    assert 4 in spec.seat_counts
    bots = ["naive", "naive", "default", "default"]
    labels = ["naive", "naive#2", "default", "default#2"]
    out = tmp_path / "records"
    summary = run_json(
        options(
            SEAT_GAME, ",".join(bots), "3", "--duplicate", "--seed", "dup", "--record", str(out)
        ),
        capsys,
    )
    assert summary["games_played"] == 12
    assert summary["deals"] == 3
    assert summary["rotations"] == 4
    records = sorted(out.iterdir())
    assert [p.name for p in records] == [f"game-{i:05d}.jsonl" for i in range(1, 13)]
    seen: Counter[tuple[int, int]] = Counter()
    for path in records:
        index = int(path.stem.split("-")[1])
        deal, rotation = divmod(index - 1, 4)
        assert first_deck(path) == deck_codes(SEAT_GAME, f"dup-{deal + 1}")
        players = header(path)["Players"]
        assert players == [labels[(seat - rotation) % 4] for seat in range(4)]
        seen[deal, rotation] += 1
    assert seen == Counter({(d, r): 1 for d in range(3) for r in range(4)})
    assert [row["label"] for row in summary["entrants"]] == labels
    assert all(row["games"] == 12 for row in summary["entrants"])


def test_without_duplicate_every_game_is_a_deal_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "records"
    summary = run_json(
        options(SEAT_GAME, "naive,default", "3", "--seed", "p", "--record", str(out)),
        capsys,
    )
    assert summary["games_played"] == 3
    assert summary["rotations"] == 1
    for i in range(1, 4):
        path = out / f"game-{i:05d}.jsonl"
        assert header(path)["Players"] == ["naive", "default"]
        assert first_deck(path) == deck_codes(SEAT_GAME, f"p-{i}")


def test_partnerships_play_as_sides_and_swap_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "records"
    summary = run_json(
        options(
            SIDE_GAME, "default,naive", "2", "--duplicate", "--seed", "side", "--record", str(out)
        ),
        capsys,
    )
    assert summary["games_played"] == 4
    for index, rotation in [(1, 0), (2, 1), (3, 0), (4, 1)]:
        path = out / f"game-{index:05d}.jsonl"
        players = header(path)["Players"]
        if rotation == 0:
            assert players == ["default/1", "naive/1", "default/2", "naive/2"]
        else:
            assert players == ["naive/1", "default/1", "naive/2", "default/2"]
        assert first_deck(path) == deck_codes(SIDE_GAME, f"side-{(index + 1) // 2}")
    rows = summary["entrants"]
    assert [r["games"] for r in rows] == [4, 4]
    assert sum(r["wins"] for r in rows) == 4  # a side wins every game


def recount(path: Path) -> tuple[str, dict[str, int]]:
    """The label of the entrant who won a recorded game, and each entrant's final
    points, from the record alone: its replay (which must reach GameOver) gives the
    scores, by seat or side, and the game it loads gives the winner."""
    final = game_over(path)
    players = header(path)["Players"]
    game = load_record(read_lines(path))
    spec = registry.get(game.game_name)
    place = list(range(len(players))) if spec.sides is None else list(spec.sides)
    assert game.winner is not None
    assert list(game.scores) == final["Score"]
    label = {p: players[place.index(p)].split("/")[0] for p in set(place)}
    return label[game.winner], {label[p]: score for p, score in enumerate(final["Score"])}


@pytest.mark.parametrize("game", [SEAT_GAME, SIDE_GAME])
def test_wins_recount_from_the_records(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = registry.get(game)
    bots = "naive,default" if spec.sides is not None else "naive,default,naive"
    out = tmp_path / "records"
    summary = run_json(
        options(game, bots, "3", "--duplicate", "--seed", "r", "--record", str(out)),
        capsys,
    )
    wins: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for path in sorted(out.iterdir()):
        winner, scores = recount(path)
        wins[winner] += 1
        points.update(scores)
    assert sum(wins.values()) == summary["games_played"] == 3 * len(bots.split(","))
    for row in summary["entrants"]:
        assert row["wins"] == wins[row["label"]]
        assert row["mean_points"] == pytest.approx(points[row["label"]] / row["games"])


def test_json_has_every_field(capsys: pytest.CaptureFixture[str]) -> None:
    summary = run_json(options(SEAT_GAME, "naive,naive", "2"), capsys)
    assert summary["arguments"]["bots"] == ["naive", "naive"]
    assert summary["arguments"]["games"] == 2
    assert summary["arguments"]["duplicate"] is False
    assert isinstance(summary["seed"], str)
    assert summary["seed"]
    assert summary["seconds"] >= 0
    for row in summary["entrants"]:
        assert set(row) >= {
            "label",
            "entrant",
            "games",
            "wins",
            "win_rate",
            "interval",
            "mean_points",
            "forfeits",
            "mu",
            "sigma",
            "ordinal",
        }
        low, high = row["interval"]
        assert 0 <= low <= row["win_rate"] <= high <= 1
        assert row["forfeits"] == 0
        assert row["ordinal"] == pytest.approx(row["mu"] - 3 * row["sigma"])
    assert sum(r["wins"] for r in summary["entrants"]) == 2


def test_the_stronger_entrant_is_rated_higher(capsys: pytest.CaptureFixture[str]) -> None:
    summary = run_json(
        options(STRONG_VS_NAIVE, "naive,default", "10", "--duplicate", "--seed", "strength"),
        capsys,
    )
    naive, default = summary["entrants"]
    assert default["wins"] > naive["wins"]
    assert default["mean_points"] > naive["mean_points"]
    assert default["mu"] > naive["mu"]
    assert default["ordinal"] > naive["ordinal"]
    assert default["interval"][0] > naive["interval"][1]  # the intervals do not overlap


def test_the_table_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        options(STRONG_VS_NAIVE, "naive,default", "4", "--duplicate", "--seed", "t"),
        capsys,
    )
    assert status == 0, err
    lines = out.splitlines()
    title = registry.get(STRONG_VS_NAIVE).title
    assert lines[0].startswith(f"{title}: 4 deals x 2 rotations (duplicate) = 8 games, seed t")
    assert lines[1].split()[:4] == ["entrant", "games", "wins", "win"]
    assert lines[2].split()[:2] == ["default", "8"]  # best rated first
    assert lines[3].split()[:2] == ["naive", "8"]
    assert err == ""  # no progress bar off a terminal


def test_a_plug_in_entrant_plays_and_is_rated(
    plugin_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = run_json(
        options(STRONG_VS_NAIVE, "act_first:Player,default", "3", "--duplicate", "--seed", "first"),
        capsys,
    )
    first, default = summary["entrants"]
    assert first["label"] == "act_first:Player"
    assert first["forfeits"] == 0
    assert default["ordinal"] > first["ordinal"]


@pytest.mark.parametrize(
    ("bots", "games", "more", "plug_in", "more_than"),
    [
        pytest.param("act_raiser:Player,default", "2", ("--seed", "raise"), 0, 0, id="raising"),
        pytest.param(
            "default,act_sleeper:Player",
            "1",
            ("--seed", "slow", "--bot-timeout", "0.1"),
            1,
            3,
            id="past-its-time-limit",
        ),
    ],
)
def test_a_plug_in_that_raises_or_is_past_its_time_limit_forfeits(
    plugin_dir: Path,
    capsys: pytest.CaptureFixture[str],
    bots: str,
    games: str,
    more: tuple[str, ...],
    plug_in: int,
    more_than: int,
) -> None:
    """The tournament finishes, the plug-in (entrant ``plug_in``) forfeiting more than
    ``more_than`` moves, the other none. Each timeout is waited for once (0.1 s); three
    in a row bench the seat for the rest of that game, its moves still counted as
    forfeits."""
    summary = run_json(options(SIDE_GAME, bots, games, *more), capsys)
    assert summary["games_played"] == int(games)
    assert summary["entrants"][plug_in]["forfeits"] > more_than
    assert summary["entrants"][1 - plug_in]["forfeits"] == 0


def test_jobs_give_the_same_table(
    plugin_dir: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The same games and table whatever --jobs, a plug-in among the entrants (one that
    keeps nothing from one game to the next: see the caveat in tournament.py)."""
    args = options(SIDE_GAME, "act_first:Player,naive", "6")
    args += ["--duplicate", "--seed", "jobs"]
    one = run_json([*args, "--jobs", "1", "--record", str(tmp_path / "one")], capsys)
    two = run_json([*args, "--jobs", "2", "--record", str(tmp_path / "two")], capsys)
    assert one["entrants"] == two["entrants"]
    assert one["games_played"] == two["games_played"] == 12
    for path in (tmp_path / "one").iterdir():
        assert path.read_bytes() == (tmp_path / "two" / path.name).read_bytes()


# ----------------------------------------------------------------- bad arguments


def test_an_unknown_built_in_ai_names_the_game_s(capsys: pytest.CaptureFixture[str]) -> None:
    spec = registry.get(SEAT_GAME)
    status, out, err = run(["--game", SEAT_GAME, "--bots", "naive,genius"], capsys)
    assert status == 2
    assert out == ""
    known = ", ".join(spec.bots)
    assert err == (
        f'hundred-server tournament: bad entrant "genius": {spec.title}\'s built-in AIs '
        f"are {known}; or give module:Class\n"
    )
    assert "naive, default, strong" in known


def test_the_wrong_number_of_entrants(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["--game", SIDE_GAME, "--bots", "naive,naive,naive"], capsys)
    assert status == 2
    assert "2 sides: give 2 entrants (the first at seats 0 and 2), got 3" in err
    too_many = max(registry.get(SEAT_GAME).seat_counts) + 1
    status, _, err = run(["--game", SEAT_GAME, "--bots", ",".join(["naive"] * too_many)], capsys)
    assert status == 2
    assert f"entrants (one a seat), got {too_many}" in err
    with pytest.raises(TournamentError):
        parse_entrants(registry.get(SEAT_GAME), ["naive"])


def test_a_bad_plug_in_is_refused_before_any_game(
    plugin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "records"
    for entrant, why in [
        ("no_such_module:Player", "cannot import 'no_such_module'"),
        ("act_first:Nobody", "has no class 'Nobody'"),
        ("act_first:", "a plug-in is GAME=module:Class"),
    ]:
        status, stdout, err = run(
            ["--game", SIDE_GAME, "--bots", f"naive,{entrant}", "--record", str(out)], capsys
        )
        assert status == 2
        assert stdout == ""
        assert err.startswith(f'hundred-server tournament: bad entrant "{entrant}": ')
        assert why in err
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess", "--bots", "naive"], "invalid choice: 'chess'"),
        (["--bots", "naive,naive", "--games", "0"], "must be at least 1, got 0"),
        (["--bots", "naive,naive", "--jobs", "0"], "must be at least 1, got 0"),
        (["--games", "3"], "the following arguments are required: --bots"),
    ],
)
def test_bad_command_lines_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["tournament", *argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_jobs_give_the_same_table_of_built_in_ais(capsys: pytest.CaptureFixture[str]) -> None:
    args = options(SEAT_GAME, "naive,default,naive", "4")
    args += ["--duplicate", "--seed", "jobs3"]
    one = run_json([*args, "--jobs", "1"], capsys)
    three = run_json([*args, "--jobs", "3"], capsys)
    assert one["entrants"] == three["entrants"]
    assert three["games_played"] == 12
    assert three["arguments"]["jobs"] == 3


def test_the_budget_reaches_every_strong_entrant_and_only_it() -> None:
    entrants = parse_entrants(registry.get("whist"), ["strong", "naive"])
    players = Players(Config("whist", entrants, BotLimits(), None, 0.01))
    strong, naive = players.bot(0, 0), players.bot(1, 1)
    assert getattr(strong, "budget", None) == 0.01
    assert type(naive) is registry.get("whist").bots["naive"]
    default = Players(Config("whist", entrants, BotLimits())).bot(0, 0)
    assert getattr(default, "budget", None) == 0.05


def test_the_summary_says_the_budget(capsys: pytest.CaptureFixture[str]) -> None:
    argv = options(SEAT_GAME, "naive,naive", "1", "--budget", "0.02")
    status, out, _ = run([*argv, "--json"], capsys)
    assert status == 0
    assert json.loads(out)["arguments"]["budget"] == 0.02
