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
stops of a tile with several sit off the centre toward their edges.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
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
    for (x, y), node in zip(nodes, tile.nodes, strict=True):
        item: dict[str, Any] = {"kind": node.kind, "x": x, "y": y, "revenue": node.revenue}
        if node.kind == CITY:
            item["slots"] = node.slots
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
