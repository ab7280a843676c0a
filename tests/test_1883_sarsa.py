"""1883's SARSA bus corporation (§8.3): bus token placement and group revenue."""

from __future__ import annotations

from test_1883_operating import floated, turn_at
from tresham.core.actions import Pass
from tresham.titles.t1883 import sarsa
from tresham.titles.t1883.actions import PlaceBus
from tresham.titles.t1883.operating import STEP_OBJECTS
from tresham.titles.t1883.state import state_of


# 1883 §8.3.1: in its first turn SARSA places as many tokens as the train class on sale (2T:
# two), the first two on its homes, paying the terrain cost of each
def test_first_turn_homes() -> None:
    g = floated("SARSA", (2, 8))
    s = g.state
    s.corps["SARSA"].cash = 200
    rnd = turn_at(g, "SARSA", "bus")
    step = STEP_OBJECTS["bus"]
    cash = s.corps["SARSA"].cash
    assert step.actions(g, rnd, "SARSA") == [PlaceBus("SARSA", "P2")]  # compulsory
    assert not step.process(g, rnd, "SARSA", PlaceBus("SARSA", "P2"))
    assert step.actions(g, rnd, "SARSA") == [PlaceBus("SARSA", "S9")]
    assert step.process(g, rnd, "SARSA", PlaceBus("SARSA", "S9"))
    assert sarsa.tokens(g) == {"P2": 0, "S9": 1}
    assert s.corps["SARSA"].cash == cash - 40 - 20
    assert rnd.turn.revenue == 20  # two groups of one city each: the better one counts


# 1883 §8.3.1: later turns place two tokens, one next to each group (hills and mountains
# only before the first 5T), or pass
def test_later_turn_alternates_groups() -> None:
    g = floated("SARSA", (2, 8))
    g.state.corps["SARSA"].cash = 200
    state_of(g).bus_tokens.update({"P2": 0, "S9": 1})
    rnd = turn_at(g, "SARSA", "bus")
    step = STEP_OBJECTS["bus"]
    first = step.actions(g, rnd, "SARSA")
    assert Pass("SARSA") in first
    hexes = {a.hex for a in first if isinstance(a, PlaceBus)}
    assert "O3" in hexes and "T8" in hexes  # next to Castelnovo and next to Sasso
    assert "Q1" not in hexes  # an off-board never takes a token
    step.process(g, rnd, "SARSA", PlaceBus("SARSA", "O3"))
    second = {a.hex for a in step.actions(g, rnd, "SARSA") if isinstance(a, PlaceBus)}
    assert second and all(h in {"T8", "R8", "Q9", "R10", "U9"} for h in second)


# 1883 §8.3.2 EXAMPLES: with two groups only the better counts (two cities: L.40); in one
# group three cities count L.60
def test_group_revenue() -> None:
    g = floated("SARSA", (2, 8))
    tokens = state_of(g).bus_tokens
    tokens.update({"P2": 0, "O3": 0, "S9": 1, "R10": 1})
    assert sarsa.revenue(g) == 40  # Sasso 20 + Casalecchio 20 beats Castelnovo 20 + town 10
    tokens.clear()
    tokens.update({"S9": 1, "T8": 1, "S7": 1, "R10": 1})
    assert sarsa.revenue(g) == 60


# 1883 §8.3.1: never north of the FS Parma-Bologna line; on it is allowed
def test_north_of_the_fs_line() -> None:
    g = floated("SARSA", (2, 8))
    assert sarsa.north_of_fs(g, "B4")  # Suzzara, by the Po
    assert not sarsa.north_of_fs(g, "L6")  # Modena, on the line
    assert not sarsa.north_of_fs(g, "P2")


# 1883 §10.0: the game ends at once when SARSA reaches the table's maximum value
def test_sarsa_at_the_maximum_ends_the_game() -> None:
    g = floated("SARSA", (0, 19))
    top = g.state.market.market.cells_with("sarsa_max")[0]
    assert top.pos == (0, 20)
    g.title.move_price(g, "SARSA", "right")  # type: ignore[attr-defined]
    assert g.state.finished and g.state.end_reason == "stock_market"
