"""Benchmark: what a bot pays to explore, per title (prints figures).

For a game of each title played by random bots to its middle (the action count given), it
times, in milliseconds (the median of the repetitions):

- ``deepcopy``: ``copy.deepcopy(game)``, which is what ``Game.clone`` did before search copies
  (title, log, checkpoints and all);
- ``clone``: ``Game.clone`` now (state copied; title, action records, checkpoints shared);
- ``search``: ``Game.search_copy`` (no undo, the map's cached answers kept);
- ``state``: ``copy.deepcopy(game.state)`` alone, the floor;
- ``apply`` and ``known``: one legal action applied with ``apply`` (validated) and with
  ``apply_known`` on a search copy, the copy's cost excluded;

and the ratio deepcopy / search.

Run: .venv/bin/python benchmarks/copies.py [actions] [repetitions] [titles...]
"""

from __future__ import annotations

import copy
import random
import statistics
import sys
import time
from collections.abc import Callable

from tresham.bots.random_bot import choose
from tresham.core.game import Game
from tresham.io.save import new_game


def _ms(work: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def _middle(title: str, actions: int) -> Game:
    game = new_game(title, ["A", "B", "C", "D"], 3)
    rng = random.Random(3)
    while len(game.actions) < actions and not game.state.finished:
        game.apply(choose(game, rng))
    return game


def _apply_ms(game: Game, reps: int, known: bool) -> float:
    times = []
    rng = random.Random(5)
    for _ in range(reps):
        work = game.search_copy()
        action = choose(work, rng)
        start = time.perf_counter()
        if known:
            work.apply_known(action)
        else:
            work.apply(action)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    actions = int(sys.argv[1]) if len(sys.argv) > 1 else 800
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    titles = sys.argv[3:] or ["1849", "1883", "1854"]
    print("title  actions  deepcopy  clone  search  state  apply  known  deepcopy/search")
    for title in titles:
        game = _middle(title, actions)
        old = _ms(lambda g=game: copy.deepcopy(g), reps)
        clone = _ms(game.clone, reps)
        search = _ms(game.search_copy, reps)
        state = _ms(lambda g=game: copy.deepcopy(g.state), reps)
        apply = _apply_ms(game, reps, known=False)
        known = _apply_ms(game, reps, known=True)
        print(
            f"{title}  {len(game.actions):7}  {old:8.2f}  {clone:5.2f}  {search:6.2f}  "
            f"{state:5.2f}  {apply:5.2f}  {known:5.2f}  {old / search:15.1f}"
        )


if __name__ == "__main__":
    main()
