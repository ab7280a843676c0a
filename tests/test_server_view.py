"""What the server adds to the legal actions for the table: the revenue of the proposed runs."""

from __future__ import annotations

from tresham.core.actions import Action, RunRoutes, RunSpec
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.routes.runs import action_revenue
from tresham.server.view import proposed_runs


def first(game: Game, kind: str, **fields: object) -> Action | None:
    return next(
        (
            a
            for a in game.legal_actions()
            if a.type == kind and all(getattr(a, k) == v for k, v in fields.items())
        ),
        None,
    )


def game_at_a_run() -> Game:
    """1849, seed 7: AFG starts in C1 and, in its second turn, runs its train."""
    game = new_game("1849", ["Ann", "Bob", "Cid"], 7, {})
    while game.state.round is not None and game.state.round.kind == "auction":
        action = first(game, "par") or first(game, "bid") or first(game, "pass")
        assert action is not None
        game.apply(action)
    par = first(game, "par", corporation="AFG", home="C1")
    assert par is not None
    game.apply(par)
    for _ in range(80):
        if first(game, "run_routes"):
            return game
        corp = game.active_entity()
        trains = game.state.corps[corp].trains if corp in game.state.corps else []
        action = (
            first(game, "buy_shares", corporation="AFG")
            or first(game, "lay_tile")
            or (None if trains else first(game, "buy_train"))
            or first(game, "pass")
        )
        assert action is not None
        game.apply(action)
    raise AssertionError("no run reached")


def test_the_proposed_runs_earn_what_running_them_earns() -> None:
    game = game_at_a_run()
    actions = game.legal_actions()
    proposal = next(a for a in actions if isinstance(a, RunRoutes))
    shown = proposed_runs(game, actions)
    assert shown is not None
    assert set(shown["runs"]) == {run.train for run in proposal.runs}
    assert sum(shown["runs"].values()) == shown["revenue"] > 0
    game.apply(proposal)
    assert f"{proposal.entity} earns L.{shown['revenue']}" in game.state.events


def test_no_revenue_without_a_run_to_propose() -> None:
    game = new_game("1849", ["Ann", "Bob", "Cid"], 7, {})
    assert proposed_runs(game, game.legal_actions()) is None


def test_each_running_train_has_other_runs_to_choose() -> None:
    """The alternatives offered for a train are legal runs on their own, best first, each
    earning what it says; the best of them is at least the proposal's run of that train."""
    game = game_at_a_run()
    actions = game.legal_actions()
    proposal = next(a for a in actions if isinstance(a, RunRoutes))
    shown = proposed_runs(game, actions)
    assert shown is not None and shown["alternatives"]
    for train, runs in shown["alternatives"].items():
        assert runs, train
        revenues = [run["revenue"] for run in runs]
        assert revenues == sorted(revenues, reverse=True)
        assert revenues[0] >= shown["runs"].get(train, 0)
        trains, rules = game.title.route_inputs(game, proposal.entity)
        for run in runs:
            spec = RunSpec(train, tuple(run["stops"]), tuple(run["track"]))
            action = RunRoutes(proposal.entity, (spec,))
            earned = action_revenue(game.state.map, proposal.entity, trains, action, rules)
            assert earned == run["revenue"]
