"""1854's own actions (registered with the save format when this module is imported)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tresham.core.actions import Action


@dataclass(frozen=True)
class RetractBid(Action):
    """A player whose bid on a private certificate has been outbid takes it back, freeing the
    money tied up in it (1854 §4)."""

    type: ClassVar[str] = "retract_bid"
    company: str
