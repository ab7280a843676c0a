"""1883 §6.7: runs along the FS red track from a "T" city to its off-board box, with the
rulebook's four EXAMPLES played on the reconstructed board (Castelfranco, Modena, Reggio
Emilia, Bologna/Firenze)."""

from __future__ import annotations

import pytest

from positions import give_train
from test_1883_events import draw
from test_1883_operating import floated, lay_track
from tresham.core.errors import RouteError
from tresham.core.game import Game
from tresham.core.graph import track_graph
from tresham.core.rules_protocols import TrainSpec
from tresham.routes import solve
from tresham.routes.runs import Run, run_revenue
from tresham.titles.t1883 import concessions
from tresham.titles.t1883.operating import rules_for, train_specs
from tresham.titles.t1883.state import state_of
from tresham.titles.t1883.track_rules import FS

CASTELFRANCO, MODENA, REGGIO, BOLOGNA = "N8", "L6", "I3", "P10"
FS_CASTELFRANCO = (f"FS:{CASTELFRANCO}>{BOLOGNA}", 0)


def token(g: Game, corp: str, coord: str, node: int = 0) -> None:
    g.state.map.place_token(corp, coord, node)
    g.state.corps[corp].placed.append((coord, node))


def best(g: Game, corp: str) -> int:
    sol = solve(g.state.map, corp, train_specs(g, corp), rules_for(g, corp))
    assert sol.optimal
    return sol.revenue


def value(g: Game, coord: str) -> int:
    return g.state.map.tile(coord).nodes[0].revenue_in(g.phase.name)


def modena_to_castelfranco(g: Game) -> tuple[tuple[str, int], ...]:
    """Lay track on the plain hex between Modena and Castelfranco; return the paths from
    Modena's city to Castelfranco's, in travel order."""
    board = g.state.map.board
    between = next(
        h
        for h in board.neighbors(MODENA).values()
        if h in board.neighbors(CASTELFRANCO).values() and not board.hexes[h].tile.nodes
    )
    lay_track(
        g,
        between,
        {board.edge_between(between, MODENA) or 0, board.edge_between(between, CASTELFRANCO) or 0},
    )
    m = g.state.map
    track = []
    for coord, other in ((MODENA, between), (between, None), (CASTELFRANCO, between)):
        for i, p in enumerate(m.paths(coord)):
            edges = {e.num for e in (p.a, p.b) if e.is_edge}
            if other is None or board.edge_between(coord, other) in edges:
                track.append((coord, i))
    return tuple(track)


# 1883 §6.7 EXAMPLE: the route from the "T" city of Castelfranco to its off-board box needs a
# 3T and a station on Castelfranco: the "T" city counts as two stations
def test_castelfranco_needs_a_3t() -> None:
    g = floated("FBV", (2, 8))
    token(g, "FBV", CASTELFRANCO)
    give_train(g, "FBV", "2")
    assert best(g, "FBV") == 0
    three = give_train(g, "FBV", "3")
    assert best(g, "FBV") == value(g, CASTELFRANCO) + value(g, BOLOGNA)
    run = Run(three, ((CASTELFRANCO, 0), (BOLOGNA, 0)), (FS_CASTELFRANCO,))
    spec = TrainSpec(three, "3", 3)
    assert run_revenue(g.state.map, "FBV", spec, run, rules_for(g, "FBV")) == 50


# 1883 §6.7 EXAMPLE: FSMMF needs a 4T to reach the off-board box from its station on city A
# (Modena) through the "T" city C (Castelfranco)
def test_from_a_station_through_the_t_city_needs_a_4t() -> None:
    g = floated("FSMMF", (2, 8))
    token(g, "FSMMF", MODENA)
    track = (*modena_to_castelfranco(g), FS_CASTELFRANCO)
    stops = ((MODENA, 0), (CASTELFRANCO, 0), (BOLOGNA, 0))
    rules = rules_for(g, "FSMMF")
    run4 = Run("4-0", stops, track)
    assert run_revenue(g.state.map, "FSMMF", TrainSpec("4-0", "4", 4), run4, rules) == (
        value(g, MODENA) + value(g, CASTELFRANCO) + value(g, BOLOGNA)
    )
    with pytest.raises(RouteError, match="distance is 4"):
        run_revenue(g.state.map, "FSMMF", TrainSpec("3-0", "3", 3), Run("3-0", stops, track), rules)


# 1883 §6.7 EXAMPLE: FSMMF cannot reach the box when the "T" city is full of other
# corporations' stations
def test_blocked_t_city() -> None:
    g = floated("FSMMF", (2, 8))
    token(g, "FSMMF", MODENA)
    token(g, "SV", CASTELFRANCO)
    track = (*modena_to_castelfranco(g), FS_CASTELFRANCO)
    run = Run("4-0", ((MODENA, 0), (CASTELFRANCO, 0), (BOLOGNA, 0)), track)
    with pytest.raises(RouteError):
        run_revenue(g.state.map, "FSMMF", TrainSpec("4-0", "4", 4), run, rules_for(g, "FSMMF"))
    # §6.7: only the corporations with a station in the full "T" city use its FS route
    run = Run("3-0", ((CASTELFRANCO, 0), (BOLOGNA, 0)), (FS_CASTELFRANCO,))
    spec = TrainSpec("3-0", "3", 3)
    assert run_revenue(g.state.map, "SV", spec, run, rules_for(g, "SV")) == 50


# 1883 §6.7 EXAMPLE: the cities along the FS track between the "T" city and the box are
# ignored, and other corporations' stations there have no effect (Reggio Emilia to Bologna
# passes Modena)
def test_cities_on_the_fs_line_are_ignored() -> None:
    g = floated("FSMMF", (2, 8))
    coop = state_of(g).coop
    assert g.state.map.has_token(coop, REGGIO, 0)  # the Co-operative's home (8.1.1)
    token(g, "FSMMF", MODENA)
    token(g, "SV", MODENA)
    assert g.state.map.blocks(MODENA, 0, coop)
    run = Run("3-0", ((REGGIO, 0), (BOLOGNA, 0)), ((f"FS:{REGGIO}>{BOLOGNA}", 0),))
    spec = TrainSpec("3-0", "3", 3)
    revenue = run_revenue(g.state.map, coop, spec, run, rules_for(g, coop))
    assert revenue == value(g, REGGIO) + value(g, BOLOGNA) == 50


# 1883 §6.7: different trains of one corporation reach the same box only from different
# "T" cities; one FS route carries one train
def test_one_train_per_fs_route() -> None:
    g = floated("FSMMF", (2, 8))
    token(g, "FSMMF", CASTELFRANCO)
    give_train(g, "FSMMF", "3")
    give_train(g, "FSMMF", "3")
    alone = value(g, CASTELFRANCO) + value(g, BOLOGNA)
    assert best(g, "FSMMF") == alone
    token(g, "FSMMF", MODENA)
    assert best(g, "FSMMF") == alone + value(g, MODENA) + value(g, BOLOGNA)


# 1883 §6.7: a route using the FS track includes only one off-board location
def test_one_offboard_with_the_fs() -> None:
    g = floated("FBV", (2, 8))
    m = g.state.map
    rules = rules_for(g, "FBV")
    graph = track_graph(m)
    stops = [graph.stop(("a4", 0)), graph.stop((MODENA, 0)), graph.stop((BOLOGNA, 0))]
    spec = TrainSpec("5-0", "5", 5)
    assert rules.check_run(spec, "FBV", stops, frozenset({FS, "standard"})) is not None
    assert rules.check_run(spec, "FBV", stops, frozenset({"standard"})) is None


# 1883 §11.1 #10 "Red" Week: no route along the FS this OR
def test_red_week_closes_the_fs() -> None:
    g = floated("FBV", (2, 8))
    token(g, "FBV", CASTELFRANCO)
    give_train(g, "FBV", "3")
    state_of(g).support.held["A"] = 0
    draw(g, 10)
    assert best(g, "FBV") == 0


# 1883 §5.6.1: a concession's route cannot use the FS red track
def test_concessions_ignore_the_fs() -> None:
    g = floated("FBV", (2, 8))
    token(g, "FBV", CASTELFRANCO)
    assert not concessions.connects(g, "FBV", [CASTELFRANCO, BOLOGNA])
