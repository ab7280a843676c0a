"""1854 §4: the private certificates of the first Share Buying Round.

The eleven certificates are offered in Table 2's order. On a turn a player buys the topmost
certificate at its price, bids on a later one (at least 5 G over its printed price or the
highest bid on it), or passes; a player whose bid was outbid may retract it first (ruling F3).
Money bid stays tied up while the bid stands. When a certificate is sold, the next one goes
to its single bidder at that bid, or to an auction among its bidders: the lowest bidder
starts and, in clockwise order, each raises by at least 5 G or drops out, until one remains.

The generic waterfall auction (``core/rounds/auction.py``) does the buying, bidding, tied-up
money and resolution; this round adds retracting, the clockwise auction order, the share
limit (ruling F4) and bids of any amount from the minimum up. The title decides what a full round of
passes does (the Außerfernbahn's price falls, or the round ends: ``on_auction_all_passed``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.core.actions import Action, Bid
from tresham.core.errors import RuleError
from tresham.core.rounds.auction import WaterfallAuction
from tresham.core.stock import player_certs
from tresham.titles.t1854.actions import RetractBid

if TYPE_CHECKING:
    from tresham.core.game import Game


class FirstShareRound(WaterfallAuction):
    """The private part of 1854's first Share Buying Round."""

    kind = "first_share_round"
    bid_unit = 1  # §4: "at least 5 G more" (ruling F2): any amount of money from there

    def __init__(self, game: Game, companies: list[str], rule: str, limit: int) -> None:
        super().__init__(game, companies, rule)
        self.limit = limit
        self.auction_turn: str | None = None
        self.ended = False

    # ---------------------------------------------------------------- queries
    def active(self, game: Game) -> str:
        if self.auction_turn is not None and self.auctioning is not None:
            return self.auction_turn
        return super().active(game)

    def room(self, game: Game, player: str, company: str) -> bool:
        """Ruling F4 (§6.5): a player may buy or bid only while the certificates held plus
        the other certificates bid on stay under the share limit."""
        bids_elsewhere = sum(1 for c, b in self.bids.items() if c != company and player in b)
        return player_certs(game, player) + bids_elsewhere < self.limit

    def outbid(self, player: str) -> list[str]:
        """Certificates on which `player` has a bid that is no longer the highest."""
        return [c for c, b in self.bids.items() if player in b and max(b.values()) > b[player]]

    def actions(self, game: Game) -> list[Action]:
        player = self.active(game)
        out: list[Action] = [
            a
            for a in super().actions(game)
            if not isinstance(a, Bid) or self.room(game, player, a.company)
        ]
        if self.auctioning is None:
            out.extend(RetractBid(player, c) for c in self.outbid(player))
        return out

    def validate(self, game: Game, action: Action) -> None:
        if isinstance(action, RetractBid):
            if self.auctioning is not None:
                raise RuleError("no bid may be retracted during an auction", self.rule)
            if action.company not in self.outbid(action.entity):
                raise RuleError(
                    f"only a bid that has been outbid may be retracted ({action.company})",
                    self.rule,
                )
            return
        super().validate(game, action)
        if isinstance(action, Bid) and not self.room(game, action.entity, action.company):
            raise RuleError(
                f"{action.entity} is at the share limit ({self.limit} certificates)",
                f"{self.rule} · §6.5",
            )

    # ---------------------------------------------------------------- changes
    def process(self, game: Game, action: Action) -> None:
        player = action.entity
        if isinstance(action, RetractBid):
            del self.bids[action.company][player]
            game.log(f"{player} retracts the bid on {action.company}")
            return
        if self.auctioning is not None:
            company = self.auctioning
            following = self._next_bidder(company, player)
            super().process(game, action)
            if self.auctioning == company:
                self.auction_turn = following
            return
        super().process(game, action)

    def _next_bidder(self, company: str, player: str) -> str:
        """The next bidder on `company` after `player`, clockwise."""
        n = len(self.order)
        start = self.order.index(player)
        seats = [self.order[(start + k) % n] for k in range(1, n)]
        return next(p for p in seats if p in self.bids[company])

    def _resolve(self, game: Game) -> None:
        """An auction begins with its lowest bidder (bids on one certificate all differ)."""
        super()._resolve(game)
        self.auction_turn = None
        if self.auctioning is not None:
            bids = self.bids[self.auctioning]
            self.auction_turn = min(bids, key=bids.__getitem__)

    def finished(self, game: Game) -> bool:
        return self.ended or super().finished(game)
