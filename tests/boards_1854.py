"""Generated 1854 positions for the route tests: a game with majors' home stations and legal
tile lays and tunnels around them (each drawn from the legal ones, so every board is
reachable)."""

from __future__ import annotations

import random

from tresham.core.game import Game
from tresham.core.graph import legal_tile_lays, token_slots
from tresham.io.save import new_game
from tresham.titles.t1854 import tunnels
from tresham.titles.t1854.operating import rules_for

MAJORS = ("SD", "KR", "KT", "SB", "NT", "VB")
#: Local Railways, on the extra map (their trains are plus trains, §3.1.2).
LOCALS = ("L1", "L3", "L4", "L5", "L6")


def small_game(seed: int, lays: int, phase_index: int, focus: str = "SD") -> Game:
    """A 4-player 1854 game whose map has the majors' home stations, `lays` legal lays (most
    of them by `focus`), an occasional tunnel (§5.3.1) and an occasional extra station; in
    phase `phase_index`."""
    rnd = random.Random(seed)
    game = new_game("1854", ["A", "B", "C", "D"], seed)
    s = game.state
    s.phase_index = phase_index
    for corp in MAJORS + LOCALS:
        s.map.place_token(corp, *s.map.board.homes[corp])
        s.shares.president[corp] = "A"
        game.transfer("bank", corp, 1000)  # enough for the tunnels
    others = LOCALS if focus in LOCALS else MAJORS
    for _ in range(lays):
        corp = focus if rnd.random() < 0.7 else rnd.choice(others)
        options = legal_tile_lays(s.map, corp, rules_for(game, corp))
        if options:
            lay = rnd.choice(options)
            s.map.lay_tile(lay.hex, lay.tile, lay.rotation)
        if rnd.random() < 0.25:
            digs = tunnels.options(game, corp, rules_for(game, corp))
            if digs:
                s.map.add_overlay(*rnd.choice(digs))
        if rnd.random() < 0.15 and len(s.map.tokens_of(corp)) < 3:
            slots = token_slots(s.map, corp)
            if slots:
                s.map.place_token(corp, *rnd.choice(slots))
    return game
