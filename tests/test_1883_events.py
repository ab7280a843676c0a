"""1883 Random Events and Political Support plays (§6.2, §7, §11, §12.2, §12.3); each test
names its paragraph and card, and uses the rulebook's numbers where it gives them."""

from __future__ import annotations

import pytest

from positions import asked, give_train
from test_1883_operating import floated, turn_at
from test_1883_start import game, rejected
from tresham.core.actions import Bankrupt, Choose, DiscardTrain, LayTile, SellShares
from tresham.core.game import Game
from tresham.core.shares import POOL
from tresham.sim import check_invariants
from tresham.titles.t1883 import air_raids, events
from tresham.titles.t1883.actions import BuySupport
from tresham.titles.t1883.operating import STEP_OBJECTS, rules_for
from tresham.titles.t1883.state import state_of


def draw(g: Game, number: int) -> None:
    """Draw card `number` at the start of a later OR (6.2)."""
    s = g.state
    s.operating_round_no = max(s.operating_round_no, 1) + 1
    state_of(g).events.deck = [number]
    events.begin_operating_round(g)


def total_cash(g: Game) -> int:
    s = g.state
    return (
        s.bank.cash
        + g.title.cash_aside(g)
        + sum(p.cash for p in s.players)
        + sum(c.cash for c in s.corps.values())
    )


# 1883 §11: 31 cards; 1-12 the First Era, 13-23 the Second, 24-31 the Third; §2.3 d) the
# game starts with the First Era cards shuffled
def test_the_deck() -> None:
    g = game()
    every = events.cards(g)
    assert sorted(every) == list(range(1, 32))
    eras = {e: sorted(n for n, c in every.items() if c["eras"][0] == e) for e in (1, 2, 3)}
    assert eras == {1: list(range(1, 13)), 2: list(range(13, 24)), 3: list(range(24, 32))}
    deck = state_of(g).events.deck
    assert sorted(deck) == eras[1] and deck != eras[1]


# 1883 §7.1: the first 3bisT forms the Second Era deck: the unused cards marked "2" and the
# cards 13-23, shuffled; the first 6T the Third Era deck likewise
def test_era_decks() -> None:
    g = game()
    every = events.cards(g)
    state_of(g).events.deck = [1, 2, 10, 12]  # 1 and 10 lack the "2"
    events.on_first_purchase(g, "3bis")
    assert sorted(state_of(g).events.deck) == [2, 12, *range(13, 24)]
    events.on_first_purchase(g, "6")
    kept = [n for n in [2, 12, *range(13, 24)] if 3 in every[n]["eras"]]
    assert 12 not in kept and 2 in kept
    assert sorted(state_of(g).events.deck) == sorted(kept + list(range(24, 32)))


# 1883 §6.2: no card in the very first OR; §7.1: an empty deck draws nothing
def test_no_card_in_the_first_or_nor_from_an_empty_deck() -> None:
    g = game()
    s = g.state
    s.operating_round_no = 1
    events.begin_operating_round(g)
    assert events.events_drawn(g) == 0 and len(state_of(g).events.deck) == 12
    s.operating_round_no = 2
    state_of(g).events.deck = []
    events.begin_operating_round(g)
    assert events.events_drawn(g) == 0


# 1883 §11.1 #1 First World War: every player pays L.10; one who cannot raises it by selling
# as in 6.9.6, and goes bankrupt when even that falls short
def test_first_world_war() -> None:
    g = floated("FBV", (2, 8), president="A")
    s = g.state
    s.shares.move("FBV_1", "B")
    g.player("B").cash = 4
    g.player("C").cash = 3
    cash = {p.name: p.cash for p in s.players}
    draw(g, 1)
    assert g.player("A").cash == cash["A"] - 10 and g.player("D").cash == cash["D"] - 10
    assert ("event_raise", "B") in s.pending and ("event_raise", "C") in s.pending
    while s.pending[0][1] != "B":
        s.pending.append(s.pending.pop(0))
    assert (
        asked(g) == "B owes the bank L.10 for a Random Event and has L.4: B sells shares to raise "
        "the rest (6.9.6)"
    )
    assert g.legal_actions() == [SellShares("B", "FBV", 10, False)]
    price = s.market.price("FBV")
    g.apply(SellShares("B", "FBV", 10, False))
    assert g.player("B").cash == 4 + price - 10
    assert s.shares.percent(POOL, "FBV") == 10
    assert ("event_raise", "B") not in s.pending
    assert g.legal_actions() == [Bankrupt("C")]
    g.apply(Bankrupt("C"))
    assert g.player("C").bankrupt and g.player("C").cash == 0


# 1883 §11.1 #2 Flooding: no tile on an "F" hex this OR (a typed error, nothing changes)
def test_flooding_closes_f_hexes() -> None:
    g = floated("SV", (2, 8))
    s = g.state
    draw(g, 2)
    f_hex = s.map.board.extra["flood_hexes"][0]
    turn_at(g, "SV", "track")
    assert f_hex in events.closed_hexes(g)
    err = rules_for(g, "SV").check_hex(s.map, "SV", f_hex)
    assert err is not None and "§11 #2" in err.rule
    lays = [a for a in g.legal_actions() if isinstance(a, LayTile)]
    assert all(a.hex not in events.closed_hexes(g) for a in lays)


# 1883 §11.1 #5 Landslide: no tile on hill or mountain hexes this OR
def test_landslide_closes_hills_and_mountains() -> None:
    g = floated("SV", (2, 8))
    draw(g, 5)
    extra = g.state.map.board.extra
    assert set(events.closed_hexes(g)) == set(extra["hills"]) | set(extra["mountains"])


# 1883 §11.1 #3-4 General Strike: a president without a card: no revenue (the zero revenue
# moves the price left, 6.8.3); with a card, the president may play it (back to the supply)
def test_general_strike() -> None:
    g = floated("FBV", (2, 8), president="A")
    s = g.state
    s.market.place("SV", (2, 5))
    s.corps["SV"].parred = s.corps["SV"].floated = True
    s.shares.move("SV_0", "B")
    s.shares.president["SV"] = "B"
    state_of(g).support.held["B"] = 0
    supply = state_of(g).support.supply
    draw(g, 3)
    assert events.adjust_revenue(g, "SV", 130) == 0
    assert s.pending == [("event_support", "FBV")]
    assert (
        asked(g) == "A Random Event: FBV earns nothing this operating round unless A plays a "
        "Political Support card (7.0)"
    )
    assert g.acting_player() == "A"
    g.apply(Choose("FBV", "play_support"))
    assert state_of(g).support.held["A"] == 0 and state_of(g).support.supply == supply + 1
    assert events.adjust_revenue(g, "FBV", 130) == 130
    assert "CCFR" not in state_of(g).events.effects.revenue  # the Co-operative is spared


# 1883 §11.1 #11 Strike Breaker: a General Strike in the next OR has no effect
def test_strike_breaker() -> None:
    g = floated("FBV", (2, 8))
    state_of(g).support.held["A"] = 0
    draw(g, 11)
    draw(g, 4)
    assert events.adjust_revenue(g, "FBV", 100) == 100
    draw(g, 3)  # two ORs later: it strikes
    assert events.adjust_revenue(g, "FBV", 100) == 0


# 1883 §11.1 #7-9 Railway Strike: L.130 halved is L.60 (the card's example); SARSA and the
# Co-operative are spared
def test_railway_strike_example() -> None:
    g = floated("FBV", (2, 8))
    state_of(g).support.held["A"] = 0
    draw(g, 7)
    assert events.adjust_revenue(g, "FBV", 130) == 60
    assert events.adjust_revenue(g, "CCFR", 130) == 130


# 1883 §11.2 #22 Trains Are on Time: L.130 grows by L.70 to L.200 (the card's example); the
# Co-operative too
def test_trains_on_time_example() -> None:
    g = floated("FBV", (2, 8))
    draw(g, 22)
    assert events.adjust_revenue(g, "FBV", 130) == 200
    assert events.adjust_revenue(g, "CCFR", 130) == 200


# 1883 §11.2 #14 Autarchy: every corporation, the Co-operative included, earns half unless a
# card is played for it; the revenue step applies it after the 2GT
def test_autarchy_through_the_turn() -> None:
    g = floated("FBV", (2, 8))
    s = g.state
    state_of(g).support.held["A"] = 0
    s.shares.president["CCFR"] = "B"
    state_of(g).support.held["B"] = 0
    draw(g, 14)
    rnd = turn_at(g, "FBV", "events")
    rnd.turn.revenue = 130
    STEP_OBJECTS["events"].skip(g, rnd, "FBV")
    assert rnd.turn.revenue == 60
    assert events.adjust_revenue(g, "CCFR", 50) == 20


# 1883 §11.1 #6 Railroad Accident: the corporation that operated last OR with the highest
# price; ties: more trains (2GT aside), then more cash, then all
def test_railroad_accident() -> None:
    g = floated("FBV", (2, 8))
    s = g.state
    s.market.place("SV", (2, 8))
    s.corps["SV"].parred = s.corps["SV"].floated = True
    give_train(g, "FBV", "2")
    give_train(g, "SV", "2")
    give_train(g, "SV", "2G")
    s.corps["FBV"].cash, s.corps["SV"].cash = 50, 40
    events.end_of_operating_round(g, ["FBV", "SV", "CCFR"])
    price = s.market.price("FBV")
    draw(g, 6)
    assert s.market.price("FBV") < price and s.market.price("SV") == price


# 1883 §11.1 #12 The King's Visit: Bologna pays L.10 less this OR
def test_kings_visit() -> None:
    g = floated("FBV", (2, 8))
    draw(g, 12)
    coord = g.state.map.board.extra["offboards"]["Bologna/Firenze"]["hex"]
    assert events.offboard_bonus(g) == {coord: -10}
    assert rules_for(g, "FBV").stop_bonus == {coord: -10}
    events.begin_operating_round(g)  # the next OR: gone
    assert events.offboard_bonus(g) == {}


# 1883 §11.2 #15 Empire Declared; #19, #20, #27 lose a card; §5.5 at most nine
def test_cards_gained_and_lost() -> None:
    g = game()
    state_of(g).support.held.update(A=9, B=0, C=1, D=2)
    draw(g, 15)
    assert state_of(g).support.held == {"A": 9, "B": 1, "C": 2, "D": 3}
    draw(g, 19)
    assert state_of(g).support.held == {"A": 8, "B": 0, "C": 1, "D": 2}


# 1883 §11.2 #17 Gold for the Homeland: 10% of the money, rounded up, or three cards
def test_gold_for_the_homeland() -> None:
    g = game()
    s = g.state
    state_of(g).support.held.update(A=3, B=2, C=0, D=0)
    g.player("B").cash = 401
    draw(g, 17)
    assert g.player("B").cash == 401 - 41
    assert s.pending == [("event_support", "A")]
    g.apply(Choose("A", "play_support"))
    assert state_of(g).support.held["A"] == 0 and g.player("A").cash == 400


# 1883 §11.2 #16 German Occupation: the first available train leaves play, as a purchase
# for the phase (the first 3T removed starts phase 3)
def test_german_occupation() -> None:
    g = game()
    s = g.state
    for t in s.depot.in_bank():
        if t.kind == "2":
            t.owner = "scrapped"
    draw(g, 16)
    assert g.phase.name == "3"
    assert s.depot.trains["3-0"].owner == "scrapped"


# 1883 §11.2 #18, §11.3 #31 and #30: L.500 put aside each; the Tax Shield returns only L.500
def test_money_set_aside_and_returned() -> None:
    g = game()
    s = g.state
    total = total_cash(g)
    bank = s.bank.cash
    draw(g, 18)
    draw(g, 31)
    assert s.bank.cash == bank - 1000 and total_cash(g) == total
    draw(g, 30)
    assert s.bank.cash == bank - 500 and total_cash(g) == total
    assert check_invariants(g, total) == []


# 1883 §11.2 #23 War Effort: the corporation with the most trains loses its dearest, paid
# half its price; playing a card lets it choose (never a 2GT)
def test_war_effort() -> None:
    g = floated("FBV", (2, 8))
    s = g.state
    two = give_train(g, "FBV", "2")
    three = give_train(g, "FBV", "3")
    give_train(g, "FBV", "2G")
    cash = s.corps["FBV"].cash
    draw(g, 23)
    assert s.pending == [("event_support", "FBV")]
    g.apply(Choose("FBV", "play_support"))
    assert s.pending == [("war_effort_train", "FBV")]
    assert (
        asked(g) == "The War Effort takes a train of FBV: A played Political Support and chooses "
        "which (never a gravity train), half its price paid back (§11.2 #23)"
    )
    assert DiscardTrain("FBV", three) in g.legal_actions()
    assert all(s.depot.trains[a.train].kind != "2G" for a in g.legal_actions())
    g.apply(DiscardTrain("FBV", two))
    assert two not in s.corps["FBV"].trains and three in s.corps["FBV"].trains
    assert s.corps["FBV"].cash == cash + 50


# 1883 §11.3 #26 Hot Autumn: no revenue without a card, every OR until the next SR, and the
# strike cards drawn meanwhile are absorbed
def test_hot_autumn() -> None:
    g = floated("FBV", (2, 8))
    state_of(g).support.held["A"] = 0
    draw(g, 26)
    assert events.adjust_revenue(g, "FBV", 100) == 0
    draw(g, 24)  # the Bus Strike: absorbed; Hot Autumn strikes again
    assert events.adjust_revenue(g, "FBV", 100) == 0
    assert state_of(g).events.effects.revenue["FBV"] == ["zero"]
    events.begin_stock_round(g)
    draw(g, 2)
    assert events.adjust_revenue(g, "FBV", 100) == 100


# 1883 §11.3 #28 Magnacucchi: the card holders roll; the highest loses one
def test_magnacucchi() -> None:
    g = game()
    state_of(g).support.held.update(A=2, B=0, C=1, D=0)
    draw(g, 28)
    assert sorted(state_of(g).support.held.values()) in ([0, 0, 1, 1], [0, 0, 0, 2])
    assert state_of(g).support.held["B"] == state_of(g).support.held["D"] == 0


# 1883 §11.3 #29 Marshall Plan: the lowest corporation may play a card to move right
def test_marshall_plan() -> None:
    g = floated("FBV", (2, 8))
    s = g.state
    s.market.place("SV", (2, 3))
    s.corps["SV"].parred = s.corps["SV"].floated = True
    s.shares.move("SV_0", "B")
    s.shares.president["SV"] = "B"
    price = s.market.price("SV")
    draw(g, 29)
    assert s.pending == [("event_support", "SV")]
    g.apply(Choose("SV", "play_support"))
    assert s.market.price("SV") > price


# 1883 §11.2 #13 Air Raids: a yellow tile is removed, a green one downgraded to a yellow the
# roller chooses; tokens stay
def test_air_raid_downgrades() -> None:
    g = floated("FBV", (2, 8))
    m = g.state.map
    coord = next(
        c for c, h in m.board.hexes.items()
        if h.color == "white" and not h.tile.nodes and not h.terrain_cost
    )  # fmt: skip
    supply = m.supply["8"]
    m.tiles[coord] = ("8", 0)
    m.supply["8"] -= 1
    assert air_raids.choices(g, coord) == ["printed"]
    air_raids.apply(g, coord, "printed")
    assert coord not in m.tiles and m.supply["8"] == supply
    green = "24"  # upgrades tile 8 or 9 (Appendix 4)
    m.tiles[coord] = (green, 0)
    options = air_raids.choices(g, coord)
    assert options and all(m.catalogue[o.split("@")[0]].color == "yellow" for o in options)
    air_raids.queue(g, "B", coord)
    air_raids.settle(g)
    assert len(options) > 1 and g.state.pending == [("air_raid", "B")]
    assert asked(g) == (
        f"B rolled an Air Raid on {m.board.place(coord)}: B chooses the tile it goes back to, "
        "one colour lower (§11.2 #13)"
    )
    g.apply(Choose("B", options[0]))
    assert m.catalogue[m.tiles[coord][0]].color == "yellow"


# 1883 §5.5: without the variant, Political Support cards are for sale; §12.3 "Create Your
# Own Destiny": no events, no cards
def test_create_your_own_destiny() -> None:
    g = Game(game().title, ["A", "B", "C", "D"], 1, {"no_events": True})
    s = g.state
    assert state_of(g).support.held == {p: 0 for p in "ABCD"}
    assert state_of(g).events.deck == []
    s.operating_round_no = 3
    events.begin_operating_round(g)
    assert events.events_drawn(g) == 0
    assert not any(isinstance(a, BuySupport) for a in g.title.other_purchases(g, "A"))


# 1883 §12.2 "Bombs Away": the air raids happen as the Third Era begins, if not drawn yet
def test_bombs_away() -> None:
    g = Game(game().title, ["A", "B", "C", "D"], 1, {"bombs_away": True})
    events.on_first_purchase(g, "3bis")
    events.on_first_purchase(g, "6")
    assert 13 in state_of(g).events.drawn
    assert 13 not in state_of(g).events.deck
    assert any("rolls" in e for e in g.state.events)


# 1883 §7.0: a prompt answered by someone else is refused and changes nothing
def test_only_the_president_answers() -> None:
    g = floated("FBV", (2, 8))
    draw(g, 3)
    rejected(g, Choose("SV", "play_support"))
    rejected(g, Choose("FBV", "maybe"))


@pytest.mark.parametrize("number", range(1, 32))
def test_every_card_resolves(number: int) -> None:
    """Every card resolves on a board with a corporation and keeps the invariants (§11)."""
    g = floated("FBV", (2, 8))
    give_train(g, "FBV", "2")
    give_train(g, "FBV", "2")
    total = total_cash(g)
    draw(g, number)
    while g.state.pending:
        g.apply(g.legal_actions()[0])
    assert number in state_of(g).events.drawn
    assert check_invariants(g, total) == []
