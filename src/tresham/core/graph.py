"""What a corporation reaches from its station tokens; legal tile lays, token slots, route
legality.

Track is walked path by path. Two paths connect

- across a hex border, when one ends at edge ``e`` of a hex and the other at the facing edge of
  the neighbour (borders marked impassable never connect), and their gauges connect: narrow and
  standard never connect to each other, dual connects to both;
- at a node (city, town, junction) of the same hex, whatever their gauges: a train changes
  gauge only at a town or city (the segment rule is the title's ``segment_cost`` hook).

Two paths of one hex that meet at the same edge do not connect to each other: a route may not
reverse at a junction. A city whose every slot holds another corporation's token may end a walk
but not be passed through; an offboard is never passed through.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tresham.core.errors import RouteError, TrackError
from tresham.core.rules_protocols import LayContext, Stop, TrackRules
from tresham.core.tiles import (
    CITY,
    JUNCTION,
    OFFBOARD,
    STANDARD,
    NodeDef,
    PathDef,
    TileDef,
    gauges_connect,
    next_color,
)
from tresham.core.track import OVERLAY_BASE, TRACK_GRAPH, MapState, NodeKey

PathKey = tuple[str, int]
"""A path on the map: (hex coordinate, path index on the hex's current tile)."""
Network = Callable[["MapState", str], frozenset[int]]
"""A title's own walk of a corporation's network: the path ids it holds on a map."""
Connection = Callable[["MapState", str], Mapping[str, frozenset[int]]]
"""A title's own answer to where a corporation may build, where it is not :func:`reach`'s:
for each hex, the edges by which its network reaches it (all six on a hex holding its token).
Hexes left out are not connected."""
Reached = Callable[["MapState", str], frozenset[NodeKey]]
"""A title's own answer to which nodes a corporation's network reaches, where it is not
:func:`reach`'s (the cities where it may place a token)."""

RULE_CONNECT = "Tile lay: connected to the network"
RULE_TOKEN_REACH = "Station token: reachable city"
RULE_ROUTE = "Run: route"
RULE_ROUTE_TRACK = "Run: continuous track, none reused"
RULE_ROUTE_STOPS = "Run: stops"
RULE_ROUTE_TOKEN = "Run: own station token"
RULE_ROUTE_BLOCK = "Run: blocked city or offboard"
RULE_ROUTE_DISTANCE = "Run: train distance"
RULE_ROUTE_GAUGE = "Run: gauge changes only at a stop"

ALL_EDGES = frozenset(range(6))


class TrackGraph:
    """The physical track of a :class:`MapState` (independent of any corporation).

    Paths get dense ids; a hex's overlay paths follow its tile's, keyed
    ``(hex, OVERLAY_BASE + j)``; the board's long paths (:class:`LongPath`) come last, keyed
    ``(name, 0)``. For path ``p`` and its end ``k`` (0 = ``a``, 1 = ``b``):
    ``end_node[p][k]`` is the node there (or ``None``), ``end_edge[p][k]`` the board edge (or
    -1), ``links[p][k]`` the ``(path, end)`` pairs across that border whose gauge connects, and
    ``border[p][k]`` the id of the hex border there (or -1). ``at_edge[(hex, e)]`` lists the
    ``(path, end)`` pairs ending at edge ``e`` of the hex.
    """

    __slots__ = (
        "at_edge",
        "border",
        "border_count",
        "end_edge",
        "end_node",
        "gauge",
        "key",
        "links",
        "node_paths",
        "nodes",
        "pid",
        "state",
    )

    def __init__(self, state: MapState) -> None:
        self.state = state
        board = state.board
        self.key: list[PathKey] = []
        self.gauge: list[str] = []
        self.end_node: list[tuple[NodeKey | None, NodeKey | None]] = []
        self.end_edge: list[tuple[int, int]] = []
        self.pid: dict[PathKey, int] = {}
        self.nodes: dict[NodeKey, NodeDef] = {}
        self.node_paths: dict[NodeKey, list[tuple[int, int]]] = {}
        at_edge: dict[tuple[str, int], list[tuple[int, int]]] = {}
        for coord, tile, rot in state.iter_hexes():
            for i, nd in enumerate(tile.nodes):
                self.nodes[(coord, i)] = nd
            for i, p in enumerate(tile.rotated_paths(rot)):
                pid = len(self.key)
                self.key.append((coord, i))
                self.pid[(coord, i)] = pid
                self.gauge.append(p.gauge)
                nodes: list[NodeKey | None] = []
                edges: list[int] = []
                for k, end in enumerate((p.a, p.b)):
                    if end.is_edge:
                        nodes.append(None)
                        edges.append(end.num)
                        at_edge.setdefault((coord, end.num), []).append((pid, k))
                    else:
                        nk = (coord, end.num)
                        nodes.append(nk)
                        edges.append(-1)
                        self.node_paths.setdefault(nk, []).append((pid, k))
                self.end_node.append((nodes[0], nodes[1]))
                self.end_edge.append((edges[0], edges[1]))
            for j, (a, b) in enumerate(state.overlays.get(coord, ())):
                pid = len(self.key)
                self.key.append((coord, OVERLAY_BASE + j))
                self.pid[(coord, OVERLAY_BASE + j)] = pid
                self.gauge.append(STANDARD)
                self.end_node.append((None, None))
                self.end_edge.append((a, b))
                at_edge.setdefault((coord, a), []).append((pid, 0))
                at_edge.setdefault((coord, b), []).append((pid, 1))
        for lp in board.long_paths:
            if lp.a not in self.nodes or lp.b not in self.nodes:
                continue  # a tile laid since dropped the node (no such case on the boards)
            pid = len(self.key)
            self.key.append((lp.name, 0))
            self.pid[(lp.name, 0)] = pid
            self.gauge.append(lp.gauge)
            self.end_node.append((lp.a, lp.b))
            self.end_edge.append((-1, -1))
            self.node_paths.setdefault(lp.a, []).append((pid, 0))
            self.node_paths.setdefault(lp.b, []).append((pid, 1))
        self.at_edge = at_edge
        border_ids: dict[tuple[str, int], int] = {}
        self.links: list[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = []
        self.border: list[tuple[int, int]] = []
        for pid, (coord, _i) in enumerate(self.key):
            links: list[tuple[tuple[int, int], ...]] = []
            borders: list[int] = []
            for k in (0, 1):
                e = self.end_edge[pid][k]
                if e < 0:
                    links.append(())
                    borders.append(-1)
                    continue
                nb = board.neighbor(coord, e)
                if nb is None:
                    links.append(())
                    borders.append(-1)
                    continue
                back = (e + 3) % 6
                bkey = min((coord, e), (nb, back))
                borders.append(border_ids.setdefault(bkey, len(border_ids)))
                g = self.gauge[pid]
                links.append(
                    tuple(
                        (q, kq)
                        for q, kq in at_edge.get((nb, back), ())
                        if gauges_connect(g, self.gauge[q])
                    )
                )
            self.links.append((links[0], links[1]))
            self.border.append((borders[0], borders[1]))
        self.border_count = len(border_ids)

    def stop(self, key: NodeKey) -> Stop:
        """The :class:`Stop` record for a node."""
        coord, index = key
        return Stop(coord, index, self.nodes[key], self.state.board.hexes[coord].port)


def track_graph(state: MapState) -> TrackGraph:
    """The state's track graph (cached until the track changes)."""
    graph = state.cached(TRACK_GRAPH)
    if not isinstance(graph, TrackGraph):
        graph = TrackGraph(state)
        state.set_cached(TRACK_GRAPH, graph)
    return graph


def passable(state: MapState, node: NodeDef, key: NodeKey, corporation: str) -> bool:
    """Whether ``corporation``'s trains may pass through a node: never an offboard, not a city
    full of other corporations' tokens."""
    if node.kind == OFFBOARD:
        return False
    if node.kind == CITY:
        return not state.blocks(key[0], key[1], corporation)
    return True


@dataclass(frozen=True)
class Reach:
    """What ``corporation`` reaches from its station tokens.

    ``nodes``: every node its track reaches (blocked cities and offboards included, as ends).
    ``paths``: path ids (of the state's :class:`TrackGraph`) it can use.
    ``edges``: for each hex, the edges by which the network reaches it (exits of reached track
    in the hex, and edges facing reached track in a neighbour).
    ``token_hexes``: hexes holding one of its tokens.
    ``entered``: for path ``p`` and end ``k``, byte ``2 * p + k`` is 1 when the network enters
    ``p`` at end ``k`` (so runs along it towards its other end).
    """

    corporation: str
    nodes: frozenset[NodeKey]
    paths: frozenset[int]
    edges: dict[str, frozenset[int]]
    token_hexes: frozenset[str]
    entered: bytes = b""

    def connected_edges(self, coord: str) -> frozenset[int]:
        """Edges of ``coord`` the corporation may build from: all six on a hex holding its
        token, else :attr:`edges`."""
        if coord in self.token_hexes:
            return ALL_EDGES
        return self.edges.get(coord, frozenset())


def path_exit_edges(
    state: MapState,
    graph: TrackGraph,
    paths: Iterable[int],
    edges: dict[str, set[int]] | None = None,
) -> dict[str, set[int]]:
    """The edges by which a set of paths reaches each hex: every board exit of a path in its
    own hex, and the facing edge of the neighbour across it; added to `edges` when given."""
    out: dict[str, set[int]] = {} if edges is None else edges
    board = state.board
    for pid in paths:
        coord = graph.key[pid][0]
        for e in graph.end_edge[pid]:
            if e < 0:
                continue
            out.setdefault(coord, set()).add(e)
            nb = board.neighbor(coord, e)
            if nb is not None:
                out.setdefault(nb, set()).add((e + 3) % 6)
    return out


def reach(state: MapState, corporation: str, start: NodeKey | None = None) -> Reach:
    """Walk the corporation's network from its tokens, or from the one token at ``start``
    (a title's rule, e.g. a lay from each home city); cached until the state changes."""
    key = f"reach:{corporation}:{start}"
    cached = state.cached(key)
    if isinstance(cached, Reach):
        return cached
    graph = track_graph(state)
    starts = state.tokens_of(corporation) if start is None else [start]
    visited = bytearray(2 * len(graph.key))
    nodes: set[NodeKey] = set(starts)
    stack: list[tuple[int, int]] = []
    for nk in starts:
        stack.extend(graph.node_paths.get(nk, ()))
    can_pass: dict[NodeKey, bool] = {}
    while stack:
        pid, entry = stack.pop()
        idx = 2 * pid + entry
        if visited[idx]:
            continue
        visited[idx] = 1
        out = 1 - entry
        there = graph.end_node[pid][out]
        if there is None:
            stack.extend(graph.links[pid][out])
            continue
        nodes.add(there)
        ok = can_pass.get(there)
        if ok is None:
            ok = can_pass[there] = passable(state, graph.nodes[there], there, corporation)
        if ok:
            stack.extend((q, kq) for q, kq in graph.node_paths[there] if q != pid)
    paths = frozenset(p for p in range(len(graph.key)) if visited[2 * p] or visited[2 * p + 1])
    edges = path_exit_edges(state, graph, paths)
    result = Reach(
        corporation,
        frozenset(nodes),
        paths,
        {c: frozenset(es) for c, es in edges.items()},
        frozenset(c for c, _n in starts),
        bytes(visited),
    )
    state.set_cached(key, result)
    return result


# -- tile lays ---------------------------------------------------------------------------------
class TileLay(NamedTuple):
    """A legal lay: hex, tile id, rotation, and what it costs."""

    hex: str
    tile: str
    rotation: int
    cost: int


def lay_context(
    state: MapState,
    corporation: str,
    coord: str,
    tile_id: str,
    rotation: int,
    *,
    require_connection: bool = True,
    start: NodeKey | None = None,
    connection: Connection | None = None,
) -> LayContext:
    """The :class:`LayContext` the title hooks see for a proposed lay (the reached edges from
    `connection` where the title gives one)."""
    net = reach(state, corporation, start)
    edges = (
        connection(state, corporation).get(coord, frozenset())
        if connection is not None
        else net.edges.get(coord, frozenset())
    )
    return LayContext(
        state=state,
        corporation=corporation,
        coord=coord,
        old_tile=state.tile(coord),
        old_rotation=state.rotation(coord),
        new_tile=state.catalogue[tile_id],
        rotation=rotation % 6,
        reach_edges=edges,
        own_token=coord in net.token_hexes,
        terrain_cost=state.board.hex(coord).terrain_cost,
        connection_required=require_connection,
    )


def tile_lay_problem(
    state: MapState,
    corporation: str,
    coord: str,
    tile_id: str,
    rotation: int,
    rules: TrackRules,
    *,
    require_connection: bool = True,
    start: NodeKey | None = None,
    connection: Connection | None = None,
) -> TrackError | None:
    """Why the lay is illegal (generic rules, connection — from ``start`` only when given, by
    the title's `connection` where it gives one —, title hooks), or ``None``."""
    return _judge_lay(
        state, corporation, coord, tile_id, rotation, rules, require_connection, start, connection
    )[0]


def _judge_lay(
    state: MapState,
    corporation: str,
    coord: str,
    tile_id: str,
    rotation: int,
    rules: TrackRules,
    require_connection: bool,
    start: NodeKey | None,
    connection: Connection | None = None,
) -> tuple[TrackError | None, LayContext | None]:
    """The lay's problem, or ``None`` with the context the title's cost hook needs."""
    if coord not in state.board.hexes:
        return TrackError(f"no hex {coord} on the map", "Tile lay: buildable hex"), None
    err = rules.check_hex(state, corporation, coord)
    if err is not None:
        return err, None
    tile = state.catalogue.get(tile_id)
    if tile is not None and tile.color not in rules.tile_colors:
        return TrackError(
            f"{tile.color} tiles are not available now (tile {tile_id})", "Tile lay: colour"
        ), None
    err, _mapping = state.lay_problem(coord, tile_id, rotation)
    if err is not None:
        return err, None
    ctx = lay_context(
        state,
        corporation,
        coord,
        tile_id,
        rotation,
        require_connection=require_connection,
        start=start,
        connection=connection,
    )
    if require_connection:
        conn = (
            connection(state, corporation).get(coord, frozenset())
            if connection is not None
            else reach(state, corporation, start).connected_edges(coord)
        )
        if not ctx.new_tile.exits(ctx.rotation) & conn:
            return TrackError(
                f"{corporation} does not reach {coord} through any exit of tile {tile_id} "
                f"at rotation {rotation}",
                RULE_CONNECT,
            ), None
    err = rules.check_lay(ctx)
    return (err, None) if err is not None else (None, ctx)


RULE_NEW_TRACK = "Tile lay: new track the corporation can use, or a city's value changed"


def new_track_problem(
    state: MapState,
    corporation: str,
    coord: str,
    tile_id: str,
    rotation: int,
    *,
    start: NodeKey | None = None,
    network: Network | None = None,
) -> TrackError | None:
    """The usual 18xx restriction on what a lay must do (18xx.games' "semi-restrictive"
    rule): a tile laid where there was track must add track the corporation can use, as part
    of a route from one of its tokens, or change the value of a city or town its network
    reaches. Laying on a hex without track is never refused here. ``None`` when the lay does
    either. `network`: the title's own walk of the corporation's network, where it is not
    :func:`reach` (:func:`usable_new_track`)."""
    if usable_new_track(state, corporation, coord, tile_id, rotation, start=start, network=network):
        return None
    return TrackError(
        f"tile {tile_id} at rotation {rotation} on {coord} adds no track {corporation} can use "
        "(reaching it from a token without reversing) and changes no city's value on its "
        "network",
        RULE_NEW_TRACK,
    )


def usable_new_track(
    state: MapState,
    corporation: str,
    coord: str,
    tile_id: str,
    rotation: int,
    *,
    start: NodeKey | None = None,
    network: Network | None = None,
) -> bool:
    """Whether, once the tile is laid, the corporation's network (:func:`reach`) includes a
    path of the new tile that is new (no old path has its ends and gauge), or an old one whose
    towns' or cities' value changes.

    With `network` (a title's own walk: the path ids it holds on a map), the lay is tried on
    a copy of the map and the new tile's paths are judged by that walk.

    Answered from the network before the lay: the first new path a walk meets after the lay
    is entered across a border from track already running towards the hex, or from a node of
    the hex that the network reaches and may pass (or holds a token). Only where the new tile
    unblocks a city of the hex (more slots) is the lay tried on a copy of the map."""
    old = state.tile(coord)
    old_paths = old.rotated_paths(state.rotation(coord))
    if not old_paths:
        return True
    new = state.catalogue[tile_id]
    new_paths = new.rotated_paths(rotation)
    old_keys: dict[tuple[object, ...], list[int]] = {}
    for i, p in enumerate(old_paths):
        old_keys.setdefault(_path_ends(old, p), []).append(i)
    if network is not None:
        trial = state.copy()
        trial.lay_tile(coord, tile_id, rotation, check=False)
        held, trial_graph = network(trial, corporation), track_graph(trial)
        for j, p in enumerate(new_paths):
            if trial_graph.pid[(coord, j)] not in held:
                continue
            olds = old_keys.get(_path_ends(new, p))
            if olds is None or _values(new, p) != _values(old, old_paths[olds[0]]):
                return True
        return False
    candidates: list[int] = []
    graph = track_graph(state)
    net = reach(state, corporation, start)
    for j, p in enumerate(new_paths):
        olds = old_keys.get(_path_ends(new, p))
        if olds is None:
            candidates.append(j)
        elif _values(new, p) != _values(old, old_paths[olds[0]]):
            if any(graph.pid[(coord, i)] in net.paths for i in olds):
                return True  # a city on the network changes value
            candidates.append(j)
    if not candidates:
        return False
    _err, mapping = state.lay_problem(coord, tile_id, rotation)
    from_old: dict[int, list[int]] = {}
    for o, n in mapping.items():
        from_old.setdefault(n, []).append(o)
    tokens = set(state.tokens_of(corporation)) if start is None else {start}
    unsure = False
    for j in candidates:
        p = new_paths[j]
        for end in (p.a, p.b):
            if end.is_edge:
                if _arrives(state, graph, net, coord, end.num, p.gauge):
                    return True
                continue
            for o in from_old.get(end.num, ()):
                key = (coord, o)
                if key in tokens:
                    return True
                if key not in net.nodes:
                    continue
                if passable(state, old.nodes[o], key, corporation):
                    return True
                unsure = unsure or _unblocked(state, corporation, coord, o, new.nodes[end.num])
    if not unsure:
        return False
    trial = state.copy()
    trial.lay_tile(coord, tile_id, rotation, check=False)
    after = reach(trial, corporation, start)
    trial_graph = track_graph(trial)
    return any(trial_graph.pid[(coord, j)] in after.paths for j in candidates)


def _path_ends(tile: TileDef, path: PathDef) -> tuple[object, ...]:
    """What makes a path the same track after an upgrade: its ends (edges by number, nodes by
    kind) and its gauge."""
    ends = sorted(
        ("e", end.num) if end.is_edge else ("n", tile.nodes[end.num].kind)
        for end in (path.a, path.b)
    )
    return (*ends, path.gauge)


def _values(tile: TileDef, path: PathDef) -> list[int]:
    """The highest values of the path's towns and cities, sorted."""
    out = []
    for end in (path.a, path.b):
        if not end.is_edge:
            nd = tile.nodes[end.num]
            out.append(max([nd.revenue, *(v for _p, v in nd.revenue_by_phase)]))
    return sorted(out)


def _arrives(
    state: MapState, graph: TrackGraph, net: Reach, coord: str, edge: int, gauge: str
) -> bool:
    """Whether the network runs into ``coord`` across ``edge`` on track whose gauge meets
    ``gauge``."""
    nb = state.board.neighbor(coord, edge)
    if nb is None:
        return False
    for q, k in graph.at_edge.get((nb, (edge + 3) % 6), ()):
        if net.entered[2 * q + 1 - k] and gauges_connect(gauge, graph.gauge[q]):
            return True
    return False


def _unblocked(state: MapState, corporation: str, coord: str, node: int, new: NodeDef) -> bool:
    """Whether a city that blocks the corporation now would not once it has the new tile's
    slots."""
    if not state.blocks(coord, node, corporation):
        return False
    others = sum(1 for t in state.token_holders(coord, node) if t != corporation)
    return others < new.slots


def check_tile_lay(
    state: MapState,
    corporation: str,
    coord: str,
    tile_id: str,
    rotation: int,
    rules: TrackRules,
    *,
    require_connection: bool = True,
    start: NodeKey | None = None,
    connection: Connection | None = None,
) -> int:
    """Raise :class:`TrackError` unless the lay is legal; return its cost. `connection`: the
    title's own edges by which the corporation may build, where they are not :func:`reach`'s."""
    err, ctx = _judge_lay(
        state, corporation, coord, tile_id, rotation, rules, require_connection, start, connection
    )
    if err is not None:
        raise err
    assert ctx is not None
    return rules.lay_cost(ctx)


def legal_tile_lays(
    state: MapState,
    corporation: str,
    rules: TrackRules,
    *,
    hexes: Iterable[str] | None = None,
    require_connection: bool = True,
    start: NodeKey | None = None,
    connection: Connection | None = None,
) -> list[TileLay]:
    """Every legal ``(hex, tile, rotation, cost)`` for the corporation, one rotation for each
    distinct track layout, sorted. ``hexes`` limits the hexes considered; with
    ``require_connection=False`` the network need not reach the hex (e.g. a private's power);
    with ``start`` the network is walked from that one token; with `connection` the title
    says by which edges the corporation reaches each hex."""
    net = reach(state, corporation, start)
    connected = connection(state, corporation) if connection is not None else None
    if hexes is not None:
        candidates = sorted(set(hexes) & set(state.board.hexes))
    elif require_connection:
        candidates = sorted(
            set(connected) if connected is not None else set(net.edges) | set(net.token_hexes)
        )
    else:
        candidates = sorted(state.board.hexes)
    colors = rules.tile_colors
    stock = _supply_by_kind(state)
    out: list[TileLay] = []
    for coord in candidates:
        hexdef = state.board.hexes[coord]
        if hexdef.fixed or rules.check_hex(state, corporation, coord) is not None:
            continue
        old = state.tile(coord)
        want = next_color(old.color)
        charted = [
            state.catalogue[t]
            for t in sorted(state.board.promotions.get(old.id, ()))
            if state.supply.get(t, 0) > 0 and state.catalogue[t].color in colors
        ]
        if (want is None or want not in colors) and not charted:
            continue
        old_mask = old.exit_mask(state.rotation(coord))
        conn = (
            connected.get(coord, frozenset())
            if connected is not None
            else net.connected_edges(coord)
        )
        conn_mask = sum(1 << e for e in conn)
        ok_mask = old_mask | (0b111111 & ~_bad_exit_mask(state, coord))
        if want is None or want not in colors:
            tiles = []
        elif set(old.labels) & state.board.regroup_labels:
            # a regrouping upgrade may change the cities (``lay_problem`` checks them)
            tiles = [t for k, ts in stock.items() if k[:2] == (want, old.label_key) for t in ts]
        else:
            tiles = stock.get((want, old.label_key, old.city_count, old.town_count), [])
        # the board's promotion chart adds its tiles for this one (``lay_problem`` checks them)
        tiles = [*tiles, *(t for t in charted if t not in tiles)]
        for tile in tiles:
            tile_id = tile.id
            for rot in tile.unique_rotations():
                mask = tile.exit_mask(rot)
                if mask & old_mask != old_mask or mask & ~ok_mask:
                    continue
                if require_connection and not mask & conn_mask:
                    continue
                err, _m = state.lay_problem(coord, tile_id, rot)
                if err is not None:
                    continue
                ctx = lay_context(
                    state,
                    corporation,
                    coord,
                    tile_id,
                    rot,
                    require_connection=require_connection,
                    start=start,
                    connection=connection,
                )
                if rules.check_lay(ctx) is not None:
                    continue
                out.append(TileLay(coord, tile_id, rot, rules.lay_cost(ctx)))
    out.sort(key=lambda t: (t.hex, _tile_sort_key(t.tile), t.rotation))
    return out


def _supply_by_kind(state: MapState) -> dict[tuple[str, tuple[str, ...], int, int], list[TileDef]]:
    """The tiles left in the supply by what an upgrade must keep: colour, labels, and the
    numbers of cities and towns."""
    out: dict[tuple[str, tuple[str, ...], int, int], list[TileDef]] = {}
    for tile_id, count in state.supply.items():
        if count > 0:
            t = state.catalogue[tile_id]
            out.setdefault((t.color, t.label_key, t.city_count, t.town_count), []).append(t)
    return out


def _tile_sort_key(tile_id: str) -> tuple[int, str]:
    return (int(tile_id), "") if tile_id.isdigit() else (1 << 30, tile_id)


def _bad_exit_mask(state: MapState, coord: str) -> int:
    return sum(1 << e for e in state.bad_exits(coord, 0b111111))


# -- station tokens ----------------------------------------------------------------------------
def token_slots(state: MapState, corporation: str, reached: Reached | None = None) -> list[NodeKey]:
    """Every city the corporation reaches (by the title's `reached` where it gives one) that
    has a free, unreserved slot (or the slot reserved for it) and holds none of its tokens
    yet, sorted."""
    nodes = reached(state, corporation) if reached is not None else reach(state, corporation).nodes
    out = []
    for key in sorted(nodes):
        nd = state.tile(key[0]).nodes[key[1]]
        if nd.kind != CITY:
            continue
        if state.token_problem(corporation, key[0], key[1]) is None:
            out.append(key)
    return out


def check_token(state: MapState, corporation: str, coord: str, node: int) -> None:
    """Raise :class:`TrackError` unless the corporation may place a token in this city now
    (reachable, free slot, none of its tokens there)."""
    err = state.token_problem(corporation, coord, node)
    if err is not None:
        raise err
    if (coord, node) not in reach(state, corporation).nodes:
        raise TrackError(f"{corporation} does not reach {coord}", RULE_TOKEN_REACH)


def reachable_stops(state: MapState, corporation: str) -> list[Stop]:
    """Every stop (city, town, offboard) the corporation's network reaches, sorted."""
    graph = track_graph(state)
    return [
        graph.stop(k)
        for k in sorted(reach(state, corporation).nodes)
        if graph.nodes[k].kind != JUNCTION
    ]


# -- route legality ----------------------------------------------------------------------------
class Segment(NamedTuple):
    """The track between two consecutive stops: its gauges, hex edges crossed, paths."""

    gauges: frozenset[str]
    edges: int
    paths: tuple[PathKey, ...]


@dataclass(frozen=True)
class RunTrace:
    """A run's track, checked: its stops, segments, and the path ids and border ids used."""

    stops: tuple[Stop, ...]
    segments: tuple[Segment, ...]
    path_ids: frozenset[int]
    border_ids: frozenset[int]


def trace_run(
    state: MapState,
    corporation: str,
    stops: Sequence[NodeKey],
    track: Sequence[PathKey],
) -> RunTrace:
    """Check a run's track and stops; raise :class:`RouteError` naming the rule.

    Rules: at least two stops; the track is continuous from the first stop to the last (paths
    meet at a node of one hex or across a hex border with connecting gauges); no path and no
    hex border is used twice; every stop on the way is listed (``stops`` is exactly the
    sequence of towns, cities and offboards the track touches) and none twice; no passing
    through an offboard or a city full of other corporations' tokens; at least one stop holds
    the corporation's token.
    """
    graph = track_graph(state)
    listed: list[NodeKey] = [(str(s[0]), int(s[1])) for s in stops]
    if len(listed) < 2:
        raise RouteError("a run needs at least two stops", RULE_ROUTE_STOPS)
    if not track:
        raise RouteError("a run needs track", RULE_ROUTE_TRACK)
    first = listed[0]
    if first not in graph.nodes or graph.nodes[first].kind == JUNCTION:
        raise RouteError(f"{first[0]} has no stop {first[1]}", RULE_ROUTE_STOPS)
    visited: list[NodeKey] = [first]
    segments: list[Segment] = []
    used_paths: set[int] = set()
    used_borders: set[int] = set()
    seg_gauges: set[str] = set()
    seg_paths: list[PathKey] = []
    seg_edges = 0
    at_node: NodeKey | None = first
    prev: tuple[int, int] | None = None  # (path id, exit end) when standing at an edge
    for raw in track:
        pk = (str(raw[0]), int(raw[1]))
        pid = graph.pid.get(pk)
        if pid is None:
            raise RouteError(f"there is no path {pk[1]} on {pk[0]}", RULE_ROUTE_TRACK)
        if pid in used_paths:
            raise RouteError(f"the run uses path {pk[1]} of {pk[0]} twice", RULE_ROUTE_TRACK)
        if at_node is not None:
            ends = graph.end_node[pid]
            if ends[0] == at_node:
                entry = 0
            elif ends[1] == at_node:
                entry = 1
            else:
                raise RouteError(
                    f"path {pk[1]} of {pk[0]} does not leave {at_node[0]} node {at_node[1]}",
                    RULE_ROUTE_TRACK,
                )
        else:
            assert prev is not None
            ppid, pexit = prev
            entry = -1
            for q, kq in graph.links[ppid][pexit]:
                if q == pid:
                    entry = kq
                    break
            if entry < 0:
                pkey = graph.key[ppid]
                raise RouteError(
                    f"track breaks between {pkey[0]} and {pk[0]} (no connecting path, or "
                    "narrow meets standard)",
                    RULE_ROUTE_TRACK,
                )
            border = graph.border[ppid][pexit]
            if border in used_borders:
                raise RouteError(f"the run crosses the border into {pk[0]} twice", RULE_ROUTE_TRACK)
            used_borders.add(border)
            seg_edges += 1
        used_paths.add(pid)
        seg_gauges.add(graph.gauge[pid])
        seg_paths.append(pk)
        out = 1 - entry
        nk = graph.end_node[pid][out]
        if nk is None:
            at_node = None
            prev = (pid, out)
            continue
        at_node = nk
        prev = None
        if graph.nodes[nk].kind == JUNCTION:
            continue
        visited.append(nk)
        segments.append(Segment(frozenset(seg_gauges), seg_edges, tuple(seg_paths)))
        seg_gauges = set()
        seg_paths = []
        seg_edges = 0
    if at_node is None or graph.nodes[at_node].kind == JUNCTION:
        raise RouteError("a run must end at a stop", RULE_ROUTE_TRACK)
    if visited != listed:
        raise RouteError(
            f"the stops {_fmt(listed)} do not match the track, which touches {_fmt(visited)} "
            "(every stop on the way is counted)",
            RULE_ROUTE_STOPS,
        )
    if len(set(visited)) != len(visited):
        twice = next(k for k in visited if visited.count(k) > 1)
        raise RouteError(f"the run visits {twice[0]} twice", RULE_ROUTE_STOPS)
    for key in visited[1:-1]:
        if not passable(state, graph.nodes[key], key, corporation):
            what = "an offboard" if graph.nodes[key].kind == OFFBOARD else "a city full of "
            what += "" if graph.nodes[key].kind == OFFBOARD else "other corporations' tokens"
            raise RouteError(f"the run passes through {key[0]}, {what}", RULE_ROUTE_BLOCK)
    if not any(state.has_token(corporation, c, n) for c, n in visited):
        raise RouteError(f"no stop of the run holds a {corporation} token", RULE_ROUTE_TOKEN)
    return RunTrace(
        tuple(graph.stop(k) for k in visited),
        tuple(segments),
        frozenset(used_paths),
        frozenset(used_borders),
    )


def _fmt(keys: Sequence[NodeKey]) -> str:
    return "[" + ", ".join(c if n == 0 else f"{c}.{n}" for c, n in keys) + "]"
