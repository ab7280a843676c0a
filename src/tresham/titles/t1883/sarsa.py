"""SARSA, 1883's bus corporation (1883 §8.3): bus tokens instead of track, stations and
trains, and revenue from the best group of adjacent tokens.

- First turn: as many tokens as the number of the train class the bank sells now; the first
  two on the homes (Castelnovo ne' Monti and Sasso), the others next to a group, alternating
  between the two groups (8.3.1).
- Later turns: two tokens, one next to each group, or in any order once the groups meet;
  from the first 5T a token may go on the plains, and a turn with a plains token places only
  that one. Before the first 5T only hills and mountains take tokens.
- Never north of the FS Parma-Bologna line (on it is allowed), never on an off-board; the
  terrain cost is paid for every token, tile or no tile.
- Revenue (8.3.2): the highest-valued group of adjacent tokens; a hex is worth its city's or
  town's value (a city with no tile 20 or its printed value, a town 10, two cities on one hex
  counted once at the higher value), other hexes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.core.actions import Action, Pass
from tresham.core.errors import RuleError
from tresham.core.rounds.operating import OperatingRound, Step
from tresham.titles.t1883.actions import PlaceBus
from tresham.titles.t1883.facts import BOARD, GRAVITY_KINDS
from tresham.titles.t1883.state import state_of, turn_of
from tresham.titles.t1883.track_rules import north_of_fs as track_north_of_fs

if TYPE_CHECKING:
    from tresham.core.game import Game

RULE = "1883 §8.3"
CITY_WITHOUT_TILE = 20
TOWN_WITHOUT_TILE = 10


def tokens(game: Game) -> dict[str, int]:
    """Hexes holding a bus token -> the group (the home it grew from: 0 or 1)."""
    return state_of(game).bus_tokens


def homes(game: Game, corp: str) -> list[str]:
    """The two home hexes (8.3.1)."""
    return [h for h, _node in BOARD.home_cities[corp]]


def north_of_fs(game: Game, coord: str) -> bool:
    """Whether a hex lies north of the FS Parma-Bologna line (see ``track_rules``)."""
    return track_north_of_fs(game.state.map.board, coord)


def _neighbours(game: Game, coord: str) -> list[str]:
    board = game.state.map.board
    return [n for e in range(6) if (n := board.neighbor(coord, e)) is not None]


def _plains(game: Game, coord: str) -> bool:
    extra = game.state.map.board.extra
    return coord not in extra["hills"] and coord not in extra["mountains"]


def _groups_joined(game: Game) -> bool:
    placed = tokens(game)
    return any(
        n in placed and placed[n] != g for h, g in placed.items() for n in _neighbours(game, h)
    )


def _first_turn_count(game: Game) -> int:
    """8.3.1: the number of the train class the bank sells now (a 3bis counts 3)."""
    s = game.state
    gravity = GRAVITY_KINDS
    offered = [t for t in s.depot.in_bank() if t.kind not in gravity]
    return s.depot.types[offered[0].kind].distance if offered else 2


def options(game: Game, rnd: OperatingRound, corp: str) -> list[PlaceBus]:
    """Where the next bus token may go this turn."""
    s = game.state
    placed = tokens(game)
    home = homes(game, corp)
    turn = turn_of(rnd)
    done = turn.buses
    first = not placed if turn.first_bus_turn is None else turn.first_bus_turn
    if first:
        allowed = _first_turn_count(game)
    elif any(_plains(game, h) for h in done):
        allowed = 1  # a plains token is the turn's only one
    else:
        allowed = 2
    if len(done) >= allowed:
        return []
    missing = [h for h in home if h not in placed]
    if missing:
        candidates = missing[:1]
    else:
        grown = [h for h in done if h not in home]
        groups = {1 - placed[grown[-1]]} if grown and not _groups_joined(game) else {0, 1}
        candidates = sorted(
            {n for h, g in placed.items() if g in groups for n in _neighbours(game, h)}
            - set(placed)
        )
    plains_ok = "5" in s.phases_reached and not first and not done
    cash = s.corps[corp].cash
    board = s.map.board
    out = []
    for h in candidates:
        hx = board.hexes[h]
        if hx.color == "red" or north_of_fs(game, h) or hx.terrain_cost > cash:
            continue
        if _plains(game, h) and h not in home and not plains_ok:
            continue
        out.append(PlaceBus(corp, h))
    return out


def place(game: Game, rnd: OperatingRound, corp: str, action: PlaceBus) -> None:
    """Place a bus token and pay the hex's terrain cost."""
    s = game.state
    placed = tokens(game)
    turn = turn_of(rnd)
    if turn.first_bus_turn is None:
        turn.first_bus_turn = not placed  # as it was when the turn began
    home = homes(game, corp)
    if action.hex in home:
        group = home.index(action.hex)
    else:
        group = next(placed[n] for n in _neighbours(game, action.hex) if n in placed)
    placed[action.hex] = group
    cost = s.map.board.hexes[action.hex].terrain_cost
    game.transfer(corp, "bank", cost)
    turn.buses.append(action.hex)
    where = game.state.map.board.place(action.hex)
    game.log(f"{corp} places a bus token in {where} for L.{cost}")


def hex_value(game: Game, coord: str) -> int:
    """8.3.2: a hex's value to SARSA."""
    s = game.state
    tile = s.map.tile(coord)
    stops = [n for n in tile.nodes if n.kind in ("city", "town")]
    if not stops:
        return 0
    if coord in s.map.tiles:
        return max(n.revenue for n in stops)
    if any(n.kind == "city" for n in stops):
        return max((n.revenue for n in stops if n.kind == "city"), default=0) or CITY_WITHOUT_TILE
    return TOWN_WITHOUT_TILE


def revenue(game: Game) -> int:
    """8.3.2: the best group of adjacent bus tokens."""
    placed = set(tokens(game))
    best = 0
    seen: set[str] = set()
    for start in placed:
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            h = todo.pop()
            if h in group:
                continue
            group.add(h)
            todo.extend(n for n in _neighbours(game, h) if n in placed and n not in group)
        seen |= group
        best = max(best, sum(hex_value(game, h) for h in group))
    return best


class BusStep(Step):
    """SARSA's turn: place bus tokens, then its revenue is counted (8.3). Railway
    corporations skip it."""

    name = "bus"
    label = "buying a bus"
    rule = RULE

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if game.state.corps[corp].kind != "bus":
            return []
        found = options(game, rnd, corp)
        if not found:
            return []
        # the homes are compulsory in the first turn (8.3.1)
        if any(a.hex in homes(game, corp) for a in found):
            return list(found)
        return [*found, Pass(corp)]

    def validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        if action not in self.actions(game, rnd, corp):
            raise RuleError(f"{action.describe()} is not a legal bus token now", self.rule)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if isinstance(action, PlaceBus):
            place(game, rnd, corp, action)
            if options(game, rnd, corp):
                return False
        self.skip(game, rnd, corp)
        return True

    def skip(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        if game.state.corps[corp].kind == "bus":
            rnd.turn.revenue = revenue(game)
