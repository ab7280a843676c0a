"""The public state of a game: everything a table draws, as JSON-ready data.

It shows what the terminal table shows (round, phase, bank, players, corporations, privates,
trains for sale, the map, the market, the last lines of the game log), every train type with
how many are left in the depot and the pool, what a spreadsheet shows (each player's worth
and certificates against the limit; each corporation's trains by name and whether it has
operated in this operating round; every operating round's prices and revenue, from the
game's chronicle; the corporations still to start, in order), plus the protocol facts:
the log index, the seats (whether a bot plays each, and its level), whose turn it is, who
may undo or redo (and who may not undo the action they just made, because it revealed hidden
information: ``undo_gone``), the state hash (keyed while the game keeps secrets:
:func:`shown_hash`), and the scores once the game is over; a deal waiting for the seller's
answer is shown to everyone (`offer`, see tresham/offers.py; null when none is pending). It
only uses the engine's title-independent API.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action, RunRoutes
from tresham.core.game import REVEALED
from tresham.core.rounds.operating import OperatingRound
from tresham.core.shares import POOL, treasury
from tresham.core.stock import player_certs
from tresham.io.save import to_save
from tresham.offers import offer_facts
from tresham.routes import alternatives
from tresham.routes.runs import runs_action
from tresham.words import bank_words, end_words, round_label

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.server.live import LiveGame

EVENTS_SHOWN = 40


def plain(value: Any) -> Any:
    """`value` as JSON data: tuples and sets become lists (sets sorted), keys strings."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return [plain(v) for v in sorted(value, key=str)]
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    if hasattr(value, "to_dict"):
        return plain(value.to_dict())
    return str(value)


def to_start(game: Game, extra: dict[str, Any]) -> list[str]:
    """The corporations still to start, in the order they may (the title's `order` where its
    `describe_state` gives one, as 1849's drawn order; else the title's listing)."""
    s = game.state
    order = extra.get("order")
    listed = [sym for sym in order if sym in s.corps] if isinstance(order, list) else []
    listed += [sym for sym in s.corps if sym not in listed]
    return [
        sym
        for sym in listed
        if not (s.corps[sym].parred or s.corps[sym].floated or s.corps[sym].closed)
    ]


def currency(game: Game) -> dict[str, str]:
    """How the title writes money, around the amount: ``{"before": "L.", "after": ""}``
    (1849, 1883), ``{"before": "", "after": " G"}`` (1854)."""
    before, after = game.title.money(1).split("1", 1)
    return {"before": before, "after": after}


def or_status(game: Game) -> dict[str, str]:
    """In an operating round, each corporation of its order: "done", "operating" or
    "to come"."""
    rnd = game.state.round
    if not isinstance(rnd, OperatingRound) or game.state.finished:
        return {}
    out = {}
    for i, sym in enumerate(rnd.order):
        done = sym in rnd.done
        out[sym] = "done" if done else "operating" if i == rnd.index else "to come"
    return out


def shown_hash(game: Game) -> str:
    """The state hash as it is served: the game's own, except while the game keeps secrets
    (`Game.keeps_secrets`): the hash covers the order of the undrawn cards, which trying
    each order against it would find, so it is served keyed with the (withheld) seed: equal
    states still show equal hashes."""
    plain_hash = game.state_hash()
    if not game.keeps_secrets():
        return plain_hash
    return hmac.new(str(game.seed).encode(), plain_hash.encode(), hashlib.sha256).hexdigest()


#: What an export says in place of a withheld seed.
SEED_WITHHELD = (
    "the seed decides what no player may know yet (cards to be drawn, dice to be cast): it is "
    "shown when the game ends"
)


def shown_save(game: Game) -> dict[str, Any]:
    """The save of `game` as it is served: complete, except while the game keeps secrets:
    then its seed is withheld (null, with `seed_withheld` saying why)."""
    save = to_save(game)
    if game.keeps_secrets():
        save.update(seed=None, seed_withheld=SEED_WITHHELD)
    return save


def public_state(live: LiveGame) -> dict[str, Any]:
    """The public state of a live game."""
    g = live.game
    s = g.state
    finished = s.finished
    names = [p.name for p in s.players]
    worth = g.title.raw_scores(g)
    limit = g.title.certificate_limit(g)
    extra = plain(g.title.describe_state(g))
    statuses = or_status(g)
    companies_of: dict[str, list[str]] = {}
    for co in s.companies.values():
        if co.owner is not None and not co.closed:
            companies_of.setdefault(co.owner, []).append(co.sym)
    round_info: dict[str, Any] = plain(s.round.to_dict()) if s.round is not None else {}
    round_info.update(
        {
            "kind": s.round.kind if s.round is not None else None,
            "stock_round": s.stock_round_no,
            "operating_round": s.operating_round_no,
            "or_in_set": s.or_in_set,
            "ors_in_set": s.ors_in_set,
            "label": round_label(g),
        }
    )
    return {
        "id": live.record.id,
        "title": g.title.name,
        "rules_version": g.rules_version,
        "index": live.index,
        "actions": len(g.actions),
        "seats": [
            {"player": seat.player, "bot": seat.bot, "level": seat.bot_level if seat.bot else None}
            for seat in live.seats
        ],
        "active_entity": g.active_entity(),
        "acting_player": g.acting_player(),
        "finished": finished,
        "end_reason": s.end_reason,
        "end_words": end_words(s.end_reason),
        "currency": currency(g),
        "end_trigger": s.end_trigger,
        "scores": g.title.scores(g) if finished else None,
        "raw_scores": g.title.raw_scores(g) if finished else None,
        "undo": live.undo_seat(),
        "undo_gone": None
        if (gone := live.undo_gone()) is None
        else {"player": gone, "why": REVEALED},
        "redo": live.redo_seat(),
        "round": round_info,
        "phase": g.phase.name,
        "phases_reached": list(s.phases_reached),
        "bank": {
            "cash": s.bank.cash,
            "broken": s.bank.broken,
            "text": bank_words(s.bank.cash, s.bank.broken, g.title.money),
        },
        "priority": names[s.priority] if 0 <= s.priority < len(names) else None,
        "players": [
            {
                "name": p.name,
                "cash": p.cash,
                "loans": p.loans,
                "bankrupt": p.bankrupt,
                "shares": {sym: pct for sym in s.corps if (pct := s.shares.percent(p.name, sym))},
                "companies": companies_of.get(p.name, []),
                "certificates": player_certs(g, p.name),
                "certificate_limit": limit,
                "worth": worth.get(p.name),
            }
            for p in s.players
        ],
        "corporations": [
            {
                "sym": sym,
                "name": corp.name,
                "kind": corp.kind,
                # who decides for it: its president (an 1854 Local Railway's owner)
                "president": g.title.controller(g, sym),
                "price": s.market.price(sym) if sym in s.market else None,
                "par_price": corp.par_price,
                "cash": corp.cash,
                "trains": list(corp.trains),
                "train_names": [s.depot.name(tid) for tid in corp.trains if tid in s.depot.trains],
                "tokens": corp.tokens,
                "placed": [[h, c] for h, c in corp.placed],
                "home": corp.home,
                "parred": corp.parred,
                "floated": corp.floated,
                "closed": corp.closed,
                "operated": corp.operated,
                "or_status": statuses.get(sym),
                "revenue_history": list(corp.revenue_history),
                "treasury": s.shares.percent(treasury(sym), sym),
                "pool": s.shares.percent(POOL, sym),
                "companies": companies_of.get(sym, []),
                "holds": g.title.corporation_holds(g, sym),
            }
            for sym, corp in s.corps.items()
        ],
        "companies": [
            {
                "sym": co.sym,
                "name": co.name,
                "value": co.value,
                "revenue": co.revenue,
                "ability": g.title.company_ability(co.sym),
                "group": g.title.company_group(g, co.sym),
                "owner": co.owner,
                "closed": co.closed,
            }
            for co in s.companies.values()
        ],
        "trains_for_sale": [
            {"id": t.tid, "kind": t.kind, "price": s.depot.types[t.kind].price}
            for t in s.depot.purchasable(set(s.phases_reached))
        ],
        "depot": [
            {
                "kind": kind,
                "name": ttype.title or kind,
                "distance": ttype.distance,
                "price": ttype.price,
                "count": ttype.count,
                "left": sum(1 for t in s.depot.in_bank() if t.kind == kind),
                "pool": sum(1 for t in s.depot.owned_by(POOL) if t.kind == kind),
                "rusts_on": ttype.rusts_on,
                "variants": [v.name for v in ttype.variants],
                "note": g.title.train_note(kind),
            }
            for kind, ttype in s.depot.types.items()
        ],
        "map": plain(s.map.to_dict()),
        "market": plain(s.market.to_dict()),
        "pending": [
            {"kind": kind, "entity": entity, "asked": g.title.prompt(kind).why(g, entity)}
            for kind, entity in s.pending
        ],
        "offer": offer_facts(g),
        "extra": extra,
        "tables": [table.to_dict() for table in g.title.fact_tables(g)],
        "markers": [marker.to_dict() for marker in g.title.map_markers(g)],
        "to_start": to_start(g, extra),
        "operating_rounds": live.chronicle.operating_rounds(g),
        "events": list(s.events[-EVENTS_SHOWN:]),
        "events_total": len(s.events),
        "state_hash": shown_hash(g),
    }


#: How many other runs of each train the table offers to choose from.
ALTERNATIVES = 12


def proposed_runs(game: Game, actions: list[Action]) -> dict[str, Any] | None:
    """What the engine's proposed runs earn, when running trains is among the legal `actions`:
    ``{"revenue": total, "runs": {train: revenue}, "alternatives": {train: [run]}}`` from the
    title's route optimizer (the search that proposed them), with each running train's best
    runs on its own (``{"stops", "track", "revenue"}``, stops and track as in the action) for
    a player who prefers other runs; None when there is no proposal, or when the optimizer's
    runs are not exactly the proposal (a title that adds runs of its own)."""
    proposal = next((a for a in actions if isinstance(a, RunRoutes)), None)
    if proposal is None:
        return None
    corp = proposal.entity
    solution = game.title.best_routes(game, corp)
    if runs_action(corp, solution.runs) != proposal:
        return None
    trains, rules = game.title.route_inputs(game, corp)
    choices: dict[str, list[dict[str, Any]]] = {}
    for train in trains:
        runs = alternatives(game.state.map, corp, train, rules, ALTERNATIVES)
        spec = runs_action(corp, runs).runs
        choices[train.id] = [
            {"stops": list(r.stops), "track": list(r.track), "revenue": run.revenue}
            for r, run in zip(spec, runs, strict=True)
        ]
    return {
        "revenue": solution.revenue,
        "runs": {run.train: run.revenue for run in solution.runs},
        "alternatives": choices,
    }
