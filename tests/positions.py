"""Helpers that set up positions for tests (not moves of a game)."""

from __future__ import annotations

from tresham.core.actions import RunRoutes
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.server.bots import bot_action


def give_train(g: Game, corp: str, kind: str) -> str:
    """Hand `corp` the bank's next train of `kind`; returns its id."""
    s = g.state
    train = next(t for t in s.depot.in_bank() if t.kind == kind)
    train.owner = corp
    s.corps[corp].trains.append(train.tid)
    return train.tid


def two_trains_to_run() -> tuple[Game, RunRoutes]:
    """An 1849 game of easy bots at a corporation's run with two trains or more that run."""
    game = new_game("1849", ["Ann", "Bob", "Cid"], 3)
    while not game.state.finished:
        runs = [a for a in game.legal_actions() if isinstance(a, RunRoutes) and len(a.runs) > 1]
        if runs:
            return game, runs[0]
        game.apply(bot_action(game, len(game.actions), "easy"))
    raise AssertionError("no corporation ran two trains")


def asked(g: Game) -> str:
    """What the first pending prompt tells those who watch (its ``why``, as the public
    state's ``asked``)."""
    kind, entity = g.state.pending[0]
    return g.title.prompt(kind).why(g, entity)
