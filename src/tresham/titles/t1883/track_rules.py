"""1883's track and route hooks (1883 §6.4, §6.8).

- Tile colours by phase: yellow from phase 2, green from 3, brown from 5, grey from 7 (6.4).
- A tile upgrades only to the tiles the upgrade chart lists for it (Appendix 4); the
  special cities take only their own tiles (6.4.3), through their labels.
- Terrain (hills, mountains, rivers) is paid only for the first tile laid on a hex (6.4.1).
- The Co-operative builds, stations and runs only on or south of the FS Parma-Bologna line,
  and pays no terrain (8.1.3-8.1.4).
- A corporation's port tokens add L.20 (L.10 from the first 4T) to each run visiting their
  city (6.6); Sassuolo's brown and grey city pays its higher value at a run's ends (6.8.4).
- Random events close hexes to tile lays and change off-board values for an OR (11.1).
- Trains count stops: a train visits at most its number of stations and off-board
  locations, all of which pay (6.8.1-6.8.2); off-boards pay their low, middle or high value
  by phase (6.8.5, on the board as values by phase).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from tresham.core.board import BoardDef
from tresham.core.errors import RouteError, TrackError
from tresham.core.rules_protocols import BasicTrackRules, LayContext, Stop, TrainSpec
from tresham.core.track import MapState

RULE_UPGRADE = "1883 Appendix 4 (upgrade chart)"
RULE_FS = "1883 §6.7"
#: The gauge of the board's FS long paths (a "T" city to its off-board box).
FS = "fs"
RULE_SOUTH = "1883 §8.1.3"
VIA_EMILIA = "Parma-Bologna (Via Emilia)"


def north_of_fs(board: BoardDef, coord: str) -> bool:
    """8.1.3 / 8.3.1: whether a hex lies north of the FS Parma-Bologna line (the line's hex in
    the same column, or the nearest column's where the line has none); hexes on the line are
    not north of it."""
    line = [board.hexes[h] for h in board.extra["fs"]["lines"][VIA_EMILIA]]
    hx = board.hexes[coord]
    ref = min(line, key=lambda h: abs(h.x - hx.x))
    return hx.y < ref.y


class UpgradeChart:
    """Appendix 4: the tiles each laid tile may be upgraded to. Built once per title and
    never changed, so rule sets holding it are compared by identity (e.g. for route answers
    kept with the map) rather than by walking the chart."""

    __slots__ = ("_rows",)

    def __init__(self, rows: Mapping[str, Sequence[str]]) -> None:
        self._rows = {tile: tuple(to) for tile, to in rows.items()}

    def allowed(self, tile: str) -> tuple[str, ...]:
        """The tiles `tile` upgrades to (none when the chart has no row for it)."""
        return self._rows.get(tile, ())


class TrackRules1883(BasicTrackRules):
    """The hooks for one moment of a game: the phase and its tile colours, and the
    upgrade chart."""

    def __init__(
        self,
        *,
        phase: str,
        colors: Iterable[str],
        upgrades: UpgradeChart,
        board: BoardDef,
        south_only: bool = False,
        free_terrain: bool = False,
        ports: Sequence[str] = (),
        port_bonus: int = 0,
        closed: Mapping[str, str] | None = None,
        stop_bonus: Mapping[str, int] | None = None,
        fs_open: bool = True,
    ) -> None:
        super().__init__(frozenset(colors), phase)
        self.upgrades = upgrades
        self.board = board
        self.south_only = south_only
        self.free_terrain = free_terrain
        self.ports = tuple(ports)
        self.port_bonus = port_bonus
        self.closed = dict(closed or {})
        self.stop_bonus = dict(stop_bonus or {})
        self.fs_open = fs_open

    def segment_cost(self, train: TrainSpec, gauges: frozenset[str], edges: int) -> int | None:
        """6.7: the FS red track runs from a "T" city to its off-board box, the "T" city
        counting as two stations (the stretch costs one station more); closed during
        "Red" Week (11.1 #10)."""
        if FS in gauges:
            return 1 if self.fs_open else None
        return super().segment_cost(train, gauges, edges)

    def check_hex(self, state: MapState, corporation: str, coord: str) -> TrackError | None:
        """11.1 #2 and #5: Flooding and the Landslide close hexes to tile lays for the OR."""
        rule = self.closed.get(coord)
        if rule is not None:
            return TrackError(f"no tile may be laid on {coord} this OR", rule)
        return None

    def stop_revenue(self, train: TrainSpec, stop: Stop) -> int:
        """11.1 #12, 11.2 #21, 11.3 #25: an off-board location's value changed for the OR."""
        return stop.info.revenue_in(self.phase) + self.stop_bonus.get(stop.hex, 0)

    def check_lay(self, ctx: LayContext) -> TrackError | None:
        """Appendix 4: a laid tile upgrades only to the tiles its row of the chart lists; the
        Co-operative builds only on or south of the FS Parma-Bologna line (8.1.3)."""
        if self.south_only and north_of_fs(self.board, ctx.coord):
            return TrackError("the Co-operative may not build north of the FS line", RULE_SOUTH)
        laid = ctx.state.tiles.get(ctx.coord)
        if laid is None:
            return None
        allowed = self.upgrades.allowed(laid[0])
        if ctx.new_tile.id not in allowed:
            return TrackError(
                f"tile {laid[0]} upgrades only to {', '.join(allowed) or 'nothing'}, "
                f"not {ctx.new_tile.id}",
                RULE_UPGRADE,
            )
        return None

    def lay_cost(self, ctx: LayContext) -> int:
        """6.4.1: the terrain cost is paid for the first tile laid on a hex only; the
        Co-operative pays none (8.1.4)."""
        if self.free_terrain or ctx.coord in ctx.state.tiles:
            return 0
        return ctx.terrain_cost

    def run_bonus(self, train: TrainSpec, corporation: str, stops: Sequence[Stop]) -> int:
        """6.6: each of the corporation's port tokens in a city the run visits adds L.20 to
        the run (L.10 from the first 4T). 6.8.4: a run starting or ending in Sassuolo's
        brown or grey city takes its higher value (the lower one is the stop's own)."""
        bonus = 0
        if self.ports and self.port_bonus:
            visited = {s.hex for s in stops}
            bonus = self.port_bonus * sum(1 for h in self.ports if h in visited)
        if not stops:
            return bonus
        first, last = stops[0], stops[-1]
        for stop in (first,) if last is first or last == first else (first, last):
            if stop.info.revenue_terminal:
                bonus += stop.info.revenue_terminal - stop.info.revenue
        return bonus

    def check_run(
        self,
        train: TrainSpec,
        corporation: str,
        stops: Sequence[Stop],
        gauges: frozenset[str] = frozenset(),
    ) -> RouteError | None:
        """8.1.3: the Co-operative traces no route north of the FS line (its stops). 6.7: a
        route using the FS track includes only one off-board location."""
        if FS in gauges and sum(1 for s in stops if s.kind == "offboard") > 1:
            return RouteError("a route using the FS track reaches only one off-board", RULE_FS)
        if self.south_only and any(north_of_fs(self.board, s.hex) for s in stops):
            return RouteError("the Co-operative may not run north of the FS line", RULE_SOUTH)
        return None
