"""A random player: chooses uniformly among legal actions, with a light bias toward
progress (it passes less often when something else is possible, prefers to pay out, and
never raises a standing bid that is already the highest: raising it only ties up its money
and, in an auction waiting for a purchase, can keep the game from ever moving on)."""

from __future__ import annotations

import random

from tresham.core.actions import Action, Bid, Dividend, Pass, RunRoutes
from tresham.core.game import Game

PASS_WEIGHT = 0.15


def choose(game: Game, rng: random.Random) -> Action:
    """Pick a legal action for the entity to act."""
    actions = game.legal_actions()
    if not actions:
        raise RuntimeError("no legal action for the active entity")
    runs = [a for a in actions if isinstance(a, RunRoutes)]
    if runs:
        return runs[0]
    payouts = [a for a in actions if isinstance(a, Dividend) and a.kind == "payout"]
    if payouts and rng.random() < 0.8:
        return payouts[0]
    others = [a for a in actions if not isinstance(a, Pass) and not _outbids_itself(game, a)]
    passes = [a for a in actions if isinstance(a, Pass)]
    if passes and (not others or rng.random() < PASS_WEIGHT):
        return passes[0]
    return rng.choice(others)


def _outbids_itself(game: Game, action: Action) -> bool:
    """Whether `action` raises the acting player's own highest standing bid."""
    bids = getattr(game.state.round, "bids", None)
    if not isinstance(action, Bid) or not isinstance(bids, dict):
        return False
    on = bids.get(action.company)
    if not isinstance(on, dict) or not on:
        return False
    leader: object = max(on, key=lambda player: on[player])
    return leader == action.entity
