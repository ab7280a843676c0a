"""Generic stock market: geometry, movement edge cases, stacking, ordering, copying."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tresham.core.market import (
    STANDARD_MOVEMENT,
    Cell,
    Market,
    MarketState,
    Position,
)

# A small grid with rows of different lengths and a hole:
#
#   row 0:  10  20  30  40
#   row 1:  12  22  --  42  52
#   row 2:  14  24
#   row 3:   0
GRID: dict[str, Any] = {
    "geometry": "grid",
    "rows": [
        [
            {"price": 10},
            {"price": 20, "tags": ["par", "par:a"]},
            {"price": 30, "tags": ["par", "par:b"]},
            {"price": 40, "tags": ["endgame"]},
        ],
        [{"price": 12}, {"price": 22}, None, {"price": 42}, {"price": 52}],
        [{"price": 14, "tags": ["par", "par:a"]}, {"price": 24}],
        [{"price": 0, "tags": ["close"]}],
    ],
}

# A small hex market: each row half a cell right of the row below.
HEX: dict[str, Any] = {
    "geometry": "hex",
    "rows": [
        [{"price": 50}, {"price": 60}, {"price": 70}, {"price": 80}],
        [{"price": 40}, {"price": 50}, {"price": 60}],
        [None, {"price": 45}],
    ],
}


@pytest.fixture
def grid() -> Market:
    return Market.from_dict(GRID)


@pytest.fixture
def hexm() -> Market:
    return Market.from_dict(HEX)


def at(market: Market, pos: Position, corp: str = "A") -> MarketState:
    state = MarketState(market)
    state.place(corp, pos)
    return state


# ---- data --------------------------------------------------------------------------------


def test_cells_holes_and_prices(grid: Market) -> None:
    assert len(grid.cells) == 11
    assert (1, 2) not in grid
    assert grid.price((1, 4)) == 52
    assert grid.tags((0, 3)) == frozenset({"endgame"})
    assert grid.positions_at_price(20) == ((0, 1),)
    with pytest.raises(KeyError):
        grid.cell((1, 2))


def test_round_trip_and_equality(grid: Market) -> None:
    again = Market.from_dict(json.loads(json.dumps(grid.to_dict())))
    assert again == grid
    assert hash(again) == hash(grid)
    assert copy.deepcopy(grid) is grid


def test_bad_data_rejected() -> None:
    with pytest.raises(ValueError):
        Market.from_dict({"geometry": "cube", "rows": [[{"price": 1}]]})
    with pytest.raises(ValueError):
        Market.from_dict({"geometry": "grid", "rows": [[None]]})
    with pytest.raises(ValueError):
        Market.from_dict({"geometry": "grid", "rows": [[{"price": "1"}]]})
    with pytest.raises(ValueError):
        Market("grid", [[Cell((1, 1), 5)]])


def test_par_cells_by_group(grid: Market) -> None:
    # Par cells come cheapest first; a group filter keeps cells carrying any listed group.
    assert [c.price for c in grid.par_cells()] == [14, 20, 30]
    assert [c.price for c in grid.par_cells({"par:a"})] == [14, 20]
    assert [c.price for c in grid.par_cells(["par:b"])] == [30]
    assert [c.price for c in grid.par_cells({"par:a", "par:b"})] == [14, 20, 30]
    assert grid.par_cells(set()) == []


# ---- grid movement -----------------------------------------------------------------------
# Grid rules (1849 summary, OR Pay dividends: "At the end of a row the token moves a row
# instead, along the arrows"; 1849 rule details §4).


def test_grid_right_moves_one_column(grid: Market) -> None:
    assert grid.walk((0, 0), "right") == [(0, 1)]


def test_grid_right_at_row_end_moves_up(grid: Market) -> None:
    assert grid.walk((2, 1), "right") == [(1, 1)]
    assert grid.walk((0, 3), "right", 1) == [(0, 3)]
    # (1, 4) has no cell above: right at the end of the row turns into up, which is
    # impossible, so the token stays.
    assert grid.walk((1, 4), "right") == [(1, 4)]


def test_grid_right_at_end_of_row_zero_stays(grid: Market) -> None:
    assert grid.walk((0, 3), "right") == [(0, 3)]


def test_grid_right_into_a_hole_moves_up(grid: Market) -> None:
    # The hole at (1, 2) ends the run of cells: right from (1, 1) turns into up.
    assert grid.walk((1, 1), "right") == [(0, 1)]


def test_grid_left_moves_one_column(grid: Market) -> None:
    assert grid.walk((1, 4), "left") == [(1, 3)]


def test_grid_left_at_column_zero_moves_down(grid: Market) -> None:
    assert grid.walk((0, 0), "left") == [(1, 0)]
    assert grid.walk((2, 0), "left") == [(3, 0)]


def test_grid_left_at_column_zero_of_last_row_stays(grid: Market) -> None:
    assert grid.walk((3, 0), "left") == [(3, 0)]


def test_grid_down_into_missing_cell_does_nothing(grid: Market) -> None:
    assert grid.walk((0, 2), "down") == [(0, 2)]  # hole at (1, 2)
    assert grid.walk((1, 4), "down") == [(1, 4)]  # row 2 is shorter
    assert grid.walk((3, 0), "down") == [(3, 0)]  # bottom row
    assert grid.walk((0, 0), "down") == [(1, 0)]


def test_grid_up_on_row_zero_does_nothing(grid: Market) -> None:
    assert grid.walk((0, 1), "up") == [(0, 1)]
    assert grid.walk((2, 1), "up") == [(1, 1)]


def test_grid_rejects_hex_directions(grid: Market) -> None:
    with pytest.raises(ValueError):
        grid.walk((0, 0), "up_right")
    with pytest.raises(ValueError):
        grid.neighbour((0, 0), "sideways")


def test_multi_step_walk(grid: Market) -> None:
    # 1849 rule details §3.8: one step per 10% sold; blocked steps repeat the position.
    assert grid.walk((0, 1), "down", 3) == [(1, 1), (2, 1), (2, 1)]
    assert grid.walk((0, 1), "down", 0) == []
    with pytest.raises(ValueError):
        grid.walk((0, 1), "down", -1)


# ---- hex movement ------------------------------------------------------------------------
# Hex rules (1854 rulebook §5.8, §5.11, §6.2, §6.8, §7; docs/rulings/1854.md M2-M4).


def test_hex_neighbours(hexm: Market) -> None:
    assert hexm.walk((1, 1), "right") == [(1, 2)]
    assert hexm.walk((1, 1), "left") == [(1, 0)]
    assert hexm.walk((1, 1), "up_right") == [(0, 1)]
    assert hexm.walk((1, 1), "up_left") == [(0, 0)]
    assert hexm.walk((1, 0), "down_right") == [(2, 1)]
    assert hexm.walk((1, 1), "down_left") == [(2, 1)]


def test_hex_row_ends_follow_the_arrows(hexm: Market) -> None:
    # 1854 §5.8: right at the right end goes up-right; left at the left end goes down-left.
    assert hexm.walk((1, 2), "right") == [(0, 2)]
    assert hexm.walk((0, 3), "right") == [(0, 3)]  # right end of the top row: stays
    assert hexm.walk((0, 0), "left") == [(1, 0)]
    assert hexm.walk((1, 0), "left") == [(1, 0)]  # (2, 0) is a hole
    assert hexm.walk((2, 1), "left") == [(2, 1)]  # left end of the bottom row


def test_hex_diagonals_off_the_chart_stay(hexm: Market) -> None:
    # 1854 §6.8 / ruling M4: a diagonal off the chart leaves the marker in place.
    assert hexm.walk((2, 1), "down_left") == [(2, 1)]
    assert hexm.walk((0, 2), "up_right") == [(0, 2)]
    assert hexm.walk((1, 0), "up_left") == [(1, 0)]
    assert hexm.walk((1, 2), "down_right") == [(1, 2)]


def test_hex_rejects_grid_directions(hexm: Market) -> None:
    with pytest.raises(ValueError):
        hexm.walk((1, 1), "up")


def test_hex_horizontal_position(hexm: Market) -> None:
    # Each row sits half a cell right of the row below.
    assert hexm.horizontal((0, 0)) > hexm.horizontal((1, 0))
    assert hexm.horizontal((1, 1)) > hexm.horizontal((0, 0))
    assert hexm.horizontal((0, 1)) == hexm.horizontal((1, 1)) + 1


# ---- state: placing, moving, stacking ----------------------------------------------------


def test_place_position_price_zones(grid: Market) -> None:
    state = at(grid, (0, 1))
    assert "A" in state and "B" not in state
    assert state.position("A") == (0, 1)
    assert state.price("A") == 20
    assert state.zones_of("A") == frozenset({"par", "par:a"})
    with pytest.raises(ValueError):
        state.place("A", (0, 0))
    with pytest.raises(KeyError):
        state.place("B", (1, 2))
    with pytest.raises(KeyError):
        state.position("B")


def test_move_returns_cells_entered(grid: Market) -> None:
    state = at(grid, (0, 1))
    assert state.move("A", "down", 3) == [(1, 1), (2, 1)]
    assert state.position("A") == (2, 1)
    assert state.move("A", "down") == []
    assert state.position("A") == (2, 1)


def test_close_and_endgame_zones_detected(grid: Market) -> None:
    state = at(grid, (2, 0))
    entered = state.move("A", "left")
    assert [grid.tags(p) for p in entered] == [frozenset({"close"})]
    assert "close" in state.zones_of("A")
    state.place("B", (0, 2))
    state.move("B", "right")
    assert "endgame" in state.zones_of("B")


def test_remove(grid: Market) -> None:
    state = at(grid, (0, 1))
    state.place("B", (0, 1))
    assert state.remove("A") == (0, 1)
    assert "A" not in state
    assert state.stack((0, 1)) == ("B",)
    state.remove("B")
    assert state.to_dict() == {"stacks": []}
    with pytest.raises(KeyError):
        state.remove("B")


def test_par_places_at_the_bottom_of_the_stack(grid: Market) -> None:
    # 1849 rule details §3.10; 1854 §6.6: a new marker goes underneath those already there.
    state = MarketState(grid)
    for corp in ("C", "A", "B"):
        state.place(corp, (0, 1))
    assert state.stack((0, 1)) == ("C", "A", "B")


def test_arrival_goes_to_the_bottom_of_the_stack(grid: Market) -> None:
    # 1854 §5.8: "placed underneath the markers already there".
    state = MarketState(grid)
    state.place("A", (0, 1))
    state.place("B", (0, 0))
    state.place("C", (0, 0))
    state.move("C", "right")
    state.move("B", "right")
    assert state.stack((0, 1)) == ("A", "C", "B")
    # Leaving and coming back puts the token at the bottom again.
    state.move("A", "left")
    state.move("A", "right")
    assert state.stack((0, 1)) == ("C", "B", "A")


def test_blocked_move_keeps_stack_place(grid: Market) -> None:
    state = MarketState(grid)
    state.place("A", (0, 1))
    state.place("B", (0, 1))
    assert state.move("A", "up") == []
    assert state.stack((0, 1)) == ("A", "B")


def test_move_to_and_set_stack(grid: Market) -> None:
    state = MarketState(grid)
    state.place("A", (0, 1))
    state.place("B", (1, 0))
    state.move_to("B", (0, 1))
    assert state.stack((0, 1)) == ("A", "B")
    state.move_to("B", (0, 1))
    assert state.stack((0, 1)) == ("A", "B")
    state.set_stack((0, 1), ["B", "A"])
    assert state.stack((0, 1)) == ("B", "A")
    with pytest.raises(ValueError):
        state.set_stack((0, 1), ["B"])
    with pytest.raises(ValueError):
        state.set_stack((0, 1), ["B", "B"])
    state.set_stack((2, 1), [])
    assert state.stack((2, 1)) == ()


# ---- operating order ---------------------------------------------------------------------
# 1849 rule details §5.2; 1854 §5.1: higher price; further right; higher row; stack top.


def test_operating_order_by_price() -> None:
    market = Market.from_dict(GRID)
    state = MarketState(market)
    state.place("LOW", (2, 0))
    state.place("HIGH", (1, 4))
    state.place("MID", (0, 2))
    assert state.operating_order(["LOW", "MID", "HIGH"]) == ["HIGH", "MID", "LOW"]


def test_operating_order_ties() -> None:
    market = Market.from_dict(
        {
            "geometry": "grid",
            "rows": [
                [{"price": 50}, {"price": 50}],
                [{"price": 50}, {"price": 50}],
            ],
        }
    )
    state = MarketState(market)
    state.place("TOP_LEFT", (0, 0))
    state.place("BOTTOM_LEFT", (1, 0))
    state.place("BOTTOM_RIGHT_1", (1, 1))
    state.place("BOTTOM_RIGHT_2", (1, 1))
    state.place("TOP_RIGHT", (0, 1))
    corps = ["TOP_LEFT", "BOTTOM_LEFT", "BOTTOM_RIGHT_2", "BOTTOM_RIGHT_1", "TOP_RIGHT"]
    assert state.operating_order(corps) == [
        "TOP_RIGHT",  # further right, higher row
        "BOTTOM_RIGHT_1",  # further right, earlier arrival
        "BOTTOM_RIGHT_2",
        "TOP_LEFT",
        "BOTTOM_LEFT",
    ]


def test_operating_order_hex_uses_chart_position(hexm: Market) -> None:
    # 1854 §5.1 / ruling M6: equal prices, the marker further right on the chart first.
    state = MarketState(hexm)
    state.place("ROW0", (0, 0))  # 50, half a cell left of (1, 1)
    state.place("ROW1", (1, 1))  # 50
    assert state.operating_order(["ROW0", "ROW1"]) == ["ROW1", "ROW0"]


def test_operating_order_requires_tokens(grid: Market) -> None:
    with pytest.raises(KeyError):
        MarketState(grid).operating_order(["A"])


# ---- the movement hook -------------------------------------------------------------------


class NoDown:
    """A title policy that forbids down moves."""

    def step(self, market: Market, pos: Position, direction: str) -> Position:
        if direction == "down":
            return pos
        return STANDARD_MOVEMENT.step(market, pos, direction)


class OffMarket:
    def step(self, market: Market, pos: Position, direction: str) -> Position:
        return (99, 99)


def test_rules_hook(grid: Market) -> None:
    state = MarketState(grid, NoDown())
    state.place("A", (0, 0))
    assert state.move("A", "down") == []
    assert state.move("A", "down", rules=STANDARD_MOVEMENT) == [(1, 0)]
    state.rules = STANDARD_MOVEMENT
    assert state.move("A", "down") == [(2, 0)]
    with pytest.raises(ValueError):
        grid.walk((0, 0), "right", rules=OffMarket())


# ---- copying and serialisation -----------------------------------------------------------


def test_deepcopy_is_independent(grid: Market) -> None:
    state = MarketState(grid, NoDown())
    state.place("A", (0, 1))
    state.place("B", (0, 1))
    clone = copy.deepcopy(state)
    assert clone == state
    assert clone.market is grid
    assert isinstance(clone.rules, NoDown)
    assert copy.deepcopy(MarketState(grid)).rules is STANDARD_MOVEMENT
    clone.move("A", "left")
    clone.place("C", (0, 1))
    assert state.stack((0, 1)) == ("A", "B")
    assert state.position("A") == (0, 1)
    assert "C" not in state
    assert clone.stack((0, 1)) == ("B", "C")
    assert clone != state
    shallow = copy.copy(state)
    shallow.remove("B")
    assert "B" in state


def test_to_dict_is_canonical(grid: Market) -> None:
    one = MarketState(grid)
    one.place("B", (1, 0))
    one.place("A", (0, 1))
    one.place("C", (0, 1))
    two = MarketState(grid)
    two.place("A", (0, 1))
    two.place("C", (0, 1))
    two.place("B", (1, 0))
    assert one.to_dict() == two.to_dict()
    assert json.dumps(one.to_dict()) == json.dumps(two.to_dict())
    assert one.to_dict() == {
        "stacks": [{"pos": [0, 1], "corps": ["A", "C"]}, {"pos": [1, 0], "corps": ["B"]}]
    }
    back = MarketState.from_dict(grid, json.loads(json.dumps(one.to_dict())))
    assert back == one
    assert back.corporations() == ["A", "B", "C"]


# ---- properties --------------------------------------------------------------------------

_MOVES = st.lists(
    st.tuples(
        st.sampled_from(["A", "B", "C", "D"]),
        st.sampled_from(["right", "left", "up", "down"]),
        st.integers(min_value=0, max_value=3),
    ),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(_MOVES)
def test_random_moves_keep_state_consistent(moves: list[tuple[str, str, int]]) -> None:
    market = Market.from_dict(GRID)
    state = MarketState(market)
    for corp, pos in zip("ABCD", [(0, 1), (0, 2), (2, 0), (0, 1)], strict=True):
        state.place(corp, pos)
    for corp, direction, steps in moves:
        before = copy.deepcopy(state)
        entered = state.move(corp, direction, steps)
        assert all(p in market for p in entered)
        assert before.position(corp) != state.position(corp) or not entered
        # Every token sits in exactly the stack of its position.
        for c in "ABCD":
            assert state.stack(state.position(c)).count(c) == 1
        assert sum(len(e["corps"]) for e in state.to_dict()["stacks"]) == 4
        assert MarketState.from_dict(market, state.to_dict()) == state
    order = state.operating_order("ABCD")
    prices = [state.price(c) for c in order]
    assert prices == sorted(prices, reverse=True)
