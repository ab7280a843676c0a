"""The board drawing data (server/board_view.py): hex geometry in both orientations, every
tile of the catalogue and of every title's manifest drawn at every rotation with its track
joining exactly the edges the tile data says, and the board payload of every title."""

from __future__ import annotations

import json
import math
import re
from importlib import resources
from typing import Any

import pytest

from tresham.core.board import BoardDef, Layout
from tresham.core.tiles import PathEnd, TileDef, load_catalogue, opposite
from tresham.io.save import new_game
from tresham.server.board_view import (
    APOTHEM,
    RADIUS,
    board_drawing,
    board_payload,
    edge_midpoint,
    hex_center,
    hex_corners,
    tile_drawing,
)
from tresham.titles.registry import titles

LAYOUTS: tuple[Layout, ...] = ("flat", "pointy")
CATALOGUE = load_catalogue()
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def close(a: tuple[float, float], b: tuple[float, float], tol: float = 0.02) -> bool:
    return math.dist(a, b) <= tol


def ends_of(d: str) -> tuple[tuple[float, float], tuple[float, float]]:
    numbers = [float(n) for n in NUMBER.findall(d)]
    return (numbers[0], numbers[1]), (numbers[-2], numbers[-1])


def arc_radius(d: str) -> float | None:
    found = re.search(r"A(-?[\d.]+) ", d)
    return float(found.group(1)) if found else None


def manifest_tiles() -> dict[str, list[str]]:
    """The tile ids of every title that ships a manifest."""
    out: dict[str, list[str]] = {}
    for folder in resources.files("tresham.titles").iterdir():
        manifest = folder.joinpath("data/manifest.json")
        if manifest.is_file():
            out[folder.name] = list(json.loads(manifest.read_text("utf-8"))["tiles"])
    return out


def check_drawing(tile: TileDef, rotation: int, layout: Layout) -> None:
    drawing = tile_drawing(tile, rotation, layout)
    nodes = [(n["x"], n["y"]) for n in drawing["nodes"]]
    assert len(drawing["paths"]) == len(tile.paths)
    assert [n["kind"] for n in drawing["nodes"]] == [n.kind for n in tile.nodes]
    drawn_edges: set[int] = set()
    for path, drawn in zip(tile.rotated_paths(rotation), drawing["paths"], strict=True):
        assert drawn["gauge"] == path.gauge
        assert drawn["ends"] == [str(path.a), str(path.b)]
        wanted = [
            edge_midpoint(layout, e.num) if e.is_edge else nodes[e.num] for e in (path.a, path.b)
        ]
        start, end = ends_of(drawn["d"])
        assert (close(start, wanted[0]) and close(end, wanted[1])) or (
            close(start, wanted[1]) and close(end, wanted[0])
        ), (tile.id, rotation, drawn)
        drawn_edges.update(
            e for e in range(6) for p in (start, end) if close(p, edge_midpoint(layout, e))
        )
        if path.a.is_edge and path.b.is_edge:
            turn = (path.a.num - path.b.num) % 6
            expected = {1: RADIUS / 2, 5: RADIUS / 2, 2: 1.5 * RADIUS, 4: 1.5 * RADIUS}.get(turn)
            radius = arc_radius(drawn["d"])
            assert radius == pytest.approx(expected, abs=0.02) if expected else radius is None
    assert drawn_edges == set(tile.exits(rotation))
    for x, y in nodes:
        assert math.hypot(x, y) < APOTHEM


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_catalogue_tile_draws_its_track_to_its_edges_at_every_rotation(
    layout: Layout,
) -> None:
    for tile in CATALOGUE.values():
        for rotation in range(6):
            check_drawing(tile, rotation, layout)


def test_every_title_manifest_tile_exists_and_draws() -> None:
    manifests = manifest_tiles()
    boards = title_boards()
    assert "t1849" in manifests
    for name, tiles in manifests.items():
        layout = boards[name].layout if name in boards else "flat"
        for tile_id in tiles:
            for rotation in range(6):
                check_drawing(CATALOGUE[tile_id], rotation, layout)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_neighbouring_hexes_share_their_edge_midpoints(layout: Layout) -> None:
    coords = [f"{row}{col}" for row in "ABCDEF" for col in range(1, 9)]
    hexes = {}
    for coord in coords:
        board_hex = {"color": "white"}
        hexes[coord] = board_hex
    board = BoardDef.from_dict({"layout": layout, "hexes": _valid(hexes, layout)})
    pairs = 0
    for coord, h in board.hexes.items():
        cx, cy = hex_center(layout, h.x, h.y)
        for edge in range(6):
            other = board.adjacent(coord, edge)
            if other is None:
                continue
            o = board.hexes[other]
            ox, oy = hex_center(layout, o.x, o.y)
            mine = edge_midpoint(layout, edge)
            theirs = edge_midpoint(layout, opposite(edge))
            assert close((cx + mine[0], cy + mine[1]), (ox + theirs[0], oy + theirs[1]), 0.05)
            pairs += 1
    assert pairs > 40


def _valid(hexes: dict[str, dict[str, str]], layout: Layout) -> dict[str, dict[str, str]]:
    """Keep the coordinates that exist on a doubled-coordinate grid of this layout."""
    from tresham.core.board import coord_to_xy

    return {c: h for c, h in hexes.items() if sum(coord_to_xy(c, layout)) % 2 == 0}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_edges_lie_between_the_corners(layout: Layout) -> None:
    corners = hex_corners(layout)
    for edge in range(6):
        a, b = corners[(edge + 5) % 6], corners[edge]
        middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        assert close(middle, edge_midpoint(layout, edge), 0.05)


def test_edge_zero_points_where_the_engine_says() -> None:
    # flat: edge 0 is south (down the screen); pointy: edge 4 is east.
    assert close(edge_midpoint("flat", 0), (0, APOTHEM))
    assert close(edge_midpoint("flat", 3), (0, -APOTHEM))
    assert close(edge_midpoint("pointy", 4), (APOTHEM, 0))
    assert close(edge_midpoint("pointy", 1), (-APOTHEM, 0))


def test_a_town_on_a_curve_sits_on_it_and_many_cities_sit_apart() -> None:
    # Tile 1: two towns, each on a gentle curve.
    drawing = tile_drawing(CATALOGUE["1"], 0, "flat")
    for node in drawing["nodes"]:
        assert 5 < math.hypot(node["x"], node["y"]) < APOTHEM
    # Tile 433: five one-slot cities; none overlaps another.
    cities = tile_drawing(CATALOGUE["433"], 0, "flat")["nodes"]
    for i, a in enumerate(cities):
        for b in cities[i + 1 :]:
            assert math.dist((a["x"], a["y"]), (b["x"], b["y"])) > 20


@pytest.mark.parametrize("title", titles())
def test_the_board_payload_of_every_title(title: str) -> None:
    game = new_game(title, ["Ann", "Bob", "Cid"], 3, {})
    payload = board_payload(game)
    board = game.state.map.board
    assert payload["layout"] == board.layout
    assert {h["coord"] for h in payload["hexes"]} == set(board.hexes)
    assert set(payload["tiles"]) == set(game.state.map.supply)
    for tile_id, tile in payload["tiles"].items():
        assert len(tile["rotations"]) == 6
        assert tile["color"] == game.state.map.catalogue[tile_id].color
    x0, y0, width, height = payload["viewbox"]
    for h in payload["hexes"]:
        assert x0 + RADIUS <= h["x"] <= x0 + width - RADIUS
        assert y0 + RADIUS <= h["y"] <= y0 + height - RADIUS
    assert payload["market"]["rows"]
    assert set(payload["corporation_colors"]) <= set(game.state.corps)
    json.dumps(payload)
    # Flood ("F") hexes are marked (1883 §2.3: a water drop)
    flood = set(board.extra.get("flood_hexes", ()))
    assert {h["coord"] for h in payload["hexes"] if h["flood"]} == flood
    # A long path (1883's FS red track) is drawn from its first hex's centre to its last's.
    centres = {h["coord"]: [h["x"], h["y"]] for h in payload["hexes"]}
    assert set(payload["long_paths"]) == {lp.name for lp in board.long_paths}
    for lp in board.long_paths:
        drawn = payload["long_paths"][lp.name]
        assert [list(drawn["from"]), list(drawn["to"])] == [centres[lp.a[0]], centres[lp.b[0]]]
    # A printed hex keeps its printed track: e.g. every hex with paths has them drawn.
    for h in payload["hexes"]:
        printed = board.hexes[h["coord"]].tile
        assert len(h["tile"]["paths"]) == len(printed.paths)
        assert {PathEnd.parse(e) for p in h["tile"]["paths"] for e in p["ends"]} == {
            end for p in printed.paths for end in (p.a, p.b)
        }


def title_boards() -> dict[str, BoardDef]:
    """Every title's board that ships as data (registered or not yet)."""
    out = {}
    for folder in resources.files("tresham.titles").iterdir():
        if folder.joinpath("data/board.json").is_file():
            out[folder.name] = BoardDef.from_package(f"tresham.titles.{folder.name}")
    return out


def test_every_title_board_draws_its_printed_hexes() -> None:
    boards = title_boards()
    assert "t1849" in boards
    for board in boards.values():
        drawing = board_drawing(board, CATALOGUE, [])
        assert len(drawing["hexes"]) == len(board.hexes)
        for h in board.hexes.values():
            check_drawing(h.tile, 0, board.layout)


def _outline(node: dict[str, Any]) -> tuple[tuple[float, float], tuple[float, float], float]:
    """A drawn stop's outline: a segment swept by a radius (a two-slot city is a stadium)."""
    x, y = float(node["x"]), float(node["y"])
    if node["kind"] == "town":
        return (x, y), (x, y), 6.0
    if node["slots"] == 2:
        a = math.radians(float(node.get("angle", 0.0)))
        dx, dy = 10.5 * math.cos(a), 10.5 * math.sin(a)
        return (x - dx, y - dy), (x + dx, y + dy), 10.5
    return (x, y), (x, y), 10.5


def _gap(a: dict[str, Any], b: dict[str, Any]) -> float:
    (a0, a1, ra), (b0, b1, rb) = _outline(a), _outline(b)
    samples = [
        (p[0] + (q[0] - p[0]) * t / 10, p[1] + (q[1] - p[1]) * t / 10)
        for p, q in ((a0, a1), (b0, b1))
        for t in range(11)
    ]
    pa, pb = samples[:11], samples[11:]
    return min(math.dist(p, q) for p in pa for q in pb) - ra - rb


def test_the_1854_original_tiles_draw_at_every_rotation() -> None:
    # 1854's own tiles (rulings D9, C2, C4, C5): 441-444, 448-450, 452-455, 457-464 and the
    # tunnels 467-469, and every other tile of the original set, on the pointy 1854 board:
    # track to the tile's edges at every rotation, and no two stops overlapping (461 and 462
    # join both cities to one side; 55 crosses two towns' straights; Wien's 451)
    from tresham.titles.t1854.rules import Title1854

    title = Title1854()
    own = [str(n) for n in (*range(441, 445), *range(448, 451), *range(452, 456))]
    own += [str(n) for n in range(457, 465)] + ["467", "468", "469"]
    assert set(own) <= set(title.manifest)
    for tile_id in title.manifest:
        tile = title.catalogue[tile_id]
        first = tile_drawing(tile, 0, "pointy")["nodes"]
        for rotation in range(6):
            check_drawing(tile, rotation, "pointy")
            nodes = [
                n
                for n in tile_drawing(tile, rotation, "pointy")["nodes"]
                if n["kind"] != "junction"
            ]
            for i, a in enumerate(nodes):
                for b in nodes[i + 1 :]:
                    assert _gap(a, b) > 1.0, (tile_id, rotation, a, b)
            # the same drawing turned: each stop as far from the centre at every rotation
            for a, b in zip(first, tile_drawing(tile, rotation, "pointy")["nodes"], strict=True):
                assert math.hypot(a["x"], a["y"]) == pytest.approx(
                    math.hypot(b["x"], b["y"]), abs=0.05
                ), (tile_id, rotation)


def test_two_cities_on_one_side_sit_apart_clear_of_each_others_track() -> None:
    # 1854 §5.4, ruling C4: 461 joins both its cities to edges 0 and 1; each city stays
    # clear of the straight track that leads to the other
    from tresham.titles.t1854.rules import Title1854

    tile = Title1854().catalogue["461"]
    for rotation in range(6):
        drawing = tile_drawing(tile, rotation, "pointy")
        cities = drawing["nodes"]
        assert _gap(cities[0], cities[1]) > 1.0
        for path in drawing["paths"]:
            ends = [e for e in path["ends"] if e.startswith("n")]
            (mine,) = (int(e[1:]) for e in ends)
            other = cities[1 - mine]
            start, end = ends_of(path["d"])
            # the straight piece from the edge to its city keeps off the other city
            steps = [
                (start[0] + (end[0] - start[0]) * t / 20, start[1] + (end[1] - start[1]) * t / 20)
                for t in range(21)
            ]
            assert min(math.dist(p, (other["x"], other["y"])) for p in steps) > 10.5 + 2


def test_the_1854_board_payload_marks_medium_cities_shields_and_customs() -> None:
    # 1854 §5.3 (medium-sized cities, the shields beside Wien), §5.6 (the customs signs)
    payload = board_payload(new_game("1854", ["Ann", "Bob", "Cid"], 3, {}))
    hexes = {h["coord"]: h for h in payload["hexes"]}
    medium = {c for c, h in hexes.items() if h["medium_city"]}
    assert medium == {"B22", "D16", "D18", "D20", "D24", "F10", "G3", "G15", "H16"}
    assert {c: h["shield"] for c, h in hexes.items() if h["shield"]} == {
        "B22": "FJ",
        "C21": "KE",
        "D22": "SD",
    }
    assert {c for c, h in hexes.items() if h["customs"]} == {"D12", "E7"}
    for coord in ("D12", "E7"):  # the customs stop: a -10 town on the printed track
        assert [n["revenue"] for n in hexes[coord]["tile"]["nodes"] if n["kind"] == "town"] == [-10]
