"""Self-play: whole games of bots, run summaries, records of a run."""

from __future__ import annotations

import io
import uuid
from pathlib import Path

import pytest

from hundred_server.ai.selfplay import (
    DEFAULT_NAMES,
    _Progress,
    play_game,
    player_names,
    record_path,
    selfplay,
)
from hundred_server.games.hundredandten.bots import NaiveBot
from hundred_server.games.hundredandten.rules import Action, Phase, View
from hundred_server.games.records import load_record, read_lines, record_lines, replay
from hundred_server.protocol.errors import HundredError

SUMMARY_KEYS = {
    "game",
    "games",
    "players",
    "rounds",
    "wins",
    "mean_rounds",
    "seconds",
    "games_per_second",
    "seed",
    "jobs",
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_game_plays_to_the_end(players: int) -> None:
    game = play_game(players, "whole")
    assert game.is_over
    assert game.phase is Phase.GAME_OVER
    assert game.winner is not None
    assert game.scores[game.winner] >= 110
    assert game.players == DEFAULT_NAMES[:players]
    assert len(game.round_results) == game.round == len(game.dealers)


def test_play_game_is_deterministic() -> None:
    assert record_lines(play_game(4, "same")) == record_lines(play_game(4, "same"))
    assert record_lines(play_game(4, "same")) != record_lines(play_game(4, "other"))


def test_play_game_uses_the_bots_given() -> None:
    class Counting:
        def __init__(self) -> None:
            self.calls = 0
            self.inner = NaiveBot()

        def act(self, view: View) -> Action:
            self.calls += 1
            return self.inner.act(view)

    bots = [Counting(), Counting(), Counting()]
    game = play_game(3, "counted", bots)
    assert all(bot.calls > 0 for bot in bots)
    actions = sum(1 for item in game.history if isinstance(item, tuple))
    assert sum(bot.calls for bot in bots) == actions
    assert record_lines(game) == record_lines(play_game(3, "counted"))


def test_play_game_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="2 bots for 3 seats"):
        play_game(3, "x", [NaiveBot(), NaiveBot()])
    with pytest.raises(HundredError) as caught:
        play_game(5, "x")
    assert caught.value.code == "bad_players"
    assert player_names(6) == ["ann", "bob", "cy", "dee", "eve", "fay"]
    assert player_names(7)[6] == "p6"


def test_summary_fields() -> None:
    summary = selfplay(num_players=3, games=6, seed="sum")
    assert set(summary) == SUMMARY_KEYS
    assert summary["games"] == 6
    assert summary["players"] == 3
    assert summary["seed"] == "sum"
    assert len(summary["wins"]) == 3
    assert sum(summary["wins"]) == 6
    games = [play_game(3, f"sum-{i}") for i in range(1, 7)]
    assert summary["rounds"] == sum(len(g.round_results) for g in games)
    assert summary["mean_rounds"] == pytest.approx(summary["rounds"] / 6)
    assert [sum(g.winner == s for g in games) for s in range(3)] == summary["wins"]
    assert summary["seconds"] > 0
    assert summary["games_per_second"] == pytest.approx(6 / summary["seconds"])


def test_same_seed_same_run_and_random_seed_reported() -> None:
    first = selfplay(num_players=2, games=5, seed="again")
    second = selfplay(num_players=2, games=5, seed="again")
    for key in ("rounds", "wins", "mean_rounds", "seed"):
        assert first[key] == second[key]
    fresh = selfplay(num_players=2, games=2)
    assert str(uuid.UUID(fresh["seed"])) == fresh["seed"]
    repeat = selfplay(num_players=2, games=2, seed=fresh["seed"])
    assert (repeat["rounds"], repeat["wins"]) == (fresh["rounds"], fresh["wins"])


def test_zero_games() -> None:
    summary = selfplay(games=0, seed="none")
    assert summary["games"] == 0
    assert summary["rounds"] == 0
    assert summary["mean_rounds"] == 0.0
    assert summary["wins"] == [0, 0, 0, 0]


def test_records_are_written_and_replay(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "runs"
    summary = selfplay(num_players=4, games=3, seed="rec", record_dir=target)
    files = sorted(p.name for p in target.iterdir())
    assert files == ["game-00001.jsonl", "game-00002.jsonl", "game-00003.jsonl"]
    assert record_path(target, 12) == str(target / "game-00012.jsonl")
    winners = []
    for index in (1, 2, 3):
        path = target / f"game-{index:05d}.jsonl"
        out = list(replay(read_lines(path)))
        assert out[-1]["GameOver"] is True
        winners.append(out[-1]["Winner"])
        game = load_record(read_lines(path))
        assert game.seed == f"rec-{index}"
        assert record_lines(game) == record_lines(play_game(4, f"rec-{index}"))
    assert [winners.count(s) for s in range(4)] == summary["wins"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal() -> None:
    terminal = _Terminal()
    selfplay(num_players=2, games=4, seed="bar", progress=True, progress_stream=terminal)
    shown = terminal.getvalue()
    assert shown.startswith("\r[")
    assert shown.endswith("] 4/4\n")
    assert "\r[" + "#" * 30 + "] 4/4" in shown
    assert "] 2/4" in shown
    pipe = io.StringIO()
    selfplay(num_players=2, games=2, seed="bar", progress=True, progress_stream=pipe)
    assert pipe.getvalue() == ""
    quiet = _Terminal()
    selfplay(num_players=2, games=2, seed="bar", progress_stream=quiet)
    assert quiet.getvalue() == ""


def test_progress_bar_redraws_sparingly() -> None:
    terminal = _Terminal()
    bar = _Progress(10_000, terminal)
    for done in range(1, 10_001):
        bar.update(done)
    assert terminal.getvalue().count("\r") <= 201
    assert terminal.getvalue().endswith(f"[{'#' * 30}] 10000/10000\n")


def test_jobs_play_the_same_games_in_processes(tmp_path: Path) -> None:
    one = selfplay(num_players=3, games=12, seed="jobs", record_dir=tmp_path / "one")
    two = selfplay(num_players=3, games=12, seed="jobs", record_dir=tmp_path / "two", jobs=2)
    for key in ("games", "players", "rounds", "wins", "mean_rounds", "seed"):
        assert one[key] == two[key], key
    assert (one["jobs"], two["jobs"]) == (1, 2)
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "two").iterdir())
    assert len(names) == 12
    for name in names:
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()
