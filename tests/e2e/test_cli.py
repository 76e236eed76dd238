"""The command line: replay, selfplay and demo, in-process and as a real process."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hundred_server import cli
from hundred_server.ai.plugins import BotLimits
from hundred_server.ai.pool import PoolLimits, default_workers
from hundred_server.ai.selfplay import play_game
from hundred_server.cli import main
from hundred_server.config import AISettings, Listeners, Settings, StoreSettings
from hundred_server.core.lobby import Limits
from hundred_server.games.records import dumps_line, record_lines, replay


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(record_lines(play_game(3, "cli"))) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def bad_record(tmp_path: Path) -> Path:
    lines = record_lines(play_game(3, "cli"))
    lines[5] = '{"Type":"Play","Playerid":0,"PlayedCard":"1X"}'
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_replay_prints_scores(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record)]) == 0
    out, err = capsys.readouterr()
    expected = [dumps_line(o) for o in replay(record_lines(play_game(3, "cli")))]
    assert out.splitlines() == expected
    assert json.loads(out.splitlines()[-1])["GameOver"] is True
    assert err == ""


def test_replay_stops_at_the_first_error(
    bad_record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(bad_record)]) == 2
    out, _ = capsys.readouterr()
    last = json.loads(out.splitlines()[-1])
    assert last == {
        "Type": "Error",
        "Line": 6,
        "Code": "bad_card",
        "Message": last["Message"],
    }
    assert "'1X'" in last["Message"]


def test_replay_of_a_truncated_record_is_not_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = record_lines(play_game(2, "cut"))
    path = tmp_path / "cut.jsonl"
    path.write_text("\n".join(lines[: len(lines) // 2]), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out, _ = capsys.readouterr()
    assert out
    assert all(json.loads(line)["Type"] == "Score" for line in out.splitlines())


def test_replay_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.jsonl"
    assert main(["replay", str(missing)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "cannot read" in err
    assert str(missing) in err
    assert "No such file" in err


def test_replay_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_stdin(
    record: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(record.read_bytes())))
    assert main(["replay", "-"]) == 0
    out, _ = capsys.readouterr()
    assert json.loads(out.splitlines()[-1])["GameOver"] is True


def test_replay_stdin_without_a_buffer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("not json\n"))
    assert main(["replay", "-"]) == 2
    assert json.loads(capsys.readouterr().out)["Code"] == "bad_json"


def test_selfplay_prints_one_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "records"
    code = main(
        ["selfplay", "--players", "2", "--games", "3", "--seed", "s", "--record", str(target)]
    )
    assert code == 0
    out, err = capsys.readouterr()
    (line,) = out.splitlines()
    summary = json.loads(line)
    assert summary["games"] == 3
    assert summary["players"] == 2
    assert summary["seed"] == "s"
    # Seconds as people read them: to the millisecond, never 15 digits.
    assert summary["seconds"] == round(summary["seconds"], 3)
    assert len(line.split('"seconds":')[1].split(",")[0]) <= 8
    assert summary["games_per_second"] == round(summary["games_per_second"], 2)
    assert sorted(p.name for p in target.iterdir()) == [
        "game-00001.jsonl",
        "game-00002.jsonl",
        "game-00003.jsonl",
    ]
    assert err == ""


def test_tournament_help_lists_every_built_in_ai(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "built-in AI names (naive, default, strong)" in shown
    assert "every game has naive, default and strong" in shown


def test_selfplay_defaults_and_progress_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "2", "--progress"]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary["players"] == 4
    assert len(summary["seed"]) == 36  # a uuid4
    assert err == ""  # stderr is not a terminal here


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--port", "nope"],
        ["serve", "--grace", "-1"],
        ["serve", "--grace", "nan"],
        ["serve", "--rate", "0"],
        ["serve", "--rate", "nan"],
        ["serve", "--idle-timeout", "-1"],
        ["serve", "--idle-timeout", "inf"],
        ["serve", "--turn-timeout", "soon"],
        ["serve", "--ai", "clever"],
        ["serve", "--ai-budget", "0"],
        ["serve", "--ai-budget", "11"],
        ["serve", "--ai-budget", "soon"],
        ["tournament", "--bots", "naive,naive", "--budget", "-1"],
        ["export"],
        ["export", "x"],
        ["serve", "--db", "a.db", "--store", "postgresql://ann@h/g"],
        ["games", "--store", "postgresql://ann@h/g", "--db", "a.db"],
        ["selfplay", "--players", "5"],
        ["selfplay", "--games", "0"],
        ["selfplay", "--games", "many"],
        ["selfplay", "--game", "whist", "--players", "3"],
        ["selfplay", "--game", "chess"],
        ["demo", "--game", "whist"],
        ["demo", "--players", "1"],
        ["replay"],
        ["fly"],
    ],
)
def test_bad_command_lines_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert "usage:" in capsys.readouterr().err


def serve_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Settings, list[str]]]:
    """``_serve`` replaced: what each ``serve`` would serve with (its settings, then its
    plug-in bots), in order."""
    calls: list[tuple[Settings, list[str]]] = []
    monkeypatch.setattr(cli, "_serve", lambda settings, bots: calls.append((settings, bots)) or 0)
    return calls


def serve_settings(
    *,
    store: dict[str, Any] | None = None,
    ai: dict[str, Any] | None = None,
    **changed: Any,
) -> Settings:
    """The settings ``serve`` builds by default (no environment), ``changed``: the
    ``store`` and ``ai`` groups' fields, and the settings' own."""
    return Settings(
        limits=changed.pop("limits", Limits()),
        listeners=changed.pop("listeners", Listeners("127.0.0.1", 7110)),
        store=StoreSettings(
            **{"location": "hundred.db", "commit_wait": 0.05, "commit_batch": 16, **(store or {})}
        ),
        ai=AISettings(
            **{
                "level": "strong",
                "budget": None,
                "pool": PoolLimits(default_workers()),
                "plugins": (),
                "bot_limits": BotLimits(),
                **(ai or {}),
            }
        ),
        **{"bus": None, "log_level": "INFO", "loop": "auto", **changed},
    )


def wherever(settings: Settings) -> Settings:
    """``settings`` with the default limits, address and store: what a test that leaves
    the environment's HUNDRED_HOST, HUNDRED_PORT, HUNDRED_DB and HUNDRED_STORE as they
    are compares."""
    listeners = replace(settings.listeners, host="127.0.0.1", port=7110)
    store = replace(settings.store, location="hundred.db")
    return replace(settings, limits=Limits(), listeners=listeners, store=store)


def test_serve_commit_wait_is_passed_on_and_checked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = serve_calls(monkeypatch)
    assert main(["serve", "--commit-wait", "0"]) == 0
    assert calls.pop()[0].store.commit_wait == 0.0
    with pytest.raises(SystemExit):
        main(["serve", "--commit-wait", "-1"])
    assert "must be 0 to 86400 seconds, got '-1'" in capsys.readouterr().err
    assert main(["serve", "--commit-batch", "3"]) == 0
    assert calls.pop()[0].store.commit_batch == 3
    with pytest.raises(SystemExit):
        main(["serve", "--commit-batch", "0"])
    assert "--commit-batch" in capsys.readouterr().err


def test_no_command_means_serve_with_its_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = serve_calls(monkeypatch)
    monkeypatch.delenv("HUNDRED_HOST", raising=False)
    monkeypatch.delenv("HUNDRED_PORT", raising=False)
    monkeypatch.delenv("HUNDRED_DB", raising=False)
    monkeypatch.delenv("HUNDRED_STORE", raising=False)
    monkeypatch.delenv("HUNDRED_HTTP_PORT", raising=False)
    monkeypatch.delenv("HUNDRED_LOOP", raising=False)
    monkeypatch.delenv("HUNDRED_PROXY_PROTOCOL", raising=False)
    monkeypatch.delenv("HUNDRED_FORWARDED_FOR", raising=False)
    monkeypatch.delenv("HUNDRED_AI_WORKERS", raising=False)
    assert main([]) == 0
    defaults = Settings(
        Limits(),
        Listeners("127.0.0.1", 7110, None, None, proxy_protocol=False, forwarded_for=False),
        StoreSettings("hundred.db", keep_days=None, commit_wait=0.05, commit_batch=16),
        AISettings("strong", None, PoolLimits(default_workers()), (), BotLimits()),
        bus=None,
        log_level="INFO",
        loop="auto",
    )
    assert calls == [(defaults, [])]
    assert calls == [(serve_settings(), [])]


def test_serve_ai_pool_options_and_their_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = serve_calls(monkeypatch)
    monkeypatch.delenv("HUNDRED_AI_WORKERS", raising=False)
    assert main(["serve", "--memory", "--ai-workers", "3", "--ai-queue", "0"]) == 0
    assert main(["serve", "--memory", "--ai-workers", "0"]) == 0
    assert main(["serve", "--memory", "--ai-workers", "2", "--ai-timeout", "7.5"]) == 0
    monkeypatch.setenv("HUNDRED_AI_WORKERS", "5")
    assert main(["serve", "--memory"]) == 0
    pools = [call[0].ai.pool for call in calls]
    assert pools == [
        PoolLimits(3, 0),
        None,  # in process
        PoolLimits(2, None, 7.5),
        PoolLimits(5),
    ]
    assert PoolLimits(3).bound == 3 * 64
    assert default_workers() == max(1, (os.cpu_count() or 1) - 1)


def test_serve_refuses_an_ai_timeout_within_the_budget(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_calls(monkeypatch)
    with pytest.raises(SystemExit):
        main(["serve", "--memory", "--ai-budget", "5", "--ai-timeout", "2"])
    said = "--ai-timeout (2 s) must be more than the strong AI's budget (5 s, --ai-budget)"
    assert said in capsys.readouterr().err
    in_process = ["--ai-workers", "0", "--ai-budget", "5", "--ai-timeout", "2"]
    assert main(["serve", "--memory", *in_process]) == 0


@pytest.mark.parametrize("value", ["-1", "two", "1.5"])
def test_serve_refuses_a_bad_ai_workers(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--memory", "--ai-workers", value])
    assert "--ai-workers" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flag", "variable", "option"),
    [
        ("--proxy-protocol", "HUNDRED_PROXY_PROTOCOL", "proxy_protocol"),
        ("--forwarded-for", "HUNDRED_FORWARDED_FOR", "forwarded_for"),
    ],
)
def test_serve_balancer_options_from_their_flags_or_the_environment(
    monkeypatch: pytest.MonkeyPatch, flag: str, variable: str, option: str
) -> None:
    calls = serve_calls(monkeypatch)
    monkeypatch.delenv(variable, raising=False)
    assert main(["serve", "--memory"]) == 0
    assert main(["serve", "--memory", flag]) == 0
    monkeypatch.setenv(variable, "1")
    assert main(["serve", "--memory"]) == 0
    monkeypatch.setenv(variable, "0")
    assert main(["serve", "--memory"]) == 0
    flags = [getattr(call[0].listeners, option) for call in calls]
    assert flags == [False, True, True, False]


def test_serve_reads_host_and_port_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = serve_calls(monkeypatch)
    monkeypatch.delenv("HUNDRED_HTTP_PORT", raising=False)
    monkeypatch.setenv("HUNDRED_HOST", "127.0.0.2")
    monkeypatch.setenv("HUNDRED_PORT", "7200")
    monkeypatch.setenv("HUNDRED_DB", "elsewhere.db")
    monkeypatch.delenv("HUNDRED_STORE", raising=False)
    monkeypatch.setenv("HUNDRED_LOOP", "asyncio")
    argv = ["serve", "--log-level", "WARNING", "--rate", "5", "--idle-timeout", "9"]
    assert main([*argv, "--grace", "2.5", "--turn-timeout", "30"]) == 0
    limits = Limits(rate=5.0, burst=10, idle_timeout=9.0, grace=2.5, turn_timeout=30.0)
    expected = serve_settings(
        limits=limits,
        listeners=Listeners("127.0.0.2", 7200),
        store={"location": "elsewhere.db"},
        log_level="WARNING",
        loop="asyncio",
    )
    assert calls == [(expected, [])]
    assert main([*argv, "--memory", "--bot", "whist=m:P", "--classic-port", "7111"]) == 0
    settings, bots = calls[-1]
    assert (settings.store.location, bots, settings.listeners.classic_port) == (
        None,
        ["whist=m:P"],
        7111,
    )


def test_serve_games_and_export_take_a_store_url_from_the_flag_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--store URL, else --db PATH, else $HUNDRED_STORE, else $HUNDRED_DB, else the
    default file; --memory keeps nothing whatever is given."""
    calls: list[tuple[object, ...]] = []
    monkeypatch.setattr(
        cli, "_serve", lambda settings, bots: calls.append((settings.store.location,)) or 0
    )
    monkeypatch.setattr(cli, "_games", lambda where: calls.append((where,)) or 0)
    monkeypatch.setattr(cli, "_export", lambda *args: calls.append(args) or 0)
    monkeypatch.delenv("HUNDRED_DB", raising=False)
    monkeypatch.delenv("HUNDRED_STORE", raising=False)
    url = "postgresql://ann@db.example/games"
    for argv in (["serve"], ["games"], ["export", "3"]):
        assert main([*argv, "--store", url]) == 0
    assert calls == [(url,), (url,), (url, 3, False, False)]
    monkeypatch.setenv("HUNDRED_DB", "x.db")
    monkeypatch.setenv("HUNDRED_STORE", url)
    calls.clear()
    for argv in (["serve"], ["serve", "--db", "mine.db"], ["serve", "--memory"], ["games"]):
        assert main(argv) == 0
    assert calls == [(url,), ("mine.db",), (None,), (url,)]


def test_a_store_url_of_an_unknown_kind_is_refused_before_anything_starts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for url, said in (
        ("mysql://ann:pw@h/g", "unknown kind of store mysql:// in mysql://ann:***@h/g"),
        ("games.db", "not a store URL: 'games.db'"),
    ):
        assert main(["serve", "--port", "0", "--store", url]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"hundred-server serve: {said} (")
        assert "pw@" not in err


def test_serve_takes_the_abuse_limits_and_a_retention(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = serve_calls(monkeypatch)
    argv = ["serve", "--max-per-address", "3", "--max-tables-per-address", "4"]
    argv += ["--max-waiting-per-address", "1", "--table-idle-timeout", "60", "--keep-days", "30"]
    monkeypatch.delenv("HUNDRED_LOOP", raising=False)
    assert main([*argv, "--loop", "uvloop"]) == 0
    assert wherever(calls.pop()[0]) == serve_settings(store={"keep_days": 30.0}, loop="uvloop")
    assert main(argv) == 0
    limits = calls[0][0].limits
    assert isinstance(limits, Limits)
    assert limits.max_connections_per_address == 3
    assert limits.max_tables_per_address == 4
    assert limits.max_waiting_per_address == 1
    assert limits.table_idle_timeout == 60.0
    assert wherever(calls[0][0]) == serve_settings(store={"keep_days": 30.0})


def test_serve_takes_the_lobby_chat_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = serve_calls(monkeypatch)
    assert main(["serve", "--chat-fanout", "500"]) == 0
    assert main(["serve"]) == 0
    assert [c[0].limits.chat_fanout for c in calls] == [500, 10_000]


def test_serve_takes_how_long_a_finished_games_tokens_get_its_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = serve_calls(monkeypatch)
    assert main(["serve", "--result-hold", "30"]) == 0
    assert main(["serve"]) == 0
    assert [c[0].limits.result_hold for c in calls] == [30.0, 600.0]
    with pytest.raises(SystemExit):
        main(["serve", "--result-hold", "-1"])


def test_serve_takes_the_handshake_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = serve_calls(monkeypatch)
    argv = ["--handshake-timeout", "1.5", "--max-half-open-per-address", "4"]
    assert main(["serve", *argv, "--max-half-open", "99"]) == 0
    assert main(["serve"]) == 0
    assert [
        (got.handshake_timeout, got.max_half_open_per_address, got.max_half_open)
        for got in (c[0].limits for c in calls)
    ] == [(1.5, 4, 99), (3.0, 8, 512)]


def test_serve_takes_the_default_ai_and_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = serve_calls(monkeypatch)
    assert main(["serve", "--ai", "naive", "--ai-budget", "0.2"]) == 0
    assert calls[0][0].ai.level == "naive"
    assert calls[0][0].ai.budget == 0.2


def test_serve_takes_the_web_port_from_the_flag_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = serve_calls(monkeypatch)
    monkeypatch.delenv("HUNDRED_HTTP_PORT", raising=False)
    assert main(["serve", "--http-port", "7180"]) == 0
    monkeypatch.setenv("HUNDRED_HTTP_PORT", "7181")
    assert main(["serve"]) == 0
    assert main(["serve", "--http-port", "7182"]) == 0  # the flag wins
    assert [c[0].listeners.http_port for c in calls] == [7180, 7181, 7182]


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--keep-days", "0"],
        ["serve", "--keep-days", "30", "--memory"],
        ["serve", "--max-per-address", "0"],
        ["serve", "--table-idle-timeout", "-1"],
        ["serve", "--chat-fanout", "0"],
        ["serve", "--handshake-timeout", "0"],
        ["serve", "--max-half-open-per-address", "0"],
        ["serve", "--max-half-open", "-3"],
    ],
)
def test_bad_abuse_limits_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_help_names_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    for command in ("replay", "selfplay", "demo", "games", "export"):
        assert command in out


def test_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "show", "--players", "2"]) == 0
    out = capsys.readouterr().out
    game = play_game(2, "show")
    assert "Seed show" in out
    assert "Round 1 · ann deals" in out
    assert f"Round {game.round} ·" in out
    winner = game.players[game.winner or 0]
    assert f"🏆 {winner} wins with {max(game.scores)} after {game.round} rounds" in out


# ------------------------------------------------------------------ a real process


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "hundred_server", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_process_replay_exit_codes(record: Path, bad_record: Path) -> None:
    good = run("replay", str(record))
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout.splitlines()[-1])["GameOver"] is True
    bad = run("replay", "-", stdin=bad_record.read_bytes())
    assert bad.returncode == 2
    assert json.loads(bad.stdout.splitlines()[-1])["Code"] == "bad_card"
    missing = run("replay", str(record) + ".missing")
    assert missing.returncode == 2
    assert missing.stdout == b""
    assert b"cannot read" in missing.stderr


def test_selfplay_plays_any_registered_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--game", "whist", "--games", "3", "--seed", "w"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["game"], summary["games"], summary["players"]) == ("whist", 3, 4)
    assert len(summary["wins"]) == 2  # North-South, East-West
    assert sum(summary["wins"]) == 3


def test_forwarded_for_without_a_browser_port_says_it_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    served: list[Settings] = []

    async def run(settings: Settings, *args: object) -> None:
        served.append(settings)

    monkeypatch.setattr("hundred_server.io.server.run", run)
    monkeypatch.delenv("HUNDRED_HTTP_PORT", raising=False)
    assert main(["serve", "--memory", "--port", "0", "--forwarded-for"]) == 0
    assert "--forwarded-for is for the browser port, and there is none" in capsys.readouterr().err
    assert served[0].listeners.forwarded_for is True
    assert main(["serve", "--memory", "--port", "0", "--forwarded-for", "--http-port", "0"]) == 0
    assert capsys.readouterr().err == ""
    assert served[1].listeners.forwarded_for is True
