"""1849: one test per rulebook paragraph not covered elsewhere, played through the public API.

Positions are built by applying actions (`Game.apply`) where practical; where reaching a
position by play would take long (train supply, phase, market position, holdings), the state
is set directly, as the other 1849 tests do. Every illegal action is checked to raise the
typed error and to leave `state_hash()` unchanged.

Paragraphs cite the rules summary (`shared/rules/1849-summary.txt`) as "1849 §<section>";
where it is silent, the rule details (`rule-details/1849-on-18xx-games.md`, "RD §n") and
the rulings (`docs/rulings/1849.md`, "R<n>").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from deals import buy_agreed
from helpers_1849 import sell_privates, start_first
from positions import asked
from rejections import rejected as assert_rejected
from tresham.core.actions import (
    Bankrupt,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Choose,
    DiscardTrain,
    Dividend,
    IssueShares,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RedeemShares,
    SellShares,
    UseCompany,
)
from tresham.core.errors import NotYourTurnError, TrackError
from tresham.core.game import Game
from tresham.core.market import Position
from tresham.core.rounds.operating import OperatingRound
from tresham.core.rounds.stock import StockRound
from tresham.core.shares import POOL, treasury
from tresham.io.save import new_game
from tresham.titles.t1849 import map_glue
from tresham.titles.t1849.rules import Title1849
from tresham.titles.t1849.state import state_of
from tresham.words import Words

NAMES = ["Ann", "Bob", "Cid"]
# seed 1: the corporation order is CTL (home E1), IFT (H12), SFA (J6), AFG, RCS (C5).


# ====================================================================== helpers
def title(g: Game) -> Title1849:
    assert isinstance(g.title, Title1849)
    return g.title


def opening(
    seed: int = 1, options: dict[str, Any] | None = None, rules_version: int | None = None
) -> Game:
    """Privates sold (Ann SCE+SMS, Bob SIGI+RSA, Cid CNM); Bob's RSA started the first
    corporation (CTL at seed 1) at 100. SR 1, Cid to act."""
    g = new_game("1849", NAMES, seed, options, rules_version)
    sell_privates(g)
    start_first(g)
    return g


def where(g: Game) -> str:
    """ "stock", "<CORP>:<step>" in an OR, or the kind of a pending prompt."""
    s = g.state
    if s.pending:
        return s.pending[0][0]
    rnd = s.round
    assert rnd is not None
    if isinstance(rnd, OperatingRound):
        if rnd.finished(g):
            return "or-end"
        return f"{rnd.corp()}:{rnd.steps[rnd.step]}"
    return rnd.kind


def auto_until(g: Game, stop: Callable[[Game], bool], limit: int = 200) -> None:
    """Play on (pass where a pass is legal, else the first legal action) until `stop`."""
    for _ in range(limit):
        if stop(g) or g.state.finished:
            return
        acts = g.legal_actions()
        g.apply(next((a for a in acts if isinstance(a, Pass)), acts[0]))
    raise AssertionError(f"position not reached, now at {where(g)}")


def at(spot: str) -> Callable[[Game], bool]:
    return lambda g: where(g) == spot


def in_stock_round(g: Game) -> bool:
    return isinstance(g.state.round, StockRound) and not g.state.pending


def op_round(g: Game) -> OperatingRound:
    rnd = g.state.round
    assert isinstance(rnd, OperatingRound)
    return rnd


def stock_round(g: Game) -> StockRound:
    rnd = g.state.round
    assert isinstance(rnd, StockRound)
    return rnd


def two_corps(options: dict[str, Any] | None = None, rules_version: int | None = None) -> Game:
    """SR 1: Bob's CTL at 100; Cid starts IFT at 100; Ann buys 10% of each. OR 1.1 starts,
    CTL to act."""
    g = opening(1, options, rules_version)
    g.apply(Par("Cid", "IFT", 100))
    g.apply(Pass("Cid"))
    g.apply(BuyShares("Ann", "CTL", "treasury", 10))
    g.apply(Pass("Bob"))
    g.apply(Pass("Cid"))
    g.apply(BuyShares("Ann", "IFT", "treasury", 10))
    for who in ("Bob", "Cid", "Ann"):
        g.apply(Pass(who))
    assert where(g) == "CTL:track"
    return g


def second_stock_round() -> Game:
    """`two_corps` after OR 1 (CTL bought 4H-0; both withheld nothing and moved left to 90):
    SR 2, Bob, Cid, Ann in that order."""
    g = two_corps()
    auto_until(g, in_stock_round)
    assert stock_round(g).order == ["Bob", "Cid", "Ann"]
    return g


def scrap(g: Game, *tids: str) -> None:
    """Take trains out of the game (so that later ones are the next on sale)."""
    for tid in tids:
        g.state.depot.trains[tid].owner = "scrapped"


def give_train(g: Game, corp: str, tid: str) -> None:
    g.state.depot.trains[tid].owner = corp
    g.state.corps[corp].trains.append(tid)


def set_phase(g: Game, name: str) -> None:
    """Put the game in phase `name` (as if its train had been bought)."""
    s = g.state
    names = [p.name for p in g.title.phases]
    s.phase_index = names.index(name)
    for p in names[: s.phase_index + 1]:
        if p not in s.phases_reached:
            s.phases_reached.append(p)


def give_certs(g: Game, corp: str, to: str, tens: int, last: bool = False) -> None:
    """Move 10% certificates (and the 20% last one) from the treasury to `to`."""
    reg = g.state.shares
    certs = [c for c in reg.held(treasury(corp), corp) if not c.president and not c.last]
    assert len(certs) >= tens
    for c in certs[:tens]:
        reg.move(c.cid, to)
    if last:
        lst = next(c for c in reg.held(treasury(corp), corp) if c.last)
        reg.move(lst.cid, to)


def put_token(g: Game, corp: str, hex_: str) -> None:
    g.state.map.place_token(corp, hex_, 0)
    g.state.corps[corp].placed.append((hex_, 0))


def price_below(g: Game, pos: Position, rows: int) -> int:
    """The price `rows` rows below `pos` on the printed market (a missing cell: no move)."""
    market = g.state.market.market
    target = (pos[0] + rows, pos[1])
    return market.price(target if target in market else pos)


def pars(g: Game) -> set[int]:
    return {a.price for a in g.legal_actions() if isinstance(a, Par)}


# ====================================================================== starting
# 1849 §SR Starting a corporation: "One token fee buys all its tokens, the free home one
# included" (fees from the corporation table: ATA 30, AFG 40, CTL 40, SFA 40, IFT 90,
# RCS 130).
def test_token_fee_table_and_paid_once_at_start() -> None:
    g4 = new_game("1849", ["a", "b", "c", "d"], 1)
    fees = {sym: c.token_fee for sym, c in g4.state.corps.items()}
    assert fees == {"ATA": 30, "AFG": 40, "CTL": 40, "SFA": 40, "IFT": 90, "RCS": 130}
    g = opening()
    bank = g.state.bank.cash
    g.apply(Par("Cid", "IFT", 68))
    ift = g.state.corps["IFT"]
    # Cid pays 2 x 68 into the treasury, which pays the one L.90 fee to the bank.
    assert g.player("Cid").cash == 500 - 75 - 136
    assert ift.cash == 136 - 90
    assert g.state.bank.cash == bank + 90
    assert ift.placed == [("H12", 0)]  # the home token is down, paid by the fee


# 1849 §SR Starting a corporation: "One token fee buys all its tokens": a later token costs
# nothing, so even a corporation with no cash places one.
def test_later_tokens_cost_nothing() -> None:
    g = opening()
    auto_until(g, at("CTL:track"))
    g.apply(Pass("CTL"))
    assert where(g) == "CTL:token"
    g.state.corps["CTL"].cash = 0
    bank = g.state.bank.cash
    assert PlaceToken("CTL", "C1", 0) in g.legal_actions()
    g.apply(PlaceToken("CTL", "C1", 0))
    assert g.state.map.has_token("CTL", "C1")
    assert g.state.corps["CTL"].cash == 0
    assert g.state.bank.cash == bank


# 1849 §SR Starting a corporation: "The president picks 68 or 100, or 144 from Phase 6 or
# 216 from Phase 10."
def test_par_68_or_100_at_start() -> None:
    g = opening()
    assert pars(g) == {68, 100}
    for price in (144, 216, 90):
        assert_rejected(g, Par("Cid", "IFT", price))
    g.apply(Par("Cid", "IFT", 68))
    assert g.state.market.price("IFT") == 68


def _buy_first(g: Game, kind: str, scrapped: list[str]) -> None:
    """In OR 1, CTL buys the first train of `kind` (earlier trains taken out of the game)."""
    auto_until(g, at("CTL:trains"))
    scrap(g, *scrapped)
    price = g.state.depot.types[kind].price
    g.state.corps["CTL"].cash = price
    g.apply(BuyTrain("CTL", f"{kind}-0", price))
    auto_until(g, in_stock_round)


# 1849 §SR Starting a corporation: "144 from Phase 6"
def test_par_144_only_after_the_first_6h() -> None:
    g = opening()
    for _ in range(3):
        g.apply(Pass(g.active_entity() or ""))
    _buy_first(g, "6H", [f"4H-{i}" for i in range(4)])
    assert g.phase.name == "6H"
    who = g.active_entity()
    assert who is not None and g.player(who).cash >= 2 * 144
    assert pars(g) == {68, 100, 144}
    assert_rejected(g, Par(who, "IFT", 216))
    g.apply(Par(who, "IFT", 144))
    assert g.state.corps["IFT"].cash == 2 * 144 - 90


# 1849 §SR Starting a corporation: "216 from Phase 10"
def test_par_216_only_after_the_first_10h() -> None:
    g = opening()
    for _ in range(3):
        g.apply(Pass(g.active_entity() or ""))
    early = [t for t, tr in g.state.depot.trains.items() if tr.kind in ("4H", "6H", "8H")]
    set_phase(g, "8H")  # the 6H and 8H were bought (taken out of the game here)
    _buy_first(g, "10H", early)
    assert "10H" in g.state.phases_reached
    who = g.active_entity()
    assert who is not None
    g.player(who).cash = 2 * 216
    assert pars(g) == {68, 100, 144, 216}
    g.apply(Par(who, "IFT", 216))
    assert g.state.market.price("IFT") == 216


# 1849 §SR Starting a corporation: "They buy the president's 20% and may buy 1-2 more
# shares—up to 40%"; "Incremental capitalization": each share bought from the treasury pays
# the corporation, a pool share pays the bank.
def test_start_with_up_to_two_more_shares_paid_into_the_treasury() -> None:
    g = opening()
    g.apply(Par("Cid", "IFT", 68))
    ift = g.state.corps["IFT"]
    assert ift.cash == 136 - 90
    # only shares of the corporation just started, from its treasury
    assert_rejected(g, BuyShares("Cid", "CTL", "treasury", 10))
    for n in (1, 2):
        bank = g.state.bank.cash
        g.apply(BuyShares("Cid", "IFT", "treasury", 10))
        assert ift.cash == 136 - 90 + 68 * n
        assert g.state.bank.cash == bank
    assert g.state.shares.percent("Cid", "IFT") == 40
    assert g.active_entity() == "Ann"  # no third share
    # a share bought from the pool pays the bank, not the corporation
    cert = next(c for c in g.state.shares.held(treasury("CTL"), "CTL") if not c.last)
    g.state.shares.move(cert.cid, POOL)
    ctl, bank = g.state.corps["CTL"].cash, g.state.bank.cash
    g.apply(BuyShares("Ann", "CTL", "pool", 10))
    assert g.state.corps["CTL"].cash == ctl
    assert g.state.bank.cash == bank + 100


# 1849 §SR Starting a corporation: "Garibaldi picks its home from five cities"
def test_afg_picks_its_home_among_five_cities() -> None:
    g = new_game("1849", NAMES, 3)  # seed 3: AFG is first in the order
    sell_privates(g)
    assert state_of(g).order[0] == "AFG"
    homes = {a.home for a in g.legal_actions() if isinstance(a, Par)}
    assert homes == {"C1", "H8", "M9", "M11", "B14"}
    assert_rejected(g, Par("Bob", "AFG", 100, "E1"))
    assert_rejected(g, Par("Bob", "AFG", 100, None))
    g.apply(Par("Bob", "AFG", 100, "M11"))
    assert g.state.map.has_token("AFG", "M11")
    assert g.state.corps["AFG"].placed == [("M11", 0)]


def _fill_afg_homes_but_c1(g: Game) -> None:
    """Tokens in every AFG home city but C1: H8, M9 (two slots), M11, B14."""
    put_token(g, "IFT", "H8")
    put_token(g, "IFT", "M9")
    put_token(g, "SFA", "M9")
    put_token(g, "SFA", "M11")
    put_token(g, "CTL", "B14")


# 1849 §SR Starting a corporation: "if all are full it waits, and returns last in the
# order"
def test_afg_waits_last_when_its_five_cities_are_full() -> None:
    g = opening()
    g.apply(Par("Cid", "IFT", 68))
    g.apply(Pass("Cid"))
    g.apply(Par("Ann", "SFA", 68))
    g.apply(Pass("Ann"))
    for who in ("Bob", "Cid", "Ann"):
        g.apply(Pass(who))
    assert title(g).next_to_start(g) == "AFG"
    auto_until(g, at("CTL:token"))
    _fill_afg_homes_but_c1(g)
    g.apply(PlaceToken("CTL", "C1", 0))  # the last free AFG home city fills up
    assert state_of(g).order[-1] == "AFG"
    assert title(g).next_to_start(g) == "RCS"
    auto_until(g, in_stock_round)
    first = g.active_entity()
    assert first is not None
    started = {a.corporation for a in g.legal_actions() if isinstance(a, Par)}
    assert started == {"RCS"}
    assert_rejected(g, Par(first, "AFG", 68, "C1"))


# ====================================================================== stock round
def _four_started() -> Game:
    """SR 1: CTL (Bob), IFT (Cid), SFA (Ann) and AFG (Bob, home H8) started at 68/100; Cid
    to act."""
    g = opening()
    g.apply(Par("Cid", "IFT", 68))
    g.apply(Pass("Cid"))
    g.apply(Par("Ann", "SFA", 68))
    g.apply(Pass("Ann"))
    g.apply(Par("Bob", "AFG", 68, "H8"))
    g.apply(Pass("Bob"))
    assert g.active_entity() == "Cid"
    return g


# 1849 §Players "Cert limit 12" (3 players), privates counting (R7; RD §1.1)
def test_certificate_limit_counts_privates() -> None:
    g = _four_started()
    # Ann: SFA 20%+3x10%, CTL 2x10%, IFT 2x10%, AFG 2x10% = 10 certificates, + SCE and SMS.
    give_certs(g, "SFA", "Ann", 3)
    for corp in ("CTL", "IFT", "AFG"):
        give_certs(g, corp, "Ann", 2)
    g.apply(Pass("Cid"))
    assert g.active_entity() == "Ann"
    assert not any(isinstance(a, BuyShares | Par) for a in g.legal_actions())
    assert_rejected(g, BuyShares("Ann", "SFA", "treasury", 10))
    # one certificate fewer (11 with the privates) and she may buy again
    cert = g.state.shares.held("Ann", "AFG")[0]
    g.state.shares.move(cert.cid, treasury("AFG"))
    g.apply(BuyShares("Ann", "SFA", "treasury", 10))
    assert g.state.shares.percent("Ann", "SFA") == 60


# R7 / RD §1.1 [DIFF]: "A player can never hold more than 60% of one corporation"
def test_sixty_percent_holding_cap() -> None:
    g = _four_started()
    give_certs(g, "SFA", "Ann", 4)  # Ann holds 60% of SFA
    g.apply(Pass("Cid"))
    assert not any(isinstance(a, BuyShares) and a.corporation == "SFA" for a in g.legal_actions())
    assert_rejected(g, BuyShares("Ann", "SFA", "treasury", 10))
    g.apply(BuyShares("Ann", "CTL", "treasury", 10))  # other corporations are fine


# 1849 §SR Buy/sell shares: "Sell any, then buy one"; a corporation sold this round cannot
# be bought back by that player in the same round (RD §3.2).
def test_sold_this_round_cannot_buy_it_back() -> None:
    g = second_stock_round()
    g.apply(Pass("Bob"))
    g.apply(Pass("Cid"))
    g.apply(SellShares("Ann", "CTL", 10))
    assert not any(isinstance(a, BuyShares) and a.corporation == "CTL" for a in g.legal_actions())
    assert_rejected(g, BuyShares("Ann", "CTL", "pool", 10))
    assert_rejected(g, BuyShares("Ann", "CTL", "treasury", 10))
    g.apply(BuyShares("Ann", "IFT", "treasury", 10))
    # Bob, who did not sell CTL, may buy the share Ann sold
    g.apply(BuyShares("Bob", "CTL", "pool", 10))
    g.apply(Pass("Cid"))
    assert g.active_entity() == "Ann"  # a later turn of the same round
    assert_rejected(g, BuyShares("Ann", "CTL", "treasury", 10))


# 1849 §SR (priority deal): the player after the last one to act goes first next SR.
def test_priority_goes_to_the_player_after_the_last_to_act() -> None:
    g = opening()
    assert stock_round(g).order == ["Cid", "Ann", "Bob"]
    g.apply(Pass("Cid"))
    g.apply(BuyShares("Ann", "CTL", "treasury", 10))  # Ann acts last
    for who in ("Bob", "Cid", "Ann"):
        g.apply(Pass(who))
    assert g.state.priority == 1  # Bob, the seat after Ann
    auto_until(g, in_stock_round)
    assert stock_round(g).order == ["Bob", "Cid", "Ann"]


# R7: "the pool may hold at most 50% of a corporation"
def test_pool_may_hold_at_most_half() -> None:
    g = second_stock_round()
    give_certs(g, "CTL", POOL, 4)  # the pool holds 40% of CTL
    give_certs(g, "CTL", "Ann", 1)  # Ann holds 20%
    g.apply(Pass("Bob"))
    g.apply(Pass("Cid"))
    sales = [a for a in g.legal_actions() if isinstance(a, SellShares) and a.corporation == "CTL"]
    assert sales == [SellShares("Ann", "CTL", 10)]
    assert_rejected(g, SellShares("Ann", "CTL", 20))
    g.apply(SellShares("Ann", "CTL", 10))
    assert g.state.shares.percent(POOL, "CTL") == 50


# 1849 §SR Buy/sell shares: "No selling a corporation that has not yet operated" — also a
# started corporation whose president is not the seller.
def test_no_selling_a_corporation_before_it_operates() -> None:
    g = opening()
    g.apply(Par("Cid", "IFT", 68))
    g.apply(Pass("Cid"))
    g.apply(BuyShares("Ann", "IFT", "treasury", 10))
    g.apply(Pass("Bob"))
    g.apply(Pass("Cid"))
    assert_rejected(g, SellShares("Ann", "IFT", 10))
    g.apply(Pass("Ann"))
    auto_until(g, in_stock_round)  # IFT operates in OR 1
    while g.active_entity() != "Ann":
        g.apply(Pass(g.active_entity() or ""))
    assert SellShares("Ann", "IFT", 10) in g.legal_actions()


# 1849 §SR Buy/sell shares: "a 20% last certificate" — presidency changes hands when a
# player holds more than the president; if the new president holds the last certificate, it
# is what the old president receives (RD §3.7).
def test_new_president_hands_over_the_last_certificate() -> None:
    g = opening()
    give_certs(g, "CTL", "Ann", 0, last=True)  # Ann holds the 20% last certificate
    g.apply(Pass("Cid"))
    g.apply(BuyShares("Ann", "CTL", "treasury", 10))
    reg = g.state.shares
    assert reg.president["CTL"] == "Ann"
    assert sorted((c.percent, c.president, c.last) for c in reg.held("Ann", "CTL")) == [
        (10, False, False),
        (20, True, False),
    ]
    assert [(c.percent, c.last) for c in reg.held("Bob", "CTL")] == [(20, True)]


# ====================================================================== share prices
# 1849 §Share price: "Tokens reach the blue zone only from the first 16H" — a sold-out
# corporation at 230 rises at the end of the SR only once the first 16H has been bought.
@pytest.mark.parametrize(("phase", "price"), [("12H", 230), ("16H", 242)])
def test_blue_zone_opens_with_the_first_16h(phase: str, price: int) -> None:
    g = opening()
    set_phase(g, phase)
    (pos,) = g.state.market.market.positions_at_price(230)
    g.state.market.move_to("CTL", pos)
    give_certs(g, "CTL", "Bob", 4)
    give_certs(g, "CTL", "Ann", 2)
    give_certs(g, "CTL", "Cid", 0, last=True)  # sold out: nothing in treasury or pool
    for who in ("Cid", "Ann", "Bob"):
        g.apply(Pass(who))
    assert not in_stock_round(g)
    assert g.state.market.price("CTL") == price


# ====================================================================== issuing
def _issue_step() -> Game:
    """OR 2.1 (`second_stock_round` passed through): CTL at its issue step."""
    g = second_stock_round()
    auto_until(g, at("CTL:issue"))
    return g


# 1849 §OR Issuing: "never in its first OR"
def test_no_issuing_in_the_first_or() -> None:
    g = two_corps()
    auto_until(g, at("CTL:trains"))
    assert not any(isinstance(a, IssueShares | RedeemShares) for a in g.legal_actions())
    assert_rejected(g, IssueShares("CTL", 10))


# 1849 §OR Issuing: "issue any number of its own certificates to the pool—one row down per
# 10%"; "never past a 50% pool"
def test_issue_shares_one_row_down_per_ten_percent() -> None:
    g = _issue_step()
    corp = g.state.corps["CTL"]
    issues = {a.percent for a in g.legal_actions() if isinstance(a, IssueShares)}
    assert issues == {10, 20, 30, 40, 50}  # 5 tens in the treasury; the pool stays <= 50%
    assert_rejected(g, IssueShares("CTL", 60))
    price, pos = g.state.market.price("CTL"), g.state.market.position("CTL")
    cash, bank = corp.cash, g.state.bank.cash
    g.apply(IssueShares("CTL", 30))
    assert corp.cash == cash + 3 * price
    assert g.state.bank.cash == bank - 3 * price
    assert g.state.shares.percent(POOL, "CTL") == 30
    assert g.state.market.price("CTL") == price_below(g, pos, 3)
    # "Never both": the step is over, no buy-back this turn
    assert where(g) == "CTL:trains"
    assert_rejected(g, RedeemShares("CTL", 10))


# 1849 §OR Issuing: "never past a 50% pool" (with 40% there, only one more 10%)
def test_issue_limited_by_the_pool() -> None:
    g = second_stock_round()
    give_certs(g, "CTL", POOL, 4)
    auto_until(g, at("CTL:issue"))
    issues = [a for a in g.legal_actions() if isinstance(a, IssueShares)]
    assert issues == [IssueShares("CTL", 10)]
    assert_rejected(g, IssueShares("CTL", 20))


# 1849 §OR Issuing: "or buy one back at market"
def test_buy_back_one_share_at_market() -> None:
    g = second_stock_round()
    give_certs(g, "CTL", POOL, 2)
    auto_until(g, at("CTL:issue"))
    corp = g.state.corps["CTL"]
    corp.cash = 500
    assert_rejected(g, RedeemShares("CTL", 20))  # one certificate only
    price, pos = g.state.market.price("CTL"), g.state.market.position("CTL")
    bank = g.state.bank.cash
    g.apply(RedeemShares("CTL", 10))
    assert corp.cash == 500 - price
    assert g.state.bank.cash == bank + price
    assert g.state.shares.percent(POOL, "CTL") == 10
    assert g.state.market.position("CTL") == pos
    assert_rejected(g, IssueShares("CTL", 10))  # never both


# R5: issuing comes after paying dividends and before buying trains, so the money raised
# may buy a train in the same turn.
def test_issue_money_buys_a_train_the_same_turn() -> None:
    g = _issue_step()
    corp = g.state.corps["CTL"]
    corp.cash = 0
    assert not any(isinstance(a, BuyTrain) for a in g.legal_actions())
    g.apply(IssueShares("CTL", 20))
    assert corp.cash >= 100
    g.apply(BuyTrain("CTL", "4H-1", 100))
    assert corp.trains == ["4H-0", "4H-1"]


# ====================================================================== trains
# 1849 §OR Buy trains: "Buy from another corporation at >= L. 1."
def test_buy_a_train_from_another_corporation_for_at_least_1() -> None:
    g = second_stock_round()
    auto_until(g, at("IFT:trains"))
    ift, ctl = g.state.corps["IFT"], g.state.corps["CTL"]
    assert ctl.trains == ["4H-0"]
    assert_rejected(g, BuyTrain("IFT", "4H-0", 0))
    assert_rejected(g, BuyTrain("IFT", "4H-0", ift.cash + 1))
    cash_i, cash_c = ift.cash, ctl.cash
    g.apply(BuyTrain("IFT", "4H-0", 1))
    # CTL's president (Bob) is not IFT's (Cid): Bob is asked (ruling R27) and accepts
    assert g.acting_player() == "Bob" and g.state.offer is not None
    g.apply(Choose("CTL", "accept"))
    assert ift.trains == ["4H-0"] and ctl.trains == []
    assert (ift.cash, ctl.cash) == (cash_i - 1, cash_c + 1)


# 1849 §OR Buy trains: "A corporation may never sell a train on its own turn."
def test_no_train_sale_on_the_sellers_own_turn() -> None:
    g = second_stock_round()
    auto_until(g, at("CTL:trains"))
    g.state.corps["IFT"].cash = 300
    # during CTL's turn, IFT cannot take CTL's train, and CTL cannot deal with itself
    assert_rejected(g, BuyTrain("IFT", "4H-0", 50), error=NotYourTurnError)
    assert_rejected(g, BuyTrain("CTL", "4H-0", 1))


# 1849 §OR Buy trains: "Discarding over the limit is the only way a train reaches the
# pool"; the first 8H brings the limit to 3 and rusts the 4H (§Trains).
def test_discard_over_the_limit_to_the_pool() -> None:
    g = second_stock_round()
    auto_until(g, at("CTL:trains"))
    ctl, ift = g.state.corps["CTL"], g.state.corps["IFT"]
    ctl.trains.remove("4H-0")
    give_train(g, "IFT", "4H-0")
    scrap(g, "4H-1", "4H-2", "4H-3")
    for tid in ("6H-0", "6H-1", "6H-2"):
        give_train(g, "CTL", tid)
    set_phase(g, "6H")
    g.state.extra.setdefault("types_bought", []).extend(["4H", "6H"])
    ctl.cash = 350
    g.apply(BuyTrain("CTL", "8H-0", 350))
    assert g.phase.name == "8H" and g.phase.train_limit == 3
    assert ift.trains == []  # the 4H rusted
    assert where(g) == "discard" and g.active_entity() == "CTL"
    # what those who watch read while CTL chooses (the public state's `asked`)
    assert g.title.prompt("discard").why(g, "CTL") == (
        "CTL holds 4 trains, over its limit of 3 in phase 8H: it gives one back to the pool"
    )
    assert_rejected(g, DiscardTrain("CTL", "4H-0"))
    g.apply(DiscardTrain("CTL", "6H-1"))
    assert g.state.depot.trains["6H-1"].owner == "pool"
    assert ctl.trains == ["6H-0", "6H-2", "8H-0"]
    # the discarded train is for sale again at face value
    auto_until(g, at("IFT:trains"))
    ift.cash = 200
    assert BuyTrain("IFT", "6H-1", 200) in g.legal_actions()
    g.apply(BuyTrain("IFT", "6H-1", 200))
    assert ift.trains == ["6H-1"]


# 1849 §Privates P5 RSA: "Comes with the president's certificate of the first corporation":
# its buyer pars it at once (AFG, the first at seed 3, with its home), as watchers are told
@pytest.mark.parametrize(("seed", "first", "home"), [(1, "CTL", ""), (3, "AFG", " and its home")])
def test_rsa_buyer_pars_the_first_corporation(seed: int, first: str, home: str) -> None:
    g = new_game("1849", NAMES, seed)
    sell_privates(g)
    assert g.state.pending == [("rsa_par", "Bob")] and state_of(g).order[0] == first
    assert asked(g) == (
        f"Bob owns the Reale Società d'Affari, which comes with {first}'s president's "
        f"certificate: Bob chooses {first}'s par price{home}, the bank paying its treasury "
        "(§Privates)"
    )
    assert Words(g).step()[0] == asked(g)  # the asked seat reads it above its answers too
    start_first(g)
    assert g.state.shares.president[first] == "Bob" and not g.state.pending


# 1849 §Privates P5 RSA: "Closes when that corporation buys its first train."
def test_rsa_closes_when_its_corporation_buys_a_train() -> None:
    g = two_corps()
    auto_until(g, at("CTL:trains"))
    assert not g.state.companies["RSA"].closed
    g.apply(BuyTrain("CTL", "4H-0", 100))
    assert g.state.companies["RSA"].closed


# ====================================================================== trouble
def _emergency(ctl_cash: int, bob_cash: int, cheapest: str = "4H") -> Game:
    """OR 2.1, CTL (operated once) at its train step with no train and a route. Bob holds
    50% of CTL (the president's 20% and 3 x 10%), Ann 30%."""
    g = second_stock_round()
    give_certs(g, "CTL", "Bob", 3)
    give_certs(g, "CTL", "Ann", 2)
    auto_until(g, at("CTL:issue"))
    g.apply(Pass("CTL"))
    ctl = g.state.corps["CTL"]
    scrap(g, *ctl.trains)
    ctl.trains.clear()
    if cheapest == "6H":
        scrap(g, "4H-1", "4H-2", "4H-3")
    ctl.cash = ctl_cash
    g.player("Bob").cash = bob_cash
    assert where(g) == "CTL:trains"
    return g


# 1849 §Trouble: "the president adds cash ... It buys that train and ends on L. 0."
def test_president_adds_the_missing_cash() -> None:
    g = _emergency(30, 200)
    acts = g.legal_actions()
    assert BuyTrain("CTL", "4H-1", 100) in acts and Pass("CTL") not in acts
    assert_rejected(g, Pass("CTL"))
    assert_rejected(g, SellShares("CTL", "CTL", 10))  # no sales while cash suffices
    assert_rejected(g, Bankrupt("CTL"))
    g.apply(BuyTrain("CTL", "4H-1", 100))
    assert g.state.corps["CTL"].cash == 0
    assert g.player("Bob").cash == 130
    assert g.state.corps["CTL"].trains == ["4H-1"]


# 1849 §Trouble: "then sells stock until it is enough, never losing the presidency" (R12)
def test_emergency_sales_never_give_up_the_presidency() -> None:
    g = _emergency(0, 0, cheapest="6H")  # 6H at 200: 10% or 20% of CTL is not enough
    price = g.state.market.price("CTL")
    assert 2 * price < 200 <= 3 * price
    assert not any(isinstance(a, BuyTrain) for a in g.legal_actions())
    # 30% would leave Bob 20% against Ann's 30%
    assert_rejected(g, SellShares("CTL", "CTL", 30))
    assert_rejected(g, SellShares("CTL", "IFT", 10))  # he holds no IFT
    g.apply(SellShares("CTL", "CTL", 20))  # Bob keeps 30%, level with Ann: still president
    assert g.state.shares.president["CTL"] == "Bob"
    assert g.player("Bob").cash == 2 * price
    assert g.state.shares.percent(POOL, "CTL") == 20


# 1849 §Trouble: "Still short → it all goes to the treasury and the corporation closes. A
# president left with no stock quits on L. 0, or takes a L. 500 loan costing L. 750 at
# scoring."
def test_failed_raising_closes_and_offers_the_loan() -> None:
    g = _emergency(0, 0, cheapest="6H")
    g.apply(SellShares("CTL", "CTL", 20))
    raised = g.player("Bob").cash
    assert g.legal_actions() == [Bankrupt("CTL")]
    warnings = Words(g).consequences(Bankrupt("CTL"))[1]
    assert warnings[0].startswith("CTL closes: it cannot raise the money it needs")
    bank = g.state.bank.cash
    g.apply(Bankrupt("CTL"))
    assert state_of(g).order[-1] == "CTL" and not g.state.corps["CTL"].parred
    assert g.state.bank.cash == bank + raised  # Bob's cash went to the treasury, then out
    assert where(g) == "loan" and g.active_entity() == "Bob"
    assert asked(g) == (
        "Bob is left with no stock after an emergency sale: Bob takes a L.500 loan (L.750 off "
        "their score) or leaves the game (§Trouble)"
    )
    assert g.player("Bob").cash == 0
    assert_rejected(g, Choose("Bob", "borrow"))
    g.apply(Choose("Bob", "loan"))
    assert g.player("Bob").cash == 500 and g.player("Bob").loans == 1
    assert title(g).raw_scores(g)["Bob"] == 500 - 750


# 1849 §Trouble: a president who can still raise the money may not give up.
def test_no_bankruptcy_while_stock_can_be_sold() -> None:
    g = _emergency(0, 0, cheapest="4H")
    assert not any(isinstance(a, Bankrupt) for a in g.legal_actions())
    assert_rejected(g, Bankrupt("CTL"))


# ====================================================================== privates
def _or1_track(phase: str) -> Game:
    """OR 1.1 of `opening`, CTL at its track step, the game set to `phase`."""
    g = opening()
    for _ in range(3):
        g.apply(Pass(g.active_entity() or ""))
    assert where(g) == "CTL:track"
    set_phase(g, phase)
    return g


# RD §5.11: corporations buy privates only in phases 6H-10H, never RSA, for L.1 to twice
# face value.
def test_corporations_buy_privates_from_6h_to_10h() -> None:
    g = _or1_track("4H")
    assert_rejected(g, BuyCompany("CTL", "SIGI", 45))
    g = _or1_track("6H")
    assert_rejected(g, BuyCompany("CTL", "RSA", 100))
    assert_rejected(g, BuyCompany("CTL", "SIGI", 91))
    assert_rejected(g, BuyCompany("CTL", "SIGI", 0))
    bob = g.player("Bob").cash
    buy_agreed(g, BuyCompany("CTL", "SIGI", 90))
    assert g.state.companies["SIGI"].owner == "CTL"
    assert g.player("Bob").cash == bob + 90


# RD §5.11 through the title's one contract for anytime actions (issue 35): it returns
# nothing for a legal one (a listed one, or a private at any price of its range) and raises,
# naming the rule, for an illegal one, which the operating round refuses before any step
def test_an_anytime_action_is_judged_by_raising_or_returning_nothing() -> None:
    g = _or1_track("6H")
    rnd = g.state.round
    assert isinstance(rnd, OperatingRound)
    listed = g.title.anytime_actions(g, rnd, "CTL")
    assert listed
    for action in [*listed, BuyCompany("CTL", "SIGI", 1), BuyCompany("CTL", "SIGI", 60)]:
        g.title.anytime_validate(g, rnd, "CTL", action)  # legal: no error
    assert_rejected(g, BuyCompany("CTL", "SIGI", 91), "§Privates")
    assert_rejected(g, BuyCompany("CTL", "RSA", 100), "anytime action")
    assert_rejected(g, UseCompany("CTL", "CNM", "A5"), "anytime action")  # Cid owns it


# 1849 §Privates P1 SCE: "Blocks Acireale (G13) until it closes or a corporation buys it."
def test_sce_stops_blocking_acireale_once_a_corporation_buys_it() -> None:
    g = _or1_track("6H")
    assert map_glue.rules_for(g, "CTL").sce_blocks_g13
    buy_agreed(g, BuyCompany("CTL", "SCE", 20))
    assert not map_glue.rules_for(g, "CTL").sce_blocks_g13
    assert not map_glue.rules_for(g, "IFT").sce_blocks_g13


# 1849 §Privates P2 SIGI: "Half terrain cost for standard gauge only." D2 is a L.160 hex.
def test_sigi_halves_standard_terrain_only() -> None:
    g = _or1_track("6H")
    buy_agreed(g, BuyCompany("CTL", "SIGI", 45))
    corp = g.state.corps["CTL"]
    cash = corp.cash
    lays = {a.tile: a for a in g.legal_actions() if isinstance(a, LayTile) and a.hex == "D2"}
    narrow = g.clone()
    narrow.apply(lays["79"])  # narrow track: a quarter, no discount
    assert narrow.state.corps["CTL"].cash == cash - 40
    g.apply(lays["9"])  # standard track: half of 160
    assert corp.cash == cash - 80


# 1849 §Privates P3 CNM: "Close to add +L. 20 to one port on your own routes, for good."
# 1849 §Trains 12H: "Privates close" (every one still open; RD §7.2), SCE's block ends.
def test_cnm_bonus_survives_the_12h_closing_every_private() -> None:
    g = _or1_track("10H")
    assert_rejected(g, UseCompany("CTL", "CNM", "A5"))  # Cid still owns it
    buy_agreed(g, BuyCompany("CTL", "CNM", 75))
    assert_rejected(g, UseCompany("CTL", "CNM", "C5"))  # not a port
    g.apply(UseCompany("CTL", "CNM", "A5"))
    assert g.state.companies["CNM"].closed
    assert state_of(g).cnm_port == {"CTL": "A5"}
    assert map_glue.rules_for(g, "IFT").sce_blocks_g13
    auto_until(g, at("CTL:trains"))
    early = [t for t, tr in g.state.depot.trains.items() if tr.kind in ("4H", "6H", "8H", "10H")]
    scrap(g, *early)
    g.state.corps["CTL"].cash = 800
    g.apply(BuyTrain("CTL", "12H-0", 800))
    assert all(c.closed for c in g.state.companies.values())
    assert not map_glue.rules_for(g, "IFT").sce_blocks_g13
    assert map_glue.rules_for(g, "CTL").cnm_ports == {"CTL": "A5"}


# 1849 §Privates P4 SMS: "Close in place of the tile and token steps: a tile and/or token
# in any coastal city, no route."
def test_sms_builds_and_tokens_in_a_coastal_city_without_a_route() -> None:
    g = _or1_track("6H")
    buy_agreed(g, BuyCompany("CTL", "SMS", 110))
    assert_rejected(g, UseCompany("CTL", "SMS", "H8"))  # not one of its coastal cities
    g.apply(UseCompany("CTL", "SMS", "M13"))
    assert g.state.companies["SMS"].closed
    lays = [a for a in g.legal_actions() if isinstance(a, LayTile)]
    assert lays and all(a.hex == "M13" for a in lays)
    assert_rejected(g, LayTile("CTL", "D2", "9", 0), error=TrackError)
    g.apply(Pass("CTL"))
    assert where(g) == "CTL:token"
    assert [a for a in g.legal_actions() if isinstance(a, PlaceToken)] == [
        PlaceToken("CTL", "M13", 0)
    ]
    g.apply(PlaceToken("CTL", "M13", 0))
    assert g.state.map.has_token("CTL", "M13")


# 1849 §Privates P4 SMS: "in place of the tile and token steps" — not after them.
def test_sms_not_after_the_track_step() -> None:
    g = _or1_track("6H")
    buy_agreed(g, BuyCompany("CTL", "SMS", 110))
    g.apply(Pass("CTL"))
    assert where(g) == "CTL:token"
    assert_rejected(g, UseCompany("CTL", "SMS", "M13"))
    assert not g.state.companies["SMS"].closed


# ====================================================================== game end
# 1849 §Endgame: "Or the bank breaks—finish the set of ORs"
def test_bank_breaking_in_an_or_finishes_the_set() -> None:
    g = opening()
    set_phase(g, "6H")  # two ORs per set
    g.state.bank.cash = 30
    for who in ("Cid", "Ann", "Bob"):
        g.apply(Pass(who))
    # the privates' revenue at the start of OR 1.1 breaks the bank
    assert g.state.bank.broken and not g.state.finished
    assert g.state.or_in_set == 1 and g.state.ors_in_set == 2
    auto_until(g, lambda g: g.state.or_in_set == 2)
    assert not g.state.finished
    auto_until(g, lambda g: g.state.finished)
    assert g.state.end_reason == "bank"
    assert g.state.operating_round_no == 2 and g.state.stock_round_no == 1


# 1849 §Endgame: the bank breaking in a stock round: the following set of ORs is played.
def test_bank_breaking_in_a_stock_round() -> None:
    g = second_stock_round()
    g.apply(Pass("Bob"))
    g.apply(Pass("Cid"))
    g.state.bank.cash = 10
    g.apply(SellShares("Ann", "CTL", 10))  # the bank pays Ann and breaks
    assert g.state.bank.broken and not g.state.finished
    g.apply(Pass("Ann"))
    for who in ("Bob", "Cid", "Ann"):
        g.apply(Pass(who))
    assert isinstance(g.state.round, OperatingRound) and not g.state.finished
    auto_until(g, lambda g: g.state.finished)
    assert g.state.end_reason == "bank"
    assert g.state.operating_round_no == 2 and g.state.stock_round_no == 2


# 1849 §OR Pay dividends: holders are paid per 10% from the bank; pool shares pay no one
# (R11). Checked through a real run: CTL's 4H runs E1-C1.
def test_dividend_pays_holders_not_the_pool() -> None:
    g = second_stock_round()
    give_certs(g, "CTL", POOL, 1)
    auto_until(g, at("CTL:dividend"))
    revenue = op_round(g).turn.revenue or 0
    assert revenue > 0
    ann, bob, corp = g.player("Ann").cash, g.player("Bob").cash, g.state.corps["CTL"].cash
    g.apply(Dividend("CTL", "payout"))
    assert g.player("Bob").cash == bob + revenue * 2 // 10
    assert g.player("Ann").cash == ann + revenue // 10
    # the treasury holds 60% (4 x 10% and the 20% last certificate)
    assert g.state.corps["CTL"].cash == corp + revenue * 6 // 10


# 1849 §Messina earthquake: "Garibaldi closes with it if Messina was its home and it holds no
# token on another city." (AFG is RSA's corporation at seed 3.)
@pytest.mark.parametrize("other_token", [False, True])
def test_earthquake_closes_garibaldi_homed_in_messina(other_token: bool) -> None:
    g = new_game("1849", NAMES, 3)
    sell_privates(g)
    g.apply(Par("Bob", "AFG", 100, "B14"))
    for _ in range(3):
        g.apply(Pass(g.active_entity() or ""))
    set_phase(g, "10H")
    auto_until(g, at("AFG:trains"))
    if other_token:
        put_token(g, "AFG", "C1")
    early = [t for t, tr in g.state.depot.trains.items() if tr.kind in ("4H", "6H", "8H", "10H")]
    scrap(g, *early)
    g.state.corps["AFG"].cash = 800
    warnings = Words(g).consequences(BuyTrain("AFG", "12H-0", 800))[1]
    closes = "AFG closes: the Messina earthquake destroys its only station"
    assert [w.startswith(closes) for w in warnings if "AFG closes" in w] == (
        [] if other_token else [True]
    )
    g.apply(BuyTrain("AFG", "12H-0", 800))
    afg = g.state.corps["AFG"]
    assert not g.state.map.has_token("AFG", "B14")  # Messina's tokens are lost either way
    if other_token:
        assert afg.floated and afg.placed == [("C1", 0)] and afg.tokens == 2
    else:
        assert not afg.parred and state_of(g).order[-1] == "AFG"
        assert g.state.shares.percent("Bob", "AFG") == 0


# 1849 §SR Buy/sell shares: "a 20% last certificate that is buyable only when no 10% is left
# in the same place"
def test_last_certificate_not_bought_while_tens_remain() -> None:
    g = opening()
    assert_rejected(g, BuyShares("Cid", "CTL", "treasury", 20))
    give_certs(g, "CTL", "Ann", 2)
    give_certs(g, "CTL", POOL, 3)  # one 10% and the last certificate remain in the treasury
    assert_rejected(g, BuyShares("Cid", "CTL", "treasury", 20))
    give_certs(g, "CTL", POOL, 1)  # tens are left in the pool, none in the treasury
    assert BuyShares("Cid", "CTL", "treasury", 20) in g.legal_actions()
    assert_rejected(g, BuyShares("Cid", "CTL", "pool", 20))
    g.apply(BuyShares("Cid", "CTL", "treasury", 20))
    assert [(c.percent, c.last) for c in g.state.shares.held("Cid", "CTL")] == [(20, True)]
    assert g.player("Cid").cash == 500 - 75 - 200
