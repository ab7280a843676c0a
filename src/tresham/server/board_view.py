"""The static drawing data of a game's board, for the browser table: what never changes
during a game, computed from the engine's title-independent board, tile and market data.

Modelled here:

- the hex grid of either orientation (flat-top: edges 0=S 1=SW 2=NW 3=N 4=NE 5=SE; pointy-top:
  0=SW 1=W 2=NW 3=NE 4=E 5=SE; see ``core/board.py``) as SVG coordinates: hex centres, the
  corners of a hex and the midpoints of its edges;
- every hex's printed content (colour, name, terrain cost and its kind, impassable borders,
  port, its preprinted tile) and every tile a game may lay (the supply's tiles) at each of its six
  rotations, as *tile drawings*: the SVG path of each piece of track (in the order of the
  tile's paths, whose indices a run's track names), its gauge and ends, and where each node
  (city, town, offboard, junction) sits with its revenue and token slots;
- the stock market's cells, the phases (what starts each, its train limit, tile colours and
  operating rounds) and the corporations' colours (from the title's ``data/game.json`` where
  it gives them).

Track geometry: a path between two edges is a straight line (opposite edges) or a circular arc
tangent to both edges' normals (neighbouring edges: radius R/2; edges two apart: 3R/2), so
every piece of track meets a hex border at the edge's midpoint, square to the border. A town
on a two-edge path sits on that curve's midpoint; a tile's only stop sits at the centre; the
stops of a tile with several sit off the centre toward their edges. Where those places would
make two stops overlap (two cities joined to the same side, as 1854's 461 and 462; two towns
on crossing straights, as 55; Wien's 451), the stops are moved apart (``_spread``): each town
along its own track, each city to the nearest free place, keeping every stop clear of the
straight track that leads to another; a two-slot city off the centre of a tile with several
stops lies across its direction from the centre (its ``angle``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Final

from tresham.core.board import BoardDef, HexDef, Layout
from tresham.core.tiles import CITY, JUNCTION, TOWN, NodeDef, PathEnd, TileDef
from tresham.core.title import title_data

if TYPE_CHECKING:
    from tresham.core.game import Game

#: Centre-to-corner distance of a hex, in SVG units.
RADIUS: Final = 50.0
#: Centre-to-edge distance.
APOTHEM: Final = RADIUS * math.sqrt(3) / 2
#: Angle (degrees, SVG's y-down frame) of edge 0's midpoint; edge e is 60e degrees further.
EDGE0_ANGLE: Final[dict[str, float]] = {"flat": 90.0, "pointy": 120.0}
#: How far from the centre (as a share of the apothem) the stops of a many-stop tile sit.
OFFSET_SHARE: Final = 0.55
#: A token slot's radius (web/board.js SLOT_R) and a town's, in SVG units.
SLOT_RADIUS: Final = 10.5
TOWN_RADIUS: Final = 6.0
#: The least gap between two stops, and between a stop and another stop's track.
STOP_GAP: Final = 2.0
TRACK_GAP: Final = 3.0
#: How far from the centre a stop's outline may reach.
STOP_REACH: Final = 40.0

Point = tuple[float, float]


def _round(p: Point) -> Point:
    """`p` to two decimals (and without negative zeros)."""
    return (round(p[0], 2) + 0.0, round(p[1], 2) + 0.0)


def edge_direction(layout: Layout, edge: int) -> Point:
    """The unit vector from a hex's centre toward the midpoint of `edge`."""
    angle = math.radians(EDGE0_ANGLE[layout] + 60.0 * edge)
    return (math.cos(angle), math.sin(angle))


def edge_midpoint(layout: Layout, edge: int) -> Point:
    """The midpoint of `edge`, relative to the hex's centre."""
    dx, dy = edge_direction(layout, edge)
    return _round((APOTHEM * dx, APOTHEM * dy))


def hex_corners(layout: Layout) -> list[Point]:
    """The six corners of a hex, relative to its centre: edge e runs from corner e-1 to
    corner e."""
    start = EDGE0_ANGLE[layout] + 30.0
    return [
        _round(
            (
                RADIUS * math.cos(math.radians(start + 60 * k)),
                RADIUS * math.sin(math.radians(start + 60 * k)),
            )
        )
        for k in range(6)
    ]


def hex_center(layout: Layout, x: int, y: int) -> Point:
    """The SVG centre of the hex at doubled coordinates (x, y)."""
    if layout == "flat":
        return _round((1.5 * RADIUS * x, APOTHEM * y))
    return _round((APOTHEM * x, 1.5 * RADIUS * y))


def _fmt(value: float) -> str:
    """A coordinate as SVG path text: two decimals at most."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _edge_curve_center(layout: Layout, a: int, b: int) -> Point | None:
    """The centre of the arc joining edges `a` and `b` (None: they are opposite, a line)."""
    if (a - b) % 6 == 3:
        return None
    # Where the two edges' lines (p . n = apothem) cross.
    (ax, ay), (bx, by) = edge_direction(layout, a), edge_direction(layout, b)
    det = ax * by - ay * bx
    return ((APOTHEM * by - APOTHEM * ay) / det, (ax * APOTHEM - bx * APOTHEM) / det)


def _arc(start: Point, end: Point, center: Point) -> str:
    """An SVG arc command from `start` to `end` around `center` (the short way)."""
    radius = math.dist(start, center)
    cross = (start[0] - center[0]) * (end[1] - center[1]) - (start[1] - center[1]) * (
        end[0] - center[0]
    )
    sweep = 1 if cross > 0 else 0
    r = _fmt(radius)
    return f"A{r} {r} 0 0 {sweep} {_fmt(end[0])} {_fmt(end[1])}"


def _curve_midpoint(layout: Layout, a: int, b: int) -> Point:
    """The midpoint of the track joining edges `a` and `b`."""
    center = _edge_curve_center(layout, a, b)
    if center is None:
        return (0.0, 0.0)
    ma, mb = edge_midpoint(layout, a), edge_midpoint(layout, b)
    mid = ((ma[0] + mb[0]) / 2 - center[0], (ma[1] + mb[1]) / 2 - center[1])
    radius = math.dist(ma, center)
    scale = radius / math.hypot(*mid)
    return _round((center[0] + mid[0] * scale, center[1] + mid[1] * scale))


def _node_edges(tile: TileDef, rotation: int) -> list[list[int]]:
    """For each node: the board edges of the paths that join it directly to an edge."""
    out: list[list[int]] = [[] for _ in tile.nodes]
    for path in tile.rotated_paths(rotation):
        for node in path.nodes:
            out[node].extend(path.edges)
    return [sorted(set(edges)) for edges in out]


def _node_positions(tile: TileDef, rotation: int, layout: Layout) -> list[Point]:
    """Where each node of `tile` sits (module docstring)."""
    out = _node_positions_plain(tile, rotation, layout)
    stops = _stop_nodes(tile)
    if len(stops) > 1 and _overlaps(tile, out, _angles(tile, out)):
        out = _spread(tile, rotation, layout)
    return out


def _node_positions_plain(tile: TileDef, rotation: int, layout: Layout) -> list[Point]:
    """Where each node of `tile` sits at first: on its curve, at the centre, or off the
    centre toward its edges (module docstring)."""
    edges_of = _node_edges(tile, rotation)
    stops = [i for i, n in enumerate(tile.nodes) if n.kind != JUNCTION]
    spare = [i for i in stops if not edges_of[i]]
    out: list[Point] = []
    for i, node in enumerate(tile.nodes):
        edges = edges_of[i]
        if _on_curve(node, edges):
            out.append(_curve_midpoint(layout, edges[0], edges[1]))
        elif len(stops) <= 1 or node.kind == JUNCTION:
            out.append((0.0, 0.0))
        elif not edges:
            # Stops without track yet: spread on a small circle, in order.
            angle = math.radians(EDGE0_ANGLE[layout] + 90 + 360 * spare.index(i) / len(spare))
            share = OFFSET_SHARE * APOTHEM
            out.append(_round((share * math.cos(angle), share * math.sin(angle))))
        else:
            sx = sum(edge_direction(layout, e)[0] for e in edges)
            sy = sum(edge_direction(layout, e)[1] for e in edges)
            length = math.hypot(sx, sy)
            if length < 1e-6:
                out.append((0.0, 0.0))
            else:
                share = OFFSET_SHARE * APOTHEM / length
                out.append(_round((sx * share, sy * share)))
    return out


def _angles(tile: TileDef, positions: list[Point]) -> list[float]:
    """For each node: the angle (degrees) of a two-slot city's long side, across its direction
    from the centre when it sits off the centre of a tile with several stops; else 0."""
    several = sum(1 for n in tile.nodes if n.kind in (CITY, TOWN)) > 1
    out = []
    for node, (x, y) in zip(tile.nodes, positions, strict=True):
        if several and node.kind == CITY and node.slots == 2 and math.hypot(x, y) > 1:
            out.append(round((math.degrees(math.atan2(y, x)) + 90.0) % 180.0, 2))
        else:
            out.append(0.0)
    return out


def _stop_shape(node: NodeDef, at: Point, angle: float) -> tuple[Point, Point, float]:
    """A stop's outline as a segment swept by a radius: a two-slot city is a stadium along
    `angle`, a city of more slots a disc around them all, a one-slot city or a town a disc."""
    if node.kind == TOWN:
        return at, at, TOWN_RADIUS
    if node.slots == 2:
        dx = SLOT_RADIUS * math.cos(math.radians(angle))
        dy = SLOT_RADIUS * math.sin(math.radians(angle))
        return (at[0] - dx, at[1] - dy), (at[0] + dx, at[1] + dy), SLOT_RADIUS
    if node.slots > 2:
        return at, at, SLOT_RADIUS / math.sin(math.pi / node.slots) + SLOT_RADIUS
    return at, at, SLOT_RADIUS


def _point_segment(p: Point, a: Point, b: Point) -> float:
    """The distance from `p` to the segment `a`-`b`."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 < 1e-12 else ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    t = min(1.0, max(0.0, t))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _segments(a: tuple[Point, Point], b: tuple[Point, Point]) -> float:
    """The distance between two segments that do not cross (ours never do: stop outlines)."""
    return min(
        _point_segment(a[0], *b),
        _point_segment(a[1], *b),
        _point_segment(b[0], *a),
        _point_segment(b[1], *a),
    )


def _stop_nodes(tile: TileDef) -> list[int]:
    return [i for i, n in enumerate(tile.nodes) if n.kind in (CITY, TOWN)]


def _overlaps(tile: TileDef, positions: list[Point], angles: list[float]) -> bool:
    """Whether two stops of `tile` drawn at `positions` overlap."""
    return _crowding(tile, positions, angles, None, None) > 0


def _crowding(
    tile: TileDef,
    positions: list[Point],
    angles: list[float],
    edges_of: list[list[int]] | None,
    layout: Layout | None,
) -> float:
    """How much the stops overlap each other (and, given `edges_of`, the straight track that
    leads from an edge to another stop), reaching beyond `STOP_REACH` counted too."""
    stops = _stop_nodes(tile)
    shapes = {i: _stop_shape(tile.nodes[i], positions[i], angles[i]) for i in stops}
    bad = 0.0
    for k, i in enumerate(stops):
        a0, a1, ra = shapes[i]
        for j in stops[k + 1 :]:
            b0, b1, rb = shapes[j]
            bad += max(0.0, ra + rb + STOP_GAP - _segments((a0, a1), (b0, b1)))
    if edges_of is None or layout is None:
        return bad
    for i in stops:
        a0, a1, ra = shapes[i]
        bad += max(0.0, max(math.hypot(*a0), math.hypot(*a1)) + ra - STOP_REACH)
        for line in _track_lines(tile, i, positions[i], edges_of[i], layout):
            for j in stops:
                if j != i:
                    b0, b1, rb = shapes[j]
                    bad += max(0.0, rb + TRACK_GAP - _segments(line, (b0, b1)))
    return bad


def _track_lines(
    tile: TileDef, i: int, at: Point, edges: list[int], layout: Layout
) -> list[tuple[Point, Point]]:
    """The track of stop `i` (at `at`) as segments: a town passed through, its whole curve;
    else the straight track from each of its edges."""
    if _on_curve(tile.nodes[i], edges):
        points = _along(edges, layout, range(21))
        return list(pairwise(points))
    return [(edge_midpoint(layout, e), at) for e in edges]


def _along(edges: list[int], layout: Layout, steps: Iterable[int]) -> list[Point]:
    """Points along the track joining two edges, at `steps` twentieths of the way."""
    a, b = (edge_midpoint(layout, e) for e in edges)
    center = _edge_curve_center(layout, edges[0], edges[1])
    if center is None:
        return [(a[0] + (b[0] - a[0]) * t / 20, a[1] + (b[1] - a[1]) * t / 20) for t in steps]
    radius = math.dist(a, center)
    ta = math.atan2(a[1] - center[1], a[0] - center[0])
    tb = math.atan2(b[1] - center[1], b[0] - center[0])
    turn = (tb - ta + math.pi) % (2 * math.pi) - math.pi
    return [
        (
            center[0] + radius * math.cos(ta + turn * t / 20),
            center[1] + radius * math.sin(ta + turn * t / 20),
        )
        for t in steps
    ]


def _rotate(p: Point, rotation: int) -> Point:
    """`p` turned with a tile laid `rotation` steps on (60 degrees each)."""
    angle = math.radians(60.0 * rotation)
    c, s = math.cos(angle), math.sin(angle)
    return _round((p[0] * c - p[1] * s, p[0] * s + p[1] * c))


def _candidates(
    tile: TileDef, i: int, start: Point, edges: list[int], layout: Layout
) -> list[Point]:
    """Where stop `i` may go: a town passed through, along its track; else near `start`."""
    if _on_curve(tile.nodes[i], edges):
        return _along(edges, layout, range(4, 17))
    step = 1.5
    return [
        (start[0] + step * (u + v / 2), start[1] + step * v * math.sqrt(3) / 2)
        for u in range(-16, 17)
        for v in range(-16, 17)
        if abs(u + v) <= 16
    ]


@cache
def _spread_unrotated(tile: TileDef, layout: Layout) -> tuple[Point, ...]:
    """The stops of `tile` (unrotated) moved apart (module docstring): each in turn to the
    candidate place that crowds least, then is nearest where it was, until nothing moves."""
    edges_of = _node_edges(tile, 0)
    start = _node_positions_plain(tile, 0, layout)
    positions = list(start)
    stops = _stop_nodes(tile)
    options = {i: _candidates(tile, i, start[i], edges_of[i], layout) for i in stops}
    for _ in range(8):
        moved = False
        for i in stops:
            best: tuple[float, float] | None = None
            choice = positions[i]
            for spot in options[i]:
                trial = [*positions]
                trial[i] = spot
                crowd = _crowding(tile, trial, _angles(tile, trial), edges_of, layout)
                score = (round(crowd, 3), math.dist(spot, start[i]))
                if best is None or score < best:
                    best, choice = score, spot
            if math.dist(choice, positions[i]) > 1e-9:
                positions[i] = choice
                moved = True
        if not moved:
            break
    return tuple(_round(p) for p in positions)


def _spread(tile: TileDef, rotation: int, layout: Layout) -> list[Point]:
    """`_spread_unrotated`, turned to `rotation` (so every rotation draws the same tile)."""
    return [_rotate(p, rotation) for p in _spread_unrotated(tile, layout)]


def _on_curve(node: NodeDef, edges: list[int]) -> bool:
    """Whether a node sits on the curve joining its two edges (a town passed through)."""
    return node.kind == TOWN and len(edges) == 2


def _path_d(
    tile: TileDef,
    a: PathEnd,
    b: PathEnd,
    layout: Layout,
    nodes: list[Point],
    edges_of: list[list[int]],
) -> str:
    """The SVG path of one piece of track (from end `a` to end `b`)."""
    if not a.is_edge and b.is_edge:
        a, b = b, a
    start = edge_midpoint(layout, a.num) if a.is_edge else nodes[a.num]
    end = edge_midpoint(layout, b.num) if b.is_edge else nodes[b.num]
    move = f"M{_fmt(start[0])} {_fmt(start[1])} "
    line = f"L{_fmt(end[0])} {_fmt(end[1])}"
    if not a.is_edge:
        return move + line
    if b.is_edge:
        center = _edge_curve_center(layout, a.num, b.num)
        return move + (line if center is None else _arc(start, end, center))
    node_edges = edges_of[b.num]
    if _on_curve(tile.nodes[b.num], node_edges):
        other = next(e for e in node_edges if e != a.num)
        center = _edge_curve_center(layout, a.num, other)
        if center is not None:
            return move + _arc(start, end, center)
    return move + line


def tile_drawing(tile: TileDef, rotation: int, layout: Layout) -> dict[str, Any]:
    """How to draw `tile` laid at `rotation`, relative to the hex's centre: its track (by path
    index), nodes (by node index) and labels."""
    edges_of = _node_edges(tile, rotation)
    nodes = _node_positions(tile, rotation, layout)
    paths = [
        {
            "d": _path_d(tile, path.a, path.b, layout, nodes, edges_of),
            "gauge": path.gauge,
            "ends": [str(path.a), str(path.b)],
        }
        for path in tile.rotated_paths(rotation)
    ]
    drawn_nodes = []
    angles = _angles(tile, nodes)
    for (x, y), node, angle in zip(nodes, tile.nodes, angles, strict=True):
        item: dict[str, Any] = {"kind": node.kind, "x": x, "y": y, "revenue": node.revenue}
        if node.kind == CITY:
            item["slots"] = node.slots
            if angle:
                item["angle"] = angle
        if node.revenue_by_phase:
            item["revenue_by_phase"] = [[name, value] for name, value in node.revenue_by_phase]
        if node.revenue_terminal:
            item["revenue_terminal"] = node.revenue_terminal
        drawn_nodes.append(item)
    return {"paths": paths, "nodes": drawn_nodes, "labels": list(tile.labels)}


#: The terrain kinds a title's board.json lists hex by hex (top-level lists of coordinates).
TERRAIN_LISTS: Final = {"hills": "hill", "mountains": "mountain", "rivers": "river"}


def terrain_kinds(board: BoardDef) -> dict[str, str]:
    """What each costly hex's terrain is (mountain, hill, river, water...), from the board: a
    hex's own printed kind (``HexDef.terrain``; 1854: mountain or water), the lists ``hills``,
    ``mountains``, ``rivers`` (kept in ``board.extra``), or its cost when ``terrain_costs``
    gives one kind that cost (1883: 10 is a river); else a mountain (1849)."""
    kinds: dict[str, str] = {}
    by_cost: dict[int, list[str]] = {}
    costs = board.extra.get("terrain_costs")
    if isinstance(costs, Mapping):
        for kind, cost in costs.items():
            by_cost.setdefault(int(cost), []).append(str(kind))
    for key, kind in TERRAIN_LISTS.items():
        for coord in board.extra.get(key, ()):
            kinds.setdefault(str(coord), kind)
    for coord, h in board.hexes.items():
        if not h.terrain_cost:
            continue
        if h.terrain:
            kinds[coord] = h.terrain
        elif coord not in kinds:
            same = by_cost.get(h.terrain_cost, [])
            kinds[coord] = same[0] if len(same) == 1 else "mountain"
    return {coord: kind for coord, kind in kinds.items() if coord in board.hexes}


def _hex_drawing(board: BoardDef, h: HexDef, terrain: Mapping[str, str]) -> dict[str, Any]:
    """A hex's place and printed content."""
    x, y = hex_center(board.layout, h.x, h.y)
    return {
        "coord": h.coord,
        "x": x,
        "y": y,
        "color": h.color,
        "name": h.name,
        "terrain_cost": h.terrain_cost,
        "terrain": terrain.get(h.coord, "mountain") if h.terrain_cost else "",
        "impassable": sorted(h.impassable),
        "port": h.port,
        "flood": h.coord in board.extra.get("flood_hexes", ()),
        "fixed": h.fixed,
        # 1854 (original board): a medium-sized city's ring, the permission shield's company,
        # a customs sign on the hex's printed track (its stop is the tile's -10 node)
        "medium_city": h.coord in board.extra.get("medium_cities", ()),
        "shield": board.extra.get("shielded", {}).get(h.coord),
        "customs": h.coord in board.extra.get("customs", {}),
        "tile": tile_drawing(h.tile, 0, board.layout),
    }


def _corporation_colors(game: Game) -> dict[str, str]:
    """The game's corporations' colours where the title's ``data/game.json`` gives them."""
    package = type(game.title).__module__.rpartition(".")[0]
    colors: dict[str, str] = {}
    try:
        data = title_data(package)
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return colors
    for corp in data.get("corporations", []):
        if (
            isinstance(corp, Mapping)
            and isinstance(corp.get("color"), str)
            and corp.get("sym") in game.state.corps
        ):
            colors[str(corp["sym"])] = str(corp["color"])
    return colors


def tiles_drawings(
    catalogue: Mapping[str, TileDef], tile_ids: list[str], layout: Layout
) -> dict[str, Any]:
    """Every tile of `tile_ids` at its six rotations."""
    out: dict[str, Any] = {}
    for tile_id in tile_ids:
        tile = catalogue[tile_id]
        out[tile_id] = {
            "color": tile.color,
            "rotations": [tile_drawing(tile, r, layout) for r in range(6)],
        }
    return out


def board_drawing(
    board: BoardDef,
    catalogue: Mapping[str, TileDef],
    tile_ids: Iterable[str],
) -> dict[str, Any]:
    """The drawing data of a board and of the tiles `tile_ids` (at each rotation), with each
    costly hex's terrain kind (terrain_kinds)."""
    layout = board.layout
    kinds = terrain_kinds(board)
    hexes = [_hex_drawing(board, h, kinds) for h in board.hexes.values()]
    xs = [h["x"] for h in hexes]
    ys = [h["y"] for h in hexes]
    margin = RADIUS + 4
    return {
        "layout": layout,
        "radius": RADIUS,
        "corners": hex_corners(layout),
        "edges": [edge_midpoint(layout, e) for e in range(6)],
        "viewbox": [
            round(min(xs) - margin, 2),
            round(min(ys) - margin, 2),
            round(max(xs) - min(xs) + 2 * margin, 2),
            round(max(ys) - min(ys) + 2 * margin, 2),
        ],
        "hexes": hexes,
        "tiles": tiles_drawings(catalogue, sorted(set(tile_ids), key=_tile_order), layout),
        "long_paths": {
            lp.name: {
                "from": hex_center(layout, board.hexes[lp.a[0]].x, board.hexes[lp.a[0]].y),
                "to": hex_center(layout, board.hexes[lp.b[0]].x, board.hexes[lp.b[0]].y),
                "gauge": lp.gauge,
            }
            for lp in board.long_paths
        },
    }


def board_payload(game: Game) -> dict[str, Any]:
    """The static drawing data of `game`'s board, tiles (the supply's and any laid), market,
    phases and corporations."""
    state = game.state
    tile_ids = set(state.map.supply) | {t for t, _r in state.map.tiles.values()}
    board = state.map.board
    return {
        "title": game.title.name,
        **board_drawing(board, state.map.catalogue, tile_ids),
        "phases": [
            {
                "name": phase.name,
                "on": phase.on,
                "train_limit": phase.train_limit,
                "tiles": list(phase.tiles),
                "operating_rounds": phase.operating_rounds,
            }
            for phase in game.title.phases
        ],
        "market": state.market.market.to_dict(),
        "corporation_colors": _corporation_colors(game),
    }


def _tile_order(tile_id: str) -> tuple[int, str]:
    """Numbered tiles by number, then the others by name."""
    return (int(tile_id), tile_id) if tile_id.isdigit() else (1 << 30, tile_id)
