"""1849's half of the 18xx.games export (``tresham.io.site_writer``), the reverse of
``site_import.py``.

Only a game played with the rule set ``18xx.games`` and the site's generator can be written:
the site replays the log from the seed, so the corporations' order and every rule must be the
site's. Where the two differ in form:
- AFG's par names its home; the site takes the home as the corporation's token right after.
- SMS used is the corporation's ``choose`` "Close SMS", followed by its lay or token.
- A run is written as the site's hex chains, one per stretch between consecutive stops (the
  ids the import reads, ``routes.network.Chain.hexes``).
- Certificates, tile copies and token slots are named as the site names them: the
  certificates tresham moves (the same ids), the lowest copy of a tile not on the map, the
  slot the token went to.
"""

from __future__ import annotations

import itertools
from typing import Any, Final

from tresham.core.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Choose,
    DiscardTrain,
    Dividend,
    IssueShares,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RedeemShares,
    RunRoutes,
    SellShares,
    UseCompany,
)
from tresham.core.end import EndReason
from tresham.core.game import Game
from tresham.core.graph import track_graph
from tresham.core.rounds.operating import OperatingRound
from tresham.core.rounds.stock import StockRound
from tresham.core.shares import POOL, treasury
from tresham.io.site_writer import AUTO, ExportFailure, SiteAction, WriteContext
from tresham.routes.network import Network, network_of
from tresham.routes.runs import Run, run_revenue
from tresham.titles.t1849 import map_glue, variants
from tresham.titles.t1849.actions import BuyEToken, BuyStationToken, IssueBond, PayDebt, RepayBond
from tresham.titles.t1849.rule_set import SITE
from tresham.titles.t1849.rules import SWAP_ONE_20, SWAP_TWO_10
from tresham.titles.t1849.site_graph import site_graph
from tresham.titles.t1849.site_import import (
    E_TOKEN_CHOICE,
    LOAN_CHOICES,
    SITE_OPTIONS,
    SMS_CLOSE,
    site_train_step_open,
)
from tresham.titles.t1849.site_shares import SiteShares, bankruptcy_sales
from tresham.titles.t1849.site_slots import SiteSlots
from tresham.titles.t1849.state import state_of
from tresham.titles.t1849.variant_steps import InterestStep, tokens_in_reach
from tresham.titles.t1849.variants import BUY_TOKENS

OPTION_RULES: Final = {option: rule for rule, option in SITE_OPTIONS.items()}
CHOICE_WORDS: Final = {ours: site for site, ours in LOAN_CHOICES.items()}
#: The site numbers a tile's parts in the order of its definition; on these preprinted hexes
#: a border comes first, so their city is part 1 (``"C1-0-1"``); everywhere else cities are
#: the first parts.
CITY_AFTER_BORDER: Final = frozenset({"B14", "C1", "C5", "H12", "M13"})
#: memo keys: the site's certificates (SiteShares), the share action being written, the tile
#: copies on the map by hex ("<tile>-<copy>").
SHARES: Final = "shares"
GONE: Final = "gone"
TURN: Final = "turn"
CASH: Final = "cash"
BANKRUPTCY: Final = "bankruptcy"
SLOTS: Final = "slots"
WAKE: Final = "(the corporation closes)"
STOCK_SALE: Final = "stock_sale"
#: tresham's steps whose counterpart on the site stays open after an action taken there (the
#: site's Buy Trains step passes by itself only once it counts no train the corporation
#: could pay for: :func:`site_train_step_open`).
STAYS: Final = ("buy_token", "companies", "trains")
FREE_SLOT: Final = "free_slot"
SMS_ASKED: Final = "sms_asked"
SMS_USED: Final = "sms_used"
SMS_EARLY: Final = "sms_early"
ROUTE_OPEN: Final = "route_open"
OPEN_IN_SR: Final = "open_in_sr"
MOVE: Final = "move"
COPIES: Final = "copies"


class Writer1849:
    """Writes 1849 games."""

    def settings(self, game: Game) -> dict[str, Any]:
        options = game.options
        if options.get("rule_set") != SITE or options.get("rng") != SITE:
            raise ExportFailure(
                "only a game played with the rule set 18xx.games and the site's generator "
                "(options rule_set=18xx.games, rng=18xx.games) can be replayed on 18xx.games"
            )
        rules = sorted(rule for option, rule in OPTION_RULES.items() if options.get(option))
        return {"seed": game.seed, "optional_rules": rules}

    def before(self, ctx: WriteContext, action: Action) -> list[SiteAction]:
        ctx.memo[TURN] = _turn(ctx.game)
        ctx.memo[CASH] = _cash_after(ctx.game, action)
        ctx.memo[STOCK_SALE] = isinstance(action, SellShares) and isinstance(
            ctx.game.state.round, StockRound
        )
        ctx.memo[BANKRUPTCY] = bankruptcy_sales(ctx.game, action)
        ctx.memo[ROUTE_OPEN] = _route_open(ctx.game, action)
        ctx.memo[OPEN_IN_SR] = _open_in_stock_round(ctx.game)
        return _sms_question(ctx, action) + self._action(ctx, action)

    def _action(self, ctx: WriteContext, action: Action) -> list[SiteAction]:
        entity, kind = ctx.entity(action.entity)
        base: SiteAction = {"entity": entity, "entity_type": kind}
        game = ctx.game
        if isinstance(action, Pass):
            if _passes_by_itself(game):
                return []
            return [{"type": "pass", **base}]
        if isinstance(action, Bid):
            return [{"type": "bid", **base, "company": action.company, "price": action.price}]
        if isinstance(action, Par):
            return self._par(ctx, action, base)
        if isinstance(action, BuyShares | SellShares | IssueShares | RedeemShares):
            return _share_action(ctx, action, base)
        if isinstance(action, LayTile):
            copy = _tile_copy(ctx, action)
            return [
                {
                    "type": "lay_tile",
                    **base,
                    "hex": action.hex,
                    "tile": copy,
                    "rotation": action.rotation,
                }
            ]
        if isinstance(action, RunRoutes):
            return [{"type": "run_routes", **base, "routes": _routes(game, action)}]
        if isinstance(action, Dividend):
            return [{"type": "dividend", **base, "kind": action.kind}]
        if isinstance(action, BuyTrain):
            train = game.state.depot.trains[action.train]
            variant = action.variant or train.variant or train.kind
            return [
                {
                    "type": "buy_train",
                    **base,
                    "train": action.train,
                    "price": action.price,
                    "variant": variant,
                }
            ]
        if isinstance(action, DiscardTrain):
            return [{"type": "discard_train", **base, "train": action.train}]
        if isinstance(action, BuyCompany):
            return [
                {"type": "buy_company", **base, "company": action.company, "price": action.price}
            ]
        if isinstance(action, UseCompany):
            if action.company == "SMS":
                rnd = game.state.round
                turn = (id(rnd), rnd.index) if isinstance(rnd, OperatingRound) else None
                if ctx.memo.get(SMS_EARLY) == turn:
                    return []  # written before CNM's assignment (_sms_question)
                return [{"type": "choose", **base, "choice": SMS_CLOSE}]
            return [
                {
                    "type": "assign",
                    "entity": action.company,
                    "entity_type": "company",
                    "target": action.target,
                    "target_type": "hex",
                }
            ]
        if isinstance(action, Choose):
            return [
                {"type": "choose", **base, "choice": CHOICE_WORDS.get(action.choice, action.choice)}
            ]
        if isinstance(action, Bankrupt):
            return [{"type": "bankrupt", **base}]
        if isinstance(action, IssueBond):
            return [{"type": "take_loan", **base, "loan": 0}]
        if isinstance(action, RepayBond):
            return [{"type": "payoff_loan", **base, "loan": 0}]
        if isinstance(action, PayDebt):
            president = game.state.shares.president.get(action.entity)
            pid, ptype = ctx.entity(str(president))
            return [{"type": "payoff_debt", "entity": pid, "entity_type": ptype}]
        if isinstance(action, BuyEToken):
            price = _e_token_price(game)
            return [{"type": "choose", **base, "choice": f"{E_TOKEN_CHOICE}L.{price}"}]
        if isinstance(action, BuyStationToken):
            slot = _slots(ctx).slot((action.hex, action.city), action.seller)
            return [
                {
                    "type": "buy_token",
                    **base,
                    "city": _city_ref(ctx, action.hex, action.city),
                    "slot": slot,
                    "price": action.price,
                }
            ]
        if isinstance(action, PlaceToken):
            slots = game.state.map.slots(action.hex, action.city)
            ctx.memo[FREE_SLOT] = slots.index(None) if None in slots else 0
            return []  # written once placed (`after`): the slot it took
        raise ExportFailure(f"the site has no action for {action.describe()}")

    def after(self, ctx: WriteContext, action: Action) -> list[SiteAction]:
        _follow_shares(ctx, action)
        _follow_tiles(ctx)
        _slots(ctx).follow(ctx.game.state.map)
        return self._placed(ctx, action) + _turn_end_passes(ctx, action) + _wake(ctx, action)

    def _placed(self, ctx: WriteContext, action: Action) -> list[SiteAction]:
        if isinstance(action, PlaceToken):
            slots = ctx.game.state.map.slots(action.hex, action.city)
            free = ctx.memo.pop(FREE_SLOT, 0)  # where it went if it is gone already (closed)
            return [
                {
                    "type": "place_token",
                    "entity": action.entity,
                    "entity_type": "corporation",
                    "city": _city_ref(ctx, action.hex, action.city),
                    "slot": slots.index(action.entity) if action.entity in slots else free,
                }
            ]
        if isinstance(action, Par) and action.home is not None:
            home = action.home
            node = next(k for k in ctx.game.state.map.tokens_of(action.corporation) if k[0] == home)
            slots = ctx.game.state.map.slots(*node)
            return [
                {
                    "type": "place_token",
                    "entity": action.corporation,
                    "entity_type": "corporation",
                    "city": _city_ref(ctx, home, node[1]),
                    "slot": slots.index(action.corporation),
                }
            ]
        return []

    def _par(self, ctx: WriteContext, action: Par, base: SiteAction) -> list[SiteAction]:
        market = ctx.game.state.market.market
        row, col = next(
            pos for pos in market.positions_at_price(action.price) if _par_cell(market, pos)
        )
        return [
            {
                "type": "par",
                **base,
                "corporation": action.corporation,
                "share_price": f"{action.price},{row},{col}",
            }
        ]


def _passes_by_itself(game: Game) -> bool:
    """Whether the site moves past tresham's pass by itself, the entity having nothing else
    to do: a player in a stock round (having bought, the turn ends), a corporation at the
    end-of-turn private purchase (its step closes once nothing can be bought)."""
    rnd = game.state.round
    if not isinstance(rnd, StockRound) and not _at_companies(game):
        return False
    return all(isinstance(a, Pass) for a in game.legal_actions())


def _at_companies(game: Game) -> bool:
    rnd = game.state.round
    if not isinstance(rnd, OperatingRound) or game.state.pending or rnd.finished(game):
        return False
    return rnd.steps[rnd.step] == "companies"


def _par_cell(market: Any, pos: tuple[int, int]) -> bool:
    return any(c.pos == pos for c in market.par_cells())


Turn = tuple[int, int, int, tuple[str, ...], tuple[str, ...]]


def _turn(game: Game) -> Turn | None:
    """Where an operating round is: (its object id, the corporation's place in the order,
    the step's index, the order, the steps)."""
    rnd = game.state.round
    if not isinstance(rnd, OperatingRound) or game.state.finished:
        return None
    return id(rnd), rnd.index, rnd.step, tuple(rnd.order), tuple(rnd.steps)


def _wake(ctx: WriteContext, action: Action) -> list[SiteAction]:
    """A chat line after a stock-round sale that closed the corporation: the site's stock
    round stalls there (its active step is remembered from before the closure) until the
    next action of any kind, and a message is one that changes nothing. Only a sale made in
    the stock round stalls it (one that ended the round at once, ruling S27, leaves none to
    stall): an emergency sale that closes the corporation and ends the
    operating round leaves the new stock round awake, and the seller's message would be
    the corporation's, which the site refuses (random game 3 players seed 143: AFG's
    president sells its last 20% to pay for a train). Also one after a pass that ends the
    game where the end of its stock round closed a corporation (its price entered the
    "Closed" box): the site moves prices at the end of a stock round after its check for
    closures, so it closes that corporation only after its next action, and without one its
    game would wait for that corporation's turn (random game 5 players seed 142: RCS enters
    the box as the stock round the site plays by itself ends; tresham, with nothing left to
    run, ends the game)."""
    s = ctx.game.state
    stock_sale = ctx.memo.pop(STOCK_SALE, False)
    was_open = ctx.memo.pop(OPEN_IN_SR, frozenset())
    closing_sale = (
        stock_sale and isinstance(action, SellShares) and action.corporation not in s.market
    )
    closing_end = s.finished and isinstance(action, Pass)
    closing_end = closing_end and any(not s.corps[sym].floated for sym in was_open)
    if not (closing_sale and isinstance(s.round, StockRound)) and not closing_end:
        return []
    entity, kind = ctx.entity(action.entity)
    return [{"type": "message", "entity": entity, "entity_type": kind, "message": WAKE}]


def _open_in_stock_round(game: Game) -> frozenset[str]:
    """The corporations open (floated) during a stock round (none in another round)."""
    if not isinstance(game.state.round, StockRound):
        return frozenset()
    return frozenset(sym for sym, corp in game.state.corps.items() if corp.floated)


def _sms_question(ctx: WriteContext, action: Action) -> list[SiteAction]:
    """The site asks a corporation that owns SMS, before its first lay or token of the turn,
    whether it closes SMS; tresham's corporation just uses it. The corporation's first action
    at its track step while it owns SMS (also right after buying it) is preceded by the site's
    "Pass" where it is not SMS's use. A private bought first is not such an action: the site's
    Buy Companies step comes before its SMS question and takes the purchase while the question
    is open, which stays open after it (random game 4 players seed 101: IFT buys SIGI, then
    closes SMS). Nor is CNM's assignment where the corporation closes SMS after it, before
    any lay or token: the site's question comes before CNM's step, so its "Close SMS" is
    written before the assignment (random game 3 players seed 106: AFG assigns CNM, then
    closes SMS to build in Catania), and the import takes the lay after it for SMS's."""
    game = ctx.game
    rnd = game.state.round
    if not isinstance(rnd, OperatingRound) or game.state.pending or rnd.index >= len(rnd.order):
        return []
    if isinstance(action, BuyCompany):
        return []
    corp = rnd.corp()
    if action.entity != corp or ctx.memo.get(SMS_ASKED) == (id(rnd), rnd.index):
        return []
    sms = game.state.companies.get("SMS")
    if sms is None or sms.owner != corp or sms.closed:
        return []  # it may buy SMS first and be asked then
    ctx.memo[SMS_ASKED] = (id(rnd), rnd.index)
    if rnd.steps[rnd.step] != "track":
        return []  # past its track step: the site asks no more
    if isinstance(action, UseCompany) and action.company == "SMS":
        ctx.memo[SMS_USED] = (id(rnd), rnd.index)
        return []
    choice = "Pass"
    if isinstance(action, UseCompany) and _closes_sms_next(ctx, corp):
        ctx.memo[SMS_USED] = ctx.memo[SMS_EARLY] = (id(rnd), rnd.index)
        choice = SMS_CLOSE
    return [{"type": "choose", "entity": corp, "entity_type": "corporation", "choice": choice}]


def _closes_sms_next(ctx: WriteContext, corp: str) -> bool:
    """Whether the corporation's next actions after this one, before any other kind, include
    closing SMS (only private purchases and uses between)."""
    for later in ctx.log[ctx.at + 1 :]:
        if later.entity != corp or not isinstance(later, UseCompany | BuyCompany):
            return False
        if isinstance(later, UseCompany) and later.company == "SMS":
            return True
    return False


def _turn_end_passes(ctx: WriteContext, action: Action) -> list[SiteAction]:
    """The passes the site waits for at steps tresham moved past by itself: every step
    between where the action was taken and where tresham waits now (the rest of a turn
    that ended, the first steps of the next corporation's), and the action's own step where
    the site stays there after it (:func:`_site_waits`). A game over takes no action, not
    even a pass (the site: GameIsOver), except where tresham's game ends with the turn that
    action was taken in: the site ends a broken bank's game only once its round is over (its
    1849 game's ``end_now?`` at :full_or) and a full market's once that corporation's turn
    is over (its 1849 operating round's ``next_entity!``), so it still waits at the steps of
    that round (or turn) tresham moved past (random game 4 players seed 351: IFT's payout
    leaves L.0, tresham skips the rest of its turn and ends the game with the bank broken;
    the site's Buy Token step of acquiring_station_tokens waits for IFT's pass)."""
    was = ctx.memo.pop(TURN, None)
    game = ctx.game
    if was is None:
        return []
    finished = game.state.finished
    if finished and game.state.end_reason not in (EndReason.BANK, EndReason.STOCK_MARKET):
        return []
    now = _turn(game)
    rid, index, step, order, steps = was
    stops: list[tuple[int, int]] = []  # (place in the order, step) the site may wait at
    end = (now[1], now[2]) if now is not None and now[0] == rid else (len(order), 0)
    last = state_of(game).end_after
    if finished and game.state.end_reason == EndReason.STOCK_MARKET and last in order:
        end = min(end, (order.index(last) + 1, 0))  # the site's game ends with that turn
    taken_here = not isinstance(action, Pass) and index < len(order) and steps[step] in STAYS
    if taken_here and (index, step) < end:
        stops.append((index, step))
    at = (index, step + 1)
    while at < end:
        i, k = at
        if k >= len(steps):
            at = (i + 1, 0)
            continue
        stops.append(at)
        at = (i, k + 1)
    out = []
    route_open = ctx.memo.pop(ROUTE_OPEN, None)
    for i, k in stops:
        corp = order[i] if i < len(order) else None
        mine = route_open is not None and route_open[0] == corp and corp is not None
        if mine and steps[k] in ("token", "routes"):  # as the site saw them (it may close)
            assert route_open is not None and corp is not None
            if steps[k] == "routes" and route_open[1]:
                out.append(_no_run(corp))
            sms = ctx.memo.get(SMS_USED) == (rid, i)
            if steps[k] == "token" and sms and route_open[2] > 0:
                out.append({"type": "pass", "entity": corp, "entity_type": "corporation"})
            continue
        if corp is None or corp not in game.state.corps or not game.state.corps[corp].floated:
            continue  # closed in the meantime
        sms = ctx.memo.get(SMS_USED) == (rid, i)
        cash = game.state.corps[corp].cash
        cash += _interest_after(game, corp, steps, k, [s for j, s in stops if j == i])
        if now is None or now[0] != rid:  # the round ended: its cash then, before any income
            cash = ctx.memo.get(CASH, {}).get(corp, cash)
        if _site_waits(game, corp, steps[k], sms, cash):
            if steps[k] == "routes":
                out.append(_no_run(corp))
                continue
            out.append({"type": "pass", "entity": corp, "entity_type": "corporation"})
            if steps[k] == "buy_token" and not tokens_in_reach(game, corp):
                out[-1][AUTO] = True  # the site's step passes by itself
            elif (now is None or now[0] != rid) and corp == game.active_entity():
                # the corporation's next turn has begun in tresham (it operates first in the
                # next round): its last pass of this one goes with the action, so that no
                # reader takes it for a pass of the new turn
                out[-1][AUTO] = True
    return out


def _no_run(corp: str) -> SiteAction:
    """The site's empty run where its Route step is open and tresham found no run."""
    return {"type": "run_routes", "entity": corp, "entity_type": "corporation", "routes": []}


def _route_open(game: Game, action: Action) -> tuple[str, bool, int] | None:
    """For the operating corporation's lay, token or pass: whether the site's Route step opens
    once it is taken (a train, and two stops met by the site's walk), and the tokens it has
    left to place, read before tresham plays on past them (it may close at its dividend)."""
    rnd = game.state.round
    if not isinstance(rnd, OperatingRound) or game.state.pending or rnd.finished(game):
        return None
    corp = rnd.corp()
    if action.entity != corp or not isinstance(action, LayTile | PlaceToken | Pass):
        return None
    trial = game.state.map
    if isinstance(action, LayTile):
        trial = trial.copy()
        trial.lay_tile(action.hex, action.tile, action.rotation, check=False)
    elif isinstance(action, PlaceToken):
        trial = trial.copy()
        trial.place_token(corp, action.hex, action.city)
    trains = bool(game.state.depot.owned_by(corp))
    left = game.state.corps[corp].unplaced_tokens - isinstance(action, PlaceToken)
    return corp, trains and site_graph(trial, corp).route_available, left


def _cash_after(game: Game, action: Action) -> dict[str, int]:
    """Each corporation's treasury once an operating-round action is taken, before the
    rounds move on (read on a copy: a round the action ends has paid no income of the next
    yet). What the action itself spends counts: a token bought with the last of its money
    leaves nothing for the site's later steps (random game 3 players seed 103: CTL's L.668
    for RCS's token in Trapani ends the round), nor does a tile's terrain cost (random game 3
    players seed 120: ATA's L.40 for L12 leaves L.66, short of a 4H; the site's train step
    passes by itself)."""
    if not isinstance(game.state.round, OperatingRound) or game.state.finished:
        return {}
    trial = game.search_copy()
    trial.title.process(trial, action)
    return {sym: c.cash for sym, c in trial.state.corps.items()}


def _interest_after(
    game: Game, corp: str, steps: tuple[str, ...], k: int, passed: list[int]
) -> int:
    """The bond interest tresham took from `corp` at a step after step `k` within the same
    action (its interest step is silent: passed on the way to where tresham waits now in the
    same round; a round that ended reads the treasury before it, `_cash_after`), which
    the site's step `k` has not taken yet (random game 3 players seed 145 with electric dreams:
    AFG passes its token purchase with L.17; tresham takes L.50 interest at once, the site
    still waits at Buy Trains, where L.17 buys IFT's E-train at L.1)."""
    interest = steps.index(InterestStep.name) if InterestStep.name in steps else -1
    if interest <= k or interest not in passed or not variants.has_bond(game, corp):
        return 0
    return variants.INTEREST


def _site_waits(game: Game, corp: str, step: str, sms_used: bool, cash: int) -> bool:
    """Whether the site waits for `corp` at its counterpart of tresham's `step`, which
    tresham moved past (`sms_used`: the corporation closed SMS this turn; `cash`: its
    treasury at the end of its turn)."""
    if step == "token":
        return sms_used and game.state.corps[corp].unplaced_tokens > 0
    if step == "companies":
        return _companies_step_waits(game, corp, cash)
    if step == "routes":  # the site's Route step is open where its walk meets two stops
        return (
            bool(game.state.depot.owned_by(corp))
            and site_graph(game.state.map, corp).route_available
        )
    if step == "trains":  # the site counts an E-train it may not buy (no E-token)
        return site_train_step_open(game, corp, cash)
    if step == "buy_token":  # an auto pass where no token is in reach (`_turn_end_passes`)
        return bool(game.options.get(BUY_TOKENS))
    return False


def _companies_step_waits(game: Game, corp: str, cash: int) -> bool:
    """The site's last step, Buy Companies, stays open while the corporation could buy a
    private (phases 6H-10H, a player's private other than RSA, L.1 to spend) or owns CNM,
    whose power it may still use."""
    s = game.state
    players = {p.name for p in s.players}
    owns = [c for c in s.companies.values() if c.owner == corp and not c.closed]
    if any(c.sym == "CNM" for c in owns):
        return True
    if game.phase.name not in ("6H", "8H", "10H") or cash < 1:
        return False
    return any(c.owner in players and c.sym != "RSA" and not c.closed for c in s.companies.values())


def _slots(ctx: WriteContext) -> SiteSlots:
    model = ctx.memo.get(SLOTS)
    if not isinstance(model, SiteSlots):
        model = ctx.memo[SLOTS] = SiteSlots()
    return model


def _shares(ctx: WriteContext) -> SiteShares:
    model = ctx.memo.get(SHARES)
    if not isinstance(model, SiteShares):
        model = ctx.memo[SHARES] = SiteShares.of(ctx.game)
    return model


def _share_action(
    ctx: WriteContext,
    action: BuyShares | SellShares | IssueShares | RedeemShares,
    base: SiteAction,
) -> list[SiteAction]:
    """A purchase or sale naming the site's certificates (and remembered, for `after`)."""
    game, model = ctx.game, _shares(ctx)
    reg = game.state.shares
    if isinstance(action, BuyShares):
        holder = treasury(action.corporation) if action.source == "treasury" else POOL
        certs = [_bought(model, holder, action.corporation, action.percent)]
        kind, sym, seller, to = "buy_shares", action.corporation, holder, action.entity
    elif isinstance(action, RedeemShares):
        sym = action.entity
        certs = _plain(model, POOL, sym, action.percent)
        kind, seller, to = "buy_shares", POOL, treasury(sym)
    elif isinstance(action, IssueShares):
        sym = action.entity
        certs = _plain(model, treasury(sym), sym, action.percent)
        kind, seller, to = "sell_shares", treasury(sym), POOL
    else:
        sym, seller = action.corporation, action.entity
        if seller in game.state.corps:  # the president raising money for its train
            seller = str(reg.president.get(seller))
            entity, etype = ctx.entity(seller)
            base = {"entity": entity, "entity_type": etype}
        certs = model.sold(seller, action)
        kind, to = "sell_shares", POOL
    ctx.memo[MOVE] = (sym, seller, to, certs, action.percent, reg.president.get(sym))
    return [{"type": kind, **base, "shares": certs, "percent": action.percent}]


def _bought(model: SiteShares, holder: str, sym: str, percent: int) -> str:
    """The certificate of that size the holder has first, not the president's; one that
    only actions moved before one the site moved by itself (which an import could not
    place)."""
    pres = model.president.get(sym)
    fits = [c for c in model.held(holder, sym) if model.percent[c] == percent]
    if not fits:
        raise ExportFailure(f"no {percent}% certificate of {sym} to buy")
    return min(fits, key=lambda c: (c == pres, c in model.moved_by_site))


def _plain(model: SiteShares, holder: str, sym: str, percent: int) -> list[str]:
    """Certificates of the holder adding up to `percent`, first ones first (the 20% last
    one only as the holder's last)."""
    pres, last = model.president.get(sym), model.last.get(sym)
    cids = [c for c in model.held(holder, sym) if c != pres]
    order = [c for c in cids if c != last] + [c for c in cids if c == last]
    out: list[str] = []
    total = 0
    for cid in order:
        if total >= percent:
            break
        if total + model.percent[cid] > percent:
            continue
        out.append(cid)
        total += model.percent[cid]
    if total != percent:
        raise ExportFailure(f"no certificates of {sym} make {percent}%")
    return out


def _follow_shares(ctx: WriteContext, action: Action) -> None:
    """Move the certificates as the site did (the named ones, then its own moves), and
    follow tresham's holdings where nothing else says which certificates moved."""
    game, model = ctx.game, _shares(ctx)
    if isinstance(action, Par):
        model.move(model.president[action.corporation], action.entity)
    move = ctx.memo.pop(MOVE, None)
    if move is not None:
        _sym, seller, to, certs, percent, old = move
        model.moved(game, certs, to, percent, seller, old)
    for seller, sale, old in ctx.memo.pop(BANKRUPTCY, None) or []:
        model.moved(game, model.sold(seller, sale), POOL, sale.percent, seller, old)
    if isinstance(action, Choose):
        if action.choice == SWAP_TWO_10:
            model.swap_double()
        elif action.choice == SWAP_ONE_20:
            model.offered = None
    model.follow(game)


def _follow_tiles(ctx: WriteContext) -> None:
    """A tile the map lost other than by an upgrade leaves the game, as on the site: the
    Messina earthquake puts B14's preprinted tile back, and its tile is gone for good."""
    copies: dict[str, str] = ctx.memo.setdefault(COPIES, {})
    gone: set[str] = ctx.memo.setdefault(GONE, set())
    laid = ctx.game.state.map.tiles
    for hex_, copy in list(copies.items()):
        if hex_ not in laid or laid[hex_][0] != copy.rpartition("-")[0]:
            gone.add(copies.pop(hex_))


def _tile_copy(ctx: WriteContext, action: LayTile) -> str:
    """The site's id of the tile laid: the lowest copy of that tile not on the map (nor gone
    from the game)."""
    copies: dict[str, str] = ctx.memo.setdefault(COPIES, {})
    used = {c for h, c in copies.items() if h != action.hex} | ctx.memo.setdefault(GONE, set())
    n = 0
    while f"{action.tile}-{n}" in used:
        n += 1
    copies[action.hex] = f"{action.tile}-{n}"
    return copies[action.hex]


def _city_ref(ctx: WriteContext, hex_: str, node: int) -> str:
    """The site's city reference: ``"<tile id>-<city index>"`` (a preprinted hex's tile id
    is ``"<hex>-0"``)."""
    copies: dict[str, str] = ctx.memo.setdefault(COPIES, {})
    nodes = ctx.game.state.map.tile(hex_).nodes
    cities = [i for i, n in enumerate(nodes) if n.kind == "city"]
    part = cities.index(node)
    if hex_ not in copies:
        return f"{hex_}-0-{part + (hex_ in CITY_AFTER_BORDER)}"
    return f"{copies[hex_]}-{part}"


def _routes(game: Game, action: RunRoutes) -> list[dict[str, Any]]:
    """The runs as the site's routes: hex chains per stretch, the stops' hexes, revenue."""
    state = game.state.map
    corp = action.entity
    graph = track_graph(state)
    network = network_of(state, corp)
    index = {k: i for i, k in enumerate(network.stops)}
    rules = map_glue.rules_for(game, corp)
    specs = {t.id: t for t in map_glue.corp_trains(game, corp)}
    out = []
    for spec in action.runs:
        stops = [_key(s) for s in spec.stops]
        track = [graph.pid[_key(t)] for t in spec.track]
        connections: list[list[str]] = []
        pos = 0
        for a, b in itertools.pairwise(stops):
            chain = _stretch(network, index[a], index[b], track, pos)
            if chain is None:
                raise ExportFailure(f"run of {spec.train}: no track from {a} to {b}")
            connections.append(chain[0])
            pos += chain[1]
        run = Run(spec.train, tuple(stops), tuple(_key(t) for t in spec.track))
        revenue = run_revenue(state, corp, specs[spec.train], run, rules)
        out.append(
            {
                "train": spec.train,
                "connections": connections,
                "hexes": [h for h, _ in stops],
                "revenue": revenue,
            }
        )
    return out


def _stretch(
    network: Network, a: int, b: int, track: list[int], pos: int
) -> tuple[list[str], int] | None:
    """The hexes of the chain from stop `a` to stop `b` the run's track takes at `pos` (in
    travel order), and its length in paths."""
    for ch in network.chains:
        size = len(ch.pids)
        here = tuple(track[pos : pos + size])
        if (ch.a, ch.b) == (a, b) and here == ch.pids:
            return list(ch.hexes), size
        if (ch.b, ch.a) == (a, b) and here == tuple(reversed(ch.pids)):
            return list(reversed(ch.hexes)), size
    return None


def _key(text: str) -> tuple[str, int]:
    coord, _, idx = text.rpartition("-")
    return coord, int(idx)


def _e_token_price(game: Game) -> int:
    return variants.e_token_cost(game)


WRITER: Final = Writer1849()
