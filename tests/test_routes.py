"""Runs: validation, revenue, best_runs (hand-computed positions, a real 18xx.games game, the
71 solver-verified 1889 positions) and speed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from boards_1849 import busy_board
from shared_files import EXPORT_27939, POSITIONS_1889, needs_shared
from tresham.core.board import BoardDef
from tresham.core.errors import RouteError
from tresham.core.graph import (
    RULE_ROUTE_BLOCK,
    RULE_ROUTE_DISTANCE,
    RULE_ROUTE_GAUGE,
    RULE_ROUTE_STOPS,
    RULE_ROUTE_TOKEN,
    RULE_ROUTE_TRACK,
    check_tile_lay,
    token_slots,
)
from tresham.core.rules_protocols import BasicTrackRules, TrainSpec
from tresham.core.tiles import load_catalogue
from tresham.core.track import MapState
from tresham.io.site_export import effective_actions
from tresham.routes import (
    Run,
    best_runs,
    run_from_connections,
    run_revenue,
    solve,
    validate_run,
    validate_runs,
)
from tresham.routes.positions import load_positions
from tresham.routes.runs import RULE_REVENUE, RULE_TRAIN
from tresham.titles.t1849.track_rules import (
    PHASES,
    TrackRules1849,
    load_board,
    new_map,
    tile_colors_for_phase,
)

H4 = TrainSpec("4H-0", "4H", 4)


def hx(*paths: str, node: str | None = None, revenue: int = 0) -> Any:
    """A yellow hex in our board.json schema: paths as "e0 n0 standard", an optional node."""
    d: dict[str, Any] = {"color": "yellow", "paths": [p.split() for p in paths]}
    if node is not None:
        d["nodes"] = [{"kind": node, "revenue": revenue}]
    return d


def girgenti_licata() -> MapState:
    # From a real 18xx.games game (#27939): 645 at J6 rotation 3, 4 at K7 rotation 2, SFA's
    # home token at J6.
    s = new_map()
    s.place_token("SFA", "J6", 0)
    s.lay_tile("J6", "645", 3)
    s.lay_tile("K7", "4", 2)
    return s


def test_real_game_run_girgenti_licata() -> None:
    # 18xx.games game 27939, action 40: SFA runs its 4H J6-K7 for L.30 (city 20 + town 10).
    s = girgenti_licata()
    rules = TrackRules1849(phase="4H")
    run = Run("4H-0", (("J6", 0), ("K7", 0)), (("J6", 1), ("K7", 0)), 30)
    assert validate_run(s, "SFA", H4, run, rules) == 30
    assert run_revenue(s, "SFA", H4, run, rules) == 30
    assert best_runs(s, "SFA", [H4], rules) == [run]
    # The same run listed from the other end is just as good.
    back = Run("4H-0", (("K7", 0), ("J6", 0)), (("K7", 0), ("J6", 1)), 30)
    assert validate_run(s, "SFA", H4, back, rules) == 30
    assert run_from_connections(s, "SFA", "4H-0", [["J6", "K7"]], rules=rules, train_spec=H4) in (
        run,
        back,
    )


def test_claimed_revenue_is_checked() -> None:
    s = girgenti_licata()
    rules = TrackRules1849(phase="4H")
    run = Run("4H-0", (("J6", 0), ("K7", 0)), (("J6", 1), ("K7", 0)), 40)
    with pytest.raises(RouteError) as info:
        validate_run(s, "SFA", H4, run, rules)
    assert info.value.rule == RULE_REVENUE
    wrong_train = Run("6H-0", run.stops, run.track, 30)
    with pytest.raises(RouteError) as info:
        validate_run(s, "SFA", H4, wrong_train, rules)
    assert info.value.rule == RULE_TRAIN


def test_second_train_cannot_reuse_track() -> None:
    # "no two runs sharing track": the only track J6-K7 carries one train.
    s = girgenti_licata()
    rules = TrackRules1849(phase="4H")
    trains = [H4, TrainSpec("4H-1", "4H", 4)]
    runs = best_runs(s, "SFA", trains, rules)
    assert [r.train for r in runs] == ["4H-0"]
    assert validate_runs(s, "SFA", trains, runs, rules) == 30
    twice = [runs[0], Run("4H-1", runs[0].stops, runs[0].track, 30)]
    with pytest.raises(RouteError) as info:
        validate_runs(s, "SFA", trains, twice, rules)
    assert info.value.rule == RULE_ROUTE_TRACK
    with pytest.raises(RouteError) as info:
        validate_runs(s, "SFA", trains, [runs[0], runs[0]], rules)
    assert info.value.rule == RULE_TRAIN


def siracusa_ragusa() -> MapState:
    # ATA (home Siracusa M13, narrow to L12) with 78 on L12 (narrow M13-M11) and a token at
    # Terranova (M9); 58 on N10 (Vittoria, standard M9-M11). As in game 27939, action 51.
    s = new_map()
    s.place_token("ATA", "M13", 0)
    s.place_token("ATA", "M9", 0)
    s.lay_tile("L12", "78", 5)
    s.lay_tile("N10", "58", 2)
    return s


NARROW_RUN = Run("4H-1", (("M13", 0), ("M11", 0)), (("M13", 0), ("L12", 0), ("M11", 1)), 30)


def test_h_train_distance_doubles_on_narrow() -> None:
    # 1849 summary, OR Run trains: "Train size counts hexes crossed, not stops; a narrow hex
    # costs 2." M13-L12-M11 crosses 2 edges on narrow track: distance 4.
    s = siracusa_ragusa()
    rules = TrackRules1849(phase="4H")
    assert validate_run(s, "ATA", TrainSpec("4H-1", "4H", 4), NARROW_RUN, rules) == 30
    with pytest.raises(RouteError) as info:
        validate_run(s, "ATA", TrainSpec("4H-1", "3H", 3), NARROW_RUN, rules)
    assert info.value.rule == RULE_ROUTE_DISTANCE
    # "The R6H reverses it: narrow 1, standard 2." Narrow: 2; J6-K7 on standard: 2 for 1 edge.
    r6 = TrainSpec("4H-1", "R6H", 2)
    assert validate_run(s, "ATA", r6, NARROW_RUN, rules) == 30
    g = girgenti_licata()
    short = Run("4H-1", (("J6", 0), ("K7", 0)), (("J6", 1), ("K7", 0)), 30)
    assert validate_run(g, "SFA", TrainSpec("4H-1", "R6H", 2), short, rules) == 30
    with pytest.raises(RouteError):
        validate_run(g, "SFA", TrainSpec("4H-1", "R6H", 1), short, rules)


def test_gauge_changes_only_at_a_stop() -> None:
    # 1849 summary: "A train changes gauge only at a town or city." Standard into dual into
    # narrow without a stop between is one segment mixing gauges.
    hexes = {
        "A1": hx("e0 n0 narrow", node="town", revenue=10),
        "C1": hx("e0 e3 dual"),
        "E1": hx("e3 n0 standard", node="city", revenue=20),
    }
    board = BoardDef.from_dict({"layout": "flat", "hexes": hexes})
    s = MapState(board, load_catalogue())
    s.place_token("X", "E1", 0)
    run = Run("4H-0", (("E1", 0), ("A1", 0)), (("E1", 0), ("C1", 0), ("A1", 0)), 30)
    with pytest.raises(RouteError) as info:
        validate_run(s, "X", H4, run, TrackRules1849())
    assert info.value.rule == RULE_ROUTE_GAUGE
    assert best_runs(s, "X", [H4], TrackRules1849()) == []


def test_ports_do_not_count_and_end_runs() -> None:
    # 1849 summary: "A run needs two cities, or a city and a town: ports do not count toward
    # that." Terranova-N8 is a city and a port only.
    s = siracusa_ragusa()
    rules = TrackRules1849(phase="4H")
    m9_n8 = Run("4H-0", (("M9", 0), ("N8", 0)), (("M9", 0), ("N8", 0)), 40)
    with pytest.raises(RouteError) as info:
        validate_run(s, "ATA", H4, m9_n8, rules)
    assert info.value.rule == "1849 §OR Run trains"
    # Ragusa-Vittoria-Terranova-port: 20 + 10 + 20 + 20 = 70 (game 27939, action 51).
    run = run_from_connections(
        s, "ATA", "4H-0", [["N10", "M11"], ["M9", "N10"], ["N8", "M9"]], rules=rules,
        train_spec=H4,
    )  # fmt: skip
    assert run.revenue == 70
    assert validate_run(s, "ATA", H4, run, rules) == 70


def test_best_runs_two_4h_on_the_siracusa_network() -> None:
    # By hand: M11-N10-M9-N8 (20+10+20+20 = 70, distance 3) and M13-L12-M11 (10+20 = 30,
    # narrow distance 4) share no track: 100. One train alone: 70.
    s = siracusa_ragusa()
    rules = TrackRules1849(phase="4H")
    trains = [TrainSpec("4H-2", "4H", 4), TrainSpec("4H-3", "4H", 4)]
    runs = best_runs(s, "ATA", trains, rules)
    assert validate_runs(s, "ATA", trains, runs, rules) == 100
    assert sorted(r.revenue for r in runs) == [30, 70]
    assert sum(r.revenue for r in best_runs(s, "ATA", trains[:1], rules)) == 70
    # In phase 8H Terranova pays 30: 80 + 30.
    assert sum(r.revenue for r in best_runs(s, "ATA", trains, TrackRules1849(phase="8H"))) == 110
    # CNM on N8 for ATA: +20 on the run ending there.
    cnm = TrackRules1849(phase="4H", cnm_ports={"ATA": "N8"})
    assert sum(r.revenue for r in best_runs(s, "ATA", trains, cnm)) == 120


def column_board() -> tuple[MapState, BasicTrackRules]:
    """A1 (city 50) - C1 (city 10, X's token) - E1 (city 20) - G1 (city 40), straight track."""

    def city(revenue: int, exits: list[int]) -> dict[str, Any]:
        return {
            "color": "yellow",
            "nodes": [{"kind": "city", "revenue": revenue, "slots": 1}],
            "paths": [[f"e{e}", "n0", "standard"] for e in exits],
        }

    board = BoardDef.from_dict(
        {
            "layout": "flat",
            "hexes": {
                "A1": city(50, [0]),
                "C1": city(10, [0, 3]),
                "E1": city(20, [0, 3]),
                "G1": city(40, [3]),
            },
        }
    )
    s = MapState(board, load_catalogue())
    s.place_token("X", "C1", 0)
    return s, BasicTrackRules()


def test_best_runs_combination_beats_greedy() -> None:
    # Classic n-trains (stops). By hand: a lone 3-train's best is A1-C1-E1 = 80, but with a
    # 2-train too the best pair is C1-A1 (60) + C1-E1-G1 (70) = 130.
    s, rules = column_board()
    two, three = TrainSpec("2-0", "2", 2), TrainSpec("3-0", "3", 3)
    assert sum(r.revenue for r in best_runs(s, "X", [three], rules)) == 80
    assert sum(r.revenue for r in best_runs(s, "X", [two], rules)) == 60
    runs = best_runs(s, "X", [three, two], rules)
    assert validate_runs(s, "X", [three, two], runs, rules) == 130
    assert [r.train for r in runs] == ["3-0", "2-0"]
    assert runs[0].stops == (("C1", 0), ("E1", 0), ("G1", 0))
    # Two 2-trains: C1-A1 60 + C1-E1 30.
    pair = [two, TrainSpec("2-1", "2", 2)]
    assert validate_runs(s, "X", pair, best_runs(s, "X", pair, rules), rules) == 90


def test_run_structure_errors() -> None:
    s, rules = column_board()
    t = TrainSpec("4-0", "4", 4)

    def rule(stops: tuple[tuple[str, int], ...], track: tuple[tuple[str, int], ...]) -> str:
        with pytest.raises(RouteError) as info:
            run_revenue(s, "X", t, Run("4-0", stops, track), rules)
        return info.value.rule

    a, c, e, g = ("A1", 0), ("C1", 0), ("E1", 0), ("G1", 0)
    # Paths: A1 0 = S; C1 0 = S, 1 = N; E1 0 = S, 1 = N; G1 0 = N.
    # Every stop on the way is counted: A1-E1 passes C1.
    assert rule((a, e), (("A1", 0), ("C1", 1), ("C1", 0), ("E1", 1))) == RULE_ROUTE_STOPS
    # Not continuous: C1's path north does not lead to E1.
    assert rule((c, e), (("C1", 1), ("E1", 1))) == RULE_ROUTE_TRACK
    assert rule((c, e), (("C1", 0), ("E1", 1), ("E1", 1))) == RULE_ROUTE_TRACK  # path twice
    assert rule((c,), (("C1", 0),)) == RULE_ROUTE_STOPS  # one stop
    assert rule((c, a), ()) == RULE_ROUTE_TRACK
    assert rule((c, a), (("C1", 1), ("A1", 7))) == RULE_ROUTE_TRACK  # no such path
    assert rule((c, e), (("C1", 0),)) == RULE_ROUTE_TRACK  # ends at an edge
    assert rule((e, g), (("E1", 0), ("G1", 0))) == RULE_ROUTE_TOKEN  # no X token
    short = TrainSpec("4-0", "1", 1)
    with pytest.raises(RouteError) as info:
        run_revenue(s, "X", short, Run("4-0", (c, e), (("C1", 0), ("E1", 1))), rules)
    assert info.value.rule == RULE_ROUTE_DISTANCE  # two stops for a 1-train
    # A city full of another corporation's tokens cannot be passed through, but may end a run.
    s.place_token("Y", "E1", 0)
    through = (("C1", 0), ("E1", 1), ("E1", 0), ("G1", 0))
    assert rule((c, e, g), through) == RULE_ROUTE_BLOCK
    assert run_revenue(s, "X", t, Run("4-0", (c, e), (("C1", 0), ("E1", 1))), rules) == 30


def test_run_may_not_visit_a_stop_twice() -> None:
    # A loop: C1 (token) - E1 - back to C1 through a second pair of paths.
    loop_hexes = {
        "C1": hx("e0 n0 standard", "e5 n0 standard", node="city", revenue=10),
        "E1": hx("e3 n0 standard", "n0 e4 standard", node="town", revenue=10),
        "D2": hx("e2 e1 standard"),
    }
    board = BoardDef.from_dict({"layout": "flat", "hexes": loop_hexes})
    s = MapState(board, load_catalogue())
    s.place_token("X", "C1", 0)
    c, e = ("C1", 0), ("E1", 0)
    run = Run("4-0", (c, e, c), (("C1", 0), ("E1", 0), ("E1", 1), ("D2", 0), ("C1", 1)))
    with pytest.raises(RouteError) as info:
        run_revenue(s, "X", TrainSpec("4-0", "4", 4), run, BasicTrackRules())
    assert info.value.rule == RULE_ROUTE_STOPS
    assert (
        sum(r.revenue for r in best_runs(s, "X", [TrainSpec("4-0", "4", 4)], BasicTrackRules()))
        == 20
    )


# A real late-game position: 18xx.games game 27939 just before action 408 (phase 16H).
LATE_TILES = {
    "B14": ("656", 4), "C3": ("73", 5), "C5": ("652", 5), "D14": ("8", 1), "D2": ("677", 4),
    "D4": ("73", 2), "D6": ("78", 0), "F6": ("79", 0), "G1": ("58", 3), "G13": ("58", 1),
    "H10": ("8", 5), "H12": ("654", 4), "H2": ("8", 2), "H6": ("79", 0), "H8": ("657", 4),
    "I11": ("30", 4), "I7": ("4", 1), "J12": ("23", 5), "J6": ("673", 2), "K7": ("683", 2),
    "L12": ("78", 5), "L8": ("9", 2), "M11": ("670", 4), "M13": ("676", 1), "N10": ("58", 2),
    "N12": ("9", 1), "O11": ("7", 3),
}  # fmt: skip
LATE_TOKENS = {
    ("C1", 0): ["AFG"], ("C5", 0): ["IFT", "AFG"], ("E1", 0): ["CTL"], ("H12", 0): ["IFT", "ATA"],
    ("J6", 0): ["SFA"], ("M13", 0): ["ATA", "SFA"], ("M9", 0): ["ATA", "SFA"],
}  # fmt: skip


def late_position() -> MapState:
    s = new_map(manifest="18xx.games")
    for coord, (tile, rot) in LATE_TILES.items():
        s.lay_tile(coord, tile, rot, check=False)
    for (coord, node), corps in LATE_TOKENS.items():
        for corp in corps:
            s.place_token(corp, coord, node)
    return s


def test_best_runs_late_game_afg() -> None:
    # By hand (phase 16H). 16H: Terranova M9 (40, full: an end) - Licata K7 (10) - Girgenti
    # J6 (40) - Palermo C5 (130) - port A5 (10) = 230; distance 2 + 1 + 8 (narrow J6-C5, 4
    # edges) + 1 = 12. R6H: Marsala E1 (40) - Trapani C1 (40) - Alcamo C3 (10) - Partinico D4
    # (10) - Palermo C5 (130) = 230; R6H distance 1 + 2 + 1 + 1 = 5 (narrow and dual count 1).
    # Total 460; the players ran 400 (J6-C5 170 + the same R6H run).
    s = late_position()
    rules = TrackRules1849(phase="16H", cnm_ports={"SFA": "N8"})
    trains = [TrainSpec("16H-0", "16H", 16), TrainSpec("R6H-0", "R6H", 6)]
    runs = best_runs(s, "AFG", trains, rules)
    assert validate_runs(s, "AFG", trains, runs, rules) == 460
    assert runs[0].stops == (("M9", 0), ("K7", 0), ("J6", 0), ("C5", 0), ("A5", 0))
    assert runs[1].stops == (("E1", 0), ("C1", 0), ("C3", 0), ("D4", 0), ("C5", 0))
    logged = [
        run_from_connections(s, "AFG", "16H-0", [["C5", "D6", "F6", "H6", "J6"]],
                             rules=rules, train_spec=trains[0]),
        run_from_connections(s, "AFG", "R6H-0", [["C1", "E1"], ["C3", "D2", "C1"],
                             ["D4", "C3"], ["C5", "D4"]], rules=rules, train_spec=trains[1]),
    ]  # fmt: skip
    assert validate_runs(s, "AFG", trains, logged, rules) == 170 + 230


def test_replay_real_game_runs() -> None:
    """Lay every tile and token of game 27939 and check every logged run at its logged
    revenue; best_runs never does worse than the players."""
    acts = effective_actions(json.loads(EXPORT_27939.read_text("utf-8"))["actions"])
    board = load_board()
    s = new_map(manifest="18xx.games")
    phase, cnm, sigi, sce_blocks, cnm_owner = "4H", {}, None, True, ""
    placed: dict[str, str] = {}
    checked = better = 0
    sms = False
    for a in acts:
        kind = a["type"]
        if kind == "par" and a["corporation"] in board.homes:
            s.place_token(a["corporation"], *board.homes[a["corporation"]])
        elif kind == "buy_train":
            train = a["train"].split("-")[0]
            if train in PHASES and PHASES.index(train) > PHASES.index(phase):
                phase = train
                if phase == "12H":  # privates close; the earthquake
                    sce_blocks = False
                    assert s.revert_hex("B14") == []
        elif kind == "buy_company":
            if a["company"] == "SIGI":
                sigi = a["entity"]
            elif a["company"] == "SCE":
                sce_blocks = False
            elif a["company"] == "CNM":
                cnm_owner = a["entity"]
        elif kind == "assign":
            cnm[cnm_owner] = a["target"]
        elif kind == "choose":
            sms = a["choice"] == "Close SMS"
        elif kind == "lay_tile":
            tile = a["tile"].split("-")[0]
            rules = TrackRules1849(
                phase=phase, colors=tile_colors_for_phase(phase, brown_from="10H"),
                sce_blocks_g13=sce_blocks, sigi_owner=sigi, sms_active=sms,
            )  # fmt: skip
            check_tile_lay(s, a["entity"], a["hex"], tile, a["rotation"], rules,
                           require_connection=not sms)  # fmt: skip
            s.lay_tile(a["hex"], tile, a["rotation"])
            placed[a["tile"]] = a["hex"]
        elif kind == "place_token":
            tile_part = a["city"].rsplit("-", 1)[0]
            coord = placed.get(tile_part, tile_part.split("-")[0])
            corp = a["entity"]
            if not (sms or s.tokens_of(corp) == []):  # SMS and AFG's home need no route
                assert (coord, 0) in token_slots(s, corp)
            s.place_token(corp, coord, 0)
            sms = False
        elif kind == "run_routes":
            corp = a["entity"]
            rules = TrackRules1849(phase=phase, cnm_ports=cnm)
            trains: list[TrainSpec] = []
            runs: list[Run] = []
            for rt in a["routes"]:
                train_kind = rt["train"].split("-")[0]
                spec = TrainSpec(rt["train"], train_kind, int(train_kind.strip("RH")))
                trains.append(spec)
                run = run_from_connections(s, corp, rt["train"], rt["connections"], avoid=runs,
                                           rules=rules, train_spec=spec)  # fmt: skip
                assert validate_run(s, corp, spec, run, rules) == rt["revenue"], (a["id"], rt)
                runs.append(run)
                checked += 1
            logged = validate_runs(s, corp, trains, runs, rules)
            best = validate_runs(s, corp, trains, best_runs(s, corp, trains, rules), rules)
            assert best >= logged, a["id"]
            better += best > logged
    assert checked == 64
    assert better == 18  # hand-checked: the players missed better runs (see above)


@needs_shared(POSITIONS_1889)
def test_1889_positions_are_solved_optimally() -> None:
    """71 real 1889 positions whose optimum three independent solvers agree on."""
    positions = load_positions(POSITIONS_1889)
    assert len(positions) == 71
    for pos in positions:
        solution = solve(pos.state, pos.company, pos.trains, pos.rules)
        assert solution.optimal, pos.id
        revenue = validate_runs(pos.state, pos.company, pos.trains, solution.runs, pos.rules)
        assert revenue == solution.revenue == pos.expected, pos.id


def test_best_runs_on_busy_boards_are_legal_and_optimal() -> None:
    # Late-game boards (speed: benchmarks/routes.py): the runs are legal and the search ends.
    rules = TrackRules1849(phase="16H")
    trains = [TrainSpec("16H-0", "16H", 16), TrainSpec("16H-1", "16H", 16),
              TrainSpec("R6H-0", "R6H", 6)]  # fmt: skip
    for seed in range(2):
        s = busy_board(seed)
        assert len(s.tiles) >= 50
        for corp in ("ATA", "CTL", "IFT", "RCS", "SFA", "AFG"):
            solution = solve(s.copy(), corp, trains, rules)
            assert solution.optimal
            assert validate_runs(s, corp, trains, solution.runs, rules) == solution.revenue
