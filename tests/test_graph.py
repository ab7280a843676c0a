"""Reach from station tokens, legal tile lays, token slots."""

from __future__ import annotations

from typing import Any

import pytest

from tresham.core.board import BoardDef
from tresham.core.errors import TrackError
from tresham.core.graph import (
    RULE_CONNECT,
    TileLay,
    check_tile_lay,
    check_token,
    legal_tile_lays,
    reach,
    reachable_stops,
    tile_lay_problem,
    token_slots,
    track_graph,
)
from tresham.core.rules_protocols import BasicTrackRules
from tresham.core.tiles import load_catalogue
from tresham.core.track import MapState
from tresham.titles.t1849.track_rules import TrackRules1849, new_map

RULES_4H = TrackRules1849(phase="4H")


def girgenti() -> MapState:
    """SFA's home Girgenti (J6) with 645 at rotation 3 (narrow north to H6, standard SE to K7),
    as in a real 18xx.games game."""
    s = new_map()
    s.place_token("SFA", "J6", 0)
    s.lay_tile("J6", "645", 3)
    return s


def hx(*paths: str, node: str | None = None, revenue: int = 0, color: str = "yellow") -> Any:
    """A hex in our board.json schema: paths as "e0 n0 standard", an optional node."""
    d: dict[str, Any] = {"color": color, "paths": [p.split() for p in paths]}
    if node is not None:
        d["nodes"] = [{"kind": node, "revenue": revenue}]
    return d


def synthetic(hexes: dict[str, dict[str, Any]]) -> MapState:
    """A small flat board (our JSON schema) with the shared catalogue and an empty supply."""
    board = BoardDef.from_dict({"title": "test", "layout": "flat", "hexes": hexes})
    return MapState(board, load_catalogue(), {})


def test_first_lay_from_a_home_token_on_a_bare_hex() -> None:
    # The corporation's own token hex counts as reached from every side: SFA may lay any
    # yellow city tile on Girgenti whose exits face real hexes (edges 2-5).
    s = new_map()
    s.place_token("SFA", "J6", 0)
    lays = legal_tile_lays(s, "SFA", RULES_4H)
    assert {lay.hex for lay in lays} == {"J6"}
    assert TileLay("J6", "645", 3, 40) in lays
    assert all(lay.cost == 40 for lay in lays)  # Girgenti's terrain is 40, all add standard
    assert {lay.tile for lay in lays} == {"644", "645", "657", "658", "659"}
    assert len(lays) == 12
    assert check_tile_lay(s, "SFA", "J6", "645", 3, RULES_4H) == 40
    # Another corporation does not reach Girgenti.
    assert legal_tile_lays(s, "ATA", RULES_4H) == []


def test_reach_edges_after_a_lay() -> None:
    s = girgenti()
    net = reach(s, "SFA")
    assert net.edges == {"J6": {3, 5}, "H6": {0}, "K7": {2}}
    assert net.token_hexes == {"J6"}
    assert net.connected_edges("J6") == {0, 1, 2, 3, 4, 5}
    assert net.nodes == {("J6", 0)}
    lays = legal_tile_lays(s, "SFA", RULES_4H)
    assert {lay.hex for lay in lays} == {"H6", "K7"}
    # K7's new tile must use edge 2 (the reached edge): tile 4 at rotation 2 does.
    assert TileLay("K7", "4", 2, 0) in lays


def test_lay_must_connect() -> None:
    # The new tile must have an exit the corporation reaches (or sit on its token's hex).
    s = girgenti()
    err = tile_lay_problem(s, "SFA", "K7", "58", 3, RULES_4H)  # exits 3, 5: not edge 2
    assert err is not None and err.rule == RULE_CONNECT
    with pytest.raises(TrackError) as info:
        check_tile_lay(s, "SFA", "H10", "8", 5, RULES_4H)
    assert info.value.rule == RULE_CONNECT
    # Without the connection requirement (a private's power) the lay is fine.
    assert tile_lay_problem(s, "SFA", "H10", "8", 5, RULES_4H, require_connection=False) is None
    lays = legal_tile_lays(s, "SFA", RULES_4H, hexes=["H10"], require_connection=False)
    assert TileLay("H10", "8", 5, 40) in lays  # standard track: full terrain cost


def test_upgrade_on_the_network() -> None:
    # An upgrade is legal on a hex of the corporation's network (its track there is kept).
    s = girgenti()
    s.lay_tile("K7", "4", 2)
    rules = TrackRules1849(phase="6H")
    lays = legal_tile_lays(s, "SFA", rules)
    assert any(lay.hex == "K7" and lay.tile == "683" and lay.rotation == 2 for lay in lays)
    assert any(lay.hex == "J6" and lay.tile == "706" and lay.rotation == 2 for lay in lays)
    assert all(s.catalogue[lay.tile].color in ("yellow", "green") for lay in lays)


def blocked_position(full: bool) -> MapState:
    """SFA: Girgenti (J6) → Licata (K7) → L8 → Terranova (M9, gray, 2 slots) → N10, N8."""
    s = girgenti()
    s.lay_tile("K7", "4", 2)
    s.lay_tile("L8", "9", 2)
    s.lay_tile("N10", "58", 2)
    s.place_token("ATA", "M9", 0)
    if full:
        s.place_token("CTL", "M9", 0)
    return s


def test_full_city_can_be_reached_but_not_passed() -> None:
    # "a city whose every slot is filled by OTHER corporations' tokens cannot be passed
    # through, but can be an end"
    s = blocked_position(full=True)
    net = reach(s, "SFA")
    assert ("M9", 0) in net.nodes
    assert ("N10", 0) not in net.nodes and ("N8", 0) not in net.nodes
    assert token_slots(s, "SFA") == []  # M9 is full
    # With a free slot SFA passes through Terranova to Vittoria and the port.
    s = blocked_position(full=False)
    net = reach(s, "SFA")
    assert {("N10", 0), ("N8", 0), ("M11", 0)} <= net.nodes
    assert token_slots(s, "SFA") == [("M11", 0), ("M9", 0)]
    # ATA's own token never blocks ATA.
    assert ("J6", 0) in reach(blocked_position(full=True), "ATA").nodes


def test_check_token() -> None:
    s = blocked_position(full=False)
    check_token(s, "SFA", "M9", 0)
    with pytest.raises(TrackError):
        check_token(s, "SFA", "C5", 0)  # not reached
    with pytest.raises(TrackError):
        check_token(s, "SFA", "J6", 0)  # already has a token there


def test_reachable_stops() -> None:
    s = blocked_position(full=False)
    keys = [(st.hex, st.node) for st in reachable_stops(s, "SFA")]
    assert keys[:3] == [("J6", 0), ("K7", 0), ("M11", 0)]
    port = next(st for st in reachable_stops(s, "SFA") if st.hex == "N8")
    assert port.port and port.kind == "offboard"


def test_no_reversing_at_an_edge() -> None:
    # C1 holds two paths meeting at edge 3 (to 0 and to 4). Coming up from E1 a train goes on
    # to A1 but may not turn back down the other branch to B2: no reversing at a junction.
    s = synthetic(
        {
            "A1": hx("e0 n0 standard", node="town"),
            "C1": hx("e0 e3 standard", "e3 e4 standard"),
            "E1": hx("e3 n0 standard", node="city"),
            "B2": hx("e1 n0 standard", node="city"),
        }
    )
    s.place_token("X", "E1", 0)
    assert reach(s, "X").nodes == {("E1", 0), ("A1", 0)}
    s.place_token("Y", "B2", 0)
    assert reach(s, "Y").nodes == {("B2", 0), ("A1", 0)}


def test_offboards_are_never_passed() -> None:
    s = synthetic(
        {
            "A1": hx("e0 n0 standard", node="town"),
            "C1": hx("e0 n0 standard", "n0 e3 standard", node="offboard", revenue=30, color="red"),
            "E1": hx("e3 n0 standard", node="city"),
        }
    )
    s.place_token("X", "E1", 0)
    assert reach(s, "X").nodes == {("E1", 0), ("C1", 0)}


def test_gauges_across_a_border() -> None:
    # Narrow and standard never connect across a border; dual connects to both.
    def board(middle: str) -> MapState:
        s = synthetic(
            {
                "A1": hx("e0 n0 narrow", node="town"),
                "C1": hx(f"e0 e3 {middle}"),
                "E1": hx("e3 n0 standard", node="city"),
            }
        )
        s.place_token("X", "E1", 0)
        return s

    assert ("A1", 0) not in reach(board("standard"), "X").nodes  # standard meets narrow
    assert ("A1", 0) not in reach(board("narrow"), "X").nodes  # narrow meets standard
    assert ("A1", 0) in reach(board("dual"), "X").nodes  # dual meets both


def test_gauge_change_at_a_town() -> None:
    # A town joins its paths whatever their gauges: standard in, narrow out.
    s = synthetic(
        {
            "A1": hx("e0 n0 narrow", node="city"),
            "C1": hx("e0 n0 standard", "n0 e3 narrow", node="town"),
            "E1": hx("e3 n0 standard", node="city"),
        }
    )
    s.place_token("X", "E1", 0)
    assert reach(s, "X").nodes == {("E1", 0), ("C1", 0), ("A1", 0)}


def test_track_graph_is_cached_until_the_track_changes() -> None:
    s = girgenti()
    g = track_graph(s)
    assert track_graph(s) is g
    assert g.key[g.pid[("J6", 0)]] == ("J6", 0)
    # tokens and reservations change what a corporation reaches, not the track
    before = reach(s, "SFA")
    s.remove_token("SFA", "J6", 0)
    assert track_graph(s) is g
    assert reach(s, "SFA") != before
    s.reserve("SFA", "J6", 0)
    s.place_token("SFA", "J6", 0)
    s.release_reservation("SFA")
    assert track_graph(s) is g
    assert reach(s, "SFA") == before
    s.lay_tile("K7", "4", 2)
    assert track_graph(s) is not g
    assert track_graph(s).pid.keys() == track_graph(s.copy()).pid.keys()


def test_tile_colours_come_from_the_rules() -> None:
    s = girgenti()
    yellow = legal_tile_lays(s, "SFA", BasicTrackRules(colors=frozenset({"yellow"})))
    assert {lay.hex for lay in yellow} == {"H6", "K7"}
    green = legal_tile_lays(s, "SFA", BasicTrackRules(colors=frozenset({"green"})))
    assert green and {lay.hex for lay in green} == {"J6"}
    assert {s.catalogue[lay.tile].color for lay in green} == {"green"}
