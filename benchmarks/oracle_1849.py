"""tresham's 1849 against the site's own engine on random games (issue 39).

Plays `--games` random 1849 games (rule set 18xx.games) at each of `--players`, with each of
the site's optional rules in turn (`--options`, the first game of every cycle without any),
exports each, replays it in `../shared/oracle` and compares tresham's state with the site's
after every action (``tresham.io.oracle.differential``). Prints one JSON line per game to
`--out` (default: none) and, at the end, the figures: games equal / total per player count,
and where the others stop, grouped by cause.

    nice python benchmarks/oracle_1849.py --games 20 --players 3 4 5 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tresham.io.oracle import EQUAL, SITE_CAUSES, differential, oracle_missing

#: The site's optional rules tresham plays, one option set per game in turn.
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"delay_ift": True},
    {"acquiring_station_tokens": True},
    {"bonds": True},
    {"electric_dreams": True, "bonds": True, "acquiring_station_tokens": True},
    {"reduced_4p_corps": True},
)


def options_for(players: int, n: int) -> dict[str, Any]:
    """The options of the n-th game at that player count (reduced_4p_corps at 4 only)."""
    sets = [o for o in OPTION_SETS if "reduced_4p_corps" not in o or players == 4]
    return sets[n % len(sets)]


def one(job: tuple[int, int]) -> dict[str, Any]:
    players, n = job
    try:
        return differential(players, 1 + n, options_for(players, n)).to_dict()
    except Exception as exc:  # a crash is a verdict too
        return {"players": players, "seed": 1 + n, "verdict": "crash", "site_words": repr(exc)}


def cause(v: dict[str, Any]) -> str:
    """A short grouping key for a game that stops."""
    words = v.get("site_words") or v.get("tresham_words") or ""
    if v["verdict"] == "import fails":  # tresham's words say why
        words = v.get("tresham_words") or words
    if v["verdict"] == "state differs":
        action = v.get("action") or {}
        return f"state differs: {v.get('field', '').split('.')[-1]} after {action.get('type')}"
    message = re.search(r'"error":"([^"]*)"', words)
    text = message.group(1) if message else words.splitlines()[0] if words else ""
    text = re.sub(r"\d+", "N", text)
    return f"{v['verdict']}: {text[:150]}"


def done(path: Path | None) -> list[dict[str, Any]]:
    """The verdicts already written to `path` (a long run resumes where it stopped)."""
    if path is None or not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="games per player count")
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--first", type=int, default=0, help="first game number (seed - 1)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--out",
        type=Path,
        help="write each game's verdict here (JSON lines); games already there are not replayed",
    )
    ap.add_argument("--json", action="store_true", help="the figures as one JSON line")
    args = ap.parse_args(argv)
    missing = oracle_missing()
    if missing:
        print(f"cannot run: {missing}", file=sys.stderr)
        return 2
    jobs = [(p, n) for n in range(args.first, args.first + args.games) for p in args.players]
    verdicts = [v for v in done(args.out) if (v["players"], v["seed"] - 1) in set(jobs)]
    finished = {(v["players"], v["seed"] - 1) for v in verdicts}
    jobs = [job for job in jobs if job not in finished]
    if finished:
        print(f"{len(finished)} games already in {args.out}; {len(jobs)} to play", file=sys.stderr)
    out = args.out.open("a") if args.out else None
    with ProcessPoolExecutor(args.jobs) as pool:
        for count, v in enumerate(pool.map(one, jobs), 1):
            verdicts.append(v)
            game = f"{v['players']}p seed {v['seed']}"
            print(f"[{count}/{len(jobs)}] {game}: {v['verdict']}", file=sys.stderr)
            if out:
                out.write(json.dumps(v) + "\n")
                out.flush()
    equal = Counter(v["players"] for v in verdicts if v["verdict"] == EQUAL)
    total = Counter(v["players"] for v in verdicts)
    site = [v for v in verdicts if v["verdict"] in SITE_CAUSES]
    figures = {
        "games": len(verdicts),
        "equal": sum(equal.values()),
        "site_causes": len(site),
        "by_players": {str(p): f"{equal[p]}/{total[p]}" for p in sorted(total)},
        "causes": Counter(cause(v) for v in verdicts if v["verdict"] != EQUAL).most_common(),
    }
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=1))
    return 0 if sum(equal.values()) + len(site) == len(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
