"""1883's 2G gravity trains (§6.9.5)."""

from __future__ import annotations

from test_1883_events import draw, total_cash
from test_1883_operating import float_also, floated, turn_at
from test_1883_sefta import pair_at_65
from test_1883_start import ABCD, TITLE, sell_privates
from tresham.core.actions import BuyTrain, Choose, DiscardTrain
from tresham.core.game import Game
from tresham.core.phases import first_purchase
from tresham.core.shares import POOL
from tresham.sim import check_invariants
from tresham.titles.t1883 import gravity, sefta
from tresham.titles.t1883.operating import STEP_OBJECTS
from tresham.titles.t1883.versions import PRUNED_SEARCH_VERSION


def give(g: Game, corp: str, *kinds: str) -> None:
    s = g.state
    for kind in kinds:
        train = next(t for t in s.depot.in_bank() if t.kind == kind)
        train.owner = corp
        s.corps[corp].trains.append(train.tid)


# 1883 §6.9.5: a 2GT only beside a 2T, 3T or 3bisT, never more 2GT than those; 2GT do not
# count toward the train limit
def test_who_may_buy_a_2gt() -> None:
    g = floated("SAFRE", (2, 8))
    assert not gravity.may_buy(g, "SAFRE")
    give(g, "SAFRE", "2")
    assert gravity.may_buy(g, "SAFRE")
    give(g, "SAFRE", "2G")
    assert not gravity.may_buy(g, "SAFRE")
    assert g.title.trains_toward_limit(g, "SAFRE") == 1  # type: ignore[attr-defined]


# 1883 §6.9.5: excess 2GT (when their 2T rust with the first 4T... or are sold) go back to the
# bank without compensation
def test_excess_2gt_return() -> None:
    g = floated("SAFRE", (2, 8))
    give(g, "SAFRE", "2", "2G")
    g.state.corps["SAFRE"].trains.remove(g.state.corps["SAFRE"].trains[0])  # the 2T is gone
    gravity.return_excess(g)
    assert gravity.gravity_trains(g, "SAFRE") == []


# 1883 §6.9.5: downhill means mountain over hill over plains; an off-board counts by its symbol
def test_altitudes() -> None:
    g = floated("SAFRE", (2, 8))
    extra = g.state.map.board.extra
    assert gravity.altitude(g, extra["mountains"][0]) == 2
    assert gravity.altitude(g, extra["hills"][0]) == 1
    assert gravity.altitude(g, "L6") == 0  # Modena, on the plain
    assert gravity.altitude(g, "Q1") == 2  # Aulla/La Spezia, a mountain symbol
    assert gravity.altitude(g, "P10") == 1  # Bologna/Firenze, a hill symbol


# ---------------------------------------------------------------- the standing limit (R35)
# 1883 §6.9.5 "The number of 2GT owned by a Corporation cannot exceed the total number of 2T,
# 3T, and 3bisT it owns ... Excess 2GT are returned to the bank, without compensation": after
# every change of a corporation's trains, whatever its cause (ruling R35)


def free_the_coops_2gt(g: Game) -> None:
    """Put the Co-operative's two 2GT back on the Available G Trains space (a position with
    all six 2GT to hand out)."""
    s = g.state
    for tid in gravity.gravity_trains(g, "CCFR"):
        s.corps["CCFR"].trains.remove(tid)
        s.depot.trains[tid].owner = None


def g_supply(g: Game) -> int:
    """The 2GT on the "Available G Trains" space (unsold, in the bank)."""
    return sum(1 for t in g.state.depot.in_bank() if t.kind == "2G")


def held(g: Game, corp: str) -> int:
    return len(gravity.gravity_trains(g, corp))


def assert_limit_holds(g: Game) -> None:
    assert g.title.limit_violations(g) == []
    assert not [v for v in check_invariants(g, total_cash(g)) if "2GT" in v]


# §6.9.2 + §6.9.5: FMV buys FSMMF's only 2T for L.1 (the same president, so not asked):
# FSMMF's 2GT goes back at once, can be bought again, and does not run in FSMMF's turn
def test_a_2t_sold_to_another_corporation_sends_the_2gt_back() -> None:
    g = floated("FMV", (2, 8))
    float_also(g, "FSMMF", (2, 9), "A")
    first_purchase(g, "2")  # the first 2T was sold long ago: no new train type here
    give(g, "FSMMF", "2", "2G")
    two, grav = g.state.corps["FSMMF"].trains
    supply = g_supply(g)
    g.state.corps["FMV"].cash = 100
    turn_at(g, "FMV", "trains")
    g.apply(BuyTrain("FMV", two, 1))
    assert g.state.corps["FMV"].trains == [two]
    assert held(g, "FSMMF") == 0 and g.state.depot.trains[grav].owner is None
    assert g_supply(g) == supply + 1
    assert any("FSMMF returns a 2G train to the bank" in e for e in g.state.events)
    assert_limit_holds(g)
    rnd = turn_at(g, "FSMMF", "gravity")
    assert STEP_OBJECTS["gravity"].actions(g, rnd, "FSMMF") == []


# §6.9.5 and saves: under rules version 4 the same sale left FSMMF its 2GT (replays unchanged)
def test_saves_before_the_standing_limit_replay_as_played() -> None:
    g = Game(TITLE, ABCD, 1, rules_version=PRUNED_SEARCH_VERSION)
    sell_privates(g)
    float_also(g, "FMV", (2, 8), "A")
    float_also(g, "FSMMF", (2, 9), "A")
    first_purchase(g, "2")
    give(g, "FSMMF", "2", "2G")
    two = g.state.corps["FSMMF"].trains[0]
    g.state.corps["FMV"].cash = 100
    turn_at(g, "FMV", "trains")
    g.apply(BuyTrain("FMV", two, 1))
    assert held(g, "FSMMF") == 1
    assert g.title.limit_violations(g) == []  # not a limit of that version


# §11.2 #23 War Effort: FBV (3bisT, 2T, two 2GT) gives its dearest train, the 3bisT: one 2GT
# is now in excess and goes back
def test_a_train_lost_to_the_war_effort_sends_the_excess_back() -> None:
    g = floated("FBV", (2, 8))
    give(g, "FBV", "3bis", "2", "2G", "2G")
    supply = g_supply(g)
    draw(g, 23)
    assert g.state.pending == [("event_support", "FBV")]
    g.apply(Choose("FBV", "decline"))
    kinds = sorted(g.state.depot.trains[t].kind for t in g.state.corps["FBV"].trains)
    assert kinds == ["2", "2G"]
    assert g_supply(g) == supply + 1
    assert_limit_holds(g)


# §6.9.4 + §6.9.5: over the train limit (4 in phase 2, 2GT aside) FBV puts a 2T in the pool:
# with five 2T and five 2GT, one 2GT goes back
def test_a_train_discarded_over_the_limit_sends_the_excess_back() -> None:
    g = floated("FBV", (2, 8))
    free_the_coops_2gt(g)
    give(g, "FBV", *["2"] * 5, *["2G"] * 5)
    s = g.state
    supply = g_supply(g)
    turn_at(g, "FBV", "trains")
    s.pending.append(("discard", "FBV"))
    two = next(t for t in s.corps["FBV"].trains if s.depot.trains[t].kind == "2")
    g.apply(DiscardTrain("FBV", two))
    assert s.depot.trains[two].owner == POOL
    assert held(g, "FBV") == 4 and g_supply(g) == supply + 1
    assert_limit_holds(g)


# §6.9.5 + Appendix 3 "the first 4T rusts the 2T and 2GT": the 2GT leave the game with the 2T
# (they are not returned to the Available G Trains space); FBV keeps its 3T
def test_rusting_2t_takes_the_2gt_out_of_the_game() -> None:
    g = floated("FBV", (2, 8))
    float_also(g, "FMV", (2, 9), "B")
    give(g, "FBV", "2", "3", "2G")
    s = g.state
    for t in s.depot.order:
        if s.depot.trains[t].owner is None and s.depot.trains[t].kind in ("2", "3", "3bis"):
            s.depot.trains[t].owner = "scrapped"
    s.corps["FMV"].cash = 400
    turn_at(g, "FMV", "trains")
    g.apply(BuyTrain("FMV", "4-0", 350))
    kinds = [s.depot.trains[t].kind for t in s.corps["FBV"].trains]
    assert kinds == ["3"]
    assert g_supply(g) == 0  # every 2GT rusted, the unsold ones too
    assert_limit_holds(g)


# §8.4 + §6.9.4 + §6.9.5: SEFTA takes FMV's and FSMMF's trains (five 2T/3T, five 2GT), is
# over the limit and discards a 3T: one 2GT goes back
def test_a_merged_corporation_discarding_sends_the_excess_back() -> None:
    g = pair_at_65()
    free_the_coops_2gt(g)
    give(g, "FMV", "2", "2", "2G", "2G")
    give(g, "FSMMF", "3", "3", "3", "2G", "2G", "2G")
    s = g.state
    supply = g_supply(g)
    sefta.merge(g, "FMV")
    assert held(g, "SEFTA") == 5
    while s.pending and s.pending[0][0] == "sefta_leftover":
        g.apply(Choose(s.pending[0][1], sefta.DISCARD))
    assert s.pending == [("discard", "SEFTA")]  # 2GT do not count toward the limit
    three = next(t for t in s.corps["SEFTA"].trains if s.depot.trains[t].kind == "3")
    g.apply(DiscardTrain("SEFTA", three))
    assert held(g, "SEFTA") == 4 and g_supply(g) == supply + 1
    assert_limit_holds(g)


# `tresham simulate` checks §6.9.5 after every action: a corporation left with a 2GT and no
# 2T, 3T or 3bisT is reported
def test_the_simulation_reports_an_excess_2gt() -> None:
    g = floated("FBV", (2, 8))
    give(g, "FBV", "2G")
    assert check_invariants(g, total_cash(g)) == ["FBV holds 1 2GT beyond its 2T, 3T and 3bisT"]
