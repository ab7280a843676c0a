"""The exact route optimizer against the exhaustive reference (``route_reference.py``) on
generated 1849, 1883 and 1854 boards, its optimality flag, and the `tresham routes` command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boards_1849 import CORPS, small_board
from boards_1854 import LOCALS as LOCALS_1854
from boards_1854 import MAJORS as MAJORS_1854
from boards_1854 import small_game as small_game_1854
from boards_1883 import CORPS as CORPS_1883
from boards_1883 import TITLE as TITLE_1883
from boards_1883 import rules_1883
from boards_1883 import small_board as small_board_1883
from route_reference import best_total
from shared_files import EXPORT_27939, POSITIONS_1889, needs_shared
from tresham.bots.random_bot import choose
from tresham.cli import main
from tresham.core.rules_protocols import TrainSpec
from tresham.io.save import new_game
from tresham.routes import has_run, solve, validate_runs
from tresham.titles.registry import get_title
from tresham.titles.t1849.track_rules import TrackRules1849
from tresham.titles.t1854.operating import rules_for as rules_1854

TRAINS = {"4H": 4, "6H": 6, "8H": 8, "10H": 10, "R6H": 6}


# 1849 §OR Run trains: the optimizer's total equals the exhaustive reference's, the runs it
# returns are legal and conflict-free, and it says it is optimal
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    lays=st.integers(0, 40),
    phase=st.sampled_from(["4H", "6H", "8H", "12H"]),
    corp=st.sampled_from(CORPS),
    kinds=st.lists(st.sampled_from(sorted(TRAINS)), min_size=1, max_size=3),
)
def test_optimizer_equals_exhaustive_reference(
    seed: int, lays: int, phase: str, corp: str, kinds: list[str]
) -> None:
    s = small_board(seed, lays, phase, corp)
    rules = TrackRules1849(phase=phase, sce_blocks_g13=False)
    trains = [TrainSpec(f"{k}-{i}", k, TRAINS[k]) for i, k in enumerate(kinds)]
    solution = solve(s.copy(), corp, trains, rules)
    assert solution.optimal
    assert validate_runs(s, corp, trains, solution.runs, rules) == solution.revenue
    assert solution.revenue == best_total(s, corp, trains, rules)
    assert has_run(s.copy(), corp, trains, rules) == bool(solution.runs)


N_TRAINS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6}


# 1883 §6.7-§6.8 (and §6.6 ports, §11 off-board events): the optimizer equals the reference
# on generated 1883 boards, with the FS red track open or closed, port tokens and changed
# off-board values
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    lays=st.integers(0, 18),
    phase=st.sampled_from(["2", "3", "5", "7"]),
    corp=st.sampled_from(CORPS_1883),
    kinds=st.lists(st.sampled_from(sorted(N_TRAINS)), min_size=1, max_size=3),
    fs_open=st.booleans(),
    port=st.booleans(),
    bologna=st.sampled_from([0, -10, 20]),
)
def test_optimizer_equals_reference_on_1883_boards(
    seed: int,
    lays: int,
    phase: str,
    corp: str,
    kinds: list[str],
    fs_open: bool,
    port: bool,
    bologna: int,
) -> None:
    s = small_board_1883(seed, lays, phase, corp)
    ports = [h for h in TITLE_1883.board.extra["ports"] if port][:2]
    rules = rules_1883(
        phase, fs_open=fs_open, ports=ports, port_bonus=20, stop_bonus={"P10": bologna}
    )
    trains = [TrainSpec(f"{k}-{i}", k, N_TRAINS[k]) for i, k in enumerate(kinds)]
    solution = solve(s.copy(), corp, trains, rules)
    assert solution.optimal
    assert validate_runs(s, corp, trains, solution.runs, rules) == solution.revenue
    assert solution.revenue == best_total(s, corp, trains, rules, max_edges=len(s.board.hexes))
    assert has_run(s.copy(), corp, trains, rules) == bool(solution.runs)


# 1854 §5.6 (and §3.1.2 plus trains): the optimizer equals the reference on generated 1854
# positions: majors' n-trains with customs and foreign connections, Local Railways' plus
# trains on the extra map
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    lays=st.integers(0, 18),
    phase_index=st.integers(0, 5),
    corp=st.sampled_from(MAJORS_1854 + LOCALS_1854),
    sizes=st.lists(st.integers(1, 6), min_size=1, max_size=3),
)
def test_optimizer_equals_reference_on_1854_positions(
    seed: int, lays: int, phase_index: int, corp: str, sizes: list[int]
) -> None:
    game = small_game_1854(seed, lays, phase_index, corp)
    rules = rules_1854(game, corp)
    plus = corp in LOCALS_1854
    trains = [
        TrainSpec(f"{n}{'+' if plus else ''}-{i}", f"{n}+" if plus else str(max(n, 2)), n)
        for i, n in enumerate(sizes)
    ]
    s = game.state.map
    solution = solve(s.copy(), corp, trains, rules)
    assert solution.optimal
    assert validate_runs(s, corp, trains, solution.runs, rules) == solution.revenue
    assert solution.revenue == best_total(s, corp, trains, rules, max_edges=len(s.board.hexes))
    assert has_run(s.copy(), corp, trains, rules) == bool(solution.runs)


def test_a_reached_work_cap_is_not_called_optimal() -> None:
    s = small_board(7, 12, "6H", "CTL")
    rules = TrackRules1849(phase="6H", sce_blocks_g13=False)
    trains = [TrainSpec("6H-0", "6H", 6), TrainSpec("6H-1", "6H", 6)]
    full = solve(s.copy(), "CTL", trains, rules)
    assert full.optimal and full.revenue > 0
    capped = solve(s.copy(), "CTL", trains, rules, max_candidates=1)
    assert not capped.optimal
    assert capped.revenue < full.revenue
    steps_capped = solve(s.copy(), "CTL", trains, rules, max_steps=1)
    assert not steps_capped.optimal
    # the work done is counted the same way whatever the caps, and the caps lower it
    assert full.work > capped.work > 0 and full.work > steps_capped.work > 0
    assert solve(s.copy(), "CTL", trains, rules).work == full.work


# 1849 §OR Run trains: the answer kept with the map is the position's answer. Asking again
# gives the same runs; other trains or rules (phase) and any change to the map are answered
# afresh, equal to asking an uncached copy of the map
def test_kept_answers_follow_the_position() -> None:
    s = small_board(7, 12, "4H", "CTL")
    early = TrackRules1849(phase="4H", sce_blocks_g13=False)
    late = TrackRules1849(phase="12H", sce_blocks_g13=False)
    one = [TrainSpec("4H-0", "4H", 4)]
    two = [*one, TrainSpec("8H-0", "8H", 8)]
    first = solve(s, "CTL", one, early)
    assert first.revenue > 0
    again = solve(s, "CTL", one, early)
    assert again == first
    again.runs.clear()  # the caller's list is its own
    assert solve(s, "CTL", one, early) == first
    for trains, rules in [(two, early), (one, late), (two, late)]:
        assert solve(s, "CTL", trains, rules) == solve(s.copy(), "CTL", trains, rules)
    used = first.runs[0].track[-1][0]
    assert used in s.tiles
    s.revert_hex(used)  # the map changes under the kept answer
    assert solve(s, "CTL", one, early) != first
    for trains, rules in [(one, early), (two, late)]:
        assert solve(s, "CTL", trains, rules) == solve(s.copy(), "CTL", trains, rules)
    assert has_run(s, "CTL", one, early)  # answered from the kept solution
    s.remove_all_tokens("CTL")
    assert not has_run(s, "CTL", one, early)
    assert solve(s, "CTL", one, early).revenue == 0


def test_routes_command(tmp_path: Path, capsys: object) -> None:
    game = tmp_path / "game.json"
    assert main(["import-18xx", str(EXPORT_27939), "--out", str(game)]) == 0
    capsys.readouterr()  # type: ignore[attr-defined]
    assert main(["routes", str(game), "--corp", "SFA", "--at", "200", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])  # type: ignore[attr-defined]
    assert set(out) == {"revenue", "runs", "optimal", "ms"}
    assert out["optimal"] is True
    assert out["revenue"] == sum(r["revenue"] for r in out["runs"]) > 0
    assert main(["routes", str(game), "--corp", "XYZ"]) == 1


@needs_shared(POSITIONS_1889)
def test_routes_positions_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["routes", "--positions", str(POSITIONS_1889), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert len(lines) == 72
    assert all(set(x) == {"id", "revenue", "expected", "ms", "optimal"} for x in lines[:-1])
    assert all(x["revenue"] == x["expected"] and x["optimal"] for x in lines[:-1])
    summary = lines[-1]
    assert (summary["positions"], summary["equal"], summary["below"], summary["above"]) == (
        71,
        71,
        0,
        0,
    )
    assert set(summary) == {"positions", "equal", "below", "above", "ms_p50", "ms_max"}


# 1849 §OR Run trains, 1883 §6.8, 1854 §5.6: a corporation runs (its route step is played)
# exactly when the optimizer finds it a run; deciding that without optimizing (`has_run`)
# gives the same answer for every corporation with trains, along a random game
@pytest.mark.parametrize("title", ["1849", "1883", "1854"])
def test_whether_a_corporation_runs_is_the_optimizers_answer(title: str) -> None:
    low, _high = get_title(title).player_range
    game = new_game(title, [f"P{i}" for i in range(low + 1)], 5)
    rng = random.Random(5)
    answers: list[bool] = []
    while not game.state.finished and len(game.actions) < 3000:
        if len(game.actions) % 15 == 0:
            for sym, corp in game.state.corps.items():
                if corp.floated and not corp.closed and corp.trains:
                    trains, rules = game.title.route_inputs(game, sym)
                    runs = bool(solve(game.state.map.copy(), sym, trains, rules).runs)
                    assert has_run(game.state.map.copy(), sym, trains, rules) == runs
                    answers.append(runs)
        game.apply(choose(game, rng))
    assert len(answers) > 50 and 0 < sum(answers) < len(answers)
