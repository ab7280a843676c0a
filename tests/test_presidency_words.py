"""A presidency changing hands by the certificate exchange (the common 18xx rule, core
``stock.update_president`` and the sale's exchange) says in the log what is exchanged and
with whom (issue 36): "Bob becomes president of AFG: Bob hands Ann two 10% certificates for
the president's certificate (20%)"; 1854 calls the president its Director (§6)."""

from __future__ import annotations

import random
import re

import pytest

from tresham.bots.random_bot import choose
from tresham.core.shares import Certificate
from tresham.core.stock import Handover
from tresham.io.save import new_game

PLAYERS = {"1849": ["Ann", "Bob", "Cid"], "1883": ["Ann", "Bob", "Cid", "Dan"]}
PLAYERS["1854"] = PLAYERS["1883"]
ROLE = {"1849": "president", "1883": "president", "1854": "Director"}
CHANGE = re.compile(r"^(\w+) becomes (\w+) of (\w+)(.*)$")
SAID = re.compile(r"^: (\w+) hands (\w+) (.+) for the (\w+)'s certificate \((\d+)%\)$")


def test_the_exchange_is_worded_by_its_certificates() -> None:
    def cert(n: int, percent: int, last: bool = False) -> Certificate:
        return Certificate(f"AFG_{n}", "AFG", percent, last=last)

    tens = Handover("AFG", "Ann", "Bob", (cert(3, 10), cert(4, 10)), 20)
    assert tens.words() == (
        "Bob becomes president of AFG: Bob hands Ann two 10% certificates for the "
        "president's certificate (20%)"
    )
    last = Handover("AFG", "Ann", "Bob", (cert(9, 20, last=True),), 20)
    assert last.words("Director") == (
        "Bob becomes Director of AFG: Bob hands Ann the 20% last certificate for the "
        "Director's certificate (20%)"
    )


@pytest.mark.parametrize("title", ["1849", "1854", "1883"])
def test_every_presidency_change_of_random_games_says_what_is_exchanged(title: str) -> None:
    """Random games until presidencies have changed hands by an exchange: each such line
    names the new and the old president and certificates adding up to the president's one."""
    checked = 0
    for seed in range(12):
        game = new_game(title, PLAYERS[title], seed)
        rng = random.Random(seed)
        seen = 0
        while not game.state.finished and len(game.actions) < 600 and checked < 2:
            game.apply(choose(game, rng))
            for line in game.state.events[seen:]:
                changed = CHANGE.match(line)
                if changed is None or changed[2] != ROLE[title]:
                    continue
                new, role, corp, rest = changed.groups()
                if not rest:  # a first president (the exchange needs a sitting one)
                    continue
                said = SAID.match(rest)
                assert said is not None, line
                assert said[1] == new and said[2] != new and said[4] == role, line
                assert corp in game.state.corps and said[2] in PLAYERS[title], line
                counts = {"a": 1, "the": 1, "two": 2, "three": 3, "four": 4}
                given = re.findall(r"\b(a|the|two|three|four) (\d+)%", said[3])
                total = sum(counts[n] * int(p) for n, p in given)
                assert total == int(said[5]), line
                checked += 1
            seen = len(game.state.events)
        if checked >= 2:
            break
    assert checked >= 2, f"{title}: too few presidency exchanges in the random games"
