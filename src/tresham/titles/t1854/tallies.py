"""What a simulation summary counts for 1854 (issues: mergers, splits, mail contracts, Orient
Express purchases, medium-sized cities' promotions and double small cities' upgrades must
occur in random play)."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

from tresham.titles.t1854.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game


def counters(game: Game) -> dict[str, int]:
    """Local Railway mergers, mail contracts bought, medium-sized cities promoted, double
    small cities upgraded, companies split, Orient Expresses bought, tunnels built."""
    s = game.state
    state = state_of(game)
    orient = sum(
        1
        for t in s.depot.trains.values()
        if s.depot.types[t.kind].name == "OE" and t.owner is not None
    )
    return {
        **asdict(state.tallies),
        "share_splits": len(state.split),
        "orient_expresses": orient,
        "tunnels": sum(len(v) for v in s.map.overlays.values()),
    }
