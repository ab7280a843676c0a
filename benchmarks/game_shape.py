"""Benchmark: the shape of the bots' games, as an 18xx player reads a game (prints figures).

For a title at a player count it plays games of one bot level in every seat (default: 1849,
3 and 4 players, ``medium``) and prints, over the games:

- how long they last (operating rounds, p50 and range) and how they end;
- the share of games in which each train type is bought from the bank, and the median
  operating round of its first purchase ("OR 5.2" style: the set of operating rounds and the
  round within it);
- corporations floated per game (mean, and the share of games with at most half of them);
- forced sales (a player's share sales during an operating round: the emergency sales to buy
  a train), loans taken, bankruptcies, per game;
- the longest stretch of operating rounds spent in one phase (a frozen game sits in one
  phase for dozens of rounds).

A real 1849 game at 4 players for comparison (``../shared/reference/18xx-games``): first 6H
and 8H in the same operating rounds as the bots, the 12H at OR 5.2, the 16H at OR 6.3, five
corporations floated.

Long: every game is appended to a ledger (JSON lines, default
``benchmarks/results/game_shape.jsonl``, keyed by title, seats, level and index), and a run
resumes from it; ``--tag`` keeps runs of different code apart (``--tag before``).

Run: nice .venv/bin/python benchmarks/game_shape.py [--title 1849] [--players 3 4]
     [--level medium] [--games 100] [--jobs 2] [--tag T] [--report]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tresham.bots.players import get_bot
from tresham.bots.tournament import MAX_ACTIONS
from tresham.core.actions import BuyTrain, SellShares
from tresham.core.errors import RuleError
from tresham.core.rounds.operating import OperatingRound
from tresham.io.save import new_game

LEDGER = Path(__file__).parent / "results" / "game_shape.jsonl"
SEED = 20261203


@dataclass
class Shape:
    """One game's shape."""

    rounds: int
    end_reason: str
    #: Train type -> the operating round of its first purchase from the bank ("5.2").
    first_bought: dict[str, str] = field(default_factory=dict)
    floated: int = 0
    corporations: int = 0
    forced_sales: int = 0
    loans: int = 0
    bankruptcies: int = 0
    longest_phase: int = 0
    faults: int = 0


def play(title: str, players: int, level: str, seed: int) -> Shape:
    """Play one game of `level` bots in every seat and read its shape."""
    names = [f"P{i + 1}" for i in range(players)]
    game = new_game(title, names, seed)
    bot = get_bot(level)
    rng = random.Random(seed * 7919 + players)
    first: dict[str, str] = {}
    floated: set[str] = set()
    forced = faults = 0
    phase_start, longest, phase = 0, 0, game.state.phase_index
    while not game.state.finished and len(game.actions) < MAX_ACTIONS:
        s = game.state
        action = bot.choose(game, rng)
        from_bank = isinstance(action, BuyTrain) and s.depot.trains[action.train].owner is None
        kind = s.depot.trains[action.train].kind if isinstance(action, BuyTrain) else ""
        in_or = isinstance(s.round, OperatingRound)
        try:
            game.apply(action)
        except RuleError:
            faults += 1
            game.apply(rng.choice(game.legal_actions()))
            continue
        s = game.state
        if from_bank and kind not in first:
            first[kind] = f"{s.stock_round_no}:{s.or_in_set}"
        if isinstance(action, SellShares) and in_or and action.entity in names:
            forced += 1
        floated.update(sym for sym, c in s.corps.items() if c.floated)
        if s.phase_index != phase:
            longest = max(longest, s.operating_round_no - phase_start)
            phase, phase_start = s.phase_index, s.operating_round_no
    s = game.state
    longest = max(longest, s.operating_round_no - phase_start)
    return Shape(
        rounds=s.operating_round_no,
        end_reason=str(s.end_reason or "unfinished") if s.finished else "unfinished",
        first_bought=first,
        floated=len(floated),
        corporations=len(s.corps),
        forced_sales=forced,
        loans=sum(p.loans for p in s.players),
        bankruptcies=sum(p.bankrupt for p in s.players),
        longest_phase=longest,
        faults=faults,
    )


def _play(args: tuple[str, int, str, int]) -> Shape:
    return play(*args)


def key(title: str, players: int, level: str, tag: str, index: int) -> str:
    return f"{title}|{players}|{level}|{tag}|{index}"


def load(ledger: Path) -> dict[str, Shape]:
    out: dict[str, Shape] = {}
    if ledger.exists():
        for line in ledger.read_text().splitlines():
            row = json.loads(line)
            out[row["key"]] = Shape(**row["shape"])
    return out


def report(title: str, players: int, level: str, tag: str, shapes: list[Shape]) -> None:
    n = len(shapes)
    rounds = sorted(s.rounds for s in shapes)
    ends: dict[str, int] = {}
    for s in shapes:
        ends[s.end_reason] = ends.get(s.end_reason, 0) + 1
    print(f"\n{title} at {players} players, {level} in every seat ({tag}): {n} games")
    print(
        f"  operating rounds: median {statistics.median(rounds)}, range {rounds[0]}-{rounds[-1]};"
        f" ends: {', '.join(f'{k} {v}' for k, v in sorted(ends.items()))}"
    )
    kinds: list[str] = []
    for s in shapes:
        kinds.extend(k for k in s.first_bought if k not in kinds)
    print("  train   bought in   first bought (median OR)")
    for k in kinds:
        at = [s.first_bought[k] for s in shapes if k in s.first_bought]
        print(f"  {k:6}  {100 * len(at) / n:5.0f}%     OR {_median_label(at)}")
    floated = [s.floated for s in shapes]
    half = sum(1 for s in shapes if s.floated * 2 <= s.corporations)
    print(
        f"  corporations floated: mean {statistics.mean(floated):.2f} of {shapes[0].corporations};"
        f" at most half in {100 * half / n:.0f}% of games"
    )
    print(
        f"  per game: forced sales {statistics.mean(s.forced_sales for s in shapes):.2f},"
        f" loans {statistics.mean(s.loans for s in shapes):.2f},"
        f" bankruptcies {statistics.mean(s.bankruptcies for s in shapes):.2f}"
        f" (games with one: {100 * sum(1 for s in shapes if s.bankruptcies) / n:.0f}%)"
    )
    longest = sorted(s.longest_phase for s in shapes)
    print(
        f"  longest stretch in one phase: median {statistics.median(longest)} ORs, max"
        f" {longest[-1]}; games with 10+: {sum(1 for v in longest if v >= 10)}"
    )
    faults = sum(s.faults for s in shapes)
    if faults:
        print(f"  illegal bot actions: {faults}")


def _median_label(labels: list[str]) -> str:
    """The median of "N:K" operating-round labels, as "N.K"."""
    ordered = sorted(labels, key=lambda t: tuple(int(x) for x in t.split(":")))
    return ordered[len(ordered) // 2].replace(":", ".")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--title", default="1849")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4])
    parser.add_argument("--level", default="medium")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--tag", default="now")
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    parser.add_argument("--report", action="store_true", help="only print the ledger's figures")
    args = parser.parse_args()
    args.ledger.parent.mkdir(parents=True, exist_ok=True)
    done = load(args.ledger)
    for n in args.players:
        keys = [key(args.title, n, args.level, args.tag, i) for i in range(args.games)]
        todo = [(k, (args.title, n, args.level, SEED + i)) for i, k in enumerate(keys)]
        todo = [t for t in todo if t[0] not in done]
        if todo and not args.report:
            with ProcessPoolExecutor(args.jobs) as pool, args.ledger.open("a") as out:
                games = pool.map(_play, [t for _, t in todo])
                for (k, _), shape in zip(todo, games, strict=True):
                    done[k] = shape
                    out.write(json.dumps({"key": k, "shape": asdict(shape)}) + "\n")
                    out.flush()
        shapes = [done[k] for k in keys if k in done]
        if shapes:
            report(args.title, n, args.level, args.tag, shapes)


if __name__ == "__main__":
    main()
