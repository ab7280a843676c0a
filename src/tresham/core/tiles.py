"""Tile definitions (the shared catalogue) and rotations.

A tile is stored at rotation 0. Laying it with rotation ``r`` moves its edge ``e`` to board edge
``(e + r) % 6`` (docs/design.md). A tile has *nodes* (cities, towns, offboards, junctions) and
*paths*; each path joins two *ends*, an end being a hex edge (0-5) or one of the tile's nodes, and
has a gauge: ``standard``, ``narrow`` or ``dual`` (dual matches either of the other two).

The catalogue lives in ``core/data/tiles.json`` (schema: docs/data-format.md).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Final, NamedTuple

STANDARD: Final = "standard"
NARROW: Final = "narrow"
DUAL: Final = "dual"
GAUGES: Final = (STANDARD, NARROW, DUAL)

CITY: Final = "city"
TOWN: Final = "town"
OFFBOARD: Final = "offboard"
JUNCTION: Final = "junction"
NODE_KINDS: Final = (CITY, TOWN, OFFBOARD, JUNCTION)

#: Upgrade order of laid tiles: a white hex takes yellow, yellow → green → brown → gray.
COLOR_ORDER: Final = ("white", "yellow", "green", "brown", "gray")
#: Colours of hexes that never take a tile (preprinted gray track, offboards, ports).
FIXED_COLORS: Final = frozenset({"gray", "red", "blue"})


def rotate_edge(edge: int, rotation: int) -> int:
    """Board edge of tile edge ``edge`` when the tile is laid with ``rotation``."""
    return (edge + rotation) % 6


def opposite(edge: int) -> int:
    """The edge facing ``edge`` from the neighbouring hex."""
    return (edge + 3) % 6


def gauges_connect(a: str, b: str) -> bool:
    """Two track pieces meeting at a hex border connect: same gauge, or either is dual."""
    return a in (b, DUAL) or b == DUAL


def gauge_kept(old: str, new: str) -> bool:
    """An upgrade keeps a path's gauge: narrow → narrow/dual, standard → standard/dual,
    dual → dual."""
    return new in (old, DUAL)


def next_color(color: str) -> str | None:
    """The colour that may replace ``color`` (white → yellow → green → brown → gray)."""
    if color not in COLOR_ORDER:
        return None
    i = COLOR_ORDER.index(color)
    return COLOR_ORDER[i + 1] if i + 1 < len(COLOR_ORDER) else None


class PathEnd(NamedTuple):
    """One end of a path: ``PathEnd(True, e)`` is edge ``e``, ``PathEnd(False, i)`` node ``i``."""

    is_edge: bool
    num: int

    def rotated(self, rotation: int) -> PathEnd:
        return PathEnd(True, rotate_edge(self.num, rotation)) if self.is_edge else self

    def __str__(self) -> str:
        return f"e{self.num}" if self.is_edge else f"n{self.num}"

    @staticmethod
    def parse(text: str) -> PathEnd:
        """``"e3"`` → edge 3, ``"n0"`` → node 0."""
        if len(text) < 2 or text[0] not in "en" or not text[1:].isdigit():
            raise ValueError(f"bad path end {text!r} (expected e<edge> or n<node>)")
        index = int(text[1:])
        if text[0] == "e" and not 0 <= index < 6:
            raise ValueError(f"bad edge {index} in {text!r}")
        return PathEnd(text[0] == "e", index)


@dataclass(frozen=True, slots=True)
class NodeDef:
    """A city, town, offboard or junction. ``slots`` is the number of token spaces (cities).

    ``revenue_by_phase`` (phase name → revenue) overrides ``revenue`` where the board prints a
    value per phase (e.g. 1849's gray cities); it is empty for ordinary tiles.
    ``revenue_terminal`` is a second printed value a run earns when it starts or ends here
    (1883's Sassuolo); 0 when the tile has none.
    """

    kind: str
    revenue: int = 0
    slots: int = 0
    revenue_by_phase: tuple[tuple[str, int], ...] = ()
    revenue_terminal: int = 0

    def revenue_in(self, phase: str | None) -> int:
        """Revenue in ``phase``: the per-phase value when the board lists one, else ``revenue``."""
        if phase is not None:
            for name, value in self.revenue_by_phase:
                if name == phase:
                    return value
        return self.revenue

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "revenue": self.revenue}
        if self.kind == CITY:
            d["slots"] = self.slots
        if self.revenue_by_phase:
            d["revenue_by_phase"] = dict(self.revenue_by_phase)
        if self.revenue_terminal:
            d["revenue_terminal"] = self.revenue_terminal
        return d

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> NodeDef:
        kind = str(data["kind"])
        if kind not in NODE_KINDS:
            raise ValueError(f"unknown node kind {kind!r}")
        slots = int(data.get("slots", 1 if kind == CITY else 0))
        by_phase = data.get("revenue_by_phase") or {}
        return NodeDef(
            kind,
            int(data.get("revenue", 0)),
            slots,
            tuple((str(k), int(v)) for k, v in by_phase.items()),
            int(data.get("revenue_terminal", 0)),
        )


@dataclass(frozen=True, slots=True)
class PathDef:
    """A piece of track joining two ends, with a gauge."""

    a: PathEnd
    b: PathEnd
    gauge: str = STANDARD

    def rotated(self, rotation: int) -> PathDef:
        return PathDef(self.a.rotated(rotation), self.b.rotated(rotation), self.gauge)

    @property
    def edges(self) -> tuple[int, ...]:
        return tuple(end.num for end in (self.a, self.b) if end.is_edge)

    @property
    def nodes(self) -> tuple[int, ...]:
        return tuple(end.num for end in (self.a, self.b) if not end.is_edge)

    def to_list(self) -> list[str]:
        return [str(self.a), str(self.b), self.gauge]

    @staticmethod
    def from_list(data: list[str]) -> PathDef:
        if len(data) != 3 or data[2] not in GAUGES:
            raise ValueError(f"bad path {data!r} (expected [end, end, gauge])")
        return PathDef(PathEnd.parse(data[0]), PathEnd.parse(data[1]), data[2])


@dataclass(frozen=True)
class TileDef:
    """A tile at rotation 0: id, colour, nodes, paths and labels.

    The six rotations' paths and exit sets are computed once at construction.
    """

    id: str
    color: str
    nodes: tuple[NodeDef, ...] = ()
    paths: tuple[PathDef, ...] = ()
    labels: tuple[str, ...] = ()
    _rotations: tuple[tuple[PathDef, ...], ...] = field(
        init=False, repr=False, compare=False, hash=False
    )
    _exit_masks: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        for p in self.paths:
            for end in (p.a, p.b):
                if not end.is_edge and not 0 <= end.num < len(self.nodes):
                    raise ValueError(f"tile {self.id}: path end {end} names no node")
        rotations = tuple(tuple(p.rotated(r) for p in self.paths) for r in range(6))
        masks = tuple(
            sum(1 << e for e in {e for p in paths for e in p.edges}) for paths in rotations
        )
        object.__setattr__(self, "_rotations", rotations)
        object.__setattr__(self, "_exit_masks", masks)

    # -- counts ---------------------------------------------------------------------------
    @cached_property
    def city_count(self) -> int:
        return sum(1 for n in self.nodes if n.kind == CITY)

    @cached_property
    def town_count(self) -> int:
        return sum(1 for n in self.nodes if n.kind == TOWN)

    @cached_property
    def label_key(self) -> tuple[str, ...]:
        """The labels in a canonical order (an upgrade keeps them)."""
        return tuple(sorted(self.labels))

    @property
    def city_indices(self) -> tuple[int, ...]:
        return tuple(i for i, n in enumerate(self.nodes) if n.kind == CITY)

    # -- rotation helpers -----------------------------------------------------------------
    def rotated_paths(self, rotation: int) -> tuple[PathDef, ...]:
        """The paths with board edges for ``rotation`` (0-5)."""
        return self._rotations[rotation % 6]

    def exit_mask(self, rotation: int = 0) -> int:
        """Bit ``e`` set for every board edge the tile has track to at ``rotation``."""
        return self._exit_masks[rotation % 6]

    def exits(self, rotation: int = 0) -> frozenset[int]:
        """Board edges with track at ``rotation``."""
        mask = self._exit_masks[rotation % 6]
        return frozenset(e for e in range(6) if mask >> e & 1)

    def edge_gauges(self, rotation: int = 0) -> dict[int, frozenset[str]]:
        """For each board edge with track at ``rotation``: the gauges of the paths there."""
        out: dict[int, set[str]] = {}
        for p in self.rotated_paths(rotation):
            for e in p.edges:
                out.setdefault(e, set()).add(p.gauge)
        return {e: frozenset(g) for e, g in sorted(out.items())}

    def unique_rotations(self) -> tuple[int, ...]:
        """The rotations that give distinct track (e.g. 3 for a straight), smallest first."""
        return self._unique_rotations

    @cached_property
    def _unique_rotations(self) -> tuple[int, ...]:
        seen: set[frozenset[tuple[frozenset[PathEnd], str]]] = set()
        out: list[int] = []
        for r in range(6):
            key = frozenset((frozenset((p.a, p.b)), p.gauge) for p in self.rotated_paths(r))
            if key not in seen:
                seen.add(key)
                out.append(r)
        return tuple(out)

    def canonical_rotation(self, rotation: int) -> int:
        """The smallest rotation giving the same track as ``rotation``."""
        key = self._track_key(rotation)
        for r in range(6):
            if self._track_key(r) == key:
                return r
        return rotation % 6  # pragma: no cover - r == rotation always matches

    def _track_key(self, rotation: int) -> frozenset[tuple[frozenset[PathEnd], str]]:
        return frozenset((frozenset((p.a, p.b)), p.gauge) for p in self.rotated_paths(rotation))

    # -- (de)serialisation ----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"color": self.color}
        if self.nodes:
            d["nodes"] = [n.to_dict() for n in self.nodes]
        if self.paths:
            d["paths"] = [p.to_list() for p in self.paths]
        if self.labels:
            d["labels"] = list(self.labels)
        return d

    @staticmethod
    def from_dict(tile_id: str, data: Mapping[str, Any]) -> TileDef:
        return TileDef(
            id=tile_id,
            color=str(data["color"]),
            nodes=tuple(NodeDef.from_dict(n) for n in data.get("nodes", ())),
            paths=tuple(PathDef.from_list(list(p)) for p in data.get("paths", ())),
            labels=tuple(str(x) for x in data.get("labels", ())),
        )


def catalogue_from_dict(data: Mapping[str, Any]) -> dict[str, TileDef]:
    """Parse a tiles.json document (``{"schema": ..., "tiles": {id: tile}}``)."""
    tiles = data.get("tiles")
    if not isinstance(tiles, Mapping):
        raise ValueError("tiles.json: missing 'tiles' object")
    return {str(k): TileDef.from_dict(str(k), v) for k, v in tiles.items()}


@cache
def _default_catalogue() -> Mapping[str, TileDef]:
    text = resources.files("tresham.core").joinpath("data/tiles.json").read_text("utf-8")
    return catalogue_from_dict(json.loads(text))


def load_catalogue(path: str | Path | None = None) -> Mapping[str, TileDef]:
    """The tile catalogue: the package's ``core/data/tiles.json`` (cached) or ``path``."""
    if path is None:
        return _default_catalogue()
    return catalogue_from_dict(json.loads(Path(path).read_text("utf-8")))
