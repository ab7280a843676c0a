"""Phase changes: the first purchase of a train type may start a new phase, and trains that
rust on that type leave the game (the common 18xx rule; titles add their events)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tresham.core.game import Game


def first_purchase(game: Game, kind: str) -> bool:
    """Record a purchase of train type `kind`. On the first one: the phase it starts begins,
    and every train rusting on it leaves its owner and the game. Returns whether this was
    the first purchase of the type."""
    s = game.state
    bought: list[str] = s.extra.setdefault("types_bought", [])
    if kind in bought:
        return False
    bought.append(kind)
    for i, phase in enumerate(game.title.phases):
        if phase.on == kind and i > s.phase_index:
            s.phase_index = i
            s.phases_reached.append(phase.name)
            game.log(f"Phase {phase.name} begins")
    for t in s.depot.rust(kind):
        owner = next((c for c in s.corps.values() if t.tid in c.trains), None)
        if owner is not None:
            owner.trains.remove(t.tid)
        holder = f"{owner.sym}'s" if owner is not None else "The pool's"
        game.log(f"{holder} {s.depot.name(t.tid)} train rusts")
    return True
