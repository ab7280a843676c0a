"""An 1849 player that is not tresham's: purposeful rules written from the Game API alone.

The bots of ``tresham.bots`` are measured against each other; this player is the outside
check the issue asks for. It is written as a player of another program would write one: it
reads only the public game (``Game.legal_actions``, the state, ``Game.search_copy`` and the
route optimizer, ``tresham.routes.solve``) and shares no code with ``tresham.bots``.

Its plan is an experienced 1849 player's (``../shared/rules/1849-summary.txt``): scores are
cash plus shares at market, corporate cash counts for nothing, and a corporation funds itself
by the shares sold from its treasury (incremental capitalization), so

- **auction**: buy the cheap privates at face value (P1-P3 pay well for their price), bid
  on nothing, keep the money for a presidency;
- **stock round**: start the next corporation when no corporation of its own lacks money
  for its first train, at the highest par it can buy 40% of; buy its own corporations'
  treasury shares while they need money for a train (and up to 60% for the dividends),
  then rivals' shares from the pool only (a rival's treasury share funds the rival) of
  corporations that pay a dividend of at least a tenth of their price; sell a rival
  corporation that has no train; never sell its own;
- **operating round**: lay the tile after which its trains earn most (a trainless
  corporation as if it had the cheapest train on sale), never spending its first train's
  money on track; place a station where it earns most; run the optimizer's best; pay out
  unless a train it must buy needs the money; buy a train when it has none, or a longer one
  than its best when the treasury can pay; take a train from its own other corporation at
  L.1 when that one has spare; issue shares only for a train it must have; buy its own
  privates for twice face value only from spare money;
- **prompts**: an offer for one of its trains is accepted at the train's list price or
  more, never for its corporation's last train; for one of its privates at face value or
  more; take the loan rather than leave; otherwise the first answer.

``python benchmarks/outsider.py`` plays it in one seat against two bots of a tresham level
(default ``medium``; ``--level hard:250ms``), seats rotated over paired seeds, and prints its
win rate with the Wilson interval against par (1/3). Games go to a resumable ledger
(``benchmarks/results/outsider.jsonl``).

Run: nice .venv/bin/python benchmarks/outsider.py [--level medium] [--games 60] [--jobs 1]
     [--report]
"""

from __future__ import annotations

import argparse
import itertools
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bots import ledger_key, ledger_row, load_ledger

from tresham.bots.tournament import GameResult, play_game, schedule, summarise, wilson
from tresham.core.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Choose,
    Dividend,
    IssueShares,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from tresham.core.game import Game
from tresham.core.graph import reachable_stops
from tresham.core.rules_protocols import TrainSpec
from tresham.core.tiles import CITY, TOWN
from tresham.routes import solve

LEDGER = Path(__file__).parent / "results" / "outsider.jsonl"
SEED = 20261204
NAME = "outsider"
#: A private is bought in the auction only up to this face value (P1-P3).
CHEAP_PRIVATE = 80
#: A rival corporation is bought only while its last dividend per 10% is at least this share
#: of its price.
YIELD = 0.10
#: The most of one corporation it holds for the dividends.
HOLD = 60


@dataclass(frozen=True)
class Outsider:
    """The outside player: ``choose(game, rng)`` for the entity to act."""

    name: str = NAME

    def choose(self, game: Game, rng: random.Random) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        me = game.acting_player() or ""
        for kind, rule in RULES:
            chosen = [a for a in actions if isinstance(a, kind)]
            if chosen:
                pick = rule(game, me, actions)
                if pick is not None:
                    return pick
        return _pass(actions) or actions[0]


# ---------------------------------------------------------------- reading the game
def _pass(actions: list[Action]) -> Action | None:
    return next((a for a in actions if isinstance(a, Pass)), None)


def _presides(game: Game, me: str) -> list[str]:
    s = game.state
    return [sym for sym, c in s.corps.items() if not c.closed and s.shares.president.get(sym) == me]


def _cheapest_on_sale(game: Game) -> int:
    s = game.state
    prices = [s.depot.types[t.kind].price for t in s.depot.purchasable(set(s.phases_reached))]
    return min(prices, default=0)


def _next_in_bank(game: Game) -> tuple[int, int]:
    """(price, distance) of the next train the bank sells."""
    s = game.state
    bank = s.depot.in_bank()
    if not bank:
        return (0, 0)
    t = s.depot.types[bank[0].kind]
    return (t.price, t.distance)


def _distance(game: Game, train: str) -> int:
    s = game.state
    return s.depot.types[s.depot.trains[train].kind].distance


def _best_distance(game: Game, corp: str) -> int:
    s = game.state
    return max((_distance(game, t) for t in s.corps[corp].trains), default=0)


def _needs_money(game: Game, corp: str) -> bool:
    """A corporation without a train whose treasury cannot pay for the cheapest on sale."""
    c = game.state.corps[corp]
    return not c.trains and c.cash < _cheapest_on_sale(game)


def _earns(game: Game, corp: str) -> int:
    """What `corp`'s trains run now; a trainless one as if it had the cheapest on sale."""
    s = game.state
    if s.corps[corp].trains:
        return game.title.best_routes(game, corp).revenue
    on_sale = s.depot.purchasable(set(s.phases_reached))
    if not on_sale:
        return 0
    train = min(on_sale, key=lambda t: s.depot.types[t.kind].price)
    _, rules = game.title.route_inputs(game, corp)
    spec = TrainSpec(train.tid, train.kind, s.depot.types[train.kind].distance)
    return solve(s.map, corp, [spec], rules).revenue


def _price(game: Game, a: BuyShares) -> int:
    return game.state.market.price(a.corporation) if a.corporation in game.state.market else 0


def _dividend_yield(game: Game, corp: str) -> float:
    s = game.state
    c = s.corps[corp]
    if not c.revenue_history or corp not in s.market:
        return 0.0
    return c.revenue_history[-1] / 10 / max(1, s.market.price(corp))


# ---------------------------------------------------------------- the rules
def _auction(game: Game, me: str, actions: list[Action]) -> Action | None:
    """Buy a cheap private at its face value; bid on nothing else."""
    s = game.state
    for a in actions:
        if isinstance(a, Bid):
            face = s.companies[a.company].value
            if a.price <= face <= CHEAP_PRIVATE and game.player(me).cash - a.price >= 200:
                return a
    return None


def _par(game: Game, me: str, actions: list[Action]) -> Action | None:
    """Start a corporation at the highest par whose 40% it can buy, at the home whose
    trains would earn most; not while one of its own corporations needs money for a train."""
    pars = [a for a in actions if isinstance(a, Par)]
    forced = all(isinstance(a, Par) for a in actions)
    if not forced and any(_needs_money(game, c) for c in _presides(game, me)):
        return None
    if not forced and len(_presides(game, me)) >= 2:
        return None
    cash = game.player(me).cash
    affordable = [a for a in pars if 4 * a.price <= cash]
    affordable = affordable or [a for a in pars if 2 * a.price <= cash]
    if not affordable:
        return pars[0] if forced else None
    top = max(a.price for a in affordable)
    best = [a for a in affordable if a.price == top]
    return max(best, key=lambda a: _home_value(game, a))


def _home_value(game: Game, a: Par) -> int:
    """What a corporation started by `a` would earn at once with the cheapest train."""
    work = game.search_copy()
    try:
        work.apply_known(a)
        return _earns(work, a.corporation)
    except Exception:
        return -1


def _buy_shares(game: Game, me: str, actions: list[Action]) -> Action | None:
    """Own corporations' treasury shares while they need money (or up to 60%), then rivals'
    pool shares that pay well."""
    s = game.state
    mine = set(_presides(game, me))
    cash = game.player(me).cash
    buys = [a for a in actions if isinstance(a, BuyShares)]
    own = [
        a
        for a in buys
        if a.corporation in mine
        and a.source == "treasury"
        and (
            _needs_money(game, a.corporation)
            or s.shares.percent(me, a.corporation) + a.percent <= HOLD
        )
    ]
    if own:
        return min(own, key=lambda a: (not _needs_money(game, a.corporation), _price(game, a)))
    rivals = [
        a
        for a in buys
        if a.corporation not in mine
        and _dividend_yield(game, a.corporation) >= YIELD
        and s.shares.percent(me, a.corporation) + a.percent <= HOLD
        and s.market.price(a.corporation) * a.percent // 10 <= cash
    ]
    if rivals:
        return max(rivals, key=lambda a: _dividend_yield(game, a.corporation))
    return None


def _sell_shares(game: Game, me: str, actions: list[Action]) -> Action | None:
    """Sell all of a rival corporation that has no train (its price only falls)."""
    mine = set(_presides(game, me))
    sells = [
        a
        for a in actions
        if isinstance(a, SellShares)
        and a.corporation not in mine
        and not game.state.corps[a.corporation].trains
    ]
    return max(sells, key=lambda a: a.percent) if sells else None


def _tried(game: Game, actions: list[Action], kind: type[Action]) -> Iterator[tuple[Action, Game]]:
    """Each of `actions` of `kind` with a copy of the game it has been played on (those that
    fail on a copy left out)."""
    for a in actions:
        if not isinstance(a, kind):
            continue
        work = game.search_copy()
        try:
            work.apply_known(a)
        except Exception:
            continue
        yield a, work


def _lay(game: Game, me: str, actions: list[Action]) -> Action | None:
    """The lay after which its trains earn most, never from its first train's money."""
    corp = next(a.entity for a in actions if isinstance(a, LayTile))
    c = game.state.corps[corp]
    base = _earns(game, corp)
    best: tuple[int, int, Action] | None = None
    for a, work in _tried(game, actions, LayTile):
        spent = c.cash - work.state.corps[corp].cash
        if spent and not c.trains and work.state.corps[corp].cash < _cheapest_on_sale(game):
            continue
        value = _earns(work, corp) * 10 + _toward(work, corp) - spent // 20
        if best is None or value > best[0]:
            best = (value, spent, a)
    if best is None:
        return None
    if best[0] <= base * 10 + _toward(game, corp) and best[1] > 0:
        return None  # it pays for nothing
    return best[2]


def _toward(game: Game, corp: str) -> int:
    """How far `corp`'s track has come: 5 for each stop it reaches, less the hexes from the
    hexes it reaches to the nearest city or town it does not."""
    m = game.state.map
    board = m.board
    stops = {st.hex for st in reachable_stops(m, corp)}
    targets = [
        h
        for coord, h in board.hexes.items()
        if coord not in stops and any(n.kind in (CITY, TOWN) for n in m.tile(coord).nodes)
    ]
    edge = [board.hexes[h] for h in stops if h in board.hexes]
    edge += [board.hexes[h] for h, _ in m.tokens_of(corp) if h in board.hexes]
    gap = min((_hexes(a.x - b.x, a.y - b.y) for a in edge for b in targets), default=0)
    return 5 * len(stops) - gap


def _hexes(dx: int, dy: int) -> int:
    """Hexes between two hexes in doubled coordinates (1849's board is flat-topped)."""
    dx, dy = abs(dx), abs(dy)
    return dx + max(0, (dy - dx) // 2)


def _token(game: Game, me: str, actions: list[Action]) -> Action | None:
    """A station where its trains earn most, unless it takes the money for a train."""
    corp = next(a.entity for a in actions if isinstance(a, PlaceToken))
    c = game.state.corps[corp]
    best: tuple[int, Action] | None = None
    for a, work in _tried(game, actions, PlaceToken):
        if not c.trains and work.state.corps[corp].cash < _cheapest_on_sale(game):
            continue
        value = _earns(work, corp)
        if best is None or value > best[0]:
            best = (value, a)
    return None if best is None else best[1]


def _run(game: Game, me: str, actions: list[Action]) -> Action | None:
    runs = [a for a in actions if isinstance(a, RunRoutes)]
    return runs[0]


def _dividend(game: Game, me: str, actions: list[Action]) -> Action | None:
    """Pay out, unless the treasury needs the revenue for a train it must have."""
    corp = actions[0].entity
    c = game.state.corps[corp]
    price, _ = _next_in_bank(game)
    must = not c.trains or _all_rust_next(game, corp)
    kind = "withhold" if must and c.cash < price else "payout"
    return next((a for a in actions if isinstance(a, Dividend) and a.kind == kind), None)


def _all_rust_next(game: Game, corp: str) -> bool:
    s = game.state
    bank = s.depot.in_bank()
    nxt = bank[0].kind if bank else None
    trains = s.corps[corp].trains
    kinds = [s.depot.trains[t].kind for t in trains]
    return bool(trains) and all(s.depot.types[k].rusts_on == nxt for k in kinds)


def _buy_train(game: Game, me: str, actions: list[Action]) -> Action | None:
    """A train when it has none (its own other corporation's spare at L.1 first, else the
    bank's cheapest), or a longer one than its best from the bank when the treasury pays."""
    s = game.state
    buys = [a for a in actions if isinstance(a, BuyTrain)]
    corp = buys[0].entity
    c = s.corps[corp]
    mine = set(_presides(game, me))
    from_mine = [
        a
        for a in buys
        if s.depot.trains[a.train].owner in mine
        and len(s.corps[s.depot.trains[a.train].owner or ""].trains) >= 2
        and a.price == 1
    ]
    from_bank = [a for a in buys if s.depot.trains[a.train].owner is None]
    if not c.trains:
        if from_mine:
            return from_mine[0]
        if from_bank:
            return min(from_bank, key=lambda a: a.price)
        # short of the bank's cheapest: a rival's train for all the treasury has, once a
        # train (the action log keeps the answers), else the president raises the money
        asked = _declined(game, corp)
        offers = [a for a in buys if a.train not in asked and a.price > 1]
        if offers:
            return max(offers, key=lambda a: (_distance(game, a.train), a.price))
        sales = [a for a in actions if isinstance(a, SellShares)]
        if sales:
            return min(sales, key=lambda a: a.percent)
        return next((a for a in actions if isinstance(a, Bankrupt)), None)
    longer = [
        a
        for a in from_bank
        if s.depot.types[s.depot.trains[a.train].kind].distance > _best_distance(game, corp)
        and a.price <= c.cash
    ]
    if longer:
        return max(longer, key=lambda a: _distance(game, a.train))
    if _all_rust_next(game, corp):
        spare = [a for a in from_bank if a.price <= c.cash]
        if spare:
            return max(spare, key=lambda a: _distance(game, a.train))
    return None


def _declined(game: Game, corp: str) -> set[str]:
    """The trains `corp` has offered for and been refused, from the action log."""
    out: set[str] = set()
    log = game.actions
    for before, after in itertools.pairwise(log):
        if (
            isinstance(before, BuyTrain)
            and before.entity == corp
            and isinstance(after, Choose)
            and after.choice == "decline"
        ):
            out.add(before.train)
    return out


def _issue(game: Game, me: str, actions: list[Action]) -> Action | None:
    """Issue the fewest shares that pay for a train it must have."""
    corp = actions[0].entity
    c = game.state.corps[corp]
    if c.trains and not _all_rust_next(game, corp):
        return None
    price, _ = _next_in_bank(game)
    need = (price if c.trains else _cheapest_on_sale(game)) - c.cash
    if need <= 0:
        return None
    unit = game.state.market.price(corp) if corp in game.state.market else 0
    issues = sorted((a for a in actions if isinstance(a, IssueShares)), key=lambda a: a.percent)
    for a in issues:
        if unit * a.percent // 10 >= need:
            return a
    return None


def _buy_company(game: Game, me: str, actions: list[Action]) -> Action | None:
    """Its own private at the top price, from money no train needs."""
    s = game.state
    price, _ = _next_in_bank(game)
    for a in actions:
        if isinstance(a, BuyCompany) and s.companies[a.company].owner == me:
            corp = s.corps[a.entity]
            if corp.trains and corp.cash - a.price >= price:
                return a
    return None


def _choose(game: Game, me: str, actions: list[Action]) -> Action | None:
    """An offer for a train or a private is answered on its price; otherwise take the loan
    rather than leave, else the first answer."""
    answers = {a.choice: a for a in actions if isinstance(a, Choose)}
    offer = game.state.offer
    if offer is not None and {"accept", "decline"} <= set(answers):
        return answers["accept" if _fair_offer(game, offer.action) else "decline"]
    return answers.get("loan") or next(iter(answers.values()), None)


def _fair_offer(game: Game, action: BuyTrain | BuyCompany) -> bool:
    """A train sells at its list price or more, and never the seller's last; a private at
    its face value or more."""
    s = game.state
    if isinstance(action, BuyCompany):
        return action.price >= s.companies[action.company].value
    train = s.depot.trains[action.train]
    seller = s.corps.get(train.owner or "")
    keeps = seller is not None and len(seller.trains) > 1
    return keeps and action.price >= s.depot.types[train.kind].price


Rule = Callable[[Game, str, list[Action]], Action | None]
#: The rules in the order they are asked (the first that picks an action plays it).
RULES: list[tuple[type[Action], Rule]] = [
    (Choose, _choose),
    (RunRoutes, _run),
    (Dividend, _dividend),
    (BuyTrain, _buy_train),
    (Bid, _auction),
    (SellShares, _sell_shares),
    (Par, _par),
    (BuyShares, _buy_shares),
    (LayTile, _lay),
    (PlaceToken, _token),
    (IssueShares, _issue),
    (BuyCompany, _buy_company),
]


# ---------------------------------------------------------------- the benchmark
def _play(args: tuple[str, list[str], int, int]) -> GameResult:
    return play_game(*args, players={NAME: Outsider()})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="medium", help="the tresham bots' level")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    parser.add_argument("--report", action="store_true", help="only print the ledger's figures")
    args = parser.parse_args()
    args.ledger.parent.mkdir(parents=True, exist_ok=True)
    done = load_ledger(args.ledger)
    order = [NAME, args.level, args.level]
    todo = [
        (i, ("1849", seats, bot_seed, game_seed))
        for i, (seats, bot_seed, game_seed) in enumerate(schedule(order, args.games, SEED))
        if ledger_key("1849", order, i) not in done
    ]
    if todo and not args.report:
        with ProcessPoolExecutor(args.jobs) as pool, args.ledger.open("a") as out:
            for (i, _), result in zip(todo, pool.map(_play, [t for _, t in todo]), strict=True):
                key = ledger_key("1849", order, i)
                done[key] = result
                out.write(ledger_row(key, result))
                out.flush()
                print(f"\r{len(done)} games", end="", flush=True)
        print()
    results = [done[k] for i in range(args.games) if (k := ledger_key("1849", order, i)) in done]
    if not results:
        return
    summary = summarise("1849", results, 0.0)
    for bot in (NAME, args.level):
        b = summary["bots"][bot]
        print(
            f"{bot:12} seats {b['seats']:4}  win rate {b['win_rate']:.3f} "
            f"[{b['ci_low']:.3f}, {b['ci_high']:.3f}]  par 0.333  mean margin "
            f"L.{b['mean_margin']:.0f}  bankruptcies {b['bankruptcies']}"
        )
    wins = sum(s.win for r in results for s in r.seats if s.bot == NAME)
    low, high = wilson(wins, len(results))
    print(
        f"games {len(results)}, mean length {summary['rounds_mean']} ORs, ends "
        f"{summary['end_reasons']}; the outsider's interval [{low:.3f}, {high:.3f}]"
    )
    if summary["illegal_actions"] or summary["crashes"]:
        print(f"illegal {summary['illegal_actions']}, crashes {summary['crashes']}")


if __name__ == "__main__":
    main()
