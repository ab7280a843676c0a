"""Ruling S27: a stock-round sale that closes a corporation can end the stock round at once,
as 18xx.games plays it ("18xx.games" rule set, from rules version 10).

The site closes a corporation whose price a sale takes into the "Closed" box only after the
action (``Game::Base#action_processed``, ``close_corporations_in_close_cell!``). Before that,
its stock round has already moved on as after any action (``Round::Stock#next_entity!`` and
``start_entity``): the seller's turn ends where he can do nothing more, and each player after
him who can do nothing is passed ("has no valid actions and passes"), up to the first who
can act, judged while the corporation is still open at L.0 (who could buy one of its shares,
or sell his). Its step is then the active step the round remembers (``Round::Base#
active_step``, cleared only as the next action is processed). Once the corporation has
closed, if that player can no longer act, the site passes him too (``skip_steps``) and moves
to the next player once more (``next_entity!``); that player, at the start of his turn, is
passed if he can do nothing, and there it stops: ``start_entity`` asks the remembered step
whether to go on, so ``next_entity!`` is not called again.

Where the first player able to act was the one just before the seller, that next player is
the seller himself: every player has now passed, and the site's stock round is over without
the end that ``Round::Stock#next_entity!`` makes when it finds every player passed (one more
move on, "to be back to the priority deal player", then ``finish_round``, the stock round's
price moves). So the end-of-round share price moves are not made, and the next stock round's
priority deal (``Game::Base#reorder_players``, ``:after_last_to_act``, read at the round's
``entity_index``) goes to the seller, the last player passed, not to the player after him.
Everywhere else the site's round goes on as tresham's does (the stalled round waits for its
next action, which tresham's exports supply as a chat line).

The summary's rule set and saves of earlier versions keep the rulebook's end: the price moves,
and the priority deal to the player after the last to buy or sell.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.core.rounds.stock import StockRound


def could_act(game: Game, player: str, sold: list[str]) -> bool:
    """Whether `player`, at a stock-round turn with no purchase made yet, could do anything but
    pass: sell (he must, above the certificate limit), or buy a certificate (not of the
    corporations in `sold`), start a corporation or make another purchase (the site's
    ``BuySellParShares#actions``, which then lists more than a pass)."""
    title = game.title
    if any(title.sell_bundles(game, player, c) for c in title.sellable_corps(game, player)):
        return True
    if title.over_cert_limit(game, player):
        return False
    return bool(
        title.buy_options(game, player, sold)
        or title.par_options(game, player)
        or title.other_purchases(game, player)
    )


def sale_ends_round(
    game: Game, rnd: StockRound, seller: str, corp: str, close: Callable[[], None]
) -> bool:
    """Whether the seller's sale, which took `corp`'s price into the "Closed" box (still open:
    `close` closes it), ends the stock round at once as on the site: the seller can do
    nothing more, nor can any player after him but the one just before him, while `corp` is
    open at L.0 (a question the sale put to the seller, ruling S24, is one more action of
    his); once it is closed, neither that player nor the seller (at a new turn) can do
    anything. Calls `close` in any case."""
    players = [p for p in rnd.order if not game.player(p).bankrupt]
    if len(players) < 2 or seller not in players:
        close()
        return False
    at = players.index(seller)
    *between, last = [players[(at + k) % len(players)] for k in range(1, len(players))]

    def sold(player: str) -> list[str]:
        return [*rnd.sold_by[player], *([corp] if player == seller else [])]

    turns = (seller, *between, last)
    # the seller's presidency question (S24) is an action of his
    asked = seller if game.state.pending else None
    first = asked or next((p for p in turns if could_act(game, p, sold(p))), None)
    close()
    if first != last:
        return False
    return not could_act(game, last, sold(last)) and not could_act(game, seller, sold(seller))
