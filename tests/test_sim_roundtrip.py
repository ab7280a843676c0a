"""Random games saved and reloaded along the way come back identical (issue 9: the simulate
round trip), for every registered title; and the check does catch a difference."""

from __future__ import annotations

import random

import pytest

from tresham import sim
from tresham.io.save import new_game
from tresham.titles.registry import get_title, titles


@pytest.mark.parametrize("title", titles())
def test_save_and_reload_along_random_games(title: str) -> None:
    low, high = get_title(title).player_range
    for players, seed in ((low, 3), (high, 4)):
        game, violations, error = sim.play_one(title, players, seed, roundtrip_every=400)
        assert error is None, error
        assert violations == []
        assert game.state.finished


def test_a_reload_that_differs_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    def other_game(data: object) -> object:
        return new_game("1849", ["A", "B", "C"], 999)

    monkeypatch.setattr(sim, "from_save", other_game)
    _game, violations, _error = sim.play_one("1849", 3, 1, roundtrip_every=50)
    assert violations == ["action 50: the state after a save and reload differs"]


def test_a_reload_kept_up_to_date_still_sees_a_later_difference() -> None:
    # the reloaded copy catches up on the actions saved since the last check; a state that
    # has drifted from its log after that is still reported
    game = new_game("1849", ["A", "B", "C"], 5)
    reload = sim.Reload()
    rng = random.Random(5)
    for _ in range(60):
        game.apply(sim.choose(game, rng))
    assert reload.problem(game) is None
    for _ in range(60):
        game.apply(sim.choose(game, rng))
    assert reload.problem(game) is None and reload.loaded is not None
    assert len(reload.loaded.actions) == 120
    game.state.players[0].cash += 1  # a state that no longer follows from its log
    assert reload.problem(game) == "the state after a save and reload differs"
