"""1854 §3.2.1 Share Splitting (reconstructed: missing-rules §5; rulings P1-P3) and its
consequences for the Share Buying Rounds (§6.4, §6.5, §6.6.1, §7).

Only dividends move a marker right, toward the split spaces, and the Operating Rounds are not
built (ruling F6); so these tests put KE's marker where dividends would have taken it, with
``MarketState.move_to``, and let the sold-out rise of §6.2 carry it into a split space."""

from __future__ import annotations

from helpers_1854 import TITLE, after_first_round, cash, passes, rejected, second_round
from tresham.core.actions import BuyShares, SellShares
from tresham.core.game import Game
from tresham.core.shares import treasury
from tresham.titles.t1854.rules import SPLIT
from tresham.titles.t1854.split import split_holder
from tresham.titles.t1854.state import state_of


def split_ke() -> tuple[Game, list[int]]:
    """KE, sold out (C 40% Director + 20%, A 2 x 20%), stands on 89 (row 2, column 4) after
    some dividends; a Share Buying Round without transactions ends and KE rises to 95, a
    split space. Returns the game and the cash just before that round ended."""
    g = after_first_round()
    g.state.market.move_to("KE", (2, 4))
    second_round(g)
    before = cash(g)
    passes(g, "B", "C", "A")
    return g, before


def test_entering_a_split_space_flips_every_certificate() -> None:
    # 1854 §3.2.1 (missing-rules §5.1-5.3): 40% -> 20% Director's, 20% -> 10%; the five 10%
    # shares set aside (§2.4) go to the Split Shares section
    g, _ = split_ke()
    s = g.state
    assert s.market.price("KE") == 95 and s.market.cell("KE").has("share_split")
    assert state_of(g).split == ["KE"]
    assert sorted((c.percent, c.president) for c in s.shares.held("C", "KE")) == [
        (10, False),
        (20, True),
    ]
    assert [c.percent for c in s.shares.held("A", "KE")] == [10, 10]
    assert [c.percent for c in s.shares.held(split_holder("KE"), "KE")] == [10] * 5
    assert s.shares.held(treasury("KE"), "KE") == []
    assert sum(s.shares.holders("KE").values()) == 100


def test_players_are_paid_the_price_for_each_10_percent_kept() -> None:
    # 1854 §3.2.1 (ruling P2): C keeps 30%: 3 x 95; A keeps 20%: 2 x 95; then the Mountain
    # Railways pay (§5.1): A 25, B 35, C 15
    g, before = split_ke()
    assert cash(g) == [before[0] + 190 + 25, before[1] + 35, before[2] + 285 + 15]


def test_a_split_raises_the_share_limit_one_column() -> None:
    # 1854 §6.5 Table 7: 3 players, one company split: 12 certificates instead of 10
    g, _ = split_ke()
    assert TITLE.share_limit(g) == 12


def test_split_shares_sell_at_the_chart_price_to_the_bank() -> None:
    # 1854 §6: split shares at the current price; every transaction is with the bank
    # (ruling P3)
    g, _ = split_ke()
    second_round(g)
    assert g.active_entity() == "B"
    bank, money = g.state.bank.cash, cash(g)[1]
    g.apply(BuyShares("B", "KE", SPLIT, 10))
    assert cash(g)[1] == money - 95 and g.state.bank.cash == bank + 95
    assert g.state.corps["KE"].cash == 670  # the company gets nothing


def test_no_sold_out_rise_while_split_shares_remain() -> None:
    # 1854 §7: "if, after a share splitting, there are shares of the company in the 'Split
    # Shares' space, the upward movement does not take place"
    g, _ = split_ke()
    second_round(g)
    passes(g, "B", "C", "A")
    assert g.state.market.price("KE") == 95


def test_at_most_60_percent_after_a_split() -> None:
    # 1854 §6.5: "After the shares have split, the maximum single holding is only 60%"
    g, _ = split_ke()
    second_round(g)
    g.apply(BuyShares("B", "KE", SPLIT, 10))
    for _ in range(3):  # C: 30% -> 60%
        g.apply(BuyShares("C", "KE", SPLIT, 10))
        passes(g, "A", "B")
    assert g.state.shares.percent("C", "KE") == 60
    assert not any(isinstance(a, BuyShares) and a.corporation == "KE" for a in g.legal_actions())
    rejected(g, BuyShares("C", "KE", SPLIT, 10), "§6")


def test_after_a_split_20_percent_takes_over_the_directorship() -> None:
    # 1854 §6.6.1: the new Director needs at least the Director's certificate's percentage,
    # 20% after a split: C (30%) selling 20% hands the 20% Director's certificate to A (20%)
    g, _ = split_ke()
    second_round(g)
    g.apply(BuyShares("B", "KE", SPLIT, 10))
    g.apply(SellShares("C", "KE", 20))
    s = g.state
    assert s.shares.president["KE"] == "A"
    assert [(c.percent, c.president) for c in s.shares.held("A", "KE")] == [(20, True)]
    assert s.shares.percent("C", "KE") == 10
