"""1883 operating rounds as far as they are built: dividends and market moves (§6.8.3
examples), issuing (§6.10 example), the train limit (§6.9.4 example), and random games played
to the end with the invariants checked after every action."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from rich.console import Console

from boards_1883 import CORPS as CORPS_1883
from boards_1883 import small_board as small_board_1883
from positions import asked
from test_1883_start import TITLE, game, sell_privates
from tresham.bots.random_bot import choose
from tresham.core.actions import (
    Choose,
    Dividend,
    IssueShares,
    LayTile,
    SellShares,
    action_from_json,
)
from tresham.core.game import Game
from tresham.core.rounds.operating import OperatingRound
from tresham.core.shares import POOL, treasury
from tresham.io.save import from_save
from tresham.routes.network import Network, network_of
from tresham.sim import check_invariants
from tresham.terminal import Terminal
from tresham.titles.t1883 import concessions
from tresham.titles.t1883.operating import STEP_OBJECTS, STEPS
from tresham.titles.t1883.state import ConcessionStatus, state_of
from tresham.titles.t1883.versions import DEALS_VERSION, PRUNED_SEARCH_VERSION


def floated(sym: str, pos: tuple[int, int], president: str = "A") -> Game:
    """After the auction, `sym` floated with its token at `pos` of the market."""
    g = game()
    sell_privates(g)
    float_also(g, sym, pos, president)
    return g


def float_also(g: Game, sym: str, pos: tuple[int, int], president: str) -> None:
    """`sym` floated too, with its token at `pos` and `president`'s certificate."""
    s = g.state
    s.market.place(sym, pos)
    s.corps[sym].parred = s.corps[sym].floated = True
    s.corps[sym].par_price = s.market.price(sym)
    s.shares.move(f"{sym}_0", president)
    s.shares.president[sym] = president


def turn_at(g: Game, corp: str, step: str) -> OperatingRound:
    rnd = OperatingRound(g, [corp], list(STEPS), "test")
    rnd.step = STEPS.index(step)
    g.state.round = rnd
    return rnd


# 1883 §6.8.3 EXAMPLE: 40% A, 20% B, 10% C, 20% pool, 10% initial offering; a payout of L.130
# gives A 52, B 26, C 13, the treasury 26, and L.13 stays in the bank
def test_payout_example() -> None:
    g = floated("SAFRE", (2, 11))  # L.140: the payout is below the price, no move
    s = g.state
    for cid, holder in (
        ("SAFRE_1", "A"),
        ("SAFRE_2", "A"),
        ("SAFRE_3", "B"),
        ("SAFRE_4", "B"),
        ("SAFRE_5", "C"),
        ("SAFRE_6", POOL),
        ("SAFRE_7", POOL),
    ):
        s.shares.move(cid, holder)
    assert s.shares.percent(treasury("SAFRE"), "SAFRE") == 10
    rnd = turn_at(g, "SAFRE", "dividend")
    rnd.turn.revenue = 130
    cash = {p: g.player(p).cash for p in "ABC"}
    bank = s.bank.cash
    STEP_OBJECTS["dividend"].process(g, rnd, "SAFRE", Dividend("SAFRE", "payout"))
    assert [g.player(p).cash - cash[p] for p in "ABC"] == [52, 26, 13]
    assert s.corps["SAFRE"].cash == 26
    assert bank - s.bank.cash == 52 + 26 + 13 + 26
    assert s.market.price("SAFRE") == 140


# 1883 §6.8.3 EXAMPLE: FMMSF withholds L.100 and goes back from 85 to 80; SAFRE pays out 70
# at a price of 70 and advances to 75; SV pays out 60 at 65 and stays
@pytest.mark.parametrize(
    ("sym", "pos", "revenue", "kind", "after"),
    [
        ("FSMMF", (2, 6), 100, "withhold", 80),
        ("SAFRE", (2, 3), 70, "payout", 75),
        ("SV", (2, 2), 60, "payout", 65),
    ],
)
def test_market_moves_example(
    sym: str, pos: tuple[int, int], revenue: int, kind: str, after: int
) -> None:
    g = floated(sym, pos)
    rnd = turn_at(g, sym, "dividend")
    rnd.turn.revenue = revenue
    STEP_OBJECTS["dividend"].process(g, rnd, sym, Dividend(sym, kind))
    assert g.state.market.price(sym) == after


# 1883 §6.10 EXAMPLE: SAFRE issues 3 at 85 and receives 3 x 70 = 210; FSMMF issues 1 at 90
# and receives 85; SV issues 3 at the bottom of its column and receives 3 x 90 = 270
@pytest.mark.parametrize(
    ("sym", "pos", "count", "value"),
    [("SAFRE", (2, 6), 3, 210), ("FSMMF", (3, 8), 1, 85), ("SV", (4, 9), 3, 270)],
)
def test_issue_example(sym: str, pos: tuple[int, int], count: int, value: int) -> None:
    g = floated(sym, pos)
    s = g.state
    rnd = turn_at(g, sym, "issue")
    cash = s.corps[sym].cash
    step = STEP_OBJECTS["issue"]
    assert IssueShares(sym, 10 * count) in step.actions(g, rnd, sym)
    step.process(g, rnd, sym, IssueShares(sym, 10 * count))
    assert s.corps[sym].cash - cash == value
    assert s.shares.percent(POOL, sym) == 10 * count


# 1883 §6.9.4 EXAMPLE: FSF owns two 4T and buys the first 5T; the limit drops to two and it
# puts one train (of its choice) in the pool
def test_train_limit_example() -> None:
    g = floated("FBV", (2, 9), president="C")
    s = g.state
    for t in [t for t in s.depot.order if t.startswith(("2-", "3-", "3bis-"))]:
        s.depot.trains[t].owner = "scrapped"
    fsf = s.corps["FSF"]
    for tid in ("4-0", "4-1"):
        s.depot.trains[tid].owner = "FSF"
        fsf.trains.append(tid)
    TITLE.on_train_bought(g, "4")
    for tid in ("4-2", "4-3"):
        s.depot.trains[tid].owner = "scrapped"
    fsf.cash = 600
    rnd = turn_at(g, "FSF", "trains")
    from tresham.core.actions import BuyTrain, DiscardTrain

    assert BuyTrain("FSF", "5-0", 500) in STEP_OBJECTS["trains"].actions(g, rnd, "FSF")
    g.state.round = rnd
    g.apply(BuyTrain("FSF", "5-0", 500))
    assert g.phase.name == "5"
    assert g.active_entity() == "FSF" and g.state.pending == [("discard", "FSF")]
    g.apply(DiscardTrain("FSF", "4-0"))
    assert fsf.trains == ["4-1", "5-0"]
    assert s.depot.trains["4-0"].owner == POOL
    assert all(c.closed for c in s.companies.values())  # §3.4: the first 5T closes them


# 1883 as built so far, played at random to the end by 2, 3 and 4 players, with the
# invariants (cash, 100% of every corporation, limits) checked after every action
@pytest.mark.parametrize("seed", range(6))
def test_random_games_finish(seed: int) -> None:
    n = 2 + seed % 3
    g = Game(TITLE, [f"P{i}" for i in range(n)], seed)
    rng = random.Random(seed)
    total = 11_000
    for _ in range(20_000):
        if g.state.finished:
            break
        g.apply(choose(g, rng))
        assert check_invariants(g, total) == []
    assert g.state.finished
    assert g.state.end_reason in ("bank", "bankrupt", "stock_market", "no_play")


def lay_track(g: Game, coord: str, exits: set[int]) -> None:
    """Lay (without the lay rules) the yellow tile of the 1883 manifest with the fewest exits
    that has `exits` and keeps the hex's printed track and kind of stop."""
    s = g.state
    old = s.map.tile(coord)
    kinds = sorted(n.kind for n in old.nodes)
    need = exits | set(s.map.exits(coord))
    best = None
    for tid in TITLE.data["tiles"]:
        tile = s.map.catalogue.get(tid)
        if tile is None or tile.color != "yellow" or tile.labels != old.labels:
            continue
        if sorted(n.kind for n in tile.nodes) != kinds:
            continue
        for rot in range(6):
            have = {e for e in range(6) if tile.exit_mask(rot) >> e & 1}
            if need <= have and (best is None or len(have) < best[2]):
                best = (tid, rot, len(have))
    assert best is not None, coord
    s.map.lay_tile(coord, best[0], best[1], check=False)


def casalecchio_to_vignola(g: Game) -> None:
    """Track Casalecchio (R10) - Zola (Q9) - Bazzano (R8) - Vignola (S7)."""
    lay_track(g, "R10", {2})
    lay_track(g, "Q9", {5, 1})
    lay_track(g, "R8", {4, 1})
    lay_track(g, "S7", {4})


# 1883 §5.6.1: once a route from one of the owner's stations joins the concession's places
# in order, the owner receives the bonus of the phase (App. 3: concession 1, L.100 in phase 2)
def concession_one_joined() -> Game:
    """FBV owns concession 1 and its track from Casalecchio reaches Vignola."""
    g = floated("FBV", (2, 8))
    s = g.state
    s.map.place_token("FBV", "R10", 0)
    s.corps["FBV"].placed.append(("R10", 0))
    concession = state_of(g).concessions.status["1"]
    concession.owner, concession.due = "FBV", 2
    casalecchio_to_vignola(g)
    return g


def test_concession_fulfilled() -> None:
    g = concession_one_joined()
    s = g.state
    cash = s.corps["FBV"].cash
    pres = s.shares.president["FBV"]
    state_of(g).support.held[pres] = 0  # no card to play: the bonus goes to the treasury at once
    concessions.after_lay(g, "FBV")
    assert s.corps["FBV"].cash == cash + 100
    assert state_of(g).concessions.status["1"].removed
    assert state_of(g).concessions.fulfilled == 1


# 1883 §5.6.1: the president may play a Political Support card to pay the bonus to the
# stockholders as a dividend; shares in the initial offering and the pool pay the treasury
def test_concession_bonus_as_dividend() -> None:
    g = concession_one_joined()
    s = g.state
    pres = s.shares.president["FBV"]
    held = s.shares.percent(pres, "FBV")
    cards = state_of(g).support.held[pres]
    treasury_cash, pres_cash = s.corps["FBV"].cash, g.player(pres).cash
    concessions.after_lay(g, "FBV")
    assert s.pending[0] == ("concession_bonus", "FBV")
    assert (
        asked(g)
        == f"FBV fulfilled a concession: {pres} puts its L.100 bonus in the treasury, or pays "
        "it as a dividend with a Political Support card (5.6.1)"
    )
    assert g.acting_player() == pres
    g.apply(Choose("FBV", "dividend"))
    assert g.player(pres).cash == pres_cash + 100 * held // 100
    assert s.corps["FBV"].cash == treasury_cash + 100 - 100 * held // 100
    assert state_of(g).support.held[pres] == cards - 1


TWO_AT_ONCE = Path(__file__).parent / "data" / "positions" / "1883-two-concessions-one-lay.json"


def two_bonuses() -> Game:
    """A random game's position (found by `make soak`): FMV's green tile in Modena (L6)
    fulfils both its concessions 7 (L.150) and 8 (L.250) in phase 4; its president P1 holds
    8 Political Support cards."""
    g = from_save(json.loads(TWO_AT_ONCE.read_text()))
    s = g.state
    assert s.pending[0] == ("concession_bonus", "FMV")
    assert state_of(g).concessions.bonus_waiting == {"FMV": [150, 250]}
    assert s.shares.president["FMV"] == "P1" and state_of(g).support.held["P1"] == 8
    return g


# 1883 §5.6.1 and ruling R30: two concessions fulfilled by one lay pay two bonuses, each
# decided on its own, in the order of the table: a card for one, the treasury for the other
def test_two_concessions_fulfilled_by_one_lay_are_decided_in_turn() -> None:
    g = two_bonuses()
    s = g.state
    p1_cash, treasury_cash = g.player("P1").cash, s.corps["FMV"].cash
    held = s.shares.percent("P1", "FMV")
    to_players = sum(150 * s.shares.percent(p.name, "FMV") // 100 for p in s.players)
    g.apply(Choose("FMV", "dividend"))
    assert g.player("P1").cash == p1_cash + 150 * held // 100
    assert state_of(g).support.held["P1"] == 7
    assert s.pending[0] == ("concession_bonus", "FMV")
    assert g.legal_actions() == [Choose("FMV", "treasury"), Choose("FMV", "dividend")]
    treasury_after_first = s.corps["FMV"].cash
    assert treasury_after_first - treasury_cash == 150 - to_players
    g.apply(Choose("FMV", "treasury"))
    assert s.corps["FMV"].cash == treasury_after_first + 250
    assert not state_of(g).concessions.bonus_waiting
    assert ("concession_bonus", "FMV") not in s.pending
    assert check_invariants(g, 11_000) == []


# 1883 §5.6.1 and ruling R30: with the last card played on the first bonus, the second goes
# to the treasury at once (no card, no choice)
def test_the_second_bonus_goes_to_the_treasury_when_no_card_is_left() -> None:
    g = two_bonuses()
    s = g.state
    state_of(g).support.supply += state_of(g).support.held["P1"] - 1
    state_of(g).support.held["P1"] = 1
    treasury_cash = s.corps["FMV"].cash
    to_players = sum(150 * s.shares.percent(p.name, "FMV") // 100 for p in s.players)
    g.apply(Choose("FMV", "dividend"))
    assert state_of(g).support.held["P1"] == 0
    assert s.corps["FMV"].cash == treasury_cash + 150 - to_players + 250
    assert ("concession_bonus", "FMV") not in s.pending
    assert check_invariants(g, 11_000) == []


JOINED = Path(__file__).parent / "data" / "positions" / "1883-concession-3-joined.json"


# 1883 §5.6.1 and ruling R7: a concession's places are joined as soon as a route through them
# in order exists. In this random game's position, SEFTA's green tile in M1 joins the unowned
# concession 3 (I3, M1, P2, Q1), which then leaves play (ruling R6). An exhaustive search
# (from every stop, no step bound) finds the route, and so does rules version 2's search from
# the first place; version 1's bounded search from every stop ran out of steps, and its saves
# still replay so.
def test_a_route_through_the_places_is_found_when_it_exists(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = json.loads(JOINED.read_text())
    lay = action_from_json(data["actions"][-1])
    assert lay == LayTile("SEFTA", "M1", "EN-green", 5)
    version_2 = from_save({**data, "rules_version": 2})
    assert state_of(version_2).concessions.status["3"].removed
    version_1 = from_save({**data, "actions": data["actions"][:-1], "rules_version": 1})
    exhaustive = version_1.clone()
    version_1.apply(lay)
    assert not state_of(version_1).concessions.status["3"].removed
    monkeypatch.setattr(concessions, "MAX_STEPS", 10**9)
    exhaustive.apply(lay)
    assert state_of(exhaustive).concessions.status["3"].removed
    assert exhaustive.state_hash() != version_1.state_hash()


# 1883 §5.6.1, ruling R7: from rules version 4 the search is pruned; a save of version 3
# replays with the search it was played by, and both find the route of concession 1
def test_saves_replay_with_the_search_of_their_rules_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pruned: list[bool] = []
    search = concessions._search

    def spy(
        net: Network, targets: list[set[int]], station: bool, starts: Iterable[int], prune: bool
    ) -> bool:
        pruned.append(prune)
        return search(net, targets, station, starts, prune)

    monkeypatch.setattr(concessions, "_search", spy)
    for version, prune in ((DEALS_VERSION, False), (PRUNED_SEARCH_VERSION, True)):
        pruned.clear()
        g = concession_one_joined()
        g.rules_version = version
        concessions.after_lay(g, "FBV")
        assert pruned and set(pruned) == {prune}
        assert state_of(g).concessions.status["1"].removed


# 1883 §5.6.1, ruling R7: a route through the places in order, with a station anywhere on it,
# exists exactly when the search from the first place of one of the two orders finds one, with
# or without pruning the steps from which a place still to pass is out of reach; checked
# against the search from every stop without a step bound, on generated boards
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    lays=st.integers(2, 18),
    corp=st.sampled_from(CORPS_1883),
    picks=st.lists(st.integers(0, 1000), min_size=2, max_size=4),
    station=st.booleans(),
)
def test_the_search_from_the_first_place_is_exact(
    seed: int, lays: int, corp: str, picks: list[int], station: bool
) -> None:
    net = network_of(small_board_1883(seed, lays, "5", corp), corp)
    hexes = sorted({h for h, _n in net.stops})
    assume(len(hexes) >= 2)
    places = list(dict.fromkeys(hexes[p % len(hexes)] for p in picks))

    def found(anchored: bool, prune: bool = False) -> bool:
        for ordered in (places, places[::-1]):
            targets = [{i for i, (h, _n) in enumerate(net.stops) if h == p} for p in ordered]
            starts = sorted(targets[0]) if anchored else range(len(net.stops))
            if concessions._search(net, targets, station, starts, prune):
                return True
        return False

    bound = concessions.MAX_STEPS
    concessions.MAX_STEPS = 10**9
    try:
        exhaustive = found(anchored=False)
        assert found(anchored=True) == exhaustive
        assert found(anchored=True, prune=True) == exhaustive
    finally:
        concessions.MAX_STEPS = bound


# 1883 §5.6.1: no station of the owner on the route, no bonus; an unowned concession joined
# by track leaves play (ruling R6)
def test_concession_needs_a_station_and_unowned_ones_leave() -> None:
    g = floated("FBV", (2, 8))
    s = g.state
    s.map.place_token("FMV", "S7", 0)  # the track belongs to FMV's network, not FBV's
    concession = state_of(g).concessions.status["1"]
    concession.owner, concession.due = "FBV", 2
    casalecchio_to_vignola(g)
    concessions.after_lay(g, "FBV")
    assert concession.owner == "FBV"
    concession.owner, concession.due = None, None
    concessions.after_lay(g, "FMV")
    assert concession.removed


# 1883 §6.12: the deadline moves down at the end of each OR; when it runs out the concession
# goes back to the pool and its owner pays twice its cost
def test_concession_deadline_and_penalty() -> None:
    g = floated("FBV", (2, 8))
    s = g.state
    s.corps["FBV"].cash = 100
    concession = state_of(g).concessions.status["1"]
    concession.owner, concession.due = "FBV", 2
    # the holder's row in the table and the terminal says what it must do, by when, or pay
    assert g.title.corporation_holds(g, "FBV") == [
        "Government Concession 1: join Casalecchio \N{EN DASH} Bazzano \N{EN DASH} Vignola "
        "within 2 operating rounds, or pay L.30"
    ]
    assert all(g.title.corporation_holds(g, c) == [] for c in s.corps if c != "FBV")
    concessions.end_of_operating_round(g)
    assert state_of(g).concessions.status["1"].due == 1 and s.corps["FBV"].cash == 100
    assert s.events[-1] == (  # the warning, an operating round before the penalty
        "FBV has one operating round left to join Casalecchio - Bazzano - Vignola "
        "(Government Concession 1), or pays L.30"
    )
    assert not isinstance(s.round, OperatingRound)
    warned = (
        "\N{WARNING SIGN} Government Concession 1: {} operating round is the last to join "
        "Casalecchio \N{EN DASH} Bazzano \N{EN DASH} Vignola; if not, FBV pays L.30 at its end"
    )
    assert g.title.corporation_holds(g, "FBV") == [warned.format("the next")]
    s.round = OperatingRound(g, ["FBV"], list(STEPS), "test")
    assert g.title.corporation_holds(g, "FBV") == [warned.format("this")]
    screen = io.StringIO()  # the terminal prints it under the corporations
    Terminal(g, Console(file=screen, width=300)).show()
    assert f"FBV: {warned.format('this')}" in screen.getvalue()
    concessions.end_of_operating_round(g)
    assert state_of(g).concessions.status["1"] == ConcessionStatus()
    assert s.corps["FBV"].cash == 100 - 2 * 15


# 1883 §6.12 with §6.9.6 (ruling R8): a treasury short of the penalty pays what it has; the
# president adds the rest, selling shares (never giving up the presidency) when short, and
# goes bankrupt only when even the sales fall short
def test_concession_penalty_raised_by_sales() -> None:
    g = floated("FBV", (2, 8))
    s = g.state
    s.market.place("SV", (2, 5))
    s.corps["SV"].parred = s.corps["SV"].floated = True
    s.shares.move("SV_0", "B")
    s.shares.president["SV"] = "B"
    s.shares.move("SV_1", "A")
    s.corps["FBV"].cash = 10
    g.player("A").cash = 5
    concession = state_of(g).concessions.status["1"]
    concession.owner, concession.due = "FBV", 1
    bank = s.bank.cash
    concessions.end_of_operating_round(g)
    assert s.corps["FBV"].cash == 0 and s.pending == [("event_raise", "A")]
    sales = g.legal_actions()
    assert SellShares("A", "SV", 10, False) in sales
    fbv = {a.percent for a in sales if isinstance(a, SellShares) and a.corporation == "FBV"}
    assert fbv == {10}  # A keeps the 20% president's certificate
    price = s.market.price("SV")
    g.apply(SellShares("A", "SV", 10, False))
    assert not s.pending
    assert g.player("A").cash == 5 + price - 20
    assert s.bank.cash == bank + 30 - price
