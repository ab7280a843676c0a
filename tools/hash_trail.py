"""The state hash every few actions of bot games of every title, to prove that a change of
how the engine is written changes nothing it computes (issue 35: "every state hash ... is
unchanged by the move"). Run it before and after, and compare the two files:

    python tools/hash_trail.py --out /tmp/before.json
    python tools/hash_trail.py --out /tmp/after.json --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tresham.io.save import new_game
from tresham.server.bots import bot_action
from tresham.titles.registry import get_title

PLAYERS = {"1849": 3, "1854": 4, "1883": 4}
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


def trail(title: str, players: int, seed: int, level: str, every: int) -> list[str]:
    """The state hash after every `every` actions of a game of `level` bots, and at its end."""
    game = new_game(title, NAMES[:players], seed)
    out = []
    while not game.state.finished and len(game.actions) < 5000:
        game.apply(bot_action(game, len(game.actions), level))
        if len(game.actions) % every == 0:
            out.append(game.state_hash())
    out.append(f"{len(game.actions)} {game.state.end_reason} {game.state_hash()}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="easy games per title and count")
    parser.add_argument("--medium", type=int, default=1, help="medium games per title")
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--compare", type=Path)
    args = parser.parse_args(argv)
    result: dict[str, list[str]] = {}
    for title, count in PLAYERS.items():
        lo, hi = get_title(title).player_range
        for players in sorted({count, min(count + 1, hi), max(count - 1, lo)} - {count - 1}):
            for seed in range(1, args.games + 1):
                key = f"{title}/{players}/easy/{seed}"
                result[key] = trail(title, players, seed, "easy", args.every)
                print(key, result[key][-1], file=sys.stderr)
        for seed in range(1, args.medium + 1):
            key = f"{title}/{count}/medium/{seed}"
            result[key] = trail(title, count, seed, "medium", args.every)
            print(key, result[key][-1], file=sys.stderr)
    args.out.write_text(json.dumps(result, indent=0))
    hashes = sum(len(v) for v in result.values())
    print(f"{len(result)} games, {hashes} hashes -> {args.out}")
    if args.compare:
        before = json.loads(args.compare.read_text())
        differ = [k for k in before if before[k] != result.get(k)]
        print(f"compared with {args.compare}: {len(differ)} games differ {differ[:5]}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
