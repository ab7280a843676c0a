"""Rulebook EXAMPLES drawn as figures (letters on a map the rulebook does not print), played on
the reconstructed board with its own places and values: §6.8.1 (trains crossing in a city,
never sharing track), §6.9.5 (a 2GT reusing a 2T's stretch downhill for half its value), and
§10.0 (the bank breaking in the second OR of three), §6.5 (stations beyond a full city), §6.4.1
and §6.4.2 (a tile extends the track; an upgrade is reached from a station)."""

from __future__ import annotations

import pytest

from positions import give_train
from test_1883_operating import floated, lay_track, turn_at
from tresham.core.errors import RouteError, TrackError
from tresham.core.game import Game
from tresham.core.graph import check_tile_lay, legal_tile_lays, token_slots
from tresham.core.rules_protocols import TrainSpec
from tresham.routes.runs import Run, validate_runs
from tresham.titles.t1883 import gravity
from tresham.titles.t1883.operating import STEP_OBJECTS, rules_for

MODENA, BOLOGNA, MANTOVA = "L6", "P10", "a4"


def fs(box: str) -> tuple[str, int]:
    return (f"FS:{MODENA}>{box}", 0)


# 1883 §6.8.1 EXAMPLES: two trains of a corporation may cross in a city (here both leave
# Modena), but no two may run on the same track (here the same FS route)
def test_trains_cross_in_a_city_but_never_share_track() -> None:
    g = floated("FSMMF", (2, 8))
    s = g.state
    s.map.place_token("FSMMF", MODENA, 0)
    rules = rules_for(g, "FSMMF")
    trains = [TrainSpec("3-0", "3", 3), TrainSpec("3-1", "3", 3)]
    to_bologna = Run("3-0", ((MODENA, 0), (BOLOGNA, 0)), (fs(BOLOGNA),), 60)
    to_mantova = Run("3-1", ((MODENA, 0), (MANTOVA, 0)), (fs(MANTOVA),), 50)
    assert validate_runs(s.map, "FSMMF", trains, [to_bologna, to_mantova], rules) == 110
    twice = Run("3-1", ((MODENA, 0), (BOLOGNA, 0)), (fs(BOLOGNA),), 60)
    with pytest.raises(RouteError, match="track"):
        validate_runs(s.map, "FSMMF", trains, [to_bologna, twice], rules)


# 1883 §6.9.5 EXAMPLE: after the 2T, the 2GT runs a downhill stretch between two consecutive
# stations, even one a 2T ran, for half its value (rounded up): Vignola (hill, L.20) down to
# Spilamberto (plains, L.10) pays the 2T L.30 and the 2GT L.15
def test_a_2gt_runs_downhill_on_a_2t_stretch_for_half() -> None:
    g = floated("FMV", (2, 8))
    s = g.state
    s.map.place_token("FMV", "S7", 0)  # Vignola, FMV's home
    board = s.map.board
    lay_track(g, "Q7", {board.edge_between("Q7", "S7") or 0, board.edge_between("Q7", "O7") or 0})
    lay_track(g, "O7", {board.edge_between("O7", "Q7") or 0})
    give_train(g, "FMV", "2")
    gt = give_train(g, "FMV", "2G")
    runs = gravity.best_runs(g, "FMV")
    assert [(r.train, r.stops, r.revenue) for r in runs] == [(gt, (("S7", 0), ("O7", 0)), 15)]
    rnd = turn_at(g, "FMV", "routes")
    STEP_OBJECTS["routes"].process(g, rnd, "FMV", STEP_OBJECTS["routes"].actions(g, rnd, "FMV")[0])
    assert rnd.turn.revenue == 30
    step = STEP_OBJECTS["gravity"]
    step.process(g, rnd, "FMV", step.actions(g, rnd, "FMV")[0])
    roll = next(e for e in reversed(s.events) if "d10" in e)
    assert rnd.turn.revenue == (45 if "downhill" in roll else 30)


# 1883 §10.0 EXAMPLE: the bank breaks during the second OR of three: that OR is completed, the
# third is played, and then the game ends
def test_bank_breaks_in_the_second_of_three_ors() -> None:
    g = floated("FBV", (2, 8))
    s = g.state
    title = g.title
    turn_at(g, "FBV", "dividend")
    s.ors_in_set, s.or_in_set = 3, 2
    s.bank.pay_out(s.bank.cash + 1)
    assert s.bank.broken
    assert not title.check_end(g, round_over=False)
    assert not title.check_end(g, round_over=True)  # the second OR ends: play on
    s.or_in_set = 3
    assert not title.check_end(g, round_over=False)
    assert title.check_end(g, round_over=True)  # the third OR ends: game over
    assert s.end_reason == "bank"


def reggio_to_castelfranco() -> tuple[Game, set[tuple[str, int]]]:
    """SAFRE at Reggio Emilia with track on to Modena (the grey hex between) and on to
    Castelfranco; FSMMF's home station in Modena."""
    g = floated("SAFRE", (2, 8))
    s = g.state
    s.map.place_token("SAFRE", "I3", 1)
    s.map.place_token("FSMMF", MODENA, 0)
    board = s.map.board
    for coord, a, b in (("J4", "I3", "K5"), ("M7", MODENA, "N8")):
        lay_track(g, coord, {board.edge_between(coord, a) or 0, board.edge_between(coord, b) or 0})
    return g, set(token_slots(s.map, "SAFRE"))


# 1883 §6.5 EXAMPLES: a station cannot go in a city full of other corporations' stations, nor
# in one reached only through it; with a free space there, both can be reached
def test_stations_beyond_a_full_city() -> None:
    g, slots = reggio_to_castelfranco()
    assert {(MODENA, 0), ("N8", 0)} <= slots  # Modena has a free space: both reachable
    g.state.map.place_token("SV", MODENA, 0)  # now Modena is full
    assert (MODENA, 0) not in set(token_slots(g.state.map, "SAFRE"))
    assert ("N8", 0) not in set(token_slots(g.state.map, "SAFRE"))


# 1883 §6.4.1 EXAMPLE: a straight next to a corporation's station extends its track when laid
# against the station's exit, and is refused when it is not an extension (here a station in
# Persiceto and a straight town tile, #4, in Decima: the board's plain hex next to an exit)
def test_a_tile_must_extend_the_track() -> None:
    g = floated("FSMMF", (2, 8))
    s = g.state
    s.map.place_token("FSMMF", "K9", 0)
    rules = rules_for(g, "FSMMF")
    toward = s.map.board.edge_between("I9", "K9")
    assert toward is not None
    good = next(r for r in range(3) if toward in s.map.catalogue["4"].exits(r))
    bad = next(r for r in range(3) if toward not in s.map.catalogue["4"].exits(r))
    assert check_tile_lay(s.map, "FSMMF", "I9", "4", good, rules) == 0
    with pytest.raises(TrackError, match="does not reach"):
        check_tile_lay(s.map, "FSMMF", "I9", "4", bad, rules)


# 1883 §6.4.2 EXAMPLE: an upgrade is allowed only if a route from the corporation's station
# can be traced on the new track
def test_an_upgrade_must_be_reached_from_a_station() -> None:
    g, _slots = reggio_to_castelfranco()
    s = g.state
    g.state.phase_index = 1  # phase 3: green tiles
    upgrades = legal_tile_lays(s.map, "SAFRE", rules_for(g, "SAFRE"), hexes=["J4"])
    assert upgrades  # SAFRE reaches J4 from Reggio Emilia
    lay = upgrades[0]
    with pytest.raises(TrackError, match="does not reach"):
        check_tile_lay(s.map, "FBV", "J4", lay.tile, lay.rotation, rules_for(g, "FBV"))
