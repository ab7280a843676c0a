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
