"""1883's privates in the operating round (1883 §3.1, §3.3, §6.11).

- From the first 3T a railway corporation may buy a player's private at any time of its turn,
  for half to double its face value; the FRV may be bought earlier, for half to its face value
  (3.3, 6.11). FSF's presidency is never sold; the Co-operative never buys privates (8.1.3).
- A corporation owning the FRV may lay a tile in hex 20 (Reggio-Sassuolo) at no cost besides
  its normal lay; one owning the TMM a tile in Maranello (hex 43), paying the terrain (3.1).
- A corporation buying the CNP receives its port token (6.6).

Not built yet: the CNP's trade-in for an SV share, the automatic FRV lay when the privates
close (3.1), and the CNP's share for the SV at the closing (3.4.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.core.actions import BuyCompany
from tresham.core.errors import RuleError

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.titles.t1883.rules import Title1883

RULE = "1883 §6.11"
EARLY = "FRV"  # the private a corporation may buy before the first 3T (3.3)
FREE_LAY = "FRV"  # its extra lay is free (3.1 P2)


def _title(game: Game) -> Title1883:
    return game.title  # type: ignore[return-value]


def price_range(game: Game, corp: str, company: str) -> tuple[int, int] | None:
    """The prices `corp` may pay for `company` now, or None if it may not buy it."""
    s = game.state
    comp = s.companies[company]
    c = s.corps[corp]
    if comp.closed or comp.owner not in {p.name for p in s.players} or c.kind != "railway":
        return None
    if any("president" in f for f in _title(game).data["companies"] if f["sym"] == company):
        return None
    buyable = _title(game).phase_facts[game.phase.name]["privates_buyable"]
    if not buyable and company != EARLY:
        return None
    low = -(-comp.value // 2)
    high = comp.value if not buyable else 2 * comp.value
    high = min(high, c.cash)
    return (low, high) if low <= high else None


def options(game: Game, corp: str) -> list[BuyCompany]:
    """The lowest and highest offer for each private the corporation may buy."""
    out: list[BuyCompany] = []
    for company in game.state.companies:
        rng = price_range(game, corp, company)
        if rng is not None:
            out.extend(BuyCompany(corp, company, p) for p in sorted(set(rng)))
    return out


def check(game: Game, corp: str, action: BuyCompany) -> None:
    rng = price_range(game, corp, action.company)
    if rng is None:
        raise RuleError(f"{corp} may not buy {action.company} now", RULE)
    if not rng[0] <= action.price <= rng[1]:
        raise RuleError(f"{action.company} costs between L.{rng[0]} and L.{rng[1]} now", RULE)


def buy(game: Game, corp: str, action: BuyCompany) -> None:
    s = game.state
    comp = s.companies[action.company]
    assert comp.owner is not None
    game.transfer(corp, comp.owner, action.price)
    game.log(f"{corp} buys {comp.sym} from {comp.owner} for L.{action.price}")
    comp.owner = corp
    facts = next(f for f in _title(game).data["companies"] if f["sym"] == comp.sym)
    if facts.get("port_tokens"):
        entry = s.extra["ports"].setdefault(
            corp, {"unplaced": 0, "placed": [], "second_waits": False}
        )
        entry["unplaced"] += int(facts["port_tokens"])


def lay_hexes(game: Game, corp: str, used: list[str]) -> dict[str, bool]:
    """Hexes where the corporation's privates give it an extra lay this turn (not used yet),
    each with whether that lay is free."""
    s = game.state
    hexes: dict[str, str] = s.map.board.extra.get("private_hexes", {})
    return {
        coord: company == FREE_LAY
        for company, coord in hexes.items()
        if s.companies[company].owner == corp
        and not s.companies[company].closed
        and company not in used
    }


def lay_private(game: Game, corp: str, coord: str, used: list[str]) -> str | None:
    """The private whose extra lay a lay in `coord` would be, if any."""
    hexes: dict[str, str] = game.state.map.board.extra.get("private_hexes", {})
    for company, h in hexes.items():
        if h == coord and coord in lay_hexes(game, corp, used):
            return company
    return None
