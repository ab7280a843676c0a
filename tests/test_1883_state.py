"""1883's own state (`titles/t1883/state.py`): typed fields, hashed as the `extra` keys they
replaced, so no state hash (and no save or import check) changed with them."""

from __future__ import annotations

import copy

from tresham.io.save import new_game
from tresham.titles.t1883.state import (
    Bomb,
    ClosedHex,
    Concessions,
    ConcessionStatus,
    Debt,
    Events,
    SeftaMerging,
    State1883,
    Support,
    SupportAsk,
    state_of,
)

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def test_the_hash_sees_the_keys_extra_held() -> None:
    g = new_game("1883", PLAYERS, 3)
    deck = state_of(g).events.deck
    unowned = {"owner": None, "removed": False, "due": None}
    assert g.state.canonical_extra() == {
        "support": dict.fromkeys(PLAYERS, 1),  # §2.2.1: one card each
        "support_supply": 20,  # §2.1: 24 cards
        "concessions": {str(n): unowned for n in range(1, 9)},
        "concession_bought": [],
        "started_in_sr": {},
        "coop": "CCFR",
        "coop_president": None,
        "pool_over_limit": [],
        "concessions_fulfilled": 0,
        "mergers": 0,
        "bus_tokens": {},
        "ports": {"FSF": {"unplaced": 2, "placed": [], "second_waits": True}},  # §6.6
        "events": {
            "deck": deck,
            "era": 1,
            "drawn": [],
            "effects": {"revenue": {}, "closed": [], "offboards": {}, "red_week": False},
            "hot_autumn": False,
            "strike_breaker_or": None,
            "aside": 0,
            "asks": [],
            "owed": {},
            "last_operated": [],
        },
    }
    assert sorted(deck) == list(range(1, 13))  # §2.3 d: the First Era cards, shuffled
    # the hashes of the same games when these facts were keys of `extra`
    assert g.state_hash() == "8b70bf79bf363b45fb60d589cb1ceaa7ce4524d21e70c56786bd18e0e37c32e3"
    g = new_game("1883", PLAYERS[:2], 3, {"no_events": True})
    assert g.state_hash() == "73555d48c19cf36fd5295af81621e103ab671a555874549f7cb5864ba78f0329"


def test_facts_not_yet_known_leave_their_keys_out() -> None:
    own = State1883(
        support=Support({"Ann": 1}, 23),
        concessions=Concessions({"1": ConcessionStatus()}),
        coop="CCFR",
        events=Events([3, 1]),
    )
    absent = {
        "bonus_waiting",
        "or_settled",
        "sv_par_owed",
        "sefta_due",
        "sefta_active",
        "sefta_removed",
        "sefta_pair",
        "sefta_buyer",
    }
    assert not absent & own.to_dict().keys()
    assert "raids" not in own.to_dict()["events"]
    own.concessions.bonus_waiting = {"FMV": [150]}
    own.or_settled = False
    own.sv_par_owed = 1
    own.sefta.due = own.sefta.removed = True
    own.sefta.active = "FMV"
    own.sefta.merging = SeftaMerging(["FMV", "FSMMF"], None)
    assert {k: own.to_dict()[k] for k in sorted(absent)} == {
        "bonus_waiting": {"FMV": [150]},
        "or_settled": False,
        "sefta_active": "FMV",
        "sefta_buyer": None,  # present, though None, while the merger is under way
        "sefta_due": True,
        "sefta_pair": ["FMV", "FSMMF"],
        "sefta_removed": True,
        "sv_par_owed": 1,
    }
    # the events' records hash as the positional lists they were
    ev = own.events
    ev.raids = [Bomb("Ann", "C3")]
    ev.asks.append(SupportAsk("FBV", "half", 1))
    ev.owed["Bob"] = Debt(10, None)
    ev.effects.closed.append(ClosedHex("G5", "1883 §11 #2"))
    out = own.to_dict()["events"]
    assert out["raids"] == [["Ann", "C3"]] and out["asks"] == [["FBV", "half", 1]]
    assert out["owed"] == {"Bob": [10, None]}
    assert out["effects"]["closed"] == [["G5", "1883 §11 #2"]]


def test_copies_own_their_state() -> None:
    g = new_game("1883", PLAYERS, 2)
    for twin in (g.clone(), g.search_copy(), copy.deepcopy(g)):
        assert twin.state_hash() == g.state_hash()
        mine, theirs = state_of(g), state_of(twin)
        assert theirs is not mine and theirs.events is not mine.events
        theirs.events.deck.reverse()
        theirs.support.held["Ann"] += 1
        theirs.concessions.status["1"].owner = "FBV"
        theirs.ports["FSF"].placed.append("C3")
        assert twin.state_hash() != g.state_hash()
        assert mine.support.held["Ann"] == 1 and mine.concessions.status["1"].owner is None
        assert mine.ports["FSF"].placed == []
    hidden = state_of(g.search_copy(reseed=5)).events.deck  # §2.3 d: undrawn order unknown
    assert sorted(hidden) == sorted(state_of(g).events.deck)
