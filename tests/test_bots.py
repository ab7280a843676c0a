"""The bots: every level plays complete games of every title and player count through
`Game.apply` (invariants checked after every action), answers every prompt, never makes an
illegal move; the tournament's statistics on known inputs. Their strength is measured by
`tresham tournament` and benchmarks/bots.py, not here."""

from __future__ import annotations

import random

import pytest

from helpers_1849 import sell_privates, start_first
from positions import give_train
from tresham.bots import evaluate, heuristic
from tresham.bots.players import BOTS, get_bot
from tresham.bots.tournament import GameResult, SeatResult, ranks, schedule, summarise, wilson
from tresham.core.actions import (
    Action,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Dividend,
    LayTile,
    Par,
    Pass,
)
from tresham.core.game import Game
from tresham.core.game_spec import SetupError
from tresham.core.rounds.operating import OperatingRound
from tresham.io.save import new_game
from tresham.sim import check_invariants
from tresham.titles.t1849.state import state_of

GAMES = [
    ("1849", ["easy", "medium", "random"]),
    ("1849", ["medium", "easy", "medium", "easy"]),
    ("1883", ["medium", "easy"]),
    ("1883", ["easy", "medium", "random"]),
    ("1883", ["medium", "medium", "easy", "easy"]),
    ("1854", ["medium", "easy", "random"]),
    ("1854", ["easy", "medium", "easy", "medium"]),
    ("1854", ["medium", "easy", "medium", "easy", "random"]),
    ("1854", ["easy", "medium", "easy", "medium", "easy", "medium"]),
    ("1849", ["hard:20ms", "medium", "easy"]),
    ("1883", ["easy", "hard:20ms"]),
    ("1854", ["medium", "easy", "hard:20ms"]),
]


@pytest.mark.parametrize(("title", "seats"), GAMES)
def test_bots_play_whole_games_legally(title: str, seats: list[str]) -> None:
    names = [f"P{i + 1}" for i in range(len(seats))]
    game = new_game(title, names, 11)
    s = game.state
    total = s.bank.cash + sum(p.cash for p in s.players) + sum(c.cash for c in s.corps.values())
    rng = random.Random(3)
    while not game.state.finished:
        assert len(game.actions) < 20_000, "the game must end"
        player = game.acting_player()
        assert player is not None
        bot = get_bot(seats[names.index(player)])
        action = bot.choose(game, rng)
        game.apply(action)  # an illegal move raises here
        assert check_invariants(game, total) == []
    assert game.title.scores(game)


def test_unknown_levels_are_refused() -> None:
    with pytest.raises(SetupError) as info:
        get_bot("grandmaster")
    assert info.value.field == "bots"
    assert set(BOTS) >= {"random", "easy", "medium", "hard"}


def test_wilson_interval_on_known_values() -> None:
    # 50 of 100: 0.4038-0.5962; 0 of 10: 0-0.2775; 10 of 10: 0.7225-1
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert round(low, 4) == 0.7225 and high == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_ranks_share_ties() -> None:
    assert ranks([100, 300, 200]) == [3, 1, 2]
    assert ranks([300, 300, 100, 50]) == [1.5, 1.5, 3, 4]


def test_the_schedule_rotates_seats_on_paired_seeds() -> None:
    games = schedule(["medium", "easy", "easy"], 6, 5)
    assert [g[0] for g in games[:3]] == [
        ["medium", "easy", "easy"],
        ["easy", "easy", "medium"],
        ["easy", "medium", "easy"],
    ]
    assert [g[2] for g in games] == [5, 5, 5, 6, 6, 6]


def test_summary_pools_a_bot_named_twice_and_splits_ties() -> None:
    def seat(bot: str, score: int, rank: float, win: float, margin: int) -> SeatResult:
        return SeatResult(bot, score, rank, win, margin, bankrupt=False)

    results = [
        GameResult(
            1,
            [seat("a", 300, 1.5, 0.5, 0), seat("b", 300, 1.5, 0.5, 0), seat("b", 100, 3, 0, -200)],
            10,
            "bank",
            {"a": [0.001, 0.003], "b": [0.002]},
        ),
        GameResult(
            2,
            [seat("a", 500, 1, 1.0, 100), seat("b", 400, 2, 0, -100), seat("b", 10, 3, 0, -490)],
            14,
            "bankrupt",
        ),
    ]
    out = summarise("1849", results, 1.0)
    assert out["games"] == 2 and out["rounds_mean"] == 12
    assert out["end_reasons"] == {"bank": 1, "bankrupt": 1}
    a, b = out["bots"]["a"], out["bots"]["b"]
    assert (a["seats"], a["wins"], a["win_rate"]) == (2, 1.5, 0.75)
    assert (b["seats"], b["wins"], b["win_rate"]) == (4, 0.5, 0.125)
    assert a["mean_rank"] == 1.25 and b["mean_rank"] == 2.375
    assert a["mean_margin"] == 50 and b["mean_margin"] == -197.5
    assert a["decision_ms_max"] == 3.0 and a["decision_ms_mean"] == 2.0


def _first_stock_round() -> Game:
    """1849 after the auction: Bob (RSA) has started the first corporation; Cid, holding no
    presidency and L.425, is to act."""
    game = new_game("1849", ["Ann", "Bob", "Cid"], 3)
    sell_privates(game)
    start_first(game)
    assert game.acting_player() == "Cid"
    return game


def test_a_player_without_a_presidency_starts_the_next_corporation_at_the_higher_par() -> None:
    game = _first_stock_round()
    pars = {a.price: a for a in game.legal_actions() if isinstance(a, Par)}
    assert set(pars) == {68, 100}
    assert heuristic.EASY._score(game, "Cid", pars[100]) >= heuristic.SURE
    assert heuristic.EASY._score(game, "Cid", pars[100]) > heuristic.EASY._score(
        game, "Cid", pars[68]
    )
    assert heuristic.MEDIUM.choose(game, random.Random(1)) == pars[100]


def _cid_presides_ctl() -> Game:
    """The first stock round after Bob started AFG and Cid started CTL: Cid, with L.1000, is to
    act again."""
    game = _first_stock_round()
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Par) and a.price == 100))
    game.apply(Pass("Cid"))
    while game.acting_player() != "Cid":
        game.apply(Pass(game.acting_player() or ""))
    game.player("Cid").cash = 1000
    return game


def test_a_second_corporation_is_started_only_at_the_highest_par_past_the_first_phase() -> None:
    """As 1849 players do: one corporation each in the first stock round, the later ones at
    the higher par the green (and brown) phase brings, which pays for the longer trains."""
    game = _cid_presides_ctl()
    pars = {a.price: a for a in game.legal_actions() if isinstance(a, Par)}
    assert set(pars) == {68, 100}
    assert all(heuristic._par(game, "Cid", a) < 0 for a in pars.values())
    game.state.phases_reached.append("6H")  # the first 6H was bought: par L.144 is on offer
    game.state.phase_index = 1
    pars = {a.price: a for a in game.legal_actions() if isinstance(a, Par)}
    assert set(pars) == {68, 100, 144}
    assert heuristic._par(game, "Cid", pars[144]) >= heuristic.SURE
    assert heuristic._par(game, "Cid", pars[100]) < 0


def test_the_next_train_is_saved_for_when_it_rusts_only_rivals_trains() -> None:
    """1849: 4H trains rust when the first 8H is bought, 6H trains when the first 10H is."""
    game = _cid_presides_ctl()
    s = game.state
    for t in s.depot.in_bank():
        if t.kind in ("4H", "6H") and t.tid not in ("4H-0", "6H-0"):
            t.owner = "scrapped"
    assert s.shares.president["AFG"] == "Bob" and s.shares.president["CTL"] == "Cid"
    give_train(game, "AFG", "4H")
    give_train(game, "CTL", "6H")
    assert s.depot.in_bank()[0].kind == "8H"
    assert heuristic._rusts_rivals(game, "CTL")  # its 6H stays, Bob's 4H goes
    assert not heuristic._rusts_rivals(game, "AFG")  # its own only train would rust


def test_a_president_keeps_the_price_of_the_train_that_replaces_its_rusting_ones() -> None:
    """A corporation whose only trains rust with the next type must buy that type: its
    president keeps that price (not the cheapest train's) and spends none of it on shares
    (medium bots went bankrupt in 1883 when they did)."""
    game = _cid_presides_ctl()
    s = game.state
    for t in s.depot.in_bank():
        if t.kind in ("4H", "6H") and t.tid != "4H-0":
            t.owner = "scrapped"
    give_train(game, "CTL", "4H")
    assert s.depot.in_bank()[0].kind == "8H"
    s.corps["CTL"].cash = 50
    assert heuristic._must_buy(game, "CTL") == 350
    assert heuristic._reserve(game, "Cid") == 300
    buy = next(a for a in game.legal_actions() if isinstance(a, BuyShares))
    game.player("Cid").cash = 300 + s.market.price(buy.corporation) - 1
    assert heuristic._buy(game, "Cid", buy) <= heuristic.VETO
    game.player("Cid").cash += 1
    assert heuristic._buy(game, "Cid", buy) > heuristic.VETO


def test_a_new_corporation_pays_for_the_next_type_when_the_cheap_trains_are_spoken_for() -> None:
    game = _first_stock_round()
    waiting = [sym for sym, c in game.state.corps.items() if not c.parred]
    # one started corporation without a train (Bob's) is served first: a 4H is left
    assert heuristic._first_train(game, waiting[0]) == 100
    for sym in waiting[:3]:  # four corporations wait for the four 4H trains
        game.state.corps[sym].floated = True
    assert heuristic._first_train(game, waiting[3]) == 200


def test_withholds_to_closing_are_counted_on_the_market() -> None:
    game = _first_stock_round()
    market = game.state.market.market
    assert heuristic._falls_to_close(game, market.positions_at_price(100)[0]) == 10  # capped
    assert heuristic._falls_to_close(game, (4, 2)) == 7  # par 68: 59 52 47 41 34 27 closed
    assert heuristic._falls_to_close(game, (5, 0)) == 4  # 47: 41 34 27 closed


def _first_dividend() -> tuple[Game, list[Dividend]]:
    """An 1849 game played by easy bots to its first dividend decision of a corporation with
    a train and a next, longer train in the bank to save for."""
    game = new_game("1849", ["Ann", "Bob", "Cid"], 3)
    rng = random.Random(1)
    while True:
        choices = [a for a in game.legal_actions() if isinstance(a, Dividend)]
        if choices and heuristic._train_goal(game, choices[0].entity) is not None:
            return game, choices
        game.apply(heuristic.EASY.choose(game, rng))


def test_a_corporation_saves_for_its_next_train_but_never_withholds_into_closing() -> None:
    game, choices = _first_dividend()
    corp = choices[0].entity
    me = game.acting_player() or ""
    goal = heuristic._train_goal(game, corp)
    rnd = game.state.round
    assert isinstance(rnd, OperatingRound)
    revenue = rnd.turn.revenue or 0
    assert goal is not None and 0 < revenue < goal
    game.state.corps[corp].cash = goal - revenue  # one withheld revenue buys the next train
    game.state.market.move_to(corp, game.state.market.market.positions_at_price(100)[0])
    score = {a.kind: heuristic._dividend(game, me, a) for a in choices}
    assert score["withhold"] >= heuristic.SURE > score["payout"]
    game.state.market.move_to(corp, (5, 0))  # L.47: four withholds from closing
    score = {a.kind: heuristic._dividend(game, me, a) for a in choices}
    assert score["payout"] > score["withhold"]


def test_a_trainless_corporation_keeps_the_money_for_its_first_train() -> None:
    game = _first_stock_round()
    corp = next(sym for sym, c in game.state.corps.items() if c.parred)
    c = game.state.corps[corp]
    c.cash = 99
    assert heuristic._spends_train_money(game, corp)
    c.cash = 100
    assert not heuristic._spends_train_money(game, corp)
    give_train(game, corp, "4H")
    c.cash = 0
    assert not heuristic._spends_train_money(game, corp)


def test_a_corporation_that_bought_its_first_train_after_running_is_valued_by_its_runs() -> None:
    game = _first_stock_round()
    corp = next(sym for sym, c in game.state.corps.items() if c.parred)
    game.state.corps[corp].revenue_history = [0]  # ran without a train
    assert evaluate.earning(game, corp) == 0
    give_train(game, corp, "4H")
    assert evaluate.earning(game, corp) == game.title.best_routes(game, corp).revenue


def test_medium_starts_a_corporation_where_its_home_is_promising() -> None:
    """1849: AFG chooses its home. Messina (B14), amid the rich north-east corner's cities on
    easy ground, is worth more than Trapani (C1) and far more than Caltanissetta (H8), among
    the mountains; Girgenti (SFA's home) is too poor for `medium` to start."""
    game = new_game("1849", ["Ann", "Bob", "Cid"], 3)
    sell_privates(game)
    assert state_of(game).order[0] == "AFG" and game.acting_player() == "Bob"
    prospect = {
        h: heuristic._prospect(game, Par("Bob", "AFG", 100, h)) for h in ("B14", "C1", "H8")
    }
    assert prospect["B14"] > prospect["C1"] > 0 > prospect["H8"]
    assert heuristic._prospect(game, Par("Bob", "SFA", 100)) < heuristic.POOR_PROSPECT
    assert heuristic.MEDIUM.choose(game, random.Random(1)) == Par("Bob", "AFG", 100, "B14")
    # `easy` takes the first home it is offered among the best-scored
    assert heuristic.EASY._score(game, "Bob", Par("Bob", "AFG", 100, "B14")) == (
        heuristic.EASY._score(game, "Bob", Par("Bob", "AFG", 100, "H8"))
    )


def test_medium_leaves_a_poor_corporation_to_others() -> None:
    """Girgenti's SFA: `medium` starts it first only for want of any other (someone must start
    a corporation), and, as 1849's place cards offer it alone, starts it while fewer
    corporations run than there are players (never once as many run): leaving it unstarted
    froze 19% of `medium`'s 3-player games in the 4H phase with one corporation
    (``benchmarks/game_shape.py``)."""
    game = new_game("1849", ["Ann", "Bob", "Cid"], 4)
    sell_privates(game)
    assert state_of(game).order[:2] == ["IFT", "SFA"]
    start_first(game)
    who = game.acting_player() or ""
    pars = [a for a in game.legal_actions() if isinstance(a, Par)]
    assert pars and {a.corporation for a in pars} == {"SFA"}
    assert all(heuristic._prospect(game, a) < heuristic.POOR_PROSPECT for a in pars)
    assert all(heuristic.VETO < heuristic.MEDIUM._score(game, who, a) < 5 for a in pars)
    assert all(heuristic.EASY._score(game, who, a) >= heuristic.SURE for a in pars)
    game = new_game("1849", ["Ann", "Bob", "Cid"], 8)
    sell_privates(game)
    assert state_of(game).order[0] == "SFA"
    who = game.acting_player() or ""
    pars = [a for a in game.legal_actions() if isinstance(a, Par)]
    assert all(heuristic.VETO < heuristic.MEDIUM._score(game, who, a) < 5 for a in pars)


def test_a_private_goes_to_its_presidents_corporation_only_at_face_value_or_more() -> None:
    game = _cid_presides_ctl()
    assert game.state.companies["CNM"].owner == "Cid" and game.state.companies["CNM"].value == 75
    game.state.corps["CTL"].cash = 400  # beyond its first train
    below = heuristic._buy_company(game, "Cid", BuyCompany("CTL", "CNM", 74))
    assert below == heuristic.VETO
    assert heuristic._buy_company(game, "Cid", BuyCompany("CTL", "CNM", 75)) > heuristic.VETO


def test_a_trainless_corporation_short_of_its_first_train_builds_nothing_that_costs() -> None:
    """The president would pay for the track out of the money for the train."""
    rng = random.Random(5)
    game = new_game("1849", ["Ann", "Bob", "Cid"], 5)
    while True:
        lays = [a for a in game.legal_actions() if isinstance(a, LayTile)]
        corp = lays[0].entity if lays else ""
        if lays and not game.state.corps[corp].trains:
            game.state.corps[corp].cash = heuristic._cheapest_train(game) + 10
            paid = [a for a in lays if _cost(game, a) > 10]
            if paid:
                break
        game.apply(heuristic.EASY.choose(game, rng))
    for bot in (heuristic.EASY, heuristic.MEDIUM):
        assert _cost(game, bot.choose(game, random.Random(1))) <= 10
    game.state.corps[corp].cash = heuristic._cheapest_train(game) - 1
    for bot in (heuristic.EASY, heuristic.MEDIUM):
        assert _cost(game, bot.choose(game, random.Random(1))) == 0


def test_medium_stops_trying_lays_once_the_optimizer_has_done_its_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bound on a decision's time that depends only on the position: once the optimizer has
    done BUILD_WORK, the candidates left are not tried (but always two)."""
    rng = random.Random(3)
    game = new_game("1849", ["Ann", "Bob", "Cid"], 3)
    while True:
        lays = [a for a in game.legal_actions() if isinstance(a, LayTile)]
        if len(lays) >= 4 and game.state.corps[lays[0].entity].trains:
            break
        game.apply(heuristic.EASY.choose(game, rng))
    tried: list[int] = []
    earning_power = heuristic._earning_power

    def counted(work: Game, corp: str) -> heuristic.RouteSolution:
        runs = earning_power(work, corp)
        tried.append(runs.work)
        return runs

    monkeypatch.setattr(heuristic, "_earning_power", counted)
    free = heuristic.MEDIUM.choose(game, random.Random(1))
    assert len(tried) == min(len(lays), heuristic.MEDIUM.build_width) > 2
    assert sum(tried) < heuristic.BUILD_WORK
    tried.clear()
    monkeypatch.setattr(heuristic, "BUILD_WORK", 1)
    bounded = heuristic.MEDIUM.choose(game, random.Random(1))
    assert len(tried) == 2
    assert isinstance(free, LayTile) and isinstance(bounded, LayTile)


def _cost(game: Game, action: Action) -> int:
    """What `action` costs the acting corporation."""
    work = game.search_copy()
    before = work.state.corps[action.entity].cash
    work.apply_known(action)
    return before - work.state.corps[action.entity].cash


@pytest.mark.parametrize(
    ("layout", "steps"), [("flat", [(0, 2), (1, 1), (2, 0)]), ("pointy", [(2, 0), (1, 1), (0, 2)])]
)
def test_hex_distances_in_doubled_coordinates(layout: str, steps: list[tuple[int, int]]) -> None:
    near, diagonal, far = steps
    assert heuristic._hex_distance(*near, layout) == 1
    assert heuristic._hex_distance(*diagonal, layout) == 1
    assert heuristic._hex_distance(*far, layout) == 2
    assert heuristic._hex_distance(0, 0, layout) == 0


def test_medium_never_funds_a_rivals_train_that_rusts_its_own() -> None:
    """1849: Cid's CTL runs a 4H, which the first 8H (L.350) rusts; Bob's AFG has room and
    L.300. A treasury share of AFG pays AFG for that 8H: `medium` does not buy it (`easy`
    may); it does when AFG stays short of the 8H, or when CTL has no train the 8H rusts."""
    game = _cid_presides_ctl()
    s = game.state
    for t in s.depot.in_bank():
        if t.kind in ("4H", "6H") and t.tid not in ("4H-0", "4H-1"):
            t.owner = "scrapped"
    give_train(game, "CTL", "4H")
    give_train(game, "AFG", "4H")
    assert s.depot.in_bank()[0].kind == "8H"
    buy = next(
        a
        for a in game.legal_actions()
        if isinstance(a, BuyShares) and a.corporation == "AFG" and a.source == "treasury"
    )
    s.corps["AFG"].cash = 350 - s.market.price("AFG")
    assert heuristic._funds_rusting(game, "Cid", buy)
    assert heuristic.MEDIUM._score(game, "Cid", buy) <= heuristic.VETO
    assert heuristic.EASY._score(game, "Cid", buy) > heuristic.VETO
    s.corps["AFG"].cash -= 1
    assert not heuristic._funds_rusting(game, "Cid", buy)
    s.corps["AFG"].cash += 1
    s.corps["CTL"].trains.clear()  # (its train's owner aside: only CTL's list is read)
    assert not heuristic._funds_rusting(game, "Cid", buy)


def test_medium_plays_its_rules_best_train_or_issue_without_looking_ahead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the rules' best choice is a train (or an issue of shares), `medium` plays it:
    one step ahead cannot see the train a sale or a smaller issue leaves unbought."""
    game = _cid_presides_ctl()
    looked: list[bool] = []
    monkeypatch.setattr(
        heuristic.HeuristicBot, "_look_ahead", lambda *args: looked.append(True) or None
    )
    train = BuyTrain("CTL", "4H-0", 100)
    scored: list[heuristic.Scored] = [(40.0, 0, train), (5.0, 1, Pass("CTL"))]
    monkeypatch.setattr(Game, "legal_actions", lambda self: [a for _, _, a in scored])
    monkeypatch.setattr(
        heuristic.HeuristicBot,
        "_score",
        lambda self, g, me, a: next(sc for sc, _, b in scored if b == a),
    )
    assert heuristic.MEDIUM.choose(game, random.Random(1)) == train
    assert looked == []
    scored[0] = (40.0, 0, BuyShares("Cid", "AFG", "pool", 10))
    heuristic.MEDIUM.choose(game, random.Random(1))
    assert looked == [True]
