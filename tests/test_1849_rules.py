"""1849 operating-round and end-of-game rules, each on a position built through the API."""

from __future__ import annotations

from helpers_1849 import sell_privates, start_first
from tresham.core.game import Game
from tresham.core.rounds.operating import OperatingRound
from tresham.core.shares import POOL, treasury
from tresham.io.save import new_game
from tresham.titles.t1849.rules import Title1849
from tresham.titles.t1849.state import state_of
from tresham.titles.t1849.steps import STEP_OBJECTS

NAMES = ["Ann", "Bob", "Cid"]


def started_corp() -> tuple[Game, str]:
    """Privates sold; Bob's RSA started the first corporation at 100."""
    g = new_game("1849", NAMES, 1)
    sell_privates(g)
    return g, start_first(g)


def title(g: Game) -> Title1849:
    assert isinstance(g.title, Title1849)
    return g.title


def pay(g: Game, corp: str, revenue: int, kind: str) -> None:
    rnd = OperatingRound(g, [corp], ["dividend"], "test")
    rnd.turn.revenue = revenue
    from tresham.core.actions import Dividend

    STEP_OBJECTS["dividend"].process(g, rnd, corp, Dividend(corp, kind))


# 1849 §OR Pay dividends: "at least 1x, right 1"
def test_payout_at_least_price_moves_right() -> None:
    g, c = started_corp()
    price = g.state.market.price(c)
    bob = g.player("Bob").cash
    pay(g, c, 100, "payout")
    assert g.state.market.price(c) > price
    assert g.player("Bob").cash == bob + 20  # 20% of 100
    assert g.state.corps[c].cash >= 80  # treasury shares pay the corporation


# 1849 §OR Pay dividends: "pay < price 0"
def test_payout_below_price_does_not_move() -> None:
    g, c = started_corp()
    pos = g.state.market.position(c)
    pay(g, c, 90, "payout")
    assert g.state.market.position(c) == pos


# 1849 §OR Pay dividends: "Withhold, or no train, ←1"
def test_withhold_moves_left() -> None:
    g, c = started_corp()
    price, cash = g.state.market.price(c), g.state.corps[c].cash
    pay(g, c, 60, "withhold")
    assert g.state.market.price(c) < price
    assert g.state.corps[c].cash == cash + 60


# 1849 §Share price: "any share in the pool → down one row; nothing in pool and nothing in
# treasury → up one row"
def test_end_of_stock_round_moves() -> None:
    g, c = started_corp()
    reg = g.state.shares
    row = g.state.market.position(c)[0]
    cert = next(x for x in reg.held(treasury(c), c) if not x.last)
    reg.move(cert.cid, POOL)
    title(g).end_of_stock_round(g)
    assert g.state.market.position(c)[0] == row + 1
    for x in reg.corp_certs(c):
        reg.move(x.cid, "Ann" if not x.president else "Bob")
    row = g.state.market.position(c)[0]
    title(g).end_of_stock_round(g)
    assert g.state.market.position(c)[0] == row - 1


# 1849 §Trains: the first 8H rusts the 4H and lowers the limit to 3
def test_first_8h_rusts_4h() -> None:
    g, c = started_corp()
    depot = g.state.depot
    corp = g.state.corps[c]
    for tid in ("4H-0", "4H-1"):
        depot.trains[tid].owner = c
        corp.trains.append(tid)
    depot.trains["8H-0"].owner = c
    corp.trains.append("8H-0")
    title(g).on_train_bought(g, "6H")
    title(g).on_train_bought(g, "8H")
    assert g.phase.name == "8H"
    assert g.phase.train_limit == 3
    assert corp.trains == ["8H-0"]
    assert depot.trains["4H-0"].owner == "rusted"


# 1849 §Messina earthquake: "On the first 12H, Messina drops to yellow and every token there
# is lost for good"
def test_earthquake_removes_messina_tokens() -> None:
    g, c = started_corp()
    corp = g.state.corps[c]
    assert corp.home != "B14"  # seed 1: the first corporation has another home
    g.state.map.place_token(c, "B14", 0)
    corp.placed.append(("B14", 0))
    title(g).earthquake(g)
    assert ("B14", 0) not in corp.placed
    assert corp.tokens == 2
    assert state_of(g).messina_locked


# 1849 §Endgame: "Score cash plus shares at market, minus L.750 per loan, floored at 0"
def test_scores_floor_and_loan_penalty() -> None:
    g, c = started_corp()
    g.player("Cid").loans = 1
    raw = title(g).raw_scores(g)
    price = g.state.market.price(c)
    assert raw["Bob"] == g.player("Bob").cash + 2 * price
    assert raw["Cid"] == g.player("Cid").cash - 750
    assert title(g).scores(g)["Cid"] == max(0, raw["Cid"])


# 1849 §Endgame: "L.377 ends the game as soon as that corporation has operated"
def test_377_flags_the_end_after_operating() -> None:
    g, c = started_corp()
    pos = next(cell.pos for cell in g.state.market.market.cells_with("endgame"))
    g.state.market.move_to(c, (pos[0], pos[1] - 1))
    title(g).move_price(g, c, "right")
    assert state_of(g).end_after == c
    rnd = OperatingRound(g, [c], [], "test")
    title(g).end_turn(g, rnd, c)
    assert g.state.finished and g.state.end_reason == "stock_market"


# 1849 §Trouble: "Closure—the 'Closed' box ... It restarts later, last in the order."
def test_closed_box_closes_and_restarts_last() -> None:
    g, c = started_corp()
    pos = next(cell.pos for cell in g.state.market.market.cells_with("close"))
    g.state.market.move_to(c, (pos[0], pos[1] + 1))
    title(g).move_price(g, c, "left")
    assert state_of(g).order[-1] == c
    assert not g.state.corps[c].parred
    assert g.state.shares.percent("Bob", c) == 0
    assert sum(x.percent for x in g.state.shares.corp_certs(c)) == 100
