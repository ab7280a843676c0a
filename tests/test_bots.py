"""The bots: every level plays complete games of every title and player count through
`Game.apply` (invariants checked after every action), answers every prompt, never makes an
illegal move; the tournament's statistics on known inputs. Their strength is measured by
`tresham tournament` and benchmarks/bots.py, not here."""

from __future__ import annotations

import random

import pytest

from tresham.bots.players import BOTS, get_bot
from tresham.bots.tournament import GameResult, SeatResult, ranks, schedule, summarise, wilson
from tresham.core.game_spec import SetupError
from tresham.io.save import new_game
from tresham.sim import check_invariants

GAMES = [
    ("1849", ["easy", "medium", "random"]),
    ("1849", ["medium", "easy", "medium", "easy"]),
    ("1883", ["medium", "easy"]),
    ("1883", ["easy", "medium", "random"]),
    ("1883", ["medium", "medium", "easy", "easy"]),
    ("1854", ["medium", "easy", "random"]),
    ("1854", ["easy", "medium", "easy", "medium"]),
    ("1854", ["medium", "easy", "medium", "easy", "random"]),
    ("1854", ["easy", "medium", "easy", "medium", "easy", "medium"]),
]


@pytest.mark.parametrize(("title", "seats"), GAMES)
def test_bots_play_whole_games_legally(title: str, seats: list[str]) -> None:
    names = [f"P{i + 1}" for i in range(len(seats))]
    game = new_game(title, names, 11)
    s = game.state
    total = s.bank.cash + sum(p.cash for p in s.players) + sum(c.cash for c in s.corps.values())
    rng = random.Random(3)
    while not game.state.finished:
        assert len(game.actions) < 20_000, "the game must end"
        player = game.acting_player()
        assert player is not None
        bot = get_bot(seats[names.index(player)])
        action = bot.choose(game, rng)
        game.apply(action)  # an illegal move raises here
        assert check_invariants(game, total) == []
    assert game.title.scores(game)


def test_unknown_levels_are_refused() -> None:
    with pytest.raises(SetupError) as info:
        get_bot("grandmaster")
    assert info.value.field == "bots"
    assert set(BOTS) >= {"random", "easy", "medium"}


def test_wilson_interval_on_known_values() -> None:
    # 50 of 100: 0.4038-0.5962; 0 of 10: 0-0.2775; 10 of 10: 0.7225-1
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert round(low, 4) == 0.7225 and high == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_ranks_share_ties() -> None:
    assert ranks([100, 300, 200]) == [3, 1, 2]
    assert ranks([300, 300, 100, 50]) == [1.5, 1.5, 3, 4]


def test_the_schedule_rotates_seats_on_paired_seeds() -> None:
    games = schedule(["medium", "easy", "easy"], 6, 5)
    assert [g[0] for g in games[:3]] == [
        ["medium", "easy", "easy"],
        ["easy", "easy", "medium"],
        ["easy", "medium", "easy"],
    ]
    assert [g[2] for g in games] == [5, 5, 5, 6, 6, 6]


def test_summary_pools_a_bot_named_twice_and_splits_ties() -> None:
    def seat(bot: str, score: int, rank: float, win: float, margin: int) -> SeatResult:
        return SeatResult(bot, score, rank, win, margin, bankrupt=False)

    results = [
        GameResult(
            1,
            [seat("a", 300, 1.5, 0.5, 0), seat("b", 300, 1.5, 0.5, 0), seat("b", 100, 3, 0, -200)],
            10,
            "bank",
            {"a": [0.001, 0.003], "b": [0.002]},
        ),
        GameResult(
            2,
            [seat("a", 500, 1, 1.0, 100), seat("b", 400, 2, 0, -100), seat("b", 10, 3, 0, -490)],
            14,
            "bankrupt",
        ),
    ]
    out = summarise("1849", results, 1.0)
    assert out["games"] == 2 and out["rounds_mean"] == 12
    assert out["end_reasons"] == {"bank": 1, "bankrupt": 1}
    a, b = out["bots"]["a"], out["bots"]["b"]
    assert (a["seats"], a["wins"], a["win_rate"]) == (2, 1.5, 0.75)
    assert (b["seats"], b["wins"], b["win_rate"]) == (4, 0.5, 0.125)
    assert a["mean_rank"] == 1.25 and b["mean_rank"] == 2.375
    assert a["mean_margin"] == 50 and b["mean_margin"] == -197.5
    assert a["decision_ms_max"] == 3.0 and a["decision_ms_mean"] == 2.0
