"""Benchmark: how long a hint (bots/hints.py) and a review (bots/review.py) take (prints
figures).

Hints: for each title at its most common player count (1849: 3, 1883: 4, 1854: 4), `medium`
plays a game on each seed; at every `--every`-th position a hint is asked, and the wall and
processor times are printed (p50, p95, max) with the work units the hint's search spent
against its budget (``HINT_WORK``), split by the kind of decision (searched by `hard`, or
left to `medium`'s rules and played out for the hint). Reviews: one finished game of
`medium` per title reviewed at the default budget (``REVIEW_WORK``), its time and decisions.

Run: nice .venv/bin/python benchmarks/hints.py [--seeds 1 2] [--every 7] [--titles ...]
     [--no-review]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from tresham.bots import search
from tresham.bots.heuristic import MEDIUM
from tresham.bots.hints import HINT_WORK, hint
from tresham.bots.review import REVIEW_WORK, review
from tresham.core.game import Game
from tresham.io.save import new_game

PLAYERS = {"1849": 3, "1883": 4, "1854": 4}
#: The most actions a benchmark game is played for.
LIMIT = 3000


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _medium_game(title: str, seed: int) -> Game:
    game = new_game(title, [f"P{i}" for i in range(PLAYERS[title])], seed)
    while not game.state.finished and len(game.actions) < LIMIT:
        game.apply(MEDIUM.choose(game, random.Random(len(game.actions))))
    return game


def hints(title: str, seeds: list[int], every: int) -> None:
    spent: list[int] = []
    play_on = search._play_on

    def counted(copy: Game, root: search._RoundMark, budget: int, crossed: Any = None) -> int:
        used = play_on(copy, root, budget, crossed)
        spent.append(max(0, used))
        return used

    search._play_on = counted  # type: ignore[assignment]
    times: dict[bool, list[tuple[float, float, int]]] = {True: [], False: []}
    try:
        for seed in seeds:
            game = new_game(title, [f"P{i}" for i in range(PLAYERS[title])], seed)
            while not game.state.finished and len(game.actions) < LIMIT:
                if len(game.actions) % every == 0 and len(game.legal_actions()) > 1:
                    spent.clear()
                    wall, cpu = time.perf_counter(), time.process_time()
                    given = hint(game)
                    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                    times[given.searched].append((wall * 1000, cpu * 1000, sum(spent)))
                game.apply(MEDIUM.choose(game, random.Random(len(game.actions))))
    finally:
        search._play_on = play_on  # type: ignore[assignment]
    everything = times[True] + times[False]
    for label, rows in (
        ("all", everything),
        ("searched by hard", times[True]),
        ("left to medium, played out for the hint", times[False]),
    ):
        if not rows:
            continue
        walls = [r[0] for r in rows]
        cpus = [r[1] for r in rows]
        units = [r[2] for r in rows]
        print(
            f"{title} hints ({label}): {len(rows)}; wall ms p50 {_pct(walls, 0.5):.0f} "
            f"p95 {_pct(walls, 0.95):.0f} max {max(walls):.0f}; cpu ms p50 "
            f"{_pct(cpus, 0.5):.0f} p95 {_pct(cpus, 0.95):.0f} max {max(cpus):.0f}; "
            f"units max {max(units)} of {HINT_WORK} "
            f"(mean {statistics.mean(units):.0f})"
        )


def reviews(title: str, seed: int) -> None:
    game = _medium_game(title, seed)
    wall = time.perf_counter()
    result = review(game)
    wall = time.perf_counter() - wall
    listed = sum(len(m) for m in result.players.values())
    print(
        f"{title} review: {len(game.actions)} actions, {result.decisions} decisions at "
        f"{REVIEW_WORK} units, {wall:.0f} s ({1000 * wall / max(1, result.decisions):.0f} ms "
        f"a decision), {listed} listed, finished {game.state.finished}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--titles", nargs="+", default=list(PLAYERS))
    parser.add_argument("--seeds", nargs="+", type=int, default=[1])
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--no-review", action="store_true")
    args = parser.parse_args()
    for title in args.titles:
        hints(title, args.seeds, args.every)
        if not args.no_review:
            reviews(title, args.seeds[0])


if __name__ == "__main__":
    main()
