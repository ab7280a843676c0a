"""1854 §5.3.1 Tunnels (rulings TU1-TU4 in ``docs/rulings/1854.md``).

"At any time, instead of placing or promoting a tile, a company may build a tunnel. A tunnel
costs 100 G." A tunnel is track from one edge of a hex to another, laid over the hex (core
overlay track) on any hex without a large city, the grey tunnel-only spaces included; it
continues a line of the company's network that leads up to the hex; neither of its ends lies
on an edge where other track on the hex ends; tunnels in one hex never cross (nor share an
end); a hex with two small cities takes one tunnel. Tiles laid or promoted on the hex later
keep clear of the tunnel's ends. The Murtalbahn's owner's companies pay 40 G less (Table 2).
The 13 tunnels of §1.1 are all there are; from rules version 4 they are the original set's
transparent tiles, 4 straight, 5 gentle and 4 sharp (ruling D9), and each shape runs out.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Final

from tresham.core.errors import TrackError
from tresham.core.graph import reach
from tresham.core.tiles import CITY, TOWN
from tresham.titles.t1854.facts import rules_of
from tresham.titles.t1854.versions import ORIGINAL_BOARD_VERSION

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.titles.t1854.track_rules import TrackRules1854

RULE: Final = "1854 §5.3.1"
#: Every tunnel, as the pair of edges it joins (ruling TU1).
SHAPES: Final = tuple(combinations(range(6), 2))
#: A tunnel's shape by how many edges apart its ends are (ruling TU1): the transparent tiles
#: 469, 468 and 467 of the original set (ruling D9).
SHAPE_NAMES: Final = {1: "sharp", 2: "gentle", 3: "straight"}
#: The colour of §1.1's transparent tiles in the catalogue (``rules.TUNNEL_COLOR``).
TUNNEL_COLOR: Final = "tunnel"


def built(game: Game) -> int:
    """How many tunnels are on the map."""
    return sum(len(v) for v in game.state.map.overlays.values())


def shape(a: int, b: int) -> int:
    """A tunnel's shape: 1 (sharp), 2 (gentle) or 3 (straight), the edges between its ends."""
    d = abs(a - b) % 6
    return min(d, 6 - d)


def supply(game: Game) -> dict[int, int]:
    """§1.1's 13 transparent tiles by shape (ruling D9): the original set's 4 straight (467),
    5 gentle (468) and 4 sharp (469) tunnels, from the manifest, for games of rules version 4
    on. Empty for the older versions, whose tunnels took any shape (13 in all)."""
    if game.rules_version < ORIGINAL_BOARD_VERSION:
        return {}
    title = rules_of(game)
    out: dict[int, int] = {}
    for number, count in title.manifest.items():
        tile = title.catalogue[number]
        if tile.color != TUNNEL_COLOR:
            continue
        a, b = sorted(tile.exits(0))
        out[shape(a, b)] = out.get(shape(a, b), 0) + count
    return out


def built_by_shape(game: Game) -> dict[int, int]:
    """How many tunnels of each shape are on the map."""
    out: dict[int, int] = {}
    for tunnels in game.state.map.overlays.values():
        for a, b in tunnels:
            out[shape(a, b)] = out.get(shape(a, b), 0) + 1
    return out


def shapes_left(game: Game) -> dict[int, int] | None:
    """How many tunnels of each shape are left (rules version 4 on; None before: any shape)."""
    limits = supply(game)
    if not limits:
        return None
    made = built_by_shape(game)
    return {k: max(0, n - made.get(k, 0)) for k, n in limits.items()}


def cost(game: Game, corp: str) -> int:
    """§5.3.1: 100 G; Table 2: 40 G less for the companies of the Murtalbahn's owner while it
    runs (ruling TU3)."""
    data = rules_of(game).data["tunnels"]
    s = game.state
    director = game.title.controller(game, corp)
    discount = sum(
        int(c.powers.get("power", {}).get("tunnel_discount", 0))
        for c in s.companies.values()
        if c.owner == director and director is not None and not c.closed
    )
    return max(0, int(data["cost"]) - discount)


def crosses(p: tuple[int, int], q: tuple[int, int]) -> bool:
    """Whether two tunnels of one hex cross or share an end (chords of the hexagon whose
    ends interleave, ruling TU1)."""
    a, b = sorted(p)
    c, d = sorted(q)
    if {a, b} & {c, d}:
        return True
    return (a < c < b) != (a < d < b)


def problem(
    game: Game, corp: str, coord: str, a: int, b: int, rules: TrackRules1854
) -> TrackError | None:
    """Why `corp` may not build a tunnel from edge `a` to edge `b` of `coord` (None: it may)."""
    s = game.state
    m = s.map
    if coord not in m.board.hexes or not (0 <= a < 6 and 0 <= b < 6) or a == b:
        return TrackError(f"there is no tunnel from edge {a} to edge {b} of {coord}", RULE)
    if built(game) >= int(rules_of(game).data["tunnels"]["count"]):
        return TrackError("all 13 tunnels are built", RULE)
    left = shapes_left(game)
    if left is not None and not left.get(shape(a, b), 0):
        kind = SHAPE_NAMES[shape(a, b)]
        return TrackError(
            f"all {supply(game).get(shape(a, b), 0)} {kind} tunnels are built", "1854 §1.1"
        )
    if m.board.hex(coord).fixed:
        return TrackError(f"{coord} is a {m.board.hex(coord).color} space: no tunnel", RULE)
    if (coord in rules.local_map) != rules.local:
        return TrackError(f"{corp} builds only on its own map", "1854 §5.3")
    tile = m.tile(coord)
    if any(n.kind == CITY for n in tile.nodes):
        return TrackError(f"{coord} holds a large city: no tunnel there", RULE)
    there = m.overlays.get(coord, [])
    if there and sum(1 for n in tile.nodes if n.kind == TOWN) >= 2:
        return TrackError("a hex with two small cities takes one tunnel", RULE)
    if any(crosses((a, b), q) for q in there):
        return TrackError("tunnels in one hex may not cross", RULE)
    if {a, b} & tile.exits(m.rotation(coord)):
        return TrackError("neither end of a tunnel may overlie another track connection", RULE)
    if m.bad_exits(coord, (1 << a) | (1 << b)):
        return TrackError("a tunnel may not lead off the map or into a closed side", RULE)
    if not {a, b} & reach(m, corp).edges.get(coord, frozenset()):
        return TrackError("a tunnel continues a line of the company's network", RULE)
    if cost(game, corp) > s.corps[corp].cash:
        return TrackError(f"{corp} cannot pay {cost(game, corp)} G for a tunnel", RULE)
    return None


def options(game: Game, corp: str, rules: TrackRules1854) -> list[tuple[str, int, int]]:
    """Every tunnel `corp` may build now: (hex, edge, edge)."""
    s = game.state
    if built(game) >= int(rules_of(game).data["tunnels"]["count"]):
        return []
    if cost(game, corp) > s.corps[corp].cash:
        return []
    near = reach(s.map, corp).edges
    return [
        (coord, a, b)
        for coord in sorted(near)
        for a, b in SHAPES
        if {a, b} & near[coord] and problem(game, corp, coord, a, b, rules) is None
    ]


def build(game: Game, corp: str, coord: str, a: int, b: int) -> int:
    """Lay the tunnel and pay for it; returns the price."""
    price = cost(game, corp)
    game.transfer(corp, "bank", price)
    game.state.map.add_overlay(coord, a, b)
    board = game.state.map.board
    game.log(
        f"{corp} builds a tunnel through {board.place(coord)}, from {board.side(coord, a)} to "
        f"{board.side(coord, b)}, for {price} G"
    )
    return price
