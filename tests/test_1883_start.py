"""1883 set-up, the private auction (both worked examples of §3.2) and the stock round,
played through the public API; each test names its rulebook paragraph."""

from __future__ import annotations

import pytest

from positions import asked
from rejections import rejected
from tresham.core.actions import Bid, BuyShares, Par, Pass, SellShares
from tresham.core.game import Game
from tresham.core.rounds.auction import WaterfallAuction
from tresham.core.rounds.stock import StockRound
from tresham.core.shares import POOL, treasury
from tresham.titles.t1883.actions import BuyConcession, BuySupport
from tresham.titles.t1883.rules import Title1883
from tresham.titles.t1883.state import state_of

ABCD = ["A", "B", "C", "D"]
TITLE = Title1883()


def game(players: list[str] = ABCD, seed: int = 1) -> Game:
    return Game(TITLE, players, seed)


def auction(g: Game) -> WaterfallAuction:
    assert isinstance(g.state.round, WaterfallAuction)
    return g.state.round


# 1883 §2.2 / §2.2.1: bank L.11,000; L.800/550/400; a 10% CCFR share and one Political
# Support card each; §8.1.1 the Co-operative's token on its nominal L.100
@pytest.mark.parametrize(("n", "cash"), [(2, 800), (3, 550), (4, 400)])
def test_setup(n: int, cash: int) -> None:
    g = game(ABCD[:n])
    s = g.state
    assert [p.cash for p in s.players] == [cash] * n
    assert s.bank.cash == 11_000 - n * cash
    assert all(s.shares.percent(p, "CCFR") == 10 for p in ABCD[:n])
    assert state_of(g).support.held == {p: 1 for p in ABCD[:n]}
    assert s.market.price("CCFR") == 100
    assert "SEFTA" not in s.corps  # formed only by the merger (§5.3.5)


# 1883 §3.2.1 EXAMPLE, step by step with the rulebook's numbers
def test_auction_example_one() -> None:
    g = game()
    g.apply(Bid("A", "CNP", 65))
    g.apply(Bid("B", "FRV", 45))
    rejected(g, Bid("C", "CNP", 65), "§3.2")  # at least L.5 over the highest bid
    g.apply(Bid("C", "CNP", 70))
    g.apply(Bid("D", "TCB", 20))  # D buys the TCB at face value
    s = g.state
    # FRV has B's single bid: B takes it for 45; CNP has two bids: an auction between them
    assert s.companies["FRV"].owner == "B"
    assert g.active_entity() == "A"  # the lowest bidder raises first
    g.apply(Bid("A", "CNP", 75))
    g.apply(Bid("C", "CNP", 80))
    g.apply(Pass("A"))
    assert s.companies["CNP"].owner == "C"
    # TMM has no bids: offered to A (the priority did not move while the bids resolved)
    assert g.active_entity() == "A"
    assert Bid("A", "TMM", 80) in g.legal_actions()
    g.apply(Bid("A", "FCV", 105))
    g.apply(Bid("B", "TMM", 80))
    assert s.companies["TMM"].owner == "B"
    assert s.companies["FCV"].owner == "A"  # A's single bid wins FCV
    # FSF is offered to C at its face value
    assert g.active_entity() == "C"
    assert Bid("C", "FSF", 150) in g.legal_actions()
    assert [p.cash for p in s.players] == [400 - 105, 400 - 45 - 80, 400 - 80, 400 - 20]
    # §3.1 P4, P5: the TMM and FCV bring 10% of FMV and FBV
    assert s.shares.percent("B", "FMV") == 10
    assert s.shares.percent("A", "FBV") == 10


# 1883 §3.2.2 EXAMPLE: a full round of passes suspends the auction; owned privates pay
def test_auction_example_two() -> None:
    g = game()
    g.apply(Bid("A", "TMM", 85))
    g.apply(Bid("B", "FCV", 105))
    g.apply(Bid("C", "TCB", 20))
    assert g.active_entity() == "D"
    assert Bid("D", "FRV", 40) in g.legal_actions()
    c_cash = g.player("C").cash
    for who in ("D", "A", "B", "C"):
        g.apply(Pass(who))
    assert g.player("C").cash == c_cash + 5  # TCB's revenue
    assert g.active_entity() == "D"
    assert Bid("D", "FRV", 40) in g.legal_actions()
    assert auction(g).bids["TMM"] == {"A": 85} and auction(g).bids["FCV"] == {"B": 105}


# 1883 §3.2.2: the unsold TCB drops L.5 a round of passes; at L.0 the player with the
# priority receives it free and the auction goes on with the player to their left
def test_tcb_drops_to_free() -> None:
    g = game()
    for price in (15, 10, 5):
        for who in ABCD:
            g.apply(Pass(who))
        assert auction(g).price(g, "TCB") == price
    for who in ABCD:
        g.apply(Pass(who))
    assert g.state.companies["TCB"].owner == "A"
    assert g.player("A").cash == 400
    # "... and the auction will go on with the player to their left": B is offered the FRV
    assert g.active_entity() == "B"


def sell_privates(g: Game) -> None:
    """A: TCB, B: FRV, C: CNP, D: TMM, A: FCV, B: FSF (floated at 100)."""
    for who, comp, price in (
        ("A", "TCB", 20),
        ("B", "FRV", 40),
        ("C", "CNP", 60),
        ("D", "TMM", 80),
        ("A", "FCV", 100),
        ("B", "FSF", 150),
    ):
        g.apply(Bid(who, comp, price))
    g.apply(Par("B", "FSF", 100))


# 1883 §3.1 P6: the FSF buyer takes the 20% president's certificate and sets the par price
# at once; the bank pays 2 x par into the FSF's treasury; the FSF private closes
def test_fsf_presidency() -> None:
    g = game()
    for who, comp, price in (
        ("A", "TCB", 20),
        ("B", "FRV", 40),
        ("C", "CNP", 60),
        ("D", "TMM", 80),
        ("A", "FCV", 100),
        ("B", "FSF", 150),
    ):
        g.apply(Bid(who, comp, price))
    assert g.active_entity() == "B" and g.state.pending == [("fsf_par", "B")]
    assert asked(g) == (
        "B bought the Ferrovia Suzzara Ferrara Presidency, which brings the FSF's president's "
        "certificate: B sets the FSF's par price, the bank paying its treasury (3.1)"
    )
    assert {a.price for a in g.legal_actions() if isinstance(a, Par)} == {65, 85, 100}
    rejected(g, Par("B", "FSF", 110))  # 110 only from phase 3
    g.apply(Par("B", "FSF", 100))
    s = g.state
    assert s.shares.president["FSF"] == "B" and s.shares.percent("B", "FSF") == 20
    assert s.corps["FSF"].cash == 200 and s.corps["FSF"].floated
    assert s.companies["FSF"].closed
    assert s.market.price("FSF") == 100
    assert isinstance(s.round, StockRound)


def in_sr() -> Game:
    g = game()
    sell_privates(g)
    return g


def later_round(g: Game, player: str) -> StockRound:
    """A later stock round (sales allowed), at `player`'s turn."""
    g.state.stock_round_no = 2
    rnd = g.state.round
    assert isinstance(rnd, StockRound)
    rnd.index = rnd.order.index(player)
    return rnd


# 1883 §5.3.3-5.3.4: floating at 65/85/100; the president pays 2 x par into the treasury; FMV
# also receives par for the share that came with the TMM
def test_floating_and_fmv_bonus() -> None:
    g = in_sr()
    who = g.active_entity()
    assert {a.price for a in g.legal_actions() if isinstance(a, Par)} == {65, 85, 100}
    g.apply(Par(who, "FMV", 85))
    s = g.state
    assert s.corps["FMV"].cash == 2 * 85 + 85  # D's TMM share pays par too
    assert s.market.price("FMV") == 85 and s.corps["FMV"].par_price == 85
    assert s.map.has_token("FMV", "S7", 0)


# 1883 §5.3.1/5.3.2: the initial offering sells at par to the treasury; the pool at market
# to the bank
def test_buy_from_initial_offering_at_par() -> None:
    g = in_sr()
    first = g.active_entity()
    g.apply(Par(first, "SAFRE", 65))
    nxt = g.active_entity()
    assert nxt != first
    cash = g.player(nxt).cash
    g.apply(BuyShares(nxt, "SAFRE", "treasury", 10))
    assert g.player(nxt).cash == cash - 65
    assert g.state.corps["SAFRE"].cash == 3 * 65


# 1883 §5.2: no stock may be sold in the first stock round
def test_no_selling_in_the_first_stock_round() -> None:
    g = in_sr()
    who = g.active_entity()
    assert not [a for a in g.legal_actions() if isinstance(a, SellShares)]
    rejected(g, SellShares(who, "CCFR", 10))


# 1883 §8.1.3: the Co-operative's shares are neither bought nor sold before capitalisation
def test_coop_shares_are_not_traded() -> None:
    g = in_sr()
    assert not [a for a in g.legal_actions() if getattr(a, "corporation", "") == "CCFR"]


# 1883 §5.4 table: 16/21/32 certificates at 4/3/2 players with 8 corporations
@pytest.mark.parametrize(("n", "limit"), [(2, 32), (3, 21), (4, 16)])
def test_certificate_limit(n: int, limit: int) -> None:
    g = game(ABCD[:n])
    assert TITLE.cert_limit(g) == limit


# 1883 §5.5 table: cards cost 5, 10, 20, ... 100; nine at most; buying one ends the turn
def test_political_support_costs() -> None:
    g = in_sr()
    who = g.active_entity()
    assert TITLE.support_cost(g, who) == 10  # already owns one
    cash = g.player(who).cash
    g.apply(BuySupport(who))
    assert g.player(who).cash == cash - 10
    assert state_of(g).support.held[who] == 2
    assert g.active_entity() != who
    state_of(g).support.held[who] = 9
    assert TITLE.support_cost(g, who) is None
    costs = [5, 10, 20, 30, 40, 50, 60, 80, 100]
    for owned, cost in enumerate(costs):
        state_of(g).support.held[who] = owned
        assert TITLE.support_cost(g, who) == cost


# 1883 §5.6: a concession only for a corporation floated in an earlier stock round
def test_concession_needs_a_corporation_from_an_earlier_round() -> None:
    g = in_sr()
    assert not [a for a in g.legal_actions() if isinstance(a, BuyConcession)]
    state_of(g).started_in_sr["FSF"] = 0  # as if floated before this round
    s = g.state
    later_round(g, "B")
    buys = [a for a in g.legal_actions() if isinstance(a, BuyConcession)]
    assert {a.concession for a in buys} == set(range(1, 9))
    cash = s.corps["FSF"].cash
    g.apply(BuyConcession("B", "FSF", 1))
    assert s.corps["FSF"].cash == cash - 15
    assert state_of(g).concessions.status["1"].owner == "FSF"
    assert state_of(g).concessions.status["1"].due == 2
    later_round(g, "B")
    assert not [a for a in g.legal_actions() if isinstance(a, BuyConcession)]  # one per SR


# 1883 §8.3.3 EXAMPLE: 40% FSF + 20% FBV allows 30% SARSA; 30% FBV (+ the CCFR share) 10%
def test_sarsa_allowance_example() -> None:
    g = in_sr()
    reg = g.state.shares
    for c in [c for c in reg.held(treasury("FBV"), "FBV") if not c.president][:2]:
        reg.move(c.cid, "C")
    fsf = [c for c in reg.held(treasury("FSF"), "FSF")][:2]
    for c in fsf:
        reg.move(c.cid, "C")
    reg.move("FSF_0", "C")  # C: 40% FSF, 20% FBV
    assert TITLE.sarsa_allowance(g, "C") == 30
    for c in [c for c in reg.held(treasury("FBV"), "FBV") if not c.president][:2]:
        reg.move(c.cid, "D")
    reg.move(next(c.cid for c in reg.held(treasury("FBV"), "FBV") if not c.president), "D")
    for c in reg.held("D", "FMV"):  # the example's player B holds nothing else
        reg.move(c.cid, treasury("FMV"))
    assert reg.percent("D", "FBV") == 30 and reg.percent("D", "CCFR") == 10
    assert TITLE.sarsa_allowance(g, "D") == 10


# 1883 §8.3.3: a player cannot pass while over the 1:2 rate and able to sell SARSA; ruling R2:
# where no sale of SARSA is possible the pass is allowed (the game must go on)
def test_cannot_pass_over_the_sarsa_rate() -> None:
    g = in_sr()
    s = g.state
    later_round(g, "B")  # B holds the FSF president's 20%: SARSA up to 10%
    s.corps["SARSA"].parred = s.corps["SARSA"].floated = True
    s.corps["SARSA"].par_price = 65
    s.market.place("SARSA", next(c.pos for c in TITLE.market_def.cells_with("par")))
    for cid in ("SARSA_0", "SARSA_1"):
        s.shares.move(cid, "B")
    s.shares.president["SARSA"] = "B"
    assert Pass("B") not in g.legal_actions()
    rejected(g, Pass("B"), "§8.3.3")
    g.apply(SellShares("B", "SARSA", 10))
    assert s.shares.percent("B", "SARSA") == 20  # the president's certificate cannot go
    assert Pass("B") in g.legal_actions()


# 1883 §5.2 EXAMPLE: selling 1 SAFRE at 80, 2 FSMMF at 85 and 1 SV at 90 pays L.340; SAFRE
# drops to 75, FSMMF to 80 (the bottom of its column), SV stays at 90 (already the bottom)
def test_sale_example() -> None:
    g = in_sr()
    s = g.state
    seller = "C"
    for sym, pos in (("SAFRE", (2, 5)), ("FSMMF", (3, 7)), ("SV", (4, 9))):
        s.market.place(sym, pos)
        s.corps[sym].parred = s.corps[sym].floated = True
        s.shares.move(f"{sym}_0", "D")
        s.shares.president[sym] = "D"
    for cid in ("SAFRE_1", "FSMMF_1", "FSMMF_2", "SV_1"):
        s.shares.move(cid, seller)
    s.stock_round_no = 2
    rnd = s.round
    assert isinstance(rnd, StockRound)
    rnd.index = rnd.order.index(seller)
    cash = g.player(seller).cash
    g.apply(SellShares(seller, "SAFRE", 10))
    g.apply(SellShares(seller, "FSMMF", 20))
    g.apply(SellShares(seller, "SV", 10))
    assert g.player(seller).cash == cash + 340
    assert [s.market.price(x) for x in ("SAFRE", "FSMMF", "SV")] == [75, 80, 90]
    assert s.shares.percent(POOL, "FSMMF") == 20


# 1883 §5.2 EXAMPLE: with 40% SV and 10% FMV already in the pool, a player wanting to sell
# two SV and one FMV can sell only one SV (the pool reaches 50%) and the FMV
def test_pool_limit_example() -> None:
    g = in_sr()
    s = g.state
    seller = "C"
    for sym, pos in (("SV", (2, 5)), ("FMV", (2, 6))):
        s.market.place(sym, pos)
        s.corps[sym].parred = s.corps[sym].floated = True
        s.shares.move(f"{sym}_0", "D")
        s.shares.president[sym] = "D"
    for cid in ("SV_1", "SV_2", "SV_3", "SV_4", "FMV_1"):
        s.shares.move(cid, POOL)
    for cid in ("SV_5", "SV_6", "FMV_2"):
        s.shares.move(cid, seller)
    later_round(g, seller)
    sales = {(a.corporation, a.percent) for a in g.legal_actions() if isinstance(a, SellShares)}
    assert ("SV", 10) in sales and ("SV", 20) not in sales
    assert ("FMV", 10) in sales
    rejected(g, SellShares(seller, "SV", 20), "may sell 10% of SV now")


# 1883 §5.3: a player who sold a corporation may not buy it again this round; after selling
# and then buying, the turn ends (no sell, buy, sell)
def test_sold_cannot_buy_and_sell_buy_ends_the_turn() -> None:
    g = in_sr()
    s = g.state
    g.apply(Par(g.active_entity(), "SAFRE", 65))
    for cid in ("FSF_1", "FSF_2"):
        s.shares.move(cid, "A")
    later_round(g, "A")
    g.apply(SellShares("A", "FSF", 10))
    assert BuyShares("A", "FSF", "pool", 10) not in g.legal_actions()
    rejected(g, BuyShares("A", "FSF", "pool", 10), "§5")
    g.apply(BuyShares("A", "SAFRE", "treasury", 10))
    assert g.active_entity() != "A"


# 1883 §5.1 option 5: buy a single stock, then sell any number (the one just bought too)
def test_buy_then_sell() -> None:
    g = in_sr()
    later_round(g, "D")
    g.apply(BuyShares("D", "FSF", "treasury", 10))
    assert g.active_entity() == "D"
    assert SellShares("D", "FSF", 10) in g.legal_actions()
    assert not [a for a in g.legal_actions() if isinstance(a, BuyShares)]
    g.apply(SellShares("D", "FSF", 10))
    assert g.active_entity() == "D"
    g.apply(Pass("D"))
    assert g.active_entity() != "D"


# 1883 §5.3: at most 60% of one corporation
def test_sixty_percent_cap() -> None:
    g = in_sr()
    s = g.state
    for cid in ("FSF_1", "FSF_2", "FSF_3", "FSF_4"):
        s.shares.move(cid, "B")  # B: 20% + 40% = 60%
    later_round(g, "B")
    assert not [
        a
        for a in g.legal_actions()
        if getattr(a, "corporation", "") == "FSF" and isinstance(a, BuyShares)
    ]
    rejected(g, BuyShares("B", "FSF", "treasury", 10))


# 1883 §5.7.2: at the end of a stock round every corporation wholly in players' hands moves
# up a row; §8.1.2 the first Co-operative president: most railway presidencies first
def test_end_of_first_stock_round() -> None:
    g = in_sr()
    s = g.state
    for cid in [c.cid for c in s.shares.held(treasury("FSF"), "FSF")]:
        s.shares.move(cid, "C")
    before = s.market.price("FSF")
    TITLE.end_of_stock_round(g)
    assert s.market.price("FSF") > before
    assert state_of(g).coop_president == "B"  # B alone presides a railway (FSF)
