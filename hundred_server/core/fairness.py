"""Provably fair deals: a table commits to its seed before the first deal and reveals
it when the game ends, so anyone can check that every deal came from it (pure, no I/O).

A table deals round ``k`` (0-based) the deck ``spec.seeded_deck(seed, k)`` (driver.py),
from a secret ``seed`` (128 random bits as 32 hex digits). When its game starts, each
person at the table is sent ``Commit``: the SHA-256 of ``"<game>|<seed>"``
(``commitment``), which binds the table to one seed without telling it; when the game
ends with a result, ``Reveal`` gives the seed itself. ``verify`` then checks a game's
record against the seed: the record replays, each Deal line's ``Deck`` is the seed's
deck of that round, and (if given) the commitment is the seed's. Chance is an input, so
the seed decides every deal and nothing else does (protocol.md, "Provably fair deals").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hundred_server import games
from hundred_server.games.base import is_over
from hundred_server.games.records import load_record
from hundred_server.protocol.errors import RecordError

Message = dict[str, Any]
_DEAL_KEYS = frozenset({"Type", "Dealer", "Deck"})


def commitment(game: str, seed: str) -> str:
    """The commitment to ``seed`` for a game of ``game`` (its registry name): the
    SHA-256, as 64 lower-case hex digits, of the UTF-8 bytes of ``"<game>|<seed>"``."""
    return hashlib.sha256(f"{game}|{seed}".encode()).hexdigest()


def commit_message(table: int, game: str, seed: str) -> Message:
    """The ``Commit`` message of a table whose game starts (the seed stays secret)."""
    return {"Type": "Commit", "Table": table, "Game": game, "Hash": commitment(game, seed)}


def reveal_message(table: int, game: str, seed: str) -> Message:
    """The ``Reveal`` message of a table whose game has ended: the seed and its hash."""
    return {
        "Type": "Reveal",
        "Table": table,
        "Game": game,
        "Seed": seed,
        "Hash": commitment(game, seed),
    }


@dataclass(frozen=True)
class Verdict:
    """What ``verify`` found: a line per check for people (``lines``), and the first
    check that failed (``failure``; None: every one passed)."""

    game: str | None
    rounds: int
    lines: tuple[str, ...]
    failure: str | None

    @property
    def ok(self) -> bool:
        return self.failure is None


def verify(lines: Iterable[str | bytes], seed: str, commit: str | None = None) -> Verdict:
    """Check a game's record (JSON lines, as records.py reads them) against ``seed``.

    The record must replay; the k-th Deal line (k from 0) must deal
    ``spec.seeded_deck(seed, k)`` of the game its header names (the k-th deal of a game
    is its round k+1, passed-out rounds included: every round is dealt, so a Deal
    line's own round number is k+1, which the replay checks); and ``commit``, if given,
    must be ``commitment(game, seed)``.
    """
    record = list(lines)
    try:
        game = load_record(record)
    except RecordError as error:
        why = f"the record does not replay: line {error.line}: {error.message} ({error.code})"
        return Verdict(None, 0, (f"FAILED: {why}",), why)
    name = game.game_name
    spec = games.get(name)
    said = [f"game: {name} ({spec.title}), seed {json.dumps(seed)}"]
    failure: str | None = None

    def check(ok: bool, good: str, bad: str) -> None:
        nonlocal failure
        said.append(good if ok else f"{bad}  <-- MISMATCH")
        if not ok and failure is None:
            failure = bad

    expected = commitment(name, seed)
    if commit is not None:
        check(
            commit.strip().lower() == expected,
            f"commitment: {expected} is the seed's",
            f"commitment: {commit} is not the seed's: sha256({json.dumps(f'{name}|{seed}')}) "
            f"is {expected}",
        )
    deals = _deal_lines(record)
    for k, deal in enumerate(deals):
        number = _round_number(deal, k)
        check(*_check_deck(deal.get("Deck"), spec.seeded_deck(seed, k), number))
    if not deals:
        check(False, "", "the record has no Deal line: there is no deal to check")
    if not is_over(game):
        said.append("(the record stops before the game ends: its deals so far are checked)")
    if failure is None:
        said.append(f"verdict: all {len(deals)} deals are the seed's")
    else:
        said.append(f"verdict: FAILED: {failure}")
    return Verdict(name, len(deals), tuple(said), failure)


def _deal_lines(record: Sequence[str | bytes]) -> list[dict[str, Any]]:
    """The Deal lines of a record that replays (so every line reads as JSON)."""
    deals = []
    for line in record:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        text = text.strip().removeprefix("\ufeff")
        if not text:
            continue
        obj = json.loads(text)
        if obj.get("Type") == "Deal":
            deals.append(obj)
    return deals


def _round_number(deal: dict[str, Any], k: int) -> int:
    """The Deal line's own round number (its one key besides Type, Dealer and Deck:
    each game names it, "Round" or "Hand"), else ``k + 1``."""
    numbers = [v for key, v in deal.items() if key not in _DEAL_KEYS and type(v) is int]
    return numbers[0] if len(numbers) == 1 else k + 1


def _check_deck(given: object, deck: Sequence[Any], number: int) -> tuple[bool, str, str]:
    """(ok, the line if it is, the line if it is not) for one Deal's ``Deck``."""
    good = f"round {number}: the deck is the seed's"
    seeds = [card.code for card in deck]
    if not isinstance(given, list):
        return False, good, f"round {number}: the Deal line has no Deck to check"
    if given == seeds:
        return True, good, ""
    at = next((i for i, (a, b) in enumerate(zip(given, seeds, strict=False)) if a != b), None)
    if at is None:
        why = f"it has {len(given)} cards, the seed deals {len(seeds)}"
    else:
        why = f"Deck[{at}] is {given[at]}, the seed deals {seeds[at]}"
    return False, good, f"round {number}: the deck is not the seed's: {why}"
