"""1883 (Central Emilia): set-up, the private auction and the stock round.

The spec is ``1883-rulebook.txt``; comments cite its paragraphs. The board, market and tables
the rulebook leaves out are reconstructions (``docs/rulings/1883.md``, data in ``data/``);
where the rulebook is silent the rulings there say what tresham decided.

The operating round runs the railway corporations (``operating.py``): track, stations, runs,
dividends, trains with the compulsory purchase and bankruptcy, issuing; phases, rusting, the
privates' revenue and closing, closing corporations, and the game end (the bank, SARSA at the
top, one player left). Its parts: the Government Concessions (``concessions.py``), SARSA's
buses (``sarsa.py``), the CCFR Co-operative (``coop.py``) and port tokens (``ports.py``).
Privates bought by corporations and their powers are in ``privates.py``, the SEFTA merger in
``sefta.py``, the 2GT in ``gravity.py``, the Random Events and Political Support plays in
``events.py`` and ``air_raids.py``; runs along the FS red track are the board's long paths
priced by ``track_rules.py`` (6.7).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final

from tresham.core.actions import (
    Action,
    Bankrupt,
    BuyCompany,
    BuyShares,
    Dividend,
    Par,
    RunRoutes,
    SellShares,
    UseCompany,
)
from tresham.core.display import FactTable, MapMarker
from tresham.core.end import EndReason
from tresham.core.entities import Corporation
from tresham.core.errors import RuleError
from tresham.core.game import GameState
from tresham.core.game_spec import OptionSpec
from tresham.core.market import MarketState
from tresham.core.opening import Opening, train_types
from tresham.core.phases import first_purchase
from tresham.core.prompts import Prompt, queue_discards
from tresham.core.rounds.auction import WaterfallAuction
from tresham.core.rounds.operating import OperatingRound
from tresham.core.rounds.stock import StockRound
from tresham.core.shares import POOL, treasury
from tresham.core.stock import (
    bundle_price,
    player_certs,
    sell_to_pool,
    sellable_bundles,
    update_president,
)
from tresham.core.tiles import load_catalogue
from tresham.core.title import Title
from tresham.core.track import MapState
from tresham.core.trains import Phase
from tresham.titles.t1883 import (
    air_raids,
    concessions,
    coop,
    events,
    gravity,
    ports,
    privates,
    sefta,
)
from tresham.titles.t1883 import words as t1883_words
from tresham.titles.t1883.actions import BuyConcession, BuySupport, PlacePort
from tresham.titles.t1883.facts import (
    BOARD,
    DATA,
    GRAVITY_KINDS,
    MARKET,
    PHASE_FACTS,
    UPGRADES,
    rules_of,
)
from tresham.titles.t1883.operating import STEP_OBJECTS, STEPS, rules_for, train_specs
from tresham.titles.t1883.state import (
    Concessions,
    ConcessionStatus,
    PortTokens,
    State1883,
    Support,
    Turn1883,
    state_of,
)
from tresham.titles.t1883.versions import (
    DEALS_VERSION,
    GRAVITY_LIMIT_VERSION,
    PRUNED_SEARCH_VERSION,
)

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.core.rounds.base import Round
    from tresham.core.rules_protocols import TrackRules, TrainSpec

RULES: Final = "1883"
POOL_CAP: Final = 50
HOLDING_CAP: Final = 60
BID_FREE_AT: Final = 0
#: Corporations that cannot be started in a stock round: the co-operative (8.1) and SEFTA,
#: which only a merger forms (5.3.5).
NOT_STARTABLE: Final = ("cooperative", "merger")
#: 3.4: the privates close after the purchase of the first 5T (or the SEFTA merger).
PRIVATES_CLOSE_ON: Final = "5"
#: 10.0: the market cell whose reaching by SARSA ends the game.
SARSA_MAX: Final = "sarsa_max"
#: 5.6.2: the first 8T sold removes the unsold concessions.
CONCESSIONS_END_ON: Final = "8"
#: What a player receives with a private in the auction (3.1): a 10% share of a corporation.
SHARE_WITH_PRIVATE: Final = "share"


#: The prompt of the FSF private's buyer, who pars the FSF at once (3.1).
FSF_PAR: Final = "fsf_par"


class FsfPar(Prompt):
    """3.1: the FSF private brings the FSF president's certificate, and its buyer sets the
    par price at once, the bank paying the treasury; the private then closes."""

    kind = FSF_PAR
    rule = FSF_PAR

    def actions(self, game: Game, entity: str) -> list[Action]:
        sym: str = next(c["president"] for c in DATA["companies"] if "president" in c)
        return [Par(entity, sym, price) for price in rules_of(game).par_prices(game)]

    def process(self, game: Game, entity: str, action: Action) -> None:
        assert isinstance(action, Par)
        rules_of(game).start(game, entity, action.corporation, action.price, paid_by="bank")
        fsf = next(c for c in DATA["companies"] if "president" in c)
        game.state.companies[fsf["sym"]].closed = True
        game.log(f"The private {fsf['name']} ({fsf['sym']}) closes")

    def why(self, game: Game, entity: str) -> str:
        """3.1: the private's buyer holds the FSF president's certificate and sets its par."""
        fsf = next(c for c in DATA["companies"] if "president" in c)
        return (
            f"{entity} bought the {fsf['name']}, which brings the {fsf['president']}'s "
            f"president's certificate: {entity} sets the {fsf['president']}'s par price, the "
            "bank paying its treasury (3.1)"
        )


class Title1883(Title):
    """1883: Building Railroads in Northern Italy."""

    name = "1883"
    player_range = (2, 4)
    rules_version = GRAVITY_LIMIT_VERSION
    #: 1: the concession search from every stop (ruling R7); 2: before deals needed both
    #: sides; 3: the concession search not pruned (R7); 4: excess 2GT returned only when a
    #: new train type is first bought (R35)
    older_rules = frozenset(
        {1, concessions.ANCHORED_SEARCH_VERSION, DEALS_VERSION, PRUNED_SEARCH_VERSION}
    )
    sell_after_buy = True
    #: A search unit costs about 0.62 ms (idle, on average; twice that in the slowest
    #: twentieth of decisions): measured 2026-12-08, ``benchmarks/hard.py --calibrate``.
    search_units_per_second = 1000
    privates_count_toward_limit = True
    declared_options = (
        OptionSpec(
            "no_events",
            bool,
            False,
            '§12 "Create Your Own Destiny": no Random Events nor Political Support cards',
        ),
        OptionSpec(
            "bombs_away", bool, False, "§12: the air raids strike when the Third Era begins"
        ),
        OptionSpec(
            "mandatory_sefta",
            bool,
            False,
            "§12.1: the SEFTA merger happens after the turn that bought the first 5T",
        ),
    )

    def __init__(self) -> None:
        self.data = DATA
        self.phases = [
            Phase(p["name"], p["on"], p["train_limit"], tuple(p["tiles"]), p["operating_rounds"])
            for p in self.data["phases"]
        ]
        self.phase_facts = PHASE_FACTS
        self.market_def = MARKET
        self.board = BOARD
        self.upgrade_chart = UPGRADES

    # ================================================================ words
    def action_words(self, game: Game, action: Action, words: Any) -> str | None:
        """Concessions, support cards, loot, the SEFTA merger, buses, ports, air raids."""
        return t1883_words.action_words(self, game, action, words)

    def fact_tables(self, game: Game) -> list[FactTable]:
        """The concessions with their holders and deadlines, the support cards, the ports."""
        return t1883_words.fact_tables(self, game)

    def corporation_holds(self, game: Game, corp: str) -> list[str]:
        """Its Government Concessions (§5.6), the rounds left and the penalty (§6.12)."""
        return t1883_words.concessions_held(self, game, corp)

    def train_note(self, kind: str) -> str:
        """The 2G gravity train (6.9.5)."""
        return t1883_words.TRAIN_NOTES.get(kind, "")

    def map_markers(self, game: Game) -> list[MapMarker]:
        """Port tokens placed (6.6) and SARSA's bus tokens (8.3.1)."""
        return t1883_words.map_markers(game)

    # ================================================================ search copies
    def unknown(self, game: Game) -> object:
        """The event deck's undrawn cards, in order (2.3 d, 7.1); the dice and ties to come
        are drawn from the generator too, so this is never None."""
        return events.undrawn(game)

    def hide_unknown(self, game: Game, rng: random.Random) -> None:
        """The event deck's undrawn cards are drawn in a new order in a search copy."""
        events.shuffle_undrawn(game, rng)

    # ================================================================ standing limits
    def restore_limits(self, game: Game) -> None:
        """6.9.5: "The number of 2GT owned by a Corporation cannot exceed the total number of
        2T, 3T, and 3bisT it owns ... Excess 2GT are returned to the bank": whenever they
        become excess (ruling R35; before `GRAVITY_LIMIT_VERSION`, only at a new train type's
        first purchase)."""
        if game.rules_version >= GRAVITY_LIMIT_VERSION:
            gravity.return_excess(game)

    def limit_violations(self, game: Game) -> list[str]:
        """6.9.5: no corporation holds more 2GT than 2T, 3T and 3bisT."""
        if game.rules_version < GRAVITY_LIMIT_VERSION:
            return []
        return [
            f"{sym} holds {len(gravity.excess(game, sym))} 2GT beyond its 2T, 3T and 3bisT"
            for sym in game.state.corps
            if gravity.excess(game, sym)
        ]

    # ================================================================ deals
    def deals_need_consent(self, game: Game) -> bool:
        """§6.9.2 "at any price agreed between the two Corporations' Presidents"; §3.3 and §6.11
        "at a mutually agreed price between half to double face value"."""
        return game.rules_version >= DEALS_VERSION

    # ================================================================ set-up
    def setup(self, game: Game) -> GameState:
        """Bank L.11,000 less the players' money (2.2.1); each player also starts with a 10%
        CCFR Co-operative share and one Political Support card (2.2.1, 8.1.1); the CCFR's
        token stands on its nominal L.100 (8.1.1); the other corporations wait in their
        initial offerings (2.3 b); the privates go to auction (3.2)."""
        d = self.data
        n = len(game.player_names)
        opening = Opening(game, d)
        # SEFTA enters play only through the merger (8.4)
        opening.charter(c for c in d["corporations"] if c["kind"] != "merger")
        first_phase = self.phases[0].name
        state = opening.state(
            market=MarketState(self.market_def),
            map_state=MapState(
                self.board, load_catalogue(), {k: int(v) for k, v in d["tiles"].items()}
            ),
            # 2.4: the 2GT wait on a space of their own, for sale beside the others
            trains=train_types(
                d["trains"],
                game.options,
                available_on=lambda t: first_phase if t.get("gravity") else None,
            ),
        )
        corps, players = state.corps, state.players
        coop_sym = next(sym for sym, c in corps.items() if c.kind == "cooperative")
        for i, p in enumerate(players, start=1):
            state.shares.move(f"{coop_sym}_{i}", p.name)
        state.market.place(coop_sym, self.market_def.cells_with("ccfr_start")[0].pos)
        corps[coop_sym].parred = corps[coop_sym].floated = True
        coop_facts = next(c for c in d["corporations"] if c["sym"] == coop_sym)
        corps[coop_sym].par_price = int(coop_facts["nominal_value"])
        support = d["political_support"]
        start = support["start_per_player"] if events.enabled(game) else 0  # 12.3
        state.title_state = State1883(
            support=Support(
                held={p.name: start for p in players},
                supply=support["cards"] - start * n if events.enabled(game) else 0,
            ),
            concessions=Concessions(
                {str(c["number"]): ConcessionStatus() for c in d["concessions"]}
            ),
            coop=coop_sym,
            ports={
                c["sym"]: PortTokens(
                    c["port_tokens"],
                    second_waits=c["port_tokens"] > 1,  # 6.6: FSF's second from phase 3
                )
                for c in d["corporations"]
                if c.get("port_tokens")
            },
            events=events.new_state(game, state.rng),
        )
        for coord, node in BOARD.home_cities[coop_sym]:  # 8.1.1: active from the start
            state.map.place_token(coop_sym, coord, node)
            corps[coop_sym].placed.append((coord, node))
        for kind in coop_facts["start_trains"]:  # 8.1.5
            train = next(t for t in state.depot.in_bank() if t.kind == kind)
            train.owner = coop_sym
            corps[coop_sym].trains.append(train.tid)
        return state

    # ================================================================ sequence
    step_objects = STEP_OBJECTS
    turn_record = Turn1883
    prompts = {
        p.kind: p
        for p in (
            FsfPar(),
            *events.PROMPTS,
            *air_raids.PROMPTS,
            *concessions.PROMPTS,
            *sefta.PROMPTS,
        )
    }
    anytime_types = frozenset({PlacePort.type, BuyCompany.type})

    def anytime_actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        """6.3: at any time of its turn a corporation may place a port token (6.6) and buy
        privates (6.11; the lowest and highest offers stand for the range)."""
        return [*ports.options(game, corp), *privates.options(game, corp)]

    def anytime_validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        """Any price in the range buys a private (6.11); a port token only where listed."""
        if isinstance(action, BuyCompany):
            privates.check(game, corp, action)
        else:
            super().anytime_validate(game, rnd, corp, action)

    def anytime_process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        if isinstance(action, BuyCompany):
            privates.buy(game, corp, action)
            return
        assert isinstance(action, PlacePort)
        ports.place(game, corp, action)

    def next_round(self, game: Game) -> Round:
        """Phase 1: the private auction; then a stock round and a set of 1 to 3 operating
        rounds, as many as the phase says when the set begins (4.0)."""
        s = game.state
        rnd = s.round
        if rnd is None:
            return WaterfallAuction(game, list(s.companies), f"{RULES} §3.2")
        if isinstance(rnd, WaterfallAuction):
            s.priority = s.players.index(game.player(rnd.order[rnd.pointer]))
            return self._new_stock_round(game)
        if isinstance(rnd, StockRound):
            s.priority = rnd.next_priority(game)
            self.end_of_stock_round(game)
            if self.nothing_can_happen(game):
                self.finish(game, EndReason.NO_PLAY)
                return rnd
            self.begin_operating_set(game)
            return self._new_operating_round(game)
        assert isinstance(rnd, OperatingRound)
        st = state_of(game)
        if not st.or_settled:  # 6.0 step 4, once, before any prompt it raises
            st.or_settled = True
            events.end_of_operating_round(game, rnd.done)
            concessions.end_of_operating_round(game)
            coop.rotate(game)
            if s.pending or s.finished:
                return rnd  # the penalties' sales (6.9.6) come first
        st.or_settled = False
        if s.or_in_set < s.ors_in_set:
            return self._new_operating_round(game)
        return self._new_stock_round(game)

    def nothing_can_happen(self, game: Game) -> bool:
        """Ruling R18: no corporation (nor an unfrozen Co-operative) runs, no private pays anyone,
        and no player can afford a president's certificate at the lowest par: nothing can
        ever change again, so the game ends."""
        s = game.state
        if any(
            c.floated and not c.closed and not (c.kind == "cooperative" and coop.frozen(game))
            for c in s.corps.values()
        ):
            return False
        if any(c.owner and not c.closed and c.revenue for c in s.companies.values()):
            return False
        cheapest = 2 * min(self.par_prices(game))
        return all(p.bankrupt or p.cash < cheapest for p in s.players)

    def _new_operating_round(self, game: Game) -> OperatingRound:
        """6.0: the privates pay, a Random Event is drawn (7.0), then the railway
        corporations operate from the highest share price down (6.0, 4.2.1)."""
        s = game.state
        s.or_in_set += 1
        s.operating_round_no += 1
        game.log_round(f"Operating round {s.stock_round_no}.{s.or_in_set}")
        self.pay_private_revenue(game)
        events.begin_operating_round(game)
        floated = [
            c
            for c, corp in s.corps.items()
            if (corp.floated and not corp.closed and corp.kind in ("railway", "bus"))
            or (corp.kind == "cooperative" and not coop.frozen(game))
        ]
        order = s.market.operating_order(floated)
        return OperatingRound(game, order, list(STEPS), f"{RULES} §6")

    def end_turn(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        """A completed turn counts as having operated; after the turn that bought the first
        5T, variant 12.1's merger, then the Co-operative's capitalisation (8.2)."""
        s = game.state
        c = s.corps[corp]
        if not c.closed:
            c.operated += 1
        st = state_of(game)
        if st.sefta.due:
            st.sefta.due = False
            sefta.mandatory(game, rnd)
            coop.on_first_purchase(game, PRIVATES_CLOSE_ON)

    def _new_stock_round(self, game: Game) -> StockRound:
        s = game.state
        s.stock_round_no += 1
        state_of(game).concessions.bought_this_sr = []
        events.begin_stock_round(game)
        game.log_round(f"Stock round {s.stock_round_no}")
        return StockRound(game, f"{RULES} §5")

    def end_of_stock_round(self, game: Game) -> None:
        """5.7.2: every corporation whose shares are all in players' hands moves up a row, in
        stock price order; after the first SR, the CCFR's first president (8.1.2)."""
        s = game.state
        live = [c for c, corp in s.corps.items() if corp.floated and not corp.closed]
        for sym in s.market.operating_order(live):
            held = sum(pct for h, pct in s.shares.holders(sym).items() if h not in self._banks(sym))
            if held == 100:
                s.market.move(sym, "up")
        if s.stock_round_no == 1:
            self._first_coop_president(game)

    @staticmethod
    def _banks(sym: str) -> tuple[str, str]:
        return (treasury(sym), POOL)

    def _first_coop_president(self, game: Game) -> None:
        """8.1.2: most railway presidencies; then most certificates (privates count); then
        most money; then a die roll (the game's generator)."""
        s = game.state
        holders = coop.holders(game)
        if not holders:
            return

        def key(name: str) -> tuple[int, int, int]:
            presidencies = sum(
                1
                for sym, corp in s.corps.items()
                if corp.kind == "railway" and s.shares.president.get(sym) == name
            )
            return (presidencies, player_certs(game, name), game.player(name).cash)

        best = max(key(n) for n in holders)
        tied = [n for n in holders if key(n) == best]
        chosen = tied[0] if len(tied) == 1 else s.rng.permutation(tied)[0]
        coop.set_president(game, chosen)
        game.log(f"{chosen} is the first president of the {state_of(game).coop} Co-operative")

    # ================================================================ auction hooks
    def on_company_bought(self, game: Game, company: str, player: str) -> None:
        """3.1: TMM brings a 10% FMV share, FCV a 10% FBV share; FSF brings the FSF
        president's certificate, and its buyer sets the par price at once."""
        facts = next(c for c in self.data["companies"] if c["sym"] == company)
        s = game.state
        if SHARE_WITH_PRIVATE in facts:
            sym = facts[SHARE_WITH_PRIVATE]
            cert = next(
                c for c in s.shares.held(treasury(sym), sym) if not c.president and c.percent == 10
            )
            s.shares.move(cert.cid, player)
            game.log(f"{player} receives a 10% share of {sym} with {company}")
        if "president" in facts:
            s.pending.append((FSF_PAR, player))

    def on_auction_all_passed(self, game: Game, rnd: WaterfallAuction) -> None:
        """3.2.2: a full round of passes suspends the auction and the owned privates pay; the
        TCB (P1), if unsold, comes back L.5 cheaper, and at L.0 the player with the priority
        receives it free."""
        self.pay_private_revenue(game)
        cheapest: str = self.data["companies"][0]["sym"]
        if rnd.unsold and rnd.unsold[0] == cheapest:
            first = cheapest
            rnd.discount[first] += 5
            price = rnd.price(game, first)
            game.log(f"{first} now costs L.{price}")
            if price <= BID_FREE_AT:
                taker = rnd.order[(rnd.pointer + 1) % len(rnd.order)]
                game.log(f"{taker} receives {first} free")
                # "... and the auction will go on with the player to their left"
                rnd.give_free(game, first, taker, uses_turn=game.rules_version >= DEALS_VERSION)

    def pay_private_revenue(self, game: Game) -> None:
        """6.1 / 3.2.2: every owned private pays its revenue to its owner."""
        for comp in game.state.companies.values():
            if comp.owner is not None and not comp.closed and comp.revenue:
                game.transfer("bank", comp.owner, comp.revenue)

    # ================================================================ prompts
    # ================================================================ stock round
    def certificate_limit(self, game: Game) -> int | None:
        """The certificate limit (``cert_limit``); None once one player is left (5.4's table
        starts at two)."""
        try:
            return self.cert_limit(game)
        except KeyError:
            return None

    def cert_limit(self, game: Game) -> int:
        """5.4: by player count and whether SEFTA is in play."""
        key = "7_corporations" if "SEFTA" in game.state.corps else "8_corporations"
        active = sum(1 for p in game.state.players if not p.bankrupt)
        limit: int = self.data["cert_limit"][key][str(active)]
        return limit

    def over_cert_limit(self, game: Game, player: str) -> bool:
        return player_certs(game, player) > self.cert_limit(game)

    def _tradeable(self, corp: Corporation) -> bool:
        """Shares of the co-operative are neither bought nor sold before capitalisation
        (8.1.3); everything else that has started is traded."""
        return corp.parred and not corp.closed and corp.kind != "cooperative"

    def sellable_corps(self, game: Game, player: str) -> list[str]:
        """5.2: no selling in the first stock round."""
        s = game.state
        if s.stock_round_no <= 1:
            return []
        return [
            sym
            for sym, corp in s.corps.items()
            if self._tradeable(corp) and s.shares.percent(player, sym)
        ]

    def sell_bundles(self, game: Game, player: str, corp: str) -> list[tuple[int, bool]]:
        """5.2: at most 50% in the pool; the president's certificate never goes there, and a
        president sells down only if another player holds two 10% shares to exchange."""
        return sellable_bundles(game, player, corp, POOL_CAP)

    def sell_shares(self, game: Game, player: str, action: SellShares) -> None:
        """5.2: the bank pays the market price per share; the token drops a row per share
        sold, staying at the bottom of its column."""
        sym = action.corporation
        sell_to_pool(game, player, sym, action.percent, action.last)
        game.log(f"{player} sells {action.percent}% of {sym}")
        self.move_price(game, sym, "down", action.percent // 10)

    def buy_options(self, game: Game, player: str, sold: list[str]) -> list[BuyShares]:
        """5.3: one share from the initial offering at par (to the treasury) or from the pool
        at market (to the bank); within the certificate limit and 60%; not in a corporation
        sold this round."""
        s = game.state
        if player_certs(game, player) >= self.cert_limit(game):
            return []
        cash = game.player(player).cash
        out: list[BuyShares] = []
        for sym, corp in s.corps.items():
            if not self._tradeable(corp) or sym in sold:
                continue
            if s.shares.percent(player, sym) + 10 > HOLDING_CAP:
                continue
            for source, holder, price in (
                ("treasury", treasury(sym), corp.par_price),
                ("pool", POOL, s.market.price(sym)),
            ):
                has = any(c.percent == 10 for c in s.shares.held(holder, sym) if not c.president)
                if has and price <= cash and self._sarsa_buy_ok(game, player, sym):
                    out.append(BuyShares(player, sym, source, 10))
        return out

    def buy_shares(self, game: Game, player: str, action: BuyShares) -> None:
        s = game.state
        sym = action.corporation
        holder = treasury(sym) if action.source == "treasury" else POOL
        cert = next(c for c in s.shares.held(holder, sym) if c.percent == 10)
        if action.source == "treasury":
            price, payee = s.corps[sym].par_price, sym
        else:
            price, payee = bundle_price(game, sym, 10), "bank"
        game.transfer(player, payee, price)
        s.shares.move(cert.cid, player)
        game.log(f"{player} buys 10% of {sym} from the {action.source} for L.{price}")
        update_president(game, sym, s.shares.president[sym])

    def par_prices(self, game: Game) -> list[int]:
        """5.3.3: 65, 85 or 100; 110 from phase 3; 150 from phase 5 (the par chart)."""
        reached = set(game.state.phases_reached)
        return sorted(
            int(price)
            for price, phase in self.data["par_chart"]["from_phase"].items()
            if phase in reached
        )

    def par_options(self, game: Game, player: str) -> list[Par]:
        """5.3.3: buying a corporation's president's certificate from the initial offering
        floats it at a par price its buyer chooses."""
        s = game.state
        if player_certs(game, player) >= self.cert_limit(game):
            return []
        cash = game.player(player).cash
        out: list[Par] = []
        for sym, corp in s.corps.items():
            if corp.parred or corp.closed or corp.kind in NOT_STARTABLE:
                continue
            if not self._sarsa_buy_ok(game, player, sym, percent=20):
                continue
            out.extend(Par(player, sym, p) for p in self.par_prices(game) if 2 * p <= cash)
        return out

    def par(self, game: Game, player: str, action: Par) -> None:
        self.start(game, player, action.corporation, action.price, paid_by=player)

    def start(self, game: Game, player: str, sym: str, price: int, paid_by: str) -> None:
        """5.3.3-5.3.4: the president's certificate for 2 x par into the treasury; the
        tokens go on the par chart and the market's par box of that price; the home
        stations go down. FMV and FBV also receive par for each share the TMM and FCV
        buyers received."""
        s = game.state
        corp = s.corps[sym]
        pres = next(c for c in s.shares.corp_certs(sym) if c.president)
        game.transfer(paid_by, sym, 2 * price)
        s.shares.move(pres.cid, player)
        s.shares.president[sym] = player
        cell = next(c for c in self.market_def.cells_with("par") if c.price == price)
        s.market.place(sym, cell.pos)
        corp.parred = corp.floated = True
        corp.par_price = price
        st = state_of(game)
        st.started_in_sr[sym] = s.stock_round_no
        if sym == privates.TRADE_FOR:
            owed, st.sv_par_owed = st.sv_par_owed, 0
            if owed:
                game.transfer("bank", sym, owed * price)  # 3.4.1: the CNP's share, paid now
        for comp in self.data["companies"]:
            if comp.get(SHARE_WITH_PRIVATE) == sym:
                bonus = sum(
                    price
                    for c in s.shares.corp_certs(sym)
                    if not c.president and s.shares.holder[c.cid] not in self._banks(sym)
                )
                if bonus:
                    game.transfer("bank", sym, bonus)
                    game.log(f"{sym} receives L.{bonus} for the share given with {comp['sym']}")
        if corp.kind != "bus":  # SARSA's homes take bus tokens in its first OR (8.3.1)
            for coord, node in BOARD.home_cities.get(sym, ()):
                if s.map.has_token(sym, coord, node):
                    continue  # a frozen Co-operative's stations stay on the map (8.2.2)
                s.map.place_token(sym, coord, node, beyond_slots=True)  # R29: after a bombing
                corp.placed.append((coord, node))
        game.log(f"{player} floats {sym} at L.{price}")

    # ---------------------------------------------------------------- other purchases
    def support_cost(self, game: Game, player: str) -> int | None:
        """5.5: the cost of a player's next Political Support card (None at nine)."""
        owned = state_of(game).support.held[player]
        costs: list[int] = self.data["political_support"]["cost_by_owned"]
        return costs[owned] if owned < len(costs) else None

    def other_purchases(self, game: Game, player: str) -> list[Action]:
        """5.1 options 3 and 4: a Political Support card (5.5), or a Government Concession
        for a corporation the player presides that floated in an earlier stock round (5.6)."""
        s = game.state
        st = state_of(game)
        out: list[Action] = []
        cost = self.support_cost(game, player)
        if (
            events.enabled(game)
            and cost is not None
            and cost <= game.player(player).cash
            and st.support.supply
        ):
            out.append(BuySupport(player))
        out.extend(privates.trade_options(game, player))
        for sym, corp in s.corps.items():
            if s.shares.president.get(sym) != player or corp.kind != "railway" or corp.closed:
                continue
            if st.started_in_sr.get(sym, s.stock_round_no) >= s.stock_round_no:
                continue
            if sym in st.concessions.bought_this_sr:
                continue
            for c in self.data["concessions"]:
                status = st.concessions.status[str(c["number"])]
                if status.owner is None and not status.removed and c["cost"] <= corp.cash:
                    out.append(BuyConcession(player, sym, int(c["number"])))
        return out

    def other_purchase(self, game: Game, player: str, action: Action) -> None:
        st = state_of(game)
        if isinstance(action, UseCompany):
            privates.trade_in(game, player)
            return
        if isinstance(action, BuySupport):
            cost = self.support_cost(game, player)
            assert cost is not None
            game.transfer(player, "bank", cost)
            st.support.held[player] += 1
            st.support.supply -= 1
            game.log(f"{player} buys a Political Support card for L.{cost}")
            return
        assert isinstance(action, BuyConcession)
        facts = next(c for c in self.data["concessions"] if c["number"] == action.concession)
        game.transfer(action.corporation, "bank", facts["cost"])
        status = st.concessions.status[str(action.concession)]
        status.owner = action.corporation
        status.due = facts["due_ors"]
        st.concessions.bought_this_sr.append(action.corporation)
        game.log(
            f"{action.corporation} buys Government Concession {action.concession} "
            f"for L.{facts['cost']}"
        )

    # ---------------------------------------------------------------- SARSA's 1:2 rule
    def sarsa_allowance(self, game: Game, player: str) -> int:
        """8.3.3: a player may hold SARSA shares up to half their railway shares (in 10%
        steps, rounded down); the co-operative's share does not count."""
        s = game.state
        railway = sum(
            s.shares.percent(player, sym) for sym, c in s.corps.items() if c.kind == "railway"
        )
        return railway // 2 // 10 * 10

    def _sarsa(self, game: Game) -> str | None:
        return next((sym for sym, c in game.state.corps.items() if c.kind == "bus"), None)

    def _sarsa_buy_ok(self, game: Game, player: str, sym: str, percent: int = 10) -> bool:
        """8.3.3 allows breaking the 1:2 rate during the round, as long as it is restored
        before passing; where the player could not sell SARSA again this round (the first
        stock round), a purchase beyond the rate is refused (ruling R1)."""
        if sym != self._sarsa(game) or game.state.stock_round_no > 1:
            return True
        held = game.state.shares.percent(player, sym)
        return held + percent <= self.sarsa_allowance(game, player)

    def pool_may_exceed(self, game: Game, corp: str) -> bool:
        """6.9.6: a bankrupt player's shares go to the pool even past 50%."""
        return corp in state_of(game).pool_over_limit

    def pass_problem(self, game: Game, player: str) -> RuleError | None:
        """8.3.3: a player cannot pass while holding more SARSA than the 1:2 rate allows, as
        long as they can sell SARSA to restore it (ruling R2)."""
        sym = self._sarsa(game)
        if sym is None:
            return None
        held = game.state.shares.percent(player, sym)
        allowed = self.sarsa_allowance(game, player)
        if held <= allowed or sym not in self.sellable_corps(game, player):
            return None
        if not self.sell_bundles(game, player, sym):
            return None
        return RuleError(
            f"{player} holds {held}% of {sym} but may hold {allowed}% (half their railway "
            "shares): sell SARSA or buy railway shares before passing",
            f"{RULES} §8.3.3",
        )

    # ================================================================ operating hooks
    def route_inputs(self, game: Game, corp: str) -> tuple[list[TrainSpec], TrackRules]:
        """6.8: the corporation's trains (2GT aside, 6.9.5) and 1883's route rules."""
        return train_specs(game, corp), rules_for(game, corp)

    def move_price(self, game: Game, sym: str, direction: str, steps: int = 1) -> None:
        """Move a share price; a corporation entering the Closed section closes (5.8);
        SARSA reaching the table's maximum ends the game at once (10.0)."""
        s = game.state
        s.market.move(sym, direction, steps)
        zones = s.market.zones_of(sym)
        if "close" in zones:
            self.close_corporation(game, sym)
        elif SARSA_MAX in zones and s.corps[sym].kind == "bus":
            self.finish(game, EndReason.STOCK_MARKET)

    def on_train_bought(self, game: Game, kind: str) -> None:
        """4.0 / 9.0: the first train of a type starts its phase and rusts older trains; the
        first 5T closes the privates (3.4); corporations over the new limit discard to the
        pool (6.9.4)."""
        s = game.state
        if not first_purchase(game, kind):
            return
        if kind == PRIVATES_CLOSE_ON and game.options.get("mandatory_sefta"):
            state_of(game).sefta.due = True  # 12.1: the merger first, after this turn
        else:
            coop.on_first_purchase(game, kind)
        events.on_first_purchase(game, kind)
        if kind == CONCESSIONS_END_ON:
            concessions.remove_unsold(game)
        if kind == PRIVATES_CLOSE_ON and not all(c.closed for c in s.companies.values()):
            privates.close_all(game)
        if game.rules_version < GRAVITY_LIMIT_VERSION:
            gravity.return_excess(game)  # since then `restore_limits` returns them (R35)
        live = [c for c in s.corps if s.corps[c].floated and c in s.market]
        queue_discards(game, s.market.operating_order(live))

    #: 6.9.4: a train over the limit goes to the pool.
    discard_log = "{corp} puts its {train} train in the pool (6.9.4)"

    def counts_toward_limit(self, game: Game, tid: str) -> bool:
        """6.9.5: 2GT do not count toward the train limit (nor are they discarded)."""
        return game.state.depot.trains[tid].kind not in GRAVITY_KINDS

    def trains_toward_limit(self, game: Game, corp: str) -> int:
        """6.9.5: 2GT do not count toward the train limit."""
        return len(train_specs(game, corp))

    def close_corporation(self, game: Game, sym: str) -> None:
        """5.8: its money goes to the bank and its concessions to the pool; its stations
        leave the map, its trains go to the pool, its privates close; its shares go back to
        the initial offering without compensation; it may float again in the next SR."""
        s = game.state
        corp = s.corps[sym]
        game.log(f"{sym} closes")
        game.transfer(sym, "bank", corp.cash)
        for tid in list(corp.trains):
            s.depot.trains[tid].owner = POOL
        corp.trains.clear()
        s.map.remove_all_tokens(sym)
        for c in s.companies.values():
            if c.owner == sym and not c.closed:
                if c.sym == privates.TRADE and sym != privates.TRADE_FOR:
                    privates.cnp_share_to_pool(game)  # 5.8
                c.closed = True
        st = state_of(game)
        if corp.kind == "bus":
            st.bus_tokens = {}  # 5.8: its bus tokens leave the board
        st.ports.pop(sym, None)  # 5.8: its port tokens leave play for good
        for status in st.concessions.status.values():
            if status.owner == sym:
                status.owner = None
                status.due = None
        for cert in s.shares.corp_certs(sym):
            s.shares.move(cert.cid, treasury(sym))
        s.shares.president[sym] = None
        s.market.remove(sym)
        s.corps[sym] = Corporation(
            sym, corp.name, kind=corp.kind, tokens=corp.tokens, home=corp.home
        )
        for coord, node in BOARD.home_cities.get(sym, ()):
            s.map.reserve(sym, coord, node)
        rnd = s.round
        if isinstance(rnd, OperatingRound) and not rnd.finished(game) and rnd.corp() == sym:
            rnd.end_turn_now()

    def counters(self, game: Game) -> dict[str, int]:
        """What a simulation summary counts: SARSA floated, the Co-operative capitalised,
        events drawn, concessions fulfilled, SEFTA mergers."""
        s = game.state
        st = state_of(game)
        sarsa = self._sarsa(game)
        return {
            "sarsa_floated": int(sarsa is not None and s.corps[sarsa].floated),
            "coop_capitalised": int(s.corps[st.coop].kind != "cooperative"),
            "events_drawn": events.events_drawn(game),
            "concessions_fulfilled": st.concessions.fulfilled,
            "mergers": st.sefta.mergers,
        }

    def cash_aside(self, game: Game) -> int:
        """11.2 #18, 11.3 #31: money the events took from the bank."""
        return events.cash_aside(game)

    def why_closes(self, game: Game, action: Action, corp: str) -> str:
        """5.8: the stock price enters the "Closed" section, or the president goes bankrupt;
        8.4: FMV and FSMMF leave the game when they merge into SEFTA."""
        if isinstance(action, Bankrupt):
            return "its president goes bankrupt (5.8)"
        if isinstance(action, SellShares | Dividend | RunRoutes):
            return 'its share price enters the "Closed" section (5.8)'
        if corp in sefta.facts(game)["merger_of"]:
            return f"it merges into {sefta.facts(game)['sym']} (8.4)"
        return ""

    def bankrupt(self, game: Game, player: str, corp: str | None) -> None:
        """6.9.6: a player who cannot raise the money goes bankrupt and leaves the game:
        the corporation needing it (if any) closes; every share the player holds goes to
        the pool, even past 50%; a corporation the player presided passes to the largest
        other holder with 20% or more, or closes. Among equal largest holders the one
        closest to the bankrupt player's left takes it (5.3.6, ruling R5); before
        `DEALS_VERSION`, the first in seat order."""
        s = game.state
        game.transfer(player, "bank", game.player(player).cash)
        if corp is not None:
            self.close_corporation(game, corp)
        p = game.player(player)
        p.bankrupt = True
        game.log(f"{player} goes bankrupt")
        presided = [sym for sym, pres in s.shares.president.items() if pres == player]
        for cert in s.shares.held(player):
            s.shares.move(cert.cid, POOL)
            if cert.corp not in state_of(game).pool_over_limit:
                state_of(game).pool_over_limit.append(cert.corp)
        for sym in presided:
            others = {q.name: s.shares.percent(q.name, sym) for q in s.players if not q.bankrupt}
            best = max(others.values(), default=0)
            if best < 20:
                s.shares.president[sym] = None
                self.close_corporation(game, sym)
                continue
            new = next(n for n in self._presidency_order(game, player, others) if others[n] == best)
            pres_cert = next(c for c in s.shares.corp_certs(sym) if c.president)
            tens = [c for c in s.shares.held(new, sym) if c.percent == 10][:2]
            for c in tens:
                s.shares.move(c.cid, POOL)
            s.shares.move(pres_cert.cid, new)
            s.shares.president[sym] = new
            game.log(f"{new} becomes president of {sym}")
        for comp in s.companies.values():
            if comp.owner == player:
                comp.closed = True
        if sum(1 for q in s.players if not q.bankrupt) <= 1:
            self.finish(game, EndReason.BANKRUPT)

    def _presidency_order(self, game: Game, old: str, candidates: dict[str, int]) -> list[str]:
        """The order in which `candidates` take a presidency `old` loses on a tie: from the
        seat to `old`'s left round the table (5.3.6, ruling R5); before `DEALS_VERSION`,
        seat order from the first seat."""
        names = [p.name for p in game.state.players]
        if game.rules_version >= DEALS_VERSION:
            start = names.index(old) + 1
            names = names[start:] + names[:start]
        return [n for n in names if n in candidates]

    def check_end(self, game: Game, round_over: bool) -> bool:
        """10.0: the bank breaks: in a stock round, one more complete set of operating
        rounds; in an operating round, the current set is completed."""
        return self.bank_break_end(game, round_over)

    # ================================================================ scores
    def raw_scores(self, game: Game) -> dict[str, int]:
        """1.2 / 10.0: personal money plus every share at market value."""
        s = game.state
        out: dict[str, int] = {}
        for p in s.players:
            value = p.cash
            for cert in s.shares.held(p.name):
                if cert.corp in s.market:
                    value += bundle_price(game, cert.corp, cert.percent)
            out[p.name] = value
        return out

    def scores(self, game: Game) -> dict[str, int]:
        return self.raw_scores(game)
