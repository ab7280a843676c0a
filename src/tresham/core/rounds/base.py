"""Round protocol: who acts, what they may do, and how an action changes the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action
from tresham.core.errors import RuleError

if TYPE_CHECKING:
    from tresham.core.game import Game


class Round:
    """Base of auction, stock and operating rounds. Rounds hold only plain data, so a
    deep copy of the game state copies them too."""

    kind = "round"
    rule = "round"

    def active(self, game: Game) -> str:
        """The entity to act."""
        raise NotImplementedError

    def actions(self, game: Game) -> list[Action]:
        """The legal actions of the entity to act."""
        raise NotImplementedError

    def validate(self, game: Game, action: Action) -> None:
        """Raise RuleError unless `action` is legal. Default: it must be listed."""
        if action not in self.actions(game):
            raise RuleError(f"{action.describe()} is not a legal action now", self.rule)

    def process(self, game: Game, action: Action) -> None:
        """Apply a validated action."""
        raise NotImplementedError

    def settle(self, game: Game) -> None:
        """Move past anything that needs no decision (auto-skips)."""

    def finished(self, game: Game) -> bool:
        """Whether the round is over."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """Canonical form for hashing."""
        return {"kind": self.kind, **{k: _plain(v) for k, v in sorted(vars(self).items())}}


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
