"""1849 setup, private auction and stock round, played through the public API."""

from __future__ import annotations

import copy
import random

import pytest

from helpers_1849 import sell_privates, start_first
from rejections import rejected as assert_rejected
from tresham.bots.random_bot import choose
from tresham.core.actions import Bid, BuyShares, Par, Pass, SellShares
from tresham.core.errors import NotYourTurnError, RuleError
from tresham.core.game import Game, GameState
from tresham.core.shares import treasury
from tresham.io.save import from_save, new_game, to_save
from tresham.titles.t1849.state import state_of

NAMES = ["Ann", "Bob", "Cid"]


def game3(seed: int = 1) -> Game:
    return new_game("1849", NAMES, seed)


# 1849 §Players: "Players 3 4 4 5 · Start cash L.500 L.375 L.375 L.300 · Bank L.7,760"
@pytest.mark.parametrize(("n", "cash", "corps"), [(3, 500, 5), (4, 375, 6), (5, 300, 6)])
def test_setup_cash_and_corporations(n: int, cash: int, corps: int) -> None:
    g = new_game("1849", [f"P{i}" for i in range(n)], 3)
    assert all(p.cash == cash for p in g.state.players)
    assert g.state.bank.cash == 7760 - n * cash
    assert len(g.state.corps) == corps


# 1849 §Players: 4 players with five corporations (option) use the 9-certificate limit
def test_four_players_five_corporations_option() -> None:
    g = new_game("1849", ["a", "b", "c", "d"], 3, {"reduced_4p_corps": True})
    assert len(g.state.corps) == 5
    assert g.title.cert_limit(g) == 9  # type: ignore[attr-defined]


# 1849 §Trains: with 5 corporations remove one each of the 6H, 8H and 16H
def test_five_corporation_train_counts() -> None:
    g3 = game3()
    g4 = new_game("1849", ["a", "b", "c", "d"], 3)
    count = lambda g, k: sum(1 for t in g.state.depot.trains.values() if t.kind == k)  # noqa: E731
    assert [count(g3, k) for k in ("6H", "8H", "16H")] == [3, 2, 4]
    assert [count(g4, k) for k in ("6H", "8H", "16H")] == [4, 3, 5]


# 1849 §SR: "The place cards fix the order" — drawn from the seed, reproducibly
def test_corporation_order_is_a_function_of_the_seed() -> None:
    assert state_of(game3(5)).order == state_of(game3(5)).order
    orders = {tuple(state_of(game3(s)).order) for s in range(10)}
    assert len(orders) > 1


# delay_ift option: IFT is never among the first three corporations
def test_delay_ift() -> None:
    for seed in range(30):
        g = new_game("1849", ["a", "b", "c", "d"], seed, {"delay_ift": True})
        assert state_of(g).order.index("IFT") >= 3


# 1849 §Start: "An 1830-style auction of five privates, in L.5 steps"
def test_buy_cheapest_private_and_bid_on_another() -> None:
    g = game3()
    g.apply(Bid("Ann", "SCE", 20))
    assert g.state.companies["SCE"].owner == "Ann"
    assert g.player("Ann").cash == 480
    assert_rejected(g, Bid("Bob", "CNM", 87), "steps")
    assert_rejected(g, Bid("Bob", "CNM", 75), "at least")
    g.apply(Bid("Bob", "CNM", 80))
    # the bid is committed cash; nothing is paid until the private is won
    assert g.player("Bob").cash == 500
    assert g.active_entity() == "Cid"


def test_not_your_turn_is_rejected() -> None:
    g = game3()
    err = assert_rejected(g, Bid("Bob", "SCE", 20))
    assert isinstance(err, NotYourTurnError)


# 1849 §Start: a single bidder takes the private at its bid when it becomes the cheapest
def test_single_bid_wins_when_private_comes_up() -> None:
    g = game3()
    g.apply(Bid("Ann", "SIGI", 50))
    g.apply(Bid("Bob", "SCE", 20))
    assert g.state.companies["SIGI"].owner == "Ann"
    assert g.player("Ann").cash == 450


# 1849 §Start: two bidders: the auction is fought out, the lowest bidder acting first
def test_auction_between_bidders() -> None:
    g = game3()
    g.apply(Bid("Ann", "SIGI", 50))
    g.apply(Bid("Bob", "SIGI", 55))
    g.apply(Bid("Cid", "SCE", 20))
    assert g.active_entity() == "Ann"
    g.apply(Bid("Ann", "SIGI", 60))
    assert g.active_entity() == "Bob"
    g.apply(Pass("Bob"))
    assert g.state.companies["SIGI"].owner == "Ann"
    assert g.player("Ann").cash == 440


# 1849 §Start: "P1 comes back L.5 cheaper each time, and at L.5 the first player offered it
# takes it free" (ruling R1)
def test_p1_gets_cheaper_and_is_taken_free_at_5() -> None:
    g = game3()
    for _round, price in enumerate((15, 10)):
        for who in NAMES:
            g.apply(Pass(who))
        rnd = g.state.round
        assert rnd.price(g, "SCE") == price  # type: ignore[union-attr]
    for who in NAMES:
        g.apply(Pass(who))
    # the third full round of passes brings P1 to L.5: Ann, first offered it, takes it free
    assert g.state.companies["SCE"].owner == "Ann"
    assert g.player("Ann").cash == 500
    # taking it is Ann's turn: the auction goes on with Bob (ruling R28)
    assert g.active_entity() == "Bob"


# 1849 §Privates P5: comes with the president's certificate of the first corporation
def test_rsa_starts_the_first_corporation() -> None:
    g = game3()
    sell_privates(g)
    assert g.active_entity() == "Bob"
    first = start_first(g, 68)
    corp = g.state.corps[first]
    assert g.state.shares.president[first] == "Bob"
    assert g.state.shares.percent("Bob", first) == 20
    assert corp.floated
    fee = corp.token_fee
    assert corp.cash == 2 * 68 - fee
    assert g.player("Bob").cash == 500 - 45 - 150


def started(seed: int = 1) -> Game:
    g = game3(seed)
    sell_privates(g)
    start_first(g)
    return g


# 1849 §SR Starting a corporation: you get the next one; the president's 20% plus up to two
# more shares; "incremental capitalization"
def test_par_next_corporation_and_buy_two_more() -> None:
    g = started()
    assert g.state.round is not None and g.state.round.kind == "stock"
    nxt = g.title.next_to_start(g)  # type: ignore[attr-defined]
    who = g.active_entity()
    assert who is not None
    other = next(c for c in g.state.corps if c != nxt and not g.state.corps[c].parred)
    assert_rejected(g, Par(who, other, 100, None if g.state.corps[other].home else "C1"))
    home = None if g.state.corps[nxt].home else "H8"
    g.apply(Par(who, nxt, 100, home))
    assert g.active_entity() == who
    g.apply(BuyShares(who, nxt, "treasury", 10))
    g.apply(BuyShares(who, nxt, "treasury", 10))
    assert g.state.shares.percent(who, nxt) == 40
    assert g.active_entity() != who  # the turn ends after the two extra shares
    corp = g.state.corps[nxt]
    assert corp.cash == 4 * 100 - corp.token_fee


# 1849 §SR: "No selling a corporation that has not yet operated"
def test_no_selling_before_operating() -> None:
    g = started()
    first = state_of(g).order[0]
    g2 = g
    while g2.active_entity() != "Bob":
        g2.apply(Pass(g2.active_entity() or ""))
    assert_rejected(g2, SellShares("Bob", first, 10), "sell")


# 1849 §SR: ten shares, eight certificates: the 20% last certificate is buyable only when no
# 10% is left in the same place
def test_last_certificate_only_when_no_ten_percent_left() -> None:
    g = started()
    first = state_of(g).order[0]
    reg = g.state.shares
    sizes = sorted(c.percent for c in reg.held(treasury(first), first))
    assert sizes == [10, 10, 10, 10, 10, 10, 20]
    for a in g.legal_actions():
        if isinstance(a, BuyShares) and a.corporation == first:
            assert a.percent == 10


def test_undo_redo_and_save_roundtrip() -> None:
    g = started()
    h = g.state_hash()
    acts = g.legal_actions()
    g.apply(acts[0])
    h2 = g.state_hash()
    g.undo()
    assert g.state_hash() == h
    g.redo()
    assert g.state_hash() == h2
    g3 = from_save(to_save(g))
    assert g3.state_hash() == g.state_hash()


def state_hash_of(game: Game, state: GameState) -> str:
    """The hash of `state` (a checkpoint of `game`)."""
    now, game.state = game.state, state
    try:
        return game.state_hash()
    finally:
        game.state = now


def test_a_long_game_keeps_few_checkpoints_and_undoes_far_back() -> None:
    g = new_game("1849", ["A", "B", "C"], 2)
    rng = random.Random(2)
    while len(g.actions) < 1100 and not g.state.finished:
        g.apply(choose(g, rng))
    assert len(g.actions) == 1100
    # the last 100 actions every 25, and every 500 before: 0, 500, 1000-1100
    assert sorted(g._checkpoints) == [0, 500, 1000, 1025, 1050, 1075, 1100]
    # a log replayed in one go (a save loaded) makes only the checkpoints kept
    loaded = Game(g.title, ["A", "B", "C"], 2)
    copies = 0
    deepcopy = copy.deepcopy

    def counting(value: object, memo: dict[int, object] | None = None) -> object:
        nonlocal copies
        copies += isinstance(value, GameState)
        return deepcopy(value, memo)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(copy, "deepcopy", counting)
        loaded.apply_all(g.actions[:1060])
    assert copies == 6  # 500 and the last five every 25 (950-1050); never 25, 50, ... 925
    assert sorted(loaded._checkpoints) == [0, 500, 950, 975, 1000, 1025, 1050]
    loaded.apply_all(g.actions[1060:])
    assert sorted(loaded._checkpoints) == sorted(g._checkpoints)
    for at, state in g._checkpoints.items():
        assert state_hash_of(loaded, loaded._checkpoints[at]) == state_hash_of(g, state), at
    replayed = Game(g.title, ["A", "B", "C"], 2)
    for action in g.actions[:980]:
        replayed.apply(action)
    for _ in range(120):  # past 1000: from the checkpoint at 500
        g.undo()
    assert g.state_hash() == replayed.state_hash()
    assert g.legal_actions() == replayed.legal_actions()


def test_apply_all_stops_at_the_first_illegal_action() -> None:
    source = new_game("1849", ["A", "B", "C"], 4)
    rng = random.Random(4)
    while len(source.actions) < 30:
        source.apply(choose(source, rng))
    bad = Pass("nobody")
    g = new_game("1849", ["A", "B", "C"], 4)
    with pytest.raises(NotYourTurnError):
        g.apply_all([*source.actions[:20], bad, *source.actions[20:]])
    assert g.actions == source.actions[:20]
    prefix = new_game("1849", ["A", "B", "C"], 4)
    for action in source.actions[:20]:
        prefix.apply(action)
    assert g.state_hash() == prefix.state_hash()
    g.apply_all(source.actions[20:])  # then on as usual: the checkpoint at 25 is made
    assert g.state_hash() == source.state_hash()
    assert sorted(g._checkpoints) == sorted(source._checkpoints) == [0, 25]


def test_clone_is_independent() -> None:
    g = started()
    events = list(g.state.events)
    c = g.clone()
    c.apply(c.legal_actions()[0])
    assert c.state_hash() != g.state_hash()
    assert len(c.actions) == len(g.actions) + 1
    assert g.state.events == events and len(c.state.events) > len(events)
    assert c.state.shares is not g.state.shares and c.state.map is not g.state.map
    tid = next(iter(c.state.depot.trains))
    c.state.depot.trains[tid].owner = "somebody"
    assert g.state.depot.trains[tid].owner != "somebody"
    assert c.state.depot.types is g.state.depot.types  # immutable, shared
    drawn = c.state.rng.permutation(list(range(20)))
    assert g.state.rng.permutation(list(range(20))) == drawn  # the same generator state


# Saves never replay to a different game: one made under other rules is refused
def test_save_of_another_rules_version_is_refused() -> None:
    g = started()
    data = to_save(g)
    assert data["rules_version"] == g.title.rules_version
    legacy = {k: v for k, v in data.items() if k != "rules_version"}
    assert from_save(legacy).state_hash() == g.state_hash()
    with pytest.raises(RuleError, match="rules version 0"):
        from_save({**data, "rules_version": 0})
