"""1849's two rule sets (the summary's and 18xx.games'), and the OR rules the site import
brought to light (rulings S1-S5, R19-R21)."""

from __future__ import annotations

import pytest

from helpers_1849 import sell_privates, start_first
from tresham.core.actions import BuyTrain, IssueShares, Pass
from tresham.core.end import EndReason
from tresham.core.game import Game
from tresham.core.game_spec import SetupError
from tresham.core.rounds.operating import OperatingRound
from tresham.core.rounds.stock import StockRound
from tresham.core.shares import POOL, treasury
from tresham.io.save import new_game
from tresham.titles.t1849 import map_glue
from tresham.titles.t1849.rule_set import SITE_TURN_LIMIT, STEPS_SITE, STEPS_SUMMARY
from tresham.titles.t1849.steps import CompaniesStep, IssueStep, TrainStep

NAMES = ["Ann", "Bob", "Cid"]
SITE = {"rule_set": "18xx.games"}


def game(options: dict[str, str] | None = None) -> Game:
    return new_game("1849", NAMES, 1, options)


def started(options: dict[str, str] | None = None) -> tuple[Game, str]:
    g = game(options)
    sell_privates(g)
    return g, start_first(g)


def at_phase(g: Game, name: str) -> None:
    g.state.phase_index = [p.name for p in g.title.phases].index(name)
    g.state.phases_reached = [p.name for p in g.title.phases[: g.state.phase_index + 1]]


def operating(g: Game, corp: str, step: str) -> OperatingRound:
    """`corp` alone in an OR of the game's step order, at `step`."""
    steps = STEPS_SITE if g.options.get("rule_set") == "18xx.games" else STEPS_SUMMARY
    rnd = OperatingRound(g, [corp], list(steps), "test")
    rnd.step = steps.index(step)
    g.state.round = rnd
    return rnd


def test_unknown_rule_set_or_generator_is_a_setup_error() -> None:
    with pytest.raises(SetupError, match=r"option rule_set is one of summary, 18xx\.games") as e:
        game({"rule_set": "rails"})
    assert e.value.field == "options.rule_set"
    with pytest.raises(SetupError, match=r"option rng is one of tresham, 18xx\.games") as e:
        game({"rng": "dice"})
    assert e.value.field == "options.rng"


# Ruling S1 (1849 §Start P1): on the site SCE is free only when a fourth all-pass takes it to 0
def test_site_sce_is_free_after_the_fourth_all_pass() -> None:
    g = game(SITE)
    for price in (15, 10, 5):
        for who in NAMES:
            g.apply(Pass(who))
        assert g.state.round is not None
        assert g.state.round.price(g, "SCE") == price  # type: ignore[attr-defined]
    assert g.state.companies["SCE"].owner is None
    for who in NAMES:
        g.apply(Pass(who))
    assert g.state.companies["SCE"].owner == "Ann"
    assert g.active_entity() == "Bob"  # taking it ends Ann's turn on the site too (S22)


# Ruling S22: before rules version 9 the "18xx.games" rule set gave the taker a turn (S8); its
# saves replay so.
def test_site_sce_taker_was_given_a_turn_before_version_9() -> None:
    g = new_game("1849", NAMES, 1, SITE, rules_version=8)
    for _ in range(4):
        for who in NAMES:
            g.apply(Pass(who))
    assert g.state.companies["SCE"].owner == "Ann"
    assert g.active_entity() == "Ann"


def _stock_round_ended(options: dict[str, str] | None, version: int | None, number: int) -> Game:
    """A game whose stock round `number` (set so, after the private sales) ends with everyone
    passing."""
    g = new_game("1849", NAMES, 1, options, rules_version=version)
    sell_privates(g)
    start_first(g)
    g.state.stock_round_no = number
    while isinstance(g.state.round, StockRound) and not g.state.finished:
        active = g.active_entity()
        assert active is not None
        g.apply(Pass(active))
    return g


# Ruling S28: 18xx.games ends a game as its stock round 100 ends ("did not finish";
# Engine::Game::Base#process_action), the players' worth the result; the "18xx.games" rule
# set follows it from rules version 10. Stock round 99 leads to its operating rounds.
def test_site_game_ends_as_stock_round_100_ends() -> None:
    g = _stock_round_ended(SITE, None, SITE_TURN_LIMIT)
    assert g.state.finished and g.state.end_reason == EndReason.TURN_LIMIT == "dnf"
    assert g.state.events[-1] == "Game over: the game reached 18xx.games' limit of 100 stock rounds"
    assert isinstance(g.state.round, StockRound)  # no operating round: no private pays
    before = _stock_round_ended(SITE, None, SITE_TURN_LIMIT - 1)
    assert not before.state.finished and isinstance(before.state.round, OperatingRound)


# Ruling S28: the summary's rule set, and the "18xx.games" rule set's saves before rules
# version 10, play on after stock round 100.
@pytest.mark.parametrize(("options", "version"), [(None, None), (SITE, 9)])
def test_no_turn_limit_in_the_summary_or_before_version_10(
    options: dict[str, str] | None, version: int | None
) -> None:
    g = _stock_round_ended(options, version, SITE_TURN_LIMIT)
    assert not g.state.finished and isinstance(g.state.round, OperatingRound)


# Ruling S2 / R3 (1849 tile manifest "Brown from the first 12H"): the site lays brown from 10H
@pytest.mark.parametrize(("options", "brown"), [(None, False), (SITE, True)])
def test_brown_tiles_in_10h(options: dict[str, str] | None, brown: bool) -> None:
    g, corp = started(options)
    at_phase(g, "10H")
    assert ("brown" in map_glue.rules_for(g, corp).tile_colors) is brown
    at_phase(g, "12H")
    assert "brown" in map_glue.rules_for(g, corp).tile_colors


# Ruling S3 / R4 (tile manifest): the site has two each of 655 and 656, the summary one
@pytest.mark.parametrize(("options", "count"), [(None, 1), (SITE, 2)])
def test_tiles_655_656(options: dict[str, str] | None, count: int) -> None:
    g = game(options)
    assert g.state.map.supply["655"] == count
    assert g.state.map.supply["656"] == count


# Ruling S4 / R5 (1849 §OR order): the site issues after buying trains
def test_step_orders() -> None:
    assert STEPS_SUMMARY.index("issue") < STEPS_SUMMARY.index("trains")
    assert STEPS_SITE.index("issue") > STEPS_SITE.index("trains")


# Ruling S5 / R6 (1849 §Endgame): the site's result adds privates at face value, unfloored;
# `scores` stays the summary's under both rule sets
@pytest.mark.parametrize(("options", "with_privates"), [(None, False), (SITE, True)])
def test_raw_scores_and_privates(options: dict[str, str] | None, with_privates: bool) -> None:
    g = game(options)
    sell_privates(g)
    ann = g.player("Ann")
    ann.cash, ann.loans = 100, 1
    raw = g.title.raw_scores(g)["Ann"]
    face = g.state.companies["SCE"].value + g.state.companies["SMS"].value
    assert raw == 100 - 750 + (face if with_privates else 0)
    assert g.title.scores(g)["Ann"] == 0


# Ruling R21 (1849 §OR Issuing "any number of its own certificates"): the 20% last
# certificate goes only with every other treasury certificate (rule details §3.6)
def test_issue_all_treasury_certificates_with_the_last() -> None:
    g, corp = started()
    g.state.corps[corp].operated = 2
    reg = g.state.shares
    tr = treasury(corp)
    tens = [c for c in reg.held(tr, corp) if not c.president and not c.last]
    for cert in tens[:-3]:  # leave three 10% certificates and the 20% last one
        reg.move(cert.cid, "Cid")
    rnd = operating(g, corp, "issue")
    offered = {a.percent for a in IssueStep().actions(g, rnd, corp) if isinstance(a, IssueShares)}
    assert offered == {10, 20, 30, 50}
    g.state.corps[corp].cash = 0
    price = g.state.market.price(corp)
    IssueStep().process(g, rnd, corp, IssueShares(corp, 50))
    assert reg.percent(tr, corp) == 0
    assert reg.percent(POOL, corp) == 50
    assert g.state.corps[corp].cash == 5 * price


# Ruling R20 (1849 §Trouble): a trainless corporation that cannot pay for the bank's cheapest
# train may have its president help buy that one, even while other corporations own trains
def test_emergency_purchase_beside_other_corporations_trains() -> None:
    g, corp = started()
    other = next(c for c in g.state.corps if c != corp)
    g.state.depot.trains["4H-0"].owner = other
    g.state.corps[other].trains.append("4H-0")
    g.state.corps[corp].cash = 60
    rnd = operating(g, corp, "trains")
    step = TrainStep()
    assert step.must_buy(g, corp)
    actions = step.actions(g, rnd, corp)
    assert BuyTrain(corp, "4H-1", 100) in actions  # the president adds L.40
    assert BuyTrain(corp, "4H-0", 1) in actions
    assert Pass(corp) not in actions


# Ruling R19 (1849 §OR: privates may be bought "at any point of the turn"): the turn waits at
# its end while a purchase is possible
def test_turn_waits_at_its_end_for_a_private_purchase() -> None:
    g, corp = started()
    rnd = operating(g, corp, "companies")
    step = CompaniesStep()
    assert step.actions(g, rnd, corp) == []  # 4H: no private may be bought
    at_phase(g, "6H")
    assert step.actions(g, rnd, corp) == [Pass(corp)]
    g.state.corps[corp].cash = 0
    assert step.actions(g, rnd, corp) == []
