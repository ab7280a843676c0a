"""kill -9 of `tresham serve` during bursts of moves, many times over (issue 9).

Each round starts a server on the database, posts legal moves as fast as they go (games of
every title in turn, a new one every 10 kills or when a game ends) and kills the server with
SIGKILL after a random number of acknowledged moves (5-40). A second server is then started
on the same database: every acknowledged move must be in the log once, at its index, and the
log must replay to the game shown. The database is a SQLite file or a throwaway PostgreSQL
cluster (as the tests start it). Prints a line per kill and, last, the figures as JSON; exits
0 only when nothing was lost, duplicated or mismatched.

    python tools/crash_soak.py --backend sqlite --kills 10 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from conftest_server import (  # noqa: E402
    PgCluster,
    ServerProcess,
    burst_until_killed,
    postgres_bindir,
    problems_after_restart,
)

TITLES = ("1849", "1883", "1854")
PLAYERS = ["Ann", "Bob", "Cid"]
#: A game takes this many kills at most before the next title's game begins.
KILLS_PER_GAME = 10


def _new_game(client: httpx.Client, title: str, seed: int) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/games", json={"title": title, "players": PLAYERS, "seed": seed})
    answer.raise_for_status()
    data = answer.json()
    return data["id"], {s["player"]: s["token"] for s in data["seats"]}


def run(db_url: str, workdir: Path, kills: int, seed: int) -> dict[str, Any]:
    """`kills` rounds of burst, kill -9, restart and check; the figures."""
    rng = random.Random(seed)
    figures: dict[str, Any] = {
        "kills": 0,
        "games": 0,
        "acknowledged": 0,
        "lost": 0,
        "duplicated": 0,
        "mismatched": 0,
        "problems": [],
    }
    game: tuple[str, dict[str, str]] | None = None
    for k in range(kills):
        server = ServerProcess(db_url, workdir).start()
        with httpx.Client(base_url=server.url, timeout=30) as client:
            fresh = k % KILLS_PER_GAME == 0
            if fresh or game is None or client.get(f"/api/games/{game[0]}").json()["finished"]:
                title = TITLES[figures["games"] % len(TITLES)]
                game = _new_game(client, title, rng.randrange(1, 10**6))
                figures["games"] += 1
        acknowledged = burst_until_killed(server, *game, rng.randint(5, 40), rng.randrange(10**9))
        figures["kills"] += 1
        figures["acknowledged"] += len(acknowledged)
        restarted = ServerProcess(db_url, workdir).start()
        try:
            with httpx.Client(base_url=restarted.url, timeout=30) as client:
                problems = problems_after_restart(client, game[0], acknowledged)
        finally:
            restarted.stop()
        for problem in problems:
            figures[problem.split(":")[0]] += 1
        figures["problems"] += [f"kill {k + 1}: {p}" for p in problems][:20]
        status = "; ".join(problems) or "ok"
        print(f"kill {k + 1}/{kills}: {len(acknowledged)} moves acknowledged: {status}", flush=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tresham-crash-") as tmp:
        workdir = Path(tmp)
        cluster: PgCluster | None = None
        if args.backend == "postgresql":
            bindir = postgres_bindir()
            if bindir is None:
                print("PostgreSQL is not installed (make postgres installs it)", file=sys.stderr)
                return 2
            cluster = PgCluster(bindir)
        try:
            if cluster is not None:
                cluster.start()
                db_url = cluster.new_database()
            else:
                db_url = f"sqlite:///{workdir / 'tresham.sqlite3'}"
            figures = run(db_url, workdir, args.kills, args.seed)
        finally:
            if cluster is not None:
                cluster.stop()
    print(json.dumps({"backend": args.backend, **figures}))
    bad = figures["lost"] + figures["duplicated"] + figures["mismatched"]
    return 0 if bad == 0 and figures["kills"] == args.kills else 1


if __name__ == "__main__":
    sys.exit(main())
