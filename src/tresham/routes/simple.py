"""Runs: validation, revenue, and a simple search for the best set of runs.

Route rules (generic; titles add theirs through :class:`~tresham.core.rules_protocols.TrackRules`):

- a run has at least two stops, at least one holding the corporation's token, and visits no
  stop twice; every stop on the way is counted;
- its track is continuous and used once; it does not pass through an offboard or a city full
  of other corporations' tokens, and does not reverse at a junction;
- its distance (sum of ``segment_cost`` over stop-to-stop segments and ``stop_cost`` over
  stops) does not exceed the train's;
- two runs of the corporation share no track: no path, and no hex border (as on 18xx.games,
  which keys track on hex edges). They may share stops.

:func:`best_runs` enumerates, for each train type, every legal run (stop-to-stop "chains" of
track combined by depth-first search from the corporation's tokens, pruned by distance), then
picks one run per train by branch and bound so that no two share track. Both stages have
deterministic work caps (never a time limit), so a result depends only on the position; below
the caps the result is optimal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tresham.core.errors import RouteError
from tresham.core.graph import (
    RULE_ROUTE,
    RULE_ROUTE_DISTANCE,
    RULE_ROUTE_GAUGE,
    RULE_ROUTE_TRACK,
    PathKey,
    RunTrace,
    TrackGraph,
    passable,
    reach,
    trace_run,
    track_graph,
)
from tresham.core.rules_protocols import Stop, TrackRules, TrainSpec
from tresham.core.tiles import JUNCTION
from tresham.core.track import MapState, NodeKey

RULE_REVENUE = "Run: revenue"
RULE_TRAIN = "Run: one run per train"

#: Default cap on candidate runs enumerated per train type.
MAX_CANDIDATES = 60_000
#: Default cap on combination-search steps.
MAX_COMBINATION_STEPS = 400_000


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
    return _revenue(rules, train, corporation, trace.stops)


def _revenue(rules: TrackRules, train: TrainSpec, corporation: str, stops: Sequence[Stop]) -> int:
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
    err = rules.check_run(train, corporation, trace.stops)
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
    revenue = _revenue(rules, train, corporation, trace.stops)
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
            raise RouteError(f"train {run.train} runs twice", RULE_TRAIN)
        seen.add(run.train)
        total += validate_run(state, corporation, train, run, rules)
        trace = trace_run(state, corporation, run.stops, run.track)
        if trace.path_ids & used_paths or trace.border_ids & used_borders:
            raise RouteError(
                f"train {run.train} uses track another run of {corporation} already uses",
                RULE_ROUTE_TRACK,
            )
        used_paths |= trace.path_ids
        used_borders |= trace.border_ids
    return total


# -- the network as stop-to-stop chains --------------------------------------------------------
@dataclass
class _Chain:
    a: int  # stop index
    b: int
    pids: tuple[int, ...]  # travel order a → b
    mask: int  # bits: path ids, then border ids
    gauges: frozenset[str]
    edges: int
    hexes: tuple[str, ...]


@dataclass
class _Network:
    stops: list[NodeKey]
    stop_recs: list[Stop]
    passable: list[bool]
    token: list[bool]
    chains: list[_Chain]
    adj: list[list[tuple[int, int, bool]]] = field(default_factory=list)  # (chain, other, fwd)


def _network(state: MapState, corporation: str) -> _Network:
    key = f"route_network:{corporation}"
    cached = state.cached(key)
    if isinstance(cached, _Network):
        return cached
    graph = track_graph(state)
    net = reach(state, corporation)
    stops = sorted(k for k in net.nodes if graph.nodes[k].kind != JUNCTION)
    index = {k: i for i, k in enumerate(stops)}
    chains = _chains(graph, stops, index)
    network = _Network(
        stops=stops,
        stop_recs=[graph.stop(k) for k in stops],
        passable=[passable(state, graph.nodes[k], k, corporation) for k in stops],
        token=[state.has_token(corporation, c, n) for c, n in stops],
        chains=chains,
        adj=[[] for _ in stops],
    )
    for cid, ch in enumerate(chains):
        network.adj[ch.a].append((cid, ch.b, True))
        network.adj[ch.b].append((cid, ch.a, False))
    state.set_cached(key, network)
    return network


def _chains(graph: TrackGraph, stops: list[NodeKey], index: dict[NodeKey, int]) -> list[_Chain]:
    """Every stretch of track from one stop to another passing no stop (junctions allowed),
    using no path or border twice. Each is kept once, oriented from the lower stop index."""
    out: list[_Chain] = []
    npaths = len(graph.key)
    for si, start in enumerate(stops):
        # DFS state: (path id, entry end, pids so far, mask so far, edges so far)
        stack: list[tuple[int, int, tuple[int, ...], int, int]] = [
            (pid, k, (), 0, 0) for pid, k in graph.node_paths.get(start, ())
        ]
        while stack:
            pid, entry, pids, mask, edges = stack.pop()
            bit = 1 << pid
            if mask & bit:
                continue
            pids = (*pids, pid)
            mask |= bit
            out_end = 1 - entry
            nk = graph.end_node[pid][out_end]
            if nk is None:
                border = graph.border[pid][out_end]
                if border < 0:
                    continue
                bbit = 1 << (npaths + border)
                if mask & bbit:
                    continue
                for q, kq in graph.links[pid][out_end]:
                    stack.append((q, kq, pids, mask | bbit, edges + 1))
                continue
            if graph.nodes[nk].kind == JUNCTION:
                for q, kq in graph.node_paths[nk]:
                    if q != pid:
                        stack.append((q, kq, pids, mask, edges))
                continue
            other = index.get(nk)
            if other is None or other <= si:
                continue
            hexes: list[str] = []
            for p in pids:
                h = graph.key[p][0]
                if not hexes or hexes[-1] != h:
                    hexes.append(h)
            out.append(
                _Chain(
                    si,
                    other,
                    pids,
                    mask,
                    frozenset(graph.gauge[p] for p in pids),
                    edges,
                    tuple(hexes),
                )
            )
    return out


# -- search ------------------------------------------------------------------------------------
@dataclass
class _Candidate:
    revenue: int
    mask: int
    start: int
    steps: tuple[tuple[int, bool], ...]  # (chain id, travelled a → b)


def _enumerate(
    network: _Network,
    corporation: str,
    train: TrainSpec,
    rules: TrackRules,
    max_candidates: int,
) -> list[_Candidate]:
    """Every legal run of ``train`` (up to ``max_candidates``), best revenue first."""
    chains = network.chains
    ccost: list[int | None] = [rules.segment_cost(train, c.gauges, c.edges) for c in chains]
    scost = [rules.stop_cost(train, s) for s in network.stop_recs]
    srev = [rules.stop_revenue(train, s) for s in network.stop_recs]
    budget = train.distance
    adj = [
        [
            (cid, v, fwd, ccost[cid], chains[cid].mask)
            for cid, v, fwd in lst
            if ccost[cid] is not None
        ]
        for lst in network.adj
    ]
    passable_ = network.passable
    recs = network.stop_recs
    found: dict[int, _Candidate | None] = {}

    def record(stops: list[int], steps: list[tuple[int, bool]], start: int, mask: int) -> None:
        if mask in found or len(found) >= max_candidates:
            return
        stop_list = [recs[i] for i in stops]
        if rules.check_run(train, corporation, stop_list) is not None:
            found[mask] = None
            return
        revenue = sum(srev[i] for i in stops) + rules.run_bonus(train, corporation, stop_list)
        found[mask] = _Candidate(revenue, mask, start, tuple(steps))

    def backward(
        end: int,
        t: int,
        visited: int,
        used: int,
        cost: int,
        fstops: list[int],
        fsteps: list[tuple[int, bool]],
        bstops: list[int],
        bsteps: list[tuple[int, bool]],
    ) -> None:
        # The run is reversed(bstops) + fstops; it starts at the far end of the backward part.
        if bsteps:
            start = bstops[-1]
            steps = [(c, not f) for c, f in reversed(bsteps)] + fsteps
            record(bstops[::-1] + fstops, steps, start, used)
        else:
            record(fstops, fsteps, t, used)
        if len(found) >= max_candidates or (bsteps and not passable_[end]):
            return
        first = fsteps[0][0]
        for cid, v, fwd, cc, m in adj[end]:
            if not bsteps and cid <= first:
                continue
            if visited >> v & 1 or used & m:
                continue
            nc = cost + cc + scost[v]  # type: ignore[operator]
            if nc > budget:
                continue
            backward(
                v,
                t,
                visited | 1 << v,
                used | m,
                nc,
                fstops,
                fsteps,
                [*bstops, v],
                [*bsteps, (cid, fwd)],
            )

    def forward(
        end: int,
        t: int,
        visited: int,
        used: int,
        cost: int,
        fstops: list[int],
        fsteps: list[tuple[int, bool]],
    ) -> None:
        if fsteps:
            backward(t, t, visited, used, cost, fstops, fsteps, [], [])
        if len(found) >= max_candidates or (fsteps and not passable_[end]):
            return
        for cid, v, fwd, cc, m in adj[end]:
            if visited >> v & 1 or used & m:
                continue
            nc = cost + cc + scost[v]  # type: ignore[operator]
            if nc > budget:
                continue
            forward(v, t, visited | 1 << v, used | m, nc, [*fstops, v], [*fsteps, (cid, fwd)])

    for t, has_token in enumerate(network.token):
        if has_token and scost[t] <= budget:
            forward(t, t, 1 << t, 0, scost[t], [t], [])
    cands = [c for c in found.values() if c is not None and c.revenue > 0]
    cands.sort(key=lambda c: -c.revenue)
    return cands


def _to_run(graph: TrackGraph, network: _Network, train: str, cand: _Candidate) -> Run:
    stops = [network.stops[cand.start]]
    track: list[PathKey] = []
    for cid, fwd in cand.steps:
        ch = network.chains[cid]
        pids = ch.pids if fwd else tuple(reversed(ch.pids))
        track += [graph.key[p] for p in pids]
        stops.append(network.stops[ch.b if fwd else ch.a])
    return Run(train, tuple(stops), tuple(track), cand.revenue)


def best_runs(
    state: MapState,
    corporation: str,
    trains: Sequence[TrainSpec],
    rules: TrackRules,
    *,
    max_candidates: int = MAX_CANDIDATES,
    max_steps: int = MAX_COMBINATION_STEPS,
) -> list[Run]:
    """A best (below the work caps: an optimal) set of runs, at most one per train, no two
    sharing track. Trains that cannot run profitably get no run. Runs are listed in the order
    of ``trains``."""
    if not trains:
        return []
    network = _network(state, corporation)
    graph = track_graph(state)
    per_kind: dict[tuple[str, int], list[_Candidate]] = {}
    for t in trains:
        k = (t.kind, t.distance)
        if k not in per_kind:
            per_kind[k] = _enumerate(network, corporation, t, rules, max_candidates)
    order = sorted(
        range(len(trains)),
        key=lambda i: (
            -(per_kind[(trains[i].kind, trains[i].distance)][:1] or [_Candidate(0, 0, 0, ())])[
                0
            ].revenue,
            trains[i].kind,
            i,
        ),
    )
    lists = [per_kind[(trains[i].kind, trains[i].distance)] for i in order]
    kinds = [(trains[i].kind, trains[i].distance) for i in order]
    n = len(order)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + (lists[i][0].revenue if lists[i] else 0)
    best_total = 0
    best_sel: list[int] = [-1] * n
    sel = [-1] * n
    steps = 0

    def search(i: int, used: int, total: int, min_j: int) -> None:
        nonlocal best_total, best_sel, steps
        if total > best_total:
            best_total = total
            best_sel = sel[:i] + [-1] * (n - i)
        if i == n or total + suffix[i] <= best_total or steps >= max_steps:
            return
        cands = lists[i]
        same_next = i + 1 < n and kinds[i + 1] == kinds[i]
        for j in range(min_j, len(cands)):
            c = cands[j]
            if total + c.revenue + suffix[i + 1] <= best_total:
                break
            steps += 1
            if steps >= max_steps:
                break
            if c.mask & used:
                continue
            sel[i] = j
            search(i + 1, used | c.mask, total + c.revenue, j + 1 if same_next else 0)
        sel[i] = -1
        # This train idles; identical trains after it idle too (they are interchangeable).
        if same_next:
            k = i + 1
            while k < n and kinds[k] == kinds[i]:
                k += 1
            if k < n:
                search(k, used, total, 0)
        else:
            search(i + 1, used, total, 0)

    search(0, 0, 0, 0)
    runs: dict[int, Run] = {}
    for pos, j in enumerate(best_sel):
        if j >= 0:
            i = order[pos]
            runs[i] = _to_run(graph, network, trains[i].id, lists[pos][j])
    return [runs[i] for i in sorted(runs)]


def run_from_connections(
    state: MapState,
    corporation: str,
    train: str,
    connections: Sequence[Sequence[str]],
    *,
    avoid: Sequence[Run] = (),
    rules: TrackRules | None = None,
    train_spec: TrainSpec | None = None,
) -> Run:
    """Build a :class:`Run` from stop-to-stop hex chains (18xx.games' ``connections``: one list
    of hexes per stretch between consecutive stops, in any order and direction). Track used by
    the ``avoid`` runs is not reused. With ``rules`` and ``train_spec`` the revenue is filled
    in. Raises :class:`RouteError` if the chains match no track."""
    graph = track_graph(state)
    network = _network(state, corporation)
    taken = 0
    for other in avoid:
        trace = trace_run(state, corporation, other.stops, other.track)
        for pid in trace.path_ids:
            taken |= 1 << pid
        for b in trace.border_ids:
            taken |= 1 << (len(graph.key) + b)
    picked: list[tuple[int, bool]] = []
    used = taken
    for hexes in connections:
        want = tuple(hexes)
        match = None
        for cid, ch in enumerate(network.chains):
            if ch.mask & used or ch.hexes not in (want, want[::-1]):
                continue
            usable = (
                rules is None
                or train_spec is None
                or rules.segment_cost(train_spec, ch.gauges, ch.edges) is not None
            )
            if match is None or usable:
                match = (cid, ch.hexes == want)
            if usable:
                break
        if match is None:
            raise RouteError(f"no track of {corporation} runs {'-'.join(want)}", RULE_ROUTE)
        picked.append(match)
        used |= network.chains[match[0]].mask
    # Order the chains into one line of stops.
    ends: dict[int, list[int]] = {}
    for cid, _f in picked:
        ch = network.chains[cid]
        ends.setdefault(ch.a, []).append(cid)
        ends.setdefault(ch.b, []).append(cid)
    if any(len(v) > 2 for v in ends.values()):
        raise RouteError("the connections branch: not a single run", RULE_ROUTE)
    terminals = sorted(s for s, v in ends.items() if len(v) == 1)
    if len(terminals) != 2:
        raise RouteError("the connections do not form one line of stops", RULE_ROUTE)
    cur = terminals[0]
    remaining = {cid for cid, _f in picked}
    steps: list[tuple[int, bool]] = []
    while remaining:
        cid = next(c for c in ends[cur] if c in remaining)
        remaining.discard(cid)
        ch = network.chains[cid]
        fwd = ch.a == cur
        steps.append((cid, fwd))
        cur = ch.b if fwd else ch.a
    run = _to_run(graph, network, train, _Candidate(0, 0, terminals[0], tuple(steps)))
    if rules is not None and train_spec is not None:
        trace = trace_run(state, corporation, run.stops, run.track)
        revenue = _revenue(rules, train_spec, corporation, trace.stops)
        run = Run(run.train, run.stops, run.track, revenue)
    return run


__all__ = [
    "MAX_CANDIDATES",
    "MAX_COMBINATION_STEPS",
    "Run",
    "best_runs",
    "run_from_connections",
    "run_revenue",
    "validate_run",
    "validate_runs",
]
