"""1883's SEFTA merger (§8.4)."""

from __future__ import annotations

import pytest

from positions import asked
from test_1883_operating import floated
from tresham.core.actions import Choose
from tresham.core.game import Game
from tresham.core.rounds.operating import OperatingRound
from tresham.core.shares import POOL
from tresham.titles.t1883 import sefta
from tresham.titles.t1883.operating import STEPS
from tresham.titles.t1883.state import state_of
from tresham.words import Words


def pair_at_65() -> Game:
    """FMV (A president) and FSMMF (B president), both at L.65 in the same column."""
    g = floated("FMV", (2, 2), president="A")
    s = g.state
    s.market.place("FSMMF", (2, 2))
    s.corps["FSMMF"].parred = s.corps["FSMMF"].floated = True
    s.corps["FSMMF"].par_price = 65
    s.shares.move("FSMMF_0", "B")
    s.shares.president["FSMMF"] = "B"
    for cid in ("FMV_2", "FMV_3"):
        s.shares.move(cid, "A")
    for cid in ("FSMMF_1", "FMV_4"):
        s.shares.move(cid, "B")
    for sym, coord in (("FMV", "S7"), ("FSMMF", "L6")):
        s.map.place_token(sym, coord, 0)
        s.corps[sym].placed.append((coord, 0))
        s.corps[sym].cash = 100
    return g


# 1883 §8.4 step B EXAMPLE: 65 + 65 = 130 is on neither chart; the nearest lower value, 125,
# stands in four boxes and SEFTA goes in the rightmost
def test_step_b_example() -> None:
    g = pair_at_65()
    sefta.merge(g, "FMV")
    s = g.state
    assert s.market.price("SEFTA") == 125
    assert s.market.position("SEFTA") == (3, 11)
    assert s.corps["SEFTA"].par_price == 125


# 1883 §8.4 steps A, C, F, G: assets move to SEFTA; every president's certificate and every
# pair of 10% shares becomes a 10% SEFTA share (the first player reaching 20% takes the
# president's certificate); FMV and FSMMF leave; their stations become SEFTA's
def test_merger_exchanges() -> None:
    g = pair_at_65()
    s = g.state
    # A: 20% + 2 x 10% FMV -> 2 units; B: 20% FSMMF + 10% FSMMF + 10% FMV -> 2 units; D
    # holds the odd FMV share that came with the TMM
    sefta.merge(g, "FMV")
    assert s.pending == [("sefta_leftover", "D")]
    assert (
        asked(g) == "D holds an odd FMV or FSMMF share after the SEFTA merger: D pays L.63 to "
        "convert it into SEFTA, or gives it up for L.63 from the bank (8.4 step D)"
    )
    cash = g.player("D").cash
    g.apply(Choose("D", sefta.DISCARD))
    assert g.player("D").cash == cash + 63
    assert s.shares.president["SEFTA"] == "A"
    assert s.shares.percent("A", "SEFTA") == 20 and s.shares.percent("B", "SEFTA") == 20
    assert s.corps["SEFTA"].cash == 200
    assert s.corps["FMV"].closed and s.corps["FSMMF"].closed
    assert "FMV" not in s.market and not s.shares.corp_certs("FMV")
    assert s.map.has_token("SEFTA", "L6", 0) and s.map.has_token("SEFTA", "S7", 0)
    assert not s.map.tokens_of("FMV")
    assert all(c.closed for c in s.companies.values())  # §3.4
    assert state_of(g).sefta.mergers == 1
    assert s.shares.percent(POOL, "SEFTA") == 0


# 1883 §8.4 step D: an odd 10% share is converted for half a SEFTA share (rounded up) or
# given up for the same amount from the bank
def test_leftover_share() -> None:
    g = pair_at_65()
    s = g.state
    s.shares.move("FMV_5", "C")  # C: one odd FMV share
    sefta.merge(g, "FMV")
    assert ("sefta_leftover", "C") in s.pending
    cash = g.player("C").cash
    g.apply(Choose("C", sefta.CONVERT))
    assert g.player("C").cash == cash - 63  # half of 125, rounded up
    assert s.shares.percent("C", "SEFTA") == 10


# 1883 §8.4 step E: when no player holds more than 10% of SEFTA, the active corporation's
# president buys another 10% with their own money and takes the president's certificate
def test_step_e_active_president_buys() -> None:
    g = floated("FMV", (2, 2), president="A")
    s = g.state
    s.market.place("FSMMF", (2, 2))
    s.corps["FSMMF"].parred = s.corps["FSMMF"].floated = True
    s.shares.move("FSMMF_0", "B")
    s.shares.president["FSMMF"] = "B"
    for sym, coord in (("FMV", "S7"), ("FSMMF", "L6")):
        s.map.place_token(sym, coord, 0)
        s.corps[sym].placed.append((coord, 0))
    s.shares.move("FMV_1", POOL)  # D's share from the TMM goes away: only the two 20%s
    sefta.merge(g, "FMV")
    assert not s.pending
    price = s.market.price("SEFTA")
    assert s.shares.president["SEFTA"] == "A"
    assert s.shares.percent("A", "SEFTA") == 20
    assert s.corps["SEFTA"].cash == price  # A paid for the extra 10%


def turn_end(g: Game, corp: str) -> OperatingRound:
    """An OR of FMV, FSMMF and SV (in that order) at the end of `corp`'s turn."""
    rnd = OperatingRound(g, ["SV", "FMV", "FSMMF"], list(STEPS), "test")
    rnd.index = rnd.order.index(corp)
    rnd.done = rnd.order[: rnd.index]
    g.state.round = rnd
    return rnd


# 1883 §8.4: "the FMV and FSMMF Corporations can merge ... if both their Presidents agree":
# FMV's president proposes in its turn and FSMMF's is asked; refused, nothing merges
@pytest.mark.parametrize(("answer", "merged"), [(sefta.AGREE, True), (sefta.REFUSE, False)])
def test_the_merger_needs_both_presidents(answer: str, merged: bool) -> None:
    g = pair_at_65()
    rnd = turn_end(g, "FMV")
    sefta.MergeStep().process(g, rnd, "FMV", Choose("FMV", sefta.MERGE))
    assert g.state.pending == [("sefta_consent", "B")] and g.acting_player() == "B"
    assert asked(g) == (
        "A proposes, in FMV's turn, to merge FMV and FSMMF into SEFTA: B, the other "
        "president, agrees or refuses (8.4)"
    )
    warnings = Words(g).consequences(Choose("B", answer))[1]
    merging = ["FMV closes: it merges into SEFTA (8.4)", "FSMMF closes: it merges into SEFTA (8.4)"]
    said = [m for m in merging if any(w.startswith(m) for w in warnings)]
    assert said == (merging if merged else [])
    g.apply(Choose("B", answer))
    assert ("SEFTA" in g.state.corps) is merged
    assert g.state.corps["FMV"].closed is merged


# 1883 §12.1 (variant "Mandatory SEFTA merger"): after the turn of the corporation that
# bought the first 5T, FMV and FSMMF merge even unconnected, the one with the higher price
# active; SEFTA operates in that OR when neither has yet; then the CCFR is capitalised
def test_mandatory_merger() -> None:
    g = pair_at_65()
    g.options["mandatory_sefta"] = True
    s = g.state
    s.market.move("FSMMF", "right")  # FSMMF is higher: the active corporation
    s.market.place("SV", (2, 8))
    s.corps["SV"].parred = s.corps["SV"].floated = True
    s.shares.move("SV_0", "C")
    s.shares.president["SV"] = "C"
    for sym in ("FMV", "FSMMF"):
        s.corps[sym].operated = 1
    assert not sefta.can_merge(g, "FMV")  # phase 2: not yet possible by choice
    rnd = turn_end(g, "SV")
    g.title.on_train_bought(g, "5")
    assert state_of(g).sefta.due and s.corps["CCFR"].kind == "cooperative"
    g.title.end_turn(g, rnd, "SV")
    assert "SEFTA" in s.corps and s.corps["FMV"].closed and s.corps["FSMMF"].closed
    assert any("FSMMF active" in e for e in s.events)
    assert "SEFTA" in rnd.order[rnd.index + 1 :]
    assert s.corps["CCFR"].kind == "railway"  # capitalised after the merger


# 1883 §12.1: with FMV or FSMMF not in play, SEFTA leaves the game instead
def test_mandatory_merger_without_the_pair() -> None:
    g = floated("FMV", (2, 2), president="A")
    g.options["mandatory_sefta"] = True
    s = g.state
    rnd = turn_end(g, "FMV")
    g.title.on_train_bought(g, "5")
    g.title.end_turn(g, rnd, "FMV")
    assert "SEFTA" not in s.corps and state_of(g).sefta.removed
    assert not sefta.can_merge(g, "FMV")


# 1883 §8.4 step G with §11.2 #13 (ruling R29): a station SEFTA takes over in a city that holds
# more stations than spaces (after an air raid) stays, beyond the spaces
def test_station_taken_over_in_a_crowded_city() -> None:
    g = pair_at_65()
    s = g.state
    s.map.place_token("SV", "S7", 0, beyond_slots=True)  # Vignola: one space, two stations
    sefta.merge(g, "FMV")
    g.apply(Choose("D", sefta.DISCARD))
    assert s.map.has_token("SEFTA", "S7", 0) and s.map.has_token("SV", "S7", 0)
