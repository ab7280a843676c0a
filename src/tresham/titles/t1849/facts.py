"""What 1849's mechanism modules ask of the title (``rules.py``): a share price's move (which
may flag the game's end or close the corporation), a closure, a train purchase's phase
effects, and AFG's wait when its home cities are full. A leaf module: it imports nothing of
the title's rules, and :func:`rules_of` checks that the game's title is 1849's, never casts
it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tresham.core.game import Game


@runtime_checkable
class Rules1849(Protocol):
    """1849's rules, as its mechanism modules call them."""

    def move_price(self, game: Game, sym: str, direction: str, steps: int = 1) -> None:
        """Move a share price (1849 §Share price, §Endgame, §Trouble)."""
        ...

    def close_corporation(self, game: Game, sym: str) -> None:
        """Close a corporation (1849 §Trouble)."""
        ...

    def on_train_bought(self, game: Game, kind: str) -> None:
        """A train of `kind` was bought: its phase's effects (1849 §Trains)."""
        ...

    def start_corporation(
        self, game: Game, player: str, sym: str, price: int, home: str | None, pay: bool
    ) -> None:
        """`player` starts `sym` at `price` (1849 §SR; RSA's corporation: the bank pays)."""
        ...

    def par_prices(self, game: Game) -> list[int]:
        """The par prices open (1849 §SR)."""
        ...

    def leave(self, game: Game, player: str) -> None:
        """A president left with no stock quits on L.0 (1849 §Trouble)."""
        ...

    def charter_tokens(self, sym: str) -> int:
        """How many station tokens the corporation's charter holds."""
        ...

    def check_afg(self, game: Game) -> None:
        """AFG waits, last in the order, while all its home cities are full."""
        ...


def rules_of(game: Game) -> Rules1849:
    """The game's title, as 1849's rules (checked, not cast)."""
    title = game.title
    assert isinstance(title, Rules1849), f"{title.name} is not 1849"
    return title
