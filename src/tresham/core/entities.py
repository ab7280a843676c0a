"""Players, corporations and private companies: the entities that hold cash and act."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Player:
    """A player: cash, loans taken (each costs its penalty at scoring), bankrupt flag."""

    name: str
    cash: int = 0
    loans: int = 0
    bankrupt: bool = False


@dataclass
class Company:
    """A private company: face value, revenue paid every operating round, an owner
    (a player name or a corporation symbol; None while in the bank), and its power's data."""

    sym: str
    name: str
    value: int
    revenue: int
    owner: str | None = None
    closed: bool = False
    powers: dict[str, Any] = field(default_factory=dict)


@dataclass
class Corporation:
    """A corporation of any kind.

    `kind` names what rules apply (e.g. "major", "minor", "coop", "bus"). Tokens: `tokens`
    is how many station tokens it owns in all; `placed` holds (hex, city) of those on the map.
    `operated` counts its completed operating turns (its operating history). `par_price` is
    the price it was started at (where a title sells initial-offering shares at par).
    `share_unit` is the percentage the market price is for (10: the price of a 10% share).
    """

    sym: str
    name: str
    kind: str = "major"
    cash: int = 0
    tokens: int = 3
    token_fee: int = 0
    home: str | None = None
    placed: list[tuple[str, int]] = field(default_factory=list)
    trains: list[str] = field(default_factory=list)
    parred: bool = False
    par_price: int = 0
    floated: bool = False
    operated: int = 0
    closed: bool = False
    revenue_history: list[int] = field(default_factory=list)
    share_unit: int = 10

    @property
    def unplaced_tokens(self) -> int:
        """Station tokens not yet on the map."""
        return self.tokens - len(self.placed)
