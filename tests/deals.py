"""Test helper: a negotiated purchase the seller agrees to (``core/deals.py``), for tests whose
subject is not the consent itself (tests/test_deals.py covers that)."""

from __future__ import annotations

from tresham.core.actions import BuyCompany, BuyTrain, Choose
from tresham.core.deals import ACCEPT
from tresham.core.game import Game


def buy_agreed(game: Game, action: BuyTrain | BuyCompany) -> None:
    """Apply `action`; if it made an offer to another person, that person accepts it."""
    game.apply(action)
    offer = game.state.offer
    if offer is not None and offer.action == action:
        game.apply(Choose(offer.seller, ACCEPT))
