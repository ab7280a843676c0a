"""The certificate registry: who holds what, kept per corporation."""

from __future__ import annotations

import copy

from tresham.core.shares import POOL, Certificate, ShareRegistry, treasury


def _registry() -> ShareRegistry:
    reg = ShareRegistry()
    reg.add_corporation("AA", [20, 10, 10, 10, 10, 10, 10, 10, 10], False, treasury("AA"))
    reg.add_corporation("BB", [40, 20, 20, 20], False, treasury("BB"))
    for cid, holder in [("AA_0", "P1"), ("AA_3", "P1"), ("BB_1", "P1"), ("AA_4", POOL)]:
        reg.move(cid, holder)
    return reg


def _by_scan(reg: ShareRegistry, holder: str, corp: str | None) -> list[Certificate]:
    """What `held` must answer, found by looking at every certificate."""
    return [
        reg.certs[cid]
        for cid, h in reg.holder.items()
        if h == holder and (corp is None or reg.certs[cid].corp == corp)
    ]


def _agrees(reg: ShareRegistry) -> None:
    for holder in ["P1", POOL, treasury("AA"), treasury("BB"), "split:BB"]:
        for corp in [None, "AA", "BB"]:
            assert reg.held(holder, corp) == _by_scan(reg, holder, corp)
    for corp in ["AA", "BB"]:
        assert reg.corp_certs(corp) == [c for c in reg.certs.values() if c.corp == corp]


def test_holdings_by_corporation_match_a_full_scan() -> None:
    reg = _registry()
    _agrees(reg)
    assert reg.percent("P1", "AA") == 30
    assert reg.percent("P1", "BB") == 20


# 1854 §3.2.1 (split shares, rulings P1-P2): the certificates are halved and the new 10% shares
# join the corporation after its other certificates, in index order
def test_a_split_keeps_the_registry_consistent() -> None:
    reg = _registry()
    for cert in reg.corp_certs("BB"):
        reg.resize(cert.cid, cert.percent // 2)
    for i in range(4, 9):
        reg.add_certificate(Certificate(f"BB_{i}", "BB", 10), "split:BB")
    _agrees(reg)
    assert [c.cid for c in reg.corp_certs("BB")] == [f"BB_{i}" for i in range(9)]
    assert sum(c.percent for c in reg.corp_certs("BB")) == 100
    assert reg.percent("P1", "BB") == 10
    reg.remove_corporation("BB")
    assert reg.corp_certs("BB") == [] and not any(c.corp == "BB" for c in reg.certs.values())
    _agrees(reg)


def test_copies_are_independent() -> None:
    reg = _registry()
    whole = reg.copy()
    deep = copy.deepcopy(reg)
    one = reg.copy(only="AA")
    assert set(one.certs) == {c.cid for c in reg.corp_certs("AA")}
    assert one.held("P1") == reg.held("P1", "AA")
    for c in (whole, deep, one):
        c.move("AA_5", "P2")
        c.add_certificate(Certificate("AA_9", "AA", 10), "P2")
    assert reg.held("P2") == []
    assert len(reg.corp_certs("AA")) == 9
    _agrees(reg)
    _agrees(whole)
    _agrees(deep)
    assert whole.held("P2", "AA") == deep.held("P2", "AA") == one.held("P2", "AA")
