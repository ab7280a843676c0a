"""A random player: chooses uniformly among legal actions, with a light bias toward
progress (it passes less often when something else is possible, prefers to pay out, often
buys a train from the bank when it may, so that random games reach the late phases, and
never raises a standing bid that is already the highest: raising it only ties up its money
and, in an auction waiting for a purchase, can keep the game from ever moving on)."""

from __future__ import annotations

import random

from tresham.core.actions import Action, Bid, BuyTrain, Dividend, Pass, RunRoutes
from tresham.core.game import Game

PASS_WEIGHT = 0.15
#: How often a train from the bank is bought when one may be.
BANK_TRAIN_WEIGHT = 0.5


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
    from_bank = [a for a in actions if isinstance(a, BuyTrain) and _from_bank(game, a)]
    if from_bank and rng.random() < BANK_TRAIN_WEIGHT:
        return rng.choice(from_bank)
    others = [a for a in actions if not isinstance(a, Pass) and not _outbids_itself(game, a)]
    passes = [a for a in actions if isinstance(a, Pass)]
    if passes and (not others or rng.random() < PASS_WEIGHT):
        return passes[0]
    return rng.choice(others)


def _from_bank(game: Game, action: BuyTrain) -> bool:
    """Whether `action` buys a train that no corporation owns."""
    train = game.state.depot.trains.get(action.train)
    return train is not None and train.owner not in game.state.corps


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
