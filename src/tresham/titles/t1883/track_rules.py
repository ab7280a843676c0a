"""1883's track and route hooks (1883 §6.4, §6.8).

- Tile colours by phase: yellow from phase 2, green from 3, brown from 5, grey from 7 (6.4).
- A tile upgrades only to the tiles the upgrade chart lists for it (Appendix 4); the
  special cities take only their own tiles (6.4.3), through their labels.
- Terrain (hills, mountains, rivers) is paid only for the first tile laid on a hex (6.4.1).
- Trains count stops: a train visits at most its number of stations and off-board
  locations, all of which pay (6.8.1-6.8.2); off-boards pay their low, middle or high value
  by phase (6.8.5, on the board as values by phase).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tresham.core.errors import TrackError
from tresham.core.rules_protocols import BasicTrackRules, LayContext

RULE_UPGRADE = "1883 Appendix 4 (upgrade chart)"


class TrackRules1883(BasicTrackRules):
    """The hooks for one moment of a game: the phase and its tile colours, and the
    upgrade chart."""

    def __init__(
        self, *, phase: str, colors: Iterable[str], upgrades: Mapping[str, list[str]]
    ) -> None:
        super().__init__(frozenset(colors), phase)
        self.upgrades = upgrades

    def check_lay(self, ctx: LayContext) -> TrackError | None:
        """Appendix 4: a laid tile upgrades only to the tiles its row of the chart lists."""
        laid = ctx.state.tiles.get(ctx.coord)
        if laid is None:
            return None
        allowed = self.upgrades.get(laid[0], [])
        if ctx.new_tile.id not in allowed:
            return TrackError(
                f"tile {laid[0]} upgrades only to {', '.join(allowed) or 'nothing'}, "
                f"not {ctx.new_tile.id}",
                RULE_UPGRADE,
            )
        return None

    def lay_cost(self, ctx: LayContext) -> int:
        """6.4.1: the terrain cost is paid for the first tile laid on a hex only."""
        return 0 if ctx.coord in ctx.state.tiles else ctx.terrain_cost
