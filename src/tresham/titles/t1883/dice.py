"""1883's ten-sided die (§6.9.5, §7.0): rolled with the game's one seeded generator."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tresham.core.game import Game

FACES = range(1, 11)


def d10(game: Game) -> int:
    """A roll of the d10: 1 to 10 (the face 0 reads as 10)."""
    return game.state.rng.permutation(FACES)[0]
