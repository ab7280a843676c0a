"""1883's port tokens (1883 §6.6).

- A port token goes, at any time of its owner's OR turn, on a city with the anchor symbol;
  cities may hold the tokens of several corporations, never two of one.
- FSF begins with two: the first placeable from its first OR, the second only after the first
  3T is sold.
- The CNP's token goes to the corporation that buys the CNP, or to SV when the CNP's owner
  trades it in (3.1 P3, ``privates.buy`` and ``privates.trade_in``); it may be placed from
  then on, in the same turn if bought in one, never waiting for a 3T.
- SEFTA takes over FMV's and FSMMF's tokens (8.4); a corporation that closes loses its tokens
  for good (5.8).
- Each of a corporation's port tokens adds L.20, L.10 from the first 4T, to every run of its
  trains visiting that city (``track_rules.TrackRules1883.run_bonus``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.titles.t1883.actions import PlacePort
from tresham.titles.t1883.facts import PHASE_FACTS
from tresham.titles.t1883.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game


def placed(game: Game, corp: str) -> list[str]:
    """Port cities holding one of `corp`'s port tokens."""
    entry = state_of(game).ports.get(corp)
    return list(entry.placed) if entry else []


def options(game: Game, corp: str) -> list[PlacePort]:
    """Where `corp` may place a port token now."""
    s = game.state
    entry = state_of(game).ports.get(corp)
    if not entry or entry.unplaced <= 0:
        return []
    phase = PHASE_FACTS[game.phase.name]
    if entry.placed and entry.second_waits and not phase["fsf_second_port"]:
        return []
    return [PlacePort(corp, h) for h in s.map.board.extra["ports"] if h not in entry.placed]


def place(game: Game, corp: str, action: PlacePort) -> None:
    entry = state_of(game).ports[corp]
    entry.unplaced -= 1
    entry.placed.append(action.hex)
    game.log(f"{corp} places a port token in {game.state.map.board.place(action.hex)}")
