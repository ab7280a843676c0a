"""1854 §6.4.1 Buying Options (rulings O1-O4), played through the public API."""

from __future__ import annotations

from helpers_1854 import (
    after_first_round,
    cash,
    game,
    in_operating_round,
    passes,
    rejected,
    second_round,
    sell_all_privates,
)
from tresham.core.actions import BuyShares, Par, Pass, SellShares
from tresham.core.game import Game
from tresham.core.shares import POOL
from tresham.titles.t1854.actions import BuyOption, PayOption
from tresham.titles.t1854.state import Option, state_of


def option(g: Game, player: str) -> Option | None:
    return state_of(g).options.get(player)


def ke_on_option() -> Game:
    """After the privates (A 370, B 320, C 490 G; C to act): C starts KE at 67; A buys a 20%
    share of KE on option for 67."""
    g = game()
    sell_all_privates(g)
    g.apply(Par("C", "KE", 67))
    g.apply(BuyOption("A", "KE", "treasury"))
    return g


def test_a_20_percent_share_at_half_price_floats_the_company() -> None:
    # 1854 §6.4.1: a 20% share for half its price (here from the Initial Offering: 67);
    # §6.6: "if an option has been exercised, this figure is theoretically only 50%"
    g = ke_on_option()
    s = g.state
    assert cash(g)[0] == 370 - 67
    assert [c.percent for c in s.shares.held("A", "KE")] == [20]
    assert option(g, "A") == Option(cid="KE_1", corp="KE", price=67, round=1)
    assert s.corps["KE"].floated and s.corps["KE"].cash == 670


def test_never_the_directors_certificate() -> None:
    # 1854 §6.4.1 "(but not a Director's Share Certificate)"
    g = game()
    sell_all_privates(g)
    legal = g.legal_actions()
    assert not any(isinstance(a, BuyOption) for a in legal)  # no company started yet
    g.apply(Par("C", "KE", 67))
    assert {a.corporation for a in g.legal_actions() if isinstance(a, BuyOption)} == {"KE"}


def test_the_rest_is_paid_before_anything_else_is_bought() -> None:
    # 1854 §6.4.1: "Before a player buys anything else ... they must pay for the remaining
    # 10% part"; the price is the first part's; paying is the turn's buying action
    g = ke_on_option()
    passes(g, "B", "C")
    assert g.legal_actions() == [PayOption("A"), Pass("A")]
    rejected(g, BuyShares("A", "KE", "treasury", 20), "§4")
    rejected(g, Par("A", "SB", 67), "§4")
    g.apply(PayOption("A"))
    assert cash(g)[0] == 370 - 2 * 67 and option(g, "A") is None
    assert g.active_entity() == "B"  # no further purchase this turn
    passes(g, "B", "C")
    assert BuyShares("A", "KE", "treasury", 20) in g.legal_actions()


def test_an_option_share_is_not_sold_in_its_round() -> None:
    # 1854 §6.4.1 "The share may not be sold in this Share Buying Round"; selling another
    # share to raise the money is allowed, then the rest can be paid
    g = after_first_round()  # A 127, B 355, C 103 G; KE at 72
    second_round(g)
    g.apply(Par("B", "SD", 72))  # with the Semmeringbahn's 20%: SD floats
    g.apply(BuyOption("C", "SD", "treasury"))
    assert cash(g)[2] == 103 - 72
    passes(g, "A", "B")
    assert PayOption("C") not in g.legal_actions()  # 31 G < 72 G
    rejected(g, SellShares("C", "SD", 20), "§6")
    g.apply(SellShares("C", "KE", 20))  # 2 x 72
    assert g.legal_actions()[-2:] == [PayOption("C"), Pass("C")]
    g.apply(PayOption("C"))
    assert cash(g)[2] == 103 - 72 + 144 - 72 and option(g, "C") is None


def test_in_a_later_round_the_unpaid_share_sells_for_the_paid_part() -> None:
    # 1854 §6.4.1: a player without the money "may ... sell this share (receiving the basic
    # share value)" (ruling O3: the value of the 10% paid for); the markers come back
    g = after_first_round()
    second_round(g)
    g.apply(Par("B", "SD", 72))
    g.apply(BuyOption("C", "SD", "treasury"))
    passes(g, "A", "B", "C")
    assert in_operating_round(g)
    second_round(g)
    assert g.active_entity() == "A"
    g.apply(Pass("A"))
    g.apply(Pass("B"))
    money = cash(g)[2]
    price = g.state.market.price("SD")
    g.apply(SellShares("C", "SD", 20))
    assert cash(g)[2] == money + price  # 20% sold, the unpaid 10% kept by the bank
    assert option(g, "C") is None
    assert [c.percent for c in g.state.shares.held(POOL, "SD")] == [20]


def test_an_option_on_a_pool_share_costs_half_the_current_price() -> None:
    # 1854 §6.4.1: "irrespective of whether the purchase is from the Bank Pool or the
    # Initial Share Offering"; the second marker records the price paid
    g = after_first_round()
    second_round(g)
    g.apply(Pass("B"))
    g.apply(SellShares("C", "KE", 20))  # 72 -> 67
    g.apply(Pass("C"))
    g.apply(Pass("A"))
    g.apply(BuyOption("B", "KE", POOL))
    assert cash(g)[1] == 355 - 67
    assert option(g, "B") == Option(cid="KE_2", corp="KE", price=67, round=2)


def test_a_split_makes_the_option_share_a_paid_10_percent() -> None:
    # seed l.179 (§3.2.1): an option share of a company that splits becomes a 10% share;
    # its owner gets no money for it and the markers come back
    g = ke_on_option()
    g.apply(Pass("B"))
    g.apply(BuyShares("C", "KE", "treasury", 20))
    g.apply(Pass("A"))
    g.apply(BuyShares("B", "KE", "treasury", 20))
    passes(g, "C", "A", "B")  # KE sold out: 67 -> 72
    g.state.market.move_to("KE", (2, 4))  # where dividends would have taken it (89)
    second_round(g)
    before = cash(g)
    passes(g, "C", "A", "B")  # sold out again: 89 -> 95, a split space
    s = g.state
    assert state_of(g).split == ["KE"] and option(g, "A") is None
    assert [c.percent for c in s.shares.held("A", "KE")] == [10]
    # compensation (P2): C 3 x 95, B 1 x 95, A nothing; then the Mountain Railways' income
    assert cash(g) == [before[0] + 25, before[1] + 95 + 35, before[2] + 285 + 15]
