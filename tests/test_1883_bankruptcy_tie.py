"""1883 bankruptcy (§6.9.6): the presidencies a bankrupt player leaves are re-assigned as in
§5.3.6, a tie going to the eligible player closest to the old president's left (ruling R5)."""

from __future__ import annotations

import pytest

from test_1883_start import ABCD, TITLE, sell_privates
from tresham.core.actions import Bankrupt
from tresham.core.game import Game
from tresham.core.shares import POOL
from tresham.titles.t1883 import concessions
from tresham.titles.t1883.state import state_of
from tresham.titles.t1883.versions import DEALS_VERSION
from tresham.words import Words


def bankrupt_c_with_tied_sv(rules_version: int) -> Game:
    """C presides FBV, which owes the L.40 penalty of concession 2 with an empty treasury,
    and SV (20%), where B and D hold 20% each and the pool 40%. C has no money; the one SV
    sale the pool takes (10% at L.30) cannot cover the penalty, so C goes bankrupt."""
    g = Game(TITLE, ABCD, 1, rules_version=rules_version)
    sell_privates(g)
    s = g.state
    for sym, pos in (("FBV", (2, 8)), ("SV", (7, 0))):  # SV at L.30
        s.market.place(sym, pos)
        s.corps[sym].parred = s.corps[sym].floated = True
        s.corps[sym].par_price = s.market.price(sym)
        s.shares.move(f"{sym}_0", "C")
        s.shares.president[sym] = "C"
    for cid, holder in (("SV_1", "B"), ("SV_2", "B"), ("SV_3", "D"), ("SV_4", "D")):
        s.shares.move(cid, holder)
    for cid in ("SV_5", "SV_6", "SV_7", "SV_8"):
        s.shares.move(cid, POOL)
    s.corps["FBV"].cash = 0
    g.player("C").cash = 0
    concession = state_of(g).concessions.status["2"]
    concession.owner, concession.due = "FBV", 1
    concessions.end_of_operating_round(g)  # 6.12: the penalty, raised as in 6.9.6
    assert s.pending == [("event_raise", "C")]
    assert Bankrupt("C") in g.legal_actions()
    warnings = Words(g).consequences(Bankrupt("C"))[1]
    assert any(w.startswith("FBV closes: its president goes bankrupt (5.8)") for w in warnings)
    g.apply(Bankrupt("C"))
    assert g.player("C").bankrupt
    assert "FBV" not in s.market and s.shares.president["FBV"] is None  # FBV closed (6.9.6)
    return g


# 1883 §6.9.6 "If the bankrupt player was the President of another Corporation, a check is
# made to see if another player becomes the new President (para 5.3.6)"; §5.3.6 "if two or
# more players are eligible, then the player closest to the old President's left becomes the
# new President": B and D tie at 20% of SV; D sits to C's left (A, B, C, D round the table), so
# D takes the president's certificate from the pool, handing two 10% shares to it
def test_tie_goes_to_the_bankrupt_players_left() -> None:
    g = bankrupt_c_with_tied_sv(DEALS_VERSION)
    s = g.state
    assert s.shares.president["SV"] == "D"
    assert s.shares.percent("D", "SV") == 20
    assert any(c.president for c in s.shares.held("D", "SV"))
    assert s.shares.percent("B", "SV") == 20
    assert s.shares.percent(POOL, "SV") == 60  # C's 20% and D's two 10% shares in, past 50%


# rules version 2 (saves played before `DEALS_VERSION`) keeps its tie rule: the first eligible
# player in seat order, B
@pytest.mark.parametrize("version", [1, 2])
def test_older_versions_give_the_tie_to_the_first_seat(version: int) -> None:
    g = bankrupt_c_with_tied_sv(version)
    s = g.state
    assert s.shares.president["SV"] == "B"
    assert s.shares.percent("B", "SV") == 20 and s.shares.percent("D", "SV") == 20
