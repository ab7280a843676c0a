"""1854 Share Buying Rounds after the first (§6) and the Mountain Railways' income (§5.1).

The Operating Rounds are not built (docs/rulings/1854.md F6): a game stops once the first
Share Buying Round is over and the Mountain Railways have paid. To play a second Share Buying
Round these tests start it with the title's own ``new_share_round`` from that position, as if
the Operating Round in between had changed nothing but the Mountain Railways' income."""

from __future__ import annotations

import random

from helpers_1854 import (
    TITLE,
    after_first_round,
    cash,
    game,
    in_operating_round,
    passes,
    rejected,
    second_round,
    sell_all_privates,
)
from tresham.core.actions import Bid, BuyShares, Par, Pass, SellShares
from tresham.core.game import Game
from tresham.core.shares import POOL
from tresham.core.stock import player_certs


# ------------------------------------------------------------------ §5.1, §6.2, §4
def test_end_of_the_first_round_rise_priority_and_mountain_income() -> None:
    # 1854 §6.2: all of KE in players' hands: up-right from 67 to 72; §4: Priority Deal to
    # the left of the last buyer (A -> B); §5.1 / Table 2: the Operating Round begins with the
    # Mountain Railways' income: A 5 + 20, B 10 + 25, C 15; the Local Railways pay nothing
    g = after_first_round()
    s = g.state
    assert s.market.price("KE") == 72 and s.market.position("KE") == (4, 2)
    assert s.priority == 1
    assert cash(g) == [860 - 490 - 268 + 25, 860 - 540 + 35, 860 - 370 - 268 - 134 + 15]
    assert in_operating_round(g) and s.operating_round_no == 1


def test_no_rise_with_shares_in_the_initial_offering() -> None:
    # 1854 §6.2: only a company whose shares are all in players' hands rises
    g = game()
    sell_all_privates(g)
    g.apply(Par("C", "KE", 67))
    g.apply(BuyShares("A", "KE", "treasury", 20))
    passes(g, "B", "C", "A")
    assert g.state.corps["KE"].floated and g.state.market.price("KE") == 67


# ------------------------------------------------------------------ §6.1, §6.7, §6.8
def test_the_priority_holder_begins_and_may_sell() -> None:
    # 1854 §6.1: the holder of the Priority Deal card begins; §6.3: sell, then buy one
    g = after_first_round()
    second_round(g)
    assert g.active_entity() == "B"
    g.apply(Pass("B"))
    legal = g.legal_actions()
    assert SellShares("C", "KE", 20) in legal  # C's ordinary 20%
    assert SellShares("C", "KE", 40) in legal  # below A's 40%: A takes the Director's role


def test_a_sale_pays_the_price_before_it_then_drops_per_certificate() -> None:
    # 1854 §6.7: the price immediately prior to the sale; §6.8: one space down-left per
    # certificate, whatever its size; §6.4: not bought back in the same round
    g = after_first_round()
    second_round(g)
    g.apply(Pass("B"))
    before = cash(g)[2]
    g.apply(SellShares("C", "KE", 20))
    s = g.state
    assert cash(g)[2] == before + 2 * 72
    assert s.market.price("KE") == 67  # (4, 2) -> (5, 2)
    assert [c.percent for c in s.shares.held(POOL, "KE")] == [20]
    assert not any(isinstance(a, BuyShares) and a.corporation == "KE" for a in g.legal_actions())
    rejected(g, BuyShares("C", "KE", POOL, 20), "§6")


def test_a_director_selling_below_another_hands_the_certificate_over() -> None:
    # 1854 §6.6.1: the old Director gives the 40% certificate to the new one for ordinary
    # shares of the same percentage, then sells; §6.8: two certificates, two spaces
    g = after_first_round()
    second_round(g)
    g.apply(Pass("B"))
    before = cash(g)[2]
    g.apply(SellShares("C", "KE", 40))
    s = g.state
    assert s.shares.president["KE"] == "A"
    assert [c.percent for c in s.shares.held("A", "KE")] == [40]
    assert [c.percent for c in s.shares.held("C", "KE")] == [20]
    assert cash(g)[2] == before + 4 * 72
    assert s.market.price("KE") == 62  # 72 -> 67 -> 62


def test_the_director_certificate_is_never_sold() -> None:
    # 1854 §6.7: the Director's certificate only changes hands as in §6.6.1; a Director
    # whom nobody can replace (A holds 40% as Director, C 20%) sells nothing below that
    g = after_first_round()
    second_round(g)
    g.apply(Pass("B"))
    g.apply(SellShares("C", "KE", 40))
    g.apply(Pass("C"))
    assert g.active_entity() == "A"
    assert not any(isinstance(a, SellShares) for a in g.legal_actions())
    rejected(g, SellShares("A", "KE", 20), "§6")


def test_pool_shares_sell_at_the_current_price() -> None:
    # 1854 §6 and §6.4: an old certificate from the Bank Pool at its current price
    g = after_first_round()
    second_round(g)
    g.apply(Pass("B"))
    g.apply(SellShares("C", "KE", 20))
    g.apply(Pass("C"))
    g.apply(Pass("A"))
    bank = g.state.bank.cash
    before = cash(g)[1]
    g.apply(BuyShares("B", "KE", POOL, 20))
    assert cash(g)[1] == before - 2 * 67 and g.state.bank.cash == bank + 134
    assert g.state.shares.percent("B", "KE") == 20


def test_a_round_without_transactions_leaves_the_priority() -> None:
    # 1854 §6.1: no transactions: the Priority Deal card stays; the sold-out KE rises again
    # (§6.2) and the Mountain Railways pay again (§5.1)
    g = after_first_round()
    second_round(g)
    money = cash(g)
    passes(g, "B", "C", "A")
    s = g.state
    assert in_operating_round(g) and s.priority == 1
    assert s.market.price("KE") == 77  # (4, 2) -> (3, 2)
    assert cash(g) == [money[0] + 25, money[1] + 35, money[2] + 15]


def test_priority_goes_left_of_the_last_seller() -> None:
    # 1854 §6.1: "to the left of the last player to either buy or sell"
    g = after_first_round()
    second_round(g)
    g.apply(Pass("B"))
    g.apply(SellShares("C", "KE", 20))
    passes(g, "C", "A", "B", "C")
    assert g.state.priority == 0  # A, left of C


# ------------------------------------------------------------------ leftover privates
def test_leftover_privates_are_bought_at_face_value_only() -> None:
    # 1854 §4 "Bids are not accepted on Private Company certificates from previous Share
    # Buying Rounds" and §6.4 "As long as Private Companies are for sale ... these are the
    # only certificates one can buy" (ruling F8)
    g = game()
    g.apply(Pass("A"))
    g.apply(Bid("B", "P1", 20))
    g.apply(Bid("C", "P3", 75))
    passes(g, "A", "B", "C")  # no company floated: the Operating Round has nothing to do
    assert g.state.stock_round_no == 2
    assert g.active_entity() == "C"
    assert g.legal_actions() == [Bid("C", "P2", 50), Pass("C")]
    rejected(g, Bid("C", "P3", 75), "§6")
    rejected(g, Par("C", "KE", 67), "§6")
    g.apply(Bid("C", "P2", 50))
    assert g.state.companies["P2"].owner == "C"
    assert g.legal_actions() == [Bid("A", "P3", 70), Pass("A")]  # C's old bid has lapsed


# ------------------------------------------------------------------ random play
def test_random_second_rounds_keep_money_and_certificates() -> None:
    # every legal action of a second Share Buying Round applies; money is conserved, each
    # company stays at 100%, no Director's certificate reaches the pool
    for seed in range(25):
        rng = random.Random(seed)
        g = Game(TITLE, list("ABCDEF"[: 3 + seed % 4]), seed)
        while not in_operating_round(g):
            g.apply(rng.choice(g.legal_actions()))
        second_round(g)
        while not in_operating_round(g):
            g.apply(rng.choice(g.legal_actions()))
        s = g.state
        money = sum(cash(g)) + s.bank.cash + sum(c.cash for c in s.corps.values())
        assert money == 9672
        for sym in s.corps:
            assert sum(s.shares.holders(sym).values()) == 100
            assert not any(c.president for c in s.shares.held(POOL, sym))


# ------------------------------------------------------------------ §6.5, §6.8 at the bottom
def test_orange_spaces_and_the_bottom_edge() -> None:
    # 1854 §6.8: one space down-left per certificate; at the bottom edge no further;
    # §6.5: shares of a company on an orange space do not count towards the Share Limit
    g = after_first_round()
    second_round(g)
    g.apply(Pass("B"))
    g.apply(SellShares("C", "KE", 20))  # 72 -> 67
    g.apply(Pass("C"))
    assert player_certs(g, "C") == 4  # P3, L3, L6 and KE's Director's certificate
    g.apply(SellShares("A", "KE", 40))  # two certificates: 67 -> 62 -> 57
    s = g.state
    assert s.market.price("KE") == 57 and s.market.cell("KE").has("no_cert_limit")
    assert player_certs(g, "C") == 3  # KE on an orange space no longer counts
    g.apply(Pass("A"))
    g.apply(BuyShares("B", "KE", POOL, 20))  # 2 x 57
    passes(g, "C", "A")
    g.apply(SellShares("B", "KE", 20))
    assert s.market.price("KE") == 57  # the bottom edge: it stays
