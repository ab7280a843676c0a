"""Runs: what a run is, its legality and its revenue — the one implementation the engine, the
optimizer and the import all use.

Route rules (generic; titles add theirs through :class:`~tresham.core.rules_protocols.TrackRules`):

- a run has at least two stops, at least one holding the corporation's token, and visits no
  stop twice; every stop on the way is counted;
- its track is continuous and used once; it does not pass through an offboard or a city full
  of other corporations' tokens, and does not reverse at a junction;
- its distance (sum of ``segment_cost`` over stop-to-stop segments and ``stop_cost`` over
  stops) does not exceed the train's;
- two runs of the corporation share no track: no path, and no hex border (as on 18xx.games,
  which keys track on hex edges). They may share stops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tresham.core.actions import RunRoutes, RunSpec
from tresham.core.errors import MalformedActionError, RouteError
from tresham.core.graph import (
    RULE_ROUTE_DISTANCE,
    RULE_ROUTE_GAUGE,
    RULE_ROUTE_TRACK,
    PathKey,
    RunTrace,
    trace_run,
)
from tresham.core.rules_protocols import Stop, TrackRules, TrainSpec
from tresham.core.track import MapState, NodeKey

RULE_REVENUE = "Run: revenue"
RULE_TRAIN = "Run: one run per train"


@dataclass(frozen=True)
class Run:
    """One train's run: its stops ``(hex, node index)`` in order, the paths ``(hex, path
    index on the hex's tile)`` it uses in travel order, and its revenue."""

    train: str
    stops: tuple[NodeKey, ...]
    track: tuple[PathKey, ...]
    revenue: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "train": self.train,
            "stops": [list(s) for s in self.stops],
            "track": [list(p) for p in self.track],
            "revenue": self.revenue,
        }


def _distance(rules: TrackRules, train: TrainSpec, trace: RunTrace) -> int:
    total = 0
    for i, seg in enumerate(trace.segments):
        cost = rules.segment_cost(train, seg.gauges, seg.edges)
        if cost is None:
            a, b = trace.stops[i], trace.stops[i + 1]
            raise RouteError(
                f"{train.id}: the track from {a.hex} to {b.hex} mixes "
                f"{' and '.join(sorted(seg.gauges))} between stops (or is closed to this train)",
                RULE_ROUTE_GAUGE,
            )
        total += cost
    return total + sum(rules.stop_cost(train, s) for s in trace.stops)


def run_revenue(
    state: MapState,
    corporation: str,
    train: TrainSpec,
    run: Run,
    rules: TrackRules,
) -> int:
    """Revenue of a run: its stops' values to this train plus the title's bonus. The run's
    legality is checked (see :func:`validate_run`) but not its claimed ``revenue``."""
    trace = _check(state, corporation, train, run, rules)
    return stops_revenue(rules, train, corporation, trace.stops)


def stops_revenue(
    rules: TrackRules, train: TrainSpec, corporation: str, stops: Sequence[Stop]
) -> int:
    """What `train` earns at these stops: their values plus the title's bonus."""
    return sum(rules.stop_revenue(train, s) for s in stops) + rules.run_bonus(
        train, corporation, stops
    )


def _check(
    state: MapState, corporation: str, train: TrainSpec, run: Run, rules: TrackRules
) -> RunTrace:
    if run.train != train.id:
        raise RouteError(f"run is for train {run.train}, not {train.id}", RULE_TRAIN)
    trace = trace_run(state, corporation, run.stops, run.track)
    distance = _distance(rules, train, trace)
    if distance > train.distance:
        raise RouteError(
            f"{train.id}: the run's distance is {distance}, more than {train.distance}",
            RULE_ROUTE_DISTANCE,
        )
    gauges = frozenset().union(*(seg.gauges for seg in trace.segments))
    err = rules.check_run(train, corporation, trace.stops, gauges)
    if err is not None:
        raise err
    return trace


def validate_run(
    state: MapState,
    corporation: str,
    train: TrainSpec,
    run: Run,
    rules: TrackRules,
) -> int:
    """Check one run (module rules plus the title's) and that its ``revenue`` is what the rules
    give; raise :class:`RouteError` naming the rule. Returns the revenue."""
    trace = _check(state, corporation, train, run, rules)
    revenue = stops_revenue(rules, train, corporation, trace.stops)
    if run.revenue != revenue:
        raise RouteError(f"{train.id}: the run is worth {revenue}, not {run.revenue}", RULE_REVENUE)
    return revenue


def validate_runs(
    state: MapState,
    corporation: str,
    trains: Sequence[TrainSpec],
    runs: Sequence[Run],
    rules: TrackRules,
) -> int:
    """Check a set of runs: each valid (:func:`validate_run`), at most one per train, no track
    (path or hex border) shared between two runs. Returns the total revenue."""
    by_id = {t.id: t for t in trains}
    seen: set[str] = set()
    used_paths: set[int] = set()
    used_borders: set[int] = set()
    total = 0
    for run in runs:
        train = by_id.get(run.train)
        if train is None:
            raise RouteError(f"{corporation} has no train {run.train}", RULE_TRAIN)
        if run.train in seen:
            raise RouteError(f"one of {corporation}'s {train.kind} trains runs twice", RULE_TRAIN)
        seen.add(run.train)
        total += validate_run(state, corporation, train, run, rules)
        trace = trace_run(state, corporation, run.stops, run.track)
        if trace.path_ids & used_paths or trace.border_ids & used_borders:
            raise RouteError(
                f"{corporation}'s {train.kind} train would run on track another of its trains "
                "already runs on",
                RULE_ROUTE_TRACK,
            )
        used_paths |= trace.path_ids
        used_borders |= trace.border_ids
    return total


def runs_action(corporation: str, runs: Sequence[Run]) -> RunRoutes:
    """The RunRoutes action of these runs (stops as ``"HEX-node"``, track as ``"HEX-path"``)."""
    return RunRoutes(
        corporation,
        tuple(
            RunSpec(
                r.train,
                tuple(f"{h}-{n}" for h, n in r.stops),
                tuple(f"{h}-{p}" for h, p in r.track),
            )
            for r in runs
        ),
    )


def action_revenue(
    state: MapState,
    corporation: str,
    trains: Sequence[TrainSpec],
    action: RunRoutes,
    rules: TrackRules,
) -> int:
    """Validate every run of a RunRoutes action (and that no two share track) for the
    corporation's running ``trains``; return the total revenue."""
    by_id = {t.id: t for t in trains}
    runs = []
    for spec in action.runs:
        if spec.train not in by_id:
            raise RouteError(f"{corporation} has no train {spec.train} that runs", RULE_TRAIN)
        stops = tuple(_key(x) for x in spec.stops)
        track = tuple(_key(x) for x in spec.track)
        run = Run(spec.train, stops, track)
        revenue = run_revenue(state, corporation, by_id[spec.train], run, rules)
        runs.append(Run(spec.train, stops, track, revenue))
    return validate_runs(state, corporation, trains, runs, rules)


def _key(text: str) -> tuple[str, int]:
    coord, _, idx = text.rpartition("-")
    if not coord or not idx.lstrip("-").isdigit():
        raise MalformedActionError(f"bad stop or track reference {text!r}", RULE_TRAIN)
    return coord, int(idx)
