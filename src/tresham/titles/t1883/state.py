"""What 1883 adds to the game state: one typed, documented field per fact.

``Title1883.setup`` makes a :class:`State1883` and sets it as ``GameState.title_state``; every
rule reads and writes it through :func:`state_of`. Deep copies (clones, checkpoints, a bot's
``search_copy``) copy it with the rest of the state; a search copy re-shuffles
``events.deck`` (``Title1883.hide_unknown``).

The state hash sees these facts as ``extra``'s keys: :meth:`State1883.to_dict` gives exactly
the dictionary 1883 kept in ``GameState.extra`` before it had this class (the same keys, one
missing while its fact is absent, the same values, the positional records as lists), so
every state hash, and with it every save and import check, is unchanged. The keys core keeps
in ``extra`` (``types_bought``, ``bank_broke_in_sr``, ``final_set``) stay there.

Paragraphs (§) are those of the 1883 rulebook; rulings (R…) those of ``docs/rulings/1883.md``.
This module is a leaf: it imports nothing of the title's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tresham.core.rounds.operating import Turn

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.core.rounds.operating import OperatingRound


# ============================================ Random Events (§7, §11)
@dataclass
class ClosedHex:
    """§11.1 #2 Flooding, #5 Landslide: a hex closed to tile lays for this OR, and the card
    (e.g. ``"1883 §11 #2"``) that closed it."""

    coord: str
    card: str

    def to_list(self) -> list[Any]:
        return [self.coord, self.card]


@dataclass
class OrEffects:
    """What the Random Event drawn this OR changes until the OR ends (§6.2, §11); made anew
    as each OR begins."""

    #: §11 strikes, #14 Autarchy, #22 Trains Are on Time, #26 Hot Autumn: by corporation, the
    #: revenue effects it suffers this OR, in the order they struck: ``"zero"``, ``"half"``,
    #: ``"plus_half"`` (§11.0 notes: halving rounds down, +50% up, to L.10; ruling R23).
    revenue: dict[str, list[str]] = field(default_factory=dict)
    #: §11.1 #2 Flooding (the F hexes), #5 Landslide (the hill and mountain hexes): no tile
    #: may be laid or upgraded there this OR.
    closed: list[ClosedHex] = field(default_factory=list)
    #: §11 #12, #21, #25: the change to an off-board location's value this OR, by hex.
    offboards: dict[str, int] = field(default_factory=dict)
    #: §11.1 #10 Red Week: no route along the FS red track this OR.
    red_week: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "revenue": self.revenue,
            "closed": [c.to_list() for c in self.closed],
            "offboards": self.offboards,
            "red_week": self.red_week,
        }


@dataclass
class SupportAsk:
    """§7.0: an entity named by the card that holds `cost` Political Support cards, asked
    whether it plays them to avoid `effect` (``"zero"``, ``"half"``, ``"gold"``,
    ``"war_effort"``, ``"marshall"``)."""

    entity: str
    effect: str
    cost: int

    def to_list(self) -> list[Any]:
        return [self.entity, self.effect, self.cost]


@dataclass
class Debt:
    """§11.1 #1 (ruling R26), §6.12 (ruling R8): money a player owes the bank and is raising
    as in §6.9.6, and the corporation it is owed for (whose presidency the player keeps, and
    which closes if the player goes bankrupt); None for a personal debt."""

    amount: int
    corp: str | None

    def to_list(self) -> list[Any]:
        return [self.amount, self.corp]


@dataclass
class Bomb:
    """§11.2 #13 Air Raids: a bomb rolled by `roller` on `coord`, waiting to fall (bombs fall
    in the order rolled; the roller chooses the downgrade, ruling R24)."""

    roller: str
    coord: str

    def to_list(self) -> list[Any]:
        return [self.roller, self.coord]


@dataclass
class Events:
    """The Random Event deck and what its cards have left in play (§7, §11;
    ``events.py`` reads and writes it)."""

    #: §2.3 d, §7.1: the undrawn cards of this era, in drawing order (unknown to the players:
    #: a bot's search copy shuffles them). Empty without the events (§12.3).
    deck: list[int]
    #: §7.1: the era (1-3); the first 3bisT begins the second, the first 6T the third.
    era: int = 1
    #: §6.2: the cards drawn so far, in drawing order.
    drawn: list[int] = field(default_factory=list)
    #: This OR's effects of the card drawn in it.
    effects: OrEffects = field(default_factory=OrEffects)
    #: §11.3 #26 Hot Autumn: on from its draw until the next SR begins.
    hot_autumn: bool = False
    #: §11.1 #11 Strike Breaker: the OR in which a General Strike has no effect (the one after
    #: the card's); None before the card is drawn.
    strike_breaker_or: int | None = None
    #: §11.2 #18, §11.3 #31: money put aside, out of the bank; #30 returns up to L.500 of it.
    aside: int = 0
    #: §7.0: the Political Support plays awaiting an answer, in asking order.
    asks: list[SupportAsk] = field(default_factory=list)
    #: §6.9.6: by player, the debt a player is raising money for.
    owed: dict[str, Debt] = field(default_factory=dict)
    #: §11.1 #6 Railroad Accident: the corporations that operated in the last OR.
    last_operated: list[str] = field(default_factory=list)
    #: §11.2 #13 Air Raids: the bombs still to fall; None until the first raid.
    raids: list[Bomb] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The canonical form: the keys ``extra["events"]`` held (``raids`` only once made)."""
        out: dict[str, Any] = {
            "deck": self.deck,
            "era": self.era,
            "drawn": self.drawn,
            "effects": self.effects.to_dict(),
            "hot_autumn": self.hot_autumn,
            "strike_breaker_or": self.strike_breaker_or,
            "aside": self.aside,
            "asks": [a.to_list() for a in self.asks],
            "owed": {p: d.to_list() for p, d in self.owed.items()},
            "last_operated": self.last_operated,
        }
        if self.raids is not None:
            out["raids"] = [b.to_list() for b in self.raids]
        return out


# ============================================ Political Support (§5.5, §7.0)
@dataclass
class Support:
    """The Political Support cards (§2.2.1, §5.5, §7.0): in players' hands or in the supply."""

    #: §2.2.1: one each at the start (none under §12.3); §5.5: bought one at a time in an SR,
    #: nine at most; §7.0: played against events; §5.6.1: one played pays a concession bonus
    #: as a dividend.
    held: dict[str, int]
    #: §2.1 (24 cards): the cards in the supply; played cards go back to it (§7.0).
    supply: int


# ============================================ Government Concessions (§5.6)
@dataclass
class ConcessionStatus:
    """One Government Concession's state (§5.6)."""

    #: §5.6: the railway corporation that bought it; None while it is in the pool.
    owner: str | None = None
    #: §5.6.1 (fulfilled, or joined unowned: ruling R6), §5.6.2 (unsold at the first 8T):
    #: it has left play.
    removed: bool = False
    #: §6.12: the ORs left to its owner before the deadline; None while unowned.
    due: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"owner": self.owner, "removed": self.removed, "due": self.due}


@dataclass
class Concessions:
    """The Government Concessions (§5.6; ``concessions.py`` and the stock round)."""

    #: By concession number (as printed, a string), in the table's order (App. 3).
    status: dict[str, ConcessionStatus]
    #: §5.6 "A Railway Corporation may buy only one Concession per SR": the corporations that
    #: bought one in this SR (cleared as each SR begins).
    bought_this_sr: list[str] = field(default_factory=list)
    #: How many concessions have been fulfilled (§5.6.1; a simulation summary counts it).
    fulfilled: int = 0
    #: §5.6.1, ruling R30: by corporation, the bonuses of concessions one lay fulfilled that
    #: await the president's choice (treasury or dividend), in turn. None until the first
    #: such choice; a corporation's entry goes once its bonuses are paid.
    bonus_waiting: dict[str, list[int]] | None = None


# ============================================ SEFTA (§8.4, §12.1)
@dataclass
class SeftaMerging:
    """§8.4 steps D-G, while players answer for their odd shares (step D)."""

    #: §8.4: the two merging corporations (FMV and FSMMF).
    pair: list[str]
    #: §8.4 step E, ruling R16: the active corporation's president, who buys a share should no
    #: player hold more than 10%; None if it had none.
    buyer: str | None


@dataclass
class Sefta:
    """The SEFTA merger (§8.4) and the mandatory-merger variant (§12.1)."""

    #: §12.1, ruling R28: the first 5T was bought this turn; the merger happens after it.
    due: bool = False
    #: §8.4: the corporation that proposed the merger (its partner's president consents or
    #: refuses); None until a merger is proposed.
    active: str | None = None
    #: §12.1: SEFTA left the game (FMV and FSMMF were not both in play at the first 5T).
    removed: bool = False
    #: §8.4 D-G under way; None otherwise.
    merging: SeftaMerging | None = None
    #: How many mergers took place (a simulation summary counts them).
    mergers: int = 0


# ============================================ the title's state
@dataclass
class PortTokens:
    """A corporation's port tokens (§6.6; ``ports.py``)."""

    #: §6.6: the tokens not yet placed (FSF two; one more with the CNP, §3.1 P3, §3.3).
    unplaced: int
    #: §6.6: the port hexes holding one of its tokens, in placing order.
    placed: list[str] = field(default_factory=list)
    #: §6.6 "The FSF's second port token can be placed ... after the first 3T is sold".
    second_waits: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"unplaced": self.unplaced, "placed": self.placed, "second_waits": self.second_waits}


@dataclass
class State1883:
    """1883's own facts, beyond the state every title shares."""

    #: §2.2.1, §5.5, §7.0: the Political Support cards.
    support: Support
    #: §5.6: the Government Concessions.
    concessions: Concessions
    #: §8.1: the CCFR Railway Co-operative's symbol.
    coop: str
    #: §7, §11: the Random Event deck and its effects.
    events: Events
    #: §6.6: by corporation, its port tokens; a closed corporation's leave play (§5.8).
    ports: dict[str, PortTokens] = field(default_factory=dict)
    #: §8.1.2: the Co-operative's president, who acts for it (rotating left after each OR);
    #: None before the first SR ends, while frozen (§8.1.7) and after its capitalisation.
    coop_president: str | None = None
    #: §5.6 "A Corporation may not acquire a Concession in the same SR it was floated": by
    #: corporation, the stock round in which it last floated.
    started_in_sr: dict[str, int] = field(default_factory=dict)
    #: §6.9.6 (a bankrupt player's shares), §8.2.1 (the Co-operative's capitalisation), ruling
    #: R17 (SEFTA's pool pairs): corporations whose pool may hold more than 50%.
    pool_over_limit: list[str] = field(default_factory=list)
    #: §8.3.1: SARSA's bus tokens: hex -> the group (the home it grew from: 0 or 1); emptied
    #: when SARSA closes (§5.8).
    bus_tokens: dict[str, int] = field(default_factory=dict)
    #: §8.4, §12.1: the SEFTA merger.
    sefta: Sefta = field(default_factory=Sefta)
    #: §6.0 step 4 (after the last corporation of an OR): the end-of-OR steps (events, §6.12
    #: deadlines, §8.1.2 rotation) are done, once, before the prompts they raise; None until
    #: the first OR ends.
    or_settled: bool | None = None
    #: §3.4.1: 10% SV shares the CNP put in the pool before SV floated; SV receives par for
    #: each when it floats.
    sv_par_owed: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The canonical form (hashed): the keys 1883 kept in ``GameState.extra``. The facts
        that start absent are left out while they are absent, as their keys were."""
        c = self.concessions
        out: dict[str, Any] = {
            "support": self.support.held,
            "support_supply": self.support.supply,
            "concessions": {n: st.to_dict() for n, st in c.status.items()},
            "concession_bought": c.bought_this_sr,
            "started_in_sr": self.started_in_sr,
            "coop": self.coop,
            "coop_president": self.coop_president,
            "pool_over_limit": self.pool_over_limit,
            "concessions_fulfilled": c.fulfilled,
            "mergers": self.sefta.mergers,
            "bus_tokens": self.bus_tokens,
            "ports": {corp: p.to_dict() for corp, p in self.ports.items()},
            "events": self.events.to_dict(),
        }
        if c.bonus_waiting is not None:
            out["bonus_waiting"] = c.bonus_waiting
        if self.or_settled is not None:
            out["or_settled"] = self.or_settled
        if self.sv_par_owed:
            out["sv_par_owed"] = self.sv_par_owed
        if self.sefta.due:
            out["sefta_due"] = True
        if self.sefta.active is not None:
            out["sefta_active"] = self.sefta.active
        if self.sefta.removed:
            out["sefta_removed"] = True
        if self.sefta.merging is not None:
            out["sefta_pair"] = self.sefta.merging.pair
            out["sefta_buyer"] = self.sefta.merging.buyer
        return out


def state_of(game: Game) -> State1883:
    """1883's state in `game`."""
    s = game.state.title_state
    assert isinstance(s, State1883), "not a game of 1883"
    return s


@dataclass
class Turn1883(Turn):
    """What a corporation's turn of 1883 remembers beyond core's facts."""

    #: Its ordinary tile lays so far (6.4; the Co-operative's, 8.1.4).
    lays: int = 0
    #: One of them was on an F hex (6.4.4: the FSF's second lay must follow one).
    f_lay: bool = False
    #: The CCFR's free hill or mountain lay is made (8.1.4, 8.2.3).
    free_hill_lay: bool = False
    #: The Co-operative's lays, each with the home stations it could be laid from (8.1.4:
    #: a home serves one lay a turn), as ``[hex, node]`` lists.
    lay_homes: list[list[list[object]]] = field(default_factory=list)
    #: The privates whose lays the turn has used; None before the turn's first lay (kept as
    #: the state hash has always seen it: the empty list from the first lay on).
    private_lays: list[str] | None = None
    #: The hexes of the bus tokens SARSA placed this turn.
    buses: list[str] = field(default_factory=list)
    #: Whether this is SARSA's first bus turn (no bus token on the board when it began);
    #: None until its first token of the turn is placed.
    first_bus_turn: bool | None = None


def turn_of(rnd: OperatingRound) -> Turn1883:
    """The turn record of an operating round of 1883."""
    turn = rnd.turn
    assert isinstance(turn, Turn1883), "not a turn of 1883"
    return turn
