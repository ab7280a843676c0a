"""The order of a corporation's station tokens as the site keeps them (ruling S25).

The site's engine holds a corporation's tokens as objects in its charter's order (the home
token first). A token placed is always the first one off the map (``Operator#next_token``,
and ``unplaced_tokens.first`` for a token bought from another corporation,
``G1849::Step::BuyToken#process_buy_token``); a token bought from it (``Token#remove!``)
stays in its place in that order, off the map, so the corporation's next token placed is that
one again, wherever it goes; the Messina earthquake takes the tokens there out of the order
for good (``Token#destroy!``, ``G1849::Game#event_earthquake!``). A corporation closed starts
again with a fresh charter (``G1849::Game#close_corporation``, ``reset_corporation``).

Only the order's first token matters to the rules: it is the token the corporation may not
sell (§14.1, ``can_sell_token?`` and ``can_replace_token?``), which after the earthquake has
destroyed AFG's home token in Messina is no longer the home token (``variant_steps.token_home``).

In the "18xx.games" rule set from rules version 10 (``site_seventh_round``), tresham keeps
that order (``State1849.token_objects``) for each corporation that has sold a token since it
started: until then no token of it was ever off the map between two on it, so its tokens on
the map in the order placed (``Corporation.placed``) are the site's order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.titles.t1849.rule_set import site_seventh_round
from tresham.titles.t1849.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game

Place = tuple[str, int]


def order(game: Game, corp: str) -> list[Place | None]:
    """`corp`'s tokens in the site's order: the place of each on the map, None for one off it
    (bought from it and not placed again); tokens never placed are left out."""
    kept = state_of(game).token_objects.get(corp)
    if kept is not None:
        return list(kept)
    return list(game.state.corps[corp].placed)


def placed(game: Game, corp: str, where: Place) -> None:
    """`corp` puts a token on the map at `where`: the first of its tokens off the map in the
    site's order takes it (ruling S25)."""
    kept = state_of(game).token_objects.get(corp)
    if kept is None:  # its tokens on the map in the order placed are the site's order
        return
    if None in kept:
        kept[kept.index(None)] = where
    else:
        kept.append(where)


def sold(game: Game, corp: str, where: Place) -> None:
    """`corp`'s token at `where` (still in ``Corporation.placed``) is bought from it: in the
    "18xx.games" rule set from rules version 10, it stays in its place in the site's order,
    off the map (ruling S25)."""
    if not site_seventh_round(game):
        return
    tokens = state_of(game).token_objects
    kept = tokens.setdefault(corp, list(game.state.corps[corp].placed))
    kept[kept.index(where)] = None


def destroyed(game: Game, corp: str, where: Place) -> None:
    """The Messina earthquake takes `corp`'s token at `where` out of the order for good."""
    kept = state_of(game).token_objects.get(corp)
    if kept is not None:
        kept.remove(where)


def forget(game: Game, corp: str) -> None:
    """`corp` closes: it starts again with a fresh charter."""
    state_of(game).token_objects.pop(corp, None)
