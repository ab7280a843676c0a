"""Benchmark: what a stranger can make the server do (issue 34's probes, measured again).

- flood: a webhook receiver answering 200 and then an endless body as fast as it can; how
  much it pushed before the server closed, the server's memory growth, and how long it took.
- trickle: a receiver sending one byte every 0.5 s; how long the call held on (one total
  deadline per try, `webhook_timeout`, default 5 s; was 42 s for a 3 s drip).
- idle bots: GAMES games of bots only (1883, random bots, bot delay 0), nobody watching:
  the process's CPU use while they play and after `bot_idle` (they pause).

Run: .venv/bin/python benchmarks/server_public.py [--games 8] [--idle 5]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import socket
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

from tresham.server import ServerConfig, create_app
from tresham.server.targets import AllowList, Targets
from tresham.server.webhooks import WebhookSender

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def rss_mib() -> float:
    """The process's resident memory now (MiB)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def receiver(mode: str) -> tuple[int, dict[str, Any]]:
    """A loopback receiver of `mode` ("flood", "trickle"); its port and what it measured."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    facts: dict[str, Any] = {"sent": 0, "closed": None}

    def serve() -> None:
        conn, _ = sock.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 600000000\r\n\r\n")
            chunk = b"x" * 65536 if mode == "flood" else b"x"
            try:
                while facts["sent"] < 600_000_000:
                    conn.sendall(chunk)
                    facts["sent"] += len(chunk)
                    if mode == "trickle":
                        time.sleep(0.5)
            except OSError:
                facts["closed"] = time.monotonic()
        sock.close()

    threading.Thread(target=serve, daemon=True).start()
    return int(sock.getsockname()[1]), facts


async def one_call(mode: str, timeout: float) -> None:
    port, facts = receiver(mode)
    sender = WebhookSender(timeout, 1, 0.1, Targets(AllowList.parse(["127.0.0.1"])))
    before = rss_mib()
    started = time.monotonic()
    sender.send(f"http://127.0.0.1:{port}/hook", {"content": "x"})
    while sender.stats.delivered + sender.stats.failed == 0:
        await asyncio.sleep(0.01)
    took = time.monotonic() - started
    await sender.close()
    outcome = "delivered" if sender.stats.delivered else sender.stats.errors[-1]
    print(
        f"{mode}: {outcome}; the receiver pushed {facts['sent'] / 2**20:.1f} MiB before the "
        f"server closed; the call took {took:.2f} s; memory +{rss_mib() - before:.1f} MiB"
    )


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def idle_bots(games: int, idle: float) -> None:
    folder = Path(tempfile.mkdtemp(prefix="tresham-bench-"))
    config = ServerConfig(
        database_url=f"sqlite:///{folder / 'b.sqlite3'}",
        bot_delay=0.0,
        undo_grace=0.0,
        bot_idle=idle,
        bot_games=games,
        bot_games_per_client=games,
    )
    players = ["Ann", "Bob", "Cid"]
    bots = [{"player": p, "level": "random"} for p in players]
    with TestClient(create_app(config)) as client:
        server: Any = client.app.state.holder["server"]  # type: ignore[attr-defined]
        ids = []
        for _ in range(games):
            made = client.post(
                "/api/games", json={"title": "1883", "players": players, "bots": bots}
            )
            ids.append(made.json()["id"])
        start_cpu, start = cpu_seconds(), time.monotonic()
        time.sleep(idle)
        playing_cpu = (cpu_seconds() - start_cpu) / (time.monotonic() - start)
        moves = sum(server.registry.games[i].index for i in ids)
        time.sleep(1.0)  # the last moves in flight end
        start_cpu, start = cpu_seconds(), time.monotonic()
        time.sleep(idle)
        paused_cpu = (cpu_seconds() - start_cpu) / (time.monotonic() - start)
        later = sum(server.registry.games[i].index for i in ids)
        finished = sum(server.registry.games[i].game.state.finished for i in ids)
    print(
        f"idle bots: {games} games of bots only, nobody watching: {playing_cpu:.0%} of a core "
        f"in the first {idle:g} s ({moves} moves), {paused_cpu:.0%} once paused "
        f"({later - moves} moves in the next {idle:g} s; {finished} finished)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--idle", type=float, default=5.0)
    parser.add_argument("--timeout", type=float, default=5.0)
    args = parser.parse_args()
    asyncio.run(one_call("flood", args.timeout))
    asyncio.run(one_call("trickle", args.timeout))
    idle_bots(args.games, args.idle)


if __name__ == "__main__":
    main()
