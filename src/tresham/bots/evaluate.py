"""How a bot values a position: each player's worth as the title scores it now, plus what the
shares and privates they hold should still earn before the game ends.

- A corporation's earning power is its last revenue while it keeps its trains (0 without a
  train), or what its trains would run now when it last ran without one.
- The game's remaining length is estimated from the phase: early phases leave many operating
  rounds, the last ones few (:func:`horizon`).
- A treasury's money counts for its holders at :data:`TREASURY` of its amount.
- A player's *standing* is their worth less the best opponent's: what a bot tries to raise.

The *fitted* evaluation (:func:`fitted_worth`, :func:`fitted_standing`) weighs the same
kinds of prospect (:func:`features`, :func:`design`: dividends over the rounds left, those of
trains about to rust, the treasuries' money, privates' revenue) with weights fitted per title
on self-play games by ``tools/fit_evaluation.py`` (``bots/data/evaluation.json``): what each
says about a player's final score beyond their score now, relative to the others'. A title
without weights falls back on :func:`worth`.

Everything here reads the state only; nothing is title-specific beyond the title's own
scores (`Title.raw_scores`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tresham.core.game import Game

#: The share of a revenue a corporation is expected to pay out.
PAYOUT = 0.8
#: What a treasury's money is worth to the holders, per unit (it buys the trains that earn).
TREASURY = 0.6


def horizon(game: Game) -> float:
    """About how many operating rounds remain: most in the first phase, few in the last."""
    phases = len(game.title.phases)
    left = phases - game.state.phase_index
    return max(1.5, 2.5 * left)


def earning(game: Game, corp: str) -> int:
    """A corporation's expected revenue per operating round: its last one while it owns a
    train, or what its trains would run now when it last ran without one (a corporation
    buys its first train after its first run)."""
    c = game.state.corps[corp]
    if c.closed or not c.trains:
        return 0
    if c.revenue_history and c.revenue_history[-1] > 0:
        return c.revenue_history[-1]
    return game.title.best_routes(game, corp).revenue


def share_value(game: Game, corp: str, rounds: float | None = None) -> float:
    """What 10% of `corp` is worth to its holder: its price and its expected dividends."""
    s = game.state
    if corp not in s.market:
        return 0.0
    rounds = horizon(game) if rounds is None else rounds
    per_share = earning(game, corp) * s.corps[corp].share_unit / 100
    return s.market.price(corp) + PAYOUT * per_share * rounds


def worth(game: Game) -> dict[str, float]:
    """Every player's expected worth at the end: the title's score now, plus the dividends
    their shares and the revenue their privates should still bring."""
    s = game.state
    rounds = horizon(game)
    out: dict[str, float] = {k: float(v) for k, v in game.title.raw_scores(game).items()}
    for p in s.players:
        if p.name not in out:
            continue
        future = 0.0
        for cert in s.shares.held(p.name):
            if cert.corp in s.market:
                per = earning(game, cert.corp) * cert.percent / 100
                future += PAYOUT * per * rounds
                future += TREASURY * s.corps[cert.corp].cash * cert.percent / 100
        for comp in s.companies.values():
            if comp.owner == p.name and not comp.closed:
                future += comp.revenue * min(rounds, 6.0)
        out[p.name] += future
    return out


def standing(game: Game, player: str) -> float:
    """`player`'s expected worth less the best opponent's."""
    values = worth(game)
    mine = values.get(player, 0.0)
    others = [v for k, v in values.items() if k != player]
    return mine - (max(others) if others else 0.0)


#: The facts of a player's position the fitted evaluation reads, in this order: the title's
#: score now; the dividends per operating round of their shares at their corporations'
#: earning now (:func:`earning`); the part of those dividends earned by trains that rust on
#: the next two types of train the bank sells (:func:`doomed`); their part of the
#: treasuries' money; their privates' revenue per operating round.
FACTS = ("score", "dividends", "at_risk", "treasury", "privates")
#: What the fitted weights weigh, in their order (:func:`design`): the dividends over the
#: operating rounds left (:func:`horizon`), those at risk over the same, the treasuries'
#: money, the privates' revenue over the rounds left (six at most, as :func:`worth` counts).
FEATURES = ("dividends_left", "at_risk_left", "treasury", "privates_left")


def doomed(game: Game) -> set[str]:
    """The types of train that rust (or leave the game) when one of the next two types the
    bank sells is first bought."""
    depot = game.state.depot
    upcoming: list[str] = []
    for train in depot.in_bank():
        if train.kind not in upcoming:
            upcoming.append(train.kind)
        if len(upcoming) == 2:
            break
    return {k for k, t in depot.types.items() if t.rusts_on in upcoming}


def _at_risk(game: Game, corp: str, gone: set[str]) -> float:
    """The share of `corp`'s trains of the types in `gone`."""
    trains = game.state.corps[corp].trains
    if not trains:
        return 0.0
    kinds = game.state.depot.trains
    return sum(1 for t in trains if kinds[t].kind in gone) / len(trains)


def features(game: Game) -> dict[str, tuple[float, ...]]:
    """Every scored player's :data:`FACTS` now."""
    s = game.state
    earns = {c: earning(game, c) for c in s.market.corporations() if not s.corps[c].closed}
    gone = doomed(game)
    risk = {c: _at_risk(game, c, gone) for c in earns}
    scores = game.title.raw_scores(game)
    out: dict[str, tuple[float, ...]] = {}
    for p in s.players:
        if p.name not in scores:
            continue
        dividends = at_risk = treasury = 0.0
        for cert in s.shares.held(p.name):
            if cert.corp in earns:
                dividends += earns[cert.corp] * cert.percent / 100
                at_risk += risk[cert.corp] * earns[cert.corp] * cert.percent / 100
                treasury += s.corps[cert.corp].cash * cert.percent / 100
        privates = sum(
            c.revenue for c in s.companies.values() if c.owner == p.name and not c.closed
        )
        out[p.name] = (float(scores[p.name]), dividends, at_risk, treasury, float(privates))
    return out


def design(facts: tuple[float, ...], rounds: float) -> tuple[float, ...]:
    """The fitted evaluation's inputs (:data:`FEATURES`) of one player with these
    :data:`FACTS`, `rounds` operating rounds from the end (:func:`horizon`)."""
    _, dividends, at_risk, treasury, privates = facts
    return (dividends * rounds, at_risk * rounds, treasury, privates * min(rounds, 6.0))


def predict(
    weights: tuple[float, ...] | list[float], facts: tuple[float, ...], rounds: float
) -> float:
    """A player's final score as `weights` predict it from their `facts` (up to a constant
    shared by all players): their score now plus what the weighted inputs say it will gain
    (so that, with no weights, it is the score now)."""
    return facts[0] + sum(w * x for w, x in zip(weights, design(facts, rounds), strict=True))


@cache
def _weights() -> dict[str, tuple[float, ...]]:
    """The fitted weights per title (``bots/data/evaluation.json``)."""
    path = resources.files("tresham.bots") / "data" / "evaluation.json"
    if not path.is_file():
        return {}
    data = json.loads(path.read_text())
    if tuple(data["features"]) != FEATURES:
        raise ValueError("bots/data/evaluation.json: fitted on other features; refit it")
    return {title: tuple(entry["weights"]) for title, entry in data["titles"].items()}


def fitted_worth(game: Game) -> dict[str, float]:
    """Every player's final score relative to the others' as the fitted weights predict it
    (up to a constant shared by all players); :func:`worth` for a title without weights."""
    weights = _weights().get(game.title.name)
    if weights is None:
        return worth(game)
    rounds = horizon(game)
    return {name: predict(weights, facts, rounds) for name, facts in features(game).items()}


def fitted_standing(game: Game, player: str) -> float:
    """`player`'s fitted worth less the best opponent's."""
    values = fitted_worth(game)
    mine = values.get(player, 0.0)
    others = [v for k, v in values.items() if k != player]
    return mine - (max(others) if others else 0.0)
