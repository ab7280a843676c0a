"""The bots by name: ``random``, ``easy`` and ``medium`` (``bots/heuristic.py``) and ``hard``
(``bots/search.py``), whose level may name its budget: ``hard:250ms``, ``hard:2s`` (``hard``
alone: 1 s). A bot is anything with a `name` and a ``choose(game, rng) -> Action`` for the
entity to act."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from tresham.bots import random_bot
from tresham.bots.heuristic import EASY, MEDIUM
from tresham.bots.search import DEFAULT_MS, SearchBot, hard, work_units
from tresham.core.actions import Action
from tresham.core.errors import quote
from tresham.core.game import Game
from tresham.core.game_spec import SetupError


class Bot(Protocol):
    """A player the program plays."""

    name: str

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The action for the entity to act (one of `game.legal_actions()`, or the same
        action with another amount)."""
        ...


@dataclass
class RandomBot:
    """Uniformly among the legal actions, with the light bias of ``random_bot.choose``."""

    name: str = "random"

    def choose(self, game: Game, rng: random.Random) -> Action:
        return random_bot.choose(game, rng)


#: The levels a bot seat may have (``hard`` at its default budget; `get_bot` also takes
#: ``hard:BUDGET``).
BOTS: dict[str, Bot] = {
    "random": RandomBot(),
    "easy": EASY,
    "medium": MEDIUM,
    "hard": SearchBot("hard", work_units(DEFAULT_MS), ms=DEFAULT_MS),
}
#: The level of a bot seat when none is named.
DEFAULT_LEVEL = "medium"


def get_bot(level: str) -> Bot:
    """The bot of this level; a SetupError (field "bots") for an unknown one."""
    bot = BOTS.get(level) or hard(level)
    if bot is None:
        raise SetupError(f"unknown bot level {quote(level)}; one of {', '.join(BOTS)}", "bots")
    return bot
