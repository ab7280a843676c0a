"""1849 rules on emergency raising, bankruptcy, AFG's wait, re-stacking after sales and the
last-certificate swap (rulings R22, R23; rule details §3.7, §3.8, §5.5, §5.10). Positions are
built as in test_1849_paragraphs.py (whose helpers are reused)."""

from __future__ import annotations

from test_1849_paragraphs import (
    _emergency,
    _fill_afg_homes_but_c1,
    assert_rejected,
    at,
    auto_until,
    give_certs,
    in_stock_round,
    op_round,
    opening,
    scrap,
    second_stock_round,
    stock_round,
    where,
)
from tresham.core.actions import (
    Bankrupt,
    BuyShares,
    Choose,
    Par,
    Pass,
    PlaceToken,
    SellShares,
)
from tresham.core.shares import POOL


# 1849 §Trouble: "the president adds cash, then sells stock until it is enough" (rule
# details §5.10: "a bundle is allowed only if the next-smaller bundle would not cover the
# shortfall, so no overselling").
def test_emergency_sales_do_not_oversell() -> None:
    g = _emergency(0, 90)  # the 4H costs 100: Bob is L.10 short
    price = g.state.market.price("CTL")
    assert price >= 10  # one 10% of CTL covers the shortfall
    assert SellShares("CTL", "CTL", 10) in g.legal_actions()
    assert SellShares("CTL", "CTL", 20) not in g.legal_actions()
    assert_rejected(g, SellShares("CTL", "CTL", 20))


# 1849 §Trouble: "Still short → it all goes to the treasury and the corporation closes. A
# president left with no stock quits on L. 0, or takes a L. 500 loan" — the president's
# stock is sold for the corporation before it closes (rule details §5.10, bankruptcy step 1:
# the highest legal bundle in each corporation is sold, the cash goes to the corporation).
def test_bankruptcy_sells_the_presidents_remaining_stock() -> None:
    g = second_stock_round()
    give_certs(g, "CTL", "Bob", 1)  # Bob 30% of CTL, Ann 30%: Bob cannot sell CTL
    give_certs(g, "CTL", "Ann", 2)
    give_certs(g, "IFT", "Bob", 1)  # Bob 10% of IFT (L.90): not enough for a 6H
    auto_until(g, at("CTL:issue"))
    g.apply(Pass("CTL"))
    ctl = g.state.corps["CTL"]
    scrap(g, *ctl.trains)
    ctl.trains.clear()
    scrap(g, "4H-1", "4H-2", "4H-3")  # the cheapest train is a 6H at 200
    ctl.cash = 0
    g.player("Bob").cash = 0
    assert Bankrupt("CTL") in g.legal_actions()
    g.apply(Bankrupt("CTL"))
    assert g.state.shares.percent("Bob", "IFT") == 0
    assert g.state.shares.percent(POOL, "IFT") == 10
    assert g.player("Bob").cash == 0  # the IFT money went to CTL's treasury, then out
    assert where(g) == "loan" and g.active_entity() == "Bob"


# 1849 §SR Starting a corporation: "Garibaldi picks its home from five cities; if all are
# full it waits, and returns last in the order." (Rule details §5.5: after the token that
# fills the last of them, AFG moves to the end of the order at once, whether or not it is
# the next to start.)
def test_afg_returns_last_as_soon_as_its_cities_are_full() -> None:
    g = opening()
    for who in ("Cid", "Ann", "Bob"):
        g.apply(Pass(who))
    auto_until(g, at("CTL:token"))
    _fill_afg_homes_but_c1(g)
    g.apply(PlaceToken("CTL", "C1", 0))  # all five AFG cities are now full
    auto_until(g, in_stock_round)
    assert stock_round(g).order == ["Cid", "Ann", "Bob"]
    g.apply(Par("Cid", "IFT", 68))
    g.apply(Pass("Cid"))
    g.apply(Par("Ann", "SFA", 68))
    g.apply(Pass("Ann"))
    # AFG waits: the next corporation to start is RCS
    assert Par("Bob", "RCS", 68) in g.legal_actions()


# Rule details §3.8 (summary and rulings silent; the project follows 18xx.games, §11 item 13):
# when sales in one turn move two or more corporations, every shared market cell is
# re-stacked: corporations not sold keep their order on top, the sold ones follow in the
# operating order they had when the turn began.
def test_restacking_after_selling_two_corporations_in_one_turn() -> None:
    g = second_stock_round()
    pos = g.state.market.position("CTL")
    assert g.state.market.stack(pos) == ("CTL", "IFT")  # CTL operates before IFT
    g.apply(Pass("Bob"))
    g.apply(Pass("Cid"))
    g.apply(SellShares("Ann", "IFT", 10))
    g.apply(SellShares("Ann", "CTL", 10))  # both land in the cell below, IFT first
    below = g.state.market.position("CTL")
    assert below == g.state.market.position("IFT") == (pos[0] + 1, pos[1])
    assert g.state.market.stack(below) == ("CTL", "IFT")
    g.apply(Pass("Ann"))  # done with the turn
    for who in ("Bob", "Cid", "Ann"):  # a full round of passes ends the stock round
        g.apply(Pass(who))
    assert op_round(g).order == ["CTL", "IFT"]


# Rule details §3.7 (summary silent): when the new president holds the 20% last certificate
# and 40% or more, that certificate is handed over by default and the outgoing president
# chooses between it and two 10% certificates.
def test_outgoing_president_chooses_the_swap_for_the_last_certificate() -> None:
    g = opening()
    give_certs(g, "CTL", "Ann", 1, last=True)  # Ann: the last 20% and a 10%
    g.apply(Pass("Cid"))
    g.apply(BuyShares("Ann", "CTL", "treasury", 10))  # Ann 40% against Bob's 20%
    reg = g.state.shares
    assert reg.president["CTL"] == "Ann"
    assert [(c.percent, c.last) for c in reg.held("Bob", "CTL")] == [(20, True)]
    choices = g.legal_actions()
    assert g.active_entity() == "Bob"
    assert len(choices) == 2 and all(isinstance(a, Choose) for a in choices)
    outcomes = set()
    for choice in choices:
        c = g.clone()
        c.apply(choice)
        outcomes.add(tuple(sorted(x.percent for x in c.state.shares.held("Bob", "CTL"))))
    assert outcomes == {(20,), (10, 10)}


# Ruling R23: each answer says what it exchanges and with whom (not only "One 20% cert")
def test_the_swap_answers_say_what_they_exchange() -> None:
    from tresham.words import Words

    g = opening()
    give_certs(g, "CTL", "Ann", 1, last=True)
    g.apply(Pass("Cid"))
    g.apply(BuyShares("Ann", "CTL", "treasury", 10))
    texts = sorted(Words(g).text(a) for a in g.legal_actions())
    assert texts == [
        "Give Ann the 20% last certificate of CTL back for two of Ann's 10% certificates",
        "Keep the 20% last certificate of CTL that Ann gave you for the president's certificate",
    ]
