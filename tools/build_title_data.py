#!/usr/bin/env python3
"""Convert the shared reference facts into tresham's own compact JSON data files.

Run once (from the repository root):  python tools/build_title_data.py [--shared DIR]

Reads ``<shared>/reference/tiles.json`` and ``<shared>/reference/1849.json`` (schema:
``<shared>/reference/SOURCES.md``) and writes:

``src/tresham/core/data/tiles.json`` — the tile catalogue::

    {"schema": "tresham.tiles/1",
     "tiles": {"<id>": {"color": "yellow|green|brown|gray",
                        "nodes": [{"kind": "city|town|offboard|junction",
                                   "revenue": int, "slots": int (cities only)}, ...],
                        "paths": [["<end>", "<end>", "standard|narrow|dual"], ...],
                        "labels": ["P", ...]}}}

  A path end is ``"e<edge>"`` (tile edge 0-5 at rotation 0) or ``"n<i>"`` (the tile's node i).
  Empty ``nodes``/``paths``/``labels`` are omitted.

``src/tresham/titles/t1849/data/board.json`` — the 1849 board::

    {"schema": "tresham.board/1", "title": "1849", "layout": "flat",
     "phases": ["4H", ...],
     "hexes": {"<coord>": {"color": "white|yellow|gray|blue", "name": str (optional),
                           "terrain_cost": 0|40|80|160,
                           "nodes": [... as tiles, plus optional "revenue_by_phase":
                                     {"<phase>": int}],
                           "paths": [... absolute board edges ...], "labels": [...],
                           "impassable": [edges], "port": true (ports only)}},
     "homes": {"<corp>": ["<coord>", <node index>]},
     "home_choices": {"AFG": ["C1", ...]},
     "ports": [...], "coastal_cities": [...], "private_blocks": {"G13": "SCE"}}

``src/tresham/titles/t1849/data/manifest.json`` — the tile supply::

    {"schema": "tresham.manifest/1", "title": "1849",
     "tiles": {"<id>": count}          # the rules summary's 168 tiles (655 x1, 656 x1)
     "tiles_18xx_games": {"<id>": count}}   # 18xx.games' 170 (655 x2, 656 x2), for imports

The written files do not depend on the shared folder at run time. docs/data-format.md documents
the same schema.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from json_layout import dump

ROOT = Path(__file__).resolve().parent.parent
TILES_OUT = ROOT / "src/tresham/core/data/tiles.json"
BOARD_OUT = ROOT / "src/tresham/titles/t1849/data/board.json"
MANIFEST_OUT = ROOT / "src/tresham/titles/t1849/data/manifest.json"

PHASES_1849 = ["4H", "6H", "8H", "10H", "12H", "16H"]


def _end(end: dict[str, int]) -> str:
    if "edge" in end:
        return f"e{end['edge']}"
    return f"n{end['node']}"


def _paths(paths: list[dict[str, Any]]) -> list[list[str]]:
    out = []
    for p in paths:
        gauge = p.get("track", "standard")
        assert gauge in ("standard", "narrow", "dual"), p
        out.append([_end(p["a"]), _end(p["b"]), gauge])
    return out


def _node(raw: dict[str, Any]) -> dict[str, Any]:
    kind = raw["type"]
    assert kind in ("city", "town", "offboard", "junction"), raw
    revenue = raw.get("revenue", 0)
    if isinstance(revenue, dict):  # white_20|gray_30|black_40: the base value is the first
        revenue = revenue["white"]
    node: dict[str, Any] = {"kind": kind, "revenue": int(revenue)}
    if kind == "city":
        node["slots"] = int(raw.get("slots", 1))
    return node


def build_tiles(src: dict[str, Any]) -> dict[str, Any]:
    tiles: dict[str, Any] = {}
    for tile_id, t in src["tiles"].items():
        nodes = sorted(t["nodes"], key=lambda n: n["ref"])
        assert [n["ref"] for n in nodes] == list(range(len(nodes))), tile_id
        entry: dict[str, Any] = {"color": t["color"]}
        if nodes:
            entry["nodes"] = [_node(n) for n in nodes]
        if t["paths"]:
            entry["paths"] = _paths(t["paths"])
        if t["labels"]:
            entry["labels"] = list(t["labels"])
        tiles[tile_id] = entry
    return {"schema": "tresham.tiles/1", "tiles": tiles}


def build_board(src: dict[str, Any]) -> dict[str, Any]:
    assert src["coordinate_system"]["layout"] == "flat"
    hexes: dict[str, Any] = {}
    ports = set(src["ports"])
    gray_by_phase = src["gray_revenue_centers_by_phase"]
    for coord, h in src["hexes"].items():
        raw_nodes = sorted(h["cities"] + h["towns"] + h["offboards"], key=lambda n: n["ref"])
        assert [n["ref"] for n in raw_nodes] == list(range(len(raw_nodes))), coord
        nodes = [_node(n) for n in raw_nodes]
        if coord in gray_by_phase:
            assert len(nodes) == 1, coord
            table = {p: int(gray_by_phase[coord][p]) for p in PHASES_1849}
            nodes[0]["revenue_by_phase"] = table
        costs = {int(t["cost"]) for t in h["terrain"]}
        assert len(costs) <= 1, coord
        entry: dict[str, Any] = {"color": h["color"]}
        if h.get("location_name"):
            entry["name"] = h["location_name"]
        entry["terrain_cost"] = costs.pop() if costs else 0
        if nodes:
            entry["nodes"] = nodes
        if h["paths"]:
            entry["paths"] = _paths(h["paths"])
        if h["labels"]:
            entry["labels"] = list(h["labels"])
        if h["impassable_edges"]:
            entry["impassable"] = sorted(h["impassable_edges"])
        if coord in ports:
            assert h["is_port"], coord
            entry["port"] = True
        hexes[coord] = entry

    homes_src = src["home_hexes"]
    homes: dict[str, list[Any]] = {
        corp: [coord, 0] for corp, coord in homes_src.items() if isinstance(coord, str)
    }
    for corp, (home, _node_index) in homes.items():
        kinds = [n["kind"] for n in hexes[str(home)]["nodes"]]
        assert kinds == ["city"], (corp, coord)
    blocks = {
        coord: info["company"] for coord, info in src["blocked_hexes"]["by_private_company"].items()
    }

    def row_col(coord: str) -> tuple[int, int]:
        letter, number = coord[0], int(coord[1:])
        row = ord(letter) - ord("A") if letter.isupper() else -(ord(letter) - ord("a")) - 1
        return row, number

    hexes = {c: hexes[c] for c in sorted(hexes, key=row_col)}
    return {
        "schema": "tresham.board/1",
        "title": "1849",
        "layout": "flat",
        "phases": PHASES_1849,
        "hexes": hexes,
        "homes": dict(sorted(homes.items())),
        "home_choices": {"AFG": list(homes_src["AFG_choice"])},
        "ports": list(src["ports"]),
        "coastal_cities": list(src["coastal_city_hexes_for_SMS"]),
        "private_blocks": blocks,
    }


def build_manifest(src: dict[str, Any], tiles: dict[str, Any]) -> dict[str, Any]:
    rules = {k: int(v) for k, v in src["tile_manifest_168_variant"].items()}
    site = {k: int(v) for k, v in src["tile_manifest"].items()}
    for counts, total in ((rules, 168), (site, 170)):
        assert sum(counts.values()) == total, total
        assert all(k in tiles["tiles"] for k in counts)
    assert rules["655"] == 1 and rules["656"] == 1 and site["655"] == 2 and site["656"] == 2
    by_color: dict[str, int] = {}
    for k, n in rules.items():
        color = tiles["tiles"][k]["color"]
        by_color[color] = by_color.get(color, 0) + n
    assert by_color == {"yellow": 72, "green": 72, "brown": 24}, by_color
    return {
        "schema": "tresham.manifest/1",
        "title": "1849",
        "tiles": rules,
        "tiles_18xx_games": site,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    ref = args.shared / "reference"
    tiles_src = json.loads((ref / "tiles.json").read_text("utf-8"))
    board_src = json.loads((ref / "1849.json").read_text("utf-8"))

    tiles = build_tiles(tiles_src)
    board = build_board(board_src)
    manifest = build_manifest(board_src, tiles)
    assert len(board["hexes"]) == 73

    TILES_OUT.parent.mkdir(parents=True, exist_ok=True)
    BOARD_OUT.parent.mkdir(parents=True, exist_ok=True)
    TILES_OUT.write_text(dump(tiles, ("tiles",)), "utf-8")
    BOARD_OUT.write_text(dump(board, ("hexes",)), "utf-8")
    MANIFEST_OUT.write_text(dump(manifest, ("tiles", "tiles_18xx_games")), "utf-8")
    print(f"wrote {TILES_OUT.relative_to(ROOT)} ({len(tiles['tiles'])} tiles)")
    print(f"wrote {BOARD_OUT.relative_to(ROOT)} ({len(board['hexes'])} hexes)")
    print(f"wrote {MANIFEST_OUT.relative_to(ROOT)} ({sum(manifest['tiles'].values())} tiles)")


if __name__ == "__main__":
    main()
