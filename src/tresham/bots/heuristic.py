"""Heuristic players for every title: `easy` and `medium`.

Both score every legal action with rules of thumb an 18xx player uses (below) and play the
best. `easy` adds noise among its best choices and never looks ahead (about a millisecond a
decision). `medium` is deterministic and looks one step ahead where it matters: for share
purchases, sales and starts it plays each candidate on a search copy
(:meth:`Game.search_copy`) and keeps the one that most raises its standing
(``bots/evaluate.py``: its expected worth less the best opponent's), but never where its rules'
best choice is a train or an issue of shares (one step cannot see the train a sale or a
smaller issue leaves unbought).

Rules of thumb:

- **Auction**: buy the private on offer at its price when it pays (never above face value plus
  a few rounds of its revenue); bid on another only at the minimum and when it is cheap for
  what it pays; retract bids that were outbid.
- **Stock round**: (`medium`) never buy a rival corporation's share whose price pays for the
  next train in the bank when that train rusts trains of a corporation the bot presides; start
  the next corporation whenever it can be started properly (as real
  1849 players do: one each in the first stock round, the rest as soon as the game is past
  its first phase, at its highest par): at the highest par at which the president can buy
  the president's certificate, and never one that could not buy its first train (the cheap
  ones left go to the corporations already waiting) with its treasury and what its president
  can still put in (`medium` also weighs each home's prospects on the printed board, chooses
  the best and leaves a poor one to others); buy into its own corporations first (to keep
  control), then the ones that earn most for their price; sell shares of corporations that
  earn nothing (never its own presidency unless the corporation is doomed); pass when
  nothing helps.
- **Operating round**: lay a tile that adds a city or town and brings more of them within
  reach (`medium` tries the best with the optimizer, a corporation without a train as if it
  had its first); a corporation that has no run yet builds toward the nearest city or town
  (`medium`), and never spends the money for its first train on track (nor, short of it, any
  money); place a station where the most revenue is; run the optimizer's runs; pay out
  unless the treasury needs the money for a train it must buy and a few withholds pay for
  it, or one withheld revenue pays for the next, longer train in the bank (which also brings
  the next phase on; two when that train rusts rivals' trains and spares its own), and never
  withhold a price into closing (`medium` too: one step ahead cannot see that a withhold
  only postpones what a payout brings, such as 1854's split); buy a train when the
  corporation has none, or room and money and the train is of a newer type than its best, or
  another one (each hastens the phases); never buy a rival's train by offer unless it has
  none; issue shares only to afford a train it must have or that next train, and never so
  many that the price falls into closing (for the next train, nor near it).
- **Privates**: a corporation buys one only from its own president, at face value or more.
- **Prompts**: accept an offer only at its face value or more; discard the weakest train; take
  a first loan rather than leave, but leave rather than take a second; otherwise the first
  answer.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from tresham.bots import evaluate
from tresham.core import deals
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
from tresham.core.deals import ACCEPT, DECLINE
from tresham.core.errors import RuleError
from tresham.core.game import Game
from tresham.core.graph import reach
from tresham.core.rounds.operating import OperatingRound
from tresham.core.rules_protocols import TrainSpec
from tresham.core.tiles import CITY, OFFBOARD, TOWN
from tresham.routes import RouteSolution, solve

#: Action types whose candidates `medium` plays on a search copy.
LOOKAHEAD = (BuyShares, SellShares, Par, IssueShares, RedeemShares, Pass)
#: How many of the best-scored candidates `medium` looks ahead on.
LOOKAHEAD_WIDTH = 6
#: Scores at or below this are never looked ahead on (the rules of thumb rule them out).
VETO = -10.0
#: A best score at or above this is played without looking ahead (a rule of thumb that
#: plans beyond the next step, such as saving for a train, which an evaluation of the
#: position after one action cannot see).
SURE = 50.0
#: A corporation withholds to save for a train it must have only when this many withheld
#: revenues pay for it (else withholding only walks its price towards closing).
SAVE_ROUNDS = 3
#: A corporation withholds to save, or issues shares, only while its share price stays more
#: than this many withholds from closing (the dividends it keeps and the shares it sells
#: must not be what closes it).
SAFE_FALLS = 4
#: A corporation saves this many withheld revenues for the next train when that train rusts
#: rivals' trains and spares its own (timing the rusting of rivals' trains).
RUST_ROUNDS = 2
#: The optimizer work (runs examined and combinations tried, about 6.5 ms a thousand on this
#: machine) after which `_build_ahead` tries no more candidates.
BUILD_WORK = 30_000
#: The most corporations a bot starts and presides at once.
MAX_PRESIDENCIES = 3

#: A legal action with its score and its place in the legal list.
Scored = tuple[float, int, Action]


@dataclass
class HeuristicBot:
    """A rule-of-thumb player; `noise` (easy) picks among the near-best at random;
    `build_width` of the best-scored lays and stations are tried on search copies, with the
    route optimizer when `optimize`."""

    name: str
    noise: float
    lookahead: bool
    build_width: int
    optimize: bool = True

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The bot's action for the entity to act."""
        return self.decide(game, rng)[0]

    def decide(self, game: Game, rng: random.Random) -> tuple[Action, list[Scored]]:
        """The bot's action, and every legal action with its score, best first (none when
        only one action is legal): what a search (``bots/search.py``) starts from."""
        actions = game.legal_actions()
        if not actions:
            raise RuntimeError("no legal action for the active entity")
        if len(actions) == 1:
            return actions[0], []
        me = game.acting_player() or ""
        scored = [(self._score(game, me, a), i, a) for i, a in enumerate(actions)]
        scored.sort(key=lambda t: (-t[0], t[1]))
        best = self._build_ahead(game, scored)
        rules_train = isinstance(scored[0][2], BuyTrain | IssueShares)
        if best is None and self.lookahead and scored[0][0] < SURE and not rules_train:
            best = self._look_ahead(game, me, scored)
        if best is not None:
            return best, scored
        if self.noise > 0:
            top = scored[0][0]
            near = [a for s, _, a in scored if s >= top - self.noise * max(1.0, abs(top))]
            return _own_price(game, rng.choice(near[:3])), scored
        return _own_price(game, scored[0][2]), scored

    # ------------------------------------------------------------------ lookahead
    def _build_ahead(self, game: Game, scored: list[Scored]) -> Action | None:
        """Among the best-scored tile lays and stations, each tried on a search copy: with
        `optimize`, the one after which the operating corporation's trains earn most (the
        optimizer's runs; a corporation without a train as if it had the cheapest on sale)
        less a tenth of what it costs, runs equal going to the one that brings more cities
        and towns within reach (:func:`_connection`), and when none gives a run yet, the one
        that brings its track nearest one; without `optimize` (`easy`), the best-scored that
        brings most within reach. Never one that leaves a corporation without a train unable
        to buy one. None when neither is to choose. Once the optimizer has done `BUILD_WORK`
        of work on two or more candidates, the rest are not tried (late in a game, long trains
        on a full map): a bound on a decision's time that depends only on the position."""
        cands = [a for _, _, a in scored if isinstance(a, LayTile | PlaceToken)]
        cands = cands[: self.build_width]
        if len(cands) < 2 or cands[0].entity not in game.state.corps:
            return None
        corp = cands[0].entity
        scores = {id(a): sc for sc, _, a in scored}
        tried: list[tuple[float, int, Game, Action]] = []
        cash = game.state.corps[corp].cash
        spent = 0  # the optimizer's work so far
        for action in cands:
            if spent >= BUILD_WORK and len(tried) >= 2:
                break
            work = game.search_copy()
            try:
                work.apply_known(action)
                if work.state.corps[corp].cash < cash and _spends_train_money(work, corp):
                    continue
                if self.optimize:
                    runs = _earning_power(work, corp)
                    spent += runs.work
                    revenue: float = runs.revenue
                else:
                    revenue = scores[id(action)] + _connection(work, corp) / 2
            except Exception:
                continue
            tried.append((revenue, cash - work.state.corps[corp].cash, work, action))
        if not tried:
            # every build pays from the money for its first train: build nothing
            return next((a for _, _, a in scored if isinstance(a, Pass)), None)
        if not self.optimize:
            return max(tried, key=lambda t: t[0] - t[1] / 100)[3]
        if max(t[0] for t in tried) == 0:
            # no candidate gives a run yet: build toward one
            return max(tried, key=lambda t: _connection(t[2], corp) - t[1] / 100)[3]
        # equal runs now: the lay that brings more cities and towns within reach
        return max(tried, key=lambda t: t[0] - t[1] / 10 + _connection(t[2], corp))[3]

    def _look_ahead(self, game: Game, me: str, scored: list[Scored]) -> Action | None:
        """Among the best-scored candidates of the kinds that move money or shares, the one
        whose result most raises `me`'s standing (None: leave it to the scores)."""
        cands = [
            (s, a)
            for s, _, a in scored
            if isinstance(a, LOOKAHEAD) and s > VETO and deals.offer_for(game, a) is None
        ]
        if len(cands) < 2:
            return None
        cands = cands[:LOOKAHEAD_WIDTH]
        best: tuple[float, Action] | None = None
        for s, action in cands:
            work = game.search_copy()
            try:
                work.apply_known(action)
            except Exception:
                continue
            value = evaluate.standing(work, me) + 0.01 * s
            if best is None or value > best[0]:
                best = (value, action)
        return None if best is None else best[1]

    # ------------------------------------------------------------------ scores
    def _score(self, game: Game, me: str, action: Action) -> float:
        scorer = SCORERS.get(type(action))
        if scorer is not None:
            score = scorer(game, me, action)
            if self.lookahead and isinstance(action, Par) and score > VETO:
                prospect = _prospect(game, action)
                if prospect < POOR_PROSPECT:
                    # a poor home: buy into others' (but when none has started, or it is the
                    # only corporation on offer and too few run, someone must)
                    return VETO if _running(game) and not _must_start(game, action) else 1.0
                score += prospect / 5
            if (
                self.lookahead
                and isinstance(action, BuyShares)
                and score > VETO
                and _funds_rusting(game, me, action)
            ):
                return VETO  # a rival's money for the train that rusts its own
            return score
        if isinstance(action, Pass):
            return 0.0
        return TITLE_ACTIONS.get(action.type, 1.0)  # a title's own action: worth a try


# ====================================================================== scorers
def _face(game: Game, company: str) -> int:
    return game.state.companies[company].value


def _bid(game: Game, me: str, a: Action) -> float:
    """Buy the private on offer when it pays for itself; bid only at the minimum on a cheap
    one."""
    assert isinstance(a, Bid)
    comp = game.state.companies[a.company]
    worth = comp.value + 3 * comp.revenue
    rnd = game.state.round
    unsold = getattr(rnd, "unsold", [])
    first = bool(unsold) and unsold[0] == a.company and getattr(rnd, "auctioning", None) is None
    if a.price > worth:
        return -5.0
    margin = (worth - a.price) / max(1, worth)
    return (20.0 if first else 4.0) + 10 * margin


def _par(game: Game, me: str, a: Action) -> float:
    """Start the next corporation whenever it can be started properly: at the highest par
    at which its president can buy the president's certificate (two shares) beyond the
    reserve for its other corporations' trains, and the corporation can buy its first
    train; a second or third presidency (never more than :data:`MAX_PRESIDENCIES`) only at
    the highest par on offer once the game is past its first phase. Real games start one
    corporation a player in the first stock round and the rest at the higher pars the
    later phases bring: a corporation started late, with that capital, buys the trains
    that move the phases on. Never a second presidency otherwise (not even looking ahead:
    each may cost a train out of the president's pocket)."""
    assert isinstance(a, Par)
    s = game.state
    presides = sum(
        1
        for sym, p in s.shares.president.items()
        if p == me and sym in s.corps and not s.corps[sym].closed
    )
    spare = game.player(me).cash - _reserve(game, me)
    if spare < 2 * a.price:
        return -5.0
    if presides > 0:
        pars = [p.price for p in game.legal_actions() if isinstance(p, Par)]
        later = s.phase_index > 0 and a.price == max(pars) > min(pars)
        if presides >= MAX_PRESIDENCIES or not later:
            return VETO  # each presidency may cost a train out of its own pocket
    if _running(game) and not _can_fund_a_train(game, me, a):
        # it would close on its first train, taking the president's money (but when no
        # corporation runs, the game goes on only if someone starts one)
        return 2 * VETO
    return SURE + 10.0 + a.price / 10


def _running(game: Game) -> bool:
    """Whether any corporation has been started and not closed."""
    return any(c.parred and not c.closed for c in game.state.corps.values())


def _must_start(game: Game, a: Par) -> bool:
    """Whether the corporation `a` starts must be started though its home is poor: no other
    corporation can be started instead (1849's place cards offer one at a time) and fewer
    corporations run than there are players (else the game freezes in its first phase with
    one or two corporations, the trains unbought)."""
    s = game.state
    others = any(
        isinstance(b, Par) and b.corporation != a.corporation for b in game.legal_actions()
    )
    running = sum(1 for c in s.corps.values() if c.parred and not c.closed)
    return not others and running < len(s.players)


#: How far from its home (in hexes) a corporation's prospects are counted.
PROSPECT_RANGE = 3
#: `medium` starts no corporation whose home's prospects are below this.
POOR_PROSPECT = 0.0


def _prospect(game: Game, a: Par) -> float:
    """How promising the home of the corporation `a` starts is, from the printed board
    (what an 18xx player looks at first): the cities, towns and off-boards within
    :data:`PROSPECT_RANGE` hexes, each worth its printed revenue (a city at least 10, a town
    5) divided by one plus its distance; less a tenth of the terrain costs to build there,
    weighted alike; less 10 for each other corporation's home there (rivals share the
    territory). 0 when the corporation has no home on the board."""
    board = game.state.map.board
    home = a.home or board.homes.get(a.corporation, ("", 0))[0]
    centre = board.hexes.get(home)
    if centre is None:
        return 0.0
    rivals = Counter(hx for c, (hx, _) in board.homes.items() if c != a.corporation and hx != home)
    value = 0.0
    for coord, h in board.hexes.items():
        d = _hex_distance(centre.x - h.x, centre.y - h.y, board.layout)
        if d > PROSPECT_RANGE:
            continue
        for node in h.tile.nodes:
            if node.kind in (CITY, TOWN, OFFBOARD):
                printed = max([node.revenue, *(v for _, v in node.revenue_by_phase)])
                value += max(printed, 10 if node.kind == CITY else 5) / (1 + d)
        value -= h.terrain_cost / 10 / (1 + d)
        value -= 10 * rivals[coord]
    return value


def _can_fund_a_train(game: Game, me: str, a: Par) -> bool:
    """Whether a corporation started by `a` that floats at once could buy its first train
    (:func:`_first_train`) with its treasury and the shares its president can still buy
    into it (beyond the president's reserve for its other corporations). True when it does
    not float at once (others' purchases fund it first)."""
    reserve = _reserve(game, me)
    work = game.search_copy()
    try:
        work.apply_known(a)
    except Exception:
        return False
    corp = work.state.corps[a.corporation]
    if not corp.floated:
        return True
    spare = max(0, work.player(me).cash - reserve)
    return corp.cash + spare >= _first_train(work, a.corporation)


def _first_train(game: Game, corp: str) -> int:
    """The price of the train `corp`, which has none, will buy first: the bank's next
    trains go to the other started corporations without one before it (when they take the
    last cheap ones, it pays for the next type)."""
    s = game.state
    waiting = sum(
        1
        for sym, c in s.corps.items()
        if sym != corp and c.floated and not c.closed and not c.trains
    )
    regular = [t for t in s.depot.in_bank() if s.depot.types[t.kind].available_on is None]
    cheapest = _cheapest_train(game)
    if waiting >= len(regular):
        return cheapest
    return max(cheapest, s.depot.types[regular[waiting].kind].price)


def _buy(game: Game, me: str, a: Action) -> float:
    """Buy into its own corporations first, then the ones that earn most for their price."""
    assert isinstance(a, BuyShares)
    s = game.state
    corp = a.corporation
    c = s.corps[corp]
    price = s.market.price(corp) if corp in s.market else max(1, c.par_price)
    value = evaluate.share_value(game, corp)
    score = 5.0 + 10 * (value - price) / max(1, price)
    president = s.shares.president.get(corp)
    mine = s.shares.percent(me, corp)
    if president == me:
        rival = max((s.shares.percent(p.name, corp) for p in s.players if p.name != me), default=0)
        score += 6.0 if mine - rival <= 10 else 2.0
    elif president is not None and mine + a.percent > s.shares.percent(president, corp):
        # takes the presidency: a prize with a train or the money for one, else a debt
        healthy = bool(c.trains) or c.cash >= _cheapest_train(game)
        score += 4.0 if healthy else -8.0
    if not c.trains and c.operated > 0:
        score -= 8.0  # a corporation without a train earns nothing
    if game.player(me).cash - price < _reserve(game, me):
        return VETO  # keep the money its corporations may need for a train
    return score


def _funds_rusting(game: Game, me: str, a: BuyShares) -> bool:
    """Whether buying `a` gives a corporation another player presides (and keeps) the money
    for the next train in the bank, which it has room for and could not pay before, and
    which rusts trains of a corporation `me` presides (tried on a search copy: whether a
    share's price goes to the treasury is the title's)."""
    s = game.state
    corp = a.corporation
    c = s.corps[corp]
    president = s.shares.president.get(corp)
    if president in (None, me) or s.shares.percent(me, corp) + a.percent > s.shares.percent(
        president, corp
    ):
        return False
    bank = s.depot.in_bank()
    if not bank or len(c.trains) >= game.phase.limit(c.kind):
        return False
    price = s.depot.types[bank[0].kind].price
    if c.cash >= price:
        return False
    mine = [
        sym
        for sym, p in s.shares.president.items()
        if p == me and sym in s.corps and not s.corps[sym].closed
    ]
    if not any(any(_rusting(game, sym)) for sym in mine):
        return False
    work = game.search_copy()
    try:
        work.apply_known(a)
    except Exception:
        return False
    return work.state.corps[corp].cash >= price


def _reserve(game: Game, me: str) -> int:
    """What `me` may have to pay for trains its corporations must buy: for each it presides
    that has no train, or whose trains rust with the next type, that train's price
    (:func:`_must_buy`) less the treasury."""
    s = game.state
    need = 0
    for sym, president in s.shares.president.items():
        c = s.corps.get(sym)
        if president != me or c is None or c.closed or not c.floated:
            continue
        need += max(0, (_must_buy(game, sym) or 0) - c.cash)
    return need


def _must_buy(game: Game, corp: str) -> int | None:
    """The price of the train `corp` will have to buy: the cheapest on sale when it has no
    train, the next type's when all its trains rust with it (None: neither)."""
    s = game.state
    if not s.corps[corp].trains:
        return _cheapest_train(game)
    if _trains_rust_soon(game, corp):
        return s.depot.types[s.depot.in_bank()[0].kind].price
    return None


def _sell(game: Game, me: str, a: Action) -> float:
    """Sell what earns nothing; never its own presidency unless the corporation is doomed."""
    assert isinstance(a, SellShares)
    s = game.state
    corp = a.corporation
    c = s.corps[corp]
    if a.entity != me and a.entity in s.corps:
        return 2.0 - a.percent / 10  # an emergency sale: the smallest first
    doomed = not c.trains and c.operated > 0 and c.cash < 100
    if s.shares.president.get(corp) == me and not doomed:
        return -20.0
    if evaluate.earning(game, corp) == 0 and c.operated > 0:
        return 3.0 + (4.0 if doomed else 0.0)
    return -6.0


def _lay(game: Game, me: str, a: Action) -> float:
    """The cheapest tile that adds a stop, else any cheap one."""
    assert isinstance(a, LayTile)
    tile = game.state.map.catalogue.get(a.tile)
    stops = len(tile.nodes) if tile is not None else 0
    upgrade = 2.0 if a.hex in game.state.map.tiles else 0.0
    return 3.0 + 2.0 * min(stops, 2) + upgrade


def _token(game: Game, me: str, a: Action) -> float:
    return 6.0


def _run(game: Game, me: str, a: Action) -> float:
    return 100.0  # the optimizer's runs (listed first)


def _dividend(game: Game, me: str, a: Action) -> float:
    """Pay out, unless the treasury needs the money for a train."""
    assert isinstance(a, Dividend)
    corp = a.entity
    rnd = game.state.round
    c = game.state.corps.get(corp)
    if c is None:
        return 0.0
    revenue = (rnd.turn.revenue or 0) if isinstance(rnd, OperatingRound) else 0
    cheapest = _cheapest_train(game)
    room = len(c.trains) < game.phase.limit(c.kind)
    # withhold to save for a train it must have, or when the revenue buys a second one or
    # the next, longer train (which also brings the next phase on)
    must = _must_buy(game, corp)
    target = cheapest if must is None else must
    second = room and len(c.trains) < 2 and cheapest <= c.cash + revenue
    # never withhold a price into closing: the dividends kept would be lost with it
    safe = corp not in game.state.market or (
        _falls_to_close(game, game.state.market.position(corp)) > SAFE_FALLS
    )
    goal = _train_goal(game, corp)
    # the next train is worth two withholds when it rusts rivals' trains and spares its own
    rounds = RUST_ROUNDS if _rusts_rivals(game, corp) else 1
    if safe and goal is not None and c.cash < goal <= c.cash + rounds * revenue:
        return SURE if a.kind == "withhold" else 1.0
    # save for a train it must have only when a few withholds buy it: else pay out, and
    # keep the price (and the president's purse) up for the train it cannot save for
    reachable = target <= c.cash + SAVE_ROUNDS * revenue
    needs = safe and reachable and c.cash < target and (must is not None or second)
    if a.kind == "payout":
        return 1.0 if needs else 5.0
    return 3.0 if needs else 0.5


def _spends_train_money(game: Game, corp: str) -> bool:
    """Whether `corp`, which has no train, is left unable to buy the cheapest one."""
    c = game.state.corps[corp]
    return not c.trains and c.cash < _cheapest_train(game)


def _connection(game: Game, corp: str) -> float:
    """How far `corp`'s track has come toward a run: ten for each city or town it reaches,
    less the hexes between its network's edge and the nearest one it does not reach yet."""
    m = game.state.map
    net = reach(m, corp)
    stops = {k[0] for k in net.nodes if m.tile(k[0]).nodes[k[1]].kind in (CITY, TOWN)}
    edge = [m.board.hexes[h] for h in net.edges if h in m.board.hexes]
    targets = [
        h
        for coord, h in m.board.hexes.items()
        if coord not in stops and any(n.kind in (CITY, TOWN) for n in m.tile(coord).nodes)
    ]
    gap = min(
        (_hex_distance(a.x - b.x, a.y - b.y, m.board.layout) for a in edge for b in targets),
        default=0,
    )
    return 10.0 * len(stops) - gap


def _hex_distance(dx: int, dy: int, layout: str) -> int:
    """Hexes between two hexes `dx`, `dy` apart in doubled coordinates."""
    dx, dy = abs(dx), abs(dy)
    if layout == "pointy":
        return dy + max(0, (dx - dy) // 2)
    return dx + max(0, (dy - dx) // 2)


def _falls_to_close(game: Game, pos: tuple[int, int]) -> int:
    """How many withholds (moves left) take a share price at `pos` into a closing cell,
    counted up to ten (ten also when the market has none or no left move)."""
    market = game.state.market.market
    if "left" not in market.directions:
        return 10
    rules = game.state.market.rules
    for falls in range(10):
        if "close" in market.tags(pos):
            return falls
        pos = rules.step(market, pos, "left")
    return 10


def _earning_power(game: Game, corp: str) -> RouteSolution:
    """The optimizer's runs for `corp`'s trains now; for a corporation without a train, as if
    it had the cheapest train on sale (what its first train will run)."""
    s = game.state
    if s.corps[corp].trains:
        return game.title.best_routes(game, corp)
    on_sale = s.depot.purchasable(set(s.phases_reached))
    if not on_sale:
        return RouteSolution([], 0, True)
    train = min(on_sale, key=lambda t: s.depot.types[t.kind].price)
    _, rules = game.title.route_inputs(game, corp)
    spec = TrainSpec(train.tid, train.kind, s.depot.types[train.kind].distance)
    return solve(s.map, corp, [spec], rules)


def _train_goal(game: Game, corp: str) -> int | None:
    """The price of the next train in the bank when `corp`, which owns trains, should save
    for it: it has room for it, and it runs farther than its best or its own trains rust on
    it (None: no such train)."""
    s = game.state
    c = s.corps[corp]
    bank = s.depot.in_bank()
    if not c.trains or not bank or len(c.trains) >= game.phase.limit(c.kind):
        return None
    ttype = s.depot.types[bank[0].kind]
    best = max(s.depot.types[s.depot.trains[t].kind].distance for t in c.trains)
    if ttype.distance > best or _trains_rust_soon(game, corp):
        return ttype.price
    return None


def _rusts_rivals(game: Game, corp: str) -> bool:
    """Whether the next train in the bank rusts trains of a corporation another player
    presides while `corp` keeps a train of its own: buying it first takes rivals' revenue."""
    s = game.state
    me = game.title.controller(game, corp)
    keeps = not all(_rusting(game, corp))
    rivals = any(
        any(_rusting(game, sym))
        for sym, c in s.corps.items()
        if not c.closed and game.title.controller(game, sym) != me
    )
    return keeps and rivals


def _rusting(game: Game, corp: str) -> list[bool]:
    """For each of `corp`'s trains, whether it rusts with the next type in the bank."""
    s = game.state
    nxt = {t.kind for t in s.depot.in_bank()[:1]}
    return [s.depot.types[s.depot.trains[t].kind].rusts_on in nxt for t in s.corps[corp].trains]


def _cheapest_train(game: Game) -> int:
    s = game.state
    prices = [s.depot.types[t.kind].price for t in s.depot.purchasable(set(s.phases_reached))]
    return min(prices) if prices else 0


def _trains_rust_soon(game: Game, corp: str) -> bool:
    """Whether all of `corp`'s trains rust with the next type on sale."""
    rusting = _rusting(game, corp)
    return bool(rusting) and all(rusting)


def _buy_train(game: Game, me: str, a: Action) -> float:
    """A train when it has none, or room, money and a newer type than its best; never a
    rival's train (an offer), and its own other corporation's only at L.1 when it has none."""
    assert isinstance(a, BuyTrain)
    s = game.state
    corp = a.entity
    c = s.corps[corp]
    train = s.depot.trains[a.train]
    ttype = s.depot.types[train.kind]
    owner = train.owner
    if owner in s.corps:
        if deals.declined(game, corp, a.train):
            return -100.0  # asked already: do not ask again
        if game.title.controller(game, owner) != me:
            if c.trains:
                return -30.0  # a rival's train moves no phase on: the bank's does
            fair = ttype.price
            return -30.0 if a.price < fair else 7.0 - a.price / 100
        if c.trains or len(s.corps[owner].trains) < 2:
            return -10.0
        return 8.0 - a.price / 100
    price_share = a.price / max(1, c.cash)
    if not c.trains:
        return 40.0 - ttype.price / 100
    if price_share > 1.0:
        return -2.0  # the president's money is for a train the corporation must have
    best = max(s.depot.types[s.depot.trains[t].kind].distance for t in c.trains)
    if ttype.distance > best:
        return 10.0 + ttype.distance / 10
    if _trains_rust_soon(game, corp):
        return 7.0
    if evaluate.earning(game, corp) == 0:
        return -1.0  # its trains find no run yet: the money builds track
    return 6.0 + ttype.distance / 10  # another train earns more and hastens the phases


def _own_price(game: Game, action: Action) -> Action:
    """The bot's own amount: a train bought from another person's corporation is offered at
    its face value when the listed price is above it (and the treasury has it)."""
    if not isinstance(action, BuyTrain) or deals.offer_for(game, action) is None:
        return action
    s = game.state
    face = s.depot.types[s.depot.trains[action.train].kind].price
    if face < action.price:
        fair = dataclasses.replace(action, price=face)
        try:
            game.title.validate(game, fair)
        except RuleError:
            return action
        return fair
    return action


def _discard(game: Game, me: str, a: Action) -> float:
    """Discard the weakest train."""
    assert isinstance(a, DiscardTrain)
    s = game.state
    return -float(s.depot.types[s.depot.trains[a.train].kind].distance)


def _choose(game: Game, me: str, a: Action) -> float:
    """Offers: accept at face value or more. Loans over leaving. Else the first answer."""
    assert isinstance(a, Choose)
    offer = game.state.offer
    if offer is not None and a.choice in (ACCEPT, DECLINE):
        s = game.state
        if offer.action.type == "buy_train":
            train = s.depot.trains[offer.item]
            fair = s.depot.types[train.kind].price
            seller = s.corps.get(offer.seller)
            keeps = seller is None or len(seller.trains) > 1
            good = offer.price >= fair and keeps
        else:
            good = offer.price >= s.companies[offer.item].value
        return 5.0 if (a.choice == ACCEPT) == good else 0.0
    if a.choice == "loan":  # 1849: once; a second ruin means the game is lost anyway
        return 5.0 if game.player(me).loans == 0 else 0.0
    if a.choice == "leave":
        return 1.0
    return 2.0


def _issue(game: Game, me: str, a: Action) -> float:
    """Issue only to afford a train: one it has not got, or the next, longer train when the
    fewest shares that pay for it suffice; never so many that the price drops into closing."""
    s = game.state
    c = s.corps[a.entity]
    if isinstance(a, IssueShares):
        if _closes(game, a, 0 if not c.trains else SAFE_FALLS + 4):
            return 2 * VETO
        if not c.trains:
            return 4.0 if c.cash < _cheapest_train(game) else -3.0
        goal = _train_goal(game, a.entity)
        if goal is None or c.cash >= goal or a.entity not in s.market:
            return -3.0
        proceeds = s.market.price(a.entity) * a.percent // c.share_unit
        return SURE - a.percent / 10 if c.cash + proceeds >= goal else -3.0
    return -1.0


def _closes(game: Game, a: Action, margin: int = 0) -> bool:
    """Whether the acting corporation closes when `a` is played (its price falls into a
    closing zone), or is left at most `margin` withholds from closing; tried on a search
    copy."""
    work = game.search_copy()
    try:
        work.apply_known(a)
    except Exception:
        return True
    c = work.state.corps.get(a.entity)
    if c is None or c.closed or not c.parred:
        return True
    return a.entity in work.state.market and (
        _falls_to_close(work, work.state.market.position(a.entity)) <= margin
    )


def _buy_company(game: Game, me: str, a: Action) -> float:
    """Buy a private only from itself (at the top price: money from the treasury to its
    president, and never below its face value), never by offer to a rival, and never with
    the money for a train the corporation will have to buy."""
    assert isinstance(a, BuyCompany)
    owner = game.state.companies[a.company].owner
    if deals.declined(game, a.entity, a.company):
        return -100.0  # asked already: do not ask again
    if owner != me:
        return -30.0
    if a.price < _face(game, a.company):
        return VETO  # the president's private is worth its face value to the president
    c = game.state.corps.get(a.entity)
    if c is not None and c.cash - a.price < (_must_buy(game, a.entity) or 0):
        return VETO
    return 2.0 + a.price / 100


def _use_company(game: Game, me: str, a: Action) -> float:
    assert isinstance(a, UseCompany)
    return 0.5


def _bankrupt(game: Game, me: str, a: Action) -> float:
    return -50.0


SCORERS: dict[type[Action], Callable[[Game, str, Action], float]] = {
    Bid: _bid,
    Par: _par,
    BuyShares: _buy,
    SellShares: _sell,
    LayTile: _lay,
    PlaceToken: _token,
    RunRoutes: _run,
    Dividend: _dividend,
    BuyTrain: _buy_train,
    DiscardTrain: _discard,
    Choose: _choose,
    IssueShares: _issue,
    RedeemShares: _issue,
    BuyCompany: _buy_company,
    UseCompany: _use_company,
    Bankrupt: _bankrupt,
}

#: Titles' own actions a bot leaves alone (or takes gladly), by type: 1883's concessions
#: cost double when unfulfilled and its Political Support cards little but money; 1854's
#: buying options ties money up.
TITLE_ACTIONS: dict[str, float] = {
    "buy_concession": -2.0,
    "buy_support": -2.0,
    "buy_option": -1.0,
    "buy_mail_contract": 4.0,
    "place_port": 3.0,
    "place_bus": 3.0,
}

EASY = HeuristicBot("easy", noise=0.15, lookahead=False, build_width=3, optimize=False)
MEDIUM = HeuristicBot("medium", noise=0.0, lookahead=True, build_width=24)
