"""1854 §3.1.2.1 (lost; missing-rules §3) and §5.10: Local Railways merging into Major Local
Railways from Phase 5, settled at Phase 6; the Major Local Railways' certificates, price,
home, trains and shares (rulings ML1-ML8). The rulebook prints no example; these tests play
the rules with their own numbers.

After the first round (``after_first_round``) A owns L1 and L4, B owns L2 and L5, C owns L3
and L6; each Local Railway started with 150 G."""

from __future__ import annotations

import pytest

from helpers_1854 import TITLE, after_first_round, in_operating_round, rejected, second_round
from positions import asked, give_train
from tresham.core.actions import BuyTrain, LayTile, Pass, PlaceToken, SellShares
from tresham.core.errors import RuleError
from tresham.core.game import Game
from tresham.core.shares import POOL
from tresham.titles.t1854 import major_local
from tresham.titles.t1854.actions import CloseLocal, MergeLocals
from tresham.titles.t1854.operating import closed_to_majors
from tresham.titles.t1854.state import state_of


def reach_phase(g: Game, *names: str) -> None:
    """Record the phases `names` as begun (the trains that start them are not the point)."""
    s = g.state
    s.phases_reached += [n for n in names if n not in s.phases_reached]
    s.phase_index = [p.name for p in TITLE.phases].index(s.phases_reached[-1])


def phase_5_round() -> Game:
    """After the first round, Phase 5 has begun; the next Share Buying Round passes and the
    Operating Round starts with L1's turn."""
    g = after_first_round()
    reach_phase(g, "3", "4", "5")
    second_round(g)
    while not in_operating_round(g):
        g.apply(Pass(str(g.active_entity())))
    assert g.active_entity() == "L1"
    return g


def until(g: Game, entity: str) -> None:
    """Let everyone else take their last legal choice until `entity` is to act."""
    for _ in range(500):
        if g.active_entity() == entity:
            return
        g.apply(g.legal_actions()[-1])
    raise AssertionError(f"{entity} never acts")


def test_no_merger_before_phase_5() -> None:
    # 1854 §5.10: Local Railways may merge from Phase 5
    g = after_first_round()
    assert g.active_entity() == "L1"
    assert not [a for a in g.legal_actions() if isinstance(a, MergeLocals | CloseLocal)]
    rejected(g, MergeLocals("L1", "L4"))
    rejected(g, CloseLocal("L1"), "1854 §5")


def test_phase_5_turn_begins_with_merge_close_or_carry_on() -> None:
    # 1854 §5.10 Phase 5: "Local Railways can either merge to become Major Local Railways
    # ... or close. [They can also continue to operate.]" (ruling ML1)
    g = phase_5_round()
    merges = [MergeLocals("L1", f"L{i}") for i in range(2, 7)]
    assert g.legal_actions() == [*merges, CloseLocal("L1"), Pass("L1")]


def test_one_owners_two_local_railways_merge_at_once() -> None:
    # 1854 Table 2: "Any two Local Railways may merge to form a Major Local Railway";
    # ruling ML3: both treasuries, the Director's 50% to the lower number's owner;
    # ruling ML4: the marker on the 67 par space, showing a 50% certificate's value (§6)
    g = phase_5_round()
    s = g.state
    give_train(g, "L4", "3+")
    state_of(g).mail["L4"] = 100
    bank, a_certs = s.bank.cash, len(s.shares.held("A"))
    g.apply(MergeLocals("L1", "L4"))
    mla = s.corps["MLA"]
    assert s.corps["L1"].closed and s.corps["L4"].closed
    assert s.companies["L1"].closed and s.companies["L4"].closed
    assert mla.floated and mla.cash == 150 + 150 and s.bank.cash == bank
    assert s.shares.percent("A", "MLA") == 100 and s.shares.president["MLA"] == "A"
    assert s.market.price("MLA") == 67 and s.market.cell("MLA").has("par")
    assert [s.depot.trains[t].kind for t in mla.trains] == ["3+"]
    assert state_of(g).mail == {"MLA": 100}  # L4's contract
    assert not s.map.tokens_of("L1") and s.corps["L1"].cash == 0
    assert len(s.shares.held("A")) == a_certs + 2
    assert g.active_entity() == "L2"  # L1's turn ended; L4 will not operate
    assert "MLA" not in s.round.order  # type: ignore[union-attr]
    assert TITLE.counters(g)["local_mergers"] == 1


def test_merging_with_another_owners_railway_needs_consent() -> None:
    # ruling ML1: the partner's owner is asked at once; declined, the proposal is not made
    # again this round; agreed, the proposer's owner is the Director (lower number, ML3)
    g = phase_5_round()
    s = g.state
    until(g, "L2")
    g.apply(MergeLocals("L2", "L3"))
    assert g.active_entity() == "L3" and g.title.controller(g, "L3") == "C"
    assert asked(g) == (
        "L2 proposes to merge with L3 into a Major Local Railway: C, L3's owner, agrees or "
        "refuses (ruling ML1)"
    )
    assert g.legal_actions() == [MergeLocals("L3", "L2"), Pass("L3")]
    g.apply(Pass("L3"))
    assert g.active_entity() == "L2" and not s.corps["L3"].closed
    assert MergeLocals("L2", "L3") not in g.legal_actions()
    rejected(g, MergeLocals("L2", "L3"), "1854 §5.10")
    g.apply(MergeLocals("L2", "L6"))
    g.apply(MergeLocals("L6", "L2"))
    assert s.shares.president["MLA"] == "B"
    assert s.shares.percent("B", "MLA") == 50 and s.shares.percent("C", "MLA") == 50
    assert g.active_entity() == "L3"


def test_a_local_railway_may_close_in_phase_5() -> None:
    # 1854 §5.10 Phase 5: a Local Railway may close; its money goes to the bank
    g = phase_5_round()
    s = g.state
    bank = s.bank.cash
    g.apply(CloseLocal("L1"))
    assert s.corps["L1"].closed and s.bank.cash == bank + 150
    assert g.active_entity() == "L2"


def test_phase_6_settles_every_local_railway_in_order() -> None:
    # 1854 §5.10 Phase 6: "Local Railways must either merge ... or close" (ruling ML2): in
    # ascending order; one left without a partner closes; §5.3: then the extra map's tiles
    # return to the supply
    g = after_first_round()
    s = g.state
    g.apply(LayTile("L1", "J36", "1", 0))
    supply = s.map.supply["1"]
    reach_phase(g, "3", "4", "5")
    TITLE.on_train_bought(g, "6")
    assert g.active_entity() == "L1"
    assert asked(g) == (
        "Phase 6: every Local Railway merges into a Major Local Railway or closes; A proposes "
        "a merger for L1 or closes it (§5.10)"
    )
    assert g.legal_actions() == [
        *(MergeLocals("L1", f"L{i}") for i in range(2, 7)),
        CloseLocal("L1"),
    ]
    g.apply(MergeLocals("L1", "L4"))  # A's own two: at once
    assert g.active_entity() == "L2"
    bank = s.bank.cash
    g.apply(CloseLocal("L2"))
    assert s.bank.cash == bank + 150
    g.apply(MergeLocals("L3", "L5"))  # C asks B
    g.apply(Pass("L5"))  # B declines
    assert g.active_entity() == "L3"
    assert g.legal_actions() == [MergeLocals("L3", "L6"), CloseLocal("L3")]
    g.apply(MergeLocals("L3", "L6"))
    assert s.corps["L5"].closed  # no partner left: it closes
    assert all(s.corps[f"L{i}"].closed for i in range(1, 7)) and not s.pending
    assert [s.shares.president[m] for m in ("MLA", "MLB")] == ["A", "C"]
    assert "J36" not in s.map.tiles and s.map.supply["1"] == supply + 1


def test_the_major_local_railways_home_tile_and_station() -> None:
    # ruling ML5: in its first turn a Major Local Railway lays a green city tile of two
    # spaces (the original set's 441-444) on the medium-sized cities Steyr (D18) or Sankt
    # Pölten (D20) and places its home station; a second one may share that city's other
    # space
    g = phase_5_round()
    s = g.state
    g.apply(MergeLocals("L1", "L4"))
    until(g, "MLA")
    homes = g.legal_actions()
    assert {a.hex for a in homes if isinstance(a, LayTile)} == {"D18", "D20"}
    assert {a.tile for a in homes if isinstance(a, LayTile)} == {"441", "442", "443", "444"}
    lay = next(a for a in homes if isinstance(a, LayTile) and a.hex == "D20" and a.tile == "443")
    g.apply(lay)
    assert s.map.tiles["D20"] == ("443", lay.rotation) and s.map.tokens_of("MLA") == [("D20", 0)]
    assert s.corps["MLA"].placed == [("D20", 0)]
    assert major_local.home_actions(g, "MLA") == []
    major_local.form(g, "L2", "L5")
    assert PlaceToken("MLB", "D20", 0) in major_local.home_actions(g, "MLB")
    # 1854 §5.5: Major Companies may station there from Phase 6 only
    assert closed_to_majors(g, "KE", "D20") and not closed_to_majors(g, "MLB", "D20")
    reach_phase(g, "6")
    assert not closed_to_majors(g, "KE", "D20")


def test_major_local_railways_buy_the_scrapped_trains() -> None:
    # 1854 §5.10: the 2-trains scrapped at Phase 4 "will still be needed for the Major
    # Local Railways"; at Phase 8 the 4-trains become available to them, and the first one
    # a Major Local Railway buys scraps the 2-trains for good (ruling ML7)
    g = phase_5_round()
    s = g.state
    s.depot.rust("4")  # Phase 4 scrapped the 2-trains
    g.apply(MergeLocals("L1", "L4"))
    until(g, "MLA")
    g.apply(next(a for a in g.legal_actions() if isinstance(a, LayTile)))
    until_buy = [a for a in g.legal_actions() if isinstance(a, BuyTrain)]
    while not until_buy:
        g.apply(g.legal_actions()[-1])
        until_buy = [a for a in g.legal_actions() if isinstance(a, BuyTrain)]
    assert BuyTrain("MLA", "2-0", 100) in until_buy
    g.apply(BuyTrain("MLA", "2-0", 100))
    assert s.corps["MLA"].trains == ["2-0"] and s.corps["MLA"].cash == 200
    reach_phase(g, "6", "8")
    s.depot.rust("8")  # Phase 8 scrapped the 4-trains
    g.transfer("bank", "MLA", 200)
    assert BuyTrain("MLA", "4-0", 320) in g.legal_actions()
    g.apply(BuyTrain("MLA", "4-0", 320))
    assert s.corps["MLA"].trains == ["4-0"]
    assert all(t.owner == "scrapped" for t in s.depot.trains.values() if t.kind == "2")
    assert major_local.recycled_offers(g, "MLA") == [("4-1", 320)]


def test_major_local_railway_shares_trade_at_the_price_of_50_percent() -> None:
    # 1854 §6: the marker "shows the value of a 50% share"; §6.7, §6.8: the ordinary 50%
    # certificate sells to the pool for that price and the price falls one space
    g = phase_5_round()
    s = g.state
    g.apply(MergeLocals("L1", "L4"))
    second_round(g)
    assert "MLA" in TITLE.sellable_corps(g, "A")
    until(g, "A")
    cash = s.players[0].cash
    g.apply(SellShares("A", "MLA", 50))
    assert s.players[0].cash == cash + 67 and s.shares.percent(POOL, "MLA") == 50
    assert s.market.price("MLA") == 62  # one space down-left of 67
    assert s.shares.president["MLA"] == "A"


def test_player_names_may_not_be_company_names() -> None:
    # a player called like a company would make every transfer ambiguous
    with pytest.raises(RuleError, match="MLA"):
        Game(TITLE, ["MLA", "B", "C"], seed=1)


def test_games_of_rules_version_1_replay_without_mergers() -> None:
    # a save made before the mergers (rules version 1, ruling L3) replays as it was played:
    # no merger is offered and Phase 6 closes every Local Railway
    g = Game(TITLE, ["A", "B", "C"], seed=1, rules_version=1)
    assert g.rules_version == 1 and TITLE.rules_version > major_local.MERGERS_VERSION
    from helpers_1854 import sell_all_privates

    sell_all_privates(g)
    reach_phase(g, "3", "4", "5")
    assert major_local.merge_actions(g, "L1") == []
    TITLE.on_train_bought(g, "6")
    assert all(g.state.corps[f"L{i}"].closed for i in range(1, 7)) and not g.state.pending
    with pytest.raises(RuleError, match="rules version 0"):
        Game(TITLE, ["A", "B", "C"], seed=1, rules_version=0)


def test_major_local_railways_operate_among_the_majors_by_price() -> None:
    # ruling ML6 (§5.1): after the Local Railways, the Major Companies and the Major Local
    # Railways by share price: KE (77) before MLA (67)
    g = phase_5_round()
    g.apply(MergeLocals("L1", "L4"))
    order = TITLE.operating_order(g)
    assert order.index("KE") < order.index("MLA") and order[-1] == "MLA"
    assert all(sym.startswith("L") for sym in order[: order.index("KE")])


def test_a_major_local_railway_need_not_own_a_train() -> None:
    # ruling ML7: §5.9's obligation is the Major Companies'; MLA may pass its train step
    g = phase_5_round()
    g.apply(MergeLocals("L1", "L4"))
    until(g, "MLA")
    g.apply(next(a for a in g.legal_actions() if isinstance(a, LayTile)))
    for _ in range(10):
        if any(isinstance(a, BuyTrain) for a in g.legal_actions()):
            break
        g.apply(g.legal_actions()[-1])
    assert g.state.corps["MLA"].trains == [] and Pass("MLA") in g.legal_actions()


def test_a_major_local_railway_never_splits() -> None:
    # ruling ML8: a dividend move into a split space splits a Major Company only
    g = phase_5_round()
    s = g.state
    g.apply(MergeLocals("L1", "L4"))
    split_space = next(c for c in TITLE.market_def.cells_with("share_split") if c.pos[0] == 4)
    left_of = (split_space.pos[0], split_space.pos[1] - 1)
    s.market.remove("MLA")
    s.market.place("MLA", left_of)
    TITLE.move_price(g, "MLA", "right")
    assert s.market.cell("MLA").has("share_split") and "MLA" not in state_of(g).split
