"""MapState: generic tile-lay legality, supply, tokens, reservations, copying."""

from __future__ import annotations

import copy

import pytest

from tresham.core.errors import TrackError
from tresham.core.tiles import DUAL, STANDARD, PathDef, PathEnd, TileDef, load_catalogue
from tresham.core.track import (
    RULE_COLOR,
    RULE_EXITS,
    RULE_HEX,
    RULE_KEEP,
    RULE_LABEL,
    RULE_NODES,
    RULE_SUPPLY,
    MapState,
)
from tresham.titles.t1849.track_rules import load_board, load_manifest, new_map


def rule_of(state: MapState, coord: str, tile: str, rot: int) -> str | None:
    err, _ = state.lay_problem(coord, tile, rot)
    return None if err is None else err.rule


def test_yellow_on_white_matches_printed_content() -> None:
    # Generic: "a town hex takes a town tile, a city hex a city tile, a plain hex a plain tile".
    s = new_map()
    assert rule_of(s, "H6", "9", 0) is None  # plain hex, plain straight
    assert rule_of(s, "H6", "4", 0) == RULE_NODES  # a town tile on a plain hex
    assert rule_of(s, "K7", "4", 2) is None  # Licata (town) takes a town tile
    assert rule_of(s, "K7", "9", 2) == RULE_NODES
    assert rule_of(s, "J6", "645", 3) is None  # Girgenti (city) takes a city tile
    assert rule_of(s, "J6", "4", 2) == RULE_NODES


def test_colour_order() -> None:
    # Generic: white takes yellow; yellow -> green -> brown -> gray; never skip a colour.
    s = new_map()
    assert rule_of(s, "H6", "23", 0) == RULE_COLOR  # green on a white hex
    s.lay_tile("H6", "9", 0)
    assert rule_of(s, "H6", "8", 0) == RULE_COLOR  # yellow on yellow
    assert rule_of(s, "H6", "24", 0) is None  # green on yellow, keeps 0-3
    assert rule_of(s, "H6", "39", 0) == RULE_COLOR  # brown on yellow
    assert rule_of(s, "K9", "677", 0) is None  # green on a preprinted yellow hex


def test_fixed_hexes_take_no_tile() -> None:
    s = new_map()
    assert rule_of(s, "E1", "9", 0) == RULE_HEX  # gray Marsala
    assert rule_of(s, "a12", "9", 0) == RULE_HEX  # a port
    assert rule_of(s, "Z99", "9", 0) == RULE_HEX


def test_labels_must_match() -> None:
    s = new_map()
    # Palermo (P): 651 (green P, 5 exits) keeps its track at rotation 5; an unlabelled green
    # city does not match the label.
    assert rule_of(s, "C5", "651", 5) is None
    assert rule_of(s, "C5", "660", 0) == RULE_LABEL
    # Catania (C) cannot take Palermo's tile.
    assert rule_of(s, "H12", "651", 0) == RULE_LABEL


def test_old_track_kept_with_gauge() -> None:
    # Generic: "all old track kept with gauge (old narrow -> narrow or dual; old standard ->
    # standard or dual; dual stays dual)".
    s = new_map()
    # K9 is preprinted narrow 0-3.
    assert rule_of(s, "K9", "677", 0) is None  # narrow 0-3 and 0-4: kept
    assert rule_of(s, "K9", "23", 0) == RULE_KEEP  # standard 0-3: narrow lost
    assert rule_of(s, "K9", "677", 1) == RULE_KEEP  # rotated: 0-3 not kept
    # Girgenti: 645 at rotation 3 has narrow to 3, standard to 5. 706 (green) at rotation 2 has
    # standard 4, 5 and narrow 2, 3: keeps both.
    s.lay_tile("J6", "645", 3)
    assert rule_of(s, "J6", "706", 2) is None
    assert rule_of(s, "J6", "706", 4) == RULE_KEEP  # narrow to 4, 5 only: edge 3 lost
    s.lay_tile("J6", "706", 2)
    # Brown 673 is all dual: narrow -> dual and standard -> dual are kept.
    assert rule_of(s, "J6", "673", 2) is None


def test_dual_stays_dual() -> None:
    board = load_board()
    cat = dict(load_catalogue())
    e0, e3 = PathEnd(True, 0), PathEnd(True, 3)
    cat["Y-dual"] = TileDef("Y-dual", "yellow", (), (PathDef(e0, e3, DUAL),))
    cat["G-std"] = TileDef("G-std", "green", (), (PathDef(e0, e3, STANDARD),))
    cat["G-dual"] = TileDef("G-dual", "green", (), (PathDef(e0, e3, DUAL),))
    s = MapState(board, cat, {"Y-dual": 1, "G-std": 1, "G-dual": 1})
    s.lay_tile("H6", "Y-dual", 0)
    assert rule_of(s, "H6", "G-std", 0) == RULE_KEEP
    assert rule_of(s, "H6", "G-dual", 0) is None


def test_new_exits_face_a_real_hex() -> None:
    # Generic: "new exits must face a real neighbouring hex (not off the map, not through
    # impassable border, not into a gray/blue hex without a facing exit)".
    s = new_map()
    assert rule_of(s, "J6", "645", 0) == RULE_EXITS  # edge 0 of J6 is off the map
    assert rule_of(s, "C3", "4", 1) == RULE_EXITS  # C3 edge 4 is an impassable border
    assert rule_of(s, "C3", "4", 2) is None  # edges 2 (B2) and 5 (D4) are fine
    assert rule_of(s, "C3", "4", 0) == RULE_EXITS  # edge 3 leads off the map
    # D14: gray Taormina (E13, edge 1) has track facing back; gray C13 (edge 2) and Calabria
    # (C15, edge 4) have none.
    assert rule_of(s, "D14", "8", 1) is None  # exits 1 (E13) and 3 (B14)
    assert rule_of(s, "D14", "7", 1) == RULE_EXITS  # exits 1 and 2
    assert rule_of(s, "D14", "9", 1) == RULE_EXITS  # exits 1 and 4
    # G13 Acireale faces gray Etna (F12, no track) on edge 2.
    assert rule_of(s, "G13", "58", 1) is None  # exits 1, 3
    assert rule_of(s, "G13", "58", 0) == RULE_EXITS  # exits 0 (off map), 2


def test_supply_counts_and_returned_tiles() -> None:
    # Generic: "a replaced tile returns to the supply; preprinted tiles do not".
    s = new_map()
    full = load_manifest()
    assert s.supply == full
    s.lay_tile("H6", "9", 0)
    assert s.supply["9"] == full["9"] - 1
    s.lay_tile("H6", "24", 0)
    assert s.supply["9"] == full["9"] and s.supply["24"] == full["24"] - 1
    # Upgrading a preprinted hex takes a tile from the supply and returns nothing.
    before = dict(s.supply)
    s.lay_tile("K9", "677", 0)
    assert s.supply["677"] == before["677"] - 1
    assert "K9" not in s.supply
    assert sum(s.supply.values()) == sum(before.values()) - 1
    # The only #655 (Messina green) used up: the summary's manifest has one.
    s.lay_tile("B14", "655", 0)
    assert s.supply["655"] == 0
    assert rule_of(s, "H6", "655", 0) == RULE_SUPPLY
    with pytest.raises(TrackError):
        s.lay_tile("H6", "nonexistent", 0)


def test_tokens_follow_an_upgrade() -> None:
    s = new_map()
    s.place_token("SFA", "J6", 0)
    s.lay_tile("J6", "645", 3)
    assert s.slots("J6", 0) == ("SFA",)
    s.lay_tile("J6", "706", 2)
    assert s.slots("J6", 0) == ("SFA", None)  # green: two slots
    s.place_token("AFG", "J6", 0)
    assert s.slots("J6", 0) == ("SFA", "AFG")
    s.lay_tile("J6", "673", 2)
    assert s.token_holders("J6", 0) == ("SFA", "AFG")


def test_revert_hex_returns_tile_and_removes_tokens() -> None:
    # Messina earthquake support: B14 back to its printed yellow, tokens there lost.
    s = new_map(manifest="18xx.games")
    s.lay_tile("B14", "655", 0)
    s.place_token("AFG", "B14", 0)
    s.place_token("ATA", "B14", 0)
    removed = s.revert_hex("B14")
    assert removed == [("AFG", ("B14", 0)), ("ATA", ("B14", 0))]
    assert s.tile("B14").id == "B14" and s.supply["655"] == 2
    assert s.token_holders("B14", 0) == ()


def test_token_slots_and_blocking() -> None:
    s = new_map()
    s.place_token("ATA", "M9", 0)
    assert s.free_slots("M9", 0) == 1
    assert not s.blocks("M9", 0, "CTL")
    s.place_token("SFA", "M9", 0)
    assert s.free_slots("M9", 0) == 0
    assert s.blocks("M9", 0, "CTL")
    assert not s.blocks("M9", 0, "ATA")  # its own token: never blocked
    with pytest.raises(TrackError):
        s.place_token("CTL", "M9", 0)
    with pytest.raises(TrackError):
        s.place_token("ATA", "M9", 0)  # already there
    with pytest.raises(TrackError):
        s.place_token("ATA", "H6", 0)  # no city
    s.remove_token("SFA", "M9", 0)
    assert s.slots("M9", 0) == ("ATA", None)
    assert s.remove_all_tokens("ATA") == [("M9", 0)]
    assert s.tokens == {}


def test_reservations() -> None:
    s = new_map(reserve_homes=["IFT", "RCS"])
    assert s.reservations == {"IFT": [("H12", 0)], "RCS": [("C5", 0)]}
    # Catania has one slot, kept for IFT: nobody else may take it, but it does not block.
    assert s.free_slots("H12", 0, "ATA") == 0
    assert s.free_slots("H12", 0, "IFT") == 1
    assert not s.blocks("H12", 0, "ATA")
    assert s.token_problem("ATA", "H12", 0) is not None
    s.place_token("IFT", "H12", 0)
    assert "IFT" not in s.reservations
    # The reservation moves with an upgrade (Palermo yellow -> green 651).
    s.lay_tile("C5", "651", 5)
    assert s.reservations["RCS"] == [("C5", 0)]
    assert s.free_slots("C5", 0, "ATA") == 1  # two slots, one kept for RCS
    s.release_reservation("RCS")
    assert s.free_slots("C5", 0, "ATA") == 2


def test_a_corporation_may_reserve_two_homes() -> None:
    s = new_map()
    s.reserve("IFT", "H12", 0)
    s.reserve("IFT", "C5", 0)
    assert s.reservations["IFT"] == [("H12", 0), ("C5", 0)]
    assert s.free_slots("H12", 0, "ATA") == 0
    s.place_token("IFT", "H12", 0)
    assert s.reservations["IFT"] == [("C5", 0)]


def test_copy_is_independent_and_canonical() -> None:
    s = new_map()
    s.lay_tile("J6", "645", 3)
    s.place_token("SFA", "J6", 0)
    c = copy.deepcopy(s)
    assert c == s and c.to_dict() == s.to_dict()
    assert c.board is s.board and c.catalogue is s.catalogue  # shared, not copied
    c.lay_tile("K7", "4", 2)
    c.place_token("ATA", "M9", 0)
    assert c != s
    assert "K7" not in s.tiles and s.tokens_of("ATA") == []
    d = s.to_dict()
    assert d["tiles"] == {"J6": ["645", 3]}
    assert d["tokens"] == {"J6:0": ["SFA"]}
    assert list(d["supply"]) == sorted(d["supply"])
    assert MapState.from_dict(s.board, s.catalogue, d) == s
    holder = {"a": s, "b": s}
    twin = copy.deepcopy(holder)
    assert twin["a"] is twin["b"]  # one state, copied once
    # Equal states built in different orders have equal dicts.
    a, b = new_map(), new_map()
    a.lay_tile("H6", "9", 0)
    a.lay_tile("K7", "4", 2)
    b.lay_tile("K7", "4", 2)
    b.lay_tile("H6", "9", 0)
    assert a.to_dict() == b.to_dict()


def test_version_and_cache() -> None:
    s = new_map()
    v = s.version
    s.set_cached("x", 1)
    s.lay_tile("H6", "9", 0)
    assert s.version == v + 1 and s.cached("x") is None
