"""1854 §3.1.2 (lost; missing-rules §2) and §5: the six Local Railways.

A Local Railway is a private certificate (Table 2) that is also a small company: bought, it
starts with 150 G from the bank (missing-rules §2.9; the price paid went to the bank), places
its free home station on the extra map when it first operates, builds there only (§5.3),
may buy one more station for 40 G (§5.5), operates before the Major Companies in ascending
order (§5.1), runs only plus trains, which count only the large stations (§5.6), keeps half
its income and pays the other half to its owner (§5.7), never has to own a train (§5.9), and
buys only plus trains (ruling L2). From Phase 5 it may merge into a Major Local Railway or
close, and from Phase 6 it must (§5.10, ``major_local.py``); when no Local Railway is left,
the extra map's tiles return to the supply (§5.3).

The share registry holds a single 100% certificate for each, kept by the railway itself
(``local:<SYM>``): the private certificate is what its owner holds and counts (§6.5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from tresham.core.entities import Corporation
from tresham.titles.t1854.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.core.shares import ShareRegistry

KIND: Final = "local"
RULE: Final = "1854 §3.1.2"


def holder(sym: str) -> str:
    """Where a Local Railway's 100% certificate is kept (never a player's, ruling L1)."""
    return f"local:{sym}"


def create(corps: dict[str, Corporation], shares: ShareRegistry, data: dict[str, object]) -> None:
    """Add the Local Railway of a private's data (`kind` "local") to the companies."""
    sym = str(data["sym"])
    home = data["home"]
    assert isinstance(home, list)
    corps[sym] = Corporation(sym, str(data["name"]), kind=KIND, tokens=2, home=str(home[0]))
    shares.add_corporation(sym, [100], False, holder(sym))


def is_local(game: Game, corp: str) -> bool:
    """Whether `corp` is a Local Railway."""
    return game.state.corps[corp].kind == KIND


def owner(game: Game, corp: str) -> str | None:
    """A Local Railway's owner: the holder of its private certificate."""
    return game.state.companies[corp].owner


def start(game: Game, sym: str, start_cash: int) -> None:
    """Bought: the Local Railway receives its starting capital from the bank and will operate
    in the next Operating Round (missing-rules §2.9)."""
    corp = game.state.corps[sym]
    corp.floated = True
    game.transfer("bank", sym, start_cash)
    game.log(f"{sym} starts with {start_cash} G")


def operating(game: Game) -> list[str]:
    """§5.1: the Local Railways that operate, in ascending order."""
    return [
        sym for sym, c in game.state.corps.items() if c.kind == KIND and c.floated and not c.closed
    ]


def pay_half(game: Game, corp: str, revenue: int) -> None:
    """§5.7: half the income stays with the Local Railway, half goes to its owner."""
    game.state.corps[corp].revenue_history.append(revenue)
    if revenue <= 0:
        return
    paid = revenue // 2
    payee = owner(game, corp)
    assert payee is not None
    game.transfer("bank", corp, revenue - paid)
    game.transfer("bank", payee, paid)
    game.log(f"{corp} keeps {revenue - paid} G and pays {paid} G to {payee}")


def close_one(game: Game, sym: str, why: str) -> None:
    """A Local Railway closes (§5.10, rulings ML2, ML3): its stations leave the map, its
    trains and its mail contract the game (a merger has taken the trains and one contract
    first), its money goes to the bank (a merger has taken it first), its certificate is
    void."""
    s = game.state
    corp = s.corps[sym]
    s.map.remove_all_tokens(sym)
    s.map.release_reservation(sym)
    corp.placed = []
    for tid in corp.trains:
        s.depot.remove(tid)
    corp.trains = []
    game.transfer(sym, "bank", corp.cash)
    corp.closed = True
    s.companies[sym].closed = True
    unsold = state_of(game).unsold_privates
    if unsold is not None and sym in unsold:
        unsold.remove(sym)
    game.log(f"{sym} closes: {why}")


def clear_extra_map(game: Game) -> None:
    """§5.3: "When all the Local Railways have either closed or been converted to Major
    Local Railways ... all the tiles on the extra map are removed and are once more
    available for use elsewhere." """
    s = game.state
    state = state_of(game)
    if state.extra_map_cleared:
        return
    state.extra_map_cleared = True
    for coord in s.map.board.extra["local_map"]:
        if coord in s.map.tiles or coord in s.map.overlays:
            s.map.revert_hex(coord)  # tiles and tunnels (ruling TU4) return
    game.log("The extra map is cleared")
