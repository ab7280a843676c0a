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


@dataclass(frozen=True)
class BuyOption(Action):
    """A player exercises the buying option: a 20% share (not a Director's certificate) of
    `corporation` from `source` ("treasury" or "pool") at half its price (1854 §6.4.1)."""

    type: ClassVar[str] = "buy_option"
    corporation: str
    source: str


@dataclass(frozen=True)
class PayOption(Action):
    """A player pays the remaining 10% of the share bought on option (1854 §6.4.1)."""

    type: ClassVar[str] = "pay_option"


@dataclass(frozen=True)
class BuyMailContract(Action):
    """A company buys a mail contract of the kind that costs `cost` (1854 §5.12)."""

    type: ClassVar[str] = "buy_mail_contract"
    cost: int


@dataclass(frozen=True)
class MergeLocals(Action):
    """The Local Railway `entity` merges with the Local Railway `partner` into a Major Local
    Railway: proposed on its turn or when Phase 6 asks, or agreed to when `partner` proposed
    it (1854 Table 2, §5.10; rulings ML1, ML2)."""

    type: ClassVar[str] = "merge_locals"
    partner: str


@dataclass(frozen=True)
class CloseLocal(Action):
    """The owner closes the Local Railway `entity` (1854 §5.10, from Phase 5)."""

    type: ClassVar[str] = "close_local"


@dataclass(frozen=True)
class BuildTunnel(Action):
    """The company builds a tunnel on `hex` from edge `a` to edge `b`, instead of laying or
    promoting a tile (1854 §5.3.1)."""

    type: ClassVar[str] = "build_tunnel"
    hex: str
    a: int
    b: int
