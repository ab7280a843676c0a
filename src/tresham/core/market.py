"""Stock markets: a 2-D grid or a hex grid of priced cells, token movement and stacking.

A market is built from title data (see `Market.from_dict`) and never changes during a game;
`MarketState` is the mutable part: where each corporation's token is and, per cell, the
order in which the tokens arrived.

Cells are addressed by `(row, column)`, row 0 at the top, column 0 at the left. A row may be
shorter than the others or have holes (`null` in the data).

Zone tags are plain strings chosen by the title data. The ones the engine's titles use:

- `par` (a par cell) and a par group `par:<group>` (e.g. `par:yellow`) for cells that become
  available together;
- `close` (entering closes the corporation), `endgame` (entering triggers the end of the
  game), `blue` (1849's zone entered only from phase 16H), `no_cert_limit` (shares do not
  count toward the certificate limit), `share_split` (1854: the company splits on first
  entering).

Movement is a sequence of single steps. Each step is computed by a `MovementRules` policy;
`StandardMovement` implements the printed-arrow rules of both geometries and a title may
wrap it (1849 blocks its blue zone until phase 16H).

Grid directions (`GRID_DIRECTIONS`):

- `right`: one column right; at the end of a row the token moves up a row instead.
- `left`: one column left; at the start of a row (column 0) it moves down a row instead.
- `up`: one row up; on row 0 (or below a missing cell) the token stays.
- `down`: one row down; into a missing cell the token stays.

Hex directions (`HEX_DIRECTIONS`), for a market whose rows each sit half a cell to the right
of the row below (1854): the neighbours of `(r, c)` are `right` `(r, c+1)`, `left`
`(r, c-1)`, `up_right` `(r-1, c)`, `up_left` `(r-1, c-1)`, `down_right` `(r+1, c+1)` and
`down_left` `(r+1, c)`. At the right end of a row `right` goes `up_right` instead; at the left
end `left` goes `down_left` instead; any other step off the chart leaves the token in place.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, Protocol

Position = tuple[int, int]
"""A cell's address: (row, column), row 0 at the top, column 0 at the left."""

Geometry = Literal["grid", "hex"]

GRID_DIRECTIONS: tuple[str, ...] = ("right", "left", "up", "down")
HEX_DIRECTIONS: tuple[str, ...] = (
    "right",
    "left",
    "up_right",
    "up_left",
    "down_right",
    "down_left",
)

# Raw neighbour offsets (drow, dcol) per geometry and direction.
_OFFSETS: dict[str, dict[str, Position]] = {
    "grid": {"right": (0, 1), "left": (0, -1), "up": (-1, 0), "down": (1, 0)},
    "hex": {
        "right": (0, 1),
        "left": (0, -1),
        "up_right": (-1, 0),
        "up_left": (-1, -1),
        "down_right": (1, 1),
        "down_left": (1, 0),
    },
}

# Where a move that runs off the end of its row goes instead (the printed arrows).
_ROW_END_FALLBACK: dict[str, dict[str, str]] = {
    "grid": {"right": "up", "left": "down"},
    "hex": {"right": "up_right", "left": "down_left"},
}


@dataclass(frozen=True, slots=True)
class Cell:
    """One space of the market: its address, its price and its zone tags."""

    pos: Position
    price: int
    tags: frozenset[str] = frozenset()

    def has(self, tag: str) -> bool:
        """Whether the cell carries `tag`."""
        return tag in self.tags


class MovementRules(Protocol):
    """A movement policy: where one step in `direction` from `pos` ends.

    A policy returns `pos` itself when the token may not move. It must return a cell of
    `market`. Titles wrap `StandardMovement` to alter particular moves.
    """

    def step(self, market: Market, pos: Position, direction: str) -> Position: ...


class StandardMovement:
    """The common 18xx movement: one step to the neighbouring cell, following the row-end
    arrows (grid: right→up, left→down; hex: right→up_right, left→down_left), otherwise
    staying put when the neighbour does not exist."""

    def step(self, market: Market, pos: Position, direction: str) -> Position:
        target = market.neighbour(pos, direction)
        if target is not None:
            return target
        fallback = _ROW_END_FALLBACK[market.geometry].get(direction)
        if fallback is not None:
            target = market.neighbour(pos, fallback)
            if target is not None:
                return target
        return pos

    def __copy__(self) -> StandardMovement:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> StandardMovement:
        return self


STANDARD_MOVEMENT = StandardMovement()
"""The default policy instance (stateless)."""


class Market:
    """An immutable stock market: its geometry and its cells.

    Shared between all copies of a game; `copy.deepcopy` returns the same object.
    """

    __slots__ = ("_by_price", "cells", "geometry", "rows")

    geometry: Geometry
    rows: tuple[tuple[Cell | None, ...], ...]
    cells: Mapping[Position, Cell]

    def __init__(self, geometry: Geometry, rows: Sequence[Sequence[Cell | None]]) -> None:
        if geometry not in _OFFSETS:
            raise ValueError(f"unknown market geometry {geometry!r}")
        self.geometry = geometry
        self.rows = tuple(tuple(row) for row in rows)
        cells: dict[Position, Cell] = {}
        for r, row in enumerate(self.rows):
            for c, cell in enumerate(row):
                if cell is None:
                    continue
                if cell.pos != (r, c):
                    raise ValueError(f"cell at {(r, c)} claims position {cell.pos}")
                cells[(r, c)] = cell
        if not cells:
            raise ValueError("a market needs at least one cell")
        self.cells = cells
        by_price: dict[int, list[Position]] = {}
        for pos, cell in sorted(cells.items()):
            by_price.setdefault(cell.price, []).append(pos)
        self._by_price = {p: tuple(v) for p, v in by_price.items()}

    # ---- construction and serialisation -------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Market:
        """Build a market from our JSON schema:

        `{"geometry": "grid" | "hex", "rows": [[{"price": int, "tags": [str, ...]} | null,
        ...], ...]}`. Other top-level keys (`title`, `tags` legend, `notes`) are ignored.
        """
        geometry = data["geometry"]
        if geometry not in ("grid", "hex"):
            raise ValueError(f"unknown market geometry {geometry!r}")
        rows: list[list[Cell | None]] = []
        for r, raw_row in enumerate(data["rows"]):
            row: list[Cell | None] = []
            for c, raw in enumerate(raw_row):
                if raw is None:
                    row.append(None)
                    continue
                price = raw["price"]
                if not isinstance(price, int) or isinstance(price, bool):
                    raise ValueError(f"cell {(r, c)}: price must be an int")
                row.append(Cell((r, c), price, frozenset(raw.get("tags", ()))))
            rows.append(row)
        return cls(geometry, rows)

    @classmethod
    def load(cls, package: str, resource: str) -> Market:
        """Load a market JSON file shipped as package data, e.g.
        `Market.load("tresham.titles.t1849", "data/market.json")`."""
        text = resources.files(package).joinpath(resource).read_text(encoding="utf-8")
        return cls.from_dict(json.loads(text))

    def to_dict(self) -> dict[str, Any]:
        """The market in the schema `from_dict` reads (tags sorted)."""
        return {
            "geometry": self.geometry,
            "rows": [
                [
                    None if cell is None else {"price": cell.price, "tags": sorted(cell.tags)}
                    for cell in row
                ]
                for row in self.rows
            ],
        }

    def __deepcopy__(self, memo: dict[int, Any]) -> Market:
        return self

    def __copy__(self) -> Market:
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Market):
            return NotImplemented
        return self.geometry == other.geometry and self.rows == other.rows

    def __hash__(self) -> int:
        return hash((self.geometry, self.rows))

    def __repr__(self) -> str:
        return f"Market({self.geometry!r}, {len(self.cells)} cells)"

    # ---- queries ----------------------------------------------------------------------

    @property
    def directions(self) -> tuple[str, ...]:
        """The direction names this market's geometry understands."""
        return GRID_DIRECTIONS if self.geometry == "grid" else HEX_DIRECTIONS

    def __contains__(self, pos: object) -> bool:
        return pos in self.cells

    def cell(self, pos: Position) -> Cell:
        """The cell at `pos` (KeyError if there is none)."""
        try:
            return self.cells[pos]
        except KeyError:
            raise KeyError(f"no market cell at {pos}") from None

    def price(self, pos: Position) -> int:
        """The price printed in the cell at `pos`."""
        return self.cell(pos).price

    def tags(self, pos: Position) -> frozenset[str]:
        """The zone tags of the cell at `pos`."""
        return self.cell(pos).tags

    def positions_at_price(self, price: int) -> tuple[Position, ...]:
        """Every cell printed with `price`, in (row, column) order (prices may repeat)."""
        return self._by_price.get(price, ())

    def cells_with(self, tag: str) -> list[Cell]:
        """Every cell carrying `tag`, in (row, column) order."""
        return [cell for _, cell in sorted(self.cells.items()) if tag in cell.tags]

    def par_cells(self, groups: Iterable[str] | None = None) -> list[Cell]:
        """The par cells (tag `par`), cheapest first.

        With `groups`, only those also carrying one of the given group tags (e.g.
        `{"par:yellow", "par:green"}` once green par opens); None means every par cell.
        """
        wanted = None if groups is None else frozenset(groups)
        found = [
            cell
            for cell in self.cells_with("par")
            if wanted is None or not wanted.isdisjoint(cell.tags)
        ]
        return sorted(found, key=lambda cell: (cell.price, cell.pos))

    def neighbour(self, pos: Position, direction: str) -> Position | None:
        """The cell one step from `pos` in `direction`, ignoring row-end rules; None if
        there is no cell there. Raises ValueError for a direction foreign to the geometry."""
        self.cell(pos)
        try:
            dr, dc = _OFFSETS[self.geometry][direction]
        except KeyError:
            raise ValueError(
                f"direction {direction!r} is not one of {self.directions} ({self.geometry})"
            ) from None
        target = (pos[0] + dr, pos[1] + dc)
        return target if target in self.cells else None

    def horizontal(self, pos: Position) -> int:
        """How far right `pos` sits on the printed chart (larger = further right).

        Grid: the column. Hex: twice the horizontal offset in half cells, `2*c - r`, since
        each row sits half a cell right of the row below.
        """
        r, c = pos
        return c if self.geometry == "grid" else 2 * c - r

    def walk(
        self,
        pos: Position,
        direction: str,
        steps: int = 1,
        rules: MovementRules | None = None,
    ) -> list[Position]:
        """Where a token at `pos` would go, without moving anything: the position after
        each of `steps` steps (a blocked step repeats the previous position)."""
        if steps < 0:
            raise ValueError("steps must not be negative")
        policy = STANDARD_MOVEMENT if rules is None else rules
        self.cell(pos)
        if direction not in self.directions:
            raise ValueError(
                f"direction {direction!r} is not one of {self.directions} ({self.geometry})"
            )
        out: list[Position] = []
        for _ in range(steps):
            nxt = policy.step(self, pos, direction)
            if nxt not in self.cells:
                raise ValueError(f"movement policy left the market at {nxt}")
            pos = nxt
            out.append(pos)
        return out


class MarketState:
    """The mutable market: each corporation's token and each cell's stack.

    A cell's stack lists its tokens top first. A token arriving in a cell (by a move or by
    `place`) goes to the bottom, so it operates after the tokens already there (1849 and
    1854 both print this rule; 1854 §5.8, §7).

    `rules` is the movement policy in force; a title replaces or updates it when a phase
    changes it. `copy.deepcopy` and `copy()` share the immutable market, copy the two small
    tables and shallow-copy the rules (a stateless policy may return itself from
    `__copy__`, as `StandardMovement` does).
    """

    __slots__ = ("_pos", "_stacks", "market", "rules")

    def __init__(self, market: Market, rules: MovementRules | None = None) -> None:
        self.market = market
        self.rules: MovementRules = STANDARD_MOVEMENT if rules is None else rules
        self._pos: dict[str, Position] = {}
        self._stacks: dict[Position, list[str]] = {}

    # ---- copying and serialisation ----------------------------------------------------

    def copy(self) -> MarketState:
        """An independent copy sharing the market (rules shallow-copied)."""
        new = MarketState.__new__(MarketState)
        new.market = self.market
        new.rules = copy.copy(self.rules)
        new._pos = dict(self._pos)
        new._stacks = {pos: list(stack) for pos, stack in self._stacks.items()}
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> MarketState:
        return self.copy()

    def __copy__(self) -> MarketState:
        return self.copy()

    def to_dict(self) -> dict[str, Any]:
        """Canonical form: the occupied cells in (row, column) order, each with its stack
        top first: `{"stacks": [{"pos": [r, c], "corps": [...]}, ...]}`."""
        return {
            "stacks": [
                {"pos": [pos[0], pos[1]], "corps": list(stack)}
                for pos, stack in sorted(self._stacks.items())
            ]
        }

    @classmethod
    def from_dict(
        cls, market: Market, data: Mapping[str, Any], rules: MovementRules | None = None
    ) -> MarketState:
        """Rebuild a state written by `to_dict`."""
        state = cls(market, rules)
        for entry in data["stacks"]:
            pos = (int(entry["pos"][0]), int(entry["pos"][1]))
            for corp in entry["corps"]:
                state.place(corp, pos)
        return state

    def __eq__(self, other: object) -> bool:  # equal by value: so unhashable (no __hash__)
        if not isinstance(other, MarketState):
            return NotImplemented
        return self.market == other.market and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"MarketState({self.to_dict()['stacks']})"

    # ---- tokens -----------------------------------------------------------------------

    def __contains__(self, corp: object) -> bool:
        return corp in self._pos

    def corporations(self) -> list[str]:
        """Every corporation with a token on the market, sorted by name."""
        return sorted(self._pos)

    def place(self, corp: str, pos: Position) -> None:
        """Put `corp`'s token on `pos` (par), at the bottom of that cell's stack."""
        if corp in self._pos:
            raise ValueError(f"{corp} already has a market token at {self._pos[corp]}")
        self.market.cell(pos)
        self._pos[corp] = pos
        self._stacks.setdefault(pos, []).append(corp)

    def remove(self, corp: str) -> Position:
        """Take `corp`'s token off the market (e.g. on closing); returns where it was."""
        pos = self.position(corp)
        del self._pos[corp]
        stack = self._stacks[pos]
        stack.remove(corp)
        if not stack:
            del self._stacks[pos]
        return pos

    def position(self, corp: str) -> Position:
        """Where `corp`'s token is (KeyError if it has none)."""
        try:
            return self._pos[corp]
        except KeyError:
            raise KeyError(f"{corp} has no market token") from None

    def cell(self, corp: str) -> Cell:
        """The cell `corp`'s token is on."""
        return self.market.cell(self.position(corp))

    def price(self, corp: str) -> int:
        """`corp`'s share price: the price of the cell its token is on."""
        return self.cell(corp).price

    def zones_of(self, corp: str) -> frozenset[str]:
        """The zone tags of the cell `corp`'s token is on."""
        return self.cell(corp).tags

    def stack(self, pos: Position) -> tuple[str, ...]:
        """The tokens in the cell at `pos`, top (earliest arrival) first."""
        return tuple(self._stacks.get(pos, ()))

    def set_stack(self, pos: Position, order: Sequence[str]) -> None:
        """Reorder the tokens of one cell (top first); `order` must be a permutation of the
        cell's current stack. For title rules that restack (1849's fix-up after sales)."""
        current = self._stacks.get(pos, [])
        if sorted(order) != sorted(current) or len(set(order)) != len(order):
            raise ValueError(f"{list(order)} is not a reordering of {current} at {pos}")
        if current:
            self._stacks[pos] = list(order)

    # ---- movement ---------------------------------------------------------------------

    def move(
        self,
        corp: str,
        direction: str,
        steps: int = 1,
        rules: MovementRules | None = None,
    ) -> list[Position]:
        """Move `corp`'s token `steps` single steps in `direction` under `rules` (default:
        the state's `rules`).

        Returns the cells entered, in order; a step that is blocked enters nothing, so an
        empty list means the token did not move. Each cell entered puts the token at the
        bottom of that cell's stack; a token that does not move keeps its stack place.
        """
        start = self.position(corp)
        path = self.market.walk(start, direction, steps, self.rules if rules is None else rules)
        entered: list[Position] = []
        here = start
        for pos in path:
            if pos != here:
                entered.append(pos)
                here = pos
        if entered:
            self._relocate(corp, start, entered[-1])
        return entered

    def move_to(self, corp: str, pos: Position) -> None:
        """Put `corp`'s token directly on `pos` (bottom of the stack); no-op if already
        there. For title rules that jump a token rather than step it."""
        start = self.position(corp)
        self.market.cell(pos)
        if pos != start:
            self._relocate(corp, start, pos)

    def _relocate(self, corp: str, start: Position, end: Position) -> None:
        stack = self._stacks[start]
        stack.remove(corp)
        if not stack:
            del self._stacks[start]
        self._stacks.setdefault(end, []).append(corp)
        self._pos[corp] = end

    # ---- ordering and par -------------------------------------------------------------

    def order_key(self, corp: str) -> tuple[int, int, int, int]:
        """The operating-order sort key of `corp` (smaller operates earlier)."""
        pos = self.position(corp)
        return (
            -self.market.price(pos),
            -self.market.horizontal(pos),
            pos[0],
            self._stacks[pos].index(corp),
        )

    def operating_order(self, corps: Iterable[str]) -> list[str]:
        """`corps` in operating order: higher price first; then further right on the chart
        (grid: higher column; hex: see `Market.horizontal`); then higher on the chart (lower
        row); then the top of a shared cell's stack (earlier arrival) first. Every corp
        must have a token on the market."""
        return sorted(corps, key=self.order_key)

    def par_cells(self, groups: Iterable[str] | None = None) -> list[Cell]:
        """The market's par cells, optionally restricted to par groups; see
        `Market.par_cells`."""
        return self.market.par_cells(groups)
