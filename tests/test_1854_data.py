"""1854's data files against the rulebook (shared/rules/1854-rulebook.txt) and the shared
reference facts. Each test names the paragraph it checks; where the rulebook is lossy the
reconstruction (shared/reference/rule-details/1854-missing-rules.md) and docs/rulings/1854.md
say what was chosen."""

from __future__ import annotations

import json
from collections import deque
from importlib import resources
from typing import Any

import pytest

from shared_files import REFERENCE_1854, needs_shared
from tresham.core.board import BoardDef
from tresham.core.tiles import load_catalogue, opposite

PKG = "tresham.titles.t1854"
BOARD = BoardDef.from_package(PKG)


def _load(name: str) -> Any:
    return json.loads(resources.files(PKG).joinpath(f"data/{name}").read_text("utf-8"))


GAME = _load("game.json")
MANIFEST = _load("manifest.json")


def _named(name: str) -> str:
    (coord,) = [c for c, h in BOARD.hexes.items() if h.name == name]
    return coord


# ------------------------------------------------------------------ §1.1, §2.3, §6.5
def test_bank_is_the_money_listed_in_the_components() -> None:
    # 1854 §1.1: 24x1, 24x2, 24x5, 36x10, 36x20, 24x50, 24x100, 24x200 = 9672 Gulden
    notes = {1: 24, 2: 24, 5: 24, 10: 36, 20: 36, 50: 24, 100: 24, 200: 24}
    assert GAME["bank"] == sum(v * n for v, n in notes.items()) == 9672


def test_starting_capital_table_1() -> None:
    # 1854 §2.3 Table 1
    assert GAME["starting_cash"] == {"3": 860, "4": 650, "5": 525, "6": 450}


def test_share_limits_table_7() -> None:
    # 1854 §6.5 Table 7: rows 3-6 players, columns 0-8 companies split; more splits, more room
    limits = GAME["share_limits"]
    assert sorted(limits) == ["3", "4", "5", "6"]
    assert limits["3"][0] == 10 and limits["3"][8] == 24
    assert limits["6"] == [5, 6, 7, 7, 8, 9, 10, 11, 12]
    for row in limits.values():
        assert len(row) == 9
        assert row == sorted(row)
    # fewer players, more certificates
    for column in range(9):
        assert [limits[n][column] for n in "3456"] == sorted(
            (limits[n][column] for n in "3456"), reverse=True
        )


# ------------------------------------------------------------------ §3.1 Table 2, §4
def test_eleven_private_certificates_in_table_2_order() -> None:
    # 1854 §3.1 Table 2 and §4 ("the order as given in Table 2")
    privates = GAME["privates"]
    assert [p["name"] for p in privates] == [
        "Außerfernbahn",
        "Murtalbahn",
        "Graz-Köflacher Bahn",
        "Mariazellerbahn",
        "Kernhofer Bahn",
        "Ybbstaler Bahn",
        "Steyrtalbahn",
        "Pyhrnbahn",
        "Salzkammergutbahn",
        "Arlbergbahn",
        "Semmeringbahn",
    ]
    assert [p["value"] for p in privates] == [20, 50, 70, *[150] * 6, 170, 190]
    mountain = [p for p in privates if p["kind"] == "mountain"]
    assert [(p["value"], p["revenue"]) for p in mountain] == [
        (20, 5),
        (50, 10),
        (70, 15),
        (170, 20),
        (190, 25),
    ]
    assert [p["number"] for p in privates if p["kind"] == "local"] == [1, 2, 3, 4, 5, 6]


def test_mountain_railway_powers_and_shares() -> None:
    # 1854 §3.1 Table 2: mountain 20 G cheaper, tunnel 40 G cheaper, Graz +10 G; the
    # Arlbergbahn brings a 20% VB share and the Semmeringbahn a 20% SD share, each closing
    # when that company first runs
    by = {p["name"]: p for p in GAME["privates"]}
    assert by["Außerfernbahn"]["power"] == {"mountain_discount": 20}
    assert by["Murtalbahn"]["power"] == {"tunnel_discount": 40}
    graz = by["Graz-Köflacher Bahn"]["power"]["route_bonus"]
    assert graz["amount"] == 10 and BOARD.hex(graz["hex"]).name == "Graz"
    assert by["Arlbergbahn"]["share"] == {"corporation": "VB", "percent": 20}
    assert by["Semmeringbahn"]["share"] == {"corporation": "SD", "percent": 20}
    assert by["Arlbergbahn"]["closes_when_runs"] == "VB"
    assert by["Semmeringbahn"]["closes_when_runs"] == "SD"


def test_mountain_railways_stand_on_mountain_hexes() -> None:
    # 1854 §5.3: hexes containing Mountain Railways cost their printed price to others
    railways = BOARD.extra["mountain_railways"]
    by_sym = {p["sym"]: p for p in GAME["privates"]}
    assert len(railways) == 5
    for coord, sym in railways.items():
        assert by_sym[sym]["hex"] == coord
        h = BOARD.hex(coord)
        assert h.terrain_cost > 0 and h.name == by_sym[sym]["name"]


# ------------------------------------------------------------------ §3.2 Table 3, §2.4
def test_majors_table_3_homes_and_stations() -> None:
    # 1854 §3.2 Table 3
    expected = {
        "Kaiserin Elisabeth-Westbahn": ("Wien & Vienna", 4),
        "Kaiser Franz Joseph-Bahn": ("Wien & Vienna", 3),
        "Südbahn": ("Wien & Vienna", 4),
        "Kronprinz Rudolf-Bahn": ("Linz", 4),
        "Kärntner Bahn": ("Klagenfurt", 3),
        "Salzburger Bahn": ("Salzburg", 3),
        "Nordtiroler Staatsbahn": ("Innsbruck", 4),
        "Vorarlberger Bahn": ("Bregenz", 3),
    }
    got = {m["name"]: (BOARD.hex(m["home"][0]).name, len(m["token_costs"])) for m in GAME["majors"]}
    assert got == expected
    wien = [m["home"] for m in GAME["majors"] if m["home"][0] == BOARD.extra["wien"]]
    assert sorted(node for _, node in wien) == [0, 1, 2]  # one Wien city each


def test_major_certificates_and_station_costs() -> None:
    # 1854 §2.4: a 40% Director's share and three 20% shares; five 10% shares set aside
    # 1854 §5.5: the first extra station 50 G, the second 100 G, a third 150 G
    for m in GAME["majors"]:
        assert m["shares"] == [40, 20, 20, 20]
        assert m["split_shares"] == [10] * 5
        assert sum(m["shares"]) == 100 == sum(m["split_shares"]) * 2
        assert m["token_costs"] == [0, 50, 100, 150][: len(m["token_costs"])]


def test_par_prices_and_floating() -> None:
    # 1854 §4 / §6.4: 67, 72, 77, 82, 87, 93 (the dark spaces); §6.6: 60% floats, 10 x par
    assert GAME["par_prices"] == [67, 72, 77, 82, 87, 93]
    market = _load("market.json")
    par = sorted(c["price"] for row in market["rows"] for c in row if c and "par" in c["tags"])
    assert par == GAME["par_prices"]
    assert GAME["float_percent"] == 60 and GAME["capital_times_par"] == 10


def test_local_and_major_local_railways() -> None:
    # 1854 §5.5: local railways' extra stations cost 40 G, Major Local Railways' 50 G;
    # 1854 §6 / §6.6.1: a Major Local Railway's certificate is 50%
    assert GAME["local_railways"]["token_costs"] == [0, 40]
    assert [m["sym"] for m in GAME["major_local_railways"]] == ["MLA", "MLB", "MLC"]
    for m in GAME["major_local_railways"]:
        assert m["shares"] == [50, 50] and m["token_costs"] == [0, 50]
    # every local railway's home is a city on the extra map (§5.3)
    for p in GAME["privates"]:
        if p["kind"] == "local":
            coord, node = p["home"]
            assert coord in BOARD.extra["local_map"]
            assert BOARD.hex(coord).tile.nodes[node].kind == "city"
    # Mariazellerbahn and Kernhofer Bahn share Sankt Pölten's two cities (§5.6)
    homes = {p["number"]: tuple(p["home"]) for p in GAME["privates"] if p["kind"] == "local"}
    assert homes[1][0] == homes[2][0] == _named("Sankt Pölten") and homes[1] != homes[2]


# ------------------------------------------------------------------ §5.9 Table 4, §5.10
def test_trains_table_4() -> None:
    # 1854 §5.9 Table 4, and "there are 5 of each" 8-train and Orient Express
    got = {t["name"]: (t["count"], t["price"]) for t in GAME["trains"]}
    assert got == {
        "2": (6, 100),
        "3": (5, 200),
        "4": (4, 320),
        "5": (3, 530),
        "6": (2, 670),
        "8": (5, 900),
        "OE": (5, 1000),
        "1+": (6, 80),
        "2+": (4, 120),
        "3+": (3, 160),
    }
    assert next(t for t in GAME["trains"] if t["name"] == "OE")["distance"] == 8  # §5.6
    assert {t["name"] for t in GAME["trains"] if t.get("plus")} == {"1+", "2+", "3+"}


def test_obsolete_trains_table_5() -> None:
    # 1854 §5.10 Table 5 "Obsolete Trains": 2 and 1+ at 4, 2+ at 5, 3 and 3+ at 6, 4 at 8
    rusts = {t["name"]: t.get("rusts_on") for t in GAME["trains"]}
    assert rusts == {
        "2": "4",
        "1+": "4",
        "2+": "5",
        "3": "6",
        "3+": "6",
        "4": "8",
        "5": None,
        "6": None,
        "8": None,
        "OE": None,
    }
    for phase in GAME["phases"]:
        scrapped = sorted(n for n, on in rusts.items() if on == phase["name"])
        available_plus = set(phase["plus_trains"])
        assert not available_plus & set(scrapped)


def test_phases_table_5() -> None:
    # 1854 §5.10 Table 5
    phases = GAME["phases"]
    assert [p["name"] for p in phases] == ["2", "3", "4", "5", "6", "8"]
    assert [p["on"] for p in phases] == [None, "3", "4", "5", "6", "8"]
    assert phases[-1]["also_on"] == "OE"  # the first 8-train or the first Orient Express
    assert [p["operating_rounds"] for p in phases] == [1, 2, 2, 3, 3, 3]
    assert [p["train_limit"]["major"] for p in phases] == [4, 4, 3, 2, 2, 2]
    assert [p["train_limit"].get("local") for p in phases] == [2, 2, 1, 1, None, None]
    assert [p["train_limit"].get("major_local") for p in phases] == [None] * 3 + [2, 2, 2]
    assert [len(p["tiles"]) for p in phases] == [1, 2, 2, 3, 3, 4]
    assert [p["plus_trains"] for p in phases] == [
        ["1+"],
        ["1+", "2+", "3+"],
        ["2+", "3+"],
        ["3+"],
        [],
        [],
    ]


def test_mail_contracts_table_6() -> None:
    # 1854 §5.12 Table 6 (and Table 5's mail rows); §1.1: 12 Mail Contracts
    mail = {m["cost"]: m for m in GAME["mail_contracts"]}
    assert sum(m["count"] for m in mail.values()) == 12
    assert [mail[100]["income"][p] for p in ["2", "3", "4", "5", "6", "8"]] == [
        10,
        20,
        20,
        40,
        40,
        60,
    ]
    assert [mail[200]["income"][p] for p in ["2", "3", "4", "5", "6", "8"]] == [
        20,
        30,
        30,
        50,
        50,
        80,
    ]


def test_tunnels() -> None:
    # 1854 §1.1: 13 transparent tiles; §5.3.1: a tunnel costs 100 G
    assert GAME["tunnels"] == {"count": 13, "cost": 100}


# ------------------------------------------------------------------ the boards (§5.3)
def test_board_sizes_and_the_two_maps_do_not_touch() -> None:
    # 1854 §5.3: the Local Railways build on the extra map, separate from the main map
    local = set(BOARD.extra["local_map"])
    assert len(BOARD.hexes) == 100 and len(local) == 25
    for coord in BOARD:
        for nb in BOARD.neighbors(coord).values():
            assert (coord in local) == (nb in local), (coord, nb)


@pytest.fixture
def reference() -> Any:
    """The shared reference facts of 1854 (../shared beside the checkout)."""
    return json.loads(REFERENCE_1854.read_text("utf-8"))


@needs_shared(REFERENCE_1854)
def test_board_matches_the_reference(reference: Any) -> None:
    # the shared reference's hexes, costs and preprinted track, edge for edge
    for coord, ref in reference["hexes"].items():
        h = BOARD.hex(coord)
        costs = [t["cost"] for t in ref["terrain"]]
        assert h.terrain_cost == (costs[0] if costs else 0), coord
        assert len(h.tile.paths) == len(ref["paths"]), coord
        assert sorted(tuple(sorted(p.edges)) for p in h.tile.paths) == sorted(
            tuple(sorted(e["edge"] for e in (p["a"], p["b"]) if "edge" in e)) for p in ref["paths"]
        ), coord


def test_preprinted_track_exits_match_their_neighbours() -> None:
    # every edge a grey or red hex's printed track leaves by leads onto the map, except
    # the foreign connections that point off it (§5.3 "black arrowhead")
    for coord, h in BOARD.hexes.items():
        if h.color != "gray":
            continue
        for path in h.tile.paths:
            for edge in path.edges:
                nb = BOARD.neighbor(coord, edge)
                assert nb is not None, (coord, edge)
                other = BOARD.hex(nb)
                if other.fixed and other.tile.paths:
                    assert any(opposite(edge) in p.edges for p in other.tile.paths), coord


def test_wien_w_tiles_and_shielded_hexes() -> None:
    # 1854 §5.3: only tiles marked W (433, 451, 456) on Wien; the three shielded hexes
    # beside Wien need the permission of "the appropriate company" (ruling D3)
    wien = BOARD.extra["wien"]
    assert BOARD.hex(wien).name.startswith("Wien") and BOARD.hex(wien).tile.labels == ("W",)
    catalogue = load_catalogue()
    w_tiles = sorted(t for t, d in catalogue.items() if "W" in d.labels and t in MANIFEST["tiles"])
    assert w_tiles == ["433", "451", "456"]
    shielded = BOARD.extra["shielded"]
    assert len(shielded) == 3
    homes = {m["sym"]: tuple(m["home"]) for m in GAME["majors"]}
    for coord, corp in shielded.items():
        edge = BOARD.edge_between(wien, coord)
        assert edge is not None
        (path,) = [p for p in BOARD.hex(wien).tile.paths if edge in p.edges]
        assert homes[corp] == (wien, path.nodes[0])


def test_foreign_connections_values_by_phase() -> None:
    # 1854 §5.7 and Table 5: yellow value in phase 2, green in 3-4, brown in 5-6, grey in 8
    prag = BOARD.hex(_named("Prag")).tile.nodes[0]
    assert [prag.revenue_in(p) for p in ["2", "3", "4", "5", "6", "8"]] == [20, 30, 30, 50, 50, 50]
    reds = [h for h in BOARD.hexes.values() if h.color == "red"]
    assert len(reds) == 14
    for h in reds:
        assert all(n.kind == "offboard" for n in h.tile.nodes), h.coord


def test_orient_express_ends_and_customs() -> None:
    # 1854 §5.6: the Orient Express may start from Paris or Constantinople; a route through
    # Germany (the customs sign) earns 10 G less
    starts = BOARD.extra["orient_express_starts"]
    assert {BOARD.hex(c).name for c in starts} == {"Paris", "Konstantinopel"}
    for coord in starts:
        assert BOARD.hex(coord).tile.nodes[0].revenue == 90
    ((coord, index),) = BOARD.extra["customs"].items()
    assert BOARD.hex(coord).name == "München"
    path = BOARD.hex(coord).tile.paths[index]
    assert not path.nodes and len(path.edges) == 2  # a through track, not a stop


def test_tunnel_only_hexes_take_no_tile() -> None:
    # 1854 §5.3: "Only tunnels may be built on the grey spaces" (ruling D2)
    only = BOARD.extra["tunnel_only"]
    assert len(only) == 8
    assert all(BOARD.hex(c).fixed for c in only)


def test_stations_in_sankt_poelten_and_steyr_from_phase_6() -> None:
    # 1854 §5.5
    gated = BOARD.extra["major_stations_from_phase"]
    assert set(gated.values()) == {"6"}
    names = " ".join(BOARD.hex(c).name for c in gated)
    assert "Sankt Pölten" in names and "Steyr" in names


# ------------------------------------------------------------------ tiles
@needs_shared(REFERENCE_1854)
def test_manifest_tiles_exist_and_match_the_reference(reference: Any) -> None:
    # ruling D4: the per-tile counts are the reference's (the rulebook gives only totals)
    catalogue = load_catalogue()
    tiles = MANIFEST["tiles"]
    assert all(t in catalogue for t in tiles)
    assert sum(tiles.values()) == reference["tile_manifest_total"]
    by_colour: dict[str, int] = {}
    for t, n in tiles.items():
        by_colour[catalogue[t].color] = by_colour.get(catalogue[t].color, 0) + n
    assert by_colour == reference["tile_manifest_totals_by_color"]


def test_tiles_the_rulebook_names() -> None:
    # 1854 §5.3: small cities take the crossbar tiles 3, 4, 58; two small towns take 1, 2,
    # 55, 56, 69. (The rulebook's 442, 444 and 457-464 are in no source we hold: ruling D4.)
    catalogue = load_catalogue()
    for t in ["1", "2", "55", "56", "69"]:
        assert t in MANIFEST["tiles"]
        assert catalogue[t].town_count == 2 and catalogue[t].color == "yellow"
    for t in ["3", "4", "58"]:
        assert t in MANIFEST["tiles"]
        assert catalogue[t].town_count == 1 and catalogue[t].color == "yellow"


def test_main_map_is_connected() -> None:
    # every main-map hex can be reached from Wien across hex edges (the map is one piece)
    local = set(BOARD.extra["local_map"])
    main = [c for c in BOARD if c not in local]
    seen = {BOARD.extra["wien"]}
    todo = deque(seen)
    while todo:
        for nb in BOARD.neighbors(todo.popleft()).values():
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    assert seen == set(main)


# ------------------------------------------------------------------ the original edition (D6-D9)
# New games (rules version 4) play the original (2002) board and tile set: the rulebook's own
# edition. tests/test_1854_original_board.py compares its board hex by hex; these check the rest
# of its data against §1.1, Tables 4-6 and shared/reference/1854-original.json.
ORIGINAL_MANIFEST = _load("manifest_original.json")["tiles"]
ORIGINAL_TILES = _load("tiles_original.json")["tiles"]
REFERENCE_ORIGINAL = REFERENCE_1854.with_name("1854-original.json")


def _original_catalogue() -> dict[str, Any]:
    path = str(resources.files(PKG).joinpath("data/tiles_original.json"))
    return {**load_catalogue(), **load_catalogue(path)}


def test_the_original_set_is_the_125_tiles_of_1_1() -> None:
    # 1854 §1.1: "125 tiles: 48 yellow, 40 green, 18 brown, 6 grey, 13 transparent" (ruling D4,
    # D9): the original set, every tile of it in the catalogue or the title's own tiles
    catalogue = _original_catalogue()
    assert all(t in catalogue for t in ORIGINAL_MANIFEST)
    by_colour: dict[str, int] = {}
    for t, n in ORIGINAL_MANIFEST.items():
        by_colour[catalogue[t].color] = by_colour.get(catalogue[t].color, 0) + n
    assert by_colour == {"yellow": 48, "green": 40, "brown": 18, "gray": 6, "tunnel": 13}
    assert sum(ORIGINAL_MANIFEST.values()) == 125
    # only the set's own tiles come from tiles_original.json, none replaces a catalogue tile
    assert set(ORIGINAL_TILES) <= set(ORIGINAL_MANIFEST)
    assert not set(ORIGINAL_TILES) & set(load_catalogue())


def test_the_original_tunnels_are_4_straight_5_gentle_4_sharp() -> None:
    # 1854 §1.1: 13 transparent tiles; ruling D9: 467 straight x4, 468 gentle x5, 469 sharp x4,
    # one track each from edge to edge, no station
    catalogue = _original_catalogue()
    shapes = {}
    for t in ("467", "468", "469"):
        tile = catalogue[t]
        assert tile.color == "tunnel" and not tile.nodes and len(tile.paths) == 1
        a, b = sorted(tile.exits(0))
        shapes[t] = (min(b - a, 6 - (b - a)), ORIGINAL_MANIFEST[t])
    assert shapes == {"467": (3, 4), "468": (2, 5), "469": (1, 4)}


def test_the_original_tiles_the_rulebook_names() -> None:
    # 1854 §5.3: small and medium-sized cities take 3, 4, 58; double small cities 1, 2, 55, 56,
    # 69; Wien only the W tiles 433, 451, 456; §5.4: medium cities go green on 441-444 (one city
    # of two spaces, ruling C2), double small cities on 457-464 (two cities of one space worth
    # 20, ruling C4); Sankt Pölten on 442 or 444 (ruling C5)
    catalogue = _original_catalogue()
    named = ["1", "2", "3", "4", "23", "24", "55", "56", "58", "69", "433", "442", "444"]
    named += ["451", "456"] + [str(n) for n in range(457, 465)]
    assert all(t in ORIGINAL_MANIFEST for t in named)
    for t in ("441", "442", "443", "444"):
        (city,) = catalogue[t].nodes
        assert catalogue[t].color == "green" and (city.kind, city.slots) == ("city", 2)
    for t in (str(n) for n in range(457, 465)):
        tile = catalogue[t]
        assert tile.color == "green" and len(tile.nodes) == 2
        assert all((n.kind, n.slots, n.revenue) == ("city", 1, 20) for n in tile.nodes)
    for t in ("433", "451", "456"):
        assert "W" in catalogue[t].labels


@needs_shared(REFERENCE_ORIGINAL)
def test_the_original_manifest_and_tiles_match_the_reference() -> None:
    # ruling D9: 18xx-maker's list of the original set, tile by tile, and the title's own tiles
    # drawn as 1854-original.json gives them (nodes and track, edge for edge)
    ref = json.loads(REFERENCE_ORIGINAL.read_text("utf-8"))
    assert ref["tile_manifest"] == ORIGINAL_MANIFEST
    assert ref["tile_manifest_check"]["pass"] and ref["tile_manifest_total"] == 125
    assert set(ORIGINAL_TILES) == set(ref["tiles_not_in_tiles_json"])
    for number, tile in ORIGINAL_TILES.items():
        want = ref["tiles_not_in_tiles_json"][number]
        assert tile["color"] == ("tunnel" if want["color"] == "none" else want["color"]), number
        nodes = [(n["type"], n["revenue"], n.get("slots")) for n in want["nodes"]]
        got = [(n["kind"], n["revenue"], n.get("slots")) for n in tile.get("nodes", [])]
        assert got == nodes, number

        def end(e: dict[str, int]) -> str:
            return f"e{e['edge']}" if "edge" in e else f"n{e['node']}"

        paths = sorted(tuple(sorted((p[0], p[1]))) for p in tile["paths"])
        wanted = sorted(tuple(sorted((end(p["a"]), end(p["b"])))) for p in want["paths"])
        assert paths == wanted, number


@needs_shared(REFERENCE_ORIGINAL)
def test_trains_and_phases_are_the_original_editions() -> None:
    # 1854 Tables 4-6, §5.5, §5.9, §5.10: every train, phase and cost the reference lists as
    # differing between the editions has the original (rulebook) value; both editions share
    # game.json, so rules versions 1-3 played these too
    ref = json.loads(REFERENCE_ORIGINAL.read_text("utf-8"))
    diff = {d["item"]: d["original"] for d in ref["trains_phases_companies_differences"]}
    trains = {t["name"]: t for t in GAME["trains"]}
    phases = {p["name"]: p for p in GAME["phases"]}
    assert trains["1+"]["price"] == diff["1+ train price"] == 80
    assert trains["8"]["count"] == diff["8-train count"] == 5
    oe = trains["OE"]
    assert (oe["count"], oe["price"], oe["distance"]) == (5, 1000, 8)
    assert diff["Orient Express"].startswith("own train type, 5 at 1000 G, range 8")
    assert trains["2+"]["rusts_on"] == "5" and "Phase 5" in diff["2+ train scrapped"]
    assert trains["4"]["rusts_on"] == "8" and "Phase 8" in diff["4-train scrapped"]
    assert trains["2"]["rusts_on"] == "4"  # "scrapped for majors" (Phase 4), ruling ML7
    assert list(phases)[-1] == diff["last phase name"] == "8"
    assert phases["8"]["also_on"] == "OE"
    assert phases["5"]["train_limit"]["local"] == diff["Local Railway train limit in Phase 5"]
    assert [p["train_limit"].get("major_local") for p in phases.values()] == [None] * 3 + [2] * 3
    assert diff["Major Local Railway train limit"].startswith("2 (Phases 5, 6, 8")
    mail = {m["cost"]: m["income"] for m in GAME["mail_contracts"]}
    for cost, values in (("100", mail[100]), ("200", mail[200])):
        printed = "/".join(str(v) for v in values.values())
        assert f"{cost} G: {printed}" in diff["mail contract income"]
    assert all(m["token_costs"] == [0, 50] for m in GAME["major_local_railways"])
    assert diff["Major Local Railway station cost"] == 50
    assert GAME["float_percent"] == 60 and GAME["bank"] == 9672
