"""Random play with invariant checks after every action (`tresham simulate`)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tresham.bots.random_bot import choose
from tresham.core.actions import action_from_json
from tresham.core.game import Game
from tresham.core.shares import POOL
from tresham.io.save import from_save, new_game, to_save

MAX_ACTIONS = 50_000
#: Every this many actions, listing the legal actions must leave the state hash unchanged.
LISTING_CHECK_EVERY = 25


def check_invariants(game: Game, total_cash: int) -> list[str]:
    """Violations of the invariants that must hold after every action."""
    s = game.state
    out: list[str] = []
    cash = (
        s.bank.cash
        + game.title.cash_aside(game)
        + sum(p.cash for p in s.players)
        + sum(c.cash for c in s.corps.values())
    )
    if cash != total_cash:
        out.append(f"cash not conserved: {cash} != {total_cash}")
    # every certificate once: each corporation's add up to 100%, the pool's to 50% at most
    totals: dict[str, int] = {}
    pooled: dict[str, int] = {}
    for cid, cert in s.shares.certs.items():
        totals[cert.corp] = totals.get(cert.corp, 0) + cert.percent
        if s.shares.holder[cid] == POOL:
            pooled[cert.corp] = pooled.get(cert.corp, 0) + cert.percent
    for sym, corp in s.corps.items():
        total = totals.get(sym, 0)
        if total == 0 and corp.closed:
            continue  # it has left the game (e.g. merged)
        if total != 100:
            out.append(f"{sym} certificates sum to {total}%")
        if pooled.get(sym, 0) > 50 and not game.title.pool_may_exceed(game, sym):
            out.append(f"{sym} pool holds more than 50%")
    out.extend(f"certificates of unknown {sym}" for sym in totals.keys() - s.corps.keys())
    if not s.finished and game.acting_player() is None:
        out.append(f"no player decides for {game.active_entity()}")
    for p in s.players:
        if p.cash < 0:
            out.append(f"{p.name} has negative cash {p.cash}")
    # what a prompt waiting for an entity lets it be beyond (Prompt.allows): over its train
    # limit while it discards, below zero while it pays a debt (1849's unpaid bond interest)
    excused = {(e, what) for k, e in s.pending for what in game.title.prompt(k).allows}
    for sym, c in s.corps.items():
        if c.cash < 0 and (sym, "cash") not in excused:
            out.append(f"{sym} has negative cash {c.cash}")
        if c.unplaced_tokens < 0:
            out.append(f"{sym} placed more tokens than it owns")
        over = c.trains and game.title.trains_toward_limit(game, sym) > game.phase.limit(c.kind)
        if over and (sym, "trains") not in excused:
            out.append(f"{sym} holds {len(c.trains)} trains over the limit")
    out.extend(game.title.limit_violations(game))
    return out


@dataclass
class SimResult:
    """Totals of a simulation run."""

    title: str
    games: int = 0
    finished: int = 0
    invariant_violations: int = 0
    errors: int = 0
    actions: int = 0
    seconds: float = 0.0
    failures: list[dict[str, Any]] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """The JSON summary line."""
        return {
            "title": self.title,
            "games": self.games,
            "finished": self.finished,
            "invariant_violations": self.invariant_violations,
            "errors": self.errors,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            **self.counters,
        }


class Reload:
    """The game saved (as JSON text) and loaded again, kept up to date along the game: the
    first check loads the save, replaying its log; each later check replays only the actions
    saved since, read back from JSON as loading does. Loading a save is exactly that replay,
    so each check equals a full reload while every action is replayed only once."""

    def __init__(self) -> None:
        self.loaded: Game | None = None

    def problem(self, game: Game) -> str | None:
        """Save and reload (or catch up): the state must be identical."""
        data = json.loads(json.dumps(to_save(game)))
        if self.loaded is None:
            self.loaded = from_save(data)
        else:
            new = data["actions"][len(self.loaded.actions) :]
            self.loaded.apply_all(action_from_json(raw) for raw in new)
        if self.loaded.state_hash() != game.state_hash():
            return "the state after a save and reload differs"
        return None


def play_one(
    title: str,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    roundtrip_every: int = 0,
) -> tuple[Game, list[str], str | None]:
    """Play one random game; returns the game, violations found, and an error text. With
    `roundtrip_every`, every that many actions and at the end the game is saved and reloaded
    and must come back identical."""
    names = [f"P{i + 1}" for i in range(players)]
    game = new_game(title, names, seed, options)
    rng = random.Random(seed * 7919 + 1)
    total = (
        game.state.bank.cash
        + sum(p.cash for p in game.state.players)
        + sum(c.cash for c in game.state.corps.values())
    )
    violations: list[str] = []
    reload = Reload()
    try:
        for _ in range(MAX_ACTIONS):
            if game.state.finished:
                break
            listed = len(game.actions) % LISTING_CHECK_EVERY == 0
            before = game.state_hash() if listed else ""
            action = choose(game, rng)
            changed = listed and game.state_hash() != before
            game.apply(action)
            found = check_invariants(game, total)
            if changed:
                found.append("listing the legal actions changed the state")
            due = roundtrip_every and (
                len(game.actions) % roundtrip_every == 0 or game.state.finished
            )
            if due and not found:
                problem = reload.problem(game)
                found = [problem] if problem else []
            if found:
                violations.extend(f"action {len(game.actions)}: {v}" for v in found)
                break
        else:
            return game, violations, f"no end after {MAX_ACTIONS} actions"
    except Exception as exc:  # report, never crash the run
        return game, violations, f"{type(exc).__name__}: {exc}"
    return game, violations, None


def simulate(
    title: str,
    games: int,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
    roundtrip_every: int = 0,
) -> SimResult:
    """Play `games` random games and total the results (see :func:`play_one`)."""
    result = SimResult(title)
    start = time.perf_counter()
    for i in range(games):
        game, violations, error = play_one(title, players, seed + i, options, roundtrip_every)
        result.games += 1
        result.actions += len(game.actions)
        result.invariant_violations += len(violations)
        for name, count in game.title.counters(game).items():
            result.counters[name] = result.counters.get(name, 0) + count
        if error:
            result.errors += 1
        if game.state.finished and not violations and not error:
            result.finished += 1
        if violations or error:
            result.failures.append(
                {"seed": seed + i, "game": game, "problem": error or violations[0]}
            )
        if progress:
            progress(i + 1)
    result.seconds = time.perf_counter() - start
    return result
