"""Rulebook EXAMPLES drawn as figures (letters on a map the rulebook does not print), played on
the reconstructed board with its own places and values: §6.8.1 (trains crossing in a city,
never sharing track), §6.9.5 (a 2GT reusing a 2T's stretch downhill for half its value), and
§10.0 (the bank breaking in the second OR of three)."""

from __future__ import annotations

import pytest

from test_1883_events import give_train
from test_1883_operating import floated, lay_track, turn_at
from tresham.core.errors import RouteError
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
    assert rnd.turn["revenue"] == 30
    step = STEP_OBJECTS["gravity"]
    step.process(g, rnd, "FMV", step.actions(g, rnd, "FMV")[0])
    roll = next(e for e in reversed(s.events) if "d10" in e)
    assert rnd.turn["revenue"] == (45 if "downhill" in roll else 30)


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
