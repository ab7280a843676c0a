"""1854 §5.3, §5.4: small, medium-sized and double small cities, and what their tiles may
become (rulings C1-C5 in ``docs/rulings/1854.md``).

- "On small cities (small black dots) the stations placed are those with the broad crossbar
  [numbers 3, 4 and 58]. They may not be upgraded in the later course of the game."
- "On medium-sized cities (small black dot surrounded by a circle) the first stations ...
  are those with the broad crossbar, just as for the small cities. However, from Phase 5
  onwards these tiles may be upgraded. The tile with the broad crossbar is replaced by the
  corresponding one with the large city. (This promotion can still be made if there is a
  tunnel in the hex.) Subsequent promotion to a green tile is permitted. Brown tiles may not
  be placed on medium-sized cities."
- "Green tiles with two cities serve as upgrades for the double small cities. They must be
  placed so that both of the original stretches of track are preserved. ... These tiles do
  not upgrade any further."

Which tile may replace which is the board's promotion chart (``board_original.json``:
``promotions``, read by the core's ``MapState.lay_problem``): crossbar 3, 4, 58 → large city
5, 57, 6; double towns 1, 2, 55, 56, 69 → 457-464; Sankt Pölten's printed yellow → 442, 444.
This module adds where and when: the crossbar promotion only on a medium-sized city and only
from Phase 5, nothing brown on a medium-sized city. The revised board (rules versions 1-3)
has no medium-sized cities and no chart, so nothing here applies to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from tresham.core.errors import TrackError
from tresham.titles.t1854.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.core.tiles import TileDef

RULE: Final = "1854 §5.3"
#: §5.10 Phase 5: "Medium-sized cities may be upgraded."
PROMOTION_PHASE: Final = "5"
#: §5.4: "Green tiles with two cities serve as upgrades for the double small cities".
DOUBLE_CITY_TILES: Final = frozenset(str(n) for n in range(457, 465))
#: §5.3: "Brown tiles may not be placed on medium-sized cities" (nor, later, grey ones).
NOT_ON_MEDIUM: Final = frozenset({"brown", "gray"})


def medium_cities(game: Game) -> frozenset[str]:
    """The board's medium-sized cities (none on the revised board)."""
    return frozenset(game.state.map.board.extra.get("medium_cities", ()))


def promotes_town(old: TileDef, new: TileDef) -> bool:
    """Whether the lay turns small cities (towns) into large ones (cities)."""
    return old.town_count > 0 and new.town_count < old.town_count and new.city_count > 0


def lay_problem(
    coord: str, old: TileDef, new: TileDef, medium: frozenset[str], promoting: bool
) -> TrackError | None:
    """Why the chart's promotion of `old` to `new` on `coord` is not allowed now (None: it
    is, or it is no such promotion); and why a green two-city tile may not go on anything
    but a double small city (Sankt Pölten's two cities, for one, take 442 or 444). `medium`:
    the medium-sized cities; `promoting`: Phase 5 has begun."""
    if coord in medium and new.color in NOT_ON_MEDIUM:
        return TrackError(f"no {new.color} tile on the medium-sized city {coord}", RULE)
    if new.id in DOUBLE_CITY_TILES and old.town_count != 2:
        return TrackError(f"tile {new.id} goes only on a double small city", "1854 §5.4")
    if not promotes_town(old, new) or old.town_count != 1:
        return None
    if coord not in medium:
        return TrackError(f"the small city on {coord} is never upgraded", RULE)
    if not promoting:
        return TrackError(
            f"the medium-sized city {coord} is promoted from Phase 5 onwards", "1854 §5.10"
        )
    return None


def count(game: Game, coord: str, tile_id: str) -> None:
    """Before `tile_id` goes on `coord`: count a medium-sized city's promotion to a large
    city (``medium_promotions``) or a double small city's upgrade to the two cities of
    457-464 (``double_city_upgrades``) for the simulation's tallies."""
    old = game.state.map.tile(coord)
    new = game.state.map.catalogue[tile_id]
    if not promotes_town(old, new):
        return
    if coord in medium_cities(game) and old.town_count == 1:
        state_of(game).tallies.medium_promotions += 1
    elif old.town_count == 2 and new.city_count == 2:
        state_of(game).tallies.double_city_upgrades += 1
