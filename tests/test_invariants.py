"""`tresham simulate`'s invariants (issue 9): each check names what it finds broken, so a
corrupted state can never pass as clean."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tresham.bots.random_bot import choose
from tresham.core.game import Game
from tresham.core.shares import POOL, Certificate
from tresham.io.save import new_game
from tresham.sim import check_invariants


def midgame() -> tuple[Game, int, str]:
    """A 1849 game after 400 random actions, the money in play, and a corporation with
    trains."""
    game = new_game("1849", ["A", "B", "C"], 9)
    rng = random.Random(9)
    while len(game.actions) < 400:
        game.apply(choose(game, rng))
    s = game.state
    total = s.bank.cash + sum(p.cash for p in s.players) + sum(c.cash for c in s.corps.values())
    sym = next(sym for sym, c in s.corps.items() if c.trains)
    return game, total, sym


def _spoil_pool(game: Game, sym: str) -> None:
    for cert in game.state.shares.corp_certs(sym):
        if not cert.president:
            game.state.shares.move(cert.cid, POOL)


def _stray_certificate(game: Game, sym: str) -> None:
    game.state.shares.add_certificate(Certificate("ZZZ_0", "ZZZ", 10), POOL)


def _lose_certificate(game: Game, sym: str) -> None:
    shares = game.state.shares
    cert = next(c for c in shares.corp_certs(sym) if not c.president)
    shares.resize(cert.cid, 0)


def _extra_trains(game: Game, sym: str) -> None:
    game.state.corps[sym].trains.extend(f"extra-{i}" for i in range(5))


SPOILERS: dict[str, tuple[Callable[[Game, str], None], str]] = {
    "cash": (lambda g, sym: setattr(g.state.bank, "cash", g.state.bank.cash + 10), "cash not"),
    "player cash": (
        lambda g, sym: setattr(g.state.players[0], "cash", -5),
        "A has negative cash -5",
    ),
    "corporation cash": (
        lambda g, sym: setattr(g.state.corps[sym], "cash", -1),
        "has negative cash -1",
    ),
    "lost certificate": (_lose_certificate, "certificates sum to"),
    "stray certificate": (_stray_certificate, "certificates of unknown ZZZ"),
    "pool": (_spoil_pool, "pool holds more than 50%"),
    "train limit": (_extra_trains, "trains over the limit"),
    "tokens": (
        lambda g, sym: setattr(g.state.corps[sym], "tokens", len(g.state.corps[sym].placed) - 1),
        "placed more tokens than it owns",
    ),
}


def test_a_clean_game_has_no_violations() -> None:
    game, total, _sym = midgame()
    assert check_invariants(game, total) == []


@pytest.mark.parametrize("broken", sorted(SPOILERS))
def test_each_broken_invariant_is_reported(broken: str) -> None:
    game, total, sym = midgame()
    spoil, expected = SPOILERS[broken]
    spoil(game, sym)
    found = check_invariants(game, total)
    assert any(expected in v for v in found), found


@pytest.mark.parametrize(
    ("kind", "broken", "expected"),
    [
        ("discard", "train limit", "trains over the limit"),  # core's train limit prompt
        ("debt", "corporation cash", "has negative cash -1"),  # 1849's unpaid interest
    ],
)
def test_a_waiting_prompt_excuses_only_what_it_puts_right(
    kind: str, broken: str, expected: str
) -> None:
    """A corporation over its train limit while it is asked to discard, or below zero while
    it is asked to pay its debt, is no violation (`Prompt.allows`); the other limit still is,
    and so is the same break with the prompt waiting for another corporation."""
    game, total, sym = midgame()
    SPOILERS[broken][0](game, sym)
    game.state.pending.append((kind, sym))
    assert not any(expected in v for v in check_invariants(game, total))
    other = "trains over the limit" if broken == "corporation cash" else "has negative cash -1"
    SPOILERS["corporation cash" if broken == "train limit" else "train limit"][0](game, sym)
    assert any(other in v for v in check_invariants(game, total))
    game.state.pending[-1] = (kind, next(c for c in game.state.corps if c != sym))
    assert any(expected in v for v in check_invariants(game, total))
