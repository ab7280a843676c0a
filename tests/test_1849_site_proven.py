"""1849 as the "18xx.games" rule set plays it where the site's own engine showed tresham
differed (issue 39; rulings S9-), each from a constructed position in both rule sets: the
summary's rule set keeps the summary's rule. The position is the failed emergency raising of
test_1849_departed_player.py: Bob, president of CTL, loses all his stock when CTL closes."""

from __future__ import annotations

from typing import Any

import pytest

from test_1849_departed_player import short_of_a_train
from test_1849_paragraphs import at, auto_until, give_certs, in_stock_round, two_corps, where
from tresham.core.actions import Bankrupt, Choose, SellShares
from tresham.core.game import Game
from tresham.core.rounds.operating import OperatingRound
from tresham.titles.t1849.state import state_of

SITE = {"rule_set": "18xx.games"}


def _bankrupt_last_to_operate(
    options: dict[str, Any] | None, rules_version: int | None = None, *, alone: bool = False
) -> Game:
    """OR 1.1 with CTL the last corporation to operate (IFT has operated; `alone`: CTL is
    the round's only corporation): trainless with a route and no cash, the cheapest train a
    6H; Bob sells 20% of CTL, still falls short, and CTL goes bankrupt, which ends its turn.
    Bob is left with no stock."""
    g = two_corps(options, rules_version)
    auto_until(g, in_stock_round)
    give_certs(g, "CTL", "Bob", 3)
    give_certs(g, "CTL", "Ann", 2)
    auto_until(g, at("CTL:trains"))
    rnd = g.state.round
    assert isinstance(rnd, OperatingRound)
    others = [] if alone else [c for c in rnd.order if c != "CTL"]
    rnd.order = [*others, "CTL"]  # the others have operated: CTL is the round's last turn
    rnd.index = len(others)
    rnd.done = list(others)
    short_of_a_train(g)
    g.apply(Bankrupt("CTL"))
    assert not g.state.shares.held("Bob")
    return g


# 1849 §Trouble: "A president left with no stock quits on L. 0, or takes a L. 500 loan";
# ruling S9: on 18xx.games the choice is a step of the operating round, which ends once no
# corporation of the round is left open (the site's any_to_act?), so a bankruptcy of its
# last open corporation leaves the choice to the next operating round in which a
# corporation operates.
def test_site_rule_set_asks_the_loan_choice_in_the_next_operating_round() -> None:
    g = _bankrupt_last_to_operate(SITE, alone=True)
    assert where(g) == "stock" and state_of(g).loan_later == ["Bob"]
    auto_until(g, lambda g: isinstance(g.state.round, OperatingRound))
    assert where(g) == "loan" and g.active_entity() == "Bob"
    assert state_of(g).loan_later == []
    g.apply(Choose("Bob", "loan"))
    assert g.player("Bob").loans == 1


# Ruling S9 (rules version 5): a corporation of the round still open (IFT, which has
# operated) keeps the round going, and the site asks at once.
def test_site_rule_set_asks_at_once_while_a_corporation_of_the_round_is_open() -> None:
    g = _bankrupt_last_to_operate(SITE)
    assert where(g) == "loan" and g.active_entity() == "Bob"
    assert state_of(g).loan_later == []


@pytest.mark.parametrize("alone", [False, True])
def test_summary_rule_set_asks_the_loan_choice_at_once(alone: bool) -> None:
    g = _bankrupt_last_to_operate(None, alone=alone)
    assert where(g) == "loan" and g.active_entity() == "Bob"
    assert state_of(g).loan_later == []


@pytest.mark.parametrize("version", [1, 2])
def test_saves_before_version_3_ask_at_once_in_the_site_rule_set(version: int) -> None:
    g = _bankrupt_last_to_operate(SITE, version)
    assert where(g) == "loan" and g.active_entity() == "Bob"


@pytest.mark.parametrize("version", [3, 4])
def test_saves_of_versions_3_and_4_wait_after_the_last_to_operate(version: int) -> None:
    g = _bankrupt_last_to_operate(SITE, version)
    assert where(g) == "stock" and state_of(g).loan_later == ["Bob"]


def _bob_sells_ctl(options: dict[str, Any] | None) -> list[tuple[int, bool]]:
    """SR 2: Bob is president of CTL with 50% (the president's 20%, the 20% last certificate
    and one 10%), Ann holds 30%; the sales of CTL Bob may make (percent, with the last
    certificate)."""
    g = two_corps(options)
    auto_until(g, in_stock_round)
    give_certs(g, "CTL", "Bob", 1, last=True)
    give_certs(g, "CTL", "Ann", 2)
    auto_until(g, lambda g: g.active_entity() == "Bob")
    assert g.state.shares.percent("Bob", "CTL") == 50
    assert g.state.shares.percent("Ann", "CTL") == 30
    return sorted(
        (a.percent, a.last)
        for a in g.legal_actions()
        if isinstance(a, SellShares) and a.corporation == "CTL"
    )


# 1849 §SR "sell any shares" (the summary is silent on selling the presidency); ruling S10:
# on 18xx.games a sale that needs the president's certificate hands the presidency over
# only when the seller keeps less than 20%. Bob's 30% without the last certificate (his 10%
# and the president's 20%) would keep him 20% (the last certificate): refused; with the last
# certificate (20% + 10%) it needs no president's certificate and stands (Ann, with 30%,
# takes the presidency); 40% and 50% leave him below 20%.
def test_site_rule_set_hands_over_the_presidency_only_below_20_percent() -> None:
    assert _bob_sells_ctl(SITE) == [(10, False), (20, True), (30, True), (40, True), (50, True)]


def test_summary_rule_set_hands_it_over_keeping_20_percent() -> None:
    assert _bob_sells_ctl(None) == [
        (10, False),
        (20, True),
        (30, False),
        (30, True),
        (40, True),
        (50, True),
    ]
