#!/usr/bin/env python3
"""Build 1883's data files from the reconstruction decisions written below.

Run from the repository root:  python tools/build_1883_data.py

1883's printed board, stock market, par chart and several tables are not available; everything
here is a reconstruction. Every value is justified in docs/rulings/1883.md (ids B*, M*, G*, T*).
The script writes:

- ``src/tresham/titles/t1883/data/board.json``  (schema tresham.board/1, docs/data-format.md)
- ``src/tresham/titles/t1883/data/market.json`` (the grid market read by core.market.Market)
- ``src/tresham/titles/t1883/data/game.json``   (trains, phases, companies, concessions, tiles)
- the 1883 special tiles, *added* to ``src/tresham/core/data/tiles.json`` (existing entries are
  kept byte for byte; the script refuses to change one).

Grid: flat-top hexes in vertical columns. Column ``A`` (west) .. ``K`` (east) is the printed
coordinate's number 1..11; the doubled row of the research grid (2..25) becomes the letter
(row 2 = ``a``, row 3 = ``A``, ... row 25 = ``W``). Hex numbers run down each column, west to
east; a multi-number hex takes a run of consecutive numbers (docs/rulings/1883.md B1-B4).
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from json_layout import dump

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src/tresham/titles/t1883/data"
TILES = ROOT / "src/tresham/core/data/tiles.json"

PHASES = ["2", "3", "3bis", "4", "5", "6", "7", "8"]
LOW, MIDDLE, HIGH = ("2", "3"), ("3bis", "4", "5"), ("6", "7", "8")

# Terrain costs (ruling B8): hill 20, mountain 40, river ("F") 10.
COST = {"plain": 0, "hill": 20, "mountain": 40}
RIVER_COST = 10

# Flat-top neighbours in the research grid (column index, doubled row), by edge
# 0=S 1=SW 2=NW 3=N 4=NE 5=SE.
GRID_OFFSETS = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))


def coord(grid: str) -> str:
    """Research-grid id ``C11`` (column letter, doubled row) -> tresham coordinate ``I3``."""
    col = ord(grid[0]) - ord("A") + 1
    row = int(grid[1:])
    letter = "a" if row == 2 else chr(ord("A") + row - 3)
    return f"{letter}{col}"


def grid_neighbour(grid: str, edge: int) -> str:
    col = ord(grid[0]) - ord("A")
    row = int(grid[1:])
    dc, dr = GRID_OFFSETS[edge]
    return f"{chr(ord('A') + col + dc)}{row + dr}"


def grid_edge(a: str, b: str) -> int:
    for e in range(6):
        if grid_neighbour(a, e) == b:
            return e
    raise ValueError(f"{a} and {b} are not adjacent")


def city(revenue: int = 20, slots: int = 1, **extra: Any) -> dict[str, Any]:
    return {"kind": "city", "revenue": revenue, "slots": slots, **extra}


def town(revenue: int = 10) -> dict[str, Any]:
    return {"kind": "town", "revenue": revenue}


def spokes(node: int, edges: list[int]) -> list[list[str]]:
    return [[f"e{e}", f"n{node}", "standard"] for e in edges]


def phase_values(low: int, middle: int, high: int) -> dict[str, int]:
    out = {p: low for p in LOW}
    out.update({p: middle for p in MIDDLE})
    out.update({p: high for p in HIGH})
    return out


# ---------------------------------------------------------------------------------------------
# The map hexes (ruling ids in docs/rulings/1883.md). One row per printed hex:
# grid id, hex numbers, terrain, F (flood/river), name, content.
# content: None (plain), "town", "city", ("yellow", label, nodes, paths),
#          ("gray", paths), ("fs",) for a hex on the red track that takes FS tiles only,
#          ("track", nodes, paths) for a white city with printed track (Vignola).
# ---------------------------------------------------------------------------------------------
HEXES: list[tuple[str, list[int], str, bool, str, Any]] = [
    # column A (1-4)
    ("A11", [1], "plain", True, "", None),
    ("A13", [2], "hill", False, "", None),
    ("A15", [3], "hill", False, "Ciano d'Enza", ("yellow", "EN", [city(20)], spokes(0, [4]))),
    ("A17", [4], "mountain", False, "", None),
    # column B (5-12)
    ("B6", [5], "plain", True, "", None),
    ("B8", [6], "plain", True, "", None),
    ("B10", [7], "plain", False, "", ("fs",)),
    ("B12", [8], "plain", False, "", None),
    ("B14", [9], "hill", False, "", None),
    ("B16", [10], "mountain", False, "", None),
    ("B18", [11], "mountain", False, "Castelnovo ne' Monti", "city"),
    ("B20", [12], "mountain", False, "", None),
    # column C (13-24)
    ("C5", [13], "plain", True, "Guastalla", "city"),
    ("C7", [14], "plain", True, "", None),
    ("C9", [15], "plain", False, "Bagnolo", "town"),
    (
        "C11",
        [16, 17, 18, 19],
        "plain",
        False,
        "Reggio Emilia",
        ("yellow", "RE", [city(20), city(20)], spokes(0, [1, 2]) + spokes(1, [0, 5])),
    ),
    ("C13", [20], "hill", False, "", None),
    ("C15", [21], "hill", False, "", None),
    ("C17", [22], "mountain", False, "Carpineti", "town"),
    ("C19", [23], "mountain", False, "", None),
    ("C21", [24], "mountain", False, "", None),
    # column D (25-37)
    (
        "D4",
        [25, 26, 27],
        "plain",
        False,
        "Suzzara",
        ("yellow", "SZ", [city(20)], spokes(0, [0, 5])),
    ),
    ("D6", [28], "plain", False, "", ("fs",)),
    ("D8", [29], "plain", False, "Novellara", "town"),
    ("D10", [30], "plain", False, "Correggio", "town"),
    ("D12", [31], "plain", False, "", ("fs",)),
    (
        "D14",
        [32, 33],
        "hill",
        False,
        "Sassuolo",
        ("yellow", "SA", [city(20), city(20)], spokes(0, [2]) + spokes(1, [5])),
    ),
    ("D16", [34], "hill", False, "", None),
    ("D18", [35], "mountain", False, "", None),
    ("D20", [36], "mountain", False, "", None),
    ("D22", [37], "mountain", False, "", None),
    # column E (38-47)
    ("E5", [38], "plain", True, "San Benedetto Po", "city"),
    ("E7", [39], "plain", False, "", ("fs",)),
    ("E9", [40], "plain", False, "", ("gray", [["e0", "e3", "standard"]])),
    ("E11", [41], "plain", False, "Carpi", ("yellow", "CC", [city(20)], spokes(0, [0, 3]))),
    (
        "E13",
        [42],
        "plain",
        False,
        "",
        ("gray", [["e2", "e5", "standard"], ["e3", "e5", "standard"]]),
    ),
    ("E15", [43], "hill", False, "Maranello", "town"),
    ("E17", [44], "mountain", False, "", None),
    ("E19", [45], "mountain", False, "", None),
    ("E21", [46], "mountain", False, "Pavullo", "town"),
    ("E23", [47], "mountain", False, "", None),
    # column F (48-59)
    ("F6", [48], "plain", True, "", None),
    ("F8", [49], "plain", True, "", None),
    ("F10", [50], "plain", False, "Mirandola", "city"),
    ("F12", [51], "plain", False, "", None),
    (
        "F14",
        [52, 53, 54, 55],
        "plain",
        False,
        "Modena",
        ("yellow", "MO", [city(30, 2)], spokes(0, [2, 5])),
    ),
    ("F16", [56], "plain", False, "", None),
    ("F18", [57], "hill", False, "", None),
    ("F20", [58], "hill", False, "", None),
    ("F22", [59], "mountain", False, "", None),
    # column G (60-69)
    (
        "G7",
        [60, 61],
        "plain",
        False,
        "Poggio Rusco",
        ("yellow", "PR", [city(20)], spokes(0, [0, 2])),
    ),
    ("G9", [62], "plain", False, "", ("gray", [["e0", "e3", "standard"]])),
    ("G11", [63], "plain", False, "", ("fs",)),
    ("G13", [64], "plain", False, "San Felice", "city"),
    ("G15", [65], "plain", False, "", ("fs",)),
    ("G17", [66], "plain", False, "Spilamberto", "town"),
    ("G19", [67], "hill", False, "", None),
    ("G21", [68], "hill", False, "Vignola", ("track", [city(20)], spokes(0, [3]))),
    ("G23", [69], "mountain", False, "", None),
    # column H (70-80)
    ("H6", [70], "plain", True, "Sermide", "town"),
    ("H8", [71], "plain", True, "Finale", "city"),
    ("H10", [72], "plain", False, "", None),
    (
        "H12",
        [73, 74],
        "plain",
        False,
        "Crevalcore",
        ("yellow", "CC", [city(20)], spokes(0, [1, 5])),
    ),
    ("H14", [75], "plain", False, "Sant'Agata", "town"),
    (
        "H16",
        [76, 77],
        "plain",
        False,
        "Castelfranco",
        ("yellow", "PC", [city(20)], spokes(0, [2, 5])),
    ),
    ("H18", [78], "plain", False, "", None),
    ("H20", [79], "hill", False, "Bazzano", "town"),
    ("H22", [80], "mountain", False, "", None),
    # column I (81-91)
    ("I7", [81], "plain", True, "", None),
    ("I9", [82], "plain", False, "", None),
    ("I11", [83], "plain", False, "Decima", "town"),
    ("I13", [84, 85], "plain", False, "Persiceto", ("yellow", "PC", [city(20)], spokes(0, [2, 3]))),
    ("I15", [86], "plain", False, "", None),
    ("I17", [87], "plain", False, "", ("fs",)),
    ("I19", [88], "hill", False, "Zola", "town"),
    ("I21", [89], "hill", False, "Sasso", "city"),
    ("I23", [90], "mountain", False, "", None),
    ("I25", [91], "mountain", False, "", None),
    # column J (92-101)
    ("J4", [92], "plain", True, "", None),
    ("J6", [93], "plain", True, "Bondeno", "city"),
    ("J8", [94], "plain", False, "", None),
    ("J10", [95, 96, 97], "plain", False, "Cento", "city"),
    ("J12", [98], "plain", False, "", None),
    ("J14", [99], "plain", False, "", None),
    ("J16", [100], "plain", False, "", None),
    ("J20", [101], "hill", False, "Casalecchio", "city"),
]

# Off-board locations (ruling B10): grid id, name, low/middle/high, symbol, edges with track.
OFFBOARDS: list[tuple[str, str, tuple[int, int, int], str | None, list[int]]] = [
    ("A9", "Parma", (20, 30, 40), None, [0, 4, 5]),
    ("A19", "Aulla/La Spezia", (10, 30, 50), "mountain", [3, 4, 5]),
    ("D2", "Mantova/Brennero", (20, 40, 60), None, [0]),
    ("G5", "Verona/Brennero", (30, 40, 60), None, [0, 1, 5]),
    ("J18", "Bologna/Firenze", (30, 50, 70), "hill", [0, 1, 2, 3]),
    ("K7", "Ferrara", (20, 40, 50), None, [1, 2]),
]

PORTS = ["C5", "E5", "J6"]  # Guastalla, San Benedetto Po, Bondeno (ruling B11)

# The FS red track (ruling B6): each line as a chain of research-grid ids.
FS_LINES = {
    "Parma-Bologna (Via Emilia)": [
        "A9", "B10", "C11", "D12", "E13", "F14", "G15", "H16", "I17", "J18",
    ],
    "Modena-Mantova": ["F14", "E13", "E11", "E9", "E7", "D6", "D4", "D2"],
    "Bologna-Verona": ["I13", "H12", "G13", "G11", "G9", "G7", "G5"],
}  # fmt: skip

# T cities (6.7 table): grid id, the number the T table gives, name, boxes.
T_CITIES = [
    ("F14", 52, "Modena", ["Bologna/Firenze", "Mantova/Brennero"]),
    ("C11", 16, "Reggio Emilia", ["Bologna/Firenze"]),
    ("H16", 76, "Castelfranco", ["Bologna/Firenze"]),
    ("D4", 26, "Suzzara", ["Mantova/Brennero"]),
    ("G7", 62, "Poggio Rusco", ["Verona/Brennero"]),
    ("G13", 64, "San Felice", ["Verona/Brennero"]),
    ("I13", 84, "Persiceto", ["Verona/Brennero"]),
]


# ---------------------------------------------------------------------------------------------
# Special tiles (ruling T3-T5). Edges are tile edges at rotation 0; every special city tile is
# drawn so that rotation 0 fits its city's printed track.
# ---------------------------------------------------------------------------------------------
def ctile(color: str, label: str, node: dict[str, Any], edges: list[int]) -> dict[str, Any]:
    return {"color": color, "nodes": [node], "paths": spokes(0, edges), "labels": [label]}


ALL = [0, 1, 2, 3, 4, 5]
SPECIAL_TILES: dict[str, dict[str, Any]] = {
    "RE-green": ctile("green", "RE", city(40, 2), [0, 1, 2, 3, 5]),
    "RE-brown": ctile("brown", "RE", city(50, 3), ALL),
    "RE-gray": ctile("gray", "RE", city(60, 3), ALL),
    "MO-green": ctile("green", "MO", city(40, 2), [0, 2, 3, 5]),
    "MO-brown": ctile("brown", "MO", city(50, 3), ALL),
    "MO-gray": ctile("gray", "MO", city(70, 3), ALL),
    "SA-green": ctile("green", "SA", city(30, 2), [0, 2, 3, 5]),
    "SA-brown": ctile("brown", "SA", city(30, 2, revenue_terminal=50), [0, 1, 2, 3, 5]),
    "SA-gray": ctile("gray", "SA", city(40, 3, revenue_terminal=70), [0, 1, 2, 3, 5]),
    "SZ-green": ctile("green", "SZ", city(30, 2), [0, 1, 3, 5]),
    "SZ-brown": ctile("brown", "SZ", city(40, 2), [0, 1, 3, 5]),
    "PR-green": ctile("green", "PR", city(30, 2), [0, 2, 3, 4]),
    "PR-brown": ctile("brown", "PR", city(40, 2), ALL),
    "EN-green": ctile("green", "EN", city(30, 2), [0, 4, 5]),
    "EN-brown": ctile("brown", "EN", city(40, 2), [0, 3, 4, 5]),
    "CC-green-1": ctile("green", "CC", city(30, 2), [0, 2, 3, 4]),
    "CC-green-2": ctile("green", "CC", city(30, 2), [0, 1, 3, 5]),
    "CC-brown": ctile("brown", "CC", city(40, 2), ALL),
    "PC-green-1": ctile("green", "PC", city(30, 2), [0, 2, 3, 5]),
    "PC-green-2": ctile("green", "PC", city(30, 2), [2, 3, 4, 5]),
    "PC-brown": ctile("brown", "PC", city(40, 2), ALL),
}


def fs_tile(color: str, red: tuple[int, int], black: list[tuple[int, int]]) -> dict[str, Any]:
    """An FS tile: black track (usable) plus the red FS line it must keep (``fs_red``, tile
    edges; the core loader ignores the key, 1883's rules read it)."""
    return {
        "color": color,
        "paths": [[f"e{a}", f"e{b}", "standard"] for a, b in black],
        "labels": ["FS"],
        "fs_red": [list(red)],
    }


FS_TILES = {
    "FS0": fs_tile("yellow", (0, 3), [(0, 3)]),  # black along the red line
    "FS1": fs_tile("yellow", (0, 3), [(1, 4)]),  # black straight across it
    "FS2": fs_tile("yellow", (0, 3), [(1, 5)]),  # black curve across it
    "FS3": fs_tile("yellow", (0, 3), [(1, 3)]),  # black joining from the south-west
    "FS4": fs_tile("yellow", (0, 3), [(3, 5)]),  # black joining from the south-east
    "FS5": fs_tile("yellow", (0, 2), [(0, 2)]),  # curved red line, black along it
    "FS6": fs_tile("yellow", (0, 2), [(1, 4)]),  # curved red line, black across it
    "FS7": fs_tile("green", (0, 3), [(0, 3), (1, 4)]),  # upgrade of FS0 and FS1
}
SPECIAL_TILES.update(FS_TILES)

# Special hexes: which preprinted label takes which chain (Appendix 4 + ruling T3).
SPECIAL_CHAINS = {
    "Carpi": ["CC-green-1", "CC-brown"],
    "Crevalcore": ["CC-green-2", "CC-brown"],
    "Castelfranco": ["PC-green-1", "PC-brown"],
    "Persiceto": ["PC-green-2", "PC-brown"],
    "Ciano d'Enza": ["EN-green", "EN-brown"],
    "Modena": ["MO-green", "MO-brown", "MO-gray"],
    "Poggio Rusco": ["PR-green", "PR-brown"],
    "Reggio Emilia": ["RE-green", "RE-brown", "RE-gray"],
    "Sassuolo": ["SA-green", "SA-brown", "SA-gray"],
    "Suzzara": ["SZ-green", "SZ-brown"],
}

# ---------------------------------------------------------------------------------------------
# Tile manifest (Appendix 4; reconstructed counts marked in docs/rulings/1883.md T1-T2).
# ---------------------------------------------------------------------------------------------
MANIFEST = {
    # yellow (9: reconstructed)
    "3": 4, "4": 4, "5": 3, "6": 5, "57": 5, "58": 5, "7": 5, "8": 13, "9": 9,
    # green (14, 15, 619, 16, 17, 19, 30, 31, 143, 144: reconstructed)
    "23": 4, "24": 4, "25": 2, "26": 2, "27": 2, "28": 1, "29": 1, "141": 2, "142": 2,
    "14": 3, "15": 3, "619": 2, "16": 1, "17": 1, "19": 2, "30": 1, "31": 1, "143": 2, "144": 2,
    # brown (147: reconstructed)
    "39": 1, "40": 1, "41": 2, "42": 2, "43": 1, "44": 1, "45": 2, "46": 2, "47": 1, "63": 8,
    "70": 1, "145": 2, "146": 2, "147": 2,
    # special city tiles (CC, PC, EN stated; PR, MO, RE, SA, SZ reconstructed)
    "CC-green-1": 1, "CC-green-2": 1, "CC-brown": 2,
    "PC-green-1": 1, "PC-green-2": 1, "PC-brown": 2,
    "EN-green": 1, "EN-brown": 1,
    "PR-green": 1, "PR-brown": 1,
    "MO-green": 1, "MO-brown": 1, "MO-gray": 1,
    "RE-green": 1, "RE-brown": 1, "RE-gray": 1,
    "SA-green": 1, "SA-brown": 1, "SA-gray": 1,
    "SZ-green": 1, "SZ-brown": 1,
    # FS tiles (stated)
    "FS0": 1, "FS1": 1, "FS2": 1, "FS3": 1, "FS4": 1, "FS5": 1, "FS6": 1, "FS7": 1,
}  # fmt: skip

# Upgrade lists: the ones Appendix 4 prints, verbatim; the cut ones reconstructed (T2).
UPGRADES_PRINTED = {
    "3": ["141", "142", "143"],
    "4": ["141", "142"],
    "5": ["14", "15", "619"],
    "6": ["14", "15", "619"],
    "57": ["14", "15", "619"],
    "58": ["141", "142", "143", "144"],
    "7": ["26", "27", "28", "29", "30", "31"],
    "8": ["16", "17", "19", "23", "24", "25", "28", "29", "30", "31"],
    "23": ["41", "43", "45", "47"],
    "24": ["42", "43", "46", "47"],
    "25": ["40", "45", "46"],
    "26": ["42", "44", "45"],
    "27": ["41", "44", "46"],
    "28": ["39", "43", "46", "70"],
    "29": ["39", "43", "45", "70"],
    "141": ["145", "146", "147"],
}
UPGRADES_RECONSTRUCTED = {
    "9": ["19", "23", "24", "26", "27"],
    "142": ["145", "146", "147"],
    "143": ["146", "147"],
    "144": ["147"],
    "14": ["63"],
    "15": ["63"],
    "619": ["63"],
    "16": ["43", "70"],
    "17": ["47"],
    "19": ["45", "46"],
    "30": ["42"],
    "31": ["41"],
    "FS0": ["FS7"],
    "FS1": ["FS7"],
}
NO_UPGRADE = ["39", "40", "41", "42", "43", "44", "45", "46", "47", "63", "70", "145", "146"]
NO_UPGRADE += ["147", "FS2", "FS3", "FS4", "FS5", "FS6", "FS7"]


def build_board() -> dict[str, Any]:
    hexes: dict[str, Any] = {}
    numbers: dict[str, list[int]] = {}
    hills: list[str] = []
    mountains: list[str] = []
    flood: list[str] = []
    fs_hexes: list[str] = []
    gray: list[str] = []
    names: dict[str, str] = {}
    for grid, nums, terrain, f_hex, name, content in HEXES:
        c = coord(grid)
        entry: dict[str, Any] = {"color": "white"}
        if name:
            entry["name"] = name
            names[name] = c
        entry["terrain_cost"] = COST[terrain] + (RIVER_COST if f_hex else 0)
        if content == "city":
            entry["nodes"] = [city(20)]
        elif content == "town":
            entry["nodes"] = [town(10)]
        elif isinstance(content, tuple) and content[0] == "yellow":
            _, label, nodes, paths = content
            entry["color"] = "yellow"
            entry["nodes"] = nodes
            entry["paths"] = paths
            entry["labels"] = [label]
        elif isinstance(content, tuple) and content[0] == "track":
            _, nodes, paths = content
            entry["nodes"] = nodes
            entry["paths"] = paths
        elif isinstance(content, tuple) and content[0] == "gray":
            entry["color"] = "gray"
            entry["terrain_cost"] = 0
            entry["paths"] = content[1]
            gray.append(c)
        elif isinstance(content, tuple) and content[0] == "fs":
            entry["labels"] = ["FS"]
            fs_hexes.append(c)
        else:
            assert content is None, grid
        if c in PORTS_T:
            entry["port"] = True
        hexes[c] = entry
        numbers[c] = nums
        if terrain == "hill":
            hills.append(c)
        elif terrain == "mountain":
            mountains.append(c)
        if f_hex:
            flood.append(c)
    offboards: dict[str, Any] = {}
    for grid, name, (lo, mid, hi), symbol, edges in OFFBOARDS:
        c = coord(grid)
        node = {"kind": "offboard", "revenue": lo, "revenue_by_phase": phase_values(lo, mid, hi)}
        hexes[c] = {
            "color": "red",
            "name": name,
            "terrain_cost": 0,
            "nodes": [node],
            "paths": [[f"e{e}", "n0", "standard"] for e in edges],
        }
        offboards[name] = {"hex": c, "low": lo, "middle": mid, "high": hi, "symbol": symbol}
        names[name] = c

    red: dict[str, list[list[int]]] = {}
    lines: dict[str, list[str]] = {}
    for line, chain in FS_LINES.items():
        lines[line] = [coord(g) for g in chain]
        for i, g in enumerate(chain):
            ends = []
            if i > 0:
                ends.append(grid_edge(g, chain[i - 1]))
            if i + 1 < len(chain):
                ends.append(grid_edge(g, chain[i + 1]))
            segment = sorted(ends)
            have = red.setdefault(coord(g), [])
            covered = len(segment) == 1 and any(segment[0] in seg for seg in have)
            if segment not in have and not covered:
                have.append(segment)

    def route(t_grid: str, box: str) -> list[str]:
        box_grid = next(g for g, n, *_ in OFFBOARDS if n == box)
        for chain in FS_LINES.values():
            if t_grid in chain and box_grid in chain:
                i, j = chain.index(t_grid), chain.index(box_grid)
                step = 1 if j > i else -1
                return [coord(g) for g in chain[i : j + step : step]]
        raise ValueError((t_grid, box))

    t_cities = []
    for grid, table_no, name, boxes in T_CITIES:
        t_cities.append(
            {
                "hex": coord(grid),
                "name": name,
                "t_table_number": table_no,
                "node": 0,
                "boxes": {box: route(grid, box) for box in boxes},
            }
        )
    # The CCFR / SARSA boundary (8.1.3, 8.1.4, 8.3.1): the Parma-Bologna line's hex in each
    # column; a hex is north of it when it lies above that hex in its column.
    line_row = {ord(g[0]) - ord("A"): int(g[1:]) for g in FS_LINES["Parma-Bologna (Via Emilia)"]}
    line_row[10] = line_row[9] + 1  # column K continues the line's slope
    north = [
        coord(g)
        for g, *_ in HEXES + [(o[0],) for o in OFFBOARDS]
        if int(g[1:]) < line_row[ord(g[0]) - ord("A")]
    ]

    homes = {
        "FBV": [names["Casalecchio"], 0],
        "FMV": [names["Vignola"], 0],
        "FSF": [names["Suzzara"], 0],
        "FSMMF": [names["Modena"], 0],
        "SAFRE": [names["Reggio Emilia"], 1],
        "SV": [names["Cento"], 0],
        "SEFTA": [names["Modena"], 0],
        "CCFR": [names["Ciano d'Enza"], 0],
        "SARSA": [names["Castelnovo ne' Monti"], 0],
    }
    home_cities = {
        "FSF": [[names["Suzzara"], 0], [names["Poggio Rusco"], 0]],
        "SEFTA": [[names["Modena"], 0], [names["Vignola"], 0]],
        "CCFR": [[names["Ciano d'Enza"], 0], [names["Reggio Emilia"], 0]],
        "SARSA": [[names["Castelnovo ne' Monti"], 0], [names["Sasso"], 0]],
    }
    special = {
        names[place]: {"label": hexes[names[place]]["labels"][0], "chain": chain}
        for place, chain in SPECIAL_CHAINS.items()
    }

    def sort_key(c: str) -> tuple[int, int]:
        y = -1 if c[0] == "a" else ord(c[0]) - ord("A")
        return int(c[1:]), y

    hexes = {c: hexes[c] for c in sorted(hexes, key=sort_key)}
    return {
        "schema": "tresham.board/1",
        "title": "1883",
        "layout": "flat",
        "note": (
            "RECONSTRUCTION: 1883's printed board is not available. Every hex, number, "
            "terrain, revenue and red line here is a reconstruction from the rulebook and real "
            "geography (docs/rulings/1883.md, rulings B1-B14). To correct it from a printed "
            "board, edit the tables of tools/build_1883_data.py (HEXES, OFFBOARDS, PORTS, "
            "FS_LINES, T_CITIES) and rerun it; hexes are listed there by their printed "
            "numbers. Coordinates: flat-top hexes, the number is the column (1 = west), the "
            "letter the doubled row ('a' = northmost)."
        ),
        "phases": PHASES,
        "hexes": hexes,
        "homes": homes,
        "home_choices": {},
        "home_cities": home_cities,
        "hex_numbers": {c: numbers[c] for c in sorted(numbers, key=sort_key)},
        "names": dict(sorted(names.items())),
        "hills": sorted(hills, key=sort_key),
        "mountains": sorted(mountains, key=sort_key),
        "flood_hexes": sorted(flood, key=sort_key),
        "ports": [coord(g) for g in PORTS],
        "offboards": offboards,
        "two_city_hexes": [names["Reggio Emilia"], names["Sassuolo"]],
        "gray_hexes": sorted(gray, key=sort_key),
        "special_cities": special,
        "printed_track": {names["Vignola"]: [["e3", "n0", "standard"]]},
        "private_hexes": {"FRV": coord("C13"), "TMM": names["Maranello"]},
        "fs": {
            "lines": lines,
            "red_track": {c: red[c] for c in sorted(red, key=sort_key)},
            "tile_hexes": sorted(fs_hexes, key=sort_key),
            "t_cities": t_cities,
            "parma_bologna": lines["Parma-Bologna (Via Emilia)"],
            "parma_bologna_8_1_4": [coord(g) for g in ("B10", "C11", "D12", "F14", "G15",
                                                          "H16", "I17")],
            "north_of_parma_bologna": sorted(north, key=sort_key),
        },
        "terrain_costs": {"hill": COST["hill"], "mountain": COST["mountain"],
                          "river": RIVER_COST},
        # 6.7: a run may use the red track from a "T" city straight to its off-board box.
        "long_paths": [
            {"name": f"FS:{t['hex']}>{offboards[box]['hex']}", "a": [t["hex"], t["node"]],
             "b": [offboards[box]["hex"], 0], "gauge": "fs"}
            for t in t_cities for box in t["boxes"]
        ],
    }  # fmt: skip


PORTS_T = {coord(g) for g in PORTS}


# ---------------------------------------------------------------------------------------------
# Stock market (rulings M1-M6). Price ladder; row r starts r steps lower than row 0.
# ---------------------------------------------------------------------------------------------
LADDER = [30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 100, 110, 125, 140, 150, 165,
          180, 200, 220, 240, 260, 280, 300, 325, 350]  # fmt: skip
ROW0_START = 7  # 65
ROW_LAST_COLUMN = [20, 19, 17, 14, 11, 6, 4, 2]
CLOSED_COLUMNS = 3
PAR_ROW = 2
PAR_GROUPS = {65: "yellow", 85: "yellow", 100: "yellow", 110: "green", 150: "brown"}


def build_market() -> dict[str, Any]:
    rows: list[list[dict[str, Any] | None]] = []
    for r, last in enumerate(ROW_LAST_COLUMN):
        row: list[dict[str, Any] | None] = []
        for c in range(last + 1):
            price = LADDER[ROW0_START - r + c]
            tags: list[str] = []
            if r == PAR_ROW and price in PAR_GROUPS:
                tags += ["par", f"par:{PAR_GROUPS[price]}"]
            if r == PAR_ROW and price == 100:
                tags.append("ccfr_start")
            if r == 0 and c == last:
                tags.append("sarsa_max")
            row.append({"price": price, "tags": tags})
        rows.append(row)
    rows.append([{"price": 0, "tags": ["close"]} for _ in range(CLOSED_COLUMNS)])
    return {
        "title": "1883",
        "geometry": "grid",
        "note": (
            "RECONSTRUCTION: 1883's stock market table is not in the rulebook; this grid is "
            "built to reproduce every market example of the rulebook (docs/rulings/1883.md "
            "M1-M6). Correct it in tools/build_1883_data.py (LADDER, ROW_LAST_COLUMN)."
        ),
        "tags": {
            "par": "a par box (5.3.3)",
            "par:yellow": "par 65, 85, 100: from the start (yellow background)",
            "par:green": "par 110: from phase 3 (green background)",
            "par:brown": "par 150: from phase 5 (brown background)",
            "ccfr_start": "the CCFR Co-operative's printed nominal value L.100 (8.1.1)",
            "sarsa_max": "the table's maximum value: the game ends when SARSA enters (10.0)",
            "close": "the Closed section: a corporation entering it closes (5.8)",
        },
        "notes": [
            "Row 0 is the top row, column 0 the left; null = no space.",
            "Grid movement: right at the end of a row moves up a row; left at column 0 moves "
            "down a row; down at the bottom of a column does not move (5.2).",
        ],
        "rows": rows,
    }


# ---------------------------------------------------------------------------------------------
# game.json
# ---------------------------------------------------------------------------------------------
def build_game(board: dict[str, Any]) -> dict[str, Any]:
    names = board["names"]
    trains = [
        {"name": "2", "distance": 2, "price": 100, "count": 9, "rusts_on": "4",
         "card": "Kranss & c. \"Menotti\" - 1883"},
        {"name": "2G", "distance": 2, "price": 20, "count": 6, "rusts_on": "4", "gravity": True,
         "card": "Treno dal Cóce - 1893"},
        {"name": "3", "distance": 3, "price": 200, "count": 4, "rusts_on": "5",
         "card": "Henschel \"Tassoni\" - 1907"},
        {"name": "3bis", "distance": 3, "price": 250, "count": 2, "rusts_on": "6",
         "card": "Locomotore Breda - 1932"},
        {"name": "4", "distance": 4, "price": 350, "count": 4, "rusts_on": "8",
         "card": "Elettromotrice Breda - 1932"},
        {"name": "5", "distance": 5, "price": 500, "count": 4, "rusts_on": None,
         "card": "Elettromotrice Macchi - 1957"},
        {"name": "6", "distance": 6, "price": 650, "count": 2, "rusts_on": None, "card": None,
         "reconstructed": ["price", "count"]},
        {"name": "7", "distance": 7, "price": 800, "count": 2, "rusts_on": None, "card": None,
         "reconstructed": ["price", "count", "permanent"]},
        {"name": "8", "distance": 8, "price": 1000, "count": 3, "rusts_on": None, "card": None,
         "reconstructed": ["price", "count", "permanent"]},
    ]  # fmt: skip
    colors = {
        "2": ["yellow"],
        "3": ["yellow", "green"],
        "3bis": ["yellow", "green"],
        "4": ["yellow", "green"],
        "5": ["yellow", "green", "brown"],
        "6": ["yellow", "green", "brown"],
        "7": ["yellow", "green", "brown", "gray"],
        "8": ["yellow", "green", "brown", "gray"],
    }
    phases = []
    for name in PHASES:
        phases.append(
            {
                "name": name,
                "on": None if name == "2" else name,
                "operating_rounds": {"2": 1, "3": 2, "3bis": 2, "4": 2}.get(name, 3),
                "train_limit": {"2": 4, "3": 4, "3bis": 4, "4": 3}.get(name, 2),
                "tiles": colors[name],
                "par": [65, 85, 100]
                + ([110] if name != "2" else [])
                + ([150] if name in ("5", "6", "7", "8") else []),
                "offboard": "low" if name in LOW else "middle" if name in MIDDLE else "high",
                "concession_bonus": "low"
                if name in LOW
                else "middle"
                if name in MIDDLE
                else "high",
                "event_era": 1 if name in ("2", "3") else 2 if name in ("3bis", "4", "5") else 3,
                "port_bonus": 20 if name in ("2", "3", "3bis") else 10,
                "fsf_second_port": name != "2",
                "privates_buyable": name != "2",
                "sefta_merger": name in ("4", "5", "6", "7", "8"),
                "sarsa_plains": name in ("5", "6", "7", "8"),
            }
        )
    companies = [
        {"sym": "TCB", "number": 1, "name": "Tramvia Castelfranco Bazzano", "value": 20,
         "revenue": 5},
        {"sym": "FRV", "number": 2, "name": "Ferrovia Reggio Ventoso", "value": 40,
         "revenue": 10, "hex": board["private_hexes"]["FRV"]},
        {"sym": "CNP", "number": 3, "name": "Compagnia di Navigazione sul Po", "value": 60,
         "revenue": 10, "port_tokens": 1},
        {"sym": "TMM", "number": 4, "name": "Tramvia Modena Maranello", "value": 80,
         "revenue": 15, "share": "FMV", "hex": board["private_hexes"]["TMM"]},
        {"sym": "FCV", "number": 5, "name": "Ferrovia Casalecchio Vignola", "value": 100,
         "revenue": 15, "share": "FBV"},
        {"sym": "FSF", "number": 6, "name": "Ferrovia Suzzara Ferrara Presidency", "value": 150,
         "revenue": 0, "president": "FSF"},
    ]  # fmt: skip
    shares = [20, 10, 10, 10, 10, 10, 10, 10, 10]
    std_tokens = [0, 40, 40, 100]
    corps = [
        ("FBV", "Società per la Ferrovia Bologna-Vignola", "railway", ["Casalecchio"]),
        ("FMV", "Società Anonima per la Ferrovia Modena-Vignola", "railway", ["Vignola"]),
        ("FSF", "Società Anonima per la Ferrovia Suzzara-Ferrara", "railway",
         ["Suzzara", "Poggio Rusco"]),
        ("FSMMF", "Società Anonima Ferrovia Sassuolo - Modena Mirandola e Finale", "railway",
         ["Modena"]),
        ("SAFRE", "Società Anonima per la Ferrovia Reggio Emilia", "railway",
         ["Reggio Emilia"]),
        ("SV", "Società Veneta per la Costruzione ed Esercizio di Ferrovie Secondarie",
         "railway", ["Cento"]),
        ("SEFTA", "Società Emiliana Ferrovie Tramvie e Automobili", "merger",
         ["Modena", "Vignola"]),
        ("CCFR", "Consorzio Cooperativo per le Ferrovie Reggio-Ciano e Reggio-Po", "cooperative",
         ["Ciano d'Enza", "Reggio Emilia"]),
        ("SARSA", "Società Anonima Reggiana Servizi Automobilistici", "bus",
         ["Castelnovo ne' Monti", "Sasso"]),
    ]  # fmt: skip
    corporations = []
    for sym, name, kind, homes in corps:
        entry: dict[str, Any] = {
            "sym": sym,
            "name": name,
            "kind": kind,
            "homes": [hx for hx, _ in board["home_cities"].get(sym, [board["homes"][sym]])],
            "home_names": homes,
            "shares": shares,
        }
        if kind == "bus":
            entry["bus_tokens"] = 40
        elif sym in ("FSF", "CCFR"):
            entry["token_costs"] = [0, 0, 40, 40, 100]
        else:
            entry["token_costs"] = std_tokens
        if sym == "FSF":
            entry["port_tokens"] = 2
        if sym == "SEFTA":
            entry["merger_of"] = ["FMV", "FSMMF"]
            entry["max_value"] = 150
            entry["max_station_exchange"] = 4
        if sym == "CCFR":
            entry["nominal_value"] = 100
            entry["start_trains"] = ["2", "2", "2G", "2G"]
            entry["capital_on_capitalisation"] = 100
        corporations.append(entry)

    def place(name: str) -> dict[str, str]:
        return {"name": name, "hex": names[name]}

    concessions = [
        (1, ["Casalecchio", "Bazzano", "Vignola"], 15, (100, 150, 200), 2, False),
        (2, ["Ferrara", "Bondeno", "Suzzara", "Parma"], 20, (200, 250, 300), 4, False),
        (3, ["Reggio Emilia", "Ciano d'Enza", "Castelnovo ne' Monti", "Aulla/La Spezia"], 20,
         (200, 250, 300), 4, False),
        (4, ["Bagnolo", "Mirandola", "Finale"], 20, (200, 250, 300), 4, True),
        (5, ["Reggio Emilia", "Bagnolo", "Guastalla"], 15, (100, 150, 200), 3, True),
        (6, ["Modena", "Cento", "Ferrara"], 20, (200, 250, 300), 4, True),
        (7, ["Modena", "Maranello", "Sassuolo"], 15, (100, 150, 200), 2, True),
        (8, ["Sasso", "Vignola", "Sassuolo"], 20, (200, 250, 300), 4, True),
    ]  # fmt: skip
    conc_out = []
    for no, route, cost, bonus, due, rebuilt in concessions:
        item: dict[str, Any] = {
            "number": no,
            "route": [place(p) for p in route],
            "cost": cost,
            "bonus": {"low": bonus[0], "middle": bonus[1], "high": bonus[2]},
            "due_ors": due,
            "cylinders": len(route),
        }
        if rebuilt:
            item["reconstructed"] = (
                ["cost", "bonus", "due_ors"] if no == 4 else ["route", "cost", "bonus", "due_ors"]
            )
        conc_out.append(item)
    assert sum(c["cylinders"] for c in conc_out) == 26

    upgrades = {**UPGRADES_PRINTED, **UPGRADES_RECONSTRUCTED}
    for chain in SPECIAL_CHAINS.values():
        for a, b in itertools.pairwise(chain):
            upgrades.setdefault(a, [])
            if b not in upgrades[a]:
                upgrades[a].append(b)
    for t in NO_UPGRADE + [c[-1] for c in SPECIAL_CHAINS.values()]:
        upgrades.setdefault(t, [])
    upgrades = {k: upgrades[k] for k in MANIFEST}
    return {
        "title": "1883",
        "note": (
            "Facts from the 1883 rulebook; values it cuts or leaves out are reconstructions "
            "marked 'reconstructed' and justified in docs/rulings/1883.md."
        ),
        "players": [2, 4],
        "bank": 11000,
        "starting_cash": {"2": 800, "3": 550, "4": 400},
        "cert_limit": {
            "8_corporations": {"2": 32, "3": 21, "4": 16},
            "7_corporations": {"2": 28, "3": 19, "4": 14},
        },
        "political_support": {"cards": 24, "max_per_player": 9, "start_per_player": 1,
                              "cost_by_owned": [5, 10, 20, 30, 40, 50, 60, 80, 100]},
        "par_chart": {"values": [65, 85, 100, 110, 150],
                      "from_phase": {"65": "2", "85": "2", "100": "2", "110": "3", "150": "5"},
                      "reconstructed": ["layout"]},
        "phases": phases,
        "trains": trains,
        "gravity_check": {"success": [1, 7], "no_revenue": [8, 9], "destroyed": [10]},
        "companies": companies,
        "corporations": corporations,
        "concessions": conc_out,
        "events": EVENTS,
        "tiles": MANIFEST,
        "tile_upgrades": upgrades,
        "special_tile_chains": {names[p]: {"place": p, "chain": c}
                                for p, c in SPECIAL_CHAINS.items()},
        "tiles_reconstructed": {
            "counts": ["9", "14", "15", "619", "16", "17", "19", "30", "31", "143", "144",
                       "147", "PR-green", "PR-brown", "MO-green", "MO-brown", "MO-gray",
                       "RE-green", "RE-brown", "RE-gray", "SA-green", "SA-brown", "SA-gray",
                       "SZ-green", "SZ-brown"],
            "upgrades": sorted(UPGRADES_RECONSTRUCTED),
            "geometry": sorted(SPECIAL_TILES),
        },
    }  # fmt: skip


# 11.0: the Random Event cards, by number. "eras" lists the decks a card belongs to: its own
# era and the marks "2"/"3" on its left side that keep an unused card when the next era's
# deck is formed (7.1). The marks are not printed in the rulebook: reconstructed (ruling R22).
EVENTS = [
    {"number": 1, "name": "First World War", "effect": "world_war", "eras": [1]},
    {"number": 2, "name": "Flooding", "effect": "flooding", "eras": [1, 2, 3]},
    {"number": 3, "name": "General Strike", "effect": "general_strike", "eras": [1, 2, 3]},
    {"number": 4, "name": "General Strike", "effect": "general_strike", "eras": [1, 2, 3]},
    {"number": 5, "name": "Landslide in the Apennines", "effect": "landslide",
     "eras": [1, 2, 3]},
    {"number": 6, "name": "Railroad Accident", "effect": "accident", "eras": [1, 2, 3]},
    {"number": 7, "name": "Railway Strike", "effect": "railway_strike", "eras": [1, 2, 3]},
    {"number": 8, "name": "Railway Strike", "effect": "railway_strike", "eras": [1, 2, 3]},
    {"number": 9, "name": "Railway Strike", "effect": "railway_strike", "eras": [1, 2, 3]},
    {"number": 10, "name": "\"Red\" Week (7-14 June 1914)", "effect": "red_week", "eras": [1]},
    {"number": 11, "name": "Strike Breaker!", "effect": "strike_breaker", "eras": [1, 2, 3]},
    {"number": 12, "name": "The King's Visit", "effect": "offboards", "eras": [1, 2],
     "offboards": {"Bologna/Firenze": -10}},
    {"number": 13, "name": "Air Raids", "effect": "air_raids", "eras": [2]},
    {"number": 14, "name": "Autarchy", "effect": "autarchy", "eras": [2]},
    {"number": 15, "name": "Empire Declared", "effect": "empire", "eras": [2]},
    {"number": 16, "name": "German Occupation", "effect": "occupation", "eras": [2]},
    {"number": 17, "name": "Gold for the Homeland", "effect": "gold", "eras": [2]},
    {"number": 18, "name": "Second World War", "effect": "money_aside", "eras": [2]},
    {"number": 19, "name": "The Fall of the Fascist Regime", "effect": "lose_support",
     "eras": [2, 3]},
    {"number": 20, "name": "The March on Rome", "effect": "lose_support", "eras": [2]},
    {"number": 21, "name": "Verona Porta Nuova Built", "effect": "offboards", "eras": [2, 3],
     "offboards": {"Verona/Brennero": 20}},
    {"number": 22, "name": "Trains Are on Time", "effect": "on_time", "eras": [2]},
    {"number": 23, "name": "War Effort", "effect": "war_effort", "eras": [2]},
    {"number": 24, "name": "Bus Strike", "effect": "bus_strike", "eras": [3]},
    {"number": 25, "name": "Economic Boom", "effect": "offboards", "eras": [3],
     "offboards": {"Mantova/Brennero": 30, "Verona/Brennero": 20}},
    {"number": 26, "name": "Hot Autumn", "effect": "hot_autumn", "eras": [3]},
    {"number": 27, "name": "Italian Republic Declared", "effect": "lose_support", "eras": [3]},
    {"number": 28, "name": "Magnacucchi", "effect": "magnacucchi", "eras": [3]},
    {"number": 29, "name": "Marshall Plan", "effect": "marshall", "eras": [3]},
    {"number": 30, "name": "Tax Shield", "effect": "money_back", "eras": [3]},
    {"number": 31, "name": "The \"Front\" Wins", "effect": "money_aside", "eras": [3]},
]  # fmt: skip


def add_special_tiles() -> int:
    """Add the 1883 special tiles to the shared catalogue; never change an existing entry."""
    text = TILES.read_text("utf-8")
    data = json.loads(text)
    tiles = data["tiles"]
    new = {}
    for tile_id, tile in SPECIAL_TILES.items():
        if tile_id in tiles:
            if tiles[tile_id] != tile:
                raise SystemExit(f"catalogue already has a different tile {tile_id}")
            continue
        new[tile_id] = tile
    added = len(new)
    # New tiles go before the catalogue's last entry, so that no existing line changes (not
    # even by a trailing comma).
    ids = list(tiles)
    data["tiles"] = {k: tiles[k] for k in ids[:-1]} | new | {ids[-1]: tiles[ids[-1]]}
    out = dump(data, ("tiles",))
    # Existing lines must be untouched: the new file is the old one plus inserted lines.
    old_lines = [ln.rstrip(",") for ln in text.splitlines()]
    new_lines = {ln.rstrip(",") for ln in out.splitlines()}
    missing = [ln for ln in old_lines if ln not in new_lines]
    if missing:
        raise SystemExit(f"rewriting the catalogue would change {missing[:2]}")
    TILES.write_text(out, "utf-8")
    return added


def main() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    board = build_board()
    (DATA / "board.json").write_text(
        dump(board, ("hexes", "hex_numbers", "names", "offboards", "special_cities")), "utf-8"
    )
    market = build_market()
    (DATA / "market.json").write_text(
        json.dumps(market, indent=1, ensure_ascii=False) + "\n", "utf-8"
    )
    game = build_game(board)
    (DATA / "game.json").write_text(json.dumps(game, indent=1, ensure_ascii=False) + "\n", "utf-8")
    added = add_special_tiles()
    print(f"board: {len(board['hexes'])} hexes; market: {len(market['rows'])} rows; "
          f"manifest: {sum(MANIFEST.values())} tiles; catalogue: +{added} tiles")  # fmt: skip


if __name__ == "__main__":
    main()
