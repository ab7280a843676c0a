"""Ruling S29 ("18xx.games" rule set, rules version 10): after a closure, each corporation whose
graph the site worked out since its last clear keeps the answers it had before the closure,
until the next lay, token placed or bought, or earthquake (``stale_graph.py``)."""

from __future__ import annotations

from tresham.core.actions import LayTile, Pass, PlaceToken
from tresham.core.game import Game
from tresham.io.oracle import play_random
from tresham.io.save import new_game
from tresham.titles.t1849 import map_glue, stale_graph
from tresham.titles.t1849.rules import HomeAgain
from tresham.titles.t1849.state import StaleGraph, state_of

SITE = {"rule_set": "18xx.games"}


def _without_snapshots(game: Game) -> Game:
    fresh = game.clone()
    state_of(fresh).stale_graphs.clear()
    return fresh


def _site_game(rules_version: int | None = None) -> Game:
    return new_game("1849", ["A", "B", "C"], 1, SITE, rules_version)


# S29: a closure snapshots the corporations that hold their graph (their turn begun since the
# last clear), with the closed corporation's tokens still on the map; a lay clears them all
# but the layer's own, a token placed clears them all
def test_a_closure_keeps_the_held_graphs_until_the_next_clear() -> None:
    g = _site_game()
    own = state_of(g)
    stale_graph.turn_begins(g, "IFT")
    stale_graph.turn_begins(g, "SFA")
    stale_graph.turn_begins(g, "IFT")
    assert own.graph_held == ["IFT", "SFA"]
    taken: list[str] = []

    def answers(corp: str) -> StaleGraph:
        taken.append(corp)
        return StaleGraph(can_token=False, nodes=[("C1", 0)], hexes={"C1": [0]})

    stale_graph.closing(g, "SFA", answers)
    assert taken == ["IFT"]  # not the closed corporation
    assert own.graph_held == ["IFT"]
    assert stale_graph.stale_hexes(g, "IFT") == {"C1": frozenset({0})}
    assert "stale_graphs" in own.to_dict()  # hashed while kept
    stale_graph.closing(g, "ATA", answers)
    assert taken == ["IFT"]  # the older answers stay
    stale_graph.cleared(g, "RCS")
    assert own.stale_graphs == {} and own.graph_held == ["RCS"]
    assert "stale_graphs" not in own.to_dict()
    stale_graph.cleared(g)
    assert own.graph_held == []


# S29 is the "18xx.games" rule set's from rules version 10: older saves and the summary's
# rule set keep no graph
def test_older_versions_and_the_summary_keep_no_graph() -> None:
    for g in (_site_game(9), new_game("1849", ["A", "B", "C"], 1, {}, None)):
        stale_graph.turn_begins(g, "IFT")
        stale_graph.closing(g, "SFA", lambda c: StaleGraph(False, [], {}))
        assert state_of(g).graph_held == [] and state_of(g).stale_graphs == {}


# S29, random game 5 players seed 376: AFG's closure empties Trapani (C1); CTL, which had its
# turn since the last clear, could token nowhere before it, so the site's Token step skips
# itself (``G1849::Step::Token#can_place_token?`` on the cached ``can_token?``): after CTL's
# track pass it runs its trains at once (the site refused CTL's pass of the token tresham
# offered it: "Blocking step Run Routes cannot process action pass")
def test_random_game_5_players_seed_376_skips_ctls_token_step() -> None:
    g = play_random(5, 376, {}, 123)
    kept = state_of(g).stale_graphs["CTL"]
    assert not kept.can_token and ("C1", 0) in kept.nodes
    assert g.active_entity() == "CTL" and g.legal_actions() == [Pass("CTL")]
    fresh = _without_snapshots(g)
    assert map_glue.token_slots(fresh, "CTL", None) == [("C1", 0)]
    assert map_glue.token_slots(g, "CTL", None) == []
    g.apply(Pass("CTL"))
    fresh.apply(Pass("CTL"))
    assert not any(isinstance(a, PlaceToken) for a in g.legal_actions())
    assert PlaceToken("CTL", "C1", 0) in fresh.legal_actions()


# S29, random game 4 players seed 423 (buying tokens): after a closure AFG keeps the hexes its
# walk reached before it, so it may not lay in G3, which the closure opened to it
# (the site fails there: ``NoMethodError`` on ``graph.connected_hexes(corp).find`` in
# ``G1849::Game#legal_tile_rotation?``)
def test_random_game_4_players_seed_423_keeps_afgs_connected_hexes() -> None:
    g = play_random(4, 423, {"acquiring_station_tokens": True}, 191)
    assert g.active_entity() == "AFG"
    assert "G3" not in state_of(g).stale_graphs["AFG"].hexes
    assert not any(isinstance(a, LayTile) and a.hex == "G3" for a in g.legal_actions())
    fresh = _without_snapshots(g)
    assert LayTile("AFG", "G3", "74", 2) in fresh.legal_actions()


# S29, random game 5 players seed 412 (delay_ift): after AFG's closure SFA keeps "no city to
# token"; AFG's par in the stock round that follows places its home token in Messina through
# the site's HomeToken step (``Step::Tokener#place_token``, ``clear_graph_for_entity``), which
# clears every graph: SFA's Token step is open in the next operating round (the site refused
# SFA's run: "Blocking step Place a Token cannot process action run_routes")
def test_random_game_5_players_seed_412_afgs_chosen_home_clears_the_graph() -> None:
    options = {"delay_ift": True}
    g = play_random(5, 412, options, 1351)
    kept = state_of(g).stale_graphs["SFA"]
    assert not kept.can_token
    assert not g.state.corps["AFG"].placed  # its par, with its home in Messina, comes next
    g = play_random(5, 412, options, 1352)
    assert g.state.corps["AFG"].placed == [("B14", 0)]
    assert state_of(g).stale_graphs == {} and state_of(g).graph_held == []
    g = play_random(5, 412, options, 1399)
    assert g.active_entity() == "SFA"
    g.apply(Pass("SFA"))
    assert any(isinstance(a, PlaceToken) for a in g.legal_actions())


# S29 with S30: AFG's home token placed again on a share purchase goes through the same
# HomeToken step, and clears the graph
def test_afgs_home_token_again_clears_the_graph() -> None:
    g = _site_game()
    stale_graph.turn_begins(g, "IFT")
    state_of(g).stale_graphs["IFT"] = StaleGraph(can_token=False, nodes=[], hexes={})
    HomeAgain().process(g, "AFG", PlaceToken("AFG", "C1", 0))
    assert state_of(g).stale_graphs == {} and state_of(g).graph_held == []
