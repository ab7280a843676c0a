"""What a corporation's network is on 18xx.games: the site's own walk (``Engine::Graph#compute``
with ``Node#walk`` and ``Path#walk``), for the "18xx.games" rule set where the site's answer
differs from tresham's plain reach (``core.graph.reach``).

From each of its tokens in turn, the site walks depth first, path by path in each tile's order:
- a city, town or offboard is entered once in the whole walk from that token (the other token
  cities count as entered already), a path is walked once, and a walk does not cross a hex
  edge that the walk leading to it has crossed;
- only where a path leaves its tile by an exit that tile shares between several paths (a
  "converging" exit) are the nodes and paths walked beyond it given back on the way back;
- a city full of other corporations' tokens, or an offboard, ends a walk;
- across a hex border, narrow and standard never meet, dual meets both.

So a path a route could reach by another way may stay out of the network, when the walk met
its way in first from a side where it could not go on. What the walk meets is the network:
the tile lays that must add track to it (ruling R29), the tokens another corporation may buy
(§14.1), and whether the Route step is open (two stops, or a stop and a port, met from one
token), and the hexes where the corporation may build (the site's ``connected_hexes``: every
edge of a hex holding its token, and each exit of a path the walk met, on both sides of that
border).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from tresham.core.graph import TrackGraph, passable, path_exit_edges, track_graph
from tresham.core.tiles import CITY
from tresham.core.track import MapState, NodeKey

CACHE: Final = "site_graph:"


@dataclass(frozen=True)
class SiteGraph:
    """The site's network of a corporation: the path ids (of the state's
    :class:`~tresham.core.graph.TrackGraph`) and nodes its walk met, and whether one token's
    walk met two stops, or one and a port (the site's ``route_available``; its ports are
    ``route: optional``), and whether one token's walk met two stops besides ports (the site's
    ``route_train_purchase``: a corporation without a train must then buy one)."""

    paths: frozenset[int]
    nodes: frozenset[NodeKey]
    route_available: bool
    hexes: Mapping[str, frozenset[int]]
    train_purchase: bool


def site_graph(state: MapState, corporation: str) -> SiteGraph:
    """The site's walk of `corporation`'s network (cached until the state changes)."""
    key = CACHE + corporation
    cached = state.cached(key)
    if isinstance(cached, SiteGraph):
        return cached
    graph = track_graph(state)
    tokens = [k for k in state.tokens_of(corporation) if graph.nodes[k].kind == CITY]
    walk = _Walk(state, graph, corporation)
    route = purchase = False
    for node in tokens:
        walk.start(set(tokens) - {node})
        walk.node(node, converging=False)
        ports = sum(1 for coord, _n in walk.local if state.board.hexes[coord].port)
        stops = len(walk.local) - ports
        route = route or stops > 1 or (stops == 1 and ports > 0)
        purchase = purchase or stops > 1
    result = SiteGraph(
        frozenset(walk.paths),
        frozenset(walk.nodes | set(tokens)),
        route,
        _connected_hexes(state, graph, walk.paths, tokens),
        purchase,
    )
    state.set_cached(key, result)
    return result


def _connected_hexes(
    state: MapState, graph: TrackGraph, paths: set[int], tokens: list[NodeKey]
) -> dict[str, frozenset[int]]:
    """``Graph#compute``'s ``hexes``: each edge of a token's hex that has a neighbour, and each
    exit of a walked path, with the facing edge of the neighbour across it."""
    board = state.board
    edges: dict[str, set[int]] = {}
    for coord, _n in tokens:
        edges.setdefault(coord, set()).update(
            e for e in range(6) if board.neighbor(coord, e) is not None
        )
    path_exit_edges(state, graph, paths, edges)
    return {c: frozenset(es) for c, es in edges.items()}


class _Walk:
    """One corporation's walk: what it has met (all tokens) and its bookkeeping (one token)."""

    def __init__(self, state: MapState, graph: TrackGraph, corporation: str) -> None:
        self.state = state
        self.graph = graph
        self.corporation = corporation
        self.paths: set[int] = set()
        self.nodes: set[NodeKey] = set()
        self.local: set[NodeKey] = set()
        self.seen_nodes: set[NodeKey] = set()
        self.seen_paths: set[int] = set()
        self.crossed: dict[tuple[str, int], int] = {}
        self.exits: dict[tuple[str, int], int] = {}
        for pid, (coord, _i) in enumerate(graph.key):
            for e in graph.end_edge[pid]:
                if e >= 0:
                    self.exits[(coord, e)] = self.exits.get((coord, e), 0) + 1

    def start(self, other_tokens: set[NodeKey]) -> None:
        self.local = set()
        self.seen_nodes = set(other_tokens)
        self.seen_paths = set()
        self.crossed = {}

    def node(self, node: NodeKey, *, converging: bool) -> None:
        """``Node#walk``: each path of the node, in the tile's order."""
        if node in self.seen_nodes:
            return
        self.seen_nodes.add(node)
        for pid, _end in self.graph.node_paths.get(node, ()):
            self.path(pid, None, node, converging)
        if converging:
            self.seen_nodes.discard(node)

    def path(self, pid: int, skip: int | None, origin: NodeKey, converging: bool) -> None:
        """``Path#walk``: met (and the nodes on it walked from, but `origin`), then on across
        its other edges to the paths of the neighbour that face them."""
        graph = self.graph
        coord = graph.key[pid][0]
        edges = graph.end_edge[pid]
        if pid in self.seen_paths or any(e >= 0 and self.crossed.get((coord, e), 0) for e in edges):
            return
        self.seen_paths.add(pid)
        if pid not in self.paths:
            self.paths.add(pid)
            for n in graph.end_node[pid]:
                if n is not None:
                    self.nodes.add(n)
                    self.local.add(n)
        for n in graph.end_node[pid]:
            if n is None or n == origin:
                continue
            if not passable(self.state, graph.nodes[n], n, self.corporation):
                continue
            self.node(n, converging=converging)
        for k, e in enumerate(edges):
            if e < 0 or e == skip or not graph.links[pid][k]:
                continue
            if self.state.board.neighbor(coord, e) is None:
                continue
            there = converging or self.exits.get((coord, e), 0) > 1
            self.crossed[(coord, e)] = self.crossed.get((coord, e), 0) + 1
            for q, kq in graph.links[pid][k]:
                self.path(q, graph.end_edge[q][kq], origin, there)
            self.crossed[(coord, e)] -= 1
        if converging:
            self.seen_paths.discard(pid)


def site_paths(state: MapState, corporation: str) -> frozenset[int]:
    """The path ids of the site's network (a ``core.graph.Network``)."""
    return site_graph(state, corporation).paths


def site_nodes(state: MapState, corporation: str) -> frozenset[NodeKey]:
    """The nodes of the site's network, its tokens' cities included (the site's
    ``connected_nodes``, where it lets the corporation place a token; a ``core.graph.Reached``)."""
    return site_graph(state, corporation).nodes


def site_hexes(state: MapState, corporation: str) -> Mapping[str, frozenset[int]]:
    """The hexes where the site lets the corporation build, with the edges by which its walk
    reaches each (a ``core.graph.Connection``)."""
    return site_graph(state, corporation).hexes
