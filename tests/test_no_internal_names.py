"""What a person reads names places, trains and steps as players do (issue 36): over a whole
game of each title, no listed action's words, warnings or consequences, no step heading, no
log line and no offer contains a train's id ("4H-0"), a hex's coordinate where the hex has a
name but not right after it ("C1" for Trapani (C1)), or an internal snake_case name (a
step's, an end reason's). A hex without a name (1854's J36) is named by its coordinate, which
the map draws."""

from __future__ import annotations

import re

import pytest

from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.offers import offer_facts
from tresham.server.bots import bot_action
from tresham.words import Words

PLAYERS = {"1849": ["Ann", "Bob", "Cid"], "1883": ["Ann", "Bob", "Cid", "Dan"]}
PLAYERS["1854"] = PLAYERS["1883"]
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
COORD = re.compile(r"\b[A-Z]{1,2}\d{1,2}\b")


class Reader:
    """The texts of one game that a person reads, and what in them would be internal."""

    def __init__(self, game: Game) -> None:
        board = game.state.map.board
        self.towns = {c: board.town(c) for c in board.hexes if board.town(c) != c}
        ids = sorted(game.state.depot.trains, key=len, reverse=True)
        self.train_id = re.compile(r"\b(" + "|".join(re.escape(t) for t in ids) + r")\b")
        self.found: list[str] = []
        self.read = 0

    def check(self, text: str, where: str) -> None:
        self.read += 1
        problems = [f"train id {t}" for t in self.train_id.findall(text)]
        problems += [  # a named hex's coordinate only right after its name: "Trapani (C1)"
            f"{m[0]} without {self.towns[m[0]]}"
            for m in COORD.finditer(text)
            if m[0] in self.towns and not text[: m.start()].endswith(f"{self.towns[m[0]]} (")
        ]
        problems += [f"internal name {n}" for n in SNAKE.findall(text)]
        self.found += [f"{where}: {p}: {text!r}" for p in problems]


@pytest.mark.parametrize("title", ["1849", "1854", "1883"])
def test_a_whole_game_reads_in_players_words(title: str) -> None:
    game = new_game(title, PLAYERS[title], 3)
    reader = Reader(game)
    logged = 0
    while not game.state.finished:
        actions = game.legal_actions()
        words = Words(game)
        for choice in words.choices(actions):
            reader.check(choice.text, "action")
            for effect in [*choice.warnings, *choice.effects]:
                reader.check(effect, "consequence")
        reader.check(words.step()[0], "step")
        offer = offer_facts(game)
        if offer is not None:
            reader.check(str(offer["text"]), "offer")
        game.apply(bot_action(game, len(game.actions), "easy"))
        for line in game.state.events[logged:]:
            reader.check(line, "log")
        logged = len(game.state.events)
    assert reader.read > 1000 and logged > 100  # a whole game was read
    assert reader.found == []


def test_the_reader_finds_what_it_looks_for() -> None:
    """The check above can fail: ids, bare coordinates and snake_case are each found."""
    game = new_game("1849", PLAYERS["1849"], 3)
    reader = Reader(game)
    tid = next(iter(game.state.depot.trains))
    made_up = ("places a station in C1", "runs Trapani \N{EN DASH} C1", "skips buy_train")
    for text in (f"AFG buys {tid}", *made_up):
        reader.check(text, "made up")
    reader.check("places a station in Trapani (C1)", "made up")  # named: no problem
    found = [f.split(": ")[1].split()[0] for f in reader.found]
    assert found == ["train", "C1", "C1", "internal"]
