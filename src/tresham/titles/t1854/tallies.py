"""What a simulation summary counts for 1854 (issues: mergers, splits, mail contracts, Orient
Express purchases, medium-sized cities' promotions and double small cities' upgrades must
occur in random play)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tresham.core.game import Game

#: The keys of the counts kept in ``GameState.extra["counts"]``.
KEPT = ("local_mergers", "mail_contracts", "medium_promotions", "double_city_upgrades")


def tally(game: Game, key: str) -> None:
    """Count one more `key` event."""
    counts: dict[str, int] = game.state.extra.setdefault("counts", {})
    counts[key] = counts.get(key, 0) + 1


def counters(game: Game) -> dict[str, int]:
    """Local Railway mergers, mail contracts bought, medium-sized cities promoted, double
    small cities upgraded, companies split, Orient Expresses bought, tunnels built."""
    s = game.state
    counts: dict[str, int] = s.extra.get("counts", {})
    orient = sum(
        1
        for t in s.depot.trains.values()
        if s.depot.types[t.kind].name == "OE" and t.owner is not None
    )
    return {
        **{key: counts.get(key, 0) for key in KEPT},
        "share_splits": len(s.extra["split"]),
        "orient_expresses": orient,
        "tunnels": sum(len(v) for v in s.map.overlays.values()),
    }
