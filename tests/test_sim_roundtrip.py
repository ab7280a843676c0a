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


# Asking what is legal is a read: at every step of a random game (up to 1,500 actions, or its
# end) listing the legal actions leaves the state hash as it was
@pytest.mark.parametrize("title", titles())
def test_listing_legal_actions_changes_nothing(title: str) -> None:
    low, _high = get_title(title).player_range
    game = new_game(title, [f"P{i}" for i in range(low + 1)], 3)
    rng = random.Random(3)
    for _ in range(1500):
        if game.state.finished:
            break
        before = game.state_hash()
        action = sim.choose(game, rng)
        assert game.state_hash() == before, f"after {len(game.actions)} actions"
        game.apply(action)


def test_a_listing_that_changes_the_state_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    game_type = type(new_game("1849", ["A", "B", "C"], 1))
    listing = game_type.legal_actions

    def spoiling(self: object) -> object:
        self.state.extra["looked"] = len(self.actions)  # type: ignore[attr-defined]
        return listing(self)  # type: ignore[arg-type]

    monkeypatch.setattr(game_type, "legal_actions", spoiling)
    _game, violations, _error = sim.play_one("1849", 3, 1)
    assert violations == ["action 1: listing the legal actions changed the state"]
