"""`tresham play TITLE` plays a game to its end in the terminal (1883 §10, 1854 §8; issues:
"tresham play 1883 --players 4 plays a game to its end", the same for 1854): a scripted player
types the number of the action the random bot would choose (1849 shares the same terminal
code). With --bots, the players it names are played by bots of their levels, by themselves."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from offer_position import PROPOSAL, before_the_offer
from terminal_script import scripted
from tresham import terminal
from tresham.bots.players import get_bot
from tresham.bots.random_bot import choose
from tresham.cli import bot_levels, main
from tresham.core.actions import BuyTrain, action_from_json
from tresham.core.game import Game
from tresham.io.save import from_save, to_save


@pytest.mark.parametrize("title", ["1883", "1854"])
def test_a_terminal_game_plays_to_its_end(
    title: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    rng = random.Random(5)
    screen = scripted(monkeypatch, lambda game: str(game.legal_actions().index(choose(game, rng))))
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

    def quiet_init(
        self: terminal.Terminal, game: object, console: object = None, bots: object = None
    ) -> None:
        original(self, game, Console(file=screen, width=200), bots)  # type: ignore[arg-type]

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
        accept = lines[i + 2].split()
        assert accept[:8] == ["0", "Accept:", "sell", "4H", "to", "IFT", "for", "L.1"]
        # what accepting would do (tresham/words.py): the money changes hands
        assert "(CTL receives L.1" in lines[i + 2] and "IFT pays L.1" in lines[i + 2]
        assert lines[i + 3].split() == ["1", "Decline:", "CTL", "keeps", "4H"]
    saved = json.loads(path.read_text())["actions"]
    assert [a["type"] for a in saved[-4:]] == ["buy_train", "choose", "buy_train", "choose"]
    assert [a.get("choice") for a in saved[-4:]] == [None, "decline", None, "accept"]


# ---------------------------------------------------------------------- bots at the terminal
class Screen:
    """The terminal of `tresham play` in a test: what it prints, and a person who types
    `typed(game)` at each prompt (recording who was to act then, and how many actions were
    in force)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, typed: Any) -> None:
        self.out = io.StringIO()
        self.tables: list[terminal.Terminal] = []
        self.prompts: list[tuple[str | None, int]] = []
        original = terminal.Terminal.__init__
        screen = self

        def quiet_init(
            self: terminal.Terminal, game: Game, console: object = None, bots: Any = None
        ) -> None:
            original(self, game, Console(file=screen.out, width=300), bots)
            screen.tables.append(self)

        def prompt(console: Console, text: str = "") -> str:
            game = screen.tables[-1].game
            screen.prompts.append((game.acting_player(), len(game.actions)))
            return str(typed(game))

        monkeypatch.setattr(terminal.Terminal, "__init__", quiet_init)
        monkeypatch.setattr(Console, "input", prompt)
        monkeypatch.setattr(terminal.Terminal, "show", lambda self: None)

    def lines(self) -> list[str]:
        return self.out.getvalue().splitlines()


def bot_moves_checked(save: dict[str, Any], levels: dict[str, str]) -> int:
    """Replay a save and check each move of a player in `levels`: the move of the bot of
    that level, its random numbers seeded from the game's seed and the move's index (as the
    server seeds them); returns how many there were."""
    game = from_save({**save, "actions": []})
    checked = 0
    for i, raw in enumerate(save["actions"]):
        player = game.acting_player()
        if player in levels:
            rng = random.Random(f"tresham-bot:{game.seed}:{i}")
            assert get_bot(levels[player]).choose(game, rng).to_json() == raw, (i, player)
            checked += 1
        game.apply(action_from_json(raw))
    return checked


def test_bots_play_their_seats_in_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--bots Bob:medium,Cid:easy`: Ann (the first default name) is asked every time it is
    her turn and only then; Bob and Cid move by themselves, as their levels choose, each
    move shown with who made it."""
    monkeypatch.chdir(tmp_path)
    rng = random.Random(1)
    asked = iter(range(1_000))

    def typed(game: Game) -> str:
        if next(asked) >= 25:
            return "q"
        return str(game.legal_actions().index(choose(game, rng)))

    screen = Screen(monkeypatch, typed)
    argv = ["play", "1849", "--players", "3", "--seed", "3", "--bots", "Bob:medium,Cid:easy"]
    assert main(argv) == 0
    assert len(screen.prompts) == 26
    assert {player for player, _ in screen.prompts} == {"Ann"}
    assert screen.tables[-1].bots == {"Bob": "medium", "Cid": "easy"}
    (path,) = (tmp_path / "saves").iterdir()
    save = json.loads(path.read_text())
    assert save["players"] == ["Ann", "Bob", "Cid"]
    assert bot_moves_checked(save, {"Bob": "medium", "Cid": "easy"}) >= 25
    lines = screen.lines()
    assert any(line.startswith("Bob (bot, medium): ") for line in lines)
    assert any(line.startswith("Cid (bot, easy): ") for line in lines)


def test_a_game_of_bots_plays_to_its_end_in_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every player a bot (Ann named without a level: the default, medium): nobody is asked,
    and the game ends."""
    monkeypatch.chdir(tmp_path)
    screen = Screen(monkeypatch, lambda game: pytest.fail("a person was asked"))
    argv = ["play", "1849", "--seed", "4", "--bots", "Ann, Bob:easy,Cid:random"]
    assert main(argv) == 0
    assert screen.prompts == []
    assert json.loads(screen.lines()[-1])["finished"] is True
    assert screen.tables[-1].bots == {"Ann": "medium", "Bob": "easy", "Cid": "random"}
    (path,) = (tmp_path / "saves").iterdir()
    levels = {"Ann": "medium", "Bob": "easy", "Cid": "random"}
    assert bot_moves_checked(json.loads(path.read_text()), levels) > 100


def test_undo_takes_back_the_bots_moves_since_your_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot would only make its move again: undo goes back to Ann's own last move (the
    bots' moves after it undone too), and redo forward to where she was."""
    monkeypatch.chdir(tmp_path)
    script = iter(["0", "u", "r", "q"])
    screen = Screen(monkeypatch, lambda game: next(script))
    assert main(["play", "1849", "--seed", "3", "--bots", "Bob:easy,Cid:easy"]) == 0
    (first, after, undone, redone) = screen.prompts
    assert {p for p, _ in screen.prompts} == {"Ann"}
    assert after[1] > first[1] + 1  # Ann's move, then the bots'
    assert undone[1] == first[1] and redone[1] == after[1]


def test_a_bot_level_may_name_its_budget() -> None:
    """`--bots Bob:hard:250ms,Cid:hard`: Bob's search thinks within 250 ms, Cid's within
    the default second (a name may hold a colon: the name is the first part before a colon
    that is a player's)."""
    players = ["Ann", "Bob", "Cid"]
    assert bot_levels("Bob:hard:250ms,Cid:hard", players) == {"Bob": "hard:250ms", "Cid": "hard"}
    assert bot_levels("A:b:easy", ["A:b", "C"]) == {"A:b": "easy"}


@pytest.mark.parametrize(
    ("bots", "words"),
    [
        ("Zed", "'Zed' is not a player"),
        ("Bob:expert", "unknown bot level 'expert'"),
        ("Bob:hard:0ms", "the budget must be more than 0"),
        ("Bob,Bob:easy", "'Bob' is named twice"),
        ("Bob:", "unknown bot level ''"),
    ],
)
def test_bad_bots_exit_with_code_2(
    bots: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    assert main(["play", "1849", "--players", "3", "--bots", bots]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --bots: ") and words in err[0]
    assert not (tmp_path / "saves").exists()
