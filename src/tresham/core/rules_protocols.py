"""The hooks a title gives the track and route code (:class:`TrackRules`), and the records
passed to them.

The core calls these hooks and never asks which title it plays. :class:`BasicTrackRules` is a
plain implementation (classic "n-trains" counting stops, full terrain cost, no special hexes)
that titles may subclass or replace.

Distance model used by the route code: a run's distance is the sum of ``segment_cost`` over its
stop-to-stop segments plus ``stop_cost`` over its stops; it must not exceed the train's
``distance``. Both hooks must be monotone (adding track or stops never lowers the sum): the
route search prunes on partial sums.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from tresham.core.errors import RouteError, TrackError
from tresham.core.tiles import NARROW, STANDARD, NodeDef, TileDef

if TYPE_CHECKING:
    from tresham.core.track import MapState


@dataclass(frozen=True, slots=True)
class TrainSpec:
    """What the route code needs to know about a train: its id (e.g. ``"4H-0"``), its type
    (``"4H"``, ``"R6H"``, ``"D"``) and its range in the title's distance unit."""

    id: str
    kind: str
    distance: int


@dataclass(frozen=True, slots=True)
class Stop:
    """A stop of a run: hex, node index, the node's definition, and whether it is a port."""

    hex: str
    node: int
    info: NodeDef
    port: bool = False

    @property
    def kind(self) -> str:
        return self.info.kind

    @property
    def key(self) -> tuple[str, int]:
        return (self.hex, self.node)


@dataclass(frozen=True)
class LayContext:
    """A proposed tile lay, as the title hooks see it.

    ``reach_edges``: edges of the hex by which the corporation's network reaches it (exits of
    reached track in the hex, and edges facing reached track in a neighbour).
    ``own_token``: the corporation has a station token in a city of this hex.
    ``terrain_cost``: the printed cost of the hex (0 if none).
    """

    state: MapState
    corporation: str
    coord: str
    old_tile: TileDef
    old_rotation: int
    new_tile: TileDef
    rotation: int
    reach_edges: frozenset[int]
    own_token: bool
    terrain_cost: int
    connection_required: bool = True


class TrackRules(Protocol):
    """Title hooks for tile lays, station tokens and runs."""

    @property
    def tile_colors(self) -> frozenset[str]:
        """Tile colours that may be laid now (e.g. ``{"yellow", "green"}``)."""
        ...

    def check_hex(self, state: MapState, corporation: str, coord: str) -> TrackError | None:
        """Why no tile may go on ``coord`` now (a blocked hex), or ``None``."""
        ...

    def check_lay(self, ctx: LayContext) -> TrackError | None:
        """Title rules beyond the generic ones (e.g. a gauge test), or ``None`` if legal."""
        ...

    def lay_cost(self, ctx: LayContext) -> int:
        """What the corporation pays for the lay (terrain and the like)."""
        ...

    def segment_cost(self, train: TrainSpec, gauges: frozenset[str], edges: int) -> int | None:
        """Distance of one stop-to-stop segment that uses track of ``gauges`` and crosses
        ``edges`` hex edges; ``None`` if such a segment is illegal for the train."""
        ...

    def stop_cost(self, train: TrainSpec, stop: Stop) -> int:
        """Distance a stop uses up (1 for classic n-trains, 0 for hex-counting trains)."""
        ...

    def stop_revenue(self, train: TrainSpec, stop: Stop) -> int:
        """What ``stop`` pays to ``train`` now."""
        ...

    def check_run(
        self,
        train: TrainSpec,
        corporation: str,
        stops: Sequence[Stop],
        gauges: frozenset[str] = frozenset(),
    ) -> RouteError | None:
        """Title route rules on the complete stop list and the gauges of the track the run
        uses (e.g. port rules), or ``None``."""
        ...

    def run_bonus(self, train: TrainSpec, corporation: str, stops: Sequence[Stop]) -> int:
        """Revenue added to a run beyond its stops' values (e.g. a port bonus)."""
        ...


class BasicTrackRules:
    """A plain rule set: the given tile colours, full terrain cost, n-trains counting every
    stop (``stop_cost`` 1), gauge pairs must connect, stop revenue from the node (its
    per-phase value in ``phase`` when the board lists one)."""

    def __init__(
        self,
        colors: frozenset[str] = frozenset({"yellow", "green", "brown", "gray"}),
        phase: str | None = None,
    ) -> None:
        self._colors = frozenset(colors)
        self.phase = phase

    @property
    def tile_colors(self) -> frozenset[str]:
        return self._colors

    def check_hex(self, state: MapState, corporation: str, coord: str) -> TrackError | None:
        return None

    def check_lay(self, ctx: LayContext) -> TrackError | None:
        return None

    def lay_cost(self, ctx: LayContext) -> int:
        return ctx.terrain_cost

    def segment_cost(self, train: TrainSpec, gauges: frozenset[str], edges: int) -> int | None:
        if NARROW in gauges and STANDARD in gauges:
            return None
        return 0

    def stop_cost(self, train: TrainSpec, stop: Stop) -> int:
        return 1

    def stop_revenue(self, train: TrainSpec, stop: Stop) -> int:
        return stop.info.revenue_in(self.phase)

    def check_run(
        self,
        train: TrainSpec,
        corporation: str,
        stops: Sequence[Stop],
        gauges: frozenset[str] = frozenset(),
    ) -> RouteError | None:
        return None

    def run_bonus(self, train: TrainSpec, corporation: str, stops: Sequence[Stop]) -> int:
        return 0
