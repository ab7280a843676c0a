"""An exhaustive reference for the route optimizer, written plainly and independently of it.

It walks the track path by path (not by the optimizer's stop-to-stop chains) from every stop,
records every walk that ends at a stop as a candidate run, lets the engine's one run validator
(:func:`tresham.routes.run_revenue`) keep the legal ones, and then tries every assignment of
runs to trains (or idle) whose track does not overlap. The only pruning is that a walk stops
once it has crossed more hex edges than ``max_edges`` (by default the train's distance: every
1849 train pays at least 1 per edge, so no legal run is lost; n-trains need a bound of the
board's size). Slow by design; for small boards only.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from tresham.core.errors import RouteError
from tresham.core.graph import PathKey, trace_run, track_graph
from tresham.core.rules_protocols import TrackRules, TrainSpec
from tresham.core.tiles import JUNCTION
from tresham.core.track import MapState, NodeKey
from tresham.routes import Run, run_revenue


def all_runs(
    state: MapState, corp: str, train: TrainSpec, rules: TrackRules, max_edges: int | None = None
) -> list[Run]:
    """Every legal run of `train` with positive revenue (one per set of paths used)."""
    graph = track_graph(state)
    bound = train.distance if max_edges is None else max_edges
    walks: list[tuple[list[NodeKey], list[PathKey]]] = []

    def follow(
        pid: int, entry: int, stops: list[NodeKey], track: list[PathKey], used: frozenset[int],
        edges: int,
    ) -> None:  # fmt: skip
        used = used | {pid}
        track = [*track, graph.key[pid]]
        exit_ = 1 - entry
        node = graph.end_node[pid][exit_]
        if node is None:  # the path leaves the hex: cross the border
            if edges + 1 > bound:
                return
            for q, kq in graph.links[pid][exit_]:
                if q not in used:
                    follow(q, kq, stops, track, used, edges + 1)
            return
        if graph.nodes[node].kind == JUNCTION:
            for q, kq in graph.node_paths[node]:
                if q != pid and q not in used:
                    follow(q, kq, stops, track, used, edges)
            return
        if node in stops:
            return
        stops = [*stops, node]
        walks.append((stops, track))
        for q, kq in graph.node_paths[node]:
            if q not in used:
                follow(q, kq, stops, track, used, edges)

    for node, nd in graph.nodes.items():
        if nd.kind == JUNCTION:
            continue
        for pid, k in graph.node_paths.get(node, ()):
            follow(pid, k, [node], [], frozenset(), 0)

    best: dict[frozenset[PathKey], Run] = {}
    for stops, track in walks:
        run = Run(train.id, tuple(stops), tuple(track))
        try:
            revenue = run_revenue(state, corp, train, run, rules)
        except RouteError:
            continue
        key = frozenset(track)
        if revenue > 0 and (key not in best or best[key].revenue < revenue):
            best[key] = Run(train.id, run.stops, run.track, revenue)
    return list(best.values())


def best_total(
    state: MapState,
    corp: str,
    trains: Sequence[TrainSpec],
    rules: TrackRules,
    max_edges: int | None = None,
) -> int:
    """The best total revenue over every assignment of runs (or idleness) to the trains."""
    options: list[list[tuple[int, frozenset[int], frozenset[int]]]] = []
    for train in trains:
        runs = [(0, frozenset[int](), frozenset[int]())]
        for run in all_runs(state, corp, train, rules, max_edges):
            trace = trace_run(state, corp, run.stops, run.track)
            runs.append((run.revenue, frozenset(trace.path_ids), frozenset(trace.border_ids)))
        options.append(runs)
    best = 0
    for combo in itertools.product(*options):
        paths: set[int] = set()
        borders: set[int] = set()
        total = 0
        for revenue, p, b in combo:
            if paths & p or borders & b:
                break
            paths |= p
            borders |= b
            total += revenue
        else:
            best = max(best, total)
    return best
