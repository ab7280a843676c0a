"""The 1849 hooks: colours by phase, blocked hexes, the gauge test, terrain costs, train
distance, run rules, revenue by phase, the CNM bonus."""

from __future__ import annotations

import dataclasses

import pytest

from tresham.core.graph import lay_context, legal_tile_lays, tile_lay_problem
from tresham.core.rules_protocols import Stop, TrainSpec
from tresham.core.tiles import CITY, DUAL, NARROW, OFFBOARD, STANDARD, TOWN, NodeDef
from tresham.core.track import MapState
from tresham.titles.t1849.track_rules import (
    RULE_LAY,
    RULE_QUAKE,
    RULE_RUN,
    RULE_SCE,
    TrackRules1849,
    load_board,
    new_map,
    tile_colors_for_phase,
)

H4 = TrainSpec("4H-0", "4H", 4)
R6H = TrainSpec("R6H-0", "R6H", 6)


def girgenti() -> MapState:
    # SFA home Girgenti (J6, terrain 40) with 645 at rotation 3: narrow to H6, standard to K7.
    s = new_map()
    s.place_token("SFA", "J6", 0)
    s.lay_tile("J6", "645", 3)
    return s


def test_tile_colours_by_phase() -> None:
    # 1849 summary, tile manifest: yellow from the start, "Green from the first 6H", "Brown
    # from the first 12H" (18xx.games: brown from 10H, [DIFF]; the summary wins by default).
    assert tile_colors_for_phase("4H") == {"yellow"}
    assert tile_colors_for_phase("6H") == {"yellow", "green"}
    assert tile_colors_for_phase("10H") == {"yellow", "green"}
    assert tile_colors_for_phase("10H", brown_from="10H") == {"yellow", "green", "brown"}
    assert tile_colors_for_phase("12H") == {"yellow", "green", "brown"}
    assert TrackRules1849(phase="8H").tile_colors == {"yellow", "green"}
    assert TrackRules1849(phase="4H", colors=["yellow", "green"]).tile_colors == {"yellow", "green"}
    with pytest.raises(ValueError):
        tile_colors_for_phase("5H")
    with pytest.raises(ValueError):
        TrackRules1849(phase="2")


def test_acireale_blocked_by_sce() -> None:
    # 1849 summary, privates: "P1 ... Blocks Acireale (G13) until it closes or a corporation
    # buys it."
    s = new_map()
    blocked = TrackRules1849(sce_blocks_g13=True)
    err = blocked.check_hex(s, "IFT", "G13")
    assert err is not None and err.rule == RULE_SCE
    assert legal_tile_lays(s, "IFT", blocked, hexes=["G13"], require_connection=False) == []
    free = TrackRules1849(sce_blocks_g13=False)
    assert free.check_hex(s, "IFT", "G13") is None
    assert legal_tile_lays(s, "IFT", free, hexes=["G13"], require_connection=False)


def test_messina_locked_after_the_earthquake() -> None:
    # 1849 summary, Messina earthquake: "No upgrade until after the next SR."
    s = new_map()
    locked = TrackRules1849(phase="12H", messina_locked=True)
    err = tile_lay_problem(s, "ATA", "B14", "655", 0, locked, require_connection=False)
    assert err is not None and err.rule == RULE_QUAKE
    unlocked = TrackRules1849(phase="12H")
    assert tile_lay_problem(s, "ATA", "B14", "655", 0, unlocked, require_connection=False) is None


def test_gauge_test_on_lays() -> None:
    # 18xx.games (rule-details §5.4): at least one edge by which the corporation reaches the hex
    # must meet the new tile with a matching gauge. SFA reaches K7 by standard track and H6
    # by narrow track.
    s = girgenti()
    rules = TrackRules1849()
    err = tile_lay_problem(s, "SFA", "K7", "73", 2, rules)  # narrow town facing standard
    assert err is not None and err.rule == RULE_LAY
    assert tile_lay_problem(s, "SFA", "K7", "4", 2, rules) is None  # standard town
    assert tile_lay_problem(s, "SFA", "H6", "79", 0, rules) is None  # narrow straight
    err = tile_lay_problem(s, "SFA", "H6", "9", 0, rules)  # standard facing narrow
    assert err is not None and err.rule == RULE_LAY
    lays = legal_tile_lays(s, "SFA", rules)
    assert {lay.tile for lay in lays if lay.hex == "H6"} == {"77", "78", "79"}
    assert {lay.tile for lay in lays if lay.hex == "K7"} == {"3", "4", "58"}
    # The SMS private's lay waives the test.
    sms = TrackRules1849(sms_active=True)
    assert tile_lay_problem(s, "SFA", "H6", "9", 0, sms) is None


def test_other_new_exits_may_dead_end_against_the_other_gauge() -> None:
    # 1849 summary, OR Lay track: "Narrow and standard may dead-end against each other."
    s = girgenti()
    s.lay_tile("L8", "79", 2)  # narrow, facing K7 (edge 2) and M9
    rules = TrackRules1849()
    # 4 at rotation 2: standard to J6 (matches) and to L8 (dead-ends against narrow).
    assert tile_lay_problem(s, "SFA", "K7", "4", 2, rules) is None


def test_gauge_test_skipped_in_own_token_hex() -> None:
    # The test is skipped when the corporation has a token in the hex.
    s = girgenti()
    s.lay_tile("K7", "73", 2, check=False)  # narrow town facing J6's standard edge 5
    rules = TrackRules1849(phase="6H")
    ctx = lay_context(s, "SFA", "J6", "706", 2)
    assert ctx.own_token and 5 in ctx.reach_edges
    assert rules.check_lay(ctx) is None
    err = rules.check_lay(dataclasses.replace(ctx, own_token=False))
    assert err is not None and err.rule == RULE_LAY


def cost(state: MapState, coord: str, tile: str, rot: int, rules: TrackRules1849) -> int:
    return rules.lay_cost(lay_context(state, "SFA", coord, tile, rot))


def test_terrain_costs() -> None:
    # 1849 summary, OR Lay track: "New track that is all narrow pays a quarter of terrain; any
    # standard or dual pays full." P2 SIGI: "Half terrain cost for standard gauge only."
    s = new_map()
    plain = TrackRules1849()
    sigi = TrackRules1849(sigi_owner="SFA")
    other_sigi = TrackRules1849(sigi_owner="ATA")
    assert s.board.hex("G5").terrain_cost == 160
    assert cost(s, "G5", "79", 0, plain) == 40  # narrow only: 160 // 4
    assert cost(s, "G5", "79", 0, sigi) == 40  # no SIGI discount on narrow
    assert cost(s, "G5", "9", 0, plain) == 160  # standard: full
    assert cost(s, "G5", "9", 0, sigi) == 80  # standard with SIGI: half
    assert cost(s, "G5", "9", 0, other_sigi) == 160  # SIGI helps only its owner
    assert cost(s, "H10", "8", 0, plain) == 40  # 40 hex, standard
    assert cost(s, "H10", "78", 0, plain) == 10  # 40 hex, narrow
    assert cost(s, "H4", "73", 0, plain) == 20  # 80 hex (Sciacca), narrow town
    assert cost(s, "H2", "9", 0, plain) == 0  # no terrain
    # Mixed narrow + standard added counts as standard (18xx.games: "else any standard").
    assert cost(s, "J6", "645", 3, plain) == 40
    assert cost(s, "J6", "645", 3, sigi) == 20


def test_terrain_paid_again_on_every_upgrade() -> None:
    # 1849 summary, OR Lay track: "Terrain is paid again on every upgrade."
    s = new_map()
    plain, sigi = TrackRules1849(phase="6H"), TrackRules1849(phase="6H", sigi_owner="SFA")
    # K9: preprinted narrow straight on a 160 mountain.
    assert cost(s, "K9", "677", 0, plain) == 40  # adds narrow only
    assert cost(s, "K9", "715", 0, plain) == 160  # adds a standard straight
    assert cost(s, "K9", "715", 0, sigi) == 80
    # Girgenti (40): yellow 645, green 706 adds standard and narrow, brown 673 adds dual.
    s.lay_tile("J6", "645", 3)
    assert cost(s, "J6", "706", 2, plain) == 40
    s.lay_tile("J6", "706", 2)
    assert cost(s, "J6", "673", 2, sigi) == 40  # dual: never discounted
    # An upgrade adding nothing new pays the quarter rate (18xx.games quirk, §5.4).
    s.lay_tile("G5", "9", 0)
    assert cost(s, "G5", "9", 0, plain) == 40


def test_h_train_segment_costs() -> None:
    # 1849 summary, OR Run trains: "Train size counts hexes crossed ... a narrow hex costs 2.
    # The R6H reverses it: narrow 1, standard 2." "A train changes gauge only at a town or
    # city." (18xx.games §5.6: a segment with any narrow counts narrow, dual-only counts 1.)
    r = TrackRules1849()
    s, n, d = frozenset({STANDARD}), frozenset({NARROW}), frozenset({DUAL})
    assert r.segment_cost(H4, s, 3) == 3
    assert r.segment_cost(H4, n, 3) == 6
    assert r.segment_cost(H4, d, 3) == 3
    assert r.segment_cost(H4, n | d, 2) == 4
    assert r.segment_cost(H4, s | d, 2) == 2
    assert r.segment_cost(H4, s | n, 1) is None
    assert r.segment_cost(R6H, s, 3) == 6
    assert r.segment_cost(R6H, n, 3) == 3
    assert r.segment_cost(R6H, d | s, 2) == 4
    assert r.segment_cost(R6H, s | n, 1) is None
    assert r.segment_cost(TrainSpec("E-0", "E", 99), n, 1) is None  # E trains avoid narrow
    assert r.stop_cost(H4, stop("C5", CITY, 50)) == 0


def stop(coord: str, kind: str, revenue: int = 0, port: bool = False) -> Stop:
    return Stop(coord, 0, NodeDef(kind, revenue, 1 if kind == CITY else 0), port)


def test_run_needs_two_cities_or_a_city_and_a_town() -> None:
    # 1849 summary: "A run needs two cities, or a city and a town: ports do not count toward
    # that. Up to two ports, each only as an end - no train runs through one."
    r = TrackRules1849()
    city, city2 = stop("C5", CITY, 50), stop("J6", CITY, 20)
    town, town2 = stop("K7", TOWN, 10), stop("I7", TOWN, 10)
    port, port2 = stop("A5", OFFBOARD, 10, True), stop("N8", OFFBOARD, 20, True)
    assert r.check_run(H4, "X", [city, city2]) is None
    assert r.check_run(H4, "X", [city, town]) is None
    assert r.check_run(H4, "X", [port, city, town]) is None
    assert r.check_run(H4, "X", [port, city, town, port2]) is None
    calabria = stop("C15", OFFBOARD, 10)
    assert r.check_run(H4, "X", [city, calabria]) is None  # Calabria is not a port
    for bad in ([city, port], [port, city, port2], [town, town2], [city, port, town]):
        err = r.check_run(H4, "X", bad)
        assert err is not None and err.rule == RULE_RUN, bad
    three_ports = [port, city, town, stop("L14", OFFBOARD, 60, True), port2]
    assert r.check_run(H4, "X", three_ports) is not None


def test_revenue_by_phase_band() -> None:
    # 1849 summary: "Gray cities pay their first value in Phases 4-6, the second in 8-10, the
    # third after." Calabria (C15) 10/30/90. Ports: a12 20, A5 10, N8 20, L14 60.
    board = load_board()

    def pays(coord: str, phase: str) -> int:
        h = board.hex(coord)
        st = Stop(coord, 0, h.tile.nodes[0], h.port)
        return TrackRules1849(phase=phase).stop_revenue(H4, st)

    assert [pays("C1", p) for p in ("4H", "6H", "8H", "10H", "12H", "16H")] == [
        20, 20, 30, 30, 40, 40,
    ]  # fmt: skip
    assert [pays("M9", p) for p in ("6H", "8H", "16H")] == [20, 30, 40]
    assert [pays("C15", p) for p in ("4H", "10H", "12H")] == [10, 30, 90]
    assert [pays(c, "16H") for c in ("a12", "A5", "N8", "L14")] == [20, 10, 20, 60]
    assert pays("C5", "16H") == 50  # Palermo's printed yellow value


def test_cnm_port_bonus() -> None:
    # 1849 summary, P3 CNM: "Close to add +L. 20 to one port on your own routes, for good."
    r = TrackRules1849(cnm_ports={"SFA": "N8"})
    n8 = stop("N8", OFFBOARD, 20, True)
    l14 = stop("L14", OFFBOARD, 60, True)
    city, town = stop("M9", CITY, 20), stop("K7", TOWN, 10)
    assert r.run_bonus(H4, "SFA", [n8, city, town]) == 20
    assert r.run_bonus(H4, "ATA", [n8, city, town]) == 0  # only its corporation
    assert r.run_bonus(H4, "SFA", [l14, city, town]) == 0  # only its port
    assert r.run_bonus(H4, "SFA", [city, town]) == 0
