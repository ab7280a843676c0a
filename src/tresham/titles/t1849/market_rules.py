"""1849's stock market: the grid and the blue-zone movement policy.

Rule modelled (1849 summary, SR Share price: "Tokens reach the blue zone only from the first
16H"; the grid and the exact moves as 18xx.games plays them, rule details §4):

- Before phase 16H no right or up move may enter a `blue` cell (the only ways in: the zone
  lies at the right end of the top three rows). A right move whose target is blue
  becomes an up move instead (218 → 240, 240 → 276); if that up move would also enter blue,
  or cannot be made, the token stays (276 stays). An up move into blue is blocked: an up
  move from 230 stays, and so does a right move from 230 (the end of its row, where right
  turns into up). Left and down moves are never altered (they enter blue only from 377,
  which cannot be reached before 16H).
- From phase 16H there are no blocks: 218 → 242, 240 → 266, 276 → 306, right from 230
  → 242.

Everything else is the standard grid movement (`tresham.core.market.StandardMovement`):
right at the end of a row moves up a row, left at column 0 moves down a row, a down move into
a missing cell and an up move on row 0 do nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from tresham.core.market import (
    STANDARD_MOVEMENT,
    Market,
    MarketState,
    Position,
)

BLUE = "blue"
"""The zone tag of the blue cells in `data/market.json`."""

BLUE_ZONE_PHASE = "16H"
"""The phase from which tokens may enter the blue zone."""


@cache
def load_market() -> Market:
    """The 1849 stock market grid (`data/market.json`), loaded once (it is immutable)."""
    return Market.load("tresham.titles.t1849", "data/market.json")


@dataclass(slots=True)
class Movement1849:
    """The 1849 movement policy. `blue_open` is True from phase 16H; the game sets it from
    the phases reached (it is part of the market state and copied with it)."""

    blue_open: bool = False

    def step(self, market: Market, pos: Position, direction: str) -> Position:
        target = STANDARD_MOVEMENT.step(market, pos, direction)
        if self.blue_open or direction not in _GUARDED or not _enters_blue(market, pos, target):
            return target
        if direction == "right":
            # 1849 summary, SR Share price: a right move that would enter the blue zone
            # goes up instead, if that does not enter it too.
            up = STANDARD_MOVEMENT.step(market, pos, "up")
            if not _enters_blue(market, pos, up):
                return up
        return pos

    def __copy__(self) -> Movement1849:
        return Movement1849(self.blue_open)

    def __deepcopy__(self, memo: dict[int, Any]) -> Movement1849:
        return Movement1849(self.blue_open)


_GUARDED = frozenset({"right", "up"})
"""The moves that can carry a token into the blue zone from outside it (it lies at the right
end of the top three rows, so it is entered from the left or from below)."""


def _enters_blue(market: Market, start: Position, target: Position) -> bool:
    return BLUE in market.tags(target) and BLUE not in market.tags(start)


def rules_for_phase(phase: str) -> Movement1849:
    """A movement policy for `phase` (a phase name such as "4H" or "16H")."""
    return Movement1849(blue_open=phase == BLUE_ZONE_PHASE)


def new_market_state(phase: str = "4H") -> MarketState:
    """An empty 1849 market state with the policy of `phase`."""
    return MarketState(load_market(), rules_for_phase(phase))
