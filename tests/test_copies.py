"""Copies of a game: `clone` (independent, with undo) and `search_copy` (for bots: cheap, no
undo, optionally with what nobody knows drawn anew). Their cost is in benchmarks/copies.py."""

from __future__ import annotations

import random

import pytest

from rejections import rejected
from tresham.bots.random_bot import choose
from tresham.core.errors import RuleError
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.titles.t1883.state import state_of


def _played(title: str, actions: int, seed: int = 4) -> Game:
    game = new_game(title, ["A", "B", "C", "D"], seed)
    rng = random.Random(seed)
    while len(game.actions) < actions and not game.state.finished:
        game.apply(choose(game, rng))
    return game


@pytest.mark.parametrize("title", ["1849", "1883", "1854"])
def test_a_clone_is_independent_and_shares_the_title(title: str) -> None:
    game = _played(title, 300)
    twin = game.clone()
    assert twin.title is game.title and twin.state_hash() == game.state_hash()
    before = game.state_hash()
    rng = random.Random(1)
    for _ in range(60):
        twin.apply(choose(twin, rng))
    assert game.state_hash() == before and len(game.actions) == 300
    twin.undo()  # the clone keeps its own undo history
    game.apply(choose(game, random.Random(2)))
    game.undo()
    assert game.state_hash() == before


@pytest.mark.parametrize("title", ["1849", "1883", "1854"])
def test_a_search_copy_plays_as_the_game_does(title: str) -> None:
    game = _played(title, 400)
    work = game.search_copy()
    assert work.state_hash() == game.state_hash()
    same = game.clone()
    rng_a, rng_b = random.Random(7), random.Random(7)
    for _ in range(80):
        if work.state.finished:
            break
        action = choose(work, rng_a)
        assert choose(same, rng_b) == action
        work.apply_known(action)
        same.apply(action)
        assert work.state_hash() == same.state_hash()
    assert len(game.actions) == 400  # the original is untouched
    with pytest.raises(RuleError):
        work.undo()
    with pytest.raises(RuleError):
        game.apply_known(action)  # only for search copies


def test_a_search_copy_refuses_illegal_actions_too() -> None:
    game = _played("1849", 200)
    work = game.search_copy()
    wrong = next(a for a in game.legal_actions())
    other = game.player_names[0] if wrong.entity != game.player_names[0] else "B"
    rejected(work, type(wrong)(**{**vars(wrong), "entity": other}))


def test_reseeding_hides_1883s_undrawn_cards() -> None:
    # 2.3 d: the event deck is shuffled; no player knows the order of the undrawn cards, so a
    # search copy with `reseed` draws them in another order and rolls other dice
    game = _played("1883", 100)
    deck = list(state_of(game).events.deck)
    assert len(deck) > 3
    orders = {tuple(state_of(game.search_copy(reseed=s)).events.deck) for s in range(6)}
    assert all(sorted(o) == sorted(deck) for o in orders) and len(orders) > 1
    assert state_of(game).events.deck == deck
    assert game.search_copy().state_hash() == game.state_hash()
