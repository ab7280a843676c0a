"""Operating-turn steps that every title shares: lay track, place a station, run trains, pay
out or withhold; and the train purchase itself, which every title's train step makes. A title
composes them with steps of its own and plugs its rules in through an :class:`OperatingRules`
object; the steps hold the flow (one lay, then the station, ...), the rules object what is
legal and what it costs.

The standard dividend rule modelled here: withholding, or earning nothing, moves the share
price left; paying out moves it right when the revenue is at least the share price, and
leaves it where it is below that. Each holder receives its share of the revenue per 10%,
rounded up (the title says who collects for the treasury and the pool).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from tresham.core.actions import (
    Action,
    BuyTrain,
    Dividend,
    LayTile,
    Pass,
    PlaceToken,
    RunRoutes,
)
from tresham.core.errors import RuleError
from tresham.core.rounds.operating import OperatingRound, Step

if TYPE_CHECKING:
    from tresham.core.game import Game


class OperatingRules(Protocol):
    """What the shared steps ask of a title."""

    def may_lay(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        """Whether the corporation may lay at all this turn (if not, the step is skipped;
        if so, it is offered, with a pass, even when no lay is legal)."""
        ...

    def lay_options(self, game: Game, rnd: OperatingRound, corp: str) -> list[LayTile]:
        """Every legal lay now (representatives), asked only when `may_lay`."""
        ...

    def check_lay(self, game: Game, rnd: OperatingRound, corp: str, action: LayTile) -> None:
        """Raise a RuleError unless the lay is legal and affordable."""
        ...

    def lay(self, game: Game, rnd: OperatingRound, corp: str, action: LayTile) -> int:
        """Lay the tile and pay for it; returns the cost."""
        ...

    def more_lays(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        """Whether the corporation may lay another tile this turn (most may lay one)."""
        ...

    def token_options(self, game: Game, rnd: OperatingRound, corp: str) -> list[PlaceToken]:
        """Every station the corporation may place now (empty: the step is skipped)."""
        ...

    def place_token(self, game: Game, rnd: OperatingRound, corp: str, action: PlaceToken) -> None:
        """Place the station and pay for it."""
        ...

    def best_runs(self, game: Game, corp: str) -> RunRoutes:
        """The optimizer's runs, as an action."""
        ...

    def runs_revenue(self, game: Game, corp: str, action: RunRoutes) -> int:
        """Validate every run; return the total revenue (raise RouteError if illegal)."""
        ...

    def dividend_payee(self, game: Game, corp: str, holder: str) -> str | None:
        """Who collects a dividend for `holder` (a player, ``treasury:<SYM>`` or ``pool``):
        a player, a corporation, or None (the money stays in the bank)."""
        ...

    def move_price(self, game: Game, corp: str, direction: str) -> None:
        """Move the corporation's share price one step (and apply what the new cell does)."""
        ...

    def may_withhold(self, game: Game, corp: str) -> bool:
        """Whether the corporation may withhold (some must always pay out)."""
        ...


class TrackStep(Step):
    """Lay a tile (more where the title allows), or pass."""

    name = "track"
    label = "laying track"

    def __init__(self, rules: OperatingRules, rule: str) -> None:
        self.rules = rules
        self.rule = rule

    def available(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        return self.rules.may_lay(game, rnd, corp)

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if not self.rules.may_lay(game, rnd, corp):
            return []
        return [*self.rules.lay_options(game, rnd, corp), Pass(corp)]

    def validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        if isinstance(action, Pass):
            return
        if not isinstance(action, LayTile):
            raise RuleError(f"{action.type} is not allowed while laying track", self.rule)
        self.rules.check_lay(game, rnd, corp, action)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if isinstance(action, LayTile):
            cost = self.rules.lay(game, rnd, corp, action)
            place = game.state.map.board.place(action.hex)
            game.log(
                f"{corp} lays tile {action.tile} on {place} "
                f"(rotation {action.rotation}) for {game.title.money(cost)}"
            )
            return not self.rules.more_lays(game, rnd, corp)
        return True


class TokenStep(Step):
    """Place one station, or pass."""

    name = "token"
    label = "placing a station"

    def __init__(self, rules: OperatingRules, rule: str) -> None:
        self.rules = rules
        self.rule = rule

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        options = self.rules.token_options(game, rnd, corp)
        return [*options, Pass(corp)] if options else []

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if isinstance(action, PlaceToken):
            self.rules.place_token(game, rnd, corp, action)
            game.log(f"{corp} places a station in {game.state.map.board.place(action.hex)}")
        return True


class RouteStep(Step):
    """Run the trains. The suggested action is the optimizer's; any legal runs are accepted.
    A corporation without trains, or without a run worth anything, skips the step."""

    name = "routes"
    label = "running trains"

    def __init__(self, rules: OperatingRules, rule: str) -> None:
        self.rules = rules
        self.rule = rule

    def available(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        """Whether the corporation runs at all, decided without optimizing its runs (so a
        replayed game, which is given the runs, never optimizes)."""
        return bool(game.state.corps[corp].trains) and game.title.has_routes(game, corp)

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if not game.state.corps[corp].trains:
            return []
        best = self.rules.best_runs(game, corp)
        return [best] if best.runs else []

    def validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        if not isinstance(action, RunRoutes):
            raise RuleError(f"{action.type} is not allowed while running trains", self.rule)
        self.rules.runs_revenue(game, corp, action)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        assert isinstance(action, RunRoutes)
        revenue = self.rules.runs_revenue(game, corp, action)
        rnd.turn.revenue = revenue
        board = game.state.map.board
        for run in action.runs:
            train = game.state.depot.trains[run.train]
            stops = " \N{EN DASH} ".join(board.town(stop.rsplit("-", 1)[0]) for stop in run.stops)
            game.log(f"{corp} runs its {train.variant or train.kind}: {stops}")
        game.log(f"{corp} earns {game.title.money(revenue)}")
        return True


class DividendStep(Step):
    """Pay out or withhold the turn's revenue (the standard rule in the module docstring)."""

    name = "dividend"
    label = "the dividend"

    def __init__(self, rules: OperatingRules, rule: str) -> None:
        self.rules = rules
        self.rule = rule

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if (rnd.turn.revenue or 0) <= 0:
            return []
        if not self.rules.may_withhold(game, corp):
            return [Dividend(corp, "payout")]
        return [Dividend(corp, "payout"), Dividend(corp, "withhold")]

    def skip(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        game.state.corps[corp].revenue_history.append(0)
        self.rules.move_price(game, corp, "left")

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        assert isinstance(action, Dividend)
        revenue = rnd.turn.revenue or 0
        s = game.state
        s.corps[corp].revenue_history.append(revenue)
        if action.kind == "withhold":
            game.transfer("bank", corp, revenue)
            game.log(f"{corp} withholds {game.title.money(revenue)}")
            self.rules.move_price(game, corp, "left")
            return True
        price = s.market.price(corp)
        for holder, pct in sorted(s.shares.holders(corp).items()):
            payee = self.rules.dividend_payee(game, corp, holder)
            if payee is not None:
                paid = self.paid_percent(game, corp, holder, pct)
                game.transfer("bank", payee, -(-revenue * paid // 100))
        game.log(f"{corp} pays out {game.title.money(revenue)}")
        if self.rises(revenue, price):
            self.rules.move_price(game, corp, "right")
        return True

    def paid_percent(self, game: Game, corp: str, holder: str, percent: int) -> int:
        """The percentage of the revenue `holder` receives for holding `percent` (a title
        may pay a certificate as less than its size)."""
        return percent

    def rises(self, revenue: int, price: int) -> bool:
        """Whether paying out `revenue` moves the share price right (standard: at least the
        share price)."""
        return revenue >= price


def buy_train(game: Game, corp: str, action: BuyTrain) -> str:
    """Move a bought train to `corp` and pay for it: another corporation's train is paid to
    that corporation; a train of the bank or the pool is paid to the bank, the president
    adding what the treasury lacks (the compulsory purchase). Returns the train's type."""
    s = game.state
    train = s.depot.trains[action.train]
    seller = train.owner
    c = s.corps[corp]
    if seller in s.corps:
        game.transfer(corp, seller, action.price)
        s.corps[seller].trains.remove(train.tid)
    else:
        shortfall = action.price - c.cash
        if shortfall > 0:
            pres = s.shares.president[corp]
            assert pres is not None
            game.transfer(pres, corp, shortfall)
            game.log(f"{pres} contributes {game.title.money(shortfall)}")
        game.transfer(corp, "bank", action.price)
    train.owner = corp
    c.trains.append(train.tid)
    name = action.variant or train.kind
    game.log(f"{corp} buys a {name} train for {game.title.money(action.price)}")
    return train.kind


def check_train_from_corporation(
    game: Game, corp: str, action: BuyTrain, room: bool, rule: str
) -> bool:
    """For a train another corporation owns: raise unless the buyer has room and pays L.1
    up to its cash (the common rule); returns whether the train was another corporation's
    (False: the title's own checks apply)."""
    s = game.state
    train = s.depot.trains.get(action.train)
    if train is None or train.owner not in s.corps or train.owner == corp:
        return False
    if not room:
        raise RuleError("the corporation is at its train limit", rule)
    if not 1 <= action.price <= s.corps[corp].cash:
        raise RuleError("a train from another corporation costs L.1 up to the buyer's cash", rule)
    return True
