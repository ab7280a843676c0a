"""1854's own state (`titles/t1854/state.py`): typed fields, hashed as the `extra` keys they
replaced, so no state hash (and no save or import check) changed with them."""

from __future__ import annotations

import copy

from helpers_1854 import game
from tresham.core.actions import LayTile
from tresham.titles.t1854.state import Mergers, Option, State1854, Tallies, state_of


def test_the_hash_sees_the_keys_extra_held() -> None:
    g = game()
    assert g.state.extra == {}
    assert g.state.canonical_extra() == {
        "split": [],
        "last_purchaser": None,
        "options": {},
        "mail": {},
    }


def test_facts_not_yet_known_leave_their_keys_out() -> None:
    own = State1854()
    assert own.to_dict().keys() == {"split", "last_purchaser", "options", "mail"}
    own.options["A"] = Option("KE_1", "KE", 67, 1)
    own.unsold_privates = []
    own.extra_map_cleared = own.endgame = own.twos_scrapped = True
    own.shield_request = LayTile("KE", "E21", "7", 2)
    own.mergers = Mergers(offer="L1", declined=[("L2", "L5")], fates=["L2"])
    own.tallies = Tallies(mail_contracts=2, local_mergers=1)
    assert own.to_dict() == {
        "split": [],
        "last_purchaser": None,
        "options": {"A": {"cid": "KE_1", "corp": "KE", "price": 67, "round": 1}},
        "mail": {},
        "unsold_privates": [],
        "extra_map_cleared": True,
        "endgame": True,
        "twos_scrapped": True,
        # the LayTile's JSON without its type, as extra held it (ruling T2)
        "shield_request": {"entity": "KE", "hex": "E21", "tile": "7", "rotation": 2},
        "merge_offer": "L1",
        "merge_declined": [["L2", "L5"]],
        "fates": ["L2"],
        "counts": {"local_mergers": 1, "mail_contracts": 2},  # only the counts made
    }


def test_copies_own_their_state() -> None:
    g = game()
    mine = state_of(g)
    mine.options["A"] = Option("KE_1", "KE", 67, 1)
    mine.mergers.declined = [("L1", "L4")]
    for twin in (g.clone(), g.search_copy(), copy.deepcopy(g)):
        assert twin.state_hash() == g.state_hash()
        theirs = state_of(twin)
        assert theirs is not mine and theirs.mergers is not mine.mergers
        theirs.options["A"].price = 72
        theirs.mail["SD"] = 100
        theirs.split.append("KE")
        assert theirs.mergers.declined is not None
        theirs.mergers.declined.append(("L2", "L5"))
        theirs.tallies.mail_contracts += 1
        assert twin.state_hash() != g.state_hash()
        assert mine.options == {"A": Option("KE_1", "KE", 67, 1)}
        assert mine.mail == {} and mine.split == [] and mine.tallies == Tallies()
        assert mine.mergers.declined == [("L1", "L4")]
