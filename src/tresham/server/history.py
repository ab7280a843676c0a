"""A game's history for the table's charts: every corporation's share price and every
player's worth (the title's raw score: what the player would score if the game ended then)
at the start, after each operating round and at the end.

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


def _sample(game: Game, label: str) -> dict[str, Any]:
    s = game.state
    return {
        "label": label,
        "prices": {sym: s.market.price(sym) for sym in s.corps if sym in s.market},
        "worth": game.title.raw_scores(game),
    }


def _round_key(game: Game) -> tuple[str | None, int]:
    s = game.state
    return (s.round.kind if s.round is not None else None, s.operating_round_no)


def game_history(game: Game) -> dict[str, Any]:
    """``{"players", "corporations", "points": [{"label", "prices", "worth"}]}``: one point at
    the start (``"start"``), one after each operating round (``"OR n"``) and one for the end
    of a finished game (``"OR n (end)"`` when it ended in operating round n, else
    ``"(end)"``)."""
    key = (len(game.actions), game.state_hash())
    cached = _CACHE.get(game)
    if cached is not None and cached[:2] == key:
        return cached[2]
    replay = new_game(game.title.name, game.player_names, game.seed, game.options)
    points = [_sample(replay, "start")]
    current = _round_key(replay)
    for action in game.actions:
        replay.apply(action)
        after = _round_key(replay)
        if current[0] == "operating" and after != current:
            points.append(_sample(replay, f"OR {current[1]}"))
        current = after
    if replay.state.finished:
        ended_in = f"OR {current[1]} " if current[0] == "operating" else ""
        points.append(_sample(replay, f"{ended_in}(end)"))
    result = {
        "players": list(game.player_names),
        "corporations": list(game.state.corps),
        "points": points,
    }
    _CACHE[game] = (*key, result)
    return result
