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
from tresham.core.game import Game
from tresham.core.rounds.stock import StockRound
from tresham.core.graph import track_graph
from tresham.core.shares import POOL, Certificate, treasury
from tresham.io.site_writer import ExportFailure, SiteAction, WriteContext
from tresham.routes.network import Network, network_of
from tresham.routes.runs import Run, run_revenue
from tresham.titles.t1849 import map_glue, variants
from tresham.titles.t1849.actions import BuyEToken, BuyStationToken, IssueBond, PayDebt, RepayBond
from tresham.titles.t1849.rule_set import SITE
from tresham.titles.t1849.site_import import (
    E_TOKEN_CHOICE,
    LOAN_CHOICES,
    SITE_OPTIONS,
    SMS_CLOSE,
)

OPTION_RULES: Final = {option: rule for rule, option in SITE_OPTIONS.items()}
CHOICE_WORDS: Final = {ours: site for site, ours in LOAN_CHOICES.items()}
#: The site numbers a tile's parts in the order of its definition; on these preprinted hexes
#: a border comes first, so their city is part 1 (``"C1-0-1"``); everywhere else cities are
#: the first parts.
CITY_AFTER_BORDER: Final = frozenset({"B14", "C1", "C5", "H12", "M13"})
#: memo key: the tile copies on the map, by hex ("<tile>-<copy>").
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
        if isinstance(action, BuyShares):
            holder = treasury(action.corporation) if action.source == "treasury" else POOL
            cert = _cert_of(game, holder, action.corporation, action.percent)
            return [{"type": "buy_shares", **base, "shares": [cert], "percent": action.percent}]
        if isinstance(action, SellShares):
            seller = action.entity
            if seller in game.state.corps:  # the president raising money for its train
                seller = str(game.state.shares.president.get(seller))
                entity, kind = ctx.entity(seller)
                base = {"entity": entity, "entity_type": kind}
            certs = _sold(game, seller, action)
            return [{"type": "sell_shares", **base, "shares": certs, "percent": action.percent}]
        if isinstance(action, IssueShares):
            certs = _pick(game.state.shares.held(treasury(action.entity), action.entity), action)
            return [{"type": "sell_shares", **base, "shares": certs, "percent": action.percent}]
        if isinstance(action, RedeemShares):
            certs = _pick(game.state.shares.held(POOL, action.entity), action)
            return [{"type": "buy_shares", **base, "shares": certs, "percent": action.percent}]
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
            slot = game.state.map.slots(action.hex, action.city).index(action.seller)
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
            return []  # written once placed (`after`): the slot it took
        raise ExportFailure(f"the site has no action for {action.describe()}")

    def after(self, ctx: WriteContext, action: Action) -> list[SiteAction]:
        if isinstance(action, PlaceToken):
            slots = ctx.game.state.map.slots(action.hex, action.city)
            return [
                {
                    "type": "place_token",
                    "entity": action.entity,
                    "entity_type": "corporation",
                    "city": _city_ref(ctx, action.hex, action.city),
                    "slot": slots.index(action.entity),
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
    """Whether the site moves past tresham's pass by itself: a player in a stock round who
    can only pass (having bought, the turn ends)."""
    if not isinstance(game.state.round, StockRound):
        return False
    return all(isinstance(a, Pass) for a in game.legal_actions())


def _par_cell(market: Any, pos: tuple[int, int]) -> bool:
    return any(c.pos == pos for c in market.par_cells())


def _cert_of(game: Game, holder: str, corp: str, percent: int) -> str:
    """A certificate of that size the holder has (the site names the certificate bought)."""
    certs = [c for c in game.state.shares.held(holder, corp) if c.percent == percent]
    if not certs:
        raise ExportFailure(f"no {percent}% certificate of {corp} to buy")
    plain = [c for c in certs if not c.president]
    return min(plain or certs, key=_index).cid


def _index(cert: Certificate) -> int:
    return int(cert.cid.rpartition("_")[2])


def _pick(certs: list[Certificate], action: IssueShares | RedeemShares) -> list[str]:
    """Certificates adding up to the action's percent, in index order."""
    out: list[str] = []
    total = 0
    for cert in sorted(certs, key=_index):
        if total >= action.percent:
            break
        if cert.president:
            continue
        out.append(cert.cid)
        total += cert.percent
    if total != action.percent:
        raise ExportFailure(f"no certificates make {action.percent}% for {action.describe()}")
    return out


def _sold(game: Game, seller: str, action: SellShares) -> list[str]:
    """The seller's certificates a sale moves: the 20% last one if the sale names it, then
    10% ones in index order, the president's only for what they cannot make."""
    held = game.state.shares.held(seller, action.corporation)
    out: list[str] = []
    total = 0
    lasts = [c for c in held if c.last]
    if action.last and lasts:
        out.append(lasts[0].cid)
        total += lasts[0].percent
    rest = sorted((c for c in held if not c.last and not c.president), key=_index)
    for cert in rest:
        if total >= action.percent:
            break
        out.append(cert.cid)
        total += cert.percent
    if total < action.percent:
        pres = [c for c in held if c.president]
        if pres:
            out.append(pres[0].cid)  # a part of it, the rest swapped with the new president
            total = action.percent
    if total != action.percent:
        raise ExportFailure(f"no certificates make {action.percent}% for {action.describe()}")
    return out


def _tile_copy(ctx: WriteContext, action: LayTile) -> str:
    """The site's id of the tile laid: the lowest copy of that tile not on the map."""
    copies: dict[str, str] = ctx.memo.setdefault(COPIES, {})
    used = {c for h, c in copies.items() if h != action.hex}
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
        for a, b in zip(stops, stops[1:], strict=False):
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
