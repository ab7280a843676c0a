"""Generated 1883 boards for the route tests (tile lays drawn from the legal ones around the
corporations' homes, so every board is reachable in play)."""

from __future__ import annotations

import random

from tresham.core.graph import legal_tile_lays, token_slots
from tresham.core.tiles import load_catalogue
from tresham.core.track import MapState
from tresham.titles.t1883.rules import Title1883
from tresham.titles.t1883.track_rules import TrackRules1883

TITLE = Title1883()
CORPS = ("FSMMF", "SAFRE", "SV", "FBV")


def rules_1883(phase: str, **extra: object) -> TrackRules1883:
    """1883's track and route rules in `phase` (keyword arguments as TrackRules1883's)."""
    facts = TITLE.phase_facts[phase]
    return TrackRules1883(
        phase=phase,
        colors=facts["tiles"],
        upgrades=TITLE.upgrade_chart,
        board=TITLE.board,
        **extra,  # type: ignore[arg-type]
    )


def small_board(seed: int, lays: int, phase: str, focus: str = "FSMMF") -> MapState:
    """The 1883 board with four corporations' home stations and `lays` legal lays (and an
    occasional extra station), most of them by `focus`."""
    rnd = random.Random(seed)
    supply = {k: int(v) for k, v in TITLE.data["tiles"].items()}
    s = MapState(TITLE.board, load_catalogue(), supply)
    for corp in CORPS:
        s.place_token(corp, *TITLE.board.homes[corp])
    rules = rules_1883(phase)
    for _ in range(lays):
        corp = focus if rnd.random() < 0.7 else rnd.choice(CORPS)
        options = legal_tile_lays(s, corp, rules)
        if options:
            lay = rnd.choice(options)
            s.lay_tile(lay.hex, lay.tile, lay.rotation)
        if rnd.random() < 0.15 and len(s.tokens_of(corp)) < 3:
            slots = token_slots(s, corp)
            if slots:
                s.place_token(corp, *rnd.choice(slots))
    return s
