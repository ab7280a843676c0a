"""Hints and reviews (bots/hints.py, bots/review.py) and the search's ranking they read
(bots/search.py: `SearchBot.rank`): the ranking leaves `hard`'s choices as they were (pinned
for seeds and budgets before it existed), a hint is `hard`'s choice in words within a fixed
budget, never reads 1883's undrawn cards or dice, and a review lists each player's decisions
where the search's choice plays out better, in the player's words."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from terminal_script import scripted
from tresham.bots import hints, search
from tresham.bots.heuristic import MEDIUM
from tresham.bots.hints import hint
from tresham.bots.review import review
from tresham.bots.search import SearchBot, work_units
from tresham.cli import main
from tresham.core.actions import action_from_json
from tresham.core.game import Game
from tresham.core.rng import make_rng
from tresham.io.save import from_save, new_game, to_save
from tresham.titles.t1883.state import state_of
from tresham.words import Words

SAMPLES = Path(__file__).parent / "data" / "save_samples"

#: `hard`'s choices before `SearchBot.rank` existed: (title, players, seed, actions `medium`
#: played first, budget in units, the choice with random.Random(7)), two budgets each (one
#: sample a candidate, and two from `SAMPLED_WORK`).
PINNED: list[tuple[str, int, int, int, int, dict[str, Any]]] = [
    ("1849", 3, 3, 0, 200, {"type": "bid", "entity": "P0", "company": "CNM", "price": 80}),
    ("1849", 3, 3, 0, 320, {"type": "bid", "entity": "P0", "company": "CNM", "price": 80}),
    (
        "1849",
        3,
        3,
        38,
        200,
        {
            "type": "buy_shares",
            "entity": "P2",
            "corporation": "CTL",
            "source": "treasury",
            "percent": 10,
        },
    ),
    (
        "1849",
        3,
        3,
        38,
        320,
        {
            "type": "buy_shares",
            "entity": "P2",
            "corporation": "CTL",
            "source": "treasury",
            "percent": 10,
        },
    ),
    (
        "1849",
        3,
        3,
        75,
        200,
        {
            "type": "buy_shares",
            "entity": "P0",
            "corporation": "IFT",
            "source": "treasury",
            "percent": 10,
        },
    ),
    (
        "1849",
        3,
        3,
        75,
        320,
        {
            "type": "buy_shares",
            "entity": "P0",
            "corporation": "IFT",
            "source": "treasury",
            "percent": 10,
        },
    ),
    ("1883", 4, 2, 0, 200, {"type": "bid", "entity": "P0", "company": "TMM", "price": 85}),
    ("1883", 4, 2, 0, 320, {"type": "bid", "entity": "P0", "company": "TMM", "price": 85}),
    (
        "1883",
        4,
        2,
        53,
        200,
        {
            "type": "buy_shares",
            "entity": "P0",
            "corporation": "FSMMF",
            "source": "pool",
            "percent": 10,
        },
    ),
    (
        "1883",
        4,
        2,
        53,
        320,
        {
            "type": "buy_shares",
            "entity": "P0",
            "corporation": "FSMMF",
            "source": "pool",
            "percent": 10,
        },
    ),
    (
        "1883",
        4,
        2,
        94,
        200,
        {
            "type": "buy_shares",
            "entity": "P1",
            "corporation": "FSMMF",
            "source": "pool",
            "percent": 10,
        },
    ),
    # Valued where each candidate's playout was cut off, buying FSF's pool share looked
    # better (-145 against -230); valued at the last round boundary both playouts reached
    # (search._compare), `medium`'s FSMMF plays out better (415 against 313) and stays.
    (
        "1883",
        4,
        2,
        94,
        320,
        {
            "type": "buy_shares",
            "entity": "P1",
            "corporation": "FSMMF",
            "source": "pool",
            "percent": 10,
        },
    ),
    ("1854", 4, 5, 0, 200, {"type": "bid", "entity": "P0", "company": "P5", "price": 195}),
    ("1854", 4, 5, 0, 320, {"type": "bid", "entity": "P0", "company": "P5", "price": 195}),
    (
        "1854",
        4,
        5,
        95,
        200,
        {
            "type": "buy_shares",
            "entity": "P3",
            "corporation": "SD",
            "source": "treasury",
            "percent": 20,
        },
    ),
    (
        "1854",
        4,
        5,
        95,
        320,
        {
            "type": "buy_shares",
            "entity": "P3",
            "corporation": "SD",
            "source": "treasury",
            "percent": 20,
        },
    ),
    (
        "1854",
        4,
        5,
        167,
        200,
        {
            "type": "buy_shares",
            "entity": "P0",
            "corporation": "KE",
            "source": "treasury",
            "percent": 10,
        },
    ),
    (
        "1854",
        4,
        5,
        167,
        320,
        {
            "type": "buy_shares",
            "entity": "P0",
            "corporation": "FJ",
            "source": "treasury",
            "percent": 20,
        },
    ),
]


def _played(title: str, players: int, seed: int, moves: int) -> Game:
    """`title` after `moves` actions of `medium` (the i-th with random.Random(i))."""
    game = new_game(title, [f"P{i}" for i in range(players)], seed)
    for i in range(moves):
        game.apply(MEDIUM.decide(game, random.Random(i))[0])
    return game


@pytest.mark.parametrize(("title", "players", "seed", "moves", "work", "pinned"), PINNED)
def test_the_ranking_leaves_hards_choice_as_it_was(
    title: str, players: int, seed: int, moves: int, work: int, pinned: dict[str, Any]
) -> None:
    """`choose` is `rank(...).choice`, and both give the choice pinned before the ranking
    existed; the ranking lists `medium`'s choice among the candidates, each played out."""
    game = _played(title, players, seed, moves)
    bot = SearchBot("pin", work)
    assert bot.choose(game, random.Random(7)) == action_from_json(pinned)
    ranking = bot.rank(game, random.Random(7))
    assert ranking.choice == action_from_json(pinned) and ranking.searched
    assert 0 in [c.rank for c in ranking.candidates]
    assert ranking.choice in [c.action for c in ranking.candidates]
    assert all(c.value is not None and c.stage >= 0 for c in ranking.candidates)
    last = [c for c in ranking.candidates if c.stage == search.STAGES - 1]
    assert tuple(last) == ranking.candidates[: len(last)]  # kept longest first, by value
    assert [c.value for c in last] == sorted((c.value for c in last), reverse=True)


def test_a_decision_the_search_leaves_to_medium_is_ranked_by_the_rules() -> None:
    """In an operating round `hard` plays `medium`'s choice: the ranking says so (not
    searched, nothing played out), `medium`'s choice first."""
    game = _played("1849", 3, 3, 60)
    assert game.state.round.kind == "operating"
    ranking = SearchBot("or", 200).rank(game, random.Random(7))
    assert not ranking.searched and ranking.choice == MEDIUM.choose(game, random.Random(7))
    assert ranking.candidates[0].action == ranking.choice
    assert all(c.value is None for c in ranking.candidates) and len(ranking.candidates) > 1


def test_a_hint_is_hards_choice_in_words_within_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stock-round hint: `hard`'s choice (at the hint's budget, on the hint's copy), in
    words with its evaluation and alternatives, within `HINT_WORK` units; the game is
    unchanged; asked again, the same hint."""
    game = _played("1849", 3, 3, 38)
    spent: list[int] = []
    play_on = search._play_on

    def counted(copy: Game, root: search._RoundMark, budget: int, crossed: Any = None) -> int:
        used = play_on(copy, root, budget, crossed)
        spent.append(max(0, used))
        return used

    monkeypatch.setattr(search, "_play_on", counted)
    before = game.state_hash()
    given = hint(game)
    assert game.state_hash() == before and len(game.actions) == 38
    assert 0 < sum(spent) <= hints.HINT_WORK
    seed = hints.hint_seed(game)
    expected = SearchBot("x", hints.HINT_WORK).rank(
        game.search_copy(reseed=seed), random.Random(seed)
    )
    assert given.suggestion.action == expected.choice
    words = Words(game)
    assert given.suggestion.text == words.text(expected.choice)
    assert given.suggestion.value is not None and given.alternatives
    data = given.to_dict(words)
    assert data["suggestion"]["text"] in data["text"] and data["text"].startswith("Hint for P2")
    assert "the best rival by L." in data["suggestion"]["value_text"]
    for alt in data["alternatives"]:
        assert alt["text"] and "_" not in alt["text"]  # words, never internal ids
    assert hint(game).to_dict(words) == data


def test_an_operating_hint_plays_its_candidates_out() -> None:
    """A tile lay's hint: `medium`'s lay (which `hard` plays), each candidate evaluated."""
    game = _played("1849", 3, 3, 60)
    given = hint(game)
    assert given.suggestion.action == MEDIUM.choose(game, random.Random(0))
    assert given.suggestion.text.startswith("Lay tile")
    assert given.suggestion.value is not None
    assert all(a.value is not None for a in given.alternatives)


def test_a_hint_never_reads_1883s_undrawn_cards_or_dice() -> None:
    """Two games alike but for the order of the undrawn event cards and the generator that
    rolls the dice get the same hint, in a stock round and in an operating round."""
    game = _played("1883", 4, 2, 94)
    for moves in (0, 40):
        for _ in range(moves):
            game.apply(MEDIUM.choose(game, random.Random(len(game.actions))))
        other = game.clone()
        deck = state_of(other).events.deck
        assert len(deck) > 1
        state_of(other).events.deck = list(reversed(deck))
        other.state.rng = make_rng(other.state.rng.name, 987_654)
        assert state_of(other).events.deck != state_of(game).events.deck
        assert hint(game).to_dict(Words(game)) == hint(other).to_dict(Words(other))
        # 2.3 d: a copy's undrawn order owes nothing to the real one (a shuffle of the real
        # order by a known seed, as words.py's effects use, could be undone)
        for seed in (0, 5):
            mine = state_of(game.search_copy(reseed=seed)).events.deck
            theirs = state_of(other.search_copy(reseed=seed)).events.deck
            assert mine == theirs and sorted(mine) == sorted(deck)


def test_a_hint_of_the_only_action_says_so() -> None:
    game = _played("1849", 3, 3, 0)
    while len(game.legal_actions()) != 1:
        game.apply(MEDIUM.choose(game, random.Random(len(game.actions))))
    given = hint(game)
    assert given.only and given.suggestion.action == game.legal_actions()[0]
    assert "(the only choice)" in given.text(Words(game))


# ---------------------------------------------------------------------- reviews
def _finished_1883() -> Game:
    """A finished 1883 game of 272 actions (a bankruptcy ends it)."""
    game = from_save(json.loads((SAMPLES / "1883-r2-s5-v1.json").read_text()))
    assert game.state.finished
    return game


def test_a_review_lists_each_players_decisions_of_largest_gain() -> None:
    """Every decision weighed (a position with more than one legal action), at most `top`
    per player, largest gain first, each gain positive, in the player's words; the same
    review every time."""
    game = _finished_1883()
    done: list[int] = []
    result = review(game, work=10, top=2, progress=lambda n, total: done.append(n))
    assert done == list(range(1, len(game.actions) + 1))
    assert set(result.players) == set(game.player_names)
    replay = new_game(
        game.title.name, game.player_names, game.seed, game.options, game.rules_version
    )
    decisions = 0
    for action in game.actions:
        decisions += len(replay.legal_actions()) > 1
        replay.apply(action)
    assert result.decisions == decisions
    listed = [m for missed in result.players.values() for m in missed]
    assert listed
    for player, missed in result.players.items():
        assert len(missed) <= 2
        assert [m.gain for m in missed] == sorted((m.gain for m in missed), reverse=True)
        for m in missed:
            assert m.player == player and m.gain > 0 and m.chosen != m.best
            assert 1 <= m.entry <= len(game.actions)
            assert m.chosen == _words_before(game, m.entry)
    assert review(game, work=10, top=2).to_dict() == result.to_dict()


def _words_before(game: Game, entry: int) -> str:
    """The words of the game's action of log entry `entry`, at its position."""
    replay = new_game(
        game.title.name, game.player_names, game.seed, game.options, game.rules_version
    )
    for action in game.actions[: entry - 1]:
        replay.apply(action)
    return Words(replay).text(game.actions[entry - 1])


def test_the_review_command_prints_each_players_decisions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tresham review SAVE` on a small save (the first 60 actions of an 1849 game) at a
    small budget: each player and their decisions, in words; --json the same facts; a
    budget that is no time is refused."""
    game = _played("1849", 3, 3, 60)
    path = tmp_path / "small.json"
    path.write_text(json.dumps(to_save(game)))
    assert main(["review", str(path), "--budget", "50ms", "--top", "2"]) == 0
    out = capsys.readouterr().out
    units = work_units(50, game.title)  # 50 ms at 1849's rate
    assert out.startswith(f"51 decisions reviewed at {units} work units each.")
    for player in game.player_names:
        assert f"\n{player}:\n" in out
    assert "; the search: " in out and "(+L." in out
    assert main(["review", str(path), "--budget", "50ms", "--top", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decisions"] == 51 and data["work"] == units
    assert set(data["players"]) == set(game.player_names)
    assert all(m["gain"] > 0 for ms in data["players"].values() for m in ms)
    assert main(["review", str(path), "--budget", "soon"]) == 2
    assert "--budget" in capsys.readouterr().err


# ---------------------------------------------------------------------- tresham play
def _keys(*keys: str) -> Callable[[Game], str]:
    """A person who types `keys`, one a prompt."""
    typed = iter(keys)
    return lambda _game: next(typed)


def test_the_terminal_gives_a_hint_when_hints_are_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --hints, ? prints the hint for the player to act; without, it is refused."""
    game = _played("1849", 3, 3, 38)
    path = tmp_path / "hint.json"
    path.write_text(json.dumps(to_save(game)))
    expected = hint(game).text(Words(game))
    for allowed in (True, False):
        argv = ["play", "1849", "--load", str(path)] + (["--hints"] if allowed else [])
        with monkeypatch.context() as patched:
            screen = scripted(patched, _keys("?", "q"))
            assert main(argv) == 0
        out = screen.getvalue()
        assert (expected in out) is allowed
        assert ("?=hint" in out) is allowed
        assert ("hints are off" in out) is not allowed
    assert json.loads(path.read_text())["actions"] == to_save(game)["actions"]
