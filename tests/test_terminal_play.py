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

from offer_position import PROPOSAL, before_the_offer
from tresham import terminal
from tresham.bots.random_bot import choose
from tresham.cli import main
from tresham.core.actions import BuyTrain
from tresham.io.save import to_save


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


def test_the_terminal_shows_an_offer_and_its_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IFT (Cid) offers L.1 for CTL's 4H (core/deals.py): the screen says so and who answers,
    and numbers Bob's two answers; Bob declines, then accepts the offer made again."""
    game = before_the_offer()
    path = tmp_path / "offer.json"
    path.write_text(json.dumps(to_save(game)))
    buy = next(
        i
        for i, a in enumerate(game.legal_actions())
        if isinstance(a, BuyTrain) and a.train == PROPOSAL.train
    )
    typed = iter([f"{buy} 1", "1", f"{buy} 1", "0", "q"])
    screen = io.StringIO()
    original = terminal.Terminal.__init__

    def quiet_init(self: terminal.Terminal, game: object, console: object = None) -> None:
        original(self, game, Console(file=screen, width=200))  # type: ignore[arg-type]

    monkeypatch.setattr(terminal.Terminal, "__init__", quiet_init)
    monkeypatch.setattr(Console, "input", lambda self, prompt="": next(typed))
    monkeypatch.setattr(terminal.Terminal, "show", lambda self: None)
    assert main(["play", "1849", "--load", str(path)]) == 0
    lines = screen.getvalue().splitlines()
    asked = "Offer: IFT offers L.1 to CTL for train 4H. Bob answers for CTL: accept or decline?"
    at = [i for i, line in enumerate(lines) if line == asked]
    assert len(at) == 2
    for i in at:
        assert lines[i + 1].startswith("CTL to act (Bob).")
        assert lines[i + 2].split() == ["0", "Accept:", "sell", "4H", "to", "IFT", "for", "L.1"]
        assert lines[i + 3].split() == ["1", "Decline"]
    saved = json.loads(path.read_text())["actions"]
    assert [a["type"] for a in saved[-4:]] == ["buy_train", "choose", "buy_train", "choose"]
    assert [a.get("choice") for a in saved[-4:]] == [None, "decline", None, "accept"]
