"""`tresham play TITLE` plays a game to its end in the terminal (1883 §10, 1854 §8; issues:
"tresham play 1883 --players 4 plays a game to its end", the same for 1854): a scripted player
types the number of the action the random bot would choose (1849 shares the same terminal
code)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from rich.console import Console

from tresham import terminal
from tresham.bots.random_bot import choose
from tresham.cli import main


@pytest.mark.parametrize("title", ["1883", "1854"])
def test_a_terminal_game_plays_to_its_end(
    title: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    screen = io.StringIO()
    rng = random.Random(5)
    tables: list[terminal.Terminal] = []
    original = terminal.Terminal.__init__

    def quiet_init(self: terminal.Terminal, game: object, console: object = None) -> None:
        original(self, game, Console(file=screen, width=100_000))  # type: ignore[arg-type]
        tables.append(self)

    def typed(self: Console, prompt: str = "") -> str:
        game = tables[-1].game
        return str(game.legal_actions().index(choose(game, rng)))

    monkeypatch.setattr(terminal.Terminal, "__init__", quiet_init)
    monkeypatch.setattr(Console, "input", typed)
    monkeypatch.setattr(terminal.Terminal, "show", lambda self: None)
    assert main(["play", title, "--players", "4", "--seed", "3"]) == 0
    result = json.loads(screen.getvalue().strip().splitlines()[-1])
    assert result["finished"] is True
    assert (tmp_path / "saves").is_dir()
