"""Helpers that set up positions for tests (not moves of a game)."""

from __future__ import annotations

from tresham.core.game import Game


def give_train(g: Game, corp: str, kind: str) -> str:
    """Hand `corp` the bank's next train of `kind`; returns its id."""
    s = g.state
    train = next(t for t in s.depot.in_bank() if t.kind == kind)
    train.owner = corp
    s.corps[corp].trains.append(train.tid)
    return train.tid
