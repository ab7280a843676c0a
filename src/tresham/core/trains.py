"""Trains, the depot and game phases.

The first purchase of a train type may start a new phase: new train limit, tile colours and
statuses; trains of the types that rust on it leave the game; the type's events fire.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TrainVariant:
    """Another way to buy a train of a type (e.g. 1854's local "2+" for a major "2"): its
    own name, size and price."""

    name: str
    distance: int
    price: int


@dataclass(frozen=True)
class TrainType:
    """A train type: its name, size (stops or hexes, as the title counts), price, what
    train's first purchase rusts it (rusting and obsolescence alike: the trains leave the
    game), events on its first purchase, the phase from which it is offered out of turn
    (e.g. 1849's R6H), and the variants it may be bought as instead."""

    name: str
    distance: int
    price: int
    count: int
    rusts_on: str | None = None
    events: tuple[str, ...] = ()
    available_on: str | None = None
    variants: tuple[TrainVariant, ...] = ()
    #: What players call it where that is not its name (1854's "OE": "Orient Express").
    title: str = ""

    def variant(self, name: str | None) -> TrainVariant:
        """The variant called `name` (None or the type's own name: the type itself)."""
        if name is None or name == self.name:
            return TrainVariant(self.name, self.distance, self.price)
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(f"train {self.name} has no variant {name!r}")


@dataclass(frozen=True)
class Phase:
    """A phase: started by the first purchase of train type `on` (None: the first phase).
    `train_limit` applies to every corporation kind not named in `kind_limits` (e.g. 1854's
    local railways have their own limit)."""

    name: str
    on: str | None
    train_limit: int
    tiles: tuple[str, ...]
    operating_rounds: int
    status: tuple[str, ...] = ()
    kind_limits: tuple[tuple[str, int], ...] = ()

    def limit(self, kind: str) -> int:
        """The train limit of a corporation of `kind` in this phase."""
        return dict(self.kind_limits).get(kind, self.train_limit)


@dataclass
class Train:
    """A physical train: id `<type>-<n>`; owner None while in the depot, "pool" when
    discarded, else the owning corporation's symbol; `variant` the variant it was bought as
    (None: the type itself). Its fields are plain values, so a shallow copy is a full one."""

    tid: str
    kind: str
    owner: str | None = None
    operated: bool = False
    variant: str | None = None


@dataclass
class Depot:
    """All trains of the game, in purchase order, and the rusted ones removed from play."""

    types: dict[str, TrainType]
    trains: dict[str, Train] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> Depot:
        """A copy sharing the (immutable) train types; each train is copied."""
        new = Depot(self.types, {k: copy.copy(t) for k, t in self.trains.items()}, list(self.order))
        memo[id(self)] = new
        return new

    @classmethod
    def build(cls, types: list[TrainType]) -> Depot:
        """Create every train of every type, in the order given."""
        depot = cls(types={t.name: t for t in types})
        for t in types:
            for i in range(t.count):
                tid = f"{t.name}-{i}"
                depot.trains[tid] = Train(tid, t.name)
                depot.order.append(tid)
        return depot

    def in_bank(self) -> list[Train]:
        """Unsold trains still in the depot, in order."""
        return [self.trains[t] for t in self.order if self.trains[t].owner is None]

    def purchasable(self, phase_names: set[str]) -> list[Train]:
        """Trains the bank sells now: the next unsold train (first of its type), any unsold
        train whose `available_on` phase has been reached, and one of each discarded type."""
        out: list[Train] = []
        seen: set[str] = set()
        unsold = self.in_bank()
        for t in unsold:
            ttype = self.types[t.kind]
            if ttype.available_on is not None:
                if ttype.available_on in phase_names and t.kind not in seen:
                    out.append(t)
                    seen.add(t.kind)
                continue
            first_regular = not out or all(self.types[o.kind].available_on for o in out)
            if first_regular and t.kind not in seen:
                out.append(t)
                seen.add(t.kind)
        pool_seen: set[str] = set()
        for tid in self.order:
            t = self.trains[tid]
            if t.owner == "pool" and t.kind not in pool_seen:
                out.append(t)
                pool_seen.add(t.kind)
        return out

    def name(self, tid: str) -> str:
        """A train by its name, as players say it: the variant it was bought as, else its
        type's ("4H", "2+", "Orient Express"); an unknown id as it is."""
        t = self.trains.get(tid)
        if t is None:
            return tid
        return t.variant or self.types[t.kind].title or t.kind

    def owned_by(self, owner: str) -> list[Train]:
        """Trains owned by `owner`, in depot order."""
        return [self.trains[t] for t in self.order if self.trains[t].owner == owner]

    def rust(self, kind_rusting_on: str) -> list[Train]:
        """Remove from play every train that rusts on `kind_rusting_on`; returns them."""
        rusted = []
        for tid in list(self.order):
            t = self.trains[tid]
            if self.types[t.kind].rusts_on == kind_rusting_on and t.owner is not None:
                rusted.append(t)
                t.owner = "rusted"
            elif self.types[t.kind].rusts_on == kind_rusting_on and t.owner is None:
                t.owner = "rusted"
        return rusted

    def remove(self, tid: str) -> None:
        """A train leaves the game (closure)."""
        self.trains[tid].owner = "scrapped"
