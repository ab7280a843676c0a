"""1849's bridge between the game state and the map/route code: builds the title's track
hooks from the current state and translates actions to map operations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tresham.core.actions import LayTile, RunRoutes
from tresham.core.errors import TrackError
from tresham.core.graph import Connection, Reached, check_tile_lay, legal_tile_lays, reach
from tresham.core.graph import token_slots as graph_token_slots
from tresham.core.rules_protocols import TrainSpec
from tresham.core.track import MapState
from tresham.routes import RouteSolution, solve
from tresham.routes.runs import action_revenue, runs_action
from tresham.titles.t1849.rule_set import (
    SITE_BROWN_FROM,
    site_connection,
    site_engine,
    site_fourth_round,
    site_rules,
)
from tresham.titles.t1849.site_graph import site_graph, site_hexes, site_nodes, site_paths
from tresham.titles.t1849.stale_graph import held, stale_hexes
from tresham.titles.t1849.state import StaleGraph, state_of
from tresham.titles.t1849.track_rules import TrackRules1849, load_board, tile_colors_for_phase
from tresham.titles.t1849.track_rules import new_map as fresh_map
from tresham.titles.t1849.versions import DEALS_VERSION

if TYPE_CHECKING:
    from tresham.core.game import Game

RULE_RUNS = "1849 §OR Run trains"
#: Messina, which the earthquake of the first 12H reverts to yellow (§Messina earthquake).
EARTHQUAKE_HEX = "B14"


def new_map(options: dict[str, Any]) -> MapState:
    """A fresh map with the summary's 168-tile supply (ruling R4), or the site's 170 under
    the "18xx.games" rule set."""
    return fresh_map(manifest="18xx.games" if site_rules(options) else "rules")


def reserve_home(state: MapState, coord: str, sym: str) -> None:
    """Keep a slot of `sym`'s home city for its home token."""
    node = load_board().homes.get(sym, (coord, 0))[1]
    state.reserve(sym, coord, node)


def home_slot_free(state: MapState, coord: str) -> bool:
    """Whether a city of `coord` has a slot free of tokens and reservations."""
    tile = state.tile(coord)
    return any(
        n.kind == "city" and state.free_slots(coord, i) > 0 for i, n in enumerate(tile.nodes)
    )


def home_city(state: MapState, coord: str, sym: str) -> int | None:
    """The city of `coord` where `sym`'s home token goes (its reservation, or a free slot)."""
    for c, node in state.reservations.get(sym, []):
        if c == coord:
            return node
    tile = state.tile(coord)
    for i, n in enumerate(tile.nodes):
        if n.kind == "city" and state.token_problem(sym, coord, i) is None:
            return i
    return None


def place_token(state: MapState, coord: str, city: int, sym: str, *, site: bool = False) -> None:
    """Put `sym`'s token in a city: the first empty slot; with `site` (the "18xx.games" rule
    set from rules version 5), the slot the site gives it (:func:`site_slot`)."""
    state.place_token(sym, coord, city, site_slot(state, coord, city, sym) if site else None)


def site_slot(state: MapState, coord: str, city: int, sym: str) -> int | None:
    """The slot 18xx.games gives a token (``City#get_slot``): a city's first slots are kept
    for the homes reserved there, in the order reserved; a corporation with a reservation
    takes its own, another the first empty slot that no reservation keeps (None: none such,
    the first empty slot then)."""
    slots = state.slots(coord, city)
    reserving = [c for c, keys in state.reservations.items() if (coord, city) in keys]
    if sym in reserving:
        mine = reserving.index(sym)
        return mine if mine < len(slots) and slots[mine] is None else None
    free = [i for i, held in enumerate(slots) if held is None and i >= len(reserving)]
    return free[0] if free else None


def remove_tokens(state: MapState, sym: str) -> None:
    """A closing corporation's tokens leave the map and its reservation is released."""
    state.remove_all_tokens(sym)
    state.release_reservation(sym)


def earthquake(state: MapState) -> list[str]:
    """Messina (B14) reverts to its printed yellow tile; returns whose tokens were lost."""
    return [corp for corp, _key in state.revert_hex(EARTHQUAKE_HEX)]


def rules_for(game: Game, corp: str, sms: bool = False) -> TrackRules1849:
    """The 1849 track hooks for the current state."""
    s = game.state
    own = state_of(game)
    sce = s.companies["SCE"]
    players = {p.name for p in s.players}
    sigi = s.companies["SIGI"]
    return TrackRules1849(
        phase=game.phase.name,
        colors=(
            tile_colors_for_phase(game.phase.name, brown_from=SITE_BROWN_FROM)
            if site_rules(game.options)
            else game.phase.tiles
        ),
        sce_blocks_g13=not sce.closed and (sce.owner is None or sce.owner in players),
        messina_locked=own.messina_locked,
        sigi_owner=sigi.owner if not sigi.closed and sigi.owner in s.corps else None,
        cnm_ports=own.cnm_port,
        sms_active=sms,
        new_track_rule=game.rules_version >= DEALS_VERSION,
        network=site_paths if site_engine(game) else None,
    )


def connection_for(game: Game) -> Connection | None:
    """Where a corporation may build: the site's own walk in the "18xx.games" rule set from
    rules version 6 (ruling S14), else tresham's reach (``None``); from rules version 10,
    the walk a corporation keeps from before a closure, while it keeps one (ruling S29)."""
    if not site_connection(game):
        return None
    if not state_of(game).stale_graphs:
        return site_hexes

    def connection(state: MapState, corp: str) -> Mapping[str, frozenset[int]]:
        kept = stale_hexes(game, corp)
        return kept if kept is not None else site_hexes(state, corp)

    return connection


def legal_lays(game: Game, corp: str, sms_hex: str | None) -> list[LayTile]:
    """Every legal tile lay now (only in `sms_hex`, without connection, under SMS)."""
    s = game.state
    if sms_hex is not None:
        lays = legal_tile_lays(
            s.map, corp, rules_for(game, corp, True), hexes=[sms_hex], require_connection=False
        )
    else:
        lays = legal_tile_lays(s.map, corp, rules_for(game, corp), connection=connection_for(game))
    cash = s.corps[corp].cash
    return [LayTile(corp, t.hex, t.tile, t.rotation) for t in lays if t.cost <= cash]


def check_lay(game: Game, corp: str, action: LayTile, sms_hex: str | None) -> int:
    """Raise TrackError unless the lay is legal and affordable; return its cost."""
    s = game.state
    if sms_hex is not None and action.hex != sms_hex:
        raise TrackError(f"SMS lets {corp} build only in {sms_hex}", "1849 §Privates P4")
    cost = check_tile_lay(
        s.map,
        corp,
        action.hex,
        action.tile,
        action.rotation,
        rules_for(game, corp, sms_hex is not None),
        require_connection=sms_hex is None,
        connection=connection_for(game),
    )
    if cost > s.corps[corp].cash:
        raise TrackError(f"{corp} cannot pay L.{cost} for the terrain", "1849 §OR Lay track")
    return cost


def lay(game: Game, corp: str, action: LayTile, sms_hex: str | None) -> int:
    """Lay the tile and pay its cost; returns the cost."""
    cost = check_lay(game, corp, action, sms_hex)
    game.state.map.lay_tile(action.hex, action.tile, action.rotation)
    game.transfer(corp, "bank", cost)
    return cost


def token_slots(game: Game, corp: str, sms_hex: str | None) -> list[tuple[str, int]]:
    """Cities where `corp` may place a token now."""
    s = game.state
    if sms_hex is not None:
        tile = s.map.tile(sms_hex)
        return [
            (sms_hex, i)
            for i, n in enumerate(tile.nodes)
            if n.kind == "city" and s.map.token_problem(corp, sms_hex, i) is None
        ]
    slots = list(graph_token_slots(s.map, corp, reached_for(game)))
    kept = held(game, corp)
    if kept is None:
        return slots
    # ruling S29: the answers kept from before a closure
    return [slot for slot in slots if kept.can_token and slot in kept.nodes]


def graph_answers(game: Game, corp: str) -> StaleGraph:
    """The answers of the site's walk for `corp` now, which it keeps through a closure
    (ruling S29): whether it has a city to token, the cities and hexes its walk meets."""
    graph = site_graph(game.state.map, corp)
    return StaleGraph(
        can_token=bool(token_slots(game, corp, None)),
        nodes=sorted(graph.nodes),
        hexes={c: sorted(es) for c, es in sorted(graph.hexes.items())},
    )


def reached_for(game: Game) -> Reached | None:
    """Where a corporation may place a token: the cities the site's own walk reaches in the
    "18xx.games" rule set from rules version 7 (ruling S15), else tresham's reach (``None``)."""
    return site_nodes if site_fourth_round(game) else None


def corp_trains(game: Game, corp: str) -> list[TrainSpec]:
    """The corporation's trains as the route code sees them."""
    s = game.state
    out = []
    for tid in s.corps[corp].trains:
        kind = s.depot.trains[tid].kind
        out.append(TrainSpec(tid, kind, s.depot.types[kind].distance))
    return out


def best_routes(game: Game, corp: str) -> RouteSolution:
    """The optimizer's runs for the corporation's trains."""
    return solve(game.state.map, corp, corp_trains(game, corp), rules_for(game, corp))


def best_runs(game: Game, corp: str) -> RunRoutes:
    """The optimizer's runs, as an action."""
    return runs_action(corp, best_routes(game, corp).runs)


def runs_revenue(game: Game, corp: str, action: RunRoutes) -> int:
    """Validate every run (and that no two share track); return the total revenue."""
    return action_revenue(
        game.state.map, corp, corp_trains(game, corp), action, rules_for(game, corp)
    )


def has_route(game: Game, corp: str) -> bool:
    """Whether the corporation reaches at least two stops that make a run (ports aside); in
    the "18xx.games" rule set from rules version 7, whether the site's walk from one of its
    tokens meets two such stops (ruling S18)."""
    s = game.state
    if site_fourth_round(game):
        return site_graph(s.map, corp).train_purchase
    net = reach(s.map, corp)
    stops = 0
    for coord, node in net.nodes:
        nd = s.map.tile(coord).nodes[node]
        if nd.kind in ("city", "town") or (
            nd.kind == "offboard" and not s.map.board.hex(coord).port
        ):
            stops += 1
    return stops >= 2
