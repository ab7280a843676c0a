"""1883's CCFR Railway Co-operative (§8.1) and its capitalisation (§8.2)."""

from __future__ import annotations

from test_1883_operating import turn_at
from test_1883_start import game, sell_privates
from tresham.core.actions import Choose, Dividend, Pass
from tresham.core.game import Game
from tresham.core.shares import POOL, treasury
from tresham.titles.t1883 import coop
from tresham.titles.t1883.operating import STEP_OBJECTS
from tresham.titles.t1883.state import state_of, turn_of


def started() -> Game:
    g = game()
    sell_privates(g)
    coop.set_president(g, "A")
    return g


# 1883 §8.1.1, §8.1.5: the Co-operative starts with its two home stations, two 2T and two 2GT
def test_starting_position() -> None:
    g = game()
    s = g.state
    assert s.map.has_token("CCFR", "M1", 0) and s.map.has_token("CCFR", "I3", 0)
    kinds = sorted(s.depot.trains[t].kind for t in s.corps["CCFR"].trains)
    assert kinds == ["2", "2", "2G", "2G"]
    assert s.corps["CCFR"].cash == 0


# 1883 §8.1.2: the presidency rotates left among the players holding their share
def test_presidency_rotates() -> None:
    g = started()
    coop.rotate(g)
    assert state_of(g).coop_president == "B"
    g.state.shares.move("CCFR_3", POOL)  # C's share is gone (looted)
    coop.rotate(g)
    assert state_of(g).coop_president == "D"


# 1883 §8.1.3: the Co-operative always pays out; §8.1.6 its president may loot instead: the
# revenue to the president, the president's share to the pool for half its value, the price
# one column left, and the president is ousted
def test_loot() -> None:
    g = started()
    s = g.state
    rnd = turn_at(g, "CCFR", "loot")
    rnd.turn.revenue = 40
    assert STEP_OBJECTS["loot"].actions(g, rnd, "CCFR") == [Choose("CCFR", "loot"), Pass("CCFR")]
    assert STEP_OBJECTS["dividend"].actions(g, rnd, "CCFR") == [Dividend("CCFR", "payout")]
    cash = g.player("A").cash
    price = s.market.price("CCFR")
    STEP_OBJECTS["loot"].process(g, rnd, "CCFR", Choose("CCFR", "loot"))
    assert g.player("A").cash == cash + 40 + price // 2
    assert s.shares.percent("A", "CCFR") == 0 and s.shares.percent(POOL, "CCFR") == 10
    STEP_OBJECTS["dividend"].skip(g, rnd, "CCFR")
    assert s.market.price("CCFR") < price
    assert "A" not in coop.holders(g)


# 1883 §8.1.5: the first 3T puts one of its 2T in the pool and gives it a 3T
def test_trains_with_the_first_3t() -> None:
    g = started()
    s = g.state
    g.title.on_train_bought(g, "3")  # type: ignore[attr-defined]
    kinds = sorted(s.depot.trains[t].kind for t in s.corps["CCFR"].trains)
    assert kinds == ["2", "2G", "2G", "3"]
    assert any(t.kind == "2" and t.owner == POOL for t in s.depot.trains.values())


# 1883 §8.2.1: the first 5T capitalises it: L.100 and a 5T, its other trains and unowned
# shares to the pool; a sole remaining holder exchanges the share for the president's
# certificate
def test_capitalisation_with_one_holder() -> None:
    g = started()
    s = g.state
    for cid in ("CCFR_2", "CCFR_3", "CCFR_4"):
        s.shares.move(cid, POOL)  # only A still holds a share
    coop.capitalise(g)
    c = s.corps["CCFR"]
    assert c.kind == "railway" and c.cash == 100
    assert [s.depot.trains[t].kind for t in c.trains] == ["5"]
    assert s.shares.president["CCFR"] == "A" and s.shares.percent("A", "CCFR") == 20
    assert s.shares.percent(treasury("CCFR"), "CCFR") == 0
    assert s.shares.percent(POOL, "CCFR") == 80


# 1883 §8.1.7 / §8.2.2: frozen (no player holds a share) it closes at capitalisation and can
# be floated, its stations staying on the map
def test_frozen_coop_closes_at_capitalisation() -> None:
    g = started()
    s = g.state
    for cid in ("CCFR_1", "CCFR_2", "CCFR_3", "CCFR_4"):
        s.shares.move(cid, POOL)
    assert coop.frozen(g)
    coop.capitalise(g)
    c = s.corps["CCFR"]
    assert c.kind == "railway" and not c.floated and "CCFR" not in s.market
    assert s.shares.percent(treasury("CCFR"), "CCFR") == 100
    assert s.map.has_token("CCFR", "M1", 0)


# 1883 §8.1.4: after its lays the Co-operative may lay a free yellow tile in a hill or
# mountain hex connected to its network, last
def test_free_hill_tile() -> None:
    from test_1883_operating import turn_at as at
    from tresham.titles.t1883.operating import OPERATING

    g = started()
    s = g.state
    rnd = at(g, "CCFR", "track")
    extra = s.map.board.extra
    hills = set(extra["hills"]) | set(extra["mountains"])
    turn_of(rnd).lays = 2  # its two lays are made
    free = OPERATING.lay_options(g, rnd, "CCFR") or []
    assert free and all(a.hex in hills for a in free)
    cash = s.corps["CCFR"].cash
    assert OPERATING.lay(g, rnd, "CCFR", free[0]) == 0
    assert s.corps["CCFR"].cash == cash
    assert not OPERATING.more_lays(g, rnd, "CCFR")


# 1883 §3.1 P2: when the privates close, hex 20 gets the Reggio Emilia - Sassuolo connection
# if nobody built it (ruling R21)
def test_frv_connection_at_the_closing() -> None:
    g = started()
    s = g.state
    for kind in ("3", "3bis", "4", "5"):
        g.title.on_train_bought(g, kind)  # type: ignore[attr-defined]
    assert "K3" in s.map.tiles
    exits = s.map.exits("K3")
    assert 3 in exits and 5 in exits  # towards Reggio (I3) and Sassuolo (L4)


# 1883 §8.1.3: "Railway Corporations may not buy trains from the CCFR Co-operative"
def test_no_train_from_the_coop() -> None:
    from rejections import rejected
    from test_1883_operating import floated
    from test_1883_operating import turn_at as at
    from tresham.core.actions import BuyTrain

    g = floated("SAFRE", (2, 8))
    g.state.corps["SAFRE"].cash = 300
    at(g, "SAFRE", "trains")
    coop_train = g.state.corps["CCFR"].trains[0]
    rejected(g, BuyTrain("SAFRE", coop_train, 1))


# 1883 §8.1.4: the Co-operative lays a tile from each of its home cities (Ciano and Reggio
# Emilia), in any order: with the two not connected, after a lay reachable only from Ciano the
# second lay must be reachable from Reggio Emilia
def test_one_lay_from_each_home() -> None:
    from tresham.core.graph import legal_tile_lays
    from tresham.titles.t1883.operating import OPERATING, rules_for

    g = started()
    s = g.state
    rnd = turn_at(g, "CCFR", "track")
    rules = rules_for(g, "CCFR")
    ciano, reggio = ("M1", 0), ("I3", 0)

    def keys(start: tuple[str, int]) -> set[tuple[str, str, int]]:
        return {
            (t.hex, t.tile, t.rotation) for t in legal_tile_lays(s.map, "CCFR", rules, start=start)
        }

    from_ciano, from_reggio = keys(ciano), keys(reggio)
    options = {(a.hex, a.tile, a.rotation) for a in OPERATING.lay_options(g, rnd, "CCFR") or []}
    assert options == from_ciano | from_reggio
    only_ciano = sorted(from_ciano - from_reggio)
    assert only_ciano
    first = only_ciano[0]
    action = next(
        a
        for a in OPERATING.lay_options(g, rnd, "CCFR") or []
        if (a.hex, a.tile, a.rotation) == first
    )
    OPERATING.lay(g, rnd, "CCFR", action)
    second = {(a.hex, a.tile, a.rotation) for a in OPERATING.lay_options(g, rnd, "CCFR") or []}
    assert second and second == keys(reggio)
