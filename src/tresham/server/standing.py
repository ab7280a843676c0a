"""Standing orders on the server (what each order does, and in what sequence, is
``tresham/orders.py``).

A seat's orders are stored in its row of the seats table, with the last few that ended and
why, and only that seat's token reads or sets them (``/api/games/<id>/seat/orders``). After
every action appended to a game (a person's, a bot's, another order's), the seat to act next
is asked whether one of its orders acts; if one does, its action is appended as that seat's,
through the same checks as a posted one, and marked in the log with the order's kind (the
table writes "(standing order)" after it). Nothing acts right after an undo or a redo: a
decision an undo reopened waits for its person, and the order whose action its own seat takes
back is cancelled. An order whose turn comes from another person's own move (not a bot's, not
an order's) first waits out the game's undo grace, as a bot does, and acts then only if the
log has not moved meanwhile: the person may take the move back, and the order never acts on a
position that an undo has already taken away. A buy-until order is cancelled when anyone else
trades its corporation. Bot seats hold no orders (they have no token), and no order is part of
the game's state.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tresham.core.actions import Action, action_from_json
from tresham.core.errors import RuleError
from tresham.orders import RULE, OrderBook, OrderKind, SeatOrders, expired, make_order
from tresham.server.live import TAKE_BACKS, LiveGame
from tresham.server.storage import Storage

log = logging.getLogger("tresham.server")

#: How many orders a seat may hold at once.
MAX_ORDERS = 8

#: Appends an order's action: (player, action, order kind).
Commit = Callable[[str, Action, str], object]


@dataclass(frozen=True)
class Followed:
    """What following the log did: whether an order acted and, if one may act once the
    undo grace of the last move has run out, in how many seconds (`wait`) and at which log
    index (`index`: it acts then only if the log is still there)."""

    acted: bool = False
    wait: float = 0.0
    index: int = 0


class Standing:
    """The standing orders of every game in one server process."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # ------------------------------------------------------------------ reading, setting
    def view(self, live: LiveGame, player: str) -> dict[str, Any]:
        """What `player`'s seat is shown of its orders (those still able to act)."""
        mine = self._book(live).seats.get(player, SeatOrders())
        alive = [o for o in mine.orders if not expired(live.game, o)]
        return {
            "player": player,
            "orders": [{**o.to_json(), "words": o.words(live.game)} for o in alive],
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
        mine = self._book(live).seats.get(player, SeatOrders())
        for order in [o for o in mine.orders if o not in orders]:
            mine.end(live.game, order, f"cancelled by {player}")
        mine.orders = orders
        self.storage.set_seat_orders(live.record.id, player, mine.to_json())

    # ------------------------------------------------------------------ acting
    def follow(
        self, live: LiveGame, commit: Commit, now: bool = False, grace: float = 0.0
    ) -> Followed:
        """After the entries appended since the last call (by this process or, caught up,
        by another): cancel what they cancel, then, if the last of them is an action, let
        the orders of whoever acts next act, in turn (`now`: even if nothing was appended,
        as when orders are set). `grace`: the game's undo grace, which an order waits out
        when another person's own move gave it its turn (then nothing acts now, and the
        result says how long to wait). Worker thread, the game's lock held."""
        new = live.rows[live.followed :]
        live.followed = live.index
        if live.broken or not (new or now) or all(s.bot for s in live.seats):
            return Followed()
        book = self._book(live)
        if not book.seats:
            return Followed()
        acted = False
        try:
            for row in new:
                if row.seat is not None and row.entry.get("type") not in TAKE_BACKS:
                    book.traded(live.game, row.seat, action_from_json(row.entry))
            last = live.rows[-1] if live.rows else None
            if last is not None and last.entry.get("type") in TAKE_BACKS:
                undone = live.undone_rows[-1] if live.undone_rows else None
                if new and last.entry["type"] == "undo" and undone and undone.order:
                    book.taken_back(live.game, str(undone.seat), OrderKind(undone.order))
                return Followed()
            if last is None or not any(o.orders for o in book.seats.values()):
                return Followed()
            wait = self._grace_left(live, book, grace)
            if wait > 0:
                return Followed(wait=wait, index=live.index)

            def apply(player: str, action: Action, kind: OrderKind) -> None:
                commit(player, action, kind.value)

            kind = OrderKind(last.order) if last.order else None
            acted = book.follow(live.game, apply, kind)
        except Exception as exc:  # the entries stand; the orders wait
            log.warning("game %s: a standing order did not act: %r", live.record.id, exc)
        finally:
            live.followed = live.index
            self._store(live, book)
        return Followed(acted)

    @staticmethod
    def _grace_left(live: LiveGame, book: OrderBook, grace: float) -> float:
        """How long the orders of the seat to act must still wait before acting: what is
        left of `grace` since the last move, if that move was another person's own (they
        may still take it back), else 0."""
        last = live.rows[-1]
        mover = live.undo_seat()
        acting = live.game.acting_player()
        mine = book.seats.get(acting) if acting is not None else None
        if (
            grace <= 0
            or mine is None
            or not mine.orders
            or mover is None
            or mover == acting
            or live.is_bot(mover)
            or last.order is not None
        ):
            return 0.0
        return max(0.0, grace - (time.monotonic() - live.moved_at))

    def _store(self, live: LiveGame, book: OrderBook) -> None:
        for player in book.changed:
            self.storage.set_seat_orders(live.record.id, player, book.seats[player].to_json())

    def _book(self, live: LiveGame) -> OrderBook:
        people = {s.player for s in live.seats if not s.bot}
        stored = self.storage.seat_orders(live.record.id)
        return OrderBook({p: SeatOrders.from_json(raw) for p, raw in stored.items() if p in people})
