"""What 1854's mechanism modules ask of the title: its edition's facts (the board's customs
signs, gateways and mountains, its tiles, the Major Companies' station costs) and the rules
they call back (price moves, plus trains, train trades, the bank's offers). A leaf module: it
imports nothing of the title's rules, and :func:`rules` checks that the game's title is
1854's, never casts it, so no 1854 module needs a cast or an import inside a function.

1854's facts belong to its edition (the original board or the new one, ruling D6), so they
are the title object's, not this module's constants.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from tresham.core.market import Market
from tresham.core.tiles import TileDef

if TYPE_CHECKING:
    from tresham.core.game import Game


@runtime_checkable
class Rules1854(Protocol):
    """1854's facts and rules, as its mechanism modules read them (``rules.py``)."""

    #: The title's tables (``data/game.json``).
    data: dict[str, Any]
    #: The stock market.
    market_def: Market
    #: The customs signs' stops (§5.6, ruling T13).
    customs: frozenset[tuple[str, int]]
    #: Where the Orient Express may go on to Paris or Constantinople, with that city's value.
    gateways: dict[str, tuple[str, int]]
    #: The hexes printed with mountains (Table 2).
    mountains: frozenset[str]
    #: The edition's tile catalogue, and every tile of the box.
    catalogue: Mapping[str, TileDef]
    manifest: dict[str, int]
    #: The Major Companies' station costs, home first.
    token_costs: dict[str, list[int]]

    def move_price(self, game: Game, sym: str, direction: str) -> None:
        """One space of the market in `direction` (§5.8, §5.11)."""
        ...

    def on_train_bought(self, game: Game, kind: str) -> None:
        """A train of `kind` was bought from the bank: its phase effects (§7)."""
        ...

    def is_plus(self, kind: str) -> bool:
        """Whether `kind` is a plus train (§5.6, §5.9)."""
        ...

    def is_plus_train(self, game: Game, tid: str) -> bool:
        """Whether the train `tid` is a plus train."""
        ...

    def trading_allowed(self, game: Game) -> bool:
        """§5.10: whether trains may be traded between companies."""
        ...

    def bank_offers(self, game: Game) -> list[tuple[str, int]]:
        """(train, price) the bank sells now (§5.9)."""
        ...

    def chartered(self, game: Game) -> list[str]:
        """The companies with a share price."""
        ...


def rules_of(game: Game) -> Rules1854:
    """The game's title, as 1854's rules (checked, not cast)."""
    title = game.title
    assert isinstance(title, Rules1854), f"{title.name} is not 1854"
    return title
