"""1854 §3.2.1 Share Splitting (the rulebook lost the paragraph: missing-rules §5 rebuilds it;
docs/rulings/1854.md P1-P4 say what tresham decided).

A major's shares split the first time its marker enters a split space of the chart: every
certificate is turned over to half its size (the 40% Director's certificate becomes 20%, each
20% share 10%), and the five 10% shares set aside (§2.4) come into play in the "Split Shares"
section. For each 10% a player holds after the flip the bank pays the current price, so no
one's holding loses value. From then on a player may hold at most 60% of the company (§6.5),
the share limit rises by one column of Table 7 (§6.5), and the company does not rise at the
end of a Share Buying Round while split shares remain unsold (§7).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from tresham.core.market import Position
from tresham.core.shares import Certificate
from tresham.titles.t1854 import options
from tresham.titles.t1854.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game

SPLIT_SPACE: Final = "share_split"
#: §6.5: after a split a player may own at most 60% of the company.
HOLDING_CAP_AFTER_SPLIT: Final = 60


def split_holder(sym: str) -> str:
    """The holder name of a company's "Split Shares" section (§2.4)."""
    return f"split:{sym}"


def has_split(game: Game, sym: str) -> bool:
    """Whether `sym`'s shares have split."""
    return sym in state_of(game).split


def after_move(game: Game, sym: str, entered: Sequence[Position], new_shares: int) -> None:
    """Split `sym` if a move of its marker entered a split space and it has not split yet
    (ruling P1: the dividend and sold-out moves)."""
    market = game.state.market.market
    if not has_split(game, sym) and any(market.cell(p).has(SPLIT_SPACE) for p in entered):
        split(game, sym, new_shares)


def split(game: Game, sym: str, new_shares: int) -> None:
    """Turn every certificate of `sym` over to half its size, put `new_shares` 10% shares in
    the Split Shares section, and pay each player the current price per 10% now held
    (ruling P2; the pool's and the initial offering's certificates flip unpaid, and so does
    a share bought on option, which becomes fully owned, §6.4.1)."""
    s = game.state
    reg = s.shares
    for cert in reg.corp_certs(sym):
        reg.resize(cert.cid, cert.percent // 2)
    first = len(reg.corp_certs(sym))
    for i in range(first, first + new_shares):
        reg.add_certificate(Certificate(f"{sym}_{i}", sym, 10), split_holder(sym))
    state_of(game).split.append(sym)
    price = s.market.price(sym)
    game.log(f"The shares of {sym} split at {price} G")
    unpaid = options.on_split(game, sym)
    for p in s.players:
        tens = (reg.percent(p.name, sym) - unpaid.get(p.name, 0)) // 10
        if tens:
            game.transfer("bank", p.name, tens * price)
            game.log(f"{p.name} receives {tens * price} G for {tens * 10}% of {sym}")
