"""A terminal game typed by a script: what the screen shows goes to a string."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from rich.console import Console

from tresham import terminal
from tresham.core.game import Game


def scripted(monkeypatch: pytest.MonkeyPatch, typed: Callable[[Game], str]) -> io.StringIO:
    """Make `tresham play` read each line from `typed(game)` (the game it shows) and write
    its screen, but for the board and tables, to the string returned."""
    screen = io.StringIO()
    tables: list[terminal.Terminal] = []
    original = terminal.Terminal.__init__

    def quiet_init(
        self: terminal.Terminal, game: Game, console: object = None, bots: object = None
    ) -> None:
        original(self, game, Console(file=screen, width=100_000), bots)  # type: ignore[arg-type]
        tables.append(self)

    monkeypatch.setattr(terminal.Terminal, "__init__", quiet_init)
    monkeypatch.setattr(Console, "input", lambda self, prompt="": typed(tables[-1].game))
    monkeypatch.setattr(terminal.Terminal, "show", lambda self: None)
    return screen
