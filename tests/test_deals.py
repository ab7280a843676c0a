"""Deals need both sides (core/deals.py): a train or private bought from a company or player
that another person controls waits for the seller's answer; forced purchases keep the
Director's free choice. Each test names the paragraph it plays."""

from __future__ import annotations

import random

import pytest

import test_1849_paragraphs as p49
from positions import give_train
from rejections import rejected as refused
from test_1854_operating import sd_must_buy, to_sd, two_companies
from test_1883_operating import floated, turn_at
from test_1883_start import TITLE as TITLE_1883
from tresham.core.actions import Bankrupt, BuyCompany, BuyTrain, Choose, Pass, SellShares
from tresham.core.deals import ACCEPT, DECLINE, OFFER
from tresham.core.errors import NotYourTurnError
from tresham.core.game import Game
from tresham.sim import check_invariants
from tresham.titles.registry import get_title
from tresham.titles.t1883.operating import STEP_OBJECTS as STEPS_1883
from tresham.titles.t1883.operating import TrainStep1883


def asks(g: Game, seller: str, person: str) -> None:
    """The game waits for `seller`'s answer, given by `person`: only Accept or Decline."""
    assert g.state.pending[0] == (OFFER, seller)
    assert g.active_entity() == seller and g.acting_player() == person
    assert g.legal_actions() == [Choose(seller, ACCEPT), Choose(seller, DECLINE)]


# ====================================================================== 1849
# 1849 §OR Buy trains: "Buy from another corporation at ≥ L. 1" — the price is a deal between
# the two presidents (ruling R27): IFT (Cid) asks CTL (Bob)
def test_1849_a_train_from_another_president_waits_for_the_answer() -> None:
    g = p49.second_stock_round()
    p49.auto_until(g, p49.at("IFT:trains"))
    ift, ctl = g.state.corps["IFT"], g.state.corps["CTL"]
    before = g.state_hash()
    g.apply(BuyTrain("IFT", "4H-0", 1))
    asks(g, "CTL", "Bob")
    assert g.state.offer is not None and g.state.offer.to_dict() == {
        "buyer": "IFT",
        "seller": "CTL",
        "kind": "train",
        "item": "4H-0",
        "price": 1,
    }
    assert ctl.trains == ["4H-0"]  # nothing moves before the answer
    refused(g, Pass("IFT"))  # the buyer waits too
    refused(g, Choose("CTL", "maybe"))
    g.apply(Choose("CTL", DECLINE))
    assert g.state_hash() == before  # a refusal changes nothing but the log
    assert g.state.events[-1] == "CTL declines IFT's offer for its 4H train"
    cash_i, cash_c = ift.cash, ctl.cash
    g.apply(BuyTrain("IFT", "4H-0", 60))
    g.apply(Choose("CTL", ACCEPT))
    assert (ift.trains, ctl.trains) == (["4H-0"], [])
    assert (ift.cash, ctl.cash) == (cash_i - 60, cash_c + 60)
    assert g.active_entity() == "IFT"  # the buyer's turn goes on


# 1849 RD §5.11 (ruling R27): a player's private, bought by a corporation another person
# presides, waits for the owner's answer; the president's own private does not
def test_1849_a_private_needs_its_owners_answer_unless_the_president_owns_it() -> None:
    g = p49._or1_track("6H")
    assert g.state.shares.president["CTL"] == "Bob"
    before = g.state_hash()
    g.apply(BuyCompany("CTL", "SCE", 40))  # Ann's
    asks(g, "Ann", "Ann")
    g.apply(Choose("Ann", DECLINE))
    assert g.state_hash() == before and g.state.companies["SCE"].owner == "Ann"
    ann = g.player("Ann").cash
    g.apply(BuyCompany("CTL", "SCE", 40))
    g.apply(Choose("Ann", ACCEPT))
    assert g.state.companies["SCE"].owner == "CTL" and g.player("Ann").cash == ann + 40
    bob = g.player("Bob").cash
    g.apply(BuyCompany("CTL", "SIGI", 90))  # Bob's own: no question
    assert g.state.offer is None and g.state.companies["SIGI"].owner == "CTL"
    assert g.player("Bob").cash == bob + 90


# Ruling S8: the "18xx.games" rule set, like the site (players agree in chat), never asks
def test_1849_site_rules_buy_without_asking() -> None:
    g = p49.second_stock_round()
    g.options["rule_set"] = "18xx.games"
    p49.auto_until(g, p49.at("IFT:trains"))
    g.apply(BuyTrain("IFT", "4H-0", 1))
    assert g.state.offer is None and g.state.corps["IFT"].trains == ["4H-0"]


# 1849 rules version 1 (saves made before deals needed both sides) replays without asking
def test_1849_older_saves_buy_without_asking() -> None:
    g = p49.second_stock_round()
    g.rules_version = 1
    p49.auto_until(g, p49.at("IFT:trains"))
    g.apply(BuyTrain("IFT", "4H-0", 1))
    assert g.state.offer is None and g.state.corps["IFT"].trains == ["4H-0"]


# 1849 §Trouble: "when a trainless corporation with a route can't afford the cheapest
# train: the president adds cash ..." — the bank's train is offered beside a trade another
# president may refuse (ruling R20)
def test_1849_forced_purchase_offers_the_banks_train_beside_trades() -> None:
    g = p49._emergency(30, 200)
    p49.give_train(g, "IFT", "4H-3")
    acts = g.legal_actions()
    assert BuyTrain("CTL", "4H-1", 100) in acts  # Bob adds L.70
    assert BuyTrain("CTL", "4H-3", 1) in acts
    assert Pass("CTL") not in acts


# ====================================================================== 1883
def two_railways(sv_president: str = "C") -> Game:
    """SAFRE (president A) owns a 2T; SV (president `sv_president`, L.300) is at its train
    step."""
    g = floated("SAFRE", (2, 11), "A")
    s = g.state
    s.market.place("SV", (2, 11))
    s.corps["SV"].parred = s.corps["SV"].floated = True
    s.corps["SV"].par_price = s.market.price("SV")
    s.shares.move("SV_0", sv_president)
    s.shares.president["SV"] = sv_president
    s.corps["SV"].cash = 300
    give_train(g, "SAFRE", "2")
    turn_at(g, "SV", "trains")
    return g


# 1883 §6.9.2: "at any price agreed (with a minimum L.1 for each train) between the two
# Corporations' Presidents (those Presidents may be the same player)"
def test_1883_a_train_from_another_president_waits_for_the_answer() -> None:
    g = two_railways()
    tid = g.state.corps["SAFRE"].trains[0]
    before = g.state_hash()
    g.apply(BuyTrain("SV", tid, 1))
    asks(g, "SAFRE", "A")
    g.apply(Choose("SAFRE", DECLINE))
    assert g.state_hash() == before
    g.apply(BuyTrain("SV", tid, 120))
    g.apply(Choose("SAFRE", ACCEPT))
    s = g.state
    assert s.corps["SV"].trains == [tid] and s.corps["SAFRE"].trains == []
    assert (s.corps["SV"].cash, s.corps["SAFRE"].cash) == (180, 120)


def test_1883_the_same_president_needs_no_answer() -> None:
    g = two_railways(sv_president="A")
    tid = g.state.corps["SAFRE"].trains[0]
    g.apply(BuyTrain("SV", tid, 1))
    assert g.state.offer is None and g.state.corps["SV"].trains == [tid]


# 1883 §3.3 / §6.11: "at a mutually agreed price between half to double face value"
def test_1883_a_private_waits_for_its_owners_answer() -> None:
    g = two_railways()
    TITLE_1883.on_train_bought(g, "3")
    before = g.state_hash()
    g.apply(BuyCompany("SV", "TMM", 160))  # D's
    asks(g, "D", "D")
    g.apply(Choose("D", DECLINE))
    assert g.state_hash() == before
    d = g.player("D").cash
    g.apply(BuyCompany("SV", "TMM", 160))
    g.apply(Choose("D", ACCEPT))
    assert g.state.companies["TMM"].owner == "SV" and g.player("D").cash == d + 160


# 1883 §6.9.6: "does not have enough money in its Treasury to buy one for face value from
# the Bank or Bank Pool or for an agreed price from another Corporation, then the President
# has to make a forced buy ... the cheapest train available, whether that is from the Bank
# or Bank Pool" — a trade the other president may refuse never hides the forced buy
def test_1883_forced_buy_stays_open_beside_trades() -> None:
    step = STEPS_1883["trains"]
    assert isinstance(step, TrainStep1883)
    for seed in range(60):
        g = Game(TITLE_1883, ["A", "B", "C", "D"], seed=seed)
        rng = random.Random(seed)
        while not g.state.finished:
            s = g.state
            corp = g.active_entity() or ""
            if corp in s.corps and _at_step(g, "trains") and step.must_buy(g, corp):
                cheapest = min(p for _, p in step.offers(g, corp))
                acts = g.legal_actions()
                trades = [
                    a
                    for a in acts
                    if isinstance(a, BuyTrain) and s.depot.trains[a.train].owner in s.corps
                ]
                if cheapest > s.corps[corp].cash and trades:
                    forced = [
                        a
                        for a in acts
                        if isinstance(a, SellShares | Bankrupt)
                        or (isinstance(a, BuyTrain) and a not in trades)
                    ]
                    assert forced, "the forced buy must be offered beside the trades"
                    return
            g.apply(rng.choice(g.legal_actions()))
    pytest.fail("no forced purchase beside trades in 60 random games")


# ====================================================================== 1854
def _sd_buys(phase3: bool = True) -> tuple[Game, str]:
    """SD (Director B) at its train step, KE (Director C) owning a 2-train, Phase 3."""
    g = two_companies()
    tid = give_train(g, "KE", "2")
    to_sd(g)
    while not any(isinstance(a, BuyTrain) for a in g.legal_actions()):
        g.apply(Pass("SD"))
    if phase3:
        g.state.phases_reached.append("3")
    return g, tid


# 1854 §5.9: "The purchase price is freely negotiable but must be at least 1 G and must be
# made known to everybody" (ruling T15)
def test_1854_a_train_from_another_director_waits_for_the_answer() -> None:
    g, tid = _sd_buys()
    s = g.state
    before = g.state_hash()
    g.apply(BuyTrain("SD", tid, 300))
    asks(g, "KE", "C")
    assert any("SD offers 300 G to KE (C) for" in e for e in s.events[-1:])
    g.apply(Choose("KE", DECLINE))
    assert g.state_hash() == before
    ke = s.corps["KE"].cash
    sd, kp = s.market.position("SD"), s.market.position("KE")
    g.apply(BuyTrain("SD", tid, 300))
    g.apply(Choose("KE", ACCEPT))
    assert s.corps["SD"].trains == [tid] and s.corps["KE"].cash == ke + 300
    assert s.market.position("SD") == (sd[0] - 1, sd[1] - 1)  # §5.11
    assert s.market.position("KE") == (kp[0] + 1, kp[1] + 1)


# 1854 §5.9: "If there are different trains available (either in the Bank Pool or on offer
# from other companies), the Director can choose freely which to buy" (ruling T16): a
# company that could pay 1 G for KE's train may still take the bank's with B's money
def test_1854_emergency_purchase_keeps_the_directors_free_choice() -> None:
    g, three = sd_must_buy(50)  # SD: 50 G, a 1 G trade is affordable
    s = g.state
    acts = g.legal_actions()
    bank = [a for a in acts if isinstance(a, BuyTrain) and s.depot.trains[a.train].owner is None]
    assert bank, "the bank's trains are offered with the Director's money"
    assert BuyTrain("SD", three, 1) in acts and BuyTrain("SD", three, 200) in acts
    buy = bank[0]
    b = g.player("B").cash
    g.apply(buy)
    assert s.corps["SD"].trains == [buy.train] and s.corps["SD"].cash == 0
    assert g.player("B").cash == b - (buy.price - 50)


# ====================================================================== every title
def _at_step(g: Game, name: str) -> bool:
    rnd = g.state.round
    return (
        not g.state.pending
        and getattr(rnd, "steps", None) is not None
        and (
            rnd.step < len(rnd.steps) and rnd.steps[rnd.step] == name  # type: ignore[union-attr]
        )
    )


@pytest.mark.parametrize("title", ["1849", "1883", "1854"])
def test_every_offer_waits_and_a_refusal_changes_nothing(title: str) -> None:
    """Seeded random games: every offer made asks the seller's controller, who is another
    person than the buyer's; only Accept or Decline is legal; the buyer cannot act; a
    refusal restores the state before the proposal exactly; invariants hold throughout."""
    offers = declined = 0
    for seed in range(2):
        g = Game(get_title(title), ["A", "B", "C", "D"], seed=seed)
        total = g.state.bank.cash + sum(p.cash for p in g.state.players)
        total += sum(c.cash for c in g.state.corps.values())
        rng = random.Random(seed)
        while not g.state.finished and offers < 40:
            before = g.state_hash()
            action = rng.choice(g.legal_actions())
            g.apply(action)
            offer = g.state.offer
            if offer is None or offer.action != action:
                continue
            offers += 1
            buyer = g.title.controller(g, offer.buyer)
            asks(g, offer.seller, g.title.controller(g, offer.seller) or "")
            assert g.acting_player() != buyer
            with pytest.raises(NotYourTurnError):
                g.apply(Pass(offer.buyer))
            if rng.random() < 0.5:
                g.apply(Choose(offer.seller, DECLINE))
                assert g.state_hash() == before
                declined += 1
            else:
                g.apply(Choose(offer.seller, ACCEPT))
            assert check_invariants(g, total) == []
    assert offers >= 5 and 0 < declined < offers
