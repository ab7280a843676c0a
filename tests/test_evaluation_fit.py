"""The fitted evaluation (``bots/evaluate.py``: `features`, `fitted_worth`) and its fitting
script (``tools/fit_evaluation.py``)."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tresham.bots import evaluate
from tresham.bots.heuristic import EASY, MEDIUM
from tresham.io.save import new_game

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    script = ROOT / "tools" / "fit_evaluation.py"
    spec = importlib.util.spec_from_file_location("fit_evaluation", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _played(title: str, players: int, actions: int) -> Any:
    game = new_game(title, [f"P{i + 1}" for i in range(players)], 3)
    rng = random.Random(3)
    while len(game.actions) < actions and not game.state.finished:
        game.apply(MEDIUM.choose(game, rng))
    return game


def test_the_facts_of_a_position_read_the_state() -> None:
    game = _played("1849", 3, 0)
    facts = evaluate.features(game)
    assert set(facts) == {"P1", "P2", "P3"}
    for name, f in facts.items():
        cash = game.player(name).cash
        assert dict(zip(evaluate.FACTS, f, strict=True)) == {
            "score": cash,
            "dividends": 0,
            "at_risk": 0,
            "treasury": 0,
            "privates": 0,
        }
    game = _played("1849", 3, 120)
    s = game.state
    facts = evaluate.features(game)
    raw = game.title.raw_scores(game)
    started = [c for c in s.market.corporations() if not s.corps[c].closed]
    assert started, "no corporation started in 120 actions"
    for name, values in facts.items():
        f = dict(zip(evaluate.FACTS, values, strict=True))
        held = [c for c in s.shares.held(name) if c.corp in started]
        assert f["score"] == raw[name]
        treasury = sum(s.corps[c.corp].cash * c.percent / 100 for c in held)
        assert f["treasury"] == pytest.approx(treasury)
        dividends = sum(evaluate.earning(game, c.corp) * c.percent / 100 for c in held)
        assert f["dividends"] == pytest.approx(dividends)
        assert 0 <= f["at_risk"] <= f["dividends"]
        assert f["privates"] == sum(
            c.revenue for c in s.companies.values() if c.owner == name and not c.closed
        )


def test_the_trains_at_risk_are_those_the_next_two_types_rust() -> None:
    """1849 (summary, Trains: the 8H scraps the 4H, the 10H the 6H, the 16H the 8H): at the
    start the bank sells the 4H, then the 6H, and nothing is scrapped by those; once the
    4H are sold, the 8H is one of the next two types: the 4H is at risk."""
    game = _played("1849", 3, 0)
    types = game.state.depot.types
    assert evaluate.doomed(game) == {k for k, t in types.items() if t.rusts_on in ("4H", "6H")}
    for train in game.state.depot.in_bank():
        if train.kind != "4H":
            break
        train.owner = "scrapped"
    assert "4H" in evaluate.doomed(game)


def test_the_inputs_weigh_the_prospects_over_the_rounds_left() -> None:
    # score 500, dividends 30 (10 of them at risk), treasury share 40, privates 5
    assert evaluate.design((500.0, 30.0, 10.0, 40.0, 5.0), 8.0) == (240.0, 80.0, 40.0, 30.0)
    assert evaluate.design((500.0, 30.0, 10.0, 40.0, 5.0), 2.0) == (60.0, 20.0, 40.0, 10.0)
    assert evaluate.predict((1.0, -1.0, 0.5, 2.0), (500.0, 30.0, 10.0, 40.0, 5.0), 2.0) == (
        500.0 + 60.0 - 20.0 + 20.0 + 20.0
    )


def test_fitted_worth_applies_the_weights_and_falls_back_without_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _played("1883", 4, 300)
    monkeypatch.setattr(evaluate, "_weights", lambda: {})
    assert evaluate.fitted_worth(game) == evaluate.worth(game)
    raw = game.title.raw_scores(game)
    nothing = (0.0,) * len(evaluate.FEATURES)
    monkeypatch.setattr(evaluate, "_weights", lambda: {"1883": nothing})
    assert evaluate.fitted_worth(game) == raw  # no weights: the score now
    treasury = [0.0] * len(evaluate.FEATURES)
    treasury[evaluate.FEATURES.index("treasury")] = 2.0
    monkeypatch.setattr(evaluate, "_weights", lambda: {"1883": tuple(treasury)})
    worth = evaluate.fitted_worth(game)
    facts = evaluate.features(game)
    assert any(f[3] > 0 for f in facts.values())
    assert worth == {p: raw[p] + 2.0 * f[3] for p, f in facts.items()}
    best_rival = max(v for k, v in worth.items() if k != "P1")
    assert evaluate.fitted_standing(game, "P1") == worth["P1"] - best_rival


def test_the_shipped_weights_are_fitted_on_these_features() -> None:
    path = ROOT / "src" / "tresham" / "bots" / "data" / "evaluation.json"
    data = json.loads(path.read_text())
    assert tuple(data["features"]) == evaluate.FEATURES
    evaluate._weights.cache_clear()
    weights = evaluate._weights()
    assert set(weights) == set(data["titles"]) and weights
    for title, w in weights.items():
        assert len(w) == len(evaluate.FEATURES), title
        assert data["titles"][title]["games"] >= 10


def test_the_solver_solves() -> None:
    tool = _tool()
    x = tool.solve([[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]], [5.0, 3.0, 4.0])
    assert x == pytest.approx([1.0, 2.0, 1.0])
    with pytest.raises(ValueError, match="degenerate"):
        tool.solve([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0])


def test_the_fit_recovers_the_weights_that_made_the_scores() -> None:
    tool = _tool()
    rng = random.Random(11)
    truth = [rng.uniform(-2, 2) for _ in evaluate.FEATURES]
    games = []
    for i in range(60):
        rounds = rng.uniform(1.5, 15)
        facts = [[rng.uniform(0, 500) for _ in evaluate.FACTS] for _ in range(3)]
        final = [evaluate.predict(truth, tuple(f), rounds) + 1000 for f in facts]
        games.append(
            {"index": i, "final": final, "actions": 10, "snaps": [[0, rounds, facts, [0] * 3]]}
        )
    weights = tool.fit(games)
    assert weights == pytest.approx(truth, rel=1e-3, abs=1e-3)
    assert tool.best_ridge(games) == tool.RIDGES[0]  # nothing to smooth
    noise = [{**g, "final": [rng.gauss(0, 100) for _ in range(3)]} for g in games]
    assert tool.best_ridge(noise) > tool.RIDGES[0]  # weights fitted to noise err elsewhere
    result = tool.accuracy(games, weights)
    assert [r["fitted"][0] for r in result.values()] == [1.0, 1.0, 1.0]


def test_the_report_names_the_winner_at_each_point() -> None:
    tool = _tool()
    # the plain score names P1 at every point; P2 wins; the hand values name P2 from 50%
    snaps = [
        [0, 10.0, [[600] + [0] * 4, [400] + [0] * 4], [1, 0]],
        [50, 5.0, [[600] + [0] * 4, [400] + [0] * 4], [0, 1]],
    ]
    game = {"index": 0, "final": [100, 900], "actions": 100, "snaps": snaps}
    result = tool.accuracy([game], [0.0] * 4)
    assert {p: (r["plain"][0], r["hand"][0]) for p, r in result.items()} == {
        "25%": (0.0, 0.0),
        "50%": (0.0, 1.0),
        "75%": (0.0, 1.0),
    }


def test_the_fit_replays_each_recorded_game_to_its_moments() -> None:
    tool = _tool()
    names = ["P1", "P2", "P3"]
    game = new_game("1849", names, tool.SEED + 1)
    rng = random.Random(1)
    while not game.state.finished:
        game.apply(EASY.choose(game, rng))
    final = game.title.scores(game)
    record = {
        "title": "1849",
        "index": 1,
        "seats": ["easy"] * 3,
        "final": [final[n] for n in names],
        "log": [a.to_json() for a in game.actions],
    }
    got = tool.moments(record)
    assert got["actions"] == len(game.actions) and got["final"] == record["final"]
    at = [snap[0] for snap in got["snaps"]]
    assert at[0] == 0 and at == sorted(set(at)) and at[-1] < len(game.actions)
    rounds = game.state.stock_round_no + game.state.operating_round_no
    assert len(at) >= rounds  # every stock and operating round started once at least
    first = got["snaps"][0]
    start = new_game("1849", names, tool.SEED + 1)
    assert first[1] == evaluate.horizon(start) and [f[0] for f in first[2]] == [
        p.cash for p in start.state.players
    ]
    with pytest.raises(ValueError, match="ends otherwise"):
        tool.moments({**record, "final": [0, 0, 0]})


def test_the_folds_figures_are_pooled_by_their_games() -> None:
    tool = _tool()
    one = {"50%": {"plain": [0.5, 0.1, 0.9], "fitted": [1.0, 0.5, 1.0]}}
    two = {"50%": {"plain": [0.0, 0.0, 0.5], "fitted": [0.5, 0.2, 0.8]}}
    got = tool.pooled([one, two], [2, 6])
    assert got["50%"]["plain"][0] == pytest.approx(1 / 8)
    assert got["50%"]["fitted"][0] == pytest.approx(5 / 8)
    assert got["50%"]["fitted"][1:] == list(tool.wilson(5, 8))


def test_the_errors_are_of_the_final_scores_relative_to_the_mean() -> None:
    tool = _tool()
    # P1 leads by 200 now and wins by 600: the plain score errs by 200 a player
    snaps = [[0, 10.0, [[600] + [0] * 4, [400] + [0] * 4], [900, 300]]]
    game = {"index": 0, "final": [1300, 700], "actions": 10, "snaps": snaps}
    got = tool.errors([game], [0.0] * 4)["50%"]
    assert got == {"plain": 200.0**2, "hand": 0.0, "fitted": 200.0**2}
    assert tool.pooled_errors([{"50%": {"plain": 4.0}}, {"50%": {"plain": 16.0}}], [3, 1]) == {
        "50%": {"plain": pytest.approx(7.0**0.5)}
    }
