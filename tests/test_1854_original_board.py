"""1854 on its rulebook's own edition: the original (2002) board and tiles
(shared/reference/1854-original.json), medium-sized cities (§5.3, §5.10), double small cities
(§5.4, §5.6), Sankt Pölten on the extra map (§5.3, §5.4), the second customs hex (§5.6), the
Major Companies' stations in Sankt Pölten and Steyr (§5.5), and the version split that keeps
older saves on the revised board (rulings D6-D9, C1-C5)."""

from __future__ import annotations

import json
from typing import Any

from helpers_1854 import TITLE, game
from positions import give_train
from shared_files import SHARED, needs_shared
from tresham.core.board import BoardDef
from tresham.core.errors import TrackError
from tresham.core.game import Game
from tresham.core.graph import legal_tile_lays, tile_lay_problem
from tresham.core.rules_protocols import Stop, TrainSpec
from tresham.info import facts
from tresham.titles.t1854 import cities
from tresham.titles.t1854.operating import closed_to_majors, rules_for
from tresham.titles.t1854.state import state_of
from tresham.titles.t1854.versions import DEALS_VERSION, ORIGINAL_BOARD_VERSION

REFERENCE = SHARED / "reference" / "1854-original.json"
ORIGINAL = BoardDef.from_package("tresham.titles.t1854", "data/board_original.json")


def at_phase(g: Game, name: str) -> None:
    """Put the game in phase `name` (and every phase before it reached)."""
    s = g.state
    names = [p.name for p in TITLE.phases]
    s.phase_index = names.index(name)
    s.phases_reached = names[: s.phase_index + 1]


def tiles_for(g: Game, coord: str, corp: str = "SD") -> dict[str, set[int]]:
    """Every tile `corp` may lay on `coord` now, wherever its network is → its rotations."""
    out: dict[str, set[int]] = {}
    for t in legal_tile_lays(
        g.state.map, corp, rules_for(g, corp), hexes=[coord], require_connection=False
    ):
        out.setdefault(t.tile, set()).add(t.rotation)
    return out


def problem(g: Game, coord: str, tile: str, rotation: int) -> TrackError | None:
    return tile_lay_problem(
        g.state.map, "SD", coord, tile, rotation, rules_for(g, "SD"), require_connection=False
    )


# ------------------------------------------------------------------ §1.1, the board
@needs_shared(REFERENCE)
def test_every_hex_is_the_original_boards() -> None:
    # 1854 §1.1 "1 Game Map in four sections. 1 Extra Game Map": every hex of both maps as
    # 1854-original.json gives it (rulings D2, D5-D7)
    ref = json.loads(REFERENCE.read_text("utf-8"))
    assert set(ORIGINAL.hexes) == set(ref["hexes"])
    assert len(ORIGINAL.hexes) == ref["boards"]["main_map_hex_count"] + 25 == 95
    budapest = ref["hexes"]["E27"]["revenue_by_phase"]["offboard0"]
    for coord, h in ref["hexes"].items():
        ours = ORIGINAL.hex(coord)
        assert ours.color == ("gray" if h["tunnel_only"] else h["color"]), coord
        assert ours.name == (h["location_name"] or ""), coord
        assert ours.terrain_cost == sum(int(t["cost"]) for t in h["terrain"]), coord
        kinds = [_kind(n, h) for n in h["nodes"]]
        assert [n.kind for n in ours.tile.nodes] == kinds, coord
        for i, n in enumerate(ours.tile.nodes):
            by_phase: dict[str, Any] = h.get("revenue_by_phase", {}).get(
                f"{h['nodes'][i]['type']}{i}"
            ) or (budapest if coord == "D28" else {})
            for phase, value in by_phase.items():
                assert n.revenue_in(phase) == value, (coord, phase)
            if n.kind == "city":
                assert n.slots == h["nodes"][i]["slots"], coord
        paths = {frozenset((str(p.a), str(p.b))) for p in ours.tile.paths}
        want = {frozenset((_end(p["a"]), _end(p["b"]))) for p in h["paths"]}
        assert paths == want, coord
        assert list(ours.tile.labels) == h["labels"], coord
    extra = ORIGINAL.extra
    assert extra["medium_cities"] == sorted((m["hex"] for m in ref["medium_cities"]), key=_row_col)
    assert extra["shielded"] == {c: v[0] for c, v in ref["shields"].items()}
    assert set(extra["customs"]) == set(ref["customs"]) == {"D12", "E7"}
    assert extra["tunnel_only"] == sorted(ref["tunnel_only_hexes"], key=_row_col)
    assert set(extra["mountain_railways"]) == set(ref["mountain_railway_hexes"])
    assert extra["local_map"] == sorted(ref["boards"]["local_railways_map"], key=_row_col)


def _kind(node: dict[str, Any], h: dict[str, Any]) -> str:
    if h["color"] == "red":
        return "offboard"
    return "town" if node["type"] == "medium_city" else str(node["type"])


def _end(end: dict[str, int]) -> str:
    return f"e{end['edge']}" if "edge" in end else f"n{end['node']}"


def _row_col(coord: str) -> tuple[str, int]:
    return coord[0], int(coord[1:])


def test_info_gives_the_125_tiles_and_the_nine_medium_cities() -> None:
    # 1854 §1.1: "125 tiles: 48 yellow, 40 green, 18 brown, 6 grey, 13 transparent"; §5.3:
    # the medium-sized cities
    data = facts("1854")
    assert data["tile_count"] == sum(data["tiles"].values()) == 125
    assert data["tile_colors"] == {"yellow": 48, "green": 40, "brown": 18, "gray": 6, "tunnel": 13}
    assert data["board_hexes"] == 95 and data["rules_version"] == ORIGINAL_BOARD_VERSION
    medium = ["B22", "D16", "D18", "D20", "D24", "F10", "G3", "G15", "H16"]
    assert list(data["medium_cities"]) == medium
    assert data["players"] == {"min": 3, "max": 6}
    assert [p["name"] for p in data["phases"]] == ["2", "3", "4", "5", "6", "8"]


def test_saves_of_older_versions_keep_the_revised_board() -> None:
    # ruling D6: new games play the original board; saves of rules versions 1-3 replay on the
    # revised board they were played on
    new = game()
    old = Game(TITLE, list("ABC"), seed=1, rules_version=DEALS_VERSION)
    assert new.rules_version == ORIGINAL_BOARD_VERSION and "D2" in new.state.map.board.hexes
    assert len(old.state.map.board.hexes) == 100 and "D0" in old.state.map.board.hexes
    assert "457" not in old.state.map.supply and new.state.map.supply["457"] == 2
    assert "467" not in new.state.map.supply  # the tunnels are overlay track (§5.3.1)


# ------------------------------------------------------------------ §5.3, §5.10: medium cities
def test_a_medium_city_is_promoted_from_phase_5_and_not_before() -> None:
    # 1854 §5.3: "On medium-sized cities ... the first stations ... are those with the broad
    # crossbar ... from Phase 5 onwards these tiles may be upgraded. The tile with the broad
    # crossbar is replaced by the corresponding one with the large city. ... Subsequent
    # promotion to a green tile is permitted. Brown tiles may not be placed on medium-sized
    # cities." §5.10 Phase 5: "Medium-sized cities may be upgraded."
    g = game()
    s = g.state
    assert set(tiles_for(g, "D16")) == {"3", "4", "58"}  # Wels: crossbar tiles first
    s.map.lay_tile("D16", "4", 1)
    at_phase(g, "4")
    assert "57" not in tiles_for(g, "D16")
    err = problem(g, "D16", "57", 1)
    assert err is not None and err.rule == "1854 §5.10"
    at_phase(g, "5")
    assert tiles_for(g, "D16") == {"57": {1}}  # the same track, a large city
    cities.count(g, "D16", "57")
    s.map.lay_tile("D16", "57", 1)
    assert state_of(g).tallies.medium_promotions == 1
    assert s.map.tile("D16").nodes[0].kind == "city"
    assert s.map.token_problem("SD", "D16", 0) is None  # a large city: a station may go there
    assert set(tiles_for(g, "D16")) == {"441", "442"}
    s.map.lay_tile("D16", "441", 1)
    at_phase(g, "8")
    assert tiles_for(g, "D16") == {}  # never brown
    err = problem(g, "D16", "448", 1)
    assert err is not None and err.rule == "1854 §5.3"


def test_a_small_city_is_never_upgraded() -> None:
    # 1854 §5.3: small cities' crossbar tiles "may not be upgraded in the later course of
    # the game"; the promotion is the medium-sized cities' alone
    g = game()
    g.state.map.lay_tile("C15", "4", 0)  # Ried, a small city
    at_phase(g, "8")
    assert tiles_for(g, "C15") == {}
    err = problem(g, "C15", "57", 0)
    assert err is not None and err.rule == "1854 §5.3"


def test_a_medium_city_is_promoted_under_a_tunnel() -> None:
    # 1854 §5.3: "This promotion can still be made if there is a tunnel in the hex."
    g = game()
    s = g.state
    s.map.lay_tile("D24", "4", 0)  # Wiener Neustadt: edges 0 and 3
    s.map.add_overlay("D24", 1, 2)
    at_phase(g, "5")
    assert tiles_for(g, "D24") == {"57": {0}}


# ------------------------------------------------------------------ §5.4, §5.6: double cities
def test_each_double_small_city_tile_upgrades_to_its_two_city_tiles() -> None:
    # 1854 §5.4: "Green tiles with two cities serve as upgrades for the double small cities.
    # They must be placed so that both of the original stretches of track are preserved.
    # Station markers may be placed on the green cities. These tiles do not upgrade any
    # further." (1854-found-facts §4.1: which of 457-464 keeps each yellow tile's track)
    fits = {
        "1": {"460"},
        "2": {"461", "462"},
        "55": {"458", "459", "460"},
        "56": {"457", "461", "462"},
        "69": {"463", "464"},
    }
    for yellow, greens in fits.items():
        g = game()
        s = g.state
        s.map.lay_tile("D22", yellow, 0)  # Mödling & Baden, inland on every side
        at_phase(g, "3")
        assert set(tiles_for(g, "D22")) == greens, yellow
        green = min(greens)
        rotation = min(tiles_for(g, "D22")[green])
        cities.count(g, "D22", green)
        s.map.lay_tile("D22", green, rotation)
        assert state_of(g).tallies.double_city_upgrades == 1
        assert [n.kind for n in s.map.tile("D22").nodes] == ["city", "city"]
        assert all(s.map.token_problem("SD", "D22", i) is None for i in (0, 1))
        at_phase(g, "8")
        assert tiles_for(g, "D22") == {}, yellow  # no further upgrade


def test_a_route_may_include_both_cities_of_a_double_city_tile() -> None:
    # 1854 §5.6: "it is permissable to include both cities on the green tiles 457 to 464";
    # only Wien and Sankt Pölten on the extra map count once per route (ruling W2)
    g = game()
    s = g.state
    s.map.lay_tile("D22", "1", 0)
    s.map.lay_tile("D22", "460", 0)
    tile = s.map.tile("D22")
    both = [Stop("D22", i, tile.nodes[i]) for i in (0, 1)]
    assert rules_for(g, "SD").check_run(TrainSpec("2-0", "2", 2), "SD", both) is None


# ------------------------------------------------------------------ §5.3, §5.4: Sankt Pölten
def test_sankt_poelten_takes_442_or_444_then_brown() -> None:
    # 1854 §5.3, §5.4: "On the extra game map Sankt Pölten may, in the appropriate Phases, be
    # upgraded to a green tile (number 442 or 444) and later to a brown tile." Its two
    # cities (the homes of Local Railways 1 and 2) become one of two spaces
    g = game()
    s = g.state
    assert tiles_for(g, "J38", "L1") == {}  # green from Phase 3
    at_phase(g, "3")
    assert tiles_for(g, "J38", "L1") == {"442": {2}, "444": {5}}
    s.map.lay_tile("J38", "444", 5)
    assert s.map.tile("J38").city_count == 1 and s.map.tile("J38").nodes[0].slots == 2
    assert s.map.reservations["L1"] == [("J38", 0)] == s.map.reservations["L2"]
    at_phase(g, "5")
    assert tiles_for(g, "J38", "L1") == {"448": {5}}


# ------------------------------------------------------------------ §5.6: customs E7
def test_a_route_over_the_second_customs_hex_loses_10() -> None:
    # 1854 §5.6: "If a route passes through Germany (one of the track sections with a customs
    # sign), the income from the route is reduced by 10 G. The customs sign does not count
    # as a station." The original board's second sign is on E7's track from E9 to Landeck
    # (ruling D8): SD's 4-train runs Salzburg (20) - Kufstein (10) - customs - Landeck (10) -
    # Innsbruck (20) for 50 G
    g = game()
    s = g.state
    s.map.release_reservation("SB")
    s.map.release_reservation("NT")
    for coord, tile, rotation in (
        ("E13", "57", 1),  # Salzburg: W and E
        ("E11", "4", 1),  # Kufstein: W and E
        ("E9", "9", 1),  # W (to E7's customs track) and E
        ("F6", "3", 3),  # Landeck: NE (to E7) and E
        ("F8", "57", 1),  # Innsbruck: W and E
    ):
        s.map.lay_tile(coord, tile, rotation)
    s.map.place_token("SD", "E13", 0)
    give_train(g, "SD", "4")
    (run,) = g.title.best_routes(g, "SD").runs
    assert {h for h, _ in run.stops} == {"E13", "E11", "E7", "F6", "F8"}
    assert ("E7", 0) in run.stops and run.revenue == 20 + 10 + 10 + 20 - 10


# ------------------------------------------------------------------ §5.5
def test_major_stations_in_sankt_poelten_and_steyr_from_phase_6() -> None:
    # 1854 §5.5: "Station markers of Major Companies may be placed in the Sankt Pölten and
    # Steyr hexes from Phase 6 onwards, but not before then." On the original board these
    # are the medium-sized cities D20 and D18, large once promoted (§5.3)
    g = game()
    s = g.state
    for coord in ("D18", "D20"):
        s.map.lay_tile(coord, "4", 1)
    at_phase(g, "5")
    for coord in ("D18", "D20"):
        s.map.lay_tile(coord, "57", 1)
        assert closed_to_majors(g, "KE", coord)
    assert not closed_to_majors(g, "KE", "D16")
    at_phase(g, "6")
    assert not any(closed_to_majors(g, "KE", c) for c in ("D18", "D20"))
