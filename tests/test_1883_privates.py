"""1883's privates in the operating round (§3.1, §3.3, §6.11)."""

from __future__ import annotations

import pytest

from test_1883_operating import turn_at
from test_1883_start import TITLE, game, sell_privates
from tresham.core.actions import BuyCompany, LayTile
from tresham.core.errors import RuleError
from tresham.core.game import Game
from tresham.titles.t1883 import privates
from tresham.titles.t1883.operating import OPERATING
from tresham.titles.t1883.state import state_of


def with_cash(corp: str, cash: int = 500) -> Game:
    g = game()
    sell_privates(g)  # B owns FRV, C CNP, D TMM
    g.state.corps[corp].cash = cash
    return g


# 1883 §3.3 / §6.11: before the first 3T only the FRV, for half to its face value
def test_frv_before_the_first_3t() -> None:
    g = with_cash("FSF")
    assert privates.price_range(g, "FSF", "FRV") == (20, 40)
    assert privates.price_range(g, "FSF", "TMM") is None
    with pytest.raises(RuleError, match=r"§6\.11"):
        privates.check(g, "FSF", BuyCompany("FSF", "FRV", 45))


# 1883 §6.11: from the first 3T, any player's private (FSF's presidency aside) for half to
# double its face value; the Co-operative never buys one (8.1.3)
def test_from_the_first_3t() -> None:
    g = with_cash("FSF")
    TITLE.on_train_bought(g, "3")
    assert privates.price_range(g, "FSF", "TMM") == (40, 160)
    assert privates.price_range(g, "FSF", "CNP") == (30, 120)
    assert privates.price_range(g, "CCFR", "TMM") is None


# 1883 §6.6: a corporation buying the CNP receives its port token
def test_cnp_brings_its_port_token() -> None:
    g = with_cash("FSF")
    TITLE.on_train_bought(g, "3")
    privates.buy(g, "FSF", BuyCompany("FSF", "CNP", 60))
    assert g.state.companies["CNP"].owner == "FSF"
    assert state_of(g).ports["FSF"].unplaced == 3


# 1883 §3.1 P2: the FRV's owner may lay a tile in hex 20 at no cost, besides its normal lay
def test_frv_extra_free_lay() -> None:
    g = with_cash("SAFRE", 0)
    s = g.state
    s.corps["SAFRE"].parred = s.corps["SAFRE"].floated = True
    privates.buy(g, "SAFRE", BuyCompany("SAFRE", "FRV", 0))
    rnd = turn_at(g, "SAFRE", "track")
    lays = OPERATING.lay_options(g, rnd, "SAFRE") or []
    frv = [a for a in lays if a.hex == "K3"]
    assert frv  # no connection needed, no money needed
    OPERATING.lay(g, rnd, "SAFRE", frv[0])
    assert s.corps["SAFRE"].cash == 0
    assert not [a for a in OPERATING.lay_options(g, rnd, "SAFRE") or [] if a.hex == "K3"]
    assert OPERATING.more_lays(g, rnd, "SAFRE")  # its normal lay is still to come
    assert all(isinstance(a, LayTile) for a in lays)


# 1883 §6.4.4: until the first 4T the FSF lays two tiles, on F hexes only; a first tile on
# another hex leaves it no second one
def test_fsf_two_f_hex_lays() -> None:
    g = game()
    sell_privates(g)
    flood = set(g.state.map.board.extra["flood_hexes"])
    rnd = turn_at(g, "FSF", "track")
    lays = OPERATING.lay_options(g, rnd, "FSF") or []
    on_f = [a for a in lays if a.hex in flood]
    off_f = [a for a in lays if a.hex not in flood]
    assert on_f and off_f
    OPERATING.lay(g, rnd, "FSF", on_f[0])
    assert OPERATING.more_lays(g, rnd, "FSF")
    second = OPERATING.lay_options(g, rnd, "FSF") or []
    assert second and all(a.hex in flood for a in second)
    g2 = game()
    sell_privates(g2)
    rnd2 = turn_at(g2, "FSF", "track")
    first = [a for a in OPERATING.lay_options(g2, rnd2, "FSF") or [] if a.hex not in flood]
    OPERATING.lay(g2, rnd2, "FSF", first[0])
    assert not OPERATING.more_lays(g2, rnd2, "FSF")


# 1883 §3.1 P3: the CNP's owner trades it in for a 10% SV share from the initial offering (SV
# receives its par); the CNP closes and its port token goes to SV (ruling R20: as a turn)
def test_cnp_trade_in() -> None:
    from tresham.core.actions import Par, UseCompany

    g = game()
    sell_privates(g)  # C owns the CNP
    first = g.active_entity()
    g.apply(Par(first, "SV", 85))
    s = g.state
    later = s.round
    assert later is not None
    later.index = later.order.index("C")  # type: ignore[attr-defined]
    cash = s.corps["SV"].cash
    held = s.shares.percent("C", "SV")
    assert UseCompany("C", "CNP", "SV") in g.legal_actions()
    g.apply(UseCompany("C", "CNP", "SV"))
    assert s.shares.percent("C", "SV") == held + 10
    assert s.corps["SV"].cash == cash + 85
    assert s.companies["CNP"].closed
    assert state_of(g).ports["SV"].unplaced == 1


# 1883 §3.4.1: at the privates' closing an untraded CNP sends a 10% SV share to the pool; an
# unfloated SV receives its par when it floats
def test_cnp_at_the_closing() -> None:
    from tresham.core.shares import POOL

    g = game()
    sell_privates(g)
    s = g.state
    for kind in ("3", "3bis", "4", "5"):
        TITLE.on_train_bought(g, kind)
    assert s.shares.percent(POOL, "SV") == 10
    assert all(c.closed for c in s.companies.values())
    TITLE.start(g, "A", "SV", 100, paid_by="A")
    assert s.corps["SV"].cash == 200 + 100
