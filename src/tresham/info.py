"""``tresham info TITLE``: a title's facts for players and tools.

The facts are read from a new game of the title at its smallest player count, so they are
what the engine plays, not a copy: the player range, the rules version new games are played
under (and the older ones still replayed), the tile manifest ``{"tiles": {number: count}}``
with its totals by colour, the board's hex count, the trains and the phases. A title adds or
changes facts through ``Title.info`` (1854: its medium-sized cities, and the tunnel tiles the
manifest counts).
"""

from __future__ import annotations

from typing import Any

from tresham.core.game import Game
from tresham.titles.registry import get_title


def _tile_key(tile_id: str) -> tuple[int, str]:
    return (int(tile_id), "") if tile_id.isdigit() else (1 << 30, tile_id)


def facts(name: str) -> dict[str, Any]:
    """The facts of title `name` (a SetupError for an unknown title)."""
    title = get_title(name)
    low, high = title.player_range
    game = Game(title, [f"Player {i + 1}" for i in range(low)])
    m = game.state.map
    tiles = {t: n for t, n in sorted(m.supply.items(), key=lambda kv: _tile_key(kv[0])) if n}
    out: dict[str, Any] = {
        "title": title.name,
        "players": {"min": low, "max": high},
        "rules_version": title.rules_version,
        "older_rules_versions": sorted(title.older_rules),
        "tiles": tiles,
        "board_hexes": len(m.board.hexes),
        "trains": [
            {
                "name": t.name,
                "distance": t.distance,
                "price": t.price,
                "count": t.count,
                "rusts_on": t.rusts_on,
            }
            for t in game.state.depot.types.values()
        ],
        "phases": [
            {
                "name": p.name,
                "on": p.on,
                "train_limit": p.train_limit,
                "train_limits": dict(p.kind_limits),
                "tiles": list(p.tiles),
                "operating_rounds": p.operating_rounds,
            }
            for p in title.phases
        ],
    }
    out.update(game.title.info(game))
    colours: dict[str, int] = {}
    for tile_id, count in out["tiles"].items():
        colour = m.catalogue[tile_id].color
        colours[colour] = colours.get(colour, 0) + count
    out["tile_colors"] = colours
    out["tile_count"] = sum(colours.values())
    return out


def describe(data: dict[str, Any]) -> str:
    """The facts as text for a terminal."""
    players = data["players"]
    lines = [
        f"{data['title']}: {players['min']}-{players['max']} players, rules version "
        f"{data['rules_version']}",
        f"board: {data['board_hexes']} hexes",
        f"tiles: {data['tile_count']} ("
        + ", ".join(f"{n} {colour}" for colour, n in data["tile_colors"].items())
        + ")",
        "  " + " ".join(f"{t}x{n}" for t, n in data["tiles"].items()),
        "trains: "
        + ", ".join(f"{t['name']} x{t['count']} at {t['price']}" for t in data["trains"]),
        "phases: "
        + ", ".join(
            f"{p['name']} ({'/'.join(p['tiles'])}; limit {p['train_limit']}; "
            f"{p['operating_rounds']} OR)"
            for p in data["phases"]
        ),
    ]
    for key, value in data.items():
        if key not in _SHOWN:
            if isinstance(value, dict):
                text = ", ".join(f"{k} {v}" for k, v in value.items())
            elif isinstance(value, list):
                text = ", ".join(str(v) for v in value)
            else:
                text = str(value)
            lines.append(f"{key.replace('_', ' ')}: {text}")
    return "\n".join(lines)


_SHOWN = frozenset(
    {
        "title",
        "players",
        "rules_version",
        "tiles",
        "board_hexes",
        "trains",
        "phases",
        "tile_colors",
        "tile_count",
    }
)
