"""The research environments measured (docs/research.md). Not a test: timings flake on
shared machines.

``speed``: random-legal steps a second, per game, of our PettingZoo environment and our
OpenSpiel game, beside PettingZoo's own ``connect_four_v3`` and OpenSpiel's ``bridge``,
``hearts`` and its own Python games (``python_kuhn_poker``, ``python_tic_tac_toe``,
``python_block_dominoes``), in one run: every environment runs ``--seconds`` a round,
round after round (``--reps``), and the figure is the median round.

``ismcts``: OpenSpiel's ISMCTS against our strong AI at equal compute, duplicate deals:
each deal (one hand, ``hands=1``) is played twice with the same cards, the strong AI at
the even seats and ISMCTS at the odd ones, then the other way round; a deal's result is
the strong AI's seats' mean points of the hand minus ISMCTS's, over both plays. Both get
``--budget`` seconds of CPU (this thread's) a decision: the strong AI its own budget,
ISMCTS as many simulations (random rollouts, searching the one-hand win/loss game) as
fit, two at least (the first only expands the root). Prints the mean, its 95% interval
and the win rate, a game at a time, and writes ``--out`` (JSON) after every deal.

    make bench-research                 # python bench/research_bench.py speed --reps 5
    make bench-ismcts                   # python bench/research_bench.py ismcts --deals 200
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def pettingzoo_steps(make: Callable[[], Any], seconds: float) -> float:
    """Random legal actions a second through ``agent_iter``/``last``/``step``."""
    env = make()
    env.reset(seed=0)
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter(10_000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        env.reset()
    return steps / (time.perf_counter() - start)


def openspiel_steps(name: str, seconds: float, observe: bool) -> float:
    """``apply_action`` calls a second (chance outcomes included) with random legal
    actions; with ``observe``, also the observation tensor of the seat to act (the
    information state tensor where a game has no observation tensor)."""
    import pyspiel

    game = pyspiel.load_game(name)
    kind = game.get_type()
    look = "observation_tensor" if kind.provides_observation_tensor else "information_state_tensor"
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                if observe:
                    getattr(state, look)(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def speed(args: argparse.Namespace) -> int:
    import pyspiel
    from open_spiel.python.games import block_dominoes, kuhn_poker, tic_tac_toe  # noqa: F401
    from pettingzoo.classic import connect_four_v3

    import hundred_server.research.openspiel  # noqa: F401 (registers the games)
    from hundred_server import games
    from hundred_server.research import pettingzoo_env

    runs: dict[str, Callable[[], float]] = {
        "pettingzoo connect_four_v3": lambda: pettingzoo_steps(connect_four_v3.env, args.seconds)
    }
    for game in games.names():
        runs[f"pettingzoo hundred {game}"] = lambda g=game: pettingzoo_steps(
            lambda: pettingzoo_env(g), args.seconds
        )
    others = [
        "bridge",
        "hearts",
        "python_kuhn_poker",
        "python_tic_tac_toe",
        "python_block_dominoes",
    ]
    for name in [*others, *(f"python_hundred_{g}" for g in games.names())]:
        runs[f"openspiel {name}"] = lambda n=name: openspiel_steps(n, args.seconds, False)
        runs[f"openspiel {name} +observation"] = lambda n=name: openspiel_steps(
            n, args.seconds, True
        )
    pyspiel.load_game("bridge")
    figures: dict[str, list[float]] = {name: [] for name in runs}
    for rep in range(args.reps):
        for name, run in runs.items():
            figures[name].append(run())
        print(f"round {rep + 1} of {args.reps} done", file=sys.stderr, flush=True)
    print(f"{'environment':52} {'steps/s (median)':>18}  rounds")
    for name, values in figures.items():
        print(f"{name:52} {statistics.median(values):18,.0f}  {len(values)}")
    return 0


# ---------------------------------------------------------------------------- ISMCTS


#: Its budget spent, a decision goes on to two simulations, within this many tries in
#: all (a resample can fail).
_EXTRA_TRIES = 10


def _ismcts_bot(game: Any, budget: float, seed: int) -> Any:
    from open_spiel.python.algorithms import ismcts, mcts

    from hundred_server.research.sampling import ResampleError

    class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
        """OpenSpiel's ISMCTS with a CPU time budget a decision instead of a count. A
        simulation whose resample finds no deal (``ResampleError``) is left out; with
        none left in, the decision is a uniform choice of the legal actions."""

        def run_search(self, state: Any) -> Any:
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            start = time.thread_time()
            self.simulations = tries = 0
            # Two simulations at least: the first only expands the root.
            while time.thread_time() - start < budget or (
                self.simulations < 2 and tries < _EXTRA_TRIES
            ):
                tries += 1
                try:
                    root = self.sample_root_state(state)
                except ResampleError:
                    continue
                self.run_simulation(root)
                self.simulations += 1
            node = self.filter_illegals(self._root_node, legal)
            if node.total_visits <= 0:
                return [(action, 1.0 / len(legal)) for action in legal]
            return self.get_final_policy(state, node)

    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    return TimedISMCTS(
        game,
        evaluator,
        2.0,
        max_simulations=1,
        random_state=rng,
        allow_inconsistent_action_sets=True,
    )


def _numbers(episode: Any, action: Any) -> list[int]:
    """The action numbers that take the engine's ``action`` (the steps of a discard)."""
    lay = episode.layout
    number = lay.action_id.get(action)
    if number is not None:
        return [number]
    composite = lay.research.compose(episode.game.legal_actions(episode.to_act))
    picked, option, calls = composite.parts(action)
    out = [lay.pick0 + lay.card_index[c] for c in picked]
    if len(picked) < composite.picks[1]:
        out.append(lay.done)
    if option is not None:
        out.append(lay.num_cards + lay.choice_index[option])
    out += [lay.call0 + lay.card_index[c] for c in calls]
    return out


def play_deal(game: Any, name: str, deal: int, strong_even: bool, budget: float) -> list[float]:
    """One deal; the points of the hand by seat (its side's in a partnership)."""
    from hundred_server import games

    spec = games.get(name)
    state = game.new_initial_state()
    chance = random.Random(f"deal {deal}")
    n = game.num_players()
    strong = {s: spec.bots["strong"](f"{deal}|{s}", budget=budget) for s in range(n)}
    searcher = {s: _ismcts_bot(game, budget, deal * 10 + s) for s in range(n)}
    queue: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            cards = [c for c, _ in outcomes]
            state.apply_action(chance.choices(cards, [p for _, p in outcomes])[0])
            continue
        seat = state.current_player()
        if (seat % 2 == 0) == strong_even:
            if not queue:
                episode = state.episode
                action = strong[seat].act(spec.view(episode.game, seat))
                queue = _numbers(episode, action)
            state.apply_action(queue.pop(0))
        else:
            state.apply_action(searcher[seat].step(state))
    episode = state.episode
    scores = episode._seat_scores()
    return [float(a - b) for a, b in zip(scores, episode.hand_start, strict=True)]


def ismcts(args: argparse.Namespace) -> int:
    import pyspiel

    import hundred_server.research.openspiel  # noqa: F401 (registers the games)
    from hundred_server import games
    from hundred_server.research import sampling

    names = args.games.split(",") if args.games else list(games.names())
    results: dict[str, Any] = {}
    for name in names:
        game = pyspiel.load_game(f"python_hundred_{name}", {"hands": 1, "reward": "win"})
        diffs: list[float] = []
        wins: list[float] = []
        started = time.perf_counter()
        for deal in range(args.deals):
            pair = []
            for strong_even in (True, False):
                points = play_deal(game, name, deal, strong_even, args.budget)
                ours = [p for s, p in enumerate(points) if (s % 2 == 0) == strong_even]
                theirs = [p for s, p in enumerate(points) if (s % 2 == 0) != strong_even]
                pair.append(statistics.mean(ours) - statistics.mean(theirs))
            diff = statistics.mean(pair)
            diffs.append(diff)
            wins.append(1.0 if diff > 0 else 0.5 if diff == 0 else 0.0)
            mean = statistics.mean(diffs)
            half = (
                1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
                if len(diffs) > 1
                else math.inf
            )
            results[name] = {
                "deals": len(diffs),
                "budget": args.budget,
                "mean": mean,
                "ci95": [mean - half, mean + half],
                "win_rate": statistics.mean(wins),
                "diffs": diffs,
                "resample_fallbacks": sampling.FALLBACKS[0],
                "resamples": sampling.RESAMPLES[0],
                "seconds": time.perf_counter() - started,
            }
            if args.out:
                with open(args.out, "w") as f:
                    json.dump(results, f, indent=1)
            print(
                f"{name} deal {deal + 1} of {args.deals}: {diff:+.2f} (mean {mean:+.2f}),"
                f" resamples {sampling.RESAMPLES[0]}, none found {sampling.FALLBACKS[0]},"
                f" {time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
        r = results[name]
        print(
            f"{name:14} deals {r['deals']:4}  strong - ISMCTS {r['mean']:+8.2f} points a hand"
            f"  95% [{r['ci95'][0]:+.2f}, {r['ci95'][1]:+.2f}]  strong ahead {r['win_rate']:.0%}"
            f"  ({r['seconds']:.0f} s)",
            flush=True,
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed", help="random-legal steps a second, side by side")
    s.add_argument("--reps", type=int, default=5)
    s.add_argument("--seconds", type=float, default=1.0)
    i = sub.add_parser("ismcts", help="ISMCTS against the strong AI, duplicate deals")
    i.add_argument("--deals", type=int, default=200)
    i.add_argument("--budget", type=float, default=0.05, help="CPU seconds a decision")
    i.add_argument("--games", default="", help="comma-separated; every game by default")
    i.add_argument("--out", default="", help="write the results here (JSON)")
    args = parser.parse_args()
    return speed(args) if args.command == "speed" else ismcts(args)


if __name__ == "__main__":
    sys.exit(main())
