"""Tournaments: entrants play many seeded games of one game; wins, points and ratings.

An entrant is one of the game's built-in AIs by name (``GameSpec.bots``: every game has
``naive`` and ``default``) or a plug-in bot, ``module:Class`` (docs/plugins.md), which
plays out of process within its time limit: each of its timeouts, crashes and illegal
answers is a forfeit (the game's default AI plays that move) and is counted.

A table is as big as the entrants are many (one of the game's seat counts); in a
partnership game (``GameSpec.sides``) two entrants play as sides, entrant 0 at the seats
of side 0. The same name may come twice: entrants are labelled uniquely (``naive``,
``naive#2``), and the labels name the seats in records (``label/1``, ``label/2`` for a
side's two seats, since a game's players must differ).

Deal ``i`` (1-based) of a run with seed ``S`` is dealt from ``f"{S}-{i}"``, every round,
as self-play does. Without ``duplicate`` deal ``i`` is game ``i``, the entrants in order
at the seats. With ``duplicate`` every deal is played once per rotation of the entrants
over the seats (k entrants, k rotations: entrant j at seat ``(j + r) % k``; a
partnership game's two rotations swap the sides), so luck cancels: N deals are N*k
games, game ``(i - 1) * k + r + 1`` being deal ``i`` at rotation ``r``.

Each game updates one openskill model (Plackett-Luce), in game order, the entrants
ranked by how they did: the winner first, then by final score (ties share a rank).
The results, ratings included, are the same for the same arguments whatever ``jobs``,
with one caveat: a plug-in's instance (one a seat and process) plays game after game,
so a plug-in that carries state from one game into the next (a learner, a random
generator seeded once) plays differently when the games are shared out differently.
"""

from __future__ import annotations

import math
import multiprocessing.util
import os
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Final, TextIO

from openskill.models import PlackettLuce

from hundred_server import games as registry
from hundred_server.ai.plugins import BotLimits, Plugin, PluginBot, PluginError, parse_plugin
from hundred_server.ai.selfplay import _Progress, record_path
from hundred_server.core import driver
from hundred_server.core.remote import Forfeits
from hundred_server.games.base import Bot, GameSpec, round_number
from hundred_server.games.records import write_record
from hundred_server.protocol.errors import HundredError

#: z for a two-sided 95% interval.
Z95: Final = 1.959963984540054


class TournamentError(HundredError):
    """Arguments that make no tournament: a wrong number of entrants, an unknown one."""

    code = "bad_tournament"


@dataclass(frozen=True)
class Entrant:
    """One entrant: ``label`` (unique in its tournament), ``name`` as given, and the
    plug-in it is (None: the game's built-in AI ``name``)."""

    label: str
    name: str
    plugin: Plugin | None = None


@dataclass(frozen=True)
class Match:
    """Game ``index`` (1-based) of a run: deal ``deal`` (from ``seed``) at ``rotation``."""

    index: int
    deal: int
    seed: str
    rotation: int


@dataclass(frozen=True)
class GameResult:
    """How one game went, by entrant (index into the entrants): who sat where (the
    entrant by seat), the winner, final points and forfeits."""

    index: int
    seed: str
    rotation: int
    seats: tuple[int, ...]
    winner: int
    points: tuple[int, ...]
    forfeits: tuple[int, ...]
    rounds: int


@dataclass(frozen=True)
class Config:
    """What every process of a run needs (picklable)."""

    game: str
    entrants: tuple[Entrant, ...]
    limits: BotLimits
    record_dir: str | None = None
    #: The ``strong`` AI's wall-clock cap a decision, seconds (None: its own default).
    budget: float | None = None


def parse_entrants(spec: GameSpec, names: Sequence[str]) -> tuple[Entrant, ...]:
    """The entrants ``names`` at ``spec``'s game, labelled; ``TournamentError`` says what
    is wrong (how many the game takes, which built-in AIs it has). A plug-in is only
    parsed here: ``load_plugin`` checks that it can play."""
    names = [n.strip() for n in names]
    if spec.sides is None:
        if len(names) not in spec.seat_counts:
            counts = " or ".join(map(str, spec.seat_counts))
            raise TournamentError(
                f"{spec.title} takes {counts} entrants (one a seat), got {len(names)}"
            )
    elif len(names) != len(set(spec.sides)):
        raise TournamentError(
            f"{spec.title} is played by {len(set(spec.sides))} sides: give {len(set(spec.sides))} "
            f"entrants (the first at seats 0 and 2), got {len(names)}"
        )
    seen: Counter[str] = Counter()
    entrants = []
    for name in names:
        plugin = None
        if ":" in name:
            try:
                plugin = parse_plugin(f"{spec.name}={name}")
            except PluginError as exc:
                raise TournamentError(f'bad entrant "{name}": {exc}') from None
        elif name not in spec.bots:
            known = ", ".join(spec.bots) or "none"
            raise TournamentError(
                f'bad entrant "{name}": {spec.title}\'s built-in AIs are {known}; '
                "or give module:Class"
            )
        seen[name] += 1
        label = name if seen[name] == 1 else f"{name}#{seen[name]}"
        entrants.append(Entrant(label, name, plugin))
    return tuple(entrants)


def seating(spec: GameSpec, count: int, rotation: int) -> tuple[int, ...]:
    """The entrant at each seat at ``rotation``: entrant j at seat (j + r) % count, or
    (partnerships) at the seats of side (j + r) % count."""
    if spec.sides is None:
        return tuple((seat - rotation) % count for seat in range(count))
    return tuple((side - rotation) % count for side in spec.sides)


def player_names(entrants: Sequence[Entrant], seats: Sequence[int]) -> list[str]:
    """The seats' names in a record: the entrant's label, numbered ``/1``, ``/2`` where
    an entrant holds more than one seat (a side)."""
    held = Counter(seats)
    nth: Counter[int] = Counter()
    names = []
    for entrant in seats:
        nth[entrant] += 1
        label = entrants[entrant].label
        names.append(label if held[entrant] == 1 else f"{label}/{nth[entrant]}")
    return names


def schedule(seed: str, deals: int, count: int, duplicate: bool) -> list[Match]:
    """Every game of a run, in order (see the module docstring)."""
    rotations = count if duplicate else 1
    return [
        Match((deal - 1) * rotations + rotation + 1, deal, f"{seed}-{deal}", rotation)
        for deal in range(1, deals + 1)
        for rotation in range(rotations)
    ]


class Players:
    """The bots of one process: a built-in AI made afresh for every game, a plug-in's
    bot for each seat it takes, in a worker of its own that plays every game of the
    process at that seat (started when first asked); and each entrant's forfeits."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.spec = registry.get(config.game)
        self._bots: dict[tuple[int, int], PluginBot] = {}
        self._forfeits = [Forfeits() for _ in config.entrants]

    def bot(self, entrant: int, seat: int) -> Bot:
        """A built-in AI made for this game; the plug-in bot of this seat."""
        who = self.config.entrants[entrant]
        if who.plugin is None:
            make = self.spec.bots[who.name]
            if who.name == "strong" and self.config.budget is not None:
                return make(budget=self.config.budget)
            return make()
        key = (entrant, seat)
        if key not in self._bots:
            self._bots[key] = PluginBot(
                who.plugin, self.config.limits, forfeits=self._forfeits[entrant]
            )
        return self._bots[key]

    def forfeits(self) -> tuple[int, ...]:
        return tuple(sum(counter.values()) for counter in self._forfeits)

    def play(self, match: Match) -> GameResult:
        """Play ``match`` to its end (and record it if asked)."""
        spec, entrants = self.spec, self.config.entrants
        seats = seating(spec, len(entrants), match.rotation)
        bots = [self.bot(entrant, seat) for seat, entrant in enumerate(seats)]
        for seat, bot in enumerate(bots):
            if isinstance(bot, PluginBot):
                bot.new_game(f"tournament game {match.index} seat {seat}")
        before = self.forfeits()
        game = spec.new_game(player_names(entrants, seats), match.seed)
        driver.advance(game, spec, match.seed, bots)
        if game.winner is None:
            raise HundredError(f"tournament game {match.index} ended without a winner")
        if self.config.record_dir is not None:
            write_record(game, record_path(self.config.record_dir, match.index))
        # Scores and the winner are by seat, or by side: the entrant of each.
        place = list(range(len(seats))) if spec.sides is None else list(spec.sides)
        entrant_at = {p: seats[s] for s, p in reversed(list(enumerate(place)))}
        points = [0] * len(entrants)
        for p, score in enumerate(game.scores):
            points[entrant_at[p]] = score
        return GameResult(
            index=match.index,
            seed=match.seed,
            rotation=match.rotation,
            seats=seats,
            winner=entrant_at[game.winner],
            points=tuple(points),
            forfeits=tuple(a - b for a, b in zip(self.forfeits(), before, strict=True)),
            rounds=round_number(game),
        )

    def close(self) -> None:
        for bot in self._bots.values():
            bot.close()
        self._bots.clear()


# One ``Players`` a pool process, made by its initializer: plug-in workers live as long
# as the process, not one chunk of games.
_PROCESS_PLAYERS: Players | None = None


def _start_process(config: Config) -> None:
    global _PROCESS_PLAYERS
    players = _PROCESS_PLAYERS = Players(config)
    # Pool processes leave through multiprocessing's exit, which runs these (not atexit).
    multiprocessing.util.Finalize(players, players.close, exitpriority=10)


def _play_chunk(matches: Sequence[Match]) -> list[GameResult]:
    assert _PROCESS_PLAYERS is not None, "a pool process without its initializer"
    return [_PROCESS_PLAYERS.play(match) for match in matches]


def play_all(
    config: Config,
    matches: Sequence[Match],
    jobs: int = 1,
    done: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Every one of ``matches``, in ``jobs`` processes; the results in game order.
    ``done(n)`` is told how many have finished."""
    results: list[GameResult] = []
    if jobs <= 1:
        players = Players(config)
        try:
            for match in matches:
                results.append(players.play(match))
                if done is not None:
                    done(len(results))
        finally:
            players.close()
        return results
    size = max(1, min(20, len(matches) // (jobs * 8)))
    chunks = [matches[i : i + size] for i in range(0, len(matches), size)]
    with ProcessPoolExecutor(jobs, initializer=_start_process, initargs=(config,)) as pool:
        futures = [pool.submit(_play_chunk, chunk) for chunk in chunks]
        for future in as_completed(futures):
            results += future.result()
            if done is not None:
                done(len(results))
    return sorted(results, key=lambda r: r.index)


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (``z``: 95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def ranks(result: GameResult) -> list[float]:
    """Each entrant's place in a game (1 is best): the winner first, then by points;
    entrants who did alike share a place."""
    keys = [(e == result.winner, p) for e, p in enumerate(result.points)]
    return [1.0 + sum(other > key for other in keys) for key in keys]


def rate(labels: Sequence[str], results: Sequence[GameResult]) -> list[tuple[float, float, float]]:
    """(mu, sigma, ordinal) of each entrant after ``results``, in order."""
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    for result in results:
        teams = model.rate([[r] for r in ratings], ranks=ranks(result))
        ratings = [team[0] for team in teams]
    return [(r.mu, r.sigma, r.ordinal()) for r in ratings]


def summarize(config: Config, results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """One dict per entrant, in entrant order: games, wins, win rate and its 95%
    interval, mean points, forfeits and the rating."""
    labels = [e.label for e in config.entrants]
    rows = []
    for e, (entrant, (mu, sigma, ordinal)) in enumerate(
        zip(config.entrants, rate(labels, results), strict=True)
    ):
        played = [r for r in results if e in r.seats]
        wins = sum(1 for r in played if r.winner == e)
        low, high = wilson(wins, len(played))
        rows.append(
            {
                "label": entrant.label,
                "entrant": entrant.name,
                "plugin": entrant.plugin is not None,
                "games": len(played),
                "wins": wins,
                "win_rate": wins / len(played) if played else 0.0,
                "interval": [low, high],
                "mean_points": sum(r.points[e] for r in played) / len(played) if played else 0.0,
                "forfeits": sum(r.forfeits[e] for r in played),
                "mu": mu,
                "sigma": sigma,
                "ordinal": ordinal,
            }
        )
    return rows


def tournament(
    config: Config,
    deals: int,
    seed: str | None = None,
    duplicate: bool = False,
    jobs: int = 1,
    progress_stream: TextIO | None = None,
) -> dict[str, Any]:
    """Play a tournament of ``config``'s entrants at its game (see the module docstring)
    and sum it up: the arguments, the entrants' rows (``summarize``), games played and
    seconds. A progress bar goes to ``progress_stream`` if it is a terminal."""
    run_seed = str(uuid.uuid4()) if seed is None else seed
    if config.record_dir is not None:
        os.makedirs(config.record_dir, exist_ok=True)
    game, entrants = config.game, config.entrants
    matches = schedule(run_seed, deals, len(entrants), duplicate)
    bar = _Progress(len(matches), progress_stream)
    start = time.perf_counter()
    results = play_all(config, matches, jobs, bar.update)
    seconds = time.perf_counter() - start
    return {
        "game": game,
        "arguments": {
            "game": game,
            "bots": [e.name for e in entrants],
            "games": deals,
            "seed": run_seed,
            "duplicate": duplicate,
            "jobs": max(1, jobs),
            "record": config.record_dir,
            "bot_timeout": config.limits.timeout,
            "budget": config.budget,
        },
        "deals": deals,
        "rotations": len(entrants) if duplicate else 1,
        "games_played": len(results),
        "rounds": sum(r.rounds for r in results),
        "seed": run_seed,
        "entrants": summarize(config, results),
        "seconds": seconds,
    }


def format_table(summary: dict[str, Any]) -> list[str]:
    """The summary for people: a heading and one line per entrant, best rated first."""
    title = registry.get(summary["game"]).title
    rotations = summary["rotations"]
    games = f"{summary['games_played']} games"
    if rotations > 1:
        games = f"{summary['deals']} deals x {rotations} rotations (duplicate) = {games}"
    lines = [
        f"{title}: {games}, seed {summary['seed']}, {summary['seconds']:.1f} s",
        f"{'entrant':<24} {'games':>6} {'wins':>6} {'win rate':>8}  {'95% interval':<15} "
        f"{'mean pts':>8} {'forfeits':>8} {'mu':>6} {'sigma':>5} {'rating':>6}",
    ]
    for row in sorted(summary["entrants"], key=lambda r: -r["ordinal"]):
        low, high = row["interval"]
        lines.append(
            f"{row['label']:<24} {row['games']:>6} {row['wins']:>6} {row['win_rate']:>8.1%}  "
            f"{f'{low:.1%}-{high:.1%}':<15} {row['mean_points']:>8.1f} {row['forfeits']:>8} "
            f"{row['mu']:>6.2f} {row['sigma']:>5.2f} {row['ordinal']:>6.2f}"
        )
    lines.append("rating: the openskill (Plackett-Luce) ordinal, mu - 3 sigma")
    return lines
