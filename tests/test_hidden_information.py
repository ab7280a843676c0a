"""The engine knows which actions revealed hidden information (core/game.py, ``revealed``):
those during which the game's generator was drawn from or what the title keeps unknown
(``Title.unknown``: 1883's undrawn event cards) changed; and whether its seed would give
anything away (``keeps_secrets``). Rulings: 1883 R36."""

from __future__ import annotations

import random

from tresham.bots.players import get_bot
from tresham.io.save import from_save, new_game, to_save
from tresham.titles.t1883 import events


def test_the_actions_that_drew_are_the_revealing_ones() -> None:
    game = new_game("1883", ["Ann", "Bob", "Cid"], 31)
    bot, rng = get_bot("random"), random.Random(4)
    drawn = 0
    while not game.state.finished:
        draws, deck = game.state.rng.draws, events.undrawn(game)
        game.apply(bot.choose(game, rng))
        changed = game.state.rng.draws != draws or events.undrawn(game) != deck
        assert game.revealed() == changed
        drawn += len(events.undrawn(game)) < len(deck)
    assert drawn >= 3 and 0 < len(game.revealing) < len(game.actions)
    # a replay (a save loaded) finds the same actions
    assert from_save(to_save(game)).revealing == game.revealing


def test_undo_redo_and_copies_keep_count() -> None:
    game = new_game("1883", ["Ann", "Bob", "Cid"], 31)
    bot, rng = get_bot("random"), random.Random(4)
    while not game.revealed() or not game.revealing - {len(game.actions)}:
        game.apply(bot.choose(game, rng))
    revealing = set(game.revealing)
    copy = game.clone()
    game.undo()
    assert not game.revealed() and game.revealing == revealing - {len(game.actions) + 1}
    assert copy.revealed() and copy.revealing == revealing
    game.redo()
    assert game.revealed() and game.revealing == revealing


def test_only_a_running_game_with_something_unknown_keeps_secrets() -> None:
    assert new_game("1883", ["Ann", "Bob", "Cid"], 1).keeps_secrets()
    assert not new_game("1849", ["Ann", "Bob", "Cid"], 1).keeps_secrets()
    assert not new_game("1854", ["Ann", "Bob", "Cid"], 1).keeps_secrets()
    game = new_game("1883", ["Ann", "Bob", "Cid"], 31)
    bot, rng = get_bot("random"), random.Random(4)
    while not game.state.finished:
        game.apply(bot.choose(game, rng))
    assert not game.keeps_secrets()
