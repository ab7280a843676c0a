"""1849 track and route hooks (a :class:`~tresham.core.rules_protocols.TrackRules`).

Built from plain data, no game object. The rules modelled, from the rules summary
(``1849-summary.txt``, the spec) and, where it is silent, 18xx.games' behaviour
(``rule-details/1849-on-18xx-games.md`` §5.4-5.6; where that marks [DIFF] the summary wins):

- Tile colours: yellow from the start, green from the first 6H, brown from the first 12H
  (summary; 18xx.games allows brown from 10H — :func:`tile_colors_for_phase` offers both).
- Gauge test on a lay (18xx.games §5.4): at least one edge by which the corporation reaches the
  hex must meet the new tile's track with a matching gauge (dual matches both); other new
  exits may dead-end against the other gauge. Skipped when the corporation has a token in
  the hex, when the SMS private's power is used, and when there is no such pair at all.
- New track (ruling R29, as 18xx.games plays it): a lay where there was track must add track
  the corporation can use from one of its tokens without reversing, or change the value of a
  city on its network (``core.graph.new_track_problem``). Waived for SMS's lay.
- Terrain (summary "OR Lay track"): paid again on every upgrade. Added track (new paths minus
  old paths, counted by gauge): any dual or standard → full cost (standard only, no dual:
  half with SIGI owned by the laying corporation); narrow only, or nothing new → cost // 4.
- Blocked hexes: Acireale (G13) while SCE is owned by a player; Messina (B14) takes no tile
  between the earthquake and the next stock round.
- Trains count hex edges crossed (summary "OR Run trains"); a stop-to-stop segment may not mix
  narrow and standard (gauge changes only at a town or city); a narrow segment costs 2 per
  edge, others 1; the R6H reverses it (standard 2, narrow or dual 1). The E-train (variant
  electric_dreams, §14.3) runs any distance on standard and dual track only, and counts
  Messina, Palermo, Catania and Siracusa twice.
- A run needs two cities, or a city and a town; ports do not count toward that. At most two
  ports, each only as an end of the run.
- Gray cities (C1, E1, M9) and Calabria (C15) pay by phase band (4H-6H / 8H-10H / 12H-16H);
  the CNM private adds 20 to every run of its corporation that stops at its port.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, Final

from tresham.core.board import BoardDef
from tresham.core.errors import RouteError, TrackError
from tresham.core.graph import Network, new_track_problem
from tresham.core.rules_protocols import LayContext, Stop, TrainSpec
from tresham.core.tiles import (
    CITY,
    DUAL,
    NARROW,
    STANDARD,
    gauges_connect,
    load_catalogue,
    opposite,
)
from tresham.core.title import title_data
from tresham.core.track import MapState

PACKAGE: Final = "tresham.titles.t1849"
PHASES: Final = ("4H", "6H", "8H", "10H", "12H", "16H")
ACIREALE: Final = "G13"
MESSINA: Final = "B14"
CNM_BONUS: Final = 20
#: Trains whose distance doubles on standard gauge instead of narrow.
REVERSED_TRAINS: Final = frozenset({"R6H"})
#: The electric_dreams option's E-train (§14.3).
E_TRAIN: Final = "E"
#: Trains that may not use narrow gauge (the E-train).
NO_NARROW_TRAINS: Final = frozenset({E_TRAIN})
#: The E-train counts Messina, Palermo, Catania and Siracusa twice (electric_dreams, §14.3).
DOUBLE_FOR_E: Final = frozenset({"B14", "C5", "H12", "M13"})

RULE_LAY: Final = "1849 §OR Lay track"
RULE_RUN: Final = "1849 §OR Run trains"
RULE_SCE: Final = "1849 §Privates P1 (SCE)"
RULE_QUAKE: Final = "1849 §Messina earthquake"


def tile_colors_for_phase(phase: str, *, brown_from: str = "12H") -> frozenset[str]:
    """Tile colours laid in ``phase``: yellow always, green from 6H, brown from ``brown_from``
    (the summary says 12H; 18xx.games uses 10H)."""
    if phase not in PHASES:
        raise ValueError(f"unknown 1849 phase {phase!r}")
    at = PHASES.index(phase)
    colors = {"yellow"}
    if at >= PHASES.index("6H"):
        colors.add("green")
    if at >= PHASES.index(brown_from):
        colors.add("brown")
    return frozenset(colors)


class TrackRules1849:
    """The 1849 hooks for one moment of the game.

    ``phase``: current phase name (4H … 16H). ``colors``: tile colours allowed (default from the
    phase, brown from 12H). ``sce_blocks_g13``: SCE is still owned by a player (or unsold).
    ``messina_locked``: after the earthquake, until the next stock round. ``sigi_owner``: the
    corporation owning SIGI, if any. ``cnm_ports``: corporation → port hex it was assigned by
    CNM. ``sms_active``: the SMS private's lay is being made (gauge test waived).
    ``new_track_rule``: a lay must add track the corporation can use, or change a city's
    value (ruling R29; not in saves of rules version 1). ``network``: the walk that says
    which track it can use, where it is not tresham's reach (the site's, ruling S11).
    """

    def __init__(
        self,
        *,
        phase: str = "4H",
        colors: Iterable[str] | None = None,
        sce_blocks_g13: bool = True,
        messina_locked: bool = False,
        sigi_owner: str | None = None,
        cnm_ports: Mapping[str, str] | None = None,
        sms_active: bool = False,
        new_track_rule: bool = False,
        network: Network | None = None,
    ) -> None:
        if phase not in PHASES:
            raise ValueError(f"unknown 1849 phase {phase!r}")
        self.phase = phase
        self._colors = frozenset(colors) if colors is not None else tile_colors_for_phase(phase)
        self.sce_blocks_g13 = sce_blocks_g13
        self.messina_locked = messina_locked
        self.sigi_owner = sigi_owner
        self.cnm_ports = dict(cnm_ports or {})
        self.sms_active = sms_active
        self.new_track_rule = new_track_rule
        self.network = network

    # -- tile lays ------------------------------------------------------------------------
    @property
    def tile_colors(self) -> frozenset[str]:
        return self._colors

    def check_hex(self, state: MapState, corporation: str, coord: str) -> TrackError | None:
        """G13 while SCE blocks it; B14 between the earthquake and the next SR."""
        if coord == ACIREALE and self.sce_blocks_g13:
            return TrackError(
                "Acireale (G13) takes no tile while the SCE private is owned by a player",
                RULE_SCE,
            )
        if coord == MESSINA and self.messina_locked:
            return TrackError(
                "Messina (B14) takes no tile until the stock round after the earthquake",
                RULE_QUAKE,
            )
        return None

    def check_lay(self, ctx: LayContext) -> TrackError | None:
        """The gauge test: some reached edge must meet the new tile with a matching gauge; and,
        with ``new_track_rule``, the lay must add track the corporation can use or change a
        city's value (ruling R29). SMS's lay is free of both."""
        if self.sms_active or not ctx.connection_required:
            return None
        err = None if ctx.own_token else self._gauge_problem(ctx)
        if err is None and self.new_track_rule:
            err = new_track_problem(
                ctx.state,
                ctx.corporation,
                ctx.coord,
                ctx.new_tile.id,
                ctx.rotation,
                network=self.network,
            )
        return err

    def _gauge_problem(self, ctx: LayContext) -> TrackError | None:
        state = ctx.state
        new_paths = ctx.new_tile.rotated_paths(ctx.rotation)
        pairs = False
        for e in sorted(ctx.reach_edges):
            nb = state.board.neighbor(ctx.coord, e)
            if nb is None:
                continue
            back = opposite(e)
            theirs = {p.gauge for p in state.paths(nb) if back in p.edges}
            ours = {p.gauge for p in new_paths if e in p.edges}
            if not theirs or not ours:
                continue
            pairs = True
            if any(gauges_connect(a, b) for a in ours for b in theirs):
                return None
        if pairs:
            return TrackError(
                f"tile {ctx.new_tile.id} on {ctx.coord}: no track of the matching gauge meets "
                f"{ctx.corporation}'s network",
                RULE_LAY,
            )
        return None

    def lay_cost(self, ctx: LayContext) -> int:
        """Terrain, paid on every lay: full if dual or standard track is added (standard only:
        half with SIGI), a quarter if only narrow track (or nothing) is added."""
        cost = ctx.terrain_cost
        if cost <= 0:
            return 0
        old = Counter(p.gauge for p in ctx.old_tile.paths)
        new = Counter(p.gauge for p in ctx.new_tile.paths)
        added = new - old
        if added[DUAL]:
            return cost
        if added[STANDARD]:
            return cost // 2 if self.sigi_owner == ctx.corporation else cost
        return cost // 4

    # -- runs -----------------------------------------------------------------------------
    def segment_cost(self, train: TrainSpec, gauges: frozenset[str], edges: int) -> int | None:
        """Hex edges crossed, doubled on narrow (R6H: on standard); no mixing between stops."""
        if NARROW in gauges and STANDARD in gauges:
            return None
        if train.kind in NO_NARROW_TRAINS and NARROW in gauges:
            return None
        if train.kind in REVERSED_TRAINS:
            return 2 * edges if STANDARD in gauges else edges
        return 2 * edges if NARROW in gauges else edges

    def stop_cost(self, train: TrainSpec, stop: Stop) -> int:
        return 0

    def stop_revenue(self, train: TrainSpec, stop: Stop) -> int:
        """The printed/tile value, or the phase band's value for gray cities and Calabria;
        twice that for an E-train in Messina, Palermo, Catania and Siracusa (§14.3)."""
        value = stop.info.revenue_in(self.phase)
        if train.kind == E_TRAIN and stop.hex in DOUBLE_FOR_E:
            return 2 * value
        return value

    def check_run(
        self,
        train: TrainSpec,
        corporation: str,
        stops: Sequence[Stop],
        gauges: frozenset[str] = frozenset(),
    ) -> RouteError | None:
        """Two cities, or a city and a town, not counting ports; at most two ports, as ends."""
        ports = [i for i, s in enumerate(stops) if s.port]
        others = [s for s in stops if not s.port]
        if len(others) < 2 or not any(s.kind == CITY for s in others):
            return RouteError(
                "a run needs two cities, or a city and a town (ports do not count)", RULE_RUN
            )
        if len(ports) > 2:
            return RouteError("a run may include at most two ports", RULE_RUN)
        if any(0 < i < len(stops) - 1 for i in ports):
            return RouteError("a port may only be an end of a run", RULE_RUN)
        return None

    def run_bonus(self, train: TrainSpec, corporation: str, stops: Sequence[Stop]) -> int:
        """CNM: +20 on a run of the assigned corporation that stops at its port."""
        port = self.cnm_ports.get(corporation)
        if port is not None and any(s.hex == port for s in stops):
            return CNM_BONUS
        return 0


# -- data --------------------------------------------------------------------------------------
@cache
def load_board() -> BoardDef:
    """The 1849 board (package data)."""
    return BoardDef.from_package(PACKAGE)


@cache
def _manifest() -> dict[str, Any]:
    return title_data(PACKAGE, "data/manifest.json")


def load_manifest(variant: str = "rules") -> dict[str, int]:
    """Tile counts: ``"rules"`` (the summary's 168 tiles) or ``"18xx.games"`` (170)."""
    data = _manifest()
    if variant == "rules":
        counts = data["tiles"]
    elif variant == "18xx.games":
        counts = data["tiles_18xx_games"]
    else:
        raise ValueError(f"unknown manifest variant {variant!r}")
    return {str(k): int(v) for k, v in counts.items()}


def new_map(*, manifest: str = "rules", reserve_homes: Iterable[str] = ()) -> MapState:
    """A fresh 1849 map with the tile supply of ``manifest`` and the home cities of the
    corporations in ``reserve_homes`` reserved."""
    board = load_board()
    state = MapState(board, load_catalogue(), load_manifest(manifest))
    for corp in reserve_homes:
        coord, node = board.homes[corp]
        state.reserve(corp, coord, node)
    return state
