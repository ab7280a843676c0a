"""A corporation's network as stop-to-stop chains: every stretch of track from one stop to
another that passes no stop. The optimizer combines chains into runs; an imported run's hex
chains are matched to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tresham.core.errors import RouteError
from tresham.core.graph import (
    RULE_ROUTE,
    PathKey,
    TrackGraph,
    passable,
    reach,
    trace_run,
    track_graph,
)
from tresham.core.rules_protocols import Stop, TrackRules, TrainSpec
from tresham.core.tiles import JUNCTION
from tresham.core.track import MapState, NodeKey
from tresham.routes.runs import Run, stops_revenue


@dataclass
class Chain:
    """Track from stop `a` to stop `b` passing no stop: its paths in travel order, the bit
    mask of the paths and borders it uses, its gauges, hex edges crossed and hexes."""

    a: int  # stop index
    b: int
    pids: tuple[int, ...]  # travel order a → b
    mask: int  # bits: path ids, then border ids
    gauges: frozenset[str]
    edges: int
    hexes: tuple[str, ...]


@dataclass
class Network:
    """The stops a corporation reaches (which are passable, which hold its token) and the
    chains between them; `adj[stop]` lists (chain, other stop, travelled a to b)."""

    stops: list[NodeKey]
    stop_recs: list[Stop]
    passable: list[bool]
    token: list[bool]
    chains: list[Chain]
    adj: list[list[tuple[int, int, bool]]] = field(default_factory=list)  # (chain, other, fwd)


def bits_of(mask: int) -> list[int]:
    """The indices of the bits set in `mask` (a chain's track bits, a set of stops), lowest
    first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def network_of(state: MapState, corporation: str) -> Network:
    key = f"route_network:{corporation}"
    cached = state.cached(key)
    if isinstance(cached, Network):
        return cached
    graph = track_graph(state)
    net = reach(state, corporation)
    stops = sorted(k for k in net.nodes if graph.nodes[k].kind != JUNCTION)
    index = {k: i for i, k in enumerate(stops)}
    chains = _chains(graph, stops, index)
    network = Network(
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


def _chains(graph: TrackGraph, stops: list[NodeKey], index: dict[NodeKey, int]) -> list[Chain]:
    """Every stretch of track from one stop to another passing no stop (junctions allowed),
    using no path or border twice. Each is kept once, oriented from the lower stop index."""
    out: list[Chain] = []
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
                Chain(
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


def to_run(
    graph: TrackGraph,
    network: Network,
    train: str,
    start: int,
    steps: Sequence[tuple[int, bool]],
    revenue: int = 0,
) -> Run:
    """The run that starts at stop `start` and follows `steps` (chain id, travelled a to b)."""
    stops = [network.stops[start]]
    track: list[PathKey] = []
    for cid, fwd in steps:
        ch = network.chains[cid]
        pids = ch.pids if fwd else tuple(reversed(ch.pids))
        track += [graph.key[p] for p in pids]
        stops.append(network.stops[ch.b if fwd else ch.a])
    return Run(train, tuple(stops), tuple(track), revenue)


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
    network = network_of(state, corporation)
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
    run = to_run(graph, network, train, terminals[0], steps)
    if rules is not None and train_spec is not None:
        trace = trace_run(state, corporation, run.stops, run.track)
        revenue = stops_revenue(rules, train_spec, corporation, trace.stops)
        run = Run(run.train, run.stops, run.track, revenue)
    return run
