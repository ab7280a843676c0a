"""1854 §3.1.2.1 (lost; missing-rules §3) and §5.10: the Major Local Railways A, B and C.

From Phase 5 any two Local Railways may merge into a Major Local Railway (Table 2); from
Phase 6 every Local Railway must merge or close (§5.10). A merger between different owners
needs both (ruling ML1): the partner's owner is asked at once. When Phase 6 begins, the
Local Railways still running are settled one by one in ascending order (ruling ML2).

A Major Local Railway has two 50% certificates, the Director's going to the owner of the
lower-numbered Local Railway and the other to the other owner (ruling ML3); its marker shows
the value of a 50% certificate (§6) and starts on the lowest par space (ruling ML4). It takes
both treasuries and trains and one mail contract, and its home is a green city tile laid on
Steyr & Bad Ischl or Amstetten & Sankt Pölten in its first turn (ruling ML5). It operates
among the Major Companies by share price (ruling ML6), with a train limit of 2 (Table 5),
and may buy the 2-trains scrapped at Phase 4 and, from Phase 8, the scrapped 4-trains; the
first 4-train one buys scraps the 2-trains for good (§5.10, ruling ML7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from tresham.core.actions import Action, LayTile, Pass, PlaceToken
from tresham.core.entities import Corporation
from tresham.core.errors import RuleError
from tresham.core.prompts import Prompt
from tresham.core.rounds.operating import OperatingRound
from tresham.core.shares import treasury
from tresham.titles.t1854 import cities, local_railways
from tresham.titles.t1854.actions import CloseLocal, MergeLocals
from tresham.titles.t1854.facts import rules_of
from tresham.titles.t1854.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.core.shares import ShareRegistry

KIND: Final = "major_local"
RULE: Final = "1854 §3.1.2.1"
RULE_PHASES: Final = "1854 §5.10"
#: The phase from which Local Railways may merge, and the one from which they must (§5.10).
MERGERS_OPEN: Final = "5"
MERGERS_DUE: Final = "6"
#: The title's rules version that brought the mergers (games of version 1 replay without).
MERGERS_VERSION: Final = 2
#: Prompts: the partner's owner agrees or not (ML1); a Local Railway's fate in Phase 6 (ML2).
CONSENT: Final = "merge_consent"
FATE: Final = "local_fate"


def create(corps: dict[str, Corporation], shares: ShareRegistry, data: dict[str, Any]) -> None:
    """Add a Major Local Railway, not yet formed: two 50% certificates (the first the
    Director's) in its treasury; its price is for a 50% certificate (§6)."""
    sym = str(data["sym"])
    corps[sym] = Corporation(
        sym, str(data["name"]), kind=KIND, tokens=len(data["token_costs"]), share_unit=50
    )
    shares.add_corporation(sym, list(data["shares"]), False, treasury(sym))


def is_major_local(game: Game, corp: str) -> bool:
    """Whether `corp` is a Major Local Railway."""
    return game.state.corps[corp].kind == KIND


def _data(game: Game) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = rules_of(game).data["major_local_railways"]
    return data


def merging_open(game: Game) -> bool:
    """§5.10: Local Railways may merge from Phase 5 (in Phase 6 they are settled at once)."""
    reached = game.state.phases_reached
    return MERGERS_OPEN in reached and MERGERS_DUE not in reached


def running(game: Game) -> list[str]:
    """The Local Railways running now, in ascending order."""
    return local_railways.operating(game)


def partners(game: Game, local: str) -> list[str]:
    """The Local Railways `local` may propose to: the others running, except those whose
    owners declined its proposal already (this Operating Round, or this Phase 6 settling)."""
    declined = state_of(game).mergers.declined or []
    return [p for p in running(game) if p != local and (local, p) not in declined]


def merge_actions(game: Game, local: str) -> list[Action]:
    """A Local Railway's turn in Phase 5 begins with merging, closing or carrying on."""
    if not merging_open(game) or not local_railways.is_local(game, local):
        return []
    if game.rules_version < MERGERS_VERSION:
        return []
    merges: list[Action] = [MergeLocals(local, p) for p in partners(game, local)]
    return [*merges, CloseLocal(local), Pass(local)]


def propose(game: Game, local: str, partner: str) -> bool:
    """`local` proposes to merge with `partner`: at once if one player owns both, else
    `partner`'s owner is asked (ruling ML1). Returns whether the merger happened."""
    if local_railways.owner(game, local) == local_railways.owner(game, partner):
        form(game, local, partner)
        return True
    state_of(game).mergers.offer = local
    game.state.pending.insert(0, (CONSENT, partner))
    game.log(f"{local} proposes to merge with {partner}")
    return False


class Consent(Prompt):
    """Ruling ML1: the partner's owner agrees to the proposed merger, or declines (the
    same pair is not proposed again this Phase 6)."""

    kind = CONSENT
    rule = CONSENT

    def actions(self, game: Game, entity: str) -> list[Action]:
        offer = state_of(game).mergers.offer
        assert offer is not None
        return [MergeLocals(entity, offer), Pass(entity)]

    def process(self, game: Game, entity: str, action: Action) -> None:
        mergers = state_of(game).mergers
        proposer = mergers.offer
        assert proposer is not None
        mergers.offer = None
        if isinstance(action, MergeLocals):
            form(game, proposer, entity)
        else:
            if mergers.declined is None:
                mergers.declined = []
            mergers.declined.append((proposer, entity))
            game.log(f"{entity}'s owner declines the merger with {proposer}")
        if mergers.fates is not None:
            next_fate(game)

    def why(self, game: Game, entity: str) -> str:
        """Ruling ML1: a merger between different owners needs the partner's owner."""
        proposer = state_of(game).mergers.offer
        if proposer is None:
            return ""
        owner = local_railways.owner(game, entity) or entity
        return (
            f"{proposer} proposes to merge with {entity} into a Major Local Railway: "
            f"{owner}, {entity}'s owner, agrees or refuses (ruling ML1)"
        )

    def words(self, game: Game, entity: str, action: Action, words: Any) -> str | None:
        """The owner's answer: agree to the merger, or carry on alone."""
        match action:
            case MergeLocals(entity=local, partner=partner):
                return f"Agree: merge {local} with {partner} into a Major Local Railway"
            case Pass(entity=local):
                return f"Refuse the merger: {local} carries on alone"
        return None


class Fate(Prompt):
    """§5.10 Phase 6 (ruling ML2): a Local Railway's owner proposes a merger with a possible
    partner or closes it; then the next Local Railway is settled."""

    kind = FATE
    rule = FATE

    def actions(self, game: Game, entity: str) -> list[Action]:
        return [*(MergeLocals(entity, p) for p in partners(game, entity)), CloseLocal(entity)]

    def process(self, game: Game, entity: str, action: Action) -> None:
        if isinstance(action, MergeLocals):
            if not propose(game, entity, action.partner):
                return  # the partner's owner answers first
        else:
            close(game, entity, "its owner closes it (Phase 6)")
        if state_of(game).mergers.fates is not None:
            next_fate(game)

    def why(self, game: Game, entity: str) -> str:
        """§5.10 Phase 6 (ruling ML2): every Local Railway merges or closes."""
        owner = local_railways.owner(game, entity) or entity
        return (
            f"Phase 6: every Local Railway merges into a Major Local Railway or closes; "
            f"{owner} proposes a merger for {entity} or closes it (§5.10)"
        )


#: The merger prompts, registered by the title (``Title.prompts``).
PROMPTS: Final[tuple[Prompt, ...]] = (Consent(), Fate())


def close(game: Game, local: str, why: str) -> None:
    """A Local Railway closes; with no Local Railway left the extra map is cleared (§5.3)."""
    local_railways.close_one(game, local, why)
    if not running(game) and not _locals_for_sale(game):
        local_railways.clear_extra_map(game)


def _locals_for_sale(game: Game) -> list[str]:
    unsold = state_of(game).unsold_privates or []
    return [sym for sym in unsold if sym in game.state.corps]


def begin_fates(game: Game) -> None:
    """§5.10 Phase 6: "Local Railways must either merge to become Major Local Railways or
    close." Local Railways never sold close; the running ones are settled in ascending order
    (ruling ML2)."""
    for sym in _locals_for_sale(game):
        local_railways.close_one(game, sym, "never sold (Phase 6)")
    if game.rules_version < MERGERS_VERSION:  # rules version 1 had no mergers (ruling L3)
        for sym in running(game):
            local_railways.close_one(game, sym, "Phase 6")
        local_railways.clear_extra_map(game)
        return
    mergers = state_of(game).mergers
    mergers.fates = running(game)
    mergers.declined = []
    next_fate(game)


def next_fate(game: Game) -> None:
    """Ask the owner of the next Local Railway to settle; one without a possible partner
    closes; when all are settled the extra map is cleared (§5.3)."""
    s = game.state
    mergers = state_of(game).mergers
    assert mergers.fates is not None
    fates = [sym for sym in mergers.fates if not s.corps[sym].closed]
    while fates and not partners(game, fates[0]):
        local_railways.close_one(game, fates.pop(0), "no partner is left to merge with (Phase 6)")
    mergers.fates = fates
    if fates:
        s.pending.insert(0, (FATE, fates[0]))
        return
    mergers.fates = None
    mergers.declined = []
    local_railways.clear_extra_map(game)


def form(game: Game, local: str, partner: str) -> str:
    """§3.1.2.1 (rulings ML3, ML4): the two Local Railways become the next Major Local
    Railway. Returns its symbol."""
    s = game.state
    order = running(game)
    low, high = sorted((local, partner), key=order.index)
    data = next(d for d in _data(game) if not s.corps[d["sym"]].floated)
    sym = str(data["sym"])
    mlr = s.corps[sym]
    owners = [local_railways.owner(game, low), local_railways.owner(game, high)]
    certs = s.shares.held(treasury(sym), sym)
    pres = next(c for c in certs if c.president)
    other = next(c for c in certs if not c.president)
    assert owners[0] is not None and owners[1] is not None
    s.shares.move(pres.cid, owners[0])
    s.shares.move(other.cid, owners[1])
    s.shares.president[sym] = owners[0]
    mlr.parred = mlr.floated = True
    mlr.par_price = int(data["start_price"])
    par = rules_of(game).market_def.cells_with("par")
    cell = next(c for c in par if c.price == mlr.par_price)
    s.market.place(sym, cell.pos)
    contracts = state_of(game).mail
    kept = next((x for x in (low, high) if x in contracts), None)
    if kept is not None:  # the other contract, if any, leaves the game with its railway
        contracts[sym] = contracts.pop(kept)
    for x in (low, high):
        game.transfer(x, sym, s.corps[x].cash)
        for tid in s.corps[x].trains:
            s.depot.trains[tid].owner = sym
            mlr.trains.append(tid)
        s.corps[x].trains = []
    state_of(game).tallies.local_mergers += 1
    game.log(
        f"{low} and {high} merge into {sym}: {owners[0]} is its Director, {owners[1]} holds "
        f"the other 50%; its price is {mlr.par_price} G"
    )
    for x in (low, high):
        close(game, x, f"merged into {sym}")
    rnd = s.round
    if isinstance(rnd, OperatingRound) and not rnd.finished(game) and rnd.corp() in (low, high):
        rnd.end_turn_now()
    return sym


# ---------------------------------------------------------------- home (ruling ML5)
def home_actions(game: Game, corp: str) -> list[Action]:
    """A Major Local Railway without a station places its home: in a city already laid on
    one of its home hexes with a free space, or by laying a home tile (a green city of two
    spaces, ruling ML5) on a home hex without a city, keeping the track already there."""
    s = game.state
    c = s.corps[corp]
    if c.kind != KIND or c.placed:
        return []
    data = next(d for d in _data(game) if d["sym"] == corp)
    out: list[Action] = []
    for coord in data["homes"]:
        tile = s.map.tile(coord)
        cities = [i for i, n in enumerate(tile.nodes) if n.kind == "city"]
        if cities:
            out += [
                PlaceToken(corp, coord, i)
                for i in cities
                if s.map.token_problem(corp, coord, i) is None
            ]
            continue
        old_exits = tile.exit_mask(s.map.rotation(coord))
        for tid in s.map.board.extra["major_local_home_tiles"]:
            if s.map.supply.get(tid, 0) <= 0:
                continue
            new = s.map.catalogue[tid]
            for rot in range(6):
                mask = new.exit_mask(rot)
                if old_exits & ~mask or s.map.bad_exits(coord, mask & ~old_exits):
                    continue
                out.append(LayTile(corp, coord, tid, rot))
    return out


def place_home(game: Game, corp: str, action: Action) -> None:
    """Apply a home action: the home tile replaces what the hex held (it is the Major Local
    Railway's home, not its tile lay of the turn), and the home station goes on it."""
    s = game.state
    if isinstance(action, LayTile):
        cities.count(game, action.hex, action.tile)
        s.map.lay_tile(action.hex, action.tile, action.rotation, check=False)
        city = next(i for i, n in enumerate(s.map.tile(action.hex).nodes) if n.kind == "city")
        where = game.state.map.board.place(action.hex)
        game.log(f"{corp} lays its home tile {action.tile} on {where}")
    elif isinstance(action, PlaceToken):
        city = action.city
    else:
        raise RuleError(f"{action.describe()} is not a home station", RULE)
    s.map.place_token(corp, action.hex, city)
    s.corps[corp].placed.append((action.hex, city))
    s.corps[corp].home = action.hex
    game.log(f"{corp} places its home station in {game.state.map.board.place(action.hex)}")


# ---------------------------------------------------------------- trains (ruling ML7)
def recycled_offers(game: Game, corp: str) -> list[tuple[str, int]]:
    """§5.10: the 2-trains scrapped at Phase 4 "will still be needed for the Major Local
    Railways", and at Phase 8 the scrapped 4-trains become "available to them": one of each
    kind, at its printed price (ruling ML7)."""
    s = game.state
    if not is_major_local(game, corp):
        return []
    kinds = ["2"] if not state_of(game).twos_scrapped else []
    if "8" in s.phases_reached:
        kinds.append("4")
    out: list[tuple[str, int]] = []
    for kind in kinds:
        tid = next((t for t in s.depot.order if _scrapped(game, t, kind)), None)
        if tid is not None:
            out.append((tid, s.depot.types[kind].price))
    return out


def _scrapped(game: Game, tid: str, kind: str) -> bool:
    train = game.state.depot.trains[tid]
    return train.kind == kind and train.owner == "rusted"


def recycled_bought(game: Game, kind: str) -> None:
    """§5.10: "If a Major Local Railway buys one of the 4-trains that are now available to
    them, all the 2-trains are finally scrapped", those the Major Local Railways own too."""
    s = game.state
    state = state_of(game)
    if kind != "4" or state.twos_scrapped:
        return
    state.twos_scrapped = True
    for tid in s.depot.order:
        train = s.depot.trains[tid]
        if train.kind != "2" or train.owner in {"scrapped", None}:
            continue
        if train.owner in s.corps:
            s.corps[train.owner].trains.remove(tid)
        s.depot.remove(tid)
    game.log("A Major Local Railway bought a 4-train: the 2-trains are scrapped for good")
