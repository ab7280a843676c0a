"""1854 §5: the Major Companies' Operating Rounds (track, stations, trains, dividends, train
purchase, phases) and §8: the game end. The rulebook prints no worked example for §5 or §8;
these tests play the rules with their own numbers."""

from __future__ import annotations

import pytest

from deals import buy_agreed
from helpers_1854 import TITLE, after_first_round, cash, passes, rejected, second_round
from positions import asked, give_train
from tresham.core.actions import (
    Bankrupt,
    BuyTrain,
    Choose,
    DiscardTrain,
    Dividend,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    SellShares,
    action_from_json,
)
from tresham.core.game import Game
from tresham.core.graph import lay_context, legal_tile_lays, reach
from tresham.core.rounds.operating import OperatingRound
from tresham.core.rules_protocols import Stop, TrainSpec
from tresham.core.shares import POOL
from tresham.core.tiles import NodeDef
from tresham.titles.t1854 import mail, operating
from tresham.titles.t1854.actions import BuyMailContract
from tresham.titles.t1854.operating import rules_for, station_cost
from tresham.titles.t1854.state import Option, state_of


def two_companies() -> Game:
    """After the first round (KE sold out, C its Director with 670 G), the next Share Buying
    Round: B starts SD at 72 and floats it at once with the Semmeringbahn's 20% (720 G).
    The Operating Round: the Local Railways pass their turns; KE (77, risen again) operates
    before SD (72), §5.1."""
    g = after_first_round()
    second_round(g)
    g.apply(Par("B", "SD", 72))
    passes(g, "C", "A", "B")
    skip_locals(g)
    return g


def skip_locals(g: Game) -> None:
    """The Local Railways (L1-L6, operating first) pass whatever they may pass."""
    while (g.active_entity() or "").startswith("L"):
        g.apply(g.legal_actions()[-1])


def lay(g: Game, corp: str, coord: str, edges: set[int]) -> None:
    """Put on `coord` the first tile `corp` may lay there whose exits include `edges`."""
    s = g.state
    for t in legal_tile_lays(s.map, corp, rules_for(g, corp), hexes=[coord]):
        if edges <= s.map.catalogue[t.tile].exits(t.rotation):
            s.map.lay_tile(coord, t.tile, t.rotation)
            return
    raise AssertionError(f"no tile for {coord}")


def sd_to_graz(g: Game) -> None:
    """SD's track from Wien through Mödling & Baden (D22) and the Semmering (E23) to Graz."""
    lay(g, "SD", "D22", {3, 5})
    lay(g, "SD", "E23", {0, 2})
    lay(g, "SD", "F22", {3})


def to_sd(g: Game) -> None:
    """KE passes through its turn; SD's turn begins."""
    while g.active_entity() == "KE":
        g.apply(Pass("KE"))
    assert g.active_entity() == "SD"


# ------------------------------------------------------------------ §5.1, Table 5
def test_order_by_share_price_and_the_mountain_income() -> None:
    # 1854 §5.1: the Mountain Railways pay first, then the Local Railways operate in
    # ascending order, then the Major Companies by share price, the highest first (KE 77
    # before SD 72)
    g = two_companies()
    s = g.state
    rnd = s.round
    locals_ = ["L1", "L2", "L3", "L4", "L5", "L6"]
    assert isinstance(rnd, OperatingRound) and rnd.order == [*locals_, "KE", "SD"]
    start = s.events.index("Operating Round 2.1")
    assert s.events[start : start + 5] == [
        "Operating Round 2.1",
        "Außerfernbahn pays 5 G to A",
        "Murtalbahn pays 10 G to B",
        "Graz-Köflacher Bahn pays 15 G to C",
        "Arlbergbahn pays 20 G to A",
    ]


def test_operating_rounds_per_set_follow_the_phase() -> None:
    # 1854 §5.10 Table 5 / §6.1: a set of one Operating Round after each Share Buying Round
    # in Phase 2, two from Phase 3, three from Phase 5
    g = two_companies()
    s = g.state
    assert s.ors_in_set == 1
    for index, rounds in ((1, 2), (2, 2), (3, 3), (5, 3)):
        s.phase_index = index
        TITLE.begin_operating_set(g)
        assert s.ors_in_set == rounds


# ------------------------------------------------------------------ §5.5, §5.3
def test_home_station_placed_when_first_operating() -> None:
    # 1854 §5.5 / §6.6: the home station is placed free when the company first operates;
    # §5.3: Wien's station is printed, so KE may build elsewhere at once (C21)
    g = two_companies()
    s = g.state
    assert s.corps["KE"].placed == [("C23", 1)] and s.corps["KE"].cash == 670
    assert {a.hex for a in g.legal_actions() if isinstance(a, LayTile)} == {"C21"}


def test_the_first_tile_must_go_on_the_home_hex() -> None:
    # 1854 §5.3 "In its first turn a company places a tile on the site of its home station"
    # (ruling T1): B starts VB at 67, which floats with A's 20% from the Arlbergbahn
    g = after_first_round()
    second_round(g)
    g.apply(Par("B", "VB", 67))
    passes(g, "C", "A", "B")
    skip_locals(g)
    while g.active_entity() == "KE":
        g.apply(Pass("KE"))
    assert g.active_entity() == "VB" and g.state.corps["VB"].placed == [("E3", 0)]
    lays = [a for a in g.legal_actions() if isinstance(a, LayTile)]
    assert lays and {a.hex for a in lays} == {"E3"}
    rejected(g, LayTile("VB", "F2", "1", 0), "§5.3")
    g.apply(lays[0])
    assert operating.home_lay_pending(g, "VB") is None


def test_shielded_hexes_need_permission_until_the_first_8_train() -> None:
    # 1854 §5.3: before the first 8-train a yellow tile on a shielded hex next to Wien needs
    # the guarding company's permission (rulings D3, T2); promotion needs none
    g = two_companies()
    s = g.state
    assert rules_for(g, "KE").check_hex(s.map, "KE", "C21") is None
    err = rules_for(g, "SD").check_hex(s.map, "SD", "C21")
    assert err is not None and "§5.3" in err.rule
    s.phases_reached.append("8")
    assert rules_for(g, "SD").check_hex(s.map, "SD", "C21") is None


def test_the_extra_map_is_the_local_railways() -> None:
    # 1854 §5.3: "The six Local Railways do their building on the extra map"; the Major
    # Companies build on the main map
    g = two_companies()
    s = g.state
    err = rules_for(g, "KE").check_hex(s.map, "KE", "J34")
    assert err is not None and "§5.3" in err.rule
    err = rules_for(g, "L1").check_hex(s.map, "L1", "C21")
    assert err is not None and "§5.3" in err.rule
    assert rules_for(g, "L1").check_hex(s.map, "L1", "J34") is None


def test_terrain_is_paid_on_the_first_development_only() -> None:
    # 1854 §5.3: terrain costs "are incurred by the very first development of the hexagon",
    # paid before the tile is placed
    g = two_companies()
    s = g.state
    bank = s.bank.cash
    g.apply(LayTile("KE", "C21", "1", 0))
    assert s.corps["KE"].cash == 670 - 50 and s.bank.cash == bank + 50
    rules = rules_for(g, "KE")
    assert rules.lay_cost(lay_context(s.map, "KE", "C21", "1", 0)) == 0


def test_mountain_railway_hex_free_for_the_owners_companies() -> None:
    # 1854 §5.3: a Mountain Railway's hex is free for companies whose Director owns it; other
    # companies pay the printed cost (the Semmering, E23: 70 G; B owns it)
    g = two_companies()
    s = g.state
    assert s.companies["P5"].owner == "B"
    assert rules_for(g, "SD").lay_cost(lay_context(s.map, "SD", "E23", "8", 0)) == 0
    assert rules_for(g, "KE").lay_cost(lay_context(s.map, "KE", "E23", "8", 0)) == 70


def test_illegal_lays_are_refused() -> None:
    # 1854 §5.3 / §5.4: green tiles only from Phase 3; no tile beyond the reach of the
    # company's stations; nothing changes
    g = two_companies()
    rejected(g, LayTile("KE", "C21", "14", 0), "colour")
    rejected(g, LayTile("KE", "B24", "7", 0), "connected")
    rejected(g, LayTile("KE", "D22", "1", 0), "connected")  # KE's line does not reach D22


# ------------------------------------------------------------------ §5.5 stations
def test_stations_cost_50_100_150_one_per_round() -> None:
    # 1854 §5.5: "The first extra station costs 50 G, the second 100 G and a possible third
    # 150 G"; one station in an Operating Round
    g = two_companies()
    s = g.state
    to_sd(g)
    sd_to_graz(g)
    assert station_cost(g, "SD") == 50
    g.apply(Pass("SD"))  # no tile this turn
    assert g.legal_actions() == [PlaceToken("SD", "F22", 0), Pass("SD")]
    g.apply(PlaceToken("SD", "F22", 0))
    assert s.corps["SD"].cash == 720 - 50 and station_cost(g, "SD") == 100
    assert s.map.has_token("SD", "F22")
    assert not any(isinstance(a, PlaceToken) for a in g.legal_actions())  # one a round
    assert TITLE.token_costs["SD"] == [0, 50, 100, 150]


def test_a_home_city_keeps_a_place_for_its_company() -> None:
    # 1854 §5.5: in a city where a company not yet operating has its home, another company
    # places a station only if a place stays free for it (Linz: one place, KR's)
    g = two_companies()
    s = g.state
    assert s.map.token_problem("KE", "C17", 0) is not None
    assert s.map.token_problem("KR", "C17", 0) is None


# ------------------------------------------------------------------ §5.6, §5.7, §5.8
def test_runs_dividends_and_the_price_move() -> None:
    # 1854 §5.6: a 2-train runs Wien (40) - Mödling (10); §5.7: paid out, each player gets
    # his percentage; §5.8: the price moves one space right (whatever the amount)
    g = two_companies()
    s = g.state
    to_sd(g)
    lay(g, "SD", "D22", {3, 5})
    give_train(g, "SD", "2")
    g.apply(Pass("SD"))  # track
    while not any(isinstance(a, Dividend) for a in g.legal_actions()):
        g.apply(g.legal_actions()[0])
    assert isinstance(s.round, OperatingRound) and s.round.turn.revenue == 50
    money = cash(g)
    g.apply(Dividend("SD", "payout"))
    # B holds 40% + 20%: 30 G; the initial offering's 40% pays nobody
    assert cash(g) == [money[0], money[1] + 30, money[2]]
    assert s.market.price("SD") == 75  # 72 -> 75, although 50 < 72


def test_withholding_moves_left_and_keeps_the_money() -> None:
    # 1854 §5.7: withheld in its entirety; §5.8: one space to the left
    g = two_companies()
    s = g.state
    to_sd(g)
    lay(g, "SD", "D22", {3, 5})
    give_train(g, "SD", "2")
    g.apply(Pass("SD"))
    while not any(isinstance(a, Dividend) for a in g.legal_actions()):
        g.apply(g.legal_actions()[0])
    g.apply(Dividend("SD", "withhold"))
    assert s.corps["SD"].cash == 720 + 50 and s.market.price("SD") == 69


def test_graz_bonus_and_paris_closed() -> None:
    # Table 2: the Graz-Köflacher Bahn gives the owner's companies +10 G on a route through
    # Graz (ruling T6); §5.6: Paris and Constantinople are on no ordinary train's route
    g = two_companies()
    s = g.state
    to_sd(g)
    sd_to_graz(g)
    s.map.place_token("SD", "F22", 0)
    s.corps["SD"].placed.append(("F22", 0))
    give_train(g, "SD", "3")
    plain = g.title.best_routes(g, "SD").revenue
    s.companies["P3"].owner = "B"
    assert g.title.best_routes(g, "SD").revenue == plain + 10
    assert rules_for(g, "SD").closed_stops == {"D2", "F26"}


def test_plus_trains_do_not_run_for_major_companies() -> None:
    # 1854 §5.6, §5.9: only Local Railways use plus trains; a major may own them to sell on
    g = two_companies()
    to_sd(g)
    lay(g, "SD", "D22", {3, 5})
    give_train(g, "SD", "1+")
    assert operating.train_specs(g, "SD") == []


def test_an_unpaid_option_share_pays_as_10_percent() -> None:
    # 1854 §6.4.1: "The player will also receive dividends as though it were only a 10%
    # share"
    g = two_companies()
    s = g.state
    cid = next(c.cid for c in s.shares.held("treasury:SD", "SD") if c.percent == 20)
    s.shares.move(cid, "A")
    state_of(g).options["A"] = Option(cid, "SD", 36, 2)
    step = TITLE.step_objects["dividend"]
    assert isinstance(step, operating.DividendStep1854)
    assert step.paid_percent(g, "SD", "A", 20) == 10
    assert step.paid_percent(g, "SD", "B", 60) == 60


# ------------------------------------------------------------------ §5.9, §5.10, §5.11
def test_trains_from_the_bank_in_order_and_the_limit() -> None:
    # 1854 §5.9: new trains in ascending order from the bank at the printed price; several
    # in a turn; never beyond the train limit (4 in Phase 2)
    g = two_companies()
    s = g.state
    to_sd(g)
    while not any(isinstance(a, BuyTrain) for a in g.legal_actions()):
        g.apply(Pass("SD"))
    assert {a.train for a in g.legal_actions() if isinstance(a, BuyTrain)} == {"2-0", "1+-0"}
    for tid in ("2-0", "2-1", "2-2"):
        g.apply(BuyTrain("SD", tid, 100))
    g.apply(BuyTrain("SD", "1+-0", 80))
    assert s.corps["SD"].cash == 720 - 380 and len(s.corps["SD"].trains) == 4
    rnd = s.round
    assert isinstance(rnd, OperatingRound) and rnd.steps[rnd.step] == "mail"  # at the limit


def test_the_3_plus_only_after_the_last_2_plus() -> None:
    # 1854 §5.9: "The 3+ trains become available after the purchase of the last 2+ train";
    # §5.6: the Orient Express beside the 8-train once the last 6-train is sold
    g = two_companies()
    s = g.state
    s.phases_reached.append("3")
    kinds = {s.depot.trains[t].kind for t, _ in TITLE.bank_offers(g)}
    assert "2+" in kinds and "3+" not in kinds
    for t in s.depot.in_bank():
        if t.kind == "2+":
            t.owner = "KE"
    kinds = {s.depot.trains[t].kind for t, _ in TITLE.bank_offers(g)}
    assert "3+" in kinds
    for t in s.depot.in_bank():
        if t.kind in ("2", "3", "4", "5", "6"):
            t.owner = "rusted"
    kinds = {s.depot.trains[t].kind for t, _ in TITLE.bank_offers(g)}
    assert {"8", "OE"} <= kinds


def test_trading_trains_from_phase_3() -> None:
    # 1854 §5.9: from Phase 3 trains can be bought from other companies for at least 1 G;
    # §5.11: the buyer's marker moves up-left, the seller's down-right
    g = two_companies()
    s = g.state
    tid = give_train(g, "KE", "2")
    to_sd(g)
    while not any(isinstance(a, BuyTrain) for a in g.legal_actions()):
        g.apply(Pass("SD"))
    rejected(g, BuyTrain("SD", tid, 1), "§5.9")  # Phase 2
    s.phases_reached.append("3")
    rejected(g, BuyTrain("SD", tid, 0), "§5.9")
    rejected(g, BuyTrain("SD", tid, 721), "§5.9")
    sd, ke = s.market.position("SD"), s.market.position("KE")
    buy_agreed(g, BuyTrain("SD", tid, 300))
    assert s.corps["SD"].trains == [tid] and s.corps["KE"].cash == 670 + 300
    assert s.market.position("SD") == (sd[0] - 1, sd[1] - 1)
    assert s.market.position("KE") == (ke[0] + 1, ke[1] + 1)


def test_a_company_with_a_route_must_buy_a_train() -> None:
    # 1854 §5.9: a company in operation with a route must own a train; it cannot pass
    g = two_companies()
    to_sd(g)
    lay(g, "SD", "D22", {3, 5})
    while not any(isinstance(a, BuyTrain) for a in g.legal_actions()):
        g.apply(g.legal_actions()[-1])
    acts = g.legal_actions()
    assert Pass("SD") not in acts and BuyTrain("SD", "1+-0", 80) not in acts
    rejected(g, Pass("SD"), "§5.9")


def test_emergency_purchase_with_the_directors_money() -> None:
    # 1854 §5.9: short of money, the Director makes up the shortfall for a train at face
    # value; the company keeps nothing
    g = two_companies()
    s = g.state
    to_sd(g)
    lay(g, "SD", "D22", {3, 5})
    g.transfer("SD", "bank", 690)  # SD keeps 30 G
    while not any(isinstance(a, BuyTrain) for a in g.legal_actions()):
        g.apply(g.legal_actions()[-1])
    b = cash(g)[1]
    assert g.legal_actions() == [BuyTrain("SD", "2-0", 100)]  # no plus train, no pass
    g.apply(BuyTrain("SD", "2-0", 100))
    assert s.corps["SD"].cash == 0 and cash(g)[1] == b - 70


def test_emergency_sales_never_change_a_director_then_bankruptcy() -> None:
    # 1854 §5.9: the Director sells shares to raise the money, never so that a company
    # changes Director; unable to raise it, the player is bankrupt and the game ends at once
    g = two_companies()
    s = g.state
    to_sd(g)
    lay(g, "SD", "D22", {3, 5})
    g.transfer("SD", "bank", s.corps["SD"].cash)
    g.transfer("B", "bank", s.players[1].cash)
    for t in s.depot.in_bank():
        if t.kind == "2":
            t.owner = "rusted"  # the cheapest train is a 3-train: 200 G
    while not any(isinstance(a, (BuyTrain, SellShares, Bankrupt)) for a in g.legal_actions()):
        g.apply(g.legal_actions()[-1])
    acts = g.legal_actions()
    # B's 60% of SD: 20% may go (40% stays, more than anyone else); B holds nothing else
    assert acts == [SellShares("SD", "SD", 20), Bankrupt("SD")]
    g.apply(SellShares("SD", "SD", 20))
    # SD earned nothing this turn: 72 -> 69
    assert s.shares.percent(POOL, "SD") == 20 and cash(g)[1] == 2 * 69
    assert g.legal_actions() == [Bankrupt("SD")]
    g.apply(Bankrupt("SD"))
    assert s.finished and s.end_reason == "bankrupt" and s.players[1].bankrupt


def test_phase_4_scraps_the_2_trains_and_lowers_the_limit() -> None:
    # 1854 §5.10: Phase 4: all the 2-trains and 1+ trains are scrapped; the limit drops to 3;
    # surplus trains go back to the bank (§5.9), for sale at full price
    g = two_companies()
    s = g.state
    old = give_train(g, "SD", "2")
    for _ in range(4):
        give_train(g, "KE", "3")
    for t in s.depot.in_bank():
        if t.kind in ("2", "3"):
            t.owner = "rusted"
    to_sd(g)
    s.corps["SD"].cash = 1000
    while not any(isinstance(a, BuyTrain) for a in g.legal_actions()):
        g.apply(Pass("SD"))
    g.apply(BuyTrain("SD", "4-0", 320))
    assert g.phase.name == "4" and s.corps["SD"].trains == ["4-0"]
    assert s.depot.trains[old].owner == "rusted"
    assert g.active_entity() == "KE" and s.pending == [("discard", "KE")]
    kept = s.corps["KE"].trains[0]
    rejected(g, DiscardTrain("KE", "4-0"), "discard")
    g.apply(DiscardTrain("KE", kept))
    assert s.depot.trains[kept].owner == "pool" and len(s.corps["KE"].trains) == 3
    assert (kept, 200) in TITLE.bank_offers(g)


def test_phase_5_closes_the_mountain_railways() -> None:
    # 1854 §5.10 Table 5: at the start of Phase 5 all the Mountain Railways close
    g = two_companies()
    s = g.state
    s.phases_reached += ["3", "4"]
    s.phase_index = 2
    TITLE.on_train_bought(g, "5")
    assert g.phase.name == "5"
    assert all(c.closed for c in s.companies.values() if c.powers.get("kind") == "mountain")
    assert not any(c.closed for c in s.companies.values() if c.powers.get("kind") == "local")


def test_the_orient_express_starts_phase_8() -> None:
    # 1854 §5.10: "Phase 8 (which begins with the purchase of the first 8-train or the first
    # Orient Express)": the 4-trains are scrapped
    g = two_companies()
    s = g.state
    four = give_train(g, "KE", "4")
    s.phases_reached += ["3", "4", "5", "6"]
    s.phase_index = 4
    TITLE.on_train_bought(g, "OE")
    assert g.phase.name == "8" and four not in s.corps["KE"].trains


def test_semmeringbahn_closes_when_sd_first_runs() -> None:
    # 1854 Table 2: the Semmeringbahn closes when SD first runs its trains
    g = two_companies()
    s = g.state
    to_sd(g)
    lay(g, "SD", "D22", {3, 5})
    give_train(g, "SD", "2")
    while g.active_entity() == "SD" and not s.companies["P5"].closed:
        g.apply(g.legal_actions()[0])
    assert s.companies["P5"].closed and not s.companies["P4"].closed


# ------------------------------------------------------------------ §8
def test_game_end_space_ends_after_the_operating_round() -> None:
    # 1854 §8: a marker on the Game End space: the current Operating Round is played out
    g = two_companies()
    s = g.state
    top = next(c for c in s.market.market.cells_with("endgame"))
    s.market.move_to("KE", (top.pos[0], top.pos[1] - 1))
    TITLE.move_price(g, "KE", "right")  # a dividend's move
    assert s.market.cell("KE") == top
    g.apply(Pass("KE"))
    while g.active_entity() == "KE":
        g.apply(g.legal_actions()[-1])
    assert not s.finished and g.active_entity() == "SD"
    while not s.finished:
        g.apply(g.legal_actions()[-1])
    assert s.end_reason == "endgame" and s.operating_round_no == 2


def test_bank_break_plays_out_the_set() -> None:
    # 1854 §8: the bank runs out during an Operating Round: the set is played out
    g = two_companies()
    s = g.state
    s.bank.cash = 10
    g.transfer("bank", "KE", 20)
    assert s.bank.broken
    g.apply(Pass("KE"))
    while not s.finished:
        g.apply(g.legal_actions()[-1])
    assert s.end_reason == "bank" and s.operating_round_no == 2


def test_reckoning_up() -> None:
    # 1854 §8.1: cash plus shares at their current value; company assets do not count
    g = two_companies()
    scores = TITLE.scores(g)
    # C: cash + KE 60% at 77; B: cash + SD 60% at 72; A: cash + KE 40% at 77 (20% VB unstarted)
    assert scores["C"] == cash(g)[2] + 6 * 77
    assert scores["B"] == cash(g)[1] + 6 * 72
    assert scores["A"] == cash(g)[0] + 4 * 77


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_end(players: int) -> None:
    # §8: random games reach an end; money and certificates are conserved
    import random

    rng = random.Random(players)
    g = Game(TITLE, list("ABCDEF"[:players]), seed=players)
    while not g.state.finished:
        g.apply(rng.choice(g.legal_actions()))
    s = g.state
    assert s.end_reason in ("bank", "endgame", "bankrupt")
    money = sum(cash(g)) + s.bank.cash + sum(c.cash for c in s.corps.values())
    assert money == 9672
    for sym in s.corps:
        assert sum(s.shares.holders(sym).values()) == 100
    # the log is the game: the saved actions replay to the same final state
    replay = Game(TITLE, list("ABCDEF"[:players]), seed=players)
    for action in g.actions:
        replay.apply(action_from_json(action.to_json()))
    assert replay.state_hash() == g.state_hash()


# ------------------------------------------------------------------ §5.12 mail contracts
def test_mail_contract_bought_last_and_paid_at_the_start_of_each_turn() -> None:
    # 1854 §5.12: as its last action a company may buy one mail contract (100 G or 200 G);
    # §5.2: its income is collected first in each later turn (Table 6: 10 G in Phase 2)
    g = two_companies()
    s = g.state
    to_sd(g)
    while not any(isinstance(a, BuyMailContract) for a in g.legal_actions()):
        g.apply(Pass("SD"))
    assert g.legal_actions() == [
        BuyMailContract("SD", 100),
        BuyMailContract("SD", 200),
        Pass("SD"),
    ]
    g.apply(BuyMailContract("SD", 100))
    assert s.corps["SD"].cash == 620 and mail.held(g, "SD") == 100
    for _ in range(3):  # Share Buying Round 3
        g.apply(Pass(g.active_entity() or ""))
    skip_locals(g)
    while g.active_entity() == "KE":
        g.apply(Pass("KE"))
    assert g.active_entity() == "SD"
    assert "SD collects 10 G from its mail contract" in s.events[-3:]
    assert s.corps["SD"].cash == 630
    while g.active_entity() == "SD":
        g.apply(Pass("SD"))
    assert "SD skips buying a mail contract" in s.events[-3:]  # one contract a company


def test_mail_income_by_phase_and_six_of_each_kind() -> None:
    # 1854 Table 6: the 200 G contract pays 20 / 30 / 50 / 80 G in the yellow, green, brown,
    # grey phases; six contracts of each kind
    g = two_companies()
    s = g.state
    state_of(g).mail["SD"] = 200
    paid = []
    for index in (0, 1, 3, 5):
        s.phase_index = index
        before = s.corps["SD"].cash
        mail.collect(g, "SD")
        paid.append(s.corps["SD"].cash - before)
    assert paid == [20, 30, 50, 80]
    for i in range(6):
        state_of(g).mail[f"X{i}"] = 100
    assert mail.left(g, 100) == 0 and mail.left(g, 200) == 5
    rnd = s.round
    assert isinstance(rnd, OperatingRound)
    step = TITLE.step_objects["mail"]
    assert step.actions(g, rnd, "KE") == [BuyMailContract("KE", 200), Pass("KE")]
    assert step.actions(g, rnd, "SD") == []  # SD holds one already


def test_ausserfernbahn_discount_on_mountains() -> None:
    # 1854 Table 2: with the Außerfernbahn, building on a mountain costs 20 G less for the
    # owner's companies (ruling T11); not on water (Krems & Tulln, C21)
    g = two_companies()
    s = g.state
    s.companies["P1"].owner = "C"  # KE's Director
    rules = rules_for(g, "KE")
    assert rules.lay_cost(lay_context(s.map, "KE", "D22", "1", 0)) == 50 - 20
    assert rules.lay_cost(lay_context(s.map, "KE", "C21", "1", 0)) == 50
    assert rules_for(g, "SD").lay_cost(lay_context(s.map, "SD", "D22", "1", 0)) == 50


# ------------------------------------------------------------------ the Local Railways
def test_local_railways_start_with_150_and_operate_first() -> None:
    # missing-rules §2.9: a Local Railway starts with 150 G from the bank (its price went to
    # the bank); §5.1: the Local Railways operate first, in ascending order; §5.5: the home
    # station on the extra map is free
    g = after_first_round()
    s = g.state
    assert all(s.corps[f"L{i}"].cash == 150 for i in range(1, 7))
    assert g.active_entity() == "L1" and s.corps["L1"].placed == [("J38", 0)]
    assert TITLE.token_costs["L1"] == [0, 40]


def test_local_railway_runs_a_plus_train_and_splits_its_income() -> None:
    # 1854 §5.6: a 1+ train counts one large station and any small ones: Sankt Pölten (20) -
    # a town of J36 (10); §5.7: the Local Railway keeps half (15 G) and its owner A gets half
    g = after_first_round()
    s = g.state
    give_train(g, "L1", "1+")
    a = cash(g)[0]
    g.apply(LayTile("L1", "J36", "1", 0))  # mountain 50 G, 20 G less with A's Außerfernbahn
    assert s.corps["L1"].cash == 150 - 30
    while g.active_entity() == "L1" and not s.corps["L1"].revenue_history:
        g.apply(g.legal_actions()[0])
    assert s.corps["L1"].revenue_history == [30]
    assert s.corps["L1"].cash == 120 + 15 and cash(g)[0] == a + 15


def test_plus_trains_count_only_large_stations() -> None:
    # 1854 §5.6: plus trains "may include the stated number (1, 2, 3) of large stations and
    # an unlimited number of small ones"; n-trains count every station
    g = two_companies()
    rules = rules_for(g, "L1")
    town = Stop("J36", 0, NodeDef("town", 10))
    city = Stop("J38", 0, NodeDef("city", 20, 1))
    plus, two = TrainSpec("2+-0", "2+", 2), TrainSpec("2-0", "2", 2)
    assert [rules.stop_cost(plus, town), rules.stop_cost(plus, city)] == [0, 1]
    assert [rules.stop_cost(two, town), rules.stop_cost(two, city)] == [1, 1]


def test_local_railways_buy_only_plus_trains_and_never_must() -> None:
    # 1854 §5.9: the Local Railways use only plus trains (ruling L2: they buy only those);
    # they never have to own a train (missing-rules §2.6)
    g = after_first_round()
    s = g.state
    while g.active_entity() == "L1" and not any(isinstance(a, BuyTrain) for a in g.legal_actions()):
        g.apply(g.legal_actions()[-1])
    assert g.legal_actions() == [BuyTrain("L1", "1+-0", 80), Pass("L1")]
    rejected(g, BuyTrain("L1", "2-0", 100), "§5.9")
    s.phases_reached.append("3")
    tid = give_train(g, "KE", "2")
    rejected(g, BuyTrain("L1", tid, 1), "§3.1.2")


def test_customs_reduce_a_route_through_germany() -> None:
    # 1854 §5.6: a route through Germany (München's through track, ruling D5) earns 10 G
    # less; the customs sign does not count as a station (ruling T13): a 2-train runs
    # Salzburg (20) - customs - Kufstein (10) for 20 G
    g = two_companies()
    s = g.state
    s.map.release_reservation("SB")
    s.map.place_token("SD", "E13", 0)
    # Salzburg's tile leaves towards D14 and E15 only, not straight to Kufstein (E11)
    for coord, exits in (("E13", {3, 4}), ("D14", {0, 1}), ("E11", {0, 3})):
        lay_exactly(g, "SD", coord, exits)
    give_train(g, "SD", "2")
    (run,) = g.title.best_routes(g, "SD").runs
    assert sorted(h for h, _node in run.stops) == ["D12", "E11", "E13"]
    assert run.stops[1] == ("D12", 1) and run.revenue == 20 + 10 - 10
    assert TITLE.customs == {("D12", 1), ("E7", 0)}
    rules = rules_for(g, "SD")
    customs = Stop("D12", 1, s.map.tile("D12").nodes[1])
    salzburg = Stop("E13", 0, s.map.tile("E13").nodes[0])
    two = TrainSpec("2-0", "2", 2)
    assert rules.stop_cost(two, customs) == 0 and rules.stop_revenue(two, customs) == -10
    assert rules.check_run(two, "SD", [salzburg, customs]) is not None  # never an end


def lay_exactly(g: Game, corp: str, coord: str, exits: set[int]) -> None:
    """Put on `coord` the first tile `corp` may lay there with exactly `exits`."""
    s = g.state
    for t in legal_tile_lays(s.map, corp, rules_for(g, corp), hexes=[coord]):
        if s.map.catalogue[t.tile].exits(t.rotation) == exits:
            s.map.lay_tile(coord, t.tile, t.rotation)
            return
    raise AssertionError(f"no tile for {coord}")


def test_track_may_end_at_a_grey_tunnel_space() -> None:
    # 1854 §5.3: "Only tunnels may be built on the grey spaces"; "Track may also end at a
    # gray hex, because the line could be continued through the grey hex by means of a
    # tunnel" (rulings D2, T14): Salzburg's tile may point at F12
    g = two_companies()
    s = g.state
    s.map.release_reservation("SB")
    s.map.place_token("SD", "E13", 0)
    lays = legal_tile_lays(s.map, "SD", rules_for(g, "SD"), hexes=["E13"])
    assert any(0 in s.map.catalogue[t.tile].exits(t.rotation) for t in lays)
    err = rules_for(g, "SD").check_hex(s.map, "SD", "F12")
    assert err is not None and "§5.3" in err.rule


def sd_must_buy(sd_cash: int) -> tuple[Game, str]:
    """Phase 3: KE owns a 3-train; SD (`sd_cash` G, no train, a route through D22) is at its
    train step, B its Director with 402 G. Returns the game and KE's train."""
    g = two_companies()
    s = g.state
    s.phases_reached.append("3")
    three = give_train(g, "KE", "3")
    to_sd(g)
    lay(g, "SD", "D22", {3, 5})
    g.transfer("SD", "bank", s.corps["SD"].cash - sd_cash)
    g.transfer("bank", "B", 300)  # B: 402 G
    while not any(isinstance(a, BuyTrain) for a in g.legal_actions()):
        g.apply(g.legal_actions()[-1])
    return g, three


def test_emergency_purchase_from_another_company_at_most_face_value() -> None:
    # 1854 §5.9: in an emergency purchase the Director chooses freely among the trains on
    # offer, other companies' ones included, paying at most the face value
    g, three = sd_must_buy(0)
    s = g.state
    assert BuyTrain("SD", three, 200) in g.legal_actions()  # the 3-train's face value
    rejected(g, BuyTrain("SD", three, 201), "§5.9")
    b, ke = cash(g)[1], s.corps["KE"].cash
    buy_agreed(g, BuyTrain("SD", three, 150))
    assert s.corps["SD"].trains == [three] and s.corps["SD"].cash == 0
    assert cash(g)[1] == b - 150 and s.corps["KE"].cash == ke + 150


def test_the_orient_express_goes_on_to_paris_and_constantinople() -> None:
    # 1854 §5.6: the Orient Express may start from Paris or Constantinople, "the first two"
    # stations being Paris & Zürich or Constantinople & Budapest (ruling T5); within its
    # range of 8; no other train goes there
    g = two_companies()
    s = g.state
    rules = rules_for(g, "SD")
    zurich = Stop("E1", 0, s.map.tile("E1").nodes[0])
    budapest = Stop("D28", 0, s.map.tile("D28").nodes[0])
    city = [Stop(f"X{i}", 0, NodeDef("city", 20, 1)) for i in range(7)]
    oe, eight = TrainSpec("OE-0", "OE", 8), TrainSpec("8-0", "8", 8)
    assert rules.run_bonus(oe, "SD", [zurich, *city[:2]]) == 90  # Paris
    assert rules.run_bonus(eight, "SD", [zurich, *city[:2]]) == 0
    # Constantinople (F26) is worth 70 on the original board
    assert rules.run_bonus(oe, "SD", [zurich, *city[:2], budapest]) == 90 + 70
    assert rules.run_bonus(oe, "SD", [zurich, *city[:6], budapest]) == 0  # 8 stations
    # room for one: the more valuable, Paris
    assert rules.run_bonus(oe, "SD", [zurich, *city[:5], budapest]) == 90
    paris = Stop("D2", 0, s.map.tile("D2").nodes[0])
    assert rules.check_run(oe, "SD", [paris, zurich]) is not None


def sd_asks_for_c21() -> Game:
    """SD's track runs from Wien through D22 to Krems & Tulln (C21), KE's shielded hex; KE
    passes its turn and SD is laying track."""
    g = two_companies()
    while g.active_entity() == "KE":
        g.apply(Pass("KE"))
    assert g.active_entity() == "SD"
    s = g.state
    for t in legal_tile_lays(s.map, "SD", rules_for(g, "SD"), hexes=["D22"]):
        s.map.lay_tile("D22", t.tile, t.rotation)
        if 5 in reach(s.map, "SD").edges.get("C21", ()):
            return g  # SD's line now leads up to C21
        s.map.revert_hex("D22")
    raise AssertionError("no tile leads SD to C21")


def test_permission_is_asked_of_the_guards_director() -> None:
    # 1854 §5.3: "a yellow tile may only be placed on one of the three hexes adjacent to Wien
    # that are marked with a small shield if you have the permission of the appropriate
    # company" (ruling T2): SD (B) asks KE's Director (C), who refuses, then grants
    g = sd_asks_for_c21()
    s = g.state
    asks = [a for a in g.legal_actions() if isinstance(a, LayTile) and a.hex == "C21"]
    assert asks
    g.apply(asks[0])
    assert g.active_entity() == "KE" and g.title.controller(g, "KE") == "C"
    assert asked(g) == (
        f"SD asks to lay tile {asks[0].tile} on Krems & Tulln (C21), which KE guards: C, its "
        "Director, permits it or refuses (§5.3)"
    )
    assert g.legal_actions() == [Choose("KE", "grant"), Choose("KE", "refuse")]
    g.apply(Choose("KE", "refuse"))
    assert "C21" not in s.map.tiles and g.active_entity() == "SD"
    assert not [a for a in g.legal_actions() if isinstance(a, LayTile) and a.hex == "C21"]
    g2 = sd_asks_for_c21()
    cash = g2.state.corps["SD"].cash
    g2.apply(asks[0])
    g2.apply(Choose("KE", "grant"))
    assert g2.state.map.tiles["C21"] == (asks[0].tile, asks[0].rotation)
    assert g2.state.corps["SD"].cash == cash - 50  # C21's terrain
    assert not [a for a in g2.legal_actions() if isinstance(a, LayTile)]


def test_a_director_gives_permission_to_his_own_companies() -> None:
    # 1854 §5.3: a shielded hex needs "the permission of the appropriate company" (ruling T2):
    # SD's Director may let SD's sister company build on SD's shield (D22)
    g = two_companies()
    s = g.state
    assert rules_for(g, "KE").check_hex(s.map, "KE", "D22") is not None
    s.shares.president["SD"] = "C"  # C now directs SD and KE
    assert rules_for(g, "KE").check_hex(s.map, "KE", "D22") is None
