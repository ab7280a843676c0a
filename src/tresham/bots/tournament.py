"""Tournaments between bots: how strong a bot is, measured.

Game `i` of a tournament of `k` seats is played with seed ``seed + i // k`` and the bots
rotated by ``i % k`` seats, so that every bot sits in every seat of every seed it plays (the
games are paired: a luckier seat or seed helps every bot alike). Every action goes through
`Game.apply`; a bot's illegal action or crash is counted (both must be 0) and replaced by a
random legal action so the game still ends.

Per bot (a bot named twice is one entry, its seats pooled): wins (a shared first place split
between the winners), the win rate per seat played with its Wilson 95% interval, the mean rank
(ties share the mean of their ranks), the mean margin to the best opponent, bankruptcies and
decision times (mean, 95th percentile, max; and the 95th percentile of their processor
times, which a busy machine does not inflate).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tresham.bots.players import Bot, get_bot
from tresham.core.errors import RuleError
from tresham.io.save import new_game

#: A game that has not ended after this many actions is stopped (and counted as such).
MAX_ACTIONS = 40_000
Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: split ties)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def ranks(scores: list[int]) -> list[float]:
    """Each seat's rank (1: best), tied seats sharing the mean of their ranks."""
    order = sorted(scores, reverse=True)
    out = []
    for s in scores:
        first = order.index(s) + 1
        count = order.count(s)
        out.append(first + (count - 1) / 2)
    return out


@dataclass
class SeatResult:
    """One seat of one game."""

    bot: str
    score: int
    rank: float
    win: float
    margin: int
    bankrupt: bool


@dataclass
class GameResult:
    """One game: its seats, length and end, the bots' decision times, faults."""

    seed: int
    seats: list[SeatResult]
    rounds: int
    end_reason: str
    decisions: dict[str, list[float]] = field(default_factory=dict)
    illegal: int = 0
    crashes: int = 0
    #: The decisions' processor times (the wall times above grow on a busy machine).
    cpu: dict[str, list[float]] = field(default_factory=dict)


def play_game(
    title: str,
    bots: list[str],
    seed: int,
    game_seed: int,
    players: Mapping[str, Bot] | None = None,
) -> GameResult:
    """Play one game with `bots` in seat order; `seed` drives the bots' own randomness.
    `players` names players of other programs (a benchmark's), looked up before the levels."""
    names = [f"P{i + 1}" for i in range(len(bots))]
    seat_of = dict(zip(names, bots, strict=True))
    game = new_game(title, names, game_seed)
    rng = random.Random(seed)
    decisions: dict[str, list[float]] = {b: [] for b in bots}
    cpu: dict[str, list[float]] = {b: [] for b in bots}
    illegal = crashes = 0
    while not game.state.finished and len(game.actions) < MAX_ACTIONS:
        player = game.acting_player() or names[0]
        level = seat_of.get(player, "random")
        bot = (players or {}).get(level) or get_bot(level)
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            action = bot.choose(game, rng)
        except Exception:
            crashes += 1
            action = rng.choice(game.legal_actions())
        decisions[bot.name].append(time.perf_counter() - start)
        cpu[bot.name].append(time.process_time() - start_cpu)
        try:
            game.apply(action)
        except RuleError:
            illegal += 1
            game.apply(rng.choice(game.legal_actions()))
    s = game.state
    scores_by_name = game.title.scores(game) if s.finished else game.title.raw_scores(game)
    scores = [scores_by_name.get(n, 0) for n in names]
    seat_ranks = ranks(scores)
    winners = sum(1 for r in scores if r == max(scores))
    seats = []
    for i, name in enumerate(names):
        others = [sc for j, sc in enumerate(scores) if j != i]
        seats.append(
            SeatResult(
                bot=bots[i],
                score=scores[i],
                rank=seat_ranks[i],
                win=(1 / winners) if scores[i] == max(scores) else 0.0,
                margin=scores[i] - (max(others) if others else 0),
                bankrupt=game.player(name).bankrupt,
            )
        )
    return GameResult(
        seed=game_seed,
        seats=seats,
        rounds=s.operating_round_no,
        end_reason=(s.end_reason or "unfinished") if s.finished else "unfinished",
        decisions=decisions,
        illegal=illegal,
        crashes=crashes,
        cpu=cpu,
    )


def schedule(bots: list[str], games: int, seed: int) -> list[tuple[list[str], int, int]]:
    """(seat order, bots' seed, game seed) of each game: seeds paired across rotations."""
    k = len(bots)
    out = []
    for i in range(games):
        turn = i % k
        out.append((bots[turn:] + bots[:turn], seed * 1_000_003 + i, seed + i // k))
    return out


def _play(args: tuple[str, list[str], int, int]) -> GameResult:
    return play_game(*args)


def run(
    title: str,
    bots: list[str],
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play the tournament and summarise it (the `--json` line of ``tresham tournament``)."""
    for name in bots:
        get_bot(name)
    start = time.perf_counter()
    work = [(title, seats, s, g) for seats, s, g in schedule(bots, games, seed)]
    results: list[GameResult] = []
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for result in pool.map(_play, work):
                results.append(result)
                if progress:
                    progress(len(results))
    else:
        for item in work:
            results.append(_play(item))
            if progress:
                progress(len(results))
    return summarise(title, results, time.perf_counter() - start)


def _p95(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def summarise(title: str, results: list[GameResult], seconds: float) -> dict[str, Any]:
    """The tournament's figures from its games."""
    per: dict[str, dict[str, Any]] = {}
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for r in results:
        for seat in r.seats:
            e = per.setdefault(
                seat.bot, {"seats": 0, "wins": 0.0, "rank": 0.0, "margin": 0, "bankruptcies": 0}
            )
            e["seats"] += 1
            e["wins"] += seat.win
            e["rank"] += seat.rank
            e["margin"] += seat.margin
            e["bankruptcies"] += int(seat.bankrupt)
        for bot, ts in r.decisions.items():
            times.setdefault(bot, []).extend(ts)
        for bot, ts in r.cpu.items():
            cpu.setdefault(bot, []).extend(ts)
    bots: dict[str, Any] = {}
    for bot, e in per.items():
        n = e["seats"]
        low, high = wilson(e["wins"], n)
        ts = sorted(times.get(bot, [])) or [0.0]
        cs = sorted(cpu.get(bot, [])) or [0.0]
        bots[bot] = {
            "seats": n,
            "wins": round(e["wins"], 3),
            "win_rate": round(e["wins"] / n, 4),
            "ci_low": round(low, 4),
            "ci_high": round(high, 4),
            "mean_rank": round(e["rank"] / n, 3),
            "mean_margin": round(e["margin"] / n, 1),
            "bankruptcies": e["bankruptcies"],
            "decision_ms_mean": round(1000 * sum(ts) / len(ts), 3),
            "decision_ms_p95": round(1000 * _p95(ts), 3),
            "decision_ms_max": round(1000 * ts[-1], 3),
            "decision_cpu_ms_p95": round(1000 * _p95(cs), 3),
        }
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
    return {
        "title": title,
        "games": len(results),
        "bots": bots,
        "rounds_mean": round(sum(r.rounds for r in results) / max(1, len(results)), 2),
        "end_reasons": dict(sorted(reasons.items())),
        "illegal_actions": sum(r.illegal for r in results),
        "crashes": sum(r.crashes for r in results),
        "seconds": round(seconds, 2),
    }
