"""1854's hexagonal stock market: the data and the moves of rulebook §5.8, §5.11, §6.2, §6.8
and §7, with the rulings of docs/rulings/1854.md (M1-M6)."""

from __future__ import annotations

import copy
import json

import pytest

from shared_files import REFERENCE_1854, needs_shared
from tresham.core.market import Market, MarketState, Position

M = Market.load("tresham.titles.t1854", "data/market.json")


def go(pos: Position, direction: str, steps: int = 1) -> int:
    """The price reached from `pos` after `steps` steps in `direction`."""
    return M.price(M.walk(pos, direction, steps)[-1])


def where(price: int, row: int) -> Position:
    """The cell printed `price` in `row`."""
    (pos,) = [p for p in M.positions_at_price(price) if p[0] == row]
    return pos


# ---- the data (ruling M1) ----------------------------------------------------------------


def test_shape() -> None:
    assert M.geometry == "hex"
    assert [len(row) for row in M.rows] == [19, 16, 11, 9, 8, 7, 6, 5]
    assert M.rows[7][0] is None
    assert len(M.cells) == 80


def test_250_not_50() -> None:
    # Ruling M1: row 0 column 16 is 250; prices rise strictly along every row.
    assert M.price((0, 16)) == 250
    for row in M.rows:
        prices = [cell.price for cell in row if cell is not None]
        assert prices == sorted(set(prices))


@needs_shared(REFERENCE_1854)
def test_matches_reference_with_the_250_fix() -> None:
    raw_rows = json.loads(REFERENCE_1854.read_text())["stock_market"]["raw_rows"]
    letters = {"p": "par", "S": "share_split", "y": "no_cert_limit", "e": "endgame"}
    for r, row in enumerate(raw_rows):
        assert len(row) == len(M.rows[r])
        for c, raw in enumerate(row):
            if raw == "":
                assert (r, c) not in M
                continue
            digits = raw.rstrip("pSye")
            price = 250 if (r, c) == (0, 16) else int(digits)
            assert M.price((r, c)) == price
            assert M.tags((r, c)) == frozenset(letters[ch] for ch in raw[len(digits) :])


def test_zones() -> None:
    # §6.4: "67, 72, 77, 82, 87 and 93 (the dark spaces)"; they lie on one up-right diagonal.
    assert [c.price for c in M.par_cells()] == [67, 72, 77, 82, 87, 93]
    assert {c.pos[1] for c in M.par_cells()} == {2}
    assert M.walk(where(67, 5), "up_right", 5) == [(4, 2), (3, 2), (2, 2), (1, 2), (0, 2)]
    # §8: the "Game End" space.
    assert [(c.pos, c.price) for c in M.cells_with("endgame")] == [((0, 18), 300)]
    # §6.5: the orange spaces at the bottom.
    assert sorted(c.price for c in M.cells_with("no_cert_limit")) == [
        54,
        56,
        57,
        59,
        60,
        61,
        63,
        68,
        71,
        76,
        79,
    ]
    # Split spaces: exactly the cells with column - row >= 3 (missing-rules, observations),
    # but for the Game End space.
    for pos, cell in M.cells.items():
        if pos == (0, 18):
            continue
        assert ("share_split" in cell.tags) == (pos[1] - pos[0] >= 3), pos


# ---- movement (ruling M2-M4) -------------------------------------------------------------


def test_dividend_moves_right() -> None:
    # §5.8: a dividend moves the marker one space to the right.
    assert go(where(67, 5), "right") == 70
    assert go(where(93, 0), "right") == 97


def test_dividend_at_row_end_moves_up_right() -> None:
    # §5.8: "at the right-hand end of a row, it moves one space diagonally upwards to the
    # right (as shown by the arrow)".
    assert go(where(123, 2), "right") == 134
    assert go(where(200, 1), "right") == 230
    assert go(where(79, 5), "right") == 85
    assert go(where(63, 7), "right") == 68


def test_dividend_at_top_right_stays() -> None:
    # §5.8: "If it is at the right-hand end of the top row, it stays where it is."
    assert go((0, 18), "right") == 300


def test_withhold_moves_left() -> None:
    # §5.8: retained revenue moves the marker one space to the left.
    assert go(where(70, 5), "left") == 67


def test_withhold_at_row_start_moves_down_left() -> None:
    # §5.8: at the left-hand end of a row, diagonally downwards to the left.
    assert go((0, 0), "left") == 81
    assert go((5, 0), "left") == 56


def test_withhold_at_bottom_left_stays() -> None:
    # §5.8: at the left-hand end of the bottom row it stays; ruling M3: 56 too.
    assert go((7, 1), "left") == 54
    assert go((6, 0), "left") == 56


def test_sale_moves_down_left() -> None:
    # §6.8: each certificate sold moves the marker one space diagonally downwards to the left.
    assert go(where(93, 0), "down_left") == 87
    assert go(where(93, 0), "down_left", 3) == 77
    assert go(where(67, 5), "down_left") == 62


def test_sale_at_bottom_edge_stays() -> None:
    # §6.8: "If the share price marker reaches the [bottom] edge ... it is not moved any
    # further downwards"; ruling M4 for the overhanging right-hand cells.
    assert go(where(57, 7), "down_left") == 57
    assert go(where(62, 6), "down_left", 3) == 57
    assert go(where(79, 5), "down_left") == 79
    assert go((0, 18), "down_left") == 300


def test_sold_out_moves_up_right() -> None:
    # §6.2: all shares in player hands at the end of a Share Buying Round: up-right; on the
    # top row the price is not altered.
    assert go(where(67, 5), "up_right") == 72
    assert go(where(54, 7), "up_right") == 59
    assert go(where(146, 0), "up_right") == 146


def test_train_trades_move_diagonally() -> None:
    # §5.11: the buyer moves diagonally up-left, the seller diagonally down-right.
    assert go(where(87, 1), "up_left") == 89
    assert go(where(87, 1), "down_right") == 85
    # Ruling M4: off the chart the marker stays.
    assert go((1, 0), "up_left") == 81
    assert go(where(86, 0), "up_left") == 86
    assert go(where(123, 2), "down_right") == 123
    assert go(where(63, 7), "down_right") == 63


def test_grid_directions_are_not_hex_directions() -> None:
    with pytest.raises(ValueError):
        M.walk((0, 0), "up")
    with pytest.raises(ValueError):
        M.walk((0, 0), "down")


def test_every_rise_raises_and_every_fall_lowers() -> None:
    # §7 as a whole: right and up-right never lower a price; left and down-left never raise.
    for pos in M.cells:
        for direction in ("right", "up_right"):
            assert go(pos, direction) >= M.price(pos)
        for direction in ("left", "down_left"):
            assert go(pos, direction) <= M.price(pos)


# ---- zones entered -----------------------------------------------------------------------


def test_share_split_space_entered() -> None:
    # Missing-rules §5 item 1: a split happens when the marker first enters a split space;
    # `move` reports every space entered.
    state = MarketState(M)
    state.place("KE", where(91, 1))
    entered = state.move("KE", "right")
    assert ["share_split" in M.tags(p) for p in entered] == [True]
    assert state.price("KE") == 95


def test_game_end_space_entered() -> None:
    # §8: the game ends when a marker reaches the "Game End" space.
    state = MarketState(M)
    state.place("SD", where(275, 0))
    state.move("SD", "right")
    assert "endgame" in state.zones_of("SD")
    assert state.move("SD", "right") == []


def test_orange_space_entered() -> None:
    # §6.5: shares of a company on an orange space do not count toward the share limit.
    state = MarketState(M)
    state.place("VB", where(67, 5))
    state.move("VB", "down_left")  # 62
    state.move("VB", "left")  # 59
    assert "no_cert_limit" in state.zones_of("VB")


# ---- stacking and operating order (ruling M5, M6) ----------------------------------------


def test_par_and_arrivals_go_underneath() -> None:
    # §6.6: the marker placed on the par space goes underneath markers already there; §7:
    # "Whenever a marker moves to a space that is already occupied ... underneath them".
    state = MarketState(M)
    state.place("KE", where(77, 3))
    state.place("FJ", where(77, 3))
    state.place("SD", where(74, 3))
    state.move("SD", "right")
    assert state.stack(where(77, 3)) == ("KE", "FJ", "SD")
    assert state.operating_order(["SD", "FJ", "KE"]) == ["KE", "FJ", "SD"]


def test_operating_order_equal_prices_further_right_first() -> None:
    # §5.1: equal prices in different spaces, the marker furthest to the right goes first
    # (ruling M6: position on the chart, so the lower row here).
    state = MarketState(M)
    state.place("TOP", where(89, 0))
    state.place("MID", where(89, 2))
    state.place("LOW", where(89, 4))
    state.place("RICH", where(91, 1))
    assert state.operating_order(["TOP", "MID", "LOW", "RICH"]) == ["RICH", "LOW", "MID", "TOP"]
    assert M.horizontal(where(93, 2)) > M.horizontal(where(93, 0))


def test_deepcopy_independent() -> None:
    state = MarketState(M)
    state.place("KR", where(82, 2))
    clone = copy.deepcopy(state)
    clone.move("KR", "up_right")
    assert state.price("KR") == 82 and clone.price("KR") == 87
    assert clone.market is M
