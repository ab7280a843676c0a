"""Benchmark: random games per second and milliseconds per action, per title (prints figures).

Each title plays the same seeded games twice: bare, and as `make soak` plays them (a save and
reload check every 500 actions, which replays every action once more). The last column is
the check's cost as a ratio.

Run: .venv/bin/python benchmarks/simulate.py [games] [players] [titles...]
"""

from __future__ import annotations

import sys

from tresham.sim import simulate

PLAYERS = {"1849": (3, 4), "1883": (2, 4), "1854": (3, 6)}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    titles = sys.argv[3:] or ["1849", "1883", "1854"]
    print("title  games  actions  s (bare)  ms/action  games/s  s (checked)  checked/bare")
    for title in titles:
        lo, hi = PLAYERS[title]
        count = min(max(players, lo), hi)
        bare = simulate(title, games, count, seed=1)
        checked = simulate(title, games, count, seed=1, roundtrip_every=500)
        problems = checked.invariant_violations + checked.errors
        assert problems == 0, f"{title}: {checked.failures[:3]}"
        assert bare.actions == checked.actions, "the check must not change the games"
        print(
            f"{title}  {bare.games:5}  {bare.actions:7}  {bare.seconds:8.2f}  "
            f"{1000 * bare.seconds / max(1, bare.actions):9.3f}  "
            f"{bare.games / bare.seconds:7.3f}  {checked.seconds:11.2f}  "
            f"{checked.seconds / bare.seconds:12.2f}"
        )


if __name__ == "__main__":
    main()
