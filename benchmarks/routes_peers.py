"""Benchmark: tresham's route optimizer against routes-18xx on the same 1889 positions.

Positions: every position of ``../shared/reference/1889-routes/positions.json`` (real 1889
games with their optimal revenue; read at run time, never copied into this repository). Each
position is solved by both tools in one run, alternating (tresham first on even positions,
routes-18xx first on odd ones):

- tresham: ``tresham.routes.solve`` in this process, timed around the solve only, on a fresh
  copy of the map (no cache reused);
- routes-18xx (Auzzy/18xx-routes, PyPI ``routes-18xx`` 0.9.2, MIT): installed in its own venv
  ``.venv-peers`` and only called as a tool. This script converts each position to its input
  (board-state CSV ``coord; tile_id; orientation`` and railroads CSV ``full name; trains;
  stations``, in its pointy, 30-degree-rotated frame; FORMAT.md section 2) and runs a small
  driver, written to a temporary directory, in a subprocess per position. The driver reports
  its in-process solve time (``find_best_routes``, which includes starting its process pool)
  and its load time; the subprocess wall time is measured here.

Per position it prints the expected revenue, each tool's revenue and time and the ratio
(routes-18xx solve time / tresham solve time); at the end the median ratio, each tool's
median and worst time and how many positions each got exactly right. Goals (the project's
issue): every tresham position under 0.5 s and a median ratio of at least 10x.

Tile orientations are converted by geometry: the tresham-side tile definition
(``tile_defs``, 18xx.games notation) is rotated, its track groups are mapped to routes-18xx
sides and matched against routes-18xx's own tile catalogue (read from the installed package,
like its railroads' full names and homes). Positions that keep routes-18xx's own
``src_hex``/``src_orientation`` check the converter.

Run: make bench-peers
  or .venv/bin/python benchmarks/routes_peers.py [--positions FILE] [--only SUBSTRING]
      [--peers-python .venv-peers/bin/python] [--timeout SECONDS]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tresham.routes import solve
from tresham.routes.positions import Position, load_positions

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
POSITIONS = REPO.parent / "shared/reference/1889-routes/positions.json"
PEERS_PYTHON = REPO / ".venv-peers/bin/python"
GOAL_WORST_S = 0.5
GOAL_MEDIAN_RATIO = 10.0

#: Runs in routes-18xx's venv: load the two CSVs, solve for one railroad, print JSON.
DRIVER = textwrap.dedent(
    """
    import json
    import sys
    import time

    from routes18xx import boardstate, railroads
    from routes18xx.find_best_routes import find_best_routes
    from routes18xx.game import Game


    def main():
        board_csv, railroads_csv, name = sys.argv[1:4]
        start = time.perf_counter()
        game = Game.load("1889")
        board = boardstate.load_from_csv(game, board_csv)
        in_play = railroads.load_from_csv(game, board, railroads_csv)
        game.capture_phase(in_play)
        privates = game.get_game_submodule("private_companies")
        if privates:
            privates.load_from_csv(game, board, in_play, None)
        board.validate()
        loaded = time.perf_counter()
        best = find_best_routes(game, board, in_play, in_play[name])
        solved = time.perf_counter()
        routes = [
            [str(route.train), [str(stop.cell) for stop in route.visited_stops], route.value]
            for route in best
        ]
        print(json.dumps({
            "value": best.value,
            "phase": game.current_phase,
            "load_s": loaded - start,
            "solve_s": solved - loaded,
            "routes": routes,
        }))


    if __name__ == "__main__":
        main()
    """
)

#: Prints the installed package's directory (its data files are read from there).
LOCATE = "import os, routes18xx; print(os.path.dirname(routes18xx.__file__))"


# ---------------------------------------------------------------------------------------------
# The converter: 18xx.games (tobymao) conventions -> routes-18xx's input.


def to_peer_cell(coord: str) -> str:
    """A tobymao hex (letter = column x, number = row y, flat) as a routes-18xx cell (letter =
    row, number = column, pointy; the map turned 30 degrees anticlockwise; FORMAT.md 2.3)."""
    x = ord(coord[0]) - ord("A")
    y = int(coord[1:])
    if (y - x) % 2:
        raise ValueError(f"{coord} is not a hex of a doubled-row map")
    row = (y - x) // 2 + 4
    column = (3 * x + y) // 2 - 2
    if row < 0 or column < 0:
        raise ValueError(f"{coord} falls outside routes-18xx's frame")
    return f"{chr(ord('A') + row)}{column}"


def to_peer_side(edge: int) -> int:
    """A tobymao flat edge (0=S, clockwise) as a routes-18xx side (0=SW, clockwise)."""
    return (edge - 1) % 6


Groups = frozenset[frozenset[int]]


def tobymao_groups(text: str) -> Groups:
    """The track of a tile in 18xx.games notation as groups of mutually connected edges: one
    group per node (the edges reaching it) and one per plain edge-to-edge path."""
    by_node: dict[str, set[int]] = {}
    groups: set[frozenset[int]] = set()
    for part in filter(None, text.split(";")):
        kind, _, rest = part.partition("=")
        if kind != "path":
            continue
        fields = dict(item.split(":", 1) for item in rest.split(","))
        ends = [fields["a"], fields["b"]]
        nodes = [e for e in ends if e.startswith("_")]
        edges = [int(e) for e in ends if not e.startswith("_")]
        if not nodes:
            groups.add(frozenset(edges))
        elif len(nodes) == 1:
            by_node.setdefault(nodes[0], set()).update(edges)
        else:
            raise ValueError(f"node-to-node path not supported: {part}")
    groups.update(frozenset(edges) for edges in by_node.values() if edges)
    return frozenset(groups)


def turned(groups: Groups, steps: int) -> Groups:
    """Groups turned clockwise by ``steps`` sixths (both tools number edges clockwise)."""
    return frozenset(frozenset((e + steps) % 6 for e in group) for group in groups)


class Converter:
    """Writes a position as routes-18xx's board-state and railroads CSV rows."""

    def __init__(self, data: dict[str, Any], package_dir: Path) -> None:
        self.tobymao_tiles: dict[str, Groups] = {
            tile: tobymao_groups(text) for tile, text in data["tile_defs"]["tiles"].items()
        }
        catalogue = json.loads((package_dir / "data/tiles-db.json").read_text("utf-8"))
        self.peer_tiles: dict[str, Groups] = {
            tile: frozenset(frozenset(group) for group in info["edges"])
            for tile, info in catalogue.items()
        }
        railroads = json.loads((package_dir / "data/1889/railroads.json").read_text("utf-8"))
        #: tobymao symbol (the first nickname) -> (full name, home cell)
        self.railroads: dict[str, tuple[str, str]] = {
            info["nicknames"][0]: (name, info["home"]) for name, info in railroads.items()
        }
        self.checked = 0  # tiles whose src_hex/src_orientation confirmed the conversion

    def orientation(self, tile: str, rotation: int, exits: list[int]) -> int:
        """routes-18xx's orientation for a tile laid by tobymao with ``rotation``."""
        laid = turned(self.tobymao_tiles[tile], rotation)
        if set().union(*laid) != set(exits):
            raise ValueError(f"tile {tile} rotation {rotation}: exits differ from {exits}")
        wanted = frozenset(frozenset(to_peer_side(e) for e in group) for group in laid)
        printed = self.peer_tiles[tile]
        for orientation in range(6):
            if turned(printed, orientation) == wanted:
                return orientation
        raise ValueError(f"tile {tile} rotation {rotation}: no routes-18xx orientation")

    def board_rows(self, pos: dict[str, Any]) -> list[str]:
        rows = []
        for lay in pos["tiles"]:
            cell = to_peer_cell(lay["hex"])
            orientation = self.orientation(lay["tile"], lay["rotation"], lay["exits"])
            if "src_hex" in lay:
                printed = self.peer_tiles[lay["tile"]]
                same = turned(printed, orientation) == turned(printed, lay["src_orientation"])
                if cell != lay["src_hex"] or not same:
                    raise ValueError(
                        f"tile {lay['tile']} at {lay['hex']}: converted to {cell} orientation "
                        f"{orientation}, source has {lay['src_hex']} {lay['src_orientation']}"
                    )
                self.checked += 1
            rows.append(f"{cell}; {lay['tile']}; {orientation}")
        return rows

    def railroad_rows(self, pos: dict[str, Any]) -> list[str]:
        """Every company with a token or a train (routes-18xx places each listed company's
        home token itself, so each listed company must hold its home)."""
        rows = []
        symbols = sorted(set(pos["tokens"]) | set(pos["all_trains"]))
        for symbol in symbols:
            name, home = self.railroads[symbol]
            cells = [to_peer_cell(h) for h in pos["tokens"].get(symbol, [])]
            if home not in cells:
                raise ValueError(f"{symbol} has no token at its home {home}")
            trains = ", ".join(pos["all_trains"].get(symbol, []))
            rows.append(f"{name}; {trains}; {', '.join(cells)}")
        return rows

    def railroad_name(self, symbol: str) -> str:
        return self.railroads[symbol][0]


# ---------------------------------------------------------------------------------------------
# Running both tools.


@dataclass
class Result:
    revenue: int | None = None
    solve_s: float | None = None
    wall_s: float | None = None
    error: str = ""


def run_tresham(pos: Position) -> tuple[Result, bool]:
    state = pos.state.copy()
    start = time.perf_counter()
    solution = solve(state, pos.company, pos.trains, pos.rules)
    elapsed = time.perf_counter() - start
    return Result(solution.revenue, elapsed), solution.optimal


@dataclass
class PeerJob:
    """One position as routes-18xx's input, or why it could not be converted."""

    board: list[str]
    railroads: list[str]
    name: str
    error: str = ""


def run_peer(python: Path, driver: Path, folder: Path, job: PeerJob, timeout: float) -> Result:
    """routes-18xx on one position, in a subprocess of its own venv."""
    if job.error:
        return Result(error=job.error)
    board_csv = folder / "board-state.csv"
    railroads_csv = folder / "railroads.csv"
    board_csv.write_text("".join(row + "\n" for row in job.board), "utf-8")
    railroads_csv.write_text("".join(row + "\n" for row in job.railroads), "utf-8")
    command = [str(python), str(driver), str(board_csv), str(railroads_csv), job.name]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Result(wall_s=time.perf_counter() - start, error=f"timeout after {timeout:.0f} s")
    wall = time.perf_counter() - start
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return Result(wall_s=wall, error=f"failed: {tail}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return Result(int(report["value"]), float(report["solve_s"]), wall)


def ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{1000 * seconds:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--peers-python", type=Path, default=PEERS_PYTHON)
    parser.add_argument("--only", default="", help="run only positions whose id contains this")
    parser.add_argument("--timeout", type=float, default=600.0, help="per routes-18xx run")
    args = parser.parse_args()

    if not args.positions.exists():
        sys.exit(f"positions file not found: {args.positions}")
    if not args.peers_python.exists():
        sys.exit(f"{args.peers_python} not found: run `make bench-peers` to build .venv-peers")
    located = subprocess.run(
        [str(args.peers_python), "-c", LOCATE], capture_output=True, text=True, check=True
    )
    package_dir = Path(located.stdout.strip())

    data = json.loads(args.positions.read_text("utf-8"))
    raw = {str(p["id"]): p for p in data["positions"]}
    positions = [p for p in load_positions(args.positions) if args.only in p.id]
    converter = Converter(data, package_dir)

    rows: list[tuple[Position, Result, Result]] = []
    unproven = 0
    print(f"== 1889 positions: {len(positions)} (tresham vs routes-18xx, {package_dir})")
    print(
        f"{'position':32} {'expected':>8} | {'tresham':>7} {'time':>10} | "
        f"{'routes-18xx':>11} {'solve':>10} {'wall':>10} | ratio"
    )
    with tempfile.TemporaryDirectory(prefix="routes-peers-") as tmp:
        folder = Path(tmp)
        driver = folder / "driver.py"
        driver.write_text(DRIVER, "utf-8")
        for index, pos in enumerate(positions):
            source = raw[pos.id]
            try:
                job = PeerJob(
                    converter.board_rows(source),
                    converter.railroad_rows(source),
                    converter.railroad_name(pos.company),
                )
            except (KeyError, ValueError) as exc:
                job = PeerJob([], [], "", f"converter: {exc}")
            if index % 2 == 0:
                ours, optimal = run_tresham(pos)
                theirs = run_peer(args.peers_python, driver, folder, job, args.timeout)
            else:
                theirs = run_peer(args.peers_python, driver, folder, job, args.timeout)
                ours, optimal = run_tresham(pos)
            unproven += not optimal
            rows.append((pos, ours, theirs))

            ratio = "-"
            if theirs.solve_s is not None and ours.solve_s:
                ratio = f"{theirs.solve_s / ours.solve_s:.1f}x"
            notes = []
            if ours.revenue != pos.expected:
                notes.append("TRESHAM MISMATCH")
            if not optimal:
                notes.append("tresham not proven optimal")
            if theirs.error:
                notes.append(f"ROUTES-18XX {theirs.error}")
            elif theirs.revenue != pos.expected:
                notes.append("ROUTES-18XX MISMATCH")
            print(
                f"{pos.id:32} {pos.expected:>8} | {ours.revenue!s:>7} {ms(ours.solve_s):>10} | "
                f"{theirs.revenue!s:>11} {ms(theirs.solve_s):>10} {ms(theirs.wall_s):>10} | "
                f"{ratio:>7}" + (f"  <- {'; '.join(notes)}" if notes else "")
            )
            sys.stdout.flush()

    summarize(rows, unproven, converter.checked)


def summarize(rows: list[tuple[Position, Result, Result]], unproven: int, checked: int) -> None:
    total = len(rows)
    if not total:
        print("no positions")
        return
    ours_t = [(o.solve_s or 0.0, p.id) for p, o, _ in rows]
    peer_t = [(t.solve_s, p.id) for p, _, t in rows if t.solve_s is not None]
    peer_w = [(t.wall_s, p.id) for p, _, t in rows if t.wall_s is not None and not t.error]
    ratios = [t.solve_s / o.solve_s for _, o, t in rows if t.solve_s is not None and o.solve_s]
    wall_ratios = [
        t.wall_s / o.solve_s
        for _, o, t in rows
        if t.wall_s is not None and o.solve_s and not t.error
    ]
    ours_right = sum(o.revenue == p.expected for p, o, _ in rows)
    peer_right = sum(t.revenue == p.expected for p, _, t in rows)
    peer_failed = sum(bool(t.error) for _, _, t in rows)

    print(f"-- {total} positions; tile conversions confirmed by src_hex/src_orientation: {checked}")
    print(
        f"-- tresham:     {ours_right}/{total} exactly right ({unproven} not proven optimal); "
        f"median {ms(statistics.median(t for t, _ in ours_t))}, "
        f"worst {ms(max(ours_t)[0])} ({max(ours_t)[1]})"
    )
    if peer_t:
        print(
            f"-- routes-18xx: {peer_right}/{total} exactly right ({peer_failed} failed); "
            f"solve median {ms(statistics.median(t for t, _ in peer_t))}, "
            f"worst {ms(max(peer_t)[0])} ({max(peer_t)[1]}); "
            f"subprocess wall median {ms(statistics.median(t for t, _ in peer_w))}, "
            f"worst {ms(max(peer_w)[0])} ({max(peer_w)[1]})"
        )
    else:
        print(f"-- routes-18xx: no run succeeded ({peer_failed} failed)")
    if ratios:
        print(
            f"-- ratio routes-18xx / tresham (solve): median {statistics.median(ratios):.1f}x, "
            f"min {min(ratios):.1f}x, max {max(ratios):.1f}x; "
            f"with routes-18xx wall time: median {statistics.median(wall_ratios):.1f}x"
        )
    worst = max(ours_t)[0]
    median_ratio = statistics.median(ratios) if ratios else 0.0
    print(
        f"-- goals: every tresham position < {GOAL_WORST_S} s: "
        f"{'met' if worst < GOAL_WORST_S else 'NOT met'}; median ratio >= "
        f"{GOAL_MEDIAN_RATIO:.0f}x: {'met' if median_ratio >= GOAL_MEDIAN_RATIO else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
