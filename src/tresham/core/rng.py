"""The game's one seeded random generator, in two kinds chosen by the save's options.

- ``"tresham"`` (the default for native games): Python's Mersenne Twister seeded with the game
  seed; a permutation is ``random.shuffle``.
- ``"18xx.games"`` (for imported games, so that a draw comes out as it did on the site): a
  linear congruential generator, ``state = (1103515245 * state + 12345) mod 2**31``, started
  at ``seed mod 2**31``; each draw returns the new state. A permutation sorts the items by one
  draw each, drawn in the items' order before sorting.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

GENERATORS = ("tresham", "18xx.games")
LCG_MODULUS = 2**31
LCG_MULTIPLIER = 1103515245
LCG_INCREMENT = 12345


class GameRandom(Protocol):
    """What the game asks of its generator. `draws` counts what was drawn from it (so the
    game knows an action's outcome came from it: core/game.py, ``revealed``)."""

    name: str
    draws: int

    def permutation(self, items: Sequence[T]) -> list[T]:
        """The items in a random order."""
        ...

    def fingerprint(self) -> object:
        """A small JSON-able summary of the generator's state (for state hashes)."""
        ...


class TreshamRandom:
    """Python's generator: the default for games started in tresham."""

    name = "tresham"

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        self.draws = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> TreshamRandom:
        new = TreshamRandom(0)
        new._random.setstate(self._random.getstate())
        new.draws = self.draws
        memo[id(self)] = new
        return new

    def permutation(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self._random.shuffle(out)
        self.draws += 1
        return out

    def fingerprint(self) -> object:
        return list(self._random.getstate()[1][:4])


class SiteRandom:
    """18xx.games' linear congruential generator (full period, so draws never tie)."""

    name = "18xx.games"

    def __init__(self, seed: int) -> None:
        self.state = seed % LCG_MODULUS
        self.draws = 0

    def draw(self) -> int:
        """The next state, which is also the value drawn."""
        self.state = (LCG_MULTIPLIER * self.state + LCG_INCREMENT) % LCG_MODULUS
        self.draws += 1
        return self.state

    def permutation(self, items: Sequence[T]) -> list[T]:
        keys = [self.draw() for _ in items]
        return [item for _, item in sorted(zip(keys, items, strict=True), key=lambda p: p[0])]

    def fingerprint(self) -> object:
        return self.state


def make_rng(kind: str, seed: int) -> GameRandom:
    """The generator called `kind` (one of :data:`GENERATORS`), seeded with `seed`."""
    if kind == "tresham":
        return TreshamRandom(seed)
    if kind == "18xx.games":
        return SiteRandom(seed)
    raise ValueError(f"unknown random generator {kind!r}; choose one of {', '.join(GENERATORS)}")
