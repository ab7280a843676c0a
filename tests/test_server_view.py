"""What the server adds for the table: the revenue of the proposed runs (with the legal
actions), and a deal waiting for the seller's answer (in the public state)."""

from __future__ import annotations

import json
import random

import pytest

from offer_position import PROPOSAL, before_the_offer
from tresham.core.actions import Action, Choose, RunRoutes, RunSpec
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.routes.runs import action_revenue
from tresham.server.live import LiveGame
from tresham.server.storage import GameRecord, LogRow, SeatRecord
from tresham.server.view import proposed_runs, public_state


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
            or first(game, "choose", choice="accept")  # an offer for a train (core/deals.py)
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


# ---------------------------------------------------------------------- offers
def live_game(game: Game) -> LiveGame:
    record = GameRecord(
        id="offer",
        title=game.title.name,
        rules_version=game.rules_version,
        seed=game.seed,
        options=dict(game.options),
        players=list(game.player_names),
        seats=[SeatRecord(p, None) for p in game.player_names],
    )
    return LiveGame.adopt(record, game, public_state)


def post(live: LiveGame, seat: str, action: Action) -> dict[str, object]:
    """Apply `action` as `seat`'s move; the public state after it (as JSON text gives it)."""
    live.check_seat(seat, action)
    live.apply_posted(LogRow(live.index, action.to_json(), seat), action)
    live.refresh_snapshot()
    shown: dict[str, object] = json.loads(live.snapshot_json)
    return shown


def test_a_pending_offer_is_shown_to_everyone_until_it_is_answered() -> None:
    live = live_game(before_the_offer())
    assert live.snapshot["offer"] is None
    before = live.snapshot["state_hash"]
    shown = post(live, "Cid", PROPOSAL)
    assert shown["offer"] == {
        "buyer": "IFT",
        "buyer_player": "Cid",
        "seller": "CTL",
        "asked": "Bob",
        "kind": "train",
        "item": "4H-0",
        "item_name": "4H",
        "price": 1,
        "price_text": "L.1",
        "text": "IFT offers L.1 to CTL for train 4H",
    }
    assert shown["acting_player"] == "Bob" and shown["active_entity"] == "CTL"
    # the offer panel says what is asked: the prompt adds no words of its own
    assert shown["pending"] == [{"kind": "offer", "entity": "CTL", "asked": ""}]
    # Bob declines: the offer is gone, and the game is as it was before it (but for the log)
    shown = post(live, "Bob", Choose("CTL", "decline"))
    assert shown["offer"] is None and shown["state_hash"] == before
    assert shown["acting_player"] == "Cid"
    # offered again, Bob accepts: IFT has the train
    assert post(live, "Cid", PROPOSAL)["offer"] is not None
    shown = post(live, "Bob", Choose("CTL", "accept"))
    assert shown["offer"] is None
    corps = {c["sym"]: c for c in shown["corporations"]}  # type: ignore[attr-defined]
    assert corps["IFT"]["trains"] == ["4H-0"] and corps["CTL"]["trains"] == []


def first_offer(title: str, players: int, kind: str) -> Game:
    """A random game of `title` played until a corporation offers to buy a `kind`."""
    game = new_game(title, ["Ann", "Bob", "Cid", "Dan"][:players], 0)
    rng = random.Random(0)
    for _ in range(5000):
        game.apply(rng.choice(game.legal_actions()))
        offer = game.state.offer
        if offer is not None and offer.to_dict()["kind"] == kind:
            return game
    raise AssertionError(f"no {kind} offered in {title}")


@pytest.mark.parametrize(
    ("title", "players", "kind"),
    [("1883", 3, "company"), ("1883", 3, "train"), ("1854", 4, "train")],
)
def test_an_offer_names_the_item_and_the_price_as_players_say_them(
    title: str, players: int, kind: str
) -> None:
    game = first_offer(title, players, kind)
    offer = game.state.offer
    assert offer is not None
    shown = public_state(live_game(game))["offer"]
    assert shown["asked"] == game.acting_player() == game.title.controller(game, offer.seller)
    assert shown["price_text"] == game.title.money(offer.price)
    if kind == "company":
        company = game.state.companies[offer.item]
        assert shown["item_name"] == company.name
        assert shown["text"].endswith(f"for {company.name} ({company.sym})")
    else:
        train = game.state.depot.trains[offer.item]
        assert shown["item_name"] == (train.variant or train.kind)
        assert shown["text"].endswith(f"for train {shown['item_name']}")
    assert shown["text"].startswith(f"{offer.buyer} offers {shown['price_text']} to {offer.seller}")
