"""What a title adds to the tables' displays: its own facts as tables players read beside the
common ones (who holds which of 1883's concessions, 1854's mail contracts), and its own tokens
on the map (1883's port and bus tokens). Words only, made by the title, shown as they are by
the browser table and the terminal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FactTable:
    """One table: `key` names it for the page, `title` heads it, `rows` hold one line of
    words per thing (each as long as `head`), `note` says what follows from it."""

    key: str
    title: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.head):
                raise ValueError(
                    f"a row of {self.title} has {len(row)} cells, not {len(self.head)}"
                )

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "head": list(self.head),
            "rows": [list(r) for r in self.rows],
            "note": self.note,
        }


@dataclass(frozen=True)
class MapMarker:
    """A title's own token on the map: `kind` says what it is ("port", "bus"), `owner` whose
    it is (a corporation, for its colour), `text` what it means in words."""

    hex: str
    kind: str
    owner: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"hex": self.hex, "kind": self.kind, "owner": self.owner, "text": self.text}
