"""The map's mutable state: placed tiles, station tokens, home reservations, the tile supply.

Generic tile-lay legality (any title; title hooks add to it in :mod:`tresham.core.graph`):

- a white hex takes a yellow tile; a tile is replaced only by the next colour
  (yellow → green → brown → gray); gray, red and blue hexes never take a tile;
- the labels are the same (a plain hex takes an unlabelled tile, a "P" hex a "P" tile);
- the number of cities and of towns is the same (a town hex takes a town tile, a city hex a
  city tile, a plain hex a plain tile), except that a tile whose label is one of the board's
  ``regroup_labels`` may change the number of cities: each old city goes to the new city
  its track leads to (several may merge into one, whose spaces must hold their tokens);
- a tile the board's promotion chart (``BoardDef.promotions``) lists for the old tile may
  replace it whatever its colour and its numbers of cities and towns: each old node goes to
  the new node its track leads to (two old nodes may share one new node), towns becoming
  cities where the chart says so;
- all old track is kept, with its gauge: an old narrow path becomes narrow or dual, an old
  standard path standard or dual, and dual stays dual;
- every new exit faces a real neighbouring hex: not off the map, not through an impassable
  border, and not into a gray/red/blue hex unless that hex has track facing back;
- the tile must be in the supply. A replaced tile goes back to the supply; a preprinted tile
  does not (it was never in it).

Station tokens are kept per city ``(hex, node index)`` as a list with one entry per slot (a
corporation symbol or ``None``); they move to the matching city of an upgrade tile.

Overlay track (e.g. a tunnel) is track laid over a hex besides its tile: plain edge-to-edge
paths that stay when the tile under them changes. Whether one may be laid, and which tiles
may then go under it, is the title's rule.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator, Mapping
from typing import Any

from tresham.core.board import BoardDef
from tresham.core.errors import TrackError
from tresham.core.tiles import (
    CITY,
    DUAL,
    PathDef,
    PathEnd,
    TileDef,
    gauge_kept,
    next_color,
    opposite,
)

NodeKey = tuple[str, int]
"""A node on the map: (hex coordinate, node index on the hex's current tile)."""

RULE_COLOR = "Tile lay: colour order"
RULE_LABEL = "Tile lay: labels"
RULE_NODES = "Tile lay: cities and towns"
RULE_KEEP = "Tile lay: keep old track"
RULE_EXITS = "Tile lay: exits face the map"
RULE_SUPPLY = "Tile lay: tile supply"
RULE_HEX = "Tile lay: buildable hex"
RULE_TOKEN = "Station token"
#: The cache key of the map's track graph (kept across changes of tokens only).
TRACK_GRAPH = "track_graph"
#: Overlay path ``j`` of a hex is path ``OVERLAY_BASE + j`` of that hex in the track graph
#: (after any tile's paths: no tile has this many).
OVERLAY_BASE = 50


class MapState:
    """The mutable map of one game.

    ``tiles`` maps a hex to its laid ``(tile id, rotation)`` (absent: the preprinted content);
    ``tokens`` maps a city to its slot occupants; ``reservations`` maps a corporation to the
    cities whose slots are kept for its home tokens; ``supply`` is the remaining tile count by id.

    Copying is cheap (the board and catalogue are shared, the rest is small dicts); use
    :meth:`copy` or :func:`copy.deepcopy`. :meth:`to_dict` is canonical.
    """

    __slots__ = (
        "_cache",
        "board",
        "catalogue",
        "overlays",
        "reservations",
        "supply",
        "tiles",
        "tokens",
        "version",
    )

    def __init__(
        self,
        board: BoardDef,
        catalogue: Mapping[str, TileDef],
        supply: Mapping[str, int] | None = None,
    ) -> None:
        self.board = board
        self.catalogue = catalogue
        self.tiles: dict[str, tuple[str, int]] = {}
        self.tokens: dict[NodeKey, list[str | None]] = {}
        self.reservations: dict[str, list[NodeKey]] = {}
        self.supply: dict[str, int] = dict(supply or {})
        #: hex → overlay paths laid over it, as (edge, edge) pairs
        self.overlays: dict[str, list[tuple[int, int]]] = {}
        for tile_id in self.supply:
            if tile_id not in catalogue:
                raise ValueError(f"supply names unknown tile {tile_id!r}")
        #: Bumped on every change; caches built from the map (track graph) key on it.
        self.version = 0
        self._cache: dict[Hashable, Any] = {}

    # -- copying and comparison -----------------------------------------------------------
    def copy(self, keep_cache: bool = False) -> MapState:
        """A copy to change on its own; with `keep_cache`, it starts with the answers worked
        out for this map (shared: cached values are never changed, only replaced)."""
        new = MapState.__new__(MapState)
        new.board = self.board
        new.catalogue = self.catalogue
        new.tiles = dict(self.tiles)
        new.tokens = {k: list(v) for k, v in self.tokens.items()}
        new.reservations = {k: list(v) for k, v in self.reservations.items()}
        new.supply = dict(self.supply)
        new.overlays = {k: list(v) for k, v in self.overlays.items()}
        new.version = self.version
        new._cache = dict(self._cache) if keep_cache else {}
        return new

    def __copy__(self) -> MapState:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> MapState:
        new = self.copy()
        memo[id(self)] = new
        return new

    def to_dict(self) -> dict[str, Any]:
        """Canonical, JSON-serialisable form (sorted keys; empty token lists omitted; the
        overlays only when there are any)."""
        out = {
            "tiles": {c: [t, r] for c, (t, r) in sorted(self.tiles.items())},
            "tokens": {
                f"{c}:{n}": list(slots)
                for (c, n), slots in sorted(self.tokens.items())
                if any(s is not None for s in slots)
            },
            "reservations": {
                k: [[c, n] for c, n in v] for k, v in sorted(self.reservations.items())
            },
            "supply": dict(sorted(self.supply.items())),
        }
        if self.overlays:
            out["overlays"] = {c: [list(p) for p in v] for c, v in sorted(self.overlays.items())}
        return out

    @staticmethod
    def from_dict(
        board: BoardDef, catalogue: Mapping[str, TileDef], data: Mapping[str, Any]
    ) -> MapState:
        """Rebuild a state from :meth:`to_dict` output (no rule checks)."""
        state = MapState(board, catalogue, {str(k): int(v) for k, v in data["supply"].items()})
        for coord, (tile_id, rotation) in data["tiles"].items():
            if tile_id not in catalogue:
                raise ValueError(f"unknown tile {tile_id!r} on {coord}")
            state.tiles[str(coord)] = (str(tile_id), int(rotation))
        for key, slots in data["tokens"].items():
            coord, _, node = str(key).rpartition(":")
            state.tokens[(coord, int(node))] = [None if x is None else str(x) for x in slots]
        for corp, keys in data["reservations"].items():
            if keys and not isinstance(keys[0], list):  # the one-home form [hex, node]
                keys = [keys]
            state.reservations[str(corp)] = [(str(c), int(n)) for c, n in keys]
        for coord, pairs in data.get("overlays", {}).items():
            state.overlays[str(coord)] = [(int(a), int(b)) for a, b in pairs]
        return state

    def __eq__(self, other: object) -> bool:  # equal by value: so unhashable (no __hash__)
        if not isinstance(other, MapState):
            return NotImplemented
        return self.board is other.board and self.to_dict() == other.to_dict()

    def _changed(self, *, track: bool = True) -> None:
        """Forget what was worked out for the old map; a change of tokens or reservations
        only (``track`` false) keeps the track graph, which depends on the track alone."""
        self.version += 1
        graph = None if track else self._cache.get(TRACK_GRAPH)
        self._cache.clear()
        if graph is not None:
            self._cache[TRACK_GRAPH] = graph

    def cached(self, key: Hashable) -> Any:
        """A value cached for the current version (``None`` if absent)."""
        return self._cache.get(key)

    def set_cached(self, key: Hashable, value: Any) -> None:
        self._cache[key] = value

    # -- tiles ----------------------------------------------------------------------------
    def tile(self, coord: str) -> TileDef:
        """The tile now on ``coord``: the laid tile, or the hex's preprinted content."""
        placed = self.tiles.get(coord)
        if placed is None:
            return self.board.hex(coord).tile
        return self.catalogue[placed[0]]

    def rotation(self, coord: str) -> int:
        placed = self.tiles.get(coord)
        return 0 if placed is None else placed[1]

    def color(self, coord: str) -> str:
        """Colour of what is on ``coord`` (the hex colour when no tile is laid)."""
        return self.tile(coord).color

    def exits(self, coord: str) -> frozenset[int]:
        return self.tile(coord).exits(self.rotation(coord))

    def paths(self, coord: str) -> tuple[PathDef, ...]:
        """The paths on ``coord`` with absolute board edges."""
        return self.tile(coord).rotated_paths(self.rotation(coord))

    def iter_hexes(self) -> Iterator[tuple[str, TileDef, int]]:
        """Every hex with its current tile and rotation."""
        for coord in self.board.hexes:
            yield coord, self.tile(coord), self.rotation(coord)

    def lay_problem(
        self, coord: str, tile_id: str, rotation: int
    ) -> tuple[TrackError | None, dict[int, int]]:
        """Check the generic tile-lay rules (module docstring).

        Returns ``(None, node map)`` when legal, the node map sending each old node index to
        the new tile's node that replaces it; otherwise ``(error, {})``.
        """
        if coord not in self.board.hexes:
            return TrackError(f"no hex {coord} on the map", RULE_HEX), {}
        new = self.catalogue.get(tile_id)
        if new is None:
            return TrackError(f"unknown tile {tile_id!r}", RULE_SUPPLY), {}
        if not 0 <= rotation < 6:
            return TrackError(f"rotation {rotation} is not 0-5", RULE_HEX), {}
        hexdef = self.board.hex(coord)
        if hexdef.fixed:
            return TrackError(f"{coord} is a {hexdef.color} hex: no tile may be laid", RULE_HEX), {}
        if self.supply.get(tile_id, 0) <= 0:
            return TrackError(f"no tile {tile_id} left in the supply", RULE_SUPPLY), {}
        old = self.tile(coord)
        old_rot = self.rotation(coord)
        want = next_color(old.color)
        charted = tile_id in self.board.promotions.get(old.id, ())
        if new.color != want and not charted:
            return (
                TrackError(
                    f"{coord} holds {old.color}; tile {tile_id} is {new.color}, "
                    f"only {want or 'nothing'} may be laid",
                    RULE_COLOR,
                ),
                {},
            )
        if sorted(old.labels) != sorted(new.labels):
            return (
                TrackError(
                    f"tile {tile_id} labels {list(new.labels)} differ from {coord}'s "
                    f"{list(old.labels)}",
                    RULE_LABEL,
                ),
                {},
            )
        regroup = _kind_counts(old) != _kind_counts(new) and _may_regroup(old, new, self.board)
        if _kind_counts(old) != _kind_counts(new) and not regroup and not charted:
            return (
                TrackError(
                    f"tile {tile_id} has {new.city_count} cities/{new.town_count} towns; "
                    f"{coord} has {old.city_count}/{old.town_count}",
                    RULE_NODES,
                ),
                {},
            )
        old_paths = old.rotated_paths(old_rot)
        new_paths = new.rotated_paths(rotation)
        if regroup:
            mapping = _regroup_map(old_paths, new_paths)
        elif charted:
            mapping = _charted_map(old, old_paths, new, new_paths)
        else:
            mapping = _keep_track(old, old_paths, new, new_paths)
        if mapping is None:
            return (
                TrackError(
                    f"tile {tile_id} rotation {rotation} does not keep the track on {coord} "
                    "(with its gauge: narrow → narrow/dual, standard → standard/dual, "
                    "dual → dual)",
                    RULE_KEEP,
                ),
                {},
            )
        bad = self.bad_exits(coord, new.exit_mask(rotation) & ~old.exit_mask(old_rot))
        if bad:
            return (
                TrackError(
                    f"tile {tile_id} rotation {rotation} on {coord}: exit(s) {bad} lead off "
                    "the map, through an impassable border or into a fixed hex's side",
                    RULE_EXITS,
                ),
                {},
            )
        held: dict[int, int] = {}
        for old_i, new_i in mapping.items():
            if old.nodes[old_i].kind == CITY:
                tokens = [t for t in self.tokens.get((coord, old_i), ()) if t is not None]
                kept = [c for c, keys in self.reservations.items() if (coord, old_i) in keys]
                held[new_i] = held.get(new_i, 0) + len(tokens) + len(set(kept) - set(tokens))
                if held[new_i] > new.nodes[new_i].slots:
                    return TrackError(
                        f"tile {tile_id} has too few slots for the tokens on {coord}", RULE_NODES
                    ), {}
        return None, mapping

    def bad_exits(self, coord: str, edge_mask: int) -> list[int]:
        """The edges in ``edge_mask`` that may not carry track out of ``coord``."""
        bad = []
        for e in range(6):
            if not edge_mask >> e & 1:
                continue
            nb = self.board.neighbor(coord, e)
            if nb is None:
                bad.append(e)
                continue
            nbhex = self.board.hexes[nb]
            if nbhex.fixed and not nbhex.tile.exit_mask(0) >> opposite(e) & 1:
                bad.append(e)
        return bad

    def check_lay(self, coord: str, tile_id: str, rotation: int) -> dict[int, int]:
        """Raise :class:`TrackError` unless the generic rules allow the lay; return the node
        map (old node index → new)."""
        err, mapping = self.lay_problem(coord, tile_id, rotation)
        if err is not None:
            raise err
        return mapping

    def lay_tile(self, coord: str, tile_id: str, rotation: int, *, check: bool = True) -> None:
        """Lay or upgrade: the old laid tile returns to the supply, tokens and reservations move
        to the matching cities. With ``check=False`` the generic rules are not enforced (the
        node map is still worked out when possible)."""
        rotation %= 6
        if check:
            mapping = self.check_lay(coord, tile_id, rotation)
        else:
            _err, mapping = self.lay_problem(coord, tile_id, rotation)
            if not mapping:
                mapping = {i: i for i in range(len(self.tile(coord).nodes))}
        old_placed = self.tiles.get(coord)
        if old_placed is not None:
            self.supply[old_placed[0]] = self.supply.get(old_placed[0], 0) + 1
        self.supply[tile_id] = self.supply.get(tile_id, 0) - 1
        self.tiles[coord] = (tile_id, rotation)
        new = self.catalogue[tile_id]
        moved: dict[NodeKey, list[str | None]] = {}
        for (c, n), slots in list(self.tokens.items()):
            if c != coord:
                continue
            del self.tokens[(c, n)]
            target = mapping.get(n, n)
            if target >= len(new.nodes):
                continue
            kept = list(slots)
            if (coord, target) in moved:  # cities merging into one (regroup_labels)
                kept = [s for s in moved[(coord, target)] + kept if s is not None]
            size = new.nodes[target].slots
            if len(kept) > size:
                kept = [s for s in kept if s is not None]
            kept += [None] * (size - len(kept))
            moved[(coord, target)] = kept
        self.tokens.update(moved)
        for corp, keys in self.reservations.items():
            self.reservations[corp] = [
                (c, mapping.get(n, n)) if c == coord else (c, n) for c, n in keys
            ]
        self._changed()

    def add_overlay(self, coord: str, a: int, b: int) -> None:
        """Lay an overlay path from edge ``a`` to edge ``b`` of ``coord`` (no rule checks:
        the title's)."""
        if coord not in self.board.hexes or not (0 <= a < 6 and 0 <= b < 6) or a == b:
            raise TrackError(f"no overlay from edge {a} to {b} on {coord}", RULE_HEX)
        self.overlays.setdefault(coord, []).append((min(a, b), max(a, b)))
        self._changed()

    def revert_hex(self, coord: str) -> list[tuple[str, NodeKey]]:
        """Put the preprinted content back on ``coord`` (the laid tile returns to the supply;
        overlays leave it) and remove every token there. Returns the removed tokens as
        ``(corporation, city)``."""
        self.overlays.pop(coord, None)
        removed: list[tuple[str, NodeKey]] = []
        for key in [k for k in self.tokens if k[0] == coord]:
            removed += [(s, key) for s in self.tokens.pop(key) if s is not None]
        placed = self.tiles.pop(coord, None)
        if placed is not None:
            self.supply[placed[0]] = self.supply.get(placed[0], 0) + 1
        tile = self.tile(coord)
        for corp, keys in self.reservations.items():
            self.reservations[corp] = [
                (c, 0) if c == coord and n >= len(tile.nodes) else (c, n) for c, n in keys
            ]
        self._changed()
        return removed

    def downgrade(self, coord: str, lower: tuple[str, int] | None) -> None:
        """Replace the laid tile on ``coord`` by ``lower`` (tile id, rotation) or, with None,
        by the preprinted content. The laid tile returns to the supply; tokens stay on the
        city of the same index (the last city when there are fewer), even beyond its slots
        (a title's rule, e.g. a bombed city)."""
        placed = self.tiles.pop(coord)
        self.supply[placed[0]] = self.supply.get(placed[0], 0) + 1
        if lower is not None:
            self.supply[lower[0]] = self.supply.get(lower[0], 0) - 1
            self.tiles[coord] = lower
        cities = self.tile(coord).city_indices
        moved: dict[NodeKey, list[str | None]] = {}
        for key in [k for k in self.tokens if k[0] == coord]:
            held: list[str | None] = [s for s in self.tokens.pop(key) if s is not None]
            target = key[1] if key[1] in cities else (cities[-1] if cities else key[1])
            moved.setdefault((coord, target), []).extend(held)
        tile = self.tile(coord)
        for key, held in moved.items():
            size = tile.nodes[key[1]].slots if key[1] < len(tile.nodes) else 0
            self.tokens[key] = held + [None] * (size - len(held))
        self._changed()

    # -- tokens ---------------------------------------------------------------------------
    def _city(self, coord: str, node: int) -> int:
        """Slot count of city ``(coord, node)``; raise if it is not a city."""
        tile = self.tile(coord)
        if not 0 <= node < len(tile.nodes) or tile.nodes[node].kind != CITY:
            raise TrackError(f"{coord} has no city {node}", RULE_TOKEN)
        return tile.nodes[node].slots

    def slots(self, coord: str, node: int) -> tuple[str | None, ...]:
        """The occupants of every slot of a city (``None`` = empty)."""
        size = self._city(coord, node)
        held = self.tokens.get((coord, node), [])
        return tuple(held) + (None,) * (size - len(held))

    def token_holders(self, coord: str, node: int) -> tuple[str, ...]:
        return tuple(s for s in self.tokens.get((coord, node), ()) if s is not None)

    def has_token(self, corporation: str, coord: str, node: int | None = None) -> bool:
        """Whether ``corporation`` has a token on ``coord`` (in city ``node`` if given)."""
        return any(
            corporation in slots
            for (c, n), slots in self.tokens.items()
            if c == coord and (node is None or n == node)
        )

    def tokens_of(self, corporation: str) -> list[NodeKey]:
        """Every city holding one of ``corporation``'s tokens, sorted."""
        return sorted(k for k, slots in self.tokens.items() if corporation in slots)

    def free_slots(self, coord: str, node: int, corporation: str | None = None) -> int:
        """Empty slots of a city that ``corporation`` may use: empty slots minus those reserved
        for other corporations' homes."""
        size = self._city(coord, node)
        used = len(self.token_holders(coord, node))
        reserved = sum(
            1
            for corp, keys in self.reservations.items()
            if corp != corporation
            for key in keys
            if key == (coord, node)
        )
        return max(0, size - used - reserved)

    def blocks(self, coord: str, node: int, corporation: str) -> bool:
        """A city blocks ``corporation``'s trains when every slot holds another corporation's
        token (reserved but empty slots do not block)."""
        tile = self.tile(coord)
        nd = tile.nodes[node]
        if nd.kind != CITY or nd.slots == 0:
            return False
        held = self.tokens.get((coord, node))
        if not held:
            return False
        n = 0
        for s in held:
            if s is None:
                continue
            if s == corporation:
                return False
            n += 1
        return n >= nd.slots

    def token_problem(self, corporation: str, coord: str, node: int) -> TrackError | None:
        """Slot rules for placing a token (connectivity is checked in :mod:`graph`)."""
        try:
            self._city(coord, node)
        except TrackError as err:
            return err
        if self.has_token(corporation, coord):
            return TrackError(f"{corporation} already has a token on {coord}", RULE_TOKEN)
        if (coord, node) in self.reservations.get(corporation, []) and len(
            self.token_holders(coord, node)
        ) < self._city(coord, node):
            return None
        if self.free_slots(coord, node, corporation) <= 0:
            return TrackError(f"no free slot for {corporation} in {coord} city {node}", RULE_TOKEN)
        return None

    def place_token(
        self,
        corporation: str,
        coord: str,
        node: int,
        slot: int | None = None,
        *,
        beyond_slots: bool = False,
    ) -> int:
        """Put a token in the first empty slot (or ``slot``); a reservation of this city by the
        corporation is used up. Returns the slot index. With ``beyond_slots`` (a title's rule,
        e.g. a home whose city lost spaces) a full city takes the token as an extra one."""
        err = self.token_problem(corporation, coord, node)
        if err is not None and not (beyond_slots and err.rule == RULE_TOKEN and slot is None):
            raise err
        if self.has_token(corporation, coord):
            raise TrackError(f"{corporation} already has a token on {coord}", RULE_TOKEN)
        size = self._city(coord, node)
        held = self.tokens.setdefault((coord, node), [])
        held += [None] * (size - len(held))
        if slot is None:
            if err is not None or None not in held:
                held.append(None)
                slot = len(held) - 1
            else:
                slot = held.index(None)
        elif not 0 <= slot < size or held[slot] is not None:
            raise TrackError(f"slot {slot} of {coord} city {node} is not free", RULE_TOKEN)
        held[slot] = corporation
        keys = self.reservations.get(corporation, [])
        if (coord, node) in keys:
            keys.remove((coord, node))
            if not keys:
                del self.reservations[corporation]
        self._changed(track=False)
        return slot

    def remove_token(self, corporation: str, coord: str, node: int) -> None:
        held = self.tokens.get((coord, node))
        if not held or corporation not in held:
            raise TrackError(f"{corporation} has no token in {coord} city {node}", RULE_TOKEN)
        held[held.index(corporation)] = None
        if all(s is None for s in held):
            del self.tokens[(coord, node)]
        self._changed(track=False)

    def remove_all_tokens(self, corporation: str) -> list[NodeKey]:
        """Remove every token of ``corporation`` (e.g. when it closes); returns the cities."""
        cities = self.tokens_of(corporation)
        for coord, node in cities:
            self.remove_token(corporation, coord, node)
        return cities

    def reserve(self, corporation: str, coord: str, node: int) -> None:
        """Keep a slot of a city for a home token of ``corporation`` (a corporation may have
        several homes)."""
        self._city(coord, node)
        keys = self.reservations.setdefault(corporation, [])
        if (coord, node) not in keys:
            keys.append((coord, node))
        self._changed(track=False)

    def release_reservation(self, corporation: str) -> None:
        if self.reservations.pop(corporation, None) is not None:
            self._changed(track=False)


def _kind_counts(tile: TileDef) -> tuple[int, int, int]:
    cities = towns = offboards = 0
    for n in tile.nodes:
        if n.kind == CITY:
            cities += 1
        elif n.kind == "town":
            towns += 1
        elif n.kind == "offboard":
            offboards += 1
    return cities, towns, offboards


def _node_maps(old: TileDef, new: TileDef) -> Iterator[dict[int, int]]:
    """Every bijection old node → new node that keeps node kinds."""
    kinds = sorted({n.kind for n in old.nodes})
    groups = []
    for kind in kinds:
        o = [i for i, n in enumerate(old.nodes) if n.kind == kind]
        n_ = [i for i, n in enumerate(new.nodes) if n.kind == kind]
        groups.append((o, list(itertools.permutations(n_))))
    for combo in itertools.product(*(perms for _o, perms in groups)):
        mapping: dict[int, int] = {}
        for (o, _perms), perm in zip(groups, combo, strict=True):
            mapping.update(zip(o, perm, strict=True))
        yield mapping


def _keep_track(
    old: TileDef,
    old_paths: tuple[PathDef, ...],
    new: TileDef,
    new_paths: tuple[PathDef, ...],
) -> dict[int, int] | None:
    """A node map under which every old path has its own new path with the same ends and a
    kept gauge; ``None`` if there is none."""
    if not old_paths:
        return next(_node_maps(old, new), {})
    for mapping in _node_maps(old, new):
        if _paths_kept(old_paths, new_paths, mapping):
            return mapping
    return None


def _charted_map(
    old: TileDef,
    old_paths: tuple[PathDef, ...],
    new: TileDef,
    new_paths: tuple[PathDef, ...],
) -> dict[int, int] | None:
    """For a promotion the chart lists: a map of every old node to a new node, whatever the
    kinds, under which every old path is kept; one that keeps the old nodes apart is taken
    first. ``None`` if there is none."""
    maps = [
        dict(enumerate(targets))
        for targets in itertools.product(range(len(new.nodes)), repeat=len(old.nodes))
    ]
    maps.sort(key=lambda m: len(set(m.values())) < len(m))
    return next((m for m in maps if _paths_kept(old_paths, new_paths, m)), None)


def _may_regroup(old: TileDef, new: TileDef, board: BoardDef) -> bool:
    """Whether the lay may change the number of cities: a regrouping label, the same towns
    and offboards (only cities change)."""
    if not set(new.labels) & board.regroup_labels:
        return False
    return _kind_counts(old)[1:] == _kind_counts(new)[1:]


def _regroup_map(
    old_paths: tuple[PathDef, ...], new_paths: tuple[PathDef, ...]
) -> dict[int, int] | None:
    """Each old node → the new node its track's edges lead to on the new tile; ``None`` if an
    old node's edges lead to different new nodes, or to none, or an old path is not kept."""

    def leads(paths: tuple[PathDef, ...]) -> dict[int, int]:
        out: dict[int, int] = {}
        for p in paths:
            for edge, node in ((p.a, p.b), (p.b, p.a)):
                if edge.is_edge and not node.is_edge:
                    out[edge.num] = node.num
        return out

    old_leads, new_leads = leads(old_paths), leads(new_paths)
    mapping: dict[int, int] = {}
    for edge, node in old_leads.items():
        target = new_leads.get(edge)
        if target is None or mapping.setdefault(node, target) != target:
            return None
    return mapping if _paths_kept(old_paths, new_paths, mapping) else None


def _paths_kept(
    old_paths: tuple[PathDef, ...], new_paths: tuple[PathDef, ...], mapping: dict[int, int]
) -> bool:
    def mapped(end: PathEnd) -> PathEnd:
        return end if end.is_edge else PathEnd(False, mapping[end.num])

    available: dict[frozenset[PathEnd], list[str]] = {}
    for p in new_paths:
        available.setdefault(frozenset((p.a, p.b)), []).append(p.gauge)
    # Old dual paths need a dual path: match them first; others prefer the same gauge.
    for p in sorted(old_paths, key=lambda q: q.gauge != DUAL):
        gauges = available.get(frozenset((mapped(p.a), mapped(p.b))))
        if not gauges:
            return False
        if p.gauge in gauges:
            gauges.remove(p.gauge)
        elif any(gauge_kept(p.gauge, g) for g in gauges):
            gauges.remove(DUAL)
        else:
            return False
    return True
