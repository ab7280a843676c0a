"""A game's history for the table's charts: every corporation's share price, every player's
worth (the title's raw score: what the player would score if the game ended then) and every
corporation's revenue in the operating round just played, at the start, after each operating
round and at the end.

The engine keeps no such history; the live game's chronicle (``chronicle.py``) records these
facts as each log entry is applied, so the history is read from it, never replayed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.server.chronicle import Chronicle


def _point(
    label: str, prices: dict[str, int], worth: dict[str, int], revenue: dict[str, int]
) -> dict[str, Any]:
    return {"label": label, "prices": dict(prices), "worth": dict(worth), "revenue": dict(revenue)}


def game_history(game: Game, chronicle: Chronicle) -> dict[str, Any]:
    """``{"players", "corporations", "points": [{"label", "prices", "worth", "revenue"}]}``
    (``revenue``: by corporation, what it earned since the previous point): one point at
    the start (``"start"``), one after each operating round (``"OR n"``) and one for the end
    of a finished game (``"OR n (end)"`` when it ended in operating round n, else
    ``"(end)"``)."""
    s = game.state
    points = [_point("start", chronicle.start_prices, chronicle.start_worth, {})]
    ended_in = (
        s.operating_round_no
        if s.finished and s.round is not None and s.round.kind == "operating"
        else None
    )
    for n in sorted(chronicle.operating):
        mark = chronicle.operating[n]
        if mark.prices_after is None or mark.revenue is None or mark.worth_after is None:
            continue  # the round being played: no point until it ends
        label = f"OR {n} (end)" if n == ended_in else f"OR {n}"
        points.append(_point(label, mark.prices_after, mark.worth_after, mark.revenue))
    if s.finished and ended_in is None:
        prices = {sym: s.market.price(sym) for sym in s.corps if sym in s.market}
        points.append(_point("(end)", prices, game.title.raw_scores(game), {}))
    return {
        "players": list(game.player_names),
        "corporations": list(s.corps),
        "points": points,
    }
