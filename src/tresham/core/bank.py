"""The bank: a finite cash supply. It "breaks" when a payment would take it below zero."""

from __future__ import annotations

from dataclasses import dataclass


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
