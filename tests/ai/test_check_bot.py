"""``hundred-server check-bot``: the Whist assignment's checks, each PASS or FAIL with
why; exit status 0 only if all pass. The plug-in runs in a worker, so hostile ones
fail their checks without stopping the checker."""

from __future__ import annotations

from pathlib import Path

import pytest

from hundred_server.cli import main

ROOT = Path(__file__).resolve().parents[2]
SIX = "PlayCard takes the 6 parameters (hand, trick, trump, position, tricks, score)"
STRUCTURE = [
    "PASS the module {m} imports",
    "PASS {m} has a class Player",
    "PASS Player has a method PlayCard",
    "PASS PlayCard takes the 6 parameters (hand, trick, trump, position, tricks, score) "
    "without defaults",
    "PASS Player() makes a player",
]


def check(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    status = main(["check-bot", *argv, "--seed", "checks", "--bot-timeout", "0.3"])
    return status, capsys.readouterr().out.splitlines()


def test_the_example_bot_passes_every_check(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "clients"))
    status, lines = check(["whist=whist_bot:Player", "--positions", "300"], capsys)
    assert lines == [
        *(line.format(m="whist_bot") for line in STRUCTURE),
        "PASS PlayCard answers within 0.3 s without raising or crashing (300 positions)",
        "PASS PlayCard returns a Card (300 positions)",
        "PASS PlayCard returns a card from its hand (300 positions)",
        "PASS PlayCard follows suit when it can (300 positions)",
    ]
    assert status == 0


@pytest.mark.parametrize(
    ("name", "failed"),
    [
        ("strings", ["FAIL PlayCard returns a Card: 40 of 40 positions; first at position 0"]),
        ("outsider", ["FAIL PlayCard returns a card from its hand: 40 of 40 positions"]),
        (
            "lazy_signature",
            [
                f"FAIL {SIX} without defaults: PlayCard(self, hand, trick, trump, position, "
                "tricks=(), score=(0, 0)) gives defaults to tricks, score",
                "FAIL PlayCard follows suit when it can: ",
            ],
        ),
        (
            "short_signature",
            [
                f"FAIL {SIX} without defaults: PlayCard(self, hand, trick, trump) takes 3, not 6",
                "FAIL PlayCard answers within 0.3 s without raising or crashing: 40 of 40 "
                "positions",
            ],
        ),
        (
            "raiser",
            [
                "FAIL PlayCard answers within 0.3 s without raising or crashing: 40 of 40 "
                "positions; first at position 0 (seed 'checks-0', seat ",
                "moves): PlayCard raised RuntimeError: 'my strategy has a bug'\n",
            ],
        ),
        (
            "sleeper",
            [
                "FAIL PlayCard answers within 0.3 s without raising or crashing: 3 of 3 "
                "positions; first at position 0 (seed 'checks-0', seat ",
                "moves): it took longer than 0.3 s (stopped: 3 in a row; 37 positions not asked)",
                "FAIL PlayCard returns a Card: not checked: no position got an answer to check",
            ],
        ),
        ("looper", ["it took longer than 0.3 s (stopped: 3 in a row"]),
        ("killer", ["its worker exited with status 7 (stopped: 3 in a row"]),
        ("exiter", ["PlayCard called sys.exit(3)"]),
        ("hog", ["PlayCard ran out of memory (the limit is 256 MiB) (stopped: 3 in a row"]),
        (
            "no_method",
            [
                "FAIL Player has a method PlayCard: Player has no act(view) method (nor PlayCard, "
                "the Whist shape)",
                "FAIL PlayCard returns a Card: not checked: Player has no act(view) method",
            ],
        ),
        (
            "crashes_on_import",
            ["FAIL the module crashes_on_import imports: cannot import 'crashes_on_import': no"],
        ),
        (
            "cannot_start",
            ["FAIL Player() makes a player: cannot_start:Player() fails: ValueError('nope')"],
        ),
    ],
)
def test_a_broken_bot_fails_with_the_reason(
    name: str, failed: list[str], plugin_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines = check([f"whist={name}:Player", "--positions", "40"], capsys)
    assert status == 1
    fails = [line for line in lines if line.startswith("FAIL")]
    assert fails
    text = "\n".join(lines)
    for part in failed:
        assert part in text, text
    assert all(line.startswith(("PASS ", "FAIL ")) for line in lines)


def test_the_general_shape_is_checked_for_any_game(
    plugin_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines = check(["pinochle=random_act:Player", "--positions", "30"], capsys)
    assert status == 0, lines
    assert "PASS act returns one of view.legal (30 positions)" in lines
    status, lines = check(["hundredandten=act_outsider:Player", "--positions", "5"], capsys)
    assert status == 1
    assert any(
        line.startswith("FAIL act returns one of view.legal: 5 of 5 positions")
        and "act returned 'pass', which is not one of view.legal" in line
        for line in lines
    )


def test_a_bad_plugin_argument_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-bot", "whist"]) == 2
    assert "a plug-in is GAME=module:Class" in capsys.readouterr().err
