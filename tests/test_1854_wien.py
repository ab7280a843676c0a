"""1854 §5.3, §5.4, §5.6: Wien's W tiles (rulings W1, W2). Wien is printed yellow with three
cities, one per track (SD's at edge 0, KE's at edge 1, FJ's at edge 2); tile 433 (green) has
five one-space cities, 451 (brown) three cities of 1, 2 and 2 spaces each on two edges, 456
(grey) one city of five spaces."""

from __future__ import annotations

from helpers_1854 import TITLE, rejected
from test_1854_operating import two_companies
from tresham.core.actions import LayTile
from tresham.core.game import Game
from tresham.core.graph import legal_tile_lays
from tresham.core.rules_protocols import Stop, TrainSpec
from tresham.titles.t1854.operating import rules_for


def wien_lays(g: Game, corp: str = "KE") -> list[tuple[str, int]]:
    return [
        (t.tile, t.rotation)
        for t in legal_tile_lays(g.state.map, corp, rules_for(g, corp), hexes=["C23"])
    ]


def reach_phase(g: Game, name: str) -> None:
    s = g.state
    names = [p.name for p in TITLE.phases]
    s.phases_reached = names[: names.index(name) + 1]
    s.phase_index = names.index(name)


def test_wien_takes_only_w_tiles_from_phase_3() -> None:
    # 1854 §5.3: "The yellow space `Wien' may not be built upon before the green tiles become
    # available in Phase 3"; "The only tiles that may be placed on the Wien hex are those
    # marked with a `W' [numbers 433, 451, 456]"
    g = two_companies()
    assert wien_lays(g) == []
    rejected(g, LayTile("KE", "C23", "433", 0), "colour")
    reach_phase(g, "3")
    # 433 keeps the three printed tracks on their own cities (ruling W1)
    assert wien_lays(g) == [("433", 0), ("433", 4), ("433", 5)]


def test_the_433_keeps_each_company_on_its_own_city() -> None:
    # ruling W1: each printed city goes to the 433 city its track leads to; KE's station and
    # the homes kept for SD and FJ follow
    g = two_companies()
    s = g.state
    reach_phase(g, "3")
    g.apply(LayTile("KE", "C23", "433", 5))
    tile = s.map.tile("C23")
    city_at = {p.a.num: p.b.num for p in tile.rotated_paths(s.map.rotation("C23")) if p.a.is_edge}
    assert s.map.tokens_of("KE") == [("C23", city_at[1])]
    assert s.map.reservations["FJ"] == [("C23", city_at[2])]
    assert len(tile.nodes) == 5 and all(n.revenue == 50 for n in tile.nodes)


def test_the_451_merges_cities_whose_tokens_fit() -> None:
    # 1854 §5.4 / ruling W1: promoted to 451, the cities on the two edges of each new city
    # merge; a rotation whose one-space city would get two stations is not legal
    g = two_companies()
    s = g.state
    reach_phase(g, "3")
    s.map.lay_tile("C23", "433", 0)  # cities at edges 0..4: SD's home 0, KE 1, FJ's home 2
    s.map.place_token("SD", "C23", 0)
    s.map.place_token("NT", "C23", 3)  # a fourth company in the city at edge 3
    reach_phase(g, "5")
    lays = wien_lays(g)
    # 451 at rotation 0 would put the edge-0 and edge-3 cities (SD, NT) in its one space
    assert ("451", 0) not in lays and lays
    tile, rot = lays[0]
    s.map.lay_tile("C23", tile, rot)
    held = sorted(c for slots in (s.map.slots("C23", i) for i in range(3)) for c in slots if c)
    assert held == ["KE", "NT", "SD"]


def test_the_456_gathers_wien_into_one_city() -> None:
    # 1854 §5.4: grey from Phase 8; ruling W1: every city merges into the five spaces
    g = two_companies()
    s = g.state
    reach_phase(g, "3")
    s.map.lay_tile("C23", "433", 0)
    s.map.place_token("SD", "C23", 0)
    s.map.lay_tile("C23", "451", 1)
    reach_phase(g, "8")
    assert [t for t, _r in wien_lays(g)] == ["456"]
    s.map.lay_tile("C23", "456", 0)
    assert sorted(c for c in s.map.slots("C23", 0) if c) == ["KE", "SD"]
    assert s.map.tile("C23").nodes[0].slots == 5


def test_a_route_includes_wien_once() -> None:
    # 1854 §5.6: "No city (Wien, Zürich, Sankt Pölten on the extra game map) may be included
    # twice in a route" (ruling W2): two of Wien's cities are Wien twice
    g = two_companies()
    s = g.state
    rules = rules_for(g, "KE")
    wien = s.map.tile("C23").nodes
    two = TrainSpec("3-0", "3", 3)
    a, b = Stop("C23", 0, wien[0]), Stop("C23", 1, wien[1])
    ybbs = Stop("C19", 0, s.map.tile("C19").nodes[0])
    assert rules.check_run(two, "KE", [a, ybbs, b]) is not None
    assert rules.check_run(two, "KE", [a, ybbs]) is None


def test_a_home_moved_by_an_upgrade_is_where_the_station_goes() -> None:
    # 1854 §5.5, ruling W1: FJ's home kept on Wien's edge-2 city moves with the 433; FJ's
    # first turn places its station there
    g = two_companies()
    s = g.state
    reach_phase(g, "3")
    s.map.lay_tile("C23", "433", 4)
    (kept,) = s.map.reservations["FJ"]
    edge_of = {p.b.num: p.a.num for p in s.map.tile("C23").rotated_paths(4) if p.a.is_edge}
    assert edge_of[kept[1]] == 2
    TITLE.start_turn(g, s.round, "FJ")  # type: ignore[arg-type]
    assert s.map.tokens_of("FJ") == [kept]
