"""Importing 18xx.games exports: every real game replays to the site's result; the log's
undo/redo bookkeeping; the site's generator; clear failures that name the action."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from shared_files import SHARED, SITE_GAMES, needs_shared, site_exports
from tresham.cli import main
from tresham.core.actions import DiscardTrain
from tresham.core.rng import SiteRandom, make_rng
from tresham.io.save import from_save, to_save
from tresham.io.site_export import ImportFailure, effective_actions, effective_log, site_seed
from tresham.io.site_import import SiteContext, import_export, translate_common


def real_games() -> list[Path]:
    """Every export in ``tests/data/18xx-games/<title>/`` and those of ``pending/`` that
    now play (``shared_files.site_exports``)."""
    return site_exports()


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_there_are_real_games_to_import() -> None:
    assert real_games(), f"no 18xx.games exports in {SITE_GAMES}"


SHARED_GAMES = SHARED / "reference" / "18xx-games"


@needs_shared(SHARED_GAMES)
def test_the_projects_copies_are_the_shared_exports_byte_for_byte() -> None:
    """shared/README.md: the exports and their states may travel with the project; every
    one of ``../shared`` is copied unchanged, beside tobymao/18xx's licence."""
    shared = sorted(
        p.relative_to(SHARED_GAMES)
        for p in SHARED_GAMES.rglob("*")
        if p.suffix in {".json", ".jsonl"}
    )
    assert shared, f"no exports in {SHARED_GAMES}"
    for rel in shared:
        copy_ = SITE_GAMES / rel
        assert copy_.exists(), f"{rel} is not copied into {SITE_GAMES}"
        assert copy_.read_bytes() == (SHARED_GAMES / rel).read_bytes(), f"{rel} differs"
    assert "MIT License" in (SITE_GAMES / "LICENSE").read_text()


# Issue 3 "Done when": finished, the export's game_end_reason, raw_scores equal to its
# result exactly, no revenue mismatch.
@pytest.mark.parametrize("path", real_games(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_game_replays_to_the_site_result(path: Path) -> None:
    data = load(path)
    result = import_export(data)
    summary = result.summary()
    assert summary["finished"] is True
    if "game_end_reason" in data:  # not every export names it (variants_test does not)
        assert summary["game_end_reason"] == data["game_end_reason"]
    assert summary["raw_scores"] == {str(k): v for k, v in data["result"].items()}
    assert summary["revenue_mismatches"] == 0
    assert result.runs_retraced == sum(
        len(a.get("routes") or []) for a in effective_actions(data["actions"])
    )
    assert result.differences_from_site() == []
    # 1849 §Endgame: scores are the summary's, floored at 0
    assert all(v >= 0 for v in summary["scores"].values())


def test_imported_game_saves_and_replays_identically(tmp_path: Path) -> None:
    path = real_games()[0]
    result = import_export(load(path))
    again = from_save(json.loads(json.dumps(to_save(result.game))))
    assert again.state_hash() == result.game.state_hash()
    assert again.options["rng"] == "18xx.games"


# ------------------------------------------------------------------ effective log
def act(i: int, kind: str = "pass", **extra: Any) -> dict[str, Any]:
    return {"id": i, "type": kind, "entity": 1, "entity_type": "player", **extra}


def ids(actions: list[dict[str, Any]]) -> list[int]:
    return [a["id"] for a in actions]


def test_undo_drops_the_last_surviving_action() -> None:
    log = [act(1), act(2), act(3), act(4, "undo"), act(5, "undo"), act(6)]
    assert ids(effective_actions(log)) == [1, 6]


def test_undo_to_an_action_id_drops_everything_after_it() -> None:
    log = [act(1), act(2), act(3), act(4, "undo", action_id=1), act(5)]
    assert ids(effective_actions(log)) == [1, 5]


def test_redo_restores_the_last_undone_batch() -> None:
    log = [act(1), act(2), act(3), act(4, "undo", action_id=1), act(5, "redo")]
    assert ids(effective_actions(log)) == [1, 2, 3]
    log = [act(1), act(2), act(3, "undo"), act(4, "undo"), act(5, "redo")]
    assert ids(effective_actions(log)) == [1]


def test_a_new_action_clears_what_could_be_redone() -> None:
    log = [act(1), act(2), act(3, "undo"), act(4), act(5, "redo")]
    with pytest.raises(ImportFailure, match="action 5 \\(redo\\)"):
        effective_actions(log)


def test_standing_orders_count_for_undo_and_chat_never_does() -> None:
    # STATES.md "Which actions have a line": a program_* action is kept and undone like any
    # other; its auto actions follow it; a message is never undone nor clears a redo
    log = [
        act(1, "message", message="hi"),
        act(2, "program_share_pass", auto_actions=[{"type": "pass", "entity": 2}]),
        act(3, auto_actions=[{"type": "pass", "entity": 2, "entity_type": "player"}]),
        act(4, "undo"),
        act(5, "message", message="oops"),
        act(6, auto_actions=[{"type": "bid", "entity": 2, "entity_type": "player"}]),
        act(7, "program_buy_shares"),
        act(8, "undo"),
    ]
    assert ids(effective_log(log)) == [1, 2, 5, 6]
    out = effective_actions(log)
    assert [(a["id"], a["type"]) for a in out] == [
        (1, "message"),
        (2, "program_share_pass"),
        (2, "pass"),
        (5, "message"),
        (6, "pass"),
        (6, "bid"),
    ]
    assert out[2]["entity"] == 2  # an auto action names its own entity


def test_a_message_between_undo_and_redo_keeps_the_redo() -> None:
    log = [act(1), act(2), act(3, "undo"), act(4, "message", message="sorry"), act(5, "redo")]
    assert ids(effective_log(log)) == [1, 2, 4]


def test_undo_to_action_zero_drops_everything_but_chat() -> None:
    log = [act(1), act(2, "message", message="x"), act(3), act(4, "undo", action_id=0)]
    assert ids(effective_log(log)) == [2]


def test_undo_to_an_unknown_action_fails() -> None:
    with pytest.raises(ImportFailure, match="action 3 \\(undo\\)"):
        effective_log([act(1), act(3, "undo", action_id=2)])


# ------------------------------------------------------------------ the site's generator
def test_seed_falls_back_to_the_game_id() -> None:
    assert site_seed(27939, "x") == 27939
    assert site_seed("", "game-814263386") == 814263386
    assert site_seed(None, 12) == 12


def test_site_generator_is_the_documented_lcg() -> None:
    # rule details §1.2: state = (1103515245 * state + 12345) mod 2^31, from seed mod 2^31
    rng = SiteRandom(2**31 + 5)
    assert rng.draw() == (1103515245 * 5 + 12345) % 2**31


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        (27939, ["SFA", "IFT", "ATA", "CTL", "AFG", "RCS"]),
        (814263386, ["RCS", "IFT", "SFA", "ATA", "AFG", "CTL"]),
    ],
)
def test_site_corporation_order_matches_the_fixtures(seed: int, expected: list[str]) -> None:
    # rule details §1.2 table: corporations sorted by one draw each, in entities.rb order
    order = make_rng("18xx.games", seed).permutation(["AFG", "ATA", "CTL", "IFT", "RCS", "SFA"])
    assert order == expected


# ------------------------------------------------------------------ failures
def first_game() -> dict[str, Any]:
    return load(real_games()[0])


def with_action(data: dict[str, Any], aid: int, **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    for a in out["actions"]:
        if a["id"] == aid:
            a.update(changes)
    return out


def first_of(data: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(a for a in effective_actions(data["actions"]) if a["type"] == kind)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "not a JSON object"),
        ({"title": "1849"}, "no players, actions field"),
        ({"title": "1830", "players": [], "actions": []}, "unknown title '1830'"),
        ({"title": "1849", "players": "x", "actions": []}, "field players"),
    ],
)
def test_not_an_export(data: object, message: str) -> None:
    with pytest.raises(ImportFailure, match=message):
        import_export(data)


def test_a_recorded_revenue_we_do_not_earn_fails_with_the_action_id() -> None:
    data = first_game()
    run = first_of(data, "run_routes")
    routes = copy.deepcopy(run["routes"])
    routes[0]["revenue"] += 10
    with pytest.raises(ImportFailure) as info:
        import_export(with_action(data, run["id"], routes=routes))
    assert info.value.action_id == run["id"]
    assert info.value.action_type == "run_routes"
    assert "revenue mismatch" in str(info.value)


def test_a_route_off_our_track_fails_with_the_action_id() -> None:
    data = first_game()
    run = first_of(data, "run_routes")
    routes = copy.deepcopy(run["routes"])
    routes[0]["connections"] = [["A1", "A3"]]
    with pytest.raises(ImportFailure, match=f"action {run['id']} \\(run_routes\\)"):
        import_export(with_action(data, run["id"], routes=routes))


def test_an_action_our_rules_reject_fails_naming_the_rule() -> None:
    data = first_game()
    lay = first_of(data, "lay_tile")
    with pytest.raises(ImportFailure) as info:
        import_export(with_action(data, lay["id"], rotation=(lay["rotation"] + 3) % 6))
    assert info.value.action_id == lay["id"]
    assert "§" in str(info.value)  # the rulebook paragraph


def test_an_unknown_action_type_fails() -> None:
    data = first_game()
    bid = first_of(data, "bid")
    with pytest.raises(ImportFailure, match="cannot translate 'convert'"):
        import_export(with_action(data, bid["id"], type="convert"))


def test_a_game_ended_by_hand_is_refused_with_its_reason() -> None:
    """18xx.games lets players end a game at once ('end_game', reason manually_ended);
    tresham's games end only as their rules say, so such an export is refused at that action,
    saying why (docs/rulings/1849.md V10)."""
    data = first_game()
    bid = first_of(data, "bid")
    with pytest.raises(ImportFailure, match="ended by hand") as info:
        import_export(with_action(data, bid["id"], type="end_game"))
    assert info.value.action_id == bid["id"]


def test_cli_writes_nothing_on_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = first_game()
    bid = first_of(data, "bid")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(with_action(data, bid["id"], type="convert")))
    out = tmp_path / "save.json"
    assert main(["import-18xx", str(bad), "--out", str(out), "--json"]) != 0
    assert not out.exists()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"action {bid['id']} (convert)" in err[0]


def test_cli_imports_and_the_save_continues(tmp_path: Path) -> None:
    out = tmp_path / "save.json"
    src = real_games()[0]
    assert main(["import-18xx", str(src), "--out", str(out), "--json"]) == 0
    assert main(["replay", str(out), "--json"]) == 0
    assert json.loads(out.read_text())["options"]["rule_set"] == "18xx.games"


def test_a_discarded_train_is_translated() -> None:
    # the site's DiscardTrain step (a corporation over its limit after a new phase)
    data = first_game()
    data["actions"] = data["actions"][:30]
    data["status"] = "active"
    result = import_export(data)
    ctx = SiteContext(result.game, result.export, [])
    site = {"type": "discard_train", "entity": "ATA", "entity_type": "corporation"}
    assert translate_common(ctx, {**site, "train": "4H-2"}) == [DiscardTrain("ATA", "4H-2")]
