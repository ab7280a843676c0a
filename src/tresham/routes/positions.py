"""Route positions given as data: a board, tiles, tokens, one company's trains and the
expected best revenue (``shared/reference/1889-routes/FORMAT.md``: real 1889 positions).

A position file is loaded into the same board and track model the titles use and solved by
the same optimizer. 1889 routes like 1830: n-trains visit up to n stops (towns count), a D
train any number; offboards end a route and pay by phase (a D train their diesel value); a
city full of other companies' tokens cannot be passed; two trains share no track.

The file's hexes and tiles are written in 18xx.games' tile notation; only its facts are read
here (nodes with revenue and slots, paths, labels). The file's coordinates put the letter on
the column; tresham's put it on the row, so ``F9`` (column F, row 9) is tresham's ``J6``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tresham.core.board import BoardDef
from tresham.core.rules_protocols import BasicTrackRules, Stop, TrainSpec
from tresham.core.tiles import NodeDef, PathDef, PathEnd, TileDef
from tresham.core.track import MapState

#: A train with no stop limit (1889's D).
UNLIMITED = 999
#: Phases in which offboards pay their later ("brown") value.
LATE_PHASES = ("5", "6", "D")


@dataclass
class Position:
    """One position: the map as laid, the company to score, its trains and rules, and the
    expected best revenue."""

    id: str
    state: MapState
    company: str
    trains: list[TrainSpec]
    rules: PlainRules
    expected: int


class PlainRules(BasicTrackRules):
    """1830-style route rules (FORMAT.md §0): every stop counts against an n-train; a D
    train is unlimited and takes offboards' diesel value; other trains take the yellow value
    until phase 5, the brown value from it."""

    def stop_revenue(self, train: TrainSpec, stop: Stop) -> int:
        values = dict(stop.info.revenue_by_phase)
        if not values:
            return stop.info.revenue
        if train.kind == "D":
            return values["diesel"]
        return values["brown"] if self.phase in LATE_PHASES else values["yellow"]


def tile_from_notation(tile_id: str, color: str, text: str) -> TileDef:
    """A tile from 18xx.games' notation (the parts the positions use: ``city``, ``town``,
    ``offboard`` with revenue and slots, ``path`` between edges and nodes, ``label``)."""
    nodes: list[NodeDef] = []
    paths: list[PathDef] = []
    labels: list[str] = []
    for part in filter(None, text.split(";")):
        kind, _, rest = part.partition("=")
        fields = dict(x.split(":", 1) for x in rest.split(",") if ":" in x)
        if kind in ("city", "town", "offboard"):
            revenue = fields.get("revenue", "0")
            by_phase: tuple[tuple[str, int], ...] = ()
            if "|" in revenue:
                values = dict(v.split("_") for v in revenue.split("|"))
                by_phase = tuple((k, int(v)) for k, v in values.items())
                revenue = values["yellow"]
            slots = int(fields.get("slots", 1)) if kind == "city" else 0
            nodes.append(NodeDef(kind, int(revenue), slots, by_phase))
        elif kind == "path":
            paths.append(PathDef(_end(fields["a"]), _end(fields["b"])))
        elif kind == "label":
            labels.append(rest)
    return TileDef(tile_id, color, tuple(nodes), tuple(paths), tuple(labels))


def _end(text: str) -> PathEnd:
    return PathEnd(False, int(text[1:])) if text.startswith("_") else PathEnd(True, int(text))


def from_column_letter(coord: str) -> str:
    """A coordinate whose letter is the column (``F9``) in tresham's form (``J6``)."""
    return f"{chr(ord('A') + int(coord[1:]))}{ord(coord[0]) - ord('A') + 1}"


def load_positions(path: Path) -> list[Position]:
    """Every position of a positions file, each on its own map."""
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    hexes = {}
    for coord, text in data["base_map"]["hexes"].items():
        color = "red" if "offboard" in text else ("yellow" if "path" in text else "white")
        tile = tile_from_notation(from_column_letter(coord), color, text)
        hexes[tile.id] = {"color": color, **tile.to_dict()}
    board = BoardDef.from_dict({"layout": "flat", "title": "positions", "hexes": hexes})
    catalogue = {
        k: tile_from_notation(k, "green", v) for k, v in data["tile_defs"]["tiles"].items()
    }
    out = []
    for pos in data["positions"]:
        state = MapState(board, catalogue, {k: 99 for k in catalogue})  # counts not checked
        for t in pos["tiles"]:
            coord = from_column_letter(t["hex"])
            state.lay_tile(coord, t["tile"], t["rotation"], check=False)
            if state.exits(coord) != set(t["exits"]):
                raise ValueError(f"{pos['id']}: tile {t['tile']} at {t['hex']} has other exits")
        for corp, coords in pos["tokens"].items():
            for coord in coords:
                state.place_token(corp, from_column_letter(coord), 0)
        trains = [
            TrainSpec(f"{k}-{i}", k, UNLIMITED if k == "D" else int(k))
            for i, k in enumerate(pos["trains"])
        ]
        out.append(
            Position(
                str(pos["id"]),
                state,
                str(pos["company"]),
                trains,
                PlainRules(phase=str(pos["phase"])),
                int(pos["expected_revenue"]),
            )
        )
    return out
