"""1883's operating turn for its railway corporations (1883 §6.3-6.10): the shared steps
(``core/rounds/steps.py``) with 1883's rules, and 1883's own train and issuing steps.

Built: SARSA's buses, one tile lay or upgrade (terrain on the first tile only; FSF's two
F-hex lays; the privates' lays), one station at the cost its charter lists, port tokens,
n-stop runs with off-boards by phase, the 2GT, the events' revenue changes, the
Co-operative's looting, payout or withholding (pool shares pay the treasury,
initial-offering shares the bank), buying trains from the bank, the pool or another
corporation, the compulsory purchase with the president's money and share sales, issuing
shares from the initial offering, and the SEFTA merger. Runs may use the FS red track
(6.7, see ``track_rules.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.core.actions import (
    Action,
    Bankrupt,
    BuyTrain,
    IssueShares,
    LayTile,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from tresham.core.errors import TrackError
from tresham.core.graph import check_tile_lay, legal_tile_lays, reach, token_slots, track_graph
from tresham.core.rounds.operating import OperatingRound, Step
from tresham.core.rounds.steps import (
    DividendStep,
    RouteStep,
    TokenStep,
    TrackStep,
    buy_train,
    check_train_from_corporation,
)
from tresham.core.rules_protocols import TrainSpec
from tresham.core.shares import POOL, treasury
from tresham.core.stock import sell_to_pool
from tresham.core.tiles import JUNCTION
from tresham.routes.runs import action_revenue, runs_action
from tresham.titles.t1883 import concessions, coop, events, gravity, ports, privates
from tresham.titles.t1883.facts import (
    GRAVITY_KINDS,
    PHASE_FACTS,
    UPGRADES,
    rules_of,
    token_costs,
)
from tresham.titles.t1883.sarsa import BusStep
from tresham.titles.t1883.sefta import MergeStep
from tresham.titles.t1883.state import state_of, turn_of
from tresham.titles.t1883.track_rules import TrackRules1883, north_of_fs
from tresham.titles.t1883.versions import DEALS_VERSION

if TYPE_CHECKING:
    from tresham.core.game import Game

OR = "1883 §6"
POOL_CAP = 50
FSF = "FSF"  # the corporation with two F-hex lays until the first 4T (6.4.4)


def _is_bus(game: Game, corp: str) -> bool:
    return game.state.corps[corp].kind == "bus"


def rules_for(game: Game, corp: str) -> TrackRules1883:
    """The track hooks for the current phase and this corporation (the Co-operative keeps
    south of the FS line and pays no terrain)."""
    south = coop.is_coop(game, corp)
    return TrackRules1883(
        phase=game.phase.name,
        colors=game.phase.tiles,
        upgrades=UPGRADES,
        board=game.state.map.board,
        south_only=south,
        free_terrain=south,
        ports=ports.placed(game, corp),
        port_bonus=int(PHASE_FACTS[game.phase.name]["port_bonus"]),
        closed=events.closed_hexes(game),
        stop_bonus=events.offboard_bonus(game),
        fs_open=not events.red_week(game),
    )


def station_cost(game: Game, corp: str) -> int | None:
    """6.5: the cost of the corporation's next station (its charter's list), or None when it
    has none left."""
    c = game.state.corps[corp]
    costs = token_costs(corp)
    return costs[len(c.placed)] if len(c.placed) < len(costs) else None


def train_specs(game: Game, corp: str) -> list[TrainSpec]:
    """The corporation's trains that run for revenue (2GT are not built yet)."""
    s = game.state
    out = []
    for tid in s.corps[corp].trains:
        kind = s.depot.trains[tid].kind
        if kind not in GRAVITY_KINDS:
            out.append(TrainSpec(tid, kind, s.depot.types[kind].distance))
    return out


def _two_f_lays(game: Game, corp: str) -> bool:
    """6.4.4: until the first 4T the FSF may lay two tiles, the second on an F hex after a
    first one on an F hex."""
    return corp == FSF and "4" not in game.state.extra.get("types_bought", [])


def _normal_lays_left(game: Game, rnd: OperatingRound, corp: str) -> bool:
    turn = turn_of(rnd)
    lays = turn.lays
    if coop.is_coop(game, corp):
        return lays < coop.COOP_LAYS
    if _two_f_lays(game, corp) and lays == 1:
        return turn.f_lay
    return lays < 1


def _f_hex_only(game: Game, rnd: OperatingRound, corp: str) -> bool:
    return _two_f_lays(game, corp) and turn_of(rnd).lays == 1


def _free_hill_lay(game: Game, rnd: OperatingRound, corp: str) -> bool:
    """8.1.4 / 8.2.3: the CCFR (Co-operative or corporation) may lay, after its other lays, a
    free yellow tile in a hill or mountain hex connected to its network."""
    return (
        corp == state_of(game).coop
        and not _normal_lays_left(game, rnd, corp)
        and not turn_of(rnd).free_hill_lay
    )


def _hill_hexes(game: Game) -> list[str]:
    extra = game.state.map.board.extra
    return [*extra["hills"], *extra["mountains"]]


def _home_lays(
    game: Game,
    rnd: OperatingRound,
    corp: str,
    rules: TrackRules1883,
    hexes: list[str] | None = None,
) -> dict[tuple[str, str, int], list[list[object]]]:
    """8.1.4: the Co-operative's lays, each from one of its home cities (walking its network
    from that station only), a home serving one lay a turn: every lay, with the homes it may
    be laid from."""
    s = game.state
    homes = [
        (str(h), int(n))
        for h, n in s.map.board.home_cities[corp]
        if s.map.has_token(corp, str(h), int(n))
    ]
    earlier = turn_of(rnd).lay_homes
    out: dict[tuple[str, str, int], list[list[object]]] = {}
    for home in homes:
        if any(all(tuple(p) == home for p in prev) for prev in earlier):
            continue  # the earlier lay needs this home
        for t in legal_tile_lays(s.map, corp, rules, hexes=hexes, start=home):
            out.setdefault((t.hex, t.tile, t.rotation), []).append(list(home))
    return out


def _private_lays(rnd: OperatingRound) -> list[str]:
    """The privates whose lays the turn has used (read only: `lay` records them)."""
    return turn_of(rnd).private_lays or []


def _lays(game: Game, rnd: OperatingRound, corp: str, only: str | None = None) -> list[LayTile]:
    """`Operating1883.lay_options`; with `only`, those on that one hex."""
    s = game.state
    cash = s.corps[corp].cash
    rules = rules_for(game, corp)
    out: list[LayTile] = []
    if _normal_lays_left(game, rnd, corp) and coop.is_coop(game, corp):
        lays = _home_lays(game, rnd, corp, rules, _within(None, only))
        out += [LayTile(corp, *key) for key in sorted(lays)]
    elif _normal_lays_left(game, rnd, corp):
        flood = s.map.board.extra["flood_hexes"] if _f_hex_only(game, rnd, corp) else None
        out += [
            LayTile(corp, t.hex, t.tile, t.rotation)
            for t in legal_tile_lays(s.map, corp, rules, hexes=_within(flood, only))
            if t.cost <= cash
        ]
    for coord, free in privates.lay_hexes(game, corp, _private_lays(rnd)).items():
        at = _within([coord], only)
        for t in legal_tile_lays(s.map, corp, rules, hexes=at, require_connection=False):
            lay = LayTile(corp, t.hex, t.tile, t.rotation)
            if (free or t.cost <= cash) and lay not in out:
                out.append(lay)
    if _free_hill_lay(game, rnd, corp):
        hills = _within(_hill_hexes(game), only)
        for t in legal_tile_lays(s.map, corp, rules, hexes=hills):
            lay = LayTile(corp, t.hex, t.tile, t.rotation)
            if s.map.catalogue[t.tile].color == "yellow" and lay not in out:
                out.append(lay)
    return out


def _within(hexes: list[str] | None, only: str | None) -> list[str] | None:
    """The hexes to look at: `hexes` (None: all), narrowed to the one hex `only` if given."""
    if only is None:
        return hexes
    return [only] if hexes is None or only in hexes else []


class Operating1883:
    """1883's rules for the shared steps."""

    def may_lay(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        """SARSA never lays track (8.3)."""
        return game.state.corps[corp].kind != "bus"

    def lay_options(self, game: Game, rnd: OperatingRound, corp: str) -> list[LayTile]:
        """The normal lay (for the Co-operative one from each home city, 8.1.4) while left,
        and the extra lays the corporation's privates give in their hexes (FRV free; no
        connection needed, R14)."""
        return _lays(game, rnd, corp)

    def check_lay(self, game: Game, rnd: OperatingRound, corp: str, action: LayTile) -> None:
        if action in _lays(game, rnd, corp, only=action.hex):
            return
        cost = check_tile_lay(
            game.state.map, corp, action.hex, action.tile, action.rotation, rules_for(game, corp)
        )
        if cost > game.state.corps[corp].cash:
            raise TrackError(f"{corp} cannot pay L.{cost} for the terrain", f"{OR}.4.1")
        raise TrackError(f"{corp} has no tile lay left this turn", f"{OR}.4")

    def lay(self, game: Game, rnd: OperatingRound, corp: str, action: LayTile) -> int:
        turn = turn_of(rnd)
        if turn.private_lays is None:
            turn.private_lays = []
        used = turn.private_lays
        company = privates.lay_private(game, corp, action.hex, used)
        if company is None and _free_hill_lay(game, rnd, corp):
            turn.free_hill_lay = True  # 8.1.4: laid last, so it is this one
            game.state.map.lay_tile(action.hex, action.tile, action.rotation)
            concessions.after_lay(game, corp)
            return 0
        cost = check_tile_lay(
            game.state.map,
            corp,
            action.hex,
            action.tile,
            action.rotation,
            rules_for(game, corp),
            require_connection=company is None,
        )
        if company is not None:
            used.append(company)
            if company == privates.FREE_LAY:
                cost = 0
        else:
            if coop.is_coop(game, corp):
                homes = _home_lays(game, rnd, corp, rules_for(game, corp), [action.hex])
                key = (action.hex, action.tile, action.rotation)
                turn.lay_homes.append(homes[key])
            turn.lays += 1
            if action.hex in game.state.map.board.extra["flood_hexes"]:
                turn.f_lay = True
        game.state.map.lay_tile(action.hex, action.tile, action.rotation)
        game.transfer(corp, "bank", cost)
        concessions.after_lay(game, corp)
        return cost

    def more_lays(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        """One tile a turn; the Co-operative two and its free hill tile (8.1.4); and the
        privates' extra lays."""
        return (
            _normal_lays_left(game, rnd, corp)
            or bool(privates.lay_hexes(game, corp, _private_lays(rnd)))
            or _free_hill_lay(game, rnd, corp)
        )

    def token_options(self, game: Game, rnd: OperatingRound, corp: str) -> list[PlaceToken]:
        cost = station_cost(game, corp)
        if cost is None or cost > game.state.corps[corp].cash or _is_bus(game, corp):
            return []
        board = game.state.map.board
        south = coop.is_coop(game, corp)
        return [
            PlaceToken(corp, h, city)
            for h, city in token_slots(game.state.map, corp)
            if not (south and north_of_fs(board, h))
        ]

    def place_token(self, game: Game, rnd: OperatingRound, corp: str, action: PlaceToken) -> None:
        cost = station_cost(game, corp)
        assert cost is not None
        game.state.map.place_token(corp, action.hex, action.city)
        game.state.corps[corp].placed.append((action.hex, action.city))
        game.transfer(corp, "bank", cost)

    def best_runs(self, game: Game, corp: str) -> RunRoutes:
        return runs_action(corp, game.title.best_routes(game, corp).runs)

    def runs_revenue(self, game: Game, corp: str, action: RunRoutes) -> int:
        return action_revenue(
            game.state.map, corp, train_specs(game, corp), action, rules_for(game, corp)
        )

    def dividend_payee(self, game: Game, corp: str, holder: str) -> str | None:
        """6.8.3: pool shares pay the treasury; initial-offering shares pay the bank."""
        if holder == POOL:
            return corp
        return None if holder == treasury(corp) else holder

    def move_price(self, game: Game, corp: str, direction: str) -> None:
        rules_of(game).move_price(game, corp, direction)

    def may_withhold(self, game: Game, corp: str) -> bool:
        """8.1.3: the Co-operative always pays out."""
        return not coop.is_coop(game, corp)


# ====================================================================== trains
class TrainStep1883(Step):
    """6.9: buy trains one at a time, up to the train limit: the next train of the bank at
    its price, a train of the pool at its price, or another corporation's train for L.1 or
    more, at a price that corporation's president agrees (6.9.2; ``core/deals.py``). A
    corporation with a route and no train must buy one (6.9); if its treasury cannot pay for
    a train of the Bank or Bank Pool, it may still trade with another corporation whose
    president agrees, or make the forced buy of the cheapest train of the Bank or Bank Pool:
    its president adds money and then sells shares (6.9.6), and goes bankrupt if even that is
    not enough (ruling R33)."""

    name = "trains"
    label = "buying trains"
    rule = f"{OR}.9"

    def _room(self, game: Game, corp: str) -> bool:
        c = game.state.corps[corp]
        return len(train_specs(game, corp)) < game.phase.limit(c.kind)

    def offers(self, game: Game, corp: str) -> list[tuple[str, int]]:
        """(train, price) of the bank's next trains and the pool's, 2GT while the corporation
        may own another (6.9.5); the Co-operative buys from the bank only (8.1.3)."""
        s = game.state
        gravity_kinds = GRAVITY_KINDS
        bank_only = coop.is_coop(game, corp)
        with_gravity = gravity.may_buy(game, corp)
        return [
            (t.tid, s.depot.types[t.kind].price)
            for t in s.depot.purchasable(set(s.phases_reached))
            if (t.kind not in gravity_kinds or with_gravity) and not (bank_only and t.owner == POOL)
        ]

    def must_buy(self, game: Game, corp: str) -> bool:
        """6.9: no train, and a legal route (two stops reachable from its stations)."""
        if coop.is_coop(game, corp) or train_specs(game, corp) or not self.offers(game, corp):
            return False  # the Co-operative receives its trains (8.1.5)
        graph = track_graph(game.state.map)
        stops = [k for k in reach(game.state.map, corp).nodes if graph.nodes[k].kind != JUNCTION]
        return len(stops) >= 2

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        s = game.state
        c = s.corps[corp]
        if _is_bus(game, corp):
            return []  # SARSA never buys trains (8.3)
        room = self._room(game, corp)
        gravity_kinds = GRAVITY_KINDS
        out: list[Action] = [
            BuyTrain(corp, tid, price)
            for tid, price in self.offers(game, corp)
            if price <= c.cash and (room or s.depot.trains[tid].kind in gravity_kinds)
        ]
        if not room:
            return [*out, Pass(corp)] if out else []  # 2GT do not count toward the limit
        traded: set[str] = set()  # other corporations' trains (6.9.2)
        if c.cash >= 1 and not coop.is_coop(game, corp):
            for other, oc in s.corps.items():
                if other == corp or oc.closed or oc.kind != "railway":
                    continue
                for tid in oc.trains:
                    if s.depot.trains[tid].kind in GRAVITY_KINDS:
                        continue
                    traded.add(tid)
                    out.append(BuyTrain(corp, tid, 1))
                    if c.cash > 1:
                        out.append(BuyTrain(corp, tid, c.cash))
        if not self.must_buy(game, corp):
            return [*out, Pass(corp)] if out else []
        if game.rules_version < DEALS_VERSION and out:
            return out  # before deals needed both sides, a L.1 trade ruled out a forced buy
        if any(isinstance(a, BuyTrain) and a.train not in traded for a in out):
            return out  # the treasury pays for a train of the Bank or Bank Pool
        # 6.9.6 forced buy: the cheapest train of the Bank or Bank Pool with the president's
        # money, unless another corporation's president agrees to a trade
        tid, price = min(self.offers(game, corp), key=lambda o: o[1])
        pres = s.shares.president[corp]
        assert pres is not None
        shortfall = price - c.cash - game.player(pres).cash
        if shortfall <= 0:
            return [*out, BuyTrain(corp, tid, price)]
        sales = self._sales(game, corp, pres, shortfall)
        if sales and not self._cannot_raise(game, corp, pres, shortfall):
            return [*out, *sales]
        return [*out, *sales, Bankrupt(corp)]

    def _sales(self, game: Game, corp: str, pres: str, shortfall: int) -> list[SellShares]:
        """6.9.6: the president's sales, never giving up this corporation's presidency."""
        return events.player_sales(game, pres, corp, shortfall, corp)

    def _cannot_raise(self, game: Game, corp: str, pres: str, shortfall: int) -> bool:
        return events.cannot_raise(game, self._sales(game, corp, pres, shortfall), shortfall)

    def validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        s = game.state
        if isinstance(action, BuyTrain) and action.train in s.depot.trains:
            train = s.depot.trains[action.train]
            seller = s.corps.get(train.owner or "")
            tradable = (
                seller is not None
                and seller.kind == "railway"
                and train.kind not in GRAVITY_KINDS
                and not coop.is_coop(game, corp)
                and not _is_bus(game, corp)
            )  # 6.9.2; never the Co-operative's trains, never 2GT (8.1.3, 6.9.5)
            if tradable and check_train_from_corporation(
                game, corp, action, self._room(game, corp), f"{OR}.9.2"
            ):
                return
        super().validate(game, rnd, corp, action)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        s = game.state
        title = rules_of(game)
        if isinstance(action, Pass):
            return True
        pres = s.shares.president[corp]
        assert pres is not None
        if isinstance(action, SellShares):
            sell_to_pool(game, pres, action.corporation, action.percent, action.last)
            game.log(f"{pres} sells {action.percent}% of {action.corporation} (forced purchase)")
            title.move_price(game, action.corporation, "down", action.percent // 10)
            return False
        if isinstance(action, Bankrupt):
            title.bankrupt(game, pres, corp)
            return True
        assert isinstance(action, BuyTrain)
        kind = buy_train(game, corp, action)
        title.on_train_bought(game, kind)
        return False


# ====================================================================== issuing
class IssueStep1883(Step):
    """6.10: issue one or more shares from the initial offering to the pool (at most 50%
    there); the price drops a row per share first, and the treasury receives the new price
    for each."""

    name = "issue"
    label = "issuing shares"
    rule = f"{OR}.10"

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        s = game.state
        if coop.is_coop(game, corp):
            return []  # 8.1.3: the Co-operative may not issue
        available = [c for c in s.shares.held(treasury(corp), corp) if not c.president]
        room = (POOL_CAP - s.shares.percent(POOL, corp)) // 10
        n = min(len(available), room)
        if n <= 0:
            return []
        return [*(IssueShares(corp, 10 * k) for k in range(1, n + 1)), Pass(corp)]

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if not isinstance(action, IssueShares):
            return True
        s = game.state
        count = action.percent // 10
        for cert in [c for c in s.shares.held(treasury(corp), corp) if not c.president][:count]:
            s.shares.move(cert.cid, POOL)
        rules_of(game).move_price(game, corp, "down", count)
        if corp not in s.market:  # it fell into the Closed section and closed (5.8)
            return True
        value = count * s.market.price(corp)
        game.transfer("bank", corp, value)
        game.log(f"{corp} issues {action.percent}% for L.{value}")
        return True


class EventRevenueStep(Step):
    """11.0: the OR's revenue events apply to the run's value (regular trains and 2GT),
    before the dividend (or the Co-operative's looting)."""

    name = "events"
    label = "the Random Event"
    rule = "1883 §11"
    silent = True

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        return []

    def skip(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        revenue = rnd.turn.revenue or 0
        changed = events.adjust_revenue(game, corp, revenue)
        if changed != revenue:
            rnd.turn.revenue = changed
            game.log(f"{corp}'s revenue after the event: L.{changed}")


OPERATING = Operating1883()
STEPS: tuple[str, ...] = (
    "bus",
    "track",
    "token",
    "routes",
    "gravity",
    "events",
    "loot",
    "dividend",
    "trains",
    "issue",
    "merge",
)
STEP_OBJECTS: dict[str, Step] = {
    s.name: s
    for s in (
        BusStep(),
        TrackStep(OPERATING, f"{OR}.4"),
        TokenStep(OPERATING, f"{OR}.5"),
        RouteStep(OPERATING, f"{OR}.8"),
        gravity.GravityStep(),
        EventRevenueStep(),
        coop.LootStep(),
        DividendStep(OPERATING, f"{OR}.8.3"),
        TrainStep1883(),
        IssueStep1883(),
        MergeStep(),
    )
}
