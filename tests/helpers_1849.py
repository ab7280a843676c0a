"""Shared positions for the 1849 tests."""

from __future__ import annotations

from tresham.core.actions import Bid, Par
from tresham.core.game import Game
from tresham.titles.t1849.state import state_of

PRIVATE_SALES = [
    ("Ann", "SCE", 20),
    ("Bob", "SIGI", 45),
    ("Cid", "CNM", 75),
    ("Ann", "SMS", 110),
    ("Bob", "RSA", 150),
]


def sell_privates(game: Game) -> None:
    """Ann buys SCE and SMS, Bob SIGI and RSA, Cid CNM, each at face value."""
    for who, comp, price in PRIVATE_SALES:
        game.apply(Bid(who, comp, price))


def start_first(game: Game, price: int = 100) -> str:
    """Bob, holding RSA, starts the first corporation (AFG homes in C1)."""
    first: str = state_of(game).order[0]
    home = None if game.state.corps[first].home else "C1"
    game.apply(Par("Bob", first, price, home))
    return first
