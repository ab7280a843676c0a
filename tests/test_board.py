"""Hex geometry (flat and pointy) and the 1849 board data."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared_files import REFERENCE_1849, needs_shared
from tresham.core.board import BoardDef, coord_to_xy, neighbor_xy, xy_to_coord
from tresham.core.tiles import CITY, OFFBOARD, TOWN
from tresham.titles.t1849.track_rules import load_board


@pytest.fixture(scope="module")
def board() -> BoardDef:
    return load_board()


def test_flat_coordinates() -> None:
    # design.md: flat layout, x = column - 1, y = row letter index ("a" = -1).
    assert coord_to_xy("C5", "flat") == (4, 2)
    assert coord_to_xy("a12", "flat") == (11, -1)
    assert coord_to_xy("A5", "flat") == (4, 0)
    for c in ("C5", "a12", "O11", "B16"):
        assert xy_to_coord(*coord_to_xy(c, "flat"), "flat") == c
    with pytest.raises(ValueError):
        coord_to_xy("5C", "flat")


def test_pointy_coordinates_and_neighbors() -> None:
    # design.md: pointy layout (1854), x = number, y = letter index; C21 and C23 are adjacent.
    assert coord_to_xy("D0", "pointy") == (0, 3)
    x, y = coord_to_xy("C21", "pointy")
    around = [xy_to_coord(*neighbor_xy(x, y, e, "pointy"), "pointy") for e in range(6)]
    # 0=SW 1=W 2=NW 3=NE 4=E 5=SE
    assert around == ["D20", "C19", "B20", "B22", "C23", "D22"]


def test_pointy_board_neighbors() -> None:
    hexes: dict[str, dict[str, Any]] = {c: {"color": "white"} for c in ("C21", "C23", "D22", "B22")}
    hexes["C23"]["impassable"] = [1]
    b = BoardDef.from_dict({"layout": "pointy", "hexes": hexes})
    assert b.neighbors("C21") == {3: "B22", 5: "D22"}  # the C23 border is impassable
    assert b.adjacent("C21", 4) == "C23"
    assert b.neighbor("C23", 1) is None
    assert b.edge_between("C21", "D22") == 5


def test_flat_neighbors_on_1849(board: BoardDef) -> None:
    # C5 Palermo: S=E5, SW=D4, NW=B4, N=A5 (port); NE would be B6 (off the map); SE=D6.
    assert board.neighbors("C5") == {0: "E5", 1: "D4", 2: "B4", 3: "A5", 5: "D6"}
    assert board.neighbor("C5", 4) is None
    assert board.neighbor("J6", 5) == "K7"
    assert board.neighbor("K7", 2) == "J6"


def test_impassable_borders_both_ways(board: BoardDef) -> None:
    # C1 has an impassable border on edge 4 (towards B2); B2 lists it on edge 1.
    assert board.adjacent("C1", 4) == "B2"
    assert board.neighbor("C1", 4) is None
    assert board.neighbor("B2", 1) is None
    # E9 lists edges 2 and 4; the hexes across them see the border too.
    assert board.neighbor(board.adjacent("E9", 2) or "", 5) is None
    assert board.neighbor(board.adjacent("E9", 4) or "", 1) is None


def test_board_counts(board: BoardDef) -> None:
    colors: dict[str, int] = {}
    for h in board.hexes.values():
        colors[h.color] = colors.get(h.color, 0) + 1
    assert colors == {"white": 50, "yellow": 7, "gray": 12, "blue": 4}
    playable = [h for h in board.hexes.values() if h.color in ("white", "yellow")]
    assert len(playable) == 57
    assert sum(1 for h in playable if h.terrain_cost) == 32  # "only 25 do not have terrain"
    assert {h.terrain_cost for h in playable} == {0, 40, 80, 160}


def test_preprinted_content(board: BoardDef) -> None:
    c5 = board.hex("C5")
    assert c5.tile.id == "C5" and c5.tile.color == "yellow" and c5.name == "Palermo"
    assert c5.tile.labels == ("P",)
    assert c5.tile.nodes[0].kind == CITY and c5.tile.nodes[0].revenue == 50
    assert c5.tile.exits() == {2, 3, 5}
    assert board.hex("K7").tile.nodes[0].kind == TOWN
    assert board.hex("H6").tile.nodes == () and board.hex("H6").terrain_cost == 40
    assert board.hex("K9").tile.edge_gauges() == {0: {"narrow"}, 3: {"narrow"}}
    assert board.hex("M9").tile.nodes[0].slots == 2
    assert board.hex("E1").fixed and not board.hex("C5").fixed


def test_revenue_by_phase(board: BoardDef) -> None:
    # 1849 summary, OR Run trains: "Gray cities pay their first value in Phases 4-6, the
    # second in 8-10, the third after."
    for coord in ("C1", "E1", "M9"):
        node = board.hex(coord).tile.nodes[0]
        assert [node.revenue_in(p) for p in ("4H", "6H", "8H", "10H", "12H", "16H")] == [
            20, 20, 30, 30, 40, 40,
        ]  # fmt: skip
    calabria = board.hex("C15").tile.nodes[0]
    assert calabria.kind == OFFBOARD
    assert [calabria.revenue_in(p) for p in ("4H", "8H", "12H")] == [10, 30, 90]


def test_ports(board: BoardDef) -> None:
    ports = {c: h.tile.nodes[0].revenue for c, h in board.hexes.items() if h.port}
    assert ports == {"a12": 20, "A5": 10, "N8": 20, "L14": 60}
    assert board.extra["ports"] == ["a12", "A5", "L14", "N8"]


def test_title_facts(board: BoardDef) -> None:
    assert board.homes == {
        "ATA": ("M13", 0),
        "CTL": ("E1", 0),
        "IFT": ("H12", 0),
        "RCS": ("C5", 0),
        "SFA": ("J6", 0),
    }
    assert board.home_choices == {"AFG": ("C1", "H8", "M9", "M11", "B14")}
    assert board.extra["coastal_cities"] == ["B14", "C1", "C5", "E1", "H12", "J6", "M9", "M13"]
    assert board.extra["private_blocks"] == {"G13": "SCE"}


@needs_shared(REFERENCE_1849)
def test_neighbors_match_reference(board: BoardDef) -> None:
    ref = json.loads(REFERENCE_1849.read_text("utf-8"))["hexes"]
    for coord, h in ref.items():
        adjacent = {e: board.adjacent(coord, e) for e in range(6)}
        assert {e: nb for e, nb in adjacent.items() if nb} == {
            int(e): nb for e, nb in h["neighbors"].items()
        }, coord
        # Every connectable neighbour of the reference is reachable across the border.
        for e, nb in h["connectable_neighbors"].items():
            assert board.neighbor(coord, int(e)) == nb, (coord, e)
