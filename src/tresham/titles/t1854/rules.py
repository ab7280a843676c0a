"""1854 (Austria): set-up and the first Share Buying Round.

The spec is ``1854-rulebook.txt``; comments cite its paragraphs. Tables the rulebook lost are
typed into ``data/game.json`` by ``tools/build_1854_data.py``; where the rulebook is silent,
``docs/rulings/1854.md`` says what tresham decided.

Built so far: the set-up (§2), the private certificates of the first Share Buying Round
(``first_round.py``, §4) and its share part: Director's certificates at four times a chosen
par, 20% shares from the initial offering, floating at 60%, the change of Director (§6.4,
§6.6, §6.6.1), no selling (§4, §6.7). The Operating Rounds are not built: when the first Share
Buying Round is over the game stops (ruling F6), so the title is not offered by the registry.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from tresham.core.actions import BuyShares, Par
from tresham.core.bank import Bank
from tresham.core.board import BoardDef
from tresham.core.entities import Company, Corporation, Player
from tresham.core.market import Market, MarketState
from tresham.core.rounds.auction import WaterfallAuction
from tresham.core.rounds.stock import StockRound
from tresham.core.shares import ShareRegistry, treasury
from tresham.core.stock import player_certs, update_president
from tresham.core.tiles import load_catalogue
from tresham.core.title import Title
from tresham.core.track import MapState
from tresham.core.trains import Depot, Phase, TrainType
from tresham.titles.t1854.first_round import FirstShareRound

if TYPE_CHECKING:
    from tresham.core.game import Game, GameState
    from tresham.core.rounds.base import Round

PACKAGE: Final = "tresham.titles.t1854"
RULES: Final = "1854"
FIRST_ROUND: Final = f"{RULES} §4"
#: Why the game stops after the first Share Buying Round (ruling F6).
NOT_BUILT: Final = "operating rounds not built yet"


def _data() -> dict[str, Any]:
    text = resources.files(PACKAGE).joinpath("data/game.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


class Title1854(Title):
    """1854: the Austrian 18xx with local railways and mountain railways."""

    name = "1854"
    player_range = (3, 6)
    rules_version = 1
    privates_count_toward_limit = True  # §6.5: "shares and private companies"

    def __init__(self) -> None:
        self.data = _data()
        self.phases = [
            Phase(
                p["name"],
                p["on"],
                p["train_limit"]["major"],
                tuple(p["tiles"]),
                p["operating_rounds"],
                kind_limits=tuple(
                    (kind, n) for kind, n in p["train_limit"].items() if kind != "major"
                ),
            )
            for p in self.data["phases"]
        ]
        self.market_def = Market.load(PACKAGE, "data/market.json")
        self.board = BoardDef.from_package(PACKAGE)
        manifest = resources.files(PACKAGE).joinpath("data/manifest.json").read_text("utf-8")
        self.tiles: dict[str, int] = json.loads(manifest)["tiles"]

    # ================================================================ set-up
    def setup(self, game: Game) -> GameState:
        """§2.3 Table 1: the starting capital from the bank (§1.1, ruling D1); §2.4: the
        eleven private certificates in Table 2's order; each major's 40% Director's share and
        three 20% shares in the initial offering (the five 10% shares wait for a split,
        §3.2.1); the bank pool empty. §2.2/§4: the players are given in seating order and the
        first is the Start Player (ruling F1)."""
        from tresham.core.game import GameState

        d = self.data
        n = len(game.player_names)
        bank = Bank(d["bank"])
        cash = d["starting_cash"][str(n)]
        players = [Player(name) for name in game.player_names]
        for p in players:
            bank.pay_out(cash)
            p.cash = cash
        shares = ShareRegistry()
        corps: dict[str, Corporation] = {}
        for m in d["majors"]:
            sym = m["sym"]
            corps[sym] = Corporation(
                sym, m["name"], kind="major", tokens=len(m["token_costs"]), home=m["home"][0]
            )
            shares.add_corporation(sym, m["shares"], False, treasury(sym))
        companies = {
            c["sym"]: Company(
                c["sym"],
                c["name"],
                c["value"],
                c["revenue"],
                powers={k: c[k] for k in ("kind", "power", "share", "hex") if k in c},
            )
            for c in d["privates"]
        }
        depot = Depot.build(
            [
                TrainType(
                    t["name"],
                    t["distance"],
                    t["price"],
                    t["count"],
                    t.get("rusts_on"),
                    available_on=self._plus_phase(t),
                )
                for t in d["trains"]
            ]
        )
        map_state = MapState(self.board, load_catalogue(), self.tiles)
        for sym, (coord, node) in self.board.homes.items():
            map_state.reserve(sym, coord, node)
        state = GameState(
            players=players,
            bank=bank,
            corps=corps,
            companies=companies,
            shares=shares,
            market=MarketState(self.market_def),
            depot=depot,
            map=map_state,
            rng=game.new_rng(),
            phases_reached=[self.phases[0].name],
        )
        state.extra = {"splits": 0, "last_purchaser": None}
        return state

    def _plus_phase(self, train: dict[str, Any]) -> str | None:
        """The first phase whose Table 5 row offers this plus train (None: a regular train,
        sold in order)."""
        if not train.get("plus"):
            return None
        return next(
            str(p["name"]) for p in self.data["phases"] if train["name"] in p["plus_trains"]
        )

    # ================================================================ sequence
    def next_round(self, game: Game) -> Round:
        """§4: the first Share Buying Round offers the private certificates; once all eleven
        are sold its share part follows, the turn passing on as before (ruling F7)."""
        s = game.state
        rnd = s.round
        if rnd is None:
            s.stock_round_no = 1
            game.log("Share Buying Round 1")
            companies = [c["sym"] for c in self.data["privates"]]
            return FirstShareRound(game, companies, FIRST_ROUND, self.share_limit(game))
        assert isinstance(rnd, WaterfallAuction)
        s.priority = s.players.index(game.player(rnd.order[rnd.pointer]))
        return StockRound(game, FIRST_ROUND)

    def check_end(self, game: Game, round_over: bool) -> bool:
        """§4: the first Share Buying Round ends when all players pass in turn after at least
        one certificate was bought; the player left of the last buyer receives the Priority
        Deal card. Then the game stops: the Operating Rounds are not built (ruling F6)."""
        s = game.state
        if s.finished:
            return True
        rnd = s.round
        over = isinstance(rnd, StockRound) or (isinstance(rnd, FirstShareRound) and rnd.ended)
        if not (round_over and over):
            return False
        last = s.extra["last_purchaser"]
        names = [p.name for p in s.players]
        s.priority = (names.index(last) + 1) % len(names)
        game.log(f"{names[s.priority]} receives the Priority Deal card")
        self.finish(game, NOT_BUILT)
        return True

    # ================================================================ private certificates
    def on_company_bought(self, game: Game, company: str, player: str) -> None:
        """§3.1 Table 2: the Arlbergbahn brings a 20% VB share, the Semmeringbahn a 20% SD
        share (from the initial offering)."""
        s = game.state
        s.extra["last_purchaser"] = player
        share = s.companies[company].powers.get("share")
        if share is None:
            return
        sym, percent = share["corporation"], share["percent"]
        cert = next(
            c for c in s.shares.held(treasury(sym), sym) if not c.president and c.percent == percent
        )
        s.shares.move(cert.cid, player)
        game.log(f"{player} receives a {percent}% share of {sym} with {company}")

    def on_auction_all_passed(self, game: Game, rnd: WaterfallAuction) -> None:
        """§4: all players passed in turn. With the Außerfernbahn unsold, the round goes on
        and it is offered 5 G cheaper; the first player offered it for 0 G must take it.
        Otherwise (a certificate has been bought) the first Share Buying Round ends."""
        assert isinstance(rnd, FirstShareRound)
        first: str = self.data["privates"][0]["sym"]
        if not rnd.unsold or rnd.unsold[0] != first:
            rnd.ended = True
            return
        rnd.discount[first] += self.data["bid_step"]
        price = rnd.price(game, first)
        game.log(f"{first} is now offered for {price} G")
        if price <= 0:
            taker = rnd.order[(rnd.pointer + 1) % len(rnd.order)]
            game.log(f"{taker} must take {first} for 0 G")
            rnd.give_free(game, first, taker)

    # ================================================================ shares
    def share_limit(self, game: Game) -> int:
        """§6.5 Table 7: by the number of players and of companies whose shares have split."""
        row: list[int] = self.data["share_limits"][str(len(game.state.players))]
        splits: int = game.state.extra["splits"]
        return row[splits]

    def over_cert_limit(self, game: Game, player: str) -> bool:
        return player_certs(game, player) > self.share_limit(game)

    def sellable_corps(self, game: Game, player: str) -> list[str]:
        """§4, §6.7: no sales in the first Share Buying Round."""
        return []

    def buy_options(self, game: Game, player: str, sold: list[str]) -> list[BuyShares]:
        """§6.4: a new share from the initial offering at its set price (the par price per
        10%), once the company's Director's certificate is bought; within the share limit
        (§6.5; up to 100% of a company before a split)."""
        s = game.state
        if player_certs(game, player) >= self.share_limit(game):
            return []
        cash = game.player(player).cash
        out: list[BuyShares] = []
        for sym, corp in s.corps.items():
            if not corp.parred or sym in sold:
                continue
            sizes = sorted({c.percent for c in s.shares.held(treasury(sym), sym)})
            out.extend(
                BuyShares(player, sym, "treasury", pct)
                for pct in sizes
                if corp.par_price * pct // 10 <= cash
            )
        return out

    def buy_shares(self, game: Game, player: str, action: BuyShares) -> None:
        """§4: the money goes to the bank; a larger holding than the Director's makes a new
        Director (§6.6.1, core ``update_president``)."""
        s = game.state
        sym = action.corporation
        cert = next(c for c in s.shares.held(treasury(sym), sym) if c.percent == action.percent)
        price = s.corps[sym].par_price * action.percent // 10
        game.transfer(player, "bank", price)
        s.shares.move(cert.cid, player)
        s.extra["last_purchaser"] = player
        game.log(f"{player} buys {action.percent}% of {sym} for {price} G")
        update_president(game, sym, s.shares.president[sym])
        self._check_float(game, sym)

    def par_options(self, game: Game, player: str) -> list[Par]:
        """§4, §6.4: the Director's certificate of a company not yet started, at four times a
        par price of 67, 72, 77, 82, 87 or 93 chosen by its buyer."""
        s = game.state
        if player_certs(game, player) >= self.share_limit(game):
            return []
        cash = game.player(player).cash
        return [
            Par(player, sym, price)
            for sym, corp in s.corps.items()
            if not corp.parred
            for price in self.data["par_prices"]
            if 4 * price <= cash
        ]

    def par(self, game: Game, player: str, action: Par) -> None:
        """§6.6: the Director's certificate for 4 x par to the bank; a share that came with a
        private now has a value; the company floats if 60% is now in players' hands."""
        s = game.state
        sym = action.corporation
        corp = s.corps[sym]
        pres = next(c for c in s.shares.corp_certs(sym) if c.president)
        game.transfer(player, "bank", 4 * action.price)
        s.shares.move(pres.cid, player)
        s.shares.president[sym] = player
        corp.parred = True
        corp.par_price = action.price
        s.extra["last_purchaser"] = player
        game.log(f"{player} buys the Director's certificate of {sym} at {action.price} G")
        self._check_float(game, sym)

    def _check_float(self, game: Game, sym: str) -> None:
        """§6.6: at 60% in players' hands (shares that came with a private count, ruling F5)
        the company floats: 10 x par from the bank into its treasury and its marker on the
        par space of the share price chart (under any markers already there)."""
        s = game.state
        corp = s.corps[sym]
        sold = sum(pct for h, pct in s.shares.holders(sym).items() if h != treasury(sym))
        if corp.floated or sold < self.data["float_percent"]:
            return
        corp.floated = True
        game.transfer("bank", sym, self.data["capital_times_par"] * corp.par_price)
        cell = next(c for c in self.market_def.cells_with("par") if c.price == corp.par_price)
        s.market.place(sym, cell.pos)
        game.log(f"{sym} floats with {corp.cash} G")
