"""1849's half of the 18xx.games import (``tresham.io.site_import``).

Set-up: the "18xx.games" rule set and generator, plus the site's optional rules that tresham
has as options. Translation, where 1849 on the site differs in form from tresham's actions:
- ``par`` of AFG is followed on the site by AFG's ``place_token`` in its chosen home; tresham
  takes the home with the par, so the token is folded into it.
- ``choose`` "Close SMS" is followed by the lay (or token) in the SMS hex; tresham names that
  hex when SMS is used. "Pass" declines SMS for the turn, which tresham does not ask.
- ``run_routes``: each route is re-traced on tresham's map from its hex chains and its revenue
  recomputed; a difference from the site's recorded revenue fails the import.
- The optional rules (``variants.py``): ``take_loan``/``payoff_loan`` issue and repay a bond,
  ``payoff_debt`` is the president covering unpaid interest, ``choose`` "Buy E-Token for …"
  buys an E-token, ``buy_token`` names the city and slot of the token bought (tresham names
  its owner). The site's token-buying step passes by itself (an auto action of a
  corporation) where nothing can be bought, even before phase 6H, and after a purchase;
  tresham skips that step then, so those passes change nothing. ``electric_dreams`` brings
  the other two variants, as on the site since it follows §14.3.
- Certificates: the site's own identities and order are followed (``SiteShares``, as the
  export keeps them), so that a certificate the site moved by itself (a presidency swap) is
  known to be in the treasury or the pool when both hold one of its size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from tresham.core.actions import Action, Bankrupt, Choose, Par, RunRoutes, UseCompany
from tresham.core.errors import RouteError
from tresham.core.rounds.operating import OperatingRound
from tresham.core.shares import POOL, treasury
from tresham.io.site_export import ImportFailure, SiteExport
from tresham.io.site_import import (
    AUTO,
    SiteContext,
    site_city,
    started_on_site,
    translate_common,
)
from tresham.routes import Run, run_from_connections
from tresham.routes.runs import runs_action
from tresham.titles.t1849 import map_glue, variants
from tresham.titles.t1849.actions import BuyEToken, BuyStationToken, IssueBond, PayDebt, RepayBond
from tresham.titles.t1849.rule_set import SITE
from tresham.titles.t1849.rules import LOAN_PENALTY, SWAP_ONE_20, SWAP_TWO_10
from tresham.titles.t1849.site_shares import SiteShares, bankruptcy_sales
from tresham.titles.t1849.site_slots import SiteSlots
from tresham.titles.t1849.state import turn_of
from tresham.titles.t1849.steps import SMS_HEXES
from tresham.titles.t1849.variant_steps import DEBT, BuyTokenStep, InterestStep, tokens_in_reach

if TYPE_CHECKING:
    from tresham.core.game import Game

# The site's optional rules that tresham has, and the option each sets.
SITE_OPTIONS: Final = {
    "delay_ift": "delay_ift",
    "reduced_4p_corps": "reduced_4p_corps",
    "acquiring_station_tokens": variants.BUY_TOKENS,
    "bonds": variants.BONDS,
    "electric_dreams": variants.ELECTRIC,
}
# The site's words for the loan prompt's answers.
LOAN_CHOICES: Final = {"Take L.500 loan": "loan", "Leave game": "leave"}
SMS_CLOSE: Final = "Close SMS"
SMS_DECLINE: Final = "Pass"
#: Site actions that may come between "Close SMS" and the lay or token it is used for (besides
#: the corporation's passes and private purchases).
SMS_BETWEEN: Final = ("assign", "message")
E_TOKEN_CHOICE: Final = "Buy E-Token for "
#: memo keys: the site's certificates, and the share action being applied
SHARES: Final = "shares"
MOVE: Final = "share move"
BANKRUPTCY: Final = "bankruptcy sales"
#: The site's operating steps (class names) by tresham's step names.
SITE_STEP_NAMES: Final = {
    "Track": "track",
    "Token": "token",
    "Route": "routes",
    "Dividend": "dividend",
    "BuyToken": "buy_token",
    "BuyEToken": "e_token",
    "BuyTrain": "trains",
    "IssueShares": "issue",
    "BondInterestPayment": "interest",
    "Bond": "bond",
    "BuyCompany": "companies",
}
#: memo key: by operating turn, the site's steps passed in it (of `SITE_ONLY`)
SITE_STEPS: Final = "site steps"
ACTED: Final = "acted at"
SLOTS: Final = "slots"
#: the memo's mark for lists given up
LOST: Final = "lost"


class Adapter1849:
    """Translates 1849 exports."""

    def options(self, export: SiteExport) -> dict[str, Any]:
        unknown = [r for r in export.optional_rules if r not in SITE_OPTIONS]
        if unknown:
            raise ImportFailure(f"field settings.optional_rules: unsupported {', '.join(unknown)}")
        options: dict[str, Any] = {"rule_set": SITE, "rng": SITE}
        for rule in export.optional_rules:
            options[SITE_OPTIONS[rule]] = True
        if options.get(variants.ELECTRIC):
            options[variants.BONDS] = options[variants.BUY_TOKENS] = True
        return options

    def penalty(self, game: Game, player: str) -> int:
        """L.750 for each L.500 loan taken (1849 §Trouble; the site's ``penalty``)."""
        return LOAN_PENALTY * game.player(player).loans

    def skips_pass(self, ctx: SiteContext, action: dict[str, Any]) -> bool:
        """A pass of a site step where tresham has none changes nothing: a corporation's
        auto pass (the token-buying step passing by itself where no token is in reach) unless
        tresham waits in its own token-buying step, and the first pass a corporation makes in
        its turn past tresham's step where the site's waits though tresham shows none: the
        token-buying step while a token is in reach (before the green phase, or with no cash:
        ``variant_steps.tokens_in_reach``), the train step where the site counts an E-train
        it cannot buy (:func:`site_train_step_open`). The site's token-buying step also stays
        open after a purchase until the corporation passes there (tresham moves on at once):
        the corporation's pass right after its purchase is that step's (random game 4 players
        seed 105: CTL buys a token, passes, then buys a train). Where tresham has
        ended the corporation's turn with the purchase, that pass is not recorded in the turn
        of the corporation after it (random game 4 players seed 123: AFG buys a token with its
        last lira and passes; IFT then buys one and passes, then buys a train)."""
        if action.get("entity_type") != "corporation":
            return False
        game, corp = ctx.game, str(action.get("entity"))
        rnd = game.state.round
        owing = game.state.pending == [(DEBT, corp)]  # its interest, taken ahead of the site
        if not isinstance(rnd, OperatingRound) or rnd.finished(game):
            return bool(action.get(AUTO))
        if game.state.pending and not owing:
            return bool(action.get(AUTO))
        turn = site_turn(game, corp)
        passed: set[str] = ctx.memo.setdefault(SITE_STEPS, {}).setdefault(turn, set())
        here = rnd.steps[rnd.step]
        if action.get(AUTO):  # the token-buying step's own pass: tresham's, if it waits there
            if here != BuyTokenStep.name:
                passed.add(BuyTokenStep.name)
                return True
            passed.add(here)
            return False
        last = game.actions[-1] if game.actions else None
        bought = isinstance(last, BuyStationToken) and last.entity == corp
        if bought and rnd.corp() != corp:
            return True  # its turn is over in tresham: the site's token-buying step's pass
        if bought and here != BuyTokenStep.name and BuyTokenStep.name not in passed:
            passed.add(BuyTokenStep.name)
            return True
        if rnd.corp() == corp and self._site_step_before(ctx, turn, passed):
            return True
        if here in SITE_ONLY:  # tresham's own step: the pass is tresham's
            passed.add(here)
        return False

    def _site_step_before(self, ctx: SiteContext, turn: SiteTurn, passed: set[str]) -> bool:
        """Whether a site step before tresham's current one still waits for the corporation
        in its turn (one of `SITE_ONLY`, neither passed nor left behind by a later action):
        a pass goes to the site's first open step, even where tresham waits at a step of its
        own (random game 3 players seed 212 with delay_ift: IFT closes SMS and lays in
        Siracusa; tresham waits at its train step, the site at its Token step: IFT's pass is
        the Token step's, its purchase the train step's). Records the step as passed."""
        game = ctx.game
        rnd = game.state.round
        assert isinstance(rnd, OperatingRound)
        corp = rnd.corp()
        acted = ctx.memo.get(ACTED, {}).get(turn, -1)
        for step, site_waits in SITE_ONLY.items():
            if step not in rnd.steps or step in passed or rnd.step <= rnd.steps.index(step):
                continue
            if rnd.steps.index(step) < acted:
                continue  # it acted at a later step: the site has left this one behind
            if site_waits(game, corp):
                passed.add(step)
                return True
        return False

    def site_behind(self, game: Game, line: dict[str, Any]) -> bool:
        """Whether the site's line stands at a step of the operating turn before tresham's
        (its step classes by tresham's step names, `SITE_STEP_NAMES`). The prompt of the
        corporation's unpaid bond interest is one of its turn's steps (the interest step's):
        the site may still wait at its token-buying step, which stays open after a purchase,
        where tresham has moved on to the interest (random game 5 players seed 115 with
        electric_dreams: IFT buys a token with its last lira, owes its L.50 interest)."""
        rnd = game.state.round
        if not isinstance(rnd, OperatingRound) or rnd.finished(game):
            return False
        if game.state.pending and game.state.pending != [(DEBT, rnd.corp())]:
            return False
        ours = SITE_STEP_NAMES.get(str(line.get("step", "")).rpartition("::")[2])
        return ours in rnd.steps and rnd.steps.index(ours) < rnd.step

    def followed(self, ctx: SiteContext, action: dict[str, Any]) -> None:
        """Move the site's certificates: those the action named, then the site's own moves.
        Where the lists cannot follow (an export whose moves they do not know), they are
        given up: the import then places certificates by tresham's holdings alone. Then
        the cities' slots, as the site has them (``site_slots.py``)."""
        _slots(ctx).follow(ctx.game.state.map)
        model = _shares(ctx)
        if model is None:
            return
        try:
            self._follow(ctx, model, action)
        except (KeyError, StopIteration, ValueError):
            ctx.memo[SHARES] = LOST

    def _follow(self, ctx: SiteContext, model: SiteShares, action: dict[str, Any]) -> None:
        move = ctx.memo.pop(MOVE, None)
        if move is not None:
            model.moved(ctx.game, *move)
        for seller, sale, old in ctx.memo.pop(BANKRUPTCY, None) or []:
            model.moved(ctx.game, model.sold(seller, sale), POOL, sale.percent, seller, old)
        if action["type"] == "par":
            sym = str(action["corporation"])
            model.move(model.president[sym], ctx.entity(action))
        if action["type"] == "choose" and action.get("choice") == SWAP_TWO_10:
            model.swap_double()
        elif action["type"] == "choose" and action.get("choice") == SWAP_ONE_20:
            model.offered = None
        model.follow(ctx.game)

    def cert_holder(self, ctx: SiteContext, cid: str) -> str | None:
        model = _shares(ctx)
        return None if model is None else model.holder(cid)

    def translate(self, ctx: SiteContext, action: dict[str, Any]) -> list[Action]:
        kind = action["type"]
        _acted_at(ctx, action)
        if kind in ("buy_shares", "sell_shares"):
            self._share_move(ctx, action)
        if kind == "bankrupt":
            ctx.memo[BANKRUPTCY] = bankruptcy_sales(ctx.game, Bankrupt(ctx.entity(action)))
        if kind == "par":
            return [self._par(ctx, action)]
        if kind == "choose":
            return self._choose(ctx, action)
        if kind == "run_routes":
            if not action.get("routes") and not _at_routes(ctx.game, ctx.entity(action)):
                return []  # the site's Route step, open where tresham has nothing to run
            return [self._runs(ctx, action)]
        if kind == "take_loan":
            return [IssueBond(ctx.entity(action))]
        if kind == "payoff_loan":
            return [RepayBond(ctx.entity(action))]
        if kind == "payoff_debt":
            return [PayDebt(self._debtor(ctx))]
        if kind == "buy_token":
            return [self._buy_token(ctx, action)]
        return translate_common(ctx, action)

    def _share_move(self, ctx: SiteContext, action: dict[str, Any]) -> None:
        """Remember the certificates the action names, where they go and who was president,
        for ``followed``."""
        certs = [str(c) for c in action.get("shares") or []]
        if not certs:
            return
        sym = certs[0].rpartition("_")[0]
        entity = ctx.entity(action)
        if action["type"] == "sell_shares":
            to = POOL
        else:
            to = treasury(entity) if entity in ctx.game.state.corps else entity
        old = ctx.game.state.shares.president.get(sym)
        ctx.memo[MOVE] = (certs, to, int(action["percent"]), entity, old)

    def _debtor(self, ctx: SiteContext) -> str:
        """The corporation whose unpaid interest is being covered."""
        owing = ctx.game.title.prompt(DEBT).asked(ctx.game)
        if not owing:
            raise ImportFailure("no corporation owes interest now")
        return owing[0]

    def _buy_token(self, ctx: SiteContext, action: dict[str, Any]) -> BuyStationToken:
        """The token in the site's city and slot (the site's slots: ``site_slots.py``)."""
        corp = ctx.entity(action)
        hex_, city = site_city(ctx, str(action["city"]))
        slots = _slots(ctx).layout.get((hex_, city)) or ctx.game.state.map.slots(hex_, city)
        slot = int(action["slot"])
        seller = slots[slot] if slot < len(slots) else None
        if seller is None:
            raise ImportFailure(f"field slot: no token in slot {slot} of {hex_}")
        return BuyStationToken(corp, hex_, city, seller, int(action["price"]))

    def _par(self, ctx: SiteContext, action: dict[str, Any]) -> Par:
        player = ctx.entity(action)
        sym = str(action["corporation"])
        price = int(str(action["share_price"]).split(",")[0])
        home = None
        if ctx.game.corp(sym).home is None:
            home = self._claim_hex(ctx, sym, ("place_token",))
        started_on_site(ctx, sym)
        return Par(player, sym, price, home)

    def _choose(self, ctx: SiteContext, action: dict[str, Any]) -> list[Action]:
        entity = ctx.entity(action)
        choice = str(action["choice"])
        if choice == SMS_CLOSE:
            return [UseCompany(entity, "SMS", self._sms_hex(ctx, entity))]
        if choice == SMS_DECLINE:
            return []
        if choice.startswith(E_TOKEN_CHOICE):
            return [BuyEToken(entity)]
        if choice in LOAN_CHOICES:
            return [Choose(entity, LOAN_CHOICES[choice])]
        if choice in (SWAP_ONE_20, SWAP_TWO_10):
            return [Choose(entity, choice)]
        raise ImportFailure(f"field choice: tresham cannot translate {choice!r}")

    def _sms_hex(self, ctx: SiteContext, corp: str) -> str:
        """The hex SMS is used for: that of the corporation's lay or token in the Track and
        Token steps that follow the site's "Close SMS" (only passes, private purchases and
        CNM's assignment between). Where it lays and places nothing, the site's SMS names no
        hex and any does for tresham: the first coastal city."""
        for _, later in ctx.upcoming():
            kind, by = later["type"], str(later.get("entity"))
            if kind in ("lay_tile", "place_token") and by == corp:
                if kind == "lay_tile":
                    return str(later["hex"])
                return site_city(ctx, str(later["city"]))[0]
            if not ((kind in ("pass", "buy_company") and by == corp) or kind in SMS_BETWEEN):
                break
        return SMS_HEXES[0]

    def _claim_hex(self, ctx: SiteContext, entity: str, kinds: tuple[str, ...]) -> str:
        """The hex of `entity`'s next token among the following site actions (claimed, so not
        translated again)."""
        for i, later in ctx.upcoming():
            if later["type"] not in kinds or str(later.get("entity")) != entity:
                continue
            ctx.claimed.add(i)
            return site_city(ctx, str(later["city"]))[0]
        raise ImportFailure(f"no following {' or '.join(kinds)} by {entity} names the hex")

    def _runs(self, ctx: SiteContext, action: dict[str, Any]) -> RunRoutes:
        game, corp = ctx.game, ctx.entity(action)
        rules = map_glue.rules_for(game, corp)
        specs = {t.id: t for t in map_glue.corp_trains(game, corp)}
        runs: list[Run] = []
        for route in action.get("routes") or []:
            train = str(route["train"])
            if train not in specs:
                raise ImportFailure(f"{corp} has no train {train}")
            try:
                run = run_from_connections(
                    game.state.map,
                    corp,
                    train,
                    route["connections"],
                    avoid=runs,
                    rules=rules,
                    train_spec=specs[train],
                )
            except RouteError as exc:
                raise ImportFailure(f"route of {train} is not legal here: {exc}") from None
            recorded = int(route["revenue"])
            if run.revenue != recorded:
                raise ImportFailure(
                    f"revenue mismatch: {train} earns L.{run.revenue} here, "
                    f"the site recorded L.{recorded}"
                )
            ctx.runs_retraced += 1
            runs.append(run)
        return runs_action(corp, runs)


def _slots(ctx: SiteContext) -> SiteSlots:
    model = ctx.memo.get(SLOTS)
    if not isinstance(model, SiteSlots):
        model = ctx.memo[SLOTS] = SiteSlots()
    return model


def _acted_at(ctx: SiteContext, action: dict[str, Any]) -> None:
    """Remember the latest step of the operating turn at which the corporation took an action
    other than a pass: the site never goes back to a step before it (random game 3 players
    seed 129 with bonds: CTL buys a train, then issues shares, which pay for another; its
    pass after that is its Buy Companies step's, not its train step's). A token placed ends
    the site's Token step (``G1849::Step::Token#process_place_token`` passes it), which then
    no longer waits after "Close SMS" for a token the corporation still has (random game 5
    players seed 421: IFT closes SMS, places a token in Messina with its others unplaced; its
    pass after that declines to issue shares, ending its turn)."""
    rnd = ctx.game.state.round
    if action["type"] == "pass" or action.get("entity_type") != "corporation":
        return
    if not isinstance(rnd, OperatingRound) or ctx.game.state.pending or rnd.finished(ctx.game):
        return
    if rnd.corp() != str(action.get("entity")):
        return
    turns: dict[SiteTurn, int] = ctx.memo.setdefault(ACTED, {})
    turn = site_turn(ctx.game, rnd.corp())
    turns[turn] = max(turns.get(turn, -1), rnd.step)
    if action["type"] == "place_token":
        ctx.memo.setdefault(SITE_STEPS, {}).setdefault(turn, set()).add("token")


def _at_routes(game: Game, corp: str) -> bool:
    """Whether tresham waits for `corp`'s runs now."""
    rnd = game.state.round
    if not isinstance(rnd, OperatingRound) or game.state.pending or rnd.finished(game):
        return False
    return rnd.corp() == corp and rnd.steps[rnd.step] == "routes"


def _shares(ctx: SiteContext) -> SiteShares | None:
    """The site's certificates as the import has followed them (None: given up)."""
    model = ctx.memo.get(SHARES)
    if model is LOST:
        return None
    if not isinstance(model, SiteShares):
        model = ctx.memo[SHARES] = SiteShares.of(ctx.game)
    return model


ADAPTER: Final = Adapter1849()

#: An operating turn, as the import and the export remember what happened in it: the stock
#: round's number, the operating round's in its set and the corporation.
SiteTurn = tuple[int, int, str]


def site_turn(game: Game, corp: str) -> SiteTurn:
    """`corp`'s operating turn in the operating round now played, whether or not tresham has
    moved on from it: the site's steps may still wait for a corporation whose turn tresham
    has ended (random game 5 players seed 213 with acquiring station tokens: CTL buys ATA's
    token and tresham goes on to ATA's turn at once; CTL's pass after it is its own, and must
    not count as ATA's token-buying step passed: ATA's own pass after its purchase would then
    end its turn)."""
    return game.state.stock_round_no, game.state.or_in_set, corp


def site_train_step_open(game: Game, corp: str, cash: int | None = None) -> bool:
    """Whether the site's train step waits for `corp` (its ``can_buy_train?``): room for a
    train and `cash` (default: its treasury) for the cheapest one the site's ``Depot#min_price``
    counts, which includes an E-train it may not buy without an E-token (where that is all
    it could afford, tresham shows no step and the site waits for a pass), and another
    corporation's train at L.1, an E-train too (random game 3 players seed 145 with electric
    dreams: AFG, L.66 and no E-token, while IFT runs two E-trains)."""
    s = game.state
    c = s.corps[corp]
    if len(c.trains) >= game.phase.limit(c.kind):
        return False
    prices = [s.depot.types[t.kind].price for t in s.depot.purchasable(set(s.phases_reached))]
    others = any(o.trains for sym, o in s.corps.items() if sym != corp and not o.closed)
    prices += [1] if others else []
    if cash is None:
        cash = c.cash + interest_taken(game, corp)
    return bool(prices) and min(prices) <= cash


def interest_taken(game: Game, corp: str) -> int:
    """The bond interest tresham has taken from `corp` in its turn at its (silent) interest
    step, which the site's steps before it have not taken yet: where tresham has passed that
    step and the bond is still out."""
    rnd = game.state.round
    if not isinstance(rnd, OperatingRound) or rnd.finished(game) or rnd.corp() != corp:
        return 0
    if InterestStep.name not in rnd.steps or rnd.step <= rnd.steps.index(InterestStep.name):
        return 0
    return variants.INTEREST if variants.has_bond(game, corp) else 0


def site_token_step_open(game: Game, corp: str) -> bool:
    """Whether the site's Token step waits for `corp` where tresham shows none: after "Close
    SMS" while the corporation has a token left to place (random game 3 players seed 109 with
    bonds: ATA closes SMS, lays and places nothing; the site waits at its Token step)."""
    rnd = game.state.round
    if not isinstance(rnd, OperatingRound):
        return False
    return turn_of(rnd).sms_used and game.state.corps[corp].unplaced_tokens > 0


#: The site steps that may wait for a pass where tresham shows no step, by tresham's step
#: name, with the test of whether the site waits there.
SITE_ONLY: Final[dict[str, Callable[[Game, str], bool]]] = {
    "token": site_token_step_open,
    BuyTokenStep.name: lambda game, corp: bool(tokens_in_reach(game, corp)),
    "trains": site_train_step_open,
}
