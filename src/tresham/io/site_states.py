"""The site engine's state after every action (``shared/reference/18xx-games/STATES.md``),
compared with an import's, action by action.

A states file has one JSON line per action of the export's effective log. :func:`site_view`
and :func:`our_view` turn the site's line and tresham's game into the same flat form, one
entry per compared field (``"corps.SFA.cash"``, ``"players.341.shares"``, ``"bank"`` …), so
that :func:`first_difference` can name the first field that differs. Lists whose order carries
no rule (trains, tokens, privates) are compared as sorted lists.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tresham.core.actions import Pass
from tresham.core.errors import RuleError
from tresham.core.rounds.auction import WaterfallAuction
from tresham.core.rounds.operating import OperatingRound
from tresham.core.rounds.stock import StockRound
from tresham.core.shares import POOL, treasury
from tresham.io.site_export import ImportFailure

if TYPE_CHECKING:
    from tresham.core.game import Game

#: The most passes a copy of the game makes to reach the site's active entity (STATES.md:
#: the site skips by itself an entity that can only pass, also through whole rounds while no
#: player can act).
MAX_SKIPPED_PASSES = 60
#: Train owners that mean "in the bank's pool" and "not sold yet".
POOL_OWNER = "pool"

CORP_FIELDS = (
    "cash",
    "trains",
    "price",
    "tokens",
    "treasury_pct",
    "pool_pct",
    "president",
    "floated",
    "companies",
)
PLAYER_FIELDS = ("cash", "shares", "companies", "penalty")
ROUND_NAMES = {
    WaterfallAuction: "Auction Round",
    StockRound: "Stock Round",
    OperatingRound: "Operating Round",
}

View = dict[str, Any]


@dataclass(frozen=True)
class Divergence:
    """The first field where tresham's state differs from the site's after an action."""

    id: int
    field: str
    site: Any
    tresham: Any

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "field": self.field, "site": self.site, "tresham": self.tresham}

    def describe(self) -> str:
        return (
            f"state differs from the site's: {self.field} is {_show(self.site)} on the site, "
            f"{_show(self.tresham)} here"
        )


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def states_path(export: Path) -> Path | None:
    """The states file beside an export (``<game>.json`` -> ``<game>.states.jsonl``), if
    there is one."""
    beside = export.with_name(f"{export.stem}.states.jsonl")
    return beside if beside.is_file() else None


def read_states(path: Path) -> list[dict[str, Any]]:
    """The lines of a states file; a clear failure for a line that is not a state."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise ImportFailure(f"cannot read the states file {path}: {exc.strerror}") from None
    return parse_states(text.splitlines(), str(path))


def parse_states(lines: Iterable[str], where: str = "states") -> list[dict[str, Any]]:
    """Parse the JSON lines of a states file (blank lines skipped)."""
    out: list[dict[str, Any]] = []
    for n, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ImportFailure(f"{where} line {n} is not JSON: {exc.msg}") from None
        if not isinstance(line, dict) or not {"id", "corps", "players"} <= set(line):
            raise ImportFailure(f"{where} line {n}: not a state (needs id, corps, players)")
        out.append(line)
    return out


def site_view(line: dict[str, Any]) -> View:
    """The compared fields of a site state line."""
    view: View = {
        "round": line.get("round"),
        "phase": line.get("phase"),
        "bank": line.get("bank"),
        "finished": line.get("finished"),
        "corps": sorted(line["corps"]),
        "players": sorted(line["players"]),
    }
    for sym, corp in sorted(line["corps"].items()):
        for f in CORP_FIELDS:
            value = corp.get(f)
            if f in ("trains", "tokens", "companies"):
                value = sorted(value or [])
            view[f"corps.{sym}.{f}"] = value
    for pid, player in sorted(line["players"].items()):
        for f in PLAYER_FIELDS:
            value = player.get(f)
            if f == "companies":
                value = sorted(value or [])
            elif f == "shares":
                value = {k: v for k, v in sorted((value or {}).items()) if v}
            view[f"players.{pid}.{f}"] = value
    view["depot_left"] = dict(sorted((line.get("depot_left") or {}).items()))
    view["pool"] = sorted(line.get("pool") or [])
    return view


def our_view(game: Game, ids: dict[str, str], penalty: Callable[[Game, str], int]) -> View:
    """The same fields of tresham's game; `ids` maps player names to the site's ids."""
    s = game.state
    rnd = s.round
    view: View = {
        "round": next((n for k, n in ROUND_NAMES.items() if isinstance(rnd, k)), None),
        "phase": game.phase.name,
        "bank": s.bank.cash,
        "finished": s.finished,
        "corps": sorted(s.corps),
        "players": sorted(ids[p.name] for p in s.players),
    }
    reg = s.shares
    for sym, corp in sorted(s.corps.items()):
        president = reg.president.get(sym)
        fields = {
            "cash": corp.cash,
            "trains": sorted(t.tid for t in s.depot.owned_by(sym)),
            "price": s.market.price(sym) if sym in s.market else None,
            "tokens": sorted(h for h, _ in corp.placed),
            "treasury_pct": reg.percent(treasury(sym), sym),
            "pool_pct": reg.percent(POOL, sym),
            "president": ids.get(president) if president is not None else None,
            "floated": corp.floated,
            "companies": _companies(game, sym),
        }
        for f in CORP_FIELDS:
            view[f"corps.{sym}.{f}"] = fields[f]
    for p in sorted(s.players, key=lambda q: ids[q.name]):
        shares = {sym: reg.percent(p.name, sym) for sym in sorted(s.corps)}
        fields = {
            "cash": p.cash,
            "shares": {k: v for k, v in shares.items() if v},
            "companies": _companies(game, p.name),
            "penalty": penalty(game, p.name),
        }
        for f in PLAYER_FIELDS:
            view[f"players.{ids[p.name]}.{f}"] = fields[f]
    left: dict[str, int] = {}
    for t in s.depot.in_bank():
        left[t.kind] = left.get(t.kind, 0) + 1
    view["depot_left"] = dict(sorted(left.items()))
    view["pool"] = sorted(t.tid for t in s.depot.owned_by(POOL_OWNER))
    return view


def _companies(game: Game, owner: str) -> list[str]:
    return sorted(c.sym for c in game.state.companies.values() if c.owner == owner and not c.closed)


def first_difference(site: View, ours: View, skip: set[str] | None = None) -> str | None:
    """The first field (in the site view's order) whose values differ, or None."""
    for key, value in site.items():
        if skip and key in skip:
            continue
        if key not in ours or ours[key] != value:
            return key
    return None


def site_active(line: dict[str, Any], names: dict[str, str]) -> set[str]:
    """The entities the site waits for, as tresham names them."""
    return {names.get(str(e), str(e)) for e in line.get("active") or []}


def aligned_game(game: Game, active: set[str]) -> Game:
    """The game to compare with a site line whose active entities are `active`: the game
    itself, or, when it waits for someone else who can only pass, a copy that made those
    passes and so reached one of the site's entities (STATES.md, "Comparing"). A player who
    can only pass in a stock round is not the one the site waits for (it passes them by
    itself, round after round while no one can act): the copy passes them too, to the first
    of the site's entities who can act; where none comes, the first of them reached (the
    site's stalled stock round names one who can only pass)."""
    if not active or game.state.finished:
        return game
    if game.active_entity() in active and not passes_by_itself(game):
        return game
    first = game if game.active_entity() in active else None
    trial = game.clone()
    for _ in range(MAX_SKIPPED_PASSES):
        entity = trial.active_entity()
        if entity in active:
            if not passes_by_itself(trial):
                return trial
            if first is None:
                first = trial.clone()
        legal = trial.legal_actions()
        if entity is None or not legal or not all(isinstance(a, Pass) for a in legal):
            break
        try:
            trial.apply(Pass(entity))
        except RuleError:
            break
    return game if first is None else first


def passes_by_itself(game: Game) -> bool:
    """Whether the site passes the active entity by itself: a player in a stock round with
    nothing to do but pass ("has no valid actions and passes")."""
    if not isinstance(game.state.round, StockRound):
        return False
    legal = game.legal_actions()
    return bool(legal) and all(isinstance(a, Pass) for a in legal)
