"""Benchmark: a person's move while bots think elsewhere (issue 38, "bots never slow the table").

A `tresham serve` process is started (SQLite in a temporary folder unless --db is given; bot
delay 0, no idle pause, no limits), GAMES games of bots only are made (1883, four `hard` bots
each: --level) and left thinking for --warm seconds; then a person plays another game (1849,
three seats, each move a random legal action) and each of its MOVES moves is timed from the
POST to its arrival at the game's websocket listener (its legal actions are fetched before
the clock starts; the person waits --pause seconds between moves). Twice: with bots thinking
in the server's own threads (before: ``TRESHAM_BOT_WORKERS=threads``) and in WORKERS worker
processes at priority --nice (after). Prints p50/p95/p99 of the round trip and how many bot
moves were made meanwhile (so the bots were indeed busy). ``--games 0`` measures the machine
without bots.

Run: .venv/bin/python benchmarks/bot_workers.py [--games 20] [--workers 2] [--moves 100]
     [--level hard] [--db URL] [--only threads|workers]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

PEOPLE = ["Ann", "Bob", "Cid"]
BOTS = ["Dan", "Eve", "Fay", "Gus"]


def start_server(db: str, workers: str, nice: int) -> tuple[subprocess.Popen[str], str]:
    env = {
        **os.environ,
        "TRESHAM_BOT_DELAY": "0",
        "TRESHAM_UNDO_GRACE": "0",
        "TRESHAM_BOT_IDLE": "86400",
        "TRESHAM_BOT_GAMES": "100000",
        "TRESHAM_BOT_GAMES_PER_CLIENT": "100000",
        "TRESHAM_CREATE_LIMIT": "100000",
        "TRESHAM_CREATE_LIMIT_ALL": "100000",
        "TRESHAM_BOT_WORKERS": workers,
        "TRESHAM_BOT_NICE": str(nice),
    }
    command = [sys.executable, "-m", "tresham.cli", "serve", "--port", "0", "--db", db]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    for line in proc.stdout:
        found = re.search(r"tresham server: (http://\S+?)/?$", line.strip())
        if found:
            url = found.group(1)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    if httpx.get(f"{url}/api/health", timeout=5).status_code == 200:
                        return proc, url
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
    raise RuntimeError("the server did not start")


def percentile(ms: list[float], p: float) -> float:
    return ms[min(len(ms) - 1, round(p * (len(ms) - 1)))]


def summary(samples: list[float]) -> str:
    ms = sorted(1000 * s for s in samples)
    return (
        f"n={len(ms)}  p50={percentile(ms, 0.5):.1f} ms  p95={percentile(ms, 0.95):.1f} ms  "
        f"p99={percentile(ms, 0.99):.1f} ms  max={ms[-1]:.1f} ms"
    )


def bot_moves(client: httpx.Client, games: list[str]) -> int:
    return sum(int(client.get(f"/api/games/{g}").json()["index"]) for g in games)


def measure(
    db: str,
    workers: str,
    games: int,
    moves: int,
    level: str,
    warm: float,
    pause: float,
    nice: int,
) -> None:
    proc, url = start_server(db, workers, nice)
    try:
        with httpx.Client(base_url=url, timeout=120) as client:
            bot_games = []
            for seed in range(games):
                body = {
                    "title": "1883",
                    "players": BOTS,
                    "seed": seed,
                    "bots": [{"player": p, "level": level} for p in BOTS],
                }
                answer = client.post("/api/games", json=body)
                assert answer.status_code == 201, answer.text
                bot_games.append(answer.json()["id"])
            time.sleep(warm)
            made = client.post("/api/games", json={"title": "1849", "players": PEOPLE, "seed": 1})
            data = made.json()
            game_id = data["id"]
            tokens = {s["player"]: s["token"] for s in data["seats"]}
            rng = random.Random(1)
            ws_url = "ws://" + url.removeprefix("http://") + f"/api/games/{game_id}/ws"
            samples: list[float] = []
            before = bot_moves(client, bot_games)
            started = time.perf_counter()
            with connect(ws_url, max_size=None, open_timeout=60) as ws:
                state = json.loads(ws.recv(timeout=60))["state"]
                for _ in range(moves):
                    if state["finished"]:
                        break
                    headers = {"Authorization": f"Bearer {tokens[state['acting_player']]}"}
                    legal = client.get(f"/api/games/{game_id}/legal", headers=headers).json()
                    body = {"index": legal["index"], "action": rng.choice(legal["actions"])}
                    start = time.perf_counter()
                    answer = client.post(
                        f"/api/games/{game_id}/actions", json=body, headers=headers
                    )
                    assert answer.status_code == 200, answer.text
                    index = answer.json()["index"]
                    while True:
                        message = json.loads(ws.recv(timeout=120))
                        state = message["state"]
                        if message["index"] >= index:
                            break
                    samples.append(time.perf_counter() - start)
                    time.sleep(pause)
            seconds = time.perf_counter() - started
            during = bot_moves(client, bot_games) - before
        where = (
            "the server's threads"
            if workers == "threads"
            else f"{workers} worker processes (nice {nice})"
        )
        print(f"bots thinking in {where}: a person's move {summary(samples)}")
        print(f"  meanwhile {games} games of {level} bots made {during} moves in {seconds:.0f} s")
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--warm", type=float, default=5.0, help="seconds the bots think first")
    parser.add_argument(
        "--pause", type=float, default=0.1, help="seconds the person waits between moves"
    )
    parser.add_argument("--nice", type=int, default=10, help="the workers' lower priority")
    parser.add_argument("--db", help="a database URL (default: a new SQLite file)")
    parser.add_argument("--only", choices=["threads", "workers"])
    args = parser.parse_args()
    runs = [("threads", "threads"), ("workers", str(args.workers))]
    with tempfile.TemporaryDirectory() as tmp:
        for name, workers in runs:
            if args.only not in (None, name):
                continue
            db = args.db or f"sqlite:///{Path(tmp) / f'{name}.sqlite3'}"
            measure(
                db, workers, args.games, args.moves, args.level, args.warm, args.pause, args.nice
            )


if __name__ == "__main__":
    main()
