"""A tournament game can seat a player of another program (a benchmark's outside player)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tresham.bots.random_bot import choose
from tresham.bots.tournament import play_game
from tresham.core.actions import Action
from tresham.core.game import Game


@dataclass
class Counting:
    """Plays the random bot's choice and counts the positions it was asked about."""

    name: str = "counting"
    asked: list[str] = field(default_factory=list)

    def choose(self, game: Game, rng: random.Random) -> Action:
        self.asked.append(game.acting_player() or "")
        return choose(game, rng)


def test_a_named_outside_player_takes_its_seat_and_only_its_seat() -> None:
    outside = Counting()
    result = play_game("1849", ["counting", "easy", "easy"], 1, 3, players={"counting": outside})
    assert result.illegal == 0 and result.crashes == 0
    assert outside.asked, "the outside player was never asked"
    assert set(outside.asked) == {"P1"}
    assert [s.bot for s in result.seats] == ["counting", "easy", "easy"]
    assert len(result.decisions["counting"]) == len(outside.asked)
