"""The bank: a finite cash supply. It "breaks" when a payment would take it below zero."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tresham.core.entities import Player


@dataclass
class Bank:
    """The bank's cash. Payments continue past zero; `broken` records that it broke."""

    cash: int
    broken: bool = False

    name = "bank"

    def pay_out(self, amount: int) -> None:
        """The bank pays `amount`; going below zero breaks the bank."""
        self.cash -= amount
        if self.cash < 0:
            self.broken = True

    def take_in(self, amount: int) -> None:
        """The bank receives `amount`."""
        self.cash += amount


def seat_players(bank: Bank, names: Sequence[str], cash: int) -> list[Player]:
    """The players, each given `cash` by the bank (the usual start of an 18xx game)."""
    players = [Player(name) for name in names]
    for p in players:
        bank.pay_out(cash)
        p.cash = cash
    return players
