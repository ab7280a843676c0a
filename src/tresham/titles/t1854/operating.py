"""1854's Operating Rounds (§5.2 in the rulebook's order) for the Major Companies and the
Local Railways (``local_railways.py``): the shared steps (``core/rounds/steps.py``) with
1854's rules, 1854's dividend rule and its own train and mail steps.

Built: one yellow tile or promotion a turn (§5.3, §5.4; the first turn on a bare home hex,
ruling T1), one station a turn at 50/100/150 G (§5.5), n-trains through the shared optimizer
(§5.6), payout or withholding with the price moving right or left either way (§5.7, §5.8),
trains from the bank in order with the 1854 offers (§5.9), trading between companies from
Phase 3 (§5.9, §5.11), the compulsory purchase with the Director's money and share sales,
bankruptcy ending the game (§5.9, §8), mail contracts (``mail.py``, §5.12), the Major
Local Railways' home and merger steps (``major_local.py``), and tunnels built instead of a
tile (``tunnels.py``, §5.3.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tresham.core.actions import (
    Action,
    Bankrupt,
    BuyTrain,
    Choose,
    LayTile,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from tresham.core.end import EndReason
from tresham.core.errors import RuleError, TrackError
from tresham.core.graph import check_tile_lay, legal_tile_lays, reachable_stops, token_slots
from tresham.core.prompts import Prompt
from tresham.core.rounds.operating import OperatingRound, Step
from tresham.core.rounds.steps import DividendStep, RouteStep, TokenStep, TrackStep, buy_train
from tresham.core.rules_protocols import TrainSpec
from tresham.core.stock import bundle_price
from tresham.routes.runs import action_revenue, runs_action
from tresham.titles.t1854 import cities, local_railways, mail, major_local, options, tunnels
from tresham.titles.t1854.actions import BuildTunnel, CloseLocal, MergeLocals
from tresham.titles.t1854.facts import rules_of
from tresham.titles.t1854.state import state_of, turn_of
from tresham.titles.t1854.track_rules import TrackRules1854
from tresham.titles.t1854.versions import DEALS_VERSION

if TYPE_CHECKING:
    from tresham.core.game import Game

OR = "1854 §5"
#: The prompt asking a shielded hex's guard for permission (§5.3, ruling T2), its answers.
PERMISSION = "shield_permission"
GRANT = "grant"
REFUSE = "refuse"
RULE_TRAINS = "1854 §5.9"


def rules_for(game: Game, corp: str, *, asking: bool = False) -> TrackRules1854:
    """The track hooks for `corp` now: the phase's colours, the shields until the first
    8-train (or Orient Express, ruling T3; with `asking`, only those whose permission cannot
    be asked for, ruling T2), the Mountain Railways its Director owns: their hexes, the
    Außerfernbahn's discount, the Graz-Köflacher Bahn's bonus (Table 2)."""
    s = game.state
    board = s.map.board.extra
    local = local_railways.is_local(game, corp)
    director = game.title.controller(game, corp)
    owned = {
        c.powers["hex"]: c
        for c in s.companies.values()
        if director is not None
        and c.owner == director
        and not c.closed
        and c.powers.get("kind") == "mountain"
    }
    bonus: dict[str, int] = {}
    discount = 0
    for comp in owned.values():
        power = comp.powers.get("power", {})
        route_bonus = power.get("route_bonus")
        if route_bonus is not None:
            bonus[route_bonus["hex"]] = route_bonus["amount"]
        discount += power.get("mountain_discount", 0)
    return TrackRules1854(
        phase=game.phase.name,
        colors=game.phase.tiles,
        local_map=board["local_map"],
        local=local,
        tunnel_only=board["tunnel_only"],
        shielded=_shields(game, director, asking),
        free_hexes=owned,
        mountains=rules_of(game).mountains,
        mountain_discount=discount,
        closed_stops=board["orient_express_starts"],
        bonus=bonus,
        customs=rules_of(game).customs,
        gateways=rules_of(game).gateways,
        one_city=board["one_city_hexes"],
        medium=cities.medium_cities(game),
        promoting=cities.PROMOTION_PHASE in s.phases_reached,
    )


def _shields(game: Game, director: str | None, asking: bool = False) -> dict[str, str]:
    """§5.3: the shielded hexes still needing permission (none once the first 8-train or
    Orient Express is bought, ruling T3); a guard whose Director is the laying company's
    gives it (ruling T2). With `asking`: only those whose guard has no Director to ask, or
    whose guard refused this turn."""
    s = game.state
    if "8" in s.phases_reached:
        return {}
    shielded: dict[str, str] = s.map.board.extra["shielded"]
    out = {h: guard for h, guard in shielded.items() if s.shares.president[guard] != director}
    if not asking:
        return out
    rnd = s.round
    refused = turn_of(rnd).refused if isinstance(rnd, OperatingRound) else []
    return {h: g for h, g in out.items() if s.shares.president[g] is None or h in refused}


def needs_permission(game: Game, corp: str, coord: str) -> str | None:
    """§5.3: the company guarding `coord` whose Director must permit `corp`'s yellow tile
    there (ruling T2), or None."""
    s = game.state
    if coord in s.map.tiles:
        return None  # "Promotion of the tile does not require permission"
    return _shields(game, game.title.controller(game, corp)).get(coord)


class Permission(Prompt):
    """Ruling T2: the guard's Director grants or refuses the permission asked for. Granted,
    the tile is laid as the asking company's lay of the turn; refused, the company may lay
    elsewhere (not there again this turn)."""

    kind = PERMISSION
    rule = PERMISSION

    def actions(self, game: Game, entity: str) -> list[Action]:
        return [Choose(entity, GRANT), Choose(entity, REFUSE)]

    def process(self, game: Game, entity: str, action: Action) -> None:
        s = game.state
        rnd = s.round
        assert isinstance(rnd, OperatingRound) and isinstance(action, Choose)
        state = state_of(game)
        ask = state.shield_request
        assert ask is not None
        state.shield_request = None
        corp = ask.entity
        if action.choice == GRANT:
            game.log(f"{entity} permits {corp}'s tile on {ask.hex}")
            cost = OPERATING.lay(game, rnd, corp, ask)
            game.log(
                f"{corp} lays tile {ask.tile} on {ask.hex} (rotation {ask.rotation}) for {cost} G"
            )
            turn_of(rnd).laid = True
        else:
            game.log(f"{entity} refuses {corp} a tile on {ask.hex}")
            turn_of(rnd).refused.append(ask.hex)

    def why(self, game: Game, entity: str) -> str:
        """§5.3: who asks to lay where, and whose Director answers for the guard."""
        ask = state_of(game).shield_request
        if ask is None:
            return ""
        director = game.title.controller(game, entity) or entity
        where = game.state.map.board.place(ask.hex)
        return (
            f"{ask.entity} asks to lay tile {ask.tile} on {where}, which {entity} guards: "
            f"{director}, its Director, permits it or refuses (§5.3)"
        )

    def words(self, game: Game, entity: str, action: Action, words: Any) -> str | None:
        """The Director's answer: which tile, where, for whom."""
        request = state_of(game).shield_request
        if not isinstance(action, Choose) or request is None:
            return None
        where = game.state.map.board.place(request.hex)
        if action.choice == GRANT:
            return f"Let {request.entity} lay tile {request.tile} on {where}"
        return f"Refuse {request.entity} tile {request.tile} on {where}"


def train_specs(game: Game, corp: str) -> list[TrainSpec]:
    """The trains `corp` runs: a Local Railway its plus trains, a Major Company the others
    (§5.9: "Local Railways can use only the `Plus Trains'. Conversely the `Plus Trains' can
    be used only by the Local Railways")."""
    s = game.state
    local = local_railways.is_local(game, corp)
    out = []
    for tid in s.corps[corp].trains:
        ttype = s.depot.types[s.depot.trains[tid].kind]
        if rules_of(game).is_plus(ttype.name) == local:
            out.append(TrainSpec(tid, ttype.name, ttype.distance))
    return out


def home_lay_pending(game: Game, corp: str) -> str | None:
    """§5.3: in its first turn a company lays its tile on its home hex unless a station is
    already printed or laid there (ruling T1); the hex, if so."""
    s = game.state
    c = s.corps[corp]
    home = c.home
    if c.operated or home is None or home in s.map.tiles:
        return None
    return None if s.map.board.hex(home).color != "white" else home


class Operating1854:
    """1854 §5.3-§5.8 for the shared steps."""

    def may_lay(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        return True

    def lay_options(self, game: Game, rnd: OperatingRound, corp: str) -> list[LayTile]:
        s = game.state
        home = home_lay_pending(game, corp)
        lays = legal_tile_lays(
            s.map, corp, rules_for(game, corp, asking=True), hexes=None if home is None else [home]
        )
        cash = s.corps[corp].cash
        return [LayTile(corp, t.hex, t.tile, t.rotation) for t in lays if t.cost <= cash]

    def check_lay(self, game: Game, rnd: OperatingRound, corp: str, action: LayTile) -> None:
        self._cost(game, corp, action)

    def _cost(self, game: Game, corp: str, action: LayTile) -> int:
        s = game.state
        home = home_lay_pending(game, corp)
        if home is not None and action.hex != home:
            raise TrackError(f"{corp}'s first tile goes on its home hex {home}", "1854 §5.3")
        cost = check_tile_lay(
            s.map,
            corp,
            action.hex,
            action.tile,
            action.rotation,
            rules_for(game, corp, asking=True),
        )
        if cost > s.corps[corp].cash:
            raise TrackError(f"{corp} cannot pay {cost} G for the terrain", "1854 §5.3")
        return cost

    def lay(self, game: Game, rnd: OperatingRound, corp: str, action: LayTile) -> int:
        cost = self._cost(game, corp, action)
        cities.count(game, action.hex, action.tile)
        game.state.map.lay_tile(action.hex, action.tile, action.rotation)
        game.transfer(corp, "bank", cost)
        return cost

    def more_lays(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        """§5.3: one tile in each Operating Round."""
        return False

    def token_options(self, game: Game, rnd: OperatingRound, corp: str) -> list[PlaceToken]:
        """§5.5: the next station at its price (50, 100, 150 G; a Local Railway's 40 G), in
        a city its network reaches with room left (a place kept for a company still to
        operate there), at most one of the company's stations in a hex (core
        ``token_slots``)."""
        s = game.state
        cost = station_cost(game, corp)
        if cost is None or cost > s.corps[corp].cash:
            return []
        return [
            PlaceToken(corp, h, city)
            for h, city in token_slots(s.map, corp)
            if not closed_to_majors(game, corp, h)
        ]

    def place_token(self, game: Game, rnd: OperatingRound, corp: str, action: PlaceToken) -> None:
        cost = station_cost(game, corp)
        assert cost is not None
        game.transfer(corp, "bank", cost)
        game.state.map.place_token(corp, action.hex, action.city)
        game.state.corps[corp].placed.append((action.hex, action.city))

    def best_runs(self, game: Game, corp: str) -> RunRoutes:
        return runs_action(corp, game.title.best_routes(game, corp).runs)

    def runs_revenue(self, game: Game, corp: str, action: RunRoutes) -> int:
        return action_revenue(
            game.state.map, corp, train_specs(game, corp), action, rules_for(game, corp)
        )

    def dividend_payee(self, game: Game, corp: str, holder: str) -> str | None:
        """§5.7: players receive their share; nothing is paid for shares in the Bank Pool,
        the Split Shares or the initial offering (ruling T7)."""
        return holder if holder in {p.name for p in game.state.players} else None

    def move_price(self, game: Game, corp: str, direction: str) -> None:
        rules_of(game).move_price(game, corp, direction)

    def may_withhold(self, game: Game, corp: str) -> bool:
        return True


def closed_to_majors(game: Game, corp: str, coord: str) -> bool:
    """§5.5: "Station markers of Major Companies may be placed in the Sankt Pölten and Steyr
    hexes from Phase 6 onwards, but not before then." """
    opens: dict[str, str] = game.state.map.board.extra["major_stations_from_phase"]
    phase = opens.get(coord)
    kind = game.state.corps[corp].kind
    return kind == "major" and phase is not None and phase not in game.state.phases_reached


def station_cost(game: Game, corp: str) -> int | None:
    """§5.5: the price of `corp`'s next station (None: all placed)."""
    c = game.state.corps[corp]
    costs: list[int] = rules_of(game).token_costs[corp]
    return costs[len(c.placed)] if len(c.placed) < len(costs) else None


class DividendStep1854(DividendStep):
    """§5.7-5.8: a Major Company pays out or withholds everything. Paying out moves the
    price right, whatever the amount; withholding (or earning nothing) moves it left. A share
    bought on option and not yet paid for receives dividends as a 10% share (§6.4.1). A
    Local Railway splits its income (§5.7)."""

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        """A Local Railway has nothing to decide (§5.7: it always splits its income)."""
        if local_railways.is_local(game, corp):
            return []
        return super().actions(game, rnd, corp)

    def skip(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        """§5.7: a Local Railway keeps half its income and pays half to its owner; a Major
        Company that earned nothing moves left (ruling T7)."""
        if local_railways.is_local(game, corp):
            local_railways.pay_half(game, corp, rnd.turn.revenue or 0)
            return
        super().skip(game, rnd, corp)

    def paid_percent(self, game: Game, corp: str, holder: str, percent: int) -> int:
        option = options.outstanding(game, holder)
        if option is not None and option.corp == corp:
            return percent - 10
        return percent

    def rises(self, revenue: int, price: int) -> bool:
        return True


class TrainStep1854(Step):
    """§5.9-5.11: buy trains, one at a time, within the train limit: the bank's next trains
    (the 1854 offers, :meth:`Title1854.bank_offers`), or from Phase 3 another company's train
    at 1 G up to the buyer's cash, at a price its Director agrees (``core/deals.py``), moving
    the buyer's price up-left and the seller's down-right (§5.11). A company with a route and
    no normal train must buy one. When its treasury cannot pay for any normal train of the
    bank, the Director "can choose freely which to buy" among the bank's and other companies'
    normal trains and makes up the shortfall, paying another company at most the face value;
    short of money the Director sells shares toward the bank's cheapest normal train (never
    changing a Director); if even that is not enough the player is bankrupt and the game ends
    (§5.9, §8; ruling T16). A Local Railway buys only plus trains and never must (ruling
    L2)."""

    name = "trains"
    label = "buying trains"
    rule = RULE_TRAINS

    def _room(self, game: Game, corp: str) -> bool:
        c = game.state.corps[corp]
        return len(c.trains) < game.phase.limit(c.kind)

    def must_buy(self, game: Game, corp: str) -> bool:
        """§5.9: a Major Company with no normal train, a route (two stops reached), a normal
        train to buy (a Local Railway never must, missing-rules §2.6; nor a Major Local
        Railway, ruling ML7)."""
        if game.state.corps[corp].kind != "major":
            return False
        if train_specs(game, corp) or not self._room(game, corp):
            return False
        if not self._normal_offers(game):
            return False
        closed = set(game.state.map.board.extra["orient_express_starts"])
        title = rules_of(game)
        stops = [
            s
            for s in reachable_stops(game.state.map, corp)
            if s.hex not in closed and s.key not in title.customs
        ]
        return len(stops) >= 2

    def _normal_offers(self, game: Game) -> list[tuple[str, int]]:
        """The bank's normal (not plus) trains on offer: those that meet the obligation."""
        title = rules_of(game)
        return [o for o in title.bank_offers(game) if not title.is_plus_train(game, o[0])]

    def _trades(self, game: Game, corp: str, funds: int | None = None) -> list[Action]:
        """§5.9: from Phase 3, another company's trains at 1 G or the most the buyer may pay
        (:meth:`_top_price`); in an emergency purchase (`funds`: the money of company and
        Director) only normal trains."""
        s = game.state
        if not rules_of(game).trading_allowed(game):
            return []
        out: list[Action] = []
        for other, oc in s.corps.items():
            if other == corp or oc.closed:
                continue
            for tid in oc.trains:
                if not self._may_own(game, corp, tid):
                    continue
                if funds is not None and rules_of(game).is_plus_train(game, tid):
                    continue
                top = self._top_price(game, corp, tid, funds)
                out += [BuyTrain(corp, tid, p) for p in sorted({1, top}) if 1 <= p <= top]
        return out

    def _top_price(self, game: Game, corp: str, tid: str, funds: int | None) -> int:
        """The most `corp` may pay for another company's train: its cash; in an emergency
        purchase also up to the train's face value within `funds` (§5.9 "The price paid for a
        train bought with the aid of this sort of emergency funding may not be more than the
        face value")."""
        s = game.state
        cash = s.corps[corp].cash
        if funds is None:
            return cash
        return max(cash, min(s.depot.types[s.depot.trains[tid].kind].price, funds))

    def _emergency_funds(self, game: Game, corp: str) -> int | None:
        """In an emergency purchase (a train due and no normal train of the bank within the
        treasury: ruling T16), the money of the company and its Director; else None."""
        s = game.state
        c = s.corps[corp]
        if not self.must_buy(game, corp):
            return None
        if any(p <= c.cash for _, p in self._normal_offers(game)):
            return None
        if game.rules_version < DEALS_VERSION and any(
            not rules_of(game).is_plus_train(game, a.train)
            for a in self._trades(game, corp)
            if isinstance(a, BuyTrain)
        ):
            return None  # before deals needed both sides, a 1 G trade ruled out the emergency
        pres = s.shares.president[corp]
        assert pres is not None
        return c.cash + game.player(pres).cash

    def _may_own(self, game: Game, corp: str, tid: str) -> bool:
        """Ruling L2: a Local Railway buys only plus trains."""
        return not local_railways.is_local(game, corp) or rules_of(game).is_plus_train(game, tid)

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        s = game.state
        c = s.corps[corp]
        if not self._room(game, corp):
            return []
        title = rules_of(game)
        offers = [o for o in title.bank_offers(game) if self._may_own(game, corp, o[0])]
        offers += major_local.recycled_offers(game, corp)
        if not self.must_buy(game, corp):
            buys: list[Action] = [BuyTrain(corp, tid, p) for tid, p in offers if p <= c.cash]
            buys += self._trades(game, corp)
            return [*buys, Pass(corp)] if buys else []
        funds = self._emergency_funds(game, corp)
        normal = self._normal_offers(game)
        within = c.cash if funds is None else funds
        out: list[Action] = [BuyTrain(corp, tid, p) for tid, p in normal if p <= within]
        out += [
            a
            for a in self._trades(game, corp, funds)
            if isinstance(a, BuyTrain) and not title.is_plus_train(game, a.train)
        ]
        cheapest = min(p for _, p in normal)
        if cheapest <= within:
            return out
        # the bank's cheapest normal train is beyond the Director's cash: sell toward it
        pres = s.shares.president[corp]
        assert pres is not None
        shortfall = cheapest - within
        sales = emergency_sales(game, corp, pres, shortfall)
        raised = sum(
            max(bundle_price(game, a.corporation, a.percent) for a in sales if a.corporation == sym)
            for sym in {a.corporation for a in sales}
        )
        return [*out, *sales] if raised >= shortfall else [*out, *sales, Bankrupt(corp)]

    def validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        s = game.state
        if isinstance(action, BuyTrain) and action.train in s.depot.trains:
            owner = s.depot.trains[action.train].owner
            if owner in s.corps and owner != corp:
                self._check_trade(game, corp, action)
                return
        super().validate(game, rnd, corp, action)

    def _check_trade(self, game: Game, corp: str, action: BuyTrain) -> None:
        """§5.9: trading starts in Phase 3, at least 1 G, the buyer paying from its
        treasury (in an emergency purchase with the Director's help, a normal train at most
        at its face value), within its train limit."""
        title = rules_of(game)
        if not title.trading_allowed(game):
            raise RuleError("trains are traded between companies from Phase 3", RULE_TRAINS)
        if not self._room(game, corp):
            raise RuleError(f"{corp} is at its train limit", RULE_TRAINS)
        funds = self._emergency_funds(game, corp)
        if funds is not None and title.is_plus_train(game, action.train):
            raise RuleError("a plus train does not meet the obligation", RULE_TRAINS)
        if not 1 <= action.price <= self._top_price(game, corp, action.train, funds):
            raise RuleError(
                "a traded train costs 1 G up to the buyer's cash (in an emergency purchase "
                "up to its face value)",
                RULE_TRAINS,
            )
        if not self._may_own(game, corp, action.train):
            raise RuleError("a Local Railway buys only plus trains", local_railways.RULE)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        s = game.state
        title = rules_of(game)
        if isinstance(action, Pass):
            return True
        pres = s.shares.president[corp] or ""
        if isinstance(action, SellShares):
            game.title.sell_shares(
                game, pres, SellShares(pres, action.corporation, action.percent, action.last)
            )
            return False
        if isinstance(action, Bankrupt):
            game.player(pres).bankrupt = True
            game.log(f"{pres} cannot raise the money for {corp}'s train and is bankrupt")
            game.title.finish(game, EndReason.BANKRUPT)
            return True
        assert isinstance(action, BuyTrain)
        seller = s.depot.trains[action.train].owner
        shortfall = action.price - s.corps[corp].cash
        if seller in s.corps and shortfall > 0:  # an emergency purchase (validated)
            game.transfer(pres, corp, shortfall)
            game.log(f"{pres} contributes {shortfall} G")
        kind = buy_train(game, corp, action)
        if seller in s.corps:
            for sym, direction in ((corp, "up_left"), (seller, "down_right")):
                if sym in s.market:  # a Local Railway has no share price
                    title.move_price(game, sym, direction)
        elif seller == "rusted":
            major_local.recycled_bought(game, kind)
        else:
            title.on_train_bought(game, kind)
        return False


def emergency_sales(game: Game, corp: str, pres: str, shortfall: int) -> list[SellShares]:
    """§5.9: the Director's sales to raise `shortfall`: the usual sales of floated companies'
    shares, none that would change a company's Director, and none larger than needed (a
    bundle only if no smaller one of that company covers the shortfall, ruling T8)."""
    s = game.state
    title = rules_of(game)
    out: list[SellShares] = []
    for sym in s.market.operating_order(title.chartered(game)):
        held = s.shares.percent(pres, sym)
        others = max(s.shares.percent(p.name, sym) for p in s.players if p.name != pres)
        keeps = s.shares.president[sym] != pres
        for pct, last in game.title.sell_bundles(game, pres, sym):
            if not keeps and held - pct < others:
                continue
            smaller = [bundle_price(game, sym, a.percent) for a in out if a.corporation == sym]
            if smaller and max(smaller) >= shortfall:
                break
            out.append(SellShares(corp, sym, pct, last))
    return out


class TrackStep1854(TrackStep):
    """§5.3, §5.3.1: lay or promote one tile, or instead build one tunnel, or pass."""

    def available(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        return not turn_of(rnd).laid

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if turn_of(rnd).laid:
            return []  # laid with a guard's permission (ruling T2)
        lays = super().actions(game, rnd, corp)
        if home_lay_pending(game, corp) is not None:
            return lays  # the first turn's tile goes on the home hex (ruling T1)
        digs: list[Action] = [
            BuildTunnel(corp, h, a, b)
            for h, a, b in tunnels.options(game, corp, rules_for(game, corp))
        ]
        if not digs:
            return lays
        return [*[a for a in lays if not isinstance(a, Pass)], *digs, Pass(corp)]

    def validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        if isinstance(action, BuildTunnel):
            if home_lay_pending(game, corp) is not None:
                raise TrackError(f"{corp}'s first tile goes on its home hex", "1854 §5.3")
            err = tunnels.problem(game, corp, action.hex, action.a, action.b, rules_for(game, corp))
            if err is not None:
                raise err
            return
        super().validate(game, rnd, corp, action)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if isinstance(action, BuildTunnel):
            tunnels.build(game, corp, action.hex, action.a, action.b)
            return True
        guard = needs_permission(game, corp, action.hex) if isinstance(action, LayTile) else None
        if guard is not None and isinstance(action, LayTile):
            state_of(game).shield_request = action
            game.state.pending.insert(0, (PERMISSION, guard))
            where = game.state.map.board.place(action.hex)
            game.log(f"{corp} asks {guard} for permission to lay tile {action.tile} on {where}")
            return False
        return super().process(game, rnd, corp, action)


class HomeStep(Step):
    """Ruling ML5: a Major Local Railway's first turn begins with its home station."""

    name = "home"
    label = "placing the home station"
    rule = major_local.RULE
    silent = True

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        return major_local.home_actions(game, corp)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        major_local.place_home(game, corp, action)
        return True


class MergeStep(Step):
    """§5.10 Phase 5: a Local Railway's turn begins with merging, closing or carrying on
    (ruling ML1)."""

    name = "merge"
    label = "merging"
    rule = major_local.RULE_PHASES
    silent = True

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        return major_local.merge_actions(game, corp)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if isinstance(action, MergeLocals):
            return major_local.propose(game, corp, action.partner)
        if isinstance(action, CloseLocal):
            major_local.close(game, corp, "its owner closes it")
            rnd.end_turn_now()
        return True


STEP_ORDER = ("home", "merge", "track", "token", "routes", "dividend", "trains", "mail")
OPERATING = Operating1854()
STEP_OBJECTS: dict[str, Step] = {
    step.name: step
    for step in (
        HomeStep(),
        MergeStep(),
        TrackStep1854(OPERATING, f"{OR}.3"),
        TokenStep(OPERATING, f"{OR}.5"),
        RouteStep(OPERATING, f"{OR}.6"),
        DividendStep1854(OPERATING, f"{OR}.7"),
        TrainStep1854(),
        mail.MailStep(),
    )
}
