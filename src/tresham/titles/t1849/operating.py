"""1849's rules for the shared operating steps (``core/rounds/steps.py``): track and stations
through the map glue (SMS's lay and station in one coastal city; AFG's check after each), the
optimizer's runs, and 1849's dividend payees and share-price moves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.core.actions import LayTile, PlaceToken, RunRoutes
from tresham.core.rounds.operating import OperatingRound
from tresham.core.shares import POOL, treasury
from tresham.titles.t1849 import map_glue, stale_graph, token_objects
from tresham.titles.t1849.facts import rules_of
from tresham.titles.t1849.rule_set import site_engine
from tresham.titles.t1849.state import turn_of

if TYPE_CHECKING:
    from tresham.core.game import Game


def _sms_hex(rnd: OperatingRound) -> str | None:
    return turn_of(rnd).sms_hex


def _sms_spent(rnd: OperatingRound) -> bool:
    """SMS was closed this turn without a hex left to build in."""
    return turn_of(rnd).sms_used and _sms_hex(rnd) is None


class Operating1849:
    """1849 §OR: lay track (terrain paid on every lay; SMS in its hex), place a token (the
    start fee paid for all of them), run trains, pay dividends (rulings R11)."""

    def may_lay(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        return not _sms_spent(rnd)

    def lay_options(self, game: Game, rnd: OperatingRound, corp: str) -> list[LayTile]:
        return map_glue.legal_lays(game, corp, _sms_hex(rnd))

    def check_lay(self, game: Game, rnd: OperatingRound, corp: str, action: LayTile) -> None:
        map_glue.check_lay(game, corp, action, _sms_hex(rnd))

    def lay(self, game: Game, rnd: OperatingRound, corp: str, action: LayTile) -> int:
        cost = map_glue.lay(game, corp, action, _sms_hex(rnd))
        stale_graph.cleared(game, corp)
        rules_of(game).check_afg(game)
        return cost

    def more_lays(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        """One tile a turn (1849 §OR Lay track)."""
        return False

    def token_options(self, game: Game, rnd: OperatingRound, corp: str) -> list[PlaceToken]:
        if game.state.corps[corp].unplaced_tokens <= 0 or _sms_spent(rnd):
            return []
        return [
            PlaceToken(corp, h, city) for h, city in map_glue.token_slots(game, corp, _sms_hex(rnd))
        ]

    def place_token(self, game: Game, rnd: OperatingRound, corp: str, action: PlaceToken) -> None:
        map_glue.place_token(game.state.map, action.hex, action.city, corp, site=site_engine(game))
        game.state.corps[corp].placed.append((action.hex, action.city))
        token_objects.placed(game, corp, (action.hex, action.city))
        stale_graph.cleared(game)
        rules_of(game).check_afg(game)

    def best_runs(self, game: Game, corp: str) -> RunRoutes:
        return map_glue.best_runs(game, corp)

    def runs_revenue(self, game: Game, corp: str, action: RunRoutes) -> int:
        return map_glue.runs_revenue(game, corp, action)

    def dividend_payee(self, game: Game, corp: str, holder: str) -> str | None:
        """Ruling R11: treasury shares pay the corporation; pool shares pay no one."""
        if holder == POOL:
            return None
        return corp if holder == treasury(corp) else holder

    def move_price(self, game: Game, corp: str, direction: str) -> None:
        rules_of(game).move_price(game, corp, direction)

    def may_withhold(self, game: Game, corp: str) -> bool:
        return True


OPERATING = Operating1849()
