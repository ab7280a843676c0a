"""The stock round: in turn, each player sells any shares, then buys one certificate or
starts a corporation (or makes one of the title's other purchases), or passes. Where the title
allows it, a player who buys before selling anything may sell afterwards. The round ends when
every player passes in succession; the player after the last one to buy or sell gets the
priority deal.

The title answers what may be sold, bought and started (`Title` stock hooks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tresham.core.actions import Action, BuyShares, Par, Pass, SellShares
from tresham.core.errors import RuleError
from tresham.core.rounds.base import Round

if TYPE_CHECKING:
    from tresham.core.game import Game


class StockRound(Round):
    """State of a stock round."""

    kind = "stock"

    def __init__(self, game: Game, rule: str) -> None:
        self.rule = rule
        n = len(game.state.players)
        self.order = [game.state.players[(game.state.priority + i) % n].name for i in range(n)]
        self.index = 0
        self.passes = 0
        self.acted = False
        self.bought = False
        self.sold_this_turn: list[str] = []
        self.sold_before_buy = False
        self.parred: str | None = None
        self.extra_buys = 0
        self.sold_by: dict[str, list[str]] = {p: [] for p in self.order}
        self.last_actor: str | None = None
        self._skip_inactive(game)

    def active(self, game: Game) -> str:
        return self.order[self.index]

    def actions(self, game: Game) -> list[Action]:
        sales = self._sales(game)
        return [*sales, *self._others(game, lambda: bool(sales))]

    def _others(self, game: Game, may_sell_now: Callable[[], bool]) -> list[Action]:
        """What `actions` lists besides the sales; `may_sell_now` says whether there are
        any (asked only where that decides whether the player may pass)."""
        player = self.active(game)
        title = game.title
        if title.turn_lost(game, player):
            return [Pass(player)]
        if title.over_cert_limit(game, player):
            return [] if may_sell_now() else [Pass(player)]
        out: list[Action] = []
        if self.parred is not None:
            if self.extra_buys > 0:
                out.extend(
                    b
                    for b in title.buy_options(game, player, self.sold_by[player])
                    if b.corporation == self.parred and b.source == "treasury"
                )
            out.append(Pass(player))
            return out
        if not self.bought:
            out.extend(title.buy_options(game, player, self.sold_by[player]))
            out.extend(title.par_options(game, player))
            out.extend(title.other_purchases(game, player))
        if title.pass_problem(game, player) is None or not (out or may_sell_now()):
            out.append(Pass(player))
        return out

    def _sales(self, game: Game, only: str | None = None) -> list[SellShares]:
        """The sales open to the player now (of the one corporation `only`, if given)."""
        player = self.active(game)
        title = game.title
        if not self.may_sell(game) or title.turn_lost(game, player):
            return []
        return [
            SellShares(player, corp, pct, last)
            for corp in title.sellable_corps(game, player)
            if only is None or corp == only
            for pct, last in title.sell_bundles(game, player, corp)
        ]

    def _sales_left(self, game: Game) -> bool:
        """Whether the player may still sell something this turn."""
        return bool(self._sales(game))

    def may_sell(self, game: Game) -> bool:
        """Sales come before the turn's buy, or after it where the title allows selling after
        a buy that no sale preceded."""
        if not self.bought:
            return True
        return game.title.sell_after_buy and not self.sold_before_buy

    def validate(self, game: Game, action: Action) -> None:
        # (what `actions` lists, narrowed to the kind of action asked about)
        if action.entity != self.active(game):
            legal = self.actions(game)
        elif isinstance(action, SellShares):
            legal = list(self._sales(game, only=action.corporation))
        else:
            legal = self._others(game, lambda: self._sales_left(game))
        if isinstance(action, Pass) and action not in legal and action.entity == self.active(game):
            problem = game.title.pass_problem(game, action.entity)
            if problem is not None:
                raise problem
        if isinstance(action, SellShares) and action not in legal:
            sizes = sorted(
                {
                    a.percent
                    for a in legal
                    if isinstance(a, SellShares) and a.corporation == action.corporation
                }
            )
            if sizes and action.entity == self.active(game):
                raise RuleError(
                    f"{action.entity} may sell {' or '.join(f'{p}%' for p in sizes)} of "
                    f"{action.corporation} now, not {action.percent}% (the pool's limit or "
                    "the presidency)",
                    self._rule_for(action),
                )
        if action not in legal:
            raise RuleError(f"{action.describe()} is not legal now", self._rule_for(action))

    def _rule_for(self, action: Action) -> str:
        return f"{self.rule} · " + {
            "sell_shares": "sell",
            "buy_shares": "buy",
            "par": "starting a corporation",
        }.get(action.type, "turn")

    def process(self, game: Game, action: Action) -> None:
        player = action.entity
        title = game.title
        if isinstance(action, SellShares):
            title.sell_shares(game, player, action)
            if not self.bought:
                self.sold_before_buy = True
            self.sold_by[player].append(action.corporation)
            if action.corporation not in self.sold_this_turn:
                self.sold_this_turn.append(action.corporation)
            self.acted = True
            self.last_actor = player
            return
        if isinstance(action, BuyShares):
            title.buy_shares(game, player, action)
            self.acted = True
            self.last_actor = player
            if self.parred is not None:
                self.extra_buys -= 1
                if self.extra_buys <= 0:
                    self._end_turn(game)
                return
            self.bought = True
            if not self._sales_left(game):
                self._end_turn(game)
            return
        if isinstance(action, Par):
            title.par(game, player, action)
            self.acted = True
            self.bought = True
            self.last_actor = player
            self.parred = action.corporation
            self.extra_buys = title.extra_buys_after_par
            if not any(isinstance(a, BuyShares | SellShares) for a in self.actions(game)):
                self._end_turn(game)
            return
        if not isinstance(action, Pass):  # one of the title's other purchases
            title.other_purchase(game, player, action)
            self.acted = True
            self.bought = True
            self.last_actor = player
            self._end_turn(game)
            return
        game.log(f"{player} passes" if not self.acted else f"{player} is done")
        if self.acted:
            self.passes = 0
        else:
            self.passes += 1
        self._end_turn(game, passed=not self.acted)

    def _end_turn(self, game: Game, passed: bool = False) -> None:
        if not passed:
            self.passes = 0
        self.acted = False
        self.bought = False
        self.parred = None
        self.extra_buys = 0
        self.sold_this_turn = []
        self.sold_before_buy = False
        self.index = (self.index + 1) % len(self.order)
        self._skip_inactive(game)

    def _skip_inactive(self, game: Game) -> None:
        """Bankrupt players take no turns (they count as passing)."""
        for _ in range(len(self.order)):
            if not game.player(self.order[self.index]).bankrupt:
                return
            self.passes += 1
            self.index = (self.index + 1) % len(self.order)

    def finished(self, game: Game) -> bool:
        return self.passes >= len(self.order)

    def end_at_once(self) -> None:
        """End the round after the action being played, every player counting as having
        passed (a title's rule that passes them all within that action)."""
        self.passes = len(self.order)

    def next_priority(self, game: Game) -> int:
        """Seat index of the player after the last one to buy or sell (unchanged if nobody
        did anything)."""
        names = [p.name for p in game.state.players]
        if self.last_actor is None:
            return game.state.priority
        return (names.index(self.last_actor) + 1) % len(names)
