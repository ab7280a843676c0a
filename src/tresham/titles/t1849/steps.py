"""1849's operating-turn steps, private powers and prompts (1849 §OR, §Trouble, §Privates).

Step order (the summary's): lay track, place a token, run trains, pay or withhold, issue or
buy back, buy trains; the "18xx.games" rule set issues after buying trains (``rule_set.py``).
The first four are the shared steps of ``core/rounds/steps.py`` with 1849's rules
(``operating.py``); issuing, trains and the end-of-turn private purchase are 1849's own.
Buying privates (phases 6H-10H) and private powers may be used at any point of the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.core.actions import (
    Action,
    Bankrupt,
    BuyCompany,
    BuyTrain,
    IssueShares,
    Pass,
    RedeemShares,
    SellShares,
    UseCompany,
)
from tresham.core.errors import RuleError
from tresham.core.rounds.operating import OperatingRound, Step
from tresham.core.rounds.steps import (
    DividendStep,
    RouteStep,
    TokenStep,
    TrackStep,
    buy_train,
    check_train_from_corporation,
)
from tresham.core.shares import POOL, Certificate, treasury
from tresham.core.stock import bundle_price, emergency_bundles, sell_to_pool, treasury_certs
from tresham.core.trains import Train
from tresham.titles.t1849 import map_glue, variants
from tresham.titles.t1849.facts import rules_of
from tresham.titles.t1849.operating import OPERATING
from tresham.titles.t1849.rule_set import (
    site_engine,
    site_fifth_round,
    site_fourth_round,
    site_proven,
    site_seventh_round,
)
from tresham.titles.t1849.state import state_of, turn_of

if TYPE_CHECKING:
    from tresham.core.game import Game

OR = "1849 §OR"
SMS_HEXES = ("B14", "C1", "C5", "E1", "H12", "J6", "M9", "M13")
CNM_PORTS = ("A5", "a12", "L14", "N8")
POOL_CAP = 50
#: The prompt of a president left with no stock: a loan, or leaving (1849 §Trouble).
LOAN_PROMPT = "loan"


# ====================================================================== issuing
def issue_bundles(game: Game, corp: str) -> list[list[Certificate]]:
    """The bundles of treasury certificates a corporation may issue: one or more 10%
    certificates, or all of them with the 20% last certificate (the last certificate goes only
    when it is the last in the treasury; rule details §3.6)."""
    tr = [x for x in treasury_certs(game, corp) if not x.president]
    tens = [x for x in tr if not x.last]
    lasts = [x for x in tr if x.last]
    bundles = [tens[:n] for n in range(1, len(tens) + 1)]
    if lasts:
        bundles.append(tens + lasts)
    return bundles


def issue(game: Game, corp: str, percent: int) -> None:
    """Issue `percent` of the treasury's certificates to the pool: the bank pays market value
    and the price drops a row per 10% (1849 §OR Issuing)."""
    bundle = next(b for b in issue_bundles(game, corp) if sum(x.percent for x in b) == percent)
    for cert in bundle:
        game.state.shares.move(cert.cid, POOL)
    value = bundle_price(game, corp, percent)
    game.transfer("bank", corp, value)
    game.log(f"{corp} issues {percent}% for L.{value}")
    rules_of(game).move_price(game, corp, "down", percent // 10)


def emergency_sale(game: Game, pres: str, sale: SellShares, *, bankrupt: bool = False) -> None:
    """The president sells to the pool to raise money for the corporation; the price drops a
    row per 10% (1849 §Trouble). In the "18xx.games" rule set (from rules version 5) the
    corporations still to operate in the round then go in their new market order (ruling
    S13), but not after the sales of a bankruptcy (from rules version 7, ruling S16: the
    site's 1849 ``Bankrupt`` step leaves the round's order as it is)."""
    sell_to_pool(game, pres, sale.corporation, sale.percent, sale.last)
    game.log(f"{pres} sells {sale.percent}% of {sale.corporation} (emergency)")
    rules_of(game).move_price(game, sale.corporation, "down", sale.percent // 10)
    rnd = game.state.round
    if bankrupt and site_fourth_round(game):
        return
    if site_engine(game) and isinstance(rnd, OperatingRound):
        reorder_the_rest(game, rnd)


def reorder_the_rest(game: Game, rnd: OperatingRound) -> None:
    """Ruling S13 (the site's ``Round::Operating#recalculate_order`` after an emergency
    sale): the corporations after the one operating go in market order, higher price first
    (a shared space by its stacking order); those closed meanwhile drop out."""
    s = game.state
    later = [c for c in rnd.order[rnd.index + 1 :] if c in s.market and not s.corps[c].closed]
    order = s.market.operating_order(later)
    if order != rnd.order[rnd.index + 1 :]:
        game.log(f"Operating order now: {', '.join(order)}")
    rnd.order[rnd.index + 1 :] = order


def president_sales(game: Game, corp: str, pres: str, shortfall: int) -> list[SellShares]:
    """Emergency sales by the president: corporations that have operated, the pool within
    50%, never giving up this corporation's presidency, and never more than needed: a bundle
    only if the next smaller one would not cover the shortfall (rule details §5.10)."""
    s = game.state
    operated = [sym for sym, oc in s.corps.items() if not oc.closed and oc.operated > 0]
    return [
        SellShares(corp, sym, pct, last)
        for sym, pct, last in emergency_bundles(
            game, pres, corp, operated, shortfall, POOL_CAP, keep=20
        )
    ]


class IssueStep(Step):
    """Issue treasury certificates to the pool (one row down per 10%) or buy one back at
    market — never both, never in its first OR, never past a 50% pool (1849 §OR Issuing)."""

    name = "issue"
    label = "issuing or buying back shares"
    rule = f"{OR} Issuing"

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        s = game.state
        c = s.corps[corp]
        if c.operated < 1:
            return []
        out: list[Action] = []
        pool_pct = s.shares.percent(POOL, corp)
        for bundle in issue_bundles(game, corp):
            percent = sum(x.percent for x in bundle)
            if pool_pct + percent <= POOL_CAP:
                out.append(IssueShares(corp, percent))
        pool = s.shares.held(POOL, corp)
        pool_tens = [x for x in pool if not x.last]
        if pool_tens:
            if bundle_price(game, corp, 10) <= c.cash:
                out.append(RedeemShares(corp, 10))
        elif pool and bundle_price(game, corp, pool[0].percent) <= c.cash:
            out.append(RedeemShares(corp, pool[0].percent))
        if out:
            out.append(Pass(corp))
        return out

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        s = game.state
        if isinstance(action, IssueShares):
            issue(game, corp, action.percent)
        elif isinstance(action, RedeemShares):
            pool = s.shares.held(POOL, corp)
            cert = next((x for x in pool if not x.last), pool[0])
            value = bundle_price(game, corp, cert.percent)
            game.transfer(corp, "bank", value)
            s.shares.move(cert.cid, treasury(corp))
            game.log(f"{corp} buys back {cert.percent}% for L.{value}")
        return True


# ====================================================================== trains
class TrainStep(Step):
    """Buy trains (1849 §OR Buy trains, §Trouble): from the bank at face value, or from
    another corporation at L.1 or more. A trainless corporation with a route must buy a
    train; if its treasury cannot pay for the cheapest train in the bank, its president may
    add cash, then sell stock (never losing this presidency), to buy that one, even when
    other corporations have trains it could buy instead (ruling R20); still short, it
    closes. With only E-trains it may not buy left in the bank, the "18xx.games" rule set
    makes it buy another corporation's (ruling S26: `must_buy_elsewhere`)."""

    name = "trains"
    label = "buying trains"
    rule = f"{OR} Buy trains"

    def _room(self, game: Game, corp: str) -> bool:
        limit = game.phase.limit(game.state.corps[corp].kind)
        return len(game.state.corps[corp].trains) < limit

    def bank_trains(self, game: Game, corp: str) -> list[Train]:
        """The trains the bank sells `corp` now (E-trains only with an E-token)."""
        s = game.state
        return [
            t
            for t in s.depot.purchasable(set(s.phases_reached))
            if variants.may_own(game, corp, t.kind)
        ]

    def must_buy(self, game: Game, corp: str) -> bool:
        """A trainless corporation with a route must own a train."""
        s = game.state
        if s.corps[corp].trains:
            return False
        if not self.bank_trains(game, corp):
            return False
        return map_glue.has_route(game, corp)

    def must_buy_elsewhere(self, game: Game, corp: str) -> bool:
        """A trainless corporation with a route whose bank holds trains, none of which it may
        own (E-trains, without an E-token), must buy another corporation's train: in the
        "18xx.games" rule set from rules version `SITE_SEVENTH_VERSION` (ruling S26: the site's
        ``must_buy_train?`` counts every train of its depot, its ``BuyTrain#actions`` then
        offers no pass)."""
        s = game.state
        if not site_seventh_round(game) or s.corps[corp].trains or self.bank_trains(game, corp):
            return False
        if not s.depot.purchasable(set(s.phases_reached)):
            return False
        return map_glue.has_route(game, corp)

    def cheapest(self, game: Game, corp: str) -> tuple[str, int] | None:
        """The cheapest train the bank sells `corp` now (an E-train only to a corporation
        with an E-token, as the site's ``min_depot_train_no_e_token``)."""
        s = game.state
        trains = self.bank_trains(game, corp)
        if not trains:
            return None
        t = min(trains, key=lambda t: (s.depot.types[t.kind].price, s.depot.order.index(t.tid)))
        return t.tid, s.depot.types[t.kind].price

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        s = game.state
        c = s.corps[corp]
        if not self._room(game, corp):
            return []
        out: list[Action] = []
        for t in self.bank_trains(game, corp):
            price = s.depot.types[t.kind].price
            if price <= c.cash:
                out.append(BuyTrain(corp, t.tid, price))
        if c.cash >= 1:
            for other, oc in s.corps.items():
                if other == corp or oc.closed:
                    continue
                for tid in oc.trains:
                    if not variants.may_own(game, corp, s.depot.trains[tid].kind):
                        continue
                    out.append(BuyTrain(corp, tid, 1))
                    if c.cash > 1:
                        out.append(BuyTrain(corp, tid, c.cash))
        if self.must_buy(game, corp):
            cheap = self.cheapest(game, corp)
            assert cheap is not None
            if cheap[1] > c.cash:
                pres = s.shares.president[corp]
                assert pres is not None
                out.append(BuyTrain(corp, cheap[0], cheap[1]))
                shortfall = cheap[1] - c.cash - game.player(pres).cash
                if shortfall > 0:
                    out = [a for a in out if not (isinstance(a, BuyTrain) and a.train == cheap[0])]
                    out.extend(president_sales(game, corp, pres, shortfall))
                    if not out or self._cannot_raise(game, corp, pres, shortfall):
                        out.append(Bankrupt(corp))
            return out
        if out and not self.must_buy_elsewhere(game, corp):
            out.append(Pass(corp))
        return out

    def bankruptcy_sales(self, game: Game, corp: str) -> list[SellShares]:
        """The sales of the president of `corp` when it goes bankrupt (§Trouble "Still short:
        it all goes to the treasury"): his largest legal sale in each corporation."""
        pres = game.state.shares.president[corp]
        cheap = self.cheapest(game, corp)
        assert pres is not None and cheap is not None
        shortfall = cheap[1] - game.state.corps[corp].cash - game.player(pres).cash
        return self._largest_sales(game, corp, pres, shortfall)

    def _largest_sales(self, game: Game, corp: str, pres: str, shortfall: int) -> list[SellShares]:
        """The most the president may sell in each corporation, in operating order. Where the
        20% last certificate makes that percent with fewer certificates, the "18xx.games" rule
        set sells it from rules version `SITE_DEPARTED_VERSION` (ruling S21: the site's
        ``max_by(&:price)`` over bundles enumerated by their number of certificates keeps the
        first of equal price; random game 4 players seed 123: the last certificate, not two
        10%, whose holder later could sell 10% on the site)."""
        fewer = site_fifth_round(game)
        best: dict[str, SellShares] = {}
        for a in president_sales(game, corp, pres, shortfall):
            was = best.get(a.corporation)
            if was is None or (a.percent, fewer and a.last) > (was.percent, fewer and was.last):
                best[a.corporation] = a
        return [best[sym] for sym in game.state.market.operating_order(best)]

    def _cannot_raise(self, game: Game, corp: str, pres: str, shortfall: int) -> bool:
        """Whether even every legal sale leaves the president short (bankruptcy allowed)."""
        raised = sum(
            bundle_price(game, a.corporation, a.percent)
            for a in self._largest_sales(game, corp, pres, shortfall)
        )
        return raised < shortfall

    def validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        if isinstance(action, BuyTrain):
            train = game.state.depot.trains.get(action.train)
            if train is not None and not variants.may_own(game, corp, train.kind):
                raise RuleError(f"{corp} needs an E-token to buy an E-train", variants.RULE_E)
        if isinstance(action, BuyTrain) and check_train_from_corporation(
            game, corp, action, self._room(game, corp), self.rule
        ):
            return
        super().validate(game, rnd, corp, action)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        s = game.state
        title = rules_of(game)
        if isinstance(action, Pass):
            return True
        if isinstance(action, Bankrupt):
            # §Trouble "Still short: it all goes to the treasury": the president's largest
            # legal sale in each corporation, then all the president's cash
            pres = s.shares.president[corp]
            assert pres is not None
            for sale in self.bankruptcy_sales(game, corp):
                emergency_sale(game, pres, sale, bankrupt=True)
            game.transfer(pres, corp, game.player(pres).cash)
            title.close_corporation(game, corp)
            self._after_failure(game, pres)
            return True
        if isinstance(action, SellShares):
            pres = s.shares.president[corp]
            assert pres is not None
            emergency_sale(game, pres, action)
            return False
        assert isinstance(action, BuyTrain)
        kind = buy_train(game, corp, action)
        if state_of(game).rsa_corp == corp and not s.companies["RSA"].closed:
            s.companies["RSA"].closed = True
            game.log("RSA closes: its corporation bought a train")
        title.on_train_bought(game, kind)
        return False

    def _after_failure(self, game: Game, pres: str) -> None:
        """A president left with no stock quits or takes a L.500 loan (1849 §Trouble)."""
        ask_loan(game, pres)


def ask_loan(game: Game, pres: str) -> None:
    """A president left with no stock after a bankruptcy chooses: quit, or take a L.500 loan
    (1849 §Trouble). In the "18xx.games" rule set only in an operating round (ruling S9):
    where the round has no corporation left open (from rules version 5; before it, where the
    bankrupt corporation was the last to operate), the round ends and the choice waits for
    the next operating round (the player takes part in the stock round between with
    nothing)."""
    s = game.state
    if s.shares.held(pres):
        return
    rnd = s.round
    if site_proven(game) and isinstance(rnd, OperatingRound):
        later = rnd.order if site_engine(game) else rnd.order[rnd.index + 1 :]
        if all(s.corps[c].closed or not s.corps[c].floated for c in later):
            state_of(game).loan_later.append(pres)
            return
    s.pending.append((LOAN_PROMPT, pres))


# ====================================================================== anytime
def anytime_actions(game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
    """Buying a player's private (phases 6H, 8H, 10H; never RSA) and private powers."""
    s = game.state
    out: list[Action] = []
    c = s.corps[corp]
    if s.round is not rnd:
        return out
    if game.phase.name in ("6H", "8H", "10H") and c.cash >= 1:
        for comp in s.companies.values():
            if comp.closed or comp.sym == "RSA" or comp.owner not in {p.name for p in s.players}:
                continue
            out.append(BuyCompany(corp, comp.sym, min(c.cash, 2 * comp.value)))
    for comp in s.companies.values():
        if comp.closed or comp.owner != corp:
            continue
        if comp.sym == "CNM":
            out.extend(UseCompany(corp, "CNM", port) for port in CNM_PORTS)
        if comp.sym == "SMS" and rnd.steps[rnd.step] == "track" and not turn_of(rnd).sms_used:
            out.extend(UseCompany(corp, "SMS", h) for h in SMS_HEXES)
    return out


def process_anytime(game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
    """Apply a private purchase or use a private's power (1849 §Privates)."""
    s = game.state
    if isinstance(action, BuyCompany):
        comp = s.companies[action.company]
        assert comp.owner is not None
        game.transfer(corp, comp.owner, action.price)
        game.log(f"{corp} buys {comp.sym} from {comp.owner} for L.{action.price}")
        comp.owner = corp
        return
    assert isinstance(action, UseCompany)
    comp = s.companies[action.company]
    comp.closed = True
    if comp.sym == "CNM":
        state_of(game).cnm_port[corp] = action.target
        game.log(f"{corp} closes CNM: +L.20 at port {action.target}")
    elif comp.sym == "SMS":
        turn = turn_of(rnd)
        turn.sms_used = True
        turn.sms_hex = action.target
        game.log(f"{corp} closes SMS to build in {game.state.map.board.place(action.target)}")


# ====================================================================== prompts


class CompaniesStep(Step):
    """The turn's last chance to buy a private (1849 §OR "at any point of the turn"; ruling
    R19): while a purchase is possible the turn waits for one or for a pass. The purchases
    themselves are anytime actions."""

    name = "companies"
    label = "buying privates"
    rule = f"{OR} Buying privates"

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if any(isinstance(a, BuyCompany) for a in anytime_actions(game, rnd, corp)):
            return [Pass(corp)]
        return []

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        return True


STEP_OBJECTS: dict[str, Step] = {
    s.name: s
    for s in (
        TrackStep(OPERATING, f"{OR} Lay track"),
        TokenStep(OPERATING, f"{OR} Tokens"),
        RouteStep(OPERATING, f"{OR} Run trains"),
        DividendStep(OPERATING, f"{OR} Pay dividends"),
        IssueStep(),
        TrainStep(),
        CompaniesStep(),
    )
}
