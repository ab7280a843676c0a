"""Which slot of a city holds which token on 18xx.games, for the export (``site_writer.py``):
the site's ``buy_token`` names the seller's token by its slot.

tresham keeps a token in its slot when a tile is upgraded; the site seats the old tile's
tokens again, in slot order, each in the first slot neither taken nor reserved for another
corporation (``Hex#lay``, ``City#exchange_token``, ``City#get_slot``), so a slot left empty
by a closure or a bought token closes up. A token placed goes to the corporation's reserved
slot, else to the first slot neither taken nor reserved; so does a token bought, once the
seller's is gone (``G1849::Step::BuyToken#process_buy_token``: ``remove!``, then
``exchange_token``): the seller's slot where no earlier one is empty, else the first empty.
:class:`SiteSlots` keeps the site's layout of each city beside tresham's, the same tokens in
the site's slots; where a hex with more than one city is relaid it takes tresham's layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tresham.core.track import MapState

NodeKey = tuple[str, int]


@dataclass
class SiteSlots:
    """Each city's tokens in the site's slots, and the tile each hex had then."""

    layout: dict[NodeKey, list[str | None]] = field(default_factory=dict)
    tiles: dict[str, tuple[str, int] | None] = field(default_factory=dict)

    def slot(self, key: NodeKey, corp: str) -> int:
        """The site's slot of `corp`'s token in the city."""
        return self.layout[key].index(corp)

    def follow(self, state: MapState) -> None:
        """Bring the layouts to tresham's tokens after an action."""
        for key in sorted(set(self.layout) | set(state.tokens)):
            coord = key[0]
            now = list(state.tokens.get(key, []))
            old = self.layout.get(key)
            relaid = self.tiles.get(coord, state.tiles.get(coord)) != state.tiles.get(coord)
            if old is None or (relaid and len(state.tile(coord).city_indices) != 1):
                self.layout[key] = now
                continue
            reserved = self._reserved(state, key, now)
            if relaid:  # the site seats the old tile's tokens again, in slot order
                seated: list[str | None] = [None] * len(now)
                for corp in old:
                    if corp is not None and corp in now:
                        seated[_free(seated, reserved, corp)] = corp
                old = seated
            layout = [c if c in now else None for c in old] + [None] * (len(now) - len(old))
            for corp in [c for c in now if c is not None and c not in layout]:
                layout[_free(layout, reserved, corp)] = corp
            self.layout[key] = layout
        self.tiles = {coord: state.tiles.get(coord) for coord, _ in self.layout}

    @staticmethod
    def _reserved(state: MapState, key: NodeKey, now: list[str | None]) -> list[str]:
        """The corporations that hold a reservation in the city and no token there yet."""
        held = sorted(state.reservations.items())
        return [corp for corp, keys in held if key in keys and corp not in now]


def _free(layout: list[str | None], reserved: list[str], corp: str) -> int:
    """The slot the site gives `corp`'s token: its reserved one (the first ones empty are the
    reserved ones, in the order of `reserved`), else the first empty slot reserved for no
    one, else the first empty one."""
    empty = [i for i, c in enumerate(layout) if c is None]
    if corp in reserved and reserved.index(corp) < len(empty):
        return empty[reserved.index(corp)]
    rest = empty[len(reserved) :]
    return (rest or empty)[0]


__all__ = ["SiteSlots"]
