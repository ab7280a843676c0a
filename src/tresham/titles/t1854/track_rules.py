"""1854's track and route hooks for the Major Companies (a
:class:`~tresham.core.rules_protocols.TrackRules`), built from plain data.

The rules modelled (rulebook §5.3-5.7; rulings T1-T8 in ``docs/rulings/1854.md``):

- Tile colours by phase (Table 5): yellow from the start, green from Phase 3, brown from 5,
  grey from 8. The red and grey spaces take no tile (§5.3; the core's fixed hexes); the grey
  tunnel-only spaces (ruling D2) take none either, but track may end at them (ruling T14).
- Major Companies build on the main map only, the Local Railways on the extra map (§5.3).
- The three shielded hexes next to Wien (ruling D3) take a yellow tile before the first
  8-train only with the guarding company's permission: its own lays and those of companies
  with the same Director (ruling T2); promotion needs no permission.
- No tile track may end where a tunnel of the hex ends (§5.3.1, ``tunnels.py``).
- Small cities keep their crossbar tiles; medium-sized cities are promoted from Phase 5 to
  the large city and then green, never brown; double small cities become 457-464 (§5.3,
  §5.4, ``cities.py``).
- Terrain is paid on the first development of a hex only (§5.3); a company whose Director
  owns the hex's Mountain Railway builds there free (§5.3); one whose Director owns the
  Außerfernbahn pays 20 G less on a mountain (Table 2, ruling T11).
- n-trains count every station, plus trains only the large ones (§5.6); red spaces pay
  their value for the phase (§5.7).
  Paris and Constantinople are part of no route but the Orient Express's, which may go on
  from Zürich or Budapest to them (§5.6, ruling T5). A route through
  Germany passes the customs sign, a stop worth -10 G that counts nothing (§5.6, ruling
  T13). The Graz-Köflacher Bahn adds 10 G to each route through Graz of its owner's companies
  (Table 2, ruling T6).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from tresham.core.errors import RouteError, TrackError
from tresham.core.rules_protocols import BasicTrackRules, LayContext, Stop, TrainSpec
from tresham.core.tiles import TOWN
from tresham.core.track import MapState
from tresham.titles.t1854 import cities

RULE_LAY = "1854 §5.3"
#: The Orient Express's name in the train table (§5.6, §5.9).
ORIENT_EXPRESS = "OE"
RULE_RUN = "1854 §5.6"


class TrackRules1854(BasicTrackRules):
    """The hooks for one company at one moment of the game.

    ``local_map``: the extra map's hexes (closed to Major Companies). ``shielded``: shielded
    hex → the company whose permission it needs, while no 8-train has been bought.
    ``free_hexes``: Mountain Railway hexes the Director owns (no terrain cost).
    ``mountains``: the mountain hexes; ``mountain_discount``: what the company pays less there.
    ``closed_stops``: hexes no route may include (Paris, Constantinople). ``bonus``: hex →
    revenue added to a route through it (the Graz-Köflacher Bahn). ``customs``: the stops of
    the customs signs. ``gateways``: for the Orient Express, the red space from which its
    route may go on to Paris or Constantinople → (that city, its value). ``one_city``: hexes
    whose cities are one city for a route (Wien, Sankt Pölten on the extra map).
    ``medium``: the medium-sized cities; ``promoting``: they may be promoted (Phase 5 has
    begun, ``cities.py``).
    """

    def __init__(
        self,
        *,
        phase: str,
        colors: Iterable[str],
        local_map: Iterable[str] = (),
        local: bool = False,
        tunnel_only: Iterable[str] = (),
        shielded: Mapping[str, str] | None = None,
        free_hexes: Iterable[str] = (),
        mountains: Iterable[str] = (),
        mountain_discount: int = 0,
        closed_stops: Iterable[str] = (),
        bonus: Mapping[str, int] | None = None,
        customs: Iterable[tuple[str, int]] = (),
        gateways: Mapping[str, tuple[str, int]] | None = None,
        one_city: Iterable[str] = (),
        medium: Iterable[str] = (),
        promoting: bool = False,
    ) -> None:
        super().__init__(frozenset(colors), phase)
        self.local_map = frozenset(local_map)
        self.local = local
        self.tunnel_only = frozenset(tunnel_only)
        self.shielded = dict(shielded or {})
        self.free_hexes = frozenset(free_hexes)
        self.mountains = frozenset(mountains)
        self.mountain_discount = mountain_discount
        self.closed_stops = frozenset(closed_stops)
        self.bonus = dict(bonus or {})
        self.customs = frozenset(customs)
        self.gateways = dict(gateways or {})
        self.one_city = frozenset(one_city)
        self.medium = frozenset(medium)
        self.promoting = promoting

    def check_hex(self, state: MapState, corporation: str, coord: str) -> TrackError | None:
        """§5.3: no tile on a grey tunnel-only space (ruling T14); the Local Railways build on
        the extra map, the Major Companies elsewhere; a shielded hex, still bare, needs its
        guard's permission (ruling T2: only the guard lays there)."""
        if coord in self.tunnel_only:
            return TrackError(f"only tunnels may be built on the grey space {coord}", RULE_LAY)
        if (coord in self.local_map) != self.local:
            where = "on the extra map" if self.local else "elsewhere"
            return TrackError(f"{corporation} builds only {where}", RULE_LAY)
        guard = self.shielded.get(coord)
        if guard is not None and guard != corporation and coord not in state.tiles:
            return TrackError(
                f"{coord} is shielded: a yellow tile there needs {guard}'s permission "
                "until the first 8-train",
                RULE_LAY,
            )
        return None

    def check_lay(self, ctx: LayContext) -> TrackError | None:
        """§5.3.1: after a promotion "the tunnel may not overlie other track": no tile track
        ends where a tunnel of the hex ends. §5.3: small cities are never upgraded,
        medium-sized ones from Phase 5 and never to brown (``cities.py``)."""
        err = cities.lay_problem(ctx.coord, ctx.old_tile, ctx.new_tile, self.medium, self.promoting)
        if err is not None:
            return err
        ends = {e for pair in ctx.state.overlays.get(ctx.coord, ()) for e in pair}
        if ends & ctx.new_tile.exits(ctx.rotation):
            return TrackError(
                f"the tile's track would end where a tunnel on {ctx.coord} ends", "1854 §5.3.1"
            )
        return None

    def lay_cost(self, ctx: LayContext) -> int:
        """§5.3: terrain costs are incurred by the very first development of a hex; free on
        a Mountain Railway's hex for the companies of its owner; the Außerfernbahn's discount
        on a mountain."""
        if ctx.coord in ctx.state.tiles or ctx.coord in self.free_hexes:
            return 0
        if ctx.coord in self.mountains:
            return max(0, ctx.terrain_cost - self.mountain_discount)
        return ctx.terrain_cost

    def stop_cost(self, train: TrainSpec, stop: Stop) -> int:
        """§5.6: an n-train counts every station; a plus train ("1+", "2+", "3+") only the
        large ones, small stations (towns) being free."""
        if stop.key in self.customs:
            return 0
        return 0 if train.kind.endswith("+") and stop.kind == TOWN else 1

    def check_run(
        self,
        train: TrainSpec,
        corporation: str,
        stops: Sequence[Stop],
        gauges: frozenset[str] = frozenset(),
    ) -> RouteError | None:
        """§5.6: Paris and Constantinople are never included on the routes of other trains
        than the Orient Express (ruling T5: nor on its own); the customs sign is not a
        station, so a route passes it and never ends there (ruling T13); "No city (Wien,
        Zürich, Sankt Pölten on the extra game map) may be included twice in a route" (ruling
        W2)."""
        if any(s.hex in self.closed_stops for s in stops):
            return RouteError("Paris and Constantinople are not on this train's route", RULE_RUN)
        if stops and {stops[0].key, stops[-1].key} & self.customs:
            return RouteError("a route passes the customs sign and does not end there", RULE_RUN)
        once = [s.hex for s in stops if s.hex in self.one_city]
        if len(once) != len(set(once)):
            return RouteError(f"a route includes {once[0]} once only", RULE_RUN)
        return None

    def run_bonus(self, train: TrainSpec, corporation: str, stops: Sequence[Stop]) -> int:
        """Table 2: the Graz-Köflacher Bahn's +10 G on a route through Graz (ruling T6).
        §5.6: the Orient Express may start from Paris (beyond Zürich) or Constantinople
        (beyond Budapest): a route of it ending at Zürich or Budapest goes on to that city
        when its range allows, adding its value (ruling T5); with room for one only, the
        more valuable."""
        visited = {s.hex for s in stops}
        bonus = sum(amount for coord, amount in self.bonus.items() if coord in visited)
        if train.kind != ORIENT_EXPRESS or not stops:
            return bonus
        used = sum(self.stop_cost(train, s) for s in stops)
        beyond = {self.gateways[s.hex] for s in (stops[0], stops[-1]) if s.hex in self.gateways}
        for _city, value in sorted(beyond, key=lambda cv: (-cv[1], cv[0])):  # the best first
            if used < train.distance:
                used += 1
                bonus += value
        return bonus
