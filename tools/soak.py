"""The long reliability run behind `make soak` (issue 9), resumable and parallel.

It plays `--games` random games of each title, spread evenly over the title's player counts,
fuzzes `--fuzz-actions` actions per title, and kills the server `--crash-kills` times on each
database (SQLite, PostgreSQL) during bursts of moves, in small units (`tresham simulate`,
`tresham fuzz` and `tools/crash_soak.py` with consecutive seeds), taken in turns. Each
finished unit is appended to a ledger (JSON lines, with the commit it ran); a later run skips
what the ledger holds, so the hours of work can be spread over several sittings. The default
ledger, `soak/ledger.jsonl`, is tracked by git: commit it, or a fresh clone starts from
nothing. Saves of failed games go beside the ledger (not tracked). `--report` only prints
the totals so far.

A failed unit stays failed until `--rerun-failed` runs it again (after a fix): the totals then
count each unit by its latest run, and list the failures that a later run of the same unit
no longer shows (``fixed``, with the commit that failed and the one that passed).

    python tools/soak.py --jobs 2             # run (or resume) everything
    python tools/soak.py --rerun-failed       # after a fix: run the failed units again
    python tools/soak.py --report             # the figures so far
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

PLAYER_COUNTS = {"1849": (3, 4), "1883": (2, 3, 4), "1854": (3, 4, 5, 6)}
#: The differential games against 18xx.games' engine (issue 39): 1849 at these counts.
ORACLE_COUNTS = (3, 4, 5)
ORACLE_CHUNK = 10
ORACLE_KEYS = ("games", "equal", "site_causes")
FUZZ_PLAYERS = 4
#: The commit the units run (recorded with each result; "" outside a git checkout).
COMMIT = subprocess.run(
    ["git", "rev-parse", "--short", "HEAD"],
    capture_output=True,
    text=True,
    cwd=Path(__file__).parent,
    check=False,
).stdout.strip()
SIM_KEYS = ("games", "finished", "invariant_violations", "errors", "actions", "seconds")
FUZZ_KEYS = ("tried", "rejected", "accepted", "state_changed", "crashes", "games", "seconds")
BACKENDS = ("sqlite", "postgresql")
CRASH_KEYS = ("kills", "games", "acknowledged", "lost", "duplicated", "mismatched")
CRASH_CHUNK = 10


def units(
    games: int,
    fuzz_actions: int,
    chunk: int,
    fuzz_chunk: int,
    crash_kills: int = 0,
    oracle_games: int = 0,
) -> list[dict[str, Any]]:
    """Every unit of work: simulate chunks (seeds 1.. per player count), fuzz chunks, crash
    chunks and chunks of games replayed in the site's engine (`oracle_games` per player
    count), taken in turns across titles, player counts and databases, so that a partial
    run covers them all."""
    queues: list[list[dict[str, Any]]] = [
        [
            {"kind": "oracle", "players": players, "seed": 1 + start}
            | {"count": min(ORACLE_CHUNK, oracle_games - start)}
            for start in range(0, oracle_games, ORACLE_CHUNK)
        ]
        for players in ORACLE_COUNTS
    ] + [
        [
            {"kind": "crash", "backend": backend, "seed": 1 + k}
            | {"count": min(CRASH_CHUNK, crash_kills - start)}
            for k, start in enumerate(range(0, crash_kills, CRASH_CHUNK))
        ]
        for backend in BACKENDS
    ]
    for title, counts in PLAYER_COUNTS.items():
        for i, players in enumerate(counts):
            share = games // len(counts) + (1 if i < games % len(counts) else 0)
            queues.append(
                [
                    {"kind": "simulate", "title": title, "players": players, "seed": 1 + start}
                    | {"count": min(chunk, share - start)}
                    for start in range(0, share, chunk)
                ]
            )
        queues.append(
            [
                {"kind": "fuzz", "title": title, "seed": 1 + k}
                | {"count": min(fuzz_chunk, fuzz_actions - start)}
                for k, start in enumerate(range(0, fuzz_actions, fuzz_chunk))
            ]
        )
    out: list[dict[str, Any]] = []
    for turn in range(max(len(q) for q in queues)):
        out += [q[turn] for q in queues if turn < len(q)]
    return out


def key(unit: dict[str, Any]) -> str:
    """A unit's identity in the ledger."""
    return json.dumps({k: unit[k] for k in sorted(unit) if k != "result"})


def command(unit: dict[str, Any]) -> list[str]:
    """The command line that does `unit`."""
    if unit["kind"] == "oracle":
        tool = str(Path(__file__).parents[1] / "benchmarks" / "oracle_1849.py")
        span = ("--games", str(unit["count"]), "--first", str(unit["seed"] - 1))
        return [sys.executable, tool, *span, "--players", str(unit["players"]), "--json"]
    if unit["kind"] == "crash":
        tool = str(Path(__file__).with_name("crash_soak.py"))
        size = ("--kills", str(unit["count"]), "--seed", str(unit["seed"]))
        return [sys.executable, tool, "--backend", unit["backend"], *size]
    tresham = str(Path(sys.executable).with_name("tresham"))
    simulate = unit["kind"] == "simulate"
    size = "--games" if simulate else "--actions"
    players = unit["players"] if simulate else FUZZ_PLAYERS
    return [
        *(tresham, unit["kind"], unit["title"], size, str(unit["count"])),
        *("--seed", str(unit["seed"]), "--players", str(players), "--json"),
    ]


def run_unit(unit: dict[str, Any], where: Path) -> dict[str, Any]:
    """Run one unit in its own process (failed games' saves land in `where`)."""
    proc = subprocess.run(command(unit), capture_output=True, text=True, cwd=where, check=False)
    lines = proc.stdout.strip().splitlines()
    try:
        result = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        result = {"crashed": True, "stderr": proc.stderr[-2000:]}
    result["exit"] = proc.returncode
    result["notes"] = lines[:-1][:20]
    result["commit"] = COMMIT
    return unit | {"result": result}


def load(ledger: Path) -> list[dict[str, Any]]:
    """The units the ledger holds."""
    if not ledger.exists():
        return []
    return [json.loads(line) for line in ledger.read_text().splitlines() if line.strip()]


def latest(done: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each unit's latest run in the ledger."""
    return list({key(u): u for u in done}.values())


def fixed(done: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Failed runs of units whose latest run passed: what failed, and the commits."""
    last = {key(u): u for u in done}
    return [
        {k: u[k] for k in sorted(u) if k != "result"}
        | {"notes": u["result"]["notes"], "failed_at": u["result"].get("commit")}
        | {"passed_at": last[key(u)]["result"].get("commit")}
        for u in done
        if u["result"]["exit"] != 0 and last[key(u)]["result"]["exit"] == 0
    ]


def report(runs: list[dict[str, Any]], planned: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals per title (simulate and fuzz figures, units done of planned) and per database
    (the crash figures), each unit counted by its latest run; and the failures fixed since."""
    done = latest(runs)
    out: dict[str, Any] = {"fixed": fixed(runs)}
    for backend in BACKENDS:
        mine = [u for u in done if u["kind"] == "crash" and u["backend"] == backend]
        out[backend] = {k: sum(int(u["result"].get(k, 0)) for u in mine) for k in CRASH_KEYS}
        out[backend] |= {
            "commits": _commits(mine),
            "units_done": len(mine),
            "units_planned": sum(1 for u in planned if u.get("backend") == backend),
            "units_failed": sum(1 for u in mine if u["result"]["exit"] != 0),
        }
    oracle = [u for u in done if u["kind"] == "oracle"]
    out["oracle-1849"] = {
        str(p): {
            k: sum(int(u["result"].get(k, 0)) for u in oracle if u["players"] == p)
            for k in ORACLE_KEYS
        }
        for p in ORACLE_COUNTS
    } | {
        "units_done": len(oracle),
        "units_planned": sum(1 for u in planned if u["kind"] == "oracle"),
        "units_failed": sum(1 for u in oracle if u["result"]["exit"] != 0),
    }
    for title in PLAYER_COUNTS:
        sim = {k: 0.0 for k in SIM_KEYS}
        fz = {k: 0.0 for k in FUZZ_KEYS}
        failed_units = 0
        for u in done:
            if u.get("title") != title:
                continue
            r = u["result"]
            failed_units += r["exit"] != 0
            table, keys = (sim, SIM_KEYS) if u["kind"] == "simulate" else (fz, FUZZ_KEYS)
            for k in keys:
                table[k] += r.get(k, 0)
        out[title] = {
            "simulate": {k: round(v, 1) if k == "seconds" else int(v) for k, v in sim.items()},
            "fuzz": {k: round(v, 1) if k == "seconds" else int(v) for k, v in fz.items()},
            "commits": _commits(u for u in done if u.get("title") == title),
            "units_done": sum(1 for u in done if u.get("title") == title),
            "units_planned": sum(1 for u in planned if u.get("title") == title),
            "units_failed": failed_units,
        }
    return out


def _group(unit: dict[str, Any]) -> str:
    """The `--titles` name that selects a unit."""
    if unit["kind"] == "oracle":
        return "oracle"
    return str(unit.get("title", "server"))


def _commits(done: Iterable[dict[str, Any]]) -> dict[str, int]:
    """How many of the units each commit ran ("?" for units from before commits were kept)."""
    out: dict[str, int] = {}
    for u in done:
        commit = u["result"].get("commit") or "?"
        out[commit] = out.get(commit, 0) + 1
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="random games per title")
    parser.add_argument("--fuzz-actions", type=int, default=100_000, help="per title")
    parser.add_argument("--chunk", type=int, default=50, help="games per unit")
    parser.add_argument("--fuzz-chunk", type=int, default=10_000, help="actions per unit")
    parser.add_argument("--crash-kills", type=int, default=100, help="per database")
    parser.add_argument(
        "--oracle-games",
        type=int,
        default=0,
        help="1849 games per player count replayed by 18xx.games' engine",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ledger", type=Path, default=Path("soak/ledger.jsonl"))
    parser.add_argument(
        "--titles",
        nargs="*",
        default=[*PLAYER_COUNTS, "server", "oracle"],
        help="run only these (titles, 'server' for the crash units, 'oracle' for the games "
        "replayed by 18xx.games' engine)",
    )
    parser.add_argument("--report", action="store_true", help="print the totals and stop")
    parser.add_argument(
        "--rerun-failed", action="store_true", help="run units whose latest run failed again"
    )
    args = parser.parse_args()

    planned = units(
        args.games,
        args.fuzz_actions,
        args.chunk,
        args.fuzz_chunk,
        args.crash_kills,
        args.oracle_games,
    )
    args.ledger.parent.mkdir(parents=True, exist_ok=True)
    done = load(args.ledger)
    chosen = [u for u in planned if _group(u) in args.titles]
    if not args.report:
        seen = {key(u) for u in latest(done) if not (args.rerun_failed and u["result"]["exit"])}
        todo = [u for u in chosen if key(u) not in seen]
        print(f"{len(chosen) - len(todo)} of {len(chosen)} units already done", flush=True)
        started = time.monotonic()
        with ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_unit, u, args.ledger.parent) for u in todo]
            for n, fut in enumerate(as_completed(futures), 1):
                unit = fut.result()
                with args.ledger.open("a") as fh:
                    fh.write(json.dumps(unit) + "\n")
                done.append(unit)
                r = unit["result"]
                status = "ok" if r["exit"] == 0 else f"FAILED {r.get('notes') or r}"
                elapsed = time.monotonic() - started
                what = unit.get("title") or unit.get("backend") or "1849"
                who = "" if unit["kind"] == "crash" else f" p{unit.get('players', FUZZ_PLAYERS)}"
                print(
                    f"[{n}/{len(todo)} {elapsed / 60:.0f} min] {unit['kind']} {what}{who} "
                    f"seed {unit['seed']} x{unit['count']}: {status}",
                    flush=True,
                )
    totals = report(done, planned)
    print(json.dumps(totals, indent=1))
    complete = {key(u) for u in chosen} <= {key(u) for u in done}
    clean = all(t["units_failed"] == 0 for k, t in totals.items() if k != "fixed")
    return 0 if clean and (complete or args.report) else 1


if __name__ == "__main__":
    sys.exit(main())
