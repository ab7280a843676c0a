"""Benchmark: random 1849 games per second and actions per second (prints figures).

Run: .venv/bin/python benchmarks/simulate_1849.py [games] [players]
"""

from __future__ import annotations

import sys

from tresham.sim import simulate


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    result = simulate("1849", games, players, seed=1)
    print(f"games: {result.games}, finished: {result.finished}, actions: {result.actions}")
    print(f"seconds: {result.seconds:.2f}")
    print(f"games/second: {result.games / result.seconds:.3f}")
    print(f"actions/second: {result.actions / result.seconds:.0f}")
    print(f"ms/action: {1000 * result.seconds / max(1, result.actions):.3f}")


if __name__ == "__main__":
    main()
