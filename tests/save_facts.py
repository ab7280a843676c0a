"""The public facts of a position that a sample save must reproduce when loaded."""

from __future__ import annotations

from typing import Any

from tresham.core.game import Game


def facts(game: Game) -> dict[str, Any]:
    """Actions, round, phase, money, share prices, holdings and the map's tiles."""
    s = game.state
    return {
        "actions": len(game.actions),
        "finished": s.finished,
        "round": s.round.kind if s.round is not None else None,
        "stock_round": s.stock_round_no,
        "operating_round": s.operating_round_no,
        "phase": game.phase.name,
        "bank": s.bank.cash,
        "players": {p.name: p.cash for p in s.players},
        "corporations": {sym: c.cash for sym, c in s.corps.items()},
        "prices": {sym: s.market.price(sym) for sym in s.corps if sym in s.market},
        "holdings": {
            p.name: sorted(f"{c.corp}:{c.percent}" for c in s.shares.held(p.name))
            for p in s.players
        },
        "tiles": sorted(f"{h}:{t}:{r}" for h, (t, r) in s.map.tiles.items()),
    }
