"""Ruling S27: what a stock-round sale that closes a corporation does to the stock round's
turns, as 18xx.games plays it ("18xx.games" rule set, from rules version 10).

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
whether to go on, so ``next_entity!`` is not called again. Each of these passes is a turn
lost, also by a player who could act once the corporation has closed (random game 5 players
seed 432: P2, at the certificate limit only with his share of the corporation).

Where the last of these passes is the seller's own new turn, every player has now passed and
the site's stock round is over without the end that ``Round::Stock#next_entity!`` makes when
it finds every player passed (one more move on, "to be back to the priority deal player",
then ``finish_round``, the stock round's price moves). So the end-of-round share price moves
are not made, and the next stock round's priority deal (``Game::Base#reorder_players``,
``:after_last_to_act``, read at the round's ``entity_index``) goes to the seller, the last
player passed, not to the player after him. Where every player passes earlier in that chain,
the round ends as any round does; otherwise it goes on after the last pass (a stalled round
waits for its next action, which tresham's exports supply as a chat line).

The summary's rule set and saves of earlier versions keep the rulebook's turns: the seller
plays his turn out, each player after him plays his, and the end of the round makes its price
moves and gives the priority deal to the player after the last to buy or sell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Sweep:
    """What the site's stock round makes of a sale into "Closed" (ruling S27): the seller's
    turn ends, then the turns of `passes`, the players after him in turn order, are passes;
    with `at_once`, every player has then passed and the round ends without its end (no
    price moves, the priority deal to the seller)."""

    seller: str
    passes: tuple[str, ...]
    at_once: bool


def closing_sweep(
    game: Game, rnd: StockRound, seller: str, corp: str, close: Callable[[], None]
) -> Sweep | None:
    """The site's passes after the seller's sale took `corp`'s price into the "Closed" box
    (still open: `close` closes it, in any case), or None where the seller's turn goes on
    (he could act with `corp` open, or the sale put a question to him, ruling S24).

    With `corp` open at L.0, each player after the seller who can do nothing passes, up to
    the first who can (the seller himself at a new turn where no one else can). Once `corp`
    is closed, that player, if he can no longer act, passes too, and so does the next one
    if he cannot act either; there it stops. If the seller's new turn is the last of these
    passes, every player has passed at once and the round ends without its end (S27's
    `at_once`); where all pass earlier in that chain, the round ends as any round does."""
    players = [p for p in rnd.order if not game.player(p).bankrupt]

    def sold(player: str) -> list[str]:
        return [*rnd.sold_by[player], *([corp] if player == seller else [])]

    if len(players) < 2 or seller not in players or game.state.pending:
        close()
        return None
    if could_act(game, seller, sold(seller)):
        close()
        return None
    at = players.index(seller)
    turns = [players[(at + k) % len(players)] for k in range(1, len(players) + 1)]
    passes: list[str] = []
    first = None
    for player in turns:  # the others, then the seller at a new turn
        if could_act(game, player, sold(player)):
            first = player
            break
        passes.append(player)
    close()
    if first is None or could_act(game, first, sold(first)):
        return Sweep(seller, tuple(passes), at_once=False)
    passes.append(first)
    if first == seller:  # every player has passed: the round's own end
        return Sweep(seller, tuple(passes), at_once=False)
    after = players[(players.index(first) + 1) % len(players)]
    if could_act(game, after, sold(after)):
        return Sweep(seller, tuple(passes), at_once=False)
    return Sweep(seller, (*passes, after), at_once=after == seller)
