"""1849's own actions, for the variants of the AAG rulebook §14 as 18xx.games plays them
(``variants.py``); registered with the save format when this module is imported."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tresham.core.actions import Action


@dataclass(frozen=True)
class IssueBond(Action):
    """The corporation issues its single L.500 bond (variant "bonds")."""

    type: ClassVar[str] = "issue_bond"


@dataclass(frozen=True)
class RepayBond(Action):
    """The corporation repays its outstanding L.500 bond (variant "bonds")."""

    type: ClassVar[str] = "repay_bond"


@dataclass(frozen=True)
class BuyStationToken(Action):
    """The corporation buys corporation `seller`'s station token in city `city` of `hex` for
    `price`, paid to `seller`, and puts one of its own in its slot (variant
    "acquiring_station_tokens")."""

    type: ClassVar[str] = "buy_station_token"
    hex: str
    city: int
    seller: str
    price: int


@dataclass(frozen=True)
class BuyEToken(Action):
    """The corporation buys an E-token, which lets it buy E-trains (variant
    "electric_dreams")."""

    type: ClassVar[str] = "buy_e_token"


@dataclass(frozen=True)
class PayDebt(Action):
    """The president of the corporation `entity` pays what the corporation owes for its bond's
    interest (variant "bonds")."""

    type: ClassVar[str] = "pay_debt"
