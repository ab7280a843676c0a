"""Random play: complete games with the invariants checked after every action (issue: at
least 100 complete games over 3, 4 and 5 players)."""

from __future__ import annotations

import pytest

from tresham.sim import play_one

GAMES = [(players, seed) for players in (3, 4, 5) for seed in range(1, 35)]


@pytest.mark.parametrize(("players", "seed"), GAMES[:102])
def test_random_game_finishes_with_invariants(players: int, seed: int) -> None:
    game, violations, error = play_one("1849", players, seed)
    assert error is None, error
    assert violations == []
    assert game.state.finished
    assert game.state.end_reason in {"bank", "stock_market", "bankrupt", "no_play"}
