"""Consistency of 1883's reconstructed data: board, market, game facts, special tiles.

Each test names the rulebook paragraph it checks (shared/rules/1883-rulebook.txt); the
reconstruction itself is justified in docs/rulings/1883.md.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from importlib import resources
from typing import Any

import pytest

from tresham.core.board import BoardDef
from tresham.core.market import Market
from tresham.core.tiles import TileDef, load_catalogue, opposite

PKG = "tresham.titles.t1883"

# Every hex number the rulebook prints, with the place it names (None: an unnamed hex).
# "a/b" numbers are ranges (docs/rulings/1883.md B1): 16/19 = 16..19.
RULEBOOK_NUMBERS: dict[int, str | None] = {
    3: "Ciano d'Enza",
    7: None,
    11: "Castelnovo ne' Monti",
    16: "Reggio Emilia",
    19: "Reggio Emilia",
    20: None,
    25: "Suzzara",
    26: "Suzzara",
    27: "Suzzara",
    31: None,
    32: "Sassuolo",
    33: "Sassuolo",
    41: "Carpi",
    43: "Maranello",
    52: "Modena",
    55: "Modena",
    60: "Poggio Rusco",
    61: "Poggio Rusco",
    62: None,  # T table's Poggio Rusco number: the red-line hex next to it (ruling B3)
    64: "San Felice",
    65: None,
    68: "Vignola",
    73: "Crevalcore",
    74: "Crevalcore",
    76: "Castelfranco",
    77: "Castelfranco",
    84: "Persiceto",
    85: "Persiceto",
    87: None,
    89: "Sasso",
    101: "Casalecchio",
}


def _load(name: str) -> Any:
    return json.loads(resources.files(PKG).joinpath(f"data/{name}").read_text("utf-8"))


@pytest.fixture(scope="module")
def board() -> BoardDef:
    return BoardDef.from_package(PKG)


@pytest.fixture(scope="module")
def game() -> dict[str, Any]:
    data: dict[str, Any] = _load("game.json")
    return data


@pytest.fixture(scope="module")
def market() -> Market:
    return Market.load(PKG, "data/market.json")


@pytest.fixture(scope="module")
def number_hex(board: BoardDef) -> dict[int, str]:
    out: dict[int, str] = {}
    for coord, numbers in board.extra["hex_numbers"].items():
        for n in numbers:
            assert n not in out, f"number {n} on {out[n]} and {coord}"
            out[n] = coord
    return out


def _place(board: BoardDef, name: str) -> str:
    return str(board.extra["names"][name])


# --- the board ---------------------------------------------------------------------------


def test_board_loads_and_says_it_is_a_reconstruction(board: BoardDef) -> None:
    # 1883 §2.3 (the mounted board is not in the rulebook): the file says so at the top.
    assert board.title == "1883"
    assert board.layout == "flat"
    assert "RECONSTRUCTION" in board.extra["note"]
    assert len(board.hexes) == 92


def test_every_rulebook_number_maps_to_exactly_one_hex(
    board: BoardDef, number_hex: dict[int, str]
) -> None:
    # 1883 §2.3 a) several numbers per hex; §11.2 #13 the air raid rolls 00-99.
    for n, place in RULEBOOK_NUMBERS.items():
        assert n in number_hex, n
        if place is not None:
            assert board.hex(number_hex[n]).name == place, n
    # Every number 1..101 is printed exactly once: a roll of 1-99 always names one hex.
    assert sorted(number_hex) == list(range(1, 102))
    # Multi-number hexes take runs of consecutive numbers.
    for numbers in board.extra["hex_numbers"].values():
        assert numbers == list(range(numbers[0], numbers[-1] + 1))


def test_numbers_run_down_columns_west_to_east(board: BoardDef, number_hex: dict[int, str]) -> None:
    # 1883 §2.3 a): the numbering scheme of ruling B1 (consecutive numbers are neighbours
    # in a column, past an off-board box, or the next column starts).
    for n in range(1, 101):
        a, b = board.hex(number_hex[n]), board.hex(number_hex[n + 1])
        if a is b:
            continue
        below = board.adjacent(a.coord, 0) if b.y == a.y + 4 else None
        skips_box = below is not None and board.hex(below).color == "red"
        same_column_next = a.x == b.x and (b.y == a.y + 2 or skips_box)
        next_column = b.x == a.x + 1
        assert same_column_next or next_column, (n, a.coord, b.coord)


def test_preprinted_track_faces_real_hexes(board: BoardDef) -> None:
    # 1883 §6.4.1: no track runs off the grid or ends against a grey hex's blank side.
    for coord, h in board.hexes.items():
        for path in h.tile.paths:
            for edge in path.edges:
                nb = board.adjacent(coord, edge)
                assert nb is not None, (coord, edge)
                other = board.hex(nb)
                if other.color == "gray":
                    gray_edges = {e for p in other.tile.paths for e in p.edges}
                    assert opposite(edge) in gray_edges, (coord, edge, nb)


def test_offboards_have_three_values_and_symbols(board: BoardDef) -> None:
    # 1883 §6.8.5 (low / middle from 3bis / high from 6) and the Glossary (hill/mountain
    # symbols for the 2GT); §3 concessions and §6.7 name the boxes.
    offboards = board.extra["offboards"]
    for name in (
        "Bologna/Firenze",
        "Mantova/Brennero",
        "Verona/Brennero",
        "Parma",
        "Ferrara",
        "Aulla/La Spezia",
    ):
        box = offboards[name]
        h = board.hex(box["hex"])
        assert h.color == "red" and h.name == name
        node = h.tile.nodes[0]
        assert node.kind == "offboard"
        assert box["low"] <= box["middle"] <= box["high"]
        assert node.revenue_in("3") == box["low"]
        assert node.revenue_in("3bis") == node.revenue_in("5") == box["middle"]
        assert node.revenue_in("6") == node.revenue_in("8") == box["high"]
    assert any(b["symbol"] in ("hill", "mountain") for b in offboards.values())


def test_fs_lines_connect_t_cities_to_their_boxes(board: BoardDef) -> None:
    # 1883 §6.7 and Appendix 3 "T" Cities table.
    fs = board.extra["fs"]
    for line in fs["lines"].values():
        for a, b in itertools.pairwise(line):
            assert board.edge_between(a, b) is not None, (a, b)
    table = {
        "Modena": {"Bologna/Firenze", "Mantova/Brennero"},
        "Reggio Emilia": {"Bologna/Firenze"},
        "Castelfranco": {"Bologna/Firenze"},
        "Suzzara": {"Mantova/Brennero"},
        "Poggio Rusco": {"Verona/Brennero"},
        "San Felice": {"Verona/Brennero"},
        "Persiceto": {"Verona/Brennero"},
    }
    seen = {}
    for t in fs["t_cities"]:
        assert board.hex(t["hex"]).name == t["name"]
        assert board.hex(t["hex"]).tile.nodes[t["node"]].kind == "city"
        seen[t["name"]] = set(t["boxes"])
        for box, route in t["boxes"].items():
            assert route[0] == t["hex"] and route[-1] == _place(board, box)
            for a, b in itertools.pairwise(route):
                assert board.edge_between(a, b) is not None, (t["name"], box, a, b)
                # each step follows the printed red track on both hexes
                e = board.edge_between(a, b)
                assert any(e in seg for seg in fs["red_track"][a]), (a, b)
                assert any(opposite(e) in seg for seg in fs["red_track"][b]), (a, b)
    assert seen == table


def test_fs_parma_bologna_list_of_8_1_4(board: BoardDef, number_hex: dict[int, str]) -> None:
    # 1883 §8.1.4: the FS Parma-Bologna track "7-16/19-31-52/55-65-76/77-87", in order on
    # the line (hex 42 is the gray hex the list skips, ruling B6).
    line = board.extra["fs"]["parma_bologna"]
    listed = [number_hex[n] for n in (7, 16, 31, 52, 65, 76, 87)]
    positions = [line.index(c) for c in listed]
    assert positions == sorted(positions)
    assert set(line) - set(listed) == {
        number_hex[42],
        _place(board, "Parma"),
        _place(board, "Bologna/Firenze"),
    }
    assert board.hex(number_hex[42]).color == "gray"
    assert listed == board.extra["fs"]["parma_bologna_8_1_4"]


def test_north_of_fs_line(board: BoardDef, number_hex: dict[int, str]) -> None:
    # 1883 §8.1.3 / §8.3.1: CCFR and SARSA stay on or south of the Parma-Bologna line.
    north = set(board.extra["fs"]["north_of_parma_bologna"])
    for place in ("Suzzara", "Carpi", "Poggio Rusco", "Cento", "Guastalla", "Bagnolo"):
        assert _place(board, place) in north
    for place in ("Ciano d'Enza", "Reggio Emilia", "Modena", "Castelfranco", "Sasso"):
        assert _place(board, place) not in north
    assert number_hex[31] not in north and number_hex[11] not in north


def test_fs_tile_hexes_take_only_fs_tiles(board: BoardDef) -> None:
    # 1883 Appendix 4 FS tiles; ruling T4: FS hexes carry the FS label, red track only.
    cat = load_catalogue()
    fs = board.extra["fs"]
    for coord in fs["tile_hexes"]:
        h = board.hex(coord)
        assert h.color == "white" and h.tile.labels == ("FS",) and not h.tile.paths
        red = [sorted(seg) for seg in fs["red_track"][coord]]
        fits = [
            t
            for t in ("FS0", "FS1", "FS2", "FS3", "FS4", "FS5", "FS6")
            if any(_fs_red(cat[t], r) == red for r in range(6))
        ]
        assert fits, coord


def _fs_red(tile: TileDef, rotation: int) -> list[list[int]]:
    raw = _catalogue_raw()[tile.id]["fs_red"]
    return [sorted((e + rotation) % 6 for e in seg) for seg in raw]


def _catalogue_raw() -> dict[str, Any]:
    text = resources.files("tresham.core").joinpath("data/tiles.json").read_text("utf-8")
    tiles: dict[str, Any] = json.loads(text)["tiles"]
    return tiles


def test_special_places(board: BoardDef, number_hex: dict[int, str]) -> None:
    # 1883 §3.1 P2 (hex 20 links Reggio and Sassuolo, has a terrain cost), P4 (hex 43 has a
    # terrain cost), §6.4.3 (Vignola's printed track), §6.8.1 (two-city hexes), §8.3.1
    # (SARSA homes are hill/mountain; Reggio, Modena, Castelfranco are plains).
    h20 = number_hex[20]
    assert board.edge_between(h20, number_hex[16]) is not None
    assert board.edge_between(h20, number_hex[32]) is not None
    assert board.hex(h20).terrain_cost > 0 and board.hex(number_hex[43]).terrain_cost > 0
    vignola = board.hex(number_hex[68])
    assert vignola.color == "white" and vignola.tile.paths
    for coord in board.extra["two_city_hexes"]:
        assert board.hex(coord).tile.city_count == 2
    relief = set(board.extra["hills"]) | set(board.extra["mountains"])
    assert number_hex[11] in relief and number_hex[89] in relief
    for n in (16, 52, 76):
        assert number_hex[n] not in relief
    # 1883 §2.3 a) and §1.3: one cube per mountain, hill and F hex, 55 cubes in the box.
    assert len(relief) + len(board.extra["flood_hexes"]) <= 55


def test_ports_are_cities(board: BoardDef) -> None:
    # 1883 §6.6: port tokens go only on city hexes with the anchor; FSF places two in
    # different ports.
    ports = board.extra["ports"]
    assert len(ports) >= 2
    for coord in ports:
        h = board.hex(coord)
        assert h.port and h.tile.city_count >= 1


def test_homes_are_cities_with_slots(board: BoardDef, game: dict[str, Any]) -> None:
    # 1883 "Corporations of 1883" tables (homes and hex numbers).
    for corp in game["corporations"]:
        for coord in corp["homes"]:
            assert board.hex(coord).tile.city_count >= 1, corp["sym"]
        assert [board.hex(c).name for c in corp["homes"]] == corp["home_names"]
    for corp, (coord, node) in board.homes.items():
        n = board.hex(coord).tile.nodes[node]
        assert n.kind == "city" and n.slots >= 1, corp
    for corp, homes in board.home_cities.items():
        assert board.homes[corp] == homes[0]
        for coord, node in homes:
            assert board.hex(coord).tile.nodes[node].kind == "city", corp


def _downhill(board: BoardDef, path: list[str]) -> bool:
    level = {c: 2 for c in board.extra["mountains"]} | {c: 1 for c in board.extra["hills"]}
    heights = [level.get(c, 0) for c in path]
    return all(a >= b for a, b in itertools.pairwise(heights))


def test_gravity_runs_exist(board: BoardDef, number_hex: dict[int, str]) -> None:
    # 1883 §6.9.5 (2GT downhill between consecutive stations) and §8.1.5 (the CCFR starts
    # with two 2GT): Ciano -> Reggio and Castelnovo -> Reggio are downhill chains of hexes.
    ciano, reggio, castelnovo = number_hex[3], number_hex[16], number_hex[11]
    assert _downhill(board, [ciano, number_hex[9], number_hex[8], reggio])
    assert _downhill(board, [castelnovo, number_hex[10], number_hex[9], number_hex[8], reggio])
    for a, b in ((ciano, number_hex[9]), (number_hex[9], number_hex[8]), (number_hex[8], reggio)):
        assert board.edge_between(a, b) is not None


def _distance(board: BoardDef, a: str, b: str) -> int:
    seen = {a: 0}
    queue = deque([a])
    while queue:
        c = queue.popleft()
        for nb in board.neighbors(c).values():
            if nb not in seen:
                seen[nb] = seen[c] + 1
                queue.append(nb)
    return seen[b]


def test_concession_routes_name_places_on_the_board(board: BoardDef, game: dict[str, Any]) -> None:
    # 1883 §5.6, Appendix 3 Government Concessions table (1-4 printed, 5-8 reconstructed);
    # §1.3: 16 concession tokens (8 concessions) and 26 cylinders (one per route stop).
    concessions = game["concessions"]
    assert [c["number"] for c in concessions] == list(range(1, 9))
    assert sum(len(c["route"]) for c in concessions) == 26
    for c in concessions:
        for stop in c["route"]:
            h = board.hex(stop["hex"])
            assert h.name == stop["name"]
            assert h.tile.nodes, stop
        for a, b in itertools.pairwise(c["route"]):
            assert 1 <= _distance(board, a["hex"], b["hex"]) <= 8
    printed = {c["number"]: [s["name"] for s in c["route"]] for c in concessions[:4]}
    assert printed[1] == ["Casalecchio", "Bazzano", "Vignola"]
    assert printed[2] == ["Ferrara", "Bondeno", "Suzzara", "Parma"]
    assert printed[3] == [
        "Reggio Emilia",
        "Ciano d'Enza",
        "Castelnovo ne' Monti",
        "Aulla/La Spezia",
    ]
    assert printed[4] == ["Bagnolo", "Mirandola", "Finale"]


# --- tiles -------------------------------------------------------------------------------


def test_manifest_tiles_exist_and_total_150(game: dict[str, Any]) -> None:
    # 1883 §1.3 (150 tiles) and Appendix 4.
    cat = load_catalogue()
    manifest = game["tiles"]
    for tile_id in manifest:
        assert tile_id in cat, tile_id
    assert sum(manifest.values()) == 150
    printed = {"3": 4, "4": 4, "5": 3, "6": 5, "57": 5, "58": 5, "7": 5, "8": 13, "23": 4}
    printed |= {"24": 4, "25": 2, "26": 2, "27": 2, "28": 1, "29": 1, "141": 2, "142": 2}
    printed |= {"39": 1, "40": 1, "41": 2, "42": 2, "43": 1, "44": 1, "45": 2, "46": 2}
    printed |= {"47": 1, "63": 8, "70": 1, "145": 2, "146": 2, "CC-brown": 2, "PC-brown": 2}
    for tile_id, count in printed.items():
        assert manifest[tile_id] == count, tile_id
    for i in range(8):
        assert manifest[f"FS{i}"] == 1


def test_upgrades_keep_track(game: dict[str, Any]) -> None:
    # 1883 §6.4.2 (an upgrade keeps every track segment) and the Appendix 4 upgrade chart.
    cat = load_catalogue()
    order = ("yellow", "green", "brown", "gray")
    for old_id, targets in game["tile_upgrades"].items():
        old = cat[old_id]
        for new_id in targets:
            new = cat[new_id]
            assert order.index(new.color) == order.index(old.color) + 1, (old_id, new_id)
            assert any(old.exits(0) <= new.exits(r) for r in range(6)), (old_id, new_id)


def test_special_tiles_fit_their_cities(board: BoardDef, game: dict[str, Any]) -> None:
    # 1883 §6.4.3 / Appendix 4 special city upgrades: each chain starts from the preprinted
    # yellow city and, at rotation 0, keeps its track and exits only to real hexes.
    cat = load_catalogue()
    chains = game["special_tile_chains"]
    assert set(chains) == set(board.extra["special_cities"])
    for coord, info in chains.items():
        h = board.hex(coord)
        assert h.color == "yellow" and h.name == info["place"]
        have = h.tile.exits(0)
        for tile_id in info["chain"]:
            t = cat[tile_id]
            assert t.labels == h.tile.labels, tile_id
            assert have <= t.exits(0), (coord, tile_id)
            for e in t.exits(0):
                assert board.adjacent(coord, e) is not None, (coord, tile_id, e)
            have = t.exits(0)
    labels = {board.hex(c).tile.labels[0] for c in chains}
    assert labels == {"CC", "PC", "EN", "MO", "PR", "RE", "SA", "SZ"}
    # 6.8.4: Sassuolo's brown and gray tiles show two values (terminal higher).
    raw = _catalogue_raw()
    for tile_id in ("SA-brown", "SA-gray"):
        node = raw[tile_id]["nodes"][0]
        assert node["revenue_terminal"] > node["revenue"]


# --- market and game facts ---------------------------------------------------------------


def _cell(market: Market, price: int, row: int) -> tuple[int, int]:
    return next(p for p in market.positions_at_price(price) if p[0] == row)


def test_market_par_boxes_and_closed(market: Market) -> None:
    # 1883 §5.3.3 (par 65/85/100, 110 from phase 3, 150 from phase 5, yellow/green/brown
    # boxes), §5.8 (Closed section), §8.1.1 (CCFR at L.100), §10.0 (SARSA's maximum).
    pars = {c.price: c for c in market.par_cells()}
    assert sorted(pars) == [65, 85, 100, 110, 150]
    assert {p for p, c in pars.items() if "par:yellow" in c.tags} == {65, 85, 100}
    assert "par:green" in pars[110].tags and "par:brown" in pars[150].tags
    assert market.cells_with("close")
    assert [c.price for c in market.cells_with("ccfr_start")] == [100]
    top = market.cells_with("sarsa_max")
    assert len(top) == 1 and top[0].price == max(c.price for c in market.cells.values())


def test_market_reproduces_rulebook_examples(market: Market) -> None:
    # 1883 §5.2: SAFRE 80 -> 75; FMMSF 85 -> 80 and stops at the bottom; SV 90 at the bottom.
    r, c = _cell(market, 80, 3)
    assert market.price(market.walk((r, c), "down")[0]) == 75
    pos = (3, 7)
    assert market.price(pos) == 85
    assert [market.price(p) for p in market.walk(pos, "down", 2)] == [80, 80]
    sv = (4, 9)
    assert market.price(sv) == 90 and market.walk(sv, "down") == [sv]
    # §6.8.3: 85 withheld -> 80; 70 paid -> 75.
    assert market.price(market.walk(_cell(market, 85, 2), "left")[0]) == 80
    assert market.price(market.walk(_cell(market, 70, 4), "right")[0]) == 75
    # §6.10: SAFRE at par 85 issues 3 -> 70 (L.210); FSMMF at 90 issues 1 -> 85.
    safre = market.walk(_cell(market, 85, 2), "down", 3)
    assert market.price(safre[-1]) == 70
    assert market.price(market.walk(_cell(market, 90, 1), "down")[0]) == 85
    # §8.4 step B: no 130 on the table, 125 in four boxes, a 150 box.
    assert not market.positions_at_price(130)
    assert len(market.positions_at_price(125)) == 4
    assert market.positions_at_price(150)


def test_game_facts(game: dict[str, Any]) -> None:
    # 1883 §2.2, §5.4, §5.5, Appendix 3 train manifest, §1.3 components, §9.0 phases.
    assert game["bank"] == 11000
    assert game["starting_cash"] == {"2": 800, "3": 550, "4": 400}
    assert game["cert_limit"]["8_corporations"] == {"2": 32, "3": 21, "4": 16}
    assert game["cert_limit"]["7_corporations"] == {"2": 28, "3": 19, "4": 14}
    trains = {t["name"]: t for t in game["trains"]}
    assert list(trains) == ["2", "2G", "3", "3bis", "4", "5", "6", "7", "8"]
    assert sum(t["count"] for t in trains.values()) == 36  # §1.3: 36 train cards
    assert [trains[n]["price"] for n in ("2", "2G", "3", "3bis", "4", "5")] == [
        100,
        20,
        200,
        250,
        350,
        500,
    ]
    assert trains["6"]["price"] > trains["5"]["price"]
    assert trains["8"]["price"] > trains["7"]["price"] > trains["6"]["price"]
    phases = [p["name"] for p in game["phases"]]
    assert phases == ["2", "3", "3bis", "4", "5", "6", "7", "8"]
    # §1.3: 81 share certificates = 9 companies x 9.
    assert sum(len(c["shares"]) for c in game["corporations"]) == 81
    for c in game["corporations"]:
        assert sum(c["shares"]) == 100
    # §1.3: 93 stations and tokens (ruling G6).
    tokens = sum(
        len(c.get("token_costs", [])) + c.get("bus_tokens", 0) for c in game["corporations"]
    )
    assert tokens + 2 * len(game["corporations"]) + 1 == 93


def test_committed_json_is_the_build_scripts_output() -> None:
    # docs/rulings/1883.md: the data files are generated by tools/build_1883_data.py.
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "tools" / "build_1883_data.py"
    spec = importlib.util.spec_from_file_location("build_1883_data", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    board = module.build_board()
    assert _load("board.json") == board
    assert _load("market.json") == module.build_market()
    assert _load("game.json") == module.build_game(board)
    raw = _catalogue_raw()
    for tile_id, tile in module.SPECIAL_TILES.items():
        assert raw[tile_id] == tile, tile_id
