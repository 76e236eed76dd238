"""Ratings: openskill (Plackett-Luce) per game, the uncertainty kept (no I/O).

A rated table's seats are accounts (``RatedSeat``: a person's or a bot's, or one of the
built-in anchors, ``ANCHORS``, at the table's AI seats); a seat no account holds (a
plug-in bot's) is not rated. When its game ends each team (a seat, or a side in a
partnership game: both partners are rated, as one team) is ranked: the winner first,
then the rest by their final score, ties sharing a rank; openskill moves each account's
mu and sigma by that order. An anchor's rating never moves, so that the others' mean
the same from one day to the next: the naive AI is ``ANCHORS["naive"]``, the strong AI
at its fixed work ``ANCHORS["strong"]``.

A seat struck out by a ladder's fair clock (the result's ``Struck``: core/ladder.py) is
ranked last whatever the score, in a team of its own (its partner, if any, is ranked
with its side, without it), and its game is never counted as its win.

People and bots are rated in pools of their own (``pool``): a bot is an account that
says it is one. The pools are separate leaderboards; a table that mixes them rates
each account in its own pool, against whoever it played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

from hundred_server.core.names import fold

#: The built-in anchors: account name -> (mu, sigma), fixed.
ANCHORS: Final = {"naive": (20.0, 1.0), "strong": (30.0, 1.0)}
#: The team of a game's struck seats (``rate_game``), ranked last.
STRUCK: Final = -1
#: A new account's rating (openskill's defaults).
MODEL: Final = PlackettLuce()
START_MU: Final = MODEL.mu
START_SIGMA: Final = MODEL.sigma


def pool_of(bot: bool) -> str:
    return "bots" if bot else "people"


@dataclass(frozen=True, slots=True)
class Rating:
    """One account's rating in one game, and its record there."""

    name: str
    game: str
    pool: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """What the leaderboard orders by: mu - 3 sigma (low while unsure)."""
        return self.mu - 3 * self.sigma


def seat_entry(account: str, name: str, pool: str, anchor: bool = False) -> dict[str, Any]:
    """A rated seat as the store keeps it (JSON)."""
    entry: dict[str, Any] = {"account": account, "name": name, "pool": pool}
    if anchor:
        entry["anchor"] = True
    return entry


def team_ranks(
    seats: int, sides: Sequence[int] | None, result: Mapping[str, Any]
) -> tuple[list[int], list[int], int]:
    """Each seat's team, each team's rank (1 is best) and the winning team, from a
    result ``{"Winner": seat or side, "Score": [by seat or side]}``."""
    team = list(sides) if sides is not None else list(range(seats))
    scores = [float(s) for s in result["Score"]]
    winner = int(result["Winner"])
    others = sorted({t for t in team if t != winner}, key=lambda t: -scores[t])
    ranks = [0] * len(scores)
    ranks[winner] = 1
    rank, last = 1, None
    for i, t in enumerate(others):
        if last is None or scores[t] != last:
            rank = i + 2
        ranks[t] = rank
        last = scores[t]
    return team, ranks, winner


def rate_game(
    game: str,
    seats: Sequence[Mapping[str, Any] | None],
    sides: Sequence[int] | None,
    result: Mapping[str, Any],
    before: Mapping[str, Rating | None],
) -> dict[str, Rating]:
    """Every rated account's rating after the game (by account id), from ``before``.
    The seats ``result`` says were struck out (``Struck``: a ladder's fair clock) are
    a team of their own, ranked below every other, whatever the score."""
    team, ranks, winner = team_ranks(len(seats), sides, result)
    struck = {int(s) for s in result.get("Struck", ())}
    if struck:
        team = [STRUCK if seat in struck else t for seat, t in enumerate(team)]
        ranks = [*ranks, max(ranks, default=0) + 1]  # ranks[STRUCK]: the last
    members: dict[int, list[str]] = {}
    info: dict[str, Mapping[str, Any]] = {}
    for seat, entry in enumerate(seats):
        if entry is None:
            continue
        account = str(entry["account"])
        # One account at two seats: never a person or a bot at a rated table, but an
        # anchor plays every AI seat, on any side (its rating is fixed, so each of its
        # seats counts in its team's strength).
        if account in info and not entry.get("anchor"):
            continue
        info[account] = entry
        members.setdefault(team[seat], []).append(account)

    def current(account: str) -> tuple[float, float]:
        entry = info[account]
        if entry.get("anchor"):
            return ANCHORS.get(str(entry["name"]), (START_MU, START_SIGMA))
        old = before.get(account)
        return (START_MU, START_SIGMA) if old is None else (old.mu, old.sigma)

    teams = sorted(members)
    new: dict[str, tuple[float, float]] = {a: current(a) for a in info}
    if len(teams) >= 2:
        rated = MODEL.rate(
            [[MODEL.rating(*current(a), name=a) for a in members[t]] for t in teams],
            ranks=[ranks[t] for t in teams],
        )
        for t, players in zip(teams, rated, strict=True):
            for account, player in zip(members[t], players, strict=True):
                if not info[account].get("anchor"):
                    new[account] = (player.mu, player.sigma)
    out = {}
    for account, entry in info.items():
        old = before.get(account)
        won = account in members.get(winner, [])
        games, wins = (0, 0) if old is None else (old.games, old.wins)
        mu, sigma = new[account]
        out[account] = Rating(
            str(entry["name"]), game, str(entry["pool"]), mu, sigma, games + 1, wins + int(won)
        )
    return out


@dataclass(frozen=True, slots=True)
class RatedStart:
    """A rated table's game has started: each seat's account (``seat_entry``; None:
    no account's, a plug-in bot's), and the game's sides (None: each seat for itself)."""

    table_id: int
    game: str
    seats: tuple[dict[str, Any] | None, ...]
    sides: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class GameOver:
    """A game ended with a result (``GameSpec.result``): rated if its table was."""

    table_id: int
    result: dict[str, Any]


RatingEvent = RatedStart | GameOver


def rated_header(start: RatedStart) -> dict[str, Any]:
    """The ``Rated`` field of a rated table's record header: its ``RatedStart``, saved
    with the game's start, so that a table restored from the store (the server killed
    before the rating writer had it) is rated all the same (``restored_start``)."""
    sides = None if start.sides is None else list(start.sides)
    return {"Rated": {"Seats": list(start.seats), "Sides": sides}}


def restored_start(table_id: int, game: str, header: Mapping[str, Any]) -> RatedStart | None:
    """The ``RatedStart`` a restored table's record header keeps (None: not rated, or a
    header this cannot read)."""
    value = header.get("Rated")
    if not isinstance(value, dict) or not isinstance(value.get("Seats"), list):
        return None
    seats = tuple(e if isinstance(e, dict) else None for e in value["Seats"])
    sides = value.get("Sides")
    if sides is not None and not (isinstance(sides, list) and len(sides) == len(seats)):
        return None
    return RatedStart(table_id, game, seats, None if sides is None else tuple(sides))


def rated_start(table: Any, sessions: Any) -> RatedStart:
    """The ``RatedStart`` of ``table`` (a ``Table`` whose game starts; ``sessions``:
    the lobby's): people's seats are their sessions' accounts, the AI seats the
    anchor of the table's AI (none for a plug-in bot)."""
    seats: list[dict[str, Any] | None] = []
    people = dict(table.people())
    for seat, _name in enumerate(table.names()):
        conn = people.get(seat)
        session = None if conn is None else sessions.get(conn)
        account = None if session is None else session.account
        if seat in table.rated_seats:  # an AI plays it, an account is rated there
            seats.append(table.rated_seats[seat])
        elif account is not None:
            seats.append(seat_entry(fold(account.name), account.name, pool_of(account.bot)))
        elif conn is None and table.ai.name in ANCHORS:
            seats.append(seat_entry(fold(table.ai.name), table.ai.name, "bots", anchor=True))
        else:
            seats.append(None)
    spec_sides = table.spec.sides
    sides = tuple(spec_sides) if spec_sides is not None and len(spec_sides) == len(seats) else None
    return RatedStart(table.id, table.game_name, tuple(seats), sides)
