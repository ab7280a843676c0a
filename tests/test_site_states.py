"""Imports checked action by action against the site's own states (STATES.md), and standing
orders (``program_*``) exactly as the site records them (FORMAT.md, corrected row).

The standing-order games are the real export 27939 with an order written in, as the site
would have recorded it: its ids are spread out (x10) to make room, and its states file is
edited as the site's would read (an auto action's effect belongs to the line of the action
that carries it; an order's line repeats the state before it). Each then imports with no
difference from those states, which the old import (orders and their auto actions left out,
undo blind to orders, ``program_disable`` untranslatable) could not do.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from shared_files import EXPORT_27939, SITE_GAMES, site_exports
from tresham.cli import main
from tresham.io.site_export import ImportFailure, effective_actions, effective_log
from tresham.io.site_import import StateDivergence, import_export
from tresham.io.site_states import parse_states, read_states, states_path

STATES_27939 = EXPORT_27939.with_name("27939.states.jsonl")
SPREAD = 10


def exports_with_states() -> list[Path]:
    """Every export of ``tests/data/18xx-games/<title>/`` (and of ``pending/`` that
    now plays) with a states file."""
    return [p for p in site_exports() if states_path(p) is not None]


def load_27939() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data: dict[str, Any] = json.loads(EXPORT_27939.read_text())
    return data, read_states(STATES_27939)


# ------------------------------------------------------------------ every export, every line
def test_there_are_exports_with_states() -> None:
    assert exports_with_states(), f"no <game>.states.jsonl beside the exports in {SITE_GAMES}"


@pytest.mark.parametrize("path", exports_with_states(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_action_leaves_the_sites_state(path: Path) -> None:
    states_file = states_path(path)
    assert states_file is not None
    states = read_states(states_file)
    data = json.loads(path.read_text())
    result = import_export(data, states=states)
    summary = result.summary()
    assert summary["first_divergence"] is None
    assert summary["state_lines_compared"] == len(states) == len(effective_log(data["actions"]))
    assert result.differences_from_site() == []


# ------------------------------------------------------------------ divergences are caught
def test_a_divergence_fails_at_its_action_naming_the_field() -> None:
    data, states = load_27939()
    line = next(i for i, s in enumerate(states) if s["type"] == "buy_train")
    aid, corp = states[line]["id"], states[line]["entity"]
    states[line]["corps"][corp]["cash"] += 1
    with pytest.raises(StateDivergence) as info:
        import_export(data, states=states)
    div = info.value.divergence
    assert (div.id, div.field) == (aid, f"corps.{corp}.cash")
    assert div.site == div.tresham + 1
    assert info.value.action_id == aid
    summary = info.value.result.summary()
    assert summary["state_lines_compared"] == line
    assert summary["first_divergence"] == {
        "id": aid,
        "field": f"corps.{corp}.cash",
        "site": div.site,
        "tresham": div.tresham,
    }


@pytest.mark.parametrize(
    ("section", "field", "change"),
    [
        ("players", "shares", lambda v: {**v, "XYZ": 10}),
        ("players", "companies", lambda v: [*v, "SCE"]),
        ("corps", "tokens", lambda v: [*v, "A1"]),
        ("corps", "president", lambda v: "nobody"),
        ("corps", "trains", lambda v: [*v, "4H-3"]),
    ],
)
def test_each_field_is_compared(section: str, field: str, change: Any) -> None:
    data, states = load_27939()
    last = states[-1]
    key = next(iter(last[section]))
    last[section][key][field] = change(last[section][key][field])
    with pytest.raises(StateDivergence) as info:
        import_export(data, states=states)
    assert info.value.divergence.field == f"{section}.{key}.{field}"
    assert info.value.divergence.id == last["id"]


def test_the_bank_and_who_acts_next_are_compared() -> None:
    data, states = load_27939()
    states[5]["bank"] -= 5
    with pytest.raises(StateDivergence, match="bank is"):
        import_export(data, states=states)
    data, states = load_27939()
    states[5]["active"] = ["IFT"]
    with pytest.raises(StateDivergence) as info:
        import_export(data, states=states)
    assert info.value.divergence.field == "active"


def test_a_states_file_of_another_game_is_refused() -> None:
    data, states = load_27939()
    with pytest.raises(ImportFailure, match="line 3 is for action 8"):
        import_export(data, states=states[:2] + states[3:])
    with pytest.raises(ImportFailure, match="1 line\\(s\\) more"):
        import_export(data, states=[*states, states[-1]])
    with pytest.raises(ImportFailure, match="ends before"):
        import_export(data, states=states[:-1])


def test_a_states_line_that_is_not_json_names_its_line() -> None:
    with pytest.raises(ImportFailure, match="x line 2 is not JSON"):
        parse_states(['{"id": 1, "corps": {}, "players": {}}', "{oops"], "x")


# ------------------------------------------------------------------ the command
def test_cli_finds_the_states_file_beside_the_export(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import-18xx", str(EXPORT_27939), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["first_divergence"] is None
    assert summary["state_lines_compared"] == len(read_states(STATES_27939))
    assert main(["import-18xx", str(EXPORT_27939), "--json", "--no-states"]) == 0
    assert "state_lines_compared" not in json.loads(capsys.readouterr().out)


def test_cli_stops_at_the_first_divergence_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, states = load_27939()
    states[40]["players"][next(iter(states[40]["players"]))]["cash"] += 7
    bad = tmp_path / "bad.states.jsonl"
    bad.write_text("".join(json.dumps(s) + "\n" for s in states))
    out = tmp_path / "save.json"
    args = ["import-18xx", str(EXPORT_27939), "--states", str(bad), "--out", str(out)]
    assert main([*args, "--json"]) == 1
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    aid = states[40]["id"]
    assert len(err) == 1 and f"action {aid} (" in err[0] and "cash" in err[0]
    summary = json.loads(captured.out.strip().splitlines()[-1])
    assert summary["first_divergence"]["id"] == aid
    assert summary["first_divergence"]["site"] == summary["first_divergence"]["tresham"] + 7
    assert summary["state_lines_compared"] == 40
    assert not out.exists()


# ------------------------------------------------------------------ standing orders
def spread(
    data: dict[str, Any], states: list[dict[str, Any]], last: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The export up to action `last` (an original id), its ids multiplied by SPREAD, a game
    still running; and its states likewise."""
    out = copy.deepcopy(data)
    out["status"] = "active"
    actions = []
    for a in out["actions"]:
        if a["id"] > last:
            break
        a["id"] *= SPREAD
        if a.get("action_id"):
            a["action_id"] *= SPREAD
        actions.append(a)
    out["actions"] = actions
    lines = [dict(s, id=s["id"] * SPREAD) for s in copy.deepcopy(states) if s["id"] <= last]
    return out, lines


def index_of(items: list[dict[str, Any]], aid: int) -> int:
    return next(i for i, a in enumerate(items) if a["id"] == aid)


def order(kind: str, player: int, aid: int, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "entity": player, "entity_type": "player", "id": aid, **extra}


def insert_order(
    data: dict[str, Any], states: list[dict[str, Any]], after: int, action: dict[str, Any]
) -> None:
    """Put a standing order that changes nothing after action `after`: its line repeats the
    state before it."""
    data["actions"].insert(index_of(data["actions"], after) + 1, action)
    line = index_of(states, after)
    states.insert(line + 1, dict(copy.deepcopy(states[line]), id=action["id"], type=action["type"]))


def move_into_auto_actions(
    data: dict[str, Any], states: list[dict[str, Any]], moved: int, carrier: int
) -> None:
    """The site recorded action `moved` as an auto action of `carrier`: the carrier's line is
    the state after both."""
    actions = data["actions"]
    auto = actions.pop(index_of(actions, moved))
    del auto["id"]
    actions[index_of(actions, carrier)].setdefault("auto_actions", []).append(auto)
    after = states.pop(index_of(states, moved))
    line = index_of(states, carrier)
    states[line] = dict(after, id=carrier, type=states[line]["type"], auto=[auto["type"]])


def imports_as_the_site_played(data: dict[str, Any], states: list[dict[str, Any]]) -> None:
    result = import_export(data, states=states)
    assert result.first_divergence is None
    assert result.state_lines_compared == len(states) == len(effective_log(data["actions"]))


def test_an_order_fires_under_another_players_pass() -> None:
    # 27939: 341 passes (34), then 6961 buys IFT_3 (35). Here 6961 had ordered that purchase
    # (program_buy_shares, 32.1) and the site recorded it under 341's pass.
    data, states = spread(*load_27939(), last=38)
    insert_order(
        data,
        states,
        320,
        order("program_buy_shares", 6961, 321, corporation="IFT", until_condition=3),
    )
    move_into_auto_actions(data, states, moved=350, carrier=340)
    carrier = data["actions"][index_of(data["actions"], 340)]
    assert carrier["type"] == "pass" and carrier["entity"] == 341
    assert carrier["auto_actions"][0]["entity"] == 6961
    imports_as_the_site_played(data, states)
    game = import_export(data).game
    assert game.state.shares.percent("Player 2", "IFT") == 20  # IFT_2 (32) and IFT_3


def test_an_orders_own_auto_actions_are_applied() -> None:
    # 27939: 833 passes (36); here an auto-pass order set at that moment passes at once.
    data, states = spread(*load_27939(), last=38)
    at = index_of(data["actions"], 360)
    auto = {"type": "pass", "entity": 833, "entity_type": "player"}
    data["actions"][at] = order(
        "program_share_pass", 833, 360, auto_actions=[auto], unconditional=False
    )
    states[index_of(states, 360)].update(type="program_share_pass", auto=["pass"])
    imports_as_the_site_played(data, states)


def test_undo_right_after_an_order_takes_back_the_order() -> None:
    # 341's auto-pass order (36.1) passes for 341 at once; 341 takes the order back (36.2)
    # and passes by hand (37). The undo takes back the order and its pass, not 833's pass.
    data, states = spread(*load_27939(), last=38)
    at = index_of(data["actions"], 360) + 1
    auto = {"type": "pass", "entity": 341, "entity_type": "player"}
    data["actions"][at:at] = [
        order("program_share_pass", 341, 361, auto_actions=[auto]),
        order("undo", 341, 362),
    ]
    assert [a["id"] for a in effective_log(data["actions"])][-3:] == [360, 370, 380]
    imports_as_the_site_played(data, states)


def test_redo_restores_an_order_with_its_auto_actions() -> None:
    data, states = spread(*load_27939(), last=36)
    auto = {"type": "pass", "entity": 341, "entity_type": "player"}
    data["actions"] += [
        order("program_share_pass", 341, 361, auto_actions=[auto]),
        order("undo", 341, 362),
        order("redo", 341, 363),
    ]
    real = read_states(STATES_27939)
    states.append(dict(real[index_of(real, 37)], id=361, type="program_share_pass", auto=["pass"]))
    assert [a["type"] for a in effective_actions(data["actions"])][-2:] == [
        "program_share_pass",
        "pass",
    ]
    imports_as_the_site_played(data, states)


def test_an_order_disabled_by_a_sale_changes_nothing() -> None:
    # 341 orders ATA shares (12.1); 6961's sale of IFT (131) disables the order: the site
    # records program_disable among the sale's auto actions.
    data, states = spread(*load_27939(), last=134)
    insert_order(data, states, 1210, order("program_buy_shares", 341, 1211, corporation="ATA"))
    sale = data["actions"][index_of(data["actions"], 1310)]
    assert sale["type"] == "sell_shares"
    sale["auto_actions"] = [
        order("program_disable", 341, 0, reason="Shares were sold", original_type="x")
    ]
    del sale["auto_actions"][0]["id"]
    states[index_of(states, 1310)]["auto"] = ["program_disable"]
    imports_as_the_site_played(data, states)


def test_chat_and_log_lines_change_nothing_and_undo_skips_chat() -> None:
    data, states = spread(*load_27939(), last=38)
    insert_order(data, states, 360, order("message", 833, 361, message="hi"))
    insert_order(data, states, 361, order("log", 833, 362, message="• noted"))
    imports_as_the_site_played(data, states)
    # an undo right after a chat line takes back the last action that is not chat
    data["actions"].append(order("message", 341, 381, message="oops"))
    data["actions"].append(order("undo", 341, 382))
    assert [a["id"] for a in effective_log(data["actions"])][-3:] == [362, 370, 381]


# ------------------------------------------------------------------ a pass only the site asks
def site_waits_for_a_pass(extra_pass: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """27939 up to SFA's first turn (buy_train 21, pass 22, IFT lays 23) with the site waiting
    for a pass of ATA's after 22 that tresham never asks: the line of 22 names ATA as the one
    to act; with `extra_pass` ATA's pass (221) follows, its line the state tresham is in."""
    data, states = spread(*load_27939(), last=23)
    line = index_of(states, 220)
    after = copy.deepcopy(states[line])
    states[line]["active"] = ["ATA"]
    if extra_pass:
        action = {"type": "pass", "entity": "ATA", "entity_type": "corporation", "id": 221}
        data["actions"].insert(index_of(data["actions"], 220) + 1, action)
        states.insert(line + 1, dict(after, id=221, type="pass"))
    return data, states


def test_a_pass_only_the_site_waits_for_is_not_a_difference() -> None:
    # STATES.md, "Comparing": the site waits at a step tresham does not have; its next
    # action is that entity's pass, which changes nothing here
    imports_as_the_site_played(*site_waits_for_a_pass(extra_pass=True))


def test_waiting_for_someone_else_is_still_a_difference() -> None:
    data, states = site_waits_for_a_pass(extra_pass=False)  # no pass follows: a difference
    with pytest.raises(StateDivergence) as info:
        import_export(data, states=states)
    assert (info.value.divergence.field, info.value.divergence.id) == ("active", 220)
    data, states = site_waits_for_a_pass(extra_pass=True)
    data["actions"][index_of(data["actions"], 221)]["entity"] = "IFT"  # another's pass
    with pytest.raises(StateDivergence, match="active is"):
        import_export(data, states=states)


# ------------------------------------------------------------------ a game over
def test_who_acts_is_not_compared_once_both_games_are_over() -> None:
    # the site's last step may still name an entity after its game ended (random game 3
    # players seed 125: "Leave game" ends it, the site's line still waits for IFT); once both
    # games are over no one acts
    data, states = load_27939()
    assert states[-1]["finished"] and states[-1]["active"] == []
    states[-1]["active"] = ["IFT"]
    imports_as_the_site_played(data, states)  # before it: test_the_bank_and_who_acts_next_…
