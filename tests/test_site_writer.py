"""`tresham export-18xx`: an 1849 game played with the rule set 18xx.games written as the
site's export (FORMAT.md), and the differential test against the site's own engine
(``../shared/oracle``, Debian ruby): random games, exported, replayed by the site's engine,
and compared with tresham after every action by the import's states check.

The bounded games are the first 150 actions (the auction, the first stock round and the
first operating rounds) of random games at 3, 4 and 5 players; `make soak` and
benchmarks/oracle_1849.py play whole games by the hundred.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from shared_files import SHARED
from tresham.bots.random_bot import choose
from tresham.cli import main
from tresham.core.actions import Pass
from tresham.core.rounds.stock import StockRound
from tresham.io.oracle import (
    EQUAL,
    SITE_DNF,
    SITE_TURN_LIMIT,
    differential,
    oracle_missing,
    play_random,
    runs_to_the_turn_limit,
    site_replay,
    stale_graph_refusal,
    stale_train_step_refusal,
)
from tresham.io.save import new_game, save
from tresham.io.site_import import import_export
from tresham.io.site_writer import ExportFailure, export_game

BOUNDED = 150
ALL_OPTIONS = {"electric_dreams": True, "bonds": True, "acquiring_station_tokens": True}
ORACLE = SHARED / "oracle"
_missing = oracle_missing(ORACLE)
needs_oracle = pytest.mark.skipif(
    _missing is not None and not os.environ.get("CI"), reason=f"the site's engine: {_missing}"
)


def test_a_summary_game_cannot_be_written() -> None:
    game = new_game("1849", ["A", "B", "C"], 1)
    with pytest.raises(ExportFailure, match=r"rule set 18xx\.games"):
        export_game(game)


def test_the_export_has_the_sites_shape() -> None:
    game = play_random(3, 1, {"delay_ift": True}, BOUNDED)
    export = export_game(game, 7)
    assert export["title"] == "1849" and export["id"] == 7
    assert export["players"] == [
        {"id": 1, "name": "P1"},
        {"id": 2, "name": "P2"},
        {"id": 3, "name": "P3"},
    ]
    assert export["settings"] == {"seed": 1, "optional_rules": ["delay_ift"]}
    assert export["status"] == "active" and "result" not in export
    ids = [a["id"] for a in export["actions"]]
    assert ids == list(range(1, len(ids) + 1))
    pars = [a for a in export["actions"] if a["type"] == "par"]
    assert pars and all(a["share_price"].count(",") == 2 for a in pars)
    for a in export["actions"]:
        assert a["entity_type"] in ("player", "corporation", "company")
        assert isinstance(a["entity"], int) == (a["entity_type"] == "player")


@pytest.mark.parametrize(("seed", "options"), [(1, {}), (2, {}), (10, ALL_OPTIONS)])
def test_the_export_imports_back_to_the_same_game(seed: int, options: dict[str, Any]) -> None:
    game = play_random(3, seed, options, BOUNDED)
    result = import_export(export_game(game))
    assert result.game.state_hash() == game.state_hash()


def test_the_token_buying_step_passes_by_itself_with_no_token_in_reach() -> None:
    # The site's BuyToken step passes by itself where no other corporation's token is in
    # reach (its auto_actions): the export records that pass under the action before it, as
    # the site does, never as a pass of the corporation's (which would end another step).
    export = export_game(play_random(3, 10, ALL_OPTIONS, BOUNDED))
    autos = [x for a in export["actions"] for x in a.get("auto_actions", [])]
    assert autos
    assert all(x["type"] == "pass" and x["entity_type"] == "corporation" for x in autos)
    assert all("id" not in x for x in autos)


def test_the_token_step_after_sms_closed_waits_for_a_pass_only_the_site_asks() -> None:
    # 3p seed 109 (bonds), OR 2.1: ATA buys SMS, closes it, lays nothing and has no token in
    # reach; the site's Token step waits while SMS's hexes are open to it (its own pass),
    # tresham goes on to issuing. The import takes that pass as the site's, not as ATA's
    # decline to issue (which would end its turn before its issue of 40%).
    game = play_random(3, 109, {"bonds": True}, 90)
    export = export_game(game)
    kinds = [(a["type"], a.get("choice")) for a in export["actions"] if a.get("entity") == "ATA"]
    closed = kinds.index(("choose", "Close SMS"))
    assert kinds[closed + 1 : closed + 4] == [("pass", None), ("pass", None), ("sell_shares", None)]
    assert import_export(export).game.state_hash() == game.state_hash()


@needs_oracle
def test_the_interest_owed_after_a_token_purchase_is_ahead_of_the_sites_open_step() -> None:
    # 5p seed 115 (electric_dreams), OR 14.1: IFT buys AFG's token at C5 with its last
    # lira and owes its bond's L.50 interest; tresham moves on to the interest at once, the
    # site's token-buying step stays open until IFT's pass: tresham is that pass ahead
    options = {"electric_dreams": True, "bonds": True, "acquiring_station_tokens": True}
    verdict = differential(5, 115, options, ORACLE, actions=780)
    assert verdict.verdict == EQUAL, json.dumps(verdict.to_dict(), indent=1)[:3000]
    assert verdict.lines_equal == verdict.site_actions > 604


def test_cli_writes_the_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = play_random(4, 2, {}, 60)
    saved = tmp_path / "game.json"
    save(game, saved)
    out = tmp_path / "site.json"
    assert main(["export-18xx", str(saved), "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == json.loads(json.dumps(export_game(game)))
    assert "site actions" in capsys.readouterr().out


def test_cli_refuses_a_summary_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "game.json"
    save(new_game("1849", ["A", "B", "C"], 1), saved)
    assert main(["export-18xx", str(saved)]) == 1
    assert "rule set 18xx.games" in capsys.readouterr().err


@needs_oracle
@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (3, 1, {}),
        (3, 2, {}),
        (4, 2, {}),
        (5, 2, {}),
        (5, 3, {}),
        # the token-buying step's own passes (auto actions) and the site's walk (S11)
        (3, 10, ALL_OPTIONS),
        (4, 1, {"acquiring_station_tokens": True}),
        # the site's train step judged on the cash after a tile's cost (ATA at L12)
        (3, 120, ALL_OPTIONS),
    ],
)
def test_the_sites_engine_replays_the_game_with_every_state_equal(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    verdict = differential(players, seed, options, ORACLE, actions=BOUNDED)
    assert verdict.verdict == EQUAL, json.dumps(verdict.to_dict(), indent=1)[:3000]
    assert verdict.lines_equal == verdict.site_actions > 100


# The site's limit, not a difference: where no one can act but pass, the site passes for them
# by itself within one action, round after round, to its stock round 100, and ends the game
# as "did not finish". Random game 4 players seed 102: after AFG's bankruptcy only a departed
# player's private pays; tresham, playing its own passes on, stands at the start of its stock
# round 100 just as the site's last line. A line that differs there stays a difference.
@needs_oracle
def test_the_sites_own_run_to_its_turn_limit_is_the_sites() -> None:
    options = {"reduced_4p_corps": True}
    verdict = differential(4, 102, options, ORACLE)
    assert verdict.verdict == SITE_DNF, json.dumps(verdict.to_dict(), indent=1)[:3000]
    assert verdict.extra["site_end"] == "its own passes to the turn limit"
    assert verdict.lines_equal == verdict.site_actions
    game = play_random(4, 102, options)
    export = export_game(game, 102)
    replay = site_replay(export, ORACLE)
    last = replay.states[-1]
    assert last["turn"] == SITE_TURN_LIMIT
    assert runs_to_the_turn_limit(game, export, replay, last["id"])
    replay.states[-1] = {**last, "bank": last["bank"] + 1}
    assert not runs_to_the_turn_limit(game, export, replay, last["id"])


# A game over takes no action on the site (GameIsOver), not even the pass of a step tresham
# moved past: random game 3 players seed 125, where P2's leaving ends it during IFT's turn.
def test_nothing_follows_the_action_that_ends_the_game() -> None:
    game = play_random(3, 125, ALL_OPTIONS)
    assert game.state.finished and game.actions[-1].type == "choose"
    last = export_game(game, 125)["actions"][-1]
    assert (last["type"], last["choice"]) == ("choose", "Leave game")
    assert "auto_actions" not in last


# The site's token-buying step stays open after a purchase until the corporation passes
# there; tresham moves on to its train step at once. The export writes that pass (another
# token still in reach: an explicit one), and the import takes it for the site's step, not
# for a pass of tresham's train step (random game 4 players seed 105: CTL buys ATA's token in
# Caltanissetta, passes, then buys a 6H).
def test_the_pass_after_a_token_purchase_is_the_token_steps() -> None:
    game = play_random(4, 105, {"acquiring_station_tokens": True}, actions=747)
    assert [a.type for a in game.actions[-2:]] == ["buy_station_token", "buy_train"]
    export = export_game(game, 105)
    kinds = [(a["type"], a["entity"]) for a in export["actions"][-3:]]
    assert kinds == [("buy_token", "CTL"), ("pass", "CTL"), ("buy_train", "CTL")]
    imported = import_export(export).game
    assert [a.type for a in imported.actions[-2:]] == ["buy_station_token", "buy_train"]
    assert imported.state_hash() == game.state_hash()


# That pass is the purchaser's own even where tresham has already moved on to the next
# corporation: it is not the next one's token-buying step passed (random game 5 players seed
# 213 with acquiring station tokens, OR 40.2: CTL buys ATA's token in Caltanissetta and ends
# its turn; ATA then buys CTL's token there and passes, then issues 20%: taken for ATA's
# decline to issue, its pass would end its turn).
def test_the_pass_after_a_token_purchase_is_the_purchasers_own_turns() -> None:
    game = play_random(5, 213, {"acquiring_station_tokens": True}, actions=1585)
    kinds = [(a.type, a.entity) for a in game.actions[-6:]]
    assert kinds == [
        ("buy_station_token", "CTL"),
        ("pass", "ATA"),
        ("run_routes", "ATA"),
        ("dividend", "ATA"),
        ("buy_station_token", "ATA"),
        ("issue_shares", "ATA"),
    ]
    export = export_game(game, 213)
    written = [(a["type"], a["entity"]) for a in export["actions"][-8:]]
    assert written[:2] == [("buy_token", "CTL"), ("pass", "CTL")]
    assert written[-3:] == [("buy_token", "ATA"), ("pass", "ATA"), ("sell_shares", "ATA")]
    assert import_export(export).game.state_hash() == game.state_hash()


# The site never goes back to a step before one the corporation acted at: CTL buys a train,
# then issues shares (whose money would buy another); its pass after that is its Buy
# Companies step's, not a pass of the site's train step (random game 3 players seed 129 with
# bonds).
def test_a_pass_after_an_issue_is_not_the_train_steps() -> None:
    game = play_random(3, 129, {"bonds": True}, actions=102)
    kinds = [(a.type, a.entity) for a in game.actions[-4:]]
    assert kinds == [
        ("buy_train", "CTL"),
        ("issue_shares", "CTL"),
        ("pass", "CTL"),
        ("pass", "SFA"),
    ]
    imported = import_export(export_game(game, 129)).game
    assert imported.state_hash() == game.state_hash()


# A sale of 10% less than every certificate held, the president's among them, is the site's
# partial bundle (`partial_bundles_for_presidents_share`): P1, with ATA's president's and last
# certificates, sells 30% (random game 5 players seed 113).
def test_a_sale_of_all_but_10_is_the_sites_partial_bundle() -> None:
    game = play_random(5, 113, {"acquiring_station_tokens": True}, actions=1594)
    sale = game.actions[-1]
    assert (sale.type, sale.entity, getattr(sale, "percent", None)) == ("sell_shares", "P1", 30)
    written = export_game(game, 113)["actions"][-1]
    assert (written["type"], written["percent"]) == ("sell_shares", 30)
    assert written["shares"] == ["ATA_7", "ATA_0"]  # the last certificate, the president's
    assert import_export(export_game(game, 113)).game.state_hash() == game.state_hash()


# The site's Token step waits after "Close SMS" while the corporation has a token to place;
# tresham, with nothing to place, shows none: the export's pass there is not a pass of
# tresham's later step (random game 3 players seed 109 with bonds: ATA closes SMS, lays and
# places nothing, then issues shares).
def test_the_token_steps_pass_after_sms_is_the_sites() -> None:
    game = play_random(3, 109, {"bonds": True}, actions=73)
    kinds = [(a.type, a.entity) for a in game.actions[-4:]]
    assert kinds == [
        ("use_company", "ATA"),
        ("pass", "ATA"),
        ("issue_shares", "ATA"),
        ("lay_tile", "AFG"),
    ]
    imported = import_export(export_game(game, 109)).game
    assert imported.state_hash() == game.state_hash()


# A pass goes to the site's first open step, even where tresham waits at a step of its own:
# random game 3 players seed 212 with delay_ift, OR 20.1: IFT closes SMS and lays in Siracusa
# with no token to place there; tresham waits at its train step, the site at its Token step.
# IFT's pass is the Token step's, not a decline to buy a train (which would end its turn
# before its purchase of SFA's 6H for L.1).
def test_the_token_steps_pass_after_sms_is_the_sites_where_tresham_waits_for_a_train() -> None:
    game = play_random(3, 212, {"delay_ift": True}, actions=252)
    kinds = [(a.type, a.entity) for a in game.actions[-3:]]
    assert kinds == [("use_company", "IFT"), ("lay_tile", "IFT"), ("buy_train", "IFT")]
    written = [(a["type"], a["entity"]) for a in export_game(game, 212)["actions"][-3:]]
    assert written == [("lay_tile", "IFT"), ("pass", "IFT"), ("buy_train", "IFT")]
    imported = import_export(export_game(game, 212)).game
    assert imported.state_hash() == game.state_hash()


# The site's graph after a closure (issue 39; random games 4p 145, 5p 144 with bonds, 3p 147
# with delay_ift): SFA has its turn and the site judges it has no city for a token; AFG then
# closes and its tokens leave the map (a city emptied, or one that blocked SFA's way opened);
# SFA passes its track step and places a token. The site's graph, cleared only by a tile
# lay, a token placed or bought or the earthquake, still finds no room: it refuses.
_BLOCKED = "Engine::GameError: Blocking step Run Routes cannot process action place_token"


def _line(n: int, afg_tokens: list[str], phase: str = "4H") -> dict[str, Any]:
    return {
        "id": n,
        "phase": phase,
        "corps": {"AFG": {"tokens": afg_tokens}, "SFA": {"tokens": ["J6", "C5"]}},
        "players": {},
    }


def _stale_case() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Actions 1-5: a lay (RCS), SFA's turn, AFG's pass that closes it, SFA's track pass and
    its token; the site's lines after 1-4."""
    actions: list[dict[str, Any]] = [
        {"id": 1, "type": "lay_tile", "entity": "RCS", "hex": "H4", "tile": "680-0"},
        {"id": 2, "type": "pass", "entity": "SFA"},
        {"id": 3, "type": "pass", "entity": "AFG"},
        {"id": 4, "type": "pass", "entity": "SFA"},
        {"id": 5, "type": "place_token", "entity": "SFA", "city": "C1-0-1", "slot": 0},
    ]
    lines = [_line(1, ["H8", "C1"]), _line(2, ["H8", "C1"]), _line(3, []), _line(4, [])]
    return actions, lines


def test_a_token_refused_on_a_closures_stale_graph_is_the_sites() -> None:
    actions, lines = _stale_case()
    assert stale_graph_refusal(actions, lines, (5, _BLOCKED))
    # its own lay is followed by its Token step: judged on the cleared graph
    actions[1] = {"id": 2, "type": "lay_tile", "entity": "SFA", "hex": "D2", "tile": "9-1"}
    assert stale_graph_refusal(actions, lines, (5, _BLOCKED))


def test_a_token_refused_after_the_sites_graph_was_cleared_is_not_the_sites() -> None:
    actions, lines = _stale_case()
    actions[3] = {"id": 4, "type": "lay_tile", "entity": "SFA", "hex": "D2", "tile": "9-1"}
    assert not stale_graph_refusal(actions, lines, (5, _BLOCKED))
    # a new phase (the earthquake clears the graph) also leaves the refusal tresham's
    actions, lines = _stale_case()
    lines[3]["phase"] = "5H"
    assert not stale_graph_refusal(actions, lines, (5, _BLOCKED))


def test_a_token_refused_when_the_site_judged_it_after_the_closure_is_not_the_sites() -> None:
    actions, lines = _stale_case()
    actions[1]["entity"] = "CTL"  # SFA's first turn since the lay comes after the closure
    assert not stale_graph_refusal(actions, lines, (5, _BLOCKED))


def test_a_token_refused_with_no_closure_or_for_another_reason_is_not_the_sites() -> None:
    actions, lines = _stale_case()
    for line in lines:
        line["corps"]["AFG"]["tokens"] = ["H8", "C1"]  # no tokens left the map
    assert not stale_graph_refusal(actions, lines, (5, _BLOCKED))
    actions, lines = _stale_case()
    other = "Engine::GameError: SFA cannot place token in City C1-0-1 on hex C1"
    assert not stale_graph_refusal(actions, lines, (5, other))


# The site's train step passes by itself where the corporation cannot pay for the cheapest
# train once its turn's spending is done, a tile's terrain cost included: random game 3
# players seed 120 (every option), OR 1.1: ATA, with L.106, lays L12 for L.40 and ends the
# round with L.66, short of a 4H (L.100). Its token-buying step passes by itself (no token in
# reach) and the stock round follows: no pass of ATA's is written after its lay.
def test_a_tiles_cost_counts_towards_the_sites_train_step() -> None:
    game = play_random(3, 120, ALL_OPTIONS, actions=23)
    assert [(a.type, a.entity) for a in game.actions[-4:]] == [
        ("lay_tile", "ATA"),
        ("pass", "P3"),
        ("pass", "P1"),
        ("par", "P2"),
    ]
    assert game.state.corps["ATA"].cash == 66
    export = export_game(game, 120)
    lay, par = export["actions"][-2:]
    assert (lay["type"], lay["entity"], par["type"], par["entity"]) == ("lay_tile", "ATA", "par", 2)
    assert lay["auto_actions"] == [{"type": "pass", "entity": "ATA", "entity_type": "corporation"}]
    assert import_export(export).game.state_hash() == game.state_hash()


# The chat line that wakes the site's stalled stock round follows a stock-round sale only: an
# emergency sale that takes the corporation off the market and ends the operating round
# leaves the new stock round awake, and the line, the corporation's, would be refused (the
# site takes chat from players only). Random game 3 players seed 143 (acquiring station
# tokens): AFG, with no train, spends L.529 on ATA's token in Catania, and its president
# sells AFG's last 20% towards the train it must own.
def test_no_chat_line_after_an_emergency_sale_that_ends_the_round() -> None:
    game = play_random(3, 143, {"acquiring_station_tokens": True}, actions=336)
    sale = game.actions[-1]
    assert (sale.type, sale.entity, getattr(sale, "corporation", None)) == (
        "sell_shares",
        "AFG",
        "AFG",
    )
    assert isinstance(game.state.round, StockRound) and "AFG" not in game.state.market
    export = export_game(game, 143)
    last = export["actions"][-1]
    assert (last["type"], last["entity"], last["shares"]) == ("sell_shares", 1, ["AFG_1", "AFG_2"])
    assert import_export(export).game.state_hash() == game.state_hash()


# Ruling S22, proven in the site's engine: after the fourth round of passes the first player
# offered SCE takes it at L.0, and the player after him bids next on the site as in tresham
# (3 players: twelve passes, then P2 bids). Every state line after that is equal.
@needs_oracle
def test_the_player_after_the_sce_taker_bids_next_on_the_site() -> None:
    game = new_game("1849", ["P1", "P2", "P3"], 5, {"rule_set": "18xx.games", "rng": "18xx.games"})
    for _ in range(12):
        game.apply(Pass(game.active_entity()))
    assert game.state.companies["SCE"].owner == "P1"
    assert game.active_entity() == "P2"
    rng = random.Random(1)
    for _ in range(30):
        game.apply(choose(game, rng))
    export = export_game(game, 5)
    replay = site_replay(export, ORACLE)  # a game cut short: its result is not compared
    assert len(replay.states) == len(export["actions"]), replay.output[-2000:]
    result = import_export(export, states=replay.states)
    assert result.state_lines_compared == len(export["actions"]) > 30


# The site's Buy Trains step after AFG's closure (issue 39; random game 4 players seed 130
# with bonds): AFG buys the first 12H, the earthquake takes its only token and closes it, and
# the site starts IFT's turn inside that purchase, whose end marks the Buy Trains step passed
# for IFT. IFT lays a tile and buys RCS's 10H; the site's Issue or Redeem Shares step refuses.
_TRAIN_BLOCKED = (
    "Engine::GameError: Blocking step Issue or Redeem Shares cannot process action buy_train"
)


def _train_line(n: int, phase: str, afg_tokens: list[str], active: str) -> dict[str, Any]:
    return {
        "id": n,
        "phase": phase,
        "active": [active],
        "corps": {"AFG": {"tokens": afg_tokens}, "IFT": {"tokens": ["H12"]}},
        "players": {},
    }


def _closure_case() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Actions 1-4: AFG's dividend, its 12H, IFT's lay and IFT's purchase; the site's lines
    after 1-3."""
    actions: list[dict[str, Any]] = [
        {"id": 1, "type": "dividend", "entity": "AFG", "kind": "payout"},
        {"id": 2, "type": "buy_train", "entity": "AFG", "train": "12H-0", "price": 800},
        {"id": 3, "type": "lay_tile", "entity": "IFT", "hex": "F8", "tile": "708-0"},
        {"id": 4, "type": "buy_train", "entity": "IFT", "train": "10H-0", "price": 646},
    ]
    lines = [
        _train_line(1, "10H", ["B14"], "AFG"),
        _train_line(2, "12H", [], "IFT"),
        _train_line(3, "12H", [], "IFT"),
    ]
    return actions, lines


def test_a_train_refused_after_afgs_closure_in_its_purchase_is_the_sites() -> None:
    actions, lines = _closure_case()
    assert stale_train_step_refusal(actions, lines, (4, _TRAIN_BLOCKED))
    # a chat line between changes nothing
    actions.insert(3, {"id": 4, "type": "message", "entity": 3, "message": "hi"})
    actions[4] = {**actions[4], "id": 5}
    assert stale_train_step_refusal(actions, lines, (5, _TRAIN_BLOCKED))


def test_a_train_refused_otherwise_is_not_the_sites() -> None:
    actions, lines = _closure_case()
    other = "Engine::GameError: IFT may not spend L.646 on RCS's 10H train"
    assert not stale_train_step_refusal(actions, lines, (4, other))
    # AFG keeps a token: not closed
    actions, lines = _closure_case()
    lines[1]["corps"]["AFG"]["tokens"] = ["H12"]
    assert not stale_train_step_refusal(actions, lines, (4, _TRAIN_BLOCKED))
    # no new phase: no earthquake
    actions, lines = _closure_case()
    lines[1]["phase"] = "10H"
    assert not stale_train_step_refusal(actions, lines, (4, _TRAIN_BLOCKED))
    # another corporation's purchase before IFT's turn
    actions, lines = _closure_case()
    actions[1]["entity"] = "RCS"
    assert not stale_train_step_refusal(actions, lines, (4, _TRAIN_BLOCKED))
    # another entity acted between AFG's purchase and IFT's
    actions, lines = _closure_case()
    actions[2]["entity"] = "ATA"
    assert not stale_train_step_refusal(actions, lines, (4, _TRAIN_BLOCKED))
    # the site did not move on to the refusing corporation
    actions, lines = _closure_case()
    lines[1]["active"] = ["RCS"]
    assert not stale_train_step_refusal(actions, lines, (4, _TRAIN_BLOCKED))


# Ruling S17's pool case, proven in the site's engine: random game 3 players seed 134 (bonds),
# P1 sells all his 40% of CTL, the president's certificate among them, to P2's 40% with
# the 20% last certificate; the site puts that certificate in the pool and asks P1, who keeps
# it there ("One 20% cert"), then starts ATA. Every state line is equal to there.
@needs_oracle
def test_the_site_asks_the_seller_when_the_last_certificate_goes_to_the_pool() -> None:
    verdict = differential(3, 134, {"bonds": True}, ORACLE, actions=163)
    assert verdict.verdict == EQUAL, json.dumps(verdict.to_dict(), indent=1)[:3000]
    assert verdict.lines_equal == verdict.site_actions
    game = play_random(3, 134, {"bonds": True}, actions=163)
    kinds = [(a.type, a.entity, getattr(a, "choice", None)) for a in game.actions[-3:]]
    assert kinds == [
        ("sell_shares", "P1", None),
        ("choose", "P1", "One 20% cert"),
        ("par", "P1", None),
    ]
