"""Reading an 18xx.games game export (``shared/reference/18xx-games/FORMAT.md``).

The export holds the site's whole action log, undos included. :func:`effective_actions`
replays the log's own bookkeeping: ``undo`` drops the last surviving action (or, with an
``action_id``, every action after that id), ``redo`` restores the last undone batch, any other
action clears what could be redone; chat and standing orders (``program_*``) change nothing and
are left out; an action's embedded ``auto_actions`` follow it, as part of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


class ImportFailure(Exception):
    """An export that cannot be imported. ``str()`` is one line naming the action id, its type
    and the rule or field at fault (where there is an action)."""

    def __init__(
        self, reason: str, action_id: int | None = None, action_type: str | None = None
    ) -> None:
        self.reason = reason
        self.action_id = action_id
        self.action_type = action_type
        where = f"action {action_id} ({action_type}): " if action_id is not None else ""
        super().__init__(f"{where}{reason}")


NO_STATE_CHANGE = ("message",)
PROGRAM_PREFIX = "program_"


@dataclass(frozen=True)
class SitePlayer:
    """A seat: the site's player id and name."""

    id: int
    name: str


@dataclass
class SiteExport:
    """The parts of an export the importer uses."""

    game_id: int | str
    title: str
    players: list[SitePlayer]
    seed: int
    optional_rules: list[str]
    actions: list[dict[str, Any]]
    result: dict[str, int] = field(default_factory=dict)
    status: str = ""
    game_end_reason: str | None = None


def read_export(data: object) -> SiteExport:
    """Check the export's shape and pull out what the import needs."""
    if not isinstance(data, dict):
        raise ImportFailure("not an 18xx.games export: the file is not a JSON object")
    missing = [k for k in ("title", "players", "actions") if k not in data]
    if missing:
        raise ImportFailure(f"not an 18xx.games export: no {', '.join(missing)} field")
    players = data["players"]
    if not isinstance(players, list) or not all(
        isinstance(p, dict) and "id" in p and "name" in p for p in players
    ):
        raise ImportFailure("field players: expected a list of {id, name}")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(
        isinstance(a, dict) and "type" in a for a in actions
    ):
        raise ImportFailure("field actions: expected a list of actions with a type")
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise ImportFailure("field settings: expected an object")
    game_id = data.get("id", "")
    return SiteExport(
        game_id=game_id,
        title=str(data["title"]),
        players=[SitePlayer(int(p["id"]), str(p["name"])) for p in players],
        seed=site_seed(settings.get("seed"), game_id),
        optional_rules=[str(r) for r in settings.get("optional_rules") or []],
        actions=actions,
        result={str(k): int(v) for k, v in (data.get("result") or {}).items()},
        status=str(data.get("status", "")),
        game_end_reason=data.get("game_end_reason"),
    )


def site_seed(seed: object, game_id: object) -> int:
    """``settings.seed``; when missing or empty, the first run of digits in the game id."""
    if seed not in (None, ""):
        try:
            return int(str(seed))
        except ValueError:
            raise ImportFailure(f"field settings.seed: {seed!r} is not a number") from None
    digits = re.search(r"\d+", str(game_id))
    if digits is None:
        raise ImportFailure("field settings.seed: missing, and the game id has no digits")
    return int(digits.group())


def effective_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions that count, in order, each followed by its ``auto_actions``."""
    kept: list[dict[str, Any]] = []
    redo: list[list[dict[str, Any]]] = []
    for action in actions:
        kind = action["type"]
        if kind in NO_STATE_CHANGE or kind.startswith(PROGRAM_PREFIX):
            continue
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                batch = kept[-1:]
                del kept[-1:]
            else:
                cut = next((i for i, a in enumerate(kept) if a["id"] > int(target)), len(kept))
                batch = kept[cut:]
                del kept[cut:]
            redo.append(batch)
            continue
        if kind == "redo":
            if not redo:
                raise ImportFailure("nothing to redo", action.get("id"), kind)
            kept.extend(redo.pop())
            continue
        redo.clear()
        kept.append(action)
    out: list[dict[str, Any]] = []
    for action in kept:
        out.append(action)
        for auto in action.get("auto_actions") or []:
            out.append({"id": action.get("id"), **auto})
    return out
