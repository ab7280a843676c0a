"""Benchmark: the route optimizer's time and revenue per position (prints figures).

Positions:
- every ``run_routes`` position of the real 1849 games in ``tests/data/18xx-games/``,
  taken from the imported game just before the site's action;
- synthetic late-game 1849 boards (``tests/boards_1849.busy_board``: 300 lays, six
  corporations, up to three tokens each) with the largest legal train set (16H, 16H, R6H);
- 1883 positions from random games (``--games-1883``; every turn reaching the routes step,
  with 1883's rules: n-trains, off-boards by phase, ports, the FS red track, the events);
- 1854 positions from random games (``--games-1854``; n-trains, plus trains, the Orient
  Express, customs, tunnels, the Major Local Railways).
  The exhaustive reference is not run on these (its walk bound assumes 1849's hex-counting
  trains).

For each: the optimizer's time (cold cache) and revenue, whether it proved optimality, and,
where the exhaustive reference (``tests/route_reference.py``) finishes within its budget, the
reference's time and the ratio. Targets (issue 4): real positions median < 50 ms and worst
< 1 s; synthetic worst < 2 s.

Run: .venv/bin/python benchmarks/routes.py [--synthetic N] [--reference-budget SECONDS]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from boards_1849 import busy_board  # noqa: E402
from route_reference import best_total  # noqa: E402
from tresham.bots.random_bot import choose  # noqa: E402
from tresham.core.rounds.operating import OperatingRound  # noqa: E402
from tresham.core.rules_protocols import TrackRules, TrainSpec  # noqa: E402
from tresham.core.track import MapState  # noqa: E402
from tresham.io.save import new_game  # noqa: E402
from tresham.io.site_export import effective_actions  # noqa: E402
from tresham.io.site_import import import_export  # noqa: E402
from tresham.routes import solve  # noqa: E402
from tresham.titles.t1849 import map_glue  # noqa: E402
from tresham.titles.t1849.track_rules import TrackRules1849  # noqa: E402

GAMES = HERE.parent / "tests/data/18xx-games"

Position = tuple[str, MapState, str, list[TrainSpec], TrackRules]


def real_positions() -> list[Position]:
    """(label, map, corporation, trains, rules) before every recorded run_routes."""
    out: list[Position] = []
    for path in sorted(GAMES.glob("1849/*.json")):
        name = path.name
        data = json.loads(path.read_text())
        for action in effective_actions(data["actions"]):
            if action["type"] != "run_routes":
                continue
            upto = dict(data, actions=[a for a in data["actions"] if a["id"] < action["id"]])
            game = import_export(upto).game
            corp = str(action["entity"])
            out.append(
                (
                    f"{name}#{action['id']} {corp}",
                    game.state.map.copy(),
                    corp,
                    map_glue.corp_trains(game, corp),
                    map_glue.rules_for(game, corp),
                )
            )
    return out


def synthetic_positions(boards: int) -> list[Position]:
    rules = TrackRules1849(phase="16H")
    trains = [
        TrainSpec("16H-0", "16H", 16),
        TrainSpec("16H-1", "16H", 16),
        TrainSpec("R6H-0", "R6H", 6),
    ]
    out: list[Position] = []
    for seed in range(boards):
        board = busy_board(seed)
        for corp in ("ATA", "CTL", "IFT", "RCS", "SFA", "AFG"):
            out.append((f"busy#{seed} {corp}", board, corp, trains, rules))
    return out


def positions_from_games(title: str, games: int) -> list[Position]:
    """Every routes-step position of `games` random 4-player games of `title` (seeds 1..),
    with the title's trains and rules (``Title.route_inputs``)."""
    import random

    out: list[Position] = []
    for seed in range(1, games + 1):
        game = new_game(title, ["P1", "P2", "P3", "P4"], seed)
        rng = random.Random(seed)
        while not game.state.finished:
            rnd = game.state.round
            if (
                isinstance(rnd, OperatingRound)
                and not game.state.pending
                and not rnd.finished(game)
                and rnd.steps[rnd.step] == "routes"
            ):
                corp = rnd.corp()
                trains, rules = game.title.route_inputs(game, corp)
                if trains:
                    label = f"{title} seed {seed} OR {game.state.operating_round_no} {corp}"
                    state = game.state.map.copy()
                    out.append((label, state, corp, trains, rules))
            game.apply(choose(game, rng))
    return out


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def run(label: str, positions: list[Position], budget: float | None) -> None:
    """Time every position; compare with the reference until it takes over `budget`
    seconds (None: never run it)."""
    times: list[float] = []
    print(f"== {label}: {len(positions)} positions")
    reference_on = budget is not None
    for name, state, corp, trains, rules in positions:
        solution, t = timed(lambda s=state, c=corp, tr=trains, r=rules: solve(s.copy(), c, tr, r))
        times.append(t)
        line = (
            f"{name}: revenue {solution.revenue}, {1000 * t:.1f} ms, "
            f"{'optimal' if solution.optimal else 'NOT PROVEN'}"
        )
        if reference_on:
            ref, rt = timed(lambda s=state, c=corp, tr=trains, r=rules: best_total(s, c, tr, r))
            agree = "agrees" if ref == solution.revenue else f"DIFFERS ({ref})"
            line += f"; reference {1000 * rt:.0f} ms ({agree}), ratio {rt / max(t, 1e-9):.0f}x"
            if budget is not None and rt > budget:
                reference_on = False  # later positions are as large: skip the reference
                line += " [reference over budget: skipped from here on]"
        print(line)
    print(
        f"-- {label}: median {1000 * statistics.median(times):.1f} ms, "
        f"worst {1000 * max(times):.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", type=int, default=2, help="busy boards (6 positions each)")
    parser.add_argument("--reference-budget", type=float, default=20.0)
    parser.add_argument("--games-1883", type=int, default=3, help="random 1883 games")
    parser.add_argument("--games-1854", type=int, default=3, help="random 1854 games")
    args = parser.parse_args()
    run("real 1849 positions", real_positions(), args.reference_budget)
    run("synthetic late-game 1849 boards", synthetic_positions(args.synthetic), 0.0)
    run("1883 positions from random games", positions_from_games("1883", args.games_1883), None)
    run("1854 positions from random games", positions_from_games("1854", args.games_1854), None)


if __name__ == "__main__":
    main()
