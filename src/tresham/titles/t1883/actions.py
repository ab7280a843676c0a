"""1883's own actions (registered with the save format when this module is imported)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tresham.core.actions import Action


@dataclass(frozen=True)
class BuySupport(Action):
    """A player buys one Political Support card from the bank (1883 §5.5)."""

    type: ClassVar[str] = "buy_support"


@dataclass(frozen=True)
class BuyConcession(Action):
    """A president buys Government Concession `concession` for `corporation`, which pays
    (1883 §5.6)."""

    type: ClassVar[str] = "buy_concession"
    corporation: str
    concession: int


@dataclass(frozen=True)
class PlaceBus(Action):
    """SARSA places a bus token in `hex` (1883 §8.3.1)."""

    type: ClassVar[str] = "place_bus"
    hex: str


@dataclass(frozen=True)
class PlacePort(Action):
    """A corporation places one of its port tokens in the port city `hex` (1883 §6.6)."""

    type: ClassVar[str] = "place_port"
    hex: str
