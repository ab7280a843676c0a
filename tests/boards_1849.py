"""Generated 1849 boards for the route tests and benchmarks (tile lays drawn from the legal
ones, so every board is reachable in play)."""

from __future__ import annotations

import random
from typing import Any

from tresham.core.graph import TileLay, legal_tile_lays, token_slots
from tresham.core.track import MapState
from tresham.titles.t1849.track_rules import TrackRules1849, new_map

CORPS = ("ATA", "CTL", "IFT", "SFA")


def small_board(seed: int, lays: int, phase: str, focus: str = "SFA") -> MapState:
    """An 1849 board with the four corporations' home tokens and `lays` legal tile lays (and
    an occasional extra token) around them, most of them by `focus`; each lay is drawn from
    the few that join the most track, so that networks grow dense."""
    rnd = random.Random(seed)
    s = new_map(manifest="18xx.games")
    for corp in CORPS:
        s.place_token(corp, *s.board.homes[corp])
    rules = TrackRules1849(phase=phase, sce_blocks_g13=False)

    def joined(lay: TileLay) -> int:
        mask = s.catalogue[lay.tile].exit_mask(lay.rotation)
        return sum(
            1
            for e in range(6)
            if mask >> e & 1
            and (nb := s.board.neighbor(lay.hex, e)) is not None
            and (e + 3) % 6 in s.exits(nb)
        )

    for _ in range(lays):
        corp = focus if rnd.random() < 0.7 else rnd.choice(CORPS)
        options = sorted(legal_tile_lays(s, corp, rules), key=joined, reverse=True)
        if options:
            lay = rnd.choice(options[:4])
            s.lay_tile(lay.hex, lay.tile, lay.rotation)
        if rnd.random() < 0.2 and len(s.tokens_of(corp)) < 3:
            slots = token_slots(s, corp)
            if slots:
                s.place_token(corp, *rnd.choice(slots))
    return s


def busy_board(seed: int, lays: int = 300) -> MapState:
    """A late-game 1849 board: six corporations lay the tile that links the most track
    (upgrading up to brown) and place tokens."""
    rnd = random.Random(seed)
    s = new_map(manifest="18xx.games")
    board = s.board
    corps = ["ATA", "CTL", "IFT", "RCS", "SFA"]
    for corp in corps:
        s.place_token(corp, *board.homes[corp])
    s.place_token("AFG", "H8", 0)
    corps.append("AFG")
    for i in range(lays):
        phase = "4H" if i < 40 else "6H" if i < 100 else "12H"
        rules = TrackRules1849(phase=phase, sce_blocks_g13=False)
        corp = rnd.choice(corps)
        options = legal_tile_lays(s, corp, rules)
        if options:

            def links(lay: Any) -> tuple[int, int, float]:
                mask = s.catalogue[lay.tile].exit_mask(lay.rotation)
                n = 0
                for e in range(6):
                    nb = board.neighbor(lay.hex, e)
                    if mask >> e & 1 and nb and s.exits(nb) & {(e + 3) % 6}:
                        n += 1
                return n, bin(mask).count("1"), rnd.random()

            best = max(options, key=links)
            s.lay_tile(best.hex, best.tile, best.rotation)
        if rnd.random() < 0.3 and len(s.tokens_of(corp)) < 3:
            slots = token_slots(s, corp)
            if slots:
                s.place_token(corp, *rnd.choice(slots))
    return s
