"""1854 set-up (§2) and the first Share Buying Round (§4), played through the public API.

Each test names the paragraph it checks (shared/rules/1854-rulebook.txt) and the rulings of
docs/rulings/1854.md it relies on. §4 prints no worked example; the scenarios below use the
rulebook's own numbers (prices, the 5 G steps, Table 1's capital)."""

from __future__ import annotations

import random

import pytest

from helpers_1854 import (
    ORDER,
    TITLE,
    cash,
    game,
    in_operating_round,
    passes,
    rejected,
    sell_all_privates,
)
from tresham.core.actions import Bid, BuyShares, Par, Pass, SellShares, action_from_json
from tresham.core.errors import NotYourTurnError, RuleError
from tresham.core.game import Game
from tresham.core.rounds.stock import StockRound
from tresham.core.shares import POOL, treasury
from tresham.titles.t1854.actions import RetractBid
from tresham.titles.t1854.first_round import FirstShareRound

FACE = [20, 50, 70, 150, 150, 150, 150, 150, 150, 170, 190]


def first_round(g: Game) -> FirstShareRound:
    assert isinstance(g.state.round, FirstShareRound)
    return g.state.round


# ------------------------------------------------------------------ §2 set-up
@pytest.mark.parametrize(("n", "capital"), [(3, 860), (4, 650), (5, 525), (6, 450)])
def test_starting_capital_table_1(n: int, capital: int) -> None:
    # 1854 §2.3 Table 1; §1.1 the bank's 9672 G (ruling D1)
    g = game(n)
    assert cash(g) == [capital] * n
    assert g.state.bank.cash == 9672 - n * capital


@pytest.mark.parametrize("n", [2, 7])
def test_three_to_six_players(n: int) -> None:
    # 1854 §2.3 Table 1 gives capital for 3-6 players only
    with pytest.raises(RuleError) as info:
        Game(TITLE, [f"p{i}" for i in range(n)])
    assert info.value.rule == "setup"


def test_private_certificates_laid_out_in_table_2_order() -> None:
    # 1854 §2.4 / §4: the eleven private certificates in Table 2's order, all for sale
    g = game()
    assert list(g.state.companies) == ORDER
    assert [c.value for c in g.state.companies.values()] == FACE
    assert all(c.owner is None for c in g.state.companies.values())
    assert first_round(g).unsold == ORDER


def test_initial_offering_holds_40_and_three_20_percent_shares() -> None:
    # 1854 §2.4: Director's 40% and three 20% shares in the Initial Offering; the 10% shares
    # wait for a split; the Bank Pool is empty
    g = game()
    s = g.state
    majors = [sym for sym, c in s.corps.items() if c.kind == "major"]
    assert len(majors) == 8
    for sym in majors:
        certs = sorted((c.percent, c.president) for c in s.shares.held(treasury(sym), sym))
        assert certs == [(20, False)] * 3 + [(40, True)]
        assert not s.corps[sym].parred and s.shares.president[sym] is None
    assert s.shares.held(POOL) == []


def test_start_player_buys_the_top_certificate_or_bids_on_a_later_one() -> None:
    # 1854 §4: the Start Player (marker 1, the first seat: ruling F1) buys the topmost
    # certificate at its printed price or bids at least 5 G over a later one's price
    g = game()
    assert g.active_entity() == "A"
    legal = g.legal_actions()
    assert Bid("A", "P1", 20) in legal and Pass("A") in legal
    assert {a.company: a.price for a in legal if isinstance(a, Bid) and a.company != "P1"} == {
        c: v + 5 for c, v in zip(ORDER[1:], FACE[1:], strict=True)
    }
    rejected(g, Bid("A", "P1", 25), "§4")  # the top certificate sells at its price
    rejected(g, Bid("A", "P2", 50), "§4")  # a bid must be at least 5 G over the price
    rejected(g, Bid("A", "P2", 54), "§4")
    with pytest.raises(NotYourTurnError):
        g.apply(Bid("B", "P1", 20))


def test_buying_pays_the_bank_and_the_next_certificate_comes_up() -> None:
    # 1854 §4: "Money for certificates purchased is paid immediately to the bank"
    g = game()
    bank = g.state.bank.cash
    g.apply(Bid("A", "P1", 20))
    assert g.state.companies["P1"].owner == "A"
    assert cash(g) == [840, 860, 860] and g.state.bank.cash == bank + 20
    assert g.active_entity() == "B"
    assert Bid("B", "P2", 50) in g.legal_actions()  # Murtalbahn now on top


def test_bids_of_any_amount_at_least_5_more() -> None:
    # 1854 §4: "at least 5 G more than the printed price or the previous highest bid"
    # (ruling F2: the money is counted in single Gulden)
    g = game()
    g.apply(Bid("A", "P2", 57))
    rejected(g, Bid("B", "P2", 61), "§4")
    g.apply(Bid("B", "P2", 62))
    assert first_round(g).bids["P2"] == {"A": 57, "B": 62}


def test_bid_money_is_tied_up() -> None:
    # 1854 §4: "As long as you have the highest bid on a Private Company, the money you have
    # bid is tied up"
    g = game()
    g.apply(Bid("A", "P5", 845))  # A keeps 15 G free of 860
    passes(g, "B", "C")
    assert Bid("A", "P1", 20) not in g.legal_actions()
    rejected(g, Bid("A", "P1", 20), "§4")  # the Außerfernbahn costs 20 G: only 15 are free
    rejected(g, Bid("A", "P2", 55), "§4")
    assert cash(g)[0] == 860  # nothing paid for a bid


def test_an_outbid_player_may_retract_and_use_the_money() -> None:
    # 1854 §4: when outbid, let the bid stand or retract it "to use the money for something
    # else" (ruling F3: on one's own turn, before buying, bidding or passing)
    g = game()
    g.apply(Bid("A", "P5", 845))
    g.apply(Bid("B", "P5", 850))
    g.apply(Pass("C"))
    assert g.legal_actions().count(RetractBid("A", "P5")) == 1
    g.apply(RetractBid("A", "P5"))
    assert first_round(g).bids["P5"] == {"B": 850}
    assert g.active_entity() == "A"  # retracting does not use the turn
    g.apply(Bid("A", "P1", 20))  # the freed money buys the Außerfernbahn
    assert g.state.companies["P1"].owner == "A"


def test_the_highest_bid_cannot_be_retracted() -> None:
    # 1854 §4: only an outbid player may retract
    g = game()
    g.apply(Bid("A", "P2", 55))
    g.apply(Bid("B", "P2", 60))
    g.apply(Pass("C"))
    assert RetractBid("A", "P2") in g.legal_actions()
    g.apply(Pass("A"))
    rejected(g, RetractBid("B", "P2"), "§4")  # B's is the highest bid
    rejected(g, RetractBid("B", "P3"), "§4")  # no bid there at all


def test_aussenfernbahn_price_falls_5_each_full_pass_and_is_forced_at_0() -> None:
    # 1854 §4: all players pass with the Außerfernbahn unsold: it is offered 5 G cheaper;
    # the first player offered it for 0 G must take it. Bids on other certificates stand.
    g = game()
    g.apply(Bid("A", "P2", 55))
    passes(g, "B", "C", "A")
    rnd = first_round(g)
    assert rnd.price(g, "P1") == 15
    assert g.active_entity() == "B"
    assert Bid("B", "P1", 15) in g.legal_actions()
    passes(g, "B", "C")
    assert rnd.price(g, "P1") == 15  # two passes since B's were not all players
    passes(g, "A")
    assert rnd.price(g, "P1") == 10
    passes(g, "B", "C", "A", "B", "C", "A")
    # 5 G, then 0 G: the next player (B) is offered it for nothing and must take it
    assert g.state.companies["P1"].owner == "B"
    # A's single bid on the Murtalbahn then takes it at once (§4); B paid nothing
    assert g.state.companies["P2"].owner == "A"
    assert cash(g) == [805, 860, 860]
    # taking it was B's turn: the round goes on with C (ruling F9)
    assert g.active_entity() == "C"


def test_a_single_bid_takes_the_next_certificate_at_once() -> None:
    # 1854 §4: "the next certificate has attracted exactly one bid, the player who made the
    # bid immediately takes the certificate and pays the amount bid"
    g = game()
    g.apply(Pass("A"))
    g.apply(Bid("B", "P2", 60))
    g.apply(Bid("C", "P1", 20))
    assert g.state.companies["P2"].owner == "B"
    assert cash(g) == [860, 800, 840]
    assert g.active_entity() == "A"  # the turn order goes on
    assert Bid("A", "P3", 70) in g.legal_actions()


def test_auction_starts_with_the_lowest_bid_and_goes_clockwise() -> None:
    # 1854 §4: several bids: an auction. The lowest bidder starts, raising by at least 5 G
    # or passing; a passer is out; it goes on clockwise until one remains, who pays the bid
    g = game(4)
    passes(g, "A", "B")
    g.apply(Bid("C", "P2", 55))
    passes(g, "D", "A")
    g.apply(Bid("B", "P2", 60))
    g.apply(Pass("C"))
    g.apply(Bid("D", "P2", 65))
    g.apply(Bid("A", "P1", 20))  # the Außerfernbahn is sold: the Murtalbahn is auctioned
    assert g.active_entity() == "C"  # the lowest bid (55)
    assert [a for a in g.legal_actions() if isinstance(a, RetractBid)] == []
    rejected(g, Bid("C", "P2", 69), "§4")
    rejected(g, Bid("C", "P3", 75), "§4")  # only the auctioned certificate
    g.apply(Bid("C", "P2", 70))
    assert g.active_entity() == "D"  # clockwise from C, not B's lower bid
    g.apply(Pass("D"))  # D is out
    assert g.active_entity() == "B"
    g.apply(Bid("B", "P2", 75))
    assert g.active_entity() == "C"
    g.apply(Pass("C"))
    assert g.state.companies["P2"].owner == "B"
    assert cash(g) == [630, 575, 650, 650]
    assert g.active_entity() == "B"  # the turn after A's purchase


def test_share_limit_counts_certificates_and_bids() -> None:
    # 1854 §6.5 Table 7 (6 players, no split: 5 certificates) and ruling F4: a player may not
    # buy or bid once the certificates held plus the other certificates bid on reach it
    g = game(6)
    g.state.players[0].cash += 2000  # money is no object here: only the limit is tested
    for company in ["P1", "P2", "P3"]:
        g.apply(Bid("A", company, g.state.companies[company].value))
        passes(g, "B", "C", "D", "E", "F")
    g.apply(Bid("A", "L2", 155))
    passes(g, "B", "C", "D", "E", "F")
    g.apply(Bid("A", "L3", 155))
    passes(g, "B", "C", "D", "E", "F")
    # 3 held + 2 bids: A may only raise its own two bids
    assert {a.company for a in g.legal_actions() if isinstance(a, Bid)} == {"L2", "L3"}
    rejected(g, Bid("A", "L1", 150), "§6.5")
    rejected(g, Bid("A", "L4", 155), "§6.5")
    g.apply(Bid("A", "L2", 160))
    g.apply(Bid("B", "L1", 150))  # A's single bids then take L2 and L3
    owned = [c.sym for c in g.state.companies.values() if c.owner == "A"]
    assert owned == ["P1", "P2", "P3", "L2", "L3"]
    passes(g, "C", "D", "E", "F")
    assert not any(isinstance(a, Bid) for a in g.legal_actions())


def test_round_ends_when_all_pass_after_a_purchase() -> None:
    # 1854 §4: all pass in turn with a certificate bought: the first Share Buying Round ends
    # and the player left of the last buyer gets the Priority Deal card; an Operating Round
    # follows (§4). Standing bids lapse (ruling F8).
    g = game()
    g.apply(Pass("A"))
    g.apply(Bid("B", "P1", 20))
    g.apply(Bid("C", "P3", 75))
    passes(g, "A", "B")
    assert g.state.operating_round_no == 0
    g.apply(Pass("C"))
    assert g.state.operating_round_no == 1 and g.state.stock_round_no == 2
    assert g.state.priority == 2  # C, left of B
    assert cash(g) == [860, 840 + 5, 860]  # §5.1: the Außerfernbahn has paid its 5 G
    assert g.state.companies["P3"].owner is None


# ------------------------------------------------------------------ §4 the share part
def test_after_the_privates_the_director_share_at_four_times_par() -> None:
    # 1854 §4 / §6.4: once all 11 are sold, the majors' shares are on sale; the Director's
    # certificate costs four times the par price chosen: 67, 72, 77, 82, 87 or 93
    g = game()
    sell_all_privates(g)
    assert isinstance(g.state.round, StockRound)
    assert cash(g) == [860 - 490, 860 - 540, 860 - 370]
    assert g.active_entity() == "C"  # the turn passes on from B, who took the Semmeringbahn
    pars = {a.price for a in g.legal_actions() if isinstance(a, Par) and a.corporation == "KE"}
    assert pars == {67, 72, 77, 82, 87, 93}
    rejected(g, Par("C", "KE", 70), "§4")
    bank = g.state.bank.cash
    g.apply(Par("C", "KE", 93))
    assert cash(g)[2] == 490 - 372 and g.state.bank.cash == bank + 372
    assert g.state.shares.president["KE"] == "C"
    assert not g.state.corps["KE"].floated
    assert g.active_entity() == "A"  # one certificate per turn


def test_private_shares_and_floating_at_60_percent() -> None:
    # 1854 §3.1 Table 2: the Arlbergbahn's 20% VB, the Semmeringbahn's 20% SD; §6.6: at 60%
    # bought the company floats with 10 x par from the bank, its marker on the par space
    # (ruling F5: the private's share counts)
    g = game()
    sell_all_privates(g)
    s = g.state
    assert s.shares.percent("A", "VB") == 20 and s.shares.percent("B", "SD") == 20
    g.apply(Pass("C"))
    bank = s.bank.cash
    g.apply(Par("A", "VB", 67))  # 40% + the Arlbergbahn's 20%
    assert s.corps["VB"].floated and s.corps["VB"].cash == 670
    assert s.bank.cash == bank + 268 - 670
    assert s.market.price("VB") == 67 and s.market.cell("VB").has("par")
    g.apply(Par("B", "KE", 72))
    assert not s.corps["KE"].floated and "KE" not in s.market
    g.apply(BuyShares("C", "KE", "treasury", 20))  # 144 G: 60% of KE bought
    assert cash(g)[2] == 490 - 144
    assert s.corps["KE"].floated and s.corps["KE"].cash == 720


def test_a_larger_holding_makes_a_new_director() -> None:
    # 1854 §6.6.1: more than the Director (and at least 40%) takes the Director's
    # certificate, handing over ordinary shares of the same percentage; equal is not enough
    g = game()
    sell_all_privates(g)
    s = g.state
    passes(g, "C", "A")
    g.apply(Par("B", "KE", 67))
    for _ in range(2):
        g.apply(BuyShares("C", "KE", "treasury", 20))
        passes(g, "A", "B")
    assert s.shares.percent("C", "KE") == 40 and s.shares.president["KE"] == "B"  # a tie
    g.apply(BuyShares("C", "KE", "treasury", 20))
    assert s.shares.president["KE"] == "C"
    assert s.shares.percent("C", "KE") == 60 and s.shares.percent("B", "KE") == 40
    assert [c.percent for c in s.shares.held("B", "KE")] == [20, 20]
    assert cash(g)[2] == 490 - 3 * 134


def test_no_selling_in_the_first_share_buying_round() -> None:
    # 1854 §4 "Players may not sell certificates in the first Share Buying Round"; §6.7
    g = game()
    sell_all_privates(g)
    g.apply(Par("C", "KE", 67))
    g.apply(BuyShares("A", "KE", "treasury", 20))
    g.apply(Pass("B"))
    assert not any(isinstance(a, SellShares) for a in g.legal_actions())
    rejected(g, SellShares("C", "KE", 40), "§4")


def test_share_part_ends_with_the_priority_left_of_the_last_buyer() -> None:
    # 1854 §4: all pass in turn after purchases: the round ends; Priority Deal to the left
    # of the last player to make a purchase
    g = game()
    sell_all_privates(g)
    g.apply(Par("C", "SB", 82))
    passes(g, "A", "B")
    assert not in_operating_round(g)
    g.apply(Pass("C"))
    # SB has not floated; the Local Railways operate (§5.1)
    assert in_operating_round(g) and g.active_entity() == "L1"
    assert g.state.priority == 0  # A, left of C


def test_phases_and_the_train_depot() -> None:
    # 1854 §5.10 Table 5: train limits by kind of company; §5.9 Table 4: 43 trains, the 2s
    # sold first, the 1+ from the start beside them, the 2+ from Phase 3 (§5.10)
    limits = [(p.name, p.limit("major"), p.limit("local")) for p in TITLE.phases]
    assert limits[:4] == [("2", 4, 2), ("3", 4, 2), ("4", 3, 1), ("5", 2, 1)]
    assert [p.operating_rounds for p in TITLE.phases] == [1, 2, 2, 3, 3, 3]
    depot = game().state.depot
    assert len(depot.trains) == 43
    for_sale = {t.kind for t in depot.purchasable({"2"})}
    assert for_sale == {"2", "1+"}
    assert "2+" in {t.kind for t in depot.purchasable({"2", "3"})}


def test_the_action_log_replays_to_the_same_state() -> None:
    # the log is the game: 1854's own actions (retract_bid, buy_option, pay_option) go
    # through the save format, and a replay or an undo gives the same states
    for seed in range(10):
        rng = random.Random(seed)
        g = game(3 + seed % 4)
        hashes = [g.state_hash()]
        while g.state.operating_round_no < 3:
            g.apply(rng.choice(g.legal_actions()))
            hashes.append(g.state_hash())
        replay = game(3 + seed % 4)
        for action in g.actions:
            replay.apply(action_from_json(action.to_json()))
        assert replay.state_hash() == hashes[-1]
        g.undo()
        assert g.state_hash() == hashes[-2]
    assert action_from_json(RetractBid("A", "P5").to_json()) == RetractBid("A", "P5")
