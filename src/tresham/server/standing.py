"""Standing orders on the server (the rule of each order is ``tresham/orders.py``).

A seat's orders are stored in its row of the seats table, with the last few that ended and
why, and only that seat's token reads or sets them (``/api/games/<id>/seat/orders``). After
every action appended to a game (a person's, a bot's, another order's), the seat to act next
is asked whether one of its orders acts; if one does, its action is appended as that seat's,
through the same checks as a posted one, and marked in the log with the order's kind (the
table writes "(standing order)" after it). Nothing acts right after an undo or a redo: a
decision an undo reopened waits for its person, and the order whose action its own seat takes
back is cancelled. A buy-until order is cancelled when anyone else trades its corporation.
Bot seats hold no orders (they have no token), and no order is part of the game's state.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tresham.core.actions import Action, action_from_json
from tresham.core.errors import RuleError
from tresham.orders import (
    RULE,
    OrderKind,
    StandingOrder,
    cancelled_by,
    expired,
    make_order,
    next_move,
)
from tresham.server.live import TAKE_BACKS, LiveGame
from tresham.server.storage import LogRow, Storage

log = logging.getLogger("tresham.server")

#: How many ended orders a seat is shown (the latest).
ENDED_KEPT = 5
#: How many orders may a seat hold at once.
MAX_ORDERS = 8
#: How many order moves one action may set off (every seat passing a whole round is far less).
MAX_MOVES = 1000

#: Appends an order's action: (player, action, order kind).
Commit = Callable[[str, Action, str], object]


@dataclass
class SeatOrders:
    """A seat's orders, and the latest that ended (``{"order", "why"}`` in words)."""

    orders: list[StandingOrder] = field(default_factory=list)
    ended: list[dict[str, str]] = field(default_factory=list)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> SeatOrders:
        return cls(
            [StandingOrder.from_json(o) for o in raw.get("orders", [])],
            list(raw.get("ended", [])),
        )

    def to_json(self) -> dict[str, Any]:
        return {"orders": [o.to_json() for o in self.orders], "ended": self.ended}

    def end(self, order: StandingOrder, words: str, why: str) -> None:
        """Drop `order`, remembering why."""
        if order in self.orders:
            self.orders.remove(order)
        self.ended = [*self.ended, {"order": words, "why": why}][-ENDED_KEPT:]


def order_list(orders: list[StandingOrder], live: LiveGame) -> list[dict[str, Any]]:
    """Orders as the API shows them: their stored form and their words."""
    return [{**o.to_json(), "words": o.words(live.game)} for o in orders]


class Standing:
    """The standing orders of every game in one server process."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # ------------------------------------------------------------------ reading, setting
    def view(self, live: LiveGame, player: str) -> dict[str, Any]:
        """What `player`'s seat is shown of its orders (those still able to act)."""
        mine = self._load(live).get(player, SeatOrders())
        alive = [o for o in mine.orders if not expired(live.game, o)]
        return {
            "player": player,
            "orders": order_list(alive, live),
            "ended": mine.ended,
            "kinds": [k.value for k in OrderKind],
        }

    def replace(self, live: LiveGame, player: str, raw: Any) -> None:
        """Replace `player`'s orders with `raw` (a list of API orders; [] cancels them
        all), checked against the game now. Raises RuleError, nothing changed."""
        if not isinstance(raw, list):
            raise RuleError('standing orders are a list: {"orders": [...]}', RULE)
        if len(raw) > MAX_ORDERS:
            raise RuleError(f"at most {MAX_ORDERS} standing orders at once", RULE)
        orders = [make_order(live.game, r) for r in raw]
        keys = [(o.kind, o.corporation) for o in orders]
        if len(set(keys)) != len(keys):
            raise RuleError("the same standing order twice", RULE)
        mine = self._load(live).get(player, SeatOrders())
        gone = [o for o in mine.orders if o not in orders]
        for order in gone:
            mine.end(order, order.words(live.game), f"cancelled by {player}")
        mine.orders = orders
        self.storage.set_seat_orders(live.record.id, player, mine.to_json())

    # ------------------------------------------------------------------ acting
    def follow(self, live: LiveGame, commit: Commit, appended: bool) -> bool:
        """After the game's last entry (`appended`: it was just appended, not there
        before): cancel what it cancels, then let the orders of whoever acts next act, in
        turn; returns whether any did. Worker thread, the game's lock held."""
        if live.broken or not live.rows:
            return False
        last = live.rows[-1]
        if last.entry.get("type") in TAKE_BACKS:
            if appended and last.entry["type"] == "undo":
                self._taken_back(live)
            return False
        people = {s.player for s in live.seats if not s.bot}
        stored = {p: o for p, o in self._load(live).items() if p in people and o.orders}
        if not stored:
            return False
        changed: set[str] = set()
        acted = False
        try:
            if appended:
                self._cancel(live, stored, changed, last)
            for _ in range(MAX_MOVES):
                if live.game.state.finished:
                    break
                player = live.game.acting_player()
                if player is None or player not in stored:
                    break
                mine = stored[player]
                made = live.rows[-1].order if live.rows[-1].seat == player else None
                move = next_move(live.game, player, mine.orders, OrderKind(made) if made else None)
                if move is None:
                    break
                if move.ends:
                    mine.end(move.order, move.order.words(live.game), move.why)
                    changed.add(player)
                if move.action is None:
                    if not move.ends:
                        break
                    continue
                commit(player, move.action, move.order.kind.value)
                acted = True
                self._cancel(live, stored, changed, live.rows[-1])
        except Exception as exc:  # the person's action stands; the orders wait
            log.warning("game %s: a standing order did not act: %r", live.record.id, exc)
        finally:
            for player in changed:
                self.storage.set_seat_orders(live.record.id, player, stored[player].to_json())
        return acted

    def _cancel(
        self, live: LiveGame, stored: dict[str, SeatOrders], changed: set[str], row: LogRow
    ) -> None:
        """Cancel the orders of other seats that `row`'s action cancels."""
        actor = row.seat
        if actor is None:
            return
        action = action_from_json(row.entry)
        for player, mine in stored.items():
            if player == actor:
                continue
            for order in list(mine.orders):
                for why in cancelled_by([order], actor, action):
                    mine.end(order, order.words(live.game), why)
                    changed.add(player)

    def _taken_back(self, live: LiveGame) -> None:
        """The last undo took back an action: if a standing order made it, the order goes
        (its seat took back what it did)."""
        if not live.undone_rows:
            return
        row = live.undone_rows[-1]
        if row.order is None or row.seat is None:
            return
        mine = self._load(live).get(row.seat)
        if mine is None:
            return
        for order in [o for o in mine.orders if o.kind.value == row.order]:
            mine.end(order, order.words(live.game), f"{row.seat} took back its move")
        self.storage.set_seat_orders(live.record.id, row.seat, mine.to_json())

    def _load(self, live: LiveGame) -> dict[str, SeatOrders]:
        return {
            p: SeatOrders.from_json(raw)
            for p, raw in self.storage.seat_orders(live.record.id).items()
        }
