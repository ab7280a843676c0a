"""Reading an 18xx.games game export (``shared/reference/18xx-games/FORMAT.md``).

The export holds the site's whole action log, undos included. :func:`effective_log` filters it
exactly as the site does (``STATES.md``, "Which actions have a line"): ``undo`` drops the last
kept action that is not a chat message (a standing order, ``program_*``, counts), or with an
``action_id`` every kept non-message action after that id; ``redo`` restores the batch the last
``undo`` dropped; any other action but a message empties what could be redone; messages are
never dropped. :func:`effective_actions` flattens the kept actions, each followed by its
recorded ``auto_actions`` (which name their own entity and carry their action's id). Chat, log
lines and standing orders (``program_*``, ``program_disable`` among the auto actions) change
nothing in the game; the auto actions a standing order carries do.
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


#: Site action types that change nothing in the game (besides every ``program_*`` type).
NO_STATE_CHANGE = ("message", "log")
PROGRAM_PREFIX = "program_"
#: The one type an ``undo`` never drops and that never empties what could be redone.
CHAT = "message"


def changes_nothing(kind: str) -> bool:
    """Whether a site action of this type leaves the game as it was (chat, a log line, a
    standing order being set or disabled; the auto actions it carries are another matter)."""
    return kind in NO_STATE_CHANGE or str(kind).startswith(PROGRAM_PREFIX)


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


def effective_log(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions the site keeps, in order, as ``Engine::Game::Base.filtered_actions`` keeps
    them: no ``undo``/``redo``, nothing undone; chat messages and standing orders included
    (each has a line in a states file)."""
    slots: list[dict[str, Any] | None] = []
    position: dict[Any, int] = {}
    undone: list[list[tuple[int, dict[str, Any]]]] = []
    for index, action in enumerate(actions):
        kind = action["type"]
        if "id" in action:
            position.setdefault(action["id"], index)
        if kind == "undo":
            target = _action_id(action)
            if target is None:
                start = next((i for i in range(len(slots) - 1, -1, -1) if _undoable(slots[i])), 0)
            elif target == 0:
                start = 0
            elif target in position:
                start = position[target] + 1
            else:
                raise ImportFailure(
                    f"undo to action {target}: no such action", action.get("id"), kind
                )
            batch = [(i, a) for i in range(start, len(slots)) if (a := slots[i]) and _undoable(a)]
            for i, _ in batch:
                slots[i] = None
            undone.append(batch)
            slots.append(None)
            continue
        if kind == "redo":
            if not undone:
                raise ImportFailure("nothing to redo", action.get("id"), kind)
            for i, kept in undone.pop():
                slots[i] = kept
            slots.append(None)
            continue
        if kind != CHAT:
            undone.clear()
        slots.append(action)
    return [a for a in slots if a is not None]


def _action_id(undo: dict[str, Any]) -> int | None:
    """An ``undo``'s target id (None: the last action)."""
    target = undo.get("action_id")
    if target is None:
        return None
    try:
        return int(target)
    except (TypeError, ValueError):
        raise ImportFailure(
            f"field action_id: {target!r} is not an action id", undo.get("id"), "undo"
        ) from None


def _undoable(action: dict[str, Any] | None) -> bool:
    return action is not None and action["type"] != CHAT


def effective_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The kept actions (:func:`effective_log`), each followed by its ``auto_actions``; an
    auto action carries the id of the action that recorded it."""
    out: list[dict[str, Any]] = []
    for action in effective_log(actions):
        out.append(action)
        for auto in action.get("auto_actions") or []:
            out.append({**auto, "id": action.get("id")})
    return out
