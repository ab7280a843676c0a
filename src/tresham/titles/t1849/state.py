"""What 1849 adds to the game state: one typed, documented field per fact.

``Title1849.setup`` makes a :class:`State1849` and sets it as ``GameState.title_state``; every
rule reads and writes it through :func:`state_of`. Deep copies (clones, checkpoints, a bot's
``search_copy``) copy it with the rest of the state.

The state hash sees these facts as ``extra``'s keys: :meth:`State1849.to_dict` gives exactly
the dictionary 1849 kept in ``GameState.extra`` before it had this class (the same keys, one
missing while its fact is absent, and the same values), so every state hash, and with it
every save and import check, is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tresham.core.rounds.operating import Turn

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.core.rounds.operating import OperatingRound


@dataclass
class Variants:
    """The optional rules' state (AAG rulebook §14; ``variants.py`` reads and writes it)."""

    #: §14.2: the corporations whose single L.500 bond is out (in the order issued): each pays
    #: L.50 interest every OR, and its shares cost their holders L.100 each at the end.
    bonds: list[str] = field(default_factory=list)
    #: §14.3: the corporations that bought an E-token, so may buy E-trains (in buying order).
    e_tokens: list[str] = field(default_factory=list)
    #: §14.3: whether an E-token has been sold: the first costs more than the ones after it.
    e_token_sold: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The canonical form (hashed): the keys ``extra["variants"]`` held."""
        return {
            "bonds": self.bonds,
            "e_tokens": self.e_tokens,
            "e_token_sold": self.e_token_sold,
        }


@dataclass
class StaleGraph:
    """Ruling S29: the answers of the site's walk a corporation keeps from before a closure
    (``stale_graph.py``)."""

    #: Whether it had a city to place a token in (the site's ``can_token?``).
    can_token: bool
    #: The cities its walk met (the site's ``connected_nodes``), as (hex, city).
    nodes: list[tuple[str, int]]
    #: The hexes where it could build, with the edges its walk reached each by (the site's
    #: ``connected_hexes``).
    hexes: dict[str, list[int]]

    def to_dict(self) -> dict[str, Any]:
        """The canonical form (hashed)."""
        return {"can_token": self.can_token, "nodes": self.nodes, "hexes": self.hexes}


@dataclass
class State1849:
    """1849's own facts, beyond the state every title shares."""

    #: 1849 §SR "You never choose which to start: you get the next one": the order in which
    #: corporations start, drawn at setup (with ``delay_ift``, IFT not among the first three).
    #: A closed corporation goes to its end (§Trouble "It restarts later, last in the order"),
    #: and so does AFG while all five of its home cities are full (§SR Starting a corporation).
    order: list[str]
    #: §Players: the certificate limit for this number of players (with five corporations at
    #: four players, the lower one).
    cert_limit: int
    #: §Start, ruling R1: the price at which the first player offered P1 (SCE) takes it free:
    #: L.5; L.0 under the "18xx.games" rule set (S1).
    p1_free_at: int
    #: P5 RSA "Comes with the president's certificate of the first corporation. Closes when
    #: that corporation buys its first train": that corporation (the first in the order); None
    #: once that corporation has closed (its restart is not RSA's).
    rsa_corp: str | None
    #: §Trouble "It restarts later": the corporations closed since the last stock round began
    #: (cleared as the next one begins), so one closed in a stock round is not started again
    #: in the same round.
    closed_recently: list[str] = field(default_factory=list)
    #: §Messina earthquake "No upgrade until after the next SR": set by the earthquake, cleared
    #: when the next stock round begins.
    messina_locked: bool = False
    #: P3 CNM "Close to add +L.20 to one port on your own routes, for good": each corporation
    #: that closed CNM, and the port it chose; forgotten when that corporation closes.
    cnm_port: dict[str, str] = field(default_factory=dict)
    #: §Endgame "L.377 ends the game as soon as that corporation has operated": the first
    #: corporation to reach L.377; None before that, and again if it closes first.
    end_after: str | None = None
    #: Ruling R22: the operating order at the start of the stock-round turn whose sales are
    #: being played, which orders the moved corporations when a shared cell is re-stacked.
    #: None until the game's first sale in a stock round (then kept, and reset each turn).
    turn_order: list[str] | None = None
    #: Ruling R22: the corporations whose price this stock-round turn's sales have moved; at
    #: two or more, shared market cells are re-stacked. None until the game's first such sale.
    moved_by_sales: list[str] | None = None
    #: Ruling R23: the corporation whose presidency a purchase has just changed, while the
    #: outgoing president answers the swap prompt ("One 20% cert" or "Two 10% certs"); None
    #: when no such answer is awaited.
    swap_corp: str | None = None
    #: AAG rulebook §14: the optional rules' state; None when none of them is played.
    variants: Variants | None = None
    #: Ruling S9 ("18xx.games" rule set): players whose loan-or-leave choice waits for the
    #: next operating round, the bankruptcy having ended the one it happened in.
    loan_later: list[str] = field(default_factory=list)
    #: Ruling S25 ("18xx.games" rule set, rules version 10): the tokens of each corporation
    #: that has sold one since it started, in the site's order (``token_objects.py``): each
    #: its (hex, city) on the map, or None while off it after a sale.
    token_objects: dict[str, list[tuple[str, int] | None]] = field(default_factory=dict)
    #: Ruling S27 ("18xx.games" rule set, rules version 10): the player whose sale has just
    #: closed a corporation and ended the stock round at once (``closing_sale.py``), until the
    #: next round begins; None otherwise.
    sale_ended_round: str | None = None
    #: Ruling S29 ("18xx.games" rule set, rules version 10): the corporations whose graph the
    #: site has worked out since its graph was last cleared (``stale_graph.py``). Not hashed:
    #: it changes nothing but the snapshots a closure takes (``stale_graphs``), which are.
    graph_held: list[str] = field(default_factory=list)
    #: Ruling S29: the answers of the site's walk each corporation keeps from before a
    #: closure, until the site's graph is next cleared.
    stale_graphs: dict[str, StaleGraph] = field(default_factory=dict)
    #: Ruling S27: the players whose next stock-round turns the site passes after a sale into
    #: "Closed" (the seller's own turn first), in turn order; each may only pass.
    lost_turns: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The canonical form (hashed): the keys 1849 kept in ``GameState.extra``. The facts
        that start absent (``turn_order``, ``moved_by_sales``, ``swap_corp``, ``variants``)
        are left out while they are None, as their keys were; ``loan_later``,
        ``token_objects``, ``stale_graphs`` and ``lost_turns`` while they are empty;
        ``sale_ended_round`` while None."""
        out: dict[str, Any] = {
            "order": self.order,
            "rsa_corp": self.rsa_corp,
            "closed_recently": self.closed_recently,
            "messina_locked": self.messina_locked,
            "cnm_port": self.cnm_port,
            "end_after": self.end_after,
            "cert_limit": self.cert_limit,
            "p1_free_at": self.p1_free_at,
        }
        if self.turn_order is not None:
            out["turn_order"] = self.turn_order
        if self.moved_by_sales is not None:
            out["moved_by_sales"] = self.moved_by_sales
        if self.swap_corp is not None:
            out["swap_corp"] = self.swap_corp
        if self.variants is not None:
            out["variants"] = self.variants.to_dict()
        if self.loan_later:
            out["loan_later"] = self.loan_later
        if self.token_objects:
            out["token_objects"] = self.token_objects
        if self.sale_ended_round is not None:
            out["sale_ended_round"] = self.sale_ended_round
        if self.stale_graphs:
            out["stale_graphs"] = {c: g.to_dict() for c, g in self.stale_graphs.items()}
        if self.lost_turns:
            out["lost_turns"] = self.lost_turns
        return out


def state_of(game: Game) -> State1849:
    """1849's state in `game`."""
    s = game.state.title_state
    assert isinstance(s, State1849), "not a game of 1849"
    return s


@dataclass
class Turn1849(Turn):
    """What a corporation's turn of 1849 remembers beyond core's facts."""

    #: It closed the SMS this turn (§Privates: build in one of its hexes at no cost).
    sms_used: bool = False
    #: The hex the SMS lets it build in; None once built there (or never closed).
    sms_hex: str | None = None


def turn_of(rnd: OperatingRound) -> Turn1849:
    """The turn record of an operating round of 1849."""
    turn = rnd.turn
    assert isinstance(turn, Turn1849), "not a turn of 1849"
    return turn
