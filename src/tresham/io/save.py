"""The save format: a versioned JSON action log.

`{"format": "tresham-save", "version": 1, "title", "rules_version", "options", "seed", "players",
"actions"}`. Loading replays the log through `Game.apply`, so every action is validated again.
`rules_version` is the title's rules version the log was played under: it is replayed under
that version when the title still plays it (`Title.older_rules`), else refused with a clear
error instead of being replayed to a different game (saves written before the field existed
are replayed under the current version).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tresham.core.actions import action_from_json
from tresham.core.errors import MalformedActionError, quote
from tresham.core.game import Game
from tresham.titles.registry import get_title

FORMAT = "tresham-save"
VERSION = 1


def new_game(
    title: str,
    players: list[str],
    seed: int = 0,
    options: dict[str, Any] | None = None,
    rules_version: int | None = None,
) -> Game:
    """Start a game of `title` (under its current rules unless `rules_version` is given)."""
    return Game(get_title(title), players, seed, options, rules_version)


def to_save(game: Game) -> dict[str, Any]:
    """The save-file dictionary of a game."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "title": game.title.name,
        "rules_version": game.rules_version,
        "options": game.options,
        "seed": game.seed,
        "players": game.player_names,
        "actions": [a.to_json() for a in game.actions],
    }


def from_save(data: Any, upto: int | None = None) -> Game:
    """Rebuild a game from a save dictionary by replaying its actions (the first `upto` of
    them, if given)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MalformedActionError("not a tresham save file", "save format")
    if data.get("version") != VERSION:
        raise MalformedActionError(
            f"unsupported save version {data.get('version')!r}", "save format"
        )
    for key in ("title", "players", "seed", "actions"):
        if key not in data:
            raise MalformedActionError(f"the save has no {key!r}", "save format")
    title = get_title(data["title"])
    made_under = data.get("rules_version", title.rules_version)
    if made_under != title.rules_version and made_under not in title.older_rules:
        raise MalformedActionError(
            f"this {data['title']} save was played under rules version {quote(made_under)}; "
            f"this tresham plays version {title.rules_version}",
            "save format",
        )
    actions = data["actions"]
    if not isinstance(actions, list):
        raise MalformedActionError("the save's actions are a list", "save format")
    game = new_game(data["title"], data["players"], data["seed"], data.get("options"), made_under)
    if upto is not None:
        if not 0 <= upto <= len(actions):
            raise MalformedActionError(
                f"the save has {len(actions)} actions, not {upto}", "save format"
            )
        actions = actions[:upto]
    game.apply_all(action_from_json(raw) for raw in actions)
    return game


def save(game: Game, path: Path) -> None:
    """Write the game's save file (atomically: write then rename)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(to_save(game), indent=1))
    tmp.replace(path)


def load(path: Path, upto: int | None = None) -> Game:
    """Read and replay a save file (its first `upto` actions, if given)."""
    return from_save(json.loads(path.read_text()), upto)
