"""1883's 2G gravity trains (§6.9.5)."""

from __future__ import annotations

from test_1883_operating import floated
from tresham.core.game import Game
from tresham.titles.t1883 import gravity


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
