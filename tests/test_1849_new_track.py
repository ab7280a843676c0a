"""Ruling R29 (docs/rulings/1849.md): a lay where there was track must add track the
corporation can use from one of its tokens without reversing, or change the value of a city on
its network; as 18xx.games plays 1849 ("Must use new track or change city value"), and for the
summary's rules too from rules version 2."""

from __future__ import annotations

import pytest

from boards_1849 import busy_board, small_board
from tresham.core.graph import (
    RULE_NEW_TRACK,
    legal_tile_lays,
    reach,
    tile_lay_problem,
    track_graph,
    usable_new_track,
)
from tresham.core.track import MapState
from tresham.titles.t1849.track_rules import TrackRules1849, new_map

GREEN = TrackRules1849(phase="6H", new_track_rule=True)
WITHOUT = TrackRules1849(phase="6H")
ANY_12H = TrackRules1849(phase="12H", sce_blocks_g13=False)


def ift_through_h10() -> MapState:
    # IFT's home Palermo (H12) runs out through the preprinted I11 into H10, where tile 8 at
    # rotation 3 carries it on from edge 5 (SE) to edge 3 (N), towards F10.
    s = new_map()
    s.place_token("IFT", "H12", 0)
    s.lay_tile("H10", "8", 3)
    assert reach(s, "IFT").connected_edges("H10") == {3, 5}
    return s


def test_a_branch_usable_only_by_reversing_is_refused() -> None:
    # The example: 31 at rotation 3 keeps 5-3 and adds 3-2, which IFT could only use
    # by running out across edge 3 and back in across it.
    s = ift_through_h10()
    err = tile_lay_problem(s, "IFT", "H10", "31", 3, GREEN)
    assert err is not None and err.rule == RULE_NEW_TRACK
    assert "adds no track IFT can use" in str(err)
    assert tile_lay_problem(s, "IFT", "H10", "31", 3, WITHOUT) is None  # rules version 1


def test_a_branch_from_where_the_network_enters_is_allowed() -> None:
    s = ift_through_h10()
    allowed = {(lay.tile, lay.rotation) for lay in legal_tile_lays(s, "IFT", GREEN, hexes=["H10"])}
    before = {(lay.tile, lay.rotation) for lay in legal_tile_lays(s, "IFT", WITHOUT, hexes=["H10"])}
    assert allowed < before
    assert ("31", 3) not in allowed
    # every allowed upgrade adds a branch at edge 5, where IFT's track comes in
    for tile, rot in allowed:
        added = {p.edges for p in s.catalogue[tile].rotated_paths(rot) if sorted(p.edges) != [3, 5]}
        assert all(5 in edges for edges in added), (tile, rot)


def test_an_upgrade_that_changes_a_city_value_is_allowed() -> None:
    # SFA's home Girgenti (J6): an upgrade adding no exit SFA uses still raises the city.
    s = new_map()
    s.place_token("SFA", "J6", 0)
    s.lay_tile("J6", "645", 3)
    lays = legal_tile_lays(s, "SFA", GREEN, hexes=["J6"])
    assert lays
    for lay in lays:
        assert usable_new_track(s, "SFA", "J6", lay.tile, lay.rotation)


def test_a_lay_on_an_empty_hex_is_never_refused_by_it() -> None:
    s = ift_through_h10()
    empty = [lay for lay in legal_tile_lays(s, "IFT", WITHOUT) if not s.paths(lay.hex)]
    assert empty  # the check below has lays to look at
    for lay in empty:
        assert tile_lay_problem(s, "IFT", lay.hex, lay.tile, lay.rotation, GREEN) is None


def test_sms_lays_are_free_of_it() -> None:
    s = ift_through_h10()
    sms = TrackRules1849(phase="6H", new_track_rule=True, sms_active=True)
    assert tile_lay_problem(s, "IFT", "H10", "31", 3, sms, require_connection=False) is None


def by_trial(s: MapState, corp: str, coord: str, tile_id: str, rotation: int) -> bool:
    """The rule worked out the slow way: lay the tile on a copy and look for a new (or
    revalued) path of it in the corporation's network."""
    old = s.tile(coord)
    old_paths = old.rotated_paths(s.rotation(coord))
    if not old_paths:
        return True

    def key(tile_id_: str, rot: int, i: int) -> tuple[object, ...]:
        tile = s.catalogue.get(tile_id_, old)
        p = tile.rotated_paths(rot)[i]
        ends = sorted(
            ("e", e.num) if e.is_edge else ("n", tile.nodes[e.num].kind) for e in (p.a, p.b)
        )
        values = sorted(
            max([tile.nodes[e.num].revenue, *(v for _n, v in tile.nodes[e.num].revenue_by_phase)])
            for e in (p.a, p.b)
            if not e.is_edge
        )
        return (*ends, p.gauge), tuple(values)

    before = {key(old.id, s.rotation(coord), i) for i in range(len(old_paths))}
    trial = s.copy()
    trial.lay_tile(coord, tile_id, rotation, check=False)
    net = reach(trial, corp)
    graph = track_graph(trial)
    new_paths = s.catalogue[tile_id].rotated_paths(rotation)
    return any(
        graph.pid[(coord, j)] in net.paths and key(tile_id, rotation, j) not in before
        for j in range(len(new_paths))
    )


@pytest.mark.parametrize("seed", range(8))
def test_the_quick_answer_is_the_trial_lays_answer(seed: int) -> None:
    # usable_new_track answers from the network before the lay; laying the tile on a copy and
    # walking the network again must agree, for every upgrade any corporation could make
    s = (
        busy_board(seed, lays=50 + 10 * seed)
        if seed % 2
        else small_board(seed, 30 + 5 * seed, "12H")
    )
    corps = sorted({c for slots in s.tokens.values() for c in slots if c is not None})
    checked = 0
    for corp in corps:
        for lay in legal_tile_lays(s, corp, ANY_12H):
            if not s.paths(lay.hex):
                continue
            quick = usable_new_track(s, corp, lay.hex, lay.tile, lay.rotation)
            assert quick == by_trial(s, corp, lay.hex, lay.tile, lay.rotation), (corp, lay)
            checked += 1
    assert checked > 10
