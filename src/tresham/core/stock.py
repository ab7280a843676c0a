"""Share dealing shared by stock rounds and operating rounds: prices, buying, selling,
presidency changes, certificate limits.

Standard 18xx rules modelled here:
- a player's certificates (and privates, where the title says so) count toward a limit;
- a player may hold at most a capped percentage of one corporation (60% by default);
- the president is the holder of the largest share; a tie keeps the sitting president; a new
  president takes the president's certificate in exchange for certificates of the same size;
- shares sold go to the pool, which may hold at most a capped percentage (50% by default);
- the pool never holds the president's certificate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.core.errors import RuleError
from tresham.core.shares import POOL, Certificate, treasury

if TYPE_CHECKING:
    from tresham.core.game import Game


def cert_price(game: Game, corp: str, cert: Certificate) -> int:
    """Market price of one certificate (price per 10% times its tens)."""
    return game.state.market.price(corp) * cert.percent // 10


def bundle_price(game: Game, corp: str, percent: int) -> int:
    """Market value of `percent` of `corp`."""
    return game.state.market.price(corp) * percent // 10


def player_certs(game: Game, player: str) -> int:
    """How many certificates count toward `player`'s limit."""
    count = 0
    for cert in game.state.shares.held(player):
        corp = game.state.corps.get(cert.corp)
        if corp is None:
            continue
        if cert.corp in game.state.market and game.state.market.cell(cert.corp).has(
            "no_cert_limit"
        ):
            continue
        count += 1
    if game.title.privates_count_toward_limit:  # type: ignore[attr-defined]
        count += sum(
            1 for c in game.state.companies.values() if c.owner == player and not c.closed
        )
    return count


def update_president(game: Game, corp: str, previous: str | None) -> str | None:
    """Re-decide the presidency after a transfer; exchange certificates on a change.

    The president changes only if another player now holds strictly more. Among equal
    largest holders, the first after the previous president in seat order wins. The new
    president hands over certificates worth the president's certificate (two 10%, or a
    certificate of the same size where it holds one), which go to the old president."""
    reg = game.state.shares
    names = [p.name for p in game.state.players]
    holdings = {n: reg.percent(n, corp) for n in names}
    current = reg.president[corp]
    cur_pct = holdings.get(current, 0) if current else 0
    best = max(holdings.values()) if holdings else 0
    if current is not None and cur_pct >= best:
        return current
    pres_cert = next(c for c in reg.corp_certs(corp) if c.president)
    if best < pres_cert.percent:
        if current is None:
            return None
        # no one can take the presidency: the current president keeps it
        return current
    start = names.index(previous) if previous in names else 0
    ordered = names[start + 1 :] + names[: start + 1]
    new = next(n for n in ordered if holdings[n] == best)
    if current is None:
        reg.president[corp] = new
        return new
    # exchange: the new president gives ordinary certificates worth the president's one
    for c in _certs_worth(reg.held(new, corp), pres_cert.percent):
        reg.move(c.cid, current)
    reg.move(pres_cert.cid, new)
    reg.president[corp] = new
    game.log(f"{new} becomes president of {corp}")
    return new


def _certs_worth(certs: list[Certificate], percent: int) -> list[Certificate]:
    """Choose ordinary certificates of `certs` adding up to `percent` (same-size first)."""
    ordinary = [c for c in certs if not c.president]
    same = [c for c in ordinary if c.percent == percent and c.last]
    if same:
        return same[:1]
    out: list[Certificate] = []
    total = 0
    for c in sorted(ordinary, key=lambda c: (c.last, c.percent)):
        if total + c.percent <= percent:
            out.append(c)
            total += c.percent
        if total == percent:
            return out
    raise RuleError("the new president cannot exchange for the president's certificate",
                    "presidency")


def sell_to_pool(game: Game, seller: str, corp: str, percent: int, last: bool) -> None:
    """`seller` sells `percent` of `corp` to the pool (bank pays market value).

    If the seller is the president and would then hold less than another player, that player
    first becomes president by the certificate exchange; the seller then sells ordinary
    certificates."""
    reg = game.state.shares
    remaining_after = reg.percent(seller, corp) - percent
    value = bundle_price(game, corp, percent)
    if reg.president[corp] == seller:
        others = [p.name for p in game.state.players if p.name != seller]
        if any(reg.percent(o, corp) > remaining_after for o in others):
            _hand_over_presidency(game, seller, corp, remaining_after)
    certs = choose_sale_certs(reg.held(seller, corp), percent, last)
    for c in certs:
        reg.move(c.cid, POOL)
    game.transfer("bank", seller, value)


def _hand_over_presidency(game: Game, seller: str, corp: str, remaining: int) -> None:
    """The president sells down: the largest other holder (nearest in seat order on ties)
    takes the president's certificate, giving ordinary certificates in exchange."""
    reg = game.state.shares
    names = [p.name for p in game.state.players]
    i = names.index(seller)
    ordered = names[i + 1 :] + names[:i]
    best = max(reg.percent(o, corp) for o in ordered)
    new = next(o for o in ordered if reg.percent(o, corp) == best)
    pres = next(c for c in reg.corp_certs(corp) if c.president)
    give = _certs_worth(reg.held(new, corp), pres.percent)
    for c in give:
        reg.move(c.cid, seller)
    reg.move(pres.cid, new)
    reg.president[corp] = new
    game.log(f"{new} becomes president of {corp}")


def choose_sale_certs(held: list[Certificate], percent: int, last: bool) -> list[Certificate]:
    """Pick ordinary certificates making up `percent` (with the 20% last one if `last`)."""
    ordinary = [c for c in held if not c.president]
    out: list[Certificate] = []
    total = 0
    if last:
        lasts = [c for c in ordinary if c.last]
        if not lasts:
            raise RuleError("no last certificate to sell", "selling shares")
        out.append(lasts[0])
        total += lasts[0].percent
    for c in ordinary:
        if c.last or c in out:
            continue
        if total + c.percent <= percent:
            out.append(c)
            total += c.percent
    if total != percent:
        raise RuleError(f"cannot make up {percent}% from the certificates held",
                        "selling shares")
    return out


def sellable_bundles(game: Game, seller: str, corp: str, pool_cap: int) -> list[tuple[int, bool]]:
    """(percent, includes the last certificate) of every bundle `seller` may sell to the
    pool: the pool stays within `pool_cap`, and a president may sell down only if another
    player could take the presidency (holds at least the president's certificate's size)."""
    reg = game.state.shares
    held = reg.held(seller, corp)
    pool_pct = reg.percent(POOL, corp)
    ordinary = [c for c in held if not c.president]
    tens = sum(1 for c in ordinary if not c.last and c.percent == 10)
    lasts = [c for c in ordinary if c.last]
    is_pres = reg.president[corp] == seller
    total_held = sum(c.percent for c in held)
    pres_size = next((c.percent for c in reg.corp_certs(corp) if c.president), 20)
    others_best = max(
        (reg.percent(p.name, corp) for p in game.state.players if p.name != seller), default=0
    )
    out: list[tuple[int, bool]] = []
    for with_last in ([False, True] if lasts else [False]):
        extra = lasts[0].percent if with_last else 0
        # a president selling below another holder also hands over the president's
        # certificate in exchange for ordinary ones, so ordinary shares available grow
        max_tens = tens + (pres_size // 10 if is_pres and others_best >= pres_size else 0)
        for n in range(0 if with_last else 1, max_tens + 1):
            pct = n * 10 + extra
            if pct == 0 or pool_pct + pct > pool_cap:
                continue
            after = total_held - pct
            if is_pres:
                if after < others_best:
                    if others_best < pres_size:
                        continue
                elif n > tens:
                    continue
            elif n > tens:
                continue
            if after < 0:
                continue
            out.append((pct, with_last))
    return out


def treasury_certs(game: Game, corp: str) -> list[Certificate]:
    """The corporation's own certificates still in its treasury."""
    return game.state.shares.held(treasury(corp), corp)
