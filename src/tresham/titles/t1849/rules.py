"""1849: The Game of Sicilian Railways — the title's rules.

The spec is the rules summary (`1849-summary.txt`); where it is silent, the behaviour of the
18xx.games implementation is followed; rulings are in `docs/rulings/1849.md`. Comments cite
the summary's sections as "1849 §<section>".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from tresham.core.actions import (
    Action,
    Bankrupt,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Choose,
    Par,
    Pass,
    PlaceToken,
    SellShares,
)
from tresham.core.end import EndReason
from tresham.core.entities import Corporation
from tresham.core.errors import RuleError
from tresham.core.game import GameState
from tresham.core.game_spec import OptionSpec
from tresham.core.market import Market, MarketState
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
    treasury_certs,
    update_president,
)
from tresham.core.title import Title, title_data
from tresham.core.trains import Phase
from tresham.titles.t1849 import map_glue, rule_set, stale_graph, token_objects, variants
from tresham.titles.t1849.closing_sale import closing_sweep
from tresham.titles.t1849.facts import rules_of
from tresham.titles.t1849.market_rules import Movement1849
from tresham.titles.t1849.rule_set import (
    RULE_SETS,
    SITE_TURN_LIMIT,
    operating_steps,
    site_engine,
    site_fifth_round,
    site_fourth_round,
    site_proven,
    site_rules,
    site_seventh_round,
    site_sixth_round,
)
from tresham.titles.t1849.state import State1849, Turn1849, state_of
from tresham.titles.t1849.steps import (
    LOAN_PROMPT,
    STEP_OBJECTS,
    anytime_actions,
    process_anytime,
)
from tresham.titles.t1849.variant_steps import (
    VARIANT_STEPS,
    Debt,
)
from tresham.titles.t1849.variant_steps import action_words as variant_action_words
from tresham.titles.t1849.versions import DEALS_VERSION, SITE_SEVENTH_VERSION

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.core.rounds.base import Round
    from tresham.core.rules_protocols import TrackRules, TrainSpec

SUMMARY = "1849"
AFG_HOMES = ("C1", "H8", "M9", "M11", "B14")
LOAN = 500
LOAN_PENALTY = 750
POOL_CAP = 50
HOLDING_CAP = 60
END_PRICE_TAG = "endgame"


def _data() -> dict[str, Any]:
    return title_data("tresham.titles.t1849")


# The outgoing president's answers to the certificate-swap prompt (ruling R23; the site's words).
SWAP_ONE_20: Final = "One 20% cert"
SWAP_TWO_10: Final = "Two 10% certs"


#: Prompts: RSA's corporation's par (1849 §Privates), the presidency swap's answer (ruling
#: R23); a president's loan or leaving is ``steps.LOAN_PROMPT``.
RSA_PAR: Final = "rsa_par"
SWAP: Final = "swap"
#: Ruling S30: AFG places its home token again, in a city it chooses.
HOME_AGAIN: Final = "home_again"


class RsaPar(Prompt):
    """RSA's owner pars the corporation RSA comes with, at any par price open, and sets AFG's
    home where that corporation is AFG without one; the treasury is paid by the bank
    (1849 §Privates)."""

    kind = RSA_PAR
    rule = RSA_PAR

    def actions(self, game: Game, entity: str) -> list[Action]:
        sym = state_of(game).rsa_corp
        assert sym is not None, "RSA's corporation closed before it started"
        homes: list[str | None] = [None]
        if game.state.corps[sym].home is None:
            homes = [h for h in AFG_HOMES if map_glue.home_slot_free(game.state.map, h)]
        return [Par(entity, sym, p, h) for p in rules_of(game).par_prices(game) for h in homes]

    def process(self, game: Game, entity: str, action: Action) -> None:
        assert isinstance(action, Par)
        rules_of(game).start_corporation(
            game, entity, action.corporation, action.price, action.home, pay=False
        )

    def why(self, game: Game, entity: str) -> str:
        """§Privates P5: RSA's owner holds the first corporation's president's certificate."""
        sym = state_of(game).rsa_corp
        if sym is None:
            return ""
        home = " and its home" if game.state.corps[sym].home is None else ""
        return (
            f"{entity} owns the Reale Società d'Affari, which comes with {sym}'s president's "
            f"certificate: {entity} chooses {sym}'s par price{home}, the bank paying its "
            "treasury (§Privates)"
        )


class Loan(Prompt):
    """A president left with no stock takes a loan or leaves the game (1849 §Trouble)."""

    kind = LOAN_PROMPT
    rule = LOAN_PROMPT

    def actions(self, game: Game, entity: str) -> list[Action]:
        return [Choose(entity, "loan"), Choose(entity, "leave")]

    def process(self, game: Game, entity: str, action: Action) -> None:
        assert isinstance(action, Choose)
        p = game.player(entity)
        if action.choice == "loan":
            game.transfer("bank", entity, LOAN)
            p.loans += 1
            game.log(f"{entity} takes a L.{LOAN} loan")
        else:
            rules_of(game).leave(game, entity)

    def why(self, game: Game, entity: str) -> str:
        """§Trouble: "A president left with no stock quits on L. 0, or takes a L. 500 loan
        costing L. 750 at scoring"."""
        money = game.title.money
        return (
            f"{entity} is left with no stock after an emergency sale: {entity} takes a "
            f"{money(LOAN)} loan ({money(LOAN_PENALTY)} off their score) or leaves the game "
            "(§Trouble)"
        )


class HomeAgain(Prompt):
    """Ruling S30 ("18xx.games" rule set, from rules version 10): a purchase of a share of a
    floated corporation whose first token in the site's order (ruling S25) is off the map
    has it place that token again as a home token, free: AFG, the only corporation whose
    first token can leave the map (its home in Messina destroyed by the earthquake, the next
    token sold), chooses a city among its five with a slot it may take."""

    kind = HOME_AGAIN
    rule = HOME_AGAIN

    def actions(self, game: Game, entity: str) -> list[Action]:
        return [PlaceToken(entity, coord, city) for coord, city in home_again_cities(game, entity)]

    def process(self, game: Game, entity: str, action: Action) -> None:
        assert isinstance(action, PlaceToken)
        s = game.state
        map_glue.place_token(s.map, action.hex, action.city, entity, site=site_engine(game))
        s.corps[entity].placed.append((action.hex, action.city))
        token_objects.placed(game, entity, (action.hex, action.city))
        stale_graph.cleared(game)  # ruling S29: the site's HomeToken step clears the graph
        game.log(f"{entity} places its home token again in {s.map.board.place(action.hex)}")

    def why(self, game: Game, entity: str) -> str:
        """Ruling S30: the site's share purchase places a corporation's home token again
        where its first token is off the map."""
        return (
            f"{entity}'s first token is off the map: on 18xx.games a purchase of its shares "
            f"has it place a home token again, free, in a city it chooses (ruling S30)"
        )


def home_again_cities(game: Game, sym: str) -> list[tuple[str, int]]:
    """The cities AFG may place its home token in again (ruling S30): those of its five home
    hexes with a slot it may take (the site's ``home_token_locations``, ``City#tokenable?``
    free of charge)."""
    m = game.state.map
    return [
        (coord, i)
        for coord in AFG_HOMES
        for i, node in enumerate(m.tile(coord).nodes)
        if node.kind == "city" and m.token_problem(sym, coord, i) is None
    ]


def _swap_closed(game: Game, sym: str | None = None) -> bool:
    """Ruling S24: the sale that put the 20% last certificate in the pool (S17) also took the
    corporation's price into the "Closed" box, so it closed before the seller answered: its
    certificates are back in its treasury and it has no president."""
    sym = sym if sym is not None else state_of(game).swap_corp
    return sym is not None and game.state.shares.president.get(sym) is None


class Swap(Prompt):
    """Ruling R23: the old president keeps the 20% last certificate given for the
    president's, or takes two 10% certificates instead; ruling S17: where a sale put that
    certificate in the pool, the seller chooses whether the pool keeps it or the new
    president takes it back for two 10% certificates."""

    kind = SWAP
    rule = SWAP

    def actions(self, game: Game, entity: str) -> list[Action]:
        if _swap_closed(game):  # ruling S24: nothing is left to exchange
            return [Choose(entity, SWAP_ONE_20)]
        return [Choose(entity, SWAP_ONE_20), Choose(entity, SWAP_TWO_10)]

    def process(self, game: Game, entity: str, action: Action) -> None:
        assert isinstance(action, Choose)
        s = game.state
        own = state_of(game)
        sym = own.swap_corp
        assert sym is not None, "no presidency swap awaits an answer"
        own.swap_corp = None
        if _swap_closed(game, sym):
            game.log(f"{sym} has closed: no certificate is exchanged")
            return
        last = next(c for c in s.shares.corp_certs(sym) if c.last)
        holder = s.shares.holder[last.cid]
        if action.choice == SWAP_TWO_10:
            new = s.shares.president[sym]
            assert new is not None
            tens = [c for c in s.shares.held(new, sym) if not c.president and not c.last]
            s.shares.move(last.cid, new)
            for c in tens[:2]:
                s.shares.move(c.cid, holder)
            if holder == POOL:
                game.log(f"{new} takes the 20% last certificate of {sym} back for two 10%")
            else:
                game.log(f"{entity} takes two 10% certificates of {sym} instead of the 20%")
        elif holder == POOL:
            game.log(f"The pool keeps the 20% last certificate of {sym}")
        else:
            game.log(f"{entity} keeps the 20% last certificate of {sym}")

    @staticmethod
    def _swapped(game: Game) -> tuple[str, str, bool] | None:
        """The corporation whose presidency changed hands, its new president, and whether the
        20% last certificate went to the pool; None when no swap awaits an answer."""
        sym = state_of(game).swap_corp
        new = game.state.shares.president.get(sym) if sym else None
        if sym is None or new is None:
            return None
        reg = game.state.shares
        last = next(c for c in reg.corp_certs(sym) if c.last)
        return sym, new, reg.holder[last.cid] == POOL

    def question(self, game: Game, entity: str) -> str:
        """Who took the presidency, and what was handed over for it."""
        if (swapped := self._swapped(game)) is None:
            return ""
        sym, new, pool = swapped
        if pool:
            return (
                f"{new} now holds more of {sym} than you and takes its presidency: {new} "
                "gives the pool the 20% last certificate for the president's certificate (20%)"
            )
        return (
            f"{new} now holds more of {sym} than you and takes its presidency: you hand "
            f"{new} the president's certificate (20%) for the 20% last certificate"
        )

    def why(self, game: Game, entity: str) -> str:
        """The swap's question as watchers read it: who took the presidency, and what the
        outgoing president chooses."""
        if (swapped := self._swapped(game)) is None:
            return ""
        sym, new, pool = swapped
        if pool:
            return (
                f"{new} took the presidency of {sym} and gave the pool the 20% last "
                f"certificate for the president's certificate: {entity} chooses whether the "
                f"pool keeps it or takes two of {new}'s 10% certificates instead"
            )
        return (
            f"{new} took the presidency of {sym} and handed {entity} the 20% last certificate "
            f"for the president's certificate: {entity} keeps it or takes two 10% "
            "certificates instead"
        )

    def words(self, game: Game, entity: str, action: Action, words: Any) -> str | None:
        """What each answer exchanges, and with whom."""
        if not isinstance(action, Choose) or (swapped := self._swapped(game)) is None:
            return None
        sym, new, pool = swapped
        if pool:
            if action.choice == SWAP_ONE_20:
                return f"The pool keeps the 20% last certificate of {sym} that {new} gave it"
            if action.choice == SWAP_TWO_10:
                return (
                    f"{new} takes the 20% last certificate of {sym} back from the pool and "
                    "puts two 10% certificates there"
                )
            return None
        if action.choice == SWAP_ONE_20:
            return (
                f"Keep the 20% last certificate of {sym} that {new} gave you for the "
                "president's certificate"
            )
        if action.choice == SWAP_TWO_10:
            return (
                f"Give {new} the 20% last certificate of {sym} back for two of {new}'s 10% "
                "certificates"
            )
        return None


class Title1849(Title):
    """1849's data and hooks."""

    name = "1849"
    player_range = (3, 5)
    rules_version = SITE_SEVENTH_VERSION
    # 1: before deals needed both sides; 2: before issue 39; 3: before ruling V11;
    # 4: before rulings S9 (corrected)-S13; 5: before ruling S14; 6: before rulings S15-;
    # 7: before rulings S19-; 8: before rulings S22-; 9: before rulings S25-
    older_rules = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9})
    privates_count_toward_limit = True
    extra_buys_after_par = 2
    step_objects = {**STEP_OBJECTS, **VARIANT_STEPS}
    turn_record = Turn1849
    #: A search unit costs about 0.35 ms (idle, on average; twice that in the slowest
    #: twentieth of decisions): measured 2026-12-08, ``benchmarks/hard.py --calibrate``.
    search_units_per_second = 1600
    prompts = {p.kind: p for p in (RsaPar(), Loan(), Swap(), Debt(), HomeAgain())}
    anytime_types = frozenset({"buy_company", "use_company"})
    declared_options = (
        OptionSpec(
            "rule_set",
            str,
            rule_set.SUMMARY,
            "play as the rulebook summary says, or as 18xx.games does where they differ "
            "(docs/rulings/1849.md, S1-S8; imported games)",
            RULE_SETS,
        ),
        OptionSpec("delay_ift", bool, False, "IFT is not among the first three corporations"),
        OptionSpec("reduced_4p_corps", bool, False, "4 players play with 5 corporations"),
        OptionSpec(
            variants.BUY_TOKENS,
            bool,
            False,
            "from phase 6H a corporation may buy another's station token (rulebook §14.1)",
        ),
        OptionSpec(
            variants.BONDS,
            bool,
            False,
            "from phase 8H a corporation may issue a single L.500 bond, L.50 interest each "
            "OR (rulebook §14.2)",
        ),
        OptionSpec(
            variants.ELECTRIC,
            bool,
            False,
            "E-trains and E-tokens from phase 12H; only with the other two variants "
            "(rulebook §14.3)",
        ),
    )

    def __init__(self) -> None:
        self.data = _data()
        self.phases = [
            Phase(p["name"], p["on"], p["train_limit"], tuple(p["tiles"]), p["operating_rounds"])
            for p in self.data["phases"]
        ]
        self.market_def = Market.load("tresham.titles.t1849", "data/market.json")

    def action_words(self, game: Game, action: Action, words: Any) -> str | None:
        """The optional rules' own actions in a player's words."""
        return variant_action_words(game, action, words)

    # ================================================================ deals
    def deals_need_consent(self, game: Game) -> bool:
        """1849 §OR "Buy from another corporation at ≥ L. 1" and the purchase of privates from
        their owners: the price is the two sides' deal, so the seller is asked (docs/rulings/
        1849.md, "Deals"); the "18xx.games" rule set, like the site, does not ask."""
        return game.rules_version >= DEALS_VERSION and not site_rules(game.options)

    def free_take_uses_turn(self, game: Game) -> bool:
        """§Start "at L. 5 the first player offered it takes it free": taking it is that
        player's turn, and the auction goes on with the next player (ruling R28). The
        "18xx.games" rule set does the same from `SITE_TAKER_VERSION` (ruling S22: the site
        passes the turn on past the taker); before it, and in saves before `DEALS_VERSION`,
        the taker was given a turn."""
        if site_rules(game.options):
            return site_sixth_round(game)
        return game.rules_version >= DEALS_VERSION

    # ================================================================ setup
    def five_corporations(self, game: Game) -> bool:
        """1849 §Players: 3 players (or 4 with the option) play with 5 corporations."""
        n = len(game.player_names)
        return n == 3 or (n == 4 and bool(game.options.get("reduced_4p_corps")))

    def setup(self, game: Game) -> GameState:
        """Initial state: bank L.7,760 less the players' cash; the corporation order drawn
        from the seed; with 5 corporations the last drawn is out, with one each of the 6H,
        8H and 16H (1849 §Players, Trains)."""
        d = self.data
        n = len(game.player_names)
        five = self.five_corporations(game)
        site = site_rules(game.options)
        variants.check_options(game.options)
        rng = game.new_rng()
        order = rng.permutation([c["sym"] for c in d["corporations"]])
        if game.options.get("delay_ift") and order.index("IFT") < 3:
            i = order.index("IFT")
            order[i], order[3] = order[3], order[i]
        if five:
            order = order[:-1]
        opening = Opening(game, d)
        opening.charter((c for c in d["corporations"] if c["sym"] in order), last_certificate=True)
        state = opening.state(
            market=MarketState(self.market_def, Movement1849()),
            map_state=map_glue.new_map(game.options),
            trains=train_types(
                d["trains"], game.options, count="count_five" if five else "count_six"
            ),
            rng=rng,
        )
        cert_limit = d["cert_limit"][str(n)]
        if five and str(n) in d["cert_limit_five_corps"]:
            cert_limit = d["cert_limit_five_corps"][str(n)]
        state.title_state = State1849(
            order=order,
            cert_limit=cert_limit,
            p1_free_at=0 if site else 5,
            rsa_corp=order[0],
            variants=variants.initial(game.options),
        )
        return state

    # ================================================================ sequence
    def process(self, game: Game, action: Action) -> None:
        """Apply a validated action; a pass of a turn the site passes (ruling S27) uses it."""
        lost = state_of(game).lost_turns
        if isinstance(action, Pass) and lost and lost[0] == action.entity:
            lost.pop(0)
        super().process(game, action)

    def turn_lost(self, game: Game, player: str) -> bool:
        """Ruling S27: after a stock-round sale into "Closed", the seller's turn and those of
        the players the site passes after it may only pass, in turn order."""
        lost = state_of(game).lost_turns
        return bool(lost) and lost[0] == player

    def next_round(self, game: Game) -> Round:
        """Auction → SR → a set of ORs (as many as the phase says when the SR ends) → SR.
        1849 §Start, §SR, §OR. The "18xx.games" rule set (rules version 10) ends the game as
        stock round `SITE_TURN_LIMIT` ends, as 18xx.games does (ruling S28)."""
        s = game.state
        rnd = s.round
        if rnd is None:
            return WaterfallAuction(game, list(s.companies), f"{SUMMARY} §Start")
        if isinstance(rnd, WaterfallAuction):
            s.priority = game.state.players.index(game.player(rnd.order[rnd.pointer]))
            return self._new_stock_round(game)
        if isinstance(rnd, StockRound):
            own = state_of(game)
            own.lost_turns = []
            if own.sale_ended_round is not None:  # ruling S27: no end of the round
                s.priority = [p.name for p in s.players].index(own.sale_ended_round)
                own.sale_ended_round = None
            else:
                s.priority = rnd.next_priority(game)
                self.end_of_stock_round(game)
            if site_seventh_round(game) and s.stock_round_no >= SITE_TURN_LIMIT:
                self.finish(game, EndReason.TURN_LIMIT)
                return rnd
            if self.no_play_possible(game):
                self.finish(game, EndReason.NO_PLAY)
                return rnd
            self.begin_operating_set(game)
            return self._new_operating_round(game)
        assert isinstance(rnd, OperatingRound)
        if s.or_in_set < s.ors_in_set:
            return self._new_operating_round(game)
        return self._new_stock_round(game)

    def no_play_possible(self, game: Game) -> bool:
        """Ruling R13: the game ends when no corporation runs, no player can afford to
        start one, and no private pays anyone (nothing can ever change again)."""
        s = game.state
        if any(c.floated and not c.closed for c in s.corps.values()):
            return False
        if any(c.owner and not c.closed for c in s.companies.values()):
            return False
        cheapest = 2 * min(self.par_prices(game))
        return all(p.bankrupt or p.cash < cheapest for p in s.players)

    def _new_stock_round(self, game: Game) -> StockRound:
        s = game.state
        s.stock_round_no += 1
        own = state_of(game)
        own.closed_recently = []
        own.messina_locked = False
        game.log_round(f"Stock round {s.stock_round_no}")
        self._place_missing_home_tokens(game)
        self.check_afg(game)
        return StockRound(game, f"{SUMMARY} §SR")

    def _new_operating_round(self, game: Game) -> OperatingRound:
        """Privates pay at the start of every OR; floated corporations operate in market
        order (1849 §OR)."""
        s = game.state
        s.or_in_set += 1
        s.operating_round_no += 1
        game.log_round(f"Operating round {s.stock_round_no}.{s.or_in_set}")
        self.pay_private_revenue(game)
        floated = [c for c, corp in s.corps.items() if corp.floated and not corp.closed]
        order = s.market.operating_order(floated)
        own = state_of(game)
        if order:  # ruling S9: asked in the next round where a corporation operates
            s.pending.extend((LOAN_PROMPT, p) for p in own.loan_later)
            own.loan_later = []
        steps = operating_steps(game.options)
        return OperatingRound(game, order, list(steps), f"{SUMMARY} §OR")

    def pay_private_revenue(self, game: Game) -> None:
        """Every owned private pays its revenue from the bank: players in seat order, then
        corporations."""
        comps = [c for c in game.state.companies.values() if c.owner and not c.closed]
        names = [p.name for p in game.state.players]
        comps.sort(
            key=lambda c: (
                c.owner not in names,
                names.index(c.owner) if c.owner in names else 0,
                c.value,
            )
        )
        for c in comps:
            assert c.owner is not None
            game.transfer("bank", c.owner, c.revenue)

    # ================================================================ auction hooks
    def on_company_bought(self, game: Game, company: str, player: str) -> None:
        """P5 RSA comes with the president's certificate of the first corporation: its
        buyer starts that corporation at once (1849 §Privates)."""
        if company == "RSA":
            game.state.pending.append((RSA_PAR, player))

    def on_auction_all_passed(self, game: Game, rnd: WaterfallAuction) -> None:
        """A full round of passes: privates pay; P1 comes back L.5 cheaper each time, and
        at L.5 the first player offered it takes it free (1849 §Start; ruling R1)."""
        self.pay_private_revenue(game)
        first = rnd.unsold[0] if rnd.unsold else None
        if first == "SCE":
            rnd.discount[first] += 5
            price = rnd.price(game, first)
            game.log(f"SCE now costs L.{price}")
            if price <= state_of(game).p1_free_at:
                taker = rnd.order[(rnd.pointer + 1) % len(rnd.order)]
                game.log(f"{taker} is offered SCE at L.{price} and takes it free")
                rnd.give_free(game, first, taker, uses_turn=self.free_take_uses_turn(game))

    # ================================================================ stock hooks
    def certificate_limit(self, game: Game) -> int | None:
        """The certificate limit (``cert_limit``)."""
        return self.cert_limit(game)

    def cert_limit(self, game: Game) -> int:
        """1849 §Players: 12/11/9 (9 at four players with five corporations)."""
        return state_of(game).cert_limit

    def over_cert_limit(self, game: Game, player: str) -> bool:
        """Whether `player` holds more certificates than the limit."""
        return player_certs(game, player) > self.cert_limit(game)

    def sellable_corps(self, game: Game, player: str) -> list[str]:
        """Corporations `player` may sell: held, and operated at least once (1849 §SR: "No
        selling a corporation that has not yet operated")."""
        out = []
        for sym, corp in game.state.corps.items():
            if corp.closed or corp.operated == 0:
                continue
            if game.state.shares.percent(player, sym):
                out.append(sym)
        return out

    def sell_bundles(self, game: Game, player: str, corp: str) -> list[tuple[int, bool]]:
        """Legal sale bundles; the pool never exceeds 50%. In the "18xx.games" rule set a
        sale that needs the president's certificate (the seller's other certificates in it
        do not make the percent) is one only when the seller keeps less than 20% (ruling
        S10)."""
        bundles = sellable_bundles(game, player, corp, POOL_CAP)
        reg = game.state.shares
        if not site_proven(game) or reg.president.get(corp) != player:
            return bundles
        held = reg.held(player, corp)
        total = sum(c.percent for c in held)
        tens = sum(c.percent for c in held if not c.president and not c.last)
        last = sum(c.percent for c in held if c.last)
        return [
            (pct, with_last)
            for pct, with_last in bundles
            if pct <= tens + (last if with_last else 0) or total - pct < 20
        ]

    def sell_shares(self, game: Game, player: str, action: SellShares) -> None:
        """Sell to the pool: the bank pays market value; the price drops a row per 10%
        (1849 §SR Buy/sell shares; site rule: down one row per 10% sold)."""
        s = game.state
        own = state_of(game)
        sym = action.corporation
        rnd = s.round
        if isinstance(rnd, StockRound) and not rnd.sold_this_turn:
            live = [c for c, corp in s.corps.items() if c in s.market and not corp.closed]
            own.turn_order = s.market.operating_order(live)
            own.moved_by_sales = []
        before = s.market.position(sym)
        old = s.shares.president[sym]
        sell_to_pool(game, player, sym, action.percent, action.last)
        game.log(f"{player} sells {action.percent}% of {sym}")
        if old == player and site_fourth_round(game):
            self._site_sale_swap(game, player, sym)
        # ruling S27: a stock-round sale into "Closed" closes the corporation once it is known
        # whether the round ends at once
        deferred = isinstance(rnd, StockRound) and site_seventh_round(game)
        self.move_price(game, sym, "down", action.percent // 10, close=not deferred)
        if deferred and sym in s.market and "close" in s.market.zones_of(sym):
            assert isinstance(rnd, StockRound)
            sweep = closing_sweep(game, rnd, player, sym, lambda: self.close_corporation(game, sym))
            if sweep is not None and sweep.at_once:
                own.sale_ended_round = player
                rnd.end_at_once()
            elif sweep is not None:
                own.lost_turns = [player, *sweep.passes]
        if isinstance(rnd, StockRound) and sym in s.market and s.market.position(sym) != before:
            moved = own.moved_by_sales
            assert moved is not None and own.turn_order is not None
            if sym not in moved:
                moved.append(sym)
            if len(moved) >= 2:
                self._restack(game, moved, own.turn_order)

    def _site_sale_swap(self, game: Game, seller: str, sym: str) -> None:
        """Ruling S17 (R23 on a sale, as 18xx.games plays it): where the president's sale hands
        the presidency to a player holding the 20% last certificate, that certificate is what
        the new president gives for the president's certificate: to the seller where he
        keeps 20% or more, else (from rules version 9) to the pool; if the new president
        holds 40% or more, the seller then chooses between it and two 10% certificates (the
        prompt of a purchase; `G1849::SharePool#change_president`). The exchange before the
        sale gave the seller two 10% certificates, which now go back to the new president
        from where they went (the seller, or the pool they were sold to)."""
        reg = game.state.shares
        new = reg.president[sym]
        if new is None or new == seller:
            return
        to = seller if reg.percent(seller, sym) >= 20 else POOL
        if to == POOL and not site_sixth_round(game):
            return
        last = [c for c in reg.held(new, sym) if c.last]
        tens = [c for c in reg.held(to, sym) if not c.president and not c.last]
        if not last or len(tens) < 2:
            return
        reg.move(last[0].cid, to)
        for c in tens[:2]:
            reg.move(c.cid, new)
        where = "to the pool " if to == POOL else ""
        game.log(f"{new} gives the 20% last certificate of {sym} {where}for the president's")
        if reg.percent(new, sym) >= 40:
            state_of(game).swap_corp = sym
            game.state.pending.append((SWAP, seller))

    def _restack(self, game: Game, moved: list[str], turn_order: list[str]) -> None:
        """Ruling R22 (rule details §3.8): once sales in one stock-round turn have moved two
        or more corporations, every shared market cell is re-stacked: the corporations not
        moved keep their order on top, the moved ones follow in the operating order of the
        start of the turn."""
        market = game.state.market
        cells = {market.position(c) for c in game.state.corps if c in market}
        for pos in cells:
            stack = market.stack(pos)
            if len(stack) < 2:
                continue
            keep = [c for c in stack if c not in moved]
            sold = sorted((c for c in stack if c in moved), key=turn_order.index)
            market.set_stack(pos, keep + sold)

    def buy_options(self, game: Game, player: str, sold: list[str]) -> list[BuyShares]:
        """One certificate from the treasury or the pool, at the market price; within the
        certificate limit and 60%; not in a corporation sold this round; the 20% last
        certificate only when no 10% is left in the same place (1849 §SR)."""
        s = game.state
        out: list[BuyShares] = []
        if player_certs(game, player) >= self.cert_limit(game):
            return out
        cash = game.player(player).cash
        for sym, corp in s.corps.items():
            if not corp.parred or corp.closed or sym in sold:
                continue
            held = s.shares.percent(player, sym)
            for source, holder in (("treasury", treasury(sym)), ("pool", POOL)):
                certs = [c for c in s.shares.held(holder, sym) if not c.president]
                if not certs:
                    continue
                tens = [c for c in certs if not c.last]
                cert = tens[0] if tens else certs[0]
                price = bundle_price(game, sym, cert.percent)
                if price <= cash and held + cert.percent <= HOLDING_CAP:
                    out.append(BuyShares(player, sym, source, cert.percent))
        return out

    def buy_shares(self, game: Game, player: str, action: BuyShares) -> None:
        """Buy one certificate: treasury money goes to the corporation (incremental
        capitalisation), pool money to the bank (1849 §SR)."""
        s = game.state
        sym = action.corporation
        holder = treasury(sym) if action.source == "treasury" else POOL
        certs = [c for c in s.shares.held(holder, sym) if not c.president]
        tens = [c for c in certs if not c.last]
        cert = tens[0] if tens else certs[0]
        price = bundle_price(game, sym, cert.percent)
        payee = sym if action.source == "treasury" else "bank"
        game.transfer(player, payee, price)
        s.shares.move(cert.cid, player)
        game.log(f"{player} buys {cert.percent}% of {sym} from the {action.source} for L.{price}")
        old = s.shares.president[sym]
        last_before = self._last_holder(game, sym)
        new = update_president(game, sym, old, hand_over_last=True)
        if (
            old is not None
            and new is not None
            and new != old
            and self._swap_possible(game, sym, old, new, last_before)
        ):
            state_of(game).swap_corp = sym
            s.pending.append((SWAP, old))
        if self._home_again(game, sym):
            s.pending.append((HOME_AGAIN, sym))

    def _home_again(self, game: Game, sym: str) -> bool:
        """Ruling S30 ("18xx.games" rule set, from rules version 10): a player's purchase of
        a share of a floated corporation whose first token in the site's order is off the
        map (S25) has it place a home token again, where a city is open to it (the site's
        ``ShareBuying#maybe_place_home_token``, ``HOME_TOKEN_TIMING`` ``:float``, and
        ``Game::Base#place_home_token``, which goes on unless ``tokens.first`` is used; for
        AFG, without a fixed home, it asks for a city: ``home_token_locations``)."""
        s = game.state
        if not site_seventh_round(game) or not isinstance(s.round, StockRound):
            return False
        order = token_objects.order(game, sym)
        if not s.corps[sym].floated or not order or order[0] is not None:
            return False
        # only AFG's first token can leave the map (HomeAgain), and it chooses the city
        return sym == "AFG" and bool(home_again_cities(game, sym))

    @staticmethod
    def _last_holder(game: Game, sym: str) -> str | None:
        """Who holds `sym`'s 20% last certificate (None: it has none)."""
        reg = game.state.shares
        return next((reg.holder[c.cid] for c in reg.corp_certs(sym) if c.last), None)

    def _swap_possible(
        self, game: Game, sym: str, old: str, new: str, last_before: str | None
    ) -> bool:
        """Ruling R23 (rule details §3.7): a new president holding the 20% last certificate
        hands it over for the president's certificate; if they hold 40% or more, the
        outgoing president chooses between it and two 10% certificates. Ruling S31 ("18xx.games"
        rule set, from rules version 10): only where the new president held that certificate
        (`last_before`, its holder before the purchase) and handed it over; an outgoing
        president who already held it, having given two 10% for it before, is asked nothing
        (the site's ``G1849::SharePool#change_president`` asks only when the incoming
        president's certificates include it). Earlier saves ask whenever the outgoing
        president holds it after the exchange."""
        reg = game.state.shares
        got_last = any(c.last for c in reg.held(old, sym))
        if site_seventh_round(game):
            got_last = got_last and last_before == new
        tens = [c for c in reg.held(new, sym) if not c.president and not c.last]
        return got_last and reg.percent(new, sym) >= 40 and len(tens) >= 2

    def next_to_start(self, game: Game) -> str | None:
        """The next corporation in the order that has not started (1849 §SR: "You never
        choose which to start: you get the next one")."""
        s = game.state
        for sym in state_of(game).order:
            corp = s.corps[sym]
            if not corp.parred and not corp.closed:
                return sym
        return None

    def par_prices(self, game: Game) -> list[int]:
        """68 or 100; 144 from phase 6H; 216 from phase 10H (1849 §SR)."""
        groups = ["par:yellow"]
        reached = game.state.phases_reached
        if "6H" in reached:
            groups.append("par:green")
        if "10H" in reached:
            groups.append("par:brown")
        return sorted({c.price for c in self.market_def.par_cells(groups)})

    def par_options(self, game: Game, player: str) -> list[Par]:
        """Start the next corporation: afford the president's 20% (2 x par); AFG names a
        home among its five cities with a free slot (1849 §SR Starting a corporation)."""
        s = game.state
        sym = self.next_to_start(game)
        if sym is None or sym in state_of(game).closed_recently:
            return []
        if player_certs(game, player) >= self.cert_limit(game):
            return []
        homes: list[str | None] = [None]
        if s.corps[sym].home is None:
            homes = [h for h in AFG_HOMES if map_glue.home_slot_free(s.map, h)]
            if not homes:
                return []
        cash = game.player(player).cash
        return [
            Par(player, sym, price, home)
            for price in self.par_prices(game)
            if 2 * price <= cash
            for home in homes
        ]

    def par(self, game: Game, player: str, action: Par) -> None:
        """Start a corporation: the president buys the 20% at 2 x par into the treasury; it
        floats; its home token goes down; it pays its token fee (1849 §SR)."""
        sym = action.corporation
        self.start_corporation(game, player, sym, action.price, action.home, pay=True)

    def start_corporation(
        self, game: Game, player: str, sym: str, price: int, home: str | None, pay: bool
    ) -> None:
        s = game.state
        corp = s.corps[sym]
        cell = next(c for c in self.market_def.par_cells() if c.price == price)
        s.market.place(sym, cell.pos)
        pres = next(c for c in s.shares.corp_certs(sym) if c.president)
        if pay:
            game.transfer(player, sym, 2 * price)
        else:
            game.transfer("bank", sym, 2 * price)
        s.shares.move(pres.cid, player)
        s.shares.president[sym] = player
        corp.parred = True
        corp.par_price = price
        corp.floated = True
        if home is not None:
            corp.home = home
        game.transfer(sym, "bank", corp.token_fee)
        game.log(
            f"{player} starts {sym} at L.{price}"
            + (f" with its home in {game.state.map.board.place(home)}" if home else "")
        )
        self._place_home_token(game, sym)

    def _place_home_token(self, game: Game, sym: str) -> None:
        corp = game.state.corps[sym]
        if corp.home is None or corp.placed:
            return
        city = map_glue.home_city(game.state.map, corp.home, sym)
        if city is None:
            game.log(f"{sym} finds no free slot in {corp.home}")
            return
        map_glue.place_token(game.state.map, corp.home, city, sym, site=site_engine(game))
        corp.placed.append((corp.home, city))
        token_objects.placed(game, sym, (corp.home, city))
        if self._printed_home(sym) is None:
            # ruling S29: a home chosen at par is placed through the site's HomeToken step
            # (``Tokener#place_token``), which clears the graph; a printed home is not
            stale_graph.cleared(game)

    def _place_missing_home_tokens(self, game: Game) -> None:
        for sym, corp in game.state.corps.items():
            if corp.floated and not corp.closed and not corp.placed:
                self._place_home_token(game, sym)

    def check_afg(self, game: Game) -> None:
        """AFG waits while all five of its cities are full, and returns last in the order
        (1849 §SR Starting a corporation): as soon as they are full it moves to the end of
        the order, whether or not it was next to start (rule details §5.5)."""
        s = game.state
        if "AFG" not in s.corps or s.corps["AFG"].parred:
            return
        if any(map_glue.home_slot_free(s.map, h) for h in AFG_HOMES):
            return
        order = state_of(game).order
        if order[-1] != "AFG":
            order.remove("AFG")
            order.append("AFG")
            game.log("AFG has no free home city and waits, last in the order")

    def end_of_stock_round(self, game: Game) -> None:
        """Any share in the pool → down one row; none in the pool and none in the treasury
        → up one row (1849 §Share price). In the "18xx.games" rule set (from rules version
        9) the corporations these moves take to "Closed" close once all have moved, in their
        place in the order (ruling S23), so they go last in the order in that order."""
        s = game.state
        floated = [c for c, corp in s.corps.items() if corp.floated and not corp.closed]
        at_once = site_sixth_round(game)
        for sym in s.market.operating_order(floated):
            if s.shares.percent(POOL, sym):
                self.move_price(game, sym, "down", close=not at_once)
            elif not treasury_certs(game, sym):
                self.move_price(game, sym, "up", close=not at_once)
        if at_once:
            order = state_of(game).order
            closing = [c for c in order if c in s.market and "close" in s.market.zones_of(c)]
            for sym in closing:
                self.close_corporation(game, sym)

    def move_price(
        self, game: Game, sym: str, direction: str, steps: int = 1, *, close: bool = True
    ) -> None:
        """Move a share price; entering L.377 flags the game end, entering "Closed" closes
        the corporation (1849 §Endgame, §Trouble), unless `close` is False (the caller
        closes it)."""
        s = game.state
        if steps <= 0 or sym not in s.market:
            return
        movement = s.market.rules
        assert isinstance(movement, Movement1849)
        movement.blue_open = "16H" in s.phases_reached
        s.market.move(sym, direction, steps)
        tags = s.market.zones_of(sym)
        own = state_of(game)
        if END_PRICE_TAG in tags and own.end_after is None:
            own.end_after = sym
            game.log(f"{sym} reaches L.{s.market.price(sym)}: the game ends after it operates")
        if "close" in tags and close:
            self.close_corporation(game, sym)

    # ================================================================ closing
    def close_corporation(self, game: Game, sym: str) -> None:
        """Closure: tokens, trains, treasury and privates leave the game; certificates are
        lost; it restarts later, last in the order (1849 §Trouble)."""
        s = game.state
        corp = s.corps[sym]
        game.log(f"{sym} closes")
        for tid in list(corp.trains):
            s.depot.remove(tid)
        stale_graph.closing(game, sym, lambda c: map_glue.graph_answers(game, c))
        map_glue.remove_tokens(s.map, sym)
        game.transfer(sym, "bank", corp.cash)
        for c in s.companies.values():
            if c.owner == sym:
                c.closed = True
        own = state_of(game)
        if own.rsa_corp == sym:
            own.rsa_corp = None
        own.cnm_port.pop(sym, None)
        token_objects.forget(game, sym)
        variants.forget(game, sym)
        s.shares.remove_corporation(sym)
        if sym in s.market:
            s.market.remove(sym)
        fresh = Corporation(
            sym,
            corp.name,
            tokens=self.charter_tokens(sym),
            token_fee=corp.token_fee,
            home=self._printed_home(sym),
        )
        s.corps[sym] = fresh
        fresh_shares = next(c for c in self.data["corporations"] if c["sym"] == sym)["shares"]
        s.shares.add_corporation(sym, fresh_shares, True, treasury(sym))
        own.order.remove(sym)
        own.order.append(sym)
        own.closed_recently.append(sym)
        if fresh.home is not None:
            map_glue.reserve_home(s.map, fresh.home, sym)
        if own.end_after == sym:
            own.end_after = None
        rnd = s.round
        if isinstance(rnd, OperatingRound) and not rnd.finished(game) and rnd.corp() == sym:
            rnd.end_turn_now()
        self.check_afg(game)

    def charter_tokens(self, sym: str) -> int:
        """How many station tokens the corporation's charter holds."""
        tokens: int = next(c for c in self.data["corporations"] if c["sym"] == sym)["tokens"]
        return tokens

    def _printed_home(self, sym: str) -> str | None:
        home: str | None = next(c for c in self.data["corporations"] if c["sym"] == sym)["home"]
        return home

    # ================================================================ OR hooks
    def anytime_actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        """Buying privates (phases 6H-10H) and using private powers during the turn."""
        return anytime_actions(game, rnd, corp)

    def anytime_validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        """A listed action, or a private that may be bought now at any price from L.1 to
        twice its face value, within the buyer's treasury (the list names the highest)."""
        listed = anytime_actions(game, rnd, corp)
        if action in listed:
            return
        if not isinstance(action, BuyCompany) or not any(
            isinstance(a, BuyCompany) and a.company == action.company for a in listed
        ):
            super().anytime_validate(game, rnd, corp, action)
            return
        comp = game.state.companies[action.company]
        if not 1 <= action.price <= min(2 * comp.value, game.state.corps[corp].cash):
            raise RuleError(
                f"{action.company} costs between L.1 and L.{2 * comp.value}",
                f"{SUMMARY} §Privates",
            )

    def price_range(self, game: Game, action: Action) -> tuple[int, int] | None:
        """A private bought from its owner: L.1 to twice face value, within the buyer's
        treasury (RD §5.11, ruling R27); the listing names its highest price."""
        if not isinstance(action, BuyCompany):
            return None
        comp = game.state.companies[action.company]
        return (1, min(2 * comp.value, game.state.corps[action.entity].cash))

    def anytime_process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        """Apply a private purchase or a private's power."""
        process_anytime(game, rnd, corp, action)

    def start_turn(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        """Nothing happens before the track step in 1849; the site will work out the
        corporation's graph in this turn (ruling S29)."""
        stale_graph.turn_begins(game, corp)

    def end_turn(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        """A completed turn counts as having operated; L.377 ends the game once that
        corporation has operated (1849 §Endgame)."""
        s = game.state
        c = s.corps[corp]
        if not c.closed:
            c.operated += 1
        if state_of(game).end_after == corp:
            self.finish(game, EndReason.STOCK_MARKET)

    # ================================================================ phases
    def on_train_bought(self, game: Game, kind: str) -> None:
        """The first purchase of a train type may start a phase: trains rusting on it leave
        the game, its events fire, corporations over the new limit discard (1849 §Trains)."""
        s = game.state
        if not first_purchase(game, kind):
            return
        for event in s.depot.types[kind].events:
            self.fire_event(game, event)
        queue_discards(game, s.market.operating_order([c for c in s.corps if s.corps[c].floated]))

    def fire_event(self, game: Game, event: str) -> None:
        """Train events: new par prices (read from the phases reached), privates closing
        and the Messina earthquake on the first 12H (1849 §Trains, §Messina earthquake)."""
        s = game.state
        if event == "close_companies":
            for c in s.companies.values():
                if not c.closed:
                    c.closed = True
            game.log("All private companies close")
        elif event == "earthquake":
            self.earthquake(game)

    def why_closes(self, game: Game, action: Action, corp: str) -> str:
        """1849 §Trouble: "Closure—the "Closed" box, or failed raising"; §Messina earthquake:
        AFG closes with Messina, its home (a train's purchase brings the first 12H). In a
        player's words only: the summary's headings are no paragraphs players cite."""
        if isinstance(action, Bankrupt):
            return "it cannot raise the money it needs"
        if isinstance(action, BuyTrain):  # no other purchase closes a corporation
            return "the Messina earthquake destroys its only station"
        return 'its share price enters the "Closed" box'

    def earthquake(self, game: Game) -> None:
        """Messina drops to yellow; every token there is lost for good; no upgrade until
        after the next SR; AFG closes if Messina was its home and it has no other city
        token (1849 §Messina earthquake)."""
        s = game.state
        afg = s.corps.get("AFG")
        if (
            afg is not None
            and afg.floated
            and afg.home == map_glue.EARTHQUAKE_HEX
            and all(h == map_glue.EARTHQUAKE_HEX for h, _ in afg.placed)
        ):
            self.close_corporation(game, "AFG")
        lost = map_glue.earthquake(s.map)
        for sym in lost:
            corp = s.corps[sym]
            for where in corp.placed:
                if where[0] == map_glue.EARTHQUAKE_HEX:
                    token_objects.destroyed(game, sym, where)
            corp.placed = [p for p in corp.placed if p[0] != map_glue.EARTHQUAKE_HEX]
            corp.tokens -= 1
            game.log(f"{sym} loses its token in Messina")
        state_of(game).messina_locked = True
        stale_graph.cleared(game)
        game.log("Messina earthquake: Messina reverts to yellow")

    # ================================================================ prompts
    def leave(self, game: Game, player: str) -> None:
        """A president left with no stock quits on L.0 (1849 §Trouble): the player leaves the
        game holding nothing, and their privates close (ruling R26), so they pay no one and
        cannot be bought. The "18xx.games" rule set, and saves played before
        `DEALS_VERSION`, leave the privates with the departed player; from rules version
        `SITE_DEPARTED_VERSION` it leaves him his cash too (ruling S19: the site's
        ``declare_bankrupt`` only marks the player)."""
        s = game.state
        p = game.player(player)
        p.bankrupt = True
        if not site_fifth_round(game):
            game.transfer(player, "bank", p.cash)
        game.log(f"{player} leaves the game")
        if self.departed_hold_nothing(game):
            for c in s.companies.values():
                if c.owner == player and not c.closed:
                    c.closed = True
                    game.log(f"{c.sym} closes: its owner left the game")
        if sum(1 for q in s.players if not q.bankrupt) <= 1:
            self.finish(game, EndReason.BANKRUPT)

    def departed_hold_nothing(self, game: Game) -> bool:
        """Ruling R26: whether a player who left the game holds nothing and scores nothing
        (the summary's rules from `DEALS_VERSION`; not the "18xx.games" rule set)."""
        return game.rules_version >= DEALS_VERSION and not site_rules(game.options)

    # ================================================================ end & scores
    def check_end(self, game: Game, round_over: bool) -> bool:
        """The bank breaks: finish the set of ORs (1849 §Endgame)."""
        return self.bank_break_end(game, round_over)

    def raw_scores(self, game: Game) -> dict[str, int]:
        """Cash plus shares at market, minus L.750 per loan, not floored (1849 §Endgame); the
        "18xx.games" rule set adds player-owned privates at face value (ruling S5); with the
        bonds variant, minus L.100 per share of a corporation whose bond is out (§14.2)."""
        return self._worth(game, privates=site_rules(game.options))

    def scores(self, game: Game) -> dict[str, int]:
        """The summary's score under either rule set: cash plus shares at market, minus L.750
        per loan (and the bonds variant's L.100 per share of a corporation whose bond is
        out), floored at 0 (1849 §Endgame; ruling R6)."""
        return {k: max(0, v) for k, v in self._worth(game, privates=False).items()}

    def _worth(self, game: Game, *, privates: bool) -> dict[str, int]:
        s = game.state
        out: dict[str, int] = {}
        departed_nothing = self.departed_hold_nothing(game)
        for p in s.players:
            if p.bankrupt and departed_nothing:
                # ruling R26: a player who left holds nothing; only their loans still count
                out[p.name] = -LOAN_PENALTY * p.loans
                continue
            value = p.cash - LOAN_PENALTY * p.loans - variants.bond_penalty(game, p.name)
            if privates:
                value += sum(
                    c.value for c in s.companies.values() if c.owner == p.name and not c.closed
                )
            for cert in s.shares.held(p.name):
                if cert.corp in s.market:
                    value += bundle_price(game, cert.corp, cert.percent)
            out[p.name] = value
        return out

    def route_inputs(self, game: Game, corp: str) -> tuple[list[TrainSpec], TrackRules]:
        """The corporation's trains and 1849's route rules (1849 §OR Run trains)."""
        return map_glue.corp_trains(game, corp), map_glue.rules_for(game, corp)

    def describe_state(self, game: Game) -> dict[str, Any]:
        return {"next_to_start": self.next_to_start(game), "order": list(state_of(game).order)}
