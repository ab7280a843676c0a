"""Typed, JSON-serialisable action records.

An action says who acts (`entity`: a player name or a corporation symbol) and what they do.
`to_json` / `action_from_json` give the save format's representation:
`{"type": "bid", "entity": "Ann", "company": "SCE", "price": 20}`.
"""

from __future__ import annotations

import dataclasses
import types
from dataclasses import dataclass
from typing import Any, ClassVar, Union, get_args, get_origin, get_type_hints

from tresham.core.errors import MalformedActionError, quote

ACTION_TYPES: dict[str, type[Action]] = {}


@dataclass(frozen=True)
class Action:
    """Base of every action: `entity` is the player or corporation that acts."""

    type: ClassVar[str] = ""
    entity: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.type:
            ACTION_TYPES[cls.type] = cls

    def to_json(self) -> dict[str, Any]:
        """The save format's representation of this action."""
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = _encode(getattr(self, f.name))
        return out

    def describe(self) -> str:
        """A short human-readable text, e.g. `Ann: bid SCE 20`."""
        parts = [f"{f.name}={_encode(getattr(self, f.name))}" for f in dataclasses.fields(self)]
        return f"{self.type}(" + ", ".join(parts[1:]) + ")" if len(parts) > 1 else self.type


def _encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return value


def _decode(tp: Any, value: Any, where: str) -> Any:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _decode(arg, value, where)
            except MalformedActionError as exc:
                errors.append(exc)
        raise MalformedActionError(f"{where}: unexpected value {quote(value)}", "save format")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise MalformedActionError(f"{where}: expected a list", "save format")
        (item_tp, _ellipsis) = get_args(tp)
        return tuple(_decode(item_tp, v, where) for v in value)
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise MalformedActionError(f"{where}: expected an object", "save format")
        hints = get_type_hints(tp)
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name not in value:
                raise MalformedActionError(f"{where}: missing field {f.name!r}", "save format")
            kwargs[f.name] = _decode(hints[f.name], value[f.name], f"{where}.{f.name}")
        built: Any = tp
        return built(**kwargs)
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedActionError(f"{where}: expected an integer", "save format")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise MalformedActionError(f"{where}: expected a string", "save format")
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise MalformedActionError(f"{where}: expected true/false", "save format")
        return value
    raise MalformedActionError(f"{where}: unsupported type", "save format")


_HINTS: dict[type[Action], dict[str, Any]] = {}


def _type_hints(cls: type[Action]) -> dict[str, Any]:
    """The field types of an action class (resolved once per class)."""
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls)
    return _HINTS[cls]


def action_from_json(data: Any) -> Action:
    """Parse an action from its save-format dictionary; raises MalformedActionError."""
    if not isinstance(data, dict):
        raise MalformedActionError("an action must be a JSON object", "save format")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedActionError(f"unknown action type {quote(kind)}", "save format")
    hints = _type_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - fields - {"type"}
    if extra:
        raise MalformedActionError(
            f"{kind}: unknown fields {quote(sorted(map(str, extra)))}", "save format"
        )
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            if f.default is not dataclasses.MISSING:
                kwargs[f.name] = f.default
                continue
            if f.default_factory is not dataclasses.MISSING:
                kwargs[f.name] = f.default_factory()
                continue
            raise MalformedActionError(f"{kind}: missing field {f.name!r}", "save format")
        kwargs[f.name] = _decode(hints[f.name], data[f.name], f"{kind}.{f.name}")
    return cls(**kwargs)


@dataclass(frozen=True)
class Pass(Action):
    """Pass, or end the current step/turn."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Bid(Action):
    """Private auction: buy the cheapest private at its price, or bid on another one."""

    type: ClassVar[str] = "bid"
    company: str
    price: int


@dataclass(frozen=True)
class Par(Action):
    """Start a corporation at a par price (and, where the title asks, choose its home)."""

    type: ClassVar[str] = "par"
    corporation: str
    price: int
    home: str | None = None


@dataclass(frozen=True)
class BuyShares(Action):
    """Buy one certificate from `source`: "treasury" (initial offering) or "pool"."""

    type: ClassVar[str] = "buy_shares"
    corporation: str
    source: str
    percent: int


@dataclass(frozen=True)
class SellShares(Action):
    """Sell `percent` of a corporation to the pool. `last` says the bundle includes the 20%
    "last" certificate (1849) rather than only 10% certificates."""

    type: ClassVar[str] = "sell_shares"
    corporation: str
    percent: int
    last: bool = False


@dataclass(frozen=True)
class LayTile(Action):
    """Lay or upgrade a tile."""

    type: ClassVar[str] = "lay_tile"
    hex: str
    tile: str
    rotation: int


@dataclass(frozen=True)
class PlaceToken(Action):
    """Place a station token in a city (hex and city index on its tile)."""

    type: ClassVar[str] = "place_token"
    hex: str
    city: int


@dataclass(frozen=True)
class RunSpec:
    """One train's run: the train id, its stops in order as `"<hex>-<node index>"`, and the
    track it uses in travel order as `"<hex>-<path index on that hex's tile>"`."""

    train: str
    stops: tuple[str, ...]
    track: tuple[str, ...]


@dataclass(frozen=True)
class RunRoutes(Action):
    """Run trains: one run per train used (idle trains are simply absent)."""

    type: ClassVar[str] = "run_routes"
    runs: tuple[RunSpec, ...]


@dataclass(frozen=True)
class Dividend(Action):
    """Pay out (`payout`) or withhold (`withhold`) this operating turn's revenue."""

    type: ClassVar[str] = "dividend"
    kind: str


@dataclass(frozen=True)
class BuyTrain(Action):
    """Buy a train from the depot, the pool, or another corporation (`price`), as one of
    its type's variants if the title has them (`variant`; None: the type itself)."""

    type: ClassVar[str] = "buy_train"
    train: str
    price: int
    variant: str | None = None


@dataclass(frozen=True)
class DiscardTrain(Action):
    """Discard a train over the limit to the pool."""

    type: ClassVar[str] = "discard_train"
    train: str


@dataclass(frozen=True)
class IssueShares(Action):
    """A corporation issues treasury certificates to the pool (`percent` in total)."""

    type: ClassVar[str] = "issue_shares"
    percent: int


@dataclass(frozen=True)
class RedeemShares(Action):
    """A corporation buys one of its certificates back from the pool."""

    type: ClassVar[str] = "redeem_shares"
    percent: int


@dataclass(frozen=True)
class BuyCompany(Action):
    """A corporation buys a private company from a player."""

    type: ClassVar[str] = "buy_company"
    company: str
    price: int


@dataclass(frozen=True)
class UseCompany(Action):
    """Use (and, where the power says so, close) a private company's power on a target."""

    type: ClassVar[str] = "use_company"
    company: str
    target: str = ""


@dataclass(frozen=True)
class Choose(Action):
    """Answer a prompt (e.g. "loan" or "leave" for a president left without stock)."""

    type: ClassVar[str] = "choose"
    choice: str


@dataclass(frozen=True)
class Bankrupt(Action):
    """The president cannot raise the money for a compulsory train: the corporation closes."""

    type: ClassVar[str] = "bankrupt"
