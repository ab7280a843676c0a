"""Standing orders: what a seat asks to be done in its name while it is away.

18xx.games players rely on "programmed actions"; tresham's seats may hold four standing
orders, each stored with the game and shown only to its own seat:

- **auto-pass**: pass whenever Pass is the seat's only legal choice (for itself or for a
  corporation it presides);
- **pass-round**: pass at every turn of the current stock round (it ends with that round);
- **buy-until**: in stock rounds, buy one certificate of a named corporation at each turn until
  the seat holds a given percentage, then end the turn; it is cancelled when anyone else buys or
  sells that corporation's shares, or when the seat cannot buy one at its turn (no money, no
  share left, a limit);
- **pass-privates**: pass wherever the only choices are to buy a private company or pass (the
  end-of-turn private step).

An order acts as its seat's own action, through ``Game.apply`` and every check a person's
action meets; the server logs it "(standing order)". This module is the rule of what an order
does; where it runs (the server, the terminal) decides when: an order acts only right after
an action (never right after an undo or a redo, so an undo that reopened a decision leaves it
to the person), and an order whose action its seat takes back is cancelled. Bots never see
orders: they are not part of the game's state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tresham.core.actions import Action, BuyCompany, BuyShares, Par, Pass, SellShares
from tresham.core.errors import RuleError
from tresham.core.game import Game

#: The rule name of an order's refusal.
RULE = "standing order"
#: How many ended orders a seat is shown (the latest).
ENDED_KEPT = 5
#: How many order moves one action may set off (every seat passing a whole round is far less).
MAX_MOVES = 1000


class OrderKind(StrEnum):
    """What a standing order does (its name in the API and the terminal)."""

    AUTO_PASS = "auto-pass"
    PASS_ROUND = "pass-round"
    BUY_UNTIL = "buy-until"
    PASS_PRIVATES = "pass-privates"


@dataclass(frozen=True)
class StandingOrder:
    """One order of a seat. `corporation` and `percent` belong to buy-until; `stock_round`
    (the stock round's number) to pass-round."""

    kind: OrderKind
    corporation: str | None = None
    percent: int | None = None
    stock_round: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The stored and served form."""
        out: dict[str, Any] = {"kind": self.kind.value}
        for name in ("corporation", "percent", "stock_round"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> StandingOrder:
        """An order as stored (trusted: :func:`make_order` checked it when it was set)."""
        return cls(
            OrderKind(raw["kind"]),
            raw.get("corporation"),
            raw.get("percent"),
            raw.get("stock_round"),
        )

    def words(self, game: Game) -> str:
        """The order in a player's words."""
        match self.kind:
            case OrderKind.AUTO_PASS:
                return "Pass whenever Pass is my only choice"
            case OrderKind.PASS_ROUND:
                return f"Pass for the rest of stock round {self.stock_round}"
            case OrderKind.BUY_UNTIL:
                return (
                    f"Buy a share of {self.corporation} at each stock-round turn until I hold "
                    f"{self.percent}%"
                )
            case OrderKind.PASS_PRIVATES:
                return "Pass when my only choice is to buy a private"


@dataclass(frozen=True)
class OrderMove:
    """What an order does now: `action` (None: nothing, the order ends), whether the order
    `ends` with it, and `why` it ends (a player's words)."""

    order: StandingOrder
    action: Action | None
    ends: bool = False
    why: str = ""


def make_order(game: Game, raw: Any) -> StandingOrder:
    """A new order from its API form (``{"kind", "corporation"?, "percent"?}``), checked
    against the game now. Raises RuleError saying what is wrong."""
    if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str):
        raise RuleError('a standing order is {"kind": ...}', RULE)
    try:
        kind = OrderKind(raw["kind"])
    except ValueError:
        known = ", ".join(k.value for k in OrderKind)
        raise RuleError(f"no standing order {raw['kind']!r} (there are: {known})", RULE) from None
    allowed = {"kind", "corporation", "percent"} if kind is OrderKind.BUY_UNTIL else {"kind"}
    if extra := sorted(set(raw) - allowed):
        raise RuleError(f"{kind.value}: unknown fields {extra}", RULE)
    if game.state.finished:
        raise RuleError("the game is over", RULE)
    state = game.state
    if kind is OrderKind.PASS_ROUND:
        if state.round is None or state.round.kind != "stock":
            raise RuleError("pass-round is for a stock round, and none is under way", RULE)
        return StandingOrder(kind, stock_round=state.stock_round_no)
    if kind is OrderKind.BUY_UNTIL:
        corp, percent = raw.get("corporation"), raw.get("percent")
        if not isinstance(corp, str) or corp not in state.corps:
            names = ", ".join(sorted(state.corps))
            raise RuleError(f"buy-until needs a corporation (one of {names})", RULE)
        if not isinstance(percent, int) or isinstance(percent, bool) or not 10 <= percent <= 100:
            raise RuleError("buy-until needs a percentage from 10 to 100", RULE)
        return StandingOrder(kind, corporation=corp, percent=percent)
    return StandingOrder(kind)


def next_move(
    game: Game, player: str, orders: Sequence[StandingOrder], last: OrderKind | None = None
) -> OrderMove | None:
    """What `player`'s orders do now, if it is their turn (None: nothing); `last`: the kind
    of the order that made the game's last action, if one did. An order that can no longer
    act says so with ``action=None, ends=True``."""
    if game.state.finished or game.acting_player() != player:
        return None
    legal = game.legal_actions()
    for order in orders:
        move = _move(game, player, order, legal, last)
        if move is not None:
            return move
    return None


def expired(game: Game, order: StandingOrder) -> bool:
    """Whether an order can never act again (its stock round is over, the game is over, or
    its corporation is gone)."""
    state = game.state
    if state.finished:
        return True
    if order.kind is OrderKind.PASS_ROUND:
        in_round = state.round is not None and state.round.kind == "stock"
        return not in_round or state.stock_round_no != order.stock_round
    if order.kind is OrderKind.BUY_UNTIL:
        return order.corporation not in state.corps
    return False


def cancelled_by(orders: Iterable[StandingOrder], actor: str, action: Action) -> list[str]:
    """Why each of the orders is cancelled by `actor`'s action (one line each; an order
    not cancelled gives no line): buy-until ends when anyone else buys or sells its
    corporation's shares."""
    traded = _traded(action)
    return [
        f"{actor} traded {order.corporation}"
        for order in orders
        if order.kind is OrderKind.BUY_UNTIL and traded is not None and traded == order.corporation
    ]


def _traded(action: Action) -> str | None:
    match action:
        case BuyShares() | SellShares() | Par():
            return action.corporation
    return None


def _only_pass(legal: Sequence[Action]) -> Action | None:
    return legal[0] if len(legal) == 1 and isinstance(legal[0], Pass) else None


def _pass_of(legal: Sequence[Action]) -> Action | None:
    return next((a for a in legal if isinstance(a, Pass)), None)


def _move(
    game: Game,
    player: str,
    order: StandingOrder,
    legal: Sequence[Action],
    last: OrderKind | None,
) -> OrderMove | None:
    match order.kind:
        case OrderKind.AUTO_PASS:
            action = _only_pass(legal)
            return None if action is None else OrderMove(order, action)
        case OrderKind.PASS_PRIVATES:
            buys = any(isinstance(a, BuyCompany) for a in legal)
            only = all(isinstance(a, BuyCompany | Pass) for a in legal)
            action = _pass_of(legal)
            return OrderMove(order, action) if buys and only and action is not None else None
        case OrderKind.PASS_ROUND:
            if expired(game, order):
                return OrderMove(order, None, ends=True, why="the stock round is over")
            action = _pass_of(legal)
            return None if action is None else OrderMove(order, action)
        case OrderKind.BUY_UNTIL:
            return _buy_until(game, player, order, legal, last is OrderKind.BUY_UNTIL)


def _buy_until(
    game: Game, player: str, order: StandingOrder, legal: Sequence[Action], by_order: bool
) -> OrderMove | None:
    state = game.state
    corp = order.corporation
    assert corp is not None and order.percent is not None
    if corp not in state.corps:
        return OrderMove(order, None, ends=True, why=f"{corp} is gone")
    if state.round is None or state.round.kind != "stock":
        return None
    reached = _reached(game, player, order)
    last = game.actions[-1] if game.actions else None
    bought_now = (
        by_order
        and isinstance(last, BuyShares)
        and last.entity == player
        and last.corporation == corp
    )
    if bought_now:
        # The certificate of this turn is bought: the order ends the turn (it ends too, if
        # the holding is reached).
        action = _pass_of(legal)
        return OrderMove(order, action, ends=bool(reached) or action is None, why=reached)
    if reached:
        return OrderMove(order, None, ends=True, why=reached)
    buys = [a for a in legal if isinstance(a, BuyShares) and a.corporation == corp]
    if not buys:
        return OrderMove(order, None, ends=True, why=f"{player} cannot buy a share of {corp} now")
    # one certificate, the smallest; from the initial offering before the pool
    choice = min(buys, key=lambda a: (a.percent, a.source != "treasury"))
    return OrderMove(order, choice)


def _reached(game: Game, player: str, order: StandingOrder) -> str:
    """Why a buy-until order is done, in words, when `player` holds its percentage ("" when
    not)."""
    assert order.corporation is not None and order.percent is not None
    held = game.state.shares.percent(player, order.corporation)
    return f"{player} holds {held}% of {order.corporation}" if held >= order.percent else ""


@dataclass
class SeatOrders:
    """A seat's orders, and the latest that ended (``{"order", "why"}`` in words)."""

    orders: list[StandingOrder] = field(default_factory=list)
    ended: list[dict[str, str]] = field(default_factory=list)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> SeatOrders:
        """As stored (``to_json``)."""
        return cls(
            [StandingOrder.from_json(o) for o in raw.get("orders", [])],
            list(raw.get("ended", [])),
        )

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return {"orders": [o.to_json() for o in self.orders], "ended": self.ended}

    def end(self, game: Game, order: StandingOrder, why: str) -> None:
        """Drop `order`, remembering why."""
        if order in self.orders:
            self.orders.remove(order)
        self.ended = [*self.ended, {"order": order.words(game), "why": why}][-ENDED_KEPT:]


#: Makes an order's action: (player, action, the order's kind).
Apply = Callable[[str, Action, OrderKind], None]


@dataclass
class OrderBook:
    """The orders of a game's seats (those holding any), and which of them changed: the
    one sequence of what orders do, for the server and the terminal alike."""

    seats: dict[str, SeatOrders] = field(default_factory=dict)
    changed: set[str] = field(default_factory=set)
    _told: dict[str, list[dict[str, str]]] = field(default_factory=dict, repr=False)

    def end(self, game: Game, player: str, order: StandingOrder, why: str) -> None:
        """`player`'s `order` ends, for `why`."""
        self.seats[player].end(game, order, why)
        self.changed.add(player)

    def ended_lines(self) -> list[str]:
        """What to tell of the orders that ended since this was last asked: one line
        each ("Ann's standing order ends: ... (why)")."""
        lines = []
        for player in sorted(self.changed):
            for ended in self.seats[player].ended[-ENDED_KEPT:]:
                if ended not in self._told.setdefault(player, []):
                    self._told[player].append(ended)
                    lines.append(
                        f"{player}'s standing order ends: {ended['order']} ({ended['why']})"
                    )
        self.changed.clear()
        return lines

    def traded(self, game: Game, actor: str, action: Action) -> None:
        """`actor` made `action`: cancel the other seats' orders it cancels."""
        for player, mine in self.seats.items():
            if player != actor:
                for order in list(mine.orders):
                    for why in cancelled_by([order], actor, action):
                        self.end(game, player, order, why)

    def taken_back(self, game: Game, player: str, kind: OrderKind) -> None:
        """`player` took back a move their order of `kind` made: that order goes."""
        mine = self.seats.get(player)
        for order in [o for o in mine.orders if o.kind is kind] if mine else []:
            self.end(game, player, order, f"{player} took back its move")

    def follow(self, game: Game, apply: Apply, last: OrderKind | None) -> bool:
        """Let the orders of whoever acts next act, in turn, until none does (`last`: the
        kind of the order that made the game's last action, if one did; call this only
        right after an action, never after an undo or redo); returns whether any acted."""
        acted = False
        for _ in range(MAX_MOVES):
            player = game.acting_player()
            if game.state.finished or player is None or player not in self.seats:
                break
            move = next_move(game, player, self.seats[player].orders, last)
            if move is None:
                break
            if move.ends:
                self.end(game, player, move.order, move.why)
            if move.action is None:
                if not move.ends:
                    break
                continue
            apply(player, move.action, move.order.kind)
            acted, last = True, move.order.kind
            self.traded(game, player, move.action)
            # a buy that reached its holding and ended the turn ends its order now, not at
            # the seat's next turn (the seat's list would show it meanwhile)
            reached = move.order.kind is OrderKind.BUY_UNTIL and _reached(game, player, move.order)
            if (
                reached
                and game.acting_player() != player
                and move.order in self.seats[player].orders
            ):
                self.end(game, player, move.order, reached)
        return acted
