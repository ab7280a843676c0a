"""The route optimizer: the revenue-maximising set of runs of a corporation, one per train (a
train may stay idle), no two sharing track.

It enumerates, for each train type, every legal run (stop-to-stop chains combined by
depth-first search from the corporation's tokens, pruned by distance), then picks one run per
train by branch and bound. Both stages have deterministic work caps (never a time limit), so a
result depends only on the position; :attr:`RouteSolution.optimal` says the caps were not
reached, and then the answer is proven optimal: every run was enumerated and every
combination either searched or bounded below the best.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from tresham.core.graph import track_graph
from tresham.core.rules_protocols import TrackRules, TrainSpec
from tresham.core.track import MapState
from tresham.routes.network import Chain, Network, bits_of, network_of, to_run
from tresham.routes.runs import Run

#: Default cap on candidate runs enumerated per train type.
MAX_CANDIDATES = 60_000
#: Default cap on combination-search steps.
MAX_COMBINATION_STEPS = 400_000


@dataclass
class _Candidate:
    revenue: int
    mask: int
    start: int
    steps: tuple[tuple[int, bool], ...]  # (chain id, travelled a → b)


class _FoundOne(Exception):
    """Raised by an enumeration asked only whether a run worth something exists."""


def _enumerate(
    network: Network,
    corporation: str,
    train: TrainSpec,
    rules: TrackRules,
    max_candidates: int,
    first_only: bool = False,
) -> tuple[list[_Candidate], int]:
    """Every legal run of ``train`` (up to ``max_candidates``), best revenue first, and how
    many runs were examined (all of them when fewer than ``max_candidates``). With
    ``first_only``, the search stops, raising :class:`_FoundOne`, at the first legal run worth
    anything."""
    chains = network.chains
    ccost: list[int | None] = [rules.segment_cost(train, c.gauges, c.edges) for c in chains]
    scost = [rules.stop_cost(train, s) for s in network.stop_recs]
    srev = [rules.stop_revenue(train, s) for s in network.stop_recs]
    budget = train.distance
    adj: list[list[tuple[int, int, bool, int, int]]] = [
        [
            (cid, v, fwd, seg, chains[cid].mask)
            for cid, v, fwd in lst
            if (seg := ccost[cid]) is not None
        ]
        for lst in network.adj
    ]
    passable_ = network.passable
    recs = network.stop_recs
    found: dict[int, _Candidate | None] = {}

    def record(stops: list[int], steps: list[tuple[int, bool]], start: int, mask: int) -> None:
        stop_list = [recs[i] for i in stops]
        gauges = frozenset().union(*(chains[c].gauges for c, _f in steps))
        if rules.check_run(train, corporation, stop_list, gauges) is not None:
            found[mask] = None
            return
        revenue = sum(srev[i] for i in stops) + rules.run_bonus(train, corporation, stop_list)
        if first_only and revenue > 0:
            raise _FoundOne
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
        # (A run is known by its track: one found before, from its other end, is not again.)
        if used not in found and len(found) < max_candidates:
            if bsteps:
                steps = [(c, not f) for c, f in reversed(bsteps)] + fsteps
                record(bstops[::-1] + fstops, steps, bstops[-1], used)
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
            nc = cost + cc + scost[v]
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
            nc = cost + cc + scost[v]
            if nc > budget:
                continue
            forward(v, t, visited | 1 << v, used | m, nc, [*fstops, v], [*fsteps, (cid, fwd)])

    for t, has_token in enumerate(network.token):
        if has_token and scost[t] <= budget:
            forward(t, t, 1 << t, 0, scost[t], [t], [])
    cands = [c for c in found.values() if c is not None and c.revenue > 0]
    cands.sort(key=lambda c: -c.revenue)
    return cands, len(found)


class _Packer:
    """Picks one candidate (or none) per train, no two sharing a track bit, maximising the
    total: depth-first branch and bound over the trains in order. Each train kind keeps, for
    every track bit, the set of its candidates using that bit (an int used as a bitset over
    candidates sorted by revenue, best first), so the candidates still compatible with the
    track already taken are found by a few set operations, and the lowest compatible one of
    every later train gives the bound."""

    def __init__(
        self,
        lists: list[list[_Candidate]],
        kinds: list[tuple[str, int]],
        max_steps: int,
        chains: Sequence[Chain],
    ) -> None:
        self.lists = lists
        self.kinds = kinds
        self.max_steps = max_steps
        self.n = len(lists)
        self.revenue = [[c.revenue for c in cands] for cands in lists]
        self.full = [(1 << len(cands)) - 1 for cands in lists]
        # Trains of one kind share their candidates: their bits and index are built once, and
        # only where used (a candidate's bits for the trains after it, the index of a train's
        # candidates by bit for the trains before it): a lone train needs neither.
        levels: dict[tuple[str, int], list[int]] = {}
        for level, kind in enumerate(kinds):
            levels.setdefault(kind, []).append(level)
        by_kind: dict[tuple[str, int], tuple[list[list[int]], dict[int, int]]] = {}
        chain_bits: list[list[int]] = []
        for kind, at in levels.items():
            index: dict[int, int] = {}
            if min(at) == self.n - 1 and max(at) == 0:
                by_kind[kind] = ([], index)
                continue
            if not chain_bits:
                chain_bits = [bits_of(ch.mask) for ch in chains]
            # A candidate's bits are its chains' (the chains of a run share none).
            run_bits = [[b for cid, _fwd in c.steps for b in chain_bits[cid]] for c in lists[at[0]]]
            if max(at) > 0:
                for j, bits in enumerate(run_bits):
                    for b in bits:
                        index[b] = index.get(b, 0) | 1 << j
            by_kind[kind] = (run_bits, index)
        self.bits: list[list[list[int]]] = [by_kind[kind][0] for kind in kinds]
        self.users: list[dict[int, int]] = [by_kind[kind][1] for kind in kinds]
        self.best_total = 0
        self.best_sel = [-1] * self.n
        self.sel = [-1] * self.n
        self.steps = 0

    def _allowed(self, level: int, used: list[int]) -> int:
        users = self.users[level]
        blocked = 0
        for b in used:
            blocked |= users.get(b, 0)
        return self.full[level] & ~blocked

    def _best(self, level: int, allowed: int) -> int:
        if not allowed:
            return 0
        return self.revenue[level][(allowed & -allowed).bit_length() - 1]

    def search(self, i: int, used: list[int], total: int, min_j: int) -> None:
        if total > self.best_total:
            self.best_total = total
            self.best_sel = self.sel[:i] + [-1] * (self.n - i)
        if i == self.n or self.steps >= self.max_steps:
            return
        allowed = [self._allowed(k, used) for k in range(i, self.n)]
        rest = sum(self._best(i + 1 + k, a) for k, a in enumerate(allowed[1:]))
        mine = allowed[0] & ~((1 << min_j) - 1)
        if total + self._best(i, mine) + rest <= self.best_total:
            return
        same_next = i + 1 < self.n and self.kinds[i + 1] == self.kinds[i]
        revenue = self.revenue[i]
        while mine:
            low = mine & -mine
            mine ^= low
            j = low.bit_length() - 1
            if total + revenue[j] + rest <= self.best_total:
                break
            self.steps += 1
            if self.steps >= self.max_steps:
                break
            self.sel[i] = j
            taken = used + self.bits[i][j] if i + 1 < self.n else used
            self.search(i + 1, taken, total + revenue[j], j + 1 if same_next else 0)
        self.sel[i] = -1
        # This train idles; identical trains after it idle too (they are interchangeable).
        k = i + 1
        if same_next:
            while k < self.n and self.kinds[k] == self.kinds[i]:
                k += 1
        if k < self.n:
            self.search(k, used, total, 0)


@dataclass(frozen=True)
class RouteSolution:
    """The optimizer's answer: the runs (in the order of the trains given; idle trains have
    none), their total revenue, whether the search completed (the answer is optimal), and the
    work it took (runs examined plus combination steps: a deterministic measure of its cost,
    the same whenever the position is, whether or not the answer was kept)."""

    runs: list[Run]
    revenue: int
    optimal: bool
    work: int = 0


def best_runs(
    state: MapState,
    corporation: str,
    trains: Sequence[TrainSpec],
    rules: TrackRules,
    *,
    max_candidates: int = MAX_CANDIDATES,
    max_steps: int = MAX_COMBINATION_STEPS,
) -> list[Run]:
    """The runs of :func:`solve`."""
    return solve(
        state, corporation, trains, rules, max_candidates=max_candidates, max_steps=max_steps
    ).runs


def solve(
    state: MapState,
    corporation: str,
    trains: Sequence[TrainSpec],
    rules: TrackRules,
    *,
    max_candidates: int = MAX_CANDIDATES,
    max_steps: int = MAX_COMBINATION_STEPS,
) -> RouteSolution:
    """A best set of runs, at most one per train, no two sharing track; trains that cannot run
    profitably get no run. Optimal unless a work cap was reached (``optimal`` says which).
    The answer is kept with the map until it changes: asking again for the same
    corporation, trains and rules (compared by their data) costs nothing."""
    if not trains:
        return RouteSolution([], 0, True)
    key = _cache_key(corporation, trains, rules, max_candidates, max_steps)
    kept = _kept(state, key)
    if kept is not None:
        return RouteSolution(list(kept.runs), kept.revenue, kept.optimal, kept.work)
    solution = _solve(state, corporation, trains, rules, max_candidates, max_steps)
    if key is not None:
        # the rules are kept too: objects in the key are compared by identity (`_frozen`)
        state.set_cached(key, (rules, solution))
    return RouteSolution(list(solution.runs), solution.revenue, solution.optimal, solution.work)


def has_run(
    state: MapState,
    corporation: str,
    trains: Sequence[TrainSpec],
    rules: TrackRules,
    max_candidates: int = MAX_CANDIDATES,
) -> bool:
    """Whether :func:`solve` would give any run: some train has a legal run worth anything
    among the candidates it enumerates (whatever its bound on combination steps). Answered
    from a kept solution when there is one, else by enumerating only until the first such
    run (deciding whether a corporation runs at all, e.g. when a game is replayed, costs no
    optimization)."""
    if not trains:
        return False
    key = _cache_key(corporation, trains, rules, max_candidates, MAX_COMBINATION_STEPS)
    kept = _kept(state, key)
    if kept is not None:
        return bool(kept.runs)
    network = network_of(state, corporation)
    for train in _one_per_kind(trains).values():
        try:
            _enumerate(network, corporation, train, rules, max_candidates, first_only=True)
        except _FoundOne:
            return True
    return False


def _kept(state: MapState, key: Hashable) -> RouteSolution | None:
    """The solution kept with the map under `key`, if any."""
    kept = state.cached(key) if key is not None else None
    return None if kept is None else kept[1]


def _one_per_kind(trains: Sequence[TrainSpec]) -> dict[tuple[str, int], TrainSpec]:
    """The first train of each kind and distance (the trains of a kind run alike)."""
    firsts: dict[tuple[str, int], TrainSpec] = {}
    for t in trains:
        firsts.setdefault((t.kind, t.distance), t)
    return firsts


def _cache_key(
    corporation: str,
    trains: Sequence[TrainSpec],
    rules: TrackRules,
    max_candidates: int,
    max_steps: int,
) -> Hashable:
    """The key a solution is kept under with the map (None: the rules cannot be pictured)."""
    data = getattr(rules, "__dict__", None)
    if data is None:
        return None
    return (
        "solve",
        corporation,
        tuple(trains),
        type(rules),
        _frozen(data),
        max_candidates,
        max_steps,
    )


def _frozen(value: object) -> Hashable:
    """A hashable picture of a rule set's data, for the cache key: plain values as they are,
    containers by their contents, other objects (shared, immutable title data such as the
    board) by identity. A frozenset or tuple that hashes is its own picture (its items are
    compared as they are, by value or, for objects, by identity)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, frozenset | tuple):
        try:
            hash(value)
        except TypeError:
            pass  # it holds containers: pictured item by item below
        else:
            return (type(value).__name__, value)
    if isinstance(value, Mapping):
        return ("map", frozenset((_frozen(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, set | frozenset):
        return ("set", frozenset(_frozen(v) for v in value))
    if isinstance(value, list | tuple):
        return ("seq", tuple(_frozen(v) for v in value))
    return ("object", id(value))


def _solve(
    state: MapState,
    corporation: str,
    trains: Sequence[TrainSpec],
    rules: TrackRules,
    max_candidates: int,
    max_steps: int,
) -> RouteSolution:
    network = network_of(state, corporation)
    graph = track_graph(state)
    complete = True
    examined = 0
    per_kind: dict[tuple[str, int], list[_Candidate]] = {}
    for k, t in _one_per_kind(trains).items():
        per_kind[k], n = _enumerate(network, corporation, t, rules, max_candidates)
        complete = complete and n < max_candidates
        examined += n
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
    kinds = [(trains[i].kind, trains[i].distance) for i in order]
    packer = _Packer([per_kind[k] for k in kinds], kinds, max_steps, network.chains)
    packer.search(0, [], 0, 0)
    lists = packer.lists
    best_total, best_sel, steps = packer.best_total, packer.best_sel, packer.steps
    runs: dict[int, Run] = {}
    for pos, j in enumerate(best_sel):
        if j >= 0:
            i = order[pos]
            c = lists[pos][j]
            runs[i] = to_run(graph, network, trains[i].id, c.start, c.steps, c.revenue)
    return RouteSolution(
        [runs[i] for i in sorted(runs)],
        best_total,
        complete and steps < max_steps,
        examined + steps,
    )


def alternatives(
    state: MapState,
    corporation: str,
    train: TrainSpec,
    rules: TrackRules,
    limit: int,
    *,
    max_candidates: int = MAX_CANDIDATES,
) -> list[Run]:
    """The `limit` best legal runs of one train on its own, best first (for a player choosing
    other runs than the optimal set; runs of different trains may still conflict)."""
    network = network_of(state, corporation)
    graph = track_graph(state)
    cands, _n = _enumerate(network, corporation, train, rules, max_candidates)
    return [to_run(graph, network, train.id, c.start, c.steps, c.revenue) for c in cands[:limit]]
