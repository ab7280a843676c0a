"""A negotiated deal for the tables' tests (``core/deals.py``): in 1849 (seed 1), IFT, whose
president is Cid, may buy the 4H train of CTL, whose president is Bob, at its train step; the
purchase waits for Bob's answer."""

from __future__ import annotations

from test_1849_paragraphs import at, auto_until, second_stock_round
from tresham.core.actions import BuyTrain
from tresham.core.game import Game

#: IFT offers L.1 for CTL's 4H.
PROPOSAL = BuyTrain("IFT", "4H-0", 1)


def before_the_offer() -> Game:
    """1849 OR 2.1: IFT (Cid) at its train step; CTL (Bob) owns 4H-0."""
    game = second_stock_round()
    auto_until(game, at("IFT:trains"))
    assert game.acting_player() == "Cid" and game.state.corps["CTL"].trains == ["4H-0"]
    return game
