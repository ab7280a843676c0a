"""Write a tresham game as an 18xx.games export (``shared/reference/18xx-games/FORMAT.md``),
the format 18xx.games players share and the site's engine replays (`tresham export-18xx`).

The game is replayed from its log; before each action the title's writer
(``titles/<title>/site_writer.py``) turns it into the site's actions, reading the position as
it stands (which certificate a sale moves, which copy of a tile is laid, which slot a token
takes), and adds the passes the site waits for where tresham asks nothing. Ids count from 1;
players get the ids 1, 2, … in seat order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from tresham.core.actions import Action
from tresham.core.errors import RuleError
from tresham.core.game import Game
from tresham.titles.registry import get_title, title_module

SiteAction = dict[str, Any]
#: A title writer's mark on a site action the site takes by itself (an auto action): it is
#: written in the ``auto_actions`` of the action before it, as the site records it.
AUTO: Final = "auto"


class ExportFailure(Exception):
    """A game that cannot be written in the site's format (the title, the options, or an
    action the site has no counterpart for); ``str()`` says which."""


@dataclass
class WriteContext:
    """What a title's writer reads and keeps while the log is replayed: the game before the
    action, the site's ids of the players, and the writer's own bookkeeping (``memo``)."""

    game: Game
    ids: dict[str, int]
    memo: dict[str, Any] = field(default_factory=dict)
    #: The whole log being written and the index of the action being written in it (a writer
    #: may look ahead where the site asks before what tresham does later).
    log: Sequence[Action] = ()
    at: int = 0

    def entity(self, name: str) -> tuple[int | str, str]:
        """The site's entity and entity type of a player name or a corporation symbol."""
        if name in self.ids:
            return self.ids[name], "player"
        if name in self.game.state.corps:
            return name, "corporation"
        return name, "company"


class SiteWriter(Protocol):
    """A title's half of the export."""

    def settings(self, game: Game) -> dict[str, Any]:
        """The export's ``settings`` (seed, optional rules); fails for a game the site
        cannot replay (another rule set)."""
        ...

    def before(self, ctx: WriteContext, action: Action) -> list[SiteAction]:
        """The site's actions for one of tresham's, read from the position before it."""
        ...

    def after(self, ctx: WriteContext, action: Action) -> list[SiteAction]:
        """Site actions that follow once the action is applied (passes the site waits for)."""
        ...


def writer_for(title: str) -> SiteWriter:
    """The title's writer; a clear failure for a title without one."""
    module = title_module(title, "site_writer")  # a title's own site_writer module
    if module is None:
        raise ExportFailure(f"no 18xx.games export for {title} yet")
    writer: SiteWriter = module.WRITER
    return writer


def site_actions(game: Game) -> Iterator[SiteAction]:
    """The site's actions of `game`'s log, in order, without ids."""
    writer = writer_for(game.title.name)
    replay = Game(
        get_title(game.title.name), game.player_names, game.seed, game.options, game.rules_version
    )
    ctx = WriteContext(
        replay, {name: i + 1 for i, name in enumerate(game.player_names)}, log=game.actions
    )
    for n, action in enumerate(game.actions):
        ctx.at = n
        try:
            yield from writer.before(ctx, action)
            replay.apply(action)
            yield from writer.after(ctx, action)
        except (RuleError, KeyError, ValueError) as exc:
            raise ExportFailure(f"action {n + 1} ({action.describe()}): {exc}") from None


def export_game(game: Game, game_id: int | str = 0) -> dict[str, Any]:
    """The export of `game` (finished or not)."""
    writer = writer_for(game.title.name)
    players = [{"id": i + 1, "name": name} for i, name in enumerate(game.player_names)]
    actions: list[SiteAction] = []
    for raw in site_actions(game):
        if raw.pop(AUTO, False) and actions:
            actions[-1].setdefault("auto_actions", []).append(raw)
        else:
            actions.append({"id": len(actions) + 1, **raw})
    out: dict[str, Any] = {
        "id": game_id,
        "title": game.title.name,
        "players": players,
        "settings": writer.settings(game),
        "status": "finished" if game.state.finished else "active",
        "actions": actions,
    }
    if game.state.finished:
        ids = {name: str(i + 1) for i, name in enumerate(game.player_names)}
        out["result"] = {ids[n]: v for n, v in game.title.raw_scores(game).items()}
        out["game_end_reason"] = game.state.end_reason
    return out
