#!/usr/bin/env python3
"""Build 1854's data files from the shared reference facts and the rulebook's tables.

Run from the repository root:  python tools/build_1854_data.py [--shared DIR]

Reads ``<shared>/reference/1854.json`` (the boards, homes, tile manifest; schema in
``<shared>/reference/SOURCES.md``) and writes, under ``src/tresham/titles/t1854/data/``:

``board.json`` (schema ``tresham.board/1``, pointy layout): the main map and the local-railway
map in one coordinate space (they do not touch). Per-phase values of the red foreign
connections and the grey local-map cities are ``revenue_by_phase`` keyed by the rulebook's
phase names 2, 3, 4, 5, 6, 8 (§5.10 Table 5). Title facts the core does not interpret:
``local_map`` (the extra map's hexes, §5.3), ``wien`` (the W hex, §5.3), ``one_city_hexes``
(hexes whose cities are one city for a route, §5.6), ``shielded`` (the
hexes beside Wien that need the named company's permission, §5.3, ruling D3),
``tunnel_only`` (§5.3, ruling D2), ``customs`` (the track through Germany, §5.6),
``mountain_railways`` (the hex of each, §5.3), ``orient_express_starts`` (Paris and
Constantinople, §5.6), ``lokalbahn_homes`` and ``major_stations_from_phase`` (§5.5).

The core reads ``regroup_labels``: the labels whose tiles may change the number of cities
(Wien's W tiles, §5.3).

``manifest.json`` (schema ``tresham.manifest/1``): the tile supply (ruling D4).

These two are the REVISED edition's board and tiles, which saves of rules versions 1-3 were
played on. Reading ``<shared>/reference/1854-original.json`` (the ORIGINAL 2002 edition, the
rulebook's; its sources in ``<shared>/reference/1854-found-facts.md``), it also writes
``board_original.json`` (the same schema and facts, plus ``medium_cities`` (§5.3),
``promotions`` (the core's promotion chart: tile → tiles that may replace it although their
colour or their cities and towns differ; §5.3, §5.4), ``double_cities`` (§5.4) and the
``permission shields``), ``manifest_original.json`` (the 125 tiles of §1.1, the 13
transparent tunnel tiles among them) and ``tiles_original.json`` (the tiles of that set the
engine's catalogue lacks, in the catalogue's schema). Rulings D6-D9 say what was decided.

``game.json``: bank, Table 1 starting capital, Table 7 share limits, par prices, the eleven
private certificates in Table 2 order, the majors (Table 3), local railways, Major Local
Railways, trains (Table 4), phases (Table 5), mail contracts (Table 6), tunnels and station
costs. The tables are typed in here from the rulebook, since its text lost their layout; the
reconstruction is ``<shared>/reference/rule-details/1854-missing-rules.md`` §6.

Every tile the manifest names is already in the engine's catalogue
(``src/tresham/core/data/tiles.json``), the W tiles 433/451/456 included; the script checks it.
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
OUT = ROOT / "src/tresham/titles/t1854/data"
CATALOGUE = ROOT / "src/tresham/core/data/tiles.json"

#: §5.10 Table 5: the phases, named after the trains that start them.
PHASES = ["2", "3", "4", "5", "6", "8"]
#: The reference names the last phase "7" (it starts with the 8-train; missing-rules §7.13).
REFERENCE_PHASE = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "8"}
#: 1854-original.json names the phases as the rulebook does.
ORIGINAL_PHASE = {p: p for p in PHASES}
#: Table 5, last row: which printed colour of a foreign connection is valid in each phase.
VALUE_COLOUR = {"2": "yellow", "3": "green", "4": "green", "5": "brown", "6": "brown", "8": "gray"}

#: Ruling D3: the three shielded hexes are the ones Wien's printed track leads into, each
#: guarded by the company whose home city that track leaves (C23 edges 0, 1, 2).
SHIELDED = {"D22": "SD", "C21": "KE", "B22": "FJ"}
#: §5.5: majors may place stations in the Sankt Pölten and Steyr hexes from Phase 6 on.
MAJOR_STATIONS_FROM_PHASE = {"D18": "6", "D20": "6"}
#: §5.6: the Orient Express may start from Paris or Constantinople (and only it may use them).
ORIENT_EXPRESS_STARTS = {"D0": "Paris", "F28": "Konstantinopel"}
#: §5.6: the track through Germany carries the customs sign (München's through track).
CUSTOMS_HEX = "D12"
CUSTOMS_PATH = ["e0", "e4", "standard"]

# ---------------------------------------------------------------- the rulebook's tables
BANK = 9672  # §1.1: 24x1 + 24x2 + 24x5 + 36x10 + 36x20 + 24x50 + 24x100 + 24x200 (ruling D1)
STARTING_CASH = {"3": 860, "4": 650, "5": 525, "6": 450}  # §2.3 Table 1
#: §6.5 Table 7: share limit by players, by the number of companies whose shares have split.
SHARE_LIMITS = {
    "3": [10, 12, 14, 15, 17, 19, 20, 22, 24],
    "4": [8, 9, 10, 11, 13, 14, 15, 16, 18],
    "5": [6, 7, 8, 9, 10, 11, 12, 13, 14],
    "6": [5, 6, 7, 7, 8, 9, 10, 11, 12],
}
PAR_PRICES = [67, 72, 77, 82, 87, 93]  # §4, §6.4
#: §3.1 Table 2 in its order (§4: the certificates are offered in this order).
PRIVATES: list[dict[str, Any]] = [
    {"sym": "P1", "name": "Außerfernbahn", "value": 20, "revenue": 5, "kind": "mountain",
     "hex": "E5", "power": {"mountain_discount": 20}},
    {"sym": "P2", "name": "Murtalbahn", "value": 50, "revenue": 10, "kind": "mountain",
     "hex": "F16", "power": {"tunnel_discount": 40}},
    {"sym": "P3", "name": "Graz-Köflacher Bahn", "value": 70, "revenue": 15, "kind": "mountain",
     "hex": "F20", "power": {"route_bonus": {"hex": "F22", "amount": 10}}},
    {"sym": "L1", "name": "Mariazellerbahn", "value": 150, "revenue": 0, "kind": "local",
     "number": 1},
    {"sym": "L2", "name": "Kernhofer Bahn", "value": 150, "revenue": 0, "kind": "local",
     "number": 2},
    {"sym": "L3", "name": "Ybbstaler Bahn", "value": 150, "revenue": 0, "kind": "local",
     "number": 3},
    {"sym": "L4", "name": "Steyrtalbahn", "value": 150, "revenue": 0, "kind": "local",
     "number": 4},
    {"sym": "L5", "name": "Pyhrnbahn", "value": 150, "revenue": 0, "kind": "local", "number": 5},
    {"sym": "L6", "name": "Salzkammergutbahn", "value": 150, "revenue": 0, "kind": "local",
     "number": 6},
    {"sym": "P4", "name": "Arlbergbahn", "value": 170, "revenue": 20, "kind": "mountain",
     "hex": "F4", "share": {"corporation": "VB", "percent": 20}, "closes_when_runs": "VB"},
    {"sym": "P5", "name": "Semmeringbahn", "value": 190, "revenue": 25, "kind": "mountain",
     "hex": "E23", "share": {"corporation": "SD", "percent": 20}, "closes_when_runs": "SD"},
]  # fmt: skip
#: §3.2 Table 3: name, home city, number of station markers.
MAJORS = [
    ("KE", "Kaiserin Elisabeth-Westbahn", "Wien", 4),
    ("FJ", "Kaiser Franz Joseph-Bahn", "Wien", 3),
    ("SD", "Südbahn", "Wien", 4),
    ("KR", "Kronprinz Rudolf-Bahn", "Linz", 4),
    ("KT", "Kärntner Bahn", "Klagenfurt", 3),
    ("SB", "Salzburger Bahn", "Salzburg", 3),
    ("NT", "Nordtiroler Staatsbahn", "Innsbruck", 4),
    ("VB", "Vorarlberger Bahn", "Bregenz", 3),
]
STATION_COSTS = [0, 50, 100, 150]  # §5.5: home free; then 50, 100, 150 G
LOCAL_STATION_COSTS = [0, 40]  # §5.5 and missing-rules §2.8 (two stations at most)
MLR_STATION_COSTS = [0, 50]  # §5.5 (a home and one more station, as the Locals; ruling ML6)
MLR_START_PRICE = 67  # ruling ML4: the lowest par space (no source gives it)
MLR_HOMES = ["D18", "D20"]  # missing-rules §3.8, ruling ML5
MLR_HOME_TILES = ["14", "15", "619"]  # ruling ML5 (revised board): a green city of two spaces
#: Ruling ML5 on the original board: its green cities of two spaces.
MLR_HOME_TILES_ORIGINAL = ["441", "442", "443", "444"]
#: §5.6 (ruling T5): the red space from which the Orient Express may go on, → the grey city.
GATEWAYS = {"E1": "D0", "D28": "F28", "E27": "F28"}
GATEWAYS_ORIGINAL = {"E1": "D2", "D28": "F26", "E27": "F26"}
ORIENT_EXPRESS_STARTS_ORIGINAL = {"D2": "Paris", "F26": "Konstantinopel"}
#: §5.3: "The tile with the broad crossbar is replaced by the corresponding one with the large
#: city" (the same track; 1854-found-facts §2.3).
MEDIUM_PROMOTIONS = {"3": "5", "4": "57", "58": "6"}
#: §5.4: "Green tiles with two cities serve as upgrades for the double small cities".
DOUBLE_TOWN_TILES = ["1", "2", "55", "56", "69"]
DOUBLE_CITY_TILES = ["457", "458", "459", "460", "461", "462", "463", "464"]
#: §5.3, §5.4: "Sankt Pölten may ... be upgraded to a green tile (number 442 or 444)".
SANKT_POELTEN = "J38"
SANKT_POELTEN_TILES = ["442", "444"]
#: Table 4 (seed reading, missing-rules §6): name, range, count, price, rusts on (§5.10),
#: available from (§5.6, §5.9), plus train.
TRAINS: list[dict[str, Any]] = [
    {"name": "2", "distance": 2, "count": 6, "price": 100, "rusts_on": "4"},
    {"name": "3", "distance": 3, "count": 5, "price": 200, "rusts_on": "6"},
    {"name": "4", "distance": 4, "count": 4, "price": 320, "rusts_on": "8"},
    {"name": "5", "distance": 5, "count": 3, "price": 530},
    {"name": "6", "distance": 6, "count": 2, "price": 670},
    {"name": "8", "distance": 8, "count": 5, "price": 900},
    {"name": "OE", "distance": 8, "count": 5, "price": 1000, "orient_express": True},
    {"name": "1+", "distance": 1, "count": 6, "price": 80, "rusts_on": "4", "plus": True},
    {"name": "2+", "distance": 2, "count": 4, "price": 120, "rusts_on": "5", "plus": True,
     "available_after": "3"},
    {"name": "3+", "distance": 3, "count": 3, "price": 160, "rusts_on": "6", "plus": True,
     "available_after": "2+ sold out"},
]  # fmt: skip
#: Table 5 rows.
PHASE_ROWS: list[dict[str, Any]] = [
    {"name": "2", "on": None, "operating_rounds": 1, "tiles": ["yellow"],
     "train_limit": {"major": 4, "local": 2}, "plus_trains": ["1+"]},
    {"name": "3", "on": "3", "operating_rounds": 2, "tiles": ["yellow", "green"],
     "train_limit": {"major": 4, "local": 2}, "plus_trains": ["1+", "2+", "3+"]},
    {"name": "4", "on": "4", "operating_rounds": 2, "tiles": ["yellow", "green"],
     "train_limit": {"major": 3, "local": 1}, "plus_trains": ["2+", "3+"]},
    {"name": "5", "on": "5", "operating_rounds": 3, "tiles": ["yellow", "green", "brown"],
     "train_limit": {"major": 2, "local": 1, "major_local": 2}, "plus_trains": ["3+"]},
    {"name": "6", "on": "6", "operating_rounds": 3, "tiles": ["yellow", "green", "brown"],
     "train_limit": {"major": 2, "major_local": 2}, "plus_trains": []},
    {"name": "8", "on": "8", "also_on": "OE", "operating_rounds": 3,
     "tiles": ["yellow", "green", "brown", "gray"],
     "train_limit": {"major": 2, "major_local": 2}, "plus_trains": []},
]  # fmt: skip
#: Table 6 (= Table 5's mail rows): cost, count, income by phase.
MAIL_CONTRACTS = [
    {"cost": 100, "count": 6, "income": {"2": 10, "3": 20, "4": 20, "5": 40, "6": 40, "8": 60}},
    {"cost": 200, "count": 6, "income": {"2": 20, "3": 30, "4": 30, "5": 50, "6": 50, "8": 80}},
]
TUNNELS = {"count": 13, "cost": 100}  # §1.1 (13 transparent tiles), §5.3.1


def _end(end: dict[str, int]) -> str:
    return f"e{end['edge']}" if "edge" in end else f"n{end['node']}"


def _node(
    raw: dict[str, Any], hex_src: dict[str, Any], phases: dict[str, str] = REFERENCE_PHASE
) -> dict[str, Any]:
    """A node of a printed hex. Dots in a red hex (Budapest, Zürich) are foreign connections,
    i.e. offboards (§5.7: termini)."""
    kind = raw["type"]
    if hex_src["color"] == "red":
        kind = "offboard"
    node: dict[str, Any] = {"kind": kind}
    by_phase = hex_src.get("revenue_by_phase", {}).get(f"{raw['type']}{raw['ref']}")
    revenue = raw.get("revenue", 0)
    table = {phases[p]: int(v) for p, v in (by_phase or {}).items()}
    if isinstance(revenue, dict) or len(set(table.values())) > 1:
        node["revenue"] = table["2"]
        node["revenue_by_phase"] = table
    else:
        node["revenue"] = int(revenue)
    if kind == "city":
        node["slots"] = int(raw.get("slots", 1))
    return node


def row_col(coord: str) -> tuple[int, int]:
    """Sort key: row letter, then column number."""
    return ord(coord[0]) - ord("A"), int(coord[1:])


def build_board(src: dict[str, Any]) -> dict[str, Any]:
    assert src["coordinate_system"]["layout"] == "pointy"
    tunnel_only = sorted(src["blocked_or_special_hexes"]["brown_mine_hexes"], key=row_col)
    hexes: dict[str, Any] = {}
    customs: dict[str, int] = {}
    mountain: dict[str, str] = {}
    for coord, h in src["hexes"].items():
        raw = sorted(h["cities"] + h["towns"] + h["offboards"], key=lambda n: n["ref"])
        assert [n["ref"] for n in raw] == list(range(len(raw))), coord
        costs = {int(t["cost"]) for t in h["terrain"]}
        assert len(costs) <= 1, coord
        # Ruling D2: the mine hexes are the grey spaces where only tunnels may be built.
        color = "gray" if coord in tunnel_only else h["color"]
        entry: dict[str, Any] = {"color": color}
        if h.get("location_name"):
            entry["name"] = h["location_name"]
        entry["terrain_cost"] = costs.pop() if costs else 0
        if terrain := sorted({t for x in h["terrain"] for t in x["terrain"]}):
            entry["terrain"] = terrain
        if raw:
            entry["nodes"] = [_node(n, h) for n in raw]
        paths = [[_end(p["a"]), _end(p["b"]), p.get("track", "standard")] for p in h["paths"]]
        if paths:
            entry["paths"] = paths
        if h["labels"]:
            entry["labels"] = list(h["labels"])
        if coord == CUSTOMS_HEX:
            customs[coord] = paths.index(CUSTOMS_PATH)
        if h.get("private_terrain_waiver"):
            mountain[coord] = h["private_terrain_waiver"]["company"]
        hexes[coord] = entry

    homes: dict[str, list[Any]] = {}
    for coord, owners in src["home_hexes"].items():
        for o in owners:
            sym = o["corp"] if not o["corp"].isdigit() else f"L{o['corp']}"
            homes[sym] = [coord, int(o["city_index"] or 0)]
    for sym, (coord, node) in homes.items():
        assert hexes[coord]["nodes"][node]["kind"] == "city", sym
    wien = next(c for c, h in hexes.items() if "W" in h.get("labels", ()))
    for coord, corp in SHIELDED.items():
        assert coord in src["hexes"][wien]["neighbors"].values(), coord
        edge = next(int(e) for e, nb in src["hexes"][wien]["neighbors"].items() if nb == coord)
        node = next(int(p[1][1:]) for p in hexes[wien]["paths"] if p[0] == f"e{edge}")
        assert homes[corp] == [wien, node], (coord, corp)

    return {
        "schema": "tresham.board/1",
        "title": "1854",
        "layout": "pointy",
        "phases": PHASES,
        "hexes": {c: hexes[c] for c in sorted(hexes, key=row_col)},
        "homes": dict(sorted(homes.items())),
        "local_map": sorted(src["boards"]["local_railways_map"], key=row_col),
        "wien": wien,
        "regroup_labels": ["W"],  # §5.3: Wien's W tiles change its number of cities (W1)
        "one_city_hexes": [wien, "J38"],  # §5.6: Wien, Sankt Pölten on the extra map (W2)
        "shielded": SHIELDED,
        "tunnel_only": tunnel_only,
        "customs": customs,
        "mountain_railways": dict(sorted(mountain.items())),
        "orient_express_starts": ORIENT_EXPRESS_STARTS,
        "lokalbahn_homes": list(src["lokalbahn_home_hexes"]),
        "major_stations_from_phase": MAJOR_STATIONS_FROM_PHASE,
        "orient_express_gateways": GATEWAYS,
        "major_local_home_tiles": MLR_HOME_TILES,
    }


def _original_node(raw: dict[str, Any], hex_src: dict[str, Any], area: dict[str, Any]) -> Any:
    """A node of the original board. A medium-sized city is a small city (a town) until it is
    promoted (§5.3, ruling D6); D28, the second hex of the Budapest area, pays Budapest's
    value (ruling D7)."""
    if raw["type"] == "medium_city":
        raw = {**raw, "type": "town"}
    if raw.get("revenue", 0) is None:
        return dict(area["Budapest"])
    return _node(raw, hex_src, ORIGINAL_PHASE)


def build_original_board(src: dict[str, Any], revised: dict[str, Any]) -> dict[str, Any]:
    """The original edition's two maps (1854-original.json), in board.json's schema."""
    assert src["coordinate_system"]["layout"] == "pointy"
    tunnel_only = sorted(src["tunnel_only_hexes"], key=row_col)
    names = {p["name"]: p["sym"] for p in PRIVATES}
    area: dict[str, Any] = {}
    for h in src["hexes"].values():
        if h["location_name"] == "Budapest" and h["color"] == "red":
            area["Budapest"] = _node(h["nodes"][0], h, ORIGINAL_PHASE)
    hexes: dict[str, Any] = {}
    customs: dict[str, int] = {}
    for coord, h in src["hexes"].items():
        raw = sorted(h["nodes"], key=lambda n: n["ref"])
        assert [n["ref"] for n in raw] == list(range(len(raw))), coord
        costs = {int(t["cost"]) for t in h["terrain"]}
        assert len(costs) <= 1, coord
        # Ruling D2: the tunnel spaces are grey spaces where only tunnels may be built.
        color = "gray" if h["tunnel_only"] else h["color"]
        assert color in ("white", "yellow", "gray", "red"), coord
        entry: dict[str, Any] = {"color": color}
        if h.get("location_name"):
            entry["name"] = h["location_name"]
        entry["terrain_cost"] = costs.pop() if costs else 0
        if terrain := sorted({t for x in h["terrain"] for t in x["terrain"]}):
            entry["terrain"] = terrain
        if raw:
            entry["nodes"] = [_original_node(n, h, area) for n in raw]
            if h["color"] == "red":  # §5.7: foreign connections are termini (ruling D5)
                for n in entry["nodes"]:
                    n["kind"] = "offboard"
        paths = [[_end(p["a"]), _end(p["b"]), p.get("track", "standard")] for p in h["paths"]]
        if paths:
            entry["paths"] = paths
        if h["labels"]:
            entry["labels"] = list(h["labels"])
        for sign in h["customs"]:
            a, b = sign["path_edges"]
            index = next(i for i, p in enumerate(paths) if {p[0], p[1]} == {f"e{a}", f"e{b}"})
            customs[coord] = index
        hexes[coord] = entry
    homes: dict[str, list[Any]] = {}
    for coord, owners in src["home_hexes"].items():
        for o in owners:
            sym = o["corp"] if not o["corp"].isdigit() else f"L{o['corp']}"
            homes[sym] = [coord, int(o["city_index"] or 0)]
    assert homes == revised["homes"], "the original board keeps every home"
    for sym, (coord, node) in homes.items():
        assert hexes[coord]["nodes"][node]["kind"] == "city", sym
    wien = next(c for c, h in hexes.items() if "W" in h.get("labels", ()))
    shielded = {c: corps[0] for c, corps in sorted(src["shields"].items())}
    assert shielded == SHIELDED, shielded
    mountain = {c: names[m["company"]] for c, m in src["mountain_railway_hexes"].items()}
    medium = sorted((m["hex"] for m in src["medium_cities"]), key=row_col)
    doubles = sorted(
        (c for c, h in src["hexes"].items() if h["color"] == "white" and len(h["towns"]) == 2),
        key=row_col,
    )
    promotions: dict[str, list[str]] = {t: [c] for t, c in MEDIUM_PROMOTIONS.items()}
    promotions.update({t: DOUBLE_CITY_TILES for t in DOUBLE_TOWN_TILES})
    promotions[SANKT_POELTEN] = SANKT_POELTEN_TILES
    return {
        "schema": "tresham.board/1",
        "title": "1854",
        "edition": "original",
        "layout": "pointy",
        "phases": PHASES,
        "hexes": {c: hexes[c] for c in sorted(hexes, key=row_col)},
        "homes": dict(sorted(homes.items())),
        "local_map": sorted(src["boards"]["local_railways_map"], key=row_col),
        "wien": wien,
        "regroup_labels": ["W"],
        "one_city_hexes": [wien, SANKT_POELTEN],
        "shielded": shielded,
        "tunnel_only": tunnel_only,
        "customs": dict(sorted(customs.items(), key=lambda kv: row_col(kv[0]))),
        "mountain_railways": dict(sorted(mountain.items())),
        "orient_express_starts": ORIENT_EXPRESS_STARTS_ORIGINAL,
        "orient_express_gateways": GATEWAYS_ORIGINAL,
        "major_stations_from_phase": MAJOR_STATIONS_FROM_PHASE,
        "major_local_home_tiles": MLR_HOME_TILES_ORIGINAL,
        "medium_cities": medium,
        "double_cities": doubles,
        "promotions": promotions,
    }


def build_original_tiles(src: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The original set's manifest (§1.1: 125 tiles) and the definitions the catalogue lacks.
    The 13 transparent tunnel tiles have the colour ``tunnel`` (they are never laid as tiles:
    a tunnel is overlay track, ``t1854/tunnels.py``)."""
    catalogue = json.loads(CATALOGUE.read_text("utf-8"))["tiles"]
    manifest = {k: int(v) for k, v in src["tile_manifest"].items()}
    assert sum(manifest.values()) == 125 == src["tile_manifest_total"]
    extra: dict[str, Any] = {}
    for tid, t in src["tiles_not_in_tiles_json"].items():
        entry: dict[str, Any] = {"color": t["color"]}
        if t["nodes"]:
            entry["nodes"] = [
                {"kind": n["type"], "revenue": n["revenue"], "slots": n["slots"]}
                if n["type"] == "city"
                else {"kind": n["type"], "revenue": n["revenue"]}
                for n in t["nodes"]
            ]
        paths = []
        for p in t["paths"]:
            path = [_end(p["a"]), _end(p["b"]), "standard"]  # tunnels: 1854-found-facts §4.4
            if path not in paths:
                paths.append(path)
        entry["paths"] = paths
        extra[tid] = entry
    missing = [k for k in manifest if k not in catalogue and k not in extra]
    assert not missing, missing
    colours = {k: (extra.get(k) or catalogue[k])["color"] for k in manifest}
    totals: dict[str, int] = {}
    for k, n in manifest.items():
        totals[colours[k]] = totals.get(colours[k], 0) + n
    assert totals == src["tile_manifest_totals_by_color"], totals
    return (
        {"schema": "tresham.manifest/1", "title": "1854", "tiles": manifest},
        {
            "schema": "tresham.tiles/1",
            "tiles": dict(sorted(extra.items(), key=lambda kv: int(kv[0]))),
        },
    )


def build_manifest(src: dict[str, Any]) -> dict[str, Any]:
    catalogue = json.loads(CATALOGUE.read_text("utf-8"))["tiles"]
    tiles = {k: int(v) for k, v in src["tile_manifest"].items()}
    assert all(k in catalogue for k in tiles), [k for k in tiles if k not in catalogue]
    assert sum(tiles.values()) == src["tile_manifest_total"]
    return {"schema": "tresham.manifest/1", "title": "1854", "tiles": tiles}


def build_game(src: dict[str, Any], board: dict[str, Any]) -> dict[str, Any]:
    privates = [dict(p) for p in PRIVATES]
    for p in privates:
        if p["kind"] == "mountain":
            assert board["mountain_railways"].get(p["hex"], p["sym"]) == p["sym"], p
        else:
            p["home"] = board["homes"][p["sym"]]
    by_name = {c["sym"]: c for c in src["corporations"] if c["type"] == "major"}
    majors = []
    for sym, name, city, stations in MAJORS:
        coord, node = board["homes"][sym]
        assert board["hexes"][coord]["name"].startswith(city), (sym, coord)
        assert by_name[sym]["name"] == name and len(by_name[sym]["tokens"]) == stations, sym
        majors.append(
            {
                "sym": sym,
                "name": name,
                "home": [coord, node],
                "token_costs": STATION_COSTS[:stations],
                "shares": [40, 20, 20, 20],  # §2.4
                "split_shares": [10] * 5,  # §2.4: set aside until the split (§3.2.1)
            }
        )
    mlrs = [
        {"sym": s, "name": f"Major Local Railway {s[-1]}", "shares": [50, 50],
         "token_costs": MLR_STATION_COSTS, "start_price": MLR_START_PRICE,
         "homes": MLR_HOMES}
        for s in ("MLA", "MLB", "MLC")
    ]  # fmt: skip
    return {
        "schema": "tresham.game1854/1",
        "bank": BANK,
        "starting_cash": STARTING_CASH,
        "share_limits": SHARE_LIMITS,
        "par_prices": PAR_PRICES,
        "float_percent": 60,
        "capital_times_par": 10,
        "bid_step": 5,
        "privates": privates,
        "majors": majors,
        "local_railways": {
            "start_cash": src["mergers"]["minor_start_cash"],
            "token_costs": LOCAL_STATION_COSTS,
        },
        "major_local_railways": mlrs,
        "trains": TRAINS,
        "phases": PHASE_ROWS,
        "mail_contracts": MAIL_CONTRACTS,
        "tunnels": TUNNELS,
        "value_colour": VALUE_COLOUR,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    src = json.loads((args.shared / "reference/1854.json").read_text("utf-8"))
    board = build_board(src)
    manifest = build_manifest(src)
    game = build_game(src, board)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "board.json").write_text(dump(board, ("hexes",)), "utf-8")
    (OUT / "manifest.json").write_text(dump(manifest, ("tiles",)), "utf-8")
    big = ("privates", "majors", "trains", "phases", "mail_contracts", "major_local_railways")
    (OUT / "game.json").write_text(dump(game, big), "utf-8")
    original = json.loads((args.shared / "reference/1854-original.json").read_text("utf-8"))
    board_o = build_original_board(original, board)
    manifest_o, tiles_o = build_original_tiles(original)
    (OUT / "board_original.json").write_text(dump(board_o, ("hexes",)), "utf-8")
    (OUT / "manifest_original.json").write_text(dump(manifest_o, ("tiles",)), "utf-8")
    (OUT / "tiles_original.json").write_text(dump(tiles_o, ("tiles",)), "utf-8")
    print(
        f"wrote board.json ({len(board['hexes'])} hexes), manifest.json, game.json, "
        f"board_original.json ({len(board_o['hexes'])} hexes), manifest_original.json "
        f"({sum(manifest_o['tiles'].values())} tiles), tiles_original.json"
    )


if __name__ == "__main__":
    main()
