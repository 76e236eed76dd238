"""Provably fair deals (hundred_server/core/fairness.py; protocol.md, "Provably fair deals"):
the commitment, ``verify`` on records of real table games and on doctored ones, the
Commit and Reveal messages through the hub, in text mode and (never) in the classic
dialect, and the ``verify`` and ``export --reveal`` commands."""

from __future__ import annotations

import hashlib
import io
import json
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hundred_server import games
from hundred_server.cli import main
from hundred_server.core import driver
from hundred_server.core.fairness import commit_message, commitment, reveal_message, verify
from hundred_server.core.hub import Command, Send
from hundred_server.core.table import Table, TableOptions, TableState
from hundred_server.games.base import GameSpec, GameState
from hundred_server.games.records import load_record, record_lines
from hundred_server.protocol import codecs
from hundred_server.protocol.codecs.classic import ClassicCodec
from hundred_server.protocol.codecs.text import TextCodec
from hundred_server.protocol.schema import is_valid_server_message, validate_server_message
from hundred_server.store import Store
from tests.support.hub_harness import HELLO, QUESTION, Harness, answer_from_legal

SEED = "0123456789abcdef0123456789abcdef"


def solo_option(spec: GameSpec) -> int:
    """The create option (from 1) that seats one person against AI in every other seat."""
    return next(i for i, p in enumerate(spec.presets, 1) if len(p.ai_seats) == p.seats - 1)


def table_game(name: str, seed: str) -> tuple[Table, list[dict[str, Any]]]:
    """A whole game at a ``Table`` dealt from ``seed``: one person, AI in the other seats,
    and a turn clock of 0 s, so the AI's move is played for the person at every tick.
    Returns the table and what the person was told."""
    spec = games.get(name)
    preset = spec.presets[solo_option(spec) - 1]
    options = TableOptions(turn_timeout=0.0, clock=lambda: 0.0)
    table = Table(1, "t", spec, preset.seats, preset.ai_seats, seed, options)
    _, out = table.sit(7, "ann")
    for _ in range(10_000):
        if table.state is not TableState.PLAYING:
            break
        out += table.tick()
    assert table.state is TableState.OVER
    assert table.game is not None
    assert table.game.is_over
    return table, [msg for conn, msg in out if conn == 7]


def record_of(table: Table) -> list[str]:
    assert table.game is not None
    return record_lines(table.game)


# ------------------------------------------------------------------ the commitment


def test_the_commitment_is_sha256_of_game_bar_seed() -> None:
    for name in games.names():
        expected = hashlib.sha256(f"{name}|{SEED}".encode()).hexdigest()
        assert commitment(name, SEED) == expected
    # Pinned: protocol.md's example session (tables seeded "protocol-example").
    assert commitment("hundredandten", "protocol-example") == (
        "2e7fb5fffc304684900a43a70344ae6cbd2f873387cec2cc535929f4e8031a26"
    )
    assert commitment("whist", "") == hashlib.sha256(b"whist|").hexdigest()
    # The bytes are UTF-8: a seed is text, whatever it holds.
    assert commitment("whist", "é") == hashlib.sha256("whist|é".encode()).hexdigest()


def test_the_commitment_binds_the_game_and_the_seed() -> None:
    hashes = {commitment(n, s) for n in games.names() for s in (SEED, SEED[::-1], "x")}
    assert len(hashes) == 3 * len(games.names())


def test_commit_and_reveal_messages_are_valid_and_agree() -> None:
    commit = commit_message(3, "whist", SEED)
    reveal = reveal_message(3, "whist", SEED)
    assert commit == {
        "Type": "Commit",
        "Table": 3,
        "Game": "whist",
        "Hash": commitment("whist", SEED),
    }
    assert reveal == {**commit, "Type": "Reveal", "Seed": SEED}
    assert list(reveal) == ["Type", "Table", "Game", "Seed", "Hash"]
    validate_server_message(commit)
    validate_server_message(reveal)
    for bad in ({**commit, "Hash": "ABC"}, {**commit, "Seed": SEED}, {**reveal, "Seed": ""}):
        assert not is_valid_server_message(bad)
    assert not is_valid_server_message({**commit, "Game": "chess"})


# ------------------------------------------------------------------ verify


@pytest.mark.parametrize("name", games.names())
def test_verify_accepts_a_table_game_dealt_from_the_seed(name: str) -> None:
    table, told = table_game(name, SEED)
    lines = record_of(table)
    verdict = verify(lines, SEED, commitment(name, SEED))
    assert verdict.ok, verdict.lines
    assert verdict.game == name
    deals = [json.loads(line) for line in lines if json.loads(line)["Type"] == "Deal"]
    assert verdict.rounds == len(deals) >= 1
    for k in range(len(deals)):
        assert f"round {k + 1}: the deck is the seed's" in verdict.lines
    assert verdict.lines[-1] == f"verdict: all {len(deals)} deals are the seed's"
    # The person was told the commitment before the first deal.
    kinds = [m["Type"] for m in told]
    commit = told[kinds.index("Commit")]
    assert kinds.index("Commit") < kinds.index("Deal")
    assert commit == commit_message(1, name, SEED)


@pytest.mark.parametrize("name", games.names())
def test_the_kth_deal_line_is_round_k_plus_1_and_deck_k(name: str) -> None:
    """What verify relies on, for every game: a table's k-th deal (its k-th Deal line)
    is its round k+1 (``round_index`` k), dealt ``seeded_deck(seed, k)``."""
    spec = games.get(name)
    table, _ = table_game(name, "deal-index")
    deals = [json.loads(line) for line in record_of(table) if json.loads(line)["Type"] == "Deal"]
    for k, deal in enumerate(deals):
        (number,) = [v for key, v in deal.items() if key not in ("Type", "Dealer", "Deck")]
        assert number == k + 1
        assert deal["Deck"] == [c.code for c in spec.seeded_deck("deal-index", k)]


class FirstLegal:
    """A bot that takes the first legal action: in Hundred and Ten that is a pass, so
    every round is passed out and dealt again."""

    def __init__(self, game: GameState) -> None:
        self.game = game

    def act(self, view: object) -> object:
        seat = self.game.to_act
        assert seat is not None
        return self.game.legal_actions(seat)[0]


def deals_with(name: str, seed: str, deals: int) -> GameState:
    """A game of ``FirstLegal`` bots dealt by the driver from ``seed``, stopped once it
    has dealt ``deals`` rounds (or is over)."""
    spec = games.get(name)
    game = spec.new_game(["a", "b", "c", "d"][: max(spec.seat_counts)], None)
    bots = [FirstLegal(game)] * max(spec.seat_counts)
    dealt = 0
    while not game.is_over:
        if game.needs_deal:
            if dealt == deals:
                break
            dealt += 1
        driver.step(game, spec, seed, bots)
    return game


def test_a_passed_out_round_is_dealt_and_counts() -> None:
    game = deals_with("hundredandten", SEED, 5)
    lines = record_lines(game)
    objs = [json.loads(line) for line in lines[1:]]
    # Everyone passes every round: five rounds passed out, each dealt afresh.
    assert [o["Round"] for o in objs if o["Type"] == "Deal"] == [1, 2, 3, 4, 5]
    assert all(o["Bid"] == 0 for o in objs if o["Type"] != "Deal")
    verdict = verify(lines, SEED)
    assert verdict.ok, verdict.lines
    assert verdict.rounds == 5
    assert "(the record stops before the game ends: its deals so far are checked)" in (
        verdict.lines
    )


@pytest.mark.parametrize("name", games.names())
def test_verify_checks_an_unfinished_record(name: str) -> None:
    game = deals_with(name, SEED, 2)
    lines = record_lines(game)
    verdict = verify(lines, SEED)
    assert verdict.ok, verdict.lines
    assert verdict.rounds == sum('"Type":"Deal"' in line for line in lines)


def swapped(lines: list[str], deal_number: int) -> tuple[list[str], int, int]:
    """``lines`` with two different cards swapped in the Deck of Deal line number
    ``deal_number`` (from 1), chosen so that the record still replays: the swap and
    the positions swapped."""
    at = [i for i, line in enumerate(lines) if json.loads(line)["Type"] == "Deal"][deal_number - 1]
    deal = json.loads(lines[at])
    deck = deal["Deck"]
    for j in range(1, len(deck)):
        if deck[j] == deck[0]:
            continue
        doctored = list(deck)
        doctored[0], doctored[j] = doctored[j], doctored[0]
        out = list(lines)
        out[at] = json.dumps({**deal, "Deck": doctored}, separators=(",", ":"))
        try:
            load_record(out)
        except Exception:
            continue
        return out, 0, j
    raise AssertionError("no swap keeps the record replayable")


@pytest.mark.parametrize("name", games.names())
def test_verify_names_the_round_whose_deck_has_two_cards_swapped(name: str) -> None:
    table, _ = table_game(name, SEED)
    lines = record_of(table)
    # The last round (a Whist game may be a single hand: 7 tricks over book win it).
    last = sum('"Type":"Deal"' in line for line in lines)
    doctored, i, j = swapped(lines, last)
    deck = [c.code for c in games.get(name).seeded_deck(SEED, last - 1)]
    verdict = verify(doctored, SEED, commitment(name, SEED))
    assert not verdict.ok
    assert verdict.failure == (
        f"round {last}: the deck is not the seed's: Deck[{i}] is {deck[j]}, "
        f"the seed deals {deck[i]}"
    )
    assert [line for line in verdict.lines if "MISMATCH" in line] == [
        f"{verdict.failure}  <-- MISMATCH"
    ]
    assert f"{verdict.failure}  <-- MISMATCH" in verdict.lines
    assert verdict.lines[-1] == f"verdict: FAILED: {verdict.failure}"


@pytest.mark.parametrize("name", games.names())
def test_a_record_that_does_not_replay_is_a_failure_with_its_reason(name: str) -> None:
    table, _ = table_game(name, SEED)
    lines = record_of(table)
    deal = json.loads(lines[1])
    assert deal["Type"] == "Deal"
    deal["Deck"][0] = "1X"
    lines[1] = json.dumps(deal)
    verdict = verify(lines, SEED)
    assert not verdict.ok
    assert verdict.game is None
    assert verdict.failure is not None
    assert verdict.failure.startswith("the record does not replay: line 2: ")
    assert verdict.failure.endswith("(bad_card)")
    assert verdict.lines == (f"FAILED: {verdict.failure}",)


@pytest.mark.parametrize("name", games.names())
def test_verify_refuses_a_wrong_seed(name: str) -> None:
    table, _ = table_game(name, SEED)
    verdict = verify(record_of(table), SEED[:-1] + "0")
    assert not verdict.ok
    assert verdict.failure is not None
    assert verdict.failure.startswith("round 1: the deck is not the seed's: Deck[")


def test_verify_refuses_a_wrong_commit() -> None:
    table, _ = table_game("whist", SEED)
    lines = record_of(table)
    assert verify(lines, SEED, commitment("whist", SEED).upper()).ok  # hex in any case
    for wrong in (commitment("whist", "other"), commitment("pinochle", SEED), "0" * 64):
        verdict = verify(lines, SEED, wrong)
        assert not verdict.ok
        assert verdict.failure == (
            f'commitment: {wrong} is not the seed\'s: sha256("whist|{SEED}") is '
            f"{commitment('whist', SEED)}"
        )
        # The deals are still checked, and are the seed's.
        assert "round 1: the deck is the seed's" in verdict.lines


@pytest.mark.parametrize(
    ("lines", "why"),
    [
        ([], "the record does not replay: line 1: the record is empty"),
        (['{"Type":"Record","Game":"chess","Version":1,"Players":["a","b"]}'], "no such game"),
        (["not json"], "the record does not replay: line 1: not JSON"),
    ],
)
def test_verify_of_something_that_is_not_a_record(lines: list[str], why: str) -> None:
    verdict = verify(lines, SEED)
    assert not verdict.ok
    assert verdict.game is None
    assert verdict.failure is not None
    assert why in verdict.failure


def test_verify_of_a_record_without_a_deal() -> None:
    header = '{"Type":"Record","Game":"whist","Version":1,"Players":["a","b","c","d"]}'
    verdict = verify([header], SEED)
    assert not verdict.ok
    assert verdict.failure == "the record has no Deal line: there is no deal to check"


def test_verify_reads_bytes_and_blank_lines() -> None:
    table, _ = table_game("pinochle", SEED)
    lines = record_of(table)
    raw = [lines[0].encode() + b"\r\n", b"\n"]
    raw += [line.encode() + b"\n" for line in lines[1:]]
    assert verify(raw, SEED).ok


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(games.names()),
    seed=st.one_of(
        st.binary(min_size=16, max_size=16).map(bytes.hex),
        st.text(min_size=1, max_size=40),
    ),
)
def test_verify_accepts_what_a_table_deals_from_any_seed(name: str, seed: str) -> None:
    table, told = table_game(name, seed)
    commit = next(m for m in told if m["Type"] == "Commit")
    verdict = verify(record_of(table), seed, commit["Hash"])
    assert verdict.ok, verdict.lines
    other = verify(record_of(table), seed + "x", commit["Hash"])
    assert not other.ok


# ------------------------------------------------------------------ through the hub


@pytest.mark.parametrize("name", games.names())
def test_a_person_is_committed_to_at_the_start_and_shown_the_seed_at_the_end(
    name: str,
) -> None:
    h = Harness(f"fair-{name}")
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create", "Game": name})
    start = ann.send({"Type": "Game", "Option": solo_option(games.get(name))})
    table = h.hub.lobby.tables[1]
    seed = h.seeds[0]
    assert table.seed == seed
    kinds = [m["Type"] for m in start]
    at = kinds.index("Commit")
    assert start[at - 1]["Message"].startswith("Table 1 (table 1) starts: ann")
    assert kinds[at + 1] == "Deal"
    commit = start[at]
    assert commit == {"Type": "Commit", "Table": 1, "Game": name, "Hash": commitment(name, seed)}
    rng = random.Random(11)
    for _ in range(5000):
        if ann.game_over() is not None:
            break
        ann.answer(rng)
    over = ann.game_over()
    assert over is not None
    reveal = {"Type": "Reveal", "Table": 1, "Game": name, "Seed": seed, "Hash": commit["Hash"]}
    assert ann.messages[-4:] == [over, reveal, QUESTION, HELLO]
    assert [m for m in ann.messages if m["Type"] in ("Commit", "Reveal")] == [commit, reveal]
    for msg in (commit, reveal):
        validate_server_message(msg)
    # The record the table kept checks out against what ann was told.
    verdict = verify(record_of(table), reveal["Seed"], commit["Hash"])
    assert verdict.ok, verdict.lines


def test_a_seat_taken_back_is_told_the_commitment_again() -> None:
    h = Harness("fair-rejoin")
    ann = h.json_client("ann")
    ann.send({"Type": "Hello", "Message": "create"})
    start = ann.send({"Type": "Game", "Option": 1})
    commit = next(m for m in start if m["Type"] == "Commit")
    ann.disconnect()
    back = h.json_client()
    told = back.send({"Type": "Hello", "Token": h.tokens[0]})
    assert [m["Type"] for m in told[:4]] == ["Seat", "Table", "Commit", "Snapshot"]
    assert told[2] == commit


def test_the_people_of_a_two_person_table_get_the_same_commit_and_reveal() -> None:
    h = Harness("fair-two")
    ann = h.create("ann", Option=5, Seats=2)
    bob = h.json_client("bob")
    bob.send({"Type": "Join", "Table": 1})
    rng = random.Random(5)
    for _ in range(5000):
        if ann.game_over() is not None:
            break
        to_answer = [(c, p) for c in (ann, bob) if (p := c.pending()) is not None]
        client, prompt = to_answer[0]
        client.send(answer_from_legal(prompt, rng))
    said = [[m for m in c.messages if m["Type"] in ("Commit", "Reveal")] for c in (ann, bob)]
    assert said[0] == said[1]
    commit, reveal = said[0]
    assert reveal["Seed"] == h.seeds[0]
    assert commitment("hundredandten", reveal["Seed"]) == commit["Hash"] == reveal["Hash"]


def test_a_person_who_quits_is_not_shown_the_seed() -> None:
    h = Harness("fair-quit")
    ann = h.create("ann", Option=1)
    ann.send({"Type": "Hello", "Message": "quit"})
    assert [m for m in ann.messages if m["Type"] == "Reveal"] == []


# ------------------------------------------------------------------ the dialects


def test_the_classic_dialect_sends_neither_message() -> None:
    codec = ClassicCodec()
    assert codec.encode(commit_message(1, "pinochle", SEED)) == b""
    assert codec.encode(reveal_message(1, "pinochle", SEED)) == b""


def test_a_classic_client_is_not_told_the_commitment_when_its_game_starts() -> None:
    h = Harness("fair-classic")
    conn, commands = h.hub.connect("test", codecs.CLASSIC)
    sent: list[bytes] = []

    def collect(commands: Iterable[Command]) -> None:
        sent.extend(c.data for c in commands if isinstance(c, Send) and c.conn == conn)

    collect(commands)
    collect(h.hub.receive(conn, b'{"Type":"Hello","Message":"create"}\n'))
    collect(h.hub.receive(conn, b'{"Type":"Game","Option":1}\n'))
    lines = b"".join(sent).decode().splitlines()
    starts = next(i for i, line in enumerate(lines) if "starts: " in line)
    assert json.loads(lines[starts + 1])["Type"] == "Deal"
    assert not any(word in line for line in lines for word in ("Commit", "Hash", "Reveal"))


def test_text_mode_renders_both_in_a_line() -> None:
    text = TextCodec()
    digest = commitment("hundredandten", SEED)
    assert text.render(commit_message(3, "hundredandten", SEED)) == [
        f"Deck commitment for table 3: {digest} (the seed is revealed when the game ends)"
    ]
    assert text.render(reveal_message(3, "hundredandten", SEED)) == [
        f"Table 3's seed: {SEED} (check the deals: hundred-server verify RECORD "
        f"--seed {SEED} --commit {digest})"
    ]


def test_a_text_player_sees_the_commitment_after_the_start() -> None:
    h = Harness("fair-text")
    client = h.connect()
    h.apply(h.hub.receive(client.conn, b"create 1\r\n"))
    shown = client.take_text()
    at = next(i for i, line in enumerate(shown) if " starts: " in line)
    digest = commitment("hundredandten", h.seeds[0])
    assert shown[at + 1] == (
        f"Deck commitment for table 1: {digest} (the seed is revealed when the game ends)"
    )


# ------------------------------------------------------------------ the command line


@pytest.fixture(scope="module")
def whist_record(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    table, _ = table_game("whist", SEED)
    path = tmp_path_factory.mktemp("fair") / "game.jsonl"
    path.write_text("\n".join(record_of(table)) + "\n", encoding="utf-8")
    return path, commitment("whist", SEED)


def test_cli_verify_exits_0_when_every_deal_matches(
    whist_record: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, commit = whist_record
    assert main(["verify", str(path), "--seed", SEED]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines()[0] == f'game: whist (Whist), seed "{SEED}"'
    assert "round 1: the deck is the seed's" in out.splitlines()
    assert out.splitlines()[-1].startswith("verdict: all ")
    assert main(["verify", str(path), "--seed", SEED, "--commit", commit]) == 0
    out, _ = capsys.readouterr()
    assert f"commitment: {commit} is the seed's" in out.splitlines()


def test_cli_verify_exits_2_at_a_mismatch(
    whist_record: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = whist_record
    assert main(["verify", str(path), "--seed", "other"]) == 2
    out, _ = capsys.readouterr()
    assert out.splitlines()[-1].startswith("verdict: FAILED: round 1: the deck is not")
    assert main(["verify", str(path), "--seed", SEED, "--commit", "f" * 64]) == 2
    out, _ = capsys.readouterr()
    assert out.splitlines()[-1].startswith(f"verdict: FAILED: commitment: {'f' * 64} is not")


def test_cli_verify_reads_standard_input(
    whist_record: tuple[Path, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path, commit = whist_record
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    assert main(["verify", "-", "--seed", SEED, "--commit", commit]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("verdict: all ")


def test_cli_verify_of_an_unreadable_file_or_a_bad_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.jsonl"
    assert main(["verify", str(missing), "--seed", SEED]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"hundred-server verify: cannot read {str(missing)!r}: No such file" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("this is no record\n", encoding="utf-8")
    assert main(["verify", str(bad), "--seed", SEED]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"hundred-server verify: {bad}: the record does not replay: line 1: ")


def test_cli_verify_needs_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["verify", "game.jsonl"])
    assert caught.value.code == 2
    assert "--seed" in capsys.readouterr().err


class SavingHarness(Harness):
    """A durable hub whose writes go to ``store`` before each batch is delivered."""

    def __init__(self, prefix: str, store: Store) -> None:
        super().__init__(prefix, durable=True)
        self.store = store

    def apply(self, commands: Iterable[Command]) -> None:
        self.store.write(self.hub.lobby.journal.take())
        super().apply(commands)


def test_export_reveal_refuses_a_game_still_playing_and_gives_a_finished_ones_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.db"
    store = Store(db)
    try:
        h = SavingHarness("fair-export", store)
        ann = h.create("ann", Option=1)
        assert main(["export", "1", "--reveal", "--db", str(db)]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert "game 1 is still playing: its seed stays secret until it ends" in err
        rng = random.Random(2)
        for _ in range(5000):
            if ann.game_over() is not None:
                break
            ann.answer(rng)
        reveal = ann.last("Reveal")
    finally:
        store.close()
    assert main(["export", "1", "--reveal", "--db", str(db)]) == 0
    out, _ = capsys.readouterr()
    assert out == json.dumps(reveal, separators=(",", ":")) + "\n"
    # ... which, with the exported record, checks out.
    assert main(["export", "1", "--db", str(db)]) == 0
    record = capsys.readouterr().out.splitlines()
    assert verify(record, reveal["Seed"], reveal["Hash"]).ok
    assert main(["export", "2", "--reveal", "--db", str(db)]) == 2
    assert "no game 2" in capsys.readouterr().err
