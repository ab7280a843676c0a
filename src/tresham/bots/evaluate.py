"""How a bot values a position: each player's worth as the title scores it now, plus what the
shares and privates they hold should still earn before the game ends.

- A corporation's earning power is its last revenue while it keeps its trains (0 without a
  train), or what its trains would run now when it last ran without one.
- The game's remaining length is estimated from the phase: early phases leave many operating
  rounds, the last ones few (:func:`horizon`).
- A treasury's money counts for its holders at :data:`TREASURY` of its amount.
- A player's *standing* is their worth less the best opponent's: what a bot tries to raise.

Everything here reads the state only; nothing is title-specific beyond the title's own
scores (`Title.raw_scores`).
"""

from __future__ import annotations

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
