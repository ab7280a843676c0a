"""Tile catalogue, rotation helpers and the 1849 manifest."""

from __future__ import annotations

import pytest

from tresham.core.tiles import (
    CITY,
    DUAL,
    NARROW,
    STANDARD,
    TOWN,
    NodeDef,
    PathDef,
    PathEnd,
    TileDef,
    gauge_kept,
    gauges_connect,
    load_catalogue,
    next_color,
    opposite,
    rotate_edge,
)
from tresham.titles.t1849.track_rules import load_manifest


@pytest.fixture(scope="module")
def cat() -> dict[str, TileDef]:
    return dict(load_catalogue())


def test_catalogue_has_every_1849_manifest_tile(cat: dict[str, TileDef]) -> None:
    assert len(cat) == 160
    for tile_id in load_manifest("18xx.games"):
        assert tile_id in cat, tile_id


def test_tile_645_geometry(cat: dict[str, TileDef]) -> None:
    # 1849 tile 645: a yellow L.20 city, narrow to edge 0 and standard to edge 2.
    t = cat["645"]
    assert t.color == "yellow"
    assert t.nodes == (NodeDef(CITY, 20, 1),)
    assert t.paths == (
        PathDef(PathEnd(True, 0), PathEnd(False, 0), NARROW),
        PathDef(PathEnd(True, 2), PathEnd(False, 0), STANDARD),
    )
    assert t.exits() == {0, 2}
    assert t.edge_gauges() == {0: {NARROW}, 2: {STANDARD}}


def test_rotation_moves_edge_e_to_e_plus_r(cat: dict[str, TileDef]) -> None:
    # design.md: "A tile laid with rotation r moves its edge e to (e + r) % 6."
    assert rotate_edge(0, 3) == 3
    assert rotate_edge(5, 2) == 1
    assert opposite(1) == 4
    t = cat["645"]
    assert t.exits(3) == {3, 5}
    assert t.edge_gauges(3) == {3: {NARROW}, 5: {STANDARD}}
    assert t.exit_mask(3) == (1 << 3) | (1 << 5)
    # Tile 4 (town, edges 0 and 3) at rotation 2: edges 2 and 5.
    assert cat["4"].exits(2) == {2, 5}
    assert cat["4"].rotated_paths(2)[0].a == PathEnd(True, 2)


def test_unique_rotations(cat: dict[str, TileDef]) -> None:
    assert cat["9"].unique_rotations() == (0, 1, 2)  # a straight: 3 distinct layouts
    assert cat["8"].unique_rotations() == (0, 1, 2, 3, 4, 5)
    assert cat["9"].canonical_rotation(4) == 1
    # Same exits but different gauges are different layouts: 710 (narrow 0-2, standard 1-3).
    assert len(cat["710"].unique_rotations()) == 6


def test_node_counts_and_labels(cat: dict[str, TileDef]) -> None:
    assert (cat["651"].city_count, cat["651"].town_count, cat["651"].labels) == (1, 0, ("P",))
    assert cat["651"].nodes[0].slots == 2
    assert (cat["680"].city_count, cat["680"].town_count) == (0, 1)
    assert cat["680"].nodes[0].kind == TOWN
    assert cat["9"].nodes == ()


def test_gauge_tables() -> None:
    # 1849 summary, OR Lay track: "Narrow and standard may dead-end against each other, and
    # both may meet dual."
    assert gauges_connect(NARROW, NARROW) and gauges_connect(STANDARD, DUAL)
    assert gauges_connect(DUAL, NARROW)
    assert not gauges_connect(NARROW, STANDARD)
    # Upgrades keep gauge: narrow -> narrow/dual, standard -> standard/dual, dual -> dual.
    assert gauge_kept(NARROW, DUAL) and gauge_kept(STANDARD, STANDARD)
    assert not gauge_kept(NARROW, STANDARD)
    assert not gauge_kept(DUAL, NARROW) and not gauge_kept(DUAL, STANDARD)


def test_next_color() -> None:
    assert next_color("white") == "yellow"
    assert next_color("yellow") == "green"
    assert next_color("green") == "brown"
    assert next_color("brown") == "gray"
    assert next_color("gray") is None
    assert next_color("blue") is None


def test_path_end_parse_and_round_trip(cat: dict[str, TileDef]) -> None:
    assert PathEnd.parse("e3") == PathEnd(True, 3)
    assert PathEnd.parse("n1") == PathEnd(False, 1)
    for bad in ("e6", "x1", "e", "n-1"):
        with pytest.raises(ValueError):
            PathEnd.parse(bad)
    for tile_id in ("645", "651", "39", "433"):
        t = cat[tile_id]
        assert TileDef.from_dict(tile_id, t.to_dict()) == t


def test_bad_node_reference_rejected() -> None:
    with pytest.raises(ValueError):
        TileDef("x", "yellow", (), (PathDef(PathEnd(True, 0), PathEnd(False, 0)),))


def test_node_revenue_by_phase() -> None:
    n = NodeDef(CITY, 20, 1, (("4H", 20), ("8H", 30)))
    assert n.revenue_in("8H") == 30
    assert n.revenue_in("6H") == 20
    assert n.revenue_in(None) == 20


def test_1849_manifest_is_the_summary_168(cat: dict[str, TileDef]) -> None:
    # 1849 summary, tile manifest: "168 tiles"; yellow 72, green 72, brown 24; #655 x1, #656 x1.
    counts = load_manifest()
    assert sum(counts.values()) == 168
    by_color: dict[str, int] = {}
    for tile_id, n in counts.items():
        by_color[cat[tile_id].color] = by_color.get(cat[tile_id].color, 0) + n
    assert by_color == {"yellow": 72, "green": 72, "brown": 24}
    assert counts["655"] == 1 and counts["656"] == 1
    assert counts["8"] == 10 and counts["78"] == 10 and counts["79"] == 7
    assert counts["673"] == 2 and counts["696"] == 3


def test_18xx_games_manifest_is_170() -> None:
    site = load_manifest("18xx.games")
    assert sum(site.values()) == 170
    assert site["655"] == 2 and site["656"] == 2
    assert {k: v for k, v in site.items() if k not in ("655", "656")} == {
        k: v for k, v in load_manifest().items() if k not in ("655", "656")
    }
    with pytest.raises(ValueError):
        load_manifest("other")
