"""A game's history for the table's charts: every corporation's share price, every player's
worth (the title's raw score: what the player would score if the game ended then) and every
corporation's revenue in the operating round just played, at the start, after each operating
round and at the end.

The engine keeps no such history, so it is rebuilt by replaying the game's actions on a fresh
game of the same set-up; the answer is kept per game until its log changes.
"""

from __future__ import annotations

import weakref
from typing import Any

from tresham.core.game import Game
from tresham.io.save import new_game

_CACHE: weakref.WeakKeyDictionary[Game, tuple[int, str, dict[str, Any]]] = (
    weakref.WeakKeyDictionary()
)


def _sample(game: Game, label: str, seen: dict[str, int]) -> dict[str, Any]:
    """The point `label`; `seen` counts each corporation's revenues already shown (updated),
    so that a point shows the revenues earned since the previous one."""
    s = game.state
    revenue: dict[str, int] = {}
    for sym, corp in s.corps.items():
        new = corp.revenue_history[seen.get(sym, 0) :]
        if new:
            revenue[sym] = sum(new)
        seen[sym] = len(corp.revenue_history)
    return {
        "label": label,
        "prices": {sym: s.market.price(sym) for sym in s.corps if sym in s.market},
        "worth": game.title.raw_scores(game),
        "revenue": revenue,
    }


def _round_key(game: Game) -> tuple[str | None, int]:
    s = game.state
    return (s.round.kind if s.round is not None else None, s.operating_round_no)


def game_history(game: Game) -> dict[str, Any]:
    """``{"players", "corporations", "points": [{"label", "prices", "worth", "revenue"}]}``
    (``revenue``: by corporation, what it earned since the previous point): one point at
    the start (``"start"``), one after each operating round (``"OR n"``) and one for the end
    of a finished game (``"OR n (end)"`` when it ended in operating round n, else
    ``"(end)"``)."""
    key = (len(game.actions), game.state_hash())
    cached = _CACHE.get(game)
    if cached is not None and cached[:2] == key:
        return cached[2]
    replay = new_game(
        game.title.name, game.player_names, game.seed, game.options, game.rules_version
    )
    seen: dict[str, int] = {}
    points = [_sample(replay, "start", seen)]
    current = _round_key(replay)
    for action in game.actions:
        replay.apply(action)
        after = _round_key(replay)
        if current[0] == "operating" and after != current:
            points.append(_sample(replay, f"OR {current[1]}", seen))
        current = after
    if replay.state.finished:
        ended_in = f"OR {current[1]} " if current[0] == "operating" else ""
        points.append(_sample(replay, f"{ended_in}(end)", seen))
    result = {
        "players": list(game.player_names),
        "corporations": list(game.state.corps),
        "points": points,
    }
    _CACHE[game] = (*key, result)
    return result
