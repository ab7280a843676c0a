"""1849's stock market: the grid data, its zones and the blue-zone movement policy."""

from __future__ import annotations

import copy
import json

from shared_files import REFERENCE_1849, needs_shared
from tresham.core.market import Market, MarketState, Position
from tresham.titles.t1849.market_rules import (
    Movement1849,
    load_market,
    new_market_state,
    rules_for_phase,
)

M = load_market()
BEFORE_16H = Movement1849(blue_open=False)
FROM_16H = Movement1849(blue_open=True)


def cell_of(price: int, index: int = 0) -> Position:
    """The position of the `index`-th cell printed with `price` (row-major order)."""
    return M.positions_at_price(price)[index]


def after(price: int, direction: str, rules: Movement1849, steps: int = 1) -> int:
    """The price reached from the (unique) cell printed `price`."""
    (pos,) = M.positions_at_price(price)
    return M.price(M.walk(pos, direction, steps, rules)[-1])


# ---- the data ----------------------------------------------------------------------------


def test_grid_shape() -> None:
    assert M.geometry == "grid"
    assert [len(row) for row in M.rows] == [16, 16, 16, 14, 13, 12, 11, 10, 7, 4]
    assert all(cell is not None for row in M.rows for cell in row)
    assert M.price((0, 0)) == 72 and M.price((9, 3)) == 31


@needs_shared(REFERENCE_1849)
def test_grid_matches_reference() -> None:
    raw_rows = json.loads(REFERENCE_1849.read_text())["stock_market"]["raw_rows"]
    letters = {
        "p": {"par", "par:yellow"},
        "x": {"par", "par:green"},
        "z": {"par", "par:brown"},
        "u": {"blue"},
        "e": {"endgame"},
        "c": {"close"},
    }
    assert len(raw_rows) == len(M.rows)
    for r, row in enumerate(raw_rows):
        assert len(row) == len(M.rows[r])
        for c, raw in enumerate(row):
            digits = raw.rstrip("pxzuec")
            tags: set[str] = set()
            for ch in raw[len(digits) :]:
                tags |= letters[ch]
            assert M.price((r, c)) == int(digits), (r, c)
            assert M.tags((r, c)) == frozenset(tags), (r, c)


def test_par_groups() -> None:
    # 1849 summary, SR Starting a corporation: "68 or 100, or 144 from Phase 6 or 216 from
    # Phase 10".
    assert [c.price for c in M.par_cells({"par:yellow"})] == [68, 100]
    assert [c.price for c in M.par_cells({"par:green"})] == [144]
    assert [c.price for c in M.par_cells({"par:brown"})] == [216]
    assert [c.price for c in M.par_cells({"par:yellow", "par:green"})] == [68, 100, 144]
    assert [c.price for c in M.par_cells()] == [68, 100, 144, 216]
    assert [c.pos for c in M.par_cells()] == [(4, 2), (3, 5), (2, 8), (1, 11)]


def test_zones() -> None:
    # 1849 rule details §4: blue cells, 377 end of game, 0 "Closed".
    assert sorted(c.price for c in M.cells_with("blue")) == [242, 266, 269, 295, 298, 306, 328, 340]
    assert [(c.pos, c.price) for c in M.cells_with("endgame")] == [((0, 15), 377)]
    assert [(c.pos, c.price) for c in M.cells_with("close")] == [((9, 0), 0)]


def test_phase_mapping() -> None:
    # 1849 summary, SR Share price: "Tokens reach the blue zone only from the first 16H".
    for phase in ("4H", "6H", "8H", "10H", "12H"):
        assert rules_for_phase(phase) == BEFORE_16H
    assert rules_for_phase("16H") == FROM_16H
    assert new_market_state().rules == BEFORE_16H
    assert new_market_state("16H").rules == FROM_16H
    assert Movement1849() == BEFORE_16H


# ---- the blue zone -----------------------------------------------------------------------
# 1849 summary, SR Share price: "Tokens reach the blue zone only from the first 16H";
# 1849 rule details §4, "Blue zone before phase 16H".


def test_right_into_blue_goes_up_before_16h() -> None:
    assert after(218, "right", BEFORE_16H) == 240
    assert after(240, "right", BEFORE_16H) == 276
    assert after(276, "right", BEFORE_16H) == 276


def test_up_from_230_blocked_before_16h() -> None:
    assert after(230, "up", BEFORE_16H) == 230
    # 230 ends its row: right turns into up, which is blocked.
    assert after(230, "right", BEFORE_16H) == 230


def test_no_blocks_from_16h() -> None:
    assert after(218, "right", FROM_16H) == 242
    assert after(240, "right", FROM_16H) == 266
    assert after(276, "right", FROM_16H) == 306
    assert after(230, "right", FROM_16H) == 242
    assert after(230, "up", FROM_16H) == 242


def test_blue_never_entered_before_16h() -> None:
    # Exhaustive: no single step from a cell reachable before 16H (not blue; 377 is reached
    # only through the blue zone) ends in a blue cell.
    for pos, cell in M.cells.items():
        if cell.tags & {"blue", "endgame"}:
            continue
        for direction in M.directions:
            (end,) = M.walk(pos, direction, 1, BEFORE_16H)
            assert "blue" not in M.tags(end), (pos, direction)


def test_blue_and_377_unreachable_before_16h() -> None:
    # Everything reachable from the par cells by any moves before 16H avoids the blue zone,
    # and so the 377 end-game cell too.
    seen = {cell.pos for cell in M.par_cells()}
    todo = list(seen)
    while todo:
        pos = todo.pop()
        for direction in M.directions:
            (end,) = M.walk(pos, direction, 1, BEFORE_16H)
            if end not in seen:
                seen.add(end)
                todo.append(end)
    assert not any(M.tags(p) & {"blue", "endgame"} for p in seen)
    assert len(seen) == len(M.cells) - 9  # every other cell, including 0 "Closed"


def test_policy_changes_nothing_else() -> None:
    # Away from the blue zone's entrances the 1849 policy is the standard grid movement.
    entrances = {cell_of(218), cell_of(240), cell_of(276), cell_of(230)}
    for pos in M.cells:
        for direction in M.directions:
            standard = M.walk(pos, direction, 1)
            if pos in entrances and direction in ("right", "up"):
                continue
            assert M.walk(pos, direction, 1, BEFORE_16H) == standard, (pos, direction)
            assert M.walk(pos, direction, 1, FROM_16H) == standard, (pos, direction)


def test_two_rows_up_stops_below_blue() -> None:
    # 1849 summary, SR Share price: the end-of-SR rise is one row; two rises from 208.
    state = new_market_state("12H")
    state.place("IFT", cell_of(208))
    assert state.move("IFT", "up", 2) == [cell_of(218), cell_of(240)]
    assert state.move("IFT", "right") == [cell_of(276)]
    assert state.move("IFT", "right") == []
    state.rules = rules_for_phase("16H")
    assert state.move("IFT", "right") == [cell_of(306)]


def test_policy_flag_updated_in_place() -> None:
    # The game may flip the flag of the state's own policy when 16H arrives.
    state = new_market_state()
    state.place("IFT", cell_of(240))
    rules = state.rules
    assert isinstance(rules, Movement1849)
    assert state.move("IFT", "right") == [cell_of(276)]
    rules.blue_open = True
    assert state.move("IFT", "right") == [cell_of(306)]


# ---- grid edges on the 1849 chart --------------------------------------------------------
# 1849 summary, OR Pay dividends: "Withhold, or no train, ←1 · pay < price 0 · ≥1x →1. At
# the end of a row the token moves a row instead, along the arrows."


def test_right_at_end_of_row_moves_up() -> None:
    assert after(198, "right", BEFORE_16H) == 208
    assert after(162, "right", BEFORE_16H) == 178
    assert M.price(M.walk((9, 3), "right", 1, BEFORE_16H)[0]) == 40  # 31, row 9


def test_left_at_column_zero_moves_down() -> None:
    assert M.price(M.walk((0, 0), "left", 1, BEFORE_16H)[0]) == 63
    assert M.price(M.walk((7, 0), "left", 1, BEFORE_16H)[0]) == 27


def test_down_into_missing_cell_does_nothing() -> None:
    # 1849 rule details §4, Down: "198 ... 269u/298u, or anywhere on row 9".
    assert after(198, "down", BEFORE_16H) == 198
    assert after(269, "down", FROM_16H) == 269
    assert after(298, "down", FROM_16H) == 298
    for c in range(4):
        assert M.walk((9, c), "down", 1, BEFORE_16H) == [(9, c)]


def test_up_on_row_zero_does_nothing() -> None:
    assert M.walk((0, 0), "up", 1, BEFORE_16H) == [(0, 0)]
    assert M.walk((0, 15), "up", 1, FROM_16H) == [(0, 15)]
    assert M.walk((0, 15), "right", 1, FROM_16H) == [(0, 15)]


def test_sales_move_down_one_row_per_10_percent() -> None:
    # 1849 rule details §3.8: a 20% certificate counts two rows.
    state = new_market_state()
    state.place("CTL", cell_of(100))
    assert [M.price(p) for p in state.move("CTL", "down", 2)] == [95, 87]
    assert state.price("CTL") == 87


def test_closed_zone_reached() -> None:
    # 1849 summary, Trouble: Closure—the "Closed" box. Rule details §4, 0c routes.
    state = new_market_state()
    state.place("ATA", (9, 1))  # 24
    assert state.move("ATA", "left") == [(9, 0)]
    assert "close" in state.zones_of("ATA")
    state.place("SFA", (8, 0))  # 27
    assert state.move("SFA", "left") == [(9, 0)]
    state.place("AFG", (8, 0))
    assert state.move("AFG", "down") == [(9, 0)]
    assert state.stack((9, 0)) == ("ATA", "SFA", "AFG")
    assert state.move("ATA", "left") == []  # nowhere further


def test_endgame_zone_reached() -> None:
    # 1849 summary, ENDEndgame: "L. 377 ends the game as soon as that corporation has operated".
    state = new_market_state("16H")
    state.place("RCS", cell_of(340))
    assert state.move("RCS", "right") == [(0, 15)]
    assert state.price("RCS") == 377 and "endgame" in state.zones_of("RCS")
    state.place("IFT", cell_of(328))
    assert state.move("IFT", "right") == [(0, 15)]  # end of row 1: up to 377
    assert state.move("RCS", "right") == []


# ---- stacking and operating order --------------------------------------------------------
# 1849 rule details §3.10 (par at the bottom of the stack) and §5.2 (sort key).


def test_par_stacking() -> None:
    state = new_market_state()
    for corp in ("SFA", "CTL", "ATA"):
        state.place(corp, cell_of(100))
    assert state.stack(cell_of(100)) == ("SFA", "CTL", "ATA")
    assert state.operating_order(["ATA", "CTL", "SFA"]) == ["SFA", "CTL", "ATA"]


def test_equal_prices_in_different_cells() -> None:
    # 1849 rule details §4 [QUIRK]: same price, different cells; further right first.
    state = new_market_state()
    state.place("A", (0, 2))  # 95
    state.place("B", (2, 4))  # 95
    state.place("C", (4, 5))  # 95
    assert state.operating_order(["A", "B", "C"]) == ["C", "B", "A"]


def test_arrival_goes_under() -> None:
    state = new_market_state()
    state.place("AFG", cell_of(100))
    state.place("CTL", cell_of(90))
    state.move("CTL", "right")
    state.place("SFA", cell_of(100))
    assert state.operating_order(["SFA", "CTL", "AFG"]) == ["AFG", "CTL", "SFA"]


def test_deepcopy_keeps_policy_and_independence() -> None:
    state = new_market_state()
    state.place("AFG", cell_of(218))
    clone = copy.deepcopy(state)
    assert clone.rules == BEFORE_16H and clone.market is state.market
    assert clone.rules is not state.rules
    assert isinstance(clone.rules, Movement1849)
    clone.rules.blue_open = True  # a copy's policy is its own
    clone.move("AFG", "right")
    assert clone.price("AFG") == 242
    assert state.price("AFG") == 218
    assert state.rules == BEFORE_16H
    assert copy.copy(state).rules == BEFORE_16H


def test_load_is_cached_and_equal_to_data() -> None:
    assert load_market() is M
    assert Market.load("tresham.titles.t1849", "data/market.json") == M
    assert isinstance(MarketState(M).market, Market)
