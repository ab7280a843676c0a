"""Helpers for the 1854 tests: the title, the rejected-action check, a position after the
first Share Buying Round, and the start of the next one with the Operating Round between
skipped (for the tests of the Share Buying Rounds)."""

from __future__ import annotations

from rejections import rejected as rejected  # the check every 1854 test file uses
from tresham.core.actions import Bid, BuyShares, Par, Pass
from tresham.core.game import Game
from tresham.core.rounds.operating import OperatingRound
from tresham.titles.t1854.rules import Title1854

TITLE = Title1854()
ORDER = ["P1", "P2", "P3", "L1", "L2", "L3", "L4", "L5", "L6", "P4", "P5"]


def game(n: int = 3) -> Game:
    """A new game of `n` players A, B, C, ... in that seating order."""
    return Game(TITLE, list("ABCDEF"[:n]), seed=1)


def cash(g: Game) -> list[int]:
    return [p.cash for p in g.state.players]


def passes(g: Game, *players: str) -> None:
    for p in players:
        g.apply(Pass(p))


def sell_all_privates(g: Game) -> None:
    """The players buy the eleven certificates at face value in turn (A, B, C, A, ...)."""
    for company in ORDER:
        player = g.active_entity()
        assert player is not None
        g.apply(Bid(player, company, g.state.companies[company].value))


def after_first_round() -> Game:
    """Three players (860 G each) buy the privates at face value in turn: A pays 490 (P1, L1,
    L4, P4 with 20% VB), B 540 (P2, L2, L5, P5 with 20% SD), C 370 (P3, L3, L6). Then C
    starts KE at 67, A and C buy 20% each, A another 20%: KE is sold out."""
    g = game()
    sell_all_privates(g)
    g.apply(Par("C", "KE", 67))
    g.apply(BuyShares("A", "KE", "treasury", 20))
    g.apply(Pass("B"))
    g.apply(BuyShares("C", "KE", "treasury", 20))
    g.apply(BuyShares("A", "KE", "treasury", 20))
    passes(g, "B", "C", "A")
    return g


def in_operating_round(g: Game) -> bool:
    """Whether the game waits for a decision in an Operating Round."""
    return isinstance(g.state.round, OperatingRound) and not g.state.finished


def second_round(g: Game) -> None:
    """Skip the rest of the Operating Round the game waits in (the Mountain Railways have
    paid) and start the next Share Buying Round."""
    s = g.state
    assert in_operating_round(g)
    s.round = TITLE.new_share_round(g)
