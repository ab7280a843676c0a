"""1883's 2G gravity trains (1883 §6.9.5).

- A corporation may buy a 2GT only while it owns a 2T, 3T or 3bisT, and never more 2GT than
  those; 2GT do not count toward the train limit nor satisfy the need for a train.
- After its regular trains, each 2GT runs between two consecutive stations (no station
  between), one of them the corporation's, downhill: from mountains to hills or plains, from
  hills to plains, never climbing (hexes of the same kind may follow each other); an
  off-board with a hill or mountain symbol counts as such. It may reuse the regular trains'
  track. The run is worth half its stations' values, rounded up.
- A d10 per 2GT that ran: 1-7 it earns, 8-9 it earns nothing, 10 it is destroyed and goes back
  to the bank (the game's generator rolls).

Ruling R19: the step offers the best runs for the corporation's 2GT (two 2GT never share a
stretch); as every 2GT run is worth only its own revenue, no other choice could pay more.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from tresham.core.actions import Action, RunRoutes
from tresham.core.errors import RuleError
from tresham.core.graph import track_graph
from tresham.core.rounds.operating import OperatingRound, Step
from tresham.core.rules_protocols import TrainSpec
from tresham.routes.network import network_of, to_run
from tresham.routes.runs import Run, runs_action
from tresham.titles.t1883.dice import d10
from tresham.titles.t1883.facts import GRAVITY_KINDS
from tresham.titles.t1883.track_rules import FS

if TYPE_CHECKING:
    from tresham.core.game import Game

RULE = "1883 §6.9.5"
#: The trains a 2GT needs beside it (6.9.5).
PULLERS = ("2", "3", "3bis")
SUCCESS = range(1, 8)
DESTROYED = 10


def gravity_trains(game: Game, corp: str) -> list[str]:
    s = game.state
    kinds = GRAVITY_KINDS
    return [t for t in s.corps[corp].trains if s.depot.trains[t].kind in kinds]


def pullers(game: Game, corp: str) -> int:
    """The 2T, 3T and 3bisT `corp` owns: as many 2GT as it may hold (6.9.5)."""
    s = game.state
    return sum(1 for t in s.corps[corp].trains if s.depot.trains[t].kind in PULLERS)


def may_buy(game: Game, corp: str) -> bool:
    """6.9.5: fewer 2GT than 2T, 3T and 3bisT owned."""
    return len(gravity_trains(game, corp)) < pullers(game, corp)


def excess(game: Game, corp: str) -> list[str]:
    """The 2GT `corp` holds beyond its 2T, 3T and 3bisT (6.9.5), the ones it has held
    longest first (all 2GT are alike: ruling R35)."""
    held = gravity_trains(game, corp)
    return held[: max(0, len(held) - pullers(game, corp))]


def return_excess(game: Game) -> None:
    """6.9.5 "Excess 2GT are returned to the bank, without compensation": to the Available G
    Trains space, where they can be bought again."""
    s = game.state
    for sym in s.corps:
        back = excess(game, sym)
        for tid in back:
            s.corps[sym].trains.remove(tid)
            s.depot.trains[tid].owner = None
        if back:
            trains = "a 2G train" if len(back) == 1 else f"{len(back)} 2G trains"
            game.log(
                f"{sym} returns {trains} to the bank without compensation: no more 2G trains "
                "than 2, 3 and 3bis trains (6.9.5)"
            )


def altitude(game: Game, coord: str) -> int:
    """Mountain 2, hill 1, plains 0; an off-board by its symbol."""
    extra = game.state.map.board.extra
    if coord in extra["mountains"]:
        return 2
    if coord in extra["hills"]:
        return 1
    for box in extra["offboards"].values():
        if box["hex"] == coord:
            return {"mountain": 2, "hill": 1}.get(box["symbol"] or "", 0)
    return 0


def best_runs(game: Game, corp: str) -> list[Run]:
    """The best downhill run for each 2GT, on distinct stretches, worth half (rounded up)."""
    # operating imports this module for its steps: its route rules are reached late
    from tresham.titles.t1883.operating import rules_for

    s = game.state
    trains = gravity_trains(game, corp)
    if not trains:
        return []
    net = network_of(s.map, corp)
    rules = rules_for(game, corp)
    spec = TrainSpec(trains[0], s.depot.trains[trains[0]].kind, 2)
    options: list[tuple[int, int, bool]] = []
    for cid, chain in enumerate(net.chains):
        if FS in chain.gauges or not (net.token[chain.a] or net.token[chain.b]):
            continue  # a 2GT runs on the corporation's own track (6.9.5), not the FS (6.7)
        heights = [altitude(game, h) for h in chain.hexes]
        if heights[0] > heights[-1] and all(x >= y for x, y in pairwise(heights)):
            forward = True
        elif heights[-1] > heights[0] and all(x <= y for x, y in pairwise(heights)):
            forward = False
        else:
            continue
        value = sum(rules.stop_revenue(spec, net.stop_recs[i]) for i in (chain.a, chain.b))
        options.append((-(-value // 2), cid, forward))
    options.sort(key=lambda o: (-o[0], o[1]))
    graph = track_graph(s.map)
    runs = []
    for tid, (value, cid, forward) in zip(trains, options, strict=False):
        chain = net.chains[cid]
        start = chain.a if forward else chain.b
        runs.append(to_run(graph, net, tid, start, [(cid, forward)], value))
    return runs


class GravityStep(Step):
    """The 2GT run after the regular trains (6.9.5), then the d10 for each."""

    name = "gravity"
    label = "the 2G trains' downhill run"
    rule = RULE

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        runs = best_runs(game, corp)
        return [runs_action(corp, runs)] if runs else []

    def validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        if action not in self.actions(game, rnd, corp):
            raise RuleError("2GT run their best downhill stretches (ruling R19)", self.rule)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        assert isinstance(action, RunRoutes)
        s = game.state
        earned = 0
        for run in best_runs(game, corp):
            roll = d10(game)
            if roll in SUCCESS:
                earned += run.revenue
                game.log(f"{corp}'s 2G train runs downhill for L.{run.revenue} (d10: {roll})")
            elif roll == DESTROYED:
                s.corps[corp].trains.remove(run.train)
                s.depot.trains[run.train].owner = None
                game.log(f"{corp}'s 2G train crashes and goes back to the bank (d10: {roll})")
            else:
                game.log(f"{corp}'s 2G train does not run (d10: {roll})")
        rnd.turn.revenue = (rnd.turn.revenue or 0) + earned
        return True
