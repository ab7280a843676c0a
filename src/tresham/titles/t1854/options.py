"""1854 §6.4.1 Buying Options: the state of the options markers.

Each player has one pair of options markers (rulings O1-O4 in docs/rulings/1854.md). With it
the player buys a 20% share, never a Director's certificate, for half its price, from the
initial offering or the Bank Pool. The certificate is the player's (it counts 20% for
floating, the sold-out rise and the Directorship), but until the second 10% is paid at the
same price the player buys nothing else, and it is not sold in the round it was bought. The
markers come back when the rest is paid, when the share is sold, or when the company's shares
split (the share then becomes a fully owned 10% share, seed l.179).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.titles.t1854.state import Option, state_of

if TYPE_CHECKING:
    from tresham.core.game import Game


def outstanding(game: Game, player: str) -> Option | None:
    """The player's unpaid option (certificate, company, price per 10%, round), if any."""
    return state_of(game).options.get(player)


def record(game: Game, player: str, cid: str, corp: str, price: int) -> None:
    """The markers go on certificate `cid`, bought for `price` (the price of 10%)."""
    state_of(game).options[player] = Option(cid, corp, price, game.state.stock_round_no)


def release(game: Game, player: str) -> None:
    """The player's markers come back (paid, sold, or split)."""
    del state_of(game).options[player]


def locked(game: Game, seller: str) -> frozenset[str]:
    """Certificates a sale by `seller` may neither sell nor take in an exchange: every unpaid
    option share, except the seller's own once its round is over (§6.4.1, ruling O3)."""
    s = game.state
    out = set()
    for player, opt in state_of(game).options.items():
        if player != seller or opt.round == s.stock_round_no:
            out.add(opt.cid)
    return frozenset(out)


def on_split(game: Game, corp: str) -> dict[str, int]:
    """§3.2.1 / seed l.179: a split makes each unpaid option share of `corp` a fully owned 10%
    share, paid nothing for; returns the percent per player not to be compensated."""
    s = game.state
    out: dict[str, int] = {}
    for player, opt in list(state_of(game).options.items()):
        if opt.corp == corp:
            out[player] = s.shares.certs[opt.cid].percent
            release(game, player)
    return out
