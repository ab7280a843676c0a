"""1849: a player who leaves the game (1849 §Trouble "quits on L. 0"; ruling R26, and S7 for
the "18xx.games" rule set). The position is the failed emergency raising of
test_1849_paragraphs.py (`_emergency(0, 0, cheapest="6H")`), played under a chosen rule set
and rules version: Bob, president of CTL and owner of SIGI, loses all his stock when CTL
closes and is asked to quit or take the loan."""

from __future__ import annotations

from typing import Any

import pytest

from test_1849_paragraphs import (
    assert_rejected,
    at,
    auto_until,
    give_certs,
    in_stock_round,
    scrap,
    set_phase,
    title,
    two_corps,
    where,
)
from tresham.core.actions import (
    Bankrupt,
    BuyCompany,
    Choose,
    Pass,
    SellShares,
)
from tresham.core.game import Game
from tresham.core.rounds.operating import OperatingRound
from tresham.titles.t1849.versions import DEALS_VERSION

SITE = {"rule_set": "18xx.games"}
# the old behaviour: the site's rule set, and saves played before DEALS_VERSION
OLD_RULES = [pytest.param(SITE, None, id="18xx.games"), pytest.param({}, 1, id="version-1")]


def _loan_prompt(options: dict[str, Any] | None = None, rules_version: int | None = None) -> Game:
    """OR 2.1: CTL (Bob 50%, Ann 30%) trainless with a route and no cash, the cheapest train a
    6H; Bob has no cash, sells 20% of CTL, still falls short and CTL closes. Bob holds no
    stock and owns SIGI (RSA closed with CTL's first train): the loan prompt is his."""
    g = two_corps(options, rules_version)
    auto_until(g, in_stock_round)
    give_certs(g, "CTL", "Bob", 3)
    give_certs(g, "CTL", "Ann", 2)
    auto_until(g, at("CTL:trains"))
    short_of_a_train(g)
    assert g.legal_actions() == [Bankrupt("CTL")]
    g.apply(Bankrupt("CTL"))
    assert where(g) == "loan" and g.active_entity() == "Bob"
    assert not g.state.shares.held("Bob")
    sigi = g.state.companies["SIGI"]
    assert sigi.owner == "Bob" and not sigi.closed
    return g


def short_of_a_train(g: Game) -> None:
    """CTL at its train step with no train, no cash and none left but the 4H-0 it cannot pay:
    Bob, its president with no money, sells CTL's treasury 20% and must go bankrupt."""
    ctl = g.state.corps["CTL"]
    scrap(g, *ctl.trains)
    ctl.trains.clear()
    scrap(g, "4H-1", "4H-2", "4H-3")
    ctl.cash = 0
    g.player("Bob").cash = 0
    g.apply(SellShares("CTL", "CTL", 20))


def _departed(options: dict[str, Any] | None = None, rules_version: int | None = None) -> Game:
    """`_loan_prompt` after Bob chooses to leave; IFT operates next."""
    g = _loan_prompt(options, rules_version)
    g.apply(Choose("Bob", "leave"))
    assert g.player("Bob").bankrupt and not g.state.finished
    assert where(g) == "IFT:track"
    return g


def _hash_kept_by_listing(g: Game) -> None:
    before = g.state_hash()
    g.legal_actions()
    assert g.state_hash() == before


def _to_next_operating_round(g: Game) -> tuple[dict[str, int], list[str]]:
    """Play on (passing) through the stock round to the start of the next OR, when the
    privates pay. Returns the cash of players, corporations and bank at the end of the stock
    round (before the payments), and who acted in the stock round."""
    auto_until(g, in_stock_round)
    s = g.state
    cash = {p.name: p.cash for p in s.players}
    cash.update({sym: c.cash for sym, c in s.corps.items()})
    cash["bank"] = s.bank.cash
    acted: list[str] = []
    while not isinstance(s.round, OperatingRound) and not s.finished:
        _hash_kept_by_listing(g)
        who = g.active_entity()
        assert who is not None
        acted.append(who)
        g.apply(Pass(who))
    return cash, acted


# 1849 §Trouble: "Still short → it all goes to the treasury and the corporation closes. A
# president left with no stock quits on L. 0, or takes a L. 500 loan costing L. 750 at
# scoring." (Ruling R26: the player who quits holds nothing; their privates close.)
def test_departed_players_privates_close() -> None:
    g = _loan_prompt()
    assert g.rules_version >= DEALS_VERSION
    _hash_kept_by_listing(g)
    g.apply(Choose("Bob", "leave"))
    _hash_kept_by_listing(g)
    s = g.state
    assert s.companies["SIGI"].closed
    assert not [c for c in s.companies.values() if c.owner == "Bob" and not c.closed]
    assert not s.shares.held("Bob") and g.player("Bob").cash == 0
    # the others' privates are untouched
    assert not any(s.companies[c].closed for c in ("SCE", "SMS", "CNM"))
    assert any("SIGI closes" in line for line in g.state.events)


# 1849 §Trouble: "A president left with no stock quits on L. 0, or takes a L. 500 loan
# costing L. 750 at scoring." (R26: the departed player's closed private pays no one; the
# departed player takes no turn in the next stock round.)
def test_departed_players_private_pays_no_one() -> None:
    g = _departed()
    before, acted = _to_next_operating_round(g)
    s = g.state
    assert "Bob" not in acted and acted
    assert g.player("Bob").cash == 0
    rev = {c.sym: c.revenue for c in s.companies.values()}
    assert g.player("Ann").cash == before["Ann"] + rev["SCE"] + rev["SMS"]
    assert g.player("Cid").cash == before["Cid"] + rev["CNM"]
    assert all(s.corps[sym].cash == before[sym] for sym in s.corps)
    assert s.bank.cash == before["bank"] - rev["SCE"] - rev["SMS"] - rev["CNM"]
    assert title(g).scores(g)["Bob"] == 0
    _hash_kept_by_listing(g)


# 1849 §OR "Buying privates (phases 6H-10H) at any point of the turn" and §Trouble "A
# president left with no stock quits on L. 0" (R26: a departed player's private has closed,
# so no corporation may buy it from them).
def test_no_corporation_buys_a_departed_players_private() -> None:
    g = _departed()
    set_phase(g, "6H")
    _hash_kept_by_listing(g)
    buys = {a.company for a in g.legal_actions() if isinstance(a, BuyCompany)}
    assert buys == {"SCE", "SMS", "CNM"}  # the others' privates, never SIGI (nor RSA)
    cash = g.state.corps["IFT"].cash
    assert cash >= 1
    assert_rejected(g, BuyCompany("IFT", "SIGI", 1))
    assert_rejected(g, BuyCompany("IFT", "SIGI", min(cash, 90)))
    assert g.player("Bob").cash == 0


# 1849 §Endgame: "Score cash plus shares at market, minus L. 750 per loan, floored at 0" and
# §Trouble "quits on L. 0" (R26: a departed player scores 0 whatever comes their way).
def test_departed_player_scores_zero() -> None:
    g = _departed()
    t = title(g)
    assert t.scores(g)["Bob"] == 0 and t.raw_scores(g)["Bob"] == 0
    g.player("Bob").cash = 100  # even money reaching them by some path counts for nothing
    assert t.scores(g)["Bob"] == 0 and t.raw_scores(g)["Bob"] == 0
    g.player("Bob").loans = 1  # a loan taken before leaving still counts against them
    assert t.raw_scores(g)["Bob"] == -750 and t.scores(g)["Bob"] == 0
    assert t.scores(g)["Ann"] > 0


# 1849 §Trouble: "A president left with no stock quits on L. 0, or takes a L. 500 loan
# costing L. 750 at scoring." (R26 applies from rules version DEALS_VERSION and not under
# the "18xx.games" rule set, S7: there the departed player keeps the privates, which pay them
# and which corporations may buy from them.)
@pytest.mark.parametrize(("options", "rules_version"), OLD_RULES)
def test_old_rules_keep_the_departed_players_privates(
    options: dict[str, Any], rules_version: int | None
) -> None:
    g = _departed(options, rules_version)
    sigi = g.state.companies["SIGI"]
    assert sigi.owner == "Bob" and not sigi.closed
    set_phase(g, "6H")
    _hash_kept_by_listing(g)
    assert any(isinstance(a, BuyCompany) and a.company == "SIGI" for a in g.legal_actions())
    g2 = _departed(options, rules_version)
    before, acted = _to_next_operating_round(g2)
    assert "Bob" not in acted
    assert g2.player("Bob").cash == before["Bob"] + sigi.revenue
    assert title(g2).scores(g2)["Bob"] == sigi.revenue


# Ruling S19 (§Trouble "A president left with no stock quits on L. 0"): on 18xx.games the
# player who leaves keeps whatever cash he has (the site's `declare_bankrupt` only marks him;
# its loan choice can come rounds later, S9, when his privates have paid him: random game 4
# players seed 102), from rules version 8; before it, and in the summary's rule set, his cash
# goes to the bank.
@pytest.mark.parametrize(
    ("options", "version", "kept"), [(SITE, None, True), (SITE, 7, False), (None, None, False)]
)
def test_a_player_who_leaves_keeps_his_cash_on_the_site(
    options: dict[str, Any] | None, version: int | None, kept: bool
) -> None:
    g = _loan_prompt(options, version)
    g.player("Bob").cash = 37  # SIGI's revenue, paid since he lost his stock
    bank = g.state.bank.cash
    g.apply(Choose("Bob", "leave"))
    assert g.player("Bob").bankrupt
    assert g.player("Bob").cash == (37 if kept else 0)
    assert g.state.bank.cash == bank + (0 if kept else 37)
