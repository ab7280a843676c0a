"""1849's own state (`titles/t1849/state.py`): typed fields, hashed as the `extra` keys they
replaced, so no state hash (and no save or import check) changed with them."""

from __future__ import annotations

import copy

from tresham.io.save import new_game
from tresham.titles.t1849.state import State1849, Variants, state_of

VARIANTS = {"bonds": True, "acquiring_station_tokens": True, "electric_dreams": True}


def test_the_hash_sees_the_keys_extra_held() -> None:
    g = new_game("1849", ["Ann", "Bob", "Cid", "Dee"], 3)
    order = state_of(g).order
    assert g.state.canonical_extra() == {
        "order": order,
        "rsa_corp": order[0],
        "closed_recently": [],
        "messina_locked": False,
        "cnm_port": {},
        "end_after": None,
        "cert_limit": 11,  # §Players: four players, six corporations
        "p1_free_at": 5,  # ruling R1
    }
    g = new_game("1849", ["Ann", "Bob", "Cid"], 3, {**VARIANTS, "rule_set": "18xx.games"})
    extra = g.state.canonical_extra()
    assert extra["p1_free_at"] == 0 and extra["cert_limit"] == 12  # S1; three players
    assert extra["variants"] == {"bonds": [], "e_tokens": [], "e_token_sold": False}


def test_facts_not_yet_known_leave_their_keys_out() -> None:
    own = State1849(order=["CTL", "IFT"], cert_limit=12, p1_free_at=5, rsa_corp="CTL")
    absent = {"turn_order", "moved_by_sales", "swap_corp", "variants"}
    assert not absent & own.to_dict().keys()
    own.turn_order, own.moved_by_sales, own.swap_corp = ["IFT", "CTL"], [], "IFT"
    own.variants = Variants(bonds=["IFT"])
    assert {k: own.to_dict()[k] for k in sorted(absent)} == {
        "moved_by_sales": [],
        "swap_corp": "IFT",
        "turn_order": ["IFT", "CTL"],
        "variants": {"bonds": ["IFT"], "e_tokens": [], "e_token_sold": False},
    }


def test_copies_own_their_state() -> None:
    g = new_game("1849", ["Ann", "Bob", "Cid"], 2, VARIANTS)
    for twin in (g.clone(), g.search_copy(), copy.deepcopy(g)):
        assert twin.state_hash() == g.state_hash()
        mine, theirs = state_of(g), state_of(twin)
        assert theirs is not mine and theirs.variants is not mine.variants
        theirs.order.reverse()
        assert theirs.variants is not None
        theirs.variants.bonds.append("IFT")
        assert twin.state_hash() != g.state_hash()
        assert mine.variants == Variants()
