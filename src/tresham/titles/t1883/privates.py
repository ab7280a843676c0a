"""1883's privates in the operating round (1883 §3.1, §3.3, §6.11).

- From the first 3T a railway corporation may buy a player's private at any time of its turn,
  for half to double its face value; the FRV may be bought earlier, for half to its face value
  (3.3, 6.11). FSF's presidency is never sold; the Co-operative never buys privates (8.1.3).
- A corporation owning the FRV may lay a tile in hex 20 (Reggio-Sassuolo) at no cost besides
  its normal lay; one owning the TMM a tile in Maranello (hex 43), paying the terrain (3.1).
- A corporation buying the CNP receives its port token (6.6).

- The CNP's owner may trade it in for a 10% SV share from the initial offering (SV then
  receives its par) or the pool; the CNP closes and its port token goes to SV (3.1 P3). In
  tresham the trade is a stock-round turn's action (ruling R20).
- When the privates close (the first 5T or the SEFTA merger), a CNP not traded in sends a 10%
  SV share from the initial offering to the pool (within 50%) and SV receives its par; if SV has
  not floated, the share goes to the pool and its par is paid to SV when it floats (3.4.1).

- When the privates close and hex 20 still has no tile, the Reggio Emilia - Sassuolo
  connection is laid there for nothing, if a tile that joins the two is in the supply (3.1
  P2; the first such tile and rotation in the catalogue's order, ruling R21).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.core.actions import BuyCompany, UseCompany
from tresham.core.errors import RuleError
from tresham.core.graph import legal_tile_lays
from tresham.core.shares import POOL, treasury
from tresham.titles.t1883.facts import DATA, PHASE_FACTS
from tresham.titles.t1883.state import PortTokens, state_of

if TYPE_CHECKING:
    from tresham.core.game import Game

RULE = "1883 §6.11"
TRADE = "CNP"  # traded in for a share of SV (3.1 P3)
TRADE_FOR = "SV"
EARLY = "FRV"  # the private a corporation may buy before the first 3T (3.3)
FREE_LAY = "FRV"  # its extra lay is free (3.1 P2)


def price_range(game: Game, corp: str, company: str) -> tuple[int, int] | None:
    """The prices `corp` may pay for `company` now, or None if it may not buy it."""
    s = game.state
    comp = s.companies[company]
    c = s.corps[corp]
    if comp.closed or comp.owner not in {p.name for p in s.players} or c.kind != "railway":
        return None
    if any("president" in f for f in DATA["companies"] if f["sym"] == company):
        return None
    buyable = PHASE_FACTS[game.phase.name]["privates_buyable"]
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
    if action.company not in game.state.companies:
        raise RuleError(f"there is no private company {action.company!r}", RULE)
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
    facts = next(f for f in DATA["companies"] if f["sym"] == comp.sym)
    for _ in range(int(facts.get("port_tokens", 0))):
        _port_to(game, corp)


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


def trade_options(game: Game, player: str) -> list[UseCompany]:
    """3.1 P3: the CNP's owner may trade it in for an SV share (from the initial offering
    once SV has a par price, or from the pool), within the 60% holding cap."""
    s = game.state
    comp = s.companies.get(TRADE)
    if comp is None or comp.closed or comp.owner != player:
        return []
    sv = s.corps[TRADE_FOR]
    if s.shares.percent(player, TRADE_FOR) + 10 > 60:
        return []
    ipo = sv.par_price and any(
        c.percent == 10 for c in s.shares.held(treasury(TRADE_FOR), TRADE_FOR)
    )
    pool = any(c.percent == 10 for c in s.shares.held(POOL, TRADE_FOR))
    return [UseCompany(player, TRADE, TRADE_FOR)] if ipo or pool else []


def trade_in(game: Game, player: str) -> None:
    """The trade: the share (from the initial offering first), SV's par, the port token."""
    s = game.state
    sv = s.corps[TRADE_FOR]
    ipo = [c for c in s.shares.held(treasury(TRADE_FOR), TRADE_FOR) if c.percent == 10]
    if sv.par_price and ipo:
        s.shares.move(ipo[0].cid, player)
        game.transfer("bank", TRADE_FOR, sv.par_price)
    else:
        cert = next(c for c in s.shares.held(POOL, TRADE_FOR) if c.percent == 10)
        s.shares.move(cert.cid, player)
    s.companies[TRADE].closed = True
    _port_to(game, TRADE_FOR)
    game.log(f"{player} trades {TRADE} in for 10% of {TRADE_FOR}")


def _port_to(game: Game, corp: str) -> None:
    entry = state_of(game).ports.setdefault(corp, PortTokens(0))
    entry.unplaced += 1


def close_all(game: Game) -> None:
    """3.4: the privates close; 3.4.1: an untraded CNP gives SV a share in the pool; 3.1 P2:
    the FRV's connection is made if not yet built."""
    s = game.state
    cnp = s.companies.get(TRADE)
    if cnp is not None and not cnp.closed:
        cnp_share_to_pool(game)
    _frv_connection(game)
    for comp in s.companies.values():
        comp.closed = True
    game.log("The private companies close")


def cnp_share_to_pool(game: Game) -> None:
    """3.4.1 (and 5.8 for a closing corporation owning the CNP): a 10% SV share from the
    initial offering to the pool, within 50%; SV receives its par now, or when it floats."""
    s = game.state
    ipo = [c for c in s.shares.held(treasury(TRADE_FOR), TRADE_FOR) if c.percent == 10]
    if not ipo or s.shares.percent(POOL, TRADE_FOR) + 10 > 50:
        return
    s.shares.move(ipo[0].cid, POOL)
    sv = s.corps[TRADE_FOR]
    if sv.par_price:
        game.transfer("bank", TRADE_FOR, sv.par_price)
    else:
        state_of(game).sv_par_owed += 1
    game.log(f"a 10% {TRADE_FOR} share goes to the pool for the {TRADE}")


def _frv_connection(game: Game) -> None:
    """3.1 P2: a yellow tile in hex 20 joining both neighbours it was meant to join."""
    # operating imports this module for its steps: its route rules are reached late
    from tresham.titles.t1883.operating import rules_for

    s = game.state
    coord = s.map.board.extra.get("private_hexes", {}).get(FREE_LAY)
    if coord is None or coord in s.map.tiles:
        return
    ends = [
        e for e in range(6) if s.map.board.neighbor(coord, e) in s.map.board.extra["two_city_hexes"]
    ]
    corp = state_of(game).coop
    for t in legal_tile_lays(
        s.map, corp, rules_for(game, corp), hexes=[coord], require_connection=False
    ):
        mask = s.map.catalogue[t.tile].exit_mask(t.rotation)
        if all(mask >> e & 1 for e in ends):
            s.map.lay_tile(coord, t.tile, t.rotation)
            game.log(
                "The Reggio Emilia - Sassuolo connection is laid in "
                f"{s.map.board.place(coord)} (tile {t.tile})"
            )
            return
