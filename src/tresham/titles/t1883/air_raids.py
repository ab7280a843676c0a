"""1883's Air Raids (§11.2 #13): ten bombed hexes, each tile downgraded one colour.

- A hex without a laid tile is not affected; a yellow tile is removed (the hex shows its
  printed content again); a green tile becomes yellow, a brown one green. The same hex may be
  hit again: the effects add up. Tokens stay where they are, beyond the city's spaces if
  need be (they co-exist and stay active).
- The player who rolled chooses the lower tile (ruling R24): any tile of the previous colour
  in the supply whose upgrade chart lists the bombed tile and that the bombed tile's track
  keeps at some rotation (a legal lay backwards); with a single choice it is taken at once,
  with none the hex is not affected. Grey tiles are not downgraded (the card names yellow,
  green and brown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action, Choose
from tresham.core.prompts import Prompt
from tresham.titles.t1883.facts import DATA
from tresham.titles.t1883.state import Bomb, state_of

if TYPE_CHECKING:
    from tresham.core.game import Game

RULE = "1883 §11.2 #13"
PROMPT = "air_raid"
PRINTED = "printed"
LOWER = {"green": "yellow", "brown": "green"}


def _raids(game: Game) -> list[Bomb]:
    """The bombs still to fall (the list is made at the first raid)."""
    ev = state_of(game).events
    if ev.raids is None:
        ev.raids = []
    return ev.raids


def choices(game: Game, coord: str) -> list[str]:
    """The downgrades of the tile on `coord`: "tile@rotation", or "printed" to remove it."""
    m = game.state.map
    laid = m.tiles.get(coord)
    if laid is None:
        return []
    current, rotation = laid
    color = m.catalogue[current].color
    if color == "yellow":
        return [PRINTED]
    lower = LOWER.get(color)
    if lower is None:
        return []
    out = []
    if m.board.hexes[coord].tile.color == lower:
        out.append(PRINTED)
    upgrades: dict[str, list[str]] = DATA["tile_upgrades"]
    for tile_id, count in sorted(m.supply.items()):
        tile = m.catalogue[tile_id]
        if count <= 0 or tile.color != lower or current not in upgrades.get(tile_id, []):
            continue
        for rot in tile.unique_rotations():
            trial = m.copy()
            trial.tiles[coord] = (tile_id, rot)
            trial.supply[current] = trial.supply.get(current, 0) + 1
            err, _ = trial.lay_problem(coord, current, rotation)
            if err is None:
                out.append(f"{tile_id}@{rot}")
    return out


def apply(game: Game, coord: str, choice: str) -> None:
    """Downgrade `coord` as `choice` says."""
    m = game.state.map
    before = m.tiles[coord][0]
    if choice == PRINTED:
        m.downgrade(coord, None)
        game.log(f"{m.board.place(coord)}: tile {before} is destroyed")
        return
    tile_id, rot = choice.split("@")
    m.downgrade(coord, (tile_id, int(rot)))
    game.log(f"{m.board.place(coord)}: tile {before} is bombed down to {tile_id}")


def queue(game: Game, roller: str, coord: str) -> None:
    """A bomb falls on `coord`, rolled by `roller`; bombs fall in the order rolled."""
    _raids(game).append(Bomb(roller, coord))


def settle(game: Game) -> None:
    """Drop the queued bombs in order until one needs its roller's choice."""
    raids = _raids(game)
    while raids:
        roller, coord = raids[0].roller, raids[0].coord
        options = choices(game, coord)
        if len(options) > 1:
            game.state.pending.insert(0, (PROMPT, roller))
            return
        raids.pop(0)
        if options:
            apply(game, coord, options[0])
        else:
            game.log(f"{game.state.map.board.place(coord)}: no effect")


class AirRaid(Prompt):
    """The roller's choice for the first queued bomb; then the following bombs."""

    kind = PROMPT
    rule = PROMPT

    def actions(self, game: Game, entity: str) -> list[Action]:
        coord = _raids(game)[0].coord
        return [Choose(entity, c) for c in choices(game, coord)]

    def process(self, game: Game, entity: str, action: Action) -> None:
        assert isinstance(action, Choose)
        coord = _raids(game).pop(0).coord
        apply(game, coord, action.choice)
        settle(game)

    def why(self, game: Game, entity: str) -> str:
        """§11.2 #13 (ruling R24): the roller chooses the tile the bombed hex goes back to."""
        raids = _raids(game)
        if not raids:
            return ""
        where = game.state.map.board.place(raids[0].coord)
        return (
            f"{entity} rolled an Air Raid on {where}: {entity} chooses the tile it goes back "
            "to, one colour lower (§11.2 #13)"
        )

    def words(self, game: Game, entity: str, action: Action, words: Any) -> str | None:
        """§11.2 #13: the tile a bombed hex goes back to (ruling R24)."""
        if not isinstance(action, Choose):
            return None
        raids = state_of(game).events.raids or []
        where = words.place(raids[0].coord) if raids else "the bombed hex"
        if action.choice == PRINTED:
            return f"Remove the tile from {where} (its printed track again)"
        tile, _, rotation = action.choice.partition("@")
        return f"Put tile {tile} on {where} (rotation {rotation})"


#: The air raids' prompt, registered by the title (``Title.prompts``).
PROMPTS: tuple[Prompt, ...] = (AirRaid(),)
