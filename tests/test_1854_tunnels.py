"""1854 §5.3.1 Tunnels (rulings TU1-TU4). The rulebook's examples are drawn on its promotions
chart, which we do not hold; these tests play the rule's sentences with their own numbers.

``two_companies``: KE (Wien, 670 G, Director C) is laying track; Wien's KE track leads into
Krems & Tulln (C21, two small cities, 50 G terrain) by its edge 4; Ybbs (C19, a small city)
lies beyond C21's edge 1. B owns the Murtalbahn and is SD's Director."""

from __future__ import annotations

from helpers_1854 import TITLE, rejected
from positions import give_train
from test_1854_operating import two_companies
from tresham.core.actions import LayTile, Pass
from tresham.core.game import Game
from tresham.core.graph import legal_tile_lays
from tresham.core.track import OVERLAY_BASE
from tresham.titles.t1854 import local_railways, tunnels
from tresham.titles.t1854.actions import BuildTunnel
from tresham.titles.t1854.operating import rules_for
from tresham.titles.t1854.versions import DEALS_VERSION


def test_a_tunnel_instead_of_a_tile() -> None:
    # 1854 §5.3.1: "At any time, instead of placing or promoting a tile, a company may build a
    # tunnel. A tunnel costs 100 G." It continues a line leading up to the hex (Wien's track
    # into C21's edge 4)
    g = two_companies()
    s = g.state
    assert g.active_entity() == "KE"
    digs = {a for a in g.legal_actions() if isinstance(a, BuildTunnel)}
    assert digs == {BuildTunnel("KE", "C21", e, 4) for e in (0, 1, 2, 3)} | {
        BuildTunnel("KE", "C21", 4, 5)
    }
    g.apply(BuildTunnel("KE", "C21", 1, 4))
    assert s.corps["KE"].cash == 670 - 100 and s.map.overlays == {"C21": [(1, 4)]}
    assert not [a for a in g.legal_actions() if isinstance(a, LayTile | BuildTunnel)]
    assert tunnels.built(g) == 1


def test_where_a_tunnel_may_not_go() -> None:
    # 1854 §5.3.1: not on a hex with a large city; it continues the company's line; a hex with
    # two small cities takes one tunnel; §5.3: a tunnel leads nowhere off the map
    g = two_companies()
    rejected(g, BuildTunnel("KE", "C23", 3, 4), "§5.3.1")  # Wien: large cities
    rejected(g, BuildTunnel("KE", "C21", 0, 2), "§5.3.1")  # no end at Wien's line
    rejected(g, BuildTunnel("KE", "C21", 4, 4), "§5.3.1")
    g.apply(BuildTunnel("KE", "C21", 1, 4))
    rules = rules_for(g, "KE")
    err = tunnels.problem(g, "KE", "C21", 0, 4, rules)
    assert err is not None and "two small cities" in str(err)


def test_tunnels_in_one_hex_never_cross() -> None:
    # 1854 §5.3.1: "Although two (or even three) tunnels are allowed in a hex, they may not
    # cross": three sharp curves fit; straights always meet in the middle
    assert not tunnels.crosses((0, 1), (2, 3)) and not tunnels.crosses((2, 3), (4, 5))
    assert not tunnels.crosses((0, 1), (4, 5)) and not tunnels.crosses((0, 3), (1, 2))
    assert tunnels.crosses((0, 3), (1, 4)) and tunnels.crosses((0, 3), (2, 5))
    assert tunnels.crosses((0, 2), (2, 4))  # a shared end
    assert tunnels.crosses((1, 4), (0, 2)) and tunnels.crosses((0, 2), (1, 4))


def test_a_tunnel_never_overlies_track() -> None:
    # 1854 §5.3.1: "Neither end of the tunnel may overlie another track connection"; "after
    # the promotion it remains the case that the tunnel may not overlie other track"
    g = two_companies()
    s = g.state
    lay = next(t for t in legal_tile_lays(s.map, "KE", rules_for(g, "KE"), hexes=["C21"]))
    s.map.lay_tile("C21", lay.tile, lay.rotation)
    exits = s.map.tile("C21").exits(s.map.rotation("C21"))
    end = min(exits)
    other = next(e for e in range(6) if e not in exits)
    err = tunnels.problem(g, "KE", "C21", end, other, rules_for(g, "KE"))
    assert err is not None and "overlie" in str(err)
    g2 = two_companies()
    g2.apply(BuildTunnel("KE", "C21", 1, 4))
    lays = legal_tile_lays(g2.state.map, "SD", rules_for(g2, "SD"), hexes=["C21"])
    assert all(not {1, 4} & g2.state.map.catalogue[t.tile].exits(t.rotation) for t in lays)


def test_the_murtalbahn_makes_a_tunnel_40_cheaper() -> None:
    # 1854 Table 2: Murtalbahn: "Building a tunnel is 40 G cheaper" for its owner's companies
    # (ruling TU3), until the Mountain Railways close in Phase 5
    g = two_companies()
    s = g.state
    assert s.companies["P2"].owner == "B" and s.shares.president["SD"] == "B"
    assert tunnels.cost(g, "SD") == 60 and tunnels.cost(g, "KE") == 100
    s.companies["P2"].closed = True
    assert tunnels.cost(g, "SD") == 100


def test_the_thirteen_tunnels_are_all_there_are() -> None:
    # 1854 §1.1: 13 transparent tiles
    g = two_companies()
    for coord in ("E3", "E5", "E7", "E9", "F4", "F6", "F10", "F12", "F14", "F16", "F18", "G5"):
        g.state.map.add_overlay(coord, 0, 1)
    g.apply(BuildTunnel("KE", "C21", 1, 4))
    assert tunnels.built(g) == 13
    err = tunnels.problem(g, "SD", "C21", 0, 2, rules_for(g, "SD"))
    assert err is not None and "13" in str(err)


def test_each_tunnel_shape_runs_out() -> None:
    # 1854 §1.1: "13 transparent" tiles; the original set's are 4 straight (467), 5 gentle
    # (468) and 4 sharp (469) tunnels (ruling D9): with the 4 straight ones built, KE may dig
    # only a curve under Krems & Tulln
    g = two_companies()
    assert tunnels.supply(g) == {3: 4, 2: 5, 1: 4}
    for coord in ("E3", "E5", "E9", "F4"):
        g.state.map.add_overlay(coord, 0, 3)
    assert tunnels.shapes_left(g) == {3: 0, 2: 5, 1: 4}
    rejected(g, BuildTunnel("KE", "C21", 1, 4), "§1.1")
    digs = {a for a in g.legal_actions() if isinstance(a, BuildTunnel)}
    assert digs == {BuildTunnel("KE", "C21", e, 4) for e in (0, 2, 3)} | {
        BuildTunnel("KE", "C21", 4, 5)
    }
    for coord in ("F6", "F10", "F12", "F14"):
        g.state.map.add_overlay(coord, 0, 1)
    digs = {a for a in g.legal_actions() if isinstance(a, BuildTunnel)}
    # the sharp ones gone too, the gentle curves are left
    assert digs == {BuildTunnel("KE", "C21", 0, 4), BuildTunnel("KE", "C21", 2, 4)}
    g.apply(BuildTunnel("KE", "C21", 2, 4))
    assert tunnels.built_by_shape(g) == {3: 4, 1: 4, 2: 1}


def test_older_saves_dig_any_shape() -> None:
    # Rules versions 1-3 (the revised board, ruling D6) replay as played: 13 tunnels of any
    # shape (ruling TU1), so a fifth straight one is still allowed there
    g = Game(TITLE, ["A", "B", "C"], seed=1, rules_version=DEALS_VERSION)
    assert tunnels.supply(g) == {} and tunnels.shapes_left(g) is None
    for coord in ("E3", "E5", "E9", "F4", "F6"):
        g.state.map.add_overlay(coord, 0, 3)
    assert tunnels.built(g) == 5


def test_a_train_runs_through_the_tunnel() -> None:
    # 1854 §5.3.1, §5.6: the tunnel is track: KE's 2-train runs Wien (40) - through the
    # tunnel under Krems & Tulln - Ybbs (10) for 50 G
    g = two_companies()
    s = g.state
    g.apply(BuildTunnel("KE", "C21", 1, 4))
    (lay,) = [
        t
        for t in legal_tile_lays(s.map, "KE", rules_for(g, "KE"), hexes=["C19"])
        if s.map.catalogue[t.tile].exits(t.rotation) == {1, 4}
    ]
    s.map.lay_tile("C19", lay.tile, lay.rotation)
    give_train(g, "KE", "2")
    (run,) = TITLE.best_routes(g, "KE").runs
    assert ("C21", OVERLAY_BASE) in run.track
    assert sorted(h for h, _ in run.stops) == ["C19", "C23"] and run.revenue == 40 + 10


def test_clearing_the_extra_map_removes_its_tunnels() -> None:
    # 1854 §5.3: when the extra map is cleared its tiles "are once more available"; the
    # tunnels on it go back too (ruling TU4)
    g = two_companies()
    s = g.state
    s.map.add_overlay("J36", 0, 3)
    local_railways.clear_extra_map(g)
    assert "J36" not in s.map.overlays and tunnels.built(g) == 0
    assert Pass("KE") in g.legal_actions()
