"""The 1830-style "waterfall" auction of private companies (used by 1849 and 1883).

The privates are offered cheapest first. In turn, a player buys the cheapest private at its
price, bids on another private (at least L.5 more than the highest bid on it, or than its face
value; all of a player's bids stay committed), or passes. When the cheapest is sold, the next
one goes to its single bidder at that bid, or is auctioned among its bidders (the lowest
bidder raises or drops out), or, without bids, becomes the one to buy. A full round of passes
is handed to the title (privates pay; 1849 makes P1 cheaper).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.core.actions import Action, Bid, Pass
from tresham.core.errors import RuleError, quote
from tresham.core.rounds.base import Round

if TYPE_CHECKING:
    from tresham.core.game import Game

BID_STEP = 5


class WaterfallAuction(Round):
    """State of the private auction."""

    kind = "auction"
    #: Bids above the minimum go up in multiples of this (1: any amount of money).
    bid_unit = BID_STEP

    def __init__(self, game: Game, companies: list[str], rule: str) -> None:
        self.rule = rule
        self.unsold: list[str] = list(companies)
        self.bids: dict[str, dict[str, int]] = {c: {} for c in companies}
        self.discount: dict[str, int] = {c: 0 for c in companies}
        n = len(game.state.players)
        self.order = [game.state.players[(game.state.priority + i) % n].name for i in range(n)]
        self.pointer = 0
        self.passed: set[str] = set()
        self.auctioning: str | None = None
        self.last_mover = -1

    # ---------------------------------------------------------------- queries
    def price(self, game: Game, company: str) -> int:
        """Current price of the cheapest private (face value less any discount)."""
        return game.state.companies[company].value - self.discount[company]

    def committed(self, player: str, except_company: str | None = None) -> int:
        """Cash tied up in `player`'s standing bids."""
        return sum(b.get(player, 0) for c, b in self.bids.items() if c != except_company)

    def min_bid(self, game: Game, company: str) -> int:
        """Lowest legal bid on a private that is not the cheapest."""
        bids = self.bids[company]
        base = max(bids.values()) if bids else game.state.companies[company].value
        return base + BID_STEP

    def max_bid(self, game: Game, player: str, company: str) -> int:
        """Highest bid `player` can afford on `company` (cash less other commitments)."""
        return game.player(player).cash - self.committed(player, except_company=company)

    def active(self, game: Game) -> str:
        if self.auctioning is not None:
            bids = self.bids[self.auctioning]
            return min(bids, key=lambda p: bids[p])
        return self.order[self.pointer]

    def actions(self, game: Game) -> list[Action]:
        player = self.active(game)
        out: list[Action] = []
        if self.auctioning is not None:
            c = self.auctioning
            lo, hi = self.min_bid(game, c), self.max_bid(game, player, c)
            if lo <= hi:
                out.append(Bid(player, c, lo))
                if hi - (hi - lo) % self.bid_unit != lo:
                    out.append(Bid(player, c, hi - (hi - lo) % self.bid_unit))
            out.append(Pass(player))
            return out
        first = self.unsold[0]
        if self.max_bid(game, player, first) >= self.price(game, first):
            out.append(Bid(player, first, self.price(game, first)))
        for c in self.unsold[1:]:
            lo, hi = self.min_bid(game, c), self.max_bid(game, player, c)
            if lo <= hi:
                out.append(Bid(player, c, lo))
        out.append(Pass(player))
        return out

    def validate(self, game: Game, action: Action) -> None:
        if isinstance(action, Pass):
            return
        if not isinstance(action, Bid):
            raise RuleError(f"{action.type} is not allowed in the private auction", self.rule)
        player, c = action.entity, action.company
        if c not in self.unsold:
            raise RuleError(f"{quote(c)} is not for sale", self.rule)
        if self.auctioning is not None and c != self.auctioning:
            raise RuleError(f"only {self.auctioning} may be bid on in this auction", self.rule)
        if self.auctioning is None and c == self.unsold[0]:
            price = self.price(game, c)
            if action.price != price:
                raise RuleError(f"{c} is bought at its price, {game.title.money(price)}", self.rule)
            if self.max_bid(game, player, c) < price:
                raise RuleError(f"cannot afford {c} ({game.title.money(price)})", self.rule)
            return
        lo, hi = self.min_bid(game, c), self.max_bid(game, player, c)
        if action.price < lo:
            raise RuleError(f"a bid on {c} must be at least {game.title.money(lo)}", self.rule)
        if (action.price - lo) % self.bid_unit:
            raise RuleError(f"bids go up in steps of {game.title.money(self.bid_unit)}", self.rule)
        if action.price > hi:
            money = game.title.money
            raise RuleError(
                f"bid of {money(action.price)} exceeds uncommitted cash ({money(hi)})", self.rule
            )

    # ---------------------------------------------------------------- changes
    def process(self, game: Game, action: Action) -> None:
        player = action.entity
        if self.auctioning is not None:
            c = self.auctioning
            if isinstance(action, Bid):
                self.bids[c][player] = action.price
                game.log(f"{player} bids {game.title.money(action.price)} for {c}")
            else:
                del self.bids[c][player]
                game.log(f"{player} drops out of the auction for {c}")
            if len(self.bids[c]) == 1:
                self.auctioning = None
                self._resolve(game)
            return
        if isinstance(action, Bid):
            self.passed.discard(player)
            self.last_mover = self.pointer
            if action.company == self.unsold[0]:
                self._sell(game, action.company, player, action.price)
                self._advance_pointer()
                self._resolve(game)
            else:
                self.bids[action.company][player] = action.price
                game.log(f"{player} bids {game.title.money(action.price)} on {action.company}")
                self._advance_pointer()
            return
        self.passed.add(player)
        game.log(f"{player} passes")
        if len(self.passed) == len(self.order):
            self.passed.clear()
            game.title.on_auction_all_passed(game, self)
        self._advance_pointer()

    def _advance_pointer(self) -> None:
        self.pointer = (self.pointer + 1) % len(self.order)

    def _sell(self, game: Game, company: str, player: str, price: int) -> None:
        self.unsold.remove(company)
        self.bids.pop(company, None)
        game.transfer(player, "bank", price)
        game.state.companies[company].owner = player
        game.log(f"{player} buys {company} for {game.title.money(price)}")
        game.title.on_company_bought(game, company, player)

    def _resolve(self, game: Game) -> None:
        """After a sale: settle the bids on the new cheapest private."""
        while self.unsold and self.auctioning is None:
            first = self.unsold[0]
            bids = self.bids[first]
            if len(bids) == 1:
                ((winner, price),) = bids.items()
                self._sell(game, first, winner, price)
            elif len(bids) > 1:
                self.auctioning = first
                return
            else:
                return

    def give_free(self, game: Game, company: str, player: str, uses_turn: bool) -> None:
        """Hand `company` to `player` for nothing (the cheapest private after enough full
        rounds of passes). Called while the last pass is processed; when taking it `uses_turn`
        (e.g. 1883 §3.2.2 "receives the TCB for free and the auction will go on with the
        player to their left"), the next turn is the taker's left neighbour's, else the
        taker's own."""
        self._sell(game, company, player, 0)
        if uses_turn:
            self.pointer = self.order.index(player)  # the pass being processed moves it on
        self._resolve(game)

    def finished(self, game: Game) -> bool:
        return not self.unsold
