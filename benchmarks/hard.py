"""Benchmark: how strong `hard` (bots/search.py) is against `medium` (prints figures).

For each title at its most common player count (1849: 3, 1883: 4, 1854: 4) it plays `hard`
at each budget asked (default ``hard:250ms``) in one seat against `medium` in the others,
seats rotated over paired seeds (``bots/tournament.py``), and prints `hard`'s win rate with
its Wilson 95% interval, the null rate (one in the number of seats), 1.5 times it (the
target), bankruptcies (every seat's, and `hard`'s), the mean length in operating rounds and
`hard`'s decision times: p95 of the wall time, its p95 of processor time (a busy machine
inflates the first), the max, and the budget plus half (the target for the p95).

The titles' games are interleaved one seed (every rotation) at a time, so a run stopped
early has figures for every title. Long: every finished game is appended to a ledger (JSON
lines, default ``benchmarks/results/hard.jsonl``), and a run resumes from it.

``--value fitted`` plays `hard` valuing positions by the fitted weights
(``evaluate.fitted_standing``) instead of the hand-set ones (``evaluate.standing``), and
``--operating`` plays it searching corporations' money decisions too
(``SearchBot.operating``), each variant to its own ledger (``hard-fitted.jsonl``, ``hard-
operating.jsonl``, ...), to compare them.

``--calibrate`` instead times `hard`'s searched decisions at positions of `medium` games
and prints the milliseconds per work unit (each title's ``search_units_per_second``).

Run: nice .venv/bin/python benchmarks/hard.py [--games N] [--budgets hard:250ms hard:1s]
     [--titles 1849 1883 1854] [--jobs N] [--ledger PATH] [--report] [--calibrate]
     [--value hand|fitted] [--operating]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from bots import ledger_key, ledger_row, load_ledger

from tresham.bots import evaluate
from tresham.bots.heuristic import MEDIUM
from tresham.bots.players import get_bot
from tresham.bots.search import SearchBot, budget_ms
from tresham.bots.tournament import GameResult, play_game, schedule, summarise
from tresham.io.save import new_game

LEDGER = Path(__file__).parent / "results" / "hard.jsonl"
PLAYERS = {"1849": 3, "1883": 4, "1854": 4}
SEED = 20261203


def seats(title: str, level: str) -> list[str]:
    return [level] + ["medium"] * (PLAYERS[title] - 1)


def plan(
    titles: list[str], budgets: list[str], games: int
) -> Iterator[tuple[str, tuple[str, list[str], int, int]]]:
    """(ledger key, game) of every game, one seed's rotations of each tournament in turn."""
    tours = [(t, seats(t, b)) for b in budgets for t in titles]
    for block in range(games):
        for title, order in tours:
            k = len(order)
            for j in range(block * k, min(games, block * k + k)):
                rotated, bot_seed, game_seed = schedule(order, j + 1, SEED)[j]
                yield ledger_key(title, order, j), (title, rotated, bot_seed, game_seed)


def _play(args: tuple[str, list[str], int, int], fitted: bool, operating: bool) -> GameResult:
    if not fitted and not operating:
        return play_game(*args)
    title, rotated, bot_seed, game_seed = args
    value = evaluate.fitted_standing if fitted else evaluate.standing
    players = {
        level: SearchBot(level, bot.work, value=value, operating=operating, ms=bot.ms)
        for level in set(rotated)
        if isinstance(bot := get_bot(level), SearchBot)
    }
    return play_game(title, rotated, bot_seed, game_seed, players=players)


def report(titles: list[str], budgets: list[str], done: dict[str, GameResult]) -> None:
    print(
        "title  bot          games  win rate  [95% CI]        null   1.5x   bankrupt (hard)  "
        "ORs   p95 ms  cpu p95  max ms  budget+50%"
    )
    for level in budgets:
        for title in titles:
            order = seats(title, level)
            results = [g for k, g in done.items() if k.startswith(f"{title}|{','.join(order)}|")]
            if not results:
                continue
            s = summarise(title, results, 0.0)
            b = s["bots"][level]
            bankrupt = sum(e["bankruptcies"] for e in s["bots"].values())
            null = 1 / len(order)
            print(
                f"{title}  {level:11}  {len(results):5}  {b['win_rate']:8.3f}  "
                f"[{b['ci_low']:.3f}, {b['ci_high']:.3f}]  {null:.3f}  {1.5 * null:.3f}  "
                f"{bankrupt:8} ({b['bankruptcies']})  {s['rounds_mean']:6.1f}  "
                f"{b['decision_ms_p95']:6.0f}  {b['decision_cpu_ms_p95']:7.0f}  "
                f"{b['decision_ms_max']:6.0f}  {1.5 * (budget_ms(level) or 0):6.0f}"
            )
            if s["illegal_actions"] or s["crashes"]:
                print(f"  illegal {s['illegal_actions']}, crashes {s['crashes']}")


def calibrate(titles: list[str], level: str, every: int) -> None:
    """`hard`'s searched decisions timed at every `every`-th position of a `medium` game."""
    bot = get_bot(level)
    assert isinstance(bot, SearchBot)
    print(f"title  searched  ms mean  ms p95  cpu ms/unit  units  ({level})")
    for title in titles:
        game = new_game(title, [f"P{i}" for i in range(PLAYERS[title])], SEED)
        rng = random.Random(SEED)
        wall: list[float] = []
        cpu: list[float] = []
        while not game.state.finished:
            pick, scored = MEDIUM.decide(game, rng)
            if len(game.actions) % every == 0 and len(bot.candidates(game, pick, scored)) >= 2:
                start, start_cpu = time.perf_counter(), time.process_time()
                bot.choose(game, random.Random(len(game.actions)))
                wall.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            game.apply(pick)
        wall.sort()
        p95 = wall[int(0.95 * len(wall))] if wall else 0.0
        units = bot.units(game)
        per_unit = 1000 * sum(cpu) / max(1, len(cpu)) / units
        print(
            f"{title}  {len(wall):8}  {1000 * sum(wall) / max(1, len(wall)):7.1f}  "
            f"{1000 * p95:6.1f}  {per_unit:11.3f}  {units:5}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budgets", nargs="*", default=["hard:250ms"])
    parser.add_argument("--titles", nargs="*", default=list(PLAYERS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    parser.add_argument("--report", action="store_true", help="only print the ledger's figures")
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--value", choices=["hand", "fitted"], default="hand")
    parser.add_argument("--operating", action="store_true")
    args = parser.parse_args()
    fitted = args.value == "fitted"
    variant = "-".join(["fitted"] * fitted + ["operating"] * args.operating)
    if variant and args.ledger == LEDGER:
        args.ledger = LEDGER.with_name(f"hard-{variant}.jsonl")
    if args.calibrate:
        calibrate(args.titles, args.budgets[0], 7)
        return
    args.ledger.parent.mkdir(parents=True, exist_ok=True)
    done = load_ledger(args.ledger)
    todo = [(k, g) for k, g in plan(args.titles, args.budgets, args.games) if k not in done]
    if todo and not args.report:
        with ProcessPoolExecutor(args.jobs) as pool, args.ledger.open("a") as out:
            running = {pool.submit(_play, g, fitted, args.operating): k for k, g in todo}
            for future in as_completed(running):
                done[running[future]] = future.result()
                out.write(ledger_row(running[future], done[running[future]]))
                out.flush()
    report(args.titles, args.budgets, done)


if __name__ == "__main__":
    main()
