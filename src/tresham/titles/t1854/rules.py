"""1854 (Austria): set-up and the first Share Buying Round.

The spec is ``1854-rulebook.txt``; comments cite its paragraphs. Tables the rulebook lost are
typed into ``data/game.json`` by ``tools/build_1854_data.py``; where the rulebook is silent,
``docs/rulings/1854.md`` says what tresham decided.

Built so far: the set-up (§2), the private certificates of the first Share Buying Round
(``first_round.py``, §4) and its share part: Director's certificates at four times a chosen
par, 20% shares from the initial offering, floating at 60%, the change of Director (§6.4,
§6.6, §6.6.1), no selling (§4, §6.7); the Share Buying Rounds' rules (§6: selling to the pool
with the price falling per certificate, buying from the pool, no buying back what one sold,
the Director's certificate handed over on a sale, leftover privates, the rise of sold-out
companies, the Priority Deal card), buying options (``options.py``, §6.4.1), share splitting
(``split.py``, §3.2.1), the Mountain Railways' income at the start of an Operating Round
(§5.1), the Operating Rounds (``operating.py``, ``track_rules.py``, §5.1-5.11: sets of 1-3
rounds by phase, track, stations, trains, dividends, train purchase and trading, phases with
obsolete and surplus trains, customs and the Orient Express's start), the Local Railways
(``local_railways.py``) and their mergers into Major Local Railways (``major_local.py``),
mail contracts (``mail.py``, §5.12), tunnels (``tunnels.py``, §5.3.1), and the game end
(§8, §8.1). Not built: the gaps listed in ``docs/rulings/1854.md`` T10.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tresham.core.actions import Action, Bid, BuyShares, Par, SellShares
from tresham.core.board import BoardDef
from tresham.core.display import FactTable
from tresham.core.end import EndReason
from tresham.core.errors import RuleError
from tresham.core.game import GameState
from tresham.core.market import Market, MarketState
from tresham.core.opening import Opening, train_types
from tresham.core.phases import first_purchase
from tresham.core.prompts import queue_discards
from tresham.core.rounds.auction import WaterfallAuction
from tresham.core.rounds.operating import OperatingRound
from tresham.core.rounds.stock import StockRound
from tresham.core.shares import POOL, treasury
from tresham.core.stock import (
    bundle_price,
    move_sale_certs,
    player_certs,
    sale_possible,
    update_president,
)
from tresham.core.tiles import TileDef, load_catalogue
from tresham.core.title import Title, title_data
from tresham.core.track import MapState
from tresham.core.trains import Phase
from tresham.titles.t1854 import (
    local_railways,
    mail,
    major_local,
    operating,
    options,
    split,
    tallies,
)
from tresham.titles.t1854 import words as t1854_words
from tresham.titles.t1854.actions import BuyOption, PayOption
from tresham.titles.t1854.first_round import FirstShareRound
from tresham.titles.t1854.state import State1854, Turn1854, state_of
from tresham.titles.t1854.track_rules import ORIENT_EXPRESS
from tresham.titles.t1854.versions import DEALS_VERSION, ORIGINAL_BOARD_VERSION

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tresham.core.game import Game
    from tresham.core.market import Position
    from tresham.core.rounds.base import Round
    from tresham.core.rules_protocols import TrackRules, TrainSpec

PACKAGE: Final = "tresham.titles.t1854"
RULES: Final = "1854"
FIRST_ROUND: Final = f"{RULES} §4"
SHARE_ROUND: Final = f"{RULES} §6"
OPERATING_ROUND: Final = f"{RULES} §5"
#: The buying source of the Split Shares section (§2.4, §6.4).
SPLIT: Final = "split"
#: What a private certificate's data says about its powers (Table 2).
POWER_KEYS: Final = ("kind", "power", "share", "hex", "closes_when_runs")
#: The phase whose start closes the Mountain Railways (§5.10, Table 5).
MOUNTAINS_CLOSE: Final = "5"
#: The phase begun by the first 8-train or the first Orient Express (§5.10).
LAST_PHASE: Final = "8"
#: §5.6: what a route through Germany loses.
CUSTOMS: Final = 10
#: The chart's Game End space (§8, ruling M1).
ENDGAME: Final = "endgame"


#: The board editions (ruling D6): the rulebook's original (2002) and the revised one
#: (2016/17) of rules versions 1-3, each with its data files.
ORIGINAL: Final = "original"
REVISED: Final = "revised"
EDITIONS: Final[dict[str, dict[str, str]]] = {
    ORIGINAL: {
        "board": "data/board_original.json",
        "manifest": "data/manifest_original.json",
        "tiles": "data/tiles_original.json",
    },
    REVISED: {"board": "data/board.json", "manifest": "data/manifest.json"},
}
#: The colour of §1.1's 13 transparent tiles, the tunnels.
TUNNEL_COLOR: Final = "tunnel"


def _data() -> dict[str, Any]:
    return title_data(PACKAGE)


def _data_path(name: str) -> Path:
    return Path(str(resources.files(PACKAGE).joinpath(name)))


@cache
def _edition(edition: str) -> Title1854:
    """The title on the `edition`'s board, made once."""
    return Title1854(edition)


def _customs_stops(raw: dict[str, Any]) -> frozenset[tuple[str, int]]:
    """§5.6: "If a route passes through Germany (one of the track sections with a customs
    sign), the income from the route is reduced by 10 G. The customs sign does not count as a
    station." Each customs track of the board (München's on both boards, and E7's on the
    original one: rulings D5, D8) gets a stop of its own in its middle, worth -10 G, that the
    track rules count nothing for the range and never let end a route (ruling T13). Returns
    the stops' (hex, node)."""
    stops = set()
    for coord, index in raw["customs"].items():
        hexdata = raw["hexes"][coord]
        a, b, gauge = hexdata["paths"][index]
        nodes = hexdata.setdefault("nodes", [])
        node = len(nodes)
        nodes.append({"kind": "town", "revenue": -CUSTOMS})
        hexdata["paths"][index : index + 1] = [[a, f"n{node}", gauge], [f"n{node}", b, gauge]]
        stops.add((coord, node))
    return frozenset(stops)


def _open_tunnel_only(raw: dict[str, Any]) -> None:
    """§5.3: "Track may also end at a gray hex, because the line could be continued through
    the grey hex by means of a tunnel." The grey tunnel-only spaces (ruling D2) are loaded as
    open hexes, so track may run up to them; the track rules lay no tile on them (ruling
    T14)."""
    for coord in raw["tunnel_only"]:
        raw["hexes"][coord]["color"] = "white"


class Title1854(Title):
    """1854: the Austrian 18xx with local railways and mountain railways."""

    name = "1854"
    #: §5.9: a train over the limit goes back to the bank, for sale at full price.
    discard_log = "{corp} puts its {train} train in the bank pool"
    player_range = (3, 6)
    rules_version = ORIGINAL_BOARD_VERSION
    #: 1: before the Major Local Railways (ruling L3); 2: before deals needed both sides; 3:
    #: on the revised edition's board (ruling D6)
    older_rules = frozenset({1, major_local.MERGERS_VERSION, DEALS_VERSION})
    privates_count_toward_limit = True  # §6.5: "shares and private companies"
    president_word = "Director"  # §6: the holder of a Major Company's 20% certificate
    #: A search unit costs about 0.77 ms (idle, on average; twice that in the slowest
    #: twentieth of decisions): measured 2026-12-08, ``benchmarks/hard.py --calibrate``.
    search_units_per_second = 900
    #: §4, §5, §6: the rulebook's "Share Buying Round" and "Operating Round".
    round_names = {
        "stock": "Share Buying Round",
        "operating": "Operating Round",
        FirstShareRound.kind: "Share Buying Round 1",
    }
    step_objects = operating.STEP_OBJECTS
    turn_record = Turn1854
    #: §5.3 a shielded hex's guard permits a tile or not (ruling T2); §5.10 a merger
    #: proposed to a Local Railway's owner, a Local Railway's fate in Phase 6.
    prompts = {p.kind: p for p in (operating.Permission(), *major_local.PROMPTS)}

    def __init__(self, edition: str = ORIGINAL) -> None:
        #: The board's edition (ruling D6): the rulebook's own, or the revised one on which
        #: saves of rules versions 1-3 were played.
        self.edition = edition
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
        files = EDITIONS[edition]
        raw = title_data(PACKAGE, files["board"])
        #: The customs signs' stops (§5.6, ruling T13)
        self.customs = _customs_stops(raw)
        _open_tunnel_only(raw)
        self.board = BoardDef.from_dict(raw)
        #: §5.6: where the Orient Express's route may go on to Paris or Constantinople
        #: (ruling T5), with that city's value
        self.gateways = {
            gate: (city, self.board.hex(city).tile.nodes[0].revenue)
            for gate, city in raw["orient_express_gateways"].items()
        }
        #: Table 2: the hexes printed with mountains (the Außerfernbahn's discount)
        self.mountains = frozenset(
            c for c, h in raw["hexes"].items() if "mountain" in h.get("terrain", ())
        )
        #: The tile catalogue: the engine's, and the edition's own tiles (the original set's
        #: 4xx tiles, ruling D6)
        self.catalogue: Mapping[str, TileDef] = load_catalogue()
        if "tiles" in files:
            self.catalogue = {**self.catalogue, **load_catalogue(_data_path(files["tiles"]))}
        #: §1.1: every tile of the box, the transparent tunnel tiles included
        self.manifest: dict[str, int] = title_data(PACKAGE, files["manifest"])["tiles"]
        #: The tiles laid as tiles (a tunnel is overlay track, ``tunnels.py``)
        self.tiles = {
            t: n for t, n in self.manifest.items() if self.catalogue[t].color != TUNNEL_COLOR
        }
        self.new_shares = {m["sym"]: len(m["split_shares"]) for m in self.data["majors"]}
        self.token_costs = {m["sym"]: list(m["token_costs"]) for m in self.data["majors"]}
        for c in self.data["privates"]:
            if c["kind"] == local_railways.KIND:
                self.token_costs[c["sym"]] = list(self.data["local_railways"]["token_costs"])
        for mlr in self.data["major_local_railways"]:
            self.token_costs[mlr["sym"]] = list(mlr["token_costs"])
        self.plus_kinds = frozenset(t["name"] for t in self.data["trains"] if t.get("plus"))

    def for_rules(self, rules_version: int) -> Title1854:
        """Saves of rules versions 1-3 were played on the revised edition's board and tiles
        and replay on them; later versions play the original edition's (ruling D6)."""
        edition = ORIGINAL if rules_version >= ORIGINAL_BOARD_VERSION else REVISED
        return self if edition == self.edition else _edition(edition)

    def info(self, game: Game) -> dict[str, Any]:
        """For ``tresham info``: the board's edition, its 125 tiles of §1.1 (the 13
        transparent tunnel tiles included, which the map's supply does not hold), and its
        medium-sized cities (§5.3)."""
        board = game.state.map.board
        return {
            "edition": self.edition,
            "tiles": dict(self.manifest),
            "medium_cities": {
                coord: board.hex(coord).name for coord in board.extra.get("medium_cities", ())
            },
        }

    # ================================================================ words
    def action_words(self, game: Game, action: Action, words: Any) -> str | None:
        """Tunnels, mail contracts, options, retracted bids, Local Railways, shields."""
        return t1854_words.action_words(self, game, action, words)

    def train_note(self, kind: str) -> str:
        """The Orient Express and the plus trains (§5.6, §5.9)."""
        return t1854_words.TRAIN_NOTES.get(kind, "")

    def fact_tables(self, game: Game) -> list[FactTable]:
        """The mail contracts and their holders, the options not yet paid."""
        return t1854_words.fact_tables(self, game)

    def company_group(self, game: Game, sym: str) -> str:
        """The Local Railways' certificates are private certificates (§3.1.2) but not the
        privates: players see them under their own heading."""
        locals_ = sym in game.state.corps and local_railways.is_local(game, sym)
        return "Local Railways" if locals_ else "privates"

    def corporation_holds(self, game: Game, corp: str) -> list[str]:
        """Its mail contract (§5.12) and what it collects now."""
        return t1854_words.mail_held(self, game, corp)

    # ================================================================ deals
    def deals_need_consent(self, game: Game) -> bool:
        """§5.9 "The purchase price is freely negotiable … and must be made known to
        everybody"."""
        return game.rules_version >= DEALS_VERSION

    def money(self, amount: int) -> str:
        """1854 counts in Gulden: "100 G"."""
        return f"{amount} G"

    # ================================================================ set-up
    def setup(self, game: Game) -> GameState:
        """§2.3 Table 1: the starting capital from the bank (§1.1, ruling D1); §2.4: the
        eleven private certificates in Table 2's order; each major's 40% Director's share and
        three 20% shares in the initial offering (the five 10% shares wait for a split,
        §3.2.1); the bank pool empty. §2.2/§4: the players are given in seating order and the
        first is the Start Player (ruling F1)."""
        d = self.data
        opening = Opening(game, d)
        opening.charter(d["majors"])
        for c in d["privates"]:
            if c["kind"] == local_railways.KIND:
                local_railways.create(opening.corps, opening.shares, c)
        for mlr in d["major_local_railways"]:
            major_local.create(opening.corps, opening.shares, mlr)
        state = opening.state(
            market=MarketState(self.market_def),
            map_state=MapState(self.board, self.catalogue, self.tiles),
            trains=train_types(d["trains"], game.options, available_on=self._plus_phase),
            companies=d["privates"],
            powers=POWER_KEYS,
        )
        state.title_state = State1854()
        return state

    def _plus_phase(self, train: Mapping[str, Any]) -> str | None:
        """The first phase whose Table 5 row offers this plus train (None: a regular train,
        sold in order). §5.9's further condition, the 3+ only after the last 2+ is sold
        (data: ``available_after``), is for the train purchase of the Operating Rounds."""
        if not train.get("plus"):
            return None
        return next(
            str(p["name"]) for p in self.data["phases"] if train["name"] in p["plus_trains"]
        )

    # ================================================================ sequence
    def next_round(self, game: Game) -> Round:
        """§4: the first Share Buying Round offers the private certificates; once all eleven
        are sold its share part follows, the turn passing on as before (ruling F7). After a
        Share Buying Round: its end (§6.1, §6.2), then a set of Operating Rounds, as many as
        the phase gives (Table 5, core ``begin_operating_set``); then the next Share Buying
        Round (§6.1)."""
        s = game.state
        rnd = s.round
        if rnd is None:
            s.stock_round_no = 1
            game.log_round(self.round_names[FirstShareRound.kind])
            companies = [c["sym"] for c in self.data["privates"]]
            return FirstShareRound(game, companies, FIRST_ROUND, self.share_limit(game))
        if isinstance(rnd, FirstShareRound) and not rnd.ended:
            s.priority = s.players.index(game.player(rnd.order[rnd.pointer]))
            return StockRound(game, FIRST_ROUND)
        if isinstance(rnd, StockRound | FirstShareRound):
            self.end_of_share_round(game, rnd)
            self.begin_operating_set(game)
            return self.new_operating_round(game)
        if s.or_in_set < s.ors_in_set:
            return self.new_operating_round(game)
        return self.new_share_round(game)

    def new_operating_round(self, game: Game) -> OperatingRound:
        """§5.1: the Mountain Railways pay their owners, then the companies operate (see
        :meth:`operating_order`). Merger proposals declined in the last round may be made
        again (ruling ML1)."""
        s = game.state
        state_of(game).mergers.declined = []
        s.or_in_set += 1
        s.operating_round_no += 1
        game.log_round(f"{self.round_names['operating']} {s.stock_round_no}.{s.or_in_set}")
        self.pay_mountain_railways(game)
        return OperatingRound(
            game, self.operating_order(game), list(operating.STEP_ORDER), OPERATING_ROUND
        )

    def operating_order(self, game: Game) -> list[str]:
        """§5.1: the Local Railways in ascending order, then the floated Major Companies and
        the Major Local Railways (ruling ML6), the highest share price first (ruling M6)."""
        s = game.state
        return local_railways.operating(game) + s.market.operating_order(self.chartered(game))

    @staticmethod
    def majors(game: Game) -> list[str]:
        """The Major Companies still in the game."""
        return [sym for sym, c in game.state.corps.items() if c.kind == "major" and not c.closed]

    @staticmethod
    def chartered(game: Game) -> list[str]:
        """The companies with a share price: the floated Major Companies and the Major Local
        Railways formed."""
        kinds = {"major", major_local.KIND}
        return [
            sym
            for sym, c in game.state.corps.items()
            if c.kind in kinds and c.floated and not c.closed
        ]

    def new_share_round(self, game: Game) -> StockRound:
        """§6.1: a Share Buying Round, begun by the holder of the Priority Deal card."""
        s = game.state
        s.stock_round_no += 1
        game.log_round(f"{self.round_names['stock']} {s.stock_round_no}")
        return StockRound(game, SHARE_ROUND)

    def end_of_share_round(self, game: Game, rnd: Round) -> None:
        """§4 / §6.1: the Priority Deal card goes to the player left of the last one to buy
        (or sell); without any transaction it stays. Privates still unsold lose their bids
        (ruling F8). §6.2: every company whose shares are all in players' hands rises one
        space up-right (highest first, so the stacks keep their order); entering a split
        space splits its shares (§3.2.1). Split shares unsold are not in players' hands, so
        such a company does not rise (§7)."""
        s = game.state
        names = [p.name for p in s.players]
        if isinstance(rnd, StockRound) and rnd.last_actor is not None:
            s.priority = rnd.next_priority(game)
        elif s.stock_round_no == 1:
            last = state_of(game).last_purchaser
            assert last is not None
            s.priority = (names.index(last) + 1) % len(names)
        game.log(f"{names[s.priority]} holds the Priority Deal card")
        if isinstance(rnd, FirstShareRound):
            state_of(game).unsold_privates = list(rnd.unsold)
        for sym in s.market.operating_order(self.chartered(game)):
            holders = s.shares.holders(sym)
            if sum(pct for h, pct in holders.items() if h in names) == 100:
                entered = s.market.move(sym, "up_right")
                game.log(f"{sym} is sold out and rises to {s.market.price(sym)} G")
                self._maybe_split(game, sym, entered)

    def _maybe_split(self, game: Game, sym: str, entered: Sequence[Position]) -> None:
        """§3.2.1: a Major Company's shares split on entering a split space (ruling P1); a
        Major Local Railway's never do (ruling ML8: it has no 10% shares)."""
        if sym in self.new_shares:
            split.after_move(game, sym, entered, self.new_shares[sym])

    def pay_mountain_railways(self, game: Game) -> None:
        """§5.1 and Table 2: at the start of an Operating Round the bank pays each Mountain
        Railway's fixed income to its owner (5, 10, 15, 20, 25 G)."""
        for comp in game.state.companies.values():
            if comp.powers.get("kind") == "mountain" and comp.owner and not comp.closed:
                game.transfer("bank", comp.owner, comp.revenue)
                game.log(f"{comp.name} pays {comp.revenue} G to {comp.owner}")

    # ================================================================ private certificates
    def on_company_bought(self, game: Game, company: str, player: str) -> None:
        """§3.1 Table 2: the Arlbergbahn brings a 20% VB share, the Semmeringbahn a 20% SD
        share (from the initial offering); a Local Railway starts with its capital
        (``local_railways.start``)."""
        s = game.state
        state_of(game).last_purchaser = player
        if company in s.corps:
            local_railways.start(game, company, self.data["local_railways"]["start_cash"])
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
            # taking it is the taker's turn (ruling F9)
            rnd.give_free(game, first, taker, uses_turn=game.rules_version >= DEALS_VERSION)

    # ================================================================ shares
    def certificate_limit(self, game: Game) -> int | None:
        """The certificate limit (``share_limit``)."""
        return self.share_limit(game)

    def share_limit(self, game: Game) -> int:
        """§6.5 Table 7: by the number of players and of companies whose shares have split."""
        row: list[int] = self.data["share_limits"][str(len(game.state.players))]
        return row[len(state_of(game).split)]

    def pool_may_exceed(self, game: Game, corp: str) -> bool:
        """§6.7: the Bank Pool may contain any number of a company's ordinary shares."""
        return True

    def over_cert_limit(self, game: Game, player: str) -> bool:
        return player_certs(game, player) > self.share_limit(game)

    def sellable_corps(self, game: Game, player: str) -> list[str]:
        """§4 and §6.7: nothing is sold in the first Share Buying Round; private certificates
        never. The companies whose shares the player holds (which of them may be sold, and
        how many, is `sell_bundles`: before a company floats its Director holds the only
        certificate a player may sell, 40% + 20% floats, §6.6)."""
        s = game.state
        if s.stock_round_no <= 1:
            return []
        return [sym for sym in self.chartered(game) if s.shares.percent(player, sym)]

    def sell_bundles(self, game: Game, player: str, corp: str) -> list[tuple[int, bool]]:
        """§6.7: any number of ordinary certificates to the Bank Pool (which may hold any
        number, never the Director's certificate). §6.6.1: the Director sells below another
        player only if that player holds at least the Director's certificate's percentage;
        the certificates exchanged for it may then be sold too."""
        reg = game.state.shares
        held = reg.percent(player, corp)
        pres = next(c for c in reg.corp_certs(corp) if c.president)
        others = max(reg.percent(p.name, corp) for p in game.state.players if p.name != player)
        out: list[tuple[int, bool]] = []
        for pct in range(10, held + 1, 10):
            if reg.president[corp] == player and held - pct < others < pres.percent:
                continue
            if sale_possible(game, player, corp, pct, False, options.locked(game, player)):
                out.append((pct, False))
        return out

    def sell_shares(self, game: Game, player: str, action: SellShares) -> None:
        """§6.7: the bank pays what the shares were worth just before the sale; §6.8: then the
        marker moves one space down-left for each certificate sold, whatever its size.
        §6.6.1: a Director who sells below another holder hands the Director's certificate
        over first. §6.4.1: a share bought on option and not yet paid is not sold in its round;
        later, its seller receives only the value of the 10% paid for (ruling O3)."""
        s = game.state
        sym = action.corporation
        value = bundle_price(game, sym, action.percent)
        before = {c.cid for c in s.shares.held(POOL, sym)}
        names = [p.name for p in s.players]
        keep = options.locked(game, player)
        handover = move_sale_certs(s.shares, names, player, sym, action.percent, False, keep)
        if handover is not None:
            game.log(handover.words(self.president_word))
        sold = [c for c in s.shares.held(POOL, sym) if c.cid not in before]
        option = options.outstanding(game, player)
        if option is not None and option.cid in {c.cid for c in sold}:
            value -= s.market.price(sym)  # the unpaid 10%
            options.release(game, player)
        game.transfer("bank", player, value)
        game.log(f"{player} sells {action.percent}% of {sym} for {value} G")
        s.market.move(sym, "down_left", len(sold))

    def buy_options(self, game: Game, player: str, sold: list[str]) -> list[BuyShares]:
        """§6.4: while private certificates are for sale, nothing else; then a new share from
        the initial offering at its set price (par per 10%) once the company's Director's
        certificate is bought, or at the current price an old one from the Bank Pool or a
        new one from the Split Shares (§3.2.1); never in a company the player sold this
        round; within the share limit and, after a split, 60% of a company (§6.5)."""
        s = game.state
        if state_of(game).unsold_privates or not self.may_buy(game, player):
            return []
        cash = game.player(player).cash
        out: list[BuyShares] = []
        for sym, corp in s.corps.items():
            if not corp.parred or sym in sold:
                continue
            room = 100 - s.shares.percent(player, sym)
            if split.has_split(game, sym):
                room = split.HOLDING_CAP_AFTER_SPLIT - s.shares.percent(player, sym)
            for source in self.sources(game, sym):
                price = self.source_price(game, sym, source)
                sizes = sorted({c.percent for c in s.shares.held(self.holder(sym, source), sym)})
                out.extend(
                    BuyShares(player, sym, source, pct)
                    for pct in sizes
                    if pct <= room and price * pct // corp.share_unit <= cash
                )
        return out

    def sources(self, game: Game, sym: str) -> list[str]:
        """Where `sym`'s shares may be bought: the initial offering; once floated (only a
        floated company's shares reach the pool or split) the pool and the Split Shares."""
        return ["treasury", POOL, SPLIT] if game.state.corps[sym].floated else ["treasury"]

    @staticmethod
    def holder(sym: str, source: str) -> str:
        """The share registry's holder for a buying source."""
        return {"treasury": treasury(sym), POOL: POOL, SPLIT: split.split_holder(sym)}[source]

    def source_price(self, game: Game, sym: str, source: str) -> int:
        """§6: new shares at the set price (par); old ones and split ones at the chart's."""
        s = game.state
        return s.corps[sym].par_price if source == "treasury" else s.market.price(sym)

    def buy_shares(self, game: Game, player: str, action: BuyShares) -> None:
        """§4 / §6: the money goes to the bank, for split shares too (ruling P3); a larger
        holding than the Director's makes a new Director (§6.6.1, core
        ``update_president``)."""
        s = game.state
        sym = action.corporation
        holder = self.holder(sym, action.source)
        cert = next(c for c in s.shares.held(holder, sym) if c.percent == action.percent)
        unit = s.corps[sym].share_unit
        price = self.source_price(game, sym, action.source) * action.percent // unit
        game.transfer(player, "bank", price)
        s.shares.move(cert.cid, player)
        game.log(f"{player} buys {action.percent}% of {sym} for {price} G")
        update_president(game, sym, s.shares.president[sym])
        self._check_float(game, sym)

    def may_buy(self, game: Game, player: str) -> bool:
        """§6.5: room under the share limit; §6.4.1: no unpaid option (the rest is paid
        before anything else is bought)."""
        if options.outstanding(game, player) is not None:
            return False
        return player_certs(game, player) < self.share_limit(game)

    def other_purchases(self, game: Game, player: str) -> list[Action]:
        """§6.4 and ruling F8: a private certificate left over from the first round is bought
        at its printed price, the topmost first; no bids. §6.4.1: paying the rest of a share
        bought on option; buying a 20% share on option."""
        s = game.state
        cash = game.player(player).cash
        option = options.outstanding(game, player)
        if option is not None:
            return [PayOption(player)] if option.price <= cash else []
        if not self.may_buy(game, player):
            return []
        unsold = state_of(game).unsold_privates
        if unsold:
            top = s.companies[unsold[0]]
            return [Bid(player, top.sym, top.value)] if top.value <= cash else []
        rnd = s.round
        sold = rnd.sold_by[player] if isinstance(rnd, StockRound) else []
        out: list[Action] = []
        for sym, corp in s.corps.items():
            if not corp.parred or sym in sold:
                continue
            for source in self.sources(game, sym):  # after a split no 20% share is left
                if self.option_cert(game, sym, source) is None:
                    continue
                if self.source_price(game, sym, source) <= cash:
                    out.append(BuyOption(player, sym, source))
        return out

    def option_cert(self, game: Game, sym: str, source: str) -> str | None:
        """A 20% ordinary certificate of `sym` at `source` (§6.4.1: not the Director's)."""
        held = game.state.shares.held(self.holder(sym, source), sym)
        return next((c.cid for c in held if c.percent == 20 and not c.president), None)

    def other_purchase(self, game: Game, player: str, action: Action) -> None:
        """Apply one of `other_purchases` (validated by the round)."""
        s = game.state
        if isinstance(action, PayOption):
            option = options.outstanding(game, player)
            assert option is not None
            game.transfer(player, "bank", option.price)
            options.release(game, player)
            game.log(f"{player} pays the second 10% of {option.corp}: {option.price} G")
            return
        if isinstance(action, BuyOption):
            sym = action.corporation
            cid = self.option_cert(game, sym, action.source)
            assert cid is not None
            price = self.source_price(game, sym, action.source)
            game.transfer(player, "bank", price)
            s.shares.move(cid, player)
            options.record(game, player, cid, sym, price)
            game.log(f"{player} buys 20% of {sym} on option for {price} G")
            update_president(game, sym, s.shares.president[sym])
            self._check_float(game, sym)
            return
        if not isinstance(action, Bid):
            raise RuleError(f"{action.type} is not a purchase", SHARE_ROUND)
        unsold = state_of(game).unsold_privates
        assert unsold is not None
        unsold.remove(action.company)
        game.transfer(player, "bank", action.price)
        s.companies[action.company].owner = player
        game.log(f"{player} buys {action.company} for {action.price} G")
        self.on_company_bought(game, action.company, player)

    def par_options(self, game: Game, player: str) -> list[Par]:
        """§4, §6.4: the Director's certificate of a company not yet started, at four times a
        par price of 67, 72, 77, 82, 87 or 93 chosen by its buyer."""
        s = game.state
        if state_of(game).unsold_privates or not self.may_buy(game, player):
            return []
        cash = game.player(player).cash
        return [
            Par(player, sym, price)
            for sym in self.majors(game)
            if not s.corps[sym].parred
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

    # ================================================================ operating rounds
    def start_turn(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        """§5.2: the turn begins with the mail contract's income (§5.12). §5.5, §6.6: when a
        company operates for the first time its free station marker goes on its home
        station."""
        mail.collect(game, corp)
        s = game.state
        c = s.corps[corp]
        if c.placed or corp not in self.board.homes:  # a Major Local Railway: ruling ML5
            return
        kept = s.map.reservations.get(corp)  # the home city, where upgrades moved it (W1)
        coord, node = kept[0] if kept else self.board.homes[corp]
        s.map.place_token(corp, coord, node)
        c.placed.append((coord, node))
        game.log(f"{corp} places its home station in {game.state.map.board.place(coord)}")

    def end_turn(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        """Table 2: the Arlbergbahn and the Semmeringbahn close when VB and SD first run
        trains."""
        s = game.state
        s.corps[corp].operated += 1
        if rnd.turn.revenue is not None:
            for comp in s.companies.values():
                if comp.powers.get("closes_when_runs") == corp and not comp.closed:
                    comp.closed = True
                    game.log(f"{comp.name} closes: {corp} has run its trains")

    def move_price(self, game: Game, sym: str, direction: str) -> None:
        """§5.8, §5.11: one space in `direction` (row ends follow the arrows, ruling M3);
        the dividend's move to the right may split the shares (ruling P1; a train trade's
        move never does, ruling T4). §8: a marker reaching the Game End space ends the game
        after the current Operating Round."""
        s = game.state
        entered = s.market.move(sym, direction)
        if direction == "right":
            self._maybe_split(game, sym, entered)
        state = state_of(game)
        if s.market.cell(sym).has(ENDGAME) and not state.endgame:
            state.endgame = True
            game.log(f"{sym} reaches the Game End space: this Operating Round is the last")

    def is_plus(self, kind: str) -> bool:
        """Whether `kind` is a plus train, which only Local Railways run (§5.6, §5.9)."""
        return kind in self.plus_kinds

    def is_plus_train(self, game: Game, tid: str) -> bool:
        """Whether the train `tid` is a plus train."""
        return self.is_plus(game.state.depot.trains[tid].kind)

    def trading_allowed(self, game: Game) -> bool:
        """§5.10: trains may be traded between companies from Phase 3."""
        return "3" in game.state.phases_reached

    def bank_offers(self, game: Game) -> list[tuple[str, int]]:
        """(train, price) the bank sells now (§5.9): the next regular train, the plus trains
        of the phase (Table 5), surplus trains at full price (§5.9); the 3+ only once the
        last 2+ is sold (§5.9) and, once the last 6-train is sold, the Orient Express beside
        the 8-train (§5.6)."""
        s = game.state
        depot = s.depot
        unsold = depot.in_bank()
        trains = depot.purchasable(set(s.phases_reached))
        if any(t.kind == "2+" for t in unsold):
            trains = [t for t in trains if t.kind != "3+" or t.owner == "pool"]
        kinds = {t.kind for t in trains if t.owner is None}
        orient = next((t for t in unsold if t.kind == ORIENT_EXPRESS), None)
        if orient is not None and orient.kind not in kinds and "8" in kinds:
            trains.append(orient)
        return [(t.tid, depot.types[t.kind].price) for t in trains]

    def on_train_bought(self, game: Game, kind: str) -> None:
        """§5.10: the first train of a type may start a phase: obsolete trains leave the game
        (core ``first_purchase``); the first Orient Express starts Phase 8 as the first
        8-train would; Phase 5 closes the Mountain Railways; companies over the new train
        limit return their surplus trains to the bank (a prompt each)."""
        s = game.state
        if not first_purchase(game, kind):
            return
        if kind == ORIENT_EXPRESS and LAST_PHASE not in s.phases_reached:
            first_purchase(game, LAST_PHASE)
        if s.phases_reached[-1] == major_local.MERGERS_DUE:
            major_local.begin_fates(game)
        if s.phases_reached[-1] == MOUNTAINS_CLOSE:
            for comp in s.companies.values():
                if comp.powers.get("kind") == "mountain" and not comp.closed:
                    comp.closed = True
                    game.log(f"{comp.name} closes (Phase 5)")
        queue_discards(game, self.operating_order(game))

    def route_inputs(self, game: Game, corp: str) -> tuple[list[TrainSpec], TrackRules]:
        """The company's running trains and 1854's route rules (§5.6)."""
        return operating.train_specs(game, corp), operating.rules_for(game, corp)

    def counters(self, game: Game) -> dict[str, int]:
        """Mergers, mail contracts, splits and Orient Expresses (``tallies``)."""
        return tallies.counters(game)

    def controller(self, game: Game, entity: str) -> str | None:
        """A Local Railway is run by the holder of its private certificate (§3.1.2)."""
        if entity in game.state.corps and local_railways.is_local(game, entity):
            return local_railways.owner(game, entity)
        return super().controller(game, entity)

    # ================================================================ end & scores
    def check_end(self, game: Game, round_over: bool) -> bool:
        """§8: the bank runs out of money (the current set of Operating Rounds is played
        out; broken in a Share Buying Round, one more set); a marker on Game End (the
        current Operating Round is played out); a bankruptcy (at once, in the train step)."""
        s = game.state
        if s.finished:
            return True
        if round_over and state_of(game).endgame and isinstance(s.round, OperatingRound):
            self.finish(game, EndReason.ENDGAME)
            return True
        return self.bank_break_end(game, round_over)

    def scores(self, game: Game) -> dict[str, int]:
        """§8.1: cash (what the broken bank could not pay included) plus the shares at their
        current price; company assets do not count. A share bought on option and not paid
        for counts as 10% (ruling T9); a started company not yet floated is valued at its
        set price (ruling T9)."""
        s = game.state
        out: dict[str, int] = {}
        for p in s.players:
            value = p.cash
            option = options.outstanding(game, p.name)
            for cert in s.shares.held(p.name):
                corp = s.corps[cert.corp]
                pct = cert.percent
                if option is not None and option.cid == cert.cid:
                    pct -= 10
                if cert.corp in s.market:
                    value += bundle_price(game, cert.corp, pct)
                elif corp.parred:
                    value += corp.par_price * pct // 10
            out[p.name] = value
        return out
