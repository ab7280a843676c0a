"""The site's cached graph after a closure (ruling S29).

The site's engine keeps, per corporation, the answers of its walk (``Engine::Graph``: the
``can_token?`` answer, ``connected_hexes``, ``connected_nodes``, ...) once it has worked them
out, until the next ``Graph#clear``, which wipes every corporation's answers. It clears on
every tile lay (``Step::Tracker#lay_tile``, ``clear_graph_for_entity``), every token placed
(``Step::Tokener#place_token``, AFG's home token too: chosen at its par or placed again under
ruling S30, it goes through ``Step::HomeToken``; a printed home placed at float by
``Game::Base#place_home_token`` clears nothing), every token bought
(``G1849::Step::BuyToken``) and the Messina earthquake (``G1849::Game#event_earthquake!``,
``clear_graph_for_all``), but not when a corporation closes
(``G1849::Game#close_corporation``, bankruptcy), though its tokens leave the map. A
corporation reaching its Token step has its graph worked out there
(``G1849::Step::Token#can_place_token?`` asks ``graph.can_token?``; after its own lay,
``check_track_restrictions!`` walks it again on the cleared graph), so each corporation whose
turn has begun since the last clear, and the one whose lay made it, holds its answers. After a
closure those keep what they were with the closed corporation's tokens still on the map:

- its Token step skips itself where the answer was "no city to token" (a city the closure
  emptied is not offered), and offers only cities its walk met before the closure
  (``Tokener#check_connected`` on the cached ``connected_nodes``);
- it lays only in the hexes its walk reached before the closure, by the edges it reached
  them by (``G1849::Game#legal_tile_rotation?`` on the cached ``connected_hexes``; a lay
  beyond them fails on the site with a ``NoMethodError``, so the site never offers it).

In the "18xx.games" rule set from rules version 10 (``site_seventh_round``) tresham follows
that: ``State1849.graph_held`` names the corporations holding their answers since the last
clear, and a closure snapshots each of them (``State1849.stale_graphs``) before the closed
corporation's tokens leave; every clear forgets the snapshots.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from tresham.titles.t1849.rule_set import site_seventh_round
from tresham.titles.t1849.state import StaleGraph, state_of

if TYPE_CHECKING:
    from tresham.core.game import Game


def turn_begins(game: Game, corp: str) -> None:
    """`corp`'s turn begins: the site works out its graph at its Token step, if not before."""
    if not site_seventh_round(game):
        return
    held = state_of(game).graph_held
    if corp not in held:
        held.append(corp)


def cleared(game: Game, layer: str | None = None) -> None:
    """The site's graph is cleared (a lay, a token placed or bought, the earthquake): no one
    holds answers any more but `layer`, whose lay is checked again on the cleared graph."""
    if not site_seventh_round(game):
        return
    own = state_of(game)
    own.stale_graphs.clear()
    own.graph_held = [layer] if layer is not None else []


def closing(game: Game, closed: str, answers: Callable[[str], StaleGraph]) -> None:
    """`closed` closes, its tokens still on the map: each other corporation holding its
    answers keeps them (`answers` of it now), unless it keeps older ones already."""
    if not site_seventh_round(game):
        return
    own = state_of(game)
    for corp in own.graph_held:
        if corp != closed and corp not in own.stale_graphs:
            own.stale_graphs[corp] = answers(corp)
    own.graph_held = [c for c in own.graph_held if c != closed]
    own.stale_graphs.pop(closed, None)


def held(game: Game, corp: str) -> StaleGraph | None:
    """The answers `corp` keeps from before a closure; None where it has none."""
    return state_of(game).stale_graphs.get(corp)


def stale_hexes(game: Game, corp: str) -> Mapping[str, frozenset[int]] | None:
    """Where `corp` may build on its kept answers; None where it keeps none."""
    kept = held(game, corp)
    if kept is None:
        return None
    return {c: frozenset(es) for c, es in kept.hexes.items()}
