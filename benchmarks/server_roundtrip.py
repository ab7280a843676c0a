"""Benchmark: an action's round trip through the server with many live games (prints p50/p99).

A round trip is: POST the action -> the server stores it (committed) and answers -> the
game's websocket listener receives the new entry. A `tresham serve` process is started on a
free port (SQLite in a temporary folder unless --db is given), GAMES 3-player 1849 games are
created, each with a websocket listener, and then:
- one at a time: each game in turn makes a move (no other load);
- all at once: every game moves concurrently, MOVES moves each.
The legal actions are fetched before the clock starts (they are not part of the round trip).

Run: .venv/bin/python benchmarks/server_roundtrip.py [--games 100] [--moves 10] [--db URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

PLAYERS = ["Ann", "Bob", "Cid"]


class Table:
    """One game: its seats' tokens, an HTTP client of its own (one connection: a shared pool
    of 100 costs the client more than the server's work) and a websocket listener."""

    def __init__(
        self, game_id: str, tokens: dict[str, str], ws: ClientConnection, http: httpx.AsyncClient
    ) -> None:
        self.id = game_id
        self.tokens = tokens
        self.ws = ws
        self.http = http
        self.state: dict[str, Any] = {}
        self.rng = random.Random(game_id)

    async def next_message(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await self.ws.recv())
        self.state = message["state"]
        return message

    async def move(self) -> float | None:
        """One move; its round trip in seconds (None: the game is over)."""
        player = self.state["acting_player"]
        if self.state["finished"] or player is None:
            return None
        headers = {"Authorization": f"Bearer {self.tokens[player]}"}
        http = self.http
        legal = (await http.get(f"/api/games/{self.id}/legal", headers=headers)).json()
        body = {"index": legal["index"], "action": self.rng.choice(legal["actions"])}
        start = time.perf_counter()
        answer = await http.post(f"/api/games/{self.id}/actions", json=body, headers=headers)
        if answer.status_code != 200:
            raise RuntimeError(f"game {self.id}: {answer.status_code} {answer.text}")
        index = answer.json()["index"]
        while (await self.next_message())["index"] < index:
            pass
        return time.perf_counter() - start


def start_server(db: str) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "TRESHAM_BOT_DELAY": "0"}
    command = [sys.executable, "-m", "tresham.cli", "serve", "--port", "0", "--db", db]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    for line in proc.stdout:
        found = re.search(r"tresham server: (http://\S+?)/?$", line.strip())
        if found:
            return proc, found.group(1)
    raise RuntimeError("the server did not start")


def percentiles(samples: list[float]) -> str:
    ms = sorted(1000 * s for s in samples)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return f"n={len(ms)}  p50={p50:.2f} ms  p99={p99:.2f} ms  max={ms[-1]:.2f} ms"


async def run(url: str, games: int, moves: int) -> None:
    ws_base = "ws://" + url.removeprefix("http://")
    tables: list[Table] = []
    try:
        for seed in range(games):
            http = httpx.AsyncClient(base_url=url, timeout=60)
            body = {"title": "1849", "players": PLAYERS, "seed": seed}
            data = (await http.post("/api/games", json=body)).json()
            ws = await connect(
                f"{ws_base}/api/games/{data['id']}/ws", max_size=None, compression=None
            )
            table = Table(data["id"], {s["player"]: s["token"] for s in data["seats"]}, ws, http)
            await table.next_message()
            tables.append(table)
        print(f"{games} live games, each with a websocket listener")

        alone: list[float] = []
        for table in tables:
            took = await table.move()
            if took is not None:
                alone.append(took)
        print(f"one at a time:  {percentiles(alone)}")

        async def play(table: Table) -> list[float]:
            out = []
            for _ in range(moves):
                took = await table.move()
                if took is None:
                    break
                out.append(took)
            return out

        started = time.perf_counter()
        results = await asyncio.gather(*(play(t) for t in tables))
        seconds = time.perf_counter() - started
        together = [s for r in results for s in r]
        print(f"all at once:    {percentiles(together)}")
        print(f"throughput:     {len(together) / seconds:.0f} actions/s")
    finally:
        for table in tables:
            await table.ws.close()
            await table.http.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--db", help="database URL (default: SQLite in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        proc, url = start_server(db)
        print(f"server {url}, database {db.split('@')[-1]}")
        try:
            asyncio.run(run(url, args.games, args.moves))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
