"""Hex grid geometry (flat and pointy layouts) and a title's board definition.

Coordinates are the printed board's: ``<row letter><column number>``, e.g. ``C5``; lower-case
``a`` is the row above ``A`` (docs/design.md). Internally hexes sit on *doubled coordinates*:

- flat-top (1849, 1883): ``x = number - 1``, ``y = letter index`` (``a`` = -1, ``A`` = 0);
  edges 0=S 1=SW 2=NW 3=N 4=NE 5=SE.
- pointy-top (1854): ``x = number``, ``y = letter index``; edges 0=SW 1=W 2=NW 3=NE 4=E 5=SE.

Every hex of a title has a *preprinted tile*: its printed content (towns, cities, offboards,
track at absolute board edges, labels) as a :class:`TileDef` at rotation 0 whose id is the hex's
coordinate and whose colour is the hex's colour. A plain white hex has an empty one.

A board is loaded from the title's ``board.json`` (schema: docs/data-format.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final, Literal

from tresham.core.tiles import FIXED_COLORS, NodeDef, PathDef, TileDef, opposite

Layout = Literal["flat", "pointy"]

#: Neighbour offsets (dx, dy) by edge.
OFFSETS: Final[dict[str, tuple[tuple[int, int], ...]]] = {
    "flat": ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
    "pointy": ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)),
}
_COLUMN_BASE: Final[dict[str, int]] = {"flat": 1, "pointy": 0}
#: Each edge's compass side, as players say where track leaves a hex.
EDGE_SIDES: Final[dict[str, tuple[str, ...]]] = {
    "flat": ("south", "south-west", "north-west", "north", "north-east", "south-east"),
    "pointy": ("south-west", "west", "north-west", "north-east", "east", "south-east"),
}


def _check_layout(layout: str) -> Layout:
    if layout == "flat":
        return "flat"
    if layout == "pointy":
        return "pointy"
    raise ValueError(f"unknown layout {layout!r} (flat or pointy)")


def coord_to_xy(coord: str, layout: Layout) -> tuple[int, int]:
    """``"C5"`` → doubled coordinates ``(x, y)``. A lower-case letter counts up from -1."""
    i = 0
    while i < len(coord) and coord[i].isalpha():
        i += 1
    letters, digits = coord[:i], coord[i:]
    if len(letters) != 1 or not digits.isdigit():
        raise ValueError(f"bad coordinate {coord!r}")
    ch = letters
    y = ord(ch) - ord("A") if ch.isupper() else -(ord(ch) - ord("a")) - 1
    return int(digits) - _COLUMN_BASE[layout], y


def xy_to_coord(x: int, y: int, layout: Layout) -> str:
    """Inverse of :func:`coord_to_xy`."""
    letter = chr(ord("A") + y) if y >= 0 else chr(ord("a") - y - 1)
    return f"{letter}{x + _COLUMN_BASE[layout]}"


def neighbor_xy(x: int, y: int, edge: int, layout: Layout) -> tuple[int, int]:
    """Doubled coordinates of the hex across ``edge``."""
    dx, dy = OFFSETS[layout][edge]
    return x + dx, y + dy


def _terrain_kind(value: object) -> str:
    """A hex's printed terrain kind from its board.json ``terrain`` (a name, or a list whose
    first name counts); "" where none is named."""
    if isinstance(value, list) and value:
        return str(value[0])
    return value if isinstance(value, str) else ""


@dataclass(frozen=True)
class HexDef:
    """One hex of the printed board.

    ``color``: white (buildable), yellow (preprinted, upgradable), gray (fixed track), blue
    (port/sea), red (offboard). ``terrain_cost`` is the printed cost to build (0 if none),
    ``terrain`` the kind of terrain printed where the board names it ("mountain", "water").
    ``tile`` is the preprinted content at rotation 0 with absolute edges. ``impassable`` lists
    edges with an impassable border (no track may cross them).
    """

    coord: str
    x: int
    y: int
    color: str
    tile: TileDef
    name: str = ""
    terrain_cost: int = 0
    terrain: str = ""
    impassable: frozenset[int] = frozenset()
    port: bool = False

    @property
    def fixed(self) -> bool:
        """Gray, red and blue hexes never take a tile."""
        return self.color in FIXED_COLORS


@dataclass(frozen=True)
class LongPath:
    """A printed line joining two stops of distant hexes that a run may use as one stretch
    between them, with no stop on the way (e.g. 1883's FS red track from a "T" city to its
    off-board box). It has a gauge of its own (the title's rules price or refuse it) and is
    not track to build from or to reach stations by: the walk of a network reaches its far
    end, never beyond."""

    name: str
    a: tuple[str, int]
    b: tuple[str, int]
    gauge: str


@dataclass
class BoardDef:
    """A title's board: the hexes, their geometry and the title's map facts.

    ``homes`` maps a corporation to its home city ``(hex, node index)``; ``home_cities`` gives
    every corporation of ``homes`` all its home cities, in order (the first its ``homes``
    entry; more where the board's ``home_cities`` names several); ``home_choices`` lists
    the hexes a corporation may choose its home from; ``regroup_labels`` are the tile labels
    whose upgrades may change the number of cities (e.g. 1854's Wien: three cities, then five,
    then three, then one), each old city going to the new one its track leads to;
    ``promotions`` is the board's promotion chart beyond the generic upgrade rules: a tile id
    (a preprinted tile's id is its hex) → the tiles that may replace it although their
    colour or their numbers of cities and towns differ (e.g. 1854's medium-sized city: the
    yellow small-city tile 3 → the yellow large-city tile 5), whether and when is the title's
    rule; ``extra``
    keeps every other top-level field of board.json (title-specific facts the core does not
    interpret).
    """

    title: str
    layout: Layout
    hexes: dict[str, HexDef]
    homes: dict[str, tuple[str, int]] = field(default_factory=dict)
    home_choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    long_paths: tuple[LongPath, ...] = ()
    home_cities: Mapping[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    regroup_labels: frozenset[str] = frozenset()
    promotions: Mapping[str, frozenset[str]] = field(default_factory=dict)
    _adjacent: dict[str, tuple[str | None, ...]] = field(init=False, repr=False)
    _neighbors: dict[str, tuple[str | None, ...]] = field(init=False, repr=False)

    def town(self, coord: str) -> str:
        """A hex as players name it: its town's name, else its coordinate."""
        h = self.hexes.get(coord)
        return h.name if h is not None and h.name else coord

    def place(self, coord: str) -> str:
        """A hex with its name and coordinate, "Palermo (C1)"; the coordinate alone when
        it has no name."""
        name = self.town(coord)
        return coord if name == coord else f"{name} ({coord})"

    def __post_init__(self) -> None:
        by_xy = {(h.x, h.y): c for c, h in self.hexes.items()}
        self._adjacent = {}
        self._neighbors = {}
        for coord, h in self.hexes.items():
            adj = tuple(by_xy.get(neighbor_xy(h.x, h.y, e, self.layout)) for e in range(6))
            self._adjacent[coord] = adj
        for coord, h in self.hexes.items():
            out: list[str | None] = []
            for e, nb in enumerate(self._adjacent[coord]):
                # A border is impassable if either side says so.
                if nb is None or e in h.impassable or opposite(e) in self.hexes[nb].impassable:
                    out.append(None)
                else:
                    out.append(nb)
            self._neighbors[coord] = tuple(out)

    # -- geometry -------------------------------------------------------------------------
    def __contains__(self, coord: object) -> bool:
        return coord in self.hexes

    def __iter__(self) -> Iterator[str]:
        return iter(self.hexes)

    def hex(self, coord: str) -> HexDef:
        try:
            return self.hexes[coord]
        except KeyError:
            raise KeyError(f"no hex {coord} on the {self.title} board") from None

    def adjacent(self, coord: str, edge: int) -> str | None:
        """The hex across ``edge``, ignoring borders (``None`` off the map)."""
        return self._adjacent[coord][edge]

    def neighbor(self, coord: str, edge: int) -> str | None:
        """The hex track may reach across ``edge``: ``None`` off the map or through an
        impassable border."""
        return self._neighbors[coord][edge]

    def neighbors(self, coord: str) -> dict[int, str]:
        """Every edge → hex reachable across it."""
        return {e: nb for e, nb in enumerate(self._neighbors[coord]) if nb is not None}

    def side(self, coord: str, edge: int) -> str:
        """Where ``edge`` of ``coord`` leads, in words: its compass side and the place across
        it when that has a name ("the east, toward Melk (J38)")."""
        side = f"the {EDGE_SIDES[self.layout][edge]}"
        across = self._adjacent[coord][edge]
        if across is None or self.town(across) == across:
            return side
        return f"{side}, toward {self.place(across)}"

    def edge_between(self, a: str, b: str) -> int | None:
        """The edge of ``a`` that faces ``b`` (ignoring borders), or ``None``."""
        for e, nb in enumerate(self._adjacent[a]):
            if nb == b:
                return e
        return None

    # -- loading --------------------------------------------------------------------------
    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> BoardDef:
        layout = _check_layout(str(data["layout"]))
        hexes: dict[str, HexDef] = {}
        for coord, h in data["hexes"].items():
            x, y = coord_to_xy(coord, layout)
            color = str(h["color"])
            tile = TileDef(
                id=coord,
                color=color,
                nodes=tuple(NodeDef.from_dict(n) for n in h.get("nodes", ())),
                paths=tuple(PathDef.from_list(list(p)) for p in h.get("paths", ())),
                labels=tuple(str(x) for x in h.get("labels", ())),
            )
            hexes[coord] = HexDef(
                coord=coord,
                x=x,
                y=y,
                color=color,
                tile=tile,
                name=str(h.get("name") or ""),
                terrain_cost=int(h.get("terrain_cost", 0)),
                terrain=_terrain_kind(h.get("terrain")),
                impassable=frozenset(int(e) for e in h.get("impassable", ())),
                port=bool(h.get("port", False)),
            )
        homes = {str(k): (str(v[0]), int(v[1])) for k, v in data.get("homes", {}).items()}
        several = data.get("home_cities", {})
        home_cities = {
            sym: tuple((str(h[0]), int(h[1])) for h in several.get(sym, [home]))
            for sym, home in homes.items()
        }
        choices = {
            str(k): tuple(str(c) for c in v) for k, v in data.get("home_choices", {}).items()
        }
        long_paths = tuple(
            LongPath(
                str(lp["name"]),
                (str(lp["a"][0]), int(lp["a"][1])),
                (str(lp["b"][0]), int(lp["b"][1])),
                str(lp["gauge"]),
            )
            for lp in data.get("long_paths", ())
        )
        known = {
            "schema",
            "title",
            "layout",
            "hexes",
            "homes",
            "home_choices",
            "long_paths",
            "home_cities",
            "regroup_labels",
            "promotions",
        }
        extra = {k: v for k, v in data.items() if k not in known}
        return BoardDef(
            str(data.get("title", "")),
            layout,
            hexes,
            homes,
            choices,
            extra,
            long_paths,
            home_cities,
            frozenset(str(x) for x in data.get("regroup_labels", ())),
            {
                str(old): frozenset(str(t) for t in new)
                for old, new in data.get("promotions", {}).items()
            },
        )

    @staticmethod
    def load(path: str | Path) -> BoardDef:
        """Load a board.json file."""
        return BoardDef.from_dict(json.loads(Path(path).read_text("utf-8")))

    @staticmethod
    def from_package(package: str, name: str = "data/board.json") -> BoardDef:
        """Load a title's board shipped as package data (``data/board.json`` of ``package``)."""
        text = resources.files(package).joinpath(name).read_text("utf-8")
        return BoardDef.from_dict(json.loads(text))
