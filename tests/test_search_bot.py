"""`hard` (bots/search.py): its levels and budgets, decisions pinned for a seed and budget in
work units, its budget kept, and a search that never reads what no player knows (1883's
undrawn event cards and dice). Its strength is measured by benchmarks/hard.py, not here."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from tresham.bots import search
from tresham.bots.heuristic import MEDIUM
from tresham.bots.players import BOTS, DEFAULT_LEVEL, get_bot
from tresham.bots.search import SearchBot, budget_ms, work_units
from tresham.core.actions import Bid, BuyTrain, Dividend, IssueShares
from tresham.core.game import Game
from tresham.core.game_spec import SetupError
from tresham.core.rng import make_rng
from tresham.core.rounds.operating import OperatingRound
from tresham.io.save import new_game
from tresham.titles.registry import get_title
from tresham.titles.t1883.state import state_of


def test_hard_is_a_level_with_a_budget_and_medium_stays_the_default() -> None:
    assert list(BOTS) == ["random", "easy", "medium", "hard"]
    assert DEFAULT_LEVEL == "medium"
    assert budget_ms("hard") == 1000 and budget_ms("hard:250ms") == 250
    assert budget_ms("hard:1.5s") == 1500 and budget_ms("medium") is None
    bot = get_bot("hard:250ms")
    assert isinstance(bot, SearchBot) and bot.name == "hard:250ms"
    assert bot.ms == 250 and bot.work == work_units(250)
    # the time is converted at each title's own rate (a unit of 1854 costs more than 1849's)
    for title, players in (("1849", 3), ("1883", 4), ("1854", 4)):
        game = new_game(title, [f"P{i}" for i in range(players)], 1)
        rate = game.title.search_units_per_second
        assert bot.units(game) == work_units(250, game.title) == 250 * rate // 1000
    rates = [get_title(t).search_units_per_second for t in ("1849", "1883", "1854")]
    assert rates == sorted(rates, reverse=True) and rates[0] > search.UNITS_PER_SECOND
    assert SearchBot("units", work=120).units(_opening()) == 120  # a budget in units stays
    for level in ("hard:0ms", "hard:fast", "hard:250", "hard250ms"):
        with pytest.raises(SetupError) as info:
            get_bot(level)
        assert info.value.field == "bots"


def _opening() -> Game:
    return new_game("1849", ["P0", "P1", "P2"], 3)


def test_a_decision_is_pinned_by_the_seed_and_the_budget() -> None:
    """1849, seed 3, the first bid of the auction: `medium` buys SCE at L.20; `hard:250ms`
    (its samples seeded from random.Random(1)) plays the candidates out and bids L.80 for
    CNM instead, every time; with a budget too small to play anything out it keeps
    `medium`'s choice."""
    game = _opening()
    assert MEDIUM.choose(game, random.Random(0)) == Bid("P0", "SCE", 20)
    bot = get_bot("hard:250ms")
    first = bot.choose(game, random.Random(1))
    assert first == Bid("P0", "CNM", 80)
    assert bot.choose(_opening(), random.Random(1)) == first
    assert SearchBot("tiny", work=1).choose(game, random.Random(1)) == Bid("P0", "SCE", 20)


def test_the_search_spends_at_most_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    spent: list[int] = []
    play_on = search._play_on

    def counted(game: Game, root: search._RoundMark, budget: int, crossed: Any = None) -> int:
        used = play_on(game, root, budget, crossed)
        assert used <= budget
        spent.append(max(0, used))
        return used

    monkeypatch.setattr(search, "_play_on", counted)
    bot = SearchBot("hard:test", work=120)
    bot.choose(_opening(), random.Random(1))
    assert 0 < sum(spent) <= 120


def _1883_stock_round() -> Game:
    """1883 at 4 players, played by `medium` to a stock-round decision `hard` searches,
    with Random Events drawn in the operating rounds to come."""
    game = new_game("1883", ["P0", "P1", "P2", "P3"], 2)
    rng = random.Random(0)
    while game.state.stock_round_no < 2:
        game.apply(MEDIUM.choose(game, rng))
    bot = get_bot("hard:250ms")
    assert isinstance(bot, SearchBot)
    while True:
        pick, scored = MEDIUM.decide(game, rng)
        if len(bot.candidates(game, pick, scored)) >= 2:
            return game
        game.apply(pick)


def test_1883s_search_never_reads_the_undrawn_cards_or_the_dice() -> None:
    """Two games alike but for the order of the undrawn event cards and the generator that
    rolls the dice: `hard` decides alike in both (its samples draw them anew)."""
    game = _1883_stock_round()
    other = game.clone()
    deck = state_of(other).events.deck
    assert len(deck) > 1
    state_of(other).events.deck = list(reversed(deck))
    other.state.rng = make_rng(other.state.rng.name, 987_654)
    assert state_of(other).events.deck != state_of(game).events.deck
    bot = get_bot("hard:250ms")
    assert bot.choose(game, random.Random(5)) == bot.choose(other, random.Random(5))


def test_a_corporations_money_decisions_are_searched_only_when_asked() -> None:
    """In an operating round `hard` leaves a corporation's dividend, train and issue to
    `medium`, unless it searches them (`operating`): then `medium`'s choice and its others of
    those kinds (a dividend, a train, an issue, or a pass) are played out."""
    game = new_game("1849", ["P0", "P1", "P2"], 3)
    rng = random.Random(2)
    plain = SearchBot("plain", work=200)
    wide = SearchBot("wide", work=200, operating=True)
    seen = 0
    while seen < 3 and len(game.actions) < 600:
        pick, scored = MEDIUM.decide(game, rng)
        if isinstance(game.state.round, OperatingRound):
            assert plain.candidates(game, pick, scored) == []
            cands = wide.candidates(game, pick, scored)
            if len(cands) >= 2:
                seen += 1
                assert cands[0] == pick
                assert all(isinstance(a, search.SEARCHED_OPERATING) for a in cands)
                assert any(isinstance(a, (Dividend, BuyTrain, IssueShares)) for a in cands)
                assert wide.rank(game, random.Random(1)).searched
        game.apply(pick)
    assert seen == 3, "no operating-round money decision with two candidates"


def test_candidates_are_compared_at_the_last_round_boundary_all_reached() -> None:
    """A playout cut off mid-round is no fair measure (one candidate's corporations may have
    run, its rival's not yet): each sample is valued at the deepest round boundary every
    sample reached, a finished game's end standing holding beyond it; where some sample
    reached no boundary, where each was cut off."""
    playing = _opening()
    over = _opening()
    over.state.finished = True
    deep = search._Sample(playing, [((4, 6), 10.0), ((4, 7), 50.0)], end=80.0)
    shallow = search._Sample(playing, [((4, 6), 20.0)], end=30.0)
    ended = search._Sample(over, [((4, 6), 5.0), ((5, 7), 40.0)], end=40.0)
    failed = search._Sample(playing, [], end=-math.inf)
    arms = [search._Arm(Bid("P0", "SCE", 20), r, [x]) for r, x in enumerate([deep, shallow])]
    search._compare(arms)
    assert [a.values for a in arms] == [[10.0], [20.0]], "at (4, 6), not where each stopped"
    arms = [search._Arm(Bid("P0", "SCE", 20), r, [x]) for r, x in enumerate([deep, ended])]
    search._compare(arms)
    assert [a.values for a in arms] == [[50.0], [5.0]], "at (4, 7): the game ended after it"
    arms = [search._Arm(Bid("P0", "SCE", 20), 0, [ended, failed])]
    search._compare(arms)
    assert arms[0].values == [40.0, -math.inf], "a finished game's end, a failed playout"
    unmarked = search._Sample(playing, [], end=7.0)
    arms = [search._Arm(Bid("P0", "SCE", 20), r, [x]) for r, x in enumerate([deep, unmarked])]
    search._compare(arms)
    assert [a.values for a in arms] == [[80.0], [7.0]], "no common boundary: where they stopped"
