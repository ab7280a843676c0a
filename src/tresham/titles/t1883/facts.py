"""1883's printed facts, read once from the title's data (``data/game.json``, the market and
the board): what every 1883 module needs without reaching through the title object. A leaf
module: it imports nothing of the title's rules, so no 1883 module needs a cast or an import
inside a function to read them.

The title's behaviour that its mechanism modules call back (a price move that may close a
corporation, a first purchase's phase effects, a bankruptcy) is :class:`Rules1883`, reached
through :func:`rules`: the title is checked to be 1883's, never cast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Protocol, runtime_checkable

from tresham.core.board import BoardDef
from tresham.core.market import Market
from tresham.core.title import title_data
from tresham.titles.t1883.track_rules import UpgradeChart

if TYPE_CHECKING:
    from tresham.core.game import Game

PACKAGE: Final = "tresham.titles.t1883"

#: The title's tables (``data/game.json``). Read only: never change it.
DATA: Final[dict[str, Any]] = title_data(PACKAGE)
#: Each phase's facts by its name (4.0: concessions, privates, the SEFTA merger...).
PHASE_FACTS: Final[dict[str, dict[str, Any]]] = {p["name"]: p for p in DATA["phases"]}
#: The 2GT train types (6.9.5).
GRAVITY_KINDS: Final = frozenset(t["name"] for t in DATA["trains"] if t.get("gravity"))
#: The stock market (5.0).
MARKET: Final = Market.load(PACKAGE, "data/market.json")
#: The board.
BOARD: Final = BoardDef.from_package(PACKAGE)
#: Which tiles upgrade which (the tile manifest's chart).
UPGRADES: Final = UpgradeChart(DATA["tile_upgrades"])


def token_costs(corp: str) -> list[int]:
    """6.5: the station costs on the charter, home stations first."""
    facts = next(c for c in DATA["corporations"] if c["sym"] == corp)
    costs: list[int] = facts.get("token_costs", [])
    return costs


@runtime_checkable
class Rules1883(Protocol):
    """What 1883's mechanism modules ask of the title (``rules.py``)."""

    def move_price(self, game: Game, sym: str, direction: str, steps: int = 1) -> None:
        """Move a share price (closing, or ending the game, where the market says so)."""
        ...

    def on_train_bought(self, game: Game, kind: str) -> None:
        """A train of `kind` was bought or removed: its phase effects."""
        ...

    def par_prices(self, game: Game) -> list[int]:
        """The par prices open (5.3.3)."""
        ...

    def start(self, game: Game, player: str, sym: str, price: int, paid_by: str) -> None:
        """`player` starts `sym` at `price`, the treasury paid by `paid_by` (5.3.3-5.3.4)."""
        ...

    def bankrupt(self, game: Game, player: str, corp: str | None) -> None:
        """`player` goes bankrupt (owing for `corp`'s train)."""
        ...


def rules_of(game: Game) -> Rules1883:
    """The game's title, as 1883's rules (checked, not cast)."""
    title = game.title
    assert isinstance(title, Rules1883), f"{title.name} is not 1883"
    return title
