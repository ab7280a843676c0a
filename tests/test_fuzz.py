"""Bad input changes nothing: malformed and illegal actions made up during random games raise
a typed error and leave the state hash unchanged (the property `tresham fuzz` checks at
scale; here in bounded form, with hypothesis choosing the seeds)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tresham.core.errors import RuleError
from tresham.fuzz import FuzzResult, fuzz, submit
from tresham.io.save import new_game


@pytest.mark.parametrize(
    ("title", "players"), [("1849", 3), ("1883", 4), ("1883", 2), ("1854", 3), ("1854", 6)]
)
@given(seed=st.integers(min_value=0, max_value=10**6))
@settings(max_examples=4, deadline=None)
def test_bad_input_changes_nothing(title: str, players: int, seed: int) -> None:
    result = fuzz(title, 150, seed, players)
    assert result.tried >= 150
    assert result.crashes == 0, result.samples
    assert result.state_changed == 0, result.samples
    assert result.rejected > 0


def test_submit_classifies() -> None:
    """A legal action is accepted; an illegal one rejected with the state unchanged; junk
    that is not an action is rejected by the parser (a typed error, not a crash)."""
    game = new_game("1849", ["A", "B", "C"], 1)
    result = FuzzResult("1849")
    legal = game.legal_actions()[0].to_json()
    submit(game, {**legal, "entity": "nobody"}, result)
    submit(game, {"type": "lay_tile", "entity": "A", "hex": 5, "tile": [], "rotation": "x"}, result)
    submit(game, None, result)
    assert (result.rejected, result.accepted, result.crashes) == (3, 0, 0)
    submit(game, legal, result)
    assert result.accepted == 1
    with pytest.raises(RuleError):
        game.apply(
            game.legal_actions()[0].__class__(**{**vars(game.legal_actions()[0]), "entity": "zz"})
        )
