"""Benchmark: how strong the bots are, per title and player count (prints figures).

For each title at 3 and 4 players (1883 also at 2) it plays two tournaments (``bots/
tournament.py``: seats rotated over paired seeds): ``easy`` against ``random`` bots
(100 games) and ``medium`` against ``easy`` bots (200 games), and prints each bot's win rate
with its Wilson 95% interval, the null rate (one in the number of seats), bankruptcies, the
mean length in operating rounds and the decision times. The targets: easy wins at least 90%
of its games against random bots; medium wins at least half of its games against easy bots,
goes bankrupt in at most 1% of them, decides in p95 < 250 ms, and its 1849 games last 12-22
operating rounds.

Long: every finished game is appended to a ledger (JSON lines, default
``benchmarks/results/bots.jsonl``), and a run resumes from it.

Run: .venv/bin/python benchmarks/bots.py [--games-scale F] [--jobs N] [--ledger PATH]
     [--titles 1849 1883 ...] [--report]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tresham.bots.tournament import GameResult, SeatResult, play_game, schedule, summarise

LEDGER = Path(__file__).parent / "results" / "bots.jsonl"
PLAYERS = {"1849": (3, 4), "1883": (2, 3, 4), "1854": (3, 4)}
SEED = 20261202


def configs(titles: list[str], scale: float) -> list[tuple[str, list[str], int]]:
    """(title, seats, games) of every tournament."""
    out = []
    for title in titles:
        for n in PLAYERS[title]:
            out.append((title, ["easy"] + ["random"] * (n - 1), round(100 * scale)))
            out.append((title, ["medium"] + ["easy"] * (n - 1), round(200 * scale)))
    return out


def ledger_key(title: str, seats: list[str], index: int) -> str:
    return f"{title}|{','.join(seats)}|{index}"


#: Decision times are kept in the ledger as counts per 5% band of seconds (exact enough for
#: percentiles, and small).
BAND = math.log(1.05)


def pack(times: list[float]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in times:
        band = str(round(math.log(max(t, 1e-7)) / BAND))
        out[band] = out.get(band, 0) + 1
    return out


def unpack(bands: dict[str, int]) -> list[float]:
    return [math.exp(int(b) * BAND) for b, n in bands.items() for _ in range(n)]


def ledger_row(key: str, result: GameResult) -> str:
    game = dataclasses.asdict(result)
    game["decisions"] = {bot: pack(ts) for bot, ts in result.decisions.items()}
    game["cpu"] = {bot: pack(ts) for bot, ts in result.cpu.items()}
    return json.dumps({"key": key, "game": game}) + "\n"


def load_ledger(ledger: Path) -> dict[str, GameResult]:
    done: dict[str, GameResult] = {}
    if not ledger.exists():
        return done
    for line in ledger.read_text().splitlines():
        row = json.loads(line)
        game = row["game"]
        game["seats"] = [SeatResult(**s) for s in game["seats"]]
        game["decisions"] = {bot: unpack(b) for bot, b in game["decisions"].items()}
        game["cpu"] = {bot: unpack(b) for bot, b in game.get("cpu", {}).items()}
        done[row["key"]] = GameResult(**game)
    return done


def _play(args: tuple[str, list[str], int, int]) -> GameResult:
    return play_game(*args)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games-scale", type=float, default=1.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    parser.add_argument("--titles", nargs="*", default=list(PLAYERS))
    parser.add_argument("--report", action="store_true", help="only print the ledger's figures")
    args = parser.parse_args()
    args.ledger.parent.mkdir(parents=True, exist_ok=True)
    done = load_ledger(args.ledger)
    print(
        "title  seats                       games  bot     win rate  [95% CI]         null  "
        "bankrupt  ORs   ms p95  ms max"
    )
    for title, seats, games in configs(args.titles, args.games_scale):
        plan = schedule(seats, games, SEED)
        todo = [
            (i, (title, order, bot_seed, game_seed))
            for i, (order, bot_seed, game_seed) in enumerate(plan)
            if ledger_key(title, seats, i) not in done
        ]
        if todo and not args.report:
            with ProcessPoolExecutor(args.jobs) as pool, args.ledger.open("a") as out:
                for (i, _), result in zip(todo, pool.map(_play, [t for _, t in todo]), strict=True):
                    key = ledger_key(title, seats, i)
                    done[key] = result
                    out.write(ledger_row(key, result))
                    out.flush()
        results = [done[k] for i in range(games) if (k := ledger_key(title, seats, i)) in done]
        if not results:
            continue
        summary: dict[str, Any] = summarise(title, results, 0.0)
        bot = seats[0]
        b = summary["bots"][bot]
        print(
            f"{title}  {','.join(seats):26}  {len(results):5}  {bot:6}  {b['win_rate']:8.3f}  "
            f"[{b['ci_low']:.3f}, {b['ci_high']:.3f}]  {1 / len(seats):.3f}  "
            f"{b['bankruptcies']:8}  {summary['rounds_mean']:4.1f}  "
            f"{b['decision_ms_p95']:6.1f}  {b['decision_ms_max']:6.1f}"
        )
        if summary["illegal_actions"] or summary["crashes"]:
            print(f"  illegal {summary['illegal_actions']}, crashes {summary['crashes']}")


if __name__ == "__main__":
    main()
